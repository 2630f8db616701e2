"""cv2's Hough transforms: HoughLines, HoughLinesWithAccumulator (the standard transform),
HoughLinesP (the progressive probabilistic one) and HoughCircles (HOUGH_GRADIENT and
HOUGH_GRADIENT_ALT).

The voting runs natively (csrc/ops/cv/hough.cpp, kernels in backends/cpu/simd/cv/hough.cpp) with
cv2's float arithmetic; the standard transform's peak picking (a vote count above the threshold, a
strict maximum against the lower-rho and lower-angle neighbours and >= the others) and its ordering
(more votes first, then the lower accumulator index) are mnn.numpy ops on the accumulator.
HoughLinesP is sequential by nature (each segment found removes its points' votes before the next
random point is drawn) and runs whole in the kernel, with cv2's random generator and seed, so it
gives cv2's segments in cv2's order.
"""
import math

from .. import _core
from .. import numpy as _np
from ._common import as_image, contiguous, fail, int_arg

__all__ = ["HoughLines", "HoughLinesWithAccumulator", "HoughLinesP", "HoughCircles",
           "HOUGH_STANDARD", "HOUGH_PROBABILISTIC", "HOUGH_MULTI_SCALE", "HOUGH_GRADIENT", "HOUGH_GRADIENT_ALT"]

# cv2's values (imgproc.hpp)
HOUGH_STANDARD, HOUGH_PROBABILISTIC, HOUGH_MULTI_SCALE, HOUGH_GRADIENT, HOUGH_GRADIENT_ALT = 0, 1, 2, 3, 4

_INT_MAX = 2147483647


def _edges(image, fn):
    a = as_image(image, fn, "image")
    if a.ndim == 3 and a.shape[2] == 1:
        a = a.reshape(a.shape[:2])
    if a.ndim != 2 or a.dtype != "uint8":
        raise fail(fn, f"expected a single-channel uint8 image, got {a.dtype} of shape {tuple(a.shape)} "
                       "(cv2: image.type() == CV_8UC1)")
    return contiguous(a)


def _num_angle(min_theta, max_theta, theta):
    """cv2's computeNumangle: the angles min_theta + n*theta up to max_theta, less the last one when
    it lies (within half a step) at pi from the first, which would find every line twice."""
    n = math.floor((max_theta - min_theta) / theta) + 1
    if n > 1 and abs(math.pi - (n - 1) * theta) < theta / 2:
        n -= 1
    return n


def _f32(v):
    from ._common import f32
    return f32(v)


def _standard(image, rho, theta, threshold, srn, stn, min_theta, max_theta, use_edgeval, fn, with_votes):
    a = _edges(image, fn)
    # cv2 takes rho and theta as C floats: every step below uses the float values
    rho, theta = _f32(float(rho)), _f32(float(theta))
    threshold = int_arg(threshold, fn, "threshold")
    if not rho > 0 or not theta > 0:
        raise fail(fn, "rho and theta must be positive (cv2: rho > 0 && theta > 0)")
    if float(srn or 0) != 0 or float(stn or 0) != 0:
        raise fail(fn, "the multi-scale transform (srn, stn > 0) is not supported; pass srn = stn = 0")
    min_theta, max_theta = float(min_theta), float(max_theta)
    if not max_theta >= min_theta:
        raise fail(fn, "max_theta must be greater than min_theta")
    if min_theta < 0 or max_theta > math.pi:
        raise fail(fn, "min_theta and max_theta must lie in [0, pi]")
    h, w = a.shape
    numangle = _num_angle(min_theta, max_theta, theta)
    max_rho = w + h
    # cv2 5 keeps the rho bins symmetric about 0 (an odd count: rho = 0 is a bin centre); cv2 4's
    # cvRound((2 * max_rho + 1) / rho) could be even, which shifted every rho by half a bin
    numrho = 2 * round_half_even(_f32(max_rho / rho)) + 1
    if numangle < 1 or numrho < 1:
        raise fail(fn, "the accumulator would be empty (theta or rho too large)")
    irho = _f32(1.0 / _f32(rho))
    acc = _core.prim("cv_hough_acc", [a], [numangle, numrho, 1 if use_edgeval else 0], [min_theta, theta, irho])
    s = numrho + 2
    c = acc[1:numangle + 1, 1:numrho + 1]
    peak = ((c > threshold) & (c > acc[1:numangle + 1, 0:numrho]) & (c >= acc[1:numangle + 1, 2:numrho + 2])
            & (c > acc[0:numangle, 1:numrho + 1]) & (c >= acc[2:numangle + 2, 1:numrho + 1]))
    flat = _np.flatnonzero(peak)
    ncols = 3 if with_votes else 2
    if int(flat.size) == 0:
        return None
    n_idx = flat // numrho
    r_idx = flat - n_idx * numrho
    base = (n_idx + 1) * s + r_idx + 1  # cv2's accumulator index: its tie-break order
    votes = acc.reshape(-1)[base]
    order = _np.lexsort((base, -votes))
    n_idx, r_idx, votes = n_idx[order], r_idx[order], votes[order]
    frho, fth = _np.float32(rho), _np.float32(theta)
    # float arithmetic as cv2: (r - (numrho - 1) * 0.5f) * rho and (float)min_theta + n * theta
    rhos = (r_idx.astype("float32") - _np.float32((numrho - 1) * 0.5)) * frho
    angs = _np.float32(_f32(min_theta)) + n_idx.astype("float32") * fth
    cols = [rhos, angs] + ([votes.astype("float32")] if with_votes else [])
    out = _np.stack(cols, axis=-1)
    # cv2 5's binding: HoughLines gives (N, 1, 2), HoughLinesWithAccumulator (N, 3)
    return out if with_votes else out.reshape(-1, 1, ncols)


