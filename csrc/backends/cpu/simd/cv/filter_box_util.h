// Helpers shared by the box / adaptive-threshold kernels (filter_box.cpp) and the rectangular
// morphology / small median kernels (filter_morph.cpp). They live in the ISA namespace of the
// build that includes them (every ISA target compiles its own copy): inline code only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace mnn::cpu::MNN_ISA_NS::box_util {

// cv2's borderInterpolate: the source index for position p of an axis of length n, -1 meaning
// the constant border value (BORDER_CONSTANT). BORDER_ISOLATED changes nothing for a whole image.
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

// cv2's saturate_cast from double: round half to even, clamp to the type's range (NaN -> 0).
// The rounding adds and subtracts 1.5 * 2^52 (exact ties-to-even for |v| < 2^51, which the
// clamp guarantees) instead of calling nearbyint, so that loops of it vectorise.
template <class T>
inline T sat(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
    constexpr double C = 6755399441055744.0;
    double c = v < lo - 1.0 ? lo - 1.0 : v;  // NaN stays NaN through both
    c = c > hi + 1.0 ? hi + 1.0 : c;
    double r = (c + C) - C;
    r = r < lo ? lo : r;
    r = r > hi ? hi : r;
    return r != r ? T(0) : static_cast<T>(r);
  }
}

// Source row r (-1: the constant row) border-extended into dst as type D: `left` pixels before
// column 0, `right` after column w-1, c channels interleaved.
template <class S, class D>
inline void pad_row(const S* img, int64_t w, int64_t c, int64_t r, int64_t left, int64_t right, int mode, D bval,
                    D* __restrict dst) {
  const int64_t tot = w + left + right;
  if (r < 0) {
    std::fill(dst, dst + tot * c, bval);
    return;
  }
  const S* __restrict row = img + r * w * c;
  D* __restrict mid = dst + left * c;
  const int64_t n = w * c;
  if constexpr (std::is_same_v<S, D>) {
    std::memcpy(mid, row, sizeof(D) * static_cast<size_t>(n));
  } else {
    for (int64_t i = 0; i < n; ++i) mid[i] = static_cast<D>(row[i]);
  }
  for (int64_t x = 0; x < tot; ++x) {
    if (x == left) x = left + w;
    if (x >= tot) break;
    const int64_t s = bmap(x - left, w, mode);
    for (int64_t k = 0; k < c; ++k) dst[x * c + k] = s < 0 ? bval : static_cast<D>(row[s * c + k]);
  }
}

// Walks output rows [y0, y1) keeping a ring of the k prepared source rows each needs: before
// use(y, rows), rows[j] holds position y - a + j (make(p, dst) prepares position p).
template <class R, class Make, class Use>
inline void ring_rows(int64_t y0, int64_t y1, int64_t k, int64_t a, int64_t rowlen, Make&& make, Use&& use) {
  std::vector<R> buf(static_cast<size_t>(k * rowlen));
  std::vector<const R*> rows(static_cast<size_t>(k));
  auto slot = [k](int64_t p) { return ((p % k) + k) % k; };
  int64_t next = y0 - a;
  for (int64_t y = y0; y < y1; ++y) {
    const int64_t first = y - a, last = first + k - 1;
    next = std::max(next, first);
    for (; next <= last; ++next) make(next, buf.data() + slot(next) * rowlen);
    for (int64_t j = 0; j < k; ++j) rows[j] = buf.data() + slot(first + j) * rowlen;
    use(y, rows.data());
  }
}

// Reductions over k equally long source arrays, on 64-byte GCC vectors kept in registers across
// the k sources (one load per source and vector, one store per output vector, instead of a load
// and a store of the partial result per source). In the scalar build the vectors lower to plain
// scalar code with the same operations in the same order, so every ISA gives the same bits.
template <class T>
struct Vec {
  typedef T type __attribute__((vector_size(64)));
  static constexpr int64_t L = 64 / sizeof(T);
};
template <class V, class T>
__attribute__((always_inline)) inline V vload(const T* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));
  return v;
}
template <class V, class T>
__attribute__((always_inline)) inline void vstore(T* p, const V& v) {
  std::memcpy(p, &v, sizeof(V));
}

// U vectors per block: enough independent chains to hide the latency of the operation (1 cycle
// for integer min / max / add, 3-4 for float add).
template <class T>
constexpr int64_t block_vecs() { return std::is_floating_point_v<T> ? 4 : 2; }

