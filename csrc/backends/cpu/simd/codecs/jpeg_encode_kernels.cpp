// The JPEG encoder's kernels for one ISA (registry: ops/codecs/jpeg_encode_kernels.h). The scalar code is
// the reference, libjpeg's arithmetic written plainly; the AVX2 and AVX-512 paths rearrange the same
// integer sums so that every ISA gives the scalar bits:
//  - BGR -> YCbCr: pmaddwd on (r, g) and (b, -1) pairs, with the one constant per product that does not
//    fit int16 (38470, 32768) split into 65536 - c, whose 65536 part is added back after the shift;
//  - forward DCT: 16-bit lanes, one block per 128-bit lane (two blocks per ymm, four per zmm); each
//    rotation of libjpeg's flow graph, expanded, is an integer combination of two or four inputs,
//    done by pmaddwd exactly;
//  - quantization by a 16-bit reciprocal that is exact for these divisors (jpeg_quant_prepare);
//  - the entropy coder's inputs (appended bits, size categories, zigzag order) by vector ops.
#include <cstring>
#if defined(__AVX2__)
#include <immintrin.h>
#endif
// GCC 12's AVX-512 headers build "undefined" vectors from self-initialised locals (the unmasked
// builtins ignore them) and -Wmaybe-uninitialized reports that inside the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "ops/codecs/jpeg_encode_kernels.h"
#include "prims/registry.h"  // MNN_ISA_LEVEL

namespace mnn::cpu::MNN_ISA_NS {
namespace {

using codecs::JpegQuant;

constexpr int kConstBits = 13, kPass1Bits = 2;
constexpr int32_t F0_298 = 2446, F0_390 = 3196, F0_541 = 4433, F0_765 = 6270, F0_899 = 7373, F1_175 = 9633,
                  F1_501 = 12299, F1_847 = 15137, F1_961 = 16069, F2_053 = 16819, F2_562 = 20995, F3_072 = 25172;

// ---------------------------------------------------------------- colour conversion

template <int ps>
void bgr_to_ycc_n(const uint8_t* p, int n, uint8_t* yo, uint8_t* cbo, uint8_t* cro) {
  constexpr int32_t half = 1 << 15, off = 128 << 16;
  for (int i = 0; i < n; ++i) {
    int32_t b = p[i * ps], g = p[i * ps + 1], r = p[i * ps + 2];
    yo[i] = static_cast<uint8_t>((19595 * r + 38470 * g + 7471 * b + half) >> 16);
    cbo[i] = static_cast<uint8_t>((-11059 * r - 21709 * g + 32768 * b + off + half - 1) >> 16);
    cro[i] = static_cast<uint8_t>((32768 * r - 27439 * g - 5329 * b + off + half - 1) >> 16);
  }
}

#if defined(__AVX2__)
inline __m256i pair16(int a, int b) {
  return _mm256_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint16_t>(a)) |
                                                static_cast<uint32_t>(static_cast<uint16_t>(b)) << 16));
}

// pshufb masks gathering channel c of 16 BGR pixels from input block k (16 bytes) of 48.
struct BgrMasks {
  alignas(16) int8_t m[3][3][16];  // [channel][input block][byte]
  BgrMasks() {
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k)
        for (int t = 0; t < 16; ++t) {
          const int j = 3 * t + c - 16 * k;  // byte of block k holding channel c of pixel t
          m[c][k][t] = j >= 0 && j < 16 ? static_cast<int8_t>(j) : -128;
        }
  }
};

