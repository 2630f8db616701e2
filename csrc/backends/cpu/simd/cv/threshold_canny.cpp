// Canny after the Sobel pass (shape rule: ops/cv/filter_ops.cpp; Python computes dx, dy as cv2
// does: int16, BORDER_REPLICATE, scaled by 1/16 for the 7x7 aperture). Compiled once per ISA.
//
// Per pixel the channel with the largest magnitude wins (the first on ties); non-maximum
// suppression uses cv2's fixed-point tan(22.5 deg) test; hysteresis keeps the local maxima
// above `low` that are 8-connected to one above `high`. Magnitudes stream through a ring of
// three rows per chunk of output rows (chunks run in parallel); the tracing runs serially.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

// Magnitude (int32, as cv2) and the winning channel's gradient for one image row.
template <class G>
void row_magnitude(const G* __restrict dx, const G* __restrict dy, int64_t w, int64_t c, bool l2,
                   int32_t* __restrict mag, int32_t* __restrict bx, int32_t* __restrict by) {
  if (c == 1) {
    if (l2)
      for (int64_t x = 0; x < w; ++x) mag[x] = int32_t(dx[x]) * dx[x] + int32_t(dy[x]) * dy[x];
    else
      for (int64_t x = 0; x < w; ++x) mag[x] = std::abs(int32_t(dx[x])) + std::abs(int32_t(dy[x]));
    for (int64_t x = 0; x < w; ++x) bx[x] = dx[x], by[x] = dy[x];
    return;
  }
  if (c == 3) {
    // Straight-line selects (first maximum wins) so the compiler vectorises the stride-3 loads.
    for (int64_t x = 0; x < w; ++x) {
      const int32_t a0 = dx[3 * x], a1 = dx[3 * x + 1], a2 = dx[3 * x + 2];
      const int32_t b0 = dy[3 * x], b1 = dy[3 * x + 1], b2 = dy[3 * x + 2];
      const int32_t m0 = l2 ? a0 * a0 + b0 * b0 : std::abs(a0) + std::abs(b0);
      const int32_t m1 = l2 ? a1 * a1 + b1 * b1 : std::abs(a1) + std::abs(b1);
      const int32_t m2 = l2 ? a2 * a2 + b2 * b2 : std::abs(a2) + std::abs(b2);
      const bool t1 = m1 > m0;
      int32_t best = t1 ? m1 : m0, ba = t1 ? a1 : a0, bb = t1 ? b1 : b0;
      const bool t2 = m2 > best;
      mag[x] = t2 ? m2 : best;
      bx[x] = t2 ? a2 : ba;
      by[x] = t2 ? b2 : bb;
    }
    return;
  }
  for (int64_t x = 0; x < w; ++x) {
    const G* px = dx + x * c;
    const G* py = dy + x * c;
    int32_t best = -1, bdx = 0, bdy = 0;
    for (int64_t k = 0; k < c; ++k) {
      int32_t a = px[k], b = py[k];
      int32_t v = l2 ? a * a + b * b : std::abs(a) + std::abs(b);
      if (v > best) best = v, bdx = a, bdy = b;
    }
    mag[x] = best;
    bx[x] = bdx;
    by[x] = bdy;
  }
}

constexpr int kShift = 15;
constexpr int64_t kTg22 = static_cast<int64_t>(0.4142135623730950488016887242097 * (1 << kShift) + 0.5);

