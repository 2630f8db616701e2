"""Native robust fits (csrc/ops/cv/robust_fit.h): findHomography's and estimateAffine2D /
estimateAffinePartial2D's estimators (sampling with cv2's RNG, minimal solves, float32 error
tests, iteration-count updates and the final polish) in one engine call.

The native code is a port of the Python implementation (_calib.py, _robust.py, _geometry.py
_lstsq_affine), which stays as the reference: the port gives its bits, and where that one would
raise (a float32 overflow, a division by zero, an eigensolver that does not converge) or meet NaN
in a sort, the native call answers None and the caller runs the Python code, so behaviour there is
unchanged too. ENABLED = False forces the Python code (the tests compare the two).
"""
from array import array

from .. import _core

ENABLED = True
_INT_LIMIT = 1 << 62  # maxIters beyond int64's comfort: leave to Python's big ints


def _mask(raw):
    return _core.from_buffer(memoryview(bytearray(raw)).cast("B", (len(raw), 1)))


def matrix(values, rows):
    """The model values as an mnn float64 (rows, 3) array (one buffer wrap, no engine call)."""
    return _core.from_buffer(memoryview(array("d", values)).cast("B").cast("d", (rows, 3)))


def homography(src, dst, method, thr, confidence, max_iters):
    """(H as 9 floats or None, (N, 1) uint8 mask) from the validated point arrays (not yet
    rounded to float32), or None where the Python implementation must run."""
    if not ENABLED or not -_INT_LIMIT < max_iters < _INT_LIMIT:
        return None
    r = _core.cv_find_homography(src, dst, method, thr, confidence, max_iters)
    if r is None:
        return None
    return r[1], _mask(r[2])


def point_array(p):
    """p itself when it is a float32 / float64 array of N 2-d points, (N, 2) or (N, 1, 2), the
    forms _geometry._points reads the same way (the native fits read it through the buffer
    protocol); else None."""
    shape, dt = getattr(p, "shape", None), getattr(p, "dtype", None)
    if shape is None or str(dt) not in ("float32", "float64"):
        return None
    shape = tuple(shape)
    return p if (len(shape) == 2 and shape[1] == 2) or (len(shape) == 3 and shape[1:] == (1, 2)) else None


def affine(src, dst, n, partial, lmeds, thr, confidence, max_iters, refine):
    """(2x3 model as 6 floats or None, (N, 1) uint8 mask) of _geometry._estimate's fit from N
    points (arrays, or flat lists; not yet rounded to float32), or None where the Python
    implementation must run."""
    if not ENABLED or not n or not -_INT_LIMIT < max_iters < _INT_LIMIT:
        return None
    r = _core.cv_estimate_affine(src, dst, partial, lmeds, thr, confidence, max_iters, refine)
    if r is None:
        return None
    return r[1], _mask(r[2])
