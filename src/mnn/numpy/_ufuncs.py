"""Elementwise functions (numpy's ufuncs): one engine opcode each, broadcasting, NumPy 2 promotion
with weak Python scalars, and out=."""
import functools

from .. import _core
from . import _dtypes, _ufunc_methods
from ._common import asarray, ndarray, write_out

_OPCODES = _core.OPCODES


def _make(name, nin):
    code = _OPCODES[name]

    if nin == 1:
        def ufunc(x, /, out=None, *, dtype=None, **kwargs):
            if out is None and dtype is None and not kwargs and type(x) is ndarray:
                try:  # np.exp(z) in a loop: the engine call alone (strings take the path below)
                    return _core.ufunc(code, x)
                except (TypeError, RuntimeError):
                    pass
            where = kwargs.pop("where", True)
            _check_kwargs(name, kwargs)
            if dtype is not None:
                x = asarray(x).astype(dtype)
            try:
                r = _core.ufunc(code, x)
            except (TypeError, RuntimeError) as e:  # strings: numpy's TypeError (no loop)
                from ._strfuncs import ufunc_fallback
                return ufunc_fallback(name, (x,), e)
            return write_out(r if where is True else _where_result(r, where, out), out, name)
    else:
        def ufunc(x1, x2, /, out=None, *, dtype=None, **kwargs):
            if out is None and dtype is None and not kwargs:
                try:
                    return _core.ufunc(code, x1, x2)
                except (TypeError, RuntimeError):
                    pass
            where = kwargs.pop("where", True)
            _check_kwargs(name, kwargs)
            try:
                r = _core.ufunc(code, x1, x2)
            except (TypeError, RuntimeError) as e:  # strings: numpy 2's add/comparison loops, else TypeError
                from ._strfuncs import ufunc_fallback
                return write_out(ufunc_fallback(name, (x1, x2), e), out, name)
            if dtype is not None and _dtypes.dtype(dtype) != r.dtype:
                r = r.astype(dtype)
            return write_out(r if where is True else _where_result(r, where, out), out, name)
    ufunc.__name__ = name
    ufunc.__qualname__ = name
    ufunc.__doc__ = f"numpy.{name}, evaluated lazily by the engine (fused with neighbouring elementwise work)."
    ufunc.nin = nin
    ufunc.nout = 1
    _add_methods(ufunc, name)
    return ufunc


def _add_methods(fn, name):
    """numpy's ufunc attributes and methods (reduce, accumulate, outer, at) on a plain function:
    attributes keep the call itself as cheap as before."""
    fn._mnn_ufunc = True
    fn.nargs = fn.nin + fn.nout
    fn.identity = _ufunc_methods.IDENTITY.get(name)
    fn.signature = None
    fn.at = functools.partial(_ufunc_methods.at, fn, name)
    # unary functions have them too and raise numpy's ValueError
    fn.reduce = functools.partial(_ufunc_methods.reduce, fn, name)
    fn.accumulate = functools.partial(_ufunc_methods.accumulate, fn, name)
    fn.outer = functools.partial(_ufunc_methods.outer, fn, name)
    fn.reduceat = functools.partial(_ufunc_methods.reduceat, fn, name)


class _UfuncMeta(type):
    def __instancecheck__(cls, obj):
        return getattr(obj, "_mnn_ufunc", False) is True


class ufunc(metaclass=_UfuncMeta):
    """isinstance(np.add, np.ufunc) holds for mnn's elementwise functions (they are plain functions
    carrying numpy's ufunc attributes and methods)."""
    __module__ = "mnn.numpy"

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'mnn.numpy.ufunc' instances")


def _where_result(r, where, out):
    """numpy's where=: the result where the mask holds, the old contents of `out` elsewhere (numpy
    leaves those uninitialised when there is no out; mnn gives zeros). The excluded elements are
    still computed (lazily, fused), and their values discarded."""
    cond = asarray(where)
    if cond.dtype != _dtypes.bool_:
        cond = _core.ufunc(_OPCODES["not_equal"], cond, 0)
    if isinstance(out, tuple):
        out = out[0] if len(out) == 1 else None
    if out is not None:
        keep = out if isinstance(out, ndarray) else asarray(out)
        return _core.ufunc(_OPCODES["where"], cond, r, keep)
    return _core.ufunc(_OPCODES["where"], cond, r, _core.ufunc(_OPCODES["multiply"], r, 0).astype(r.dtype))


def _check_kwargs(name, kwargs):
    where = kwargs.pop("where", True)
    kwargs.pop("casting", None)
    kwargs.pop("order", None)
    kwargs.pop("subok", None)
    if where is not True:
        raise NotImplementedError(f"[mnn.numpy.{name}] where= is not supported yet")
    if kwargs:
        raise TypeError(f"[mnn.numpy.{name}] unexpected keyword arguments {sorted(kwargs)}")


_UNARY = ["negative", "positive", "absolute", "sign", "square", "reciprocal", "floor", "ceil", "trunc", "invert",
          "logical_not", "rint", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
          "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
          "deg2rad", "rad2deg", "isnan", "isinf", "isfinite", "signbit"]
_BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "maximum", "minimum",
           "fmax", "fmin", "arctan2", "hypot", "copysign", "logaddexp", "logaddexp2", "heaviside", "equal",
           "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
           "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"]

UFUNCS = {}
for _n in _UNARY:
    UFUNCS[_n] = _make(_n, 1)
for _n in _BINARY:
    UFUNCS[_n] = _make(_n, 2)

# numpy and Array API spellings of the same functions
ALIASES = {
    "abs": "absolute", "true_divide": "divide", "mod": "remainder", "bitwise_not": "invert",
    "bitwise_invert": "invert", "degrees": "rad2deg", "radians": "deg2rad", "acos": "arccos",
    "asin": "arcsin", "atan": "arctan", "acosh": "arccosh", "asinh": "arcsinh", "atanh": "arctanh",
    "atan2": "arctan2", "pow": "power", "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
    "fabs": "absolute",
}
for _a, _n in ALIASES.items():
    UFUNCS[_a] = UFUNCS[_n]


def fabs(x, /, out=None):
    x = asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(_dtypes.result_type(x.dtype, _dtypes.float16))
    return UFUNCS["absolute"](x, out=out)


fabs.nin, fabs.nout = 1, 1
_add_methods(fabs, "fabs")
UFUNCS["fabs"] = fabs


_NUMERIC_OPERANDS = {ndarray, int, float, bool, complex}


def where(condition, x=None, y=None, /):
    """Elements of x where condition holds, else of y (broadcast; x/y promoted like a ufunc)."""
    if x is None and y is None:
        raise NotImplementedError("[mnn.numpy.where] where(condition) (nonzero) is not supported yet")
    if x is None or y is None:
        raise ValueError("[mnn.numpy.where] either both or neither of x and y should be given")
    if x.__class__ not in _NUMERIC_OPERANDS or y.__class__ not in _NUMERIC_OPERANDS:
        from . import _strfuncs
        if _strfuncs._is_str_operand(x) or _strfuncs._is_str_operand(y):  # numpy's '<U' strings
            return _strfuncs.where_strings(condition, x, y)
    cond = asarray(condition)
    if cond.dtype != _dtypes.bool_:
        cond = _core.ufunc(_OPCODES["not_equal"], cond, 0)
    return _core.ufunc(_OPCODES["where"], cond, x, y)


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs):
    """numpy.clip: minimum(maximum(a, a_min), a_max), NaN-propagating, in the promoted dtype."""
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    r = asarray(a)
    if r.dtype.kind in "iu":  # NumPy 2 (NEP 50): a Python int bound outside the integer dtype's
        info = _dtypes.iinfo(r.dtype)  # range on the side that cannot clip is dropped; the other side
        if type(lo) is int and lo < info.min:  # raises OverflowError in maximum/minimum, as numpy
            lo = None
        if type(hi) is int and hi > info.max:
            hi = None
        lo_ok = lo is None or (type(lo) is int and info.min <= lo <= info.max)
        hi_ok = hi is None or (type(hi) is int and info.min <= hi <= info.max)
        if lo_ok and hi_ok and (lo is not None or hi is not None):  # one native pass, same dtype
            lo_v = info.min if lo is None else lo
            hi_v = info.max if hi is None else hi
            # params are int64: uint64 bounds pass as their two's complement, read back as uint64
            lo_v, hi_v = [v - (1 << 64) if v >= (1 << 63) else v for v in (lo_v, hi_v)]
            return write_out(_core.prim("clip_int", [r], [lo_v, hi_v], []), out, "clip")
    if lo is None and hi is None:
        return write_out(_core.copy(r), out, "clip")
    if lo is not None:
        r = _core.ufunc(_OPCODES["maximum"], r, lo)
    if hi is not None:
        r = _core.ufunc(_OPCODES["minimum"], r, hi)
    return write_out(r, out, "clip")


def around(a, decimals=0, out=None):
    """Round half to even; with decimals, numpy's scale-rint-unscale (same float error)."""
    a = asarray(a)
    if a.dtype.kind in "biu":
        if decimals >= 0:
            return write_out(_core.copy(a), out, "around")
        # numpy: true_divide into float64, rint (half to even), multiply, cast back
        f = 10.0 ** (-decimals)
        r = _core.ufunc(_OPCODES["rint"], _core.ufunc(_OPCODES["divide"], a.astype(_dtypes.float64), f)) * f
        return write_out(r.astype(a.dtype), out, "around")
    if decimals == 0:
        return write_out(_core.ufunc(_OPCODES["rint"], a), out, "around")
    if decimals > 0:
        f = 10.0 ** decimals
        r = _core.ufunc(_OPCODES["rint"], a * f) / f
    else:
        f = 10.0 ** (-decimals)
        r = _core.ufunc(_OPCODES["rint"], a / f) * f
    return write_out(r, out, "around")


round = around  # noqa: A001
round_ = around


def conj(x, /):
    return _core.copy(asarray(x))


conjugate = conj


def real(val):
    return asarray(val)


def imag(val):
    a = asarray(val)
    from ._creation import zeros_like
    return zeros_like(a)
