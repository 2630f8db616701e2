// cvtColor's Lab and Luv conversions, giving cv2's answers bit for bit.
//
// cv2 does not evaluate the CIE formulas directly. It builds tables once, in its software float
// arithmetic (correctly rounded IEEE operations, so plain float/double operations in the same
// order give the same bits), and then:
//   uint8 Lab ->      integer pipeline: 256-entry gamma table (x8 fixed point), 12-bit XYZ
//                     coefficients, a 3072-entry cube-root table (15-bit), integer L/a/b.
//   uint8 Lab <-      integer pipeline: L -> (y, f(y)) table, a/b -> f(x), f(z) by fixed-point
//                     reciprocals, a cube table, 14-bit RGB coefficients, 4096-entry inverse gamma.
//   uint8 Luv ->      sRGB: trilinear interpolation in a 33^3 RGB->Luv table (14-bit values);
//                     linear: the float path below on x/255, scaled and rounded.
//   uint8 Luv <-      integer pipeline with (L, u) and (L, v) tables.
//   float Lab ->      sRGB: the same trilinear scheme on a 33^3 RGB->Lab table, input rounded to
//                     1/16384; linear: float formulas with a cube-root spline for blocks of 8
//                     pixels and a polynomial cube root (Turkowski) for the last 1-8 of a row.
//   float Luv ->      float formulas with spline tables for the sRGB curve and the cube root;
//                     blocks of 8 and the row tail sum the XYZ terms in different orders.
//   float Lab/Luv <-  float formulas ending in a spline of the inverse sRGB curve; blocks of 8
//                     multiply by reciprocals and order sums and min/max differently from the
//                     row tail, which divides.
// Its cube root rounds the mantissa of a double rational approximation towards zero and its pow
// is exp(y*log(x)); both are reproduced here (pow by libm's, which agreed on every table entry).
// cv2's SIMD code on x86 wheels is SSE3 without FMA, so every a*b+c is rounded twice, as here
// (the project builds with -ffp-contract=off).
#include "backends/cpu/simd/cv/color_lab.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace mnn::cpu::MNN_ISA_NS {

