"""Array manipulation beyond reshaping: pad, roll, rot90, tile, repeat, diff, meshgrid, triangles
and diagonals, stacking and splitting helpers, insert/delete/append, resize, trim_zeros, block.

Everything is composed from views (slices, transposes, flips), concatenate, broadcast_to, where and
the `take`/`scatter_add` primitives, so results stay lazy, fuse with their neighbours and are
differentiable through the existing VJPs. Index bookkeeping that depends only on shapes or on
small integer arguments is done in Python at record time, as numpy does."""
import builtins
import operator
import warnings

from .. import _core
from . import _dtypes
from ._common import asarray, ndarray
from ._manipulation import (broadcast_arrays, broadcast_to, concatenate, diagonal, flip, moveaxis, reshape, split,
                            transpose)

# dtype objects (the scalar types in _dtypes have no engine code)
_D = {n: _dtypes.dtype(n.rstrip('_')) for n in ('int64', 'int32', 'float64', 'float16', 'bool_')}

_OP = _core.OPCODES
_int, _bool = builtins.int, builtins.bool


def _norm_axis(ax, nd, fn):
    ax = operator.index(ax)
    if not -nd <= ax < nd:
        raise _core.AxisError(f"[mnn.numpy.{fn}] axis {ax} is out of bounds for array of dimension {nd}")
    return ax % nd


def _at(a, axis, sl):
    """a[..., sl, ...] with sl applied along axis."""
    idx = [slice(None)] * a.ndim
    idx[axis] = sl
    return a[tuple(idx)]


def _take(a, indices, axis):
    """Gather along axis with a Python list of in-range ints (lazy; differentiable via take's VJP)."""
    from ._creation import array
    idx = array(list(indices), dtype=_D["int64"])
    return _core.prim("take", [a, idx], [axis], [])


def _zeros(shape, dt):
    from ._creation import zeros
    return zeros(tuple(shape), dtype=dt)


def _full(shape, value, dt):
    from ._creation import full
    return full(tuple(shape), value, dtype=dt)


def _arange(n):
    return _core.arange_int(0, n, 1, _D["int64"]._code)


def _ufunc(name, *xs):
    return _core.ufunc(_OP[name], *xs)


# ----------------------------------------------------------------------------------------------
# pad

def _shape_of(x):
    s = []
    while isinstance(x, (list, tuple)):
        s.append(len(x))
        if not x:
            break
        x = x[0]
    return s


def _as_pairs(x, ndim, as_index=False, fn="pad"):
    """numpy's pad argument broadcasting: scalar, (v,), (before, after), ((b, a),) or one pair per axis."""
    if x is None:
        return [(None, None)] * ndim
    if isinstance(x, ndarray):
        x = x.tolist()
    elif hasattr(x, "tolist"):
        x = x.tolist()
    if as_index:
        def conv(v):
            if isinstance(v, float):
                return _int(round(v))
            return operator.index(v)
    else:
        def conv(v):
            return v
    flat = []

    def walk(v):
        if isinstance(v, (list, tuple)):
            for w in v:
                walk(w)
        else:
            flat.append(conv(v))
    walk(x)
    shape = _shape_of(x)
    if as_index and any(v < 0 for v in flat):
        raise ValueError(f"[mnn.numpy.{fn}] index can't contain negative values")
    if ndim == 0 and (not flat or len(shape) < 2 or shape[0] == 1):
        return []  # broadcasting to shape (0, 2)
    if len(shape) < 3:
        if len(flat) == 1:
            return [(flat[0], flat[0])] * ndim
        if len(flat) == 2 and shape != [2, 1]:
            return [(flat[0], flat[1])] * ndim
    # general broadcast of shape to (ndim, 2)
    if len(shape) > 2 or not shape:
        raise ValueError(f"[mnn.numpy.{fn}] operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {tuple(shape)} and requested shape ({ndim},2)")
    rows = x if len(shape) == 2 else [x]
    cols = len(rows[0]) if rows else 0
    if len(rows) not in (1, ndim) or cols not in (1, 2):
        raise ValueError(f"[mnn.numpy.{fn}] operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {tuple(shape)} and requested shape ({ndim},2)")
    out = []
    for i in range(ndim):
        r = rows[0] if len(rows) == 1 else rows[i]
        out.append((conv(r[0]), conv(r[-1])))
    return out


def _edges(a, axis):
    n = a.shape[axis]
    return _at(a, axis, slice(0, 1)), _at(a, axis, slice(n - 1, n))


def _widen(a, axis, width, piece):
    shape = list(a.shape)
    shape[axis] = width
    return _core.broadcast_to(piece, shape)


def _cat3(left, a, right, axis):
    parts = [p for p in (left, a, right) if p is not None and p.shape[axis] > 0]
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return a
    return _core.concatenate(parts, axis, a.dtype._code)


