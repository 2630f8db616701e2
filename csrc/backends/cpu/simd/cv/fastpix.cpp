// CPU kernels of the single-pass pixel primitives (shape rules: ops/cv/fastpix.cpp): threshold,
// inRange, LUT on uint8, countNonZero, minMaxLoc, split, merge, integer absdiff. Compiled once per ISA.
//
// Every loop here is exact integer or float comparison / selection / copying, so each ISA's build
// gives the scalar build's bits. Most are written as plain loops the compiler vectorises (selects,
// not branches); intrinsics are used where it does not: the float min/max reduction (it will not
// reorder a float reduction), the byte-counting of countNonZero, and the AVX-512 VBMI table lookup.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
// GCC 12's AVX-512 min/max intrinsics start from an uninitialised register by design (their
// masked builtins ignore it) and -Wmaybe-uninitialized reports that inside the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "backends/cpu/simd/cv/interleave_u8.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

constexpr int64_t kGrain = int64_t(1) << 16;  // elements per task: below this threads cost more than they save

// ---- threshold: cv2's five rules, in the forms whose NaN answers are cv2's. For 8/16-bit and
// float32 images a NaN pixel or threshold gives 0 for the binary types and the pixel itself
// otherwise. cv2's float64 loops differ: TOZERO and TOZERO_INV give 0 for NaN, and TRUNC is a
// min instruction (NaN pixel -> the threshold) on pairs of elements of a row and the plain
// select (NaN stays) on an odd last one (K == 5 is that min form) ----

template <class T, int K>
void thresh_loop(const T* __restrict x, T* __restrict o, int64_t n, T t, T m) {
  constexpr bool f64 = std::is_same<T, double>::value;
  for (int64_t i = 0; i < n; ++i) {
    const T v = x[i];
    if constexpr (K == 0) o[i] = v > t ? m : T(0);
    else if constexpr (K == 1) o[i] = v <= t ? m : T(0);
    else if constexpr (K == 2) o[i] = v > t ? t : v;
    else if constexpr (K == 3) o[i] = f64 ? (v > t ? v : T(0)) : (v <= t ? T(0) : v);
    else if constexpr (K == 4) o[i] = f64 ? (v <= t ? v : T(0)) : (v > t ? T(0) : v);
    else o[i] = v < t ? v : t;
  }
}

template <class T>
void thresh_any(const T* x, T* o, int64_t n, int kind, T t, T m) {
  switch (kind) {
    case 0: return thresh_loop<T, 0>(x, o, n, t, m);
    case 1: return thresh_loop<T, 1>(x, o, n, t, m);
    case 2: return thresh_loop<T, 2>(x, o, n, t, m);
    case 3: return thresh_loop<T, 3>(x, o, n, t, m);
    default: return thresh_loop<T, 4>(x, o, n, t, m);
  }
}

class ThreshKernel final : public backend::Kernel {
 public:
  explicit ThreshKernel(const backend::StepDesc& s)
      : n_(numel(s.inputs[0].shape)), dt_(s.inputs[0].dtype), kind_(int(s.params->ints[0])),
        row_(s.params->ints.size() > 1 ? s.params->ints[1] : 0), t_(s.params->floats[0]), m_(s.params->floats[1]) {}
  void run(char* const* in, char* out) override {
    switch (dt_) {
      case DType::UInt8: return go<uint8_t>(in[0], out);
      case DType::UInt16: return go<uint16_t>(in[0], out);
      case DType::Int16: return go<int16_t>(in[0], out);
      case DType::Float32: return go<float>(in[0], out);
      case DType::Float64: return go<double>(in[0], out);
      default: return;
    }
  }

 private:
  template <class T>
  void go(const char* a, char* out) {
    const T* x = reinterpret_cast<const T*>(a);
    T* o = reinterpret_cast<T*>(out);
    const T t = static_cast<T>(t_), m = static_cast<T>(m_);
    if (std::is_same<T, double>::value && kind_ == 2 && row_ > 0 && n_ > 0) {
      // cv2's rows (the whole image when it is continuous): pairs, then an odd last element
      const int64_t row = row_, even = row & ~int64_t(1);
      parallel_for(n_ / row, std::max<int64_t>(1, kGrain / row), [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
          thresh_loop<T, 5>(x + r * row, o + r * row, even, t, m);
          if (row & 1) thresh_loop<T, 2>(x + r * row + even, o + r * row + even, 1, t, m);
        }
      });
      return;
    }
    parallel_for(n_, kGrain, [&](int64_t lo, int64_t hi) { thresh_any<T>(x + lo, o + lo, hi - lo, kind_, t, m); });
  }
  int64_t n_;
  DType dt_;
  int kind_;
  int64_t row_;
  double t_, m_;
};

// ---- inRange: each channel's bounds already in the image's type (cv2 converts its Scalar) ----

