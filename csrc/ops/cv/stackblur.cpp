// Shape rule of cv2.stackBlur's primitive (kernel: backends/cpu/simd/cv/stackblur.cpp). Python
// (mnn/cv/_stackblur.py) keeps cv2's argument checks and its clamping of ksize to the image.
//
//   cv_stack_blur (src HxW or HxWxC of uint8 / uint16 / int16 / float32; kw, kh) -> src's shape
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

namespace {

prims::PrimMeta infer_stack_blur(const std::vector<NodePtr>& in, const Params& p) {
  const std::string e = "[mnn.cv.stackBlur] ";
  if (in.size() != 1 || p.ints.size() != 2) throw ValueError(e + "bad parameters");
  const DType d = in[0]->dtype;
  if (d != DType::UInt8 && d != DType::UInt16 && d != DType::Int16 && d != DType::Float32)
    throw TypeError(e + "unsupported depth " + dtype_name(d) + " (cv2 takes uint8, uint16, int16, float32)");
  if (in[0]->ndim() < 2 || in[0]->ndim() > 3) throw ValueError(e + "expected an HxW or HxWxC image");
  if (p.ints[0] < 1 || p.ints[1] < 1 || p.ints[0] % 2 == 0 || p.ints[1] % 2 == 0) throw ValueError(e + "ksize must be odd and positive");
  return {d, in[0]->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_stack_blur, {"cv_stack_blur", &infer_stack_blur});

}  // namespace mnn::ops
