"""Statistics against numpy: quantile/percentile (every method, weights), median, nan* reductions
(with numpy's warnings and errors), average, cov/corrcoef, ptp, bincount, digitize, histograms."""
import warnings

import numpy
import pytest

import mnn.numpy as mnp
from helpers import ALL_DTYPES, FLOAT_DTYPES, assert_same, sample

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
           "normal_unbiased"]


def quiet(fn, *args, **kw):
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def with_nans(dtype, shape, seed=0, frac=0.2):
    x = sample(shape, dtype, seed)
    if numpy.dtype(dtype).kind == "f" and x.size:
        rng = numpy.random.default_rng(seed + 100)
        x[rng.random(shape) < frac] = numpy.nan
    return x


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["int16", "uint8", "int64", "float16", "float32", "float64", "bool"])
def test_quantile_methods(method, dtype):
    x = sample((5, 8), dtype, seed=1)
    a = mnp.asarray(x)
    try:
        numpy.quantile(x, 0.5, method=method)
    except TypeError:  # numpy cannot interpolate booleans
        with pytest.raises(TypeError):
            mnp.quantile(a, 0.5, method=method)
        return
    for q in (0.0, 0.37, 1.0, [0.1, 0.5, 0.9], numpy.array([[0.25], [0.75]])):
        for axis in (None, 0, 1, -1, (0, 1)):
            for keepdims in (False, True):
                qq = mnp.asarray(q) if isinstance(q, numpy.ndarray) else q
                assert_same(mnp.quantile(a, qq, axis=axis, method=method, keepdims=keepdims),
                            numpy.quantile(x, q, axis=axis, method=method, keepdims=keepdims))
    pq = [0, 12.5, 50, 100]
    assert_same(mnp.percentile(a, pq, axis=0, method=method), numpy.percentile(x, pq, axis=0, method=method))
    assert_same(mnp.percentile(a, 33, axis=1, method=method), numpy.percentile(x, 33, axis=1, method=method))


@pytest.mark.parametrize("method", METHODS)
def test_quantile_nan_and_views(method):
    x = with_nans("float64", (6, 9), seed=2)
    x[2] = numpy.nan
    a = mnp.asarray(x)
    for axis in (None, 0, 1):
        assert_same(mnp.quantile(a, [0.2, 0.8], axis=axis, method=method),
                    numpy.quantile(x, [0.2, 0.8], axis=axis, method=method))
        assert_same(quiet(mnp.nanquantile, a, [0.2, 0.8], axis=axis, method=method),
                    quiet(numpy.nanquantile, x, [0.2, 0.8], axis=axis, method=method))
        assert_same(quiet(mnp.nanpercentile, a, 40, axis=axis, method=method, keepdims=True),
                    quiet(numpy.nanpercentile, x, 40, axis=axis, method=method, keepdims=True))
    v = a[::-2, 1::2]
    assert_same(mnp.quantile(v, 0.3, axis=0, method=method), numpy.quantile(x[::-2, 1::2], 0.3, axis=0,
                                                                             method=method))


def test_quantile_errors():
    a = mnp.asarray([1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        mnp.quantile(a, 1.5)
    with pytest.raises(ValueError):
        mnp.percentile(a, -1)
    with pytest.raises(ValueError):
        mnp.quantile(a, 0.5, method="bogus")
    with pytest.raises(ValueError):
        mnp.quantile(a, 0.5, method="linear", weights=mnp.asarray([1.0, 1.0, 1.0]))
    with pytest.raises(ValueError):
        mnp.quantile(a, 0.5, method="inverted_cdf", weights=mnp.asarray([1.0, -1.0, 1.0]))
    with pytest.raises(mnp.AxisError):
        mnp.quantile(a, 0.5, axis=1)
    with pytest.raises(IndexError):
        mnp.quantile(mnp.zeros(0), 0.5)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
def test_weighted_quantile(dtype):
    x = sample((4, 7), dtype, seed=3)
    w = numpy.random.default_rng(4).integers(0, 4, size=(4, 7)).astype(float)
    w[:, 0] += 1  # no all-zero slice
    a, wa = mnp.asarray(x), mnp.asarray(w)
    for q in (0.5, [0.0, 0.3, 1.0]):
        for axis in (None, 0, 1):
            assert_same(mnp.quantile(a, q, axis=axis, method="inverted_cdf", weights=wa),
                        numpy.quantile(x, q, axis=axis, method="inverted_cdf", weights=w))
        assert_same(mnp.percentile(a, numpy.multiply(q, 100).tolist(), axis=1, method="inverted_cdf",
                                   weights=mnp.asarray(w[0])),
                    numpy.percentile(x, numpy.multiply(q, 100), axis=1, method="inverted_cdf", weights=w[0]))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(1,), (6,), (7,), (4, 5), (2, 3, 4)])
