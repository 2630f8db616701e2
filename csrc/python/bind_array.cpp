// The ndarray type: attributes, Python operators (the hot path: one C++ call per operator),
// basic indexing, and the buffer protocol (zero-copy export that pins the buffer).
#include <pybind11/stl.h>

#include "autograd/tape.h"
#include "core/error.h"
#include "engine/eval.h"
#include "ops/ops.h"
#include "python/bindings.h"
#include "python/convert.h"

namespace mnn::py_bind {

using namespace core;

namespace {

// operator.index(o) as int64 (Python ints take the direct path; numpy ints, mnn 0-d ints via __index__).
int64_t index_of(PyObject* o) {
  PyObject* i = PyLong_Check(o) ? (Py_INCREF(o), o) : PyNumber_Index(o);
  if (!i) throw py::error_already_set();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow) throw IndexError("[mnn.numpy.__getitem__] cannot fit 'int' into an index-sized integer");
  return v;
}

py::object binary(Op op, const Array& a, py::handle b, bool reflected) {
  Array other;
  if (!to_weak_operand(op, b, a.dtype(), other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  return py::cast(reflected ? ops::elementwise(op, {other, a}) : ops::elementwise(op, {a, other}));
}

py::object inplace(Op op, py::object self, py::handle b) {
  Array& a = self.cast<Array&>();
  // mnn's scalars are 0-d arrays, and numpy's scalars are immutable: `s = a[0]; s += 5` or
  // `dw = np.mod(dw, 32); dw /= 2` rebind s / dw to a new value (with the ordinary promotion,
  // int -> float for /=) and leave `a` and every other alias alone. So in-place operators on a
  // 0-d array behave as on a numpy scalar; writing into one goes through `x[...] = v` or out=.
  // A 0-d array that tracks gradients is a tensor (a bias parameter: `b -= lr * b.grad` under
  // no_grad), updated in place as torch does.
  // (The CPython slots in fast_ops.cpp apply the same rule; this is the explicit x.__iadd__(v).)
  if (a.ndim() == 0 && !a.autograd) return binary(op, a, b, false);
  Array other;
  if (!to_weak_operand(op, b, a.dtype(), other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  ops::inplace(op, a, other);
  return self;
}

// Parses a Python index into basic-indexing components; returns false for advanced indexing.
bool parse_index(py::handle key, std::vector<ops::Index>& out) {
  auto one = [&](py::handle k) -> bool {
    ops::Index ix;
    PyObject* o = k.ptr();
    if (o == Py_None) {
      ix.kind = ops::Index::NewAxis;
    } else if (o == Py_Ellipsis) {
      ix.kind = ops::Index::Ellipsis;
    } else if (PySlice_Check(o)) {
      ix.kind = ops::Index::Slice;
      auto* s = reinterpret_cast<PySliceObject*>(o);
      auto get = [](PyObject* v, int64_t& dst, bool& has) {
        if (v == Py_None) return;
        dst = index_of(v);
        has = true;
      };
      bool has_step = false;
      ix.step = 1;
      get(s->start, ix.start, ix.has_start);
      get(s->stop, ix.stop, ix.has_stop);
      get(s->step, ix.step, has_step);
    } else if (PyBool_Check(o)) {
      return false;
    } else if (PyLong_Check(o)) {
      ix.kind = ops::Index::Int;
      ix.start = index_of(o);
    } else if (!py::isinstance<Array>(k) && PyIndex_Check(o)) {
      // numpy arrays define __index__ but only integer scalars convert: anything else (an index
      // array, a mask) is an advanced index for the hook.
      PyObject* i = PyNumber_Index(o);
      if (!i) {
        PyErr_Clear();
        return false;
      }
      py::object owned = py::reinterpret_steal<py::object>(i);
      ix.kind = ops::Index::Int;
      ix.start = index_of(i);
    } else if (py::isinstance<Array>(k)) {
      const Array& a = k.cast<const Array&>();
      if (a.ndim() != 0 || !is_int(a.dtype())) return false;
      ix.kind = ops::Index::Int;
      ix.start = index_of(k.ptr());
    } else {
      return false;
    }
    out.push_back(ix);
    return true;
  };
  if (PyTuple_Check(key.ptr())) {
    for (auto k : py::reinterpret_borrow<py::tuple>(key))
      if (!one(k)) return false;
    return true;
  }
  return one(key);
}

py::object g_advanced_getitem, g_advanced_setitem;

// ---- buffer protocol ----
// One allocation per export: shape then strides in `dims` (2 * ndim), as np.asarray on every
// result of a small call pays for it.
struct ExportInfo {
  std::shared_ptr<Buffer> pin;
  std::vector<Py_ssize_t> dims;
};

const char* buffer_format(DType d) {
  static const char* f[kNumDTypes] = {"?", "b", "h", "i", "q", "B", "H", "I", "Q", "e", "f", "d", "", "Zf", "Zd"};
  return f[static_cast<int>(d)];
}

int get_buffer(PyObject* self, Py_buffer* view, int flags) {
  try {
    Array* pa = as_array(self);  // the type's own buffer slot: self is an mnn ndarray
    if (!pa) {
      PyErr_SetString(PyExc_BufferError, "[mnn.numpy] not an mnn ndarray");
      return -1;
    }
    Array& a = *pa;
    if ((flags & PyBUF_WRITABLE) && !a.writeable()) {
      PyErr_SetString(PyExc_BufferError, "[mnn.numpy] array is read-only");
      return -1;
    }
    NodePtr n = a.node();
    if (n->dtype == DType::BFloat16 && (flags & PyBUF_FORMAT)) {
      // struct has no bfloat16 code; a guessed one would be misread as another type
      PyErr_SetString(PyExc_BufferError, "[mnn.numpy] bfloat16 has no buffer format: use np.asarray(x) "
                                         "(needs ml_dtypes) or x.astype('float32')");
      return -1;
    }
    if (!n->realized) engine::eval({n});
    auto* info = new ExportInfo();
    info->pin = n->buffer;
    size_t isz = itemsize(n->dtype);
    const int nd = n->ndim();
    info->dims.resize(2 * static_cast<size_t>(nd));
    for (int i = 0; i < nd; ++i) {
      info->dims[i] = n->shape[i];
      info->dims[nd + i] = n->strides[i] * static_cast<Py_ssize_t>(isz);
    }
    n->buffer->exports++;
    view->buf = n->data_ptr();
    view->obj = self;
    Py_INCREF(self);
    view->len = static_cast<Py_ssize_t>(numel(n->shape) * isz);
    view->readonly = a.writeable() && n->buffer->writeable() ? 0 : 1;
    view->itemsize = static_cast<Py_ssize_t>(isz);
    view->format = (flags & PyBUF_FORMAT) ? const_cast<char*>(buffer_format(n->dtype)) : nullptr;
    view->ndim = n->ndim();
    view->shape = (flags & PyBUF_ND) ? info->dims.data() : nullptr;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? info->dims.data() + nd : nullptr;
    view->suboffsets = nullptr;
    view->internal = info;
    if (!(flags & PyBUF_STRIDES) && !is_contiguous(n->shape, n->strides)) {
      n->buffer->exports--;
      delete info;
      Py_DECREF(self);
      view->obj = nullptr;
      PyErr_SetString(PyExc_BufferError, "[mnn.numpy] array is not C-contiguous");
      return -1;
    }
    return 0;
  } catch (py::error_already_set& e) {
    e.restore();
    return -1;
  } catch (...) {
    // Evaluation errors keep their numpy type (ValueError for an integer to a negative power, ...).
    py::detail::try_translate_exceptions();
    return -1;
  }
}

void release_buffer(PyObject*, Py_buffer* view) {
  auto* info = static_cast<ExportInfo*>(view->internal);
  if (info) {
    info->pin->exports--;
    delete info;
  }
}

PyBufferProcs g_buffer_procs = {get_buffer, release_buffer};

}  // namespace

py::object getitem(const Array& a, py::handle key) {
  std::vector<ops::Index> idx;
  if (parse_index(key, idx)) return py::reinterpret_steal<py::object>(wrap_array(ops::basic_index(a, idx)));
  if (!g_advanced_getitem)
    throw IndexError("[mnn.numpy.__getitem__] only integers, slices (`:`), ellipsis (`...`) and numpy.newaxis "
                     "(`None`) are valid indices");
  return g_advanced_getitem(py::cast(a), key);
}

void bind_array(py::module_& m) {
  py::class_<Array> cls(m, "ndarray");
  // shape, ndim, size, dtype: fast_access.cpp (read by every wrapper, so without pybind11's dispatcher)
  cls.def_property_readonly("itemsize", [](const Array& a) { return itemsize(a.dtype()); })
      .def_property_readonly("nbytes", [](const Array& a) { return a.size() * static_cast<int64_t>(itemsize(a.dtype())); })
      .def_property_readonly("_strides_elems", [](const Array& a) { return a.strides(); })
      .def_property_readonly("_offset_elems", &Array::offset)
      .def_property_readonly("_writeable", &Array::writeable)
      .def_property_readonly("_is_c_contiguous", &Array::is_contiguous)
      .def("_set_writeable", &Array::set_writeable)
      .def_property_readonly("_is_whole", &Array::is_whole)
      .def("_whole", [](const Array& a) {
        const NodePtr& b = a.storage()->base;
        return a.view(b->shape, b->strides, b->offset);
      })
      .def("_same_storage", &Array::same_storage)
      // `a.shape = s`: this handle takes the window of `v`, a view of the same buffer (numpy changes
      // the shape in place; other aliases keep theirs). Refused for gradient-tracked arrays, whose
      // recorded graph refers to the old window.
      .def("_rewindow", [](Array& a, const Array& v) {
        if (!a.same_storage(v))
          throw ValueError("[mnn.numpy.ndarray.shape] the new window must view the same buffer");
        if (a.autograd)
          throw ValueError("[mnn.numpy.ndarray.shape] cannot change the shape of an array that tracks gradients "
                           "in place; use reshape()");
        const bool w = a.writeable();
        a = a.view(v.shape(), v.strides(), v.offset());
        a.set_writeable(w);
      })
      .def("_storage_id", [](const Array& a) { return reinterpret_cast<uintptr_t>(a.storage().get()); })
      .def("_eval", [](const Array& a) { engine::eval({a.node()}); })
      .def("_is_evaluated", [](const Array& a) { return a.node()->realized; });

  // Arithmetic, comparison, bitwise: forward and reflected.
#define MNN_BIN(py_name, rpy_name, op)                                                           \
  cls.def(py_name, [](const Array& a, py::handle b) { return binary(Op::op, a, b, false); },  \
          py::is_operator());                                                                \
  if (rpy_name[0]) cls.def(rpy_name, [](const Array& a, py::handle b) { return binary(Op::op, a, b, true); }, py::is_operator());
  MNN_BIN("__add__", "__radd__", Add)
  MNN_BIN("__sub__", "__rsub__", Subtract)
  MNN_BIN("__mul__", "__rmul__", Multiply)
  MNN_BIN("__truediv__", "__rtruediv__", Divide)
  MNN_BIN("__floordiv__", "__rfloordiv__", FloorDivide)
  MNN_BIN("__mod__", "__rmod__", Remainder)
  MNN_BIN("__pow__", "__rpow__", Power)
  MNN_BIN("__and__", "__rand__", BitwiseAnd)
  MNN_BIN("__or__", "__ror__", BitwiseOr)
  MNN_BIN("__xor__", "__rxor__", BitwiseXor)
  MNN_BIN("__lshift__", "__rlshift__", LeftShift)
  MNN_BIN("__rshift__", "__rrshift__", RightShift)
  MNN_BIN("__lt__", "", Less)
  MNN_BIN("__le__", "", LessEqual)
  MNN_BIN("__gt__", "", Greater)
  MNN_BIN("__ge__", "", GreaterEqual)
  MNN_BIN("__eq__", "", Equal)
  MNN_BIN("__ne__", "", NotEqual)
#undef MNN_BIN
#define MNN_INPLACE(py_name, op) \
  cls.def(py_name, [](py::object self, py::handle b) { return inplace(Op::op, self, b); }, py::is_operator());
  MNN_INPLACE("__iadd__", Add)
  MNN_INPLACE("__isub__", Subtract)
  MNN_INPLACE("__imul__", Multiply)
  MNN_INPLACE("__itruediv__", Divide)
  MNN_INPLACE("__ifloordiv__", FloorDivide)
  MNN_INPLACE("__imod__", Remainder)
  MNN_INPLACE("__ipow__", Power)
  MNN_INPLACE("__iand__", BitwiseAnd)
  MNN_INPLACE("__ior__", BitwiseOr)
  MNN_INPLACE("__ixor__", BitwiseXor)
  MNN_INPLACE("__ilshift__", LeftShift)
  MNN_INPLACE("__irshift__", RightShift)
#undef MNN_INPLACE
  cls.def("__neg__", [](const Array& a) { return ops::elementwise(Op::Negative, {a}); })
      .def("__pos__", [](const Array& a) { return ops::elementwise(Op::Positive, {a}); })
      .def("__abs__", [](const Array& a) { return ops::elementwise(Op::Absolute, {a}); })
      .def("__invert__", [](const Array& a) { return ops::elementwise(Op::Invert, {a}); })
      .def("__matmul__", [](const Array& a, py::handle b) -> py::object {
        Array o;
        if (!to_operand(b, a.dtype(), o)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::cast(ops::matmul(a, o));
      }, py::is_operator())
      .def("__rmatmul__", [](const Array& a, py::handle b) -> py::object {
        Array o;
        if (!to_operand(b, a.dtype(), o)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::cast(ops::matmul(o, a));
      }, py::is_operator())
      .def("__imatmul__", [](py::object self, py::handle b) -> py::object {
        Array& a = self.cast<Array&>();
        Array o = to_array(b);
        Array r = ops::matmul(a, o);
        if (r.shape() != a.shape())
          throw ValueError("[mnn.numpy.matmul] inplace matrix multiplication requires the first operand to have "
                           "at least one and the second at least two dimensions.");
        ops::assign(a, r, "matmul");
        return self;
      }, py::is_operator());
  cls.attr("__hash__") = py::none();

  cls.def("__getitem__", &getitem);
  cls.def("__setitem__", [](py::object self, py::handle key, py::handle value) {
    Array& a = self.cast<Array&>();
    std::vector<ops::Index> idx;
    if (parse_index(key, idx)) {
      Array window = ops::basic_index(a, idx);
      Array v;
      if (py::isinstance<Array>(value)) {
        v = value.cast<const Array&>();
      } else if (PyBool_Check(value.ptr()) || PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr()) ||
                 PyComplex_CheckExact(value.ptr())) {  // a Python complex into a real array: numpy's TypeError
        v = scalar_array(value, a.dtype());
      } else {
        v = to_array(value);
      }
      ops::assign(window, v, "__setitem__");
      return;
    }
    if (!g_advanced_setitem) throw IndexError("[mnn.numpy.__setitem__] only integers, slices (`:`), ellipsis (`...`) and numpy.newaxis (`None`) are valid indices");
    g_advanced_setitem(self, key, value);
  });
  m.def("_set_index_hooks", [](py::object get, py::object set) {
    g_advanced_getitem = get;
    g_advanced_setitem = set;
  });
  // Drop the hooks before interpreter teardown (a static py::object destroyed after it would
  // touch Python without the GIL).
  py::module_::import("atexit").attr("register")(py::cpp_function([]() {
    g_advanced_getitem = py::object();
    g_advanced_setitem = py::object();
  }));

  // Zero-copy export: numpy.asarray(x) and memoryview(x) read the engine's buffer directly.
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  type->tp_as_buffer = &g_buffer_procs;
  install_fast_slots(cls);
}

}  // namespace mnn::py_bind
