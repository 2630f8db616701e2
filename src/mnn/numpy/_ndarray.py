"""ndarray methods and protocols written in Python (the operators live in C++ for speed)."""
import builtins
import math
import operator

from .. import _core
from . import _complex, _dtypes, _linalg, _manipulation, _printing, _reductions, _ufuncs
from ._common import asarray, dtype_code, ndarray, shape_tuple

_float, _int, _bool = builtins.float, builtins.int, builtins.bool


class _LazyFlat:
    """Element access for the printer that reads only what it prints (corners of huge arrays)."""

    def __init__(self, a):
        self._a = a

    def __len__(self):
        return self._a.size

    def __getitem__(self, i):
        return _core.item(self._a, i)


def _flat(a):
    if a.size > _printing.get_printoptions()["threshold"]:
        return _LazyFlat(a)
    return _core.all_values(a)


def _repr(self):
    return _printing.array_repr(_flat(self), tuple(self.shape), self.dtype.name)


def _str(self):
    return _printing.array_str(_flat(self), tuple(self.shape), self.dtype.name)


def _shape_args(args):
    if len(args) == 1 and (isinstance(args[0], (tuple, list)) or args[0] is None):
        return args[0]
    return args


def _reshape(self, *shape, order="C", copy=None):
    return _manipulation.reshape(self, shape_tuple(_shape_args(shape)), order=order, copy=copy)


def _transpose(self, *axes):
    axes = _shape_args(axes)
    return _manipulation.transpose(self, None if not axes else axes)


