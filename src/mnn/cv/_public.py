"""What every public mnn.cv function does the same way, applied once by wrapping each of them.

1. It names itself in the errors it raises.

The functions validate what cv2 validates and raise `[mnn.cv.<name>] ...` themselves; but a bad
scalar argument (a string for a flag, an array for a size, None for a sigma) fails inside Python's
own conversions with a message that names no function. Wrapping each exported function once, here,
gives those errors the same prefix (and keeps the original as __cause__) without a try block in
every function. An error an mnn.numpy function raised on the cv function's behalf is renamed the
same way, naming the inner function at the end.

2. A single-channel image comes back 2-d. cv2 hands every one-channel Mat to Python as an HxW
array, so an HxWx1 input gives HxW results (blur, threshold, add, LUT, ...); the kernels keep the
input's layout, and the wrapper drops the unit channel axis (a view). Arrays a function returns
as given (the drawing functions draw into their argument) are left as they are.
"""
import functools
import inspect

from .. import _core
from .. import numpy as _np

# Python's conversion errors, and the public type each is re-raised as.
_RENAMED = ((AttributeError, TypeError), (TypeError, TypeError), (OverflowError, OverflowError),
            (IndexError, IndexError), (KeyError, ValueError), (ValueError, ValueError))


def _named(f, qualname):
    prefix = f"[{qualname}]"

    @functools.wraps(f)
    def call(*args, **kwargs):
        try:
            result = f(*args, **kwargs)
        except (AttributeError, TypeError, OverflowError, IndexError, KeyError, ValueError) as e:
            msg = str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)
            if msg.startswith("[mnn.cv"):
                raise
            if msg.startswith("[mnn.") and "] " in msg:  # raised by an mnn.numpy function the cv one called
                inner, msg = msg[1:].split("] ", 1)
                msg = f"{msg} (in {inner})"
            public = next(pub for cls, pub in _RENAMED if isinstance(e, cls))
            raise public(f"{prefix} {msg}") from e
        if type(result) is _core.ndarray:  # the common case, inlined: a call costs ~0.1 us
            for a in args:
                if result is a:
                    return result
            shape = result.shape
            if len(shape) == 3 and shape[2] == 1:
                return result.reshape(shape[:2])
            return result
        if isinstance(result, tuple):
            return tuple(_as_cv2_returns(r, args) for r in result)
        return _as_cv2_returns(result, args)

    return call


def _as_cv2_returns(r, args):
    for a in args:
        if r is a:
            return r  # handed back as given (the drawing functions' image): tested first, being cheap
    if isinstance(r, _np.ndarray):
        shape = r.shape  # one engine call (ndim would be another)
        if len(shape) == 3 and shape[2] == 1:
            return r.reshape(shape[:2])
    return r


def wrap_public(namespace, module_name, defined_in="mnn.cv"):
    """Wraps the public functions of `namespace` (a module's globals) defined in modules whose name
    starts with `defined_in`, in place."""
    for name, obj in list(namespace.items()):
        if name.startswith("_") or not inspect.isfunction(obj) or getattr(obj, "__wrapped__", None):
            continue
        if not obj.__module__.startswith(defined_in):
            continue
        namespace[name] = _named(obj, f"{module_name}.{name}")
