// INTER_CUBIC warps with cv2 5.0's arithmetic, float for float, so that uint8/uint16/float32
// results equal cv2's exactly (measured against opencv-python 5.0 bit by bit; see
// tests/cv/test_warp_cubic.py). What cv2 5.0 does, and so what this file does:
//
// * Coordinates are floats, never quantised to 1/32 pixel. warpAffine: x*M0 + (y*M1 + M2), each
//   product and sum rounded to float (no fused multiply-add). warpPerspective: the row terms
//   y*M1 + M2 (and y*M4 + M5, y*M7 + M8) in float, then X = M0*x + row and W = M6*x + row in
//   double from the float values, and X / W rounded to float (W = 0 gives inf / NaN). remap: the
//   map's floats.
// * Each coordinate is clamped to [-max(n, 16), 2*max(n, 16)] (n the source width or height); a
//   NaN becomes the low bound. With a reflecting or wrapping border a far-away point therefore
//   samples the pixel that the bound maps to, not the pixel its own coordinate would map to.
// * The weights of fraction t: w0 = A*(t*(t-1)^2), w1 = fma(fma(A+2, t, -(A+3)), t*t, 1),
//   w3 = A*((t*t)*(1-t)), w2 = ((1 - w0) - w1) - w3, with A = -0.75, all in float.
// * Each of the four rows of taps is summed with fused multiply-adds (tap 0 times its weight,
//   then fma for taps 1..3), then the rows likewise with the vertical weights. Taps outside the
//   image follow the border mode one by one: the constant value, the reflected / wrapped /
//   replicated pixel, or for BORDER_TRANSPARENT a reference pixel of the destination.
// * uint8/uint16/float32 run cv2's 8-lane loop: whole groups of 8 pixels. With BORDER_CONSTANT a
//   group whose every point lies outside [-3, n+1) on some axis is set to the constant (points
//   that would sum to the constant times weights not adding up to exactly 1 elsewhere); the last,
//   partial group is the 8 pixels ending at the row's end (overlapping the previous group); a
//   row shorter than 8 is computed pixel by pixel. With BORDER_TRANSPARENT such an all-outside
//   group is left as it was, the partial group is the remaining pixels, and every outside tap of
//   a group reads the destination's pixel at the group's first column (as cv2 does).
// * int16, float64 and 2-channel images take cv2's generic path, pixel by pixel (measured bit
//   by bit against cv2 5.0, tests/cv/test_warp_cubic9.py): the products of w0 and w3 grouped as
//   (A*t)*(t-1)^2 and (A*t*t)*(1-t); each row of taps summed from its second tap (w1*p1, then
//   fma of p0, p2, p3); an outside transparent tap reads the pixel's own old value. With
//   BORDER_CONSTANT / BORDER_TRANSPARENT a point outside [-3, n+1) on some axis takes the
//   constant as given / keeps its old value. A float64 pixel that is not wholly inside sums taps
//   truncated toward zero to integers (cv2 holds them in int registers there): the source
//   pixels, the constant and the old destination pixel alike, whatever the border mode.
#include "backends/cpu/simd/cv/warp_cubic.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/threadpool.h"

#if defined(__AVX512F__)
#include <immintrin.h>
// GCC 12's AVX-512 intrinsics start from an uninitialised register by design and
// -Wmaybe-uninitialized reports that inside the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace mnn::cpu::MNN_ISA_NS {

