"""mnn.cv core array operations (cv2's core module): per-element arithmetic with cv2's saturation,
channel split/merge, norms and statistics, bitwise ops, polar coordinates, concatenation.

These are per-element or reductions, so they compose mnn.numpy ops (lazy and fused by the
engine); integer results are computed exactly in float64 and rounded as cv2's saturate_cast
does (half to even, clipped to the type's range). A Python number as an operand applies to every
channel (cv2 5 semantics); a tuple is a cv2 Scalar, one value per channel.
"""
import builtins
import math
import threading

from .. import _core
from .. import numpy as _np
from ._common import as_image, channels, contiguous, fail
from ._common import f32 as _f32c
from . import _arith_scalar as _as
from . import _exact_fp as _xfp
from . import _arith_scalar_fast as _asf
from . import _fastpix as _fp
from . import _hist
from . import _public
from . import _core_math as _cm
from ._fastpix import cv_row as _cv_row

__all__ = [
    "NORM_INF", "NORM_L1", "NORM_L2", "NORM_L2SQR", "NORM_MINMAX",
    "split", "merge", "add", "subtract", "multiply", "divide", "absdiff", "addWeighted",
    "scaleAdd", "convertScaleAbs", "normalize", "norm", "minMaxLoc", "mean", "meanStdDev", "countNonZero",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "magnitude", "phase", "cartToPolar",
    "polarToCart", "sqrt", "exp", "log", "pow", "hconcat", "vconcat", "min", "max", "setRNGSeed",
]

NORM_INF, NORM_L1, NORM_L2, NORM_L2SQR, NORM_MINMAX = 1, 2, 4, 5, 32
_DEPTHS = ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"]
_FLOATS = ("float32", "float64", "float16")
# cv2 5's extra depths that these ops take: float16 (CV_16F) everywhere cv2 has it, bool (CV_Bool)
# where cv2 only moves, compares or counts values (arithmetic on bool raises in cv2 too)
F16 = ("float16",)
F16B = ("float16", "bool")
# cv2's depth codes (dtype= / ddepth=) that mnn produces: CV_8U..CV_64F, CV_16F, CV_Bool
_CODES = {**dict(enumerate(_DEPTHS)), 7: "float16", 9: "bool"}


def _arr(x, fn, name="src", extra=()):
    a = as_image(x, fn, name)
    d = str(a.dtype)
    if d not in _DEPTHS and d not in extra:
        raise fail(fn, f"unsupported depth {a.dtype}")
    return a


def _out_depth(fn, dtype):
    """The dtype for a cv2 depth code: cv2 keeps only its low 5 bits (99 is CV_16S)."""
    d = _CODES.get(int(dtype) & 31)
    if d is None:
        raise fail(fn, f"unsupported output depth {dtype}")
    return d


def _saturate(x, dtype):
    if dtype == "float16":
        # cv2 computes in float32 and rounds that to half: the same double rounding here
        return x.astype("float32").astype("float16")
    if dtype == "bool":
        return x != 0  # cv2's conversion to CV_Bool: nonzero is true
    if dtype in _FLOATS:
        return x.astype(dtype)
    info = _np.iinfo(dtype)
    # cv2 rounds to int32 with the x86 conversion (cvRound), whose answer for anything out of
    # int32's range (or NaN) is INT_MIN, of either sign; only then does it saturate to a smaller
    # type (uint8 + 2**40 is 0, not 255)
    r = _np.rint(x)
    r = _np.where((r >= -2147483648.0) & (r <= 2147483647.0), r, _np.asarray(-2147483648.0))
    if dtype == "int32":
        return r.astype(dtype)
    return _np.clip(r, info.min, info.max).astype(dtype)


def _wraps_int32(a, out, *operands):
    """cv2 adds and subtracts int32 images in int32 arithmetic: the result wraps around."""
    return out == "int32" and str(a.dtype) == "int32" and all(
        _is_scalar(v) or str(getattr(v, "dtype", "")) in _INT32_IN for v in operands)


# operand dtypes that reach the ops as int32 (64-bit integers are narrowed on the way in)
_INT32_IN = ("int32", "int64", "uint64")


def _wrap_int32(r):
    """An exact float64 result of int32 operands, wrapped to int32 as two's complement."""
    return (r.astype("int64") & _np.asarray(0xFFFFFFFF, dtype="int64")).astype("uint32").view("int32")


def _int32_scalar(v):
    """cv2 turns a Scalar into the image's int32 type first, with cvRound: INT_MIN if out of range."""
    return _np.where((v >= -2147483648.0) & (v <= 2147483647.0), v, _np.asarray(-2147483648.0))


def _is_scalar(x):
    return isinstance(x, (int, float, tuple, list))


def _scalar_values(s, a, first_channel=False):
    """cv2's Scalar against an image: a number applies to every channel (the arithmetic ops), or
    with first_channel to the first one only, the others getting 0 (min, max and the bitwise ops
    take a number as Scalar(v, 0, 0, 0)); a tuple applies per channel, padded with zeros."""
    c = channels(a)
    if isinstance(s, (int, float)) and first_channel:
        vals = ([float(s)] + [0.0] * c)[:c]
    elif isinstance(s, (int, float)):
        vals = [float(s)] * c
    else:
        vals = [float(v) for v in s] + [0.0] * 4
        vals = vals[:c]
    if a.ndim == 2:
        return _np.asarray(vals[0])
    return _np.asarray(vals)


def _operands(fn, src1, src2, dtype, round_scalar=False, first_channel=False, extra=F16):
    """Both operands as float64 arrays, plus the result dtype (cv2's rules for mixed types).
    round_scalar: cv2 first converts a Scalar to the image's type (add, subtract, absdiff).
    first_channel: a number is Scalar(v, 0, 0, 0) (min, max)."""
    s1, s2 = _is_scalar(src1), _is_scalar(src2)
    if s1 and s2:
        raise fail(fn, "at least one operand must be an array")
    if s1 or s2:
        a = _arr(src2 if s1 else src1, fn, extra=extra)
        sv = _scalar_values(src1 if s1 else src2, a, first_channel)
        out = str(a.dtype) if dtype is None or dtype < 0 else _out_depth(fn, dtype)
        if round_scalar and str(a.dtype) not in _FLOATS:
            # cv2 rounds the Scalar to an integer with cvRound (no clipping; INT_MIN when out of
            # int32's range or NaN) for integer images
            sv = _int32_scalar(_np.rint(sv))
        x = a.astype("float64")
        return (sv, x, out, a) if s1 else (x, sv, out, a)
    a, b = _arr(src1, fn, "src1", extra), _arr(src2, fn, "src2", extra)
    if tuple(a.shape) != tuple(b.shape):
        raise fail(fn, "Sizes of input arguments do not match (the operation is neither 'array op array' "
                       "where arrays have the same size and the same number of channels, nor 'array op scalar')")
    if dtype is None or dtype < 0:
        if a.dtype != b.dtype:
            raise fail(fn, "When the input arrays have different types, the output array type must be "
                           "explicitly specified")
        out = str(a.dtype)
    else:
        out = _out_depth(fn, dtype)
    return a.astype("float64"), b.astype("float64"), out, a


def _masked(res, mask, dst, a, fn):
    if mask is None:
        return res
    m = _arr(mask, fn, "mask")
    if str(m.dtype) not in ("uint8", "int8") or m.ndim != 2 or tuple(m.shape) != tuple(a.shape[:2]):
        raise fail(fn, "mask must be a uint8 HxW array matching the image")
    keep = m != 0
    if res.ndim == 3:
        keep = _np.reshape(keep, tuple(m.shape) + (1,))
    base = _dst_base(dst, res.shape, res.dtype)
    return _np.where(keep, res, base if base is not None else _np.zeros(res.shape, dtype=res.dtype))


