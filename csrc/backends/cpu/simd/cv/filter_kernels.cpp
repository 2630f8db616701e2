// CPU kernels of the mnn.cv neighbourhood filters (shape rules: ops/cv/filter_ops.cpp), compiled
// once per ISA. Plain loops written so the compiler vectorises them along the row (x*C + c is one
// contiguous index, so interleaved channels cost nothing extra).
//
// Every filter walks output rows in chunks (one chunk per thread) and keeps a ring of the k
// source rows the current output row needs, each already border-extended (and, for separable
// filters, already filtered along x): each source row is prepared once per chunk.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

// cv2's borderInterpolate: the source index for position p of an axis of length n; -1 means
// "the constant border value" (BORDER_CONSTANT). BORDER_ISOLATED (16) changes nothing here: an
// mnn array never reads pixels outside itself.
inline int64_t bmap(int64_t p, int64_t n, int mode) {
  if (p >= 0 && p < n) return p;
  switch (mode & 15) {
    case 0: return -1;
    case 1: return p < 0 ? 0 : n - 1;
    case 2:
      if (n == 1) return 0;
      do { p = p < 0 ? -p - 1 : 2 * n - p - 1; } while (p < 0 || p >= n);
      return p;
    case 3:
      p %= n;
      return p < 0 ? p + n : p;
    default:
      if (n == 1) return 0;
      do { p = p < 0 ? -p : 2 * n - p - 2; } while (p < 0 || p >= n);
      return p;
  }
}

struct Geom {
  int64_t h, w, c;
};
Geom geom_of(const Shape& s) { return {s[0], s[1], s.size() == 3 ? s[2] : 1}; }

// cv2's saturate_cast: round half to even (cvRound), clamp to the type's range.
template <class T>
inline T sat(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    double r = std::nearbyint(v);
    if (!(r >= static_cast<double>(std::numeric_limits<T>::min()))) return r != r ? T(0) : std::numeric_limits<T>::min();
    if (r > static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}

template <class T>
void store_row(const double* a, char* out, int64_t n) {
  T* o = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = sat<T>(a[i]);
}
using StoreFn = void (*)(const double*, char*, int64_t);
StoreFn store_fn(DType d) {
  switch (d) {
    case DType::UInt8: return &store_row<uint8_t>;
    case DType::Int8: return &store_row<int8_t>;
    case DType::UInt16: return &store_row<uint16_t>;
    case DType::Int16: return &store_row<int16_t>;
    case DType::Int32: return &store_row<int32_t>;
    case DType::Float32: return &store_row<float>;
    default: return &store_row<double>;
  }
}

// Calls f(T{}) for the image depths cv2 filters accept.
template <class F>
decltype(auto) dispatch_depth(DType d, F&& f) {
  switch (d) {
    case DType::UInt8: return f(uint8_t{});
    case DType::Int8: return f(int8_t{});
    case DType::UInt16: return f(uint16_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Float32: return f(float{});
    default: return f(double{});
  }
}

// Border-extends source row r (-1: the constant row) into dst, converting to D: `left` pixels
// before column 0 and `right` after column w-1.
// Byte-sized stores may alias anything, so the hot loops take restrict pointers and by-value
// lengths: otherwise the compiler reloads the bound every iteration and never vectorises.
template <class S, class D>
inline void convert_into(D* __restrict d, const S* __restrict s, int64_t n) {
  if constexpr (std::is_same_v<S, D>) {
    std::memcpy(d, s, sizeof(D) * static_cast<size_t>(n));
  } else {
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<D>(s[i]);
  }
}
template <class T>
inline void min_into(T* __restrict d, const T* __restrict s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = std::min(d[i], s[i]);
}
template <class T>
inline void max_into(T* __restrict d, const T* __restrict s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = std::max(d[i], s[i]);
}

template <class S, class D>
void pad_row(const S* img, const Geom& g, int64_t r, int64_t left, int64_t right, int mode, D bval, D* dst) {
  const int64_t c = g.c, w = g.w, tot = w + left + right;
  if (r < 0) {
    std::fill(dst, dst + tot * c, bval);
    return;
  }
  const S* row = img + r * w * c;
  convert_into<S, D>(dst + left * c, row, w * c);
  for (int64_t x = 0; x < tot; ++x) {
    if (x == left) x = left + w;
    if (x >= tot) break;
    int64_t s = bmap(x - left, w, mode);
    for (int64_t k = 0; k < c; ++k) dst[x * c + k] = s < 0 ? bval : static_cast<D>(row[s * c + k]);
  }
}

// Walks output rows [y0, y1): before use(y, rows) the ring holds, for j in [0, k), the prepared
// source row at position y - a + j (make(p, dst) prepares position p, border mapping included).
template <class R, class Make, class Use>
void ring_rows(int64_t y0, int64_t y1, int64_t k, int64_t a, int64_t rowlen, Make make, Use use) {
  std::vector<R> buf(static_cast<size_t>(k * rowlen));
  std::vector<const R*> rows(static_cast<size_t>(k));
  auto slot = [k](int64_t p) { return ((p % k) + k) % k; };
  int64_t next = y0 - a;
  for (int64_t y = y0; y < y1; ++y) {
    int64_t first = y - a, last = first + k - 1;
    next = std::max(next, first);
    for (; next <= last; ++next) make(next, buf.data() + slot(next) * rowlen);
    for (int64_t j = 0; j < k; ++j) rows[j] = buf.data() + slot(first + j) * rowlen;
    use(y, rows.data());
  }
}

int64_t row_grain(const Geom& g) { return std::max<int64_t>(8, (1 << 16) / std::max<int64_t>(1, g.w * g.c)); }

// ---- separable linear filters (sepFilter2D, GaussianBlur, boxFilter, Sobel, ...) ------------

// Integer tap loops for the 8-bit exact path: all taps in one pass over the row.
template <class S>
inline void taps3(int32_t* __restrict d, const S* __restrict a, const S* __restrict b, const S* __restrict c,
                  int32_t wa, int32_t wb, int32_t wc, int64_t n) {
  for (int64_t x = 0; x < n; ++x) d[x] = wa * int32_t(a[x]) + wb * int32_t(b[x]) + wc * int32_t(c[x]);
}
inline void taps3_i16(int16_t* __restrict d, const int32_t* __restrict a, const int32_t* __restrict b,
                      const int32_t* __restrict c, int32_t wa, int32_t wb, int32_t wc, int64_t n) {
  for (int64_t x = 0; x < n; ++x) {
    int32_t v = wa * a[x] + wb * b[x] + wc * c[x];
    d[x] = static_cast<int16_t>(std::min(32767, std::max(-32768, v)));
  }
}
template <class S>
inline void accumulate(int32_t* __restrict d, const S* __restrict s, int32_t w, int64_t n) {
  for (int64_t x = 0; x < n; ++x) d[x] += w * int32_t(s[x]);
}

class SepFilterKernel final : public backend::Kernel {
 public:
  explicit SepFilterKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    nx_ = i[0], ny_ = i[1], ax_ = i[2], ay_ = i[3];
    border_ = static_cast<int>(i[4]);
    sqr_ = i[6] != 0;
    kx_.assign(f.begin(), f.begin() + nx_);
    ky_.assign(f.begin() + nx_, f.begin() + nx_ + ny_);
    delta_ = f[nx_ + ny_], scale_ = f[nx_ + ny_ + 1], bval_ = f[nx_ + ny_ + 2];
    g_ = geom_of(s.inputs[0].shape);
    in_ = s.inputs[0].dtype;
    out_isz_ = itemsize(s.output.dtype);
    out_dt_ = s.output.dtype;
    store_ = store_fn(s.output.dtype);
  }
  void run(char* const* in, char* out) override {
    dispatch_depth(in_, [&](auto zero) {
      using S = decltype(zero);
      run_typed(reinterpret_cast<const S*>(in[0]), out);
      return 0;
    });
  }

 private:
  // 8-bit sources with small integer taps and no scaling (Sobel, Scharr, unnormalised boxes)
  // are exact in int32: both passes stay in integer lanes.
  bool int_path() const {
    if (in_ != DType::UInt8 || scale_ != 1.0 || delta_ != 0.0 || sqr_ || bval_ != 0.0) return false;
    double sx = 0, sy = 0;
    for (double v : kx_) {
      if (v != std::floor(v)) return false;
      sx += std::fabs(v);
    }
    for (double v : ky_) {
      if (v != std::floor(v)) return false;
      sy += std::fabs(v);
    }
    return sx * sy * 255.0 < 2e9;
  }
  void run_int(const uint8_t* src, char* out) {
    const Geom g = g_;
    const int64_t n = g.w * g.c, c = g.c;
    std::vector<int32_t> kx(kx_.begin(), kx_.end()), ky(ky_.begin(), ky_.end());
    const DType od = out_dt_;
    parallel_for(g.h, row_grain(g), [&](int64_t y0, int64_t y1) {
      std::vector<uint8_t> prow(static_cast<size_t>((g.w + nx_ - 1) * c));
      std::vector<int32_t> acc(static_cast<size_t>(n));
      auto make = [&](int64_t p, int32_t* dst) {
        pad_row<uint8_t, uint8_t>(src, g, bmap(p, g.h, border_), ax_, nx_ - 1 - ax_, border_, 0, prow.data());
        if (nx_ == 3) {
          taps3(dst, prow.data(), prow.data() + c, prow.data() + 2 * c, kx[0], kx[1], kx[2], n);
          return;
        }
        std::fill(dst, dst + n, 0);
        for (int64_t k = 0; k < nx_; ++k) {
          const int32_t w = kx[k];
          if (w == 0) continue;
          accumulate(dst, prow.data() + k * c, w, n);
        }
      };
      auto use = [&](int64_t y, const int32_t* const* rows) {
        char* o = out + y * n * out_isz_;
        if (ny_ == 3 && od == DType::Int16) {  // Sobel/Scharr's common case: one fused pass
          taps3_i16(reinterpret_cast<int16_t*>(o), rows[0], rows[1], rows[2], ky[0], ky[1], ky[2], n);
          return;
        }
        if (ny_ == 3) {
          taps3(acc.data(), rows[0], rows[1], rows[2], ky[0], ky[1], ky[2], n);
        } else {
          std::fill(acc.begin(), acc.end(), 0);
          for (int64_t k = 0; k < ny_; ++k) {
            const int32_t w = ky[k];
            if (w == 0) continue;
            accumulate(acc.data(), rows[k], w, n);
          }
        }
        switch (od) {
          case DType::Int16: {
            int16_t* q = reinterpret_cast<int16_t*>(o);
            for (int64_t x = 0; x < n; ++x) q[x] = static_cast<int16_t>(std::min(32767, std::max(-32768, acc[x])));
            break;
          }
          case DType::UInt8: {
            uint8_t* q = reinterpret_cast<uint8_t*>(o);
            for (int64_t x = 0; x < n; ++x) q[x] = static_cast<uint8_t>(std::min(255, std::max(0, acc[x])));
            break;
          }
          case DType::Int32: std::memcpy(o, acc.data(), sizeof(int32_t) * n); break;
          default: {
            std::vector<double> d(acc.begin(), acc.end());
            store_(d.data(), o, n);
          }
        }
      };
      ring_rows<int32_t>(y0, y1, ny_, ay_, n, make, use);
    });
  }

  template <class S>
  void run_typed(const S* src, char* out) {
    if constexpr (std::is_same_v<S, uint8_t>) {
      if (int_path()) return run_int(src, out);
    }
    const Geom g = g_;
    const int64_t n = g.w * g.c, c = g.c;
    parallel_for(g.h, row_grain(g), [&](int64_t y0, int64_t y1) {
      std::vector<double> prow(static_cast<size_t>((g.w + nx_ - 1) * c)), acc(static_cast<size_t>(n));
      double bv = sqr_ ? bval_ * bval_ : bval_;
      auto make = [&](int64_t p, double* dst) {
        pad_row<S, double>(src, g, bmap(p, g.h, border_), ax_, nx_ - 1 - ax_, border_, bval_, prow.data());
        if (sqr_)
          for (auto& v : prow) v *= v;
        (void)bv;
        std::fill(dst, dst + n, 0.0);
        for (int64_t k = 0; k < nx_; ++k) {
          const double w = kx_[k];
          const double* s = prow.data() + k * c;
          for (int64_t x = 0; x < n; ++x) dst[x] += w * s[x];
        }
      };
      auto use = [&](int64_t y, const double* const* rows) {
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int64_t k = 0; k < ny_; ++k) {
          const double w = ky_[k];
          const double* r = rows[k];
          for (int64_t x = 0; x < n; ++x) acc[x] += w * r[x];
        }
        for (int64_t x = 0; x < n; ++x) acc[x] = acc[x] * scale_ + delta_;
        store_(acc.data(), out + y * n * out_isz_, n);
      };
      ring_rows<double>(y0, y1, ny_, ay_, n, make, use);
    });
  }

  int64_t nx_, ny_, ax_, ay_;
  int border_;
  bool sqr_;
  std::vector<double> kx_, ky_;
  double delta_, scale_, bval_;
  Geom g_;
  DType in_, out_dt_;
  size_t out_isz_;
  StoreFn store_;
};