namespace {

enum { kConstant = 0, kReplicate = 1, kReflect = 2, kWrap = 3, kReflect101 = 4, kTransparent = 5 };
enum { kAffine = 0, kPerspective = 1, kMap = 2 };
constexpr int kLanes = 8;

// cv2's borderInterpolate for one coordinate outside [0, len).
int cubic_border_index(int p, int len, int mode) {
  if (mode == kReplicate) return p < 0 ? 0 : len - 1;
  if (len == 1) return 0;
  if (mode == kWrap) {
    if (p < 0) p -= ((p - len + 1) / len) * len;
    if (p >= len) p %= len;
    return p;
  }
  const int delta = mode == kReflect101;
  do {
    if (p < 0) p = -p - 1 + delta;
    else p = len - 1 - (p - len) - delta;
  } while (static_cast<unsigned>(p) >= static_cast<unsigned>(len));
  return p;
}

// Low bound first, so that NaN becomes the low bound (as SIMD max(v, lo) does).
inline float clamp_coord(float v, float lo, float hi) {
  v = v > lo ? v : lo;
  return v < hi ? v : hi;
}

inline void cubic_weights(float t, float* w, bool generic) {
  const float A = -0.75f;
  const float t1 = t - 1.f, tt = t * t;
  if (generic) {  // cv2's generic path groups the products differently
    w[0] = (A * t) * (t1 * t1);
    w[3] = (A * tt) * (1.f - t);
  } else {
    w[0] = A * (t * (t1 * t1));
    w[3] = A * (tt * (1.f - t));
  }
  w[1] = std::fma(std::fma(A + 2.f, t, -(A + 3.f)), tt, 1.f);
  w[2] = ((1.f - w[0]) - w[1]) - w[3];
}

template <class T>
inline T cubic_cast(float v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    if (!(v == v)) return T(0);
    const float lo = float(std::numeric_limits<T>::min()), hi = float(std::numeric_limits<T>::max());
    if (v <= lo) return std::numeric_limits<T>::min();
    if (v >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(std::lrint(v));  // round half to even, as cv2's cvRound
  }
}

template <class T>
T bval_cast(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    // saturate_cast<T>(double) is cvRound first: NaN and values outside int become INT_MIN,
    // which saturates to the type's minimum (cv2 fills 1e10 as 0 on uint8)
    const double n = std::nearbyint(v);
    const int64_t r = n >= -2147483648.0 && n < 2147483648.0 ? int64_t(n) : int64_t(INT32_MIN);
    return static_cast<T>(std::min<int64_t>(std::numeric_limits<T>::max(), std::max<int64_t>(std::numeric_limits<T>::min(), r)));
  }
}

template <class T>
class CubicRow {
 public:
  CubicRow(const CubicWarp& p) : p_(p), src_(static_cast<const T*>(p.src)) {
    for (int k = 0; k < 9; ++k) mf_[k] = static_cast<float>(p.m[k]);
    for (int c = 0; c < 4; ++c) bval_[c] = bval_cast<T>(p.bval[c]);
    const int mx = std::max(p.sw, 16), my = std::max(p.sh, 16);
    xlo_ = -float(mx), xhi_ = 2.f * float(mx);
    ylo_ = -float(my), yhi_ = 2.f * float(my);
    step_ = size_t(p.sw) * p.cn;
    generic_ = std::is_same_v<T, int16_t> || std::is_same_v<T, double> || p.cn == 2;
  }

  void run_row(int y, T* D, float* cx, float* cy) const {
    coords(y, cx, cy);
    const int dw = p_.dw, cn = p_.cn;
    T ref[4] = {T(0), T(0), T(0), T(0)};
    if (generic_ || (p_.border != kConstant && p_.border != kTransparent)) {
      for (int x = 0; x < dw; ++x) {
        if (p_.border == kTransparent)
          for (int c = 0; c < cn; ++c) ref[c] = D[size_t(x) * cn + c];
        sample(cx[x], cy[x], D + size_t(x) * cn, ref);
      }
      return;
    }
    if (p_.border == kConstant) {
      if (dw < kLanes) {
        for (int x = 0; x < dw; ++x) sample(cx[x], cy[x], D + size_t(x) * cn, ref);
        return;
      }
      for (int x0 = 0;; x0 += kLanes) {
        if (x0 + kLanes > dw) {
          if (x0 == dw) break;
          x0 = dw - kLanes;  // the last group overlaps the one before
        }
        if (!group_touches(cx + x0, cy + x0)) {
          for (int x = x0; x < x0 + kLanes; ++x)
            for (int c = 0; c < cn; ++c) D[size_t(x) * cn + c] = bval_[c];
        } else {
          for (int x = x0; x < x0 + kLanes; ++x) sample(cx[x], cy[x], D + size_t(x) * cn, ref);
        }
        if (x0 + kLanes == dw) break;
      }
      return;
    }
    // BORDER_TRANSPARENT
    int x0 = 0;
    for (; x0 + kLanes <= dw; x0 += kLanes) {
      if (!group_touches(cx + x0, cy + x0)) continue;
      for (int c = 0; c < cn; ++c) ref[c] = D[size_t(x0) * cn + c];
      for (int x = x0; x < x0 + kLanes; ++x) sample(cx[x], cy[x], D + size_t(x) * cn, ref);
    }
    if (x0 < dw) {
      for (int c = 0; c < cn; ++c) ref[c] = D[size_t(x0) * cn + c];
      for (int x = x0; x < dw; ++x) sample(cx[x], cy[x], D + size_t(x) * cn, ref);
    }
  }

