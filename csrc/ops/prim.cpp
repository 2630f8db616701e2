// Recording a registered primitive (prims/registry.h): validate devices, make inputs dense when
// the primitive asks for it, evaluate them first when its shape depends on their values, infer,
// record, and hand autograd the primitive's own name so its vjp is found by that name.
#include "engine/eval.h"
#include "ops/common.h"
#include "ops/ops.h"
#include "prims/registry.h"

namespace mnn::ops {

using namespace core;

Array prim(const std::string& name, const std::vector<Array>& xs, const Params& params) {
  const prims::Primitive* p = prims::find_primitive(name);
  if (!p) throw ValueError("[mnn.engine] unknown primitive '" + name + "'");
  return prim(*p, xs, params);
}

Array prim(const prims::Primitive& prim_ref, const std::vector<Array>& xs, const Params& params) {
  const prims::Primitive* p = &prim_ref;
  const std::string& name = p->name;
  std::vector<Array> args;
  args.reserve(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i && xs[i].device() != xs[0].device())
      throw ValueError("[mnn.engine] " + name + ": arrays are on different devices");
    args.push_back(p->contiguous_inputs ? as_contiguous(xs[i]) : xs[i]);
  }
  std::vector<NodePtr> in;
  in.reserve(args.size());
  for (auto& a : args) in.push_back(a.node());
  if (p->data_dependent && !in.empty()) engine::eval(in);
  prims::PrimMeta meta = p->infer(in, params);
  check_ndim(meta.shape.size(), name.c_str());
  Params np;
  np.ints.reserve(params.ints.size() + 1);
  np.ints.push_back(p->id);
  np.ints.insert(np.ints.end(), params.ints.begin(), params.ints.end());
  np.floats = params.floats;
  Array out = Array::from_node(bound_depth(make_node(Op::Prim, meta.dtype, meta.shape, std::move(in), std::move(np))));
  if (autograd::grad_enabled()) {
    std::vector<const Array*> ptrs;
    for (auto& a : xs) ptrs.push_back(&a);
    autograd::record(out, ptrs, p->name, params);
  }
  return out;
}

}  // namespace mnn::ops
