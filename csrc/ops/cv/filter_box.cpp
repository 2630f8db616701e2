// Shape rules of the one-pass box, adaptive-threshold, rectangular-morphology and 3x3 median
// primitives (kernels: backends/cpu/simd/cv/filter_box.cpp, filter_morph.cpp). Python
// (mnn/cv/_filter_box.py) keeps cv2's argument checks and passes plain numbers; these rules check
// what the kernels rely on and name the public function on failure.
//
//   cv_box        (src; kw, kh, ax, ay, border, out_dtype, sqr, u8round | scale)
//                 u8round: uint8 -> uint8 normalised average with cv2's 8-bit rounding
//   cv_adaptive   (src uint8 HxW[x1]; method, inv, block, imax, idelta | taps (method 1))
//   cv_morph_rect (src; kh, kw, ay, ax, border, op | erode bval, dilate bval)  op 0..6 (MORPH_*)
//   cv_median3    (src uint8 / uint16 / int16 / float32)
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

std::string cvname(const char* fn) { return std::string("[mnn.cv.") + fn + "] "; }

void need_image(const NodePtr& a, const char* fn) {
  if (a->ndim() != 2 && a->ndim() != 3)
    throw ValueError(cvname(fn) + "expected a 2-d (HxW) or 3-d (HxWxC) image, got " + std::to_string(a->ndim()) + " dimensions");
  if (a->shape[0] < 1 || a->shape[1] < 1 || (a->ndim() == 3 && a->shape[2] < 1))
    throw ValueError(cvname(fn) + "empty image");
}

bool depth_ok(DType d) {
  switch (d) {
    case DType::UInt8: case DType::Int8: case DType::UInt16: case DType::Int16:
    case DType::Int32: case DType::Float32: case DType::Float64: return true;
    default: return false;
  }
}

prims::PrimMeta infer_box(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "boxFilter";
  const NodePtr& a = in.at(0);
  need_image(a, fn);
  const auto& i = p.ints;
  if (i.size() != 8 || p.floats.size() != 1) throw ValueError(cvname(fn) + "bad parameters");
  if (!depth_ok(a->dtype)) throw TypeError(cvname(fn) + "unsupported depth " + dtype_name(a->dtype));
  if (i[0] < 1 || i[1] < 1 || i[0] > (1 << 20) || i[1] > (1 << 20)) throw ValueError(cvname(fn) + "bad kernel size");
  if (i[2] < 0 || i[2] >= i[0] || i[3] < 0 || i[3] >= i[1]) throw ValueError(cvname(fn) + "anchor is outside the kernel");
  if (i[4] < 0 || (i[4] & 15) > 4) throw ValueError(cvname(fn) + "unsupported border type");
  const DType od = static_cast<DType>(i[5]);
  if (!depth_ok(od)) throw TypeError(cvname(fn) + "unsupported output depth");
  if (i[7] && (a->dtype != DType::UInt8 || od != DType::UInt8 || i[6]))
    throw ValueError(cvname(fn) + "8-bit rounding needs uint8 in and out");
  return {od, a->shape};
}

prims::PrimMeta infer_adaptive(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "adaptiveThreshold";
  const NodePtr& a = in.at(0);
  need_image(a, fn);
  const auto& i = p.ints;
  if (a->dtype != DType::UInt8 || (a->ndim() == 3 && a->shape[2] != 1))
    throw ValueError(cvname(fn) + "src must be a single-channel uint8 image");
  if (i.size() != 5 || i[2] < 3 || i[2] % 2 == 0 || i[2] > (1 << 20) || i[3] < 0 || i[3] > 255)
    throw ValueError(cvname(fn) + "bad parameters");
  if (i[0] == 0 ? !p.floats.empty() : (i[0] != 1 || static_cast<int64_t>(p.floats.size()) != i[2]))
    throw ValueError(cvname(fn) + "bad parameters");
  return {DType::UInt8, a->shape};
}

prims::PrimMeta infer_morph_rect(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "morphologyEx";
  const NodePtr& a = in.at(0);
  need_image(a, fn);
  const auto& i = p.ints;
  const DType d = a->dtype;
  if (d != DType::UInt8 && d != DType::UInt16 && d != DType::Int16 && d != DType::Float32 && d != DType::Float64)
    throw TypeError(cvname(fn) + "unsupported depth " + dtype_name(d));
  if (i.size() != 6 || p.floats.size() != 2) throw ValueError(cvname(fn) + "bad parameters");
  if (i[0] < 1 || i[1] < 1 || i[0] > (1 << 20) || i[1] > (1 << 20)) throw ValueError(cvname(fn) + "bad element size");
  if (i[2] < 0 || i[2] >= i[0] || i[3] < 0 || i[3] >= i[1]) throw ValueError(cvname(fn) + "anchor is outside the kernel");
  if (i[4] < 0 || (i[4] & 15) > 4) throw ValueError(cvname(fn) + "unsupported border type");
  if (i[5] < 0 || i[5] > 6) throw ValueError(cvname(fn) + "unknown operation");
  return {d, a->shape};
}

prims::PrimMeta infer_median3(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "medianBlur";
  const NodePtr& a = in.at(0);
  need_image(a, fn);
  const DType d = a->dtype;
  if (d != DType::UInt8 && d != DType::UInt16 && d != DType::Int16 && d != DType::Float32)
    throw TypeError(cvname(fn) + "unsupported depth " + dtype_name(d));
  if (!p.ints.empty() || !p.floats.empty()) throw ValueError(cvname(fn) + "bad parameters");
  return {d, a->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_box, {"cv_box", &infer_box});
MNN_REGISTER_PRIMITIVE(cv_adaptive, {"cv_adaptive", &infer_adaptive});
MNN_REGISTER_PRIMITIVE(cv_morph_rect, {"cv_morph_rect", &infer_morph_rect});
MNN_REGISTER_PRIMITIVE(cv_median3, {"cv_median3", &infer_median3});

}  // namespace mnn::ops
