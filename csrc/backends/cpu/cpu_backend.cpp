// The CPU backend: maps each step to its kernel family.
#include "backends/cpu/cpu_backend.h"

#include "backends/cpu/fused.h"
#include "core/error.h"
#include "prims/registry.h"

namespace mnn::cpu {

namespace {

// A registered primitive's kernel sees only its caller's parameters (the id is the engine's).
std::unique_ptr<backend::Kernel> prepare_registered(const backend::StepDesc& step) {
  const prims::Primitive& p = prims::primitive(static_cast<int>(step.params->ints[0]));
  const prims::CpuPrepareFn* fn = prims::find_cpu_kernel(p.name);
  if (!fn) throw core::NotImplementedError("[mnn.engine] no cpu kernel for '" + p.name + "'");
  core::Params user = prims::user_params(*step.params);
  backend::StepDesc d = step;
  d.params = &user;  // valid during prepare only: kernels copy what they need
  return (*fn)(d);
}

class CpuBackend final : public backend::Backend {
 public:
  const char* name() const override { return "cpu"; }
  std::unique_ptr<backend::Kernel> prepare(const backend::StepDesc& step) override {
    if (step.program) return prepare_fused(*step.program);
    if (step.region) return prepare_region(*step.region);
    switch (step.op) {
      case core::Op::Reduce: return prepare_reduce(step);
      case core::Op::ArgReduce: return prepare_argreduce(step);
      case core::Op::Scan: return prepare_scan(step);
      case core::Op::Matmul: return prepare_matmul(step);
      case core::Op::Concat: return prepare_concat(step);
      case core::Op::Arange: return prepare_arange(step);
      case core::Op::Prim: return prepare_registered(step);
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
