// JPEG decoding's per-pixel kernels (and PNG's channel swap) for one ISA (compiled once per ISA target; registry in ops/codecs/codec_kernels.h).
// Integer arithmetic identical to libjpeg-turbo's (ISLOW DCTs, 16-bit fixed-point colour conversion,
// triangle upsampling), laid out as loops over 8 independent lanes so the compiler vectorises them,
// plus hand-written AVX2 for the IDCT and YCbCr->BGR (16-bit lanes, exact by construction): the scalar
// build and the AVX2/AVX-512 builds give bit-identical results.
#include <cstring>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "ops/codecs/codec_kernels.h"
#include "prims/registry.h"  // MNN_ISA_LEVEL

namespace mnn::cpu::MNN_ISA_NS {
namespace {

constexpr int kConstBits = 13, kPass1Bits = 2;
constexpr int32_t F0_298 = 2446, F0_390 = 3196, F0_541 = 4433, F0_765 = 6270, F0_899 = 7373, F1_175 = 9633,
                  F1_501 = 12299, F1_847 = 15137, F1_961 = 16069, F2_053 = 16819, F2_562 = 20995, F3_072 = 25172;

// One 1-D inverse DCT on 8 lanes: x[u][l] frequency u of lane l -> y[n][l] sample n, descaled by kShift.
// Corrupt input can push the sums past 32 bits; libjpeg lets them wrap, and so do we, in unsigned
// arithmetic (defined behaviour), reading the result back as two's complement before the shift.
template <int kShift>
inline void idct_lanes(const int32_t (&x)[8][8], int32_t (&y)[8][8]) {
  using u32 = uint32_t;
  constexpr u32 round = u32(1) << (kShift - 1);
  auto out = [](u32 v) { return static_cast<int32_t>(v) >> kShift; };
  for (int l = 0; l < 8; ++l) {
    u32 z2 = u32(x[2][l]), z3 = u32(x[6][l]);
    u32 z1 = (z2 + z3) * u32(F0_541);
    u32 tmp2 = z1 - z3 * u32(F1_847);
    u32 tmp3 = z1 + z2 * u32(F0_765);
    u32 tmp0 = (u32(x[0][l]) + u32(x[4][l])) << kConstBits;
    u32 tmp1 = (u32(x[0][l]) - u32(x[4][l])) << kConstBits;
    u32 tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
    u32 o0 = u32(x[7][l]), o1 = u32(x[5][l]), o2 = u32(x[3][l]), o3 = u32(x[1][l]);
    u32 a1 = o0 + o3, a2 = o1 + o2, a3 = o0 + o2, a4 = o1 + o3;
    u32 z5 = (a3 + a4) * u32(F1_175);
    a1 *= u32(-F0_899);
    a2 *= u32(-F2_562);
    a3 = a3 * u32(-F1_961) + z5;
    a4 = a4 * u32(-F0_390) + z5;
    o0 = o0 * u32(F0_298) + a1 + a3;
    o1 = o1 * u32(F2_053) + a2 + a4;
    o2 = o2 * u32(F3_072) + a2 + a3;
    o3 = o3 * u32(F1_501) + a1 + a4;
    y[0][l] = out(tmp10 + o3 + round);
    y[7][l] = out(tmp10 - o3 + round);
    y[1][l] = out(tmp11 + o2 + round);
    y[6][l] = out(tmp11 - o2 + round);
    y[2][l] = out(tmp12 + o1 + round);
    y[5][l] = out(tmp12 - o1 + round);
    y[3][l] = out(tmp13 + o0 + round);
    y[4][l] = out(tmp13 - o0 + round);
  }
}

// libjpeg masks the descaled sample to 10 bits before its range-limit table (wrapping far outliers);
// inside that window this is a clamp of v + 128.
inline uint8_t range_limit(int32_t v) {
  v = static_cast<int32_t>((static_cast<uint32_t>(v) + 512) & 1023) - 512 + 128;
  return static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
}

void idct8x8(const int16_t* in, const uint16_t* q, uint8_t* out, int stride) {
  int acc = 0;
  for (int i = 1; i < 64; ++i) acc |= in[i];
  if (acc == 0) {  // DC only (common): every pass reduces to the same descale
    int32_t dc = in[0] * q[0];  // |dc| < 2^31 for int16 x uint16
    uint8_t v = range_limit(static_cast<int32_t>((static_cast<uint32_t>(dc) << kPass1Bits) + 16) >> 5);
    for (int r = 0; r < 8; ++r) std::memset(out + r * stride, v, 8);
    return;
  }
  // Pass 1 runs down the columns (lanes = columns); libjpeg's zero-column shortcut gives the same values.
  int32_t x[8][8], y[8][8];
  for (int u = 0; u < 8; ++u)
    for (int c = 0; c < 8; ++c) x[u][c] = in[u * 8 + c] * q[u * 8 + c];
  idct_lanes<kConstBits - kPass1Bits>(x, y);
  // Pass 2 along the rows: transpose so lanes are rows.
  for (int v = 0; v < 8; ++v)
    for (int r = 0; r < 8; ++r) x[v][r] = y[r][v];
  idct_lanes<kConstBits + kPass1Bits + 3>(x, y);
  uint8_t t[8][8];
  for (int n = 0; n < 8; ++n)
    for (int r = 0; r < 8; ++r) t[n][r] = range_limit(y[n][r]);
  for (int r = 0; r < 8; ++r)
    for (int n = 0; n < 8; ++n) out[r * stride + n] = t[n][r];
}

#if defined(__AVX2__)
// The same ISLOW IDCT on 16-bit lanes with pmaddwd: every rotation of the 1-D transform, expanded, is a
// sum of products of two inputs, x_a * c_a + x_b * c_b, so each output takes two pmaddwd on (x1,x5) and
// (x3,x7) pairs (even part: (x0,x4), (x2,x6)). The expansion is a ring identity, so it agrees with the
// 32-bit code modulo 2^32, and the 32-bit adds wrap the same way: bit-identical whenever the 16-bit
// inputs are the exact values, i.e. the dequantized coefficients and the pass-1 outputs fit in int16.
// Both are checked per block (true of any real image; a block that fails takes idct8x8).
inline __m256i pair16(int a, int b) {
  return _mm256_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint16_t>(a)) |
                                                static_cast<uint32_t>(static_cast<uint16_t>(b)) << 16));
}