def _dst_base(dst, shape, dtype):
    """A dst argument (numpy or mnn) of the result's shape and dtype, as an mnn array: cv2 keeps its
    values where a mask is 0. None when dst does not fit (cv2 then starts from zeros)."""
    if dst is None or not hasattr(dst, "shape") or tuple(dst.shape) != tuple(shape) or str(dst.dtype) != str(dtype):
        return None
    return dst if isinstance(dst, _np.ndarray) else as_image(dst, "dst")


def _finish(res, dst):
    if dst is not None and isinstance(dst, _np.ndarray) and tuple(dst.shape) == tuple(res.shape) and dst.dtype == res.dtype:
        dst[...] = res
        return dst
    return res


def _quiet(res, *inputs):
    """cv2 never warns about IEEE conditions (x / 0, log(0), sqrt of a negative, overflow to inf):
    the result is computed now, under errstate(all='ignore'), so that numpy's RuntimeWarning is
    not raised where it would be read. The inputs are computed first, outside that state, so a
    warning that the caller's own pending work owes still comes."""
    pending = [x for x in inputs if isinstance(x, _np.ndarray)]
    if pending:
        _core.eval(*pending)
    with _np.errstate(all="ignore"):
        _core.eval(res)
    return res


def _small_int(a, out):
    return str(a.dtype) in ("uint8", "int8", "uint16", "int16") and out not in _FLOATS


def _f32(x):
    return x.astype("float32")


def _f32s(v):
    return float(_np.asarray(float(v), dtype="float32").item())


# ---- native fast paths (the cv_arith primitive) ----
# The same-depth, unmasked cases of the arithmetic below run in one native kernel
# (csrc/backends/cpu/simd/cv/arith.cpp) that reproduces, bit for bit, the float64 work written
# out in this file; everything else (mixed depths, masks, dtype=, int32, float16, ...) keeps the
# Python path, which also raises the errors for bad input.
_NATIVE = ("uint8", "int8", "uint16", "int16", "float32", "float64")
_OP = {"add": 0, "subtract": 1, "absdiff": 2, "multiply": 3, "divide": 4, "addWeighted": 5,
       "convertScaleAbs": 6}
_OP_S = {"add": 10, "subtract": 11, "rsubtract": 12, "absdiff": 13, "multiply": 14, "rmultiply": 15,
         "divide": 16, "rdivide": 17}


def _native_image(x):
    """x as an mnn image the native kernel takes, or None (a scalar, another depth, empty, ...)."""
    if x is None or _is_scalar(x):
        return None
    try:
        a = as_image(x, "arith")
    except (TypeError, ValueError):
        return None
    if str(a.dtype) not in _NATIVE or a.ndim not in (2, 3) or a.size == 0:
        return None
    return a


_INT_FLOAT = (int, float)


def _native_default(dtype):
    return dtype is None or (isinstance(dtype, int) and dtype < 0)


def _native_pair(fn, src1, src2, floats=()):
    """The array-array op natively, or None where the Python path must run."""
    a = _native_image(src1)
    if a is None:
        return None
    b = _native_image(src2)
    if b is None or a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape):
        return None
    return _core.prim("cv_arith", [a, b], [_OP[fn]], [float(v) for v in floats])


def _native_scalar(fn, img, value, scale=1.0):
    """An image against a cv2 Scalar (a number applies to every channel, a tuple per channel,
    padded with zeros) natively, or None."""
    a = _native_image(img)
    if a is None:
        return None
    c = channels(a)
    try:
        if isinstance(value, (int, float)):
            vals = [float(value)] * c
        else:
            vals = ([float(v) for v in value] + [0.0] * 4)[:c]
    except (TypeError, ValueError):
        return None
    if len(vals) != c:
        return None
    return _core.prim("cv_arith", [a], [_OP_S[fn]], [float(scale)] + vals)


def _native_binary(fn, src1, src2, dst, mask=None, dtype=-1, scale=1.0, rfn=None):
    """Dispatch of add / subtract / absdiff / multiply / divide: the native result (finished into
    dst), or None. rfn: the op's name when the Scalar is src1 (subtract and divide are not
    symmetric)."""
    if (fast := _asf.scalar_op(fn, src1, src2, dst, mask, dtype, scale, rfn)) is not None:  # _arith_scalar_fast.py
        return fast
    if mask is not None or not _native_default(dtype):
        return None
    s1, s2 = _is_scalar(src1), _is_scalar(src2)
    if s1 and s2:
        return None
    if s2:
        res = _native_scalar(fn, src1, src2, scale)
    elif s1:
        res = _native_scalar(rfn or fn, src2, src1, scale)
    else:
        res = _native_pair(fn, src1, src2, (scale,) if fn in ("multiply", "divide") else ())
    return None if res is None else _finish(res, dst)


def _add_sub(fn, src1, src2, dst, mask, dtype, sign):
    s1, s2 = _is_scalar(src1), _is_scalar(src2)
    img, sc = (src2, src1) if s1 else (src1, src2)
    n1, n2 = src1, src2
    native = _native_image(img) if s1 != s2 and mask is None and _native_default(dtype) else None
    if native is not None:
        vals = _as.channel_values(sc, channels(native))
        if _as.needs_python(str(native.dtype), vals):
            native = None  # cv2's int32 work wraps there: the Python path below
        elif str(native.dtype) == "float32":
            fsc = _as.f32_scalar(sc)  # cv2 adds float32(Scalar) in float32
            n1, n2 = (fsc, src2) if s1 else (src1, fsc)
    if native is not None or s1 == s2:
        fast = _native_binary(fn, n1, n2, dst, mask, dtype, rfn="add" if sign > 0 else "rsubtract")
        if fast is not None:
            return fast
    x, y, out, a = _operands(fn, src1, src2, dtype, True)
    if s1 != s2 and str(a.dtype) in _as.DEPTHS and out in _as.DEPTHS:
        # computed now, quietly: an overflow to inf (1e300 into float32) is not a warning in cv2
        res = _quiet(_saturate(_as.add_sub(a, _as.channel_values(sc, channels(a)), s1, sign, out), out), a)
    elif _wraps_int32(a, out, src1, src2):
        x, y = (_int32_scalar(x) if _is_scalar(src1) else x), (_int32_scalar(y) if _is_scalar(src2) else y)
        res = _wrap_int32(x + y if sign > 0 else x - y)
    elif not _is_scalar(src1) and not _is_scalar(src2):
        res = _saturate(_add_sub_in_work_depth(x, y, sign, str(a.dtype), out), out)
    else:
        res = _saturate(x + y if sign > 0 else x - y, out)
    return _finish(_masked(res, mask, dst, a, fn), dst)


# cv2's depth order, by which arithm_op takes the wider of two depths
_DEPTH_ORDER = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64")


def _add_sub_in_work_depth(x, y, sign, src, out):
    """x +- y (exact float64 values of two `src` images) as cv2's arithm_op computes it for another
    output depth: in a work depth of 16-bit for 8-bit sources, int32 for 16/32-bit ones, the source's
    for floats, widened to the output's; int32 work wraps (int32 + int32 saved as uint8 wraps before
    it saturates), float32 work rounds the operands and the sum to float32 (int32 to float32, and
    float32 to int32, differ from an exact sum there)."""
    if src not in _DEPTH_ORDER or out not in _DEPTH_ORDER:
        return x + y if sign > 0 else x - y
    work = "int16" if src in ("uint8", "int8") else "int32" if src in ("uint16", "int16", "int32") else src
    work = _DEPTH_ORDER[builtins.max(_DEPTH_ORDER.index(work), _DEPTH_ORDER.index(out))]  # cv.max shadows max
    if work == "int32":
        return _wrap_int32(x + y if sign > 0 else x - y).astype("float64")
    if work == "float32":
        xf, yf = _f32(x), _f32(y)
        return (xf + yf if sign > 0 else xf - yf).astype("float64")
    return x + y if sign > 0 else x - y


