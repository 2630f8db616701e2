"""The one-pass linear filters behind sepFilter2D, Sobel, Scharr, Laplacian, filter2D, non-8-bit
GaussianBlur and the pyramids (csrc/ops/cv/filter_sep.cpp; kernels in
csrc/backends/cpu/simd/cv/filter_sep*.cpp and pyramid.cpp). _filters.py and _geometry.py keep cv2's
argument checks and call these with plain numbers. cv_sepf, cv_f2d and cv_pyramid reproduce the
double arithmetic of the earlier cv_sep_filter / cv_filter2d / cv_pyr kernels bit for bit;
cv_sepf32 (float32 GaussianBlur and sepFilter2D) reproduces cv2's own float32 arithmetic, and
cv_lap8 the exact integer 3x3 Laplacians of uint8 images into int16.
"""
from .. import _core
from . import _fastpix as _fp
from ..numpy._common import dtype_code as _dtype_code
from ._common import contiguous


def sep(a, kx, ky, anchor, border, out_code, delta=0.0, scale=1.0):
    """Row filter kx, column filter ky (lists of floats), then * scale + delta, stored as out_code."""
    ax, ay = anchor
    return _run("cv_sepf", contiguous(a), [len(kx), len(ky), ax, ay, border, out_code],
                list(kx) + list(ky) + [float(delta), float(scale)])


def sep_cv(a, kx, ky, anchor, border, out_code, delta=0.0):
    """sep() for the calls whose float32 -> float32 case cv2 runs in float32 (GaussianBlur and
    sepFilter2D): that case and uint8 -> float32 go to cv_sepf32 (cv2's bits), uint8 -> uint8 with
    a kernel cv2 runs in float32 to cv_sep8 (cv2's bits), every other one to sep()."""
    ax, ay = anchor
    ch = a.dtype.char
    if out_code == _F32[0] and ch in "fB":
        return _run("cv_sepf32", contiguous(a), [len(kx), len(ky), ax, ay, border, out_code],
                    list(kx) + list(ky) + [float(delta), 1.0])
    if out_code == _U8[0] and ch == "B" and not _fixed_point_8u(kx, ax, ky, ay):
        return _run("cv_sep8", contiguous(a), [len(kx), len(ky), ax, ay, border, out_code],
                    list(kx) + list(ky) + [float(delta), 1.0])
    return sep(a, kx, ky, anchor, border, out_code, delta)


_FLT_EPSILON = 1.1920928955078125e-07


def _smooth_symmetric(k, anchor):
    """cv2's getKernelType(k) has KERNEL_SMOOTH and KERNEL_SYMMETRICAL: a centred anchor, k equal
    to its reverse, no negative tap, and a sum of 1 within FLT_EPSILON."""
    n = len(k)
    if 2 * anchor + 1 != n or any(v < 0 or v != k[n - 1 - i] for i, v in enumerate(k)):
        return False
    t = 0.0
    for v in k:
        t += v
    return abs(t - 1) <= _FLT_EPSILON * (abs(t) + 1)


def _fixed_point_8u(kx, ax, ky, ay):
    """Whether cv2 filters uint8 -> uint8 with these kernels in its fixed-point engine (both smooth
    and symmetric, every tap * 256 an integer within 10 FLT_EPSILON * 256: createBitExactKernel_32S).
    Those calls stay on cv_sepf, whose exact sums give cv2's results; the others run in float32."""
    if not (_smooth_symmetric(kx, ax) and _smooth_symmetric(ky, ay)):
        return False
    eps = 10 * _FLT_EPSILON * 256
    return all(abs(v * 256 - round(v * 256)) <= eps for v in list(kx) + list(ky))


