// Shape rule of cv_geom_copy (kernel: backends/cpu/simd/cv/geom_copy.cpp), the one-pass pixel
// moves behind flip, transpose, rotate and copyMakeBorder's non-constant borders. Python
// (mnn/cv/_geom_fast.py) keeps cv2's argument checks; this rule checks what the kernel relies on.
//
//   cv_geom_copy (src HxW or HxWxC, any dtype; mode[, top, bottom, left, right, border])
//     mode 0..2: flips (rows, columns, both)        -> src's shape
//     mode 3..5: transpose, rotate cw, rotate ccw    -> WxH[xC]
//     mode 6:    border of type 1..4 (REPLICATE, REFLECT, WRAP, REFLECT_101), widths >= 0, on a
//                non-empty image                     -> (H+top+bottom)x(W+left+right)[xC]
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_geom_copy(const std::vector<NodePtr>& in, const Params& p) {
  static const char* names[] = {"flip", "flip", "flip", "transpose", "rotate", "rotate", "copyMakeBorder"};
  if (in.size() != 1 || p.ints.empty() || p.ints[0] < 0 || p.ints[0] > 6)
    throw ValueError("[mnn.cv.flip] cv_geom_copy: bad parameters");
  const std::string fn = std::string("[mnn.cv.") + names[p.ints[0]] + "] ";
  const NodePtr& a = in[0];
  if (a->ndim() != 2 && a->ndim() != 3) throw ValueError(fn + "expected an HxW or HxWxC image");
  Shape s = a->shape;
  const int64_t mode = p.ints[0];
  if (mode >= 3 && mode <= 5) std::swap(s[0], s[1]);
  if (mode == 6) {
    if (p.ints.size() != 6) throw ValueError(fn + "bad parameters");
    for (int i = 1; i <= 4; ++i)
      if (p.ints[i] < 0) throw ValueError(fn + "border widths must be non-negative");
    if (p.ints[5] < 1 || p.ints[5] > 4) throw ValueError(fn + "unsupported border mode");
    if (s[0] == 0 || s[1] == 0) throw ValueError(fn + "cannot extrapolate an empty image");
    s[0] += p.ints[1] + p.ints[2];
    s[1] += p.ints[3] + p.ints[4];
  }
  return {a->dtype, s};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_geom_copy, {"cv_geom_copy", &infer_geom_copy});

}  // namespace mnn::ops
