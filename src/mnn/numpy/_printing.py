"""NumPy-identical text formatting of arrays and scalars, standard library only.

The output of ``repr``/``str`` is part of NumPy's observable behaviour (doctests,
logs, user code that parses it), so this module reproduces NumPy 2.4's
``arrayprint`` rules exactly instead of approximating them.  Floats are printed
with an exact-integer port of NumPy's Dragon4 digit generator, which is what
makes float16/float32 print their *shortest round-trip digits in that type*
(``float32(0.1)`` -> ``0.1``) and makes the precision cut-offs round the same
way NumPy does.

Array inputs are ``(flat, shape, dtype_name)``: ``flat`` lists the elements in
C order as Python bool/int/float.
"""

import contextlib
import contextvars
import inspect
import math
import numbers
import operator
import struct
import sys
import warnings

__all__ = ["array_repr", "array_str", "scalar_repr", "scalar_str",
           "set_printoptions", "get_printoptions", "printoptions"]

# --------------------------------------------------------------------------
# Print options (a ContextVar, like NumPy, so threads/async tasks and the
# ``printoptions`` context manager don't leak settings into each other).
# --------------------------------------------------------------------------

_DEFAULT_OPTIONS = {
    "edgeitems": 3, "threshold": 1000, "floatmode": "maxprec", "precision": 8,
    "suppress": False, "linewidth": 75, "nanstr": "nan", "infstr": "inf",
    "sign": "-", "formatter": None,
    "legacy": sys.maxsize,  # stored as an int so modes compare with <=
    "override_repr": None,  # kept only so get_printoptions() matches NumPy's keys
}
_options = contextvars.ContextVar("mnn_format_options", default=_DEFAULT_OPTIONS)
_LEGACY_CODES = {"1.13": 113, "1.21": 121, "1.25": 125, "2.1": 201, "2.2": 202}
_LEGACY_NAMES = {v: k for k, v in _LEGACY_CODES.items()}
_LEGACY_NAMES[sys.maxsize] = False
_FLOATMODES = ("fixed", "unique", "maxprec", "maxprec_equal")


def _make_options(params):
    """Validate the non-None arguments exactly as NumPy does (same errors)."""
    opts = {k: v for k, v in params.items() if v is not None}
    floatmode, sign, legacy = params["floatmode"], params["sign"], params["legacy"]
    if params["suppress"] is not None:
        opts["suppress"] = bool(params["suppress"])
    if floatmode not in _FLOATMODES + (None,):
        raise ValueError("floatmode option must be one of " +
                         ", ".join(f'"{m}"' for m in _FLOATMODES))
    if sign not in (None, "-", "+", " "):
        raise ValueError("sign option must be one of ' ', '+', or '-'")
    if legacy is False:
        opts["legacy"] = sys.maxsize
    elif legacy is not None and not isinstance(legacy, str) and legacy == False:  # noqa: E712
        warnings.warn(f"Passing `legacy={legacy!r}` is deprecated.",
                      FutureWarning, stacklevel=4)
        opts["legacy"] = sys.maxsize
    elif legacy in _LEGACY_CODES:
        opts["legacy"] = _LEGACY_CODES[legacy]
    elif legacy is not None:  # NumPy warns and keeps the previous mode
        del opts["legacy"]
        warnings.warn("legacy printing option can currently only be '1.13', "
                      "'1.21', '1.25', '2.1', '2.2' or `False`", stacklevel=4)
    threshold = params["threshold"]
    if threshold is not None:
        if not isinstance(threshold, numbers.Number):
            raise TypeError("threshold must be numeric")
        if threshold != threshold:
            raise ValueError("threshold must be non-NAN, try sys.maxsize "
                             "for untruncated representation")
    if params["precision"] is not None:
        try:
            opts["precision"] = operator.index(params["precision"])
        except TypeError as e:
            raise TypeError("precision must be an integer") from e
    return opts


