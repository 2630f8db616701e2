"""Reductions over a leading axis (the rows kernel: 8 rows per pass, the next 8 prefetched in memory order).

Row counts straddle the 8-row groups (a partial last group, a partial group to prefetch), column counts
straddle the vector width, views have row strides that are not the row length, and two threads split the
columns: every case must give numpy's bits (the kernel adds rows in numpy's order).
"""
import numpy
import pytest

import mnn
import mnn.numpy as mnp

# products of hundreds of rows overflow float16/int types: numpy and mnn both warn, which is not under test here
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")

SHAPES = [(2, 6), (7, 33), (8, 16), (9, 100), (15, 17), (17, 1030), (64, 4100), (300, 2048), (1000, 1037)]
VIEWS = {
    "contiguous": lambda x: x,
    "column_slice": lambda x: x[:, 3:-2],
    "every_other_row": lambda x: x[::2],
    "offset_rows": lambda x: x[1:],
}


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    before = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(before)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int64", "uint8"])
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_axis0_reductions_match_numpy_bits(threads, dtype, view):
    rng = numpy.random.default_rng(10)
    for shape in SHAPES:
        a = (rng.standard_normal(shape) * 10).astype(dtype)
        got_in, want_in = VIEWS[view](mnp.asarray(a)), VIEWS[view](a)
        for fn in ("sum", "max", "min", "prod"):
            want = getattr(want_in, fn)(axis=0)
            got = numpy.asarray(getattr(got_in, fn)(axis=0))
            assert got.dtype == want.dtype, (fn, shape)
            numpy.testing.assert_array_equal(got, want, err_msg=f"{fn} {shape}")


def test_axis0_sum_of_a_3d_block_matches_numpy(threads):
    # outer reduced dims: the kernel is called once per outer index with its own next-group prefetch
    a = numpy.random.default_rng(11).standard_normal((3, 37, 129)).astype(numpy.float32)
    for axis in ((0, 1), 0, 1):
        numpy.testing.assert_array_equal(numpy.asarray(mnp.asarray(a).sum(axis=axis)), a.sum(axis=axis))
