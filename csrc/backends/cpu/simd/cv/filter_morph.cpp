// CPU kernels of erode / dilate / morphologyEx with a full rectangular element (cv_morph_rect)
// and of the 3x3 median of 16-bit and float images (cv_median3); shape rules in
// ops/cv/filter_box.cpp. Compiled once per ISA; plain loops the compiler vectorises.
//
// A rectangle is separable (cv2 decomposes it the same way): the min / max along the row of each
// border-extended source row, then down the kh rows of a ring. The reductions run in the order
// cv_morph used (left to right, top to bottom, std::min / std::max), so NaN pixels of float
// images come out as before. The compound operations run in one primitive: the second pass of
// OPEN / CLOSE reads the first one's image, GRADIENT keeps both reductions of a row and subtracts
// them at once, TOPHAT / BLACKHAT subtract the source as each row is stored.
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
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

// std::max(acc, v) / std::min(acc, v), spelled out so that they apply to GCC vectors too
struct MaxOp {
  template <class V>
  __attribute__((always_inline)) V operator()(V a, V b) const { return a < b ? b : a; }
};
struct MinOp {
  template <class V>
  __attribute__((always_inline)) V operator()(V a, V b) const { return b < a ? b : a; }
};
template <class T, bool DIL>
inline void reduce_ptrs(T* __restrict d, const T* const* ptrs, int64_t k, int64_t n) {
  if constexpr (DIL) box_util::reduce_ptrs<T>(d, ptrs, k, n, MaxOp{});
  else box_util::reduce_ptrs<T>(d, ptrs, k, n, MinOp{});
}

// cv2's saturating difference of the compound operations, in place (float: the plain difference):
// o = o - b, or (REV) o = b - o.
template <class T, bool REV>
inline void sat_sub(T* __restrict o, const T* __restrict b, int64_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    for (int64_t i = 0; i < n; ++i) o[i] = REV ? b[i] - o[i] : o[i] - b[i];
  } else if constexpr (std::is_unsigned_v<T>) {
    // x - min(x, y) is the saturating x - y of unsigned values, in the lanes' own width (a
    // widening to int32 and back would take four times the vectors for uint8)
    for (int64_t i = 0; i < n; ++i) {
      const T x = REV ? b[i] : o[i], y = REV ? o[i] : b[i];
      o[i] = static_cast<T>(x - std::min(x, y));
    }
  } else {
    constexpr int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    for (int64_t i = 0; i < n; ++i) {
      const int32_t d = REV ? int32_t(b[i]) - int32_t(o[i]) : int32_t(o[i]) - int32_t(b[i]);
      o[i] = static_cast<T>(std::min(hi, std::max(lo, d)));
    }
  }
}

// Output rows per sub-band of the compound operations: the rows a sub-band's second pass reads
// (about 256 KB with the kh - 1 rows around them) stay in L2 between the two passes.
inline int64_t sub_band(int64_t n, size_t esz, int64_t kh) {
  return std::max<int64_t>(std::max<int64_t>(8, 2 * kh), (int64_t(1) << 18) / std::max<int64_t>(1, n * int64_t(esz)));
}

struct Rect {
  int64_t h, w, c, kh, kw, ay, ax;
  int border;
};

// Two vertically adjacent outputs share kh - 1 of their rows: s = f over sh[0..k), then
// da = f(s, pa) and db = f(s, pb), each source vector loaded once for both.
template <class T, class F>
inline void reduce2_ptrs(T* __restrict da, T* __restrict db, const T* const* sh, int64_t k, const T* pa, const T* pb,
                         int64_t n, F f) {
  typedef typename box_util::Vec<T>::type V;
  constexpr int64_t L = box_util::Vec<T>::L;
  using box_util::vload;
  using box_util::vstore;
  int64_t x = 0;
  if (n >= L) {
    for (;; x += L) {
      if (x + L > n) x = n - L;  // the last vector overlaps the one before (a pure function)
      V v = vload<V>(sh[0] + x);
      for (int64_t q = 1; q < k; ++q) v = f(v, vload<V>(sh[q] + x));
      vstore(da + x, f(v, vload<V>(pa + x)));
      vstore(db + x, f(v, vload<V>(pb + x)));
      if (x + L >= n) return;
    }
  }
  for (; x < n; ++x) {
    T v = sh[0][x];
    for (int64_t q = 1; q < k; ++q) v = f(v, sh[q][x]);
    da[x] = f(v, pa[x]);
    db[x] = f(v, pb[x]);
  }
}

