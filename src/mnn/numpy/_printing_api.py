"""numpy's printing functions that _printing.py's formatter already supports underneath:
array2string, array_repr, array_str, format_float_positional, format_float_scientific."""
import sys

from . import _printing
from ._creation import asarray  # (keeps string arrays: they print too)


def _mnp():
    return sys.modules["mnn.numpy"]


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ", prefix="",
                 style=None, formatter=None, threshold=None, edgeitems=None, sign=None, floatmode=None,
                 suffix="", *, legacy=None):
    """The text of str(a) (or with another separator/prefix/suffix), under the given print options."""
    a = asarray(a)
    from ._ndarray import _flat
    with _mnp().printoptions(linewidth=max_line_width, precision=precision, suppress=suppress_small,
                             formatter=formatter, threshold=threshold, edgeitems=edgeitems, sign=sign,
                             floatmode=floatmode, legacy=legacy):
        opts = _printing._options.get()
        if a.dtype.kind == "U":
            from ._strings_io import body_text
            return body_text(a, separator, prefix, suffix)
        if a.ndim == 0 and opts["legacy"] > 113:
            return _printing.scalar_str(a.item(), a.dtype.name) if not formatter else \
                _printing._array2string(_flat(a), (), a.dtype.name, opts, separator, prefix, suffix)
        return _printing._array2string(_flat(a), tuple(a.shape), a.dtype.name, opts, separator, prefix, suffix)


def _float_arg(x, fn):
    if hasattr(x, "dtype") and getattr(x, "ndim", 0) == 0:
        dt = x.dtype.name
        if x.dtype.kind != "f":
            raise TypeError(f"[mnn.numpy.{fn}] not a float")
        return float(x.item() if hasattr(x, "item") else x), dt
    if isinstance(x, float):
        return x, "float64"
    if isinstance(x, int) and not isinstance(x, bool):
        return float(x), "float64"
    raise TypeError(f"[mnn.numpy.{fn}] not a float")


def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k", sign=False,
                            pad_left=None, pad_right=None, min_digits=None):
    value, dt = _float_arg(x, "format_float_positional")
    precision = -1 if precision is None else precision
    min_digits = -1 if min_digits is None else min_digits
    if precision < -1 or (precision == -1 and not unique):
        raise ValueError("[mnn.numpy.format_float_positional] precision must be >= 0")
    if trim not in "k.0-" or len(trim) != 1:
        raise ValueError("[mnn.numpy.format_float_positional] trim must be one of 'k', '.', '0', '-'")
    if not unique and min_digits > precision >= 0:
        raise ValueError("[mnn.numpy.format_float_positional] min_digits must be less than or equal to precision")
    return _printing.format_positional(value, dt, precision, min_digits, unique, fractional, trim, sign,
                                       -1 if pad_left is None else pad_left, -1 if pad_right is None else pad_right)


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False, pad_left=None, exp_digits=None,
                            min_digits=None):
    value, dt = _float_arg(x, "format_float_scientific")
    precision = -1 if precision is None else precision
    min_digits = -1 if min_digits is None else min_digits
    if precision < -1 or (precision == -1 and not unique):
        raise ValueError("[mnn.numpy.format_float_scientific] precision must be >= 0")
    if not unique and min_digits > precision >= 0:
        raise ValueError("[mnn.numpy.format_float_scientific] min_digits must be less than or equal to precision")
    return _printing.format_scientific(value, dt, precision, min_digits, unique, trim, sign,
                                       -1 if pad_left is None else pad_left, -1 if exp_digits is None else exp_digits)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    mnp = _mnp()
    opts = {k: v for k, v in (("linewidth", max_line_width), ("precision", precision),
                              ("suppress", suppress_small)) if v is not None}
    with mnp.printoptions(**opts):
        return repr(asarray(arr))


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    mnp = _mnp()
    opts = {k: v for k, v in (("linewidth", max_line_width), ("precision", precision),
                              ("suppress", suppress_small)) if v is not None}
    with mnp.printoptions(**opts):
        return str(asarray(a))
