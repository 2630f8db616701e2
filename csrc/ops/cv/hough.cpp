// Shape rules of the Hough transform primitives (kernels: backends/cpu/simd/cv/hough.cpp). Python
// (mnn/cv/_hough.py) keeps cv2's argument checks and hands these plain numbers.
//
//   cv_hough_acc (edges uint8 HxW; numangle, numrho, use_edgeval | min_theta, theta, irho)
//       -> int32 (numangle + 2, numrho + 2): cv2's HoughLines accumulator, a zero frame around the
//          votes (so the 4-neighbour maximum test needs no bounds checks)
//   cv_hough_p   (edges uint8 HxW; numangle, numrho, threshold, lineLength, lineGap, cap | theta, irho)
//       -> int32 (cap + 1, 4): row 0 holds the number of segments n, rows 1..n the segments
//          (x1, y1, x2, y2) of cv2's probabilistic transform, in cv2's order
//   cv_hough_circles (edges uint8 HxW, dx int16 HxW, dy int16 HxW; minRadius, maxRadius, accThreshold,
//                     maxCircles, centersOnly, cap | dp, minDist)
//       -> float32 (cap + 1, 3): row 0 holds the number of circles n, rows 1..n the circles
//          (x, y, radius) of cv2's HOUGH_GRADIENT, in cv2's order
//   cv_hough_alt (edges uint8 HxW, dx int16 HxW, dy int16 HxW; cap | dp, minDist, minRadius, maxRadius,
//                 minCos2) -> float32 (cap + 1, 3): the same packing, for HOUGH_GRADIENT_ALT
//                 (kernel: backends/cpu/simd/cv/hough_alt.cpp)
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

void need_edges(const std::vector<NodePtr>& in, const char* fn) {
  const std::string p = std::string("[mnn.cv.") + fn + "] ";
  if (in.size() != 1) throw ValueError(p + "bad parameters");
  if (in[0]->dtype != DType::UInt8 || in[0]->ndim() != 2)
    throw TypeError(p + "expected a single-channel uint8 image (cv2: image.type() == CV_8UC1)");
}

prims::PrimMeta infer_acc(const std::vector<NodePtr>& in, const Params& p) {
  need_edges(in, "HoughLines");
  if (p.ints.size() != 3 || p.floats.size() != 3 || p.ints[0] < 1 || p.ints[1] < 1)
    throw ValueError("[mnn.cv.HoughLines] bad parameters");
  return {DType::Int32, {p.ints[0] + 2, p.ints[1] + 2}};
}

prims::PrimMeta infer_p(const std::vector<NodePtr>& in, const Params& p) {
  need_edges(in, "HoughLinesP");
  if (p.ints.size() != 6 || p.floats.size() != 2 || p.ints[0] < 1 || p.ints[1] < 1 || p.ints[5] < 0)
    throw ValueError("[mnn.cv.HoughLinesP] bad parameters");
  return {DType::Int32, {p.ints[5] + 1, 4}};
}

prims::PrimMeta infer_circles(const std::vector<NodePtr>& in, const Params& p) {
  const std::string e = "[mnn.cv.HoughCircles] ";
  if (in.size() != 3 || p.ints.size() != 6 || p.floats.size() != 2 || p.ints[5] < 0) throw ValueError(e + "bad parameters");
  if (in[0]->dtype != DType::UInt8 || in[0]->ndim() != 2) throw TypeError(e + "expected a single-channel uint8 image");
  for (int k = 1; k < 3; ++k)
    if (in[k]->dtype != DType::Int16 || in[k]->shape != in[0]->shape) throw ValueError(e + "bad gradient images");
  return {DType::Float32, {p.ints[5] + 1, 3}};
}

prims::PrimMeta infer_alt(const std::vector<NodePtr>& in, const Params& p) {
  const std::string e = "[mnn.cv.HoughCircles] ";
  if (in.size() != 3 || p.ints.size() != 1 || p.floats.size() != 5 || p.ints[0] < 0) throw ValueError(e + "bad parameters");
  if (in[0]->dtype != DType::UInt8 || in[0]->ndim() != 2) throw TypeError(e + "expected a single-channel uint8 image");
  for (int k = 1; k < 3; ++k)
    if (in[k]->dtype != DType::Int16 || in[k]->shape != in[0]->shape) throw ValueError(e + "bad gradient images");
  return {DType::Float32, {p.ints[0] + 1, 3}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_hough_alt, {"cv_hough_alt", &infer_alt});
MNN_REGISTER_PRIMITIVE(cv_hough_circles, {"cv_hough_circles", &infer_circles});
MNN_REGISTER_PRIMITIVE(cv_hough_acc, {"cv_hough_acc", &infer_acc});
MNN_REGISTER_PRIMITIVE(cv_hough_p, {"cv_hough_p", &infer_p});

}  // namespace mnn::ops
