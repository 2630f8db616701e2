"""Session 13a fast paths against the real numpy: convolve/correlate through the native correlate1d
primitive (every native dtype, strided and reversed views, integer wrap-around, non-finite samples,
the dtypes that keep the composed path), apply_along_axis's joined results, einsum's weighted-view
path for small fully contracted operands, and sliding_window_view as one strided copy."""
import numpy
import pytest

import mnn.numpy as mnp
from mnn.numpy.lib import stride_tricks as mst

from helpers import assert_same, sample

NATIVE = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]
TOL = {"float32": 1e-5, "float64": 1e-13}


def m(a):
    return mnp.asarray(a)


def views(a):
    """(numpy array, mnn array) pairs with a's values: contiguous, every other element of a bigger
    mnn array, and reversed (negative stride) mnn views."""
    big = numpy.repeat(a, 2)
    return [(a, m(a)), (big[::2], m(big)[::2]), (a[::-1].copy()[::-1], m(a[::-1].copy())[::-1])]


# ----------------------------------------------------------------------------------------------
# convolve / correlate

@pytest.mark.parametrize("dtype", NATIVE)
def test_convolve_correlate_native_dtypes(dtype):
    for n, k in [(80, 5), (13, 3), (3, 13), (7, 7), (1, 1), (9, 1), (6, 4), (33, 32)]:
        a, v = sample((n,), dtype, seed=n, low=0, high=9), sample((k,), dtype, seed=k + 50, low=0, high=9)
        for (na, ma), (nv, mv) in zip(views(a), views(v)[::-1]):
            for mode in ["full", "same", "valid"]:
                rtol = TOL.get(dtype)
                assert_same(mnp.convolve(ma, mv, mode), numpy.convolve(na, nv, mode), rtol=rtol)
                assert_same(mnp.correlate(ma, mv, mode), numpy.correlate(na, nv, mode), rtol=rtol)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint64"])
def test_convolve_integer_wraparound(dtype):
    info = numpy.iinfo(dtype)
    rng = numpy.random.default_rng(1)
    a = rng.integers(info.min, info.max, size=23, dtype=dtype, endpoint=True)
    v = rng.integers(info.min, info.max, size=4, dtype=dtype, endpoint=True)
    for mode in ["full", "same", "valid"]:
        assert_same(mnp.convolve(m(a), m(v), mode), numpy.convolve(a, v, mode))
        assert_same(mnp.correlate(m(v), m(a), mode), numpy.correlate(v, a, mode))


def test_convolve_mixed_dtypes_and_python_inputs():
    a32 = sample((17,), "float32", seed=3)
    i16 = sample((4,), "int16", seed=4)
    assert_same(mnp.convolve(m(a32), m(i16)), numpy.convolve(a32, i16), rtol=1e-5)
    assert_same(mnp.correlate(m(i16), m(a32), "same"), numpy.correlate(i16, a32, "same"), rtol=1e-5)
    assert_same(mnp.convolve([1, 2, 3], [0, 1, 0.5]), numpy.convolve([1, 2, 3], [0, 1, 0.5]))
    assert_same(mnp.convolve(3, [1, 2, 3]), numpy.convolve(3, [1, 2, 3]))
    assert_same(mnp.convolve([1, 2, 3], 2.5), numpy.convolve([1, 2, 3], 2.5))
    assert_same(mnp.correlate([1, 2], [1, 2, 3, 4], "full"), numpy.correlate([1, 2], [1, 2, 3, 4], "full"))


def test_convolve_non_finite_samples():
    a = sample((12,), "float64", seed=5)
    v = sample((5,), "float64", seed=6)
    a[0], a[-1], a[6], v[-1] = numpy.inf, -numpy.inf, numpy.nan, numpy.inf
    with numpy.errstate(invalid="ignore"):
        for mode in ["full", "same", "valid"]:
            assert_same(mnp.convolve(m(a), m(v), mode), numpy.convolve(a, v, mode), rtol=1e-13)
            assert_same(mnp.correlate(m(v), m(a), mode), numpy.correlate(v, a, mode), rtol=1e-13)