def test_median(dtype, shape):
    x = with_nans(dtype, shape, seed=5, frac=0.1)
    a = mnp.asarray(x)
    for axis in [None] + list(range(len(shape))):
        for keepdims in (False, True):
            assert_same(quiet(mnp.median, a, axis=axis, keepdims=keepdims),
                        quiet(numpy.median, x, axis=axis, keepdims=keepdims))
            assert_same(quiet(mnp.nanmedian, a, axis=axis, keepdims=keepdims),
                        quiet(numpy.nanmedian, x, axis=axis, keepdims=keepdims))


def test_median_empty_and_all_nan():
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        r = mnp.median(mnp.zeros(0))
    assert numpy.isnan(float(r))
    x = numpy.array([[numpy.nan, numpy.nan], [1.0, numpy.nan]])
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        got = mnp.nanmedian(mnp.asarray(x), axis=1)
    assert_same(got, quiet(numpy.nanmedian, x, axis=1))
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        got = mnp.nanpercentile(mnp.asarray(x), 50, axis=1)
    assert_same(got, quiet(numpy.nanpercentile, x, 50, axis=1))


NAN_REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanstd", "nanvar", "nanmin", "nanmax", "nanargmin",
                  "nanargmax", "nancumsum", "nancumprod"]


@pytest.mark.parametrize("fn", NAN_REDUCTIONS)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "uint8", "bool"])
def test_nan_reductions(fn, dtype):
    x = with_nans(dtype, (4, 6), seed=6, frac=0.3)
    if dtype == "float16" and fn == "nanprod":
        x = numpy.clip(x, -2, 2).astype(dtype)
    a = mnp.asarray(x)
    axes = [None, 0, 1] if fn in ("nancumsum", "nancumprod", "nanargmin", "nanargmax") else [None, 0, 1, (0, 1)]
    for axis in axes:
        kw = {} if fn in ("nancumsum", "nancumprod") else {"keepdims": True}
        exp = quiet(getattr(numpy, fn), x, axis=axis, **kw)
        got = quiet(getattr(mnp, fn), a, axis=axis, **kw)
        exact = fn in ("nanmin", "nanmax", "nanargmin", "nanargmax") or dtype not in FLOAT_DTYPES
        rtol = {"float16": 2e-3, "float32": 2e-6, "float64": 1e-12}.get(str(exp.dtype), 1e-12)
        if exact:
            assert_same(got, exp)
        else:
            assert_same(got, exp, rtol=rtol, atol=rtol)
            assert numpy.asarray(got).dtype == exp.dtype


def test_nan_reduction_warnings_and_errors():
    x = numpy.array([[numpy.nan, numpy.nan], [1.0, 2.0]])
    a = mnp.asarray(x)
    for fn in ("nanmin", "nanmax"):
        with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
            got = getattr(mnp, fn)(a, axis=1)
        assert_same(got, quiet(getattr(numpy, fn), x, axis=1))
    for fn in ("nanargmin", "nanargmax"):
        with pytest.raises(ValueError, match="All-NaN slice encountered"):
            getattr(mnp, fn)(a, axis=1)
        assert_same(getattr(mnp, fn)(a, axis=0), getattr(numpy, fn)(x, axis=0))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        got = mnp.nanmean(a, axis=1)
    assert_same(got, quiet(numpy.nanmean, x, axis=1))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0"):
        got = mnp.nanvar(a, axis=1, ddof=1)
    assert_same(got, quiet(numpy.nanvar, x, axis=1, ddof=1), rtol=1e-12)
    with pytest.raises(ValueError):
        mnp.nanmin(mnp.zeros((0,)))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "bool"])
