// Shape rules of mnn.cv's geometric primitives (resize, warps, remap, borders, pyramids).
//
// The Python layer (mnn/cv/_geometry.py) validates arguments the way cv2 does and raises
// mnn.cv.error; these rules are the engine-level guard, so a direct _core.prim call with bad
// parameters is a clear exception, never a kernel reading out of bounds.
//
// Images are H x W or H x W x C (C in 1..4, more where a rule says so); every primitive keeps the
// input dtype.
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

void check_image(const NodePtr& a, const char* fn, bool any_channels = false) {
  if (a->ndim() != 2 && a->ndim() != 3)
    throw ValueError(std::string("[mnn.cv.") + fn + "] expected an HxW or HxWxC image, got " +
                     std::to_string(a->ndim()) + " dimensions");
  if (a->ndim() == 3 && !any_channels && (a->shape[2] < 1 || a->shape[2] > 4))
    throw ValueError(std::string("[mnn.cv.") + fn + "] images have 1 to 4 channels, got " + std::to_string(a->shape[2]));
  DType d = a->dtype;
  if (d != DType::UInt8 && d != DType::Int8 && d != DType::UInt16 && d != DType::Int16 && d != DType::Int32 &&
      d != DType::Float32 && d != DType::Float64)
    throw TypeError(std::string("[mnn.cv.") + fn + "] unsupported image dtype " + dtype_name(d));
}

// Warps and remap: 1 to 128 channels (cv2's Python binding's limit) for NEAREST and LINEAR, 1 to 4
// for CUBIC and LANCZOS4, as cv2 (the wider kernels keep per-channel state for 4 at most).
void check_warp_channels(const NodePtr& a, int64_t interp, const char* fn) {
  const int64_t cn = a->ndim() == 3 ? a->shape[2] : 1;
  const int64_t maxcn = interp == 2 || interp == 4 ? 4 : 128;
  if (cn < 1 || cn > maxcn)
    throw ValueError(std::string("[mnn.cv.") + fn + "] " + std::to_string(cn) + " channels: this interpolation takes 1 to " +
                     std::to_string(maxcn));
}

Shape with_size(const NodePtr& a, int64_t h, int64_t w, const char* fn) {
  if (h <= 0 || w <= 0)
    throw ValueError(std::string("[mnn.cv.") + fn + "] destination size must be positive, got " +
                     std::to_string(w) + "x" + std::to_string(h));
  Shape s = a->shape;
  s[0] = h;
  s[1] = w;
  return s;
}

// cv_resize: ints [dst_h, dst_w, interpolation]; floats [inv_scale_x, inv_scale_y].
prims::PrimMeta infer_resize(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  check_image(a, "resize", true);  // any channel count, as cv2 (the kernels loop over channels)
  if (a->shape[0] == 0 || a->shape[1] == 0) throw ValueError("[mnn.cv.resize] source image is empty");
  int64_t interp = p.ints.at(2);
  if (interp < 0 || interp > 6) throw ValueError("[mnn.cv.resize] unknown interpolation " + std::to_string(interp));
  if (p.floats.size() != 2 || !(p.floats[0] > 0) || !(p.floats[1] > 0))
    throw ValueError("[mnn.cv.resize] scale factors must be positive");
  return {a->dtype, with_size(a, p.ints.at(0), p.ints.at(1), "resize")};
}

// cv_warp: inputs [src]; ints [dst_h, dst_w, interpolation, border_mode, perspective];
// floats: the inverse map (6 or 9 values, dst -> src) then the border value (4).
prims::PrimMeta infer_warp(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  const char* fn = p.ints.at(4) ? "warpPerspective" : "warpAffine";
  check_image(a, fn, true);
  check_warp_channels(a, p.ints.at(2), fn);
  size_t nm = p.ints.at(4) ? 9 : 6;
  if (p.floats.size() != nm + 4) throw ValueError(std::string("[mnn.cv.") + fn + "] bad transformation matrix");
  int64_t interp = p.ints.at(2), border = p.ints.at(3);
  if (interp < 0 || interp > 4 || interp == 3) throw ValueError(std::string("[mnn.cv.") + fn + "] unsupported interpolation");
  if (border < 0 || border > 5) throw ValueError(std::string("[mnn.cv.") + fn + "] unsupported border mode");
  Shape out = with_size(a, p.ints.at(0), p.ints.at(1), fn);
  // An optional second input is the destination's previous content (BORDER_TRANSPARENT keeps it).
  if (in.size() > 1 && (in[1]->dtype != a->dtype || in[1]->shape != out))
    throw ValueError(std::string("[mnn.cv.") + fn + "] dst must match the output's size and type");
  return {a->dtype, out};
}