// 16 BGR pixels a step. With rg = (r, g) and b1 = (b, -1) pairs:
//   Y  = (19595 r - 27066 g + 7471 b + 32768) >> 16 + g        (38470 = 65536 - 27066)
//   Cb = (-11059 r - 21709 g - 32768 b + 32767) >> 16 + b + 128  (32768 b = 65536 b - 32768 b)
//   Cr = (-32768 r - 27439 g - 5329 b + 32767) >> 16 + r + 128
// each bracket one pmaddwd per pair (no overflow: the inputs are 0..255), and each equal to libjpeg's
// sum minus a multiple of 65536 that the shift turns into the exact g, b + 128 or r + 128.
int bgr_to_ycc_avx2(const uint8_t* p, int n, uint8_t* yo, uint8_t* cbo, uint8_t* cro) {
  static const BgrMasks masks;
  const __m256i ky = pair16(19595, -27066), kyb = pair16(7471, -32768);
  const __m256i kcb = pair16(-11059, -21709), kcbb = pair16(-32768, -32767);
  const __m256i kcr = pair16(-32768, -27439), kcrb = pair16(-5329, -32767);
  const __m256i minus1 = _mm256_set1_epi16(-1), c128 = _mm256_set1_epi16(128);
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    const uint8_t* s = p + 3 * i;
    const __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    const __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
    const __m128i a2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
    __m256i ch[3];
    for (int c = 0; c < 3; ++c) {
      const __m128i v = _mm_or_si128(
          _mm_or_si128(_mm_shuffle_epi8(a0, _mm_load_si128(reinterpret_cast<const __m128i*>(masks.m[c][0]))),
                       _mm_shuffle_epi8(a1, _mm_load_si128(reinterpret_cast<const __m128i*>(masks.m[c][1])))),
          _mm_shuffle_epi8(a2, _mm_load_si128(reinterpret_cast<const __m128i*>(masks.m[c][2]))));
      ch[c] = _mm256_cvtepu8_epi16(v);
    }
    const __m256i B = ch[0], G = ch[1], R = ch[2];
    const __m256i rg_lo = _mm256_unpacklo_epi16(R, G), rg_hi = _mm256_unpackhi_epi16(R, G);
    const __m256i b_lo = _mm256_unpacklo_epi16(B, minus1), b_hi = _mm256_unpackhi_epi16(B, minus1);
    auto out = [&](__m256i k, __m256i kb) {
      const __m256i lo = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(rg_lo, k), _mm256_madd_epi16(b_lo, kb)), 16);
      const __m256i hi = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(rg_hi, k), _mm256_madd_epi16(b_hi, kb)), 16);
      return _mm256_packs_epi32(lo, hi);  // pixel order kept within each 128-bit half
    };
    const __m256i Y = _mm256_add_epi16(out(ky, kyb), G);
    const __m256i Cb = _mm256_add_epi16(out(kcb, kcbb), _mm256_add_epi16(B, c128));
    const __m256i Cr = _mm256_add_epi16(out(kcr, kcrb), _mm256_add_epi16(R, c128));
    const __m256i ycb = _mm256_permute4x64_epi64(_mm256_packus_epi16(Y, Cb), 0xD8);  // [Y0..15 | Cb0..15]
    const __m256i crr = _mm256_permute4x64_epi64(_mm256_packus_epi16(Cr, Cr), 0xD8);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(yo + i), _mm256_castsi256_si128(ycb));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(cbo + i), _mm256_extracti128_si256(ycb, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(cro + i), _mm256_castsi256_si128(crr));
  }
  return i;
}
#endif

#if defined(__AVX512BW__)
// The same sums on 32 pixels a step: each 48-byte half deinterleaved in its own 128-bit lane pair.
int bgr_to_ycc_avx512(const uint8_t* p, int n, uint8_t* yo, uint8_t* cbo, uint8_t* cro) {
  static const BgrMasks masks;
  auto pair512 = [](int a, int b) {
    return _mm512_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint16_t>(a)) |
                                                  static_cast<uint32_t>(static_cast<uint16_t>(b)) << 16));
  };
  const __m512i ky = pair512(19595, -27066), kyb = pair512(7471, -32768);
  const __m512i kcb = pair512(-11059, -21709), kcbb = pair512(-32768, -32767);
  const __m512i kcr = pair512(-32768, -27439), kcrb = pair512(-5329, -32767);
  const __m512i minus1 = _mm512_set1_epi16(-1), c128 = _mm512_set1_epi16(128);
  const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  __m256i mk[3][3];
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k)
      mk[c][k] = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(masks.m[c][k])));
  int i = 0;
  for (; i + 32 <= n; i += 32) {
    const uint8_t* s = p + 3 * i;
    __m256i a[3];
    for (int k = 0; k < 3; ++k)
      a[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16 * k))),
                                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 48 + 16 * k)), 1);
    __m512i ch[3];
    for (int c = 0; c < 3; ++c)
      ch[c] = _mm512_cvtepu8_epi16(_mm256_or_si256(
          _mm256_or_si256(_mm256_shuffle_epi8(a[0], mk[c][0]), _mm256_shuffle_epi8(a[1], mk[c][1])),
          _mm256_shuffle_epi8(a[2], mk[c][2])));
    const __m512i B = ch[0], G = ch[1], R = ch[2];
    const __m512i rg_lo = _mm512_unpacklo_epi16(R, G), rg_hi = _mm512_unpackhi_epi16(R, G);
    const __m512i b_lo = _mm512_unpacklo_epi16(B, minus1), b_hi = _mm512_unpackhi_epi16(B, minus1);
    auto out = [&](__m512i k, __m512i kb) {
      const __m512i lo = _mm512_srai_epi32(_mm512_add_epi32(_mm512_madd_epi16(rg_lo, k), _mm512_madd_epi16(b_lo, kb)), 16);
      const __m512i hi = _mm512_srai_epi32(_mm512_add_epi32(_mm512_madd_epi16(rg_hi, k), _mm512_madd_epi16(b_hi, kb)), 16);
      return _mm512_packs_epi32(lo, hi);
    };
    const __m512i Y = _mm512_add_epi16(out(ky, kyb), G);
    const __m512i Cb = _mm512_add_epi16(out(kcb, kcbb), _mm512_add_epi16(B, c128));
    const __m512i Cr = _mm512_add_epi16(out(kcr, kcrb), _mm512_add_epi16(R, c128));
    const __m512i ycb = _mm512_permutexvar_epi64(order, _mm512_packus_epi16(Y, Cb));  // [Y0..31 | Cb0..31]
    const __m512i crr = _mm512_permutexvar_epi64(order, _mm512_packus_epi16(Cr, Cr));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(yo + i), _mm512_castsi512_si256(ycb));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(cbo + i), _mm512_extracti64x4_epi64(ycb, 1));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(cro + i), _mm512_castsi512_si256(crr));
  }
  return i;
}
#endif