def _set_options(params):
    new = _make_options(params)
    new["formatter"] = params["formatter"]  # NumPy always resets the formatter
    updated = {**_options.get(), **new}
    if updated["legacy"] == 113:
        updated["sign"] = "-"
    return _options.set(updated)


def set_printoptions(precision=None, threshold=None, edgeitems=None,
                     linewidth=None, suppress=None, nanstr=None, infstr=None,
                     sign=None, floatmode=None, legacy=None, *, formatter=None):
    """Set printing options; same semantics and defaults as numpy.set_printoptions.

    ``formatter`` maps 'bool', 'int', 'float', 'int_kind', 'float_kind' or
    'all' to a callable taking the element as a Python bool/int/float.
    """
    _set_options(dict(locals()))


def get_printoptions():
    """Return the current print options as a dict (NumPy's keys and values)."""
    opts = dict(_options.get())
    opts["legacy"] = _LEGACY_NAMES[opts["legacy"]]
    return opts


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """Context manager that sets print options for the ``with`` block."""
    bound = inspect.signature(set_printoptions).bind(*args, **kwargs)
    bound.apply_defaults()
    token = _set_options(bound.arguments)
    try:
        yield get_printoptions()
    finally:
        _options.reset(token)


# --------------------------------------------------------------------------
# IEEE helpers
# --------------------------------------------------------------------------

# struct codes (float, same-size uint), explicit mantissa bits, exponent bits
_FLOAT_LAYOUT = {"float16": ("<e", "<H", 10, 5), "float32": ("<f", "<I", 23, 8),
                 "float64": ("<d", "<Q", 52, 11),
                 "bfloat16": ("<f", "<I", 7, 8)}  # struct has no bfloat16: the top half of a float32
# np.finfo(dtype).precision: drives the scientific cut-off for arrays.
_DECIMAL_PRECISION = {"float16": 3, "float32": 6, "float64": 15, "bfloat16": 2}
_IMPLIED_DTYPES = ("int64", "float64", "bool", "complex128")  # omitted from repr
_COMPLEX_PART = {"complex64": "float32", "complex128": "float64"}
_INT_DTYPES = tuple(f"{u}int{b}" for u in ("", "u") for b in (8, 16, 32, 64))


def _round_bfloat16(x):
    # float32 first, then the top 16 bits rounded to nearest even (the engine's conversion); this
    # module loads standalone (tests), so it does not import mnn.numpy._dtypes' copy
    try:
        f = struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)
    if f != f:
        return f
    b = struct.unpack("<I", struct.pack("<f", f))[0]
    b = ((b + 0x7fff + ((b >> 16) & 1)) >> 16) << 16
    return struct.unpack("<f", struct.pack("<I", b & 0xffffffff))[0]


def _to_dtype(x, dtype):
    """Round a Python float to ``dtype`` (as NumPy arithmetic in it would)."""
    if dtype == "float64":
        return x
    if dtype == "bfloat16":
        return _round_bfloat16(x)
    code = _FLOAT_LAYOUT[dtype][0]
    try:
        return struct.unpack(code, struct.pack(code, x))[0]
    except OverflowError:  # struct refuses values that round to inf
        return math.copysign(math.inf, x)


def _decompose(x, dtype):
    """Split ``x`` into (negative, mantissa, exponent, top bit, unequal margins).

    value = mantissa * 2**exponent; mantissa is None for inf/nan.
    """
    fcode, icode, mbits, ebits = _FLOAT_LAYOUT[dtype]
    bits = struct.unpack(icode, struct.pack(fcode, x))[0]
    if dtype == "bfloat16":
        bits >>= 16
    frac = bits & ((1 << mbits) - 1)
    bexp = (bits >> mbits) & ((1 << ebits) - 1)
    negative = bool(bits >> (mbits + ebits))
    bias = (1 << (ebits - 1)) - 1
    if bexp == (1 << ebits) - 1:
        return negative, None, 0, 0, False
    if bexp:
        # normal: the gap below a power of two is half the gap above it
        return (negative, frac | (1 << mbits), bexp - bias - mbits, mbits,
                bexp != 1 and frac == 0)
    return negative, frac, 1 - bias - mbits, max(frac.bit_length() - 1, 0), False


