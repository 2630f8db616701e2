// Shape rules of the native histogram / statistics primitives behind calcHist, equalizeHist,
// Otsu / triangle thresholds, mean, meanStdDev, norm, normalize and CLAHE (kernels:
// backends/cpu/simd/cv/hist.cpp). Python (mnn/cv/_hist.py) keeps cv2's argument checks and hands
// these plain numbers; the rules check only what the kernels rely on.
//
//   cv_hist_n    (img_0..img_{n-1}[, mask]; nd, has_mask, n, (img, channel, bins) per dim | lo, hi per dim)
//                -> float32 (bins_0, .., bins_{nd-1}); images HxW or HxWxC of one depth (uint8,
//                uint16, float32) and one HxW; uniform bins, cv2's floor(v * a + b) rule
//   cv_autothresh(src uint8 HxW; method 8 Otsu | 16 triangle) -> float64 0-d: the threshold
//   cv_thresh_lut(t float64 0-d; kind, maxval) -> uint8 (256,): the uint8 threshold as a table
//   cv_equalize_lut(src uint8 HxW) -> uint8 (256,): equalizeHist's table
//   cv_sums      (src[, mask]; has_mask[, want_squares]) -> float64 (2C+1,): per-channel sums, sums of
//                squares (0 when not wanted), the pixel count; C <= 64
//   cv_normval   (src[, mask]; kind, has_mask) -> float64 (2,): kind 32 (NORM_MINMAX) min, max of
//                the selected elements (+inf, -inf when none); 1 INF, 2 L1, 4 L2 squared: (value, 0)
//   cv_scale_cvt (src[, mask[, base]]; out depth 0..6, mode, has_mask | scale, shift) -> out depth,
//                src's shape: normalize's saturate(x * scale + shift) (mode: see the kernel)
//   cv_normalize (src[, mask[, base]]; norm kind (32, 1, 2, 4 = L2), out depth, mode, has_mask | alpha, beta)
//                -> out depth, src's shape: cv_normval's statistics, normalize's scale and shift, then
//                cv_scale_cvt's conversion, in one kernel
//   cv_clahe_fast(src uint8/uint16 HxW; tiles_x, tiles_y | clip) -> src's shape and dtype
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

int64_t chans(const NodePtr& a) { return a->ndim() == 3 ? a->shape[2] : 1; }

void need_image(const NodePtr& a, const char* fn) {
  if (!numeric(a->dtype)) throw TypeError(cvname(fn) + "unsupported depth " + dtype_name(a->dtype));
  if (a->ndim() < 2 || a->ndim() > 3) throw ValueError(cvname(fn) + "expected an HxW or HxWxC image");
}

void need_mask(const NodePtr& a, const NodePtr& m, const char* fn) {
  if (m->dtype != DType::UInt8 || m->ndim() != 2 || m->shape[0] != a->shape[0] || m->shape[1] != a->shape[1])
    throw ValueError(cvname(fn) + "mask must be uint8 HxW with the image's size");
}

prims::PrimMeta infer_hist_n(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "calcHist";
  const auto& i = p.ints;
  if (i.size() < 3) throw ValueError(cvname(fn) + "bad parameters");
  const int64_t nd = i[0], n = i[2];
  const bool mask = i[1] != 0;
  if (nd < 1 || n < 1 || static_cast<int64_t>(i.size()) != 3 + 3 * nd || static_cast<int64_t>(p.floats.size()) != 2 * nd ||
      static_cast<int64_t>(in.size()) != n + (mask ? 1 : 0))
    throw ValueError(cvname(fn) + "bad parameters");
  const DType d = in[0]->dtype;
  if (d != DType::UInt8 && d != DType::UInt16 && d != DType::Float32) throw TypeError(cvname(fn) + "unsupported depth");
  for (int64_t k = 0; k < n; ++k) {
    need_image(in[k], fn);
    if (in[k]->dtype != d) throw TypeError(cvname(fn) + "all images must have the same depth");
    if (in[k]->shape[0] != in[0]->shape[0] || in[k]->shape[1] != in[0]->shape[1])
      throw ValueError(cvname(fn) + "all images must have the same size");
  }
  Shape s;
  for (int64_t k = 0; k < nd; ++k) {
    const int64_t img = i[3 + 3 * k], ch = i[4 + 3 * k], bins = i[5 + 3 * k];
    if (img < 0 || img >= n || ch < 0 || ch >= chans(in[img])) throw ValueError(cvname(fn) + "channel index is out of range");
    if (bins < 1) throw ValueError(cvname(fn) + "histSize must be positive");
    s.push_back(bins);
  }
  if (mask) need_mask(in[0], in[n], fn);
  return {DType::Float32, s};
}

prims::PrimMeta infer_autothresh(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "threshold";
  if (in.size() != 1 || p.ints.size() != 1 || (p.ints[0] != 8 && p.ints[0] != 16)) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  if (in[0]->dtype != DType::UInt8 || chans(in[0]) != 1) throw TypeError(cvname(fn) + "a single-channel uint8 image expected");
  return {DType::Float64, {}};
}