// Integer images (min / max exact in any order): the column reduction first, straight from the
// kh source rows (no ring, no padded copies of them), then the row reduction of that one
// border-extended row. The border columns of the reduced row are the reduced border columns.
template <class T, bool DIL, class Dest, class Post>
void morph_rows_vfirst(const T* src, const Rect& r, T bval, int64_t y0, int64_t y1, Dest&& dest, Post&& post) {
  const int64_t n = r.w * r.c, c = r.c, kh = r.kh, off = r.ax * c, tot = r.w + r.kw - 1;
  std::vector<T> col(static_cast<size_t>(tot * c)), col2(static_cast<size_t>(tot * c)), cst(static_cast<size_t>(n), bval);
  std::vector<const T*> taps(static_cast<size_t>(r.kw)), taps2(static_cast<size_t>(r.kw)), rows(static_cast<size_t>(kh + 1));
  for (int64_t q = 0; q < r.kw; ++q) taps[q] = col.data() + q * c, taps2[q] = col2.data() + q * c;
  auto src_row = [&](int64_t p) -> const T* {
    const int64_t sr = bmap(p, r.h, r.border);
    return sr < 0 ? cst.data() : src + sr * n;
  };
  auto fill_border = [&](T* cl) {
    for (int64_t x = 0; x < tot; ++x) {
      if (x == r.ax) x = r.ax + r.w;
      if (x >= tot) break;
      const int64_t sc = bmap(x - r.ax, r.w, r.border);
      for (int64_t k = 0; k < c; ++k) cl[x * c + k] = sc < 0 ? bval : cl[off + sc * c + k];
    }
  };
  int64_t y = y0;
  if (kh > 1 && r.kw > 1) {
    // pairs of rows: the kh - 1 shared source rows reduced once
    for (; y + 1 < y1; y += 2) {
      for (int64_t j = 0; j <= kh; ++j) rows[j] = src_row(y - r.ay + j);
      if constexpr (DIL) reduce2_ptrs<T>(col.data() + off, col2.data() + off, rows.data() + 1, kh - 1, rows[0], rows[kh], n, MaxOp{});
      else reduce2_ptrs<T>(col.data() + off, col2.data() + off, rows.data() + 1, kh - 1, rows[0], rows[kh], n, MinOp{});
      fill_border(col.data());
      fill_border(col2.data());
      T* o = dest(y);
      reduce_ptrs<T, DIL>(o, taps.data(), r.kw, n);
      post(y, o);
      o = dest(y + 1);
      reduce_ptrs<T, DIL>(o, taps2.data(), r.kw, n);
      post(y + 1, o);
    }
  }
  for (; y < y1; ++y) {
    for (int64_t j = 0; j < kh; ++j) {
      const int64_t sr = bmap(y - r.ay + j, r.h, r.border);
      rows[j] = sr < 0 ? cst.data() : src + sr * n;
    }
    T* o = dest(y);
    if (r.kw == 1) {
      reduce_ptrs<T, DIL>(o, rows.data(), kh, n);
    } else {
      reduce_ptrs<T, DIL>(col.data() + off, rows.data(), kh, n);
      for (int64_t x = 0; x < tot; ++x) {
        if (x == r.ax) x = r.ax + r.w;
        if (x >= tot) break;
        const int64_t sc = bmap(x - r.ax, r.w, r.border);
        for (int64_t k = 0; k < c; ++k) col[x * c + k] = sc < 0 ? bval : col[off + sc * c + k];
      }
      reduce_ptrs<T, DIL>(o, taps.data(), r.kw, n);
    }
    post(y, o);
  }
}

// Erodes (DIL false) or dilates rows [y0, y1) of src into dest(y); post(y) runs after each row.
// Float images reduce along the row first, then down the column, in cv_morph's order (NaN
// pixels give the answers they gave before).
template <class T, bool DIL, class Dest, class Post>
void morph_rows(const T* src, const Rect& r, T bval, int64_t y0, int64_t y1, Dest&& dest, Post&& post) {
  if constexpr (std::is_integral_v<T>) {
    return morph_rows_vfirst<T, DIL>(src, r, bval, y0, y1, dest, post);
  }
  const int64_t n = r.w * r.c, c = r.c, kh = r.kh;
  std::vector<T> prow(static_cast<size_t>((r.w + r.kw - 1) * c));
  std::vector<T> buf(static_cast<size_t>(kh * n));
  std::vector<const T*> taps(static_cast<size_t>(r.kw)), rows(static_cast<size_t>(kh));
  for (int64_t q = 0; q < r.kw; ++q) taps[q] = prow.data() + q * c;
  auto slot = [&](int64_t p) { return buf.data() + (((p % kh) + kh) % kh) * n; };
  auto make = [&](int64_t p, T* d) {
    const int64_t sr = bmap(p, r.h, r.border);
    if (r.kw == 1) {
      if (sr < 0) std::fill(d, d + n, bval);
      else std::memcpy(d, src + sr * n, sizeof(T) * n);
      return;
    }
    pad_row<T, T>(src, r.w, c, sr, r.ax, r.kw - 1 - r.ax, r.border, bval, prow.data());
    reduce_ptrs<T, DIL>(d, taps.data(), r.kw, n);
  };
  int64_t next = y0 - r.ay;
  for (int64_t y = y0; y < y1; ++y) {
    const int64_t first = y - r.ay, last = first + kh - 1;
    next = std::max(next, first);
    for (; next <= last; ++next) make(next, slot(next));
    T* o = dest(y);
    for (int64_t j = 0; j < kh; ++j) rows[j] = slot(first + j);
    reduce_ptrs<T, DIL>(o, rows.data(), kh, n);
    post(y, o);
  }
}