def _astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    dt = _dtypes.dtype(dtype)
    if not copy and dt == self.dtype:
        return self
    if dt.kind == "U":  # numbers -> numpy's text ('<U0'/str: numpy's width for the dtype)
        from ._strings import _numeric_to_str
        return _numeric_to_str(self, dt.itemsize // 4 or None)
    if casting != "unsafe" and not _dtypes.can_cast(self.dtype, dt, casting):
        raise TypeError(f"[mnn.numpy.astype] Cannot cast array data from {self.dtype!r} to {dt!r} according to "
                        f"the rule '{casting}'")
    _complex.warn_complex_cast(self.dtype, dt)
    return _core.astype(self, dt._code)


def _item(self, *args):
    if not args:
        if self.size != 1:
            raise ValueError("[mnn.numpy.item] can only convert an array of size 1 to a Python scalar")
        return _core.item(self, 0)
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    if len(args) == 1:
        i = operator.index(args[0])
        if not -self.size <= i < self.size:
            raise IndexError(f"[mnn.numpy.item] index {i} is out of bounds for size {self.size}")
        return _core.item(self, i % self.size)
    return _core.item(self[tuple(args)], 0)


def _scalar_of(self, conv, name):
    if self.ndim != 0:  # numpy 2.4: size-1 arrays of ndim > 0 no longer convert
        raise TypeError(f"[mnn.numpy.ndarray.{name}] only 0-dimensional arrays can be converted to Python scalars")
    return conv(_core.item(self, 0))


def _bool_(self):
    if self.size == 1:
        return _bool(_core.item(self, 0))
    if self.size == 0:
        raise ValueError("[mnn.numpy.ndarray.__bool__] The truth value of an empty array is ambiguous. Use "
                         "`array.size > 0` to check that an array is not empty.")
    raise ValueError("[mnn.numpy.ndarray.__bool__] The truth value of an array with more than one element is "
                     "ambiguous. Use a.any() or a.all()")


def _index(self):
    if self.ndim != 0 or self.dtype.kind not in "iub":
        raise TypeError("[mnn.numpy.ndarray.__index__] only integer scalar arrays can be converted to a scalar index")
    return _int(_core.item(self, 0))


def _len(self):
    if self.ndim == 0:
        raise TypeError("len() of unsized object")
    return self.shape[0]


def _iter(self):
    if self.ndim == 0:  # raised by iter() itself, as numpy does, not on the first next()
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _bfloat16_to_numpy(self):
    # numpy has no bfloat16. With ml_dtypes installed the result is its bfloat16 (same bits: the
    # float32 widening is exact, so its top halves are the stored values); without it, float32
    # (every bfloat16 value exactly), rather than an error, so np.asarray always works.
    import numpy
    f = numpy.asarray(memoryview(self.astype(_dtypes.float32))) if self.size else \
        numpy.empty(self.shape, numpy.float32)
    try:
        bf = _dtypes._numpy_bfloat16()
    except TypeError:
        return f
    top = numpy.right_shift(f.view(numpy.uint32).reshape(-1), 16).astype(numpy.uint16)
    return top.view(bf).reshape(f.shape)


def _array(self, dtype=None, copy=None):
    import numpy
    if self.dtype._code == 12:
        a = _bfloat16_to_numpy(self)
        return a.astype(dtype) if dtype is not None and numpy.dtype(dtype) != a.dtype else a
    a = numpy.asarray(memoryview(self)) if self.size else numpy.empty(self.shape, dtype=self.dtype.name)
    if dtype is not None and numpy.dtype(dtype) != a.dtype:
        return a.astype(dtype)
    if copy:
        return a.copy()
    return a


def _fill(self, value):
    _core.assign(self, _core.scalar(value, self.dtype._code) if isinstance(value, (_int, _float, _bool))
                 else asarray(value))


def _view(self, dtype=None, type=None):
    if dtype is not None and _dtypes.dtype(dtype) != self.dtype:
        return _reinterpret(self, _dtypes.dtype(dtype))
    return self[...]


def _reinterpret(a, dt):
    """a.view(other dtype): the same bytes read as `dt`. The engine has no aliasing bit-cast yet, so
    this is a read-only copy (reads equal numpy's; a write raises instead of missing `a`)."""
    old = a.dtype.itemsize
    new = dt.itemsize
    shape = list(a.shape)
    if a.ndim == 0:
        if old != new:
            raise ValueError("[mnn.numpy.ndarray.view] Changing the dtype of a 0d array is only supported if the "
                             "itemsize is unchanged")
    elif old != new:
        if not a._is_c_contiguous:
            raise ValueError("[mnn.numpy.ndarray.view] To change to a dtype of a different size, the last axis "
                             "must be contiguous")
        if (shape[-1] * old) % new:
            raise ValueError("[mnn.numpy.ndarray.view] When changing to a smaller dtype, its size must be a divisor "
                             "of the size of original dtype" if new < old else
                             "[mnn.numpy.ndarray.view] When changing to a larger dtype, its size must be a divisor of "
                             "the total size in bytes of the last axis of the array.")
        shape[-1] = shape[-1] * old // new
    src = a if a._is_c_contiguous else _core.as_contiguous(a)
    raw = bytearray(memoryview(src).cast("B")) if a.size else bytearray()
    if not raw:
        r = _core.empty(shape, dt._code)
    else:
        r = _core.reshape(_core.from_buffer(memoryview(raw), dt._code), shape)
    r._set_writeable(False)
    return r


class _Flags:
    def __init__(self, a):
        self._a = a

    @property
    def c_contiguous(self):
        return self._a._is_c_contiguous

    @property
    def f_contiguous(self):
        a = self._a
        expect = 1
        for n, s in zip(a.shape, a._strides_elems):
            if n != 1 and s != expect:
                return a.size == 0
            expect *= n
        return True

    @property
    def writeable(self):
        return self._a._writeable

    @writeable.setter
    def writeable(self, value):
        if value and not self._a._writeable:
            raise ValueError("[mnn.numpy.ndarray.flags] cannot set WRITEABLE flag to True of this array")
        self._a._set_writeable(_bool(value))

    @property
    def owndata(self):
        return self._a.base is None

    def __getitem__(self, key):
        names = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
                 "F": "f_contiguous", "WRITEABLE": "writeable", "W": "writeable", "OWNDATA": "owndata",
                 "O": "owndata"}
        return getattr(self, names[key])

    def __repr__(self):
        return "\n".join(f"  {k} : {self[k]}" for k in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE"))


def _base(self):
    # numpy's base is the array a view was taken from; views here share one buffer family, and
    # `base` names a whole-buffer array of that family (None for an array that is its own buffer).
    return None if self._is_whole else self._whole()


def _strides(self):
    return tuple(s * self.itemsize for s in self._strides_elems)


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    return _core.to_dlpack(self)


def _round(self, decimals=0, out=None):
    return _ufuncs.around(self, decimals, out)


def _scalar_round(self, ndigits=None):
    """round(x) on a 0-d array behaves as on the numpy scalar it stands for: a Python int without
    ndigits (`int(round(dh - 0.1))` in every letterbox), the same dtype with them. numpy's ndarray
    has no __round__, so round() of a 1-d array stays a TypeError."""
    if self.ndim != 0:
        raise TypeError("type mnn.numpy.ndarray doesn't define __round__ method")
    if ndigits is None:
        return round(_core.item(self, 0))
    return _ufuncs.around(self, operator.index(ndigits))


def _scalar_trunc(self):
    if self.ndim != 0:
        raise TypeError("type mnn.numpy.ndarray doesn't define __trunc__ method")
    return math.trunc(_core.item(self, 0))


def _backward(self, gradient=None, retain_graph=None):
    from ..autograd import backward
    backward(self, gradient)


METHODS = {
    "__repr__": _repr, "__str__": _str, "__len__": _len, "__iter__": _iter, "__bool__": _bool_,
    "__float__": lambda s: _scalar_of(s, _float, "__float__"), "__int__": lambda s: _scalar_of(s, _int, "__int__"),
    "__complex__": lambda s: _scalar_of(s, complex, "__complex__"), "__index__": _index,
    "__round__": _scalar_round, "__trunc__": _scalar_trunc,
    "__array__": _array, "__dlpack__": _dlpack, "__dlpack_device__": lambda s: (1, 0),
    "__copy__": lambda s: _core.copy(s), "__deepcopy__": lambda s, memo=None: _core.copy(s),
    "__array_namespace__": lambda s, api_version=None: __import__("mnn.numpy", fromlist=["x"]),
    "__format__": lambda s, spec: format(_core.item(s, 0), spec) if s.ndim == 0 else _str(s).__format__(spec),
    "__array_priority__": 100.0,
    "reshape": _reshape, "transpose": _transpose, "astype": _astype, "item": _item,
    "tolist": lambda s: _core.tolist(s), "copy": lambda s, order="C": _core.copy(s), "fill": _fill, "view": _view,
    "ravel": lambda s, order="C": _manipulation.ravel(s, order),
    "flatten": lambda s, order="C": _core.copy(_manipulation.ravel(s, order)),
    "squeeze": lambda s, axis=None: _manipulation.squeeze(s, axis),
    "swapaxes": lambda s, a1, a2: _manipulation.swapaxes(s, a1, a2),
    "diagonal": lambda s, offset=0, axis1=0, axis2=1: _manipulation.diagonal(s, offset, axis1, axis2),
    "sum": _reductions.sum, "prod": _reductions.prod, "mean": _reductions.mean, "std": _reductions.std,
    "var": _reductions.var, "min": _reductions.min, "max": _reductions.max, "argmin": _reductions.argmin,
    "argmax": _reductions.argmax, "all": _reductions.all, "any": _reductions.any, "cumsum": _reductions.cumsum,
    "cumprod": _reductions.cumprod, "clip": _ufuncs.clip, "round": _round, "dot": _linalg.dot,
    "conj": _complex.conj, "conjugate": _complex.conj, "backward": _backward,
    "to_device": lambda s, device, stream=None: s if device in ("cpu", None) else (_ for _ in ()).throw(
        ValueError(f"[mnn.numpy.to_device] unknown device {device!r}")),
}
PROPERTIES = {
    "T": lambda s: _manipulation.transpose(s),
    "mT": lambda s: _manipulation.matrix_transpose(s),
    "strides": _strides,
    "flags": lambda s: _Flags(s),
    "base": _base,
    "device": lambda s: "cpu",
    "real": lambda s: _complex.real(s),
    "imag": lambda s: _complex.imag(s),
    "data": lambda s: memoryview(s),
}


def install():
    for name, fn in METHODS.items():
        setattr(ndarray, name, fn)
    for name, fn in PROPERTIES.items():
        setattr(ndarray, name, property(fn))
    # bool()/float()/int() and .T as C slots doing what the Python definitions above do (kept for
    # explicit calls): a loop's `if x < y:` then costs no Python frame
    _core._install_scalar_slots()