prims::PrimMeta infer_thresh_lut(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "threshold";
  if (in.size() != 1 || p.ints.size() != 2 || p.ints[0] < 0 || p.ints[0] > 4 || p.ints[1] < 0 || p.ints[1] > 255)
    throw ValueError(cvname(fn) + "bad parameters");
  if (in[0]->dtype != DType::Float64 || in[0]->ndim() != 0) throw TypeError(cvname(fn) + "a float64 threshold expected");
  return {DType::UInt8, {256}};
}

prims::PrimMeta infer_equalize_lut(const std::vector<NodePtr>& in, const Params&) {
  const char* fn = "equalizeHist";
  if (in.size() != 1) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  if (in[0]->dtype != DType::UInt8 || chans(in[0]) != 1) throw TypeError(cvname(fn) + "src must be a single-channel uint8 image");
  return {DType::UInt8, {256}};
}

prims::PrimMeta infer_sums(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "meanStdDev";
  if (in.empty() || p.ints.empty() || p.ints.size() > 2 || in.size() != size_t(1 + (p.ints[0] != 0)))
    throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  if (p.ints[0]) need_mask(in[0], in[1], fn);
  if (chans(in[0]) > 64) throw ValueError(cvname(fn) + "too many channels");
  return {DType::Float64, {2 * chans(in[0]) + 1}};
}

prims::PrimMeta infer_normval(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "norm";
  if (in.empty() || p.ints.size() != 2 || in.size() != size_t(1 + (p.ints[1] != 0))) throw ValueError(cvname(fn) + "bad parameters");
  const int64_t k = p.ints[0];
  if (k != 32 && k != 1 && k != 2 && k != 4) throw ValueError(cvname(fn) + "bad norm kind");
  need_image(in[0], fn);
  if (p.ints[1]) need_mask(in[0], in[1], fn);
  return {DType::Float64, {2}};
}

prims::PrimMeta infer_scale_cvt(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "normalize";
  if (in.empty() || p.ints.size() != 3 || p.floats.size() != 2 || p.ints[0] < 0 || p.ints[0] > 6 || p.ints[1] < 0 ||
      p.ints[1] > 2)
    throw ValueError(cvname(fn) + "bad parameters");
  static const DType outs[7] = {DType::UInt8, DType::Int8, DType::UInt16, DType::Int16, DType::Int32, DType::Float32, DType::Float64};
  const DType out = outs[p.ints[0]];
  const size_t want = p.ints[2] == 0 ? 1 : p.ints[2] == 1 ? 2 : 3;
  if (in.size() != want) throw ValueError(cvname(fn) + "bad parameters");
  need_image(in[0], fn);
  if (in.size() > 1) need_mask(in[0], in[1], fn);
  if (in.size() > 2 && (in[2]->dtype != out || in[2]->shape != in[0]->shape)) throw ValueError(cvname(fn) + "bad dst");
  return {out, in[0]->shape};
}

// cv_normalize: cv_normval's statistics and cv_scale_cvt's conversion in one step
prims::PrimMeta infer_normalize(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "normalize";
  if (p.ints.size() != 4 || p.floats.size() != 2) throw ValueError(cvname(fn) + "bad parameters");
  const int64_t k = p.ints[0];
  if (k != 32 && k != 1 && k != 2 && k != 4) throw ValueError(cvname(fn) + "bad norm kind");
  Params q;
  q.ints = {p.ints[1], p.ints[2], p.ints[3]};
  q.floats = {1.0, 0.0};
  return infer_scale_cvt(in, q);
}

prims::PrimMeta infer_clahe_fast(const std::vector<NodePtr>& in, const Params& p) {
  const char* fn = "CLAHE.apply";
  if (in.size() != 1 || p.ints.size() != 2 || p.ints[0] < 1 || p.ints[1] < 1 || p.floats.size() != 1)
    throw ValueError(cvname(fn) + "bad parameters");
  const NodePtr& a = in[0];
  if (a->ndim() != 2 || (a->dtype != DType::UInt8 && a->dtype != DType::UInt16))
    throw ValueError(cvname(fn) + "src must be a single-channel uint8 or uint16 image");
  return {a->dtype, a->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_hist_n, {"cv_hist_n", &infer_hist_n});
MNN_REGISTER_PRIMITIVE(cv_autothresh, {"cv_autothresh", &infer_autothresh});
MNN_REGISTER_PRIMITIVE(cv_thresh_lut, {"cv_thresh_lut", &infer_thresh_lut});
MNN_REGISTER_PRIMITIVE(cv_equalize_lut, {"cv_equalize_lut", &infer_equalize_lut});
MNN_REGISTER_PRIMITIVE(cv_sums, {"cv_sums", &infer_sums});
MNN_REGISTER_PRIMITIVE(cv_normval, {"cv_normval", &infer_normval});
MNN_REGISTER_PRIMITIVE(cv_scale_cvt, {"cv_scale_cvt", &infer_scale_cvt});
MNN_REGISTER_PRIMITIVE(cv_normalize, {"cv_normalize", &infer_normalize});
MNN_REGISTER_PRIMITIVE(cv_clahe_fast, {"cv_clahe_fast", &infer_clahe_fast});

}  // namespace mnn::ops
