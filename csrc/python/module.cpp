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
  static py::object axis_error = py::module_::import("builtins").attr("type")(
      "AxisError", py::make_tuple(py::handle(PyExc_ValueError), py::handle(PyExc_IndexError)), py::dict());
  m.attr("AxisError") = axis_error;
  static py::object ufunc_type_error =
      py::module_::import("builtins").attr("type")("UFuncTypeError", py::make_tuple(py::handle(PyExc_TypeError)), py::dict());
  m.attr("UFuncTypeError") = ufunc_type_error;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const core::AxisError& e) {
      PyErr_SetString(axis_error.ptr(), e.what());
    } catch (const core::CastingError& e) {
      PyErr_SetString(ufunc_type_error.ptr(), e.what());
    } catch (const core::ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const core::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const core::IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const core::OverflowError& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const core::NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    }
  });
  engine::set_blocking_region(&py_bind::release_gil_around);

  py_bind::register_conversions(m);
  py_bind::bind_array(m);
  py_bind::bind_ops(m);
  py_bind::bind_interop(m);
  py_bind::bind_engine(m);
}
