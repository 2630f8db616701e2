// cv_color_ycc kernels (shape rule: ops/cv/color_ycc.cpp): cvtColor's linear conversions
// (YCrCb, YUV, XYZ both ways; float gray; RGB -> I420/YV12; float channel permutations) in one
// pass each, giving cv2's bits.
//
// uint8 is cv2's fixed point: YCrCb/YUV 14-bit weights (the forward chroma from the rounded Y),
// XYZ 12-bit, I420/YV12 20-bit BT.601 with the chroma of each 2x2 block taken from its top-left
// pixel. The SIMD loops evaluate those integer sums exactly: pixels are 32-bit lanes of bytes,
// pshufb picks 16-bit pairs of channels and pmaddwd multiplies and adds a pair at once; a weight
// that does not fit int16 is split (33292 = 2 x 16646; the 20-bit ones as 32 * hi + lo). So every
// ISA gives the scalar loop's bits.
//
// float32 follows what cv2's (x86, 8-lane AVX2 dispatch) code computes, found by comparing bits:
// YCrCb/YUV and gray use fused multiply-adds (cv2's v_fma, and its compiler's contraction of the
// scalar loops), XYZ plain products and sums. Some depend on the position in the row (gray too:
// see gray_f_row):
// cv2 runs its vector loop over the first pixels of each row and a scalar loop, with another
// operation order, over the rest: RGB -> YCrCb/YUV (W - W % 8 body pixels; Y = fma(s0, c0,
// fma(s1, c1, s2 c2)) there, fma(s2, c2, fma(s0, c0, s1 c1)) in the tail) and XYZ both ways
// (W - W % 4 body pixels; (s2 c2 + s1 c1) + s0 c0 against (s0 c0 + s1 c1) + s2 c2). Those go
// row by row here.
// std::fma is exact everywhere (an instruction with -mfma, libm on the scalar target); the build
// has -ffp-contract=off, so nothing else is fused.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
// (_mm256_castsi128_si512 leaves the upper lanes undefined by design: GCC 12 warns inside its header)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

enum Op { kYcc = 0, kYccInv, kXyz, kXyzInv, kGray, kToI420, kPermF };

constexpr int64_t kGrainPx = int64_t(1) << 15;  // pixels per task

