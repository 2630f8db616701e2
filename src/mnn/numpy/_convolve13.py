"""convolve/correlate through one native primitive (correlate1d): numpy's direct loop over the
true overlap, so a call records one node instead of the ~25 reshapes and ufuncs of the
window-stacking composition in _math_funcs (which stays for the dtypes the kernel lacks and for
long kernels on long signals, where its GEMM beats the O(n*m) loop)."""
from .. import _core
from . import _dtypes

# dtypes with a native kernel: the real ones but bool and the 2-byte floats
_NATIVE = frozenset("int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64".split())
# past this many multiply-adds the GEMM formulation of _math_funcs is faster
_MAX_DIRECT = 1 << 22


_CODES = {"valid": 0, "same": 1, "full": 2, 0: 0, 1: 1, 2: 2}
_NDARRAY = _core.ndarray
_prim = _core.prim


def fast(a, v, mode, flip):
    """The common call (two 1-D arrays of one native dtype, len(a) >= len(v) >= 1, a known mode)
    with the fewest Python steps: apply_along_axis calls this once per row. None otherwise."""
    if a.__class__ is not _NDARRAY or v.__class__ is not _NDARRAY:
        return None
    sa, sv = a.shape, v.shape
    if len(sa) != 1 or len(sv) != 1:
        return None
    n, m = sa[0], sv[0]
    dt = a.dtype
    if not (n >= m >= 1) or dt is not v.dtype or dt.name not in _NATIVE or (m > 32 and n * m > _MAX_DIRECT):
        return None
    code = _CODES.get(mode) if mode.__class__ in (str, int) else None
    if code is None:
        return None
    left, length = (0, n - m + 1) if code == 0 else ((m // 2, n) if code == 1 else (m - 1, n + m - 1))
    return _prim("correlate1d", [a, v], [left, length, flip, 0], [])


def native_ok(dt, n, m):
    return dt.name in _NATIVE and (m <= 32 or n * m <= _MAX_DIRECT)


def window(code, n, m):
    """(left, length) of numpy's correlate for mode code 0 valid, 1 same, 2 full (n >= m)."""
    if code == 0:
        return 0, n - m + 1
    if code == 1:
        return m // 2, n
    return m - 1, n + m - 1


def correlate1d(a, v, dt, code, flip, inverted):
    """a, v: 1-D, len(a) >= len(v) >= 1, any strides; cast to dt here when they differ."""
    if a.dtype != dt:
        a = a.astype(dt)
    if v.dtype != dt:
        v = v.astype(dt)
    left, length = window(code, a.shape[0], v.shape[0])
    return _core.prim("correlate1d", [a, v], [left, length, int(flip), int(inverted)], [])


def result_dtype(a, v):
    da, dv = a.dtype, v.dtype
    return da if da == dv else _dtypes.result_type(da, dv)
