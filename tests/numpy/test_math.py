"""Math functions (mnn.numpy._math_funcs, _einsum) against the real numpy: the new ufuncs (fmod, gcd, lcm
natively; ldexp, frexp, nextafter, spacing, modf, divmod, sinc, i0, float_power, nan_to_num composed)
over dtypes x shapes with NaN/inf/-0.0/subnormals and integer overflow; convolve/correlate, interp,
cross, gradient, cumulative_sum/prod, isclose/allclose/array_equiv, einsum/einsum_path, tensordot,
kron, matvec/vecmat; numpy's exception types on bad input."""
import warnings

import numpy
import pytest

import mnn.numpy as mnp

from helpers import FLOAT_DTYPES, INT_DTYPES, assert_same as _assert_same, non_contiguous, sample


def assert_same(got, expected, rtol=None, atol=0.0, check_dtype=True):
    """helpers.assert_same, plus the sign of every zero when the comparison is exact."""
    _assert_same(got, expected, rtol=rtol, atol=atol, check_dtype=check_dtype)
    e = numpy.asarray(expected)
    if rtol is None and atol == 0.0 and e.dtype.kind == "f":
        g = numpy.asarray(got)
        numpy.testing.assert_array_equal(numpy.signbit(g[g == 0]), numpy.signbit(e[e == 0]))

SHAPES = [(), (0,), (7,), (3, 4), (0, 3)]


def m(a):
    return mnp.asarray(a)


def same_error(fn_np, fn_mnn):
    with pytest.raises(Exception) as e_np:
        fn_np()
    with pytest.raises(Exception) as e_mnn:
        fn_mnn()
    # numpy's own classes (AxisError, UFuncTypeError, its private _UFuncNoLoopError) are matched by
    # name along numpy's MRO; builtin classes by isinstance
    np_names = {c.__name__ for c in type(e_np.value).__mro__ if c not in (Exception, BaseException, object)}
    assert type(e_mnn.value).__name__ in np_names or isinstance(e_mnn.value, type(e_np.value)), \
        f"numpy raised {type(e_np.value).__name__}, mnn raised {type(e_mnn.value).__name__}: {e_mnn.value}"


def special(dtype):
    """Edge values of a float dtype: zeros of both signs, infinities, NaN, extremes, subnormals,
    powers of two and their neighbours."""
    fi = numpy.finfo(dtype)
    vals = [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, -1.0, 0.5, 2.0, 3.0, -7.25, float(fi.max),
            float(-fi.max), float(fi.tiny), float(-fi.tiny), float(fi.smallest_subnormal),
            float(fi.smallest_subnormal) * 3, 1.0 + float(fi.eps), 1.0 - float(fi.epsneg), 1e-3, 123.456, 1024.0]
    with numpy.errstate(over="ignore"):
        return numpy.array(vals, dtype=dtype)


# ----------------------------------------------------------------------------------------------
# native opcodes

@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES + ["bool"])
def test_fmod(dtype):
    for shape in SHAPES:
        a = sample(shape, dtype, seed=1)
        b = sample(shape, dtype, seed=2)
        with numpy.errstate(all="ignore"):
            exp = numpy.fmod(a, b)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_same(mnp.fmod(m(a), m(b)), exp)
    if dtype in FLOAT_DTYPES:
        s = special(dtype)
        x, y = numpy.meshgrid(s, s)
        with numpy.errstate(all="ignore"):
            assert_same(mnp.fmod(m(x), m(y)), numpy.fmod(x, y))
    if dtype in INT_DTYPES and dtype.startswith("int"):
        info = numpy.iinfo(dtype)
        a = numpy.array([info.min, info.min, -7, 7, -7, 0, info.max], dtype)
        b = numpy.array([-1, 3, 3, -3, -3, 5, -1], dtype)
        assert_same(mnp.fmod(m(a), m(b)), numpy.fmod(a, b))


def test_fmod_broadcast_scalar_noncontiguous():
    a = sample((3, 8), "float32", seed=3)
    assert_same(mnp.fmod(m(non_contiguous(a)), 2.5), numpy.fmod(non_contiguous(a), 2.5))
    assert_same(mnp.fmod(m(a), m(a[0])), numpy.fmod(a, a[0]))
    i = sample((4,), "int16", seed=3)
    assert_same(mnp.fmod(m(i), 7), numpy.fmod(i, 7))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(mnp.fmod(m(i), 0), numpy.fmod(i, numpy.int16(0)))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_gcd_lcm(dtype):
    info = numpy.iinfo(dtype)
    a = sample((50,), dtype, seed=4)
    b = sample((50,), dtype, seed=5)
    assert_same(mnp.gcd(m(a), m(b)), numpy.gcd(a, b))
    assert_same(mnp.lcm(m(a), m(b)), numpy.lcm(a, b))
    edge = numpy.array([info.min, info.max, 0, 1, 12, 18], dtype)
    x, y = numpy.meshgrid(edge, edge)
    assert_same(mnp.gcd(m(x), m(y)), numpy.gcd(x, y))
    assert_same(mnp.lcm(m(x), m(y)), numpy.lcm(x, y))
    assert_same(mnp.gcd(m(a), 6), numpy.gcd(a, 6))
    for shape in SHAPES:
        c = sample(shape, dtype, seed=6)
        assert_same(mnp.gcd(m(c), m(c)), numpy.gcd(c, c))


