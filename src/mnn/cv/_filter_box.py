"""One-pass native paths of blur / boxFilter / sqrBoxFilter, adaptiveThreshold, erode / dilate /
morphologyEx with a rectangular element and the 3x3 medianBlur of 16-bit and float images
(csrc/ops/cv/filter_box.cpp; kernels csrc/backends/cpu/simd/cv/filter_box.cpp, filter_morph.cpp).

_filters.py keeps cv2's argument checks and calls in here once they pass; the answers are the
ones its composed paths gave (exact integer box sums with cv2's 8-bit rounding, double sums in
cv_sep_filter's order for float images). A validated call is memoised (see _fastpix): a repeated
call with the same image type and plain arguments skips the checks, which cost as much as the
kernel on a 640x480 image.
"""
import math

from .. import _core
from ..numpy._common import dtype_code
from . import _fastpix as _fp

_MEMO = {}
NOKEY = object()
_PLAIN = (int, float, bool, type(None), str, bytes)


def _plain(v):
    """Whether v means the same on every call: a number, None, a string or a tuple of such."""
    c = v.__class__
    if c in _PLAIN:
        return True
    if c is not tuple:
        return False
    for x in v:
        if x.__class__ not in _PLAIN and not _plain(x):
            return False
    return True


class _Frozen(tuple):
    """A key part built here from plain values only: key() need not walk into it again."""
    __slots__ = ()


def kernel_key(k):
    """A structuring element as a memo key part: None, or a numpy array's shape, dtype and bytes
    (a 25-byte copy); anything else (an mnn array: reading it would evaluate it) is not memoised."""
    if k is None:
        return None
    t = type(k)
    if t.__name__ == "ndarray" and t.__module__ == "numpy":
        return _Frozen((k.shape, k.dtype.str, k.tobytes()))
    return NOKEY


def key(src, dst, *args):
    """The memo key of a call on image src with plain arguments args, or None."""
    # spelled out (no generators): this runs on every call and cost as much as a 640x480 kernel's
    # tenth before
    if dst is not None:
        return None
    for v in args:
        c = v.__class__
        if c not in _PLAIN and c is not _Frozen and not (c is tuple and _plain(v)):
            return None
    ik = _fp.image_key(src)
    # the classes too: 5 and 5.0 are one dict key, but cv2's checks may take one and refuse the other
    return None if ik is None else (ik, args, tuple(map(type, args)))


def lookup(k, src):
    """The memoised call's answer on src, or None."""
    if k is None:
        return None
    hit = _MEMO.get(k)
    return None if hit is None else _fp.apply(hit[0], src)


def run(k, name, a, ints, floats):
    """Runs primitive `name` on image a, remembering it under key k."""
    _fp.remember(_MEMO, k, name, ints, floats, None)
    return _core.prim(name, [a], ints, floats)


# ---- box filters ----------------------------------------------------------------------------

def box(k, a, kw, kh, anchor, border, out, normalize, sqr):
    """boxFilter / blur / sqrBoxFilter of validated arguments: one cv_box pass."""
    u8round = bool(normalize) and not sqr and out == "uint8" and str(a.dtype) == "uint8"
    scale = 1.0 / (kw * kh) if normalize else 1.0
    ints = [kw, kh, anchor[0], anchor[1], border, dtype_code(out), int(sqr), int(u8round)]
    return run(k, "cv_box", a, ints, [scale])


# ---- adaptiveThreshold ----------------------------------------------------------------------

def adaptive(k, a, imax, gauss_taps, inv, block, C):
    """adaptiveThreshold of a validated single-channel uint8 image (imax > 0): the block mean
    (gauss_taps None) or float Gaussian (its float32-rounded taps) and the comparison, one pass."""
    idelta = math.floor(C) if inv else math.ceil(C)
    # |src - mean| <= 255: a delta beyond that decides every pixel the same way
    idelta = max(-256, min(256, idelta))
    ints = [0 if gauss_taps is None else 1, int(inv), block, imax, idelta]
    return run(k, "cv_adaptive", a, ints, [] if gauss_taps is None else [float(v) for v in gauss_taps])


# ---- morphology -----------------------------------------------------------------------------

MORPH_DEPTHS = ("uint8", "uint16", "int16", "float32", "float64")


def morph_rect(k, a, op, kh, kw, ay, ax, border, bval):
    """erode / dilate / OPEN / CLOSE / GRADIENT / TOPHAT / BLACKHAT (op: cv2's MORPH_* code) with a
    full kh x kw rectangle, one pass per reduction. bval: the constant border value (cv2's
    default, DBL_MAX, is None: the erosion sees +inf there and the dilation -inf)."""
    if bval is None:
        be, bd = math.inf, -math.inf
    else:
        be = bd = float(bval)
    return run(k, "cv_morph_rect", a, [kh, kw, ay, ax, border, op], [be, bd])


# ---- medianBlur -----------------------------------------------------------------------------

MEDIAN3_DEPTHS = ("uint16", "int16", "float32")


def median3(k, a):
    return run(k, "cv_median3", a, [], [])
