"""Reductions: sum, prod, min/max, mean/var/std, argmin/argmax, all/any, cumsum/cumprod."""
import builtins
import math

from .. import _core
from . import _dtypes
from ._common import asarray, axis_tuple, opt_dtype_code, write_out

_SUM, _PROD, _MAX, _MIN, _ANY, _ALL = range(6)


_IDENTITY = {_SUM: 0, _PROD: 1, _ALL: True, _ANY: False}
_OP_NAME = {_SUM: "add", _PROD: "multiply", _MAX: "maximum", _MIN: "minimum", _ANY: "logical_or", _ALL: "logical_and"}


def _masked_input(kind, fn, a, initial, where):
    """numpy's where=: excluded elements take the operation's identity (max/min: `initial`)."""
    fill = _IDENTITY.get(kind, initial)
    if fill is None:
        raise ValueError(f"[mnn.numpy.{fn}] reduction operation '{_OP_NAME[kind]}' does not have an identity, "
                         "so to use a where mask one has to specify 'initial'")
    w = asarray(where)
    if w.dtype != _dtypes.bool_:
        w = _core.ufunc(_core.OPCODES["not_equal"], w, 0)
    return _core.ufunc(_core.OPCODES["where"], w, a, asarray(fill).astype(a.dtype))


def _where_count(a, axis, keepdims, where):
    """How many elements each mean/var output averages: all of them, or those `where` selects."""
    if where is True:
        return _count(a, axis)
    w = _core.broadcast_to(asarray(where), list(a.shape))
    return _core.reduce(_SUM, w, axis_tuple(axis, "mean"), bool(keepdims), opt_dtype_code("int64"), "mean")


def _memory_order(a, axis, keepdims, compute):
    """compute(view, axes, keepdims=True) on `a` with its axes in memory order, as numpy's K-order.

    A cast or elementwise temporary (astype, x - mean) comes out C-ordered here but in the input's
    memory order in numpy, and the reduction's summation order follows it: a float64 var over
    axis 1 of an F-ordered array sums one column after another in numpy, pairwise in a C copy."""
    nd = a.ndim
    perm = sorted(range(nd), key=lambda d: (-abs(a.strides[d]) if a.shape[d] > 1 else -(2 ** 62), d))
    axes = axis_tuple(axis, "reduce")
    big = [abs(a.strides[d]) for d in range(nd) if a.shape[d] > 1]  # size-1 dims: any stride, no order
    if big == sorted(big, reverse=True):
        return None
    if nd < 2 or builtins.any(not -nd <= x < nd for x in (axes or ())):
        return None  # C-ordered already, or a bad axis: the plain path (and its numpy error)
    axes = list(range(nd)) if axes is None else [x % nd for x in axes]
    if len(set(axes)) != len(axes):
        return None
    t = _core.transpose(a, perm)
    r = compute(t, tuple(perm.index(x) for x in axes))
    inv = [perm.index(d) for d in range(nd)]
    r = _core.transpose(r, inv)
    if not keepdims:
        r = _core.reshape(r, [d for i, d in enumerate(a.shape) if i not in axes])
    return r


def _reduce(kind, fn, a, axis, dtype, out, keepdims, initial=None, where=True):
    a = asarray(a)
    if where is True and initial is None and dtype is not None and a.ndim >= 2 and \
            _dtypes.dtype(dtype) != a.dtype and (axis is None or isinstance(axis, (int, tuple, list))):
        r = _memory_order(a, axis, keepdims,
                          lambda t, ax: _core.reduce(kind, t, ax, True, opt_dtype_code(dtype), fn))
        if r is not None:
            return write_out(r, out, fn, "unsafe")
    if where is not True:
        a = _masked_input(kind, fn, a, initial, where)
    axis = _zero_d_axis(a, axis)
    r = _core.reduce(kind, a, axis_tuple(axis, fn), bool(keepdims), opt_dtype_code(dtype), fn)
    if initial is not None:
        op = {_SUM: "add", _PROD: "multiply", _MAX: "maximum", _MIN: "minimum"}[kind]
        r = _core.ufunc(_core.OPCODES[op], r, initial).astype(r.dtype)
    return write_out(r, out, fn, "unsafe")


