// CPU kernel of cv_arith (shape rule and op codes: ops/cv/arith.cpp). Compiled once per ISA.
//
// The answers are bit for bit those of mnn/cv/_core_ops.py (which equal cv2 5.0's): cv2 runs
// 8/16-bit and float32 multiply / divide / addWeighted in float32 with float32 weights
// ((a * scale) * b, (a * scale) / b, fma(a, alpha, fma(b, beta, gamma))), float64 ones in double,
// every operation with a Scalar in double; add / subtract / absdiff are exact before saturation.
// Integer outputs take cvRound (half to even) to int32 -- INT_MIN when out of int32's range or
// NaN, as the x86 conversion gives -- and then saturate; an integer divide by 0 gives 0.
// One float32 rounding of a double sum, difference, product or quotient of two floats equals the
// float32 operation (double has more than 2 * 24 + 2 bits), which is why float32 add/sub/absdiff
// run in float32 here while Python computes them in float64.
// The build has -ffp-contract=off, so a * b + c rounds twice wherever Python's does; the fmas
// that cv2 runs are explicit (std::fma, _mm256_fmadd_ps). convertScaleAbs of a non-float64 image
// is cv2's float32 fma itself, where the Python path rounds the double x * alpha + beta to
// float32 (the same but for double-rounding ties). Scalar ops on 8/16-bit images take the
// shortcuts of arith_scalar.h, which give the double loops' bits by construction.
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "backends/cpu/simd/cv/arith_scalar.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

enum ArithOp : int64_t {
  kAdd = 0, kSub = 1, kAbsdiff = 2, kMul = 3, kDiv = 4, kAddWeighted = 5, kConvertScaleAbs = 6,
  kAddS = 10, kSubS = 11, kRSubS = 12, kAbsdiffS = 13, kMulS = 14, kRMulS = 15, kDivS = 16, kRDivS = 17,
};

template <class T>
constexpr bool kInt = std::is_integral<T>::value;

// cv2's saturate_cast of a double result: cvRound to int32 (INT_MIN outside it or for NaN), clip.
template <class T>
inline T sat(double r) {
  if constexpr (!kInt<T>) {
    return static_cast<T>(r);
  } else {
    // selects, not branches or fmin/fmax (NaN rules), so the loops vectorise
    constexpr double lo = double(std::numeric_limits<T>::min()), hi = double(std::numeric_limits<T>::max());
    double q = std::nearbyint(r);
    q = (q >= -2147483648.0 && q <= 2147483647.0) ? q : -2147483648.0;
    q = q < lo ? lo : q;
    q = q > hi ? hi : q;
    return static_cast<T>(static_cast<int32_t>(q));
  }
}

template <class T>
inline T sat_int(int32_t v) {
  constexpr int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  v = v < lo ? lo : v;
  return static_cast<T>(v > hi ? hi : v);
}

// cvRound of a Scalar for an integer image: half to even, INT_MIN outside int32 or NaN.
inline double round_int32(double v) {
  double q = std::nearbyint(v);
  return (q >= -2147483648.0 && q <= 2147483647.0) ? q : -2147483648.0;
}

inline int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

// ---- the float32 work of 8/16-bit and float32 images: 8 lanes with AVX2, one at a time after ----

inline float f_add(float a, float b) { return a + b; }
inline float f_sub(float a, float b) { return a - b; }
inline float f_absdiff(float a, float b) { return std::fabs(a - b); }
inline float f_mul(float a, float b) { return a * b; }
inline float f_div(float a, float b) { return a / b; }
inline float f_fma(float a, float b, float c) { return std::fma(a, b, c); }
inline float f_zero_where(float y, float q) { return y == 0.0f ? 0.0f : q; }
template <class V> inline V splat(float v);
template <> inline float splat<float>(float v) { return v; }

inline float load1(const float* p) { return *p; }
template <class T> inline float load1(const T* p) { return static_cast<float>(*p); }
template <class T> inline void store1(T* p, float v) { *p = sat<T>(static_cast<double>(v)); }

