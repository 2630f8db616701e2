"""Float sums keep numpy's exact bits on every path of the sum kernels (simd/reduce_kernels.cpp,
kernels/reduce.cpp): short runs, pairwise blocks, a long run's four quarter subtrees of numpy's
tree in lockstep, several runs in lockstep (axis 1), rows (axis 0), thread splits, strided
and reversed views, empty and 0-d inputs, keepdims, dtype=, and the sign of a zero sum."""

import numpy
import pytest

import mnn
import mnn.numpy as mnp

FLOATS = ["float32", "float64", "float16"]

# Around every threshold of the kernels: the 8-lane blocks and 128-element leaves of numpy's
# pairwise sum, the 2048-element lockstep chunks, 16384 (a long run's quarter subtrees in
# lockstep), powers of two (equal quarters and eighths: an earlier kernel read eighths as eight
# streams) and lengths whose halves are unequal (no lockstep).
LENGTHS = [1, 7, 8, 9, 127, 128, 129, 255, 256, 2047, 2048, 2049, 16383, 16384, 16385, 131072,
           131080, 196608, 262144, 3 * (1 << 17) + 5, (1 << 20) + 24]


def same_bits(got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    assert got.tobytes() == want.tobytes(), (got.ravel()[:4], want.ravel()[:4])


@pytest.mark.parametrize("dtype", FLOATS)
def test_runs_of_every_length(dtype):
    rng = numpy.random.default_rng(7)
    for n in LENGTHS:
        a = rng.standard_normal(n).astype(dtype)
        A = mnp.asarray(a)
        same_bits(A.sum(), a.sum())
        same_bits(A[3:].sum(), a[3:].sum())      # an odd start (not 32-byte aligned)
        same_bits(A[::2].sum(), a[::2].sum())    # strided: the generic pairwise loop
        same_bits(A[::-1].sum(), a[::-1].sum())  # reversed


@pytest.mark.parametrize("dtype", FLOATS)
def test_matrices_along_each_axis(dtype):
    rng = numpy.random.default_rng(8)
    # (7, 3001): 7 rows, not a multiple of the 4 runs summed in lockstep; (512, 256) sums all of
    # 2^17 elements through equal quarters; (1024, 1024) has rows long enough to split in halves
    for shape in [(7, 3001), (512, 256), (1024, 1024), (3, 1 << 16), (1 << 16, 3)]:
        a = rng.standard_normal(shape).astype(dtype)
        A = mnp.asarray(a)
        for axis in (0, 1, None, (0, 1)):
            same_bits(A.sum(axis=axis), a.sum(axis=axis))
            same_bits(A.sum(axis=axis, keepdims=True), a.sum(axis=axis, keepdims=True))
        # non-contiguous views: a transposed matrix, a column slice, every other row
        same_bits(A.T.sum(axis=0), a.T.sum(axis=0))
        same_bits(A[:, 1:].sum(axis=1), a[:, 1:].sum(axis=1))
        same_bits(A[::2].sum(axis=0), a[::2].sum(axis=0))


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_thread_splits_keep_the_bits(threads):
    old = mnn.get_num_threads()
    mnn.set_num_threads(threads)
    try:
        rng = numpy.random.default_rng(9)
        for n in (1 << 20, (1 << 20) + 24, 1_000_003):
            a = rng.standard_normal(n).astype(numpy.float32)
            same_bits(mnp.asarray(a).sum(), a.sum())
        m = rng.standard_normal((1024, 1024)).astype(numpy.float32)
        for axis in (0, 1, None):
            same_bits(mnp.asarray(m).sum(axis=axis), m.sum(axis=axis))
    finally:
        mnn.set_num_threads(old)


@pytest.mark.parametrize("dtype", FLOATS)
def test_empty_and_zero_d(dtype):
    for shape in [(0,), (0, 5), (5, 0), (), (1,), (1, 1)]:
        a = numpy.full(shape, 1.5, dtype)
        A = mnp.asarray(a)
        axes = [None, 0, 1] if len(shape) == 2 else [None]
        for axis in axes:
            for keepdims in (False, True):
                same_bits(A.sum(axis=axis, keepdims=keepdims), a.sum(axis=axis, keepdims=keepdims))


def test_accumulation_dtype():
    a = numpy.random.default_rng(10).standard_normal((33, 1000)).astype(numpy.float32)
    A = mnp.asarray(a)
    for axis in (0, 1, None):
        same_bits(A.sum(axis=axis, dtype="float64"), a.sum(axis=axis, dtype="float64"))


@pytest.mark.parametrize("dtype", FLOATS)
def test_negative_zeros_sum_to_positive_zero(dtype):
    # numpy adds to its identity +0.0, so a sum of -0.0 values is +0.0, also over a length-1 axis
    # (the kernel's single-element path) and a strided run (its generic pairwise loop)
    for shape, axis in [((1,), None), ((1, 4), 0), ((4, 1), 1), ((2, 1, 3), 1), ((1, 1), None), ((40,), None),
                        ((40, 3), 0), ((3, 40), 1), ((20000, 1), 1)]:
        a = numpy.full(shape, -0.0, dtype)
        A = mnp.asarray(a)
        same_bits(A.sum(axis=axis), a.sum(axis=axis))
        if a.ndim == 1:
            same_bits(A[::2].sum(axis=axis), a[::2].sum(axis=axis))
        else:
            same_bits(A[:, ::2].sum(axis=axis), a[:, ::2].sum(axis=axis))


@pytest.mark.parametrize("dtype", FLOATS)
def test_power_of_two_rows_in_lockstep(dtype):
    # Rows of 128 * 2^k (k = 1..5) take the lockstep kernel's full-block path (consecutive
    # 128-element leaves joined level by level); 4096 splits into two 2048 halves first. Values
    # spread over six decades so any change in the order of the adds changes the bits.
    rng = numpy.random.default_rng(11)
    for rows, cols in [(8, 128), (4, 256), (9, 512), (8, 1024), (12, 2048), (8, 4096), (5, 4096)]:
        a = (rng.standard_normal((rows, cols)) * 10.0 ** rng.uniform(-3, 3, (rows, cols))).astype(dtype)
        A = mnp.asarray(a)
        for axis in (0, 1, None):
            same_bits(A.sum(axis=axis), a.sum(axis=axis))
        same_bits(A[1:].sum(axis=1), a[1:].sum(axis=1))       # rows not at the start of the buffer
        same_bits(A[:, 8:].sum(axis=1), a[:, 8:].sum(axis=1))  # 128 * 2^k - 8: the generic tree
