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
