// CPU kernels of boxFilter / blur / sqrBoxFilter (cv_box) and adaptiveThreshold (cv_adaptive),
// shape rules in ops/cv/filter_box.cpp. Compiled once per ISA; plain loops the compiler vectorises.
//
// Integer sources whose sums fit 32 bits take exact integer sums: row sums tap by tap, column sums
// running (add the entering row, subtract the leaving one), so a row costs O(1) per pixel in kh.
// Exact integers make the order irrelevant: every ISA and thread count gives the same bits.
// Float sources (and integer ones whose sums do not fit) sum in double in the fixed order
// ((0 + p0) + p1) + ... along the row, then down the column, which is the order cv_sep_filter
// used for these calls before (their results are pinned bit-exact by the tests).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "backends/cpu/simd/cv/filter_box_util.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;
using box_util::bmap;
using box_util::pad_row;
using box_util::row_grain;
using box_util::sat;

struct Box {
  int64_t h, w, c;       // image geometry
  int64_t kw, kh, ax, ay;
  int border;
};

template <class R>
inline void add_into(int32_t* __restrict a, const R* __restrict s, int64_t n) {
  for (int64_t x = 0; x < n; ++x) a[x] += static_cast<int32_t>(s[x]);
}
template <class R>
inline void slide(int32_t* __restrict a, const R* __restrict in, const R* __restrict out, int64_t n) {
  for (int64_t x = 0; x < n; ++x) a[x] += static_cast<int32_t>(in[x]) - static_cast<int32_t>(out[x]);
}

// Exact integer box sums of rows [y0, y1): finish(y, acc) receives the int32 window sums of row y.
// R: the row-sum type (uint16 when kw * max fits, else int32); sqr: squares of the pixels.
template <class S, class R, bool SQR, class Finish>
void box_int_rows(const S* src, const Box& b, int64_t y0, int64_t y1, Finish&& finish) {
  const int64_t n = b.w * b.c, c = b.c, kh = b.kh, slots = kh + 1;
  std::vector<R> prow(static_cast<size_t>((b.w + b.kw - 1) * c));
  std::vector<R> ring(static_cast<size_t>(slots * n));
  std::vector<int32_t> acc(static_cast<size_t>(n), 0);
  std::vector<const R*> taps(static_cast<size_t>(b.kw));
  for (int64_t q = 0; q < b.kw; ++q) taps[q] = prow.data() + q * c;
  auto make = [&](int64_t p, R* d) {
    const int64_t r = bmap(p, b.h, b.border);
    if constexpr (SQR) {
      if (r >= 0) {
        const S* __restrict s = src + r * n;
        R* __restrict m = prow.data() + b.ax * c;
        for (int64_t i = 0; i < n; ++i) m[i] = static_cast<R>(static_cast<R>(s[i]) * static_cast<R>(s[i]));
        for (int64_t x = 0; x < b.w + b.kw - 1; ++x) {  // the border columns, squared as cv2 squares them
          if (x == b.ax) x = b.ax + b.w;
          if (x >= b.w + b.kw - 1) break;
          const int64_t q = bmap(x - b.ax, b.w, b.border);
          for (int64_t k = 0; k < c; ++k)
            prow[x * c + k] = q < 0 ? R(0) : static_cast<R>(static_cast<R>(s[q * c + k]) * static_cast<R>(s[q * c + k]));
        }
      } else {
        std::fill(prow.begin(), prow.end(), R(0));
      }
    } else {
      pad_row<S, R>(src, b.w, c, r, b.ax, b.kw - 1 - b.ax, b.border, R(0), prow.data());
    }
    box_util::taps_ptrs<R, true>(d, taps.data(), nullptr, b.kw, n);
  };
  auto slot = [&](int64_t p) { return ring.data() + (((p % slots) + slots) % slots) * n; };
  for (int64_t j = 0; j < kh; ++j) {
    R* d = slot(y0 - b.ay + j);
    make(y0 - b.ay + j, d);
    add_into<R>(acc.data(), d, n);
  }
  for (int64_t y = y0; y < y1; ++y) {
    finish(y, acc.data());
    if (y + 1 < y1) {
      const int64_t enter = y - b.ay + kh, leave = y - b.ay;
      R* d = slot(enter);
      make(enter, d);
      slide<R>(acc.data(), d, slot(leave), n);
    }
  }
}

