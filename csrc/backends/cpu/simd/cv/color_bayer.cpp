// cv_color_bayer (shape rule: ops/cv/color_ext.cpp): bilinear demosaicing of a raw Bayer image
// (uint8 or uint16) to BGR(A)/RGB(A) or gray, giving cv2's results bit for bit.
//
// cv2's scheme: each inner pixel is interpolated from its 3x3 neighbourhood. At a red or blue
// site the two missing colours are the averages of the 4 diagonal and the 4 cross neighbours
// ((sum + 2) >> 2); at a green site they are the averages of the 2 vertical and the 2 horizontal
// neighbours ((sum + 1) >> 1). The first and last columns then copy their neighbours, and the
// first and last rows copy theirs; images under 3 pixels a side are all zero (alpha kept in
// columns when only the width is that small). Row r (from 0 at the first inner row) swaps the
// blue/red sides and the green phase of row r - 1.
//
// The _EA codes choose the green at red/blue sites by the smaller gradient (rgb_row); the _VNG
// codes are in color_bayer_vng.cpp.
//
// Gray weights the same neighbourhood with cv2's 14-bit luma weights in unsigned 32-bit
// arithmetic (uint16 sums may wrap, as in cv2). cv2's source also has a 16-bit SIMD gray path
// with other rounding, but the cv2 5.0 wheels give the scalar formula's result everywhere
// (tests/cv/test_color10.py checks every row length up to 65), so only that one is written.
//
// Compiled once per ISA (simd/): on AVX2 targets uint8 rows take 16 pixels a step in 16-bit
// lanes (colour) or 32-bit madd sums (gray) with the scalar formulas' exact integers; the
// scalar loops finish each row and do uint16.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "backends/cpu/simd/cv/color_bayer_vng.h"
#include "backends/cpu/simd/cv/interleave_u8.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

constexpr unsigned kR2Y = 4899, kG2Y = 9617, kB2Y = 1868;
constexpr int kShift = 14;

inline unsigned descale(unsigned x, int n) { return (x + (1u << (n - 1))) >> n; }

// One output row of colour: rows T, M, B of the source around it, w inner pixels starting at
// column 1 of d (a full output row, dcn channels).
// Edge-aware (ea): green at a red/blue site averages the pair, vertical or horizontal, whose
// difference is not larger than the other's (horizontal on ties), as cv2's _EA codes do.
#if defined(__AVX2__)
// Inner pixels [0, 16k) of a uint8 row; returns 16k. Lane k is a red/blue site when
// (k + green) is even (the step is even, so the pattern is the same every step).
int64_t rgb_row_avx2(const uint8_t* t, const uint8_t* m, const uint8_t* b, uint8_t* d, int64_t w, int dcn, int blue,
                     bool green, bool ea) {
  const __m256i rb = green ? _mm256_set1_epi32(int(0xffff0000u)) : _mm256_set1_epi32(0x0000ffff);
  const __m256i one = _mm256_set1_epi16(1), two = _mm256_set1_epi16(2);
  auto ld = [](const uint8_t* p) { return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); };
  uint8_t* o = d + dcn;
  int64_t j = 0;
  for (; j + 16 <= w; j += 16, o += 16 * dcn) {
    const __m256i t0 = ld(t + j), t1 = ld(t + j + 1), t2 = ld(t + j + 2);
    const __m256i m0 = ld(m + j), m1 = ld(m + j + 1), m2 = ld(m + j + 2);
    const __m256i b0 = ld(b + j), b1 = ld(b + j + 1), b2 = ld(b + j + 2);
    const __m256i diag = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(_mm256_add_epi16(t0, t2), _mm256_add_epi16(b0, b2)), two), 2);
    const __m256i vert = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(t1, b1), one), 1);
    const __m256i horz = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(m0, m2), one), 1);
    __m256i gsite;  // green at a red/blue site
    if (!ea) {
      gsite = _mm256_srli_epi16(
          _mm256_add_epi16(_mm256_add_epi16(_mm256_add_epi16(t1, b1), _mm256_add_epi16(m0, m2)), two), 2);
    } else {
      const __m256i dh = _mm256_abs_epi16(_mm256_sub_epi16(m0, m2)), dv = _mm256_abs_epi16(_mm256_sub_epi16(b1, t1));
      gsite = _mm256_blendv_epi8(horz, vert, _mm256_cmpgt_epi16(dh, dv));
    }
    const __m128i lo = pack16_u8(_mm256_blendv_epi8(vert, diag, rb));
    const __m128i gr = pack16_u8(_mm256_blendv_epi8(m1, gsite, rb));
    const __m128i hi = pack16_u8(_mm256_blendv_epi8(horz, m1, rb));
    if (blue > 0) store_px16(o, dcn, lo, gr, hi);
    else store_px16(o, dcn, hi, gr, lo);
  }
  return j;
}
#endif