inline uint8_t sat_u8(int v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

// cv2's 14-bit YCrCb/YUV weights
constexpr int kR2Y = 4899, kG2Y = 9617, kB2Y = 1868;
constexpr int kYCrI = 11682, kYCbI = 9241, kR2VI = 14369, kB2UI = 8061;

struct YccInvI { int kr, kgr, kgb, kb; };
constexpr YccInvI kYccInvI[2] = {{22987, -11698, -5636, 29049}, {18678, -9519, -6472, 33292}};

const double kMatRgb2Xyz[9] = {0.412453, 0.357580, 0.180423, 0.212671, 0.715160, 0.072169, 0.019334, 0.119193, 0.950227};
const double kMatXyz2Rgb[9] = {3.240479, -1.53715, -0.498535, -0.969256, 1.875991, 0.041556, 0.055648, -0.204043, 1.057311};

// BT.601 video range, 20-bit (RGB -> YUV 4:2:0)
constexpr int kShift20 = 20;
constexpr int kCRY = 269484, kCGY = 528482, kCBY = 102760, kCRU = -155188, kCGU = -305135, kCBU = 460324,
              kCGV = -385875, kCBV = -74448;

// ---------------------------------------------------------------------------------------------
// scalar references (the scalar target, and every target's leftovers)

void ycc_u8_scalar(const uint8_t* s, uint8_t* d, int64_t n, int scn, int bidx, bool yuv) {
  const int c0 = bidx == 0 ? kB2Y : kR2Y, c2 = bidx == 0 ? kR2Y : kB2Y;
  const int k1 = yuv ? kB2UI : kYCrI, k2 = yuv ? kR2VI : kYCbI;
  const int delta = (128 << 14) + (1 << 13);
  for (int64_t i = 0; i < n; ++i, s += scn, d += 3) {
    const int y = (s[0] * c0 + s[1] * kG2Y + s[2] * c2 + (1 << 13)) >> 14;
    const int r = s[bidx ^ 2], b = s[bidx];
    const int x1 = yuv ? b : r, x2 = yuv ? r : b;
    d[0] = sat_u8(y);
    d[1] = sat_u8(((x1 - y) * k1 + delta) >> 14);
    d[2] = sat_u8(((x2 - y) * k2 + delta) >> 14);
  }
}

void ycc_inv_u8_scalar(const uint8_t* s, uint8_t* d, int64_t n, int dcn, int bidx, bool yuv) {
  const YccInvI k = kYccInvI[yuv];
  for (int64_t i = 0; i < n; ++i, s += 3, d += dcn) {
    const int y = s[0], cr = (yuv ? s[2] : s[1]) - 128, cb = (yuv ? s[1] : s[2]) - 128;
    d[bidx] = sat_u8(y + ((cb * k.kb + (1 << 13)) >> 14));
    d[1] = sat_u8(y + ((cb * k.kgb + cr * k.kgr + (1 << 13)) >> 14));
    d[bidx ^ 2] = sat_u8(y + ((cr * k.kr + (1 << 13)) >> 14));
    if (dcn == 4) d[3] = 255;
  }
}

// out[j] = sat((sum_c w[j][c] * s[c] + 2^11) >> 12): XYZ both ways, weights by channel position
void mat_u8_scalar(const uint8_t* s, uint8_t* d, int64_t n, int scn, int dcn, const int (&w)[3][3]) {
  for (int64_t i = 0; i < n; ++i, s += scn, d += dcn) {
    for (int j = 0; j < 3; ++j) d[j] = sat_u8((s[0] * w[j][0] + s[1] * w[j][1] + s[2] * w[j][2] + (1 << 11)) >> 12);
    if (dcn == 4) d[3] = 255;
  }
}

// I420 weights by source channel position
struct I420W { int y[3], u[3], v[3]; };

inline int i420_sum(const uint8_t* p, const int (&c)[3], int add) { return (p[0] * c[0] + p[1] * c[1] + p[2] * c[2] + add) >> kShift20; }
constexpr int kAdd16 = (16 << kShift20) + (1 << (kShift20 - 1)), kAdd128 = (128 << kShift20) + (1 << (kShift20 - 1));

void i420_row_scalar(const uint8_t* s, uint8_t* yd, uint8_t* ud, uint8_t* vd, int64_t x0, int64_t x1, int scn,
                     const I420W& w, bool chroma) {
  for (int64_t x = x0; x < x1; ++x) {
    const uint8_t* p = s + x * scn;
    yd[x] = sat_u8(i420_sum(p, w.y, kAdd16));
    if (chroma && (x & 1) == 0) {
      ud[x / 2] = sat_u8(i420_sum(p, w.u, kAdd128));
      vd[x / 2] = sat_u8(i420_sum(p, w.v, kAdd128));
    }
  }
}

// float, cv2's operation orders (see the top of the file)
struct YccF { float c0, c1, c2, k1, k2; };  // Y weights by position; d[1] and d[2] chroma gains

YccF ycc_f_coefs(int bidx, bool yuv) {
  const float r = 0.299f, g = 0.587f, b = 0.114f;
  return {bidx == 0 ? b : r, g, bidx == 0 ? r : b, yuv ? 0.492f : 0.713f, yuv ? 0.877f : 0.564f};
}

inline void ycc_f_px(const float* s, float* d, const YccF& c, int bidx, bool yuv, bool body) {
  const float y = body ? std::fma(s[0], c.c0, std::fma(s[1], c.c1, s[2] * c.c2))
                       : std::fma(s[2], c.c2, std::fma(s[0], c.c0, s[1] * c.c1));
  const float r = s[bidx ^ 2], b = s[bidx];
  d[0] = y;
  d[1] = std::fma((yuv ? b : r) - y, c.k1, 0.5f);
  d[2] = std::fma((yuv ? r : b) - y, c.k2, 0.5f);
}

struct YccInvF { float kr, kgr, kgb, kb; };
constexpr YccInvF kYccInvF[2] = {{1.403f, -0.714f, -0.344f, 1.773f}, {1.140f, -0.581f, -0.395f, 2.032f}};

inline void ycc_inv_f_px(const float* s, float* d, int dcn, int bidx, bool yuv) {
  const YccInvF& k = kYccInvF[yuv];
  const float y = s[0], cr = (yuv ? s[2] : s[1]) - 0.5f, cb = (yuv ? s[1] : s[2]) - 0.5f;
  d[bidx] = std::fma(cb, k.kb, y);
  d[1] = std::fma(cr, k.kgr, std::fma(cb, k.kgb, y));
  d[bidx ^ 2] = std::fma(cr, k.kr, y);
  if (dcn == 4) d[3] = 1.f;
}

inline void mat_f_px(const float* s, float* d, int dcn, const float (&w)[3][3], bool body) {
  for (int j = 0; j < 3; ++j)
    d[j] = body ? (s[2] * w[j][2] + s[1] * w[j][1]) + s[0] * w[j][0] : (s[0] * w[j][0] + s[1] * w[j][1]) + s[2] * w[j][2];
  if (dcn == 4) d[3] = 1.f;
}

// ---------------------------------------------------------------------------------------------
// uint8 SIMD: N pixels a step as N int32 lanes of (c0, c1, c2[, c3]) bytes

#if defined(__AVX2__)
inline int pk(int lo, int hi) { return static_cast<int>(uint32_t(uint16_t(lo)) | (uint32_t(uint16_t(hi)) << 16)); }

// a pshufb mask giving each 32-bit lane the bytes (a, 0, b, 0) of its pixel (-1: zero)
inline __m128i pair_mask(int a, int b) {
  alignas(16) int8_t m[16];
  for (int q = 0; q < 4; ++q) {
    m[4 * q] = static_cast<int8_t>(a < 0 ? -1 : 4 * q + a);
    m[4 * q + 1] = -1;
    m[4 * q + 2] = static_cast<int8_t>(b < 0 ? -1 : 4 * q + b);
    m[4 * q + 3] = -1;
  }
  return _mm_load_si128(reinterpret_cast<const __m128i*>(m));
}

#if defined(__AVX512BW__)
struct VU {
  using I = __m512i;
  static constexpr int N = 16;
  static I bc(__m128i m) { return _mm512_broadcast_i32x4(m); }
  static I set1(int x) { return _mm512_set1_epi32(x); }
  static I shuf(I v, I m) { return _mm512_shuffle_epi8(v, m); }
  static I madd(I a, I b) { return _mm512_madd_epi16(a, b); }
  static I add(I a, I b) { return _mm512_add_epi32(a, b); }
  static I sub(I a, I b) { return _mm512_sub_epi32(a, b); }
  template <int S> static I sra(I a) { return _mm512_srai_epi32(a, S); }
  template <int S> static I sll(I a) { return _mm512_slli_epi32(a, S); }
  // (the loads read nothing past their N pixels)
  static int64_t headroom(int) { return N; }
  static I load(const uint8_t* p, int scn) {
    if (scn == 4) return _mm512_loadu_si512(p);
    auto ld = [p](int o) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + o)); };
    I v = _mm512_castsi128_si512(ld(0));
    v = _mm512_inserti32x4(v, ld(12), 1);
    v = _mm512_inserti32x4(v, ld(24), 2);
    v = _mm512_inserti32x4(v, _mm_srli_si128(ld(32), 4), 3);  // bytes 36..47, not past the 48th
    return _mm512_shuffle_epi8(v, bc(_mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1)));
  }
  // bytes of each 128-bit lane (4 pixels): o0 x4, o1 x4, o2 x4, alpha x4 -> interleaved pixels
  static void store(uint8_t* d, I o0, I o1, I o2, int dcn) {
    const I v = _mm512_packus_epi16(_mm512_packs_epi32(o0, o1), _mm512_packs_epi32(o2, dcn == 4 ? set1(255) : o2));
    if (dcn == 4) {
      _mm512_storeu_si512(d, shuf(v, bc(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15))));
      return;
    }
    I q = shuf(v, bc(_mm_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1)));
    q = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0), q);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm512_castsi512_si256(q));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 32), _mm512_extracti32x4_epi32(q, 2));
  }
  // lanes in 0..255 -> N bytes
  static void store_bytes(uint8_t* d, I v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm512_cvtepi32_epi8(v)); }
  // the even lanes of a, then those of b
  static I evens(I a, I b) {
    return _mm512_permutex2var_epi32(a, _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30), b);
  }
  // the even lanes, saturated -> N/2 bytes
  static void store_even(uint8_t* d, I v) {
    v = _mm512_min_epi32(_mm512_max_epi32(v, _mm512_setzero_si512()), set1(255));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(d), _mm512_cvtepi64_epi8(v));
  }
};
#else
struct VU {
  using I = __m256i;
  static constexpr int N = 8;
  static I bc(__m128i m) { return _mm256_broadcastsi128_si256(m); }
  static I set1(int x) { return _mm256_set1_epi32(x); }
  static I shuf(I v, I m) { return _mm256_shuffle_epi8(v, m); }
  static I madd(I a, I b) { return _mm256_madd_epi16(a, b); }
  static I add(I a, I b) { return _mm256_add_epi32(a, b); }
  static I sub(I a, I b) { return _mm256_sub_epi32(a, b); }
  template <int S> static I sra(I a) { return _mm256_srai_epi32(a, S); }
  template <int S> static I sll(I a) { return _mm256_slli_epi32(a, S); }
  static int64_t headroom(int) { return N; }
  static I load(const uint8_t* p, int scn) {
    if (scn == 4) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const I v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                        _mm_srli_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 8)), 4), 1);
    return _mm256_shuffle_epi8(v, bc(_mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1)));
  }
  static void store(uint8_t* d, I o0, I o1, I o2, int dcn) {
    const I v = _mm256_packus_epi16(_mm256_packs_epi32(o0, o1), _mm256_packs_epi32(o2, dcn == 4 ? set1(255) : o2));
    if (dcn == 4) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), shuf(v, bc(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15))));
      return;
    }
    I q = shuf(v, bc(_mm_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1)));
    q = _mm256_permutevar8x32_epi32(q, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 0, 0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm256_castsi256_si128(q));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(d + 16), _mm256_extracti128_si256(q, 1));
  }
  static void store_bytes(uint8_t* d, I v) {
    const I p = _mm256_packus_epi16(_mm256_packs_epi32(v, v), _mm256_setzero_si256());
    _mm_storel_epi64(reinterpret_cast<__m128i*>(d), _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0))));
  }
  static I evens(I a, I b) {
    const __m256 e = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(e), _MM_SHUFFLE(3, 1, 2, 0));
  }
  static void store_even(uint8_t* d, I v) {
    const I p = _mm256_packus_epi16(_mm256_packs_epi32(v, v), _mm256_setzero_si256());  // lane: v0..v3 per 128 bits
    const uint32_t lo = uint32_t(_mm256_extract_epi32(p, 0)), hi = uint32_t(_mm256_extract_epi32(p, 4));
    d[0] = uint8_t(lo), d[1] = uint8_t(lo >> 16), d[2] = uint8_t(hi), d[3] = uint8_t(hi >> 16);
  }
};
#endif