def _zero_d_axis(a, axis):
    """numpy's ufunc reductions accept a plain integer axis 0 or -1 on a 0-d array (not a tuple)."""
    if a.ndim == 0 and not isinstance(axis, (tuple, list)) and axis is not None:
        try:
            if int(axis) in (0, -1):
                return None
        except TypeError:
            pass
    return axis


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    return _reduce(_SUM, "sum", a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce(_PROD, "prod", a, axis, dtype, out, keepdims, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    a = asarray(a)
    if initial is not None and a.size == 0:
        from ._creation import full
        return full(_kept_shape(a, axis, keepdims), initial, a.dtype)
    return _reduce(_MAX, "max", a, axis, None, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    a = asarray(a)
    if initial is not None and a.size == 0:
        from ._creation import full
        return full(_kept_shape(a, axis, keepdims), initial, a.dtype)
    return _reduce(_MIN, "min", a, axis, None, out, keepdims, initial, where)


amax, amin = max, min


def _kept_shape(a, axis, keepdims):
    axes = axis_tuple(axis, "reduce")
    axes = list(range(a.ndim)) if axes is None else [x % a.ndim for x in axes]
    return [1 if i in axes else d for i, d in enumerate(a.shape)] if keepdims else \
        [d for i, d in enumerate(a.shape) if i not in axes]


def all(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    return _reduce(_ALL, "all", a, axis, None, out, keepdims, None, where)


def any(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    return _reduce(_ANY, "any", a, axis, None, out, keepdims, None, where)


def _count(a, axis):
    axes = axis_tuple(axis, "mean")
    if axes is None:
        return a.size
    for x in axes:
        if not -a.ndim <= x < a.ndim:
            raise _core.AxisError(f"[mnn.numpy.mean] axis {x} is out of bounds for array of dimension {a.ndim}")
    return math.prod(a.shape[x] for x in axes)


def _var_dtype(a, dtype):
    """numpy's var: like mean, except float16 stays float16 all the way."""
    if dtype is None and a.dtype == _dtypes.float16:
        return _dtypes.float16, _dtypes.float16
    return _mean_dtype(a, dtype)


def _mean_dtype(a, dtype):
    """numpy: integers average in float64; float16 accumulates in float32 and returns float16."""
    if dtype is not None:
        d = _dtypes.dtype(dtype)
        return d, d
    if a.dtype.kind in "biu":
        return _dtypes.float64, _dtypes.float64
    if a.dtype == _dtypes.float16:
        return _dtypes.float32, _dtypes.float16
    return a.dtype, a.dtype


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    a = asarray(a)
    acc, res = _mean_dtype(a, dtype)
    s = _reduce(_SUM, "mean", a, axis, acc, None, keepdims, None, where)
    n = _where_count(a, axis, keepdims, where)
    r = s / n if s.dtype.kind == "f" else (s / n).astype(acc)
    if r.dtype != res:
        r = r.astype(res)
    return write_out(r, out, "mean", "unsafe")


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """Two-pass variance as numpy computes it: mean, then the mean square deviation."""
    if correction is not None:
        ddof = correction
    a = asarray(a)
    if where is True and mean is None and a.ndim >= 2 and (axis is None or isinstance(axis, (int, tuple, list))):
        r = _memory_order(a, axis, keepdims, lambda t, ax: var(t, ax, dtype, None, ddof, True))
        if r is not None:
            return write_out(r, out, "var", "unsafe")
    acc, res = _var_dtype(a, dtype)
    x = a.astype(acc) if a.dtype != acc else a
    n = _where_count(a, axis, keepdims, where)
    nk = n if where is True or keepdims else _where_count(a, axis, True, where)
    m = _reduce(_SUM, "var", x, axis, None, None, True, None, where) / nk if mean is None else asarray(mean)
    d = x - m
    if d.dtype.kind == "c":  # numpy: |d|^2 = (d * conj(d)).real, and a real result
        re, im = _core.ufunc(_core.OPCODES["real"], d), _core.ufunc(_core.OPCODES["imag"], d)
        sq = re * re + im * im
        res = {"complex64": _dtypes.float32, "complex128": _dtypes.float64}.get(res.name, res)
    else:
        sq = d * d
    s = _reduce(_SUM, "var", sq, axis, None, None, keepdims, None, where)
    r = s / (builtins.max(n - ddof, 0) if where is True else _core.ufunc(_core.OPCODES["maximum"], n - ddof, 0))
    if r.dtype != res:
        r = r.astype(res)
    return write_out(r, out, "var", "unsafe")


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    r = var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    return write_out(_core.ufunc(_core.OPCODES["sqrt"], r), out, "std")  # numpy's final sqrt is a ufunc


def _arg(kind, fn, a, axis, out, keepdims):
    a = asarray(a)
    ax = None if axis is None else int(axis)
    if a.ndim == 0 and ax is not None:  # numpy treats a 0-d input as 1-d here
        if ax not in (0, -1):
            raise _core.AxisError(f"[mnn.numpy.{fn}] axis {ax} is out of bounds for array of dimension 1")
        ax = None
    return write_out(_core.argreduce(kind, a, ax, bool(keepdims), fn), out, fn, "unsafe")


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _arg(0, "argmax", a, axis, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _arg(1, "argmin", a, axis, out, keepdims)


def _scan_input(a, axis):
    a = asarray(a)
    return _core.reshape(a, [1]) if a.ndim == 0 and axis is not None else a  # numpy: 0-d scans as 1-d


def cumsum(a, axis=None, dtype=None, out=None):
    a = _scan_input(a, axis)
    return write_out(_core.scan(0, a, None if axis is None else int(axis), opt_dtype_code(dtype), "cumsum"), out,
                     "cumsum", "unsafe")


def cumprod(a, axis=None, dtype=None, out=None):
    a = _scan_input(a, axis)
    return write_out(_core.scan(1, a, None if axis is None else int(axis), opt_dtype_code(dtype), "cumprod"), out,
                     "cumprod", "unsafe")
