"""cv2 core functions a ported script calls beside the image ops: timing (getTickCount, TickMeter),
build switches, range checks, compare / reduce / copyTo, channel moves, sort, small linear algebra,
random fills. Per-element work composes mnn.numpy ops; the functions that fill their argument in
place as cv2 does (patchNaNs, setIdentity, randu, randn, insertChannel, mixChannels) write into the
caller's numpy or mnn array (_inplace.write_back).
"""
import math
import time

from .. import numpy as _np
from ._common import as_image, channels, fail
from ._core_ops import _DEPTHS, _out_depth, _saturate, _scalar_values
from ._inplace import write_back

__all__ = [
    "CMP_EQ", "CMP_GT", "CMP_GE", "CMP_LT", "CMP_LE", "CMP_NE",
    "REDUCE_SUM", "REDUCE_AVG", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_SUM2",
    "SORT_EVERY_ROW", "SORT_EVERY_COLUMN", "SORT_ASCENDING", "SORT_DESCENDING",
    "DECOMP_LU", "DECOMP_SVD", "DECOMP_EIG", "DECOMP_CHOLESKY", "DECOMP_QR", "DECOMP_NORMAL",
    "getTickCount", "getTickFrequency", "TickMeter", "useOptimized", "setUseOptimized",
    "getBuildInformation", "checkRange", "patchNaNs",
    "compare", "reduce", "copyTo", "minMaxIdx", "extractChannel", "insertChannel", "mixChannels",
    "repeat", "PSNR", "setIdentity", "randu", "randn", "sort", "sortIdx", "invert", "solve",
    "determinant",
]

CMP_EQ, CMP_GT, CMP_GE, CMP_LT, CMP_LE, CMP_NE = 0, 1, 2, 3, 4, 5
REDUCE_SUM, REDUCE_AVG, REDUCE_MAX, REDUCE_MIN, REDUCE_SUM2 = 0, 1, 2, 3, 4
SORT_EVERY_ROW, SORT_EVERY_COLUMN, SORT_ASCENDING, SORT_DESCENDING = 0, 1, 0, 16
DECOMP_LU, DECOMP_SVD, DECOMP_EIG, DECOMP_CHOLESKY, DECOMP_QR, DECOMP_NORMAL = 0, 1, 2, 3, 4, 16

_FLT = ("float32", "float64")
_DBL_MAX = 1.7976931348623157e308
_DBL_EPSILON = 2.220446049250313e-16


def _src(x, fn, name="src", depths=_DEPTHS):
    a = as_image(x, fn, name)
    if str(a.dtype) not in depths:
        raise fail(fn, f"unsupported depth {a.dtype}")
    return a


# ---- group 1: timing and build switches ----

def getTickCount():
    """Nanoseconds of a monotonic clock: cv2's tick on Linux (getTickFrequency() is 1e9)."""
    return time.perf_counter_ns()


def getTickFrequency():
    return 1e9


class TickMeter:
    """cv2.TickMeter: accumulates the time between start() and stop() pairs and counts them."""

    def __init__(self):
        self.reset()

    def start(self):
        self._start = time.perf_counter_ns()

    def stop(self):
        # cv2 ignores a stop() without a start(): neither time nor the counter change
        if self._start == 0:
            return
        self._last = time.perf_counter_ns() - self._start
        self._sum += self._last
        self._counter += 1
        self._start = 0

    def reset(self):
        self._start = self._sum = self._last = self._counter = 0

    def getTimeTicks(self):
        return self._sum

    def getTimeMicro(self):
        return self._sum * 1e-3

    def getTimeMilli(self):
        return self._sum * 1e-6

    def getTimeSec(self):
        return self._sum * 1e-9

    def getLastTimeTicks(self):
        return self._last

    def getLastTimeMicro(self):
        return self._last * 1e-3

    def getLastTimeMilli(self):
        return self._last * 1e-6

    def getLastTimeSec(self):
        return self._last * 1e-9

    def getCounter(self):
        return self._counter

    def getFPS(self):
        t = self.getTimeSec()
        return 0.0 if t < _DBL_EPSILON else self._counter / t

    def getAvgTimeSec(self):
        return 0.0 if self._counter <= 0 else self.getTimeSec() / self._counter

    def getAvgTimeMilli(self):
        return self.getAvgTimeSec() * 1e3


