// Shape rule of mnn.cv.cvtColor's primitive, cv_color.
//
// ints[0] picks the conversion (ColorOp in backends/cpu/simd/cv/color.cpp), the rest are its
// parameters: source/destination channel counts, the blue channel's index, hue range, plane
// order. mnn/cv/_color.py maps every cv2 COLOR_* code to these and raises cv2's errors; this
// rule guards direct calls. Inputs are HxWxC (or HxW for one channel); the planar YUV 4:2:0
// conversions take their planes as separate inputs.
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

enum ColorOp {
  kPerm = 0, kRgb2Gray, kGray2Rgb, kRgb2Hsv, kHsv2Rgb, kRgb2Ycc, kYcc2Rgb, kRgb2Xyz, kXyz2Rgb,
  kYuv420sp2Rgb, kYuv420p2Rgb, kRgb2Yuv420p, kRgb2Lab, kLab2Rgb, kRgb2Luv, kLuv2Rgb, kNumOps
};

int64_t channels_of(const NodePtr& a) { return a->ndim() == 2 ? 1 : a->shape[2]; }

[[noreturn]] void bad(const std::string& msg) { throw ValueError("[mnn.cv.cvtColor] " + msg); }

Shape image_shape(int64_t h, int64_t w, int64_t cn) {
  if (cn == 1) return {h, w};
  return {h, w, cn};
}

prims::PrimMeta infer_color(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  int64_t op = p.ints.at(0);
  if (op < 0 || op >= kNumOps) bad("unknown conversion");
  DType d = a->dtype;
  if (d != DType::UInt8 && d != DType::UInt16 && d != DType::Float32) bad("unsupported depth");
  if (a->ndim() != 2 && a->ndim() != 3) bad("expected an HxW or HxWxC image");
  int64_t h = a->shape[0], w = a->shape[1], cn = channels_of(a);
  switch (op) {
    case kPerm: case kRgb2Gray: case kRgb2Hsv: case kRgb2Ycc: case kRgb2Xyz: case kRgb2Lab: case kRgb2Luv: {
      int64_t scn = p.ints.at(1);
      if (cn != scn) bad("invalid number of channels " + std::to_string(cn));
      int64_t dcn = op == kPerm ? p.ints.at(2) : op == kRgb2Gray ? 1 : 3;
      return {d, image_shape(h, w, dcn)};
    }
    case kGray2Rgb:
      if (cn != 1) bad("invalid number of channels " + std::to_string(cn));
      return {d, image_shape(h, w, p.ints.at(1))};
    case kHsv2Rgb: case kYcc2Rgb: case kXyz2Rgb: case kLab2Rgb: case kLuv2Rgb:
      if (cn != 3) bad("invalid number of channels " + std::to_string(cn));
      return {d, image_shape(h, w, p.ints.at(1))};
    case kYuv420sp2Rgb: case kYuv420p2Rgb: {
      // inputs: Y (HxW), then the chroma plane(s) as flat arrays of (H/2)*(W/2)*2 bytes
      if (d != DType::UInt8 || cn != 1 || h % 2 || w % 2) bad("bad Y plane");
      size_t need = op == kYuv420sp2Rgb ? 2 : 3;
      if (in.size() != need) bad("bad number of planes");
      int64_t chroma = (h / 2) * (w / 2) * (op == kYuv420sp2Rgb ? 2 : 1);
      for (size_t i = 1; i < need; ++i)
        if (in[i]->dtype != DType::UInt8 || numel(in[i]->shape) != chroma) bad("bad chroma plane");
      return {d, image_shape(h, w, p.ints.at(1))};
    }
    case kRgb2Yuv420p:
      if (d != DType::UInt8 || cn != p.ints.at(1) || h % 2 || w % 2) bad("bad source for YUV 4:2:0");
      return {d, {h * 3 / 2, w}};
    default:
      bad("unknown conversion");
  }
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_color, {"cv_color", &infer_color});

}  // namespace mnn::ops
