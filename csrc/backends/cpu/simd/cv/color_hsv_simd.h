// AVX2 / AVX-512 versions of color_hsv.cpp's per-pixel references: the same float32 steps in 8 or
// 16 lanes, written once over a small lane-type interface (V8, V16). Included by color_hsv.cpp
// only. Each kernel converts the pixels it can and returns how many; the caller does the rest
// with the reference. Partial vectors go through a stack buffer, so nothing is read or written
// outside the row.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace mnn::cpu::MNN_ISA_NS::hsv_simd {

#if defined(__AVX2__)

// A pshufb pattern taking byte k of each of 4 pixels of scn bytes into the low byte of 4 int32s.
inline __m128i chan_mask128(int scn, int k) {
  alignas(16) int8_t m[16];
  for (int j = 0; j < 16; ++j) m[j] = static_cast<int8_t>(j % 4 == 0 ? j / 4 * scn + k : -1);
  return _mm_load_si128(reinterpret_cast<const __m128i*>(m));
}

struct V8 {
  static constexpr int W = 8;
  using F = __m256;
  using I = __m256i;
  using M = __m256;  // all-ones lanes
  static F set(float x) { return _mm256_set1_ps(x); }
  static I seti(int x) { return _mm256_set1_epi32(x); }
  static F add(F a, F b) { return _mm256_add_ps(a, b); }
  static F sub(F a, F b) { return _mm256_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
  static F div(F a, F b) { return _mm256_div_ps(a, b); }
  static F fmadd(F a, F b, F c) { return _mm256_fmadd_ps(a, b, c); }    // a*b + c, one rounding
  static F fnmadd(F a, F b, F c) { return _mm256_fnmadd_ps(a, b, c); }  // c - a*b, one rounding
  // std::max(a, b) / std::min(a, b), NaN and signed zeros included: maxps returns its second
  // operand where the comparison fails, std::max its first
  static F smax(F a, F b) { return _mm256_max_ps(b, a); }
  static F smin(F a, F b) { return _mm256_min_ps(b, a); }
  static F fabs(F a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.f), a); }
  static M lt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static M le(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
  static M eq(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
  static M gt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
  static M ge(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
  static M mor(M a, M b) { return _mm256_or_ps(a, b); }
  static M mand(M a, M b) { return _mm256_and_ps(a, b); }
  static M mandnot(M a, M b) { return _mm256_andnot_ps(a, b); }  // ~a & b
  static bool any(M m) { return _mm256_movemask_ps(m) != 0; }
  static bool all(M m) { return _mm256_movemask_ps(m) == 0xff; }
  static F sel(M m, F a, F b) { return _mm256_blendv_ps(b, a, m); }  // m ? a : b
  static F mask_add(M m, F a, F b) { return sel(m, add(a, b), a); }    // m ? a + b : a
  static M mnot(M a) { return _mm256_xor_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(-1))); }
  static F trunc(F a) { return _mm256_round_ps(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
  static F floor(F a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  static F rcp(F a) { return _mm256_rcp_ps(a); }
  static F cvtf(I a) { return _mm256_cvtepi32_ps(a); }
  static I rne(F a) { return _mm256_cvtps_epi32(a); }  // the current (default: nearest-even) mode, as lrint
  static I rtz(F a) { return _mm256_cvttps_epi32(a); }
  // integer lanes
  static I iadd(I a, I b) { return _mm256_add_epi32(a, b); }
  static I isub(I a, I b) { return _mm256_sub_epi32(a, b); }
  static I imax(I a, I b) { return _mm256_max_epi32(a, b); }
  static I imin(I a, I b) { return _mm256_min_epi32(a, b); }
  static M ieq(I a, I b) { return _mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b)); }
  static M igt(I a, I b) { return _mm256_castsi256_ps(_mm256_cmpgt_epi32(a, b)); }
  static M ibit(I a, int bit) {  // lanes with (a & bit) != 0
    const __m256i m = _mm256_set1_epi32(bit);
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(a, m), m));
  }
  static I isel(M m, I a, I b) {
    return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(b), _mm256_castsi256_ps(a), m));
  }
  static I clamp_u8(I a) { return _mm256_min_epi32(_mm256_max_epi32(a, _mm256_setzero_si256()), _mm256_set1_epi32(255)); }
  static I pack3(I c0, I c1, I c2) {
    return _mm256_or_si256(_mm256_or_si256(c0, _mm256_slli_epi32(c1, 8)), _mm256_slli_epi32(c2, 16));
  }
  // W pixels of 3 or 4 bytes as loaded: 4 pixels in each 128-bit lane (a 3-byte load reads 28
  // bytes, 4 past the last pixel); chan_mask(scn, k) then picks channel k as int32 lanes
  static I load_raw(const uint8_t* p, int scn) {
    if (scn == 4) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                   _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 12)), 1);
  }
  static I chan_mask(int scn, int k) { return _mm256_broadcastsi128_si256(chan_mask128(scn, k)); }
  static I pick(I raw, I mask) { return _mm256_shuffle_epi8(raw, mask); }
  // lanes (c0 | c1 << 8 | c2 << 16) -> W pixels of dcn bytes (alpha 255); writes exactly W * dcn
  static void store_px(uint8_t* d, int dcn, I px) {
    if (dcn == 4) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm256_or_si256(px, _mm256_set1_epi32(int(0xff000000u))));
      return;
    }
    const __m256i m = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                       0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    __m256i q = _mm256_shuffle_epi8(px, m);
    __m128i lo = _mm256_castsi256_si128(q), hi = _mm256_extracti128_si256(q, 1);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(d), lo);
    uint32_t t = uint32_t(_mm_extract_epi32(lo, 2));
    std::memcpy(d + 8, &t, 4);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(d + 12), hi);
    t = uint32_t(_mm_extract_epi32(hi, 2));
    std::memcpy(d + 20, &t, 4);
  }
  // float pixels: channels of W pixels (gathers: AVX2 is not this file's fast path)
  template <int SCN>
  static void load3f(const float* p, F& c0, F& c1, F& c2) {
    const __m256i idx = _mm256_setr_epi32(0, SCN, 2 * SCN, 3 * SCN, 4 * SCN, 5 * SCN, 6 * SCN, 7 * SCN);
    c0 = _mm256_i32gather_ps(p, idx, 4);
    c1 = _mm256_i32gather_ps(p + 1, idx, 4);
    c2 = _mm256_i32gather_ps(p + 2, idx, 4);
  }
  template <int DCN, bool NT = false>
  static void store3f(float* d, F c0, F c1, F c2) {
    alignas(32) float a[3][8];
    _mm256_store_ps(a[0], c0);
    _mm256_store_ps(a[1], c1);
    _mm256_store_ps(a[2], c2);
    for (int i = 0; i < 8; ++i, d += DCN) {
      d[0] = a[0][i], d[1] = a[1][i], d[2] = a[2][i];
      if (DCN == 4) d[3] = 1.f;
    }
  }
};
#if defined(__AVX512BW__) && defined(__AVX512DQ__)
struct V16 {
  static constexpr int W = 16;
  using F = __m512;
  using I = __m512i;
  using M = __mmask16;
  static F set(float x) { return _mm512_set1_ps(x); }
  static I seti(int x) { return _mm512_set1_epi32(x); }
  static F add(F a, F b) { return _mm512_add_ps(a, b); }
  static F sub(F a, F b) { return _mm512_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
  static F div(F a, F b) { return _mm512_div_ps(a, b); }
  static F fmadd(F a, F b, F c) { return _mm512_fmadd_ps(a, b, c); }
  static F fnmadd(F a, F b, F c) { return _mm512_fnmadd_ps(a, b, c); }
  static F smax(F a, F b) { return _mm512_max_ps(b, a); }
  static F smin(F a, F b) { return _mm512_min_ps(b, a); }
  static F fabs(F a) { return _mm512_abs_ps(a); }
  static M lt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
  static M le(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
  static M eq(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
  static M gt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
  static M ge(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
  static M mor(M a, M b) { return M(a | b); }
  static M mand(M a, M b) { return M(a & b); }
  static M mandnot(M a, M b) { return M(~a & b); }
  static bool any(M m) { return m != 0; }
  static bool all(M m) { return m == 0xffff; }
  static F sel(M m, F a, F b) { return _mm512_mask_blend_ps(m, b, a); }
  static F mask_add(M m, F a, F b) { return _mm512_mask_add_ps(a, m, a, b); }
  static M mnot(M a) { return M(~a); }
  static F trunc(F a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
  static F floor(F a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  // rcpps on each half: IPP's reciprocals are the 12-bit rcpps values (vrcp14ps differs)
  static F rcp(F a) {
    __m256 lo = _mm256_rcp_ps(_mm512_castps512_ps256(a)), hi = _mm256_rcp_ps(_mm512_extractf32x8_ps(a, 1));
    return _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
  }
  static F cvtf(I a) { return _mm512_cvtepi32_ps(a); }
  static I rne(F a) { return _mm512_cvtps_epi32(a); }
  static I rtz(F a) { return _mm512_cvttps_epi32(a); }
  static I iadd(I a, I b) { return _mm512_add_epi32(a, b); }
  static I isub(I a, I b) { return _mm512_sub_epi32(a, b); }
  static I imax(I a, I b) { return _mm512_max_epi32(a, b); }
  static I imin(I a, I b) { return _mm512_min_epi32(a, b); }
  static M ieq(I a, I b) { return _mm512_cmpeq_epi32_mask(a, b); }
  static M igt(I a, I b) { return _mm512_cmpgt_epi32_mask(a, b); }
  static M ibit(I a, int bit) { return _mm512_test_epi32_mask(a, _mm512_set1_epi32(bit)); }
  static I isel(M m, I a, I b) { return _mm512_mask_blend_epi32(m, b, a); }
  static I clamp_u8(I a) { return _mm512_min_epi32(_mm512_max_epi32(a, _mm512_setzero_si512()), _mm512_set1_epi32(255)); }
  static I pack3(I c0, I c1, I c2) {
    return _mm512_or_si512(_mm512_or_si512(c0, _mm512_slli_epi32(c1, 8)), _mm512_slli_epi32(c2, 16));
  }
  // as V8's: a 3-byte load reads 52 bytes (4 past the last pixel)
  static I load_raw(const uint8_t* p, int scn) {
    if (scn == 4) return _mm512_loadu_si512(p);
    auto ld = [p](int o) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + o)); };
    __m512i v = _mm512_castsi128_si512(ld(0));
    v = _mm512_inserti32x4(v, ld(12), 1);
    v = _mm512_inserti32x4(v, ld(24), 2);
    return _mm512_inserti32x4(v, ld(36), 3);
  }
  static I chan_mask(int scn, int k) { return _mm512_broadcast_i32x4(chan_mask128(scn, k)); }
  static I pick(I raw, I mask) { return _mm512_shuffle_epi8(raw, mask); }
  // the 3-byte load reads 52 bytes (4 past the last pixel)
  static void store_px(uint8_t* d, int dcn, I px) {
    if (dcn == 4) {
      _mm512_storeu_si512(d, _mm512_or_si512(px, _mm512_set1_epi32(int(0xff000000u))));
      return;
    }
    __m512i q = _mm512_shuffle_epi8(px, _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1)));
    q = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0), q);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm512_castsi512_si256(q));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 32), _mm512_extracti32x4_epi32(q, 2));
  }
  // float pixels: 3 or 4 interleaved channels <-> one register per channel, by two-table permutes
  // (index tables and masks are constants, so the loops keep them in registers)
  template <int SCN>
  static void load3f(const float* p, F& c0, F& c1, F& c2) {
    if constexpr (SCN == 3) {
      // lane i of channel k is element 3i + k of a|b|c: (a, b) below 32, c from lane 11 (10 for k = 2)
      const F a = _mm512_loadu_ps(p), b = _mm512_loadu_ps(p + 16), c = _mm512_loadu_ps(p + 32);
      const __m512i i0 = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 1, 4, 7, 10, 13);
      const __m512i i1 = _mm512_setr_epi32(1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 2, 5, 8, 11, 14);
      const __m512i i2 = _mm512_setr_epi32(2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 0, 3, 6, 9, 12, 15);
      c0 = _mm512_mask_permutexvar_ps(_mm512_permutex2var_ps(a, i0, b), 0xf800, i0, c);
      c1 = _mm512_mask_permutexvar_ps(_mm512_permutex2var_ps(a, i1, b), 0xf800, i1, c);
      c2 = _mm512_mask_permutexvar_ps(_mm512_permutex2var_ps(a, i2, b), 0xfc00, i2, c);
    } else {
      const F a = _mm512_loadu_ps(p), b = _mm512_loadu_ps(p + 16), c = _mm512_loadu_ps(p + 32), d = _mm512_loadu_ps(p + 48);
      const __m512i i0 = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28);
      const __m512i i1 = _mm512_add_epi32(i0, _mm512_set1_epi32(1)), i2 = _mm512_add_epi32(i0, _mm512_set1_epi32(2));
      c0 = _mm512_mask_blend_ps(0xff00, _mm512_permutex2var_ps(a, i0, b), _mm512_permutex2var_ps(c, i0, d));
      c1 = _mm512_mask_blend_ps(0xff00, _mm512_permutex2var_ps(a, i1, b), _mm512_permutex2var_ps(c, i1, d));
      c2 = _mm512_mask_blend_ps(0xff00, _mm512_permutex2var_ps(a, i2, b), _mm512_permutex2var_ps(c, i2, d));
    }
  }
  // output element j = 16 m + t of a 16-pixel block is channel j % dcn of pixel j / dcn: its
  // source lane in the (c0, c1) table is pixel + 16 * (channel == 1); channel 2 (the same index,
  // mod 16) and alpha are merged in after
  // NT: non-temporal stores (d 64-byte aligned)
  static void put(float* d, F v, std::true_type) { _mm512_stream_ps(d, v); }
  static void put(float* d, F v, std::false_type) { _mm512_storeu_ps(d, v); }
  template <int DCN, bool NT = false>
  static void store3f(float* d, F c0, F c1, F c2) {
    const std::integral_constant<bool, NT> nt;
    if constexpr (DCN == 3) {
      const __m512i i0 = _mm512_setr_epi32(0, 16, 0, 1, 17, 1, 2, 18, 2, 3, 19, 3, 4, 20, 4, 5);
      const __m512i i1 = _mm512_setr_epi32(21, 5, 6, 22, 6, 7, 23, 7, 8, 24, 8, 9, 25, 9, 10, 26);
      const __m512i i2 = _mm512_setr_epi32(10, 11, 27, 11, 12, 28, 12, 13, 29, 13, 14, 30, 14, 15, 31, 15);
      put(d, _mm512_mask_permutexvar_ps(_mm512_permutex2var_ps(c0, i0, c1), 0x4924, i0, c2), nt);
      put(d + 16, _mm512_mask_permutexvar_ps(_mm512_permutex2var_ps(c0, i1, c1), 0x2492, i1, c2), nt);
      put(d + 32, _mm512_mask_permutexvar_ps(_mm512_permutex2var_ps(c0, i2, c1), 0x9249, i2, c2), nt);
    } else {
      const __m512i i0 = _mm512_setr_epi32(0, 16, 0, 0, 1, 17, 1, 1, 2, 18, 2, 2, 3, 19, 3, 3);
      const F one = _mm512_set1_ps(1.f);
      for (int m = 0; m < 4; ++m) {
        const __m512i idx = _mm512_add_epi32(i0, _mm512_set1_epi32(4 * m));
        const F t = _mm512_mask_permutexvar_ps(_mm512_permutex2var_ps(c0, idx, c1), 0x4444, idx, c2);
        put(d + 16 * m, _mm512_mask_mov_ps(t, 0x8888, one), nt);
      }
    }
  }
};
#endif  // AVX-512

