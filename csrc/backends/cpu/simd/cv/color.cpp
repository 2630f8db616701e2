// cv_color kernels (ops/cv/color.cpp): cvtColor's conversions, written to give cv2's results.
//
// uint8 and uint16 use cv2's fixed-point formulas (gray: 15-bit weights; YCrCb/YUV: 14-bit;
// XYZ: 12-bit; camera YUV 4:2:0: BT.601 with 20-bit weights, chroma taken from the top-left
// pixel of each 2x2 block); HSV on uint8 uses cv2's division tables (forward); the other HSV/HLS
// conversions are in color_hsv.cpp. float32 follows cv2's float formulas.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE__) || defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

#include "core/error.h"
#include "core/threadpool.h"
#include "backends/cpu/simd/cv/color_hsv.h"
#include "backends/cpu/simd/cv/color_lab.h"
#include "backends/cpu/simd/cv/perm_u8.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

enum ColorOp {
  kPerm = 0, kRgb2Gray, kGray2Rgb, kRgb2Hsv, kHsv2Rgb, kRgb2Ycc, kYcc2Rgb, kRgb2Xyz, kXyz2Rgb,
  kYuv420sp2Rgb, kYuv420p2Rgb, kRgb2Yuv420p, kRgb2Lab, kLab2Rgb, kRgb2Luv, kLuv2Rgb, kNumOps
};

template <class T> constexpr float max_of() { return std::is_same_v<T, float> ? 1.f : float(std::numeric_limits<T>::max()); }
template <class T> constexpr int half_of() { return std::is_same_v<T, uint8_t> ? 128 : 32768; }

template <class T>
inline T sat(int v) {
  constexpr int hi = std::numeric_limits<T>::max();
  return static_cast<T>(v < 0 ? 0 : v > hi ? hi : v);
}
template <class T>
inline T sat(int64_t v) {
  constexpr int64_t hi = std::numeric_limits<T>::max();
  return static_cast<T>(v < 0 ? 0 : v > hi ? hi : v);
}
template <class T>
inline T satf(float v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else return sat<T>(static_cast<int>(std::lrint(v)));
}
inline int descale(int64_t x, int n) { return static_cast<int>((x + (int64_t(1) << (n - 1))) >> n); }

#if defined(__AVX2__)
// Eight 3- or 4-channel uint8 pixels as eight int32 lanes holding (c0, c1, c2[, c3]) bytes.
// The 3-channel load reads 4 bytes past the eighth pixel: callers keep 10 pixels of headroom.
inline __m256i load8_px(const uint8_t* p, int scn) {
  if (scn == 4) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 12)), 1);
  const __m256i m = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                     0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
  return _mm256_shuffle_epi8(v, m);
}
inline int px_headroom(int scn) { return scn == 4 ? 8 : 10; }

// Eight int32 lanes (values 0..255) -> 8 bytes.
inline void store8_u8(uint8_t* d, __m256i v) {
  __m256i p16 = _mm256_packus_epi32(v, v);
  __m256i p8 = _mm256_packus_epi16(p16, p16);
  uint32_t lo = uint32_t(_mm256_extract_epi32(p8, 0)), hi = uint32_t(_mm256_extract_epi32(p8, 4));
  std::memcpy(d, &lo, 4);
  std::memcpy(d + 4, &hi, 4);
}

// Eight int32 lanes holding (c0 | c1 << 8 | c2 << 16) -> 24 interleaved bytes.
inline void store8_c3(uint8_t* d, __m256i px) {
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
#endif


#if defined(__AVX512BW__)
// Sixteen 3- or 4-channel uint8 pixels as sixteen int32 lanes (as load8_px); the 3-channel load
// reads 4 bytes past the sixteenth pixel: callers keep 18 pixels of headroom.
inline __m512i load16_px(const uint8_t* p, int scn) {
  if (scn == 4) return _mm512_loadu_si512(p);
  auto ld = [p](int o) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + o)); };
  __m512i v = _mm512_castsi128_si512(ld(0));
  v = _mm512_inserti32x4(v, ld(12), 1);
  v = _mm512_inserti32x4(v, ld(24), 2);
  v = _mm512_inserti32x4(v, ld(36), 3);
  return _mm512_shuffle_epi8(v, _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1)));
}
inline int px_headroom16(int scn) { return scn == 4 ? 16 : 18; }

// Sixteen int32 lanes holding (c0 | c1 << 8 | c2 << 16) -> 48 interleaved bytes.
inline void store16_c3(uint8_t* d, __m512i px) {
  __m512i q = _mm512_shuffle_epi8(px, _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1)));
  q = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0), q);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm512_castsi512_si256(q));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 32), _mm512_extracti32x4_epi32(q, 2));
}
#endif

// ---------------------------------------------------------------------------------------------
// per-pixel conversions over a run of n pixels


