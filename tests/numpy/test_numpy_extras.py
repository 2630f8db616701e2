"""Index tricks, functional helpers, polynomials, ranges, windows and the other small numpy
functions scripts use (src/mnn/numpy/_index_tricks.py, _functional.py, _polynomial.py,
_numeric_extras.py, _ndarray_extras.py), each against numpy."""
import math
import warnings

import numpy
import pytest

import mnn.numpy as mnp


def same(got, ref, tol=1e-12):
    g, r = numpy.asarray(got), numpy.asarray(ref)
    assert g.shape == r.shape, (g.shape, r.shape)
    assert g.dtype == r.dtype, (g.dtype, r.dtype)
    if r.dtype.kind in "fc":
        numpy.testing.assert_allclose(g, r, rtol=tol, atol=tol, equal_nan=True)
    else:
        numpy.testing.assert_array_equal(g, r)


# ------------------------------------------------------------------ index tricks

@pytest.mark.parametrize("expr", ["mgrid[0:3, 0:4]", "mgrid[-1:1:5j, 0:2:0.5]", "mgrid[0:5]", "mgrid[1:2:3j]",
                                  "r_[1:4, 0, 8, X([5, 6])]", "r_[X([1.5, 2]), 3]", "r_[-1:1:6j, [0] * 3, 5, 6]",
                                  "c_[X([1, 2, 3]), X([4, 5, 6])]", "c_[ONES((2, 2)), ZEROS((2, 1))]",
                                  "r_['0,2', [1, 2], [3, 4]]", "r_['1,2,0', [1, 2], [3, 4]]",
                                  "r_[X([1, 2], dtype=INT8), 3]", "r_[X([[1, 2]]), X([[3, 4]])]"])
def test_grids_and_concatenators(expr):
    def ev(np_):
        return eval("np_." + expr, {"np_": np_, "X": np_.array, "ONES": np_.ones, "ZEROS": np_.zeros,
                                    "INT8": np_.int8})
    same(ev(mnp), ev(numpy))


def test_ogrid_s_index_exp_ndindex_ndenumerate():
    for g, r in zip(mnp.ogrid[0:3, 0:1:4j], numpy.ogrid[0:3, 0:1:4j]):
        same(g, r)
    assert mnp.s_[1:2, ::3] == numpy.s_[1:2, ::3] and mnp.index_exp[2] == numpy.index_exp[2]
    assert mnp.s_[4] == numpy.s_[4]
    assert list(mnp.ndindex(2, 3)) == list(numpy.ndindex(2, 3)) == list(mnp.ndindex((2, 3)))
    assert list(mnp.ndindex()) == [()]
    x = numpy.arange(6).reshape(2, 3)
    assert list(mnp.ndenumerate(mnp.asarray(x))) == [(i, v.item()) for i, v in numpy.ndenumerate(x)]


@pytest.mark.parametrize("shape,val,wrap", [((4, 3), [1, 2], False), ((7, 3), 5, True), ((7, 3), 5, False),
                                            ((3, 3, 3), 2.5, False), ((2, 5), [9], False)])
def test_fill_diagonal(shape, val, wrap):
    a, b = mnp.zeros(shape), numpy.zeros(shape)
    assert mnp.fill_diagonal(a, val, wrap=wrap) is None
    numpy.fill_diagonal(b, val, wrap=wrap)
    same(a, b)
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.fill_diagonal\]"):
        mnp.fill_diagonal(mnp.zeros((2, 3, 3)), 1)


def test_mask_indices():
    for g, r in zip(mnp.mask_indices(4, mnp.triu, 1), numpy.mask_indices(4, numpy.triu, 1)):
        same(g, r)