_OPTIMIZED = [True]


def useOptimized():
    return _OPTIMIZED[0]


def setUseOptimized(onoff):
    """Recorded only: mnn has one code path per ISA and no slower 'unoptimized' one to switch to."""
    _OPTIMIZED[0] = bool(onoff)


def getBuildInformation():
    from .. import _core
    isa = getattr(_core, "isa", None)
    isa = isa() if callable(isa) else "native"
    return ("\nGeneral configuration for mnn (an OpenCV-compatible subset on the mnn engine)\n"
            f"  Python API: mnn.cv\n  CPU ISA: {isa}\n  Threads: {_core.get_num_threads()}\n")


# ---- checkRange, patchNaNs ----

def _first_index(bad):
    """Flat index of the first True of a bool array, or -1."""
    if bad.size == 0:
        return -1
    i = int(_np.argmax(bad.reshape(-1)))
    return i if bool(bad.reshape(-1)[i]) else -1


def checkRange(a, quiet=True, minVal=-_DBL_MAX, maxVal=_DBL_MAX):
    """(ok, pos): pos is the first bad element's (x, y) pixel, x its column (its index in a 1-d
    array, which cv2 5 keeps as a 1-d Mat) and y its row; (0, 0) when every element is good.
    Floats: NaN and +-inf are always bad; every depth: a value outside [minVal, maxVal) is bad."""
    fn = "checkRange"
    m = _src(a, fn, "a")
    lo, hi = float(minVal), float(maxVal)
    if str(m.dtype) not in _FLT and lo > -_DBL_MAX:
        lo = float(math.floor(lo))  # cv2 turns the bounds into ints with cvFloor: -0.5 admits -1
    bad = None
    if m.size:
        if str(m.dtype) in _FLT:
            bad = ~_np.isfinite(m)
        if lo > -_DBL_MAX or hi < _DBL_MAX:
            x = m.astype("float64")
            out = (x < lo) | (x >= hi)
            bad = out if bad is None else (bad | out)
    if bad is None:
        return True, (0, 0)
    i = _first_index(bad)
    if i < 0:
        return True, (0, 0)
    if m.ndim == 1:
        pos = (i, 0)
    else:
        pix = i // channels(m)
        pos = (pix % m.shape[1], pix // m.shape[1])
    if not quiet:
        raise fail(fn, f"the value at {pos} is out of range")
    return False, pos


def patchNaNs(a, val=0):
    """Replaces NaN elements of a float32/float64 array by val, in the caller's array (cv2 writes
    into its argument) and returns it."""
    fn = "patchNaNs"
    m = as_image(a, fn, "a")
    if str(m.dtype) not in _FLT:
        raise fail(fn, f"only float32 and float64 arrays are patched (cv2: _a.depth() == CV_32F || CV_64F), got {m.dtype}")
    if m.size == 0:
        return a
    r = _np.where(_np.isnan(m), _np.asarray(float(val)).astype(m.dtype), m)
    return write_back(a, r, fn)


# ---- group 2: compare, reduce, copyTo, channels ----

def _is_scalar(x):
    return isinstance(x, (int, float, tuple, list))


def _one_elem(x):
    """A numpy/mnn array of one element is a scalar to cv2's binding."""
    return hasattr(x, "shape") and hasattr(x, "size") and x.size == 1 and len(x.shape) <= 1 \
        and not isinstance(x, (int, float))


def compare(src1, src2, cmpop, dst=None):
    """255 where src1 <cmpop> src2 holds, else 0, per element (uint8, src's shape). A number is
    compared with every channel, a tuple per channel. Integer images against a non-integral number
    give what cv2's adjusted integer compare gives: the exact comparison (done in float64)."""
    fn = "compare"
    op = int(cmpop)
    if op not in range(6):
        raise fail(fn, f"unknown comparison {cmpop} (cv2: op == CMP_LT || CMP_LE || CMP_EQ || CMP_NE || CMP_GE || CMP_GT)")
    swap = False
    if _is_scalar(src1) or (_one_elem(src1) and not (_one_elem(src2) or _is_scalar(src2))):
        src1, src2, swap = src2, src1, True
    a = _src(src1, fn, "src1")
    if _is_scalar(src2) or _one_elem(src2):
        # cv2 5 compares every channel with the Scalar's first value
        s = src2 if _is_scalar(src2) else float(_np.asarray(src2).reshape(-1)[0])
        b = _np.asarray(float(s[0] if isinstance(s, (tuple, list)) else s))
        x = a.astype("float64") if str(a.dtype) != "float64" else a
    else:
        b = _src(src2, fn, "src2")
        if tuple(b.shape) != tuple(a.shape) or b.dtype != a.dtype:
            raise fail(fn, "the operation is neither 'array op array' (same size and type) nor 'array op scalar'")
        x = a
    if swap:
        op = {CMP_GT: CMP_LT, CMP_LT: CMP_GT, CMP_GE: CMP_LE, CMP_LE: CMP_GE}.get(op, op)
    r = (x == b, x > b, x >= b, x < b, x <= b, x != b)[op]
    return r.astype("uint8") * _np.asarray(255, dtype="uint8")


# (source dtype, result dtype) -> the reductions cv2 5 has a kernel for (REDUCE_SUM..SUM2 as bits)
_S, _A, _MX, _MN, _S2 = 1, 2, 4, 8, 16
_REDUCE_OK = {
    ("uint8", "uint8"): _A | _MX | _MN, ("uint8", "int8"): _A, ("uint8", "uint16"): _A, ("uint8", "int16"): _A,
    ("uint8", "int32"): _S | _A | _S2, ("uint8", "float32"): _S | _A | _S2, ("uint8", "float64"): _S | _A | _S2,
    ("uint16", "uint16"): _MX | _MN, ("uint16", "float32"): _S | _A | _S2, ("uint16", "float64"): _S | _A | _S2,
    ("int16", "int16"): _MX | _MN, ("int16", "float32"): _S | _A | _S2, ("int16", "float64"): _S | _A | _S2,
    ("float32", "float32"): 31, ("float32", "float64"): _S | _A | _S2, ("float64", "float64"): 31,
}


def reduce(src, dim, rtype, dst=None, dtype=-1):
    """Reduces a 2-d (multi-channel) matrix to one row (dim 0) or one column (dim 1). Sums are
    exact (float64) before the one conversion to the result type, as cv2's wide accumulators are;
    REDUCE_AVG divides by the count with cv2's rounding (half to even, saturated)."""
    fn = "reduce"
    a = _src(src, fn)
    dim, rt = int(dim), int(rtype)
    if rt not in range(5):
        raise fail(fn, f"unknown reduce operation {rtype}")
    if dim not in (0, 1) or (a.ndim == 1 and dim != 0):
        raise fail(fn, f"dim must be 0 or 1 (0 for a 1-d array), got {dim}")
    sd = str(a.dtype)
    dd = sd if dtype is None or int(dtype) < 0 else _out_depth(fn, dtype)
    if not _REDUCE_OK.get((sd, dd), 0) & (1 << rt):
        raise fail(fn, f"unsupported combination of input and output formats ({sd} -> {dd}, rtype {rt})")
    if a.size == 0:
        return None  # cv2 returns an empty Mat: None in Python
    x = a if a.ndim > 1 else a.reshape((1, a.shape[0]))
    if a.ndim == 1:
        dim = 1  # cv2 5's 1-d Mat: its one axis is reduced
    n = x.shape[dim]
    if rt in (REDUCE_MAX, REDUCE_MIN):
        r = (_np.max if rt == REDUCE_MAX else _np.min)(x, axis=dim, keepdims=True)
    else:
        f = x.astype("float64")
        r = _np.sum(f * f if rt == REDUCE_SUM2 else f, axis=dim, keepdims=True)
        if rt == REDUCE_AVG:
            if dd == "float32":
                # cv2 sums into the float result and scales it there: float32 arithmetic
                r = r.astype("float32") * _np.asarray(1.0 / n, dtype="float32")
            else:
                r = r * (1.0 / n)
        r = _saturate(r, dd)
    if a.ndim == 1:
        r = r.reshape((1, 1))
    return r


def _mask_of(mask, a, fn, allow_cn=True):
    m = as_image(mask, fn, "mask")
    if str(m.dtype) not in ("uint8", "int8", "bool"):
        raise fail(fn, f"mask must be uint8, int8 or bool (cv2: mask.depth() == CV_8U || CV_8S || CV_Bool), got {m.dtype}")
    mc = 1 if m.ndim < 3 else m.shape[2]
    if tuple(m.shape[:2]) != tuple(a.shape[:2]) or (mc != 1 and (not allow_cn or mc != channels(a))):
        raise fail(fn, "mask must have the image's size and 1 or the image's channel count (cv2: size() == mask.size())")
    k = m != 0
    if a.ndim == 3 and m.ndim == 2:
        k = k.reshape(tuple(k.shape) + (1,))
    return k


def copyTo(src, mask, dst=None):
    """src where mask is nonzero; elsewhere dst's values when dst is an array of src's shape and
    type (cv2 writes into it), else 0."""
    fn = "copyTo"
    a = _src(src, fn, depths=_DEPTHS + ["float16", "bool"])
    if mask is None or (hasattr(mask, "size") and mask.size == 0):
        return _np.array(a, copy=True)
    k = _mask_of(mask, a, fn)
    base = None
    if dst is not None and hasattr(dst, "shape") and tuple(dst.shape) == tuple(a.shape) and str(dst.dtype) == str(a.dtype):
        base = as_image(dst, fn, "dst")
    if base is None:
        base = _np.zeros(a.shape, dtype=a.dtype)
    return _np.where(k, a, base)


def minMaxIdx(src, mask=None):
    """(minVal, maxVal, minIdx, maxIdx) of a single-channel array, the indices one per dimension
    (row, column for a matrix); (0, 0, (-1, ..), (-1, ..)) when nothing is selected. cv2's C++
    function (the Python binding of cv2 5 does not export it)."""
    fn = "minMaxIdx"
    a = _src(src, fn)
    if a.ndim == 3 and a.shape[2] != 1:
        raise fail(fn, "a single-channel array is expected (cv2: src.channels() == 1)")
    if a.ndim == 3:
        a = a.reshape(tuple(a.shape[:2]))
    x = a.astype("float64")
    keep = None
    if mask is not None:
        keep = _mask_of(mask, a, fn, allow_cn=False)
    if keep is not None:
        lo = _np.where(keep, x, _np.asarray(math.inf))
        hi = _np.where(keep, x, _np.asarray(-math.inf))
        any_sel = bool(_np.any(keep))
    else:
        lo = hi = x
        any_sel = a.size > 0
    none = tuple([-1] * a.ndim)
    if not any_sel:
        return 0.0, 0.0, none, none
    if str(a.dtype) in _FLT:  # NaN never wins: cv2 compares with < and >
        lo = _np.where(_np.isnan(lo), _np.asarray(math.inf), lo)
        hi = _np.where(_np.isnan(hi), _np.asarray(-math.inf), hi)
    i, j = int(_np.argmin(lo)), int(_np.argmax(hi))
    flat = x.reshape(-1)

    def unravel(k):
        out = []
        for s in reversed(tuple(a.shape)):
            out.append(k % s)
            k //= s
        return tuple(reversed(out))
    return float(flat[i]), float(flat[j]), unravel(i), unravel(j)


def extractChannel(src, coi, dst=None):
    fn = "extractChannel"
    a = _src(src, fn, depths=_DEPTHS + ["float16", "bool"])
    c, k = channels(a), int(coi)
    if not 0 <= k < c:
        raise fail(fn, f"channel {coi} out of range (cv2: 0 <= coi && coi < cn, cn = {c})")
    return _np.array(a if a.ndim == 2 else a[:, :, k], copy=True)


def insertChannel(src, dst, coi):
    """Writes the single-channel src into channel coi of dst, in the caller's dst, and returns it."""
    fn = "insertChannel"
    s = _src(src, fn, depths=_DEPTHS + ["float16", "bool"])
    d = as_image(dst, fn, "dst")
    c, k = channels(d), int(coi)
    if s.ndim == 3 and s.shape[2] != 1:
        raise fail(fn, "src must have one channel")
    if tuple(s.shape[:2]) != tuple(d.shape[:2]) or s.dtype != d.dtype:
        raise fail(fn, "src and dst must have the same size and depth (cv2: _src.sameSize(_dst) && sdepth == ddepth)")
    if not 0 <= k < c:
        raise fail(fn, f"channel {coi} out of range (cv2: 0 <= coi && coi < dcn)")
    if d.ndim == 2:
        return write_back(dst, s.reshape(tuple(d.shape)), fn)
    plane = s.reshape(tuple(d.shape[:2]) + (1,))
    parts = [d[:, :, i:i + 1] if i != k else plane for i in range(c)]
    return write_back(dst, _np.concatenate(parts, axis=2), fn)


def _array_list(v, fn, name):
    if isinstance(v, (list, tuple)):
        return list(v)
    return [v]


def mixChannels(src, dst, fromTo):
    """cv2.mixChannels: fromTo pairs (i, j) copy channel i of the concatenated src channels into
    channel j of the concatenated dst channels (i < 0 writes 0). The dst arrays are written in
    place and the list is returned."""
    fn = "mixChannels"
    srcs = [_src(s, fn) for s in _array_list(src, fn, "src")]
    dsts_in = _array_list(dst, fn, "dst")
    dsts = [as_image(d, fn, "dst") for d in dsts_in]
    pairs = [int(v) for v in (_np.asarray(fromTo).reshape(-1).tolist() if hasattr(fromTo, "shape") else fromTo)]
    if len(pairs) % 2 or not srcs or not dsts:
        raise fail(fn, "fromTo must hold pairs of channel indices and src, dst must be non-empty")
    schan = [(i, c) for i, s in enumerate(srcs) for c in range(channels(s))]
    dchan = [(i, c) for i, d in enumerate(dsts) for c in range(channels(d))]
    for s in srcs + dsts:
        if tuple(s.shape[:2]) != tuple(srcs[0].shape[:2]) or s.dtype != srcs[0].dtype:
            raise fail(fn, "all arrays must have the same size and depth")
    planes = [[d if d.ndim == 2 else d[:, :, c] for c in range(channels(d))] for d in dsts]
    for k in range(0, len(pairs), 2):
        i, j = pairs[k], pairs[k + 1]
        if i >= len(schan) or not 0 <= j < len(dchan):
            raise fail(fn, f"channel index out of range in pair ({i}, {j})")
        di, dc = dchan[j]
        if i < 0:
            planes[di][dc] = _np.zeros(tuple(dsts[di].shape[:2]), dtype=dsts[di].dtype)
        else:
            si, sc = schan[i]
            planes[di][dc] = srcs[si] if srcs[si].ndim == 2 else srcs[si][:, :, sc]
    for d_in, d, p in zip(dsts_in, dsts, planes):
        r = p[0] if d.ndim == 2 else _np.stack(p, axis=2)
        write_back(d_in, r, fn)
    return dsts_in


def repeat(src, ny, nx, dst=None):
    fn = "repeat"
    a = _src(src, fn, depths=_DEPTHS + ["float16", "bool"])
    ny, nx = int(ny), int(nx)
    if ny <= 0 or nx <= 0:
        raise fail(fn, f"ny and nx must be positive (cv2: ny > 0 && nx > 0), got {ny}, {nx}")
    x = a if a.ndim > 1 else a.reshape((1, a.shape[0]))
    reps = (ny, nx) + ((1,) if x.ndim == 3 else ())
    return _np.tile(x, reps)


def PSNR(src1, src2, R=255.0):
    """20 log10(R / rms difference), the rms floored at DBL_EPSILON (equal images: 361.2 for 255)."""
    fn = "PSNR"
    a, b = _src(src1, fn, "src1"), _src(src2, fn, "src2")
    if a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape):
        raise fail(fn, "the inputs must have the same size and type (cv2: _src1.type() == _src2.type())")
    d = a.astype("float64") - b.astype("float64")
    n = max(int(a.size), 1)
    diff = math.sqrt(float(_np.sum(d * d)) / n)
    return 20.0 * math.log10(float(R) / (diff if diff > 0 else _DBL_EPSILON))