// ---------------------------------------------------------------------------------------------
// chunk I/O: a full vector straight from/to the row, a partial one through a buffer

template <class V>
inline typename V::I load_u8(const uint8_t* p, int scn, int cnt, bool direct) {
  if (direct) return V::load_raw(p, scn);
  alignas(64) uint8_t buf[V::W * 4 + 16] = {};
  std::memcpy(buf, p, size_t(cnt) * scn);
  return V::load_raw(buf, scn);
}
template <class V>
inline void store_u8(uint8_t* d, int dcn, typename V::I px, int cnt) {
  if (cnt == V::W) return V::store_px(d, dcn, px);
  alignas(64) uint8_t buf[V::W * 4];
  V::store_px(buf, dcn, px);
  std::memcpy(d, buf, size_t(cnt) * dcn);
}
// The 3-byte loads read past their last pixel; 2 more pixels of the row cover that.
inline bool load_direct(int k, int w, int n, int scn) { return k + w + (scn == 3 ? 2 : 0) <= n; }

// rgb2hls_vec on uint8 pixels [0, nvec) of a row of n.
template <class V>
int hls_fwd_u8_v(const uint8_t* s, uint8_t* d, int nvec, int n, int scn, int bidx, float hscale) {
  using F = typename V::F;
  using I = typename V::I;
  using M = typename V::M;
  const F k255 = V::set(1.f / 255.f), half = V::set(0.5f), two = V::set(2.f), sixty = V::set(60.f);
  const F c360 = V::set(360.f), c120 = V::set(120.f), c240 = V::set(240.f), zero = V::set(0.f);
  const F eps = V::set(std::numeric_limits<float>::epsilon()), hs = V::set(hscale), c255 = V::set(255.f);
  const I mr_ = V::chan_mask(scn, bidx ^ 2), mg_ = V::chan_mask(scn, 1), mb_ = V::chan_mask(scn, bidx);
  for (int k = 0; k < nvec; k += V::W) {
    const int cnt = std::min(V::W, nvec - k);
    const I px = load_u8<V>(s + size_t(k) * scn, scn, cnt, cnt == V::W && load_direct(k, V::W, n, scn));
    const F r = V::mul(V::cvtf(V::pick(px, mr_)), k255), g = V::mul(V::cvtf(V::pick(px, mg_)), k255);
    const F b = V::mul(V::cvtf(V::pick(px, mb_)), k255);
    const F mx = V::smax(V::smax(r, g), b), mn = V::smin(V::smin(r, g), b);
    const F diff = V::sub(mx, mn), msum = V::add(mx, mn);
    const F l = V::mul(msum, half);
    F sv = V::div(diff, V::sel(V::lt(l, half), msum, V::sub(two, msum)));
    const M mr = V::eq(mx, r), mg = V::eq(mx, g);
    const F hh = V::sel(mr, V::sub(g, b), V::sel(mg, V::sub(b, r), V::sub(r, g)));
    const F part = V::sel(mr, V::sel(V::lt(g, b), c360, zero), V::sel(mg, c120, c240));
    F h = V::mul(V::fmadd(hh, V::div(sixty, diff), part), hs);
    const M ok = V::gt(diff, eps);
    h = V::sel(ok, h, zero);
    sv = V::sel(ok, sv, zero);
    // l * 255 and s * 255 are within [0, 255] (s <= 1 up to an ulp): only the hue needs a clamp
    const I out = V::pack3(V::clamp_u8(V::rne(h)), V::rne(V::mul(l, c255)), V::rne(V::mul(sv, c255)));
    store_u8<V>(d + size_t(k) * 3, 3, out, cnt);
  }
  return nvec;
}

