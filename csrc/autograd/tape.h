// Autograd recording. When an op's input requires gradients (and grad mode is on), the result
// gets a GradNode naming the primitive, its parameters, the input values it saw and links to the
// inputs' own grad metadata. The reverse pass (mnn/autograd/) walks these nodes and applies each
// primitive's vjp, which is built from ops: gradients are lazy graph work, planned, fused and
// cached like any forward computation.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/array.h"

namespace mnn::autograd {

struct GradNode;

}  // namespace mnn::autograd

namespace mnn::core {

struct AutogradMeta {
  bool requires_grad = false;                 // a leaf the user asked gradients for
  std::shared_ptr<autograd::GradNode> grad_fn;  // how this value was computed (non-leaf)
  std::shared_ptr<Array> grad;                // accumulated gradient (leaves)
};

}  // namespace mnn::core

namespace mnn::autograd {

struct GradNode {
  std::string kind;                    // primitive name: "add", "sum", "reshape", "getitem", ...
  core::Params params;                 // what the vjp needs (axes, shapes, windows)
  std::vector<core::NodePtr> inputs;   // input values as recorded (immutable snapshots)
  core::NodePtr output;                // the result value
  std::vector<std::shared_ptr<core::AutogradMeta>> input_meta;  // null where no gradient flows
};

bool grad_enabled();
void set_grad_enabled(bool on);

bool requires_grad(const core::Array& a);
// Records `out` as computed from `inputs` by its node's primitive (called by ops::finish).
void maybe_record(core::Array& out, const std::vector<const core::Array*>& inputs);
// Records with an explicit primitive name and parameters (views, composite ops).
void record(core::Array& out, const std::vector<const core::Array*>& inputs, std::string kind,
            core::Params params = {});
// In-place writes cannot be differentiated through yet: refuse them clearly (as torch does for leaves).
void check_inplace_allowed(const core::Array& a, const char* fn);
// Writing a value that requires grad into an array (a[i] = x, out=, a += x) would lose its gradient
// silently: refuse it too, while gradients are recorded.
void check_assign_value_allowed(const core::Array& value, const char* fn);

}  // namespace mnn::autograd
