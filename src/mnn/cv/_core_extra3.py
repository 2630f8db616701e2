"""cv2's integral images (integral / integral2 / integral3, native: cv_integral), the running
averages of a video loop (accumulate*, written into the caller's float image as cv2 does),
histogram comparison and back projection, and the Hanning window."""
import math

from .. import _core
from .. import numpy as _np
from ._common import as_image, channels, contiguous, fail
from ._core_ops import _out_depth
from ._inplace import write_back

__all__ = [
    "HISTCMP_CORREL", "HISTCMP_CHISQR", "HISTCMP_INTERSECT", "HISTCMP_BHATTACHARYYA", "HISTCMP_HELLINGER",
    "HISTCMP_CHISQR_ALT", "HISTCMP_KL_DIV",
    "integral", "integral2", "integral3", "accumulate", "accumulateSquare", "accumulateProduct",
    "accumulateWeighted", "compareHist", "calcBackProject", "createHanningWindow",
]

HISTCMP_CORREL, HISTCMP_CHISQR, HISTCMP_INTERSECT, HISTCMP_BHATTACHARYYA = 0, 1, 2, 3
HISTCMP_HELLINGER, HISTCMP_CHISQR_ALT, HISTCMP_KL_DIV = 3, 4, 5

_DBL_EPSILON = 2.220446049250313e-16
_FLT_EPSILON = 1.1920928955078125e-07


# ---- integral ----

# source dtype -> (default sum depth, sum depths cv2 has kernels for); a float32 square-sum image
# exists only beside an int32 or float32 sum
_SUM_DEPTHS = {
    "uint8": ("int32", ("int32", "float32", "float64")),
    "uint16": ("float64", ("float64",)),
    "int16": ("float64", ("float64",)),
    "float32": ("float64", ("float32", "float64")),
    "float64": ("float64", ("float64",)),
}
_OUT_CODE = {"int32": 0, "float32": 1, "float64": 2}


def _integral_src(src, fn):
    a = as_image(src, fn)
    d = str(a.dtype)
    if d not in _SUM_DEPTHS:
        raise fail(fn, f"unsupported combination of input and output formats (source depth {d})")
    if a.ndim == 1:
        a = a.reshape((1, a.shape[0]))  # cv2 5's 1-d Mat is one row
    if a.ndim == 2:
        a = a.reshape(tuple(a.shape) + (1,))
    if a.ndim != 3:
        raise fail(fn, "expected an HxW or HxWxC image")
    return a


def _depths(a, sdepth, sqdepth, fn):
    d = str(a.dtype)
    default, allowed = _SUM_DEPTHS[d]
    sd = default if sdepth is None or int(sdepth) < 0 or (int(sdepth) & 7) == 0 and d == "uint8" else _out_depth(fn, sdepth)
    if int(sdepth if sdepth is not None else -1) >= 0 and (int(sdepth) & 7) == 0 and d != "uint8":
        sd = default  # cv2 reads CV_8U as "the default" for every source
    qd = "float64" if sqdepth is None or int(sqdepth) < 0 else _out_depth(fn, sqdepth)
    if sd not in allowed or qd not in ("float32", "float64") or (qd == "float32" and sd not in ("int32", "float32")) \
            or (qd == "float32" and d not in ("uint8", "float32")):
        raise fail(fn, f"unsupported combination of input and output formats ({d} -> sum {sd}, sqsum {qd})")
    return sd, qd


def _integral_kind(a, kind, out, shape):
    if a.size == 0:
        # all zeros; and the engine is never handed a kernel whose input buffer is empty
        r = _np.zeros((a.shape[0] + 1, a.shape[1] + 1, a.shape[2]), dtype=out)
    else:
        r = _core.prim("cv_integral", [contiguous(a)], [kind, _OUT_CODE[out]], [])
    if len(shape) == 2:
        return r.reshape((shape[0] + 1, shape[1] + 1))
    return r