def test_gcd_lcm_errors():
    f = numpy.ones(3)
    same_error(lambda: numpy.gcd(f, f), lambda: mnp.gcd(m(f), m(f)))
    same_error(lambda: numpy.lcm(numpy.ones(2, bool), numpy.ones(2, bool)),
               lambda: mnp.lcm(m(numpy.ones(2, bool)), m(numpy.ones(2, bool))))
    assert_same(mnp.gcd(m(numpy.array([4, 6], "int8")), m(numpy.array([True, False]))),
                numpy.gcd(numpy.array([4, 6], "int8"), numpy.array([True, False])))


# ----------------------------------------------------------------------------------------------
# composed float ufuncs (bit-exact against numpy)

@pytest.mark.parametrize("dtype", FLOAT_DTYPES + ["int8", "int16", "int32", "uint8", "bool"])
def test_frexp_ldexp(dtype):
    s = special(dtype) if dtype in FLOAT_DTYPES else sample((20,), dtype, seed=7)
    mant, ex = mnp.frexp(m(s))
    em, ee = numpy.frexp(s)
    assert_same(mant, em)
    assert_same(ex, ee)
    if dtype in FLOAT_DTYPES:
        rng = numpy.random.default_rng(8)
        x = (rng.standard_normal(200) * numpy.exp2(rng.integers(-20, 20, 200))).astype(dtype)
        assert_same(mnp.frexp(m(x))[0], numpy.frexp(x)[0])
        assert_same(mnp.frexp(m(x))[1], numpy.frexp(x)[1])
    ns = numpy.array([-2000, -1080, -30, -1, 0, 1, 5, 30, 1100, 2000], "int32")
    base = numpy.resize(s, ns.shape)
    with numpy.errstate(all="ignore"):
        exp = numpy.ldexp(base, ns)
    assert_same(mnp.ldexp(m(base), m(ns)), exp)
    assert_same(mnp.ldexp(m(base), 3), numpy.ldexp(base, 3))
    for shape in SHAPES:
        a = sample(shape, dtype, seed=9)
        assert_same(mnp.frexp(m(a))[0], numpy.frexp(a)[0])
        assert_same(mnp.ldexp(m(a), 2), numpy.ldexp(a, 2))


def test_ldexp_frexp_errors_and_out():
    same_error(lambda: numpy.ldexp(numpy.ones(2), numpy.ones(2)), lambda: mnp.ldexp(mnp.ones(2), mnp.ones(2)))
    o1, o2 = mnp.zeros(3), mnp.zeros(3, dtype=mnp.int32)
    r = mnp.frexp(mnp.array([1.0, 6.0, -0.25]), out=(o1, o2))
    assert r[0] is o1 and r[1] is o2
    assert_same(o1, numpy.frexp(numpy.array([1.0, 6.0, -0.25]))[0])


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_nextafter_spacing(dtype):
    s = special(dtype)
    x, y = numpy.meshgrid(s, s)
    with numpy.errstate(all="ignore"):
        assert_same(mnp.nextafter(m(x), m(y)), numpy.nextafter(x, y))
        assert_same(mnp.spacing(m(s)), numpy.spacing(s))
    rng = numpy.random.default_rng(10)
    r = (rng.standard_normal(100) * numpy.exp2(rng.integers(-12, 12, 100))).astype(dtype)
    assert_same(mnp.nextafter(m(r), 0), numpy.nextafter(r, numpy.array(0, dtype)))
    assert_same(mnp.spacing(m(r)), numpy.spacing(r))
    assert_same(mnp.spacing(m(non_contiguous(r))), numpy.spacing(non_contiguous(r)))


