"""The one-pass linear filters behind sepFilter2D, Sobel, Scharr, Laplacian, filter2D, non-8-bit
GaussianBlur and the pyramids (csrc/ops/cv/filter_sep.cpp; kernels in
csrc/backends/cpu/simd/cv/filter_sep.cpp and pyramid.cpp). _filters.py and _geometry.py keep cv2's
argument checks and call these with plain numbers; the kernels reproduce the double arithmetic of
the earlier cv_sep_filter / cv_filter2d / cv_pyr kernels bit for bit.
"""
from .. import _core
from ._common import contiguous


def sep(a, kx, ky, anchor, border, out_code, delta=0.0, scale=1.0):
    """Row filter kx, column filter ky (lists of floats), then * scale + delta, stored as out_code."""
    ax, ay = anchor
    return _core.prim("cv_sepf", [contiguous(a)], [len(kx), len(ky), ax, ay, border, out_code],
                      list(kx) + list(ky) + [float(delta), float(scale)])


def f2d(a, kh, kw, k, anchor, border, out_code, delta=0.0):
    """Correlation with the kh x kw kernel k (row-major list of floats), plus delta."""
    ax, ay = anchor
    return _core.prim("cv_f2d", [contiguous(a)], [kh, kw, ay, ax, border, out_code], list(k) + [float(delta)])


def pyramid(img, down, dh, dw, mode):
    """One pyrDown (down=1) or pyrUp (down=0) step of any channel count."""
    return _core.prim("cv_pyramid", [contiguous(img)], [int(down), int(dh), int(dw), int(mode)], [])


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
