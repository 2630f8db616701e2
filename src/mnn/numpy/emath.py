"""mnn.numpy.emath (numpy.emath): math functions whose out-of-domain real inputs give complex
results (sqrt(-1) = 1j) instead of NaN. Inputs are turned complex only when some element needs it,
so in-domain results keep their real dtype, as in numpy."""
import sys

from ._common import asarray


def _mnp():
    return sys.modules["mnn.numpy"]


def _tocomplex(x):
    # numpy: 8/16-bit integers and float16/32 become complex64, everything else complex128
    small = x.dtype.name in ("int8", "uint8", "int16", "uint16", "float16", "float32", "bool")
    return x.astype(_mnp().complex64 if small else _mnp().complex128)


def _complex_if(x, needs):
    x = asarray(x)
    if x.dtype.kind != "c" and bool(_mnp().any(needs(x))):
        return _tocomplex(x)
    return x


def _lt_zero(x):
    return x < 0


def _abs_gt_one(x):
    return _mnp().abs(x) > 1


def sqrt(x):
    return _mnp().sqrt(_complex_if(x, _lt_zero))


def log(x):
    return _mnp().log(_complex_if(x, _lt_zero))


def log10(x):
    return _mnp().log10(_complex_if(x, _lt_zero))


def log2(x):
    return _mnp().log2(_complex_if(x, _lt_zero))


def logn(n, x):
    return log(x) / log(n)


def power(x, p):
    x = _complex_if(x, _lt_zero)
    return _mnp().power(x, _complex_if(p, _lt_zero) if asarray(x).dtype.kind == "c" else p)


def arccos(x):
    return _mnp().arccos(_complex_if(x, _abs_gt_one))


def arcsin(x):
    return _mnp().arcsin(_complex_if(x, _abs_gt_one))


def arctanh(x):
    return _mnp().arctanh(_complex_if(x, _abs_gt_one))
