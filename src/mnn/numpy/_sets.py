"""Set routines: unique (and the Array API's unique_*), isin, intersect1d, union1d, setdiff1d, setxor1d.

All are sort based, as numpy's are: one stable argsort, then run boundaries found by comparing
neighbours, turned into positions by the native sorting_mask_positions. Results, dtypes and
orders match numpy's (numpy 2.4 removed in1d; use isin).
"""
from collections import namedtuple

from .. import _core
from . import _dtypes
from ._common import asarray
from ._sorting import _prim, argsort, gather, mask_positions, searchsorted, sort

_B, _I64 = _dtypes.dtype("bool"), _dtypes.dtype("int64")

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _ravel(a):
    return _core.reshape(asarray(a), [-1])


def _take(a, idx):
    return _prim("take", [a, idx], [0])


def _compress(a, mask):
    """a[mask] for 1-D a (numpy's boolean indexing, without a general fancy-index engine)."""
    return _take(a, mask_positions(mask))


def _cat(xs, dtype=None):
    return _core.concatenate([asarray(x) for x in xs], 0, None if dtype is None else dtype._code)


def _bool1(value):
    return _core.full([1], _core.scalar(bool(value), _B._code), _B._code)


def _run_starts(s, equal_nan):
    """flags[i]: sorted s[i] starts a new run of equal values (NaNs one run when equal_nan)."""
    neq = s[1:] != s[:-1]
    if equal_nan and s.dtype.kind == "f":
        from ._ufuncs import UFUNCS
        isnan = UFUNCS["isnan"]
        neq = neq & ~(isnan(s[1:]) & isnan(s[:-1]))
    return _cat([_bool1(True), neq])


def _unique1d(ar, return_index, return_inverse, return_counts, equal_nan):
    n = ar.size
    need_perm = return_index or return_inverse
    perm = argsort(ar) if need_perm else None
    s = gather(ar, perm, 0) if need_perm else sort(ar)
    if n == 0:
        empty = _core.full([0], _core.scalar(0, _I64._code), _I64._code)
        return s, empty, empty, empty
    flags = _run_starts(s, equal_nan)
    starts = mask_positions(flags)
    values = _take(s, starts)
    index = _take(perm, starts) if return_index else None
    inverse = None
    if return_inverse:
        from ._reductions import cumsum
        group = cumsum(flags.astype(_I64)) - 1
        inverse = _prim("scatter_add", [group, perm], [0, n])
    counts = None
    if return_counts:
        ends = _cat([starts[1:], _core.full([1], _core.scalar(n, _I64._code), _I64._code)])
        counts = ends - starts
    return values, index, inverse, counts


def _unique_rows(ar, axis, return_index, return_inverse, return_counts):
    """unique along an axis: rows compared lexicographically, as numpy's structured view does."""
    from ._manipulation import moveaxis
    a = moveaxis(ar, axis, 0)
    shape = list(a.shape)
    n = shape[0]
    m = 1
    for d in shape[1:]:
        m *= d
    a2 = _core.reshape(_core.as_contiguous(a), [n, m])
    if m == 0 or n == 0:
        # numpy: all rows of width 0 are equal (one unique row when there is any row).
        k = 1 if n else 0
        idx = _core.full([k], _core.scalar(0, _I64._code), _I64._code)
        vals = _core.reshape(_take(a2, idx) if n else a2, [k] + shape[1:])
        inv = _core.full([n], _core.scalar(0, _I64._code), _I64._code)
        cnt = _core.full([k], _core.scalar(n, _I64._code), _I64._code)
        return moveaxis(vals, 0, axis), idx, inv, cnt
    perm = argsort(a2[:, m - 1])
    for j in range(m - 2, -1, -1):
        col = gather(a2[:, j], perm, 0)
        perm = gather(perm, argsort(col), 0)
    s = _take(a2, perm)
    from ._reductions import any as _any
    flags = _cat([_bool1(True), _any(s[1:] != s[:-1], axis=1)])
    starts = mask_positions(flags)
    vals = _core.reshape(_take(s, starts), [-1] + shape[1:])
    index = _take(perm, starts)
    inverse = counts = None
    if return_inverse:
        from ._reductions import cumsum
        group = cumsum(flags.astype(_I64)) - 1
        inverse = _prim("scatter_add", [group, perm], [0, n])
    if return_counts:
        ends = _cat([starts[1:], _core.full([1], _core.scalar(n, _I64._code), _I64._code)])
        counts = ends - starts
    return moveaxis(vals, 0, axis), index, inverse, counts


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):  # noqa: A002
    ar = asarray(ar)
    if axis is None:
        v, i, inv, c = _unique1d(_ravel(ar), return_index, return_inverse, return_counts, equal_nan)
        if inv is not None:
            inv = _core.reshape(inv, list(ar.shape))
    else:
        from ._sorting import _axis
        ax = _axis(axis, ar.ndim, "unique")
        v, i, inv, c = _unique_rows(ar, ax, return_index, return_inverse, return_counts)
    out = [v]
    if return_index:
        out.append(i)
    if return_inverse:
        out.append(inv)
    if return_counts:
        out.append(c)
    return out[0] if len(out) == 1 else tuple(out)


