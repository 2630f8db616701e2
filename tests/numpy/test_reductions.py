"""Reductions and scans (sum ... cumprod) against numpy: axes, keepdims, dtype=, out=, result dtypes,
empty inputs, NaN handling, float accuracy."""
import warnings

import numpy
import pytest

import mnn.numpy as mnp
from helpers import ALL_DTYPES, FLOAT_DTYPES, SHAPES, assert_same, non_contiguous, sample

AXES = [None, 0, -1, 1, (0, 1), (0, 2), (), (-1, 0)]


def np_call(fn, *args, **kw):
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return getattr(numpy, fn)(*args, **kw), None
        except Exception as e:  # noqa: BLE001
            return None, e


def compare(fn, x, rtol=None, **kw):
    expected, err = np_call(fn, x, **kw)
    a = mnp.asarray(x)
    if err is not None:
        etype = mnp.AxisError if isinstance(err, numpy.exceptions.AxisError) else type(err)
        with pytest.raises(etype):
            getattr(mnp, fn)(a, **kw)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = getattr(mnp, fn)(a, **kw)
    if rtol is None and numpy.asarray(expected).dtype.kind == "f" and fn in ("mean", "std", "var"):
        rtol = {"float16": 1e-3, "float32": 1e-5, "float64": 1e-12}[numpy.asarray(expected).dtype.name]
    if rtol is None and numpy.asarray(expected).dtype.kind == "f" and fn in ("sum", "prod", "cumsum", "cumprod"):
        rtol = {"float16": 1e-2, "float32": 1e-5, "float64": 1e-12}[numpy.asarray(expected).dtype.name]
    assert_same(got, expected, rtol=rtol, atol=0.0 if rtol is None else 1e-6)


SMALL = {"int8": (-3, 3), "uint8": (0, 3), "int16": (-3, 3), "uint16": (0, 3), "float16": (-2, 2)}


def data(shape, dtype, seed=0):
    lo, hi = SMALL.get(dtype, (None, None))
    return sample(shape, dtype, seed, low=lo, high=hi)


@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "all", "any", "mean", "std", "var", "argmin",
                                "argmax"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(), (5,), (3, 4), (2, 3, 4)])
def test_reduce_all_axes(fn, dtype, shape):
    x = data(shape, dtype)
    axes = [None, 0, -1, 1, (0, 1), (), (-1, 0)] if fn not in ("argmin", "argmax") else [None, 0, -1, 1, 2]
    for axis in axes:
        compare(fn, x, axis=axis)
        if fn not in ("argmin", "argmax") or axis is not None:
            compare(fn, x, axis=axis, keepdims=True)


@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "mean", "argmax", "cumsum", "all"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "uint8", "bool", "float64"])
def test_reduce_non_contiguous(fn, dtype):
    x = data((4, 6), dtype)
    for src in (non_contiguous(x), x[::-1, ::-2], x.T):
        for axis in (None, 0, 1):
            compare(fn, src, axis=axis)


@pytest.mark.parametrize("fn", ["sum", "prod", "cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_accumulator_dtypes(fn, dtype):
    x = data((3, 4), dtype)
    compare(fn, x)
    compare(fn, x, axis=1)
    for out_dt in ("int64", "float32", "uint8", "float64"):
        compare(fn, x, axis=0, dtype=out_dt)


@pytest.mark.parametrize("fn", ["mean", "std", "var"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_mean_var_dtypes(fn, dtype):
    x = data((4, 5), dtype)
    compare(fn, x)
    compare(fn, x, axis=0)
    if dtype != "bool" or fn == "mean":
        compare(fn, x, axis=1, dtype="float32")
    if fn != "mean":
        for ddof in (1, 2, 5, 7):
            compare(fn, x, ddof=ddof)
            compare(fn, x, axis=0, ddof=ddof)


def test_float16_mean_accumulates_in_float32():
    x = numpy.full(5000, 3.3, dtype=numpy.float16)
    assert_same(mnp.mean(mnp.asarray(x)), numpy.mean(x))
    assert_same(mnp.asarray(x).mean(), x.mean())


@pytest.mark.parametrize("fn", ["cumsum", "cumprod"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "bool", "uint16"])
def test_scans(fn, shape, dtype):
    x = data(shape, dtype)
    compare(fn, x)
    for axis in range(-len(shape), len(shape)):
        compare(fn, x, axis=axis)
    compare(fn, x, axis=len(shape))


@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "mean", "std", "var", "argmin", "argmax", "all",
                                "any", "cumsum", "cumprod"])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4)])