def test_flat_and_ndarray_extras():
    x = numpy.arange(12).reshape(3, 4)
    a = mnp.asarray(x.copy())
    assert list(a.flat) == list(x.flat) and len(a.flat) == 12
    assert int(a.flat[5]) == 5
    same(a.flat[[1, 7]], x.flat[[1, 7]])
    a.flat[[0, 5]] = -1
    x.flat[[0, 5]] = -1
    same(a, x)
    # a strided view: writes land in the base array's memory
    base, nbase = mnp.arange(12.0).reshape(3, 4), numpy.arange(12.0).reshape(3, 4)
    v, nv = base[:, ::2], nbase[:, ::2]
    v.flat[1] = 99
    nv.flat[1] = 99
    same(base, nbase)
    v.flat = 7
    nv.flat = 7
    same(base, nbase)
    c, n = mnp.zeros((2, 3)), numpy.zeros((2, 3))
    c.flat[:] = [1, 2]
    n.flat[:] = [1, 2]
    same(c, n)
    same(a.flat.copy(), x.flat.copy())
    assert 5 not in a and 6 in a and (-1 in a) == (-1 in x)
    for q in (5, -7):
        for g, r in zip(divmod(a, q), divmod(x, q)):
            same(g, r)
    for g, r in zip(divmod(7, mnp.asarray([2, 3])), divmod(7, numpy.array([2, 3]))):
        same(g, r)
    same(a.repeat(2, axis=0), x.repeat(2, axis=0))
    same(a.repeat(3), x.repeat(3))
    same(a.trace(), x.trace())
    same(a[:, ::2].trace(offset=1), x[:, ::2].trace(offset=1))


# ------------------------------------------------------------------ functional


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_apply_along_axis(axis):
    x = numpy.arange(24.0).reshape(2, 3, 4) ** 1.5
    for f_m, f_n in ((lambda v: v.max() - v.min(), lambda v: v.max() - v.min()),
                     (lambda v: mnp.sort(v)[::-1][:2], lambda v: numpy.sort(v)[::-1][:2]),
                     (lambda v: mnp.outer(v, v), lambda v: numpy.outer(v, v))):
        same(mnp.apply_along_axis(f_m, axis, mnp.asarray(x)), numpy.apply_along_axis(f_n, axis, x))


def test_apply_over_axes_vectorize_piecewise_fromfunction():
    x = numpy.arange(24.0).reshape(2, 3, 4)
    same(mnp.apply_over_axes(mnp.sum, mnp.asarray(x), [0, 2]), numpy.apply_over_axes(numpy.sum, x, [0, 2]))

    def f(a, b):
        return a - b if a > b else a + b
    same(mnp.vectorize(f)(mnp.asarray([1, 4, 3]), 2), numpy.vectorize(f)(numpy.array([1, 4, 3]), 2))
    same(mnp.vectorize(f, otypes=[float])(mnp.asarray([[1, 4, 3]]), mnp.asarray([[2], [5]])),
         numpy.vectorize(f, otypes=[float])(numpy.array([[1, 4, 3]]), numpy.array([[2], [5]])))
    same(mnp.vectorize(lambda a: a / 2)(mnp.asarray([1, 4, 3])), numpy.vectorize(lambda a: a / 2)([1, 4, 3]))
    two = mnp.vectorize(lambda a: (a, a * 2))(mnp.asarray([1, 2]))
    assert isinstance(two, tuple) and len(two) == 2
    same(two[1], numpy.array([2, 4]))
    with pytest.raises(ValueError, match="otypes"):
        mnp.vectorize(f)(mnp.asarray([]), 1)
    same(mnp.vectorize(f, otypes=[float])(mnp.asarray([]), 1), numpy.vectorize(f, otypes=[float])([], 1))

    v = numpy.linspace(-2, 2, 9)
    m = mnp.asarray(v)
    same(mnp.piecewise(m, [m < 0, m >= 0], [lambda t: -t, lambda t: t ** 2]),
         numpy.piecewise(v, [v < 0, v >= 0], [lambda t: -t, lambda t: t ** 2]))
    same(mnp.piecewise(m, [m < -1, m > 1], [-1, 1, 0]), numpy.piecewise(v, [v < -1, v > 1], [-1, 1, 0]))
    same(mnp.piecewise(m, m < 0, [0, lambda t: t]), numpy.piecewise(v, v < 0, [0, lambda t: t]))
    same(mnp.fromfunction(lambda i, j: i * 10 + j, (3, 4)), numpy.fromfunction(lambda i, j: i * 10 + j, (3, 4)))
    same(mnp.fromfunction(lambda i, j: i == j, (3, 3), dtype=int),
         numpy.fromfunction(lambda i, j: i == j, (3, 3), dtype=int))