// The same sums column first, for integer sources without squares: running column sums of the raw
// source rows (in R: uint16 where the whole window sum fits, exact in wrapping arithmetic), the
// border columns copied from the columns they mirror (0 for BORDER_CONSTANT), then kw taps along
// that one row. No padded copies of source rows, and 32 lanes of uint16 for 8-bit images.
// RAW: finish(y, col) gets the border-extended column sums instead (w + kw - 1 pixels) and does
// the row taps itself, fused with whatever it stores.
template <class S, class R, class Finish, bool RAW = false>
void box_vfirst_rows(const S* src, const Box& b, int64_t y0, int64_t y1, Finish&& finish) {
  const int64_t n = b.w * b.c, c = b.c, off = b.ax * c, tot = b.w + b.kw - 1;
  std::vector<R> col(static_cast<size_t>(tot * c), R(0)), hs(static_cast<size_t>(n));
  std::vector<const R*> taps(static_cast<size_t>(b.kw));
  for (int64_t q = 0; q < b.kw; ++q) taps[q] = col.data() + q * c;
  R* __restrict cm = col.data() + off;
  for (int64_t j = 0; j < b.kh; ++j) {
    const int64_t r = bmap(y0 - b.ay + j, b.h, b.border);
    if (r < 0) continue;
    const S* __restrict s = src + r * n;
    for (int64_t i = 0; i < n; ++i) cm[i] = static_cast<R>(cm[i] + s[i]);
  }
  for (int64_t y = y0; y < y1; ++y) {
    for (int64_t x = 0; x < tot; ++x) {
      if (x == b.ax) x = b.ax + b.w;
      if (x >= tot) break;
      const int64_t sc = bmap(x - b.ax, b.w, b.border);
      for (int64_t k = 0; k < c; ++k) col[x * c + k] = sc < 0 ? R(0) : col[off + sc * c + k];
    }
    if constexpr (RAW) {
      finish(y, static_cast<const R*>(col.data()));
    } else {
      box_util::taps_ptrs<R, true>(hs.data(), taps.data(), nullptr, b.kw, n);
      finish(y, static_cast<const R*>(hs.data()));
    }
    if (y + 1 < y1) {
      const int64_t rin = bmap(y - b.ay + b.kh, b.h, b.border), rout = bmap(y - b.ay, b.h, b.border);
      const S* __restrict si = rin < 0 ? nullptr : src + rin * n;
      const S* __restrict so = rout < 0 ? nullptr : src + rout * n;
      if (si && so) {
        for (int64_t i = 0; i < n; ++i) cm[i] = static_cast<R>(cm[i] + si[i] - so[i]);
      } else if (si) {
        for (int64_t i = 0; i < n; ++i) cm[i] = static_cast<R>(cm[i] + si[i]);
      } else if (so) {
        for (int64_t i = 0; i < n; ++i) cm[i] = static_cast<R>(cm[i] - so[i]);
      }
    }
  }
}

// Double sums in the fixed order of cv_sep_filter: d = ((0 + w0 p0) + w1 p1) + ... along the row,
// the same down the column (UNIT: every tap is 1, so w*p is p). finish(y, acc) gets row y's sums.
template <class S, bool SQR, bool UNIT, class Finish>
void sep_dbl_rows(const S* src, const Box& b, const double* kx, const double* ky, int64_t y0, int64_t y1,
                  Finish&& finish) {
  const int64_t n = b.w * b.c, c = b.c, kh = b.kh;
  std::vector<double> prow(static_cast<size_t>((b.w + b.kw - 1) * c)), acc(static_cast<size_t>(n));
  std::vector<double> buf(static_cast<size_t>(kh * n));
  std::vector<const double*> rows(static_cast<size_t>(kh)), taps(static_cast<size_t>(b.kw));
  for (int64_t q = 0; q < b.kw; ++q) taps[q] = prow.data() + q * c;
  auto make = [&](int64_t p, double* __restrict d) {
    pad_row<S, double>(src, b.w, c, bmap(p, b.h, b.border), b.ax, b.kw - 1 - b.ax, b.border, 0.0, prow.data());
    if constexpr (SQR)
      for (auto& v : prow) v *= v;
    box_util::taps_ptrs<double, UNIT>(d, taps.data(), kx, b.kw, n);
  };
  auto slot = [&](int64_t p) { return buf.data() + (((p % kh) + kh) % kh) * n; };
  int64_t next = y0 - b.ay;
  for (int64_t y = y0; y < y1; ++y) {
    const int64_t first = y - b.ay, last = first + kh - 1;
    next = std::max(next, first);
    for (; next <= last; ++next) make(next, slot(next));
    for (int64_t j = 0; j < kh; ++j) rows[j] = slot(first + j);
    box_util::taps_ptrs<double, UNIT>(acc.data(), rows.data(), ky, kh, n);
    finish(y, static_cast<const double*>(acc.data()));
  }
}

