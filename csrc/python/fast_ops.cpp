// Python operators as raw CPython slots (nb_add, nb_inplace_add, tp_richcompare, ...). pybind11's
// generic dispatcher cost more than the whole op recording behind it; these slots unwrap the
// operands, record one node and wrap the result. The pybind11 `__add__`-style methods stay in
// the type's dict with the same semantics for explicit calls.
#include "core/error.h"
#include "ops/ops.h"
#include "python/bindings.h"
#include "python/convert.h"

namespace mnn::py_bind {

using namespace core;

namespace {
PyTypeObject* g_type = nullptr;
}  // namespace

Array* as_array(PyObject* o) {
  if (Py_TYPE(o) != g_type && !PyType_IsSubtype(Py_TYPE(o), g_type)) return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(o);
  void* v = inst->simple_layout ? inst->simple_value_holder[0] : inst->nonsimple.values_and_holders[0];
  return static_cast<Array*>(v);
}

namespace {

PyObject* wrap(Array&& r) { return wrap_array(std::move(r)); }

// numpy 2: `a == None` (or a string, or any object) compares elementwise as unequal.
PyObject* not_comparable(Op op, const Array& a) {
  if (op != Op::Equal && op != Op::NotEqual) Py_RETURN_NOTIMPLEMENTED;
  return wrap(ops::full(a.shape(), Array::from_node(make_scalar_int(DType::Bool, op == Op::NotEqual)), DType::Bool));
}

PyObject* binary(Op op, PyObject* a, PyObject* b) {
  try {
    Array* pa = as_array(a);
    Array* pb = as_array(b);
    Array tmp;
    const Array* ins[2];
    if (pa && pb) {
      ins[0] = pa;
      ins[1] = pb;
    } else if (pa) {
      if (!to_weak_operand(op, py::handle(b), pa->dtype(), tmp)) return not_comparable(op, *pa);
      ins[0] = pa;
      ins[1] = &tmp;
    } else {
      if (!to_weak_operand(op, py::handle(a), pb->dtype(), tmp)) return not_comparable(op, *pb);
      ins[0] = &tmp;
      ins[1] = pb;
    }
    return wrap(ops::elementwise(op, ins, 2));
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyObject* inplace(Op op, PyObject* a, PyObject* b) {
  try {
    Array* pa = as_array(a);
    if (!pa) Py_RETURN_NOTIMPLEMENTED;
    // A 0-d array stands for a numpy scalar, which is immutable: `s += 5` rebinds s (see
    // bind_array.cpp's inplace) and never writes through to the array s was read from; one that
    // tracks gradients is a parameter and is updated in place.
    if (pa->ndim() == 0 && !pa->autograd) return binary(op, a, b);
    Array tmp;
    const Array* other = as_array(b);
    if (!other) {
      if (!to_weak_operand(op, py::handle(b), pa->dtype(), tmp)) Py_RETURN_NOTIMPLEMENTED;
      other = &tmp;
    }
    ops::inplace(op, *pa, *other);
    Py_INCREF(a);
    return a;
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyObject* unary(Op op, PyObject* a) {
  try {
    const Array* ins[1] = {as_array(a)};
    return wrap(ops::elementwise(op, ins, 1));
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyObject* richcompare(PyObject* a, PyObject* b, int cmp) {
  static const Op ops_of[] = {Op::Less, Op::LessEqual, Op::Equal, Op::NotEqual, Op::Greater, Op::GreaterEqual};
  return binary(ops_of[cmp], a, b);
}

template <Op O> PyObject* bin(PyObject* a, PyObject* b) { return binary(O, a, b); }
template <Op O> PyObject* ibin(PyObject* a, PyObject* b) { return inplace(O, a, b); }
template <Op O> PyObject* un(PyObject* a) { return unary(O, a); }
bool is_two(PyObject* b) {
  int overflow = 0;
  return PyLong_AsLongLongAndOverflow(b, &overflow) == 2 && !overflow;
}
PyObject* subscript(PyObject* a, PyObject* key) {
  try {
    return getitem(*as_array(a), key).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyObject* pow3(PyObject* a, PyObject* b, PyObject* m) {
  if (m != Py_None) Py_RETURN_NOTIMPLEMENTED;
  // numpy's ndarray.__pow__ takes a fast path for three Python-number exponents (its warnings name
  // the ufunc it ran): `x ** 2` is square(x) (for a bool array that is int8, not int64), and on
  // floating and complex arrays `x ** -1` is reciprocal(x) and `x ** 0.5` is sqrt(x) (sqrt(-0.0)
  // is -0.0 and sqrt(-inf) NaN, where pow gives +0.0 and +inf; complex results differ from pow's in
  // the last bits). A float 2.0 or -1.0 runs power, as there.
  Array* pa = as_array(a);
  if (pa && !as_array(b)) {
    const DType d = pa->dtype();
    const bool inexact = is_float(d) || is_complex(d);  // float16/bfloat16/float32/float64, complex
    if (PyLong_CheckExact(b)) {
      if (is_two(b)) return unary(Op::Square, a);
      int overflow = 0;
      if (inexact && PyLong_AsLongLongAndOverflow(b, &overflow) == -1 && !overflow) return unary(Op::Reciprocal, a);
    } else if (PyFloat_CheckExact(b) && PyFloat_AS_DOUBLE(b) == 0.5 && inexact) {
      return unary(Op::Sqrt, a);
    }
  }
  return binary(Op::Power, a, b);
}
PyObject* ipow3(PyObject* a, PyObject* b, PyObject* m) {
  if (m != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return inplace(Op::Power, a, b);
}

}  // namespace

void install_fast_slots(py::handle cls) {
  g_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  PyNumberMethods* nb = g_type->tp_as_number;
  nb->nb_add = bin<Op::Add>;
  nb->nb_subtract = bin<Op::Subtract>;
  nb->nb_multiply = bin<Op::Multiply>;
  nb->nb_true_divide = bin<Op::Divide>;
  nb->nb_floor_divide = bin<Op::FloorDivide>;
  nb->nb_remainder = bin<Op::Remainder>;
  nb->nb_power = pow3;
  nb->nb_and = bin<Op::BitwiseAnd>;
  nb->nb_or = bin<Op::BitwiseOr>;
  nb->nb_xor = bin<Op::BitwiseXor>;
  nb->nb_lshift = bin<Op::LeftShift>;
  nb->nb_rshift = bin<Op::RightShift>;
  nb->nb_inplace_add = ibin<Op::Add>;
  nb->nb_inplace_subtract = ibin<Op::Subtract>;
  nb->nb_inplace_multiply = ibin<Op::Multiply>;
  nb->nb_inplace_true_divide = ibin<Op::Divide>;
  nb->nb_inplace_floor_divide = ibin<Op::FloorDivide>;
  nb->nb_inplace_remainder = ibin<Op::Remainder>;
  nb->nb_inplace_power = ipow3;
  nb->nb_inplace_and = ibin<Op::BitwiseAnd>;
  nb->nb_inplace_or = ibin<Op::BitwiseOr>;
  nb->nb_inplace_xor = ibin<Op::BitwiseXor>;
  nb->nb_inplace_lshift = ibin<Op::LeftShift>;
  nb->nb_inplace_rshift = ibin<Op::RightShift>;
  nb->nb_negative = un<Op::Negative>;
  nb->nb_positive = un<Op::Positive>;
  nb->nb_absolute = un<Op::Absolute>;
  nb->nb_invert = un<Op::Invert>;
  g_type->tp_richcompare = richcompare;
  g_type->tp_as_mapping->mp_subscript = subscript;
  PyType_Modified(g_type);
}

}  // namespace mnn::py_bind
