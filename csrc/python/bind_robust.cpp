// mnn.cv's robust model fits (ops/cv/robust_fit.h): findHomography and estimateAffine2D /
// estimateAffinePartial2D after Python has validated the arguments. Points come as a float32 /
// float64 / int32 array read through the buffer protocol (numpy or mnn, any strides: no
// Python-level list of thousands of floats), or as a flat list of numbers. Each call returns
// None where the native port defers to the Python implementation (inputs it does not read here,
// or on which that implementation raises or meets NaN), else (found, model values or None,
// inlier mask bytes).
#include <Python.h>
#include <pybind11/stl.h>

#include <optional>

#include "ops/cv/robust_fit.h"
#include "python/bindings.h"

namespace mnn::py_bind {

namespace {

// The elements of a numeric buffer in C order, as double; nullopt for a format not read here.
std::optional<std::vector<double>> read_buffer(PyObject* o) {
  Py_buffer v{};
  if (PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return std::nullopt;
  }
  struct Release {
    Py_buffer* v;
    ~Release() { PyBuffer_Release(v); }
  } release{&v};
  const char* f = v.format ? v.format : "B";
  if (*f == '@' || *f == '=' || *f == '<') ++f;
  char kind = f[0] && !f[1] ? f[0] : 0;
  if (!((kind == 'f' && v.itemsize == 4) || (kind == 'd' && v.itemsize == 8) || (kind == 'i' && v.itemsize == 4)))
    return std::nullopt;
  Py_ssize_t total = 1;
  for (int i = 0; i < v.ndim; ++i) total *= v.shape[i];
  std::vector<double> out;
  out.reserve(total);
  std::vector<Py_ssize_t> idx(v.ndim, 0);
  for (Py_ssize_t k = 0; k < total; ++k) {
    const char* p = static_cast<const char*>(v.buf);
    for (int i = 0; i < v.ndim; ++i) p += idx[i] * v.strides[i];
    if (kind == 'f') out.push_back(*reinterpret_cast<const float*>(p));
    else if (kind == 'd') out.push_back(*reinterpret_cast<const double*>(p));
    else out.push_back(*reinterpret_cast<const int32_t*>(p));
    for (int i = v.ndim - 1; i >= 0; --i) {
      if (++idx[i] < v.shape[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

std::optional<std::vector<double>> flat_points(py::handle o) {
  if (PyObject_CheckBuffer(o.ptr())) return read_buffer(o.ptr());
  try {
    return o.cast<std::vector<double>>();
  } catch (const py::cast_error&) {
    return std::nullopt;
  }
}

py::object to_python(const ops::robust_fit::Fit& fit) {
  py::object model = fit.found ? py::object(py::cast(fit.model)) : py::object(py::none());
  py::bytes mask(reinterpret_cast<const char*>(fit.mask.data()), fit.mask.size());
  return py::make_tuple(fit.found, model, mask);
}

}  // namespace

void bind_robust(py::module_& m) {
  m.def("cv_find_homography", [](py::handle src, py::handle dst, int method, double thr, double confidence,
                                 int64_t max_iters) -> py::object {
    auto s = flat_points(src), d = flat_points(dst);
    if (!s || !d || s->size() != d->size()) return py::none();
    try {
      ops::robust_fit::Fit fit;
      {
        py::gil_scoped_release nogil;  // plain C++ on copied points
        fit = ops::robust_fit::find_homography(*s, *d, method, thr, confidence, max_iters);
      }
      return to_python(fit);
    } catch (const ops::robust_fit::Fallback&) {
      return py::none();
    }
  });
  m.def("cv_estimate_affine", [](py::handle src, py::handle dst, bool partial, bool lmeds, double thr,
                                 double confidence, int64_t max_iters, bool refine) -> py::object {
    auto s = flat_points(src), d = flat_points(dst);
    if (!s || !d || s->size() != d->size()) return py::none();
    try {
      ops::robust_fit::Fit fit;
      {
        py::gil_scoped_release nogil;  // plain C++ on copied points
        fit = ops::robust_fit::estimate_affine(*s, *d, partial, lmeds, thr, confidence, max_iters, refine);
      }
      return to_python(fit);
    } catch (const ops::robust_fit::Fallback&) {
      return py::none();
    }
  });
}

}  // namespace mnn::py_bind
