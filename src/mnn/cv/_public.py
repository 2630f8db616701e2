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

3. An output argument is written. cv2.flip(img, 1, dst=out) fills `out` (and returns it) when out
already has the result's shape and dtype, else it returns a new array and leaves out alone; code
that preallocates buffers relies on the first. The functions compute their result as usual; the
wrapper copies it into the caller's array (numpy or mnn) when it fits. _OUTPUTS says which
parameters are outputs and which element of a tuple result each receives.
"""
import functools
import inspect

from .. import _core
from .. import numpy as _np
from ._common import error

# Python's conversion errors, and the public type each is re-raised as.
_RENAMED = ((AttributeError, TypeError), (TypeError, TypeError), (OverflowError, OverflowError),
            (IndexError, IndexError), (KeyError, ValueError), (ValueError, ValueError))


# parameter name -> index in the function's result (None: the whole result); an entry per function
# whose result is a tuple, else _SINGLE_OUTPUTS for every function with one of those parameters.
_OUTPUTS = {
    "threshold": {"dst": 1},
    "cartToPolar": {"magnitude": 0, "angle": 1},
    "polarToCart": {"x": 0, "y": 1},
    "connectedComponents": {"labels": 1},
    "connectedComponentsWithStats": {"labels": 1, "stats": 2, "centroids": 3},
    "convertMaps": {"dstmap1": 0, "dstmap2": 1},
    "split": {}, "imencode": {}, "minMaxLoc": {}, "meanStdDev": {},
}
_SINGLE_OUTPUTS = ("dst", "edges", "hist", "iM", "patch", "approxCurve", "hull", "points", "magnitude", "angle")


def _output_params(f, name):
    """[(position, parameter name, result index)] of f's output arguments."""
    try:
        params = list(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        return ()
    table = _OUTPUTS.get(name)
    if table is None:
        table = {p: None for p in _SINGLE_OUTPUTS if p in params}
        if len(table) > 1:  # several outputs but no entry saying where each goes: leave them alone
            return ()
    return tuple(sorted((params.index(p), p, i) for p, i in table.items() if p in params))


def _write_outputs(outs, args, kwargs, result, prefix):
    """cv2's output arguments: each one given with the shape and dtype of its result is filled."""
    parts = list(result) if isinstance(result, tuple) else None
    for pos, pname, idx in outs:
        d = kwargs.get(pname) if kwargs else None
        if d is None and len(args) > pos:
            d = args[pos]
        if d is None or not hasattr(d, "shape"):
            continue
        r = result if idx is None else (parts[idx] if parts is not None and idx < len(parts) else None)
        if r is None or r is d or not hasattr(r, "shape"):
            continue
        if tuple(d.shape) != tuple(r.shape) or str(d.dtype) != str(r.dtype):
            continue  # cv2 allocates a new array then, and the argument keeps its contents
        try:
            if isinstance(d, _np.ndarray):
                d[...] = r
            else:  # a numpy array (or another buffer): numpy's assignment takes the mnn array's __array__
                import numpy
                d[...] = numpy.asarray(r)
        except ValueError as e:
            raise ValueError(f"{prefix} output array '{pname}': {e}") from e
        if idx is None:
            result = d
        else:
            parts[idx] = d
    return tuple(parts) if parts is not None else result


_CAUGHT = (AttributeError, TypeError, OverflowError, IndexError, KeyError, ValueError, MemoryError, error)


def _renamed(e, prefix):
    """The exception a wrapped function's error e becomes, or None where it names the function already."""
    msg = str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)
    if msg.startswith(prefix):
        return None
    if msg.startswith("[mnn.cv") and "] " in msg:
        # another public cv function's error (imwrite encoding through imencode, blobFromImage
        # resizing through resize): named after the function the caller called
        inner, msg = msg[1:].split("] ", 1)
        return type(e)(f"{prefix} {msg} (in {inner})")
    if msg.startswith("[mnn.") and "] " in msg:  # raised by an mnn.numpy function the cv one called
        inner, msg = msg[1:].split("] ", 1)
        msg = f"{msg} (in {inner})"
    if isinstance(e, (MemoryError, error)):
        return type(e)(f"{prefix} {msg or 'out of memory'}")
    public = next(pub for cls, pub in _RENAMED if isinstance(e, cls))
    return public(f"{prefix} {msg}")


def _named(f, qualname):
    prefix = f"[{qualname}]"
    outs = _output_params(f, qualname.rsplit(".", 1)[-1])
    out_names = frozenset(p for _, p, _ in outs)
    ndarray = _core.ndarray

    if not outs:
        # Most functions have no output argument: a leaner wrapper (~0.2 us less a call), the same work.
        @functools.wraps(f)
        def call(*args, **kwargs):
            try:
                result = f(*args, **kwargs)
            except _CAUGHT as e:
                new = _renamed(e, prefix)
                if new is None:
                    raise
                raise new from e
            if result.__class__ is ndarray:  # the common case, inlined
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

    @functools.wraps(f)
    def call(*args, **kwargs):
        try:
            result = f(*args, **kwargs)
        except _CAUGHT as e:
            new = _renamed(e, prefix)
            if new is None:
                raise
            raise new from e
        if len(args) > outs[0][0] or (kwargs and not out_names.isdisjoint(kwargs)):
            result = _write_outputs(outs, args, kwargs, _as_cv2_returns(result, args) if not isinstance(result, tuple)
                                    else tuple(_as_cv2_returns(r, args) for r in result), prefix)
            return result
        if result.__class__ is ndarray:  # the common case, inlined: a call costs ~0.1 us
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
