"""Type-level helpers: common_type, min_scalar_type, mintypecode, typename, iterable, and the module
constants (typecodes, ScalarType, True_/False_, little_endian)."""
import math
import sys

from . import _dtypes
from ._common import asarray, ndarray


def iterable(y):
    try:
        iter(y)
    except TypeError:
        return False
    return True


def common_type(*arrays):
    """The inexact scalar type of the arrays: integers count as float64 (numpy.common_type)."""
    is_complex, precision = False, 0
    sizes = {2: _dtypes.float16, 4: _dtypes.float32, 8: _dtypes.float64}
    csizes = {4: _dtypes.complex64, 8: _dtypes.complex128}
    for a in arrays:
        d = asarray(a).dtype
        if d.kind == "c":
            is_complex = True
            p = d.itemsize // 2
        elif d.kind == "f":
            p = d.itemsize
        elif d.kind in "iu":
            p = 8
        else:
            raise TypeError("[mnn.numpy.common_type] can't get common type for non-numeric array")
        precision = max(precision, p)
    if is_complex:
        return csizes[max(precision, 4)]
    return sizes[precision] if precision else _dtypes.float16


def min_scalar_type(a, /):
    """The smallest dtype that holds the value (scalars, 0-d arrays); other arrays keep their dtype."""
    if isinstance(a, ndarray) and a.ndim > 0:
        return a.dtype
    v = a.item() if isinstance(a, ndarray) else a
    if isinstance(v, bool):
        return _dtypes.dtype("bool")
    if isinstance(v, int):
        kinds = ("uint8", "uint16", "uint32", "uint64") if v >= 0 else ("int8", "int16", "int32", "int64")
        for name in kinds:
            info = _dtypes.iinfo(name)
            if info.min <= v <= info.max:
                return _dtypes.dtype(name)
        raise OverflowError(f"[mnn.numpy.min_scalar_type] Python int {v} too large to convert")
    if isinstance(v, float):
        for name in ("float16", "float32", "float64"):
            if math.isnan(v) or math.isinf(v) or abs(v) <= _dtypes.finfo(name).max:
                return _dtypes.dtype(name)
    if isinstance(v, complex):
        big = max(abs(v.real), abs(v.imag))
        return _dtypes.dtype("complex64" if big <= _dtypes.finfo("float32").max else "complex128")
    return asarray(a).dtype


def typename(char):
    """numpy's description of a type code ('d' -> 'double precision')."""
    names = {"S1": "character", "?": "bool", "b": "signed char", "B": "unsigned char", "h": "short",
             "H": "unsigned short", "i": "integer", "I": "unsigned integer", "l": "long integer",
             "L": "unsigned long integer", "q": "long long integer", "Q": "unsigned long long integer",
             "f": "single precision", "d": "double precision", "g": "long precision", "F": "complex single precision",
             "D": "complex double precision", "G": "complex long double precision", "S": "string", "U": "unicode",
             "V": "void", "O": "object"}
    return names[char]


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The character of the smallest type in `typeset` that all of `typechars` cast to safely."""
    typecodes_ = [(isinstance(t, str) and t) or asarray(t).dtype.char for t in typechars]
    intersection = set(t for t in typecodes_ if t in typeset)
    if not intersection:
        return default
    if "F" in intersection and "d" in intersection:
        return "D"
    return min(intersection, key="GDFgdf".index)


little_endian = sys.byteorder == "little"
typecodes = {"Character": "c", "Integer": "bhilqnp", "UnsignedInteger": "BHILQNP", "Float": "efdg",
             "Complex": "FDG", "AllInteger": "bBhHiIlLqQnNpP", "AllFloat": "efdgFDG", "Datetime": "Mm",
             "All": "?bhilqnpBHILQNPefdgFDGSUVOMm"}


True_ = _dtypes.bool_(True)
False_ = _dtypes.bool_(False)
ScalarType = (int, float, complex, bool, bytes, str, memoryview) + tuple(
    d.type for d in _dtypes._ALL)