@pytest.mark.parametrize("dtype", ["int32", "float64", "bool"])
def test_empty_inputs(fn, shape, dtype):
    x = numpy.zeros(shape, dtype=dtype)
    compare(fn, x)
    for axis in range(len(shape)):
        compare(fn, x, axis=axis)


def test_empty_error_messages():
    with pytest.raises(ValueError):
        numpy.max(numpy.zeros(0))
    with pytest.raises(ValueError):
        mnp.max(mnp.zeros(0))
    with pytest.raises(ValueError):
        mnp.argmin(mnp.zeros((0, 3)), axis=0)
    assert_same(mnp.max(mnp.zeros(0), initial=3.0), numpy.max(numpy.zeros(0), initial=3.0))
    assert_same(mnp.sum(mnp.zeros(0, "int8")), numpy.sum(numpy.zeros(0, "int8")))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_nan_propagation(dtype):
    x = data((3, 5), dtype)
    x[1, 2] = numpy.nan
    x[2, 0] = numpy.nan
    x[2, 4] = numpy.inf
    x[0, 3] = -numpy.inf
    for fn in ("max", "min", "argmax", "argmin", "sum", "prod", "mean", "all", "any", "cumsum"):
        for axis in (None, 0, 1):
            compare(fn, x, axis=axis)


def test_argmax_ties_and_first_nan():
    x = numpy.array([[1, 3, 3, 0], [2, 2, 1, 2]], dtype=numpy.int16)
    for fn in ("argmax", "argmin"):
        for axis in (None, 0, 1):
            compare(fn, x, axis=axis)
    y = numpy.array([1.0, numpy.nan, 5.0, numpy.nan])
    compare("argmax", y)
    compare("argmin", y)


def test_bool_and_large_int_reductions():
    x = sample((50,), "int64", low=2**40, high=2**41)
    compare("sum", x)
    compare("max", x)
    u = numpy.random.default_rng(0).integers(2**63, 2**64 - 1, size=10, dtype=numpy.uint64)
    compare("max", u)
    compare("min", u)
    compare("sum", u)
    b = sample((7, 3), "bool")
    compare("sum", b, axis=0)
    compare("prod", b, axis=1)
    i8 = sample((100,), "int8", low=100, high=127)
    compare("sum", i8)
    compare("cumsum", i8)
    compare("sum", i8, dtype="int8")


@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "mean", "std", "all", "any", "argmax", "cumsum"])
def test_out_argument(fn):
    x = data((3, 4), "float32")
    a = mnp.asarray(x)
    axis = 0 if fn != "cumsum" else 1
    e = getattr(numpy, fn)(x, axis=axis)
    out_np = numpy.zeros_like(e, dtype=e.dtype if fn not in ("sum", "cumsum") else "float64")
    out = mnp.asarray(out_np.copy())
    r = getattr(mnp, fn)(a, axis=axis, out=out)
    getattr(numpy, fn)(x, axis=axis, out=out_np)
    assert r is out
    assert_same(out, out_np, rtol=1e-6)


def test_out_errors():
    x = data((3, 4), "float32")
    a = mnp.asarray(x)
    with pytest.raises(ValueError):
        numpy.sum(x, axis=0, out=numpy.zeros(3, "float32"))
    with pytest.raises(ValueError):
        mnp.sum(a, axis=0, out=mnp.zeros(3, "float32"))
    # reductions cast into out= unsafely (unlike elementwise ufuncs), after computing in their own dtype
    for fn in ("sum", "max", "mean", "prod", "cumsum", "argmax", "var"):
        shape = (3, 4) if fn == "cumsum" else (4,)
        o_np, o = numpy.zeros(shape, "int32"), mnp.zeros(shape, "int32")
        getattr(numpy, fn)(x * 1.7, axis=0, out=o_np)
        getattr(mnp, fn)(a * 1.7, axis=0, out=o)
        assert_same(o, o_np)
    with pytest.raises(TypeError):
        numpy.std(x, axis=0, out=numpy.zeros(4, "int32"))
    with pytest.raises(TypeError):
        mnp.std(a, axis=0, out=mnp.zeros(4, "int32"))


def test_axis_errors():
    x = data((3, 4), "int32")
    a = mnp.asarray(x)
    for fn in ("sum", "max", "mean", "argmax", "cumsum"):
        with pytest.raises(mnp.AxisError):
            getattr(mnp, fn)(a, axis=2)
    with pytest.raises(ValueError):
        numpy.sum(x, axis=(0, 0))
    with pytest.raises(ValueError):
        mnp.sum(a, axis=(0, 0))


