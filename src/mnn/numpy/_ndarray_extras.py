"""ndarray methods numpy code calls that the core method table (_ndarray.py) leaves out:
a.flat, a.repeat, a.trace, `x in a`, divmod(a, b)."""
from ._common import asarray, ndarray


def _contains(self, value):
    # numpy: (a == value).any(); never an element-by-element Python loop
    from ._reductions import any as _any
    return bool(_any(self == value))


def _divmod(self, other):
    from ._math_funcs import divmod_
    return divmod_(self, other)


def _rdivmod(self, other):
    from ._math_funcs import divmod_
    return divmod_(asarray(other), self)


def _repeat(self, repeats, axis=None):
    from ._shaping import repeat
    return repeat(self, repeats, axis)


def _trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    from ._shaping import trace
    return trace(self, offset, axis1, axis2, dtype, out)


def _flat_get(self):
    from ._index_tricks import flatiter
    return flatiter(self)


def _flat_set(self, value):
    from ._index_tricks import flatiter
    flatiter(self)[...] = value


def install():
    for name, fn in (("__contains__", _contains), ("__divmod__", _divmod), ("__rdivmod__", _rdivmod),
                     ("repeat", _repeat), ("trace", _trace)):
        if name not in ndarray.__dict__:
            setattr(ndarray, name, fn)
    if "flat" not in ndarray.__dict__:
        ndarray.flat = property(_flat_get, _flat_set)

