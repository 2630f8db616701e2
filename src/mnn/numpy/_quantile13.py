"""percentile/quantile's order statistics by partition instead of a full sort: for a few
quantiles of a long axis, numpy partitions (introselect, O(n)) and so can we. The elements at the
requested ranks, and the last one (the NaN check reads it: NaNs sort last), are the sorted
array's, so the result keeps its bits; the ranks are read on the host (one small evaluation)."""
from .. import _core

_MIN_N = 256   # below this a sort is cheaper than the extra evaluation that reads the ranks
_MAX_Q = 8


def ordered(a2, n, prev, nxt, qsize):
    """a2 (rest..., n) partitioned so that positions prev, nxt (int64 arrays, any shape) and n-1
    hold their sorted values; None where the caller should sort (short rows, many quantiles)."""
    if n < _MIN_N or qsize > _MAX_Q or a2.dtype.kind not in "iuf":
        return None
    parts = [prev] if nxt is None else [prev, nxt]
    _core.eval(*parts)
    ks = {n - 1}
    for p in parts:
        ks.update(p.tolist() if p.ndim else [p.item()])
    if not all(type(k) is int and 0 <= k < n for k in ks):
        return None
    return _core.prim("partition", [a2], [a2.ndim - 1] + sorted(ks), [])
