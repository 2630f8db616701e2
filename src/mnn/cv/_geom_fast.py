"""flip, transpose, rotate and copyMakeBorder's non-constant borders as one native pass of pixel
moves (cv_geom_copy: csrc/ops/cv/geom_fast.cpp, csrc/backends/cpu/simd/cv/geom_copy.cpp), instead
of an engine copy of a strided view. _geometry.py validates as cv2 does and calls copy(); a
repeated call on an image of the same type, shape, dtype and strides with the same plain
arguments (a frame loop) skips the checks through a memo of the bound primitive."""
from .. import _core
from ._fastpix import image_key

FLIP_ROWS, FLIP_COLS, FLIP_BOTH, TRANSPOSE, ROTATE_CW, ROTATE_CCW, BORDER = range(7)

# (image key, call key) -> cv_geom_copy bound to its ints (_core.prim_bind)
_MEMO = {}


def memo_call(src, call):
    """The result of a call this memo holds for src (call: the op and its plain arguments), or None."""
    k = image_key(src)
    if k is None:
        return None
    bound = _MEMO.get((k, call))
    if bound is None:
        return None
    # at once on a dense image (csrc/python/fast_run.cpp), else recorded on a dense copy; None
    # where the import refuses src
    return _core.prim_run(bound, src)


def copy(src, img, call, ints):
    """cv_geom_copy on the validated image img (src as the caller gave it), remembered under call
    when call is made of plain ints and img is src's own data (not a narrowed copy)."""
    if call is not None and str(img.dtype) == str(src.dtype):
        k = image_key(src)
        if k is not None:
            if len(_MEMO) >= 256:
                _MEMO.clear()  # bounded: a caller sweeping sizes must not grow it without end
            _MEMO[(k, call)] = _core.prim_now_bind("cv_geom_copy", ints, [])
    return _core.prim("cv_geom_copy", [_core.as_contiguous(img)], ints, [])


def plain_ints(*vals):
    """Whether every value is a Python int (a memo key part that means the same on every call)."""
    return all(v.__class__ is int for v in vals)