def test_ptp_average(dtype):
    x = sample((3, 5), dtype, seed=8)
    a = mnp.asarray(x)
    if dtype != "bool":
        for axis in (None, 0, 1):
            assert_same(mnp.ptp(a, axis=axis, keepdims=True), numpy.ptp(x, axis=axis, keepdims=True))
    w = numpy.arange(1, 16, dtype=numpy.float64).reshape(3, 5)
    for axis in (None, 0, 1):
        assert_same(mnp.average(a, axis=axis), numpy.average(x, axis=axis), rtol=1e-6)
        got = mnp.average(a, axis=axis, weights=mnp.asarray(w), returned=True)
        exp = numpy.average(x, axis=axis, weights=w, returned=True)
        assert_same(got[0], exp[0], rtol=1e-12)
        assert_same(got[1], exp[1], rtol=1e-12)
    assert_same(mnp.average(a, axis=1, weights=mnp.asarray(w[0])), numpy.average(x, axis=1, weights=w[0]),
                rtol=1e-12)
    assert_same(mnp.average(a, axis=0, keepdims=True), numpy.average(x, axis=0, keepdims=True), rtol=1e-6)
    with pytest.raises(ZeroDivisionError):
        mnp.average(a, weights=mnp.zeros((3, 5)))
    with pytest.raises(TypeError):
        mnp.average(a, weights=mnp.asarray(w[0]))
    with pytest.raises(ValueError):
        mnp.average(a, axis=0, weights=mnp.asarray(w[0]))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_cov_corrcoef(dtype):
    x = sample((3, 10), dtype, seed=9)
    y = sample((2, 10), dtype, seed=10)
    a, b = mnp.asarray(x), mnp.asarray(y)
    r = 1e-5 if dtype == "float32" else 1e-12
    assert_same(mnp.cov(a), numpy.cov(x), rtol=r, atol=r)
    assert_same(mnp.cov(a, b), numpy.cov(x, y), rtol=r, atol=r)
    assert_same(mnp.cov(mnp.asarray(x.T), rowvar=False), numpy.cov(x.T, rowvar=False), rtol=r, atol=r)
    assert_same(mnp.cov(a, bias=True), numpy.cov(x, bias=True), rtol=r, atol=r)
    assert_same(mnp.cov(a, ddof=3), numpy.cov(x, ddof=3), rtol=r, atol=r)
    assert_same(mnp.cov(a[0]), numpy.cov(x[0]), rtol=r, atol=r)
    fw = numpy.arange(1, 11)
    aw = numpy.linspace(0.5, 2, 10)
    assert_same(mnp.cov(a, fweights=mnp.asarray(fw), aweights=mnp.asarray(aw)),
                numpy.cov(x, fweights=fw, aweights=aw), rtol=r, atol=r)
    assert_same(mnp.corrcoef(a), numpy.corrcoef(x), rtol=r, atol=r)
    assert_same(mnp.corrcoef(a, b), numpy.corrcoef(x, y), rtol=r, atol=r)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        mnp.cov(mnp.asarray(x[:, :1]))


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "int8"])
def test_bincount(dtype):
    x = sample((30,), dtype, seed=11, low=0, high=9) if dtype != "bool" else sample((30,), "bool", seed=11)
    a = mnp.asarray(x)
    assert_same(mnp.bincount(a), numpy.bincount(x))
    assert_same(mnp.bincount(a, minlength=20), numpy.bincount(x, minlength=20))
    w = numpy.linspace(-1, 2, 30)
    assert_same(mnp.bincount(a, weights=mnp.asarray(w)), numpy.bincount(x, weights=w))
    assert_same(mnp.bincount(a, weights=mnp.asarray(w.astype(numpy.float32))),
                numpy.bincount(x, weights=w.astype(numpy.float32)))
    assert_same(mnp.bincount(a[::-3]), numpy.bincount(x[::-3]))


def test_bincount_errors():
    assert_same(mnp.bincount(mnp.zeros(0, dtype=mnp.int64)), numpy.bincount(numpy.zeros(0, dtype=numpy.int64)))
    with pytest.raises(ValueError):
        mnp.bincount(mnp.asarray([1, -1]))
    with pytest.raises(TypeError):
        mnp.bincount(mnp.asarray([1.0, 2.0]))
    with pytest.raises(TypeError):
        mnp.bincount(mnp.asarray([1, 2], dtype=mnp.uint64))
    with pytest.raises(ValueError):
        mnp.bincount(mnp.asarray([[1, 2]]))
    with pytest.raises(ValueError):
        mnp.bincount(mnp.asarray(3))
    with pytest.raises(ValueError):
        mnp.bincount(mnp.asarray([1, 2]), minlength=-1)
    with pytest.raises(ValueError):
        mnp.bincount(mnp.asarray([1, 2]), weights=mnp.asarray([1.0]))


def test_digitize():
    x = numpy.array([-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, 9.0, numpy.nan])
    for bins in (numpy.array([0.0, 1.0, 2.5, 3.0]), numpy.array([3.0, 2.5, 1.0, 0.0]), numpy.array([1.0])):
        for right in (False, True):
            assert_same(mnp.digitize(mnp.asarray(x), mnp.asarray(bins), right=right),
                        numpy.digitize(x, bins, right=right))
    xi = numpy.array([[1, 5], [7, 2]])
    assert_same(mnp.digitize(mnp.asarray(xi), mnp.asarray([0, 3, 6])), numpy.digitize(xi, [0, 3, 6]))
    with pytest.raises(ValueError):
        mnp.digitize(mnp.asarray(x), mnp.asarray([1.0, 0.0, 2.0]))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "uint8"])
