// Shape rules of the one-pass linear filters behind sepFilter2D, Sobel, Scharr, Laplacian,
// filter2D, float GaussianBlur and the pyramids (kernels: backends/cpu/simd/cv/filter_sep.cpp and
// pyramid.cpp). Python (mnn/cv/_filter_sep.py) resolves cv2's arguments and passes plain numbers;
// these rules check what the kernels rely on.
//
//   cv_sepf    (src; kx_n, ky_n, ax, ay, border, out_dtype | kx.., ky.., delta, scale)
//              row filter, then column filter, then * scale + delta, in double (cv_sep_filter's
//              arithmetic, bit for bit); exact integer sums where they give the same doubles
//   cv_sepf32  (src; as cv_sepf, scale 1) float32 or uint8 -> float32 in cv2's own float32 arithmetic
//              (kernel: backends/cpu/simd/cv/filter_sep32.cpp)
//   cv_sep8    (src; as cv_sepf, scale 1) uint8 -> uint8 with a float kernel in cv2's float32
//              arithmetic (kernel: backends/cpu/simd/cv/filter_sep8.cpp); not for the kernels cv2
//              runs in fixed point (Python routes those to cv_sepf)
//   cv_lap8    (src; ksize, border) uint8 -> int16 Laplacian, ksize 1 or 3, scale 1, delta 0
//              (exact integer sums; kernel: backends/cpu/simd/cv/filter_sep_lap.cpp)
//   cv_f2d     (src; kh, kw, ay, ax, border, out_dtype | k.., delta)
//              correlation with a dense kernel, delta first then the nonzero taps in row-major
//              order, in double (cv_filter2d's arithmetic). BORDER_CONSTANT's border is 0 in both.
//   cv_pyramid (src; down (1) or up (0), dst_h, dst_w, border)   -> src's depth
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

std::string cvname(const char* fn) { return std::string("[mnn.cv.") + fn + "] "; }

bool depth_ok(DType d) {
  switch (d) {
    case DType::UInt8: case DType::Int8: case DType::UInt16: case DType::Int16:
    case DType::Int32: case DType::Float32: case DType::Float64: return true;
    default: return false;
  }
}

void need_image(const NodePtr& a, const char* fn) {
  if (a->ndim() != 2 && a->ndim() != 3)
    throw ValueError(cvname(fn) + "expected a 2-d (HxW) or 3-d (HxWxC) image, got " + std::to_string(a->ndim()) + " dimensions");
  if (!depth_ok(a->dtype)) throw TypeError(cvname(fn) + "unsupported image depth " + dtype_name(a->dtype));
  for (int64_t s : a->shape)
    if (s <= 0) throw ValueError(cvname(fn) + "empty image");
}

bool border_ok(int64_t b) { return b >= 0 && b <= 4; }

prims::PrimMeta infer_sepf(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "sepFilter2D";
  if (in.size() != 1) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  const auto& i = p.ints;
  if (i.size() != 6) throw ValueError(cvname(fn) + "bad parameters");
  const int64_t kx = i[0], ky = i[1];
  if (kx < 1 || ky < 1 || static_cast<int64_t>(p.floats.size()) != kx + ky + 2)
    throw ValueError(cvname(fn) + "bad kernel sizes");
  if (i[2] < 0 || i[2] >= kx || i[3] < 0 || i[3] >= ky) throw ValueError(cvname(fn) + "anchor is outside the kernel");
  if (!border_ok(i[4])) throw ValueError(cvname(fn) + "unsupported border type");
  const DType od = static_cast<DType>(i[5]);
  if (!depth_ok(od)) throw TypeError(cvname(fn) + "unsupported output depth");
  return {od, in[0]->shape};
}

// cv_sepf32: cv_sepf's parameters (scale 1), float32 or uint8 in, float32 out, in cv2's float32 arithmetic
prims::PrimMeta infer_sepf32(const std::vector<NodePtr>& in, const Params& p) {
  prims::PrimMeta m = infer_sepf(in, p);
  const DType d = in[0]->dtype;
  if ((d != DType::Float32 && d != DType::UInt8) || static_cast<DType>(p.ints[5]) != DType::Float32 || p.floats.back() != 1.0)
    throw TypeError(cvname("sepFilter2D") + "the float32 path takes float32 or uint8 images to float32 with scale 1");
  return m;
}

