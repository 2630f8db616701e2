"""Fused programs over a transposed input run in blocks larger than a tile (fused.cpp, run_blocks).
Every buffer a block fills must hold the whole block: broadcast values read as tiles (where's
scalar branches) were filled for one tile only, and a block of 2048 elements read past them
(uint16 Otsu thresholding of a transposed view returned garbage)."""

import numpy
import pytest

import mnn.numpy as mnp

EXPRS = [
    lambda m, x: m.where(x.T.real > 300, 65535, 0),
    lambda m, x: m.where(x.T.real > 300, x.T, 0),
    lambda m, x: m.where(x.T.real > 300, 1.5, x.T),
    lambda m, x: (x.T > 300).astype(m.uint16) * 7 + x.T,
    lambda m, x: m.where(x.T.real < 100, m.int64(-3), x.T.astype(m.int64)),
]


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int32", "int64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("shape", [(90, 121), (64, 64), (300, 7), (7, 300), (1000, 33)])
def test_transposed_blocks_match_numpy(dtype, shape):
    rng = numpy.random.default_rng(shape[0] * 7 + shape[1])
    x = rng.integers(0, 600, shape).astype(dtype)
    for k, expr in enumerate(EXPRS):
        if dtype == "complex128" and k == 3:
            continue  # complex comparisons are not ordered
        want = expr(numpy, x)
        got = numpy.asarray(expr(mnp, mnp.asarray(x)))
        assert got.dtype == want.dtype, k
        numpy.testing.assert_array_equal(got, want, err_msg=f"expression {k}")
