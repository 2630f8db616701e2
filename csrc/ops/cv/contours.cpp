// Shape rules of the mnn.cv structural-analysis primitives (mnn/cv/_structure.py):
//
//   cv_find_contours(img; mode, method, ox, oy)  uint8 HxW (int32 for mode 4, RETR_FLOODFILL) -> int32
//       packed result (ops/cv/contours.h);
//       method 1 NONE, 2 SIMPLE, 3 TC89_L1, 4 TC89_KCOS.
//       data_dependent: the rule traces the borders to learn the size (the kernel reuses that trace).
//   cv_convex_hull(points; clockwise)           (N, 2) int32/float32 -> int32 N + 1: the hull's
//                                                size, then its point indices (cv2's order)
//   cv_min_area_rect(points)                     (N, 2) int32/float32 -> float32 6: cx, cy, w, h,
//                                                angle, ok (0: degenerate hull)
//   cv_contour_moments(points)                   (N, 2) int32/float32 -> float64 10: m00 .. m03
//   cv_min_enclosing_circle(points)              (N, 2) int32/float32 -> float32 3: cx, cy, radius
#include <memory>
#include <string>

#include "core/error.h"
#include "ops/cv/contours.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

std::string cvname(const char* fn) { return std::string("[mnn.cv.") + fn + "] "; }

void check_binary_source(const NodePtr& a, const char* fn) {
  if (a->ndim() != 2) throw ValueError(cvname(fn) + "expected a single-channel 2-d image");
  if (a->dtype != DType::UInt8 && a->dtype != DType::Int8 && a->dtype != DType::Bool)
    throw TypeError(cvname(fn) + "expected an 8-bit image, got " + dtype_name(a->dtype));
}

prims::PrimMeta infer_find_contours(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  const auto& i = p.ints;
  if (i.size() != 4 || i[0] < 0 || i[0] > 4 || i[1] < 1 || i[1] > 4)
    throw ValueError(cvname("findContours") + "bad parameters");
  const int mode = static_cast<int>(i[0]), method = static_cast<int>(i[1]);
  if (mode == 4) {  // RETR_FLOODFILL: int32 labels
    if (a->ndim() != 2) throw ValueError(cvname("findContours") + "expected a single-channel 2-d image");
    if (a->dtype != DType::Int32)
      throw TypeError(cvname("findContours") + "RETR_FLOODFILL expects an int32 image, got " + dtype_name(a->dtype));
  } else {
    check_binary_source(a, "findContours");
  }
  const int ox = static_cast<int>(i[2]), oy = static_cast<int>(i[3]);
  auto r = std::make_shared<const contours::Packed>(
      contours::trace_image(a->data_ptr(), a->shape[0], a->shape[1], mode, method, ox, oy));
  const int64_t n = static_cast<int64_t>(r->size());
  contours::stash_contours(a, mode, method, ox, oy, std::move(r));
  return {DType::Int32, Shape{n}};
}

prims::PrimMeta infer_convex_hull(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  if (a->ndim() != 2 || a->shape[1] != 2 || (a->dtype != DType::Int32 && a->dtype != DType::Float32) ||
      p.ints.size() != 1)
    throw ValueError(cvname("convexHull") + "expected an (N, 2) int32 or float32 point set");
  return {DType::Int32, Shape{a->shape[0] + 1}};
}

prims::PrimMeta infer_min_area_rect(const std::vector<NodePtr>& in, const Params&) {
  const NodePtr& a = in.at(0);
  if (a->ndim() != 2 || a->shape[1] != 2 || (a->dtype != DType::Int32 && a->dtype != DType::Float32))
    throw ValueError(cvname("minAreaRect") + "expected an (N, 2) int32 or float32 point set");
  return {DType::Float32, Shape{6}};
}

prims::PrimMeta infer_contour_moments(const std::vector<NodePtr>& in, const Params&) {
  const NodePtr& a = in.at(0);
  if (a->ndim() != 2 || a->shape[1] != 2 || (a->dtype != DType::Int32 && a->dtype != DType::Float32))
    throw ValueError(cvname("moments") + "expected an (N, 2) int32 or float32 point set");
  return {DType::Float64, Shape{10}};
}

prims::PrimMeta infer_min_enclosing_circle(const std::vector<NodePtr>& in, const Params&) {
  const NodePtr& a = in.at(0);
  if (a->ndim() != 2 || a->shape[1] != 2 || (a->dtype != DType::Int32 && a->dtype != DType::Float32))
    throw ValueError(cvname("minEnclosingCircle") + "expected an (N, 2) int32 or float32 point set");
  return {DType::Float32, Shape{3}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_find_contours, {"cv_find_contours", &infer_find_contours, /*data_dependent=*/true});
MNN_REGISTER_PRIMITIVE(cv_convex_hull, {"cv_convex_hull", &infer_convex_hull});
MNN_REGISTER_PRIMITIVE(cv_min_area_rect, {"cv_min_area_rect", &infer_min_area_rect});
MNN_REGISTER_PRIMITIVE(cv_contour_moments, {"cv_contour_moments", &infer_contour_moments});
MNN_REGISTER_PRIMITIVE(cv_min_enclosing_circle, {"cv_min_enclosing_circle", &infer_min_enclosing_circle});

}  // namespace mnn::ops