# ------------------------------------------------------------------ polynomials


def test_polyfit_polyval_vander():
    x = numpy.linspace(0, 3, 20)
    y = 2 * x ** 3 - x + 1 + 0.01 * numpy.sin(7 * x)
    same(mnp.polyfit(mnp.asarray(x), mnp.asarray(y), 3), numpy.polyfit(x, y, 3), tol=1e-9)
    Y = numpy.stack([y, 2 * y], 1)
    same(mnp.polyfit(mnp.asarray(x), mnp.asarray(Y), 2, w=mnp.asarray(x + 1)), numpy.polyfit(x, Y, 2, w=x + 1),
         tol=1e-9)
    got = mnp.polyfit(mnp.asarray(x), mnp.asarray(y), 1, full=True)
    ref = numpy.polyfit(x, y, 1, full=True)
    for k in (0, 1, 3):  # coefficients, residuals, singular values (rank's dtype is linalg.lstsq's)
        same(mnp.asarray(got[k]), numpy.asarray(ref[k]), tol=1e-8)
    assert int(got[2]) == int(ref[2]) and got[4] == ref[4]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(mnp.polyfit(mnp.asarray([0.0, 1.0]), mnp.asarray([1.0, 2.0]), 1), numpy.polyfit([0, 1.0], [1, 2.0], 1))
    with pytest.raises(TypeError, match=r"^\[mnn.numpy.polyfit\]"):
        mnp.polyfit(mnp.asarray([1.0, 2.0]), mnp.asarray([1.0]), 1)
    same(mnp.polyval(mnp.asarray([1, 2, 3]), mnp.asarray([[0, 1], [2, 3]])), numpy.polyval([1, 2, 3], [[0, 1], [2, 3]]))
    same(mnp.polyval([1.5, 2, 3], mnp.asarray(x)), numpy.polyval([1.5, 2, 3], x))
    same(mnp.vander(mnp.asarray([1, 2, 3, 5])), numpy.vander([1, 2, 3, 5]))
    same(mnp.vander(mnp.asarray([1.0, 2, 3]), 4, increasing=True), numpy.vander([1.0, 2, 3], 4, increasing=True))
    same(mnp.vander(mnp.asarray([1, 2], dtype=mnp.uint8), 3), numpy.vander(numpy.array([1, 2], numpy.uint8), 3))


def test_polynomial_arithmetic_and_poly1d():
    for name in ("polyadd", "polysub", "polymul"):
        same(getattr(mnp, name)([1, 2], [3, 4, 5]), getattr(numpy, name)([1, 2], [3, 4, 5]))
    for u, v in (([3.0, 5, 2, 1], [2, 1]), ([1.0, -3, 2], [1, -1]), ([1.0], [2.0, 1.0])):
        for g, r in zip(mnp.polydiv(u, v), numpy.polydiv(u, v)):
            same(g, r)
    same(mnp.polyder([1, 2, 3, 4], 2), numpy.polyder([1, 2, 3, 4], 2))
    same(mnp.polyint([1, 2, 3], 2, k=[1, 2]), numpy.polyint([1, 2, 3], 2, k=[1, 2]))
    same(mnp.poly([1, 2, 3]), numpy.poly([1, 2, 3]))
    p, q = mnp.poly1d([1, 2, 3]), numpy.poly1d([1, 2, 3])
    same(p(mnp.asarray([1.0, 2])), q(numpy.array([1.0, 2])))
    same((p * p + p - 1).coeffs, (q * q + q - 1).coeffs)
    same((2 * p).coeffs, (2 * q).coeffs)
    same((p ** 3).coeffs, (q ** 3).coeffs)
    same(p.deriv().coeffs, q.deriv().coeffs)
    same(p.integ(k=2).coeffs, q.integ(k=2).coeffs)
    assert p.order == q.order and len(p) == len(q) and int(p[0]) == q[0] and int(p[7]) == 0
    assert p == mnp.poly1d([0, 1, 2, 3]) and p != mnp.poly1d([1, 2])
    same(mnp.poly1d([0, 0]).coeffs, numpy.poly1d([0, 0]).coeffs)


