#include "autograd/tape.h"

#include "core/error.h"

namespace mnn::autograd {

namespace {
thread_local bool tl_grad_enabled = true;
}

bool grad_enabled() { return tl_grad_enabled; }
void set_grad_enabled(bool on) { tl_grad_enabled = on; }

bool requires_grad(const core::Array& a) {
  return a.autograd && (a.autograd->requires_grad || a.autograd->grad_fn);
}

void record(core::Array& out, const std::vector<const core::Array*>& inputs, std::string kind, core::Params params) {
  if (!tl_grad_enabled) return;
  // Only floating-point results carry gradients (comparisons, casts to int, argmax do not), as in torch.
  if (!core::is_float(out.dtype())) return;
  bool any = false;
  for (auto* in : inputs) any |= requires_grad(*in);
  if (!any) return;
  auto g = std::make_shared<GradNode>();
  g->kind = std::move(kind);
  g->params = std::move(params);
  for (auto* in : inputs) {
    g->inputs.push_back(in->node());
    g->input_meta.push_back(requires_grad(*in) ? in->autograd : nullptr);
  }
  g->output = out.node();
  out.autograd = std::make_shared<core::AutogradMeta>();
  out.autograd->grad_fn = std::move(g);
}

void maybe_record(core::Array& out, const std::vector<const core::Array*>& inputs) {
  if (!tl_grad_enabled || !core::is_float(out.dtype())) return;
  bool any = false;
  for (auto* in : inputs) any |= requires_grad(*in);
  if (!any) return;
  const core::NodePtr& n = out.storage()->base;
  record(out, inputs, core::op_name(n->op), n->params);
}

void check_inplace_allowed(const core::Array& a, const char* fn) {
  if (tl_grad_enabled && requires_grad(a))
    throw core::ValueError(core::api_msg(fn, "an array that requires grad (or was computed from one) cannot be "
                                             "modified in place while gradients are recorded; use "
                                             "mnn.no_grad() or compute a new array"));
}

void check_assign_value_allowed(const core::Array& value, const char* fn) {
  if (tl_grad_enabled && requires_grad(value))
    throw core::ValueError(core::api_msg(fn, "writing an array that requires grad into another array in place is "
                                             "not differentiable; use mnn.no_grad(), or build the result with "
                                             "differentiable ops (concatenate, stack, where)"));
}

}  // namespace mnn::autograd
