"""mnn.numpy.bfloat16 against ml_dtypes.bfloat16 (numpy arrays of that dtype are the reference).

Conventions checked here (see mnn/numpy/_dtypes.py):
- storage is 2 bytes, arithmetic is float32 rounded to nearest even after every op, as ml_dtypes;
- reductions (sum, prod, mean) accumulate in float32 and round once; ml_dtypes' own np.sum adds in
  bfloat16 one element at a time, so the reference is its float32 sum rounded;
- matmul multiplies in float32 and rounds the result;
- Python float scalars keep bfloat16 (ml_dtypes gives float32 there; mnn follows float16's rule).
"""
import warnings

import numpy as onp
import pytest

import mnn.numpy as np

ml_dtypes = pytest.importorskip("ml_dtypes")
BF = onp.dtype(ml_dtypes.bfloat16)


def ref(values):
    """float32 values rounded by ml_dtypes."""
    return onp.asarray(values, dtype=onp.float32).astype(BF)


def bits(a):
    return onp.asarray(a).view(onp.uint16)


def assert_same(got, want):
    """Same dtype (bfloat16), shape and bits; NaNs compare by sign and NaN-ness only."""
    g = onp.asarray(got)
    assert g.dtype == BF, g.dtype
    assert g.shape == want.shape
    gb, wb = bits(g).astype(onp.uint32), bits(want).astype(onp.uint32)
    gnan = onp.isnan(g.astype(onp.float32))
    wnan = onp.isnan(want.astype(onp.float32))
    onp.testing.assert_array_equal(gnan, wnan)
    onp.testing.assert_array_equal(onp.where(gnan, gb >> 15, gb), onp.where(wnan, wb >> 15, wb))


def mk(x):
    """mnn bfloat16 array with the same values as the ml_dtypes array x."""
    return np.asarray(x.astype(onp.float32)).astype(np.bfloat16)


# float32 bit patterns that exercise rounding: ties to even both ways, just above/below ties,
# subnormals, the overflow threshold, infinities, NaNs of both signs, signed zeros.
EDGE = onp.array([0x3F808000, 0x3F818000, 0x3F808001, 0x3F807FFF, 0x00000001, 0x00008000, 0x00018000,
                  0x007FFFFF, 0x7F7F7FFF, 0x7F7F8000, 0x7F7FFFFF, 0xFF7F8000, 0x7F800000, 0xFF800000,
                  0x7FC00000, 0xFFC00000, 0x7F800001, 0x00000000, 0x80000000, 0x3EAAAAAB, 0xC2F6E979],
                 dtype=onp.uint32).view(onp.float32)


def test_dtype_object():
    d = np.dtype(np.bfloat16)
    assert d.name == "bfloat16" and d.itemsize == 2 and d.kind == "f"
    assert np.dtype("bfloat16") is d
    assert np.dtype(ml_dtypes.bfloat16) is d and np.dtype(BF) is d
    assert onp.dtype(d) == BF
    assert np.finfo(np.bfloat16).eps == float(ml_dtypes.finfo(ml_dtypes.bfloat16).eps)
    assert np.finfo(np.bfloat16).max == float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)
    assert np.finfo(np.bfloat16).tiny == float(ml_dtypes.finfo(ml_dtypes.bfloat16).tiny)
    assert np.finfo(np.bfloat16).smallest_subnormal == float(ml_dtypes.finfo(ml_dtypes.bfloat16).smallest_subnormal)


def test_promotion():
    assert np.promote_types(np.bfloat16, np.float16) == np.float32
    assert np.promote_types(np.bfloat16, np.float32) == np.float32
    assert np.promote_types(np.bfloat16, np.float64) == np.float64
    for t in (np.bool_, np.int8, np.uint8):
        assert np.promote_types(np.bfloat16, t) == np.bfloat16
    assert np.promote_types(np.bfloat16, np.int16) == np.float32
    assert np.promote_types(np.bfloat16, np.int32) == np.float64
    assert np.can_cast(np.bfloat16, np.float32) and not np.can_cast(np.float16, np.bfloat16)
    assert not np.can_cast(np.bfloat16, np.float16) and np.can_cast(np.int8, np.bfloat16)
    a = np.ones(3, np.bfloat16)
    # operators promote in the engine: the same answers as ml_dtypes' ufunc loops
    for t in (np.bool_, np.int8, np.uint8, np.int16, np.int32, np.float16, np.float32, np.float64):
        want = (onp.ones(3, BF) + onp.ones(3, onp.dtype(t.__name__ if t is not np.bool_ else "bool"))).dtype
        got = (a + np.ones(3, t)).dtype
        assert onp.dtype(got) == want, (t, got, want)
    assert (a + 1.5).dtype == np.bfloat16 and (a * 2).dtype == np.bfloat16