namespace {

constexpr double kRgb2Xyz[9] = {0.412453, 0.357580, 0.180423, 0.212671, 0.715160, 0.072169, 0.019334, 0.119193, 0.950227};
constexpr double kXyz2Rgb[9] = {3.240479, -1.53715, -0.498535, -0.969256, 1.875991, 0.041556, 0.055648, -0.204043, 1.057311};
constexpr double kWhite[3] = {0.950456, 1.0, 1.088754};  // D65

constexpr int kLabShift = 12, kLabShift2 = 15, kGammaShift = 3;
constexpr int kBase = 1 << 14;            // fixed-point one of the tables below
constexpr int kLutDim = 33;               // RGB -> Lab/Luv table: 32 cells per axis
constexpr int kSplineN = 1024;            // spline tables: intervals over their input range
constexpr int kCbrtTabB = 256 * 3 / 2 * (1 << kGammaShift);
constexpr int kInvGammaN = 4096;
constexpr int kMinAB = -8145;             // smallest f(x)/f(z) index of the uint8 inverse
constexpr float kULow = -134.f, kURange = 354.f, kVLow = -140.f, kVRange = 262.f;

inline int round_half_even(float v) { return static_cast<int>(std::lrint(v)); }
inline int round_half_even(double v) { return static_cast<int>(std::lrint(v)); }
inline int descale(int64_t x, int n) { return static_cast<int>((x + (int64_t(1) << (n - 1))) >> n); }
inline uint8_t sat_u8(int v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

float bits_to_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
uint32_t float_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

// Turkowski's quartic rational cube root of the mantissa in [1/8, 1); cv2 has two versions.
double cbrt_rational(double fr) {
  return ((((45.2548339756803022511987494 * fr + 192.2798368355061050458134625) * fr + 119.1654824285581628956914143) * fr +
           13.43250139086239872172837314) * fr + 0.1636161226585754240958355063) /
         ((((14.80884093219134573786480845 * fr + 151.9714051044435648658557668) * fr + 168.5254414101568283957668343) * fr +
           33.9905941350215598754191872) * fr + 1.0);
}
// Splits x = m * 2^(3k) with m in [1/8, 1): returns m's bits as a float/double pair and k.
inline void cbrt_split(uint32_t u, int& shx, int& ex) {
  ex = int((u >> 23) & 255) - 127;
  shx = ex % 3;
  shx -= shx >= 0 ? 3 : 0;
  ex = (ex - shx) / 3;
}
// The table builder's cube root (softfloat): the double result's mantissa is truncated to float.
float cbrt_tables(float x) {
  if (std::isnan(x)) return std::numeric_limits<float>::quiet_NaN();
  if (std::isinf(x)) return x;
  const uint32_t u = float_bits(x);
  if ((u & 0x7fffffffu) == 0) return 0.f;
  int shx, ex;
  cbrt_split(u, shx, ex);
  uint64_t fb = (uint64_t(shx + 1023) << 52) | (uint64_t(u & 0x7fffffu) << 29);
  double fr;
  std::memcpy(&fr, &fb, 8);
  fr = cbrt_rational(fr);
  std::memcpy(&fb, &fr, 8);
  const uint32_t mant = uint32_t((fb & ((uint64_t(1) << 52) - 1)) >> 29);
  return bits_to_float((u & 0x80000000u) | (uint32_t((ex - 1 + 127) & 255) << 23) | mant);
}
// cv::cubeRoot, used by cv2's per-pixel tail of float LRGB->Lab: the mantissa is rounded to
// float, then the exponent is added to its bits.
float cbrt_pixel(float x) {
  const uint32_t u = float_bits(x);
  const uint32_t ix = u & 0x7fffffffu;
  int shx, ex;
  cbrt_split(ix, shx, ex);
  const float fr = bits_to_float((ix & 0x7fffffu) | (uint32_t(shx + 127) << 23));
  const float r = static_cast<float>(cbrt_rational(fr));
  const uint32_t v = (float_bits(r) + uint32_t(ex << 23) + (u & 0x80000000u)) & ((u << 1) != 0 ? 0xffffffffu : 0u);
  return bits_to_float(v);
}

// sRGB transfer curve in double, as cv2's tables get it (rounded to float at the end)
float gamma_fwd(float x) {
  const double xd = x;
  return static_cast<float>(xd <= 809.0 / 20000.0 ? xd / (323.0 / 25.0)
                                                  : std::pow((xd + 11.0 / 200.0) / (1.0 + 11.0 / 200.0), 12.0 / 5.0));
}
float gamma_inv(float x) {
  const double xd = x;
  return static_cast<float>(xd <= 7827.0 / 2500000.0 ? xd * (323.0 / 25.0)
                                                     : std::pow(xd, 1.0 / (12.0 / 5.0)) * (1.0 + 11.0 / 200.0) - 11.0 / 200.0);
}

const float kLThresh = 216.f / 24389.f;   // (6/29)^3
const float kLScale = 841.f / 108.f;      // (29/3)^3 / (29*4)
const float kLBias = 16.f / 116.f;
// Lab's f(t): linear below the threshold (fused multiply-add in the table builder)
float lab_f_tables(float x) { return x < kLThresh ? std::fma(x, kLScale, kLBias) : cbrt_tables(x); }

// Natural cubic spline through f[0..n], 4 coefficients per interval, in cv2's operation order.
std::vector<float> spline_build(const std::vector<float>& f, int n) {
  std::vector<float> t(size_t(n) * 4, 0.f);
  for (int i = 1; i < n; ++i) {
    const float r = (f[i + 1] - f[i] * 2.f + f[i - 1]) * 3.f;
    const float l = 1.f / (4.f - t[(i - 1) * 4]);
    t[i * 4] = l;
    t[i * 4 + 1] = (r - t[(i - 1) * 4 + 1]) * l;
  }
  float cn = 0.f;
  for (int i = n - 1; i >= 0; --i) {
    const float c = t[i * 4 + 1] - t[i * 4] * cn;
    const float b = f[i + 1] - f[i] - (cn + c * 2.f) / 3.f;
    const float d = (cn - c) / 3.f;
    t[i * 4] = f[i], t[i * 4 + 1] = b, t[i * 4 + 2] = c, t[i * 4 + 3] = d;
    cn = c;
  }
  return t;
}
// Clipping to [0, 1] in cv2's per-pixel row tails: its compiled min/max send NaN to 1 (its SIMD
// blocks send NaN to 0 or 1 depending on the operand order, see the callers).
inline float clip_tail(float x) { return x == x ? std::min(std::max(x, 0.f), 1.f) : 1.f; }

inline float spline_eval(float x, const float* tab) {
  int ix = x == x ? static_cast<int>(std::max(std::min(x, 2e9f), -2e9f)) : std::numeric_limits<int>::min();
  ix = std::min(std::max(ix, 0), kSplineN - 1);
  x -= float(ix);
  tab += ix * 4;
  return ((tab[3] * x + tab[2]) * x + tab[1]) * x + tab[0];
}

struct Tables {
  uint16_t gamma_b[256], cbrt_b[kCbrtTabB], inv_gamma_b[kInvGammaN];
  uint16_t y_b[256], ify_b[256];
  std::vector<int32_t> ab_xz;                   // f -> x (uint8 inverse), index f - kMinAB
  std::vector<int32_t> up_b, vp_b;              // Luv inverse: (L, u) and (L, v), 256 x 256
  std::vector<int64_t> vpl_b;
  std::vector<int16_t> lut_lab, lut_luv;        // [b][g][r]... see build_luts: 33^3 x 3
  std::vector<float> gamma_spl, cbrt_spl, inv_gamma_spl;  // 1024 intervals x 4 coefficients
  // SIMD copies: 32-bit tables for gathers; the Lab table regrouped per cell as 3 channels x 8
  // corners (corner k0 + 2*k1 + 4*k2) and the trilinear weights per (f0, f1, f2) in that order
  int32_t gamma32[256], cbrt32[kCbrtTabB], y32[256], ify32[256], inv_gamma32[kInvGammaN];
  std::vector<int16_t> lab_cells, luv_cells, tri_w;
  float cbrt_scale = 0.f;                       // spline input scale of the cube root: 2048/3
  float un = 0.f, vn = 0.f;                     // white point's u', v' times 13

  Tables() {
    // uint8 forward Lab
    for (int i = 0; i < 256; ++i) gamma_b[i] = uint16_t(round_half_even(255.f * (1 << kGammaShift) * gamma_fwd(float(i) / 255.f)));
    const float cscale = 1.f / (255.f * (1 << kGammaShift));
    for (int i = 0; i < kCbrtTabB; ++i)
      cbrt_b[i] = uint16_t(round_half_even(float(1 << kLabShift2) * lab_f_tables(cscale * float(i))));
    for (int i = 0; i < kInvGammaN; ++i)
      inv_gamma_b[i] = uint16_t(round_half_even(255.f * gamma_inv((1.f / kInvGammaN) * float(i))));
    // uint8 inverse: L -> y and f(y) in 1/kBase, exact for L <= 8 (index <= 20)
    for (int i = 0; i < 256; ++i) {
      int y, ify;
      if (i <= 20) {
        y = round_half_even(float(i * kBase * 20 * 9) / float(17 * 29 * 29 * 29));
        ify = round_half_even(float(kBase) * (16.f / 116.f + float(i * 5) / float(3 * 17 * 29)));
      } else {
        const float fy = float(i * 100 * kBase) / float(255 * 116) + float(16 * kBase) / float(116);
        ify = round_half_even(fy);
        y = round_half_even(fy * fy * fy / float(kBase * kBase));
      }
      y_b[i] = uint16_t(y), ify_b[i] = uint16_t(ify);
    }
    ab_xz.resize(kBase * 9 / 4);
    for (int i = kMinAB; i < kBase * 9 / 4 + kMinAB; ++i) {
      // below 6/29 (3390 in 1/kBase) f -> (f - 16/116) / 7.787, above it f^3; integer division
      // truncates toward zero, as cv2's does
      int v = i <= 3390 ? i * 108 / 841 - kBase * 16 / 116 * 108 / 841 : i * i / kBase * i / kBase;
      ab_xz[i - kMinAB] = v;
    }
    float d = static_cast<float>(kWhite[0] + kWhite[1] * 15.0 + kWhite[2] * 3.0);
    d = 1.f / std::max(d, FLT_EPSILON);
    un = d * 52.f * float(kWhite[0]);
    vn = d * 117.f * float(kWhite[1]);
    up_b.resize(256 * 256), vp_b.resize(256 * 256), vpl_b.resize(256 * 256);
    for (int ll = 0; ll < 256; ++ll) {
      const float L = float(ll * 100) / 255.f;
      for (int uu = 0; uu < 256; ++uu) {
        const float u = float(uu) * kURange / 255.f + kULow;
        up_b[ll * 256 + uu] = round_half_even(9.f * (u + L * un) * float(kBase / 1024));
      }
      for (int vv = 0; vv < 256; ++vv) {
        const float v = float(vv) * kVRange / 255.f + kVLow;
        float vp = 0.25f / (v + L * vn);
        vp = std::min(std::max(vp, -0.25f), 0.25f);
        const int ivp = round_half_even(vp * float(kBase * 1024));
        vp_b[ll * 256 + vv] = ivp;
        vpl_b[ll * 256 + vv] = int64_t(12 * 13 * 100 * (kBase / 1024)) * int64_t(ivp * ll);
      }
    }
    build_luts();
    for (int i = 0; i < 256; ++i) gamma32[i] = gamma_b[i];
    for (int i = 0; i < kCbrtTabB; ++i) cbrt32[i] = cbrt_b[i];
    for (int i = 0; i < 256; ++i) y32[i] = y_b[i], ify32[i] = ify_b[i];
    for (int i = 0; i < kInvGammaN; ++i) inv_gamma32[i] = inv_gamma_b[i];
    group_cells(lut_lab, lab_cells);
    group_cells(lut_luv, luv_cells);
    tri_w.resize(16 * 16 * 16 * 8);
    for (int f = 0; f < 4096; ++f) {
      const int f0 = f & 15, f1 = (f >> 4) & 15, f2 = f >> 8;
      for (int k = 0; k < 8; ++k)
        tri_w[f * 8 + k] = int16_t(((k & 1) ? f0 : 16 - f0) * (((k >> 1) & 1) ? f1 : 16 - f1) * ((k >> 2) ? f2 : 16 - f2));
    }
    // float splines: sRGB curve over [0, 1], Lab's f over [0, 1.5]
    std::vector<float> f(kSplineN + 1), g(kSplineN + 1), ig(kSplineN + 1);
    cbrt_scale = float(kSplineN * 2) / 3.f;
    const float cs = 1.f / cbrt_scale;
    for (int i = 0; i <= kSplineN; ++i) {
      f[i] = lab_f_tables(cs * float(i));
      g[i] = gamma_fwd((1.f / kSplineN) * float(i));
      ig[i] = gamma_inv((1.f / kSplineN) * float(i));
    }
    inv_gamma_spl = spline_build(ig, kSplineN);
    cbrt_spl = spline_build(f, kSplineN);
    gamma_spl = spline_build(g, kSplineN);
  }

  static void group_cells(const std::vector<int16_t>& lut, std::vector<int16_t>& cells) {
    cells.resize(size_t(kLutDim) * kLutDim * kLutDim * 24);
    for (int t2 = 0; t2 < kLutDim; ++t2)
      for (int t1 = 0; t1 < kLutDim; ++t1)
        for (int t0 = 0; t0 < kLutDim; ++t0) {
          int16_t* cell = &cells[((size_t(t2) * kLutDim + t1) * kLutDim + t0) * 24];
          for (int k = 0; k < 8; ++k) {
            const int a0 = std::min(t0 + (k & 1), kLutDim - 1), a1 = std::min(t1 + ((k >> 1) & 1), kLutDim - 1),
                      a2 = std::min(t2 + (k >> 2), kLutDim - 1);
            const int16_t* e = &lut[((size_t(a2) * kLutDim + a1) * kLutDim + a0) * 3];
            for (int c = 0; c < 3; ++c) cell[c * 8 + k] = e[c];
          }
        }
  }

  // The 33^3 RGB -> Lab and RGB -> Luv tables of the sRGB paths, values in 1/kBase of L/100,
  // (a + 128)/256, (u - uLow)/uRange. Index: ((c2 * 33 + c1) * 33 + c0) * 3, where c0 is the
  // blue input (cv2 indexes its table by the blue channel first).
  void build_luts() {
    const double sw[3] = {1.0 / kWhite[0], 1.0, 1.0 / kWhite[2]};
    float S[9], C[9];
    for (int i = 0; i < 3; ++i) {
      C[i * 3 + 2] = float(kRgb2Xyz[i * 3 + 0]), C[i * 3 + 1] = float(kRgb2Xyz[i * 3 + 1]), C[i * 3 + 0] = float(kRgb2Xyz[i * 3 + 2]);
      S[i * 3 + 0] = float(kRgb2Xyz[i * 3 + 2] * sw[i]);
      S[i * 3 + 1] = float(kRgb2Xyz[i * 3 + 1] * sw[i]);
      S[i * 3 + 2] = float(kRgb2Xyz[i * 3 + 0] * sw[i]);
    }
    float gm[kLutDim];
    for (int p = 0; p < kLutDim; ++p) gm[p] = gamma_fwd(float(p) / float(kLutDim - 1));
    const float f9033 = 24389.f / 27.f, f94 = 9.f / 4.f, lbase = float(kBase);
    lut_lab.resize(size_t(kLutDim) * kLutDim * kLutDim * 3);
    lut_luv.resize(lut_lab.size());
    for (int r = 0; r < kLutDim; ++r)
      for (int q = 0; q < kLutDim; ++q)
        for (int p = 0; p < kLutDim; ++p) {
          const float R = gm[p], G = gm[q], B = gm[r];
          int16_t* o = &lut_lab[((size_t(r) * kLutDim + q) * kLutDim + p) * 3];
          {
            const float X = R * S[0] + G * S[1] + B * S[2], Y = R * S[3] + G * S[4] + B * S[5], Z = R * S[6] + G * S[7] + B * S[8];
            const float FX = X > kLThresh ? cbrt_tables(X) : std::fma(X, kLScale, kLBias);
            const float FY = Y > kLThresh ? cbrt_tables(Y) : std::fma(Y, kLScale, kLBias);
            const float FZ = Z > kLThresh ? cbrt_tables(Z) : std::fma(Z, kLScale, kLBias);
            const float L = Y > kLThresh ? 116.f * FY - 16.f : f9033 * Y;
            const float a = 500.f * (FX - FY), b = 200.f * (FY - FZ);
            o[0] = int16_t(round_half_even(lbase * L / 100.f));
            o[1] = int16_t(round_half_even(lbase * (a + 128.f) / 256.f));
            o[2] = int16_t(round_half_even(lbase * (b + 128.f) / 256.f));
          }
          o = &lut_luv[((size_t(r) * kLutDim + q) * kLutDim + p) * 3];
          {
            const float X = R * C[0] + G * C[1] + B * C[2], Y = R * C[3] + G * C[4] + B * C[5], Z = R * C[6] + G * C[7] + B * C[8];
            float L = Y < kLThresh ? std::fma(Y, kLScale, kLBias) : cbrt_tables(Y);
            L = L * 116.f - 16.f;
            const float d = 52.f / std::max(X + 15.f * Y + 3.f * Z, FLT_EPSILON);
            const float u = L * (X * d - un), v = L * (f94 * Y * d - vn);
            o[0] = int16_t(round_half_even(lbase * L / 100.f));
            o[1] = int16_t(round_half_even(lbase * (u - kULow) / kURange));
            o[2] = int16_t(round_half_even(lbase * (v - kVLow) / kVRange));
          }
        }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// Trilinear interpolation in a 33^3 table at (c0, c1, c2) in [0, kBase]: 32 cells per axis,
// weights in 1/16 per axis (the 4 bits below the cell index), sum rounded from 1/4096.
inline void trilinear(const int16_t* lut, int c0, int c1, int c2, int out[3]) {
  const int t0 = c0 >> 9, t1 = c1 >> 9, t2 = c2 >> 9;
  const int f0 = (c0 >> 5) & 15, f1 = (c1 >> 5) & 15, f2 = (c2 >> 5) & 15;
  const int n0 = t0 < kLutDim - 1 ? 3 : 0, n1 = t1 < kLutDim - 1 ? kLutDim * 3 : 0,
            n2 = t2 < kLutDim - 1 ? kLutDim * kLutDim * 3 : 0;
  const int16_t* b = lut + ((t2 * kLutDim + t1) * kLutDim + t0) * 3;
  const int w0[2] = {16 - f0, f0}, w1[2] = {16 - f1, f1}, w2[2] = {16 - f2, f2};
  int acc[3] = {0, 0, 0};
  for (int k2 = 0; k2 < 2; ++k2)
    for (int k1 = 0; k1 < 2; ++k1) {
      const int w12 = w1[k1] * w2[k2];
      const int16_t* e = b + (k1 ? n1 : 0) + (k2 ? n2 : 0);
      const int wa = w0[0] * w12, wb = w0[1] * w12;
      for (int c = 0; c < 3; ++c) acc[c] += e[c] * wa + e[n0 + c] * wb;
    }
  for (int c = 0; c < 3; ++c) out[c] = (acc[c] + 2048) >> 12;
}

// ---- uint8 forward ----

#if defined(__AVX2__)
// Eight 3- or 4-channel pixels as int32 lanes (c0 | c1 << 8 | c2 << 16 [| c3 << 24]); the
// 3-channel load reads 4 bytes past the eighth pixel.
inline __m256i load8_px(const uint8_t* p, int scn) {
  if (scn == 4) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                            _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 12)), 1);
  const __m256i m = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                     0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
  return _mm256_shuffle_epi8(v, m);
}
// Eight lanes (c0 | c1 << 8 | c2 << 16) -> 24 bytes; writes 4 bytes past them.
inline void store8_c3(uint8_t* d, __m256i px) {
  const __m256i m = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                     0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  const __m256i v = _mm256_shuffle_epi8(px, m);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm256_castsi256_si128(v));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 12), _mm256_extracti128_si256(v, 1));
}
// Eight pixels of cv2's integer RGB -> Lab: the same operations on int32 lanes, table look-ups
// by gathers, R*C0 + G*C1 + B*C2 + round as two 16-bit pair products.
inline void lab_u8_8px(const Tables& T, const uint8_t* s, uint8_t* d, int scn, bool srgb, const int C[9]) {
  const __m256i px = load8_px(s, scn), m8 = _mm256_set1_epi32(255);
  __m256i R = _mm256_and_si256(px, m8), G = _mm256_and_si256(_mm256_srli_epi32(px, 8), m8),
          B = _mm256_and_si256(_mm256_srli_epi32(px, 16), m8);
  if (srgb) {
    R = _mm256_i32gather_epi32(T.gamma32, R, 4), G = _mm256_i32gather_epi32(T.gamma32, G, 4);
    B = _mm256_i32gather_epi32(T.gamma32, B, 4);
  } else {
    R = _mm256_slli_epi32(R, kGammaShift), G = _mm256_slli_epi32(G, kGammaShift), B = _mm256_slli_epi32(B, kGammaShift);
  }
  const __m256i rg = _mm256_or_si256(R, _mm256_slli_epi32(G, 16)), b1 = _mm256_or_si256(B, _mm256_set1_epi32(1 << 16));
  __m256i f[3];
  for (int k = 0; k < 3; ++k) {
    const __m256i crg = _mm256_set1_epi32((C[k * 3] & 0xffff) | (C[k * 3 + 1] << 16));
    const __m256i cb = _mm256_set1_epi32((C[k * 3 + 2] & 0xffff) | ((1 << (kLabShift - 1)) << 16));
    const __m256i x = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(rg, crg), _mm256_madd_epi16(b1, cb)), kLabShift);
    f[k] = _mm256_i32gather_epi32(T.cbrt32, x, 4);
  }
  const int Lscale = (116 * 255 + 50) / 100, Lshift = -((16 * 255 * (1 << kLabShift2) + 50) / 100);
  const __m256i half = _mm256_set1_epi32(1 << (kLabShift2 - 1)), off = _mm256_set1_epi32((128 << kLabShift2) + (1 << (kLabShift2 - 1)));
  const __m256i L = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(f[1], _mm256_set1_epi32(Lscale)),
                                                       _mm256_add_epi32(_mm256_set1_epi32(Lshift), half)), kLabShift2);
  const __m256i a = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(_mm256_sub_epi32(f[0], f[1]), _mm256_set1_epi32(500)), off), kLabShift2);
  const __m256i b = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(_mm256_sub_epi32(f[1], f[2]), _mm256_set1_epi32(200)), off), kLabShift2);
  const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi32(255);
  auto clamp = [&](__m256i v) { return _mm256_min_epi32(_mm256_max_epi32(v, zero), top); };
  store8_c3(d, _mm256_or_si256(clamp(L), _mm256_or_si256(_mm256_slli_epi32(clamp(a), 8), _mm256_slli_epi32(clamp(b), 16))));
}
#endif

