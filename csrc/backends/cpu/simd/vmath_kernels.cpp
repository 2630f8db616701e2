// Vectorised float32 exp, log, sin, cos and tanh for one ISA (compiled once per target, like
// elementwise_table.cpp). libm's scalar calls cannot be vectorised, so a float32 exp ran at ~3 ns
// per element, four times slower than memory. sin, cos and tanh (and the NEON target's exp and
// log) are branch-free float polynomial formulations (Cody-Waite range reduction + minimax
// polynomials, the classic Cephes single-precision coefficients) written as plain per-element
// code the compiler turns into SIMD for the target: every lane follows the same instructions,
// special values are patched with selects. exp and log on x86 are evaluated in double (or, for
// exp's AVX2 fast form, a float table pair) and rounded once, near-correctly rounded (see
// "exp and log evaluated in float64" below), so their distance to numpy's results is numpy's own
// error. tests/engine/test_vmath.py measures all of them against numpy (within 2 ulp; log beyond
// only where numpy's own log is >= 3 ulp off) and the correctly rounded result.
// Targets with FMA contract a*b+c (CMakeLists.txt), so they differ from the scalar build by <= 1 ulp.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "backends/cpu/fp_status.h"
#include "backends/cpu/simd/kernel_table.h"
#include "backends/cpu/simd/neon.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

inline int32_t bits_of(float f) {
  int32_t i;
  std::memcpy(&i, &f, 4);
  return i;
}
inline float float_of(int32_t i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}

