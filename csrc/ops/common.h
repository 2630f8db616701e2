// Shared by the ops/*.cpp files: wrapping a recorded node as a result.
#pragma once
#include "autograd/tape.h"
#include "core/array.h"
#include "core/error.h"

namespace mnn::ops {

// Wraps a freshly recorded node as a new array and records it for autograd when an input
// requires gradients.
inline core::Array finish(core::NodePtr n, const core::Array* const* inputs, size_t count) {
  core::Array out = core::Array::from_node(core::bound_depth(std::move(n)));
  if (autograd::grad_enabled()) {
    for (size_t i = 0; i < count; ++i)
      if (autograd::requires_grad(*inputs[i])) {
        autograd::maybe_record(out, std::vector<const core::Array*>(inputs, inputs + count));
        break;
      }
  }
  return out;
}
inline core::Array finish(core::NodePtr n, const std::vector<const core::Array*>& inputs) {
  return finish(std::move(n), inputs.data(), inputs.size());
}

inline void check_ndim(size_t ndim, const char* fn) {
  if (ndim > 64)
    throw core::ValueError(core::api_msg(fn, "maximum supported dimension for an ndarray is currently 64, found " +
                                                 std::to_string(ndim)));
}

}  // namespace mnn::ops