template <int SCN, int BIDX, bool YUV>
int64_t ycc_u8_simd(const uint8_t* s, uint8_t* d, int64_t n) {
  using I = VU::I;
  const int c0 = BIDX == 0 ? kB2Y : kR2Y, c2 = BIDX == 0 ? kR2Y : kB2Y;
  const I m01 = VU::bc(pair_mask(0, 1)), m0 = VU::bc(pair_mask(0, -1)), m2 = VU::bc(pair_mask(2, -1));
  const I k01 = VU::set1(pk(c0, kG2Y)), k2 = VU::set1(c2), rnd = VU::set1(1 << 13);
  const I k1 = VU::set1(YUV ? kB2UI : kYCrI), kk2 = VU::set1(YUV ? kR2VI : kYCbI);
  const I delta = VU::set1((128 << 14) + (1 << 13));
  int64_t i = 0;
  for (; i + VU::headroom(SCN) <= n; i += VU::N) {
    const I px = VU::load(s + i * SCN, SCN);
    const I l0 = VU::shuf(px, m0), l2 = VU::shuf(px, m2);
    const I y = VU::sra<14>(VU::add(VU::add(VU::madd(VU::shuf(px, m01), k01), VU::madd(l2, k2)), rnd));
    const I r = BIDX == 0 ? l2 : l0, b = BIDX == 0 ? l0 : l2;
    // (x - y) is within int16: pmaddwd with a zero high weight is a 16x16 -> 32-bit product
    const I o1 = VU::sra<14>(VU::add(VU::madd(VU::sub(YUV ? b : r, y), k1), delta));
    const I o2 = VU::sra<14>(VU::add(VU::madd(VU::sub(YUV ? r : b, y), kk2), delta));
    VU::store(d + i * 3, y, o1, o2, 3);
  }
  return i;
}