void bgr_to_ycc(const uint8_t* p, int ps, int n, uint8_t* yo, uint8_t* cbo, uint8_t* cro) {
  int i = 0;
#if defined(__AVX2__)
  if (ps == 3) {
#if defined(__AVX512BW__)
    i = bgr_to_ycc_avx512(p, n, yo, cbo, cro);
#endif
    i += bgr_to_ycc_avx2(p + 3 * i, n - i, yo + i, cbo + i, cro + i);
  }
#endif
  if (ps == 3) bgr_to_ycc_n<3>(p + 3 * i, n - i, yo + i, cbo + i, cro + i);
  else bgr_to_ycc_n<4>(p, n, yo, cbo, cro);
}

// ---------------------------------------------------------------- chroma downsampling

void down_h2v1(const uint8_t* r0, int dw, uint8_t* o) {
  int x = 0;
#if defined(__AVX2__)
  const __m256i ones = _mm256_set1_epi8(1), bias = _mm256_set1_epi32(1 << 16);  // 0, 1, 0, 1, ...
  for (; x + 16 <= dw; x += 16) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r0 + 2 * x));
    const __m256i s = _mm256_srli_epi16(_mm256_add_epi16(_mm256_maddubs_epi16(v, ones), bias), 1);
    const __m256i pk = _mm256_permute4x64_epi64(_mm256_packus_epi16(s, s), 0xD8);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + x), _mm256_castsi256_si128(pk));
  }
#endif
  for (; x < dw; ++x) o[x] = static_cast<uint8_t>((r0[2 * x] + r0[2 * x + 1] + (x & 1)) >> 1);
}

void down_h2v2(const uint8_t* r0, const uint8_t* r1, int dw, uint8_t* o) {
  int x = 0;
#if defined(__AVX2__)
  const __m256i ones = _mm256_set1_epi8(1), bias = _mm256_set1_epi32(1 | 2 << 16);  // 1, 2, 1, 2, ...
  for (; x + 16 <= dw; x += 16) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r0 + 2 * x));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r1 + 2 * x));
    const __m256i s = _mm256_add_epi16(_mm256_maddubs_epi16(a, ones), _mm256_maddubs_epi16(b, ones));
    const __m256i q = _mm256_srli_epi16(_mm256_add_epi16(s, bias), 2);
    const __m256i pk = _mm256_permute4x64_epi64(_mm256_packus_epi16(q, q), 0xD8);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + x), _mm256_castsi256_si128(pk));
  }
#endif
  for (; x < dw; ++x)
    o[x] = static_cast<uint8_t>((r0[2 * x] + r0[2 * x + 1] + r1[2 * x] + r1[2 * x + 1] + 1 + (x & 1)) >> 2);
}

// ---------------------------------------------------------------- forward DCT + quantization

// One 1-D forward DCT on 8 lanes: x[n][l] sample n of lane l -> y[k][l]; pass 1 keeps PASS1_BITS of
// extra precision, pass 2 removes it (libjpeg's jfdctint).
template <int kPass>
inline void fdct_lanes(const int32_t (&x)[8][8], int32_t (&y)[8][8]) {
  constexpr int sh = kPass == 1 ? kConstBits - kPass1Bits : kConstBits + kPass1Bits;
  constexpr int32_t round = 1 << (sh - 1);
  for (int l = 0; l < 8; ++l) {
    int32_t tmp0 = x[0][l] + x[7][l], tmp7 = x[0][l] - x[7][l];
    int32_t tmp1 = x[1][l] + x[6][l], tmp6 = x[1][l] - x[6][l];
    int32_t tmp2 = x[2][l] + x[5][l], tmp5 = x[2][l] - x[5][l];
    int32_t tmp3 = x[3][l] + x[4][l], tmp4 = x[3][l] - x[4][l];
    int32_t tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
    if (kPass == 1) {
      y[0][l] = (tmp10 + tmp11) * (1 << kPass1Bits);
      y[4][l] = (tmp10 - tmp11) * (1 << kPass1Bits);
    } else {
      y[0][l] = (tmp10 + tmp11 + (1 << (kPass1Bits - 1))) >> kPass1Bits;
      y[4][l] = (tmp10 - tmp11 + (1 << (kPass1Bits - 1))) >> kPass1Bits;
    }
    int32_t z1 = (tmp12 + tmp13) * F0_541;
    y[2][l] = (z1 + tmp13 * F0_765 + round) >> sh;
    y[6][l] = (z1 - tmp12 * F1_847 + round) >> sh;
    int32_t a1 = tmp4 + tmp7, a2 = tmp5 + tmp6, a3 = tmp4 + tmp6, a4 = tmp5 + tmp7;
    int32_t z5 = (a3 + a4) * F1_175;
    a1 *= -F0_899;
    a2 *= -F2_562;
    a3 = a3 * -F1_961 + z5;
    a4 = a4 * -F0_390 + z5;
    y[7][l] = (tmp4 * F0_298 + a1 + a3 + round) >> sh;
    y[5][l] = (tmp5 * F2_053 + a2 + a4 + round) >> sh;
    y[3][l] = (tmp6 * F3_072 + a2 + a3 + round) >> sh;
    y[1][l] = (tmp7 * F1_501 + a1 + a4 + round) >> sh;
  }
}

