// Shape rule of cv_integral, the kernel behind cv2.integral / integral2 / integral3 (kernel:
// backends/cpu/simd/cv/integral.cpp). Python (mnn/cv/_integral.py) applies cv2's sdepth rules and
// passes the result type; the rule checks only what the kernel relies on.
//
//   cv_integral (src HxWxC; kind, out) -> (H+1)x(W+1)xC of out (0 int32, 1 float32, 2 float64);
//               kind 0: sums, 1: sums of squares, 2: the 45-degree tilted sums
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_integral(const std::vector<NodePtr>& in, const Params& p) {
  const std::string fn = "[mnn.cv.integral] ";
  if (in.size() != 1 || p.ints.size() != 2) throw ValueError(fn + "bad parameters");
  const NodePtr& a = in[0];
  switch (a->dtype) {
    case DType::UInt8: case DType::UInt16: case DType::Int16: case DType::Float32: case DType::Float64: break;
    default: throw TypeError(fn + "unsupported depth " + dtype_name(a->dtype));
  }
  if (a->ndim() != 3) throw ValueError(fn + "expected an HxWxC image");
  if (p.ints[0] < 0 || p.ints[0] > 2 || p.ints[1] < 0 || p.ints[1] > 2) throw ValueError(fn + "bad kind or depth");
  static const DType out[3] = {DType::Int32, DType::Float32, DType::Float64};
  const Shape& s = a->shape;
  return {out[p.ints[1]], {s[0] + 1, s[1] + 1, s[2]}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_integral, {"cv_integral", &infer_integral});

}  // namespace mnn::ops
