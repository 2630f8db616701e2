"""mnn.numpy._printing must print arrays and scalars exactly like NumPy."""

import importlib.util
import math
import pathlib
import sys

import numpy as np
import pytest

# Loaded by path: the mnn package (and its compiled extension) may not be
# importable yet, and this module has no dependencies on it.
_spec = importlib.util.spec_from_file_location(
    "_printing", pathlib.Path(__file__).parents[2] / "src/mnn/numpy/_printing.py")
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", "float32", "float64"]
FLOATS = ["float16", "float32", "float64"]
SHAPES = [(), (0,), (0, 3), (5,), (3, 4), (2, 3, 4), (2, 1, 3, 2), (1200,), (40, 40)]


def _random(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    n = math.prod(shape)
    if dtype == "bool":
        a = rng.integers(0, 2, n).astype(bool)
    elif dtype in FLOATS:
        a = (rng.standard_normal(n) * 10).astype(dtype)
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    return a.reshape(shape)


def _assert_same(a):
    flat, shape, name = a.ravel().tolist(), a.shape, a.dtype.name
    assert P.array_repr(flat, shape, name) == repr(a)
    assert P.array_str(flat, shape, name) == str(a)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_random_arrays(dtype, shape):
    _assert_same(_random(dtype, shape))


SPECIAL_FLOATS = [
    [np.nan, 1.5, -np.inf], [np.inf], [np.nan], [-np.inf, np.nan],
    [-0.0, 0.0], [-0.0], [0.0, 0.0],
    [1.0, 2.0, 3.0], [1.5, 2.25, -3.0], [0.1, 0.2, 0.3], [1.0, 0.5, -7.0],
    [1e-5, 1.0], [1e-4, 1.0], [1e8, 1.0], [1e6, 2.5], [1e3, 1.0], [999.0, 1.0],
    [1e-10, 1.2345e-10], [123456.789, 0.001], [1e300, 1e-300], [5e-324, 1.0],
    [65504.0, 1.0], [6.1e-5, 1.0], [np.nan, 1e-9, 1e9], [3.14159265358979, 2.718281828],
    [1e16, -1e-16, np.inf], [0.5, np.nan, 100.0], [1234.5, -0.001, 7.0],
]


@pytest.mark.parametrize("values", SPECIAL_FLOATS, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_special_floats(dtype, values):
    with np.errstate(all="ignore"):
        a = np.array(values, dtype=dtype)
    for arr in (a, a[:1].reshape(()), np.tile(a, 40), np.tile(a, 400), a.reshape(1, -1, 1)):
        _assert_same(arr)


@pytest.mark.parametrize("values,dtype", [
    ([np.iinfo(np.uint64).max, 0, 1], "uint64"),
    ([np.iinfo(np.int64).min, np.iinfo(np.int64).max, -1], "int64"),
    ([-128, 127, 0], "int8"), ([-5, -10, 3], "int32"), ([0, 255], "uint8"),
    ([-32768, 5], "int16"), ([65535], "uint16"), ([2**32 - 1, 7], "uint32"),
    ([True], "bool"), ([False, True, False], "bool"),
])
def test_integer_extremes(values, dtype):
    a = np.array(values, dtype=dtype)
    _assert_same(a)
    _assert_same(a[:1].reshape(()))
    _assert_same(np.tile(a, 500).reshape(-1, len(values)))


@pytest.mark.parametrize("shape", [(2, 0, 3), (1, 1, 1), (1,), (20, 20, 20), (2, 1000),
                                   (1000, 2), (3, 1, 1001), (1001,)], ids=str)
@pytest.mark.parametrize("dtype", ["int64", "float32", "bool", "uint8", "float64"])
def test_layout_shapes(dtype, shape):
    n = math.prod(shape)
    _assert_same(np.arange(n).astype(dtype).reshape(shape))
    _assert_same((np.arange(n) / 7 - 3).astype(dtype).reshape(shape))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_random_magnitudes(dtype):
    # small arrays spanning many decades exercise the positional/scientific
    # switch, the padding and the per-dtype shortest digits
    rng = np.random.default_rng(7)
    with np.errstate(all="ignore"):
        for _ in range(400):
            n = int(rng.integers(1, 6))
            _assert_same((rng.standard_normal(n) * 10.0 ** rng.integers(-12, 12)).astype(dtype))


def test_float16_every_value_as_scalar_and_array():
    bits = np.arange(2 ** 16, dtype=np.uint16)
    values = bits.view(np.float16)
    for i, v in enumerate(values):
        assert P.scalar_repr(v.item(), "float16") == repr(v)
        assert P.scalar_str(v.item(), "float16") == str(v)
        if i % 97 == 0:
            _assert_same(np.array([v, np.float16(1.5)]))


@pytest.mark.parametrize("dtype,uint", [("float32", np.uint32), ("float64", np.uint64)])
def test_random_bit_patterns_as_scalars(dtype, uint):
    rng = np.random.default_rng(3)
    bits = rng.integers(0, np.iinfo(uint).max, 5000, dtype=uint, endpoint=True)
    for v in bits.view(dtype):
        assert P.scalar_repr(v.item(), dtype) == repr(v)
        assert P.scalar_str(v.item(), dtype) == str(v)


SCALARS = [0.0, -0.0, 1.5, 0.1, -2.5, 1e-5, 1e-4, 9.999e-5, 999.0, 1000.0, 1e5, 1e6,
           123456789.0, 1e15, 1e16, 1e17, 65504.0, 3.0, np.nan, np.inf, -np.inf, 1e-300]


@pytest.mark.parametrize("value", SCALARS, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_float_scalars(dtype, value):
    with np.errstate(all="ignore"):
        s = np.dtype(dtype).type(value)
    assert P.scalar_repr(s.item(), dtype) == repr(s)
    assert P.scalar_str(s.item(), dtype) == str(s)
    _assert_same(np.array(s))


@pytest.mark.parametrize("dtype", DTYPES)
def test_scalars_every_dtype(dtype):
    for v in _random(dtype, (20,), seed=5).tolist() + [0, 1]:
        s = np.dtype(dtype).type(v)
        assert P.scalar_repr(v, dtype) == repr(s)
        assert P.scalar_str(v, dtype) == str(s)


OPTIONS = [
    dict(precision=3), dict(suppress=True), dict(threshold=5), dict(linewidth=40),
    dict(precision=3, suppress=True, threshold=5, linewidth=40),
    dict(sign="+"), dict(sign=" "), dict(floatmode="fixed"), dict(floatmode="unique"),
    dict(floatmode="maxprec_equal"), dict(floatmode="fixed", precision=2),
    dict(nanstr="NaN", infstr="Infinity"), dict(edgeitems=1, threshold=3),
    dict(edgeitems=0, threshold=3), dict(precision=0), dict(linewidth=10),
    dict(suppress=True, precision=2, sign=" "), dict(threshold=sys.maxsize),
    dict(threshold=0), dict(precision=12, floatmode="maxprec_equal"),
    dict(legacy="1.13"), dict(legacy="1.21"), dict(legacy="1.25"), dict(legacy="2.1"),
    dict(legacy="2.2"), dict(legacy=False), dict(legacy="1.13", linewidth=30, threshold=5),
]


def _option_arrays():
    rng = np.random.default_rng(11)
    out = []
    for dtype in ["bool", "int8", "int64", "uint64", "float16", "float32", "float64"]:
        for shape in [(), (7,), (3, 4), (2, 3, 4), (30,)]:
            a = _random(dtype, shape, seed=len(out))
            if dtype in FLOATS and a.size > 3:
                with np.errstate(all="ignore"):  # float16 may overflow to inf
                    a = (a * 10.0 ** rng.integers(-6, 6, a.shape)).astype(dtype)
                a.flat[:3] = [1e-9, np.nan, -np.inf]
            out.append(a)
            if dtype in FLOATS:
                out.append(rng.standard_normal(shape).astype(dtype))
                out.append(rng.integers(-5, 5, shape).astype(dtype))
    return out


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_printoptions_match_numpy(options):
    for a in _option_arrays():
        with np.printoptions(**options), P.printoptions(**options) as got:
            assert got == np.get_printoptions()
            _assert_same(a)
            if a.ndim == 0:
                assert P.scalar_repr(a.item(), a.dtype.name) == repr(a[()])
                assert P.scalar_str(a.item(), a.dtype.name) == str(a[()])


def test_set_and_get_printoptions_roundtrip():
    assert P.get_printoptions() == np.get_printoptions()
    before = P.get_printoptions()
    try:
        P.set_printoptions(precision=4, linewidth=50, sign="+")
        with np.printoptions(precision=4, linewidth=50, sign="+"):
            assert P.get_printoptions() == np.get_printoptions()
            _assert_same(np.linspace(-1, 1, 30))
    finally:
        P.set_printoptions(**{k: before[k] for k in ("precision", "linewidth", "sign")})
    assert P.get_printoptions() == np.get_printoptions()


def test_printoptions_restores_on_exit():
    with P.printoptions(threshold=5):
        pass
    a = np.arange(10.0)
    _assert_same(a)


def test_formatter_option():
    for fmt, a in [({"float": lambda x: "%.2f" % x}, np.linspace(0, 1, 7)),
                   ({"all": lambda x: hex(x)}, np.arange(7)),
                   ({"int_kind": lambda x: "i%d" % x}, np.arange(7)),
                   ({"int_kind": lambda x: "i%d" % x}, np.arange(7.0))]:
        with np.printoptions(formatter=fmt), P.printoptions(formatter=fmt):
            _assert_same(a)


@pytest.mark.parametrize("kwargs,exc", [
    (dict(floatmode="bogus"), ValueError), (dict(sign="x"), ValueError),
    (dict(threshold="10"), TypeError), (dict(threshold=float("nan")), ValueError),
    (dict(precision=1.5), TypeError),
])
def test_invalid_options_raise_like_numpy(kwargs, exc):
    with pytest.raises(exc):
        np.set_printoptions(**kwargs)
    with pytest.raises(exc):
        P.set_printoptions(**kwargs)
    assert P.get_printoptions() == np.get_printoptions()