def setIdentity(mtx, s=1.0):
    """s on the diagonal, 0 elsewhere, written into the caller's matrix (a number fills every
    channel, a tuple per channel) and returned."""
    fn = "setIdentity"
    m = _src(mtx, fn, "mtx")
    if m.ndim == 1:
        m2 = m.reshape((m.shape[0], 1))
    else:
        m2 = m
    h, w = m2.shape[0], m2.shape[1]
    eye = _np.eye(h, w, dtype="float64")
    v = _scalar_values(s, m2, first_channel=True)  # a number is Scalar(s, 0, 0, 0) here
    r = eye.reshape((h, w, 1)) * v if m2.ndim == 3 else eye * v
    return write_back(mtx, _saturate(r, str(m.dtype)).reshape(tuple(m.shape)), fn)


def _bounds(v, m, fn, name):
    if hasattr(v, "shape") and not isinstance(v, (int, float)):
        flat = _np.asarray(v).reshape(-1).tolist()
        if len(flat) not in (1, channels(m)) and len(flat) < 4:
            raise fail(fn, f"{name} must hold one value or one per channel (cv2: _param1.channels() == 1 ...)")
        v = tuple(flat) if len(flat) > 1 else flat[0]
    vals = _scalar_values(v, m)
    return vals


def randu(dst, low, high):
    """Fills the caller's array with uniform values in [low, high) (integers for integer arrays)
    from mnn's generator."""
    fn = "randu"
    m = _src(dst, fn, "dst")
    lo, hi = _bounds(low, m, fn, "low"), _bounds(high, m, fn, "high")
    u = _np.random.random_sample(tuple(m.shape))
    x = lo + u * (hi - lo)
    if str(m.dtype) not in _FLT:
        x = _np.floor(x)
        x = _np.minimum(x, _np.maximum(hi - 1, lo))
    return write_back(dst, _saturate(x, str(m.dtype)), fn)