#if defined(__AVX2__)
inline __m256 f_add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
inline __m256 f_sub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
inline __m256 f_absdiff(__m256 a, __m256 b) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), _mm256_sub_ps(a, b)); }
inline __m256 f_mul(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
inline __m256 f_div(__m256 a, __m256 b) { return _mm256_div_ps(a, b); }
inline __m256 f_fma(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
inline __m256 f_zero_where(__m256 y, __m256 q) { return _mm256_andnot_ps(_mm256_cmp_ps(y, _mm256_setzero_ps(), _CMP_EQ_OQ), q); }
template <> inline __m256 splat<__m256>(float v) { return _mm256_set1_ps(v); }

inline __m256 load8(const uint8_t* p) {
  return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}
inline __m256 load8(const int8_t* p) {
  return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}
inline __m256 load8(const uint16_t* p) {
  return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
}
inline __m256 load8(const int16_t* p) {
  return _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
}
inline __m256 load8(const float* p) { return _mm256_loadu_ps(p); }

// cvtps_epi32 rounds half to even and gives INT_MIN out of range or for NaN: cvRound exactly;
// the saturating packs then clip as saturate_cast does.
inline __m128i pack16(__m256 v, bool is_unsigned) {
  const __m256i i = _mm256_cvtps_epi32(v);
  const __m128i lo = _mm256_castsi256_si128(i), hi = _mm256_extracti128_si256(i, 1);
  return is_unsigned ? _mm_packus_epi32(lo, hi) : _mm_packs_epi32(lo, hi);
}
inline void store8(uint8_t* p, __m256 v) {
  const __m128i s = pack16(v, false);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_packus_epi16(s, s));
}
inline void store8(int8_t* p, __m256 v) {
  const __m128i s = pack16(v, false);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_packs_epi16(s, s));
}
inline void store8(uint16_t* p, __m256 v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), pack16(v, true)); }
inline void store8(int16_t* p, __m256 v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), pack16(v, false)); }
inline void store8(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
#endif

// out[i] = f(a[i], b[i]) in float32 work; f is a generic lambda over float and __m256.
template <class T, class F>
void float_work2(const T* a, const T* b, T* o, int64_t n, F f) {
  int64_t i = 0;
#if defined(__AVX2__)
  if constexpr (std::is_same<T, float>::value) {
    if (n >= (1 << 15)) {
      // a large float32 result goes around the cache (no read-for-ownership of the output
      // lines): this op is bound by memory traffic
      for (; i < n && (reinterpret_cast<uintptr_t>(o + i) & 31) != 0; ++i) store1(o + i, f(load1(a + i), load1(b + i)));
      for (; i + 8 <= n; i += 8) _mm256_stream_ps(o + i, f(load8(a + i), load8(b + i)));
      _mm_sfence();
    }
  }
  for (; i + 8 <= n; i += 8) store8(o + i, f(load8(a + i), load8(b + i)));
#endif
  for (; i < n; ++i) store1(o + i, f(load1(a + i), load1(b + i)));
}

template <class T>
struct Arith {
  int64_t op;
  const std::vector<double>& fl;  // the parameters as given
  int64_t c;
  std::vector<uint8_t> lut;  // 8-bit images against a Scalar: lut_c tables of 256 (prepare)
  int64_t lut_c = 0;
  bool stream_out = false;  // write the result with non-temporal stores (prepare)

  // Elements [i0, i1) (multiples of c: pixel boundaries).
  void run(const T* a, const T* b, void* out, int64_t i0, int64_t i1) const {
    T* o = static_cast<T*>(out);
    const int64_t n = i1 - i0;
    a += i0;
    if (b) b += i0;
    o += i0;
    switch (op) {
      case kAdd: case kSub: case kAbsdiff: return add_sub(a, b, o, n);
      case kMul: return mul(a, b, o, n);
      case kDiv: return div(a, b, o, n);
      case kAddWeighted: return add_weighted(a, b, o, n);
      case kConvertScaleAbs: return convert_scale_abs(a, static_cast<uint8_t*>(out) + i0, n);
      default: return with_scalar(a, o, n);
    }
  }

  void add_sub(const T* a, const T* b, T* o, int64_t n) const {
    if constexpr (kInt<T>) {
#if defined(__AVX2__)
      // the saturating 8/16-bit adds and subtracts are saturate(x +- y) exactly
      const int64_t done = add_sub_avx2(a, b, o, n);
      a += done, b += done, o += done, n -= done;
#endif
      // exact in int32, then saturated
      if (op == kAdd) for (int64_t i = 0; i < n; ++i) o[i] = sat_int<T>(int32_t(a[i]) + int32_t(b[i]));
      else if (op == kSub) for (int64_t i = 0; i < n; ++i) o[i] = sat_int<T>(int32_t(a[i]) - int32_t(b[i]));
      else for (int64_t i = 0; i < n; ++i) {
        const int32_t d = int32_t(a[i]) - int32_t(b[i]);
        o[i] = sat_int<T>(d < 0 ? -d : d);
      }
    } else if constexpr (std::is_same<T, float>::value) {
      if (op == kAdd) float_work2(a, b, o, n, [](auto x, auto y) { return f_add(x, y); });
      else if (op == kSub) float_work2(a, b, o, n, [](auto x, auto y) { return f_sub(x, y); });
      else float_work2(a, b, o, n, [](auto x, auto y) { return f_absdiff(x, y); });
    } else {
      if (op == kAdd) for (int64_t i = 0; i < n; ++i) o[i] = a[i] + b[i];
      else if (op == kSub) for (int64_t i = 0; i < n; ++i) o[i] = a[i] - b[i];
      else for (int64_t i = 0; i < n; ++i) o[i] = std::fabs(a[i] - b[i]);
    }
  }

#if defined(__AVX2__)
  int64_t add_sub_avx2(const T* a, const T* b, T* o, int64_t n) const {
    if (op == kAbsdiff) return 0;
    constexpr int64_t step = 32 / sizeof(T);
    int64_t i = 0;
    for (; i + step <= n; i += step) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
      const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i));
      __m256i r;
      if constexpr (std::is_same<T, uint8_t>::value) r = op == kAdd ? _mm256_adds_epu8(x, y) : _mm256_subs_epu8(x, y);
      else if constexpr (std::is_same<T, int8_t>::value) r = op == kAdd ? _mm256_adds_epi8(x, y) : _mm256_subs_epi8(x, y);
      else if constexpr (std::is_same<T, uint16_t>::value) r = op == kAdd ? _mm256_adds_epu16(x, y) : _mm256_subs_epu16(x, y);
      else r = op == kAdd ? _mm256_adds_epi16(x, y) : _mm256_subs_epi16(x, y);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), r);
    }
    return i;
  }