template <class T>
void perm_run(const T* s, T* d, int64_t n, int scn, int dcn, const int* map, bool nt) {
  const T amax = static_cast<T>(max_of<T>());
#if defined(__AVX2__)
  if constexpr (std::is_same_v<T, uint8_t>) {
    if (nt && dcn == 4 && scn >= 3) {
      // the 4-channel loop streams whole aligned 32-byte blocks: pixels up to the first one go here
      const int64_t head = std::min<int64_t>(n, static_cast<int64_t>((32 - (reinterpret_cast<uintptr_t>(d) & 31)) & 31) / 4);
      if ((reinterpret_cast<uintptr_t>(d) & 3) != 0) nt = false;
      else
        for (int64_t i = 0; i < head; ++i, s += scn, d += 4, --n)
          for (int c = 0; c < 4; ++c) d[c] = map[c] >= 0 ? s[map[c]] : amax;
    }
    const int64_t done = perm_u8_simd(s, d, n, scn, dcn, map, nt);
    s += done * scn;
    d += done * dcn;
    n -= done;
  }
#endif
  if (scn == 3 && dcn == 3 && map[0] == 2 && map[1] == 1 && map[2] == 0) {
    for (int64_t i = 0; i < n; ++i) {
      T r = s[3 * i], g = s[3 * i + 1], b = s[3 * i + 2];
      d[3 * i] = b, d[3 * i + 1] = g, d[3 * i + 2] = r;
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i, s += scn, d += dcn)
    for (int c = 0; c < dcn; ++c) d[c] = map[c] >= 0 ? s[map[c]] : amax;
}

// Conversions that read and write this many bytes in all (channel permutations and gray, the ones
// that run at memory speed) may write their result with non-temporal stores.
// A 1080p BGR2RGB / BGR2BGRA moves 6 MB in and 6-8 MB out at cache speed, and with ordinary
// stores each output line is first read (for ownership) and later written back: on a shared L3
// (a Zen 3 CCX gives 4 MB a core; this KVM guest's neighbours use the rest) those reads and
// write-backs go to DRAM. Interleaved in one process on the loaded 2-core host, 1080p BGR2RGB
// took a median 3.4 ms with ordinary stores and 0.6-1.4 ms streamed (cv2: 3.7 ms); BGR2BGRA
// 4.1-4.3 against 0.7-3.7 ms (cv2: 4.1-4.9 ms); BGR2GRAY (2 MB out) min 0.46-0.47 against
// 0.36-0.38 ms. The price is paid when nothing else uses the L3: BGR2RGB's best 1080p times
// are 0.19-0.25 ms with ordinary stores against 0.30 ms streamed (cv2: 0.21-0.25 ms), since the
// streamed bytes go all the way to DRAM. The same trade as memcpy's non-temporal threshold
// (a result this large is seldom read back while still cached; a next op that does reads it
// from DRAM) and the engine's copies past 8 MB of destination (strided.h), set here by the
// whole footprint, since a permutation's 6 MB output stays cached only if its input does too.
constexpr int64_t kStreamFootprintBytes = int64_t(6) << 20;

inline bool stream_output(int64_t in_bytes, int64_t out_bytes) { return in_bytes + out_bytes >= kStreamFootprintBytes; }
// Choosing per call was tried and dropped: a timed probe of the source's lines finds them cached
// right after the previous call read them even on a busy L3 (ordinary stores then lost 1.5-2x),
// and a measured cost per store mode needs calls spent on the losing mode, which under load cost
// 4 ms (1080p BGR2BGRA, ordinary) against 0.5 ms streamed: a short benchmark's median caught them.

#if defined(__AVX2__)
// uint8 gray, 32 pixels a step: cv2's (b * c0 + g * c1 + r * c2 + 2^14) >> 15 as two pmaddwd on
// 16-bit pairs (b, g) x (c0, c1) and (r, 1) x (c2, 2^14), where widening each channel to 32 bits
// and three pmulld (two uops each on Zen, ten cycles of latency) cost about twice as much.
// Each 128-bit lane holds 4 pixels (3 channels: one vpermd spreads 24 loaded bytes over the two
// lanes); the four 8-pixel results pack to bytes in the order lane 0 of each, then lane 1, put
// back in pixel order by one vpermd. A 3-channel load reads 8 bytes past its 8 pixels. nt
// streams the stores (stream_output), from the first 32-byte aligned pixel on. Returns how many
// of the n pixels were done.
inline int64_t gray32_u8(const uint8_t* s, uint8_t* d, int64_t n, int scn, uint32_t c0, uint32_t c1, uint32_t c2,
                         bool nt) {
  if (scn != 3 && scn != 4) return 0;
  int64_t i = 0;
  if (nt)  // pixels up to the first aligned store
    for (const int64_t head = std::min<int64_t>(n, (32 - (reinterpret_cast<uintptr_t>(d) & 31)) & 31); i < head; ++i)
      d[i] = static_cast<uint8_t>((s[scn * i] * c0 + s[scn * i + 1] * c1 + s[scn * i + 2] * c2 + 16384u) >> 15);
  const __m256i spread = _mm256_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0);
  const int o = scn;  // byte offsets of the channels of pixel q in a lane: q * scn + c
  const __m256i bg = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, -1, 1, -1, char(o), -1, char(o + 1), -1, char(2 * o), -1,
                                                               char(2 * o + 1), -1, char(3 * o), -1, char(3 * o + 1), -1));
  const __m256i r1 = _mm256_broadcastsi128_si256(_mm_setr_epi8(2, -1, -1, -1, char(o + 2), -1, -1, -1, char(2 * o + 2), -1, -1,
                                                               -1, char(3 * o + 2), -1, -1, -1));
  const __m256i one_hi = _mm256_set1_epi32(1 << 16);
  const __m256i k01 = _mm256_set1_epi32(int(c0 | (c1 << 16))), k2r = _mm256_set1_epi32(int(c2 | (16384u << 16)));
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  auto px8 = [&](const uint8_t* p) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    if (scn == 3) v = _mm256_permutevar8x32_epi32(v, spread);
    const __m256i y = _mm256_add_epi32(_mm256_madd_epi16(_mm256_shuffle_epi8(v, bg), k01),
                                       _mm256_madd_epi16(_mm256_or_si256(_mm256_shuffle_epi8(v, r1), one_hi), k2r));
    return _mm256_srli_epi32(y, 15);
  };
  for (; (i + 32) * scn + (32 - 8 * scn) <= n * scn; i += 32) {
    const uint8_t* p = s + i * scn;
    const __m256i a = px8(p), b = px8(p + 8 * scn), c = px8(p + 16 * scn), e = px8(p + 24 * scn);
    const __m256i y = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, e)), order);
    if (nt) _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i), y);
    else _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), y);
  }
  if (nt) _mm_sfence();
  return i;
}
#endif

