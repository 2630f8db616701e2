// Shape rule of cv_preprocess: mnn.cv.dnn.Preprocess's pixel work (cv2-exact INTER_LINEAR resize of
// a uint8 image, optional letterbox padding, per-channel y = x * a[c] - b[c] in float32, optional
// R/B swap, NCHW or NHWC float32 output) as one primitive, so it stays lazy and is planned and
// cached like any other op. The kernel is csrc/backends/cpu/simd/cv/preprocess.cpp.
//
// ints   [out_h, out_w, rh, rw, top, left, nchw, swap]: the output plane is out_h x out_w; the
//        resized image (rh x rw) sits at (top, left); the rest is padding.
// floats [inv_scale_x, inv_scale_y, a[cn], b[cn], pad[cn]]: the resize factors cv2.resize is
//        given (rw / sw, rh / sh), the per-output-channel float32 multiplier and offset (exact
//        float32 values carried as doubles), and the uint8 padding value per source channel.
//
// The Python layer (mnn/cv/_dnn.py, Preprocess) routes only uint8 images with 1, 3 or 4 channels
// here; these checks keep a direct _core.prim call from reading out of bounds.
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_preprocess(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  if (a->ndim() != 2 && a->ndim() != 3)
    throw ValueError("[mnn.cv.dnn.Preprocess] expected an HxW or HxWxC image, got " + std::to_string(a->ndim()) +
                     " dimensions");
  if (a->dtype != DType::UInt8)
    throw TypeError(std::string("[mnn.cv.dnn.Preprocess] the fused kernel takes uint8 images, got ") +
                    dtype_name(a->dtype));
  const int64_t cn = a->ndim() == 3 ? a->shape[2] : 1;
  if (cn != 1 && cn != 3 && cn != 4)
    throw ValueError("[mnn.cv.dnn.Preprocess] the fused kernel takes 1, 3 or 4 channels, got " + std::to_string(cn));
  if (a->shape[0] == 0 || a->shape[1] == 0) throw ValueError("[mnn.cv.dnn.Preprocess] the image is empty");
  if (p.ints.size() != 8 || p.floats.size() != size_t(2 + 3 * cn))
    throw ValueError("[mnn.cv.dnn.Preprocess] bad parameters for cv_preprocess");
  const int64_t oh = p.ints[0], ow = p.ints[1], rh = p.ints[2], rw = p.ints[3], top = p.ints[4], left = p.ints[5];
  if (oh <= 0 || ow <= 0 || rh <= 0 || rw <= 0 || top < 0 || left < 0 || top + rh > oh || left + rw > ow)
    throw ValueError("[mnn.cv.dnn.Preprocess] the resized image must lie inside the output");
  // int32 indexing inside the resize tables and the planes; far beyond any model input
  if (oh > (1 << 20) || ow > (1 << 20) || oh * ow * cn > (int64_t(1) << 31))
    throw ValueError("[mnn.cv.dnn.Preprocess] output too large");
  if (!(p.floats[0] > 0) || !(p.floats[1] > 0))
    throw ValueError("[mnn.cv.dnn.Preprocess] scale factors must be positive");
  for (int64_t c = 0; c < cn; ++c) {
    const double pad = p.floats[size_t(2 + 2 * cn + c)];
    if (!(pad >= 0 && pad <= 255) || pad != double(int64_t(pad)))
      throw ValueError("[mnn.cv.dnn.Preprocess] padding values must be integers in [0, 255]");
  }
  Shape s = p.ints[6] ? Shape{1, cn, oh, ow} : Shape{1, oh, ow, cn};
  return {DType::Float32, s};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_preprocess, {"cv_preprocess", &infer_preprocess});

}  // namespace mnn::ops