 private:
  // Source coordinates of one destination row, clamped.
  void coords(int y, float* cx, float* cy) const {
    const int dw = p_.dw;
    const float* M = mf_;
    const float yf = static_cast<float>(y);
    if (p_.mode == kAffine) {
      const float X0 = yf * M[1] + M[2], Y0 = yf * M[4] + M[5];
      for (int x = 0; x < dw; ++x) {
        const float xf = static_cast<float>(x);
        cx[x] = clamp_coord(xf * M[0] + X0, xlo_, xhi_);
        cy[x] = clamp_coord(xf * M[3] + Y0, ylo_, yhi_);
      }
    } else if (p_.mode == kPerspective) {
      const double X0 = yf * M[1] + M[2], Y0 = yf * M[4] + M[5], W0 = yf * M[7] + M[8];
      for (int x = 0; x < dw; ++x) {
        const double xd = x;
        const double X = double(M[0]) * xd + X0, Y = double(M[3]) * xd + Y0, W = double(M[6]) * xd + W0;
        cx[x] = clamp_coord(static_cast<float>(X / W), xlo_, xhi_);
        cy[x] = clamp_coord(static_cast<float>(Y / W), ylo_, yhi_);
      }
    } else {
      const size_t st = p_.mstride;
      const float* mx = p_.mapx + size_t(y) * dw * st;
      const float* my = p_.mapy + size_t(y) * dw * st;
      for (int x = 0; x < dw; ++x) {
        cx[x] = clamp_coord(mx[st * x], xlo_, xhi_);
        cy[x] = clamp_coord(my[st * x], ylo_, yhi_);
      }
    }
  }

  // Whether any point of a group lies in [-3, n+1) on both axes (cv2 computes such a group; -3
  // itself included, though all its taps are outside).
  bool group_touches(const float* cx, const float* cy) const {
    const float xr = float(p_.sw + 1), yr = float(p_.sh + 1);
    bool any = false;
    for (int k = 0; k < kLanes; ++k) any |= cx[k] >= -3.f && cx[k] < xr && cy[k] >= -3.f && cy[k] < yr;
    return any;
  }