// cv2's 8-bit GaussianBlur is exact integer arithmetic: kernels in Q8 (summing to 256), the row
// pass keeps 16-bit sums, the column pass 32-bit ones, and the result rounds half up from Q16.
class FixedGaussKernel final : public backend::Kernel {
 public:
  explicit FixedGaussKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    nx_ = i[0], ny_ = i[1], ax_ = i[2], ay_ = i[3];
    border_ = static_cast<int>(i[4]);
    for (int64_t k = 0; k < nx_; ++k) kx_.push_back(static_cast<uint16_t>(f[k]));
    for (int64_t k = 0; k < ny_; ++k) ky_.push_back(static_cast<uint32_t>(f[nx_ + k]));
    g_ = geom_of(s.inputs[0].shape);
  }
  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    const Geom g = g_;
    const int64_t n = g.w * g.c, c = g.c;
    parallel_for(g.h, row_grain(g), [&](int64_t y0, int64_t y1) {
      std::vector<uint8_t> prow(static_cast<size_t>((g.w + nx_ - 1) * c));
      std::vector<uint32_t> acc(static_cast<size_t>(n));
      auto make = [&](int64_t p, uint16_t* d) {
        pad_row<uint8_t, uint8_t>(src, g, bmap(p, g.h, border_), ax_, nx_ - 1 - ax_, border_, 0, prow.data());
        hpass(prow.data(), d, n, c);
      };
      auto use = [&](int64_t y, const uint16_t* const* rows) {
        vpass(rows, acc.data(), dst + y * n, n);
      };
      ring_rows<uint16_t>(y0, y1, ny_, ay_, n, make, use);
    });
  }

 private:
  void hpass(const uint8_t* p, uint16_t* d, int64_t n, int64_t c) const {
    const uint16_t* k = kx_.data();
    // Symmetric kernels (every Gaussian) fold the pairs first: half the multiplies.
    const int64_t m = nx_ / 2;
    const uint16_t kc = k[m];
    const uint8_t* pc = p + m * c;
    for (int64_t x = 0; x < n; ++x) d[x] = static_cast<uint16_t>(kc * pc[x]);
    for (int64_t j = 0; j < m; ++j) {
      const uint16_t w = k[j];
      const uint8_t* a = p + j * c;
      const uint8_t* b = p + (nx_ - 1 - j) * c;
      if (k[nx_ - 1 - j] == w) {
        for (int64_t x = 0; x < n; ++x) d[x] = static_cast<uint16_t>(d[x] + w * static_cast<uint16_t>(a[x] + b[x]));
      } else {
        const uint16_t w2 = k[nx_ - 1 - j];
        for (int64_t x = 0; x < n; ++x) d[x] = static_cast<uint16_t>(d[x] + w * a[x] + w2 * b[x]);
      }
    }
  }
  void vpass(const uint16_t* const* rows, uint32_t* acc, uint8_t* o, int64_t n) const {
    const int64_t m = ny_ / 2;
    const uint32_t kc = ky_[m];
    const uint16_t* rc = rows[m];
    for (int64_t x = 0; x < n; ++x) acc[x] = kc * rc[x];
    for (int64_t j = 0; j < m; ++j) {
      const uint32_t w = ky_[j], w2 = ky_[ny_ - 1 - j];
      const uint16_t* a = rows[j];
      const uint16_t* b = rows[ny_ - 1 - j];
      if (w == w2) {
        for (int64_t x = 0; x < n; ++x) acc[x] += w * (static_cast<uint32_t>(a[x]) + b[x]);
      } else {
        for (int64_t x = 0; x < n; ++x) acc[x] += w * a[x] + w2 * b[x];
      }
    }
    for (int64_t x = 0; x < n; ++x) o[x] = static_cast<uint8_t>(std::min<uint32_t>(255, (acc[x] + 32768u) >> 16));
  }

  int64_t nx_, ny_, ax_, ay_;
  int border_;
  std::vector<uint16_t> kx_;
  std::vector<uint32_t> ky_;
  Geom g_;
};

