// Registered primitives: the way to add an op family without touching the engine.
//
// The engine's built-in ops (elementwise opcodes, views, writes, reductions, matmul, ...) have
// their own Op kinds because the planner reasons about them (fusion, in-place, aliasing). Every
// other primitive (gather/scatter, sort, image filters, codecs' pixel work, ...) is an opaque
// step the planner only schedules: one file in csrc/ops/<family>/ registers its name and shape
// rule, one file in csrc/backends/cpu/kernels/<family>/ registers its CPU kernel under the same
// name, and Python calls it as _core.prim(name, inputs, ints, floats). Its vjp, when it has one,
// lives in mnn/autograd/vjps.py under the same name.
//
// A registered node is Op::Prim with params.ints[0] = the primitive's id followed by the
// caller's ints; floats are the caller's floats. The id is part of the structural hash, so CSE
// and the plan cache treat different primitives as different work.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "core/node.h"

namespace mnn::prims {

struct PrimMeta {
  core::DType dtype;
  core::Shape shape;
};

// What a shape rule sees: the input nodes (realised when the primitive is data_dependent) and
// the caller's parameters (without the id). Throws ValueError/TypeError/IndexError with a
// "[mnn.<module>.<fn>]" message on bad input: it runs on the line that recorded the op.
using InferFn = std::function<PrimMeta(const std::vector<core::NodePtr>& inputs, const core::Params& params)>;

struct Primitive {
  std::string name;  // unique; also the autograd kind and the kernel's registry key
  InferFn infer;
  // The output's shape depends on input values (nonzero, unique, boolean masks): inputs are
  // evaluated before infer runs, so infer may read them through data_ptr().
  bool data_dependent = false;
  // Non-contiguous inputs are copied to contiguous ones when recorded, so kernels see dense data.
  bool contiguous_inputs = true;
  int id = -1;  // set by register_primitive
};

// Registers at static-initialisation time; returns the id. Names must be unique.
int register_primitive(Primitive p);
const Primitive& primitive(int id);
const Primitive* find_primitive(const std::string& name);

// The caller's parameters of a registered node (params.ints without the leading id).
core::Params user_params(const core::Params& node_params);

// Backend side: a CPU kernel for a registered primitive. The StepDesc's params are the user
// params (no id); inputs keep their recorded strides (contiguous when contiguous_inputs).
// A kernel may be registered once per ISA level (0 scalar, 1 avx2 or neon, 2 avx512:
// cpu::isa_level): files under csrc/backends/cpu/simd/ are compiled once per ISA target, and
// MNN_REGISTER_CPU_KERNEL there registers each build at its own level. Lookup takes the highest
// level not above the active ISA (MNN_ISA caps it), so a scalar registration is the fallback.
using CpuPrepareFn = std::function<std::unique_ptr<backend::Kernel>(const backend::StepDesc&)>;
int register_cpu_kernel(const std::string& name, CpuPrepareFn fn, int isa_level = 0);
const CpuPrepareFn* find_cpu_kernel(const std::string& name);
// The same, at a given ISA level cap (tests compare every ISA's kernel with the scalar one).
const CpuPrepareFn* find_cpu_kernel(const std::string& name, int max_isa_level);

}  // namespace mnn::prims

// One line per registration at namespace scope in the family's file:
//   MNN_REGISTER_PRIMITIVE(sort_prim, {"sort", &infer_sort});
//   MNN_REGISTER_CPU_KERNEL(sort_kernel, "sort", &prepare_sort);
#define MNN_REGISTER_PRIMITIVE(tag, ...) \
  static const int mnn_prim_##tag = ::mnn::prims::register_primitive(::mnn::prims::Primitive __VA_ARGS__)
// Inside a per-ISA target (simd/), MNN_ISA_LEVEL is defined by CMake; elsewhere it is 0.
#ifndef MNN_ISA_LEVEL
#define MNN_ISA_LEVEL 0
#endif
#define MNN_REGISTER_CPU_KERNEL(tag, name, fn) \
  static const int mnn_cpu_kernel_##tag = ::mnn::prims::register_cpu_kernel(name, fn, MNN_ISA_LEVEL)
