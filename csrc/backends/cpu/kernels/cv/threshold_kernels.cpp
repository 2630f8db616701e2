// CPU kernels of Canny's edge tracing, calcHist and LUT (shape rules: ops/cv/filter_ops.cpp).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

// Canny after the Sobel pass (Python computes dx, dy as cv2 does: int16, BORDER_REPLICATE).
// Per pixel the channel with the largest magnitude wins; non-maximum suppression uses cv2's
// fixed-point tan(22.5 deg) test; hysteresis keeps the local maxima above `low` that are
// 8-connected to one above `high`.
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
    // Magnitude with a zero frame, and the winning channel's dx/dy per pixel.
    std::vector<int64_t> mag(static_cast<size_t>((h + 2) * mw), 0);
    std::vector<int32_t> bx(static_cast<size_t>(h * w)), by(static_cast<size_t>(h * w));
    const bool l2 = l2_;
    parallel_for(h, 16, [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) {
        int64_t* m = mag.data() + (y + 1) * mw + 1;
        for (int64_t x = 0; x < w; ++x) {
          const G* px = dx + (y * w + x) * c;
          const G* py = dy + (y * w + x) * c;
          int64_t best = -1;
          int32_t bdx = 0, bdy = 0;
          for (int64_t k = 0; k < c; ++k) {
            int64_t a = px[k], b = py[k];
            int64_t v = l2 ? a * a + b * b : std::llabs(a) + std::llabs(b);
            if (v > best) best = v, bdx = static_cast<int32_t>(a), bdy = static_cast<int32_t>(b);
          }
          m[x] = best;
          bx[y * w + x] = bdx;
          by[y * w + x] = bdy;
        }
      }
    });
    // 0: candidate (local max above low), 1: not an edge, 2: edge; the frame is 1.
    std::vector<uint8_t> map(static_cast<size_t>((h + 2) * mw), 1);
    const int64_t low = low_, high = high_;
    constexpr int kShift = 15;
    const int64_t tg22 = static_cast<int64_t>(0.4142135623730950488016887242097 * (1 << kShift) + 0.5);
    parallel_for(h, 16, [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) {
        const int64_t* m = mag.data() + (y + 1) * mw + 1;
        const int64_t* up = m - mw;
        const int64_t* dn = m + mw;
        uint8_t* mp = map.data() + (y + 1) * mw + 1;
        for (int64_t x = 0; x < w; ++x) {
          const int64_t v = m[x];
          if (v <= low) continue;
          const int64_t xs = std::llabs(bx[y * w + x]), ys = std::llabs(by[y * w + x]) << kShift;
          const int64_t t22 = xs * tg22;
          bool keep;
          if (ys < t22) {
            keep = v > m[x - 1] && v >= m[x + 1];
          } else if (ys > t22 + (xs << (kShift + 1))) {
            keep = v > up[x] && v >= dn[x];
          } else {
            const int64_t s = ((bx[y * w + x] ^ by[y * w + x]) < 0) ? -1 : 1;
            keep = v > up[x - s] && v > dn[x + s];
          }
          if (keep) mp[x] = v > high ? 2 : 0;
        }
      }
    });
    std::vector<int64_t> stack;
    for (int64_t i = 0; i < static_cast<int64_t>(map.size()); ++i)
      if (map[i] == 2) stack.push_back(i);
    const int64_t nb[8] = {-mw - 1, -mw, -mw + 1, -1, 1, mw - 1, mw, mw + 1};
    while (!stack.empty()) {
      int64_t p = stack.back();
      stack.pop_back();
      for (int64_t d : nb)
        if (map[p + d] == 0) {
          map[p + d] = 2;
          stack.push_back(p + d);
        }
    }
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    for (int64_t y = 0; y < h; ++y) {
      const uint8_t* mp = map.data() + (y + 1) * mw + 1;
      for (int64_t x = 0; x < w; ++x) o[y * w + x] = mp[x] == 2 ? 255 : 0;
    }
  }

  int64_t low_, high_, h_, w_, c_;
  bool l2_, wide_;
};

std::unique_ptr<backend::Kernel> prepare_canny(const backend::StepDesc& s) { return std::make_unique<CannyKernel>(s); }

