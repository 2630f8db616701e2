"""Geometric transforms: resize, warps, remap, flips and rotations, borders, pyramids, and the
small matrix helpers that go with them (getRotationMatrix2D, getAffineTransform, ...).

Pixel work runs in native primitives (csrc/ops/cv/geometry.cpp, csrc/backends/cpu/simd/cv/):
cv_resize, cv_warp, cv_remap, cv_border, cv_pyr. Flips, rotations by 90 degrees and transposes
are views that the engine copies. The matrix helpers are a few floating-point operations on
Python lists; they return mnn arrays of float64 like cv2 returns numpy arrays.
"""
import math

from .. import _core
from .. import numpy as _np
from ._common import as_image, channels, error, fail

__all__ = [
    "INTER_NEAREST", "INTER_LINEAR", "INTER_CUBIC", "INTER_AREA", "INTER_LANCZOS4", "INTER_LINEAR_EXACT",
    "INTER_NEAREST_EXACT", "INTER_MAX", "WARP_FILL_OUTLIERS", "WARP_INVERSE_MAP", "WARP_RELATIVE_MAP",
    "WARP_POLAR_LINEAR", "WARP_POLAR_LOG", "INTER_BITS", "INTER_BITS2", "INTER_TAB_SIZE", "INTER_TAB_SIZE2",
    "BORDER_CONSTANT", "BORDER_REPLICATE", "BORDER_REFLECT", "BORDER_WRAP", "BORDER_REFLECT_101",
    "BORDER_REFLECT101", "BORDER_DEFAULT", "BORDER_TRANSPARENT", "BORDER_ISOLATED",
    "ROTATE_90_CLOCKWISE", "ROTATE_180", "ROTATE_90_COUNTERCLOCKWISE",
    "LMEDS", "RANSAC",
    "resize", "warpAffine", "warpPerspective", "remap", "convertMaps", "getRotationMatrix2D",
    "getAffineTransform", "getPerspectiveTransform", "invertAffineTransform", "estimateAffine2D",
    "estimateAffinePartial2D", "flip", "rotate", "transpose", "copyMakeBorder", "getRectSubPix",
    "pyrDown", "pyrUp",
]

INTER_NEAREST = 0
INTER_LINEAR = 1
INTER_CUBIC = 2
INTER_AREA = 3
INTER_LANCZOS4 = 4
INTER_LINEAR_EXACT = 5
INTER_NEAREST_EXACT = 6
INTER_MAX = 7
WARP_FILL_OUTLIERS = 8
WARP_INVERSE_MAP = 16
WARP_RELATIVE_MAP = 32
WARP_POLAR_LINEAR = 0
WARP_POLAR_LOG = 256
INTER_BITS = 5
INTER_BITS2 = 10
INTER_TAB_SIZE = 32
INTER_TAB_SIZE2 = 1024

BORDER_CONSTANT = 0
BORDER_REPLICATE = 1
BORDER_REFLECT = 2
BORDER_WRAP = 3
BORDER_REFLECT_101 = 4
BORDER_REFLECT101 = 4
BORDER_DEFAULT = 4
BORDER_TRANSPARENT = 5
BORDER_ISOLATED = 16

ROTATE_90_CLOCKWISE = 0
ROTATE_180 = 1
ROTATE_90_COUNTERCLOCKWISE = 2

LMEDS = 4
RANSAC = 8

_RESIZE_DTYPES = ("uint8", "int8", "uint16", "int16", "float32", "float64")


def _dtype_name(img):
    return str(img.dtype)


def _size_arg(dsize, fn, name="dsize"):
    if dsize is None:
        return 0, 0
    try:
        w, h = dsize
        return int(w), int(h)
    except (TypeError, ValueError):
        raise TypeError(f"[mnn.cv.{fn}] Can't parse '{name}'. Expected sequence length 2") from None


def _check_depth(img, fn, allowed=_RESIZE_DTYPES):
    if _dtype_name(img) not in allowed:
        raise fail(fn, f"unsupported depth {_dtype_name(img)}")


def _check_channels(img, fn, maxcn=4):
    if img.ndim not in (2, 3):
        raise fail(fn, f"expected a 2-d or 3-d image, got {img.ndim} dimensions")
    if img.ndim == 3 and not 1 <= img.shape[2] <= maxcn:
        raise fail(fn, f"unsupported number of channels {img.shape[2]}")


def _contig(img):
    return _np.ascontiguousarray(img)


def _cv_round(x):
    """cvRound / saturate_cast<int>(double): nearest, ties to even."""
    return int(round(x))


def resize(src, dsize, dst=None, fx=0, fy=0, interpolation=INTER_LINEAR):
    fn = "resize"
    img = as_image(src, fn)
    _check_channels(img, fn, 512)
    _check_depth(img, fn)
    sh, sw = img.shape[0], img.shape[1]
    if sh == 0 or sw == 0:
        raise fail(fn, "!ssize.empty()")
    w, h = _size_arg(dsize, fn)
    if w > 0 and h > 0:
        isx, isy = w / sw, h / sh
    else:
        if w != 0 or h != 0 or not (fx > 0 and fy > 0):
            raise fail(fn, "!dsize.empty() || (inv_scale_x > 0 && inv_scale_y > 0)")
        isx, isy = float(fx), float(fy)
        w, h = _cv_round(sw * isx), _cv_round(sh * isy)
        if w <= 0 or h <= 0:
            raise fail(fn, "!dsize.empty()")
    interpolation = int(interpolation)
    if interpolation not in (INTER_NEAREST, INTER_LINEAR, INTER_CUBIC, INTER_AREA, INTER_LANCZOS4,
                             INTER_NEAREST_EXACT):
        if interpolation == INTER_LINEAR_EXACT:
            raise fail(fn, "INTER_LINEAR_EXACT is not implemented in mnn.cv (use INTER_LINEAR)")
        raise fail(fn, f"Unknown interpolation method {interpolation}")
    if (w, h) == (sw, sh):
        return _np.array(img)  # cv2 copies when the size does not change
    return _core.prim("cv_resize", [_contig(img)], [h, w, interpolation], [isx, isy])
__all__ = [n for n in __all__ if n in globals()]  # TEMP