// cv2 5's 8-bit box average of an area-n window sum s: (s + n/2 + 1) >> log2(n) for a power of
// two n > 1, else s / n rounded half up, floor((2s + n) / 2n). The quotient is computed as
// floor(((2s + n) + 0.5) / 2n) in float: the exact value sits at least 0.25/n from an integer,
// float's error is below 2^-23 * 256, so n < 4096 is safe; larger areas use double.
struct U8Round {
  int64_t n;
  int shift = -1;
  float inv_f;
  double inv_d;
  // For uint16 window sums (n <= 128): floor(t / 2n) of t = 2s + n < 2^16 as the high half of a
  // 16-bit product shifted by mshift, with a multiplier found by checking every t (32 lanes a
  // vector instead of 16 floats); mul == 0 when none is exact.
  uint32_t mul = 0;
  int mshift = 0;
  explicit U8Round(int64_t area) : n(area) {
    if (n > 1 && (n & (n - 1)) == 0) shift = __builtin_ctzll(static_cast<unsigned long long>(n));
    inv_f = 1.0f / static_cast<float>(2 * n);
    inv_d = 1.0 / static_cast<double>(2 * n);
    if (shift < 0 && n <= 128) {
      for (int sh = 0; sh < 16 && mul == 0; ++sh) {
        const uint64_t m = ((uint64_t(1) << (16 + sh)) + 2 * n - 1) / (2 * n);
        if (m >= 65536) break;
        bool ok = true;
        for (int64_t s = 0; s <= 255 * n && ok; ++s) {
          const uint32_t t = static_cast<uint32_t>(2 * s + n);
          ok = ((((t * static_cast<uint32_t>(m)) >> 16) >> sh)) == t / static_cast<uint32_t>(2 * n);
        }
        if (ok) mul = static_cast<uint32_t>(m), mshift = sh;
      }
    }
  }
  void row(const uint16_t* __restrict a, uint8_t* __restrict o, int64_t len) const {
    if (mul == 0 || shift >= 0) return row_any(a, o, len);
    const uint16_t m = static_cast<uint16_t>(mul), nn = static_cast<uint16_t>(n);
    const int sh = mshift;
    for (int64_t x = 0; x < len; ++x) {
      const uint16_t t = static_cast<uint16_t>(2 * a[x] + nn);
      o[x] = static_cast<uint8_t>(static_cast<uint16_t>((static_cast<uint32_t>(t) * m) >> 16) >> sh);
    }
  }
  void row(const int32_t* __restrict a, uint8_t* __restrict o, int64_t len) const { row_any(a, o, len); }
  // Whether taps_row can take a kw-tap row: the uint16 paths, and a tap count it unrolls.
  bool fusable(int64_t kw) const { return (shift >= 0 || mul != 0) && (kw == 3 || kw == 5 || kw == 7); }
  // o[x] = the rounded average of the window sum col[x] + col[x + c] + ... (kw taps), one pass:
  // no uint16 row of sums stored and read back. The same integer arithmetic as row().
  void taps_row(const uint16_t* col, int64_t c, int64_t kw, uint8_t* o, int64_t len) const {
    switch (kw) {
      case 3: return taps_row_k<3>(col, c, o, len);
      case 5: return taps_row_k<5>(col, c, o, len);
      default: return taps_row_k<7>(col, c, o, len);
    }
  }
  template <int K>
  void taps_row_k(const uint16_t* col, int64_t c, uint8_t* __restrict o, int64_t len) const {
    const uint16_t* __restrict t[K];
    for (int q = 0; q < K; ++q) t[q] = col + q * c;
    if (shift >= 0) {
      const uint16_t add = static_cast<uint16_t>(n / 2 + 1);
      const int sh = shift;
      for (int64_t x = 0; x < len; ++x) {
        uint16_t v = t[0][x];
        for (int q = 1; q < K; ++q) v = static_cast<uint16_t>(v + t[q][x]);
        o[x] = static_cast<uint8_t>(static_cast<uint16_t>(v + add) >> sh);
      }
      return;
    }
    const uint16_t m = static_cast<uint16_t>(mul), nn = static_cast<uint16_t>(n);
    const int sh = mshift;
    for (int64_t x = 0; x < len; ++x) {
      uint16_t v = t[0][x];
      for (int q = 1; q < K; ++q) v = static_cast<uint16_t>(v + t[q][x]);
      const uint16_t tt = static_cast<uint16_t>(2 * v + nn);
      o[x] = static_cast<uint8_t>(static_cast<uint16_t>((static_cast<uint32_t>(tt) * m) >> 16) >> sh);
    }
  }
  template <class A>
  void row_any(const A* __restrict a, uint8_t* __restrict o, int64_t len) const {
    if (shift >= 0) {
      const int32_t add = static_cast<int32_t>(n / 2 + 1), sh = shift;
      for (int64_t x = 0; x < len; ++x) o[x] = static_cast<uint8_t>((a[x] + add) >> sh);
    } else if (n < 4096) {
      const float f = inv_f, nn = static_cast<float>(n) + 0.5f;
      for (int64_t x = 0; x < len; ++x) o[x] = static_cast<uint8_t>(static_cast<int32_t>((static_cast<float>(2 * a[x]) + nn) * f));
    } else {
      const double f = inv_d, nn = static_cast<double>(n) + 0.5;
      for (int64_t x = 0; x < len; ++x) o[x] = static_cast<uint8_t>(static_cast<int32_t>((static_cast<double>(2 * a[x]) + nn) * f));
    }
  }
};