def add(src1, src2, dst=None, mask=None, dtype=-1):
    if dst is None and mask is None and _native_default(dtype) and (fast := _fp.pair("add", src1, src2)) is not None:
        return fast  # _fastpix.py: two images of one type at once
    if dst is None and mask is None and _native_default(dtype) and (fast := _cm.arith_pair("add", src1, src2)) is not None:
        return fast  # _core_math.py: the native pair op with less Python
    return _add_sub("add", src1, src2, dst, mask, dtype, 1)


def subtract(src1, src2, dst=None, mask=None, dtype=-1):
    if dst is None and mask is None and _native_default(dtype) and (fast := _cm.arith_pair("subtract", src1, src2)) is not None:
        return fast  # _core_math.py
    return _add_sub("subtract", src1, src2, dst, mask, dtype, -1)


# ---- multiply, divide, addWeighted, scaleAdd: cv2's work depth and its kernels, bit for bit ----
# cv2 (arithm_op with muldiv) converts both images to a work depth, runs that depth's kernel and
# converts the result to the output depth. The kernels differ in precision and in the order of
# their operations, which is what the results' last bits (or .5 ties of integer outputs) show.

_FLT_EPSILON = 2.0 ** -23
# the largest magnitude of each 8/16-bit depth: bounds the products in _exact_fp.sums_exact
_SMALL_INT_MAX = {"uint8": 255, "int8": 128, "uint16": 65535, "int16": 32768}


def _work_depth(src, out):
    """cv2's coerceTypes for the muldiv ops: the source's own kernel when the output keeps its
    depth, int32 between two integer depths, double where a float64 is involved, else float32
    (float16 is computed in float32, as cv2 does)."""
    if src == out and src != "float16":
        return src
    if src not in _FLOATS and out not in _FLOATS:
        return "int32"
    if "float64" in (src, out):
        return "float64"
    return "float32"


def _to_work(x, src, work):
    """Source values (float64) as cv2 converts them to the work depth: only int32 to float32 rounds."""
    return _f32(x).astype("float64") if work == "float32" and src == "int32" else x


def _f32r(x):
    """x rounded to float32, kept in float64 (an exact product of two floats rounds once here)."""
    return _f32(x).astype("float64")


def _near_one(scale):
    """cv2's 8/16-bit and float kernels treat a float32 scale within FLT_EPSILON of 1 as no scale."""
    return builtins.abs(_f32s(scale) - 1.0) <= _FLT_EPSILON


def _number(v, fn, name, none):
    """A scale / weight argument as cv2's binding reads it: None is the given default, anything
    float() takes (numpy scalars included) is a double, a string is refused."""
    if v is None:
        return none
    if not isinstance(v, (str, bytes)):
        try:
            return float(v)
        except (TypeError, ValueError):
            pass
    raise fail(fn, f"Argument '{name}' can not be treated as a double")


def _mul_kernel(x, y, s, work):
    if work in ("float64", "int32"):
        # double kernels: (a * scale) * b for float64; int32 scales the product, (a * b) * scale
        return (x * s) * y if work == "float64" else (x * y) * s
    # 8/16-bit and float32 kernels: float32 arithmetic with a float32 scale, (a * scale) * b;
    # each product of two floats is exact in double, so rounding it to float32 is float32 math
    return _f32r(_f32r(x * _f32s(s)) * y)


def multiply(src1, src2, dst=None, scale=1, dtype=-1):
    s = _number(scale, "multiply", "scale", 1.0)
    fast = _native_binary("multiply", src1, src2, dst, None, dtype, s, "rmultiply")
    if fast is not None:
        return fast
    x, y, out, a = _operands("multiply", src1, src2, dtype)
    src = str(a.dtype)
    if _is_scalar(src1) or _is_scalar(src2):
        # a Scalar makes cv2 work in double: (src1 * scale) * src2, whichever is the Scalar
        r = (x * s) * y
    elif src == "uint16" and out == "uint16" and _near_one(s):
        # cv2 multiplies two uint16 images in int: a product past 2^31 wraps negative, then
        # saturates to 0
        r = _wrap_int32(x * y).astype("float64")
    else:
        work = _work_depth(src, out)
        r = _mul_kernel(_to_work(x, src, work), _to_work(y, src, work), s, work)
    return _finish(_quiet(_saturate(r, out), src1, src2), dst)


def _div_kernel(x, y, s, work):
    if work in ("float64", "int32"):
        q = (x * s) / y  # double: (a * scale) / b
    elif work == "float32" and _near_one(s):
        q = _f32r(x / y)  # a double quotient of floats rounds to the correctly rounded float32
    else:
        q = _f32r(_f32r(x * _f32s(s)) / y)
    if work in _FLOATS:
        return q  # IEEE: x / 0 is inf or NaN, which the output conversion then handles
    # integer kernels: x / 0 is 0
    return _np.where(y == 0, _np.asarray(0.0), q)


def divide(src1, src2, dst=None, scale=1, dtype=-1):
    fn = "divide"
    s = _number(scale, fn, "scale", 1.0)
    fast = _native_binary(fn, src1, src2, dst, None, dtype, s, "rdivide")
    if fast is not None:
        return fast
    if isinstance(src1, (int, float)) and not _is_scalar(src2):
        # divide(value, image): cv2 works in double with no zero check, so value / 0 is inf and
        # an integer output gets cvRound(inf) = INT_MIN, saturated
        b = _arr(src2, fn, "src2", F16)
        out = str(b.dtype) if dtype is None or dtype < 0 else _out_depth(fn, dtype)
        r = (_np.asarray(float(src1)) * s) / b.astype("float64")
        return _finish(_quiet(_saturate(r, out), src2), dst)
    x, y, out, a = _operands(fn, src1, src2, dtype)
    src = str(a.dtype)
    if _is_scalar(src1) or _is_scalar(src2):
        r = (x * s) / y  # a Scalar: double, no zero check (as above)
    else:
        work = _work_depth(src, out)
        r = _div_kernel(_to_work(x, src, work), _to_work(y, src, work), s, work)
    return _finish(_quiet(_saturate(r, out), src1, src2), dst)


def absdiff(src1, src2, dst=None):
    if dst is None and (fast := _cm.arith_pair("absdiff", src1, src2)) is not None:
        return fast  # _core_math.py
    fast = _native_binary("absdiff", src1, src2, dst)  # |s - x| == |x - s|, wrapped too
    if fast is not None:
        return fast
    x, y, out, a = _operands("absdiff", src1, src2, -1, True)
    if str(a.dtype) not in _FLOATS and (_is_scalar(src1) or _is_scalar(src2)):
        # an integer image against a Scalar: cv2 subtracts in int32, wrapping (|0 - INT_MIN| is INT_MIN)
        return _finish(_saturate(_wrap_int32(_np.abs(_wrap_int32(x - y).astype("float64"))).astype("float64"), out), dst)
    if _wraps_int32(a, out, src1, src2):  # |a - b| of the wrapped int32 difference
        x, y = (_int32_scalar(x) if _is_scalar(src1) else x), (_int32_scalar(y) if _is_scalar(src2) else y)
        return _finish(_wrap_int32(_np.abs(_wrap_int32(x - y).astype("float64"))), dst)
    return _finish(_saturate(_np.abs(x - y), out), dst)


