// mnn.cv.solvePnPRansac's native estimator (ops/cv/robust_pnp.h), called after Python has
// validated the arguments. Points come as the validated float32 / float64 arrays (numpy or mnn,
// any strides, read through the buffer protocol) or as flat lists of numbers. Returns None where
// the native port defers to the Python implementation (a form not read here, or an input on which
// that implementation raises), else (kind, rvec, tvec, inlier indices as int32 bytes).
#include <Python.h>
#include <pybind11/stl.h>

#include <optional>

#include "ops/cv/robust_fit.h"
#include "ops/cv/robust_pnp.h"
#include "python/bindings.h"

namespace mnn::py_bind {

namespace {

// The elements of a float32 / float64 buffer in C order, as double; nullopt for another format.
std::optional<std::vector<double>> read_float_buffer(PyObject* o) {
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
  const char kind = f[0] && !f[1] ? f[0] : 0;
  if (!((kind == 'f' && v.itemsize == 4) || (kind == 'd' && v.itemsize == 8))) return std::nullopt;
  Py_ssize_t total = 1;
  for (int i = 0; i < v.ndim; ++i) total *= v.shape[i];
  std::vector<double> out;
  out.reserve(total);
  std::vector<Py_ssize_t> idx(v.ndim, 0);
  for (Py_ssize_t k = 0; k < total; ++k) {
    const char* p = static_cast<const char*>(v.buf);
    for (int i = 0; i < v.ndim; ++i) p += idx[i] * v.strides[i];
    out.push_back(kind == 'f' ? double(*reinterpret_cast<const float*>(p)) : *reinterpret_cast<const double*>(p));
    for (int i = v.ndim - 1; i >= 0; --i) {
      if (++idx[i] < v.shape[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

std::optional<std::vector<double>> flat_values(py::handle o) {
  if (PyObject_CheckBuffer(o.ptr())) return read_float_buffer(o.ptr());
  try {
    return o.cast<std::vector<double>>();
  } catch (const py::cast_error&) {
    return std::nullopt;
  }
}

}  // namespace

void bind_robust_pnp(py::module_& m) {
  m.def("cv_solve_pnp_ransac", [](py::handle obj, py::handle img, std::vector<double> K, std::vector<double> dist,
                                  int nd, int64_t iters, double thr, double confidence, bool iterative) -> py::object {
    auto o = flat_values(obj), i = flat_values(img);
    if (!o || !i || K.size() != 9 || dist.size() != 14 || o->size() % 3 || i->size() % 2 ||
        o->size() / 3 != i->size() / 2 || o->size() / 3 < 5)
      return py::none();
    try {
      ops::robust_pnp::PnpRansac r;
      {
        py::gil_scoped_release nogil;  // plain C++ on copied points
        r = ops::robust_pnp::solve_pnp_ransac(*o, *i, K.data(), dist.data(), nd, iters, thr, confidence, iterative);
      }
      py::bytes idx(reinterpret_cast<const char*>(r.inliers.data()), r.inliers.size() * sizeof(int32_t));
      return py::make_tuple(r.kind, std::vector<double>(r.rvec, r.rvec + 3), std::vector<double>(r.tvec, r.tvec + 3),
                            idx);
    } catch (const ops::robust_fit::Fallback&) {
      return py::none();
    }
  });
}

}  // namespace mnn::py_bind
