// Sorting and searching primitives: shape rules (kernels in backends/cpu/kernels/sorting/).
//
//   sort(a; axis)                      stable ascending sort along axis, numpy's NaN-last order
//   argsort(a; axis)                   int64 permutation that sort applies (stable)
//   partition(a; axis, k0, k1, ...)    a with a[k] in sorted position, smaller before, larger after
//   argpartition(a; axis, k0, ...)     the int64 permutation of partition
//   searchsorted(s, v; right)          insertion points of v into sorted 1-D s (int64, v's shape)
//   bincount(x; minlength) / bincount(x, w; minlength)
//                                      counts (int64) or weight sums (float64) per value of x
//   sorting_gather(a, idx; axis)       out[.., j, ..] = a[.., idx[.., j, ..], ..] (take_along_axis)
//   sorting_mask_positions(m)          int64 positions of the true elements of a flat bool array
//
// Python (mnn/numpy/_sorting.py) normalises axes and kth values and casts operands; the rules
// here still check what a kernel relies on, so a bad call is an exception, never a bad write.
#include <algorithm>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

int axis_of(const NodePtr& a, int64_t axis, const char* fn) {
  int nd = a->ndim();
  if (axis < -nd || axis >= nd)
    throw AxisError(std::string("[mnn.numpy.") + fn + "] axis " + std::to_string(axis) +
                    " is out of bounds for array of dimension " + std::to_string(nd));
  return static_cast<int>(axis < 0 ? axis + nd : axis);
}

prims::PrimMeta infer_sort(const std::vector<NodePtr>& in, const Params& p) {
  axis_of(in.at(0), p.ints.at(0), "sort");
  return {in[0]->dtype, in[0]->shape};
}

prims::PrimMeta infer_argsort(const std::vector<NodePtr>& in, const Params& p) {
  axis_of(in.at(0), p.ints.at(0), "argsort");
  return {DType::Int64, in[0]->shape};
}

void check_kth(const NodePtr& a, const Params& p, const char* fn) {
  int ax = axis_of(a, p.ints.at(0), fn);
  int64_t n = a->shape[ax];
  for (size_t i = 1; i < p.ints.size(); ++i)
    if (p.ints[i] < 0 || p.ints[i] >= n)
      throw ValueError(std::string("[mnn.numpy.") + fn + "] kth(=" + std::to_string(p.ints[i]) +
                       ") out of bounds (" + std::to_string(n) + ")");
}

prims::PrimMeta infer_partition(const std::vector<NodePtr>& in, const Params& p) {
  check_kth(in.at(0), p, "partition");
  return {in[0]->dtype, in[0]->shape};
}

prims::PrimMeta infer_argpartition(const std::vector<NodePtr>& in, const Params& p) {
  check_kth(in.at(0), p, "argpartition");
  return {DType::Int64, in[0]->shape};
}

prims::PrimMeta infer_searchsorted(const std::vector<NodePtr>& in, const Params&) {
  if (in.at(0)->ndim() != 1) throw ValueError("[mnn.numpy.searchsorted] object too deep for desired array");
  if (in.at(1)->dtype != in[0]->dtype)
    throw TypeError("[mnn.numpy.searchsorted] sorted array and values must share a dtype");
  return {DType::Int64, in[1]->shape};
}

prims::PrimMeta infer_bincount(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& x = in.at(0);
  if (x->ndim() != 1) throw ValueError("[mnn.numpy.bincount] object too deep for desired array");
  if (x->dtype != DType::Int64) throw TypeError("[mnn.numpy.bincount] input must be int64");
  int64_t minlength = p.ints.at(0);
  if (minlength < 0) throw ValueError("[mnn.numpy.bincount] 'minlength' must not be negative");
  if (in.size() > 1) {
    if (in[1]->dtype != DType::Float64) throw TypeError("[mnn.numpy.bincount] weights must be float64");
    if (in[1]->shape != x->shape) throw ValueError("[mnn.numpy.bincount] The weights and list don't have the same length.");
  }
  const int64_t* v = reinterpret_cast<const int64_t*>(x->data_ptr());
  int64_t n = numel(x->shape), mx = -1;
  for (int64_t i = 0; i < n; ++i) {
    if (v[i] < 0) throw ValueError("[mnn.numpy.bincount] 'list' argument must have no negative elements");
    mx = std::max(mx, v[i]);
  }
  return {in.size() > 1 ? DType::Float64 : DType::Int64, Shape{std::max(mx + 1, minlength)}};
}

prims::PrimMeta infer_gather(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  const NodePtr& idx = in.at(1);
  int ax = axis_of(a, p.ints.at(0), "take_along_axis");
  if (idx->dtype != DType::Int64) throw IndexError("[mnn.numpy.take_along_axis] indices must be int64");
  if (idx->ndim() != a->ndim()) throw ValueError("[mnn.numpy.take_along_axis] indices and arr must have the same ndim");
  for (int d = 0; d < a->ndim(); ++d)
    if (d != ax && idx->shape[d] != a->shape[d])
      throw ValueError("[mnn.numpy.take_along_axis] indices and arr shapes differ off the axis");
  if (a->shape[ax] == 0 && numel(idx->shape) != 0)
    throw IndexError("[mnn.numpy.take_along_axis] cannot take from an empty axis");
  return {a->dtype, idx->shape};
}

prims::PrimMeta infer_mask_positions(const std::vector<NodePtr>& in, const Params&) {
  const NodePtr& m = in.at(0);
  if (m->dtype != DType::Bool) throw TypeError("[mnn.numpy.nonzero] mask must be bool");
  const bool* v = reinterpret_cast<const bool*>(m->data_ptr());
  int64_t n = numel(m->shape), c = 0;
  for (int64_t i = 0; i < n; ++i) c += v[i] ? 1 : 0;
  return {DType::Int64, Shape{c}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(sort, {"sort", &infer_sort});
MNN_REGISTER_PRIMITIVE(argsort, {"argsort", &infer_argsort});
MNN_REGISTER_PRIMITIVE(partition, {"partition", &infer_partition});
MNN_REGISTER_PRIMITIVE(argpartition, {"argpartition", &infer_argpartition});
MNN_REGISTER_PRIMITIVE(searchsorted, {"searchsorted", &infer_searchsorted});
MNN_REGISTER_PRIMITIVE(bincount, {"bincount", &infer_bincount, /*data_dependent=*/true});
MNN_REGISTER_PRIMITIVE(sorting_gather, {"sorting_gather", &infer_gather});
MNN_REGISTER_PRIMITIVE(sorting_mask_positions, {"sorting_mask_positions", &infer_mask_positions, /*data_dependent=*/true});

}  // namespace mnn::ops