// A cheaper exact form of the same arithmetic for the sigma-0 3x3 and 5x5 kernels. When every tap
// of kx is a multiple of gx and every tap of ky of gy (powers of two) with gx*gy >= 256, the Q16
// column sum is gx*gy*V with V = sum ky/gy * sum kx/gx * p <= 255 * 65536 / (gx*gy) <= 65280, so
// V fits 16-bit lanes and cv2's (acc + 32768) >> 16 is (V + 2^(15-s)) >> (16-s), s = log2(gx*gy).
// The sum is then exact in any order: the vertical taps run first on the uint8 rows (no padded
// copy of the source, no ring), then the horizontal taps on the border-extended 16-bit row —
// twice the lanes per vector of the 32-bit column pass.
class Gauss16Kernel final : public backend::Kernel {
 public:
  // The shift s when the kernel pair qualifies (symmetric, odd, <= 5 taps), else -1.
  static int shift_for(const std::vector<double>& f, int64_t nx, int64_t ny) {
    auto low_pow2 = [](const double* k, int64_t n, int& lg) {
      uint32_t o = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (k[i] < 0 || k[i] > 256 || k[i] != std::floor(k[i]) || k[i] != k[n - 1 - i]) return false;
        o |= static_cast<uint32_t>(k[i]);
      }
      if (o == 0) return false;
      lg = 0;
      while (!((o >> lg) & 1u)) ++lg;
      return true;
    };
    if (nx > 5 || ny > 5 || nx % 2 == 0 || ny % 2 == 0) return -1;
    int lx = 0, ly = 0;
    if (!low_pow2(f.data(), nx, lx) || !low_pow2(f.data() + nx, ny, ly)) return -1;
    double sx = 0, sy = 0;
    for (int64_t i = 0; i < nx; ++i) sx += f[i];
    for (int64_t i = 0; i < ny; ++i) sy += f[nx + i];
    const int sh = lx + ly;
    if (sh < 8 || sh > 15) return -1;
    // the bound on V (and on V plus the rounding term) that keeps every partial sum in 16 bits
    if (255.0 * (sx / (1 << lx)) * (sy / (1 << ly)) + (1 << (15 - sh)) > 65535.0) return -1;
    return sh;
  }
  Gauss16Kernel(const backend::StepDesc& s, int sh) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    nx_ = i[0], ny_ = i[1];
    border_ = static_cast<int>(i[4]);
    uint32_t ox = 0, oy = 0;
    for (int64_t k = 0; k < nx_; ++k) ox |= static_cast<uint32_t>(f[k]);
    for (int64_t k = 0; k < ny_; ++k) oy |= static_cast<uint32_t>(f[nx_ + k]);
    const uint32_t gx = ox & (~ox + 1), gy = oy & (~oy + 1);
    for (int64_t k = 0; k < nx_; ++k) kx_[k] = static_cast<uint16_t>(static_cast<uint32_t>(f[k]) / gx);
    for (int64_t k = 0; k < ny_; ++k) ky_[k] = static_cast<uint16_t>(static_cast<uint32_t>(f[nx_ + k]) / gy);
    rsh_ = 16 - sh;
    rnd_ = static_cast<uint16_t>(1u << (rsh_ - 1));
    g_ = geom_of(s.inputs[0].shape);
  }
  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    const Geom g = g_;
    const int64_t n = g.w * g.c, c = g.c, mx = nx_ / 2, my = ny_ / 2;
    parallel_for(g.h, row_grain(g), [&](int64_t y0, int64_t y1) {
      std::vector<uint16_t> vrow(static_cast<size_t>((g.w + 2 * mx) * c));
      std::vector<uint8_t> zero(static_cast<size_t>(n), 0);
      const uint8_t* rows[5];
      for (int64_t y = y0; y < y1; ++y) {
        for (int64_t j = 0; j < ny_; ++j) {
          const int64_t r = bmap(y - my + j, g.h, border_);
          rows[j] = r < 0 ? zero.data() : src + r * n;
        }
        uint16_t* v = vrow.data() + mx * c;
        switch (ny_) {
          case 1: vert<1>(v, rows, n); break;
          case 3: vert<3>(v, rows, n); break;
          default: vert<5>(v, rows, n); break;
        }
        // border columns of the vertical sums (the sums of the border-extended rows)
        for (int64_t x = -mx; x < g.w + mx; ++x) {
          if (x == 0) x = g.w;
          if (x >= g.w + mx) break;
          const int64_t sx = bmap(x, g.w, border_);
          for (int64_t k = 0; k < c; ++k) v[x * c + k] = sx < 0 ? 0 : v[sx * c + k];
        }
        uint8_t* o = dst + y * n;
        switch (nx_) {
          case 1: horz<1>(o, vrow.data(), n, c); break;
          case 3: horz<3>(o, vrow.data(), n, c); break;
          default: horz<5>(o, vrow.data(), n, c); break;
        }
      }
    });
  }

 private:
  template <int N>
  void vert(uint16_t* __restrict v, const uint8_t* const* rows, int64_t n) const {
    const uint8_t* __restrict r0 = rows[0];
    const uint8_t* __restrict r1 = rows[N > 1 ? 1 : 0];
    const uint8_t* __restrict r2 = rows[N > 2 ? 2 : 0];
    const uint8_t* __restrict r3 = rows[N > 3 ? 3 : 0];
    const uint8_t* __restrict r4 = rows[N > 4 ? 4 : 0];
    const uint16_t k0 = ky_[0], k1 = ky_[N > 1 ? 1 : 0], k2 = ky_[N > 2 ? 2 : 0];
    if constexpr (N == 1) {
      for (int64_t x = 0; x < n; ++x) v[x] = static_cast<uint16_t>(k0 * r0[x]);
    } else if constexpr (N == 3) {
      for (int64_t x = 0; x < n; ++x) v[x] = static_cast<uint16_t>(k0 * (r0[x] + r2[x]) + k1 * r1[x]);
    } else {
      for (int64_t x = 0; x < n; ++x)
        v[x] = static_cast<uint16_t>(k0 * static_cast<uint16_t>(r0[x] + r4[x]) + k1 * static_cast<uint16_t>(r1[x] + r3[x]) +
                                     k2 * r2[x]);
    }
  }
  template <int N>
  void horz(uint8_t* __restrict o, const uint16_t* __restrict v, int64_t n, int64_t c) const {
    const uint16_t k0 = kx_[0], k1 = kx_[N > 1 ? 1 : 0], k2 = kx_[N > 2 ? 2 : 0], rnd = rnd_;
    const int rsh = rsh_;
    const uint16_t* __restrict a = v;
    const uint16_t* __restrict b = v + c;
    const uint16_t* __restrict m = v + 2 * c;
    const uint16_t* __restrict d = v + 3 * c;
    const uint16_t* __restrict e = v + 4 * c;
    if constexpr (N == 1) {
      for (int64_t x = 0; x < n; ++x) o[x] = static_cast<uint8_t>(static_cast<uint16_t>(k0 * a[x] + rnd) >> rsh);
    } else if constexpr (N == 3) {
      for (int64_t x = 0; x < n; ++x)
        o[x] = static_cast<uint8_t>(static_cast<uint16_t>(k0 * static_cast<uint16_t>(a[x] + m[x]) + k1 * b[x] + rnd) >> rsh);
    } else {
      for (int64_t x = 0; x < n; ++x)
        o[x] = static_cast<uint8_t>(static_cast<uint16_t>(k0 * static_cast<uint16_t>(a[x] + e[x]) +
                                                          k1 * static_cast<uint16_t>(b[x] + d[x]) + k2 * m[x] + rnd) >> rsh);
    }
  }

  int64_t nx_, ny_;
  int border_;
  uint16_t kx_[5] = {}, ky_[5] = {};
  int rsh_;
  uint16_t rnd_;
  Geom g_;
};

