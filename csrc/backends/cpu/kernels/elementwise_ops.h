// Scalar definitions of every elementwise opcode, with numpy's semantics: integer wrap-around,
// floor division and remainder with Python's signs, division by zero giving 0 for integers,
// NaN-propagating maximum/minimum. Each functor is called with the compute type C (float for
// float16 data, as numpy's half loops do) and says which C it supports.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "backends/cpu/kernels/error_flags.h"

// Inside each ISA target's namespace: the same functors compiled with different flags must not
// be merged by the linker.
namespace mnn::cpu::MNN_ISA_NS::ew {

template <class C> constexpr bool is_b = std::is_same_v<C, bool>;
template <class C> constexpr bool is_f = std::is_floating_point_v<C>;
template <class C> constexpr bool is_i = std::is_integral_v<C> && !is_b<C>;
template <class C> constexpr bool is_s = is_i<C> && std::is_signed_v<C>;
template <class C> constexpr bool any_t = true;
template <class C> struct is_c_t : std::false_type {};
template <class C> struct is_c_t<std::complex<C>> : std::true_type {};
template <class C> constexpr bool is_c = is_c_t<C>::value;
template <class C> constexpr bool is_fc = is_f<C> || is_c<C>;

// Complex helpers with numpy's formulas (npy_math): the plain product (no C99 Annex G rescue of
// inf*nan, which numpy does not do either) and Smith's division.
template <class T> inline std::complex<T> cmul(std::complex<T> a, std::complex<T> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
// numpy's complex square: its SIMD loops (AVX2/AVX-512) form the real part with one FMA,
// fma(r, r, -(i * i)), and the imaginary part as fma(r, i, i * r); its baseline loop, like our
// scalar target, rounds each product (cmul). (numpy's z * z takes the same SIMD path as its square.)
template <class T> inline std::complex<T> csquare(std::complex<T> a) {
#if defined(__FMA__)
  const T r = a.real(), i = a.imag();
  return {std::fma(r, r, -(i * i)), std::fma(r, i, i * r)};
#else
  return cmul(a, a);
#endif
}
// numpy's complex absolute: its AVX2/AVX-512 loop takes larger * sqrt(fma(r, r, 1)), r = smaller /
// larger (an inf part gives inf, else a NaN part a quiet NaN, and 0 gives 0), which differs from
// hypot in the last bit for about a third of all values (and is several times faster); its
// baseline loop, like our scalar target, calls hypot.
template <class T> inline T cabs(std::complex<T> a) {
#if defined(__FMA__)
  const T re = std::fabs(a.real()), im = std::fabs(a.imag());
  if (std::isinf(re) || std::isinf(im)) return std::numeric_limits<T>::infinity();
  if (std::isnan(re) || std::isnan(im)) return std::numeric_limits<T>::quiet_NaN();
  const T larger = std::max(re, im), smaller = std::min(re, im);
  if (larger == T(0)) return T(0);
  const T r = smaller / larger;
  return larger * std::sqrt(std::fma(r, r, T(1)));
#else
  return std::hypot(a.real(), a.imag());
#endif
}
template <class T> inline std::complex<T> cdiv(std::complex<T> a, std::complex<T> b) {
  T ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  T abr = std::fabs(br), abi = std::fabs(bi);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return {ar / abr, ai / abi};  // divide by zero: inf/nan like numpy
    T rat = bi / br, scl = T(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  T rat = br / bi, scl = T(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}
// numpy's ordering of complex numbers: lexicographic, with NaN in either part unordered.
template <class T> inline bool clt(std::complex<T> x, std::complex<T> y) {
  return (x.real() < y.real() && !std::isnan(x.imag()) && !std::isnan(y.imag())) ||
         (x.real() == y.real() && x.imag() < y.imag());
}
template <class T> inline bool cle(std::complex<T> x, std::complex<T> y) {
  return (x.real() < y.real() && !std::isnan(x.imag()) && !std::isnan(y.imag())) ||
         (x.real() == y.real() && x.imag() <= y.imag());
}
template <class T> inline bool cnan(std::complex<T> x) { return std::isnan(x.real()) || std::isnan(x.imag()); }
template <class C> inline bool lt(C a, C b) { if constexpr (is_c<C>) return clt(a, b); else return a < b; }
template <class C> inline bool le(C a, C b) { if constexpr (is_c<C>) return cle(a, b); else return a <= b; }
template <class T> inline std::complex<T> cpow(std::complex<T> a, std::complex<T> b) {
  // numpy multiplies out small integer powers (exact for Gaussian integers), else uses cpow.
  if (b.real() == 0 && b.imag() == 0) return {T(1), T(0)};
  if (a.real() == 0 && a.imag() == 0) {
    if (b.real() > 0 && b.imag() == 0) return {T(0), T(0)};
    return {T(NAN), T(NAN)};
  }
  if (b.imag() == 0 && b.real() == std::floor(b.real()) && std::fabs(b.real()) < 100) {
    long n = static_cast<long>(b.real());
    std::complex<T> r(1, 0), base = a;
    long m = n < 0 ? -n : n;
    while (m) {
      if (m & 1) r = cmul(r, base);
      base = cmul(base, base);
      m >>= 1;
    }
    return n < 0 ? cdiv(std::complex<T>(1, 0), r) : r;
  }
  return std::pow(a, b);
}

// Unsigned type wide enough that C's usual promotions cannot overflow a signed int.
template <class C>
using wrap_t = std::conditional_t<(sizeof(C) < 4), uint32_t, std::make_unsigned_t<C>>;
template <class C> inline C wadd(C a, C b) { return C(wrap_t<C>(a) + wrap_t<C>(b)); }
template <class C> inline C wsub(C a, C b) { return C(wrap_t<C>(a) - wrap_t<C>(b)); }
template <class C> inline C wmul(C a, C b) { return C(wrap_t<C>(a) * wrap_t<C>(b)); }

#define MNN_EW1(Name, Supported, expr)                     \
  struct Name {                                            \
    template <class C> static constexpr bool ok = Supported; \
    template <class C> static inline auto f(C a) { return expr; } \
  };
#define MNN_EW2(Name, Supported, expr)                     \
  struct Name {                                            \
    template <class C> static constexpr bool ok = Supported; \
    template <class C> static inline auto f(C a, C b) { return expr; } \
  };

// ---- arithmetic ----
// When both operands are NaN, x86's add and multiply return the first source's NaN, and numpy's
// loops give the first operand's (its sign and payload: np.negative(x) * (y - x) is -NaN for
// x = NaN). The compiler may swap the operands of a commutative operation, so the choice is
// made explicit: a NaN a wins, else the hardware's result (b's NaN where only b is one).
template <class C> inline C first_nan(C a, C r) { return a != a ? a : r; }

struct Add {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_b<C>) return a || b;
    else if constexpr (is_i<C>) return wadd(a, b);
    else if constexpr (is_f<C>) return first_nan(a, a + b);
    else return a + b;
  }
};
struct Subtract {
  template <class C> static constexpr bool ok = !is_b<C>;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_i<C>) return wsub(a, b);
    else return a - b;
  }
};
struct Multiply {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_b<C>) return a && b;
    else if constexpr (is_i<C>) return wmul(a, b);
    else if constexpr (is_c<C>) return cmul(a, b);
    else if constexpr (is_f<C>) return first_nan(a, a * b);
    else return a * b;
  }
};
struct Divide {
  template <class C> static constexpr bool ok = is_fc<C>;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_c<C>) return cdiv(a, b);
    else return a / b;
  }
};
struct FloorDivide {
  template <class C> static constexpr bool ok = !is_b<C> && !is_c<C>;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_i<C>) {
      if (b == 0) { flag_error(kErrDivideByZero); return 0; }
      if constexpr (is_s<C>) {
        if (a == std::numeric_limits<C>::min() && b == C(-1)) return a;  // overflows: wraps like numpy
        C q = a / b;
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
      } else {
        return a / b;
      }
    } else {
      if (b == 0) return a / b;
      C mod = std::fmod(a, b);
      C div = (a - mod) / b;
      if (mod != 0 && ((b < 0) != (mod < 0))) div -= C(1);
      C fl;
      if (div != 0) {
        fl = std::floor(div);
        if (div - fl > C(0.5)) fl += C(1);
      } else {
        fl = std::copysign(C(0), a / b);
      }
      return fl;
    }
  }
};
struct Remainder {
  template <class C> static constexpr bool ok = !is_b<C> && !is_c<C>;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_i<C>) {
      if (b == 0) { flag_error(kErrDivideByZero); return 0; }
      if constexpr (is_s<C>) {
        if (b == C(-1)) return 0;
        C r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return r;
      } else {
        return a % b;
      }
    } else {
      C mod = std::fmod(a, b);
      if (b == 0) return mod;
      if (mod != 0) {
        if ((b < 0) != (mod < 0)) mod += b;
      } else {
        mod = std::copysign(C(0), b);
      }
      return mod;
    }
  }
};
struct Power {
  template <class C> static constexpr bool ok = !is_b<C>;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_i<C>) {
      if constexpr (is_s<C>) {
        if (b < 0) { flag_error(kErrNegativeIntPower); return 0; }
      }
      wrap_t<C> base = wrap_t<C>(a), r = 1;
      auto e = std::make_unsigned_t<C>(b);
      while (e) {
        if (e & 1) r = wrap_t<C>(r * base);
        base = wrap_t<C>(base * base);
        e >>= 1;
      }
      return C(r);
    } else if constexpr (is_c<C>) {
      return cpow(a, b);
    } else {
      return std::pow(a, b);
    }
  }
};
// Ties of -0.0 and +0.0: numpy 2's float32/float64 loops return b, its complex loops a (and its
// float16 loop a, which these functors, computing half in float, cannot tell from float32).
struct Maximum {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_c<C>) return (le(b, a) || cnan(a)) ? a : b;
    else if constexpr (is_f<C>) return (a > b || std::isnan(a)) ? a : b;
    else return a >= b ? a : b;
  }
};
struct Minimum {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_c<C>) return (le(a, b) || cnan(a)) ? a : b;
    else if constexpr (is_f<C>) return (a < b || std::isnan(a)) ? a : b;
    else return a <= b ? a : b;
  }
};
struct Fmax {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_c<C>) return (le(b, a) || cnan(b)) ? a : b;
    else if constexpr (is_f<C>) return (a > b || std::isnan(b)) ? a : b;
    else return a >= b ? a : b;
  }
};
struct Fmin {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_c<C>) return (le(a, b) || cnan(b)) ? a : b;
    else if constexpr (is_f<C>) return (a < b || std::isnan(b)) ? a : b;
    else return a <= b ? a : b;
  }
};
MNN_EW2(Arctan2, is_f<C>, std::atan2(a, b))
MNN_EW2(Hypot, is_f<C>, std::hypot(a, b))
MNN_EW2(Copysign, is_f<C>, std::copysign(a, b))
struct Logaddexp {
  template <class C> static constexpr bool ok = is_f<C>;
  template <class C> static inline C f(C a, C b) {
    if (a == b) return a + C(0.693147180559945309417232121458176568);  // also handles infinities
    C d = a - b;
    if (d > 0) return a + std::log1p(std::exp(-d));
    if (d <= 0) return b + std::log1p(std::exp(d));
    return d;  // nan
  }
};
struct Logaddexp2 {
  template <class C> static constexpr bool ok = is_f<C>;
  template <class C> static inline C f(C a, C b) {
    const C log2e = C(1.442695040888963407359924681001892137);
    if (a == b) return a + C(1);
    C d = a - b;
    if (d > 0) return a + log2e * std::log1p(std::exp2(-d));
    if (d <= 0) return b + log2e * std::log1p(std::exp2(d));
    return d;
  }
};
struct Heaviside {
  template <class C> static constexpr bool ok = is_f<C>;
  template <class C> static inline C f(C a, C b) {
    if (std::isnan(a)) return a;
    if (a == 0) return b;
    return a < 0 ? C(0) : C(1);
  }
};
// C's truncating remainder (numpy.fmod): the sign follows the dividend; integer division by
// zero gives 0 with numpy's warning.
struct Fmod {
  template <class C> static constexpr bool ok = !is_b<C> && !is_c<C>;
  template <class C> static inline C f(C a, C b) {
    if constexpr (is_i<C>) {
      if (b == 0) { flag_error(kErrDivideByZero); return 0; }
      if constexpr (is_s<C>) { if (b == C(-1)) return 0; }  // INT_MIN % -1 traps in C
      return C(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};
// numpy's gcd/lcm work on magnitudes in the unsigned type, so gcd(INT64_MIN, 6) is 2 and
// results that do not fit wrap back to the signed type (gcd(int8 -128, 0) is -128).
template <class C> inline wrap_t<C> magnitude(C a) {
  if constexpr (is_s<C>) return a < 0 ? wrap_t<C>(wrap_t<C>(0) - wrap_t<C>(a)) : wrap_t<C>(a);
  else return wrap_t<C>(a);
}
template <class U> inline U gcd_u(U a, U b) {
  while (a != 0) { U c = a; a = U(b % a); b = c; }
  return b;
}
struct Gcd {
  template <class C> static constexpr bool ok = is_i<C>;
  template <class C> static inline C f(C a, C b) { return C(gcd_u(magnitude(a), magnitude(b))); }
};
struct Lcm {
  template <class C> static constexpr bool ok = is_i<C>;
  template <class C> static inline C f(C a, C b) {
    auto ua = magnitude(a), ub = magnitude(b);
    auto g = gcd_u(ua, ub);
    return g == 0 ? C(0) : C(decltype(ua)(ua / g * ub));
  }
};
MNN_EW2(Nextafter, is_f<C>, std::nextafter(a, b))
// ---- comparison and logic (bool results) ----
MNN_EW2(Equal, any_t<C>, bool(a == b))
MNN_EW2(NotEqual, any_t<C>, bool(a != b))
MNN_EW2(Less, any_t<C>, lt(a, b))
MNN_EW2(LessEqual, any_t<C>, le(a, b))
MNN_EW2(Greater, any_t<C>, lt(b, a))
MNN_EW2(GreaterEqual, any_t<C>, le(b, a))
MNN_EW2(LogicalAnd, any_t<C>, bool(a != C(0) && b != C(0)))
MNN_EW2(LogicalOr, any_t<C>, bool(a != C(0) || b != C(0)))
MNN_EW2(LogicalXor, any_t<C>, bool((a != C(0)) != (b != C(0))))
MNN_EW2(BitwiseAnd, !is_fc<C>, C(a & b))
MNN_EW2(BitwiseOr, !is_fc<C>, C(a | b))
MNN_EW2(BitwiseXor, !is_fc<C>, C(a ^ b))
struct LeftShift {
  template <class C> static constexpr bool ok = is_i<C>;
  template <class C> static inline C f(C a, C b) {
    using U = std::make_unsigned_t<C>;
    if (U(b) >= sizeof(C) * 8) return 0;
    return C(wrap_t<C>(a) << unsigned(b));
  }
};
struct RightShift {
  template <class C> static constexpr bool ok = is_i<C>;
  template <class C> static inline C f(C a, C b) {
    using U = std::make_unsigned_t<C>;
    if (U(b) >= sizeof(C) * 8) return (is_s<C> && a < 0) ? C(-1) : C(0);
    return C(a >> unsigned(b));
  }
};
// ---- unary ----
struct Negative {
  template <class C> static constexpr bool ok = !is_b<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_i<C>) return wsub(C(0), a);
    else return -a;
  }
};
MNN_EW1(Positive, !is_b<C>, a)
struct Absolute {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline auto f(C a) {
    if constexpr (is_c<C>) return cabs(a);  // complex -> its real type
    else if constexpr (is_f<C>) return std::fabs(a);
    else if constexpr (is_s<C>) return a < 0 ? wsub(C(0), a) : a;
    else return a;
  }
};
struct Sign {
  template <class C> static constexpr bool ok = !is_b<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_c<C>) {  // numpy 2: z / |z|
      using T = typename C::value_type;
      T re = a.real(), im = a.imag(), m = std::hypot(re, im);
      if (std::isnan(m)) return C(T(NAN), T(NAN));
      if (std::isinf(m)) {
        if (std::isinf(re)) return std::isinf(im) ? C(T(NAN), T(NAN)) : C(re > 0 ? T(1) : T(-1), T(0));
        return C(T(0), im > 0 ? T(1) : T(-1));
      }
      if (m == 0) return C(T(0), T(0));
      return C(re / m, im / m);
    } else if constexpr (is_f<C>) {
      if (std::isnan(a)) return a;
      return a > 0 ? C(1) : (a < 0 ? C(-1) : C(0));
    } else {
      return C((a > 0) - (a < C(0)));
    }
  }
};
struct Square {
  template <class C> static constexpr bool ok = !is_b<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_i<C>) return wmul(a, a);
    else if constexpr (is_c<C>) return csquare(a);
    else return a * a;
  }
};
struct Reciprocal {
  template <class C> static constexpr bool ok = !is_b<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_i<C>) {
      if (a == 0) { flag_error(kErrDivideByZero); return 0; }
      if constexpr (is_s<C>) { if (a == C(-1)) return C(-1); }
      return C(C(1) / a);
    } else if constexpr (is_c<C>) {
      // numpy's complex reciprocal loop (not its division): Smith's scaling by the larger part
      // with the quotient's terms as 1 / d and -q / d, which round differently from cdiv(1, a)
      using T = typename C::value_type;
      const T r = a.real(), i = a.imag();
      if (std::fabs(i) <= std::fabs(r)) {
        const T q = i / r, d = r + i * q;
        return {T(1) / d, -q / d};
      }
      const T q = r / i, d = r * q + i;
      return {q / d, T(-1) / d};
    } else {
      return C(1) / a;
    }
  }
};
#define MNN_FLOAT_ONLY_OR_IDENTITY(Name, fn)                               \
  struct Name {                                                            \
    template <class C> static constexpr bool ok = !is_c<C>;                \
    template <class C> static inline C f(C a) {                            \
      if constexpr (is_f<C>) return fn(a);                                 \
      else return a;                                                       \
    }                                                                      \
  };
