// Elementwise microkernels and casts for one ISA. This file is compiled once per ISA target
// (CMakeLists.txt: MNN_ISA_NS = scalar / avx2 / avx512, each with its own -m flags); the loops
// are plain C++ that the compiler vectorises for that target. Everything here has internal
// linkage except fill_elementwise(), so the targets cannot leak into each other.
#include <cstring>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "backends/cpu/kernels/elementwise_ops.h"
#include "backends/cpu/simd/kernel_table.h"

namespace mnn::cpu::MNN_ISA_NS {

using core::DType;
using core::half;
using core::Op;

namespace {

template <class T> using calc_t = std::conditional_t<core::is_half_like_v<T>, float, T>;

template <class F, class T>
void loop1(int64_t n, const char* const* in, char* out) {
  using C = calc_t<T>;
  const T* a = reinterpret_cast<const T*>(in[0]);
  using R = decltype(F::template f<C>(C{}));
  if constexpr (std::is_same_v<T, core::bfloat16> && std::is_same_v<F, ew::Signbit>) {
    // the sign bit straight from storage (GCC 12's vectoriser also crashes on the float route)
    bool* o = reinterpret_cast<bool*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = (a[i].bits >> 15) != 0;
  } else if constexpr (std::is_same_v<R, bool>) {
    bool* o = reinterpret_cast<bool*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = F::template f<C>(C(a[i]));
  } else if constexpr (core::is_complex_v<C> && !core::is_complex_v<R>) {  // absolute: real result
    R* o = reinterpret_cast<R*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = F::template f<C>(a[i]);
  } else {
    T* o = reinterpret_cast<T*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = T(F::template f<C>(C(a[i])));
  }
}

#if defined(__AVX2__)
// Float add and multiply with the first operand as the instruction's first source, which x86
// returns when both are NaN (numpy's choice, elementwise_ops.h first_nan); asm keeps GCC from
// swapping the operands, so no select is needed. ScalarB: a NaN b0 has been dealt with.
template <bool Mul, class T>
inline T op1_ordered(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    if constexpr (Mul) asm("vmulss %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
    else asm("vaddss %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
  } else {
    if constexpr (Mul) asm("vmulsd %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
    else asm("vaddsd %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
  }
  return a;
}
template <bool Mul, class T>
inline __m256 op8_ordered(__m256 a, __m256 b) {
  if constexpr (std::is_same_v<T, float>) {
    if constexpr (Mul) asm("vmulps %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
    else asm("vaddps %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
  } else {
    if constexpr (Mul) asm("vmulpd %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
    else asm("vaddpd %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
  }
  return a;
}
template <bool Mul, class T, bool ScalarB>
void ordered_loop(int64_t n, const T* a, const T* b, T* o) {
  constexpr int64_t kLanes = 32 / sizeof(T);
  const __m256 b0 = ScalarB ? _mm256_castsi256_ps(sizeof(T) == 4 ? _mm256_set1_epi32(*reinterpret_cast<const int32_t*>(b))
                                                                 : _mm256_set1_epi64x(*reinterpret_cast<const int64_t*>(b)))
                            : _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    const float* pa = reinterpret_cast<const float*>(a + i);
    const float* pb = reinterpret_cast<const float*>(b + i);
    float* po = reinterpret_cast<float*>(o + i);
    _mm256_storeu_ps(po, op8_ordered<Mul, T>(_mm256_loadu_ps(pa), ScalarB ? b0 : _mm256_loadu_ps(pb)));
    _mm256_storeu_ps(po + 8, op8_ordered<Mul, T>(_mm256_loadu_ps(pa + 8), ScalarB ? b0 : _mm256_loadu_ps(pb + 8)));
  }
  for (; i < n; ++i) o[i] = op1_ordered<Mul, T>(a[i], ScalarB ? b[0] : b[i]);
}
#endif

// ScalarB: b[0] is broadcast over the n elements (KernelTable::ew_scalar_b)
template <class F, class T, bool ScalarB = false>
void loop2(int64_t n, const char* const* in, char* out) {
  using C = calc_t<T>;
  const T* a = reinterpret_cast<const T*>(in[0]);
  const T* b = reinterpret_cast<const T*>(in[1]);
  const C b0 = ScalarB ? C(b[0]) : C{};
  auto rhs = [&](int64_t i) { return ScalarB ? b0 : C(b[i]); };
  using R = decltype(F::template f<C>(C{}, C{}));
  if constexpr (ScalarB && std::is_floating_point_v<C> &&
                (std::is_same_v<F, ew::Add> || std::is_same_v<F, ew::Multiply>)) {
    // numpy's add and multiply loops put a broadcast scalar operand first: its NaN wins
    if (b0 != b0) {
      T* o = reinterpret_cast<T*>(out);
      for (int64_t i = 0; i < n; ++i) o[i] = T(b0);
      return;
    }
  }
#if defined(__AVX2__)
  if constexpr ((std::is_same_v<T, float> || std::is_same_v<T, double>) &&
                (std::is_same_v<F, ew::Add> || std::is_same_v<F, ew::Multiply>)) {
    ordered_loop<std::is_same_v<F, ew::Multiply>, T, ScalarB>(n, a, b, reinterpret_cast<T*>(out));
    return;
  }
#endif
  if constexpr (std::is_same_v<R, bool>) {
    bool* o = reinterpret_cast<bool*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = F::template f<C>(C(a[i]), rhs(i));
  } else {
    T* o = reinterpret_cast<T*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = T(F::template f<C>(C(a[i]), rhs(i)));
  }
}

template <class F, int Arity, class T>
void set_one(EwFn* row, EwFn* row_scalar_b, DType d) {
  using C = calc_t<T>;
  if constexpr (F::template ok<C>) {
    if constexpr (Arity == 1) {
      row[static_cast<int>(d)] = &loop1<F, T>;
    } else {
      row[static_cast<int>(d)] = &loop2<F, T>;
      // half and complex gain little from it and would double their share of the code size
      if constexpr (std::is_arithmetic_v<T>) row_scalar_b[static_cast<int>(d)] = &loop2<F, T, true>;
    }
  }
}

template <class F, int Arity>
void fill(EwFn* row, EwFn* row_scalar_b) {
  set_one<F, Arity, bool>(row, row_scalar_b, DType::Bool);
  set_one<F, Arity, int8_t>(row, row_scalar_b, DType::Int8);
  set_one<F, Arity, int16_t>(row, row_scalar_b, DType::Int16);
  set_one<F, Arity, int32_t>(row, row_scalar_b, DType::Int32);
  set_one<F, Arity, int64_t>(row, row_scalar_b, DType::Int64);
  set_one<F, Arity, uint8_t>(row, row_scalar_b, DType::UInt8);
  set_one<F, Arity, uint16_t>(row, row_scalar_b, DType::UInt16);
  set_one<F, Arity, uint32_t>(row, row_scalar_b, DType::UInt32);
  set_one<F, Arity, uint64_t>(row, row_scalar_b, DType::UInt64);
  set_one<F, Arity, half>(row, row_scalar_b, DType::Float16);
  set_one<F, Arity, core::bfloat16>(row, row_scalar_b, DType::BFloat16);
  set_one<F, Arity, float>(row, row_scalar_b, DType::Float32);
  set_one<F, Arity, double>(row, row_scalar_b, DType::Float64);
  set_one<F, Arity, std::complex<float>>(row, row_scalar_b, DType::Complex64);
  set_one<F, Arity, std::complex<double>>(row, row_scalar_b, DType::Complex128);
}

// Where and Cast have dedicated kernels; these placeholders keep the X-macro uniform.
namespace ew_special {
struct Where { template <class C> static constexpr bool ok = false; };
struct Cast { template <class C> static constexpr bool ok = false; };
}  // namespace ew_special

template <class D, class S>
inline D convert(S s) {
  if constexpr (std::is_same_v<D, S>) {
    return s;
  } else if constexpr (core::is_complex_v<S> && core::is_complex_v<D>) {
    using T = typename D::value_type;
    return D(static_cast<T>(s.real()), static_cast<T>(s.imag()));
  } else if constexpr (core::is_complex_v<S>) {  // numpy drops the imaginary part (ComplexWarning)
    if constexpr (std::is_same_v<D, bool>) return s.real() != 0 || s.imag() != 0;
    else return convert<D>(s.real());
  } else if constexpr (core::is_complex_v<D>) {
    using T = typename D::value_type;
    return D(static_cast<T>(calc_t<S>(s)), T(0));
  } else if constexpr (std::is_same_v<D, bool>) {
    return calc_t<S>(s) != calc_t<S>(0);
  } else if constexpr (core::is_half_like_v<D>) {
    return D(static_cast<float>(s));
  } else if constexpr (core::is_half_like_v<S>) {
    return static_cast<D>(static_cast<float>(s));
  } else {
    return static_cast<D>(s);
  }
}

template <class S, class D>
void cast_loop(int64_t n, const char* in, char* out) {
  const S* s = reinterpret_cast<const S*>(in);
  D* o = reinterpret_cast<D*>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = convert<D>(s[i]);
}

struct Bytes16 { uint64_t lo, hi; };

template <class T>
void where_loop(int64_t n, const bool* c, const T* a, const T* b, T* o) {
  for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : b[i];
}

void where_any(int64_t n, const char* cond, const char* a, const char* b, char* out, size_t itemsize) {
  auto c = reinterpret_cast<const bool*>(cond);
  switch (itemsize) {
    case 1: return where_loop(n, c, reinterpret_cast<const uint8_t*>(a), reinterpret_cast<const uint8_t*>(b), reinterpret_cast<uint8_t*>(out));
    case 2: return where_loop(n, c, reinterpret_cast<const uint16_t*>(a), reinterpret_cast<const uint16_t*>(b), reinterpret_cast<uint16_t*>(out));
    case 4: return where_loop(n, c, reinterpret_cast<const uint32_t*>(a), reinterpret_cast<const uint32_t*>(b), reinterpret_cast<uint32_t*>(out));
    case 8: return where_loop(n, c, reinterpret_cast<const uint64_t*>(a), reinterpret_cast<const uint64_t*>(b), reinterpret_cast<uint64_t*>(out));
    default: return where_loop(n, c, reinterpret_cast<const Bytes16*>(a), reinterpret_cast<const Bytes16*>(b), reinterpret_cast<Bytes16*>(out));
  }
}

}  // namespace

void fill_elementwise(KernelTable& t) {
  using namespace ew;
  using ew_special::Cast;
  using ew_special::Where;
#define X(name, pyname, arity, rule) \
  if constexpr (arity <= 2) fill<name, arity>(t.ew[static_cast<int>(Op::name)], t.ew_scalar_b[static_cast<int>(Op::name)]);
#include "prims/opcodes.def"
#undef X
  for (int f = 0; f < core::kNumDTypes; ++f)
    for (int d = 0; d < core::kNumDTypes; ++d) {
      if (!core::is_valid_code(f) || !core::is_valid_code(d)) continue;
      t.cast[f][d] = core::dispatch_dtype_all(static_cast<DType>(f), [&](auto s) -> CastFn {
        using S = decltype(s);
        return core::dispatch_dtype_all(static_cast<DType>(d), [&](auto dd) -> CastFn {
          using D = decltype(dd);
          return &cast_loop<S, D>;
        });
      });
    }
  t.where = &where_any;
}

}  // namespace mnn::cpu::MNN_ISA_NS
