// bilateralFilter (shape rule: ops/cv/filter_ops.cpp). Compiled once per ISA: AVX2 filters eight
// output pixels of a row at a time (AVX-512 sixteen, for one-channel uint8), the scalar target (and
// every row's tail) one pixel at a time; rows are split over the thread pool.
//
// cv2's arithmetic, which the answers depend on bit for bit:
// - 8-bit: float weights from tables (colour weight indexed by the summed absolute channel
//   difference, space weight for offsets inside the disc of `radius`), float accumulation in tap
//   order, cvRound of sum / wsum.
// - float32: the range kernel is a 4096-per-channel table over the value range of the
//   border-extended image, read with linear interpolation; the centre pixel is left out of the tap
//   loop and added with weight 1. A NaN pixel makes every output whose window holds it NaN (what
//   cv2 5.0 gives; its NaN-skipping code is newer than that release).
// A vector lane does exactly the scalar operations of its pixel in the same order (the build has
// no FMA contraction), so every ISA gives the same bits (tests/cv/test_bilateral10.py); uint8
// answers are those of the scalar kernel mnn had before, float32 ones too but for the subnormal
// weights flushed to zero (FlushDenormals).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>  // MXCSR, on every x86-64 target
#endif
#if defined(__AVX2__)
#include <immintrin.h>
// GCC 12 reports the _mm*_undefined_*() placeholders inside the gather and AVX-512 intrinsics as
// maybe-uninitialised once inlined (GCC PR105593): a false positive, silenced for this file.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

inline int64_t border_index(int64_t p, int64_t n, int mode) {
  if (p >= 0 && p < n) return p;
  if (n == 1) return 0;
  switch (mode & 15) {
    case 1: return p < 0 ? 0 : n - 1;
    case 2:
      do { p = p < 0 ? -p - 1 : 2 * n - p - 1; } while (p < 0 || p >= n);
      return p;
    case 3:
      p %= n;
      return p < 0 ? p + n : p;
    default:
      do { p = p < 0 ? -p : 2 * n - p - 2; } while (p < 0 || p >= n);
      return p;
  }
}

// The channels of an HxWxC image, each border-extended by r pixels each side into its own plane
// (a tap of eight neighbouring pixels is then one contiguous load), rows in parallel.
// BORDER_CONSTANT (mode 0) pads with zeros, which cv2 weighs in like pixels.
template <class T>
void pad_planes(const T* src, int64_t h, int64_t w, int64_t c, int64_t r, int mode, std::vector<T>* planes) {
  const int64_t pw = w + 2 * r, ph = h + 2 * r;
  for (int64_t ch = 0; ch < c; ++ch) planes[ch].assign(static_cast<size_t>(ph * pw), T(0));
  std::vector<int64_t> sx(static_cast<size_t>(2 * r));  // source columns of the left and right borders
  for (int64_t x = 0; x < r; ++x) sx[x] = border_index(x - r, w, mode), sx[r + x] = border_index(w + x, w, mode);
  T* const pl[3] = {planes[0].data(), c > 1 ? planes[1].data() : nullptr, c > 2 ? planes[2].data() : nullptr};
  const int64_t* const bx = sx.data();
  parallel_for(ph, 16, [=](int64_t y0, int64_t y1) {
    // everything in locals: T may be a char type, whose stores alias any captured reference
    for (int64_t y = y0; y < y1; ++y) {
      if (mode == 0 && (y < r || y >= h + r)) continue;
      const T* __restrict row = src + border_index(y - r, h, mode) * w * c;
      T* __restrict o0 = pl[0] + y * pw;
      if (c == 1) {
        std::memcpy(o0 + r, row, sizeof(T) * static_cast<size_t>(w));
      } else {
        T* __restrict o1 = pl[1] + y * pw;
        T* __restrict o2 = pl[2] + y * pw;
        for (int64_t x = 0; x < w; ++x) o0[r + x] = row[3 * x], o1[r + x] = row[3 * x + 1], o2[r + x] = row[3 * x + 2];
      }
      if (mode == 0) continue;
      for (int64_t ch = 0; ch < c; ++ch) {
        T* o = pl[ch] + y * pw;
        for (int64_t x = 0; x < r; ++x) o[x] = row[bx[x] * c + ch], o[w + r + x] = row[bx[r + x] * c + ch];
      }
    }
  });
}

