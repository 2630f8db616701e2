// take along one axis (the gather under integer-array indexing) and its adjoint scatter_add.
//
//   take(a, idx; axis[, fn, mode]): out[pre, j..., post] = a[pre, idx[j...], post]
//     fn names the public function in errors (index_common.h); mode is numpy's raise/wrap/clip;
//     an optional 4th int is the axis that errors report (the caller's axis before reshapes).
//   scatter_add(g, idx; axis, n):  out = zeros(pre, n, post); out[pre, idx[j...], post] += g[pre, j..., post]
//
// take validates its indices when recorded (numpy raises IndexError on the indexing line), so it
// evaluates them first; scatter_add trusts indices that a take already checked.
#include <algorithm>

#include "core/error.h"
#include "ops/indexing/index_common.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

int normalize_axis(int64_t axis, int nd, const char* fn) {
  if (axis < -nd || axis >= nd)
    throw AxisError(std::string("[mnn.numpy.") + fn + "] axis " + std::to_string(axis) +
                    " is out of bounds for array of dimension " + std::to_string(nd));
  return static_cast<int>(axis < 0 ? axis + nd : axis);
}

void check_index_dtype(const NodePtr& idx, const char* fn) {
  if (idx->dtype != DType::Int64)
    throw IndexError(std::string("[mnn.numpy.") + fn + "] arrays used as indices must be of integer (or boolean) type");
}

prims::PrimMeta infer_take(const std::vector<NodePtr>& in, const Params& p) {
  int64_t fn_id = p.ints.size() > 1 ? p.ints[1] : 0;
  int64_t mode = p.ints.size() > 2 ? p.ints[2] : indexing::Raise;
  const char* fn = indexing::fn_name(fn_id);
  const NodePtr& a = in.at(0);
  const NodePtr& idx = in.at(1);
  check_index_dtype(idx, fn);
  int axis = normalize_axis(p.ints.at(0), a->ndim(), fn);
  int64_t n = a->shape[axis];
  int64_t shown_axis = p.ints.size() > 3 ? p.ints[3] : axis;
  const int64_t* iv = reinterpret_cast<const int64_t*>(idx->data_ptr());
  int64_t m = numel(idx->shape);
  if (mode == indexing::Wrap || mode == indexing::Clip) {
    if (n == 0 && m > 0) throw IndexError(indexing::api(fn_id, "cannot do a non-empty take from an empty axes."));
  } else {
    // A branch-free min/max pass (vectorised) first; the search for the culprit only on failure.
    int64_t lo = 0, hi = 0;
    for (int64_t j = 0; j < m; ++j) {
      lo = std::min(lo, iv[j]);
      hi = std::max(hi, iv[j]);
    }
    if (lo < -n || hi >= n)
      for (int64_t j = 0; j < m; ++j)
        if (iv[j] < -n || iv[j] >= n)
          throw IndexError(indexing::api(fn_id, "index " + std::to_string(iv[j]) + " is out of bounds for axis " +
                                                    std::to_string(shown_axis) + " with size " + std::to_string(n)));
  }
  Shape s(a->shape.begin(), a->shape.begin() + axis);
  s.insert(s.end(), idx->shape.begin(), idx->shape.end());
  s.insert(s.end(), a->shape.begin() + axis + 1, a->shape.end());
  return {a->dtype, s};
}

prims::PrimMeta infer_scatter_add(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& g = in.at(0);
  const NodePtr& idx = in.at(1);
  check_index_dtype(idx, "scatter_add");
  int axis = static_cast<int>(p.ints.at(0));
  int64_t n = p.ints.at(1);
  int k = idx->ndim();
  if (axis < 0 || axis + k > g->ndim() || n < 0)
    throw ValueError("[mnn.engine] scatter_add: bad axis/length for the given shapes");
  for (int d = 0; d < k; ++d)
    if (g->shape[axis + d] != idx->shape[d]) throw ValueError("[mnn.engine] scatter_add: index shape mismatch");
  Shape s(g->shape.begin(), g->shape.begin() + axis);
  s.push_back(n);
  s.insert(s.end(), g->shape.begin() + axis + k, g->shape.end());
  return {g->dtype, s};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(take, {"take", &infer_take, /*data_dependent=*/true});
MNN_REGISTER_PRIMITIVE(scatter_add, {"scatter_add", &infer_scatter_add});

}  // namespace mnn::ops
