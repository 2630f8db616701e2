// cumsum / cumprod along one axis (input already in the result dtype; output contiguous).
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/strided.h"
#include "core/threadpool.h"
#include "ops/ops.h"

namespace mnn::cpu {

using namespace core;

namespace {

template <class T>
class ScanKernel final : public backend::Kernel {
 public:
  ScanKernel(const backend::TensorDesc& in, int axis, bool prod) : prod_(prod) {
    n_ = in.shape[axis];
    in_stride_ = in.strides[axis];
    Strides out_st = contiguous_strides(in.shape);
    out_stride_ = out_st[axis];
    for (size_t i = 0; i < in.shape.size(); ++i) {
      if (static_cast<int>(i) == axis) continue;
      odims_.push_back(in.shape[i]);
      ist_.push_back(in.strides[i]);
      ost_.push_back(out_st[i]);
    }
    coalesce(odims_, {&ist_, &ost_});
    nouter_ = numel(odims_);
  }
  void run(char* const* inputs, char* output) override {
    using A = std::conditional_t<core::is_half_like_v<T>, float, T>;
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    T* out = reinterpret_cast<T*>(output);
    if (n_ == 0) return;
    parallel_for(nouter_, std::max<int64_t>(1, 16384 / n_), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        int64_t io = 0, oo = 0, rem = o;
        for (int d = static_cast<int>(odims_.size()) - 1; d >= 0; --d) {
          int64_t k = rem % odims_[d];
          rem /= odims_[d];
          io += k * ist_[d];
          oo += k * ost_[d];
        }
        A acc = prod_ ? A(1) : A(0);
        for (int64_t i = 0; i < n_; ++i) {
          A v = A(in[io + i * in_stride_]);
          if constexpr (std::is_same_v<A, bool>) acc = prod_ ? (acc && v) : (acc || v);
          else if constexpr (std::is_integral_v<A>) {
            using U = std::conditional_t<(sizeof(A) < 4), uint32_t, std::make_unsigned_t<A>>;
            acc = prod_ ? A(U(acc) * U(v)) : A(U(acc) + U(v));
          } else {
            acc = prod_ ? acc * v : acc + v;
            if constexpr (core::is_half_like_v<T>) acc = A(T(acc));  // numpy rounds every partial result
          }
          out[oo + i * out_stride_] = T(acc);
        }
      }
    });
  }

 private:
  bool prod_;
  int64_t n_, in_stride_, out_stride_, nouter_;
  std::vector<int64_t> odims_, ist_, ost_;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_scan(const backend::StepDesc& step) {
  const auto& p = step.params->ints;
  return dispatch_dtype(step.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    return std::make_unique<ScanKernel<T>>(step.inputs[0], static_cast<int>(p[1]), p[0] == 1);
  });
}

}  // namespace mnn::cpu
