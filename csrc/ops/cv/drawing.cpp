// Shape rule of the mnn.cv drawing primitive, cv_draw (kernel: backends/cpu/kernels/cv/drawing.cpp).
//
//   cv_draw(img; commands.. | color[4]) -> a copy of img with the shapes drawn in `color`
//
// mnn/cv/_drawing.py turns each cv2 call (line, circle, fillPoly, drawContours, ...) into a short
// command stream of integers (coordinates in cv2's fixed point, thickness, line type, shift) and
// writes the result back into the caller's image, which is how cv2's in-place drawing is kept on a
// graph of immutable nodes. The rule checks only what the kernel relies on: an HxW or HxWxC image of
// a depth cv2 draws on, at most 4 channels, and a colour of 4 values.
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_draw(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  const std::string fn = "[mnn.cv.draw] ";
  if (a->ndim() != 2 && a->ndim() != 3)
    throw ValueError(fn + "expected a 2-d (HxW) or 3-d (HxWxC) image, got " + std::to_string(a->ndim()) +
                     " dimensions");
  switch (a->dtype) {
    case DType::UInt8: case DType::Int8: case DType::UInt16: case DType::Int16:
    case DType::Int32: case DType::Float32: case DType::Float64: break;
    default: throw TypeError(fn + "unsupported image depth " + dtype_name(a->dtype));
  }
  if (a->ndim() == 3 && (a->shape[2] < 1 || a->shape[2] > 4))
    throw ValueError(fn + "drawing supports 1 to 4 channels, got " + std::to_string(a->shape[2]));
  if (p.floats.size() != 4) throw ValueError(fn + "bad colour");
  return {a->dtype, a->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_draw, {"cv_draw", &infer_draw});

}  // namespace mnn::ops
