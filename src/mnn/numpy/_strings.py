"""numpy's fixed-width unicode string arrays (dtype '<U{n}') on the engine.

A StrArray keeps its elements as numpy does: n UCS4 code points per element, zero-padded. The
engine holds them as a uint32 array of shape (*shape, n) (the "code array"), so indexing, views,
reshapes, transposes, concatenation, masks and fancy indexing are the engine's own operations on
the leading axes. Per-element string work (case, strip, ordering) decodes to Python str.

isinstance(x, mnn.numpy.ndarray) holds for a StrArray: `install()` gives the engine's ndarray type a
metaclass whose __instancecheck__ also accepts StrArray. The engine itself never accepts a StrArray
(pybind11 refuses it), so a numeric function handed one raises instead of computing on code points.
"""
import builtins
import operator
import sys

from .. import _core
from . import _dtypes, _printing

_U32 = 7  # the engine's uint32 code
_pystr, _pyint, _pyfloat, _pybool, _pycomplex = builtins.str, builtins.int, builtins.float, builtins.bool, \
    builtins.complex


def _np():
    return sys.modules["mnn.numpy"]


def is_str_dtype(dtype):
    """True for dtype arguments meaning numpy's unicode strings ('U5', '<U', str, np.str_, ...).
    Cheap: the creation functions ask it on every call that passes a dtype."""
    if dtype is None:
        return False
    t = type(dtype)
    if t is _dtypes.dtype:
        return dtype.kind == "U"
    if t is _pystr:
        return "U" in dtype or dtype in ("str", "str_", "unicode")
    if isinstance(dtype, type):
        return dtype is _pystr or issubclass(dtype, _pystr)  # str, mnn's and numpy's str_
    return getattr(dtype, "kind", None) == "U"  # numpy's dtype objects


# ------------------------------------------------------------------ code arrays <-> Python str


def _encode(flat, n, shape):
    """Python strs (C order) -> a code array of shape (*shape, n); longer strings are truncated."""
    count = len(flat)
    if count == 0:
        return _core.full(list(shape) + [n], _core.scalar(0, _U32), _U32)
    # one encode of the padded text: UTF-32 gives each code point 4 bytes, as numpy stores them
    raw = "".join([s[:n].ljust(n, "\0") for s in flat]).encode("utf-32-le", "surrogatepass")
    return _core.reshape(_core.from_buffer(memoryview(bytearray(raw)), _U32), list(shape) + [n])


def _decode(cp):
    """A code array -> Python strs of its elements in C order (trailing NULs dropped, as numpy)."""
    n = cp.shape[-1]
    count = cp.size // n if n else 0
    if n == 0 or count == 0:
        return [""] * (0 if cp.size == 0 and n else _prod(cp.shape[:-1]))
    c = cp if cp._is_c_contiguous else _core.as_contiguous(cp)
    text = memoryview(c).cast("B").tobytes().decode("utf-32-le", "surrogatepass")
    return [text[i:i + n].rstrip("\0") for i in range(0, len(text), n)]


def _prod(shape):
    p = 1
    for s in shape:
        p *= s
    return p


def _width(flat):
    """numpy's width for a list of strs: the longest, at least 1."""
    return max(1, max((len(s) for s in flat), default=1))


def from_strs(flat, shape, n=None):
    return StrArray(_encode(flat, _width(flat) if n is None else n, shape))


# ------------------------------------------------------------------ numbers -> str (numpy's text)


def number_text(v, dt):
    """numpy's str() of one element of a numeric dtype (what astype(str) stores)."""
    k = dt.kind
    if k == "b":
        return "True" if v else "False"
    if k in "iu":
        return _pystr(_pyint(v))
    name = "float32" if dt.name == "bfloat16" else dt.name
    return _printing.scalar_str(v, name)


def _numeric_to_str(a, n=None):
    """A numeric ndarray as a StrArray (numpy's astype(str); n=None picks numpy's width for the dtype)."""
    dt = a.dtype
    flat = [number_text(v, dt) for v in _core.all_values(a)] if a.size else []
    return StrArray(_encode(flat, _dtypes.str_width(dt) if n is None else n, a.shape))


