"""numpy's floating-point error state: seterr, geterr, errstate, seterrcall, geterrcall.

The state is kept per thread (numpy keeps it per context) and errstate restores it on exit.
The engine reports integer division by zero and negative integer powers as numpy does whatever
the state; floating-point conditions (1/0 -> inf, 0/0 -> nan) produce numpy's values but are not
yet turned into RuntimeWarnings or FloatingPointErrors, so 'raise' and 'warn' are recorded and
returned by geterr without changing results.
"""
import contextlib
import threading

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