// One 1-D pass on 8 lanes from the input pairs (x0,x4), (x2,x6), (x1,x5), (x3,x7); y[n] = sample n,
// already rounded (bias added) but not shifted.
inline void idct_pass_avx2(__m256i p04, __m256i p26, __m256i p15, __m256i p37, __m256i bias, __m256i (&y)[8]) {
  const __m256i tmp0 = _mm256_add_epi32(_mm256_madd_epi16(p04, pair16(8192, 8192)), bias);
  const __m256i tmp1 = _mm256_add_epi32(_mm256_madd_epi16(p04, pair16(8192, -8192)), bias);
  const __m256i tmp3 = _mm256_madd_epi16(p26, pair16(F0_541 + F0_765, F0_541));
  const __m256i tmp2 = _mm256_madd_epi16(p26, pair16(F0_541, F0_541 - F1_847));
  const __m256i t10 = _mm256_add_epi32(tmp0, tmp3), t13 = _mm256_sub_epi32(tmp0, tmp3);
  const __m256i t11 = _mm256_add_epi32(tmp1, tmp2), t12 = _mm256_sub_epi32(tmp1, tmp2);
  // Odd part, from x7 (o0), x5 (o1), x3 (o2), x1 (o3) with z5 = (x1+x3+x5+x7) * F1_175 folded in.
  const __m256i o0 = _mm256_add_epi32(_mm256_madd_epi16(p15, pair16(F1_175 - F0_899, F1_175)),
                                      _mm256_madd_epi16(p37, pair16(F1_175 - F1_961, F0_298 - F0_899 - F1_961 + F1_175)));
  const __m256i o1 = _mm256_add_epi32(_mm256_madd_epi16(p15, pair16(F1_175 - F0_390, F2_053 - F2_562 - F0_390 + F1_175)),
                                      _mm256_madd_epi16(p37, pair16(F1_175 - F2_562, F1_175)));
  const __m256i o2 = _mm256_add_epi32(_mm256_madd_epi16(p15, pair16(F1_175, F1_175 - F2_562)),
                                      _mm256_madd_epi16(p37, pair16(F3_072 - F2_562 - F1_961 + F1_175, F1_175 - F1_961)));
  const __m256i o3 = _mm256_add_epi32(_mm256_madd_epi16(p15, pair16(F1_501 - F0_899 - F0_390 + F1_175, F1_175 - F0_390)),
                                      _mm256_madd_epi16(p37, pair16(F1_175, F1_175 - F0_899)));
  y[0] = _mm256_add_epi32(t10, o3);
  y[7] = _mm256_sub_epi32(t10, o3);
  y[1] = _mm256_add_epi32(t11, o2);
  y[6] = _mm256_sub_epi32(t11, o2);
  y[2] = _mm256_add_epi32(t12, o1);
  y[5] = _mm256_sub_epi32(t12, o1);
  y[3] = _mm256_add_epi32(t13, o0);
  y[4] = _mm256_sub_epi32(t13, o0);
}

