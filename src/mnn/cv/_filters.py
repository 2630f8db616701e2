"""mnn.cv image filtering, morphology, thresholds, histograms and Canny (cv2's imgproc filters).

Python resolves cv2's argument conventions (ddepth, anchors, kernel construction, sigma-derived
sizes, iteration folding) and the pixel work runs in native primitives (csrc/ops/cv/filter_ops.cpp,
kernels under csrc/backends/cpu/{simd,kernels}/cv/). Results equal cv2's: 8-bit GaussianBlur
reproduces its fixed-point arithmetic, other integer outputs round half to even and saturate.
"""
import math

from .. import _core
from .. import numpy as _np
from ..numpy._common import dtype_code as _dtype_code
from ._common import as_image, channels, contiguous, fail, int_arg
from . import _fastpix as _fp
from . import _filter_box as _fb
from . import _filter_sep as _fs
from . import _hist
from . import _public
from ._fastpix import cv_row as _cv_row

__all__ = [
    "BORDER_CONSTANT", "BORDER_REPLICATE", "BORDER_REFLECT", "BORDER_WRAP", "BORDER_REFLECT_101",
    "BORDER_REFLECT101", "BORDER_DEFAULT", "BORDER_TRANSPARENT", "BORDER_ISOLATED",
    "CV_8U", "CV_8S", "CV_16U", "CV_16S", "CV_32S", "CV_32F", "CV_64F",
    "MORPH_ERODE", "MORPH_DILATE", "MORPH_OPEN", "MORPH_CLOSE", "MORPH_GRADIENT", "MORPH_TOPHAT",
    "MORPH_BLACKHAT", "MORPH_HITMISS", "MORPH_RECT", "MORPH_CROSS", "MORPH_ELLIPSE", "FILTER_SCHARR",
    "blur", "boxFilter", "sqrBoxFilter", "GaussianBlur", "getGaussianKernel", "medianBlur",
    "filter2D", "sepFilter2D", "Sobel", "Scharr", "Laplacian", "getDerivKernels",
    "erode", "dilate", "morphologyEx", "getStructuringElement", "morphologyDefaultBorderValue",
    "THRESH_BINARY", "THRESH_BINARY_INV", "THRESH_TRUNC", "THRESH_TOZERO", "THRESH_TOZERO_INV",
    "THRESH_MASK", "THRESH_OTSU", "THRESH_TRIANGLE", "ADAPTIVE_THRESH_MEAN_C", "ADAPTIVE_THRESH_GAUSSIAN_C",
    "threshold", "adaptiveThreshold", "inRange", "equalizeHist", "calcHist", "Canny", "LUT",
    "bilateralFilter", "createCLAHE", "CLAHE",
]

BORDER_CONSTANT, BORDER_REPLICATE, BORDER_REFLECT, BORDER_WRAP, BORDER_REFLECT_101 = 0, 1, 2, 3, 4
BORDER_REFLECT101 = BORDER_DEFAULT = 4
BORDER_TRANSPARENT, BORDER_ISOLATED = 5, 16
CV_8U, CV_8S, CV_16U, CV_16S, CV_32S, CV_32F, CV_64F = 0, 1, 2, 3, 4, 5, 6
MORPH_ERODE, MORPH_DILATE, MORPH_OPEN, MORPH_CLOSE = 0, 1, 2, 3
MORPH_GRADIENT, MORPH_TOPHAT, MORPH_BLACKHAT, MORPH_HITMISS = 4, 5, 6, 7
MORPH_RECT, MORPH_CROSS, MORPH_ELLIPSE = 0, 1, 2
FILTER_SCHARR = -1
THRESH_BINARY, THRESH_BINARY_INV, THRESH_TRUNC, THRESH_TOZERO, THRESH_TOZERO_INV = 0, 1, 2, 3, 4
THRESH_MASK, THRESH_OTSU, THRESH_TRIANGLE = 7, 8, 16
def _morph_padded(a, op, kh, kw, ay, ax, m, iterations, vals):
    """Morphology with a constant border whose value differs per channel: the kernel takes one
    value, so each pass pads the image with the per-channel constants (what cv2's border holds,
    saturated to the type, DBL_MAX meaning "ignore") as far as the element reaches, then crops."""
    from ._geometry import copyMakeBorder
    h, w = a.shape[0], a.shape[1]
    top, left = ay, ax
    bottom, right = kh - 1 - ay, kw - 1 - ax
    if str(a.dtype) in ("float32", "float64"):
        fill = [(math.inf if op == 0 else -math.inf) if v == _DBL_MAX else v for v in vals]
    else:
        info = _np.iinfo(str(a.dtype))
        fill = [(info.max if op == 0 else info.min) if v == _DBL_MAX else v for v in vals]
    res = a
    for _ in range(iterations):
        padded = copyMakeBorder(res, top, bottom, left, right, BORDER_CONSTANT, value=tuple(fill))
        if padded.ndim == 2 and res.ndim == 3:
            padded = _np.reshape(padded, tuple(padded.shape) + (1,))
        out = _core.prim("cv_morph", [contiguous(padded)], [kh, kw, ay, ax, BORDER_REPLICATE, op] + m, [0.0])
        res = contiguous(out[top:top + h, left:left + w])
    return res


ADAPTIVE_THRESH_MEAN_C, ADAPTIVE_THRESH_GAUSSIAN_C = 0, 1

_DEPTHS = ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"]
_DEPTH_OF = {d: i for i, d in enumerate(_DEPTHS)}
_DBL_MAX = 1.7976931348623157e308


def morphologyDefaultBorderValue():
    return (_DBL_MAX, _DBL_MAX, _DBL_MAX, _DBL_MAX)


# ---- argument helpers -----------------------------------------------------------------------

def _image(src, fn):
    # shape and dtype read once: every attribute of an mnn array is a call into the engine
    a = as_image(src, fn)
    shape = a.shape
    nd = len(shape)
    if nd not in (2, 3):
        raise fail(fn, f"expected a 2-d or 3-d image, got {nd} dimensions")
    depth = str(a.dtype)
    if depth not in _DEPTH_OF:
        raise fail(fn, f"unsupported depth {depth}")
    if 0 in shape:
        raise fail(fn, "empty image (cv2: !_src.empty())")
    if nd == 3 and shape[2] > 512:
        raise fail(fn, "too many channels")
    return a


def _depth(a):
    return _DEPTH_OF[str(a.dtype)]


# (source depth -> destination depths) cv2 5 implements, per filter family; -1 is always allowed.
_SEP_OK = {0: (0, 2, 3, 5, 6), 2: (0, 2, 3, 5, 6), 3: (0, 2, 3, 5, 6), 5: (0, 2, 3, 5, 6), 6: (0, 2, 3, 6)}
_F2D_OK = {0: (0, 2, 3, 5, 6), 2: (2, 5, 6), 3: (3, 5, 6), 5: (5,), 6: (6,)}
_BOX_OK = {0: (0, 2, 3, 4, 5, 6), 2: (0, 2, 3, 4, 5, 6), 3: (0, 2, 3, 4, 5, 6), 4: (0, 2, 3, 4, 5, 6),
           5: (0, 2, 3, 5, 6), 6: (0, 2, 3, 5, 6)}
_SQR_OK = {0: (0, 2, 3, 4, 5, 6), 2: (0, 2, 3, 5, 6), 3: (0, 2, 3, 5, 6), 5: (0, 2, 3, 5, 6), 6: (0, 2, 3, 5, 6)}


def _ddepth(ddepth, fn, masked=True):
    """ddepth as cv2's binding and CV_MAT_DEPTH read it: None is 0 (CV_8U), it must fit a C int,
    and (masked: the box and 2-D filters) a code keeps its low 5 bits (99 is CV_16S); negative
    means the source's depth. The derivative filters use the code unmasked (99 fails there)."""
    d = int_arg(ddepth, fn, "ddepth")
    return d & 31 if masked and d >= 0 else d


def _out_dtype(a, ddepth, fn, table=None, masked=True):
    ddepth = _ddepth(ddepth, fn, masked)
    sd = _depth(a)
    if table is not None and sd not in table:
        raise fail(fn, f"unsupported source depth {_DEPTHS[sd]}")
    d = sd if ddepth is None or ddepth < 0 else int(ddepth)
    allowed = None if table is None or ddepth is None or ddepth < 0 else table[sd]
    if d not in range(7) or (allowed is not None and d not in allowed):
        raise fail(fn, f"unsupported combination of source and destination depths ({_DEPTHS[_depth(a)]} -> {ddepth})")
    return _DEPTHS[d]