// f(|x|) turned into f(x) for an odd f: flips v's sign bit when x's is set (so f(-0.0) is -0.0).
inline float odd_sign(float v, float x) {
  return float_of(bits_of(v) ^ (bits_of(x) & static_cast<int32_t>(0x80000000u)));
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// exp(x) = 2^n * exp(r), n = round(x / ln2), |r| <= ln2 / 2.
inline float exp_f32(float x) {
  // Clamping is all the special-casing needed: at the top, 2^128 overflows the final scaling to
  // +inf; at the bottom, 2^-151 rounds the result to +0; NaN passes through the clamps (x is the
  // second operand of each min/max) and the arithmetic.
  float xc = 88.7300033569336f < x ? 88.7300033569336f : x;
  xc = -105.0f > xc ? -105.0f : xc;
  // round to nearest through the 1.5 * 2^23 shifter (exact for |t| < 2^22)
  float n = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  float r = xc - n * 0.693359375f;  // ln2 split in two: the high part is exact in float
  r = r - n * -2.12194440e-4f;
  // Estrin's scheme: three dependent steps instead of Horner's six, so more lanes are in flight
  float r2 = r * r;
  float q01 = 1.9875691500e-4f * r + 1.3981999507e-3f;
  float q23 = 8.3334519073e-3f * r + 4.1665795894e-2f;
  float q45 = 1.6666665459e-1f * r + 5.0000001201e-1f;
  float p = (q01 * r2 + q23) * r2 + q45;
  float y = (p * r2 + r) + 1.0f;
  // 2^n in two factors, so results in the subnormal range round only once, at the last multiply
  int32_t ni = static_cast<int32_t>(n);
  int32_t n1 = ni >> 1, n2 = ni - n1;
  return y * float_of((n1 + 127) << 23) * float_of((n2 + 127) << 23);
}

// log(x) = e * ln2 + log(m), m in [sqrt(1/2), sqrt(2)). The NEON target's log4 is this form;
// x86 targets use log_f64 below.
[[maybe_unused]] inline float log_f32(float x) {
  const bool subnormal = x < 1.17549435e-38f;  // also zero and negatives (patched below)
  float xs = subnormal ? x * 8388608.0f : x;
  int32_t b = bits_of(xs);
  int32_t e = ((b >> 23) & 0xff) - 126 - (subnormal ? 23 : 0);
  float m = float_of((b & 0x007fffff) | 0x3f000000);  // [0.5, 1)
  const bool low = m < 0.707106781186547524f;
  float fe = static_cast<float>(low ? e - 1 : e);
  m = low ? (m + m) - 1.0f : m - 1.0f;
  float z = m * m;
  float p = 7.0376836292e-2f;
  p = p * m - 1.1514610310e-1f;
  p = p * m + 1.1676998740e-1f;
  p = p * m - 1.2420140846e-1f;
  p = p * m + 1.4249322787e-1f;
  p = p * m - 1.6668057665e-1f;
  p = p * m + 2.0000714765e-1f;
  p = p * m - 2.4999993993e-1f;
  p = p * m + 3.3333331174e-1f;
  float y = p * m * z;
  y = y + fe * -2.12194440e-4f;
  y = y - 0.5f * z;
  float r = m + y;
  r = r + fe * 0.693359375f;
  r = x == kInf ? kInf : r;
  r = x == 0.0f ? -kInf : r;
  r = x < 0.0f ? kNaN : r;
  r = x != x ? x : r;
  return r;
}

// sin/cos share the reduction: |x| = j * pi/4 + z with j even, |z| <= pi/4.
constexpr float kTrigLimit = 8192.0f;  // beyond, the three-part reduction loses bits: use libm

inline void trig_reduce(float ax, float& z, int32_t& oct) {
  // In double: the remainder of a float near a multiple of pi/4 needs more than 24 bits of pi
  // (a float reduction is off by up to ~100 ulp near 8192); double keeps it within 2^-40.
  int32_t j = static_cast<int32_t>(ax * 1.27323954473516f);
  j = (j + 1) & ~1;
  double y = static_cast<double>(j);
  z = static_cast<float>((static_cast<double>(ax) - y * 0.78539816339744827900) - y * 3.0616169978683830179e-17);
  oct = j & 7;
}
inline float sin_poly(float z) {
  float zz = z * z;
  return ((-1.9515295891e-4f * zz + 8.3321608736e-3f) * zz - 1.6666654611e-1f) * zz * z + z;
}
inline float cos_poly(float z) {
  float zz = z * z;
  return ((2.443315711809948e-5f * zz - 1.388731625493765e-3f) * zz + 4.166664568298827e-2f) * zz * zz -
         0.5f * zz + 1.0f;
}

inline float sin_f32(float x) {
  float ax = std::fabs(x) <= kTrigLimit ? std::fabs(x) : 0.0f;  // out-of-range lanes fixed up later
  float z;
  int32_t oct;
  trig_reduce(ax, z, oct);
  float v = (oct & 2) ? cos_poly(z) : sin_poly(z);
  v = (oct & 4) ? -v : v;
  return odd_sign(v, x);  // odd, and sin(-0.0) is -0.0
}

inline float cos_f32(float x) {
  float ax = std::fabs(x) <= kTrigLimit ? std::fabs(x) : 0.0f;
  float z;
  int32_t oct;
  trig_reduce(ax, z, oct);
  float v = (oct & 2) ? sin_poly(z) : cos_poly(z);
  return (oct == 2 || oct == 4) ? -v : v;
}

inline float tanh_f32(float x) {
  float ax = std::fabs(x);
  float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  float small = p * z * ax + ax;
  float e = exp_f32(2.0f * ax);
  float big = 1.0f - 2.0f / (e + 1.0f);
  return odd_sign(ax < 0.625f ? small : big, x);  // odd; NaN takes the big branch, which keeps it
}

template <float (*F)(float)>
void map_f32(int64_t n, const char* const* in, char* out) {
  const float* a = reinterpret_cast<const float*>(in[0]);
  float* o = reinterpret_cast<float*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = F(a[i]);
}

// ---- exp and log evaluated in float64, rounded once to float32 ----------------------------------
// numpy's own float32 exp and log (its AVX2 loops) are up to ~2.5 and ~3.8 ulp from the correctly
// rounded result, and the float32 formulations above are up to 1 ulp off themselves, so the two
// could be 3 ulp apart. These evaluate in double with ~1e-13 relative error and round once, which
// gives the correctly rounded float32 except where the exact value lies within ~1e-13 of a rounding
// midpoint (a few inputs per million; then the other neighbour, still within 1 ulp); the distance
// to numpy's result is then numpy's own error. Results in the float32 subnormal range round once
// too (their doubles are normal), and exp's overflow to inf is the final conversion's. The AVX2
// exp kernel uses the double form only for lanes whose result is not a normal float; the others
// take a float form within 0.57 ulp (ExpConsts below), which costs half the instructions.
//
// exp(x) = 2^(k/8) exp(r), k = round(8x / ln2), |r| <= ln2/16: a table of 2^(j/8), j = k mod 8, with
// k div 8 added to its exponent field; degree-6 Taylor polynomial for exp(r) (truncation < 6e-14).
constexpr double kExp2Table[8] = {1.0, 1.0905077326652577, 1.189207115002721, 1.2968395546510096,
                                  1.4142135623730951, 1.5422108254079407, 1.681792830507429, 1.8340080864093424};
constexpr float kExpClampLo = -150.0f, kExpClampHi = 89.0f;  // exp beyond: +0 and +inf in float
constexpr float kExpK = 11.541560327111707f;                   // 8 / ln2
constexpr float kShifter = 12582912.0f;                        // 1.5 * 2^23: adding it rounds to an integer
constexpr int32_t kShifterBits = 0x4B400000;
constexpr double kLn2Over8 = 0.6931471805599453 / 8;
constexpr double kExpPoly[7] = {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720};

// log(x) = k ln2 + log(c) + log1p(r): x = 2^k z with z in [kLogOff, 2 kLogOff), c the centre of one of
// 16 buckets of z (the top 4 bits of z's offset from kLogOff), r = z (1/c) - 1. 1/c is a float, so
// z (1/c) is exact in double and so is r. kLogOff puts 1.0 inside bucket 9, whose relative width
// is the same on both sides of 1.0, with c = 1: near x = 1 the result is log1p(r) alone, no
// cancellation. |r| < 0.0298; a degree-7 polynomial for log1p, r + r^2 g(r) with g fitted by
// weighted least squares (within 8e-14 of log1p relative to r; Taylor's 1/k would need degree 8).
constexpr int32_t kLogOff = 0x3f32aaab;  // 0.6979167
constexpr float kLogInvC[16] = {1.401459813117981f,  1.3426573276519775f, 1.2885905504226685f, 1.2387096881866455f,
                                1.1925466060638428f, 1.1497005224227905f, 1.1098265647888184f, 1.0726256370544434f,
                                1.0378378629684448f, 1.0f,                0.9504950046539307f, 0.8971962332725525f,
                                0.8495575189590454f, 0.8067226409912109f, 0.7679999470710754f, 0.7328243851661682f};
constexpr double kLogC[16] = {  // -log(kLogInvC[i])
    -0.33751441701821555, -0.2946507305920033, -0.25354902448324657, -0.21407026380087893,
    -0.17609102566976986, -0.1395014931766806, -0.10420375517826055, -0.07010950906590702,
    -0.03713957116384337, 0.0, 0.05077237256043477, 0.10848067465903798,
    0.16303963096979462, 0.2147753612483397, 0.26396561475233776, 0.3108491894753166};
constexpr double kLn2 = 0.6931471805599453;
constexpr double kLog1pPoly[7] = {1.0,                  -0.5000000000092085,  0.33333333311470775, -0.24999991583253506,
                                  0.20000079991495148, -0.16685880406381615, 0.14228865260277074};
constexpr float kFltMin = 1.17549435e-38f;

inline double double_of(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
inline uint64_t bits_of_double(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// The per-element forms (the scalar target; the AVX2 code below is the same arithmetic on lanes).
inline float exp_f64(float x) {
  float xc = x > kExpClampLo ? x : kExpClampLo;  // NaN becomes a number here (no invalid int conversion)
  xc = xc < kExpClampHi ? xc : kExpClampHi;
  const float t = xc * kExpK + kShifter;
  const int32_t k = bits_of(t) - kShifterBits;
  const double r = static_cast<double>(xc) - static_cast<double>(t - kShifter) * kLn2Over8;
  double p = kExpPoly[6];
  for (int i = 5; i >= 0; --i) p = p * r + kExpPoly[i];
  const double s = double_of(bits_of_double(kExp2Table[k & 7]) + (static_cast<uint64_t>(k >> 3) << 52));
  return x != x ? x : static_cast<float>(s * p);
}

inline float log_f64(float x) {
  // NaN first: < and > on NaN (comiss; GCC uses it even for std::isless under -fno-trapping-math)
  // raise invalid, which numpy's log(nan) does not
  if (x != x) return x;
  if (!(x > 0.0f && x < kInf)) return x == 0.0f ? -kInf : x < 0.0f ? kNaN : x;  // +inf: x
  const bool subnormal = x < kFltMin;
  const uint32_t b = static_cast<uint32_t>(bits_of(subnormal ? x * 8388608.0f : x));
  const int32_t tmp = static_cast<int32_t>(b - static_cast<uint32_t>(kLogOff));
  const int32_t k = (tmp >> 23) - (subnormal ? 23 : 0);
  const int i = (tmp >> 19) & 15;
  const float z = float_of(static_cast<int32_t>(b - (static_cast<uint32_t>(tmp) & 0xff800000u)));
  const double r = static_cast<double>(z) * static_cast<double>(kLogInvC[i]) - 1.0;
  double q = kLog1pPoly[6];
  for (int j = 5; j >= 0; --j) q = q * r + kLog1pPoly[j];
  const double hi = static_cast<double>(k) * kLn2 + kLogC[i];
  return static_cast<float>(r * q + hi);
}

// exp and log build inf/-inf/NaN from selects, so the hardware raises no IEEE flag for them;
// numpy's do (errstate warnings), so the conditions are collected in the same pass (an OR per
// lane) and raised once.

// What the subtraction a - shift of exp(a - shift) itself raises (inf - inf is invalid, a finite
// difference beyond the float range overflows), which numpy reports for the subtract.
inline int shift_flags(float a, float shift, float v) {
  if (std::isnan(v)) return std::isnan(a) || std::isnan(shift) ? 0 : FE_INVALID;
  if (std::isinf(v)) return std::isinf(a) || std::isinf(shift) ? 0 : FE_OVERFLOW;
  return 0;
}
#if defined(__AVX2__) && defined(__FMA__)
// The double tables as 32-bit words, which one lane permute (vpermd) looks up 8 at a time.
struct WordTables {
  alignas(32) uint32_t exp_hi[8], exp_lo[8], logc_hi[16], logc_lo[16];
};
const WordTables& word_tables() {
  static const WordTables t = [] {
    WordTables w;
    for (int j = 0; j < 8; ++j) {
      w.exp_hi[j] = static_cast<uint32_t>(bits_of_double(kExp2Table[j]) >> 32);
      w.exp_lo[j] = static_cast<uint32_t>(bits_of_double(kExp2Table[j]));
    }
    for (int j = 0; j < 16; ++j) {
      w.logc_hi[j] = static_cast<uint32_t>(bits_of_double(kLogC[j]) >> 32);
      w.logc_lo[j] = static_cast<uint32_t>(bits_of_double(kLogC[j]));
    }
    return w;
  }();
  return t;
}
inline __m256i load_words(const uint32_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }

// Eight float lanes widen to two vectors of four doubles, lanes 0-3 and 4-7. Table words are
// looked up in the order kPairOrder, so that interleaving the low and high words (unpacklo/hi,
// which work within 128-bit halves) gives the doubles of lanes 0-3 and 4-7.
inline __m256i pair_order() { return _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7); }
inline __m256d lo_pd(__m256 v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
inline __m256d hi_pd(__m256 v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }

// The fast form, for lanes whose results are normal floats: the same reduction in float
// arithmetic. 2^(j/8) is held as a float pair hi + lo (lo the next 24 bits), and
// y = hi + (hi q + lo) with q = exp(r) - 1 rounds once at the end, the other roundings adding
// < 0.07 ulp: within 0.57 ulp of the exact value (correctly rounded for all but ~1-2% of inputs,
// the rest 1 ulp off), so the distance to numpy's result is below 0.57 + numpy's own error. The
// double form costs 2.4x the instructions (widening and narrowing conversions); this one ~1.25x
// the old single-float polynomial. r = x - k ln2/8 with ln2/8 as a float pair: the first FMA is
// exact (|r| < 2^-4.5 and x, k ln2_hi lie on a 2^-28 grid), the second rounds r once.
constexpr float kExp2Hi8[8] = {1.0f, 1.0905077f, 1.1892071f, 1.2968396f, 1.4142135f, 1.5422108f, 1.6817929f, 1.8340081f};
constexpr float kExp2Lo8[8] = {0.0f,          -1.307754e-08f, 3.7976353e-08f, -4.0189995e-08f,
                               2.4203235e-08f, 8.070905e-09f,  -2.4755327e-08f, -1.1239278e-08f};

struct ExpConsts {
  __m256 k8f = _mm256_set1_ps(11.54156f), ln2_8_hi = _mm256_set1_ps(0.0866434f),
         ln2_8_lo = _mm256_set1_ps(-2.3808178e-10f);
  // (exp(r) - 1 - r) / r^2 on |r| <= ln2/16: a least-squares fit weighted towards equal error,
  // within 3e-10 of exp(r) - 1 (0.005 ulp of y); Taylor's 1/2, 1/6, 1/24 would be 1.3e-9
  __m256 q2 = _mm256_set1_ps(0.5000003f), q3 = _mm256_set1_ps(0.16668053f), q4 = _mm256_set1_ps(0.04148023f);
  __m256 tab_hi_f = _mm256_loadu_ps(kExp2Hi8), tab_lo_f = _mm256_loadu_ps(kExp2Lo8);
  __m256i e_mask = _mm256_set1_epi32(static_cast<int32_t>(0xff800000u));
  // y in [0.95, 1.92] times 2^(k div 8) is normal and finite for -1000 <= k <= 1023: the lanes
  // outside (and NaN, +-inf, whose t is far outside) take the double form.
  __m256i k_bias = _mm256_set1_epi32(kShifterBits - 1000), k_span = _mm256_set1_epi32(2023);
  __m256 clamp_lo = _mm256_set1_ps(kExpClampLo), clamp_hi = _mm256_set1_ps(kExpClampHi);
  __m256 k8 = _mm256_set1_ps(kExpK), shifter = _mm256_set1_ps(kShifter);
  __m256i shifter_bits = _mm256_set1_epi32(kShifterBits), order = pair_order();
  __m256i tab_hi = load_words(word_tables().exp_hi), tab_lo = load_words(word_tables().exp_lo);
  __m256d ln2_8 = _mm256_set1_pd(kLn2Over8);
  __m256d c0 = _mm256_set1_pd(kExpPoly[0]), c1 = _mm256_set1_pd(kExpPoly[1]), c2 = _mm256_set1_pd(kExpPoly[2]),
          c3 = _mm256_set1_pd(kExpPoly[3]), c4 = _mm256_set1_pd(kExpPoly[4]), c5 = _mm256_set1_pd(kExpPoly[5]),
          c6 = _mm256_set1_pd(kExpPoly[6]);
};

inline __m128 exp_half(const ExpConsts& k, __m256d x, __m256d kf, __m256d scale) {
  const __m256d r = _mm256_fnmadd_pd(kf, k.ln2_8, x);
  __m256d p = _mm256_fmadd_pd(k.c6, r, k.c5);
  p = _mm256_fmadd_pd(p, r, k.c4);
  p = _mm256_fmadd_pd(p, r, k.c3);
  p = _mm256_fmadd_pd(p, r, k.c2);
  p = _mm256_fmadd_pd(p, r, k.c1);
  p = _mm256_fmadd_pd(p, r, k.c0);
  return _mm256_cvtpd_ps(_mm256_mul_pd(scale, p));
}

// exp_f64 on eight lanes, any input.
inline __m256 exp8_f64(const ExpConsts& k, __m256 x) {
  const __m256 xc = _mm256_min_ps(_mm256_max_ps(x, k.clamp_lo), k.clamp_hi);  // max(NaN, lo) is lo
  const __m256 t = _mm256_fmadd_ps(xc, k.k8, k.shifter);
  const __m256 kf = _mm256_sub_ps(t, k.shifter);
  const __m256i kp = _mm256_permutevar8x32_epi32(_mm256_sub_epi32(_mm256_castps_si256(t), k.shifter_bits), k.order);
  // vpermd reads the low 3 bits of each index: k mod 8; k div 8 goes into the exponent field
  const __m256i hi = _mm256_add_epi32(_mm256_permutevar8x32_epi32(k.tab_hi, kp),
                                      _mm256_slli_epi32(_mm256_srai_epi32(kp, 3), 20));
  const __m256i lo = _mm256_permutevar8x32_epi32(k.tab_lo, kp);
  const __m128 y0 = exp_half(k, lo_pd(xc), lo_pd(kf), _mm256_castsi256_pd(_mm256_unpacklo_epi32(lo, hi)));
  const __m128 y1 = exp_half(k, hi_pd(xc), hi_pd(kf), _mm256_castsi256_pd(_mm256_unpackhi_epi32(lo, hi)));
  const __m256 y = _mm256_set_m128(y1, y0);
  return _mm256_blendv_ps(y, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));  // NaN keeps its payload
}

// The fast form on eight lanes; u (unsigned) <= k_span marks the lanes it is valid for.
inline __m256 exp_fast8(const ExpConsts& k, __m256 x, __m256i& u) {
  const __m256 t = _mm256_fmadd_ps(x, k.k8f, k.shifter);
  const __m256 kf = _mm256_sub_ps(t, k.shifter);
  const __m256i tb = _mm256_castps_si256(t);  // k in the low bits (bits(shifter) has 22 low zeros)
  const __m256 rh = _mm256_fnmadd_ps(kf, k.ln2_8_hi, x);
  const __m256 r = _mm256_fnmadd_ps(kf, k.ln2_8_lo, rh);
  const __m256 p = _mm256_fmadd_ps(_mm256_fmadd_ps(k.q4, r, k.q3), r, k.q2);
  const __m256 q = _mm256_fmadd_ps(_mm256_mul_ps(r, r), p, r);
  // vpermps reads the low 3 bits of each index: k mod 8
  const __m256 hi = _mm256_permutevar8x32_ps(k.tab_hi_f, tb), lo = _mm256_permutevar8x32_ps(k.tab_lo_f, tb);
  const __m256 y = _mm256_add_ps(hi, _mm256_fmadd_ps(hi, q, lo));
  u = _mm256_sub_epi32(tb, k.k_bias);
  // 2^(k div 8) into the exponent field: (k << 20) with the low 23 bits cleared
  return _mm256_castsi256_ps(
      _mm256_add_epi32(_mm256_castps_si256(y), _mm256_and_si256(_mm256_slli_epi32(tb, 20), k.e_mask)));
}
inline bool exp_fast_ok(const ExpConsts& k, __m256i u) {
  return _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(u, k.k_span), k.k_span)) == -1;
}
// Lanes the fast form is not valid for, from the double form (rare): per lane, so an element's
// result does not depend on its neighbours.
__attribute__((noinline)) __m256 exp_fix(const ExpConsts& k, __m256 x, __m256 y, __m256i u) {
  const __m256 ok = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_max_epu32(u, k.k_span), k.k_span));
  return _mm256_blendv_ps(exp8_f64(k, x), y, ok);
}

