"""Shared by the mnn.cv modules: cv2's exception type, input conversion and validation."""
import struct

from .. import _core
from .. import numpy as _np

_F32 = struct.Struct("f")


def f32(v, _pack=_F32.pack, _unpack=_F32.unpack):
    """v rounded to float32: what storing into a C float does (cv2 keeps many intermediates in
    float, and reproducing its results means rounding at the same steps)."""
    return _unpack(_pack(v))[0]


class error(Exception):
    """cv2.error: raised where cv2 raises it (bad sizes, unsupported depth or channel count)."""


def fail(fn, msg):
    """cv2's error for a bad argument, prefixed with the public name."""
    return error(f"[mnn.cv.{fn}] {msg}")


_NUMPY_NDARRAY = [None]  # numpy.ndarray once as_image met one (mnn.cv never imports numpy itself)


def as_image(src, fn, name="src"):
    """An input image as an mnn ndarray (numpy arrays are taken zero-copy through the buffer protocol)."""
    # The two usual callers' types first, by identity: the general path's isinstance and type-name
    # tests cost ~0.6 us, more than the zero-copy import itself.
    t = src.__class__
    if t is _NUMPY_NDARRAY[0]:
        c = src.dtype.char
        if c in _BUFFER_CHARS:
            try:
                r = _core.from_buffer(src)
            except (TypeError, ValueError):
                r = None
            if r is not None:
                return _narrow(r) if c in _WIDE_CHARS else r
    elif t is _core.ndarray:
        return _narrow(src) if src.dtype.char in _WIDE_CHARS else src
    if src is None:
        raise fail(fn, f"'{name}' is None (cv2: !_{name}.empty())")
    if isinstance(src, _np.ndarray):
        return _narrow(src) if src.dtype.char in _WIDE_CHARS else src
    # A numpy array of a plain numeric dtype (the usual cv2-style caller): its buffer directly,
    # which is what mnn.numpy.asarray ends in, without its ~5 us of dispatch on the argument.
    # Other dtypes (strings, bfloat16, objects) and anything the buffer import refuses take the
    # general path below.
    if t.__name__ == "ndarray" and t.__module__ == "numpy" and src.dtype.char in _BUFFER_CHARS:
        _NUMPY_NDARRAY[0] = t
        try:
            r = _core.from_buffer(src)
        except (TypeError, ValueError):
            r = None
        if r is not None:
            return _narrow(r) if src.dtype.char in _WIDE_CHARS else r
    try:
        return _narrow(_np.asarray(src))
    except (TypeError, ValueError) as e:
        raise TypeError(f"[mnn.cv.{fn}] Expected Ptr<cv::UMat> for argument '{name}'") from e


def _narrow(a):
    """cv2's Python binding turns an int64 / uint64 array into int32 before any function sees it,
    keeping the low 32 bits (2**40 + 5 -> 5); mnn does the same, so every function's answer on
    64-bit integers is its int32 answer, as in cv2."""
    if a.dtype.char in _WIDE_CHARS and a.dtype.itemsize == 8:
        return a.astype("int32")
    return a


# dtype chars of 64-bit integers (numpy's and mnn's): narrowed to int32 on the way in
_WIDE_CHARS = frozenset("qQlL")


# numpy dtype chars whose arrays mnn imports zero-copy through the buffer protocol
_BUFFER_CHARS = frozenset("?bBhHiIlLqQefdFD")


def memo_type(src):
    """The type a wrapper may memoise a validated call on `src` under, or None: mnn arrays, and
    numpy arrays of a dtype that as_image imports through the buffer protocol (not a subclass)."""
    t = type(src)
    if t is _core.ndarray:
        return t
    if t.__name__ == "ndarray" and t.__module__ == "numpy" and src.dtype.char in _BUFFER_CHARS:
        return t
    return None


def contiguous(img):
    """A validated image (an mnn ndarray, ndim >= 1) as a C-contiguous array, zero-copy when it is
    one already. The engine's as_contiguous directly: mnn.numpy.ascontiguousarray's argument
    handling costs ~3 us, a visible share of a cv op on a small image (or a 0.15 ms resize)."""
    if type(img) is _core.ndarray:
        return _core.as_contiguous(img)
    return _np.ascontiguousarray(img)


def channels(img):
    """cv2's channel count: a 2-d image has 1, an HxWxC image has C."""
    return 1 if img.ndim == 2 else img.shape[2]


def setNumThreads(nthreads):
    """cv2.setNumThreads sizes the engine's shared pool: 0 runs on the calling thread only (cv2 turns
    threading off), a negative value restores the default (one thread per core)."""
    n = int(nthreads)
    _core.set_num_threads(1 if n == 0 else (0 if n < 0 else n))


def getNumThreads():
    return _core.get_num_threads()


def int_arg(v, fn, name):
    """An int parameter as cv2's binding takes it: None is 0 (cv2 passes the C default), a Python or
    numpy integer must fit a C int, and anything else (a float included) is refused."""
    if v is None:
        return 0
    if isinstance(v, float) or not hasattr(v, "__index__"):
        raise TypeError(f"[mnn.cv.{fn}] Argument '{name}' is required to be an integer")
    i = v.__index__()
    if not -2147483648 <= i <= 2147483647:
        raise TypeError(f"[mnn.cv.{fn}] integer won't fit into a C int (argument '{name}')")
    return i