@pytest.mark.parametrize("dtype", ["bool", "float16", "complex128"])
def test_convolve_composed_dtypes(dtype):
    a, v = sample((11,), dtype, seed=7), sample((3,), dtype, seed=8)
    if dtype == "complex128":
        a = a + 1j * sample((11,), "float64", seed=9)
    rtol = {"float16": 1e-2, "complex128": 1e-12}.get(dtype)
    for mode in ["full", "same", "valid"]:
        assert_same(mnp.convolve(m(a), m(v), mode), numpy.convolve(a, v, mode), rtol=rtol)


def test_convolve_long_kernel_keeps_gemm_path():
    a, v = sample((3000,), "float64", seed=10), sample((2000,), "float64", seed=11)
    assert_same(mnp.convolve(m(a), m(v), "same"), numpy.convolve(a, v, "same"), rtol=1e-9, atol=1e-8)


def test_convolve_errors():
    for bad in [lambda lib: lib.convolve(lib.ones(0), lib.ones(3)),
                lambda lib: lib.convolve(lib.ones(3), lib.ones(0)),
                lambda lib: lib.correlate(lib.ones(4), lib.ones(2), "bogus"),
                lambda lib: lib.convolve(lib.ones(4), lib.ones(2), "bogus"),
                lambda lib: lib.correlate(lib.ones((2, 2)), lib.ones(2))]:
        with pytest.raises(ValueError):
            bad(numpy)
        with pytest.raises(ValueError, match=r"^\[mnn\.numpy\.(convolve|correlate)\]"):
            bad(mnp)


# ----------------------------------------------------------------------------------------------
# apply_along_axis

@pytest.mark.parametrize("axis", [0, 1, -1])
def test_apply_along_axis_convolve_rows(axis):
    img = sample((13, 9), "float32", seed=12)
    g = numpy.array([0.25, 0.5, 0.25], dtype=numpy.float32)
    got = mnp.apply_along_axis(lambda r: mnp.convolve(r, m(g), mode="same"), axis, m(img))
    ref = numpy.apply_along_axis(lambda r: numpy.convolve(r, g, mode="same"), axis, img)
    assert_same(got, ref, rtol=1e-6)


def test_apply_along_axis_result_shapes():
    x = sample((4, 5, 3), "int64", seed=13)
    cases = [(lambda r, lib: r[::-1] * 2, 1), (lambda r, lib: lib.sum(r), 2), (lambda r, lib: r.max(), 0),
             (lambda r, lib: lib.outer(r, r), 1), (lambda r, lib: r[:2].astype(lib.float64), 0)]
    for fn, axis in cases:
        assert_same(mnp.apply_along_axis(lambda r: fn(r, mnp), axis, m(x)),
                    numpy.apply_along_axis(lambda r: fn(r, numpy), axis, x))
    # a strided (non-contiguous) input and extra arguments
    xs = m(sample((6, 10), "float64", seed=14))[:, ::2]
    assert_same(mnp.apply_along_axis(lambda r, k: r * k, 0, xs, 3.0),
                numpy.apply_along_axis(lambda r, k: r * k, 0, numpy.asarray(xs), 3.0))


# ----------------------------------------------------------------------------------------------
# einsum: small fully contracted operands

