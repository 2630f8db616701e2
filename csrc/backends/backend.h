// The backend interface. The planner hands a backend one step at a time (a fused elementwise
// program or a single primitive) with every shape, stride and dtype fixed; the backend prepares a
// Kernel for it (choose the algorithm, split the work, size scratch: MNN's onResize) and the
// executor later runs that Kernel on raw pointers only (MNN's onExecute). Prepared kernels are
// cached with the plan, so a repeated computation never prepares twice.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/node.h"

namespace mnn::backend {

using core::DType;
using core::Op;
using core::Shape;
using core::Strides;

struct TensorDesc {
  DType dtype;
  Shape shape;
  Strides strides;  // elements; 0 on broadcast axes
};

// One instruction of a fused elementwise program. Operands are registers: the program's inputs
// are registers 0..n_inputs-1, each instruction writes a new register.
struct FusedInstr {
  Op op;          // an elementwise opcode; Cast converts src[0] from `compute` to `out`
  DType compute;  // dtype of the value operands
  DType out;      // dtype of the result
  int src[3];
  int dst;
};

struct FusedProgram {
  std::vector<TensorDesc> inputs;  // already broadcast to the output shape
  TensorDesc output;               // may be strided (a write into a window of a buffer)
  std::vector<FusedInstr> code;
  int result = 0;                  // register holding the output value
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual void run(char* const* inputs, char* output) = 0;
};

struct StepDesc {
  Op op;
  const core::Params* params;
  std::vector<TensorDesc> inputs;
  TensorDesc output;
  const FusedProgram* program = nullptr;  // set for fused elementwise steps
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  // Throws NotImplementedError naming the op and the device when it has no kernel.
  virtual std::unique_ptr<Kernel> prepare(const StepDesc& step) = 0;
};

Backend& backend_for(core::Device dev);

}  // namespace mnn::backend