// uint8: x in [lo, hi] is (uint8)(x - lo) <= hi - lo, one compare a channel.
template <int C>
void inrange_u8(const uint8_t* __restrict x, uint8_t* __restrict o, int64_t np, int64_t c,
                const uint8_t* lo, const uint8_t* r) {
  if constexpr (C == 1) {
    const uint8_t l0 = lo[0], r0 = r[0];
    for (int64_t p = 0; p < np; ++p) o[p] = uint8_t(x[p] - l0) <= r0 ? 255 : 0;
  } else if constexpr (C == 3) {
    const uint8_t l0 = lo[0], l1 = lo[1], l2 = lo[2], r0 = r[0], r1 = r[1], r2 = r[2];
    for (int64_t p = 0; p < np; ++p) {
      const bool ok = (uint8_t(x[3 * p] - l0) <= r0) & (uint8_t(x[3 * p + 1] - l1) <= r1) &
                      (uint8_t(x[3 * p + 2] - l2) <= r2);
      o[p] = ok ? 255 : 0;
    }
  } else if constexpr (C == 4) {
    const uint8_t l0 = lo[0], l1 = lo[1], l2 = lo[2], l3 = lo[3], r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
    for (int64_t p = 0; p < np; ++p) {
      const bool ok = (uint8_t(x[4 * p] - l0) <= r0) & (uint8_t(x[4 * p + 1] - l1) <= r1) &
                      (uint8_t(x[4 * p + 2] - l2) <= r2) & (uint8_t(x[4 * p + 3] - l3) <= r3);
      o[p] = ok ? 255 : 0;
    }
  } else {
    for (int64_t p = 0; p < np; ++p) {
      bool ok = true;
      for (int64_t k = 0; k < c; ++k) ok &= uint8_t(x[p * c + k] - lo[k]) <= r[k];
      o[p] = ok ? 255 : 0;
    }
  }
}

template <class T>
void inrange_any(const T* __restrict x, uint8_t* __restrict o, int64_t np, int64_t c, const T* lo, const T* hi) {
  if (c == 1) {
    const T l0 = lo[0], h0 = hi[0];
    for (int64_t p = 0; p < np; ++p) o[p] = (x[p] >= l0) & (x[p] <= h0) ? 255 : 0;
    return;
  }
  for (int64_t p = 0; p < np; ++p) {
    bool ok = true;
    for (int64_t k = 0; k < c; ++k) ok &= (x[p * c + k] >= lo[k]) & (x[p * c + k] <= hi[k]);
    o[p] = ok ? 255 : 0;
  }
}

class InRangeKernel final : public backend::Kernel {
 public:
  explicit InRangeKernel(const backend::StepDesc& s) : dt_(s.inputs[0].dtype), b_(s.params->floats) {
    const Shape& sh = s.inputs[0].shape;
    c_ = sh.size() == 3 ? sh[2] : 1;
    np_ = sh[0] * sh[1];
  }
  void run(char* const* in, char* out) override {
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    switch (dt_) {
      case DType::UInt8: return go_u8(reinterpret_cast<const uint8_t*>(in[0]), o);
      case DType::Int8: return go<int8_t>(in[0], o);
      case DType::UInt16: return go<uint16_t>(in[0], o);
      case DType::Int16: return go<int16_t>(in[0], o);
      case DType::Int32: return go<int32_t>(in[0], o);
      case DType::Float32: return go<float>(in[0], o);
      case DType::Float64: return go<double>(in[0], o);
      default: return;
    }
  }

 private:
  // Integer bounds clipped to the type; false when a channel's range holds no value of it.
  template <class T>
  bool int_bounds(std::vector<T>& lo, std::vector<T>& hi) const {
    constexpr double tmin = double(std::numeric_limits<T>::lowest()), tmax = double(std::numeric_limits<T>::max());
    for (int64_t k = 0; k < c_; ++k) {
      const double l = std::max(b_[k], tmin), h = std::min(b_[c_ + k], tmax);
      if (!(l <= h)) return false;
      lo[k] = static_cast<T>(l), hi[k] = static_cast<T>(h);
    }
    return true;
  }
  void go_u8(const uint8_t* x, uint8_t* o) {
    std::vector<uint8_t> lo(c_), hi(c_), r(c_);
    if (!int_bounds(lo, hi)) return std::memset(o, 0, size_t(np_)), void();
    for (int64_t k = 0; k < c_; ++k) r[k] = uint8_t(hi[k] - lo[k]);
    const int64_t c = c_;
    parallel_for(np_, std::max<int64_t>(1, kGrain / c), [&](int64_t p0, int64_t p1) {
      const uint8_t* xs = x + p0 * c;
      switch (c) {
        case 1: return inrange_u8<1>(xs, o + p0, p1 - p0, c, lo.data(), r.data());
        case 3: return inrange_u8<3>(xs, o + p0, p1 - p0, c, lo.data(), r.data());
        case 4: return inrange_u8<4>(xs, o + p0, p1 - p0, c, lo.data(), r.data());
        default: return inrange_u8<0>(xs, o + p0, p1 - p0, c, lo.data(), r.data());
      }
    });
  }
  template <class T>
  void go(const char* a, uint8_t* o) {
    const T* x = reinterpret_cast<const T*>(a);
    std::vector<T> lo(c_), hi(c_);
    if constexpr (std::is_integral<T>::value) {
      if (!int_bounds(lo, hi)) return std::memset(o, 0, size_t(np_)), void();
    } else {
      // float bounds are exact in T (Python rounded them to the image's type); NaN stays NaN
      for (int64_t k = 0; k < c_; ++k) lo[k] = static_cast<T>(b_[k]), hi[k] = static_cast<T>(b_[c_ + k]);
    }
    const int64_t c = c_;
    parallel_for(np_, std::max<int64_t>(1, kGrain / c), [&](int64_t p0, int64_t p1) {
      inrange_any<T>(x + p0 * c, o + p0, p1 - p0, c, lo.data(), hi.data());
    });
  }
  DType dt_;
  std::vector<double> b_;
  int64_t c_, np_;
};

