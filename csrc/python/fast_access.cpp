// The per-call hot spots of small work as plain CPython functions: pybind11's generic dispatcher
// (argument casters, overload walk, type-info lookups) costs ~1 us a call, more than the engine
// work behind `.shape`, `_core.item`, or recording a memoised cv primitive. Each function here
// does what the pybind11 definition it replaces did, with the same errors.
#include <cstring>

#include "autograd/tape.h"
#include "core/error.h"
#include "engine/eval.h"
#include "ops/ops.h"
#include "prims/registry.h"
#include "python/bindings.h"
#include "python/convert.h"

namespace mnn::py_bind {

using namespace core;

namespace {

PyObject* type_error(const char* msg) {
  PyErr_SetString(PyExc_TypeError, msg);
  return nullptr;
}

// ---- ndarray attributes (installed as properties whose getter is a builtin) ----

PyObject* get_shape(PyObject*, PyObject* self) {
  const Array* a = as_array(self);
  if (!a) return type_error("[mnn.numpy.ndarray.shape] expected an mnn ndarray");
  const Shape& s = a->shape();
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(s.size()));
  if (!t) return nullptr;
  for (size_t i = 0; i < s.size(); ++i) {
    PyObject* v = PyLong_FromLongLong(s[i]);
    if (!v) {
      Py_DECREF(t);
      return nullptr;
    }
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), v);
  }
  return t;
}

PyObject* get_ndim(PyObject*, PyObject* self) {
  const Array* a = as_array(self);
  if (!a) return type_error("[mnn.numpy.ndarray.ndim] expected an mnn ndarray");
  return PyLong_FromLong(a->ndim());
}

PyObject* get_size(PyObject*, PyObject* self) {
  const Array* a = as_array(self);
  if (!a) return type_error("[mnn.numpy.ndarray.size] expected an mnn ndarray");
  return PyLong_FromLongLong(a->size());
}

PyObject* get_dtype(PyObject*, PyObject* self) {
  const Array* a = as_array(self);
  if (!a) return type_error("[mnn.numpy.ndarray.dtype] expected an mnn ndarray");
  return dtype_object(a->dtype()).release().ptr();
}

PyMethodDef g_getters[] = {
    {"shape", get_shape, METH_O, "Tuple of array dimensions."},
    {"ndim", get_ndim, METH_O, "Number of array dimensions."},
    {"size", get_size, METH_O, "Number of elements in the array."},
    {"dtype", get_dtype, METH_O, "Data-type of the array's elements."},
};

// ---- _core.item(a, flat): one element as a Python scalar (evaluates a) ----

