// CPU kernels of calcHist and LUT (shape rules: ops/cv/filter_ops.cpp); Canny is in simd/cv/.
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

MNN_REGISTER_CPU_KERNEL(cv_hist, "cv_hist", &prepare_hist);
MNN_REGISTER_CPU_KERNEL(cv_lut, "cv_lut", &prepare_lut);

}  // namespace mnn::cpu