template <class O, class A>
inline void store_scaled(const A* __restrict a, O* __restrict o, int64_t n, double scale) {
  for (int64_t x = 0; x < n; ++x) o[x] = sat<O>(static_cast<double>(a[x]) * scale + 0.0);
}

template <class A>
void store_any(DType od, const A* a, char* out, int64_t n, double scale) {
  switch (od) {
    case DType::UInt8: return store_scaled(a, reinterpret_cast<uint8_t*>(out), n, scale);
    case DType::Int8: return store_scaled(a, reinterpret_cast<int8_t*>(out), n, scale);
    case DType::UInt16: return store_scaled(a, reinterpret_cast<uint16_t*>(out), n, scale);
    case DType::Int16: return store_scaled(a, reinterpret_cast<int16_t*>(out), n, scale);
    case DType::Int32: return store_scaled(a, reinterpret_cast<int32_t*>(out), n, scale);
    case DType::Float32: return store_scaled(a, reinterpret_cast<float*>(out), n, scale);
    default: return store_scaled(a, reinterpret_cast<double*>(out), n, scale);
  }
}

template <class S>
constexpr double type_max_abs() {
  return std::is_same_v<S, uint8_t> ? 255.0 : std::is_same_v<S, int8_t> ? 128.0
       : std::is_same_v<S, uint16_t> ? 65535.0 : 32768.0;
}

