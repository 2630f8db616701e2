// Order-preserving unsigned keys for every dtype, shared by the sorting kernels.
//
// key(x) < key(y) exactly when numpy orders x before y: integers by value, floats by value with
// -0.0 equal to +0.0 and every NaN equal to every other NaN and after +inf. Radix sorts consume
// the key bytes; comparison sorts, nth_element and binary searches compare keys, so all of them
// agree on one order.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "core/buffer.h"
#include "core/dtype.h"

namespace mnn::cpu::sorting {

using core::half;

template <class T, class Enable = void>
struct SortKey;

template <>
struct SortKey<bool> {
  using U = uint8_t;
  static U key(bool x) { return x ? 1 : 0; }
};

template <class T>
struct SortKey<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using U = std::make_unsigned_t<T>;
  static U key(T x) {
    if constexpr (std::is_signed_v<T>) return static_cast<U>(static_cast<U>(x) ^ (U(1) << (sizeof(T) * 8 - 1)));
    else return x;
  }
};

// Floats: flip negatives entirely and set the sign bit of positives, after folding -0 into +0
// and every NaN into the largest key.
template <class U, U kInf = (sizeof(U) == 2 ? U(0x7c00) : sizeof(U) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull))>
inline U float_bits_key(U b) {
  constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
  constexpr U exp = kInf;  // the bits of +inf: anything above is a NaN
  U mag = b & ~sign;
  if (mag > exp) return ~U(0);
  if (mag == 0) b = 0;
  return (b & sign) ? U(~b) : U(b | sign);
}

template <>
struct SortKey<float> {
  using U = uint32_t;
  static U key(float x) {
    U b;
    std::memcpy(&b, &x, 4);
    return float_bits_key(b);
  }
};

template <>
struct SortKey<double> {
  using U = uint64_t;
  static U key(double x) {
    U b;
    std::memcpy(&b, &x, 8);
    return float_bits_key(b);
  }
};

template <>
struct SortKey<half> {
  using U = uint16_t;
  static U key(half x) { return float_bits_key<uint16_t>(x.bits); }
};

template <>
struct SortKey<core::bfloat16> {  // half's rule with bfloat16's 8-bit exponent
  using U = uint16_t;
  static U key(core::bfloat16 x) { return float_bits_key<uint16_t, 0x7f80>(x.bits); }
};

template <class T>
inline auto key_of(T x) { return SortKey<T>::key(x); }

// A growable scratch row (std::vector<bool> has no data()). Its memory comes from the engine's
// block cache: a 16M-element sort needs 64 MB of scratch, and fresh pages each call cost the
// kernel's page zeroing (a tenth of the sort's time on a host without transparent huge pages).
template <class T>
class Scratch {
  static_assert(std::is_trivially_copyable_v<T>, "scratch rows hold plain values");

 public:
  void resize(int64_t n) {
    if (n > cap_) {
      buf_ = core::Buffer::allocate(static_cast<size_t>(n) * sizeof(T));
      cap_ = n;
    }
  }
  T* data() { return reinterpret_cast<T*>(buf_->data()); }
  T& operator[](int64_t i) { return data()[i]; }

 private:
  std::shared_ptr<core::Buffer> buf_;
  int64_t cap_ = 0;
};

}  // namespace mnn::cpu::sorting
