"""Data movement against numpy: transposing copies (cache-blocked, SIMD micro-tiles), strided and
broadcast copies, casts during copies, writes into transposed windows, concatenate/stack along
every axis with mixed layouts; and every ISA's transpose kernels against the scalar ones."""

import numpy
import pytest

import mnn
import mnn.numpy as mnp
from helpers import run_under_isa, ALL_DTYPES, assert_same, sample

# Odd sizes around the micro-tile (4, 8, 16) and block (16..256) edges.
SIZES = [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 70]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_transpose_copy_2d_every_dtype(dtype):
    for r in SIZES:
        for c in (1, 5, 16, 33, 70):
            a = sample((r, c), dtype, seed=r * 100 + c)
            m = mnp.asarray(a)
            assert_same(mnp.ascontiguousarray(m.T), numpy.ascontiguousarray(a.T))
            assert_same(m.T.copy(), a.T.copy())


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64"])
def test_transpose_large_and_odd(dtype):
    for shape in [(4097, 9), (9, 4097), (300, 257), (1024, 1031)]:
        a = sample(shape, dtype, seed=3)
        m = mnp.asarray(a)
        assert_same(mnp.ascontiguousarray(m.T), numpy.ascontiguousarray(a.T))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "float16", "int32", "float32", "float64"])
@pytest.mark.parametrize("axes", [(0, 2, 1), (1, 0, 2), (2, 1, 0), (2, 0, 1), (1, 2, 0)])
def test_transpose_copy_3d(dtype, axes):
    for shape in [(3, 17, 70), (70, 3, 33), (5, 64, 9), (2, 1, 40)]:
        a = sample(shape, dtype, seed=len(shape))
        m = mnp.asarray(a)
        assert_same(mnp.ascontiguousarray(m.transpose(axes)), numpy.ascontiguousarray(a.transpose(axes)))


def test_hwc_to_chw_image():
    a = sample((37, 53, 3), "uint8", seed=1)
    m = mnp.asarray(a)
    assert_same(mnp.ascontiguousarray(m.transpose(2, 0, 1)), numpy.ascontiguousarray(a.transpose(2, 0, 1)))
    assert_same(mnp.ascontiguousarray(mnp.asarray(a.transpose(2, 0, 1).copy()).transpose(1, 2, 0)),
                a.copy())


@pytest.mark.parametrize("dtype", ["int8", "float32", "float64", "uint16"])
def test_negative_and_non_contiguous_strides(dtype):
    a = sample((70, 66), dtype, seed=5)
    m = mnp.asarray(a)
    for key in [(slice(None, None, -1), slice(None)), (slice(None), slice(None, None, -1)),
                (slice(None, None, -1), slice(None, None, -2)), (slice(1, None, 3), slice(2, 60, 2)),
                (slice(None, None, 2), slice(None))]:
        assert_same(m[key].T.copy(), a[key].T.copy())
        assert_same(m.T[key].copy(), a.T[key].copy())
    # a non-contiguous base (every other column of a wider array)
    w = sample((33, 140), dtype, seed=6)
    assert_same(mnp.asarray(w)[:, ::2].T.copy(), w[:, ::2].T.copy())


@pytest.mark.parametrize("src,dst", [("float32", "float64"), ("float64", "float32"), ("float32", "float16"),
                                     ("float16", "float32"), ("int32", "float32"), ("uint8", "float32"),
                                     ("float32", "int32"), ("int64", "int8"), ("bool", "float32"),
                                     ("float32", "bool")])
def test_casts_during_copy(src, dst):
    a = sample((45, 70), src, seed=2)
    m = mnp.asarray(a)
    assert_same(m.T.astype(dst), a.T.astype(dst))
    assert_same(m.astype(dst), a.astype(dst))
    assert_same(m[::-1, ::3].astype(dst), a[::-1, ::3].astype(dst))
    big = sample((4096 + 3,), src, seed=4)
    assert_same(mnp.asarray(big).astype(dst), big.astype(dst))


def test_float16_cast_specials():
    vals = numpy.array([0.0, -0.0, 1.0, 65504.0, 65520.0, 1e6, -1e6, 6e-8, 3e-8, 1e-10, numpy.inf, -numpy.inf,
                        numpy.nan, 2049.0, 2051.0, 0.1, -0.3, 5.960464477539063e-08] * 3, dtype=numpy.float32)
    m = mnp.asarray(vals)
    got = numpy.asarray(m.astype("float16"))
    with numpy.errstate(over="ignore"):
        exp = vals.astype(numpy.float16)
    assert numpy.array_equal(got.view(numpy.uint16)[~numpy.isnan(exp)], exp.view(numpy.uint16)[~numpy.isnan(exp)])
    assert numpy.isnan(got[numpy.isnan(exp)]).all()
    h = numpy.arange(0, 65536, dtype=numpy.uint32).astype(numpy.uint16).view(numpy.float16)
    back = numpy.asarray(mnp.asarray(h).astype("float32"))
    ok = ~numpy.isnan(h)
    assert numpy.array_equal(back[ok], h[ok].astype(numpy.float32))
    assert numpy.isnan(back[~ok]).all()