// Rows n and m (int32, lanes = columns) -> per row the pairs (c0,c4),(c1,c5),(c2,c6),(c3,c7) as int16
// (truncating; the caller checked the range): [row n | row m].
inline __m256i row_pairs(__m256i yn, __m256i ym) {
  const __m256i lo = _mm256_permute2x128_si256(yn, ym, 0x20), hi = _mm256_permute2x128_si256(yn, ym, 0x31);
  return _mm256_blend_epi16(lo, _mm256_slli_epi32(hi, 16), 0xAA);
}

// Returns false (nothing written) when the block needs the 32-bit path, or is DC only.
inline bool idct8x8_avx2(const int16_t* in, const __m256i (&q)[4], uint8_t* out, int stride) {
  const __m256i* src = reinterpret_cast<const __m256i*>(in);
  const __m256i d01 = _mm256_loadu_si256(src), d23 = _mm256_loadu_si256(src + 1), d45 = _mm256_loadu_si256(src + 2),
                d67 = _mm256_loadu_si256(src + 3);
  // DC only: idct8x8's flat fill is cheaper.
  const __m256i ac = _mm256_or_si256(_mm256_or_si256(_mm256_blend_epi16(d01, _mm256_setzero_si256(), 1), d23),
                                     _mm256_or_si256(d45, d67));
  if (_mm256_testz_si256(ac, ac)) return false;
  const __m256i m01 = _mm256_mullo_epi16(d01, q[0]), m23 = _mm256_mullo_epi16(d23, q[1]),
                m45 = _mm256_mullo_epi16(d45, q[2]), m67 = _mm256_mullo_epi16(d67, q[3]);
  // Dequantization exact in 16 bits: the high half of each product is the sign of the low half.
  __m256i bad = _mm256_xor_si256(_mm256_mulhi_epi16(d01, q[0]), _mm256_srai_epi16(m01, 15));
  bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_mulhi_epi16(d23, q[1]), _mm256_srai_epi16(m23, 15)));
  bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_mulhi_epi16(d45, q[2]), _mm256_srai_epi16(m45, 15)));
  bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_mulhi_epi16(d67, q[3]), _mm256_srai_epi16(m67, 15)));
  if (!_mm256_testz_si256(bad, bad)) return false;

  // Pass 1 down the columns: lanes are columns, pairs of rows (0,4), (1,5), (2,6), (3,7).
  const __m256i u0 = _mm256_unpacklo_epi16(m01, m45), v0 = _mm256_unpackhi_epi16(m01, m45);
  const __m256i u1 = _mm256_unpacklo_epi16(m23, m67), v1 = _mm256_unpackhi_epi16(m23, m67);
  __m256i y[8];
  idct_pass_avx2(_mm256_permute2x128_si256(u0, v0, 0x20), _mm256_permute2x128_si256(u1, v1, 0x20),
                 _mm256_permute2x128_si256(u0, v0, 0x31), _mm256_permute2x128_si256(u1, v1, 0x31),
                 _mm256_set1_epi32(1 << (kConstBits - kPass1Bits - 1)), y);
  __m256i range = _mm256_setzero_si256();
  for (int n = 0; n < 8; ++n) {
    y[n] = _mm256_srai_epi32(y[n], kConstBits - kPass1Bits);
    range = _mm256_or_si256(range, _mm256_add_epi32(y[n], _mm256_set1_epi32(0x8000)));
  }
  if (!_mm256_testz_si256(range, _mm256_set1_epi32(static_cast<int32_t>(0xFFFF0000u)))) return false;

  // Pass 2 along the rows: lanes are rows; a 4x4 transpose of the 32-bit column pairs of each row.
  const __m256i r04 = row_pairs(y[0], y[4]), r15 = row_pairs(y[1], y[5]), r26 = row_pairs(y[2], y[6]),
                r37 = row_pairs(y[3], y[7]);
  const __m256i t0 = _mm256_unpacklo_epi32(r04, r15), t1 = _mm256_unpacklo_epi32(r26, r37);
  const __m256i t2 = _mm256_unpackhi_epi32(r04, r15), t3 = _mm256_unpackhi_epi32(r26, r37);
  // The descale bias also adds 512 << 18: range_limit's +512 before its 10-bit mask, which the
  // mask makes exact even where the sum wraps.
  __m256i z[8];
  idct_pass_avx2(_mm256_unpacklo_epi64(t0, t1), _mm256_unpacklo_epi64(t2, t3), _mm256_unpackhi_epi64(t0, t1),
                 _mm256_unpackhi_epi64(t2, t3),
                 _mm256_set1_epi32((1 << (kConstBits + kPass1Bits + 3 - 1)) + (512 << (kConstBits + kPass1Bits + 3))),
                 z);
  const __m256i mask = _mm256_set1_epi32(1023), off = _mm256_set1_epi32(384);
  for (int m = 0; m < 8; ++m)
    z[m] = _mm256_sub_epi32(_mm256_and_si256(_mm256_srai_epi32(z[m], kConstBits + kPass1Bits + 3), mask), off);
  // z[m] lane n = sample (row n, column m) - 128 + ... in -384..639: saturating packs give range_limit.
  const __m256i b0 = _mm256_packus_epi16(_mm256_packs_epi32(z[0], z[1]), _mm256_packs_epi32(z[2], z[3]));
  const __m256i b1 = _mm256_packus_epi16(_mm256_packs_epi32(z[4], z[5]), _mm256_packs_epi32(z[6], z[7]));
  // Per lane, byte 4*m + n holds (row n, column m) for m, n < 4: transpose each 4x4.
  const __m256i tr = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5, 9, 13, 2,
                                      6, 10, 14, 3, 7, 11, 15);
  const __m256i s0 = _mm256_shuffle_epi8(b0, tr), s1 = _mm256_shuffle_epi8(b1, tr);
  const __m256i lo = _mm256_unpacklo_epi32(s0, s1), hi = _mm256_unpackhi_epi32(s0, s1);  // rows 0,1|4,5 and 2,3|6,7
  const __m128i r01 = _mm256_castsi256_si128(lo), r45 = _mm256_extracti128_si256(lo, 1);
  const __m128i r23 = _mm256_castsi256_si128(hi), r67 = _mm256_extracti128_si256(hi, 1);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), r01);
  _mm_storeh_pd(reinterpret_cast<double*>(out + stride), _mm_castsi128_pd(r01));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 2 * stride), r23);
  _mm_storeh_pd(reinterpret_cast<double*>(out + 3 * stride), _mm_castsi128_pd(r23));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 4 * stride), r45);
  _mm_storeh_pd(reinterpret_cast<double*>(out + 5 * stride), _mm_castsi128_pd(r45));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 6 * stride), r67);
  _mm_storeh_pd(reinterpret_cast<double*>(out + 7 * stride), _mm_castsi128_pd(r67));
  return true;
}
#endif

