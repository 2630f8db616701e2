// pybind11 bindings only: each file binds one area; no engine logic lives here.
#pragma once
#include <pybind11/pybind11.h>

namespace mnn::py_bind {

namespace py = pybind11;

void bind_array(py::module_& m);   // bind_array.cpp: ndarray type, operators, indexing, buffer protocol
void bind_ops(py::module_& m);     // bind_ops.cpp: op functions for mnn.numpy
void bind_interop(py::module_& m); // bind_interop.cpp: buffers in, tolist/item out, DLPack
void bind_engine(py::module_& m);  // bind_engine.cpp: eval, stats, threads, autograd tape
void bind_codecs(py::module_& m);  // bind_codecs.cpp: image codecs for mnn.cv
void bind_random(py::module_& m);  // bind_random.cpp: numpy-exact bit generators and fills
void bind_draw(py::module_& m);    // bind_draw.cpp: mnn.cv drawing in place (mnn arrays, numpy buffers)
void bind_nms(py::module_& m);     // bind_nms.cpp: mnn.cv.dnn non-maximum suppression
void bind_robust(py::module_& m);  // bind_robust.cpp: mnn.cv findHomography / estimateAffine* fits
void bind_robust_pnp(py::module_& m);  // bind_robust_pnp.cpp: mnn.cv solvePnPRansac
void install_fast_slots(py::handle ndarray_type);
}  // namespace mnn::py_bind

namespace mnn::core { class Array; }

namespace mnn::core { enum class DType : uint8_t; }

namespace mnn::py_bind {
py::object getitem(const core::Array& a, py::handle key);  // bind_array.cpp: a[key]  // fast_ops.cpp: operators as CPython slots
// fast_ops.cpp: the Array inside an mnn ndarray object, or nullptr when `o` is not one
core::Array* as_array(PyObject* o);
// fast_access.cpp: a new ndarray object owning `a` (a new reference; throws with a Python error set)
PyObject* wrap_array(core::Array&& a);
// fast_access.cpp: ndarray properties and the engine calls that skip pybind11's dispatcher
void install_fast_access(py::module_& m);
// fast_run.cpp: prim_now_bind / prim_run / prim_values (a primitive's CPU kernel run at once)
void install_fast_run(py::module_& m);
// bind_interop.cpp: a zero-copy array over a buffer-protocol object, or None if unsupported;
// as_code >= 0 reads a 1-d byte buffer as that dtype
py::object from_buffer(py::handle obj, int as_code);
// bind_interop.cpp: the element at p as a Python scalar
py::object scalar_to_py(const char* p, core::DType d);

}  // namespace mnn::py_bind
