// Shape rules of the mnn.cv filter / threshold / histogram primitives. Python (mnn/cv/_filters.py,
// _core_ops.py) resolves cv2's defaults (ksize from sigma, anchors, kernels) and passes plain
// numbers; these rules check what the kernels rely on and name the public function on failure.
//
//   cv_sep_filter(src; kx_n, ky_n, ax, ay, border, out_dtype, sqr, fixed8 | kx.., ky.., delta, scale, bval)
//   cv_filter2d (src; kh, kw, ay, ax, border, out_dtype | k.., delta, bval)
//   cv_morph    (src; kh, kw, ay, ax, border, op, mask.. | bval)          op 0 erode, 1 dilate
//   cv_median   (src; ksize)
//   cv_canny    (dx, dy; low, high, l2[, bounded])                      -> uint8 HxW
//               bounded: every |dx|, |dy| < 2^14 (Canny's own Sobel), allowing int16 magnitudes
//   cv_hist     (src[, mask]; nd, has_mask, ch.., bins.. | lo.., hi..)  -> float32 histogram
//   cv_lut      (src, lut)                                              -> src's shape, lut's dtype
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

std::string cvname(const char* fn) { return std::string("[mnn.cv.") + fn + "] "; }

bool filter_dtype(DType d) {
  switch (d) {
    case DType::UInt8: case DType::Int8: case DType::UInt16: case DType::Int16:
    case DType::Int32: case DType::Float32: case DType::Float64: return true;
    default: return false;
  }
}

void check_image(const NodePtr& a, const char* fn) {
  if (a->ndim() != 2 && a->ndim() != 3)
    throw ValueError(cvname(fn) + "expected a 2-d (HxW) or 3-d (HxWxC) image, got " + std::to_string(a->ndim()) + " dimensions");
  if (!filter_dtype(a->dtype))
    throw TypeError(cvname(fn) + "unsupported image depth " + dtype_name(a->dtype));
}

prims::PrimMeta infer_sep(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "sepFilter2D";
  check_image(in.at(0), fn);
  const auto& i = p.ints;
  if (i.size() < 8) throw ValueError(cvname(fn) + "bad parameters");
  int64_t kx = i[0], ky = i[1];
  if (kx < 1 || ky < 1 || static_cast<int64_t>(p.floats.size()) != kx + ky + 3)
    throw ValueError(cvname(fn) + "bad kernel sizes");
  if (i[2] < 0 || i[2] >= kx || i[3] < 0 || i[3] >= ky) throw ValueError(cvname(fn) + "anchor is outside the kernel");
  DType od = static_cast<DType>(i[5]);
  if (!filter_dtype(od)) throw TypeError(cvname(fn) + "unsupported output depth");
  if (i[7] && (in[0]->dtype != DType::UInt8 || od != DType::UInt8))
    throw ValueError(cvname(fn) + "fixed-point path needs uint8 in and out");
  return {od, in[0]->shape};
}

prims::PrimMeta infer_filter2d(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "filter2D";
  check_image(in.at(0), fn);
  const auto& i = p.ints;
  int64_t kh = i.at(0), kw = i.at(1);
  if (kh < 1 || kw < 1 || static_cast<int64_t>(p.floats.size()) != kh * kw + 2)
    throw ValueError(cvname(fn) + "bad kernel");
  if (i.at(2) < 0 || i[2] >= kh || i.at(3) < 0 || i[3] >= kw) throw ValueError(cvname(fn) + "anchor is outside the kernel");
  DType od = static_cast<DType>(i.at(5));
  if (!filter_dtype(od)) throw TypeError(cvname(fn) + "unsupported output depth");
  return {od, in[0]->shape};
}

prims::PrimMeta infer_morph(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "morphologyEx";
  check_image(in.at(0), fn);
  const auto& i = p.ints;
  int64_t kh = i.at(0), kw = i.at(1);
  if (kh < 1 || kw < 1 || static_cast<int64_t>(i.size()) != 6 + kh * kw) throw ValueError(cvname(fn) + "bad element");
  if (i[2] < 0 || i[2] >= kh || i[3] < 0 || i[3] >= kw) throw ValueError(cvname(fn) + "anchor is outside the kernel");
  return {in[0]->dtype, in[0]->shape};
}

prims::PrimMeta infer_median(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "medianBlur";
  check_image(in.at(0), fn);
  int64_t k = p.ints.at(0);
  if (k < 3 || k % 2 == 0) throw ValueError(cvname(fn) + "ksize must be odd and greater than 1");
  DType d = in[0]->dtype;
  bool small_ok = d == DType::UInt8 || d == DType::UInt16 || d == DType::Int16 || d == DType::Float32;
  if (!(d == DType::UInt8 || (k <= 5 && small_ok)))
    throw ValueError(cvname(fn) + "unsupported depth for this ksize (ksize > 5 needs uint8)");
  return {d, in[0]->shape};
}

