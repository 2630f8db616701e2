"""Advanced indexing (a[idx] and a[idx] = v with integer arrays and boolean masks) and numpy's
index functions (take, put, nonzero, ix_, unravel_index, ...).

The C++ __getitem__/__setitem__ handle basic indices (ints, slices, None, Ellipsis) themselves and
call the hooks installed here for anything else. Every advanced index is reduced to the same
plan: apply the basic part as a view V, then gather (or scatter) along some of V's axes with one
flat index array:

* integer arrays index one axis each; a k-d boolean mask indexes k axes at once through the flat
  positions of its True elements; a 0-d boolean is a new length-1 axis indexed by [0] or [].
* the index arrays broadcast to a shape B. When the advanced indices (integer scalars included)
  are adjacent in the key, B replaces their axes in place; otherwise B comes first (numpy's rule).
* ravel_index turns the (validated) index arrays into one row-major flat index over the indexed
  axes. Reading: `take` along the merged axes when V is contiguous and they are adjacent (a free
  reshape), else `gather`, which reads V with its own strides. Writing: `put` over V with the
  indexed axes merged (moved to the front first when numpy puts B first), last write winning
  for repeated indices, then the new window is assigned back, so every alias sees it.
"""
import builtins
import operator

from .. import _core
from . import _dtypes
from ._common import asarray, ndarray

_FN = {"take": 0, "__getitem__": 1, "__setitem__": 2, "ravel_multi_index": 3, "put": 4, "take_along_axis": 5,
       "put_along_axis": 6, "choose": 7, "nonzero": 8, "compress": 9, "extract": 10}
_RAISE, _WRAP, _CLIP, _STRICT = 0, 1, 2, 3
_MODES = {"raise": _RAISE, "wrap": _WRAP, "clip": _CLIP}
_I64 = _dtypes.dtype("int64")._code
_BOOL = _dtypes.dtype("bool")._code
_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays "
              "are valid indices")
_bool, _int, _range = builtins.bool, builtins.int, builtins.range


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def _as_i64(x):
    return x if x.dtype.kind == "i" and x.dtype.itemsize == 8 else _core.astype(x, _I64)


def _reshape(a, shape):
    return _core.reshape(a, [_int(s) for s in shape])


# ---- parsing a key ----

class _Item:
    """One component of a key: kind is 'int', 'slice', 'new', 'ell', 'arr' (integer array) or 'mask'."""
    __slots__ = ("kind", "value")

    def __init__(self, kind, value=None):
        self.kind = kind
        self.value = value


def _item_of(k, fn):
    if k is None:
        return _Item("new")
    if k is Ellipsis:
        return _Item("ell")
    if isinstance(k, slice):
        return _Item("slice", k)
    if isinstance(k, _bool):
        return _Item("mask", _core.scalar(k, _BOOL))
    if isinstance(k, ndarray):
        arr = k
    elif isinstance(k, (list, tuple)) or hasattr(k, "__array_interface__") or hasattr(k, "__array__") or \
            (hasattr(k, "dtype") and hasattr(k, "shape")):
        if isinstance(k, (list, tuple)) and len(k) == 0:
            return _Item("arr", _core.empty([0], _I64))
        try:
            arr = asarray(k)
        except (TypeError, ValueError):
            raise IndexError(f"[mnn.numpy.{fn}] {_BAD_INDEX}") from None
    else:
        try:
            return _Item("int", operator.index(k))
        except TypeError:
            raise IndexError(f"[mnn.numpy.{fn}] {_BAD_INDEX}") from None
    kind = arr.dtype.kind
    if kind == "b":
        return _Item("mask", arr)
    if kind not in "iu":
        raise IndexError(f"[mnn.numpy.{fn}] arrays used as indices must be of integer (or boolean) type")
    if arr.ndim == 0:  # numpy treats 0-d integer arrays as integers
        return _Item("int", _int(_core.item(arr, 0)))
    return _Item("arr", _as_i64(arr))


class _Plan:
    """The basic part of a key as a tuple for the C++ indexer, and the advanced groups on its result.

    groups: (v_axis, v_count, shown_axis, index) with index an int64 array over the merged axes
    v_axis .. v_axis+v_count-1 of the basic view (already flat positions for masks).
    """
    __slots__ = ("basic", "groups", "adjacent", "trivial_basic", "mask")


