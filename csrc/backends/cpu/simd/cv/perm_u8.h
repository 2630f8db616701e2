// Channel permutations of 3- and 4-channel uint8 pixels (BGR2RGB, BGR2BGRA, RGBA2BGR, ...), one
// routine for every (scn, dcn, map), for color.cpp (compiled once per ISA, like it).
//
// Each 128-bit lane handles four pixels. A 3-channel source is first spread so lane k holds
// pixels 4k..4k+3 (dwords 3k..3k+2: one vpermd), one in-lane byte shuffle builds the output
// pixels (a missing alpha becomes 0 and is OR'ed to 255), and a 3-channel result is packed back
// with one more vpermd. That is three shuffles per 16 (AVX2: 8) pixels whatever the codes, where
// a byte gather across 16-byte blocks needs seven. AVX-512 loads and stores exactly the bytes of
// its pixels (masked); AVX2 reads up to 8 bytes past them, so its loop stops early enough that
// those bytes stay inside this call's pixels.
#pragma once

#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>

namespace mnn::cpu::MNN_ISA_NS {
namespace {

// The in-lane shuffle of four pixels and the alpha bytes to OR in, from map (map[c] < 0: 255).
inline void perm_u8_masks(int scn, int dcn, const int* map, int8_t* shuf, int8_t* alpha) {
  for (int j = 0; j < 16; ++j) shuf[j] = -128, alpha[j] = 0;
  for (int q = 0; q < 4; ++q)
    for (int c = 0; c < dcn; ++c) {
      const int o = q * dcn + c;
      if (map[c] >= 0) shuf[o] = static_cast<int8_t>(q * scn + map[c]);
      else alpha[o] = -1;
    }
}

#if defined(__AVX512BW__)
// Where the CPU has AVX512-VBMI (checked at run time: the avx512 target does not assume it), one
// byte permute across the whole register does the work: 21 pixels (63 bytes) per step for 3 ->
// 3, 16 otherwise. The two-shuffle path runs ~10% slower than a plain copy on BGR2RGB; this
// one keeps up with it.
__attribute__((target("avx512vbmi"))) inline int64_t perm_u8_vbmi(const uint8_t* s, uint8_t* d, int64_t n, int scn,
                                                                   int dcn, const int* map) {
  const int P = scn == 3 && dcn == 3 ? 21 : 16;
  alignas(64) uint8_t idx[64] = {}, alpha[64] = {};
  bool has_alpha = false;
  for (int q = 0; q < P; ++q)
    for (int c = 0; c < dcn; ++c) {
      const int o = q * dcn + c;
      if (map[c] >= 0) idx[o] = static_cast<uint8_t>(q * scn + map[c]);
      else alpha[o] = 0xFF, has_alpha = true;
    }
  int64_t i = 0;
  if (scn == 3 && dcn == 3) {
    // 64 pixels = three whole registers in and out, so loads and stores stay cache-line
    // aligned (a 63-byte step made every access straddle two lines and ran slower than a copy).
    // Output register k takes its bytes from inputs k - 1 .. k + 1: two-source permutes, and
    // one masked permute for the two bytes of output 1 that come from input 2.
    alignas(64) uint8_t t0[64], t1[64], t1b[64], t2[64];
    uint64_t from2 = 0;
    for (int j = 0; j < 192; ++j) {
      const int src = 3 * (j / 3) + map[j % 3], k = j / 64, o = j % 64;
      if (k == 0) t0[o] = static_cast<uint8_t>(src);
      if (k == 1) {
        t1[o] = static_cast<uint8_t>(src < 128 ? src : 0);
        t1b[o] = static_cast<uint8_t>(src >= 128 ? src - 128 : 0);
        if (src >= 128) from2 |= uint64_t(1) << o;
      }
      if (k == 2) t2[o] = static_cast<uint8_t>(src - 64);
    }
    const __m512i i0 = _mm512_load_si512(t0), i1 = _mm512_load_si512(t1), i1b = _mm512_load_si512(t1b),
                  i2 = _mm512_load_si512(t2);
    const __mmask64 k2 = from2;
    for (; i + 64 <= n; i += 64) {
      const __m512i* p = reinterpret_cast<const __m512i*>(s + i * 3);
      const __m512i x0 = _mm512_loadu_si512(p), x1 = _mm512_loadu_si512(p + 1), x2 = _mm512_loadu_si512(p + 2);
      __m512i* q = reinterpret_cast<__m512i*>(d + i * 3);
      _mm512_storeu_si512(q, _mm512_permutex2var_epi8(x0, i0, x1));
      _mm512_storeu_si512(q + 1, _mm512_mask_permutexvar_epi8(_mm512_permutex2var_epi8(x0, i1, x1), k2, i1b, x2));
      _mm512_storeu_si512(q + 2, _mm512_permutex2var_epi8(x1, i2, x2));
    }
  }
  const __m512i vi = _mm512_load_si512(idx), va = _mm512_load_si512(alpha);
  const __mmask64 lm = P * scn >= 64 ? ~__mmask64(0) : (__mmask64(1) << (P * scn)) - 1;
  const __mmask64 sm = P * dcn >= 64 ? ~__mmask64(0) : (__mmask64(1) << (P * dcn)) - 1;
  for (; i + P <= n; i += P) {
    const __m512i x = _mm512_maskz_loadu_epi8(lm, s + i * scn);
    __m512i v = _mm512_permutex2var_epi8(x, vi, x);
    if (has_alpha) v = _mm512_or_si512(v, va);
    _mm512_mask_storeu_epi8(d + i * dcn, sm, v);
  }
  return i;
}
#endif

// Returns how many of the n pixels were done; the caller finishes the rest.
inline int64_t perm_u8_simd(const uint8_t* s, uint8_t* d, int64_t n, int scn, int dcn, const int* map) {
  if ((scn != 3 && scn != 4) || (dcn != 3 && dcn != 4)) return 0;
  alignas(16) int8_t shuf[16], alpha[16];
  perm_u8_masks(scn, dcn, map, shuf, alpha);
  int64_t i = 0;
#if defined(__AVX512BW__)
  static const bool vbmi = __builtin_cpu_supports("avx512vbmi");
  if (vbmi) i = perm_u8_vbmi(s, d, n, scn, dcn, map);
  {
    // (built without _mm512_broadcast_i32x4/_mm512_permutexvar_epi32, whose undefined pass-through
    // operand trips GCC 12's -Wmaybe-uninitialized)
    alignas(64) int8_t shuf4[64], alpha4[64];
    for (int j = 0; j < 64; ++j) shuf4[j] = shuf[j % 16], alpha4[j] = alpha[j % 16];
    const __m512i vs = _mm512_load_si512(shuf4), va = _mm512_load_si512(alpha4);
    const __m512i spread = _mm512_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0, 9, 10, 11, 0);
    const __m512i pack = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0);
    const __mmask16 in_mask = scn == 3 ? __mmask16(0x0fff) : __mmask16(0xffff);
    const __mmask16 out_mask = dcn == 3 ? __mmask16(0x0fff) : __mmask16(0xffff);
    for (; i + 16 <= n; i += 16) {
      __m512i v = _mm512_maskz_loadu_epi32(in_mask, s + i * scn);
      if (scn == 3) v = _mm512_permutex2var_epi32(v, spread, v);
      v = _mm512_or_si512(_mm512_shuffle_epi8(v, vs), va);
      if (dcn == 3) v = _mm512_permutex2var_epi32(v, pack, v);
      _mm512_mask_storeu_epi32(d + i * dcn, out_mask, v);
    }
  }
#endif
  const __m256i vs = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(shuf)));
  const __m256i va = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(alpha)));
  const __m256i spread = _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0);
  const __m256i pack = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 0, 0);
  if (dcn == 3) {
    // 16 pixels, stored as exactly 32 + 16 bytes: an overlapping store would sit right where the
    // next load reads when source and destination share their low 12 address bits (both come
    // 2 MiB-aligned from the block cache), and 4K aliasing then stalls every load.
    const __m256i lo6 = _mm256_setr_epi32(0, 0, 0, 0, 0, 0, 0, 1), hi4 = _mm256_setr_epi32(2, 4, 5, 6, 0, 0, 0, 0);
    for (; (i + 16) * scn + (32 - 8 * scn) <= n * scn; i += 16) {
      __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i * scn));
      __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + (i + 8) * scn));
      if (scn == 3) a = _mm256_permutevar8x32_epi32(a, spread), b = _mm256_permutevar8x32_epi32(b, spread);
      a = _mm256_or_si256(_mm256_shuffle_epi8(a, vs), va);
      b = _mm256_or_si256(_mm256_shuffle_epi8(b, vs), va);
      __m256i o0 = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a, pack), _mm256_permutevar8x32_epi32(b, lo6), 0xC0);
      __m256i o1 = _mm256_permutevar8x32_epi32(b, hi4);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i * 3), o0);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i * 3 + 32), _mm256_castsi256_si128(o1));
    }
    return i;
  }
  // 32-byte loads and stores: 8 pixels take 8 * scn (8 * dcn) bytes of them.
  for (; (i + 8) * scn + (32 - 8 * scn) <= n * scn && (i + 8) * dcn + (32 - 8 * dcn) <= n * dcn; i += 8) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i * scn));
    if (scn == 3) v = _mm256_permutevar8x32_epi32(v, spread);
    v = _mm256_or_si256(_mm256_shuffle_epi8(v, vs), va);
    if (dcn == 3) v = _mm256_permutevar8x32_epi32(v, pack);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i * dcn), v);
  }
  return i;
}
}  // namespace
}  // namespace mnn::cpu::MNN_ISA_NS
#endif