// lanes (b, g, r) of clamped ints -> packed in the destination's channel order
template <class V>
inline typename V::I pack_bgr(int bidx, typename V::I b, typename V::I g, typename V::I r) {
  return bidx == 0 ? V::pack3(b, g, r) : V::pack3(r, g, b);
}

// hsv2rgb_vec on uint8 pixels [0, nvec) (input: 3 bytes a pixel, no over-read: see below).
template <class V>
int hsv_inv_u8_v(const uint8_t* s, uint8_t* d, int nvec, int dcn, int bidx, float hscale) {
  using F = typename V::F;
  using I = typename V::I;
  using M = typename V::M;
  const F k255 = V::set(1.f / 255.f), one = V::set(1.f), sixth = V::set(1.f / 6.f), six = V::set(6.f);
  const F hs = V::set(hscale), c255 = V::set(255.f);
  const I m0_ = V::chan_mask(3, 0), m1_ = V::chan_mask(3, 1), m2_ = V::chan_mask(3, 2);
  for (int k = 0; k < nvec; k += V::W) {
    const int cnt = std::min(V::W, nvec - k);
    const I px = load_u8<V>(s + size_t(k) * 3, 3, cnt, cnt == V::W && load_direct(k, V::W, nvec, 3));
    const F hraw = V::cvtf(V::pick(px, m0_)), x = V::mul(V::cvtf(V::pick(px, m1_)), k255), y = V::mul(V::cvtf(V::pick(px, m2_)), k255);
    F h = V::mul(hraw, hs);
    const F pre = V::trunc(h);
    h = V::sub(h, pre);
    const F t0 = y, t1 = V::mul(y, V::sub(one, x)), t2 = V::mul(y, V::fnmadd(x, h, one));
    const F t3 = V::mul(y, V::fnmadd(x, V::sub(one, h), one));
    const F sec = V::sub(pre, V::mul(V::trunc(V::mul(pre, sixth)), six));
    // sec is a whole number 0..5 here (every H is checked in tests/cv/test_hsv_speed11.py), so
    // the comparison chain of the reference is kSector's table, picked by the sector's bits
    const I si = V::rtz(sec);
    const M b0 = V::ibit(si, 1), b1 = V::ibit(si, 2), b2 = V::ibit(si, 4);
    const F b = V::sel(b2, V::sel(b0, t2, t0), V::sel(b1, V::sel(b0, t0, t3), t1));
    const F g = V::sel(b2, t1, V::sel(b1, V::sel(b0, t2, t0), V::sel(b0, t0, t3)));
    const F r = V::sel(b2, V::sel(b0, t0, t3), V::sel(b1, t1, V::sel(b0, t2, t0)));
    const I out = pack_bgr<V>(bidx, V::clamp_u8(V::rtz(V::mul(b, c255))), V::clamp_u8(V::rtz(V::mul(g, c255))),
                              V::clamp_u8(V::rtz(V::mul(r, c255))));
    store_u8<V>(d + size_t(k) * dcn, dcn, out, cnt);
  }
  return nvec;
}

