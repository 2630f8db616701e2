// cv_color_422 (shape rule: ops/cv/color_ext.cpp): packed YUV 4:2:2 (YUY2, UYVY, YVYU) to and
// from BGR(A)/RGB(A), and its Y channel as gray, with cv2's fixed-point arithmetic.
//
// Two pixels share 4 bytes: two Y samples at byte yidx and yidx + 2, U and V in the other two
// (U at 1 - yidx + 2 * uidx). Decoding is BT.601 video range with 20-bit weights (as the 4:2:0
// formats in simd/cv/color.cpp); encoding uses cv2's separate 14-bit 4:2:2 weights, with one U/V
// pair from the sum of the two pixels' channels.
//
// Compiled once per ISA (simd/): on AVX2 targets decoding takes 16 pixels a step in 32-bit lanes
// with the scalar loop's integer arithmetic, so every target gives the same bytes.
#include <algorithm>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

inline uint8_t sat_u8(int v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

// decode: BT.601, 20-bit fixed point
constexpr int kShift = 20;
constexpr int kCY = 1220542, kCUB = 2116026, kCUG = -409993, kCVG = -852492, kCVR = 1673527;

inline void decode_px(int Y, int ruv, int guv, int buv, uint8_t* d, int dcn, int bidx) {
  const int y = std::max(0, Y - 16) * kCY;
  d[bidx ^ 2] = sat_u8((y + ruv) >> kShift);
  d[1] = sat_u8((y + guv) >> kShift);
  d[bidx] = sat_u8((y + buv) >> kShift);
  if (dcn == 4) d[3] = 255;
}

// Templated on the layout so the byte offsets are constants (the compiler then keeps the
// whole pair in registers).
#if defined(__AVX2__)
// Byte k of each 32-bit lane (one pixel pair: two Y, one U, one V).
template <int k>
inline __m256i byte_of(__m256i w) {
  if constexpr (k == 3) return _mm256_srli_epi32(w, 24);
  else return _mm256_and_si256(_mm256_srli_epi32(w, 8 * k), _mm256_set1_epi32(0xff));
}

// 16 pixels (32 source bytes) a step; returns the pixels done. Each 32-bit lane is one pixel
// pair, so U, V and both Y come out with shifts and masks, the chroma terms are computed once
// per pair, and even / odd pixels are two 8-lane vectors: no cross-lane shuffles. The packs
// leave each 128-bit lane holding its 8 pixels' channels in a fixed order (even pixels, then
// odd, per channel), and two byte shuffles per output chunk interleave them.
template <int dcn, int bidx, int ui, int vi, int yi>
int64_t decode_row_avx2(const uint8_t* s, uint8_t* d, int64_t w) {
  // P1 bytes: c0 at 0-7, c1 at 8-15; P2: c2 at 0-7, 255 at 8-15 (per lane, 8 pixels). Pixel p
  // of a channel block sits at p / 2 (even p) or 4 + p / 2 (odd p).
  alignas(32) int8_t mk[2][2][32];  // [output chunk][source P1 / P2], both lanes alike
  for (int chunk = 0; chunk < 2; ++chunk)
    for (int o = 0; o < 16; ++o) {
      const int byte = 16 * chunk + o, p = byte / dcn, ch = byte % dcn;
      const int at = (p & 1) ? 4 + p / 2 : p / 2;
      int8_t from1 = -1, from2 = -1;
      if (p < 8) {
        if (ch < 2) from1 = static_cast<int8_t>(8 * ch + at);
        else from2 = static_cast<int8_t>(ch == 2 ? at : 8);
      }
      for (int l = 0; l < 2; ++l) mk[chunk][0][16 * l + o] = from1, mk[chunk][1][16 * l + o] = from2;
    }
  auto ldm = [&](int c, int src) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(mk[c][src])); };
  const __m256i m00 = ldm(0, 0), m01 = ldm(0, 1), m10 = ldm(1, 0), m11 = ldm(1, 1);
  const __m256i c16 = _mm256_set1_epi32(16), c128 = _mm256_set1_epi32(128), zero = _mm256_setzero_si256();
  const __m256i cy = _mm256_set1_epi32(kCY), cub = _mm256_set1_epi32(kCUB), cug = _mm256_set1_epi32(kCUG),
                cvg = _mm256_set1_epi32(kCVG), cvr = _mm256_set1_epi32(kCVR), half = _mm256_set1_epi32(1 << (kShift - 1));
  const __m256i alpha = _mm256_set1_epi16(255);
  auto ycoef = [&](__m256i y) { return _mm256_mullo_epi32(_mm256_max_epi32(_mm256_sub_epi32(y, c16), zero), cy); };
  auto chan = [&](__m256i ye, __m256i yo, __m256i c) {  // int16: even pixels' 4, odd pixels' 4 per lane
    return _mm256_packs_epi32(_mm256_srai_epi32(_mm256_add_epi32(ye, c), kShift),
                              _mm256_srai_epi32(_mm256_add_epi32(yo, c), kShift));
  };
  int64_t i = 0;
  for (; i + 16 <= w; i += 16, s += 32, d += 16 * dcn) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s));
    const __m256i ye = ycoef(byte_of<yi>(x)), yo = ycoef(byte_of<yi + 2>(x));
    const __m256i u = _mm256_sub_epi32(byte_of<ui>(x), c128), v = _mm256_sub_epi32(byte_of<vi>(x), c128);
    const __m256i ruv = _mm256_add_epi32(half, _mm256_mullo_epi32(v, cvr));
    const __m256i guv = _mm256_add_epi32(_mm256_add_epi32(half, _mm256_mullo_epi32(v, cvg)), _mm256_mullo_epi32(u, cug));
    const __m256i buv = _mm256_add_epi32(half, _mm256_mullo_epi32(u, cub));
    const __m256i r = chan(ye, yo, ruv), g = chan(ye, yo, guv), b = chan(ye, yo, buv);
    const __m256i p1 = _mm256_packus_epi16(bidx == 0 ? b : r, g), p2 = _mm256_packus_epi16(bidx == 0 ? r : b, alpha);
    const __m256i o0 = _mm256_or_si256(_mm256_shuffle_epi8(p1, m00), _mm256_shuffle_epi8(p2, m01));
    const __m256i o1 = _mm256_or_si256(_mm256_shuffle_epi8(p1, m10), _mm256_shuffle_epi8(p2, m11));
    // lane 0 holds pixels 0-7, lane 1 pixels 8-15: 8 * dcn bytes each
    auto st16 = [](uint8_t* q, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(q), v); };
    st16(d, _mm256_castsi256_si128(o0));
    if (dcn == 4) st16(d + 16, _mm256_castsi256_si128(o1));
    else _mm_storel_epi64(reinterpret_cast<__m128i*>(d + 16), _mm256_castsi256_si128(o1));
    st16(d + 8 * dcn, _mm256_extracti128_si256(o0, 1));
    if (dcn == 4) st16(d + 48, _mm256_extracti128_si256(o1, 1));
    else _mm_storel_epi64(reinterpret_cast<__m128i*>(d + 40), _mm256_extracti128_si256(o1, 1));
  }
  return i;
}
#endif

