// cv_color_422 (shape rule: ops/cv/color_ext.cpp): packed YUV 4:2:2 (YUY2, UYVY, YVYU) to and
// from BGR(A)/RGB(A), and its Y channel as gray, with cv2's fixed-point arithmetic.
//
// Two pixels share 4 bytes: two Y samples at byte yidx and yidx + 2, U and V in the other two
// (U at 1 - yidx + 2 * uidx). Decoding is BT.601 video range with 20-bit weights (as the 4:2:0
// formats in simd/cv/color.cpp); encoding uses cv2's separate 14-bit 4:2:2 weights, with one U/V
// pair from the sum of the two pixels' channels.
//
// Compiled once per ISA (simd/): on AVX2 targets decoding takes 16 pixels a step in 32-bit lanes,
// the same integer arithmetic as the scalar loop, so every target gives the same bytes.
#include <algorithm>
#include <cstdint>

#include "backends/cpu/simd/cv/interleave_u8.h"
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
// 16 pixels (32 source bytes) a step; returns the pixels done. The chroma terms are computed
// once per pair (8 lanes) and spread to both pixels with a lane permute.
template <int dcn, int bidx, int ui, int vi, int yi>
int64_t decode_row_avx2(const uint8_t* s, uint8_t* d, int64_t w) {
  alignas(32) int8_t sh[32];
  for (int l = 0; l < 2; ++l)
    for (int k = 0; k < 8; ++k) {
      sh[16 * l + k] = static_cast<int8_t>(yi + 2 * k);
      if (k < 4) sh[16 * l + 8 + k] = static_cast<int8_t>(ui + 4 * k), sh[16 * l + 12 + k] = static_cast<int8_t>(vi + 4 * k);
    }
  const __m256i split = _mm256_load_si256(reinterpret_cast<const __m256i*>(sh));
  const __m128i uv_order = _mm_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
  const __m256i dup_lo = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3), dup_hi = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
  const __m256i c16 = _mm256_set1_epi32(16), c128 = _mm256_set1_epi32(128), zero = _mm256_setzero_si256();
  const __m256i cy = _mm256_set1_epi32(kCY), cub = _mm256_set1_epi32(kCUB), cug = _mm256_set1_epi32(kCUG),
                cvg = _mm256_set1_epi32(kCVG), cvr = _mm256_set1_epi32(kCVR), half = _mm256_set1_epi32(1 << (kShift - 1));
  auto chan = [&](__m256i ya, __m256i yb, __m256i c) {  // (y + c) >> 20 for 16 pixels -> 16 saturated bytes
    const __m256i a = _mm256_srai_epi32(_mm256_add_epi32(ya, _mm256_permutevar8x32_epi32(c, dup_lo)), kShift);
    const __m256i b = _mm256_srai_epi32(_mm256_add_epi32(yb, _mm256_permutevar8x32_epi32(c, dup_hi)), kShift);
    return pack16_u8(_mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8));
  };
  int64_t i = 0;
  for (; i + 16 <= w; i += 16, s += 32, d += 16 * dcn) {
    const __m256i x = _mm256_permute4x64_epi64(
        _mm256_shuffle_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s)), split), 0xD8);
    const __m128i y8 = _mm256_castsi256_si128(x);
    const __m128i uv8 = _mm_shuffle_epi8(_mm256_extracti128_si256(x, 1), uv_order);
    auto ycoef = [&](__m128i b) { return _mm256_mullo_epi32(_mm256_max_epi32(_mm256_sub_epi32(_mm256_cvtepu8_epi32(b), c16), zero), cy); };
    const __m256i ya = ycoef(y8), yb = ycoef(_mm_srli_si128(y8, 8));
    const __m256i u = _mm256_sub_epi32(_mm256_cvtepu8_epi32(uv8), c128);
    const __m256i v = _mm256_sub_epi32(_mm256_cvtepu8_epi32(_mm_srli_si128(uv8, 8)), c128);
    const __m256i ruv = _mm256_add_epi32(half, _mm256_mullo_epi32(v, cvr));
    const __m256i guv = _mm256_add_epi32(_mm256_add_epi32(half, _mm256_mullo_epi32(v, cvg)), _mm256_mullo_epi32(u, cug));
    const __m256i buv = _mm256_add_epi32(half, _mm256_mullo_epi32(u, cub));
    const __m128i r = chan(ya, yb, ruv), g = chan(ya, yb, guv), b = chan(ya, yb, buv);
    if (bidx == 0) store_px16(d, dcn, b, g, r);
    else store_px16(d, dcn, r, g, b);
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