// ---- LUT, uint8 -> uint8 ----

#if defined(__AVX512F__)
// 64 lookups in a 256-byte table held in four registers: two two-table byte permutes (bit 6 of
// the index picks the register, bit 7 is ignored) and a blend on bit 7. Compiled for VBMI
// whatever the target's flags, and used only where cpuid reports it.
__attribute__((target("avx512vbmi,avx512bw,avx512f")))
void lut1_vbmi(const uint8_t* __restrict x, uint8_t* __restrict o, int64_t n, const uint8_t* t) {
  const __m512i t0 = _mm512_loadu_si512(t), t1 = _mm512_loadu_si512(t + 64);
  const __m512i t2 = _mm512_loadu_si512(t + 128), t3 = _mm512_loadu_si512(t + 192);
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i v = _mm512_loadu_si512(x + i);
    const __m512i a = _mm512_permutex2var_epi8(t0, v, t1), b = _mm512_permutex2var_epi8(t2, v, t3);
    _mm512_storeu_si512(o + i, _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), a, b));
  }
  for (; i < n; ++i) o[i] = t[x[i]];
}
bool has_vbmi() {
  static const bool v = __builtin_cpu_supports("avx512vbmi");
  return v;
}
#endif

void lut1(const uint8_t* __restrict x, uint8_t* __restrict o, int64_t n, const uint8_t* t) {
#if defined(__AVX512F__)
  if (has_vbmi()) return lut1_vbmi(x, o, n, t);
#endif
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint8_t a = t[x[i]], b = t[x[i + 1]], c = t[x[i + 2]], d = t[x[i + 3]];
    o[i] = a, o[i + 1] = b, o[i + 2] = c, o[i + 3] = d;
  }
  for (; i < n; ++i) o[i] = t[x[i]];
}

class LutU8Kernel final : public backend::Kernel {
 public:
  explicit LutU8Kernel(const backend::StepDesc& s) {
    const Shape& a = s.inputs[0].shape;
    c_ = a.size() == 3 ? a[2] : 1;
    n_ = numel(a);
    tc_ = s.inputs[1].shape.size() == 2 ? s.inputs[1].shape[1] : 1;
  }
  void run(char* const* in, char* out) override {
    const uint8_t* x = reinterpret_cast<const uint8_t*>(in[0]);
    const uint8_t* t = reinterpret_cast<const uint8_t*>(in[1]);
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    const int64_t c = c_;
    if (tc_ == 1 || c == 1) {
      parallel_for(n_, kGrain, [&](int64_t lo, int64_t hi) { lut1(x + lo, o + lo, hi - lo, t); });
      return;
    }
    // per-channel tables, (256, c): transposed once so each channel's table is contiguous
    std::vector<uint8_t> tt(static_cast<size_t>(256 * c));
    for (int64_t v = 0; v < 256; ++v)
      for (int64_t k = 0; k < c; ++k) tt[k * 256 + v] = t[v * c + k];
    const uint8_t* T = tt.data();
    parallel_for(n_ / c, std::max<int64_t>(1, kGrain / c), [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p)
        for (int64_t k = 0; k < c; ++k) o[p * c + k] = T[k * 256 + x[p * c + k]];
    });
  }

 private:
  int64_t c_, n_, tc_;
};

// ---- countNonZero ----

template <class T>
int64_t count_nz(const T* x, int64_t n) {
  int64_t i = 0, cnt = 0;
#if defined(__AVX512F__)
  if constexpr (sizeof(T) == 1) {
    // per-byte counters (min(v, 1)), folded into 64-bit sums before they can wrap
    const __m512i one = _mm512_set1_epi8(1);
    __m512i total = _mm512_setzero_si512();
    while (i + 64 <= n) {
      __m512i acc = _mm512_setzero_si512();
      const int64_t stop = std::min(n - 63, i + 64 * 255);
      for (; i < stop; i += 64) acc = _mm512_add_epi8(acc, _mm512_min_epu8(_mm512_loadu_si512(x + i), one));
      total = _mm512_add_epi64(total, _mm512_sad_epu8(acc, _mm512_setzero_si512()));
    }
    alignas(64) int64_t s[8];  // (stored and summed: GCC 12's reduce intrinsics warn about their own code)
    _mm512_store_si512(s, total);
    for (int k = 0; k < 8; ++k) cnt += s[k];
  } else if constexpr (std::is_same<T, float>::value) {
    __m512i acc = _mm512_setzero_si512();
    const __m512i one = _mm512_set1_epi32(1);
    for (; i + 16 <= n; i += 16) {
      const __mmask16 m = _mm512_cmp_ps_mask(_mm512_loadu_ps(x + i), _mm512_setzero_ps(), _CMP_NEQ_UQ);
      acc = _mm512_mask_add_epi32(acc, m, acc, one);
    }
    alignas(64) int32_t s[16];
    _mm512_store_si512(s, acc);
    for (int k = 0; k < 16; ++k) cnt += s[k];
  }
#elif defined(__AVX2__)
  if constexpr (sizeof(T) == 1) {
    // counts the zero bytes (cmpeq is -1 there), folded before the byte counters wrap
    __m256i total = _mm256_setzero_si256();
    int64_t zeros = 0, done = 0;
    while (i + 32 <= n) {
      __m256i acc = _mm256_setzero_si256();
      const int64_t stop = std::min(n - 31, i + 32 * 255);
      for (; i < stop; i += 32)
        acc = _mm256_sub_epi8(acc, _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)),
                                                     _mm256_setzero_si256()));
      total = _mm256_add_epi64(total, _mm256_sad_epu8(acc, _mm256_setzero_si256()));
    }
    done = i;
    alignas(32) int64_t s[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(s), total);
    zeros = s[0] + s[1] + s[2] + s[3];
    cnt = done - zeros;
  } else if constexpr (std::is_same<T, float>::value) {
    __m256i acc = _mm256_setzero_si256();
    for (; i + 8 <= n; i += 8) {
      const __m256 m = _mm256_cmp_ps(_mm256_loadu_ps(x + i), _mm256_setzero_ps(), _CMP_NEQ_UQ);
      acc = _mm256_sub_epi32(acc, _mm256_castps_si256(m));
    }
    alignas(32) int32_t s[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(s), acc);
    for (int k = 0; k < 8; ++k) cnt += s[k];
  }
