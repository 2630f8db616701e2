"""solve / inv / det / slogdet on matrices large enough to take the recursive, GEMM-based LU
(kernels/linalg/lu_blocked.cpp: n >= 128, panels of 16 columns, triangular solves split in halves),
against numpy.linalg (LAPACK getrf/getrs). Sizes straddle the recursion's splits (odd sizes, sizes
just above a multiple of 8 or 16), plus a pivoting-heavy matrix, a singular one and a batch."""
import numpy
import pytest

import mnn.numpy as np

SIZES = [72, 80, 128, 129, 137, 200, 255, 301]


def rand(shape, seed):
    return numpy.random.default_rng(seed).standard_normal(shape)


def cond_ok(a):
    # the comparison tolerance scales with the condition number: both sides are backward stable
    return numpy.linalg.cond(a) * 1e-13


@pytest.mark.parametrize("n", SIZES)
def test_solve_and_inv_match_numpy(n):
    a, b = rand((n, n), n), rand((n, 3), n + 1)
    tol = cond_ok(a)
    numpy.testing.assert_allclose(numpy.asarray(np.linalg.solve(np.asarray(a), np.asarray(b))),
                                  numpy.linalg.solve(a, b), rtol=tol, atol=tol)
    numpy.testing.assert_allclose(numpy.asarray(np.linalg.inv(np.asarray(a))), numpy.linalg.inv(a),
                                  rtol=tol, atol=tol)


@pytest.mark.parametrize("n", SIZES)
def test_det_and_slogdet_match_numpy(n):
    a = rand((n, n), 7 * n)
    s, l = np.linalg.slogdet(np.asarray(a))
    ws, wl = numpy.linalg.slogdet(a)
    assert float(s) == ws
    assert abs(float(l) - wl) <= 1e-10 * abs(wl)
    d = rand((n, n), n) / 4  # |det| stays in range
    numpy.testing.assert_allclose(float(np.linalg.det(np.asarray(d))), numpy.linalg.det(d), rtol=1e-9)


def test_pivoting_heavy_matrix():
    # rows in increasing magnitude: every column's pivot comes from the bottom, so every step swaps
    n = 160
    a = rand((n, n), 3) * numpy.logspace(-3, 3, n)[:, None]
    b = rand((n, 1), 4)
    got = numpy.asarray(np.linalg.solve(np.asarray(a), np.asarray(b)))
    # backward stability, componentwise: rows span 1e-3..1e3, so a fixed absolute tolerance on the
    # residual measures the ISA's rounding (and numpy's own residual here is 8e-10), not the solve
    resid = numpy.abs(a @ got - b)
    bound = 8 * n * numpy.finfo(numpy.float64).eps * (numpy.abs(a) @ numpy.abs(got) + numpy.abs(b))
    assert (resid <= bound).all(), float((resid / bound).max())
    s, l = np.linalg.slogdet(np.asarray(a))
    ws, wl = numpy.linalg.slogdet(a)
    assert float(s) == ws and abs(float(l) - wl) <= 1e-10 * abs(wl)


def test_float32_and_batch():
    a = rand((2, 150, 150), 5).astype(numpy.float32)
    b = rand((2, 150, 2), 6).astype(numpy.float32)
    got = np.linalg.solve(np.asarray(a), np.asarray(b))
    assert got.dtype == np.float32
    numpy.testing.assert_allclose(numpy.asarray(got), numpy.linalg.solve(a, b), rtol=2e-3, atol=2e-3)


def test_singular_raises_and_det_is_zero():
    a = rand((140, 140), 9)
    a[:, 70] = a[:, 3] * 2.0  # exactly dependent columns
    a[:, 71] = 0.0
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.inv(np.asarray(a))
    assert float(np.linalg.det(np.asarray(a))) == numpy.linalg.det(a) == 0.0
