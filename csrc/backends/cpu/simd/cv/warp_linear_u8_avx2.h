// AVX2 bilinear uint8 warps (warpAffine, warpPerspective, remap with float or fixed-point maps), included by
// warp.cpp inside its ISA namespace. Eight destination pixels at a time; the arithmetic is cv2's
// float-coordinate path lane for lane (floor, fused lerp along x on both rows, then along y,
// round half to even), so results stay bit-exact with warp.cpp's scalar path.
//
// Why no gathers: on AMD Zen (measured on Zen 3) vpgatherdd is microcoded and slow, and the old
// kernel's four gathers per eight pixels were ~70% of its time. For 3 and 4 channels one unaligned
// 16-byte load per source row covers both horizontal taps of a pixel, and a byte shuffle spreads
// them into float lanes; two pixels share a register ([pixel k | pixel k+1], 4 channel slots
// each). In a standalone A/B at 1080p this ran in ~0.6x the time of the gather kernel without
// prefetching. One channel keeps gathers, but two (a 4-byte gather per row holds both taps).
//
// Why the prefetch: for a rotation the taps walk diagonally through the source, so every few
// pixels they enter cache lines the hardware prefetcher did not predict (it follows rows), and the
// kernel stalled on L3/DRAM for about as long as it computed. The source points 128 pixels ahead
// are known, so their lines are requested early. Column strips (a smaller working set) were
// slower than whole rows with the prefetch.
#pragma once
#if defined(__AVX2__)
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

// Inside the ISA namespace: each ISA target compiles its own copy with its own -m flags.
namespace mnn::cpu::MNN_ISA_NS::warp_u8 {

enum CoordMode { kAffineCoords = 0, kPerspectiveCoords = 1, kMapCoords = 2 };

// One destination row's inputs.
struct RowArgs {
  const uint8_t* src;
  int sw, sh, cn, step;       // source width, height, channels, row stride in bytes
  int mode;                   // CoordMode
  const float* M;             // the 3x3 (or 2x3) inverse map as floats
  float Mx, My, Mw;           // row terms: y*M1 + M2, y*M4 + M5, y*M7 + M8 (fused columns)
  const float* mapx;          // remap: this row's x and y (x of pixel k at mapx[k * mstride])
  const float* mapy;
  int mstride;                // 1: two planar maps, 2: one interleaved (x, y) map
  bool fill_outside;          // constant border: groups wholly outside take bval
  bool skip_outside;          // transparent border: groups wholly outside are left alone
  const uint8_t* bval;        // border value, 4 channels
};

// Source points of pixels x..x+7 (xf: their columns as floats).
template <int Mode>
inline void points(const RowArgs& r, int x, __m256 xf, __m256& sx, __m256& sy) {
  if (Mode == kMapCoords) {
    if (r.mstride == 1) {  // two planar maps
      sx = _mm256_loadu_ps(r.mapx + x);
      sy = _mm256_loadu_ps(r.mapy + x);
      return;
    }
    // interleaved (x, y) pairs: deinterleave eight of them
    __m256 a = _mm256_loadu_ps(r.mapx + 2 * x), b = _mm256_loadu_ps(r.mapx + 2 * x + 8);
    __m256 xs = _mm256_shuffle_ps(a, b, 0x88), ys = _mm256_shuffle_ps(a, b, 0xdd);  // x0 x1 x4 x5 | x2 x3 x6 x7
    sx = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(xs), 0xd8));
    sy = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(ys), 0xd8));
    return;
  }
  sx = _mm256_fmadd_ps(_mm256_set1_ps(r.M[0]), xf, _mm256_set1_ps(r.Mx));
  sy = _mm256_fmadd_ps(_mm256_set1_ps(r.M[3]), xf, _mm256_set1_ps(r.My));
  if (Mode == kPerspectiveCoords) {
    __m256 w = _mm256_fmadd_ps(_mm256_set1_ps(r.M[6]), xf, _mm256_set1_ps(r.Mw));
    sx = _mm256_div_ps(sx, w);
    sy = _mm256_div_ps(sy, w);
  }
}

