"""sort, argsort, partition, argpartition, searchsorted, lexsort, count_nonzero against numpy: every
dtype, 0-d/empty/long rows (radix path), every axis, NaN/inf/-0.0, ties (stability), views."""
import numpy
import pytest

import mnn.numpy as mnp
from helpers import ALL_DTYPES, FLOAT_DTYPES, SHAPES, assert_same, sample

LONG = 1500  # longer than the comparison-sort cut-off: exercises the radix passes


def special(dtype, shape, seed=0):
    """Data with many ties, and for floats NaN, +-inf and both zeros."""
    rng = numpy.random.default_rng(seed)
    x = sample(shape, dtype, seed, low=-3 if numpy.dtype(dtype).kind == "i" else None, high=3 if
               numpy.dtype(dtype).kind in "iu" else None)
    if numpy.dtype(dtype).kind == "f" and x.size:
        flat = x.reshape(-1)
        vals = numpy.array([numpy.nan, -numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.5, -1.5], dtype=dtype)
        pick = rng.integers(0, len(vals), size=flat.size)
        where = rng.random(flat.size) < 0.5
        flat[where] = vals[pick[where]]
    return x


def view(x):
    """An mnn view with x's values and negative, non-unit strides."""
    if x.ndim == 0:
        return mnp.asarray(x)
    big = numpy.empty(x.shape[:-1] + (x.shape[-1] * 2,), dtype=x.dtype)
    big[..., ::2] = x[..., ::-1]
    return mnp.asarray(big)[..., -2::-2] if x.shape[-1] else mnp.asarray(x)


def same_bits(got, expected):
    """Equal values, NaN where numpy has NaN, and the sign of every zero (stable order of -0.0/+0.0)."""
    g, e = numpy.asarray(got), numpy.asarray(expected)
    assert g.shape == e.shape and g.dtype == e.dtype
    assert numpy.array_equal(g, e, equal_nan=e.dtype.kind == "f")
    if e.dtype.kind == "f":
        assert numpy.array_equal(numpy.signbit(g), numpy.signbit(e))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [s for s in SHAPES if s] + [(3, LONG), (LONG,), (2, LONG, 2)])
def test_sort_argsort_axes(dtype, shape):
    x = special(dtype, shape)
    a = mnp.asarray(x)
    for axis in list(range(-len(shape), len(shape))) + [None]:
        same_bits(mnp.sort(a, axis=axis), numpy.sort(x, axis=axis, kind="stable"))
        assert_same(mnp.argsort(a, axis=axis), numpy.argsort(x, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "uint64", "int8", "float16", "bool"])
def test_sort_view_and_method(dtype):
    x = special(dtype, (4, 600), seed=3)
    v = view(x)
    numpy.testing.assert_array_equal(numpy.asarray(v), x)
    same_bits(mnp.sort(v, axis=0), numpy.sort(x, axis=0, kind="stable"))
    assert_same(mnp.argsort(v), numpy.argsort(x, kind="stable"))
    a = mnp.asarray(x.copy())
    row = a[1]
    a.sort(axis=-1)  # in place: every alias sees it
    e = x.copy()
    e.sort(axis=-1, kind="stable")
    same_bits(a, e)
    same_bits(row, e[1])
    assert_same(a.argsort(axis=0), e.argsort(axis=0, kind="stable"))


def test_sort_extreme_values():
    for dt in ["int64", "uint64", "int32", "uint32", "int16", "uint16", "int8", "uint8"]:
        info = numpy.iinfo(dt)
        x = numpy.array([info.max, info.min, 0, 1, info.max - 1, info.min + 1] * 100, dtype=dt)
        same_bits(mnp.sort(mnp.asarray(x)), numpy.sort(x))
        assert_same(mnp.argsort(mnp.asarray(x)), numpy.argsort(x, kind="stable"))
    for dt in FLOAT_DTYPES:
        fi = numpy.finfo(dt)
        x = numpy.array([fi.max, -fi.max, fi.tiny, -fi.tiny, fi.smallest_subnormal, -fi.smallest_subnormal,
                         numpy.inf, -numpy.inf, numpy.nan, 0.0, -0.0] * 50, dtype=dt)
        same_bits(mnp.sort(mnp.asarray(x)), numpy.sort(x, kind="stable"))
        assert_same(mnp.argsort(mnp.asarray(x)), numpy.argsort(x, kind="stable"))