// hls2rgb_vec on uint8 pixels [0, nvec).
template <class V>
int hls_inv_u8_v(const uint8_t* s, uint8_t* d, int nvec, int dcn, int bidx, float hscale) {
  using F = typename V::F;
  using I = typename V::I;
  using M = typename V::M;
  const F k255 = V::set(1.f / 255.f), half = V::set(0.5f), sixth = V::set(1.f / 6.f), six = V::set(6.f);
  const F hs = V::set(hscale), c255 = V::set(255.f);
  const I m0_ = V::chan_mask(3, 0), m1_ = V::chan_mask(3, 1), m2_ = V::chan_mask(3, 2);
  for (int k = 0; k < nvec; k += V::W) {
    const int cnt = std::min(V::W, nvec - k);
    const I px = load_u8<V>(s + size_t(k) * 3, 3, cnt, cnt == V::W && load_direct(k, V::W, nvec, 3));
    const F hraw = V::cvtf(V::pick(px, m0_)), l = V::mul(V::cvtf(V::pick(px, m1_)), k255), sv = V::mul(V::cvtf(V::pick(px, m2_)), k255);
    const F ls = V::mul(l, sv);
    const F e0 = V::sel(V::le(l, half), ls, V::sub(sv, ls));
    const F raw = V::mul(hraw, hs);
    const F pre = V::trunc(raw);
    const F hsf = V::sub(raw, pre);
    const F sec = V::sub(pre, V::mul(six, V::trunc(V::mul(raw, sixth))));
    const F e1 = V::add(hsf, hsf);
    const F t0 = V::add(l, e0), t1 = V::sub(l, e0), t2 = V::sub(t0, V::mul(e0, e1)), t3 = V::add(t1, V::mul(e0, e1));
    const I si = V::rtz(sec);  // a whole number 0..5, as in hsv_inv_u8_v
    const M b0 = V::ibit(si, 1), b1 = V::ibit(si, 2), b2 = V::ibit(si, 4);
    const F b = V::sel(b2, V::sel(b0, t2, t0), V::sel(b1, V::sel(b0, t0, t3), t1));
    const F g = V::sel(b2, t1, V::sel(b1, V::sel(b0, t2, t0), V::sel(b0, t0, t3)));
    const F r = V::sel(b2, V::sel(b0, t0, t3), V::sel(b1, t1, V::sel(b0, t2, t0)));
    const I out = pack_bgr<V>(bidx, V::clamp_u8(V::rne(V::mul(b, c255))), V::clamp_u8(V::rne(V::mul(g, c255))),
                              V::clamp_u8(V::rne(V::mul(r, c255))));
    store_u8<V>(d + size_t(k) * dcn, dcn, out, cnt);
  }
  return nvec;
}

