"""cvtColor's linear conversions in one native pass each: the cv_color_ycc primitive
(csrc/ops/cv/color_ycc.cpp, kernels in csrc/backends/cpu/simd/cv/color_ycc.cpp).

Covers, for uint8 and float32 images: RGB/BGR(A) <-> YCrCb and YUV, RGB/BGR(A) <-> XYZ; for
float32 the gray conversions and the RGB/BGR/alpha channel permutations; for uint8 RGB/BGR(A) ->
I420/YV12. _color.py validates the call as cv2 does and asks native_ints for the primitive's
parameters; uint16 and everything else stay on cv_color.
"""

# cv_color's conversion numbers (ColorOp, as in _color.py)
_PERM, _GRAY, _YCC, _YCC_INV, _XYZ, _XYZ_INV, _TO_YUV420P = 0, 1, 5, 6, 7, 8, 11
# cv_color_ycc's
_OP_YCC, _OP_YCC_INV, _OP_XYZ, _OP_XYZ_INV, _OP_GRAY, _OP_I420, _OP_PERM = range(7)


def native_ints(kind, ints, depth):
    """cv_color_ycc's ints for the cv_color conversion (kind, ints after the kind), or None when
    cv_color_ycc does not cover it."""
    if depth not in ("uint8", "float32"):
        return None
    if kind == _YCC:  # (scn, bidx, yuv)
        return [_OP_YCC] + list(ints)
    if kind == _YCC_INV:  # (dcn, bidx, yuv)
        return [_OP_YCC_INV] + list(ints)
    if kind == _XYZ:  # (scn, bidx)
        return [_OP_XYZ] + list(ints)
    if kind == _XYZ_INV:  # (dcn, bidx)
        return [_OP_XYZ_INV] + list(ints)
    if kind == _GRAY and depth == "float32":  # (scn, bidx)
        return [_OP_GRAY] + list(ints)
    if kind == _TO_YUV420P and depth == "uint8":  # (scn, bidx, uidx)
        return [_OP_I420] + list(ints)
    if kind == _PERM and depth == "float32":  # (scn, dcn, map...)
        return [_OP_PERM] + list(ints)
    return None
