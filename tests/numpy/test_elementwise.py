"""Elementwise functions (mnn.numpy's ufuncs) against the real numpy: every function over every dtype,
shapes, broadcasting, strided views, integer wrap-around and division by zero, NaN/inf/-0.0, out=,
and where/clip/around."""
import warnings

import numpy
import pytest

import mnn.numpy as mnp
from mnn import _core
from mnn.numpy._ufuncs import ALIASES, UFUNCS, _BINARY, _UNARY

from helpers import ALL_DTYPES, FLOAT_DTYPES, INT_DTYPES, RTOL, SHAPES, assert_same, non_contiguous, sample

# Functions whose float results numpy computes exactly (IEEE-rounded): compared bit for bit.
# Everything else that returns floats (transcendentals, power, hypot, ...) is compared with RTOL.
EXACT = {"negative", "positive", "absolute", "sign", "square", "reciprocal", "floor", "ceil", "trunc", "invert",
         "logical_not", "rint", "sqrt", "isnan", "isinf", "isfinite", "signbit", "add", "subtract", "multiply",
         "divide", "floor_divide", "remainder", "maximum", "minimum", "fmax", "fmin", "copysign", "heaviside",
         "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
         "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}

ALL_NAMES = _UNARY + _BINARY


def _raise_kind(exc):
    for k in (OverflowError, TypeError, ValueError, ZeroDivisionError):
        if isinstance(exc, k):
            return k
    return type(exc)


def _materialize(r):
    return numpy.asarray(r) if isinstance(r, mnp.ndarray) else r


def compare(name, np_args, mnn_args=None, rtol=None, **kwargs):
    """Calls numpy.<name> and mnn.numpy.<name> on the same inputs; same result or same error type."""
    if mnn_args is None:
        mnn_args = [mnp.asarray(a) if isinstance(a, numpy.ndarray) else a for a in np_args]
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            expected = getattr(numpy, name)(*np_args, **kwargs)
        except Exception as e:  # numpy refuses: mnn must refuse the same way
            with pytest.raises(_raise_kind(e)):
                _materialize(getattr(mnp, name)(*mnn_args, **kwargs))
            return None
        got = getattr(mnp, name)(*mnn_args, **kwargs)
        if rtol is None and name not in EXACT and numpy.asarray(expected).dtype.kind == "f":
            rtol = RTOL[numpy.asarray(expected).dtype.name]
        assert_same(got, expected, rtol=rtol)
    return expected


def unary_input(name, shape, dtype, seed=0):
    """Test data inside the function's domain (mostly), with values numpy defines for the dtype."""
    kind = numpy.dtype(dtype).kind
    if name in ("arcsin", "arccos", "arctanh"):
        return sample(shape, dtype, seed, low=-1, high=1) if kind != "f" else sample(shape, dtype, seed, -1.0, 1.0)
    if name == "arccosh":
        return sample(shape, dtype, seed, low=1, high=100) if kind == "b" or kind in "iu" else sample(
            shape, dtype, seed, 1.0, 10.0)
    if name == "reciprocal" and kind in "iu":
        # numpy's integer 1/0 is undefined behaviour (garbage): keep zero out
        a = sample(shape, dtype, seed)
        a[a == 0] = 1
        return a
    if name in ("exp", "exp2", "expm1", "sinh", "cosh") and kind in "iu":
        return sample(shape, dtype, seed, low=0 if kind == "u" else -10, high=10)
    return sample(shape, dtype, seed)


def binary_inputs(name, shape1, shape2, dtype1, dtype2, seed=0):
    a = sample(shape1, dtype1, seed)
    b = sample(shape2, dtype2, seed + 1)
    if name == "power":
        k = numpy.dtype(dtype2).kind
        if k in "iu":  # numpy: integers to negative integer powers raise ValueError (tested separately)
            b = sample(shape2, dtype2, seed + 1, low=0, high=5)
        elif k == "f":
            b = sample(shape2, dtype2, seed + 1, low=-4.0, high=4.0)
    if name in ("left_shift", "right_shift") and numpy.dtype(dtype2).kind in "iu":
        bits = 8 * min(numpy.dtype(dtype1).itemsize, numpy.dtype(dtype2).itemsize)
        b = sample(shape2, dtype2, seed + 1, low=0, high=bits - 1)
    return a, b


# ---------------------------------------------------------------------------------------------- every dtype
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", _UNARY)
def test_unary_dtypes(name, dtype):
    compare(name, [unary_input(name, (67,), dtype)])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", _BINARY)
def test_binary_same_dtype(name, dtype):
    a, b = binary_inputs(name, (67,), (67,), dtype, dtype)
    compare(name, [a, b])


MIXED = [("int8", "uint8"), ("int16", "uint32"), ("uint64", "int64"), ("int32", "float32"), ("uint8", "float16"),
         ("bool", "int16"), ("float16", "float32"), ("int64", "float64"), ("bool", "float32"), ("uint16", "int8")]


@pytest.mark.parametrize("dtypes", MIXED, ids=lambda d: "-".join(d))
@pytest.mark.parametrize("name", _BINARY)
def test_binary_mixed_dtypes(name, dtypes):
    a, b = binary_inputs(name, (3, 4), (3, 4), *dtypes)
    compare(name, [a, b])
    b2, a2 = binary_inputs(name, (3, 4), (3, 4), dtypes[1], dtypes[0], seed=3)
    compare(name, [b2, a2])


@pytest.mark.parametrize("name", sorted(ALIASES) + ["fabs"])
def test_aliases(name):
    for dt in ("int16", "float32", "bool"):
        fn = getattr(numpy, name)
        if fn.nin == 1:
            compare(name, [unary_input(ALIASES.get(name, name), (7,), dt)])
        else:
            compare(name, list(binary_inputs(ALIASES.get(name, name), (7,), (7,), dt, dt)))


# ---------------------------------------------------------------------------------------------- shapes
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
@pytest.mark.parametrize("name", ALL_NAMES)
def test_shapes(name, dtype, shape):
    if name in _UNARY:
        compare(name, [unary_input(name, shape, dtype)])
    else:
        compare(name, list(binary_inputs(name, shape, shape, dtype, dtype)))


BROADCAST = [((3, 1), (1, 4)), ((4,), (2, 3, 4)), ((), (3, 4)), ((3, 4), ()), ((2, 3, 4), (4,)), ((0, 1), (1, 5)),
             ((2, 1, 4), (3, 1))]


@pytest.mark.parametrize("shapes", BROADCAST, ids=str)
@pytest.mark.parametrize("name", _BINARY)
def test_broadcasting(name, shapes):
    for dt in ("int16", "float64"):
        compare(name, list(binary_inputs(name, shapes[0], shapes[1], dt, dt)))


def test_broadcast_error():
    with pytest.raises(ValueError):
        numpy.add(numpy.ones((3,)), numpy.ones((4,)))
    with pytest.raises(ValueError):
        mnp.add(mnp.ones((3,)), mnp.ones((4,)))


# ---------------------------------------------------------------------------------------------- strided views
def _views(a):
    yield a[::-1]
    yield non_contiguous(a)
    if a.ndim >= 2:
        yield a.T
        yield a[::-1, ::2]
        yield a[1:, ::-3]


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float16", "float32", "float64", "bool"])
@pytest.mark.parametrize("name", ALL_NAMES)
def test_strided_inputs(name, dtype):
    for shape in [(9,), (4, 6)]:
        if name in _UNARY:
            base = unary_input(name, shape, dtype)
            for v in _views(base):
                compare(name, [v])
        else:
            a, b = binary_inputs(name, shape, shape, dtype, dtype)
            for va, vb in zip(_views(a), _views(b)):
                compare(name, [va, vb])
                compare(name, [va, numpy.ascontiguousarray(vb)])


def test_strided_view_of_mnn_array():
    a = sample((4, 6), "float32")
    m = mnp.asarray(a)
    assert_same(mnp.add(m[::-1, 1::2], m[:, ::-2]), numpy.add(a[::-1, 1::2], a[:, ::-2]))
    assert_same(mnp.sqrt(m.T[::2]), numpy.sqrt(a.T[::2]))


# ---------------------------------------------------------------------------------------------- integers
@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_overflow_wraps(dtype):
    info = numpy.iinfo(dtype)
    a = numpy.array([info.max, info.min, info.max - 1, info.min + 1, 0, 1], dtype=dtype)
    b = numpy.array([1, -1 if info.min < 0 else info.max, 3, info.max, info.max, info.max], dtype=dtype)
    for name in ("add", "subtract", "multiply", "square", "negative", "absolute", "left_shift", "power"):
        if name in ("square", "negative", "absolute"):
            compare(name, [a])
        elif name == "left_shift":
            compare(name, [a, numpy.full_like(a, info.bits - 1)])
        elif name == "power":
            compare(name, [a, numpy.array([2, 3, 5, 7, 0, 63], dtype=dtype)])
        else:
            compare(name, [a, b])


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("name", ["floor_divide", "remainder", "divide"])
def test_integer_division_by_zero(name, dtype):
    a = sample((11,), dtype)
    b = numpy.zeros(11, dtype=dtype)
    b[::3] = 3
    compare(name, [a, b])
    compare(name, [numpy.zeros(4, dtype=dtype), numpy.zeros(4, dtype=dtype)])


@pytest.mark.parametrize("dtype", [d for d in INT_DTYPES if d.startswith("int")])
def test_int_min_floor_divide_minus_one(dtype):
    info = numpy.iinfo(dtype)
    a = numpy.array([info.min, info.min, info.min + 1, -7, 7], dtype=dtype)
    b = numpy.array([-1, 1, -1, 2, -2], dtype=dtype)
    for name in ("floor_divide", "remainder"):
        compare(name, [a, b])


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_floor_divide_remainder_signs(dtype):
    kind_signed = numpy.dtype(dtype).kind == "i"
    vals = [-7, -6, -1, 0, 1, 6, 7] if kind_signed else [0, 1, 6, 7, 200]
    divs = [-3, -2, -1, 1, 2, 3] if kind_signed else [1, 2, 3, 7]
    a = numpy.array(vals, dtype=dtype)[:, None]
    b = numpy.array(divs, dtype=dtype)[None, :]
    compare("floor_divide", [a, b])
    compare("remainder", [a, b])


@pytest.mark.parametrize("dtype", [d for d in INT_DTYPES if d.startswith("int")])
def test_int_negative_power_raises(dtype):
    a = numpy.array([2, 3], dtype=dtype)
    b = numpy.array([1, -1], dtype=dtype)
    compare("power", [a, b])  # ValueError in numpy


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_shifts_by_width_or_more(dtype):
    info = numpy.iinfo(dtype)
    a = numpy.array([1, -1 if info.min < 0 else info.max, 5, info.min, info.max], dtype=dtype)
    for s in (info.bits - 1, info.bits, info.bits + 3):
        sh = numpy.full(5, s, dtype=dtype)
        compare("left_shift", [a, sh])
        compare("right_shift", [a, sh])


@pytest.mark.parametrize("dtype", ["uint8", "uint64", "int64"])
def test_uint64_extremes(dtype):
    info = numpy.iinfo(dtype)
    a = numpy.array([info.max, info.max // 2, 0, info.max - 1], dtype=dtype)
    b = numpy.array([info.max, 2, 5, 1], dtype=dtype)
    for name in ("add", "multiply", "floor_divide", "remainder", "maximum", "less", "greater_equal", "bitwise_xor",
                 "right_shift"):
        compare(name, [a, b])
    compare("divide", [a, b])
    compare("sqrt", [a])


# ---------------------------------------------------------------------------------------------- NaN, inf, -0.0
SPECIALS = [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-30, 60000.0]


def _same_signs(got, expected):
    g = numpy.asarray(got)
    e = numpy.asarray(expected)
    if e.dtype.kind == "f":
        m = ~numpy.isnan(e)
        assert numpy.array_equal(numpy.signbit(g[m]), numpy.signbit(e[m])), f"signs of zeros differ: {g} vs {e}"


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name", _UNARY)
def test_unary_special_values(name, dtype):
    a = numpy.array(SPECIALS, dtype=dtype)
    exp = compare(name, [a])
    if exp is not None and name in EXACT:
        _same_signs(getattr(mnp, name)(mnp.asarray(a)), exp)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name", _BINARY)
def test_binary_special_values(name, dtype):
    a = numpy.array(SPECIALS, dtype=dtype)
    exp = compare(name, [a[:, None], a[None, :]])
    # numpy's maximum(0.0, -0.0) is platform-defined (x86 SIMD returns the second operand for
    # float32/64, the first for float16): only NaN handling is compared for the min/max family
    if exp is not None and name in EXACT and name not in ("maximum", "minimum", "fmax", "fmin"):
        _same_signs(getattr(mnp, name)(mnp.asarray(a[:, None]), mnp.asarray(a[None, :])), exp)


def test_nan_propagation_maximum_vs_fmax():
    a = numpy.array([numpy.nan, 1.0, numpy.nan, -numpy.inf, 0.0, -0.0], dtype="float32")
    b = numpy.array([2.0, numpy.nan, numpy.nan, numpy.nan, -0.0, 0.0], dtype="float32")
    for name in ("maximum", "minimum", "fmax", "fmin"):
        compare(name, [a, b])
        compare(name, [b, a])


# ---------------------------------------------------------------------------------------------- float16
@pytest.mark.parametrize("name", ALL_NAMES)
def test_float16_rounding(name):
    """float16 values that round differently when computed in float32 then cast."""
    a = numpy.array([65504, 0.1, 1 / 3, 2049, 6.1e-5, 5.96e-8, -1000.0, 0.999], dtype="float16")
    if name in _UNARY:
        compare(name, [a])
    else:
        compare(name, [a, a[::-1].copy()])


def test_float16_overflow_to_inf():
    a = numpy.array([60000, 40000, -60000], dtype="float16")
    compare("add", [a, a])
    compare("multiply", [a, a])
    compare("square", [a])


# ---------------------------------------------------------------------------------------------- Python scalars
@pytest.mark.parametrize("scalar", [True, 3, -2, 2.5, 300], ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "greater", "true_divide", "floor_divide",
                                  "bitwise_and", "arctan2"])
def test_python_scalar_operands(name, dtype, scalar):
    a = sample((5,), dtype)
    compare(name, [a, scalar])
    compare(name, [scalar, a])


@pytest.mark.parametrize("args", [(2, 3), (2.5, 1), (True, False), (7, -2), (-7, 2.0)], ids=str)
@pytest.mark.parametrize("name", ["add", "floor_divide", "power", "maximum", "less", "divide", "arctan2"])
def test_scalars_only(name, args):
    compare(name, list(args))


# ---------------------------------------------------------------------------------------------- out=
@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "maximum", "sqrt", "negative", "less"])
def test_out(name):
    a = sample((3, 4), "float32")
    b = sample((3, 4), "float32", seed=2)
    args_np = [a] if name in _UNARY else [a, b]
    for out_dtype in ("float32", "float64", "bool"):
        out_np = numpy.zeros((3, 4), dtype=out_dtype)
        out_m = mnp.zeros((3, 4), dtype=out_dtype)
        args_m = [mnp.asarray(x) for x in args_np]
        with numpy.errstate(all="ignore"):
            try:
                r_np = getattr(numpy, name)(*args_np, out=out_np)
            except Exception as e:
                with pytest.raises(_raise_kind(e)):
                    getattr(mnp, name)(*args_m, out=out_m)
                continue
            r_m = getattr(mnp, name)(*args_m, out=out_m)
        assert r_m is out_m
        assert r_np is out_np
        assert_same(out_m, out_np)