@pytest.mark.parametrize("src", ["float32", "float64", "float16", "int32", "int64", "uint8", "bool"])
def test_cast_to_bfloat16(src):
    if src in ("float32", "float64"):
        extra = onp.array([1e39, -1e39, 1e-45, 3.3895314e38, 3.3961776e38, 1 + 2.0 ** -8 + 2.0 ** -30])
        with onp.errstate(all="ignore"), np.errstate(all="ignore"):
            x = onp.concatenate([EDGE.astype(src), extra.astype(src)])
    elif src == "float16":
        x = onp.array([0.1, 65504, -6e-8, onp.inf, onp.nan, 1 / 3], onp.float16)
    elif src == "bool":
        x = onp.array([True, False])
    else:
        info = onp.iinfo(src)
        x = onp.array([0, 1, 255, 257, 65535, 16777217, 16777219, -3], onp.int64).astype(src)
        x = onp.concatenate([x, onp.array([info.max, info.min], src)])
    with onp.errstate(all="ignore"), np.errstate(all="ignore"):
        want = x.astype(BF)
        got = onp.asarray(np.asarray(x).astype(np.bfloat16))
    assert_same(got, want)


@pytest.mark.parametrize("dst", ["float32", "float64", "float16", "int32", "uint8", "int64", "bool"])
def test_cast_from_bfloat16(dst):
    x = ref(onp.array([0, 1.5, -2.75, 255, 3e4, -0.0, 1e-39, 7.0e4], onp.float32))
    if dst in ("float32", "float64", "float16"):
        x = onp.concatenate([x, ref([onp.inf, -onp.inf, onp.nan])])
    got = onp.asarray(mk(x).astype(dst))
    with onp.errstate(all="ignore"), np.errstate(all="ignore"):
        want = x.astype(dst)
    assert got.dtype == want.dtype
    onp.testing.assert_array_equal(got, want)


def test_python_scalars_and_lists():
    vals = [1.0, 0.1, 1e39, -1e-42, float("nan"), 1 + 2.0 ** -8, 3.0]
    got = np.array(vals, dtype=np.bfloat16)
    with onp.errstate(over="ignore"):  # ml_dtypes warns for 1e39 -> inf
        want_bf = onp.array(vals).astype(BF)
    assert_same(got, want_bf)
    out = got.tolist()
    want = want_bf.astype(onp.float64).tolist()
    assert [type(v) for v in out] == [float] * len(vals)
    assert [repr(v) for v in out] == [repr(v) for v in want]
    assert got[1].item() == float(ml_dtypes.bfloat16(0.1))
    assert float(np.bfloat16(0.1)) == float(ml_dtypes.bfloat16(0.1))


def _rand(shape, seed=0, lo=-4, hi=4):
    r = onp.random.default_rng(seed)
    return (r.uniform(lo, hi, size=shape) * r.choice([1, 1, 1, 37.1, 0.013], size=shape)).astype(onp.float32).astype(BF)


BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "arctan2", "hypot"]
UNARY = ["negative", "absolute", "sqrt", "exp", "log", "sin", "tanh", "floor", "rint", "square", "reciprocal",
         "log1p", "expm1"]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 5), (2, 3, 9)])
def test_binary(name, shape):
    a, b = _rand(shape, 1), _rand(shape, 2)
    if name == "power":
        a = onp.abs(a.astype(onp.float32)).astype(BF)
        b = (b.astype(onp.float32) / 4).astype(BF)
    with onp.errstate(all="ignore"), np.errstate(all="ignore"):
        want = getattr(onp, name)(a, b)
        got = getattr(np, name)(mk(a), mk(b))
        assert_same(got, want)