def min(src1, src2, dst=None):  # noqa: A001  (cv2's name)
    """cv2.min: the per-element minimum; a scalar operand is saturated to the image's depth."""
    x, y, out, _ = _operands("min", src1, src2, -1, True, True, F16B)
    return _finish(_saturate(_np.minimum(x, y), out), dst)


def max(src1, src2, dst=None):  # noqa: A001  (cv2's name)
    """cv2.max: the per-element maximum; a scalar operand is saturated to the image's depth."""
    x, y, out, _ = _operands("max", src1, src2, -1, True, True, F16B)
    return _finish(_saturate(_np.maximum(x, y), out), dst)


def addWeighted(src1, alpha, src2, beta, gamma, dst=None, dtype=-1):
    if (dst is None and _native_default(dtype) and alpha.__class__ in _INT_FLOAT and beta.__class__ in _INT_FLOAT
            and gamma.__class__ in _INT_FLOAT):
        fast = _cm.arith_pair("addWeighted", src1, src2, (float(alpha), float(beta), float(gamma)))
        if fast is not None:
            return fast  # _core_math.py
    # cv2's binding passes None as 0
    alpha, beta, gamma = (_number(v, "addWeighted", k, 0.0)
                          for v, k in ((alpha, "alpha"), (beta, "beta"), (gamma, "gamma")))
    if _native_default(dtype) and not (_is_scalar(src1) or _is_scalar(src2)):
        fast = _native_pair("addWeighted", src1, src2, (alpha, beta, gamma))
        if fast is not None:
            return _finish(fast, dst)
    x, y, out, a = _operands("addWeighted", src1, src2, dtype)
    src = str(a.dtype)
    work = "float64" if _is_scalar(src1) or _is_scalar(src2) else _work_depth(src, out)
    x, y = _to_work(x, src, work), _to_work(y, src, work)
    if work == "float64":
        r = _xfp.fma64(x, _np.asarray(alpha), _xfp.fma64(y, _np.asarray(beta), _np.asarray(gamma)))
    elif work == "int32":
        # cv2's int32 kernel is its scalar loop, which the compiler contracts to
        # fma(a, alpha, b * beta) + gamma in double
        r = _xfp.fma64(x, _np.asarray(alpha), y * beta) + gamma
    else:
        # the 8/16-bit and float32 kernels: fma(a, alpha, fma(b, beta, gamma)) in float32, with
        # the weights rounded to float32
        fa, fb, fg = (_f32s(v) for v in (alpha, beta, gamma))
        if src in _SMALL_INT_MAX and _xfp.sums_exact(_SMALL_INT_MAX[src], fa, fb, fg):
            # 8/16-bit pixels times float32 weights: both double sums are exact, so rounding
            # each once to float32 is the fma (and ~20x cheaper than the general emulation)
            r = _f32(x * fa + _f32r(y * fb + fg))
        else:
            inner = _xfp.fma32(y, _np.asarray(fb), _np.asarray(fg)).astype("float64")
            r = _xfp.fma32(x, _np.asarray(fa), inner)
    return _finish(_quiet(_saturate(r, out), src1, src2), dst)


def scaleAdd(src1, alpha, src2, dst=None):
    """cv2.scaleAdd: src1 * alpha + src2 as one fma, in float32 (alpha rounded to float32) for
    8/16-bit and float32 images, in double for int32 and float64 ones."""
    fn = "scaleAdd"
    if _is_scalar(src1) or _is_scalar(src2):
        raise fail(fn, "src1 and src2 must be arrays")
    a, b = _arr(src1, fn, "src1", F16), _arr(src2, fn, "src2", F16)
    if a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape):
        raise fail(fn, "src1 and src2 must have the same size and type")
    alpha = _number(alpha, fn, "alpha", 0.0)  # cv2's binding reads None as 0
    d = str(a.dtype)
    x, y = a.astype("float64"), b.astype("float64")
    if d in ("int32", "float64"):
        r = _xfp.fma64(x, _np.asarray(alpha), y)
    elif d in _SMALL_INT_MAX and _xfp.sums_exact(_SMALL_INT_MAX[d], _f32s(alpha), 1.0, 0.0):
        r = _f32(x * _f32s(alpha) + y)  # an exact double sum: one float32 rounding is the fma
    else:
        r = _xfp.fma32(x, _np.asarray(_f32s(alpha)), y)
    return _finish(_quiet(_saturate(r, d), src1, src2), dst)


def convertScaleAbs(src, dst=None, alpha=1, beta=0):
    a = _arr(src, "convertScaleAbs", extra=F16B)
    if str(a.dtype) in _NATIVE and a.ndim in (2, 3) and a.size and isinstance(alpha, (int, float)) \
            and isinstance(beta, (int, float)):
        # the kernel rounds alpha and beta to float32, as cv2 does
        fl = [float(alpha), float(beta)] + ([float(_as.csa_vector_rows(src, a))] if str(a.dtype) == "float64" else [])
        return _finish(_core.prim("cv_arith", [a], [_OP["convertScaleAbs"]], fl), dst)
    # cv2 takes alpha and beta as float32 and runs fma(x, alpha, beta) in float32 (int32 converted
    # to float32 first); float64 images: see _arith_scalar.csa_vector_rows
    if str(a.dtype) == "float64" and _as.csa_vector_rows(src, a):
        x = _f32(a).astype("float64")
        y = _np.abs(_xfp.fma32(x, _np.asarray(_f32s(alpha)), _np.asarray(_f32s(beta)))).astype("float64")
    elif str(a.dtype) == "float64":
        y = _np.abs(_xfp.fma64(a, _np.asarray(_f32s(alpha)), _np.asarray(_f32s(beta))))
    else:
        x = _f32(a).astype("float64") if str(a.dtype) == "int32" else a.astype("float64")
        y = _np.abs(_f32(x * _f32s(alpha) + _f32s(beta))).astype("float64")
    # then cvRound to int, whose answer past INT_MAX is INT_MIN: saturated to 0, not 255
    y = _np.where(_np.rint(y) <= 2147483647.0, y, _np.asarray(0.0))
    return _finish(_quiet(_saturate(y, "uint8"), a), dst)


def split(m, mv=None):
    a = _arr(m, "split", extra=F16B)
    if a.ndim == 2:
        return (a.copy(),)
    if a.ndim == 3 and str(a.dtype) in _DEPTHS and a.size:
        # one deinterleaving pass into a (C, H, W) block; each plane is a contiguous view of it
        planes = _core.prim("cv_split", [a], [], [])
        return tuple(planes[k] for k in range(a.shape[2]))
    return tuple(_np.ascontiguousarray(a[:, :, k]) for k in range(a.shape[2]))


def merge(mv, dst=None):
    if dst is None and (fast := _fp.merge(mv)) is not None:  # _fastpix.py: dense planes at once
        return fast
    fn = "merge"
    if not isinstance(mv, (list, tuple)) or not mv:
        raise fail(fn, "mv must be a non-empty sequence of arrays")
    arrs = [_arr(x, fn, "mv", F16B) for x in mv]
    if arrs[0].size == 0:
        raise fail(fn, "!mv[0].empty()")
    h, w = arrs[0].shape[:2]
    for x in arrs:
        if tuple(x.shape[:2]) != (h, w) or x.dtype != arrs[0].dtype:
            raise fail(fn, "all arrays must have the same size and depth")
    if all(x.ndim == 2 for x in arrs) and str(arrs[0].dtype) in _DEPTHS:
        # one interleaving pass (csrc/backends/cpu/simd/cv/fastpix.cpp)
        res = _core.prim("cv_merge", arrs, [], [])
        return _finish(_np.reshape(res, (h, w)) if len(arrs) == 1 else res, dst)
    planes = [_np.reshape(x, (h, w, 1)) if x.ndim == 2 else x for x in arrs]
    res = _np.concatenate(planes, axis=2)
    if res.shape[2] == 1:
        res = _np.reshape(res, (h, w))
    return _finish(res, dst)


