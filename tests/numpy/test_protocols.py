"""Python protocols on ndarray against numpy: pickle (2-5, out-of-band), copy/deepcopy, scalar
conversions and their errors, hashing, numpy's __array_ufunc__ / __array_function__ dispatch,
errstate/seterr/geterr, may_share_memory/shares_memory, the Array API namespace."""
import copy
import operator
import pickle
import threading

import numpy
import pytest

import mnn.numpy as mnp
from helpers import ALL_DTYPES, SHAPES, assert_same, sample


def _layouts(x):
    m = mnp.asarray(x.copy())
    out = [(m, x)]
    if x.ndim >= 2:
        out.append((m.T, x.T))
    if x.ndim >= 1 and x.shape[-1] > 1:
        out.append((m[..., ::-2], x[..., ::-2]))
    return out


# ------------------------------------------------------------------ pickle and copy

@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_pickle_roundtrip(protocol, dtype, shape):
    x = sample(shape, dtype)
    for m, ref in _layouts(x):
        y = pickle.loads(pickle.dumps(m, protocol=protocol))
        assert isinstance(y, mnp.ndarray)
        assert_same(y, ref)
        if y.size:
            y[...] = y  # writable, and owns its memory: writing does not touch the original
            assert y.flags.writeable


def test_pickle_out_of_band_and_independent():
    m = mnp.arange(12.0).reshape(3, 4)
    buffers = []
    data = pickle.dumps(m, protocol=5, buffer_callback=buffers.append)
    assert len(buffers) == 1 and len(data) < 200  # the 96 data bytes travel out of band
    y = pickle.loads(data, buffers=buffers)
    assert_same(y, numpy.arange(12.0).reshape(3, 4))
    y[0, 0] = -1
    assert float(m[0, 0]) == 0.0
    nested = pickle.loads(pickle.dumps({"a": [m, m[1]]}))
    assert_same(nested["a"][1], numpy.arange(4.0, 8.0))


def test_copy_and_deepcopy():
    m = mnp.arange(6).reshape(2, 3)
    for c in (copy.copy(m), copy.deepcopy(m), m.copy()):
        assert_same(c, numpy.arange(6).reshape(2, 3))
        c[0, 0] = 100
        assert int(m[0, 0]) == 0
    box = [m, m]
    dup = copy.deepcopy(box)
    assert dup[0] is dup[1] and dup[0] is not m  # the memo keeps shared references shared
    view = copy.deepcopy(m[:, 1])
    assert_same(view, numpy.array([1, 4]))


# ------------------------------------------------------------------ scalar conversions

CONVERSIONS = [float, int, complex, bool, operator.index, lambda v: format(v, ".3f"), lambda v: format(v, ""),
               lambda v: format(v, ">10")]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float64"])
@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (0,), (3,), (2, 2)])
@pytest.mark.parametrize("conv", range(len(CONVERSIONS)))
def test_conversions_match_numpy(dtype, shape, conv):
    f = CONVERSIONS[conv]
    x = sample(shape, dtype, low=1 if dtype != "bool" else None)
    try:
        expected = f(x)
    except Exception as e:  # numpy's exception type, then ours with the mnn prefix
        with pytest.raises(type(e)):
            f(mnp.asarray(x))
        return
    got = f(mnp.asarray(x))
    if conv == 7 and x.ndim:  # padding a printed array: same text numpy prints
        assert got.strip() == expected.strip()
    else:
        assert got == expected and type(got) is type(expected)


def test_unhashable():
    m = mnp.zeros(3)
    with pytest.raises(TypeError):
        hash(m)
    with pytest.raises(TypeError):
        {m}
    # 0-d arrays stand in for numpy's (hashable) scalars: see test_zero_d_arrays_hash_like_numpy_scalars
    assert hash(mnp.asarray(1)) == hash(1)


# ------------------------------------------------------------------ numpy dispatch

