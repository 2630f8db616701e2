"""Mathematical functions beyond the opcode table: ufuncs composed from opcodes (ldexp, frexp,
nextafter, spacing, modf, divmod, sinc, i0, float_power, nan_to_num), the native fmod/gcd/lcm
opcodes, and array routines: convolve/correlate, interp, cross, gradient, cumulative_sum/prod,
isclose/allclose/array_equiv, einsum/einsum_path, tensordot, kron, matvec/vecmat.

Compositions keep numpy's arithmetic (same operations in the same dtype) so results match bit for
bit where numpy's own loops are exact; everything stays lazy and fuses with neighbouring work."""
import builtins
import operator

from .. import _core
from . import _convolve13, _dtypes
from ._common import asarray, ndarray, write_out
from ._manipulation import broadcast_shapes, concatenate, moveaxis, reshape, transpose
from ._ufuncs import _check_kwargs, _make

# dtype objects (the scalar types in _dtypes have no engine code)
_D = {n: _dtypes.dtype(n.rstrip('_')) for n in ('int64', 'int32', 'float64', 'float16', 'bool_')}

_OP = _core.OPCODES
_int, _float, _bool = builtins.int, builtins.float, builtins.bool


def _u(name, *xs):
    return _core.ufunc(_OP[name], *xs)


def _float_type(dt):
    """numpy's float loop for a single input: the smallest float that holds dt."""
    return _dtypes.result_type(dt, _D["float16"]) if dt.kind != "f" else dt


def _full(shape, value, dt):
    from ._creation import full
    return full(tuple(shape), value, dtype=dt)


def _two_out(fn, out, r1, r2):
    if out is None or (isinstance(out, tuple) and all(o is None for o in out)):
        return r1, r2
    if not isinstance(out, tuple) or len(out) != 2:
        raise ValueError(f"[mnn.numpy.{fn}] out must be a tuple of 2 arrays")
    return (write_out(r1, out[0], fn) if out[0] is not None else r1,
            write_out(r2, out[1], fn) if out[1] is not None else r2)


# ----------------------------------------------------------------------------------------------
# native opcodes: fmod, gcd, lcm

fmod = _make("fmod", 2)
_gcd, _lcm = _make("gcd", 2), _make("lcm", 2)


def _int_only(name, x1, x2):
    a, b = asarray(x1), asarray(x2)
    if a.dtype.kind not in "iu" and b.dtype.kind not in "iu" or a.dtype.kind == "f" or b.dtype.kind == "f":
        raise _core.UFuncTypeError(f"[mnn.numpy.{name}] ufunc '{name}' did not contain a loop with signature "
                                   "matching types")


def gcd(x1, x2, /, out=None, **kwargs):
    _int_only("gcd", x1, x2)
    return _gcd(x1, x2, out=out, **kwargs)


def lcm(x1, x2, /, out=None, **kwargs):
    _int_only("lcm", x1, x2)
    return _lcm(x1, x2, out=out, **kwargs)


gcd.nin = lcm.nin = 2
gcd.nout = lcm.nout = 1


# ----------------------------------------------------------------------------------------------
# float decomposition: ldexp, frexp, nextafter, spacing, modf

def _pow2(e):
    """2.0**e exactly, in float64, for integer e in [-1074, 1023]."""
    return _u("exp2", e.astype(_D["float64"]))


def _ldexp64(x, n):
    """x * 2**n in float64 with one rounding: the scale is split in two exact powers of two, the
    second applied last so only a subnormal or overflowing result rounds."""
    n = _u("minimum", _u("maximum", n, -2200), 2200)
    n1 = _u("floor_divide", n, 2)
    return (x * _pow2(n1)) * _pow2(n - n1)


def ldexp(x1, x2, /, out=None, **kwargs):
    _check_kwargs("ldexp", kwargs)
    a, n = asarray(x1), asarray(x2)
    if n.dtype.kind not in "iub" or a.dtype.kind == "c":
        raise _core.UFuncTypeError("[mnn.numpy.ldexp] ufunc 'ldexp' not supported for the input types, and the "
                                   "inputs could not be safely coerced to any supported types according to the "
                                   "casting rule ''safe''")
    ft = _float_type(a.dtype)
    n = n.astype(_D["int64"])
    if ft == _D["float64"]:
        r = _ldexp64(a.astype(ft), n)
    else:
        # a float32/float16 scaled in float64 is exact; one rounding on the way back, as ldexpf does
        r = (a.astype(_D["float64"]) * _pow2(_u("minimum", _u("maximum", n, -1074), 1023))).astype(ft)
        r = _u("where", _u("equal", a, 0), a.astype(ft), r)
    return write_out(r, out, "ldexp")