def test_methods():
    x = data((3, 4), "int16")
    a = mnp.asarray(x)
    assert_same(a.sum(), x.sum())
    assert_same(a.sum(axis=1, keepdims=True), x.sum(axis=1, keepdims=True))
    assert_same(a.max(0), x.max(0))
    assert_same(a.argmin(1), x.argmin(1))
    assert_same(a.mean(), x.mean())
    assert_same(a.std(ddof=1), x.std(ddof=1), rtol=1e-12)
    assert_same(a.cumsum(0), x.cumsum(0))
    assert_same(a.prod(dtype="float32"), x.prod(dtype="float32"), rtol=1e-6)
    assert_same(a.any(), x.any())


def test_initial():
    x = data((3, 4), "int32")
    a = mnp.asarray(x)
    for fn, init in (("sum", 10), ("prod", 2), ("max", 1000), ("min", -1000), ("max", -1000)):
        assert_same(getattr(mnp, fn)(a, axis=0, initial=init), getattr(numpy, fn)(x, axis=0, initial=init))


def test_float32_sum_accuracy():
    rng = numpy.random.default_rng(1)
    x = rng.uniform(0, 1, size=1_000_000).astype(numpy.float32)
    assert_same(mnp.sum(mnp.asarray(x)), numpy.sum(x), rtol=1e-6)
    assert_same(mnp.mean(mnp.asarray(x)), numpy.mean(x), rtol=1e-6)
    y = x.reshape(1000, 1000)
    assert_same(mnp.sum(mnp.asarray(y), axis=0), numpy.sum(y, axis=0), rtol=1e-6)
    assert_same(mnp.sum(mnp.asarray(y), axis=1), numpy.sum(y, axis=1), rtol=1e-6)
    z = numpy.full(1_000_000, 0.1, dtype=numpy.float32)
    assert_same(mnp.sum(mnp.asarray(z)), numpy.sum(z), rtol=1e-6)
    assert_same(mnp.cumsum(mnp.asarray(z))[-1:], numpy.cumsum(z)[-1:], rtol=1e-3)


def test_reduce_lazy_input_and_views():
    x = data((4, 5), "float64")
    a = mnp.asarray(x.copy())
    s = mnp.sum(a * 2, axis=0)
    a[0] = 0
    assert_same(s, numpy.sum(x * 2, axis=0), rtol=1e-12)
    x[0] = 0
    assert_same(mnp.max(a[:, ::-2], axis=1), numpy.max(x[:, ::-2], axis=1))


@pytest.mark.parametrize("fn,kw", [("sum", {}), ("prod", {}), ("max", dict(initial=-1.0)), ("min", dict(initial=100.0)),
                                   ("mean", {}), ("var", {}), ("std", dict(ddof=1)), ("all", {}), ("any", {})])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_where_keyword(fn, kw, axis, keepdims):
    x = numpy.arange(12.0).reshape(3, 4) ** 1.3
    for w in (numpy.array([True, False, True, True]), numpy.array([[True], [False], [True]])):
        with numpy.errstate(all="ignore"):
            ref = getattr(numpy, fn)(x, axis=axis, where=w, keepdims=keepdims, **kw)
        got = getattr(mnp, fn)(mnp.asarray(x), axis=axis, where=mnp.asarray(w), keepdims=keepdims, **kw)
        g = numpy.asarray(got)
        assert g.shape == numpy.shape(ref) and g.dtype == numpy.asarray(ref).dtype
        numpy.testing.assert_allclose(g, ref, rtol=1e-12, equal_nan=True)


def test_where_keyword_errors_and_ints():
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.max\].*initial"):
        mnp.max(mnp.ones(3), where=mnp.asarray([True, False, True]))
    xi = numpy.arange(6, dtype=numpy.int8)
    for fn in ("sum", "mean", "prod"):
        ref = getattr(numpy, fn)(xi, where=xi > 2)
        got = getattr(mnp, fn)(mnp.asarray(xi), where=mnp.asarray(xi) > 2)
        assert numpy.asarray(got).dtype == numpy.asarray(ref).dtype and float(got) == float(ref)
    x = numpy.arange(12).reshape(3, 4)
    w = numpy.array([True, False, True, True])
    for name, kw in (("add", {}), ("multiply", {}), ("maximum", dict(initial=-1)), ("bitwise_or", {})):
        ref = getattr(numpy, name).reduce(x, axis=1, where=w, **kw)
        got = getattr(mnp, name).reduce(mnp.asarray(x), axis=1, where=mnp.asarray(w), **kw)
        numpy.testing.assert_array_equal(numpy.asarray(got), ref)