# ------------------------------------------------------------------ ranges, calculus, windows


@pytest.mark.parametrize("call", ["logspace(0, 3, 7)", "logspace(0, 3, 4, base=2, dtype=np_.float32, endpoint=False)",
                                  "geomspace(1, 1000, 4)", "geomspace(-1, -1000, 5, endpoint=False)",
                                  "geomspace(2, 50, 6, dtype=int)", "geomspace(1, 256, 9)"])
def test_log_geom_ranges(call):
    same(eval("np_." + call, {"np_": mnp}), eval("np_." + call, {"np_": numpy}))


def test_geomspace_zero_raises():
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.geomspace\]"):
        mnp.geomspace(0, 10, 3)


def test_trapezoid_unwrap():
    x = numpy.linspace(0, 3, 11) ** 2
    y = numpy.sin(numpy.linspace(0, 3, 11))
    same(mnp.trapezoid(mnp.asarray(y)), numpy.trapezoid(y))
    same(mnp.trapezoid(mnp.asarray(y), mnp.asarray(x)), numpy.trapezoid(y, x))
    Y = numpy.random.default_rng(0).random((3, 5))
    same(mnp.trapezoid(mnp.asarray(Y), dx=0.5, axis=0), numpy.trapezoid(Y, dx=0.5, axis=0))
    ph = numpy.cumsum(numpy.random.default_rng(0).normal(0, 2, 40)) % (2 * math.pi) - math.pi
    same(mnp.unwrap(mnp.asarray(ph)), numpy.unwrap(ph))
    same(mnp.unwrap(mnp.asarray([0, 1, 2, 5, 6, 1, 2]), period=4), numpy.unwrap([0, 1, 2, 5, 6, 1, 2], period=4))
    P = numpy.stack([ph, ph * 0.5])
    same(mnp.unwrap(mnp.asarray(P), axis=1, discont=4), numpy.unwrap(P, axis=1, discont=4))


@pytest.mark.parametrize("M", [0, 1, 2, 7, 8])
def test_windows(M):
    for name in ("hanning", "hamming", "blackman", "bartlett"):
        same(getattr(mnp, name)(M), getattr(numpy, name)(M))
    same(mnp.kaiser(M, 3.5), numpy.kaiser(M, 3.5), tol=1e-10)


# ------------------------------------------------------------------ elementwise and plumbing


def test_elementwise_extras():
    v = numpy.array([numpy.inf, -numpy.inf, 0, numpy.nan, -0.0, 3])
    same(mnp.isposinf(mnp.asarray(v)), numpy.isposinf(v))
    same(mnp.isneginf(mnp.asarray(v)), numpy.isneginf(v))
    with pytest.raises(TypeError):
        mnp.isposinf(mnp.asarray([1j]))
    same(mnp.fix(mnp.asarray([-1.5, 2.5, -0.2])), numpy.fix([-1.5, 2.5, -0.2]))
    same(mnp.fix(mnp.asarray([1, -2])), numpy.fix(numpy.array([1, -2])))
    for dt in ("int64", "int8", "uint8", "uint64", "int32", "bool"):
        info = numpy.iinfo(dt) if dt != "bool" else None
        vals = [0, 1] if info is None else [info.min, info.max, 0, 7, -1 if info.min < 0 else 200 % (info.max + 1)]
        b = numpy.array(vals, dtype=dt)
        same(mnp.bitwise_count(mnp.asarray(b)), numpy.bitwise_count(b))
    with pytest.raises(TypeError, match=r"^\[mnn.numpy.bitwise_count\]"):
        mnp.bitwise_count(mnp.asarray([1.0]))


