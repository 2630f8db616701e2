// Vectorised float32 exp, log, sin, cos and tanh for one ISA (compiled once per target, like
// elementwise_table.cpp). libm's scalar calls cannot be vectorised, so a float32 exp ran at ~3 ns
// per element, four times slower than memory. These are branch-free polynomial formulations
// (Cody-Waite range reduction + minimax polynomials, the classic Cephes single-precision
// coefficients) written as plain per-element code the compiler turns into SIMD for the target:
// every lane follows the same instructions, special values are patched with selects.
// Accuracy against numpy's float32 results is measured by tests/engine/test_vmath.py (within 2 ulp).
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

// log(x) = e * ln2 + log(m), m in [sqrt(1/2), sqrt(2)).
inline float log_f32(float x) {
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

// exp and log build inf/-inf/NaN from bits and selects, so the hardware raises no IEEE flag for
// them; numpy's do (errstate warnings), so the conditions are collected in the same pass (an OR
// per lane) and raised once.

// What the subtraction a - shift of exp(a - shift) itself raises (inf - inf is invalid, a finite
// difference beyond the float range overflows), which numpy reports for the subtract.
inline int shift_flags(float a, float shift, float v) {
  if (std::isnan(v)) return std::isnan(a) || std::isnan(shift) ? 0 : FE_INVALID;
  if (std::isinf(v)) return std::isinf(a) || std::isinf(shift) ? 0 : FE_OVERFLOW;
  return 0;
}
#if defined(__AVX2__) && defined(__FMA__)
// exp_f32 on eight lanes whose results are all normal floats: no clamps, and 2^n is added to y's
// exponent field with one integer add. Where every result is normal, exp_f32's two factors scale
// exactly, so the bits are the same; the polynomial is the same expressions with the same FMA
// contractions. About half the instructions of the general form, constants held in registers
// (the auto-vectorised element loop reloaded and spilled them): 0.33 vs 0.6 ns per element on one
// Zen core. Softmax spends most of its arithmetic here.
struct ExpConsts {
  __m256 shifter = _mm256_set1_ps(12582912.0f), log2e = _mm256_set1_ps(1.44269504088896341f);
  __m256 ln2_hi = _mm256_set1_ps(0.693359375f), ln2_lo = _mm256_set1_ps(-2.12194440e-4f);
  __m256 p0 = _mm256_set1_ps(1.9875691500e-4f), p1 = _mm256_set1_ps(1.3981999507e-3f);
  __m256 p2 = _mm256_set1_ps(8.3334519073e-3f), p3 = _mm256_set1_ps(4.1665795894e-2f);
  __m256 p4 = _mm256_set1_ps(1.6666665459e-1f), p5 = _mm256_set1_ps(5.0000001201e-1f);
  __m256 one = _mm256_set1_ps(1.0f);
  // n = bits(t) - bits(shifter); the fast form needs -125 <= n <= 127 (y in [2^-0.5, 2^0.5], so
  // y * 2^n is normal and finite), i.e. bits(t) - (bits(shifter) - 125) <= 252 unsigned. NaN and
  // +-inf give t with bits far outside; so does any |x| beyond the range.
  __m256i n_bias = _mm256_set1_epi32(0x4B400000 - 125), n_span = _mm256_set1_epi32(252);
};

inline __m256 exp_fast8(const ExpConsts& k, __m256 x, __m256i& n_biased) {
  __m256 t = _mm256_fmadd_ps(x, k.log2e, k.shifter);  // 1.5 * 2^23 + n: n in t's low mantissa bits
  __m256 n = _mm256_sub_ps(t, k.shifter);
  __m256 r = _mm256_fnmadd_ps(n, k.ln2_hi, x);
  r = _mm256_fnmadd_ps(n, k.ln2_lo, r);
  __m256 r2 = _mm256_mul_ps(r, r);
  __m256 q01 = _mm256_fmadd_ps(k.p0, r, k.p1);
  __m256 q23 = _mm256_fmadd_ps(k.p2, r, k.p3);
  __m256 q45 = _mm256_fmadd_ps(k.p4, r, k.p5);
  __m256 p = _mm256_fmadd_ps(_mm256_fmadd_ps(q01, r2, q23), r2, q45);
  __m256 y = _mm256_add_ps(_mm256_fmadd_ps(p, r2, r), k.one);
  const __m256i tb = _mm256_castps_si256(t);
  n_biased = _mm256_sub_epi32(tb, k.n_bias);
  // bits(t) << 23 is n << 23: bits(shifter) = 0x4B400000 has its low 9 bits clear
  return _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(y), _mm256_slli_epi32(tb, 23)));
}