def _parse(a, key, fn):
    items = [_item_of(k, fn) for k in (key if isinstance(key, tuple) else (key,))]
    n_ell = builtins.sum(1 for it in items if it.kind == "ell")
    if n_ell > 1:
        raise IndexError(f"[mnn.numpy.{fn}] an index can only have a single ellipsis ('...')")
    consumed = builtins.sum(it.value.ndim if it.kind == "mask" else (it.kind in ("int", "slice", "arr"))
                            for it in items)
    if consumed > a.ndim:
        raise IndexError(f"[mnn.numpy.{fn}] too many indices for array: array is {a.ndim}-dimensional, but "
                         f"{consumed} were indexed")
    has_array = builtins.any(it.kind in ("arr", "mask") for it in items)
    basic, groups, adv_pos = [], [], []
    a_axis = 0   # axis of `a` the next item consumes
    v_axis = 0   # axis of the basic view the next item produces
    for pos, it in enumerate(items):
        k = it.kind
        if k == "ell":
            for _ in _range(a.ndim - consumed):
                basic.append(slice(None))
            a_axis += a.ndim - consumed
            v_axis += a.ndim - consumed
        elif k == "new":
            basic.append(None)
            v_axis += 1
        elif k == "slice":
            basic.append(it.value)
            a_axis += 1
            v_axis += 1
        elif k == "int":
            basic.append(it.value)
            if has_array:
                adv_pos.append(pos)
            a_axis += 1
        elif k == "arr":
            basic.append(slice(None))
            groups.append((v_axis, 1, a_axis, it.value))
            adv_pos.append(pos)
            a_axis += 1
            v_axis += 1
        else:  # mask
            m = it.value
            adv_pos.append(pos)
            if m.ndim == 0:
                basic.append(None)
                hit = _bool(_core.item(m, 0))
                idx = _core.full([1], _core.scalar(0, _I64), _I64) if hit else _core.empty([0], _I64)
                groups.append((v_axis, 1, a_axis, idx))
                v_axis += 1
                continue
            for i in _range(m.ndim):
                if m.shape[i] != a.shape[a_axis + i]:
                    raise IndexError(f"[mnn.numpy.{fn}] boolean index did not match indexed array along axis "
                                     f"{a_axis + i}; size of axis is {a.shape[a_axis + i]} but size of "
                                     f"corresponding boolean axis is {m.shape[i]}")
            flat = _core.prim("nonzero", [m], [1])
            for _ in _range(m.ndim):
                basic.append(slice(None))
            groups.append((v_axis, m.ndim, a_axis, flat))
            a_axis += m.ndim
            v_axis += m.ndim
    plan = _Plan()
    plan.basic = tuple(basic)
    plan.groups = groups
    plan.adjacent = not adv_pos or adv_pos[-1] - adv_pos[0] == len(adv_pos) - 1
    plan.trivial_basic = builtins.all(isinstance(b, slice) and b == slice(None) for b in basic)
    only = items[0] if len(items) == 1 else None
    plan.mask = only.value if only is not None and only.kind == "mask" and only.value.ndim > 0 else None
    return plan


def _broadcast_indices(groups, fn):
    shapes = [tuple(g[3].shape) for g in groups]
    if len(set(shapes)) == 1:
        return [g[3] for g in groups], list(shapes[0])
    nd = builtins.max(len(s) for s in shapes)
    out = []
    for i in _range(nd):
        dims = {s[i - nd + len(s)] for s in shapes if i - nd + len(s) >= 0} - {1}
        if len(dims) > 1:
            raise IndexError(f"[mnn.numpy.{fn}] shape mismatch: indexing arrays could not be broadcast together "
                             f"with shapes " + " ".join(str(s).replace(",)", ",)") for s in shapes))
        out.append(dims.pop() if dims else 1)
    return [g[3] for g in groups], out  # ravel_index broadcasts them itself


def _layout(a, plan, fn):
    """Where the advanced groups of a parsed key sit: (src, merged, flat, lead, shown, bshape).

    src is the basic view (its indexed axes moved to the front when numpy puts the broadcast
    index axes first); merged is src with the indexed axes merged into one at `lead` (a copy
    only when they cannot be merged in place); flat indexes that axis.
    """
    v = a if plan.trivial_basic else a[plan.basic]
    groups = plan.groups
    indices, bshape = _broadcast_indices(groups, fn)
    first = groups[0][0]
    axes = [g[0] + i for g in groups for i in _range(g[1])]
    if plan.adjacent and axes == list(_range(first, first + len(axes))):
        src, lead = v, first
    else:
        src, lead = _core.transpose(v, axes + [d for d in _range(v.ndim) if d not in axes]), 0
    k = len(axes)
    merged = src if k == 1 else _reshape(src, list(src.shape[:lead]) + [_prod(src.shape[lead:lead + k])] +
                                         list(src.shape[lead + k:]))
    if len(groups) == 1:  # one integer array (checked by take/ravel_index) or one mask's positions
        flat, shown = indices[0], groups[0][2]
    else:
        dims = [_prod(v.shape[g[0]:g[0] + g[1]]) for g in groups]
        flat = _core.prim("ravel_index", indices, [_FN[fn], _RAISE, len(groups)] + dims + [g[2] for g in groups] +
                          [len(bshape)] + bshape)
        shown = lead
    return src, merged, flat, lead, shown, bshape