// cv_remap: inputs [src, map1, (map2), (dst)]; ints [interpolation, border_mode, fixed, nmaps];
// floats border value. The maps are passed as the caller gave them, so that no stacked copy is
// made (at 1080p that copy cost as much as a third of the warp):
//   nmaps 1, float:  map1 float32 HxWx2 of (x, y);
//   nmaps 2, float:  map1, map2 float32 HxW (x and y);
//   nmaps 1, fixed:  map1 int16 HxWx2 of whole pixels;
//   nmaps 2, fixed:  map1 int16 HxWx2 + map2 (u)int16 HxW of 1/32-pixel table indices (convertMaps).
// fixed and nmaps default to 0 and 1 (getRectSubPix passes two ints).
prims::PrimMeta infer_remap(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  check_image(a, "remap", true);
  check_warp_channels(a, p.ints.at(0), "remap");
  const bool fixed = p.ints.size() > 2 && p.ints[2] != 0;
  const int64_t nmaps = p.ints.size() > 3 ? p.ints[3] : 1;
  if (nmaps != 1 && nmaps != 2) throw ValueError("[mnn.cv.remap] one or two maps expected");
  if (in.size() < size_t(1 + nmaps)) throw ValueError("[mnn.cv.remap] missing map input");
  const NodePtr& m = in.at(1);
  const DType t1 = fixed ? DType::Int16 : DType::Float32;
  const bool pairs = fixed || nmaps == 1;  // map1 holds (x, y) pairs
  if (m->dtype != t1 || m->ndim() != (pairs ? 3 : 2) || (pairs && m->shape[2] != 2))
    throw ValueError(std::string("[mnn.cv.remap] map1 must be ") + (fixed ? "int16" : "float32") +
                     (pairs ? " HxWx2" : " HxW"));
  if (nmaps == 2) {
    const NodePtr& m2 = in.at(2);
    const bool ok_type = fixed ? (m2->dtype == DType::UInt16 || m2->dtype == DType::Int16) : m2->dtype == DType::Float32;
    if (!ok_type || m2->ndim() != 2 || m2->shape[0] != m->shape[0] || m2->shape[1] != m->shape[1])
      throw ValueError(std::string("[mnn.cv.remap] map2 must be ") + (fixed ? "uint16" : "float32") +
                       " HxW of map1's size");
  }
  int64_t interp = p.ints.at(0), border = p.ints.at(1);
  if (interp < 0 || interp > 4 || interp == 3) throw ValueError("[mnn.cv.remap] unsupported interpolation");
  if (border < 0 || border > 5) throw ValueError("[mnn.cv.remap] unsupported border mode");
  if (p.floats.size() != 4) throw ValueError("[mnn.cv.remap] border value must have 4 entries");
  Shape s = a->shape;
  s[0] = m->shape[0];
  s[1] = m->shape[1];
  const size_t di = size_t(1 + nmaps);
  if (in.size() > di && (in[di]->dtype != a->dtype || in[di]->shape != s))
    throw ValueError("[mnn.cv.remap] dst must match the output's size and type");
  return {a->dtype, s};
}

// cv_border: ints [top, bottom, left, right, border_mode]; floats border value (4).
prims::PrimMeta infer_border(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  check_image(a, "copyMakeBorder", true);
  for (int i = 0; i < 4; ++i)
    if (p.ints.at(i) < 0) throw ValueError("[mnn.cv.copyMakeBorder] border widths must be non-negative");
  int64_t mode = p.ints.at(4);
  if (mode < 0 || mode > 4) throw ValueError("[mnn.cv.copyMakeBorder] unsupported border mode");
  if (mode != 0 && (a->shape[0] == 0 || a->shape[1] == 0))
    throw ValueError("[mnn.cv.copyMakeBorder] cannot extrapolate an empty image");
  if (p.floats.size() != 4) throw ValueError("[mnn.cv.copyMakeBorder] border value must have 4 entries");
  Shape s = a->shape;
  s[0] += p.ints[0] + p.ints[1];
  s[1] += p.ints[2] + p.ints[3];
  return {a->dtype, s};
}

// cv_pyr: ints [down (1) or up (0), dst_h, dst_w, border_mode].
prims::PrimMeta infer_pyr(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  const char* fn = p.ints.at(0) ? "pyrDown" : "pyrUp";
  check_image(a, fn);
  if (a->shape[0] == 0 || a->shape[1] == 0) throw ValueError(std::string("[mnn.cv.") + fn + "] source image is empty");
  return {a->dtype, with_size(a, p.ints.at(1), p.ints.at(2), fn)};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_resize, {"cv_resize", &infer_resize});
MNN_REGISTER_PRIMITIVE(cv_warp, {"cv_warp", &infer_warp});
MNN_REGISTER_PRIMITIVE(cv_remap, {"cv_remap", &infer_remap});
MNN_REGISTER_PRIMITIVE(cv_border, {"cv_border", &infer_border});
MNN_REGISTER_PRIMITIVE(cv_pyr, {"cv_pyr", &infer_pyr});

}  // namespace mnn::ops