def _mask_arr(mask, a, fn):
    """The checked mask as an mnn array (None for None)."""
    if mask is None:
        return None
    m = _arr(mask, fn, "mask")
    if str(m.dtype) not in ("uint8", "int8") or tuple(m.shape[:2]) != tuple(a.shape[:2]) or m.ndim != 2:
        raise fail(fn, "mask must be a uint8 HxW array matching the image")
    return m


def _mask_bool(mask, a, fn):
    m = _mask_arr(mask, a, fn)
    return None if m is None else m != 0


def _norm_value(x, kind, keep=None):
    if keep is not None:
        k = keep if x.ndim == 2 else _np.reshape(keep, tuple(keep.shape) + (1,))
        x = _np.where(k, x, _np.asarray(0.0))
    if kind == NORM_INF:
        return float(_np.max(_np.abs(x))) if x.size else 0.0
    if kind == NORM_L1:
        return float(_np.sum(_np.abs(x)))
    s = float(_np.sum(x * x))
    return s if kind == NORM_L2SQR else math.sqrt(s)


def norm(src1, normType=NORM_L2, mask=None):
    a = _arr(src1, "norm", extra=F16B)
    kind = int(normType) & 7
    if kind not in (NORM_INF, NORM_L1, NORM_L2, NORM_L2SQR):
        # NORM_HAMMING / NORM_HAMMING2 (6, 7) are not implemented; other codes fail in cv2 too
        raise fail("norm", f"unsupported norm type {normType} (cv2: normType == NORM_INF || NORM_L1 || NORM_L2 || NORM_L2SQR)")
    m = _mask_arr(mask, a, "norm")
    if str(a.dtype) in _hist.DEPTHS and a.ndim in (2, 3) and (m is None or str(m.dtype) == "uint8"):
        # one native pass (csrc/backends/cpu/simd/cv/hist.cpp)
        return _hist.norm_value(a, kind, m)
    return _norm_value(a.astype("float64"), kind, None if m is None else m != 0)


def normalize(src, dst=None, alpha=1, beta=0, norm_type=NORM_L2, dtype=-1, mask=None):
    if norm_type == NORM_MINMAX and dst is None and mask is None and (dtype is None or dtype.__class__ is int and dtype < 0):
        # a uint8 image into uint8: one kernel run at once (_fastpix.py), the same arithmetic
        fast = _fp.normalize_minmax_u8(src, alpha, beta)
        if fast is not None:
            return fast
    fn = "normalize"
    if dst is not None and not hasattr(dst, "shape") and not isinstance(dst, (int, float)):
        raise TypeError(f"[mnn.cv.{fn}] dst is not a numpy array, neither a scalar")
    a = _arr(src, fn, extra=F16B)
    out = str(a.dtype) if dtype is None or dtype < 0 else _out_depth(fn, dtype)
    if a.size == 0:  # cv2 normalizes nothing: an empty result of the asked type
        return a.astype(out)
    if mask is not None and norm_type == NORM_MINMAX and channels(a) != 1:
        raise fail(fn, "a mask needs a single-channel image for NORM_MINMAX (cv2: cn == 1)")
    out = str(a.dtype) if dtype is None or dtype < 0 else _out_depth(fn, dtype)
    m = _mask_arr(mask, a, fn)
    if norm_type in (NORM_MINMAX, NORM_INF, NORM_L1, NORM_L2) and a.ndim in (2, 3) and \
            str(a.dtype) in _hist.DEPTHS and out in _hist.DEPTHS and (m is None or str(m.dtype) == "uint8"):
        return _normalize_native(a, dst, alpha, beta, norm_type, out, m)
    keep = None if m is None else m != 0
    x = a.astype("float64")
    if norm_type == NORM_MINMAX:
        dmin, dmax = builtins.min(alpha, beta), builtins.max(alpha, beta)
        if keep is not None:
            k = keep if x.ndim == 2 else _np.reshape(keep, tuple(keep.shape) + (1,))
            smin = float(_np.min(_np.where(k, x, _np.asarray(math.inf))))
            smax = float(_np.max(_np.where(k, x, _np.asarray(-math.inf))))
        else:
            smin, smax = float(_np.min(x)), float(_np.max(x))
        scale = (dmax - dmin) * (1.0 / (smax - smin) if smax - smin > 2.220446049250313e-16 else 0.0)
        shift = dmin - smin * scale
    elif norm_type in (NORM_INF, NORM_L1, NORM_L2):
        nv = _norm_value(x, norm_type, keep)
        scale = float(alpha) * (1.0 / nv if abs(nv) > 2.220446049250313e-16 else 0.0)
        shift = 0.0
    else:
        raise fail(fn, "unknown/unsupported norm type")
    if _small_int(a, out) or str(a.dtype) == "float16":
        # convertTo from 8/16-bit data (half floats included) runs fma(x, scale, shift) in float32.
        res = _saturate(_f32(x * _f32s(scale) + _f32s(shift)), out)
    elif str(a.dtype) == "int32" and out in ("uint8", "int8", "uint16", "int16"):
        # int32 to a small type: the same float32 fma, on the int32 values converted to float32
        res = _saturate(_f32(_f32(x).astype("float64") * _f32s(scale) + _f32s(shift)), out)
    else:
        res = _saturate(x * scale + shift, out)
    if keep is not None:
        k = keep if res.ndim == 2 else _np.reshape(keep, tuple(keep.shape) + (1,))
        base = _dst_base(dst, res.shape, out)
        res = _np.where(k, res, base if base is not None else _np.zeros(res.shape, dtype=out))
    return _finish(res, dst)


def _normalize_native(a, dst, alpha, beta, norm_type, out, m):
    """normalize in two native passes (statistics, then the scaled conversion): the same scale,
    shift and arithmetic as the mnn.numpy path of normalize."""
    d = str(a.dtype)
    mode = 1 if _small_int(a, out) else 2 if d == "int32" and out in ("uint8", "int8", "uint16", "int16") else 0
    base = None
    if m is not None:
        base = _dst_base(dst, tuple(a.shape), out)
        if base is not None:
            base = as_image(base, "normalize", "dst")
    res = _hist.normalize(a, out, mode, norm_type, alpha, beta, m, base)
    if res is not None:  # statistics, scale and conversion in one native step
        return _finish(res, dst)
    if norm_type == NORM_MINMAX:
        dmin, dmax = builtins.min(alpha, beta), builtins.max(alpha, beta)
        smin, smax = _hist.norm_value(a, NORM_MINMAX, m)
        scale = (dmax - dmin) * (1.0 / (smax - smin) if smax - smin > 2.220446049250313e-16 else 0.0)
        shift = dmin - smin * scale
    else:
        nv = _hist.norm_value(a, norm_type, m)
        scale = float(alpha) * (1.0 / nv if abs(nv) > 2.220446049250313e-16 else 0.0)
        shift = 0.0
    return _finish(_hist.scale_convert(a, out, mode, scale, shift, m, base), dst)


