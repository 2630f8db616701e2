"""Manipulation functions (mnn.numpy._shaping) against the real numpy: pad in every mode, roll,
rot90, tile, repeat, diff/ediff1d, meshgrid, tri/tril/triu, diag/diagflat/trace, stacking and
splitting, insert/delete/append, resize, trim_zeros, block, unstack; dtypes x shapes including 0-d,
empty and non-contiguous inputs; numpy's exception types; gradients against torch."""
import warnings

import numpy
import pytest

import mnn.numpy as mnp

from helpers import ALL_DTYPES, assert_same as _assert_same, non_contiguous, sample


def assert_same(got, expected, rtol=None, atol=0.0, check_dtype=True):
    """helpers.assert_same, plus the sign of every zero when the comparison is exact."""
    _assert_same(got, expected, rtol=rtol, atol=atol, check_dtype=check_dtype)
    e = numpy.asarray(expected)
    if rtol is None and atol == 0.0 and e.dtype.kind == "f":
        g = numpy.asarray(got)
        numpy.testing.assert_array_equal(numpy.signbit(g[g == 0]), numpy.signbit(e[e == 0]))

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64"]


def m(a):
    return mnp.asarray(a)


def same_error(fn_np, fn_mnn):
    """Both raise, with the same exception class (numpy's AxisError is also a ValueError/IndexError)."""
    with pytest.raises(Exception) as e_np:
        fn_np()
    with pytest.raises(Exception) as e_mnn:
        fn_mnn()
    assert isinstance(e_mnn.value, type(e_np.value)) or type(e_np.value).__name__ == type(e_mnn.value).__name__, \
        f"numpy raised {type(e_np.value).__name__}, mnn raised {type(e_mnn.value).__name__}: {e_mnn.value}"


# ----------------------------------------------------------------------------------------------
# pad

