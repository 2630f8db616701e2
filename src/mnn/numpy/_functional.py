"""Calling Python functions over arrays: apply_along_axis, apply_over_axes, vectorize, piecewise,
fromfunction, frompyfunc. These run Python per slice or per element (as numpy's do), so they are
for glue code, not for hot loops."""
import functools

from .. import _core
from ._common import asarray, ndarray


def _mnp():
    import sys
    return sys.modules["mnn.numpy"]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d on every 1-d slice along `axis`; its result's axes replace `axis` in the output."""
    mnp = _mnp()
    a = asarray(arr)
    nd = a.ndim
    if not -nd <= axis < nd:
        raise _core.AxisError(f"[mnn.numpy.apply_along_axis] axis {axis} is out of bounds for array of dimension {nd}")
    axis %= nd
    moved = mnp.moveaxis(a, axis, -1)
    outer = moved.shape[:-1]
    if 0 in outer:
        raise ValueError("[mnn.numpy.apply_along_axis] Cannot apply_along_axis when any iteration dimensions are 0")
    # one outer axis (a 2-d input): plain int indices, cheaper than ndindex's tuples
    idxs = range(outer[0]) if len(outer) == 1 else mnp.ndindex(outer)
    results = [asarray(func1d(moved[idx], *args, **kwargs)) for idx in idxs]
    res = _join(results, mnp)  # (prod(outer), *res_shape)
    res = _core.reshape(res, list(outer) + list(results[0].shape))
    # the result's own axes go where `axis` was
    k = results[0].ndim
    order = list(range(axis)) + list(range(len(outer), len(outer) + k)) + list(range(axis, len(outer)))
    return _core.transpose(res, order) if order != list(range(len(order))) else res


def _join(results, mnp):
    """stack(results); when every result is a 1-d array of one shape and dtype (the usual case),
    one concatenate and one reshape instead of an expand_dims per result."""
    r0 = results[0]
    shape, dt = r0.shape, r0.dtype
    if len(shape) == 1 and all(r.__class__ is ndarray and r.dtype is dt and r.shape == shape for r in results):
        return _core.reshape(_core.concatenate(results, 0, dt._code), [len(results), shape[0]])
    return mnp.stack(results)


def apply_over_axes(func, a, axes):
    """func(a, axis) repeatedly; each result must keep the number of dimensions (or lose one, which
    is put back)."""
    mnp = _mnp()
    val = asarray(a)
    n = val.ndim
    for axis in (axes if isinstance(axes, (tuple, list)) else [axes]):
        if axis < 0:
            axis += n
        res = asarray(func(val, axis))
        if res.ndim == val.ndim:
            val = res
        else:
            res = mnp.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("[mnn.numpy.apply_over_axes] function is not returning an array of the correct shape")
            val = res
    return val


def _outputs_to_arrays(values, shape, otypes):
    mnp = _mnp()
    if otypes:
        return mnp.asarray(values, dtype=otypes[0]).reshape(shape)
    return mnp.asarray(values).reshape(shape)


class vectorize:
    """numpy.vectorize: pyfunc over broadcast elements, Python values in, an array out; the output
    dtype is otypes[0], else that of the first result (numpy's rule)."""

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if signature is not None:
            raise NotImplementedError("[mnn.numpy.vectorize] signature= is not supported yet")
        self.pyfunc = pyfunc
        self.otypes = list(otypes) if otypes is not None and not isinstance(otypes, str) else (
            list(otypes) if otypes else None)
        self.excluded = set(excluded or ())
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)
        if pyfunc is not None:
            functools.update_wrapper(self, pyfunc, updated=())

    def __call__(self, *args, **kwargs):
        if self.pyfunc is None:  # used as @vectorize(otypes=...)
            return vectorize(args[0], otypes=self.otypes, excluded=self.excluded)
        mnp = _mnp()
        pos = [i for i in range(len(args)) if i not in self.excluded]
        kw = [k for k in kwargs if k not in self.excluded]
        arrays = [mnp.asarray(args[i]) for i in pos] + [mnp.asarray(kwargs[k]) for k in kw]
        if not arrays:
            return self.pyfunc(*args, **kwargs)
        b = mnp.broadcast_arrays(*arrays)
        shape = b[0].shape
        lists = [x.reshape(-1).tolist() if x.ndim else [x.item()] for x in b]
        call_args = list(args)
        call_kw = dict(kwargs)
        out = []
        if not kw and len(pos) == len(args):  # every argument vectorized: map calls at C speed
            out = list(map(self.pyfunc, *lists))
            lists = ()
        for vals in zip(*lists):
            for j, i in enumerate(pos):
                call_args[i] = vals[j]
            for j, k in enumerate(kw):
                call_kw[k] = vals[len(pos) + j]
            out.append(self.pyfunc(*call_args, **call_kw))
        if not out:
            if not self.otypes:
                raise ValueError("[mnn.numpy.vectorize] cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            return mnp.empty(shape, dtype=self.otypes[0])
        if isinstance(out[0], tuple):
            return tuple(_outputs_to_arrays([o[k] for o in out], shape,
                                            self.otypes[k:k + 1] if self.otypes else None)
                         for k in range(len(out[0])))
        if not self.otypes:
            # numpy fixes the dtype from the first call's result
            first = mnp.asarray(out[0])
            dt = "U" if first.dtype.kind == "U" else first.dtype  # strings: sized by all the results
            return mnp.asarray(out, dtype=dt).reshape(shape)
        return _outputs_to_arrays(out, shape, self.otypes)


def frompyfunc(func, nin, nout, *, identity=None):
    """A vectorized func; numpy's result is an object array, mnn's takes the results' own dtype."""
    v = vectorize(func)
    v.nin, v.nout = nin, nout
    v.identity = identity
    return v


def piecewise(x, condlist, funclist, *args, **kw):
    """Each function (or constant) of funclist where its condition holds; an extra last entry is
    the default where no condition holds."""
    mnp = _mnp()
    x = asarray(x)
    if isinstance(condlist, ndarray) and condlist.ndim == x.ndim and condlist.dtype == mnp.bool_ or \
            not isinstance(condlist, (list, tuple, ndarray)) or (
            isinstance(condlist, (list, tuple)) and condlist and not isinstance(condlist[0], (list, tuple, ndarray))):
        condlist = [condlist]
    conds = [mnp.asarray(c, dtype=bool) for c in condlist]
    n = len(conds)
    if len(funclist) == n + 1:
        others = ~mnp.any(mnp.stack([mnp.broadcast_to(c, x.shape) for c in conds]), axis=0) if n else \
            mnp.ones(x.shape, dtype=bool)
        conds.append(others)
    elif len(funclist) != n:
        raise ValueError(f"[mnn.numpy.piecewise] with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = mnp.zeros_like(x)
    for cond, f in zip(conds, funclist):
        cond = mnp.broadcast_to(cond, x.shape)
        if not callable(f):
            y = mnp.where(cond, mnp.asarray(f).astype(y.dtype), y)
        else:
            vals = x[cond]
            if vals.size:
                y[cond] = f(vals, *args, **kw)
    return y


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function(*index_arrays): the index grids are passed at once, as numpy does."""
    mnp = _mnp()
    return function(*mnp.indices(shape, dtype=dtype), **kwargs)