// cv_morph_rect(src; kh, kw, ay, ax, border, op | erode border value, dilate border value)
// op: 0 erode, 1 dilate, 2 open, 3 close, 4 gradient, 5 tophat, 6 blackhat.
template <class T>
class MorphRectKernel final : public backend::Kernel {
 public:
  explicit MorphRectKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const Shape& sh = s.inputs[0].shape;
    r_ = {sh[0], sh[1], sh.size() == 3 ? sh[2] : 1, i[0], i[1], i[2], i[3], static_cast<int>(i[4])};
    op_ = static_cast<int>(i[5]);
    be_ = sat<T>(s.params->floats[0]);
    bd_ = sat<T>(s.params->floats[1]);
  }
  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const Rect r = r_;
    const int64_t n = r.w * r.c, grain = row_grain(r.w, r.c);
    auto into = [dst, n](int64_t y) { return dst + y * n; };
    auto none = [](int64_t, T*) {};
    switch (op_) {
      case 0:
      case 1:
        parallel_for(r.h, grain, [&](int64_t y0, int64_t y1) {
          if (op_ == 1) morph_rows<T, true>(src, r, bd_, y0, y1, into, none);
          else morph_rows<T, false>(src, r, be_, y0, y1, into, none);
        });
        return;
      case 4:
        // both reductions of a sub-band while its source rows are in cache, then the difference
        parallel_for(r.h, grain, [&](int64_t y0, int64_t y1) {
          std::vector<T> lo(static_cast<size_t>(n));
          const int64_t sb = sub_band(n, sizeof(T), r.kh);
          for (int64_t a = y0; a < y1; a += sb) {
            const int64_t b = std::min(y1, a + sb);
            morph_rows<T, true>(src, r, bd_, a, b, into, none);
            morph_rows<T, false>(src, r, be_, a, b, [&](int64_t) { return lo.data(); },
                                 [&](int64_t y, T* e) { sat_sub<T, false>(dst + y * n, e, n); });
          }
        });
        return;
      default:
        return compound(src, dst);
    }
  }

 private:
  // OPEN / TOPHAT: erode then dilate; CLOSE / BLACKHAT: dilate then erode. Output rows go in
  // sub-bands: the first pass makes the rows of its image that the sub-band's second pass reads
  // (kh - 1 more than the sub-band: recomputed by the neighbouring sub-band, a few percent) into
  // a buffer that stays in cache, instead of a whole intermediate image written and read back.
  void compound(const T* src, T* dst) {
    const Rect r = r_;
    const int64_t n = r.w * r.c, grain = row_grain(r.w, r.c);
    const bool open = op_ == 2 || op_ == 5;
    auto into = [dst, n](int64_t y) { return dst + y * n; };
    auto none = [](int64_t, T*) {};
    auto post = [&](int64_t y, T* o) {
      if (op_ == 5) sat_sub<T, true>(o, src + y * n, n);
      else if (op_ == 6) sat_sub<T, false>(o, src + y * n, n);
    };
    if ((r.border & 15) == 3) {
      // BORDER_WRAP: the first rows read the last ones, no band is local; the whole image first
      std::unique_ptr<T[]> tmp(new T[static_cast<size_t>(r.h * n)]);  // every element written
      T* t = tmp.get();
      auto into_tmp = [t, n](int64_t y) { return t + y * n; };
      parallel_for(r.h, grain, [&](int64_t y0, int64_t y1) {
        if (open) morph_rows<T, false>(src, r, be_, y0, y1, into_tmp, none);
        else morph_rows<T, true>(src, r, bd_, y0, y1, into_tmp, none);
      });
      parallel_for(r.h, grain, [&](int64_t y0, int64_t y1) {
        if (open) morph_rows<T, true>(t, r, bd_, y0, y1, into, post);
        else morph_rows<T, false>(t, r, be_, y0, y1, into, post);
      });
      return;
    }
    parallel_for(r.h, grain, [&](int64_t y0, int64_t y1) {
      const int64_t sb = sub_band(n, sizeof(T), r.kh);
      std::vector<T> band;
      for (int64_t a = y0; a < y1; a += sb) {
        const int64_t b = std::min(y1, a + sb);
        // first-pass rows the second pass reads for outputs [a, b): the border-mapped positions
        // a - ay .. b - 1 - ay + kh - 1 (constant-border positions read no row)
        int64_t lo = r.h, hi = -1;
        for (int64_t p = a - r.ay; p <= b - 1 - r.ay + r.kh - 1; ++p) {
          const int64_t q = bmap(p, r.h, r.border);
          if (q >= 0) lo = std::min(lo, q), hi = std::max(hi, q);
        }
        if (hi < lo) lo = hi = 0;  // every row constant: nothing is read, one row keeps it simple
        band.resize(static_cast<size_t>((hi - lo + 1) * n));
        T* bd = band.data();
        auto into_band = [bd, lo, n](int64_t y) { return bd + (y - lo) * n; };
        if (open) morph_rows<T, false>(src, r, be_, lo, hi + 1, into_band, none);
        else morph_rows<T, true>(src, r, bd_, lo, hi + 1, into_band, none);
        // the second pass addresses image row q as base + q * n; only rows lo..hi are read
        const T* base = bd - lo * n;
        if (open) morph_rows<T, true>(base, r, bd_, a, b, into, post);
        else morph_rows<T, false>(base, r, be_, a, b, into, post);
      }
    });
  }

 private:
  Rect r_;
  int op_;
  T be_, bd_;
};