// IPP's vector HLS_FULL on uint8 pixels [0, nvec) of a row of n (see hls_full_ipp_px_u8).
template <class V>
int hls_full_ipp_u8_v(const uint8_t* s, uint8_t* d, int nvec, int n, int scn, int bidx) {
  using F = typename V::F;
  using I = typename V::I;
  using M = typename V::M;
  const F half = V::set(0.5f), c255 = V::set(255.f), sixty = V::set(60.f), c360 = V::set(360.f), hk = V::set(255.f / 360.f);
  const F zero = V::set(0.f), two = V::set(2.f), four = V::set(4.f);
  const I i255 = V::seti(255), i510 = V::seti(510), izero = V::seti(0);
  const I mr_ = V::chan_mask(scn, bidx ^ 2), mg_ = V::chan_mask(scn, 1), mb_ = V::chan_mask(scn, bidx);
  for (int k = 0; k < nvec; k += V::W) {
    const int cnt = std::min(V::W, nvec - k);
    const I px = load_u8<V>(s + size_t(k) * scn, scn, cnt, cnt == V::W && load_direct(k, V::W, n, scn));
    const I r = V::pick(px, mr_), g = V::pick(px, mg_), b = V::pick(px, mb_);
    const I mx = V::imax(V::imax(r, g), b), mn = V::imin(V::imin(r, g), b);
    const I dd = V::isub(mx, mn), sum = V::iadd(mx, mn);
    const I den = V::isel(V::igt(sum, i255), V::isub(i510, sum), sum);
    const M mr = V::ieq(mx, r), mg = V::ieq(mx, g);
    const I num = V::isel(mr, V::isub(g, b), V::isel(mg, V::isub(b, r), V::isub(r, g)));
    const F off = V::sel(mr, zero, V::sel(mg, two, four));
    const I L = V::rne(V::mul(V::cvtf(sum), half));
    const F df = V::cvtf(dd);
    const I S = V::rne(V::mul(V::mul(df, V::rcp(V::cvtf(den))), c255));
    F h = V::mul(V::add(V::mul(V::cvtf(num), V::rcp(df)), off), sixty);
    h = V::sel(V::lt(h, zero), V::add(h, c360), h);
    const I H = V::rne(V::mul(h, hk));
    const M grey = V::ieq(dd, izero);
    const I out = V::pack3(V::clamp_u8(V::isel(grey, izero, H)), V::clamp_u8(L), V::clamp_u8(V::isel(grey, izero, S)));
    store_u8<V>(d + size_t(k) * 3, 3, out, cnt);
  }
  return nvec;
}

