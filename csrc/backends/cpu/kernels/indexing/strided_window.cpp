// CPU kernel of strided_window (ops/indexing/strided_window.cpp): a copy through arbitrary
// element strides from a contiguous input; rows of the last axis are the inner loop, copied by
// item size (the values are moved, never converted).
#include <cstring>
#include <vector>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

template <class U>
class StridedWindowKernel final : public backend::Kernel {
 public:
  explicit StridedWindowKernel(const backend::StepDesc& s) {
    const auto& ints = s.params->ints;
    int64_t nd = ints[0];
    shape_.assign(ints.begin() + 1, ints.begin() + 1 + nd);
    strides_.assign(ints.begin() + 1 + nd, ints.begin() + 1 + 2 * nd);
    if (nd == 0) { shape_.push_back(1); strides_.push_back(0); }
  }
  void run(char* const* in, char* out) override {
    const U* x = reinterpret_cast<const U*>(in[0]);
    U* o = reinterpret_cast<U*>(out);
    const int nd = static_cast<int>(shape_.size());
    const int64_t inner = shape_[nd - 1], sin = strides_[nd - 1];
    int64_t rows = 1;
    for (int d = 0; d < nd - 1; ++d) rows *= shape_[d];
    if (rows == 0 || inner == 0) return;
    parallel_for(rows, std::max<int64_t>(1, 16384 / inner), [&](int64_t lo, int64_t hi) {
      for (int64_t r = lo; r < hi; ++r) {
        int64_t rem = r, off = 0;
        for (int d = nd - 2; d >= 0; --d) {
          off += (rem % shape_[d]) * strides_[d];
          rem /= shape_[d];
        }
        const U* src = x + off;
        U* dst = o + r * inner;
        if (sin == 1) {
          std::memcpy(dst, src, static_cast<size_t>(inner) * sizeof(U));
        } else {
          for (int64_t i = 0; i < inner; ++i) dst[i] = src[i * sin];
        }
      }
    });
  }

 private:
  std::vector<int64_t> shape_, strides_;
};

struct Bytes16 { uint64_t lo, hi; };

std::unique_ptr<backend::Kernel> prepare_strided_window(const backend::StepDesc& s) {
  switch (itemsize(s.inputs[0].dtype)) {
    case 1: return std::make_unique<StridedWindowKernel<uint8_t>>(s);
    case 2: return std::make_unique<StridedWindowKernel<uint16_t>>(s);
    case 4: return std::make_unique<StridedWindowKernel<uint32_t>>(s);
    case 8: return std::make_unique<StridedWindowKernel<uint64_t>>(s);
    default: return std::make_unique<StridedWindowKernel<Bytes16>>(s);
  }
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(strided_window, "strided_window", &prepare_strided_window);

}  // namespace mnn::cpu