// ---- 3x3 median of 16-bit and float images (medianBlur always replicates the border) ----
// Each column of the three rows is sorted (lo, mid, hi); the median of the window is then
// med3(max of the three lows, med3 of the mids, min of the highs), exact for any values without
// NaN: 18 min / max per pixel on whole vectors, against the 30-comparator network.
template <class T>
inline T med3(T a, T b, T c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

// Column sorts of the three rows at element indices [e0, e1) of a row of n, into lo/mi/hi[0..);
// indices outside the row take the edge pixel's (replicated) column: e - c + c or e + c - c.
template <class T>
inline void sort_cols(const T* __restrict a, const T* __restrict b, const T* __restrict cc, int64_t e0, int64_t e1,
                      int64_t n, int64_t c, T* __restrict lo, T* __restrict mi, T* __restrict hi) {
  const int64_t i0 = std::max<int64_t>(e0, 0), i1 = std::min(e1, n);
  for (int64_t e = i0; e < i1; ++e) {
    const T t = std::min(a[e], b[e]), u = std::max(a[e], b[e]);
    const T v = cc[e];
    const T w = std::max(t, v);
    lo[e - e0] = std::min(t, v);
    mi[e - e0] = std::min(u, w);
    hi[e - e0] = std::max(u, w);
  }
  for (int64_t e = e0; e < i0; ++e) lo[e - e0] = lo[e + c - e0], mi[e - e0] = mi[e + c - e0], hi[e - e0] = hi[e + c - e0];
  for (int64_t e = i1; e < e1; ++e) lo[e - e0] = lo[e - c - e0], mi[e - e0] = mi[e - c - e0], hi[e - e0] = hi[e - c - e0];
}

// One output row in blocks of kMedBlock elements, so that the sorted columns of a block stay in
// L1 next to the three source rows' block (whole 1080p float rows would not).
constexpr int64_t kMedBlock = 1024;

template <class T>
void median3_range(const T* a, const T* b, const T* cc, T* __restrict o, int64_t n, int64_t c, int64_t e0, int64_t e1,
                   T* __restrict lo, T* __restrict mi, T* __restrict hi) {
  for (int64_t x0 = e0; x0 < e1; x0 += kMedBlock) {
    const int64_t x1 = std::min(e1, x0 + kMedBlock), m = x1 - x0;
    sort_cols<T>(a, b, cc, x0 - c, x1 + c, n, c, lo, mi, hi);
    for (int64_t x = 0; x < m; ++x) {
      const T l = std::max(std::max(lo[x], lo[x + c]), lo[x + 2 * c]);
      const T h = std::min(std::min(hi[x], hi[x + c]), hi[x + 2 * c]);
      const T md = med3(mi[x], mi[x + c], mi[x + 2 * c]);
      o[x0 + x] = med3(l, md, h);
    }
  }
}

// The sorted (lo, mid, hi) of column e of the three rows: the same expressions as sort_cols
template <class T>
__attribute__((always_inline)) inline void sort3(const T* __restrict a, const T* __restrict b, const T* __restrict cc,
                                                 int64_t e, T& l, T& m, T& h) {
  const T t = std::min(a[e], b[e]), u = std::max(a[e], b[e]);
  const T v = cc[e];
  const T w = std::max(t, v);
  l = std::min(t, v);
  m = std::min(u, w);
  h = std::max(u, w);
}

// Float images: the columns away from the row's ends are sorted in registers for each output
// (three times each, 18 min / max) instead of stored to and reloaded from L1 buffers: fewer memory
// operations, which is what limits the float lanes. The same expressions, so the same bits
// (NaN included); the two edge pixels go through the buffered path, which replicates them.
// Measured faster on long rows (1920 floats) and slower on short ones (640), hence the length test.
template <class T>
void median3_row(const T* a, const T* b, const T* cc, T* __restrict o, int64_t n, int64_t c, T* __restrict lo,
                 T* __restrict mi, T* __restrict hi) {
  if (!std::is_floating_point_v<T> || n < 4 * c || n <= kMedBlock) return median3_range<T>(a, b, cc, o, n, c, 0, n, lo, mi, hi);
  median3_range<T>(a, b, cc, o, n, c, 0, c, lo, mi, hi);
  for (int64_t x = c; x < n - c; ++x) {
    T l0, m0, h0, l1, m1, h1, l2, m2, h2;
    sort3<T>(a, b, cc, x - c, l0, m0, h0);
    sort3<T>(a, b, cc, x, l1, m1, h1);
    sort3<T>(a, b, cc, x + c, l2, m2, h2);
    const T l = std::max(std::max(l0, l1), l2);
    const T h = std::min(std::min(h0, h1), h2);
    const T md = med3(m0, m1, m2);
    o[x] = med3(l, md, h);
  }
  median3_range<T>(a, b, cc, o, n, c, n - c, n, lo, mi, hi);
}

template <class T>
class Median3Kernel final : public backend::Kernel {
 public:
  explicit Median3Kernel(const backend::StepDesc& s) {
    const Shape& sh = s.inputs[0].shape;
    h_ = sh[0], w_ = sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
  }
  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const int64_t h = h_, n = w_ * c_, c = c_;
    parallel_for(h, row_grain(w_, c_), [&](int64_t y0, int64_t y1) {
      const int64_t len = std::min(n, kMedBlock) + 2 * c;
      std::vector<T> cols(static_cast<size_t>(3 * len));
      T* lo = cols.data();
      T* mi = lo + len;
      T* hi = mi + len;
      for (int64_t y = y0; y < y1; ++y) {
        const T* a = src + std::max<int64_t>(y - 1, 0) * n;
        const T* b = src + y * n;
        const T* cc = src + std::min<int64_t>(y + 1, h - 1) * n;
        median3_row<T>(a, b, cc, dst + y * n, n, c, lo, mi, hi);
      }
    });
  }

 private:
  int64_t h_, w_, c_;
};