#endif

  static bool near_one(double s) { return std::fabs(double(float(s)) - 1.0) <= 1.1920928955078125e-07; }

  void mul(const T* a, const T* b, T* o, int64_t n) const {
    const double s = fl[0];
    if constexpr (std::is_same<T, double>::value) {
      for (int64_t i = 0; i < n; ++i) o[i] = (a[i] * s) * b[i];
    } else {
      if constexpr (std::is_same<T, uint16_t>::value) {
        if (near_one(s)) {
          // cv2 multiplies two uint16 images in int: a product past 2^31 wraps negative -> 0
          for (int64_t i = 0; i < n; ++i) {
            const int32_t p = static_cast<int32_t>(uint32_t(a[i]) * uint32_t(b[i]));
            o[i] = static_cast<uint16_t>(p < 0 ? 0 : (p > 65535 ? 65535 : p));
          }
          return;
        }
      }
      const float fs = static_cast<float>(s);
      float_work2(a, b, o, n, [fs](auto x, auto y) {
        using V = decltype(x);
        return f_mul(f_mul(x, splat<V>(fs)), y);
      });
    }
  }

  void div(const T* a, const T* b, T* o, int64_t n) const {
    const double s = fl[0];
    if constexpr (std::is_same<T, double>::value) {
      for (int64_t i = 0; i < n; ++i) o[i] = (a[i] * s) / b[i];
    } else {
      const float fs = static_cast<float>(s);
      if constexpr (kInt<T>) {
        // integer kernels: x / 0 is 0
        float_work2(a, b, o, n, [fs](auto x, auto y) {
          using V = decltype(x);
          return f_zero_where(y, f_div(f_mul(x, splat<V>(fs)), y));
        });
      } else if (near_one(s)) {
        float_work2(a, b, o, n, [](auto x, auto y) { return f_div(x, y); });
      } else {
        float_work2(a, b, o, n, [fs](auto x, auto y) {
          using V = decltype(x);
          return f_div(f_mul(x, splat<V>(fs)), y);
        });
      }
    }
  }

  void add_weighted(const T* a, const T* b, T* o, int64_t n) const {
    if constexpr (std::is_same<T, double>::value) {
      const double al = fl[0], be = fl[1], ga = fl[2];
      for (int64_t i = 0; i < n; ++i) o[i] = std::fma(a[i], al, std::fma(b[i], be, ga));
    } else {
      const float al = static_cast<float>(fl[0]), be = static_cast<float>(fl[1]), ga = static_cast<float>(fl[2]);
      float_work2(a, b, o, n, [al, be, ga](auto x, auto y) {
        using V = decltype(x);
        return f_fma(x, splat<V>(al), f_fma(y, splat<V>(be), splat<V>(ga)));
      });
    }
  }

  // |x * alpha + beta| with float32 alpha, beta, then cvRound (whose INT_MIN past int32 or for
  // NaN saturates to 0). float64 images: cv2 runs its vector loop on rows of 16 elements or more,
  // which rounds x to float32 and takes the float32 fma (fl[2] != 0 says the rows are that long),
  // and its scalar loop (a double fma) on shorter rows. Every other depth: cv2's cvtabs_32f, one
  // float32 fma of the source converted to float32 (exact for 8/16-bit), at every width: its
  // scalar tail is contracted to the same fma (1x3 float32 22.5 * (1/3) - 5 gives 3, not the
  // 2 of separate float32 roundings).
  void convert_scale_abs(const T* a, uint8_t* o, int64_t n) const {
    if constexpr (std::is_same<T, double>::value) {
      const double al = double(float(fl[0])), be = double(float(fl[1]));
      if (fl.size() > 2 && fl[2] != 0) {
        const float af = float(al), bf = float(be);
        int64_t i = 0;
#if defined(__AVX2__)
        const __m256 va = _mm256_set1_ps(af), vb = _mm256_set1_ps(bf), sign = _mm256_set1_ps(-0.0f);
        for (; i + 8 <= n; i += 8) {
          const __m256 x = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_loadu_pd(a + i + 4)), _mm256_cvtpd_ps(_mm256_loadu_pd(a + i)));
          store8(o + i, _mm256_andnot_ps(sign, _mm256_fmadd_ps(x, va, vb)));
        }
#endif
        for (; i < n; ++i) o[i] = sat<uint8_t>(double(std::fabs(std::fma(float(a[i]), af, bf))));
      } else {
        for (int64_t i = 0; i < n; ++i) o[i] = sat<uint8_t>(std::fabs(std::fma(a[i], al, be)));
      }
    } else {
      const float al = static_cast<float>(fl[0]), be = static_cast<float>(fl[1]);
      int64_t i = 0;
#if defined(__AVX2__)
      const __m256 va = _mm256_set1_ps(al), vb = _mm256_set1_ps(be), sign = _mm256_set1_ps(-0.0f);
      auto f = [&](int64_t j) { return _mm256_andnot_ps(sign, _mm256_fmadd_ps(load8(a + j), va, vb)); };
      // 32 results a store: cvtps_epi32 is cvRound (INT_MIN out of range), the signed then
      // unsigned saturating packs are saturate_cast<uchar> of it (INT_MIN -> -32768 -> 0)
      const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
      const bool nt = stream_out && n >= 64;
      if (nt)
        for (; (reinterpret_cast<uintptr_t>(o + i) & 31) != 0; ++i) o[i] = sat<uint8_t>(double(std::fabs(std::fma(static_cast<float>(a[i]), al, be))));
      for (; i + 32 <= n; i += 32) {
        const __m256i p0 = _mm256_packs_epi32(_mm256_cvtps_epi32(f(i)), _mm256_cvtps_epi32(f(i + 8)));
        const __m256i p1 = _mm256_packs_epi32(_mm256_cvtps_epi32(f(i + 16)), _mm256_cvtps_epi32(f(i + 24)));
        const __m256i b = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(p0, p1), order);
        if (nt) _mm256_stream_si256(reinterpret_cast<__m256i*>(o + i), b);
        else _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), b);
      }
      if (nt) _mm_sfence();
      for (; i + 8 <= n; i += 8) store8(o + i, f(i));