// Requests the cache lines of the source points of pixels x..x+7 (both tap rows; every other
// lane: neighbouring pixels share lines). Approximate points are fine here.
template <int Mode>
inline void prefetch_points(const RowArgs& r, int x, int x_limit) {
  __m256 px, py;
  const __m256 xf = _mm256_add_ps(_mm256_set1_ps(static_cast<float>(x)), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7));
  if (Mode == kMapCoords) {
    if (x + 8 > x_limit) return;
    points<Mode>(r, x, xf, px, py);
  } else {
    px = _mm256_fmadd_ps(_mm256_set1_ps(r.M[0]), xf, _mm256_set1_ps(r.Mx));
    py = _mm256_fmadd_ps(_mm256_set1_ps(r.M[3]), xf, _mm256_set1_ps(r.My));
    if (Mode == kPerspectiveCoords) {
      __m256 iw = _mm256_rcp_ps(_mm256_fmadd_ps(_mm256_set1_ps(r.M[6]), xf, _mm256_set1_ps(r.Mw)));
      px = _mm256_mul_ps(px, iw);
      py = _mm256_mul_ps(py, iw);
    }
  }
  // NaN / out of range convert to INT_MIN, which the clamp maps to 0
  __m256i ix = _mm256_cvttps_epi32(px), iy = _mm256_cvttps_epi32(py);
  ix = _mm256_min_epi32(_mm256_max_epi32(ix, _mm256_setzero_si256()), _mm256_set1_epi32(r.sw - 1));
  iy = _mm256_min_epi32(_mm256_max_epi32(iy, _mm256_setzero_si256()), _mm256_set1_epi32(r.sh - 2));
  alignas(32) int32_t o[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(o),
                     _mm256_add_epi32(_mm256_mullo_epi32(iy, _mm256_set1_epi32(r.step)), _mm256_mullo_epi32(ix, _mm256_set1_epi32(r.cn))));
  const char* b = reinterpret_cast<const char*>(r.src);
  for (int k = 0; k < 8; k += 2) {
    _mm_prefetch(b + o[k], _MM_HINT_T0);
    _mm_prefetch(b + o[k] + r.step, _MM_HINT_T0);
  }
}

// Pixels K and K+1 of a group (3 or 4 channels): both rows' taps by one 16-byte load each,
// lerped in float; returns their rounded channels as int32 [K: 4 slots | K+1: 4 slots].
template <int K>
inline __m256i pair_lerp(const uint8_t* src, const int32_t* ofs, int step, __m256 ax, __m256 ay, __m256i ma, __m256i mb) {
  const uint8_t* pa = src + ofs[K];
  const uint8_t* pb = src + ofs[K + 1];
  __m256i r0 = _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(pb), reinterpret_cast<const __m128i*>(pa));
  __m256i r1 = _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(pb + step), reinterpret_cast<const __m128i*>(pa + step));
  __m256 p00 = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(r0, ma));
  __m256 p01 = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(r0, mb));
  __m256 p10 = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(r1, ma));
  __m256 p11 = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(r1, mb));
  const __m256i idx = _mm256_setr_epi32(K, K, K, K, K + 1, K + 1, K + 1, K + 1);
  __m256 axk = _mm256_permutevar8x32_ps(ax, idx), ayk = _mm256_permutevar8x32_ps(ay, idx);
  __m256 v0 = _mm256_fmadd_ps(axk, _mm256_sub_ps(p01, p00), p00);
  __m256 v1 = _mm256_fmadd_ps(axk, _mm256_sub_ps(p11, p10), p10);
  return _mm256_cvtps_epi32(_mm256_fmadd_ps(ayk, _mm256_sub_ps(v1, v0), v0));  // half to even, as cv2's v_round
}

