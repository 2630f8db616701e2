// Shape rule of cv_dist, the distance transform behind cv2.distanceTransform (kernel:
// backends/cpu/simd/cv/distance.cpp). Python (mnn/cv/_distance.py) maps cv2's distance type and
// mask size to the chamfer weights.
//
//   cv_dist (src HxW uint8; mode | a, b, c) -> float32 HxW: the distance of each pixel to the
//           nearest zero pixel. mode 3 / 5: two-pass chamfer with float weights a (edge), b
//           (diagonal), c (knight move, mode 5); mode 0: exact Euclidean distance.
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_dist(const std::vector<NodePtr>& in, const Params& p) {
  const std::string fn = "[mnn.cv.distanceTransform] ";
  if (in.size() != 1 || p.ints.size() != 1 || p.floats.size() != 3) throw ValueError(fn + "bad parameters");
  if (in[0]->dtype != DType::UInt8 || in[0]->ndim() != 2) throw TypeError(fn + "a uint8 HxW image expected");
  if (p.ints[0] != 0 && p.ints[0] != 3 && p.ints[0] != 5) throw ValueError(fn + "mode must be 0, 3 or 5");
  return {DType::Float32, in[0]->shape};
}

// cv_dist_labels (src HxW uint8, init HxW int32 (zero pixels' labels); want_labels | a, b, c) ->
// the 5x5 chamfer's labels (int32) or distances (float32)
prims::PrimMeta infer_dist_labels(const std::vector<NodePtr>& in, const Params& p) {
  const std::string fn = "[mnn.cv.distanceTransformWithLabels] ";
  if (in.size() != 2 || p.ints.size() != 1 || p.floats.size() != 3) throw ValueError(fn + "bad parameters");
  if (in[0]->dtype != DType::UInt8 || in[0]->ndim() != 2 || in[1]->dtype != DType::Int32 || in[1]->shape != in[0]->shape)
    throw TypeError(fn + "a uint8 HxW image and int32 HxW labels expected");
  return {p.ints[0] ? DType::Int32 : DType::Float32, in[0]->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_dist, {"cv_dist", &infer_dist});
MNN_REGISTER_PRIMITIVE(cv_dist_labels, {"cv_dist_labels", &infer_dist_labels});

}  // namespace mnn::ops
