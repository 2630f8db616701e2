// Shape rules of the single-pass pixel primitives behind threshold, inRange, LUT, countNonZero,
// minMaxLoc, split and merge (kernels: backends/cpu/simd/cv/fastpix.cpp). Python
// (mnn/cv/_filters.py, _core_ops.py) keeps cv2's argument checks and hands these plain numbers;
// the rules check only what the kernels rely on.
//
//   cv_thresh    (src; kind[, row] | t, m)      -> src's shape and dtype; kind 0..4 (THRESH_*);
//                t, m already in the image's type (integers for integer images); row: the
//                elements in one of cv2's rows (float64 TRUNC's NaN answers depend on it)
//   cv_inrange   (src; | lo_0..lo_{c-1}, hi_0..hi_{c-1}) -> uint8 HxW (0 / 255)
//   cv_lut_u8    (src, lut)                     -> uint8, src's shape; lut uint8 (256,) or (256, c)
//   cv_count_nz  (src)                          -> int64 0-d
//   cv_minmaxloc (src; mode)                    -> float64 (4,): min, max, flat index of the first
//                min, of the first max (-1 when cv2 reports none); mode: cv2's answer when the
//                first element is NaN (0 NaN, no location; 1 NaN at 0; 2 skip NaN)
//   cv_split     (src HxWxC)                    -> (C, H, W)
//   cv_merge     (p_0 .. p_{n-1}, each HxW)     -> HxWxn
//   cv_norm_minmax_u8 (src uint8; | alpha, beta) -> uint8, src's shape: normalize(NORM_MINMAX)
//   cv_absdiff_int (a, b: one 8/16-bit integer depth and shape) -> saturate(|a - b|), a's shape
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

std::string cvname(const char* fn) { return std::string("[mnn.cv.") + fn + "] "; }

bool numeric(DType d) {
  switch (d) {
    case DType::UInt8: case DType::Int8: case DType::UInt16: case DType::Int16:
    case DType::Int32: case DType::Float32: case DType::Float64: return true;
    default: return false;
  }
}

void need_image(const NodePtr& a, const char* fn) {
  if (!numeric(a->dtype)) throw TypeError(cvname(fn) + "unsupported depth " + dtype_name(a->dtype));
  if (a->ndim() < 2 || a->ndim() > 3) throw ValueError(cvname(fn) + "expected an HxW or HxWxC image");
}

prims::PrimMeta infer_thresh(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "threshold";
  if (in.size() != 1 || p.ints.empty() || p.ints.size() > 2 || p.floats.size() != 2) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  const DType d = in[0]->dtype;
  if (d == DType::Int8 || d == DType::Int32) throw TypeError(cvname(fn) + "unsupported depth " + dtype_name(d));
  if (p.ints[0] < 0 || p.ints[0] > 4) throw ValueError(cvname(fn) + "unknown threshold type");
  if (p.ints.size() == 2 && (p.ints[1] <= 0 || numel(in[0]->shape) % p.ints[1] != 0))
    throw ValueError(cvname(fn) + "bad row length");
  return {d, in[0]->shape};
}

prims::PrimMeta infer_inrange(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "inRange";
  if (in.size() != 1) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  const int64_t c = in[0]->ndim() == 3 ? in[0]->shape[2] : 1;
  if (static_cast<int64_t>(p.floats.size()) != 2 * c) throw ValueError(cvname(fn) + "one bound per channel expected");
  return {DType::UInt8, {in[0]->shape[0], in[0]->shape[1]}};
}

prims::PrimMeta infer_lut_u8(const std::vector<NodePtr>& in, const Params&) {
  const char* fn = "LUT";
  if (in.size() != 2) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  const NodePtr& t = in[1];
  const int64_t c = in[0]->ndim() == 3 ? in[0]->shape[2] : 1;
  const int64_t tc = t->ndim() == 2 ? t->shape[1] : 1;
  if (in[0]->dtype != DType::UInt8 || t->dtype != DType::UInt8) throw TypeError(cvname(fn) + "uint8 image and table expected");
  if (t->ndim() < 1 || t->ndim() > 2 || t->shape[0] != 256 || (tc != 1 && tc != c))
    throw ValueError(cvname(fn) + "lut must have 256 entries and 1 or src's channel count");
  return {DType::UInt8, in[0]->shape};
}