// The taps of one filter: offsets in a padded plane and their space weights, in cv2's order.
struct Taps {
  std::vector<float> w;
  std::vector<int64_t> ofs;
};

// ---- uint8 -----------------------------------------------------------------------------------

struct U8Job {
  const uint8_t* pl[3];  // padded planes, positioned at the output row's centre pixels
  const Taps* taps;
  const float* color_w;
  int64_t c;
  // One channel: the columns [tx0, tx1) whose sum / wsum is truncated, not rounded (see IppMode)
  int64_t tx0 = 0, tx1 = 0;
};

inline uint8_t store_u8(float v) { return static_cast<uint8_t>(std::min(255.0f, std::max(0.0f, std::nearbyint(v)))); }
inline uint8_t store_u8_trunc(float v) { return static_cast<uint8_t>(std::min(255.0f, std::max(0.0f, std::trunc(v)))); }

// Output pixels [x0, x1) of one row, one at a time.
void u8_row_scalar(const U8Job& j, int64_t x0, int64_t x1, uint8_t* dst) {
  const size_t nk = j.taps->w.size();
  const float* sw = j.taps->w.data();
  const int64_t* ofs = j.taps->ofs.data();
  for (int64_t x = x0; x < x1; ++x) {
    uint8_t* o = dst + x * j.c;
    if (j.c == 1) {
      const uint8_t* p0 = j.pl[0] + x;
      float sum = 0, wsum = 0;
      for (size_t k = 0; k < nk; ++k) {
        int v = p0[ofs[k]];
        float wgt = sw[k] * j.color_w[std::abs(v - p0[0])];
        sum += static_cast<float>(v) * wgt;
        wsum += wgt;
      }
      o[0] = x >= j.tx0 && x < j.tx1 ? store_u8_trunc(sum / wsum) : store_u8(sum / wsum);
    } else {
      const uint8_t *pb = j.pl[0] + x, *pg = j.pl[1] + x, *pr = j.pl[2] + x;
      float sb = 0, sg = 0, sr = 0, wsum = 0;
      for (size_t k = 0; k < nk; ++k) {
        const int b = pb[ofs[k]], g = pg[ofs[k]], r = pr[ofs[k]];
        const int d = std::abs(b - pb[0]) + std::abs(g - pg[0]) + std::abs(r - pr[0]);
        float wgt = sw[k] * j.color_w[d];
        sb += static_cast<float>(b) * wgt;
        sg += static_cast<float>(g) * wgt;
        sr += static_cast<float>(r) * wgt;
        wsum += wgt;
      }
      o[0] = store_u8(sb / wsum);
      o[1] = store_u8(sg / wsum);
      o[2] = store_u8(sr / wsum);
    }
  }
}

#if defined(__AVX2__)
// Eight table entries at int32 indices. A gather: on Zen 4 it measured faster here than eight
// scalar loads (uint8; the float table reads pairs instead, see range_w8).
inline __m256 lookup8(const float* t, __m256i idx) { return _mm256_i32gather_ps(t, idx, 4); }

inline __m256i load8_u8(const uint8_t* p) {
  return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}

// sum / wsum, rounded half to even and saturated, as four bytes per lane's low byte.
inline __m256i round_u8(__m256 s, __m256 ws) {
  __m256 q = _mm256_round_ps(_mm256_div_ps(s, ws), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  q = _mm256_min_ps(_mm256_set1_ps(255.0f), _mm256_max_ps(_mm256_setzero_ps(), q));
  return _mm256_cvtps_epi32(q);
}

// The same, truncated instead in the lanes of the columns x + i inside [j.tx0, j.tx1).
inline __m256i round_u8_cols(__m256 s, __m256 ws, const U8Job& j, int64_t x) {
  const __m256 v = _mm256_div_ps(s, ws);
  const __m256 rn = _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256 tz = _mm256_round_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m256i col = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int32_t>(x)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i in = _mm256_and_si256(_mm256_cmpgt_epi32(col, _mm256_set1_epi32(static_cast<int32_t>(j.tx0 - 1))),
                                      _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int32_t>(j.tx1)), col));
  __m256 q = _mm256_blendv_ps(rn, tz, _mm256_castsi256_ps(in));
  q = _mm256_min_ps(_mm256_set1_ps(255.0f), _mm256_max_ps(_mm256_setzero_ps(), q));
  return _mm256_cvtps_epi32(q);
}

