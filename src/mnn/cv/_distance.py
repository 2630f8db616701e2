"""cv2.distanceTransform: chamfer and exact Euclidean distances (native cv_dist)."""
from .. import _core
from .. import numpy as _np
from ._common import as_image, contiguous, fail

__all__ = [
    "DIST_USER", "DIST_L1", "DIST_L2", "DIST_C", "DIST_L12", "DIST_FAIR", "DIST_WELSCH", "DIST_HUBER",
    "DIST_MASK_3", "DIST_MASK_5", "DIST_MASK_PRECISE", "DIST_LABEL_CCOMP", "DIST_LABEL_PIXEL",
    "distanceTransform",
]

DIST_USER, DIST_L1, DIST_L2, DIST_C, DIST_L12, DIST_FAIR, DIST_WELSCH, DIST_HUBER = -1, 1, 2, 3, 4, 5, 6, 7
DIST_MASK_3, DIST_MASK_5, DIST_MASK_PRECISE = 3, 5, 0
DIST_LABEL_CCOMP, DIST_LABEL_PIXEL = 0, 1

# cv2's chamfer weights (getDistanceTransformMask): edge, diagonal, knight move
_WEIGHTS = {(DIST_C, 3): (1.0, 1.0, 0.0), (DIST_L1, 3): (1.0, 2.0, 0.0),
            (DIST_L2, 3): (0.955, 1.3693, 0.0), (DIST_L2, 5): (1.0, 1.4, 2.1969)}


def distanceTransform(src, distanceType, maskSize, dst=None, dstType=5):
    """Distance of every pixel to the nearest zero pixel (float32; uint8 saturated for DIST_L1
    with dstType CV_8U). DIST_L1 and DIST_C always use the 3x3 mask, as cv2 does."""
    fn = "distanceTransform"
    a = as_image(src, fn)
    if str(a.dtype) != "uint8" or not (a.ndim == 2 or (a.ndim == 3 and a.shape[2] == 1)):
        raise fail(fn, "src must be a single-channel uint8 image (cv2: src.type() == CV_8UC1)")
    if a.ndim == 3:
        a = a.reshape(tuple(a.shape[:2]))
    if a.size == 0:
        raise fail(fn, "src is empty")
    dt, ms = int(distanceType), int(maskSize)
    if dt not in (DIST_L1, DIST_L2, DIST_C):
        raise fail(fn, "distanceType must be DIST_C, DIST_L1 or DIST_L2")
    if ms not in (DIST_MASK_PRECISE, DIST_MASK_3, DIST_MASK_5):
        raise fail(fn, "mask size should be 3, 5 or DIST_MASK_PRECISE (0)")
    if dt != DIST_L2:
        ms = 3
    if ms == DIST_MASK_PRECISE:
        w = (0.0, 0.0, 0.0)
    else:
        w = _WEIGHTS[(dt, ms)]
    r = _core.prim("cv_dist", [contiguous(a)], [ms], list(w))
    if dt == DIST_L1 and int(dstType) == 0:
        return _np.minimum(r, _np.asarray(255.0, dtype="float32")).astype("uint8")
    return r
