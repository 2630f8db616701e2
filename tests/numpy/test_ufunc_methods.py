"""ufunc methods (reduce, accumulate, outer, at) on mnn's elementwise functions, against numpy's."""
import numpy
import pytest

import mnn.numpy as mnp
from helpers import assert_same, sample

BINARY = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "subtract", "divide", "power",
          "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or", "logical_xor", "hypot",
          "arctan2", "equal", "less"]
INT_ONLY = {"bitwise_and", "bitwise_or", "bitwise_xor"}
FLOAT_ONLY = {"hypot", "arctan2"}


def _data(name, shape, seed=0):
    if name in INT_ONLY or name in ("power",):
        return numpy.random.default_rng(seed).integers(0, 4, size=shape).astype(numpy.int16)
    if name in FLOAT_ONLY or name == "divide":
        return sample(shape, "float64", seed=seed) + 0.5
    return sample(shape, "float32", seed=seed)


def _tol(ref):
    return dict(rtol=1e-5, atol=1e-6) if numpy.asarray(ref).dtype.kind in "fc" else {}


# (numpy's arctan2.reduce is not a left fold of arctan2: not compared)
@pytest.mark.parametrize("name", [n for n in BINARY if n != "arctan2"])
@pytest.mark.parametrize("shape,axis", [((7,), 0), ((3, 5), 0), ((3, 5), 1), ((2, 3, 4), -1), ((3, 5), None)])
def test_reduce(name, shape, axis):
    x = _data(name, shape)
    if name in ("equal", "less"):
        x = x > 0
    f, g = getattr(numpy, name), getattr(mnp, name)
    try:
        ref = f.reduce(x, axis=axis)
    except ValueError:
        with pytest.raises(ValueError, match=r"^\[mnn.numpy"):
            g.reduce(mnp.asarray(x), axis=axis)
        return
    got = g.reduce(mnp.asarray(x), axis=axis)
    assert_same(mnp.asarray(got), ref, **_tol(ref))


@pytest.mark.parametrize("name", ["add", "maximum", "bitwise_or", "logical_and", "multiply"])
def test_reduce_tuple_axis_keepdims_initial_empty(name):
    x = _data(name, (2, 3, 4))
    f, g = getattr(numpy, name), getattr(mnp, name)
    m = mnp.asarray(x)
    for kw in ({"axis": (0, 2)}, {"axis": (0, 2), "keepdims": True}, {"axis": 1, "initial": 1}):
        assert_same(mnp.asarray(g.reduce(m, **kw)), f.reduce(x, **kw), **_tol(x))
    e = x[:, :0]
    if f.identity is None:
        with pytest.raises(ValueError):
            g.reduce(mnp.asarray(e), axis=1)
    else:
        assert_same(mnp.asarray(g.reduce(mnp.asarray(e), axis=1)), f.reduce(e, axis=1))


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("shape,axis", [((9,), 0), ((3, 6), 1), ((5, 2), 0), ((0, 3), 0)])
def test_accumulate(name, shape, axis):
    x = _data(name, shape, seed=1)
    if name in ("equal", "less"):
        x = x > 0
    ref = getattr(numpy, name).accumulate(x, axis=axis)
    got = getattr(mnp, name).accumulate(mnp.asarray(x), axis=axis)
    assert_same(got, ref, **_tol(ref))


def test_accumulate_nan_and_dtype():
    x = numpy.array([1.0, 3.0, numpy.nan, 5.0, 0.5])
    for name in ("maximum", "fmax", "minimum", "fmin"):
        assert_same(getattr(mnp, name).accumulate(mnp.asarray(x)), getattr(numpy, name).accumulate(x))
    i8 = numpy.array([100, 100, 100], dtype=numpy.int8)
    assert_same(mnp.add.accumulate(mnp.asarray(i8)), numpy.add.accumulate(i8))
    assert_same(mnp.add.accumulate(mnp.asarray(i8), dtype=numpy.int8), numpy.add.accumulate(i8, dtype=numpy.int8))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "greater", "power", "hypot"])
def test_outer(name):
    a = _data(name, (3,), 0)
    b = _data(name, (2, 2), 1)
    ref = getattr(numpy, name).outer(a, b)
    got = getattr(mnp, name).outer(mnp.asarray(a), mnp.asarray(b))
    assert_same(got, ref, **_tol(ref))


def test_at_repeated_indices_in_order():
    x = numpy.zeros(6)
    idx = numpy.array([0, 1, 1, 3, 1, 5, 0])
    vals = numpy.arange(1.0, 8.0) / 3
    m = mnp.asarray(x.copy())
    numpy.add.at(x, idx, vals)
    assert mnp.add.at(m, mnp.asarray(idx), mnp.asarray(vals)) is None
    assert_same(m, x)  # exact: each index sums its values in order, as numpy's unbuffered loop does
    y = numpy.full((3, 4), 2, dtype=numpy.int32)
    my = mnp.asarray(y.copy())
    numpy.multiply.at(y, (numpy.array([0, 0, 2]), numpy.array([1, 1, 3])), 3)
    mnp.multiply.at(my, (mnp.asarray([0, 0, 2]), mnp.asarray([1, 1, 3])), 3)
    assert_same(my, y)
    z = numpy.arange(8.0)
    mz = mnp.asarray(z.copy())
    numpy.negative.at(z, [1, 1, 1, 4])
    mnp.negative.at(mz, [1, 1, 1, 4])
    assert_same(mz, z)
    w = numpy.arange(10)
    mw = mnp.asarray(w.copy())
    numpy.maximum.at(w, w > 5, 7)  # a boolean mask as the index
    mnp.maximum.at(mw, mw > 5, 7)
    assert_same(mw, w)


