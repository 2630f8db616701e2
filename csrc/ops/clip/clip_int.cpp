// clip of an integer array between two integer bounds in one pass ("clip_int"): numpy's
// minimum(maximum(x, lo), hi) without the intermediate array or a second elementwise step.
// mnn.numpy.clip uses it when both bounds are Python integers inside the dtype's range (the
// Python layer applies NumPy 2's rules for bounds outside it first).
#include <string>

#include "core/error.h"
#include "prims/registry.h"

namespace mnn::ops {
namespace {

prims::PrimMeta infer_clip_int(const std::vector<core::NodePtr>& in, const core::Params& p) {
  const char* fn = "[mnn.numpy.clip] ";
  if (in.size() != 1 || p.ints.size() != 2) throw core::ValueError(std::string(fn) + "bad parameters");
  const core::Kind k = core::kind_of(in[0]->dtype);
  if (k != core::Kind::Signed && k != core::Kind::Unsigned)
    throw core::TypeError(std::string(fn) + "clip_int needs an integer array, got " + core::dtype_name(in[0]->dtype));
  return {in[0]->dtype, in[0]->shape};
}

}  // namespace

MNN_REGISTER_PRIMITIVE(clip_int, {"clip_int", &infer_clip_int});

}  // namespace mnn::ops