def _frexp64(x):
    """(m, e) with x = m * 2**e and 0.5 <= |m| < 1 for finite nonzero x (x is float64)."""
    ax = _u("absolute", x)
    finite = _u("logical_and", _u("isfinite", x), _u("not_equal", x, 0))
    safe = _u("where", finite, ax, 1.0)
    e = (_u("floor", _u("log2", safe)) + 1).astype(_D["int64"])
    m = _ldexp64(safe, -e)
    # log2 can round across a power of two: one correction step either way makes it exact
    hi = _u("greater_equal", m, 1.0)
    e = _u("where", hi, e + 1, e)
    m = _u("where", hi, m * 0.5, m)
    lo = _u("less", m, 0.5)
    e = _u("where", lo, e - 1, e)
    m = _u("where", lo, m * 2.0, m)
    m = _u("copysign", m, x)
    return _u("where", finite, m, x), _u("where", finite, e, 0)


def frexp(x, /, out=(None, None), **kwargs):
    _check_kwargs("frexp", kwargs)
    a = asarray(x)
    if a.dtype.kind == "c":
        raise _core.UFuncTypeError("[mnn.numpy.frexp] ufunc 'frexp' not supported for the input types")
    ft = _float_type(a.dtype)
    a = a.astype(ft) if a.dtype != ft else a
    m, e = _u("frexp_mantissa", a), _u("frexp_exponent", a)
    return _two_out("frexp", out, m, e.astype(_D["int32"]))


_MANT = {"float16": (11, -14, 2.0 ** -24), "float32": (24, -126, 2.0 ** -149), "float64": (53, -1022, 2.0 ** -1074)}


def _ulp_parts(x, ft):
    """For finite nonzero float64 values of type ft: the gap to the next value away from zero and
    the gap towards zero (half as large just above a power of two)."""
    p, emin, tiny = _MANT[ft.name]
    m, e = _frexp64(x)
    eu = _u("maximum", e - 1, emin)  # exponent of the leading bit, clamped to the normal range
    up = _pow2(eu - (p - 1))
    at_pow2 = _u("logical_and", _u("equal", _u("absolute", m), 0.5), _u("greater", e - 1, emin))
    down = _u("where", at_pow2, up * 0.5, up)
    return up, down, tiny


def _float_result(x1, x2):
    """The float loop numpy picks for two operands, Python scalars counting as weak."""
    weak = (_int, _float)
    if isinstance(x1, weak) and not isinstance(x1, _bool) and not isinstance(x2, weak):
        x1, x2 = x2, x1
    a = asarray(x1)
    if isinstance(x2, weak) and not isinstance(x2, _bool):
        if isinstance(x1, weak):
            return _D["float64"]
        # the weak scalar joins the array's type first (bool with an int is int64)
        return _float_type(_dtypes.result_type(a.dtype, x2))
    return _dtypes.result_type(_float_type(a.dtype), _float_type(asarray(x2).dtype))


def nextafter(x1, x2, /, out=None, **kwargs):
    _check_kwargs("nextafter", kwargs)
    ft = _float_result(x1, x2)
    a, b = asarray(x1), asarray(x2)
    if ft != _D["float16"]:  # the opcode's float16 loop would step in float32
        return write_out(_u("nextafter", a.astype(ft), b.astype(ft)), out, "nextafter")
    xa = a.astype(ft).astype(_D["float64"])
    xb = b.astype(ft).astype(_D["float64"])
    up, down, tiny = _ulp_parts(xa, ft)
    away = _u("equal", _u("greater", xb, xa), _u("greater", xa, 0))  # moving away from zero
    step = _u("where", away, up, down)
    r = xa + _u("copysign", step, xb - xa)
    r = _u("copysign", r, xa)  # stepping to zero from the smallest subnormal keeps x's sign
    r = _u("where", _u("equal", xa, 0), _u("copysign", _full((), tiny, _D["float64"]), xb - xa), r)
    r = _u("where", _u("isinf", xa), _u("where", _u("equal", xa, xb), xa,
                                        _u("copysign", _full((), _dtypes.finfo(ft).max, _D["float64"]), xa)), r)
    r = _u("where", _u("equal", xa, xb), xa, r)  # numpy's half loop returns x when x == y (C returns y)
    r = _u("where", _u("logical_or", _u("isnan", xa), _u("isnan", xb)), xa + xb, r)
    return write_out(r.astype(ft), out, "nextafter")


