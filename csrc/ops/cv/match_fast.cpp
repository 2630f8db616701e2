// Shape rules of the native matchTemplate passes (kernels: backends/cpu/simd/cv/match_fast.cpp).
// Python (mnn/cv/_match_fast.py) picks them for uint8 images and for the score arithmetic.
//
//   cv_ccorr_u8 (img HxWxC uint8, templ hxwxC uint8) -> float64 (H-h+1)x(W-w+1): the exact
//            cross-correlation sum over c, ty, tx of img[y+ty, x+tx, c] * templ[ty, tx, c]
//            (integer sums; needs C*h*w <= 65793 so they fit int32, see the kernel)
//   cv_match_score (ccorr Ho x Wo float64, S, Q (H+1)x(W+1)xC float64 integrals of the image and
//            of its squares; ints [method, h, w], floats [tnorm, tsum2, 1/n, tmean_0..tmean_C-1])
//            -> float32 Ho x Wo: cv2's score of the method from the correlation
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_ccorr_u8(const std::vector<NodePtr>& in, const Params&) {
  const std::string fn = "[mnn.cv.matchTemplate] ";
  if (in.size() != 2) throw ValueError(fn + "bad parameters");
  const NodePtr &a = in[0], &t = in[1];
  if (a->dtype != DType::UInt8 || t->dtype != DType::UInt8) throw TypeError(fn + "uint8 images expected");
  if (a->ndim() != 3 || t->ndim() != 3 || a->shape[2] != t->shape[2]) throw ValueError(fn + "HxWxC images expected");
  if (t->shape[0] < 1 || t->shape[1] < 1 || t->shape[0] > a->shape[0] || t->shape[1] > a->shape[1])
    throw ValueError(fn + "the template must fit in the image");
  if (t->shape[0] * t->shape[1] * t->shape[2] > 65793) throw ValueError(fn + "template too large for int32 sums");
  return {DType::Float64, {a->shape[0] - t->shape[0] + 1, a->shape[1] - t->shape[1] + 1}};
}

prims::PrimMeta infer_score(const std::vector<NodePtr>& in, const Params& p) {
  const std::string fn = "[mnn.cv.matchTemplate] ";
  if (in.size() != 3 || p.ints.size() != 3 || p.floats.size() < 4) throw ValueError(fn + "bad parameters");
  const NodePtr &c = in[0], &s = in[1], &q = in[2];
  if (c->dtype != DType::Float64 || s->dtype != DType::Float64 || q->dtype != DType::Float64)
    throw TypeError(fn + "float64 inputs expected");
  if (c->ndim() != 2 || s->ndim() != 3 || q->shape != s->shape) throw ValueError(fn + "bad shapes");
  const int64_t h = p.ints[1], w = p.ints[2];
  if (h < 1 || w < 1 || s->shape[0] - h != c->shape[0] || s->shape[1] - w != c->shape[1] ||
      int64_t(p.floats.size()) != 3 + s->shape[2] || p.ints[0] < 0 || p.ints[0] > 5)
    throw ValueError(fn + "bad shapes");
  return {DType::Float32, {c->shape[0], c->shape[1]}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_ccorr_u8, {"cv_ccorr_u8", &infer_ccorr_u8});
MNN_REGISTER_PRIMITIVE(cv_match_score, {"cv_match_score", &infer_score});

}  // namespace mnn::ops
