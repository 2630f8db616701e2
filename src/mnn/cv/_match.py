"""cv2.matchTemplate (with or without a mask): a native cross-correlation (blocked FFT, cv_ccorr_fft,
for large templates, chosen by _match_fft.py's cost model; else direct: cv_ccorr_u8, exact integer
sums, for uint8 images; cv_ccorr for float32) and cv2's formulas turning it into the six scores
in one native pass over the correlation and the image's integrals (_match_fast.py)."""
import math

from .. import _core
from .. import numpy as _np
from . import _match_fast as _fast
from . import _match_fft as _fft
from ._common import as_image, channels, contiguous, fail

__all__ = [
    "TM_SQDIFF", "TM_SQDIFF_NORMED", "TM_CCORR", "TM_CCORR_NORMED", "TM_CCOEFF", "TM_CCOEFF_NORMED",
    "matchTemplate",
]

TM_SQDIFF, TM_SQDIFF_NORMED, TM_CCORR, TM_CCORR_NORMED, TM_CCOEFF, TM_CCOEFF_NORMED = range(6)

_DBL_EPSILON = 2.220446049250313e-16
_FLT_EPSILON = 1.1920928955078125e-07


def _planes(a):
    """HxW or HxWxC as C contiguous float32 planes (C, H, W)."""
    x = a.astype("float32") if str(a.dtype) != "float32" else a
    if x.ndim == 2:
        return contiguous(x.reshape((1,) + tuple(x.shape)))
    return contiguous(_np.transpose(x, (2, 0, 1)))


def _stats(t):
    """cv2's template statistics: per-channel means and the sums over channels of variances."""
    x = t.astype("float64")
    n = int(t.shape[0]) * int(t.shape[1])
    x = x.reshape((n, channels(t)))
    mean = [float(v) for v in _np.sum(x, axis=0).tolist()]
    mean = [v / n for v in mean]
    sq = [float(v) / n for v in _np.sum(x * x, axis=0).tolist()]
    var = [max(s - m * m, 0.0) for s, m in zip(sq, mean)]
    return mean, var


def matchTemplate(image, templ, method, result=None, mask=None):
    fn = "matchTemplate"
    a = as_image(image, fn, "image")
    t = as_image(templ, fn, "templ")
    m = int(method)
    if m not in range(6):
        raise fail(fn, f"unknown method {method} (cv2: _method >= TM_SQDIFF && _method <= TM_CCOEFF_NORMED)")
    if str(a.dtype) not in ("uint8", "float32") or a.dtype != t.dtype:
        raise fail(fn, f"image and templ must both be uint8 or float32 (cv2: (depth == CV_8U || depth == CV_32F) "
                       f"&& type == _templ.type()), got {a.dtype} and {t.dtype}")
    if a.ndim not in (2, 3) or t.ndim not in (2, 3) or channels(a) != channels(t) or channels(a) > 4:
        raise fail(fn, "image and templ must have the same channel count (1 to 4)")
    H, W, h, w = a.shape[0], a.shape[1], t.shape[0], t.shape[1]
    if H < h or W < w:
        # cv2 swaps the two when the template is the larger in both dimensions
        if not (H <= h and W <= w):
            raise fail(fn, "the template must fit in the image (cv2: _img.size().height <= _templ.size().height && "
                           "_img.size().width <= _templ.size().width)")
        a, t = t, a
        H, W, h, w = h, w, H, W
    if h == 0 or w == 0 or H == 0 or W == 0:
        raise fail(fn, "image and templ must not be empty")
    cn = channels(a)
    if mask is not None:
        return _masked(a, t, _mask_planes(mask, t, fn), m)
    n = float(h * w)
    ccorr = _fft.ccorr(a, t, _fast._hwc)  # blocked FFT where the cost model prefers it
    if ccorr is None:
        ccorr = _fast.ccorr_u8(a, t)
    if ccorr is None:
        ccorr = _core.prim("cv_ccorr", [_planes(a), _planes(t)], [], [])
    if m == TM_CCORR:
        return ccorr.astype("float32")
    tmean, tvar = _stats(t)
    if m == TM_CCOEFF:
        if not any(tmean):
            return ccorr.astype("float32")
        return _fast.score(ccorr, a, h, w, m, 0.0, 0.0, 1.0 / n, tmean)
    tnorm = sum(tvar)
    if tnorm < _DBL_EPSILON and m == TM_CCOEFF_NORMED:
        return _np.ones((H - h + 1, W - w + 1), dtype="float32")
    tsum2 = tnorm + sum(v * v for v in tmean)
    coeff = m == TM_CCOEFF_NORMED
    if not coeff:
        tmean = [0.0] * cn
        tnorm = tsum2
    tsum2 *= n
    tnorm = math.sqrt(tnorm) / math.sqrt(1.0 / n)
    # one native pass: window sums from the integrals, cv2's formulas and its rounding guards
    return _fast.score(ccorr, a, h, w, m, tnorm, tsum2, 1.0 / n, tmean)