// Reads MXCSR on entry (a few cycles) and writes it back on exit only if some lane was outside
// the fast form's range: such lanes raise spurious flags there (r * r overflows for x = -1e30) and
// in the double form (exp(inf) = inf overflows the conversion), so the flags numpy reports are
// raised explicitly instead.
struct ExpFlagGuard {
  unsigned csr = _mm_getcsr();
  bool dirty = false;
  int sub_fe = 0;  // the subtraction's own conditions (exp_flags)
  ~ExpFlagGuard() {
    if (!dirty) return;
    _mm_setcsr(csr);
    if (sub_fe) fp_status_raise(sub_fe);
  }
};

// The conditions of a run of elements with some lane outside the safe range (rare).
__attribute__((noinline)) bool exp_flags(int64_t n, const float* a, float shift, ExpFlagGuard& guard) {
  guard.dirty = true;
  int over = 0;
  for (int64_t i = 0; i < n; ++i) {
    float v = a[i] - shift;
    over |= (v > 88.72283172607422f) & (v < kInf);  // exp(inf) = inf is exact: no overflow
    guard.sub_fe |= shift_flags(a[i], shift, v);
  }
  return over;
}

// The last n < 16 elements through padded vectors, so an element's result never depends on
// where it sits.
__attribute__((noinline)) bool exp_tail(const ExpConsts& k, int64_t n, const float* a, float shift, float* o,
                                        ExpFlagGuard& guard) {
  bool over = false;
  for (int64_t i = 0; i < n; i += 8) {
    const int64_t m = n - i < 8 ? n - i : 8;
    alignas(32) float buf[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};  // exp(0) = 1 is safe
    for (int64_t j = 0; j < m; ++j) buf[j] = a[i + j] - shift;
    const __m256 x = _mm256_load_ps(buf);
    __m256i u;
    __m256 y = exp_fast8(k, x, u);
    if (!exp_fast_ok(k, u)) {
      over |= exp_flags(m, a + i, shift, guard);
      y = exp_fix(k, x, y, u);
    }
    _mm256_store_ps(buf, y);
    std::memcpy(o + i, buf, m * sizeof(float));  // after reading a: o may be a (in place)
  }
  return over;
}

// out[i] = exp(a[i] - shift); returns whether some a[i] - shift overflows. Two vectors per
// iteration: the polynomial is one dependent chain, two keep both FMA pipes busy. Plain exp
// (Shift false) skips the subtraction of 0, which changes no value.
template <bool Shift>
bool exp_run(int64_t n, const float* a, float shift, float* o) {
  const ExpConsts k;
  const __m256 s = _mm256_set1_ps(shift);
  ExpFlagGuard guard;
  bool over = false;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256 x0 = _mm256_loadu_ps(a + i), x1 = _mm256_loadu_ps(a + i + 8);
    if (Shift) {
      x0 = _mm256_sub_ps(x0, s);
      x1 = _mm256_sub_ps(x1, s);
    }
    __m256i u0, u1;
    __m256 y0 = exp_fast8(k, x0, u0), y1 = exp_fast8(k, x1, u1);
    if (__builtin_expect(!exp_fast_ok(k, _mm256_max_epu32(u0, u1)), 0)) {
      over |= exp_flags(16, a + i, shift, guard);  // before the stores: o may be a (in place)
      y0 = exp_fix(k, x0, y0, u0);
      y1 = exp_fix(k, x1, y1, u1);
    }
    _mm256_storeu_ps(o + i, y0);
    _mm256_storeu_ps(o + i + 8, y1);
  }
  if (i < n) over |= exp_tail(k, n - i, a + i, shift, o + i, guard);
  return over;
}
[[maybe_unused]] bool exp_shifted8(int64_t n, const float* a, float shift, float* o) {
  return shift == 0.0f ? exp_run<false>(n, a, shift, o) : exp_run<true>(n, a, shift, o);
}