def _shape_of(src, a):
    s = tuple(src.shape) if hasattr(src, "shape") else tuple(a.shape)
    return (1, s[0]) if len(s) == 1 else s


def integral(src, sum=None, sdepth=-1):  # noqa: A002  (cv2's name)
    fn = "integral"
    a = _integral_src(src, fn)
    sd, _ = _depths(a, sdepth, -1, fn)
    return _integral_kind(a, 0, sd, _shape_of(src, a))


def integral2(src, sum=None, sqsum=None, sdepth=-1, sqdepth=-1):  # noqa: A002
    fn = "integral2"
    a = _integral_src(src, fn)
    sd, qd = _depths(a, sdepth, sqdepth, fn)
    shape = _shape_of(src, a)
    return _integral_kind(a, 0, sd, shape), _integral_kind(a, 1, qd, shape)


def integral3(src, sum=None, sqsum=None, tilted=None, sdepth=-1, sqdepth=-1):  # noqa: A002
    fn = "integral3"
    a = _integral_src(src, fn)
    sd, qd = _depths(a, sdepth, sqdepth, fn)
    shape = _shape_of(src, a)
    return _integral_kind(a, 0, sd, shape), _integral_kind(a, 1, qd, shape), _integral_kind(a, 2, sd, shape)


# ---- accumulate ----

_ACC_SRC = {"float32": ("uint8", "uint16", "float32"), "float64": ("uint8", "uint16", "float32", "float64")}


def _acc_args(src, dst, mask, fn, name="src"):
    s = as_image(src, fn, name)
    d = as_image(dst, fn, "dst")
    dd = str(d.dtype)
    if dd not in _ACC_SRC or str(s.dtype) not in _ACC_SRC[dd]:
        raise fail(fn, f"unsupported combination of source {s.dtype} and accumulator {d.dtype} "
                       "(cv2: a float32 or float64 dst, a uint8/uint16/float32(/float64) src)")
    if tuple(s.shape) != tuple(d.shape) and not (channels(s) == channels(d) == 1 and
                                                  tuple(s.shape[:2]) == tuple(d.shape[:2])):
        raise fail(fn, "src and dst must have the same size and channel count (cv2: _src.sameSize(_dst) && dcn == scn)")
    k = None
    if mask is not None:
        m = as_image(mask, fn, "mask")
        if str(m.dtype) != "uint8" or tuple(m.shape[:2]) != tuple(d.shape[:2]) or channels(m) != 1:
            raise fail(fn, "mask must be a uint8 HxW array of dst's size (cv2: mask.empty() || (mask.type() == CV_8UC1 && sameSize))")
        k = m.reshape(tuple(d.shape[:2])) != 0
        if d.ndim == 3:
            k = k.reshape(tuple(k.shape) + (1,))
    return s.reshape(tuple(d.shape)), d, dd, k


def _acc_finish(dst, d, r, k, fn):
    if k is not None:
        r = _np.where(k, r, d)
    return write_back(dst, r, fn)


def accumulate(src, dst, mask=None):
    """dst += src (in dst's type), where mask is nonzero; written into the caller's dst."""
    s, d, dd, k = _acc_args(src, dst, mask, "accumulate")
    return _acc_finish(dst, d, d + s.astype(dd), k, "accumulate")


def accumulateSquare(src, dst, mask=None):
    s, d, dd, k = _acc_args(src, dst, mask, "accumulateSquare")
    x = s.astype(dd)
    return _acc_finish(dst, d, d + x * x, k, "accumulateSquare")


def accumulateProduct(src1, src2, dst, mask=None):
    fn = "accumulateProduct"
    s1, d, dd, k = _acc_args(src1, dst, mask, fn, "src1")
    s2, _, _, _ = _acc_args(src2, dst, None, fn, "src2")
    if s1.dtype != s2.dtype:
        raise fail(fn, "src1 and src2 must have the same type")
    return _acc_finish(dst, d, d + s1.astype(dd) * s2.astype(dd), k, fn)


