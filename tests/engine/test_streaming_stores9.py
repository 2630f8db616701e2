"""Results written past the caches (streaming stores, L1-scratch transposes, cached output blocks)
against numpy: large transposes of every element size, odd sizes, views, windows and overlapping
destinations; large fused chains with tails, broadcast operands, views and in-place updates whose
output aliases an input; at 1 and 2 threads. The streaming paths start at 8 MB of output
(backends/cpu/strided.h kStreamingBytes), so every case here is at least that large."""

import numpy
import pytest

import mnn
import mnn.numpy as mnp
from helpers import assert_same, sample

MB8 = 8 << 20


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    old = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(old)


def _big(shape, dtype):
    assert numpy.prod(shape) * numpy.dtype(dtype).itemsize >= MB8
    return sample(shape, dtype, seed=int(numpy.prod(shape)) % 1000)


# ---- transposes ----

@pytest.mark.parametrize("dtype,shape", [
    ("uint8", (2900, 2901)), ("bool", (2901, 2900)), ("int16", (2050, 2051)), ("float16", (2047, 2053)),
    ("float32", (1500, 1501)), ("float32", (1449, 1453)), ("int32", (1024, 2048)), ("float64", (1030, 1031)),
    ("int64", (1031, 1030)), ("complex64", (1030, 1033)), ("complex128", (730, 731)),
])
def test_large_transpose_every_element_size(threads, dtype, shape):
    if dtype.startswith("complex"):
        a = (sample(shape, "float64", seed=8) + 1j * sample(shape, "float64", seed=9)).astype(dtype)
        assert a.nbytes >= MB8
    else:
        a = _big(shape, dtype)
    m = mnp.asarray(a)
    assert_same(mnp.ascontiguousarray(m.T), numpy.ascontiguousarray(a.T))
    assert_same(m.T.copy(), a.T.copy())


