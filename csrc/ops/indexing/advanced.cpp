// Shape rules of the primitives behind numpy's advanced indexing (besides take/scatter_add):
//
//   nonzero(a; flat):                     the coordinates of a's nonzero elements, row-major order:
//                                         (a.ndim, count) int64, or (count,) flat positions when flat=1
//   ravel_index(i_0..i_k-1; fn, mode, k, dims[k], axes[k]):
//                                         sum_d norm(i_d, dims[d]) * stride_d over same-shaped int64
//                                         arrays: the flat position of a multi-index (validated here)
//   put(dst, idx, vals; axis):            dst with rows dst[pre, idx[j], post] = vals[pre, j, post],
//                                         later j winning over earlier ones (numpy's a[idx] = v)
//
// nonzero and ravel_index read their inputs (data_dependent): nonzero's length is the count, and
// numpy raises on the indexing line for an out-of-bounds index. put trusts indices that went
// through ravel_index or take's check; its kernel still never writes outside the output.
#include "core/error.h"
#include "ops/indexing/index_common.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

template <class T>
inline bool truthy(T v) {
  if constexpr (std::is_same_v<T, half>) return static_cast<float>(v) != 0.0f;
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
  if (k < 1 || static_cast<int64_t>(in.size()) != k || static_cast<int64_t>(p.ints.size()) != 3 + 2 * k)
    throw ValueError(indexing::api(fn, "ravel_index: bad parameters"));
  const Shape& s = in[0]->shape;
  int64_t m = numel(s);
  for (int64_t d = 0; d < k; ++d) {
    const NodePtr& x = in[d];
    if (x->dtype != DType::Int64 || x->shape != s) throw ValueError(indexing::api(fn, "ravel_index: bad index arrays"));
    int64_t n = p.ints[3 + d], axis = p.ints[3 + k + d];
    const int64_t* v = reinterpret_cast<const int64_t*>(x->data_ptr());
    if (mode == indexing::Wrap || mode == indexing::Clip) {
      if (n == 0 && m > 0) throw IndexError(indexing::api(fn, "cannot do a non-empty take from an empty axes."));
      continue;
    }
    for (int64_t j = 0; j < m; ++j) {
      if (mode == indexing::RaiseStrict) {
        if (v[j] < 0 || v[j] >= n)
          throw ValueError(indexing::api(fn, fn == 7 ? "invalid entry in choice array"
                                                     : "invalid entry in coordinates array"));
      } else if (v[j] < -n || v[j] >= n) {
        throw IndexError(indexing::api(fn, "index " + std::to_string(v[j]) + " is out of bounds for axis " +
                                               std::to_string(axis) + " with size " + std::to_string(n)));
      }
    }
  }
  return {DType::Int64, s};
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

}  // namespace mnn::ops