// IPP's HSV_FULL -> BGR/RGB on uint8 pixels [0, n) (see hsv_full_ipp_inv_px_u8).
template <class V>
int hsv_full_ipp_inv_u8_v(const uint8_t* s, uint8_t* d, int n, int dcn, int bidx) {
  using F = typename V::F;
  using I = typename V::I;
  using M = typename V::M;
  const F k255 = V::set(1.f / 255.f), six = V::set(6.f), one = V::set(1.f), zero = V::set(0.f);
  const F c1 = V::set(1.f), c2 = V::set(2.f), c3 = V::set(3.f), c4 = V::set(4.f);
  const I m0_ = V::chan_mask(3, 0), m1_ = V::chan_mask(3, 1), m2_ = V::chan_mask(3, 2);
  for (int k = 0; k < n; k += V::W) {
    const int cnt = std::min(V::W, n - k);
    const I px = load_u8<V>(s + size_t(k) * 3, 3, cnt, cnt == V::W && load_direct(k, V::W, n, 3));
    const F h = V::mul(V::mul(V::cvtf(V::pick(px, m0_)), k255), six);
    const F sat = V::mul(V::cvtf(V::pick(px, m1_)), k255), v = V::cvtf(V::pick(px, m2_));
    const F fl = V::floor(h);
    const F sec = V::sel(V::ge(fl, six), zero, fl);  // int(fl) % 6, fl in [0, 6]
    const F f = V::sub(h, fl);
    const F m = V::mul(v, V::sub(one, sat));
    const F nn = V::mul(v, V::sub(one, V::mul(sat, f)));
    const F kk = V::mul(v, V::sub(one, V::mul(sat, V::sub(one, f))));
    const M e0 = V::eq(sec, zero), e1 = V::eq(sec, c1), e2 = V::eq(sec, c2), e3 = V::eq(sec, c3), e4 = V::eq(sec, c4);
    const F r = V::sel(e1, nn, V::sel(V::mor(e2, e3), m, V::sel(e4, kk, v)));
    const F g = V::sel(e0, kk, V::sel(V::mor(e1, e2), v, V::sel(e3, nn, m)));
    const F b = V::sel(V::mor(e0, e1), m, V::sel(e2, kk, V::sel(V::mor(e3, e4), v, nn)));
    const I out = pack_bgr<V>(bidx, V::clamp_u8(V::rne(b)), V::clamp_u8(V::rne(g)), V::clamp_u8(V::rne(r)));
    store_u8<V>(d + size_t(k) * dcn, dcn, out, cnt);
  }
  return n;
}

// The hue of rgb2hsv_f / rgb2hls_f from diff = 60 / (max - min [+ eps]): (x - y) * diff with
// (x, y) = (g, b), (b, r) or (r, g) by the channel holding the maximum, + 120 or 240 unless it
// is red (an added +0 would turn a -0 hue into +0), + 360 where negative.
template <class V>
inline typename V::F hsv_hue(typename V::F r, typename V::F g, typename V::F b, typename V::F diff, typename V::M mr,
                             typename V::M mg, typename V::F c120, typename V::F c240, typename V::F c360, typename V::F zero) {
  using F = typename V::F;
  const F x = V::sel(mr, g, V::sel(mg, b, r)), y = V::sel(mr, b, V::sel(mg, r, g));
  const F h = V::mask_add(V::mnot(mr), V::mul(V::sub(x, y), diff), V::sel(mg, c120, c240));
  return V::mask_add(V::lt(h, zero), h, c360);
}

