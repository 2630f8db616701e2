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