MNN_FLOAT_ONLY_OR_IDENTITY(Floor, std::floor)
MNN_FLOAT_ONLY_OR_IDENTITY(Ceil, std::ceil)
MNN_FLOAT_ONLY_OR_IDENTITY(Trunc, std::trunc)
struct Invert {
  template <class C> static constexpr bool ok = !is_fc<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_b<C>) return !a;
    else return C(~a);
  }
};
MNN_EW1(LogicalNot, any_t<C>, bool(a == C(0)))
MNN_EW1(Copy, any_t<C>, a)
struct Rint {
  template <class C> static constexpr bool ok = is_fc<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_c<C>) return C(std::nearbyint(a.real()), std::nearbyint(a.imag()));  // numpy: part by part
    else return std::nearbyint(a);
  }
};
MNN_EW1(Sqrt, is_fc<C>, std::sqrt(a))
MNN_EW1(Cbrt, is_f<C>, std::cbrt(a))
MNN_EW1(Exp, is_fc<C>, std::exp(a))
struct Exp2 {
  template <class C> static constexpr bool ok = is_fc<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_c<C>) {  // numpy's nc_exp2: exp of the argument scaled by ln 2, part by part
      using T = typename C::value_type;
      const T k = T(0.693147180559945309417232121458176568);
      return std::exp(C(a.real() * k, a.imag() * k));
    } else {
      return std::exp2(a);
    }
  }
};
struct Expm1 {
  template <class C> static constexpr bool ok = is_fc<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_c<C>) {  // keeps precision near 0, as numpy's nc_expm1
      auto h = std::sin(a.imag() / 2);
      return C(std::expm1(a.real()) * std::cos(a.imag()) - 2 * h * h, std::exp(a.real()) * std::sin(a.imag()));
    } else {
      return std::expm1(a);
    }
  }
};
MNN_EW1(Log, is_fc<C>, std::log(a))
struct Log2 {
  template <class C> static constexpr bool ok = is_fc<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_c<C>) {
      using T = typename C::value_type;
      C l = std::log(a);
      const T k = T(1.442695040888963407359924681001892137);
      return C(l.real() * k, l.imag() * k);
    } else {
      return std::log2(a);
    }
  }
};
struct Log10 {
  template <class C> static constexpr bool ok = is_fc<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_c<C>) {  // numpy's nc_log10: log's parts times log10(e) (not log(a) / log(10))
      using T = typename C::value_type;
      const C l = std::log(a);
      const T k = T(0.434294481903251827651128918916605082);
      return C(l.real() * k, l.imag() * k);
    } else {
      return std::log10(a);
    }
  }
};
struct Log1p {
  template <class C> static constexpr bool ok = is_fc<C>;
  template <class C> static inline C f(C a) {
    if constexpr (is_c<C>) {
      auto x = a.real() + 1;
      return C(std::log(std::hypot(x, a.imag())), std::atan2(a.imag(), x));
    } else {
      return std::log1p(a);
    }
  }
};
MNN_EW1(Sin, is_fc<C>, std::sin(a))
MNN_EW1(Cos, is_fc<C>, std::cos(a))
MNN_EW1(Tan, is_fc<C>, std::tan(a))
MNN_EW1(Arcsin, is_fc<C>, std::asin(a))
MNN_EW1(Arccos, is_fc<C>, std::acos(a))
MNN_EW1(Arctan, is_fc<C>, std::atan(a))
MNN_EW1(Sinh, is_fc<C>, std::sinh(a))
MNN_EW1(Cosh, is_fc<C>, std::cosh(a))
MNN_EW1(Tanh, is_fc<C>, std::tanh(a))
MNN_EW1(Arcsinh, is_fc<C>, std::asinh(a))
MNN_EW1(Arccosh, is_fc<C>, std::acosh(a))
MNN_EW1(Arctanh, is_fc<C>, std::atanh(a))
// numpy's constants are quotients in the loop's own type (npy_rad2degf: x * (180.0f / NPY_PIf)), so
// float32 degrees multiply by 57.295776f, not by float(180 / pi) = 57.29578f (off by one ulp on 80% of inputs)
MNN_EW1(Deg2rad, is_f<C>, a * (C(3.14159265358979323846264338327950288) / C(180)))
MNN_EW1(Rad2deg, is_f<C>, a * (C(180) / C(3.14159265358979323846264338327950288)))
MNN_EW1(Erf, is_f<C>, std::erf(a))
// numpy.spacing for float/double: the gap to the next value away from zero, signed like x;
// +-0 give the smallest positive subnormal, infinities NaN.
struct Spacing {
  template <class C> static constexpr bool ok = is_f<C>;
  template <class C> static inline C f(C a) {
    if (std::isinf(a)) return std::numeric_limits<C>::quiet_NaN();
    if (a == 0) return std::numeric_limits<C>::denorm_min();
    return std::nextafter(a, std::copysign(std::numeric_limits<C>::infinity(), a)) - a;
  }
};
struct FrexpMantissa {
  template <class C> static constexpr bool ok = is_f<C>;
  template <class C> static inline C f(C a) {
    int e = 0;
    return std::frexp(a, &e);  // returns inf/NaN/+-0 unchanged
  }
};
struct FrexpExponent {
  template <class C> static constexpr bool ok = is_f<C>;
  template <class C> static inline C f(C a) {
    if (!std::isfinite(a)) return C(0);  // numpy reports 0 where C leaves it unspecified
    int e = 0;
    std::frexp(a, &e);
    return C(e);
  }
};
struct Real {
  template <class C> static constexpr bool ok = is_c<C>;
  template <class C> static inline auto f(C a) { if constexpr (is_c<C>) return a.real(); else return a; }
};
struct Imag {
  template <class C> static constexpr bool ok = is_c<C>;
  template <class C> static inline auto f(C a) { if constexpr (is_c<C>) return a.imag(); else return a; }
};
struct Conjugate {
  template <class C> static constexpr bool ok = is_c<C>;
  template <class C> static inline C f(C a) { if constexpr (is_c<C>) return std::conj(a); else return a; }
};
struct Isnan {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline bool f(C a) {
    if constexpr (is_c<C>) return cnan(a);
    else if constexpr (is_f<C>) return std::isnan(a);
    else return false;
  }
};
struct Isinf {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline bool f(C a) {
    if constexpr (is_c<C>) return std::isinf(a.real()) || std::isinf(a.imag());
    else if constexpr (is_f<C>) return std::isinf(a);
    else return false;
  }
};
struct Isfinite {
  template <class C> static constexpr bool ok = true;
  template <class C> static inline bool f(C a) {
    if constexpr (is_c<C>) return std::isfinite(a.real()) && std::isfinite(a.imag());
    else if constexpr (is_f<C>) return std::isfinite(a);
    else return true;
  }
};
MNN_EW1(Signbit, is_f<C>, bool(std::signbit(a)))

#undef MNN_EW1
#undef MNN_EW2
#undef MNN_FLOAT_ONLY_OR_IDENTITY

}  // namespace mnn::cpu::MNN_ISA_NS::ew
