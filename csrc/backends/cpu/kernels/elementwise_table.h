// Contiguous elementwise microkernels, one per (opcode, compute dtype), and casts between any two
// dtypes, from the kernel table of the active ISA. The fused tile interpreter calls these on tiles.
#pragma once
#include <cstdint>

#include "backends/cpu/simd/kernel_table.h"
#include "core/node.h"

namespace mnn::cpu {

// Entries of the active ISA's KernelTable (simd/kernel_table.h).
EwFn ew_kernel(core::Op op, core::DType compute);  // nullptr: no loop for that dtype
// The binary op with in[1] one value broadcast over n (KernelTable::ew_scalar_b); nullptr if none.
EwFn ew_kernel_scalar_b(core::Op op, core::DType compute);
CastFn cast_kernel(core::DType from, core::DType to);
F32ProgramFn f32_program_kernel();  // nullptr: the active ISA runs fused programs as tiles only
// Where: out[i] = cond[i] ? a[i] : b[i] (cond bool, a/b/out of itemsize bytes).
void where_kernel(int64_t n, const char* cond, const char* a, const char* b, char* out, size_t itemsize);

}  // namespace mnn::cpu
