// CPU kernel of findContours (shape rule: ops/cv/contours.cpp). connectedComponents[WithStats] is a
// direct native call (ops/cv/components.cpp), not a graph primitive.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "ops/cv/contours.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

// The shape rule already traced this image and left the result for us (ops/cv/contours.h); the
// kernel traces itself only when it runs on other data.
class FindContoursKernel final : public backend::Kernel {
 public:
  explicit FindContoursKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    mode_ = static_cast<int>(i[0]), method_ = static_cast<int>(i[1]), ox_ = static_cast<int>(i[2]),
    oy_ = static_cast<int>(i[3]);
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1];
    n_ = s.output.shape[0];
  }
  void run(char* const* in, char* out) override {
    auto r = ops::contours::take_contours(in[0], h_, w_, mode_, method_, ox_, oy_);
    const int64_t m = std::min<int64_t>(n_, static_cast<int64_t>(r->size()));
    std::memcpy(out, r->data(), sizeof(int32_t) * static_cast<size_t>(m));
    if (m < n_) std::memset(out + sizeof(int32_t) * m, 0, sizeof(int32_t) * static_cast<size_t>(n_ - m));
  }

 private:
  int mode_, method_, ox_, oy_;
  int64_t h_, w_, n_;
};

std::unique_ptr<backend::Kernel> prepare_find_contours(const backend::StepDesc& s) {
  return std::make_unique<FindContoursKernel>(s);
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_find_contours, "cv_find_contours", &prepare_find_contours);

}  // namespace mnn::cpu