PyObject* item(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) return type_error("[mnn.numpy.item] item() takes an array and a flat index");
  const Array* a = as_array(args[0]);
  if (!a || PyFloat_Check(args[1])) return type_error("[mnn.numpy.item] item() takes an array and a flat index");
  PyObject* index = PyNumber_Index(args[1]);  // a Python int, or anything with __index__
  if (!index) return nullptr;
  long long flat = PyLong_AsLongLong(index);
  Py_DECREF(index);
  if (flat == -1 && PyErr_Occurred()) return nullptr;
  try {
    // The window's element is read straight from its buffer family's base: evaluating the base
    // computes the same bytes without recording a View node for a window (`x[i].item()`), and
    // costs nothing when the base holds its value already. The window's strides and offset are
    // in elements of that buffer (core/array.h).
    NodePtr base = a->storage()->base;
    if (!base->realized) engine::eval({base});  // (a realised base: no root list to build)
    const Shape& shape = a->shape();
    const Strides& strides = a->strides();
    int64_t off = a->offset(), rem = flat;
    for (int d = a->ndim() - 1; d >= 0; --d) {
      off += (rem % shape[d]) * strides[d];
      rem /= shape[d];
    }
    return scalar_to_py(base->buffer->data() + off * static_cast<int64_t>(itemsize(base->dtype)), base->dtype)
        .release()
        .ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

// ---- scalar conversions as C slots: bool(a), float(a), int(a) and a.T ----
//
// The Python definitions of __bool__/__float__/__int__ (numpy/_ndarray.py) stay in the type's
// dict for explicit calls; _install_scalar_slots() points the type's slots at these, which do
// the same (same errors) without a Python frame and a method lookup per call: `if x < y:` and
// `float(total)` in a script's loop pay the slot, not the function.

PyObject* item0(const Array& a) {
  NodePtr base = a.storage()->base;
  if (!base->realized) engine::eval({base});
  const char* p = base->buffer->data() + a.offset() * static_cast<int64_t>(itemsize(base->dtype));
  return scalar_to_py(p, base->dtype).release().ptr();
}

PyTypeObject* g_ndarray = nullptr;

int nb_bool(PyObject* self) {
  const Array* a = as_array(self);
  if (!a) {
    PyErr_SetString(PyExc_TypeError, "[mnn.numpy.ndarray.__bool__] expected an mnn ndarray");
    return -1;
  }
  if (a->size() != 1) {
    PyErr_SetString(PyExc_ValueError,
                    a->size() == 0 ? "[mnn.numpy.ndarray.__bool__] The truth value of an empty array is ambiguous. "
                                     "Use `array.size > 0` to check that an array is not empty."
                                   : "[mnn.numpy.ndarray.__bool__] The truth value of an array with more than one "
                                     "element is ambiguous. Use a.any() or a.all()");
    return -1;
  }
  PyObject* v;
  try {
    v = item0(*a);
  } catch (...) {
    set_python_error(std::current_exception());
    return -1;
  }
  int r = PyObject_IsTrue(v);
  Py_DECREF(v);
  return r;
}

template <const char* Name>
PyObject* zero_d_item(PyObject* self) {
  const Array* a = as_array(self);
  if (!a || a->ndim() != 0) {
    PyErr_Format(PyExc_TypeError, "[mnn.numpy.ndarray.%s] only 0-dimensional arrays can be converted to Python scalars",
                 Name);
    return nullptr;
  }
  try {
    return item0(*a);
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

constexpr char kFloat[] = "__float__", kInt[] = "__int__";

PyObject* nb_float(PyObject* self) {
  PyObject* v = zero_d_item<kFloat>(self);
  if (!v) return nullptr;
  PyObject* r = PyNumber_Float(v);  // float(item): bool -> 1.0, complex -> TypeError, as before
  Py_DECREF(v);
  return r;
}

PyObject* nb_int(PyObject* self) {
  PyObject* v = zero_d_item<kInt>(self);
  if (!v) return nullptr;
  PyObject* r = PyNumber_Long(v);  // int(item): truncates floats, refuses NaN/inf, as before
  Py_DECREF(v);
  return r;
}

PyObject* get_T(PyObject*, PyObject* self) {
  const Array* a = as_array(self);
  if (!a) return type_error("[mnn.numpy.ndarray.T] expected an mnn ndarray");
  try {
    return wrap_array(ops::transpose(*a, {}));
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyMethodDef g_T = {"T", get_T, METH_O, "View of the array with its axes reversed."};

PyObject* install_scalar_slots(PyObject*, PyObject*) {
  g_ndarray = py::detail::get_type_info(typeid(Array))->type;
  PyObject* cls = reinterpret_cast<PyObject*>(g_ndarray);
  Py_INCREF(cls);
  try {
    py::object property = py::module_::import("builtins").attr("property");
    py::object fget = py::reinterpret_steal<py::object>(PyCFunction_New(&g_T, nullptr));
    if (!fget) throw py::error_already_set();
    py::handle(cls).attr("T") = property(fget, py::none(), py::none(), g_T.ml_doc);
  } catch (...) {
    Py_DECREF(cls);
    set_python_error(std::current_exception());
    return nullptr;
  }
  // after the attribute assignments: setting a dunder in the type's dict resets its slot
  PyNumberMethods* nb = g_ndarray->tp_as_number;
  nb->nb_bool = nb_bool;
  nb->nb_float = nb_float;
  nb->nb_int = nb_int;
  PyType_Modified(g_ndarray);
  Py_DECREF(cls);
  Py_RETURN_NONE;
}

// ---- _core.ufunc(op, x, ...) on mnn ndarrays: np.exp(z), np.where(c, a, b) in a loop ----
// The pybind11 definition (bind_ops.cpp) converts Python scalars and lists as numpy's weak
// operands; when every operand is already an ndarray there is nothing to convert, and this records
// the same node without the dispatcher and two vectors. Anything else goes to that definition.

PyObject* g_ufunc_general = nullptr;

PyObject* ufunc_fast(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs >= 2 && nargs <= 4 && PyLong_CheckExact(args[0])) {
    const long op = PyLong_AsLong(args[0]);
    const Array* ins[3] = {nullptr, nullptr, nullptr};
    bool arrays = op >= 0 && op < static_cast<long>(Op::kNumElementwise);
    for (Py_ssize_t i = 1; arrays && i < nargs; ++i) arrays = (ins[i - 1] = as_array(args[i])) != nullptr;
    if (arrays) {
      try {
        return wrap_array(ops::elementwise(static_cast<Op>(op), ins, static_cast<size_t>(nargs - 1)));
      } catch (...) {
        set_python_error(std::current_exception());
        return nullptr;
      }
    }
    if (PyErr_Occurred()) return nullptr;
  }
  return PyObject_Vectorcall(g_ufunc_general, args, static_cast<size_t>(nargs), nullptr);
}

// ---- a registered primitive with parameters fixed once (the cv wrappers' memoised calls) ----
//
// _core.prim_bind(name, ints, floats) looks the primitive up and converts the parameters once; the
// capsule it returns is then applied to inputs with _core.prim_apply(bound, x, ...), which records
// exactly what _core.prim(name, [x, ...], ints, floats) records.

constexpr const char* kBoundName = "mnn.prim_bound";

struct BoundPrim {
  const prims::Primitive* prim;
  Params params;
};

void bound_destructor(PyObject* cap) { delete static_cast<BoundPrim*>(PyCapsule_GetPointer(cap, kBoundName)); }

PyObject* prim_apply(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs < 1 || !PyCapsule_IsValid(args[0], kBoundName))
    return type_error("[mnn.engine] prim_apply() takes a prim_bind() capsule and input arrays");
  auto* b = static_cast<BoundPrim*>(PyCapsule_GetPointer(args[0], kBoundName));
  try {
    std::vector<Array> xs;
    xs.reserve(static_cast<size_t>(nargs - 1));
    for (Py_ssize_t i = 1; i < nargs; ++i) {
      const Array* a = as_array(args[i]);
      if (!a) return type_error("[mnn.engine] prim_apply() inputs must be mnn ndarrays");
      xs.push_back(*a);
    }
    return wrap_array(ops::prim(*b->prim, xs, b->params));
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

// ---- _core.image_key(src): what the cv memos key a validated image by ----
//
// (type, shape, dtype, byte strides) of an mnn ndarray or a numpy.ndarray (exact types) of a dtype
// mnn imports zero-copy, else None: the tuple src_mnn/cv/_fastpix.image_key built from four
// attribute reads (the mnn `strides` property alone costs ~1 us), at ~0.2 us.

bool numpy_ndarray(PyObject* o) { return std::strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray") == 0; }

// numpy dtype chars whose arrays from_buffer imports (src/mnn/cv/_common.py _BUFFER_CHARS). numpy's
// builtin dtypes are singletons: the ones accepted once are remembered (held) and found by address.
bool buffer_char(PyObject* dtype) {
  static PyObject* seen[32];
  static int n_seen = 0;
  for (int i = 0; i < n_seen; ++i)
    if (seen[i] == dtype) return true;
  static PyObject* name = PyUnicode_InternFromString("char");
  PyObject* ch = name ? PyObject_GetAttr(dtype, name) : nullptr;
  if (!ch) return false;
  const char* c = PyUnicode_Check(ch) ? PyUnicode_AsUTF8(ch) : nullptr;
  bool ok = c && c[0] && !c[1] && std::strchr("?bBhHiIlLqQefdFD", c[0]);
  Py_DECREF(ch);
  if (ok && n_seen < 32) {
    Py_INCREF(dtype);
    seen[n_seen++] = dtype;
  }
  return ok;
}

PyObject* image_key(PyObject*, PyObject* src) {
  PyObject* type = reinterpret_cast<PyObject*>(Py_TYPE(src));
  PyObject *shape = nullptr, *dtype = nullptr, *strides = nullptr;
  static PyTypeObject* array_type = py::detail::get_type_info(typeid(Array))->type;
  if (Py_TYPE(src) == array_type) {
    const Array* a = as_array(src);
    shape = get_shape(nullptr, src);
    if (!shape) return nullptr;
    try {
      dtype = dtype_object(a->dtype()).release().ptr();
    } catch (...) {
      Py_DECREF(shape);
      set_python_error(std::current_exception());
      return nullptr;
    }
    const Strides& st = a->strides();
    const long long isz = static_cast<long long>(itemsize(a->dtype()));
    strides = PyTuple_New(static_cast<Py_ssize_t>(st.size()));
    for (size_t i = 0; strides && i < st.size(); ++i) {
      PyObject* v = PyLong_FromLongLong(st[i] * isz);
      if (!v) Py_CLEAR(strides);
      else PyTuple_SET_ITEM(strides, static_cast<Py_ssize_t>(i), v);
    }
  } else if (numpy_ndarray(src)) {
    static PyObject* k_dtype = PyUnicode_InternFromString("dtype");
    static PyObject* k_shape = PyUnicode_InternFromString("shape");
    static PyObject* k_strides = PyUnicode_InternFromString("strides");
    if (!k_dtype || !k_shape || !k_strides) return nullptr;
    dtype = PyObject_GetAttr(src, k_dtype);
    if (!dtype) return nullptr;
    if (!buffer_char(dtype)) {
      Py_DECREF(dtype);
      if (PyErr_Occurred()) return nullptr;
      Py_RETURN_NONE;
    }
    shape = PyObject_GetAttr(src, k_shape);
    strides = shape ? PyObject_GetAttr(src, k_strides) : nullptr;
  } else {
    Py_RETURN_NONE;
  }
  if (!shape || !dtype || !strides) {
    Py_XDECREF(shape);
    Py_XDECREF(dtype);
    Py_XDECREF(strides);
    return nullptr;
  }
  Py_INCREF(type);
  PyObject* key = PyTuple_Pack(4, type, shape, dtype, strides);
  Py_DECREF(type);
  Py_DECREF(shape);
  Py_DECREF(dtype);
  Py_DECREF(strides);
  return key;
}

// ---- _core.prim_apply_image(bound, src): a memoised cv primitive on one image ----
// src an mnn ndarray, or anything from_buffer imports (a numpy image, zero-copy); None when the
// import refuses it (the caller then takes its checked path). One call instead of three.
PyObject* prim_apply_image(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2 || !PyCapsule_IsValid(args[0], kBoundName))
    return type_error("[mnn.engine] prim_apply_image() takes a prim_bind() capsule and an image");
  if (as_array(args[1])) return prim_apply(self, args, nargs);
  PyObject* img;
  try {
    img = from_buffer(args[1], -1).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
  if (img == Py_None) return img;
  PyObject* call[2] = {args[0], img};
  PyObject* r = prim_apply(self, call, 2);
  Py_DECREF(img);
  return r;
}

// ---- _core.from_buffer(obj, as_code=-1): what every numpy image entering mnn.cv goes through ----

PyObject* from_buffer_fast(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* obj = nargs > 0 ? args[0] : nullptr;
  PyObject* code = nargs > 1 ? args[1] : nullptr;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nargs > 2) return type_error("from_buffer() takes at most 2 arguments (obj, as_code=-1)");
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    const char* k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
    if (!k) return nullptr;
    PyObject*& slot = std::strcmp(k, "obj") == 0 ? obj : code;
    if ((std::strcmp(k, "obj") != 0 && std::strcmp(k, "as_code") != 0) || slot)
      return type_error("from_buffer(): unexpected or repeated keyword argument");
    slot = args[nargs + i];
  }
  if (!obj) return type_error("from_buffer() missing required argument 'obj'");
  int as_code = -1;
  if (code) {
    if (!PyLong_Check(code)) return type_error("from_buffer(): as_code must be an int");
    long c = PyLong_AsLong(code);
    if (c == -1 && PyErr_Occurred()) return nullptr;
    as_code = static_cast<int>(c);
  }
  try {
    return from_buffer(obj, as_code).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyMethodDef g_functions[] = {
    {"from_buffer", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(from_buffer_fast)),
     METH_FASTCALL | METH_KEYWORDS, "Zero-copy array over a buffer-protocol object, or None if unsupported"},
    {"item", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(item)), METH_FASTCALL,
     "item(a, flat): the element at a flat (C-order) index as a Python scalar"},
    {"prim_apply", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(prim_apply)), METH_FASTCALL,
     "prim_apply(bound, *inputs): records the primitive prim_bind() fixed, on these inputs"},
    {"prim_apply_image", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(prim_apply_image)), METH_FASTCALL,
     "prim_apply_image(bound, src): prim_apply on an mnn image or a buffer imported zero-copy, or None"},
    {"image_key", image_key, METH_O, "image_key(src): (type, shape, dtype, strides) of a memoisable image, or None"},
    {"ufunc", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(ufunc_fast)), METH_FASTCALL,
     "ufunc(op, *operands): records elementwise opcode op on the operands (numpy's promotion rules)"},
    {"_install_scalar_slots", install_scalar_slots, METH_NOARGS,
     "points ndarray's bool/float/int slots and .T at C functions (after mnn.numpy defined them in Python)"},
};

}  // namespace