def round_half_even(v):
    """cvRound of a double: to nearest, ties to even."""
    return round(v)


def HoughLines(image, rho, theta, threshold, lines=None, srn=0, stn=0, min_theta=0, max_theta=math.pi,
               use_edgeval=False):
    """cv2.HoughLines (standard transform): (N, 1, 2) float32 (rho, theta), strongest first, or None."""
    return _standard(image, rho, theta, threshold, srn, stn, min_theta, max_theta, use_edgeval,
                     "HoughLines", False)


def HoughLinesWithAccumulator(image, rho, theta, threshold, lines=None, srn=0, stn=0, min_theta=0,
                              max_theta=math.pi, use_edgeval=False):
    """cv2.HoughLinesWithAccumulator: (N, 3) float32 (rho, theta, votes), or None."""
    return _standard(image, rho, theta, threshold, srn, stn, min_theta, max_theta, use_edgeval,
                     "HoughLinesWithAccumulator", True)


def HoughLinesP(image, rho, theta, threshold, lines=None, minLineLength=0, maxLineGap=0):
    """cv2.HoughLinesP: (N, 4) int32 (cv2 5's shape) segments (x1, y1, x2, y2), or None."""
    fn = "HoughLinesP"
    a = _edges(image, fn)
    rho, theta = _f32(float(rho)), _f32(float(theta))
    threshold = int_arg(threshold, fn, "threshold")
    if not rho > 0 or not theta > 0:
        raise fail(fn, "rho and theta must be positive (cv2: rho > 0 && theta > 0)")
    # cv2 passes the lengths as double to an int parameter: the binding takes any number
    length, gap = int(float(minLineLength)), int(float(maxLineGap))
    h, w = a.shape
    numangle = _num_angle(0.0, math.pi, theta)
    numrho = round_half_even(_f32(((w + h) * 2 + 1) / rho))
    if numangle < 1 or numrho < 1:
        raise fail(fn, "the accumulator would be empty (theta or rho too large)")
    irho = _f32(1.0 / _f32(rho))
    # every segment takes at least its seed point off the image: at most h*w segments
    cap = max(1, min(_INT_MAX, h * w))
    out = _core.prim("cv_hough_p", [a], [numangle, numrho, threshold, length, gap, cap], [theta, irho])
    n = int(out[0, 0])
    if n == 0:
        return None
    return out[1:n + 1]


