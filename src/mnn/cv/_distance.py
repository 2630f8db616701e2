"""cv2.distanceTransform: chamfer and exact Euclidean distances (native cv_dist)."""
from .. import _core
from .. import numpy as _np
from ._common import as_image, contiguous, fail

__all__ = [
    "DIST_USER", "DIST_L1", "DIST_L2", "DIST_C", "DIST_L12", "DIST_FAIR", "DIST_WELSCH", "DIST_HUBER",
    "DIST_MASK_3", "DIST_MASK_5", "DIST_MASK_PRECISE", "DIST_LABEL_CCOMP", "DIST_LABEL_PIXEL",
    "distanceTransform", "distanceTransformWithLabels",
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


# the 5x5 weights cv2 uses for each distance type when it also computes labels
_WEIGHTS5 = {DIST_C: (1.0, 1.0, 2.0), DIST_L1: (1.0, 2.0, 3.0), DIST_L2: (1.0, 1.4, 2.1969)}


def _zero_labels(a, labelType):
    """Labels of the zero pixels in raster order: one per pixel, or one per 8-connected
    component of zeros (numbered by their first pixel in raster order)."""
    zero = a == 0
    if int(labelType) == DIST_LABEL_PIXEL:
        idx = _np.cumsum(zero.reshape(-1).astype("int32")).reshape(tuple(a.shape))
        return _np.where(zero, idx, _np.asarray(0, dtype="int32")).astype("int32")
    from ._structure import connectedComponents
    n, lab = connectedComponents(zero.astype("uint8"), connectivity=8, ltype=4)
    # cv2 numbers the components through findContours, whose list runs backwards through the
    # raster order of their first pixels: the last component found is 1
    # cv2 numbers the components through findContours: in the raster order of each one's first
    # pixel (connectedComponents' own numbering follows its block scan instead)
    lab = _np.asarray(lab).astype("int32")
    flat = lab.reshape(-1)
    vals, first = _np.unique(flat, return_index=True)  # first occurrence of each label, raster order
    order = _np.argsort(first)  # labels by first pixel (background 0 is among them)
    rank = _np.zeros((int(n),), dtype="int32")
    rank[vals[order]] = _np.arange(int(vals.shape[0]), dtype="int32")
    bg_rank = rank[0]
    new = _np.take(rank, flat.astype("int64"))
    # ranks count the background where its first pixel comes first: skip it
    new = _np.where(new > bg_rank, new, new + 1)
    return _np.where(zero.reshape(-1), new, _np.asarray(0, dtype="int32")).reshape(tuple(a.shape)).astype("int32")


def distanceTransformWithLabels(src, distanceType, maskSize, dst=None, labels=None, labelType=DIST_LABEL_CCOMP):
    """(distances, labels): the label of each pixel is that of its nearest zero pixel (or zero
    component), found by cv2's 5x5 chamfer whatever the mask size."""
    fn = "distanceTransformWithLabels"
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
    if int(labelType) not in (DIST_LABEL_CCOMP, DIST_LABEL_PIXEL):
        raise fail(fn, "labelType must be DIST_LABEL_CCOMP or DIST_LABEL_PIXEL")
    w = list(_WEIGHTS5[dt])
    x = contiguous(a)
    init = contiguous(_zero_labels(a, labelType))
    d = _core.prim("cv_dist_labels", [x, init], [0], w)
    lab = _core.prim("cv_dist_labels", [x, init], [1], w)
    return d, lab
