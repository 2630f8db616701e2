"""Smaller numpy functions that scripts reach for and that fit no other family: log/geometric
ranges, trapezoid, unwrap, isposinf/isneginf, fix, bitwise_count, rollaxis, copyto,
require/asanyarray/asarray_chkfinite, fromiter/fromstring, broadcast. Each follows numpy's own
formula, so values agree to rounding."""
import itertools
import math
import sys

from . import _dtypes
from ._common import asarray, ndarray


def _mnp():
    return sys.modules["mnn.numpy"]


# ------------------------------------------------------------------ ranges


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """base ** linspace(start, stop); start, stop and base broadcast together (numpy 2's rule)."""
    mnp = _mnp()
    start, stop, base = asarray(start), asarray(stop), asarray(base)
    ndmax = len(mnp.broadcast_shapes(start.shape, stop.shape, base.shape))
    start, stop, base = (mnp.array(x, ndmin=ndmax) for x in (start, stop, base))
    y = mnp.linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    r = mnp.power(mnp.expand_dims(base, axis=axis), y)
    return r if dtype is None else r.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    mnp = _mnp()
    start, stop = asarray(start), asarray(stop)
    if bool(mnp.any(start == 0)) or bool(mnp.any(stop == 0)):
        raise ValueError("[mnn.numpy.geomspace] Geometric sequence cannot include zero")
    dt = _dtypes.result_type(start, stop, float(num), _dtypes.float64 if dtype is None else dtype)
    if _dtypes.dtype(dt).kind == "c":
        raise NotImplementedError("[mnn.numpy.geomspace] complex endpoints are not supported yet")
    start, stop = start.astype(dt), stop.astype(dt)
    sign = mnp.sign(start)
    start, stop = start / sign, stop / sign
    result = logspace(mnp.log10(start), mnp.log10(stop), num=num, endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:  # the exact endpoints, not 10**log10(...)
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = result * sign
    if axis != 0:
        result = mnp.moveaxis(result, 0, axis)
    return result.astype(dt if dtype is None else dtype)


# ------------------------------------------------------------------ calculus-like helpers


def trapezoid(y, x=None, dx=1.0, axis=-1):
    mnp = _mnp()
    y = asarray(y)
    nd = y.ndim
    if not -nd <= axis < nd:
        raise mnp.AxisError(f"[mnn.numpy.trapezoid] axis {axis} is out of bounds for array of dimension {nd}")
    if x is None:
        d = dx
    else:
        x = asarray(x)
        if x.ndim == 1:
            d = mnp.diff(x)
            shape = [1] * nd
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = mnp.diff(x, axis=axis)
    hi = [slice(None)] * nd
    lo = [slice(None)] * nd
    hi[axis] = slice(1, None)
    lo[axis] = slice(None, -1)
    return (d * (y[tuple(hi)] + y[tuple(lo)]) / 2.0).sum(axis)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """Add multiples of `period` where consecutive values jump by more than discont (default
    period/2), making a phase continuous."""
    mnp = _mnp()
    p = asarray(p)
    nd = p.ndim
    dd = mnp.diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    sl = [slice(None)] * nd
    sl[axis] = slice(1, None)
    sl = tuple(sl)
    dt = _dtypes.result_type(dd, period)
    if _dtypes.dtype(dt).kind in "iu":
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high = period / 2
        ambiguous = True
    low = -high
    ddmod = mnp.mod(dd - low, period) + low
    if ambiguous:  # a jump of exactly +period/2 stays +period/2
        ddmod = mnp.where((ddmod == low) & (dd > 0), high, ddmod)
    correct = ddmod - dd
    correct = mnp.where(mnp.abs(dd) < discont, 0, correct)
    up = p.astype(dt, copy=True)
    up[sl] = p[sl] + correct.cumsum(axis)
    return up


# ------------------------------------------------------------------ elementwise extras


def isposinf(x, out=None):
    mnp = _mnp()
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("[mnn.numpy.isposinf] This operation is not supported for complex values because it "
                        "would be ambiguous.")
    r = mnp.isinf(x) & ~mnp.signbit(x)
    return r if out is None else mnp.copyto(out, r) or out


def isneginf(x, out=None):
    mnp = _mnp()
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("[mnn.numpy.isneginf] This operation is not supported for complex values because it "
                        "would be ambiguous.")
    r = mnp.isinf(x) & mnp.signbit(x)
    return r if out is None else mnp.copyto(out, r) or out


def fix(x, out=None):
    """Round toward zero (numpy.fix); integers come back unchanged, in their dtype."""
    r = _mnp().trunc(x)
    if out is not None:
        _mnp().copyto(out, r)
        return out
    return r


_M1, _M2, _M4, _H01 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F, 0x0101010101010101


def bitwise_count(x, /):
    """Number of 1-bits in |x| (numpy.bitwise_count), as uint8; SWAR popcount on 64-bit lanes."""
    mnp = _mnp()
    x = asarray(x)
    if x.dtype.kind not in "biu":
        raise TypeError(f"[mnn.numpy.bitwise_count] ufunc 'bitwise_count' not supported for the input type "
                        f"{x.dtype}")
    # |x| in 64 bits first: abs(int8(-128)) would wrap (int64's minimum wraps to 2**63, which is right)
    v = (mnp.abs(x.astype(mnp.int64)) if x.dtype.kind == "i" else x).astype(mnp.uint64)
    v = v - ((v >> 1) & _M1)
    v = (v & _M2) + ((v >> 2) & _M2)
    v = (v + (v >> 4)) & _M4
    return ((v * _H01) >> 56).astype(mnp.uint8)


# ------------------------------------------------------------------ array plumbing


def rollaxis(a, axis, start=0):
    a = asarray(a)
    n = a.ndim
    if not -n <= axis < n:
        raise _mnp().AxisError(f"[mnn.numpy.rollaxis] axis {axis} is out of bounds for array of dimension {n}")
    axis %= n
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise _mnp().AxisError(f"[mnn.numpy.rollaxis] start {start} is out of bounds for array of dimension {n}")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return a.transpose(axes)


def copyto(dst, src, casting="same_kind", where=True):
    """dst[...] = src (broadcast), only where `where` holds; refuses casts numpy would refuse."""
    mnp = _mnp()
    if not isinstance(dst, ndarray):
        raise TypeError("[mnn.numpy.copyto] argument 1 must be an mnn array")
    if isinstance(src, ndarray) and not _dtypes.can_cast(src.dtype, dst.dtype, casting):
        raise TypeError(f"[mnn.numpy.copyto] Cannot cast array data from {src.dtype!r} to {dst.dtype!r} "
                        f"according to the rule {casting!r}")
    if where is True:
        dst[...] = src
    else:
        dst[...] = mnp.where(where, src, dst)


def asanyarray(a, dtype=None, order=None, *, like=None):
    return _mnp().asarray(a, dtype=dtype)


def asfortranarray(a, dtype=None, *, like=None):
    """Values of numpy.asfortranarray; mnn keeps C order (layout is not observable through values)."""
    return _mnp().array(a, dtype=dtype, ndmin=1)


def require(a, dtype=None, requirements=None, *, like=None):
    mnp = _mnp()
    req = {str(r).upper()[0] for r in (requirements or [])} if not isinstance(requirements, str) else \
        {requirements.upper()[0]}
    if "F" in req:
        raise NotImplementedError("[mnn.numpy.require] Fortran-ordered arrays are not supported")
    r = mnp.asarray(a, dtype=dtype)
    if "O" in req or "W" in req and not r.flags.writeable:
        r = r.copy()
    if "C" in req or "A" in req:
        r = mnp.ascontiguousarray(r)
    return r


def isfortran(a):
    f = asarray(a).flags
    return bool(f.f_contiguous and not f.c_contiguous)


def fromiter(iter, dtype, count=-1, *, like=None):  # noqa: A002  (numpy's parameter name)
    items = list(itertools.islice(iter, count)) if count >= 0 else list(iter)
    if count >= 0 and len(items) < count:
        raise ValueError(f"[mnn.numpy.fromiter] iterator too short: Expected {count} but iterator had only "
                         f"{len(items)} items.")
    return _mnp().asarray(items, dtype=dtype)


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray that refuses NaN and infinities (numpy's ValueError)."""
    mnp = _mnp()
    r = mnp.asarray(a, dtype=dtype)
    if r.dtype.kind in "fc" and not bool(mnp.isfinite(r).all()):
        raise ValueError("[mnn.numpy.asarray_chkfinite] array must not contain infs or NaNs")
    return r


class broadcast:
    """The broadcast shape of several arrays, and iteration over their element tuples."""

    def __init__(self, *args):
        mnp = _mnp()
        self._arrays = mnp.broadcast_arrays(*[asarray(a) for a in args])
        self.shape = tuple(mnp.broadcast_shapes(*[asarray(a).shape for a in args]))
        self.index = 0

    @property
    def nd(self):
        return len(self.shape)

    ndim = nd

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def numiter(self):
        return len(self._arrays)

    def __iter__(self):
        flat = [a.ravel().tolist() for a in self._arrays]
        return iter(list(zip(*flat))[self.index:])

    def reset(self):
        self.index = 0


def fromstring(string, dtype=float, count=-1, *, sep="", like=None):
    """Numbers in a text separated by `sep` (whitespace around separators ignored); numpy 2 has no
    binary mode here (use frombuffer)."""
    mnp = _mnp()
    if sep == "":
        raise ValueError("[mnn.numpy.fromstring] The binary mode of fromstring is removed, use frombuffer instead")
    text = string.decode() if isinstance(string, (bytes, bytearray)) else string
    dt = _dtypes.dtype(dtype)
    parts = text.split() if sep.strip() == "" else [p.strip() for p in text.split(sep.strip())]
    if parts and parts[-1] == "":
        parts = parts[:-1]
    values = []
    for p in parts:
        if count >= 0 and len(values) >= count:
            break
        try:
            values.append(int(p) if dt.kind in "iu" and p.lstrip("+-").isdigit() else
                          (float(p) if dt.kind != "c" else complex(p)))
        except ValueError:
            raise ValueError("[mnn.numpy.fromstring] string or file could not be read to its end due to unmatched "
                             "data") from None
    if count >= 0 and len(values) < count:
        raise ValueError(f"[mnn.numpy.fromstring] string is smaller than requested size ({len(values)} < {count})")
    return mnp.asarray(values, dtype=dt)


def getbufsize():
    return _BUFSIZE[0]


def setbufsize(size):
    """Accepted for compatibility (mnn's kernels choose their own tiles); returns the old value."""
    old = _BUFSIZE[0]
    _BUFSIZE[0] = int(size)
    return old


_BUFSIZE = [8192]