def HoughCircles(image, method, dp, minDist, circles=None, param1=100, param2=100, minRadius=0, maxRadius=0):
    """cv2.HoughCircles with HOUGH_GRADIENT: (1, N, 3) float32 circles (x, y, radius), strongest
    first, or None. param1 is Canny's upper threshold (the lower is half of it), param2 the
    accumulator threshold; maxRadius < 0 returns centres only (radius 0). The gradients are cv2's
    (3x3 Sobel, replicated border) and the edges its Canny on them, both exact in mnn.cv; voting,
    centre picking and radius estimation run in one native kernel with cv2's arithmetic."""
    fn = "HoughCircles"
    from ._filters import Canny, Sobel
    a = _edges(image, fn)
    method = int_arg(method, fn, "method")
    dp, min_dist, p1, p2 = float(dp), float(minDist), float(param1), float(param2)
    min_r, max_r = int_arg(minRadius, fn, "minRadius"), int_arg(maxRadius, fn, "maxRadius")
    if method == HOUGH_GRADIENT_ALT:
        return _circles_alt(a, dp, min_dist, p1, p2, min_r, max_r, fn)
    if method != HOUGH_GRADIENT:
        raise fail(fn, f"Unrecognized method id {method}; HOUGH_GRADIENT is supported")
    if not (dp > 0 and min_dist > 0 and p1 > 0 and p2 > 0):
        raise fail(fn, "dp, min_dist, canny_threshold and acc_threshold must be all positive numbers")
    canny, acc_thr = round_half_even(p1), round_half_even(p2)
    min_r = max(0, min_r)
    centers_only = max_r < 0
    h, w = a.shape
    if max_r <= 0:
        max_r = max(h, w)
    elif max_r <= min_r:
        max_r = min_r + 2
    dx = Sobel(a, 3, 1, 0, ksize=3, borderType=1)  # CV_16S, BORDER_REPLICATE
    dy = Sobel(a, 3, 0, 1, ksize=3, borderType=1)
    edges = Canny(a, max(1, canny // 2), canny)
    fdp = _f32(max(_f32(dp), 1.0))
    acols, arows = math.ceil(_f32(w * _f32(1.0 / fdp))), math.ceil(_f32(h * _f32(1.0 / fdp)))
    cap = max(1, arows * acols)
    out = _core.prim("cv_hough_circles", [contiguous(edges), contiguous(dx), contiguous(dy)],
                     [min_r, max_r, acc_thr, _INT_MAX, 1 if centers_only else 0, cap], [_f32(dp), _f32(min_dist)])
    n = int(out[0, 0])
    if n == 0:
        return None
    return out[1:n + 1].reshape(1, n, 3)


def _circles_alt(a, dp, min_dist, p1, p2, min_r, max_r, fn):
    """HOUGH_GRADIENT_ALT: Scharr gradients, Canny (L2) on them, then the arc / cluster search of
    csrc/backends/cpu/simd/cv/hough_alt.cpp. param2 is the minimal cos^2 between an edge's gradient
    and the direction to the centre (cv2 requires it below 1)."""
    from ._filters import Canny, Scharr
    if not (dp > 0 and min_dist > 0 and p1 > 0):
        raise fail(fn, "dp, min_dist and canny_threshold must be all positive numbers")
    if p2 >= 1:
        raise fail(fn, "when using HOUGH_GRADIENT_ALT method, param2 parameter must be smaller than 1.0")
    h, w = a.shape
    lo_r, hi_r = float(min_r), float(max_r)
    if hi_r <= 0:
        hi_r = min(w, h) * 0.5
    if lo_r > hi_r:
        lo_r, hi_r = hi_r, lo_r
    hi_r = max(min(hi_r, min(w, h) * 0.5), 1.0)
    lo_r = min(max(lo_r, 1.0), hi_r)
    canny = max(p1, 1.0)
    dp = max(dp, 1.0)
    dx = Scharr(a, 3, 1, 0)  # CV_16S, default border
    dy = Scharr(a, 3, 0, 1)
    edges = Canny(dx, dy, canny / 2, canny, True)
    acols, arows = round_half_even(w / dp), round_half_even(h / dp)
    cap = max(1, 10 * arows * ((acols + 1) // 2))  # at most 10 circles per centre, one centre per run
    out = _core.prim("cv_hough_alt", [contiguous(edges), contiguous(dx), contiguous(dy)], [cap],
                     [dp, min_dist, lo_r, hi_r, p2])
    n = int(out[0, 0])
    if n == 0:
        return None
    return out[1:n + 1].reshape(1, n, 3)