def test_fused_programs_with_transposed_inputs():
    a = sample((67, 45), "float32", seed=7)
    b = sample((45, 67), "float32", seed=8)
    ma, mb = mnp.asarray(a), mnp.asarray(b)
    assert_same(ma.T + 1, a.T + 1)
    assert_same(ma.T * mb - mb, a.T * b - b)
    assert_same(mnp.sqrt(mnp.abs(ma.T)) + mb[::-1], numpy.sqrt(numpy.abs(a.T)) + b[::-1])
    assert_same((ma.T > mb).astype("int16"), (a.T > b).astype("int16"))
    c = sample((45, 1), "float64", seed=9)
    assert_same(ma.T + mnp.asarray(c), a.T + c)
    x3 = sample((6, 40, 35), "int32", seed=10)
    assert_same(mnp.asarray(x3).transpose(0, 2, 1) * 3 - 1, x3.transpose(0, 2, 1) * 3 - 1)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64", "bool"])
def test_writes_into_transposed_windows(dtype):
    for shape in [(5, 7), (70, 33), (64, 64), (130, 9)]:
        a = sample(shape, dtype, seed=11)
        b = sample(shape[::-1], dtype, seed=12)
        ma = mnp.asarray(a.copy())
        ma.T[...] = mnp.asarray(b)
        e = a.copy()
        e.T[...] = b
        assert_same(ma, e)
        # a transposed window of a larger buffer, fed by a computed value and a cast
        big, ebig = mnp.zeros((shape[0] + 3, shape[1] + 2), dtype=dtype), numpy.zeros((shape[0] + 3, shape[1] + 2),
                                                                                       dtype=dtype)
        src = sample(shape[::-1], "float64", seed=13)
        big.T[1:-1, 2:-1] = mnp.asarray(src)
        ebig.T[1:-1, 2:-1] = src
        assert_same(big, ebig)
        ma2 = mnp.asarray(a.copy())
        ma2.T[::2] = mnp.asarray(b)[::2] if dtype == "bool" else mnp.asarray(b)[::2] + mnp.asarray(b)[::2]
        e2 = a.copy()
        e2.T[::2] = b[::2] if dtype == "bool" else b[::2] + b[::2]
        assert_same(ma2, e2)


def test_self_transpose_assignment():
    a = sample((40, 40), "float32", seed=14)
    m = mnp.asarray(a.copy())
    m[...] = m.T
    assert_same(m, a.T.copy())
    m2 = mnp.asarray(a.copy())
    m2 += m2.T
    assert_same(m2, a + a.T)


@pytest.mark.parametrize("dtype", ["uint8", "float32", "float64", "int64", "bool"])
def test_broadcast_materialization(dtype):
    for shape, target in [((70,), (33, 70)), ((33, 1), (33, 70)), ((1,), (4099,)), ((), (5, 7)),
                          ((3, 1, 5), (3, 4, 5)), ((1, 9), (4097, 9))]:
        x = sample(shape, dtype, seed=15)
        assert_same(mnp.broadcast_to(mnp.asarray(x), target).copy(), numpy.broadcast_to(x, target).copy())
        assert_same(mnp.ascontiguousarray(mnp.broadcast_to(mnp.asarray(x), target).T),
                    numpy.ascontiguousarray(numpy.broadcast_to(x, target).T))
    assert_same(mnp.full((300, 301), 7, dtype=dtype), numpy.full((300, 301), 7, dtype=dtype))
    assert_same(mnp.zeros((3000, 1001), dtype=dtype), numpy.zeros((3000, 1001), dtype=dtype))


def test_large_copies_use_the_pool_and_stream():
    # Sizes past the streaming threshold and the thread split; results must not depend on either.
    a = sample((2100, 1100), "float32", seed=16)
    m = mnp.asarray(a)
    old = mnn.get_num_threads()
    try:
        for n in (1, 2):
            mnn.set_num_threads(n)
            assert_same(m.copy(), a.copy())
            assert_same(m[:, 1:].copy(), a[:, 1:].copy())
            assert_same(mnp.ascontiguousarray(m.T), numpy.ascontiguousarray(a.T))
            assert_same(mnp.full((2100, 1100), 2.5, dtype="float32"), numpy.full((2100, 1100), 2.5, "float32"))
            assert_same(mnp.concatenate([m, m.T[:, :1100]], 0), numpy.concatenate([a, a.T[:, :1100]], 0))
    finally:
        mnn.set_num_threads(old)


