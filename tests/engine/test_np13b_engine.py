"""A @ x with few columns (gemv_rows' short-row path: every row shorter than the kernel's lane count)
gives numpy's values, NaN/inf and signed zeros, on contiguous, strided and batched operands."""
import numpy
import pytest

import mnn.numpy as mnp

RNG = numpy.random.default_rng(1314)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("M", [1, 3, 4, 7, 200])
@pytest.mark.parametrize("K", [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 33])
def test_small_k_matvec_exact_on_integers(dtype, M, K):
    # integer-valued data: every order of summation gives the exact result, numpy's included
    A = RNG.integers(-50, 50, size=(M, K)).astype(dtype)
    x = RNG.integers(-50, 50, size=K).astype(dtype)
    ref = A @ x
    got = numpy.asarray(mnp.asarray(A) @ mnp.asarray(x))
    assert got.dtype == ref.dtype and got.shape == ref.shape
    numpy.testing.assert_array_equal(got, ref)
    # a strided A (every other column of a wider one) and a stack of matrices
    W = RNG.integers(-50, 50, size=(M, 2 * K)).astype(dtype)
    numpy.testing.assert_array_equal(numpy.asarray(mnp.asarray(W)[:, ::2] @ mnp.asarray(x)), W[:, ::2] @ x)
    B = RNG.integers(-50, 50, size=(3, M, K)).astype(dtype)
    numpy.testing.assert_array_equal(numpy.asarray(mnp.asarray(B) @ mnp.asarray(x)), B @ x)


@pytest.mark.parametrize("K", [1, 5, 16, 19])
def test_small_k_matvec_specials(K):
    A = RNG.normal(size=(6, K))
    x = RNG.normal(size=K)
    A[1, 0] = numpy.inf
    A[2, -1] = numpy.nan
    A[3] = -0.0  # all products -0.0: numpy's dot gives +0.0
    A[4, 0], A[4, -1] = numpy.inf, -numpy.inf if K > 1 else numpy.inf
    got = numpy.asarray(mnp.asarray(A) @ mnp.asarray(x))
    ref = A @ x
    with numpy.errstate(invalid="ignore"):
        assert numpy.array_equal(numpy.isnan(got), numpy.isnan(ref))
        finite = ~numpy.isnan(ref)
        numpy.testing.assert_allclose(got[finite], ref[finite], rtol=1e-12)
    assert numpy.signbit(got[3]) == numpy.signbit(ref[3]) and got[3] == 0


def test_logistic_step_matches_numpy():
    # the script's hot step: z = X @ w on a 200 x 5 design matrix, then X.T @ r
    X = RNG.normal(size=(200, 5))
    w = RNG.normal(size=5)
    r = RNG.normal(size=200)
    numpy.testing.assert_allclose(numpy.asarray(mnp.asarray(X) @ mnp.asarray(w)), X @ w, rtol=1e-13, atol=1e-14)
    numpy.testing.assert_allclose(numpy.asarray(mnp.asarray(X).T @ mnp.asarray(r)), X.T @ r, rtol=1e-13, atol=1e-13)