def test_numpy_ufuncs_return_mnn():
    x = sample((3, 4), "float64")
    m = mnp.asarray(x.copy())
    cases = [(lambda np_, a: np_.add(a, 1)), (lambda np_, a: np_.multiply(a, a)), (lambda np_, a: np_.sqrt(abs(a))),
             (lambda np_, a: np_.maximum(a, 0.5)), (lambda np_, a: np_.greater(a, 0)),
             (lambda np_, a: np_.add.reduce(a)), (lambda np_, a: np_.add.reduce(a, axis=1, keepdims=True)),
             (lambda np_, a: np_.maximum.reduce(a, axis=None)), (lambda np_, a: np_.multiply.reduce(a, axis=-1)),
             (lambda np_, a: np_.add.accumulate(a)), (lambda np_, a: np_.add.accumulate(a, axis=1)),
             (lambda np_, a: np_.logical_and.reduce(a > -5)), (lambda np_, a: np_.exp(a))]
    for case in cases:
        got = case(numpy, m)
        assert isinstance(got, mnp.ndarray)
        assert_same(got, case(numpy, x), rtol=1e-12)
    # numpy operand on the left: numpy defers to mnn's __array_ufunc__
    got = x + m
    assert isinstance(got, mnp.ndarray)
    assert_same(got, x + x)
    out = mnp.zeros((3, 4))
    r = numpy.add(m, 1.0, out=out)
    assert r is out and numpy.array_equal(numpy.asarray(out), x + 1)
    r = numpy.add(m, 1.0, out=(out,))
    assert r is out


def test_numpy_ufuncs_mnn_lacks_raise_typeerror():
    m = mnp.arange(6.0)
    with pytest.raises(TypeError):
        numpy.add.reduceat(m, [0, 2], out=numpy.zeros(2))  # numpy cannot write mnn's result into its own array
    with pytest.raises(TypeError):
        numpy.add(m, 1, out=numpy.zeros(6))  # numpy cannot write an mnn result into its own array here
    with pytest.raises(TypeError):
        numpy.divmod(m, 2)  # two outputs


def test_numpy_functions_return_mnn():
    x = sample((4, 3), "float32")
    m = mnp.asarray(x.copy())
    cases = [lambda np_, a: np_.mean(a), lambda np_, a: np_.mean(a, axis=0), lambda np_, a: np_.sum(a, axis=1),
             lambda np_, a: np_.concatenate([a, a]), lambda np_, a: np_.stack([a, a], axis=1),
             lambda np_, a: np_.transpose(a), lambda np_, a: np_.reshape(a, (3, 4)), lambda np_, a: np_.std(a, axis=1),
             lambda np_, a: np_.clip(a, -1, 1), lambda np_, a: np_.where(a > 0, a, 0), lambda np_, a: np_.max(a),
             lambda np_, a: np_.cumsum(a, axis=0), lambda np_, a: np_.matmul(a, a.T), lambda np_, a: np_.dot(a.T, a),
             lambda np_, a: np_.round(a, 2), lambda np_, a: np_.expand_dims(a, 0), lambda np_, a: np_.flip(a, 1)]
    for case in cases:
        got = case(numpy, m)
        assert isinstance(got, mnp.ndarray), got
        assert_same(got, case(numpy, x), rtol=1e-5)
    assert numpy.shape(m) == (4, 3) and numpy.ndim(m) == 2 and numpy.size(m) == 12
    mixed = numpy.concatenate([m, x])  # a numpy operand among mnn ones
    assert isinstance(mixed, mnp.ndarray)
    assert_same(mixed, numpy.concatenate([x, x]))
    assert isinstance(numpy.asarray(m), numpy.ndarray)  # conversion itself still gives numpy's array
    lacking = [n for n in ("piecewise", "apply_over_axes", "polyval", "trapezoid", "unwrap") if not hasattr(mnp, n)]
    if lacking:
        with pytest.raises(TypeError, match="no implementation found"):
            getattr(numpy, lacking[0])(m, *([[m > 0], [1.0]] if lacking[0] == "piecewise" else
                                             [numpy.sum, [0]] if lacking[0] == "apply_over_axes" else
                                             [m] if lacking[0] == "polyval" else []))


def test_foreign_types_defer():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return "other-ufunc"

    m = mnp.arange(3.0)
    assert numpy.concatenate([m, Other()]) == "other"
    assert numpy.add(m, Other()) == "other-ufunc"


# ------------------------------------------------------------------ errstate

