"""Shape manipulation: views where numpy gives views (reshape of contiguous data, transpose,
squeeze, expand_dims, broadcast, flip, split), copies where it must (concatenate, stack)."""
import operator

from .. import _core
from ._common import asarray, axis_tuple, ndarray, opt_dtype_code, shape_tuple, write_out


def _is_fortran_only(a):
    f = a.flags
    return f.f_contiguous and not f.c_contiguous


def _check_order(order, fn, allowed="CFAK"):
    if order is None:
        return "C"
    if not isinstance(order, str) or order.upper() not in allowed:
        raise ValueError(f"[mnn.numpy.{fn}] order must be one of {', '.join(repr(o) for o in allowed)}")
    return order.upper()


def reshape(a, /, shape=None, order="C", *, newshape=None, copy=None):
    if shape is None:
        shape = newshape
    order = _check_order(order, "reshape", "CFA")
    a = asarray(a)
    if order == "F" or order == "A" and _is_fortran_only(a):
        # Fortran order = C order on the reversed axes: read a's axes backwards, fill reversed shape
        dims = shape_tuple(shape)
        t = _core.transpose(a, list(range(a.ndim - 1, -1, -1)))
        try:
            r = _core.reshape(t, dims[::-1])
        except ValueError:
            raise ValueError(f"[mnn.numpy.reshape] cannot reshape array of size {a.size} into shape "
                             f"{tuple(dims)}") from None
        r = _core.transpose(r, list(range(len(dims) - 1, -1, -1)))
        if copy:
            r = _core.copy(r)
        elif copy is False and not r._same_storage(a):
            raise ValueError("[mnn.numpy.reshape] Unable to avoid creating a copy while reshaping.")
        return r
    r = _core.reshape(a, shape_tuple(shape))
    if copy:
        r = _core.copy(r)
    elif copy is False and not r._same_storage(a):
        raise ValueError("[mnn.numpy.reshape] Unable to avoid creating a copy while reshaping.")
    return r


def ravel(a, order="C"):
    """Elements in C order, or F order ('F'; 'A' for Fortran-contiguous input), or memory order ('K')."""
    a = asarray(a)
    order = _check_order(order, "ravel")
    if order == "F" or order == "A" and _is_fortran_only(a):
        return _core.reshape(_core.transpose(a, list(range(a.ndim - 1, -1, -1))), [-1])
    if order == "K" and a.ndim > 1 and not a.flags.c_contiguous:
        # memory order: axes by decreasing |stride| (numpy does not undo negative strides here)
        strides = a.strides
        perm = sorted(range(a.ndim), key=lambda i: -abs(strides[i]))
        return _core.reshape(_core.transpose(a, perm), [-1])
    return _core.reshape(a, [-1])


def transpose(a, axes=None):
    return _core.transpose(asarray(a), [] if axes is None else [operator.index(x) for x in axes])


permute_dims = transpose


def _norm(ax, nd, fn):
    if not -nd <= ax < nd:
        raise _core.AxisError(f"[mnn.numpy.{fn}] axis {ax} is out of bounds for array of dimension {nd}")
    return ax % nd