// rgb2hsv_f / rgb2hls_f on float pixels: whole vectors only (the caller does the rest).
template <class V, int SCN, int BIDX, bool HLS, bool NT>
int64_t hsv_fwd_f32_v(const float* s, float* d, int64_t n, float hscale) {
  using F = typename V::F;
  using M = typename V::M;
  const F eps = V::set(std::numeric_limits<float>::epsilon()), sixty = V::set(60.f), c120 = V::set(120.f), c240 = V::set(240.f);
  const F c360 = V::set(360.f), zero = V::set(0.f), half = V::set(0.5f), two = V::set(2.f), hs = V::set(hscale);
  int64_t i = 0;
  for (; i + V::W <= n; i += V::W) {
    F c0, g, c2;
    V::template load3f<SCN>(s + i * SCN, c0, g, c2);
    const F r = BIDX == 0 ? c2 : c0, b = BIDX == 0 ? c0 : c2;
    const F vmax = V::smax(V::smax(r, g), b), vmin = V::smin(V::smin(r, g), b);
    const F diff = V::sub(vmax, vmin);
    const M mr = V::eq(vmax, r), mg = V::eq(vmax, g);
    if constexpr (!HLS) {
      const F sv = V::div(diff, V::add(V::fabs(vmax), eps));
      const F h = hsv_hue<V>(r, g, b, V::div(sixty, V::add(diff, eps)), mr, mg, c120, c240, c360, zero);
      V::template store3f<3, NT>(d + i * 3, V::mul(h, hs), sv, vmax);
    } else {
      const F sum = V::add(vmax, vmin);
      const F l = V::mul(sum, half);
      const M ok = V::gt(diff, eps);  // elsewhere the reference leaves h = s = 0
      const F sv = V::sel(ok, V::div(diff, V::sel(V::lt(l, half), sum, V::sub(V::sub(two, vmax), vmin))), zero);
      const F h = hsv_hue<V>(r, g, b, V::div(sixty, diff), mr, mg, c120, c240, c360, zero);
      V::template store3f<3, NT>(d + i * 3, V::mul(V::sel(ok, h, zero), hs), l, sv);
    }
  }
  return i;
}

// hsv2rgb_f / hls2rgb_f on float pixels: whole vectors, up to the first one holding a hue outside
// [0, 6) after scaling (with saturation != 0), which the reference wraps with a loop.
template <class V, int DCN, int BIDX, bool HLS, bool NT>
int64_t hsv_inv_f32_v(const float* s, float* d, int64_t n, float hscale) {
  using F = typename V::F;
  using M = typename V::M;
  const F zero = V::set(0.f), one = V::set(1.f), two = V::set(2.f), half = V::set(0.5f), six = V::set(6.f), hs = V::set(hscale);
  int64_t i = 0;
  for (; i + V::W <= n; i += V::W) {
    F h, x, y;
    V::template load3f<3>(s + i * 3, h, x, y);
    const F sat = HLS ? y : x, grey_val = HLS ? x : y;
    const F hh = V::mul(h, hs);
    const M grey = V::eq(sat, zero);
    if (!V::all(V::mor(grey, V::mand(V::ge(hh, zero), V::lt(hh, six))))) break;
    // + 0: the reference subtracts the int sector, whose float is never -0 (hh = -0 keeps f = -0)
    const F sec = V::add(V::floor(hh), zero);
    const F f = V::sub(hh, sec);
    F t0, t1, t2, t3;
    if constexpr (!HLS) {
      t0 = y;
      t1 = V::mul(y, V::sub(one, x));
      t2 = V::mul(y, V::fnmadd(x, f, one));
      t3 = V::mul(y, V::fnmadd(x, V::sub(one, f), one));
    } else {
      const F p2 = V::sel(V::le(x, half), V::mul(x, V::add(one, y)), V::sub(V::add(x, y), V::mul(x, y)));
      const F p1 = V::sub(V::mul(two, x), p2);
      t0 = p2;
      t1 = p1;
      t2 = V::add(p1, V::mul(V::sub(p2, p1), V::sub(one, f)));
      t3 = V::add(p1, V::mul(V::sub(p2, p1), f));
    }
    // kSector's table by the bits of the sector (0..5 in every lane that is not grey; grey lanes
    // take their value below): three masks, where nine comparisons spilled AVX-512's k registers
    const typename V::I si = V::rtz(sec);
    const M b0 = V::ibit(si, 1), b1 = V::ibit(si, 2), b2 = V::ibit(si, 4);
    F b = V::sel(b2, V::sel(b0, t2, t0), V::sel(b1, V::sel(b0, t0, t3), t1));
    F g = V::sel(b2, t1, V::sel(b1, V::sel(b0, t2, t0), V::sel(b0, t0, t3)));
    F r = V::sel(b2, V::sel(b0, t0, t3), V::sel(b1, t1, V::sel(b0, t2, t0)));
    b = V::sel(grey, grey_val, b);
    g = V::sel(grey, grey_val, g);
    r = V::sel(grey, grey_val, r);
    if constexpr (BIDX == 0) V::template store3f<DCN, NT>(d + i * DCN, b, g, r);
    else V::template store3f<DCN, NT>(d + i * DCN, r, g, b);
  }
  return i;
}

#endif  // __AVX2__

