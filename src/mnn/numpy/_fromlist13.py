"""array() from flat or 2-d lists of plain Python scalars without the per-element recursion of
_creation._flatten (about 2 us per element: a 357-element list took 0.4-0.9 ms). Lists like these are
what vectorize, list comprehensions and small literals hand to np.array in numpy scripts."""
import builtins

from . import _dtypes

_bool, _int, _float, _complex = builtins.bool, builtins.int, builtins.float, builtins.complex
_PY = frozenset((_bool, _int, _float, _complex))
_SEQ = (list, tuple)


def flatten(obj):
    """(flat values, shape, dtype) for a non-empty list/tuple of exact Python scalars, or of equal-
    length non-empty lists/tuples of them; None for anything else (the general path decides)."""
    if type(obj) not in _SEQ or not obj:
        return None
    first = obj[0]
    if type(first) in _PY:
        flat, shape = obj, [len(obj)]
    elif type(first) in _SEQ and first:
        m = len(first)
        for r in obj:
            if type(r) not in _SEQ or len(r) != m:
                return None
        flat = [v for r in obj for v in r]
        shape = [len(obj), m]
    else:
        return None
    types = set(map(type, flat))
    if not types <= _PY:
        return None
    return flat, shape, _dtype_of(types, flat)


def _dtype_of(types, flat):
    """numpy's dtype for Python scalars (_creation._scalar_dtype's rule, with C-speed min/max)."""
    if _complex in types:
        return _dtypes.dtype("complex128")
    if _float in types:
        return _dtypes.dtype("float64")
    if _int not in types:
        return _dtypes.dtype("bool")
    hi, lo = max(flat), min(flat)
    if hi <= 0x7FFFFFFFFFFFFFFF and lo >= -0x8000000000000000:
        return _dtypes.dtype("int64")
    from . import _creation  # past int64: uint64, float64 or an error, by _creation's rule
    if _bool in types:  # bools do not count towards the ints' range
        ints = [v for v in flat if type(v) is _int]
        hi, lo = max(ints), min(ints)
    return _creation.int_list_dtype(hi, lo)


_TYPECODE = {"int64": "q", "float64": "d"}


def build(flat, shape, dt):
    """The array of flat values: int64/float64 through array.array and the buffer import (C-speed
    conversion, ~20 ns per element where from_list takes ~90), other dtypes through from_list."""
    from .. import _core
    code = _TYPECODE.get(dt.name)
    if code is not None:
        try:
            r = _core.from_buffer(_array(code, flat))
        except (OverflowError, TypeError):
            r = None
        if r is not None:
            return r if len(shape) == 1 else _core.reshape(r, shape)
    return _core.from_list(list(flat), shape, dt._code)


from array import array as _array  # noqa: E402
