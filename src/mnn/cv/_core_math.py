"""Native roads of cv2's core math, bitwise and copying calls (the cv_math primitive,
csrc/ops/cv/core_math.cpp): phase, magnitude, cartToPolar and polarToCart in cv2's own float32
arithmetic; sqrt; bitwise and/or/xor/not against an image or a Scalar, with an optional mask;
hconcat / vconcat. One pass over the pixels instead of a chain of mnn.numpy ops. Also a shorter
road to _core_ops' cv_arith primitive for image-image add / subtract / absdiff / multiply /
addWeighted.

Each function returns the lazy result, or None where this road does not go (a dst that a mask
must keep, a depth, shape or operand the checked path in _core_ops.py rejects or handles): the
caller then runs its own path, which also raises cv2's errors. The primitive bound to each set of
parameters (_core.prim_now_bind) is memoised, so a repeated call costs one dictionary lookup, and
runs its kernel at once on the dense images (_core.prim_run, csrc/python/fast_run.cpp: no graph node
to record and evaluate, ~2 us less a call).
"""
import math

from .. import _core
from ._common import as_image, memo_type
from ._fastpix import cv_row, pair

_OPS = {"phase": 0, "magnitude": 1, "cartToPolar": 2, "bitwise_and": 3, "bitwise_or": 4,
        "bitwise_xor": 5, "bitwise_not": 6, "hconcat": 7, "vconcat": 8, "sqrt": 9, "polarToCart": 10}
_FLOATS = ("float32", "float64")
_BIT_DEPTHS = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64", "float16", "bool")
_BOUND = {}  # (op, flag, row) -> the bound primitive: its parameters are all it holds


def _bound(op, flag, row=None):
    key = (op, flag, row)
    b = _BOUND.get(key)
    if b is None:
        if len(_BOUND) >= 256:
            _BOUND.clear()  # bounded: a caller sweeping image sizes must not grow it without end
        ints = [op, flag] if row is None else [op, flag, row]
        b = _BOUND[key] = _core.prim_now_bind("cv_math", ints, [])
    return b


_NUMPY_TYPES = set()  # numpy.ndarray once one was imported here (mnn.cv never imports numpy)
_SCALARS = (int, float, bool, tuple, list)
_WIDE = frozenset("qQlL")  # 64-bit integers: cv2's binding narrows them first (the checked path)


def _image(x):
    """x as a contiguous mnn image (HxW or HxWxC, non-empty), or None. The common cases (an mnn
    array, a numpy array) take ~0.5 us: at 640x480 this road's Python is a visible share."""
    t = x.__class__
    if t is _core.ndarray:
        a = x
    elif t in _NUMPY_TYPES or memo_type(x) is not None:
        if x.dtype.char in _WIDE:
            return None
        a = _core.from_buffer(x)
        if a is None:
            return None
        _NUMPY_TYPES.add(t)
    elif t in _SCALARS or x is None:
        return None
    else:
        try:
            a = as_image(x, "core_math")
        except Exception:  # noqa: BLE001  (the caller's checked path raises cv2's error for it)
            return None
    s = a.shape
    if len(s) not in (2, 3) or 0 in s:
        return None
    return _core.as_contiguous(a)


def polar(fn, x, y, degrees=False):
    """phase / magnitude / cartToPolar of two float images of one shape and depth, or None. For
    cartToPolar the result is a (2, *shape) block: magnitude, angle."""
    if degrees.__class__ is not bool and degrees not in (0, 1):
        return None
    a = _image(x)
    if a is None:
        return None
    b = _image(y)
    if b is None or str(a.dtype) not in _FLOATS or a.dtype != b.dtype or a.shape != b.shape:
        return None
    # which of cv2's loops (vector or scalar) computes an element depends on the length of cv2's
    # planes: the whole image when every operand is continuous, else one row (see _fastpix.cv_row;
    # an mnn array stands for its continuous numpy copy)
    row = a.size
    for src, img in ((x, a), (y, b)):
        if src.__class__ is not _core.ndarray:
            row = min(row, cv_row(src, img))
    return _core.prim_run(_bound(_OPS[fn], 1 if degrees else 0, row), a, b)


def bitwise(fn, src1, src2, mask, dst):
    """bitwise_and/or/xor (src2 an image, or a cv2 Scalar on either side) or bitwise_not (src2
    None), optionally masked, or None."""
    if mask is not None and dst is not None:
        return None  # cv2 keeps dst's pixels where the mask is 0: the checked path does that
    scalar = None
    if fn != "bitwise_not" and src1.__class__ in _SCALARS:
        src1, src2 = src2, src1  # and / or / xor are symmetric
    a = _image(src1)
    if a is None or str(a.dtype) not in _BIT_DEPTHS:
        return None
    ins = [a]
    if fn != "bitwise_not":
        if src2 is None:
            return None
        if src2.__class__ in _SCALARS:
            scalar = _scalar_pixel(src2, a)
            if scalar is None:
                return None
        else:
            b = _image(src2)
            if b is None or b.dtype != a.dtype or b.shape != a.shape:
                return None
            ins.append(b)
    if mask is not None:
        m = _image(mask)
        if m is None or str(m.dtype) not in ("uint8", "int8") or m.ndim != 2 or m.shape != a.shape[:2]:
            return None
        ins.append(m)
    flag = (0 if mask is None else 1) | (0 if scalar is None else 2)
    if scalar is None:
        return _core.prim_run(_bound(_OPS[fn], flag), *ins)
    key = (_OPS[fn], flag, tuple(scalar))  # whole numbers: no -0.0 / 0.0 or NaN keys
    b = _SCALAR_BOUND.get(key)
    if b is None:
        if len(_SCALAR_BOUND) >= 256:
            _SCALAR_BOUND.clear()
        b = _SCALAR_BOUND[key] = _core.prim_now_bind("cv_math", [_OPS[fn], flag], scalar)
    return _core.prim_run(b, *ins)