def test_sort_0d_and_errors():
    with pytest.raises(mnp.AxisError):
        mnp.sort(mnp.asarray(5))
    assert_same(mnp.sort(mnp.asarray(5), axis=None), numpy.sort(numpy.array(5), axis=None))
    assert_same(mnp.argsort(mnp.asarray(5)), numpy.argsort(numpy.array(5)))
    with pytest.raises(mnp.AxisError):
        mnp.sort(mnp.asarray([1, 2]), axis=1)
    with pytest.raises(ValueError):
        mnp.sort(mnp.asarray([1, 2]), kind="bogus")
    with pytest.raises(ValueError):
        mnp.asarray([1, 2]).sort(order="x")
    r = mnp.asarray([3, 1])
    r.flags.writeable = False
    with pytest.raises(ValueError):
        r.sort()


def check_partition(got, x, kth, axis):
    """numpy's guarantee: each kth holds the sorted value; nothing before it larger, after it smaller."""
    g = numpy.moveaxis(numpy.asarray(got), axis, -1)
    s = numpy.moveaxis(numpy.sort(x, axis=axis), axis, -1)
    for k in numpy.atleast_1d(kth):
        k = int(k) % s.shape[-1]
        numpy.testing.assert_array_equal(g[..., k], s[..., k])
        with numpy.errstate(invalid="ignore"):
            before, after = g[..., :k], g[..., k + 1:]
            pivot = g[..., k:k + 1]
            # NaN sorts last: compare as numpy orders (NaN larger than everything)
            if x.dtype.kind == "f":
                assert not numpy.any((before > pivot) | (numpy.isnan(before) & ~numpy.isnan(pivot)))
                assert not numpy.any((after < pivot) | (~numpy.isnan(after) & numpy.isnan(pivot)))
            else:
                assert not numpy.any(before > pivot)
                assert not numpy.any(after < pivot)
    numpy.testing.assert_array_equal(numpy.sort(g, axis=-1), s)  # a permutation of each row


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float16", "float32", "float64", "bool"])
@pytest.mark.parametrize("shape,axis,kth", [((7,), 0, 3), ((7,), -1, [0, 6]), ((4, 9), 1, [2, 5, -1]),
                                            ((9, 4), 0, -4), ((3, 5, 6), 1, [1, 1, 3]), ((500,), 0, [10, 250])])
def test_partition(dtype, shape, axis, kth):
    x = special(dtype, shape, seed=5)
    a = mnp.asarray(x)
    check_partition(mnp.partition(a, kth, axis=axis), x, kth, axis)
    idx = numpy.asarray(mnp.argpartition(a, kth, axis=axis))
    assert idx.dtype == numpy.int64
    check_partition(numpy.take_along_axis(x, idx, axis=axis), x, kth, axis)
    b = mnp.asarray(x.copy())
    b.partition(kth, axis=axis)
    check_partition(b, x, kth, axis)


def test_partition_edges():
    x = numpy.array([3, 1, 2])
    with pytest.raises(ValueError):
        mnp.partition(mnp.asarray(x), 3)
    with pytest.raises(TypeError):
        mnp.partition(mnp.asarray(x), 1.0)
    with pytest.raises(mnp.AxisError):
        mnp.partition(mnp.asarray(5), 0)
    assert_same(mnp.argpartition(mnp.asarray(5), 0), numpy.argpartition(numpy.array(5), 0))
    assert_same(mnp.partition(mnp.asarray(x), 1, axis=None), numpy.partition(x, 1, axis=None))
    assert_same(mnp.partition(mnp.zeros((0, 3)), 1), numpy.partition(numpy.zeros((0, 3)), 1))


