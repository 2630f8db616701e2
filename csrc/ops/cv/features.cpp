// Shape rule of goodFeaturesToTrack's selection primitive (kernel: backends/cpu/simd/cv/features.cpp).
// Python (mnn/cv/_features.py) computes the corner response, thresholds and dilates it.
//
//   cv_gftt_select (eig float32 HxW, dilated float32 HxW[, mask uint8/bool HxW]; maxCorners, cap |
//                   minDistance) -> float32 (cap + 1, 3): row 0 holds the number of corners n, rows
//                   1..n the corners (x, y, response) in cv2's order
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_gftt(const std::vector<NodePtr>& in, const Params& p) {
  const std::string e = "[mnn.cv.goodFeaturesToTrack] ";
  if (in.size() < 2 || in.size() > 3 || p.ints.size() != 2 || p.floats.size() != 1 || p.ints[1] < 0)
    throw ValueError(e + "bad parameters");
  if (in[0]->dtype != DType::Float32 || in[1]->dtype != DType::Float32 || in[0]->ndim() != 2 || in[1]->shape != in[0]->shape)
    throw ValueError(e + "bad response images");
  if (in.size() == 3 && ((in[2]->dtype != DType::UInt8 && in[2]->dtype != DType::Bool) || in[2]->shape != in[0]->shape))
    throw ValueError(e + "mask must be uint8 of the image's size");
  return {DType::Float32, {p.ints[1] + 1, 3}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_gftt_select, {"cv_gftt_select", &infer_gftt});

}  // namespace mnn::ops