#if defined(__AVX512F__)
// One channel, sixteen output pixels at a time (AVX-512); returns where it stopped.
int64_t u8c1_row_avx512(const U8Job& j, int64_t x0, int64_t x1, uint8_t* dst) {
  const size_t nk = j.taps->w.size();
  const float* sw = j.taps->w.data();
  const int64_t* ofs = j.taps->ofs.data();
  // The 256-entry colour table lives in 16 registers; a lookup is eight two-register permutes
  // (index bits 0-4) and a tree of blends on bits 5, 6, 7: on Zen 4 about 1.5x faster than a gather.
  __m512 t[16];
  for (int i = 0; i < 16; ++i) t[i] = _mm512_loadu_ps(j.color_w + 16 * i);
  const __m512i b5 = _mm512_set1_epi32(32), b6 = _mm512_set1_epi32(64), b7 = _mm512_set1_epi32(128);
  int64_t x = x0;
  for (; x + 16 <= x1; x += 16) {
    const uint8_t* p0 = j.pl[0] + x;
    const __m512i v0 = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p0)));
    __m512 sum = _mm512_setzero_ps(), wsum = sum;
    for (size_t k = 0; k < nk; ++k) {
      const __m512i v = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p0 + ofs[k])));
      const __m512i d = _mm512_abs_epi32(_mm512_sub_epi32(v, v0));
      const __m512 r0 = _mm512_permutex2var_ps(t[0], d, t[1]), r1 = _mm512_permutex2var_ps(t[2], d, t[3]);
      const __m512 r2 = _mm512_permutex2var_ps(t[4], d, t[5]), r3 = _mm512_permutex2var_ps(t[6], d, t[7]);
      const __m512 r4 = _mm512_permutex2var_ps(t[8], d, t[9]), r5 = _mm512_permutex2var_ps(t[10], d, t[11]);
      const __m512 r6 = _mm512_permutex2var_ps(t[12], d, t[13]), r7 = _mm512_permutex2var_ps(t[14], d, t[15]);
      const __mmask16 m5 = _mm512_test_epi32_mask(d, b5), m6 = _mm512_test_epi32_mask(d, b6),
                      m7 = _mm512_test_epi32_mask(d, b7);
      const __m512 r01 = _mm512_mask_blend_ps(m5, r0, r1), r23 = _mm512_mask_blend_ps(m5, r2, r3);
      const __m512 r45 = _mm512_mask_blend_ps(m5, r4, r5), r67 = _mm512_mask_blend_ps(m5, r6, r7);
      const __m512 cw = _mm512_mask_blend_ps(m7, _mm512_mask_blend_ps(m6, r01, r23), _mm512_mask_blend_ps(m6, r45, r67));
      const __m512 wgt = _mm512_mul_ps(_mm512_set1_ps(sw[k]), cw);
      sum = _mm512_add_ps(sum, _mm512_mul_ps(_mm512_cvtepi32_ps(v), wgt));
      wsum = _mm512_add_ps(wsum, wgt);
    }
    const __m512 quo = _mm512_div_ps(sum, wsum);
    __m512 q = _mm512_roundscale_ps(quo, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    if (j.tx1 > j.tx0) {  // the truncated columns (see IppMode)
      const __m512i col = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int32_t>(x)),
                                           _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
      const __mmask16 in = _mm512_cmpge_epi32_mask(col, _mm512_set1_epi32(static_cast<int32_t>(j.tx0))) &
                           _mm512_cmplt_epi32_mask(col, _mm512_set1_epi32(static_cast<int32_t>(j.tx1)));
      q = _mm512_mask_roundscale_ps(q, in, quo, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    }
    q = _mm512_min_ps(_mm512_set1_ps(255.0f), _mm512_max_ps(_mm512_setzero_ps(), q));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + x), _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(q)));
  }
  return x;
}
#endif

