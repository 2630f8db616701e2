// Shape rules of cvtColor's packed and raw camera formats (kernels: backends/cpu/kernels/cv/
// color_packed16.cpp, color_yuv422.cpp, color_mrgba.cpp, color_bayer.cpp).
//
// mnn/cv/_color.py maps cv2's COLOR_* codes to these primitives and raises cv2's errors; these
// rules guard direct calls. Each family is its own primitive, so a kernel file holds one family:
//   cv_color_5x5    ints: [dir, cn, bidx, green_bits]  16-bit BGR565/BGR555 stored as 2 bytes
//                   dir 0: HxWx{3,4} -> HxWx2, 1: HxWx2 -> HxWx{3,4}, 2: HxW -> HxWx2, 3: HxWx2 -> HxW
//   cv_color_422    ints: [dir, cn, bidx, uidx, yidx]  packed 4:2:2 (YUY2/UYVY/YVYU), HxWx2
//                   dir 0: HxWx2 -> HxWx{3,4}, 1: HxWx{3,4} -> HxWx2 (W even), 2: HxWx2 -> HxW (Y)
//   cv_color_mrgba  ints: [dir]  RGBA <-> alpha-premultiplied RGBA, HxWx4 uint8
//   cv_color_bayer  ints: [dcn, blue, start_with_green, algo]  raw Bayer HxW (uint8/uint16)
//                   -> HxWxdcn (dcn 1: gray, 3 or 4: colour; blue is -1 or 1 as cv2's bilinear
//                   demosaicing names it; algo 0 bilinear, 1 edge-aware, 2 VNG (uint8): the
//                   last two with dcn 3 only)
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

int64_t channels_of(const NodePtr& a) { return a->ndim() == 2 ? 1 : a->shape[2]; }

[[noreturn]] void bad(const std::string& msg) { throw ValueError("[mnn.cv.cvtColor] " + msg); }

Shape image_shape(int64_t h, int64_t w, int64_t cn) {
  if (cn == 1) return {h, w};
  return {h, w, cn};
}

void check_image(const NodePtr& a, bool allow_u16) {
  if (a->dtype != DType::UInt8 && !(allow_u16 && a->dtype == DType::UInt16)) bad("unsupported depth");
  if (a->ndim() != 2 && a->ndim() != 3) bad("expected an HxW or HxWxC image");
}

void expect_cn(int64_t cn, int64_t want) {
  if (cn != want) bad("invalid number of channels " + std::to_string(cn));
}

prims::PrimMeta infer_5x5(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  check_image(a, false);
  const int64_t h = a->shape[0], w = a->shape[1], cn = channels_of(a);
  const int64_t dir = p.ints.at(0), ccn = p.ints.at(1), gbits = p.ints.at(3);
  if (gbits != 5 && gbits != 6) bad("green bits must be 5 or 6");
  switch (dir) {
    case 0: expect_cn(cn, ccn); return {a->dtype, {h, w, 2}};
    case 1: expect_cn(cn, 2); return {a->dtype, image_shape(h, w, ccn)};
    case 2: expect_cn(cn, 1); return {a->dtype, {h, w, 2}};
    case 3: expect_cn(cn, 2); return {a->dtype, {h, w}};
    default: bad("unknown conversion");
  }
}

prims::PrimMeta infer_422(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  check_image(a, false);
  const int64_t h = a->shape[0], w = a->shape[1], cn = channels_of(a);
  const int64_t dir = p.ints.at(0), ccn = p.ints.at(1);
  if (w % 2 && dir != 2) bad("a 4:2:2 image needs an even width");
  switch (dir) {
    case 0: expect_cn(cn, 2); return {a->dtype, image_shape(h, w, ccn)};
    case 1: expect_cn(cn, ccn); return {a->dtype, {h, w, 2}};
    case 2: expect_cn(cn, 2); return {a->dtype, {h, w}};
    default: bad("unknown conversion");
  }
}

prims::PrimMeta infer_mrgba(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  check_image(a, false);
  expect_cn(channels_of(a), 4);
  if (p.ints.at(0) != 0 && p.ints.at(0) != 1) bad("unknown conversion");
  return {a->dtype, a->shape};
}

prims::PrimMeta infer_bayer(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  check_image(a, true);
  expect_cn(channels_of(a), 1);
  const int64_t dcn = p.ints.at(0);
  if (dcn != 1 && dcn != 3 && dcn != 4) bad("invalid number of output channels " + std::to_string(dcn));
  const int64_t algo = p.ints.size() > 3 ? p.ints[3] : 0;
  if (algo < 0 || algo > 2) bad("unknown demosaicing algorithm");
  if (algo != 0 && dcn != 3) bad("edge-aware and VNG demosaicing give 3 channels");
  if (algo == 2 && a->dtype != DType::UInt8) bad("VNG demosaicing needs uint8");
  return {a->dtype, image_shape(a->shape[0], a->shape[1], dcn)};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_color_5x5, {"cv_color_5x5", &infer_5x5});
MNN_REGISTER_PRIMITIVE(cv_color_422, {"cv_color_422", &infer_422});
MNN_REGISTER_PRIMITIVE(cv_color_mrgba, {"cv_color_mrgba", &infer_mrgba});
MNN_REGISTER_PRIMITIVE(cv_color_bayer, {"cv_color_bayer", &infer_bayer});

}  // namespace mnn::ops
