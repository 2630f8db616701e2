"""Python and numpy protocols on ndarray: pickling, numpy's dispatch hooks, memory overlap.

__array_ufunc__ and __array_function__ make numpy's own functions (numpy.add(x, 1),
numpy.concatenate([x, y]), numpy.mean(x), ... and dask's chunk functions) run on mnn and return
mnn arrays: a call is dispatched by name to mnn.numpy, and what mnn lacks answers NotImplemented
so numpy raises its usual TypeError. numpy is never imported here: these hooks are only ever
called by numpy, which is then already loaded.
"""
import pickle
import sys

from .. import _core
from . import _dtypes
from ._common import bfloat16_bits, ndarray

# numpy ufunc method -> mnn function, for the reductions mnn has by another name
_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all",
           "logical_or": "any", "fmax": "max", "fmin": "min"}
_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}


def _mnp():
    return sys.modules["mnn.numpy"]


# ------------------------------------------------------------------ pickle


def _rebuild(data, dtype_name, shape):
    """Unpickling: the bytes (or protocol-5 buffer) back into an array that owns writable memory."""
    dt = _dtypes.dtype(dtype_name)
    count = 1
    for s in shape:
        count *= s
    if count == 0:
        return _core.empty(list(shape), dt._code)
    mv = memoryview(data)
    buf = data if isinstance(data, bytearray) and not mv.readonly else bytearray(mv.cast("B"))
    return _core.reshape(_core.from_buffer(memoryview(buf), dt._code), list(shape))


def _reduce_ex(self, protocol=2):
    shape = tuple(self.shape)
    if self.size == 0:
        return _rebuild, (b"", self.dtype.name, shape)
    src = self if self._is_c_contiguous else _core.as_contiguous(self)
    if self.dtype._code == 12:  # bfloat16 has no buffer format: pickle its bits
        src = bfloat16_bits(self)
    if protocol >= 5:  # out-of-band capable: the pickler may hand the buffer over without a copy
        return _rebuild, (pickle.PickleBuffer(src), self.dtype.name, shape)
    return _rebuild, (memoryview(src).cast("B").tobytes(), self.dtype.name, shape)


def _reduce(self):
    return _reduce_ex(self, 2)


def _deepcopy(self, memo=None):
    r = _core.copy(self)
    if memo is not None:
        memo[id(self)] = r
    return r


def _index(self):
    if self.ndim != 0 or self.dtype.kind not in "iu":  # numpy refuses bool arrays as indices too
        raise TypeError("[mnn.numpy.ndarray.__index__] only integer scalar arrays can be converted to a scalar index")
    return int(_core.item(self, 0))


def _format(self, spec):
    if self.ndim == 0:
        return format(_core.item(self, 0), spec)
    if spec:
        raise TypeError("[mnn.numpy.ndarray.__format__] unsupported format string passed to "
                        "numpy.ndarray.__format__")
    return str(self)


# ------------------------------------------------------------------ numpy dispatch


def _foreign(types):
    """True when a type other than mnn's or numpy's arrays takes part (it gets to decide, not us)."""
    np = sys.modules.get("numpy")
    known = (ndarray,) if np is None else (ndarray, np.ndarray, np.generic)
    return any(not issubclass(t, known) for t in types)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    mnp = _mnp()
    out = kwargs.get("out")
    if out is not None:
        if not all(isinstance(o, ndarray) for o in out):
            return NotImplemented  # numpy then raises its TypeError for an output it cannot write
        kwargs["out"] = out[0] if len(out) == 1 else out
    if any(not isinstance(x, (ndarray, int, float, bool, complex, list, tuple, slice)) and _foreign([type(x)]) for x in inputs):
        return NotImplemented
    name = ufunc.__name__
    if method == "__call__":
        fn = getattr(mnp, name, None)
        if fn is None or ufunc.nout != 1:
            return NotImplemented
        return fn(*inputs, **kwargs)
    if method == "reduce" and name in _REDUCE:
        fn = getattr(mnp, _REDUCE[name], None)
        if fn is None:
            return NotImplemented
        kwargs.setdefault("axis", 0)  # a ufunc's reduce defaults to the first axis, sum() to all
        return fn(inputs[0], **kwargs)
    if method == "accumulate" and name in _ACCUMULATE:
        fn = getattr(mnp, _ACCUMULATE[name], None)
        if fn is None:
            return NotImplemented
        kwargs.setdefault("axis", 0)
        return fn(inputs[0], **kwargs)
    # every other method mnn's function carries (numpy.maximum.accumulate, numpy.add.at, ...outer)
    meth = getattr(getattr(mnp, name, None), method, None)
    if meth is not None and method in ("reduce", "accumulate", "outer", "at", "reduceat"):
        return meth(*inputs, **kwargs)
    return NotImplemented


def _array_function(self, func, types, args, kwargs):
    if _foreign(types):
        return NotImplemented
    target = _mnp()
    module = getattr(func, "__module__", "numpy") or "numpy"
    for part in module.split(".")[1:]:
        if part.startswith("_"):  # a private implementation module: the public name lives at the top
            break
        target = getattr(target, part, None)
        if target is None:
            return NotImplemented
    fn = getattr(target, func.__name__, None)
    if fn is None or not callable(fn) or fn is func:
        return NotImplemented
    return fn(*args, **kwargs)


# ------------------------------------------------------------------ memory overlap


def _byte_extent(a):
    """[lo, hi) bytes of a's storage that a can touch, from its offset and strides."""
    isz = a.itemsize
    lo = hi = a._offset_elems
    for n, s in zip(a.shape, a._strides_elems):
        if n == 0:
            return 0, 0
        if s > 0:
            hi += (n - 1) * s
        else:
            lo += (n - 1) * s
    return lo * isz, (hi + 1) * isz


def _offsets(a):
    """The element offsets (in elements) of every element of a."""
    offs = [a._offset_elems]
    for n, s in zip(a.shape, a._strides_elems):
        offs = [o + i * s for o in offs for i in range(n)]
    return offs


def may_share_memory(a, b, /, max_work=None):
    """True when a and b are views of one buffer whose byte ranges overlap (cheap, conservative)."""
    if not (isinstance(a, ndarray) and isinstance(b, ndarray)):
        return False
    if a.size == 0 or b.size == 0 or not a._same_storage(b):
        return False
    (alo, ahi), (blo, bhi) = _byte_extent(a), _byte_extent(b)
    return alo < bhi and blo < ahi


def shares_memory(a, b, /, max_work=None):
    """True when some byte is an element of both a and b (exact)."""
    if not may_share_memory(a, b):
        return False
    if max_work == 0:  # numpy's MAY_SHARE_BOUNDS
        return True
    if a.size > b.size:
        a, b = b, a
    if a.itemsize == b.itemsize:  # one dtype (views): elements coincide exactly or not at all
        offs = set(_offsets(a))
        return any(o in offs for o in _offsets(b))
    isz_a, isz_b = a.itemsize, b.itemsize
    bytes_a = {o * isz_a + k for o in _offsets(a) for k in range(isz_a)}
    return any(o * isz_b + k in bytes_a for o in _offsets(b) for k in range(isz_b))


def install():
    ndarray.__reduce_ex__ = _reduce_ex
    ndarray.__reduce__ = _reduce
    ndarray.__deepcopy__ = _deepcopy
    ndarray.__format__ = _format
    ndarray.__index__ = _index
    ndarray.__array_ufunc__ = _array_ufunc
    ndarray.__array_function__ = _array_function


install()