template <int DCN, int BIDX, bool YUV>
int64_t ycc_inv_u8_simd(const uint8_t* s, uint8_t* d, int64_t n) {
  using I = VU::I;
  constexpr int cbi = YUV ? 1 : 2, cri = YUV ? 2 : 1;
  const YccInvI k = kYccInvI[YUV];
  // y + ((c * k + 2^13) >> 14) == (y * 2^14 + c * k + 2^13) >> 14, and (c - 128) * k folds into the constant
  const I pycb = VU::bc(pair_mask(0, cbi)), pycr = VU::bc(pair_mask(0, cri));
  const I lcb = VU::bc(pair_mask(cbi, -1)), lcr = VU::bc(pair_mask(cri, -1));
  const int kb_half = YUV ? k.kb / 2 : k.kb;  // 33292 does not fit int16: two halves of 16646
  const I wb = VU::set1(pk(1 << 14, kb_half)), wb2 = VU::set1(kb_half);
  const I wg = VU::set1(pk(1 << 14, k.kgb)), wg2 = VU::set1(pk(k.kgr, 0)), wr = VU::set1(pk(1 << 14, k.kr));
  const I cb_ = VU::set1((1 << 13) - 128 * k.kb), cg_ = VU::set1((1 << 13) - 128 * (k.kgb + k.kgr)),
          cr_ = VU::set1((1 << 13) - 128 * k.kr);
  int64_t i = 0;
  for (; i + VU::headroom(3) <= n; i += VU::N) {
    const I px = VU::load(s + i * 3, 3);
    const I pb = VU::shuf(px, pycb);
    I b = VU::madd(pb, wb);
    if (YUV) b = VU::add(b, VU::madd(VU::shuf(px, lcb), wb2));
    b = VU::sra<14>(VU::add(b, cb_));
    const I g = VU::sra<14>(VU::add(VU::add(VU::madd(pb, wg), VU::madd(VU::shuf(px, lcr), wg2)), cg_));
    const I r = VU::sra<14>(VU::add(VU::madd(VU::shuf(px, pycr), wr), cr_));
    VU::store(d + i * DCN, BIDX == 0 ? b : r, g, BIDX == 0 ? r : b, DCN);
  }
  return i;
}

template <int SCN, int DCN>
int64_t mat_u8_simd(const uint8_t* s, uint8_t* d, int64_t n, const int (&w)[3][3]) {
  using I = VU::I;
  const I m01 = VU::bc(pair_mask(0, 1)), m2 = VU::bc(pair_mask(2, -1)), rnd = VU::set1(1 << 11);
  I k01[3], k2[3];
  for (int j = 0; j < 3; ++j) k01[j] = VU::set1(pk(w[j][0], w[j][1])), k2[j] = VU::set1(pk(w[j][2], 0));
  int64_t i = 0;
  for (; i + VU::headroom(SCN) <= n; i += VU::N) {
    const I px = VU::load(s + i * SCN, SCN);
    const I p01 = VU::shuf(px, m01), l2 = VU::shuf(px, m2);
    I o[3];
    for (int j = 0; j < 3; ++j) o[j] = VU::sra<12>(VU::add(VU::add(VU::madd(p01, k01[j]), VU::madd(l2, k2[j])), rnd));
    VU::store(d + i * DCN, o[0], o[1], o[2], DCN);
  }
  return i;
}

// 20-bit weights as 32 * hi + lo, each within int16; the sum is exact in int32
struct Split20 { VU::I h01, h2, l01, l2; };
Split20 split20(const int (&c)[3]) {
  auto hi = [](int x) { return x >> 5; };
  auto lo = [](int x) { return x & 31; };
  return {VU::set1(pk(hi(c[0]), hi(c[1]))), VU::set1(pk(hi(c[2]), 0)), VU::set1(pk(lo(c[0]), lo(c[1]))), VU::set1(pk(lo(c[2]), 0))};
}
inline VU::I sum20(VU::I p01, VU::I l2, const Split20& w, VU::I add) {
  const VU::I h = VU::add(VU::madd(p01, w.h01), VU::madd(l2, w.h2));
  const VU::I l = VU::add(VU::madd(p01, w.l01), VU::madd(l2, w.l2));
  return VU::sra<kShift20>(VU::add(VU::add(VU::sll<5>(h), l), add));
}

// one row of pixels [0, n): Y for all, U/V (chroma) of the even pixels; returns pixels done (even)
int64_t i420_row_simd(const uint8_t* s, uint8_t* yd, uint8_t* ud, uint8_t* vd, int64_t n, int scn, const I420W& w, bool chroma) {
  using I = VU::I;
  const I m01 = VU::bc(pair_mask(0, 1)), m2 = VU::bc(pair_mask(2, -1));
  const Split20 wy = split20(w.y), wu = split20(w.u), wv = split20(w.v);
  const I a16 = VU::set1(kAdd16), a128 = VU::set1(kAdd128);
  int64_t i = 0;
  // 2N pixels a step: the chroma of their N even pixels at once (Y, U and V are within 16..240:
  // store_bytes needs no saturation)
  for (; i + 2 * VU::N <= n; i += 2 * VU::N) {
    const I pa = VU::load(s + i * scn, scn), pb = VU::load(s + (i + VU::N) * scn, scn);
    VU::store_bytes(yd + i, sum20(VU::shuf(pa, m01), VU::shuf(pa, m2), wy, a16));
    VU::store_bytes(yd + i + VU::N, sum20(VU::shuf(pb, m01), VU::shuf(pb, m2), wy, a16));
    if (chroma) {
      const I pe = VU::evens(pa, pb), p01 = VU::shuf(pe, m01), l2 = VU::shuf(pe, m2);
      VU::store_bytes(ud + i / 2, sum20(p01, l2, wu, a128));
      VU::store_bytes(vd + i / 2, sum20(p01, l2, wv, a128));
    }
  }
  for (; i + VU::headroom(scn) <= n; i += VU::N) {
    const I px = VU::load(s + i * scn, scn);
    const I p01 = VU::shuf(px, m01), l2 = VU::shuf(px, m2);
    VU::store_bytes(yd + i, sum20(p01, l2, wy, a16));
    if (chroma) {
      VU::store_even(ud + i / 2, sum20(p01, l2, wu, a128));
      VU::store_even(vd + i / 2, sum20(p01, l2, wv, a128));
    }
  }
  if (i < n && n >= VU::N) {  // the last N pixels again (n is even): same bytes, no scalar tail
    i = n - VU::N;
    const I px = VU::load(s + i * scn, scn);
    const I p01 = VU::shuf(px, m01), l2 = VU::shuf(px, m2);
    VU::store_bytes(yd + i, sum20(p01, l2, wy, a16));
    if (chroma) {
      VU::store_even(ud + i / 2, sum20(p01, l2, wu, a128));
      VU::store_even(vd + i / 2, sum20(p01, l2, wv, a128));
    }
    i = n;
  }
  return i;
}
#endif  // __AVX2__