def spacing(x, /, out=None, **kwargs):
    _check_kwargs("spacing", kwargs)
    a = asarray(x)
    ft = _float_type(a.dtype)
    if ft != _D["float16"]:
        return write_out(_u("spacing", a.astype(ft)), out, "spacing")
    # numpy's half spacing is unsigned: the gap above |x|, except for negative powers of two,
    # where it is the (smaller) gap below; only +max overflows to inf. The opcode's float16 loop
    # computes in float32, so half precision is composed here.
    xa = a.astype(ft).astype(_D["float64"])
    up, down, tiny = _ulp_parts(xa, ft)
    inf = _full((), float("inf"), _D["float64"])
    r = _u("where", _u("signbit", xa), down, up)
    r = _u("where", _u("equal", xa, _dtypes.finfo(ft).max), inf, r)
    r = _u("where", _u("equal", xa, 0), _full((), tiny, _D["float64"]), r)  # +tiny for -0.0 too
    r = _u("where", _u("isfinite", xa), r, _full((), float("nan"), _D["float64"]))
    return write_out(r.astype(ft), out, "spacing")


def modf(x, /, out=(None, None), **kwargs):
    _check_kwargs("modf", kwargs)
    a = asarray(x)
    ft = _float_type(a.dtype)
    a = a.astype(ft) if a.dtype != ft else a
    ipart = _u("trunc", a)
    frac = _u("copysign", _u("where", _u("isinf", a), 0.0, a - ipart), a)
    return _two_out("modf", out, frac, ipart)


def divmod_(x1, x2, /, out=(None, None), **kwargs):
    _check_kwargs("divmod", kwargs)
    return _two_out("divmod", out, _u("floor_divide", x1, x2), _u("remainder", x1, x2))


for _f, _nin, _nout in ((ldexp, 2, 1), (frexp, 1, 2), (nextafter, 2, 1), (spacing, 1, 1), (modf, 1, 2),
                        (divmod_, 2, 2)):
    _f.nin, _f.nout = _nin, _nout
divmod_.__name__ = divmod_.__qualname__ = "divmod"


# ----------------------------------------------------------------------------------------------
# special functions and conversions

def sinc(x):
    x = 3.141592653589793 * asarray(x)
    # numpy 2.4: zeros become the dtype's eps, so sin(y)/y is 1 there in every float type
    eps = _dtypes.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = _u("where", _u("not_equal", x, 0), x, eps)
    return _u("sin", y) / y


# Chebyshev coefficients of exp(-x) I0(x) on [0, 8] and of exp(-x) sqrt(x) I0(x) on (8, inf)
# (Clenshaw-Curtis / Cephes tables; numpy evaluates the same series, so results agree exactly).
_I0A = [-4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16, 1.715391285555133e-15,
        -1.1685332877993451e-14, 7.676185498604936e-14, -4.856446783111929e-13, 2.95505266312964e-12,
        -1.726826291441556e-11, 9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
        -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07, 1.1173875391201037e-06,
        -4.4167383584587505e-06, 1.6448448070728896e-05, -5.754195010082104e-05, 0.00018850288509584165,
        -0.0005763755745385824, 0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
        -0.02373741480589947, 0.04930528423967071, -0.09490109704804764, 0.17162090152220877,
        -0.3046826723431984, 0.6767952744094761]
_I0B = [-7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17, 3.461222867697461e-17,
        -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15,
        -9.554846698828307e-15, -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
        7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11, -3.1499165279632416e-11,
        1.1889147107846439e-11, 4.94060238822497e-10, 3.3962320257083865e-09, 2.266668990498178e-08,
        2.0489185894690638e-07, 2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
        0.8044904110141088]


