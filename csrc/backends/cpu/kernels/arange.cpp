// arange: out[i] = start + i * delta, computed as numpy does (in double for floats, then cast).
#include "backends/cpu/cpu_backend.h"
#include "core/threadpool.h"

namespace mnn::cpu {

using namespace core;

namespace {

template <class T>
class ArangeKernel final : public backend::Kernel {
 public:
  ArangeKernel(int64_t n, const Params& p) : n_(n), p_(p) {}
  void run(char* const*, char* output) override {
    T* out = reinterpret_cast<T*>(output);
    parallel_for(n_, 65536, [&](int64_t b, int64_t e) {
      if (!p_.floats.empty()) {
        double s = p_.floats[0], d = p_.floats[1];
        for (int64_t i = b; i < e; ++i) {
          if constexpr (core::is_half_like_v<T>) out[i] = T(static_cast<float>(s + i * d));
          else out[i] = static_cast<T>(s + static_cast<double>(i) * d);
        }
      } else {
        int64_t s = p_.ints[0], d = p_.ints[1];
        for (int64_t i = b; i < e; ++i) {
          uint64_t v = static_cast<uint64_t>(s) + static_cast<uint64_t>(i) * static_cast<uint64_t>(d);
          if constexpr (core::is_half_like_v<T>) out[i] = T(static_cast<float>(static_cast<int64_t>(v)));
          else out[i] = static_cast<T>(static_cast<int64_t>(v));
        }
      }
    });
  }

 private:
  int64_t n_;
  Params p_;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_arange(const backend::StepDesc& step) {
  return dispatch_dtype(step.output.dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    return std::make_unique<ArangeKernel<T>>(step.output.shape[0], *step.params);
  });
}

}  // namespace mnn::cpu
