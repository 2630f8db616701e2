// dtypes: the closed set of element types, their sizes and NumPy 2 promotion rules.
#pragma once
#include <cstdint>
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>

namespace mnn::core {

// Codes are shared with mnn/numpy/_dtypes.py; append new types, never renumber.
enum class DType : uint8_t {
  Bool = 0, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, Float32, Float64,
  BFloat16 = 12,  // an extension type (ml_dtypes' bfloat16): 2-byte storage, float32 arithmetic
  Complex64 = 13, Complex128 = 14,
};
constexpr int kNumDTypes = 15;
inline bool is_valid_code(int code) { return code >= 0 && code < kNumDTypes; }

enum class Kind : uint8_t { Bool, Signed, Unsigned, Float, Complex };

size_t itemsize(DType d);
Kind kind_of(DType d);
const char* dtype_name(DType d);
inline bool is_float(DType d) { return kind_of(d) == Kind::Float; }
inline bool is_int(DType d) { return kind_of(d) == Kind::Signed || kind_of(d) == Kind::Unsigned; }
inline bool is_bool(DType d) { return d == DType::Bool; }
inline bool is_complex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }
// complex64 <-> float32, complex128 <-> float64: the component type and back.
DType real_of(DType d);
DType complex_of(DType d);  // the smallest complex type holding every value of d

// NumPy's promote_types for two strong (array) dtypes.
DType promote(DType a, DType b);
// The float type numpy picks for unary math on an integer/bool input (sqrt(int8) -> float16).
DType float_for(DType d);
enum class Casting { No, Safe, SameKind, Unsafe };
bool can_cast(DType from, DType to, Casting rule);
DType dtype_from_code(int code);  // throws TypeError on unknown codes

// IEEE binary16 stored as bits; arithmetic happens in float, as numpy's half loops do.
struct half {
  uint16_t bits = 0;
  half() = default;
  explicit half(float f);
  operator float() const;
};
uint16_t float_to_half_bits(float f);
float half_bits_to_float(uint16_t h);
inline half::half(float f) : bits(float_to_half_bits(f)) {}
inline half::operator float() const { return half_bits_to_float(bits); }

// bfloat16: the top half of a binary32. float -> bfloat16 rounds to nearest even (overflow goes
// to inf, subnormals round like any other value) and keeps NaN a quiet NaN of the same sign.
struct bfloat16 {
  uint16_t bits = 0;
  bfloat16() = default;
  explicit bfloat16(float f);
  operator float() const;
};
inline uint16_t float_to_bfloat16_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
inline float bfloat16_bits_to_float(uint16_t h) {
  uint32_t x = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
inline bfloat16::bfloat16(float f) : bits(float_to_bfloat16_bits(f)) {}
inline bfloat16::operator float() const { return bfloat16_bits_to_float(bits); }

// The 16-bit floats: stored as bits, computed in float.
template <class T> constexpr bool is_half_like_v = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

// Maps a DType to its C++ storage type and back, so kernels are written once as templates.
template <DType D> struct ctype_of;
template <> struct ctype_of<DType::Bool> { using type = bool; };
template <> struct ctype_of<DType::Int8> { using type = int8_t; };
template <> struct ctype_of<DType::Int16> { using type = int16_t; };
template <> struct ctype_of<DType::Int32> { using type = int32_t; };
template <> struct ctype_of<DType::Int64> { using type = int64_t; };
template <> struct ctype_of<DType::UInt8> { using type = uint8_t; };
template <> struct ctype_of<DType::UInt16> { using type = uint16_t; };
template <> struct ctype_of<DType::UInt32> { using type = uint32_t; };
template <> struct ctype_of<DType::UInt64> { using type = uint64_t; };
template <> struct ctype_of<DType::Float16> { using type = half; };
template <> struct ctype_of<DType::Float32> { using type = float; };
template <> struct ctype_of<DType::Float64> { using type = double; };
template <> struct ctype_of<DType::BFloat16> { using type = bfloat16; };
template <> struct ctype_of<DType::Complex64> { using type = std::complex<float>; };
template <> struct ctype_of<DType::Complex128> { using type = std::complex<double>; };

template <class T> struct is_complex_t : std::false_type {};
template <class T> struct is_complex_t<std::complex<T>> : std::true_type {};
template <class T> constexpr bool is_complex_v = is_complex_t<T>::value;

[[noreturn]] void throw_no_complex(DType d);

// Calls f(T{}) with T the storage type of d, for the real dtypes; one switch for the whole code
// base. Complex dtypes throw TypeError here, so a kernel written only for real types can never
// misread complex data; code that handles complex calls dispatch_dtype_all.
template <class F>
decltype(auto) dispatch_dtype(DType d, F&& f) {
  switch (d) {
    case DType::Complex64: case DType::Complex128: throw_no_complex(d);
    case DType::Bool: return f(bool{});
    case DType::Int8: return f(int8_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Int64: return f(int64_t{});
    case DType::UInt8: return f(uint8_t{});
    case DType::UInt16: return f(uint16_t{});
    case DType::UInt32: return f(uint32_t{});
    case DType::UInt64: return f(uint64_t{});
    case DType::Float16: return f(half{});
    case DType::Float32: return f(float{});
    case DType::BFloat16: return f(bfloat16{});
    default: return f(double{});
  }
}

template <class F>
decltype(auto) dispatch_dtype_all(DType d, F&& f) {
  if (d == DType::Complex64) return f(std::complex<float>{});
  if (d == DType::Complex128) return f(std::complex<double>{});
  return dispatch_dtype(d, std::forward<F>(f));
}

}  // namespace mnn::core