@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "int64", "float16"])
def test_einsum_small_weights(dtype):
    img = sample((9, 11), dtype, seed=15, low=0, high=20)
    kx = sample((3, 3), dtype, seed=16, low=0, high=5)
    win = numpy.lib.stride_tricks.sliding_window_view(img, (3, 3))
    mwin = mst.sliding_window_view(m(img), (3, 3))
    rtol = {"float32": 1e-6, "float64": 1e-14, "float16": 1e-3}.get(dtype)
    for sub, ops in [("ijkl,kl->ij", (win, kx)), ("kl,ijkl->ij", (kx, win)), ("ijkl,kl->ji", (win, kx)),
                     ("ijkl,lk->ij", (win, kx)), ("ij,j->i", (img[:, :3], kx[0])), ("i,i->", (kx[1], kx[2])),
                     ("ijk,k->ij", (win[:, :, 0], kx[0])), ("ijkl,l->ijk", (win, kx[2]))]:
        mops = [mwin if o is win else m(o) for o in ops]
        if sub == "ij,j->i":
            mops[0] = m(img)[:, :3]
        if sub == "ijk,k->ij":
            mops[0] = mwin[:, :, 0]
        assert_same(mnp.einsum(sub, *mops), numpy.einsum(sub, *ops), rtol=rtol)


def test_einsum_small_weights_noncontiguous_and_broadcast():
    a = sample((5, 8, 3), "float64", seed=17)
    w = sample((3,), "float64", seed=18)
    ma = m(numpy.concatenate([a, a], axis=1))[:, ::2]
    na = numpy.concatenate([a, a], axis=1)[:, ::2]
    assert_same(mnp.einsum("ijk,k->ij", ma, m(w)[::-1]), numpy.einsum("ijk,k->ij", na, w[::-1]), rtol=1e-14)
    assert_same(mnp.einsum("ijk,k->ij", m(a[:, :1]), m(w)), numpy.einsum("ijk,k->ij", a[:, :1], w), rtol=1e-14)
    assert_same(mnp.einsum("ij,ij->i", m(a[..., 0]), m(a[..., 1])),
                numpy.einsum("ij,ij->i", a[..., 0], a[..., 1]), rtol=1e-14)


# ----------------------------------------------------------------------------------------------
# sliding_window_view

@pytest.mark.parametrize("dtype", ["bool", "uint8", "int16", "float32", "float64", "complex128"])
def test_sliding_window_view(dtype):
    x = sample((7, 10), dtype if dtype != "complex128" else "float64", seed=19).astype(dtype)
    for ws, axis in [((3, 3), None), (4, 1), (2, 0), ((2, 2), (1, 1)), ((2, 3), (1, 0)), ((0,), 0),
                     ((7, 1), None), ((), ())]:
        ref = numpy.lib.stride_tricks.sliding_window_view(x, ws, axis=axis)
        assert_same(mst.sliding_window_view(m(x), ws, axis=axis), ref)
        # a strided, reversed source
        xs = x[::-1, ::2]
        ref = numpy.lib.stride_tricks.sliding_window_view(xs, ws if axis is not None or ws == () else (2, 2),
                                                          axis=axis)
        got = mst.sliding_window_view(m(x)[::-1, ::2], ws if axis is not None or ws == () else (2, 2), axis=axis)
        assert_same(got, ref)


def test_sliding_window_view_1d_3d_and_errors():
    x = sample((10,), "int64", seed=20)
    assert_same(mst.sliding_window_view(m(x), 4), numpy.lib.stride_tricks.sliding_window_view(x, 4))
    y = sample((3, 4, 5), "float32", seed=21)
    assert_same(mst.sliding_window_view(m(y), (2, 2), axis=(0, 2)),
                numpy.lib.stride_tricks.sliding_window_view(y, (2, 2), axis=(0, 2)))
    w = mst.sliding_window_view(m(x), 3)
    with pytest.raises(ValueError):
        w[0, 0] = 1  # read-only, as numpy's
    for bad in [lambda st, lib: st.sliding_window_view(lib.ones(3), 4),
                lambda st, lib: st.sliding_window_view(lib.ones(3), -1),
                lambda st, lib: st.sliding_window_view(lib.ones((3, 3)), 2)]:
        with pytest.raises(ValueError):
            bad(numpy.lib.stride_tricks, numpy)
        with pytest.raises(ValueError, match=r"^\[mnn\.numpy\.lib\.stride_tricks\.sliding_window_view\]"):
            bad(mst, mnp)