// Output pixels [x0, x0 + 8n) of one row, eight at a time; returns where it stopped.
int64_t u8_row_avx2(const U8Job& j, int64_t x0, int64_t x1, uint8_t* dst) {
  const size_t nk = j.taps->w.size();
  const float* sw = j.taps->w.data();
  const int64_t* ofs = j.taps->ofs.data();
  int64_t x = x0;
  alignas(32) int32_t lanes[3][8];
  for (; x + 8 <= x1; x += 8) {
    if (j.c == 1) {
      const uint8_t* p0 = j.pl[0] + x;
      const __m256i v0 = load8_u8(p0);
      __m256 sum = _mm256_setzero_ps(), wsum = _mm256_setzero_ps();
      for (size_t k = 0; k < nk; ++k) {
        const __m256i v = load8_u8(p0 + ofs[k]);
        const __m256 cw = lookup8(j.color_w, _mm256_abs_epi32(_mm256_sub_epi32(v, v0)));
        const __m256 wgt = _mm256_mul_ps(_mm256_set1_ps(sw[k]), cw);
        sum = _mm256_add_ps(sum, _mm256_mul_ps(_mm256_cvtepi32_ps(v), wgt));
        wsum = _mm256_add_ps(wsum, wgt);
      }
      const __m256i q = j.tx1 > j.tx0 ? round_u8_cols(sum, wsum, j, x) : round_u8(sum, wsum);
      // 8 int32 in [0, 255] -> 8 bytes
      const __m128i q16 = _mm_packus_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(dst + x), _mm_packus_epi16(q16, q16));
    } else {
      const uint8_t *pb = j.pl[0] + x, *pg = j.pl[1] + x, *pr = j.pl[2] + x;
      const __m256i b0 = load8_u8(pb), g0 = load8_u8(pg), r0 = load8_u8(pr);
      __m256 sb = _mm256_setzero_ps(), sg = sb, sr = sb, wsum = sb;
      for (size_t k = 0; k < nk; ++k) {
        const int64_t o = ofs[k];
        const __m256i b = load8_u8(pb + o), g = load8_u8(pg + o), r = load8_u8(pr + o);
        const __m256i d = _mm256_add_epi32(_mm256_add_epi32(_mm256_abs_epi32(_mm256_sub_epi32(b, b0)),
                                                            _mm256_abs_epi32(_mm256_sub_epi32(g, g0))),
                                           _mm256_abs_epi32(_mm256_sub_epi32(r, r0)));
        const __m256 wgt = _mm256_mul_ps(_mm256_set1_ps(sw[k]), lookup8(j.color_w, d));
        sb = _mm256_add_ps(sb, _mm256_mul_ps(_mm256_cvtepi32_ps(b), wgt));
        sg = _mm256_add_ps(sg, _mm256_mul_ps(_mm256_cvtepi32_ps(g), wgt));
        sr = _mm256_add_ps(sr, _mm256_mul_ps(_mm256_cvtepi32_ps(r), wgt));
        wsum = _mm256_add_ps(wsum, wgt);
      }
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[0]), round_u8(sb, wsum));
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[1]), round_u8(sg, wsum));
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[2]), round_u8(sr, wsum));
      uint8_t* o = dst + x * 3;
      for (int i = 0; i < 8; ++i)
        o[3 * i] = static_cast<uint8_t>(lanes[0][i]), o[3 * i + 1] = static_cast<uint8_t>(lanes[1][i]),
        o[3 * i + 2] = static_cast<uint8_t>(lanes[2][i]);
    }
  }
  return x;
}
#endif

// ---- float32 ---------------------------------------------------------------------------------