# ------------------------------------------------------------------ conversion of operands


def _leaf_text(v):
    if isinstance(v, _pystr):
        return _pystr(v), None
    if isinstance(v, _pybool):
        return ("True" if v else "False"), _dtypes.dtype("bool")
    if isinstance(v, _pyint):
        return _pystr(v), _dtypes.dtype("int64")
    if isinstance(v, _pyfloat):
        return _printing.scalar_str(v, "float64"), _dtypes.dtype("float64")
    if isinstance(v, _pycomplex):
        return _printing.scalar_str(v, "complex128"), _dtypes.dtype("complex128")
    raise TypeError(f"[mnn.numpy.array] cannot convert object of type {type(v).__name__} to a string array")


def _flatten(obj, fn):
    """Nested lists/tuples of str/numbers/arrays -> (flat strs, shape, width numpy discovers, longest).

    numpy discovers a number's width from its dtype (an int is '<U21'); with an explicit unsized
    'U' dtype it sizes by the text itself (np.array([1, 22], dtype=str) is '<U2')."""
    if isinstance(obj, StrArray):
        return _decode(obj._cp), list(obj.shape), obj._n, obj._n
    if isinstance(obj, (list, tuple)):
        if len(obj) == 0:
            return [], [0], 1, 1
        if all(type(v) is _pystr for v in obj):  # fast path: a flat list of strs
            longest = max(1, max(map(len, obj)))
            return list(obj), [len(obj)], longest, longest
        parts = [_flatten(o, fn) for o in obj]
        shape0 = parts[0][1]
        flat, width, longest = [], 1, 1
        for p in parts:
            if p[1] != shape0:
                raise ValueError(f"[mnn.numpy.{fn}] setting an array element with a sequence. The requested array "
                                 f"has an inhomogeneous shape after 1 dimensions.")
            flat.extend(p[0])
            width, longest = max(width, p[2]), max(longest, p[3])
        return flat, [len(obj)] + shape0, width, longest
    if type(obj) is _core.ndarray:
        s = _numeric_to_str(obj)
        return _decode(s._cp), list(obj.shape), s._n, s._n
    if hasattr(obj, "dtype") and hasattr(obj, "shape") and not isinstance(obj, _pystr):  # numpy arrays
        return _flatten(_np().asarray(obj), fn)
    text, dt = _leaf_text(obj)
    # numpy sizes a str by len() but stores str(): a str subclass with its own __str__ (a str Enum)
    # is cut to its length, as there
    size = len(obj) if dt is None else _dtypes.str_width(dt)
    return [text], [], max(1, size), max(1, len(obj) if dt is None else len(text))


def contains_str(obj, depth=0):
    """True when obj is, or (nested lists) holds, a str or a StrArray."""
    if isinstance(obj, (_pystr, StrArray)):
        return True
    if isinstance(obj, (list, tuple)) and depth < 32:
        return any(contains_str(o, depth + 1) for o in obj)
    dt = getattr(obj, "dtype", None)
    return getattr(dt, "kind", None) == "U"


def asstr(obj, dtype=None, fn="array"):
    """Anything numpy turns into a '<U' array (strs, nested lists, numbers with a U dtype, numpy U
    arrays) as a StrArray; dtype (a U dtype) fixes the width, 'U'/str (width 0) sizes it by the data."""
    n = None
    if dtype is not None:
        d = _dtypes.dtype(dtype)
        n = d.itemsize // 4 or None
    if isinstance(obj, StrArray):
        return obj if n is None or n == obj._n else obj._rewidth(n)
    if type(obj) is _core.ndarray:
        return _numeric_to_str(obj, n)
    mod = type(obj).__module__.partition(".")[0]
    if mod == "numpy" and getattr(getattr(obj, "dtype", None), "kind", None) == "U":
        return _from_numpy(obj, n)
    flat, shape, width, longest = _flatten(obj, fn)
    if n is None and dtype is not None:  # an unsized 'U' dtype: as long as the longest text
        n = longest
    return StrArray(_encode(flat, width if n is None else n, shape))


