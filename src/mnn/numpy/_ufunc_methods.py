"""numpy's ufunc methods (np.add.reduce, np.maximum.accumulate, np.multiply.outer, np.add.at, ...)
for mnn's elementwise functions, built from the functions themselves and the reductions.

reduce/accumulate of add and multiply are sum/prod and cumsum/cumprod (same dtype rules and
summation as numpy's). Other associative operators reduce as a balanced tree and accumulate as a
log-step scan (a few graph nodes per doubling, exact since they are max/min/logical/bitwise);
the rest fold left to right, which is numpy's order for subtract, divide, power, ..."""

from .. import _core
from . import _dtypes
from ._common import asarray, axis_tuple, write_out

_SUM_LIKE = {"add": ("sum", "cumsum"), "multiply": ("prod", "cumprod")}
_NAMED_REDUCE = {"maximum": "max", "minimum": "min", "logical_and": "all", "logical_or": "any"}
# reorderable operators: any grouping and order of operands gives the same (exact) answer
_ASSOCIATIVE = {"add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
                "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm"}
# numpy lets these reduce over several axes at once (they have an identity); the non-exact ones fold
REORDERABLE = _ASSOCIATIVE | {"hypot", "logaddexp", "logaddexp2"}
IDENTITY = {"add": 0, "multiply": 1, "logical_and": True, "logical_or": False, "logical_xor": False,
            "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0, "gcd": 0, "lcm": None, "hypot": 0,
            "logaddexp": -float("inf"), "logaddexp2": -float("inf")}


def _mnp():
    import sys
    return sys.modules["mnn.numpy"]


def _take(a, axis, start, stop, step=1):
    idx = [slice(None)] * a.ndim
    idx[axis] = slice(start, stop, step)
    return a[tuple(idx)]


