"""Helpers of the single-pass pixel primitives (csrc/ops/cv/fastpix.cpp) shared by _filters.py and
_core_ops.py: where an answer of cv2 depends on how it walks the image."""


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
