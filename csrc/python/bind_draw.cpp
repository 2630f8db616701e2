// mnn.cv's in-place drawing entry: the image is an mnn array (ops/cv/drawing.h decides whether its
// buffer may be written) or any buffer-protocol exporter such as a numpy array, written through
// its pointer as cv2 does.
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
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

// Draws a command stream on img in place: 1 drawn, 0 not possible here (the caller draws through
// the graph or reports what is wrong with the image), -1 the image is read-only.
int draw_on(py::handle img, const int64_t* cmd, size_t n, const double* color) {
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
}

// The arguments of the usual drawing calls, read without Python-level checks: exact ints (never
// bool) in a C int, 2-tuples of them, and colours that are tuples or lists of 1 to 4 exact ints or
// floats (or one number). Anything else answers false, and mnn/cv/_drawing.py takes its full path,
// which checks and reports the argument as cv2 does.
bool c_int(PyObject* o, int64_t& v) {
  if (!PyLong_CheckExact(o)) return false;
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || (x == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  if (x < INT32_MIN || x > INT32_MAX) return false;
  v = x;
  return true;
}

bool c_point(PyObject* o, int64_t& x, int64_t& y) {
  return PyTuple_CheckExact(o) && PyTuple_GET_SIZE(o) == 2 && c_int(PyTuple_GET_ITEM(o, 0), x) &&
         c_int(PyTuple_GET_ITEM(o, 1), y);
}

bool c_number(PyObject* o, double& v) {
  if (PyFloat_CheckExact(o)) {
    v = PyFloat_AS_DOUBLE(o);
    return true;
  }
  int64_t i;
  if (!c_int(o, i)) return false;
  v = static_cast<double>(i);
  return true;
}

bool c_color(PyObject* o, double (&c)[4]) {
  c[0] = c[1] = c[2] = c[3] = 0.0;
  if (PyTuple_CheckExact(o) || PyList_CheckExact(o)) {
    const bool tup = PyTuple_CheckExact(o);
    const Py_ssize_t k = tup ? PyTuple_GET_SIZE(o) : PyList_GET_SIZE(o);
    if (k < 1 || k > 4) return false;
    for (Py_ssize_t i = 0; i < k; ++i)
      if (!c_number(tup ? PyTuple_GET_ITEM(o, i) : PyList_GET_ITEM(o, i), c[i])) return false;
    return true;
  }
  return c_number(o, c[0]);
}

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
    return draw_on(img, cmd, n, color);
  }, py::arg("img"), py::arg("ints"), py::arg("color"));

  // cv_draw_quick(kind, img, args) -> bool: line (kind 0: pt1, pt2, color, thickness, lineType,
  // shift), rectangle (kind 1: pt1, pt2, color, thickness, lineType, shift) or circle (kind 4:
  // center, radius, color, thickness, lineType, shift) drawn in place when every argument is of the
  // usual kind and valid (the same command stream mnn/cv/_drawing.py builds); false when anything
  // is unusual or the image cannot be drawn on in place, and nothing was drawn: _drawing.py then
  // takes its full path. A drawing call is a few microseconds of Python checks otherwise, more
  // than many of the shapes cost to draw.
  m.def("cv_draw_quick", [](int kind, py::handle img, py::handle args) -> bool {
    PyObject* a = args.ptr();
    if (!PyTuple_CheckExact(a) || PyTuple_GET_SIZE(a) != 6) return false;
    int64_t x0, y0, x1 = 0, y1 = 0, r = 0, t, lt, sh;
    double color[4];
    if (!c_point(PyTuple_GET_ITEM(a, 0), x0, y0)) return false;
    if (kind == 4 ? !c_int(PyTuple_GET_ITEM(a, 1), r) || r < 0 : !c_point(PyTuple_GET_ITEM(a, 1), x1, y1)) return false;
    if (!c_color(PyTuple_GET_ITEM(a, 2), color) || !c_int(PyTuple_GET_ITEM(a, 3), t) ||
        !c_int(PyTuple_GET_ITEM(a, 4), lt) || !c_int(PyTuple_GET_ITEM(a, 5), sh))
      return false;
    if (t > 32767 || (kind == 0 && t <= 0)) return false;  // cv2's MAX_THICKNESS; lines are never filled
    if (!(lt == 8 || lt == 16 || lt == 4 || lt == 0 || lt == 1) || sh < 0 || sh > 16) return false;
    int64_t cmd[16];
    size_t n;
    if (kind == 0) {
      const int64_t c[] = {0, x0, y0, x1, y1, t, lt, sh};
      n = 8, std::copy(c, c + n, cmd);
    } else if (kind == 1) {
      // the closed outline of the box, or the box filled (thickness < 0)
      const int64_t outline[] = {1, 1, t, lt, sh, 4, x0, y0, x1, y0, x1, y1, x0, y1};
      const int64_t filled[] = {2, lt, sh, 4, x0, y0, x1, y0, x1, y1, x0, y1};
      if (t >= 0) n = 14, std::copy(outline, outline + n, cmd);
      else n = 12, std::copy(filled, filled + n, cmd);
    } else if (kind == 4) {
      const int64_t c[] = {4, x0, y0, r, t, lt, sh};
      n = 7, std::copy(c, c + n, cmd);
    } else {
      return false;
    }
    return draw_on(img, cmd, n, color) == 1;
  }, py::arg("kind"), py::arg("img"), py::arg("args"));
}

}  // namespace mnn::py_bind