// The reference: 32-bit lanes and libjpeg's rounding division (|v| + d/2) / d, sign applied after;
// natural order (to_zigzag reorders).
void fdct_quant_block(const uint8_t* px, int stride, const JpegQuant& q, int16_t* out, uint8_t* nbits) {
  int32_t x[8][8], y[8][8];
  for (int n = 0; n < 8; ++n)  // pass 1 along rows: lanes are rows, so load transposed
    for (int r = 0; r < 8; ++r) x[n][r] = px[r * stride + n] - 128;
  fdct_lanes<1>(x, y);  // y[k][r]: horizontal frequency k of row r
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 8; ++k) x[r][k] = y[k][r];
  fdct_lanes<2>(x, y);  // y[v][k]: natural order v*8+k
  for (int i = 0; i < 64; ++i) {
    const int32_t v = y[i / 8][i % 8], d = q.div[i];
    const int32_t a = ((v < 0 ? -v : v) + (d >> 1)) / d;
    const int sz = a ? 32 - __builtin_clz(static_cast<unsigned>(a)) : 0;
    nbits[i] = static_cast<uint8_t>(sz);
    out[i] = static_cast<int16_t>(i == 0 ? (v < 0 ? -a : a) : ((v < 0 ? ~a : a) & ((1 << sz) - 1)));
  }
}

#if defined(__AVX2__)
// The DCT passes and the transpose are written once for 256-bit (two blocks) and 512-bit (four
// blocks) vectors: every operation used works within 128-bit lanes, one block per lane.
#define MNN_V256(name, op) \
  inline __m256i name(__m256i a, __m256i b) { return _mm256_##op(a, b); }
MNN_V256(add16, add_epi16)
MNN_V256(sub16, sub_epi16)
MNN_V256(add32, add_epi32)
MNN_V256(madd, madd_epi16)
MNN_V256(packs32, packs_epi32)
MNN_V256(unpacklo16, unpacklo_epi16)
MNN_V256(unpackhi16, unpackhi_epi16)
MNN_V256(unpacklo32, unpacklo_epi32)
MNN_V256(unpackhi32, unpackhi_epi32)
MNN_V256(unpacklo64, unpacklo_epi64)
MNN_V256(unpackhi64, unpackhi_epi64)
#undef MNN_V256
template <int k> inline __m256i slli16(__m256i a) { return _mm256_slli_epi16(a, k); }
template <int k> inline __m256i srai16(__m256i a) { return _mm256_srai_epi16(a, k); }
template <int k> inline __m256i srai32(__m256i a) { return _mm256_srai_epi32(a, k); }
template <class V> V splat16(int v);
template <class V> V splat32(int32_t v);
template <> inline __m256i splat16<__m256i>(int v) { return _mm256_set1_epi16(static_cast<int16_t>(v)); }
template <> inline __m256i splat32<__m256i>(int32_t v) { return _mm256_set1_epi32(v); }
#if defined(__AVX512BW__)
#define MNN_V512(name, op) \
  inline __m512i name(__m512i a, __m512i b) { return _mm512_##op(a, b); }
MNN_V512(add16, add_epi16)
MNN_V512(sub16, sub_epi16)
MNN_V512(add32, add_epi32)
MNN_V512(madd, madd_epi16)
MNN_V512(packs32, packs_epi32)
MNN_V512(unpacklo16, unpacklo_epi16)
MNN_V512(unpackhi16, unpackhi_epi16)
MNN_V512(unpacklo32, unpacklo_epi32)
MNN_V512(unpackhi32, unpackhi_epi32)
MNN_V512(unpacklo64, unpacklo_epi64)
MNN_V512(unpackhi64, unpackhi_epi64)
#undef MNN_V512
template <int k> inline __m512i slli16(__m512i a) { return _mm512_slli_epi16(a, k); }
template <int k> inline __m512i srai16(__m512i a) { return _mm512_srai_epi16(a, k); }
template <int k> inline __m512i srai32(__m512i a) { return _mm512_srai_epi32(a, k); }
template <> inline __m512i splat16<__m512i>(int v) { return _mm512_set1_epi16(static_cast<int16_t>(v)); }
template <> inline __m512i splat32<__m512i>(int32_t v) { return _mm512_set1_epi32(v); }
#endif
template <class V> inline V pair(int a, int b) {
  return splat32<V>(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint16_t>(a)) |
                                         static_cast<uint32_t>(static_cast<uint16_t>(b)) << 16));
}