#if defined(__AVX512BW__) && defined(__AVX512DQ__)
using VB = V16;
#define MNN_HSV_SIMD 1
#elif defined(__AVX2__)
using VB = V8;
#define MNN_HSV_SIMD 1
#endif

// The entry points: the pixels converted (0 where the target has no vector code).
inline int hls_fwd_u8(const uint8_t* s, uint8_t* d, int nvec, int n, int scn, int bidx, float hscale) {
#if defined(MNN_HSV_SIMD)
  return hls_fwd_u8_v<VB>(s, d, nvec, n, scn, bidx, hscale);
#else
  (void)s, (void)d, (void)nvec, (void)n, (void)scn, (void)bidx, (void)hscale;
  return 0;
#endif
}
inline int hsv_inv_u8(const uint8_t* s, uint8_t* d, int nvec, int dcn, int bidx, float hscale) {
#if defined(MNN_HSV_SIMD)
  return hsv_inv_u8_v<VB>(s, d, nvec, dcn, bidx, hscale);
#else
  (void)s, (void)d, (void)nvec, (void)dcn, (void)bidx, (void)hscale;
  return 0;
#endif
}
inline int hls_inv_u8(const uint8_t* s, uint8_t* d, int nvec, int dcn, int bidx, float hscale) {
#if defined(MNN_HSV_SIMD)
  return hls_inv_u8_v<VB>(s, d, nvec, dcn, bidx, hscale);
#else
  (void)s, (void)d, (void)nvec, (void)dcn, (void)bidx, (void)hscale;
  return 0;
#endif
}
inline int hls_full_ipp_u8(const uint8_t* s, uint8_t* d, int nvec, int n, int scn, int bidx) {
#if defined(MNN_HSV_SIMD)
  return hls_full_ipp_u8_v<VB>(s, d, nvec, n, scn, bidx);
#else
  (void)s, (void)d, (void)nvec, (void)n, (void)scn, (void)bidx;
  return 0;
#endif
}
inline int hsv_full_ipp_inv_u8(const uint8_t* s, uint8_t* d, int n, int dcn, int bidx) {
#if defined(MNN_HSV_SIMD)
  return hsv_full_ipp_inv_u8_v<VB>(s, d, n, dcn, bidx);
#else
  (void)s, (void)d, (void)n, (void)dcn, (void)bidx;
  return 0;
#endif
}
// nt: stream the stores (from d's first 64-byte aligned pixel; the caller does those before it)
inline int64_t hsv_fwd_f32(const float* s, float* d, int64_t n, int scn, int bidx, float hscale, bool hls, bool nt) {
#if defined(MNN_HSV_SIMD)
  // the channel counts, bidx and the kind as template arguments: one specialised loop each
  auto run = [&](auto scn_c, auto hls_c) {
    if (nt) {
      const int64_t done = bidx == 0 ? hsv_fwd_f32_v<VB, scn_c(), 0, hls_c(), true>(s, d, n, hscale)
                                     : hsv_fwd_f32_v<VB, scn_c(), 2, hls_c(), true>(s, d, n, hscale);
      _mm_sfence();  // the streamed lines are visible before the result is handed on
      return done;
    }
    return bidx == 0 ? hsv_fwd_f32_v<VB, scn_c(), 0, hls_c(), false>(s, d, n, hscale)
                     : hsv_fwd_f32_v<VB, scn_c(), 2, hls_c(), false>(s, d, n, hscale);
  };
  using C3 = std::integral_constant<int, 3>;
  using C4 = std::integral_constant<int, 4>;
  using T = std::true_type;
  using Fa = std::false_type;
  return scn == 3 ? (hls ? run(C3{}, T{}) : run(C3{}, Fa{})) : (hls ? run(C4{}, T{}) : run(C4{}, Fa{}));
#else
  (void)s, (void)d, (void)n, (void)scn, (void)bidx, (void)hscale, (void)hls, (void)nt;
  return 0;
#endif
}
inline int64_t hsv_inv_f32(const float* s, float* d, int64_t n, int dcn, int bidx, float hscale, bool hls, bool nt) {
#if defined(MNN_HSV_SIMD)
  auto run = [&](auto dcn_c, auto hls_c) {
    if (nt) {
      const int64_t done = bidx == 0 ? hsv_inv_f32_v<VB, dcn_c(), 0, hls_c(), true>(s, d, n, hscale)
                                     : hsv_inv_f32_v<VB, dcn_c(), 2, hls_c(), true>(s, d, n, hscale);
      _mm_sfence();
      return done;
    }
    return bidx == 0 ? hsv_inv_f32_v<VB, dcn_c(), 0, hls_c(), false>(s, d, n, hscale)
                     : hsv_inv_f32_v<VB, dcn_c(), 2, hls_c(), false>(s, d, n, hscale);
  };
  using C3 = std::integral_constant<int, 3>;
  using C4 = std::integral_constant<int, 4>;
  using T = std::true_type;
  using Fa = std::false_type;
  return dcn == 3 ? (hls ? run(C3{}, T{}) : run(C3{}, Fa{})) : (hls ? run(C4{}, T{}) : run(C4{}, Fa{}));
#else
  (void)s, (void)d, (void)n, (void)dcn, (void)bidx, (void)hscale, (void)hls, (void)nt;
  return 0;
#endif
}

}  // namespace mnn::cpu::MNN_ISA_NS::hsv_simd