// The element code, for the vectors with some result outside the fast form's range.
//
// Spurious flags: out-of-range lanes raise overflow in exp_fast8 before the range test sends them
// here (r * r of x = -1e30), and this loop, vectorised under -fno-trapping-math, evaluates
// exp_f32's in-range formula on the unclamped lanes too before blending (x < -175 gives a 2^n
// factor of 2^-130). The only condition numpy reports for exp is the `over` the callers compute,
// so a call that came here puts MXCSR back as it found it (ExpFlagGuard), dropping them.
__attribute__((noinline)) bool exp_shifted_slow(int64_t n, const float* a, float shift, float* o, int& sub_fe) {
  int over = 0;
  for (int64_t k = 0; k < n; ++k) {
    float v = a[k] - shift;
    o[k] = exp_f32(v);
    over |= (v > 88.72283172607422f) & (v < kInf);  // exp(inf) = inf is exact: no overflow
    sub_fe |= shift_flags(a[k], shift, v);
  }
  return over;
}

// Reads MXCSR on entry (a few cycles) and writes it back on exit only if the slow path ran.
struct ExpFlagGuard {
  unsigned csr = _mm_getcsr();
  bool dirty = false;
  int sub_fe = 0;  // the subtraction's own conditions, kept (exp_shifted_slow)
  ~ExpFlagGuard() {
    if (!dirty) return;
    _mm_setcsr(csr);
    if (sub_fe) fp_status_raise(sub_fe);
  }
};

// out[i] = exp(a[i] - shift) (shift 0: plain exp); returns whether some a[i] - shift overflows.
// Two vectors per iteration: the polynomial is one dependent chain, two keep both FMA pipes busy.
bool exp_shifted_f32(int64_t n, const float* a, float shift, float* o) {
  const ExpConsts k;
  const __m256 s = _mm256_set1_ps(shift);
  ExpFlagGuard guard;
  bool over = false;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256 x0 = _mm256_sub_ps(_mm256_loadu_ps(a + i), s), x1 = _mm256_sub_ps(_mm256_loadu_ps(a + i + 8), s);
    __m256i u0, u1;
    __m256 y0 = exp_fast8(k, x0, u0), y1 = exp_fast8(k, x1, u1);
    __m256i m = _mm256_max_epu32(_mm256_max_epu32(u0, u1), k.n_span);
    if (__builtin_expect(_mm256_movemask_epi8(_mm256_cmpeq_epi32(m, k.n_span)) == -1, 1)) {
      _mm256_storeu_ps(o + i, y0);
      _mm256_storeu_ps(o + i + 8, y1);
    } else {
      guard.dirty = true;
      over |= exp_shifted_slow(16, a + i, shift, o + i, guard.sub_fe);
    }
  }
  if (i < n) {
    guard.dirty = true;
    over |= exp_shifted_slow(n - i, a + i, shift, o + i, guard.sub_fe);
  }
  return over;
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

inline bool exp_fast_ok(const ExpConsts& k, __m256i u) {
  return _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(u, k.n_span), k.n_span)) == -1;
}

