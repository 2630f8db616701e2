// The elementwise primitive family: dtype resolution and arity per opcode (the shape rule is
// plain broadcasting). Kernels live in backends/cpu/kernels/, gradients in autograd/.
#pragma once
#include <vector>

#include "core/node.h"

namespace mnn::prims {

using core::DType;
using core::Op;

enum class DTypeRule { Same, NoBool, Numeric, Float, TrueDiv, Compare, Logical, Bitwise, Shift, FloatPredicate, Select, Cast };

int arity(Op op);
DTypeRule dtype_rule(Op op);

struct ResolvedTypes {
  DType compute;  // every (value) input is cast to this before the op
  DType out;
};
// NumPy's type resolution for the op; throws TypeError (numpy's UFuncTypeError) when no loop exists.
// For Cast, `cast_to` is the target dtype.
using DTypeList = core::SmallVec<DType, 4>;
ResolvedTypes resolve_types(Op op, const DTypeList& inputs, DType cast_to = DType::Bool);

// The dtype a fused program must hand input i of `op` (Where's condition is bool).
inline DType operand_dtype(Op op, int i, const ResolvedTypes& r) {
  return (op == Op::Where && i == 0) ? DType::Bool : r.compute;
}

}  // namespace mnn::prims