def _round_to(stat, dt):
    if dt.kind in "iu":
        stat = _ufunc("rint", stat)
    return stat.astype(dt) if stat.dtype != dt else stat


def _median_along(chunk, axis):
    """Median along axis with keepdims (numpy.median semantics: NaN if the lane holds a NaN)."""
    import mnn.numpy as mnp
    med = getattr(mnp, "median", None)
    if med is not None:
        return med(chunk, axis=axis, keepdims=True)
    # Without a sort primitive in this module, the stat region (small, one lane per padded
    # row) is ordered in Python.
    moved = moveaxis(chunk, axis, -1)
    lanes_shape = moved.shape[:-1]
    m = moved.shape[-1]
    vals = reshape(moved, (-1, m)).tolist() if m else [[] for _ in range(_prod(lanes_shape))]
    out = []
    for lane in vals:
        if not lane or any(v != v for v in lane):
            out.append(float("nan"))
            continue
        s = sorted(lane)
        h = len(s) // 2
        out.append(float(s[h]) if len(s) % 2 else (s[h - 1] + s[h]) / 2.0)
    from ._creation import array
    rdt = chunk.dtype if chunk.dtype.kind == "f" else _D["float64"]
    r = array(out, dtype=rdt)
    r = reshape(r, tuple(lanes_shape) + (1,))
    return moveaxis(r, -1, axis)


def _prod(shape):
    p = 1
    for s in shape:
        p *= s
    return p


def _stat(a, axis, lo, hi, mode):
    from ._reductions import amax, amin, mean
    chunk = _at(a, axis, slice(lo, hi))
    if mode == "maximum":
        r = amax(chunk, axis=axis, keepdims=True)
    elif mode == "minimum":
        r = amin(chunk, axis=axis, keepdims=True)
    elif mode == "mean":
        r = mean(chunk, axis=axis, keepdims=True)
    else:
        r = _median_along(chunk, axis)
    return _round_to(r, a.dtype)


def _linear_ramp(edge, end_value, width, axis, dt):
    """numpy's ramp: linspace(end_value, edge, width, endpoint=False, dtype=dt) along axis."""
    from ._creation import asarray as _asarray
    # numpy's pad hands linspace the end value as a numpy int64/float64 scalar (strongly typed),
    # so every ramp is computed in float64 and rounded once into the array's dtype
    ct = _D["float64"]
    start = _asarray(end_value).astype(ct)
    stop = edge.astype(ct)
    delta = stop - start
    shape = [1] * edge.ndim
    shape[axis] = width
    y = reshape(_core.arange_int(0, width, 1, ct._code), shape)
    step = delta / width
    from ._reductions import any as _any
    zero_step = _any(step == 0)
    y = _ufunc("where", zero_step, (y / width) * delta, y * step) + start
    if dt.kind in "iu":
        y = _ufunc("floor", y)
    return y.astype(dt)


def _reflect_axis(a, axis, before, after, method, include_edge):
    n0 = a.shape[axis]
    eo = 1 if include_edge else 0
    left, right = before, after
    cur = a
    while left > 0 or right > 0:
        L = cur.shape[axis]
        if include_edge:
            old = L // n0 * n0
        else:
            old = (L - 1) // (n0 - 1) * (n0 - 1)
        lpiece = rpiece = None
        if left > 0:
            c = min(old, left)
            lpiece = flip(_at(cur, axis, slice(1 - eo, c + 1 - eo)), axis)
            if method == "odd":
                lpiece = 2 * _at(cur, axis, slice(0, 1)) - lpiece
                lpiece = lpiece.astype(a.dtype)
            left -= c
        if right > 0:
            c = min(old, right)
            rpiece = flip(_at(cur, axis, slice(L - 1 - c + eo, L - 1 + eo)), axis)
            if method == "odd":
                rpiece = 2 * _at(cur, axis, slice(L - 1, L)) - rpiece
                rpiece = rpiece.astype(a.dtype)
            right -= c
        cur = _cat3(lpiece, cur, rpiece, axis)
    return cur


def _wrap_axis(a, axis, before, after):
    n = a.shape[axis]
    # the result is periodic in the original: out[i] = a[(i - before) mod n]; built from whole
    # copies and two partial slices so it stays a concatenation of views
    total = before + n + after
    start = (-before) % n
    parts = []
    pos = 0
    while pos < total:
        i = (start + pos) % n
        c = min(n - i, total - pos)
        parts.append(_at(a, axis, slice(i, i + c)))
        pos += c
    if len(parts) == 1:
        return parts[0]
    return _core.concatenate(parts, axis, a.dtype._code)


_PAD_KWARGS = {
    "empty": [], "edge": [], "wrap": [], "constant": ["constant_values"], "linear_ramp": ["end_values"],
    "maximum": ["stat_length"], "mean": ["stat_length"], "median": ["stat_length"], "minimum": ["stat_length"],
    "reflect": ["reflect_type"], "symmetric": ["reflect_type"],
}