std::unique_ptr<backend::Kernel> prepare_sep(const backend::StepDesc& s) {
  if (s.params->ints[7]) {
    const auto& i = s.params->ints;
    // The fixed path folds symmetric pairs around the centre: it needs odd, centred kernels.
    if (i[0] % 2 == 1 && i[1] % 2 == 1 && i[2] == i[0] / 2 && i[3] == i[1] / 2) {
      const int sh = Gauss16Kernel::shift_for(s.params->floats, i[0], i[1]);
      if (sh >= 0) return std::make_unique<Gauss16Kernel>(s, sh);
      return std::make_unique<FixedGaussKernel>(s);
    }
  }
  return std::make_unique<SepFilterKernel>(s);
}

// ---- filter2D: a dense kernel, correlation (not convolution), as cv2 ------------------------

class Filter2DKernel final : public backend::Kernel {
 public:
  explicit Filter2DKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    kh_ = i[0], kw_ = i[1], ay_ = i[2], ax_ = i[3];
    border_ = static_cast<int>(i[4]);
    for (int64_t r = 0; r < kh_; ++r)
      for (int64_t q = 0; q < kw_; ++q)
        if (f[r * kw_ + q] != 0.0) taps_.push_back({r, q, f[r * kw_ + q]});
    delta_ = f[kh_ * kw_], bval_ = f[kh_ * kw_ + 1];
    g_ = geom_of(s.inputs[0].shape);
    in_ = s.inputs[0].dtype;
    out_isz_ = itemsize(s.output.dtype);
    store_ = store_fn(s.output.dtype);
  }
  void run(char* const* in, char* out) override {
    dispatch_depth(in_, [&](auto zero) {
      using S = decltype(zero);
      const S* src = reinterpret_cast<const S*>(in[0]);
      const Geom g = g_;
      const int64_t n = g.w * g.c, c = g.c, rowlen = (g.w + kw_ - 1) * c;
      parallel_for(g.h, row_grain(g), [&](int64_t y0, int64_t y1) {
        std::vector<double> acc(static_cast<size_t>(n));
        auto make = [&](int64_t p, double* d) {
          pad_row<S, double>(src, g, bmap(p, g.h, border_), ax_, kw_ - 1 - ax_, border_, bval_, d);
        };
        auto use = [&](int64_t y, const double* const* rows) {
          std::fill(acc.begin(), acc.end(), delta_);
          for (const Tap& t : taps_) {
            const double* r = rows[t.r] + t.q * c;
            const double w = t.w;
            for (int64_t x = 0; x < n; ++x) acc[x] += w * r[x];
          }
          store_(acc.data(), out + y * n * out_isz_, n);
        };
        ring_rows<double>(y0, y1, kh_, ay_, rowlen, make, use);
      });
      return 0;
    });
  }

 private:
  struct Tap {
    int64_t r, q;
    double w;
  };
  int64_t kh_, kw_, ay_, ax_;
  int border_;
  std::vector<Tap> taps_;
  double delta_, bval_;
  Geom g_;
  DType in_;
  size_t out_isz_;
  StoreFn store_;
};

std::unique_ptr<backend::Kernel> prepare_filter2d(const backend::StepDesc& s) { return std::make_unique<Filter2DKernel>(s); }

// ---- erode / dilate ------------------------------------------------------------------------

template <class T>
class MorphKernel final : public backend::Kernel {
 public:
  explicit MorphKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    kh_ = i[0], kw_ = i[1], ay_ = i[2], ax_ = i[3];
    border_ = static_cast<int>(i[4]);
    dilate_ = i[5] != 0;
    rect_ = true;
    for (int64_t r = 0; r < kh_; ++r)
      for (int64_t q = 0; q < kw_; ++q) {
        if (i[6 + r * kw_ + q]) taps_.push_back({r, q});
        else rect_ = false;
      }
    bval_ = sat<T>(s.params->floats[0]);
    g_ = geom_of(s.inputs[0].shape);
  }
  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const Geom g = g_;
    const int64_t n = g.w * g.c, c = g.c, rowlen = (g.w + kw_ - 1) * c;
    const bool dil = dilate_;
    if (taps_.empty()) {  // an empty element: cv2 copies the image through
      std::memcpy(dst, src, sizeof(T) * g.h * n);
      return;
    }
    parallel_for(g.h, row_grain(g), [&](int64_t y0, int64_t y1) {
      if (rect_) {
        // A full rectangle is separable: min/max along x per source row, then across rows.
        std::vector<T> prow(static_cast<size_t>(rowlen));
        auto make = [&](int64_t p, T* d) {
          pad_row<T, T>(src, g, bmap(p, g.h, border_), ax_, kw_ - 1 - ax_, border_, bval_, prow.data());
          std::memcpy(d, prow.data(), sizeof(T) * n);
          for (int64_t q = 1; q < kw_; ++q) {
            if (dil) max_into(d, prow.data() + q * c, n);
            else min_into(d, prow.data() + q * c, n);
          }
        };
        auto use = [&](int64_t y, const T* const* rows) {
          T* o = dst + y * n;
          std::memcpy(o, rows[0], sizeof(T) * n);
          for (int64_t r = 1; r < kh_; ++r) {
            if (dil) max_into(o, rows[r], n);
            else min_into(o, rows[r], n);
          }
        };
        ring_rows<T>(y0, y1, kh_, ay_, n, make, use);
      } else {
        auto make = [&](int64_t p, T* d) {
          pad_row<T, T>(src, g, bmap(p, g.h, border_), ax_, kw_ - 1 - ax_, border_, bval_, d);
        };
        auto use = [&](int64_t y, const T* const* rows) {
          T* o = dst + y * n;
          const Tap& t0 = taps_[0];
          std::memcpy(o, rows[t0.r] + t0.q * c, sizeof(T) * n);
          for (size_t k = 1; k < taps_.size(); ++k) {
            const T* s = rows[taps_[k].r] + taps_[k].q * c;
            if (dil) max_into(o, s, n);
            else min_into(o, s, n);
          }
        };
        ring_rows<T>(y0, y1, kh_, ay_, rowlen, make, use);
      }
    });
  }

 private:
  struct Tap {
    int64_t r, q;
  };
  int64_t kh_, kw_, ay_, ax_;
  int border_;
  bool dilate_, rect_;
  std::vector<Tap> taps_;
  T bval_;
  Geom g_;
};

