// cv_color_mrgba (shape rule: ops/cv/color_ext.cpp): RGBA <-> alpha-premultiplied RGBA (uint8),
// as cv2 5.0 rounds it: premultiply c' = (c * a + 127) / 255 (c * a / 255 to nearest; it is
// never a half); un-premultiply
// c = min(255, (c' * 255 + a / 2) / a), 0 where a is 0. Alpha is copied either way.
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

// Both maps computed per channel in branch-free code the compiler vectorises (per ISA):
// (v * a + 127) / 255 as a multiply-shift (x * 32897 >> 23 == x / 255 for every x < 2^16,
// checked exhaustively), and the inverse with a float division: the numerator and the alpha
// are under 2^16, so a non-integer quotient is at least 1 / 255 from the next integer, far more
// than float's rounding error, and truncating the float quotient gives the integer one.
#if defined(__AVX2__)
// 8 pixels a step in 16-bit lanes: v * a + 127 fits, and mulhi by 32897 then >> 7 is the
// / 255 above. Alpha is computed like a colour, then put back from the source.
int64_t premultiply_avx2(const uint8_t* s, uint8_t* d, int64_t n) {
  const __m256i zero = _mm256_setzero_si256(), c127 = _mm256_set1_epi16(127), m255 = _mm256_set1_epi16(int16_t(32897));
  // each 16-bit lane gets its pixel's alpha (pixels 0-1 / 2-3 of a 128-bit lane)
  const __m256i a_lo = _mm256_setr_epi8(3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1,
                                        3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1);
  const __m256i a_hi = _mm256_add_epi8(a_lo, _mm256_setr_epi8(8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0,
                                                              8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8, 0));
  const __m256i keep = _mm256_set1_epi32(int(0xff000000u));
  auto scale = [&](__m256i v, __m256i a) {
    return _mm256_srli_epi16(_mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(v, a), c127), m255), 7);
  };
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 4 * i));
    const __m256i lo = scale(_mm256_unpacklo_epi8(x, zero), _mm256_shuffle_epi8(x, a_lo));
    const __m256i hi = scale(_mm256_unpackhi_epi8(x, zero), _mm256_shuffle_epi8(x, a_hi));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 4 * i), _mm256_blendv_epi8(_mm256_packus_epi16(lo, hi), x, keep));
  }
  return i;
}

// 8 pixels a step, 2 pixels per 8 float lanes, num = c * 255 + a / 2 divided by a through a
// reciprocal computed once per pixel (rcp + one Newton step: relative error under 2^-21). Only
// quotients under 256 matter (larger ones clamp to 255). A non-integer one is at least 1 / a >= 1 / 255 below the
// next integer and the product is off by under 256 * 2^-21 = 1.3e-4, so adding 2e-3 before
// truncating lifts exact integers that came out a hair low and never reaches the next one.
int64_t unpremultiply_avx2(const uint8_t* s, uint8_t* d, int64_t n) {
  const __m256i c255 = _mm256_set1_epi32(255), one = _mm256_set1_epi32(1), zero = _mm256_setzero_si256();
  const __m256 two = _mm256_set1_ps(2.f), bias = _mm256_set1_ps(2e-3f);
  const __m256i alpha_lane = _mm256_setr_epi32(0, 0, 0, -1, 0, 0, 0, -1);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 4 * i));
    // the 8 pixels' reciprocals at once (lane j: pixel j), then spread two pixels per vector
    const __m256 af = _mm256_cvtepi32_ps(_mm256_max_epi32(_mm256_srli_epi32(x, 24), one));
    __m256 r8 = _mm256_rcp_ps(af);
    r8 = _mm256_mul_ps(r8, _mm256_sub_ps(two, _mm256_mul_ps(af, r8)));
    auto two_px = [&](__m128i b8, int j) {
      const __m256i v = _mm256_cvtepu8_epi32(b8);
      const __m256i a = _mm256_shuffle_epi32(v, 0xff);
      const __m256i num = _mm256_add_epi32(_mm256_sub_epi32(_mm256_slli_epi32(v, 8), v), _mm256_srli_epi32(a, 1));
      const __m256 r = _mm256_permutevar8x32_ps(r8, _mm256_setr_epi32(j, j, j, j, j + 1, j + 1, j + 1, j + 1));
      __m256i q = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(num), r), bias));
      q = _mm256_andnot_si256(_mm256_cmpeq_epi32(a, zero), _mm256_min_epi32(q, c255));
      return _mm256_blendv_epi8(q, v, alpha_lane);
    };
    const __m128i xl = _mm256_castsi256_si128(x), xh = _mm256_extracti128_si256(x, 1);
    const __m256i p01 = two_px(xl, 0), p23 = two_px(_mm_srli_si128(xl, 8), 2);
    const __m256i p45 = two_px(xh, 4), p67 = two_px(_mm_srli_si128(xh, 8), 6);
    const __m256i w = _mm256_packus_epi16(_mm256_packus_epi32(p01, p23), _mm256_packus_epi32(p45, p67));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 4 * i), _mm256_permutevar8x32_epi32(w, order));
  }
  return i;
}
#endif

void premultiply(const uint8_t* s, uint8_t* d, int64_t n) {
  int64_t i = 0;
#if defined(__AVX2__)
  i = premultiply_avx2(s, d, n);
#endif
  for (; i < n; ++i) {
    const uint32_t a = s[4 * i + 3];
    for (int c = 0; c < 3; ++c) d[4 * i + c] = static_cast<uint8_t>(((s[4 * i + c] * a + 127) * 32897u) >> 23);
    d[4 * i + 3] = static_cast<uint8_t>(a);
  }
}

void unpremultiply(const uint8_t* s, uint8_t* d, int64_t n) {
  int64_t i = 0;
#if defined(__AVX2__)
  i = unpremultiply_avx2(s, d, n);
#endif
  for (; i < n; ++i) {
    const int32_t a = s[4 * i + 3];
    const float fa = float(a > 0 ? a : 1);
    for (int c = 0; c < 4; ++c) {  // c == 3 keeps alpha: one uniform 4-wide body vectorises
      const int32_t q = static_cast<int32_t>(float(s[4 * i + c] * 255 + (a >> 1)) / fa);
      const int32_t v = std::min(q, 255) & -int32_t(a != 0);  // masks, not branches: they vectorise
      d[4 * i + c] = static_cast<uint8_t>(c == 3 ? a : v);
    }
  }
}

class MrgbaKernel final : public backend::Kernel {
 public:
  explicit MrgbaKernel(const backend::StepDesc& s)
      : inverse_(s.params->ints[0] != 0), npix_(s.inputs[0].shape[0] * s.inputs[0].shape[1]) {}

  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    parallel_for(npix_, int64_t(1) << 14, [&](int64_t lo, int64_t hi) {
      (inverse_ ? unpremultiply : premultiply)(src + lo * 4, dst + lo * 4, hi - lo);
    });
  }

 private:
  bool inverse_;
  int64_t npix_;
};

std::unique_ptr<backend::Kernel> prepare_mrgba(const backend::StepDesc& s) { return std::make_unique<MrgbaKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_color_mrgba, "cv_color_mrgba", &prepare_mrgba);

}  // namespace mnn::cpu::MNN_ISA_NS
