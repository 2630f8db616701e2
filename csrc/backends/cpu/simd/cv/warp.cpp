// cv_warp and cv_remap kernels (ops/cv/geometry.cpp): warpAffine, warpPerspective and remap
// with cv2's exact arithmetic.
//
// cv2 never interpolates at arbitrary positions: every source coordinate is rounded to 1/32 of
// a pixel (INTER_BITS = 5), giving an integer pixel and one of 32x32 fractional positions whose
// weights come from a table (scaled by 2^15 and rounded for uint8). warpAffine builds the
// coordinate from 10-bit fixed-point steps (x * M[0] rounded per column, the row part per row);
// warpPerspective divides in double; remap rounds the given float map. Nearest neighbour rounds
// to whole pixels. Pixels whose taps leave the image take the border mode's pixels (or the
// constant value); BORDER_TRANSPARENT leaves the destination's old value where the source point
// is outside.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/simd/cv/warp_linear_u8_avx2.h"

#include "backends/cpu/simd/cv/warp_cubic.h"
#include "core/error.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

enum { kNearest = 0, kLinear = 1, kCubic = 2, kLanczos4 = 4 };
enum { kConstant = 0, kReplicate = 1, kReflect = 2, kWrap = 3, kReflect101 = 4, kTransparent = 5 };
constexpr int kBits = 5, kTab = 1 << kBits;
#ifndef V2_NEAREST_CN
#define V2_NEAREST_CN true
#endif

inline int border_index(int p, int len, int mode) {
  if (static_cast<unsigned>(p) < static_cast<unsigned>(len)) return p;
  if (mode == kReplicate) return p < 0 ? 0 : len - 1;
  if (mode == kReflect || mode == kReflect101) {
    int delta = mode == kReflect101;
    if (len == 1) return 0;
    do {
      if (p < 0) p = -p - 1 + delta;
      else p = len - 1 - (p - len) - delta;
    } while (static_cast<unsigned>(p) >= static_cast<unsigned>(len));
    return p;
  }
  if (mode == kWrap) {
    if (p < 0) p -= ((p - len + 1) / len) * len;
    if (p >= len) p %= len;
    return p;
  }
  return -1;  // constant: outside
}

// cv2's float -> int conversions (SIMD cvtps2dq / cvtss2si): NaN, infinities and values outside
// the int range become INT_MIN.
inline int cvt_floor(float v) {
  const float f = std::floor(v);
  return f >= -2147483648.f && f < 2147483648.f ? static_cast<int>(f) : INT_MIN;
}
inline int cvt_round(float v) {
  return v >= -2147483648.f && v < 2147483648.f ? static_cast<int>(std::nearbyint(v)) : INT_MIN;
}

// borderInterpolate for any int, INT_MIN included, in O(1): the reflections are periodic; the
// wrap follows cv2's formula in 32-bit two's complement arithmetic (it overflows there).
inline int border_index_any(int p, int len, int mode) {
  if (static_cast<unsigned>(p) < static_cast<unsigned>(len)) return p;
  if (mode == kReplicate) return p < 0 ? 0 : len - 1;
  if (len == 1) return 0;
  if (mode == kReflect || mode == kReflect101) {
    const int64_t period = mode == kReflect ? 2 * int64_t(len) : 2 * int64_t(len) - 2;
    const int64_t q = ((int64_t(p) % period) + period) % period;
    return int(q < len ? q : (mode == kReflect ? period - 1 - q : period - q));
  }
  // kWrap
  if (p < 0) {
    const int t = static_cast<int>(static_cast<uint32_t>(p) - static_cast<uint32_t>(len) + 1u);
    p = static_cast<int>(static_cast<uint32_t>(p) - static_cast<uint32_t>((t / len) * len));
  }
  if (p >= len) p %= len;
  return p < 0 ? ((p % len) + len) % len : p;
}

inline int sat_int(double v) {
  if (!(v > double(std::numeric_limits<int>::min()))) return std::numeric_limits<int>::min();
  if (!(v < double(std::numeric_limits<int>::max()))) return std::numeric_limits<int>::max();
  return static_cast<int>(std::lrint(v));
}

template <class T>
inline T cast_out(float v) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v);
  else {
    long r = std::lrint(v);
    if (r < long(std::numeric_limits<T>::min())) r = std::numeric_limits<T>::min();
    if (r > long(std::numeric_limits<T>::max())) r = std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}