# ----------------------------------------------------------------------------------------------
# array() from lists of Python scalars (the array.array / from_list fast path)

@pytest.mark.parametrize("data", [
    [1, 2, 3], [True, False], [1, 2.5], [True, 2], [1, 2j], [-(2 ** 63), 2 ** 63 - 1],
    (0.5, -0.0, float("inf"), float("nan")), [[1, 2], [3, 4], [5, 6]], [(1.5,), (2,)], [[True], [False]],
    [[1, 2], (3, 4)], [list(range(357))], [x * 0.1 - 3 for x in range(101)],
])
def test_array_from_python_scalars(data):
    flat = numpy.ravel(numpy.array(data)).tolist()
    for dtype in [None, "float64", "int64", "float32", "int8", "bool"]:
        if dtype not in (None, "float64", "float32") and any(isinstance(v, (float, complex)) for v in flat):
            continue  # float -> int and complex -> bool casts of Python values: not this path's business
        try:
            with numpy.errstate(all="ignore"):
                ref = numpy.array(data, dtype=dtype)
        except (TypeError, OverflowError):
            continue  # numpy refuses these (complex to float, out-of-range ints)
        assert_same(mnp.array(data, dtype=dtype), ref)
    got = mnp.array(data)
    got[(0,) * got.ndim] = 0  # a fresh, writeable array
    assert numpy.asarray(got)[(0,) * got.ndim] == 0


def test_array_from_python_scalars_general_cases():
    assert_same(mnp.array([[[1, 2]], [[3, 4]]]), numpy.array([[[1, 2]], [[3, 4]]]))  # 3-d: the general path
    assert_same(mnp.array([numpy.float32(1.5), 2.0]), numpy.array([numpy.float32(1.5), 2.0]))
    assert_same(mnp.array([1, numpy.int8(3)]), numpy.array([1, numpy.int8(3)]))
    assert_same(mnp.array([[], []]), numpy.array([[], []]))
    assert_same(mnp.array([2 ** 63, 5]), numpy.array([2 ** 63, 5]))  # uint64 with int64: float64, as numpy
    with pytest.raises(ValueError):
        mnp.array([[1, 2], [3]])
    with pytest.raises(OverflowError, match=r"^\[mnn\.numpy\.array\]"):
        mnp.array([2 ** 64, -1])


# ----------------------------------------------------------------------------------------------
# vectorize: the all-positional map path and the general loop

def test_vectorize_paths():
    z = sample((21, 17), "float64", seed=22, low=-3, high=3)
    f = lambda v: 2 if v > 2 else (1 if v > 0 else 0)  # noqa: E731
    assert_same(mnp.vectorize(f)(m(z)), numpy.vectorize(f)(z))
    g = lambda a, b: a * 2 + b  # noqa: E731
    assert_same(mnp.vectorize(g)(m(z[:, :3]), m(z[0, :3])), numpy.vectorize(g)(z[:, :3], z[0, :3]))
    assert_same(mnp.vectorize(g)(m(z)[::2, ::-1], 1.5), numpy.vectorize(g)(z[::2, ::-1], 1.5))
    assert_same(mnp.vectorize(g)(2.0, 3), numpy.vectorize(g)(2.0, 3))
    # keyword and excluded arguments keep the general loop
    assert_same(mnp.vectorize(g)(m(z[0]), b=2.0), numpy.vectorize(g)(z[0], b=2.0))
    h = lambda a, k: a + len(k)  # noqa: E731
    assert_same(mnp.vectorize(h, excluded={1})(m(z[1]), [1, 2]), numpy.vectorize(h, excluded={1})(z[1], [1, 2]))
    assert_same(mnp.vectorize(f, otypes=[numpy.float32])(m(z[2])), numpy.vectorize(f, otypes=[numpy.float32])(z[2]))


# ----------------------------------------------------------------------------------------------
# add.at on integers: one scatter_add