def _pad_widths(pad_width, ndim):
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for ax, w in pad_width.items():
            seq[ax] = (w, w) if isinstance(w, _int) else tuple(w)
        pad_width = seq
    from_int_array = isinstance(pad_width, ndarray)
    if isinstance(pad_width, ndarray):
        if pad_width.dtype.kind not in "iu":
            raise TypeError("[mnn.numpy.pad] `pad_width` must be of integral type.")
        pad_width = pad_width.tolist()
    flat = []

    def walk(v):
        if isinstance(v, (list, tuple)):
            for w in v:
                walk(w)
        else:
            flat.append(v)
    walk(pad_width)
    if not flat and not from_int_array:  # numpy reads an empty list as a float64 array
        raise TypeError("[mnn.numpy.pad] `pad_width` must be of integral type.")
    if any(isinstance(v, (float, _bool)) or not hasattr(v, "__index__") for v in flat) or \
            any(getattr(getattr(v, "dtype", None), "kind", "i") not in "iu" for v in flat):
        raise TypeError("[mnn.numpy.pad] `pad_width` must be of integral type.")
    return _as_pairs(pad_width, ndim, as_index=True)


def pad(array, pad_width, mode="constant", **kwargs):
    """numpy.pad, every mode (and a callable), built axis by axis like numpy so that corners match."""
    a = asarray(array)
    widths = _pad_widths(pad_width, a.ndim)
    nd = a.ndim
    if callable(mode):
        return _pad_callable(a, widths, mode, kwargs)
    if mode not in _PAD_KWARGS:
        raise ValueError(f"[mnn.numpy.pad] mode '{mode}' is not supported")
    bad = set(kwargs) - set(_PAD_KWARGS[mode])
    if bad:
        raise ValueError(f"[mnn.numpy.pad] unsupported keyword arguments for mode '{mode}': {bad}")
    dt = a.dtype
    if mode in ("constant", "empty"):
        values = _as_pairs(kwargs.get("constant_values", 0), nd) if mode == "constant" else [(0, 0)] * nd
        cur = a
        for ax in range(nd):
            lo, hi = widths[ax]
            shape = list(cur.shape)
            left = right = None
            if lo:
                shape[ax] = lo
                left = _const_block(shape, values[ax][0], dt)
            if hi:
                shape[ax] = hi
                right = _const_block(shape, values[ax][1], dt)
            cur = _cat3(left, cur, right, ax)
        return _core.copy(cur) if cur is a else cur
    if a.size == 0:
        for ax, (lo, hi) in enumerate(widths):
            if a.shape[ax] == 0 and (lo or hi):
                raise ValueError(f"[mnn.numpy.pad] can't extend empty axis {ax} using modes other than 'constant' "
                                 "or 'empty'")
        return _zeros([s + lo + hi for s, (lo, hi) in zip(a.shape, widths)], dt)
    cur = a
    if mode == "edge":
        for ax, (lo, hi) in enumerate(widths):
            e0, e1 = _edges(cur, ax)
            cur = _cat3(_widen(cur, ax, lo, e0) if lo else None, cur, _widen(cur, ax, hi, e1) if hi else None, ax)
    elif mode == "linear_ramp":
        ends = _as_pairs(kwargs.get("end_values", 0), nd)
        for ax, (lo, hi) in enumerate(widths):
            e0, e1 = _edges(cur, ax)
            left = _linear_ramp(e0, ends[ax][0], lo, ax, dt) if lo else None
            right = flip(_linear_ramp(e1, ends[ax][1], hi, ax, dt), ax) if hi else None
            cur = _cat3(left, cur, right, ax)
    elif mode in ("maximum", "minimum", "mean", "median"):
        lengths = _as_pairs(kwargs.get("stat_length"), nd, as_index=True)
        for ax, (lo, hi) in enumerate(widths):
            n = cur.shape[ax]
            ll, rl = lengths[ax]
            ll = n if ll is None or ll > n else ll
            rl = n if rl is None or rl > n else rl
            if (ll == 0 or rl == 0) and mode in ("maximum", "minimum"):
                raise ValueError("[mnn.numpy.pad] stat_length of 0 yields no value for padding")
            if not lo and not hi:
                continue
            s0 = _stat(cur, ax, 0, ll, mode)
            s1 = s0 if ll == rl == n else _stat(cur, ax, n - rl, n, mode)
            cur = _cat3(_widen(cur, ax, lo, s0) if lo else None, cur, _widen(cur, ax, hi, s1) if hi else None, ax)
    elif mode in ("reflect", "symmetric"):
        method = kwargs.get("reflect_type", "even")
        if method not in ("even", "odd"):
            raise ValueError(f"[mnn.numpy.pad] unsupported reflect_type '{method}'")
        for ax, (lo, hi) in enumerate(widths):
            if not lo and not hi:
                continue
            if a.shape[ax] == 1:  # numpy's legacy behaviour: a singleton axis extends by its edge
                e0, _ = _edges(cur, ax)
                cur = _cat3(_widen(cur, ax, lo, e0) if lo else None, cur, _widen(cur, ax, hi, e0) if hi else None,
                            ax)
                continue
            cur = _reflect_axis(cur, ax, lo, hi, method, mode == "symmetric")
    else:  # wrap
        for ax, (lo, hi) in enumerate(widths):
            if lo or hi:
                cur = _wrap_axis(cur, ax, lo, hi)
    return _core.copy(cur) if cur is a else cur


