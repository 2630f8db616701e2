"""Smaller numpy functions that scripts reach for and that fit no other family: log/geometric
ranges, trapezoid, unwrap, window functions, isposinf/isneginf, fix, bitwise_count, rollaxis,
copyto, require/asanyarray, fromiter, common_type, and a few module constants. Each follows
numpy's own formula, so values agree to rounding."""
import itertools
import math
import sys

from . import _dtypes
from ._common import asarray, ndarray


def _mnp():
    return sys.modules["mnn.numpy"]


# ------------------------------------------------------------------ ranges


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    mnp = _mnp()
    y = mnp.linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    base = asarray(base)
    if base.ndim:  # an array of bases broadcasts against the range along `axis`
        base = mnp.expand_dims(base, axis=axis)
    r = mnp.power(base, y)
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


# ------------------------------------------------------------------ window functions


def _window_n(M):
    mnp = _mnp()
    if M < 1:
        return None, mnp.asarray([], dtype=_dtypes.result_type(M, 0.0))
    if M == 1:
        return None, mnp.ones(1, dtype=_dtypes.result_type(M, 0.0))
    return mnp.arange(1 - M, M, 2), None


def hanning(M):
    n, done = _window_n(M)
    return done if n is None else 0.5 + 0.5 * _mnp().cos(math.pi * n / (M - 1))


def hamming(M):
    n, done = _window_n(M)
    return done if n is None else 0.54 + 0.46 * _mnp().cos(math.pi * n / (M - 1))


def blackman(M):
    mnp = _mnp()
    n, done = _window_n(M)
    if n is None:
        return done
    return 0.42 + 0.5 * mnp.cos(math.pi * n / (M - 1)) + 0.08 * mnp.cos(2.0 * math.pi * n / (M - 1))


def bartlett(M):
    mnp = _mnp()
    n, done = _window_n(M)
    if n is None:
        return done
    return mnp.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def kaiser(M, beta):
    mnp = _mnp()
    if M == 1:
        return mnp.ones(1, dtype=_dtypes.result_type(M, 0.0))
    n = mnp.arange(0, M)
    alpha = (M - 1) / 2.0
    return mnp.i0(beta * mnp.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / mnp.i0(mnp.asarray(float(beta)))


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


def iterable(y):
    try:
        iter(y)
    except TypeError:
        return False
    return True


def fromiter(iter, dtype, count=-1, *, like=None):  # noqa: A002  (numpy's parameter name)
    items = list(itertools.islice(iter, count)) if count >= 0 else list(iter)
    if count >= 0 and len(items) < count:
        raise ValueError(f"[mnn.numpy.fromiter] iterator too short: Expected {count} but iterator had only "
                         f"{len(items)} items.")
    return _mnp().asarray(items, dtype=dtype)


def common_type(*arrays):
    """The inexact scalar type of the arrays: integers count as float64 (numpy.common_type)."""
    is_complex, precision = False, 0
    sizes = {2: _dtypes.float16, 4: _dtypes.float32, 8: _dtypes.float64}
    csizes = {4: _dtypes.complex64, 8: _dtypes.complex128}
    for a in arrays:
        d = asarray(a).dtype
        if d.kind == "c":
            is_complex = True
            p = d.itemsize // 2
        elif d.kind == "f":
            p = d.itemsize
        elif d.kind in "iu":
            p = 8
        else:
            raise TypeError("[mnn.numpy.common_type] can't get common type for non-numeric array")
        precision = max(precision, p)
    if is_complex:
        return csizes[max(precision, 4)]
    return sizes[precision] if precision else _dtypes.float16


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    mnp = _mnp()
    opts = {k: v for k, v in (("linewidth", max_line_width), ("precision", precision),
                              ("suppress", suppress_small)) if v is not None}
    with mnp.printoptions(**opts):
        return repr(asarray(arr))


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    mnp = _mnp()
    opts = {k: v for k, v in (("linewidth", max_line_width), ("precision", precision),
                              ("suppress", suppress_small)) if v is not None}
    with mnp.printoptions(**opts):
        return str(asarray(a))


little_endian = sys.byteorder == "little"
typecodes = {"Character": "c", "Integer": "bhilqnp", "UnsignedInteger": "BHILQNP", "Float": "efdg",
             "Complex": "FDG", "AllInteger": "bBhHiIlLqQnNpP", "AllFloat": "efdgFDG", "Datetime": "Mm",
             "All": "?bhilqnpBHILQNPefdgFDGSUVOMm"}


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray that refuses NaN and infinities (numpy's ValueError)."""
    mnp = _mnp()
    r = mnp.asarray(a, dtype=dtype)
    if r.dtype.kind in "fc" and not bool(mnp.isfinite(r).all()):
        raise ValueError("[mnn.numpy.asarray_chkfinite] array must not contain infs or NaNs")
    return r


def min_scalar_type(a, /):
    """The smallest dtype that holds the value (scalars, 0-d arrays); other arrays keep their dtype."""
    if isinstance(a, ndarray) and a.ndim > 0:
        return a.dtype
    v = a.item() if isinstance(a, ndarray) else a
    if isinstance(v, bool):
        return _dtypes.dtype("bool")
    if isinstance(v, int):
        kinds = ("uint8", "uint16", "uint32", "uint64") if v >= 0 else ("int8", "int16", "int32", "int64")
        for name in kinds:
            info = _dtypes.iinfo(name)
            if info.min <= v <= info.max:
                return _dtypes.dtype(name)
        raise OverflowError(f"[mnn.numpy.min_scalar_type] Python int {v} too large to convert")
    if isinstance(v, float):
        for name in ("float16", "float32", "float64"):
            if math.isnan(v) or math.isinf(v) or abs(v) <= _dtypes.finfo(name).max:
                return _dtypes.dtype(name)
    if isinstance(v, complex):
        big = max(abs(v.real), abs(v.imag))
        return _dtypes.dtype("complex64" if big <= _dtypes.finfo("float32").max else "complex128")
    return asarray(a).dtype


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


True_ = _dtypes.bool_(True)
False_ = _dtypes.bool_(False)
ScalarType = (int, float, complex, bool, bytes, str, memoryview) + tuple(
    d.type for d in _dtypes._ALL)


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


def typename(char):
    """numpy's description of a type code ('d' -> 'double precision')."""
    names = {"S1": "character", "?": "bool", "b": "signed char", "B": "unsigned char", "h": "short",
             "H": "unsigned short", "i": "integer", "I": "unsigned integer", "l": "long integer",
             "L": "unsigned long integer", "q": "long long integer", "Q": "unsigned long long integer",
             "f": "single precision", "d": "double precision", "g": "long precision", "F": "complex single precision",
             "D": "complex double precision", "G": "complex long double precision", "S": "string", "U": "unicode",
             "V": "void", "O": "object"}
    return names[char]


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The character of the smallest type in `typeset` that all of `typechars` cast to safely."""
    typecodes_ = [(isinstance(t, str) and t) or asarray(t).dtype.char for t in typechars]
    intersection = set(t for t in typecodes_ if t in typeset)
    if not intersection:
        return default
    if "F" in intersection and "d" in intersection:
        return "D"
    return min(intersection, key="GDFgdf".index)


def getbufsize():
    return _BUFSIZE[0]


def setbufsize(size):
    """Accepted for compatibility (mnn's kernels choose their own tiles); returns the old value."""
    old = _BUFSIZE[0]
    _BUFSIZE[0] = int(size)
    return old


_BUFSIZE = [8192]
