// CRC-32 (PNG chunks, RFC 1952's polynomial) and Adler-32 (zlib streams, RFC 1950) for the PNG encoder.
// Both run over every byte of an encoded image (Adler over the filtered rows, CRC over the compressed
// IDAT), so they are written for throughput: CRC-32 by slicing eight bytes per step through eight
// 256-entry tables (the baseline ISA has no carry-less multiply to rely on), Adler-32 with SSE2 sums of
// 16 bytes at a time, reduced modulo 65521 only once per 5552-byte stretch (the longest that cannot
// overflow 32 bits).
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ops/codecs/codecs.h"

namespace mnn::codecs {
namespace {

constexpr uint32_t kCrcPoly = 0xEDB88320u;  // reflected 0x04C11DB7
constexpr uint32_t kAdlerMod = 65521;
constexpr size_t kAdlerMax = 5552;  // most bytes before s2 may overflow 32 bits (zlib's NMAX)

struct CrcTables {
  uint32_t t[8][256];
  CrcTables() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kCrcPoly : c >> 1;
      t[0][i] = c;
    }
    // t[k][i]: the CRC of byte i followed by k zero bytes, so eight bytes fold in one step.
    for (int k = 1; k < 8; ++k)
      for (int i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 255];
  }
};

const CrcTables& crc_tables() {
  static const CrcTables tables;
  return tables;
}

}  // namespace

uint32_t crc32_update(uint32_t crc, const uint8_t* p, size_t n) {
  const auto& T = crc_tables().t;
  uint32_t c = ~crc;
  for (; n >= 8; n -= 8, p += 8) {
    uint32_t lo, hi;
    std::memcpy(&lo, p, 4);  // little-endian hosts only (x86, aarch64)
    std::memcpy(&hi, p + 4, 4);
    lo ^= c;
    c = T[7][lo & 255] ^ T[6][(lo >> 8) & 255] ^ T[5][(lo >> 16) & 255] ^ T[4][lo >> 24] ^ T[3][hi & 255] ^
        T[2][(hi >> 8) & 255] ^ T[1][(hi >> 16) & 255] ^ T[0][hi >> 24];
  }
  for (; n; --n) c = (c >> 8) ^ T[0][(c ^ *p++) & 255];
  return ~c;
}

uint32_t adler32_update(uint32_t adler, const uint8_t* p, size_t n) {
  uint64_t a = adler & 0xFFFF, b = adler >> 16;
#if defined(__SSE2__)
  // Per 16-byte chunk x0..x15: a += sum(x), b += 16*a_before + 16*x0 + 15*x1 + ... + 1*x15. Over a
  // stretch the a_before terms split into the stretch's starting a (times its length) and the sums of
  // the earlier chunks in the stretch (accumulated in `prefix`).
  const __m128i zero = _mm_setzero_si128();
  const __m128i w_lo = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
  const __m128i w_hi = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
  while (n >= 16) {
    const size_t len = (n < kAdlerMax ? n : kAdlerMax) & ~size_t(15);
    b += a * len;
    __m128i sum = zero, prefix = zero, weighted = zero;
    for (size_t i = 0; i < len; i += 16) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      prefix = _mm_add_epi32(prefix, sum);
      sum = _mm_add_epi32(sum, _mm_sad_epu8(x, zero));
      weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpacklo_epi8(x, zero), w_lo));
      weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), w_hi));
    }
    uint32_t s[4], pr[4], w[4];
    _mm_storeu_si128(reinterpret_cast<__m128i*>(s), sum);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(pr), prefix);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(w), weighted);
    a += uint64_t(s[0]) + s[1] + s[2] + s[3];
    b += 16 * (uint64_t(pr[0]) + pr[1] + pr[2] + pr[3]) + uint64_t(w[0]) + w[1] + w[2] + w[3];
    a %= kAdlerMod;
    b %= kAdlerMod;
    p += len;
    n -= len;
  }
#endif
  while (n) {
    const size_t len = n < kAdlerMax ? n : kAdlerMax;
    for (size_t i = 0; i < len; ++i) {
      a += p[i];
      b += a;
    }
    a %= kAdlerMod;
    b %= kAdlerMod;
    p += len;
    n -= len;
  }
  return static_cast<uint32_t>((b << 16) | a);
}

}  // namespace mnn::codecs