def _const_block(shape, v, dt):
    """numpy assigns pad constants as int64/float64 scalars with an unsafe cast (so -1 pads a
    uint8 array with 255), not as weak Python scalars."""
    c = asarray(_scalar_value(v))
    return _core.broadcast_to(c.astype(dt) if c.dtype != dt else c, list(shape))


def _scalar_value(v):
    if isinstance(v, ndarray):
        return v.item()
    return v


def _pad_callable(a, widths, fn, kwargs):
    cur = a
    for ax, (lo, hi) in enumerate(widths):
        shape = list(cur.shape)
        left = right = None
        if lo:
            shape[ax] = lo
            left = _zeros(shape, a.dtype)
        if hi:
            shape[ax] = hi
            right = _zeros(shape, a.dtype)
        cur = _cat3(left, cur, right, ax)
    padded = _core.copy(cur)
    for ax in range(padded.ndim):
        view = moveaxis(padded, ax, -1)
        for ind in _ndindex(view.shape[:-1]):
            fn(view[ind + (Ellipsis,)], widths[ax], ax, kwargs)
    return padded


def _ndindex(shape):
    if not shape:
        yield ()
        return
    if any(s == 0 for s in shape):
        return
    idx = [0] * len(shape)
    while True:
        yield tuple(idx)
        k = len(shape) - 1
        while k >= 0:
            idx[k] += 1
            if idx[k] < shape[k]:
                break
            idx[k] = 0
            k -= 1
        if k < 0:
            return


# ----------------------------------------------------------------------------------------------
# rolling, rotating, tiling, repeating

def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return reshape(roll(reshape(a, (-1,)), shift, 0), a.shape)
    shifts = list(shift) if isinstance(shift, (list, tuple)) else [shift]
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    elif len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("[mnn.numpy.roll] 'shift' and 'axis' should be scalars or 1D sequences")
    total = [0] * a.ndim
    for s, ax in zip(shifts, axes):
        total[_norm_axis(ax, a.ndim, "roll")] += operator.index(s)
    cur = a
    for ax, s in enumerate(total):
        n = a.shape[ax]
        if n == 0:
            continue
        s %= n
        if s:
            cur = _core.concatenate([_at(cur, ax, slice(n - s, n)), _at(cur, ax, slice(0, n - s))], ax, a.dtype._code)
    return _core.copy(cur) if cur is a else cur


