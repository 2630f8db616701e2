"""A shorter road to the cv_arith primitive for the commonest image-against-Scalar calls:
cv.add / subtract / absdiff / multiply of an 8/16-bit integer mnn image and a Python number or
tuple, with no mask, dst or dtype, as a frame loop makes them (cv.add(img, (5, 5, 5, 0)),
cv.multiply(img, 2.0)).

_core_ops._native_scalar validates the image and builds the primitive's parameters on every call
(~1-2 us of Python, as much as a 64x48 image's kernel); here the parameters of an (op, dtype,
channels, Scalar, scale) seen before are bound once (_core.prim_bind) and applied to the image.
They are the parameters _native_scalar builds, for the same primitive. Integer images only:
their results are rounded, so Scalars that compare equal (0.0 and -0.0, 5 and 5.0) give equal
results; divide is left out (x / -0.0 is not x / 0.0, even rounded).
"""
from .. import _core

_OPS = frozenset(("add", "subtract", "rsubtract", "absdiff", "multiply", "rmultiply"))
_INT_DEPTHS = frozenset(("uint8", "int8", "uint16", "int16"))
_BOUND = {}  # (op, dtype, channels or -ndim, Scalar, scale) -> the bound primitive
_LIMIT = 256
_SCALARS = (int, float, tuple)  # exact types: bool, numpy scalars and lists take the usual path


def scalar_op(fn, src1, src2, dst, mask, dtype, scale, rfn):
    """The lazy result of fn(src1, src2) when one operand is a Python Scalar and the other an
    8/16-bit mnn image, or None (the caller's own path then runs). rfn: the op's name with the
    Scalar first (as _core_ops._native_binary takes it)."""
    if dst is not None or mask is not None or not (dtype is None or (type(dtype) is int and dtype < 0)):
        return None
    t1, t2 = type(src1), type(src2)
    if t1 is _core.ndarray and t2 in _SCALARS:
        img, value, op = src1, src2, fn
    elif t2 is _core.ndarray and t1 in _SCALARS:
        img, value, op = src2, src1, rfn or fn
    else:
        return None
    if op not in _OPS:
        return None
    shape = img.shape
    try:
        key = (op, img.dtype, shape[2] if len(shape) == 3 else -len(shape), value, scale)
        bound = _BOUND.get(key)
    except TypeError:  # an unhashable Scalar (a tuple holding a list)
        return None
    if bound is None:
        bound = _bind(op, img, shape, value, scale)
        if bound is None:
            return None
        if len(_BOUND) >= _LIMIT:
            _BOUND.clear()  # bounded, as cvtColor's memo
        _BOUND[key] = bound
    return _core.prim_apply(bound, img)


def _bind(op, img, shape, value, scale):
    """The bound cv_arith for this op on images like img, as _native_scalar parameterises it, or
    None where this road does not go (another depth or rank, an empty image, a Scalar that is not
    one number per channel)."""
    from ._core_ops import _OP_S  # here, not at import: _core_ops imports this module
    if str(img.dtype) not in _INT_DEPTHS or len(shape) not in (2, 3) or img.size == 0:
        return None
    c = shape[2] if len(shape) == 3 else 1
    try:
        if type(value) is tuple:
            vals = ([float(v) for v in value] + [0.0] * 4)[:c]
        else:
            vals = [float(value)] * c
        s = float(scale)
    except (TypeError, ValueError):
        return None
    if len(vals) != c:
        return None
    return _core.prim_bind("cv_arith", [_OP_S[op]], [s] + vals)