@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint32"])
def test_add_at_integers(dtype):
    rng = numpy.random.default_rng(23)
    xi, zi = rng.integers(0, 4, 357), rng.integers(0, 4, 357)
    for b in [1, rng.integers(0, 100, 357).astype(dtype), rng.integers(0, 100, 357).astype("int16") if
              dtype.startswith("int") else rng.integers(0, 100, 357).astype("uint16")]:
        ref = numpy.zeros((4, 4), dtype=dtype) + numpy.array(100, dtype=dtype)
        got = m(ref.copy())
        numpy.add.at(ref, (xi, zi), b)
        mnp.add.at(got, (m(xi), m(zi)), b if numpy.isscalar(b) else m(b))
        assert_same(got, ref)
    # a strided view as the target, a 1-d index with repeats, a broadcast value
    base = numpy.arange(20, dtype=dtype)
    ref, got = base.copy(), m(base.copy())
    numpy.add.at(ref[::2], [0, 3, 3, 9, 0, 0], numpy.array(7, dtype=dtype))
    mnp.add.at(got[::2], m(numpy.array([0, 3, 3, 9, 0, 0])), m(numpy.array(7, dtype=dtype)))
    assert_same(got, ref)


def test_add_at_float_and_errors_keep_general_path():
    ref = numpy.zeros(5)
    got = m(ref.copy())
    idx = numpy.array([0, 1, 1, 4, 4, 4])
    vals = numpy.array([0.1, 1e16, 1.0, -1e16, 3.0, 1e-3])
    numpy.add.at(ref, idx, vals)
    mnp.add.at(got, m(idx), m(vals))
    assert_same(got, ref)
    with pytest.raises(IndexError):
        mnp.add.at(m(numpy.zeros(3, dtype=numpy.int64)), m(numpy.array([3])), 1)
    with pytest.raises(TypeError):  # float into int: not same_kind
        mnp.add.at(m(numpy.zeros(3, dtype=numpy.int64)), m(numpy.array([0])), m(numpy.array([1.5])))


# ----------------------------------------------------------------------------------------------
# linspace between Python numbers (host path) against numpy, bit for bit

def test_linspace_host_path_bits():
    rng = numpy.random.default_rng(24)
    cases = [(0, 1, 33), (-1, 1, 17), (0.0, 1.0, 0), (2.5, 2.5, 5), (1, 0, 7), (-2.0, 0.8, 60), (3, 3, 1),
             (1e300, -1e300, 9), (-1.4, 1.4, 40), (0, 1e-320, 4), (5, 7, 4096), (2 ** 60, 0, 3)]
    cases += [(float(a), float(b), int(n)) for a, b, n in
              zip(rng.uniform(-10, 10, 40), rng.uniform(-10, 10, 40), rng.integers(0, 90, 40))]
    for a, b, n in cases:
        for endpoint in (True, False):
            ref = numpy.linspace(a, b, n, endpoint=endpoint)
            got = mnp.linspace(a, b, n, endpoint=endpoint)
            assert_same(got, ref)
            numpy.testing.assert_array_equal(numpy.asarray(got).view("u8"), ref.view("u8"))
    got = mnp.linspace(0, 1, 5)
    got[0] = 9  # a fresh writeable array
    assert_same(mnp.linspace(0, 1, 5), numpy.linspace(0, 1, 5))
    assert_same(mnp.linspace(0, 1, 5, dtype=numpy.float32), numpy.linspace(0, 1, 5, dtype=numpy.float32))
    assert_same(mnp.linspace(0, 10, 5, dtype=int), numpy.linspace(0, 10, 5, dtype=int))
    y, step = mnp.linspace(0, 1, 5, retstep=True)
    assert float(step) == numpy.linspace(0, 1, 5, retstep=True)[1]
    with pytest.raises(ValueError, match=r"^\[mnn\.numpy\.linspace\]"):
        mnp.linspace(0, 1, -1)


# ----------------------------------------------------------------------------------------------
# einsum over a sliding_window_view: shifted slices of the source (the stencil form)