def _mask_planes(mask, t, fn):
    """The mask as float32 weights, one hxw plane per template channel: a uint8 mask is binary
    (nonzero is 1), a float32 one weighs; one channel serves every channel of the template."""
    k = as_image(mask, fn, "mask")
    d = str(k.dtype)
    if d not in ("uint8", "float32"):
        raise fail(fn, f"mask must be uint8 or float32 (cv2: mask.depth() == CV_8U || CV_32F), got {d}")
    kc = channels(k)
    if tuple(k.shape[:2]) != tuple(t.shape[:2]) or kc not in (1, channels(t)):
        raise fail(fn, "mask must have the template's size and 1 or the template's channel count")
    w = (k != 0).astype("float32") if d == "uint8" else k
    w = w if w.ndim == 3 else w.reshape(tuple(w.shape) + (1,))
    return [w[:, :, c if kc > 1 else 0] for c in range(channels(t))]


def _corr1(img_plane, kern):
    """Correlation of one HxW float32 plane with one hxw float32 kernel (float64 result)."""
    return _core.prim("cv_ccorr", [contiguous(img_plane.reshape((1,) + tuple(img_plane.shape))),
                                   contiguous(kern.astype("float32").reshape((1,) + tuple(kern.shape)))], [], [])


def _masked(a, t, ms, m):
    """cv2's masked scores (matchTemplateMask), channel by channel: with M the weights,
    SQDIFF sum(M^2 (T - I)^2); CCORR sum(M^2 T I); CCOEFF with T and each window I centred on
    their M-weighted means; the normalised forms divide by the matching M-weighted norms."""
    cn = channels(a)
    af = a.astype("float32")
    tf = t.astype("float32")
    planes = [af if a.ndim == 2 else af[:, :, c] for c in range(cn)]
    tps = [tf if t.ndim == 2 else tf[:, :, c] for c in range(cn)]
    num = den_i = None
    den_t = 0.0

    def add(x, y):
        return y if x is None else x + y
    for c in range(cn):
        ic, tc, mc = planes[c], tps[c], ms[c]
        m2 = mc * mc
        if m in (TM_CCOEFF, TM_CCOEFF_NORMED):
            nsum = float(_np.sum(mc.astype("float64")))
            mt = float(_np.sum((mc * tc).astype("float64"))) / nsum if nsum else 0.0
            tcen = (tc.astype("float64") - mt).astype("float32")
            mi = _corr1(ic, mc) * (1.0 / nsum if nsum else 0.0)
            k = m2 * tcen
            num = add(num, _corr1(ic, k) - mi * float(_np.sum(k.astype("float64"))))
            if m == TM_CCOEFF_NORMED:
                den_t += float(_np.sum(((mc * tcen).astype("float64")) ** 2))
                den_i = add(den_i, _corr1(ic * ic, m2) - 2.0 * mi * _corr1(ic, m2) + mi * mi * float(_np.sum(m2.astype("float64"))))
            continue
        corr = _corr1(ic, m2 * tc)
        tt = float(_np.sum(((tc * mc).astype("float64")) ** 2))
        if m in (TM_SQDIFF, TM_SQDIFF_NORMED):
            b = _corr1(ic * ic, m2)
            num = add(num, b - 2.0 * corr + float(_np.sum((m2 * tc * tc).astype("float64"))))
        else:
            num = add(num, corr)
        if m in (TM_SQDIFF_NORMED, TM_CCORR_NORMED):
            den_t += tt
            den_i = add(den_i, _corr1(ic * ic, m2) if m == TM_CCORR_NORMED else b)
    if m in (TM_SQDIFF, TM_CCORR, TM_CCOEFF):
        return num.astype("float32")
    return (num / _np.sqrt(den_i * den_t)).astype("float32")