// cv_box(src; kw, kh, ax, ay, border, out_dtype, sqr, u8round | scale)
class BoxKernel final : public backend::Kernel {
 public:
  explicit BoxKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const Shape& sh = s.inputs[0].shape;
    b_ = {sh[0], sh[1], sh.size() == 3 ? sh[2] : 1, i[0], i[1], i[2], i[3], static_cast<int>(i[4])};
    od_ = s.output.dtype;
    osz_ = itemsize(od_);
    sqr_ = i[6] != 0;
    u8round_ = i[7] != 0;
    scale_ = s.params->floats[0];
    in_ = s.inputs[0].dtype;
    if (u8round_) rnd_ = U8Round(b_.kw * b_.kh);
  }
  U8Round rnd_{1};  // set once b_ is known: its multiplier search runs once per plan, not per call
  void run(char* const* in, char* out) override {
    switch (in_) {
      case DType::UInt8: return go<uint8_t>(in[0], out);
      case DType::Int8: return go<int8_t>(in[0], out);
      case DType::UInt16: return go<uint16_t>(in[0], out);
      case DType::Int16: return go<int16_t>(in[0], out);
      case DType::Int32: return go<int32_t>(in[0], out);
      case DType::Float32: return go<float>(in[0], out);
      default: return go<double>(in[0], out);
    }
  }

 private:
  template <class S>
  void go(const char* in, char* out) {
    const S* src = reinterpret_cast<const S*>(in);
    if constexpr (std::is_integral_v<S> && sizeof(S) <= 2) {
      const double m = type_max_abs<S>(), v = sqr_ ? m * m : m;
      const double area = static_cast<double>(b_.kw) * static_cast<double>(b_.kh);
      if (area * v < 2147483647.0) {
        // uint16 row sums where they fit (twice the lanes of int32)
        if (!sqr_ && std::is_unsigned_v<S> && sizeof(S) == 1 && area * v <= 65535.0)
          return vfirst_path<S, uint16_t>(src, out);
        if (sqr_) return int_path<S, int32_t, true>(src, out);
        return vfirst_path<S, int32_t>(src, out);
      }
    }
    if (sqr_) return dbl_path<S, true>(src, out);
    return dbl_path<S, false>(src, out);
  }

  template <class S, class R, bool SQR>
  void int_path(const S* src, char* out) {
    const Box b = b_;
    const int64_t n = b.w * b.c;
    const bool u8r = u8round_ && od_ == DType::UInt8;
    const U8Round& rnd = rnd_;
    parallel_for(b.h, row_grain(b.w, b.c), [&](int64_t y0, int64_t y1) {
      box_int_rows<S, R, SQR>(src, b, y0, y1, [&](int64_t y, const int32_t* acc) {
        char* o = out + y * n * static_cast<int64_t>(osz_);
        if (u8r) rnd.row(acc, reinterpret_cast<uint8_t*>(o), n);
        else store_any<int32_t>(od_, acc, o, n, scale_);
      });
    });
  }

  template <class S, class R>
  void vfirst_path(const S* src, char* out) {
    const Box b = b_;
    const int64_t n = b.w * b.c;
    const bool u8r = u8round_ && od_ == DType::UInt8;
    const U8Round& rnd = rnd_;
    if constexpr (std::is_same_v<R, uint16_t>) {
      if (u8r && rnd.fusable(b.kw)) {
        parallel_for(b.h, row_grain(b.w, b.c), [&](int64_t y0, int64_t y1) {
          auto fin = [&](int64_t y, const uint16_t* col) {
            rnd.taps_row(col, b.c, b.kw, reinterpret_cast<uint8_t*>(out) + y * n, n);
          };
          box_vfirst_rows<S, R, decltype(fin)&, true>(src, b, y0, y1, fin);
        });
        return;
      }
    }
    parallel_for(b.h, row_grain(b.w, b.c), [&](int64_t y0, int64_t y1) {
      box_vfirst_rows<S, R>(src, b, y0, y1, [&](int64_t y, const R* acc) {
        char* o = out + y * n * static_cast<int64_t>(osz_);
        if (u8r) rnd.row(acc, reinterpret_cast<uint8_t*>(o), n);
        else store_any<R>(od_, acc, o, n, scale_);
      });
    });
  }

  template <class S, bool SQR>
  void dbl_path(const S* src, char* out) {
    const Box b = b_;
    const int64_t n = b.w * b.c;
    parallel_for(b.h, row_grain(b.w, b.c), [&](int64_t y0, int64_t y1) {
      sep_dbl_rows<S, SQR, true>(src, b, nullptr, nullptr, y0, y1, [&](int64_t y, const double* acc) {
        store_any<double>(od_, acc, out + y * n * static_cast<int64_t>(osz_), n, scale_);
      });
    });
  }

  Box b_;
  DType in_, od_;
  size_t osz_;
  bool sqr_, u8round_;
  double scale_;
};