def _pair(v, fn, name):
    try:
        w, h = (int(v[0]), int(v[1]))
    except (TypeError, IndexError, ValueError):
        raise TypeError(f"[mnn.cv.{fn}] '{name}' must be a (width, height) pair") from None
    return w, h


def _anchor(anchor, kw, kh, fn):
    ax, ay = (-1, -1) if anchor is None else _pair(anchor, fn, "anchor")
    ax = kw // 2 if ax == -1 else ax
    ay = kh // 2 if ay == -1 else ay
    if not (0 <= ax < kw and 0 <= ay < kh):
        raise fail(fn, "anchor is outside the kernel (cv2: 0 <= anchor.x && anchor.x < ksize.width ...)")
    return ax, ay


def _border(b, fn, allow_wrap=False):
    """cv2's filter engine rejects BORDER_WRAP; only a few specialised paths accept it."""
    b = int(b)
    base = b & ~BORDER_ISOLATED
    if base not in (0, 1, 2, 3, 4) or (base == BORDER_WRAP and not allow_wrap):
        raise fail(fn, f"unsupported border type {b}")
    return base


def _floats(k, fn, name="kernel"):
    """A small kernel/coefficient array as (rows, cols, flat list of floats)."""
    if k is None:
        raise fail(fn, f"'{name}' is None")
    a = k if isinstance(k, _np.ndarray) else _np.asarray(k)
    if a.ndim > 2 or (a.ndim == 2 and a.size == 0):
        raise fail(fn, f"'{name}' must be a 2-d single-channel array")
    if a.ndim < 2:
        a = _np.reshape(a, (-1, 1))
    return a.shape[0], a.shape[1], [float(v) for v in _np.ravel(a.astype("float64")).tolist()]


def _finish(res, dst):
    if dst is not None and isinstance(dst, _np.ndarray) and tuple(dst.shape) == tuple(res.shape) and dst.dtype == res.dtype:
        dst[...] = res
        return dst
    return res


def _saturate(x, dtype):
    """cv2's saturate_cast of a float array: round half to even, clip to the integer range."""
    if dtype in ("float32", "float64"):
        return x.astype(dtype)
    info = _np.iinfo(dtype)
    return _np.clip(_np.rint(x), info.min, info.max).astype(dtype)


def _sep(src, kx, ky, anchor, border, out, delta=0.0, scale=1.0, sqr=False, fixed=False, bval=0.0):
    ax, ay = anchor
    ints = [len(kx), len(ky), ax, ay, border, _dtype_code(out), int(sqr), int(fixed)]
    return _core.prim("cv_sep_filter", [src], ints, list(kx) + list(ky) + [float(delta), float(scale), float(bval)])


# ---- linear filters -------------------------------------------------------------------------

def boxFilter(src, ddepth, ksize, dst=None, anchor=(-1, -1), normalize=True, borderType=BORDER_DEFAULT):
    return _box("boxFilter", src, ddepth, ksize, dst, anchor, normalize, borderType, False)


def sqrBoxFilter(src, ddepth, ksize, dst=None, anchor=(-1, -1), normalize=True, borderType=BORDER_DEFAULT):
    return _box("sqrBoxFilter", src, ddepth, ksize, dst, anchor, normalize, borderType, True)


def _box(fn, src, ddepth, ksize, dst, anchor, normalize, borderType, sqr):
    key = _fb.key(src, dst, fn, ddepth, ksize, anchor, normalize, borderType)
    res = _fb.lookup(key, src)
    if res is not None:
        return res
    a = _image(src, fn)
    kw, kh = _pair(ksize, fn, "ksize")
    if kw <= 0 or kh <= 0:
        raise fail(fn, "ksize must be positive")
    if sqr:
        ddepth = _ddepth(ddepth, fn)
        out = _out_dtype(a, ddepth, fn, _SQR_OK)
        if ddepth < 0:
            out = "float64" if out in ("float32", "float64") else "float32"
    else:
        out = _out_dtype(a, ddepth, fn, _BOX_OK)
    border = _border(borderType, fn, allow_wrap=str(a.dtype) == "float32" and not sqr)
    anc = _anchor(anchor, kw, kh, fn)
    # one native pass (_filter_box.py): exact integer sums with cv2's 8-bit rounding for uint8
    # averages, double sums in cv_sep_filter's order otherwise
    return _finish(_fb.box(key, a, kw, kh, anc, border, out, normalize, sqr), dst)


def blur(src, ksize, dst=None, anchor=(-1, -1), borderType=BORDER_DEFAULT):
    return _box("blur", src, -1, ksize, dst, anchor, True, borderType, False)


def _gauss_values(n, sigma):
    """cv2's Gaussian kernel as Python floats (its fixed table for small sizes with sigma <= 0)."""
    table = {1: [1.0], 3: [0.25, 0.5, 0.25], 5: [0.0625, 0.25, 0.375, 0.25, 0.0625],
             7: [0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125],
             9: [v / 256 for v in (4, 13, 30, 51, 60, 51, 30, 13, 4)]}
    if n % 2 == 1 and n <= 9 and sigma <= 0:
        return list(table[n])
    s = sigma if sigma > 0 else ((n - 1) * 0.5 - 1) * 0.3 + 0.8
    scale2 = -0.5 / (s * s)
    # an even size: cv2 5 gives its two middle taps the centre's weight (offset 0, not +-0.5),
    # the others their true offsets
    vals = [math.exp(scale2 * (0.0 if n % 2 == 0 and abs(i - (n - 1) * 0.5) == 0.5 else i - (n - 1) * 0.5) ** 2)
            for i in range(n)]
    total = sum(vals)
    return [v / total for v in vals]


def getGaussianKernel(ksize, sigma, ktype=CV_64F):
    n = int(ksize)
    if not 0 < n < 2**31:
        raise fail("getGaussianKernel", "ksize must be positive and fit a C int")
    if ktype not in (CV_32F, CV_64F):
        raise fail("getGaussianKernel", "ktype must be CV_32F or CV_64F")
    vals = _gauss_values(n, float(sigma))
    return _np.reshape(_np.asarray(vals, dtype="float64" if ktype == CV_64F else "float32"), (n, 1))