# --------------------------------------------------------------------------
# Dragon4 (Steele & White / Burger & Dybvig, as modified by NumPy), on
# Python ints.  Kept step-for-step with NumPy's so ties and cut-offs round the
# same way: unique mode stops as soon as the digits identify the value (with
# IEEE round-half-even margins), cut-offs round the exact remainder half-even.
# --------------------------------------------------------------------------

_LOG10_2 = 0.30102999566398119521373889472449


def _dragon4(mant, exp, mbit, unequal, unique, total_length, cutoff_max, cutoff_min):
    """Return (digit string, decimal exponent of the first digit)."""
    if mant == 0:
        return "0", 0
    is_even = mant % 2 == 0
    # value = sv/scale; ml (mh) = half the gap to the next lower (higher) float
    shift = 2 if unequal else 1
    if exp > 0:
        sv, scale, ml = mant << (exp + shift), 1 << shift, 1 << exp
    else:
        sv, scale, ml = mant << shift, 1 << (shift - exp), 1
    mh_mult = 2 if unequal else 1
    # estimate of floor(log10(v)) + 1, correct or one too low
    k = math.ceil((mbit + exp) * _LOG10_2 - 0.69)
    if cutoff_max >= 0 and not total_length and k <= -cutoff_max:
        k = -cutoff_max + 1  # too small to reach the cut-off: round there
    if k > 0:
        scale *= 10 ** k
    elif k < 0:
        p = 10 ** -k
        sv, ml = sv * p, ml * p
    if sv >= scale:
        k += 1
    else:
        sv, ml = sv * 10, ml * 10
    max_exp = k - 16384  # NumPy's buffer size; effectively unlimited
    if cutoff_max >= 0:
        max_exp = max(max_exp, k - cutoff_max if total_length else -cutoff_max)
    min_exp = k
    if cutoff_min >= 0:
        min_exp = min(min_exp, k - cutoff_min if total_length else -cutoff_min)
    first_exp = k - 1
    digits = []
    low = high = False
    while True:
        k -= 1
        d, sv = divmod(sv, scale)
        if unique:
            mh = ml * mh_mult
            low = sv <= ml if is_even else sv < ml
            high = sv + mh >= scale if is_even else sv + mh > scale
            if ((low or high) and k <= min_exp) or k == max_exp:
                break
            ml *= 10
        elif sv == 0 or k == max_exp:
            break
        digits.append(d)
        sv *= 10
    round_down = low
    if low == high:  # both or neither margin reached: round to nearest
        cmp = 2 * sv - scale
        round_down = cmp < 0 or (cmp == 0 and d % 2 == 0)
    if round_down:
        digits.append(d)
    elif d < 9:
        digits.append(d + 1)
    else:  # carry: drop trailing nines, bump the previous digit
        while digits and digits[-1] == 9:
            digits.pop()
        if digits:
            digits[-1] += 1
        else:
            digits, first_exp = [1], first_exp + 1
    return "".join(map(str, digits)), first_exp


def _special(x, negative, sign):
    if x != x:
        return "nan"  # NumPy never prints a sign on nan here
    return ("-" if negative else "+" if sign else "") + "inf"