struct F32Job {
  const float* pl[3];
  const Taps* taps;
  const float* lut;   // range weight at bin i (nbins + 2 entries, then a 0)
  const float* dlut;  // lut[i + 1] - lut[i] (0 at nbins + 1, where the last entry is read flat)
  const float* pairs;  // {lut[i], dlut[i]}: one 8-byte load per lane in the vector path
  float scale;        // bins per unit of summed difference
  int32_t last;       // nbins + 1: an index past it (float rounding at the range's ends) reads lut[last]
  int64_t c;
};

// Interpolated range weight of a summed absolute difference d (>= 0, or NaN: a NaN weight).
inline float range_w(const F32Job& j, float d) {
  float a = d * j.scale;
  if (std::isnan(a)) return a;
  int idx = static_cast<int>(std::floor(a));
  if (idx >= j.last) return j.lut[j.last];
  a -= static_cast<float>(idx);
  return j.lut[idx] + a * j.dlut[idx];
}

void f32_row_scalar(const F32Job& j, int64_t x0, int64_t x1, float* dst) {
  const size_t nk = j.taps->w.size();
  const float* sw = j.taps->w.data();
  const int64_t* ofs = j.taps->ofs.data();
  for (int64_t x = x0; x < x1; ++x) {
    float* o = dst + x * j.c;
    if (j.c == 1) {
      const float* p0 = j.pl[0] + x;
      const float rv = p0[0];
      float sum = 0, wsum = 0;
      for (size_t k = 0; k < nk; ++k) {
        const float v = p0[ofs[k]];
        const float wgt = sw[k] * range_w(j, std::abs(v - rv));
        wsum += wgt;
        sum += v * wgt;
      }
      o[0] = (sum + rv) / (wsum + 1.0f);
    } else {
      const float *pb = j.pl[0] + x, *pg = j.pl[1] + x, *pr = j.pl[2] + x;
      const float rb = pb[0], rg = pg[0], rr = pr[0];
      float sb = 0, sg = 0, sr = 0, wsum = 0;
      for (size_t k = 0; k < nk; ++k) {
        const float b = pb[ofs[k]], g = pg[ofs[k]], r = pr[ofs[k]];
        const float d = std::abs(b - rb) + std::abs(g - rg) + std::abs(r - rr);
        const float wgt = sw[k] * range_w(j, d);
        wsum += wgt;
        sb += b * wgt;
        sg += g * wgt;
        sr += r * wgt;
      }
      const float ws1 = wsum + 1.0f;
      o[0] = (sb + rb) / ws1, o[1] = (sg + rg) / ws1, o[2] = (sr + rr) / ws1;
    }
  }
}

#if defined(__AVX2__)
inline __m256 vabs(__m256 v) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v); }

// range_w for eight lanes: the same operations. A NaN lane's floor converts to INT_MIN, which the
// clamp sends to bin 0, and its NaN fraction makes the weight NaN; a lane past the table reads bin
// `last`, whose slope 0 leaves lut[last] as it is.
inline __m256 range_w8(const F32Job& j, __m256 d, __m256 scale, __m256i last) {
  const __m256 a = _mm256_mul_ps(d, scale);
  const __m256i idx = _mm256_cvttps_epi32(_mm256_floor_ps(a));
  const __m256i ic = _mm256_min_epi32(_mm256_max_epi32(idx, _mm256_setzero_si256()), last);
  const __m256 frac = _mm256_sub_ps(a, _mm256_cvtepi32_ps(idx));
  // lut[i] and dlut[i] sit side by side, so two 4-lane 64-bit gathers fetch both (measured faster
  // than two 8-lane gathers or eight scalar pair loads); then split the pairs.
  const double* pairs = reinterpret_cast<const double*>(j.pairs);
  const __m256 lo = _mm256_castpd_ps(_mm256_i32gather_pd(pairs, _mm256_castsi256_si128(ic), 8));
  const __m256 hi = _mm256_castpd_ps(_mm256_i32gather_pd(pairs, _mm256_extracti128_si256(ic, 1), 8));
  // lo: l0 d0 l1 d1 | l2 d2 l3 d3, hi: l4 d4 .. l7 d7 -> pa: l0 d0 l1 d1 | l4 d4 l5 d5, pb: the rest
  const __m256 pa = _mm256_permute2f128_ps(lo, hi, 0x20), pb = _mm256_permute2f128_ps(lo, hi, 0x31);
  const __m256 l = _mm256_shuffle_ps(pa, pb, _MM_SHUFFLE(2, 0, 2, 0));
  const __m256 dl = _mm256_shuffle_ps(pa, pb, _MM_SHUFFLE(3, 1, 3, 1));
  return _mm256_add_ps(l, _mm256_mul_ps(frac, dl));
}