def test_out_same_kind_error_type():
    a = mnp.asarray(numpy.ones(3, dtype="float64"))
    out = mnp.zeros(3, dtype="int32")
    with pytest.raises(TypeError) as info_np:
        numpy.add(numpy.ones(3), numpy.ones(3), out=numpy.zeros(3, dtype="int32"))
    with pytest.raises(TypeError) as info:
        mnp.add(a, a, out=out)
    assert "same_kind" in str(info.value) and "same_kind" in str(info_np.value)
    # numpy raises its UFuncTypeError (a TypeError subclass); mnn its own class of the same name
    assert isinstance(info_np.value, numpy._core._exceptions.UFuncTypeError)
    assert isinstance(info.value, _core.UFuncTypeError)
    assert out._is_whole and numpy.array_equal(numpy.asarray(out), numpy.zeros(3, "int32"))  # untouched


def test_out_broadcast_and_tuple_and_views():
    a = sample((4,), "int32")
    b = sample((3, 4), "int32", seed=1)
    out_np = numpy.zeros((3, 4), "int64")
    out_m = mnp.zeros((3, 4), "int64")
    numpy.add(a, 1, out=(out_np,))
    mnp.add(mnp.asarray(a), 1, out=(out_m,))
    assert_same(out_m, out_np)
    # out is a view: the base sees the write
    base_np = numpy.zeros((3, 4), "int32")
    base_m = mnp.zeros((3, 4), "int32")
    numpy.multiply(b[:, ::2], 2, out=base_np[:, 1::2])
    mnp.multiply(mnp.asarray(b)[:, ::2], 2, out=base_m[:, 1::2])
    assert_same(base_m, base_np)
    # out that aliases an input
    x_np = b.copy()
    x_m = mnp.asarray(b.copy())
    numpy.add(x_np, x_np[::-1], out=x_np)
    mnp.add(x_m, x_m[::-1], out=x_m)
    assert_same(x_m, x_np)
    with pytest.raises(ValueError):
        mnp.add(mnp.asarray(b), 1, out=mnp.zeros((4,), "int32"))