def randn(dst, mean, stddev):
    """Fills the caller's array with normal values (per-channel mean and stddev), saturated to its
    type, from mnn's generator."""
    fn = "randn"
    m = _src(dst, fn, "dst")
    mu, sd = _bounds(mean, m, fn, "mean"), _bounds(stddev, m, fn, "stddev")
    x = mu + _np.random.standard_normal(tuple(m.shape)) * sd
    return write_back(dst, _saturate(x, str(m.dtype)), fn)


# ---- sort, sortIdx ----

def _sort_args(src, flags, fn):
    a = _src(src, fn)
    if a.ndim == 3 and a.shape[2] != 1 or a.ndim > 3:
        raise fail(fn, "a single-channel 1-d or 2-d array is expected (cv2: src.dims <= 2 && src.channels() == 1)")
    if a.ndim == 3:
        a = a.reshape(tuple(a.shape[:2]))
    f = int(flags)
    axis = 0 if f & SORT_EVERY_COLUMN else 1
    if a.ndim == 1:
        axis = -1 if axis == 1 else None  # a 1-d array is one row
    return a, axis, bool(f & SORT_DESCENDING)


def sort(src, flags, dst=None):
    a, axis, desc = _sort_args(src, flags, "sort")
    if axis is None or a.size == 0:
        return _np.array(a, copy=True)
    r = _np.sort(a, axis=axis)
    return _np.flip(r, axis=axis) if desc else r


