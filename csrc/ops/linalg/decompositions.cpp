// Shape rules of the dense decompositions behind mnn.numpy.linalg (kernels in
// backends/cpu/kernels/linalg/decompositions.cpp). Every primitive works on stacks of matrices
// ([..., m, n], batched over the leading dims) of float32 or float64 (mnn/numpy/linalg.py casts
// other dtypes as numpy does). Results that numpy returns as several arrays come packed in one
// output (the engine's primitives have one), which linalg.py slices into views:
//   linalg_solve    a [..., n, n], b [..., n, k] -> x [..., n, k]
//   linalg_inv      a [..., n, n] -> [..., n, n]
//   linalg_slogdet  a [..., n, n] -> [..., 3]            (sign, log|det|, det)
//   linalg_cholesky a [..., n, n] -> [..., n, n]         lower triangle
//   linalg_qr       a [..., m, n] -> [..., m, m + n]     complete Q (m x m) in the first m columns,
//                                                        R (m x n) in the last n
//   linalg_qr_thin  a [..., m, n] -> [..., m, k + n]     reduced Q (m x k, k = min(m, n)) in the first k
//                                                        columns, R (k x n) in the first k rows after
//                                                        them (the rows below are zero)
//   linalg_eigh     a [..., n, n] -> [..., n, n + 1]     eigenvalues ascending in column 0, their
//                                                        eigenvectors in the columns after
//   linalg_svd      a [..., m, n] -> [..., m*m + k + n*n] U (m x m), S (k), Vh (n x n), flattened
//   linalg_svd_thin a [..., m, n] -> [..., m*k + k + k*n] the reduced SVD: U (m x k), S, Vh (k x n)
//   linalg_svdvals  a [..., m, n] -> [..., k]
// Singular or indefinite input is reported by the kernel through the engine's error flags and
// raised as LinAlgError when the result is evaluated (linalg.py evaluates at once, like numpy).
#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

std::string msg(const char* fn, const std::string& m) { return std::string("[mnn.numpy.linalg.") + fn + "] " + m; }

void check_float(const NodePtr& a, const char* fn) {
  if (a->dtype != DType::Float32 && a->dtype != DType::Float64)
    throw TypeError(msg(fn, std::string("array type ") + dtype_name(a->dtype) + " is unsupported in linalg"));
}

void check_stack(const NodePtr& a, const char* fn, bool square) {
  check_float(a, fn);
  int nd = a->ndim();
  if (nd < 2)
    throw LinAlgError(msg(fn, std::to_string(nd) + "-dimensional array given. Array must be at least two-dimensional"));
  if (square && a->shape[nd - 1] != a->shape[nd - 2])
    throw LinAlgError(msg(fn, "Last 2 dimensions of the array must be square"));
}

Shape batch_of(const NodePtr& a) { return Shape(a->shape.begin(), a->shape.end() - 2); }

Shape with(Shape s, std::initializer_list<int64_t> tail) {
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

prims::PrimMeta infer_solve(const std::vector<NodePtr>& in, const Params&) {
  const NodePtr& a = in.at(0);
  const NodePtr& b = in.at(1);
  check_stack(a, "solve", true);
  check_float(b, "solve");
  if (b->dtype != a->dtype) throw TypeError(msg("solve", "a and b must have the same dtype"));
  // linalg.py broadcasts the batch dims and makes b a stack of matrices first
  if (b->ndim() != a->ndim() || b->shape[b->ndim() - 2] != a->shape[a->ndim() - 1] || batch_of(a) != batch_of(b))
    throw ValueError(msg("solve", "a and b have incompatible shapes"));
  return {a->dtype, b->shape};
}

prims::PrimMeta infer_inv(const std::vector<NodePtr>& in, const Params&) {
  check_stack(in.at(0), "inv", true);
  return {in[0]->dtype, in[0]->shape};
}

prims::PrimMeta infer_slogdet(const std::vector<NodePtr>& in, const Params&) {
  check_stack(in.at(0), "slogdet", true);
  return {in[0]->dtype, with(batch_of(in[0]), {3})};
}

prims::PrimMeta infer_cholesky(const std::vector<NodePtr>& in, const Params&) {
  check_stack(in.at(0), "cholesky", true);
  return {in[0]->dtype, in[0]->shape};
}

prims::PrimMeta infer_qr(const std::vector<NodePtr>& in, const Params&) {
  check_stack(in.at(0), "qr", false);
  int64_t m = in[0]->shape[in[0]->ndim() - 2], n = in[0]->shape[in[0]->ndim() - 1];
  return {in[0]->dtype, with(batch_of(in[0]), {m, m + n})};
}

prims::PrimMeta infer_qr_thin(const std::vector<NodePtr>& in, const Params&) {
  check_stack(in.at(0), "qr", false);
  int64_t m = in[0]->shape[in[0]->ndim() - 2], n = in[0]->shape[in[0]->ndim() - 1];
  return {in[0]->dtype, with(batch_of(in[0]), {m, std::min(m, n) + n})};
}

prims::PrimMeta infer_eigh(const std::vector<NodePtr>& in, const Params&) {
  check_stack(in.at(0), "eigh", true);
  int64_t n = in[0]->shape.back();
  return {in[0]->dtype, with(batch_of(in[0]), {n, n + 1})};
}

prims::PrimMeta infer_svd(const std::vector<NodePtr>& in, const Params&) {
  check_stack(in.at(0), "svd", false);
  int64_t m = in[0]->shape[in[0]->ndim() - 2], n = in[0]->shape[in[0]->ndim() - 1];
  return {in[0]->dtype, with(batch_of(in[0]), {m * m + std::min(m, n) + n * n})};
}

prims::PrimMeta infer_svd_thin(const std::vector<NodePtr>& in, const Params&) {
  check_stack(in.at(0), "svd", false);
  int64_t m = in[0]->shape[in[0]->ndim() - 2], n = in[0]->shape[in[0]->ndim() - 1], k = std::min(m, n);
  return {in[0]->dtype, with(batch_of(in[0]), {m * k + k + k * n})};
}

prims::PrimMeta infer_svdvals(const std::vector<NodePtr>& in, const Params&) {
  check_stack(in.at(0), "svdvals", false);
  int64_t m = in[0]->shape[in[0]->ndim() - 2], n = in[0]->shape[in[0]->ndim() - 1];
  return {in[0]->dtype, with(batch_of(in[0]), {std::min(m, n)})};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(linalg_solve, {"linalg_solve", &infer_solve});
MNN_REGISTER_PRIMITIVE(linalg_inv, {"linalg_inv", &infer_inv});
MNN_REGISTER_PRIMITIVE(linalg_slogdet, {"linalg_slogdet", &infer_slogdet});
MNN_REGISTER_PRIMITIVE(linalg_cholesky, {"linalg_cholesky", &infer_cholesky});
MNN_REGISTER_PRIMITIVE(linalg_qr, {"linalg_qr", &infer_qr});
MNN_REGISTER_PRIMITIVE(linalg_qr_thin, {"linalg_qr_thin", &infer_qr_thin});
MNN_REGISTER_PRIMITIVE(linalg_eigh, {"linalg_eigh", &infer_eigh});
MNN_REGISTER_PRIMITIVE(linalg_svd, {"linalg_svd", &infer_svd});
MNN_REGISTER_PRIMITIVE(linalg_svdvals, {"linalg_svdvals", &infer_svdvals});
MNN_REGISTER_PRIMITIVE(linalg_svd_thin, {"linalg_svd_thin", &infer_svd_thin});

}  // namespace mnn::ops
