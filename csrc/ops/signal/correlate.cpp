// 1-D correlation as one primitive (kernel in backends/cpu/kernels/signal/correlate.cpp):
//
//   correlate1d(a, v; left, length, flip_v, reverse_out)
//     out[k] = sum over j (ascending) of a[k + j - left] * w[j], only where 0 <= k + j - left < n,
//     w = v reversed when flip_v (convolve), out reversed when reverse_out (numpy's "inverted"
//     correlate, when a was the shorter operand).
//
// numpy's correlate loop sums exactly the overlap of the two operands, in this order, so infinite
// or NaN samples reach only the outputs that touch them. One node instead of the ~25 ops of a
// window-stacking composition: per-call cost matters for the short rows of apply_along_axis.
// Python (mnn/numpy/_convolve13.py) swaps operands, casts both to the result dtype and picks
// left/length from the mode; the rule here still checks what the kernel relies on.
#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_correlate1d(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  const NodePtr& v = in.at(1);
  if (a->ndim() != 1 || v->ndim() != 1)
    throw ValueError("[mnn.numpy.correlate] object too deep for desired array");
  if (a->dtype != v->dtype) throw TypeError("[mnn.numpy.correlate] operands must share a dtype");
  switch (a->dtype) {
    case DType::Bool: case DType::Float16: case DType::BFloat16: case DType::Complex64: case DType::Complex128:
      throw TypeError("[mnn.numpy.correlate] native loop has no kernel for this dtype");
    default: break;
  }
  int64_t n = a->shape[0], m = v->shape[0];
  if (n == 0) throw ValueError("[mnn.numpy.correlate] a cannot be empty");
  if (m == 0) throw ValueError("[mnn.numpy.correlate] v cannot be empty");
  if (p.ints.size() != 4) throw ValueError("[mnn.numpy.correlate] expected 4 parameters");
  int64_t left = p.ints[0], length = p.ints[1];
  if (left < 0 || left > m - 1 || length < 0 || length > n + m - 1 || length - left > n)
    throw ValueError("[mnn.numpy.correlate] window out of range");
  return {a->dtype, Shape{length}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(correlate1d, {"correlate1d", &infer_correlate1d, /*data_dependent=*/false,
                                     /*contiguous_inputs=*/false});

}  // namespace mnn::ops
