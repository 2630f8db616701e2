// Image-against-Scalar loops of cv_arith (arith.cpp) for 8/16-bit images, compiled once per ISA
// with it. Both give the bits of arith.cpp's double loops (cv2's), by construction:
//
// - add / subtract / reverse subtract of an integer Scalar (already cvRound'ed, |v| <= 2^30):
//   the exact sum, saturated. In 16-bit (8-bit images) or 32-bit lanes (16-bit images) that sum
//   cannot overflow once v is clamped to a bound past which every result saturates alike (an
//   8-bit x + 512 and x + 10^6 both saturate to the top), and the saturating packs then do the
//   saturate_cast.
// - every op on an 8-bit image: the result depends only on the byte and its channel, so a
//   256-entry table per channel, filled by the double loop itself, is the op. A lookup is two
//   64-byte two-table permutes and a blend with AVX512-VBMI (checked at run time: the avx512
//   target does not assume it), a load per element elsewhere.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace mnn::cpu::MNN_ISA_NS {
namespace {

enum ScalarAddOp { kScalarAdd, kScalarSub, kScalarRSub };

#if defined(__AVX2__)
// x op v for 8/16-bit T, iv: the c (1..4) per-channel integer Scalar values; n counts elements
// from a pixel boundary. Returns how many were done (a multiple of c: whole blocks of c vectors,
// after which the channel pattern repeats).
template <class T>
int64_t add_scalar_avx2(const T* a, T* o, int64_t n, const int32_t* iv, int64_t c, ScalarAddOp op) {
  static_assert(sizeof(T) <= 2, "8/16-bit images");
  constexpr int64_t E = 32 / sizeof(T);  // elements a 32-byte load; widened they fill two vectors
  constexpr int32_t bound = sizeof(T) == 1 ? 512 : (1 << 17);
  if (c < 1 || c > 4) return 0;
  // wide[j][h]: the clamped Scalar for the low (h = 0) / high half of vector j in a block
  alignas(32) int32_t wide32[4][2][8];
  alignas(32) int16_t wide16[4][2][16];
  for (int64_t j = 0; j < c; ++j)
    for (int64_t e = 0; e < E; ++e) {
      int32_t v = iv[(j * E + e) % c];
      v = v < -bound ? -bound : (v > bound ? bound : v);
      if constexpr (sizeof(T) == 1) wide16[j][e / 16][e % 16] = static_cast<int16_t>(v);
      else wide32[j][e / 8][e % 8] = v;
    }
  __m256i vv[4][2];
  for (int64_t j = 0; j < c; ++j)
    for (int h = 0; h < 2; ++h)
      vv[j][h] = sizeof(T) == 1 ? _mm256_load_si256(reinterpret_cast<const __m256i*>(wide16[j][h]))
                                : _mm256_load_si256(reinterpret_cast<const __m256i*>(wide32[j][h]));
  auto apply = [op](__m256i x, __m256i v) {
    if constexpr (sizeof(T) == 1) {
      return op == kScalarAdd ? _mm256_add_epi16(x, v) : op == kScalarSub ? _mm256_sub_epi16(x, v) : _mm256_sub_epi16(v, x);
    } else {
      return op == kScalarAdd ? _mm256_add_epi32(x, v) : op == kScalarSub ? _mm256_sub_epi32(x, v) : _mm256_sub_epi32(v, x);
    }
  };
  int64_t i = 0;
  for (; i + E * c <= n; i += E * c)
    for (int64_t j = 0; j < c; ++j) {
      const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i + j * E));
      const __m128i lo = _mm256_castsi256_si128(raw), hi = _mm256_extracti128_si256(raw, 1);
      __m256i x0, x1, r;
      if constexpr (std::is_same<T, uint8_t>::value) x0 = _mm256_cvtepu8_epi16(lo), x1 = _mm256_cvtepu8_epi16(hi);
      else if constexpr (std::is_same<T, int8_t>::value) x0 = _mm256_cvtepi8_epi16(lo), x1 = _mm256_cvtepi8_epi16(hi);
      else if constexpr (std::is_same<T, uint16_t>::value) x0 = _mm256_cvtepu16_epi32(lo), x1 = _mm256_cvtepu16_epi32(hi);
      else x0 = _mm256_cvtepi16_epi32(lo), x1 = _mm256_cvtepi16_epi32(hi);
      x0 = apply(x0, vv[j][0]), x1 = apply(x1, vv[j][1]);
      // the packs interleave the two halves by 128-bit lane; the qword permute restores the order
      if constexpr (std::is_same<T, uint8_t>::value) r = _mm256_packus_epi16(x0, x1);
      else if constexpr (std::is_same<T, int8_t>::value) r = _mm256_packs_epi16(x0, x1);
      else if constexpr (std::is_same<T, uint16_t>::value) r = _mm256_packus_epi32(x0, x1);
      else r = _mm256_packs_epi32(x0, x1);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i + j * E), _mm256_permute4x64_epi64(r, 0xD8));
    }
  return i;
}
#endif