def moveaxis(a, source, destination):
    a = asarray(a)
    src = [_norm(s, a.ndim, "moveaxis") for s in axis_tuple(source, "moveaxis")]
    dst = [_norm(d, a.ndim, "moveaxis") for d in axis_tuple(destination, "moveaxis")]
    if len(src) != len(dst):
        raise ValueError("[mnn.numpy.moveaxis] `source` and `destination` arguments must have the same number of "
                         "elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _core.transpose(a, order)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    order = list(range(a.ndim))
    i, j = _norm(axis1, a.ndim, "swapaxes"), _norm(axis2, a.ndim, "swapaxes")
    order[i], order[j] = order[j], order[i]
    return _core.transpose(a, order)


def matrix_transpose(x, /):
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError("[mnn.numpy.matrix_transpose] input array must be at least 2-dimensional")
    return swapaxes(x, -1, -2)


def squeeze(a, axis=None):
    return _core.squeeze(asarray(a), axis_tuple(axis, "squeeze") or [])


def expand_dims(a, axis):
    a = asarray(a)
    axes = axis_tuple(axis, "expand_dims")
    nd = a.ndim + len(axes)
    axes = sorted(_norm(x, nd, "expand_dims") for x in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("[mnn.numpy.expand_dims] repeated axis")
    for x in axes:
        a = _core.expand_dims(a, x)
    return a


def broadcast_to(array, shape, subok=False):
    a = asarray(array)
    r = _core.broadcast_to(a, shape_tuple(shape))
    if r is a:
        r = a[...]
    r._set_writeable(False)  # numpy: always read-only, even when no axis is repeated
    return r


def broadcast_shapes(*shapes):
    out = []
    for s in shapes:
        s = list(shape_tuple(s))
        n = max(len(out), len(s))
        a = [1] * (n - len(out)) + out
        b = [1] * (n - len(s)) + s
        res = []
        for x, y in zip(a, b):
            if x != y and x != 1 and y != 1:
                raise ValueError(f"[mnn.numpy.broadcast_shapes] shape mismatch: objects cannot be broadcast to a "
                                 f"single shape.  Mismatch is between {tuple(out)} and {tuple(s)}")
            res.append(y if x == 1 else x)
        out = res
    return tuple(out)


def broadcast_arrays(*args, subok=False):
    arrays = [asarray(a) for a in args]
    shape = broadcast_shapes(*[a.shape for a in arrays])
    return tuple(_core.broadcast_to(a, list(shape)) for a in arrays)


def flip(m, axis=None):
    return _core.flip(asarray(m), axis_tuple(axis, "flip") or [])


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = [asarray(a) for a in arrays]
    if axis is None:
        arrays = [_core.reshape(a, [-1]) for a in arrays]
        axis = 0
    r = _core.concatenate(arrays, operator.index(axis), opt_dtype_code(dtype))
    return write_out(r, out, "concatenate")


concat = concatenate


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("[mnn.numpy.stack] need at least one array to stack")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError("[mnn.numpy.stack] all input arrays must have the same shape")
    ax = _norm(operator.index(axis), len(shape) + 1, "stack")
    return concatenate([_core.expand_dims(a, ax) for a in arrays], ax, out, dtype=dtype)


def vstack(tup, *, dtype=None, casting="same_kind"):
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, 0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype)


def atleast_1d(*arys):
    res = [a if a.ndim >= 1 else _core.reshape(a, [1]) for a in map(asarray, arys)]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    res = []
    for a in map(asarray, arys):
        if a.ndim == 0:
            a = _core.reshape(a, [1, 1])
        elif a.ndim == 1:
            a = _core.expand_dims(a, 0)
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def split(ary, indices_or_sections, axis=0):
    """Views of consecutive pieces along axis (numpy's split: equal sections must divide exactly)."""
    a = asarray(ary)
    ax = _norm(operator.index(axis), a.ndim, "split")
    n = a.shape[ax]
    if isinstance(indices_or_sections, (list, tuple)) or (isinstance(indices_or_sections, ndarray)):
        bounds = [0] + [int(i) for i in indices_or_sections] + [n]
    else:
        sections = operator.index(indices_or_sections)
        if sections == 0:
            raise ZeroDivisionError("[mnn.numpy.split] integer modulo by zero")  # numpy's own error
        if sections < 0:
            raise ValueError("[mnn.numpy.split] number sections must be larger than 0.")
        if n % sections:
            raise ValueError("[mnn.numpy.split] array split does not result in an equal division")
        step = n // sections
        bounds = [i * step for i in range(sections + 1)]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        idx = [slice(None)] * a.ndim
        idx[ax] = slice(lo, hi)
        out.append(a[tuple(idx)])
    return out


def array_split(ary, indices_or_sections, axis=0):
    a = asarray(ary)
    ax = _norm(operator.index(axis), a.ndim, "array_split")
    n = a.shape[ax]
    if isinstance(indices_or_sections, (list, tuple)):
        return split(a, indices_or_sections, ax)
    sections = operator.index(indices_or_sections)
    if sections <= 0:
        raise ValueError("[mnn.numpy.array_split] number sections must be larger than 0.")
    each, extra = divmod(n, sections)
    sizes = [each + 1] * extra + [each] * (sections - extra)
    bounds, acc = [], 0
    for s in sizes[:-1]:
        acc += s
        bounds.append(acc)
    return split(a, bounds, ax)


def diagonal(a, offset=0, axis1=0, axis2=1):
    return _core.diagonal(asarray(a), offset, axis1, axis2)
