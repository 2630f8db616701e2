"""The small-call shortcuts the numpy scripts take (fill_diagonal through a strided window, a[mask] and
a[rows, cols] without the key parse, kept eye/triangle constants, trace, np.array of arrays, bool/
float/int/.T as C slots) give numpy's values, dtypes and errors, and never share memory."""
import numpy
import pytest

import mnn.numpy as mnp

RNG = numpy.random.default_rng(1313)


def same(ref, got):
    got = numpy.asarray(got)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    numpy.testing.assert_array_equal(got, ref)


# ---- fill_diagonal --------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(5, 5), (7, 3), (3, 7), (4, 4, 4), (2, 2, 2, 2), (9, 4), (1, 1)])
@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "uint8", "bool"])
@pytest.mark.parametrize("val", [3, 2.7, [1, 2], "diag", True])
def test_fill_diagonal_matches_numpy(shape, wrap, dtype, val):
    if isinstance(val, str):
        val = numpy.arange(1, min(shape) + 1)
    a = RNG.integers(0, 9, size=shape).astype(dtype)
    b = mnp.asarray(a.copy())
    numpy.fill_diagonal(a, val, wrap=wrap)
    mnp.fill_diagonal(b, val, wrap=wrap)
    same(a, b)


def test_fill_diagonal_writes_through_views_and_aliases():
    a = numpy.arange(36.0).reshape(6, 6)
    b = mnp.asarray(a.copy())
    alias = b[:]
    numpy.fill_diagonal(a[1:], -1.0)       # contiguous window of a bigger array
    mnp.fill_diagonal(b[1:], -1.0)
    numpy.fill_diagonal(a[:, ::2], 7.0)    # strided: the general path
    mnp.fill_diagonal(b[:, ::2], 7.0)
    same(a, b)
    same(a, alias)


def test_fill_diagonal_read_only_and_bad_input():
    ro = mnp.broadcast_to(mnp.zeros(3), (3, 3))
    with pytest.raises(ValueError, match=r"\[mnn\.numpy"):
        mnp.fill_diagonal(ro, 1.0)
    with pytest.raises(ValueError, match=r"\[mnn\.numpy\.fill_diagonal\]"):
        mnp.fill_diagonal(mnp.zeros(3), 1.0)


# ---- fancy indexing shortcuts -----------------------------------------------------------------

@pytest.mark.parametrize("shape", [(5, 6), (4, 5, 3), (3, 4, 2, 2)])
@pytest.mark.parametrize("kshape", [(7,), (2, 3), (0,)])
@pytest.mark.parametrize("kdtype", ["int64", "int32", "uint8"])
def test_index_tuples_get_and_set(shape, kshape, kdtype):
    for n in range(2, len(shape) + 1):
        lo = 0 if kdtype == "uint8" else -1
        keys = tuple(RNG.integers(lo * shape[i], shape[i], size=kshape).astype(kdtype) for i in range(n))
        a = RNG.normal(size=shape)
        b = mnp.asarray(a.copy())
        mk = tuple(mnp.asarray(k) for k in keys)
        same(a[keys], b[mk])
        v = RNG.normal(size=kshape + shape[n:])
        a[keys] = v
        b[mk] = mnp.asarray(v)
        same(a, b)
        a[keys] = 3.5
        b[mk] = 3.5
        same(a, b)


def test_index_tuples_errors():
    a = mnp.zeros((3, 4))
    i, j = mnp.asarray([0, 5]), mnp.asarray([0, 1])
    with pytest.raises(IndexError, match=r"\[mnn\.numpy\.__getitem__\] index 5 is out of bounds for axis 0"):
        a[i, j]
    with pytest.raises(IndexError, match=r"\[mnn\.numpy\.__setitem__\] index -5 is out of bounds for axis 1"):
        a[j, mnp.asarray([0, -5])] = 1.0
    with pytest.raises(ValueError, match=r"\[mnn\.numpy\.__setitem__\] shape mismatch"):
        a[j, j] = mnp.ones(3)