def sortIdx(src, flags, dst=None):
    a, axis, desc = _sort_args(src, flags, "sortIdx")
    if axis is None:
        return _np.zeros(a.shape, dtype="int32")
    if a.size == 0:
        return _np.zeros(a.shape, dtype="int32")
    if desc:  # stable descending order: sort the negated keys (NaN stays last, as cv2's)
        key = -a.astype("float64")
        r = _np.argsort(key, axis=axis, kind="stable")
    else:
        r = _np.argsort(a, axis=axis, kind="stable")
    return r.astype("int32")


# ---- invert, solve, determinant ----

def _float_matrix(x, fn, name="src"):
    a = as_image(x, fn, name)
    if str(a.dtype) not in _FLT or a.ndim > 2 and a.shape[2] != 1:
        raise fail(fn, f"a single-channel float32 or float64 matrix is expected (cv2: type == CV_32F || type == CV_64F), got {a.dtype}")
    if a.ndim == 3:
        a = a.reshape(tuple(a.shape[:2]))
    if a.ndim == 1:
        a = a.reshape((a.shape[0], 1))
    return a


def _lu_singular(rows, eps):
    """cv2's LU test for n > 3: Gaussian elimination with partial pivoting in plain floats; the
    matrix is singular when a pivot's magnitude falls below eps (an absolute bound)."""
    n = len(rows)
    a = [list(map(float, r)) for r in rows]
    det = 1.0
    for i in range(n):
        k = max(range(i, n), key=lambda r: abs(a[r][i]))
        if abs(a[k][i]) < eps:
            return True, 0.0
        if k != i:
            a[i], a[k] = a[k], a[i]
            det = -det
        p = a[i][i]
        det *= p
        for r in range(i + 1, n):
            f = a[r][i] / p
            if f:
                ar, ai = a[r], a[i]
                for c in range(i + 1, n):
                    ar[c] -= f * ai[c]
    return False, det