// 8x8 transpose of 16-bit elements within each 128-bit lane.
template <class V>
inline void transpose8(V (&r)[8]) {
  V t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = unpacklo16(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = unpackhi16(r[2 * i], r[2 * i + 1]);
  }
  // t0: rows 0,1 cols 0-3; t1: rows 0,1 cols 4-7; t2, t3: rows 2,3 ...
  for (int h = 0; h < 2; ++h) {
    const int b = 4 * h;  // rows 0-3 or 4-7
    u[b + 0] = unpacklo32(t[b + 0], t[b + 2]);  // cols 0,1
    u[b + 1] = unpackhi32(t[b + 0], t[b + 2]);  // cols 2,3
    u[b + 2] = unpacklo32(t[b + 1], t[b + 3]);  // cols 4,5
    u[b + 3] = unpackhi32(t[b + 1], t[b + 3]);  // cols 6,7
  }
  for (int c = 0; c < 4; ++c) {
    r[2 * c] = unpacklo64(u[c], u[c + 4]);
    r[2 * c + 1] = unpackhi64(u[c], u[c + 4]);
  }
}

// One 1-D pass on 16-bit lanes (x[n] = sample n). Every intermediate fits int16 (inputs are
// pixels - 128, or pass-1 outputs below 2^13; the pass-2 DC/k=4 sums reach +-32640 at most), so the
// 16-bit butterflies are exact, and each rotated output is one 32-bit sum of products by pmaddwd.
template <int kPass, class V>
inline void fdct_pass(const V (&x)[8], V (&y)[8]) {
  constexpr int sh = kPass == 1 ? kConstBits - kPass1Bits : kConstBits + kPass1Bits;
  const V round = splat32<V>(1 << (sh - 1));
  const V tmp0 = add16(x[0], x[7]), tmp7 = sub16(x[0], x[7]);
  const V tmp1 = add16(x[1], x[6]), tmp6 = sub16(x[1], x[6]);
  const V tmp2 = add16(x[2], x[5]), tmp5 = sub16(x[2], x[5]);
  const V tmp3 = add16(x[3], x[4]), tmp4 = sub16(x[3], x[4]);
  const V tmp10 = add16(tmp0, tmp3), tmp13 = sub16(tmp0, tmp3);
  const V tmp11 = add16(tmp1, tmp2), tmp12 = sub16(tmp1, tmp2);
  if (kPass == 1) {
    y[0] = slli16<kPass1Bits>(add16(tmp10, tmp11));
    y[4] = slli16<kPass1Bits>(sub16(tmp10, tmp11));
  } else {
    const V r2 = splat16<V>(1 << (kPass1Bits - 1));
    y[0] = srai16<kPass1Bits>(add16(add16(tmp10, tmp11), r2));
    y[4] = srai16<kPass1Bits>(add16(sub16(tmp10, tmp11), r2));
  }
  // (sum of products of the pairs by c + round) >> sh, packed to 16 bits
  auto out2 = [&](V plo, V phi, V c) {
    return packs32(srai32<sh>(add32(madd(plo, c), round)), srai32<sh>(add32(madd(phi, c), round)));
  };
  const V e_lo = unpacklo16(tmp12, tmp13), e_hi = unpackhi16(tmp12, tmp13);
  y[2] = out2(e_lo, e_hi, pair<V>(F0_541, F0_541 + F0_765));
  y[6] = out2(e_lo, e_hi, pair<V>(F0_541 - F1_847, F0_541));
  // Odd part: with z5 = (tmp4 + tmp5 + tmp6 + tmp7) * F1_175 folded in, each output is
  // tmp4 * c4 + tmp5 * c5 + tmp6 * c6 + tmp7 * c7.
  const V a_lo = unpacklo16(tmp4, tmp5), a_hi = unpackhi16(tmp4, tmp5);
  const V b_lo = unpacklo16(tmp6, tmp7), b_hi = unpackhi16(tmp6, tmp7);
  auto out4 = [&](V c45, V c67) {
    return packs32(srai32<sh>(add32(add32(madd(a_lo, c45), madd(b_lo, c67)), round)),
                   srai32<sh>(add32(add32(madd(a_hi, c45), madd(b_hi, c67)), round)));
  };
  y[7] = out4(pair<V>(F0_298 - F0_899 - F1_961 + F1_175, F1_175), pair<V>(F1_175 - F1_961, F1_175 - F0_899));
  y[5] = out4(pair<V>(F1_175, F2_053 - F2_562 - F0_390 + F1_175), pair<V>(F1_175 - F2_562, F1_175 - F0_390));
  y[3] = out4(pair<V>(F1_175 - F1_961, F1_175 - F2_562), pair<V>(F3_072 - F2_562 - F1_961 + F1_175, F1_175));
  y[1] = out4(pair<V>(F1_175 - F0_899, F1_175 - F0_390), pair<V>(F1_175, F1_501 - F0_899 - F0_390 + F1_175));
}

