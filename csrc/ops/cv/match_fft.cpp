// Shape rule of cv_ccorr_fft, matchTemplate's cross-correlation by blocked FFT (kernel:
// backends/cpu/simd/cv/match_fft.cpp; Python mnn/cv/_match_fft.py picks it and the tile's DFT size
// by a cost model against the direct kernels cv_ccorr / cv_ccorr_u8).
//
//   cv_ccorr_fft (img HxWxC uint8|float32, templ hxwxC same dtype; ints [Nh, Nw] the DFT size of a
//            tile, Nh >= h, Nw >= w) -> float64 (H-h+1)x(W-w+1): sum over ty, tx, c of
//            img[y+ty, x+tx, c] * templ[ty, tx, c] (exact for uint8, float64 rounding for float32)
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_ccorr_fft(const std::vector<NodePtr>& in, const Params& p) {
  const std::string fn = "[mnn.cv.matchTemplate] ";
  if (in.size() != 2 || p.ints.size() != 2) throw ValueError(fn + "bad parameters");
  const NodePtr &a = in[0], &t = in[1];
  if ((a->dtype != DType::UInt8 && a->dtype != DType::Float32) || t->dtype != a->dtype)
    throw TypeError(fn + "uint8 or float32 images expected");
  if (a->ndim() != 3 || t->ndim() != 3 || a->shape[2] != t->shape[2]) throw ValueError(fn + "HxWxC images expected");
  if (t->shape[0] < 1 || t->shape[1] < 1 || t->shape[0] > a->shape[0] || t->shape[1] > a->shape[1])
    throw ValueError(fn + "the template must fit in the image");
  if (p.ints[0] < t->shape[0] || p.ints[1] < t->shape[1] || p.ints[0] > (1 << 14) || p.ints[1] > (1 << 14))
    throw ValueError(fn + "bad DFT size");
  return {DType::Float64, {a->shape[0] - t->shape[0] + 1, a->shape[1] - t->shape[1] + 1}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_ccorr_fft, {"cv_ccorr_fft", &infer_ccorr_fft});

}  // namespace mnn::ops