_MINMAX_MEMO = {}  # see _fastpix: image key -> (cv_minmaxloc bound, image width)


def _minmax_result(r, w):
    lo, hi, i, j = r  # _fp.values: four floats
    i, j = int(i), int(j)
    return lo, hi, ((i % w, i // w) if i >= 0 else (-1, -1)), ((j % w, j // w) if j >= 0 else (-1, -1))


_MML_NOW = _core.cv_minmaxloc


def minMaxLoc(*args, **kwargs):
    # A dense single-channel image (a numpy frame) is answered in C at once (csrc/python/fast_run.cpp:
    # the kernel on the buffer, no graph; ~0.4 us of fixed cost where cv2 spends ~0.6). Else a
    # repeated call on an image seen before (see _MINMAX_MEMO) runs here, outside the public
    # wrapper (_public.py), whose work on a tuple of numbers is nothing but costs 1-2 us, as much as
    # a 640x480 kernel; every other call goes to the wrapped, checked function.
    if len(args) == 1 and not kwargs:
        src = args[0]
        r = _MML_NOW(src)
        if r is not None:
            return r
        key = _fp.image_key(src)
        if key is not None:
            hit = _MINMAX_MEMO.get(key)
            if hit is not None:
                r = _fp.values(hit[0], src)  # the kernel run at once, no graph: 4 numbers
                if r is not None:
                    return _minmax_result(r, hit[1])
    return _minmax_public(*args, **kwargs)


_MINMAX_BOUND = {}  # mode -> cv_minmaxloc bound (_fp.bind), for images the memo does not key


def _minmax_bound(mode):
    b = _MINMAX_BOUND.get(mode)
    if b is None:
        b = _MINMAX_BOUND[mode] = _fp.bind("cv_minmaxloc", [mode], [])
    return b


def _minmax_checked(src, mask=None):
    """minMaxLoc with every check; the memo's entries are made here."""
    fn = "minMaxLoc"
    key = _fp.image_key(src) if mask is None else None
    a = _arr(src, fn, extra=F16B)
    if a.ndim > 3:
        raise fail(fn, f"expected a 2-d or 3-d array, got {a.ndim} dimensions (cv2: dims <= 2)")
    if a.ndim == 3 and a.shape[2] != 1:
        raise fail(fn, "src must be single-channel (cv2: (cn == 1 && (_mask.empty() || _mask.type() == CV_8U)))")
    if a.ndim == 3:
        a = _np.reshape(a, a.shape[:2])
    w = a.shape[1]
    if mask is None and a.size and str(a.dtype) in _DEPTHS:
        # one C++ pass (csrc/backends/cpu/simd/cv/fastpix.cpp): min, max and the first index of each.
        # cv2's answers when the first element is NaN depend on its loop: float64 gives NaN at
        # (0, 0); float32 rows shorter than 64 (cv2's rows: the whole image when continuous) NaN
        # and no location; longer float32 rows skip every NaN (mode 2)
        d = str(a.dtype)
        mode = 1 if d == "float64" else 2 if d == "float32" and _cv_row(src, a) >= 64 else 0
        _fp.remember(_MINMAX_MEMO, key, "cv_minmaxloc", [mode], [], w)
        return _minmax_result(_fp.values(_minmax_bound(mode), a), w)
    x = a.astype("float64")
    keep = _mask_bool(mask, a, fn)
    if keep is not None:
        if not bool(_np.any(keep)):
            return 0.0, 0.0, (-1, -1), (-1, -1)
        lo = _np.where(keep, x, _np.asarray(math.inf))
        hi = _np.where(keep, x, _np.asarray(-math.inf))
    else:
        if a.size == 0:
            return 0.0, 0.0, (-1, -1), (-1, -1)
        lo = hi = x
    i, j = int(_np.argmin(lo)), int(_np.argmax(hi))
    return float(_np.ravel(lo)[i]), float(_np.ravel(hi)[j]), (i % w, i // w), (j % w, j // w)


def _scalar4(vals):
    vals = [float(v) for v in vals][:4]
    return tuple(vals + [0.0] * (4 - len(vals)))


def mean(src, mask=None):
    fn = "mean"
    a = _arr(src, fn, extra=F16)
    if channels(a) > 4:
        raise fail(fn, "cn <= 4 (cv2's mean is a Scalar of at most 4 channels)")
    if str(a.dtype) in _hist.DEPTHS and a.ndim in (2, 3) and a.size and (mask is None or str(getattr(mask, "dtype", "")) == "uint8"):
        _mask_bool(mask, a, fn)  # the checks only
        r = _hist.mean(a, None if mask is None else _arr(mask, fn, "mask"))
        return (0.0, 0.0, 0.0, 0.0) if r is None else _scalar4(r)
    x = a.astype("float64")
    if x.ndim == 2:
        x = _np.reshape(x, tuple(x.shape) + (1,))
    keep = _mask_bool(mask, a, fn)
    if keep is not None:
        n = int(_np.sum(keep))
        if n == 0:
            return (0.0, 0.0, 0.0, 0.0)
        s = _np.sum(_np.where(_np.reshape(keep, tuple(keep.shape) + (1,)), x, _np.asarray(0.0)), axis=(0, 1))
        return _scalar4((s / n).tolist())
    if x.size == 0:  # cv2: the mean of nothing is 0
        return (0.0, 0.0, 0.0, 0.0)
    return _scalar4(_np.mean(x, axis=(0, 1)).tolist())


def meanStdDev(src, mean=None, stddev=None, mask=None):
    fn = "meanStdDev"
    a = _arr(src, fn, extra=F16)
    if a.size == 0:
        raise fail(fn, "!_src.empty()")
    if str(a.dtype) in _hist.DEPTHS and a.ndim in (2, 3) and channels(a) <= 64 and (mask is None or str(getattr(mask, "dtype", "")) == "uint8"):
        _mask_bool(mask, a, fn)  # the checks only
        return _hist.mean_std(a, None if mask is None else _arr(mask, fn, "mask"))
    x = a.astype("float64")
    if x.ndim == 2:
        x = _np.reshape(x, tuple(x.shape) + (1,))
    keep = _mask_bool(mask, a, fn)
    if keep is not None:
        k = _np.reshape(keep, tuple(keep.shape) + (1,))
        n = builtins.max(int(_np.sum(keep)), 1)
        m = _np.sum(_np.where(k, x, _np.asarray(0.0)), axis=(0, 1)) / n
        v = _np.sum(_np.where(k, (x - m) ** 2, _np.asarray(0.0)), axis=(0, 1)) / n
    else:
        m = _np.mean(x, axis=(0, 1))
        v = _np.mean((x - m) ** 2, axis=(0, 1))
    c = x.shape[2]
    return _np.reshape(m, (c, 1)), _np.reshape(_np.sqrt(v), (c, 1))


_COUNT_MEMO = {}  # see _fastpix: image key -> (cv_count_nz bound, None)


def countNonZero(*args, **kwargs):
    # a repeated call outside the public wrapper, as minMaxLoc's
    if len(args) == 1 and not kwargs:
        src = args[0]
        key = _fp.image_key(src)
        if key is not None:
            hit = _COUNT_MEMO.get(key)
            if hit is not None:
                r = _fp.apply(hit[0], src)
                if r is not None:
                    return int(_core.item(r, 0))
    return _count_public(*args, **kwargs)


def _count_checked(src):
    """countNonZero with every check; the memo's entries are made here."""
    fn = "countNonZero"
    key = _fp.image_key(src)
    a = _arr(src, fn, extra=F16B)
    if a.ndim == 3 and a.shape[2] != 1:
        raise fail(fn, "src must be single-channel (cv2: cn == 1)")
    if a.ndim in (2, 3) and str(a.dtype) in _DEPTHS:
        _fp.remember(_COUNT_MEMO, key, "cv_count_nz", [], [], None)
        return int(_core.item(_core.prim("cv_count_nz", [a], [], []), 0))
    return int(_np.sum(a != 0))


def _bitwise(fn, op, src1, src2, dst, mask):
    if (fast := _cm.bitwise(fn, src1, src2, mask, dst)) is not None:  # _core_math.py
        return _finish(fast, dst)
    s1, s2 = _is_scalar(src1), _is_scalar(src2)
    if s1 or s2:
        a = _arr(src2 if s1 else src1, fn, extra=F16B)
        if str(a.dtype) in _FLOATS:
            raise fail(fn, "bitwise operations with a scalar need an integer image")
        sv = _saturate(_scalar_values(src1 if s1 else src2, a, True), str(a.dtype))
        res = op(a, sv)
    else:
        a, b = _arr(src1, fn, "src1", F16B), _arr(src2, fn, "src2", F16B)
        if tuple(a.shape) != tuple(b.shape) or a.dtype != b.dtype:
            raise fail(fn, "Sizes/types of input arguments do not match")
        if str(a.dtype) in _FLOATS:
            # Bits of the float pattern, as cv2 does.
            it = _BITS[str(a.dtype)]
            res = op(contiguous(a).view(it), contiguous(b).view(it)).view(str(a.dtype))
        else:
            res = op(a, b)
    return _finish(_masked(res.astype(str(a.dtype)), mask, dst, a, fn), dst)


# the integer type whose bits a float's bitwise ops work on
_BITS = {"float16": "int16", "float32": "int32", "float64": "int64"}


def bitwise_and(src1, src2, dst=None, mask=None):
    if dst is None and mask is None and (fast := _fp.pair("bitwise_and", src1, src2)) is not None:
        return fast  # _fastpix.py: two images of one type at once
    return _bitwise("bitwise_and", _np.bitwise_and, src1, src2, dst, mask)


def bitwise_or(src1, src2, dst=None, mask=None):
    return _bitwise("bitwise_or", _np.bitwise_or, src1, src2, dst, mask)


def bitwise_xor(src1, src2, dst=None, mask=None):
    return _bitwise("bitwise_xor", _np.bitwise_xor, src1, src2, dst, mask)


def bitwise_not(src, dst=None, mask=None):
    fn = "bitwise_not"
    if (fast := _cm.bitwise(fn, src, None, mask, dst)) is not None:  # _core_math.py
        return _finish(fast, dst)
    a = _arr(src, fn, extra=F16B)
    if str(a.dtype) == "bool":
        # cv2 flips all 8 bits of each bool byte (true -> 0xFE): the same bytes, seen as bool
        return _finish(_masked(_np.bitwise_not(contiguous(a).view("uint8")).view("bool"), mask, dst, a, fn), dst)
    if str(a.dtype) in _FLOATS:  # the bits of the float pattern, as cv2 does
        it = _BITS[str(a.dtype)]
        return _finish(_masked(_np.bitwise_not(contiguous(a).view(it)).view(str(a.dtype)), mask, dst, a, fn), dst)
    return _finish(_masked(_np.bitwise_not(a), mask, dst, a, fn), dst)


def _float_pair(fn, x, y):
    a, b = _arr(x, fn, "x"), _arr(y, fn, "y")
    if str(a.dtype) not in _FLOATS or a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape):
        raise fail(fn, "x and y must be float32/float64 arrays of the same size and type")
    return a, b


def magnitude(x, y, magnitude=None):
    if (fast := _cm.polar("magnitude", x, y)) is not None:  # _core_math.py: cv2's fma form
        return _finish(fast, magnitude)
    a, b = _float_pair("magnitude", x, y)
    return _finish(_np.sqrt(a * a + b * b), magnitude)


# cv2's fastAtan2: an odd polynomial in min/max of |x|, |y| (degrees), then quadrant folding.
_P1, _P3, _P5, _P7 = (0.9997878412794807 * 57.29577951308232, -0.3258083974640975 * 57.29577951308232,
                      0.1555786518463281 * 57.29577951308232, -0.04432655554792128 * 57.29577951308232)


def _fast_atan2_deg(y, x):
    f = "float32"
    p1, p3, p5, p7 = (_np.asarray(v, dtype=f) for v in (_P1, _P3, _P5, _P7))
    x32, y32 = x.astype(f), y.astype(f)
    ax, ay = _np.abs(x32), _np.abs(y32)
    eps = _np.asarray(2.220446049250313e-16, dtype=f)
    big = ax >= ay
    c = _np.where(big, ay / (ax + eps), ax / (ay + eps)).astype(f)
    c2 = c * c
    a = (((p7 * c2 + p5) * c2 + p3) * c2 + p1) * c
    a = _np.where(big, a, _np.asarray(90.0, dtype=f) - a)
    a = _np.where(x32 < 0, _np.asarray(180.0, dtype=f) - a, a)
    a = _np.where(y32 < 0, _np.asarray(360.0, dtype=f) - a, a)
    return a


def phase(x, y, angle=None, angleInDegrees=False):
    if (fast := _cm.polar("phase", x, y, angleInDegrees)) is not None:  # _core_math.py
        return _finish(fast, angle)
    a, b = _float_pair("phase", x, y)
    deg = _fast_atan2_deg(b, a)
    res = deg if angleInDegrees else deg * _np.asarray(math.pi / 180.0, dtype="float32")
    return _finish(res.astype(str(a.dtype)), angle)


def cartToPolar(x, y, magnitude=None, angle=None, angleInDegrees=False):
    if (fast := _cm.polar("cartToPolar", x, y, angleInDegrees)) is not None:  # _core_math.py
        return _finish(fast[0], magnitude), _finish(fast[1], angle)
    a, b = _float_pair("cartToPolar", x, y)
    mag = _np.sqrt(a * a + b * b)
    return mag, phase(a, b, None, angleInDegrees)


def polarToCart(magnitude, angle, x=None, y=None, angleInDegrees=False):
    fn = "polarToCart"
    if (fast := _cm.polar_to_cart(magnitude, angle, angleInDegrees)) is not None:  # _core_math.py
        return _finish(fast[0], x), _finish(fast[1], y)
    ang = _arr(angle, fn, "angle")
    if str(ang.dtype) not in _FLOATS:
        raise fail(fn, "angle must be float32 or float64")
    t = ang.astype("float64") * (math.pi / 180.0 if angleInDegrees else 1.0)
    if magnitude is None:
        m = _np.asarray(1.0)
    else:
        m = _arr(magnitude, fn, "magnitude")
        if m.dtype != ang.dtype or tuple(m.shape) != tuple(ang.shape):
            raise fail(fn, "magnitude and angle must have the same size and type")
        m = m.astype("float64")
    d = str(ang.dtype)
    return (m * _np.cos(t)).astype(d), (m * _np.sin(t)).astype(d)


def _float_only(fn, src):
    a = _arr(src, fn)
    if str(a.dtype) not in _FLOATS:
        raise fail(fn, "src must be float32 or float64 (cv2: depth == CV_32F || depth == CV_64F)")
    return a


def sqrt(src, dst=None):
    if (fast := _cm.sqrt(src)) is not None:  # _core_math.py: one pass, no IEEE warning to silence
        return _finish(fast, dst)
    return _finish(_quiet(_np.sqrt(_float_only("sqrt", src)), src), dst)


def exp(src, dst=None):
    return _finish(_quiet(_np.exp(_float_only("exp", src)), src), dst)


def log(src, dst=None):
    return _finish(_quiet(_np.log(_float_only("log", src)), src), dst)


def _square_multiply(b, q):
    """b ** q (q >= 1) by cv2's loop: square b, multiplying it in at each set bit of q; each
    product rounds (floats) or wraps (uint32) as cv2's does."""
    acc = None
    while q > 1:
        if q & 1:
            acc = b if acc is None else acc * b
        b = b * b
        q >>= 1
    return b if acc is None else acc * b


def _ipow(a, p, d):
    """cv2's integer power of an integer image (cv::pow with a whole power): 0, 1 and 2 are ones,
    a copy and multiply(src, src); a negative power looks up |src| <= 2 in a table (anything
    larger gives 0, as the true power rounds to it); a positive one squares and multiplies in
    32-bit arithmetic that wraps on overflow (unsigned for uint8/uint16, int for the signed
    depths), and only the wrapped result is saturated to the depth."""
    info = _np.iinfo(d)
    if p == 0:
        return _np.ones(a.shape, dtype=d)
    if p == 1:
        return a.copy()
    if p == 2:
        return multiply(a, a)
    if p < 0:
        x = a.astype("int32")
        two = 1.0 if p == -1 else 0.0  # cv2's table: 2**-1 is 1, -2**-1 is -1, otherwise 0
        r = _np.where(x == 1, _np.asarray(1.0), _np.asarray(0.0))
        r = _np.where(x == -1, _np.asarray(-1.0 if p & 1 else 1.0), r)
        r = _np.where(x == 0, _np.asarray(float(info.max)), r)
        r = _np.where(x == 2, _np.asarray(two), r)
        r = _np.where(x == -2, _np.asarray(-two), r)
        return _np.clip(r, float(info.min), float(info.max)).astype(d)
    # products modulo 2**32 (uint32 multiplication wraps, as cv2's unsigned/int accumulator
    # does); a negative int16/int32 value enters as its two's complement
    acc = _square_multiply(a.astype("int64").astype("uint32"), p)
    if d in ("uint8", "uint16"):
        return _np.minimum(acc, _np.asarray(info.max, dtype="uint32")).astype(d)
    r = acc.view("int32")
    return r if d == "int32" else _np.clip(r, info.min, info.max).astype(d)


def pow(src, power, dst=None):
    fn = "pow"
    if (power.__class__ is int and power == 2 and dst is None and str(getattr(src, "dtype", "")) in _SMALL_INT_MAX
            and (fast := _cm.arith_pair("multiply", src, src, (1.0,))) is not None):
        return fast  # _core_math.py: _ipow's multiply(src, src) with less Python
    a = _arr(src, fn, extra=F16)
    p = 0.0 if power is None else float(power)  # cv2's binding passes None as 0
    d = str(a.dtype)
    if d == "float16":  # cv2 raises half to a power in float32
        return _finish(_quiet(_np.power(a.astype("float32"), _np.asarray(p, dtype="float32")).astype(d), src), dst)
    whole = math.isfinite(p) and abs(p) < 2147483647.0 and abs(round(p) - p) < 2.220446049250313e-16
    if d in _FLOATS and whole and round(p) != 0:
        # cv2's whole power of a float image: the reciprocal first for a negative power, then
        # squares and products in the image's type (not the correctly rounded power)
        q = int(round(p))
        b = _np.asarray(1.0, dtype=d) / a if q < 0 else a
        return _finish(_quiet(_square_multiply(b, abs(q)), src), dst)
    if d in _FLOATS and abs(p - 0.5) < 2.220446049250313e-16:
        return _finish(_quiet(_np.sqrt(a), src), dst)  # cv2 takes the square root for 0.5
    if d in _FLOATS:
        return _finish(_quiet(_np.power(a, _np.asarray(p, dtype=d)), src), dst)
    if whole:
        return _finish(_ipow(a, int(round(p)), d), dst)
    # a fractional power of an integer image crashes cv2 5.0 (its documented meaning is used:
    # the power in floating point, rounded and saturated)
    return _finish(_saturate(_quiet(_np.power(a.astype("float64"), _np.asarray(p)), src), d), dst)


def _concat(fn, src, axis):
    if isinstance(src, (list, tuple)) and not src:
        return None  # cv2 concatenates nothing into an empty Mat, which its binding returns as None
    if not isinstance(src, (list, tuple)):
        raise fail(fn, "src must be a sequence of arrays")
    if (fast := _cm.concat(fn, src, axis)) is not None:  # _core_math.py: one copying pass
        return fast
    arrs = [_arr(x, fn, extra=F16B) for x in src]
    ref = arrs[0]
    for x in arrs:
        if x.dtype != ref.dtype or x.ndim != ref.ndim or (x.ndim == 3 and x.shape[2] != ref.shape[2]):
            raise fail(fn, "all arrays must have the same type and channel count")
        if x.shape[1 - axis] != ref.shape[1 - axis]:
            raise fail(fn, "src[i].rows == src[0].rows" if axis == 1 else "src[i].cols == src[0].cols")
    return _np.concatenate(arrs, axis=axis)


def hconcat(src, dst=None):
    r = _concat("hconcat", src, 1)
    return r if r is None else _finish(r, dst)


def vconcat(src, dst=None):
    r = _concat("vconcat", src, 0)
    return r if r is None else _finish(r, dst)


# ---------------------------------------------------------------------------------------------
# cv2's default random generator (theRNG), for the functions whose answer depends on it

class _TheRng(threading.local):
    """cv::theRNG(): a per-thread 64-bit multiply-with-carry generator, starting at 2^32 - 1 as
    cv2's does in a new thread; setRNGSeed restarts it. cv2 advances its own with other calls
    (randu, kmeans, ...): the two agree after the same setRNGSeed and the same sequence of calls
    that draw from it (fitEllipse of a degenerate point set is one)."""

    def __init__(self):
        self.state = 0xFFFFFFFF

    def next(self):
        s = self.state
        s = ((s & 0xFFFFFFFF) * 4164903690 + (s >> 32)) & 0xFFFFFFFFFFFFFFFF
        self.state = s
        return s & 0xFFFFFFFF

    def uniform_f32(self, a, b):
        """cv::RNG::uniform(float, float): float(next()) * 2^-32 (in float), scaled to [a, b)."""
        f = _f32c
        r = f(f(float(self.next())) * 2.3283064365386963e-10)
        return f(f(r * f(b - a)) + a)


the_rng = _TheRng()


def setRNGSeed(seed):
    """cv2.setRNGSeed: restarts the generator that cv2 draws from (0 means 2^32 - 1, as in cv2)."""
    seed = int(seed)
    if not 0 <= seed < (1 << 64):
        seed &= (1 << 64) - 1  # cv2's binding takes the seed as an int: its bits
    the_rng.state = seed if seed else 0xFFFFFFFF


# minMaxLoc's and countNonZero's checked paths, wrapped as every public function is; the public
# names are marked as wrapped (__wrapped__: also what inspect.signature shows) so that wrap_public
# leaves them as they are.
_minmax_checked.__name__ = _minmax_checked.__qualname__ = "minMaxLoc"
_minmax_public = _public._named(_minmax_checked, "mnn.cv.minMaxLoc")
minMaxLoc.__wrapped__ = _minmax_checked
_count_checked.__name__ = _count_checked.__qualname__ = "countNonZero"
_count_public = _public._named(_count_checked, "mnn.cv.countNonZero")
countNonZero.__wrapped__ = _count_checked