# ---------------------------------------------------------------------------------------------- where / clip / around
@pytest.mark.parametrize("dtypes", [("int8", "int8"), ("int8", "uint8"), ("float32", "int64"), ("bool", "float16"),
                                    ("uint64", "int64"), ("float64", "float32")], ids=lambda d: "-".join(d))
def test_where(dtypes):
    c = sample((3, 4), "bool")
    x = sample((3, 4), dtypes[0], seed=1)
    y = sample((4,), dtypes[1], seed=2)
    compare("where", [c, x, y])
    compare("where", [c[:, :1], x[:1], y])
    compare("where", [c, x, 0])
    compare("where", [c, 2.5, y])
    compare("where", [c, x[::-1], y[::-1]])


def test_where_condition_not_bool():
    c = numpy.array([0.0, numpy.nan, -0.0, 2.0])
    compare("where", [c, 1, 2])
    compare("where", [numpy.array([0, 3, -1, 0], dtype="int8"), numpy.arange(4), -1])
    compare("where", [True, numpy.arange(3), 5])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_clip(dtype):
    a = sample((3, 5), dtype)
    if dtype == "bool":
        compare("clip", [a, False, True])
        return
    compare("clip", [a, 2, 50])
    compare("clip", [a, None, 7])
    compare("clip", [a, 1, None])
    lo = sample((5,), dtype, seed=4)
    compare("clip", [a, lo, lo + numpy.ones_like(lo)])
    if numpy.dtype(dtype).kind == "f":
        compare("clip", [a, -2.5, 2.5])
        compare("clip", [numpy.array([numpy.nan, 1.0, -numpy.inf], dtype=dtype), 0.0, 0.5])
        compare("clip", [a, numpy.nan, 1.0])