// calcHist over uniform bins: bin = floor(v * a + b) per dimension, a = bins / (hi - lo),
// b = -lo * a (cv2's formula, in double); values outside [0, bins) are not counted.
class HistKernel final : public backend::Kernel {
 public:
  explicit HistKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    nd_ = i[0], mask_ = i[1] != 0;
    for (int64_t d = 0; d < nd_; ++d) {
      ch_.push_back(i[2 + d]);
      bins_.push_back(i[2 + nd_ + d]);
      double a = bins_[d] / (f[2 * d + 1] - f[2 * d]);
      a_.push_back(a);
      b_.push_back(-f[2 * d] * a);
    }
    const Shape& sh = s.inputs[0].shape;
    npix_ = sh[0] * sh[1];
    c_ = sh.size() == 3 ? sh[2] : 1;
    in_ = s.inputs[0].dtype;
  }
  void run(char* const* in, char* out) override {
    dispatch_dtype(in_, [&](auto zero) {
      using T = decltype(zero);
      const T* a = reinterpret_cast<const T*>(in[0]);
      const uint8_t* m = mask_ ? reinterpret_cast<const uint8_t*>(in[1]) : nullptr;
      int64_t total = 1;
      for (int64_t b : bins_) total *= b;
      std::vector<int64_t> cnt(static_cast<size_t>(total), 0);
      for (int64_t p = 0; p < npix_; ++p) {
        if (m && !m[p]) continue;
        int64_t idx = 0;
        bool ok = true;
        for (int64_t d = 0; d < nd_ && ok; ++d) {
          double v = static_cast<double>(a[p * c_ + ch_[d]]);
          double t = std::floor(v * a_[d] + b_[d]);
          if (!(t >= 0 && t < static_cast<double>(bins_[d]))) ok = false;
          else idx = idx * bins_[d] + static_cast<int64_t>(t);
        }
        if (ok) ++cnt[idx];
      }
      float* o = reinterpret_cast<float*>(out);
      for (int64_t i = 0; i < total; ++i) o[i] = static_cast<float>(cnt[i]);
      return 0;
    });
  }

 private:
  int64_t nd_, npix_, c_;
  bool mask_;
  std::vector<int64_t> ch_, bins_;
  std::vector<double> a_, b_;
  DType in_;
};

std::unique_ptr<backend::Kernel> prepare_hist(const backend::StepDesc& s) { return std::make_unique<HistKernel>(s); }

// LUT: out[.., c] = lut[byte of src[.., c]][c or 0]; only bytes move, so any lut dtype.
class LutKernel final : public backend::Kernel {
 public:
  explicit LutKernel(const backend::StepDesc& s) {
    const Shape& a = s.inputs[0].shape;
    c_ = a.size() == 3 ? a[2] : 1;
    n_ = numel(a) / std::max<int64_t>(c_, 1);
    tc_ = s.inputs[1].shape.size() == 2 ? s.inputs[1].shape[1] : 1;
    isz_ = static_cast<int64_t>(itemsize(s.output.dtype));
  }
  void run(char* const* in, char* out) override {
    const uint8_t* a = reinterpret_cast<const uint8_t*>(in[0]);
    const char* t = in[1];
    const int64_t c = c_, tc = tc_, isz = isz_;
    parallel_for(n_, 4096, [&](int64_t lo, int64_t hi) {
      for (int64_t p = lo; p < hi; ++p)
        for (int64_t k = 0; k < c; ++k) {
          // cv2 indexes with the raw byte, so int8 -1 reads entry 255.
          int64_t v = a[p * c + k];
          std::memcpy(out + (p * c + k) * isz, t + (v * tc + (tc == 1 ? 0 : k)) * isz, static_cast<size_t>(isz));
        }
    });
  }

 private:
  int64_t c_, n_, tc_, isz_;
};

std::unique_ptr<backend::Kernel> prepare_lut(const backend::StepDesc& s) { return std::make_unique<LutKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_canny, "cv_canny", &prepare_canny);
MNN_REGISTER_CPU_KERNEL(cv_hist, "cv_hist", &prepare_hist);
MNN_REGISTER_CPU_KERNEL(cv_lut, "cv_lut", &prepare_lut);

}  // namespace mnn::cpu