@pytest.mark.parametrize("name", UNARY)
def test_unary(name):
    a = onp.concatenate([_rand((37,), 3), ref([0.0, -0.0, onp.inf, -onp.inf, onp.nan, 89.0, -1.0])])
    with onp.errstate(all="ignore"), np.errstate(all="ignore"):
        want = getattr(onp, name)(a)
        got = getattr(np, name)(mk(a))
        assert_same(got, want)


def test_comparisons_and_nan():
    a = ref([1.0, onp.nan, 2.0, -onp.inf, 0.0])
    b = ref([1.0, onp.nan, 3.0, -onp.inf, -0.0])
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        with onp.errstate(invalid="ignore"):  # ml_dtypes' ordered compares warn on NaN; numpy's own do not
            want = getattr(onp, name)(a, b)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # and mnn's do not either
            onp.testing.assert_array_equal(onp.asarray(getattr(np, name)(mk(a), mk(b))), want)
    onp.testing.assert_array_equal(onp.asarray(np.isnan(mk(a))), onp.isnan(a))
    onp.testing.assert_array_equal(onp.asarray(np.isinf(mk(a))), onp.isinf(a))


def test_fused_chain_rounds_every_op():
    # (a * b + c) / d - a: ml_dtypes rounds after every ufunc; fusing must not skip those roundings
    a, b, c, d = (_rand((5, 67), s) for s in range(4))
    want = (a * b + c) / d - a
    x, y, z, w = (mk(v) for v in (a, b, c, d))
    assert_same((x * y + z) / w - x, want)
    assert_same(x * 0.1, a * ml_dtypes.bfloat16(0.1))  # a Python float becomes a bfloat16 scalar


def test_non_contiguous_and_broadcast():
    a = _rand((6, 10), 5)
    x = mk(a)
    assert_same(x[::2, 1::3], a[::2, 1::3])
    assert_same(x.T + x.T, a.T + a.T)
    assert_same(x[:, ::-2] * x[0, ::-2], a[:, ::-2] * a[0, ::-2])
    assert_same(np.ascontiguousarray(x.T), onp.ascontiguousarray(a.T))


@pytest.mark.parametrize("shape,axis", [((37,), None), ((0,), None), ((4, 33), 0), ((4, 33), 1), ((3, 5, 7), (0, 2)),
                                        ((), None)])
def test_sum_prod_mean(shape, axis):
    a = _rand(shape, 7)
    x = mk(a)
    f = a.astype(onp.float32)
    assert_same(np.sum(x, axis=axis), onp.asarray(onp.sum(f, axis=axis)).astype(BF))
    assert_same(np.prod(x / 4, axis=axis), onp.asarray(onp.prod((f / 4).astype(BF).astype(onp.float32), axis=axis)).astype(BF))
    if a.size:
        assert_same(np.max(x, axis=axis), onp.asarray(onp.max(a, axis=axis)))
        assert_same(np.min(x, axis=axis), onp.asarray(onp.min(a, axis=axis)))
        onp.testing.assert_array_equal(onp.asarray(np.argmax(x, axis=None)), onp.argmax(f, axis=None))


def test_sum_accumulates_in_float32():
    a = onp.full(1000, 1 + 2.0 ** -7, onp.float32).astype(BF)
    got = np.sum(mk(a))
    assert got.dtype == np.bfloat16
    assert float(got) == float(onp.float32(a.astype(onp.float32).sum()).astype(BF))  # 1008, not ml_dtypes' 512


def test_reduce_nan_and_any_all():
    a = ref([1.0, onp.nan, 3.0])
    assert onp.isnan(float(np.max(mk(a)))) and onp.isnan(float(np.sum(mk(a))))
    assert bool(np.any(mk(ref([0.0, -0.0, 0.5])))) and not bool(np.all(mk(ref([0.0, 1.0]))))


@pytest.mark.parametrize("ma,mb", [((3, 5), (5, 4)), ((1, 17), (17, 1)), ((7,), (7, 3)), ((2, 4, 6), (6, 5)), ((0, 3), (3, 2))])
def test_matmul(ma, mb):
    a, b = _rand(ma, 11), _rand(mb, 12)
    want = onp.matmul(a.astype(onp.float32), b.astype(onp.float32)).astype(BF)
    got = np.matmul(mk(a), mk(b))
    assert got.dtype == np.bfloat16
    assert_same(got, want)
    assert_same(mk(a) @ mk(b).astype(np.float32).astype(np.bfloat16), want)


