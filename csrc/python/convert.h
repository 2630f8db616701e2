// Python <-> engine conversions shared by the binding files: operands (arrays, Python scalars with
// NumPy 2's weak typing, anything else through mnn.numpy.asarray), exceptions, dtype objects.
#pragma once
#include <pybind11/pybind11.h>

#include "core/array.h"

namespace mnn::py_bind {

namespace py = pybind11;
using core::Array;
using core::DType;

// Converts a Python operand for a binary op whose other operand has dtype `other`. Python
// bool/int/float are weak (they take the other operand's kind where numpy 2 says so); arrays are
// strong. Returns false when the object cannot take part (the operator then returns NotImplemented).
bool to_operand(py::handle obj, DType other, Array& out);
// The array for any array-like (ndarray, numpy array, buffer object, nested sequence, scalar).
Array to_array(py::handle obj);
// A 0-d array for a Python scalar of an explicit dtype (range-checked like numpy).
Array scalar_array(py::handle obj, DType dtype);

py::object dtype_object(DType d);
DType dtype_of(py::handle obj);  // accepts dtype objects, strings, types (via mnn.numpy.dtype)

void register_conversions(py::module_& m);

}  // namespace mnn::py_bind
