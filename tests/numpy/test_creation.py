"""Array creation (array/asarray, filled arrays, ranges, eye, copies, frombuffer) against numpy."""
import numpy
import pytest

import mnn.numpy as mnp
from helpers import ALL_DTYPES, SHAPES, assert_same, non_contiguous, sample

NESTED = [
    0, 1.5, True, -3, 2**63, [], [[]], [1, 2, 3], [1, 2.5], [True, False], [True, 2], [[1, 2], [3, 4]],
    [[[1.0], [2.0]], [[3.0], [4.0]]], (1, 2), [(1, 2), (3, 4)], [-1, 2**63 - 1], [[1, 2], [3.5, 4]],
    # ints past int64 are discovered as uint64, and uint64 with int64 promotes to float64
    [2**63, 5], [5, 2**63], [-1, 2**63], [[2**63], [1]], [2**64 - 1, 2**63], [True, 2**63], [2**63, 1.5],
    [2**63, numpy.uint64(3)], [numpy.uint64(3), 2**63], [2**63, numpy.int64(3)], [numpy.int8(3), 2**63],
]


@pytest.mark.parametrize("obj", NESTED, ids=repr)
def test_array_from_python(obj):
    assert_same(mnp.array(obj), numpy.array(obj))
    assert_same(mnp.asarray(obj), numpy.asarray(obj))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("obj", [[1, 2, 3], [[0, 1], [1, 0]], 7, [0.0, 1.0], []], ids=repr)
def test_array_dtype_arg(obj, dtype):
    assert_same(mnp.array(obj, dtype=dtype), numpy.array(obj, dtype=dtype))


@pytest.mark.parametrize("obj", [[2**64], [-2**63 - 1], [1, 2**64], [numpy.int8(1), 2**64]], ids=repr)
def test_array_of_ints_past_uint64_raise(obj):
    # numpy makes an object array; mnn has no object dtype and says so
    with pytest.raises(OverflowError, match=r"\[mnn.numpy.array\]"):
        mnp.array(obj)


def test_array_ragged_raises():
    with pytest.raises(ValueError):
        numpy.array([[1, 2], [3]])
    with pytest.raises(ValueError):
        mnp.array([[1, 2], [3]])


def test_array_of_numpy_scalars_and_mixed():
    objs = [numpy.float32(1.5), numpy.int8(-3), [numpy.float32(1), numpy.float32(2)], [numpy.int16(1), 2]]
    for o in objs:
        assert_same(mnp.array(o), numpy.array(o))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_asarray_numpy_roundtrip(dtype, shape):
    x = sample(shape, dtype)
    assert_same(mnp.asarray(x), x)
    assert_same(mnp.array(x), x)
    nc = non_contiguous(x)
    assert_same(mnp.asarray(nc), nc)
    if x.ndim:
        rev = x[..., ::-1]
        assert_same(mnp.asarray(rev), rev)


def test_asarray_numpy_zero_copy():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    a = mnp.asarray(x)
    x[0, 1] = 100
    exp = x.copy()
    assert_same(a, exp)
    # a strided view of numpy memory is shared too
    y = numpy.arange(10, dtype=numpy.int32)[::-2]
    b = mnp.asarray(y)
    y[0] = -5
    assert_same(b, y.copy())


def test_array_copies_numpy():
    x = numpy.arange(6, dtype=numpy.int64)
    a = mnp.array(x)
    c = mnp.asarray(x, copy=True)
    exp = x.copy()
    x[:] = 0
    assert_same(a, exp)
    assert_same(c, exp)


def test_asarray_copy_false_errors():
    with pytest.raises(ValueError):
        numpy.asarray([1, 2], copy=False)
    with pytest.raises(ValueError):
        mnp.asarray([1, 2], copy=False)
    x = numpy.arange(3, dtype=numpy.int32)
    with pytest.raises(ValueError):
        numpy.asarray(x, dtype=numpy.float64, copy=False)
    with pytest.raises(ValueError):
        mnp.asarray(x, dtype=numpy.float64, copy=False)
    a = mnp.asarray(x, copy=False)
    x[1] = 9
    assert_same(a, x.copy())


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float16", "float64", "bool"])
def test_asarray_dtype_of_numpy(dtype):
    x = sample((3, 4), "float32")
    assert_same(mnp.asarray(x, dtype=dtype), numpy.asarray(x, dtype=dtype))