// cv2's float-coordinate warps round through int: NaN and out-of-int-range sums become INT_MIN,
// which saturates to the type's minimum (0 for unsigned types).
template <class T>
inline T cast_v2(float v) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v);
  else {
    const int r = cvt_round(v);
    return static_cast<T>(std::min<int64_t>(std::numeric_limits<T>::max(), std::max<int64_t>(std::numeric_limits<T>::min(), r)));
  }
}
// The border value as cv2 stores it in the image's type (saturate_cast from double: cvRound,
// whose out-of-range result INT_MIN saturates to the type's minimum).
template <class T>
inline T border_value(double v) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v);
  else {
    const double n = std::nearbyint(v);
    const int r = n >= -2147483648.0 && n < 2147483648.0 ? static_cast<int>(n) : INT_MIN;
    return static_cast<T>(std::min<int64_t>(std::numeric_limits<T>::max(), std::max<int64_t>(std::numeric_limits<T>::min(), r)));
  }
}
template <class T>
inline T cast_fixed(int v) {  // uint8: (v + 2^14) >> 15, saturated
  int r = (v + (1 << 14)) >> 15;
  return static_cast<T>(r < 0 ? 0 : r > 255 ? 255 : r);
}

void cubic_coeffs(float x, float* c) {
  const float A = -0.75f;
  c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
  c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
  c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
  c[3] = 1.f - c[0] - c[1] - c[2];
}

void lanczos4_coeffs(float x, float* c) {
  static const double s45 = 0.70710678118654752440084436210485;
  static const double cs[][2] = {{1, 0}, {-s45, -s45}, {0, 1}, {s45, -s45}, {-1, 0}, {s45, s45}, {0, -1}, {-s45, s45}};
  const double pi = 3.141592653589793238462643383279502884;
  if (x < std::numeric_limits<float>::epsilon()) {
    for (int i = 0; i < 8; ++i) c[i] = 0;
    c[3] = 1;
    return;
  }
  float sum = 0;
  double y0 = -(x + 3) * pi * 0.25, s0 = std::sin(y0), c0 = std::cos(y0);
  for (int i = 0; i < 8; ++i) {
    double y = -(x + 3 - i) * pi * 0.25;
    c[i] = static_cast<float>((cs[i][0] * s0 + cs[i][1] * c0) / (y * y));
    sum += c[i];
  }
  sum = 1.f / sum;
  for (int i = 0; i < 8; ++i) c[i] *= sum;
}

// Weights for each of the 32x32 fractional positions: ks*ks floats and their 2^15-scaled
// integers, whose sum is forced to 2^15 by adjusting the largest (or smallest) central weight.
struct WeightTable {
  int ks = 2;
  std::vector<float> f;
  std::vector<int> i;
  std::vector<int32_t> w01, w23;  // bilinear: each tap row's two integer weights as an int16 pair
  explicit WeightTable(int interp) {
    ks = interp == kCubic ? 4 : interp == kLanczos4 ? 8 : 2;
    f.resize(size_t(kTab) * kTab * ks * ks);
    i.resize(f.size());
    std::vector<float> t1(size_t(kTab) * ks);
    for (int j = 0; j < kTab; ++j) {
      float x = j / float(kTab);
      float* c = &t1[size_t(j) * ks];
      if (interp == kCubic) cubic_coeffs(x, c);
      else if (interp == kLanczos4) lanczos4_coeffs(x, c);
      else c[0] = 1.f - x, c[1] = x;
    }
    for (int a = 0; a < kTab; ++a)
      for (int b = 0; b < kTab; ++b) {
        size_t base = (size_t(a) * kTab + b) * ks * ks;
        int isum = 0;
        for (int k1 = 0; k1 < ks; ++k1)
          for (int k2 = 0; k2 < ks; ++k2) {
            float v = t1[size_t(a) * ks + k1] * t1[size_t(b) * ks + k2];
            f[base + k1 * ks + k2] = v;
            int iv = static_cast<int>(std::lrint(v * 32768.f));
            iv = std::min(32767, std::max(-32768, iv));
            i[base + k1 * ks + k2] = iv;
            isum += iv;
          }
        if (isum != 32768 && ks > 2) {
          int diff = isum - 32768, h = ks / 2;
          int Mk1 = h, Mk2 = h, mk1 = h, mk2 = h;
          for (int k1 = h; k1 < h + 2; ++k1)
            for (int k2 = h; k2 < h + 2; ++k2) {
              int v = i[base + k1 * ks + k2];
              if (v < i[base + mk1 * ks + mk2]) mk1 = k1, mk2 = k2;
              else if (v > i[base + Mk1 * ks + Mk2]) Mk1 = k1, Mk2 = k2;
            }
          if (diff < 0) i[base + Mk1 * ks + Mk2] -= diff;
          else i[base + mk1 * ks + mk2] -= diff;
        }
      }
    if (ks == 2) {
      auto pack = [](int lo, int hi) { return int32_t(uint32_t(uint16_t(lo)) | (uint32_t(uint16_t(hi)) << 16)); };
      for (int k = 0; k < kTab * kTab; ++k) {
        w01.push_back(pack(i[k * 4], i[k * 4 + 1]));
        w23.push_back(pack(i[k * 4 + 2], i[k * 4 + 3]));
      }
    }
  }
};