// ---------------------------------------------------------------------------------------------
// float32 SIMD (AVX2 and AVX-512 targets): 8 pixels a step in 256-bit registers. Moving data
// across the 128-bit halves is what costs (Zen 4 runs one such permute a cycle, and a two-source
// vpermt2ps deinterleave needs 12 for 8 pixels, 1.5 cycles a pixel, slower than cv2): the loads
// below regroup whole halves so each half holds 4 pixels' channels, and the rest is blends and
// in-half shuffles.

#if defined(__AVX2__)
#define MNN_YCC_F32_SIMD 1
// 8 3-channel pixels (24 floats) -> channels c[0..2]
inline void load3_f(const float* p, __m256* c) {
  // per half (pixels 0-3 low, 4-7 high): a = floats 0-3, b = 4-7, c = 8-11 of its 4 pixels, loaded
  // as 128-bit halves (8% faster than three 256-bit loads regrouped by a permute and two blends)
  auto halves = [p](int lo) { return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + lo)), _mm_loadu_ps(p + lo + 12), 1); };
  const __m256 a = halves(0), b = halves(4), cc = halves(8);
  // a = (p0c0 p0c1 p0c2 p1c0), b = (p1c1 p1c2 p2c0 p2c1), cc = (p2c2 p3c0 p3c1 p3c2); each channel
  // is two elements of one register and two of another: a blend gathers them, a shufps orders them
  c[0] = _mm256_shuffle_ps(a, _mm256_blend_ps(b, cc, 0x22), _MM_SHUFFLE(1, 2, 3, 0));  // a0 a3 | b2 cc1
  c[1] = _mm256_shuffle_ps(_mm256_blend_ps(a, b, 0x11), _mm256_blend_ps(b, cc, 0x44), _MM_SHUFFLE(2, 3, 0, 1));  // a1 b0 | b3 cc2
  c[2] = _mm256_shuffle_ps(_mm256_blend_ps(a, b, 0x22), cc, _MM_SHUFFLE(3, 0, 1, 2));  // a2 b1 | cc0 cc3
}

// channels o[0..2] -> 8 3-channel pixels (the regrouping of load3_f undone: each in-half shuffle there is its own inverse)
// nt: non-temporal stores (d 32-byte aligned; see stream_f)
inline void st_f(float* d, __m256 v, bool nt) {
  if (nt) _mm256_stream_ps(d, v);
  else _mm256_storeu_ps(d, v);
}

inline void store3_f(float* d, const __m256* o, bool nt) {
  const __m256 t0 = _mm256_permute_ps(o[0], _MM_SHUFFLE(1, 2, 3, 0));
  const __m256 t1 = _mm256_permute_ps(o[1], _MM_SHUFFLE(2, 3, 0, 1));
  const __m256 t2 = _mm256_permute_ps(o[2], _MM_SHUFFLE(3, 0, 1, 2));
  const __m256 a = _mm256_blend_ps(_mm256_blend_ps(t0, t1, 0x22), t2, 0x44);
  const __m256 b = _mm256_blend_ps(_mm256_blend_ps(t1, t2, 0x22), t0, 0x44);
  const __m256 cc = _mm256_blend_ps(_mm256_blend_ps(t2, t0, 0x22), t1, 0x44);
  st_f(d, _mm256_permute2f128_ps(a, b, 0x20), nt);
  st_f(d + 8, _mm256_blend_ps(cc, a, 0xF0), nt);
  st_f(d + 16, _mm256_permute2f128_ps(b, cc, 0x31), nt);
}