def _eps(a):
    return 1.1920928955078125e-06 if str(a.dtype) == "float32" else 100 * _DBL_EPSILON


def _singular(a, method):
    """Whether cv2's LU / Cholesky refuses square matrix a (as float64 values)."""
    n = a.shape[0]
    rows = a.astype("float64").tolist()
    if n <= 3:  # cv2's closed forms: singular only when the determinant is exactly 0
        return _det_small(rows) == 0.0
    if method == DECOMP_CHOLESKY:
        try:
            _np.linalg.cholesky(a.astype("float64"))
        except Exception:
            return True
        return False
    return _lu_singular(rows, _eps(a))[0]


def _det_small(r):
    n = len(r)
    if n == 1:
        return r[0][0]
    if n == 2:
        return r[0][0] * r[1][1] - r[0][1] * r[1][0]
    return (r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
            + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]))


def invert(src, dst=None, flags=DECOMP_LU):
    """(retval, inverse): LU / Cholesky give 1.0, or 0.0 and zeros for a matrix they find
    singular; SVD gives the pseudo-inverse (any shape) and the ratio of the smallest singular value
    to the largest; EIG (symmetric matrices) the ratio of the extreme eigenvalues."""
    fn = "invert"
    a = _float_matrix(src, fn)
    method = int(flags) & ~DECOMP_NORMAL
    if method not in (DECOMP_LU, DECOMP_SVD, DECOMP_EIG, DECOMP_CHOLESKY):
        raise fail(fn, "method must be DECOMP_LU, DECOMP_SVD, DECOMP_EIG or DECOMP_CHOLESKY")
    m, n = a.shape
    dt = str(a.dtype)
    if method == DECOMP_SVD:
        if m == 0 or n == 0:
            raise fail(fn, "the matrix is empty")
        x = a.astype("float64")
        sv = _np.linalg.svd(x, compute_uv=False)
        smax, smin = float(sv[0]), float(sv[-1])
        return (smin / smax if smax else 0.0), _np.linalg.pinv(x).astype(dt)
    if m != n:
        raise fail(fn, f"a square matrix is expected (cv2: m == n), got {m}x{n}")
    if n == 0:
        raise fail(fn, "the matrix is empty")
    x = a.astype("float64")
    if method == DECOMP_EIG:
        w, v = _np.linalg.eigh(x)
        wmax, wmin = float(w[-1]), float(w[0])
        inv = (v * (1.0 / w)) @ v.T
        return (wmin / wmax if wmax else 0.0), inv.astype(dt)
    if _singular(a, method):
        return 0.0, _np.zeros((n, n), dtype=dt)
    return 1.0, _np.linalg.inv(x).astype(dt)


