// Concatenation along one axis: each input is copied into its slab of the contiguous output by a
// prepared strided copy (row copies for matching layouts, cache-blocked transposes for
// transposed inputs, fills for broadcast ones), each split over the thread pool when large.
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/strided.h"

namespace mnn::cpu {

using namespace core;

namespace {

class ConcatKernel final : public backend::Kernel {
 public:
  explicit ConcatKernel(const backend::StepDesc& s) {
    int axis = static_cast<int>(s.params->ints[0]);
    isz_ = itemsize(s.output.dtype);
    Strides ost = contiguous_strides(s.output.shape);
    int64_t off = 0;
    for (auto& in : s.inputs) {
      Part p;
      p.out_off = off * ost[axis] * static_cast<int64_t>(isz_);
      off += in.shape[axis];
      p.copy = StridedCopy(in.shape, in.strides, ost, isz_);
      parts_.push_back(std::move(p));
    }
  }
  void run(char* const* inputs, char* output) override {
    for (size_t k = 0; k < parts_.size(); ++k) parts_[k].copy.run(inputs[k], output + parts_[k].out_off);
  }

 private:
  struct Part {
    StridedCopy copy;
    int64_t out_off;
  };
  std::vector<Part> parts_;
  size_t isz_;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_concat(const backend::StepDesc& step) {
  return std::make_unique<ConcatKernel>(step);
}

}  // namespace mnn::cpu