template <class T>
void gray_run(const T* s, T* d, int64_t n, int scn, int bidx, bool nt) {
  if constexpr (std::is_same_v<T, float>) {
    const float cb = 0.114f, cg = 0.587f, cr = 0.299f;
    const float c0 = bidx == 0 ? cb : cr, c2 = bidx == 0 ? cr : cb;
    for (int64_t i = 0; i < n; ++i, s += scn) d[i] = s[0] * c0 + s[1] * cg + s[2] * c2;
  } else {
    const uint32_t c0 = bidx == 0 ? 3735 : 9798, c1 = 19235, c2 = bidx == 0 ? 9798 : 3735;
#if defined(__AVX2__)
    if constexpr (std::is_same_v<T, uint8_t>) {
      int64_t i = gray32_u8(s, d, n, scn, c0, c1, c2, nt);
      const __m256i ff = _mm256_set1_epi32(0xff), k0 = _mm256_set1_epi32(int(c0)), k1 = _mm256_set1_epi32(int(c1)),
                    k2 = _mm256_set1_epi32(int(c2)), rnd = _mm256_set1_epi32(16384);
      for (; i + px_headroom(scn) <= n; i += 8) {
        __m256i v = load8_px(s + i * scn, scn);
        __m256i a = _mm256_and_si256(v, ff), b = _mm256_and_si256(_mm256_srli_epi32(v, 8), ff),
                c = _mm256_and_si256(_mm256_srli_epi32(v, 16), ff);
        __m256i y = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(a, k0), _mm256_mullo_epi32(b, k1)),
                                     _mm256_add_epi32(_mm256_mullo_epi32(c, k2), rnd));
        store8_u8(d + i, _mm256_srli_epi32(y, 15));
      }
      s += i * scn;
      d += i;
      n -= i;
    }
#endif
    if (scn == 3) {
      for (int64_t i = 0; i < n; ++i)
        d[i] = static_cast<T>((s[3 * i] * c0 + s[3 * i + 1] * c1 + s[3 * i + 2] * c2 + 16384u) >> 15);
    } else {
      for (int64_t i = 0; i < n; ++i, s += scn) d[i] = static_cast<T>((s[0] * c0 + s[1] * c1 + s[2] * c2 + 16384u) >> 15);
    }
  }
}

template <class T>
void fromgray_run(const T* s, T* d, int64_t n, int dcn) {
  const T amax = static_cast<T>(max_of<T>());
  for (int64_t i = 0; i < n; ++i, d += dcn) {
    d[0] = d[1] = d[2] = s[i];
    if (dcn == 4) d[3] = amax;
  }
}

// cv2's uint8 RGB->HSV division tables (12-bit fixed point).
struct HsvTables {
  int sdiv[256], hdiv180[256], hdiv256[256];
  HsvTables() {
    const int shift = 12;
    sdiv[0] = hdiv180[0] = hdiv256[0] = 0;
    for (int i = 1; i < 256; ++i) {
      sdiv[i] = static_cast<int>(std::lrint((255 << shift) / (1. * i)));
      hdiv180[i] = static_cast<int>(std::lrint((180 << shift) / (6. * i)));
      hdiv256[i] = static_cast<int>(std::lrint((256 << shift) / (6. * i)));
    }
  }
};
const HsvTables& hsv_tables() {
  static const HsvTables t;
  return t;
}