// a 4x4 transpose in each 128-bit half
inline void transpose4_halves(const __m256* r, __m256* c) {
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  c[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  c[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  c[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  c[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

// 8 4-channel pixels (32 floats) -> channels c[0..3]
inline void load4_f(const float* p, __m256* c) {
  // y[j]: pixel j in the low half, pixel 4 + j in the high half (loaded as halves, as in load3_f)
  auto px2 = [p](int j) { return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 4 * j)), _mm_loadu_ps(p + 16 + 4 * j), 1); };
  const __m256 y[4] = {px2(0), px2(1), px2(2), px2(3)};
  transpose4_halves(y, c);
}

inline void store4_f(float* d, const __m256* o, bool nt) {
  __m256 y[4];
  transpose4_halves(o, y);
  st_f(d, _mm256_permute2f128_ps(y[0], y[1], 0x20), nt);
  st_f(d + 8, _mm256_permute2f128_ps(y[2], y[3], 0x20), nt);
  st_f(d + 16, _mm256_permute2f128_ps(y[0], y[1], 0x31), nt);
  st_f(d + 24, _mm256_permute2f128_ps(y[2], y[3], 0x31), nt);
}

inline void load_f(const float* p, int scn, __m256* c) {
  if (scn == 3) load3_f(p, c);
  else load4_f(p, c);
}
inline void store_f(float* d, int dcn, const __m256* o, bool nt) {
  if (dcn == 3) store3_f(d, o, nt);
  else store4_f(d, o, nt);
}
#endif  // __AVX2__

// ---------------------------------------------------------------------------------------------
// runs

void ycc_u8_run(const uint8_t* s, uint8_t* d, int64_t n, int scn, int bidx, bool yuv) {
  int64_t done = 0;
#if defined(__AVX2__)
  const int key = (scn == 4) * 4 + (bidx == 2) * 2 + yuv;
  switch (key) {
    case 0: done = ycc_u8_simd<3, 0, false>(s, d, n); break;
    case 1: done = ycc_u8_simd<3, 0, true>(s, d, n); break;
    case 2: done = ycc_u8_simd<3, 2, false>(s, d, n); break;
    case 3: done = ycc_u8_simd<3, 2, true>(s, d, n); break;
    case 4: done = ycc_u8_simd<4, 0, false>(s, d, n); break;
    case 5: done = ycc_u8_simd<4, 0, true>(s, d, n); break;
    case 6: done = ycc_u8_simd<4, 2, false>(s, d, n); break;
    default: done = ycc_u8_simd<4, 2, true>(s, d, n); break;
  }
#endif
  ycc_u8_scalar(s + done * scn, d + done * 3, n - done, scn, bidx, yuv);
}

void ycc_inv_u8_run(const uint8_t* s, uint8_t* d, int64_t n, int dcn, int bidx, bool yuv) {
  int64_t done = 0;
#if defined(__AVX2__)
  const int key = (dcn == 4) * 4 + (bidx == 2) * 2 + yuv;
  switch (key) {
    case 0: done = ycc_inv_u8_simd<3, 0, false>(s, d, n); break;
    case 1: done = ycc_inv_u8_simd<3, 0, true>(s, d, n); break;
    case 2: done = ycc_inv_u8_simd<3, 2, false>(s, d, n); break;
    case 3: done = ycc_inv_u8_simd<3, 2, true>(s, d, n); break;
    case 4: done = ycc_inv_u8_simd<4, 0, false>(s, d, n); break;
    case 5: done = ycc_inv_u8_simd<4, 0, true>(s, d, n); break;
    case 6: done = ycc_inv_u8_simd<4, 2, false>(s, d, n); break;
    default: done = ycc_inv_u8_simd<4, 2, true>(s, d, n); break;
  }
#endif
  ycc_inv_u8_scalar(s + done * 3, d + done * dcn, n - done, dcn, bidx, yuv);
}

void mat_u8_run(const uint8_t* s, uint8_t* d, int64_t n, int scn, int dcn, const int (&w)[3][3]) {
  int64_t done = 0;
#if defined(__AVX2__)
  if (scn == 3) done = dcn == 3 ? mat_u8_simd<3, 3>(s, d, n, w) : mat_u8_simd<3, 4>(s, d, n, w);
  else done = dcn == 3 ? mat_u8_simd<4, 3>(s, d, n, w) : mat_u8_simd<4, 4>(s, d, n, w);
#endif
  mat_u8_scalar(s + done * scn, d + done * dcn, n - done, scn, dcn, w);
}

// Calls f with each flag as std::true_type / std::false_type, so the vector loops below are
// compiled once per combination: loop-invariant selects on registers cost blends or branches in
// every step otherwise (about a fifth of the float loops' time).
template <class F>
void with_flags(F&& f) { f(); }
template <class F, class... R>
void with_flags(F&& f, bool b, R... rest) {
  if (b) with_flags([&](auto... t) { f(std::true_type{}, t...); }, rest...);
  else with_flags([&](auto... t) { f(std::false_type{}, t...); }, rest...);
}

void ycc_f_row(const float* s, float* d, int64_t w, int scn, int bidx, bool yuv, bool stream) {
  const YccF c = ycc_f_coefs(bidx, yuv);
  const int64_t body = w - w % 8;
  int64_t i = 0;
#if defined(MNN_YCC_F32_SIMD)
  const bool nt = stream && (reinterpret_cast<uintptr_t>(d) & 31) == 0;
  const __m256 c0 = _mm256_set1_ps(c.c0), c1 = _mm256_set1_ps(c.c1), c2 = _mm256_set1_ps(c.c2);
  const __m256 k1 = _mm256_set1_ps(c.k1), k2 = _mm256_set1_ps(c.k2), half = _mm256_set1_ps(0.5f);
  with_flags([&](auto four, auto b2, auto uv, auto ntc) {
    constexpr int kScn = decltype(four)::value ? 4 : 3;
    for (; i + 8 <= body; i += 8) {
      __m256 x[4], o[3];
      load_f(s + i * kScn, kScn, x);
      const __m256 y = _mm256_fmadd_ps(x[0], c0, _mm256_fmadd_ps(x[1], c1, _mm256_mul_ps(x[2], c2)));
      const __m256 r = decltype(b2)::value ? x[0] : x[2], b = decltype(b2)::value ? x[2] : x[0];
      o[0] = y;
      o[1] = _mm256_fmadd_ps(_mm256_sub_ps(decltype(uv)::value ? b : r, y), k1, half);
      o[2] = _mm256_fmadd_ps(_mm256_sub_ps(decltype(uv)::value ? r : b, y), k2, half);
      store_f(d + i * 3, 3, o, decltype(ntc)::value);
    }
  }, scn == 4, bidx == 2, yuv, nt);
  if (nt) _mm_sfence();
#endif
  for (; i < w; ++i) ycc_f_px(s + i * scn, d + i * 3, c, bidx, yuv, i < body);
}

void ycc_inv_f_run(const float* s, float* d, int64_t n, int dcn, int bidx, bool yuv, bool stream) {
  int64_t i = 0;
#if defined(MNN_YCC_F32_SIMD)
  const bool nt = stream && (reinterpret_cast<uintptr_t>(d) & 31) == 0;
  const YccInvF& k = kYccInvF[yuv];
  const __m256 kr = _mm256_set1_ps(k.kr), kgr = _mm256_set1_ps(k.kgr), kgb = _mm256_set1_ps(k.kgb),
               kb = _mm256_set1_ps(k.kb), half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.f);
  with_flags([&](auto four, auto b2, auto uv, auto ntc) {
    constexpr int kDcn = decltype(four)::value ? 4 : 3;
    constexpr bool kUv = decltype(uv)::value;
    for (; i + 8 <= n; i += 8) {
      __m256 x[4], o[4];
      load_f(s + i * 3, 3, x);
      const __m256 cr = _mm256_sub_ps(kUv ? x[2] : x[1], half), cb = _mm256_sub_ps(kUv ? x[1] : x[2], half);
      const __m256 b = _mm256_fmadd_ps(cb, kb, x[0]), r = _mm256_fmadd_ps(cr, kr, x[0]);
      o[0] = decltype(b2)::value ? r : b;
      o[1] = _mm256_fmadd_ps(cr, kgr, _mm256_fmadd_ps(cb, kgb, x[0]));
      o[2] = decltype(b2)::value ? b : r;
      o[3] = one;
      store_f(d + i * kDcn, kDcn, o, decltype(ntc)::value);
    }
  }, dcn == 4, bidx == 2, yuv, nt);
  if (nt) _mm_sfence();
#endif
  for (; i < n; ++i) ycc_inv_f_px(s + i * 3, d + i * dcn, dcn, bidx, yuv);
}

void mat_f_row(const float* s, float* d, int64_t w, int scn, int dcn, const float (&m)[3][3], bool stream) {
  const int64_t body = w - w % 4;  // cv2's XYZ vector loop steps by 4
  int64_t i = 0;
#if defined(MNN_YCC_F32_SIMD)
  const bool nt = stream && (reinterpret_cast<uintptr_t>(d) & 31) == 0;
  __m256 k[3][3];
  for (int j = 0; j < 3; ++j)
    for (int c = 0; c < 3; ++c) k[j][c] = _mm256_set1_ps(m[j][c]);
  const __m256 one = _mm256_set1_ps(1.f);
  with_flags([&](auto s4, auto d4, auto ntc) {
    constexpr int kScn = decltype(s4)::value ? 4 : 3, kDcn = decltype(d4)::value ? 4 : 3;
    for (; i + 8 <= body; i += 8) {
      __m256 x[4], o[4];
      load_f(s + i * kScn, kScn, x);
      for (int j = 0; j < 3; ++j)
        o[j] = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x[2], k[j][2]), _mm256_mul_ps(x[1], k[j][1])), _mm256_mul_ps(x[0], k[j][0]));
      o[3] = one;
      store_f(d + i * kDcn, kDcn, o, decltype(ntc)::value);
    }
  }, scn == 4, dcn == 4, nt);
  if (nt) _mm_sfence();