def _same_shape_int_arrays(a, key):
    """The int64 forms of a key tuple of 2..a.ndim integer arrays of one shape (ndim >= 1), else None."""
    if not 1 < len(key) <= a.ndim:
        return None
    shape = None
    for k in key:
        if type(k) is not ndarray or k.dtype.kind not in "iu" or not k.ndim:
            return None
        if shape is None:
            shape = list(k.shape)
        elif list(k.shape) != shape:
            return None
    return [_as_i64(k) for k in key]


def _fast_take(a, key, fn):
    """a[mask] with a boolean mask over a's leading axes, or a[i0, i1, ...] with integer arrays of
    one shape on a's leading axes (a C-ordered); None for any other key."""
    if type(key) is ndarray:
        if key.dtype.kind != "b" or not key.ndim or list(key.shape) != list(a.shape[:key.ndim]):
            return None
        k = key.ndim
        merged = a if k == 1 else _reshape(a, [_prod(a.shape[:k])] + list(a.shape[k:]))
        return _core.prim("take", [merged, _core.prim("nonzero", [key], [1])], [0, _FN[fn], _RAISE, 0])
    keys = _same_shape_int_arrays(a, key) if type(key) is tuple else None
    if keys is None:
        return None
    n, shape = len(keys), list(keys[0].shape)
    flat = _core.prim("ravel_index", keys, [_FN[fn], _RAISE, n] + list(a.shape[:n]) + list(_range(n)) +
                      [len(shape)] + shape)
    merged = _reshape(a, [_prod(a.shape[:n])] + list(a.shape[n:]))
    return _core.prim("take", [merged, flat], [0, _FN[fn], _RAISE, 0])


def _getitem(a, key, fn="__getitem__"):
    if type(key) is ndarray and key.ndim and a.ndim and key.dtype.kind in "iu" and a._is_c_contiguous:
        return _core.prim("take", [a, _as_i64(key)], [0, _FN[fn], _RAISE, 0])  # a[index_array]: the hot case
    if a._is_c_contiguous and a.ndim:
        # The other common keys (a[mask], a[rows, cols]) as the general path below would record them,
        # without parsing the key item by item: that parse costs more than the two nodes it builds.
        fast = _fast_take(a, key, fn)
        if fast is not None:
            return fast
    plan = _parse(a, key, fn)
    if not plan.groups:
        return a[plan.basic]
    v = a if plan.trivial_basic else a[plan.basic]
    groups = plan.groups
    fid = _FN[fn]
    indices, bshape = _broadcast_indices(groups, fn)
    axes = [g[0] + i for g in groups for i in _range(g[1])]
    first = axes[0]
    in_place = plan.adjacent and axes == list(_range(first, first + len(axes)))
    single = len(groups) == 1
    if single and in_place and v._is_c_contiguous:  # take checks the indices itself
        flat = indices[0]
    elif single and groups[0][1] > 1:
        flat = indices[0]  # a mask's flat positions: in range by construction
    else:
        dims = [_prod(v.shape[g[0]:g[0] + g[1]]) for g in groups]
        flat = _core.prim("ravel_index", indices, [fid, _RAISE, len(groups)] + dims + [g[2] for g in groups] +
                          [len(bshape)] + bshape)
    if in_place and v._is_c_contiguous and plan.mask is None:
        # Adjacent indexed axes of contiguous data merge into one for free: take is the tuned row gather.
        # (A mask's positions are in range by construction: they go to gather below, which does
        # not evaluate them to check them, one evaluation less per a[mask].)
        k = len(axes)
        merged = v if k == 1 else _reshape(v, list(v.shape[:first]) + [_prod(v.shape[first:first + k])] +
                                           list(v.shape[first + k:]))
        return _core.prim("take", [merged, flat], [first, fid, _RAISE, groups[0][2] if single else first])
    # Everything else reads the view where it lies: no copy of the source, whatever its strides.
    return _core.prim("gather", [v, flat], [first if in_place else 0, len(axes)] + axes)


def _value_for(a, value):
    """A setitem value as an array of a's dtype (numpy casts unsafely on assignment)."""
    if isinstance(value, (_bool, _int, float, complex)):
        return _core.scalar(value, a.dtype._code)
    v = asarray(value)
    return v if v.dtype == a.dtype else _core.astype(v, a.dtype._code)


def _fit_value(v, shape, fn):
    """numpy's setitem broadcasting: leading length-1 axes of the value may be dropped first."""
    shape = list(shape)
    while v.ndim > len(shape) and v.shape[0] == 1:
        v = _reshape(v, v.shape[1:])
    try:
        if list(v.shape) == shape:
            return v
        return _core.broadcast_to(v, shape)
    except ValueError:
        raise ValueError(f"[mnn.numpy.{fn}] shape mismatch: value array of shape {tuple(v.shape)} could not be "
                         f"broadcast to indexing result of shape {tuple(shape)}") from None


