"""cv2.warpPolar: an image resampled onto polar (or semi-log polar) coordinates, and back.

Like cv2, this builds the two float32 coordinate maps and hands them to remap, so interpolation and
borders are remap's. The maps follow cv2's arithmetic: forward, a float radius per column (r * K
or exp(r * K) - 1) times the double cos / sin of each row's angle plus the centre; inverse, the
image wrapped by one row top and bottom (the angle is periodic), cartToPolar of the offsets from
the centre (cv2's fast arctangent, in float), the log of 1 + magnitude for semi-log, divided by the
radial and angular steps. linearPolar and logPolar are cv2 4's deprecated wrappers of warpPolar
(cv2 5 dropped them), kept for pipelines ported from cv2 4.
"""
import math

from .. import numpy as _np
from ._common import as_image, f32, fail, int_arg
from ._core_ops import cartToPolar, log
from ._geometry import BORDER_CONSTANT, BORDER_TRANSPARENT, BORDER_WRAP, copyMakeBorder, remap

__all__ = ["warpPolar", "linearPolar", "logPolar"]

_INTER_MAX, _FILL_OUTLIERS, _INVERSE, _POLAR_LOG = 7, 8, 16, 256


def _cv_round(v):
    return int(math.floor(v + 0.5)) if v - math.floor(v) != 0.5 else int(round(v))


def warpPolar(src, dsize, center, maxRadius, flags, dst=None):
    fn = "warpPolar"
    img = as_image(src, fn)
    if img.ndim not in (2, 3) or img.shape[0] == 0 or img.shape[1] == 0:
        # (cv2 5 reads outside an empty image's buffer and returns whatever it finds)
        raise fail(fn, "expected a non-empty HxW or HxWxC image")
    try:
        dw, dh = int_arg(dsize[0], fn, "dsize"), int_arg(dsize[1], fn, "dsize")
        cx, cy = f32(float(center[0])), f32(float(center[1]))
    except (TypeError, IndexError) as e:
        raise TypeError(f"[mnn.cv.{fn}] dsize must be (width, height) and center (x, y)") from e
    max_r = float(maxRadius)
    flags = int_arg(flags, fn, "flags")
    semilog = bool(flags & _POLAR_LOG)
    if semilog and not max_r > 0:
        raise fail(fn, "maxRadius must be positive for WARP_POLAR_LOG")
    # an empty dsize keeps the bounding circle's area: maxRadius columns, maxRadius * pi rows
    if dw <= 0 and dh <= 0:
        dw, dh = _cv_round(max_r), _cv_round(max_r * math.pi)
    elif dh <= 0:
        dh = _cv_round(dw * math.pi)
    if dw <= 0 or dh <= 0:
        raise fail(fn, f"bad destination size ({dw}, {dh})")
    interp = flags & _INTER_MAX
    border = BORDER_CONSTANT if flags & _FILL_OUTLIERS else BORDER_TRANSPARENT
    if not flags & _INVERSE:
        ang = _np.arange(dh, dtype="float64") * (2 * math.pi / dh)
        cp, sp = _np.cos(ang)[:, None], _np.sin(ang)[:, None]
        cols = _np.arange(dw, dtype="float64")
        if semilog:
            rhos = (_np.exp(cols * (math.log(max_r) / dw)) - 1.0).astype("float32")
        else:
            rhos = (cols * (max_r / dw)).astype("float32")
        r = rhos.astype("float64")[None, :]
        mapx = (r * cp + cx).astype("float32")
        mapy = (r * sp + cy).astype("float32")
        return remap(img, mapx, mapy, interp, dst, border)
    wrapped = copyMakeBorder(img, 1, 1, 0, 0, BORDER_WRAP)
    sh, sw = int(wrapped.shape[0]) - 2, int(wrapped.shape[1])
    k_angle = 2 * math.pi / sh
    k_mag = (math.log(max_r) if semilog else max_r) / sw
    bx = _np.arange(dw, dtype="float32") - _np.float32(cx)
    by = _np.arange(dh, dtype="float32") - _np.float32(cy)
    bx2 = _np.broadcast_to(bx[None, :], (dh, dw))
    by2 = _np.broadcast_to(by[:, None], (dh, dw))
    mag, angle = cartToPolar(_np.ascontiguousarray(bx2), _np.ascontiguousarray(by2))
    if semilog:
        mag = log(mag + _np.float32(1.0))
    mapx = (mag.astype("float64") / k_mag).astype("float32")
    mapy = (angle.astype("float64") / k_angle).astype("float32") + _np.float32(1.0)
    return remap(wrapped, mapx, mapy, interp, dst, border)


def _size_of(src, fn):
    img = as_image(src, fn)
    if img.ndim not in (2, 3):
        raise fail(fn, "expected an HxW or HxWxC image")
    return img, (int(img.shape[1]), int(img.shape[0]))


def linearPolar(src, center, maxRadius, flags, dst=None):
    """cv2 4's linearPolar: warpPolar onto the source's own size, linear radius."""
    img, size = _size_of(src, "linearPolar")
    return warpPolar(img, size, center, maxRadius, int_arg(flags, "linearPolar", "flags") & ~_POLAR_LOG, dst)


def logPolar(src, center, M, flags, dst=None):
    """cv2 4's logPolar: warpPolar onto the source's size, semi-log radius, where the magnitude
    scale M stands for a maximum radius of exp(width / M) (1 when M <= 0)."""
    img, size = _size_of(src, "logPolar")
    m = float(M)
    max_r = math.exp(size[0] / m) if m > 0 else 1.0
    return warpPolar(img, size, center, max_r, int_arg(flags, "logPolar", "flags") | _POLAR_LOG, dst)