// Non-maximum suppression of pixels [x0, x1) of one row (mag rows with zero ends at -1 and w):
// 0 candidate (local max above low, not above high), 2 strong edge, 1 otherwise.
template <class M, class B>
void nms_scalar(const M* up, const M* m, const M* dn, const B* bx, const B* by, int64_t x0, int64_t x1,
                int64_t low, int64_t high, uint8_t* mp) {
  for (int64_t x = x0; x < x1; ++x) {
    const int64_t v = m[x];
    if (v <= low) {
      mp[x] = 1;
      continue;
    }
    const int64_t xs = std::abs(int64_t(bx[x])), ys = std::abs(int64_t(by[x])) << kShift;
    const int64_t t22 = xs * kTg22;
    bool keep;
    if (ys < t22) {
      keep = v > m[x - 1] && v >= m[x + 1];
    } else if (ys > t22 + (xs << (kShift + 1))) {
      keep = v > up[x] && v >= dn[x];
    } else {
      const int64_t s = ((int64_t(bx[x]) ^ int64_t(by[x])) < 0) ? -1 : 1;
      keep = v > up[x - s] && v > dn[x + s];
    }
    mp[x] = keep ? (v > high ? 2 : 0) : 1;
  }
}

#if defined(__AVX2__)
// The three channels of 16 pixels of 3-channel int16 (48 values at p): each 128-bit lane takes 8
// pixels; two word blends gather a channel's 8 values (their positions in the three loads are
// disjoint), one byte shuffle puts them in pixel order.
inline void deinterleave3_i16(const int16_t* p, __m256i& c0, __m256i& c1, __m256i& c2) {
  auto ld2 = [](const int16_t* lo, const int16_t* hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lo))),
                                   _mm_loadu_si128(reinterpret_cast<const __m128i*>(hi)), 1);
  };
  const __m256i a = ld2(p, p + 24), b = ld2(p + 8, p + 32), c = ld2(p + 16, p + 40);
  const __m256i s0 = _mm256_setr_epi8(0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15, 4, 5, 10, 11,
                                      0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15, 4, 5, 10, 11);
  const __m256i s1 = _mm256_setr_epi8(2, 3, 8, 9, 14, 15, 4, 5, 10, 11, 0, 1, 6, 7, 12, 13,
                                      2, 3, 8, 9, 14, 15, 4, 5, 10, 11, 0, 1, 6, 7, 12, 13);
  const __m256i s2 = _mm256_setr_epi8(4, 5, 10, 11, 0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15,
                                      4, 5, 10, 11, 0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15);
  c0 = _mm256_shuffle_epi8(_mm256_blend_epi16(_mm256_blend_epi16(a, b, 0x92), c, 0x24), s0);
  c1 = _mm256_shuffle_epi8(_mm256_blend_epi16(_mm256_blend_epi16(a, b, 0x24), c, 0x49), s1);
  c2 = _mm256_shuffle_epi8(_mm256_blend_epi16(_mm256_blend_epi16(a, b, 0x49), c, 0x92), s2);
}

// L1 magnitudes of pixels [0, w - w % 16) of a 3-channel row and the winning channel's gradients
// (the first of equal maxima, as the scalar loop); returns how many pixels were done.
inline int64_t row_magnitude3_l1(const int16_t* dx, const int16_t* dy, int64_t w, int16_t* mag, int16_t* bx,
                                 int16_t* by) {
  int64_t x = 0;
  for (; x + 16 <= w; x += 16) {
    __m256i x0, x1, x2, y0, y1, y2;
    deinterleave3_i16(dx + 3 * x, x0, x1, x2);
    deinterleave3_i16(dy + 3 * x, y0, y1, y2);
    const __m256i m0 = _mm256_add_epi16(_mm256_abs_epi16(x0), _mm256_abs_epi16(y0));
    const __m256i m1 = _mm256_add_epi16(_mm256_abs_epi16(x1), _mm256_abs_epi16(y1));
    const __m256i m2 = _mm256_add_epi16(_mm256_abs_epi16(x2), _mm256_abs_epi16(y2));
    const __m256i t1 = _mm256_cmpgt_epi16(m1, m0);
    const __m256i best = _mm256_blendv_epi8(m0, m1, t1);
    const __m256i t2 = _mm256_cmpgt_epi16(m2, best);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(mag + x), _mm256_blendv_epi8(best, m2, t2));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bx + x), _mm256_blendv_epi8(_mm256_blendv_epi8(x0, x1, t1), x2, t2));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(by + x), _mm256_blendv_epi8(_mm256_blendv_epi8(y0, y1, t1), y2, t2));
  }
  return x;
}