// linear_row for one coordinate mode and channel count (compile-time, so the loop keeps its
// constants in registers).
template <int Mode, int CN, class Fallback>
int linear_row_t(const RowArgs& r, uint8_t* D, int x_end, Fallback&& fallback) {
  constexpr int cn = CN;
  const int step = r.step;
  // Measured on Zen 3 (1080p, 15 degrees): 32 pixels ahead hid about half the stalls, 96-128 nearly all.
  constexpr int kAhead = 128;
  const __m256i lim_x = _mm256_set1_epi32(r.sw - 2), lim_y = _mm256_set1_epi32(r.sh - 3);
  const __m256i vstep = _mm256_set1_epi32(step), vcn = _mm256_set1_epi32(cn);
  const __m256 lane = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
  const char z = -1;  // pshufb: zero byte
  const __m256i ma = cn == 4 ? _mm256_setr_epi8(0, z, z, z, 1, z, z, z, 2, z, z, z, 3, z, z, z, 0, z, z, z, 1, z, z, z, 2, z, z, z, 3, z, z, z)
                             : _mm256_setr_epi8(0, z, z, z, 1, z, z, z, 2, z, z, z, z, z, z, z, 0, z, z, z, 1, z, z, z, 2, z, z, z, z, z, z, z);
  const __m256i mb = cn == 4 ? _mm256_setr_epi8(4, z, z, z, 5, z, z, z, 6, z, z, z, 7, z, z, z, 4, z, z, z, 5, z, z, z, 6, z, z, z, 7, z, z, z)
                             : _mm256_setr_epi8(3, z, z, z, 4, z, z, z, 5, z, z, z, z, z, z, z, 3, z, z, z, 4, z, z, z, 5, z, z, z, z, z, z, z);
  const __m256i ff = _mm256_set1_epi32(0xff);
  const int* base32 = reinterpret_cast<const int*>(r.src);
  alignas(32) int32_t ofs[8];
  int x = 0;
  for (; x + 8 <= x_end; x += 8) {
    const __m256 xf = _mm256_add_ps(_mm256_set1_ps(static_cast<float>(x)), lane);
    __m256 sx, sy;
    points<Mode>(r, x, xf, sx, sy);
    const __m256 fx = _mm256_floor_ps(sx), fy = _mm256_floor_ps(sy);
    // NaN / out of range convert to INT_MIN, which the unsigned limits reject
    const __m256i ix = _mm256_cvttps_epi32(fx), iy = _mm256_cvttps_epi32(fy);
    const __m256i ok = _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(ix, lim_x), lim_x),
                                        _mm256_cmpeq_epi32(_mm256_max_epu32(iy, lim_y), lim_y));
    if (_mm256_movemask_epi8(ok) != -1) {
      if (r.fill_outside || r.skip_outside) {
        // every lane wholly outside (ix+1 outside [0, sw] or iy+1 outside [0, sh])?
        __m256i ox = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(-1), ix), _mm256_cmpgt_epi32(ix, _mm256_set1_epi32(r.sw - 1)));
        __m256i oy = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(-1), iy), _mm256_cmpgt_epi32(iy, _mm256_set1_epi32(r.sh - 1)));
        // (a NaN / infinite point goes to fallback: cv2 fills only whole groups of 16 then)
        const __m256 finite = _mm256_cmp_ps(_mm256_add_ps(_mm256_sub_ps(sx, sx), _mm256_sub_ps(sy, sy)), _mm256_setzero_ps(), _CMP_EQ_OQ);
        if (_mm256_movemask_epi8(_mm256_or_si256(ox, oy)) == -1 && _mm256_movemask_ps(finite) == 0xff) {
          if (r.fill_outside) {
            uint8_t* o = D + size_t(x) * cn;
            for (int k = 0; k < 8; ++k)
              for (int c = 0; c < cn; ++c) o[k * cn + c] = r.bval[c];
          }
          continue;
        }
      }
      for (int k = 0; k < 8; ++k) fallback(x + k);
      continue;
    }
    prefetch_points<Mode>(r, x + kAhead, x_end);
    const __m256 ax = _mm256_sub_ps(sx, fx), ay = _mm256_sub_ps(sy, fy);
    const __m256i addr = _mm256_add_epi32(_mm256_mullo_epi32(iy, vstep), _mm256_mullo_epi32(ix, vcn));
    uint8_t* out = D + size_t(x) * cn;
    if (cn == 1) {
      // one 4-byte gather per tap row holds both horizontal taps
      const __m256i g0 = _mm256_i32gather_epi32(base32, addr, 1);
      const __m256i g1 = _mm256_i32gather_epi32(base32, _mm256_add_epi32(addr, vstep), 1);
      __m256 p00 = _mm256_cvtepi32_ps(_mm256_and_si256(g0, ff));
      __m256 p01 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(g0, 8), ff));
      __m256 p10 = _mm256_cvtepi32_ps(_mm256_and_si256(g1, ff));
      __m256 p11 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(g1, 8), ff));
      __m256 v0 = _mm256_fmadd_ps(ax, _mm256_sub_ps(p01, p00), p00);
      __m256 v1 = _mm256_fmadd_ps(ax, _mm256_sub_ps(p11, p10), p10);
      __m256i v = _mm256_cvtps_epi32(_mm256_fmadd_ps(ay, _mm256_sub_ps(v1, v0), v0));
      __m256i p16 = _mm256_packus_epi32(v, v);
      __m256i p8 = _mm256_packus_epi16(p16, p16);
      uint32_t lo = uint32_t(_mm256_extract_epi32(p8, 0)), hi = uint32_t(_mm256_extract_epi32(p8, 4));
      std::memcpy(out, &lo, 4);
      std::memcpy(out + 4, &hi, 4);
      continue;
    }
    _mm256_store_si256(reinterpret_cast<__m256i*>(ofs), addr);
    const __m256i r0 = pair_lerp<0>(r.src, ofs, step, ax, ay, ma, mb), r1 = pair_lerp<2>(r.src, ofs, step, ax, ay, ma, mb);
    const __m256i r2 = pair_lerp<4>(r.src, ofs, step, ax, ay, ma, mb), r3 = pair_lerp<6>(r.src, ofs, step, ax, ay, ma, mb);
    // packs interleave the 128-bit halves: dwords are pixels 0 2 4 6 | 1 3 5 7
    __m256i px = _mm256_packus_epi16(_mm256_packus_epi32(r0, r1), _mm256_packus_epi32(r2, r3));
    px = _mm256_permutevar8x32_epi32(px, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    if (cn == 4) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), px);
      continue;
    }
    const __m256i squeeze = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, z, z, z, z,
                                             0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, z, z, z, z);
    const __m256i q = _mm256_shuffle_epi8(px, squeeze);
    const __m128i lo = _mm256_castsi256_si128(q), hi = _mm256_extracti128_si256(q, 1);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), lo);
    uint32_t t = uint32_t(_mm_extract_epi32(lo, 2));
    std::memcpy(out + 8, &t, 4);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 12), hi);
    t = uint32_t(_mm_extract_epi32(hi, 2));
    std::memcpy(out + 20, &t, 4);
  }
  return x;
}