#endif
  for (; i < n; ++i) cnt += x[i] != T(0);  // a NaN is not zero
  return cnt;
}

template <class F>
void by_type(DType d, F&& f) {
  switch (d) {
    case DType::UInt8: return f(uint8_t{});
    case DType::Int8: return f(int8_t{});
    case DType::UInt16: return f(uint16_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    default: return;
  }
}

// Fixed-size chunks, so the partial results and their combination do not depend on the thread count.
constexpr int64_t kChunk = int64_t(1) << 18;

class CountKernel final : public backend::Kernel {
 public:
  explicit CountKernel(const backend::StepDesc& s) : n_(numel(s.inputs[0].shape)), dt_(s.inputs[0].dtype) {}
  void run(char* const* in, char* out) override {
    int64_t total = 0;
    by_type(dt_, [&](auto zero) {
      using T = decltype(zero);
      const T* x = reinterpret_cast<const T*>(in[0]);
      const int64_t nc = (n_ + kChunk - 1) / kChunk;
      std::vector<int64_t> part(static_cast<size_t>(std::max<int64_t>(nc, 1)), 0);
      parallel_for(nc, 1, [&](int64_t c0, int64_t c1) {
        for (int64_t c = c0; c < c1; ++c) part[c] = count_nz<T>(x + c * kChunk, std::min(kChunk, n_ - c * kChunk));
      });
      for (int64_t v : part) total += v;
    });
    std::memcpy(out, &total, sizeof(total));
  }

 private:
  int64_t n_;
  DType dt_;
};

// ---- minMaxLoc ----

// min and max of x[0, n), starting from (mn, mx) (never NaN); NaN elements are skipped, as the
// selects below and the min/max instructions (which return their second operand on NaN) both do.
template <class T>
void min_max(const T* x, int64_t n, T& mn, T& mx) {
  int64_t i = 0;
  T a = mn, b = mx;
#if defined(__AVX512F__)
  if constexpr (std::is_same<T, float>::value) {
    __m512 vmn = _mm512_set1_ps(a), vmx = _mm512_set1_ps(b), wmn = vmn, wmx = vmx;
    // two vectors a step into two accumulator pairs (min/max latency would bound one pair);
    // (v, acc) order: a NaN in v leaves acc as it was
    for (; i + 32 <= n; i += 32) {
      const __m512 v = _mm512_loadu_ps(x + i), u = _mm512_loadu_ps(x + i + 16);
      vmn = _mm512_min_ps(v, vmn), vmx = _mm512_max_ps(v, vmx);
      wmn = _mm512_min_ps(u, wmn), wmx = _mm512_max_ps(u, wmx);
    }
    vmn = _mm512_min_ps(wmn, vmn), vmx = _mm512_max_ps(wmx, vmx);
    for (; i + 16 <= n; i += 16) {
      const __m512 v = _mm512_loadu_ps(x + i);
      vmn = _mm512_min_ps(v, vmn), vmx = _mm512_max_ps(v, vmx);
    }
    alignas(64) float s[16], t[16];
    _mm512_store_ps(s, vmn), _mm512_store_ps(t, vmx);
    for (int k = 0; k < 16; ++k) a = s[k] < a ? s[k] : a, b = t[k] > b ? t[k] : b;
  }
#elif defined(__AVX2__)
  if constexpr (std::is_same<T, float>::value) {
    __m256 vmn = _mm256_set1_ps(a), vmx = _mm256_set1_ps(b);
    for (; i + 8 <= n; i += 8) {
      const __m256 v = _mm256_loadu_ps(x + i);
      vmn = _mm256_min_ps(v, vmn), vmx = _mm256_max_ps(v, vmx);
    }
    alignas(32) float s[8], t[8];
    _mm256_store_ps(s, vmn), _mm256_store_ps(t, vmx);
    for (int k = 0; k < 8; ++k) a = s[k] < a ? s[k] : a, b = t[k] > b ? t[k] : b;
  }
#endif
#if defined(__AVX512F__)
  if constexpr (std::is_same<T, uint8_t>::value) {
    // eight vectors a step: enough loads in flight to stream from L3 at count_nz's pace
    __m512i n0 = _mm512_set1_epi8(char(a)), n1 = n0, x0 = _mm512_set1_epi8(char(b)), x1 = x0;
    for (; i + 512 <= n; i += 512) {
      __m512i l[4], h[4];
      for (int k = 0; k < 4; ++k) {
        const __m512i v0 = _mm512_loadu_si512(x + i + 128 * k), v1 = _mm512_loadu_si512(x + i + 128 * k + 64);
        l[k] = _mm512_min_epu8(v0, v1), h[k] = _mm512_max_epu8(v0, v1);
      }
      n0 = _mm512_min_epu8(n0, _mm512_min_epu8(l[0], l[1])), n1 = _mm512_min_epu8(n1, _mm512_min_epu8(l[2], l[3]));
      x0 = _mm512_max_epu8(x0, _mm512_max_epu8(h[0], h[1])), x1 = _mm512_max_epu8(x1, _mm512_max_epu8(h[2], h[3]));
    }
    for (; i + 64 <= n; i += 64) {
      const __m512i v = _mm512_loadu_si512(x + i);
      n0 = _mm512_min_epu8(n0, v), x0 = _mm512_max_epu8(x0, v);
    }
    alignas(64) uint8_t s[64], t[64];
    _mm512_store_si512(s, _mm512_min_epu8(n0, n1)), _mm512_store_si512(t, _mm512_max_epu8(x0, x1));
    for (int k = 0; k < 64; ++k) a = std::min(a, s[k]), b = std::max(b, t[k]);
  }
#elif defined(__AVX2__)
  if constexpr (std::is_same<T, uint8_t>::value) {
    __m256i n0 = _mm256_set1_epi8(char(a)), n1 = n0, x0 = _mm256_set1_epi8(char(b)), x1 = x0;
    for (; i + 64 <= n; i += 64) {
      const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
      const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i + 32));
      n0 = _mm256_min_epu8(n0, v0), n1 = _mm256_min_epu8(n1, v1);
      x0 = _mm256_max_epu8(x0, v0), x1 = _mm256_max_epu8(x1, v1);
    }
    alignas(32) uint8_t s[32], t[32];
    _mm256_store_si256(reinterpret_cast<__m256i*>(s), _mm256_min_epu8(n0, n1));
    _mm256_store_si256(reinterpret_cast<__m256i*>(t), _mm256_max_epu8(x0, x1));
    for (int k = 0; k < 32; ++k) a = std::min(a, s[k]), b = std::max(b, t[k]);
  }