def test_nextafter_spacing_int_inputs():
    b = numpy.array([True, False])
    assert_same(mnp.nextafter(m(b), 1), numpy.nextafter(b, 1))  # bool joins the weak int first: float64
    h = numpy.array([-6e-8, 6e-8, -0.0, 0.0, 1.0], "float16")
    for y in [1, -1, -0.0, 0.0]:
        assert_same(mnp.nextafter(m(h), y), numpy.nextafter(h, y))  # half: to zero keeps the sign, x == y gives x
    i = numpy.array([0, 1, -3, 100], "int8")
    assert_same(mnp.spacing(m(i)), numpy.spacing(i))
    assert_same(mnp.nextafter(m(i), m(i[::-1])), numpy.nextafter(i, i[::-1]))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + ["int32", "uint8", "bool"])
def test_modf_divmod(dtype):
    s = special(dtype) if dtype in FLOAT_DTYPES else sample((20,), dtype, seed=11)
    f, i = mnp.modf(m(s))
    ef, ei = numpy.modf(s)
    assert_same(f, ef)
    assert_same(i, ei)
    if dtype == "bool":
        return
    a = sample((30,), dtype, seed=12)
    b = sample((30,), dtype, seed=13)
    with numpy.errstate(all="ignore"):
        eq, er = numpy.divmod(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q, r = mnp.divmod(m(a), m(b))
    assert_same(q, eq)
    assert_same(r, er)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + ["int16", "int64", "bool"])
def test_sinc_i0_float_power(dtype):
    for shape in SHAPES:
        a = sample(shape, dtype, seed=14)
        rtol = 1e-3 if dtype == "float16" else 1e-6 if dtype == "float32" else 1e-13
        assert_same(mnp.sinc(m(a)), numpy.sinc(a), rtol=rtol, atol=1e-15)
        assert_same(mnp.sinc(m(a)).astype(mnp.float64), numpy.sinc(a).astype(numpy.float64), rtol=rtol, atol=1e-15,
                    check_dtype=False)
        assert mnp.sinc(m(a)).dtype == numpy.sinc(a).dtype
        assert_same(mnp.i0(m(a)), numpy.i0(a), rtol=rtol)
        with numpy.errstate(all="ignore"):
            assert_same(mnp.float_power(m(a), 2), numpy.float_power(a, 2), rtol=1e-15)
    if dtype in FLOAT_DTYPES:
        s = special(dtype)
        with numpy.errstate(all="ignore"):
            assert_same(mnp.sinc(m(s)), numpy.sinc(s), rtol=1e-3)
            assert_same(mnp.i0(m(s)), numpy.i0(s), rtol=1e-3)


def test_i0_matches_numpy_exactly_in_float64():
    x = numpy.linspace(-30, 30, 301)
    assert_same(mnp.i0(m(x)), numpy.i0(x), rtol=4e-16)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + ["int32"])
def test_nan_to_num(dtype):
    s = special(dtype) if dtype in FLOAT_DTYPES else sample((9,), dtype, seed=15)
    assert_same(mnp.nan_to_num(m(s)), numpy.nan_to_num(s))
    assert_same(mnp.nan_to_num(m(s), nan=-1.5, posinf=100, neginf=-100),
                numpy.nan_to_num(s, nan=-1.5, posinf=100, neginf=-100))
    x = m(s.copy())
    r = mnp.nan_to_num(x, copy=False)
    assert r is x
    assert_same(x, numpy.nan_to_num(s))


def test_round_decimals():
    rng = numpy.random.default_rng(16)
    for dtype in FLOAT_DTYPES:
        x = (rng.standard_normal(200) * 1000).astype(dtype)
        x[:4] = [0.5, 1.5, -2.5, -0.0]
        for d in [-3, -1, 0, 1, 2, 5]:
            assert_same(mnp.round(m(x), d), numpy.round(x, d))
            assert_same(mnp.around(m(x), d), numpy.around(x, d))
    i = numpy.array([-155, 150, 249, 251, 127], "int16")
    for d in [-2, -1, 0, 2]:
        assert_same(mnp.round(m(i), d), numpy.round(i, d))


def test_existing_ufuncs_present():
    for name in ["hypot", "arctan2", "logaddexp", "logaddexp2", "copysign", "heaviside", "deg2rad", "rad2deg",
                 "cbrt", "fmax", "fmin", "signbit", "positive"]:
        a, b = sample((5,), "float64", seed=17), sample((5,), "float64", seed=18)
        f = getattr(numpy, name)
        args = (a, b) if f.nin == 2 else (a,)
        assert_same(getattr(mnp, name)(*map(m, args)), f(*args), rtol=1e-14)


# ----------------------------------------------------------------------------------------------
# convolve / correlate / interp / cross / gradient