void lab_u8_row(const Tables& T, const uint8_t* s, uint8_t* d, int64_t w, int scn, int bidx, bool srgb) {
  int C[9];
  for (int i = 0; i < 3; ++i) {
    C[i * 3 + (bidx ^ 2)] = round_half_even(4096.0 * kRgb2Xyz[i * 3 + 0] / kWhite[i]);
    C[i * 3 + 1] = round_half_even(4096.0 * kRgb2Xyz[i * 3 + 1] / kWhite[i]);
    C[i * 3 + bidx] = round_half_even(4096.0 * kRgb2Xyz[i * 3 + 2] / kWhite[i]);
  }
  const int Lscale = (116 * 255 + 50) / 100, Lshift = -((16 * 255 * (1 << kLabShift2) + 50) / 100);
  int64_t i = 0;
#if defined(__AVX2__)
  // 8 pixels at a time while the loads and stores that run past them stay inside the row
  for (; i + 10 <= w; i += 8, s += 8 * scn, d += 24) lab_u8_8px(T, s, d, scn, srgb, C);
#endif
  for (; i < w; ++i, s += scn, d += 3) {
    int R, G, B;
    if (srgb) R = T.gamma_b[s[0]], G = T.gamma_b[s[1]], B = T.gamma_b[s[2]];
    else R = s[0] << kGammaShift, G = s[1] << kGammaShift, B = s[2] << kGammaShift;
    const int fX = T.cbrt_b[descale(R * C[0] + G * C[1] + B * C[2], kLabShift)];
    const int fY = T.cbrt_b[descale(R * C[3] + G * C[4] + B * C[5], kLabShift)];
    const int fZ = T.cbrt_b[descale(R * C[6] + G * C[7] + B * C[8], kLabShift)];
    d[0] = sat_u8(descale(Lscale * fY + Lshift, kLabShift2));
    d[1] = sat_u8(descale(500 * (fX - fY) + 128 * (1 << kLabShift2), kLabShift2));
    d[2] = sat_u8(descale(200 * (fY - fZ) + 128 * (1 << kLabShift2), kLabShift2));
  }
}

void luv_u8_srgb_row(const Tables& T, const uint8_t* s, uint8_t* d, int64_t w, int scn, int bidx) {
  int64_t i = 0;
#if defined(__AVX2__)
  // two pixels per step: byte x is x*64 in the table's 1/16384, so cell = x >> 3 and the weight
  // index is (2x) & 15 per axis
  const int16_t* cells = T.luv_cells.data();
  const int16_t* tw = T.tri_w.data();
  const __m256i round8 = _mm256_set1_epi32(2048);
  auto pair = [](const int16_t* a, const int16_t* b) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a))),
                                   _mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), 1);
  };
  for (; i + 2 <= w; i += 2, s += 2 * scn, d += 6) {
    const uint8_t* q = s + scn;
    const int a0 = s[bidx], a1 = s[1], a2 = s[bidx ^ 2], b0 = q[bidx], b1 = q[1], b2 = q[bidx ^ 2];
    const int16_t* ca = cells + (((a2 >> 3) * kLutDim + (a1 >> 3)) * kLutDim + (a0 >> 3)) * 24;
    const int16_t* cb = cells + (((b2 >> 3) * kLutDim + (b1 >> 3)) * kLutDim + (b0 >> 3)) * 24;
    const int wa = (((a0 << 1) & 15) | (((a1 << 1) & 15) << 4) | (((a2 << 1) & 15) << 8)) * 8;
    const int wb = (((b0 << 1) & 15) | (((b1 << 1) & 15) << 4) | (((b2 << 1) & 15) << 8)) * 8;
    const __m256i wv = pair(tw + wa, tw + wb);
    const __m256i p0 = _mm256_madd_epi16(pair(ca, cb), wv);
    const __m256i p1 = _mm256_madd_epi16(pair(ca + 8, cb + 8), wv);
    const __m256i p2 = _mm256_madd_epi16(pair(ca + 16, cb + 16), wv);
    const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(p0, p1), _mm256_hadd_epi32(p2, p2));
    // (sum + 2048) >> 12 in 1/16384, then >> 6 to 8 bits; at most 256 (white's L), saturated
    const __m256i r = _mm256_min_epi32(_mm256_srai_epi32(_mm256_add_epi32(h, round8), 18), _mm256_set1_epi32(255));
    const int rb = _mm256_extract_epi32(r, 4);
    d[0] = uint8_t(_mm256_extract_epi32(r, 0)), d[1] = uint8_t(_mm256_extract_epi32(r, 1)), d[2] = uint8_t(_mm256_extract_epi32(r, 2));
    d[3] = uint8_t(rb), d[4] = uint8_t(_mm256_extract_epi32(r, 5)), d[5] = uint8_t(_mm256_extract_epi32(r, 6));
  }