#endif
  if constexpr (std::is_integral<T>::value) {
    // integer min/max reductions vectorise as written
    for (; i < n; ++i) a = std::min(a, x[i]), b = std::max(b, x[i]);
  } else {
    for (; i < n; ++i) a = x[i] < a ? x[i] : a, b = x[i] > b ? x[i] : b;
  }
  mn = a, mx = b;
}

// The first index holding v: blocks of 64 tested with a vectorisable OR, then searched.
template <class T>
int64_t first_equal(const T* x, int64_t n, T v) {
  int64_t i = 0;
#if defined(__AVX512F__)
  if constexpr (std::is_same<T, uint8_t>::value) {
    const __m512i w = _mm512_set1_epi8(char(v));
    for (; i + 64 <= n; i += 64) {
      const __mmask64 m = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(x + i), w);
      if (m) return i + __builtin_ctzll(m);
    }
  } else if constexpr (std::is_same<T, float>::value) {
    const __m512 w = _mm512_set1_ps(v);
    for (; i + 16 <= n; i += 16) {
      const __mmask16 m = _mm512_cmp_ps_mask(_mm512_loadu_ps(x + i), w, _CMP_EQ_OQ);
      if (m) return i + __builtin_ctz(m);
    }
  }
#elif defined(__AVX2__)
  if constexpr (std::is_same<T, uint8_t>::value) {
    const __m256i w = _mm256_set1_epi8(char(v));
    for (; i + 32 <= n; i += 32) {
      const uint32_t m = uint32_t(_mm256_movemask_epi8(
          _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)), w)));
      if (m) return i + __builtin_ctz(m);
    }
  } else if constexpr (std::is_same<T, float>::value) {
    const __m256 w = _mm256_set1_ps(v);
    for (; i + 8 <= n; i += 8) {
      const int m = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(x + i), w, _CMP_EQ_OQ));
      if (m) return i + __builtin_ctz(unsigned(m));
    }
  }
#endif
  for (; i + 64 <= n; i += 64) {
    bool any = false;
    for (int k = 0; k < 64; ++k) any |= x[i + k] == v;
    if (any) break;
  }
  for (; i < n; ++i)
    if (x[i] == v) return i;
  return -1;
}