def asarray(a, dtype=None, copy=None):
    """mnn.numpy.asarray/array for string data or a U dtype (a numeric dtype parses the strings)."""
    if dtype is not None and not is_str_dtype(dtype):
        return asstr(a, fn="asarray").astype(dtype)
    r = asstr(a, dtype, fn="asarray")
    if copy and r is a:
        return r.copy()
    return r


def _from_numpy(a, n=None):
    import numpy
    a = numpy.array(a, order="C", copy=True)
    m = a.dtype.itemsize // 4
    if m == 0 or a.size == 0:
        return StrArray(_core.full(list(a.shape) + [n or max(m, 1)], _core.scalar(0, _U32), _U32))
    raw = bytearray(a.astype(a.dtype.newbyteorder("<")).tobytes())
    r = StrArray(_core.reshape(_core.from_buffer(memoryview(raw), _U32), list(a.shape) + [m]))
    return r if n is None or n == m else r._rewidth(n)


def _to_codes(value, n, fn):
    """A value to assign into a StrArray of width n: a code array of width n (truncating)."""
    return asstr(value, None, fn)._rewidth(n)._cp


def _ext(key):
    """An index into the leading axes, extended to leave the code-point axis whole."""
    if not isinstance(key, tuple):
        key = (key,)
    for k in key:
        if isinstance(k, StrArray):
            raise IndexError("[mnn.numpy.ndarray.__getitem__] only integers, slices (`:`), ellipsis (`...`), "
                             "numpy.newaxis (`None`) and integer or boolean arrays are valid indices")
    if any(k is Ellipsis for k in key):
        return key + (slice(None),), True
    return key + (Ellipsis, slice(None)), False


def _no_loop(fn, *operands):
    """numpy's UFuncNoLoopError (a TypeError) for a ufunc that has no string loop."""
    names = ", ".join(repr(_operand_dtype(x)) for x in operands)
    return TypeError(f"[mnn.numpy.{fn}] ufunc '{fn}' did not contain a loop with signature matching types "
                     f"({names}) -> None")


def _operand_dtype(x):
    if isinstance(x, StrArray):
        return x.dtype
    if isinstance(x, _pystr):
        return _dtypes.unicode_dtype(len(x))
    try:
        return _np().asarray(x).dtype
    except Exception:  # noqa: BLE001  (only for the message)
        return type(x).__name__


def _unsupported(name):
    def method(self, *args, **kwargs):
        raise _no_loop(name, self, *args[:1])
    method.__name__ = name
    return method


def _unsupported_reduce(name, ufunc):
    def method(self, *args, **kwargs):
        raise TypeError(f"[mnn.numpy.{name}] the resolved dtypes are not compatible with {ufunc}.reduce: "
                        f"string arrays ({self.dtype!r}) have no '{ufunc}' loop")
    method.__name__ = name
    return method


# ------------------------------------------------------------------ the array


