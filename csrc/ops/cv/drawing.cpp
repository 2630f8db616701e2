// Shape rule of the mnn.cv drawing primitive, cv_draw (kernel: backends/cpu/kernels/cv/drawing.cpp).
//
//   cv_draw(img; commands.. | color[4]) -> a copy of img with the shapes drawn in `color`
//
// mnn/cv/_drawing.py turns each cv2 call (line, circle, fillPoly, drawContours, ...) into a short
// command stream of integers (coordinates in cv2's fixed point, thickness, line type, shift) and
// writes the result back into the caller's image, which is how cv2's in-place drawing is kept on a
// graph of immutable nodes. The rule checks only what the kernel relies on: an HxW or HxWxC image of
// a depth cv2 draws on, at most 4 channels, and a colour of 4 values.
#include <cstdlib>
#include <string>

#include "backends/cpu/kernels/cv/drawing.h"
#include "core/error.h"
#include "engine/eval.h"
#include "ops/cv/drawing.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_draw(const std::vector<NodePtr>& in, const Params& p) {
  const NodePtr& a = in.at(0);
  const std::string fn = "[mnn.cv.draw] ";
  if (a->ndim() != 2 && a->ndim() != 3)
    throw ValueError(fn + "expected a 2-d (HxW) or 3-d (HxWxC) image, got " + std::to_string(a->ndim()) +
                     " dimensions");
  switch (a->dtype) {
    case DType::UInt8: case DType::Int8: case DType::UInt16: case DType::Int16:
    case DType::Int32: case DType::Float32: case DType::Float64: break;
    default: throw TypeError(fn + "unsupported image depth " + dtype_name(a->dtype));
  }
  if (a->ndim() == 3 && (a->shape[2] < 1 || a->shape[2] > 4))
    throw ValueError(fn + "drawing supports 1 to 4 channels, got " + std::to_string(a->shape[2]));
  if (p.floats.size() != 4) throw ValueError(fn + "bad colour");
  return {a->dtype, a->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_draw, {"cv_draw", &infer_draw});

namespace draw {

bool drawable(DType dt, int ndim, const int64_t* shape, const int64_t* st) {
  switch (dt) {
    case DType::UInt8: case DType::Int8: case DType::UInt16: case DType::Int16:
    case DType::Int32: case DType::Float32: case DType::Float64: break;
    default: return false;
  }
  if (ndim != 2 && ndim != 3) return false;
  const int64_t h = shape[0], w = shape[1], cn = ndim == 3 ? shape[2] : 1;
  if (cn < 1 || cn > 4) return false;
  if (ndim == 3 && cn > 1 && st[2] != 1) return false;
  if (w > 1 && st[1] != cn) return false;
  return h <= 1 || std::llabs(st[0]) >= w * cn;  // rows apart (a broadcast row would be drawn twice)
}

bool draw_inplace(Array& img, const int64_t* ints, size_t nints, const double* color) {
  if (img.autograd || !img.writeable() || img.device().type != Device::CPU) return false;
  if (!drawable(img.dtype(), img.ndim(), img.shape().data(), img.strides().data())) return false;
  if (!img.storage()->base->realized) engine::eval({img.storage()->base});  // cv2 draws on the value
  const NodePtr& base = img.storage()->base;
  if (!base->realized || !base->buffer || base.use_count() != 1) return false;  // a pending node reads it
  const auto& buf = base->buffer;
  if (!buf->writeable() || buf.use_count() - buf->exports.load() != 1) return false;  // another node shares it
  const int64_t isz = static_cast<int64_t>(itemsize(img.dtype()));
  const int cn = img.ndim() == 3 ? static_cast<int>(img.shape()[2]) : 1;
  draw_memory(buf->data() + img.offset() * isz, img.dtype(), img.shape()[0], img.shape()[1], cn,
              img.strides()[0] * isz, ints, nints, color);
  return true;
}

void draw_memory(char* data, DType dt, int64_t h, int64_t w, int cn, int64_t row_step, const int64_t* ints,
                 size_t nints, const double* color) {
  cpu::draw_commands(data, h, w, row_step, cn, dt, ints, nints, color);
}

}  // namespace draw

}  // namespace mnn::ops
