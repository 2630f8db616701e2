// mnn.cv's in-place drawing entry: the image is an mnn array (ops/cv/drawing.h decides whether its
// buffer may be written) or any buffer-protocol exporter such as a numpy array, written through
// its pointer as cv2 does.
#include <pybind11/stl.h>

#include <vector>

#include "core/error.h"
#include "ops/cv/drawing.h"
#include "python/bindings.h"

namespace mnn::py_bind {

using namespace core;

namespace {

// struct-module format of a buffer -> the dtype cv2 draws on, or Bool (not drawable).
DType format_dtype(const char* f, Py_ssize_t isz) {
  if (!f) return isz == 1 ? DType::UInt8 : DType::Bool;
  if (*f == '@' || *f == '=' || *f == '<') ++f;  // native order (mnn runs little-endian only)
  if (f[0] == 0 || f[1] != 0) return DType::Bool;
  switch (f[0]) {
    case 'B': return DType::UInt8;
    case 'b': return DType::Int8;
    case 'H': return DType::UInt16;
    case 'h': return DType::Int16;
    case 'i': case 'l': return isz == 4 ? DType::Int32 : DType::Bool;
    case 'f': return DType::Float32;
    case 'd': return DType::Float64;
    default: return DType::Bool;
  }
}

struct HeldBuffer {
  Py_buffer view{};
  bool held = false;
  ~HeldBuffer() {
    if (held) PyBuffer_Release(&view);
  }
};

}  // namespace

void bind_draw(py::module_& m) {
  // cv_draw_inplace(img, ints, color) -> 1 drawn in place, 0 not possible (mnn.cv then draws
  // through the graph, or reports what is wrong with the image), -1 the image is read-only.
  // `ints` is the command stream as a list or as packed native int64 bytes (putText's glyphs).
  m.def("cv_draw_inplace", [](py::handle img, py::handle ints, py::handle color_obj) -> int {
    // every argument read directly (pybind11's generic casters cost more than many of the drawings
    // they carry): the colour is the list of 4 floats mnn/cv/_drawing.py builds
    double color[4];
    PyObject* co = color_obj.ptr();
    if (!PyList_CheckExact(co) || PyList_GET_SIZE(co) != 4) throw ValueError("[mnn.cv.draw] bad colour");
    for (int k = 0; k < 4; ++k) {
      color[k] = PyFloat_AsDouble(PyList_GET_ITEM(co, k));
      if (color[k] == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    }
    int64_t small[64];  // the usual stream (a line, a box, a circle) needs no heap
    std::vector<int64_t> owned;
    const int64_t* cmd;
    size_t n;
    if (PyBytes_Check(ints.ptr())) {
      n = static_cast<size_t>(PyBytes_GET_SIZE(ints.ptr())) / sizeof(int64_t);
      cmd = reinterpret_cast<const int64_t*>(PyBytes_AS_STRING(ints.ptr()));
    } else if (PyList_CheckExact(ints.ptr())) {
      const Py_ssize_t len = PyList_GET_SIZE(ints.ptr());
      int64_t* dst = small;
      if (len > 64) owned.resize(static_cast<size_t>(len)), dst = owned.data();
      for (Py_ssize_t i = 0; i < len; ++i) {
        const long long v = PyLong_AsLongLong(PyList_GET_ITEM(ints.ptr(), i));
        if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
        dst[i] = v;
      }
      cmd = dst, n = static_cast<size_t>(len);
    } else {
      owned = ints.cast<std::vector<int64_t>>();
      cmd = owned.data(), n = owned.size();
    }
    // a type check that skips the metaclass's Python __instancecheck__ (numpy/_strings.py)
    static PyTypeObject* array_type = reinterpret_cast<PyTypeObject*>(py::type::of<Array>().ptr());
    if (Py_TYPE(img.ptr()) == array_type || PyType_IsSubtype(Py_TYPE(img.ptr()), array_type))
      return ops::draw::draw_inplace(img.cast<Array&>(), cmd, n, color) ? 1 : 0;
    if (!PyObject_CheckBuffer(img.ptr())) return 0;
    HeldBuffer b;
    if (PyObject_GetBuffer(img.ptr(), &b.view, PyBUF_RECORDS_RO) != 0) {
      PyErr_Clear();
      return 0;
    }
    b.held = true;
    if (b.view.readonly) return -1;
    const DType dt = format_dtype(b.view.format, b.view.itemsize);
    if (dt == DType::Bool || b.view.itemsize != static_cast<Py_ssize_t>(itemsize(dt))) return 0;
    const int nd = b.view.ndim;
    if (nd != 2 && nd != 3) return 0;
    int64_t shape[3], st[3];
    for (int i = 0; i < nd; ++i) {
      shape[i] = b.view.shape[i];
      if (b.view.strides[i] % b.view.itemsize) return 0;
      st[i] = b.view.strides[i] / b.view.itemsize;
    }
    if (!ops::draw::drawable(dt, nd, shape, st)) return 0;
    ops::draw::draw_memory(static_cast<char*>(b.view.buf), dt, shape[0], shape[1], nd == 3 ? static_cast<int>(shape[2]) : 1,
                           static_cast<int64_t>(b.view.strides[0]), cmd, n, color);
    return 1;
  }, py::arg("img"), py::arg("ints"), py::arg("color"));
}

}  // namespace mnn::py_bind
