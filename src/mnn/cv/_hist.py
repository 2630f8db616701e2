"""Native paths of the histogram and statistics calls (csrc/ops/cv/hist.cpp, kernels in
csrc/backends/cpu/simd/cv/hist.cpp): calcHist, Otsu / triangle thresholds, equalizeHist, mean,
meanStdDev, norm, normalize and CLAHE. The public functions (_filters.py, _core_ops.py) keep cv2's
argument checks and call these with validated mnn arrays; each returns what the public function
returned before, computed in one native pass instead of several mnn.numpy evaluations."""
import math
import struct

from .. import _core
from .. import numpy as _np

# the depths the statistics kernels read (float16 and bool images keep the mnn.numpy paths)
DEPTHS = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64")
_EPS = 2.220446049250313e-16  # DBL_EPSILON: cv2's test for a zero range or norm


def calc_hist(imgs, chs, sizes, rng, mask):
    """calcHist over validated images (HxW or HxWxC, one depth and size) and flat channel
    indices, or None where the native kernel does not take the images (the caller goes on)."""
    d = str(imgs[0].dtype)
    if d not in ("uint8", "uint16", "float32") or any(str(im.dtype) != d for im in imgs):
        return None
    hw = tuple(imgs[0].shape[:2])
    if any(tuple(im.shape[:2]) != hw for im in imgs):
        return None
    # flat channel index -> (image, channel of that image), as cv2 numbers channels across images
    where = []
    for k, im in enumerate(imgs):
        where.extend((k, c) for c in range(im.shape[2] if im.ndim == 3 else 1))
    ints = [len(chs), int(mask is not None), len(imgs)]
    for c, s in zip(chs, sizes):
        ints += [where[c][0], where[c][1], s]
    ins = list(imgs) + ([mask] if mask is not None else [])
    return _core.prim("cv_hist_n", ins, ints, rng)


def auto_thresh(a, method):
    """Otsu's (method 8) or the triangle (16) threshold of a single-channel uint8 image."""
    return float(_core.prim("cv_autothresh", [a], [method], []).item())


def auto_threshold(a, method, kind, maxval):
    """threshold with Otsu's or the triangle threshold of a single-channel uint8 image, all in one
    evaluation: the threshold (a 0-d node), the rule as a 256-entry table of it, the table
    lookup. (threshold, image), or None for a maxval the table cannot hold (the caller goes on)."""
    mv = float(maxval)
    if not math.isfinite(mv):
        return None
    m = min(max(round(mv), 0), 255)  # cv2 rounds maxval half to even and saturates it
    t = _core.prim("cv_autothresh", [a], [method], [])
    res = _core.prim("cv_lut_u8", [a, _core.prim("cv_thresh_lut", [t], [kind, m], [])], [], [])
    _core.eval(res, t)
    return float(t.item()), res


def equalize(a):
    """equalizeHist of a single-channel uint8 image: its table, then the table lookup (one evaluation)."""
    lut = _core.prim("cv_equalize_lut", [a], [], [])
    return _core.prim("cv_lut_u8", [a, lut], [], [])


def sums(a, mask, sq=True):
    """(per-channel sums, per-channel sums of squares (zeros unless sq), selected pixel count) as Python floats."""
    r = _core.prim("cv_sums", [a] + ([mask] if mask is not None else []), [int(mask is not None), int(sq)], []).tolist()
    c = (len(r) - 1) // 2
    return r[:c], r[c:2 * c], r[2 * c]


def mean(a, mask):
    s, _, n = sums(a, mask, False)
    if n == 0:
        return None
    scale = 1.0 / n  # cv2 multiplies by 1 / n
    return [v * scale for v in s]