// ---- exp(x - m) and the sum of the results in one pass (softmax's exp then sum) ----------------
// The sum is numpy's pairwise float sum (reduce_kernels.cpp, Pairwise): the run is split in halves
// (the left a multiple of 8) down to leaves of <= 128, each leaf summed by eight lane
// accumulators in order, then combine8, then its last n % 8 elements one by one; leaves combine
// back up the same tree. Each leaf's exps are added as they are made, so the adds' latency hides
// under the exp arithmetic instead of a second, latency-bound pass over the row.
void pairwise_leaves(int64_t n, int64_t* len, int& k) {
  if (n <= 128) {
    len[k++] = n;
    return;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  pairwise_leaves(n2, len, k);
  pairwise_leaves(n - n2, len, k);
}
float pairwise_combine(int64_t n, const float* sums, int& k) {
  if (n <= 128) return sums[k++];
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  float a = pairwise_combine(n2, sums, k);
  return a + pairwise_combine(n - n2, sums, k);
}

// out[i] = exp(a[i] - shift), *sum = their pairwise sum (8 <= n <= kExpSumMaxN).
constexpr int64_t kExpSumMaxN = 16384;
[[maybe_unused]] bool exp_sum_shifted8(int64_t n, const float* a, float shift, float* o, float* sum) {
  int64_t len[kExpSumMaxN / 32];
  float sums[kExpSumMaxN / 32];
  int nleaves = 0;
  pairwise_leaves(n, len, nleaves);
  const ExpConsts k;
  const __m256 s = _mm256_set1_ps(shift);
  ExpFlagGuard guard;
  bool over = false;
  int64_t i = 0;
  for (int l = 0; l < nleaves; ++l) {
    const int64_t end = i + len[l], vend = i + len[l] - len[l] % 8;
    __m256 r = _mm256_setzero_ps();  // 0 + e is e: exp is never -0.0
    for (; i + 16 <= vend; i += 16) {
      __m256 x0 = _mm256_sub_ps(_mm256_loadu_ps(a + i), s), x1 = _mm256_sub_ps(_mm256_loadu_ps(a + i + 8), s);
      __m256i u0, u1;
      __m256 y0 = exp_fast8(k, x0, u0), y1 = exp_fast8(k, x1, u1);
      if (__builtin_expect(!exp_fast_ok(k, _mm256_max_epu32(u0, u1)), 0)) {
        over |= exp_flags(16, a + i, shift, guard);
        y0 = exp_fix(k, x0, y0, u0);
        y1 = exp_fix(k, x1, y1, u1);
      }
      _mm256_storeu_ps(o + i, y0);
      _mm256_storeu_ps(o + i + 8, y1);
      r = _mm256_add_ps(r, y0);
      r = _mm256_add_ps(r, y1);
    }
    if (i < vend) {  // one vector left in the leaf
      const __m256 x0 = _mm256_sub_ps(_mm256_loadu_ps(a + i), s);
      __m256i u0;
      __m256 y0 = exp_fast8(k, x0, u0);
      if (!exp_fast_ok(k, u0)) {
        over |= exp_flags(8, a + i, shift, guard);
        y0 = exp_fix(k, x0, y0, u0);
      }
      _mm256_storeu_ps(o + i, y0);
      r = _mm256_add_ps(r, y0);
      i += 8;
    }
    alignas(32) float v[8];
    _mm256_store_ps(v, r);
    float res = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
    if (i < end) {
      over |= exp_tail(k, end - i, a + i, shift, o + i, guard);
      for (; i < end; ++i) res += o[i];
    }
    sums[l] = res;
  }
  int c = 0;
  *sum = pairwise_combine(n, sums, c);
  return over;
}

#if defined(__AVX512F__) && defined(__AVX512DQ__)
// ---- the fast form on sixteen lanes (AVX-512) ----------------------------------------------------
// Lane for lane the arithmetic of exp_fast8: the 8-entry tables are repeated in both halves of a
// 16-entry one, so vpermps over 16 lanes still reads entry k mod 8. The results are therefore the
// AVX2 kernel's bits, with half its instructions: a Zen 4 core runs 512-bit operations in two
// halves, so the gain is the front end's and the range check's (k masks instead of a compare and
// movemask), 1.4x for exp and 1.35x for exp with the row sum (benchmarks/native/exp_sum_ab.cpp).
struct ExpConsts16 {
  __m512 k8f = _mm512_set1_ps(11.54156f), ln2_8_hi = _mm512_set1_ps(0.0866434f),
         ln2_8_lo = _mm512_set1_ps(-2.3808178e-10f);
  __m512 q2 = _mm512_set1_ps(0.5000003f), q3 = _mm512_set1_ps(0.16668053f), q4 = _mm512_set1_ps(0.04148023f);
  __m512 tab_hi = twice(kExp2Hi8), tab_lo = twice(kExp2Lo8);
  __m512i e_mask = _mm512_set1_epi32(static_cast<int32_t>(0xff800000u));
  __m512i k_bias = _mm512_set1_epi32(kShifterBits - 1000), k_span = _mm512_set1_epi32(2023);
  __m512 shifter = _mm512_set1_ps(kShifter);
  static __m512 twice(const float* t8) {
    const __m256 t = _mm256_loadu_ps(t8);
    return _mm512_insertf32x8(_mm512_castps256_ps512(t), t, 1);
  }
};

// exp_fast8 on sixteen lanes; `ok` marks the lanes the fast form is valid for.
inline __m512 exp_fast16(const ExpConsts16& k, __m512 x, __mmask16& ok) {
  const __m512 t = _mm512_fmadd_ps(x, k.k8f, k.shifter);
  const __m512 kf = _mm512_sub_ps(t, k.shifter);
  const __m512i tb = _mm512_castps_si512(t);
  const __m512 rh = _mm512_fnmadd_ps(kf, k.ln2_8_hi, x);
  const __m512 r = _mm512_fnmadd_ps(kf, k.ln2_8_lo, rh);
  const __m512 p = _mm512_fmadd_ps(_mm512_fmadd_ps(k.q4, r, k.q3), r, k.q2);
  const __m512 q = _mm512_fmadd_ps(_mm512_mul_ps(r, r), p, r);
  const __m512 hi = _mm512_permutexvar_ps(tb, k.tab_hi), lo = _mm512_permutexvar_ps(tb, k.tab_lo);
  const __m512 y = _mm512_add_ps(hi, _mm512_fmadd_ps(hi, q, lo));
  ok = _mm512_cmple_epu32_mask(_mm512_sub_epi32(tb, k.k_bias), k.k_span);
  return _mm512_castsi512_ps(
      _mm512_add_epi32(_mm512_castps_si512(y), _mm512_and_si512(_mm512_slli_epi32(tb, 20), k.e_mask)));
}

// All sixteen lanes through the 8-lane path, which takes the double form where the fast one is not
// valid (rare; the valid lanes get the same bits either way).
__attribute__((noinline)) __m512 exp_fix16(__m512 x) {
  const ExpConsts k;
  const __m256 xl = _mm512_castps512_ps256(x), xh = _mm512_extractf32x8_ps(x, 1);
  __m256i ul, uh;
  const __m256 yl = exp_fast8(k, xl, ul), yh = exp_fast8(k, xh, uh);
  return _mm512_insertf32x8(_mm512_castps256_ps512(exp_fix(k, xl, yl, ul)), exp_fix(k, xh, yh, uh), 1);
}

// exp(a[i] - shift) for the first n <= 16 elements of a (masked: the other lanes compute exp(0),
// which is safe, and nothing outside a[0, n) is read).
inline __m512 exp16_part(const ExpConsts16& k, const float* a, int64_t n, __m512 s, float shift, bool& over,
                         ExpFlagGuard& guard) {
  const __mmask16 m = static_cast<__mmask16>((1u << n) - 1u);
  const __m512 x = _mm512_maskz_sub_ps(m, _mm512_maskz_loadu_ps(m, a), s);
  __mmask16 ok;
  const __m512 y = exp_fast16(k, x, ok);
  if (__builtin_expect(ok == 0xffff, 1)) return y;
  over |= exp_flags(n, a, shift, guard);
  return exp_fix16(x);
}

template <bool Shift>
bool exp_run16(int64_t n, const float* a, float shift, float* o) {
  const ExpConsts16 k;
  const __m512 s = _mm512_set1_ps(shift);
  ExpFlagGuard guard;
  bool over = false;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m512 x0 = _mm512_loadu_ps(a + i), x1 = _mm512_loadu_ps(a + i + 16);
    if (Shift) {
      x0 = _mm512_sub_ps(x0, s);
      x1 = _mm512_sub_ps(x1, s);
    }
    __mmask16 ok0, ok1;
    __m512 y0 = exp_fast16(k, x0, ok0), y1 = exp_fast16(k, x1, ok1);
    if (__builtin_expect((ok0 & ok1) != 0xffff, 0)) {
      over |= exp_flags(32, a + i, shift, guard);  // before the stores: o may be a (in place)
      y0 = exp_fix16(x0);
      y1 = exp_fix16(x1);
    }
    _mm512_storeu_ps(o + i, y0);
    _mm512_storeu_ps(o + i + 16, y1);
  }
  for (; i < n; i += 16) {
    const int64_t m = n - i < 16 ? n - i : 16;
    const __m512 y = exp16_part(k, a + i, m, s, shift, over, guard);
    _mm512_mask_storeu_ps(o + i, static_cast<__mmask16>((1u << m) - 1u), y);
  }
  return over;
}

// The rest of one pairwise leaf p[j, n) of exp_sum16 (j a multiple of 8), r its eight lane
// accumulators so far: exps stored to q, and the leaf's sum in numpy's order returned.
__attribute__((always_inline)) inline float exp16_leaf_rest(const ExpConsts16& k, const float* p, float* q, int64_t j,
                                                             int64_t n, __m256 r, __m512 s, float shift, bool& over,
                                                             ExpFlagGuard& guard) {
  const int64_t vend = n - n % 8;
  for (; j + 16 <= vend; j += 16) {
    const __m512 x = _mm512_sub_ps(_mm512_loadu_ps(p + j), s);
    __mmask16 ok;
    __m512 y = exp_fast16(k, x, ok);
    if (__builtin_expect(ok != 0xffff, 0)) {
      over |= exp_flags(16, p + j, shift, guard);
      y = exp_fix16(x);
    }
    _mm512_storeu_ps(q + j, y);
    r = _mm256_add_ps(_mm256_add_ps(r, _mm512_castps512_ps256(y)), _mm512_extractf32x8_ps(y, 1));
  }
  if (j < vend) {  // one vector of 8 left
    const __m512 y = exp16_part(k, p + j, 8, s, shift, over, guard);
    _mm256_storeu_ps(q + j, _mm512_castps512_ps256(y));
    r = _mm256_add_ps(r, _mm512_castps512_ps256(y));
    j += 8;
  }
  alignas(32) float v[8];
  _mm256_store_ps(v, r);
  float res = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
  if (j < n) {
    const __m512 y = exp16_part(k, p + j, n - j, s, shift, over, guard);
    _mm512_mask_storeu_ps(q + j, static_cast<__mmask16>((1u << (n - j)) - 1u), y);
    for (; j < n; ++j) res += q[j];
  }
  return res;
}