@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "uint8"])
def test_convolve_correlate(dtype):
    for n, k in [(10, 3), (3, 10), (5, 5), (1, 1), (7, 1), (6, 4)]:
        a, v = sample((n,), dtype, seed=19, low=0, high=9), sample((k,), dtype, seed=20, low=0, high=9)
        for mode in ["full", "same", "valid"]:
            # float sums of products: numpy's order of accumulation depends on its SIMD path
            rtol = {"float32": 1e-5, "float64": 1e-14}.get(dtype)
            assert_same(mnp.convolve(m(a), m(v), mode), numpy.convolve(a, v, mode), rtol=rtol)
            assert_same(mnp.correlate(m(a), m(v), mode), numpy.correlate(a, v, mode), rtol=rtol)
    a = sample((9,), "float64", seed=21)
    assert_same(mnp.convolve(m(a), m(a[::2])), numpy.convolve(a, a[::2]), rtol=1e-13)
    assert_same(mnp.correlate(m(a), m(a[1:4])), numpy.correlate(a, a[1:4]), rtol=1e-13)
    same_error(lambda: numpy.convolve(numpy.ones(0), numpy.ones(3)), lambda: mnp.convolve(mnp.ones(0), mnp.ones(3)))
    same_error(lambda: numpy.correlate(numpy.ones(3), numpy.ones(2), "bogus"),
               lambda: mnp.correlate(mnp.ones(3), mnp.ones(2), "bogus"))


def test_convolve_long_kernels():
    # kernels past the window-stacking size take the block-Toeplitz GEMM path
    for n, k in [(500, 33), (257, 100), (100, 257), (64, 64), (40, 39), (1000, 999)]:
        for dtype in ["int64", "float64"]:
            a, v = sample((n,), dtype, seed=n, low=-9, high=9), sample((k,), dtype, seed=k, low=-9, high=9)
            for mode in ["full", "same", "valid"]:
                tol = {} if dtype == "int64" else {"rtol": 1e-10, "atol": 1e-9}
                assert_same(mnp.convolve(m(a), m(v), mode), numpy.convolve(a, v, mode), **tol)
                assert_same(mnp.correlate(m(a), m(v), mode), numpy.correlate(a, v, mode), **tol)


