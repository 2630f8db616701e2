// Shape rule of cv_color_ycc: cvtColor's linear conversions in one native pass each
// (kernels: backends/cpu/simd/cv/color_ycc.cpp). mnn/cv/_color_ycc.py maps cv2 codes here and
// raises cv2's errors; this rule checks only what the kernels rely on.
//
//   ints[0] op:
//     0 RGB->YCrCb/YUV  (scn, bidx, yuv)        HxWxscn -> HxWx3       uint8, float32
//     1 YCrCb/YUV->RGB  (dcn, bidx, yuv)        HxWx3   -> HxWxdcn     uint8, float32
//     2 RGB->XYZ        (scn, bidx)             HxWxscn -> HxWx3       uint8, float32
//     3 XYZ->RGB        (dcn, bidx)             HxWx3   -> HxWxdcn     uint8, float32
//     4 RGB->GRAY       (scn, bidx)             HxWxscn -> HxW         float32
//     5 RGB->I420/YV12  (scn, bidx, uidx)       HxWxscn -> (3H/2)xW    uint8, H and W even
//     6 channel perm    (scn, dcn, map0..map{dcn-1}; -1 = alpha 1.0)  float32; maps as cvtColor makes them
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

[[noreturn]] void bad(const std::string& msg) { throw ValueError("[mnn.cv.cvtColor] " + msg); }

prims::PrimMeta infer_color_ycc(const std::vector<NodePtr>& in, const Params& p) {
  if (in.size() != 1 || p.ints.size() < 3) bad("bad parameters");
  const NodePtr& a = in[0];
  const int64_t op = p.ints[0];
  const DType d = a->dtype;
  if (d != DType::UInt8 && d != DType::Float32) bad("unsupported depth");
  if (a->ndim() != 2 && a->ndim() != 3) bad("expected an HxW or HxWxC image");
  const int64_t h = a->shape[0], w = a->shape[1], cn = a->ndim() == 2 ? 1 : a->shape[2];
  const int64_t c1 = p.ints[1];
  auto need = [&](bool ok) { if (!ok) bad("invalid parameters for this image"); };
  switch (op) {
    case 0: case 2: case 4:
      need(cn == c1 && (c1 == 3 || c1 == 4) && (p.ints[2] == 0 || p.ints[2] == 2));
      need(op != 4 || d == DType::Float32);
      if (op == 4) return {d, {h, w}};
      return {d, {h, w, 3}};
    case 1: case 3:
      need(cn == 3 && (c1 == 3 || c1 == 4) && (p.ints[2] == 0 || p.ints[2] == 2));
      return {d, {h, w, c1}};
    case 5:
      need(d == DType::UInt8 && cn == c1 && (c1 == 3 || c1 == 4) && h % 2 == 0 && w % 2 == 0 && p.ints.size() == 4);
      need(p.ints[2] == 0 || p.ints[2] == 2);
      return {d, {h * 3 / 2, w}};
    case 6: {
      const int64_t dcn = p.ints[2];
      need(d == DType::Float32 && cn == c1 && (c1 == 3 || c1 == 4) && (dcn == 3 || dcn == 4));
      need(static_cast<int64_t>(p.ints.size()) == 3 + dcn);
      // cvtColor's maps: (0, 1, 2) or (2, 1, 0), then alpha kept (3, from 4 channels) or added (-1)
      const int64_t m0 = p.ints[3];
      need((m0 == 0 || m0 == 2) && p.ints[4] == 1 && p.ints[5] == 2 - m0);
      if (dcn == 4) need(p.ints[6] == -1 || (p.ints[6] == 3 && c1 == 4));
      return {d, {h, w, dcn}};
    }
    default:
      bad("unknown conversion");
  }
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_color_ycc, {"cv_color_ycc", &infer_color_ycc});

}  // namespace mnn::ops