// No other work beside exp_sum16's.
struct NoSide {
  void step() {}
  void finish() {}
};

// The previous softmax row's e / s (ExpSumDivFn), 64 elements per step(): exp_sum16 calls step()
// once per 64 exps, so the streaming stores leave at the pace the exps are computed.
class DivSide {
 public:
  DivSide(int64_t n, const float* e, float s, float* o, const char* pf, int64_t pf_bytes)
      : e_(e), o_(o), s1_(s), s_(_mm512_set1_ps(s)), n_(n), pf_(pf), pf_end_(pf + pf_bytes) {
    for (; i_ < n && (reinterpret_cast<uintptr_t>(o + i_) & 63) != 0; ++i_) o[i_] = e[i_] / s;  // to aligned stores
    vend_ = i_ + (n - i_) / 64 * 64;
    iters_ = (vend_ - i_) / 64;
    lines_ = (pf_bytes + 63) / 64;
  }
  __attribute__((always_inline)) void step() {
    if (i_ >= vend_) return;
    for (int k = 0; k < 64; k += 16)
      _mm512_stream_ps(o_ + i_ + k, _mm512_div_ps(_mm512_loadu_ps(e_ + i_ + k), s_));
    i_ += 64;
    // after j of the iters_ steps, floor(j * lines_ / iters_) lines: spread evenly over the row
    for (acc_ += lines_; acc_ >= iters_; acc_ -= iters_, pf_ += 64) _mm_prefetch(pf_, _MM_HINT_T1);
  }
  void finish() {
    while (i_ < vend_) step();
    for (; i_ + 16 <= n_; i_ += 16) _mm512_stream_ps(o_ + i_, _mm512_div_ps(_mm512_loadu_ps(e_ + i_), s_));
    for (; i_ < n_; ++i_) o_[i_] = e_[i_] / s1_;
    for (; pf_ < pf_end_; pf_ += 64) _mm_prefetch(pf_, _MM_HINT_T1);
  }

 private:
  const float* e_;
  float* o_;
  float s1_;
  __m512 s_;
  int64_t n_, i_ = 0, vend_ = 0, iters_ = 0, lines_ = 0, acc_ = 0;
  const char *pf_, *pf_end_;
};

// exp_sum_shifted8 on sixteen lanes. numpy's leaf order (eight lane accumulators, r += e[j..j+8)
// in order) is one chain of dependent adds per leaf, so four leaves run in lockstep, each a
// separate chain, and a 16-element vector of one leaf is added as its two halves in order.
// side.step() runs once per lockstep iteration (64 exps), side.finish() at the end.
template <class Side>
bool exp_sum16(int64_t n, const float* a, float shift, float* o, float* sum, Side& side) {
  int64_t len[kExpSumMaxN / 32], start[kExpSumMaxN / 32];
  float sums[kExpSumMaxN / 32];
  int nleaves = 0;
  pairwise_leaves(n, len, nleaves);
  for (int l = 0, off = 0; l < nleaves; ++l) start[l] = off, off += static_cast<int>(len[l]);
  const ExpConsts16 k;
  const __m512 s = _mm512_set1_ps(shift);
  ExpFlagGuard guard;
  bool over = false;
  int l = 0;
  for (; l + 4 <= nleaves; l += 4) {
    int64_t m = len[l] - len[l] % 16;
    for (int t = 1; t < 4; ++t) m = std::min(m, len[l + t] - len[l + t] % 16);
    const float *p0 = a + start[l], *p1 = a + start[l + 1], *p2 = a + start[l + 2], *p3 = a + start[l + 3];
    float *o0 = o + start[l], *o1 = o + start[l + 1], *o2 = o + start[l + 2], *o3 = o + start[l + 3];
    __m256 r0 = _mm256_setzero_ps(), r1 = r0, r2 = r0, r3 = r0;  // 0 + e is e: exp is never -0.0
    for (int64_t j = 0; j < m; j += 16) {
      __m512 x0 = _mm512_sub_ps(_mm512_loadu_ps(p0 + j), s), x1 = _mm512_sub_ps(_mm512_loadu_ps(p1 + j), s);
      __m512 x2 = _mm512_sub_ps(_mm512_loadu_ps(p2 + j), s), x3 = _mm512_sub_ps(_mm512_loadu_ps(p3 + j), s);
      __mmask16 ok0, ok1, ok2, ok3;
      __m512 y0 = exp_fast16(k, x0, ok0), y1 = exp_fast16(k, x1, ok1);
      __m512 y2 = exp_fast16(k, x2, ok2), y3 = exp_fast16(k, x3, ok3);
      if (__builtin_expect((ok0 & ok1 & ok2 & ok3) != 0xffff, 0)) {
        over |= exp_flags(16, p0 + j, shift, guard) | exp_flags(16, p1 + j, shift, guard) |
                exp_flags(16, p2 + j, shift, guard) | exp_flags(16, p3 + j, shift, guard);
        y0 = exp_fix16(x0), y1 = exp_fix16(x1), y2 = exp_fix16(x2), y3 = exp_fix16(x3);
      }
      _mm512_storeu_ps(o0 + j, y0), _mm512_storeu_ps(o1 + j, y1);
      _mm512_storeu_ps(o2 + j, y2), _mm512_storeu_ps(o3 + j, y3);
      r0 = _mm256_add_ps(_mm256_add_ps(r0, _mm256_loadu_ps(o0 + j)), _mm256_loadu_ps(o0 + j + 8));
      r1 = _mm256_add_ps(_mm256_add_ps(r1, _mm256_loadu_ps(o1 + j)), _mm256_loadu_ps(o1 + j + 8));
      r2 = _mm256_add_ps(_mm256_add_ps(r2, _mm256_loadu_ps(o2 + j)), _mm256_loadu_ps(o2 + j + 8));
      r3 = _mm256_add_ps(_mm256_add_ps(r3, _mm256_loadu_ps(o3 + j)), _mm256_loadu_ps(o3 + j + 8));
      side.step();
    }
    const __m256 rs[4] = {r0, r1, r2, r3};
    for (int t = 0; t < 4; ++t)
      sums[l + t] = exp16_leaf_rest(k, a + start[l + t], o + start[l + t], m, len[l + t], rs[t], s, shift, over, guard);
  }
  for (; l < nleaves; ++l)
    sums[l] = exp16_leaf_rest(k, a + start[l], o + start[l], 0, len[l], _mm256_setzero_ps(), s, shift, over, guard);
  side.finish();
  int c = 0;
  *sum = pairwise_combine(n, sums, c);
  return over;
}

bool exp_sum_div_f32(int64_t n, const float* a, float shift, float* o, float* sum, const float* prev_e, float prev_s,
                     float* prev_out, const char* pf, int64_t pf_bytes) {
  DivSide side(n, prev_e, prev_s, prev_out, pf, pf_bytes);
  return exp_sum16(n, a, shift, o, sum, side);
}
#endif

// The table's entries: the widest form this target has.
bool exp_shifted_f32(int64_t n, const float* a, float shift, float* o) {
#if defined(__AVX512F__) && defined(__AVX512DQ__)
  return shift == 0.0f ? exp_run16<false>(n, a, shift, o) : exp_run16<true>(n, a, shift, o);
#else
  return exp_shifted8(n, a, shift, o);
#endif
}
bool exp_sum_shifted_f32(int64_t n, const float* a, float shift, float* o, float* sum) {
#if defined(__AVX512F__) && defined(__AVX512DQ__)
  NoSide none;
  return exp_sum16(n, a, shift, o, sum, none);
#else
  return exp_sum_shifted8(n, a, shift, o, sum);
#endif
}

struct LogConsts {
  __m256 tiny = _mm256_set1_ps(kFltMin), two23 = _mm256_set1_ps(8388608.0f);
  __m256i off = _mm256_set1_epi32(kLogOff), exp_mask = _mm256_set1_epi32(static_cast<int32_t>(0xff800000u));
  __m256i i23 = _mm256_set1_epi32(23), order = pair_order();
  __m256 invc_a = _mm256_loadu_ps(kLogInvC), invc_b = _mm256_loadu_ps(kLogInvC + 8);
  __m256i lch_a = load_words(word_tables().logc_hi), lch_b = load_words(word_tables().logc_hi + 8);
  __m256i lcl_a = load_words(word_tables().logc_lo), lcl_b = load_words(word_tables().logc_lo + 8);
  __m256d one = _mm256_set1_pd(1.0), ln2 = _mm256_set1_pd(kLn2);
  __m256d c1 = _mm256_set1_pd(kLog1pPoly[0]), c2 = _mm256_set1_pd(kLog1pPoly[1]), c3 = _mm256_set1_pd(kLog1pPoly[2]),
          c4 = _mm256_set1_pd(kLog1pPoly[3]), c5 = _mm256_set1_pd(kLog1pPoly[4]), c6 = _mm256_set1_pd(kLog1pPoly[5]),
          c7 = _mm256_set1_pd(kLog1pPoly[6]);
  __m256i normal_lo = _mm256_set1_epi32(0x00800000), normal_span = _mm256_set1_epi32(0x7f7fffff - 0x00800000);
  __m256 zero = _mm256_setzero_ps(), inf = _mm256_set1_ps(kInf), neg_inf = _mm256_set1_ps(-kInf),
         nan = _mm256_set1_ps(kNaN);
};