std::unique_ptr<backend::Kernel> prepare_morph(const backend::StepDesc& s) {
  return dispatch_depth(s.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    return std::make_unique<MorphKernel<decltype(zero)>>(s);
  });
}

// ---- medianBlur ----------------------------------------------------------------------------

// A selection network for the median of n values: Batcher's odd-even merge sort on the next
// power of two (comparators touching the missing elements act as +inf and drop out), then
// every comparator that cannot reach the middle element is pruned away.
std::vector<std::pair<int, int>> median_network(int n) {
  int N = 1;
  while (N < n) N <<= 1;
  std::vector<std::pair<int, int>> net;
  for (int p = 1; p < N; p <<= 1)
    for (int k = p; k >= 1; k >>= 1)
      for (int j = k % p; j + k < N; j += 2 * k)
        for (int i = 0; i < std::min(k, N - j - k); ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < n) net.push_back({i + j, i + j + k});
  std::vector<bool> live(static_cast<size_t>(n), false);
  live[n / 2] = true;
  std::vector<std::pair<int, int>> kept;
  for (auto it = net.rbegin(); it != net.rend(); ++it)
    if (live[it->first] || live[it->second]) {
      live[it->first] = live[it->second] = true;
      kept.push_back(*it);
    }
  std::reverse(kept.begin(), kept.end());
  return kept;
}

// The same network built at compile time, so the 3x3 and 5x5 medians unroll into straight-line
// min/max code on whole vectors held in registers.
template <int N>
struct Net {
  int size = 0;
  int a[256] = {};
  int b[256] = {};
};

template <int N>
constexpr Net<N> make_median_net() {
  Net<N> all{};
  int P = 1;
  while (P < N) P <<= 1;
  for (int p = 1; p < P; p <<= 1)
    for (int k = p; k >= 1; k >>= 1)
      for (int j = k % p; j + k < P; j += 2 * k)
        for (int i = 0; i < (k < P - j - k ? k : P - j - k); ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < N) {
            all.a[all.size] = i + j;
            all.b[all.size] = i + j + k;
            ++all.size;
          }
  bool live[N] = {};
  live[N / 2] = true;
  Net<N> rev{};
  for (int t = all.size - 1; t >= 0; --t)
    if (live[all.a[t]] || live[all.b[t]]) {
      live[all.a[t]] = live[all.b[t]] = true;
      rev.a[rev.size] = all.a[t];
      rev.b[rev.size] = all.b[t];
      ++rev.size;
    }
  Net<N> out{};
  for (int t = rev.size - 1; t >= 0; --t) {
    out.a[out.size] = rev.a[t];
    out.b[out.size] = rev.b[t];
    ++out.size;
  }
  return out;
}


// Sorting network for one column of 5 (Batcher on 8 wires, the 3 missing wires dropped).
constexpr Net<5> make_sort5() {
  Net<5> n{};
  for (int p = 1; p < 8; p <<= 1)
    for (int k = p; k >= 1; k >>= 1)
      for (int j = k % p; j + k < 8; j += 2 * k)
        for (int i = 0; i < (k < 8 - j - k ? k : 8 - j - k); ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < 5) {
            n.a[n.size] = i + j;
            n.b[n.size] = i + j + k;
            ++n.size;
          }
  return n;
}
constexpr Net<5> kSort5 = make_sort5();

// A merge network for G already-sorted runs (run g holds L[g] values, in registers starting at
// the sum of the lengths before it) that leaves the wanted ranks of their union in known
// registers: Batcher's network on P wires with run g on wires B*g .. B*g + L[g] - 1 and +inf on
// the rest (wires holding +inf are tracked at build time, so their comparators vanish or become
// relabelings), minus every comparator that never swaps on any 0/1 input made of sorted runs (by
// the 0-1 principle it never swaps on real data either), minus those that cannot reach a wanted
// rank. out[i] is the register holding rank rank0 + i.
struct RunNet {
  int size = 0;
  int a[128] = {};
  int b[128] = {};
  int out[16] = {};
};

template <int G, int B, int P>
constexpr RunNet make_run_merge(const int (&L)[G], int rank0, int nranks) {
  int n = 0, lab[P] = {};
  for (int w = 0; w < P; ++w) lab[w] = -1;
  for (int g = 0; g < G; ++g)
    for (int r = 0; r < L[g]; ++r) lab[B * g + r] = n++;
  int ca[512] = {}, cb[512] = {}, nc = 0;
  for (int p = 1; p < P; p <<= 1)
    for (int k = p; k >= 1; k >>= 1)
      for (int j = k % p; j + k < P; j += 2 * k)
        for (int i = 0; i < (k < P - j - k ? k : P - j - k); ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) {
            const int x = i + j, y = i + j + k, la = lab[x], lb = lab[y];
            if (la < 0 && lb < 0) continue;
            if (la < 0) {
              lab[x] = lb;
              lab[y] = -1;
              continue;
            }
            if (lb < 0) continue;
            ca[nc] = la, cb[nc] = lb, ++nc;
          }
  // Every 0/1 input of sorted runs is a count of ones per run; run them all through.
  int ni = 1;
  for (int g = 0; g < G; ++g) ni *= L[g] + 1;
  bool keep[512] = {};
  for (int idx = 0; idx < ni; ++idx) {
    bool v[32] = {};
    for (int g = 0, t = idx, base = 0; g < G; base += L[g], t /= L[g] + 1, ++g)
      for (int r = L[g] - t % (L[g] + 1); r < L[g]; ++r) v[base + r] = true;
    for (int c = 0; c < nc; ++c) {
      if (v[ca[c]] && !v[cb[c]]) keep[c] = true;
      const bool lo = v[ca[c]] && v[cb[c]], hi = v[ca[c]] || v[cb[c]];
      v[ca[c]] = lo, v[cb[c]] = hi;
    }
  }
  bool live[32] = {};
  RunNet net{};
  for (int i = 0; i < nranks; ++i) live[net.out[i] = lab[rank0 + i]] = true;
  bool need[512] = {};
  for (int c = nc - 1; c >= 0; --c)
    if (keep[c] && (live[ca[c]] || live[cb[c]])) need[c] = live[ca[c]] = live[cb[c]] = true;
  for (int c = 0; c < nc; ++c)
    if (need[c]) net.a[net.size] = ca[c], net.b[net.size] = cb[c], ++net.size;
  return net;
}

typedef uint8_t v32u8 __attribute__((vector_size(32)));
#if defined(__AVX512BW__)
// 64-byte vectors where there are 32 registers: the 25 values of a 5x5 merge stay in registers.
typedef uint8_t vmed_u8 __attribute__((vector_size(64)));
#else
typedef v32u8 vmed_u8;
#endif