def unique_all(x):
    v, i, inv, c = unique(x, True, True, True, equal_nan=False)
    return UniqueAllResult(v, i, inv, c)


def unique_counts(x):
    v, c = unique(x, return_counts=True, equal_nan=False)
    return UniqueCountsResult(v, c)


def unique_inverse(x):
    v, inv = unique(x, return_inverse=True, equal_nan=False)
    return UniqueInverseResult(v, inv)


def unique_values(x):
    return unique(x, equal_nan=False)


def _common(a, b):
    dt = _dtypes.result_type(a, b)
    return (a if a.dtype == dt else a.astype(dt)), (b if b.dtype == dt else b.astype(dt))


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    if kind not in (None, "sort", "table"):
        raise ValueError(f"[mnn.numpy.isin] Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    e = asarray(element)
    t = _ravel(test_elements)
    if t.size == 0 or e.size == 0:
        from ._creation import full
        return full(e.shape, bool(invert), _B)
    e, t = _common(e, t)
    st = sort(t)
    pos = searchsorted(st, e)
    pos = _core.ufunc(_core.OPCODES["minimum"], pos, st.size - 1)
    found = _core.reshape(_take(st, _core.reshape(pos, [-1])), list(e.shape)) == e
    return ~found if invert else found


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    ar1, ar2 = asarray(ar1), asarray(ar2)
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = _ravel(ar1), _ravel(ar2)
    dt = _dtypes.result_type(ar1, ar2)
    aux = _cat([ar1, ar2], dt)
    if return_indices:
        order = argsort(aux)
        aux = gather(aux, order, 0)
    else:
        aux = sort(aux)
    mask = aux[1:] == aux[:-1]
    pos = mask_positions(mask)
    int1d = _take(aux[:-1], pos)
    if not return_indices:
        return int1d
    i1 = _take(order[:-1], pos)
    i2 = _take(order[1:], pos) - ar1.size
    if not assume_unique:
        i1 = _take(ind1, i1)
        i2 = _take(ind2, i2)
    return int1d, i1, i2


def union1d(ar1, ar2):
    ar1, ar2 = _ravel(ar1), _ravel(ar2)
    return unique(_cat([ar1, ar2], _dtypes.result_type(ar1, ar2)))


def setdiff1d(ar1, ar2, assume_unique=False):
    ar1 = _ravel(ar1) if assume_unique else unique(ar1)
    ar2 = _ravel(ar2) if assume_unique else unique(ar2)
    return _compress(ar1, isin(ar1, ar2, invert=True))


def setxor1d(ar1, ar2, assume_unique=False):
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = _ravel(ar1), _ravel(ar2)
    aux = _cat([ar1, ar2], _dtypes.result_type(ar1, ar2))
    if aux.size == 0:
        return aux
    aux = sort(aux)
    flag = _cat([_bool1(True), aux[1:] != aux[:-1], _bool1(True)])
    return _compress(aux, flag[1:] & flag[:-1])