def gauss_cv(a, kx, ky, border, out_code):
    """GaussianBlur's separable pass. cv2 drops the kernel along an axis of length 1 unless the
    border is constant (its float32 result then is the other pass alone, or a copy)."""
    if out_code == _F32[0] and border != 0 and a.dtype.char == "f":
        if a.shape[0] == 1:
            ky = [1.0]
        if a.shape[1] == 1:
            kx = [1.0]
        if len(kx) == 1 and len(ky) == 1:
            return a.copy()
    return sep_cv(a, kx, ky, (len(kx) // 2, len(ky) // 2), border, out_code)


def laplacian3(a, ksize, border, out_code, scale, delta):
    """The 3x3 Laplacians (ksize 1 or 3) into out_code; uint8 to int16 with scale 1 and delta 0
    goes to cv_lap8's one integer pass, the rest to f2d."""
    if out_code == _I16[0] and a.dtype.char == "B" and scale == 1 and delta == 0 and border != 3:
        return _run("cv_lap8", contiguous(a), [ksize, border], [])
    k = [0, 1, 0, 1, -4, 1, 0, 1, 0] if ksize == 1 else [2, 0, 2, 0, -8, 0, 2, 0, 2]
    return f2d(a, 3, 3, [float(v) * scale for v in k], (1, 1), border, out_code, delta)


def f2d(a, kh, kw, k, anchor, border, out_code, delta=0.0):
    """Correlation with the kh x kw kernel k (row-major list of floats), plus delta."""
    ax, ay = anchor
    return _run("cv_f2d", contiguous(a), [kh, kw, ay, ax, border, out_code], list(k) + [float(delta)])


def pyramid(img, down, dh, dw, mode):
    """One pyrDown (down=1) or pyrUp (down=0) step of any channel count."""
    return _run("cv_pyramid", contiguous(img), [int(down), int(dh), int(dw), int(mode)], [])


def kernel_floats(k):
    """(rows, cols, values) of a numpy kernel of a plain float or integer dtype, without the
    general conversion (~30 us through mnn arrays); None for anything else (the caller's general
    path then checks and converts it)."""
    t = type(k)
    if t.__name__ != "ndarray" or t.__module__ != "numpy" or k.dtype.char not in "fdbBhHiIlLq" or k.ndim > 2 or k.size == 0:
        return None
    vals = [float(v) for v in k.ravel().tolist()]
    if k.ndim < 2:
        return len(vals), 1, vals
    return k.shape[0], k.shape[1], vals


_F32 = [_dtype_code("float32")]  # the engine's dtype codes of float32 and int16
_I16 = [_dtype_code("int16")]
_U8 = [_dtype_code("uint8")]


# Memo of validated calls (see _fastpix.py): (function, image key, plain arguments) -> the one
# primitive the call ran, bound to its parameters. A frame loop's repeated Sobel / Laplacian /
# pyramid call then skips cv2's argument checks (5-15 us of Python: a tenth of a 640x480 Sobel).
_MEMO = {}
_LAST = [None, 0]  # (name, ints, floats) of the last primitive run here, and the count since reset
# depths whose arrays reach the primitive as they are (64-bit integers are narrowed first)
_SAFE_CHARS = frozenset("BbHhifd")


def _run(name, a, ints, floats):
    _LAST[0] = (name, ints, floats)
    _LAST[1] += 1
    return _core.prim(name, [a], ints, floats)


def _kernel_key(k):
    """A memo key part for a numpy kernel (its dtype, shape and bytes), else None."""
    t = type(k)
    if t.__name__ != "ndarray" or t.__module__ != "numpy" or k.size > 64:
        return None
    return (k.dtype.char, k.shape, k.tobytes())


def memoized_sep(src, dst, ddepth, kx, ky, anchor, delta, border, compute):
    """memoized() for sepFilter2D, whose kernels are numpy arrays: they enter the key by content
    (a frame loop's repeated call then costs ~3 us of Python instead of ~12)."""
    kkx, kky = _kernel_key(kx), _kernel_key(ky)
    args = (ddepth, delta, border)
    ok = kkx is not None and kky is not None and _fp.plain(args) and _fp.plain(anchor)
    return _memo_call("sepFilter2D", src, dst, (args, anchor, kkx, kky) if ok else None, compute)


def memoized(name, src, dst, args, compute):
    """compute() (the checked call of cv2 function `name` on src with the plain tuple args),
    memoised when it ran exactly one primitive of this module on src and returned its result."""
    return _memo_call(name, src, dst, args if _fp.plain(args) else None, compute)


def _memo_call(name, src, dst, args, compute):
    key = None
    if dst is None and args is not None:
        ik = _fp.image_key(src)
        if ik is not None and src.dtype.char in _SAFE_CHARS:
            key = (name, ik, args)
            bound = _MEMO.get(key)
            if bound is not None:
                res = _fp.apply(bound, src)
                if res is not None:
                    return res
    _LAST[0], _LAST[1] = None, 0
    res = compute()
    if key is not None and _LAST[1] == 1:
        if len(_MEMO) >= 256:
            _MEMO.clear()  # bounded, as _fastpix's memos
        n, ints, floats = _LAST[0]
        _MEMO[key] = _core.prim_bind(n, ints, floats)
    return res