template <class T>
void hsv_run(const T* s, T* d, int64_t n, int scn, int bidx, int hrange, bool hls, bool nt) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    if (!hls) {
      const HsvTables& t = hsv_tables();
      const int* hdiv = hrange == 180 ? t.hdiv180 : t.hdiv256;
      const int shift = 12, round = 1 << (shift - 1);
#if defined(__AVX512BW__)
      {
        // The AVX2 loop below at sixteen pixels per step (masks instead of and/andnot selects).
        const __m512i ff = _mm512_set1_epi32(0xff), vround = _mm512_set1_epi32(round), vhr = _mm512_set1_epi32(hrange);
        const __m512i zero = _mm512_setzero_si512();
        const __m512 snum = _mm512_set1_ps(float(255 << shift)), six = _mm512_set1_ps(6.f);
        const __m512 hnum = _mm512_set1_ps(float(hrange << shift));
        const __m128i sb = _mm_cvtsi32_si128(8 * bidx), sr = _mm_cvtsi32_si128(8 * (bidx ^ 2));
        int64_t i = 0;
        for (; i + px_headroom16(scn) <= n; i += 16) {
          __m512i px = load16_px(s + i * scn, scn);
          __m512i b = _mm512_and_si512(_mm512_srl_epi32(px, sb), ff);
          __m512i g = _mm512_and_si512(_mm512_srli_epi32(px, 8), ff);
          __m512i r = _mm512_and_si512(_mm512_srl_epi32(px, sr), ff);
          __m512i v = _mm512_max_epi32(_mm512_max_epi32(b, g), r);
          __m512i diff = _mm512_sub_epi32(v, _mm512_min_epi32(_mm512_min_epi32(b, g), r));
          __mmask16 vr = _mm512_cmpeq_epi32_mask(v, r), vg = _mm512_cmpeq_epi32_mask(v, g);
          __m512i sdiv = _mm512_cvt_roundps_epi32(_mm512_div_ps(snum, _mm512_cvtepi32_ps(v)),
                                                  _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
          __m512i hd = _mm512_cvt_roundps_epi32(_mm512_div_ps(hnum, _mm512_mul_ps(six, _mm512_cvtepi32_ps(diff))),
                                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
          __m512i sv = _mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(diff, sdiv), vround), shift);
          __m512i h_gb = _mm512_sub_epi32(g, b);
          __m512i h_br = _mm512_add_epi32(_mm512_sub_epi32(b, r), _mm512_slli_epi32(diff, 1));
          __m512i h_rg = _mm512_add_epi32(_mm512_sub_epi32(r, g), _mm512_slli_epi32(diff, 2));
          __m512i h = _mm512_mask_blend_epi32(vr, _mm512_mask_blend_epi32(vg, h_rg, h_br), h_gb);
          h = _mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(h, hd), vround), shift);
          h = _mm512_mask_add_epi32(h, _mm512_cmplt_epi32_mask(h, zero), h, vhr);
          h = _mm512_min_epi32(_mm512_max_epi32(h, zero), ff);
          store16_c3(d + i * 3, _mm512_or_si512(_mm512_or_si512(h, _mm512_slli_epi32(sv, 8)), _mm512_slli_epi32(v, 16)));
        }
        s += i * scn;
        d += i * 3;
        n -= i;
      }
#endif
#if defined(__AVX2__)
      {
        // cv2's integer HSV, eight pixels per step (the same arithmetic as the scalar loop).
        const __m256i ff = _mm256_set1_epi32(0xff), vround = _mm256_set1_epi32(round), vhr = _mm256_set1_epi32(hrange);
        const __m256i zero = _mm256_setzero_si256();
        const __m256 snum = _mm256_set1_ps(float(255 << shift)), six = _mm256_set1_ps(6.f);
        const __m256 hnum = _mm256_set1_ps(float(hrange << shift));
        const int sb = 8 * bidx, sr = 8 * (bidx ^ 2);
        int64_t i = 0;
        for (; i + px_headroom(scn) <= n; i += 8) {
          __m256i px = load8_px(s + i * scn, scn);
          __m256i b = _mm256_and_si256(_mm256_srl_epi32(px, _mm_cvtsi32_si128(sb)), ff);
          __m256i g = _mm256_and_si256(_mm256_srli_epi32(px, 8), ff);
          __m256i r = _mm256_and_si256(_mm256_srl_epi32(px, _mm_cvtsi32_si128(sr)), ff);
          __m256i v = _mm256_max_epi32(_mm256_max_epi32(b, g), r);
          __m256i vmin = _mm256_min_epi32(_mm256_min_epi32(b, g), r);
          __m256i diff = _mm256_sub_epi32(v, vmin);
          __m256i vr = _mm256_cmpeq_epi32(v, r), vg = _mm256_cmpeq_epi32(v, g);
          // The tables' entries without gathers: a float32 quotient rounded to nearest even
          // equals each lrint'ed double entry for every index 1..255 (checked exhaustively).
          // Index 0 gives an undefined value, but it only ever multiplies a zero (diff, h).
          __m256i sdiv = _mm256_cvtps_epi32(_mm256_div_ps(snum, _mm256_cvtepi32_ps(v)));
          __m256i hd = _mm256_cvtps_epi32(_mm256_div_ps(hnum, _mm256_mul_ps(six, _mm256_cvtepi32_ps(diff))));
          __m256i sv = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(diff, sdiv), vround), shift);
          __m256i h_gb = _mm256_sub_epi32(g, b);
          __m256i h_br = _mm256_add_epi32(_mm256_sub_epi32(b, r), _mm256_slli_epi32(diff, 1));
          __m256i h_rg = _mm256_add_epi32(_mm256_sub_epi32(r, g), _mm256_slli_epi32(diff, 2));
          __m256i h = _mm256_add_epi32(_mm256_and_si256(vr, h_gb),
                                       _mm256_andnot_si256(vr, _mm256_add_epi32(_mm256_and_si256(vg, h_br), _mm256_andnot_si256(vg, h_rg))));
          h = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(h, hd), vround), shift);
          h = _mm256_add_epi32(h, _mm256_and_si256(_mm256_cmpgt_epi32(zero, h), vhr));
          h = _mm256_min_epi32(_mm256_max_epi32(h, zero), ff);
          store8_c3(d + i * 3, _mm256_or_si256(_mm256_or_si256(h, _mm256_slli_epi32(sv, 8)), _mm256_slli_epi32(v, 16)));
        }
        s += i * scn;
        d += i * 3;
        n -= i;
      }
