// Channel permutations of 3- and 4-channel uint8 pixels (BGR2RGB, BGR2BGRA, RGBA2BGR, ...), one
// routine for every (scn, dcn, map), for color.cpp (compiled once per ISA, like it).
//
// Each 128-bit lane handles four pixels. A 3-channel source is first spread so lane k holds
// pixels 4k..4k+3 (dwords 3k..3k+2: one vpermd), one in-lane byte shuffle builds the output
// pixels (a missing alpha becomes 0 and is OR'ed to 255), and a 3-channel result is packed back
// with one more vpermd. That is three shuffles per 8 pixels whatever the codes, where a byte
// gather across 16-byte blocks needs seven. The loads read up to 8 bytes past the pixels, so
// the loops stop early enough that those bytes stay inside this call's pixels.
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

// BGR <-> RGB (3 -> 3 with map {2, 1, 0}), all n pixels. Output byte j is input byte j + 2, j or
// j - 2 (by j % 3), so overlapping loads and two byte blends make 32 output bytes, with no
// shuffle at all; the vector loop starts where d is 32-byte aligned, so no store splits a cache
// line. The loads of a 96-byte block all come before its stores, and no load reaches back into
// bytes already stored: the j - 2 window of the block's first vector is put together from the
// previous block's last vector (still in a register) and this block's first. Source and
// destination are often both 2 MiB-aligned blocks (core/buffer.cpp), where a load of s + x - 2
// issued after the store to d + x - 32 matches it in the low 12 address bits (4K aliasing).
// Standalone 1080p loops on the loaded Zen 3 host, interleaved: min 0.40-0.51 ms for the
// store-then-load order against 0.28-0.32 ms for this one, at every source offset tried (so
// part of the gain is the ordering itself, one load fewer a block). Head and tail bytes go one
// by one. nt streams the aligned 32-byte stores past the caches.
inline void swap_rb3_u8(const uint8_t* s, uint8_t* d, int64_t n, bool nt) {
  const int64_t nb = n * 3;
  int64_t j0 = static_cast<int64_t>((32 - (reinterpret_cast<uintptr_t>(d) & 31)) & 31);
  if (j0 < 32) j0 += 32;  // the first block's carried vector is s[j0 - 32, j0)
  if (j0 > nb) j0 = nb;
  alignas(32) int8_t from_lo[96], from_hi[96];  // take byte j - 2 / byte j + 2
  for (int j = 0; j < 96; ++j) {
    const int c = static_cast<int>((j0 + j) % 3);
    from_lo[j] = c == 2 ? -1 : 0;
    from_hi[j] = c == 0 ? -1 : 0;
  }
  __m256i lo_m[3], hi_m[3];
  for (int k = 0; k < 3; ++k) {
    lo_m[k] = _mm256_load_si256(reinterpret_cast<const __m256i*>(from_lo + 32 * k));
    hi_m[k] = _mm256_load_si256(reinterpret_cast<const __m256i*>(from_hi + 32 * k));
  }
  auto ld = [](const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); };
  int64_t j = j0;
  if (j + 96 + 2 <= nb) {
    __m256i prev = ld(s + j - 32);
    for (; j + 96 + 2 <= nb; j += 96) {
      const uint8_t* q = s + j;
      // Streaming is for results too large to stay cached (stream_output in color.cpp), whose
      // source mostly comes from DRAM: there the hardware prefetcher alone leaves this loop waiting. Asking 8 KB ahead took standalone
      // 1080p passes on the loaded Zen 3 host from min 367-393 / median 619-680 us to 296-305 /
      // 409-431 us, interleaved (2 KB: 298-310 / 484-542); ordinary stores gained nothing.
      if (nt) _mm_prefetch(reinterpret_cast<const char*>(q + 8192), _MM_HINT_T0);
      const __m256i v0 = ld(q), v1 = ld(q + 32), v2 = ld(q + 64);
      const __m256i h0 = ld(q + 2), h1 = ld(q + 34), h2 = ld(q + 66);
      const __m256i l1 = ld(q + 30), l2 = ld(q + 62);
      // bytes [j - 2, j + 30): the top two bytes of prev, then v0's first thirty
      const __m256i l0 = _mm256_alignr_epi8(v0, _mm256_permute2x128_si256(prev, v0, 0x21), 14);
      prev = v2;
      __m256i* o = reinterpret_cast<__m256i*>(d + j);
      const __m256i o0 = _mm256_blendv_epi8(_mm256_blendv_epi8(v0, l0, lo_m[0]), h0, hi_m[0]);
      const __m256i o1 = _mm256_blendv_epi8(_mm256_blendv_epi8(v1, l1, lo_m[1]), h1, hi_m[1]);
      const __m256i o2 = _mm256_blendv_epi8(_mm256_blendv_epi8(v2, l2, lo_m[2]), h2, hi_m[2]);
      if (nt) {
        _mm256_stream_si256(o, o0), _mm256_stream_si256(o + 1, o1), _mm256_stream_si256(o + 2, o2);
      } else {
        _mm256_store_si256(o, o0), _mm256_store_si256(o + 1, o1), _mm256_store_si256(o + 2, o2);
      }
    }
    if (nt) _mm_sfence();
  }
  for (int64_t b = 0; b < j0; ++b) d[b] = s[b + 2 - 2 * (b % 3)];
  for (int64_t b = j; b < nb; ++b) d[b] = s[b + 2 - 2 * (b % 3)];
}