def test_plumbing():
    a = numpy.zeros((2, 3, 4, 5))
    for axis, start in ((3, 1), (1, 3), (2, 0), (-1, 0), (0, 4), (1, 1)):
        same(mnp.rollaxis(mnp.asarray(a), axis, start), numpy.rollaxis(a, axis, start))
    d, nd = mnp.zeros(4), numpy.zeros(4)
    mask = [True, False, True, False]
    mnp.copyto(d, mnp.asarray([1.0, 2, 3, 4]), where=mnp.asarray(mask))
    numpy.copyto(nd, numpy.array([1.0, 2, 3, 4]), where=mask)
    same(d, nd)
    mnp.copyto(d, 5)
    same(d, numpy.full(4, 5.0))
    with pytest.raises(TypeError, match=r"^\[mnn.numpy.copyto\]"):
        mnp.copyto(mnp.zeros(2, dtype=mnp.int32), mnp.asarray([1.5, 2]))
    pairs = [([1], [1.0]), ([1.0], numpy.array([1], numpy.float32)), (numpy.array([1j], numpy.complex64),),
             (numpy.array([1], numpy.float16),), (numpy.array([1], numpy.int8), numpy.array([1j], numpy.complex64))]
    for arrs in pairs:
        assert mnp.common_type(*[mnp.asarray(numpy.asarray(x)) for x in arrs]).__name__ == \
            numpy.common_type(*[numpy.asarray(x) for x in arrs]).__name__
    same(mnp.fromiter((i * i for i in range(5)), dtype=float), numpy.fromiter((i * i for i in range(5)), dtype=float))
    same(mnp.fromiter(iter(range(10)), dtype=mnp.int16, count=3), numpy.fromiter(iter(range(10)), numpy.int16, 3))
    assert mnp.iterable([1]) and not mnp.iterable(3)
    same(mnp.asanyarray([1, 2]), numpy.asanyarray([1, 2]))
    same(mnp.asfortranarray([[1, 2]]), numpy.asfortranarray([[1, 2]]))
    same(mnp.require([1, 2], dtype=float, requirements="C"), numpy.require([1, 2], float, "C"))
    assert not mnp.isfortran(mnp.zeros((2, 2)))
    x = numpy.array([1.123456, 2])
    with mnp.printoptions(), numpy.printoptions():
        assert mnp.array_repr(mnp.asarray(x), precision=2) == numpy.array_repr(x, precision=2)
        assert mnp.array_str(mnp.asarray(x)) == numpy.array_str(x)
    assert mnp.typecodes == numpy.typecodes and mnp.little_endian == numpy.little_endian


# ------------------------------------------------------------------ lib.stride_tricks, emath, exceptions


def test_sliding_window_view_and_as_strided():
    from numpy.lib.stride_tricks import as_strided as n_as
    from numpy.lib.stride_tricks import sliding_window_view as n_sw

    from mnn.numpy.lib.stride_tricks import as_strided as m_as
    from mnn.numpy.lib.stride_tricks import sliding_window_view as m_sw
    x = numpy.arange(30.0).reshape(5, 6)
    same(m_sw(mnp.asarray(x), (3, 3)), n_sw(x, (3, 3)))
    same(m_sw(mnp.asarray(x), 3, axis=1), n_sw(x, 3, axis=1))
    same(m_sw(mnp.asarray(x), (2, 2), axis=(1, 0)), n_sw(x, (2, 2), axis=(1, 0)))
    same(m_sw(mnp.asarray(x[:, ::2]), (2,), axis=0), n_sw(x[:, ::2], (2,), axis=0))
    same(mnp.lib.stride_tricks.sliding_window_view(mnp.arange(5), 5), n_sw(numpy.arange(5), 5))
    w = m_sw(mnp.asarray(x), (3, 3))
    with pytest.raises(ValueError, match="read-only"):
        w[0, 0, 0, 0] = 1
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.lib.stride_tricks.sliding_window_view\]"):
        m_sw(mnp.asarray(x), (7, 1))
    y = numpy.arange(10, dtype=numpy.int32)
    same(m_as(mnp.asarray(y), shape=(4, 3), strides=(8, 4)), n_as(y, shape=(4, 3), strides=(8, 4)))
    same(m_as(mnp.asarray(y), shape=(3, 3), strides=(0, 4)), n_as(y, shape=(3, 3), strides=(0, 4)))
    with pytest.raises(ValueError, match="outside"):
        m_as(mnp.asarray(y), shape=(20,), strides=(4,))