def _fixed_q8(vals):
    """cv2's conversion of a Gaussian kernel to Q8: error diffusion from the outside in, the
    centre taking what is left so the taps sum to exactly 256."""
    n = len(vals)
    out = [0] * n
    err, total = 0.0, 0
    for i in range(n // 2):
        v = vals[i] * 256 + err
        r = round(v)
        err = v - r
        out[i] = out[n - 1 - i] = r
        total += r
    out[n // 2] = 256 - 2 * total
    return out


def GaussianBlur(src, ksize, sigmaX, dst=None, sigmaY=0, borderType=BORDER_DEFAULT, hint=0):
    fn = "GaussianBlur"
    a = _image(src, fn)
    out = str(a.dtype)
    if out in ("int8", "int32"):
        raise fail(fn, f"unsupported depth {out}")
    kw, kh = (0, 0) if ksize is None else _pair(ksize, fn, "ksize")  # cv2: None is Size(): from sigma
    s1 = 0.0 if sigmaX is None else float(sigmaX)  # (cv2's binding passes None as 0)
    s2 = float(sigmaY) if sigmaY > 0 else s1
    taps = _gauss_taps(kw, kh, s1, s2, out, fn)
    border = _border(borderType, fn, allow_wrap=out in ("uint8", "uint16"))
    if taps is None:
        return _finish(a.copy(), dst)
    kx, ky, kw, kh, fixed = taps
    if not fixed:  # float and 16-bit images: one native pass (_filter_sep.py)
        return _finish(_fs.gauss_cv(a, kx, ky, border, _DTYPE_CODE[out]), dst)
    ints = [len(kx), len(ky), kw // 2, kh // 2, border, _DTYPE_CODE[out], 0, fixed]
    return _finish(_core.prim("cv_sep_filter", [a], ints, kx + ky + _NO_DELTA), dst)


# (delta, scale, border value) of cv_sep_filter's float parameters, as GaussianBlur passes them
_NO_DELTA = [0.0, 1.0, 0.0]
# engine dtype codes of the depths GaussianBlur takes (dtype_code's argument parsing costs ~1 us)
_DTYPE_CODE = {}
# (kw, kh, sigmaX, sigmaY, depth) -> taps: building them is ~10 us of Python (float32 rounding
# through mnn arrays), and callers use a handful of kernels over and over
_GAUSS_TAPS = {}


def _size_from_sigma(sigma, mult):
    """cv2's cvRound(sigma*mult*2 + 1) | 1: a value outside int's range rounds to INT_MIN (so a huge
    sigma fails the size assertion, as in cv2, instead of building a kernel of 10^13 taps)."""
    v = sigma * mult * 2 + 1
    if not (-2147483648.0 <= v < 2147483647.5):
        return -2147483648 | 1
    return int(_np.rint(_np.asarray(v)).item()) | 1


def _gauss_taps(kw, kh, s1, s2, out, fn):
    """The separable taps of GaussianBlur: (kx, ky, kw, kh, fixed), or None for a 1x1 kernel (a
    copy); raises cv2's error for an invalid size. Memoised on the arguments they depend on."""
    key = (kw, kh, s1, s2, out)
    taps = _GAUSS_TAPS.get(key, _MISSING)
    if taps is not _MISSING:
        return taps
    mult = 3 if out == "uint8" else 4
    if kw <= 0 and s1 > 0:
        kw = _size_from_sigma(s1, mult)
    if kh <= 0 and s2 > 0:
        kh = _size_from_sigma(s2, mult)
    if kw <= 0 or kh <= 0 or kw % 2 == 0 or kh % 2 == 0:
        raise fail(fn, "ksize.width > 0 && ksize.width % 2 == 1 && ksize.height > 0 && ksize.height % 2 == 1")
    s1, s2 = max(s1, 0.0), max(s2, 0.0)
    kx = _gauss_values(kw, s1)
    ky = kx if (kh == kw and abs(s1 - s2) < 2.220446049250313e-16) else _gauss_values(kh, s2)
    if kw == 1 and kh == 1:
        taps = None
    elif out == "uint8":
        taps = ([float(v) for v in (_fixed_q8(kx) if kw > 1 else [256])],
                [float(v) for v in (_fixed_q8(ky) if kh > 1 else [256])], kw, kh, 1)
    else:
        if out == "float32" or out not in ("float64",):
            kx = [float(_np.asarray(v, dtype="float32").item()) for v in kx]
            ky = [float(_np.asarray(v, dtype="float32").item()) for v in ky]
        taps = ([float(v) for v in kx], [float(v) for v in ky], kw, kh, 0)
    if out not in _DTYPE_CODE:
        _DTYPE_CODE[out] = _dtype_code(out)
    if len(_GAUSS_TAPS) >= 512:
        _GAUSS_TAPS.clear()  # bounded: a caller sweeping sigmas must not grow it without end
    _GAUSS_TAPS[key] = taps
    return taps


_MISSING = object()


def sepFilter2D(src, ddepth, kernelX, kernelY, dst=None, anchor=(-1, -1), delta=0, borderType=BORDER_DEFAULT):
    return _fs.memoized_sep(src, dst, ddepth, kernelX, kernelY, anchor, delta, borderType,
                            lambda: _sep_filter_2d(src, ddepth, kernelX, kernelY, dst, anchor, delta, borderType))


def _sep_filter_2d(src, ddepth, kernelX, kernelY, dst, anchor, delta, borderType):
    fn = "sepFilter2D"
    a = _image(src, fn)
    out = _out_dtype(a, ddepth, fn, _SEP_OK)
    rx, cx, kx = _fs.kernel_floats(kernelX) or _floats(kernelX, fn, "kernelX")
    ry, cy, ky = _fs.kernel_floats(kernelY) or _floats(kernelY, fn, "kernelY")
    if min(rx, cx) != 1 or min(ry, cy) != 1:
        raise fail(fn, "kernelX and kernelY must be 1-d (a row or a column)")
    res = _fs.sep_cv(a, kx, ky, _anchor(anchor, len(kx), len(ky), fn), _border(borderType, fn), _dtype_code(out),
                     delta=delta)
    return _finish(res, dst)


def filter2D(src, ddepth, kernel, dst=None, anchor=(-1, -1), delta=0, borderType=BORDER_DEFAULT):
    fn = "filter2D"
    a = _image(src, fn)
    out = _out_dtype(a, ddepth, fn, _F2D_OK)
    kh, kw, k = _fs.kernel_floats(kernel) or _floats(kernel, fn)
    res = _fs.f2d(a, kh, kw, k, _anchor(anchor, kw, kh, fn), _border(borderType, fn), _dtype_code(out), delta)
    return _finish(res, dst)


def _deriv_kernel(order, ksize):
    if ksize == -1:  # Scharr
        return [3.0, 10.0, 3.0] if order == 0 else [-1.0, 0.0, 1.0]
    if ksize == 1:
        return [1.0] if order == 0 else ([-1.0, 0.0, 1.0] if order == 1 else [1.0, -2.0, 1.0])
    k = [1.0]
    for _ in range(ksize - order - 1):
        k = [a + b for a, b in zip(k + [0.0], [0.0] + k)]
    for _ in range(order):
        k = [b - a for a, b in zip(k + [0.0], [0.0] + k)]
    return k


def getDerivKernels(dx, dy, ksize, kx=None, ky=None, normalize=False, ktype=CV_32F):
    fn = "getDerivKernels"
    ksize = int(ksize)
    if ktype not in (CV_32F, CV_64F):
        raise fail(fn, "ktype must be CV_32F or CV_64F")
    if ksize != -1 and (ksize % 2 == 0 or ksize > 31 or ksize < 1):
        raise fail(fn, "the kernel size must be odd and not larger than 31")
    if ksize == -1 and (dx < 0 or dy < 0 or dx + dy != 1):
        raise fail(fn, "Scharr needs dx >= 0 && dy >= 0 && dx + dy == 1")
    res = []
    for order in (int(dx), int(dy)):
        sz = ksize
        if ksize == 1 and order > 0:
            sz = 3
        if sz != -1 and order >= sz:
            raise fail(fn, "the derivative order must be smaller than the kernel size")
        k = _deriv_kernel(order, sz if sz != 3 or ksize == -1 else 3) if sz != 1 else [1.0]
        if normalize:
            if ksize == -1:
                sc = 1.0 / 32 if order == 0 else 1.0
            else:
                sc = 1.0 / (1 << (sz - order - 1))
            k = [v * sc for v in k]
        res.append(_np.reshape(_np.asarray(k, dtype="float64" if ktype == CV_64F else "float32"), (len(k), 1)))
    return res[0], res[1]


def _deriv(fn, src, ddepth, dx, dy, ksize, scale, delta, borderType, dst):
    a = _image(src, fn)
    out = _out_dtype(a, ddepth, fn, _SEP_OK, masked=False)
    if dx < 0 or dy < 0 or dx + dy <= 0:
        raise fail(fn, "dx >= 0 && dy >= 0 && dx+dy > 0")
    if ksize != -1 and (ksize % 2 == 0 or ksize > 31 or ksize < 1):
        raise fail(fn, "ksize must be 1, 3, 5, 7 (odd and at most 31)")
    if ksize == -1 and dx + dy != 1:  # Sobel(ksize=FILTER_SCHARR) is Scharr's first derivative only
        raise fail(fn, "dx >= 0 && dy >= 0 && dx+dy == 1 (cv2: getScharrKernels)")
    szx = 3 if (ksize == 1 and dx > 0) else ksize
    szy = 3 if (ksize == 1 and dy > 0) else ksize
    if (szx != -1 and dx >= szx) or (szy != -1 and dy >= szy):
        raise fail(fn, "the derivative order must be smaller than the kernel size")
    kx = [1.0] if szx == 1 else _deriv_kernel(dx, szx)
    ky = [1.0] if szy == 1 else _deriv_kernel(dy, szy)
    res = _fs.sep(a, kx, ky, (len(kx) // 2, len(ky) // 2), _border(borderType, fn), _dtype_code(out),
                  delta=delta, scale=scale)
    return _finish(res, dst)


def Sobel(src, ddepth, dx, dy, dst=None, ksize=3, scale=1, delta=0, borderType=BORDER_DEFAULT):
    return _fs.memoized("Sobel", src, dst, (ddepth, dx, dy, ksize, scale, delta, borderType), lambda: _deriv(
        "Sobel", src, ddepth, int(dx), int(dy), int(ksize), float(scale), float(delta), borderType, dst))


def Scharr(src, ddepth, dx, dy, dst=None, scale=1, delta=0, borderType=BORDER_DEFAULT):
    if not (dx >= 0 and dy >= 0 and dx + dy == 1):
        raise fail("Scharr", "dx >= 0 && dy >= 0 && dx+dy == 1")
    return _fs.memoized("Scharr", src, dst, (ddepth, dx, dy, scale, delta, borderType), lambda: _deriv(
        "Scharr", src, ddepth, int(dx), int(dy), -1, float(scale), float(delta), borderType, dst))


def Laplacian(src, ddepth, dst=None, ksize=1, scale=1, delta=0, borderType=BORDER_DEFAULT):
    return _fs.memoized("Laplacian", src, dst, (ddepth, ksize, scale, delta, borderType),
                        lambda: _laplacian(src, ddepth, dst, ksize, scale, delta, borderType))


def _laplacian(src, ddepth, dst, ksize, scale, delta, borderType):
    fn = "Laplacian"
    a = _image(src, fn)
    ksize = int(ksize)
    out = _out_dtype(a, ddepth, fn, _F2D_OK if ksize <= 3 else {d: tuple(range(7)) for d in (0, 2, 3, 5, 6)},
                     masked=False)
    if ksize <= 0 or ksize % 2 == 0 or ksize > 31:
        raise fail(fn, "ksize must be odd, positive and at most 31")
    border = _border(borderType, fn)
    if ksize <= 3:
        return _finish(_fs.laplacian3(a, ksize, border, _dtype_code(out), scale, delta), dst)
    d2 = _deriv_kernel(2, ksize)
    sm = _deriv_kernel(0, ksize)
    c = ksize // 2
    wdt = "float64" if out == "float64" or str(a.dtype) == "float64" else "float32"
    d2x = _fs.sep(a, d2, sm, (c, c), border, _dtype_code(wdt))
    d2y = _fs.sep(a, sm, d2, (c, c), border, _dtype_code(wdt))
    s = (d2x + d2y).astype("float64") * float(scale) + float(delta)
    return _finish(_saturate(s, out), dst)


# ---- median ---------------------------------------------------------------------------------

def medianBlur(src, ksize, dst=None):
    fn = "medianBlur"
    key = _fb.key(src, dst, fn, ksize)
    res = _fb.lookup(key, src)
    if res is not None:
        return res
    a = _image(src, fn)
    k = int(ksize)
    if k == 1:
        return _finish(a.copy(), dst)
    if k < 1 or k % 2 == 0:
        raise fail(fn, "(ksize % 2 == 1) && (ksize > 1)")
    d = str(a.dtype)
    if not (d == "uint8" or (k <= 5 and d in ("uint16", "int16", "float32"))):
        raise fail(fn, f"unsupported depth {d} for ksize {k}")
    if k == 3 and d in _fb.MEDIAN3_DEPTHS:
        return _finish(_fb.median3(key, a), dst)
    if channels(a) not in (1, 3, 4):
        # cv2 takes any channel count; each channel's median is independent of the others, so
        # the single-channel kernel runs plane by plane (cv2's large-aperture uint8 path, k > 5,
        # has 1, 3 or 4 channels only)
        if k > 5:
            raise fail(fn, "medianBlur with ksize > 5 supports 1, 3 or 4 channels")
        if a.shape[0] == 0 or a.shape[1] == 0:
            return _finish(a.copy(), dst)
        planes = [_core.prim("cv_median", [_np.ascontiguousarray(a[:, :, c])], [k], []) for c in range(a.shape[2])]
        return _finish(_np.stack(planes, axis=2), dst)
    return _finish(_core.prim("cv_median", [a], [k], []), dst)


# ---- morphology -----------------------------------------------------------------------------

def getStructuringElement(shape, ksize, anchor=(-1, -1)):
    fn = "getStructuringElement"
    w, h = _pair(ksize, fn, "ksize")
    if shape not in (MORPH_RECT, MORPH_CROSS, MORPH_ELLIPSE):
        raise fail(fn, "shape must be MORPH_RECT, MORPH_CROSS or MORPH_ELLIPSE")
    if w <= 0 or h <= 0:
        raise fail(fn, "ksize must be positive")
    ax, ay = _anchor(anchor, w, h, fn)
    if (w, h) == (1, 1):
        shape = MORPH_RECT
    rows = []
    r, c = h // 2, w // 2
    inv_r2 = 1.0 / (r * r) if r else 0.0
    for i in range(h):
        j1 = j2 = 0
        if shape == MORPH_RECT or (shape == MORPH_CROSS and i == ay):
            j2 = w
        elif shape == MORPH_CROSS:
            j1, j2 = ax, ax + 1
        else:
            dy = i - r
            if abs(dy) <= r:
                dx = int(_np.rint(_np.asarray(c * math.sqrt((r * r - dy * dy) * inv_r2))).item())
                j1, j2 = max(c - dx, 0), min(c + dx + 1, w)
        rows.append([1 if j1 <= j < j2 else 0 for j in range(w)])
    return _np.asarray(rows, dtype="uint8")


def _element(kernel, fn):
    if kernel is None:
        return None
    a = kernel if isinstance(kernel, _np.ndarray) else _np.asarray(kernel)
    if a.size == 0:
        return None
    if a.ndim == 1:
        a = _np.reshape(a, (-1, 1))
    if a.ndim != 2:
        raise fail(fn, "the structuring element must be 2-d")
    return a.shape[0], a.shape[1], [1 if v else 0 for v in _np.ravel(a != 0).tolist()]


def _morph_native(fn, key, a, op, kernel, anchor, iterations, borderType, borderValue):
    """erode / dilate / morphologyEx op (MORPH_ERODE .. MORPH_BLACKHAT) in one cv_morph_rect
    primitive (_filter_box.py) when the element, folded as _morph folds it, is a full rectangle
    applied once with one border value; None otherwise (the caller composes _morph passes)."""
    if str(a.dtype) not in _fb.MORPH_DEPTHS:
        return None
    el = _element(kernel, fn)
    iterations = int(iterations)
    if el is None:
        n = 1 + 2 * max(iterations, 0)
        kh = kw = n
        ax = ay = max(iterations, 0)
    else:
        kh, kw, m = el
        if not all(m):
            return None
        ax, ay = _anchor(anchor, kw, kh, fn)
        if iterations > 1:
            kw, kh = kw + (iterations - 1) * (kw - 1), kh + (iterations - 1) * (kh - 1)
            ax, ay = ax * iterations, ay * iterations
        elif iterations == 0:
            return None
    if kh * kw == 1:
        return None
    border = _border(borderType, fn)
    bv = 0.0
    if border == BORDER_CONSTANT:
        vals = [float(v) for v in borderValue] if isinstance(borderValue, (tuple, list)) else [float(borderValue)]
        if vals == [_DBL_MAX] * 4:
            vals = [_DBL_MAX] * max(4, channels(a))
        vals = (vals + [0.0] * 4)[:max(1, channels(a))]
        if len(set(vals)) > 1:
            return None
        bv = None if vals[0] == _DBL_MAX else vals[0]
    return _fb.morph_rect(key, a, op, kh, kw, ay, ax, border, bv)


def _morph(fn, a, op, kernel, anchor, iterations, borderType, borderValue):
    if str(a.dtype) in ("int8", "int32"):
        raise fail(fn, f"unsupported data type {a.dtype} (cv2: getMorphologyRowFilter)")
    el = _element(kernel, fn)
    iterations = int(iterations)
    if el is None:
        n = 1 + 2 * max(iterations, 0)
        el = (n, n, [1] * (n * n))
        ax = ay = max(iterations, 0)
        iterations = 1
    else:
        kh, kw, m = el
        ax, ay = _anchor(anchor, kw, kh, fn)
        if iterations > 1 and all(m):
            nw, nh = kw + (iterations - 1) * (kw - 1), kh + (iterations - 1) * (kh - 1)
            el = (nh, nw, [1] * (nw * nh))
            ax, ay = ax * iterations, ay * iterations
            iterations = 1
    kh, kw, m = el
    if iterations == 0 or kh * kw == 1:
        return a.copy()
    # cv2 applies the element once, then repeats it while i < iterations: a negative count is one pass
    iterations = max(iterations, 1)
    border = _border(borderType, fn)
    if border == BORDER_CONSTANT:
        # cv2's Scalar: a number v is (v, 0, 0, 0), so channels past the first get 0
        vals = [float(v) for v in borderValue] if isinstance(borderValue, (tuple, list)) else [float(borderValue)]
        if vals == [_DBL_MAX] * 4:  # cv2's default value means "no border" on every channel, 5+ included
            vals = [_DBL_MAX] * max(4, channels(a))
        vals = (vals + [0.0] * 4)[:max(1, channels(a))]
        if len(set(vals)) > 1:
            return _morph_padded(a, op, kh, kw, ay, ax, m, iterations, vals)
        bv = vals[0]
        if bv == _DBL_MAX:
            bv = math.inf if op == 0 else -math.inf
    else:
        bv = 0.0
    res = a
    for _ in range(iterations):
        res = _core.prim("cv_morph", [res], [kh, kw, ay, ax, border, op] + m, [float(bv)])
    return res


def erode(src, kernel, dst=None, anchor=(-1, -1), iterations=1, borderType=BORDER_CONSTANT,
          borderValue=morphologyDefaultBorderValue()):
    return _morph_ex("erode", src, MORPH_ERODE, kernel, dst, anchor, iterations, borderType, borderValue)


def dilate(src, kernel, dst=None, anchor=(-1, -1), iterations=1, borderType=BORDER_CONSTANT,
           borderValue=morphologyDefaultBorderValue()):
    return _morph_ex("dilate", src, MORPH_DILATE, kernel, dst, anchor, iterations, borderType, borderValue)


def _sat_sub(x, y):
    d = str(x.dtype)
    if d in ("float32", "float64"):
        return x - y
    return _saturate(x.astype("float64") - y.astype("float64"), d)


def morphologyEx(src, op, kernel, dst=None, anchor=(-1, -1), iterations=1, borderType=BORDER_CONSTANT,
                 borderValue=morphologyDefaultBorderValue()):
    return _morph_ex("morphologyEx", src, op, kernel, dst, anchor, iterations, borderType, borderValue)


def _morph_ex(fn, src, op, kernel, dst, anchor, iterations, borderType, borderValue):
    kk = _fb.kernel_key(kernel)
    key = None if kk is _fb.NOKEY else _fb.key(src, dst, fn, op, anchor, iterations, borderType, borderValue, kk)
    res = _fb.lookup(key, src)
    if res is not None:
        return res
    a = _image(src, fn)
    args = (kernel, anchor, iterations, borderType, borderValue)
    op = 0 if op is None else op  # cv2's binding passes None as 0 (MORPH_ERODE)
    if op.__class__ is int and 0 <= op <= MORPH_BLACKHAT:
        res = _morph_native(fn, key, a, op, *args)
        if res is not None:
            return _finish(res, dst)
    if op == MORPH_ERODE:
        res = _morph(fn, a, 0, *args)
    elif op == MORPH_DILATE:
        res = _morph(fn, a, 1, *args)
    elif op == MORPH_OPEN:
        res = _morph(fn, _morph(fn, a, 0, *args), 1, *args)
    elif op == MORPH_CLOSE:
        res = _morph(fn, _morph(fn, a, 1, *args), 0, *args)
    elif op == MORPH_GRADIENT:
        res = _sat_sub(_morph(fn, a, 1, *args), _morph(fn, a, 0, *args))
    elif op == MORPH_TOPHAT:
        res = _sat_sub(a, _morph(fn, _morph(fn, a, 0, *args), 1, *args))
    elif op == MORPH_BLACKHAT:
        res = _sat_sub(_morph(fn, _morph(fn, a, 1, *args), 0, *args), a)
    elif op == MORPH_HITMISS:
        if str(a.dtype) != "uint8" or channels(a) != 1:
            raise fail(fn, "MORPH_HITMISS needs a single-channel uint8 image")
        k = kernel if isinstance(kernel, _np.ndarray) else _np.asarray(kernel)
        k = k.astype("int32")
        k1, k2 = (k == 1).astype("uint8"), (k == -1).astype("uint8")
        full = _np.full(a.shape, 255, dtype="uint8")
        e1 = _morph(fn, a, 0, k1, anchor, iterations, borderType, borderValue) if bool(_np.any(k1)) else full
        comp = _np.bitwise_not(a)
        e2 = _morph(fn, comp, 0, k2, anchor, iterations, borderType, borderValue) if bool(_np.any(k2)) else full
        res = _np.bitwise_and(e1, e2)
    else:
        raise fail(fn, f"unknown morphological operation {op}")
    return _finish(res, dst)


# ---- thresholds -----------------------------------------------------------------------------

def _hist256(a):
    return _core.prim("cv_hist", [a], [1, 0, 0, 256], [0.0, 256.0])


def _otsu(hist, n):
    h = [v / n for v in hist]
    mu = sum(i * p for i, p in enumerate(h))
    q1 = mu1 = 0.0
    best, best_t = 0.0, 0
    for i in range(256):
        p = h[i]
        q1_new = q1 + p
        if min(q1_new, 1 - q1_new) < 1.19209289550781250e-07 or max(q1_new, 1 - q1_new) > 1:
            q1 = q1_new
            mu1 = (mu1 * (q1 - p) + i * p) / q1 if q1 > 0 else mu1
            continue
        mu1 = (mu1 * q1 + i * p) / q1_new
        q1 = q1_new
        mu2 = (mu - q1 * mu1) / (1 - q1)
        s = q1 * (1 - q1) * (mu1 - mu2) ** 2
        if s > best:
            best, best_t = s, i
    return best_t


def _triangle(hist):
    h = [int(v) for v in hist]
    left = next((i for i in range(256) if h[i] > 0), 0)
    if left > 0:
        left -= 1
    right = next((i for i in range(255, 0, -1) if h[i] > 0), 0)
    if right < 255:
        right += 1
    max_ind, maxv = 0, 0
    for i in range(256):
        if h[i] > maxv:
            maxv, max_ind = h[i], i
    flip = False
    if max_ind - left < right - max_ind:
        flip = True
        h = h[::-1]
        left, right = 255 - right, 255 - left
        max_ind = 255 - max_ind
    thresh = left
    a, b = maxv, left - max_ind
    dist = 0
    for i in range(left + 1, max_ind + 1):
        tempdist = a * i + b * h[i]
        if tempdist > dist:
            dist, thresh = tempdist, i
    thresh -= 1
    if flip:
        thresh = 255 - thresh
    return thresh


_THRESH_MEMO = {}  # see _fastpix: (image key, thresh, maxval, type) -> (cv_thresh bound, the threshold to report)


_NO = object()  # an argument not given


def threshold(src=_NO, thresh=_NO, maxval=_NO, type=_NO, dst=None, *more, **extra):
    # A repeated call (see _THRESH_MEMO) runs here, outside the wrapper every public mnn.cv function
    # gets (_public.py), as cvtColor's does: the wrapper costs 1-5 us on a tuple result, a third of
    # a 640x480 threshold. What it would do to these calls is nothing: no dst to fill, no error
    # possible for an image the memo validated, no HxWx1 result to flatten (not taken here).
    # Every other call, a wrong one included, goes to the wrapped function as it was made.
    if dst is None and not more and not extra and type.__class__ is int and _fp.plain(thresh) and _fp.plain(maxval):
        ik = _fp.image_key(src)
        if ik is not None:
            shape = ik[1]
            if not (len(shape) == 3 and shape[2] == 1):
                hit = _THRESH_MEMO.get((ik, thresh, maxval, type))
                if hit is not None:
                    res = _fp.apply(hit[0], src)
                    if res is not None:
                        return hit[1], res
    if more or src is _NO or thresh is _NO or maxval is _NO or type is _NO:
        given = {k: v for k, v in (("src", src), ("thresh", thresh), ("maxval", maxval), ("type", type)) if v is not _NO}
        if more:
            return _threshold_public(src, thresh, maxval, type, dst, *more, **extra)
        return _threshold_public(dst=dst, **given, **extra)
    return _threshold_public(src, thresh, maxval, type, dst, **extra)


def _threshold_checked(src, thresh, maxval, type, dst=None):
    """threshold with every check; the memo's entries are made here."""
    fn = "threshold"
    key = None
    if dst is None and _fp.plain(thresh) and _fp.plain(maxval) and type.__class__ is int:
        ik = _fp.image_key(src)
        if ik is not None:
            key = (ik, thresh, maxval, type)
            hit = _THRESH_MEMO.get(key)
            if hit is not None:
                res = _fp.apply(hit[0], src)
                if res is not None:
                    return hit[1], res
    # cv2's binding passes None as 0
    thresh, maxval, type = (0 if v is None else v for v in (thresh, maxval, type))
    e = as_image(src, fn)
    if e.ndim in (2, 3) and (e.shape[0] == 0 or e.shape[1] == 0) and str(e.dtype) in _DEPTH_OF:
        # cv2 thresholds nothing: the threshold it would apply (0 for Otsu / triangle), an empty image
        if type & (THRESH_OTSU | THRESH_TRIANGLE):
            return 0.0, e.copy()
        return (float(thresh) if str(e.dtype) in ("float32", "float64") else float(_cv_int(float(thresh), math.floor))), e.copy()
    a = _image(e, fn)
    d = str(a.dtype)
    kind = type & THRESH_MASK
    auto = type & (THRESH_OTSU | THRESH_TRIANGLE)  # cv2 ignores the bits above these flags
    if kind not in (0, 1, 2, 3, 4):
        raise fail(fn, f"unknown threshold type {type}")
    if auto:
        if auto not in (THRESH_OTSU, THRESH_TRIANGLE):
            raise fail(fn, "THRESH_OTSU and THRESH_TRIANGLE cannot be combined")
        if channels(a) != 1 or d not in (("uint8", "uint16") if auto == THRESH_OTSU else ("uint8",)):
            # cv2 5: Otsu on CV_8UC1 / CV_16UC1, the triangle method on CV_8UC1 only
            raise fail(fn, "THRESH_OTSU needs a single-channel uint8 or uint16 image, THRESH_TRIANGLE a "
                           f"single-channel uint8 one (got {d} with {channels(a)} channels)")
        if d == "uint16":
            # 65536 bins: the search runs in C++ (csrc/backends/cpu/kernels/cv/otsu_kernel.cpp)
            thresh = float(_core.prim("cv_otsu", [a], [], []).item())
        else:
            # histogram, search and the thresholded image in one evaluation (simd/cv/hist.cpp)
            r = _hist.auto_threshold(a, auto, kind, maxval)
            if r is not None:
                return r[0], _finish(r[1], dst)
            thresh = _hist.auto_thresh(a, auto)
    if d not in ("uint8", "uint16", "int16", "float32", "float64"):
        raise fail(fn, f"unsupported format {d} (cv2: Unsupported format or combination of formats)")
    thresh, maxval = float(thresh), float(maxval)
    if d not in ("float32", "float64"):
        # cv2 reports the integer threshold it applied: cvFloor, whose answer for NaN or anything
        # beyond a C int is INT_MIN (so the whole image is above it)
        thresh = float(_cv_int(thresh, math.floor))
    if d in ("float32", "float64"):
        t, m, x = thresh, maxval, a
        if d == "float32":
            t = float(_np.asarray(t, dtype="float32").item())
            m = float(_np.asarray(m, dtype="float32").item())
    else:
        info = _np.iinfo(d)
        t = math.floor(thresh)
        m = int(_np.rint(_np.asarray(maxval)).item())
        m = min(max(m, info.min), info.max)
        if t < info.min or t >= info.max:
            # The whole image is on one side of the threshold (cv2's early outs).
            above = t < info.min
            if kind in (THRESH_BINARY, THRESH_BINARY_INV):
                v = m if (above == (kind == THRESH_BINARY)) else 0
                return thresh, _finish(_np.full(a.shape, v, dtype=d), dst)
            if kind == THRESH_TRUNC:
                return thresh, _finish(_np.full(a.shape, info.min, dtype=d) if above else a.copy(), dst)
            if kind == THRESH_TOZERO:
                return thresh, _finish(a.copy() if above else _np.zeros(a.shape, dtype=d), dst)
            return thresh, _finish(_np.zeros(a.shape, dtype=d) if above else a.copy(), dst)
        x = a
    if a.ndim in (2, 3):
        # one pass in C++ (csrc/backends/cpu/simd/cv/fastpix.cpp), cv2's NaN answers included
        ints = [kind, _cv_row(src, a)] if d == "float64" and kind == THRESH_TRUNC else [kind]
        if not auto:  # Otsu and the triangle method find their threshold in each image
            _fp.remember(_THRESH_MEMO, key, "cv_thresh", ints, [float(t), float(m)], thresh)
        return thresh, _finish(_core.prim("cv_thresh", [a], ints, [float(t), float(m)]), dst)
    gt = x > t
    if kind == THRESH_BINARY:
        res = _np.where(gt, _np.asarray(m, dtype=d), _np.asarray(0, dtype=d))
    elif kind == THRESH_BINARY_INV:
        res = _np.where(gt, _np.asarray(0, dtype=d), _np.asarray(m, dtype=d))
    elif kind == THRESH_TRUNC:
        res = _np.where(gt, _np.asarray(t, dtype=d), x)
    elif kind == THRESH_TOZERO:
        res = _np.where(gt, x, _np.asarray(0, dtype=d))
    else:
        res = _np.where(gt, _np.asarray(0, dtype=d), x)
    return thresh, _finish(res.astype(d), dst)


# threshold's checked path, wrapped as every public function is; threshold itself is marked as
# wrapped (__wrapped__) so that wrap_public leaves it as it is.
_threshold_checked.__name__ = _threshold_checked.__qualname__ = "threshold"  # as Python's argument errors name it
_threshold_public = _public._named(_threshold_checked, "mnn.cv.threshold")
threshold.__wrapped__ = _threshold_checked


def adaptiveThreshold(src, maxValue, adaptiveMethod, thresholdType, blockSize, C, dst=None):
    fn = "adaptiveThreshold"
    key = _fb.key(src, dst, fn, maxValue, adaptiveMethod, thresholdType, blockSize, C)
    res = _fb.lookup(key, src)
    if res is not None:
        return res
    a = _image(src, fn)
    if str(a.dtype) != "uint8" or channels(a) != 1:
        raise fail(fn, "src must be a single-channel uint8 image")
    if blockSize % 2 != 1 or blockSize <= 1:
        raise fail(fn, "blockSize % 2 == 1 && blockSize > 1")
    if thresholdType not in (THRESH_BINARY, THRESH_BINARY_INV):
        raise fail(fn, "thresholdType must be THRESH_BINARY or THRESH_BINARY_INV")
    imax = min(max(int(_np.rint(_np.asarray(float(maxValue))).item()), 0), 255)
    if imax == 0:
        return _finish(_np.zeros(a.shape, dtype="uint8"), dst)
    if adaptiveMethod in (ADAPTIVE_THRESH_MEAN_C, ADAPTIVE_THRESH_GAUSSIAN_C):
        # one native pass (_filter_box.py): the block mean as boxFilter(BORDER_REPLICATE) gives it,
        # or the float32 GaussianBlur rounded to uint8 (cv2 smooths in float here, not in its
        # 8-bit fixed point), then the comparison with C
        taps = None
        if adaptiveMethod == ADAPTIVE_THRESH_GAUSSIAN_C:
            taps = _gauss_taps(int(blockSize), int(blockSize), 0.0, 0.0, "float32", "GaussianBlur")[0]
        res = _fb.adaptive(key, a, imax, taps, thresholdType == THRESH_BINARY_INV, int(blockSize), C)
        return _finish(res, dst)
    raise fail(fn, "unknown adaptive method")


def _cv_int(v, rounding):
    """cv2's cvRound / cvFloor / cvCeil of a double: INT_MIN for NaN or a value outside a C int."""
    if v != v or not -2147483648.0 <= v <= 2147483647.0:
        return -2147483648
    return int(rounding(v))


def _one_value_fills(depth, bound_dtype):
    """Whether cv2 applies a one-element bound (a 1-tuple, which its binding makes a 1x1 float64
    Mat, or a one-element array) to every channel. It does for int32 and float images and for a
    bound of the image's own type; an 8- or 16-bit image takes any other as (v, 0, 0, 0), as
    cv2 5.0 answers (a plain number is always (v, 0, 0, 0))."""
    return depth in ("int32", "float16", "float32", "float64") or bound_dtype == depth


def _scalar_bound(b, a, fn, depth, which):
    """A bound of inRange as float64 values that compare with the image as cv2's do: cv2 converts
    a Scalar to the image's depth first (depth: the image's dtype before any widening)."""
    if isinstance(b, (int, float, tuple, list)):
        # cv2 makes a Scalar of a number or tuple: (v, 0, 0, 0) for a number, a short tuple padded
        # with zeros; so on a multi-channel image a plain number bounds the first channel and asks 0
        # of the rest
        vals = [float(b)] if isinstance(b, (int, float)) else [float(v) for v in b]
        c = channels(a)
        if len(vals) not in ((1, c, 4) if c <= 4 else (c,)):
            # cv2 takes a number, a 1-tuple, a 4-value Scalar or one value per channel (past 4
            # channels only the last)
            raise fail(fn, f"a boundary of {len(vals)} values for an image of {c} channels")
        if not isinstance(b, (int, float)) and len(vals) == 1 and _one_value_fills(depth, "float64"):
            vals = vals * c
        vals = (vals + [0.0] * 4)[:c]
    else:
        m = as_image(b, fn)
        c = channels(a)
        if m.size == 1 or (m.size == c and m.ndim == 1):
            # a one-element array or one value per channel is a Scalar to cv2
            vals = [float(v) for v in m.reshape(m.size).tolist()]
            if len(vals) == 1:
                vals = vals * c if _one_value_fills(depth, str(m.dtype)) else (vals + [0.0] * c)[:c]
        else:
            if str(m.dtype) != depth or tuple(m.shape) != tuple(a.shape):
                raise fail(fn, f"The {which} boundary is neither an array of the same size and same type as "
                               "src, nor a scalar")
            return m.astype("float64")
    if depth in ("float32", "float16"):
        # cv2 converts the Scalar to the image's float type first: a pixel equal to float32(0.6)
        # is inside [.., 0.6]
        vals = _np.asarray(vals, dtype=depth).astype("float64").tolist()
    elif depth != "float64":
        # an integer image compares with the bounds converted to int (cvRound: half to even;
        # INT_MIN for NaN or out of int's range), not saturated to the depth
        vals = [float(_cv_int(v, round)) for v in vals]
    return _np.asarray(vals) if a.ndim == 3 else _np.asarray(vals[0])


_INRANGE_DEPTHS = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64")


_INRANGE_MEMO = {}  # see _fastpix: (image key, lowerb, upperb) -> (cv_inrange bound, None)


def inRange(src, lowerb, upperb, dst=None):
    fn = "inRange"
    key = None
    if dst is None and _fp.plain(lowerb) and _fp.plain(upperb):
        ik = _fp.image_key(src)
        if ik is not None:
            key = (ik, lowerb, upperb)
            hit = _INRANGE_MEMO.get(key)
            if hit is not None:
                res = _fp.apply(hit[0], src)
                if res is not None:
                    return res
    a = as_image(src, fn)
    depth = str(a.dtype)
    if depth == "float16":
        a = a.astype("float32")  # cv2 5 compares half images like float ones (exact in float32)
    a = _image(a, fn)
    lo, hi = _scalar_bound(lowerb, a, fn, depth, "lower"), _scalar_bound(upperb, a, fn, depth, "upper")
    c = channels(a)
    if lo.size == c and hi.size == c and a.ndim in (2, 3) and str(a.dtype) in _INRANGE_DEPTHS:
        # Scalar bounds (already in the image's type, as cv2 converts them): one C++ pass over the
        # interleaved channels (csrc/backends/cpu/simd/cv/fastpix.cpp)
        bounds = [float(v) for v in _np.reshape(lo, (c,)).tolist()] + [float(v) for v in _np.reshape(hi, (c,)).tolist()]
        if depth != "float16":  # (a float16 image is converted first: not the image the memo would see)
            _fp.remember(_INRANGE_MEMO, key, "cv_inrange", [], bounds, None)
        return _finish(_core.prim("cv_inrange", [a], [], bounds), dst)
    x = a.astype("float64")
    ok = (x >= lo) & (x <= hi)
    if a.ndim == 3:
        ok = _np.all(ok, axis=2)
    return _finish(ok.astype("uint8") * _np.asarray(255, dtype="uint8"), dst)


def LUT(src, lut, dst=None):
    fn = "LUT"
    a = as_image(src, fn)
    t = lut if isinstance(lut, _np.ndarray) else _np.asarray(lut)
    if str(a.dtype) not in ("uint8", "int8"):
        raise fail(fn, "src must be uint8 or int8")
    if t.size not in (256, 256 * channels(a)):
        raise fail(fn, "lut must have 256 entries (times the channel count)")
    t = _np.reshape(t, (256,) if t.size == 256 else (256, channels(a)))
    if str(a.dtype) == "uint8" and str(t.dtype) == "uint8" and a.ndim in (2, 3):
        # byte to byte: a SIMD table lookup (csrc/backends/cpu/simd/cv/fastpix.cpp)
        return _finish(_core.prim("cv_lut_u8", [a, _np.ascontiguousarray(t)], [], []), dst)
    return _finish(_core.prim("cv_lut", [_np.ascontiguousarray(a), _np.ascontiguousarray(t)], [], []), dst)


def equalizeHist(src, dst=None):
    fn = "equalizeHist"
    a = _image(src, fn)
    if str(a.dtype) != "uint8" or channels(a) != 1:
        raise fail(fn, "src must be a single-channel uint8 image")
    if a.ndim in (2, 3):
        # histogram and table in one native pass, then the table lookup (simd/cv/hist.cpp)
        return _finish(_hist.equalize(a), dst)
    hist = [int(v) for v in _hist256(a).tolist()]
    total = a.size
    i = 0
    while i < 256 and not hist[i]:
        i += 1
    if i == 256 or hist[i] == total:
        return _finish(_np.full(a.shape, i if i < 256 else 0, dtype="uint8"), dst)
    # cv2's arithmetic is float32: scale = 255.f / (total - first bin), each count (an int made
    # float) times it rounds to float32, and that product is rounded half to even (cvRound)
    f32 = _np.float32
    scale = f32(f32(255.0) / f32(total - hist[i]))
    sums = [0] * 256
    s = 0
    for j in range(i + 1, 256):
        s += hist[j]
        sums[j] = s
    prod = _np.asarray(sums, dtype="float32") * scale
    lut = _np.clip(_np.rint(prod), 0, 255).astype("uint8")
    return _finish(LUT(a, lut), dst)


def calcHist(images, channels_, mask, histSize, ranges, hist=None, accumulate=False):
    fn = "calcHist"
    if not isinstance(images, (list, tuple)) and hasattr(images, "shape") and len(images.shape) >= 2:
        # cv2's binding reads a bare array as a sequence of images along its first axis (an
        # H x W x C image gives H images of W x C): the same here
        images = [images[i] for i in range(images.shape[0])]
    if not isinstance(images, (list, tuple)) or not images:
        raise TypeError("[mnn.cv.calcHist] images must be a list of arrays")
    imgs = [as_image(im, fn, "images") for im in images]
    # a 1-d array is cv2's N x 1 image
    imgs = [_np.reshape(im, (im.shape[0], 1)) if im.ndim == 1 else im for im in imgs]
    for im in imgs:
        if str(im.dtype) not in ("uint8", "uint16", "float32"):
            raise fail(fn, f"unsupported depth {im.dtype} (cv2 takes uint8, uint16 and float32 images)")
    if all(im.ndim in (2, 3) and (im.shape[0] == 0 or im.shape[1] == 0) for im in imgs) and mask is None:
        # cv2 counts nothing in an empty image: an all-zero histogram of the asked size
        sizes = [int(v) for v in histSize]
        if sizes and min(sizes) > 0 and len(sizes) == len(list(channels_)):
            return _np.zeros(tuple(sizes), dtype="float32")  # 1-d: (bins,), not (bins, 1)
    imgs = [_image(im, fn) for im in imgs]
    planes = []
    for im in imgs:
        if im.ndim == 2:
            planes.append(im)
        else:
            planes.extend(im[:, :, k] for k in range(im.shape[2]))
    chs = [int(c) for c in channels_]
    sizes = [int(s) for s in histSize]
    if len(sizes) != len(chs) or not chs:
        raise fail(fn, "channels and histSize must have the same length")
    if min(sizes) == 0:
        # a histogram with no bins: cv2 leaves it empty (its binding returns None)
        return _np.zeros((0, 1) if len(sizes) == 1 else tuple(sizes), dtype="float32")
    rng = [float(r) for r in ranges]
    if len(rng) != 2 * len(chs):
        raise fail(fn, "ranges must hold a (low, high) pair per dimension")
    if not all(rng[i] < rng[i + 1] for i in range(0, len(rng), 2)):  # NaN fails this too, as in cv2
        raise fail(fn, "each range needs low < high (cv2: ranges[i][0] < ranges[i][1])")
    for c in chs:
        if c < 0 or c >= len(planes):
            raise fail(fn, "channel index is out of range")
    if mask is not None:
        m = as_image(mask, fn, "mask")
        if str(m.dtype) != "uint8" or tuple(m.shape) != tuple(imgs[0].shape[:2]):
            raise fail(fn, "mask must be uint8 with the image's size")
    # one native pass over the images as they are (csrc/backends/cpu/simd/cv/hist.cpp)
    res = _hist.calc_hist(imgs, chs, sizes, rng, None if mask is None else m)
    if res is not None:
        return res + hist if accumulate and hist is not None else res
    stack = _np.stack([planes[c] for c in chs], axis=2)
    ins = [_np.ascontiguousarray(stack)]
    if mask is not None:
        m = as_image(mask, fn, "mask")
        if str(m.dtype) != "uint8" or tuple(m.shape) != tuple(stack.shape[:2]):
            raise fail(fn, "mask must be uint8 with the image's size")
        ins.append(_np.ascontiguousarray(m))
    nd = len(chs)
    res = _core.prim("cv_hist", ins, [nd, int(mask is not None)] + list(range(nd)) + sizes, rng)
    if accumulate and hist is not None:
        res = res + hist
    return res


# ---- Canny ----------------------------------------------------------------------------------

def _canny_threshold(v, name):
    """A threshold as a float. cv2's binding reads None as 0 and floors NaN to INT_MIN (every
    gradient passes): both are refused here (tools/cv_audit.py documents the difference)."""
    if v is None or isinstance(v, bool) or not isinstance(v, (int, float)) and not hasattr(v, "__float__"):
        raise TypeError(f"[mnn.cv.Canny] {name} must be a number, got {type(v).__name__}")
    v = float(v)
    if math.isnan(v):
        raise ValueError(f"[mnn.cv.Canny] {name} is NaN")
    # Gradients stay far below 2^40: clamping keeps the order (and floor() of inf possible).
    # cv2 floors a threshold of 2^31 or more into a C int, which overflows to INT_MIN (more edges
    # than at 2^31 - 1); mnn keeps it huge (no edges): a documented difference.
    return min(max(v, -2.0 ** 40), 2.0 ** 40)


def Canny(image, threshold1, threshold2, edges=None, apertureSize=3, L2gradient=False, *args):
    fn = "Canny"
    if threshold1 is None:
        _canny_threshold(threshold1, "threshold1")  # raises: not the dx, dy form either
    if isinstance(threshold2, (int, float)) is False and not isinstance(threshold1, (int, float)):
        raise TypeError("[mnn.cv.Canny] thresholds must be numbers")
    if not isinstance(threshold1, (int, float)):
        # Canny(dx, dy, threshold1, threshold2[, edges[, L2gradient]])
        dx, dy = as_image(image, fn, "dx"), as_image(threshold1, fn, "dy")
        lo, hi = _canny_threshold(threshold2, "threshold1"), _canny_threshold(edges, "threshold2")
        # The sixth positional argument of this form is L2gradient (it lands in apertureSize).
        l2 = bool(apertureSize) if isinstance(apertureSize, bool) else bool(L2gradient)
        if str(dx.dtype) != "int16" or str(dy.dtype) != "int16" or tuple(dx.shape) != tuple(dy.shape):
            raise fail(fn, "dx and dy must be int16 arrays of the same shape")
        return _canny_core(dx, dy, lo, hi, l2, bounded=False)
    lo, hi = _canny_threshold(threshold1, "threshold1"), _canny_threshold(threshold2, "threshold2")
    a = as_image(image, fn)
    if a.ndim in (2, 3) and a.shape[0] == 0 and str(a.dtype) == "uint8":
        # no rows, no edges: an empty edge map (cv2's binding returns None for it; cv2 refuses an
        # image of rows without columns, in its Sobel, and so does _image below)
        return _np.zeros(tuple(a.shape[:2]), dtype="uint8")
    a = _image(a, fn)
    if str(a.dtype) != "uint8":
        raise fail(fn, "image must be uint8 (cv2: _src.depth() == CV_8U)")
    ap = int(apertureSize)
    if ap % 2 == 0 or ap < 3 or ap > 7:
        raise fail(fn, "Aperture size should be odd between 3 and 7")
    k1, k0 = _deriv_kernel(1, ap), _deriv_kernel(0, ap)
    c = ap // 2
    # cv2 keeps the 7x7 gradients in int16 by scaling them (and the thresholds) by 1/16.
    sc = 1.0 / 16 if ap == 7 else 1.0
    if ap == 7:
        lo, hi = lo * sc, hi * sc
    dx = _sep(a, k1, k0, (c, c), BORDER_REPLICATE, "int16", scale=sc)
    dy = _sep(a, k0, k1, (c, c), BORDER_REPLICATE, "int16", scale=sc)
    # |dx|, |dy| <= 12240 for every aperture (7: after the 1/16): the kernel's int16 path holds
    res = _canny_core(dx, dy, lo, hi, bool(L2gradient), bounded=True)
    return _finish(res, edges)


def _canny_core(dx, dy, lo, hi, l2, bounded):
    """bounded: every |gradient| is below 2^14 (mnn's own Sobel), so the kernel may keep L1
    magnitudes in int16; caller-supplied dx/dy may use the whole int16 range."""
    if lo > hi:
        lo, hi = hi, lo
    if l2:
        lo, hi = min(32767.0, lo), min(32767.0, hi)
        if lo > 0:
            lo *= lo
        if hi > 0:
            hi *= hi
    if dx.ndim == 2:
        dx, dy = _np.reshape(dx, dx.shape + (1,)), _np.reshape(dy, dy.shape + (1,))
    return _core.prim("cv_canny", [dx, dy], [math.floor(lo), math.floor(hi), int(l2), int(bounded)], [])


# ---- bilateral filter and CLAHE -------------------------------------------------------------

def bilateralFilter(src, d, sigmaColor, sigmaSpace, dst=None, borderType=BORDER_DEFAULT):
    fn = "bilateralFilter"
    a = _image(src, fn)
    d = 0 if d is None else d  # cv2's binding passes None as 0 (the diameter from sigmaSpace)
    if not -2**31 <= int(d) < 2**31:  # cv2 takes d as a C int; a larger one would filter for hours
        raise fail(fn, f"d={d} does not fit a C int")
    if str(a.dtype) not in ("uint8", "float32") or channels(a) not in (1, 3):
        raise fail(fn, "src must be uint8 or float32 with 1 or 3 channels")
    border = _border(borderType, fn, allow_wrap=True)
    # cv2 5 returns the image unchanged when either sigma is <= 1e-6 (whatever d is), where cv2 4
    # used 1 for a non-positive sigmaColor; a NaN sigma is treated the same way here
    if not (float(sigmaSpace) > 1e-6 and float(sigmaColor) > 1e-6):
        return _finish(a.copy(), dst)
    sc, ss = float(sigmaColor), float(sigmaSpace)
    radius = int(_np.rint(_np.asarray(ss * 1.5)).item()) if d <= 0 else int(d) // 2
    radius = max(radius, 1)
    # the kernel pads by itself; BORDER_CONSTANT pads with zeros, averaged in like any pixel
    res = _core.prim("cv_bilateral", [a], [radius, border], [-0.5 / (sc * sc), -0.5 / (ss * ss)])
    return _finish(res, dst)


class CLAHE:
    """cv2.CLAHE: contrast-limited adaptive histogram equalisation of 8- or 16-bit single-channel images."""

    def __init__(self, clipLimit=40.0, tileGridSize=(8, 8)):
        self._clip = float(clipLimit)
        self._grid = _pair(tileGridSize, "createCLAHE", "tileGridSize")
        if self._grid[0] <= 0 or self._grid[1] <= 0:
            raise fail("createCLAHE", "tileGridSize must be positive")

    def apply(self, src, dst=None):
        a = _image(src, "CLAHE.apply")
        if str(a.dtype) not in ("uint8", "uint16") or channels(a) != 1:
            raise fail("CLAHE.apply", "src must be a single-channel uint8 or uint16 image "
                                      "(cv2: _src.type() == CV_8UC1 || _src.type() == CV_16UC1)")
        if a.ndim == 3:
            a = _np.reshape(a, a.shape[:2])
        return _finish(_hist.clahe(a, self._grid, self._clip), dst)

    def getClipLimit(self):
        return self._clip

    def setClipLimit(self, clipLimit):
        self._clip = float(clipLimit)

    def getTilesGridSize(self):
        return self._grid

    def setTilesGridSize(self, tileGridSize):
        self._grid = _pair(tileGridSize, "CLAHE.setTilesGridSize", "tileGridSize")


def createCLAHE(clipLimit=40.0, tileGridSize=(8, 8)):
    return CLAHE(clipLimit, tileGridSize)