#endif
      for (int64_t i = 0; i < n; ++i, s += scn, d += 3) {
        int b = s[bidx], g = s[1], r = s[bidx ^ 2];
        int v = std::max(std::max(r, g), b), vmin = std::min(std::min(r, g), b);
        int diff = v - vmin;
        int vr = v == r ? -1 : 0, vg = v == g ? -1 : 0;
        int sv = (diff * t.sdiv[v] + round) >> shift;
        int h = (vr & (g - b)) + (~vr & ((vg & (b - r + 2 * diff)) + ((~vg) & (r - g + 4 * diff))));
        h = (h * hdiv[diff] + round) >> shift;
        h += h < 0 ? hrange : 0;
        d[0] = sat<uint8_t>(h);
        d[1] = static_cast<uint8_t>(sv);
        d[2] = static_cast<uint8_t>(v);
      }
    } else {
      hls_row_u8(s, d, int(n), scn, bidx, hrange);  // (rows take the row path: ColorKernel::run_t)
    }
  } else if constexpr (std::is_same_v<T, float>) {
    hsv_run_f32(s, d, n, scn, bidx, hrange, hls, nt);
  }
}

template <class T>
void hsv_inv_run(const T* s, T* d, int64_t n, int dcn, int bidx, int hrange, bool hls, bool nt) {
  if constexpr (std::is_same_v<T, uint8_t>) hsv_inv_row_u8(s, d, int(n), dcn, bidx, hrange, hls);  // as hls_row_u8 above
  else if constexpr (std::is_same_v<T, float>) hsv_inv_run_f32(s, d, n, dcn, bidx, hrange, hls, nt);
}

// YCrCb (yuv=0: Y, Cr, Cb) and YUV (yuv=1: Y, U, V).
template <class T>
void ycc_run(const T* s, T* d, int64_t n, int scn, int bidx, bool yuv) {
  if constexpr (std::is_same_v<T, float>) {
    const float cr = 0.299f, cg = 0.587f, cb = 0.114f;
    const float c3 = yuv ? 0.877f : 0.713f, c4 = yuv ? 0.492f : 0.564f;  // (R-Y) and (B-Y) gains
    const float delta = 0.5f;
    const float c0 = bidx == 0 ? cb : cr, c2 = bidx == 0 ? cr : cb;
    for (int64_t i = 0; i < n; ++i, s += scn, d += 3) {
      float Y = s[0] * c0 + s[1] * cg + s[2] * c2;
      float vr = (s[bidx ^ 2] - Y) * c3 + delta, vb = (s[bidx] - Y) * c4 + delta;
      d[0] = Y;
      d[1] = yuv ? vb : vr;
      d[2] = yuv ? vr : vb;
    }
  } else {
    const int shift = 14;
    const int64_t cr = 4899, cg = 9617, cb = 1868;
    const int64_t c3 = yuv ? 14369 : 11682, c4 = yuv ? 8061 : 9241;
    const int64_t delta = int64_t(half_of<T>()) << shift;
    for (int64_t i = 0; i < n; ++i, s += scn, d += 3) {
      int64_t b = s[bidx], g = s[1], r = s[bidx ^ 2];
      int Y = descale(b * cb + g * cg + r * cr, shift);
      T vr = sat<T>(descale((r - Y) * c3 + delta, shift)), vb = sat<T>(descale((b - Y) * c4 + delta, shift));
      d[0] = sat<T>(Y);
      d[1] = yuv ? vb : vr;
      d[2] = yuv ? vr : vb;
    }
  }
}

template <class T>
void ycc_inv_run(const T* s, T* d, int64_t n, int dcn, int bidx, bool yuv) {
  const T amax = static_cast<T>(max_of<T>());
  if constexpr (std::is_same_v<T, float>) {
    // YCrCb: r = Y + 1.403 Cr', g = Y - 0.714 Cr' - 0.344 Cb', b = Y + 1.773 Cb'
    // YUV:   r = Y + 1.140 V',  g = Y - 0.581 V' - 0.395 U',   b = Y + 2.032 U'
    const float kr = yuv ? 1.140f : 1.403f, kgr = yuv ? -0.581f : -0.714f, kgb = yuv ? -0.395f : -0.344f,
                kb = yuv ? 2.032f : 1.773f;
    for (int64_t i = 0; i < n; ++i, s += 3, d += dcn) {
      float Y = s[0];
      float vr = (yuv ? s[2] : s[1]) - 0.5f, vb = (yuv ? s[1] : s[2]) - 0.5f;
      float b = Y + vb * kb, g = Y + vb * kgb + vr * kgr, r = Y + vr * kr;
      d[bidx] = b, d[1] = g, d[bidx ^ 2] = r;
      if (dcn == 4) d[3] = amax;
    }
  } else {
    const int shift = 14;
    const int64_t kr = yuv ? 18678 : 22987, kgr = yuv ? -9519 : -11698, kgb = yuv ? -6472 : -5636,
                  kb = yuv ? 33292 : 29049;
    const int64_t delta = half_of<T>();
    for (int64_t i = 0; i < n; ++i, s += 3, d += dcn) {
      int64_t Y = s[0];
      int64_t vr = int64_t(yuv ? s[2] : s[1]) - delta, vb = int64_t(yuv ? s[1] : s[2]) - delta;
      d[bidx] = sat<T>(Y + descale(vb * kb, shift));
      d[1] = sat<T>(Y + descale(vb * kgb + vr * kgr, shift));
      d[bidx ^ 2] = sat<T>(Y + descale(vr * kr, shift));
      if (dcn == 4) d[3] = amax;
    }
  }
}

