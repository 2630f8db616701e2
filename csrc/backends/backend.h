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
  // Per input (empty: none): one value per row of a row region, m[:, None], seen as a broadcast
  // scalar. numpy gives an add's or a multiply's first operand's NaN with it (x + m[:, None] keeps
  // x's), where a 0-d scalar operand's NaN wins wherever it stands.
  std::vector<char> row_values;
};

// A row region: elementwise work and last-axis reductions over an [R, C] view of the data
// (softmax, (x - mean) / std, layer norm), run block by block of rows so every intermediate stays
// in cache: one read of the inputs and one write of the result. Values live in slots; the planner
// fills the code, the backend sizes blocks and fills each step's shapes and strides.
struct RegionSlot {
  DType dtype;
  bool full = true;         // C values per row, else one
  int external = -1;        // >= 0: the step's input with this index, read in place
  int64_t row_stride = 0;   // external: element strides of its [R, C] (or [R, 1]) view
  int64_t col_stride = 0;
  bool result = false;      // the region's value: written to the step's output
};

struct RegionStep {
  bool reduce = false;
  int reduce_kind = 0;      // ops::ReduceKind (sum, prod, max, min)
  FusedProgram program;     // elementwise: code and dtypes; shapes/strides left to the backend
  bool full = true;         // elementwise: its result has C columns, else one
  std::vector<int> srcs;    // slots read (program inputs in order; the reduced slot)
  int dst = -1;             // slot written
};

struct RegionProgram {
  int64_t rows = 0, cols = 0;
  std::vector<RegionSlot> slots;
  std::vector<RegionStep> steps;
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
  const RegionProgram* region = nullptr;  // set for row regions
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