template <int dcn, int bidx, int ui, int vi, int yi>
void decode_row(const uint8_t* s, uint8_t* d, int64_t w) {
  int64_t i = 0;
#if defined(__AVX2__)
  i = decode_row_avx2<dcn, bidx, ui, vi, yi>(s, d, w);
  s += 2 * i, d += dcn * i;
#endif
  for (; i + 1 < w; i += 2, s += 4, d += 2 * dcn) {
    const int u = s[ui] - 128, v = s[vi] - 128;
    const int ruv = (1 << (kShift - 1)) + kCVR * v;
    const int guv = (1 << (kShift - 1)) + kCVG * v + kCUG * u;
    const int buv = (1 << (kShift - 1)) + kCUB * u;
    decode_px(s[yi], ruv, guv, buv, d, dcn, bidx);
    decode_px(s[yi + 2], ruv, guv, buv, d + dcn, dcn, bidx);
  }
}

// encode: cv2's 4:2:2 weights (x 16384; U/V weights x 8192 applied to two-pixel sums)
constexpr int kEShift = 14;
constexpr int kR2Y = 4211, kG2Y = 8258, kB2Y = 1606;
constexpr int kR2U = -1212, kG2U = -2384, kB2U = 3596, kG2V = -3015, kB2V = -582;

