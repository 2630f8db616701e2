// mnn.cv.dnn's non-maximum suppression entry (kernels: backends/cpu/kernels/cv/nms.cpp). The
// arguments are read here straight from what callers pass (lists of boxes, numpy or mnn arrays of
// any numeric dtype, through the buffer protocol): for a few thousand boxes, Python-level parsing
// would cost more than the suppression itself. Messages carry no prefix: mnn/cv/_dnn.py adds the
// public name and turns TypeError / ValueError into mnn.cv.error.
#include <Python.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cpu/kernels/cv/nms.h"
#include "core/array.h"
#include "core/buffer.h"
#include "core/error.h"
#include "core/node.h"
#include "python/bindings.h"

namespace mnn::py_bind {

using namespace core;

namespace {

struct HeldView {
  Py_buffer view{};
  bool held = false;
  ~HeldView() {
    if (held) PyBuffer_Release(&view);
  }
};

float half_to_float(uint16_t h) {
  const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  float v;
  if (e == 0) v = std::ldexp(static_cast<float>(m), -24);
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = std::ldexp(static_cast<float>(m | 1024), e - 25);
  return s ? -v : v;
}

// Element k of a buffer of struct-module format `f` as double; false for a format NMS cannot
// take (bool, complex, structured) or, when `integral`, a floating one.
bool buffer_reader(const char* f, Py_ssize_t isz, bool integral, char& kind) {
  if (!f) f = "B";
  if (*f == '@' || *f == '=' || *f == '<') ++f;
  if (f[0] == 0 || f[1] != 0) return false;
  switch (f[0]) {
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n': kind = 'i'; break;
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N': kind = 'u'; break;
    case 'e': case 'f': case 'd': kind = 'f'; if (integral) return false; break;
    default: return false;
  }
  return kind != 'f' ? (isz == 1 || isz == 2 || isz == 4 || isz == 8)
                     : (isz == 2 || isz == 4 || isz == 8);
}

double read_elem(const char* p, char kind, Py_ssize_t isz) {
  switch (kind) {
    case 'i':
      if (isz == 1) return *reinterpret_cast<const int8_t*>(p);
      if (isz == 2) { int16_t v; std::memcpy(&v, p, 2); return v; }
      if (isz == 4) { int32_t v; std::memcpy(&v, p, 4); return v; }
      { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case 'u':
      if (isz == 1) return *reinterpret_cast<const uint8_t*>(p);
      if (isz == 2) { uint16_t v; std::memcpy(&v, p, 2); return v; }
      if (isz == 4) { uint32_t v; std::memcpy(&v, p, 4); return v; }
      { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    default:
      if (isz == 2) { uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
      if (isz == 4) { float v; std::memcpy(&v, p, 4); return v; }
      { double v; std::memcpy(&v, p, 8); return v; }
  }
}

// One Python number: ints and floats (and numpy / mnn scalars through __index__ / __float__);
// bool and strings are refused as cv2 refuses them; `integral` refuses floats.
bool py_number(PyObject* o, bool integral, double& v) {
  if (PyBool_Check(o)) return false;
  if (PyFloat_Check(o)) {
    if (integral) return false;
    v = PyFloat_AS_DOUBLE(o);
    return true;
  }
  if (PyLong_Check(o)) {
    v = PyLong_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    return true;
  }
  if (PyUnicode_Check(o) || PyBytes_Check(o) || !PyNumber_Check(o)) return false;
  if (integral) {
    if (!PyIndex_Check(o)) return false;
    PyObject* i = PyNumber_Index(o);
    if (!i) throw py::error_already_set();
    v = PyLong_AsDouble(i);
    Py_DECREF(i);
  } else {
    v = PyFloat_AsDouble(o);
  }
  if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
  return true;
}

[[noreturn]] void bad_arg(const char* name, const std::string& why) {
  throw TypeError(std::string("Can't parse '") + name + "': " + why);
}

// `obj` as n rows of k numbers (k == 1: a flat sequence), appended to out as doubles; None is
// empty (as in cv2). Arrays must be (n, k) (or (n,) when k == 1), lists hold rows of k numbers.
int64_t read_rows(py::handle h, int k, bool integral, const char* name, std::vector<double>& out) {
  PyObject* obj = h.ptr();
  if (obj == Py_None) return 0;
  if (!PyList_Check(obj) && !PyTuple_Check(obj) && PyObject_CheckBuffer(obj)) {
    HeldView b;
    if (PyObject_GetBuffer(obj, &b.view, PyBUF_RECORDS_RO) != 0) throw py::error_already_set();
    b.held = true;
    char kind;
    if (!buffer_reader(b.view.format, b.view.itemsize, integral, kind))
      bad_arg(name, std::string("an array of ") + (integral ? "integers" : "numbers") + " is expected, got format '" +
                        (b.view.format ? b.view.format : "B") + "'");
    const int nd = b.view.ndim;
    Py_ssize_t total = 1;
    for (int i = 0; i < nd; ++i) total *= b.view.shape[i];
    if (total == 0) return 0;
    const bool ok = k == 1 ? nd == 1 : (nd == 2 && b.view.shape[1] == k);
    if (!ok) {
      std::string shp = "(";
      for (int i = 0; i < nd; ++i) shp += (i ? ", " : "") + std::to_string(b.view.shape[i]);
      bad_arg(name, "expected an array of shape (N" + std::string(k == 1 ? ",)" : ", " + std::to_string(k) + ")") +
                        ", got " + shp + (nd == 1 ? ",)" : ")"));
    }
    const int64_t n = b.view.shape[0];
    const Py_ssize_t s0 = b.view.strides[0], s1 = nd == 2 ? b.view.strides[1] : 0;
    const char* base = static_cast<const char*>(b.view.buf);
    const size_t at = out.size();
    out.resize(at + static_cast<size_t>(n * k));
    double* dst = out.data() + at;
    for (int64_t i = 0; i < n; ++i)
      for (int j = 0; j < k; ++j) dst[i * k + j] = read_elem(base + i * s0 + j * s1, kind, b.view.itemsize);
    return n;
  }
  PyObject* seq = PySequence_Fast(obj, "");
  if (!seq) {
    PyErr_Clear();
    bad_arg(name, k == 1 ? "expected a sequence of numbers" : "expected a sequence of boxes");
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  out.reserve(out.size() + static_cast<size_t>(n * k));
  try {
    for (Py_ssize_t i = 0; i < n; ++i) {
      double v;
      if (k == 1) {
        if (!py_number(items[i], integral, v))
          bad_arg(name, "item " + std::to_string(i) + (integral ? " is not an integer" : " is not a number"));
        out.push_back(v);
        continue;
      }
      PyObject* row = PySequence_Fast(items[i], "");
      if (!row) {
        PyErr_Clear();
        bad_arg(name, "item " + std::to_string(i) + " is not a sequence of " + std::to_string(k) + " numbers");
      }
      const bool len_ok = PySequence_Fast_GET_SIZE(row) == k;
      bool ok = len_ok;
      for (int j = 0; ok && j < k; ++j) ok = py_number(PySequence_Fast_ITEMS(row)[j], integral, v), out.push_back(v);
      Py_DECREF(row);
      if (!ok)
        bad_arg(name, "item " + std::to_string(i) + " is not " + std::to_string(k) + (integral ? " integers" : " numbers") +
                          (k == 4 ? " (x, y, width, height)" : ""));
    }
  } catch (...) {
    Py_DECREF(seq);
    throw;
  }
  Py_DECREF(seq);
  return n;
}

// RotatedRects given as ((cx, cy), (w, h), angle), packed as 5 floats each.
int64_t read_rotated(py::handle h, std::vector<float>& out) {
  PyObject* obj = h.ptr();
  if (obj == Py_None) return 0;
  const char* name = "bboxes";
  const char* form = " is not ((cx, cy), (width, height), angle)";
  PyObject* seq = PySequence_Fast(obj, "");
  if (!seq) {
    PyErr_Clear();
    bad_arg(name, "expected a sequence of rotated rects ((cx, cy), (width, height), angle)");
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  out.reserve(static_cast<size_t>(n * 5));
  std::vector<double> pair;
  try {
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* r = PySequence_Fast(PySequence_Fast_ITEMS(seq)[i], "");
      if (!r) {
        PyErr_Clear();
        bad_arg(name, "item " + std::to_string(i) + form);
      }
      bool ok = PySequence_Fast_GET_SIZE(r) == 3;
      double v[5];
      try {
        for (int part = 0; ok && part < 2; ++part) {
          PyObject* p = PySequence_Fast(PySequence_Fast_ITEMS(r)[part], "");
          if (!p) {
            PyErr_Clear();
            ok = false;
            break;
          }
          ok = PySequence_Fast_GET_SIZE(p) == 2 && py_number(PySequence_Fast_ITEMS(p)[0], false, v[2 * part]) &&
               py_number(PySequence_Fast_ITEMS(p)[1], false, v[2 * part + 1]);
          Py_DECREF(p);
        }
        ok = ok && py_number(PySequence_Fast_ITEMS(r)[2], false, v[4]);
      } catch (...) {
        Py_DECREF(r);
        throw;
      }
      Py_DECREF(r);
      if (!ok) bad_arg(name, "item " + std::to_string(i) + form);
      for (double x : v) out.push_back(static_cast<float>(x));
    }
  } catch (...) {
    Py_DECREF(seq);
    throw;
  }
  Py_DECREF(seq);
  return n;
}

double arg_number(py::handle h, const char* name) {
  double v;
  if (!py_number(h.ptr(), false, v)) throw TypeError(std::string("Argument '") + name + "' can't be treated as a float");
  return v;
}

long long arg_int(py::handle h, const char* name, long long lo, long long hi) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o) || PyFloat_Check(o) || !PyIndex_Check(o))
    throw TypeError(std::string("Argument '") + name + "' is required to be an integer");
  int overflow = 0;
  PyObject* i = PyNumber_Index(o);
  if (!i) throw py::error_already_set();
  const long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (overflow || v < lo || v > hi) throw ValueError(std::string("Argument '") + name + "' is out of range");
  return v;
}

py::object int32_array(const std::vector<int>& v) {
  const int64_t n = static_cast<int64_t>(v.size());
  auto buf = Buffer::allocate(sizeof(int32_t) * v.size());
  std::memcpy(buf->data(), v.data(), sizeof(int32_t) * v.size());
  return py::cast(Array::from_node(make_leaf(buf, DType::Int32, Shape{n}, Strides{1}, 0, n)));
}

py::object float32_array(const std::vector<float>& v) {
  const int64_t n = static_cast<int64_t>(v.size());
  auto buf = Buffer::allocate(sizeof(float) * v.size());
  std::memcpy(buf->data(), v.data(), sizeof(float) * v.size());
  return py::cast(Array::from_node(make_leaf(buf, DType::Float32, Shape{n}, Strides{1}, 0, n)));
}

void check(bool ok, const char* what) {
  if (!ok) throw ValueError(std::string("Assertion failed: ") + what);
}

}  // namespace

void bind_nms(py::module_& m) {
  // cv_nms(kind, bboxes, scores, class_ids, score_threshold, nms_threshold, eta, top_k, sigma,
  // method): kind 0 NMSBoxes, 1 NMSBoxesRotated, 2 NMSBoxesBatched -> int32 indices (or () when
  // none is kept, as cv2's binding returns); kind 3 softNMSBoxes -> (updated scores, indices).
  m.def("cv_nms", [](int kind, py::handle bboxes, py::handle scores_obj, py::handle class_obj, py::handle st_obj,
                     py::handle nt_obj, py::handle eta_obj, py::handle topk_obj, py::handle sigma_obj,
                     py::handle method_obj) -> py::object {
    const float st = static_cast<float>(arg_number(st_obj, "score_threshold"));
    const float nt = static_cast<float>(arg_number(nt_obj, "nms_threshold"));
    std::vector<double> sc_d;
    const int64_t ns = read_rows(scores_obj, 1, false, "scores", sc_d);
    std::vector<float> sc(sc_d.begin(), sc_d.end());  // cv2 keeps the scores as float
    if (kind == 3) {
      const long long top_k = arg_int(topk_obj, "top_k", 0, INT64_MAX);
      const float sigma = static_cast<float>(arg_number(sigma_obj, "sigma"));
      const long long method = arg_int(method_obj, "method", INT32_MIN, INT32_MAX);
      std::vector<double> bd;
      const int64_t n = read_rows(bboxes, 4, true, "bboxes", bd);
      std::vector<int32_t> bi(bd.size());
      for (size_t i = 0; i < bd.size(); ++i) {
        if (bd[i] < INT32_MIN || bd[i] > INT32_MAX) bad_arg("bboxes", "a box field does not fit a 32-bit int");
        bi[i] = static_cast<int32_t>(bd[i]);
      }
      check(n == ns, "bboxes.size() == scores.size()");
      check(st >= 0, "score_threshold >= 0");
      check(nt >= 0, "nms_threshold >= 0");
      check(sigma >= 0, "sigma >= 0");
      std::vector<int> idx;
      std::vector<float> upd;
      try {
        cpu::nms::soft(bi.data(), sc.data(), n, st, nt, static_cast<size_t>(top_k), sigma, static_cast<int>(method), idx, upd);
      } catch (const std::invalid_argument& e) {
        throw ValueError(e.what());
      }
      if (idx.empty()) return py::make_tuple(py::tuple(), py::tuple());
      return py::make_tuple(float32_array(upd), int32_array(idx));
    }
    const float eta = static_cast<float>(arg_number(eta_obj, "eta"));
    const int top_k = static_cast<int>(arg_int(topk_obj, "top_k", INT32_MIN, INT32_MAX));
    std::vector<int> keep;
    if (kind == 1) {
      std::vector<float> r;
      const int64_t n = read_rotated(bboxes, r);
      check(n == ns, "bboxes.size() == scores.size()");
      check(st >= 0, "score_threshold >= 0");
      check(nt >= 0, "nms_threshold >= 0");
      check(eta > 0, "eta > 0");
      keep = cpu::nms::rotated(r.data(), sc.data(), n, st, nt, eta, top_k);
    } else {
      std::vector<double> bd;
      const int64_t n = read_rows(bboxes, 4, false, "bboxes", bd);
      check(n == ns, "bboxes.size() == scores.size()");
      if (kind == 2) {
        std::vector<double> cd;
        const int64_t nc = read_rows(class_obj, 1, true, "class_ids", cd);
        std::vector<int32_t> cls(cd.size());
        for (size_t i = 0; i < cd.size(); ++i) {
          if (cd[i] < INT32_MIN || cd[i] > INT32_MAX) bad_arg("class_ids", "a class id does not fit a 32-bit int");
          cls[i] = static_cast<int32_t>(cd[i]);
        }
        check(ns == nc, "scores.size() == class_ids.size()");
        check(nt >= 0, "nms_threshold >= 0");
        check(eta > 0, "eta > 0");
        keep = cpu::nms::batched(bd.data(), sc.data(), cls.data(), n, st, nt, eta, top_k);
      } else {
        check(st >= 0, "score_threshold >= 0");
        check(nt >= 0, "nms_threshold >= 0");
        check(eta > 0, "eta > 0");
        keep = cpu::nms::boxes(bd.data(), sc.data(), n, st, nt, eta, top_k);
      }
    }
    if (keep.empty()) return py::tuple();
    return int32_array(keep);
  });
  // cv2's rotated-rectangle overlap of two (cx, cy, w, h, angle) rects, for the tests.
  m.def("cv_nms_rotated_iou", [](const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != 5 || b.size() != 5) throw ValueError("two (cx, cy, w, h, angle) rects are expected");
    return cpu::nms::rotated_iou(a.data(), b.data());
  });
}

}  // namespace mnn::py_bind
