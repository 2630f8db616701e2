#include "core/dtype.h"

#include "core/error.h"

namespace mnn::core {

size_t itemsize(DType d) {
  static const size_t sizes[kNumDTypes] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 2, 8, 16};
  return sizes[static_cast<int>(d)];
}

Kind kind_of(DType d) {
  switch (d) {
    case DType::Bool: return Kind::Bool;
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64: return Kind::Signed;
    case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::UInt64: return Kind::Unsigned;
    case DType::Complex64: case DType::Complex128: return Kind::Complex;
    default: return Kind::Float;
  }
}

const char* dtype_name(DType d) {
  static const char* names[kNumDTypes] = {"bool",   "int8",   "int16",   "int32",
                                          "int64",  "uint8",  "uint16",  "uint32",
                                          "uint64", "float16", "float32", "float64",
                                          "bfloat16", "complex64", "complex128"};
  return names[static_cast<int>(d)];
}

DType dtype_from_code(int code) {
  if (!is_valid_code(code)) throw TypeError("data type code " + std::to_string(code) + " not understood");
  return static_cast<DType>(code);
}

static DType signed_of_size(size_t n) {
  switch (n) { case 1: return DType::Int8; case 2: return DType::Int16; case 4: return DType::Int32; default: return DType::Int64; }
}
static DType float_of_size(size_t n) {
  switch (n) { case 2: return DType::Float16; case 4: return DType::Float32; default: return DType::Float64; }
}

[[noreturn]] void throw_no_complex(DType d) {
  throw TypeError(std::string("no loop for dtype('") + dtype_name(d) + "'): this operation does not support complex input");
}

DType real_of(DType d) {
  if (d == DType::Complex64) return DType::Float32;
  if (d == DType::Complex128) return DType::Float64;
  return d;
}

DType complex_of(DType d) {
  if (is_complex(d)) return d;
  // numpy: float16/float32 (and int8/uint8/int16/uint16, bool) fit complex64; the rest complex128.
  return (is_float(d) ? itemsize(d) : itemsize(float_for(d))) <= 4 ? DType::Complex64 : DType::Complex128;
}

DType float_for(DType d) {
  if (is_float(d) || is_complex(d)) return d;
  size_t n = itemsize(d);
  if (n == 1) return DType::Float16;  // bool, int8, uint8: float16 holds every value
  if (n == 2) return DType::Float32;
  return DType::Float64;
}

// Promotion follows from two rules: within a kind the wider type wins; across kinds the result is
// the smallest type of the "higher" kind that holds every value of both.
DType promote(DType a, DType b) {
  if (a == b) return a;
  Kind ka = kind_of(a), kb = kind_of(b);
  if (ka == Kind::Bool) return b;
  if (kb == Kind::Bool) return a;
  size_t na = itemsize(a), nb = itemsize(b);
  if (ka == kb) {
    if (na == nb) return ka == Kind::Float ? DType::Float32 : a;  // float16 with bfloat16
    return na > nb ? a : b;
  }
  if (ka == Kind::Complex || kb == Kind::Complex) {
    DType c = ka == Kind::Complex ? a : b, o = ka == Kind::Complex ? b : a;
    DType oc = complex_of(o);
    return itemsize(oc) > itemsize(c) ? oc : c;
  }
  if (ka == Kind::Float || kb == Kind::Float) {
    DType f = ka == Kind::Float ? a : b, i = ka == Kind::Float ? b : a;
    size_t need = std::max(itemsize(f), itemsize(float_for(i)));
    // bfloat16 takes float16's place among the floats (ml_dtypes: int8 -> bfloat16, int16 ->
    // float32); it cannot hold every float16 nor the reverse, so the two meet at float32.
    if (f == DType::BFloat16 && need == 2) return DType::BFloat16;
    return float_of_size(need);
  }
  // signed with unsigned: a signed type twice as wide as the unsigned one, float64 past int64.
  DType s = ka == Kind::Signed ? a : b, u = ka == Kind::Signed ? b : a;
  if (itemsize(s) > itemsize(u)) return s;
  if (itemsize(u) >= 8) return DType::Float64;
  return signed_of_size(itemsize(u) * 2);
}

bool can_cast(DType from, DType to, Casting rule) {
  if (rule == Casting::Unsafe || from == to) return true;
  if (rule == Casting::No) return false;
  if (promote(from, to) == to) return true;  // safe
  if (rule == Casting::Safe) return false;
  // same_kind: any cast that does not go down the bool < unsigned < signed < float ladder
  // (numpy: int16 -> uint8 is not same_kind, uint16 -> int8 is).
  auto rank = [](Kind k) {
    return k == Kind::Bool ? 0 : k == Kind::Unsigned ? 1 : k == Kind::Signed ? 2 : k == Kind::Float ? 3 : 4;
  };
  return rank(kind_of(from)) <= rank(kind_of(to));
}

// binary16 <-> binary32 with round-to-nearest-even, as numpy's npy_float_to_half does.
uint16_t float_to_half_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) {  // inf or nan
    if (absx == 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u);
    uint16_t m = static_cast<uint16_t>((absx & 0x007fffffu) >> 13);
    return static_cast<uint16_t>(sign | 0x7c00u | (m ? m : 1u) | 0x0200u);
  }
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (absx < 0x38800000u) {  // subnormal half or zero
    if (absx < 0x33000000u) return static_cast<uint16_t>(sign);
    uint32_t e = absx >> 23;
    uint32_t m = (absx & 0x007fffffu) | 0x00800000u;
    uint32_t shift = 126 - e;  // value = m * 2^(e-150); a half subnormal counts units of 2^-24
    uint32_t half_m = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half_m & 1u))) half_m++;
    return static_cast<uint16_t>(sign | half_m);
  }
  uint32_t e = (absx >> 23) - 112;
  uint32_t m = absx & 0x007fffffu;
  uint32_t h = (e << 10) | (m >> 13);
  uint32_t rem = m & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;  // may carry into exponent: correct
  return static_cast<uint16_t>(sign | h);
}

float half_bits_to_float(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu;
  uint32_t m = h & 0x3ffu;
  uint32_t x;
  if (e == 0) {
    if (m == 0) {
      x = sign;
    } else {  // normalise the subnormal
      int shift = 0;
      while (!(m & 0x400u)) { m <<= 1; shift++; }
      m &= 0x3ffu;
      x = sign | ((113 - shift) << 23) | (m << 13);
    }
  } else if (e == 31) {
    x = sign | 0x7f800000u | (m << 13);
  } else {
    x = sign | ((e + 112) << 23) | (m << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

}  // namespace mnn::core
