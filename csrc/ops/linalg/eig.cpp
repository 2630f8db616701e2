// Shape rules of the general (non-symmetric) eigen-decomposition behind mnn.numpy.linalg.eig and
// eigvals (kernels in backends/cpu/kernels/linalg/eig.cpp). Input: a stack of square matrices
// [..., n, n] of float32, float64, complex64 or complex128. The result is always complex (the
// eigenvalues of a real matrix may be complex, and a dtype must be known before the data is);
// linalg.py drops the zero imaginary parts afterwards where numpy returns a real result.
//   linalg_eig      a [..., n, n] -> complex [..., n, n + 1]   eigenvalues in column 0, their
//                                                               unit-norm eigenvectors after it
//   linalg_eigvals  a [..., n, n] -> complex [..., n]
// and, for a real input whose eigenvalues are all real, the same results as real arrays of the
// input's dtype (the autograd tape carries real arrays only, so this is the differentiable form):
//   linalg_eig_real      a [..., n, n] -> [..., n, n + 1]
//   linalg_eigvals_real  a [..., n, n] -> [..., n]
#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

DType eig_dtype(const NodePtr& a, const char* fn) {
  const std::string name = std::string("[mnn.numpy.linalg.") + fn + "] ";
  DType d = a->dtype;
  if (d != DType::Float32 && d != DType::Float64 && d != DType::Complex64 && d != DType::Complex128)
    throw TypeError(name + "array type " + dtype_name(d) + " is unsupported in linalg");
  int nd = a->ndim();
  if (nd < 2)
    throw LinAlgError(name + std::to_string(nd) + "-dimensional array given. Array must be at least two-dimensional");
  if (a->shape[nd - 1] != a->shape[nd - 2]) throw LinAlgError(name + "Last 2 dimensions of the array must be square");
  return is_complex(d) ? d : complex_of(d);
}

prims::PrimMeta infer_eig(const std::vector<NodePtr>& in, const Params&) {
  DType d = eig_dtype(in.at(0), "eig");
  Shape s = in[0]->shape;
  s.back() += 1;
  return {d, s};
}

prims::PrimMeta infer_eigvals(const std::vector<NodePtr>& in, const Params&) {
  DType d = eig_dtype(in.at(0), "eigvals");
  Shape s = in[0]->shape;
  s.pop_back();
  return {d, s};
}

prims::PrimMeta infer_eig_real(const std::vector<NodePtr>& in, const Params& p) {
  prims::PrimMeta m = infer_eig(in, p);
  if (is_complex(in[0]->dtype)) throw TypeError("[mnn.numpy.linalg.eig] a complex input has complex eigenvalues");
  m.dtype = in[0]->dtype;
  return m;
}

prims::PrimMeta infer_eigvals_real(const std::vector<NodePtr>& in, const Params& p) {
  prims::PrimMeta m = infer_eigvals(in, p);
  if (is_complex(in[0]->dtype)) throw TypeError("[mnn.numpy.linalg.eigvals] a complex input has complex eigenvalues");
  m.dtype = in[0]->dtype;
  return m;
}

}  // namespace

MNN_REGISTER_PRIMITIVE(linalg_eig_real, {"linalg_eig_real", &infer_eig_real});
MNN_REGISTER_PRIMITIVE(linalg_eigvals_real, {"linalg_eigvals_real", &infer_eigvals_real});
MNN_REGISTER_PRIMITIVE(linalg_eig, {"linalg_eig", &infer_eig});
MNN_REGISTER_PRIMITIVE(linalg_eigvals, {"linalg_eigvals", &infer_eigvals});

}  // namespace mnn::ops