def test_numpy_interop_roundtrip():
    a = onp.concatenate([_rand((13,), 9), ref([onp.inf, onp.nan, -0.0, 1e-40])])
    x = np.asarray(a)  # an ml_dtypes array comes in bit for bit
    assert x.dtype == np.bfloat16
    assert_same(x, a)
    assert_same(np.asarray(a.reshape(1, -1)[:, ::2]), a[::2].reshape(1, -1))
    back = onp.asarray(x)
    assert back.dtype == BF
    assert_same(back, a)
    assert onp.asarray(np.zeros((0, 3), np.bfloat16)).dtype == BF
    assert onp.asarray(x, dtype=onp.float32).dtype == onp.float32


def test_buffer_protocol_refused_with_message():
    with pytest.raises(BufferError, match="bfloat16"):
        memoryview(np.ones(3, np.bfloat16))


def test_printing():
    x = np.array([1.0, 2.5, -0.1], np.bfloat16)
    assert repr(x) == "array([ 1. ,  2.5, -0.1], dtype=bfloat16)"  # shortest digits that round-trip in bfloat16
    assert str(np.array(1.5, np.bfloat16)) == "1.5"


def test_creation_and_sort():
    onp.testing.assert_array_equal(onp.asarray(np.arange(5, dtype=np.bfloat16)).astype(onp.float32),
                                   onp.arange(5, dtype=onp.float32))
    assert_same(np.zeros((2, 3), np.bfloat16), onp.zeros((2, 3), BF))
    assert_same(np.full(4, 0.1, np.bfloat16), onp.full(4, 0.1).astype(BF))
    a = ref([3.0, -1.0, onp.nan, 0.5, -onp.inf])
    assert_same(np.sort(mk(a)), onp.sort(a.astype(onp.float32)).astype(BF))
    assert_same(np.cumsum(mk(a[:2])), onp.cumsum(a[:2]))


def test_numpy_export_without_ml_dtypes(monkeypatch):
    # Without ml_dtypes numpy cannot hold bfloat16: np.asarray gives float32 (every bfloat16 value
    # exactly) and asking numpy for the dtype itself says what is missing.
    import sys
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)  # makes `import ml_dtypes` fail
    x = np.array([1.5, -0.1, float("inf")], np.bfloat16)
    f = onp.asarray(x)
    assert f.dtype == onp.float32
    onp.testing.assert_array_equal(f, ref([1.5, -0.1, onp.inf]).astype(onp.float32))
    with pytest.raises(TypeError, match="ml_dtypes"):
        np.dtype(np.bfloat16).__numpy_dtype__


def test_dlpack_with_torch():
    torch = pytest.importorskip("torch")
    x = np.array([1.5, -2.25, 3e38, 0.1], np.bfloat16)
    t = torch.from_dlpack(x)
    assert t.dtype == torch.bfloat16
    want = ref([1.5, -2.25, 3e38, 0.1])
    onp.testing.assert_array_equal(t.view(torch.int16).numpy().view(onp.uint16), bits(want))
    back = np.from_dlpack(torch.tensor([0.1, 7.0], dtype=torch.bfloat16))
    assert_same(back, ref([0.1, 7.0]))


@pytest.mark.parametrize("protocol", [2, 5])
def test_tobytes_pickle_frombuffer(protocol):
    import pickle
    a = ref([[1.5, -0.1, onp.nan], [3e38, 2.0, 1e-40]])
    x = mk(a)
    assert x.tobytes() == a.tobytes() and x.T.tobytes() == a.T.tobytes() and x.tobytes("F") == a.tobytes("F")
    assert_same(pickle.loads(pickle.dumps(x, protocol=protocol)), a)
    assert_same(pickle.loads(pickle.dumps(x[:, ::2], protocol=protocol)), a[:, ::2])
    assert_same(np.frombuffer(a.tobytes(), dtype=np.bfloat16), a.reshape(-1))
