"""unique (every return_* combination, axis, equal_nan), the Array API unique_* functions, isin,
intersect1d, union1d, setdiff1d, setxor1d against numpy over dtypes, shapes, NaNs and views."""
import numpy
import pytest

import mnn.numpy as mnp
from helpers import ALL_DTYPES, SHAPES, assert_same, sample


def data(dtype, shape, seed=0):
    x = sample(shape, dtype, seed, low=0 if numpy.dtype(dtype).kind in "iu" else -3,
               high=6 if numpy.dtype(dtype).kind in "iu" else 3)
    if numpy.dtype(dtype).kind == "f":
        x = numpy.round(x)  # ties
        if x.size > 2:
            flat = x.reshape(-1)
            flat[::4] = numpy.nan
            flat[1::5] = -0.0
    return x


def same(got, expected):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
    else:
        assert_same(got, expected)


FLAGS = [dict(), dict(return_index=True), dict(return_inverse=True), dict(return_counts=True),
         dict(return_index=True, return_inverse=True, return_counts=True)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES + [(2000,)])
def test_unique_flat(dtype, shape):
    x = data(dtype, shape)
    a = mnp.asarray(x)
    for kw in FLAGS:
        same(mnp.unique(a, **kw), numpy.unique(x, **kw))
    if numpy.dtype(dtype).kind == "f":
        for kw in FLAGS:
            got, expected = mnp.unique(a, equal_nan=False, **kw), numpy.unique(x, equal_nan=False, **kw)
            if kw == dict(return_inverse=True):
                # numpy's unstable argsort numbers distinct NaNs in any order: check the contract
                assert_same(got[0], expected[0])
                numpy.testing.assert_array_equal(numpy.asarray(got[0])[numpy.asarray(got[1])], x)
            else:
                same(got, expected)


def test_unique_view():
    x = data("float32", (6, 10), seed=4)
    v = mnp.asarray(x)[::-2, 1::3]
    for kw in FLAGS:
        same(mnp.unique(v, **kw), numpy.unique(x[::-2, 1::3], **kw))


@pytest.mark.parametrize("dtype", ["int32", "float64", "uint8", "bool"])
@pytest.mark.parametrize("shape,axis", [((6, 3), 0), ((6, 3), 1), ((4, 2, 3), 1), ((4, 2, 3), -1), ((5, 0), 0),
                                        ((0, 3), 0)])
def test_unique_axis(dtype, shape, axis):
    rng = numpy.random.default_rng(2)
    x = rng.integers(0, 2, size=shape).astype(dtype)
    a = mnp.asarray(x)
    for kw in FLAGS:
        try:
            expected = numpy.unique(x, axis=axis, **kw)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                mnp.unique(a, axis=axis, **kw)
            continue
        same(mnp.unique(a, axis=axis, **kw), expected)
    with pytest.raises(mnp.AxisError):
        mnp.unique(a, axis=3)


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "uint16"])
def test_unique_array_api(dtype):
    x = data(dtype, (3, 7), seed=1).astype(dtype)
    a = mnp.asarray(x)
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        got, expected = getattr(mnp, name)(a), getattr(numpy, name)(x)
        assert type(got).__name__ == type(expected).__name__ and got._fields == expected._fields
        if name == "unique_inverse" and numpy.isnan(x).any():
            # numpy's unstable argsort numbers distinct NaNs in any order: check the contract
            assert_same(got.values, expected.values)
            numpy.testing.assert_array_equal(numpy.asarray(got.values)[numpy.asarray(got.inverse_indices)], x)
        else:
            same(tuple(got), tuple(expected))
    # numpy 2.4's unique_values hashes (sorted=False): same set, in an unspecified order
    assert_same(mnp.unique_values(a), numpy.sort(numpy.unique_values(x)))


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint32", "float16", "float32", "float64", "bool"])
def test_isin(dtype):
    x = data(dtype, (4, 5), seed=1)
    t = data(dtype, (7,), seed=2)
    a, b = mnp.asarray(x), mnp.asarray(t)
    for invert in (False, True):
        assert_same(mnp.isin(a, b, invert=invert), numpy.isin(x, t, invert=invert))
        assert_same(mnp.isin(a[:, ::-2], b, invert=invert), numpy.isin(x[:, ::-2], t, invert=invert))
    assert_same(mnp.isin(a, mnp.asarray(t[:0])), numpy.isin(x, t[:0]))
    assert_same(mnp.isin(mnp.asarray(x[0, 0]), b), numpy.isin(x[0, 0], t))
    assert_same(mnp.isin(a, [1, 2.5]), numpy.isin(x, [1, 2.5]))
    with pytest.raises(ValueError):
        mnp.isin(a, b, kind="hash")


@pytest.mark.parametrize("d1,d2", [("int64", "int64"), ("int32", "float64"), ("float32", "float32"),
                                   ("uint8", "int8")])
def test_set_ops(d1, d2):
    x = data(d1, (12,), seed=3)
    y = data(d2, (3, 3), seed=4)
    a, b = mnp.asarray(x), mnp.asarray(y)
    same(mnp.intersect1d(a, b), numpy.intersect1d(x, y))
    same(mnp.intersect1d(a, b, return_indices=True), numpy.intersect1d(x, y, return_indices=True))
    ux, uy = numpy.unique(x), numpy.unique(y)
    same(mnp.intersect1d(mnp.asarray(ux), mnp.asarray(uy), assume_unique=True, return_indices=True),
         numpy.intersect1d(ux, uy, assume_unique=True, return_indices=True))
    same(mnp.union1d(a, b), numpy.union1d(x, y))
    same(mnp.setdiff1d(a, b), numpy.setdiff1d(x, y))
    same(mnp.setdiff1d(mnp.asarray(ux), mnp.asarray(uy), assume_unique=True),
         numpy.setdiff1d(ux, uy, assume_unique=True))
    same(mnp.setxor1d(a, b), numpy.setxor1d(x, y))
    same(mnp.setxor1d(mnp.asarray(ux), mnp.asarray(uy), assume_unique=True),
         numpy.setxor1d(ux, uy, assume_unique=True))


def test_set_ops_empty():
    e, x = numpy.array([], dtype=numpy.int64), numpy.array([3, 1, 3])
    for fn in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        same(getattr(mnp, fn)(mnp.asarray(e), mnp.asarray(x)), getattr(numpy, fn)(e, x))
        same(getattr(mnp, fn)(mnp.asarray(x), mnp.asarray(e)), getattr(numpy, fn)(x, e))
        same(getattr(mnp, fn)(mnp.asarray(e), mnp.asarray(e)), getattr(numpy, fn)(e, e))