// Blocks a and b (b may equal a); writes both.
inline void fdct_quant_pair(const uint8_t* pa, const uint8_t* pb, int stride, const JpegQuant& q, int16_t* oa,
                            int16_t* ob, uint8_t* nba, uint8_t* nbb) {
  const __m256i c128 = _mm256_set1_epi16(128);
  __m256i x[8], y[8];
  for (int r = 0; r < 8; ++r) {
    const __m128i v = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(pa + r * stride)),
                                         _mm_loadl_epi64(reinterpret_cast<const __m128i*>(pb + r * stride)));
    x[r] = _mm256_sub_epi16(_mm256_cvtepu8_epi16(v), c128);  // [a row r | b row r]
  }
  transpose8(x);      // x[n] = column n of both blocks: lanes are rows
  fdct_pass<1>(x, y);  // y[k] = horizontal frequency k of each row
  transpose8(y);      // y[r] = row r's frequencies: lanes are frequencies
  fdct_pass<2>(y, x);  // x[v] = natural-order row v of the coefficients
  // Size categories by a de Bruijn multiply: with m = 2^n - 1 (|q| smeared right), (m + 1) * 0x09AF has
  // a distinct top nibble for each n < 16, looked up by pshufb.
  const __m256i debruijn = _mm256_set1_epi16(0x09AF), one = _mm256_set1_epi16(1), lowbyte = _mm256_set1_epi16(0xFF);
  const __m256i nb_of = _mm256_setr_epi8(0, 1, 2, 5, 3, 9, 6, 11, 15, 4, 8, 10, 14, 7, 13, 12, 0, 1, 2, 5, 3, 9, 6, 11,
                                         15, 4, 8, 10, 14, 7, 13, 12);
  __m256i nb_prev = _mm256_setzero_si256();
  for (int v = 0; v < 8; ++v) {
    const __m256i a = _mm256_add_epi16(_mm256_abs_epi16(x[v]),
                                       _mm256_load_si256(reinterpret_cast<const __m256i*>(q.half[v])));
    const __m256i t = _mm256_mulhi_epu16(a, _mm256_load_si256(reinterpret_cast<const __m256i*>(q.recip[v])));
    const __m256i qa = _mm256_mulhi_epu16(t, _mm256_load_si256(reinterpret_cast<const __m256i*>(q.scale[v])));
    __m256i sm = _mm256_or_si256(qa, _mm256_srli_epi16(qa, 1));
    sm = _mm256_or_si256(sm, _mm256_srli_epi16(sm, 2));
    sm = _mm256_or_si256(sm, _mm256_srli_epi16(sm, 4));
    sm = _mm256_or_si256(sm, _mm256_srli_epi16(sm, 8));
    // v - 1 for negative v, kept to n bits, is |v| ^ (2^n - 1)
    __m256i bits = _mm256_xor_si256(qa, _mm256_and_si256(sm, _mm256_srai_epi16(x[v], 15)));
    if (v == 0) bits = _mm256_blend_epi16(bits, _mm256_sign_epi16(qa, x[v]), 1);  // the DCs keep their value
    _mm_storeu_si128(reinterpret_cast<__m128i*>(oa + 8 * v), _mm256_castsi256_si128(bits));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(ob + 8 * v), _mm256_extracti128_si256(bits, 1));
    const __m256i idx = _mm256_srli_epi16(_mm256_mullo_epi16(_mm256_add_epi16(sm, one), debruijn), 12);
    const __m256i nb = _mm256_and_si256(_mm256_shuffle_epi8(nb_of, idx), lowbyte);
    if (v & 1) {
      // bytes [a row v-1, a row v | b row v-1, b row v]
      const __m256i nb8 = _mm256_packus_epi16(nb_prev, nb);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(nba + 8 * (v - 1)), _mm256_castsi256_si128(nb8));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(nbb + 8 * (v - 1)), _mm256_extracti128_si256(nb8, 1));
    }
    nb_prev = nb;
  }
}
#endif