def test_at_through_numpy_and_errors():
    m = mnp.zeros(4)
    numpy.add.at(m, [0, 0, 2], 1.5)  # numpy's own ufunc dispatches to mnn's
    assert_same(m, numpy.array([3.0, 0.0, 1.5, 0.0]))
    with pytest.raises(TypeError, match=r"^\[mnn.numpy.add.at\]"):
        mnp.add.at(mnp.zeros(3, dtype=mnp.int32), [0], 1.5)
    with pytest.raises(IndexError):
        mnp.add.at(mnp.zeros(3), [5], 1.0)
    with pytest.raises(ValueError, match="not reorderable"):
        mnp.subtract.reduce(mnp.ones((2, 2)), axis=None)


def test_ufunc_attributes():
    for name in ("add", "sin", "maximum", "logical_and", "fabs"):
        f, g = getattr(numpy, name), getattr(mnp, name)
        assert isinstance(g, mnp.ufunc)
        assert (g.nin, g.nout, g.nargs, g.identity) == (f.nin, f.nout, f.nargs, f.identity), name
        assert g.__name__ == f.__name__
    assert not isinstance(len, mnp.ufunc) and not isinstance(mnp.sum, mnp.ufunc)
    for method in ("reduce", "accumulate"):
        with pytest.raises(ValueError, match=r"^\[mnn.numpy.sin"):
            getattr(mnp.sin, method)(mnp.ones(3))
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.sin"):
        mnp.sin.outer(mnp.ones(3), mnp.ones(2))


@pytest.mark.parametrize("name", ["add", "maximum", "multiply", "subtract", "bitwise_or"])
def test_reduceat(name):
    f, g = getattr(numpy, name), getattr(mnp, name)
    x = numpy.arange(1, 9, dtype=numpy.int32)
    for idx in ([0, 4, 1, 5], [0, 2, 2, 7], [3], []):
        assert_same(g.reduceat(mnp.asarray(x), idx), f.reduceat(x, idx))
    y = numpy.arange(12, dtype=numpy.int16).reshape(3, 4)
    assert_same(g.reduceat(mnp.asarray(y), [0, 3, 1], axis=1), f.reduceat(y, [0, 3, 1], axis=1))
    with pytest.raises(IndexError, match=r"^\[mnn.numpy"):
        g.reduceat(mnp.asarray(x), [0, 9])
    m = mnp.asarray(x)
    assert_same(f.reduceat(m, [0, 4]), f.reduceat(x, [0, 4]))  # numpy's own method dispatches to mnn


@pytest.mark.parametrize("name,dtype", [("add", "float64"), ("add", "float32"), ("add", "int16"), ("multiply", "float64"),
                                        ("maximum", "float64"), ("minimum", "int32"), ("fmax", "float64"),
                                        ("bitwise_or", "uint8"), ("bitwise_xor", "int64"), ("logical_and", "bool"),
                                        ("subtract", "float64")])
@pytest.mark.parametrize("layout", ["few_bins", "uneven", "unique"])
def test_at_many_repeats_exact(name, dtype, layout):
    # numpy applies repeated indices one after another; the result must match bit for bit
    rng = numpy.random.default_rng(4)
    n = 400
    size = {"few_bins": 7, "uneven": 300, "unique": n}[layout]
    if layout == "uneven":
        idx = numpy.where(rng.random(n) < 0.6, 0, rng.integers(0, size, n))  # one long run, many short ones
    elif layout == "unique":
        idx = rng.permutation(n)
    else:
        idx = rng.integers(-size, size, n)  # negative indices too
    if dtype == "bool":
        a0, v = rng.random(size) < 0.9, rng.random(n) < 0.97
    elif dtype.startswith(("int", "uint")):
        a0, v = rng.integers(0, 50, size).astype(dtype), rng.integers(0, 7, n).astype(dtype)
    else:
        a0, v = (rng.random(size) + 0.5).astype(dtype), (rng.random(n) * 0.02 + 0.995).astype(dtype)
        a0[0] = -0.0 if name == "add" else a0[0]
    ref = a0.copy()
    with numpy.errstate(all="ignore"):
        getattr(numpy, name).at(ref, idx, v)
    got = mnp.asarray(a0.copy())
    getattr(mnp, name).at(got, mnp.asarray(idx), mnp.asarray(v))
    g = numpy.asarray(got)
    assert g.dtype == ref.dtype
    numpy.testing.assert_array_equal(g, ref)
    assert numpy.array_equal(numpy.signbit(g), numpy.signbit(ref)) if ref.dtype.kind == "f" else True


def test_at_strided_and_2d_index():
    base, nbase = mnp.zeros((4, 6)), numpy.zeros((4, 6))
    v, nv = base[:, ::2], nbase[:, ::2]
    rows, cols = numpy.array([0, 0, 3, 3, 3, 1]), numpy.array([1, 1, 2, 2, 0, 1])
    vals = numpy.arange(1.0, 7.0)
    numpy.add.at(nv, (rows, cols), vals)
    mnp.add.at(v, (mnp.asarray(rows), mnp.asarray(cols)), mnp.asarray(vals))
    assert_same(base, nbase)