// always_inline: the scalar build would pass these vectors in memory otherwise (GCC still
// notes that the ABI of such a function would differ: not an issue once inlined).
#pragma GCC diagnostic ignored "-Wpsabi"
template <class V>
__attribute__((always_inline)) inline V vmin(V x, V y) { return x < y ? x : y; }
template <class V>
__attribute__((always_inline)) inline V vmax(V x, V y) { return x < y ? y : x; }
// One unaligned vector load, straight into a register (memcpy into array elements in a loop
// went through the stack as two half-width stores and a full-width reload).
template <class V>
__attribute__((always_inline)) inline V vload(const uint8_t* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));
  return v;
}

template <class NetT, const NetT& NET, class V, size_t... I>
inline void run_net(V* v, std::index_sequence<I...>) {
  (([&] {
     V x = v[NET.a[I]], y = v[NET.b[I]];
     v[NET.a[I]] = vmin(x, y);
     v[NET.b[I]] = vmax(x, y);
   }()),
   ...);
}

// Calls body(x0) for x0 = 0, W, 2W, ... over n >= W bytes; the last block overlaps the one
// before it instead of running a scalar tail.
template <int W, class F>
inline void blocks(int64_t n, F body) {
  for (int64_t x0 = 0;; x0 += W) {
    if (x0 + W > n) x0 = n - W;
    body(x0);
    if (x0 + W >= n) break;
  }
}

// ---- 8-bit 5x5 median ----
// The window of output (y, x) is five source rows y-2..y+2, each contributing the five pixels
// x-2..x+2. Each row's five are sorted once per source row (H), the two middle pairs of rows
// merged into sorted tens (P), and two vertically adjacent outputs share the twenty values of
// their four common rows: of those only ranks 7..12 can be the median of 25 (seven of them lie
// below it whatever the fifth row holds, seven above), so the pair merges them once and each
// output takes rank 5 of those six and its own fifth row. Per output that is about 60 min/max
// against ~160 for a median network over five sorted columns; all of it runs on whole vectors
// across pixels, so every result is the exact median (cv2's value).
constexpr int kRuns55[2] = {5, 5};
constexpr RunNet kMerge55 = make_run_merge<2, 8, 16>(kRuns55, 0, 10);      // H + H -> sorted P
constexpr int kRuns1010[2] = {10, 10};
constexpr RunNet kMid20 = make_run_merge<2, 16, 32>(kRuns1010, 7, 6);      // P + P -> ranks 7..12

// Rank 5 of the union of sorted a[0..6) and sorted b[0..5): the k-th smallest of two sorted
// lists is the least, over the splits i + j = k, of max(a's i-th, b's j-th).
template <class V>
__attribute__((always_inline)) inline V rank5_of_6_5(const V* a, const V* b) {
  const V m0 = vmin(vmax(a[0], b[4]), vmax(a[1], b[3]));
  const V m1 = vmin(vmax(a[2], b[2]), vmax(a[3], b[1]));
  return vmin(vmin(m0, m1), vmin(vmax(a[4], b[0]), a[5]));
}

// Output bytes per strip: a strip walks down the rows with its planes (six sorted source rows
// and two sorted row pairs: 50 planes, 19 KB) in L1. 512 measured as fast on a quiet core
// but its 32 KB of planes lost to a busy hyperthread sibling (0.9-1.1x cv2 against 1.1-1.4x).
constexpr int64_t kMed5Strip = 256;
// (The small loops below are unrolled by hand: a rolled loop over an array of vectors keeps the
// array on the stack, and each element then moves through it as two half-width copies.)

// Output rows [y0, y1) of the 8-bit 5x5 median (n >= W bytes), strip by strip.
template <class V>
void median5_rows_u8(const uint8_t* src, uint8_t* dst, const Geom& g, int64_t y0, int64_t y1) {
  constexpr int W = sizeof(V);
  const int64_t n = g.w * g.c, c = g.c, h = g.h, nst = (n + kMed5Strip - 1) / kMed5Strip;
  const int64_t stride = (kMed5Strip + 64) / 64 * 64 + 64;  // > any strip; not a multiple of 4 KiB
  const int64_t padlen = (kMed5Strip + 4 * c + 63) / 64 * 64;
  std::vector<uint8_t> buf(static_cast<size_t>((6 * 5 + 2 * 10) * stride + 2 * padlen + 64));
  uint8_t* const hbuf = buf.data() + (64 - reinterpret_cast<uintptr_t>(buf.data()) % 64) % 64;
  uint8_t* const pbuf = hbuf + 6 * 5 * stride;
  uint8_t* const pad[2] = {pbuf + 2 * 10 * stride, pbuf + 2 * 10 * stride + padlen};
  // Row r's sorted fives sit in ring slot r mod 6: a pair (y, y+1) reads rows y-2 and y+1 and
  // writes rows y+2 and y+3, four distinct slots, so the overlapping last block of a strip
  // rereads what it read before. Sorted pairs alternate between two slots the same way.
  auto hrow = [&](int64_t r) { return hbuf + ((r % 6 + 6) % 6) * 5 * stride; };
  auto prow = [&](int64_t i) { return pbuf + (i & 1) * 10 * stride; };
  auto hsort = [&](const uint8_t* rp, int64_t x, V* v) {
    #pragma GCC unroll 20
    for (int j = 0; j < 5; ++j) v[j] = vload<V>(rp + x + j * c);
    run_net<Net<5>, kSort5>(v, std::make_index_sequence<kSort5.size>{});
  };
  auto load = [&](const uint8_t* p, int64_t x, V* v, int cnt) {
    #pragma GCC unroll 20
    for (int i = 0; i < cnt; ++i) v[i] = vload<V>(p + i * stride + x);
  };
  auto store = [&](uint8_t* p, int64_t x, const V* v, int cnt) {
    #pragma GCC unroll 20
    for (int i = 0; i < cnt; ++i) std::memcpy(p + i * stride + x, &v[i], W);
  };
  for (int64_t s = 0; s < nst; ++s) {
    // n / nst > kMed5Strip / 2 >= W: every strip holds at least one whole vector
    const int64_t s0 = n * s / nst, s1 = n * (s + 1) / nst, sw = s1 - s0;
    // Source bytes [s0 - 2c, s1 + 2c) of row r (clamped: medianBlur replicates the edges), read
    // in place inside the image and from a copy with the edge pixels replicated at its ends.
    auto src_row = [&](int64_t r, uint8_t* p) -> const uint8_t* {
      const uint8_t* sr = src + std::min(std::max<int64_t>(r, 0), h - 1) * n;
      const int64_t b0 = s0 - 2 * c, b1 = s1 + 2 * c;
      if (b0 >= 0 && b1 <= n) return sr + b0;
      const int64_t m0 = std::max<int64_t>(b0, 0), m1 = std::min(b1, n);
      std::memcpy(p + (m0 - b0), sr + m0, m1 - m0);
      for (int64_t b = b0; b < 0; ++b) p[b - b0] = sr[(b % c + c) % c];
      for (int64_t b = n; b < b1; ++b) p[b - b0] = sr[n - c + (b - n) % c];
      return p;
    };
    // Prologue: rows y0-2 .. y0+1 sorted, rows y0-1 and y0 merged.
    for (int64_t r = y0 - 2; r <= y0 + 1; ++r) {
      const uint8_t* rp = src_row(r, pad[0]);
      blocks<W>(sw, [&](int64_t x) {
        V v[5];
        hsort(rp, x, v);
        store(hrow(r), x, v, 5);
      });
    }
    blocks<W>(sw, [&](int64_t x) {
      V m[10];
      load(hrow(y0 - 1), x, m, 5);
      load(hrow(y0), x, m + 5, 5);
      run_net<RunNet, kMerge55>(m, std::make_index_sequence<kMerge55.size>{});
      #pragma GCC unroll 20
      for (int i = 0; i < 10; ++i) std::memcpy(prow(0) + i * stride + x, &m[kMerge55.out[i]], W);
    });
    for (int64_t y = y0, pi = 0; y < y1; y += 2, ++pi) {
      const uint8_t* ra = src_row(y + 2, pad[0]);
      const uint8_t* rb = src_row(y + 3, pad[1]);
      uint8_t* const o0 = dst + y * n + s0;
      uint8_t* const o1 = y + 1 < y1 ? o0 + n : nullptr;
      // The strip's next two source rows, a pair ahead: a strip reads each row in one short run,
      // which the hardware prefetchers do not follow from row to row.
      for (int64_t r = y + 4; r <= y + 5; ++r) {
        const uint8_t* sr = src + std::min(std::max<int64_t>(r, 0), h - 1) * n;
        for (int64_t b = std::max<int64_t>(s0 - 2 * c, 0); b < std::min(s1 + 2 * c, n); b += 64) __builtin_prefetch(sr + b);
      }
      // Likewise the next pair's output lines, for writing: each strip stores short runs of rows
      // far apart, and every store that missed waited for its line's read for ownership. On the
      // loaded 2-core Zen 3 host, interleaved in one process (1080p x 3, 1 thread): median 4.5
      // against 6.6 ms without (cv2 7.6 ms); two pairs ahead, for either prefetch, measured the same.
      for (int64_t r = y + 2; r <= y + 3 && r < y1; ++r)
        for (int64_t b = s0 & ~int64_t(63); b < s1; b += 64) __builtin_prefetch(dst + r * n + b, 1);
      const uint8_t *h_top = hrow(y - 2), *h_prev = hrow(y + 1), *p_prev = prow(pi);
      uint8_t *h_a = hrow(y + 2), *h_b = hrow(y + 3), *p_next = prow(pi + 1);
      blocks<W>(sw, [&](int64_t x) {
        V m[10], hb[5];
        load(h_prev, x, m, 5);
        hsort(ra, x, m + 5);
        store(h_a, x, m + 5, 5);
        hsort(rb, x, hb);
        store(h_b, x, hb, 5);
        run_net<RunNet, kMerge55>(m, std::make_index_sequence<kMerge55.size>{});
        V q[20];
        load(p_prev, x, q, 10);
        #pragma GCC unroll 20
        for (int i = 0; i < 10; ++i) {
          q[10 + i] = m[kMerge55.out[i]];
          std::memcpy(p_next + i * stride + x, &q[10 + i], W);
        }
        run_net<RunNet, kMid20>(q, std::make_index_sequence<kMid20.size>{});
        V mid[6], ht[5];
        #pragma GCC unroll 20
        for (int i = 0; i < 6; ++i) mid[i] = q[kMid20.out[i]];
        load(h_top, x, ht, 5);
        const V r0 = rank5_of_6_5(mid, ht);
        std::memcpy(o0 + x, &r0, W);
        if (o1) {
          const V r1 = rank5_of_6_5(mid, hb);
          std::memcpy(o1 + x, &r1, W);
        }
      });
    }
  }
}

