"""Array API standard (2024.12) pieces that numpy spells differently or not at all: the inspection
namespace (__array_namespace_info__) and the free function astype. The rest of the standard's names
are numpy's own and live with their families."""
from . import _dtypes
from ._common import asarray

_DEVICE = "cpu"  # the engine's CPU backend; arrays report this from .device


def astype(x, dtype, /, *, copy=True, device=None):
    """Array API astype: x converted to dtype; copy=False returns x itself when nothing changes."""
    x = asarray(x)
    if device not in (None, _DEVICE):
        raise ValueError(f"[mnn.numpy.astype] unsupported device {device!r}")
    return x.astype(dtype, copy=copy)


# Kinds of isdtype, in the order numpy's namespace info lists dtypes.
_ORDER = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128")


class _Info:
    """What __array_namespace_info__() returns: the library's capabilities, devices and dtypes."""
    __module__ = "mnn.numpy"

    def capabilities(self):
        # boolean masks and unique/nonzero have data-dependent shapes; the engine caps ndim at 64
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return _DEVICE

    def devices(self):
        return [_DEVICE]

    def _check_device(self, device, api):
        if device not in (None, _DEVICE):
            raise ValueError(f"[mnn.numpy.__array_namespace_info__.{api}] unsupported device {device!r}")

    def default_dtypes(self, *, device=None):
        self._check_device(device, "default_dtypes")
        return {"real floating": _dtypes.dtype("float64"), "complex floating": _dtypes.dtype("complex128"),
                "integral": _dtypes.dtype("int64"), "indexing": _dtypes.dtype("int64")}

    def dtypes(self, *, device=None, kind=None):
        """The Array API dtypes mnn supports, as {name: dtype}, optionally only those of `kind`
        (an isdtype kind: a name like 'integral', a dtype, or a tuple of them)."""
        self._check_device(device, "dtypes")
        out = {}
        for name in _ORDER:
            d = _dtypes.dtype(name)
            if kind is None or _dtypes.isdtype(d, kind):
                out[name] = d
        return out


_INFO = _Info()


def __array_namespace_info__():
    return _INFO
