"""mnn.numpy.linalg.svd / svdvals on the matrices that stress a dense SVD (bidiagonalisation +
divide and conquer from 20 columns, Jacobi below and at its leaves): square, tall, wide, rank-deficient, zero, ill-conditioned,
graded, clustered and repeated singular values, batched, empty, non-contiguous, float32 and float64.
Singular vectors are not unique, so they are checked through U diag(S) Vh = A and orthogonality;
S is compared with numpy's, relative to the largest singular value."""
import math

import numpy
import pytest

import mnn.numpy as np

LA = np.linalg
TOL = {"float64": 1e-12, "float32": 1e-5}


def orthogonal(n, seed):
    q, r = numpy.linalg.qr(numpy.random.default_rng(seed).standard_normal((n, n)))
    return q * numpy.sign(numpy.diag(r))


def with_values(m, n, s, seed):
    k = min(m, n)
    return (orthogonal(m, seed)[:, :k] * numpy.asarray(s, dtype=float)) @ orthogonal(n, seed + 1)[:k, :]


def matrix(kind, m, n, seed=0):
    r = numpy.random.default_rng(seed)
    k = min(m, n)
    if kind == "normal":
        return r.standard_normal((m, n))
    if kind == "rank_deficient":
        return r.standard_normal((m, k // 3 + 1)) @ r.standard_normal((k // 3 + 1, n))
    if kind == "zero":
        return numpy.zeros((m, n))
    if kind == "ill_conditioned":
        return with_values(m, n, numpy.logspace(0, -14, k), seed)
    if kind == "graded":  # rows scaled from 1 down to 1e-200: reflector norms would underflow
        return numpy.logspace(0, -200, m)[:, None] * r.standard_normal((m, n))
    if kind == "clustered":  # four values, each repeated: deflation of equal singular values
        return with_values(m, n, numpy.repeat([4.0, 3.0, 2.0, 1.0], -(-k // 4))[:k], seed)
    if kind == "ones":  # rank 1 with exact ties
        return numpy.ones((m, n))
    if kind == "identity":
        return numpy.eye(m, n)
    if kind == "tiny_values":  # singular values spread over 300 orders of magnitude
        return with_values(m, n, numpy.logspace(0, -300, k), seed)
    raise ValueError(kind)


def check(a, dtype, full_matrices=True):
    x = a.astype(dtype)
    u, s, vh = (numpy.asarray(t) for t in LA.svd(np.asarray(x), full_matrices=full_matrices))
    wu, ws, wvh = numpy.linalg.svd(x, full_matrices=full_matrices)
    assert u.dtype == s.dtype == vh.dtype == numpy.dtype(dtype)
    assert u.shape == wu.shape and s.shape == ws.shape and vh.shape == wvh.shape
    tol = TOL[dtype]
    k = s.shape[-1]
    scale = max(float(ws.max()) if ws.size else 0.0, numpy.finfo(dtype).tiny)
    assert numpy.all(numpy.diff(s, axis=-1) <= 0), "S must be descending"
    assert numpy.all(s >= 0)
    numpy.testing.assert_allclose(s / scale, ws / scale, rtol=0, atol=tol)
    u64, s64, vh64 = u.astype(float), s.astype(float), vh.astype(float)
    recon = (u64[..., :, :k] * s64[..., None, :]) @ vh64[..., :k, :]
    numpy.testing.assert_allclose(recon / scale, x.astype(float) / scale, rtol=0, atol=10 * tol)
    eye_u = numpy.swapaxes(u64, -1, -2) @ u64
    eye_v = vh64 @ numpy.swapaxes(vh64, -1, -2)
    numpy.testing.assert_allclose(eye_u, numpy.broadcast_to(numpy.eye(eye_u.shape[-1]), eye_u.shape), atol=10 * tol)
    numpy.testing.assert_allclose(eye_v, numpy.broadcast_to(numpy.eye(eye_v.shape[-1]), eye_v.shape), atol=10 * tol)
    sv = numpy.asarray(LA.svdvals(np.asarray(x)))
    assert sv.dtype == numpy.dtype(dtype)
    numpy.testing.assert_allclose(sv / scale, ws / scale, rtol=0, atol=tol)
    numpy.testing.assert_allclose(numpy.asarray(LA.svd(np.asarray(x), compute_uv=False)) / scale, ws / scale, rtol=0,
                                  atol=tol)


KINDS = ["normal", "rank_deficient", "zero", "ill_conditioned", "graded", "clustered", "ones", "identity",
         "tiny_values"]
# square / tall / wide: Jacobi (< 20 columns), divide and conquer (leaf size 24, reflector blocks of 64)
SHAPES = [(7, 7), (60, 60), (97, 41), (41, 97), (130, 130)]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kind", KINDS)
def test_svd_matrix_kinds(kind, shape, dtype):
    check(matrix(kind, *shape), dtype)


@pytest.mark.parametrize("full_matrices", [True, False])
@pytest.mark.parametrize("shape", [(3, 33, 20), (2, 20, 33), (2, 2, 26, 26)])
def test_svd_batched(shape, full_matrices):
    a = numpy.random.default_rng(5).standard_normal(shape)
    check(a, "float64", full_matrices)
    check(a, "float32", full_matrices)


@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (5, 1), (2, 2), (1, 30), (30, 1), (19, 19), (22, 22), (25, 25), (26, 25), (300, 3)])
def test_svd_small_and_thin(shape):
    check(numpy.random.default_rng(1).standard_normal(shape), "float64")
    check(numpy.random.default_rng(1).standard_normal(shape), "float64", full_matrices=False)


def test_svd_512_agrees_with_numpy():
    # the benchmark's size: several levels of divide and conquer, blocked reflectors
    check(numpy.random.default_rng(2).standard_normal((512, 512)), "float64")


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (2, 0, 4)])
def test_svd_empty(shape):
    a = numpy.zeros(shape)
    u, s, vh = (numpy.asarray(t) for t in LA.svd(np.asarray(a)))
    wu, ws, wvh = numpy.linalg.svd(a)
    assert u.shape == wu.shape and s.shape == ws.shape and vh.shape == wvh.shape
    assert numpy.asarray(LA.svdvals(np.asarray(a))).shape == ws.shape


def test_svd_non_contiguous_input():
    base = numpy.random.default_rng(3).standard_normal((80, 70))
    x = np.asarray(base)[::2, 1::2].T  # 35 x 40 strided view
    u, s, vh = (numpy.asarray(t) for t in LA.svd(x))
    want = base[::2, 1::2].T
    numpy.testing.assert_allclose(s, numpy.linalg.svd(want, compute_uv=False), atol=1e-12)
    numpy.testing.assert_allclose((u * s) @ vh[:35], want, atol=1e-12)


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_svd_non_finite_raises(bad):
    a = numpy.random.default_rng(4).standard_normal((40, 30))
    a[3, 4] = bad
    with pytest.raises(LA.LinAlgError):
        LA.svd(np.asarray(a))
    with pytest.raises(LA.LinAlgError):
        LA.svdvals(np.asarray(a))


# full_matrices=False runs the reduced primitive (linalg_svd_thin): U m x k only, and for m >= 1.6 n
# (n >= 1.6 m for wide) a Householder QR first, the SVD proper on the n x n R (Jacobi below 20
# columns, divide and conquer from 20); below 1.6 the direct path forms only U's first k columns.
THIN_SHAPES = [(1000, 200), (200, 1000), (300, 3), (3, 300), (64, 20), (33, 20), (31, 20), (150, 70), (70, 150),
               (2, 1), (40, 40), (3, 2), (12, 10), (10, 12), (1, 1)]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("shape", THIN_SHAPES)
def test_svd_thin(shape, dtype):
    check(numpy.random.default_rng(6).standard_normal(shape), dtype, full_matrices=False)


@pytest.mark.parametrize("shape", [(400, 60), (60, 400), (90, 10)])
@pytest.mark.parametrize("kind", KINDS)
def test_svd_thin_matrix_kinds(kind, shape):
    # rank-deficient, graded (QR reflectors of tiny columns), zero (the QR path's early exit) ...
    check(matrix(kind, *shape), "float64", full_matrices=False)


@pytest.mark.parametrize("shape", [(3, 200, 40), (2, 2, 50, 8), (3, 40, 200)])
def test_svd_thin_batched(shape):
    a = numpy.random.default_rng(7).standard_normal(shape)
    check(a, "float64", full_matrices=False)
    check(a, "float32", full_matrices=False)


def test_svd_thin_rank_deficient_tall():
    a = numpy.random.default_rng(8).standard_normal((500, 5)) @ numpy.random.default_rng(9).standard_normal((5, 80))
    check(a, "float64", full_matrices=False)
    s = numpy.asarray(LA.svd(np.asarray(a), full_matrices=False)[1])
    assert numpy.all(s[5:] < 1e-12 * s[0])


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_svd_thin_non_finite_raises(bad):
    a = numpy.random.default_rng(4).standard_normal((200, 30))
    a[3, 4] = bad
    with pytest.raises(LA.LinAlgError):
        LA.svd(np.asarray(a), full_matrices=False)
    with pytest.raises(LA.LinAlgError):
        LA.svd(np.asarray(a.T), full_matrices=False)
