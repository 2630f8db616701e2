"""cv2.floodFill: the region (native cv_floodfill) and cv2's bookkeeping around it: the mask with
its border of 1s and the region marked (1 or flags >> 8), the image painted in the caller's array
(numpy or mnn, as the drawing functions do) unless FLOODFILL_MASK_ONLY, the area and rectangle."""
import math

from .. import _core
from .. import numpy as _np
from ._common import as_image, channels, contiguous, fail
from ._inplace import write_back

__all__ = ["FLOODFILL_FIXED_RANGE", "FLOODFILL_MASK_ONLY", "floodFill"]

FLOODFILL_FIXED_RANGE, FLOODFILL_MASK_ONLY = 1 << 16, 1 << 17

_FILL_DEPTHS = ("uint8", "int32", "float32")


def _scalar4(v, fn, name):
    """A cv2 Scalar: a number is (v, 0, 0, 0) here, a sequence is padded with zeros."""
    if isinstance(v, (int, float)):
        vals = [float(v)]
    else:
        try:
            vals = [float(x) for x in v]
        except TypeError:
            raise TypeError(f"[mnn.cv.{fn}] {name} must be a number or a sequence of numbers") from None
    return (vals + [0.0] * 4)[:4]


def _to_depth(v, depth):
    """newVal as cv2 writes it: rounded half to even and saturated for integer images."""
    if depth == "float32":
        return v
    r = float(round(v)) if math.isfinite(v) else 0.0
    lo, hi = (0.0, 255.0) if depth == "uint8" else (-2147483648.0, 2147483647.0)
    return min(max(r, lo), hi)


def _diff(v, depth):
    if depth == "float32":
        return v
    d = float(math.floor(v))
    return min(d, 255.0) if depth == "uint8" else d


def floodFill(image, mask, seedPoint, newVal, loDiff=None, upDiff=None, flags=4):
    fn = "floodFill"
    a = as_image(image, fn, "image")
    depth = str(a.dtype)
    if a.ndim not in (2, 3) or channels(a) not in (1, 3):
        raise fail(fn, "number of channels in input image must be 1 or 3")
    if depth not in _FILL_DEPTHS:
        raise fail(fn, f"unsupported image depth {depth} (cv2 fills uint8, int32 and float32 images)")
    f = int(flags)
    conn = f & 255
    conn = 4 if conn == 0 else conn
    if conn not in (4, 8):
        raise fail(fn, "connectivity must be 4, 0(=4) or 8")
    H, W = a.shape[0], a.shape[1]
    cn = channels(a)
    sx, sy = int(seedPoint[0]), int(seedPoint[1])
    lo = _scalar4(0.0 if loDiff is None else loDiff, fn, "loDiff")[:cn]
    up = _scalar4(0.0 if upDiff is None else upDiff, fn, "upDiff")[:cn]
    if any(v < 0 for v in lo + up):
        raise fail(fn, "lo_diff and up_diff must be non-negative")
    nv = [_to_depth(v, depth) for v in _scalar4(newVal, fn, "newVal")[:cn]]
    mval = (f >> 8) & 255 or 1
    if mask is not None:
        m = as_image(mask, fn, "mask")
        if str(m.dtype) != "uint8" or m.ndim != 2 or tuple(m.shape) != (H + 2, W + 2):
            raise fail(fn, f"mask must be uint8 of size (H+2)x(W+2) = {(H + 2, W + 2)}")
    else:
        m = _np.zeros((H + 2, W + 2), dtype="uint8")
    if not (0 <= sx < W and 0 <= sy < H):
        raise fail(fn, "seed point is outside of image")
    # cv2 sets the mask's one-pixel frame to 1 before filling
    frame = _np.ones((H + 2, W + 2), dtype="bool")
    frame[1:H + 1, 1:W + 1] = False
    inner = m[1:H + 1, 1:W + 1]
    x = a if a.ndim == 3 else a.reshape((H, W, 1))
    region = _core.prim("cv_floodfill", [contiguous(x.astype("float64")), contiguous((inner != 0).astype("uint8"))],
                        [sx, sy, conn, int(bool(f & FLOODFILL_FIXED_RANGE))],
                        [_diff(v, depth) for v in lo] + [_diff(v, depth) for v in up])
    filled = region != 0
    rows = _np.nonzero(_np.any(filled, axis=1))[0]
    area = int(_np.sum(region.astype("int64")))
    if area:
        cols = _np.nonzero(_np.any(filled, axis=0))[0]
        y0, y1, x0, x1 = int(rows[0]), int(rows[-1]), int(cols[0]), int(cols[-1])
        rect = (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    else:
        rect = (0, 0, 0, 0)
    padded = _np.zeros((H + 2, W + 2), dtype="bool")
    padded[1:H + 1, 1:W + 1] = filled
    new_mask = _np.where(frame, _np.asarray(1, dtype="uint8"),
                         _np.where(padded, _np.asarray(mval, dtype="uint8"), m))
    if mask is not None:
        write_back(mask, new_mask, fn)
        out_mask = mask
    else:
        out_mask = new_mask
    if area and not (f & FLOODFILL_MASK_ONLY):
        val = _np.asarray(nv, dtype=depth) if a.ndim == 3 else _np.asarray(nv[0], dtype=depth)
        k = filled if a.ndim == 2 else filled.reshape((H, W, 1))
        write_back(image, _np.where(k, val, a), fn)
    return area, image, out_mask, rect