def accumulateWeighted(src, dst, alpha, mask=None):
    """dst = src * alpha + dst * (1 - alpha), in dst's type (float32 dst: float arithmetic with
    alpha rounded to float, as cv2's kernel)."""
    fn = "accumulateWeighted"
    s, d, dd, k = _acc_args(src, dst, mask, fn)
    a = float(alpha)
    if dd == "float32":
        af = _np.asarray(a, dtype="float32")
        b = _np.asarray(1.0, dtype="float32") - af
    else:
        af, b = _np.asarray(a), _np.asarray(1.0 - a)
    return _acc_finish(dst, d, s.astype(dd) * af + d * b, k, fn)


# ---- compareHist, calcBackProject ----

def compareHist(H1, H2, method):
    """cv2's six histogram distances, in double over the float32 bins."""
    fn = "compareHist"
    a, b = as_image(H1, fn, "H1"), as_image(H2, fn, "H2")
    if str(a.dtype) != "float32" or str(b.dtype) != "float32":
        raise fail(fn, "both histograms must be float32 (cv2: H1.type() == H2.type() && H1.depth() == CV_32F)")
    if tuple(a.shape) != tuple(b.shape):
        raise fail(fn, f"the histograms differ in size: {tuple(a.shape)} and {tuple(b.shape)}")
    m = int(method)
    if m not in range(6):
        raise fail(fn, f"unknown comparison method {method}")
    x, y = a.astype("float64").reshape(-1), b.astype("float64").reshape(-1)
    n = int(x.size)
    zero = _np.asarray(0.0)
    if m == HISTCMP_CORREL:
        s1, s2 = float(_np.sum(x)), float(_np.sum(y))
        s11, s22, s12 = float(_np.sum(x * x)), float(_np.sum(y * y)), float(_np.sum(x * y))
        # cv2 divides by the Mat's pixel count: an HxWxC array is a C-channel Mat to its binding
        pixels = n // int(a.shape[2]) if a.ndim == 3 and a.shape[2] else n
        scale = 1.0 / pixels if pixels else 0.0
        num = s12 - s1 * s2 * scale
        denom2 = (s11 - s1 * s1 * scale) * (s22 - s2 * s2 * scale)
        return num / math.sqrt(denom2) if abs(denom2) > _DBL_EPSILON else 1.0
    if m == HISTCMP_CHISQR:
        d = x - y
        return float(_np.sum(_np.where(_np.abs(x) > _DBL_EPSILON, d * d / _np.where(x == 0, 1.0, x), zero)))
    if m == HISTCMP_CHISQR_ALT:
        d, s = x - y, x + y
        return 2.0 * float(_np.sum(_np.where(_np.abs(s) > _DBL_EPSILON, d * d / _np.where(s == 0, 1.0, s), zero)))
    if m == HISTCMP_INTERSECT:
        return float(_np.sum(_np.minimum(x, y)))
    if m == HISTCMP_BHATTACHARYYA:
        s1, s2 = float(_np.sum(x)), float(_np.sum(y))
        r = float(_np.sum(_np.sqrt(x * y)))
        s = s1 * s2
        s = 1.0 / math.sqrt(s) if abs(s) > _FLT_EPSILON else 1.0
        return math.sqrt(max(1.0 - r * s, 0.0))
    # KL_DIV: bins of H1 at 0 skipped, bins of H2 at 0 taken as 1e-10
    q = _np.where(_np.abs(y) <= _DBL_EPSILON, _np.asarray(1e-10), y)
    p = _np.where(_np.abs(x) <= _DBL_EPSILON, _np.asarray(1.0), x)
    return float(_np.sum(_np.where(_np.abs(x) > _DBL_EPSILON, x * _np.log(p / q), zero)))