def test_boolean_mask_get():
    x = RNG.normal(size=(4, 5, 3))
    X = mnp.asarray(x)
    for m in (x[..., 0] > 0, x[:, 0, 0] > 0, x > 0, numpy.zeros(4, bool)):
        same(x[m], X[mnp.asarray(m)])
    r = RNG.normal(size=30)
    same(r[r > 0.3], mnp.asarray(r)[mnp.asarray(r) > 0.3])
    same(x[:, ::2][x[:, ::2, 0] > 0], X[:, ::2][mnp.asarray(x[:, ::2, 0] > 0)])  # not contiguous
    with pytest.raises(IndexError, match=r"\[mnn\.numpy\.__getitem__\] boolean index did not match"):
        X[mnp.ones(3, dtype=bool)]


# ---- kept constants ----------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(4,), (3, 5), (5, 3, 1), (5, 3, -2), (4, 4, 7), (0,), (1,), (3, 3, 0, "int32"),
                                  (3, 3, 1, bool), (2, 2, 0, "complex64"), (2, 3, 0, "float32")])
def test_eye_is_a_fresh_array_each_call(args):
    ref = numpy.eye(*args)
    b = mnp.eye(*args)
    b2 = mnp.eye(*args)
    same(ref, b)
    if b.size:
        b[0] = 9  # a write reaches neither the kept constant nor another call's result
    same(ref, b2)
    same(ref, mnp.eye(*args))


@pytest.mark.parametrize("fn", ["triu_indices", "tril_indices"])
@pytest.mark.parametrize("n,k,m", [(12, 1, None), (5, 0, 7), (7, -2, 3), (1, 0, None), (0, 0, None), (6, 10, None)])
def test_triangle_indices_are_fresh_arrays(fn, n, k, m):
    ref = getattr(numpy, fn)(n, k, m)
    got = getattr(mnp, fn)(n, k, m)
    assert len(got) == len(ref)
    for r, g in zip(ref, got):
        same(r, g)
    if got[0].size:
        got[0][0] = 99
    for r, g in zip(ref, getattr(mnp, fn)(n, k, m)):
        same(r, g)


@pytest.mark.parametrize("args", [(), (1,), (-2,), (0, 1, 0), (1, 0, 1), (5,)])
def test_trace(args):
    K = numpy.arange(24.0).reshape(4, 6)
    same(numpy.asarray(numpy.trace(K, *args)), mnp.trace(mnp.asarray(K), *args))
    K3 = numpy.arange(60).reshape(3, 4, 5).astype(numpy.int8)
    if len(args) != 3 or args[1] != args[2]:
        same(numpy.asarray(numpy.trace(K3, *args)), mnp.trace(mnp.asarray(K3), *args))
    same(numpy.asarray(numpy.trace(K, dtype=numpy.float32)), mnp.trace(mnp.asarray(K), dtype="float32"))


# ---- np.array of arrays ------------------------------------------------------------------------

def test_array_of_arrays():
    x = mnp.asarray(numpy.array([1.5, 2.5, 3.5]))
    cases = [[x[0], x[1]], [x, x * 2], (x[0].astype("float32"), x[1].astype("float32")), [x[0].astype("int32"), x[1]],
             [(x > 2)[0], (x > 2)[1]], [mnp.asarray(numpy.int8(3)), mnp.asarray(numpy.uint8(200))], [x[0]],
             [mnp.asarray(1 + 2j), x[0]], [mnp.trace(mnp.eye(3) * i) for i in range(60)]]
    for lst in cases:
        same(numpy.array([numpy.asarray(v) for v in lst]), mnp.array(lst))
        same(numpy.asarray([numpy.asarray(v) for v in lst]), mnp.asarray(lst))
    same(numpy.array([numpy.asarray(v) for v in cases[0]], ndmin=3), mnp.array(cases[0], ndmin=3))
    # mixed with Python scalars, or of different shapes: the general path (numpy's errors)
    same(numpy.array([1.5, 2]), mnp.array([x[0], 2]))
    with pytest.raises(ValueError):
        mnp.array([x, x[0:2]])


def test_array_of_arrays_is_a_copy_of_the_values():
    a = mnp.zeros(3)
    b = mnp.array([a, a])
    a[0] = 5
    a += 1
    v = a[1:]
    v[:] = 7
    same(numpy.zeros((2, 3)), b)


def test_array_of_tracked_arrays_keeps_values_only():
    w = mnp.asarray([1.0, 2.0], requires_grad=True)
    got = mnp.array([w[0] * 2, w[1]])
    same(numpy.array([2.0, 2.0]), got)
    assert not got.requires_grad