#endif
      for (; i < n; ++i) o[i] = sat<uint8_t>(double(std::fabs(std::fma(static_cast<float>(a[i]), al, be))));
    }
  }

  bool int_scalar() const { return kInt<T> && (op == kAddS || op == kSubS || op == kRSubS || op == kAbsdiffS); }

  // The Scalar of channel k as the loops use it: cvRound'ed for add / subtract / absdiff of an
  // integer image.
  double scalar_value(int64_t k) const { return int_scalar() ? round_int32(fl[1 + k]) : fl[1 + k]; }

  // add / subtract / reverse subtract of an integer image whose Scalar x +- v stays in int32
  bool small_add() const {
    if (!int_scalar() || op == kAbsdiffS) return false;
    for (int64_t k = 0; k < c; ++k)
      if (!(std::fabs(scalar_value(k)) <= 1073741824.0)) return false;
    return true;
  }

  // Once per call, before the threads split the work: an 8-bit image against a Scalar (but the
  // integer adds, SIMD at memory speed) takes its 256 results per channel from scalar_loop
  // itself, so the table holds the double loop's bits. All channels alike share one table.
  void prepare(int64_t n) {
    // A float32 convertScaleAbs this large reads its source from memory, not cache: writing its
    // quarter-size result around the cache saves reading each output line first. 1080p x3,
    // interleaved with cv2 on the Zen 4 host: median 0.79-0.86 ms streamed against 1.03-1.25
    // ms with ordinary stores (cv2: 1.04-1.13 ms).
    if constexpr (std::is_same<T, float>::value) stream_out = op == kConvertScaleAbs && n * 5 >= (int64_t(6) << 20);
    if constexpr (sizeof(T) == 1) {
      if (op < kAddS || c > 4 || n < 4096 || small_add()) return;
      bool same = true;  // one Scalar value for every channel (bitwise: -0.0 is not 0.0 to a divide)
      for (int64_t k = 1; k < c; ++k) {
        const double v0 = scalar_value(0), vk = scalar_value(k);
        same = same && std::memcmp(&v0, &vk, sizeof(double)) == 0;
      }
      lut_c = same ? 1 : c;
      T x[256], y[256];
      for (int b = 0; b < 256; ++b) x[b] = static_cast<T>(static_cast<uint8_t>(b));
      lut.resize(256 * lut_c);
      std::vector<double> v(256);
      for (int64_t k = 0; k < lut_c; ++k) {
        std::fill(v.begin(), v.end(), scalar_value(k));
        scalar_loop(x, y, 256, fl[0], v.data());
        std::memcpy(lut.data() + 256 * k, y, 256);
      }
    }
  }

  // The operations with a Scalar, all in double (add / subtract / absdiff round the Scalar to
  // an integer first for integer images).
  void with_scalar(const T* a, T* o, int64_t n) const {
    if constexpr (sizeof(T) == 1) {
      if (lut_c) return lut_u8(a, o, n, lut.data(), lut_c, c);
    }
    // (Small images make this set-up visible: it is per channel, not per element.)
    std::vector<double> vals(static_cast<size_t>(c));
    for (int64_t k = 0; k < c; ++k) vals[k] = scalar_value(k);
    if constexpr (kInt<T>) {
      if (small_add()) {
        // x +- v cannot leave int32 (|x| <= 65535): the double sum's saturation is int32's
        std::vector<int32_t> iv(vals.begin(), vals.end());
#if defined(__AVX2__)
        if constexpr (sizeof(T) <= 2) {
          const ScalarAddOp aop = op == kAddS ? kScalarAdd : op == kSubS ? kScalarSub : kScalarRSub;
          const int64_t done = add_scalar_avx2(a, o, n, iv.data(), c, aop);
          a += done, o += done, n -= done;
        }
#endif
        // from a pixel boundary on (the SIMD part is whole pixels): element i is channel k
        for (int64_t i = 0, k = 0; i < n; ++i, k = k + 1 == c ? 0 : k + 1) {
          const int32_t x = int32_t(a[i]);
          o[i] = sat_int<T>(op == kAddS ? x + iv[k] : op == kSubS ? x - iv[k] : iv[k] - x);
        }
        return;
      }
    }
    // The Scalar repeated over a block of whole pixels (the range starts at a pixel boundary).
    const int64_t block = c * std::max<int64_t>(1, 1024 / c);
    std::vector<double> v(static_cast<size_t>(block));
    for (int64_t i = 0; i < block; i += c) std::memcpy(v.data() + i, vals.data(), sizeof(double) * c);
    for (int64_t p = 0; p < n; p += block) scalar_loop(a + p, o + p, std::min(block, n - p), fl[0], v.data());
  }

  void scalar_loop(const T* a, T* o, int64_t n, double s, const double* v) const {
    switch (op) {
      case kAddS: for (int64_t i = 0; i < n; ++i) o[i] = sat<T>(double(a[i]) + v[i]); break;
      case kSubS: for (int64_t i = 0; i < n; ++i) o[i] = sat<T>(double(a[i]) - v[i]); break;
      case kRSubS: for (int64_t i = 0; i < n; ++i) o[i] = sat<T>(v[i] - double(a[i])); break;
      case kAbsdiffS:
        if constexpr (kInt<T>) {
          // cv2 subtracts in int32, wrapping (|0 - INT_MIN| is INT_MIN, saturated)
          for (int64_t i = 0; i < n; ++i) {
            const int64_t d = wrap32(int64_t(a[i]) - static_cast<int64_t>(v[i]));
            o[i] = sat<T>(double(wrap32(d < 0 ? -d : d)));
          }
        } else {
          for (int64_t i = 0; i < n; ++i) o[i] = sat<T>(std::fabs(double(a[i]) - v[i]));
        }
        break;
      case kMulS: for (int64_t i = 0; i < n; ++i) o[i] = sat<T>((double(a[i]) * s) * v[i]); break;
      case kRMulS: for (int64_t i = 0; i < n; ++i) o[i] = sat<T>((v[i] * s) * double(a[i])); break;
      case kDivS: for (int64_t i = 0; i < n; ++i) o[i] = sat<T>((double(a[i]) * s) / v[i]); break;
      case kRDivS: for (int64_t i = 0; i < n; ++i) o[i] = sat<T>((v[i] * s) / double(a[i])); break;
      default: break;
    }
  }
};