def test_asarray_mnn_is_identity_and_copy():
    a = mnp.arange(5)
    assert mnp.asarray(a) is a
    c = mnp.array(a)
    a[0] = 42
    assert_same(c, numpy.arange(5))
    assert_same(mnp.asarray(a, dtype="float32"), numpy.asarray(numpy.asarray(a), dtype="float32"))


@pytest.mark.parametrize("ndmin", [0, 1, 3])
def test_array_ndmin(ndmin):
    assert_same(mnp.array([1, 2], ndmin=ndmin), numpy.array([1, 2], ndmin=ndmin))
    assert_same(mnp.array(5, ndmin=ndmin), numpy.array(5, ndmin=ndmin))


# ------------------------------------------------------------------ filled arrays

SHAPE_ARGS = [(), 0, 5, (3, 4), (2, 0, 3), [2, 3]]


@pytest.mark.parametrize("dtype", ALL_DTYPES + [None])
@pytest.mark.parametrize("shape", SHAPE_ARGS, ids=repr)
def test_zeros_ones_full(shape, dtype):
    kw = {} if dtype is None else {"dtype": dtype}
    assert_same(mnp.zeros(shape, **kw), numpy.zeros(shape, **kw))
    assert_same(mnp.ones(shape, **kw), numpy.ones(shape, **kw))
    assert_same(mnp.full(shape, 3, **kw), numpy.full(shape, 3, **kw))
    e = mnp.empty(shape, **kw)
    ne = numpy.empty(shape, **kw)
    assert e.shape == ne.shape and e.dtype == ne.dtype


@pytest.mark.parametrize("fill", [1.5, -2, True, 2**40, numpy.float32(2.5), numpy.int8(3)], ids=repr)
def test_full_fill_dtype(fill):
    assert_same(mnp.full((2, 3), fill), numpy.full((2, 3), fill))


def test_full_array_fill():
    f = numpy.array([1, 2, 3], dtype=numpy.int16)
    assert_same(mnp.full((2, 3), mnp.asarray(f)), numpy.full((2, 3), f))
    assert_same(mnp.full((2, 3), [1.0, 2.0, 3.0]), numpy.full((2, 3), [1.0, 2.0, 3.0]))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_like(dtype, shape):
    x = sample(shape, dtype)
    a = mnp.asarray(x)
    assert_same(mnp.zeros_like(a), numpy.zeros_like(x))
    assert_same(mnp.ones_like(a), numpy.ones_like(x))
    assert_same(mnp.full_like(a, 1), numpy.full_like(x, 1))
    assert_same(mnp.zeros_like(a, dtype="float32"), numpy.zeros_like(x, dtype="float32"))
    assert_same(mnp.ones_like(a, shape=(2, 2)), numpy.ones_like(x, shape=(2, 2)))
    e, ne = mnp.empty_like(a), numpy.empty_like(x)
    assert e.shape == ne.shape and e.dtype == ne.dtype


def test_full_like_truncates():
    x = numpy.arange(4, dtype=numpy.int32)
    assert_same(mnp.full_like(mnp.asarray(x), 2.7), numpy.full_like(x, 2.7))


# ------------------------------------------------------------------ arange / linspace

ARANGE_ARGS = [
    (5,), (0,), (-3,), (2, 10), (10, 2), (10, 2, -1), (10, 2, -3), (0, 10, 3), (-5, 5, 2), (0, 1, 0.1),
    (1, 0, -0.1), (0.5, 4), (0, 5.5), (-1.5, 2.3, 0.7), (1e-3, 1, 0.33), (0, 2**40, 2**38), (3.0,), (0, -1, 0.25),
    (0, 10, 0.5), (1, 2, 0.3), (10, 0, -0.7),
]