@pytest.mark.parametrize("name", ["sqrt", "log", "log10", "log2", "arccos", "arcsin", "arctanh"])
def test_emath(name):
    with numpy.errstate(all="ignore"):
        for x in ([-1.0, 4.0], [0.25, 0.5], numpy.array([-4, 9], numpy.int8), numpy.array([-2.0, 0.5], numpy.float32)):
            x = numpy.asarray(x)
            same(getattr(mnp.emath, name)(mnp.asarray(x)), getattr(numpy.emath, name)(x), tol=1e-6)
    same(mnp.emath.power(mnp.asarray([-8.0, 4]), 1 / 3), numpy.emath.power([-8.0, 4], 1 / 3))
    same(mnp.emath.logn(2, mnp.asarray([-4.0, 8])), numpy.emath.logn(2, [-4.0, 8]))


def test_exceptions_namespace():
    assert issubclass(mnp.exceptions.AxisError, (ValueError, IndexError))
    with pytest.raises(mnp.exceptions.AxisError):
        mnp.sum(mnp.ones(3), axis=2)
    assert issubclass(mnp.exceptions.RankWarning, Warning) and issubclass(mnp.exceptions.ComplexWarning, Warning)


# ------------------------------------------------------------------ bits, number spellings, scalar helpers


@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits_unpackbits(bitorder):
    rng = numpy.random.default_rng(3)
    for shape, axis in (((19,), None), ((3, 11), 1), ((10, 2), 0), ((2, 3, 4), -1), ((0,), None)):
        x = rng.integers(0, 3, size=shape).astype(numpy.uint8)
        same(mnp.packbits(mnp.asarray(x), axis=axis, bitorder=bitorder),
             numpy.packbits(x, axis=axis, bitorder=bitorder))
        same(mnp.packbits(mnp.asarray(x > 0), axis=axis, bitorder=bitorder),
             numpy.packbits(x > 0, axis=axis, bitorder=bitorder))
        for count in (None, 3, -5, 30):
            if x.size == 0 and count:  # numpy fills those bits from uninitialised memory / raises
                continue
            same(mnp.unpackbits(mnp.asarray(x), axis=axis, count=count, bitorder=bitorder),
                 numpy.unpackbits(x, axis=axis, count=count, bitorder=bitorder))
    with pytest.raises(TypeError, match=r"^\[mnn.numpy.unpackbits\]"):
        mnp.unpackbits(mnp.asarray([1, 2]))
    with pytest.raises(TypeError, match=r"^\[mnn.numpy.packbits\]"):
        mnp.packbits(mnp.asarray([1.0]))


def test_binary_and_base_repr():
    for num, width in ((10, None), (10, 8), (0, None), (0, 4), (-5, None), (-5, 8), (-128, 8), (-1, 1), (5, 3)):
        assert mnp.binary_repr(num, width=width) == numpy.binary_repr(num, width=width), (num, width)
    for num, width in ((255, 3), (-129, 8)):
        with pytest.raises(ValueError):
            numpy.binary_repr(num, width=width)
        with pytest.raises(ValueError, match=r"^\[mnn.numpy.binary_repr\]"):
            mnp.binary_repr(num, width=width)
    for num, base, pad in ((255, 16, 0), (-10, 3, 2), (0, 2, 0), (0, 5, 3), (35, 36, 0), (7, 2, 1)):
        assert mnp.base_repr(num, base, pad) == numpy.base_repr(num, base, pad)
    with pytest.raises(ValueError):
        mnp.base_repr(3, 37)