def test_histogram(dtype):
    x = sample((200,), dtype, seed=12)
    a = mnp.asarray(x)
    w = numpy.random.default_rng(13).random(200)
    cases = [dict(), dict(bins=7), dict(bins=[-5, -1, 0, 2, 50]), dict(bins=4, range=(-2, 3)),
             dict(bins=5, density=True), dict(bins=6, weights=w), dict(bins=6, weights=w, density=True)]
    for kw in cases:
        mkw = {k: (mnp.asarray(v) if isinstance(v, numpy.ndarray) else v) for k, v in kw.items()}
        h, e = mnp.histogram(a, **mkw)
        eh, ee = numpy.histogram(x, **kw)
        assert_same(e, ee, rtol=1e-12)
        if "weights" in kw or kw.get("density"):
            assert_same(h, eh, rtol=1e-12, atol=1e-15)
        else:
            assert_same(h, eh)
    for est in ("auto", "fd", "doane", "scott", "rice", "sturges", "sqrt"):
        assert_same(mnp.histogram_bin_edges(a, bins=est), numpy.histogram_bin_edges(x, bins=est), rtol=1e-12)
        h, _ = mnp.histogram(a, bins=est)
        assert_same(h, numpy.histogram(x, bins=est)[0])


def test_histogram_edges_and_errors():
    x = numpy.array([1.0, 2.0, 2.0, 3.0, 10.0])
    assert_same(mnp.histogram(mnp.asarray(x), bins=[1, 2, 3])[0], numpy.histogram(x, bins=[1, 2, 3])[0])
    assert_same(mnp.histogram(mnp.asarray([5.0, 5.0]))[1], numpy.histogram([5.0, 5.0])[1])
    assert_same(mnp.histogram(mnp.zeros(0))[0], numpy.histogram(numpy.zeros(0))[0])
    assert_same(mnp.histogram(mnp.asarray(x), bins=3, range=(2, 3))[0], numpy.histogram(x, bins=3, range=(2, 3))[0])
    with pytest.raises(ValueError):
        mnp.histogram(mnp.asarray([1.0, numpy.nan]))
    with pytest.raises(ValueError):
        mnp.histogram(mnp.asarray(x), bins=[3, 1, 2])
    with pytest.raises(ValueError):
        mnp.histogram(mnp.asarray(x), range=(3, 1))
    with pytest.raises(ValueError):
        mnp.histogram(mnp.asarray(x), bins=0)
    with pytest.raises(ValueError):
        mnp.histogram(mnp.asarray(x), bins="bogus")


def test_histogram2d_dd():
    rng = numpy.random.default_rng(14)
    x, y, z = rng.standard_normal(100), rng.standard_normal(100), rng.random(100)
    w = rng.random(100)
    for kw in (dict(), dict(bins=4), dict(bins=[3, 5]), dict(bins=[numpy.array([-2.0, 0, 2]), 4]),
               dict(bins=5, range=[(-1, 1), (-2, 2)]), dict(bins=3, density=True), dict(bins=3, weights=w)):
        mkw = {k: (mnp.asarray(v) if isinstance(v, numpy.ndarray) else
                   [mnp.asarray(b) if isinstance(b, numpy.ndarray) else b for b in v] if k == "bins" and
                   isinstance(v, list) else v) for k, v in kw.items()}
        h, ex, ey = mnp.histogram2d(mnp.asarray(x), mnp.asarray(y), **mkw)
        eh, eex, eey = numpy.histogram2d(x, y, **kw)
        assert_same(h, eh, rtol=1e-12, atol=1e-15)
        assert_same(ex, eex, rtol=1e-12)
        assert_same(ey, eey, rtol=1e-12)
    s = numpy.stack([x, y, z], axis=1)
    h, edges = mnp.histogramdd(mnp.asarray(s), bins=(2, 3, 4))
    eh, eedges = numpy.histogramdd(s, bins=(2, 3, 4))
    assert_same(h, eh)
    for g, e in zip(edges, eedges):
        assert_same(g, e, rtol=1e-12)
    h, _ = mnp.histogramdd(mnp.asarray(s), bins=3, density=True, weights=mnp.asarray(w))
    assert_same(h, numpy.histogramdd(s, bins=3, density=True, weights=w)[0], rtol=1e-12)
    with pytest.raises(ValueError):
        mnp.histogramdd(mnp.asarray(s), bins=(2, 3))