// 16-entry lookup: two vpermd over the halves of the table, picked by bit 3 of the index.
inline __m256i lookup16(__m256i a, __m256i b, __m256i idx) {
  const __m256 upper = _mm256_castsi256_ps(_mm256_slli_epi32(idx, 28));
  return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(a, idx)),
                                              _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(b, idx)), upper));
}

inline __m128 log_half(const LogConsts& k, __m256d z, __m256d invc, __m256d kd, __m256d logc) {
  const __m256d r = _mm256_fmsub_pd(z, invc, k.one);  // exact
  __m256d q = _mm256_fmadd_pd(k.c7, r, k.c6);
  q = _mm256_fmadd_pd(q, r, k.c5);
  q = _mm256_fmadd_pd(q, r, k.c4);
  q = _mm256_fmadd_pd(q, r, k.c3);
  q = _mm256_fmadd_pd(q, r, k.c2);
  q = _mm256_fmadd_pd(q, r, k.c1);
  const __m256d hi = _mm256_fmadd_pd(kd, k.ln2, logc);
  return _mm256_cvtpd_ps(_mm256_fmadd_pd(r, q, hi));
}

// log_f64 on eight lanes; Any: any input, else positive normal floats only (the common case,
// which skips the subnormal scaling and the special values). A normal lane gets the same bits
// either way.
template <bool Any>
inline __m256 log8(const LogConsts& k, __m256 x) {
  __m256 subnormal = _mm256_setzero_ps();
  __m256i b = _mm256_castps_si256(x);
  if (Any) {  // and zero, negatives: fixed below
    subnormal = _mm256_cmp_ps(x, k.tiny, _CMP_LT_OQ);
    b = _mm256_castps_si256(_mm256_blendv_ps(x, _mm256_mul_ps(x, k.two23), subnormal));
  }
  const __m256i tmp = _mm256_sub_epi32(b, k.off);
  __m256i ki = _mm256_srai_epi32(tmp, 23);
  if (Any) ki = _mm256_sub_epi32(ki, _mm256_and_si256(_mm256_castps_si256(subnormal), k.i23));
  const __m256 z = _mm256_castsi256_ps(_mm256_sub_epi32(b, _mm256_and_si256(tmp, k.exp_mask)));
  const __m256i idx = _mm256_srli_epi32(tmp, 19);  // bucket in bits 0-3
  const __m256 invc = _mm256_castsi256_ps(
      lookup16(_mm256_castps_si256(k.invc_a), _mm256_castps_si256(k.invc_b), idx));
  const __m256i ip = _mm256_permutevar8x32_epi32(idx, k.order);
  const __m256i lch = lookup16(k.lch_a, k.lch_b, ip), lcl = lookup16(k.lcl_a, k.lcl_b, ip);
  const __m128 y0 = log_half(k, lo_pd(z), lo_pd(invc), _mm256_cvtepi32_pd(_mm256_castsi256_si128(ki)),
                             _mm256_castsi256_pd(_mm256_unpacklo_epi32(lcl, lch)));
  const __m128 y1 = log_half(k, hi_pd(z), hi_pd(invc), _mm256_cvtepi32_pd(_mm256_extracti128_si256(ki, 1)),
                             _mm256_castsi256_pd(_mm256_unpackhi_epi32(lcl, lch)));
  __m256 y = _mm256_set_m128(y1, y0);
  if (Any) {
    const __m256 ok = _mm256_and_ps(_mm256_cmp_ps(x, k.zero, _CMP_GT_OQ), _mm256_cmp_ps(x, k.inf, _CMP_LT_OQ));
    if (_mm256_movemask_ps(ok) != 0xff) {  // 0, negatives, +inf, NaN
      __m256 special = _mm256_blendv_ps(x, k.nan, _mm256_cmp_ps(x, k.zero, _CMP_LT_OQ));
      special = _mm256_blendv_ps(special, k.neg_inf, _mm256_cmp_ps(x, k.zero, _CMP_EQ_OQ));
      y = _mm256_blendv_ps(special, y, ok);
    }
  }
  return y;
}

// All eight lanes positive normal floats (bits - 2^23 within the span, unsigned).
inline bool all_normal(const LogConsts& k, __m256 x) {
  const __m256i u = _mm256_sub_epi32(_mm256_castps_si256(x), k.normal_lo);
  return _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(u, k.normal_span), k.normal_span)) == -1;
}

// The other vectors: every lane through the full form, and the conditions numpy reports. Inline:
// a call in the loop would clobber every ymm register, and the loop would rebuild its constants.
__attribute__((always_inline)) inline __m256 log8_special(const LogConsts& k, __m256 x, __m256& zero, __m256& negative) {
  zero = _mm256_or_ps(zero, _mm256_cmp_ps(x, k.zero, _CMP_EQ_OQ));
  negative = _mm256_or_ps(negative, _mm256_cmp_ps(x, k.zero, _CMP_LT_OQ));
  return log8<true>(k, x);
}

#if defined(__AVX512F__) && defined(__AVX512DQ__)
// ---- log on sixteen lanes (AVX-512) --------------------------------------------------------------
// Lane for lane the arithmetic of log8 / log_half (the same reduction, the same fmsub/fmadd chain in
// double), so the bits are the AVX2 and scalar targets'. What changes is the plumbing: the 16-entry
// 1/c table is one zmm (vpermps reads index bits 0-3), the 16 double log(c) entries two zmm read by
// one vpermt2pd per 8 lanes (bits 0-2 pick the entry, bit 3 the table), and the checks are k masks
// instead of compares, blends and movemasks (the AVX2 form makes three 16-entry lookups per 8 floats,
// each two vpermd and a blend). 1.45-1.6x the AVX2 loop (benchmarks/native/log_ab.cpp, which also
// checks all 2^32 inputs against it and the scalar form). The floor is the double arithmetic
// itself, 18 zmm FMAs per 16 floats, which the bits require: a 16-lane loop of just those FMAs and
// the two conversions runs at ~2/3 of this one's time; 8-lane groups reduced on the widened
// double's bits, or the Horner chains of four groups interleaved by hand, were no faster.
struct LogConsts16 {
  __m512 invc = _mm512_loadu_ps(kLogInvC);
  __m512d lc_a = _mm512_loadu_pd(kLogC), lc_b = _mm512_loadu_pd(kLogC + 8);
  __m512i off = _mm512_set1_epi32(kLogOff), exp_mask = _mm512_set1_epi32(static_cast<int32_t>(0xff800000u));
  __m512i i23 = _mm512_set1_epi32(23), one_i = _mm512_set1_epi32(1), sub_span = _mm512_set1_epi32(0x007fffff - 1);
  __m512i normal_lo = _mm512_set1_epi32(0x00800000), normal_span = _mm512_set1_epi32(0x7f7fffff - 0x00800000);
  __m512 two23 = _mm512_set1_ps(8388608.0f), one_f = _mm512_set1_ps(1.0f), zero = _mm512_setzero_ps(),
         inf = _mm512_set1_ps(kInf), neg_inf = _mm512_set1_ps(-kInf), nan = _mm512_set1_ps(kNaN);
  __m512d one = _mm512_set1_pd(1.0), ln2 = _mm512_set1_pd(kLn2);
  __m512d c1 = _mm512_set1_pd(kLog1pPoly[0]), c2 = _mm512_set1_pd(kLog1pPoly[1]), c3 = _mm512_set1_pd(kLog1pPoly[2]),
          c4 = _mm512_set1_pd(kLog1pPoly[3]), c5 = _mm512_set1_pd(kLog1pPoly[4]), c6 = _mm512_set1_pd(kLog1pPoly[5]),
          c7 = _mm512_set1_pd(kLog1pPoly[6]);
};

// log_half on eight doubles.
inline __m256 log_half16(const LogConsts16& k, __m512d z, __m512d invc, __m512d kd, __m512d logc) {
  const __m512d r = _mm512_fmsub_pd(z, invc, k.one);  // exact
  __m512d q = _mm512_fmadd_pd(k.c7, r, k.c6);
  q = _mm512_fmadd_pd(q, r, k.c5);
  q = _mm512_fmadd_pd(q, r, k.c4);
  q = _mm512_fmadd_pd(q, r, k.c3);
  q = _mm512_fmadd_pd(q, r, k.c2);
  q = _mm512_fmadd_pd(q, r, k.c1);
  const __m512d hi = _mm512_fmadd_pd(kd, k.ln2, logc);
  return _mm512_cvtpd_ps(_mm512_fmadd_pd(r, q, hi));
}

