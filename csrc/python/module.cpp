#include "core/error.h"
#include "engine/eval.h"
#include "python/bindings.h"
#include "python/convert.h"

namespace mnn::py_bind {
namespace {

void release_gil_around(const std::function<void()>& fn) {
  if (!PyGILState_Check()) {
    fn();
    return;
  }
  py::gil_scoped_release release;
  fn();
}

}  // namespace
}  // namespace mnn::py_bind

PYBIND11_MODULE(_core, m) {
  using namespace mnn;
  namespace py = pybind11;
  m.doc() = "mnn engine: lazy graph, planner, plan cache, CPU kernels";

  // Engine exceptions become the Python exceptions numpy raises in the same situations.
  py::register_exception_translator([](std::exception_ptr p) { py_bind::set_python_error(p); });
  py_bind::register_exception_types(m);
  engine::set_blocking_region(&py_bind::release_gil_around);

  py_bind::register_conversions(m);
  py_bind::bind_array(m);
  py_bind::bind_ops(m);
  py_bind::bind_interop(m);
  py_bind::bind_engine(m);
  py_bind::bind_codecs(m);
  py_bind::bind_random(m);
  py_bind::bind_draw(m);
  py_bind::bind_nms(m);
  py_bind::bind_robust(m);
  py_bind::bind_robust_pnp(m);
  py_bind::install_fast_access(m);  // last: replaces some of the definitions above
  py_bind::install_fast_run(m);     // fast_run.cpp: memoised cv primitives run at once
}