#if defined(__AVX512BW__)
// Four consecutive blocks (px + 8j) at once, one per 128-bit lane; the same steps as fdct_quant_pair.
inline void fdct_quant_quad(const uint8_t* px, int stride, const JpegQuant& q, int16_t* out, uint8_t* nbits) {
  const __m512i c128 = _mm512_set1_epi16(128);
  __m512i x[8], y[8];
  for (int r = 0; r < 8; ++r)  // [block 0 row r | block 1 row r | block 2 | block 3]
    x[r] = _mm512_sub_epi16(
        _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(px + static_cast<size_t>(r) * stride))),
        c128);
  transpose8(x);
  fdct_pass<1>(x, y);
  transpose8(y);
  fdct_pass<2>(y, x);
  const __m512i debruijn = _mm512_set1_epi16(0x09AF), one = _mm512_set1_epi16(1), lowbyte = _mm512_set1_epi16(0xFF);
  const __m512i nb_of = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, 5, 3, 9, 6, 11, 15, 4, 8, 10, 14, 7, 13, 12));
  __m512i nb_prev = _mm512_setzero_si512();
  for (int v = 0; v < 8; ++v) {
    auto row = [&](const uint16_t (&t)[8][16]) {
      return _mm512_broadcast_i64x4(_mm256_load_si256(reinterpret_cast<const __m256i*>(t[v])));
    };
    const __m512i a = _mm512_add_epi16(_mm512_abs_epi16(x[v]), row(q.half));
    const __m512i qa = _mm512_mulhi_epu16(_mm512_mulhi_epu16(a, row(q.recip)), row(q.scale));
    __m512i sm = _mm512_or_si512(qa, _mm512_srli_epi16(qa, 1));
    sm = _mm512_or_si512(sm, _mm512_srli_epi16(sm, 2));
    sm = _mm512_or_si512(sm, _mm512_srli_epi16(sm, 4));
    sm = _mm512_or_si512(sm, _mm512_srli_epi16(sm, 8));
    const __m512i neg = _mm512_srai_epi16(x[v], 15);
    __m512i bits = _mm512_xor_si512(qa, _mm512_and_si512(sm, neg));
    if (v == 0)  // the DCs (word 0 of each lane) keep their signed value
      bits = _mm512_mask_blend_epi16(0x01010101u, bits, _mm512_sub_epi16(_mm512_xor_si512(qa, neg), neg));
    for (int j = 0; j < 4; ++j) {
      const __m128i l = j == 0 ? _mm512_castsi512_si128(bits)
                               : (j == 1 ? _mm512_extracti32x4_epi32(bits, 1)
                                         : (j == 2 ? _mm512_extracti32x4_epi32(bits, 2) : _mm512_extracti32x4_epi32(bits, 3)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 64 * j + 8 * v), l);
    }
    const __m512i idx = _mm512_srli_epi16(_mm512_mullo_epi16(_mm512_add_epi16(sm, one), debruijn), 12);
    const __m512i nb = _mm512_and_si512(_mm512_shuffle_epi8(nb_of, idx), lowbyte);
    if (v & 1) {
      const __m512i nb8 = _mm512_packus_epi16(nb_prev, nb);  // lane j: block j's rows v-1, v
      for (int j = 0; j < 4; ++j) {
        const __m128i l = j == 0 ? _mm512_castsi512_si128(nb8)
                                 : (j == 1 ? _mm512_extracti32x4_epi32(nb8, 1)
                                           : (j == 2 ? _mm512_extracti32x4_epi32(nb8, 2) : _mm512_extracti32x4_epi32(nb8, 3)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(nbits + 64 * j + 8 * (v - 1)), l);
      }
    }
    nb_prev = nb;
  }
}
#endif

const int kZigzag[64] = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
                         41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
                         30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

#if !defined(__AVX2__)
// One block's natural-order c and nb into zigzag order, and its zigzag nonzero mask.
void to_zigzag(int16_t* c, uint8_t* nb, uint64_t* nonzero) {
  int16_t tc[64];
  uint8_t tn[64];
  std::memcpy(tc, c, sizeof tc);
  std::memcpy(tn, nb, sizeof tn);
  uint64_t m = 0;
  for (int k = 0; k < 64; ++k) {
    c[k] = tc[kZigzag[k]];
    nb[k] = tn[kZigzag[k]];
    m |= static_cast<uint64_t>(nb[k] != 0) << k;
  }
  *nonzero = m | (c[0] != 0);
}
#endif

#if defined(__AVX2__)
// The same with pshufb: each 16-byte piece of the output ORs shuffles of the 16-byte pieces of the input
// it draws from (36 for the coefficients, 14 for the categories; the pairs and masks built once).
struct ZigzagShuffles {
  int n16[8], n8[4];
  int8_t src16[8][8], src8[4][4];
  alignas(16) int8_t m16[8][8][16];
  alignas(16) int8_t m8[4][4][16];
  ZigzagShuffles() {
    for (int o = 0; o < 8; ++o) {  // int16: 8 elements a piece
      n16[o] = 0;
      for (int sp = 0; sp < 8; ++sp) {
        bool used = false;
        int8_t m[16];
        for (int t = 0; t < 8; ++t) {
          const int nat = kZigzag[8 * o + t];
          const bool here = nat / 8 == sp;
          used = used || here;
          m[2 * t] = here ? static_cast<int8_t>(2 * (nat % 8)) : -128;
          m[2 * t + 1] = here ? static_cast<int8_t>(2 * (nat % 8) + 1) : -128;
        }
        if (used) {
          src16[o][n16[o]] = static_cast<int8_t>(sp);
          std::memcpy(m16[o][n16[o]++], m, 16);
        }
      }
    }
    for (int o = 0; o < 4; ++o) {  // bytes: 16 a piece
      n8[o] = 0;
      for (int sp = 0; sp < 4; ++sp) {
        bool used = false;
        int8_t m[16];
        for (int t = 0; t < 16; ++t) {
          const int nat = kZigzag[16 * o + t];
          const bool here = nat / 16 == sp;
          used = used || here;
          m[t] = here ? static_cast<int8_t>(nat % 16) : -128;
        }
        if (used) {
          src8[o][n8[o]] = static_cast<int8_t>(sp);
          std::memcpy(m8[o][n8[o]++], m, 16);
        }
      }
    }
  }
};

