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


# ---- merge of dense planes at once ----
_MERGE_DEPTHS = ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64")
_MERGE = []  # the cv_merge primitive bound once
_MERGE_OK = {}  # dtype object -> whether the kernel takes it


def merge(mv):
    """cv2.merge of 2 to 4 HxW planes of one type, shape, depth and layout (a list or tuple of numpy
    or mnn arrays), or None (the caller's checked path, which also raises cv2's errors): the
    interleaving kernel run at once (apply) without _core_ops.merge's per-plane conversions."""
    c = mv.__class__
    if (c is not list and c is not tuple) or not 2 <= len(mv) <= 4:
        return None
    k = image_key(mv[0])
    if k is None or len(k[1]) != 2 or 0 in k[1]:
        return None
    t, shape, dt, strides = k
    ok = _MERGE_OK.get(dt)
    if ok is None:
        ok = _MERGE_OK[dt] = str(dt) in _MERGE_DEPTHS  # (str of a numpy dtype costs ~0.3 us)
    if not ok:
        return None
    for x in mv[1:]:
        kx = image_key(x)
        # the dtype by identity (numpy's builtin dtypes are singletons; its == costs ~0.3 us)
        if kx is None or kx[0] is not t or kx[2] is not dt or kx[1] != shape or kx[3] != strides:
            return None
    if not _MERGE:
        _MERGE.append(bind("cv_merge", [], []))
    return apply(_MERGE[0], *mv)


# ---- image-image add / bitwise_and / absdiff of two images of one type, shape and depth, at once ----
# What _core_math.arith_pair / bitwise record, without its per-operand import in Python (~1 us
# each): the operands go to apply as given (numpy or mnn), imported in C.
# absdiff of 8/16-bit integers has its own kernel (cv_absdiff_int: in the operands' width).
_PAIR_DEPTHS = {"add": ("uint8", "int8", "uint16", "int16", "float32", "float64"),
                "bitwise_and": ("uint8", "int8", "uint16", "int16", "int32", "float32", "float64", "float16", "bool"),
                "absdiff": ("uint8", "int8", "uint16", "int16")}
_PAIR_PRIM = {"add": ("cv_arith", [0]), "bitwise_and": ("cv_math", [3, 0]), "absdiff": ("cv_absdiff_int", [])}
_PAIR_OK = {}  # (fn, dtype object) -> whether the kernel takes it
_PAIR_BOUND = {}


def pair(fn, src1, src2):
    """fn ("add", "bitwise_and" or "absdiff") of two HxW or HxWxC images of one type, shape and depth (no
    mask, dst or dtype), or None (the caller's own road, which raises cv2's errors)."""
    k = image_key(src1)
    if k is None:
        return None
    t, shape, dt, _ = k
    if not 2 <= len(shape) <= 3 or 0 in shape:
        return None
    k2 = image_key(src2)
    if k2 is None or k2[0] is not t or k2[2] is not dt or k2[1] != shape:
        return None
    ok = _PAIR_OK.get((fn, dt))
    if ok is None:
        if len(_PAIR_OK) >= 64:
            _PAIR_OK.clear()
        ok = _PAIR_OK[(fn, dt)] = str(dt) in _PAIR_DEPTHS[fn]
    if not ok:
        return None
    b = _PAIR_BOUND.get(fn)
    if b is None:
        name, ints = _PAIR_PRIM[fn]
        b = _PAIR_BOUND[fn] = bind(name, ints, [])
    return apply(b, src1, src2)


# ---- normalize(NORM_MINMAX) of a uint8 image into uint8 in one kernel, at once ----
_NORM_BOUND = {}  # (alpha, beta) -> cv_norm_minmax_u8 bound to them


def normalize_minmax_u8(src, alpha, beta):
    """cv2.normalize(src, None, alpha, beta, NORM_MINMAX) of a non-empty HxW or HxWxC uint8 image
    (no mask, dst or dtype), or None (the caller's road). alpha and beta: Python ints or floats
    the kernel's doubles hold exactly (what mnn/cv/_hist.normalize also asks)."""
    k = image_key(src)
    if k is None or not 2 <= len(k[1]) <= 3 or 0 in k[1] or not _is_u8(k[2]):
        return None
    key = (alpha, beta, alpha.__class__, beta.__class__)
    b = _NORM_BOUND.get(key)
    if b is None:
        if alpha.__class__ not in _PLAIN or beta.__class__ not in _PLAIN:
            return None
        fa, fb = float(alpha), float(beta)
        if not (fa == alpha and fb == beta and abs(fa) < 1e20 and abs(fb) < 1e20):
            return None
        if len(_NORM_BOUND) >= 256:
            _NORM_BOUND.clear()
        b = _NORM_BOUND[key] = bind("cv_norm_minmax_u8", [], [fa, fb])
    return apply(b, src)


_U8 = {}  # dtype object -> whether it is uint8 (str of a numpy dtype costs ~0.3 us)


def _is_u8(dt):
    ok = _U8.get(dt)
    if ok is None:
        if len(_U8) >= 64:
            _U8.clear()
        ok = _U8[dt] = str(dt) == "uint8"
    return ok