def test_errstate_seterr_geterr():
    default = numpy.geterr()
    assert mnp.geterr() == default
    old = mnp.seterr(divide="ignore", invalid="raise")
    assert old == default
    assert mnp.geterr() == dict(default, divide="ignore", invalid="raise")
    mnp.seterr(**old)
    assert mnp.geterr() == default
    with mnp.errstate(all="ignore"):
        assert set(mnp.geterr().values()) == {"ignore"}
        with mnp.errstate(over="raise"):
            assert mnp.geterr()["over"] == "raise"
        assert mnp.geterr()["over"] == "ignore"
    assert mnp.geterr() == default

    @mnp.errstate(divide="ignore")
    def f():
        return mnp.geterr()["divide"]
    assert f() == "ignore" and mnp.geterr()["divide"] == "warn"
    with pytest.raises(ValueError):
        numpy.seterr(divide="loud")
    with pytest.raises(ValueError, match=r"\[mnn\.numpy\.seterr\]"):
        mnp.seterr(divide="loud")
    assert mnp.geterr() == default
    try:
        with mnp.errstate(divide="ignore"):
            raise KeyError
    except KeyError:
        pass
    assert mnp.geterr() == default  # restored on the way out of an exception
    with mnp.errstate(divide="ignore"):  # values are numpy's whatever the state
        assert_same(mnp.asarray([1.0, 0.0, -1.0]) / 0.0, numpy.array([numpy.inf, numpy.nan, -numpy.inf]))
    seen = []
    with mnp.errstate(divide="ignore"):
        t = threading.Thread(target=lambda: seen.append(mnp.geterr()["divide"]))
        t.start()
        t.join()
    assert seen == ["warn"]  # per thread, as numpy's context-local state


# ------------------------------------------------------------------ memory overlap

VIEWS = [
    ("a", "a"), ("a", "a[1]"), ("a[0]", "a[1]"), ("a[:, ::2]", "a[:, 1::2]"), ("a[:, ::2]", "a[:, 2]"),
    ("a[::-1]", "a[2]"), ("a.T", "a[3:, 4:]"), ("a[1:3, 1:3]", "a[2:, 2:]"), ("a[1:3, 1:3]", "a[3:, 3:]"),
    ("a[:, 0]", "a[0, 1:]"), ("a[::2, ::3]", "a[1::2, 1::3]"), ("a", "b"), ("a[:0]", "a"), ("a.reshape(-1)[5:9]", "a[1]"),
]


@pytest.mark.parametrize("ea,eb", VIEWS)
def test_shares_memory_like_numpy(ea, eb):
    na, nb = numpy.arange(30.0).reshape(5, 6), numpy.arange(30.0).reshape(5, 6)
    ma, mb = mnp.arange(30.0).reshape(5, 6), mnp.arange(30.0).reshape(5, 6)
    x, y = eval(ea, {"a": na, "b": nb}), eval(eb, {"a": na, "b": nb})
    u, v = eval(ea, {"a": ma, "b": mb}), eval(eb, {"a": ma, "b": mb})
    assert mnp.shares_memory(u, v) == numpy.shares_memory(x, y)
    assert mnp.may_share_memory(u, v) == numpy.may_share_memory(x, y)


# ------------------------------------------------------------------ Array API

def test_array_api_namespace():
    array_api_compat = pytest.importorskip("array_api_compat")
    m = mnp.ones((2, 2))
    assert array_api_compat.array_namespace(m) is mnp
    assert array_api_compat.array_namespace(m, mnp.zeros(3)) is mnp
    assert m.__array_namespace__() is mnp


def test_zero_d_arrays_hash_like_numpy_scalars():
    # a[i], a.sum(), iteration give 0-d arrays where numpy gives hashable scalars
    import collections
    a = mnp.arange(4)
    assert hash(a[1]) == hash(numpy.arange(4)[1]) == hash(1)
    assert {1: "x"}[a[1]] == "x" and a[2] in {2, 3}
    assert collections.Counter(mnp.asarray([1, 2, 2, 3]))[2] == 2
    assert hash(mnp.asarray(2.5)) == hash(2.5) and hash(mnp.asarray(True)) == hash(True)
    assert len(set(mnp.asarray([1.0, 1.0, 2.0]))) == 2
    for x in (a, mnp.zeros((0,)), mnp.ones((2, 2))):
        with pytest.raises(TypeError, match="unhashable"):
            hash(x)