// The Gaussian mean of adaptiveThreshold, fast: the exact answer is GaussianBlur's double sums
// in a fixed order, rounded to float, then to an integer. Here the same sums run in float32
// (twice the lanes) with the symmetric taps folded, which is within eps of the exact double sum
// (eps bounds the float rounding errors, with a 4x margin). A mean whose fast sum is farther than
// eps from every half-integer rounds to the same integer as the exact one (k + 0.5 is a float, so
// float's rounding cannot carry a value across it); the few within eps (under 1% of the pixels)
// are recomputed exactly, so the answer is the exact path's on every ISA.
struct GaussMean {
  int64_t k = 0, a = 0, w = 0, h = 0;
  std::vector<double> taps;  // the double taps of the exact order
  std::vector<float> tf;     // the same as float
  float eps = 0.0f;
  bool ok = false;
  GaussMean() = default;
  GaussMean(const std::vector<double>& t, int64_t hh, int64_t ww) : k(static_cast<int64_t>(t.size())), a(k / 2), w(ww), h(hh), taps(t) {
    double sa = 0.0;
    bool sym = (k & 1) == 1;
    for (int64_t q = 0; q < k; ++q) {
      sa += std::fabs(t[q]);
      sym = sym && t[q] == t[k - 1 - q] && t[q] >= 0.0;
      tf.push_back(static_cast<float>(t[q]));
    }
    // |error| of the float sums (recursive summation: each of the m = k/2 + 1 folded terms and
    // each partial sum rounded once, relative u, all bounded by 255 * sa): the row sums within
    // eh, the column sums within sa * eh plus their own roundings, one more for the folded pair
    // sums of inexact rows. A 1.5x margin on top: the bound is already a worst case of all
    // roundings going one way.
    const double u = std::ldexp(1.0, -24), m = static_cast<double>(k / 2 + 1), hm = 255.0 * sa;
    const double eh = (m + 1) * u * hm, ev = sa * eh + (m + 2) * u * hm * sa;
    eps = static_cast<float>(1.5 * ev + 1e-6);
    ok = sym && eps < 0.125f;
  }
  // the exact mean of pixel (y, x): GaussianBlur's double sums in their order, then float, then
  // saturate_cast<uchar>
  // rows[j]: source row y - a + j (replicated border); bmap only for the columns at the edges
  uint8_t exact(const uint8_t* const* rows, int64_t x) const {
    const bool inner = x - a >= 0 && x - a + k <= w;
    double acc = 0.0;
    for (int64_t j = 0; j < k; ++j) {
      const uint8_t* row = rows[j];
      double hs = 0.0;
      if (inner) {
        const uint8_t* p = row + (x - a);
        for (int64_t q = 0; q < k; ++q) hs = hs + taps[q] * static_cast<double>(p[q]);
      } else {
        for (int64_t q = 0; q < k; ++q) hs = hs + taps[q] * static_cast<double>(row[box_util::bmap(x - a + q, w, 1)]);
      }
      acc = acc + taps[j] * hs;
    }
    const float f = static_cast<float>(acc * 1.0 + 0.0);
    float r = (f + 8388608.0f) - 8388608.0f;
    r = r < 255.0f ? r : 255.0f;
    r = r > 0.0f ? r : 0.0f;
    return static_cast<uint8_t>(static_cast<int32_t>(r));
  }
  // d[x] = wc * t(hk) + sum over q < hk of w[q] * (t(q) + t(k-1-q)), where t(q) is src[x + q]
  // (P = float: a padded row) or src[q][x] (P = const float*: k rows). One pass with
  // the taps unrolled for the common sizes (no partial row stored and reloaded per tap).
  template <class P>
  void fold(float* __restrict d, const P* src, int64_t n) const {
    switch (k) {
      case 3: return fold_k<3>(d, src, n);
      case 5: return fold_k<5>(d, src, n);
      case 7: return fold_k<7>(d, src, n);
      case 9: return fold_k<9>(d, src, n);
      case 11: return fold_k<11>(d, src, n);
      case 13: return fold_k<13>(d, src, n);
      case 15: return fold_k<15>(d, src, n);
      default: return fold_k<0>(d, src, n);
    }
  }
  template <int K, class P>
  void fold_k(float* __restrict d, const P* src, int64_t n) const {
    const int64_t kk = K > 0 ? K : k, hh = kk / 2;
    const float* t[64];
    const float* __restrict wt = tf.data();
    auto tap = [&](int64_t q) -> const float* {
      if constexpr (std::is_same_v<P, float>) return src + q;
      else return src[q];
    };
    if constexpr (K > 0) {
      for (int64_t q = 0; q < kk; ++q) t[q] = tap(q);
      for (int64_t x = 0; x < n; ++x) {
        float a = wt[hh] * t[hh][x];
        for (int64_t q = 0; q < hh; ++q) a += wt[q] * (t[q][x] + t[kk - 1 - q][x]);
        d[x] = a;
      }
      return;
    }
    const float* c = tap(hh);
    for (int64_t x = 0; x < n; ++x) d[x] = wt[hh] * c[x];
    for (int64_t q = 0; q < hh; ++q) {
      const float wq = wt[q];
      const float* __restrict l = tap(q);
      const float* __restrict r = tap(kk - 1 - q);
      for (int64_t x = 0; x < n; ++x) d[x] += wq * (l[x] + r[x]);
    }
  }
  // means of rows [y0, y1) into fin(y, mean row)
  template <class Fin>
  void rows(const uint8_t* src, int64_t y0, int64_t y1, Fin&& fin) const {
    const int64_t n = w;
    std::vector<float> prow(static_cast<size_t>(w + k - 1)), acc(static_cast<size_t>(n));
    std::vector<uint8_t> mean(static_cast<size_t>(n)), flag(static_cast<size_t>(n));
    std::vector<const uint8_t*> srows(static_cast<size_t>(k));
    auto make = [&](int64_t p, float* __restrict d) {
      box_util::pad_row<uint8_t, float>(src, w, 1, box_util::bmap(p, h, 1), a, k - 1 - a, 1, 0.0f, prow.data());
      fold<float>(d, prow.data(), n);
    };
    const float e = eps;
    box_util::ring_rows<float>(y0, y1, k, a, n, make, [&](int64_t y, const float* const* rw) {
      float* __restrict s = acc.data();
      fold<const float*>(s, rw, n);
      uint8_t* __restrict m = mean.data();
      uint8_t* __restrict fl = flag.data();
      int any = 0;
      for (int64_t x = 0; x < n; ++x) {
        const float v = s[x];
        float r = (v + 8388608.0f) - 8388608.0f;  // nearest integer (v >= 0)
        const float d = v - r;                    // in [-0.5, 0.5]
        const int near = (0.5f - (d < 0.0f ? -d : d)) < e;
        fl[x] = static_cast<uint8_t>(near);
        any |= near;
        r = r < 255.0f ? r : 255.0f;
        r = r > 0.0f ? r : 0.0f;
        m[x] = static_cast<uint8_t>(static_cast<int32_t>(r));
      }
      if (any) {
        for (int64_t j = 0; j < k; ++j) srows[j] = src + box_util::bmap(y - a + j, h, 1) * w;
        for (int64_t x = 0; x < n; ++x)
          if (fl[x]) m[x] = exact(srows.data(), x);
      }
      fin(y, static_cast<const uint8_t*>(m));
    });
  }
};