#endif
  for (; i < w; ++i, s += scn, d += 3) {
    int o[3];
    trilinear(T.lut_luv.data(), s[bidx] * (kBase / 256), s[1] * (kBase / 256), s[bidx ^ 2] * (kBase / 256), o);
    d[0] = sat_u8(o[0] >> 6), d[1] = sat_u8(o[1] >> 6), d[2] = sat_u8(o[2] >> 6);
  }
}

// ---- float forward ----

#if defined(__AVX2__)
// Eight 4-float rows transposed: a_k holds row k in its low half and row k + 4 in its high half;
// lane k of out[c] becomes row k's element c. This replaces gathers, which are slow on the AMD
// (Zen 3) cores these numbers were measured on.
inline void transpose8x4(__m256 a0, __m256 a1, __m256 a2, __m256 a3, __m256 out[4]) {
  const __m256 l01 = _mm256_unpacklo_ps(a0, a1), l23 = _mm256_unpacklo_ps(a2, a3);
  const __m256 h01 = _mm256_unpackhi_ps(a0, a1), h23 = _mm256_unpackhi_ps(a2, a3);
  out[0] = _mm256_shuffle_ps(l01, l23, _MM_SHUFFLE(1, 0, 1, 0));
  out[1] = _mm256_shuffle_ps(l01, l23, _MM_SHUFFLE(3, 2, 3, 2));
  out[2] = _mm256_shuffle_ps(h01, h23, _MM_SHUFFLE(1, 0, 1, 0));
  out[3] = _mm256_shuffle_ps(h01, h23, _MM_SHUFFLE(3, 2, 3, 2));
}
inline __m256 load2x4(const float* lo, const float* hi) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)), _mm_loadu_ps(hi), 1);
}
// Eight pixels of cn = 3 or 4 floats as planes c[0..2]. The eighth 3-float pixel is read from one
// float before it, so nothing past the pixels is touched.
inline void load8_planes(const float* s, int cn, __m256 c[4]) {
  __m128 p7 = _mm_loadu_ps(s + 7 * cn - (cn == 3));
  if (cn == 3) p7 = _mm_shuffle_ps(p7, p7, _MM_SHUFFLE(3, 3, 2, 1));
  const __m256 a0 = load2x4(s, s + 4 * cn), a1 = load2x4(s + cn, s + 5 * cn), a2 = load2x4(s + 2 * cn, s + 6 * cn);
  const __m256 a3 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 3 * cn)), p7, 1);
  transpose8x4(a0, a1, a2, a3, c);
}
// Planes -> eight interleaved pixels of cn = 3 or 4 floats (the fourth plane is the alpha); each
// 3-float pixel's store spills one float into the next pixel, which is written after it, and the
// eighth pixel is stored as 2 + 1 floats.
inline void store8_planes(float* d, int cn, __m256 a, __m256 b, __m256 c, __m256 e) {
  __m256 t[4];
  transpose8x4(a, b, c, e, t);
  // t[k] now holds pixels k (low half) and k + 4 (high half)
  for (int k = 0; k < 4; ++k) _mm_storeu_ps(d + k * cn, _mm256_castps256_ps128(t[k]));
  for (int k = 0; k < 3; ++k) _mm_storeu_ps(d + (k + 4) * cn, _mm256_extractf128_ps(t[k], 1));
  const __m128 p7 = _mm256_extractf128_ps(t[3], 1);
  if (cn == 4) {
    _mm_storeu_ps(d + 28, p7);
  } else {
    _mm_storel_pi(reinterpret_cast<__m64*>(d + 21), p7);
    _mm_store_ss(d + 23, _mm_movehl_ps(p7, p7));
  }
}
inline void store8_planes(float* d, __m256 a, __m256 b, __m256 c) { store8_planes(d, 3, a, b, c, c); }
// spline_eval on 8 lanes: truncated index clamped to the table, each lane's 4 coefficients by
// one 16-byte load, transposed
inline __m256 spline8(__m256 x, const float* tab) {
  const __m256i ix = _mm256_min_epi32(_mm256_max_epi32(_mm256_cvttps_epi32(x), _mm256_setzero_si256()), _mm256_set1_epi32(kSplineN - 1));
  const __m256 xx = _mm256_sub_ps(x, _mm256_cvtepi32_ps(ix));
  alignas(32) int32_t o[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(o), _mm256_slli_epi32(ix, 2));
  __m256 t[4];
  transpose8x4(load2x4(tab + o[0], tab + o[4]), load2x4(tab + o[1], tab + o[5]), load2x4(tab + o[2], tab + o[6]),
               load2x4(tab + o[3], tab + o[7]), t);
  return _mm256_add_ps(_mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(t[3], xx), t[2]), xx), t[1]), xx), t[0]);
}
#endif

#if defined(__AVX2__)
// cv2's 8-wide RGB -> Luv block on clipped R, G, B planes (mul and add rounded separately, its
// operation order), spline coefficients by transposed loads
struct Luv8 {
  __m256 c[9], vg, vc, eps, mun, mvn;
  const float* gt;
  const float* ct;
  Luv8(const Tables& T, const float C[9], bool srgb) {
    for (int k = 0; k < 9; ++k) c[k] = _mm256_set1_ps(C[k]);
    vg = _mm256_set1_ps(float(kSplineN)), vc = _mm256_set1_ps(T.cbrt_scale), eps = _mm256_set1_ps(FLT_EPSILON);
    mun = _mm256_set1_ps(-T.un), mvn = _mm256_set1_ps(-T.vn);
    gt = srgb ? T.gamma_spl.data() : nullptr, ct = T.cbrt_spl.data();
  }
  inline void run(__m256 R, __m256 G, __m256 B, __m256& L, __m256& u, __m256& v) const {
    if (gt) R = spline8(_mm256_mul_ps(R, vg), gt), G = spline8(_mm256_mul_ps(G, vg), gt), B = spline8(_mm256_mul_ps(B, vg), gt);
    auto row = [&](int k) {
      return _mm256_add_ps(_mm256_mul_ps(R, c[k]), _mm256_add_ps(_mm256_mul_ps(G, c[k + 1]), _mm256_mul_ps(B, c[k + 2])));
    };
    const __m256 X = row(0), Y = row(3), Z = row(6);
    L = spline8(_mm256_mul_ps(Y, vc), ct);
    L = _mm256_add_ps(_mm256_mul_ps(L, _mm256_set1_ps(116.f)), _mm256_set1_ps(-16.f));
    __m256 dd = _mm256_add_ps(_mm256_mul_ps(Y, _mm256_set1_ps(15.f)), _mm256_add_ps(_mm256_mul_ps(Z, _mm256_set1_ps(3.f)), X));
    dd = _mm256_div_ps(_mm256_set1_ps(52.f), _mm256_max_ps(dd, eps));
    u = _mm256_mul_ps(L, _mm256_add_ps(_mm256_mul_ps(X, dd), mun));
    v = _mm256_mul_ps(L, _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(2.25f), Y), dd), mvn));
  }
};
#endif

inline void luv_coeffs(float C[9], int bidx) {
  for (int i = 0; i < 9; ++i) C[i] = float(kRgb2Xyz[i]);
  if (bidx == 0)
    for (int i = 0; i < 3; ++i) std::swap(C[i * 3], C[i * 3 + 2]);
}

// cv2's float RGB -> Luv (srgb or linear) on n pixels in [0, 1]; simd_n leading pixels take its
// 8-wide path (NaN clipped to 0, XYZ summed as a + (b + c)), the rest its per-pixel path.
void luv_f32_run(const Tables& T, const float* s, float* d, int64_t n, int64_t simd_n, int scn, int bidx, bool srgb) {
  float C[9];
  luv_coeffs(C, bidx);
  const float* gt = T.gamma_spl.data();
  const float* ct = T.cbrt_spl.data();
  const float gscale = float(kSplineN), cscale = T.cbrt_scale, un = T.un, vn = T.vn;
  int64_t i = 0;
#if defined(__AVX2__)
  {
    const Luv8 K(T, C, srgb);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f);
    for (; i + 8 <= simd_n; i += 8, s += 8 * scn, d += 24) {
      __m256 px[4];
      load8_planes(s, scn, px);
      // max(x, 0) gives 0 for NaN, as _mm_max_ps in cv2
      const __m256 R = _mm256_min_ps(_mm256_max_ps(px[0], zero), one), G = _mm256_min_ps(_mm256_max_ps(px[1], zero), one),
                   B = _mm256_min_ps(_mm256_max_ps(px[2], zero), one);
      __m256 L, u, v;
      K.run(R, G, B, L, u, v);
      store8_planes(d, L, u, v);
    }
  }