// Writes pixels [0, x_end) of row D in groups of eight; a group with any tap outside the safe
// interior (taps at ix..ix+1 < sw, iy..iy+1 <= sh-2, so the 16-byte loads stay in the buffer) goes
// to fallback(x) pixel by pixel. Returns the first column not written.
template <class Fallback>
int linear_row(const RowArgs& r, uint8_t* D, int x_end, Fallback&& fallback) {
  // 16-byte loads from row iy+1 <= sh-2 end inside the image when a row holds 16 bytes
  if (r.sw < 2 || r.sh < 3 || (r.cn != 1 && r.sw * r.cn < 16)) return 0;
  if (int64_t(r.sh) * r.step > INT32_MAX - 64) return 0;  // offsets are int32 lanes
  auto by_cn = [&](auto mode) {
    constexpr int M = decltype(mode)::value;
    if (r.cn == 1) return linear_row_t<M, 1>(r, D, x_end, fallback);
    if (r.cn == 3) return linear_row_t<M, 3>(r, D, x_end, fallback);
    return linear_row_t<M, 4>(r, D, x_end, fallback);
  };
  if (r.mode == kAffineCoords) return by_cn(std::integral_constant<int, kAffineCoords>());
  if (r.mode == kPerspectiveCoords) return by_cn(std::integral_constant<int, kPerspectiveCoords>());
  return by_cn(std::integral_constant<int, kMapCoords>());
}