std::unique_ptr<backend::Kernel> prepare_morph_rect(const backend::StepDesc& s) {
  switch (s.inputs[0].dtype) {
    case DType::UInt8: return std::make_unique<MorphRectKernel<uint8_t>>(s);
    case DType::UInt16: return std::make_unique<MorphRectKernel<uint16_t>>(s);
    case DType::Int16: return std::make_unique<MorphRectKernel<int16_t>>(s);
    case DType::Float32: return std::make_unique<MorphRectKernel<float>>(s);
    default: return std::make_unique<MorphRectKernel<double>>(s);
  }
}

std::unique_ptr<backend::Kernel> prepare_median3(const backend::StepDesc& s) {
  switch (s.inputs[0].dtype) {
    case DType::UInt8: return std::make_unique<Median3Kernel<uint8_t>>(s);
    case DType::UInt16: return std::make_unique<Median3Kernel<uint16_t>>(s);
    case DType::Int16: return std::make_unique<Median3Kernel<int16_t>>(s);
    default: return std::make_unique<Median3Kernel<float>>(s);
  }
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_morph_rect, "cv_morph_rect", &prepare_morph_rect);
MNN_REGISTER_CPU_KERNEL(cv_median3, "cv_median3", &prepare_median3);

}  // namespace mnn::cpu::MNN_ISA_NS