#endif
  for (; i < w; ++i) mat_f_px(s + i * scn, d + i * dcn, dcn, m, i < body);
}

// One row. cv2: fma(s2, c2, fma(s0, c0, s1 c1)), except, for 3-channel sources, at the even
// pixels of the 4 after the first W - W % 8 (when W % 8 >= 4): fma(s2, c2, fma(s1, c1, s0 c0))
// (compared bit for bit at widths 4, 5, 12, 23, 31).
void gray_f_row(const float* s, float* d, int64_t w, int scn, int bidx, bool stream) {
  const float c0 = bidx == 0 ? 0.114f : 0.299f, c1 = 0.587f, c2 = bidx == 0 ? 0.299f : 0.114f;
  const int64_t body = w - w % 8, quad = scn == 3 && w % 8 >= 4 ? body + 4 : body;
  int64_t i = 0;
#if defined(MNN_YCC_F32_SIMD)
  const bool nt = stream && (reinterpret_cast<uintptr_t>(d) & 31) == 0;
  const __m256 k0 = _mm256_set1_ps(c0), k1 = _mm256_set1_ps(c1), k2 = _mm256_set1_ps(c2);
  with_flags([&](auto four, auto ntc) {
    constexpr int kScn = decltype(four)::value ? 4 : 3;
    for (; i + 8 <= body; i += 8) {
      __m256 x[4];
      load_f(s + i * kScn, kScn, x);
      st_f(d + i, _mm256_fmadd_ps(x[2], k2, _mm256_fmadd_ps(x[0], k0, _mm256_mul_ps(x[1], k1))), decltype(ntc)::value);
    }
  }, scn == 4, nt);
  if (nt) _mm_sfence();
#endif
  for (; i < w; ++i) {
    const float* p = s + i * scn;
    d[i] = i < quad && i >= body && (i & 1) == 0 ? std::fma(p[2], c2, std::fma(p[1], c1, p[0] * c0))
                                                 : std::fma(p[2], c2, std::fma(p[0], c0, p[1] * c1));
  }
}

void perm_f_run(const float* s, float* d, int64_t n, int scn, int dcn, const int* map, bool stream) {
  int64_t i = 0;
#if defined(MNN_YCC_F32_SIMD)
  const bool nt = stream && (reinterpret_cast<uintptr_t>(d) & 31) == 0;
  // cvtColor's maps are (0, 1, 2) or (2, 1, 0), then alpha kept (3) or added (-1)
  const bool swap = map[0] == 2, keep_alpha = dcn == 4 && map[3] == 3;
  const __m256 one = _mm256_set1_ps(1.f);
  with_flags([&](auto s4, auto d4, auto sw, auto keep, auto ntc) {
    constexpr int kScn = decltype(s4)::value ? 4 : 3, kDcn = decltype(d4)::value ? 4 : 3;
    constexpr bool kSwap = decltype(sw)::value;
    for (; i + 8 <= n; i += 8) {
      __m256 x[4], o[4];
      load_f(s + i * kScn, kScn, x);
      o[0] = kSwap ? x[2] : x[0];
      o[1] = x[1];
      o[2] = kSwap ? x[0] : x[2];
      if constexpr (decltype(keep)::value && kScn == 4) o[3] = x[3];
      else o[3] = one;
      store_f(d + i * kDcn, kDcn, o, decltype(ntc)::value);
    }
  }, scn == 4, dcn == 4, swap, keep_alpha, nt);
  if (nt) _mm_sfence();
#endif
  for (; i < n; ++i)
    for (int c = 0; c < dcn; ++c) d[i * dcn + c] = map[c] < 0 ? 1.f : s[i * scn + map[c]];
}

// Float conversions moving at least 32 MB (read + written) store their results non-temporally.
// Measured interleaved with cv2 on the loaded 2-core host (min ratios cv2/mnn): at 1080p
// (50 MB) streaming took YCrCb2BGR from 0.95 to 1.13-1.23 and gray (33 MB) from 0.90 to 1.12-1.18;
// at 640x480 (7.4 MB, cache-resident) it made them 25-30% slower. The same bound as color.cpp's
// float HSV.
inline bool stream(int64_t floats) { return floats * 4 >= (int64_t(32) << 20); }

class YccKernel final : public backend::Kernel {
 public:
  explicit YccKernel(const backend::StepDesc& s) : f32_(s.inputs[0].dtype == DType::Float32), p_(s.params->ints) {
    h_ = s.inputs[0].shape[0];
    w_ = s.inputs[0].shape[1];
  }