def _setitem(a, key, value, fn="__setitem__"):
    if not a._writeable:
        raise ValueError(f"[mnn.numpy.{fn}] assignment destination is read-only")
    val = _value_for(a, value)
    if type(key) is ndarray and key.ndim and a.ndim and key.dtype.kind in "iu" and a._is_c_contiguous:
        # a[index_array] = v: rows of the array itself, no views to arrange.
        flat = _core.prim("ravel_index", [_as_i64(key)], [_FN[fn], _RAISE, 1, a.shape[0], 0])
        rows = list(flat.shape) + list(a.shape[1:])
        if flat.size:
            vals = _reshape(_fit_value(val, rows, fn), [flat.size] + list(a.shape[1:]))
            _core.assign(a, _core.prim("put", [a, _reshape(flat, [flat.size]), vals], [0]))
        else:
            _fit_value(val, rows, fn)
        return
    if type(key) is ndarray and key.dtype.kind == "b" and 0 < key.ndim <= a.ndim and val.size == 1 and \
            key.shape == a.shape[:key.ndim]:
        # a[mask] = scalar with a matching mask (the common case): the fused select below, without
        # parsing the key, whose mask positions (an evaluation of the mask) this form never uses
        mb = _reshape(key, list(key.shape) + [1] * (a.ndim - key.ndim))
        _core.assign(a, _core.ufunc(_WHERE, mb, _reshape(val, []), a))
        return
    if type(key) is tuple and a._is_c_contiguous:
        keys = _same_shape_int_arrays(a, key)
        if keys is not None:  # a[rows, cols] = v: what the general path below records, unparsed
            n, shape = len(keys), list(keys[0].shape)
            flat = _core.prim("ravel_index", keys, [_FN[fn], _RAISE, n] + list(a.shape[:n]) + list(_range(n)) +
                              [len(shape)] + shape)
            rest = list(a.shape[n:])
            vals = _fit_value(val, shape + rest, fn)
            size = _prod(shape)
            if size == 0 or a.size == 0:
                return
            merged = _reshape(a, [_prod(a.shape[:n])] + rest)
            new = _core.prim("put", [merged, _reshape(flat, [size]), _reshape(vals, [size] + rest)], [0])
            _core.assign(a, _reshape(new, a.shape))
            return
    plan = _parse(a, key, fn)
    if not plan.groups:
        _core.assign(a[plan.basic], val)
        return
    # One boolean mask and one value (a[mask] = 0, the common case): a fused select over the
    # whole array, with no index arrays at all.
    if plan.mask is not None and val.size == 1:
        m = plan.mask
        mb = _reshape(m, list(m.shape) + [1] * (a.ndim - m.ndim))
        _core.assign(a, _core.ufunc(_WHERE, mb, _reshape(val, []), a))
        return
    src, merged, flat, lead, shown, bshape = _layout(a, plan, fn)
    out_shape = list(merged.shape[:lead]) + list(bshape) + list(merged.shape[lead + 1:])
    vals = _fit_value(val, out_shape, fn)
    # validate, and make non-negative, the indices that put trusts; a mask's positions (nonzero of
    # the mask itself) are both by construction, and skipping the check saves an evaluation
    if len(plan.groups) == 1 and plan.mask is None:
        flat = _core.prim("ravel_index", [flat], [_FN[fn], _RAISE, 1, merged.shape[lead], shown])
    if flat.size == 0 or merged.size == 0:
        return
    vals = _reshape(vals, list(merged.shape[:lead]) + [flat.size] + list(merged.shape[lead + 1:]))
    new = _core.prim("put", [merged, _reshape(flat, [flat.size]), vals], [lead])
    _core.assign(src, _reshape(new, src.shape))


_WHERE = None


def _install():
    global _WHERE
    from ._ufuncs import _OPCODES
    _WHERE = _OPCODES["where"]
    _core._set_index_hooks(_getitem, _setitem)


_install()


# ---- index functions ----

def _mode_code(mode, fn):
    try:
        return _MODES[mode]
    except (KeyError, TypeError):
        raise ValueError(f"[mnn.numpy.{fn}] clipmode must be one of 'clip', 'raise', or 'wrap'") from None


def _int_indices(x, fn, error=TypeError):
    """An index argument as an int64 array (bools count as integers, as numpy's safe cast allows)."""
    if isinstance(x, (list, tuple)) and len(x) == 0:
        return _core.empty([0], _I64)
    x = asarray(x)
    if x.dtype.kind not in "iub":
        raise error(f"[mnn.numpy.{fn}] Cannot cast array data from {x.dtype!r} to dtype('int64') according to the "
                    f"rule 'safe'")
    return _as_i64(x)


def _norm_axis(axis, nd, fn):
    try:
        ax = operator.index(axis)
    except TypeError:
        raise TypeError(f"[mnn.numpy.{fn}] 'axis' must be None or an integer") from None
    if not -nd <= ax < nd:
        raise _core.AxisError(f"[mnn.numpy.{fn}] axis {ax} is out of bounds for array of dimension {nd}")
    return ax % nd