@pytest.mark.parametrize("rows", [31, 32, 33, 47])
def test_large_transpose_short_destination_rows(threads, rows):
    # destination rows of 124, 128, 132, 188 bytes: around the 128-byte segment the scratch path needs
    a = _big((rows, (MB8 // 4) // rows + 1), "float32")
    m = mnp.asarray(a)
    assert_same(mnp.ascontiguousarray(m.T), numpy.ascontiguousarray(a.T))


@pytest.mark.parametrize("axes", [(0, 2, 1), (2, 1, 0), (1, 2, 0), (2, 0, 1)])
def test_large_transpose_3d(threads, axes):
    a = _big((7, 611, 530), "float32")
    m = mnp.asarray(a)
    assert_same(mnp.ascontiguousarray(m.transpose(axes)), numpy.ascontiguousarray(a.transpose(axes)))


def test_large_transpose_of_views(threads):
    a = _big((1600, 1800), "float32")
    m = mnp.asarray(a)
    for key in [(slice(None, None, -1), slice(None)), (slice(None), slice(None, None, -1)),
                (slice(3, None), slice(5, -7)), (slice(None), slice(1, None))]:
        assert_same(m[key].T.copy(), a[key].T.copy())
    # a non-contiguous base: every other column
    b = _big((1500, 3002), "float32")
    mb = mnp.asarray(b)
    assert_same(mnp.ascontiguousarray(mb[:, ::2].T), numpy.ascontiguousarray(b[:, ::2].T))


def test_large_transpose_into_windows(threads):
    # destinations whose rows start off a 16-byte boundary, or run backwards
    a = _big((1450, 1460), "float32")
    m = mnp.asarray(a)
    for shape, key in [((1461, 1453), (slice(1, None), slice(3, None))), ((1460, 1450), (slice(None), slice(None, None, -1))),
                       ((1460, 1451), (slice(None), slice(1, None)))]:
        expect = numpy.zeros(shape, numpy.float32)
        got = mnp.zeros(shape, mnp.float32)
        expect[key] = a.T
        got[key] = m.T
        assert_same(got, expect)


def test_large_transpose_onto_itself(threads):
    # the destination is the source: numpy reads all of it first; so must mnn
    a = _big((1500, 1500), "float32")
    m = mnp.asarray(a.copy())
    m[...] = m.T
    assert_same(m, a.T)
    m2 = mnp.asarray(a.copy())
    m2[:, :] = m2.T * 1.0
    assert_same(m2, a.T)


def test_large_transpose_repeated_reuses_memory(threads):
    # the result's block comes back from the block cache on the next call: values must be fresh
    a = _big((1500, 1501), "float32")
    m = mnp.asarray(a)
    for k in range(3):
        r = mnp.ascontiguousarray((m + float(k)).T)
        assert_same(r, numpy.ascontiguousarray((a + numpy.float32(k)).T))
        del r


# ---- fused elementwise chains (streamed outputs, block programs with broadcast operands) ----

CHAIN_SIZES = [(8 << 20) // 4, (8 << 20) // 4 + 13, 3_000_017]  # whole blocks, a tail, odd


def _abc(n, dtype="float32"):
    return (sample((n,), dtype, seed=1), sample((n,), dtype, seed=2), sample((n,), dtype, seed=3))


@pytest.mark.parametrize("n", CHAIN_SIZES)
def test_large_chain(threads, n):
    a, b, c = _abc(n)
    ma, mb, mc = (mnp.asarray(x) for x in (a, b, c))
    assert_same(ma * mb + mc * 2.0 - mnp.sqrt(mnp.abs(ma)), a * b + c * numpy.float32(2.0) - numpy.sqrt(numpy.abs(a)))


@pytest.mark.parametrize("n", CHAIN_SIZES[1:])
def test_large_chain_broadcast_operands_both_sides(threads, n):
    # a broadcast operand as a and as b of every binary operation (read once per block)
    a, b, _ = _abc(n)
    ma, mb = mnp.asarray(a), mnp.asarray(b)
    f32 = numpy.float32
    assert_same(2.0 - ma / 3.0 + (1.5 * mb) * 0.25, f32(2.0) - a / f32(3.0) + (f32(1.5) * b) * f32(0.25))
    assert_same(mnp.maximum(ma, 0.5) - mnp.minimum(0.25, mb), numpy.maximum(a, f32(0.5)) - numpy.minimum(f32(0.25), b))
    assert_same(mnp.fmax(3.0, ma) * mnp.fmin(mb, -1.0), numpy.fmax(f32(3.0), a) * numpy.fmin(b, f32(-1.0)))
    assert_same(7.0 / (mnp.abs(ma) + 1.0) - 1.0 / 7.0, f32(7.0) / (numpy.abs(a) + f32(1.0)) - f32(1.0) / f32(7.0))
    # a 0-d array operand and a NaN scalar: numpy's NaN choice when both are NaN
    an = a.copy()
    an[::97] = numpy.nan
    man = mnp.asarray(an)
    with numpy.errstate(invalid="ignore"):
        assert_same(float("nan") + man * 2.0, f32("nan") + an * f32(2.0))
        assert_same(man * mnp.asarray(numpy.float32(3.0)) - 1.0, an * f32(3.0) - f32(1.0))


def test_large_chain_views(threads):
    n = 3_000_017
    a, b, c = _abc(2 * n + 2)
    ma, mb, mc = (mnp.asarray(x) for x in (a, b, c))
    # offset starts (the output still contiguous and aligned), strided and reversed inputs
    assert_same(ma[1:n + 1] * mb[3:n + 3] + mc[:n], a[1:n + 1] * b[3:n + 3] + c[:n])
    assert_same(ma[::2] - mb[1::2] * 2.0, a[::2] - b[1::2] * numpy.float32(2.0))
    assert_same(mnp.sqrt(mnp.abs(ma[::-1])) + mb, numpy.sqrt(numpy.abs(a[::-1])) + b)
    # 2-D with a broadcast row and column
    m2 = a[: 1501 * 1503].reshape(1501, 1503)
    mm2 = mnp.asarray(m2)
    assert_same(mm2 * mnp.asarray(b[:1503]) + mnp.asarray(c[:1501])[:, None],
                m2 * b[:1503] + c[:1501][:, None])


@pytest.mark.parametrize("n", CHAIN_SIZES)
def test_large_in_place_updates_aliasing_an_input(threads, n):
    # the output is an input's memory: every element must be read before its line is streamed over
    a, b, c = _abc(n)
    ma, mb = mnp.asarray(a.copy()), mnp.asarray(b)
    ea = a.copy()
    ma += mb
    ea += b
    assert_same(ma, ea)
    ma *= 2.0
    ea *= numpy.float32(2.0)
    assert_same(ma, ea)
    ma[...] = ma * mb - mnp.sqrt(mnp.abs(ma))
    ea[...] = ea * b - numpy.sqrt(numpy.abs(ea))
    assert_same(ma, ea)
    # shifted windows of the same buffer: the numpy answer reads the old values
    mc = mnp.asarray(c.copy())
    ec = c.copy()
    mc[1:] = mc[:-1] + 1.0
    ec[1:] = ec[:-1] + numpy.float32(1.0)
    assert_same(mc, ec)
    mc[:-5] = mc[5:] * 0.5 + mc[:-5]
    ec[:-5] = ec[5:] * numpy.float32(0.5) + ec[:-5]
    assert_same(mc, ec)


@pytest.mark.parametrize("dtype", ["float64", "int32", "uint8", "float16"])
def test_large_chain_other_dtypes_and_casts(threads, dtype):
    n = (8 << 20) // numpy.dtype(dtype).itemsize + 7
    a, b, _ = _abc(n, dtype)
    ma, mb = mnp.asarray(a), mnp.asarray(b)
    assert_same(ma + mb * mb, a + b * b)
    assert_same(ma.astype(mnp.float32), a.astype(numpy.float32))
    assert_same(mnp.ascontiguousarray(ma[::-1]), numpy.ascontiguousarray(a[::-1]))
    assert_same(ma.copy(), a.copy())


def test_large_results_repeat_with_reused_blocks(threads):
    # the same plan and the same cached output block on every call: fresh values each time
    n = 3_000_017
    a, b, c = _abc(n)
    ma, mb, mc = (mnp.asarray(x) for x in (a, b, c))
    for k in range(4):
        s = float(k) - 1.5
        r = ma * mb + mc * s - mnp.sqrt(mnp.abs(ma))
        assert_same(r, a * b + c * numpy.float32(s) - numpy.sqrt(numpy.abs(a)))
        del r


def test_large_chain_with_transposed_operands(threads):
    # blocked fused programs: transposed inputs gathered per block, the result's rows streamed
    a = _big((1450, 1461), "float32")
    b = sample((1461, 1450), "float32", seed=4)
    ma, mb = mnp.asarray(a), mnp.asarray(b)
    f32 = numpy.float32
    assert_same(ma.T + mb * 2.0, a.T + b * f32(2.0))
    assert_same(mnp.sqrt(mnp.abs(ma.T)) - mb, numpy.sqrt(numpy.abs(a.T)) - b)
    # into a window whose rows start off a 16-byte boundary, and onto an input's own memory
    got = mnp.zeros((1461, 1453), mnp.float32)
    expect = numpy.zeros((1461, 1453), numpy.float32)
    got[:, 3:] = ma.T * 0.5 + mb
    expect[:, 3:] = a.T * f32(0.5) + b
    assert_same(got, expect)
    sq = _big((1500, 1500), "float32")
    msq = mnp.asarray(sq.copy())
    msq[...] = msq.T + msq
    assert_same(msq, sq.T + sq)