const double kMatRgb2Xyz[9] = {0.412453, 0.357580, 0.180423, 0.212671, 0.715160, 0.072169, 0.019334, 0.119193, 0.950227};
const double kMatXyz2Rgb[9] = {3.240479, -1.53715, -0.498535, -0.969256, 1.875991, 0.041556, 0.055648, -0.204043, 1.057311};

template <class T>
void xyz_run(const T* s, T* d, int64_t n, int scn, int bidx) {
  // rows of kRgb2Xyz take (R, G, B)
  if constexpr (std::is_same_v<T, float>) {
    float c[9];
    for (int i = 0; i < 9; ++i) c[i] = static_cast<float>(kMatRgb2Xyz[i]);
    for (int64_t i = 0; i < n; ++i, s += scn, d += 3) {
      float r = s[bidx ^ 2], g = s[1], b = s[bidx];
      for (int k = 0; k < 3; ++k) d[k] = r * c[3 * k] + g * c[3 * k + 1] + b * c[3 * k + 2];
    }
  } else {
    int64_t c[9];
    for (int i = 0; i < 9; ++i) c[i] = std::lrint(kMatRgb2Xyz[i] * 4096);
    for (int64_t i = 0; i < n; ++i, s += scn, d += 3) {
      int64_t r = s[bidx ^ 2], g = s[1], b = s[bidx];
      for (int k = 0; k < 3; ++k) d[k] = sat<T>(descale(r * c[3 * k] + g * c[3 * k + 1] + b * c[3 * k + 2], 12));
    }
  }
}

template <class T>
void xyz_inv_run(const T* s, T* d, int64_t n, int dcn, int bidx) {
  const T amax = static_cast<T>(max_of<T>());
  if constexpr (std::is_same_v<T, float>) {
    float c[9];
    for (int i = 0; i < 9; ++i) c[i] = static_cast<float>(kMatXyz2Rgb[i]);
    for (int64_t i = 0; i < n; ++i, s += 3, d += dcn) {
      float x = s[0], y = s[1], z = s[2];
      d[bidx ^ 2] = x * c[0] + y * c[1] + z * c[2];
      d[1] = x * c[3] + y * c[4] + z * c[5];
      d[bidx] = x * c[6] + y * c[7] + z * c[8];
      if (dcn == 4) d[3] = amax;
    }
  } else {
    int64_t c[9];
    for (int i = 0; i < 9; ++i) c[i] = std::lrint(kMatXyz2Rgb[i] * 4096);
    for (int64_t i = 0; i < n; ++i, s += 3, d += dcn) {
      int64_t x = s[0], y = s[1], z = s[2];
      d[bidx ^ 2] = sat<T>(descale(x * c[0] + y * c[1] + z * c[2], 12));
      d[1] = sat<T>(descale(x * c[3] + y * c[4] + z * c[5], 12));
      d[bidx] = sat<T>(descale(x * c[6] + y * c[7] + z * c[8], 12));
      if (dcn == 4) d[3] = amax;
    }
  }
}

// BT.601 camera YUV (video range), 20-bit fixed point.
constexpr int kShift = 20;
constexpr int kCY = 1220542, kCUB = 2116026, kCUG = -409993, kCVG = -852492, kCVR = 1673527;
constexpr int kCRY = 269484, kCGY = 528482, kCBY = 102760, kCRU = -155188, kCGU = -305135, kCBU = 460324,
              kCGV = -385875, kCBV = -74448;

inline void yuv2rgb_px(int Y, int ruv, int guv, int buv, uint8_t* d, int dcn, int bidx) {
  int y = std::max(0, Y - 16) * kCY;
  d[bidx ^ 2] = sat<uint8_t>((y + ruv) >> kShift);
  d[1] = sat<uint8_t>((y + guv) >> kShift);
  d[bidx] = sat<uint8_t>((y + buv) >> kShift);
  if (dcn == 4) d[3] = 255;
}

// Rows [r0, r1) of 2-row pairs; u/v index the chroma sample of block (j, i).
template <class ChromaFn>
void yuv420_to_rgb_rows(const uint8_t* Yp, uint8_t* out, int w, int dcn, int bidx, int64_t r0, int64_t r1, ChromaFn chroma) {
  for (int64_t j = r0; j < r1; ++j) {
    const uint8_t* y0 = Yp + size_t(2 * j) * w;
    const uint8_t* y1 = y0 + w;
    uint8_t* d0 = out + size_t(2 * j) * w * dcn;
    uint8_t* d1 = d0 + size_t(w) * dcn;
    for (int i = 0; i < w / 2; ++i) {
      int u, v;
      chroma(j, i, u, v);
      u -= 128;
      v -= 128;
      int ruv = (1 << (kShift - 1)) + kCVR * v;
      int guv = (1 << (kShift - 1)) + kCVG * v + kCUG * u;
      int buv = (1 << (kShift - 1)) + kCUB * u;
      yuv2rgb_px(y0[2 * i], ruv, guv, buv, d0 + 2 * i * dcn, dcn, bidx);
      yuv2rgb_px(y0[2 * i + 1], ruv, guv, buv, d0 + (2 * i + 1) * dcn, dcn, bidx);
      yuv2rgb_px(y1[2 * i], ruv, guv, buv, d1 + 2 * i * dcn, dcn, bidx);
      yuv2rgb_px(y1[2 * i + 1], ruv, guv, buv, d1 + (2 * i + 1) * dcn, dcn, bidx);
    }
  }
}

