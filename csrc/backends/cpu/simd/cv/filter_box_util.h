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

// Rows per parallel task: at least 8, about 64K elements.
inline int64_t row_grain(int64_t w, int64_t c) { return std::max<int64_t>(8, (1 << 16) / std::max<int64_t>(1, w * c)); }

}  // namespace mnn::cpu::MNN_ISA_NS::box_util