@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8"])
def test_einsum_over_window_view(dtype):
    img = sample((13, 17), dtype, seed=25, low=0, high=30)
    kx = sample((4, 4), dtype, seed=26, low=0, high=4)
    rtol = {"float32": 1e-6, "float64": 1e-14}.get(dtype)
    for ws, axis in [((3, 3), None), ((2, 4), None), ((3, 3), (1, 0)), ((2, 2), (1, 1))]:
        win = numpy.lib.stride_tricks.sliding_window_view(numpy.pad(img, 1, mode="edge"), ws, axis=axis)
        mwin = mst.sliding_window_view(mnp.pad(m(img), 1, mode="edge"), ws, axis=axis)
        w = kx[:ws[0], :ws[1]]
        for sub, wt in [("ijkl,kl->ij", w), ("ijkl,lk->ij", w.T.copy()), ("ijkl,kl->ji", w)]:
            assert_same(mnp.einsum(sub, mwin, m(wt)), numpy.einsum(sub, win, wt), rtol=rtol)
        # a window axis left free, or an array axis contracted: the general weighted-view path
        assert_same(mnp.einsum("ijkl,k->ijl", mwin, m(w[:, 0])), numpy.einsum("ijkl,k->ijl", win, w[:, 0]), rtol=rtol)
        assert_same(mnp.einsum("ijkl,i->jkl", mwin[:5], m(kx[:, 0].repeat(2)[:5])),
                    numpy.einsum("ijkl,i->jkl", win[:5], kx[:, 0].repeat(2)[:5]), rtol=rtol)
    # 1-d windows, and a source written after the window was taken: the window keeps the values
    # of its call (mnn's window is a copy, so the einsum must not read the newer source)
    x = sample((20,), dtype, seed=27, low=0, high=9)
    mx = m(x.copy())
    mw = mst.sliding_window_view(mx, 4)
    mx[...] = 0
    ref = numpy.einsum("ij,j->i", numpy.lib.stride_tricks.sliding_window_view(x, 4), kx[0, :1].repeat(4))
    assert_same(mnp.einsum("ij,j->i", mw, m(kx[0, :1].repeat(4))), ref, rtol=rtol)


# ----------------------------------------------------------------------------------------------
# percentile / quantile on long rows: partition at the needed ranks instead of a sort

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
           "normal_unbiased"]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8"])
def test_percentile_partition_path(dtype):
    a = sample((4801,), dtype, seed=28, low=0, high=50)  # many ties for the ints
    for method in METHODS:
        for q in [90, 0, 100, 37.5, [5, 50, 95]]:
            assert_same(mnp.percentile(m(a), q, method=method), numpy.percentile(a, q, method=method))
    b = sample((3, 300, 2), dtype, seed=29, low=0, high=1000)
    for axis in [1, None, (0, 1)]:
        for keepdims in [False, True]:
            assert_same(mnp.quantile(m(b), [0.25, 0.5], axis=axis, keepdims=keepdims),
                        numpy.quantile(b, [0.25, 0.5], axis=axis, keepdims=keepdims))
    # a strided view, and more quantiles than the partition path takes (the sort path)
    assert_same(mnp.percentile(m(a)[::-3], 90), numpy.percentile(a[::-3], 90))
    qs = numpy.linspace(0, 100, 11)
    assert_same(mnp.percentile(m(a), m(qs)), numpy.percentile(a, qs))


def test_percentile_partition_path_nan_and_median():
    a = sample((1000,), "float64", seed=30)
    a[[3, 500]] = numpy.nan
    with numpy.errstate(invalid="ignore"):
        assert_same(mnp.percentile(m(a), 90), numpy.percentile(a, 90))
        assert_same(mnp.quantile(m(a), [0.1, 0.9]), numpy.quantile(a, [0.1, 0.9]))
        assert_same(mnp.nanpercentile(m(a), 90), numpy.nanpercentile(a, 90))
    b = sample((1000,), "float32", seed=31)
    assert_same(mnp.median(m(b)), numpy.median(b))
    with pytest.raises(ValueError):
        mnp.percentile(m(b), 101)


