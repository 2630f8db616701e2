"""numpy's floating-point error state: seterr, geterr, errstate, seterrcall, geterrcall.

The state is kept per thread (numpy keeps it per context) and errstate restores it on exit.

The engine reads the IEEE status flags (divide by zero, overflow, invalid) that each kernel step
raised, on every pool thread, and reports them with the name of the ufunc that raised them (the
fused interpreter tests the flags after each instruction, so a fused chain still names the right
op; NaN compares, which set 'invalid' in hardware, are not reported, as in numpy); `_report`
then warns, raises FloatingPointError, calls, prints or logs as numpy does.  Evaluation is lazy, so the report comes when the result is
computed (printing, tolist, np.asarray, mnn.eval, ...) and follows the errstate in force *then*:
compute inside the `with errstate(...)` block what must obey it.  Underflow is never reported
('ignore' is numpy's default for it too).
"""
import contextlib
import sys
import threading
import warnings

_MODES = ("ignore", "warn", "raise", "call", "print", "log")
_KEYS = ("divide", "over", "under", "invalid")
_DEFAULT = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
_local = threading.local()


def _state():
    st = getattr(_local, "state", None)
    if st is None:
        st = _local.state = {"err": dict(_DEFAULT), "call": None}
    return st


def geterr():
    """The current handling of each floating-point error kind, as a new dict."""
    return dict(_state()["err"])


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Sets how floating-point errors are handled; returns the previous settings."""
    st = _state()
    old = dict(st["err"])
    new = dict(old)
    if all is not None:
        new.update({k: all for k in _KEYS})
    for k, v in (("divide", divide), ("over", over), ("under", under), ("invalid", invalid)):
        if v is not None:
            new[k] = v
    for k, v in new.items():
        if v not in _MODES:
            raise ValueError(f"[mnn.numpy.seterr] invalid error mode {v!r} for {k!r}; expected one of "
                             f"{', '.join(_MODES)}")
    st["err"] = new
    return old


def geterrcall():
    return _state()["call"]


def seterrcall(func):
    if func is not None and not callable(func) and not hasattr(func, "write"):
        raise ValueError("[mnn.numpy.seterrcall] Only callable can be used as callback")
    st = _state()
    old, st["call"] = st["call"], func
    return old


class errstate(contextlib.ContextDecorator):
    """with errstate(divide='ignore'): ... -- sets the error state and restores it on exit."""

    def __init__(self, *, call=None, all=None, divide=None, over=None, under=None, invalid=None):
        self._call = call
        self._kw = {"all": all, "divide": divide, "over": over, "under": under, "invalid": invalid}
        self._saved = []

    def __enter__(self):
        st = _state()
        self._saved.append((dict(st["err"]), st["call"]))
        try:
            seterr(**self._kw)
        except ValueError:
            self._saved.pop()
            raise
        if self._call is not None:
            seterrcall(self._call)
        return self

    def __exit__(self, *exc):
        st = _state()
        st["err"], st["call"] = self._saved.pop()
        return False


# numpy's wording per category, and the status bits it hands to a 'call' callback.
_TEXT = {"divide": "divide by zero", "over": "overflow", "under": "underflow", "invalid": "invalid value"}
_BITS = {"divide": 1, "over": 2, "under": 4, "invalid": 8}
_pending_bits = {}  # op -> status bits of the current evaluation (a 'call' callback sees them all)


def _report(kind, op):
    """Called by the engine (mnn._core) for each floating-point condition an evaluation met."""
    st = _state()
    mode = st["err"][kind]
    if mode == "ignore":
        return
    msg = f"{_TEXT[kind]} encountered in {op}"
    if mode == "warn":
        warnings.warn(msg, RuntimeWarning, stacklevel=3)  # past _report_all: the line that evaluated
    elif mode == "raise":
        raise FloatingPointError(msg)
    elif mode == "print":
        sys.stderr.write(f"Warning: {msg}\n")
    elif mode == "call":
        fn = st["call"]
        if fn is None:
            raise ValueError(f"[mnn.numpy.errstate] No callback set for floating-point error mode 'call' ({msg})")
        fn(_TEXT[kind], _pending_bits.get(op, _BITS[kind]))
    else:  # log
        fn = st["call"]
        if fn is None or not hasattr(fn, "write"):
            raise ValueError(f"[mnn.numpy.errstate] No object with a write method set for floating-point error "
                             f"mode 'log' ({msg})")
        fn.write(f"Warning: {msg}\n")


def _report_all(errors):
    """errors: [(kind, op)] of one evaluation, in numpy's order (divide, over, invalid per op)."""
    _pending_bits.clear()
    for kind, op in errors:
        _pending_bits[op] = _pending_bits.get(op, 0) | _BITS[kind]
    for kind, op in errors:
        _report(kind, op)
