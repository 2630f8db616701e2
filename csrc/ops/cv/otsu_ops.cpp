// Shape rule of cv_otsu(src) -> float64 scalar: Otsu's threshold of a single-channel uint16 image
// (cv2.threshold with THRESH_OTSU on CV_16UC1; the uint8 case is computed in mnn/cv/_filters.py).
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {
namespace {

prims::PrimMeta infer_otsu(const std::vector<core::NodePtr>& in, const core::Params&) {
  const core::NodePtr& a = in.at(0);
  const bool one_channel = a->ndim() == 2 || (a->ndim() == 3 && a->shape[2] == 1);
  if (!one_channel || a->dtype != core::DType::UInt16)
    throw core::ValueError("[mnn.cv.threshold] THRESH_OTSU here needs a single-channel uint16 image");
  return {core::DType::Float64, core::Shape{}};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(cv_otsu, {"cv_otsu", &infer_otsu});

}  // namespace mnn::ops
