"""Helpers shared by the mnn.numpy modules: dtype arguments, axis arguments, operands."""
import operator

from .. import _core
from . import _dtypes

ndarray = _core.ndarray


def dtype_code(dtype):
    """The engine's code for a dtype argument (anything numpy accepts as a dtype)."""
    return _dtypes.dtype(dtype)._code


def opt_dtype_code(dtype):
    return None if dtype is None else dtype_code(dtype)


def asarray(x):
    """Any operand as an ndarray (the package's asarray, installed by __init__)."""
    if type(x) is ndarray:
        return x
    if type(x) is _STR_ARRAY[0]:  # a numeric function handed a string array: numpy's TypeError
        raise TypeError(f"[mnn.numpy.{_public_caller()}] string arrays ({x.dtype!r}) are not supported here: "
                        f"numpy has no string loop for it")
    if isinstance(x, ndarray):
        return x
    from ._creation import asarray as _asarray
    r = _asarray(x)
    if type(r) is _STR_ARRAY[0]:  # strings given as a list or a numpy array
        raise TypeError(f"[mnn.numpy.{_public_caller()}] string arrays ({r.dtype!r}) are not supported here: "
                        f"numpy has no string loop for it")
    return r


def _public_caller():
    """The name of the outermost mnn.numpy function on the stack (the one the user called)."""
    import sys
    f = sys._getframe(2)
    name = f.f_code.co_name
    while f.f_back is not None and f.f_back.f_globals.get("__name__", "").startswith("mnn.numpy"):
        f = f.f_back
        name = f.f_code.co_name
    return name.lstrip("_")


_STR_ARRAY = [None]  # mnn.numpy._strings.StrArray, set by mnn.numpy (this module imports no array modules)


def axis_tuple(axis, fn):
    """None stays None; an int or a sequence of ints becomes a list of ints."""
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        return [operator.index(a) for a in axis]
    try:
        return [operator.index(axis)]
    except TypeError:
        raise TypeError(f"[mnn.numpy.{fn}] 'axis' must be None, an integer or a tuple of integers") from None


def shape_tuple(shape):
    if isinstance(shape, (tuple, list)):
        return [operator.index(s) for s in shape]
    return [operator.index(shape)]


def write_out(result, out, fn, casting="same_kind"):
    """numpy's out=: checks shape and casting (ufuncs: same_kind; reductions: unsafe), writes, returns out."""
    if out is None:
        return result
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"[mnn.numpy.{fn}] expected a single output array")
        out = out[0]
    if not isinstance(out, ndarray):
        raise TypeError(f"[mnn.numpy.{fn}] return arrays must be of ArrayType")
    if tuple(out.shape) != tuple(result.shape):
        try:
            result = _core.broadcast_to(result, list(out.shape))
        except ValueError:
            raise ValueError(f"[mnn.numpy.{fn}] non-broadcastable output operand with shape {out.shape} doesn't "
                             f"match the broadcast shape {result.shape}") from None
    if not _dtypes.can_cast(result.dtype, out.dtype, casting):
        raise _core.UFuncTypeError(f"[mnn.numpy.{fn}] Cannot cast ufunc '{fn}' output from {result.dtype!r} to "
                                   f"{out.dtype!r} with casting rule 'same_kind'")
    _core.assign(out, result)
    return out


def bfloat16_bits(a):
    """A C-contiguous uint16 array holding the bits of bfloat16 array `a` (same shape).

    bfloat16 has no buffer format, so byte-level paths (tobytes, pickle) read these instead: the
    float32 widening is exact, and its high halves are the stored values."""
    import sys
    f = _core.as_contiguous(a.astype(_dtypes.float32)).reshape(-1)
    u16 = _core.from_buffer(memoryview(f).cast("B"), 6)  # uint16 halves of each float32
    high = u16[1::2] if sys.byteorder == "little" else u16[0::2]
    return _core.reshape(_core.copy(high), list(a.shape))