def format_positional(x, dtype, precision=-1, min_digits=-1, unique=True,
                      fractional=True, trim="k", sign=False, pad_left=-1, pad_right=-1):
    """Port of NumPy's dragon4_positional (trim modes 'k', '.', '0', '-')."""
    neg, mant, exp, mbit, unequal = _decompose(x, dtype)
    if mant is None:
        return _special(x, neg, sign)
    sgn = "-" if neg else "+" if sign else ""
    digits, pexp = _dragon4(mant, exp, mbit, unequal, unique, not fractional,
                            precision, min_digits)
    if pexp >= 0:
        whole = pexp + 1
        if len(digits) <= whole:
            body, nfrac = digits + "0" * (whole - len(digits)), 0
        else:
            body, nfrac = digits[:whole] + "." + digits[whole:], len(digits) - whole
    else:
        whole = 1
        body = "0." + "0" * (-pexp - 1) + digits
        nfrac = len(digits) - pexp - 1
    if trim != "-" and nfrac == 0:
        body += "."
    add = min_digits if unique else precision
    want = (add - whole) if not fractional else max(add, 0)
    if trim == "0" and nfrac == 0:
        body, nfrac = body + "0", 1
    elif trim == "k" and want > nfrac:
        body, nfrac = body + "0" * (want - nfrac), want
    if trim != "k" and nfrac > 0:
        stripped = body.rstrip("0")
        nfrac -= len(body) - len(stripped)
        body = stripped
        if body.endswith("."):
            if trim == "0":
                body, nfrac = body + "0", 1
            elif trim == "-":
                body = body[:-1]
    if pad_right >= nfrac:
        if trim == "-" and nfrac == 0:
            body += " "
        body += " " * (pad_right - nfrac)
    out = sgn + body
    return " " * max(pad_left - whole - len(sgn), 0) + out


def format_scientific(x, dtype, precision=-1, min_digits=-1, unique=True,
                      trim="k", sign=False, pad_left=-1, exp_digits=-1):
    """Port of NumPy's dragon4_scientific."""
    neg, mant, exp, mbit, unequal = _decompose(x, dtype)
    if mant is None:
        return _special(x, neg, sign)
    sgn = "-" if neg else "+" if sign else ""
    digits, pexp = _dragon4(mant, exp, mbit, unequal, unique, True,
                            precision + 1 if precision >= 0 else -1,
                            min_digits + 1 if min_digits >= 0 else -1)
    body, nfrac = digits[0], len(digits) - 1
    if nfrac:
        body += "." + digits[1:]
    elif trim != "-":
        body += "."
    add = max(min_digits if unique else precision, 0)
    if trim == "0" and nfrac == 0:
        body, nfrac = body + "0", 1
    elif trim == "k" and add > nfrac:
        body, nfrac = body + "0" * (add - nfrac), add
    if trim != "k" and nfrac > 0:
        body = body.rstrip("0")
        if trim == "0" and body.endswith("."):
            body += "0"
    exp_digits = 2 if exp_digits < 0 else min(exp_digits, 5)
    body += "e" + ("-" if pexp < 0 else "+") + str(abs(pexp)).zfill(exp_digits)
    return " " * max(pad_left - 1 - len(sgn), 0) + sgn + body


# --------------------------------------------------------------------------
# Element formatters (NumPy's FloatingFormat / IntegerFormat / BoolFormat):
# each looks at all the values that will be shown to pick one common width.
# --------------------------------------------------------------------------