int64_t f32_row_avx2(const F32Job& j, int64_t x0, int64_t x1, float* dst) {
  const size_t nk = j.taps->w.size();
  const float* sw = j.taps->w.data();
  const int64_t* ofs = j.taps->ofs.data();
  const __m256 scale = _mm256_set1_ps(j.scale), one = _mm256_set1_ps(1.0f);
  const __m256i last = _mm256_set1_epi32(j.last);
  alignas(32) float lanes[3][8];
  int64_t x = x0;
  for (; x + 8 <= x1; x += 8) {
    if (j.c == 1) {
      const float* p0 = j.pl[0] + x;
      const __m256 rv = _mm256_loadu_ps(p0);
      __m256 sum = _mm256_setzero_ps(), wsum = sum;
      for (size_t k = 0; k < nk; ++k) {
        const __m256 v = _mm256_loadu_ps(p0 + ofs[k]);
        const __m256 wgt = _mm256_mul_ps(_mm256_set1_ps(sw[k]), range_w8(j, vabs(_mm256_sub_ps(v, rv)), scale, last));
        wsum = _mm256_add_ps(wsum, wgt);
        sum = _mm256_add_ps(sum, _mm256_mul_ps(v, wgt));
      }
      _mm256_storeu_ps(dst + x, _mm256_div_ps(_mm256_add_ps(sum, rv), _mm256_add_ps(wsum, one)));
    } else {
      const float *pb = j.pl[0] + x, *pg = j.pl[1] + x, *pr = j.pl[2] + x;
      const __m256 rb = _mm256_loadu_ps(pb), rg = _mm256_loadu_ps(pg), rr = _mm256_loadu_ps(pr);
      __m256 sb = _mm256_setzero_ps(), sg = sb, sr = sb, wsum = sb;
      for (size_t k = 0; k < nk; ++k) {
        const int64_t o = ofs[k];
        const __m256 b = _mm256_loadu_ps(pb + o), g = _mm256_loadu_ps(pg + o), r = _mm256_loadu_ps(pr + o);
        const __m256 d = _mm256_add_ps(_mm256_add_ps(vabs(_mm256_sub_ps(b, rb)), vabs(_mm256_sub_ps(g, rg))),
                                       vabs(_mm256_sub_ps(r, rr)));
        const __m256 wgt = _mm256_mul_ps(_mm256_set1_ps(sw[k]), range_w8(j, d, scale, last));
        wsum = _mm256_add_ps(wsum, wgt);
        sb = _mm256_add_ps(sb, _mm256_mul_ps(b, wgt));
        sg = _mm256_add_ps(sg, _mm256_mul_ps(g, wgt));
        sr = _mm256_add_ps(sr, _mm256_mul_ps(r, wgt));
      }
      const __m256 ws1 = _mm256_add_ps(wsum, one);
      _mm256_store_ps(lanes[0], _mm256_div_ps(_mm256_add_ps(sb, rb), ws1));
      _mm256_store_ps(lanes[1], _mm256_div_ps(_mm256_add_ps(sg, rg), ws1));
      _mm256_store_ps(lanes[2], _mm256_div_ps(_mm256_add_ps(sr, rr), ws1));
      float* o = dst + x * 3;
      for (int i = 0; i < 8; ++i) o[3 * i] = lanes[0][i], o[3 * i + 1] = lanes[1][i], o[3 * i + 2] = lanes[2][i];
    }
  }
  return x;
}
#endif

