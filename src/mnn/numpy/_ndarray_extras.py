"""ndarray methods numpy code calls that the core method table (_ndarray.py) leaves out:
a.flat, a.repeat, a.trace, `x in a`, divmod(a, b), hash() of 0-d arrays (numpy scalars)."""
from .. import _core
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


def _hash(self):
    # mnn hands out numpy's scalars (a[i], a.sum(), iteration) as 0-d arrays; numpy's scalars are
    # hashable with their Python value's hash, so dict/set/Counter code keeps working. Arrays with
    # dimensions stay unhashable, as in numpy.
    if self.ndim != 0:
        raise TypeError("unhashable type: 'mnn.numpy.ndarray'")
    return hash(_core.item(self, 0))


_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")


def _array_namespace(self, *, api_version=None):
    # numpy's rule: None or one of the versions the namespace implements
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError(f'[mnn.numpy.ndarray.__array_namespace__] Version "{api_version}" of the Array API '
                         "Standard is not supported.")
    import sys
    return sys.modules["mnn.numpy"]


def _setflags(self, write=None, align=None, uic=None):
    # the flags object owns the rule (a read-only array cannot be made writeable again)
    if write is not None:
        self.flags.writeable = write


def _byteswap(self, inplace=False):
    """Each element's bytes reversed (values reinterpreted in the other byte order)."""
    item = self.dtype.itemsize
    if item == 1 or self.size == 0:
        r = _core.copy(self)
    else:
        src = self if self._is_c_contiguous else _core.as_contiguous(self)
        raw = memoryview(src).cast("B").tobytes()
        if self.dtype.kind == "c":  # numpy swaps the real and imaginary parts separately
            item //= 2
        swapped = bytearray(len(raw))
        for k in range(item):  # byte k of every element goes to position item-1-k
            swapped[item - 1 - k::item] = raw[k::item]
        r = _core.reshape(_core.from_buffer(memoryview(swapped), self.dtype._code), list(self.shape))
    if inplace:
        self[...] = r
        return self
    return r


def _array_interface(self):
    # numpy's array interface (version 3) for consumers that read it directly (Pillow's
    # Image.fromarray, ...). `data` is a buffer object rather than a raw pointer, so the memory
    # stays pinned while the consumer holds it; numpy itself prefers the buffer protocol.
    # A strided array exports a C-ordered copy, described by explicit strides: consumers that
    # take the object's own buffer when strides is None (Pillow) then use tobytes() instead.
    if self.dtype._code == 12:
        # bfloat16 has no buffer format: without the interface numpy falls back to __array__
        raise AttributeError("[mnn.numpy] bfloat16 arrays have no __array_interface__; use np.asarray(x)")
    contiguous = self._is_c_contiguous
    src = self if contiguous else _core.as_contiguous(self)
    strides = None if contiguous else tuple(src.strides)
    return {"shape": tuple(self.shape), "typestr": self.dtype.str, "descr": [("", self.dtype.str)],
            "data": memoryview(src), "strides": strides, "version": 3}


def _set_shape(self, shape):
    # numpy: only a reshape that is a view of the same memory may change an array's shape in place
    from ._common import shape_tuple
    new = _core.reshape(self, shape_tuple(shape))
    if not new._same_storage(self):
        raise AttributeError("[mnn.numpy.ndarray.shape] Incompatible shape for in-place modification. Use "
                             "`.reshape()` to make a copy with the desired shape.")
    self._rewindow(new)


def _flat_get(self):
    from ._index_tricks import flatiter
    return flatiter(self)


def _flat_set(self, value):
    from ._index_tricks import flatiter
    flatiter(self)[...] = value


def install():
    for name, fn in (("__contains__", _contains), ("__divmod__", _divmod), ("__rdivmod__", _rdivmod),
                     ("repeat", _repeat), ("trace", _trace),
                     ("setflags", _setflags), ("byteswap", _byteswap)):
        if name not in ndarray.__dict__:
            setattr(ndarray, name, fn)
    ndarray.__array_namespace__ = _array_namespace
    shape_prop = ndarray.__dict__["shape"]
    if shape_prop.fset is None:
        ndarray.shape = property(shape_prop.fget, _set_shape, doc="Tuple of array dimensions (settable, as numpy's).")
    if ndarray.__dict__.get("__hash__") is None:  # pybind11 sets None next to a custom __eq__
        ndarray.__hash__ = _hash
    if "__array_interface__" not in ndarray.__dict__:
        ndarray.__array_interface__ = property(_array_interface)
    if "flat" not in ndarray.__dict__:
        ndarray.flat = property(_flat_get, _flat_set)