class _FloatFormat:
    def __init__(self, data, dtype, is_0d, opts):
        self.dtype = dtype
        legacy = self.legacy = opts["legacy"]
        sign = opts["sign"]
        if legacy <= 113 and not is_0d and sign == "-":
            sign = " "  # 1.13 reserved a sign column in arrays
        self.sign = sign
        self.floatmode = opts["floatmode"]
        self.precision = -1 if self.floatmode == "unique" else opts["precision"]
        if self.floatmode != "unique" and self.precision < 0:
            raise ValueError("precision must be >= 0")
        self.suppress = opts["suppress"]
        self._fill(data)

    def _fill(self, data):
        finite = [x for x in data if math.isfinite(x)]
        nonzero = [abs(x) for x in finite if x != 0]
        self.exp_format = False
        if nonzero:
            hi, lo = max(nonzero), min(nonzero)
            if self.legacy <= 202:
                cutoff = 1e8
            else:  # newer NumPy scales the cut-off with the type's precision
                cutoff = 10.0 ** min(8, _DECIMAL_PRECISION[self.dtype])
            # NumPy compares dtype scalars with Python floats, which casts the
            # constants (and the ratio) to the array's dtype first.
            dt = self.dtype
            if hi >= _to_dtype(cutoff, dt) or (not self.suppress and (
                    lo < _to_dtype(0.0001, dt) or _to_dtype(hi / lo, dt) > 1000.0)):
                self.exp_format = True
        plus = self.sign == "+"
        if not finite:
            self.pad_left = self.pad_right = 0
            self.trim, self.exp_size, self.unique, self.min_digits = ".", -1, True, -1
        elif self.exp_format:
            trim, unique = ".", True
            if self.floatmode == "fixed" or self.legacy <= 113:
                trim, unique = "k", False
            strs = [format_scientific(x, self.dtype, self.precision, unique=unique,
                                      trim=trim, sign=plus) for x in finite]
            mant_parts = [s.partition("e") for s in strs]
            ints, fracs = zip(*(m[0].split(".") for m in mant_parts))
            self.exp_size = max(len(m[2]) for m in mant_parts) - 1
            self.trim, self.unique = "k", unique
            self.precision = self.min_digits = max(len(f) for f in fracs)
            self.pad_left = 3 if self.legacy <= 113 else max(len(i) for i in ints)
            self.pad_right = self.exp_size + 2 + self.precision  # for nan/inf width
        else:
            trim, unique = ".", True
            if self.floatmode == "fixed":
                trim, unique = "k", False
            strs = [format_positional(x, self.dtype, self.precision, unique=unique,
                                      trim=trim, sign=plus) for x in finite]
            ints, fracs = zip(*(s.split(".") for s in strs))
            if self.legacy <= 113:
                self.pad_left = 1 + max(len(i.lstrip("-+")) for i in ints)
            else:
                self.pad_left = max(len(i) for i in ints)
            self.pad_right = max(len(f) for f in fracs)
            self.exp_size, self.unique = -1, unique
            if self.floatmode in ("fixed", "maxprec_equal"):
                self.precision = self.min_digits = self.pad_right
                self.trim = "k"
            else:
                self.trim, self.min_digits = ".", 0
        if self.legacy > 113 and self.sign == " " and not any(
                math.copysign(1.0, x) < 0 for x in finite):
            self.pad_left += 1
        if len(finite) != len(data):  # make room for nan / inf / -inf
            opts = _options.get()
            neginf = self.sign != "-" or any(x < 0 for x in data if math.isinf(x))
            offset = self.pad_right + 1
            self.pad_left = max(self.pad_left, len(opts["nanstr"]) - offset,
                                len(opts["infstr"]) + neginf - offset)

    def __call__(self, x):
        if not math.isfinite(x):
            opts = _options.get()
            if x != x:
                ret = ("+" if self.sign == "+" else "") + opts["nanstr"]
            else:
                ret = ("-" if x < 0 else "+" if self.sign == "+" else "") + opts["infstr"]
            return " " * (self.pad_left + self.pad_right + 1 - len(ret)) + ret
        if self.exp_format:
            return format_scientific(x, self.dtype, self.precision, self.min_digits,
                                     self.unique, self.trim, self.sign == "+",
                                     self.pad_left, self.exp_size)
        return format_positional(x, self.dtype, self.precision, self.min_digits,
                                 self.unique, True, self.trim, self.sign == "+",
                                 self.pad_left, self.pad_right)


class _IntFormat:
    def __init__(self, data, sign):
        width = 0
        if data:
            hi, lo = max(data), min(data)
            if sign == " " and lo < 0:
                sign = "-"
            hi_len = len(str(hi)) + (hi >= 0 and sign in "+ ")
            width = max(hi_len, len(str(lo)))
        self.format = f"{{:{sign}{width}d}}".format

    def __call__(self, x):
        return self.format(x)


