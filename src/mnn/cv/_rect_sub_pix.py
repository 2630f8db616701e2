"""getRectSubPix's sampling, step for step as cv2's own C++ (imgproc/src/samplers.cpp).

cv2 does not sample with a clamped-coordinate bilinear remap. It splits the patch by adjustRect:
inside the image every pixel is the 4-tap bilinear sum in one fixed order; columns left or right
of the image repeat the edge column with only the vertical weights (b1, b2), and rows above or
below repeat the edge row (the two taps then read the same row). uint8 -> uint8 works in 16-bit
fixed point (weights cvRound(w * 65536), result (s + 32768) >> 16); the float outputs sum float32
products left to right. A remap with BORDER_REPLICATE differs from this in the last bits and, at
the edges, by whole levels, so the patch is built here from gathers and element-wise mnn.numpy
work, with no Python loop over rows, columns or elements.

What cv2 runs for single-channel images is Intel IPP's CopySubpixIntersect where IPP is built in
(the pip wheels). It differs from OpenCV's own code: float sums as an fma chain (so the answer
depends on the CPU IPP dispatches to), 2-tap rows above and below the image, the top-right corner
outside the image read from column W-2, uint8 corners left of the image from wrong pixels, and
pixels of a one-row or one-column image left unwritten. mnn follows OpenCV's own, portable code:
what cv2 gives for 3 channels always, and for 1 channel with cv2.setUseOptimized(False)
(tests/cv/test_arith10.py).
"""
import math

from .. import numpy as _np
from ._common import f32

_ONE = 1 << 16  # cv2's SUBPIX_SHIFT = 16


def _cv_round(v):
    """cvRound of a float: round half to even (the SSE conversion)."""
    return int(round(v))


def _axis_plan(ip, n, size):
    """adjustRect along one axis: (first, end, base) where outputs k < first repeat the low edge,
    k >= end the high edge, and src[k] is source index base + k (cv2's shifted src pointer)."""
    if ip >= 0:
        base, first = ip, 0
    else:
        first = min(-ip, n)
        base = -first
    if ip < size - n:
        end = n
    else:
        end = size - ip - 1
        if end < 0:  # the patch starts past the high edge: src moves back onto the last pixel
            base, end = ip + end, 0
    return first, end, base


def _row_pairs(ipy, h, height):
    """The two source rows of each output row, as cv2's row loop walks them: src2 = src + 1 row
    only for rows i in [r.y, r.height), and src advances only while i < r.height. In closed form
    (arrays, so a tall patch costs no Python loop): row0 + clip(i - r.y, 0, r.height - r.y)."""
    if ipy >= 0:
        row0, ry = ipy, 0
    else:
        row0, ry = 0, -ipy
    if ipy < height - h:
        rh = h
    else:
        rh = height - ipy - 1
        if rh < 0:
            row0, rh = row0 + rh, 0
    i = _np.arange(h, dtype="int64")
    r0 = row0 + _np.clip(i - ry, 0, max(rh - ry, 0))
    return r0, _np.where((i >= ry) & (i < rh), r0 + 1, r0)


def rect_sub_pix(img, w, h, cx, cy, fixed):
    """The (h, w[, cn]) patch of img (uint8 or float32) centred at (cx, cy). fixed: uint8 in, uint8
    out (16-bit fixed point); otherwise a float32 patch (uint8 pixels promoted to float)."""
    height, width = int(img.shape[0]), int(img.shape[1])
    # cv2's center is a Point2f and its shift is float arithmetic
    x = f32(f32(cx) - f32((w - 1) * 0.5))
    y = f32(f32(cy) - f32((h - 1) * 0.5))
    if x != x or y != y or math.isinf(x) or math.isinf(y):
        ipx = ipy = -2147483648  # cvFloor of NaN / inf is INT_MIN: the whole patch is outside
        a = b = 0.0
    else:
        ipx, ipy = math.floor(x), math.floor(y)
        a, b = f32(x - ipx), f32(y - ipy)
    wts = [f32(f32(1 - a) * f32(1 - b)), f32(a * f32(1 - b)), f32(f32(1 - a) * b), f32(a * b), f32(1 - b), b]
    if fixed:
        wts = [float(_cv_round(f32(v * _ONE))) for v in wts]
    # columns: interior ones take (c, c + 1); edge ones repeat one column with the vertical weights
    first, end, base = _axis_plan(ipx, w, width)
    j = _np.arange(w, dtype="int64")
    edge = (j < first) | (j >= end)
    c_edge = _np.where(j < first, _np.asarray(base + first), _np.asarray(base + end))
    c0 = _np.where(edge, c_edge, base + j)
    c1 = _np.where(edge, c_edge, base + j + 1)
    r0, r1 = _row_pairs(ipy, h, height)

    src = img.astype("float64") if fixed else img.astype("float32")
    rows0, rows1 = _np.take(src, r0, axis=0), _np.take(src, r1, axis=0)
    p00, p01 = _np.take(rows0, c0, axis=1), _np.take(rows0, c1, axis=1)
    p10, p11 = _np.take(rows1, c0, axis=1), _np.take(rows1, c1, axis=1)
    wdt = "float64" if fixed else "float32"
    a11, a12, a21, a22, b1, b2 = (_np.asarray(v, dtype=wdt) for v in wts)
    # left to right, as the C++ expression (float32 rounding at every step for the float patch;
    # the fixed-point sums are exact in double)
    inner = ((p00 * a11 + p01 * a12) + p10 * a21) + p11 * a22
    outer = p00 * b1 + p10 * b2
    shape = (1, w) + ((1,) if img.ndim == 3 else ())
    s = _np.where(_np.reshape(edge, shape), outer, inner)
    if fixed:
        return _np.floor((s + 32768.0) / 65536.0).astype("uint8")
    return s
