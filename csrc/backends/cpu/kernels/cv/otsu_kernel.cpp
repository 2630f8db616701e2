// CPU kernel of cv_otsu (shape rule: ops/cv/otsu_ops.cpp): Otsu's threshold of a uint16 image.
//
// cv2 runs its generic Otsu search over all 65536 bins in double, and the answer must be the same
// bin, so the search follows cv2's arithmetic step by step: p_i = h_i * (1 / n); the running class
// mean mu1 is un-normalised (mu1 *= q1) before q1 grows and re-normalised only when both classes
// hold at least FLT_EPSILON of the mass (when they don't it stays multiplied, as in cv2); the first
// bin with the strictly largest between-class variance wins.
#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <vector>

#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

class OtsuKernel final : public backend::Kernel {
 public:
  explicit OtsuKernel(const backend::StepDesc& s) { n_ = numel(s.inputs[0].shape); }
  void run(char* const* in, char* out) override {
    constexpr int N = 65536;
    const uint16_t* a = reinterpret_cast<const uint16_t*>(in[0]);
    std::vector<int64_t> h(N, 0);
    for (int64_t i = 0; i < n_; ++i) ++h[a[i]];
    const double scale = 1.0 / static_cast<double>(n_);
    double mu = 0;
    for (int i = 0; i < N; ++i) mu += i * static_cast<double>(h[i]);
    mu *= scale;
    double mu1 = 0, q1 = 0, max_sigma = 0, max_val = 0;
    for (int i = 0; i < N; ++i) {
      const double p_i = static_cast<double>(h[i]) * scale;
      mu1 *= q1;
      q1 += p_i;
      const double q2 = 1.0 - q1;
      if (std::min(q1, q2) < FLT_EPSILON || std::max(q1, q2) > 1.0 - FLT_EPSILON) continue;
      mu1 = (mu1 + i * p_i) / q1;
      const double mu2 = (mu - q1 * mu1) / q2;
      const double sigma = q1 * q2 * (mu1 - mu2) * (mu1 - mu2);
      if (sigma > max_sigma) max_sigma = sigma, max_val = i;
    }
    *reinterpret_cast<double*>(out) = max_val;
  }

 private:
  int64_t n_;
};

std::unique_ptr<backend::Kernel> prepare_otsu(const backend::StepDesc& s) { return std::make_unique<OtsuKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_otsu, "cv_otsu", &prepare_otsu);

}  // namespace mnn::cpu