class MinMaxKernel final : public backend::Kernel {
 public:
  // ints: [mode], how cv2 answers when the first element is NaN (see run)
  explicit MinMaxKernel(const backend::StepDesc& s)
      : n_(numel(s.inputs[0].shape)), dt_(s.inputs[0].dtype), mode_(s.params->ints.empty() ? 0 : s.params->ints[0]) {}
  void run(char* const* in, char* out) override {
    double r[4] = {0.0, 0.0, -1.0, -1.0};
    by_type(dt_, [&](auto zero) {
      using T = decltype(zero);
      const T* x = reinterpret_cast<const T*>(in[0]);
      if (n_ == 0) return;
      int64_t f = 0;  // the element the reduction starts from
      if (x[0] != x[0]) {
        // cv2's scalar loops start from the first element and only NaN-false comparisons follow:
        // NaN, with no location (float32) or at the first element (float64); its float32 vector
        // loop skips NaN, whose answer is NaN and no location only when every element is NaN
        r[0] = r[1] = std::numeric_limits<double>::quiet_NaN();
        if (mode_ == 1) r[2] = r[3] = 0.0;
        if (mode_ != 2) return;
        while (f < n_ && x[f] != x[f]) ++f;
        if (f == n_) return;
      }
      const T x0 = x[f];
      // Per-block minima and maxima (64 KiB blocks), then the first index searched only in the
      // blocks whose extreme is the answer: one pass over the image, where searching the whole
      // image again costs another half pass or more when the extreme comes late (float data).
      // Every block starts from x0, so a block may report x0 without holding it: the search then
      // moves on to the next such block.
      const int64_t blk = 65536 / int64_t(sizeof(T)), nb = (n_ + blk - 1) / blk;
      std::vector<T> mn(static_cast<size_t>(nb), x0), mx(static_cast<size_t>(nb), x0);
      parallel_for(nb, std::max<int64_t>(1, kChunk / blk), [&](int64_t b0, int64_t b1) {
        for (int64_t k = b0; k < b1; ++k) min_max<T>(x + k * blk, std::min(blk, n_ - k * blk), mn[k], mx[k]);
      });
      T a = x0, b = x0;
      for (int64_t k = 0; k < nb; ++k) a = std::min(a, mn[k]), b = std::max(b, mx[k]);
      r[0] = double(a), r[1] = double(b);
      auto locate = [&](const std::vector<T>& ext, T v) -> int64_t {
        for (int64_t k = 0; k < nb; ++k) {
          if (ext[k] != v) continue;
          const int64_t at = first_equal<T>(x + k * blk, std::min(blk, n_ - k * blk), v);
          if (at >= 0) return k * blk + at;
        }
        return -1;
      };
      r[2] = double(locate(mn, a));
      r[3] = double(locate(mx, b));
    });
    std::memcpy(out, r, sizeof(r));
  }

 private:
  int64_t n_;
  DType dt_;
  int64_t mode_;
};

// ---- normalize(NORM_MINMAX) of a uint8 image into uint8, in one kernel: the range (min_max),
// scale and shift in the double arithmetic of mnn/cv/_core_ops.py's normalize (Python floats: the
// same operations in the same order; -ffp-contract=off), rounded to float32 as its mode-1
// conversion takes them, the 256 answers of that conversion (float32(v * scale + shift), rounded
// half to even, saturated) as a table, and the table lookup. Where that path records a statistics
// node, reads it back, and records a table and a lookup (two evaluations), this is one pass of
// reads and one of the lookup ----

inline uint8_t to_u8(double r) {
  double q = std::nearbyint(r);
  if (!(q >= -2147483648.0 && q <= 2147483647.0)) q = -2147483648.0;  // cvRound's INT_MIN
  return static_cast<uint8_t>(std::min(255.0, std::max(0.0, q)));
}

class NormMinMaxU8Kernel final : public backend::Kernel {
 public:
  // floats: alpha, beta (as the caller gave them; doubles)
  explicit NormMinMaxU8Kernel(const backend::StepDesc& s)
      : n_(numel(s.inputs[0].shape)), alpha_(s.params->floats[0]), beta_(s.params->floats[1]) {}
  void run(char* const* in, char* out) override {
    const uint8_t* x = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    if (n_ == 0) return;
    const int64_t blk = 65536, nb = (n_ + blk - 1) / blk;
    std::vector<uint8_t> mn(static_cast<size_t>(nb), x[0]), mx(static_cast<size_t>(nb), x[0]);
    parallel_for(nb, std::max<int64_t>(1, kChunk / blk), [&](int64_t b0, int64_t b1) {
      for (int64_t k = b0; k < b1; ++k) min_max<uint8_t>(x + k * blk, std::min(blk, n_ - k * blk), mn[k], mx[k]);
    });
    uint8_t a = x[0], b = x[0];
    for (int64_t k = 0; k < nb; ++k) a = std::min(a, mn[k]), b = std::max(b, mx[k]);
    constexpr double eps = 2.220446049250313e-16;  // DBL_EPSILON: cv2's test for a zero range
    const double smin = a, smax = b;
    // Python's builtins.min / max: the first argument unless the second compares below / above
    const double dmin = beta_ < alpha_ ? beta_ : alpha_, dmax = beta_ > alpha_ ? beta_ : alpha_;
    const double range = smax - smin;
    double scale = (dmax - dmin) * (range > eps ? 1.0 / range : 0.0);
    double shift = dmin - smin * scale;
    // float32 values, as Python's struct round trip gives them (volatile: the math flags may let
    // the compiler drop a double -> float -> double round trip of a variable)
    volatile float fs = static_cast<float>(scale), fb = static_cast<float>(shift);
    scale = fs, shift = fb;
    alignas(64) uint8_t lut[256];
    bool identity = true;  // an image spanning [alpha, beta] already (0..255 to 0..255): a copy
    for (int v = 0; v < 256; ++v) {
      lut[v] = to_u8(double(static_cast<float>(double(v) * scale + shift)));
      identity &= lut[v] == v;
    }
    parallel_for(n_, kGrain, [&](int64_t lo, int64_t hi) {
      if (identity) std::memcpy(o + lo, x + lo, size_t(hi - lo));
      else lut1(x + lo, o + lo, hi - lo, lut);
    });
  }

