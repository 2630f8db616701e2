// Shape rule of cv_floodfill, the region growing behind cv2.floodFill (kernel:
// backends/cpu/simd/cv/floodfill.cpp). Python (mnn/cv/_floodfill.py) checks cv2's arguments,
// paints the image and the mask from the region this returns, and reports area and rectangle.
//
//   cv_floodfill (img HxWxC float64, block HxW uint8; seed_x, seed_y, connectivity 4|8, fixed
//                 | lo_0..lo_{C-1}, up_0..up_{C-1}) -> uint8 HxW: 1 where the region is
//   A pixel joins when it is not blocked and every channel lies in [v - lo, v + up], v being the
//   seed's value (fixed) or the neighbour's it is reached from.
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_floodfill(const std::vector<NodePtr>& in, const Params& p) {
  const std::string fn = "[mnn.cv.floodFill] ";
  if (in.size() != 2 || p.ints.size() != 4) throw ValueError(fn + "bad parameters");
  const NodePtr &a = in[0], &m = in[1];
  if (a->dtype != DType::Float64 || a->ndim() != 3 || m->dtype != DType::UInt8 || m->ndim() != 2 ||
      m->shape[0] != a->shape[0] || m->shape[1] != a->shape[1])
    throw ValueError(fn + "a float64 HxWxC image and a uint8 HxW block map expected");
  if (static_cast<int64_t>(p.floats.size()) != 2 * a->shape[2]) throw ValueError(fn + "one lo and up per channel expected");
  if (p.ints[0] < 0 || p.ints[0] >= a->shape[1] || p.ints[1] < 0 || p.ints[1] >= a->shape[0])
    throw ValueError(fn + "the seed point is outside the image");
  return {DType::UInt8, {a->shape[0], a->shape[1]}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_floodfill, {"cv_floodfill", &infer_floodfill});

}  // namespace mnn::ops