@pytest.mark.parametrize("args", ARANGE_ARGS, ids=repr)
def test_arange(args):
    assert_same(mnp.arange(*args), numpy.arange(*args))


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d != "bool"])
@pytest.mark.parametrize("args", [(5,), (1, 9, 2), (9, 1, -2), (0, 3, 0.5)], ids=repr)
def test_arange_dtype(args, dtype):
    try:
        expected = numpy.arange(*args, dtype=dtype)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)):
            mnp.arange(*args, dtype=dtype)
        return
    assert_same(mnp.arange(*args, dtype=dtype), expected)


def test_arange_errors():
    with pytest.raises(ZeroDivisionError):
        numpy.arange(0, 5, 0)
    with pytest.raises(ZeroDivisionError):
        mnp.arange(0, 5, 0)


def test_arange_keyword_forms():
    assert_same(mnp.arange(start=2, stop=7), numpy.arange(start=2, stop=7))
    assert_same(mnp.arange(stop=4), numpy.arange(stop=4)) if _np_accepts_stop_only() else None
    assert_same(mnp.arange(numpy.int32(6)), numpy.arange(numpy.int32(6)))


def _np_accepts_stop_only():
    try:
        numpy.arange(stop=4)
        return True
    except TypeError:
        return False


LINSPACE = [
    dict(start=0, stop=1, num=5), dict(start=0, stop=1, num=5, endpoint=False), dict(start=-3, stop=7, num=11),
    dict(start=1, stop=0, num=4), dict(start=0, stop=10, num=1), dict(start=0, stop=10, num=0),
    dict(start=0, stop=1, num=1, endpoint=False), dict(start=2.5, stop=2.5, num=3),
    dict(start=0, stop=1, num=50), dict(start=0, stop=100, num=7, dtype="int32"),
    dict(start=0, stop=1, num=9, dtype="float32"), dict(start=-5, stop=5, num=6, dtype="int64"),
    dict(start=0, stop=1e-3, num=13), dict(start=0, stop=1, num=3, dtype="float16"),
]


@pytest.mark.parametrize("kw", LINSPACE, ids=repr)
def test_linspace(kw):
    assert_same(mnp.linspace(**kw), numpy.linspace(**kw))


@pytest.mark.parametrize("kw", LINSPACE, ids=repr)
def test_linspace_retstep(kw):
    with numpy.errstate(all="ignore"):
        ey, es = numpy.linspace(retstep=True, **kw)
    gy, gs = mnp.linspace(retstep=True, **kw)
    assert_same(gy, ey)
    gs = float(gs)
    if numpy.isnan(es):
        assert numpy.isnan(gs)
    else:
        assert gs == float(es)


def test_linspace_array_endpoints():
    s, e = numpy.array([0.0, 1.0]), numpy.array([1.0, 3.0])
    assert_same(mnp.linspace(mnp.asarray(s), mnp.asarray(e), 5), numpy.linspace(s, e, 5))
    assert_same(mnp.linspace(mnp.asarray(s), mnp.asarray(e), 5, axis=1), numpy.linspace(s, e, 5, axis=1))


def test_linspace_negative_num():
    with pytest.raises(ValueError):
        numpy.linspace(0, 1, -1)
    with pytest.raises(ValueError):
        mnp.linspace(0, 1, -1)


# ------------------------------------------------------------------ eye / identity

@pytest.mark.parametrize("N,M,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (3, 3, 5), (3, 3, -5), (0, None, 0),
                                   (1, 1, 0), (4, 6, -3), (4, 6, 5), (2, 3, 3)])
@pytest.mark.parametrize("dtype", ["float64", "int32", "bool", "float16", "uint8"])
def test_eye(N, M, k, dtype):
    assert_same(mnp.eye(N, M, k, dtype=dtype), numpy.eye(N, M, k, dtype=dtype))


@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("dtype", [None, "int8", "float32"])
def test_identity(n, dtype):
    assert_same(mnp.identity(n, dtype=dtype), numpy.identity(n, dtype=dtype))


