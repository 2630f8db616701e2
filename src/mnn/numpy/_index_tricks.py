"""numpy's index tricks: mgrid/ogrid, r_/c_, s_/index_exp, ndindex/ndenumerate, fill_diagonal,
mask_indices, and the ndarray.flat iterator."""
import itertools
import operator

from .. import _core
from ._common import asarray, ndarray


def _mnp():
    import sys
    return sys.modules["mnn.numpy"]


# ------------------------------------------------------------------ mgrid / ogrid


def _grid_axis(sl, fn="mgrid"):
    """One slice of mgrid[...]: a range (real step) or linspace (imaginary step: a number of points)."""
    mnp = _mnp()
    if not isinstance(sl, slice):
        raise TypeError(f"[mnn.numpy.{fn}] expected slices like 0:5 or 0:1:5j, got {type(sl).__name__}")
    start = 0 if sl.start is None else sl.start
    step = 1 if sl.step is None else sl.step
    stop = sl.stop
    if isinstance(step, complex):
        n = int(abs(step))
        return mnp.linspace(start, stop, n) if n != 1 else mnp.asarray([float(start)])
    return mnp.arange(start, stop, step)


class _Grid:
    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        mnp = _mnp()
        if isinstance(key, slice):
            return _grid_axis(key)
        axes = [_grid_axis(k) for k in key]
        # numpy gives every output one common dtype (float as soon as any bound or step is)
        dt = mnp.result_type(*axes)
        axes = [a.astype(dt) for a in axes]
        if self.sparse:
            n = len(axes)
            return tuple(_core.reshape(a, [-1 if i == j else 1 for j in range(n)]) for i, a in enumerate(axes))
        return mnp.stack(mnp.meshgrid(*axes, indexing="ij"))


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


# ------------------------------------------------------------------ r_ / c_


class _Concatenator:
    """r_[...] / c_[...]: slices become ranges, scalars 1-element arrays, then one concatenate."""

    def __init__(self, axis, ndmin, trans1d):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        mnp = _mnp()
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        parts = []
        scalars = []
        for i, item in enumerate(key):
            if isinstance(item, str):
                if i != 0:
                    raise ValueError("[mnn.numpy.r_] a string directive must come first")
                if item in ("r", "c"):
                    raise NotImplementedError("[mnn.numpy.r_] matrix directives 'r'/'c' are not supported")
                try:
                    vals = [int(v) for v in item.split(",")]
                except ValueError:
                    raise ValueError(f"[mnn.numpy.r_] unknown special directive {item!r}") from None
                axis = vals[0]
                if len(vals) > 1:
                    ndmin = vals[1]
                if len(vals) > 2:
                    trans1d = vals[2]
                continue
            if isinstance(item, slice):
                a = _grid_axis(item)
            elif isinstance(item, (int, float, complex, bool)) or (isinstance(item, ndarray) and item.ndim == 0):
                a = _core.reshape(asarray(item), [1])
                scalars.append(len(parts))
            else:
                a = asarray(item)
            if ndmin > a.ndim:
                a = self._promote(a, ndmin, trans1d)
            parts.append(a)
        if not parts:
            return mnp.asarray([])
        # numpy: scalars take the dtype the arrays agree on, weakly
        arrays = [p for i, p in enumerate(parts) if i not in scalars]
        if arrays and scalars:
            dt = mnp.result_type(*arrays, *[parts[i].item() for i in scalars])
            parts = [p.astype(dt) for p in parts]
        return mnp.concatenate(parts, axis=axis)

    @staticmethod
    def _promote(a, ndmin, trans1d):
        # numpy: new axes go in front (array(a, ndmin=...)), then the original axes are moved so
        # they start at position trans1d (c_ turns a 1-d input into a column)
        k2 = ndmin - a.ndim
        b = _core.reshape(a, [1] * k2 + list(a.shape))
        k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
        axes = list(range(ndmin))
        order = axes[:k1] + axes[k2:] + axes[k1:k2]
        return _core.transpose(b, order) if order != axes else b


r_ = _Concatenator(axis=0, ndmin=1, trans1d=-1)
c_ = _Concatenator(axis=-1, ndmin=2, trans1d=0)


class _IndexExpression:
    def __init__(self, maketuple):
        self.maketuple = maketuple

    def __getitem__(self, item):
        return (item,) if self.maketuple and not isinstance(item, tuple) else item


s_ = _IndexExpression(maketuple=False)
index_exp = _IndexExpression(maketuple=True)


# ------------------------------------------------------------------ ndindex / ndenumerate