  void run(char* const* in, char* out) override {
    const int op = int(p_[0]), c1 = int(p_[1]), bidx = int(p_[2]);
    const int64_t npix = h_ * w_, w = w_;
    const int64_t rows_grain = std::max<int64_t>(1, kGrainPx / std::max<int64_t>(w, 1));
    if (op == kToI420) return run_i420(reinterpret_cast<const uint8_t*>(in[0]), reinterpret_cast<uint8_t*>(out));
    if (!f32_) {
      const uint8_t* s = reinterpret_cast<const uint8_t*>(in[0]);
      uint8_t* d = reinterpret_cast<uint8_t*>(out);
      const int scn = op == kYcc || op == kXyz ? c1 : 3, dcn = op == kYcc || op == kXyz ? 3 : c1;
      int wm[3][3];
      if (op == kXyz || op == kXyzInv) {
        const double* m = op == kXyz ? kMatRgb2Xyz : kMatXyz2Rgb;
        for (int j = 0; j < 3; ++j)
          for (int c = 0; c < 3; ++c) {
            // forward: rows X, Y, Z over source positions; inverse: rows at the output's positions
            const int row = op == kXyz ? j : (j == 1 ? 1 : j == bidx ? 2 : 0);
            const int col = op == kXyz ? (c == 1 ? 1 : c == bidx ? 2 : 0) : c;
            wm[j][c] = static_cast<int>(std::lrint(m[3 * row + col] * 4096));
          }
      }
      parallel_for(npix, kGrainPx, [&](int64_t lo, int64_t hi) {
        const uint8_t* sp = s + lo * scn;
        uint8_t* dp = d + lo * dcn;
        if (op == kYcc) ycc_u8_run(sp, dp, hi - lo, scn, bidx, p_[3] != 0);
        else if (op == kYccInv) ycc_inv_u8_run(sp, dp, hi - lo, dcn, bidx, p_[3] != 0);
        else mat_u8_run(sp, dp, hi - lo, scn, dcn, wm);
      });
      return;
    }
    const float* s = reinterpret_cast<const float*>(in[0]);
    float* d = reinterpret_cast<float*>(out);
    switch (op) {
      case kYcc:
        parallel_for(h_, rows_grain, [&](int64_t r0, int64_t r1) {
          for (int64_t y = r0; y < r1; ++y) ycc_f_row(s + y * w * c1, d + y * w * 3, w, c1, bidx, p_[3] != 0, stream(npix * (c1 + 3)));
        });
        break;
      case kYccInv:
        parallel_for(npix, kGrainPx, [&](int64_t lo, int64_t hi) { ycc_inv_f_run(s + lo * 3, d + lo * c1, hi - lo, c1, bidx, p_[3] != 0, stream(npix * (3 + c1))); });
        break;
      case kXyz: case kXyzInv: {
        const int scn = op == kXyz ? c1 : 3, dcn = op == kXyz ? 3 : c1;
        float m[3][3];
        const double* src = op == kXyz ? kMatRgb2Xyz : kMatXyz2Rgb;
        for (int j = 0; j < 3; ++j)
          for (int c = 0; c < 3; ++c) {
            const int row = op == kXyz ? j : (j == 1 ? 1 : j == bidx ? 2 : 0);
            const int col = op == kXyz ? (c == 1 ? 1 : c == bidx ? 2 : 0) : c;
            m[j][c] = static_cast<float>(src[3 * row + col]);
          }
        parallel_for(h_, rows_grain, [&](int64_t r0, int64_t r1) {
          for (int64_t y = r0; y < r1; ++y) mat_f_row(s + y * w * scn, d + y * w * dcn, w, scn, dcn, m, stream(npix * (scn + dcn)));
        });
        break;
      }
      case kGray:
        parallel_for(h_, rows_grain, [&](int64_t r0, int64_t r1) {
          for (int64_t y = r0; y < r1; ++y) gray_f_row(s + y * w * c1, d + y * w, w, c1, bidx, stream(npix * (c1 + 1)));
        });
        break;
      case kPermF: {
        const int dcn = bidx;  // ints: (op, scn, dcn, map...)
        int map[4] = {0, 1, 2, 3};
        for (int c = 0; c < dcn; ++c) map[c] = int(p_[3 + c]);
        parallel_for(npix, kGrainPx, [&](int64_t lo, int64_t hi) { perm_f_run(s + lo * c1, d + lo * dcn, hi - lo, c1, dcn, map, stream(npix * (c1 + dcn))); });
        break;
      }
      default: break;
    }
  }

 private:
  void run_i420(const uint8_t* s, uint8_t* d) {
    const int scn = int(p_[1]), bidx = int(p_[2]), uidx = int(p_[3]);
    const int64_t h = h_, w = w_;
    const int64_t plane = (h / 2) * (w / 2);
    uint8_t* yd = d;
    uint8_t* ud = d + h * w + (uidx ? plane : 0);
    uint8_t* vd = d + h * w + (uidx ? 0 : plane);
    I420W wt{};
    auto put = [bidx](int (&c)[3], int r, int g, int b) { c[bidx ^ 2] = r, c[1] = g, c[bidx] = b; };
    put(wt.y, kCRY, kCGY, kCBY);
    put(wt.u, kCRU, kCGU, kCBU);
    put(wt.v, kCBU, kCGV, kCBV);  // cv2's V weight for R is CBU's value (0.439 both)
    parallel_for(h / 2, std::max<int64_t>(1, kGrainPx / std::max<int64_t>(2 * w, 1)), [&](int64_t j0, int64_t j1) {
      for (int64_t j = j0; j < j1; ++j)
        for (int rr = 0; rr < 2; ++rr) {
          const uint8_t* sp = s + (2 * j + rr) * w * scn;
          uint8_t* yp = yd + (2 * j + rr) * w;
          uint8_t* up = ud + j * (w / 2);
          uint8_t* vp = vd + j * (w / 2);
          int64_t done = 0;
#if defined(__AVX2__)
          done = i420_row_simd(sp, yp, up, vp, w, scn, wt, rr == 0);
#endif
          i420_row_scalar(sp, yp, up, vp, done, w, scn, wt, rr == 0);
        }
    });
  }

  bool f32_;
  std::vector<int64_t> p_;
  int64_t h_ = 0, w_ = 0;
};

std::unique_ptr<backend::Kernel> prepare_ycc(const backend::StepDesc& s) { return std::make_unique<YccKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_color_ycc, "cv_color_ycc", &prepare_ycc);

}  // namespace mnn::cpu::MNN_ISA_NS