class ColorKernel final : public backend::Kernel {
 public:
  explicit ColorKernel(const backend::StepDesc& s) : dtype_(s.output.dtype), p_(s.params->ints) {
    const Shape& a = s.inputs[0].shape;
    h_ = a[0];
    w_ = a[1];
    npix_ = h_ * w_;
  }

  void run(char* const* in, char* out) override {
    switch (dtype_) {
      case DType::UInt8: run_t<uint8_t>(in, out); break;
      case DType::UInt16: run_t<uint16_t>(in, out); break;
      default: run_t<float>(in, out); break;
    }
  }

 private:
  template <class T>
  void run_t(char* const* in, char* out) {
    const int op = static_cast<int>(p_[0]);
    if (op == kYuv420sp2Rgb || op == kYuv420p2Rgb || op == kRgb2Yuv420p) {
      if constexpr (std::is_same_v<T, uint8_t>) run_yuv420(in, out);
      return;
    }
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    int scn = 3, dcn = 3;
    switch (op) {
      case kPerm: scn = int(p_[1]); dcn = int(p_[2]); break;
      case kRgb2Gray: scn = int(p_[1]); dcn = 1; break;
      case kGray2Rgb: scn = 1; dcn = int(p_[1]); break;
      case kRgb2Hsv: case kRgb2Ycc: case kRgb2Xyz: case kRgb2Lab: case kRgb2Luv: scn = int(p_[1]); break;
      case kHsv2Rgb: case kYcc2Rgb: case kXyz2Rgb: case kLab2Rgb: case kLuv2Rgb: dcn = int(p_[1]); break;
      default: break;
    }
    if constexpr (std::is_same_v<T, uint8_t>) {
      const bool hls = op == kRgb2Hsv || op == kHsv2Rgb ? p_[4] != 0 : false;
      if ((op == kRgb2Hsv && hls) || op == kHsv2Rgb) {
        const int w = static_cast<int>(w_);
        parallel_for(h_, std::max<int64_t>(1, 4096 / std::max(w, 1)), [&](int64_t r0, int64_t r1) {
          for (int64_t y = r0; y < r1; ++y) {
            const bool ipp = p_.size() > 5 && p_[5] != 0;  // IPP's arithmetic (x86 builds of cv2)
            (void)ipp;
            if (op == kRgb2Hsv) {
#if defined(__SSE__) || defined(__x86_64__) || defined(_M_X64)
              if (ipp) {
                hls_full_ipp_row_u8(src + size_t(y) * w * scn, dst + size_t(y) * w * 3, w, scn, int(p_[2]));
                continue;
              }
#endif
              hls_row_u8(src + size_t(y) * w * scn, dst + size_t(y) * w * 3, w, scn, int(p_[2]), int(p_[3]));
            } else {
#if defined(__SSE__) || defined(__x86_64__) || defined(_M_X64)
              if (ipp) {
                hsv_full_ipp_inv_row_u8(src + size_t(y) * w * 3, dst + size_t(y) * w * dcn, w, dcn, int(p_[2]));
                continue;
              }
#endif
              hsv_inv_row_u8(src + size_t(y) * w * 3, dst + size_t(y) * w * dcn, w, dcn, int(p_[2]), int(p_[3]), hls);
            }
          }
        });
        return;
      }
    }
    if (op == kRgb2Lab || op == kRgb2Luv || op == kLab2Rgb || op == kLuv2Rgb) {
      run_lab<T>(src, dst, op, scn, dcn);
      return;
    }
    int map[4] = {0, 1, 2, 3};
    if (op == kPerm)
      for (int c = 0; c < dcn; ++c) map[c] = int(p_[3 + c]);
    // A channel permutation moves bytes at memory speed: small chunks would spend a visible
    // share of it on per-chunk set-up (its shuffle masks) and dispatch.
    const int64_t grain = op == kPerm ? int64_t(1) << 18 : int64_t(1) << 14;
    // float HSV/HLS stream only past 32 MB in all: at 1080p (50 MB) streaming took ~10% off the
    // forward conversions, while at 512x512 (6 MB, still cached) it made HSV2BGR 1.5x slower
    const bool hsv_f32 = std::is_same_v<T, float> && (op == kRgb2Hsv || op == kHsv2Rgb);
    const int64_t footprint = npix_ * (scn + dcn) * int64_t(sizeof(T));
    const bool nt = ((op == kPerm || op == kRgb2Gray) && stream_output(npix_ * scn * int64_t(sizeof(T)), npix_ * dcn * int64_t(sizeof(T)))) ||
                    (hsv_f32 && footprint >= (int64_t(32) << 20));
    parallel_for(npix_, grain, [&](int64_t lo, int64_t hi) {
      const T* s = src + lo * scn;
      T* d = dst + lo * dcn;
      int64_t n = hi - lo;
      switch (op) {
        case kPerm: perm_run<T>(s, d, n, scn, dcn, map, nt); break;
        case kRgb2Gray: gray_run<T>(s, d, n, scn, int(p_[2]), nt); break;
        case kGray2Rgb: fromgray_run<T>(s, d, n, dcn); break;
        case kRgb2Hsv: hsv_run<T>(s, d, n, scn, int(p_[2]), int(p_[3]), p_[4] != 0, nt); break;
        case kHsv2Rgb: hsv_inv_run<T>(s, d, n, dcn, int(p_[2]), int(p_[3]), p_[4] != 0, nt); break;
        case kRgb2Ycc: ycc_run<T>(s, d, n, scn, int(p_[2]), p_[3] != 0); break;
        case kYcc2Rgb: ycc_inv_run<T>(s, d, n, dcn, int(p_[2]), p_[3] != 0); break;
        case kRgb2Xyz: xyz_run<T>(s, d, n, scn, int(p_[2])); break;
        case kXyz2Rgb: xyz_inv_run<T>(s, d, n, dcn, int(p_[2])); break;
        default: break;
      }
    });
  }

