"""String arrays ('<U') in files and text: numpy's .npy layout, loadtxt's results, and numpy's
printing (repr'd elements, line wrapping, summarisation with '...')."""
import sys

from .. import _core
from . import _printing
from ._strings import _U32, StrArray, _decode, _encode, _prod, _width


def _np():
    return sys.modules["mnn.numpy"]


# ------------------------------------------------------------------ .npy files (numpy's '<U' layout)


def asarray_any(x):
    """np.save's operand: a StrArray stays one; anything else is the package's asarray."""
    return x if isinstance(x, StrArray) else _np().asarray(x)


def write_npy(fh, a, header_bytes):
    header, _ = header_bytes(_HeaderView(a))
    fh.write(header)
    if a.size and a._n:
        c = a._cp if a._cp._is_c_contiguous else _core.as_contiguous(a._cp)
        fh.write(memoryview(c).cast("B").tobytes())


def finish_text(flat, n, ncols, dt, ndmin, unpack, fn):
    """loadtxt's result for a string dtype: numpy's squeezing of single rows/columns and ndmin."""
    if ndmin not in (0, 1, 2):
        raise ValueError(f"[mnn.numpy.{fn}] Illegal value of ndmin keyword: {ndmin}")
    a = StrArray(_encode(flat, dt.itemsize // 4 or _width(flat), [n, ncols] if n else [0]))
    shape = a.shape
    if a.ndim == 2:
        if ndmin < 2:
            if shape[0] == 1 and shape[1] == 1:
                a = a.reshape([] if ndmin == 0 else [1])
            elif shape[0] == 1 or shape[1] == 1:
                a = a.reshape([shape[0] * shape[1]])
    elif ndmin == 2:
        a = a.reshape([a.shape[0], 1] if a.ndim == 1 else [1, 1])
    if unpack:
        return a.T if a.ndim > 1 else a
    return a


class _HeaderView:
    """What the .npy header writer reads: dtype and shape of a C-order array."""

    def __init__(self, a):
        self.dtype, self.shape, self.ndim, self.size = a.dtype, a.shape, 0, a.size


def from_npy_bytes(data, dt, shape, fortran):
    n = dt.itemsize // 4
    count = _prod(shape)
    if count == 0 or n == 0:
        return StrArray(_core.full(list(shape) + [max(n, 1)], _core.scalar(0, _U32), _U32))
    cp = _core.from_buffer(memoryview(data).cast("B"), _U32)
    if fortran and len(shape) > 1:
        r = StrArray(_core.reshape(cp, list(shape[::-1]) + [n]))
        return r.T
    return StrArray(_core.reshape(cp, list(shape) + [n]))


# ------------------------------------------------------------------ printing (numpy's layout, repr'd elements)


class _Lazy:
    """Flat element access that decodes only the elements the printer shows."""

    def __init__(self, a):
        self._a = a
        self._flat = _core.reshape(a._cp if a._cp._is_c_contiguous else _core.as_contiguous(a._cp), [-1, a._n])

    def __getitem__(self, i):
        return _decode(self._flat[i])[0]


def body_text(a, separator, prefix, suffix):
    """numpy's _array2string for strings: repr'd elements, numpy's wrapping and summarisation."""
    opts = _printing._options.get()
    legacy = opts["legacy"]
    if a.size == 0:
        return "[]"
    if a.shape == ():
        return repr(a.item())
    summary = "..." if a.size > opts["threshold"] else ""
    flat = _Lazy(a) if summary else _decode(a._cp)
    line_width = opts["linewidth"] - (len(suffix) if legacy > 113 else 0)
    fmt = repr
    formatter = opts.get("formatter")
    if formatter:
        for key in ("numpystr", "str_kind", "all"):
            if formatter.get(key) is not None:
                fmt = formatter[key]
                break
    return _printing._format_array(flat, a.shape, fmt, line_width, " " + " " * len(prefix), separator,
                                   opts["edgeitems"], summary, legacy)


def format_array(a, is_repr):
    opts = _printing._options.get()
    shape = a.shape
    size = a.size
    if not is_repr and shape == ():
        return a.item()
    if not is_repr:
        return body_text(a, " ", "", "")
    prefix = "array("
    body = body_text(a, ", ", prefix, ")")
    legacy = opts["legacy"]
    extras = []
    if (size == 0 and shape != (0,)) or (legacy > 210 and size > opts["threshold"]):
        extras.append(f"shape={shape}")
    extras.append(f"dtype={a.dtype.str!r}")
    arr_str = prefix + body + ","
    extra_str = ", ".join(extras) + ")"
    last_line_len = len(arr_str) - (arr_str.rfind("\n") + 1)
    spacer = " "
    if legacy > 113 and last_line_len + len(extra_str) + 1 > opts["linewidth"]:
        spacer = "\n" + " " * len(prefix)
    return arr_str + spacer + extra_str
