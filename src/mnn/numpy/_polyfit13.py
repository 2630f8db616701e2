"""polyfit against the same x again (apply_along_axis over rows, a loop over series): the scaled
Vandermonde matrix, its SVD and the rank depend on x, deg and rcond only, so they are kept for the
last few x and a repeated fit is two small products, with no evaluation. The first fit of an x
runs the same operations as linalg.lstsq (the same SVD, cut-off and products, in that order), and
the later ones reuse its realized factors, so every result has the bits the uncached path gives."""
import struct
from collections import OrderedDict

from .. import _core
from . import _dtypes

_MAX_N = 256     # x values read to the host for the key
_MAX_ORDER = 16
_KEEP = 8
_CACHE = OrderedDict()
_F8 = _dtypes.dtype("float64")


def _factors(x, order, rcond):
    """(u, sinv, vh, rank, scale) of polyfit's scaled Vandermonde matrix, as polyfit and
    linalg.lstsq compute them (an SVD failure raises here as it would there)."""
    from . import linalg
    from ._polynomial import vander
    from ._reductions import max as _max
    from ._reductions import sum as _sum
    from ._ufuncs import where
    lhs = vander(x, order)
    scale = _sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    a = linalg._stack(lhs, "lstsq", square=False)
    u, s, vh = linalg.svd(a, full_matrices=False)
    big = s > rcond * (_max(s) if s.size else 0)
    sinv = where(big, 1.0 / where(big, s, 1.0), 0.0).astype(a.dtype)
    rank = _sum(big)
    _core.eval(u, vh, sinv, scale, rank)
    return u, sinv, vh, int(rank), scale


def _sqrt(v):
    import sys
    return sys.modules["mnn.numpy"].sqrt(v)  # polyfit's own call


def fit(x, y, order, rcond):
    """polyfit(x, y, order - 1, rcond) without weights, full or cov; (coefficients, rank) or None
    where the general path must run (long or non-float64 x, float64 y only)."""
    from .linalg import _wants_grad
    n = x.shape[0]
    if n > _MAX_N or order > _MAX_ORDER or x.dtype != _F8 or y.dtype != _F8 or n == 0 or _wants_grad(x):
        return None  # (a gradient with respect to x needs the SVD on the tape)
    vals = x.tolist()
    key = (struct.pack(f"{n}d", *vals), order, float(rcond))
    ent = _CACHE.get(key)
    if ent is None:
        ent = _factors(x, order, rcond)
        _CACHE[key] = ent
        while len(_CACHE) > _KEEP:
            try:
                _CACHE.popitem(last=False)
            except KeyError:
                break
    else:
        try:
            _CACHE.move_to_end(key)
        except KeyError:  # dropped by another thread meanwhile: the entry in hand is still valid
            pass
    u, sinv, vh, rank, scale = ent
    from . import linalg
    b2 = _core.reshape(y, [y.shape[0], 1]) if y.ndim == 1 else y
    c = linalg.matmul(linalg.matrix_transpose(vh),
                      _core.expand_dims(sinv, -1) * linalg.matmul(linalg.matrix_transpose(u), b2))
    if y.ndim == 1:
        c = _core.reshape(c, [order])
    return (c.T / scale).T, rank