def _flat(a):
    return _reshape(a, [a.size])


def take(a, indices, axis=None, out=None, mode="raise"):
    """numpy.take: elements of a (flattened when axis is None) at indices along an axis."""
    from ._common import write_out
    a = asarray(a)
    m = _mode_code(mode, "take")
    idx = _int_indices(indices, "take")
    if axis is None:
        a, ax = _flat(a), 0
    else:
        ax = _norm_axis(axis, a.ndim, "take")
    return write_out(_core.prim("take", [a, idx], [ax, _FN["take"], m, ax]), out, "take", "unsafe")


def put(a, ind, v, mode="raise"):
    """numpy.put: a.flat[ind] = v in place, v repeated as needed, the last repeat of an index winning."""
    if not isinstance(a, ndarray):
        raise TypeError(f"[mnn.numpy.put] argument 1 must be mnn.numpy.ndarray, not {type(a).__name__}")
    if not a._writeable:
        raise ValueError("[mnn.numpy.put] assignment destination is read-only")
    m = _mode_code(mode, "put")
    if isinstance(ind, ndarray) and ind.dtype == _dtypes.dtype("uint64"):  # put casts its indices safely
        raise TypeError("[mnn.numpy.put] Cannot cast array data from dtype('uint64') to dtype('int64') according to "
                        "the rule 'safe'")
    idx = _flat(_int_indices(ind, "put"))
    vals = _flat(_value_for(a, v))
    if idx.size == 0 or vals.size == 0:
        return
    if a.size == 0:
        raise IndexError("[mnn.numpy.put] cannot replace elements of an empty array")
    pos = _core.prim("ravel_index", [idx], [_FN["put"], m, 1, a.size, 0])
    if vals.size != idx.size:
        reps = _core.prim("ravel_index", [_core.arange_int(0, idx.size, 1, _I64)], [_FN["put"], _WRAP, 1, vals.size, 0])
        vals = _core.prim("take", [vals, reps], [0])
    new = _core.prim("put", [_flat(a), pos, vals], [0])
    _core.assign(a, _reshape(new, a.shape))


def _along_axis_key(arr, indices, axis, fn):
    if indices.dtype.kind not in "iu":
        raise IndexError(f"[mnn.numpy.{fn}] `indices` must be an integer array")
    if indices.ndim != arr.ndim:
        raise ValueError(f"[mnn.numpy.{fn}] `indices` and `arr` must have the same number of dimensions")
    key = []
    for d in _range(arr.ndim):
        if d == axis:
            key.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            key.append(_reshape(_core.arange_int(0, arr.shape[d], 1, _I64), shape))
    return tuple(key)


def take_along_axis(arr, indices, axis=-1):
    """numpy.take_along_axis: arr's elements at indices along axis (indices broadcast against arr)."""
    arr, indices = asarray(arr), asarray(indices)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("[mnn.numpy.take_along_axis] when axis=None, `indices` must have a single dimension.")
        arr, axis = _flat(arr), 0
    else:
        axis = _norm_axis(axis, arr.ndim, "take_along_axis")
    return _getitem(arr, _along_axis_key(arr, indices, axis, "take_along_axis"), "take_along_axis")


def put_along_axis(arr, indices, values, axis):
    """numpy.put_along_axis: arr[...indices along axis...] = values, in place."""
    if not isinstance(arr, ndarray):
        raise TypeError("[mnn.numpy.put_along_axis] arr must be an mnn.numpy.ndarray")
    indices = asarray(indices)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("[mnn.numpy.put_along_axis] when axis=None, `indices` must have a single dimension.")
        target, axis = _flat(arr), 0
        if not arr._is_c_contiguous:  # a copy: write it back as a whole
            flat = _core.copy(target)
            _setitem(flat, _along_axis_key(flat, indices, 0, "put_along_axis"), values, "put_along_axis")
            _core.assign(arr, _reshape(flat, arr.shape))
            return
    else:
        target, axis = arr, _norm_axis(axis, arr.ndim, "put_along_axis")
    _setitem(target, _along_axis_key(target, indices, axis, "put_along_axis"), values, "put_along_axis")


def nonzero(a):
    """numpy.nonzero: a tuple of int64 coordinate arrays, one per axis, in row-major order."""
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError("[mnn.numpy.nonzero] Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead. If the context of this error is of the form "
                         "`arr[nonzero(cond)]`, just use `arr[cond]`.")
    if a.ndim == 1:
        return (_core.prim("nonzero", [a], [1]),)
    coords = _core.prim("nonzero", [a], [0])
    return tuple(coords[d] for d in _range(a.ndim))


def flatnonzero(a):
    """numpy.flatnonzero: positions of the nonzero elements of a.ravel()."""
    a = asarray(a)
    return _core.prim("nonzero", [_flat(a)], [1])