// log8 on sixteen lanes; Any: any input, else positive normal floats only. Every intermediate of a
// special lane is finite (z always lands in [kLogOff, 2 kLogOff) as a float), and only positive
// subnormals are scaled by 2^23 (a masked multiply, found by an integer compare), so the special
// lanes raise no overflow of their own.
template <bool Any>
inline __m512 log16(const LogConsts16& k, __m512 x) {
  __m512i b = _mm512_castps_si512(x);
  __mmask16 sub = 0;
  if (Any) {  // bits in [1, 0x7fffff]: positive subnormal (an integer compare: no flag for NaN)
    sub = _mm512_cmple_epu32_mask(_mm512_sub_epi32(b, k.one_i), k.sub_span);
    b = _mm512_castps_si512(_mm512_mask_mul_ps(x, sub, x, k.two23));
  }
  const __m512i tmp = _mm512_sub_epi32(b, k.off);
  __m512i ki = _mm512_srai_epi32(tmp, 23);
  if (Any) ki = _mm512_mask_sub_epi32(ki, sub, ki, k.i23);
  const __m512 z = _mm512_castsi512_ps(_mm512_sub_epi32(b, _mm512_and_si512(tmp, k.exp_mask)));
  const __m512i idx = _mm512_srli_epi32(tmp, 19);  // bucket in bits 0-3
  const __m512 invc = _mm512_permutexvar_ps(idx, k.invc);
  const __m512i idx_lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(idx));
  const __m512i idx_hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(idx, 1));
  const __m256 y0 = log_half16(k, _mm512_cvtps_pd(_mm512_castps512_ps256(z)),
                               _mm512_cvtps_pd(_mm512_castps512_ps256(invc)),
                               _mm512_cvtepi32_pd(_mm512_castsi512_si256(ki)),
                               _mm512_permutex2var_pd(k.lc_a, idx_lo, k.lc_b));
  const __m256 y1 = log_half16(k, _mm512_cvtps_pd(_mm512_extractf32x8_ps(z, 1)),
                               _mm512_cvtps_pd(_mm512_extractf32x8_ps(invc, 1)),
                               _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(ki, 1)),
                               _mm512_permutex2var_pd(k.lc_a, idx_hi, k.lc_b));
  __m512 y = _mm512_insertf32x8(_mm512_castps256_ps512(y0), y1, 1);
  if (Any) {  // 0, negatives, +inf, NaN (quiet compares: no flag for a quiet NaN, as log8's)
    const __mmask16 ok = _mm512_cmp_ps_mask(x, k.zero, _CMP_GT_OQ) & _mm512_cmp_ps_mask(x, k.inf, _CMP_LT_OQ);
    if (ok != 0xffff) {
      __m512 special = _mm512_mask_mov_ps(x, _mm512_cmp_ps_mask(x, k.zero, _CMP_LT_OQ), k.nan);
      special = _mm512_mask_mov_ps(special, _mm512_cmp_ps_mask(x, k.zero, _CMP_EQ_OQ), k.neg_inf);
      y = _mm512_mask_mov_ps(special, ok, y);
    }
  }
  return y;
}

// All sixteen lanes positive normal floats (bits - 2^23 within the span, unsigned).
inline bool all_normal16(const LogConsts16& k, __m512 x) {
  return _mm512_cmple_epu32_mask(_mm512_sub_epi32(_mm512_castps_si512(x), k.normal_lo), k.normal_span) == 0xffff;
}

// The other vectors: every lane through the full form, and the conditions numpy reports (as masks).
__attribute__((always_inline)) inline __m512 log16_special(const LogConsts16& k, __m512 x, unsigned& zero,
                                                           unsigned& negative) {
  zero |= _mm512_cmp_ps_mask(x, k.zero, _CMP_EQ_OQ);
  negative |= _mm512_cmp_ps_mask(x, k.zero, _CMP_LT_OQ);
  return log16<true>(k, x);
}

// log of a[0, n) into o (which may be a); the conditions numpy reports raised.
void log_run16(int64_t n, const float* a, float* o) {
  const LogConsts16 k;
  unsigned zero = 0, negative = 0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {  // two vectors per check: one well-predicted branch per 32 floats
    const __m512 x0 = _mm512_loadu_ps(a + i), x1 = _mm512_loadu_ps(a + i + 16);
    __m512 y0, y1;
    if (__builtin_expect(all_normal16(k, x0) & all_normal16(k, x1), 1)) {
      y0 = log16<false>(k, x0);
      y1 = log16<false>(k, x1);
    } else {
      y0 = log16_special(k, x0, zero, negative);
      y1 = log16_special(k, x1, zero, negative);
    }
    _mm512_storeu_ps(o + i, y0);  // both loaded before either store: o may be a (in place)
    _mm512_storeu_ps(o + i + 16, y1);
  }
  for (; i < n; i += 16) {  // masked: the other lanes are 1.0 (no flag), nothing outside a[0, n) read
    const __mmask16 m = static_cast<__mmask16>(n - i >= 16 ? 0xffffu : (1u << (n - i)) - 1u);
    const __m512 x = _mm512_mask_loadu_ps(k.one_f, m, a + i);
    _mm512_mask_storeu_ps(o + i, m, log16_special(k, x, zero, negative));
  }
  if (zero) fp_status_raise(FE_DIVBYZERO);
  if (negative) fp_status_raise(FE_INVALID);
}
#endif  // AVX-512 log

// log8 over a[0, n) into o (which may be a): the AVX2 target's loop (and the AVX-512 one's A/B
// reference, benchmarks/native/log_ab.cpp).
[[maybe_unused]] void log_run8(int64_t n, const float* a, float* o) {
  const LogConsts k;
  __m256 zero = _mm256_setzero_ps(), negative = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = _mm256_loadu_ps(a + i);
    _mm256_storeu_ps(o + i, __builtin_expect(all_normal(k, x), 1) ? log8<false>(k, x) : log8_special(k, x, zero, negative));
  }
  if (i < n) {  // padded with 1.0 (no flag), so a result never depends on where it sits
    alignas(32) float buf[8] = {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f};
    std::memcpy(buf, a + i, (n - i) * sizeof(float));
    const __m256 x = _mm256_load_ps(buf);
    _mm256_store_ps(buf, log8_special(k, x, zero, negative));
    std::memcpy(o + i, buf, (n - i) * sizeof(float));
  }
  if (_mm256_movemask_ps(zero)) fp_status_raise(FE_DIVBYZERO);
  if (_mm256_movemask_ps(negative)) fp_status_raise(FE_INVALID);
}

// The table's entry: the widest form this target has.
[[maybe_unused]] void map_log_f32(int64_t n, const char* const* in, char* out) {
  const float* a = reinterpret_cast<const float*>(in[0]);
  float* o = reinterpret_cast<float*>(out);
#if defined(__AVX512F__) && defined(__AVX512DQ__)
  log_run16(n, a, o);
#else
  log_run8(n, a, o);
#endif
}
#else
// The overflow of the final conversion (exp(inf)) is dropped with the other hardware flags, the
// conditions numpy reports raised explicitly.
inline bool exp_shifted_f32(int64_t n, const float* a, float shift, float* o) {
  std::fexcept_t saved;
  std::fegetexceptflag(&saved, FE_ALL_EXCEPT);
  int over = 0, sub_fe = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float ai = a[i];  // read before o[i] is written: o may be a (in place)
    const float v = ai - shift;
    o[i] = exp_f64(v);
    over |= (v > 88.72283172607422f) & (v < kInf);  // exp(inf) = inf is exact: no overflow
    sub_fe |= shift_flags(ai, shift, v);
  }
  std::fesetexceptflag(&saved, FE_ALL_EXCEPT);
  if (sub_fe) fp_status_raise(sub_fe);
  return over;
}

[[maybe_unused]] void map_log_f32(int64_t n, const char* const* in, char* out) {
  const float* a = reinterpret_cast<const float*>(in[0]);
  float* o = reinterpret_cast<float*>(out);
  int zero = 0, negative = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float x = a[i];  // read before o[i] is written: o may be a (in place)
    o[i] = log_f64(x);
    zero |= x == 0.0f;
    const int32_t b = bits_of(x);  // x < 0 without a comparison that raises invalid on NaN
    negative |= (b < 0) & (static_cast<uint32_t>(b & 0x7fffffff) - 1u < 0x7f800000u);  // not -0.0 or NaN
  }
  if (zero) fp_status_raise(FE_DIVBYZERO);
  if (negative) fp_status_raise(FE_INVALID);
}
#endif

[[maybe_unused]] void map_exp_f32(int64_t n, const char* const* in, char* out) {
  if (exp_shifted_f32(n, reinterpret_cast<const float*>(in[0]), 0.0f, reinterpret_cast<float*>(out)))
    fp_status_raise(FE_OVERFLOW);
}

template <float (*F)(float), float (*Libm)(float)>
void map_trig_f32(int64_t n, const char* const* in, char* out) {
  const float* a = reinterpret_cast<const float*>(in[0]);
  float* o = reinterpret_cast<float*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = F(a[i]);
  for (int64_t i = 0; i < n; ++i)
    if (!(std::fabs(a[i]) <= kTrigLimit)) o[i] = Libm(a[i]);  // huge, inf, NaN: rare
}

