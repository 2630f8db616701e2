"""Complex-number helpers: real/imag/conj/angle and the iscomplex/isreal family.

real/imag of a complex array are computed by engine opcodes (lazy, fused).  numpy returns views
there; this engine's views cannot change dtype, so the results here are read-only arrays: a write
through them raises instead of silently not reaching the complex array."""
import math

from .. import _core
from . import _dtypes
from ._common import asarray

_OP = _core.OPCODES


class ComplexWarning(RuntimeWarning):
    """numpy.exceptions.ComplexWarning: a cast from complex to a real type dropped imaginary parts."""


def warn_complex_cast(src, dst):
    if src.kind == "c" and dst.kind not in "cb":
        import warnings
        warnings.warn("Casting complex values to real discards the imaginary part", ComplexWarning, stacklevel=3)


def _is_c(a):
    return a.dtype.kind == "c"


def _readonly(r):
    r.flags.writeable = False
    return r


def real(val):
    a = asarray(val)
    return _readonly(_core.ufunc(_OP["real"], a)) if _is_c(a) else a


def imag(val):
    a = asarray(val)
    if _is_c(a):
        return _readonly(_core.ufunc(_OP["imag"], a))
    from ._creation import zeros_like
    return _readonly(zeros_like(a))


def conj(x, /, out=None):
    from ._common import write_out
    a = asarray(x)
    if _is_c(a):
        r = _core.ufunc(_OP["conjugate"], a)
    elif a.dtype.kind == "b":  # numpy has no bool loop for conjugate
        raise _core.UFuncTypeError("[mnn.numpy.conjugate] ufunc 'conjugate' not supported for the input types")
    else:
        r = _core.copy(a)
    return write_out(r, out, "conjugate")


conjugate = conj


def angle(z, deg=False):
    a = asarray(z)
    if _is_c(a):
        re, im = _core.ufunc(_OP["real"], a), _core.ufunc(_OP["imag"], a)
    else:
        re = a if a.dtype.kind == "f" else a.astype(_dtypes.float64)
        from ._creation import zeros_like
        im = zeros_like(re)  # +0: arctan2(+0, x<0) is +pi, as numpy
    r = _core.ufunc(_OP["arctan2"], im, re)
    return r * (180.0 / math.pi) if deg else r


def iscomplexobj(x):
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = asarray(x).dtype
    return _dtypes.dtype(dt).kind == "c"


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    a = asarray(x)
    if _is_c(a):
        return _core.ufunc(_OP["not_equal"], _core.ufunc(_OP["imag"], a), 0)
    from ._creation import zeros
    return zeros(a.shape, dtype=_dtypes.bool_) if a.ndim else False


def isreal(x):
    a = asarray(x)
    if _is_c(a):
        return _core.ufunc(_OP["equal"], _core.ufunc(_OP["imag"], a), 0)
    from ._creation import ones
    return ones(a.shape, dtype=_dtypes.bool_) if a.ndim else True


def real_if_close(a, tol=100):
    a = asarray(a)
    if not _is_c(a):
        return a
    eps = _dtypes.finfo(a.dtype).eps
    t = tol * eps if tol > 1 else tol
    im = _core.ufunc(_OP["imag"], a)
    from ._reductions import all as _all
    if bool(_all(_core.ufunc(_OP["less"], _core.ufunc(_OP["absolute"], im), t))):
        return _core.ufunc(_OP["real"], a)
    return a