def argwhere(a):
    """numpy.argwhere: (count, a.ndim) coordinates of the nonzero elements."""
    a = asarray(a)
    if a.ndim == 0:
        c = _core.prim("nonzero", [_flat(a)], [1]).size
        return _core.empty([c, 0], _I64)
    return _core.transpose(_core.prim("nonzero", [a], [0]), [1, 0])


def where(condition, x=None, y=None, /):
    """numpy.where: with x and y, a select; with the condition alone, nonzero(condition)."""
    if x is None and y is None:
        if getattr(getattr(condition, "dtype", None), "kind", None) == "U":  # strings: the non-empty ones
            condition = condition._nonempty() if hasattr(condition, "_nonempty") else condition != ""
        return nonzero(condition)
    from ._ufuncs import where as _where
    return _where(condition, x, y)


def compress(condition, a, axis=None, out=None):
    """numpy.compress: the slices of a along axis where condition (1-d) is true."""
    from ._common import write_out
    cond = asarray(condition)
    if cond.ndim != 1:
        raise ValueError("[mnn.numpy.compress] condition must be a 1-d array")
    a = asarray(a)
    if axis is None:
        a, ax = _flat(a), 0
    else:
        ax = _norm_axis(axis, a.ndim, "compress")
    idx = _core.prim("nonzero", [cond], [1])
    return write_out(_core.prim("take", [a, idx], [ax, _FN["compress"], _RAISE, ax]), out, "compress", "unsafe")


def extract(condition, arr):
    """numpy.extract: the elements of arr.ravel() where condition.ravel() is nonzero."""
    cond, arr = _flat(asarray(condition)), _flat(asarray(arr))
    idx = _core.prim("nonzero", [cond], [1])
    return _core.prim("take", [arr, idx], [0, _FN["extract"], _RAISE, 0])


def choose(a, choices, out=None, mode="raise"):
    """numpy.choose: out[i] = choices[a[i]][i], everything broadcast together."""
    from ._common import write_out
    from ._dtypes import result_type
    from ._manipulation import broadcast_shapes, stack
    m = _mode_code(mode, "choose")
    a = asarray(a)
    if a.dtype.kind not in "iub":
        raise TypeError(f"[mnn.numpy.choose] Cannot cast array data from {a.dtype!r} to dtype('int64') according "
                        f"to the rule 'safe'")
    if isinstance(choices, ndarray):
        choices = [choices[i] for i in _range(choices.shape[0])]
    choices = [asarray(c) for c in choices]
    if not choices:
        raise ValueError("[mnn.numpy.choose] 0-length sequence.")
    dt = result_type(*choices)
    try:
        shape = list(broadcast_shapes(a.shape, *[c.shape for c in choices]))
    except ValueError:
        raise ValueError("[mnn.numpy.choose] shape mismatch: objects cannot be broadcast to a single shape") from None
    cs = [_core.broadcast_to(c if c.dtype == dt else _core.astype(c, dt._code), shape) for c in choices]
    stacked = stack(cs)
    idx = _core.broadcast_to(_as_i64(a), shape)
    n, size = len(cs), _prod(shape)
    sel = _core.prim("ravel_index", [idx], [_FN["choose"], _STRICT if m == _RAISE else m, 1, n, 0])
    flat = sel * size + _reshape(_core.arange_int(0, size, 1, _I64), shape)
    return write_out(_core.prim("take", [_flat(stacked), flat], [0]), out, "choose", "unsafe")