class _BoolFormat:
    def __init__(self, is_0d):
        # " True" lines up with "False", except where nothing needs aligning
        self.truestr = "True" if is_0d else " True"

    def __call__(self, x):
        return self.truestr if x else "False"


class _ComplexFormat:
    """numpy's ComplexFloatingFormat: the real and imaginary parts each get a float format
    over all shown values; the imaginary one always carries its sign."""

    def __init__(self, data, dtype, is_0d, opts):
        part = _COMPLEX_PART[dtype]
        ro, io = dict(opts), dict(opts)
        if opts["legacy"] <= 113:
            ro["floatmode"], io["floatmode"] = "maxprec_equal", "maxprec"
        io["sign"] = "+"
        self.real_format = _FloatFormat([v.real for v in data], part, is_0d, ro)
        self.imag_format = _FloatFormat([v.imag for v in data], part, is_0d, io)

    def __call__(self, x):
        r = self.real_format(x.real)
        i = self.imag_format(x.imag)
        sp = len(i.rstrip())
        return r + i[:sp] + "j" + i[sp:]


def _kind(dtype):
    if dtype == "bool":
        return "bool"
    if dtype in _COMPLEX_PART:
        return "complex"
    if dtype in _FLOAT_LAYOUT:
        return "float"
    if dtype in _INT_DTYPES:
        return "int"
    raise ValueError(f"unsupported dtype {dtype!r}")


def _normalize(values, dtype):
    """Coerce the input values to what the dtype actually holds."""
    kind = _kind(dtype)
    if kind == "float":
        return [_to_dtype(float(v), dtype) for v in values]
    if kind == "complex":
        part = _COMPLEX_PART[dtype]
        return [complex(_to_dtype(complex(v).real, part), _to_dtype(complex(v).imag, part)) for v in values]
    return [bool(v) for v in values] if kind == "bool" else [int(v) for v in values]


def _format_function(data, dtype, is_0d, opts):
    kind = _kind(dtype)
    formatter = opts["formatter"]
    if formatter:  # specific key beats the *_kind group, which beats 'all'
        for key in (kind, kind + "_kind", "all"):
            if formatter.get(key) is not None:
                return formatter[key]
    if kind == "bool":
        return _BoolFormat(is_0d)
    if kind == "int":
        return _IntFormat(data, opts["sign"])
    if kind == "complex":
        return _ComplexFormat(data, dtype, is_0d, opts)
    return _FloatFormat(data, dtype, is_0d, opts)


# --------------------------------------------------------------------------
# Layout: brackets, separators, line wrapping and summarisation
# --------------------------------------------------------------------------

def _strides(shape):
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= n
    return strides[::-1]


def _edge_indices(n, edge):
    # NumPy slices a[:edge] and a[-edge:]; with edge == 0 the latter is the
    # whole axis, a quirk reproduced so the column widths match.
    if n <= 2 * edge:
        return range(n)
    return list(range(edge)) + list(range(n - edge, n) if edge else range(n))


def _corners(flat, shape, edge):
    """The elements a summarised print shows (NumPy's _leading_trailing)."""
    strides, out = _strides(shape), []

    def walk(axis, offset):
        if axis == len(shape):
            out.append(flat[offset])
            return
        for i in _edge_indices(shape[axis], edge):
            walk(axis + 1, offset + i * strides[axis])
    walk(0, 0)
    return out


def _extend_line(s, line, word, width, next_prefix, legacy):
    needs_wrap = len(line) + len(word) > width
    if legacy > 113 and len(line) <= len(next_prefix):
        needs_wrap = False  # wrapping would not make the line any shorter
    if needs_wrap:
        s += line.rstrip() + "\n"
        line = next_prefix
    return s, line + word