@pytest.mark.parametrize("dtype", ["uint8", "float16", "float32", "float64"])
def test_concatenate_every_axis_mixed_layouts(dtype):
    base = [sample((4, 6, 5), dtype, seed=s) for s in range(3)]
    for axis in (0, 1, 2, -1):
        parts_np, parts_m = [], []
        for k, x in enumerate(base):
            shape = list(x.shape)
            shape[axis] = 2 + k
            y = sample(tuple(shape), dtype, seed=20 + k)
            # a contiguous part, a transposed-then-transposed-back part, a reversed part
            variants = [(y, mnp.asarray(y)),
                        (y, mnp.ascontiguousarray(mnp.asarray(numpy.ascontiguousarray(y.T))).T),
                        (y[::-1].copy(), mnp.asarray(y)[::-1])]
            ny, my = variants[k % 3]
            parts_np.append(ny)
            parts_m.append(my)
        assert_same(mnp.concatenate(parts_m, axis), numpy.concatenate(parts_np, axis))
    for axis in (0, 1, 2, 3):
        assert_same(mnp.stack([mnp.asarray(b) for b in base], axis), numpy.stack(base, axis))
        assert_same(mnp.stack([mnp.asarray(b).transpose(2, 0, 1) for b in base], axis),
                    numpy.stack([b.transpose(2, 0, 1) for b in base], axis))


def test_concatenate_large_transposed_and_cast():
    a = sample((300, 520), "float32", seed=30)
    b = sample((520, 77), "float64", seed=31)
    ma, mb = mnp.asarray(a), mnp.asarray(b)
    assert_same(mnp.concatenate([ma.T, mb], 1), numpy.concatenate([a.T, b], 1))
    assert_same(mnp.concatenate([ma, mb.T[:, ::-1][:, :520]], 0), numpy.concatenate([a, b.T[:, ::-1][:, :520]], 0))
    assert_same(mnp.concatenate([ma[:, :0], ma], 1), numpy.concatenate([a[:, :0], a], 1))
    assert_same(mnp.hstack([ma[:, :3], ma.T[:3].T]), numpy.hstack([a[:, :3], a.T[:3].T]))


ISA_PROGRAM = r"""
import json, sys
import numpy
import mnn.numpy as mnp
rng = numpy.random.default_rng(3)
out = {}
for dt in ["uint8", "int16", "float16", "float32", "int64", "float64"]:
    for shape in [(1, 1), (7, 9), (16, 16), (33, 70), (129, 65), (300, 17)]:
        a = (rng.standard_normal(shape) * 60).astype(dt)
        m = mnp.asarray(a)
        k = f"{dt}.{shape}"
        out[k + ".T"] = numpy.asarray(mnp.ascontiguousarray(m.T)).tobytes().hex()
        out[k + ".negT"] = numpy.asarray(m[::-1, ::2].T.copy()).tobytes().hex()
        out[k + ".addT"] = numpy.asarray(m.T + m.T[::-1]).tobytes().hex()
        w = mnp.zeros(shape[::-1], dtype=dt)
        w.T[...] = m
        out[k + ".write"] = numpy.asarray(w).tobytes().hex()
        out[k + ".cat"] = numpy.asarray(mnp.concatenate([m.T, m.T], 1)).tobytes().hex()
    x = (rng.standard_normal(1031) * 1e3).astype("float32")
    out[dt + ".cast"] = numpy.asarray(mnp.asarray(x).astype(dt)).tobytes().hex()
    out[dt + ".castback"] = numpy.asarray(mnp.asarray(x.astype(dt)).astype("float32")).tobytes().hex()
# NaN payloads (quiet, signalling, tiny) must come out bit-identical through the float16 casts
nan32 = numpy.array([0x7f800001, 0xff800001, 0x7fc00000, 0x7f802000, 0x7fffffff, 0x7f800000, 0x3f800000] * 3,
                    dtype=numpy.uint32).view(numpy.float32)
out["nan32.f16"] = numpy.asarray(mnp.asarray(nan32).astype("float16")).tobytes().hex()
nan16 = numpy.array([0x7c01, 0xfc01, 0x7e00, 0x7dff, 0x7fff, 0x7c00, 0x3c00, 0x0001] * 3,
                    dtype=numpy.uint16).view(numpy.float16)
out["nan16.f32"] = numpy.asarray(mnp.asarray(nan16).astype("float32")).tobytes().hex()
json.dump(out, sys.stdout)
"""


def run_with(isa):
    return run_under_isa(ISA_PROGRAM, isa)


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_isa_data_movement_matches_scalar(isa):
    ref, got = run_with("scalar"), run_with(isa)
    assert ref.keys() == got.keys()
    for key in ref:
        assert got[key] == ref[key], key