def mean_std(a, mask):
    """meanStdDev as cv2 computes it: mean = s * (1 / n), stddev = sqrt(max(sq * (1 / n) - mean^2, 0))."""
    s, q, n = sums(a, mask)
    scale = 1.0 / n if n else 0.0  # cv2 multiplies by 1 / n
    m = [v * scale for v in s]
    sd = [math.sqrt(max(qv * scale - mv * mv, 0.0)) for qv, mv in zip(q, m)]
    c = len(m)
    return (_np.reshape(_np.asarray(m, dtype="float64"), (c, 1)),
            _np.reshape(_np.asarray(sd, dtype="float64"), (c, 1)))


_KIND = {1: 1, 2: 2, 4: 4, 5: 4, 32: 32}  # NORM_INF, L1, L2, L2SQR, MINMAX -> the kernel's kind


def norm_value(a, kind, mask):
    """norm of every element (where mask is nonzero): kind NORM_INF / L1 / L2 / L2SQR, or for
    NORM_MINMAX the pair (min, max)."""
    r = _core.prim("cv_normval", [a] + ([mask] if mask is not None else []), [_KIND[kind], int(mask is not None)], []).tolist()
    if kind == 32:
        return r[0], r[1]
    if kind == 4:
        return math.sqrt(r[0])
    return r[0]


_NORMALIZE = {}  # (alpha, beta) as given -> floats the kernel may take, or None (see normalize)


def normalize(a, out, mode, kind, alpha, beta, mask, base):
    """normalize's statistics, scale, shift and conversion in one native step (cv_normalize), or
    None where the kernel's double arithmetic could differ from Python's: alpha / beta that are
    not exact doubles (huge ints) or would overflow float32 (Python raises there)."""
    key = (alpha, beta, type(alpha), type(beta))
    ab = _NORMALIZE.get(key, 0)
    if ab == 0:
        try:
            fa, fb = float(alpha), float(beta)
            ok = fa == alpha and fb == beta and abs(fa) < 1e20 and abs(fb) < 1e20
        except (TypeError, ValueError, OverflowError):
            ok = False
        ab = (fa, fb) if ok else None
        if len(_NORMALIZE) < 256:
            _NORMALIZE[key] = ab
    if ab is None or (mask is None and out == "uint8" and str(a.dtype) == "uint8"):
        return None  # (byte to byte: scale_convert's SIMD table lookup is faster than the kernel's)
    ins = [a]
    if mask is not None:
        ins.append(mask)
        if base is not None:
            ins.append(base)
    nm = 0 if mask is None else 1 if base is None else 2
    return _core.prim("cv_normalize", ins, [_KIND[kind], DEPTHS.index(out), mode, nm], list(ab))


def scale_convert(a, out, mode, scale, shift, mask, base):
    """saturate(a * scale + shift) into depth `out` (mode: see cv_scale_cvt's kernel); where mask
    is 0 the pixel of base (dst), or 0."""
    ins = [a]
    if mask is not None:
        ins.append(mask)
        if base is not None:
            ins.append(base)
    nm = 0 if mask is None else 1 if base is None else 2
    if mode:  # float32 arithmetic: scale and shift as float32 values
        scale, shift = _f32(scale), _f32(shift)
    ints, floats = [DEPTHS.index(out), mode, nm], [float(scale), float(shift)]
    if mask is None and out == "uint8" and str(a.dtype) == "uint8" and a.ndim in (2, 3) and (scale, shift) != (1.0, 0.0):
        # byte to byte: the 256 answers (the same kernel on 0..255), then the SIMD table lookup
        lut = _np.reshape(_core.prim("cv_scale_cvt", [_ramp()], ints, floats), (256,))
        return _core.prim("cv_lut_u8", [a, lut], [], [])
    return _core.prim("cv_scale_cvt", ins, ints, floats)


def _f32(v):
    return struct.unpack("f", struct.pack("f", float(v)))[0]


_RAMP = []


def _ramp():
    """0..255 as a 1 x 256 uint8 image (made once)."""
    if not _RAMP:
        _RAMP.append(_np.reshape(_np.arange(256, dtype="uint8"), (1, 256)))
    return _RAMP[0]


def clahe(a, grid, clip):
    return _core.prim("cv_clahe_fast", [a], [grid[0], grid[1]], [clip])