class ndindex:
    """Every index tuple of a shape in C order (numpy.ndindex)."""

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        self.shape = tuple(operator.index(s) for s in shape)
        self._it = itertools.product(*(range(s) for s in self.shape))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


class ndenumerate:
    """(index, value) pairs of an array in C order; one transfer of the data, not one per element."""

    def __init__(self, arr):
        a = asarray(arr)
        self._values = iter(_core.tolist(_core.reshape(a, [-1])) if a.ndim else [_core.item(a, 0)])
        self._index = ndindex(a.shape)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._index), next(self._values)


# ------------------------------------------------------------------ diagonal helpers


def fill_diagonal(a, val, wrap=False):
    """numpy.fill_diagonal: in place; a 2-D array's main diagonal (tall ones restart after a gap
    row when wrap=True), or the a[i, i, ..., i] entries of an N-d array with equal sides."""
    if not isinstance(a, ndarray):
        raise TypeError("[mnn.numpy.fill_diagonal] a must be an mnn array")
    if a.ndim < 2:
        raise ValueError("[mnn.numpy.fill_diagonal] array must be at least 2-d")
    mnp = _mnp()
    if a.ndim == 2:
        rows, cols = a.shape
        step = cols + 1
        end = None if wrap else cols * cols
        flat = list(range(0, rows * cols, step))
        if end is not None:
            flat = [f for f in flat if f < end]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("[mnn.numpy.fill_diagonal] All dimensions of input must be of equal length")
        n = a.shape[0]
        step = sum(n ** i for i in range(a.ndim))
        flat = list(range(0, n * step, step))
    if not flat:
        return
    count = len(flat)
    if type(val) is float and a._is_c_contiguous and a._writeable and a.dtype.name in ("float64", "float32"):
        # fill_diagonal(m, 0.0) in a loop: the value as a scalar of m's dtype (one rounding, as the
        # float64 array the general path makes and casts), without building that array first
        _core.assign(_core.reshape(a, [-1])[:flat[-1] + 1:step], _core.scalar(val, a.dtype._code))
        return
    vals = asarray(val)
    if a._is_c_contiguous and a._writeable and vals.size in (1, count):
        # The diagonal of C-ordered data is a strided window of its flat view (numpy's a.flat[::step]):
        # one assignment through that window, instead of index arrays and a scatter (~60 us -> ~3 us).
        v = vals if vals.dtype == a.dtype else _core.astype(vals, a.dtype._code)
        window = _core.reshape(a, [-1])[:flat[-1] + 1:step]
        _core.assign(window, _core.reshape(v, [] if vals.size == 1 else [count]))
        return
    vflat = _core.reshape(vals, [-1])
    if vflat.shape[0] == 0:
        return
    if vflat.shape[0] != count:  # numpy cycles a short value list along the diagonal
        reps = -(-count // vflat.shape[0])
        vflat = mnp.tile(vflat, reps)[:count]
    idx = mnp.unravel_index(mnp.asarray(flat, dtype=mnp.int64), a.shape)
    a[idx] = vflat


def mask_indices(n, mask_func, k=0):
    """Indices where mask_func(ones((n, n)), k) is non-zero (e.g. triu)."""
    mnp = _mnp()
    m = mask_func(mnp.ones((n, n), dtype=int), k)
    return mnp.nonzero(m != 0)


# ------------------------------------------------------------------ ndarray.flat


class flatiter:
    """a.flat: the array as a 1-D sequence in C order; reads and writes go to `a` itself."""

    def __init__(self, base):
        self.base = base
        self._pos = 0

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return iter(_core.tolist(_core.reshape(self.base, [-1])) if self.base.ndim else [_core.item(self.base, 0)])

    def __getitem__(self, key):
        return _core.reshape(self.base, [-1])[key]

    def __setitem__(self, key, value):
        b = self.base
        mnp = _mnp()
        sel = mnp.arange(b.size)[key]  # the C-order positions `key` picks
        vals = asarray(value)
        if vals.ndim:
            if vals.size != sel.size:  # numpy repeats (or cuts) the values to fit
                vals = mnp.resize(_core.reshape(vals, [-1]), (sel.size,))
            vals = _core.reshape(vals, list(sel.shape))
        b[mnp.unravel_index(sel, b.shape)] = vals

    def copy(self):
        return _core.copy(_core.reshape(self.base, [-1]))

    def __array__(self, dtype=None, copy=None):
        return _core.reshape(self.base, [-1]).__array__(dtype)

    @property
    def index(self):
        return self._pos

    @property
    def coords(self):
        shape = self.base.shape
        out, p = [], self._pos
        for s in reversed(shape):
            out.append(p % s)
            p //= s
        return tuple(reversed(out))