_SCALAR_BOUND = {}  # (op, flag, Scalar's values in the image's type) -> the bound primitive


_INT_RANGE = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767),
              "int32": (-2147483648, 2147483647)}


def _scalar_pixel(v, a):
    """cv2's Scalar against an integer image for the bitwise ops, one value per channel in the
    image's type: a number is Scalar(v, 0, 0, 0), a tuple is padded with zeros; each value is
    rounded half to even (cvRound: INT_MIN when out of int32's range or NaN), then saturated.
    None for float images (cv2 refuses them: the checked path raises) or anything unexpected."""
    d = str(a.dtype)
    rng = _INT_RANGE.get(d)
    if rng is None:
        return None
    c = a.shape[2] if a.ndim == 3 else 1
    try:
        if v.__class__ in (int, float, bool):
            vals = ([float(v)] + [0.0] * c)[:c]
        else:
            vals = ([float(x) for x in v] + [0.0] * 4)[:c]
    except (TypeError, ValueError):
        return None
    if len(vals) != c:
        return None
    out = []
    for x in vals:
        r = round(x) if math.isfinite(x) else None  # Python's round is half to even
        r = -2147483648 if r is None or not -2147483648 <= r <= 2147483647 else r
        out.append(float(min(max(r, rng[0]), rng[1])))
    return out


def concat(fn, src, axis):
    """hconcat (axis 1) / vconcat (axis 0) of a sequence of images of one depth, or None."""
    arrs = []
    for x in src:
        a = _image(x)
        if a is None:
            return None
        arrs.append(a)
    ref = arrs[0]
    if str(ref.dtype) not in _BIT_DEPTHS:
        return None
    for a in arrs:
        if a.dtype != ref.dtype or a.ndim != ref.ndim or (a.ndim == 3 and a.shape[2] != ref.shape[2]):
            return None
        if a.shape[1 - axis] != ref.shape[1 - axis]:
            return None
    return _core.prim_run(_bound(_OPS[fn], 0), *arrs)


def sqrt(src):
    """cv2.sqrt of a float image, or None."""
    a = _image(src)
    if a is None or str(a.dtype) not in _FLOATS:
        return None
    return _core.prim_run(_bound(9, 0), a)


# ---- image-image arithmetic (the cv_arith primitive of _core_ops, its parameters bound once) ----
_ARITH = {"add": 0, "subtract": 1, "absdiff": 2, "multiply": 3, "addWeighted": 5}
_ARITH_DEPTHS = ("uint8", "int8", "uint16", "int16", "float32", "float64")
_ARITH_BOUND = {}


def arith_pair(fn, src1, src2, floats=()):
    """add / subtract / absdiff / multiply / addWeighted of two images of one depth and shape (no
    mask, dst or dtype), or None: what _core_ops._native_pair records, with ~4 us less Python a
    call. floats: multiply's (scale,), addWeighted's (alpha, beta, gamma)."""
    if fn == "absdiff" and (r := pair(fn, src1, src2)) is not None:
        return r  # 8/16-bit integers: cv_absdiff_int, the operands imported in C
    a = _image(src1)
    if a is None:
        return None
    b = _image(src2)
    if b is None or a.dtype != b.dtype or a.shape != b.shape or str(a.dtype) not in _ARITH_DEPTHS:
        return None
    key = (fn,) + tuple(v.hex() for v in floats)  # by bits: -0.0 and 0.0 differ in float results
    bound = _ARITH_BOUND.get(key)
    if bound is None:
        if len(_ARITH_BOUND) >= 256:
            _ARITH_BOUND.clear()
        bound = _ARITH_BOUND[key] = _core.prim_now_bind("cv_arith", [_ARITH[fn]], list(floats))
    return _core.prim_run(bound, a, b)


def polar_to_cart(magnitude, angle, degrees=False):
    """polarToCart: a (2, *shape) block (x, y), or None. magnitude may be None (unit length)."""
    if degrees.__class__ is not bool and degrees not in (0, 1):
        return None
    t = _image(angle)
    if t is None or str(t.dtype) not in _FLOATS:
        return None
    ins, srcs = [t], [(angle, t)]
    if magnitude is not None:
        m = _image(magnitude)
        if m is None or m.dtype != t.dtype or m.shape != t.shape:
            return None
        ins, srcs = [m, t], [(magnitude, m), (angle, t)]
    row = t.size
    for src, img in srcs:
        if src.__class__ is not _core.ndarray:
            row = min(row, cv_row(src, img))
    # float64 with a magnitude in radians is IPP's case in cv2 (double precision): the double form
    flag = 1 if degrees else (2 if len(ins) == 2 and str(t.dtype) == "float64" else 0)
    return _core.prim_run(_bound(10, flag, row), *ins)