def rot90(m, k=1, axes=(0, 1)):
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("[mnn.numpy.rot90] len(axes) must be 2.")
    m = asarray(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("[mnn.numpy.rot90] Axes must be different.")
    if not (-m.ndim <= axes[0] < m.ndim and -m.ndim <= axes[1] < m.ndim):
        raise ValueError(f"[mnn.numpy.rot90] Axes={axes} out of range for array of ndim={m.ndim}.")
    k = operator.index(k) % 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    order = list(range(m.ndim))
    a0, a1 = axes[0] % m.ndim, axes[1] % m.ndim
    order[a0], order[a1] = order[a1], order[a0]
    if k == 1:
        return transpose(flip(m, axes[1]), order)
    return flip(transpose(m, order), axes[1])


def tile(A, reps):
    try:
        tup = tuple(operator.index(r) for r in reps)
    except TypeError:
        tup = (operator.index(reps),)
    c = asarray(A)
    d = len(tup)
    if c.ndim < d:
        c = reshape(c, (1,) * (d - c.ndim) + tuple(c.shape))
    if d < c.ndim:
        tup = (1,) * (c.ndim - d) + tup
    if any(t < 0 for t in tup):
        raise ValueError("[mnn.numpy.tile] negative dimensions are not allowed")
    out_shape = tuple(s * t for s, t in zip(c.shape, tup))
    if all(t == 1 for t in tup):
        return _core.copy(c)
    inter = []
    bshape = []
    for s, t in zip(c.shape, tup):
        inter += [1, s]
        bshape += [t, s]
    r = _core.broadcast_to(reshape(c, inter), bshape)
    return reshape(r, out_shape)


def _counts_list(repeats, n, fn):
    r = asarray(repeats)
    if r.dtype.kind not in "iubf":
        raise TypeError(f"[mnn.numpy.{fn}] Cannot cast array data from {r.dtype!r} to dtype('int64') according to "
                        "the rule 'safe'")
    if r.ndim > 1:
        raise ValueError(f"[mnn.numpy.{fn}] repeats must be a scalar or one-dimensional")
    return r


def repeat(a, repeats, axis=None):
    """numpy.repeat. Scalar counts broadcast a new axis; per-element counts gather with indices
    built by the engine (a scatter of run starts and a cumulative sum), not a Python loop."""
    a = asarray(a)
    if axis is None:
        a = reshape(a, (-1,))
        axis = 0
    ax = _norm_axis(axis, a.ndim, "repeat")
    n = a.shape[ax]
    r = _counts_list(repeats, n, "repeat")
    if r.ndim == 0 or r.shape == (1,):
        k = _int(r.item())
        if k < 0:
            raise ValueError("[mnn.numpy.repeat] negative dimensions are not allowed")
        e = _core.expand_dims(a, ax + 1)
        shape = list(e.shape)
        shape[ax + 1] = k
        out = list(a.shape)
        out[ax] = n * k
        if ax == a.ndim - 1 and 2 <= k <= 8:
            # a few copies side by side along a new innermost axis: the concatenate kernel writes
            # them far faster than materializing a broadcast whose innermost stride is 0
            return reshape(_core.concatenate([e] * k, ax + 1, a.dtype._code), out)
        return reshape(_core.broadcast_to(e, shape), out)
    if r.shape[0] != n:
        raise ValueError(f"[mnn.numpy.repeat] operands could not be broadcast together with shape ({n},) "
                         f"({r.shape[0]},)")
    from ._reductions import min as _min
    from ._reductions import sum as _sum
    r = r.astype(_D["int64"])
    if n and _int(_min(r).item()) < 0:
        raise ValueError("[mnn.numpy.repeat] repeats may not contain negative values.")
    total = _int(_sum(r).item()) if n else 0
    idx = _run_index(r, total)
    return _core.prim("take", [a, idx], [ax], [])


def _run_index(counts, total):
    """[0]*c0 + [1]*c1 + ...: a 1 at each run start (element i >= 1 starts at cumsum[i-1]), summed."""
    n = counts.shape[0]
    if total == 0 or n == 0:
        return _zeros([0], _D["int64"])
    starts = _core.scan(0, counts, 0, None, "repeat")[:-1] if n > 1 else None
    if starts is None:
        return _zeros([total], _D["int64"])
    ones = _full([n - 1], 1, _D["int64"])
    marks = _core.prim("scatter_add", [ones, starts], [0, total + 1], [])
    return _core.scan(0, marks[:total], 0, None, "repeat")


# ----------------------------------------------------------------------------------------------
# differences

def diff(a, n=1, axis=-1, prepend=None, append=None, **_kw):
    if n == 0:
        return asarray(a)
    if n < 0:
        raise ValueError(f"[mnn.numpy.diff] order must be non-negative but got {n!r}")
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError("[mnn.numpy.diff] diff requires input that is at least one dimensional")
    ax = _norm_axis(axis, a.ndim, "diff")
    combined = []
    if prepend is not None:
        p = asarray(prepend)
        if p.ndim == 0:
            shape = list(a.shape)
            shape[ax] = 1
            p = broadcast_to(p, shape)
        combined.append(p)
    combined.append(a)
    if append is not None:
        p = asarray(append)
        if p.ndim == 0:
            shape = list(a.shape)
            shape[ax] = 1
            p = broadcast_to(p, shape)
        combined.append(p)
    if len(combined) > 1:
        a = concatenate(combined, ax)
    op = "not_equal" if a.dtype == _D["bool_"] else "subtract"
    for _ in range(n):
        m = a.shape[ax]
        a = _ufunc(op, _at(a, ax, slice(1, m)), _at(a, ax, slice(0, max(m - 1, 0))))
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    ary = reshape(asarray(ary), (-1,))
    dt = ary.dtype
    m = ary.shape[0]
    d = ary[1:] - ary[:max(m - 1, 0)]
    if to_begin is None and to_end is None:
        return d
    parts = []
    for name, extra in (("to_begin", to_begin), ("to_end", to_end)):
        if extra is None:
            parts.append(None)
            continue
        e = asarray(extra)
        if not _dtypes.can_cast(e.dtype, dt, "same_kind"):
            raise TypeError(f"[mnn.numpy.ediff1d] dtype of `{name}` must be compatible with input `ary` under the "
                            "`same_kind` rule.")
        parts.append(reshape(e, (-1,)).astype(dt))
    pieces = [p for p in (parts[0], d.astype(dt), parts[1]) if p is not None]
    return _core.concatenate(pieces, 0, dt._code)


# ----------------------------------------------------------------------------------------------
# grids, triangles, diagonals

def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("[mnn.numpy.meshgrid] Valid values for `indexing` are 'xy' and 'ij'.")
    nd = len(xi)
    s0 = (1,) * nd
    out = [reshape(asarray(x), s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and nd > 1:
        out[0] = reshape(out[0], (1, -1) + s0[2:])
        out[1] = reshape(out[1], (-1, 1) + s0[2:])
    if not sparse:
        out = list(broadcast_arrays(*out))
    if copy:
        out = [_core.copy(x) for x in out]
    return tuple(out)


def _tri_mask(N, M, k):
    i = reshape(_arange(N), (N, 1))
    j = reshape(_core.arange_int(-k, M - k, 1, _D["int64"]._code), (1, M))
    return _ufunc("greater_equal", i, j)


def tri(N, M=None, k=0, dtype=float, *, like=None):
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    k = operator.index(k)
    m = _tri_mask(N, M, k)
    return m.astype(_dtypes.dtype(dtype))


def tril(m, k=0):
    m = asarray(m)
    if m.ndim < 1:  # numpy fails inside tri() with too few dimensions
        raise TypeError("[mnn.numpy.tril] tri() missing 1 required positional argument: 'N'")
    rows, cols = (m.shape[-2], m.shape[-1]) if m.ndim >= 2 else (m.shape[-1], m.shape[-1])
    mask = _tri_mask(rows, cols, operator.index(k))
    return _ufunc("where", mask, m, _zeros([], m.dtype))


def triu(m, k=0):
    m = asarray(m)
    if m.ndim < 1:  # numpy fails inside tri() with too few dimensions
        raise TypeError("[mnn.numpy.triu] tri() missing 1 required positional argument: 'N'")
    rows, cols = (m.shape[-2], m.shape[-1]) if m.ndim >= 2 else (m.shape[-1], m.shape[-1])
    mask = _tri_mask(rows, cols, operator.index(k) - 1)
    return _ufunc("where", mask, _zeros([], m.dtype), m)


def diag(v, k=0):
    v = asarray(v)
    k = operator.index(k)
    if v.ndim == 1:
        n = v.shape[0]
        size = n + abs(k)
        i = reshape(_arange(n), (n, 1))
        j = reshape(_arange(n), (1, n))
        square = _ufunc("where", _ufunc("equal", i, j), reshape(v, (n, 1)), _zeros([], v.dtype))
        if k == 0:
            return square
        # shift the n x n block to the k-th diagonal of a size x size matrix
        zc = _zeros([n, abs(k)], v.dtype)
        zr = _zeros([abs(k), size], v.dtype)
        if k > 0:
            return _core.concatenate([_core.concatenate([zc, square], 1, v.dtype._code), zr], 0, v.dtype._code)
        return _core.concatenate([zr, _core.concatenate([square, zc], 1, v.dtype._code)], 0, v.dtype._code)
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("[mnn.numpy.diag] Input must be 1- or 2-d.")


def diagflat(v, k=0):
    return diag(reshape(asarray(v), (-1,)), k)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    from ._reductions import sum as _sum
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("[mnn.numpy.trace] diag requires an array of at least two dimensions")
    if dtype is None and out is None and type(offset) is int and type(axis1) is int and type(axis2) is int:
        # what the call below records, without sum()'s argument handling (np.trace(K) in a loop)
        return _core.reduce(0, _core.diagonal(a, offset, axis1, axis2), [-1], False, None, "sum")
    return _sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


# ----------------------------------------------------------------------------------------------
# stacking and splitting

def atleast_3d(*arys):
    res = []
    for a in map(asarray, arys):
        if a.ndim == 0:
            a = reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = reshape(a, tuple(a.shape) + (1,))
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def _seq(tup, fn):
    if not isinstance(tup, (list, tuple)) and not hasattr(tup, "__iter__"):
        raise TypeError(f"[mnn.numpy.{fn}] arrays to stack must be passed as a sequence")
    return list(tup)


def dstack(tup):
    arrs = atleast_3d(*_seq(tup, "dstack"))
    if not isinstance(arrs, tuple):
        arrs = [arrs]
    return concatenate(list(arrs), 2)


def column_stack(tup):
    arrs = []
    for v in _seq(tup, "column_stack"):
        v = asarray(v)
        if v.ndim < 2:
            v = reshape(v, (-1, 1)) if v.ndim == 1 else reshape(v, (1, 1))
        arrs.append(v)
    return concatenate(arrs, 1)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    from ._manipulation import vstack
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def hsplit(ary, indices_or_sections):
    a = asarray(ary)
    if a.ndim == 0:
        raise ValueError("[mnn.numpy.hsplit] hsplit only works on arrays of 1 or more dimensions")
    return split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    a = asarray(ary)
    if a.ndim < 2:
        raise ValueError("[mnn.numpy.vsplit] vsplit only works on arrays of 2 or more dimensions")
    return split(a, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    a = asarray(ary)
    if a.ndim < 3:
        raise ValueError("[mnn.numpy.dsplit] dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, 2)


def unstack(x, /, *, axis=0):
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("[mnn.numpy.unstack] Input array must be at least 1-d.")
    ax = _norm_axis(axis, x.ndim, "unstack")
    return tuple(_at(x, ax, i) for i in range(x.shape[ax]))


# ----------------------------------------------------------------------------------------------
# insert, delete, append, resize, trim_zeros, block

def _index_list(obj, fn):
    """A Python int list (and whether obj was a scalar) from an int, a sequence or an array."""
    if isinstance(obj, ndarray):
        if obj.ndim > 1:
            raise ValueError(f"[mnn.numpy.{fn}] index array argument obj to {fn} must be one dimensional or scalar")
        kind = obj.dtype.kind
        vals = obj.tolist()
        return (vals if obj.ndim else [vals]), obj.ndim == 0, kind
    if hasattr(obj, "__index__") and not isinstance(obj, _bool):
        return [operator.index(obj)], True, "i"
    if isinstance(obj, _bool):
        return [obj], True, "b"
    vals = [obj] if isinstance(obj, float) else list(obj)
    flat = []
    for v in vals:
        if isinstance(v, (list, tuple)):
            raise ValueError(f"[mnn.numpy.{fn}] index array argument obj to {fn} must be one dimensional or scalar")
        flat.append(v)
    if flat and all(isinstance(v, _bool) for v in flat):
        return flat, False, "b"
    if any(isinstance(v, float) for v in flat):
        if fn == "insert":  # numpy's insert builds slices from the indices
            raise TypeError("[mnn.numpy.insert] slice indices must be integers or None or have an __index__ method")
        raise IndexError(f"[mnn.numpy.{fn}] arrays used as indices must be of integer (or boolean) type")
    return [operator.index(v) for v in flat], False, "i"


def insert(arr, obj, values, axis=None):
    a = asarray(arr)
    if axis is None:
        if a.ndim != 1:
            a = reshape(a, (-1,))
        axis = a.ndim - 1
    ax = _norm_axis(axis, a.ndim, "insert")
    N = a.shape[ax]
    if isinstance(obj, slice):
        idx, scalar = list(range(*obj.indices(N))), False
    else:
        idx, scalar, kind = _index_list(obj, "insert")
        if kind == "b":
            if scalar:
                raise TypeError("[mnn.numpy.insert] a boolean scalar is not a valid index for insert")
            # numpy 2 inserts before every True position of a boolean mask
            idx, scalar = [i for i, f in enumerate(idx) if f], False
        elif kind == "f":
            raise TypeError("[mnn.numpy.insert] slice indices must be integers or None or have an __index__ method")
    vals = asarray(values)
    if len(idx) == 1:
        index = idx[0]
        if index < -N or index > N:
            raise IndexError(f"[mnn.numpy.insert] index {obj} is out of bounds for axis {ax} with size {N}")
        if index < 0:
            index += N
        v = vals.astype(a.dtype) if vals.dtype != a.dtype else vals
        if v.ndim < a.ndim:
            v = reshape(v, (1,) * (a.ndim - v.ndim) + tuple(v.shape))
        if scalar:
            v = moveaxis(v, 0, ax)
        numnew = v.shape[ax]
        slot = list(a.shape)
        slot[ax] = numnew
        v = _core.broadcast_to(v, slot)
        return _core.concatenate([_at(a, ax, slice(0, index)), v, _at(a, ax, slice(index, N))], ax, a.dtype._code)
    idx = [i + N if i < 0 else i for i in idx]
    for i in idx:
        if not 0 <= i <= N:
            raise IndexError(f"[mnn.numpy.insert] index {i} is out of bounds for axis {ax} with size {N + len(idx)}")
    numnew = len(idx)
    order = sorted(range(numnew), key=lambda t: idx[t])
    final = list(idx)
    for rank, t in enumerate(order):
        final[t] = idx[t] + rank
    total = N + numnew
    slot = list(a.shape)
    slot[ax] = numnew
    v = vals.astype(a.dtype) if vals.dtype != a.dtype else vals
    v = _core.broadcast_to(v, slot)
    src = [None] * total
    for t, p in enumerate(final):
        src[p] = N + t
    it = iter(range(N))
    src = [s if s is not None else next(it) for s in src]
    both = _core.concatenate([a, v], ax, a.dtype._code) if numnew else a
    return _take(both, src, ax)


def delete(arr, obj, axis=None):
    a = asarray(arr)
    if axis is None:
        if a.ndim != 1:
            a = reshape(a, (-1,))
        axis = a.ndim - 1
    ax = _norm_axis(axis, a.ndim, "delete")
    N = a.shape[ax]
    if isinstance(obj, slice):
        drop = set(range(*obj.indices(N)))
        if not drop:
            return _core.copy(a)
        keep = [i for i in range(N) if i not in drop]
        return _take(a, keep, ax)
    idx, scalar, kind = _index_list(obj, "delete")
    if kind in "iu" and len(idx) == 1 and (scalar or kind in "iu"):
        i = idx[0]
        if i < -N or i >= N:
            raise IndexError(f"[mnn.numpy.delete] index {i} is out of bounds for axis {ax} with size {N}")
        if i < 0:
            i += N
        return _core.concatenate([_at(a, ax, slice(0, i)), _at(a, ax, slice(i + 1, N))], ax, a.dtype._code)
    if kind == "b":
        if len(idx) != N or scalar:
            raise ValueError(f"[mnn.numpy.delete] boolean array argument obj to delete must be one dimensional and "
                             f"match the axis length of {N}")
        keep = [i for i in range(N) if not idx[i]]
    else:
        drop = set()
        for i in idx:
            if i < -N or i >= N:
                raise IndexError(f"[mnn.numpy.delete] index {i} is out of bounds for axis {ax} with size {N}")
            drop.add(i % N)
        keep = [i for i in range(N) if i not in drop]
    return _take(a, keep, ax)


def append(arr, values, axis=None):
    a = asarray(arr)
    v = asarray(values)
    if axis is None:
        if a.ndim != 1:
            a = reshape(a, (-1,))
        v = reshape(v, (-1,))
        axis = a.ndim - 1
    return concatenate([a, v], axis)


def resize(a, new_shape):
    if isinstance(new_shape, (_int,)) or hasattr(new_shape, "__index__"):
        new_shape = (operator.index(new_shape),)
    new_shape = tuple(operator.index(s) for s in new_shape)
    a = reshape(asarray(a), (-1,))
    size = 1
    for s in new_shape:
        size *= s
        if s < 0:
            raise ValueError("[mnn.numpy.resize] all elements of `new_shape` must be non-negative")
    if a.size == 0 or size == 0:
        return _zeros(new_shape, a.dtype)
    reps = -(-size // a.size)
    flat = concatenate([a] * reps)[:size] if reps > 1 else a[:size]
    return reshape(flat, new_shape)


def trim_zeros(filt, trim="fb", axis=None):
    a = asarray(filt)
    trim = trim.lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"[mnn.numpy.trim_zeros] unexpected character(s) in `trim`: {trim!r}")
    if a.ndim == 0:
        return a  # nothing to trim along
    nz = _ufunc("not_equal", a, 0)
    axes = list(range(a.ndim)) if axis is None else [_norm_axis(x, a.ndim, "trim_zeros") for x in
                                                      (axis if isinstance(axis, (list, tuple)) else [axis])]
    from ._reductions import any as _any
    idx = [slice(None)] * a.ndim
    for ax in axes:
        others = tuple(i for i in range(a.ndim) if i != ax)
        flags = _any(nz, axis=others).tolist() if others else nz.tolist()
        lo, hi = 0, len(flags)
        if not builtins.any(flags):
            lo = hi = 0
        else:
            if "f" in trim:
                while not flags[lo]:
                    lo += 1
            if "b" in trim:
                while not flags[hi - 1]:
                    hi -= 1
        idx[ax] = slice(lo, hi)
    return a[tuple(idx)]


def block(arrays):
    """numpy.block: nested lists concatenated innermost-last, arrays promoted to a common ndim."""
    def depth_check(x, index):
        if isinstance(x, tuple):
            raise TypeError(f"[mnn.numpy.block] {_fmt_index(index)} is a tuple. Only lists can be used to arrange "
                            "blocks, and np.block does not allow implicit conversion from tuple to ndarray.")
        if isinstance(x, list):
            if not x:
                raise ValueError(f"[mnn.numpy.block] List at {_fmt_index(index)} cannot be empty")
            depths = []
            maxnd = 0
            for i, y in enumerate(x):
                d, nd = depth_check(y, index + [i])
                depths.append((d, index + [i]))
                maxnd = max(maxnd, nd)
            first = depths[0][0]
            for d, ix in depths:
                if d != first:
                    raise ValueError(f"[mnn.numpy.block] List depths are mismatched. First element was at depth "
                                     f"{first + len(index)}, but there is an element at depth {d + len(index)} "
                                     f"({_fmt_index(ix)})")
            return first + 1, maxnd
        return 0, asarray(x).ndim

    list_nd, arr_nd = depth_check(arrays, [])
    rnd = max(list_nd, arr_nd)

    def build(x, d):
        if not isinstance(x, list):
            a = asarray(x)
            if a.ndim < rnd:
                a = reshape(a, (1,) * (rnd - a.ndim) + tuple(a.shape))
            return a
        parts = [build(y, d + 1) for y in x]
        return concatenate(parts, -(list_nd - d))

    r = build(arrays, 0)
    return _core.copy(r) if not isinstance(arrays, list) else r


def _fmt_index(index):
    return "arrays" + "".join(f"[{i}]" for i in index)
