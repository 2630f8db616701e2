"""Helpers of the single-pass pixel primitives (csrc/ops/cv/fastpix.cpp) shared by _filters.py and
_core_ops.py: where an answer of cv2 depends on how it walks the image, and the memos of repeated calls."""
from .. import _core


def cv_row(src, a):
    """The elements of one of cv2's rows for image src (a: its mnn image): all of them when cv2 sees
    a continuous Mat (its binding copies arrays whose pixels are not dense), else one image row."""
    shape, strides = tuple(a.shape), getattr(src, "strides", None)
    cn = shape[2] if len(shape) == 3 else 1
    item = int(a.itemsize)
    if strides is not None and len(shape) in (2, 3) and shape[0] > 1 and len(strides) == len(shape):
        inner = strides[-1] == item and (len(shape) == 2 or strides[1] == cn * item)
        if inner and strides[0] > 0 and strides[0] != shape[1] * cn * item:
            return shape[1] * cn
    return int(a.size)


# Memos of validated calls: (image type, shape, dtype, the call's plain arguments) -> the primitive
# bound to its parameters (_core.prim_bind) and what the call returns beside the image. A repeated
# call (a frame loop) then skips cv2's argument checks, which cost 10-15 us of Python: as much as
# the kernel on a 640x480 image. Keys are made only of hashable plain values (numbers, tuples of
# numbers); anything else takes the checked path every time.
_PLAIN = (int, float)


def plain(v):
    """Whether v is a number or a tuple of numbers (a key part that means the same on every call)."""
    c = v.__class__
    return c in _PLAIN or (c is tuple and all(x.__class__ in _PLAIN for x in v))


# image_key(src): (type, shape, dtype, strides) of an image a memo may hold calls on (an mnn array,
# or a numpy array that memo_type accepts), else None. In C (csrc/python/fast_access.cpp): four
# attribute reads cost ~1 us here, the mnn `strides` property alone as much.
image_key = _core.image_key


def remember(memo, key, name, ints, floats, extra):
    if key is None:
        return
    if len(memo) >= 256:
        memo.clear()  # bounded: a caller sweeping thresholds or sizes must not grow it without end
    memo[key] = (_core.prim_now_bind(name, ints, floats), extra)


# apply(bound, src, ...): the bound primitive on src (an mnn array, or a numpy one imported
# zero-copy), or None where the import refuses src. In C (csrc/python/fast_run.cpp): a memo's
# primitive (bound by remember / bind) runs its kernel at once on a dense realised image, which
# skips the ~2 us of recording and evaluating a node (a quarter of a 640x480 threshold); other
# inputs are recorded as before. A prim_bind() capsule (other memos) is applied lazily.
apply = _core.prim_run

# values(bound, src, ...): apply's float64 / int64 result as a tuple of Python floats (statistics:
# minMaxLoc, countNonZero), or None where the import refuses src.
values = _core.prim_values

# bind(name, ints, floats): a primitive with fixed parameters for apply / values.
bind = _core.prim_now_bind