def test_scalar_helpers():
    for v in (0, 255, 256, -1, -129, 2 ** 40, -2 ** 40, 3.5, 1e300, 70000.0, True, 1 + 2j, 1e200j):
        assert mnp.min_scalar_type(v) == numpy.min_scalar_type(v), v
    assert mnp.min_scalar_type(mnp.arange(3)) == numpy.min_scalar_type(numpy.arange(3))
    same(mnp.asarray_chkfinite([1.0, 2.0]), numpy.asarray_chkfinite([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.asarray_chkfinite\]"):
        mnp.asarray_chkfinite([1.0, float("nan")])
    b, nb = mnp.broadcast(mnp.ones((2, 1)), mnp.arange(3)), numpy.broadcast(numpy.ones((2, 1)), numpy.arange(3))
    assert (b.shape, b.nd, b.ndim, b.size, b.numiter) == (nb.shape, nb.nd, nb.ndim, nb.size, nb.numiter)
    assert [tuple(float(v) for v in t) for t in b] == [tuple(float(v) for v in t) for t in nb]
    assert bool(mnp.True_) is True and bool(mnp.False_) is False
    assert float in mnp.ScalarType and mnp.float32 in mnp.ScalarType


def test_setflags_write():
    a = mnp.arange(3)
    a.setflags(write=False)
    assert not a.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1
    b = mnp.arange(3)
    b.setflags(write=True)
    b[0] = 5
    assert b.tolist() == [5, 1, 2]


# ------------------------------------------------------------------ nditer


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[:, ::2], lambda a: a[::-1]])
@pytest.mark.parametrize("order", ["K", "C", "F"])
def test_nditer_orders(view, order):
    x = numpy.arange(12.0).reshape(3, 4)
    ref = [float(t) for t in numpy.nditer(view(x), order=order)]
    got = [float(t) for t in mnp.nditer(view(mnp.asarray(x)), order=order)]
    assert got == ref


def test_nditer_readwrite_allocate_indices_external_loop():
    a = numpy.arange(6).reshape(2, 3)
    m = mnp.asarray(a.copy())
    with numpy.nditer(a, op_flags=["readwrite"]) as it:
        for t in it:
            t[...] = 2 * t + 1
    with mnp.nditer(m, op_flags=["readwrite"]) as it:
        for t in it:
            t[...] = 2 * t + 1
    same(m, a)

    def outer(np_, x, y):
        it = np_.nditer([x, y, None], op_flags=[["readonly"], ["readonly"], ["writeonly", "allocate"]])
        with it:
            for p, q, r in it:
                r[...] = p * q
            return it.operands[2]
    same(outer(mnp, mnp.arange(3)[:, None], mnp.arange(4.0)), outer(numpy, numpy.arange(3)[:, None], numpy.arange(4.0)))

    x = numpy.arange(6.0).reshape(2, 3)
    for flag in ("multi_index", "c_index", "f_index"):
        seen = []
        for np_, arr in ((numpy, x), (mnp, mnp.asarray(x))):
            it = np_.nditer(arr, flags=[flag])
            rows = []
            while not it.finished:
                rows.append((it.multi_index if flag == "multi_index" else it.index, float(it[0])))
                it.iternext()
            seen.append(rows)
        assert seen[0] == seen[1], flag
    for v in (lambda t: t, lambda t: t.T):
        ref = [c.tolist() for c in numpy.nditer(v(x), flags=["external_loop"], order="C")]
        got = [numpy.asarray(c).tolist() for c in mnp.nditer(v(mnp.asarray(x)), flags=["external_loop"], order="C")]
        assert got == ref
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.nditer\]"):
        mnp.nditer([mnp.ones(3), mnp.ones((2, 3))], op_flags=[["readwrite"], ["readonly"]])
    with pytest.raises(ValueError, match="multi-index"):
        mnp.nditer(mnp.ones(3)).multi_index


