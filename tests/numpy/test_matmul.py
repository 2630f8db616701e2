"""matmul / @ / dot / inner / outer / vdot against numpy: shapes, dtypes, errors."""
import numpy
import pytest

import mnn.numpy as mnp
from helpers import ALL_DTYPES, assert_same, non_contiguous, sample

SHAPE_PAIRS = [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)),
    ((5, 2, 3), (5, 3, 4)), ((1, 2, 3), (4, 3, 2)), ((2, 1, 2, 3), (3, 3, 2)), ((0, 3), (3, 4)), ((2, 0), (0, 4)),
    ((2, 3), (3, 0)), ((4,), (2, 4, 3)), ((2, 4, 3), (3,)), ((1, 1), (1, 1)), ((7, 33), (33, 17)),
]


def data(shape, dtype, seed):
    lo, hi = {"float16": (-2, 2), "int8": (-5, 5), "uint8": (0, 5)}.get(dtype, (None, None))
    return sample(shape, dtype, seed, low=lo, high=hi)


def tol(dtype):
    return {"float16": 1e-2, "float32": 1e-5, "float64": 1e-12}.get(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("sa,sb", SHAPE_PAIRS)
def test_matmul(sa, sb, dtype):
    x, y = data(sa, dtype, 0), data(sb, dtype, 1)
    e = numpy.matmul(x, y)
    a, b = mnp.asarray(x), mnp.asarray(y)
    r = tol(dtype)
    assert_same(mnp.matmul(a, b), e, rtol=r, atol=0 if r is None else 1e-3)
    assert_same(a @ b, x @ y, rtol=r, atol=0 if r is None else 1e-3)


@pytest.mark.parametrize("d1,d2", [("int8", "float32"), ("bool", "int16"), ("uint8", "int8"), ("float16", "float64"),
                                   ("int32", "uint32"), ("bool", "bool")])
def test_matmul_promotion(d1, d2):
    x, y = data((3, 4), d1, 0), data((4, 2), d2, 1)
    assert_same(mnp.matmul(mnp.asarray(x), mnp.asarray(y)), numpy.matmul(x, y), rtol=1e-5, atol=1e-5)


def test_matmul_int_wraparound():
    x = numpy.full((2, 40), 100, dtype=numpy.int8)
    y = numpy.full((40, 3), 7, dtype=numpy.int8)
    assert_same(mnp.asarray(x) @ mnp.asarray(y), x @ y)
    u = numpy.full((2, 3), 2**31, dtype=numpy.uint32)
    v = numpy.full((3, 2), 3, dtype=numpy.uint32)
    assert_same(mnp.asarray(u) @ mnp.asarray(v), u @ v)
    i = numpy.full((1, 2), 2**62, dtype=numpy.int64)
    assert_same(mnp.asarray(i) @ mnp.asarray(i.T.copy()), i @ i.T)


@pytest.mark.parametrize("dtype", ["float32", "int64", "float64"])
def test_matmul_non_contiguous(dtype):
    x, y = data((4, 6), dtype, 0), data((6, 5), dtype, 1)
    for xa, ya in ((non_contiguous(x), y), (x, y[::-1]), (x.T.copy().T, y.T.copy().T), (y.T, x.T)):
        r = tol(dtype)
        assert_same(mnp.asarray(xa) @ mnp.asarray(ya), xa @ ya, rtol=r, atol=0 if r is None else 1e-6)


def test_matmul_large_float32():
    x, y = data((130, 257), "float32", 0), data((257, 70), "float32", 1)
    # float32 sums of 257 products of size ~100: summation order moves results by ~1e-8 of that scale
    assert_same(mnp.asarray(x) @ mnp.asarray(y), x @ y, rtol=1e-5, atol=1e-2)


@pytest.mark.parametrize("sa,sb", [((3,), (4,)), ((2, 3), (4, 3)), ((2, 3, 4), (3, 3, 4)), ((3,), (2, 4)),
                                   ((2, 2, 3), (3, 3, 2)), ((5, 2, 2, 3), (3, 3, 2))])
def test_matmul_mismatch_errors(sa, sb):
    x, y = numpy.ones(sa), numpy.ones(sb)
    with pytest.raises(ValueError) as e_np:
        numpy.matmul(x, y)
    with pytest.raises(ValueError) as e:
        mnp.matmul(mnp.asarray(x), mnp.asarray(y))
    assert str(e.value) == f"[mnn.numpy.matmul] {e_np.value}"


def test_matmul_zero_d_errors():
    x = numpy.ones(3)
    for args in ((numpy.float64(2.0), x), (x, numpy.array(2.0))):
        with pytest.raises(ValueError) as e_np:
            numpy.matmul(*args)
        with pytest.raises(ValueError) as e:
            mnp.matmul(*(mnp.asarray(v) for v in args))
        assert str(e.value) == f"[mnn.numpy.matmul] {e_np.value}"


def test_matmul_out_and_imatmul():
    x, y = data((3, 3), "float64", 0), data((3, 3), "float64", 1)
    out = mnp.zeros((3, 3))
    r = mnp.matmul(mnp.asarray(x), mnp.asarray(y), out=out)
    assert r is out
    assert_same(out, x @ y, rtol=1e-12)
    a = mnp.asarray(x.copy())
    v = a[0]
    a @= mnp.asarray(y)
    x2 = x.copy()
    x2 @= y
    assert_same(a, x2, rtol=1e-12)
    assert_same(v, x2[0], rtol=1e-12)


@pytest.mark.parametrize("dtype", ["int32", "float32", "bool", "float16", "uint8"])
@pytest.mark.parametrize("sa,sb", [((), ()), ((), (3,)), ((3,), ()), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)),
                                   ((2, 3), (3, 2)), ((2, 2, 3), (3, 4)), ((2, 3), (2, 3, 4)), ((2, 2, 3), (4, 3, 5)),
                                   ((2, 3, 4), (4,))])