def solve(src1, src2, dst=None, flags=DECOMP_LU):
    """(ok, x) with src1 x = src2: LU / Cholesky for square systems (ok False when singular), QR
    and SVD also least squares for overdetermined ones; DECOMP_NORMAL solves the normal equations."""
    fn = "solve"
    a, b = _float_matrix(src1, fn, "src1"), _float_matrix(src2, fn, "src2")
    if a.dtype != b.dtype:
        raise fail(fn, "src1 and src2 must have the same float type (cv2: type == _src2.type())")
    normal = bool(int(flags) & DECOMP_NORMAL)
    method = int(flags) & ~DECOMP_NORMAL
    if method not in (DECOMP_LU, DECOMP_SVD, DECOMP_EIG, DECOMP_CHOLESKY, DECOMP_QR):
        raise fail(fn, f"unknown method {flags}")
    m, n = a.shape
    dt = str(a.dtype)
    if m < n:
        raise fail(fn, "the function can not solve under-determined linear systems")
    if b.shape[0] != m:
        raise fail(fn, f"src2 must have src1's row count (cv2: m == src2.rows), got {b.shape[0]} and {m}")
    if method in (DECOMP_LU, DECOMP_CHOLESKY) and m != n and not normal:
        raise fail(fn, "LU and Cholesky need a square matrix or DECOMP_NORMAL")
    x, y = a.astype("float64"), b.astype("float64")
    if normal:
        x, y = x.T @ x, x.T @ y
        a_chk = x.astype(dt)
    else:
        a_chk = a
    if method in (DECOMP_LU, DECOMP_CHOLESKY):
        if _singular(a_chk, method):
            return False, _np.zeros(tuple(b.shape), dtype=dt)
        return True, _np.linalg.solve(x, y).astype(dt)
    if method == DECOMP_QR:
        # cv2's Householder QR gives up on a rank-deficient matrix
        if int(_np.linalg.matrix_rank(x)) < x.shape[1]:
            return False, _np.zeros(tuple(b.shape), dtype=dt)
    if method == DECOMP_EIG:
        w, v = _np.linalg.eigh(x)
        return True, ((v * (1.0 / w)) @ v.T @ y).astype(dt)
    return True, (_np.linalg.pinv(x) @ y).astype(dt)


def determinant(mtx):
    fn = "determinant"
    a = _float_matrix(mtx, fn, "mtx")
    if a.size == 0:
        raise fail(fn, "the matrix is empty (cv2: !mat.empty())")
    if a.shape[0] != a.shape[1]:
        raise fail(fn, f"a square matrix is expected (cv2: mat.rows == mat.cols), got {a.shape[0]}x{a.shape[1]}")
    rows = a.astype("float64").tolist()
    n = len(rows)
    if n <= 3:
        return float(_det_small(rows))
    if n <= 64:
        return float(_lu_singular(rows, _eps(a))[1])
    return float(_np.linalg.det(a.astype("float64")))