// Flush-to-zero and denormals-are-zero for one thread's share of the float filter. Range weights
// far out in the table's tail are subnormal, and so are their products; at hundreds of cycles
// each (Zen 4) a noisy image ran slower than cv2 (whose FMA never rounds the product). A weight
// below 2^-126 moves a sum that holds the centre's weight 1 by less than 2^-126 relative, far
// inside the 1e-5 tests allow; scalar and vector code both obey MXCSR, so every ISA agrees.
struct FlushDenormals {
#if defined(__x86_64__) || defined(_M_X64)
  unsigned saved = _mm_getcsr();
  FlushDenormals() { _mm_setcsr(saved | 0x8040u); }  // FTZ (bit 15) | DAZ (bit 6)
  ~FlushDenormals() { _mm_setcsr(saved); }
#endif
};

// ---- the kernel ------------------------------------------------------------------------------

class BilateralKernel final : public backend::Kernel {
 public:
  explicit BilateralKernel(const backend::StepDesc& s) {
    radius_ = s.params->ints[0];
    border_ = static_cast<int>(s.params->ints[1]);
    cc_ = s.params->floats[0];
    sc_ = s.params->floats[1];
    const Shape& sh = s.inputs[0].shape;
    h_ = sh[0], w_ = sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
    u8_ = s.inputs[0].dtype == DType::UInt8;
    const int64_t pw = w_ + 2 * radius_;
    for (int64_t i = -radius_; i <= radius_; ++i)
      for (int64_t j = -radius_; j <= radius_; ++j) {
        double r = std::sqrt(static_cast<double>(i * i + j * j));
        if (r > radius_) continue;
        // the float path adds the centre itself, after the neighbours (as cv2)
        if (!u8_ && i == 0 && j == 0) continue;
        taps_.w.push_back(static_cast<float>(std::exp(r * r * sc_)));
        taps_.ofs.push_back(i * pw + j);
      }
    if (u8_)
      for (int64_t i = 0; i < 256 * c_; ++i) color_w_.push_back(static_cast<float>(std::exp(i * i * cc_)));
  }
  void run(char* const* in, char* out) override {
    if (u8_) run_u8(reinterpret_cast<const uint8_t*>(in[0]), reinterpret_cast<uint8_t*>(out));
    else run_f32(reinterpret_cast<const float*>(in[0]), reinterpret_cast<float*>(out));
  }

 private:
  void run_u8(const uint8_t* src, uint8_t* dst) {
    const int64_t r = radius_, w = w_, c = c_, pw = w + 2 * r;
    std::vector<uint8_t> planes[3];
    pad_planes(src, h_, w, c, r, border_, planes);
    parallel_for(h_, 4, [&](int64_t y0, int64_t y1) {
      U8Job j{{nullptr, nullptr, nullptr}, &taps_, color_w_.data(), c};
      const bool ipp = ipp_mode();
      for (int64_t y = y0; y < y1; ++y) {
        for (int64_t ch = 0; ch < c; ++ch) j.pl[ch] = planes[ch].data() + (y + r) * pw + r;
        if (ipp) {  // the first and last r rows truncate throughout, the others but their r edge columns
          const bool edge_row = y < r || y >= h_ - r;
          j.tx0 = edge_row ? 0 : r, j.tx1 = edge_row ? w : w - r;
        }
        uint8_t* o = dst + y * w * c;
        int64_t x = 0;
#if defined(__AVX512F__)
        if (c == 1) x = u8c1_row_avx512(j, 0, w, o);
#endif
#if defined(__AVX2__)
        x = u8_row_avx2(j, x, w, o);
#endif
        u8_row_scalar(j, x, w, o);
      }
    });
  }