#if defined(MNN_NEON)
// ---- arm_neon.h versions of exp, log and tanh: the same formulations as the per-element code
// above, four lanes per instruction, FMA where the element code lets the compiler contract.
// Tails run through a padded 4-lane buffer, so an element's result never depends on where it
// sits. sin/cos keep the element code (their reduction is in double), which GCC vectorises.
namespace nv {

inline float32x4_t dup(float v) { return vdupq_n_f32(v); }
inline float32x4_t sel(uint32x4_t m, float32x4_t a, float32x4_t b) { return vbslq_f32(m, a, b); }

inline float32x4_t exp4(float32x4_t x) {
  // vminq/vmaxq return NaN when either operand is NaN: NaN passes, like the element code
  float32x4_t xc = vmaxq_f32(vminq_f32(x, dup(88.7300033569336f)), dup(-105.0f));
  const float32x4_t shifter = dup(12582912.0f);
  float32x4_t n = vsubq_f32(vfmaq_f32(shifter, xc, dup(1.44269504088896341f)), shifter);
  float32x4_t r = vfmsq_f32(xc, n, dup(0.693359375f));
  r = vfmsq_f32(r, n, dup(-2.12194440e-4f));
  float32x4_t r2 = vmulq_f32(r, r);
  float32x4_t q01 = vfmaq_f32(dup(1.3981999507e-3f), dup(1.9875691500e-4f), r);
  float32x4_t q23 = vfmaq_f32(dup(4.1665795894e-2f), dup(8.3334519073e-3f), r);
  float32x4_t q45 = vfmaq_f32(dup(5.0000001201e-1f), dup(1.6666665459e-1f), r);
  float32x4_t p = vfmaq_f32(q45, vfmaq_f32(q23, q01, r2), r2);
  float32x4_t y = vaddq_f32(vfmaq_f32(r, p, r2), dup(1.0f));
  int32x4_t ni = vcvtq_s32_f32(n);  // n is integral (NaN lanes give 0: y is NaN already)
  int32x4_t n1 = vshrq_n_s32(ni, 1), n2 = vsubq_s32(ni, n1);
  float32x4_t s1 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n1, vdupq_n_s32(127)), 23));
  float32x4_t s2 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n2, vdupq_n_s32(127)), 23));
  return vmulq_f32(vmulq_f32(y, s1), s2);
}

inline float32x4_t log4(float32x4_t x) {
  uint32x4_t subnormal = vcltq_f32(x, dup(1.17549435e-38f));
  float32x4_t xs = sel(subnormal, vmulq_f32(x, dup(8388608.0f)), x);
  uint32x4_t b = vreinterpretq_u32_f32(xs);
  int32x4_t e = vsubq_s32(vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(b, 23), vdupq_n_u32(0xff))), vdupq_n_s32(126));
  e = vsubq_s32(e, vreinterpretq_s32_u32(vandq_u32(subnormal, vdupq_n_u32(23))));
  float32x4_t m = vreinterpretq_f32_u32(vorrq_u32(vandq_u32(b, vdupq_n_u32(0x007fffff)), vdupq_n_u32(0x3f000000)));
  uint32x4_t low = vcltq_f32(m, dup(0.707106781186547524f));
  e = vaddq_s32(e, vreinterpretq_s32_u32(low));  // low lanes are all ones: e - 1
  float32x4_t fe = vcvtq_f32_s32(e);
  m = sel(low, vsubq_f32(vaddq_f32(m, m), dup(1.0f)), vsubq_f32(m, dup(1.0f)));
  float32x4_t z = vmulq_f32(m, m);
  float32x4_t p = dup(7.0376836292e-2f);
  p = vfmaq_f32(dup(-1.1514610310e-1f), p, m);
  p = vfmaq_f32(dup(1.1676998740e-1f), p, m);
  p = vfmaq_f32(dup(-1.2420140846e-1f), p, m);
  p = vfmaq_f32(dup(1.4249322787e-1f), p, m);
  p = vfmaq_f32(dup(-1.6668057665e-1f), p, m);
  p = vfmaq_f32(dup(2.0000714765e-1f), p, m);
  p = vfmaq_f32(dup(-2.4999993993e-1f), p, m);
  p = vfmaq_f32(dup(3.3333331174e-1f), p, m);
  float32x4_t y = vmulq_f32(vmulq_f32(p, m), z);
  y = vfmaq_f32(y, fe, dup(-2.12194440e-4f));
  y = vfmsq_f32(y, dup(0.5f), z);
  float32x4_t r = vaddq_f32(m, y);
  r = vfmaq_f32(r, fe, dup(0.693359375f));
  r = sel(vceqq_f32(x, dup(kInf)), dup(kInf), r);
  r = sel(vceqq_f32(x, dup(0.0f)), dup(-kInf), r);
  r = sel(vcltq_f32(x, dup(0.0f)), dup(kNaN), r);
  r = sel(vceqq_f32(x, x), r, x);
  return r;
}

inline float32x4_t tanh4(float32x4_t x) {
  float32x4_t ax = vabsq_f32(x);
  float32x4_t z = vmulq_f32(x, x);
  float32x4_t p = dup(-5.70498872745e-3f);
  p = vfmaq_f32(dup(2.06390887954e-2f), p, z);
  p = vfmaq_f32(dup(-5.37397155531e-2f), p, z);
  p = vfmaq_f32(dup(1.33314422036e-1f), p, z);
  p = vfmaq_f32(dup(-3.33332819422e-1f), p, z);
  float32x4_t small = vfmaq_f32(ax, vmulq_f32(p, z), ax);
  float32x4_t e = exp4(vaddq_f32(ax, ax));
  float32x4_t big = vsubq_f32(dup(1.0f), vdivq_f32(dup(2.0f), vaddq_f32(e, dup(1.0f))));
  float32x4_t v = sel(vcltq_f32(ax, dup(0.625f)), small, big);  // NaN: big, which keeps it
  const uint32x4_t sign = vdupq_n_u32(0x80000000u);
  return vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(v), vandq_u32(vreinterpretq_u32_f32(x), sign)));
}

// out[i] = F(a[i]); Flag(a, flags) ORs per-lane conditions into flags (all-ones lanes).
template <float32x4_t (*F)(float32x4_t), class Flag>
inline void map4(int64_t n, const float* a, float* o, Flag flag) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float32x4_t v = vld1q_f32(a + i);
    vst1q_f32(o + i, F(v));
    flag(v);
  }
  if (i < n) {
    float buf[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    std::memcpy(buf, a + i, (n - i) * sizeof(float));
    float32x4_t v = vld1q_f32(buf);
    vst1q_f32(buf, F(v));
    std::memcpy(o + i, buf, (n - i) * sizeof(float));
    // padded lanes are 0: flag only the real ones
    for (int64_t k = 0; k < n - i; ++k) flag(vdupq_n_f32(a[i + k]));
  }
}

void map_exp(int64_t n, const char* const* in, char* out) {
  uint32x4_t over = vdupq_n_u32(0);
  map4<exp4>(n, reinterpret_cast<const float*>(in[0]), reinterpret_cast<float*>(out),
             [&](float32x4_t v) {  // exp(inf) = inf is exact: no overflow
               over = vorrq_u32(over, vandq_u32(vcgtq_f32(v, dup(88.72283172607422f)), vcltq_f32(v, dup(kInf))));
             });
  if (vmaxvq_u32(over)) fp_status_raise(FE_OVERFLOW);
}

void map_log(int64_t n, const char* const* in, char* out) {
  uint32x4_t zero = vdupq_n_u32(0), negative = vdupq_n_u32(0);
  map4<log4>(n, reinterpret_cast<const float*>(in[0]), reinterpret_cast<float*>(out), [&](float32x4_t v) {
    zero = vorrq_u32(zero, vceqq_f32(v, dup(0.0f)));
    negative = vorrq_u32(negative, vcltq_f32(v, dup(0.0f)));
  });
  if (vmaxvq_u32(zero)) fp_status_raise(FE_DIVBYZERO);
  if (vmaxvq_u32(negative)) fp_status_raise(FE_INVALID);
}

void map_tanh(int64_t n, const char* const* in, char* out) {
  map4<tanh4>(n, reinterpret_cast<const float*>(in[0]), reinterpret_cast<float*>(out), [](float32x4_t) {});
}

}  // namespace nv
#endif

float libm_sin(float x) { return std::sin(x); }
float libm_cos(float x) { return std::cos(x); }

}  // namespace

void fill_vmath(KernelTable& t) {
  constexpr int f32 = static_cast<int>(core::DType::Float32);
#if defined(MNN_NEON)
  t.ew[static_cast<int>(core::Op::Exp)][f32] = &nv::map_exp;
  t.ew[static_cast<int>(core::Op::Log)][f32] = &nv::map_log;
  t.ew[static_cast<int>(core::Op::Tanh)][f32] = &nv::map_tanh;
#else
  t.ew[static_cast<int>(core::Op::Exp)][f32] = &map_exp_f32;
  t.exp_shifted_f32 = &exp_shifted_f32;
#if defined(__AVX2__) && defined(__FMA__)
  t.exp_sum_shifted_f32 = &exp_sum_shifted_f32;
  t.exp_sum_max_n = kExpSumMaxN;
#endif
#if defined(__AVX512F__) && defined(__AVX512DQ__)
  t.exp_sum_div_f32 = &exp_sum_div_f32;
#endif
  t.ew[static_cast<int>(core::Op::Log)][f32] = &map_log_f32;
  t.ew[static_cast<int>(core::Op::Tanh)][f32] = &map_f32<tanh_f32>;
#endif
  t.ew[static_cast<int>(core::Op::Sin)][f32] = &map_trig_f32<sin_f32, libm_sin>;
  t.ew[static_cast<int>(core::Op::Cos)][f32] = &map_trig_f32<cos_f32, libm_cos>;
}

}  // namespace mnn::cpu::MNN_ISA_NS