// The 3x3 median of the W bytes at x of three rows, from their shifted columns sorted in
// registers (18 min/max); the median of the nine is then med3(max of the lows, med3 of the mids,
// min of the highs), the exact identity for windows whose columns are sorted (12 more). A
// median-of-9 network needs 38; sharing the column sorts between neighbours through stored
// planes (as the 5x5 does) measured ~30% slower than recomputing them here.
template <class V>
__attribute__((always_inline)) inline V median3_block(const uint8_t* const* rows, int64_t x, int64_t c) {
  V lo[3], mid[3], hi[3];
  for (int j = 0; j < 3; ++j) {
    const int64_t at = x + (j - 1) * c;
    V r0 = vload<V>(rows[0] + at), r1 = vload<V>(rows[1] + at), r2 = vload<V>(rows[2] + at);
#if defined(__AVX2__)
    // Keeps each row in a register: GCC otherwise folds the load into both the min and the max
    // that read it, and this loop is bound by loads.
    asm("" : "+x"(r0), "+x"(r1), "+x"(r2));
#endif
    const V a = vmin(r0, r1), b = vmax(r0, r1);
    const V t = vmax(a, r2);
    lo[j] = vmin(a, r2), mid[j] = vmin(b, t), hi[j] = vmax(b, t);
  }
  const V L = vmax(vmax(lo[0], lo[1]), lo[2]);
  const V H = vmin(vmin(hi[0], hi[1]), hi[2]);
  const V M = vmax(vmin(mid[0], mid[1]), vmin(vmax(mid[0], mid[1]), mid[2]));
  return vmax(vmin(L, M), vmin(vmax(L, M), H));
}

// One row of the 8-bit 3x3 median straight from the source rows (n >= W + 2c): 9 loads and 30
// min/max per block, nothing stored but the output. The first and last blocks read one pixel
// past the row, so they run on short copies of the row ends with that pixel replicated.
#if defined(__AVX2__)
// The interior of a 3x3 median row with every column sorted once per 32 bytes: the sorted
// columns at x - C and x + C are byte shifts of this block's and its neighbours' (permute2x128
// + alignr, on the shuffle ports), so a block costs 3 loads instead of 9. Writes output bytes
// [32, 32 + 32 nb); needs (nb + 2) * 32 <= n.
template <int C>
void median3_rolling_u8(const uint8_t* const* rows, uint8_t* o, int64_t nb) {
  auto sort3 = [&](int64_t x, __m256i& lo, __m256i& mid, __m256i& hi) {
    const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[0] + x));
    const __m256i r1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[1] + x));
    const __m256i r2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[2] + x));
    const __m256i a = _mm256_min_epu8(r0, r1), b = _mm256_max_epu8(r0, r1), t = _mm256_max_epu8(a, r2);
    lo = _mm256_min_epu8(a, r2), mid = _mm256_min_epu8(b, t), hi = _mm256_max_epu8(b, t);
  };
  auto left = [](__m256i prev, __m256i cur) {  // bytes x - C .. x + 32 - C
    return _mm256_alignr_epi8(cur, _mm256_permute2x128_si256(prev, cur, 0x21), 16 - C);
  };
  auto right = [](__m256i cur, __m256i next) {  // bytes x + C .. x + 32 + C
    return _mm256_alignr_epi8(_mm256_permute2x128_si256(cur, next, 0x21), cur, C);
  };
  auto med3 = [](__m256i a, __m256i b, __m256i c) {
    return _mm256_max_epu8(_mm256_min_epu8(a, b), _mm256_min_epu8(_mm256_max_epu8(a, b), c));
  };
  __m256i pl, pm, ph, cl, cm, ch, nl, nm, nh;
  sort3(0, pl, pm, ph);
  sort3(32, cl, cm, ch);
  for (int64_t k = 1; k <= nb; ++k) {
    // Rows 0 and 1 were read for the previous output row; row 2 is new, read once, and on a busy
    // host its lines come from DRAM faster than the hardware prefetcher runs ahead of this loop:
    // asking 2 KB ahead (into the next row at the end, which the next output row reads) took the
    // best of interleaved 1080p passes from 1.2-2.9 ms to 0.9-2.0 ms on the loaded Zen 3 host.
    _mm_prefetch(reinterpret_cast<const char*>(rows[2] + (k + 1) * 32 + 2048), _MM_HINT_T0);
    sort3((k + 1) * 32, nl, nm, nh);
    const __m256i L = _mm256_max_epu8(_mm256_max_epu8(left(pl, cl), cl), right(cl, nl));
    const __m256i H = _mm256_min_epu8(_mm256_min_epu8(left(ph, ch), ch), right(ch, nh));
    const __m256i M = med3(left(pm, cm), cm, right(cm, nm));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + k * 32), med3(L, M, H));
    pl = cl, pm = cm, ph = ch, cl = nl, cm = nm, ch = nh;
  }
}
#endif