def test_clip_keywords_and_out():
    a = sample((6,), "int32")
    assert_same(mnp.clip(mnp.asarray(a), min=-3, max=3), numpy.clip(a, min=-3, max=3))
    out_np = numpy.zeros(6, "int32")
    out_m = mnp.zeros(6, "int32")
    numpy.clip(a, 0, 10, out=out_np)
    r = mnp.clip(mnp.asarray(a), 0, 10, out=out_m)
    assert r is out_m
    assert_same(out_m, out_np)


@pytest.mark.parametrize("decimals", [-2, -1, 0, 1, 2, 3])
@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint32", "float16", "float32",
                                   "float64"])
def test_around(dtype, decimals):
    if numpy.dtype(dtype).kind in "iu":
        a = sample((16,), dtype)
        a[:4] = [15, 25, 35, 45] if decimals != -2 else [50, 127, 120, 100]
        if numpy.dtype(dtype).kind == "i":
            a[4:6] = -a[:2]
    else:
        a = numpy.concatenate([sample((12,), dtype),
                               numpy.array([0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 1.005, 2.675, 150.0, 250.0,
                                            numpy.nan, numpy.inf, -0.0], dtype=dtype)])
    compare("around", [a], decimals=decimals)
    compare("round", [a], decimals=decimals)