// ---------------------------------------------------------------------------------------------
// remap with convertMaps' fixed-point maps: cv2's integer bilinear (the four taps times weights
// scaled by 2^15, (sum + 2^14) >> 15, saturated), exact. Each tap row's two taps become an int16
// pair multiplied by the packed weight pair with one madd.

struct FixedArgs {
  const uint8_t* src;
  int sw, sh, cn, step;
  const int32_t* w01;  // per table index: the weights of the top taps as an int16 pair
  const int32_t* w23;  // the bottom taps
};

template <int K>
inline __m256i fixed_pair(const uint8_t* src, const int32_t* ofs, const int32_t* al, const FixedArgs& r, __m256i mpair) {
  const uint8_t* pa = src + ofs[K];
  const uint8_t* pb = src + ofs[K + 1];
  __m256i r0 = _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(pb), reinterpret_cast<const __m128i*>(pa));
  __m256i r1 = _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(pb + r.step), reinterpret_cast<const __m128i*>(pa + r.step));
  const __m256i wa = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi32(r.w01[al[K]])), _mm_set1_epi32(r.w01[al[K + 1]]), 1);
  const __m256i wb = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi32(r.w23[al[K]])), _mm_set1_epi32(r.w23[al[K + 1]]), 1);
  __m256i v = _mm256_add_epi32(_mm256_madd_epi16(_mm256_shuffle_epi8(r0, mpair), wa),
                               _mm256_madd_epi16(_mm256_shuffle_epi8(r1, mpair), wb));
  return _mm256_srai_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(1 << 14)), 15);
}

