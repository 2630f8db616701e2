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

class CannyKernel final : public backend::Kernel {
 public:
  explicit CannyKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    low_ = i[0], high_ = i[1], l2_ = i[2] != 0;
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1], c_ = s.inputs[0].shape[2];
    wide_ = s.inputs[0].dtype == DType::Int32;
  }
  void run(char* const* in, char* out) override {
    if (wide_) run_typed(reinterpret_cast<const int32_t*>(in[0]), reinterpret_cast<const int32_t*>(in[1]), out);
    else run_typed(reinterpret_cast<const int16_t*>(in[0]), reinterpret_cast<const int16_t*>(in[1]), out);
  }

 private:
  template <class G>
  void run_typed(const G* dx, const G* dy, char* out) {
    const int64_t h = h_, w = w_, c = c_, mw = w + 2;
    const bool l2 = l2_;
    // low/high are clamped so int32 magnitudes compare as cv2's int comparisons do.
    const int64_t low = low_, high = high_;
    // 0: candidate (local max above low), 1: not an edge, 2: edge; a frame of 1 around the image.
    std::vector<uint8_t> map(static_cast<size_t>((h + 2) * mw), 1);
    constexpr int kShift = 15;
    const int64_t tg22 = static_cast<int64_t>(0.4142135623730950488016887242097 * (1 << kShift) + 0.5);
    parallel_for(h, 32, [&](int64_t y0, int64_t y1) {
      // Ring of 3 magnitude rows with zero ends (positions -1 and w), plus gradients per row.
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
        const int32_t* up = mbuf.data() + slot(y - 1) * mw + 1;
        const int32_t* m = mbuf.data() + slot(y) * mw + 1;
        const int32_t* dn = mbuf.data() + slot(y + 1) * mw + 1;
        const int32_t* bx = gx.data() + slot(y) * w;
        const int32_t* by = gy.data() + slot(y) * w;
        uint8_t* mp = map.data() + (y + 1) * mw + 1;
        for (int64_t x = 0; x < w; ++x) {
          const int64_t v = m[x];
          if (v <= low) continue;
          const int64_t xs = std::abs(bx[x]), ys = static_cast<int64_t>(std::abs(by[x])) << kShift;
          const int64_t t22 = xs * tg22;
          bool keep;
          if (ys < t22) {
            keep = v > m[x - 1] && v >= m[x + 1];
          } else if (ys > t22 + (xs << (kShift + 1))) {
            keep = v > up[x] && v >= dn[x];
          } else {
            const int64_t s = ((bx[x] ^ by[x]) < 0) ? -1 : 1;
            keep = v > up[x - s] && v > dn[x + s];
          }
          if (keep) mp[x] = v > high ? 2 : 0;
        }
      }
    });
    std::vector<int64_t> stack;
    const int64_t total = static_cast<int64_t>(map.size());
    const uint8_t* mdata = map.data();
    for (int64_t i = 0; i < total; ++i)
      if (mdata[i] == 2) stack.push_back(i);
    const int64_t nb[8] = {-mw - 1, -mw, -mw + 1, -1, 1, mw - 1, mw, mw + 1};
    uint8_t* mm = map.data();
    while (!stack.empty()) {
      int64_t p = stack.back();
      stack.pop_back();
      for (int64_t d : nb)
        if (mm[p + d] == 0) {
          mm[p + d] = 2;
          stack.push_back(p + d);
        }
    }
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    parallel_for(h, 64, [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) finish_row(map.data() + (y + 1) * mw + 1, o + y * w, w);
    });
  }

  static void finish_row(const uint8_t* __restrict mp, uint8_t* __restrict o, int64_t w) {
    for (int64_t x = 0; x < w; ++x) o[x] = mp[x] == 2 ? 255 : 0;
  }

  int64_t low_, high_, h_, w_, c_;
  bool l2_, wide_;
};

std::unique_ptr<backend::Kernel> prepare_canny(const backend::StepDesc& s) { return std::make_unique<CannyKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_canny, "cv_canny", &prepare_canny);

}  // namespace mnn::cpu::MNN_ISA_NS