def test_eye_is_writeable():
    a = mnp.eye(3)
    a[0, 2] = 5
    e = numpy.eye(3)
    e[0, 2] = 5
    assert_same(a, e)


# ------------------------------------------------------------------ copies

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_copy_and_contiguous(dtype, shape):
    x = sample(shape, dtype)
    for src in (x, non_contiguous(x), x[..., ::-1] if x.ndim else x, x.T):
        a = mnp.asarray(src)
        c = mnp.copy(a)
        assert_same(c, numpy.copy(src))
        assert_same(a.copy(), src.copy())
        ac = mnp.ascontiguousarray(a)
        assert_same(ac, numpy.ascontiguousarray(src))
        assert ac.flags.c_contiguous
        if src.size:
            assert ac.strides == numpy.ascontiguousarray(src).strides


def test_copy_is_independent():
    a = mnp.arange(6).reshape(2, 3)
    c = mnp.copy(a)
    v = a[:, 1]
    cv = v.copy()
    a[...] = -1
    assert_same(c, numpy.arange(6).reshape(2, 3))
    assert_same(cv, numpy.array([1, 4]))


def test_ascontiguousarray_dtype_and_scalar():
    assert_same(mnp.ascontiguousarray(mnp.arange(4), dtype="float32"),
                numpy.ascontiguousarray(numpy.arange(4), dtype="float32"))
    # numpy returns at least 1-d? (numpy 2 keeps 0-d)
    assert_same(mnp.ascontiguousarray(5), numpy.ascontiguousarray(5))


# ------------------------------------------------------------------ frombuffer

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_frombuffer(dtype):
    raw = bytes(range(48))
    assert_same(mnp.frombuffer(raw, dtype=dtype), numpy.frombuffer(raw, dtype=dtype))
    isz = numpy.dtype(dtype).itemsize
    assert_same(mnp.frombuffer(raw, dtype=dtype, count=2, offset=isz),
                numpy.frombuffer(raw, dtype=dtype, count=2, offset=isz))


def test_frombuffer_shares_and_readonly():
    ba = bytearray(16)
    a = mnp.frombuffer(ba, dtype="int32")
    ba[0] = 7
    assert_same(a, numpy.frombuffer(ba, dtype="int32").copy())
    ro = mnp.frombuffer(bytes(8), dtype="uint8")
    assert ro.flags.writeable == numpy.frombuffer(bytes(8), dtype="uint8").flags.writeable
    with pytest.raises(ValueError):
        ro[0] = 1


def test_frombuffer_errors():
    for kw in (dict(dtype="int32"), dict(dtype="uint8", count=10), dict(dtype="uint8", offset=9)):
        with pytest.raises(ValueError):
            numpy.frombuffer(bytes(7), **kw)
        with pytest.raises(ValueError):
            mnp.frombuffer(bytes(7), **kw)
    assert_same(mnp.frombuffer(bytes(8), dtype="float64"), numpy.frombuffer(bytes(8), dtype="float64"))


@pytest.mark.parametrize("make", [lambda m: m.ones(10**12), lambda m: m.arange(10**12), lambda m: m.empty((10**6, 10**7)),
                                  lambda m: m.repeat(m.ones(3), 10**12), lambda m: m.linspace(0, 1, 10**12)])
def test_an_array_no_memory_could_hold_fails_where_it_is_asked_for(make):
    # numpy raises MemoryError on the line; a lazy node must not wait until it is evaluated
    with pytest.raises(MemoryError, match=r"^\[mnn\.numpy\.\w+\] Unable to allocate [\d.]+ [TPG]iB for an array with shape"):
        make(mnp)
    with pytest.raises(MemoryError):
        make(numpy)


def test_an_array_whose_byte_size_overflows_is_refused():
    with pytest.raises(ValueError, match="array is too big"):
        mnp.eye(10**12)
    with pytest.raises(ValueError, match="array is too big"):
        numpy.eye(10**12)
    # views need no memory of their own: numpy allows them, and so do we
    assert mnp.broadcast_to(mnp.ones(1), (10**12,)).shape == numpy.broadcast_to(numpy.ones(1), (10**12,)).shape