template <class T>
void rgb_row(const T* t, const T* m, const T* b, T* d, int64_t w, int dcn, int blue, bool green, bool ea) {
  const T alpha = std::numeric_limits<T>::max();
  const int lo = 1 - blue, hi = 1 + blue;
  T* o = d + dcn;
  int64_t j = 0;
#if defined(__AVX2__)
  if constexpr (std::is_same_v<T, uint8_t>) {
    j = rgb_row_avx2(t, m, b, d, w, dcn, blue, green, ea);
    o += j * dcn;
  }
#endif
  for (; j < w; ++j, o += dcn) {
    if (((j + (green ? 1 : 0)) & 1) == 0) {
      o[lo] = T((t[j] + t[j + 2] + b[j] + b[j + 2] + 2) >> 2);
      if (!ea) {
        o[1] = T((t[j + 1] + m[j] + m[j + 2] + b[j + 1] + 2) >> 2);
      } else {
        const int dh = std::abs(int(m[j]) - int(m[j + 2])), dv = std::abs(int(b[j + 1]) - int(t[j + 1]));
        o[1] = T(dh > dv ? (t[j + 1] + b[j + 1] + 1) >> 1 : (m[j] + m[j + 2] + 1) >> 1);
      }
      o[hi] = m[j + 1];
    } else {
      o[lo] = T((t[j + 1] + b[j + 1] + 1) >> 1);
      o[1] = m[j + 1];
      o[hi] = T((m[j] + m[j + 2] + 1) >> 1);
    }
    if (dcn == 4) o[3] = alpha;
  }
  std::memcpy(d, d + dcn, dcn * sizeof(T));
  std::memcpy(d + (w + 1) * dcn, d + w * dcn, dcn * sizeof(T));
}

// cv2's scalar gray formulas for one inner pixel at offset j (red/blue site or green site).
template <class T>
inline T gray_px(const T* t, const T* m, const T* b, int64_t j, bool green_site, unsigned bc, unsigned rc) {
  if (!green_site) {
    unsigned t0 = (unsigned(t[j]) + t[j + 2] + b[j] + b[j + 2]) * rc;
    unsigned t1 = (unsigned(t[j + 1]) + m[j] + m[j + 2] + b[j + 1]) * kG2Y;
    unsigned t2 = unsigned(m[j + 1]) * (4 * bc);
    return T(descale(t0 + t1 + t2, kShift + 2));
  }
  unsigned t0 = (unsigned(t[j + 1]) + b[j + 1]) * rc;
  unsigned t1 = (unsigned(m[j]) + m[j + 2]) * bc;
  unsigned t2 = unsigned(m[j + 1]) * (2 * kG2Y);
  return T(descale(t0 + t1 + t2, kShift + 1));
}

#if defined(__AVX2__)
// Inner pixels [0, 16k) of a uint8 gray row; returns 16k. Both sites become one sum of three
// products, P * wp + Q * wq + M * wm, shifted by 16: a green site's sum is doubled (its shift is
// 15; descale(x, 15) == descale(2x, 16)). M's weight (up to 4 * 9617) is split over an (M, M)
// pair so every weight fits madd's int16; the unpack / madd / pack round trip keeps pixel order.
int64_t gray_row_avx2(const uint8_t* t, const uint8_t* m, const uint8_t* b, uint8_t* d, int64_t w, bool green,
                      unsigned bc, unsigned rc) {
  auto pair = [](int even, int odd) { return int((unsigned(even) & 0xffff) | (unsigned(odd) << 16)); };
  // per 32-bit element e: lane parity e & 1; wpq = (wp, wq), wm = (wm / 2, wm / 2)
  const int rb_p = int(rc), rb_q = int(kG2Y), rb_m = int(2 * bc), g_p = int(2 * rc), g_q = int(2 * bc), g_m = int(2 * kG2Y);
  const __m256i wpq_rb = _mm256_set1_epi32(pair(rb_p, rb_q)), wpq_g = _mm256_set1_epi32(pair(g_p, g_q));
  const __m256i wm_rb = _mm256_set1_epi32(pair(rb_m, rb_m)), wm_g = _mm256_set1_epi32(pair(g_m, g_m));
  const __m256i even32 = _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0);  // element e even
  const __m256i rb32 = green ? _mm256_xor_si256(even32, _mm256_set1_epi32(-1)) : even32;
  const __m256i wpq = _mm256_blendv_epi8(wpq_g, wpq_rb, rb32), wm = _mm256_blendv_epi8(wm_g, wm_rb, rb32);
  const __m256i rb16 = green ? _mm256_set1_epi32(int(0xffff0000u)) : _mm256_set1_epi32(0x0000ffff);
  const __m256i round = _mm256_set1_epi32(1 << 15);
  auto ld = [](const uint8_t* p) { return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); };
  int64_t j = 0;
  for (; j + 16 <= w; j += 16) {
    const __m256i t0 = ld(t + j), t1 = ld(t + j + 1), t2 = ld(t + j + 2);
    const __m256i m0 = ld(m + j), m1 = ld(m + j + 1), m2 = ld(m + j + 2);
    const __m256i b0 = ld(b + j), b1 = ld(b + j + 1), b2 = ld(b + j + 2);
    const __m256i tb1 = _mm256_add_epi16(t1, b1), hm = _mm256_add_epi16(m0, m2);
    const __m256i diag = _mm256_add_epi16(_mm256_add_epi16(t0, t2), _mm256_add_epi16(b0, b2));
    const __m256i p = _mm256_blendv_epi8(tb1, diag, rb16);
    const __m256i q = _mm256_blendv_epi8(hm, _mm256_add_epi16(tb1, hm), rb16);
    auto sum = [&](__m256i pq, __m256i mm) {
      return _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(pq, wpq), _mm256_madd_epi16(mm, wm)), round), 16);
    };
    const __m256i s0 = sum(_mm256_unpacklo_epi16(p, q), _mm256_unpacklo_epi16(m1, m1));
    const __m256i s1 = sum(_mm256_unpackhi_epi16(p, q), _mm256_unpackhi_epi16(m1, m1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 1 + j), pack16_u8(_mm256_packus_epi32(s0, s1)));
  }
  return j;
}
#endif

