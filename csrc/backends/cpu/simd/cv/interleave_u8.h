// Planar -> interleaved helpers for 16 uint8 pixels (AVX2 targets only), for kernels that end
// with one plane per channel (color_bayer.cpp). Compiled once per ISA.
#pragma once

#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>

namespace mnn::cpu::MNN_ISA_NS {
namespace {

// Three planes of 16 bytes -> 48 interleaved bytes (a0 b0 c0 a1 b1 c1 ...). Each 16-byte output
// block takes bytes of every plane: one byte shuffle per (block, plane), OR'ed together (a -1
// index gives 0). The masks are built from the layout instead of written out by hand.
struct Interleave3 {
  __m128i m[3][3];  // [output block][plane]
  Interleave3() {
    alignas(16) int8_t t[3][3][16];
    for (int o = 0; o < 48; ++o)
      for (int p = 0; p < 3; ++p) t[o / 16][p][o % 16] = static_cast<int8_t>(o % 3 == p ? o / 3 : -1);
    for (int k = 0; k < 3; ++k)
      for (int p = 0; p < 3; ++p) m[k][p] = _mm_load_si128(reinterpret_cast<const __m128i*>(t[k][p]));
  }
  inline void store(uint8_t* d, __m128i a, __m128i b, __m128i c) const {
    for (int k = 0; k < 3; ++k) {
      const __m128i v = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a, m[k][0]), _mm_shuffle_epi8(b, m[k][1])),
                                     _mm_shuffle_epi8(c, m[k][2]));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 16 * k), v);
    }
  }
};

inline const Interleave3& interleave3() {
  static const Interleave3 t;
  return t;
}

// Four planes of 16 bytes -> 64 interleaved bytes.
inline void store_c4(uint8_t* d, __m128i a, __m128i b, __m128i c, __m128i e) {
  const __m128i ab0 = _mm_unpacklo_epi8(a, b), ab1 = _mm_unpackhi_epi8(a, b);
  const __m128i ce0 = _mm_unpacklo_epi8(c, e), ce1 = _mm_unpackhi_epi8(c, e);
  __m128i* o = reinterpret_cast<__m128i*>(d);
  _mm_storeu_si128(o, _mm_unpacklo_epi16(ab0, ce0));
  _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(ab0, ce0));
  _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(ab1, ce1));
  _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(ab1, ce1));
}

// 16 planar pixels (channel order c0, c1, c2 [, 255]) to a 3- or 4-channel row.
inline void store_px16(uint8_t* d, int dcn, __m128i c0, __m128i c1, __m128i c2) {
  if (dcn == 4) store_c4(d, c0, c1, c2, _mm_set1_epi8(-1));
  else interleave3().store(d, c0, c1, c2);
}

// 16 int16 lanes of a 256-bit register (values already in 0..255 after saturation) -> 16 bytes in order.
inline __m128i pack16_u8(__m256i v) {
  return _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

}  // namespace
}  // namespace mnn::cpu::MNN_ISA_NS
#endif