#if defined(__AVX512BW__)
// tabs: tc tables of 256 bytes (tc == 1: one for every channel, else tc == c, one per channel).
// Returns how many elements were done (whole blocks of c vectors).
__attribute__((target("avx512vbmi"))) inline int64_t lut_u8_vbmi(const uint8_t* a, uint8_t* o, int64_t n,
                                                                  const uint8_t* tabs, int64_t tc, int64_t c) {
  if (tc < 1 || tc > 4 || c < 1 || c > 4) return 0;
  __m512i t[4][4];
  for (int64_t k = 0; k < tc; ++k)
    for (int q = 0; q < 4; ++q) t[k][q] = _mm512_loadu_si512(tabs + 256 * k + 64 * q);
  // byte b of vector j of a block holds channel (64 j + b) % c
  __mmask64 ch[4][4] = {};
  for (int64_t j = 0; j < c; ++j)
    for (int b = 0; b < 64; ++b) ch[j][(64 * j + b) % c] |= uint64_t(1) << b;
  const int64_t step = 64 * (tc == 1 ? 1 : c);
  int64_t i = 0;
  for (; i + step <= n; i += step)
    for (int64_t j = 0; j * 64 < step; ++j) {
      const __m512i x = _mm512_loadu_si512(a + i + 64 * j);
      const __mmask64 top = _mm512_movepi8_mask(x);
      __m512i r = x;
      for (int64_t k = 0; k < tc; ++k) {
        // bits 0-6 pick a byte of a two-register (128-byte) table; bit 7 picks the table half.
        // (No lambda here: it would not inherit this function's target.)
        const __m512i y = _mm512_mask_blend_epi8(top, _mm512_permutex2var_epi8(t[k][0], x, t[k][1]),
                                                 _mm512_permutex2var_epi8(t[k][2], x, t[k][3]));
        r = k == 0 ? y : _mm512_mask_blend_epi8(ch[j][k], r, y);
      }
      _mm512_storeu_si512(o + i + 64 * j, r);
    }
  return i;
}
#endif

// Without VBMI: C words of 8 bytes a step (8 C bytes, so byte j of a step is channel j % C), each
// byte looked up in its channel's table and the results put together in a register: one load and
// one store per 8 bytes around the 8 table loads, which a byte-by-byte loop (that the compiler
// must assume may write into the table) does not get (MNN_ISA=avx2, 1080p x3 multiply by 2.0 on
// the Zen 4 host: 2.0 ms against 3.6 ms; cv2 3.4 ms).
template <int C>
int64_t lut_u8_words(const uint8_t* s, uint8_t* d, int64_t n, const uint8_t* __restrict tabs) {
  int64_t i = 0;
  for (; i + 8 * C <= n; i += 8 * C)
    for (int w = 0; w < C; ++w) {
      uint64_t x, r = 0;
      std::memcpy(&x, s + i + 8 * w, 8);
      for (int b = 0; b < 8; ++b) r |= uint64_t(tabs[256 * ((8 * w + b) % C) + ((x >> (8 * b)) & 255)]) << (8 * b);
      std::memcpy(d + i + 8 * w, &r, 8);
    }
  return i;
}

// The table lookup for every element, from a pixel boundary (tc as above).
template <class T>
void lut_u8(const T* a, T* o, int64_t n, const uint8_t* tabs, int64_t tc, int64_t c) {
  static_assert(sizeof(T) == 1, "8-bit images");
  const uint8_t* s = reinterpret_cast<const uint8_t*>(a);
  uint8_t* d = reinterpret_cast<uint8_t*>(o);
  int64_t i = 0;
#if defined(__AVX512BW__)
  static const bool vbmi = __builtin_cpu_supports("avx512vbmi");
  if (vbmi) i = lut_u8_vbmi(s, d, n, tabs, tc, c);
#endif
  const int64_t k = tc == 1 ? 1 : c;
  if (k == 1) i += lut_u8_words<1>(s + i, d + i, n - i, tabs);
  else if (k == 2) i += lut_u8_words<2>(s + i, d + i, n - i, tabs);
  else if (k == 3) i += lut_u8_words<3>(s + i, d + i, n - i, tabs);
  else if (k == 4) i += lut_u8_words<4>(s + i, d + i, n - i, tabs);
  for (; i < n; ++i) d[i] = tabs[256 * (k == 1 ? 0 : i % k) + s[i]];
}

}  // namespace
}  // namespace mnn::cpu::MNN_ISA_NS
