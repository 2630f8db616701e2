// CPU kernel of "clip_int" (csrc/ops/clip/clip_int.cpp): out = min(max(x, lo), hi) over a
// contiguous integer array, one read and one write per element. Compiled per ISA target (a
// plain loop the compiler turns into the target's packed max/min); integer results are exact,
// so every target gives the scalar target's bits.
#include <algorithm>
#include <cstdint>
#include <memory>

#include "backends/cpu/simd/kernel_table.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {
namespace {

template <class T>
void clip_loop(const T* x, T* o, int64_t n, T lo, T hi) {
  for (int64_t i = 0; i < n; ++i) {
    const T v = x[i] < lo ? lo : x[i];
    o[i] = v > hi ? hi : v;
  }
}

class ClipIntKernel final : public backend::Kernel {
 public:
  ClipIntKernel(core::DType dt, int64_t n, int64_t lo, int64_t hi) : dt_(dt), n_(n), lo_(lo), hi_(hi) {}
  void run(char* const* in, char* out) override {
    core::dispatch_dtype(dt_, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        const T* x = reinterpret_cast<const T*>(in[0]);
        T* o = reinterpret_cast<T*>(out);
        const T lo = T(lo_), hi = T(hi_);
        constexpr int64_t kGrain = int64_t(1) << 18;  // elements per task: worth a thread
        core::parallel_for((n_ + kGrain - 1) / kGrain, 1, [&](int64_t b, int64_t e) {
          for (int64_t c = b; c < e; ++c) {
            const int64_t i0 = c * kGrain, i1 = std::min(n_, i0 + kGrain);
            clip_loop(x + i0, o + i0, i1 - i0, lo, hi);
          }
        });
      }
    });
  }

 private:
  core::DType dt_;
  int64_t n_, lo_, hi_;
};

std::unique_ptr<backend::Kernel> prepare_clip_int(const backend::StepDesc& s) {
  int64_t n = 1;
  for (auto d : s.inputs[0].shape) n *= d;
  return std::make_unique<ClipIntKernel>(s.inputs[0].dtype, n, s.params->ints[0], s.params->ints[1]);
}

}  // namespace
}  // namespace mnn::cpu::MNN_ISA_NS

MNN_REGISTER_CPU_KERNEL(clip_int, "clip_int", &mnn::cpu::MNN_ISA_NS::prepare_clip_int);
