// Python <-> engine conversions shared by the binding files: operands (arrays, Python scalars with
// NumPy 2's weak typing, anything else through mnn.numpy.asarray), exceptions, dtype objects.
#pragma once
#include <pybind11/pybind11.h>

#include "core/array.h"
#include "core/node.h"

#include <pybind11/stl.h>

// Shapes and strides cross the boundary as Python lists/tuples of ints.
namespace pybind11::detail {
template <>
struct type_caster<mnn::core::SmallVec<int64_t>> : list_caster<mnn::core::SmallVec<int64_t>, int64_t> {};
}  // namespace pybind11::detail

namespace mnn::py_bind {

namespace py = pybind11;
using core::Array;
using core::DType;

// Converts a Python operand for a binary op whose other operand has dtype `other`. Python
// bool/int/float are weak (they take the other operand's kind where numpy 2 says so); arrays are
// strong. Returns false when the object cannot take part (the operator then returns NotImplemented).
bool to_operand(py::handle obj, DType other, Array& out);
// Like to_operand, for the second operand of the binary ufunc `op` whose array operand has dtype
// `strong`: a Python scalar takes the dtype of the loop numpy picks (NEP 50), so `int8 / 300` and
// `arctan2(uint8, -2)` do not overflow, and comparisons with out-of-range ints are exact.
bool to_weak_operand(core::Op op, py::handle obj, DType strong, Array& out);
// The array for any array-like (ndarray, numpy array, buffer object, nested sequence, scalar).
Array to_array(py::handle obj);
// A 0-d array for a Python scalar of an explicit dtype (range-checked like numpy).
Array scalar_array(py::handle obj, DType dtype);

py::object dtype_object(DType d);
DType dtype_of(py::handle obj);  // accepts dtype objects, strings, types (via mnn.numpy.dtype)

void register_conversions(py::module_& m);
// Sets the Python exception for a C++ exception (engine errors map to numpy's exception types).
void set_python_error(std::exception_ptr e);
void register_exception_types(py::module_& m);  // AxisError, UFuncTypeError

}  // namespace mnn::py_bind