void encode_row(const uint8_t* s, uint8_t* d, int64_t w, int scn, int bidx, int ui, int vi, int yi) {
  const int half = 1 << (kEShift - 1);
  for (int64_t i = 0; i + 1 < w; i += 2, s += 2 * scn, d += 4) {
    const int r1 = s[bidx ^ 2], g1 = s[1], b1 = s[bidx];
    const int r2 = s[scn + (bidx ^ 2)], g2 = s[scn + 1], b2 = s[scn + bidx];
    d[yi] = sat_u8((half + r1 * kR2Y + g1 * kG2Y + b1 * kB2Y + (16 << kEShift)) >> kEShift);
    d[yi + 2] = sat_u8((half + r2 * kR2Y + g2 * kG2Y + b2 * kB2Y + (16 << kEShift)) >> kEShift);
    const int sr = r1 + r2, sg = g1 + g2, sb = b1 + b2;
    d[ui] = sat_u8((half + sr * kR2U + sg * kG2U + sb * kB2U + half * 256) >> kEShift);
    d[vi] = sat_u8((half + sr * kB2U + sg * kG2V + sb * kB2V + half * 256) >> kEShift);
  }
}

using DecodeFn = void (*)(const uint8_t*, uint8_t*, int64_t);

template <int dcn, int bidx>
DecodeFn pick_layout(int yi, int ui) {
  if (yi == 1) return &decode_row<dcn, bidx, 0, 2, 1>;  // UYVY
  if (ui == 1) return &decode_row<dcn, bidx, 1, 3, 0>;  // YUY2
  return &decode_row<dcn, bidx, 3, 1, 0>;               // YVYU
}

DecodeFn pick_decode(int dcn, int bidx, int yi, int ui) {
  if (dcn == 3) return bidx == 0 ? pick_layout<3, 0>(yi, ui) : pick_layout<3, 2>(yi, ui);
  return bidx == 0 ? pick_layout<4, 0>(yi, ui) : pick_layout<4, 2>(yi, ui);
}

class Yuv422Kernel final : public backend::Kernel {
 public:
  explicit Yuv422Kernel(const backend::StepDesc& s) {
    const auto& p = s.params->ints;
    dir_ = int(p[0]), cn_ = int(p[1]), bidx_ = int(p[2]);
    const int uidx = int(p[3]);
    yi_ = int(p[4]);
    ui_ = 1 - yi_ + 2 * uidx;
    vi_ = (ui_ + 2) % 4;
    h_ = s.inputs[0].shape[0];
    w_ = s.inputs[0].shape[1];
  }

  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    const int64_t w = w_;
    const int scn = dir_ == 1 ? cn_ : 2, dcn = dir_ == 0 ? cn_ : dir_ == 1 ? 2 : 1;
    const DecodeFn decode = pick_decode(cn_, bidx_, yi_, ui_);
    parallel_for(h_, std::max<int64_t>(1, 16384 / std::max<int64_t>(w, 1)), [&](int64_t r0, int64_t r1) {
      for (int64_t y = r0; y < r1; ++y) {
        const uint8_t* s = src + y * w * scn;
        uint8_t* d = dst + y * w * dcn;
        if (dir_ == 0) decode(s, d, w);
        else if (dir_ == 1) encode_row(s, d, w, cn_, bidx_, ui_, vi_, yi_);
        else
          for (int64_t x = 0; x < w; ++x) d[x] = s[2 * x + yi_];
      }
    });
  }

 private:
  int dir_ = 0, cn_ = 3, bidx_ = 0, ui_ = 1, vi_ = 3, yi_ = 0;
  int64_t h_ = 0, w_ = 0;
};

std::unique_ptr<backend::Kernel> prepare_yuv422(const backend::StepDesc& s) { return std::make_unique<Yuv422Kernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_color_422, "cv_color_422", &prepare_yuv422);

}  // namespace mnn::cpu::MNN_ISA_NS
