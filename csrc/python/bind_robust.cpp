// mnn.cv's robust model fits (ops/cv/robust_fit.h): findHomography and estimateAffine2D /
// estimateAffinePartial2D after Python has validated the arguments. Each returns None where the
// native port defers to the Python implementation (inputs on which that one raises or meets NaN),
// else (found, model values or None, inlier mask bytes).
#include <pybind11/stl.h>

#include "ops/cv/robust_fit.h"
#include "python/bindings.h"

namespace mnn::py_bind {

namespace {

py::object to_python(const ops::robust_fit::Fit& fit) {
  py::object model = fit.found ? py::object(py::cast(fit.model)) : py::object(py::none());
  py::bytes mask(reinterpret_cast<const char*>(fit.mask.data()), fit.mask.size());
  return py::make_tuple(fit.found, model, mask);
}

}  // namespace

void bind_robust(py::module_& m) {
  m.def("cv_find_homography", [](const std::vector<double>& src, const std::vector<double>& dst, int method,
                                 double thr, double confidence, int64_t max_iters) -> py::object {
    try {
      return to_python(ops::robust_fit::find_homography(src, dst, method, thr, confidence, max_iters));
    } catch (const ops::robust_fit::Fallback&) {
      return py::none();
    }
  });
  m.def("cv_estimate_affine", [](const std::vector<double>& src, const std::vector<double>& dst, bool partial,
                                 bool lmeds, double thr, double confidence, int64_t max_iters,
                                 bool refine) -> py::object {
    try {
      return to_python(ops::robust_fit::estimate_affine(src, dst, partial, lmeds, thr, confidence, max_iters, refine));
    } catch (const ops::robust_fit::Fallback&) {
      return py::none();
    }
  });
}

}  // namespace mnn::py_bind