 private:
  int64_t n_;
  double alpha_, beta_;
};

// ---- split / merge: moves of whole elements, by element size ----

template <class U, int C>
void split_px(const U* __restrict x, U* const* o, int64_t p0, int64_t p1, int64_t c) {
  if constexpr (C > 0) {
    for (int k = 0; k < C; ++k) {
      U* __restrict d = o[k];
      for (int64_t p = p0; p < p1; ++p) d[p] = x[p * C + k];
    }
  } else {
    for (int64_t k = 0; k < c; ++k)
      for (int64_t p = p0; p < p1; ++p) o[k][p] = x[p * c + k];
  }
}

#if defined(__AVX512F__)
// Three planes of 64 bytes -> 192 interleaved bytes with VBMI byte permutes: per output vector
// one two-source permute takes the bytes of planes 0 and 1, a masked permute adds plane 2's.
// The index tables come from the layout (output byte j is plane j % 3, pixel j / 3).
__attribute__((target("avx512vbmi,avx512bw,avx512f")))
int64_t merge3_vbmi(const uint8_t* a, const uint8_t* b, const uint8_t* c, uint8_t* o, int64_t n) {
  alignas(64) uint8_t iab[3][64], ic[3][64];
  uint64_t mc[3] = {0, 0, 0};
  for (int j = 0; j < 192; ++j) {
    const int q = j / 64, k = j % 64, p = j % 3, idx = j / 3;
    iab[q][k] = static_cast<uint8_t>(p == 1 ? 64 + idx : idx);
    ic[q][k] = static_cast<uint8_t>(idx);
    if (p == 2) mc[q] |= uint64_t(1) << k;
  }
  __m512i vab[3], vc[3];
  for (int q = 0; q < 3; ++q) vab[q] = _mm512_load_si512(iab[q]), vc[q] = _mm512_load_si512(ic[q]);
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i va = _mm512_loadu_si512(a + i), vb = _mm512_loadu_si512(b + i), vcc = _mm512_loadu_si512(c + i);
    for (int q = 0; q < 3; ++q) {
      const __m512i t = _mm512_permutex2var_epi8(va, vab[q], vb);
      _mm512_storeu_si512(o + 3 * i + 64 * q, _mm512_mask_permutexvar_epi8(t, mc[q], vc[q], vcc));
    }
  }
  return i;
}
#endif

template <class U, int C>
void merge_px(const U* const* x, U* __restrict o, int64_t p0, int64_t p1, int64_t c) {
#if defined(__AVX512F__)
  if constexpr (sizeof(U) == 1 && C == 3) {
    if (has_vbmi()) {
      const int64_t done = merge3_vbmi(reinterpret_cast<const uint8_t*>(x[0]) + p0, reinterpret_cast<const uint8_t*>(x[1]) + p0,
                                       reinterpret_cast<const uint8_t*>(x[2]) + p0, reinterpret_cast<uint8_t*>(o) + 3 * p0,
                                       p1 - p0);
      p0 += done;
    }
  }
#endif
#if defined(__AVX2__)
  if constexpr (sizeof(U) == 1 && (C == 3 || C == 4)) {
    // 16 pixels at a time: three planes through the byte-shuffle interleave, four by unpacks
    const Interleave3& il = interleave3();
    auto ld = [&](int k, int64_t p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[k] + p)); };
    for (; p0 + 16 <= p1; p0 += 16) {
      if constexpr (C == 3) il.store(reinterpret_cast<uint8_t*>(o + 3 * p0), ld(0, p0), ld(1, p0), ld(2, p0));
      else store_c4(reinterpret_cast<uint8_t*>(o + 4 * p0), ld(0, p0), ld(1, p0), ld(2, p0), ld(3, p0));
    }
  }
#endif
  if constexpr (C == 2) {
    const U* __restrict a = x[0]; const U* __restrict b = x[1];
    for (int64_t p = p0; p < p1; ++p) o[2 * p] = a[p], o[2 * p + 1] = b[p];
  } else if constexpr (C == 3) {
    const U* __restrict a = x[0]; const U* __restrict b = x[1]; const U* __restrict d = x[2];
    for (int64_t p = p0; p < p1; ++p) o[3 * p] = a[p], o[3 * p + 1] = b[p], o[3 * p + 2] = d[p];
  } else if constexpr (C == 4) {
    const U* __restrict a = x[0]; const U* __restrict b = x[1]; const U* __restrict d = x[2];
    const U* __restrict e = x[3];
    for (int64_t p = p0; p < p1; ++p) o[4 * p] = a[p], o[4 * p + 1] = b[p], o[4 * p + 2] = d[p], o[4 * p + 3] = e[p];
  } else {
    for (int64_t k = 0; k < c; ++k)
      for (int64_t p = p0; p < p1; ++p) o[p * c + k] = x[k][p];
  }
}

template <class F>
void by_size(size_t sz, F&& f) {
  switch (sz) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    default: return f(uint64_t{});
  }
}