// cv_sep8: cv_sepf's parameters (scale 1), uint8 in and out, in cv2's float32 arithmetic
prims::PrimMeta infer_sep8(const std::vector<NodePtr>& in, const Params& p) {
  prims::PrimMeta m = infer_sepf(in, p);
  if (in[0]->dtype != DType::UInt8 || static_cast<DType>(p.ints[5]) != DType::UInt8 || p.floats.back() != 1.0)
    throw TypeError(cvname("sepFilter2D") + "the 8-bit path takes uint8 images to uint8 with scale 1");
  return m;
}

// cv_lap8: Laplacian (ksize 1 or 3) of a uint8 image into int16, scale 1, delta 0
prims::PrimMeta infer_lap8(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "Laplacian";
  if (in.size() != 1 || p.ints.size() != 2) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  if (in[0]->dtype != DType::UInt8) throw TypeError(cvname(fn) + "the 8-bit path takes uint8 images");
  if (p.ints[0] != 1 && p.ints[0] != 3) throw ValueError(cvname(fn) + "ksize must be 1 or 3 here");
  if (!border_ok(p.ints[1]) || p.ints[1] == 3) throw ValueError(cvname(fn) + "unsupported border type");
  return {DType::Int16, in[0]->shape};
}

prims::PrimMeta infer_f2d(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "filter2D";
  if (in.size() != 1) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  const auto& i = p.ints;
  if (i.size() != 6) throw ValueError(cvname(fn) + "bad parameters");
  const int64_t kh = i[0], kw = i[1];
  if (kh < 1 || kw < 1 || static_cast<int64_t>(p.floats.size()) != kh * kw + 1) throw ValueError(cvname(fn) + "bad kernel");
  if (i[2] < 0 || i[2] >= kh || i[3] < 0 || i[3] >= kw) throw ValueError(cvname(fn) + "anchor is outside the kernel");
  if (!border_ok(i[4])) throw ValueError(cvname(fn) + "unsupported border type");
  const DType od = static_cast<DType>(i[5]);
  if (!depth_ok(od)) throw TypeError(cvname(fn) + "unsupported output depth");
  return {od, in[0]->shape};
}

prims::PrimMeta infer_pyramid(const std::vector<NodePtr>& in, const Params& p) {
  const auto& i = p.ints;
  const char* fn = !i.empty() && i[0] ? "pyrDown" : "pyrUp";
  if (in.size() != 1 || i.size() != 4) throw ValueError(cvname(fn) + "bad parameters");
  const NodePtr& a = in[0];
  need_image(a, fn);
  const DType d = a->dtype;
  if (d == DType::Int8 || d == DType::Int32) throw TypeError(cvname(fn) + "unsupported image depth " + dtype_name(d));
  const int64_t h = a->shape[0], w = a->shape[1], dh = i[1], dw = i[2];
  if (i[0]) {
    if (dh < 1 || dw < 1 || std::abs(dh * 2 - h) > 2 || std::abs(dw * 2 - w) > 2)
      throw ValueError(cvname(fn) + "bad destination size");
    if (i[3] < 1 || i[3] > 4) throw ValueError(cvname(fn) + "unsupported border type");
  } else if (dh != 2 * h || dw != 2 * w) {
    throw ValueError(cvname(fn) + "the destination must be twice the source");
  }
  Shape s = a->shape;
  s[0] = dh, s[1] = dw;
  return {d, s};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_sepf, {"cv_sepf", &infer_sepf});
MNN_REGISTER_PRIMITIVE(cv_sepf32, {"cv_sepf32", &infer_sepf32});
MNN_REGISTER_PRIMITIVE(cv_sep8, {"cv_sep8", &infer_sep8});
MNN_REGISTER_PRIMITIVE(cv_lap8, {"cv_lap8", &infer_lap8});
MNN_REGISTER_PRIMITIVE(cv_f2d, {"cv_f2d", &infer_f2d});
MNN_REGISTER_PRIMITIVE(cv_pyramid, {"cv_pyramid", &infer_pyramid});

}  // namespace mnn::ops