def _format_array(flat, shape, fmt, line_width, next_line_prefix, separator,
                  edge_items, summary_insert, legacy):
    ndim, strides = len(shape), _strides(shape)

    def recurse(axis, offset, hanging_indent, curr_width):
        if axis == ndim:
            return fmt(flat[offset])
        # nested rows start one column further right (after the '[') and must
        # leave room for their closing ']'
        next_indent = hanging_indent + " "
        next_width = curr_width if legacy <= 113 else curr_width - 1
        n, st = shape[axis], strides[axis]
        show_summary = summary_insert and 2 * edge_items < n
        leading, trailing = (edge_items, edge_items) if show_summary else (0, n)

        def item(i):
            return recurse(axis + 1, offset + i * st, next_indent, next_width)
        if axis == ndim - 1:
            sep_w = len(separator.rstrip())
            elem_width = curr_width - (sep_w if legacy <= 113 else max(sep_w, 1))
            s, line = "", hanging_indent
            for i in range(leading):
                s, line = _extend_line(s, line, item(i), elem_width, hanging_indent, legacy)
                line += separator
            if show_summary:
                s, line = _extend_line(s, line, summary_insert, elem_width,
                                       hanging_indent, legacy)
                line += ", " if legacy <= 113 else separator
            for i in range(trailing, 1, -1):
                s, line = _extend_line(s, line, item(n - i), elem_width,
                                       hanging_indent, legacy)
                line += separator
            if legacy <= 113:
                elem_width = curr_width
            s, line = _extend_line(s, line, item(n - 1), elem_width, hanging_indent, legacy)
            s += line
        else:
            # outer axes: one row per line, plus a blank line per extra depth
            line_sep = separator.rstrip() + "\n" * (ndim - axis - 1)
            s = "".join(hanging_indent + item(i) + line_sep for i in range(leading))
            if show_summary:
                s += hanging_indent + summary_insert + (", \n" if legacy <= 113 else line_sep)
            s += "".join(hanging_indent + item(n - i) + line_sep
                         for i in range(trailing, 1, -1))
            s += hanging_indent + item(n - 1)
        return "[" + s[len(hanging_indent):] + "]"

    return recurse(0, 0, next_line_prefix, line_width)


def _array2string(flat, shape, dtype, opts, separator, prefix, suffix):
    legacy = opts["legacy"]
    if legacy <= 113 and shape == ():
        return repr(_normalize(flat, dtype)[0])
    line_width = opts["linewidth"] - (len(suffix) if legacy > 113 else 0)
    if math.prod(shape) == 0:
        return "[]"
    if math.prod(shape) > opts["threshold"]:
        summary, data = "...", _corners(flat, shape, opts["edgeitems"])
    else:
        summary, data = "", flat
    data = _normalize(data, dtype)
    fmt = _format_function(data, dtype, shape == (), opts)
    if _kind(dtype) == "float":
        convert = (lambda v: fmt(_to_dtype(float(v), dtype)))
    else:
        convert = (lambda v: fmt(_normalize((v,), dtype)[0]))
    return _format_array(flat, shape, convert, line_width, " " + " " * len(prefix),
                         separator, opts["edgeitems"], summary, legacy)


def _check(flat, shape):
    shape = tuple(operator.index(n) for n in shape)
    if len(flat) != math.prod(shape):
        raise ValueError(f"{len(flat)} elements do not fill shape {shape}")
    return flat, shape


