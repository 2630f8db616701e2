"""cv2.stackBlur: the triangular-kernel blur, computed natively (csrc/ops/cv/stackblur.cpp, kernel in
backends/cpu/simd/cv/stackblur.cpp) with cv2's arithmetic, including its choice between table and
float division per element, so results equal cv2's (as cv2 computes them on one thread)."""
from .. import _core
from ._common import as_image, contiguous, fail, int_arg

__all__ = ["stackBlur"]


def stackBlur(src, ksize, dst=None):
    fn = "stackBlur"
    a = as_image(src, fn)
    if a.ndim not in (2, 3) or a.size == 0:
        raise fail(fn, "expected a non-empty HxW or HxWxC image (cv2: !_src.empty())")
    if a.dtype not in ("uint8", "uint16", "int16", "float32"):
        raise fail(fn, f"Unsupported input format {a.dtype} in StackBlur, the supported formats are: "
                       "CV_8U, CV_16U, CV_16S and CV_32F.")
    try:
        kw, kh = int_arg(ksize[0], fn, "ksize"), int_arg(ksize[1], fn, "ksize")
    except (TypeError, IndexError) as e:
        raise TypeError(f"[mnn.cv.{fn}] ksize must be (width, height)") from e
    if kw <= 0 or kw % 2 == 0 or kh <= 0 or kh % 2 == 0:
        raise fail(fn, f"ksize must be odd and positive, got ({kw}, {kh})")
    h, w = int(a.shape[0]), int(a.shape[1])
    # cv2 shrinks a kernel wider (taller) than the image to the largest odd size that fits
    if kw > w:
        kw = w if w % 2 else max(1, w - 1)
    if kh > h:
        kh = h if h % 2 else max(1, h - 1)
    res = _core.prim("cv_stack_blur", [contiguous(a)], [kw, kh], [])
    if dst is not None and hasattr(dst, "shape") and tuple(dst.shape) == tuple(res.shape) and dst.dtype == res.dtype:
        dst[...] = res
        return dst
    return res
