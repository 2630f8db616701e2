"""Writing a result into the caller's array, for the cv2 functions that fill their argument
(patchNaNs, setIdentity, randu, insertChannel, accumulate, floodFill, ...): cv2's binding hands the
numpy array's memory to C++, so the caller sees the change; mnn does the same for numpy arrays
(numpy's assignment reads the mnn result through __array__) and for mnn arrays (setitem writes
through views to their base)."""
from .. import numpy as _np
from ._common import fail


def write_back(dst, r, fn):
    """Copies r (same shape) into dst and returns dst."""
    try:
        if isinstance(dst, _np.ndarray):
            dst[...] = r
        else:
            import numpy
            if not dst.flags.writeable:
                raise fail(fn, "the output array is read-only")
            dst[...] = numpy.asarray(r).reshape(dst.shape)
    except (ValueError, TypeError) as e:
        if str(e).startswith("[mnn.cv"):
            raise
        raise fail(fn, f"cannot write the result into the given array: {e}") from e
    return dst