def array_repr(flat, shape, dtype_name):
    """``repr(numpy.array(...))`` for the given C-order elements."""
    flat, shape = _check(flat, shape)
    opts = _options.get()
    legacy, size = opts["legacy"], math.prod(shape)
    prefix = "array("
    lst = _array2string(flat, shape, dtype_name, opts, ", ", prefix, ")")
    extras = []
    if (size == 0 and shape != (0,)) or (legacy > 210 and size > opts["threshold"]):
        extras.append(f"shape={shape}")
    implied = dtype_name in _IMPLIED_DTYPES and not (legacy <= 113 and dtype_name == "bool")
    if not implied or size == 0:
        extras.append(f"dtype={dtype_name}")
    if not extras:
        return prefix + lst + ")"
    arr_str = prefix + lst + ","
    extra_str = ", ".join(extras) + ")"
    # extras go on their own line when they would overflow the last one
    last_line_len = len(arr_str) - (arr_str.rfind("\n") + 1)
    spacer = " "
    if legacy > 113 and last_line_len + len(extra_str) + 1 > opts["linewidth"]:
        spacer = "\n" + " " * len(prefix)
    return arr_str + spacer + extra_str


def array_str(flat, shape, dtype_name):
    """``str(numpy.array(...))`` for the given C-order elements."""
    flat, shape = _check(flat, shape)
    opts = _options.get()
    if shape == ():
        # a 0-d array prints like its scalar (full precision, no brackets)
        value = _normalize(flat, dtype_name)[0]
        return str(value) if opts["legacy"] <= 113 else scalar_str(value, dtype_name)
    return _array2string(flat, shape, dtype_name, opts, " ", "", "")


# --------------------------------------------------------------------------
# Scalars (numpy 2 forms: repr ``np.float32(1.5)``, str ``1.5``)
# --------------------------------------------------------------------------

def _float_scalar(value, dtype, is_repr):
    legacy = _options.get()["legacy"]
    if legacy <= 113:
        # 1.13 used printf %g at fixed precisions, forcing a ".0" on integers
        prec = (17 if is_repr else 12) if dtype == "float64" else (8 if is_repr else 6)
        s = "%.*g" % (prec, value)
        return s + ".0" if s.lstrip("-").isdigit() else s
    max_positional = {"float16": 1e3, "bfloat16": 1e3, "float32": 1e6}.get(dtype, 1e16)
    if legacy <= 202:
        max_positional = 1e16
    a = abs(value)
    if value != value or a == 0 or (1e-4 <= a < max_positional):
        return format_positional(value, dtype, trim="0")
    return format_scientific(value, dtype, trim="-")


def _complex_scalar(value, dtype, is_repr):
    # numpy: "(re+imj)", or "imj" alone when the real part is +0; parts print like float scalars
    # with a trailing ".0" dropped.
    part = _COMPLEX_PART[dtype]
    v = complex(value)

    def fmt(x):
        x = _to_dtype(x, part)
        if not math.isfinite(x):
            return "nan" if x != x else ("-inf" if x < 0 else "inf")
        t = _float_scalar(x, part, is_repr)
        return t[:-2] if t.endswith(".0") else t

    im = fmt(v.imag)
    if not im.startswith("-"):
        im = "+" + im
    if v.real == 0 and math.copysign(1.0, v.real) > 0:
        return im.lstrip("+") + "j"
    return "(" + fmt(v.real) + im + "j)"


def scalar_str(value, dtype_name):
    """``str(numpy.<dtype>(value))``."""
    kind = _kind(dtype_name)
    if kind == "complex":
        return _complex_scalar(value, dtype_name, False)
    if kind == "bool":
        return str(bool(value))
    if kind == "int":
        return str(int(value))
    return _float_scalar(_to_dtype(float(value), dtype_name), dtype_name, False)


def scalar_repr(value, dtype_name):
    """``repr(numpy.<dtype>(value))``, e.g. ``np.float32(1.5)``, ``np.True_``."""
    kind = _kind(dtype_name)
    old_style = _options.get()["legacy"] <= 125  # before the np.<type>(...) form
    if kind == "bool":
        return str(bool(value)) if old_style else f"np.{bool(value)}_"
    if kind == "int":
        text = str(int(value))
    elif kind == "complex":
        text = _complex_scalar(value, dtype_name, True)
    else:
        text = _float_scalar(_to_dtype(float(value), dtype_name), dtype_name, True)
    return text if old_style else f"np.{dtype_name}({text})"