prims::PrimMeta infer_count_nz(const std::vector<NodePtr>& in, const Params&) {
  if (in.size() != 1) throw ValueError(cvname("countNonZero") + "bad parameters");
  need_image(in[0], "countNonZero");
  return {DType::Int64, {}};
}

prims::PrimMeta infer_minmaxloc(const std::vector<NodePtr>& in, const Params&) {
  if (in.size() != 1) throw ValueError(cvname("minMaxLoc") + "bad parameters");
  need_image(in[0], "minMaxLoc");
  return {DType::Float64, {4}};
}

prims::PrimMeta infer_split(const std::vector<NodePtr>& in, const Params&) {
  const char* fn = "split";
  if (in.size() != 1 || in[0]->ndim() != 3) throw ValueError(cvname(fn) + "expected an HxWxC image");
  need_image(in[0], fn);
  const Shape& s = in[0]->shape;
  return {in[0]->dtype, {s[2], s[0], s[1]}};
}

prims::PrimMeta infer_merge(const std::vector<NodePtr>& in, const Params&) {
  const char* fn = "merge";
  if (in.empty()) throw ValueError(cvname(fn) + "mv must be a non-empty sequence of arrays");
  for (const NodePtr& x : in) {
    if (x->ndim() != 2 || x->shape != in[0]->shape || x->dtype != in[0]->dtype)
      throw ValueError(cvname(fn) + "all arrays must have the same size and depth");
  }
  need_image(in[0], fn);
  return {in[0]->dtype, {in[0]->shape[0], in[0]->shape[1], static_cast<int64_t>(in.size())}};
}

prims::PrimMeta infer_norm_minmax_u8(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "normalize";
  if (in.size() != 1 || p.floats.size() != 2) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  if (in[0]->dtype != DType::UInt8) throw TypeError(cvname(fn) + "a uint8 image expected");
  return {DType::UInt8, in[0]->shape};
}

prims::PrimMeta infer_absdiff_int(const std::vector<NodePtr>& in, const Params&) {
  const char* fn = "absdiff";
  if (in.size() != 2) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  const DType d = in[0]->dtype;
  if (d != DType::UInt8 && d != DType::Int8 && d != DType::UInt16 && d != DType::Int16)
    throw TypeError(cvname(fn) + "unsupported depth " + dtype_name(d));
  if (in[1]->dtype != d || in[1]->shape != in[0]->shape)
    throw ValueError(cvname(fn) + "the operands must have the same size and depth");
  return {d, in[0]->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_absdiff_int, {"cv_absdiff_int", &infer_absdiff_int});
MNN_REGISTER_PRIMITIVE(cv_norm_minmax_u8, {"cv_norm_minmax_u8", &infer_norm_minmax_u8});
MNN_REGISTER_PRIMITIVE(cv_thresh, {"cv_thresh", &infer_thresh});
MNN_REGISTER_PRIMITIVE(cv_inrange, {"cv_inrange", &infer_inrange});
MNN_REGISTER_PRIMITIVE(cv_lut_u8, {"cv_lut_u8", &infer_lut_u8});
MNN_REGISTER_PRIMITIVE(cv_count_nz, {"cv_count_nz", &infer_count_nz});
MNN_REGISTER_PRIMITIVE(cv_minmaxloc, {"cv_minmaxloc", &infer_minmaxloc});
MNN_REGISTER_PRIMITIVE(cv_split, {"cv_split", &infer_split});
MNN_REGISTER_PRIMITIVE(cv_merge, {"cv_merge", &infer_merge});

}  // namespace mnn::ops