void idct_blocks(const int16_t* in, int nblocks, const uint16_t* q, uint8_t* out, int stride) {
#if defined(__AVX2__)
  bool q16 = true;  // quantizers below 2^15 read as int16
  for (int i = 0; i < 64; ++i) q16 = q16 && q[i] < 0x8000;
  if (q16) {
    const __m256i* qv = reinterpret_cast<const __m256i*>(q);
    const __m256i qr[4] = {_mm256_loadu_si256(qv), _mm256_loadu_si256(qv + 1), _mm256_loadu_si256(qv + 2),
                           _mm256_loadu_si256(qv + 3)};
    for (int b = 0; b < nblocks; ++b, in += 64, out += 8)
      if (!idct8x8_avx2(in, qr, out, stride)) idct8x8(in, q, out, stride);
    return;
  }
#endif
  for (int b = 0; b < nblocks; ++b, in += 64, out += 8) idct8x8(in, q, out, stride);
}

void ycc_to_bgr(const uint8_t* yp, const uint8_t* cbp, const uint8_t* crp, uint8_t* o, int n) {
  int i = 0;
#if defined(__AVX2__)
  // 16 pixels a step: the same fixed point on 16-bit lanes, saturating packs to 0..255 and three
  // byte shuffles per 16 output bytes to interleave B, G, R. The compiler left the scalar
  // loop unvectorised (the interleaved stores), where it took ~14% of a 1080p 4:2:0 decode.
  struct Masks {
    alignas(16) int8_t m[3][3][16];  // [output block][channel][byte]
    Masks() {
      for (int k = 0; k < 3; ++k)
        for (int t = 0; t < 16; ++t) {
          const int j = 16 * k + t;
          for (int c = 0; c < 3; ++c) m[k][c][t] = j % 3 == c ? static_cast<int8_t>(j / 3) : -128;
        }
    }
  };
  static const Masks masks;
  // 16-bit lanes: each product 91881*cr, -46802*cr, 116130*cb splits into a multiple of 65536 (an exact
  // cr, -cr or 2*cb after the shift) and a factor that fits int16; (x*c + 32768) >> 16 for one product
  // is its high half plus bit 15 of its low half (exact), and G's two products go through pmaddwd.
  const __m256i c128 = _mm256_set1_epi16(128), half = _mm256_set1_epi32(32768);
  const __m256i kr = _mm256_set1_epi16(91881 - 65536), kb = _mm256_set1_epi16(116130 - 131072);
  const __m256i kg = _mm256_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint16_t>(-22554)) |
                                                            static_cast<uint32_t>(65536 - 46802) << 16));
  auto mul_round = [](__m256i x, __m256i c) {
    return _mm256_add_epi16(_mm256_mulhi_epi16(x, c), _mm256_srli_epi16(_mm256_mullo_epi16(x, c), 15));
  };
  for (; i + 16 <= n; i += 16) {
    const __m256i y = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(yp + i)));
    const __m256i cb =
        _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(cbp + i))), c128);
    const __m256i cr =
        _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(crp + i))), c128);
    const __m256i R = _mm256_add_epi16(_mm256_add_epi16(y, cr), mul_round(cr, kr));
    const __m256i B = _mm256_add_epi16(_mm256_add_epi16(y, _mm256_add_epi16(cb, cb)), mul_round(cb, kb));
    // unpack lo/hi then packs keeps the order within each 128-bit lane
    const __m256i glo = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(cb, cr), kg), half), 16);
    const __m256i ghi = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(cb, cr), kg), half), 16);
    const __m256i G = _mm256_add_epi16(_mm256_sub_epi16(y, cr), _mm256_packs_epi32(glo, ghi));
    const __m256i bg = _mm256_permute4x64_epi64(_mm256_packus_epi16(B, G), 0xD8);  // [B0..15 | G0..15]
    const __m256i rr = _mm256_permute4x64_epi64(_mm256_packus_epi16(R, R), 0xD8);
    const __m128i b = _mm256_castsi256_si128(bg), g = _mm256_extracti128_si256(bg, 1), r = _mm256_castsi256_si128(rr);
    for (int k = 0; k < 3; ++k) {
      const __m128i v = _mm_or_si128(
          _mm_or_si128(_mm_shuffle_epi8(b, _mm_load_si128(reinterpret_cast<const __m128i*>(masks.m[k][0]))),
                       _mm_shuffle_epi8(g, _mm_load_si128(reinterpret_cast<const __m128i*>(masks.m[k][1])))),
          _mm_shuffle_epi8(r, _mm_load_si128(reinterpret_cast<const __m128i*>(masks.m[k][2]))));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o + 3 * i + 16 * k), v);
    }
  }