// Non-maximum suppression of 16 pixels at a time on int16 L1 magnitudes (|gradient| < 2^14, so
// every product below fits int32): the direction tests are the scalar ones, xs * tg22 - ys * 2^15
// from one pmaddwd on (xs, ys) pairs; all three neighbour tests are computed and selected.
// Returns how many pixels were done ([0, w - w % 16)).
inline int64_t nms_avx2(const int16_t* up, const int16_t* m, const int16_t* dn, const int16_t* bx, const int16_t* by,
                        int64_t w, int16_t low, int16_t high, uint8_t* mp) {
  auto ld = [](const int16_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); };
  const __m256i vlow = _mm256_set1_epi16(low), vhigh = _mm256_set1_epi16(high), zero = _mm256_setzero_si256();
  const __m256i one = _mm256_set1_epi16(1), two = _mm256_set1_epi16(2);
  const __m256i coef = _mm256_set1_epi32(static_cast<int32_t>((0x8000u << 16) | static_cast<uint32_t>(kTg22)));
  const __m128i ones8 = _mm_set1_epi8(1);
  int64_t x = 0;
  for (; x + 16 <= w; x += 16) {
    const __m256i v = ld(m + x);
    const __m256i cand = _mm256_cmpgt_epi16(v, vlow);
    if (_mm256_testz_si256(cand, cand)) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(mp + x), ones8);
      continue;
    }
    const __m256i gx = ld(bx + x), gy = ld(by + x);
    const __m256i xs = _mm256_abs_epi16(gx), ys = _mm256_abs_epi16(gy);
    const __m256i dlo = _mm256_madd_epi16(_mm256_unpacklo_epi16(xs, ys), coef);  // xs tg22 - ys 2^15
    const __m256i dhi = _mm256_madd_epi16(_mm256_unpackhi_epi16(xs, ys), coef);
    const __m256i horiz = _mm256_packs_epi32(_mm256_cmpgt_epi32(dlo, zero), _mm256_cmpgt_epi32(dhi, zero));
    const __m256i vlo = _mm256_add_epi32(dlo, _mm256_unpacklo_epi16(zero, xs));  // + xs 2^16
    const __m256i vhi = _mm256_add_epi32(dhi, _mm256_unpackhi_epi16(zero, xs));
    const __m256i vert = _mm256_packs_epi32(_mm256_cmpgt_epi32(zero, vlo), _mm256_cmpgt_epi32(zero, vhi));
    const __m256i neg = _mm256_cmpgt_epi16(zero, _mm256_xor_si256(gx, gy));
    const __m256i kh = _mm256_andnot_si256(_mm256_cmpgt_epi16(ld(m + x + 1), v), _mm256_cmpgt_epi16(v, ld(m + x - 1)));
    const __m256i kv = _mm256_andnot_si256(_mm256_cmpgt_epi16(ld(dn + x), v), _mm256_cmpgt_epi16(v, ld(up + x)));
    const __m256i kneg = _mm256_and_si256(_mm256_cmpgt_epi16(v, ld(up + x + 1)), _mm256_cmpgt_epi16(v, ld(dn + x - 1)));
    const __m256i kpos = _mm256_and_si256(_mm256_cmpgt_epi16(v, ld(up + x - 1)), _mm256_cmpgt_epi16(v, ld(dn + x + 1)));
    __m256i keep = _mm256_blendv_epi8(_mm256_blendv_epi8(_mm256_blendv_epi8(kpos, kneg, neg), kv, vert), kh, horiz);
    keep = _mm256_and_si256(keep, cand);
    const __m256i val = _mm256_or_si256(_mm256_andnot_si256(keep, one),
                                        _mm256_and_si256(_mm256_and_si256(keep, _mm256_cmpgt_epi16(v, vhigh)), two));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(mp + x),
                     _mm_packus_epi16(_mm256_castsi256_si128(val), _mm256_extracti128_si256(val, 1)));
  }
  return x;
}
#endif

