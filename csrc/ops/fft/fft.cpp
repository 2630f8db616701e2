// Shape rules of the FFT primitives; mnn/numpy/fft.py composes numpy's fft API from them
// (padding/truncation to n, axes loops, norm scaling factors are its job).
//
//   fft_c2c(x; axis, forward[, axis2, ...]; scale):  complex -> complex, same shape; further axes
//                                      are transformed after the first, in order, in place
//   fft_r2c(x; axis; scale):           float32/float64 -> complex64/complex128, axis length n -> n//2+1
//   fft_c2r(x; axis, n; scale):        complex -> real, axis length n//2+1 -> n (Hermitian input)
// Every output is multiplied by `scale` (the norm= factor).
#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

int fft_axis(const NodePtr& a, int64_t axis) {
  int nd = a->ndim();
  if (axis < 0 || axis >= nd) throw ValueError("[mnn.numpy.fft] bad axis for the fft primitive");
  return static_cast<int>(axis);
}

prims::PrimMeta infer_c2c(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  if (!is_complex(a->dtype)) throw TypeError("[mnn.numpy.fft] fft_c2c expects complex input");
  for (size_t i = 0; i < p.ints.size(); i += (i == 0 ? 2 : 1)) {
    int ax = fft_axis(a, p.ints.at(i));
    if (a->shape[ax] < 1) throw ValueError("[mnn.numpy.fft] Invalid number of FFT data points (0) specified.");
  }
  return {a->dtype, a->shape};
}

prims::PrimMeta infer_r2c(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  if (a->dtype != DType::Float32 && a->dtype != DType::Float64)
    throw TypeError("[mnn.numpy.fft] fft_r2c expects float32 or float64 input");
  int ax = fft_axis(a, p.ints.at(0));
  if (a->shape[ax] < 1) throw ValueError("[mnn.numpy.fft] Invalid number of FFT data points (0) specified.");
  Shape s = a->shape;
  s[ax] = s[ax] / 2 + 1;
  return {complex_of(a->dtype), s};
}

prims::PrimMeta infer_c2r(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  if (!is_complex(a->dtype)) throw TypeError("[mnn.numpy.fft] fft_c2r expects complex input");
  int ax = fft_axis(a, p.ints.at(0));
  int64_t n = p.ints.at(1);
  if (n < 1) throw ValueError("[mnn.numpy.fft] Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
  if (a->shape[ax] != n / 2 + 1) throw ValueError("[mnn.numpy.fft] fft_c2r: input length must be n//2+1");
  Shape s = a->shape;
  s[ax] = n;
  return {real_of(a->dtype), s};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(fft_c2c, {"fft_c2c", &infer_c2c});
MNN_REGISTER_PRIMITIVE(fft_r2c, {"fft_r2c", &infer_r2c});
MNN_REGISTER_PRIMITIVE(fft_c2r, {"fft_c2r", &infer_c2r});

}  // namespace mnn::ops