#endif
  for (; i < n; ++i, s += scn, d += 3) {
    float R = s[0], G = s[1], B = s[2];
    const bool vec = i < simd_n;
    if (vec) {
      // _mm_max_ps(x, 0) gives 0 for NaN
      R = std::min(R > 0.f ? R : 0.f, 1.f), G = std::min(G > 0.f ? G : 0.f, 1.f), B = std::min(B > 0.f ? B : 0.f, 1.f);
    } else {
      R = clip_tail(R), G = clip_tail(G), B = clip_tail(B);
    }
    if (srgb) R = spline_eval(R * gscale, gt), G = spline_eval(G * gscale, gt), B = spline_eval(B * gscale, gt);
    float X, Y, Z, dd;
    if (vec) {
      X = R * C[0] + (G * C[1] + B * C[2]);
      Y = R * C[3] + (G * C[4] + B * C[5]);
      Z = R * C[6] + (G * C[7] + B * C[8]);
    } else {
      X = R * C[0] + G * C[1] + B * C[2];
      Y = R * C[3] + G * C[4] + B * C[5];
      Z = R * C[6] + G * C[7] + B * C[8];
    }
    float L = spline_eval(Y * cscale, ct);
    L = 116.f * L - 16.f;
    if (vec) {
      dd = Y * 15.f + (Z * 3.f + X);
      dd = 52.f / (dd > FLT_EPSILON ? dd : FLT_EPSILON);
    } else {
      dd = 52.f / std::max(X + 15.f * Y + 3.f * Z, FLT_EPSILON);
    }
    d[0] = L;
    d[1] = L * (X * dd - un);
    d[2] = L * (2.25f * Y * dd - vn);
  }
}

// cv2's float linear RGB -> Lab: blocks of 8 use the cube-root spline, the row tail cv::cubeRoot.
void lab_f32_linear_row(const Tables& T, const float* s, float* d, int64_t w, int scn, int bidx) {
  float C[9];
  for (int i = 0; i < 3; ++i) {
    const double sc = i == 1 ? 1.0 : 1.0 / kWhite[i];
    C[i * 3 + (bidx ^ 2)] = float(sc * kRgb2Xyz[i * 3 + 0]);
    C[i * 3 + 1] = float(sc * kRgb2Xyz[i * 3 + 1]);
    C[i * 3 + bidx] = float(sc * kRgb2Xyz[i * 3 + 2]);
  }
  const float* ct = T.cbrt_spl.data();
  const float cscale = T.cbrt_scale, a16 = 16.f / 116.f;
  const int64_t simd_n = w / 8 * 8;
  int64_t i = 0;
#if defined(__AVX2__)
  {
    // cv2's blocks on 8 lanes: min(x, 1) gives 1 for NaN, then max(0, .)
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f), vc = _mm256_set1_ps(cscale);
    __m256 c[9];
    for (int k = 0; k < 9; ++k) c[k] = _mm256_set1_ps(C[k]);
    for (; i + 8 <= simd_n; i += 8, s += 8 * scn, d += 24) {
      __m256 px[4];
      load8_planes(s, scn, px);
      __m256 R = px[0], G = px[1], B = px[2];
      R = _mm256_max_ps(zero, _mm256_min_ps(R, one)), G = _mm256_max_ps(zero, _mm256_min_ps(G, one));
      B = _mm256_max_ps(zero, _mm256_min_ps(B, one));
      auto row = [&](int k) {
        return _mm256_add_ps(_mm256_mul_ps(R, c[k]), _mm256_add_ps(_mm256_mul_ps(G, c[k + 1]), _mm256_mul_ps(B, c[k + 2])));
      };
      const __m256 X = row(0), Y = row(3), Z = row(6);
      const __m256 FX = spline8(_mm256_mul_ps(X, vc), ct), FY = spline8(_mm256_mul_ps(Y, vc), ct), FZ = spline8(_mm256_mul_ps(Z, vc), ct);
      const __m256 big = _mm256_cmp_ps(Y, _mm256_set1_ps(0.008856f), _CMP_GT_OQ);
      const __m256 L = _mm256_blendv_ps(_mm256_mul_ps(_mm256_set1_ps(903.3f), Y),
                                        _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(116.f), FY), _mm256_set1_ps(-16.f)), big);
      store8_planes(d, L, _mm256_mul_ps(_mm256_set1_ps(500.f), _mm256_sub_ps(FX, FY)),
                    _mm256_mul_ps(_mm256_set1_ps(200.f), _mm256_sub_ps(FY, FZ)));
    }
  }
#endif
  for (; i < w; ++i, s += scn, d += 3) {
    float R = s[0], G = s[1], B = s[2], L, FX, FY, FZ;
    if (i < simd_n) {
      // v_max(0, v_min(x, 1)): _mm_min_ps(x, 1) gives 1 for NaN
      R = std::max(0.f, R < 1.f ? R : 1.f), G = std::max(0.f, G < 1.f ? G : 1.f), B = std::max(0.f, B < 1.f ? B : 1.f);
      const float X = R * C[0] + (G * C[1] + B * C[2]);
      const float Y = R * C[3] + (G * C[4] + B * C[5]);
      const float Z = R * C[6] + (G * C[7] + B * C[8]);
      FX = spline_eval(X * cscale, ct), FY = spline_eval(Y * cscale, ct), FZ = spline_eval(Z * cscale, ct);
      L = Y > 0.008856f ? 116.f * FY + -16.f : 903.3f * Y;
    } else {
      R = clip_tail(R), G = clip_tail(G), B = clip_tail(B);
      const float X = R * C[0] + G * C[1] + B * C[2];
      const float Y = R * C[3] + G * C[4] + B * C[5];
      const float Z = R * C[6] + G * C[7] + B * C[8];
      FX = X > 0.008856f ? cbrt_pixel(X) : 7.787f * X + a16;
      FY = Y > 0.008856f ? cbrt_pixel(Y) : 7.787f * Y + a16;
      FZ = Z > 0.008856f ? cbrt_pixel(Z) : 7.787f * Z + a16;
      L = Y > 0.008856f ? 116.f * FY - 16.f : 903.3f * Y;
    }
    d[0] = L;
    d[1] = 500.f * (FX - FY);
    d[2] = 200.f * (FY - FZ);
  }
}

// ---- inverse (uint8: cv2's integer pipelines) ----

void inv_coeffs(int C[9], int bidx, bool white) {
  for (int i = 0; i < 3; ++i) {
    const double wp = white ? kWhite[i] : 1.0;
    C[i + bidx * 3] = round_half_even(4096.0 * kXyz2Rgb[i] * wp);
    C[i + 3] = round_half_even(4096.0 * kXyz2Rgb[i + 3] * wp);
    C[i + (bidx ^ 2) * 3] = round_half_even(4096.0 * kXyz2Rgb[i + 6] * wp);
  }
}
// XYZ in 1/kBase -> 8-bit channels (index 0 gets the first output channel)
inline void xyz_to_u8(const Tables& T, const int C[9], int x, int y, int z, bool srgb, uint8_t* d) {
  for (int c = 0; c < 3; ++c) {
    int v = descale(int64_t(C[c * 3]) * x + int64_t(C[c * 3 + 1]) * y + int64_t(C[c * 3 + 2]) * z, 14);
    v = std::max(0, std::min(kInvGammaN - 1, v));
    d[2 - c] = sat_u8(srgb ? T.inv_gamma_b[v] : (v * 255) >> 12);
  }
}

void lab_inv_u8_row(const Tables& T, const uint8_t* s, uint8_t* d, int64_t w, int dcn, int bidx, bool srgb) {
  int C[9];
  inv_coeffs(C, bidx, true);
  int64_t i = 0;
#if defined(__AVX2__)
  // 8 pixels per step, the same integer steps on int32 lanes (every sum fits 32 bits, as in cv2),
  // look-ups by gathers; the 3-byte loads and stores reach 4 bytes past the 8 pixels
  {
    const __m256i m8 = _mm256_set1_epi32(255), zero = _mm256_setzero_si256(), top = _mm256_set1_epi32(kInvGammaN - 1);
    __m256i c[9];
    for (int k = 0; k < 9; ++k) c[k] = _mm256_set1_epi32(C[k]);
    for (; i + 10 <= w; i += 8, s += 24, d += 8 * dcn) {
      const __m256i px = load8_px(s, 3);
      const __m256i L = _mm256_and_si256(px, m8), A = _mm256_and_si256(_mm256_srli_epi32(px, 8), m8),
                    Bv = _mm256_srli_epi32(px, 16);
      const __m256i y = _mm256_i32gather_epi32(T.y32, L, 4), ify = _mm256_i32gather_epi32(T.ify32, L, 4);
      const __m256i adiv = _mm256_sub_epi32(
          _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(A, _mm256_set1_epi32(5 * 53687)), _mm256_set1_epi32(1 << 7)), 13),
          _mm256_set1_epi32(128 * kBase / 500));
      const __m256i bdiv = _mm256_add_epi32(
          _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(Bv, _mm256_set1_epi32(41943)), _mm256_set1_epi32(1 << 4)), 9),
          _mm256_set1_epi32(1 - 128 * kBase / 200));
      const __m256i x = _mm256_i32gather_epi32(T.ab_xz.data(), _mm256_sub_epi32(_mm256_add_epi32(ify, adiv), _mm256_set1_epi32(kMinAB)), 4);
      const __m256i z = _mm256_i32gather_epi32(T.ab_xz.data(), _mm256_sub_epi32(_mm256_sub_epi32(ify, bdiv), _mm256_set1_epi32(kMinAB)), 4);
      __m256i o[3];
      for (int k = 0; k < 3; ++k) {
        __m256i v = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(c[k * 3], x), _mm256_mullo_epi32(c[k * 3 + 1], y)),
                                     _mm256_mullo_epi32(c[k * 3 + 2], z));
        v = _mm256_srai_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(1 << 13)), 14);
        v = _mm256_min_epi32(_mm256_max_epi32(v, zero), top);
        o[k] = srgb ? _mm256_i32gather_epi32(T.inv_gamma32, v, 4) : _mm256_srli_epi32(_mm256_sub_epi32(_mm256_slli_epi32(v, 8), v), 12);
      }
      // first output channel from the third coefficient row (cv2 writes b, g, r of its rows)
      const __m256i packed = _mm256_or_si256(o[2], _mm256_or_si256(_mm256_slli_epi32(o[1], 8), _mm256_slli_epi32(o[0], 16)));
      if (dcn == 4) _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm256_or_si256(packed, _mm256_set1_epi32(int(0xff000000u))));
      else store8_c3(d, packed);
    }
  }
