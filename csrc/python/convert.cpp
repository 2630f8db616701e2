#include "python/convert.h"

#include <climits>
#include <cstring>
#include <limits>

#include "core/error.h"

using namespace pybind11::literals;
#include "prims/elementwise.h"

namespace mnn::py_bind {

using namespace core;

namespace {

py::object g_dtype_objects[kNumDTypes];
py::object g_asarray_hook;  // mnn.numpy.asarray
py::object g_dtype_hook;    // mnn.numpy.dtype

template <class T>
void store(char* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Writes a Python int into a 0-d buffer of dtype d, raising numpy 2's OverflowError if it does not fit.
NodePtr int_scalar(PyObject* obj, DType d) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (overflow == 0 && v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (is_float(d) || is_complex(d)) {
    double f = PyLong_AsDouble(obj);
    if (f == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    return make_scalar(d, f);
  }
  unsigned long long u = 0;
  bool big_positive = overflow > 0;
  if (big_positive) {
    u = PyLong_AsUnsignedLongLong(obj);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      u = 0;
      big_positive = false;
      overflow = 2;  // beyond uint64
    }
  }
  auto fail = [&]() {
    std::string s = py::str(obj);
    throw OverflowError("Python integer " + s + " out of bounds for " + dtype_name(d));
  };
  if (overflow == 2 || overflow < 0) fail();
  if (d == DType::Bool) return make_scalar_int(d, v != 0);
  int64_t lo, hi;
  uint64_t uhi;
  switch (d) {
    case DType::Int8: lo = INT8_MIN, hi = INT8_MAX; break;
    case DType::Int16: lo = INT16_MIN, hi = INT16_MAX; break;
    case DType::Int32: lo = INT32_MIN, hi = INT32_MAX; break;
    case DType::Int64: lo = INT64_MIN, hi = INT64_MAX; break;
    case DType::UInt8: lo = 0, hi = UINT8_MAX; break;
    case DType::UInt16: lo = 0, hi = UINT16_MAX; break;
    case DType::UInt32: lo = 0, hi = UINT32_MAX; break;
    default: lo = 0, hi = INT64_MAX; break;
  }
  if (d == DType::UInt64) {
    uhi = UINT64_MAX;
    if (big_positive) return make_scalar_uint(d, u);
    if (v < 0) fail();
    (void)uhi;
    return make_scalar_uint(d, static_cast<uint64_t>(v));
  }
  if (big_positive || v < lo || v > hi) fail();
  return make_scalar_int(d, v);
}

}  // namespace

py::object dtype_object(DType d) { return g_dtype_objects[static_cast<int>(d)]; }

DType dtype_of(py::handle obj) {
  py::object dt = py::reinterpret_borrow<py::object>(obj);
  if (!py::hasattr(obj, "_code")) dt = g_dtype_hook(obj);
  return dtype_from_code(dt.attr("_code").cast<int>());
}

Array scalar_array(py::handle obj, DType d) {
  PyObject* o = obj.ptr();
  if (PyBool_Check(o)) return Array::from_node(make_scalar_int(d, o == Py_True));
  if (PyLong_Check(o)) return Array::from_node(int_scalar(o, d));
  if (PyFloat_Check(o)) {
    double v = PyFloat_AS_DOUBLE(o);
    if (!is_float(d) && !is_complex(d) && d != DType::Bool) {
      // numpy casts a float into an integer array unsafely (truncation)
      return Array::from_node(make_scalar_int(d, static_cast<int64_t>(v)));
    }
    return Array::from_node(make_scalar(d, v));
  }
  if (PyComplex_Check(o)) {
    Py_complex c = PyComplex_AsCComplex(o);
    if (is_complex(d)) return Array::from_node(make_scalar_complex(d, c.real, c.imag));
    throw TypeError(std::string(d == DType::Bool ? "bool" : is_float(d) ? "float" : "int") +
                    "() argument must be a string or a real number, not 'complex'");
  }
  throw TypeError("expected a Python scalar");
}

namespace {
// The engine array behind obj, false when obj only claims to be one (a string array).
bool cast_engine_array(py::handle obj, Array& out) {
  try {
    out = obj.cast<const Array&>();
    return true;
  } catch (const py::cast_error&) {
    return false;
  }
}
}  // namespace

bool to_operand(py::handle obj, DType other, Array& out) {
  PyObject* o = obj.ptr();
  if (PyFloat_Check(o)) {
    DType d = is_float(other) || is_complex(other) ? other : DType::Float64;
    double v = PyFloat_AS_DOUBLE(o);
    out = Array::from_node(make_scalar(d, v));
    return true;
  }
  if (PyComplex_Check(o)) {  // weak: keeps complex64, and float16/float32 go to complex64
    DType d = is_complex(other) ? other
              : (is_float(other) && itemsize(other) <= 4) ? DType::Complex64 : DType::Complex128;
    Py_complex c = PyComplex_AsCComplex(o);
    out = Array::from_node(make_scalar_complex(d, c.real, c.imag));
    return true;
  }
  if (PyBool_Check(o)) {
    out = Array::from_node(make_scalar_int(other, o == Py_True));
    return true;
  }
  if (PyLong_Check(o)) {
    DType d = other == DType::Bool ? DType::Int64 : other;
    out = Array::from_node(int_scalar(o, d));
    return true;
  }
  if (py::isinstance<Array>(obj)) {
    // isinstance also accepts mnn.numpy's string arrays (a Python class, see _strings.py): they
    // hold no engine array, so the operator returns NotImplemented and their reflected method runs
    return cast_engine_array(obj, out);
  }
  if (PyUnicode_Check(o) || o == Py_None) return false;
  try {
    out = to_array(obj);
    return true;
  } catch (py::error_already_set& e) {
    if (e.matches(PyExc_TypeError)) return false;
    throw;
  }
}

bool to_weak_operand(Op op, py::handle obj, DType strong, Array& out) {
  PyObject* o = obj.ptr();
  bool is_bool = PyBool_Check(o), is_pyfloat = PyFloat_Check(o);
  if (!(is_bool || PyLong_Check(o) || is_pyfloat) || prims::arity(op) != 2) return to_operand(obj, strong, out);
  DType d = is_pyfloat ? (is_float(strong) || is_complex(strong) ? strong : DType::Float64)
                       : (is_bool || strong != DType::Bool ? strong : DType::Int64);
  DType c;
  try {
    c = prims::resolve_types(op, {strong, d}).compute;
  } catch (TypeError&) {
    return to_operand(obj, strong, out);  // no loop: elementwise raises numpy's error
  }
  if (is_float(c) && !is_pyfloat) {  // an int for a float loop (divide, arctan2, ...): never overflows
    if (is_bool) out = Array::from_node(make_scalar(c, o == Py_True ? 1.0 : 0.0));
    else out = Array::from_node(int_scalar(o, c));
    return true;
  }
  if (!is_bool && !is_pyfloat && strong != DType::Bool && prims::dtype_rule(op) == prims::DTypeRule::Compare) {
    try {
      out = Array::from_node(int_scalar(o, d));
    } catch (OverflowError&) {
      // numpy 2 compares Python ints exactly: out of d's range, compare in a type that holds the value
      int overflow = 0;
      PyLong_AsLongLongAndOverflow(o, &overflow);
      if (overflow == 0) out = Array::from_node(int_scalar(o, DType::Int64));
      else out = Array::from_node(make_scalar(DType::Float64, PyLong_AsDouble(o)));
    }
    return true;
  }
  return to_operand(obj, strong, out);
}

Array to_array(py::handle obj) {
  Array out;
  if (py::isinstance<Array>(obj) && cast_engine_array(obj, out)) return out;
  py::object r = g_asarray_hook(obj);
  if (!cast_engine_array(r, out))
    throw TypeError("[mnn.numpy] this operation does not support arrays of dtype " +
                    py::str(r.attr("dtype")).cast<std::string>());
  return out;
}

namespace {
PyObject* g_axis_error = nullptr;
PyObject* g_ufunc_type_error = nullptr;
PyObject* g_linalg_error = nullptr;
}  // namespace

void register_exception_types(py::module_& m) {
  auto type = py::module_::import("builtins").attr("type");
  py::object axis = type("AxisError", py::make_tuple(py::handle(PyExc_ValueError), py::handle(PyExc_IndexError)),
                         py::dict("__module__"_a = "mnn.numpy"));
  py::object ufunc = type("UFuncTypeError", py::make_tuple(py::handle(PyExc_TypeError)),
                          py::dict("__module__"_a = "mnn.numpy"));
  py::object linalg = type("LinAlgError", py::make_tuple(py::handle(PyExc_ValueError)),
                           py::dict("__module__"_a = "mnn.numpy.linalg"));
  g_linalg_error = linalg.release().ptr();
  m.attr("LinAlgError") = py::handle(g_linalg_error);
  g_axis_error = axis.release().ptr();  // kept for the interpreter's lifetime
  g_ufunc_type_error = ufunc.release().ptr();
  m.attr("AxisError") = py::handle(g_axis_error);
  m.attr("UFuncTypeError") = py::handle(g_ufunc_type_error);
}

void set_python_error(std::exception_ptr p) {
  try {
    std::rethrow_exception(p);
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const AxisError& e) {
    PyErr_SetString(g_axis_error, e.what());
  } catch (const LinAlgError& e) {
    PyErr_SetString(g_linalg_error, e.what());
  } catch (const CastingError& e) {
    PyErr_SetString(g_ufunc_type_error, e.what());
  } catch (const ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const OverflowError& e) {
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const MemoryError& e) {
    PyErr_SetString(PyExc_MemoryError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "[mnn] unknown C++ exception");
  }
}

void register_conversions(py::module_& m) {
  m.def("_set_hooks", [](py::list dtypes, py::object asarray, py::object dtype_ctor) {
    for (int i = 0; i < kNumDTypes; ++i) g_dtype_objects[i] = dtypes[i];
    g_asarray_hook = asarray;
    g_dtype_hook = dtype_ctor;
  });
  // Drop the Python references before interpreter teardown.
  auto atexit = py::module_::import("atexit");
  atexit.attr("register")(py::cpp_function([]() {
    for (auto& o : g_dtype_objects) o = py::object();
    g_asarray_hook = py::object();
    g_dtype_hook = py::object();
  }));
}

}  // namespace mnn::py_bind