template <class T>
void gray_row(const T* t, const T* m, const T* b, T* d, int64_t w, bool green, unsigned bc, unsigned rc) {
  T* o = d + 1;
  int64_t j = 0;
#if defined(__AVX2__)
  if constexpr (std::is_same_v<T, uint8_t>) j = gray_row_avx2(t, m, b, d, w, green, bc, rc);
#endif
  for (; j < w; ++j) o[j] = gray_px(t, m, b, j, ((j + (green ? 1 : 0)) & 1) != 0, bc, rc);
  d[0] = d[1];
  d[w + 1] = d[w];
}

class BayerKernel final : public backend::Kernel {
 public:
  explicit BayerKernel(const backend::StepDesc& s) : dtype_(s.inputs[0].dtype) {
    const auto& p = s.params->ints;
    dcn_ = int(p[0]), blue_ = int(p[1]), green_ = p[2] != 0;
    const int64_t algo = p.size() > 3 ? p[3] : 0;  // 0 bilinear, 1 edge-aware, 2 VNG
    ea_ = algo == 1, vng_ = algo == 2;
    h_ = s.inputs[0].shape[0];
    w_ = s.inputs[0].shape[1];
  }

  void run(char* const* in, char* out) override {
    if (dtype_ == DType::UInt16) run_t<uint16_t>(in[0], out);
    else run_t<uint8_t>(in[0], out);
  }

 private:
  template <class T>
  void run_t(const char* in, char* out) {
    const T* src = reinterpret_cast<const T*>(in);
    T* dst = reinterpret_cast<T*>(out);
    const int64_t h = h_, w = w_, row = w * dcn_;
    if constexpr (std::is_same_v<T, uint8_t>) {
      if (vng_ && std::min(h, w) >= 8) {
        bayer_vng_u8(src, dst, h, w, blue_ < 0 ? 0 : 2, green_);
        return;
      }
    }
    // VNG under 8 pixels a side: cv2 demosaics bilinearly
    const int blue0 = blue_;
    const bool green0 = green_;
    if (h < 3 || w < 3) {
      std::fill(dst, dst + h * row, T(0));
      if (dcn_ == 4 && h >= 3 && !ea_)
        for (int64_t i = 0; i < h * w; ++i) dst[i * 4 + 3] = std::numeric_limits<T>::max();
      return;
    }
    parallel_for(h - 2, std::max<int64_t>(1, 8192 / w), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const T* t = src + r * w;
        const bool odd = (r & 1) != 0;
        const bool green = green0 != odd;
        T* d = dst + (r + 1) * row;
        if (dcn_ == 1) {
          // blue_ < 0 marks the BG/GB layouts, whose first inner row weights blue at its red/blue sites
          unsigned bc = kB2Y, rc = kR2Y;
          if ((blue_ > 0) != odd) std::swap(bc, rc);
          gray_row(t, t + w, t + 2 * w, d, w - 2, green, bc, rc);
        } else {
          rgb_row(t, t + w, t + 2 * w, d, w - 2, dcn_, odd ? -blue0 : blue0, green, ea_);
        }
      }
    });
    std::memcpy(dst, dst + row, row * sizeof(T));
    std::memcpy(dst + (h - 1) * row, dst + (h - 2) * row, row * sizeof(T));
  }

  DType dtype_;
  int dcn_ = 3, blue_ = -1;
  bool green_ = false, ea_ = false, vng_ = false;
  int64_t h_ = 0, w_ = 0;
};

std::unique_ptr<backend::Kernel> prepare_bayer(const backend::StepDesc& s) { return std::make_unique<BayerKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_color_bayer, "cv_color_bayer", &prepare_bayer);

}  // namespace mnn::cpu::MNN_ISA_NS