// out[i] = exp(a[i] - shift), *sum = their pairwise sum (8 <= n <= kExpSumMaxN).
constexpr int64_t kExpSumMaxN = 16384;
bool exp_sum_shifted_f32(int64_t n, const float* a, float shift, float* o, float* sum) {
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
      if (__builtin_expect(exp_fast_ok(k, _mm256_max_epu32(u0, u1)), 1)) {
        _mm256_storeu_ps(o + i, y0);
        _mm256_storeu_ps(o + i + 8, y1);
      } else {
        guard.dirty = true;
        over |= exp_shifted_slow(16, a + i, shift, o + i, guard.sub_fe);
        y0 = _mm256_loadu_ps(o + i);
        y1 = _mm256_loadu_ps(o + i + 8);
      }
      r = _mm256_add_ps(r, y0);
      r = _mm256_add_ps(r, y1);
    }
    if (i < vend) {  // one vector left in the leaf
      __m256i u0;
      __m256 y0 = exp_fast8(k, _mm256_sub_ps(_mm256_loadu_ps(a + i), s), u0);
      if (exp_fast_ok(k, u0)) {
        _mm256_storeu_ps(o + i, y0);
      } else {
        guard.dirty = true;
        over |= exp_shifted_slow(8, a + i, shift, o + i, guard.sub_fe);
        y0 = _mm256_loadu_ps(o + i);
      }
      r = _mm256_add_ps(r, y0);
      i += 8;
    }
    alignas(32) float v[8];
    _mm256_store_ps(v, r);
    float res = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
    if (i < end) {
      guard.dirty = true;
      over |= exp_shifted_slow(end - i, a + i, shift, o + i, guard.sub_fe);
      for (; i < end; ++i) res += o[i];
    }
    sums[l] = res;
  }
  int c = 0;
  *sum = pairwise_combine(n, sums, c);
  return over;
}
#else
// Hardware flags dropped as in the AVX2 slow path above (the same speculated lanes).
inline bool exp_shifted_f32(int64_t n, const float* a, float shift, float* o) {
  std::fexcept_t saved;
  std::fegetexceptflag(&saved, FE_ALL_EXCEPT);
  int over = 0, sub_fe = 0;
  for (int64_t i = 0; i < n; ++i) {
    float v = a[i] - shift;
    o[i] = exp_f32(v);
    over |= (v > 88.72283172607422f) & (v < kInf);  // exp(inf) = inf is exact: no overflow
    sub_fe |= shift_flags(a[i], shift, v);
  }
  std::fesetexceptflag(&saved, FE_ALL_EXCEPT);
  if (sub_fe) fp_status_raise(sub_fe);
  return over;
}
#endif

[[maybe_unused]] void map_exp_f32(int64_t n, const char* const* in, char* out) {
  if (exp_shifted_f32(n, reinterpret_cast<const float*>(in[0]), 0.0f, reinterpret_cast<float*>(out)))
    fp_status_raise(FE_OVERFLOW);
}

[[maybe_unused]] void map_log_f32(int64_t n, const char* const* in, char* out) {
  const float* a = reinterpret_cast<const float*>(in[0]);
  float* o = reinterpret_cast<float*>(out);
  int zero = 0, negative = 0;
  for (int64_t i = 0; i < n; ++i) {
    o[i] = log_f32(a[i]);
    zero |= a[i] == 0.0f;
    negative |= a[i] < 0.0f;
  }
  if (zero) fp_status_raise(FE_DIVBYZERO);
  if (negative) fp_status_raise(FE_INVALID);
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
  t.ew[static_cast<int>(core::Op::Log)][f32] = &map_log_f32;
  t.ew[static_cast<int>(core::Op::Tanh)][f32] = &map_f32<tanh_f32>;
#endif
  t.ew[static_cast<int>(core::Op::Sin)][f32] = &map_trig_f32<sin_f32, libm_sin>;
  t.ew[static_cast<int>(core::Op::Cos)][f32] = &map_trig_f32<cos_f32, libm_cos>;
}

}  // namespace mnn::cpu::MNN_ISA_NS