def _chbevl(x, coeffs):
    b0, b1, b2 = coeffs[0], 0.0, 0.0
    for c in coeffs[1:]:
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def i0(x):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("[mnn.numpy.i0] i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(_D["float64"])
    x = _u("absolute", x)
    small = _u("less_equal", x, 8.0)
    xs = _u("where", small, x, 8.0)
    xl = _u("where", small, 16.0, x)
    r1 = _u("exp", xs) * _chbevl(xs / 2.0 - 2, _I0A)
    r2 = _u("exp", xl) * _chbevl(32.0 / xl - 2.0, _I0B) / _u("sqrt", xl)
    return _u("where", small, r1, r2).astype(x.dtype)


def float_power(x1, x2, /, out=None, **kwargs):
    _check_kwargs("float_power", kwargs)
    a, b = asarray(x1), asarray(x2)
    ft = _dtypes.result_type(a.dtype, b.dtype, _D["float64"])
    return write_out(_u("power", a.astype(ft), b.astype(ft)), out, "float_power")


float_power.nin, float_power.nout = 2, 1


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    a = asarray(x)
    if a.dtype.kind != "f":
        return _core.copy(a) if copy else a
    fi = _dtypes.finfo(a.dtype)
    pos = fi.max if posinf is None else posinf
    neg = fi.min if neginf is None else neginf
    dt = a.dtype
    r = _u("where", _u("isnan", a), _full((), nan, dt), a)
    r = _u("where", _u("logical_and", _u("isinf", a), _u("greater", a, 0)), _full((), pos, dt), r)
    r = _u("where", _u("logical_and", _u("isinf", a), _u("less", a, 0)), _full((), neg, dt), r)
    if not copy:
        _core.assign(a, r)
        return a
    return r


# ----------------------------------------------------------------------------------------------
# convolution, interpolation, cross products, gradients

def _correlate_full(a, v, left, right, out_len):
    """out[k] = sum_j ap[k + j] * v[j] with ap = a zero-padded by (left, right): the shifted windows
    are stacked into an (m, out_len) matrix and contracted with v by one GEMM. The padded zeros
    would turn an infinite kernel value into NaN (0 * inf), so the outputs that touch the padding
    are recomputed over the true overlap only, as numpy's direct loop sums."""
    dt = _dtypes.result_type(a.dtype, v.dtype)
    a = a.astype(dt) if a.dtype != dt else a
    v = v.astype(dt) if v.dtype != dt else v
    parts = [p for p in (_full([left], 0, dt) if left else None, a, _full([right], 0, dt) if right else None)
             if p is not None]
    ap = _core.concatenate(parts, 0, dt._code) if len(parts) > 1 else a
    m = v.shape[0]
    if m <= _SMALL_KERNEL or not _all_finite(a):
        rows = [reshape(ap[j:j + out_len], (1, out_len)) for j in range(m)]
        win = _core.concatenate(rows, 0, dt._code)
        r = reshape(_core.matmul(reshape(v, (1, m)), win), (out_len,))
    else:
        r = _correlate_blocked(ap, v, out_len, dt)
    if not left and not right:
        return r
    pieces = []
    if left:
        pieces.append(_overlap_sums(a, v, 0, left, left, dt))
    pieces.append(r[left:out_len - right])
    if right:
        pieces.append(_overlap_sums(a, v, out_len - right, out_len, left, dt))
    return _core.concatenate(pieces, 0, dt._code)


def _all_finite(a):
    """The block-Toeplitz GEMM multiplies every signal sample by the structural zeros of its
    matrices too, so an inf or NaN in the signal would leak into outputs it does not touch."""
    if a.dtype.kind != "f":
        return True
    from ._reductions import all as _all
    return _bool(_all(_u("isfinite", a)).item())


def _overlap_sums(a, v, k0, k1, left, dt):
    """out[k] for k in [k0, k1): the sum over j of a[k + j - left] * v[j] where that index exists."""
    n, m = a.shape[0], v.shape[0]
    i64 = _D["int64"]
    k = reshape(_core.arange_int(k0, k1, 1, i64._code), (k1 - k0, 1))
    j = reshape(_core.arange_int(0, m, 1, i64._code), (1, m))
    i = k + j - left
    inside = _u("logical_and", _u("greater_equal", i, 0), _u("less", i, n))
    prod = _take1(a, _u("minimum", _u("maximum", i, 0), n - 1)) * reshape(v, (1, m))
    from ._reductions import sum as _sum
    return _sum(_u("where", inside, prod, _full((), 0, dt)), axis=1, dtype=dt)


# Up to this kernel length the shifted windows are stacked (m copies of the signal); past it the
# block-Toeplitz form below needs only O(n + m^2) memory.
_SMALL_KERNEL = 32


def _correlate_blocked(ap, v, out_len, dt):
    """Long kernels: cut the padded signal into rows of m samples, R[q] = ap[q*m:(q+1)*m]. Output
    block q is R[q] @ T1 + R[q+1] @ T2 with T1[t, r] = v[t - r] (t >= r) and T2[t, r] = v[t + m - r]
    (t < r): two GEMMs of (blocks x m) by (m x m) instead of an (m x n) window matrix."""
    m = v.shape[0]
    q = -(-out_len // m)
    total = (q + 1) * m
    n = ap.shape[0]
    if n < total:
        ap = _core.concatenate([ap, _full([total - n], 0, dt)], 0, dt._code)
    elif n > total:
        ap = ap[:total]
    rows = reshape(ap, (q + 1, m))
    t = reshape(_core.arange_int(0, m, 1, _D["int64"]._code), (m, 1))
    r = reshape(_core.arange_int(0, m, 1, _D["int64"]._code), (1, m))
    d1 = t - r
    d2 = d1 + m
    zero = _full((), 0, dt)
    t1 = _u("where", _u("greater_equal", d1, 0), _take1(v, _u("maximum", d1, 0)), zero)
    t2 = _u("where", _u("less", d1, 0), _take1(v, _u("minimum", d2, m - 1)), zero)
    out = _core.matmul(rows[:q], t1) + _core.matmul(rows[1:q + 1], t2)
    return reshape(out, (q * m,))[:out_len]


def _mode_code(mode, fn):
    codes = {"valid": 0, "same": 1, "full": 2, 0: 0, 1: 1, 2: 2}
    if mode not in codes:
        raise ValueError(f"[mnn.numpy.{fn}] mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    return codes[mode]


def correlate(a, v, mode="valid"):
    r = _convolve13.fast(a, v, mode, 0)
    if r is not None:
        return r
    a, v = asarray(a), asarray(v)
    code = _mode_code(mode, "correlate")
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("[mnn.numpy.correlate] object too deep for desired array")
    n, m = a.shape[0], v.shape[0]
    if n == 0:
        raise ValueError("[mnn.numpy.correlate] a cannot be empty")
    if m == 0:
        raise ValueError("[mnn.numpy.correlate] v cannot be empty")
    return _correlate_checked(a, v, code, False)


def _correlate_checked(a, v, code, flip):
    """a, v 1-D and non-empty; flip (convolve) reverses v, which is then the shorter operand."""
    n, m = a.shape[0], v.shape[0]
    inverted = False
    if n < m:
        a, v, n, m = v, a, m, n
        inverted = True
    dt = _convolve13.result_dtype(a, v)
    if _convolve13.native_ok(dt, n, m):
        return _convolve13.correlate1d(a, v, dt, code, flip, inverted)
    if flip:
        v = v[::-1]
    if code == 0:
        left, right, length = 0, 0, n - m + 1
    elif code == 1:
        left = m // 2
        right = m - 1 - left
        length = n
    else:
        left = right = m - 1
        length = n + m - 1
    r = _correlate_full(a, v, left, right, length)
    if inverted:
        r = r[::-1]
    return r


def convolve(a, v, mode="full"):
    r = _convolve13.fast(a, v, mode, 1)
    if r is not None:
        return r
    a, v = asarray(a), asarray(v)
    if v.ndim == 1 and a.ndim == 1 and v.shape[0] > a.shape[0]:
        a, v = v, a
    if a.ndim == 1 and a.shape[0] == 0:
        raise ValueError("[mnn.numpy.convolve] a cannot be empty")
    if v.ndim == 1 and v.shape[0] == 0:
        raise ValueError("[mnn.numpy.convolve] v cannot be empty")
    if a.ndim == 0 or v.ndim == 0:
        a, v = reshape(a, (-1,)), reshape(v, (-1,))
    if a.ndim != 1 or v.ndim != 1 or a.shape[0] < v.shape[0]:
        return correlate(a, v[::-1], mode)  # the rare shapes keep correlate's checks and messages
    return _correlate_checked(a, v, _mode_code(mode, "correlate"), True)


def _take1(a, idx):
    return _core.prim("take", [a, idx], [0], [])


def _count_le(xp, x):
    """Per x, how many of the sorted xp are <= x: a branchless binary search, one gather and two
    selects per halving over all x at once (NaN counts none)."""
    m = xp.shape[0]
    n = x.shape[0]
    i64 = _D["int64"]
    lo = _full([n], 0, i64)
    hi = _full([n], m, i64)
    for _ in range(m.bit_length() + 1):
        mid = _u("floor_divide", lo + hi, 2)
        active = _u("less", lo, hi)
        go_right = _u("logical_and", active, _u("less_equal", _take1(xp, _u("minimum", mid, m - 1)), x))
        lo, hi = (_u("where", go_right, mid + 1, lo),
                  _u("where", _u("logical_and", active, _u("logical_not", go_right)), mid, hi))
    return lo


def interp(x, xp, fp, left=None, right=None, period=None):
    """numpy.interp: the bracketing sample of each x is found by counting xp <= x (one fused compare
    and sum per x), then numpy's slope formula, including its NaN fallbacks, is applied."""
    fpa = asarray(fp)
    if fpa.dtype.kind == "c":
        raise NotImplementedError("[mnn.numpy.interp] complex fp is not supported")
    f64 = _D["float64"]
    xa = asarray(x).astype(f64)
    xpa = asarray(xp).astype(f64)
    fpa = fpa.astype(f64)
    if period is not None:
        if period == 0:
            raise ValueError("[mnn.numpy.interp] period must be a non-zero value")
        period = abs(period)
        left = right = None
        if xpa.ndim != 1 or fpa.ndim != 1:
            raise ValueError("[mnn.numpy.interp] Data points must be 1-D sequences")
        if xpa.shape[0] != fpa.shape[0]:
            raise ValueError("[mnn.numpy.interp] fp and xp are not of the same length")
        xa = _u("remainder", xa, period)
        xpa = _u("remainder", xpa, period)
        keys = xpa.tolist()
        order = sorted(range(len(keys)), key=lambda i: keys[i])
        from ._creation import array
        o = array(order, dtype=_D["int64"])
        xpa, fpa = _take1(xpa, o), _take1(fpa, o)
        n = xpa.shape[0]
        xpa = concatenate([xpa[n - 1:] - period, xpa, xpa[:1] + period])
        fpa = concatenate([fpa[n - 1:], fpa, fpa[:1]])
    if xpa.ndim != 1 or fpa.ndim != 1:
        raise ValueError("[mnn.numpy.interp] object too deep for desired array")
    m = xpa.shape[0]
    if m == 0:
        raise ValueError("[mnn.numpy.interp] array of sample points is empty")
    if fpa.shape[0] != m:
        raise ValueError("[mnn.numpy.interp] fp and xp are not of the same length.")
    lval = fpa[0] if left is None else _full((), left, f64)
    rval = fpa[m - 1] if right is None else _full((), right, f64)
    shape = xa.shape
    xf = reshape(xa, (-1, 1))
    import mnn.numpy as _mnp
    search = getattr(_mnp, "searchsorted", None)
    if search is not None:
        # number of samples <= x, by binary search; NaN counts none so that it interpolates to NaN
        cnt = search(xpa, xf[:, 0], side="right")
        cnt = _u("where", _u("isnan", xf[:, 0]), 0, cnt)
    else:
        cnt = _count_le(xpa, xf[:, 0])
    j = cnt - 1
    if m == 1:
        res = _u("where", _u("equal", xf[:, 0], xpa[0]), fpa[0], _full((), float("nan"), f64))
    else:
        jc = _u("minimum", _u("maximum", j, 0), m - 2)
        x0, x1 = _take1(xpa, jc), _take1(xpa, jc + 1)
        y0, y1 = _take1(fpa, jc), _take1(fpa, jc + 1)
        xv = xf[:, 0]
        slope = (y1 - y0) / (x1 - x0)
        r = slope * (xv - x0) + y0
        r2 = slope * (xv - x1) + y1
        r = _u("where", _u("isnan", r), _u("where", _u("logical_and", _u("isnan", r2), _u("equal", y0, y1)), y0,
                                                r2), r)
        r = _u("where", _u("equal", x0, xv), y0, r)
        res = _u("where", _u("equal", j, m - 1), fpa[m - 1], r)
    xv = xf[:, 0]
    res = _u("where", _u("less", xv, xpa[0]), lval, res)
    res = _u("where", _u("greater", xv, xpa[m - 1]), rval, res)
    return reshape(res, shape)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = asarray(a), asarray(b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("[mnn.numpy.cross] At least one array has zero dimension")
    a = moveaxis(a, axisa, -1)
    b = moveaxis(b, axisb, -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("[mnn.numpy.cross] incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if na == 2 and nb == 2:
        import warnings
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    a2 = a[..., 2] if na == 3 else None
    b2 = b[..., 2] if nb == 3 else None
    z = a0 * b1 - a1 * b0
    if na == 2 and nb == 2:
        return z
    dt = z.dtype
    zero = _full((), 0, dt)
    a2 = zero if a2 is None else a2
    b2 = zero if b2 is None else b2
    x = a1 * b2 - a2 * b1
    y = a2 * b0 - a0 * b2
    shape = broadcast_shapes(x.shape, y.shape, z.shape)
    comps = [_core.expand_dims(_core.broadcast_to(c.astype(dt), list(shape)), len(shape)) for c in (x, y, z)]
    cp = _core.concatenate(comps, len(shape), dt._code)
    nd = cp.ndim
    ac = operator.index(axisc)
    if not -nd <= ac < nd:
        raise _core.AxisError(f"[mnn.numpy.cross] axisc {ac} is out of bounds for array of dimension {nd}")
    return moveaxis(cp, -1, ac)


def _sl(a, axis, sl):
    idx = [slice(None)] * a.ndim
    idx[axis] = sl
    return a[tuple(idx)]


def gradient(f, *varargs, axis=None, edge_order=1):
    f = asarray(f)
    N = f.ndim
    if axis is None:
        axes = list(range(N))
    else:
        axl = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        axes = []
        for ax in axl:
            ax = operator.index(ax)
            if not -N <= ax < N:
                raise _core.AxisError(f"[mnn.numpy.gradient] axis {ax} is out of bounds for array of dimension {N}")
            axes.append(ax % N)
        if len(set(axes)) != len(axes):
            raise ValueError("[mnn.numpy.gradient] repeated axis")
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and _ndim0(varargs[0]):
        dx = list(varargs) * len(axes)
    elif n == len(axes):
        dx = []
        for i, d in enumerate(varargs):
            if _ndim0(d):
                dx.append(d)
                continue
            d = asarray(d)
            if d.ndim != 1:
                raise ValueError("[mnn.numpy.gradient] distances must be either scalars or 1d")
            if d.shape[0] != f.shape[axes[i]]:
                raise ValueError("[mnn.numpy.gradient] when 1d, distances must match the length of the corresponding "
                                 "dimension")
            if d.dtype.kind in "iub":
                d = d.astype(_D["float64"])
            diffx = d[1:] - d[:-1]
            from ._reductions import all as _all
            if diffx.shape[0] and _bool(_all(diffx == diffx[0]).item()):
                diffx = diffx[0]  # a 0-d array: a strongly typed scalar, like numpy's
            dx.append(diffx)
    else:
        raise TypeError("[mnn.numpy.gradient] invalid number of arguments")
    if edge_order > 2:
        raise ValueError("[mnn.numpy.gradient] 'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind != "f":
        if otype.kind in "iu":
            f = f.astype(_D["float64"])
        otype = _D["float64"]
    outs = []
    for ax, h in zip(axes, dx):
        L = f.shape[ax]
        if L < edge_order + 1:
            raise ValueError("[mnn.numpy.gradient] Shape of array too small to calculate a numerical gradient, at "
                             "least (edge_order + 1) elements are required.")
        uniform = _ndim0(h)
        fs = lambda s: _sl(f, ax, s)  # noqa: E731
        if uniform:
            interior = (fs(slice(2, None)) - fs(slice(0, L - 2))) / (2.0 * h)
        else:
            shape = [1] * N
            shape[ax] = -1
            dx1, dx2 = h[0:-1], h[1:]
            a = reshape(-(dx2) / (dx1 * (dx1 + dx2)), shape)
            b = reshape((dx2 - dx1) / (dx1 * dx2), shape)
            c = reshape(dx1 / (dx2 * (dx1 + dx2)), shape)
            interior = a * fs(slice(0, L - 2)) + b * fs(slice(1, L - 1)) + c * fs(slice(2, None))
        if edge_order == 1:
            d0 = h if uniform else h[0]
            dn = h if uniform else h[-1]
            first = (fs(slice(1, 2)) - fs(slice(0, 1))) / d0
            last = (fs(slice(L - 1, L)) - fs(slice(L - 2, L - 1))) / dn
        else:
            if uniform:
                a, b, c = -1.5 / h, 2. / h, -0.5 / h
            else:
                dx1, dx2 = h[0], h[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            first = a * fs(slice(0, 1)) + b * fs(slice(1, 2)) + c * fs(slice(2, 3))
            if uniform:
                a, b, c = 0.5 / h, -2. / h, 1.5 / h
            else:
                dx1, dx2 = h[-2], h[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            last = a * fs(slice(L - 3, L - 2)) + b * fs(slice(L - 2, L - 1)) + c * fs(slice(L - 1, L))
        parts = [p.astype(otype) for p in (first, interior, last)]
        outs.append(_core.concatenate(parts, ax, otype._code))
    return outs[0] if len(axes) == 1 else tuple(outs)


def _ndim0(d):
    if isinstance(d, ndarray):
        return d.ndim == 0
    if isinstance(d, (list, tuple)):
        return False
    return getattr(d, "ndim", 0) == 0


# ----------------------------------------------------------------------------------------------
# Array API cumulative functions

def _cumulative(kind, name, x, axis, dtype, out, include_initial):
    from ._reductions import cumprod, cumsum
    x = asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"[mnn.numpy.{name}] axis must be specified for arrays with more than one dimension")
        if x.ndim == 0:
            x = reshape(x, (1,))
        axis = 0
    ax = operator.index(axis)
    if not -x.ndim <= ax < x.ndim:
        raise _core.AxisError(f"[mnn.numpy.{name}] axis {ax} is out of bounds for array of dimension {x.ndim}")
    ax %= x.ndim
    r = (cumsum if kind == "sum" else cumprod)(x, axis=ax, dtype=dtype)
    if include_initial:
        shape = list(r.shape)
        shape[ax] = 1
        r = _core.concatenate([_full(shape, 0 if kind == "sum" else 1, r.dtype), r], ax, r.dtype._code)
    return write_out(r, out, name)


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative("sum", "cumulative_sum", x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative("prod", "cumulative_prod", x, axis, dtype, out, include_initial)


# ----------------------------------------------------------------------------------------------
# closeness and equivalence

def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    x = a if isinstance(a, (_int, _float)) and not isinstance(a, _bool) else asarray(a)
    y = b if isinstance(b, (_int, _float)) and not isinstance(b, _bool) else asarray(b)
    if isinstance(y, ndarray):
        dt = _dtypes.result_type(y.dtype, 1.0)
        y = y.astype(dt) if y.dtype != dt else y
    elif isinstance(y, _int):
        y = _float(y)
    if not isinstance(x, ndarray) and not isinstance(y, ndarray):
        x = asarray(x)
    xa = x if isinstance(x, ndarray) else asarray(x)
    ya = y if isinstance(y, ndarray) else y
    diff = _u("absolute", _u("subtract", xa, ya))
    tol = _u("add", atol, _u("multiply", rtol, _u("absolute", ya)))
    res = _u("logical_or", _u("logical_and", _u("less_equal", diff, tol), _u("isfinite", ya)),
             _u("equal", xa, ya))
    if equal_nan:
        res = _u("logical_or", res, _u("logical_and", _u("isnan", xa), _u("isnan", ya)))
    # numpy computes inf - inf here under errstate(invalid='ignore'); evaluation is lazy, so the
    # result is computed now, inside that state, instead of warning wherever it is first read
    from ._errstate import errstate
    with errstate(all="ignore"):
        _core.eval(res)
    return res


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    from ._reductions import all as _all
    return _bool(_all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)).item())


def array_equiv(a1, a2):
    from ._reductions import all as _all
    a1, a2 = asarray(a1), asarray(a2)
    try:
        broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return _bool(_all(_u("equal", a1, a2)).item())


# ----------------------------------------------------------------------------------------------
# products: tensordot, kron, matvec, vecmat

def tensordot(a, b, axes=2):
    a, b = asarray(a), asarray(b)
    try:
        iter(axes)
    except TypeError:
        n = operator.index(axes)
        if n < 0:
            raise ValueError("[mnn.numpy.tensordot] negative axes are not supported") from None
        axes_a = list(range(a.ndim - n, a.ndim))
        axes_b = list(range(n))
    else:
        axes_a, axes_b = axes
        axes_a = [operator.index(x) for x in (axes_a if isinstance(axes_a, (list, tuple)) else [axes_a])]
        axes_b = [operator.index(x) for x in (axes_b if isinstance(axes_b, (list, tuple)) else [axes_b])]
    if len(axes_a) != len(axes_b):
        raise ValueError("[mnn.numpy.tensordot] shape-mismatch for sum")
    axes_a = [x % a.ndim if a.ndim else x for x in axes_a]
    axes_b = [x % b.ndim if b.ndim else x for x in axes_b]
    for x, y in zip(axes_a, axes_b):
        if x >= a.ndim or y >= b.ndim or a.shape[x] != b.shape[y]:
            raise ValueError("[mnn.numpy.tensordot] shape-mismatch for sum")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    k = 1
    for x in axes_a:
        k *= a.shape[x]
    ma = 1
    for i in free_a:
        ma *= a.shape[i]
    nb = 1
    for i in free_b:
        nb *= b.shape[i]
    at = reshape(transpose(a, free_a + axes_a), (ma, k))
    bt = reshape(transpose(b, axes_b + free_b), (k, nb))
    r = _core.matmul(at, bt)
    return reshape(r, tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b))


def kron(a, b):
    a, b = asarray(a), asarray(b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    ia, ib = [], []
    for x, y in zip(sa, sb):
        ia += [x, 1]
        ib += [1, y]
    r = reshape(a, ia) * reshape(b, ib)
    return reshape(r, tuple(x * y for x, y in zip(sa, sb)))


def matvec(x1, x2, /, out=None, **kwargs):
    _check_kwargs("matvec", kwargs)
    a, v = asarray(x1), asarray(x2)
    if a.ndim < 2 or v.ndim < 1:
        raise ValueError("[mnn.numpy.matvec] matvec: Input operand does not have enough dimensions")
    if a.shape[-1] != v.shape[-1]:
        raise ValueError(f"[mnn.numpy.matvec] matvec: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature (m,n),(n)->(m) (size {v.shape[-1]} is different from {a.shape[-1]})")
    r = _core.matmul(a, _core.expand_dims(v, v.ndim))
    return write_out(r[..., 0], out, "matvec")


def vecmat(x1, x2, /, out=None, **kwargs):
    _check_kwargs("vecmat", kwargs)
    v, a = asarray(x1), asarray(x2)
    if a.ndim < 2 or v.ndim < 1:
        raise ValueError("[mnn.numpy.vecmat] vecmat: Input operand does not have enough dimensions")
    if a.shape[-2] != v.shape[-1]:
        raise ValueError(f"[mnn.numpy.vecmat] vecmat: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature (n),(n,m)->(m) (size {a.shape[-2]} is different from {v.shape[-1]})")
    r = _core.matmul(_core.expand_dims(v, v.ndim - 1), a)
    return write_out(r[..., 0, :], out, "vecmat")


matvec.nin = vecmat.nin = 2
matvec.nout = vecmat.nout = 1

from ._einsum import einsum, einsum_path  # noqa: E402,F401