// Returns how many of the n pixels were done; the caller finishes the rest. nt: write the
// vector part of BGR<->RGB and of every map to 4 channels with non-temporal stores (d must then
// be 32-byte aligned for the 4-channel loop; see stream_output in color.cpp for when).
inline int64_t perm_u8_simd(const uint8_t* s, uint8_t* d, int64_t n, int scn, int dcn, const int* map, bool nt = false) {
  if ((scn != 3 && scn != 4) || (dcn != 3 && dcn != 4)) return 0;
  alignas(16) int8_t shuf[16], alpha[16];
  perm_u8_masks(scn, dcn, map, shuf, alpha);
  int64_t i = 0;
#if defined(__AVX512BW__)
  // Zen 4 (VBMI stands in for its generation, as below): ordinary stores for every map, not
  // only BGR<->RGB. 1080p BGR2BGRA interleaved with cv2 in one process (1 thread, medians /
  // minimums of 21, two runs each): streamed 319-327 / 304-310 us, ordinary 283-305 / 223-257 us.
  static const bool zen4_like = __builtin_cpu_supports("avx512vbmi");
  if (zen4_like) nt = false;
#endif
  if (scn == 3 && dcn == 3 && map[0] == 2 && map[1] == 1 && map[2] == 0) {
#if defined(__AVX512BW__)
    // On the Zen 4 host (AVX512-VBMI, 32 MB L3), where a 1080p swap's 12 MB stay cached, stores
    // that go around the cache lose: standalone loops of 1080p BGR2RGB, interleaved, took
    // 235 us streamed against 143-148 us with ordinary stores (cv2 144-154 us; a plain 6 MB
    // copy 158 us: all at memory speed). The Zen 3 measurements at stream_output (color.cpp)
    // are why other CPUs stream. VBMI stands in for that CPU generation here; until session
    // 11 this path ran vpermb loops with ordinary stores, which measured 150-158 us against
    // the blends' 143-148 us standalone and the same 220-230 us interleaved with cv2 calls.
    // (nt is already false here on such a host: see above)
#endif
    swap_rb3_u8(s, d, n, nt);
    return n;
  }
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
    if (nt && dcn == 4) _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i * dcn), v);
    else _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i * dcn), v);
  }
  if (nt) _mm_sfence();
  return i;
}
}  // namespace
}  // namespace mnn::cpu::MNN_ISA_NS
#endif