#endif
  for (; i < n; ++i) {
    int32_t y = yp[i], cb = cbp[i] - 128, cr = crp[i] - 128;
    int32_t r = y + ((91881 * cr + 32768) >> 16);
    int32_t g = y + ((-22554 * cb - 46802 * cr + 32768) >> 16);
    int32_t b = y + ((116130 * cb + 32768) >> 16);
    o[3 * i] = static_cast<uint8_t>(b < 0 ? 0 : (b > 255 ? 255 : b));
    o[3 * i + 1] = static_cast<uint8_t>(g < 0 ? 0 : (g > 255 ? 255 : g));
    o[3 * i + 2] = static_cast<uint8_t>(r < 0 ? 0 : (r > 255 ? 255 : r));
  }
}

void fancy_h2v2(const uint8_t* near, const uint8_t* far, int dw, uint8_t* out) {
  int16_t cs[4096 + 2];
  for (int x0 = 0; x0 < dw; x0 += 4096) {
    // Column sums of this chunk with one neighbour each side (edges replicate).
    const int n = dw - x0 < 4096 ? dw - x0 : 4096;
    const uint8_t* a = near + x0;
    const uint8_t* b = far + x0;
    for (int i = 0; i < n; ++i) cs[i + 1] = static_cast<int16_t>(a[i] * 3 + b[i]);
    cs[0] = x0 > 0 ? static_cast<int16_t>(a[-1] * 3 + b[-1]) : cs[1];
    cs[n + 1] = x0 + n < dw ? static_cast<int16_t>(a[n] * 3 + b[n]) : cs[n];
    uint8_t* o = out + 2 * x0;
    for (int i = 0; i < n; ++i) {
      int32_t t = cs[i + 1] * 3;
      o[2 * i] = static_cast<uint8_t>((t + cs[i] + 8) >> 4);
      o[2 * i + 1] = static_cast<uint8_t>((t + cs[i + 2] + 7) >> 4);
    }
  }
}

