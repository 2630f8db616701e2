// Shape rule of cv_ccorr, the cross-correlation behind cv2.matchTemplate (kernel:
// backends/cpu/simd/cv/match.cpp). Python (mnn/cv/_match.py) checks cv2's arguments, splits the
// channels into planes and turns the correlation into cv2's six scores.
//
//   cv_ccorr (img CxHxW float32, templ Cxhxw float32) -> float64 (H-h+1)x(W-w+1):
//            sum over c, ty, tx of img[c, y+ty, x+tx] * templ[c, ty, tx]
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_ccorr(const std::vector<NodePtr>& in, const Params&) {
  const std::string fn = "[mnn.cv.matchTemplate] ";
  if (in.size() != 2) throw ValueError(fn + "bad parameters");
  const NodePtr &a = in[0], &t = in[1];
  if (a->dtype != DType::Float32 || t->dtype != DType::Float32) throw TypeError(fn + "float32 planes expected");
  if (a->ndim() != 3 || t->ndim() != 3 || a->shape[0] != t->shape[0]) throw ValueError(fn + "CxHxW planes expected");
  if (t->shape[1] < 1 || t->shape[2] < 1 || t->shape[1] > a->shape[1] || t->shape[2] > a->shape[2])
    throw ValueError(fn + "the template must fit in the image");
  return {DType::Float64, {a->shape[1] - t->shape[1] + 1, a->shape[2] - t->shape[2] + 1}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_ccorr, {"cv_ccorr", &infer_ccorr});

}  // namespace mnn::ops