inline void to_zigzag_avx2(int16_t* c, uint8_t* nb, uint64_t* nonzero) {
  static const ZigzagShuffles zs;
  __m128i in[8], out[8];
  for (int i = 0; i < 8; ++i) in[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 8 * i));
  for (int o = 0; o < 8; ++o) {
    __m128i acc = _mm_setzero_si128();
    for (int j = 0; j < zs.n16[o]; ++j)
      acc = _mm_or_si128(acc, _mm_shuffle_epi8(in[zs.src16[o][j]], _mm_load_si128(reinterpret_cast<const __m128i*>(zs.m16[o][j]))));
    out[o] = acc;
  }
  for (int o = 0; o < 8; ++o) _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 8 * o), out[o]);
  for (int i = 0; i < 4; ++i) in[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(nb + 16 * i));
  uint64_t m = 0;
  for (int o = 0; o < 4; ++o) {
    __m128i acc = _mm_setzero_si128();
    for (int j = 0; j < zs.n8[o]; ++j)
      acc = _mm_or_si128(acc, _mm_shuffle_epi8(in[zs.src8[o][j]], _mm_load_si128(reinterpret_cast<const __m128i*>(zs.m8[o][j]))));
    out[o] = acc;
    const uint32_t z = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(acc, _mm_setzero_si128())));
    m |= static_cast<uint64_t>(~z & 0xFFFF) << (16 * o);
  }
  for (int o = 0; o < 4; ++o) _mm_storeu_si128(reinterpret_cast<__m128i*>(nb + 16 * o), out[o]);
  *nonzero = m | (c[0] != 0);
}
#endif

#if defined(__AVX512BW__)
// The same with two vpermt2w per array (categories widened to 16 bits for it and narrowed back).
inline void to_zigzag_avx512(int16_t* c, uint8_t* nb, uint64_t* nonzero) {
  struct Index {
    alignas(64) uint16_t lo[32], hi[32];
    Index() {
      for (int k = 0; k < 32; ++k) {
        lo[k] = static_cast<uint16_t>(kZigzag[k]);
        hi[k] = static_cast<uint16_t>(kZigzag[32 + k]);
      }
    }
  };
  static const Index ix;
  const __m512i lo = _mm512_load_si512(ix.lo), hi = _mm512_load_si512(ix.hi);
  const __m512i c0 = _mm512_loadu_si512(c), c1 = _mm512_loadu_si512(c + 32);
  _mm512_storeu_si512(c, _mm512_permutex2var_epi16(c0, lo, c1));
  _mm512_storeu_si512(c + 32, _mm512_permutex2var_epi16(c0, hi, c1));
  const __m512i n0 = _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(nb)));
  const __m512i n1 = _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(nb + 32)));
  const __m512i z0 = _mm512_permutex2var_epi16(n0, lo, n1), z1 = _mm512_permutex2var_epi16(n0, hi, n1);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(nb), _mm512_cvtepi16_epi8(z0));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(nb + 32), _mm512_cvtepi16_epi8(z1));
  *nonzero = static_cast<uint64_t>(_mm512_test_epi16_mask(z0, z0)) |
             static_cast<uint64_t>(_mm512_test_epi16_mask(z1, z1)) << 32 | (c[0] != 0);
}
#endif

void fdct_quant(const uint8_t* px, int stride, int nblocks, const JpegQuant& q, int16_t* out, uint8_t* nbits,
                uint64_t* nonzero) {
  int b = 0;
#if defined(__AVX512BW__)
  for (; b + 4 <= nblocks; b += 4) {
    fdct_quant_quad(px + 8 * b, stride, q, out + 64 * b, nbits + 64 * b);
    for (int j = b; j < b + 4; ++j) to_zigzag_avx512(out + 64 * j, nbits + 64 * j, nonzero + j);
  }
#endif
#if defined(__AVX2__)
  for (; b + 2 <= nblocks; b += 2)
    fdct_quant_pair(px + 8 * b, px + 8 * (b + 1), stride, q, out + 64 * b, out + 64 * (b + 1), nbits + 64 * b,
                    nbits + 64 * (b + 1));
  if (b < nblocks) {  // an odd last block: computed twice, the copy discarded
    int16_t dummy[64];
    uint8_t dnb[64];
    fdct_quant_pair(px + 8 * b, px + 8 * b, stride, q, out + 64 * b, dummy, nbits + 64 * b, dnb);
    ++b;
  }
#endif
  for (; b < nblocks; ++b) fdct_quant_block(px + 8 * b, stride, q, out + 64 * b, nbits + 64 * b);
#if defined(__AVX512BW__)
  for (b = nblocks & ~3; b < nblocks; ++b) to_zigzag_avx2(out + 64 * b, nbits + 64 * b, nonzero + b);
#elif defined(__AVX2__)
  for (b = 0; b < nblocks; ++b) to_zigzag_avx2(out + 64 * b, nbits + 64 * b, nonzero + b);
#else
  for (b = 0; b < nblocks; ++b) to_zigzag(out + 64 * b, nbits + 64 * b, nonzero + b);
#endif
}

const codecs::JpegEncodeKernels kKernels = {&bgr_to_ycc, &down_h2v1, &down_h2v2, &fdct_quant};

}  // namespace

static const int mnn_jpeg_encode_kernels_registered = codecs::register_jpeg_encode_kernels(MNN_ISA_LEVEL, &kKernels);

}  // namespace mnn::cpu::MNN_ISA_NS