  // Lab/Luv (color_lab.cpp) go row by row: cv2's float code treats a row's first pixels (blocks
  // of 8) and its tail differently, so the result depends on the position in the row.
  template <class T>
  void run_lab(const T* src, T* dst, int op, int scn, int dcn) {
    const int bidx = int(p_[2]);
    const bool srgb = p_[3] != 0, fwd = op == kRgb2Lab || op == kRgb2Luv, luv = op == kRgb2Luv || op == kLuv2Rgb;
    const int64_t w = w_;
    const int64_t in_step = w * (fwd ? scn : 3), out_step = w * (fwd ? 3 : dcn);
    parallel_for(h_, std::max<int64_t>(1, 8192 / std::max<int64_t>(w, 1)), [&](int64_t r0, int64_t r1) {
      for (int64_t y = r0; y < r1; ++y) {
        const T* s = src + y * in_step;
        T* d = dst + y * out_step;
        if constexpr (std::is_same_v<T, uint8_t>) {
          if (fwd) lab_forward_row_u8(s, d, w, scn, bidx, srgb, luv);
          else lab_inverse_row_u8(s, d, w, dcn, bidx, srgb, luv);
        } else if constexpr (std::is_same_v<T, float>) {
          if (fwd) lab_forward_row_f32(s, d, w, scn, bidx, srgb, luv);
          else lab_inverse_row_f32(s, d, w, dcn, bidx, srgb, luv);
        }
      }
    });
  }

  void run_yuv420(char* const* in, char* out) {
    const int op = static_cast<int>(p_[0]);
    const int w = static_cast<int>(w_);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    if (op == kYuv420sp2Rgb) {
      const int dcn = int(p_[1]), bidx = int(p_[2]), uidx = int(p_[3]);
      const uint8_t* Y = reinterpret_cast<const uint8_t*>(in[0]);
      const uint8_t* UV = reinterpret_cast<const uint8_t*>(in[1]);
      parallel_for(h_ / 2, 8, [&](int64_t r0, int64_t r1) {
        yuv420_to_rgb_rows(Y, dst, w, dcn, bidx, r0, r1, [&](int64_t j, int i, int& u, int& v) {
          const uint8_t* p = UV + size_t(j) * w + 2 * i;
          u = p[uidx];
          v = p[1 - uidx];
        });
      });
    } else if (op == kYuv420p2Rgb) {
      const int dcn = int(p_[1]), bidx = int(p_[2]);
      const uint8_t* Y = reinterpret_cast<const uint8_t*>(in[0]);
      const uint8_t* U = reinterpret_cast<const uint8_t*>(in[1]);
      const uint8_t* V = reinterpret_cast<const uint8_t*>(in[2]);
      parallel_for(h_ / 2, 8, [&](int64_t r0, int64_t r1) {
        yuv420_to_rgb_rows(Y, dst, w, dcn, bidx, r0, r1, [&](int64_t j, int i, int& u, int& v) {
          size_t k = size_t(j) * (w / 2) + i;
          u = U[k];
          v = V[k];
        });
      });
    } else {
      const int scn = int(p_[1]), bidx = int(p_[2]), uidx = int(p_[3]);
      const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
      const int64_t h = h_;
      const size_t plane = size_t(h / 2) * (w / 2);
      uint8_t* Yd = dst;
      uint8_t* Ud = dst + size_t(h) * w + (uidx ? plane : 0);
      uint8_t* Vd = dst + size_t(h) * w + (uidx ? 0 : plane);
      const int s16 = (16 << kShift) + (1 << (kShift - 1)), s128 = (128 << kShift) + (1 << (kShift - 1));
      parallel_for(h / 2, 8, [&](int64_t r0, int64_t r1) {
        for (int64_t j = r0; j < r1; ++j)
          for (int rr = 0; rr < 2; ++rr) {
            const uint8_t* s = src + size_t(2 * j + rr) * w * scn;
            uint8_t* yd = Yd + size_t(2 * j + rr) * w;
            for (int i = 0; i < w; ++i, s += scn) {
              int r = s[bidx ^ 2], g = s[1], b = s[bidx];
              yd[i] = sat<uint8_t>((kCRY * r + kCGY * g + kCBY * b + s16) >> kShift);
              if (rr == 0 && (i & 1) == 0) {
                size_t k = size_t(j) * (w / 2) + i / 2;
                Ud[k] = sat<uint8_t>((kCRU * r + kCGU * g + kCBU * b + s128) >> kShift);
                Vd[k] = sat<uint8_t>((kCBU * r + kCGV * g + kCBV * b + s128) >> kShift);
              }
            }
          }
      });
    }
  }

  DType dtype_;
  std::vector<int64_t> p_;
  int64_t h_ = 0, w_ = 0, npix_ = 0;
};

std::unique_ptr<backend::Kernel> prepare_color(const backend::StepDesc& s) { return std::make_unique<ColorKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_color, "cv_color", &prepare_color);

}  // namespace mnn::cpu::MNN_ISA_NS