def test_convolve_non_finite():
    for n, k in [(100, 40), (300, 64)]:
        # non-finite kernel values only, with a finite signal: the long-kernel GEMM path
        a, v = sample((n,), "float64", seed=5), sample((k,), "float64", seed=6)
        v[0], v[-1] = numpy.inf, -numpy.inf
        for mode in ["full", "same", "valid"]:
            with numpy.errstate(invalid="ignore"):
                assert_same(mnp.convolve(m(a), m(v), mode), numpy.convolve(a, v, mode), rtol=1e-10)
                assert_same(mnp.correlate(m(a), m(v), mode), numpy.correlate(a, v, mode), rtol=1e-10)
    # infinities must not meet the zero padding (0 * inf is NaN; numpy sums only the overlap)
    for n, k in [(5, 3), (60, 40), (40, 40), (200, 50)]:
        a, v = sample((n,), "float64", seed=3), sample((k,), "float64", seed=4)
        a[0], a[-1], v[-1] = numpy.inf, -numpy.inf, -numpy.inf
        a[n // 2] = numpy.nan
        for mode in ["full", "same", "valid"]:
            with numpy.errstate(invalid="ignore"):
                assert_same(mnp.convolve(m(a), m(v), mode), numpy.convolve(a, v, mode), rtol=1e-10)
                assert_same(mnp.correlate(m(a), m(v), mode), numpy.correlate(a, v, mode), rtol=1e-10)


def test_interp():
    xp = numpy.array([0.0, 1.0, 1.5, 4.0, 4.0, 10.0])
    fp = numpy.array([3.0, -1.0, 2.0, 8.0, 9.0, numpy.inf])
    x = numpy.array([-1.0, 0.0, 0.25, 1.0, 1.2, 3.0, 4.0, 5.0, 10.0, 11.0, numpy.nan, -0.0])
    assert_same(mnp.interp(m(x), m(xp), m(fp)), numpy.interp(x, xp, fp))
    assert_same(mnp.interp(m(x), m(xp), m(fp), left=-7, right=7.5), numpy.interp(x, xp, fp, left=-7, right=7.5))
    x2 = sample((3, 4), "float32", seed=22, low=-2, high=12)
    fp2 = numpy.arange(6, dtype="int32")
    assert_same(mnp.interp(m(x2), m(xp), m(fp2)), numpy.interp(x2, xp, fp2))
    assert_same(mnp.interp(2.5, m(xp), m(fp2)), numpy.interp(2.5, xp, fp2))
    assert_same(mnp.interp(m(x2), [1.0], [5.0]), numpy.interp(x2, [1.0], [5.0]))
    xs = numpy.array([-180, -170, -185, 185, -10, -5, 0, 365], "float64")
    xps = numpy.array([190, -190, 350, -350], "float64")
    fps = numpy.array([5, 10, 3, 4], "float64")
    assert_same(mnp.interp(m(xs), m(xps), m(fps), period=360), numpy.interp(xs, xps, fps, period=360), rtol=1e-14)
    same_error(lambda: numpy.interp(x, [], []), lambda: mnp.interp(m(x), [], []))
    same_error(lambda: numpy.interp(x, xp, fp[:3]), lambda: mnp.interp(m(x), m(xp), m(fp[:3])))
    same_error(lambda: numpy.interp(x, xp, fp, period=0), lambda: mnp.interp(m(x), m(xp), m(fp), period=0))


def test_interp_with_searchsorted(monkeypatch):
    # interp switches to mnn.numpy.searchsorted when the package has one; a stand-in built on
    # numpy's checks that path's NaN and boundary handling
    def fake_searchsorted(a, v, side="left", sorter=None):
        return mnp.asarray(numpy.searchsorted(numpy.asarray(a), numpy.asarray(v), side=side))

    monkeypatch.setattr(mnp, "searchsorted", fake_searchsorted, raising=False)
    xp = numpy.array([0.0, 1.0, 1.5, 4.0, 4.0, 10.0])
    fp = numpy.array([3.0, -1.0, 2.0, 8.0, 9.0, numpy.inf])
    x = numpy.array([-1.0, 0.0, 0.25, 1.0, 1.2, 3.0, 4.0, 5.0, 10.0, 11.0, numpy.nan, -0.0])
    assert_same(mnp.interp(m(x), m(xp), m(fp)), numpy.interp(x, xp, fp))
    assert_same(mnp.interp(m(x), m(xp), m(fp), left=-7, right=7.5), numpy.interp(x, xp, fp, left=-7, right=7.5))
    xs = numpy.array([-180, -170, -185, 185, -10, -5, 0, 365], "float64")
    assert_same(mnp.interp(m(xs), [190, -190, 350, -350], [5, 10, 3, 4], period=360),
                numpy.interp(xs, [190, -190, 350, -350], [5, 10, 3, 4], period=360), rtol=1e-14)


def test_cross():
    a3, b3 = sample((4, 3), "float64", seed=23), sample((4, 3), "float64", seed=24)
    assert_same(mnp.cross(m(a3), m(b3)), numpy.cross(a3, b3))
    assert_same(mnp.cross(m(a3[0]), m(b3)), numpy.cross(a3[0], b3))
    ai, bi = sample((3, 5), "int32", seed=25), sample((3, 5), "int32", seed=26)
    assert_same(mnp.cross(m(ai), m(bi), axisa=0, axisb=0), numpy.cross(ai, bi, axisa=0, axisb=0))
    assert_same(mnp.cross(m(ai), m(bi), axis=0), numpy.cross(ai, bi, axis=0))
    assert_same(mnp.cross(m(ai), m(bi), axisa=0, axisb=0, axisc=0), numpy.cross(ai, bi, axisa=0, axisb=0, axisc=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        a2 = sample((4, 2), "float32", seed=27)
        assert_same(mnp.cross(m(a2), m(b3.astype("float32"))), numpy.cross(a2, b3.astype("float32")))
        assert_same(mnp.cross(m(a2), m(a2[::-1])), numpy.cross(a2, a2[::-1]))
    same_error(lambda: numpy.cross(numpy.ones(4), numpy.ones(3)), lambda: mnp.cross(mnp.ones(4), mnp.ones(3)))


def test_gradient():
    f = sample((5, 6), "float64", seed=28)
    for eo in [1, 2]:
        for g, e in zip(mnp.gradient(m(f), edge_order=eo), numpy.gradient(f, edge_order=eo)):
            assert_same(g, e)
        assert_same(mnp.gradient(m(f), 0.5, axis=1, edge_order=eo), numpy.gradient(f, 0.5, axis=1, edge_order=eo))
        x = numpy.array([0.0, 0.5, 1.5, 1.75, 3.0])
        y = numpy.arange(6) * 2
        for g, e in zip(mnp.gradient(m(f), m(x), m(y), edge_order=eo), numpy.gradient(f, x, y, edge_order=eo)):
            assert_same(g, e, rtol=1e-14)
        assert_same(mnp.gradient(m(f), m(x), axis=0, edge_order=eo), numpy.gradient(f, x, axis=0, edge_order=eo),
                    rtol=1e-14)
    i = sample((7,), "int16", seed=29)
    assert_same(mnp.gradient(m(i)), numpy.gradient(i))
    f32 = sample((7,), "float32", seed=30)
    assert_same(mnp.gradient(m(f32), 2.0), numpy.gradient(f32, 2.0))
    assert_same(mnp.gradient(m(f32), m(numpy.arange(7.0) ** 2)), numpy.gradient(f32, numpy.arange(7.0) ** 2))
    same_error(lambda: numpy.gradient(numpy.ones(2), edge_order=2), lambda: mnp.gradient(mnp.ones(2), edge_order=2))
    same_error(lambda: numpy.gradient(f, 1, 2, 3), lambda: mnp.gradient(m(f), 1, 2, 3))
    same_error(lambda: numpy.gradient(f, axis=2), lambda: mnp.gradient(m(f), axis=2))
    same_error(lambda: numpy.gradient(f, edge_order=3), lambda: mnp.gradient(m(f), edge_order=3))


# ----------------------------------------------------------------------------------------------
# cumulative, closeness

@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "uint16", "float32", "float64"])
def test_cumulative(dtype):
    v = sample((6,), dtype, seed=31)
    a = sample((3, 4), dtype, seed=32)
    for fn in ["cumulative_sum", "cumulative_prod"]:
        mf, nf = getattr(mnp, fn), getattr(numpy, fn)
        for inc in [False, True]:
            assert_same(mf(m(v), include_initial=inc), nf(v, include_initial=inc), rtol=1e-6)
            for axis in [0, 1, -1]:
                assert_same(mf(m(a), axis=axis, include_initial=inc), nf(a, axis=axis, include_initial=inc),
                            rtol=1e-6)
            assert_same(mf(m(a), axis=1, dtype=mnp.float64), nf(a, axis=1, dtype=numpy.float64), rtol=1e-12)
        assert_same(mf(m(numpy.zeros(0, dtype)), include_initial=True), nf(numpy.zeros(0, dtype),
                                                                           include_initial=True))
        same_error(lambda: nf(a), lambda: mf(m(a)))
        same_error(lambda: nf(a, axis=2), lambda: mf(m(a), axis=2))


def test_isclose_allclose_array_equiv():
    a = numpy.array([1.0, numpy.nan, numpy.inf, -numpy.inf, 0.0, 1e-9, 1e10, -0.0])
    b = numpy.array([1.0 + 1e-6, numpy.nan, numpy.inf, numpy.inf, 1e-9, 0.0, 1.00001e10, 0.0])
    for en in [False, True]:
        assert_same(mnp.isclose(m(a), m(b), equal_nan=en), numpy.isclose(a, b, equal_nan=en))
        assert_same(mnp.isclose(m(a), m(b), rtol=0, atol=1e-8, equal_nan=en),
                    numpy.isclose(a, b, rtol=0, atol=1e-8, equal_nan=en))
        assert mnp.allclose(m(a), m(b), equal_nan=en) == numpy.allclose(a, b, equal_nan=en)
    i = numpy.array([1, 2, 3], "int8")
    assert_same(mnp.isclose(m(i), 2), numpy.isclose(i, 2))
    assert_same(mnp.isclose(m(i), m(i.astype("float32"))), numpy.isclose(i, i.astype("float32")))
    f32 = numpy.array([1.0, 2.0], "float32")
    assert_same(mnp.isclose(m(f32), 1.0000001), numpy.isclose(f32, 1.0000001))
    assert mnp.allclose(m(a[:1]), 1.0) == numpy.allclose(a[:1], 1.0)
    assert mnp.allclose(m(numpy.ones((2, 3))), m(numpy.ones(3)))
    x = numpy.arange(6).reshape(2, 3)
    assert mnp.array_equiv(m(x), m(x[0:1] * 0 + x)) == numpy.array_equiv(x, x)
    assert mnp.array_equiv(m(numpy.ones((2, 3))), m(numpy.ones(3))) is True
    assert mnp.array_equiv(m(x), m(x[:, :2])) is False
    assert mnp.array_equiv(m(x), m(x + 1)) is False
    assert mnp.array_equal(m(x), m(x)) is True and mnp.array_equal(m(x), m(x[:1])) is False


# ----------------------------------------------------------------------------------------------
# einsum and products

EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("...i,...i", [(2, 3), (3,)]),
    ("i...->...", [(3, 2, 2)]),
    ("ijk,kji->", [(2, 3, 4), (4, 3, 2)]),
    ("iij->j", [(3, 3, 2)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 4), (4, 5), (5, 2)]),
    ("abc,cd,b->ad", [(2, 3, 4), (4, 5), (3,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,kl->ijkl", [(2, 3), (1, 2)]),
    ("i,i", [(1,), (4,)]),
    ("Ab,bC->AC", [(2, 3), (3, 4)]),
    ("ijk", [(2, 3, 4)]),
    ("", [()]),
    (",i->i", [(), (3,)]),
]


@pytest.mark.parametrize("subscripts,shapes", EINSUM_CASES)
def test_einsum(subscripts, shapes):
    for dtype in ["float64", "int32"]:
        ops = [sample(s, dtype, seed=40 + k) for k, s in enumerate(shapes)]
        exp = numpy.einsum(subscripts, *ops)
        got = mnp.einsum(subscripts, *[m(o) for o in ops])
        assert_same(got, exp, rtol=1e-12 if dtype == "float64" else None)
        got = mnp.einsum(subscripts, *[m(o) for o in ops], optimize=True)
        assert_same(got, exp, rtol=1e-12 if dtype == "float64" else None)


def test_einsum_more():
    a, b = sample((3, 4), "float32", seed=50), sample((4, 5), "float64", seed=51)
    assert_same(mnp.einsum("ij,jk->ik", m(a), m(b)), numpy.einsum("ij,jk->ik", a, b), rtol=1e-6)
    assert_same(mnp.einsum("ij,jk->ik", m(non_contiguous(a)), m(b)), numpy.einsum("ij,jk->ik", non_contiguous(a), b),
                rtol=1e-6)
    assert_same(mnp.einsum(m(a), [0, 1], m(b), [1, 2], [0, 2]), numpy.einsum(a, [0, 1], b, [1, 2], [0, 2]), rtol=1e-6)
    assert_same(mnp.einsum(m(a), [Ellipsis, 1], [Ellipsis]), numpy.einsum(a, [Ellipsis, 1], [Ellipsis]), rtol=1e-6)
    assert_same(mnp.einsum("ij->i", m(a), dtype=mnp.float64), numpy.einsum("ij->i", a, dtype=numpy.float64),
                rtol=1e-12)
    out = mnp.zeros((3, 5))
    r = mnp.einsum("ij,jk->ik", m(a), m(b), out=out)
    assert r is out
    e = numpy.zeros((0, 3))
    assert_same(mnp.einsum("ij,jk->ik", m(e), m(numpy.ones((3, 2)))), numpy.einsum("ij,jk->ik", e, numpy.ones((3, 2))))
    bo = numpy.array([[True, False], [True, True]])
    assert_same(mnp.einsum("ij,jk->ik", m(bo), m(bo)), numpy.einsum("ij,jk->ik", bo, bo))
    path, report = mnp.einsum_path("ij,jk,kl->il", m(numpy.ones((2, 3))), m(numpy.ones((3, 4))),
                                   m(numpy.ones((4, 5))))
    assert path[0] == "einsum_path" and len(path) == 3 and isinstance(report, str)
    ops = [sample(s, "float64", seed=k) for k, s in enumerate([(2, 3), (3, 4), (4, 5)])]
    assert_same(mnp.einsum("ij,jk,kl->il", *map(m, ops), optimize=path), numpy.einsum("ij,jk,kl->il", *ops),
                rtol=1e-12)
    npath = numpy.einsum_path("ij,jk,kl->il", *ops, optimize="greedy")[0]
    assert_same(mnp.einsum("ij,jk,kl->il", *map(m, ops), optimize=npath), numpy.einsum("ij,jk,kl->il", *ops),
                rtol=1e-12)


def test_einsum_errors():
    a = numpy.ones((2, 3))
    for args in [("ij,jk->ik", a), ("ij->ik", a), ("ijk->", a), ("ij->ii", a), ("i->i", a), ("ij,jk->ik", a, a),
                 ("i.j", a), ("ij->i-", a), ("i2", a), ("...ij->ij", a[None])]:
        same_error(lambda: numpy.einsum(*args), lambda: mnp.einsum(args[0], *[m(x) for x in args[1:]]))
    assert_same(mnp.einsum("...ij->...ij", m(a[None])), numpy.einsum("...ij->...ij", a[None]))


def test_tensordot_kron_matvec_vecmat():
    a, b = sample((2, 3, 4), "float64", seed=60), sample((3, 4, 5), "float64", seed=61)
    for axes in [2, ([1, 2], [0, 1]), ([2], [1]), 0, ((1,), (0,))]:
        assert_same(mnp.tensordot(m(a), m(b), axes), numpy.tensordot(a, b, axes), rtol=1e-12)
    i, j = sample((3, 4), "int32", seed=62), sample((4, 2), "int32", seed=63)
    assert_same(mnp.tensordot(m(i), m(j), 1), numpy.tensordot(i, j, 1))
    same_error(lambda: numpy.tensordot(a, b, ([0], [0])), lambda: mnp.tensordot(m(a), m(b), ([0], [0])))
    for x, y in [((2, 3), (3, 2)), ((3,), (2, 2)), ((), (2,)), ((2, 1, 2), (3, 2)), ((2,), (0, 3))]:
        for dt in ["int8", "float32", "bool"]:
            p, q = sample(x, dt, seed=64), sample(y, dt, seed=65)
            assert_same(mnp.kron(m(p), m(q)), numpy.kron(p, q))
    A, v = sample((2, 3, 4), "float64", seed=66), sample((4,), "float64", seed=67)
    assert_same(mnp.matvec(m(A), m(v)), numpy.matvec(A, v), rtol=1e-12)
    w = sample((2, 3), "float64", seed=68)
    assert_same(mnp.vecmat(m(w), m(A)), numpy.vecmat(w, A), rtol=1e-12)
    same_error(lambda: numpy.matvec(A, numpy.ones(3)), lambda: mnp.matvec(m(A), mnp.ones(3)))
    same_error(lambda: numpy.vecmat(numpy.ones(4), A), lambda: mnp.vecmat(mnp.ones(4), m(A)))
    assert_same(mnp.outer(m(v), m(w[0])), numpy.outer(v, w[0]))
    assert_same(mnp.inner(m(A), m(v)), numpy.inner(A, v), rtol=1e-12)


def test_einsum_gradient_against_torch():
    torch = pytest.importorskip("torch")
    x, y = sample((2, 3, 4), "float64", seed=70), sample((2, 4, 5), "float64", seed=71)
    xm, ym = mnp.array(x, requires_grad=True), mnp.array(y, requires_grad=True)
    out = mnp.einsum("bij,bjk->bik", xm, ym)
    w = sample(tuple(out.shape), "float64", seed=72)
    out.backward(mnp.array(w))
    xt, yt = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
    torch.einsum("bij,bjk->bik", xt, yt).backward(torch.tensor(w))
    numpy.testing.assert_allclose(numpy.asarray(xm.grad), xt.grad.numpy(), rtol=1e-12)
    numpy.testing.assert_allclose(numpy.asarray(ym.grad), yt.grad.numpy(), rtol=1e-12)


def test_fmod_gradient_against_torch():
    torch = pytest.importorskip("torch")
    x, y = sample((6,), "float64", seed=80), sample((6,), "float64", seed=81, low=1, high=3)
    xm, ym = mnp.array(x, requires_grad=True), mnp.array(y, requires_grad=True)
    (mnp.fmod(xm, ym) * mnp.array(x)).sum().backward()
    xt, yt = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
    (torch.fmod(xt, yt) * torch.tensor(x)).sum().backward()
    numpy.testing.assert_allclose(numpy.asarray(xm.grad), xt.grad.numpy(), rtol=1e-12)
    numpy.testing.assert_allclose(numpy.asarray(ym.grad), yt.grad.numpy(), rtol=1e-12)


def _views():
    a = sample((6, 8), "float64", seed=90)
    a[0, 0], a[1, 1], a[2, 2] = numpy.nan, -numpy.inf, -0.0
    return a[::-2, 1::3], m(a)[::-2, 1::3]  # the same negative-stride view in both libraries


@pytest.mark.parametrize("name,fn,rtol", [
    ("einsum", lambda x, lib: lib.einsum("ij,kj->ik", x, x), 1e-12),
    ("einsum sum", lambda x, lib: lib.einsum("ij->j", x), 1e-12),
    ("kron", lambda x, lib: lib.kron(x, x[:2]), None),
    ("tensordot", lambda x, lib: lib.tensordot(x, x.T, 1), 1e-12),
    ("cross", lambda x, lib: lib.cross(x[:, :3], x[::-1, :3]), None),
    ("gradient", lambda x, lib: lib.gradient(x, axis=0), None),
    ("frexp", lambda x, lib: lib.frexp(x)[0], None),
    ("ldexp", lambda x, lib: lib.ldexp(x, 3), None),
    ("spacing", lambda x, lib: lib.spacing(x), None),
    ("nextafter", lambda x, lib: lib.nextafter(x, x[::-1]), None),
    ("modf", lambda x, lib: lib.modf(x)[0], None),
    ("nan_to_num", lambda x, lib: lib.nan_to_num(x), None),
    ("fmod", lambda x, lib: lib.fmod(x, x[::-1]), None),
    ("convolve", lambda x, lib: lib.convolve(x[1], x[2]), 1e-12),
    ("cumulative_sum", lambda x, lib: lib.cumulative_sum(x, axis=1, include_initial=True), None),
    ("isclose", lambda x, lib: lib.isclose(x, x + 1e-9, equal_nan=True), None),
    ("sinc", lambda x, lib: lib.sinc(x), 1e-14),
    ("i0", lambda x, lib: lib.i0(x), 1e-14),
])
def test_on_strided_views_with_nan_inf(name, fn, rtol):
    va, vm = _views()
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(fn(vm, mnp), fn(va, numpy), rtol=rtol)