# ----------------------------------------------------------------------------------------------
# histogram counts through scatter_add (the output length is known)

@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8"])
def test_histogram_counts(dtype):
    a = sample((997,), dtype, seed=32, low=0, high=200)
    w = sample((997,), "float64", seed=33)
    for bins, rng in [(6, (0, 180)), (10, None), (1, None), ([0, 5, 50, 51, 190], None), (7, (20, 40))]:
        for weights in [None, w, w.astype(numpy.float32), (w * 10).astype(numpy.int32)]:
            for density in [None, True]:
                ref = numpy.histogram(a, bins=bins, range=rng, weights=weights, density=density)
                got = mnp.histogram(m(a), bins=bins, range=rng, weights=None if weights is None else m(weights),
                                    density=density)
                rtol = 1e-12 if density or (weights is not None and weights.dtype.kind == "f") else None
                if weights is not None and weights.dtype == numpy.float32:
                    rtol = 1e-5  # (numpy sums float32 weights in float32, mnn in float64: not this path's)
                assert_same(got[0], ref[0], rtol=rtol)
                assert_same(got[1], ref[1])
    assert_same(mnp.histogram(m(a)[::-2], bins=5)[0], numpy.histogram(a[::-2], bins=5)[0])
    assert_same(mnp.histogram(m(a[:0]), bins=3, range=(0, 1))[0], numpy.histogram(a[:0], bins=3, range=(0, 1))[0])


# ----------------------------------------------------------------------------------------------
# boolean masks: a[mask] through gather (no index check evaluation), a[mask] = values without
# ravel_index

@pytest.mark.parametrize("dtype", ["complex128", "float32", "int64", "uint8", "bool"])
def test_mask_get_and_set(dtype):
    a = sample((40, 60), dtype if dtype != "complex128" else "float64", seed=34).astype(dtype)
    if dtype == "complex128":
        a = a + 1j * sample((40, 60), "float64", seed=35)
    mask = sample((40, 60), "float64", seed=36) > 2
    ma = m(a.copy())
    assert_same(ma[m(mask)], a[mask])
    assert_same(ma[m(mask[0])[None, :].repeat(40, axis=0)], a[numpy.repeat(mask[0][None, :], 40, axis=0)])
    assert_same(ma[m(mask[:, 0])], a[mask[:, 0]])                       # a row mask (mask ndim < a ndim)
    assert_same(ma[::2][m(mask[::2])], a[::2][mask[::2]])                # a strided source
    assert_same(ma[m(numpy.zeros_like(mask))], a[numpy.zeros_like(mask)])  # nothing selected
    # a[mask] = a[mask] ** 2 + c[mask], the mandelbrot update
    ref = a.copy()
    ref[mask] = ref[mask] * ref[mask] + a[mask]
    got = m(a.copy())
    got[m(mask)] = got[m(mask)] * got[m(mask)] + m(a)[m(mask)]
    # (complex products may differ from numpy's in the last bit on some ISA targets: not indexing's)
    tol = {"rtol": 1e-12, "atol": 1e-12} if dtype in ("complex128", "float32") else {}
    assert_same(got, ref, **tol)
    ref[mask[:, 0]] = a[:1]
    got[m(mask[:, 0])] = m(a[:1])
    assert_same(got, ref, **tol)
    with pytest.raises(IndexError, match=r"^\[mnn\.numpy\."):
        ma[m(mask[:, :5])]
    with pytest.raises(ValueError):
        got[m(mask)] = m(a[:1, :3])


# ----------------------------------------------------------------------------------------------
# polyfit: factors of a repeated x reused (bits equal to the uncached path)