PyObject* wrap_array(Array&& a) {
  // pybind11's generic cast looks the type up by typeid and searches its registry of live
  // instances for this address first; a fresh result needs neither.
  static const py::detail::type_info* ti = py::detail::get_type_info(typeid(Array));
  PyObject* self = py::detail::make_new_instance(ti->type);
  if (!self) throw py::error_already_set();
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  try {
    inst->owned = true;
    py::detail::values_and_holders(inst).begin()->value_ptr() = new Array(std::move(a));
    ti->init_instance(inst, nullptr);
  } catch (...) {
    Py_DECREF(self);
    throw;
  }
  return self;
}

void install_fast_access(py::module_& m) {
  auto cls = m.attr("ndarray");
  py::object property = py::module_::import("builtins").attr("property");
  for (auto& def : g_getters) {
    py::object fget = py::reinterpret_steal<py::object>(PyCFunction_New(&def, nullptr));
    if (!fget) throw py::error_already_set();
    cls.attr(def.ml_name) = property(fget, py::none(), py::none(), def.ml_doc);
  }
  g_ufunc_general = py::object(m.attr("ufunc")).release().ptr();  // kept for the operands ufunc_fast leaves to it
  for (auto& def : g_functions) {
    py::object f = py::reinterpret_steal<py::object>(PyCFunction_NewEx(&def, nullptr, m.attr("__name__").ptr()));
    if (!f) throw py::error_already_set();
    m.attr(def.ml_name) = f;
  }
  m.def("prim_bind", [](const std::string& name, const std::vector<int64_t>& ints, const std::vector<double>& floats) {
    const prims::Primitive* p = prims::find_primitive(name);
    if (!p) throw ValueError("[mnn.engine] unknown primitive '" + name + "'");
    auto* b = new BoundPrim{p, {}};
    b->params.ints = ints;
    b->params.floats = floats;
    PyObject* cap = PyCapsule_New(b, kBoundName, bound_destructor);
    if (!cap) {
      delete b;
      throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(cap);
  });
}

}  // namespace mnn::py_bind