class CannyKernel final : public backend::Kernel {
 public:
  explicit CannyKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    low_ = i[0], high_ = i[1], l2_ = i[2] != 0;
    bounded_ = i.size() > 3 && i[3] != 0;
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1], c_ = s.inputs[0].shape[2];
    wide_ = s.inputs[0].dtype == DType::Int32;
  }
  void run(char* const* in, char* out) override {
    const int64_t mw = w_ + 2;
    // 0: candidate (local max above low), 1: not an edge, 2: edge; a frame of 1 around the image.
    std::vector<uint8_t> map(static_cast<size_t>((h_ + 2) * mw), 1);
#if defined(__AVX2__)
    if (!wide_ && bounded_ && !l2_ && (c_ == 1 || c_ == 3))
      suppress_l1_i16(reinterpret_cast<const int16_t*>(in[0]), reinterpret_cast<const int16_t*>(in[1]), map.data());
    else
#endif
    if (wide_) suppress(reinterpret_cast<const int32_t*>(in[0]), reinterpret_cast<const int32_t*>(in[1]), map.data());
    else suppress(reinterpret_cast<const int16_t*>(in[0]), reinterpret_cast<const int16_t*>(in[1]), map.data());
    hysteresis(map.data());
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    const int64_t w = w_;
    parallel_for(h_, 64, [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) finish_row(map.data() + (y + 1) * mw + 1, o + y * w, w);
    });
  }

 private:
  // Magnitudes stream through a ring of three rows per chunk of output rows (zero ends at -1
  // and w, zero rows above and below the image), with the winning channel's gradients.
  template <class G>
  void suppress(const G* dx, const G* dy, uint8_t* map) {
    const int64_t h = h_, w = w_, c = c_, mw = w + 2;
    const bool l2 = l2_;
    const int64_t low = low_, high = high_;
    parallel_for(h, 32, [&](int64_t y0, int64_t y1) {
      std::vector<int32_t> mbuf(static_cast<size_t>(3 * mw)), gx(static_cast<size_t>(3 * w)), gy(static_cast<size_t>(3 * w));
      auto slot = [](int64_t r) { return static_cast<size_t>(((r % 3) + 3) % 3); };
      auto fill = [&](int64_t r) {
        int32_t* m = mbuf.data() + slot(r) * mw;
        if (r < 0 || r >= h) {
          std::fill(m, m + mw, 0);
          return;
        }
        m[0] = m[mw - 1] = 0;
        row_magnitude<G>(dx + r * w * c, dy + r * w * c, w, c, l2, m + 1, gx.data() + slot(r) * w, gy.data() + slot(r) * w);
      };
      fill(y0 - 1);
      fill(y0);
      for (int64_t y = y0; y < y1; ++y) {
        fill(y + 1);
        nms_scalar(mbuf.data() + slot(y - 1) * mw + 1, mbuf.data() + slot(y) * mw + 1, mbuf.data() + slot(y + 1) * mw + 1,
                   gx.data() + slot(y) * w, gy.data() + slot(y) * w, 0, w, low, high, map + (y + 1) * mw + 1);
      }
    });
  }