void fancy_h2v1(const uint8_t* in, int dw, uint8_t* out) {
  out[0] = in[0];
  out[1] = static_cast<uint8_t>((in[0] * 3 + in[1] + 2) >> 2);
  for (int i = 1; i < dw - 1; ++i) {
    int32_t t = in[i] * 3;
    out[2 * i] = static_cast<uint8_t>((t + in[i - 1] + 1) >> 2);
    out[2 * i + 1] = static_cast<uint8_t>((t + in[i + 1] + 2) >> 2);
  }
  out[2 * dw - 2] = static_cast<uint8_t>((in[dw - 1] * 3 + in[dw - 2] + 1) >> 2);
  out[2 * dw - 1] = in[dw - 1];
}

template <int kC>
void swap_rb_n(const uint8_t* s, uint8_t* d, int64_t npx) {
  for (int64_t i = 0; i < npx; ++i) {
    d[kC * i] = s[kC * i + 2];
    d[kC * i + 1] = s[kC * i + 1];
    d[kC * i + 2] = s[kC * i];
    if (kC == 4) d[kC * i + 3] = s[kC * i + 3];
  }
}

void swap_rb(const uint8_t* s, uint8_t* d, int64_t npx, int channels) {
  if (channels == 3) swap_rb_n<3>(s, d, npx);
  else swap_rb_n<4>(s, d, npx);
}

const codecs::CodecKernels kKernels = {&idct_blocks, &ycc_to_bgr, &fancy_h2v2, &fancy_h2v1, &swap_rb};

}  // namespace

static const int mnn_codec_kernels_registered = codecs::register_codec_kernels(MNN_ISA_LEVEL, &kKernels);

}  // namespace mnn::cpu::MNN_ISA_NS