class SplitKernel final : public backend::Kernel {
 public:
  explicit SplitKernel(const backend::StepDesc& s) {
    const Shape& sh = s.inputs[0].shape;
    np_ = sh[0] * sh[1], c_ = sh[2], sz_ = itemsize(s.inputs[0].dtype);
  }
  void run(char* const* in, char* out) override {
    by_size(sz_, [&](auto zero) {
      using U = decltype(zero);
      const U* x = reinterpret_cast<const U*>(in[0]);
      std::vector<U*> o(static_cast<size_t>(c_));
      for (int64_t k = 0; k < c_; ++k) o[k] = reinterpret_cast<U*>(out) + k * np_;
      const int64_t c = c_;
      parallel_for(np_, std::max<int64_t>(1, kGrain / c), [&](int64_t p0, int64_t p1) {
        switch (c) {
          case 2: return split_px<U, 2>(x, o.data(), p0, p1, c);
          case 3: return split_px<U, 3>(x, o.data(), p0, p1, c);
          case 4: return split_px<U, 4>(x, o.data(), p0, p1, c);
          default: return split_px<U, 0>(x, o.data(), p0, p1, c);
        }
      });
    });
  }

 private:
  int64_t np_, c_;
  size_t sz_;
};

class MergeKernel final : public backend::Kernel {
 public:
  explicit MergeKernel(const backend::StepDesc& s) {
    const Shape& sh = s.inputs[0].shape;
    np_ = sh[0] * sh[1], c_ = static_cast<int64_t>(s.inputs.size()), sz_ = itemsize(s.inputs[0].dtype);
  }
  void run(char* const* in, char* out) override {
    by_size(sz_, [&](auto zero) {
      using U = decltype(zero);
      std::vector<const U*> x(static_cast<size_t>(c_));
      for (int64_t k = 0; k < c_; ++k) x[k] = reinterpret_cast<const U*>(in[k]);
      U* o = reinterpret_cast<U*>(out);
      const int64_t c = c_;
      parallel_for(np_, std::max<int64_t>(1, kGrain / c), [&](int64_t p0, int64_t p1) {
        switch (c) {
          case 1: return std::memcpy(o + p0, x[0] + p0, size_t(p1 - p0) * sizeof(U)), void();
          case 2: return merge_px<U, 2>(x.data(), o, p0, p1, c);
          case 3: return merge_px<U, 3>(x.data(), o, p0, p1, c);
          case 4: return merge_px<U, 4>(x.data(), o, p0, p1, c);
          default: return merge_px<U, 0>(x.data(), o, p0, p1, c);
        }
      });
    });
  }

 private:
  int64_t np_, c_;
  size_t sz_;
};

// ---- absdiff of two 8/16-bit integer images: saturate(|a - b|) ----
// In the operands' own width (the unsigned difference of the larger and the smaller is |a - b|
// exactly, below 2^bits), so the loop vectorises to max / min / subtract / min without widening;
// arith.cpp's general loop widens to int32 and ran at a third of cv2's speed.
template <class T>
void absdiff_loop(const T* __restrict a, const T* __restrict b, T* __restrict o, int64_t n) {
  using U = std::make_unsigned_t<T>;
  constexpr U top = static_cast<U>(std::numeric_limits<T>::max());
  for (int64_t i = 0; i < n; ++i) {
    const U d = a[i] > b[i] ? static_cast<U>(U(a[i]) - U(b[i])) : static_cast<U>(U(b[i]) - U(a[i]));
    o[i] = static_cast<T>(d > top ? top : d);  // saturates the signed depths (|-128 - 127| -> 127)
  }
}

class AbsdiffIntKernel final : public backend::Kernel {
 public:
  explicit AbsdiffIntKernel(const backend::StepDesc& s) : n_(numel(s.inputs[0].shape)), dt_(s.inputs[0].dtype) {}
  void run(char* const* in, char* out) override {
    switch (dt_) {
      case DType::UInt8: return go<uint8_t>(in, out);
      case DType::Int8: return go<int8_t>(in, out);
      case DType::UInt16: return go<uint16_t>(in, out);
      case DType::Int16: return go<int16_t>(in, out);
      default: return;
    }
  }

 private:
  template <class T>
  void go(char* const* in, char* out) const {
    const T* a = reinterpret_cast<const T*>(in[0]);
    const T* b = reinterpret_cast<const T*>(in[1]);
    T* o = reinterpret_cast<T*>(out);
    parallel_for(n_, kGrain, [&](int64_t lo, int64_t hi) { absdiff_loop<T>(a + lo, b + lo, o + lo, hi - lo); });
  }
  int64_t n_;
  DType dt_;
};

template <class K>
std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<K>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_thresh, "cv_thresh", &make<ThreshKernel>);
MNN_REGISTER_CPU_KERNEL(cv_inrange, "cv_inrange", &make<InRangeKernel>);
MNN_REGISTER_CPU_KERNEL(cv_lut_u8, "cv_lut_u8", &make<LutU8Kernel>);
MNN_REGISTER_CPU_KERNEL(cv_count_nz, "cv_count_nz", &make<CountKernel>);
MNN_REGISTER_CPU_KERNEL(cv_minmaxloc, "cv_minmaxloc", &make<MinMaxKernel>);
MNN_REGISTER_CPU_KERNEL(cv_split, "cv_split", &make<SplitKernel>);
MNN_REGISTER_CPU_KERNEL(cv_norm_minmax_u8, "cv_norm_minmax_u8", &make<NormMinMaxU8Kernel>);
MNN_REGISTER_CPU_KERNEL(cv_merge, "cv_merge", &make<MergeKernel>);
MNN_REGISTER_CPU_KERNEL(cv_absdiff_int, "cv_absdiff_int", &make<AbsdiffIntKernel>);

}  // namespace mnn::cpu::MNN_ISA_NS