#endif
  for (; i < w; ++i, s += 3, d += dcn) {
    const int y = T.y_b[s[0]], ify = T.ify_b[s[0]];
    // a/500 and b/200 in 1/kBase by fixed-point reciprocals
    const int adiv = ((5 * s[1] * 53687 + (1 << 7)) >> 13) - 128 * kBase / 500;
    const int bdiv = ((s[2] * 41943 + (1 << 4)) >> 9) - 128 * kBase / 200 + 1;
    const int x = T.ab_xz[ify + adiv - kMinAB], z = T.ab_xz[ify - bdiv - kMinAB];
    xyz_to_u8(T, C, x, y, z, srgb, d);
    if (dcn == 4) d[3] = 255;
  }
}

#if defined(__AVX2__)
// Low 32 bits of 4 integer-valued doubles (|v| < 2^51), wrapped as a cast from int64 wraps: adding
// 1.5 * 2^52 puts the integer in the low mantissa bits.
inline __m128i wrap_i32(__m256d v) {
  const __m256i b = _mm256_castpd_si256(_mm256_add_pd(v, _mm256_set1_pd(6755399441055744.0)));
  return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}
// x and z of cv2's integer Luv -> XYZ for 4 pixels. Its 64-bit steps are exact in double (every
// product stays below 2^53), >> 14 is a floor after an exact scaling by 2^-14.
inline void luv_xz4(__m128i y, __m128i up, __m128i vp, __m128i vpl32, __m128i& x, __m128i& zm) {
  const __m256d k = _mm256_set1_pd(1.0 / 16384.0);
  auto fl = [&](__m256d v) { return _mm256_floor_pd(_mm256_mul_pd(v, k)); };
  const __m256d yd = _mm256_cvtepi32_pd(y);
  const __m256d xv = _mm256_mul_pd(_mm256_cvtepi32_pd(up), _mm256_cvtepi32_pd(vp));
  x = wrap_i32(fl(_mm256_mul_pd(yd, fl(xv))));
  // vpl = 249600 * (ivp * ll), the int32 product passed in
  const __m256d vpl = _mm256_mul_pd(_mm256_set1_pd(249600.0), _mm256_cvtepi32_pd(vpl32));
  const __m256d zp = fl(_mm256_sub_pd(vpl, _mm256_mul_pd(xv, _mm256_set1_pd(85.0))));
  zm = wrap_i32(fl(_mm256_mul_pd(yd, _mm256_sub_pd(zp, _mm256_set1_pd(5.0 * 255 * kBase)))));
}
#endif

void luv_inv_u8_row(const Tables& T, const uint8_t* s, uint8_t* d, int64_t w, int dcn, int bidx, bool srgb) {
  int C[9];
  inv_coeffs(C, bidx, false);
  int64_t i = 0;
#if defined(__AVX2__)
  {
    const __m256i m8 = _mm256_set1_epi32(255), zero = _mm256_setzero_si256(), top = _mm256_set1_epi32(kInvGammaN - 1);
    const __m256i two = _mm256_set1_epi32(2 * kBase);
    __m256i c[9];
    for (int k = 0; k < 9; ++k) c[k] = _mm256_set1_epi32(C[k]);
    for (; i + 10 <= w; i += 8, s += 24, d += 8 * dcn) {
      const __m256i px = load8_px(s, 3);
      const __m256i L = _mm256_and_si256(px, m8), U = _mm256_and_si256(_mm256_srli_epi32(px, 8), m8), V = _mm256_srli_epi32(px, 16);
      const __m256i l256 = _mm256_slli_epi32(L, 8);
      const __m256i y = _mm256_i32gather_epi32(T.y32, L, 4);
      const __m256i up = _mm256_i32gather_epi32(T.up_b.data(), _mm256_add_epi32(l256, U), 4);
      const __m256i vp = _mm256_i32gather_epi32(T.vp_b.data(), _mm256_add_epi32(l256, V), 4);
      const __m256i vpl = _mm256_mullo_epi32(vp, L);
      __m128i x0, x1, z0, z1;
      luv_xz4(_mm256_castsi256_si128(y), _mm256_castsi256_si128(up), _mm256_castsi256_si128(vp), _mm256_castsi256_si128(vpl), x0, z0);
      luv_xz4(_mm256_extracti128_si256(y, 1), _mm256_extracti128_si256(up, 1), _mm256_extracti128_si256(vp, 1),
              _mm256_extracti128_si256(vpl, 1), x1, z1);
      __m256i x = _mm256_inserti128_si256(_mm256_castsi128_si256(x0), x1, 1);
      __m256i z = _mm256_inserti128_si256(_mm256_castsi128_si256(z0), z1, 1);
      z = _mm256_add_epi32(_mm256_srai_epi32(z, 8), _mm256_srai_epi32(z, 16));
      x = _mm256_max_epi32(zero, _mm256_min_epi32(two, x));
      z = _mm256_max_epi32(zero, _mm256_min_epi32(two, z));
      __m256i o[3];
      for (int k = 0; k < 3; ++k) {
        __m256i v = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(c[k * 3], x), _mm256_mullo_epi32(c[k * 3 + 1], y)),
                                     _mm256_mullo_epi32(c[k * 3 + 2], z));
        v = _mm256_srai_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(1 << 13)), 14);
        v = _mm256_min_epi32(_mm256_max_epi32(v, zero), top);
        o[k] = srgb ? _mm256_i32gather_epi32(T.inv_gamma32, v, 4) : _mm256_srli_epi32(_mm256_sub_epi32(_mm256_slli_epi32(v, 8), v), 12);
      }
      const __m256i packed = _mm256_or_si256(o[2], _mm256_or_si256(_mm256_slli_epi32(o[1], 8), _mm256_slli_epi32(o[0], 16)));
      if (dcn == 4) _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm256_or_si256(packed, _mm256_set1_epi32(int(0xff000000u))));
      else store8_c3(d, packed);
    }
  }
#endif
  for (; i < w; ++i, s += 3, d += dcn) {
    const int ll = s[0];
    const int y = T.y_b[ll];
    const int up = T.up_b[ll * 256 + s[1]], vp = T.vp_b[ll * 256 + s[2]];
    // cv2 divides with truncation in its per-pixel code and shifts in its SIMD code; on every
    // 8-bit input the two agree once x and z are clipped to [0, 2]
    const int64_t xv = int64_t(up) * vp;
    int x = int((int64_t(y) * (xv >> 14)) >> 14);
    const int64_t zp = (T.vpl_b[ll * 256 + s[2]] - xv * (255 / 3)) >> 14;
    const int zm = int((int64_t(y) * (zp - int64_t(5 * 255) * kBase)) >> 14);
    int z = (zm >> 8) + (zm >> 16);
    x = std::max(0, std::min(2 * kBase, x));
    z = std::max(0, std::min(2 * kBase, z));
    xyz_to_u8(T, C, x, y, z, srgb, d);
    if (dcn == 4) d[3] = 255;
  }
}

// ---- float inverse: cv2's Lab2RGBfloat / Luv2RGBfloat ----
// Like the forward paths, cv2 runs blocks of 8 pixels (while 8 remain in the row) with
// reciprocal multiplications, a different summation order and SSE min/max operand orders, and
// the rest of the row per pixel with divisions. Both end in the spline of the inverse sRGB curve
// (1024 intervals over [0, 1]). The scalar functions below reproduce both; the AVX2 block does the
// block's operations on 8 lanes.

struct InvF32 {
  float C[9];          // output channel k = C[3k]*x + C[3k+1]*y + C[3k+2]*z
  float un, vn;
  const float* gtab;   // inverse sRGB spline, or null for the linear codes
  bool luv;
};

InvF32 inv_f32_setup(const Tables& T, int bidx, bool srgb, bool luv) {
  InvF32 P;
  for (int i = 0; i < 3; ++i) {
    // Lab folds the white point into the coefficients in double, Luv rounds them to float as is
    const double wp = luv ? 1.0 : kWhite[i];
    P.C[i + (bidx ^ 2) * 3] = float(kXyz2Rgb[i] * wp);
    P.C[i + 3] = float(kXyz2Rgb[i + 3] * wp);
    P.C[i + bidx * 3] = float(kXyz2Rgb[i + 6] * wp);
  }
  P.un = T.un, P.vn = T.vn;
  P.gtab = srgb ? T.inv_gamma_spl.data() : nullptr;
  P.luv = luv;
  return P;
}

// SSE's min/max: the second operand when either is NaN
inline float sse_min(float a, float b) { return a < b ? a : b; }
inline float sse_max(float a, float b) { return a > b ? a : b; }
const float kFThresh = 6.f / 29.f;

