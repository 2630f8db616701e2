#include <pybind11/stl.h>

#include "core/error.h"
#include "ops/cv/components.h"
#include "ops/cv/contours.h"
#include "ops/ops.h"
#include "python/bindings.h"
#include "python/convert.h"

namespace mnn::py_bind {

using namespace core;

namespace {
std::optional<DType> opt_dtype(std::optional<int> code) {
  if (!code) return std::nullopt;
  return dtype_from_code(*code);
}
}  // namespace

void bind_ops(py::module_& m) {
  py::dict codes;
  for (int i = 0; i < static_cast<int>(Op::kNumElementwise); ++i) codes[op_name(static_cast<Op>(i))] = i;
  m.attr("OPCODES") = codes;

  m.def("elementwise", [](int op, const std::vector<Array>& xs) {
    if (op < 0 || op >= static_cast<int>(Op::kNumElementwise)) throw ValueError("[mnn.engine] bad opcode");
    return ops::elementwise(static_cast<Op>(op), xs);
  });
  // A ufunc call with any operands: arrays are strong, Python scalars weak (NumPy 2 / NEP 50).
  m.def("ufunc", [](int op, py::args args) {
    if (op < 0 || op >= static_cast<int>(Op::kNumElementwise)) throw ValueError("[mnn.engine] bad opcode");
    std::vector<Array> xs(args.size());
    std::vector<char> done(args.size(), 0);
    std::optional<DType> strong;
    bool any_float = false, any_int = false;
    for (size_t i = 0; i < args.size(); ++i) {
      PyObject* o = args[i].ptr();
      if (PyBool_Check(o)) continue;
      if (PyLong_Check(o)) { any_int = true; continue; }
      if (PyFloat_Check(o)) { any_float = true; continue; }
      xs[i] = to_array(args[i]);
      done[i] = 1;
      strong = strong ? promote(*strong, xs[i].dtype()) : xs[i].dtype();
    }
    DType other = strong ? *strong : (any_float ? DType::Float64 : any_int ? DType::Int64 : DType::Bool);
    for (size_t i = 0; i < args.size(); ++i) {
      if (done[i]) continue;
      if (strong && args.size() == 2) to_weak_operand(static_cast<Op>(op), args[i], other, xs[i]);
      else to_operand(args[i], other, xs[i]);
    }
    return ops::elementwise(static_cast<Op>(op), xs);
  });
  m.def("inplace", [](int op, Array& a, const Array& b) { ops::inplace(static_cast<Op>(op), a, b); });
  m.def("assign", [](Array& window, const Array& v) { ops::assign(window, v, "__setitem__"); });
  m.def("astype", [](const Array& a, int code) { return ops::astype(a, dtype_from_code(code)); });
  m.def("copy", &ops::copy);
  m.def("scalar", [](py::handle v, int code) { return scalar_array(v, dtype_from_code(code)); });

  m.def("reshape", [](const Array& a, const Shape& s) { return ops::reshape(a, s); });
  m.def("transpose", &ops::transpose);
  m.def("broadcast_to", [](const Array& a, const Shape& s) { return ops::broadcast_to(a, s); });
  m.def("expand_dims", &ops::expand_dims);
  m.def("squeeze", &ops::squeeze);
  m.def("flip", &ops::flip);
  m.def("diagonal", &ops::diagonal);
  m.def("as_contiguous", &ops::as_contiguous);
  m.def("concatenate", [](const std::vector<Array>& xs, int64_t axis, std::optional<int> dt) {
    return ops::concatenate(xs, axis, opt_dtype(dt));
  });

  m.def("reduce", [](int kind, const Array& a, std::optional<std::vector<int64_t>> axes, bool keepdims,
                     std::optional<int> dt, const std::string& fn) {
    static thread_local std::string name;
    name = fn;
    return ops::reduce(static_cast<ops::ReduceKind>(kind), a, axes ? *axes : std::vector<int64_t>{}, !axes,
                       keepdims, opt_dtype(dt), name.c_str());
  });
  m.def("argreduce", [](int kind, const Array& a, std::optional<int64_t> axis, bool keepdims, const std::string& fn) {
    static thread_local std::string name;
    name = fn;
    return ops::argreduce(static_cast<ops::ArgKind>(kind), a, axis, keepdims, name.c_str());
  });
  m.def("scan", [](int kind, const Array& a, std::optional<int64_t> axis, std::optional<int> dt, const std::string& fn) {
    static thread_local std::string name;
    name = fn;
    return ops::scan(static_cast<ops::ScanKind>(kind), a, axis, opt_dtype(dt), name.c_str());
  });
  m.def("accumulation_dtype", [](int code) { return static_cast<int>(ops::accumulation_dtype(dtype_from_code(code))); });
  m.def("matmul", [](const Array& a, const Array& b) { return ops::matmul(a, b); });

  // A registered primitive by name (prims/registry.h): the entry point of every op family that
  // is not built into the planner (indexing, sorting, image ops, ...).
  m.def("prim", [](const std::string& name, const std::vector<Array>& xs, const std::vector<int64_t>& ints,
                   const std::vector<double>& floats) {
    Params p;
    p.ints = ints;
    p.floats = floats;
    return ops::prim(name, xs, p);
  }, py::arg("name"), py::arg("inputs"), py::arg("ints") = std::vector<int64_t>{},
     py::arg("floats") = std::vector<double>{});
  // findContours' (contours, hierarchy) from its packed primitive result, in one call.
  m.def("cv_unpack_contours", [](const Array& packed) -> py::tuple {
    std::vector<Array> parts = ops::contours::unpack_contours(packed);
    if (parts.empty()) return py::make_tuple(py::tuple(), py::none());
    py::tuple cs(parts.size() - 1);
    for (size_t i = 1; i < parts.size(); ++i) cs[i - 1] = py::cast(std::move(parts[i]));
    return py::make_tuple(std::move(cs), py::cast(std::move(parts[0])));  // (contours, hierarchy)
  });
  // findContours' (contours, hierarchy) straight from the image: trace and split in one call.
  m.def("cv_find_contours", [](const Array& img, int mode, int method, int ox, int oy) -> py::tuple {
    std::vector<Array> parts = ops::contours::find_contours_arrays(img, mode, method, ox, oy);
    if (parts.empty()) return py::make_tuple(py::tuple(), py::none());
    // wrap_array skips py::cast's registry search: a noise image has ~20k contours.
    py::tuple cs(parts.size() - 1);
    for (size_t i = 1; i < parts.size(); ++i) PyTuple_SET_ITEM(cs.ptr(), i - 1, wrap_array(std::move(parts[i])));
    return py::make_tuple(std::move(cs), py::reinterpret_steal<py::object>(wrap_array(std::move(parts[0]))));
  });
  // connectedComponents[WithStats]' (n, labels[, stats, centroids]) straight from the image.
  m.def("cv_connected_components", [](const Array& img, int connectivity, int ltype, bool stats) -> py::tuple {
    int64_t n = 0;
    std::vector<Array> parts = ops::components::connected_components(img, connectivity, ltype, stats, &n);
    py::tuple r(parts.size() + 1);
    PyTuple_SET_ITEM(r.ptr(), 0, PyLong_FromLongLong(n));
    for (size_t i = 0; i < parts.size(); ++i) PyTuple_SET_ITEM(r.ptr(), i + 1, wrap_array(std::move(parts[i])));
    return r;
  });
  m.def("empty", [](const Shape& s, int code) { return ops::empty(s, dtype_from_code(code)); });
  m.def("full", [](const Shape& s, const Array& fill, int code) { return ops::full(s, fill, dtype_from_code(code)); });
  m.def("arange", [](double start, double stop, double step, int code) {
    return ops::arange(start, stop, step, dtype_from_code(code));
  });
  m.def("arange_int", [](int64_t start, int64_t stop, int64_t step, int code) {
    return ops::arange_int(start, stop, step, dtype_from_code(code));
  });
}

}  // namespace mnn::py_bind
