"""numpy.lib.stride_tricks on mnn: sliding_window_view and as_strided.

The engine has no arbitrary-stride views, so both copy the windows into a new array (for
sliding_window_view one strided_window primitive) and mark it read-only: reads equal numpy's, and
a write raises instead of silently missing the source (numpy's sliding_window_view is read-only by
default too). einsum reads a window view it is handed as shifted slices of the source (see
window_source), so a stencil never materialises the windows."""
import operator
import weakref

from ... import _core
from .._common import asarray


def _mnp():
    import sys
    return sys.modules["mnn.numpy"]


def _readonly(r):
    r._set_writeable(False)
    return r


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of shape window_shape; window axes are appended after the (shrunk) array axes."""
    if writeable:
        raise NotImplementedError("[mnn.numpy.lib.stride_tricks.sliding_window_view] writeable=True needs a "
                                  "strided view, which mnn does not have")
    x = asarray(x)
    window = tuple(window_shape) if isinstance(window_shape, (tuple, list)) else (window_shape,)
    window = tuple(operator.index(w) for w in window)
    if any(w < 0 for w in window):
        raise ValueError("[mnn.numpy.lib.stride_tricks.sliding_window_view] `window_shape` cannot contain "
                         "negative values")
    if axis is None:
        axes = tuple(range(x.ndim))
        if len(window) != x.ndim:
            raise ValueError("[mnn.numpy.lib.stride_tricks.sliding_window_view] Since axis is `None`, must "
                             f"provide window_shape for all dimensions of `x`; got {len(window)} window_shape "
                             f"elements and `x.ndim` is {x.ndim}.")
    else:
        axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        if len(window) != len(axes):
            raise ValueError("[mnn.numpy.lib.stride_tricks.sliding_window_view] Must provide matching length "
                             f"window_shape and axis; got {len(window)} window_shape elements and {len(axes)} "
                             "axes elements.")
    nd = x.ndim
    shape = list(x.shape)
    for ax, w in zip(axes, window):
        if not -nd <= ax < nd:
            raise _mnp().AxisError(f"[mnn.numpy.lib.stride_tricks.sliding_window_view] axis {ax} is out of "
                                   f"bounds for array of dimension {nd}")
        ax %= nd
        if shape[ax] < w:
            raise ValueError("[mnn.numpy.lib.stride_tricks.sliding_window_view] window shape cannot be larger "
                             "than input array shape")
        shape[ax] -= w - 1
    # one strided copy (the engine has no arbitrary-stride views): the window axes step like the
    # array axes they slide along, in the C-ordered input the primitive reads
    cs = [1] * nd
    for d in range(nd - 2, -1, -1):
        cs[d] = cs[d + 1] * x.shape[d + 1]
    out_shape = shape + list(window)
    strides = cs + [cs[ax % nd] for ax in axes]
    r = _core.prim("strided_window", [x], [len(out_shape)] + out_shape + strides, [])
    _remember(r, x, [ax % nd for ax in axes], window)
    return _readonly(r)


# Windows made here, by id: (weakref, a lazy copy of the source at the time, axes, window). A
# consumer that reads each window position as a whole (einsum with small weights: a stencil) can
# slice the source instead of the window copy, which is then never computed. The copy pins the
# source's value at this call, as the window copy does, whatever is written to it later.
_WINDOWS = {}


def _remember(r, x, axes, window):
    key = id(r)

    def forget(ref, key=key):
        if _WINDOWS.get(key, (None,))[0] is ref:
            del _WINDOWS[key]
    _WINDOWS[key] = (weakref.ref(r, forget), _core.copy(x), axes, tuple(window))


def window_source(a):
    """(source copy, axes, window) when a is a sliding_window_view result, else None."""
    e = _WINDOWS.get(id(a))
    if e is None or e[0]() is not a:
        return None
    return e[1:]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """numpy's as_strided, as a gather: element (i0, i1, ...) is the one at byte offset
    sum(i_k * strides[k]) from the start of x (x read as its C-ordered copy when not contiguous)."""
    mnp = _mnp()
    x = asarray(x)
    shape = tuple(x.shape) if shape is None else tuple(shape)
    item = x.dtype.itemsize
    if strides is None:
        if x._is_c_contiguous:
            strides = tuple(x.strides)
        else:
            raise ValueError("[mnn.numpy.lib.stride_tricks.as_strided] strides= is required for a "
                             "non-contiguous input")
    strides = tuple(strides)
    if len(strides) != len(shape):
        raise ValueError("[mnn.numpy.lib.stride_tricks.as_strided] mismatch in length of strides and shape")
    if any(s % item for s in strides):
        raise ValueError("[mnn.numpy.lib.stride_tricks.as_strided] strides must be multiples of the itemsize")
    flat = _core.reshape(x if x._is_c_contiguous else _core.as_contiguous(x), [-1])
    off = mnp.zeros(shape, dtype=mnp.int64)
    for k, (n, s) in enumerate(zip(shape, strides)):
        view = [1] * len(shape)
        view[k] = n
        off = off + (mnp.arange(n, dtype=mnp.int64) * (s // item)).reshape(view)
    if off.size and (int(off.min()) < 0 or int(off.max()) >= flat.shape[0]):
        raise ValueError("[mnn.numpy.lib.stride_tricks.as_strided] the strides reach outside the array's memory "
                         "(numpy would read unrelated memory here)")
    r = flat[off] if off.size else mnp.empty(shape, dtype=x.dtype)
    return _readonly(r)

