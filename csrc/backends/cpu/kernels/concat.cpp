// Concatenation along one axis: each input is copied (strided gather) into its slab of the
// contiguous output.
#include <cstring>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/strided.h"
#include "core/threadpool.h"

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
      p.dims = in.shape;
      p.in_st = in.strides;
      p.out_st = ost;
      p.out_off = off * ost[axis];
      off += in.shape[axis];
      coalesce(p.dims, {&p.in_st, &p.out_st});
      p.n = numel(in.shape);
      parts_.push_back(std::move(p));
    }
  }
  void run(char* const* inputs, char* output) override {
    for (size_t k = 0; k < parts_.size(); ++k) {
      const Part& p = parts_[k];
      if (p.n == 0) continue;
      constexpr int64_t kTile = 4096;
      int64_t ntiles = (p.n + kTile - 1) / kTile;
      parallel_for(ntiles, 16, [&](int64_t b, int64_t e) {
        std::vector<char> tmp(kTile * isz_);
        for (int64_t t = b; t < e; ++t) {
          int64_t start = t * kTile, n = std::min(kTile, p.n - start);
          gather(inputs[k], p.dims, p.in_st, isz_, start, n, tmp.data());
          scatter(tmp.data(), p.dims, p.out_st, isz_, start, n, output + p.out_off * static_cast<int64_t>(isz_));
        }
      });
    }
  }

 private:
  struct Part {
    std::vector<int64_t> dims, in_st, out_st;
    int64_t out_off, n;
  };
  std::vector<Part> parts_;
  size_t isz_;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_concat(const backend::StepDesc& step) {
  return std::make_unique<ConcatKernel>(step);
}

}  // namespace mnn::cpu