@pytest.mark.parametrize("dtype", ["int16", "uint8", "int64", "uint64", "float16", "float32", "float64"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(dtype, side):
    s = numpy.sort(special(dtype, (50,), seed=1), kind="stable")
    v = special(dtype, (4, 30), seed=2)
    assert_same(mnp.searchsorted(mnp.asarray(s), mnp.asarray(v), side=side), numpy.searchsorted(s, v, side=side))
    assert_same(mnp.asarray(s).searchsorted(mnp.asarray(v[0]), side), s.searchsorted(v[0], side))
    perm = numpy.random.default_rng(0).permutation(50)
    u = s[numpy.argsort(perm)]  # unsorted, with sorter recovering the order
    sorter = numpy.argsort(u, kind="stable")
    assert_same(mnp.searchsorted(mnp.asarray(u), mnp.asarray(v), side=side, sorter=mnp.asarray(sorter)),
                numpy.searchsorted(u, v, side=side, sorter=sorter))


def test_searchsorted_mixed_and_errors():
    s = numpy.array([1, 2, 3, 5])
    for v in [2.5, [0.5, 3, 7], numpy.array(3), numpy.zeros((0,))]:
        assert_same(mnp.searchsorted(mnp.asarray(s), v if not isinstance(v, numpy.ndarray) else mnp.asarray(v)),
                    numpy.searchsorted(s, v))
    assert_same(mnp.searchsorted(mnp.zeros(0), mnp.asarray([1.0, 2.0])), numpy.searchsorted(numpy.zeros(0), [1, 2.]))
    with pytest.raises(ValueError):
        mnp.searchsorted(mnp.asarray(s), 1, side="middle")
    with pytest.raises(ValueError):
        mnp.searchsorted(mnp.asarray([[1, 2]]), 1)
    with pytest.raises(ValueError):
        mnp.searchsorted(mnp.asarray(s), 1, sorter=mnp.asarray([0, 1, 2, 9]))


@pytest.mark.parametrize("shape,axis", [((6,), -1), ((3, 40), -1), ((40, 3), 0), ((2, 3, 500), 2)])
def test_lexsort(shape, axis):
    rng = numpy.random.default_rng(7)
    k1 = rng.integers(0, 3, size=shape)
    k2 = rng.integers(0, 3, size=shape).astype(numpy.float32)
    k3 = rng.integers(0, 2, size=shape).astype(bool)
    assert_same(mnp.lexsort([mnp.asarray(k1), mnp.asarray(k2), mnp.asarray(k3)], axis=axis),
                numpy.lexsort([k1, k2, k3], axis=axis))
    assert_same(mnp.lexsort(mnp.asarray(numpy.stack([k1, k1 * 2])), axis=axis),
                numpy.lexsort(numpy.stack([k1, k1 * 2]), axis=axis))
    with pytest.raises(TypeError):
        mnp.lexsort([])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_count_nonzero(dtype, shape):
    x = special(dtype, shape)
    a = mnp.asarray(x)
    assert int(mnp.count_nonzero(a)) == numpy.count_nonzero(x)
    for axis in range(len(shape)):
        assert_same(mnp.count_nonzero(a, axis=axis), numpy.count_nonzero(x, axis=axis))
        assert_same(mnp.count_nonzero(a, axis=axis, keepdims=True), numpy.count_nonzero(x, axis=axis,
                                                                                        keepdims=True))


def test_sort_threads_agree():
    """Rows are sorted in parallel: a many-row input must match row by row."""
    x = special("float32", (64, 700), seed=11)
    same_bits(mnp.sort(mnp.asarray(x), axis=1), numpy.sort(x, axis=1, kind="stable"))
    same_bits(mnp.sort(mnp.asarray(x), axis=0), numpy.sort(x, axis=0, kind="stable"))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint32", "int64", "uint64", "float16", "int16"])
def test_sort_large_rows(dtype):
    """Rows long enough for the prefix-grouped scatter (and its per-group threads): clustered floats,
    full-range and small-range integers, with ties."""
    rng = numpy.random.default_rng(21)
    n = 150_000
    if numpy.dtype(dtype).kind == "f":
        x = rng.standard_normal(n).astype(dtype)
        x[::97] = numpy.nan
        x[::89] = -0.0
        x[::83] = 0.0
        x[::79] = -numpy.inf
    else:
        info = numpy.iinfo(dtype)
        x = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
        x[: n // 2] = rng.integers(0, 50, size=n // 2).astype(dtype)
    for v in (x, x[::-1]):
        a = mnp.asarray(numpy.ascontiguousarray(v))
        same_bits(mnp.sort(a), numpy.sort(v, kind="stable"))
        assert_same(mnp.argsort(a), numpy.argsort(v, kind="stable"))
    two = numpy.stack([x[:70_000], x[70_000:140_000]])
    same_bits(mnp.sort(mnp.asarray(two), axis=1), numpy.sort(two, axis=1, kind="stable"))


def test_sort_gradient_matches_torch():
    torch = pytest.importorskip("torch")
    x0 = numpy.random.default_rng(3).standard_normal((3, 5))
    w = numpy.arange(15.0).reshape(3, 5)
    for axis in (0, 1):
        x = mnp.array(x0, requires_grad=True)
        (mnp.sort(x, axis=axis) * mnp.asarray(w)).sum().backward()
        tx = torch.tensor(x0, requires_grad=True)
        (torch.sort(tx, dim=axis).values * torch.tensor(w)).sum().backward()
        numpy.testing.assert_allclose(numpy.asarray(x.grad), tx.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_sort_argsort_descending(axis):
    # the Array API's descending=: ascending order reversed for sort (NaNs first); a stable argsort
    x = numpy.array([[3.0, 1.0, numpy.nan, 1.0], [2.0, 2.0, -1.0, 5.0], [0.0, 3.0, 3.0, 1.0]])
    ref_sort = numpy.flip(numpy.sort(x, axis=axis), axis=axis)
    assert_same(mnp.sort(mnp.asarray(x), axis=axis, descending=True), ref_sort)
    got = mnp.argsort(mnp.asarray(x), axis=axis, descending=True, stable=True)
    assert_same(mnp.take_along_axis(mnp.asarray(x), got, axis=axis), ref_sort)
    y = numpy.array([2, 7, 2, 7, 1], dtype=numpy.int8)
    assert_same(mnp.argsort(mnp.asarray(y), descending=True), numpy.array([1, 3, 0, 2, 4]))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sort_argsort_complex(dtype):
    # numpy's complex order: real part, then imaginary part, NaNs last
    nan = numpy.nan
    z = numpy.array([1 + 2j, 1 - 1j, 0.5 + 0j, complex(nan, 1), complex(1, nan), -2 + 5j, 1 - 1j], dtype=dtype)
    numpy.testing.assert_array_equal(numpy.asarray(mnp.sort(mnp.asarray(z))), numpy.sort(z))
    numpy.testing.assert_array_equal(numpy.asarray(mnp.argsort(mnp.asarray(z))), numpy.argsort(z, kind="stable"))
    Z = z[:6].reshape(2, 3)
    for axis in (0, 1, None):
        numpy.testing.assert_array_equal(numpy.asarray(mnp.sort(mnp.asarray(Z), axis=axis)), numpy.sort(Z, axis=axis))
    assert mnp.sort(mnp.asarray(z)).dtype == dtype


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "float32", "float64", "complex64"])
def test_sort_complex(dtype):
    x = numpy.array([3, 1, 2, 0], dtype=dtype)
    r = numpy.sort_complex(x)
    g = mnp.sort_complex(mnp.asarray(x))
    assert g.dtype == r.dtype
    numpy.testing.assert_array_equal(numpy.asarray(g), r)
