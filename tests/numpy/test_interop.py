"""Interop: numpy.asarray / buffer protocol (zero-copy both ways), __array__, DLPack with numpy and
torch, Python conversions (tolist/item/float/int/bool), repr/str, len/iter."""
import numpy
import pytest

import mnn.numpy as mnp
from helpers import ALL_DTYPES, SHAPES, assert_same, non_contiguous, sample


# ------------------------------------------------------------------ numpy.asarray(mnn)

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_numpy_asarray_values(dtype, shape):
    x = sample(shape, dtype)
    a = mnp.asarray(x.copy())
    for src, ref in ((a, x), (a.T, x.T), (a[..., ::-1] if x.ndim else a, x[..., ::-1] if x.ndim else x)):
        n = numpy.asarray(src)
        assert n.dtype == ref.dtype and n.shape == ref.shape
        assert numpy.array_equal(n, ref, equal_nan=True)
    n = numpy.asarray(a * 1 if dtype != "bool" else a & a)  # a lazy result materialises
    assert numpy.array_equal(n, x * 1 if dtype != "bool" else x & x)


def test_numpy_view_sees_mnn_writes():
    a = mnp.arange(6, dtype="int32").reshape(2, 3)
    n = numpy.asarray(a)
    e = numpy.arange(6, dtype="int32").reshape(2, 3)
    a += 1
    e += 1
    assert numpy.array_equal(n, e)
    a[0, 1] = 100
    e[0, 1] = 100
    assert numpy.array_equal(n, e)
    row = a[1]
    row[:] = -3
    e[1] = -3
    assert numpy.array_equal(n, e)
    a *= 2
    e *= 2
    assert numpy.array_equal(n, e)


def test_mnn_sees_numpy_view_writes():
    a = mnp.arange(6, dtype="float64")
    n = numpy.asarray(a)
    v = a[1:4]
    n[2] = 42.0
    e = numpy.arange(6, dtype="float64")
    e[2] = 42.0
    assert_same(a, e)
    assert_same(v, e[1:4])
    assert_same(a * 2, e * 2)
    a += 1  # in place on the shared memory: numpy sees it too
    e += 1
    assert numpy.array_equal(n, e)
    n[0] = -1
    e[0] = -1
    assert_same(a, e)


def test_numpy_view_and_pending_reader():
    a = mnp.arange(4, dtype="int64")
    n = numpy.asarray(a)
    c = a * 10  # recorded before the write: keeps the old values
    a[0] = 7
    assert numpy.array_equal(n, [7, 1, 2, 3])
    assert_same(c, numpy.arange(4) * 10)
    assert_same(a, numpy.array([7, 1, 2, 3]))


def test_mnn_over_numpy_memory_writes_through():
    x = numpy.zeros((3, 4), dtype=numpy.float32)
    a = mnp.asarray(x)
    a[1] = 5
    a[:, 2] += 1
    e = numpy.zeros((3, 4), dtype=numpy.float32)
    e[1] = 5
    e[:, 2] += 1
    assert numpy.array_equal(x, e)
    assert_same(a, e)


def test_memoryview():
    x = sample((3, 4), "int16")
    a = mnp.asarray(x.copy())
    m = memoryview(a)
    mx = memoryview(x)
    assert m.format == mx.format and m.shape == mx.shape and m.strides == mx.strides
    assert m.itemsize == mx.itemsize and m.nbytes == mx.nbytes and m.readonly == mx.readonly
    assert m.tolist() == mx.tolist()
    assert bytes(m) == bytes(mx)
    t = memoryview(a.T)
    assert t.tolist() == memoryview(x.T).tolist()
    assert t.strides == memoryview(x.T).strides
    m[0, 0] = 999
    x[0, 0] = 999
    assert_same(a, x)
    b = mnp.broadcast_to(mnp.asarray(x[0]), (2, 4))
    assert memoryview(b).readonly == memoryview(numpy.broadcast_to(x[0], (2, 4))).readonly


@pytest.mark.parametrize("dtype", ["int32", "float16", "bool"])
def test_array_protocol_dtype_copy(dtype):
    x = sample((2, 3), dtype)
    a = mnp.asarray(x.copy())
    for dt in (None, "float64", "int8"):
        got = a.__array__() if dt is None else a.__array__(dt)
        exp = x.__array__() if dt is None else x.__array__(numpy.dtype(dt))
        assert got.dtype == exp.dtype and numpy.array_equal(got, exp)
        assert numpy.array_equal(numpy.asarray(a, dtype=dt), numpy.asarray(x, dtype=dt))
        assert numpy.array(a, dtype=dt).dtype == numpy.array(x, dtype=dt).dtype
    c = a.__array__(copy=True)
    c[...] = 0 if dtype != "bool" else False
    assert_same(a, x)
    c2 = numpy.array(a)  # numpy.array copies
    c2[...] = 1
    assert_same(a, x)