// cv_adaptive(src uint8; method, type, block, imax, idelta | ky taps when method == 1)
// method 0: the block x block mean (cv2's 8-bit box average); 1: the float Gaussian (taps already
// float32-rounded, as GaussianBlur of a float32 image uses them) rounded to uint8. Both with
// BORDER_REPLICATE. Then dst = imax where src - mean > -idelta (BINARY) or <= -idelta (INV), else 0.
class AdaptiveKernel final : public backend::Kernel {
 public:
  explicit AdaptiveKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const Shape& sh = s.inputs[0].shape;
    method_ = static_cast<int>(i[0]);
    inv_ = i[1] != 0;
    const int64_t k = i[2];
    b_ = {sh[0], sh[1], sh.size() == 3 ? sh[2] : 1, k, k, k / 2, k / 2, 1};
    imax_ = static_cast<uint8_t>(i[3]);
    idelta_ = static_cast<int32_t>(i[4]);
    taps_.assign(s.params->floats.begin(), s.params->floats.end());
    if (method_ == 0) rnd_ = U8Round(k * k);
    if (method_ == 1 && b_.c == 1) gm_ = GaussMean(taps_, b_.h, b_.w);
  }
  U8Round rnd_{1};  // set once b_ is known: its multiplier search runs once per plan, not per call
  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    const Box b = b_;
    const int64_t n = b.w * b.c;
    const int32_t lim = -idelta_;
    const uint8_t imax = imax_;
    const bool inv = inv_;
    auto compare = [=](const uint8_t* __restrict s, const uint8_t* __restrict m, uint8_t* __restrict o) {
      if (inv) {
        for (int64_t x = 0; x < n; ++x) o[x] = (int32_t(s[x]) - int32_t(m[x]) <= lim) ? imax : uint8_t(0);
      } else {
        for (int64_t x = 0; x < n; ++x) o[x] = (int32_t(s[x]) - int32_t(m[x]) > lim) ? imax : uint8_t(0);
      }
    };
    parallel_for(b.h, row_grain(b.w, b.c), [&](int64_t y0, int64_t y1) {
      std::vector<uint8_t> mean(static_cast<size_t>(n));
      if (method_ == 0) {
        const U8Round& rnd = rnd_;
        auto fin = [&](int64_t y, const auto* acc) {
          rnd.row(acc, mean.data(), n);
          compare(src + y * n, mean.data(), dst + y * n);
        };
        if (static_cast<double>(b.kw * b.kh) * 255.0 <= 65535.0) box_vfirst_rows<uint8_t, uint16_t>(src, b, y0, y1, fin);
        else box_vfirst_rows<uint8_t, int32_t>(src, b, y0, y1, fin);
      } else if (gm_.ok) {
        gm_.rows(src, y0, y1, [&](int64_t y, const uint8_t* m) { compare(src + y * n, m, dst + y * n); });
      } else {
        sep_dbl_rows<uint8_t, false, false>(src, b, taps_.data(), taps_.data(), y0, y1, [&](int64_t y, const double* acc) {
          uint8_t* __restrict m = mean.data();
          const int64_t len = n;  // a local: a byte store could alias a captured reference
          // GaussianBlur's float32 result (acc * 1 + 0 in double, then float), then cv2's
          // saturate_cast to uint8 of that float: finite and >= 0 (positive taps on uint8), so
          // half-to-even rounding is (f + 2^23) - 2^23 in float, and only 255 needs a clamp
          for (int64_t x = 0; x < len; ++x) {
            const float f = static_cast<float>(acc[x] * 1.0 + 0.0);
            float r = (f + 8388608.0f) - 8388608.0f;
            r = r < 255.0f ? r : 255.0f;
            r = r > 0.0f ? r : 0.0f;
            m[x] = static_cast<uint8_t>(static_cast<int32_t>(r));
          }
          compare(src + y * n, m, dst + y * n);
        });
      }
    });
  }

 private:
  Box b_;
  int method_;
  bool inv_;
  uint8_t imax_;
  int32_t idelta_;
  std::vector<double> taps_;
  GaussMean gm_;
};

std::unique_ptr<backend::Kernel> prepare_box(const backend::StepDesc& s) { return std::make_unique<BoxKernel>(s); }
std::unique_ptr<backend::Kernel> prepare_adaptive(const backend::StepDesc& s) { return std::make_unique<AdaptiveKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_box, "cv_box", &prepare_box);
MNN_REGISTER_CPU_KERNEL(cv_adaptive, "cv_adaptive", &prepare_adaptive);

}  // namespace mnn::cpu::MNN_ISA_NS