def test_polyfit_repeated_x():
    from mnn.numpy import _polyfit13
    rng = numpy.random.default_rng(37)
    x = numpy.linspace(-1, 1, 17)
    Y = rng.normal(size=(9, 17))
    for deg in [0, 1, 2, 5]:
        for y in Y:
            assert_same(mnp.polyfit(m(x), m(y), deg), numpy.polyfit(x, y, deg), rtol=1e-9, atol=1e-12)
        assert_same(mnp.polyfit(m(x), m(Y.T), deg), numpy.polyfit(x, Y.T, deg), rtol=1e-9, atol=1e-12)
    # the cached and uncached paths give the same bits
    keep = _polyfit13._MAX_N
    try:
        _polyfit13._MAX_N = -1
        ref = [numpy.asarray(mnp.polyfit(m(x), m(y), 3)) for y in Y]
    finally:
        _polyfit13._MAX_N = keep
    got = [numpy.asarray(mnp.polyfit(m(x), m(y), 3)) for y in Y]
    for r, g in zip(ref, got):
        numpy.testing.assert_array_equal(g.view("u8"), r.view("u8"))
    # -0.0 and 0.0 in x are different keys; ints and a strided x; the apply_along_axis form
    xs = numpy.array([-0.0, 1.0, 2.0, 3.0])
    assert_same(mnp.polyfit(m(xs), m(Y[0, :4]), 1), numpy.polyfit(xs, Y[0, :4], 1), rtol=1e-9, atol=1e-12)
    assert_same(mnp.polyfit(m(numpy.arange(6)), m(numpy.arange(6) ** 2), 2),
                numpy.polyfit(numpy.arange(6), numpy.arange(6) ** 2, 2), rtol=1e-9, atol=1e-9)
    xx = numpy.linspace(-1, 1, 34)
    assert_same(mnp.polyfit(m(xx)[::2], m(Y[1]), 2), numpy.polyfit(xx[::2], Y[1], 2), rtol=1e-9, atol=1e-12)
    z = rng.normal(size=(21, 17))
    assert_same(mnp.apply_along_axis(lambda r: mnp.polyfit(m(x), r, 2), 1, m(z)),
                numpy.apply_along_axis(lambda r: numpy.polyfit(x, r, 2), 1, z), rtol=1e-9, atol=1e-12)
    # a rank-deficient fit warns on every call, cached or not
    for _ in range(2):
        with pytest.warns(mnp.exceptions.RankWarning if hasattr(mnp, "exceptions") else Warning):
            mnp.polyfit(m(numpy.ones(5)), m(Y[0, :5]), 2)
    with pytest.raises(TypeError, match=r"^\[mnn\.numpy\.polyfit\]"):
        mnp.polyfit(m(x), m(Y[0, :5]), 1)


def test_mask_scalar_setitem():
    a = sample((40, 60), "int32", seed=38)
    z = sample((40, 60), "float64", seed=39)
    for dtype, val in [("int32", 7), ("float32", 2.5), ("uint8", 255), ("bool", True), ("complex128", 1j)]:
        ref = a.astype(dtype)
        got = m(ref.copy())
        ref[z > 1] = val
        got[m(z) > 1] = val  # a pending mask
        assert_same(got, ref)
        ref[(z > 5)[:, 0]] = val  # a row mask
        got[m((z > 5)[:, 0])] = val
        assert_same(got, ref)
    ref = a.copy()
    got = m(a.copy())
    view, mview = ref[::2, 1:], got[::2, 1:]
    view[z[::2, 1:] < 0] = -1
    mview[m(z)[::2, 1:] < 0] = -1
    assert_same(got, ref)  # written through the strided view
    ref[z > 0] = 3.9  # numpy casts the value unsafely on assignment
    got[m(z) > 0] = 3.9
    assert_same(got, ref)
    with pytest.raises(IndexError, match=r"^\[mnn\.numpy\."):
        got[m(z[:, :5] > 0)] = 1
    ro = mst.sliding_window_view(m(a), (3, 3))
    with pytest.raises(ValueError):
        ro[m(numpy.ones(ro.shape, dtype=bool))] = 1