  // The 4x4 taps all inside: the channels side by side (the same operations per channel, so the
  // compiler may run them as one vector without changing any result).
  template <int CN>
  void inside(const T* S, const float* wx, const float* wy, T* D) const {
    float v[CN] = {};  // (set by the first row; initialised for -Wmaybe-uninitialized)
    for (int r = 0; r < 4; ++r, S += step_) {
      float h[CN];
      if (generic_) {  // cv2's generic path starts each row at its second tap
        for (int c = 0; c < CN; ++c) h[c] = float(S[CN + c]) * wx[1];
        for (int c = 0; c < CN; ++c) h[c] = std::fma(float(S[c]), wx[0], h[c]);
        for (int k = 2; k < 4; ++k)
          for (int c = 0; c < CN; ++c) h[c] = std::fma(float(S[k * CN + c]), wx[k], h[c]);
      } else {
        for (int c = 0; c < CN; ++c) h[c] = float(S[c]) * wx[0];
        for (int k = 1; k < 4; ++k)
          for (int c = 0; c < CN; ++c) h[c] = std::fma(float(S[k * CN + c]), wx[k], h[c]);
      }
      if (r == 0) {
        for (int c = 0; c < CN; ++c) v[c] = h[c] * wy[0];
      } else {
        for (int c = 0; c < CN; ++c) v[c] = std::fma(h[c], wy[r], v[c]);
      }
    }
    for (int c = 0; c < CN; ++c) D[c] = cubic_cast<T>(v[c]);
  }

#if defined(__AVX512F__) && defined(__AVX512BW__)
  // inside<CN> for uint8 with the four rows in the four 128-bit lanes of one vector: each lane
  // runs the row's fma chain on its channels (the same float operations, lane by lane), then the
  // rows are combined in order, as inside<CN> does. Inside pixels of uint8 cannot sum to NaN or
  // beyond int range, so the rounding conversion and the saturating packs are cubic_cast.
  template <int CN>
  void inside_u8x4(const uint8_t* S, const float* wx, const float* wy, uint8_t* D) const {
    auto ld = [](const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
    __m512i v = _mm512_castsi128_si512(ld(S));
    v = _mm512_inserti32x4(v, ld(S + step_), 1);
    v = _mm512_inserti32x4(v, ld(S + 2 * step_), 2);
    v = _mm512_inserti32x4(v, ld(S + 3 * step_), 3);
    // tap k's channel c into dword c of each lane (zero-extended)
    auto tap = [&](int k) {
      const int b = k * CN;
      const __m128i m = CN == 3 ? _mm_setr_epi8(char(b), -1, -1, -1, char(b + 1), -1, -1, -1, char(b + 2), -1, -1, -1, -1, -1, -1, -1)
                                : _mm_setr_epi8(char(b), -1, -1, -1, char(b + 1), -1, -1, -1, char(b + 2), -1, -1, -1, char(b + 3), -1, -1, -1);
      return _mm512_cvtepi32_ps(_mm512_shuffle_epi8(v, _mm512_broadcast_i32x4(m)));
    };
    __m512 h = _mm512_mul_ps(tap(0), _mm512_set1_ps(wx[0]));
    h = _mm512_fmadd_ps(tap(1), _mm512_set1_ps(wx[1]), h);
    h = _mm512_fmadd_ps(tap(2), _mm512_set1_ps(wx[2]), h);
    h = _mm512_fmadd_ps(tap(3), _mm512_set1_ps(wx[3]), h);
    __m128 r = _mm_mul_ps(_mm512_castps512_ps128(h), _mm_set1_ps(wy[0]));
    r = _mm_fmadd_ps(_mm512_extractf32x4_ps(h, 1), _mm_set1_ps(wy[1]), r);
    r = _mm_fmadd_ps(_mm512_extractf32x4_ps(h, 2), _mm_set1_ps(wy[2]), r);
    r = _mm_fmadd_ps(_mm512_extractf32x4_ps(h, 3), _mm_set1_ps(wy[3]), r);
    const __m128i q = _mm_cvtps_epi32(r);  // nearest, ties to even (lrint)
    const __m128i w = _mm_packs_epi32(q, q);
    const uint32_t bytes = uint32_t(_mm_cvtsi128_si32(_mm_packus_epi16(w, w)));
    std::memcpy(D, &bytes, CN);
  }
#endif

  void sample(float sx, float sy, T* D, const T* ref) const {
    const int cn = p_.cn, sw = p_.sw, sh = p_.sh;
    const int ix = static_cast<int>(std::floor(sx)), iy = static_cast<int>(std::floor(sy));
    float wx[4], wy[4];
    cubic_weights(sx - static_cast<float>(ix), wx, generic_);
    cubic_weights(sy - static_cast<float>(iy), wy, generic_);
    if (ix >= 1 && iy >= 1 && ix + 2 < sw && iy + 2 < sh) {
      const T* S = src_ + size_t(iy - 1) * step_ + size_t(ix - 1) * cn;
#if defined(__AVX512F__) && defined(__AVX512BW__)
      if constexpr (std::is_same_v<T, uint8_t>) {
        // 16-byte row loads: past the image only for the last row's last pixels
        if (!generic_ && (cn == 3 || cn == 4) && (iy + 2 < sh - 1 || (ix - 1) * cn + 16 <= sw * cn))
          return cn == 3 ? inside_u8x4<3>(S, wx, wy, D) : inside_u8x4<4>(S, wx, wy, D);
      }
#endif
      if (cn == 3) return inside<3>(S, wx, wy, D);
      if (cn == 4) return inside<4>(S, wx, wy, D);
      if (cn == 1) return inside<1>(S, wx, wy, D);
      for (int c = 0; c < cn; ++c) {
        const T* q = S + c;
        float v = 0.f;
        for (int r = 0; r < 4; ++r, q += step_) {
          const float t[4] = {float(q[0]), float(q[cn]), float(q[2 * cn]), float(q[3 * cn])};
          const float h = row_sum(t, wx);
          v = r == 0 ? h * wy[0] : std::fma(h, wy[r], v);
        }
        D[c] = cubic_cast<T>(v);
      }
      return;
    }
    // Partly or wholly outside: each tap by the border mode (-1: take the constant / reference).
    const int mode = p_.border;
    const bool fixed_value = mode == kConstant || mode == kTransparent;
    int xi[4], yi[4];
    for (int k = 0; k < 4; ++k) {
      const int tx = ix - 1 + k, ty = iy - 1 + k;
      xi[k] = unsigned(tx) < unsigned(sw) ? tx : fixed_value ? -1 : cubic_border_index(tx, sw, mode);
      yi[k] = unsigned(ty) < unsigned(sh) ? ty : fixed_value ? -1 : cubic_border_index(ty, sh, mode);
    }
    const T* other = mode == kConstant ? bval_ : ref;
    if (generic_ && fixed_value && (ix < -3 || ix > sw || iy < -3 || iy > sh)) {
      // far outside, [-3, n+1) on some axis: cv2's generic path stores the constant as given /
      // keeps the old pixel (nearer points sum their taps, every one of them outside or not)
      if (mode == kConstant)
        for (int c = 0; c < cn; ++c) D[c] = bval_[c];
      return;
    }
    for (int c = 0; c < cn; ++c) {
      const float o = tap_value(other[c]);
      float v = 0.f;
      for (int r = 0; r < 4; ++r) {
        const T* row = src_ + size_t(yi[r] < 0 ? 0 : yi[r]) * step_ + c;
        float t[4];
        for (int k = 0; k < 4; ++k) t[k] = (xi[k] >= 0 && yi[r] >= 0) ? tap_value(row[size_t(xi[k]) * cn]) : o;
        const float h = row_sum(t, wx);
        v = r == 0 ? h * wy[0] : std::fma(h, wy[r], v);
      }
      D[c] = cubic_cast<T>(v);
    }
  }

  // One row of four taps: tap 0 first then fused multiply-adds; cv2's generic path starts at tap 1.
  float row_sum(const float* t, const float* wx) const {
    if (generic_) {
      float h = t[1] * wx[1];
      h = std::fma(t[0], wx[0], h);
      h = std::fma(t[2], wx[2], h);
      return std::fma(t[3], wx[3], h);
    }
    float h = t[0] * wx[0];
    h = std::fma(t[1], wx[1], h);
    h = std::fma(t[2], wx[2], h);
    return std::fma(t[3], wx[3], h);
  }

  // A tap of a pixel that is not wholly inside, as the sum sees it. cv2 5.0's generic path
  // holds these in int registers: a float64 value (source pixel, border constant or old
  // destination pixel, whatever the border mode) is truncated toward zero there, and one out of
  // int range (or NaN) becomes INT_MIN, as the x86 conversion gives.
  static float tap_value(T v) { return float(int_value(v)); }
  static double int_value(T v) {
    if constexpr (std::is_same_v<T, double>) {
      if (!(v > -2147483649.0 && v < 2147483648.0)) return -2147483648.0;
      return std::trunc(v);
    } else {
      return double(v);
    }
  }

  const CubicWarp& p_;
  const T* src_;
  float mf_[9];
  T bval_[4];
  float xlo_, xhi_, ylo_, yhi_;
  size_t step_;
  bool generic_;  // int16, float64 and 2-channel images: cv2's per-pixel generic path
};

}  // namespace

template <class T>
void warp_cubic_run(const CubicWarp& p, T* dst) {
  const CubicRow<T> row(p);
  const size_t rowlen = size_t(p.dw) * p.cn;
  core::parallel_for(p.dh, std::max(1, 2048 / std::max(1, p.dw)), [&](int64_t y0, int64_t y1) {
    std::vector<float> cx(p.dw), cy(p.dw);
    for (int64_t y = y0; y < y1; ++y) row.run_row(int(y), dst + size_t(y) * rowlen, cx.data(), cy.data());
  });
}

template void warp_cubic_run<uint8_t>(const CubicWarp&, uint8_t*);
template void warp_cubic_run<uint16_t>(const CubicWarp&, uint16_t*);
template void warp_cubic_run<int16_t>(const CubicWarp&, int16_t*);
template void warp_cubic_run<float>(const CubicWarp&, float*);
template void warp_cubic_run<double>(const CubicWarp&, double*);

}  // namespace mnn::cpu::MNN_ISA_NS