  // cv2 5.0 hands one-channel uint8 images to IPP's bilateral filter (borders constant, replicate
  // and reflect-101), whose kernel for a radius of 1 or 2 on rows of 16 pixels or more (and 2r + 1
  // rows or more) truncates
  // sum / wsum where cv2's own code rounds it, but in the r columns at either end of the rows
  // between the first and last r (measured against cv2 5.0; its weights are cv2's, as here,
  // within float rounding).
  bool ipp_mode() const {
    const int b = border_ & 15;
    return c_ == 1 && radius_ <= 2 && w_ >= 16 && h_ >= 2 * radius_ + 1 && (b == 0 || b == 1 || b == 4);
  }

  void run_f32(const float* src, float* dst) {
    const int64_t r = radius_, h = h_, w = w_, c = c_, pw = w + 2 * r;
    std::vector<float> planes[3];
    pad_planes(src, h, w, c, r, border_, planes);
    // cv2 takes the range of the padded image (so zero padding widens it), in double: that is the
    // source's range, and 0 with BORDER_CONSTANT. Per-row extremes in parallel; `v < lo` is false
    // for NaN, so NaN pixels are skipped (and the loop vectorises to min/max).
    std::vector<float> row_lo(static_cast<size_t>(h)), row_hi(static_cast<size_t>(h));
    parallel_for(h, 16, [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) {
        const float* p = src + y * w * c;
        float l = std::numeric_limits<float>::infinity(), u = -l;
        for (int64_t i = 0; i < w * c; ++i) l = p[i] < l ? p[i] : l, u = p[i] > u ? p[i] : u;
        row_lo[y] = l, row_hi[y] = u;
      }
    });
    double lo = border_ == 0 ? 0.0 : std::numeric_limits<double>::infinity(), hi = border_ == 0 ? 0.0 : -lo;
    for (int64_t y = 0; y < h; ++y) lo = std::min(lo, double(row_lo[y])), hi = std::max(hi, double(row_hi[y]));
    if (!(std::abs(lo - hi) >= FLT_EPSILON)) {  // a flat image (or an all-NaN one) comes back as it is
      std::memcpy(dst, src, sizeof(float) * static_cast<size_t>(h * w * c));
      return;
    }
    const int nbins = 4096 * static_cast<int>(c);
    const float len = static_cast<float>(hi - lo) * static_cast<float>(c);
    const float scale = static_cast<float>(nbins) / len;
    std::vector<float> lut(static_cast<size_t>(nbins + 3), 0.0f), dlut(static_cast<size_t>(nbins + 2), 0.0f);
    for (int i = 0; i < nbins + 2; ++i) {
      const double v = static_cast<float>(i) / scale;  // float quotient, widened (as cv2)
      lut[i] = static_cast<float>(std::exp(v * v * cc_));
      if (!(lut[i] > 0.0f)) break;  // the rest stay 0
    }
    for (int i = 0; i <= nbins; ++i) dlut[i] = lut[i + 1] - lut[i];
    std::vector<float> pairs(static_cast<size_t>(2 * (nbins + 2)));
    for (int i = 0; i < nbins + 2; ++i) pairs[2 * i] = lut[i], pairs[2 * i + 1] = dlut[i];
    parallel_for(h, 4, [&](int64_t y0, int64_t y1) {
      const FlushDenormals ftz;
      F32Job j{{nullptr, nullptr, nullptr}, &taps_, lut.data(), dlut.data(), pairs.data(), scale, nbins + 1, c};
      for (int64_t y = y0; y < y1; ++y) {
        for (int64_t ch = 0; ch < c; ++ch) j.pl[ch] = planes[ch].data() + (y + r) * pw + r;
        float* o = dst + y * w * c;
        int64_t x = 0;
#if defined(__AVX2__)
        x = f32_row_avx2(j, 0, w, o);
#endif
        f32_row_scalar(j, x, w, o);
      }
    });
  }

  int64_t radius_, h_, w_, c_;
  int border_;
  double cc_, sc_;
  bool u8_;
  Taps taps_;
  std::vector<float> color_w_;
};

std::unique_ptr<backend::Kernel> prepare_bilateral(const backend::StepDesc& s) {
  return std::make_unique<BilateralKernel>(s);
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_bilateral, "cv_bilateral", &prepare_bilateral);

}  // namespace mnn::cpu::MNN_ISA_NS