// cv2's block arithmetic for one pixel -> 3 channel values before the gamma curve
inline void inv_block_px(const InvF32& P, float L, float A, float B, float o[3]) {
  const float* C = P.C;
  if (!P.luv) {
    const float ylo = L * (1.f / 903.3f), fylo = 7.787f * ylo + 16.f / 116.f;
    const float fyhi = (L + 16.f) * (1.f / 116.f), yhi = fyhi * fyhi * fyhi;
    const bool lo = L <= 8.f;
    const float y = lo ? ylo : yhi, fy = lo ? fylo : fyhi;
    float f[2] = {A * (1.f / 500.f) + fy, B * (-1.f / 200.f) + fy};
    for (float& v : f) v = v <= kFThresh ? (v - 16.f / 116.f) * (1.f / 7.787f) : v * v * v;
    for (int k = 0; k < 3; ++k) o[k] = sse_max(0.f, sse_min(C[k * 3] * f[0] + (C[k * 3 + 1] * y + C[k * 3 + 2] * f[1]), 1.f));
  } else {
    float ylo = (L + 16.f) * (1.f / 116.f);
    ylo = ylo * ylo * ylo;
    const float y = L >= 8.f ? ylo : L * (1.f / 903.296296f);
    const float up = 3.f * (L * P.un + A);
    const float vp = sse_max(-0.25f, sse_min(0.25f, 0.25f / (L * P.vn + B)));
    const float x = 3.f * up * vp, z = (L * (12.f * 13.f) + -up) * vp + -5.f;
    for (int k = 0; k < 3; ++k) o[k] = sse_min(sse_max((z * C[k * 3 + 2] + (x * C[k * 3] + C[k * 3 + 1])) * y, 0.f), 1.f);
  }
}

// cv2's per-pixel arithmetic (the row's last w % 8 pixels)
inline void inv_tail_px(const InvF32& P, float L, float A, float B, float o[3]) {
  const float* C = P.C;
  float x, y, z;
  if (!P.luv) {
    float fy;
    if (L <= 8.f) {
      y = L / 903.3f;
      fy = 7.787f * y + 16.f / 116.f;
    } else {
      fy = (L + 16.f) / 116.f;
      y = fy * fy * fy;
    }
    float f[2] = {A / 500.f + fy, fy - B / 200.f};
    for (float& v : f) v = v <= kFThresh ? (v - 16.f / 116.f) / 7.787f : v * v * v;
    x = f[0], z = f[1];
  } else {
    if (L >= 8.f) {
      y = (L + 16.f) * (1.f / 116.f);
      y = y * y * y;
    } else {
      y = L * (1.f / 903.3f);
    }
    const float up = 3.f * (A + L * P.un);
    float vp = 0.25f / (B + L * P.vn);
    if (vp > 0.25f) vp = 0.25f;
    if (vp < -0.25f) vp = -0.25f;
    x = y * 3.f * up * vp;
    z = y * (((12.f * 13.f) * L - up) * vp - 5.f);
  }
  for (int k = 0; k < 3; ++k) o[k] = clip_tail(C[k * 3] * x + C[k * 3 + 1] * y + C[k * 3 + 2] * z);
}

#if defined(__AVX2__)
// inv_block_px on 8 lanes, with the gamma curve
inline void inv_block8(const InvF32& P, __m256 L, __m256 A, __m256 B, __m256 o[3]) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f);
  __m256 x, y, z;
  if (!P.luv) {
    const __m256 ylo = _mm256_mul_ps(L, _mm256_set1_ps(1.f / 903.3f));
    const __m256 fylo = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(7.787f), ylo), _mm256_set1_ps(16.f / 116.f));
    const __m256 fyhi = _mm256_mul_ps(_mm256_add_ps(L, _mm256_set1_ps(16.f)), _mm256_set1_ps(1.f / 116.f));
    const __m256 yhi = _mm256_mul_ps(_mm256_mul_ps(fyhi, fyhi), fyhi);
    const __m256 lo = _mm256_cmp_ps(L, _mm256_set1_ps(8.f), _CMP_LE_OQ);
    y = _mm256_blendv_ps(yhi, ylo, lo);
    const __m256 fy = _mm256_blendv_ps(fyhi, fylo, lo);
    auto finv = [](__m256 f) {
      const __m256 m = _mm256_cmp_ps(f, _mm256_set1_ps(kFThresh), _CMP_LE_OQ);
      const __m256 flo = _mm256_mul_ps(_mm256_sub_ps(f, _mm256_set1_ps(16.f / 116.f)), _mm256_set1_ps(1.f / 7.787f));
      return _mm256_blendv_ps(_mm256_mul_ps(_mm256_mul_ps(f, f), f), flo, m);
    };
    x = finv(_mm256_add_ps(_mm256_mul_ps(A, _mm256_set1_ps(1.f / 500.f)), fy));
    z = finv(_mm256_add_ps(_mm256_mul_ps(B, _mm256_set1_ps(-1.f / 200.f)), fy));
    for (int k = 0; k < 3; ++k) {
      const __m256 r = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(P.C[k * 3]), x),
                                     _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(P.C[k * 3 + 1]), y),
                                                   _mm256_mul_ps(_mm256_set1_ps(P.C[k * 3 + 2]), z)));
      o[k] = _mm256_max_ps(zero, _mm256_min_ps(r, one));
    }
  } else {
    __m256 ylo = _mm256_mul_ps(_mm256_add_ps(L, _mm256_set1_ps(16.f)), _mm256_set1_ps(1.f / 116.f));
    ylo = _mm256_mul_ps(_mm256_mul_ps(ylo, ylo), ylo);
    const __m256 yhi = _mm256_mul_ps(L, _mm256_set1_ps(1.f / 903.296296f));
    y = _mm256_blendv_ps(yhi, ylo, _mm256_cmp_ps(L, _mm256_set1_ps(8.f), _CMP_GE_OQ));
    const __m256 up = _mm256_mul_ps(_mm256_set1_ps(3.f), _mm256_add_ps(_mm256_mul_ps(L, _mm256_set1_ps(P.un)), A));
    __m256 vp = _mm256_div_ps(_mm256_set1_ps(0.25f), _mm256_add_ps(_mm256_mul_ps(L, _mm256_set1_ps(P.vn)), B));
    vp = _mm256_max_ps(_mm256_set1_ps(-0.25f), _mm256_min_ps(_mm256_set1_ps(0.25f), vp));
    x = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(3.f), up), vp);
    z = _mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(L, _mm256_set1_ps(12.f * 13.f)), up), vp), _mm256_set1_ps(-5.f));
    for (int k = 0; k < 3; ++k) {
      const __m256 r = _mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(z, _mm256_set1_ps(P.C[k * 3 + 2])),
                                                   _mm256_add_ps(_mm256_mul_ps(x, _mm256_set1_ps(P.C[k * 3])), _mm256_set1_ps(P.C[k * 3 + 1]))),
                                     y);
      o[k] = _mm256_min_ps(_mm256_max_ps(r, zero), one);
    }
  }
  if (P.gtab) {
    const __m256 gs = _mm256_set1_ps(float(kSplineN));
    for (int k = 0; k < 3; ++k) o[k] = spline8(_mm256_mul_ps(o[k], gs), P.gtab);
  }
}
#endif

}  // namespace

void lab_forward_row_u8(const uint8_t* s, uint8_t* d, int64_t w, int scn, int bidx, bool srgb, bool luv) {
  const Tables& T = tables();
  if (!luv) return lab_u8_row(T, s, d, w, scn, bidx, srgb);
  if (srgb) return luv_u8_srgb_row(T, s, d, w, scn, bidx);
  // linear Luv: cv2 runs its float path on x/255 in blocks of 256 pixels, then scales to 8 bits
  // (each block's first dn/8*8 pixels take its 8-wide arithmetic)
  constexpr int kBlock = 256;
  const float inv255 = 1.f / 255.f;
  const float fL = 255.f / 100.f, fu = 255.f / kURange, fv = 255.f / kVRange;
  const float su = -kULow * 255.f / kURange, sv = -kVLow * 255.f / kVRange;
#if defined(__AVX2__)
  float C[9];
  luv_coeffs(C, bidx);
  const Luv8 K(T, C, false);
#endif
  for (int64_t i0 = 0; i0 < w; i0 += kBlock) {
    const int dn = int(std::min<int64_t>(kBlock, w - i0)), simd_n = dn / 8 * 8;
    int j = 0;
#if defined(__AVX2__)
    {
      // 8 pixels per step straight from and to bytes, while the 3-byte loads and stores that
      // reach 4 bytes past them stay inside the row
      const __m256 vinv = _mm256_set1_ps(inv255), m8 = _mm256_castsi256_ps(_mm256_set1_epi32(255));
      const __m256 ml = _mm256_set1_ps(fL), mu = _mm256_set1_ps(fu), mv = _mm256_set1_ps(fv);
      const __m256 au = _mm256_set1_ps(su), av = _mm256_set1_ps(sv), zero = _mm256_setzero_ps();
      for (; j + 8 <= simd_n && i0 + j + 10 <= w; j += 8) {
        const __m256i px = load8_px(s + (i0 + j) * scn, scn), k255 = _mm256_castps_si256(m8);
        const __m256 R = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(px, k255)), vinv);
        const __m256 G = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(px, 8), k255)), vinv);
        const __m256 B = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(px, 16), k255)), vinv);
        __m256 L, u, v;
        K.run(R, G, B, L, u, v);
        // v_round(x*m + a), then saturating packs
        const __m256i top = _mm256_set1_epi32(255), z = _mm256_setzero_si256();
        auto q = [&](__m256 x, __m256 m, __m256 a) {
          return _mm256_min_epi32(_mm256_max_epi32(_mm256_cvtps_epi32(_mm256_add_ps(_mm256_mul_ps(x, m), a)), z), top);
        };
        const __m256i Lq = q(L, ml, zero), uq = q(u, mu, au), vq = q(v, mv, av);
        store8_c3(d + (i0 + j) * 3, _mm256_or_si256(Lq, _mm256_or_si256(_mm256_slli_epi32(uq, 8), _mm256_slli_epi32(vq, 16))));
      }
    }