#if defined(__AVX2__)
  // The same with int16 L1 magnitudes, 16 pixels a step (bounded Sobel gradients, 1 or 3 channels).
  void suppress_l1_i16(const int16_t* dx, const int16_t* dy, uint8_t* map) {
    const int64_t h = h_, w = w_, c = c_, mw = w + 2, rw = w + 2 + 16;
    // magnitudes are at most 2 * (2^14 - 1): the thresholds clamp into int16 with the same outcomes
    const int16_t low = static_cast<int16_t>(std::min<int64_t>(std::max<int64_t>(low_, -1), 32767));
    const int16_t high = static_cast<int16_t>(std::min<int64_t>(std::max<int64_t>(high_, -1), 32767));
    parallel_for(h, 32, [&](int64_t y0, int64_t y1) {
      std::vector<int16_t> mbuf(static_cast<size_t>(3 * rw)), gx(static_cast<size_t>(3 * w)), gy(static_cast<size_t>(3 * w));
      auto slot = [](int64_t r) { return static_cast<size_t>(((r % 3) + 3) % 3); };
      auto mrow = [&](int64_t r) { return mbuf.data() + slot(r) * rw + 1; };
      auto fill = [&](int64_t r) {
        int16_t* m = mrow(r);
        if (r < 0 || r >= h) {
          std::fill(m - 1, m + w + 1, int16_t(0));
          return;
        }
        m[-1] = m[w] = 0;
        const int16_t* px = dx + r * w * c;
        const int16_t* py = dy + r * w * c;
        if (c == 1) {
          for (int64_t x = 0; x < w; ++x) m[x] = static_cast<int16_t>(std::abs(px[x]) + std::abs(py[x]));
          return;
        }
        int16_t* bx = gx.data() + slot(r) * w;
        int16_t* by = gy.data() + slot(r) * w;
        for (int64_t x = row_magnitude3_l1(px, py, w, m, bx, by); x < w; ++x) {
          const int16_t* a = px + 3 * x;
          const int16_t* b = py + 3 * x;
          int16_t best = -1, ba = 0, bb = 0;
          for (int k = 0; k < 3; ++k) {
            const int16_t v = static_cast<int16_t>(std::abs(a[k]) + std::abs(b[k]));
            if (v > best) best = v, ba = a[k], bb = b[k];
          }
          m[x] = best, bx[x] = ba, by[x] = bb;
        }
      };
      fill(y0 - 1);
      fill(y0);
      for (int64_t y = y0; y < y1; ++y) {
        fill(y + 1);
        const int16_t* bx = c == 1 ? dx + y * w : gx.data() + slot(y) * w;
        const int16_t* by = c == 1 ? dy + y * w : gy.data() + slot(y) * w;
        uint8_t* mp = map + (y + 1) * mw + 1;
        const int64_t done = nms_avx2(mrow(y - 1), mrow(y), mrow(y + 1), bx, by, w, low, high, mp);
        nms_scalar(mrow(y - 1), mrow(y), mrow(y + 1), bx, by, done, w, low_, high_, mp);
      }
    });
  }
#endif

  // Keeps the candidates 8-connected to a strong edge (serial depth-first search from every 2).
  void hysteresis(uint8_t* map) {
    const int64_t mw = w_ + 2, total = (h_ + 2) * mw;
    std::vector<int64_t> stack;
    stack.reserve(static_cast<size_t>(total / 16));
    int64_t i = 0;
#if defined(__AVX2__)
    const __m256i two = _mm256_set1_epi8(2);
    for (; i + 32 <= total; i += 32) {
      uint32_t bits = static_cast<uint32_t>(
          _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(map + i)), two)));
      while (bits) {
        stack.push_back(i + __builtin_ctz(bits));
        bits &= bits - 1;
      }
    }
#endif
    for (; i < total; ++i)
      if (map[i] == 2) stack.push_back(i);
    const int64_t nb[8] = {-mw - 1, -mw, -mw + 1, -1, 1, mw - 1, mw, mw + 1};
    while (!stack.empty()) {
      const int64_t p = stack.back();
      stack.pop_back();
      for (int64_t d : nb)
        if (map[p + d] == 0) {
          map[p + d] = 2;
          stack.push_back(p + d);
        }
    }
  }

  static void finish_row(const uint8_t* __restrict mp, uint8_t* __restrict o, int64_t w) {
    for (int64_t x = 0; x < w; ++x) o[x] = mp[x] == 2 ? 255 : 0;
  }

  int64_t low_, high_, h_, w_, c_;
  bool l2_, wide_, bounded_;
};

std::unique_ptr<backend::Kernel> prepare_canny(const backend::StepDesc& s) { return std::make_unique<CannyKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_canny, "cv_canny", &prepare_canny);

}  // namespace mnn::cpu::MNN_ISA_NS