def calcBackProject(images, channels, hist, ranges, scale, dst=None):  # noqa: A002
    """Each pixel's bin value of hist (uniform bins over ranges, cv2's floor(v * a + b) binning),
    times scale, in the first image's depth (uint8 / uint16 rounded and saturated); 0 outside."""
    fn = "calcBackProject"
    if not isinstance(images, (list, tuple)) and hasattr(images, "shape"):
        images = [images]
    if not isinstance(images, (list, tuple)) or not images:
        raise TypeError("[mnn.cv.calcBackProject] images must be a list of arrays")
    imgs = [as_image(im, fn, "images") for im in images]
    dt = str(imgs[0].dtype)
    for im in imgs:
        if str(im.dtype) != dt or dt not in ("uint8", "uint16", "float32"):
            raise fail(fn, f"unsupported image depth {im.dtype} (cv2 takes uint8, uint16, float32 images of one depth)")
        if tuple(im.shape[:2]) != tuple(imgs[0].shape[:2]):
            raise fail(fn, "all images must have the same size")
    planes = []
    for im in imgs:
        planes.extend([im] if im.ndim == 2 else [im[:, :, k] for k in range(im.shape[2])])
    h = as_image(hist, fn, "hist")
    if str(h.dtype) != "float32":
        h = h.astype("float32")
    chs = [int(c) for c in channels]
    dims = h.ndim if not (h.ndim == 2 and h.shape[1] == 1) else 1
    if len(chs) != dims:
        raise fail(fn, f"channels must name one plane per histogram dimension ({dims})")
    rng = [float(r) for r in ranges]
    if len(rng) != 2 * dims or not all(rng[2 * i] < rng[2 * i + 1] for i in range(dims)):
        raise fail(fn, "ranges must hold a (low, high) pair per dimension with low < high")
    sizes = [int(h.shape[i]) for i in range(dims)]
    shape2 = tuple(imgs[0].shape[:2])
    valid = _np.ones(shape2, dtype="bool")
    flat = _np.zeros(shape2, dtype="int64")
    for d, c in enumerate(chs):
        if not 0 <= c < len(planes):
            raise fail(fn, "channel index is out of range")
        a = sizes[d] / (rng[2 * d + 1] - rng[2 * d])
        b = -rng[2 * d] * a
        t = _np.floor(planes[c].astype("float64") * a + b)
        valid = valid & (t >= 0) & (t < sizes[d])
        flat = flat * sizes[d] + _np.where(valid, t, _np.asarray(0.0)).astype("int64")
    vals = _np.take(h.reshape(-1), _np.where(valid, flat, _np.asarray(0, dtype="int64")))
    v = vals * _np.asarray(float(scale), dtype="float32")
    v = _np.where(valid, v, _np.asarray(0.0, dtype="float32"))
    if dt == "float32":
        return v
    top = 255.0 if dt == "uint8" else 65535.0
    return _np.clip(_np.rint(v.astype("float64")), 0.0, top).astype(dt)


def createHanningWindow(winSize, type):  # noqa: A002
    """sqrt of the outer product of two Hann windows (cv2 takes the root so that the window
    applied to both signals of a phase correlation weights their product by one Hann)."""
    fn = "createHanningWindow"
    w, hgt = int(winSize[0]), int(winSize[1])
    code = int(type)
    if code not in (5, 6):
        raise fail(fn, "type must be CV_32FC1 or CV_64FC1 (cv2: type == CV_32FC1 || type == CV_64FC1)")
    if w <= 1 or hgt <= 1:
        raise fail(fn, "the window must be at least 2x2 (cv2: winSize.width > 1 && winSize.height > 1)")
    c0, c1 = 2.0 * math.pi / (w - 1), 2.0 * math.pi / (hgt - 1)
    wc = 0.5 * (1.0 - _np.cos(_np.arange(w, dtype="float64") * c0))
    wr = 0.5 * (1.0 - _np.cos(_np.arange(hgt, dtype="float64") * c1))
    prod = wr.reshape((hgt, 1)) * wc.reshape((1, w))
    if code == 5:
        return _np.sqrt(prod.astype("float32"))
    return _np.sqrt(prod)