prims::PrimMeta infer_canny(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "Canny";
  const NodePtr& dx = in.at(0);
  const NodePtr& dy = in.at(1);
  if (dx->shape != dy->shape || dx->dtype != dy->dtype || dx->ndim() != 3)
    throw ValueError(cvname(fn) + "dx and dy must have the same HxWxC shape and type");
  if (dx->dtype != DType::Int16 && dx->dtype != DType::Int32) throw TypeError(cvname(fn) + "dx/dy must be int16 or int32");
  if (p.ints.size() != 3 && p.ints.size() != 4) throw ValueError(cvname(fn) + "bad parameters");
  return {DType::UInt8, Shape{dx->shape[0], dx->shape[1]}};
}

prims::PrimMeta infer_hist(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "calcHist";
  const NodePtr& a = in.at(0);
  check_image(a, fn);
  const auto& i = p.ints;
  int64_t nd = i.at(0);
  bool has_mask = i.at(1) != 0;
  if (nd < 1 || static_cast<int64_t>(i.size()) != 2 + 2 * nd || static_cast<int64_t>(p.floats.size()) != 2 * nd)
    throw ValueError(cvname(fn) + "bad parameters");
  int64_t c = a->ndim() == 2 ? 1 : a->shape[2];
  Shape s;
  for (int64_t d = 0; d < nd; ++d) {
    if (i[2 + d] < 0 || i[2 + d] >= c) throw ValueError(cvname(fn) + "channel index is out of range");
    if (i[2 + nd + d] < 1) throw ValueError(cvname(fn) + "histSize must be positive");
    s.push_back(i[2 + nd + d]);
  }
  if (has_mask) {
    const NodePtr& m = in.at(1);
    if (m->dtype != DType::UInt8 || m->ndim() != 2 || m->shape[0] != a->shape[0] || m->shape[1] != a->shape[1])
      throw ValueError(cvname(fn) + "mask must be uint8 HxW with the image's size");
  }
  return {DType::Float32, s};
}

prims::PrimMeta infer_lut(const std::vector<NodePtr>& in, const Params&) {
  const char* fn = "LUT";
  const NodePtr& a = in.at(0);
  const NodePtr& t = in.at(1);
  if (a->dtype != DType::UInt8 && a->dtype != DType::Int8) throw TypeError(cvname(fn) + "src must be uint8 or int8");
  int64_t c = a->ndim() == 3 ? a->shape[2] : 1;
  int64_t tc = t->ndim() == 2 ? t->shape[1] : 1;
  if (t->shape.empty() || t->shape[0] != 256 || (tc != 1 && tc != c))
    throw ValueError(cvname(fn) + "lut must have 256 entries and 1 or src's channel count");
  return {t->dtype, a->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_sep_filter, {"cv_sep_filter", &infer_sep});
MNN_REGISTER_PRIMITIVE(cv_filter2d, {"cv_filter2d", &infer_filter2d});
MNN_REGISTER_PRIMITIVE(cv_morph, {"cv_morph", &infer_morph});
MNN_REGISTER_PRIMITIVE(cv_median, {"cv_median", &infer_median});
MNN_REGISTER_PRIMITIVE(cv_canny, {"cv_canny", &infer_canny});
MNN_REGISTER_PRIMITIVE(cv_hist, {"cv_hist", &infer_hist});
MNN_REGISTER_PRIMITIVE(cv_lut, {"cv_lut", &infer_lut});

}  // namespace mnn::ops

namespace mnn::ops {
namespace {

// cv_bilateral(src; radius, border | color_coeff, space_coeff) and cv_clahe(src; tiles_x, tiles_y | clip)
prims::PrimMeta infer_bilateral(const std::vector<core::NodePtr>& in, const core::Params& p) {
  const core::NodePtr& a = in.at(0);
  const char* fn = "[mnn.cv.bilateralFilter] ";
  if (a->ndim() != 2 && a->ndim() != 3) throw core::ValueError(std::string(fn) + "expected an HxW or HxWxC image");
  int64_t c = a->ndim() == 3 ? a->shape[2] : 1;
  if ((a->dtype != core::DType::UInt8 && a->dtype != core::DType::Float32) || (c != 1 && c != 3))
    throw core::ValueError(std::string(fn) + "only uint8/float32 images with 1 or 3 channels are supported");
  if (p.ints.size() != 2 || p.floats.size() != 2 || p.ints[0] < 1) throw core::ValueError(std::string(fn) + "bad parameters");
  return {a->dtype, a->shape};
}

prims::PrimMeta infer_clahe(const std::vector<core::NodePtr>& in, const core::Params& p) {
  const core::NodePtr& a = in.at(0);
  const char* fn = "[mnn.cv.CLAHE.apply] ";
  if (a->ndim() != 2 || (a->dtype != core::DType::UInt8 && a->dtype != core::DType::UInt16))
    throw core::ValueError(std::string(fn) + "src must be a single-channel uint8 or uint16 image");
  if (p.ints.size() != 2 || p.ints[0] < 1 || p.ints[1] < 1 || p.floats.size() != 1)
    throw core::ValueError(std::string(fn) + "bad parameters");
  return {a->dtype, a->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_bilateral, {"cv_bilateral", &infer_bilateral});
MNN_REGISTER_PRIMITIVE(cv_clahe, {"cv_clahe", &infer_clahe});

}  // namespace mnn::ops