PAD_WIDTHS = [0, 1, (2, 3), ((0, 5), (7, 1)), ((1, 2),), [[3, 0], [0, 2]], 9]
MODES = ["constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric", "wrap"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64"])
def test_pad_modes_2d(mode, dtype):
    a = sample((3, 4), dtype, seed=1)
    for pw in PAD_WIDTHS:
        assert_same(mnp.pad(m(a), pw, mode), numpy.pad(a, pw, mode))
    # non-contiguous input
    v = non_contiguous(a)[::-1]
    assert_same(mnp.pad(m(numpy.ascontiguousarray(v)), 2, mode), numpy.pad(v, 2, mode))


@pytest.mark.parametrize("mode", MODES)
def test_pad_1d_3d_large_pads(mode):
    a = sample((4,), "float64", seed=2)
    for pw in [(11, 6), (1, 13), 4]:
        assert_same(mnp.pad(m(a), pw, mode), numpy.pad(a, pw, mode))
    b = sample((2, 3, 2), "int32", seed=3)
    assert_same(mnp.pad(m(b), ((1, 2), (3, 0), (2, 5)), mode), numpy.pad(b, ((1, 2), (3, 0), (2, 5)), mode))


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
def test_pad_reflect_odd(mode):
    for shape, pw in [((5,), (7, 12)), ((3, 4), ((4, 1), (9, 2))), ((1, 3), 3), ((2,), 5)]:
        for dt in ["float64", "int64"]:
            a = sample(shape, dt, seed=4)
            assert_same(mnp.pad(m(a), pw, mode, reflect_type="odd"), numpy.pad(a, pw, mode, reflect_type="odd"))
            assert_same(mnp.pad(m(a), pw, mode, reflect_type="even"), numpy.pad(a, pw, mode, reflect_type="even"))


def test_pad_kwargs():
    a = sample((3, 4), "float64", seed=5)
    ai = sample((3, 4), "int32", seed=5)
    assert_same(mnp.pad(m(a), 2, "constant", constant_values=((1.5, -2), (3, 4))),
                numpy.pad(a, 2, "constant", constant_values=((1.5, -2), (3, 4))))
    assert_same(mnp.pad(m(ai), 2, "constant", constant_values=7.9), numpy.pad(ai, 2, "constant", constant_values=7.9))
    u = sample((3, 4), "uint8", seed=5)
    assert_same(mnp.pad(m(u), 2, "constant", constant_values=(-5, 300)),
                numpy.pad(u, 2, "constant", constant_values=(-5, 300)))
    assert_same(mnp.pad(m(a), (3, 2), "linear_ramp", end_values=(5, -5)),
                numpy.pad(a, (3, 2), "linear_ramp", end_values=(5, -5)))
    assert_same(mnp.pad(m(ai), (3, 2), "linear_ramp", end_values=(50, -50)),
                numpy.pad(ai, (3, 2), "linear_ramp", end_values=(50, -50)))
    for mode in ["maximum", "minimum", "mean", "median"]:
        for sl in [1, 2, (1, 3), ((1, 2), (3, 1)), None]:
            assert_same(mnp.pad(m(a), (2, 3), mode, stat_length=sl), numpy.pad(a, (2, 3), mode, stat_length=sl))
            assert_same(mnp.pad(m(ai), (2, 3), mode, stat_length=sl), numpy.pad(ai, (2, 3), mode, stat_length=sl))
    r = mnp.pad(m(a), 2, "empty")
    assert r.shape == (7, 8) and r.dtype == mnp.float64
    numpy.testing.assert_array_equal(numpy.asarray(r)[2:5, 2:6], a)
    assert_same(mnp.pad(m(a), {1: (1, 2)}), numpy.pad(a, {1: (1, 2)}))


def test_pad_nan_inf_and_special_shapes():
    a = numpy.array([[1.0, numpy.nan, -numpy.inf], [-0.0, 2.0, numpy.inf]])
    for mode in MODES:
        assert_same(mnp.pad(m(a), 2, mode), numpy.pad(a, 2, mode))
    z = numpy.float64(3.5)
    assert_same(mnp.pad(m(numpy.array(z)), 0), numpy.pad(numpy.array(z), 0))
    e = numpy.zeros((0, 3))
    assert_same(mnp.pad(m(e), ((0, 0), (1, 2)), "edge"), numpy.pad(e, ((0, 0), (1, 2)), "edge"))
    assert_same(mnp.pad(m(e), 1), numpy.pad(e, 1))
    for mode in ["constant", "edge", "reflect", "wrap", "linear_ramp"]:
        b = numpy.array([True, False, True])
        if mode in ("linear_ramp",):
            continue
        assert_same(mnp.pad(m(b), 2, mode), numpy.pad(b, 2, mode))


def test_pad_callable():
    def padder(vector, pad_width, iaxis, kwargs):
        pad_value = kwargs.get("padder", 10)
        vector[:pad_width[0]] = pad_value
        if pad_width[1]:
            vector[-pad_width[1]:] = pad_value

    a = numpy.arange(6).reshape((2, 3))
    assert_same(mnp.pad(m(a), 2, padder), numpy.pad(a, 2, padder))
    assert_same(mnp.pad(m(a), (1, 0), padder, padder=100), numpy.pad(a, (1, 0), padder, padder=100))


def test_pad_errors():
    a = numpy.ones((3, 4))
    same_error(lambda: numpy.pad(a, 1, "nope"), lambda: mnp.pad(m(a), 1, "nope"))
    same_error(lambda: numpy.pad(a, 1, "edge", constant_values=1), lambda: mnp.pad(m(a), 1, "edge", constant_values=1))
    same_error(lambda: numpy.pad(a, -1), lambda: mnp.pad(m(a), -1))
    same_error(lambda: numpy.pad(a, 1.5), lambda: mnp.pad(m(a), 1.5))
    same_error(lambda: numpy.pad(a, ((1, 2, 3),)), lambda: mnp.pad(m(a), ((1, 2, 3),)))
    e = numpy.zeros((0, 3))
    same_error(lambda: numpy.pad(e, 1, "edge"), lambda: mnp.pad(m(e), 1, "edge"))
    same_error(lambda: numpy.pad(a, 1, "maximum", stat_length=0), lambda: mnp.pad(m(a), 1, "maximum", stat_length=0))


# ----------------------------------------------------------------------------------------------
# roll, rot90, tile, repeat

@pytest.mark.parametrize("dtype", DTYPES)
def test_roll(dtype):
    a = sample((3, 4, 5), dtype, seed=6)
    cases = [(2, None), (-7, None), (1, 0), (-2, 1), ((1, 2), (0, 2)), ((3, -1), (1, 1)), (2, (0, 1, 2)), (0, 1)]
    for shift, axis in cases:
        assert_same(mnp.roll(m(a), shift, axis), numpy.roll(a, shift, axis))
    assert_same(mnp.roll(m(non_contiguous(a)), 3, -1), numpy.roll(non_contiguous(a), 3, -1))
    assert_same(mnp.roll(m(numpy.zeros((0, 3), dtype)), 2, 1), numpy.roll(numpy.zeros((0, 3), dtype), 2, 1))
    assert_same(mnp.roll(m(numpy.array(5, dtype)), 3), numpy.roll(numpy.array(5, dtype), 3))
    same_error(lambda: numpy.roll(a, 1, 5), lambda: mnp.roll(m(a), 1, 5))
    same_error(lambda: numpy.roll(a, (1, 2, 3), (0, 1)), lambda: mnp.roll(m(a), (1, 2, 3), (0, 1)))


def test_rot90():
    a = sample((2, 3, 4), "int32", seed=7)
    for k in range(-5, 6):
        for axes in [(0, 1), (1, 0), (1, 2), (2, 0), (-1, -2)]:
            assert_same(mnp.rot90(m(a), k, axes), numpy.rot90(a, k, axes))
    same_error(lambda: numpy.rot90(a, 1, (0, 0)), lambda: mnp.rot90(m(a), 1, (0, 0)))
    same_error(lambda: numpy.rot90(a, 1, (0, 3)), lambda: mnp.rot90(m(a), 1, (0, 3)))
    same_error(lambda: numpy.rot90(a, 1, (0,)), lambda: mnp.rot90(m(a), 1, (0,)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_tile(dtype):
    for shape in [(), (0,), (3,), (2, 3), (2, 1, 3)]:
        a = sample(shape, dtype, seed=8)
        for reps in [1, 2, (2, 1), (1, 3), (2, 0, 2), (3, 1, 1, 2), 0]:
            assert_same(mnp.tile(m(a), reps), numpy.tile(a, reps))
    b = sample((3, 4), dtype, seed=8)
    assert_same(mnp.tile(m(non_contiguous(b)), (2, 2)), numpy.tile(non_contiguous(b), (2, 2)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat(dtype):
    a = sample((3, 4), dtype, seed=9)
    assert_same(mnp.repeat(m(a), 3), numpy.repeat(a, 3))
    assert_same(mnp.repeat(m(a), 2, axis=0), numpy.repeat(a, 2, axis=0))
    assert_same(mnp.repeat(m(a), 0, axis=1), numpy.repeat(a, 0, axis=1))
    assert_same(mnp.repeat(m(a), [1, 0, 3], axis=0), numpy.repeat(a, [1, 0, 3], axis=0))
    assert_same(mnp.repeat(m(a), [0, 2, 0, 1], axis=-1), numpy.repeat(a, [0, 2, 0, 1], axis=-1))
    assert_same(mnp.repeat(m(a), [2], axis=1), numpy.repeat(a, [2], axis=1))
    counts = numpy.arange(12) % 4
    assert_same(mnp.repeat(m(a), m(counts)), numpy.repeat(a, counts))
    assert_same(mnp.repeat(m(a), [0] * 3, axis=0), numpy.repeat(a, [0] * 3, axis=0))
    assert_same(mnp.repeat(m(numpy.array(7, dtype)), 4), numpy.repeat(numpy.array(7, dtype), 4))
    assert_same(mnp.repeat(m(non_contiguous(a)), [3, 1, 0, 2], axis=1), numpy.repeat(non_contiguous(a), [3, 1, 0, 2],
                                                                                     axis=1))


def test_repeat_errors():
    a = numpy.arange(6).reshape(2, 3)
    same_error(lambda: numpy.repeat(a, -1), lambda: mnp.repeat(m(a), -1))
    same_error(lambda: numpy.repeat(a, [1, -1], axis=0), lambda: mnp.repeat(m(a), [1, -1], axis=0))
    same_error(lambda: numpy.repeat(a, [1, 2], axis=1), lambda: mnp.repeat(m(a), [1, 2], axis=1))
    assert_same(mnp.repeat(m(a), 1.5), numpy.repeat(a, 1.5))  # numpy truncates float counts
    same_error(lambda: numpy.repeat(a, 2, axis=2), lambda: mnp.repeat(m(a), 2, axis=2))


# ----------------------------------------------------------------------------------------------
# diff, ediff1d

@pytest.mark.parametrize("dtype", DTYPES)
def test_diff(dtype):
    a = sample((4, 5), dtype, seed=10)
    for n in [0, 1, 2, 5]:
        for axis in [0, 1, -1]:
            try:
                expected = numpy.diff(a, n=n, axis=axis)
            except TypeError:
                with pytest.raises(TypeError):
                    mnp.diff(m(a), n=n, axis=axis)
                continue
            assert_same(mnp.diff(m(a), n=n, axis=axis), expected)
    if dtype != "bool":
        assert_same(mnp.diff(m(a), prepend=0, append=m(a[:, :2])), numpy.diff(a, prepend=0, append=a[:, :2]))
        assert_same(mnp.diff(m(a), axis=0, prepend=m(a[:1])), numpy.diff(a, axis=0, prepend=a[:1]))
    assert_same(mnp.diff(m(non_contiguous(a))), numpy.diff(non_contiguous(a)))


def test_diff_overflow_and_errors():
    a = numpy.array([-128, 127, 0, -1], dtype="int8")
    assert_same(mnp.diff(m(a)), numpy.diff(a))
    u = numpy.array([0, 255, 3], dtype="uint8")
    assert_same(mnp.diff(m(u)), numpy.diff(u))
    same_error(lambda: numpy.diff(numpy.array(3.0)), lambda: mnp.diff(m(numpy.array(3.0))))
    same_error(lambda: numpy.diff(u, n=-1), lambda: mnp.diff(m(u), n=-1))
    same_error(lambda: numpy.diff(u, axis=1), lambda: mnp.diff(m(u), axis=1))


def test_ediff1d():
    a = sample((3, 4), "int32", seed=11)
    assert_same(mnp.ediff1d(m(a)), numpy.ediff1d(a))
    assert_same(mnp.ediff1d(m(a), to_end=[100, 200], to_begin=-5), numpy.ediff1d(a, to_end=[100, 200], to_begin=-5))
    f = sample((5,), "float32", seed=11)
    assert_same(mnp.ediff1d(m(f), to_begin=m(numpy.array([1.5], "float32"))),
                numpy.ediff1d(f, to_begin=numpy.array([1.5], "float32")))
    assert_same(mnp.ediff1d(m(numpy.zeros(0))), numpy.ediff1d(numpy.zeros(0)))
    same_error(lambda: numpy.ediff1d(a, to_end=1.5), lambda: mnp.ediff1d(m(a), to_end=1.5))


# ----------------------------------------------------------------------------------------------
# meshgrid, tri, tril, triu, diag, diagflat, trace

def test_meshgrid():
    x, y, z = numpy.arange(3.0), numpy.arange(4), numpy.linspace(0, 1, 2)
    for indexing in ["xy", "ij"]:
        for sparse in [False, True]:
            got = mnp.meshgrid(m(x), m(y), m(z), indexing=indexing, sparse=sparse)
            exp = numpy.meshgrid(x, y, z, indexing=indexing, sparse=sparse)
            assert isinstance(got, tuple) and len(got) == len(exp)
            for g, e in zip(got, exp):
                assert_same(g, e)
    for g, e in zip(mnp.meshgrid(m(x), copy=False), numpy.meshgrid(x, copy=False)):
        assert_same(g, e)
    assert mnp.meshgrid() == numpy.meshgrid() == ()
    same_error(lambda: numpy.meshgrid(x, indexing="ab"), lambda: mnp.meshgrid(m(x), indexing="ab"))


def test_tri_tril_triu():
    for N, M, k in [(3, None, 0), (4, 2, 1), (2, 5, -1), (0, 3, 0), (3, 3, 10), (3, 3, -10)]:
        assert_same(mnp.tri(N, M, k), numpy.tri(N, M, k))
        assert_same(mnp.tri(N, M, k, dtype=mnp.int32), numpy.tri(N, M, k, dtype=numpy.int32))
    for dtype in DTYPES:
        for shape in [(4, 4), (3, 5), (2, 3, 4), (5,), (0, 3)]:
            a = sample(shape, dtype, seed=12)
            for k in [-2, 0, 1, 3]:
                assert_same(mnp.tril(m(a), k), numpy.tril(a, k))
                assert_same(mnp.triu(m(a), k), numpy.triu(a, k))
    f = numpy.array([[numpy.nan, -0.0], [numpy.inf, 1.0]])
    assert_same(mnp.tril(m(f)), numpy.tril(f))
    assert_same(mnp.triu(m(f)), numpy.triu(f))


@pytest.mark.parametrize("dtype", DTYPES)
def test_diag(dtype):
    v = sample((4,), dtype, seed=13)
    for k in [-3, -1, 0, 2, 5]:
        assert_same(mnp.diag(m(v), k), numpy.diag(v, k))
    a = sample((3, 5), dtype, seed=13)
    for k in [-4, -1, 0, 2, 6]:
        assert_same(mnp.diag(m(a), k), numpy.diag(a, k))
    assert_same(mnp.diag(m(numpy.zeros(0, dtype))), numpy.diag(numpy.zeros(0, dtype)))
    b = sample((2, 2), dtype, seed=14)
    for k in [-1, 0, 1]:
        assert_same(mnp.diagflat(m(b), k), numpy.diagflat(b, k))
    same_error(lambda: numpy.diag(numpy.ones((2, 2, 2))), lambda: mnp.diag(m(numpy.ones((2, 2, 2)))))


def test_trace():
    for dtype in ["int8", "int64", "uint8", "float32", "float64", "bool"]:
        a = sample((3, 4, 5), dtype, seed=15)
        assert_same(mnp.trace(m(a)), numpy.trace(a))
        assert_same(mnp.trace(m(a), 1, 1, 2), numpy.trace(a, 1, 1, 2))
        assert_same(mnp.trace(m(a), -1, 2, 0, dtype=mnp.float64), numpy.trace(a, -1, 2, 0, dtype=numpy.float64))
    same_error(lambda: numpy.trace(numpy.ones(3)), lambda: mnp.trace(m(numpy.ones(3))))


# ----------------------------------------------------------------------------------------------
# stacking and splitting

def test_atleast_3d_dstack_column_stack():
    for shape in [(), (3,), (2, 3), (2, 3, 4), (1, 2, 3, 4)]:
        a = sample(shape, "int16", seed=16)
        assert_same(mnp.atleast_3d(m(a)), numpy.atleast_3d(a))
    got = mnp.atleast_3d(m(numpy.ones(2)), m(numpy.ones((2, 2))))
    exp = numpy.atleast_3d(numpy.ones(2), numpy.ones((2, 2)))
    assert len(got) == len(exp) == 2
    for g, e in zip(got, exp):
        assert_same(g, e)
    a, b = sample((2, 3), "float32", seed=17), sample((2, 3), "int8", seed=18)
    assert_same(mnp.dstack([m(a), m(b)]), numpy.dstack([a, b]))
    assert_same(mnp.dstack([m(a[0]), m(b[0])]), numpy.dstack([a[0], b[0]]))
    assert_same(mnp.column_stack([m(a[0]), m(b[0])]), numpy.column_stack([a[0], b[0]]))
    assert_same(mnp.column_stack([m(a), m(b[:, :1])]), numpy.column_stack([a, b[:, :1]]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_same(mnp.row_stack([m(a), m(b)]), numpy.row_stack([a, b]))
    with pytest.warns(DeprecationWarning):
        mnp.row_stack([m(a), m(b)])
    same_error(lambda: numpy.column_stack([a, numpy.ones((3, 1))]), lambda: mnp.column_stack([m(a), mnp.ones((3, 1))]))


def test_hvdsplit_unstack():
    a = sample((4, 6, 2), "float64", seed=19)
    for fn in ["hsplit", "vsplit", "dsplit"]:
        for arg in [2, [1, 3]]:
            got = getattr(mnp, fn)(m(a), arg)
            exp = getattr(numpy, fn)(a, arg)
            assert len(got) == len(exp)
            for g, e in zip(got, exp):
                assert_same(g, e)
    for g, e in zip(mnp.hsplit(m(a[0, :, 0]), 3), numpy.hsplit(a[0, :, 0], 3)):
        assert_same(g, e)
    same_error(lambda: numpy.hsplit(numpy.array(1.0), 1), lambda: mnp.hsplit(m(numpy.array(1.0)), 1))
    same_error(lambda: numpy.vsplit(numpy.ones(4), 2), lambda: mnp.vsplit(m(numpy.ones(4)), 2))
    same_error(lambda: numpy.dsplit(numpy.ones((4, 2)), 2), lambda: mnp.dsplit(m(numpy.ones((4, 2))), 2))
    same_error(lambda: numpy.hsplit(a, 4), lambda: mnp.hsplit(m(a), 4))
    for axis in [0, 1, -1]:
        got, exp = mnp.unstack(m(a), axis=axis), numpy.unstack(a, axis=axis)
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            assert_same(g, e)
    same_error(lambda: numpy.unstack(numpy.array(1.0)), lambda: mnp.unstack(m(numpy.array(1.0))))


# ----------------------------------------------------------------------------------------------
# insert, delete, append, resize, trim_zeros, block

@pytest.mark.parametrize("dtype", ["int32", "float64", "uint8", "bool"])
def test_insert(dtype):
    a = sample((3, 4), dtype, seed=20)
    cases = [
        (1, 5, None), (-1, [7, 8], None), (0, 9, 0), (2, [1, 2, 3, 4], 0), (4, 0, 1), ([1], [[1], [2], [3]], 1),
        ([1, 3, 1], [5, 6, 7], 1), (slice(0, 3), 2, 1), ([], 1, 0), ([0, -1, 2], 9, None), (1, [[1, 2, 3, 4]], 0),
    ]
    for obj, values, axis in cases:
        values = numpy.asarray(values).astype(dtype)
        assert_same(mnp.insert(m(a), obj, m(values), axis=axis), numpy.insert(a, obj, values, axis=axis))
    assert_same(mnp.insert(m(a), 1, 2.7, axis=1), numpy.insert(a, 1, 2.7, axis=1))
    same_error(lambda: numpy.insert(a, 5, 1, axis=0), lambda: mnp.insert(m(a), 5, 1, axis=0))
    same_error(lambda: numpy.insert(a, 1, 1, axis=2), lambda: mnp.insert(m(a), 1, 1, axis=2))
    same_error(lambda: numpy.insert(a, [[1]], 1, axis=0), lambda: mnp.insert(m(a), [[1]], 1, axis=0))
    same_error(lambda: numpy.insert(a, 1.5, 1, axis=0), lambda: mnp.insert(m(a), 1.5, 1, axis=0))
    same_error(lambda: numpy.insert(a, [1.0], 1, axis=0), lambda: mnp.insert(m(a), [1.0], 1, axis=0))
    mask = numpy.array([True, False, True, True])
    assert_same(mnp.insert(m(a), m(mask), 0, axis=1), numpy.insert(a, mask, 0, axis=1))


@pytest.mark.parametrize("dtype", ["int32", "float64", "bool"])
def test_delete_append(dtype):
    a = sample((4, 5), dtype, seed=21)
    for obj, axis in [(1, 0), (-1, 1), ([0, 2], 1), ([4, 0, 0], 1), (slice(1, None, 2), 0), (slice(5, 1), 0),
                      (3, None), ([True, False, True, False], 0), (numpy.array([1, 3]), 1), ([], 0)]:
        assert_same(mnp.delete(m(a), obj if not isinstance(obj, numpy.ndarray) else m(obj), axis=axis),
                    numpy.delete(a, obj, axis=axis))
    same_error(lambda: numpy.delete(a, 4, axis=0), lambda: mnp.delete(m(a), 4, axis=0))
    same_error(lambda: numpy.delete(a, [0, 7], axis=1), lambda: mnp.delete(m(a), [0, 7], axis=1))
    same_error(lambda: numpy.delete(a, [True, False], axis=0), lambda: mnp.delete(m(a), [True, False], axis=0))
    same_error(lambda: numpy.delete(a, 1.5, axis=0), lambda: mnp.delete(m(a), 1.5, axis=0))
    same_error(lambda: numpy.delete(a, [1.0], axis=0), lambda: mnp.delete(m(a), [1.0], axis=0))
    b = sample((2, 5), dtype, seed=22)
    assert_same(mnp.append(m(a), m(b)), numpy.append(a, b))
    assert_same(mnp.append(m(a), m(b), axis=0), numpy.append(a, b, axis=0))
    assert_same(mnp.append(m(a[0]), 3), numpy.append(a[0], 3))
    same_error(lambda: numpy.append(a, b, axis=1), lambda: mnp.append(m(a), m(b), axis=1))


def test_resize_trim_zeros():
    a = numpy.arange(5, dtype="int16")
    for shape in [(2, 3), 7, (0,), (3, 0), 2, (2, 2, 2), ()]:
        assert_same(mnp.resize(m(a), shape), numpy.resize(a, shape))
    assert_same(mnp.resize(m(numpy.zeros(0)), (2, 2)), numpy.resize(numpy.zeros(0), (2, 2)))
    same_error(lambda: numpy.resize(a, (-1, 2)), lambda: mnp.resize(m(a), (-1, 2)))
    f = numpy.array([0, 0, 1.5, 0, -2, 0, 0.0, -0.0])
    for trim in ["fb", "f", "b", "BF"]:
        assert_same(mnp.trim_zeros(m(f), trim), numpy.trim_zeros(f, trim))
    assert_same(mnp.trim_zeros(m(numpy.zeros(4))), numpy.trim_zeros(numpy.zeros(4)))
    g = numpy.zeros((4, 5), "int32")
    g[1, 2] = 3
    g[2, 3] = 1
    for axis in [None, 0, 1, (0, 1)]:
        assert_same(mnp.trim_zeros(m(g), axis=axis), numpy.trim_zeros(g, axis=axis))
    same_error(lambda: numpy.trim_zeros(f, "x"), lambda: mnp.trim_zeros(m(f), "x"))


def test_block():
    A, B = numpy.eye(2) * 2, numpy.eye(3) * 3
    Z = numpy.zeros((2, 3))
    got = mnp.block([[m(A), m(Z)], [m(Z.T), m(B)]])
    assert_same(got, numpy.block([[A, Z], [Z.T, B]]))
    assert_same(mnp.block([m(numpy.arange(3)), 4, m(numpy.arange(2))]), numpy.block([numpy.arange(3), 4,
                                                                                   numpy.arange(2)]))
    assert_same(mnp.block([[1, 2], [3, 4]]), numpy.block([[1, 2], [3, 4]]))
    a3 = numpy.ones((2, 2, 2))
    assert_same(mnp.block([[m(a3), m(a3)]]), numpy.block([[a3, a3]]))
    assert_same(mnp.block(m(A)), numpy.block(A))
    same_error(lambda: numpy.block([[A], A]), lambda: mnp.block([[m(A)], m(A)]))
    same_error(lambda: numpy.block([]), lambda: mnp.block([]))
    same_error(lambda: numpy.block((A, A)), lambda: mnp.block((m(A), m(A))))
    same_error(lambda: numpy.block([A, B]), lambda: mnp.block([m(A), m(B)]))


# ----------------------------------------------------------------------------------------------
# laziness and gradients

def test_results_are_lazy_and_fused():
    a = mnp.arange(12.0).reshape(3, 4)
    for r in [mnp.pad(a, 2, "reflect"), mnp.roll(a, 1, 1), mnp.tile(a, (2, 2)), mnp.repeat(a, 2, 0),
              mnp.tril(a), mnp.diff(a), mnp.rot90(a)]:
        assert not r._is_evaluated()


def test_gradients_against_torch():
    torch = pytest.importorskip("torch")
    x = sample((3, 4), "float64", seed=30)
    w_fns = [
        (lambda t: mnp.pad(t, ((1, 2), (3, 1)), "reflect"),
         lambda t: torch.nn.functional.pad(t[None], (3, 1, 1, 2), mode="reflect")[0]),
        (lambda t: mnp.roll(t, (1, -2), (0, 1)), lambda t: torch.roll(t, (1, -2), (0, 1))),
        (lambda t: mnp.tile(t, (2, 3)), lambda t: t.tile((2, 3))),
        (lambda t: mnp.repeat(t, [1, 0, 2], axis=0), lambda t: torch.repeat_interleave(t, torch.tensor([1, 0, 2]), 0)),
        (lambda t: mnp.repeat(t, 3, axis=1), lambda t: torch.repeat_interleave(t, 3, 1)),
        (lambda t: mnp.repeat(t, 2, axis=0), lambda t: torch.repeat_interleave(t, 2, 0)),
        (lambda t: mnp.tril(t, 1) * mnp.triu(t), lambda t: torch.tril(t, 1) * torch.triu(t)),
        (lambda t: mnp.diff(t, n=2, axis=1), lambda t: torch.diff(t, n=2, dim=1)),
        (lambda t: mnp.pad(t, 2, "edge"), lambda t: torch.nn.functional.pad(t[None, None], (2, 2, 2, 2),
                                                                          mode="replicate")[0, 0]),
    ]
    for f_m, f_t in w_fns:
        xm = mnp.array(x, requires_grad=True)
        out = f_m(xm)
        w = sample(tuple(out.shape), "float64", seed=31)
        out.backward(mnp.array(w))
        xt = torch.tensor(x, requires_grad=True)
        f_t(xt).backward(torch.tensor(w))
        numpy.testing.assert_allclose(numpy.asarray(xm.grad), xt.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_all_dtypes_smoke_against_numpy():
    # every dtype through the composed paths that cast or compare
    for dtype in ALL_DTYPES:
        a = sample((2, 3), dtype, seed=40)
        assert_same(mnp.pad(m(a), 1, "symmetric"), numpy.pad(a, 1, "symmetric"))
        assert_same(mnp.kron(m(a), m(a)) if hasattr(mnp, "kron") else m(numpy.kron(a, a)), numpy.kron(a, a))
        assert_same(mnp.rot90(m(a)), numpy.rot90(a))


def _views():
    a = sample((6, 8), "float64", seed=50)
    a[0, 0], a[1, 1], a[2, 2] = numpy.nan, -numpy.inf, -0.0
    return a[::-2, 1::3], m(a)[::-2, 1::3]  # the same negative-stride view in both libraries


@pytest.mark.parametrize("name,fn", [
    ("pad reflect", lambda x, lib: lib.pad(x, (2, 5), "reflect")),
    ("pad symmetric odd", lambda x, lib: lib.pad(x, (4, 1), "symmetric", reflect_type="odd")),
    ("pad wrap", lambda x, lib: lib.pad(x, (7, 2), "wrap")),
    ("pad mean", lambda x, lib: lib.pad(x, 2, "mean", stat_length=2)),
    ("pad linear_ramp", lambda x, lib: lib.pad(x, 3, "linear_ramp", end_values=1)),
    ("roll", lambda x, lib: lib.roll(x, (1, -1), (0, 1))),
    ("rot90", lambda x, lib: lib.rot90(x, 3)),
    ("tile", lambda x, lib: lib.tile(x, (2, 1, 2))),
    ("repeat", lambda x, lib: lib.repeat(x, [1, 2, 0], axis=0)),
    ("diff", lambda x, lib: lib.diff(x, 2, 1, prepend=0)),
    ("triu", lambda x, lib: lib.triu(x, -1)),
    ("diag", lambda x, lib: lib.diag(x, 1)),
    ("diag 1-d", lambda x, lib: lib.diag(x[0], -2)),
    ("trace", lambda x, lib: lib.trace(x)),
    ("insert", lambda x, lib: lib.insert(x, [0, 2], 5.5, axis=1)),
    ("delete", lambda x, lib: lib.delete(x, [0, 2], axis=0)),
    ("append", lambda x, lib: lib.append(x, x, axis=1)),
    ("resize", lambda x, lib: lib.resize(x, (5, 7))),
    ("block", lambda x, lib: lib.block([[x, x], [x, x]])),
    ("dstack", lambda x, lib: lib.dstack([x, x])),
    ("column_stack", lambda x, lib: lib.column_stack([x[0], x[1]])),
])
def test_on_strided_views_with_nan_inf(name, fn):
    va, vm = _views()
    assert_same(fn(vm, mnp), fn(va, numpy))


_ORDER_VIEWS = [lambda a: a, lambda a: a.T, lambda a: a[:, ::-1, ::2], lambda a: a.transpose(1, 0, 2)[::-1],
                lambda a: a[0], lambda a: a[0].T[::-1], lambda a: a.transpose(2, 0, 1), lambda a: a[:, :1]]


@pytest.mark.parametrize("view", range(len(_ORDER_VIEWS)))
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_flatten_reshape_order(view, order):
    # order= used to be ignored by ravel/flatten (a silent C-order answer); F/A/K follow numpy now
    x = numpy.arange(24, dtype=numpy.int16).reshape(2, 3, 4)
    v, mv = _ORDER_VIEWS[view](x), _ORDER_VIEWS[view](mnp.asarray(x))
    numpy.testing.assert_array_equal(numpy.asarray(mnp.ravel(mv, order=order)), numpy.ravel(v, order=order))
    numpy.testing.assert_array_equal(numpy.asarray(mv.ravel(order)), v.ravel(order))
    numpy.testing.assert_array_equal(numpy.asarray(mv.flatten(order=order)), v.flatten(order=order))
    if order != "K":
        numpy.testing.assert_array_equal(numpy.asarray(mnp.reshape(mv, (-1, 2), order=order)),
                                         numpy.reshape(v, (-1, 2), order=order))
        numpy.testing.assert_array_equal(numpy.asarray(mv.reshape(2, -1, order=order)), v.reshape(2, -1, order=order))


def test_order_errors():
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.ravel\]"):
        mnp.ravel(mnp.ones(3), order="Q")
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.reshape\]"):
        mnp.reshape(mnp.ones(4), (2, 2), order="K")
    r = mnp.ones((2, 3)).reshape((3, 2), order="F")
    assert r.shape == (3, 2)
