// strided_window(x; nd, shape[nd], strides[nd]): out[i0, .., i_{nd-1}] = flat(x)[sum_q i_q * strides[q]]
// (strides in elements, >= 0). The engine has no arbitrary-stride views, so numpy's
// sliding_window_view (an as_strided view) is this one copy (kernel in
// backends/cpu/kernels/indexing/strided_window.cpp) instead of two index-array gathers. The rule
// checks every reachable offset lies inside x, so the kernel never reads out of bounds.
#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_strided_window(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& x = in.at(0);
  if (p.ints.empty()) throw ValueError("[mnn.numpy.lib.stride_tricks.sliding_window_view] bad window parameters");
  int64_t nd = p.ints[0];
  if (nd < 0 || static_cast<int64_t>(p.ints.size()) != 1 + 2 * nd)
    throw ValueError("[mnn.numpy.lib.stride_tricks.sliding_window_view] bad window parameters");
  Shape shape(p.ints.begin() + 1, p.ints.begin() + 1 + nd);
  int64_t last = 0, total = 1;
  for (int64_t q = 0; q < nd; ++q) {
    int64_t n = shape[q], st = p.ints[1 + nd + q];
    if (n < 0 || st < 0) throw ValueError("[mnn.numpy.lib.stride_tricks.sliding_window_view] bad window parameters");
    total *= n;
    if (n > 0) last += (n - 1) * st;
  }
  if (total > 0 && last >= numel(x->shape))
    throw ValueError("[mnn.numpy.lib.stride_tricks.sliding_window_view] window reaches past the array");
  return {x->dtype, shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(strided_window, {"strided_window", &infer_strided_window});

}  // namespace mnn::ops