def select(condlist, choicelist, default=0):
    """numpy.select: the choice of the first true condition, else default."""
    from ._dtypes import result_type
    from ._manipulation import broadcast_arrays
    if len(condlist) != len(choicelist):
        raise ValueError("[mnn.numpy.select] list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("[mnn.numpy.select] select with an empty condition list is not possible")
    choices = [asarray(c) for c in choicelist]
    dt = result_type(*choices, default)  # a Python scalar default is weak, as in numpy
    choices.append(asarray(default))
    conds = [asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype.kind != "b":
            raise TypeError(f"[mnn.numpy.select] invalid entry {i} in condlist: should be boolean ndarray")
    arrays = broadcast_arrays(*(conds + choices))
    conds, choices = arrays[:len(conds)], arrays[len(conds):]
    result = _core.astype(choices[-1], dt._code) if choices[-1].dtype != dt else choices[-1]
    for c, x in zip(reversed(conds), reversed(choices[:-1])):
        result = _core.ufunc(_WHERE, c, _core.astype(x, dt._code) if x.dtype != dt else x, result)
    return _core.copy(result) if not result._is_c_contiguous else result


def ix_(*args):
    """numpy.ix_: open mesh index arrays, the k-th of shape (1, .., n_k, .., 1)."""
    out = []
    nd = len(args)
    for k, seq in enumerate(args):
        if isinstance(seq, (list, tuple)) and len(seq) == 0:
            arr = _core.empty([0], _I64)
        else:
            arr = asarray(seq)
        if arr.ndim != 1:
            raise ValueError("[mnn.numpy.ix_] Cross index must be 1 dimensional")
        if arr.dtype.kind == "b":
            arr = _core.prim("nonzero", [arr], [1])
        shape = [1] * nd
        shape[k] = arr.size
        out.append(_reshape(arr, shape))
    return tuple(out)


def indices(dimensions, dtype=int, sparse=False):
    """numpy.indices: the grid of each axis's coordinate (dense: stacked; sparse: broadcastable)."""
    from ._common import dtype_code
    code = dtype_code(dtype)
    dims = [operator.index(d) for d in dimensions]
    nd = len(dims)
    grids = []
    for k, n in enumerate(dims):
        shape = [1] * nd
        shape[k] = n
        g = _reshape(_core.astype(_core.arange_int(0, n, 1, _I64), code), shape)
        grids.append(g if sparse else _core.broadcast_to(g, dims))
    if sparse:
        return tuple(grids)
    if nd == 0:
        return _core.empty([0], code)
    from ._manipulation import stack
    return stack(grids)


def _shape_arg(shape, fn):
    try:
        dims = [operator.index(d) for d in (shape if isinstance(shape, (tuple, list)) else (shape,))]
    except TypeError:
        raise TypeError(f"[mnn.numpy.{fn}] 'shape' must be a sequence of integers") from None
    for d in dims:
        if d < 0:
            raise ValueError(f"[mnn.numpy.{fn}] dimensions must be non-negative")
    return dims


def unravel_index(indices, shape, order="C"):
    """numpy.unravel_index: the coordinates of flat positions in an array of the given shape."""
    from ._reductions import max as _max, min as _min
    dims = _shape_arg(shape, "unravel_index")
    if order not in ("C", "F"):
        raise ValueError("[mnn.numpy.unravel_index] only 'C' or 'F' order is permitted")
    idx = asarray(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"[mnn.numpy.unravel_index] only int indices permitted")
    idx = _as_i64(idx)
    size = _prod(dims)
    if idx.size:
        lo, hi = _int(_core.item(_min(idx), 0)), _int(_core.item(_max(idx), 0))
        bad = lo if lo < 0 else (hi if hi >= size else None)
        if bad is not None:
            raise ValueError(f"[mnn.numpy.unravel_index] index {bad} is out of bounds for array with size {size}")
    out = [None] * len(dims)
    rest = idx
    order_dims = list(_range(len(dims) - 1, -1, -1)) if order == "C" else list(_range(len(dims)))
    for d in order_dims:
        n = dims[d]
        if n == 0:
            out[d] = rest
            continue
        out[d] = rest % n
        rest = rest // n
    return tuple(_core.copy(o) for o in out)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """numpy.ravel_multi_index: flat positions of coordinate arrays in an array of shape dims."""
    from ._manipulation import broadcast_shapes
    dims = _shape_arg(dims, "ravel_multi_index")
    if order not in ("C", "F"):
        raise ValueError("[mnn.numpy.ravel_multi_index] only 'C' or 'F' order is permitted")
    coords = [asarray(c) for c in multi_index]
    if len(coords) != len(dims):
        raise ValueError(f"[mnn.numpy.ravel_multi_index] parameter multi_index must be a sequence of length "
                         f"{len(dims)}")
    for c in coords:
        if c.dtype.kind not in "iu":
            raise TypeError(f"[mnn.numpy.ravel_multi_index] Cannot cast array data from {c.dtype!r} to "
                            f"dtype('int64') according to the rule 'safe'")
    modes = list(mode) if isinstance(mode, (tuple, list)) else [mode] * len(dims)
    if len(modes) != len(dims):
        raise ValueError("[mnn.numpy.ravel_multi_index] mode must be a string or a sequence of len(dims) strings")
    codes = [_mode_code(md, "ravel_multi_index") for md in modes]
    try:
        shape = list(broadcast_shapes(*[c.shape for c in coords]))
    except ValueError:
        raise ValueError("[mnn.numpy.ravel_multi_index] shape mismatch: objects cannot be broadcast to a single "
                         "shape") from None
    coords = [_as_i64(c) for c in coords]
    fixed = []
    for c, n, md in zip(coords, dims, codes):
        if md != _RAISE:  # wrap/clip normalise first, then the strict check passes
            c = _core.prim("ravel_index", [c], [_FN["ravel_multi_index"], md, 1, n, 0])
        fixed.append(c)
    if order == "F":
        fixed, dims = fixed[::-1], dims[::-1]
    return _core.prim("ravel_index", fixed, [_FN["ravel_multi_index"], _STRICT, len(dims)] + dims + [0] * len(dims) +
                      [len(shape)] + shape)


def diag_indices(n, ndim=2):
    """numpy.diag_indices: ndim copies of arange(n)."""
    idx = _core.arange_int(0, operator.index(n), 1, _I64)
    return (idx,) * ndim


def diag_indices_from(arr):
    arr = asarray(arr)
    if arr.ndim < 2:
        raise ValueError("[mnn.numpy.diag_indices_from] input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("[mnn.numpy.diag_indices_from] All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def _tri_mask(n, k, m, upper):
    rows = _reshape(_core.arange_int(0, n, 1, _I64), [n, 1])
    cols = _reshape(_core.arange_int(0, m, 1, _I64), [1, m])
    diff = cols - rows
    return (diff >= k) if upper else (diff <= k)


def _tri_indices(n, k, m, upper):
    # the coordinates depend on (n, k, m) only: kept once computed, each call gets fresh copies
    from ._small_calls import cached_constant
    r = cached_constant(("tri", n, k, m, upper), n * m, lambda: nonzero(_tri_mask(n, k, m, upper)))
    return r if r is not None else nonzero(_tri_mask(n, k, m, upper))


def tril_indices(n, k=0, m=None):
    """numpy.tril_indices: coordinates of the lower triangle (j - i <= k) of an (n, m) array."""
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    return _tri_indices(n, operator.index(k), m, False)


def triu_indices(n, k=0, m=None):
    """numpy.triu_indices: coordinates of the upper triangle (j - i >= k) of an (n, m) array."""
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    return _tri_indices(n, operator.index(k), m, True)


def tril_indices_from(arr, k=0):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("[mnn.numpy.tril_indices_from] input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("[mnn.numpy.triu_indices_from] input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def _method_take(self, indices, axis=None, out=None, mode="raise"):
    return take(self, indices, axis=axis, out=out, mode=mode)


def _method_put(self, indices, values, mode="raise"):
    return put(self, indices, values, mode=mode)


def _method_compress(self, condition, axis=None, out=None):
    return compress(condition, self, axis=axis, out=out)


def _method_choose(self, choices, out=None, mode="raise"):
    return choose(self, choices, out=out, mode=mode)


for _name, _fn in {"take": _method_take, "put": _method_put, "nonzero": nonzero, "compress": _method_compress,
                   "choose": _method_choose}.items():
    if not hasattr(ndarray, _name):
        setattr(ndarray, _name, _fn)


def _masked_values(a, values, fn):
    """putmask/place convert lists and scalars like setitem, but arrays only by safe casting."""
    if isinstance(values, ndarray) or (hasattr(values, "__array_interface__") and getattr(values, "ndim", 0) > 0):
        v = asarray(values)
        if not _dtypes.can_cast(v.dtype, a.dtype, "safe"):
            raise TypeError(f"[mnn.numpy.{fn}] Cannot cast array data from {v.dtype!r} to {a.dtype!r} according to "
                            f"the rule 'safe'")
    return _flat(_value_for(a, values))


def putmask(a, mask, values):
    """numpy.putmask: a.flat[n] = values[n % len(values)] wherever mask.flat[n], in place."""
    if not isinstance(a, ndarray):
        raise TypeError("[mnn.numpy.putmask] first argument must be an array")
    if not a._writeable:
        raise ValueError("[mnn.numpy.putmask] assignment destination is read-only")
    mask = asarray(mask)
    if mask.size != a.size:
        raise ValueError("[mnn.numpy.putmask] mask and data must be the same size")
    if mask.dtype.kind != "b":
        mask = mask != 0
    vals = _masked_values(a, values, "putmask")
    if vals.size == 0:
        return
    if vals.size != a.size:  # values repeat along the flat positions of a (not of the selection)
        pos = _core.prim("ravel_index", [_core.arange_int(0, a.size, 1, _I64)], [_FN["put"], _WRAP, 1, vals.size, 0])
        vals = _core.prim("take", [vals, pos], [0])
    _core.assign(a, _core.ufunc(_WHERE, _reshape(mask, a.shape), _reshape(vals, a.shape), a))


def place(arr, mask, vals):
    """numpy.place: the selected elements of arr (flat order) take vals in turn, repeating them."""
    if not isinstance(arr, ndarray):
        raise TypeError(f"[mnn.numpy.place] argument 1 must be mnn.numpy.ndarray, not {type(arr).__name__}")
    mask = asarray(mask)
    if mask.size != arr.size:
        raise ValueError("[mnn.numpy.place] mask and data must be the same size")
    flat_mask = _flat(mask if mask.dtype.kind == "b" else mask != 0)
    pos = _core.prim("nonzero", [flat_mask], [1])
    v = _masked_values(arr, vals, "place")
    if pos.size == 0:
        return
    if v.size == 0:
        raise ValueError("[mnn.numpy.place] Cannot insert from an empty array!")
    if v.size != pos.size:
        reps = _core.prim("ravel_index", [_core.arange_int(0, pos.size, 1, _I64)], [_FN["put"], _WRAP, 1, v.size, 0])
        v = _core.prim("take", [v, reps], [0])
    new = _core.prim("put", [_flat(arr), pos, v], [0])
    _core.assign(arr, _reshape(new, arr.shape))