def test_around_out():
    a = sample((5,), "float64")
    out_np = numpy.zeros(5)
    out_m = mnp.zeros(5)
    numpy.around(a, 1, out=out_np)
    mnp.around(mnp.asarray(a), 1, out=out_m)
    assert_same(out_m, out_np)


# ---------------------------------------------------------------------------------------------- misc
def test_dtype_keyword():
    a = sample((5,), "int16")
    assert_same(mnp.add(mnp.asarray(a), 1, dtype="float32"), numpy.add(a, 1, dtype="float32"))
    assert_same(mnp.sqrt(mnp.asarray(a), dtype="float64"), numpy.sqrt(a, dtype="float64"))


def test_results_are_lazy_but_stable():
    a = sample((100,), "float32")
    m = mnp.asarray(a)
    r = mnp.exp(mnp.sin(m) * 2.0 + 1.0) - mnp.cos(m)
    e = numpy.exp(numpy.sin(a) * numpy.float32(2.0) + numpy.float32(1.0)) - numpy.cos(a)
    assert_same(r, e, rtol=1e-5)


def test_every_ufunc_is_covered():
    assert set(UFUNCS) == set(_UNARY) | set(_BINARY) | set(ALIASES) | {"fabs"}
    for name in UFUNCS:
        assert hasattr(numpy, name), name


