"""The native passes of matchTemplate (csrc/ops/cv/match_fast.cpp): the exact integer correlation
for uint8 images (cv_ccorr_u8) and cv2's score formulas in one pass over the correlation and the
image's integrals (cv_match_score), in place of a dozen float64 array expressions."""
from .. import _core
from ._common import contiguous

# C*h*w products of at most 255 * 128 fit int32 (the kernel's signed-byte sums)
_U8_MAX_TAPS = 65793


def _hwc(a):
    return contiguous(a if a.ndim == 3 else a.reshape(tuple(a.shape) + (1,)))


def ccorr_u8(a, t):
    """The exact correlation of uint8 images (float64), or None where the template is too large."""
    cn = 1 if t.ndim == 2 else int(t.shape[2])
    if str(a.dtype) != "uint8" or int(t.shape[0]) * int(t.shape[1]) * cn > _U8_MAX_TAPS:
        return None
    return _core.prim("cv_ccorr_u8", [_hwc(a), _hwc(t)], [], [])


def score(ccorr, a, h, w, method, tnorm, tsum2, inv_n, tmean):
    """cv2's score of method (0, 1, 3, 4, 5) from the correlation; the integral of the image for
    TM_CCOEFF(_NORMED), of its squares for the others (the unused input is the other one)."""
    x = _hwc(a)
    s = _core.prim("cv_integral", [x], [0, 2], []) if method in (4, 5) else None
    q = _core.prim("cv_integral", [x], [1, 2], []) if method != 4 else None
    s = q if s is None else s
    q = s if q is None else q
    return _core.prim("cv_match_score", [ccorr, s, q], [method, h, w],
                      [float(tnorm), float(tsum2), float(inv_n)] + [float(v) for v in tmean])
