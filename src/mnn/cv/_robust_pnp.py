"""Native solvePnPRansac (csrc/ops/cv/robust_pnp.h): the RANSAC loop over 5-point EPnP poses
(cv2's fixed-seed sampler, float32 error test, iteration update) and the inlier refit (EPnP, then
Levenberg-Marquardt for SOLVEPNP_ITERATIVE) in one engine call.

The native code is a port of the Python implementation in _pnp.py, which stays as the reference:
the port gives its bits, and where that one would raise (a float32 overflow, a division by zero)
the native call answers None and the caller runs the Python code, so behaviour there is unchanged
too. ENABLED = False forces the Python code (the tests compare the two).
"""
from array import array

from .. import _core
from ._common import f32
from ._points import _new

ENABLED = True
_INT_LIMIT = 1 << 62  # iterationsCount beyond int64's comfort: leave to Python's big ints


def ransac(obj, img, K, k, nd, iterationsCount, reprojectionError, confidence, iterative):
    """solvePnPRansac's 4-tuple from the validated point arrays (n >= 5 points), camera rows and
    14 distortion values, or None where the Python implementation must run."""
    if not ENABLED:
        return None
    try:  # the reference evaluates these later and may raise on them: let it
        thr = f32(f32(float(reprojectionError)) ** 2)
        iters = int(iterationsCount)
        conf = float(confidence)
    except Exception:  # noqa: BLE001 - the Python implementation raises it, in its own order
        return None
    if not -_INT_LIMIT < iters < _INT_LIMIT:
        return None
    r = _core.cv_solve_pnp_ransac(obj, img, [v for row in K for v in row], k, nd, iters, thr, conf, iterative)
    if r is None:
        return None
    kind, rv, tv, raw = r
    if kind == 0:
        return False, None, None, None
    rvec, tvec = _new(rv, "float64", (3, 1)), _new(tv, "float64", (3, 1))
    if kind != 3:  # 1: cv2's zeroed pose buffers; 2: the best sample's pose
        return False, rvec, tvec, None
    count = len(raw) // 4
    idx = _core.from_buffer(memoryview(array("i", raw)).cast("B").cast("i", (count, 1)))
    return True, rvec, tvec, idx