def test_array_interface_shapes():
    for shape in SHAPES:
        x = sample(shape, "float32")
        a = mnp.asarray(x)
        n = numpy.asarray(a)
        assert n.shape == x.shape and n.dtype == x.dtype


def test_numpy_functions_accept_mnn():
    x = sample((3, 4), "float64")
    a = mnp.asarray(x)
    assert numpy.allclose(numpy.sum(numpy.asarray(a), axis=0), x.sum(axis=0))
    assert numpy.array_equal(numpy.concatenate([numpy.asarray(a), x]), numpy.concatenate([x, x]))


# ------------------------------------------------------------------ DLPack

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4)])
def test_dlpack_numpy_both_ways(dtype, shape):
    x = sample(shape, dtype)
    a = mnp.asarray(x.copy())
    n = numpy.from_dlpack(a)
    assert n.dtype == x.dtype and n.shape == x.shape and numpy.array_equal(n, x)
    b = mnp.from_dlpack(x)
    assert_same(b, x)
    if x.ndim == 2:
        t = numpy.from_dlpack(a.T)
        assert numpy.array_equal(t, x.T)
        assert_same(mnp.from_dlpack(non_contiguous(x)), non_contiguous(x))


def test_dlpack_numpy_shares_memory():
    a = mnp.zeros(4, dtype="int32")
    n = numpy.from_dlpack(a)
    a[1] = 5
    assert n[1] == 5
    x = numpy.zeros(4, dtype=numpy.float32)
    b = mnp.from_dlpack(x)
    x[2] = 3
    assert_same(b, x.copy())


def test_dlpack_device():
    a = mnp.zeros(3)
    assert a.__dlpack_device__() == numpy.zeros(3).__dlpack_device__()


torch_dtypes = ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"]


@pytest.mark.parametrize("dtype", torch_dtypes)
def test_dlpack_torch_both_ways(dtype):
    torch = pytest.importorskip("torch")
    x = sample((3, 4), dtype)
    a = mnp.asarray(x.copy())
    t = torch.from_dlpack(a)
    assert t.numpy().dtype == x.dtype and numpy.array_equal(t.numpy(), x)
    a[0, 0] = x[0, 1]
    assert t[0, 0].item() == x[0, 1].item()
    tt = torch.from_numpy(x.copy())
    b = mnp.from_dlpack(tt)
    assert_same(b, x)
    b2 = mnp.asarray(tt)
    assert_same(b2, x)
    tt[1, 1] = 0
    assert mnp.asarray(b)[1, 1].item() == 0
    assert_same(mnp.from_dlpack(tt.T), x.T.copy() if False else tt.T.numpy())


def test_dlpack_torch_writes_visible():
    torch = pytest.importorskip("torch")
    t = torch.zeros(5)
    a = mnp.from_dlpack(t)
    a[2] = 7
    a += 1
    assert t.tolist() == (numpy.zeros(5, numpy.float32) + numpy.array([0, 0, 7, 0, 0], numpy.float32) + 1).tolist()


# ------------------------------------------------------------------ Python conversions

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_tolist(dtype, shape):
    x = sample(shape, dtype)
    a = mnp.asarray(x)
    got, exp = a.tolist(), x.tolist()
    assert got == exp
    assert type(got) is type(exp)
    flat_g = numpy.asarray(got, dtype=object).ravel().tolist() if x.ndim else [got]
    flat_e = numpy.asarray(exp, dtype=object).ravel().tolist() if x.ndim else [exp]
    assert [type(v) for v in flat_g] == [type(v) for v in flat_e]
    if x.ndim:
        assert mnp.asarray(non_contiguous(x)).tolist() == non_contiguous(x).tolist()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_item_and_scalars(dtype):
    x = sample((2, 3), dtype)
    a = mnp.asarray(x)
    for args in ((), (4,), (-1,), (1, 2), ((0, 1),)):
        if not args:
            with pytest.raises(ValueError):
                x.item()
            with pytest.raises(ValueError):
                a.item()
            continue
        g, e = a.item(*args), x.item(*args)
        assert g == e and type(g) is type(e)
    with pytest.raises(IndexError):
        x.item(6)
    with pytest.raises(IndexError):
        a.item(6)
    one = a[1:2, 2:3]
    xo = x[1:2, 2:3]
    assert one.item() == xo.item() and type(one.item()) is type(xo.item())
    for conv in (float, int):  # numpy 2.4: only 0-d arrays convert
        with pytest.raises(TypeError):
            conv(xo)
        with pytest.raises(TypeError):
            conv(one)
    assert bool(one) == bool(xo)
    z, xz = a[1, 2], x[1, 2]
    assert float(z) == float(xz) and bool(z) == bool(xz)
    if dtype not in ("float16", "float32", "float64"):
        assert int(z) == int(xz)
    else:
        assert int(mnp.asarray(numpy.array(2.7, dtype))) == int(numpy.array(2.7, dtype))