#endif
    for (; j < dn; ++j) {
      const uint8_t* p = s + (i0 + j) * scn;
      const float buf[3] = {float(p[0]) * inv255, float(p[1]) * inv255, float(p[2]) * inv255};
      float out[3];
      luv_f32_run(T, buf, out, 1, j < simd_n ? 1 : 0, 3, bidx, false);
      uint8_t* o = d + (i0 + j) * 3;
      o[0] = sat_u8(round_half_even(out[0] * fL));
      o[1] = sat_u8(round_half_even(out[1] * fu + su));
      o[2] = sat_u8(round_half_even(out[2] * fv + sv));
    }
  }
}

void lab_forward_row_f32(const float* s, float* d, int64_t w, int scn, int bidx, bool srgb, bool luv) {
  const Tables& T = tables();
  if (luv) return luv_f32_run(T, s, d, w, w / 8 * 8, scn, bidx, srgb);
  if (!srgb) return lab_f32_linear_row(T, s, d, w, scn, bidx);
  // sRGB Lab: the input rounded to 1/16384 indexes the 33^3 table (blue first). cv2's blocks of
  // 8 pixels run while more than 8 remain (NaN reads as 0 there), its tail takes the rest.
  const float base = float(kBase), inv_base = 1.f / float(kBase);
  const int64_t simd_n = w > 8 ? (w - 1) / 8 * 8 : 0;
  int64_t i = 0;
#if defined(__AVX2__)
  {
    // one pixel per step with its channels in SSE lanes: clip, round, cell and weight indices,
    // the 8 corners times their weights as 16-bit pair products, and the output scaling
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.f), vbase = _mm_set1_ps(base);
    const __m128i cmul = _mm_setr_epi32(24, kLutDim * 24, kLutDim * kLutDim * 24, 0);
    const __m128i wshift = _mm_setr_epi32(3, 7, 11, 0), m15 = _mm_setr_epi32(15, 15, 15, 0), round = _mm_set1_epi32(2048);
    const __m128 omul = _mm_setr_ps(100.f, 256.f, 256.f, 0.f), oadd = _mm_setr_ps(0.f, -128.f, -128.f, 0.f);
    const __m128 vinv = _mm_set1_ps(inv_base);
    // two pixels per step in the blocks' range (clip NaN to 0): the same steps on 256-bit lanes
    const __m256 zero8 = _mm256_setzero_ps(), one8 = _mm256_set1_ps(1.f), base8 = _mm256_set1_ps(base);
    const __m256i cmul8 = _mm256_setr_epi32(24, kLutDim * 24, kLutDim * kLutDim * 24, 0, 24, kLutDim * 24, kLutDim * kLutDim * 24, 0);
    const __m256i wshift8 = _mm256_setr_epi32(3, 7, 11, 0, 3, 7, 11, 0), m15_8 = _mm256_setr_epi32(15, 15, 15, 0, 15, 15, 15, 0);
    const __m256 omul8 = _mm256_setr_ps(100.f, 256.f, 256.f, 0.f, 100.f, 256.f, 256.f, 0.f);
    const __m256 oadd8 = _mm256_setr_ps(0.f, -128.f, -128.f, 0.f, 0.f, -128.f, -128.f, 0.f), vinv8 = _mm256_set1_ps(inv_base);
    const __m256i round8 = _mm256_set1_epi32(2048);
    const int16_t* cells = T.lab_cells.data();
    const int16_t* tw = T.tri_w.data();
    // the loads and stores reach one float into the pixel after the pair (simd_n < w)
    for (; i + 2 <= simd_n; i += 2, s += 2 * scn, d += 6) {
      __m256 v = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s)), _mm_loadu_ps(s + scn), 1);
      if (bidx == 2) v = _mm256_shuffle_ps(v, v, _MM_SHUFFLE(3, 0, 1, 2));
      v = _mm256_min_ps(_mm256_max_ps(v, zero8), one8);
      const __m256i ci = _mm256_cvtps_epi32(_mm256_mul_ps(v, base8));
      const __m256i cidx = _mm256_mullo_epi32(_mm256_srli_epi32(ci, 9), cmul8);
      const __m256i widx = _mm256_sllv_epi32(_mm256_and_si256(_mm256_srli_epi32(ci, 5), m15_8), wshift8);
      const __m256i hs = _mm256_hadd_epi32(cidx, widx);
      const __m256i hs2 = _mm256_hadd_epi32(hs, hs);
      const __m128i lo = _mm256_castsi256_si128(hs2), hi = _mm256_extracti128_si256(hs2, 1);
      const int16_t* ca = cells + _mm_cvtsi128_si32(lo);
      const int16_t* cb = cells + _mm_cvtsi128_si32(hi);
      auto pair = [](const int16_t* a, const int16_t* b) {
        return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a))),
                                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), 1);
      };
      const __m256i wv = pair(tw + _mm_extract_epi32(lo, 1), tw + _mm_extract_epi32(hi, 1));
      const __m256i p0 = _mm256_madd_epi16(pair(ca, cb), wv);
      const __m256i p1 = _mm256_madd_epi16(pair(ca + 8, cb + 8), wv);
      const __m256i p2 = _mm256_madd_epi16(pair(ca + 16, cb + 16), wv);
      const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(p0, p1), _mm256_hadd_epi32(p2, p2));
      const __m256i r = _mm256_srai_epi32(_mm256_add_epi32(h, round8), 12);
      const __m256 o = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(r), vinv8), omul8), oadd8);
      _mm_storeu_ps(d, _mm256_castps256_ps128(o));
      _mm_storeu_ps(d + 3, _mm256_extractf128_ps(o, 1));
    }
    // the 4-float load and store reach one float into the next pixel: the last pixel goes below
    const int64_t n4 = w - 1;
    for (; i < n4; ++i, s += scn, d += 3) {
      __m128 v = _mm_loadu_ps(s);
      if (bidx == 2) v = _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 0, 1, 2));
      // blocks: max(x, 0) gives 0 for NaN; tail: min(x, 1) gives 1 for NaN
      v = i < simd_n ? _mm_min_ps(_mm_max_ps(v, zero), one) : _mm_max_ps(_mm_min_ps(v, one), zero);
      const __m128i ci = _mm_cvtps_epi32(_mm_mul_ps(v, vbase));
      const __m128i cidx = _mm_mullo_epi32(_mm_srli_epi32(ci, 9), cmul);
      // (f0 | f1 << 4 | f2 << 8) * 8 with f = (c >> 5) & 15
      const __m128i widx = _mm_sllv_epi32(_mm_and_si128(_mm_srli_epi32(ci, 5), m15), wshift);
      const __m128i hs = _mm_hadd_epi32(cidx, widx);
      const __m128i hs2 = _mm_hadd_epi32(hs, hs);
      const int16_t* cell = T.lab_cells.data() + _mm_cvtsi128_si32(hs2);
      const __m128i wv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(T.tri_w.data() + _mm_extract_epi32(hs2, 1)));
      const __m128i p0 = _mm_madd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(cell)), wv);
      const __m128i p1 = _mm_madd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(cell + 8)), wv);
      const __m128i p2 = _mm_madd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(cell + 16)), wv);
      const __m128i h = _mm_hadd_epi32(_mm_hadd_epi32(p0, p1), _mm_hadd_epi32(p2, p2));
      const __m128i r = _mm_srai_epi32(_mm_add_epi32(h, round), 12);
      // L = (o / 16384) * 100, a and b = (o / 16384) * 256 - 128 (the division is exact)
      const __m128 o = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(_mm_cvtepi32_ps(r), vinv), omul), oadd);
      _mm_storeu_ps(d, o);
    }
  }
#endif
  for (; i < w; ++i, s += scn, d += 3) {
    int c[3];
    for (int k = 0; k < 3; ++k) {
      const float v = s[k];
      const float cl = i < simd_n ? std::min(v > 0.f ? v : 0.f, 1.f) : clip_tail(v);
      c[k] = static_cast<int>(std::lrint(cl * base));
    }
    int o[3];
    trilinear(T.lut_lab.data(), c[bidx], c[1], c[bidx ^ 2], o);
    d[0] = (float(o[0]) * inv_base) * 100.f;
    d[1] = (float(o[1]) * inv_base) * 256.f - 128.f;
    d[2] = (float(o[2]) * inv_base) * 256.f - 128.f;
  }
}

void lab_inverse_row_u8(const uint8_t* s, uint8_t* d, int64_t w, int dcn, int bidx, bool srgb, bool luv) {
  const Tables& T = tables();
  if (luv) luv_inv_u8_row(T, s, d, w, dcn, bidx, srgb);
  else lab_inv_u8_row(T, s, d, w, dcn, bidx, srgb);
}

void lab_inverse_row_f32(const float* s, float* d, int64_t w, int dcn, int bidx, bool srgb, bool luv) {
  const Tables& T = tables();
  const InvF32 P = inv_f32_setup(T, bidx, srgb, luv);
  const int64_t simd_n = w / 8 * 8;
  int64_t i = 0;
#if defined(__AVX2__)
  for (; i < simd_n; i += 8, s += 24, d += 8 * dcn) {
    __m256 in[4], o[3];
    load8_planes(s, 3, in);
    inv_block8(P, in[0], in[1], in[2], o);
    store8_planes(d, dcn, o[0], o[1], o[2], _mm256_set1_ps(1.f));
  }
#endif
  const float gs = float(kSplineN);
  for (; i < w; ++i, s += 3, d += dcn) {
    float o[3];
    if (i < simd_n) inv_block_px(P, s[0], s[1], s[2], o);
    else inv_tail_px(P, s[0], s[1], s[2], o);
    if (P.gtab)
      for (float& v : o) v = spline_eval(v * gs, P.gtab);
    d[0] = o[0], d[1] = o[1], d[2] = o[2];
    if (dcn == 4) d[3] = 1.f;
  }
}

}  // namespace mnn::cpu::MNN_ISA_NS