class StrArray:
    """An array of fixed-width unicode strings (numpy's dtype '<U{n}')."""

    __slots__ = ("_cp", "__weakref__")
    __array_priority__ = 100.0
    __hash__ = None

    def __init__(self, cp):
        self._cp = cp  # engine uint32 array (*shape, n)

    # ---- attributes
    @property
    def _n(self):
        return self._cp.shape[-1]

    @property
    def shape(self):
        return tuple(self._cp.shape[:-1])

    @shape.setter
    def shape(self, value):
        if not self._cp._is_c_contiguous:  # numpy only re-shapes in place what it can view
            raise AttributeError("[mnn.numpy.ndarray.shape] Incompatible shape for in-place modification. Use "
                                 "`.reshape()` to make a copy with the desired shape.")
        self._cp = self.reshape(value)._cp

    @property
    def ndim(self):
        return self._cp.ndim - 1

    @property
    def size(self):
        return _prod(self.shape)

    @property
    def dtype(self):
        return _dtypes.unicode_dtype(self._n)

    @property
    def itemsize(self):
        return 4 * self._n

    @property
    def nbytes(self):
        return self.size * self.itemsize

    @property
    def strides(self):
        return tuple(4 * s for s in self._cp._strides_elems[:-1])

    @property
    def T(self):
        return self.transpose()

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("[mnn.numpy.ndarray.mT] matrix transpose with ndim < 2 is undefined")
        return self.swapaxes(-1, -2)

    @property
    def flags(self):
        return _np()._ndarray._Flags(self)

    @property
    def _is_c_contiguous(self):
        return self._cp._is_c_contiguous

    @property
    def _strides_elems(self):
        return tuple(s // self._n if self._n else s for s in self._cp._strides_elems[:-1])

    @property
    def _writeable(self):
        return self._cp._writeable

    def _set_writeable(self, v):
        self._cp._set_writeable(v)

    @property
    def base(self):
        return None if self._cp._is_whole else StrArray(self._cp._whole())

    @property
    def flat(self):
        """The elements in C order: a view when they are contiguous; otherwise a read-only copy, so a
        write through it raises instead of being lost."""
        r = self.ravel()
        if not self._cp._is_c_contiguous:
            r._cp._set_writeable(False)
        return r

    @property
    def real(self):
        return self

    @property
    def device(self):
        return "cpu"

    # ---- conversion
    def tolist(self):
        flat = _decode(self._cp)
        shape = self.shape
        if not shape:
            return flat[0]
        return _nest(flat, shape)

    def item(self, *args):
        if not args:
            if self.size != 1:
                raise ValueError("[mnn.numpy.ndarray.item] can only convert an array of size 1 to a Python scalar")
            return _decode(self._cp)[0]
        if len(args) == 1 and isinstance(args[0], (tuple, list)):
            args = tuple(args[0])
        if len(args) == 1:
            i = operator.index(args[0])
            if not -self.size <= i < self.size:
                raise IndexError(f"[mnn.numpy.ndarray.item] index {i} is out of bounds for size {self.size}")
            return _decode(_core.reshape(self._cp if self._cp._is_c_contiguous else _core.as_contiguous(self._cp),
                                         [-1, self._n])[i % self.size])[0]
        return _pystr(self[tuple(args)])

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        d = _dtypes.dtype(dtype)
        if casting != "unsafe" and not _dtypes.can_cast(self.dtype, d, casting):
            raise TypeError(f"[mnn.numpy.astype] Cannot cast array data from {self.dtype!r} to {d!r} according to "
                            f"the rule '{casting}'")
        if d.kind == "U":
            n = d.itemsize // 4 or self._n
            if n == self._n:
                return StrArray(_core.copy(self._cp)) if copy else self
            return self._rewidth(n)
        return parse_numbers(_decode(self._cp), self.shape, d)

    def _rewidth(self, n):
        m = self._n
        if n == m:
            return self
        if n < m:
            return StrArray(self._cp[..., :n])
        pad = _core.full(list(self.shape) + [n - m], _core.scalar(0, _U32), _U32)
        return StrArray(_core.concatenate([self._cp, pad], self.ndim, None))

    def copy(self, order="C"):
        return StrArray(_core.copy(self._cp))

    __copy__ = copy

    def __deepcopy__(self, memo=None):
        return self.copy()

    def __array__(self, dtype=None, copy=None):
        import numpy
        r = numpy.frombuffer(bytearray(self.tobytes()), dtype=self.dtype.str).reshape(self.shape) if self.size \
            else numpy.empty(self.shape, self.dtype.str)
        return r if dtype is None else r.astype(dtype)

    def tobytes(self, order="C"):
        """numpy's bytes of a '<U' array: n little-endian UCS4 code points per element, zero-padded."""
        src = self.T if order == "F" else self
        if src.size == 0:
            return b""
        c = src._cp if src._cp._is_c_contiguous else _core.as_contiguous(src._cp)
        return memoryview(c).cast("B").tobytes()

    def __reduce__(self):
        return _rebuild, (_decode(self._cp), self.shape, self._n)

    def __array_namespace__(self, api_version=None):
        return _np()

    # ---- shape manipulation (the engine's, on the leading axes)
    def reshape(self, *shape, order="C", copy=None):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = [operator.index(s) for s in shape]
        if order not in ("C", "A"):
            raise NotImplementedError("[mnn.numpy.reshape] only order='C' is supported for string arrays")
        neg = [i for i, s in enumerate(shape) if s == -1]
        if len(neg) > 1:
            raise ValueError("[mnn.numpy.reshape] can only specify one unknown dimension")
        if neg:
            known = _prod(s for s in shape if s != -1)
            if known == 0 or self.size % known:
                raise ValueError(f"[mnn.numpy.reshape] cannot reshape array of size {self.size} into shape "
                                 f"{tuple(shape)}")
            shape[neg[0]] = self.size // known
        if _prod(shape) != self.size:
            raise ValueError(f"[mnn.numpy.reshape] cannot reshape array of size {self.size} into shape "
                             f"{tuple(shape)}")
        return StrArray(_core.reshape(self._cp, shape + [self._n]))

    def ravel(self, order="C"):
        return self.reshape(-1)

    def flatten(self, order="C"):
        return StrArray(_core.copy(self.reshape(-1)._cp))

    def transpose(self, *axes):
        if len(axes) == 1 and (isinstance(axes[0], (tuple, list)) or axes[0] is None):
            axes = axes[0]
        nd = self.ndim
        if not axes:
            perm = list(range(nd))[::-1]
        else:
            perm = [_axis(a, nd, "transpose") for a in axes]
            if sorted(perm) != list(range(nd)):
                raise ValueError("[mnn.numpy.transpose] axes don't match array")
        return StrArray(_core.transpose(self._cp, perm + [nd]))

    def swapaxes(self, axis1, axis2):
        nd = self.ndim
        perm = list(range(nd))
        a, b = _axis(axis1, nd, "swapaxes"), _axis(axis2, nd, "swapaxes")
        perm[a], perm[b] = perm[b], perm[a]
        return StrArray(_core.transpose(self._cp, perm + [nd]))

    def squeeze(self, axis=None):
        shape = self.shape
        if axis is None:
            keep = [s for s in shape if s != 1]
        else:
            axes = {_axis(a, self.ndim, "squeeze") for a in (axis if isinstance(axis, (tuple, list)) else (axis,))}
            for a in axes:
                if shape[a] != 1:
                    raise ValueError("[mnn.numpy.squeeze] cannot select an axis to squeeze out which has size not "
                                     "equal to one")
            keep = [s for i, s in enumerate(shape) if i not in axes]
        return StrArray(_core.reshape(self._cp, keep + [self._n]))

    def repeat(self, repeats, axis=None):
        src = self.ravel() if axis is None else self
        ax = 0 if axis is None else _axis(axis, self.ndim, "repeat")
        return StrArray(_np().repeat(src._cp, repeats, axis=ax))

    def take(self, indices, axis=None, out=None, mode="raise"):
        src = self.ravel() if axis is None else self
        ax = 0 if axis is None else _axis(axis, self.ndim, "take")
        return _wrap(_np().take(src._cp, indices, axis=ax, mode=mode))

    def fill(self, value):
        _core.assign(self._cp, _core.broadcast_to(_to_codes(value, self._n, "ndarray.fill"), list(self._cp.shape)))

    def view(self, dtype=None, type=None):
        if dtype is not None and _dtypes.dtype(dtype) != self.dtype:
            raise NotImplementedError("[mnn.numpy.ndarray.view] string arrays can only be viewed as their own "
                                      "dtype")
        return StrArray(self._cp[...])

    def nonzero(self):
        return _np().nonzero(self._nonempty())

    def _nonempty(self):
        return _np().any(self._cp != 0, axis=-1)

    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        return _np().any(self._nonempty(), axis=axis, keepdims=keepdims)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        return _np().all(self._nonempty(), axis=axis, keepdims=keepdims)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return _np()._strfuncs.arg_extreme(self, axis, True, keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return _np()._strfuncs.arg_extreme(self, axis, False, keepdims)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        _core.assign(self._cp, _np()._strfuncs.sort(self, axis)._cp)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        return _np()._strfuncs.argsort(self, axis)

    def searchsorted(self, v, side="left", sorter=None):
        return _np()._strfuncs.searchsorted(self, v, side, sorter)

    def to_device(self, device, stream=None):
        if device not in ("cpu", None):
            raise ValueError(f"[mnn.numpy.to_device] unknown device {device!r}")
        return self

    # ---- Python protocols
    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        if self.ndim == 1:
            return iter([_pydtypes_str(s) for s in _decode(self._cp)])
        return (self[i] for i in range(self.shape[0]))

    def __getitem__(self, key):
        ext, has_ellipsis = _ext(key)
        r = self._cp[ext]
        if r.ndim == 1 and not has_ellipsis:
            return _pydtypes_str(_decode(r)[0])
        return StrArray(r)

    def __setitem__(self, key, value):
        ext, _ = _ext(key)
        self._cp[ext] = _to_codes(value, self._n, "ndarray.__setitem__")

    def __contains__(self, value):
        return _pybool((self == value).any())

    def __bool__(self):
        if self.size == 1:
            return _pybool(_decode(self._cp)[0])
        if self.size == 0:
            raise ValueError("[mnn.numpy.ndarray.__bool__] The truth value of an empty array is ambiguous. Use "
                             "`array.size > 0` to check that an array is not empty.")
        raise ValueError("[mnn.numpy.ndarray.__bool__] The truth value of an array with more than one element is "
                         "ambiguous. Use a.any() or a.all()")

    def __repr__(self):
        from ._strings_io import format_array
        return format_array(self, True)

    def __str__(self):
        from ._strings_io import format_array
        return format_array(self, False)

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("[mnn.numpy.ndarray.__format__] unsupported format string passed to "
                            "numpy.ndarray.__format__")
        return str(self)

    # ---- comparisons (numpy compares code points, ignoring trailing NULs) and + (numpy 2 concatenates)
    def __eq__(self, other):
        return _np()._strfuncs.compare(self, other, "equal")

    def __ne__(self, other):
        return _np()._strfuncs.compare(self, other, "not_equal")

    def __lt__(self, other):
        return _np()._strfuncs.compare(self, other, "less")

    def __le__(self, other):
        return _np()._strfuncs.compare(self, other, "less_equal")

    def __gt__(self, other):
        return _np()._strfuncs.compare(self, other, "greater")

    def __ge__(self, other):
        return _np()._strfuncs.compare(self, other, "greater_equal")

    def __add__(self, other):
        return _np()._strfuncs.ufunc_add(self, other)

    def __radd__(self, other):
        return _np()._strfuncs.ufunc_add(other, self)

    def __mul__(self, other):
        raise TypeError("[mnn.numpy.multiply] The 'out' kwarg is necessary when using the string multiply ufunc "
                        "directly. Use numpy.strings.multiply to multiply strings without specifying 'out'.")

    __rmul__ = __mul__


def _scalar_conversion(conv):
    # numpy parses a 0-d string array: float(np.array('1.5')) is 1.5
    def method(self):
        if self.ndim != 0:
            raise TypeError(f"[mnn.numpy.ndarray.__{conv.__name__}__] only 0-dimensional arrays can be converted to "
                            f"Python scalars")
        return conv(self.item())
    method.__name__ = f"__{conv.__name__}__"
    return method


StrArray.__float__ = _scalar_conversion(_pyfloat)
StrArray.__int__ = _scalar_conversion(_pyint)
StrArray.__complex__ = _unsupported("complex")  # numpy: "Unable to convert dtype('<U4') to complex"


def _pydtypes_str(s):
    return _dtypes.str_(s)


def _nest(flat, shape):
    if len(shape) == 1:
        return list(flat)
    step = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def _axis(a, nd, fn):
    a = operator.index(a)
    if not -nd <= a < nd:
        raise _core.AxisError(f"[mnn.numpy.{fn}] axis {a} is out of bounds for array of dimension {nd}")
    return a % nd


def _wrap(cp):
    """An engine result of indexing a code array: a scalar str for one element, else a StrArray."""
    return _pydtypes_str(_decode(cp)[0]) if cp.ndim == 1 else StrArray(cp)


def _rebuild(flat, shape, n):
    return StrArray(_encode(flat, n, shape))


# numpy's errors for the arithmetic ufuncs and reductions strings have no loop for
for _name, _uf in (("__sub__", "subtract"), ("__rsub__", "subtract"), ("__truediv__", "divide"),
                   ("__rtruediv__", "divide"), ("__floordiv__", "floor_divide"), ("__rfloordiv__", "floor_divide"),
                   ("__mod__", "remainder"), ("__pow__", "power"), ("__rpow__", "power"), ("__matmul__", "matmul"),
                   ("__rmatmul__", "matmul"), ("__and__", "bitwise_and"), ("__or__", "bitwise_or"),
                   ("__xor__", "bitwise_xor"), ("__lshift__", "left_shift"), ("__rshift__", "right_shift"),
                   ("__neg__", "negative"), ("__pos__", "positive"), ("__abs__", "absolute"),
                   ("__invert__", "invert"), ("__iadd__", "add"), ("__isub__", "subtract"), ("__imul__", "multiply"),
                   ("round", "rint"), ("clip", "maximum"), ("conj", "conjugate"), ("conjugate", "conjugate"),
                   ("dot", "matmul")):
    setattr(StrArray, _name, _unsupported(_uf))
for _name, _uf in (("sum", "add"), ("prod", "multiply"), ("mean", "add"), ("std", "add"), ("var", "add"),
                   ("cumsum", "add"), ("cumprod", "multiply"), ("max", "maximum"), ("min", "minimum"),
                   ("ptp", "subtract"), ("trace", "add")):
    setattr(StrArray, _name, _unsupported_reduce(_name, _uf))
StrArray.__module__ = "mnn.numpy"


# ------------------------------------------------------------------ str -> numbers


def parse_numbers(flat, shape, d):
    """numpy's astype from strings: int()/float()/complex() parsing, bool is 'non-empty'."""
    k = d.kind
    if k == "b":
        vals = [s != "" for s in flat]
    else:
        conv = _pyint if k in "iu" else _pyfloat if k == "f" else _pycomplex
        vals = []
        for s in flat:
            try:
                vals.append(conv(s.strip()) if k != "c" else conv(s.strip().replace(" ", "")))
            except ValueError:
                raise ValueError(f"[mnn.numpy.astype] invalid literal for {conv.__name__}() with base 10: {s!r}"
                                 if k in "iu" else f"[mnn.numpy.astype] could not convert string to "
                                 f"{conv.__name__}: {s!r}") from None
        if k in "iu":
            info = _dtypes.iinfo(d)
            for v in vals:
                if not info.min <= v <= info.max:
                    raise OverflowError(f"[mnn.numpy.astype] Python integer {v} out of bounds for {d.name}")
    return _core.from_list(vals, list(shape), d._code)


# ------------------------------------------------------------------ isinstance(x, np.ndarray)


def install(ndarray):
    """Makes isinstance(StrArray, ndarray) and issubclass(StrArray, ndarray) hold: the engine's type
    gets a metaclass (a subclass of pybind11's) that also accepts StrArray. An exact ndarray still
    takes CPython's fast path (type(x) is cls), so numeric code pays nothing for it."""
    meta = type(ndarray)
    if getattr(meta, "_mnn_str_aware", False):
        return

    class _NdarrayMeta(meta):
        _mnn_str_aware = True

        def __instancecheck__(cls, inst):
            return type.__instancecheck__(cls, inst) or (cls is ndarray and type(inst) is StrArray)

        def __subclasscheck__(cls, sub):
            return type.__subclasscheck__(cls, sub) or (cls is ndarray and sub is StrArray)

    ndarray.__class__ = _NdarrayMeta
