// Shape rules of the primitives behind numpy's advanced indexing (besides take/scatter_add):
//
//   nonzero(a; flat):                     the coordinates of a's nonzero elements, row-major order:
//                                         (a.ndim, count) int64, or (count,) flat positions when flat=1
//   ravel_index(i_0..i_k-1; fn, mode, k, dims[k], axes[k][, nb, shape[nb]]):
//                                         sum_d norm(i_d, dims[d]) * stride_d over int64 arrays that
//                                         broadcast to `shape` (default: i_0's): the flat position of
//                                         a multi-index (validated here)
//   gather(src, flat; lead, k, axes[k]):  numpy's result of indexing src's axes `axes` (ascending) by
//                                         the coordinates whose row-major flat position over those
//                                         axes is flat (shape B): the other axes keep their order and
//                                         B is inserted before the lead-th of them. src is read with
//                                         its own strides (views are not copied first).
//   put(dst, idx, vals; axis):            dst with rows dst[pre, idx[j], post] = vals[pre, j, post],
//                                         later j winning over earlier ones (numpy's a[idx] = v)
//
// nonzero and ravel_index read their inputs (data_dependent): nonzero's length is the count, and
// numpy raises on the indexing line for an out-of-bounds index. put trusts indices that went
// through ravel_index or take's check; its kernel still never writes outside the output.
#include <algorithm>

#include "core/error.h"
#include "ops/indexing/index_common.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

template <class T>
inline bool truthy(T v) {
  if constexpr (core::is_half_like_v<T>) return static_cast<float>(v) != 0.0f;
  else return v != T{};
}

int64_t count_nonzero(const NodePtr& a) {
  int64_t n = numel(a->shape), c = 0;
  dispatch_dtype(a->dtype, [&](auto zero) {
    using T = decltype(zero);
    const T* p = reinterpret_cast<const T*>(a->data_ptr());
    for (int64_t i = 0; i < n; ++i) c += truthy(p[i]);
  });
  return c;
}

prims::PrimMeta infer_nonzero(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  int64_t c = count_nonzero(a);
  if (p.ints.at(0)) return {DType::Int64, Shape{c}};
  return {DType::Int64, Shape{static_cast<int64_t>(a->ndim()), c}};
}

prims::PrimMeta infer_ravel_index(const std::vector<NodePtr>& in, const Params& p) {
  int64_t fn = p.ints.at(0), mode = p.ints.at(1), k = p.ints.at(2);
  if (k < 1 || static_cast<int64_t>(in.size()) != k || static_cast<int64_t>(p.ints.size()) < 3 + 2 * k)
    throw ValueError(indexing::api(fn, "ravel_index: bad parameters"));
  // The result shape: given after dims and axes (the inputs broadcast to it), else the inputs' own.
  Shape out = in[0]->shape;
  if (static_cast<int64_t>(p.ints.size()) > 3 + 2 * k) {
    int64_t nb = p.ints[3 + 2 * k];
    out.assign(p.ints.begin() + 4 + 2 * k, p.ints.begin() + 4 + 2 * k + nb);
  }
  for (int64_t d = 0; d < k; ++d) {
    const NodePtr& x = in[d];
    bool fits = x->dtype == DType::Int64 && x->ndim() <= static_cast<int>(out.size());
    for (int i = 0; fits && i < x->ndim(); ++i) {
      int64_t want = out[out.size() - x->ndim() + i];
      fits = x->shape[i] == want || x->shape[i] == 1;
    }
    if (!fits) throw ValueError(indexing::api(fn, "ravel_index: index arrays do not broadcast to the result"));
    // Each input is checked over its own elements (broadcasting repeats them, it adds none).
    int64_t n = p.ints[3 + d], axis = p.ints[3 + k + d], m = numel(x->shape);
    const int64_t* v = reinterpret_cast<const int64_t*>(x->data_ptr());
    if (mode == indexing::Wrap || mode == indexing::Clip) {
      if (n == 0 && m > 0 && numel(out) > 0)
        throw IndexError(indexing::api(fn, "cannot do a non-empty take from an empty axes."));
      continue;
    }
    int64_t lo = 0, hi = 0;
    for (int64_t j = 0; j < m; ++j) {
      lo = std::min(lo, v[j]);
      hi = std::max(hi, v[j]);
    }
    int64_t min_ok = mode == indexing::RaiseStrict ? 0 : -n;
    if (lo >= min_ok && hi < n) continue;
    for (int64_t j = 0; j < m; ++j) {
      if (v[j] >= min_ok && v[j] < n) continue;
      if (mode == indexing::RaiseStrict)
        throw ValueError(indexing::api(fn, fn == 7 ? "invalid entry in choice array"
                                                   : "invalid entry in coordinates array"));
      throw IndexError(indexing::api(fn, "index " + std::to_string(v[j]) + " is out of bounds for axis " +
                                             std::to_string(axis) + " with size " + std::to_string(n)));
    }
  }
  return {DType::Int64, out};
}

prims::PrimMeta infer_gather(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& src = in.at(0);
  const NodePtr& flat = in.at(1);
  int64_t lead = p.ints.at(0), k = p.ints.at(1);
  if (flat->dtype != DType::Int64 || k < 1 || static_cast<int64_t>(p.ints.size()) != 2 + k)
    throw ValueError("[mnn.engine] gather: bad parameters");
  Shape rest;
  int64_t prev = -1;
  for (int64_t d = 0, j = 0; d < src->ndim(); ++d) {
    if (j < k && p.ints[2 + j] == d) {
      prev = d;
      ++j;
      continue;
    }
    rest.push_back(src->shape[d]);
  }
  if (prev < 0 || static_cast<int64_t>(rest.size()) + k != src->ndim() || lead < 0 ||
      lead > static_cast<int64_t>(rest.size()))
    throw ValueError("[mnn.engine] gather: axes must be ascending axes of the source");
  Shape s(rest.begin(), rest.begin() + lead);
  s.insert(s.end(), flat->shape.begin(), flat->shape.end());
  s.insert(s.end(), rest.begin() + lead, rest.end());
  return {src->dtype, s};
}

prims::PrimMeta infer_put(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& dst = in.at(0);
  const NodePtr& idx = in.at(1);
  const NodePtr& vals = in.at(2);
  int axis = static_cast<int>(p.ints.at(0));
  if (idx->dtype != DType::Int64 || vals->dtype != dst->dtype || axis < 0 || axis >= dst->ndim())
    throw ValueError("[mnn.engine] put: bad dtypes or axis");
  Shape want(dst->shape.begin(), dst->shape.begin() + axis);
  want.insert(want.end(), idx->shape.begin(), idx->shape.end());
  want.insert(want.end(), dst->shape.begin() + axis + 1, dst->shape.end());
  if (vals->shape != want) throw ValueError("[mnn.engine] put: values do not have the indexed shape");
  return {dst->dtype, dst->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(nonzero, {"nonzero", &infer_nonzero, /*data_dependent=*/true});
MNN_REGISTER_PRIMITIVE(ravel_index, {"ravel_index", &infer_ravel_index, /*data_dependent=*/true});
MNN_REGISTER_PRIMITIVE(put, {"put", &infer_put});
MNN_REGISTER_PRIMITIVE(gather, {"gather", &infer_gather, /*data_dependent=*/false, /*contiguous_inputs=*/false});

}  // namespace mnn::ops
