// Contiguous elementwise microkernels, one per (opcode, compute dtype), and casts between any two
// dtypes. The fused tile interpreter calls these on tiles; per-ISA SIMD versions replace entries.
#pragma once
#include <cstdint>

#include "core/node.h"

namespace mnn::cpu {

// out[i] = op(in[0][i], in[1][i], ...) for i < n; every operand contiguous and of the compute
// dtype, except comparison/predicate results, which are bool.
using EwFn = void (*)(int64_t n, const char* const* in, char* out);
EwFn ew_kernel(core::Op op, core::DType compute);  // nullptr: no loop for that dtype
using CastFn = void (*)(int64_t n, const char* in, char* out);
CastFn cast_kernel(core::DType from, core::DType to);
// Where: out[i] = cond[i] ? a[i] : b[i] (cond bool, a/b/out of itemsize bytes).
void where_kernel(int64_t n, const char* cond, const char* a, const char* b, char* out, size_t itemsize);

}  // namespace mnn::cpu