template <class V>
void median3_direct_row_u8(const uint8_t* const* rows, uint8_t* o, int64_t n, int64_t c) {
  constexpr int W = sizeof(V);
  int64_t from = 0;  // the blocks below cover output bytes [from + c, n - c)
#if defined(__AVX2__)
  if (W == 32 && n >= 128 && (c == 1 || c == 3 || c == 4)) {
    const int64_t nb = n / 32 - 2;
    if (c == 1) median3_rolling_u8<1>(rows, o, nb);
    else if (c == 3) median3_rolling_u8<3>(rows, o, nb);
    else median3_rolling_u8<4>(rows, o, nb);
    from = std::min(32 * (nb + 1) - c, n - c - W - c);  // what is left: [32 (nb + 1), n - c)
  }
#endif
  blocks<W>(n - 2 * c - from, [&](int64_t xb) {
    const V r = median3_block<V>(rows, from + xb + c, c);
    std::memcpy(o + from + xb + c, &r, W);
  });
  uint8_t tmp[3][W + 8];
  const uint8_t* t[3] = {tmp[0], tmp[1], tmp[2]};
  for (int i = 0; i < 3; ++i) {  // [pixel 0, bytes 0 .. W + c)
    std::memcpy(tmp[i], rows[i], c);
    std::memcpy(tmp[i] + c, rows[i], W + c);
  }
  V r = median3_block<V>(t, c, c);
  std::memcpy(o, &r, W);
  for (int i = 0; i < 3; ++i) {  // [bytes n - W - c .. n, last pixel]
    std::memcpy(tmp[i], rows[i] + n - W - c, W + c);
    std::memcpy(tmp[i] + W + c, rows[i] + n - c, c);
  }
  r = median3_block<V>(t, c, c);
  std::memcpy(o + n - W, &r, W);
}

// 8-bit 3x3 medians of output rows [y0, y1), straight from the source rows.
template <class V>
void median3_rows_u8(const uint8_t* src, uint8_t* dst, const Geom& g, int64_t y0, int64_t y1) {
  const int64_t n = g.w * g.c;
  const uint8_t* rows[3];
  for (int64_t y = y0; y < y1; ++y) {
    for (int64_t i = 0; i < 3; ++i) rows[i] = src + std::min(std::max<int64_t>(y - 1 + i, 0), g.h - 1) * n;
    median3_direct_row_u8<V>(rows, dst + y * n, n, g.c);
  }
}

template <class T>
class MedianKernel final : public backend::Kernel {
 public:
  explicit MedianKernel(const backend::StepDesc& s) {
    k_ = s.params->ints[0];
    g_ = geom_of(s.inputs[0].shape);
    if (k_ <= 5) net_ = median_network(static_cast<int>(k_ * k_));
  }
  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const Geom g = g_;
    const int64_t k = k_, r = k / 2, n = g.w * g.c, c = g.c, rowlen = (g.w + k - 1) * c;
    parallel_for(g.h, row_grain(g), [&](int64_t y0, int64_t y1) {
      // medianBlur always replicates the edge pixels.
      auto make = [&](int64_t p, T* d) { pad_row<T, T>(src, g, bmap(p, g.h, 1), r, r, 1, T{}, d); };
      if constexpr (std::is_same_v<T, uint8_t>) {
        // 3x3 stays on 32-byte vectors even with AVX-512: its 9 loads per block sit at odd
        // offsets, where a 64-byte load always straddles two cache lines (no faster on Zen 4,
        // slower on narrow images).
        if (k == 5 && n >= int64_t(sizeof(vmed_u8))) return median5_rows_u8<vmed_u8>(src, dst, g, y0, y1);
        if (k == 5 && n >= 32) return median5_rows_u8<v32u8>(src, dst, g, y0, y1);
        if (k == 3 && n >= 32 + 2 * c) return median3_rows_u8<v32u8>(src, dst, g, y0, y1);
      }
      if (k <= 5) {
        constexpr int B = 64;
        std::vector<T> v(static_cast<size_t>(k * k * B));
        auto use = [&](int64_t y, const T* const* rows) {
          T* o = dst + y * n;
          for (int64_t x0 = 0; x0 < n; x0 += B) {
            const int64_t m = std::min<int64_t>(B, n - x0);
            for (int64_t i = 0; i < k; ++i)
              for (int64_t j = 0; j < k; ++j) {
                const T* s = rows[i] + x0 + j * c;
                T* d = v.data() + (i * k + j) * B;
                for (int64_t t = 0; t < m; ++t) d[t] = s[t];
              }
            for (const auto& pr : net_) {
              T* a = v.data() + pr.first * B;
              T* b = v.data() + pr.second * B;
              for (int t = 0; t < B; ++t) {
                T lo = std::min(a[t], b[t]), hi = std::max(a[t], b[t]);
                a[t] = lo;
                b[t] = hi;
              }
            }
            const T* md = v.data() + (k * k / 2) * B;
            for (int64_t t = 0; t < m; ++t) o[x0 + t] = md[t];
          }
        };
        ring_rows<T>(y0, y1, k, r, rowlen, make, use);
      } else if constexpr (std::is_same_v<T, uint8_t>) {
        // Large windows (8-bit only, as in cv2): a sliding histogram per channel along the row,
        // tracking the median and the count below it (Huang's method).
        auto use = [&](int64_t y, const uint8_t* const* rows) {
          uint8_t* o = dst + y * n;
          const int64_t half = k * k / 2;
          for (int64_t ch = 0; ch < c; ++ch) {
            int32_t h[256] = {0};
            for (int64_t i = 0; i < k; ++i)
              for (int64_t j = 0; j < k; ++j) ++h[rows[i][j * c + ch]];
            int med = 0;
            int64_t lt = 0;
            for (int64_t x = 0; x < g.w; ++x) {
              if (x > 0) {
                for (int64_t i = 0; i < k; ++i) {
                  uint8_t out_v = rows[i][(x - 1) * c + ch], in_v = rows[i][(x + k - 1) * c + ch];
                  --h[out_v];
                  if (out_v < med) --lt;
                  ++h[in_v];
                  if (in_v < med) ++lt;
                }
              }
              while (lt > half) lt -= h[--med];
              while (lt + h[med] <= half) lt += h[med++];
              o[x * c + ch] = static_cast<uint8_t>(med);
            }
          }
        };
        ring_rows<uint8_t>(y0, y1, k, r, rowlen, make, use);
      }
    });
  }

 private:
  int64_t k_;
  Geom g_;
  std::vector<std::pair<int, int>> net_;
};

std::unique_ptr<backend::Kernel> prepare_median(const backend::StepDesc& s) {
  switch (s.inputs[0].dtype) {
    case DType::UInt8: return std::make_unique<MedianKernel<uint8_t>>(s);
    case DType::UInt16: return std::make_unique<MedianKernel<uint16_t>>(s);
    case DType::Int16: return std::make_unique<MedianKernel<int16_t>>(s);
    default: return std::make_unique<MedianKernel<float>>(s);
  }
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_sep_filter, "cv_sep_filter", &prepare_sep);
MNN_REGISTER_CPU_KERNEL(cv_filter2d, "cv_filter2d", &prepare_filter2d);
MNN_REGISTER_CPU_KERNEL(cv_morph, "cv_morph", &prepare_morph);
MNN_REGISTER_CPU_KERNEL(cv_median, "cv_median", &prepare_median);

}  // namespace mnn::cpu::MNN_ISA_NS