# ---------------------------------------------------------------------------------------------- SIMD / threads
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "int64", "uint64", "float16", "float32",
                                   "float64"])
@pytest.mark.parametrize("name", ALL_NAMES)
def test_large_arrays(name, dtype):
    """Long enough for the vector kernels, their tails and several threads' tiles."""
    shape = (70001,)
    if name in _UNARY:
        a = unary_input(name, shape, dtype, seed=5)
        compare(name, [a])
        compare(name, [a[::-3]])
    else:
        a, b = binary_inputs(name, shape, shape, dtype, dtype, seed=5)
        compare(name, [a, b])
        compare(name, [a[1:], b[:-1]])  # misaligned
        compare(name, [a, b[:1].reshape(())])  # a 0-d array broadcast


@pytest.mark.parametrize("dtype", ["int16", "float16", "float32", "float64"])
def test_fused_chain_matches_step_by_step(dtype):
    a = sample((5003,), dtype, seed=1)
    b = sample((5003,), dtype, seed=2, low=1 if dtype.startswith("int") else 0.5)
    m, n = mnp.asarray(a), mnp.asarray(b)
    with numpy.errstate(all="ignore"):
        e = numpy.maximum(numpy.floor_divide(a * b - a, b) + numpy.remainder(a, b), a)
        e2 = numpy.sqrt(numpy.absolute(a)) * numpy.negative(b)
    assert_same(mnp.maximum(mnp.floor_divide(m * n - m, n) + mnp.remainder(m, n), m), e)
    assert_same(mnp.sqrt(mnp.absolute(m)) * mnp.negative(n), e2)


@pytest.mark.parametrize("name", ["divide", "add", "power", "maximum", "sqrt", "negative", "log"])
def test_where_keyword(name):
    # numpy's where=: results where the mask holds, out's old values elsewhere (the safe-division idiom)
    a = numpy.array([[1.0, 4.0, 9.0, -2.0], [0.5, 0.0, 3.0, 8.0]])
    b = numpy.array([2.0, 0.0, 1.0, 0.0])
    f, g = getattr(numpy, name), getattr(mnp, name)
    mask = b != 0
    args = (a,) if f.nin == 1 else (a, b)
    margs = tuple(mnp.asarray(x) for x in args)
    with numpy.errstate(all="ignore"):
        ref = f(*args, out=numpy.full(a.shape, -7.0), where=mask)
    out = mnp.full(a.shape, -7.0)
    got = g(*margs, out=out, where=mnp.asarray(mask))
    assert got is out
    assert_same(got, ref)
    # without out: compare where the mask holds (numpy leaves the rest uninitialised)
    got2 = numpy.asarray(g(*margs, where=mnp.asarray(mask)))
    with numpy.errstate(all="ignore"):
        full = f(*args)
    numpy.testing.assert_array_equal(got2[numpy.broadcast_to(mask, a.shape)], full[numpy.broadcast_to(mask, a.shape)])
