"""Advanced indexing (a[idx] and a[idx] = v with integer arrays and boolean masks) and numpy's
index functions (take, put, nonzero, ix_, unravel_index, ...).

The C++ __getitem__/__setitem__ handle basic indices (ints, slices, None, Ellipsis) themselves and
call the hooks installed here for anything else. Every advanced index is reduced to the same
plan: apply the basic part as a view V, then gather (or scatter) along a group of V's axes with
one flat index array:

* integer arrays index one axis each; a k-d boolean mask indexes k axes at once through the flat
  positions of its True elements; a 0-d boolean is a new length-1 axis indexed by [0] or [].
* the index arrays broadcast to a shape B. When the advanced indices (integer scalars included)
  are adjacent in the key, B replaces their axes in place; otherwise B comes first (numpy's rule).
* the indexed axes are merged (moved to the front first in the second case), so the gather is
  one `take` of rows and the scatter one `put` (last write wins for repeated indices).
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
    return [_core.broadcast_to(g[3], out) for g in groups], out


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
        flat = _core.prim("ravel_index", indices, [_FN[fn], _RAISE, len(groups)] + dims + [g[2] for g in groups])
        shown = lead
    return src, merged, flat, lead, shown, bshape


def _getitem(a, key, fn="__getitem__"):
    plan = _parse(a, key, fn)
    if not plan.groups:
        return a[plan.basic]
    src, merged, flat, lead, shown, _ = _layout(a, plan, fn)
    return _core.prim("take", [merged, flat], [lead, _FN[fn], _RAISE, shown])


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
    if len(plan.groups) == 1:  # validate, and make non-negative, the indices that put trusts
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
