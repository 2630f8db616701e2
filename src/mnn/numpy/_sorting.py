"""Sorting and searching: sort, argsort, partition, argpartition, searchsorted, lexsort, count_nonzero.

The work is done by native primitives (csrc/ops/sorting/): every sort is stable and puts NaNs
last, as numpy's does; partitions honour numpy's guarantee (the kth element in its sorted place,
nothing larger before it, nothing smaller after it).
"""
import operator

from .. import _core
from . import _dtypes
from ._common import asarray, ndarray

_B, _I64 = _dtypes.dtype("bool"), _dtypes.dtype("int64")

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _prim(name, xs, ints=()):
    return _core.prim(name, list(xs), [int(i) for i in ints], [])


def _axis(axis, nd, fn):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"[mnn.numpy.{fn}] 'axis' must be None or an integer") from None
    if not -nd <= axis < nd:
        raise _core.AxisError(f"[mnn.numpy.{fn}] axis {axis} is out of bounds for array of dimension {nd}")
    return axis % nd


def _check_kind(kind, order, fn):
    if kind not in _KINDS:
        raise ValueError(f"[mnn.numpy.{fn}] sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    if order is not None:
        raise ValueError(f"[mnn.numpy.{fn}] Cannot specify order when the array has no fields.")


def _flat_or(a, axis):
    """axis=None sorts the flattened array; numpy's argsort/argpartition see a 0-d input as 1-d."""
    if axis is None:
        return _core.reshape(a, [-1]), 0
    return a, axis


def gather(a, idx, axis):
    """take_along_axis for indices whose shape matches `a` off the axis (used by the statistics)."""
    return _prim("sorting_gather", [a, idx], [axis])


def mask_positions(mask):
    """Flat positions of the true elements of a bool array (int64, 1-D)."""
    return _prim("sorting_mask_positions", [_core.reshape(asarray(mask), [-1])])


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """numpy.sort; descending= is the Array API's (the ascending result reversed: NaNs first)."""
    _check_kind(kind, order, "sort")
    a = asarray(a)
    a, axis = _flat_or(a, axis)
    ax = _axis(axis, a.ndim, "sort")
    if a.dtype.kind == "c":
        from ._indexing import take_along_axis
        r = take_along_axis(a, _complex_order(a, ax), axis=ax)
    else:
        r = _prim("sort", [a], [ax])
    if descending:
        from ._manipulation import flip
        r = flip(r, axis=ax)
    return r


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """numpy.argsort; descending= is the Array API's: equal elements keep their order (stable)."""
    _check_kind(kind, order, "argsort")
    a = asarray(a)
    a, axis = _flat_or(a, axis)
    if a.ndim == 0:
        a = _core.reshape(a, [1])
    ax = _axis(axis, a.ndim, "argsort")
    if a.dtype.kind == "c":
        order = _complex_order(a, ax)
        if descending:
            from ._manipulation import flip
            order = (a.shape[ax] - 1) - flip(_complex_order(flip(a, axis=ax), ax), axis=ax)
        return order
    if not descending:
        return _prim("argsort", [a], [ax])
    # sort the reversed array ascending (stable), reverse that order and map back to the original
    # positions: ties then come out first-seen first, as a stable descending sort must.
    from ._manipulation import flip
    rev = flip(_prim("argsort", [flip(a, axis=ax)], [ax]), axis=ax)
    return (a.shape[ax] - 1) - rev


def _complex_order(a, ax):
    """numpy's complex order: by real part, then imaginary part; NaNs (in either part) last."""
    from ._complex import imag, real
    return lexsort((imag(a), real(a)), axis=ax)


def sort_complex(a):
    """The array sorted along its last axis, as complex (8/16-bit integers: complex64, else complex128)."""
    b = sort(asarray(a))
    if b.dtype.kind == "c":
        return b
    small = b.dtype.name in ("int8", "int16", "uint8", "uint16")
    return b.astype(_dtypes.dtype("complex64" if small else "complex128"))


def _kths(kth, n, fn):
    ks = kth if isinstance(kth, (list, tuple, ndarray)) else [kth]
    if isinstance(ks, ndarray):
        if ks.dtype.kind not in "iu":
            raise TypeError(f"[mnn.numpy.{fn}] Partition index must be integer")
        ks = ks.tolist()
        ks = ks if isinstance(ks, list) else [ks]
    out = []
    for k in ks:
        if isinstance(k, bool) or not hasattr(k, "__index__"):
            raise TypeError(f"[mnn.numpy.{fn}] Partition index must be integer")
        k = operator.index(k)
        if not -n <= k < n:
            raise ValueError(f"[mnn.numpy.{fn}] kth(={k}) out of bounds ({n})")
        out.append(k % n)
    return out


def _partition(name, a, kth, axis, kind, order):
    if kind != "introselect":
        raise ValueError(f"[mnn.numpy.{name}] Unknown selection kind {kind!r}")
    if order is not None:
        raise ValueError(f"[mnn.numpy.{name}] Cannot specify order when the array has no fields.")
    a = asarray(a)
    a, axis = _flat_or(a, axis)
    if a.ndim == 0 and name == "argpartition":
        a = _core.reshape(a, [1])
    ax = _axis(axis, a.ndim, name)
    return _prim(name, [a], [ax] + _kths(kth, a.shape[ax], name))


def partition(a, kth, axis=-1, kind="introselect", order=None):
    return _partition("partition", a, kth, axis, kind, order)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    return _partition("argpartition", a, kth, axis, kind, order)


def searchsorted(a, v, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"[mnn.numpy.searchsorted] search side must be 'left' or 'right' (got {side!r})")
    a = asarray(a)
    if a.ndim != 1:
        raise ValueError("[mnn.numpy.searchsorted] object too deep for desired array")
    dt = _dtypes.result_type(a, v if isinstance(v, (int, float, bool, ndarray)) else asarray(v))
    v = asarray(v)
    if sorter is not None:
        sorter = asarray(sorter)
        if sorter.dtype.kind not in "iu":
            raise TypeError("[mnn.numpy.searchsorted] sorter must only contain integers")
        if sorter.shape != a.shape:
            raise ValueError("[mnn.numpy.searchsorted] sorter.size must equal a.size")
        if sorter.size:
            lo, hi = int(sorter.min()), int(sorter.max())
            if lo < 0 or hi >= a.size:
                raise ValueError("[mnn.numpy.searchsorted] Sorter index out of range.")
        a = _prim("take", [a, sorter.astype("int64")], [0])
    if a.dtype != dt:
        a = a.astype(dt)
    if v.dtype != dt:
        v = v.astype(dt)
    return _prim("searchsorted", [a, v], [side == "right"])


def lexsort(keys, axis=-1):
    if isinstance(keys, ndarray):
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim else [keys]
    else:
        keys = [asarray(k) for k in keys]
    if not keys:
        raise TypeError("[mnn.numpy.lexsort] need sequence of keys with len > 0 in lexsort")
    shape = tuple(keys[0].shape)
    if any(tuple(k.shape) != shape for k in keys):
        raise ValueError("[mnn.numpy.lexsort] all keys need to be the same shape")
    if not shape:
        return _core.full([], _core.scalar(0, _I64._code), _I64._code)
    ax = _axis(axis, len(shape), "lexsort")
    # Least significant key first: each stable pass keeps the order of the previous ones among ties.
    idx = argsort(keys[0], axis=ax)
    for k in keys[1:]:
        idx = gather(idx, argsort(gather(k, idx, ax), axis=ax), ax)
    return idx


def count_nonzero(a, axis=None, *, keepdims=False):
    from ._common import axis_tuple
    from ._reductions import _zero_d_axis
    from ._reductions import sum as _sum
    a = asarray(a)
    if a.dtype.kind == "c":
        return _sum(a != 0, axis=axis, dtype=_I64, keepdims=keepdims)
    # one native pass counting x != 0 into int64 (numpy's intp), no boolean temporary
    axis = _zero_d_axis(a, axis)
    return _core.reduce(8, a, axis_tuple(axis, "count_nonzero"), bool(keepdims), None, "count_nonzero")


def _sort_method(self, axis=-1, kind=None, order=None, *, stable=None):
    if not self._writeable:
        raise ValueError("[mnn.numpy.ndarray.sort] assignment destination is read-only")
    if axis is None:  # numpy's method takes an integer axis only
        raise TypeError("[mnn.numpy.ndarray.sort] 'NoneType' object cannot be interpreted as an integer")
    _core.assign(self, sort(self, axis, kind, order))


def _partition_method(self, kth, axis=-1, kind="introselect", order=None):
    if not self._writeable:
        raise ValueError("[mnn.numpy.ndarray.partition] assignment destination is read-only")
    _core.assign(self, partition(self, kth, axis, kind, order))


def _install():
    methods = {
        "sort": _sort_method,
        "argsort": lambda s, axis=-1, kind=None, order=None, *, stable=None: argsort(s, axis, kind, order),
        "partition": _partition_method,
        "argpartition": lambda s, kth, axis=-1, kind="introselect", order=None: argpartition(s, kth, axis, kind,
                                                                                             order),
        "searchsorted": lambda s, v, side="left", sorter=None: searchsorted(s, v, side, sorter),
    }
    for name, fn in methods.items():
        setattr(ndarray, name, fn)


_install()