def _normalize_axis(axis, ndim, name):
    if not -ndim <= axis < ndim:
        raise _core.AxisError(f"[mnn.numpy.{name}] axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _empty_reduce(fn, name, a, axis, initial):
    ident = initial if initial is not None else IDENTITY.get(name)
    if ident is None:
        raise ValueError(f"[mnn.numpy.{name}.reduce] zero-size array to reduction operation {name} "
                         "which has no identity")
    shape = [s for i, s in enumerate(a.shape) if i != axis]
    dt = fn(_core.reshape(a, [-1])[:0], _core.reshape(a, [-1])[:0]).dtype if a.ndim else a.dtype
    return _mnp().full(tuple(shape), ident, dtype=dt)


def _reduce_one_axis(fn, name, a, axis, initial):
    n = a.shape[axis]
    if n == 0:
        return _empty_reduce(fn, name, a, axis, initial)
    if name in _ASSOCIATIVE:
        r = a
        while r.shape[axis] > 1:  # pair neighbours: log2(n) graph nodes
            m = r.shape[axis]
            half = fn(_take(r, axis, 0, m - m % 2, 2), _take(r, axis, 1, m, 2))
            r = half if m % 2 == 0 else _mnp().concatenate([half, _take(r, axis, m - 1, m)], axis=axis)
        r = _mnp().squeeze(r, axis=axis)
    else:
        r = _mnp().squeeze(_take(a, axis, 0, 1), axis=axis)
        for i in range(1, n):
            r = fn(r, _mnp().squeeze(_take(a, axis, i, i + 1), axis=axis))
    if initial is not None:
        r = fn(initial, r)
    return r


def reduce(fn, name, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """ufunc.reduce: apply the binary operator along `axis` (None: all axes; a tuple for reorderable ones)."""
    if fn.nin != 2:
        raise ValueError(f"[mnn.numpy.{name}.reduce] reduce only supported for binary functions")
    a = asarray(array)
    mnp = _mnp()
    if name in _SUM_LIKE or name in _NAMED_REDUCE and dtype is None:
        red = getattr(mnp, _SUM_LIKE[name][0] if name in _SUM_LIKE else _NAMED_REDUCE[name])
        kw = {"keepdims": keepdims}
        if name in _SUM_LIKE:
            kw["dtype"] = dtype
        if initial is not None and name != "logical_and" and name != "logical_or":
            kw["initial"] = initial
        if where is not True:
            kw["where"] = where
        r = red(a, axis=axis, **kw)
        return write_out(r, out, f"{name}.reduce", casting="unsafe")
    if where is not True:
        # excluded elements count as the identity (numpy needs one, or an initial, to allow where=)
        ident = initial if initial is not None else IDENTITY.get(name)
        if ident is None:
            raise ValueError(f"[mnn.numpy.{name}.reduce] reduction operation '{name}' does not have an identity, "
                             "so to use a where mask one has to specify 'initial'")
        a = mnp.where(where, a, mnp.asarray(ident).astype(a.dtype if dtype is None else dtype))
    if dtype is not None:
        a = a.astype(dtype)
    if a.ndim == 0:
        if axis not in (None, 0, (), []):
            raise _core.AxisError(f"[mnn.numpy.{name}.reduce] axis {axis} is out of bounds for array of dimension 0")
        return write_out(a if initial is None else fn(initial, a), out, f"{name}.reduce", casting="unsafe")
    axes = list(range(a.ndim)) if axis is None else axis_tuple(axis, f"{name}.reduce")
    axes = sorted({_normalize_axis(ax, a.ndim, f"{name}.reduce") for ax in axes})
    if len(axes) > 1 and name not in REORDERABLE:
        raise ValueError(f"[mnn.numpy.{name}.reduce] reduction operation '{name}' is not reorderable, "
                         "so at most one axis may be specified")
    shape = a.shape
    if len(axes) > 1:  # gather the reduced axes at the end, flatten them into one
        keep = [i for i in range(a.ndim) if i not in axes]
        a = _core.reshape(mnp.transpose(a, keep + axes), [shape[i] for i in keep] + [-1])
        r = _reduce_one_axis(fn, name, a, a.ndim - 1, initial)
    elif axes:
        r = _reduce_one_axis(fn, name, a, axes[0], initial)
    else:
        r = a if initial is None else fn(initial, a)
    if keepdims:
        r = _core.reshape(r, [1 if i in axes else s for i, s in enumerate(shape)])
    return write_out(r, out, f"{name}.reduce", casting="unsafe")


def accumulate(fn, name, array, axis=0, dtype=None, out=None):
    """ufunc.accumulate: running application of the binary operator along `axis`."""
    if fn.nin != 2:
        raise ValueError(f"[mnn.numpy.{name}.accumulate] accumulate only supported for binary functions")
    a = asarray(array)
    mnp = _mnp()
    if a.ndim == 0:
        raise TypeError(f"[mnn.numpy.{name}.accumulate] cannot accumulate on a scalar")
    if axis is None:
        raise TypeError(f"[mnn.numpy.{name}.accumulate] an integer axis is required")
    axis = _normalize_axis(axis, a.ndim, f"{name}.accumulate")
    if name in _SUM_LIKE:
        r = getattr(mnp, _SUM_LIKE[name][1])(a, axis=axis, dtype=dtype)
        return write_out(r, out, f"{name}.accumulate", casting="unsafe")
    if dtype is not None:
        a = a.astype(dtype)
    n = a.shape[axis]
    first = _take(a, axis, 0, 1)
    rdt = fn(first, first).dtype
    if n == 0:
        return write_out(a.astype(rdt), out, f"{name}.accumulate", casting="unsafe")
    if name in _ASSOCIATIVE:
        r = a.astype(rdt) if a.dtype != rdt else a
        s = 1
        while s < n:  # Hillis-Steele scan: after the step, r[i] covers a[i-2s+1 .. i]
            r = mnp.concatenate([_take(r, axis, 0, s), fn(_take(r, axis, 0, n - s), _take(r, axis, s, n))],
                                axis=axis)
            s *= 2
    else:
        acc = mnp.squeeze(first, axis=axis).astype(rdt)
        parts = [acc]
        for i in range(1, n):
            acc = fn(acc, mnp.squeeze(_take(a, axis, i, i + 1), axis=axis))
            parts.append(acc)
        r = mnp.stack(parts, axis=axis)
    return write_out(r, out, f"{name}.accumulate", casting="unsafe")


def reduceat(fn, name, array, indices, axis=0, dtype=None, out=None):
    """ufunc.reduceat: reduce a[indices[i]:indices[i+1]] along `axis` for each i (the last runs to
    the end); where indices[i] >= indices[i+1] the result is a[indices[i]] itself."""
    if fn.nin != 2:
        raise ValueError(f"[mnn.numpy.{name}.reduceat] reduceat only supported for binary functions")
    mnp = _mnp()
    a = asarray(array)
    axis = _normalize_axis(axis, a.ndim, f"{name}.reduceat")
    n = a.shape[axis]
    idx = [int(i) for i in (asarray(indices).tolist() if not isinstance(indices, list) else indices)]
    for i in idx:
        if not 0 <= i < n:
            raise IndexError(f"[mnn.numpy.{name}.reduceat] index {i} out-of-bounds in {name}.reduceat [0, {n})")
    parts = []
    for k, start in enumerate(idx):
        stop = idx[k + 1] if k + 1 < len(idx) else n
        if start < stop:
            parts.append(reduce(fn, name, _take(a, axis, start, stop), axis=axis, dtype=dtype))
        else:
            parts.append(mnp.squeeze(_take(a, axis, start, start + 1), axis=axis))
    # one result dtype for all: what reducing a one-element segment gives (sum upcasts small ints)
    rdt = reduce(fn, name, _take(a, axis, 0, 1), axis=axis, dtype=dtype).dtype if n else a.dtype
    if not parts:
        shape = list(a.shape)
        shape[axis] = 0
        return write_out(mnp.empty(tuple(shape), dtype=rdt), out, f"{name}.reduceat", casting="unsafe")
    r = mnp.stack([p.astype(rdt) for p in parts], axis=axis)
    return write_out(r, out, f"{name}.reduceat", casting="unsafe")


def outer(fn, name, A, B, /, **kwargs):
    """ufunc.outer: fn(a[..., None, ...], b) for every pair of elements of A and B."""
    if fn.nin != 2:
        raise ValueError(f"[mnn.numpy.{name}.outer] outer product only supported for binary functions")
    a, b = asarray(A), asarray(B)
    return fn(_core.reshape(a, list(a.shape) + [1] * b.ndim), b, **kwargs)


# ufunc.at on repeated indices: a padded (groups x longest run) table reduced along its rows when
# that table is small; identity pads leave each row's left-to-right result unchanged (-0.0 for add
# keeps a -0.0 total), and cumsum/cumprod are sequential, so sums come out in numpy's order.
_AT_PAD = {"add": -0.0, "multiply": 1, "maximum": None, "minimum": None, "fmax": None, "fmin": None,
           "logical_and": True, "logical_or": False, "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0}
_AT_ROW = {"add": "cumsum", "multiply": "cumprod", "maximum": "max", "minimum": "min", "fmax": "max", "fmin": "min",
           "logical_and": "all", "logical_or": "any", "bitwise_and": None, "bitwise_or": None, "bitwise_xor": None}


def at(fn, name, a, indices, b=None, /):
    """ufunc.at: unbuffered in place a[indices] = fn(a[indices], b); repeated indices apply repeatedly,
    in order. Without repeats: one gather and one scatter. With repeats: a per-index table (see
    _AT_PAD) or, for other operators or very uneven runs, rounds that each apply every index's
    k-th occurrence."""
    if not isinstance(a, _core.ndarray):
        raise TypeError(f"[mnn.numpy.{name}.at] first operand must be an mnn array")
    if (b is None) != (fn.nin == 1):
        raise ValueError(f"[mnn.numpy.{name}.at] {'second operand needed' if b is None else 'too many operands'}"
                         f" for ufunc {name}")
    mnp = _mnp()
    pos = mnp.arange(a.size).reshape(a.shape)[indices]
    flat_pos = _core.reshape(asarray(pos), [-1])
    n = flat_pos.shape[0]
    if b is not None:
        b = _core.reshape(mnp.broadcast_to(asarray(b), pos.shape), [-1])
    if n == 0:
        return
    if name == "add" and b is not None and a.dtype.kind in "iu" and \
            _dtypes.result_type(a.dtype, b.dtype).kind in "iu":
        # integer add.at: sums wrap modulo 2**bits whatever their order, so one scatter_add of
        # the values (in a's dtype) and one add replace the sort into rounds
        vals = b if b.dtype == a.dtype else b.astype(a.dtype)
        delta = _core.prim("scatter_add", [vals, flat_pos], [0, a.size], [])
        a[...] = a + _core.reshape(delta, list(a.shape))
        return
    # rank of each element among the earlier elements with the same position (stable sort, runs)
    order = mnp.argsort(flat_pos, kind="stable")
    sp = flat_pos[order]
    ar = mnp.arange(n)
    starts = mnp.concatenate([mnp.asarray([True]), sp[1:] != sp[:-1]])
    run_start = mnp.maximum.accumulate(mnp.where(starts, ar, 0))
    rank_sorted = ar - run_start
    rounds = int(rank_sorted.max()) + 1

    def apply(sel_pos, sel_b):
        idx = mnp.unravel_index(sel_pos, a.shape) if a.ndim else ()
        cur = a[idx]
        new = fn(cur) if b is None else fn(cur, sel_b)
        if not _dtypes.can_cast(new.dtype, a.dtype, "same_kind"):
            raise _core.UFuncTypeError(f"[mnn.numpy.{name}.at] Cannot cast ufunc '{name}' output from "
                                       f"{new.dtype!r} to {a.dtype!r} with casting rule 'same_kind'")
        a[idx] = new

    if rounds == 1:
        apply(flat_pos, b)
        return
    groups = int(starts.sum())
    if b is not None and name in _AT_PAD and groups * (rounds + 1) <= max(4 * n, 1 << 16):
        gid = mnp.cumsum(starts) - 1
        u = sp[starts]
        first = a.ravel()[u] if a._is_c_contiguous else a[mnp.unravel_index(u, a.shape)]
        vals = b[order]
        rdt = fn(first[:1], vals[:1]).dtype
        if not _dtypes.can_cast(rdt, a.dtype, "same_kind"):
            raise _core.UFuncTypeError(f"[mnn.numpy.{name}.at] Cannot cast ufunc '{name}' output from "
                                       f"{rdt!r} to {a.dtype!r} with casting rule 'same_kind'")
        pad = _AT_PAD[name]
        table = mnp.full((groups, rounds + 1), 0 if pad is None else pad, dtype=rdt)
        table[:, 0] = first.astype(rdt)
        if pad is None:  # max/min/fmax/fmin: the row's own first entry is a neutral pad
            table[:, 1:] = mnp.broadcast_to(first.astype(rdt)[:, None], (groups, rounds))
        table[gid, rank_sorted + 1] = vals.astype(rdt)
        row = _AT_ROW[name]
        if row is None:
            res = reduce(fn, name, table, axis=1)
        elif row in ("cumsum", "cumprod"):
            res = getattr(mnp, row)(table, axis=1)[:, -1]
        else:
            res = getattr(mnp, row)(table, axis=1)
        a[mnp.unravel_index(u, a.shape) if a.ndim else ()] = res.astype(a.dtype)
        return
    rank = mnp.empty(n, dtype=mnp.int64)
    rank[order] = rank_sorted
    for k in range(rounds):
        sel = mnp.nonzero(rank == k)[0]
        apply(flat_pos[sel], None if b is None else b[sel])