// d[x] = f(...f(f(ptrs[0][x], ptrs[1][x]), ptrs[2][x])..., ptrs[k-1][x]), x in [0, n). A pure
// function of the sources (d aliases none of them), so the last partial block is recomputed as
// one whole vector ending at n.
template <class T, int64_t K, class F>
inline void reduce_ptrs_k(T* __restrict d, const T* const* ptrs, int64_t kr, int64_t n, F f) {
  const int64_t k = K > 0 ? K : kr;
  typedef typename Vec<T>::type V;
  constexpr int64_t L = Vec<T>::L, U = block_vecs<T>();
  int64_t x = 0;
  for (; x + U * L <= n; x += U * L) {
    V a[U];
    for (int64_t u = 0; u < U; ++u) a[u] = vload<V>(ptrs[0] + x + u * L);
    for (int64_t q = 1; q < k; ++q)
      for (int64_t u = 0; u < U; ++u) a[u] = f(a[u], vload<V>(ptrs[q] + x + u * L));
    for (int64_t u = 0; u < U; ++u) vstore(d + x + u * L, a[u]);
  }
  if (x < n && n >= L) {
    for (;; x += L) {
      if (x + L > n) x = n - L;
      V a = vload<V>(ptrs[0] + x);
      for (int64_t q = 1; q < k; ++q) a = f(a, vload<V>(ptrs[q] + x));
      vstore(d + x, a);
      if (x + L >= n) break;
    }
    return;
  }
  for (; x < n; ++x) {
    T a = ptrs[0][x];
    for (int64_t q = 1; q < k; ++q) a = f(a, ptrs[q][x]);
    d[x] = a;
  }
}

// Small source counts get a loop of fixed length (unrolled: no loop exit per block to predict).
template <class T, class F>
inline void reduce_ptrs(T* __restrict d, const T* const* ptrs, int64_t k, int64_t n, F f) {
  switch (k) {
    case 1: return reduce_ptrs_k<T, 1>(d, ptrs, k, n, f);
    case 2: return reduce_ptrs_k<T, 2>(d, ptrs, k, n, f);
    case 3: return reduce_ptrs_k<T, 3>(d, ptrs, k, n, f);
    case 4: return reduce_ptrs_k<T, 4>(d, ptrs, k, n, f);
    case 5: return reduce_ptrs_k<T, 5>(d, ptrs, k, n, f);
    case 7: return reduce_ptrs_k<T, 7>(d, ptrs, k, n, f);
    default: return reduce_ptrs_k<T, 0>(d, ptrs, k, n, f);
  }
}

// d[x] = ((0 + w0 p0[x]) + w1 p1[x]) + ... in T (UNIT: every weight 1, w*p is p)
template <class T, bool UNIT, int64_t K>
inline void taps_ptrs_k(T* __restrict d, const T* const* ptrs, const double* w, int64_t kr, int64_t n) {
  const int64_t k = K > 0 ? K : kr;
  typedef typename Vec<T>::type V;
  constexpr int64_t L = Vec<T>::L, U = block_vecs<T>();
  auto vec = [&](int64_t x, auto tag) {
    using W = decltype(tag);
    W a{};
    for (int64_t q = 0; q < k; ++q) {
      if constexpr (UNIT) a = a + vload<W>(ptrs[q] + x);
      else a = a + static_cast<T>(w[q]) * vload<W>(ptrs[q] + x);
    }
    return a;
  };
  int64_t x = 0;
  for (; x + U * L <= n; x += U * L) {
    V a[U] = {};
    for (int64_t q = 0; q < k; ++q) {
      const T wq = UNIT ? T(1) : static_cast<T>(w[q]);
      for (int64_t u = 0; u < U; ++u) {
        if constexpr (UNIT) a[u] = a[u] + vload<V>(ptrs[q] + x + u * L);
        else a[u] = a[u] + wq * vload<V>(ptrs[q] + x + u * L);
      }
    }
    for (int64_t u = 0; u < U; ++u) vstore(d + x + u * L, a[u]);
  }
  if (x < n && n >= L) {
    for (;; x += L) {
      if (x + L > n) x = n - L;
      vstore(d + x, vec(x, V{}));
      if (x + L >= n) break;
    }
    return;
  }
  for (; x < n; ++x) {
    T a = T(0);
    for (int64_t q = 0; q < k; ++q) {
      if constexpr (UNIT) a = static_cast<T>(a + ptrs[q][x]);
      else a = static_cast<T>(a + static_cast<T>(w[q]) * ptrs[q][x]);
    }
    d[x] = a;
  }
}

template <class T, bool UNIT>
inline void taps_ptrs(T* __restrict d, const T* const* ptrs, const double* w, int64_t k, int64_t n) {
  switch (k) {
    case 1: return taps_ptrs_k<T, UNIT, 1>(d, ptrs, w, k, n);
    case 3: return taps_ptrs_k<T, UNIT, 3>(d, ptrs, w, k, n);
    case 5: return taps_ptrs_k<T, UNIT, 5>(d, ptrs, w, k, n);
    case 7: return taps_ptrs_k<T, UNIT, 7>(d, ptrs, w, k, n);
    default: return taps_ptrs_k<T, UNIT, 0>(d, ptrs, w, k, n);
  }
}

// Rows per parallel task: at least 8, about 64K elements.
inline int64_t row_grain(int64_t w, int64_t c) { return std::max<int64_t>(8, (1 << 16) / std::max<int64_t>(1, w * c)); }

}  // namespace mnn::cpu::MNN_ISA_NS::box_util
