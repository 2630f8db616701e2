// CPU kernel of correlate1d (ops/signal/correlate.cpp): numpy's direct correlation loop, each
// output a sum over the true overlap in ascending kernel order. Integers accumulate in uint64
// (defined wrap-around; truncated to the dtype it is numpy's result modulo 2^bits).
// Scalar only: every ISA gives the same bits; rows are short where this is used and the
// long-kernel GEMM path stays in Python for large n*m.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

template <class T>
using Acc = std::conditional_t<std::is_integral_v<T>, uint64_t, T>;

template <class T>
class Correlate1dKernel final : public backend::Kernel {
 public:
  explicit Correlate1dKernel(const backend::StepDesc& s)
      : n_(s.inputs[0].shape[0]), m_(s.inputs[1].shape[0]), sa_(s.inputs[0].strides[0]),
        sv_(s.inputs[1].strides[0]), left_(s.params->ints[0]), length_(s.params->ints[1]),
        flip_(s.params->ints[2] != 0), reverse_(s.params->ints[3] != 0) {}

  void run(char* const* in, char* out) override {
    const T* a = reinterpret_cast<const T*>(in[0]);
    const T* v = reinterpret_cast<const T*>(in[1]);
    T* o = reinterpret_cast<T*>(out);
    const int64_t n = n_, m = m_, left = left_, length = length_;
    // the kernel, dense and in the order it is applied (reversed for convolve)
    std::vector<Acc<T>> w(static_cast<size_t>(m));
    for (int64_t j = 0; j < m; ++j) w[j] = static_cast<Acc<T>>(v[(flip_ ? m - 1 - j : j) * sv_]);
    const int64_t sa = sa_;
    const bool reverse = reverse_;
    parallel_for(length, std::max<int64_t>(1, 32768 / m), [&](int64_t lo, int64_t hi) {
      for (int64_t k = lo; k < hi; ++k) {
        // overlap: j in [j0, j1) with 0 <= k + j - left < n
        const int64_t j0 = std::max<int64_t>(0, left - k), j1 = std::min<int64_t>(m, n + left - k);
        const T* ap = a + (k + j0 - left) * sa;
        Acc<T> acc = 0;
        if (sa == 1) {
          for (int64_t j = j0; j < j1; ++j) acc += static_cast<Acc<T>>(ap[j - j0]) * w[j];
        } else {
          for (int64_t j = j0; j < j1; ++j) acc += static_cast<Acc<T>>(ap[(j - j0) * sa]) * w[j];
        }
        o[reverse ? length - 1 - k : k] = static_cast<T>(acc);
      }
    });
  }

 private:
  int64_t n_, m_, sa_, sv_, left_, length_;
  bool flip_, reverse_;
};

std::unique_ptr<backend::Kernel> prepare_correlate1d(const backend::StepDesc& s) {
  return dispatch_dtype(s.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    constexpr bool ok = (std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, float> ||
                        std::is_same_v<T, double>;
    if constexpr (ok) {
      return std::make_unique<Correlate1dKernel<T>>(s);
    } else {
      throw NotImplementedError("[mnn.numpy.correlate] no native kernel for this dtype");
      return std::unique_ptr<backend::Kernel>();
    }
  });
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(correlate1d, "correlate1d", &prepare_correlate1d);

}  // namespace mnn::cpu
