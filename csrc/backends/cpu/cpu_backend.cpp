// The CPU backend: maps each step to its kernel family.
#include "backends/cpu/cpu_backend.h"

#include "backends/cpu/fused.h"
#include "core/error.h"

namespace mnn::cpu {

namespace {

class CpuBackend final : public backend::Backend {
 public:
  const char* name() const override { return "cpu"; }
  std::unique_ptr<backend::Kernel> prepare(const backend::StepDesc& step) override {
    if (step.program) return prepare_fused(*step.program);
    switch (step.op) {
      case core::Op::Reduce: return prepare_reduce(step);
      case core::Op::ArgReduce: return prepare_argreduce(step);
      case core::Op::Scan: return prepare_scan(step);
      case core::Op::Matmul: return prepare_matmul(step);
      case core::Op::Concat: return prepare_concat(step);
      case core::Op::Arange: return prepare_arange(step);
      default:
        throw core::NotImplementedError(std::string("[mnn.engine] no cpu kernel for '") + core::op_name(step.op) +
                                        "'");
    }
  }
};

}  // namespace

backend::Backend& cpu_backend() {
  static CpuBackend* b = new CpuBackend();
  return *b;
}

}  // namespace mnn::cpu

namespace mnn::backend {

Backend& backend_for(core::Device dev) {
  if (dev.type == core::Device::CPU) return cpu::cpu_backend();
  throw core::NotImplementedError("[mnn.engine] no backend for device cuda:" + std::to_string(dev.index) +
                                  " in this build");
}

}  // namespace mnn::backend