def test_scalar_conversion_errors():
    x = numpy.arange(3)
    a = mnp.arange(3)
    for conv in (float, int):
        with pytest.raises(TypeError):
            conv(x)
        with pytest.raises(TypeError):
            conv(a)
    with pytest.raises(ValueError):
        bool(x)
    with pytest.raises(ValueError):
        bool(a)
    with pytest.raises(ValueError):
        bool(numpy.zeros(0))
    with pytest.raises(ValueError):
        bool(mnp.zeros(0))
    assert operator_index(mnp.asarray(numpy.int8(5))) == operator_index(numpy.array(5, numpy.int8))
    with pytest.raises(TypeError):
        operator_index(numpy.array(2.0))
    with pytest.raises(TypeError):
        operator_index(mnp.asarray(2.0))
    with pytest.raises(TypeError):
        operator_index(mnp.arange(2))


def operator_index(v):
    import operator
    return operator.index(v)


def test_zero_d_conversions():
    for v in (3, -2.5, True, 0.0):
        x = numpy.array(v)
        a = mnp.asarray(v)
        assert float(a) == float(x) and bool(a) == bool(x) and int(a) == int(x)
        assert a.item() == x.item() and type(a.item()) is type(x.item())
        assert a.tolist() == x.tolist()


# ------------------------------------------------------------------ repr / str / len / iter

SAMPLES = [
    numpy.arange(6).reshape(2, 3), numpy.array([1.5, -2.25, 3.0]), numpy.array([True, False]), numpy.array(3.5),
    numpy.array(7, dtype=numpy.int8), numpy.zeros((0, 3)), numpy.array([1e10, 1e-5]), numpy.array([numpy.nan, numpy.inf]),
    numpy.arange(12, dtype=numpy.float32).reshape(2, 2, 3), numpy.array([1, 2], dtype=numpy.uint16),
    numpy.array([0.1, 0.2], dtype=numpy.float16), numpy.arange(2000), numpy.zeros(0, dtype=numpy.int32),
]


@pytest.mark.parametrize("x", SAMPLES, ids=lambda x: f"{x.dtype}{x.shape}")
def test_repr_str(x):
    a = mnp.asarray(x)
    assert repr(a) == repr(x)
    assert str(a) == str(x)
    if x.ndim >= 1 and x.size:
        assert repr(a[::-1]) == repr(x[::-1])


def test_len_iter():
    x = sample((3, 4), "int32")
    a = mnp.asarray(x)
    assert len(a) == len(x)
    rows = list(a)
    assert len(rows) == 3
    for r, e in zip(rows, x):
        assert_same(r, e)
    assert [v.item() for v in a[0]] == [v.item() for v in x[0]]
    with pytest.raises(TypeError):
        len(numpy.array(1))
    with pytest.raises(TypeError):
        len(mnp.asarray(1))
    with pytest.raises(TypeError):
        iter(numpy.array(1))
    with pytest.raises(TypeError):
        iter(mnp.asarray(1))
    assert list(mnp.zeros((0, 2))) == list(numpy.zeros((0, 2)))


def test_array_interface_for_pillow():
    # Pillow's Image.fromarray reads __array_interface__ directly (contiguous and strided arrays)
    Image = pytest.importorskip("PIL.Image")
    a = (mnp.arange(12 * 10 * 3) % 256).astype(mnp.uint8).reshape(12, 10, 3)
    for arr, mode in ((a, "RGB"), (a[..., 0].T, "L"), (mnp.linspace(0, 1, 12, dtype=mnp.float32).reshape(3, 4), "F")):
        im = Image.fromarray(arr)
        assert im.mode == mode
        numpy.testing.assert_array_equal(numpy.asarray(im), numpy.asarray(arr))
    ai = a.__array_interface__
    assert ai["shape"] == (12, 10, 3) and ai["typestr"] == "|u1" and ai["version"] == 3 and ai["strides"] is None
    t = a.transpose(1, 0, 2).__array_interface__
    ref = numpy.ascontiguousarray(numpy.asarray(a).transpose(1, 0, 2))
    assert t["strides"] == ref.strides
    numpy.testing.assert_array_equal(numpy.frombuffer(t["data"], dtype=numpy.uint8).reshape(t["shape"]), ref)
