"""Shortcuts for the small calls numpy scripts make in loops (np.eye(4), np.trace(K), triu_indices,
np.array([0-d, 0-d, ...])), where the generic path's Python work costs several times what numpy
takes for the whole call. Each shortcut records exactly the values the generic path computes and
returns None (or is not taken) when its preconditions do not hold.

Constant results (identity matrices, triangle coordinates) are built once by the generic path,
evaluated, and kept; a call returns a lazy copy of the kept array, so callers never share memory
with the cache or with each other.
"""
from .. import _core
from . import _dtypes
from ._common import ndarray

_CACHE_LIMIT = 64           # kept constants (each at most _MAX_CACHED elements)
_MAX_CACHED = 1 << 14
_constants = {}


def cached_constant(key, size, build):
    """A fresh copy of build()'s (evaluated, kept) result for a hashable key; build() itself for big
    or unhashable requests."""
    if size > _MAX_CACHED:
        return None
    try:
        hit = _constants.get(key)
    except TypeError:  # an unhashable argument (a list as dtype, ...): the generic path decides
        return None
    if hit is None:
        hit = build()
        _core.eval(*hit) if isinstance(hit, tuple) else _core.eval(hit)
        if len(_constants) >= _CACHE_LIMIT:
            _constants.pop(next(iter(_constants)))
        _constants[key] = hit
    if isinstance(hit, tuple):
        return tuple(_core.copy(h) for h in hit)
    return _core.copy(hit)


def array_of_arrays(obj):
    """np.array([a0, a1, ...]) for mnn arrays of one shape (the 0-d results a loop collects): one
    concatenation of their values instead of a read-back per element; None otherwise."""
    n = len(obj)
    if n == 0 or n > 4096:
        return None
    first = obj[0]
    if type(first) is not ndarray:
        return None
    shape = list(first.shape)
    dts = []
    for a in obj:
        # values only: an element on the autograd tape would otherwise pass its history on
        if type(a) is not ndarray or a._autograd is not None or list(a.shape) != shape:
            return None
        dt = a.dtype
        if dt not in dts:
            dts.append(dt)
    dt = dts[0] if len(dts) == 1 else _dtypes.result_type(*dts)
    if dt.kind not in "biufc":
        return None
    row = [1] + shape
    parts = [_core.reshape(a, row) for a in obj]
    return _core.reshape(_core.concatenate(parts, 0, dt._code), [n] + shape)