const WeightTable& table_for(int interp) {
  static const WeightTable lin(kLinear), cub(kCubic), lan(kLanczos4);
  return interp == kCubic ? cub : interp == kLanczos4 ? lan : lin;
}

enum Mode { kAffine = 0, kPerspective = 1, kMap = 2 };

// remap's maps as the caller passed them (ops/cv/geometry.cpp): float x and y with a stride of 1
// (two HxW maps) or 2 (one interleaved HxWx2 map), or convertMaps' fixed-point pair.
struct MapIn {
  const float* x = nullptr;
  const float* y = nullptr;
  size_t stride = 2;
  const int16_t* xy = nullptr;  // fixed: whole pixels (x, y)
  const uint16_t* a = nullptr;  // fixed: 1/32-pixel table index (y * 32 + x), or none
};

template <class T>
class WarpKernel final : public backend::Kernel {
 public:
  WarpKernel(const backend::StepDesc& s, Mode mode) : mode_(mode) {
    const Shape& a = s.inputs[0].shape;
    const Shape& o = s.output.shape;
    sh_ = int(a[0]);
    sw_ = int(a[1]);
    cn_ = a.size() == 3 ? int(a[2]) : 1;
    dh_ = int(o[0]);
    dw_ = int(o[1]);
    const Params& p = *s.params;
    int fo;
    if (mode == kMap) {
      interp_ = int(p.ints[0]);
      border_ = int(p.ints[1]);
      fixed_ = p.ints.size() > 2 && p.ints[2] != 0;
      nmaps_ = p.ints.size() > 3 ? int(p.ints[3]) : 1;
      fo = 0;
      has_dst_ = s.inputs.size() > size_t(1 + nmaps_);
    } else {
      interp_ = int(p.ints[2]);
      border_ = int(p.ints[3]);
      int nm = mode == kPerspective ? 9 : 6;
      for (int k = 0; k < nm; ++k) m_[k] = p.floats[k];
      fo = nm;
      has_dst_ = s.inputs.size() > 1;
    }
    for (int k = 0; k < 4; ++k) bv_[k] = p.floats[fo + k];
    if (mode == kAffine) {
      const int ab = 10;
      adelta_.resize(dw_);
      bdelta_.resize(dw_);
      for (int x = 0; x < dw_; ++x) {
        adelta_[x] = sat_int(m_[0] * x * (1 << ab));
        bdelta_[x] = sat_int(m_[3] * x * (1 << ab));
      }
    }
    if (interp_ != kNearest) wt_ = &table_for(interp_);
    // cv2 (4.11+) warps 1/3/4-channel uint8, uint16 and float32 images with float coordinates
    // (no 1/32 quantisation) when interpolating linearly or rounding to the nearest pixel.
    constexpr bool v2_type = std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, float>;
    // Other channel counts (2, and 5 to 128 for NEAREST / LINEAR) keep its 1/32-pixel remap path.
    v2_ = (v2_type && (interp_ == kLinear || interp_ == kNearest) && (cn_ == 1 || cn_ == 3 || cn_ == 4)) ||
          interp_ == kCubic;
    // Fixed-point maps (convertMaps' int16 + table index) keep cv2's 1/32-pixel path.
    if (fixed_) v2_ = false;
    for (int k = 0; k < 9; ++k) mf_[k] = static_cast<float>(m_[k]);
    for (int k = 0; k < 4; ++k) bval8_[k] = border_value<uint8_t>(bv_[k]);
  }

  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    MapIn mp;
    if (mode_ == kMap && fixed_) {
      mp.xy = reinterpret_cast<const int16_t*>(in[1]);
      if (nmaps_ == 2) mp.a = reinterpret_cast<const uint16_t*>(in[2]);
    } else if (mode_ == kMap) {
      mp.x = reinterpret_cast<const float*>(in[1]);
      mp.y = nmaps_ == 2 ? reinterpret_cast<const float*>(in[2]) : mp.x + 1;
      mp.stride = nmaps_ == 2 ? 1 : 2;
    }
    const MapIn* map = mode_ == kMap ? &mp : nullptr;
    T* dst = reinterpret_cast<T*>(out);
    const size_t total = size_t(dh_) * dw_ * cn_;
    if (has_dst_) std::memcpy(dst, in[mode_ == kMap ? 1 + nmaps_ : 1], total * sizeof(T));
    else if (border_ == kTransparent) std::memset(dst, 0, total * sizeof(T));
    if constexpr (kCubicType) {
      if (interp_ == kCubic && v2_) {  // float coordinates (not convertMaps' fixed-point maps)
        run_cubic(src, map, dst);
        return;
      }
    }
    parallel_for(dh_, std::max(1, 4096 / std::max(1, dw_)), [&](int64_t y0, int64_t y1) {
      std::vector<int> xs(dw_), ys(dw_);
      std::vector<int> al(dw_);
      for (int64_t y = y0; y < y1; ++y) {
        T* D = dst + size_t(y) * dw_ * cn_;
        if (v2_) {
          row_v2(int(y), map, src, D);
          continue;
        }
        coords(int(y), map, xs.data(), ys.data(), al.data());
        if (interp_ == kNearest) {
          sample_nearest(src, D, xs.data(), ys.data());
          continue;
        }
        int x0 = 0;
#if defined(__AVX2__)
        if constexpr (std::is_same_v<T, uint8_t>) {
          if (interp_ == kLinear && (cn_ == 1 || cn_ == 3 || cn_ == 4)) {
            warp_u8::FixedArgs f{src, sw_, sh_, cn_, sw_ * cn_, wt_->w01.data(), wt_->w23.data()};
            x0 = warp_u8::fixed_row(f, D, xs.data(), ys.data(), al.data(), dw_, [&](int x, int n) {
              sample(src, D + size_t(x) * cn_, xs.data() + x, ys.data() + x, al.data() + x, n);
            });
          }
        }
#endif
        sample(src, D + size_t(x0) * cn_, xs.data() + x0, ys.data() + x0, al.data() + x0, dw_ - x0);
      }
    });
  }

 private:
  // cv2's float-coordinate warp of one row. cv2 (AVX2 dispatch) runs whole groups of 16 columns
  // (x <= width - 16) with fused multiply-adds from the row's start (y*M1 + M2, rounded as a
  // float); the remaining width % 16 columns run its scalar loop, which GCC compiles with
  // contraction: x*M0 + y*M1 + M2 becomes fma(x, M0, y*M1) + M2 (a different rounding from the
  // vector columns), and the interpolation there is the same fused lerp as in the vector code.
  static float fmaf_(float a, float b, float c) { return std::fma(a, b, c); }

  void row_v2(int y, const MapIn* map, const T* src, T* D) const {
    constexpr int uf = 16;
    const int cn = cn_;
    const float* M = mf_;
    const float yf = static_cast<float>(y);
    const float Mx = yf * M[1] + M[2], My = yf * M[4] + M[5], Mw = yf * M[7] + M[8];
    const int xend = dw_ / uf * uf;
    const size_t step = size_t(sw_) * cn;
    T bval[4];
    for (int c = 0; c < 4; ++c) bval[c] = border_value<T>(bv_[c]);
    const int btx = border_ != kConstant && border_ != kTransparent && sw_ <= 1 ? kReplicate : border_;
    const int bty = border_ != kConstant && border_ != kTransparent && sh_ <= 1 ? kReplicate : border_;
    int x0 = 0;
    // source point of column x, as cv2 computes it in that column
    auto point = [&](int x, float& sx, float& sy) {
      const bool vec = x < xend;
      const float xf = static_cast<float>(x);
      if (mode_ == kMap) {
        const size_t i = (size_t(y) * dw_ + x) * map->stride;
        sx = map->x[i];
        sy = map->y[i];
      } else if (mode_ == kAffine) {
        if (vec) sx = fmaf_(M[0], xf, Mx), sy = fmaf_(M[3], xf, My);
        else sx = fmaf_(xf, M[0], yf * M[1]) + M[2], sy = fmaf_(xf, M[3], yf * M[4]) + M[5];
      } else {
        float w;
        if (vec) sx = fmaf_(M[0], xf, Mx), sy = fmaf_(M[3], xf, My), w = fmaf_(M[6], xf, Mw);
        else sx = fmaf_(xf, M[0], yf * M[1]) + M[2], sy = fmaf_(xf, M[3], yf * M[4]) + M[5], w = fmaf_(xf, M[6], yf * M[7]) + M[8];
        sx /= w;
        sy /= w;
      }
    };
    auto wholly_outside = [&](int ix, int iy) { return ix >= sw_ || ix < -1 || iy >= sh_ || iy < -1; };
    // whether every pixel of x's group of 16 vector columns is wholly outside (cv2 then fills it)
    auto group_outside = [&](int x) {
      for (int k = x / uf * uf; k < x / uf * uf + uf; ++k) {
        float gx, gy;
        point(k, gx, gy);
        if (!wholly_outside(cvt_floor(gx), cvt_floor(gy))) return false;
      }
      return true;
    };
    auto one = [&](int x, T* D) {
      float sx, sy;
      point(x, sx, sy);
      if (interp_ == kNearest) {
        const int ix = cvt_round(sx), iy = cvt_round(sy);  // INT_MIN for NaN / out of range, per axis
        if (unsigned(ix) < unsigned(sw_) && unsigned(iy) < unsigned(sh_)) {
          const T* p = src + size_t(iy) * step + size_t(ix) * cn;
          for (int c = 0; c < cn; ++c) D[c] = p[c];
        } else if (border_ == kConstant) {
          for (int c = 0; c < cn; ++c) D[c] = bval[c];
        } else if (border_ != kTransparent) {
          const T* p = src + size_t(border_index_any(iy, sh_, bty)) * step + size_t(border_index_any(ix, sw_, btx)) * cn;
          for (int c = 0; c < cn; ++c) D[c] = p[c];
        }
        return;
      }
      if (interp_ != kLinear) {
        if (!(std::fabs(sx) < 2e9f) || !(std::fabs(sy) < 2e9f)) {  // NaN/huge: wholly outside
          if (border_ == kConstant)
            for (int c = 0; c < cn; ++c) D[c] = bval[c];
          return;
        }
        sample_kernel_v2(src, D, sx, sy, bval, btx, bty);
        return;
      }
      // cv2: ix = floor as int (INT_MIN for NaN / out of range), fraction = s - float(ix), so a
      // NaN or infinite coordinate gives a NaN sum (0 for integer images) unless the pixel is
      // skipped as wholly outside: by the scalar tail pixel by pixel, by the vector columns only
      // when their whole group of 16 is outside (constant / transparent borders).
      const int ix = cvt_floor(sx), iy = cvt_floor(sy);
      const float ax = sx - static_cast<float>(ix), ay = sy - static_cast<float>(iy);
      float px[4][4];  // [tap][channel]
      if (unsigned(ix) < unsigned(sw_ - 1) && unsigned(iy) < unsigned(sh_ - 1)) {
        const T* p = src + size_t(iy) * step + size_t(ix) * cn;
        for (int c = 0; c < cn; ++c) {
          px[0][c] = float(p[c]);
          px[1][c] = float(p[c + cn]);
          px[2][c] = float(p[c + step]);
          px[3][c] = float(p[c + step + cn]);
        }
      } else {
        if ((border_ == kConstant || border_ == kTransparent) && wholly_outside(ix, iy) &&
            (x >= xend || std::isfinite(ax + ay) || group_outside(x))) {
          if (border_ == kConstant)
            for (int c = 0; c < cn; ++c) D[c] = bval[c];
          return;
        }
        for (int t = 0; t < 4; ++t) {
          // ix + 1 of INT_MAX cannot occur (floats below 2^31 floor to at most 2^31 - 128)
          int tx = ix + (t & 1), ty = iy + (t >> 1);
          if (unsigned(tx) < unsigned(sw_) && unsigned(ty) < unsigned(sh_)) {
            for (int c = 0; c < cn; ++c) px[t][c] = float(src[size_t(ty) * step + size_t(tx) * cn + c]);
          } else if (border_ == kConstant) {
            for (int c = 0; c < cn; ++c) px[t][c] = float(bval[c]);
          } else if (border_ == kTransparent) {
            for (int c = 0; c < cn; ++c) px[t][c] = float(D[c]);
          } else {
            const T* q = src + size_t(border_index_any(ty, sh_, bty)) * step + size_t(border_index_any(tx, sw_, btx)) * cn;
            for (int c = 0; c < cn; ++c) px[t][c] = float(q[c]);
          }
        }
      }
      for (int c = 0; c < cn; ++c) {
        float v0 = fmaf_(ax, px[1][c] - px[0][c], px[0][c]);
        float v1 = fmaf_(ax, px[3][c] - px[2][c], px[2][c]);
        D[c] = cast_v2<T>(fmaf_(ay, v1 - v0, v0));
      }
    };
#if defined(__AVX2__)
    if constexpr (std::is_same_v<T, uint8_t>) {
      if (interp_ == kLinear && (cn == 1 || cn == 3 || cn == 4)) {
        warp_u8::RowArgs r{src, sw_, sh_, cn, int(step), int(mode_), mf_, Mx, My, Mw,
                           mode_ == kMap ? map->x + size_t(y) * dw_ * map->stride : nullptr,
                           mode_ == kMap ? map->y + size_t(y) * dw_ * map->stride : nullptr,
                           mode_ == kMap ? int(map->stride) : 0,
                           border_ == kConstant, border_ == kTransparent, bval8_};
        // remap columns have no vector/scalar split; the warps' fused columns end at xend
        x0 = warp_u8::linear_row(r, D, mode_ == kMap ? dw_ : xend, [&](int x) { one(x, D + size_t(x) * cn); });
      }
    }
#endif
    for (int x = x0; x < dw_; ++x) one(x, D + size_t(x) * cn);
  }

  // Cubic / Lanczos4 at a float position: separable weights of the exact fraction.
  void sample_kernel_v2(const T* src, T* D, float sx, float sy, const T* bval, int btx, int bty) const {
    const int cn = cn_, ks = interp_ == kCubic ? 4 : 8, off = ks / 2 - 1;
    const size_t step = size_t(sw_) * cn;
    int ix = static_cast<int>(std::floor(sx)), iy = static_cast<int>(std::floor(sy));
    float fx = sx - static_cast<float>(ix), fy = sy - static_cast<float>(iy);
    float wx[8], wy[8];
    if (ks == 4) cubic_coeffs(fx, wx), cubic_coeffs(fy, wy);
    else lanczos4_coeffs(fx, wx), lanczos4_coeffs(fy, wy);
    ix -= off;
    iy -= off;
    if ((border_ == kConstant || border_ == kTransparent) && (ix >= sw_ || ix + ks <= 0 || iy >= sh_ || iy + ks <= 0)) {
      if (border_ == kConstant)
        for (int c = 0; c < cn; ++c) D[c] = bval[c];
      return;
    }
    int xi[8], yi[8];
    const bool inside = ix >= 0 && iy >= 0 && ix + ks <= sw_ && iy + ks <= sh_;
    for (int k = 0; k < ks; ++k) {
      xi[k] = inside ? ix + k : (unsigned(ix + k) < unsigned(sw_) ? ix + k : (border_ == kConstant || border_ == kTransparent ? -1 : border_index(ix + k, sw_, btx)));
      yi[k] = inside ? iy + k : (unsigned(iy + k) < unsigned(sh_) ? iy + k : (border_ == kConstant || border_ == kTransparent ? -1 : border_index(iy + k, sh_, bty)));
    }
    for (int c = 0; c < cn; ++c) {
      float v = 0;
      for (int r = 0; r < ks; ++r) {
        float h = 0;
        for (int k = 0; k < ks; ++k) {
          float pv;
          if (xi[k] >= 0 && yi[r] >= 0) pv = float(src[size_t(yi[r]) * step + size_t(xi[k]) * cn + c]);
          else if (border_ == kConstant) pv = float(bval[c]);
          else pv = float(D[c]);
          h += pv * wx[k];
        }
        v += h * wy[r];
      }
      D[c] = cast_out<T>(v);
    }
  }

  // Source pixel (xs, ys) and fractional index al = fy*32 + fx for one destination row.
  void coords(int y, const MapIn* map, int* xs, int* ys, int* al) const {
    const bool nearest = interp_ == kNearest;
    if (mode_ == kAffine) {
      const int ab = 10, rd = nearest ? (1 << ab) / 2 : (1 << ab) / kTab / 2;
      int X0 = sat_int((m_[1] * y + m_[2]) * (1 << ab)) + rd;
      int Y0 = sat_int((m_[4] * y + m_[5]) * (1 << ab)) + rd;
      for (int x = 0; x < dw_; ++x) {
        if (nearest) {
          xs[x] = (X0 + adelta_[x]) >> ab;
          ys[x] = (Y0 + bdelta_[x]) >> ab;
        } else {
          int X = (X0 + adelta_[x]) >> (ab - kBits), Y = (Y0 + bdelta_[x]) >> (ab - kBits);
          xs[x] = X >> kBits;
          ys[x] = Y >> kBits;
          al[x] = (Y & (kTab - 1)) * kTab + (X & (kTab - 1));
        }
      }
    } else if (mode_ == kPerspective) {
      double X0 = m_[1] * y + m_[2], Y0 = m_[4] * y + m_[5], W0 = m_[7] * y + m_[8];
      for (int x = 0; x < dw_; ++x) {
        double W = W0 + m_[6] * x;
        if (nearest) {
          W = W ? 1. / W : 0;
          double fx = std::max(double(INT_MIN), std::min(double(INT_MAX), (X0 + m_[0] * x) * W));
          double fy = std::max(double(INT_MIN), std::min(double(INT_MAX), (Y0 + m_[3] * x) * W));
          xs[x] = sat_int(fx);
          ys[x] = sat_int(fy);
        } else {
          W = W ? kTab / W : 0;
          double fx = std::max(double(INT_MIN), std::min(double(INT_MAX), (X0 + m_[0] * x) * W));
          double fy = std::max(double(INT_MIN), std::min(double(INT_MAX), (Y0 + m_[3] * x) * W));
          int X = sat_int(fx), Y = sat_int(fy);
          xs[x] = X >> kBits;
          ys[x] = Y >> kBits;
          al[x] = (Y & (kTab - 1)) * kTab + (X & (kTab - 1));
        }
      }
    } else if (map->xy) {
      // convertMaps' fixed-point form: whole pixels plus a table index (none: fraction 0)
      const int16_t* m = map->xy + size_t(y) * dw_ * 2;
      const uint16_t* a = map->a ? map->a + size_t(y) * dw_ : nullptr;
      for (int x = 0; x < dw_; ++x) {
        xs[x] = m[2 * x];
        ys[x] = m[2 * x + 1];
        if (!nearest) al[x] = a ? a[x] & (kTab * kTab - 1) : 0;
      }
    } else {
      const size_t st = map->stride;
      const float* mx = map->x + size_t(y) * dw_ * st;
      const float* my = map->y + size_t(y) * dw_ * st;
      for (int x = 0; x < dw_; ++x) {
        if (nearest) {
          xs[x] = sat_short(mx[st * x]);
          ys[x] = sat_short(my[st * x]);
        } else {
          int X = sat_int(double(mx[st * x]) * kTab), Y = sat_int(double(my[st * x]) * kTab);
          xs[x] = clamp_short(X >> kBits);
          ys[x] = clamp_short(Y >> kBits);
          al[x] = (Y & (kTab - 1)) * kTab + (X & (kTab - 1));
        }
      }
    }
  }
  static int clamp_short(int v) { return std::min(32767, std::max(-32768, v)); }
  static int sat_short(float v) { return clamp_short(sat_int(v)); }

  void sample_nearest(const T* src, T* D, const int* xs, const int* ys) const {
    const int cn = cn_;
    for (int x = 0; x < dw_; ++x, D += cn) {
      int sx = xs[x], sy = ys[x];
      if (static_cast<unsigned>(sx) < unsigned(sw_) && static_cast<unsigned>(sy) < unsigned(sh_)) {
        const T* p = src + (size_t(sy) * sw_ + sx) * cn;
        for (int c = 0; c < cn; ++c) D[c] = p[c];
      } else if (border_ == kTransparent) {
        continue;
      } else if (border_ == kConstant) {
        for (int c = 0; c < cn; ++c) D[c] = border_value<T>(bv_[c & 3]);
      } else {
        int bx = border_index(sx, sw_, border_), by = border_index(sy, sh_, border_);
        const T* p = src + (size_t(by) * sw_ + bx) * cn;
        for (int c = 0; c < cn; ++c) D[c] = p[c];
      }
    }
  }

  using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
  static T cast_acc(Acc v) {
    if constexpr (std::is_same_v<T, double>) return v;
    else return cast_out<T>(v);
  }

  void sample(const T* src, T* D, const int* xs, const int* ys, const int* al, int n) const {
    const int cn = cn_, ks = wt_->ks, off = ks / 2 - 1;
    const bool fixed = std::is_same_v<T, uint8_t>;
    const int wlim = sw_ - (ks - 1), hlim = sh_ - (ks - 1);
    const size_t step = size_t(sw_) * cn;
    // cv2 gives channel c the border value's entry c % 4 (a Scalar has four)
    std::vector<T> cval(static_cast<size_t>(cn));
    for (int c = 0; c < cn; ++c) cval[c] = border_value<T>(bv_[c & 3]);
    // BORDER_TRANSPARENT: the taps outside replicate (bilinear) or reflect (wider kernels)
    const int btype = border_ == kTransparent ? (ks == 2 ? kReplicate : kReflect101) : border_;
    int xi[8], yi[8];
    for (int x = 0; x < n; ++x, D += cn) {
      const int sx = xs[x] - off, sy = ys[x] - off;
      const size_t wo = size_t(al[x]) * ks * ks;
      if (sx >= 0 && sy >= 0 && sx < wlim && sy < hlim) {
        const T* p = src + size_t(sy) * step + size_t(sx) * cn;
        if constexpr (std::is_same_v<T, uint8_t>) {
          const int* w = &wt_->i[wo];
          if (ks == 2) {
            for (int c = 0; c < cn; ++c) {
              int v = p[c] * w[0] + p[c + cn] * w[1] + p[c + step] * w[2] + p[c + step + cn] * w[3];
              D[c] = cast_fixed<uint8_t>(v);
            }
          } else {
            for (int c = 0; c < cn; ++c) {
              int v = 0;
              for (int r = 0; r < ks; ++r)
                for (int k = 0; k < ks; ++k) v += p[r * step + k * cn + c] * w[r * ks + k];
              D[c] = cast_fixed<uint8_t>(v);
            }
          }
        } else if (ks == 2) {
          // cv2's remapBilinear: the four products added left to right (2-channel float32 is
          // bit-exact this way; the row-first order below was ~1 ulp off)
          const float* w = &wt_->f[wo];
          for (int c = 0; c < cn; ++c) {
            Acc v = Acc(p[c]) * w[0];
            v += Acc(p[c + cn]) * w[1];
            v += Acc(p[c + step]) * w[2];
            v += Acc(p[c + step + cn]) * w[3];
            D[c] = cast_acc(v);
          }
        } else {
          // cv2 sums each row's taps, then adds the rows (in double for float64 images)
          const float* w = &wt_->f[wo];
          for (int c = 0; c < cn; ++c) {
            Acc v = 0;
            for (int r = 0; r < ks; ++r) {
              Acc h = Acc(p[r * step + c]) * w[r * ks];
              for (int k = 1; k < ks; ++k) h += Acc(p[r * step + k * cn + c]) * w[r * ks + k];
              v += h;
            }
            D[c] = cast_acc(v);
          }
        }
        continue;
      }
      // Partly or wholly outside. BORDER_TRANSPARENT (cv2's remapBilinear / remapBicubic /
      // remapLanczos4) leaves the pixel as it was when the pixel the fraction is measured from is
      // outside; otherwise the taps outside follow btype.
      if (border_ == kTransparent && (unsigned(xs[x]) >= unsigned(sw_) || unsigned(ys[x]) >= unsigned(sh_)))
        continue;
      if ((border_ == kConstant || border_ == kTransparent) &&
          (sx >= sw_ || sx + ks - 1 < 0 || sy >= sh_ || sy + ks - 1 < 0)) {
        if (border_ == kConstant)
          for (int c = 0; c < cn; ++c) D[c] = cval[c];
        continue;
      }
      for (int k = 0; k < ks; ++k) {
        xi[k] = btype == kConstant ? (unsigned(sx + k) < unsigned(sw_) ? sx + k : -1) : border_index(sx + k, sw_, btype);
        yi[k] = btype == kConstant ? (unsigned(sy + k) < unsigned(sh_) ? sy + k : -1) : border_index(sy + k, sh_, btype);
      }
      for (int c = 0; c < cn; ++c) {
        if (fixed) {
          const int* w = &wt_->i[wo];
          int v = 0;
          for (int r = 0; r < ks; ++r)
            for (int k = 0; k < ks; ++k) {
              int pv = (xi[k] >= 0 && yi[r] >= 0) ? int(src[size_t(yi[r]) * step + size_t(xi[k]) * cn + c]) : int(cval[c]);
              v += pv * w[r * ks + k];
            }
          D[c] = cast_fixed<T>(v);
        } else if (ks > 2) {
          // cv2's cubic / Lanczos border path: the border value (whatever the border mode),
          // plus each inside tap's difference from it
          const float* w = &wt_->f[wo];
          const Acc cv = Acc(cval[c]);
          Acc v = cv;
          for (int r = 0; r < ks; ++r) {
            if (yi[r] < 0) continue;
            for (int k = 0; k < ks; ++k)
              if (xi[k] >= 0) v += (Acc(src[size_t(yi[r]) * step + size_t(xi[k]) * cn + c]) - cv) * w[r * ks + k];
          }
          D[c] = cast_acc(v);
        } else {
          const float* w = &wt_->f[wo];
          // in double for float64 images, as the inside pixels (cv2's WT): float lost ~1e-7
          Acc v = 0;
          for (int r = 0; r < ks; ++r)
            for (int k = 0; k < ks; ++k) {
              Acc pv = (xi[k] >= 0 && yi[r] >= 0) ? Acc(src[size_t(yi[r]) * step + size_t(xi[k]) * cn + c]) : Acc(cval[c]);
              v += pv * w[r * ks + k];
            }
          D[c] = cast_acc(v);
        }
      }
    }
  }

  // INTER_CUBIC as cv2 5.0 computes it (warp_cubic.cpp); int8/int32 keep the path below.
  static constexpr bool kCubicType = std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                                     std::is_same_v<T, int16_t> || std::is_same_v<T, float> || std::is_same_v<T, double>;
  void run_cubic(const T* src, const MapIn* map, T* dst) const {
    CubicWarp p;
    p.mode = mode_ == kMap ? 2 : mode_ == kPerspective ? 1 : 0;
    p.src = src;
    p.sh = sh_, p.sw = sw_, p.cn = cn_, p.dh = dh_, p.dw = dw_;
    if (map) p.mapx = map->x, p.mapy = map->y, p.mstride = map->stride;
    for (int k = 0; k < 9; ++k) p.m[k] = m_[k];
    p.border = border_;
    for (int k = 0; k < 4; ++k) p.bval[k] = bv_[k];
    if constexpr (kCubicType) warp_cubic_run<T>(p, dst);
  }

  Mode mode_;
  int sh_, sw_, cn_, dh_, dw_, interp_, border_;
  bool has_dst_ = false;
  bool fixed_ = false;  // remap with convertMaps' fixed-point maps
  int nmaps_ = 1;
  bool v2_ = false;
  double m_[9] = {0};
  float mf_[9] = {0};
  uint8_t bval8_[4] = {0};
  double bv_[4] = {0};
  std::vector<int> adelta_, bdelta_;
  const WeightTable* wt_ = nullptr;
};

template <Mode M>
std::unique_ptr<backend::Kernel> prepare_warp(const backend::StepDesc& s) {
  return dispatch_dtype(s.output.dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, uint16_t> ||
                  std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, float> ||
                  std::is_same_v<T, double>) {
      Mode mode = M;
      if (M != kMap && s.params->ints[4]) mode = kPerspective;
      return std::make_unique<WarpKernel<T>>(s, mode);
    } else {
      throw ValueError("[mnn.cv.warpAffine] unsupported dtype");
    }
  });
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_warp, "cv_warp", &prepare_warp<kAffine>);
MNN_REGISTER_CPU_KERNEL(cv_remap, "cv_remap", &prepare_warp<kMap>);

}  // namespace mnn::cpu::MNN_ISA_NS