class ArithKernel final : public backend::Kernel {
 public:
  explicit ArithKernel(const backend::StepDesc& s) {
    const Shape& sh = s.inputs[0].shape;
    n_ = numel(sh);
    c_ = sh.size() == 3 ? sh[2] : 1;
    dt_ = s.inputs[0].dtype;
    op_ = s.params->ints[0];
    fl_ = s.params->floats;
    two_ = s.inputs.size() == 2;
  }
  void run(char* const* in, char* out) override {
    switch (dt_) {
      case DType::UInt8: return go<uint8_t>(in, out);
      case DType::Int8: return go<int8_t>(in, out);
      case DType::UInt16: return go<uint16_t>(in, out);
      case DType::Int16: return go<int16_t>(in, out);
      case DType::Float32: return go<float>(in, out);
      case DType::Float64: return go<double>(in, out);
      default: return;
    }
  }

 private:
  template <class T>
  void go(char* const* in, char* out) {
    if (n_ == 0 || c_ == 0) return;
    Arith<T> k{op_, fl_, c_};
    k.prepare(n_);
    const T* a = reinterpret_cast<const T*>(in[0]);
    const T* b = two_ ? reinterpret_cast<const T*>(in[1]) : nullptr;
    const int64_t npix = n_ / c_;
    parallel_for(npix, std::max<int64_t>(1, (int64_t(1) << 16) / c_), [&](int64_t p0, int64_t p1) {
      k.run(a, b, out, p0 * c_, p1 * c_);
      // cv2 reports no IEEE conditions (x / 0, inf - inf, NaN compares): leave none for the
      // engine's errstate reporting
      std::feclearexcept(FE_ALL_EXCEPT);
    });
  }

  int64_t n_, c_, op_;
  DType dt_;
  std::vector<double> fl_;
  bool two_;
};

std::unique_ptr<backend::Kernel> prepare_arith(const backend::StepDesc& s) { return std::make_unique<ArithKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_arith, "cv_arith", &prepare_arith);

}  // namespace mnn::cpu::MNN_ISA_NS