# ---- scalar conversions ------------------------------------------------------------------------

def test_scalar_slots_match_numpy():
    x = mnp.asarray([1.5, 0.0, -2.0])
    assert bool(x[0]) is True and bool(x[1]) is False and bool(mnp.asarray([True])) is True
    assert float(x[2]) == -2.0 and type(float(x[2])) is float
    assert int(mnp.asarray(-2.7)) == -2 and int(mnp.asarray(numpy.uint64(2 ** 63 + 5))) == 2 ** 63 + 5
    assert float(mnp.asarray(True)) == 1.0
    assert float(mnp.asarray(numpy.float32(0.1))) == float(numpy.float32(0.1))
    assert bool(mnp.asarray(float("nan"))) is True
    y = mnp.asarray(3.0) * 2 + 1  # pending: evaluated by the conversion
    assert float(y) == 7.0 and int(y) == 7 and bool(y - 7) is False
    a = numpy.arange(6).reshape(2, 3)
    same(a.T, mnp.asarray(a).T)
    same(numpy.arange(3).T, mnp.arange(3).T)
    same(numpy.asarray(3).T, mnp.asarray(3).T)
    t = mnp.asarray(a.copy()).T
    t[0, 1] = 50  # .T is a view
    assert int(t.T[1, 0]) == 50


@pytest.mark.parametrize("bad,conv,err,msg", [
    ([1.0, 2.0], bool, ValueError, r"\[mnn\.numpy\.ndarray\.__bool__\] The truth value of an array with more"),
    ([], bool, ValueError, r"\[mnn\.numpy\.ndarray\.__bool__\] The truth value of an empty array"),
    ([1.0], float, TypeError, r"\[mnn\.numpy\.ndarray\.__float__\] only 0-dimensional arrays"),
    ([[1]], int, TypeError, r"\[mnn\.numpy\.ndarray\.__int__\] only 0-dimensional arrays"),
    (1 + 2j, float, TypeError, r"complex"),
    (float("nan"), int, ValueError, r"NaN"),
])
def test_scalar_slot_errors(bad, conv, err, msg):
    with pytest.raises(err, match=msg):
        conv(mnp.asarray(bad))
    with pytest.raises(err):
        conv(numpy.asarray(bad))


# ---- x ** 2, x ** -1, x ** 0.5: numpy's fast scalar powers --------------------------------------

_SPECIAL = numpy.array([-0.0, 0.0, -numpy.inf, numpy.inf, numpy.nan, -2.0, 3.0, 1e200, 1e-200, 1e-310, 7.5e-155])


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64", "int8", "uint8", "bool"])
@pytest.mark.parametrize("exponent", [2, 0.5, -1])
def test_scalar_power_bits_and_warnings(dtype, exponent):
    # numpy runs square / sqrt / reciprocal for these Python exponents: same bits, same warnings
    import warnings
    if numpy.dtype(dtype).kind == "f":
        x = numpy.concatenate([_SPECIAL, RNG.normal(size=2000), RNG.normal(size=500) * 1e150]).astype(dtype)
    elif dtype == "bool":
        x = numpy.array([True, False, True])
    else:
        x = RNG.integers(-100 if dtype != "uint8" else 0, 100, size=37).astype(dtype)
    x = x[::2]  # a strided view too
    with warnings.catch_warnings(record=True) as wr:
        warnings.simplefilter("always")
        try:
            ref = x ** exponent
        except (ValueError, OverflowError) as e:
            ref = type(e)
    with warnings.catch_warnings(record=True) as wg:
        warnings.simplefilter("always")
        if not isinstance(ref, numpy.ndarray):
            with pytest.raises(ref):
                numpy.asarray(mnp.asarray(x) ** exponent)
            return
        got = numpy.asarray(mnp.asarray(x) ** exponent)
    assert got.dtype == ref.dtype
    numpy.testing.assert_array_equal(got.view(numpy.uint8), ref.view(numpy.uint8))  # bit for bit
    assert sorted(str(w.message) for w in wr if "cast" not in str(w.message)) == \
        sorted(str(w.message).split("] ")[-1] for w in wg)