def test_dot(sa, sb, dtype):
    x, y = data(sa, dtype, 0), data(sb, dtype, 1)
    r = tol(dtype)
    assert_same(mnp.dot(mnp.asarray(x), mnp.asarray(y)), numpy.dot(x, y), rtol=r, atol=0 if r is None else 1e-3)
    if x.ndim:
        assert_same(mnp.asarray(x).dot(mnp.asarray(y)), x.dot(y), rtol=r, atol=0 if r is None else 1e-3)


def test_dot_errors():
    x, y = numpy.ones((2, 3)), numpy.ones((2, 3))
    with pytest.raises(ValueError):
        numpy.dot(x, y)
    with pytest.raises(ValueError):
        mnp.dot(mnp.asarray(x), mnp.asarray(y))


@pytest.mark.parametrize("dtype", ["int64", "float64", "bool", "int8"])
@pytest.mark.parametrize("sa,sb", [((), ()), ((), (3,)), ((3,), (3,)), ((2, 3), (3,)), ((2, 3), (4, 3)),
                                   ((2, 2, 3), (4, 3)), ((3,), (2, 4, 3))])
def test_inner(sa, sb, dtype):
    x, y = data(sa, dtype, 0), data(sb, dtype, 1)
    r = tol(dtype)
    assert_same(mnp.inner(mnp.asarray(x), mnp.asarray(y)), numpy.inner(x, y), rtol=r, atol=0 if r is None else 1e-9)


def test_inner_error():
    with pytest.raises(ValueError):
        numpy.inner(numpy.ones(3), numpy.ones(4))
    with pytest.raises(ValueError):
        mnp.inner(mnp.ones(3), mnp.ones(4))


@pytest.mark.parametrize("dtype", ["int16", "float32", "bool", "uint64"])
@pytest.mark.parametrize("sa,sb", [((3,), (4,)), ((), (2,)), ((2, 2), (3,)), ((0,), (3,))])
def test_outer(sa, sb, dtype):
    x, y = data(sa, dtype, 0), data(sb, dtype, 1)
    assert_same(mnp.outer(mnp.asarray(x), mnp.asarray(y)), numpy.outer(x, y))


@pytest.mark.parametrize("dtype", ["int32", "float64", "bool", "uint8", "float16"])
@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3, 2)), ((2, 2), (4,)), ((), ()), ((0,), (0,))])
def test_vdot(sa, sb, dtype):
    x, y = data(sa, dtype, 0), data(sb, dtype, 1)
    r = tol(dtype)
    assert_same(mnp.vdot(mnp.asarray(x), mnp.asarray(y)), numpy.vdot(x, y), rtol=r, atol=0 if r is None else 1e-3)


def test_vdot_error():
    with pytest.raises(ValueError):
        numpy.vdot(numpy.ones(3), numpy.ones(4))
    with pytest.raises(ValueError):
        mnp.vdot(mnp.ones(3), mnp.ones(4))


def test_matmul_lazy_inputs_keep_values():
    x, y = data((3, 3), "float64", 0), data((3, 3), "float64", 1)
    a, b = mnp.asarray(x.copy()), mnp.asarray(y)
    c = a @ b
    a[...] = 0
    assert_same(c, x @ y, rtol=1e-12)


def test_vdot_vecdot_conjugate_first_argument():
    a = numpy.array([[1 + 2j, 3j, -1], [2, 1 - 1j, 0.5j]])
    b = numpy.array([2 - 1j, 1 + 1j, 4])
    def same(got, ref):  # complex values compared whole (helpers' assert_same looks at the real part)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        numpy.testing.assert_allclose(numpy.asarray(got), ref, rtol=1e-12)
    same(mnp.vdot(mnp.asarray(a[0]), mnp.asarray(b)), numpy.vdot(a[0], b))
    same(mnp.vecdot(mnp.asarray(a), mnp.asarray(b)), numpy.vecdot(a, b))
    same(mnp.vecdot(mnp.asarray(a), mnp.asarray(a), axis=0), numpy.vecdot(a, a, axis=0))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "float32", "bool"])
def test_vecdot_keeps_dtype(dtype):
    x = data((3, 4), dtype, 0)
    y = data((4,), dtype, 1)
    r = tol(dtype)
    assert_same(mnp.vecdot(mnp.asarray(x), mnp.asarray(y)), numpy.vecdot(x, y), rtol=r, atol=0 if r is None else 1e-4)
    out = mnp.empty(3, dtype=numpy.vecdot(x, y).dtype)
    assert mnp.vecdot(mnp.asarray(x), mnp.asarray(y), out=out) is out


def test_vecdot_errors():
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.vecdot\]"):
        mnp.vecdot(mnp.ones(3), mnp.ones(4))
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.vecdot\]"):
        mnp.vecdot(mnp.ones(()), mnp.ones(()))