template <int CN, class Fallback>
int fixed_row_t(const FixedArgs& r, uint8_t* D, const int* xs, const int* ys, const int* al, int n, Fallback&& fallback) {
  constexpr int cn = CN;
  const int step = r.step;
  const __m256i lim_x = _mm256_set1_epi32(r.sw - 2), lim_y = _mm256_set1_epi32(r.sh - 3);
  const __m256i vstep = _mm256_set1_epi32(step), vcn = _mm256_set1_epi32(cn);
  const char z = -1;
  // int16 pairs (left tap, right tap) per channel
  const __m256i mpair = cn == 4 ? _mm256_setr_epi8(0, z, 4, z, 1, z, 5, z, 2, z, 6, z, 3, z, 7, z, 0, z, 4, z, 1, z, 5, z, 2, z, 6, z, 3, z, 7, z)
                      : cn == 3 ? _mm256_setr_epi8(0, z, 3, z, 1, z, 4, z, 2, z, 5, z, z, z, z, z, 0, z, 3, z, 1, z, 4, z, 2, z, 5, z, z, z, z, z)
                                : _mm256_setr_epi8(0, z, 1, z, 4, z, 5, z, 8, z, 9, z, 12, z, 13, z, 0, z, 1, z, 4, z, 5, z, 8, z, 9, z, 12, z, 13, z);
  const int* base32 = reinterpret_cast<const int*>(r.src);
  constexpr int kAhead = 128;
  alignas(32) int32_t ofs[8];
  int x = 0;
  for (; x + 8 <= n; x += 8) {
    const __m256i ix = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xs + x));
    const __m256i iy = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ys + x));
    const __m256i ok = _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(ix, lim_x), lim_x),
                                        _mm256_cmpeq_epi32(_mm256_max_epu32(iy, lim_y), lim_y));
    if (_mm256_movemask_epi8(ok) != -1) {
      fallback(x, 8);
      continue;
    }
    if (x + kAhead < n) {  // the source lines of pixels 128 ahead (see prefetch_points)
      const char* b = reinterpret_cast<const char*>(r.src);
      for (int k = x + kAhead; k < x + kAhead + 8; k += 2) {
        const int px = std::min(std::max(xs[k], 0), r.sw - 1), py = std::min(std::max(ys[k], 0), r.sh - 2);
        _mm_prefetch(b + size_t(py) * step + size_t(px) * cn, _MM_HINT_T0);
        _mm_prefetch(b + size_t(py + 1) * step + size_t(px) * cn, _MM_HINT_T0);
      }
    }
    const __m256i addr = _mm256_add_epi32(_mm256_mullo_epi32(iy, vstep), _mm256_mullo_epi32(ix, vcn));
    uint8_t* out = D + size_t(x) * cn;
    if (cn == 1) {
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(al + x));
      const __m256i g0 = _mm256_shuffle_epi8(_mm256_i32gather_epi32(base32, addr, 1), mpair);
      const __m256i g1 = _mm256_shuffle_epi8(_mm256_i32gather_epi32(base32, _mm256_add_epi32(addr, vstep), 1), mpair);
      __m256i v = _mm256_add_epi32(_mm256_madd_epi16(g0, _mm256_i32gather_epi32(r.w01, a, 4)),
                                   _mm256_madd_epi16(g1, _mm256_i32gather_epi32(r.w23, a, 4)));
      v = _mm256_srai_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(1 << 14)), 15);
      __m256i p16 = _mm256_packus_epi32(v, v);
      __m256i p8 = _mm256_packus_epi16(p16, p16);
      uint32_t lo = uint32_t(_mm256_extract_epi32(p8, 0)), hi = uint32_t(_mm256_extract_epi32(p8, 4));
      std::memcpy(out, &lo, 4);
      std::memcpy(out + 4, &hi, 4);
      continue;
    }
    _mm256_store_si256(reinterpret_cast<__m256i*>(ofs), addr);
    const int32_t* a = al + x;
    const __m256i r0 = fixed_pair<0>(r.src, ofs, a, r, mpair), r1 = fixed_pair<2>(r.src, ofs, a, r, mpair);
    const __m256i r2 = fixed_pair<4>(r.src, ofs, a, r, mpair), r3 = fixed_pair<6>(r.src, ofs, a, r, mpair);
    __m256i px = _mm256_packus_epi16(_mm256_packus_epi32(r0, r1), _mm256_packus_epi32(r2, r3));
    px = _mm256_permutevar8x32_epi32(px, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    if (cn == 4) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), px);
      continue;
    }
    const __m256i squeeze = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, z, z, z, z,
                                             0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, z, z, z, z);
    const __m256i q = _mm256_shuffle_epi8(px, squeeze);
    const __m128i lo = _mm256_castsi256_si128(q), hi = _mm256_extracti128_si256(q, 1);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), lo);
    uint32_t t = uint32_t(_mm_extract_epi32(lo, 2));
    std::memcpy(out + 8, &t, 4);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 12), hi);
    t = uint32_t(_mm_extract_epi32(hi, 2));
    std::memcpy(out + 20, &t, 4);
  }
  return x;
}

// Writes pixels [0, n) in groups of eight from their source pixels (xs, ys) and table indices
// al; a group with a tap outside the safe interior goes to fallback(x, 8). Returns the first
// column not written.
template <class Fallback>
int fixed_row(const FixedArgs& r, uint8_t* D, const int* xs, const int* ys, const int* al, int n, Fallback&& fallback) {
  if (r.sw < 2 || r.sh < 3 || (r.cn != 1 && r.sw * r.cn < 16)) return 0;
  if (int64_t(r.sh) * r.step > INT32_MAX - 64) return 0;
  if (r.cn == 1) return fixed_row_t<1>(r, D, xs, ys, al, n, fallback);
  if (r.cn == 3) return fixed_row_t<3>(r, D, xs, ys, al, n, fallback);
  return fixed_row_t<4>(r, D, xs, ys, al, n, fallback);
}

}  // namespace mnn::cpu::MNN_ISA_NS::warp_u8
#endif