def test_fromstring_and_type_helpers():
    for s, kw in (("1 2  3", dict(sep=" ")), ("1,2,3", dict(dtype=int, sep=",")), ("1, 2, 3", dict(sep=",")),
                  ("1 2 3 4", dict(sep=" ", count=2)), ("1\n2\n3", dict(sep="\n")), ("", dict(sep=" ")),
                  ("1.5;2e3", dict(sep=";", dtype=numpy.float32)), ("010 7", dict(sep=" ", dtype=numpy.int16))):
        same(mnp.fromstring(s, **kw), numpy.fromstring(s, **kw))
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.fromstring\]"):
        mnp.fromstring("1,2,x", sep=",")
    with pytest.raises(ValueError, match="frombuffer"):
        mnp.fromstring(b"ab", dtype=mnp.uint8)
    for c in "?bBhHiIlLqQfdFD":
        assert mnp.typename(c) == numpy.typename(c)
    for chars in (["d", "f", "S"], "idF", "ff", "i", "fdF"):
        assert mnp.mintypecode(chars) == numpy.mintypecode(chars), chars
    old = mnp.setbufsize(16384)
    assert mnp.getbufsize() == 16384 and mnp.setbufsize(old) == 16384


def test_bad_input_messages():
    cases = [(TypeError, "mgrid", lambda: mnp.mgrid["a"]), (ValueError, "r_", lambda: mnp.r_["x", 1]),
             (ValueError, "reshape", lambda: mnp.ones(6).reshape((4, 2), order="F")),
             (mnp.AxisError, "trapezoid", lambda: mnp.trapezoid(mnp.ones((2, 2)), axis=4)),
             (ValueError, "fill_diagonal", lambda: mnp.fill_diagonal(mnp.zeros(3), 1)),
             (mnp.AxisError, "apply_along_axis", lambda: mnp.apply_along_axis(sum, 3, mnp.ones((2, 2)))),
             (ValueError, "geomspace", lambda: mnp.geomspace(0, 1)),
             (mnp.AxisError, "rollaxis", lambda: mnp.rollaxis(mnp.ones((2, 2)), 5)),
             (ValueError, "nditer", lambda: mnp.nditer([mnp.ones(2), None])),
             (TypeError, "add.accumulate", lambda: mnp.add.accumulate(mnp.asarray(1.0))),
             (ValueError, "astype", lambda: mnp.astype(mnp.ones(2), mnp.int8, device="gpu"))]
    for exc, name, fn in cases:
        with pytest.raises(exc, match=r"^\[mnn.numpy." + name.replace(".", r"\.") + r"\]"):
            fn()


def test_logspace_array_arguments():
    for args, kw in (((0, 2, 3), dict(base=numpy.array([2.0, 10.0])[:, None], axis=1)),
                     ((numpy.array([0.0, 1.0]), 2, 4), {}), ((0, numpy.array([1.0, 3.0]), 3), dict(axis=-1)),
                     ((0, 2, 3), dict(base=numpy.array([2.0, 3.0]))), ((1, 2, 5), dict(base=2, dtype=numpy.float32))):
        margs = tuple(mnp.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args)
        mkw = {k: (mnp.asarray(v) if isinstance(v, numpy.ndarray) else v) for k, v in kw.items()}
        same(mnp.logspace(*margs, **mkw), numpy.logspace(*args, **kw))


@pytest.mark.parametrize("dtype", ["int32", "float64", "uint16", "complex64", "int8", "bool", "float16"])
def test_byteswap(dtype):
    x = (numpy.arange(6) * 1234 + 7).astype(dtype).reshape(2, 3)
    for v in (x, x.T):
        got = mnp.asarray(v).byteswap()
        ref = v.byteswap()
        assert got.dtype == ref.dtype and got.shape == ref.shape
        assert numpy.ascontiguousarray(numpy.asarray(got)).tobytes() == numpy.ascontiguousarray(ref).tobytes()
    a, n = mnp.asarray(x.copy()), x.copy()
    assert a.byteswap(inplace=True) is a
    n.byteswap(inplace=True)
    assert numpy.asarray(a).tobytes() == n.tobytes()
