#include <pybind11/stl.h>

#include "autograd/tape.h"
#include "backends/cpu/simd/kernel_table.h"
#include "core/error.h"
#include "core/threadpool.h"
#include "engine/eval.h"
#include "python/bindings.h"
#include "python/convert.h"

namespace mnn::py_bind {

using namespace core;

namespace {
py::object* g_fp_callback = nullptr;  // leaked: must outlive interpreter teardown ordering

void fp_error_hook(const std::vector<engine::FpError>& errors) {
  py::gil_scoped_acquire gil;
  if (!g_fp_callback || g_fp_callback->is_none()) return;
  py::list l;
  for (const auto& e : errors) {
    const char* kind = e.kind == engine::kFpDivide ? "divide" : e.kind == engine::kFpOverflow ? "over" : "invalid";
    l.append(py::make_tuple(kind, e.op));
  }
  (*g_fp_callback)(l);  // may raise FloatingPointError: propagates out of eval()
}
}  // namespace

void bind_engine(py::module_& m) {
  // errstate: the Python layer decides what each floating-point condition does (warn, raise, ...).
  m.def("_set_fp_error_callback", [](py::object fn) {
    if (!g_fp_callback) g_fp_callback = new py::object();
    *g_fp_callback = std::move(fn);
    engine::set_fp_error_hook(g_fp_callback->is_none() ? nullptr : &fp_error_hook);
  });
  m.def("eval", [](py::args arrays) {
    std::vector<NodePtr> roots;
    for (auto a : arrays) {
      const Array& arr = a.cast<const Array&>();
      // A realised base holds every window's value: no node to make (findContours hands back
      // hundreds of realised arrays, and eval(*contours) should cost next to nothing).
      if (!arr.storage()->base->realized) roots.push_back(arr.node());
    }
    if (!roots.empty()) engine::eval(roots);
  });
  m.def("stats", []() {
    const engine::Stats& s = engine::stats();
    py::dict d;
    d["evals"] = s.evals;
    d["plan_hits"] = s.plan_hits;
    d["plan_misses"] = s.plan_misses;
    d["fused_groups"] = s.fused_groups;
    d["kernels_run"] = s.kernels_run;
    d["nodes_evaluated"] = s.nodes_evaluated;
    d["arena_bytes"] = s.arena_bytes;
    d["output_bytes"] = s.output_bytes;
    d["peak_bytes"] = s.peak_bytes;
    d["inplace_steps"] = s.inplace_steps;
    d["last_fused_groups"] = s.last_fused_groups;
    d["last_steps"] = s.last_steps;
    d["cached_plans"] = s.cached_plans;
    return d;
  });
  m.def("reset_stats", &engine::reset_stats);
  m.def("release_cached_memory", &core::release_cached_memory);
  m.def("clear_plan_cache", &engine::clear_plan_cache);
  m.def("set_plan_cache_capacity", &engine::set_plan_cache_capacity);
  m.def("isa", []() { return cpu::isa_name(cpu::active_isa()); });
  m.def("available_isas", []() {
    py::list out;
    for (auto isa : {cpu::Isa::Scalar, cpu::Isa::AVX2, cpu::Isa::AVX512, cpu::Isa::Neon})
      if (cpu::kernels_for(isa)) out.append(cpu::isa_name(isa));
    return out;
  });
  m.def("set_num_threads", &set_num_threads);
  m.def("get_num_threads", &get_num_threads);
  m.def("pending_depth", [](const Array& a) { return a.node()->depth; });
  m.attr("MAX_PENDING_DEPTH") = kMaxPendingDepth;

  // ---- autograd tape ----
  m.def("grad_enabled", &autograd::grad_enabled);
  m.def("set_grad_enabled", &autograd::set_grad_enabled);
  py::class_<AutogradMeta, std::shared_ptr<AutogradMeta>>(m, "AutogradMeta")
      .def_readonly("requires_grad", &AutogradMeta::requires_grad)
      .def_property_readonly("_id", [](const AutogradMeta& g) { return reinterpret_cast<uintptr_t>(&g); })
      .def_readonly("grad_fn", &AutogradMeta::grad_fn)
      .def_property(
          "grad", [](const AutogradMeta& g) -> py::object { return g.grad ? py::cast(*g.grad) : py::none(); },
          [](AutogradMeta& g, py::object v) {
            if (v.is_none()) g.grad.reset();
            else g.grad = std::make_shared<Array>(v.cast<const Array&>());
          });
  py::class_<autograd::GradNode, std::shared_ptr<autograd::GradNode>>(m, "GradNode")
      .def_readonly("kind", &autograd::GradNode::kind)
      .def_property_readonly("_id", [](const autograd::GradNode& g) { return reinterpret_cast<uintptr_t>(&g); })
      .def_property_readonly("ints", [](const autograd::GradNode& g) { return g.params.ints; })
      .def_property_readonly("floats", [](const autograd::GradNode& g) { return g.params.floats; })
      .def_property_readonly("inputs", [](const autograd::GradNode& g) {
        py::list out;
        for (auto& n : g.inputs) out.append(Array::from_node(n));
        return out;
      })
      .def_property_readonly("output", [](const autograd::GradNode& g) { return Array::from_node(g.output); })
      .def_readonly("input_meta", &autograd::GradNode::input_meta);

  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  cls.def_property(
         "requires_grad", [](const Array& a) { return a.autograd && (a.autograd->requires_grad || a.autograd->grad_fn); },
         [](Array& a, bool on) {
           if (on && !is_float(a.dtype()))
             throw TypeError("[mnn.numpy.ndarray.requires_grad] only floating point arrays can require gradients");
           if (a.autograd && a.autograd->grad_fn && !on)
             throw ValueError("[mnn.numpy.ndarray.requires_grad] cannot turn off requires_grad of a computed "
                              "array; use detach()");
           if (on) {
             if (!a.autograd) a.autograd = std::make_shared<AutogradMeta>();
             if (!a.autograd->grad_fn) a.autograd->requires_grad = true;
           } else if (a.autograd) {
             a.autograd->requires_grad = false;
           }
         })
      .def_property_readonly("_autograd", [](const Array& a) { return a.autograd; })
      .def_property(
          "grad",
          [](const Array& a) -> py::object {
            return (a.autograd && a.autograd->grad) ? py::cast(*a.autograd->grad) : py::none();
          },
          [](Array& a, py::object v) {
            if (!a.autograd) a.autograd = std::make_shared<AutogradMeta>();
            if (v.is_none()) a.autograd->grad.reset();
            else a.autograd->grad = std::make_shared<Array>(v.cast<const Array&>());
          })
      .def("detach", [](const Array& a) {
        Array d = a;
        d.autograd.reset();
        return d;
      });
}

}  // namespace mnn::py_bind
