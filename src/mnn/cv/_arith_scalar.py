"""cv2's add / subtract of an image and a Scalar, in the depth cv2 computes them (arithm_op).

cv2 does not add a Scalar in double: it first picks the Scalar's own depth (the smallest integer
depth that holds every channel's value exactly, else float32, or float64 for a float64 image),
then a work depth from the image's, the Scalar's and the output's depth (int32 whenever the
output is an integer and either input is), converts the image and the Scalar to it (cvRound,
INT_MIN when out of int32's range, saturation for the smaller integers, float32 rounding), runs
that depth's add (int32 wraps, 8/16-bit saturate) and converts the result to the output depth.
So uint8 - 1e10 is 0 but 1e10 - uint8 is 255 (INT_MIN - x wraps), uint8 + 3e9 into float32 is
3e9 + x rounded to float32, and a float32 image + 0.1 adds float32(0.1) in float32.

Values are carried as float64 mnn arrays holding exactly the work depth's values.
"""
import math

from .. import numpy as _np

_ORDER = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64")
_INT_RANGE = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767)}
_INT_MIN = -2147483648.0


def _cv_round(v):
    """cvRound of a Python float: half to even; INT_MIN out of int32's range or for NaN / inf."""
    if not math.isfinite(v):
        return _INT_MIN
    r = float(round(v))  # Python rounds half to even
    return r if -2147483648.0 <= r <= 2147483647.0 else _INT_MIN


def scalar_depth(vals):
    """cv2's actualScalarDepth: the smallest integer depth holding every value, else float64."""
    rounded = [_cv_round(v) for v in vals]
    if any(r != v for r, v in zip(rounded, vals)):
        return "float64"
    lo, hi = min(rounded), max(rounded)
    for d in ("uint8", "int8", "uint16", "int16"):
        if _INT_RANGE[d][0] <= lo and hi <= _INT_RANGE[d][1]:
            return d
    return "int32"


def _coerce(d1, d2):
    """cv2's coerceTypes for add / subtract."""
    if d1 == d2:
        return d1
    i1, i2 = _ORDER.index(d1), _ORDER.index(d2)
    if i1 <= 4 and i2 <= 4:
        return "int16" if i1 <= 1 and i2 <= 1 else "int32"
    return "float64" if "float64" in (d1, d2) else "float32"


def work_depth(src, sdepth, out):
    """The depth cv2's arithm_op adds in, for a `src` image, a Scalar of depth `sdepth` and an
    `out` result (all among _ORDER)."""
    if sdepth == "float64" and src != "float64":
        sdepth = "float32"  # a fractional Scalar against a non-double image is float32
    if src == sdepth == out:
        return out
    work = _coerce(_coerce(src, sdepth), out)
    # an integer result with an integer input: cv2 converts the float side to int32 first
    if _ORDER.index(out) < 5 and (_ORDER.index(src) < 5 or _ORDER.index(sdepth) < 5):
        work = "int32"
    return work


def _convert_value(v, depth):
    """A Python float as cv2's conversion to `depth` leaves it."""
    if depth == "float64":
        return v
    if depth == "float32":
        with _np.errstate(over="ignore"):
            return float(_np.asarray(v, dtype="float64").astype("float32").item())
    r = _cv_round(v)
    if depth in _INT_RANGE:
        lo, hi = _INT_RANGE[depth]
        r = min(max(r, lo), hi)
    return r


def _convert(x, depth):
    """A float64 mnn array of source values, as cv2's conversion to `depth` leaves them."""
    if depth == "float64":
        return x
    if depth == "float32":
        return x.astype("float32").astype("float64")
    r = _np.rint(x)
    r = _np.where((r >= -2147483648.0) & (r <= 2147483647.0), r, _np.asarray(_INT_MIN))
    if depth in _INT_RANGE:
        r = _np.clip(r, *_INT_RANGE[depth])
    return r


def _op(x, y, sign, work):
    """x +- y in the work depth (both hold that depth's values)."""
    if work == "float32":
        xf, yf = x.astype("float32"), y.astype("float32")
        return (xf + yf if sign > 0 else xf - yf).astype("float64")
    r = x + y if sign > 0 else x - y  # exact in double for the integer depths
    if work == "int32":
        wrapped = (r.astype("int64") & _np.asarray(0xFFFFFFFF, dtype="int64")).astype("uint32").view("int32")
        return wrapped.astype("float64")
    if work in _INT_RANGE:
        return _np.clip(r, *_INT_RANGE[work])
    return r


def add_sub(img, vals, scalar_first, sign, out):
    """img +- Scalar (or Scalar - img with scalar_first): float64 values of the result in cv2's
    work depth, for the caller to convert to `out`. vals: one float per channel."""
    src = str(img.dtype)
    work = work_depth(src, scalar_depth(vals), out)
    sv = [_convert_value(v, work) for v in vals]
    s = _np.asarray(sv[0] if img.ndim == 2 else sv, dtype="float64")
    x = _convert(img.astype("float64"), work)
    return _op(s, x, sign, work) if scalar_first else _op(x, s, sign, work)


def needs_python(img_dtype, vals):
    """Whether the native kernel (which adds in double, rounding an integer image's Scalar to an
    integer) differs from cv2 here: an integer image against a Scalar at or near int32's edges,
    where cv2's int32 work wraps or cvRound gives INT_MIN."""
    if img_dtype in ("float32", "float64"):
        return False
    return any(not math.isfinite(v) or abs(v) >= 2147483648.0 - 65536.0 for v in vals)


DEPTHS = _ORDER


def channel_values(s, c):
    """A cv2 Scalar as c floats: a number applies to every channel (cv2 5), a tuple per channel,
    padded with zeros."""
    if isinstance(s, (int, float)):
        return [float(s)] * c
    return ([float(v) for v in s] + [0.0] * 4)[:c]


def f32_scalar(s):
    """The Scalar with each value rounded to float32 (what cv2 adds to a float32 image); the
    native kernel then adds in double, which rounded once to float32 is the float32 sum."""
    if isinstance(s, (int, float)):
        return _convert_value(float(s), "float32")
    return tuple(_convert_value(float(v), "float32") for v in s)


# ---- convertScaleAbs of float64 images ----
# cv2 5 (cvtabs_32f, AVX2 dispatch) runs each row of 16 elements or more through its float32
# vector loop: x rounded to float32, then the float32 fma(x, alpha, beta); a shorter row goes
# through the scalar loop, the double fma of x and the float32 alpha, beta. A row is the whole
# image when cv2 sees it continuous (a contiguous array, or a copy cv2 makes of a strided view),
# else one image row of width * channels elements (a view that keeps its rows' elements
# adjacent, whose row stride cv2 keeps).
_CSA_VECTOR = 16


def csa_vector_rows(src, a):
    """Whether cv2's convertScaleAbs runs its float32 vector loop on float64 `src` (a: mnn image)."""
    shape, strides = tuple(getattr(src, "shape", a.shape)), getattr(src, "strides", None)
    total = 1
    for d in shape:
        total *= d
    row = total
    if strides is not None and len(shape) in (2, 3) and shape[0] > 1:
        item = 8
        cn = shape[2] if len(shape) == 3 else 1
        inner = strides[-1] == item and (len(shape) == 2 or strides[1] == cn * item)
        if inner and strides[0] > 0 and strides[0] != shape[1] * cn * item:
            row = shape[1] * cn  # rows with a gap between them: cv2 keeps them, one loop each
    return row >= _CSA_VECTOR
