#include "ops/common.h"
#include "ops/ops.h"
#include "prims/elementwise.h"

namespace mnn::ops {

using namespace core;

namespace {
// numpy raises on the line for a negative integer exponent; a known one (a Python int, any realised
// 0-d array) is checked here, other arrays when the kernel runs.
void check_int_exponent(const Node& e) {
  if (!e.realized || numel(e.shape) != 1 || kind_of(e.dtype) != Kind::Signed) return;
  int64_t v = 0;
  const char* p = e.data_ptr();
  switch (itemsize(e.dtype)) {
    case 1: v = *reinterpret_cast<const int8_t*>(p); break;
    case 2: v = *reinterpret_cast<const int16_t*>(p); break;
    case 4: v = *reinterpret_cast<const int32_t*>(p); break;
    default: v = *reinterpret_cast<const int64_t*>(p); break;
  }
  if (v < 0) throw ValueError("[mnn.numpy.power] Integers to negative integer powers are not allowed.");
}
}  // namespace

Array elementwise(Op op, const Array* const* inputs, size_t n) {
  const char* fn = op_name(op);
  if (static_cast<int>(n) != prims::arity(op))
    throw TypeError(api_msg(fn, "expected " + std::to_string(prims::arity(op)) + " inputs"));
  prims::DTypeList dts;
  std::vector<NodePtr> nodes;
  nodes.reserve(n);
  Shape shape;
  for (size_t i = 0; i < n; ++i) {
    dts.push_back(inputs[i]->dtype());
    nodes.push_back(inputs[i]->node());
    if (i && nodes[i]->device != nodes[0]->device)
      throw ValueError(api_msg(fn, "arrays are on different devices"));
    if (i == 0) shape = inputs[0]->shape();
    else if (inputs[i]->shape() != shape) shape = broadcast_shapes(shape, inputs[i]->shape(), fn);
  }
  prims::ResolvedTypes rt = prims::resolve_types(op, dts);
  if (op == Op::Power && is_int(rt.compute)) check_int_exponent(*nodes[1]);
  return finish(make_node(op, rt.out, std::move(shape), std::move(nodes), {}, rt.compute), inputs, n);
}

Array elementwise(Op op, const std::vector<Array>& inputs) {
  const Array* ptrs[3];
  if (inputs.size() > 3) throw TypeError(api_msg(op_name(op), "too many inputs"));
  for (size_t i = 0; i < inputs.size(); ++i) ptrs[i] = &inputs[i];
  return elementwise(op, ptrs, inputs.size());
}

Array astype(const Array& a, DType dtype) {
  NodePtr n = make_node(Op::Cast, dtype, a.shape(), {a.node()}, {}, a.dtype());
  return finish(std::move(n), {&a});
}

Array copy(const Array& a) { return finish(make_node(Op::Copy, a.dtype(), a.shape(), {a.node()}, {}, a.dtype()), {&a}); }

void assign(Array& window, const Array& value, const char* fn) {
  if (!window.writeable()) throw ValueError(api_msg(fn, "assignment destination is read-only"));
  autograd::check_inplace_allowed(window, fn);
  autograd::check_assign_value_allowed(value, fn);
  Array v = broadcast_to(value, window.shape(), fn);
  NodePtr vn = v.node();
  if (vn->dtype != window.dtype()) vn = make_node(Op::Cast, window.dtype(), vn->shape, {vn}, {}, vn->dtype);
  window.assign(vn);
}

void inplace(Op op, Array& a, const Array& b) {
  const char* fn = op_name(op);
  if (!a.writeable()) throw ValueError(api_msg(fn, "output array is read-only"));
  autograd::check_inplace_allowed(a, fn);
  DType out = prims::resolve_types(op, {a.dtype(), b.dtype()}).out;  // the casting error comes first
  if (!can_cast(out, a.dtype(), Casting::SameKind))
    throw CastingError(api_msg(fn, std::string("Cannot cast ufunc '") + fn + "' output from dtype('" +
                                       dtype_name(out) + "') to dtype('" + dtype_name(a.dtype()) +
                                       "') with casting rule 'same_kind'"));
  Array r = elementwise(op, {a, b});
  if (r.shape() != a.shape())
    throw ValueError(api_msg(fn, "non-broadcastable output operand with shape " + shape_str(a.shape()) +
                                     " doesn't match the broadcast shape " + shape_str(r.shape())));
  assign(a, r, fn);
}

}  // namespace mnn::ops
