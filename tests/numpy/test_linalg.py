"""mnn.numpy.linalg against numpy.linalg: batched stacks, float32/float64/int inputs, empty and
non-contiguous inputs, numpy's errors. Eigen- and singular vectors are compared up to sign."""
import math

import numpy
import pytest

import mnn.numpy as np

LA = np.linalg
RTOL = {"float32": 2e-4, "float64": 1e-9}


def rand(shape, dtype="float64", seed=0):
    r = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind in "iu":
        return r.integers(-5, 6, shape).astype(dtype)
    return r.standard_normal(shape).astype(dtype)


def spd(shape, dtype="float64", seed=0):
    a = rand(shape, "float64", seed)
    return (a @ numpy.swapaxes(a, -1, -2) + shape[-1] * numpy.eye(shape[-1])).astype(dtype)


def close(got, want, dtype=None):
    got = numpy.asarray(got)
    want = numpy.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    tol = RTOL.get(str(want.dtype), 1e-9)
    numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)


SQUARE = [(3, 3), (1, 1), (4, 6, 6), (2, 3, 4, 4)]
DTYPES = ["float32", "float64", "int32"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SQUARE)
def test_inv_det_slogdet(dtype, shape):
    a = rand(shape, dtype) + (3 * numpy.eye(shape[-1])).astype(dtype)
    close(LA.inv(np.asarray(a)), numpy.linalg.inv(a))
    close(LA.det(np.asarray(a)), numpy.linalg.det(a))
    s, l = LA.slogdet(np.asarray(a))
    ws, wl = numpy.linalg.slogdet(a)
    close(s, ws)
    close(l, wl)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("ashape,bshape", [((3, 3), (3,)), ((3, 3), (3, 2)), ((4, 5, 5), (4, 5, 1)),
                                           ((2, 1, 4, 4), (3, 4, 2)), ((5, 5), (2, 5, 3))])
def test_solve_broadcasts_like_numpy(dtype, ashape, bshape):
    a = rand(ashape, dtype, 1) + (4 * numpy.eye(ashape[-1])).astype(dtype)
    b = rand(bshape, dtype, 2)
    close(LA.solve(np.asarray(a), np.asarray(b)), numpy.linalg.solve(a, b))


def test_noncontiguous_inputs():
    base = rand((8, 8), "float64", 3) + 5 * numpy.eye(8)
    a = base[::-2, 1::2]
    close(LA.inv(np.asarray(base)[::-2, 1::2]), numpy.linalg.inv(a))
    close(LA.solve(np.asarray(base).T, np.asarray(base[:, 0])), numpy.linalg.solve(base.T, base[:, 0]))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5)])
def test_cholesky(dtype, shape):
    a = spd(shape, dtype)
    close(LA.cholesky(np.asarray(a)), numpy.linalg.cholesky(a))
    close(LA.cholesky(np.asarray(a), upper=True), numpy.linalg.cholesky(a, upper=True))


@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 4), (300, 70), (3, 41, 40), (64, 1)])
def test_qr_matches_numpy_signs_included(mode, shape):
    # tall reduced/r go through the thin primitive (only Q's first n columns are formed)
    a = rand(shape, "float64", 4)
    got, want = LA.qr(np.asarray(a), mode=mode), numpy.linalg.qr(a, mode=mode)
    if mode == "r":
        close(got, want)
    else:
        close(got.Q, want.Q)
        close(got.R, want.R)


@pytest.mark.parametrize("bad", [numpy.nan, numpy.inf])
def test_thin_qr_of_non_finite_input_matches_numpy_shapes(bad):
    a = rand((9, 4), "float64", 4)
    a[3, 2] = bad
    got, want = LA.qr(np.asarray(a)), numpy.linalg.qr(a)
    assert got.Q.shape == want.Q.shape and got.R.shape == want.R.shape
    assert numpy.isnan(numpy.asarray(got.R)).any() == numpy.isnan(want.R).any()


def test_thin_qr_float32_is_float32_and_orthonormal():
    a = rand((200, 30), "float32", 4)
    q, r = LA.qr(np.asarray(a))
    q, r = numpy.asarray(q), numpy.asarray(r)
    assert q.dtype == numpy.float32 and r.dtype == numpy.float32 and q.shape == (200, 30)
    numpy.testing.assert_allclose(q.T @ q, numpy.eye(30), atol=1e-5)
    numpy.testing.assert_allclose(q @ r, a, atol=1e-4)
    numpy.testing.assert_allclose(numpy.triu(r), r)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (3, 6, 6)])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(dtype, shape, uplo):
    a = rand(shape, dtype, 5)
    # a symmetric part plus junk in the triangle that must be ignored
    sym = (a + numpy.swapaxes(a, -1, -2)) / 2
    junk = numpy.triu(a, 1) * 7 if uplo == "L" else numpy.tril(a, -1) * 7
    x = (sym + junk).astype(dtype)
    w, v = LA.eigh(np.asarray(x), UPLO=uplo)
    ww, wv = numpy.linalg.eigh(x, UPLO=uplo)
    close(w, ww)
    close(numpy.abs(numpy.asarray(v)), numpy.abs(wv))  # up to sign per vector
    close(LA.eigvalsh(np.asarray(x), UPLO=uplo), numpy.linalg.eigvalsh(x, UPLO=uplo))


@pytest.mark.parametrize("full", [True, False])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 3, 6)])
def test_svd(full, shape):
    a = rand(shape, "float64", 6)
    u, s, vh = LA.svd(np.asarray(a), full_matrices=full)
    wu, ws, wvh = numpy.linalg.svd(a, full_matrices=full)
    close(s, ws)
    assert numpy.asarray(u).shape == wu.shape and numpy.asarray(vh).shape == wvh.shape
    k = min(shape[-2:])
    u, vh = numpy.asarray(u), numpy.asarray(vh)
    recon = (u[..., :, :k] * numpy.asarray(s)[..., None, :]) @ vh[..., :k, :]
    numpy.testing.assert_allclose(recon, a, atol=1e-12)
    eye_u = numpy.swapaxes(u, -1, -2) @ u
    numpy.testing.assert_allclose(eye_u, numpy.broadcast_to(numpy.eye(u.shape[-1]), eye_u.shape), atol=1e-12)
    close(LA.svdvals(np.asarray(a)), ws)
    close(LA.svd(np.asarray(a), compute_uv=False), ws)


def test_rank_deficient_svd_completes_the_basis():
    a = numpy.outer(numpy.arange(1.0, 5.0), numpy.arange(1.0, 4.0))  # rank 1, 4x3
    u, s, vh = (numpy.asarray(x) for x in LA.svd(np.asarray(a)))
    numpy.testing.assert_allclose(u.T @ u, numpy.eye(4), atol=1e-12)
    numpy.testing.assert_allclose(vh @ vh.T, numpy.eye(3), atol=1e-12)
    numpy.testing.assert_allclose((u[:, :3] * s) @ vh, a, atol=1e-12)
    assert int(LA.matrix_rank(np.asarray(a))) == 1


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_pinv_and_matrix_rank(shape):
    a = rand(shape, "float64", 7)
    close(LA.pinv(np.asarray(a)), numpy.linalg.pinv(a))
    close(LA.matrix_rank(np.asarray(a)), numpy.linalg.matrix_rank(a))


@pytest.mark.parametrize("bshape", [(6,), (6, 2)])
def test_lstsq(bshape):
    a = rand((6, 3), "float64", 8)
    b = rand(bshape, "float64", 9)
    x, res, rank, s = LA.lstsq(np.asarray(a), np.asarray(b))
    wx, wres, wrank, ws = numpy.linalg.lstsq(a, b)
    close(x, wx)
    close(res, wres)
    assert rank == wrank
    close(s, ws)


@pytest.mark.parametrize("ord", [None, 1, -1, 2, -2, math.inf, -math.inf, "fro", "nuc"])
def test_matrix_norms(ord):
    a = rand((2, 4, 5), "float64", 10)
    close(LA.norm(np.asarray(a), ord=ord, axis=(1, 2)), numpy.linalg.norm(a, ord=ord, axis=(1, 2)))
    close(LA.norm(np.asarray(a[0]), ord=ord), numpy.linalg.norm(a[0], ord=ord))


@pytest.mark.parametrize("ord", [None, 0, 1, 2, 3, 0.5, math.inf, -math.inf])
def test_vector_norms(ord):
    a = rand((3, 7), "float32", 11)
    close(LA.norm(np.asarray(a), ord=ord, axis=1), numpy.linalg.norm(a, ord=ord, axis=1))
    close(LA.norm(np.asarray(a), axis=0, keepdims=True), numpy.linalg.norm(a, axis=0, keepdims=True))
    close(LA.vector_norm(np.asarray(a), ord=2 if ord is None else ord),
          numpy.linalg.vector_norm(a, ord=2 if ord is None else ord))


@pytest.mark.parametrize("n", [0, 1, 2, 5, -1, -3])
def test_matrix_power(n):
    a = rand((3, 3), "float64", 12) + 2 * numpy.eye(3)
    close(LA.matrix_power(np.asarray(a), n), numpy.linalg.matrix_power(a, n))


def test_multi_dot_and_cond():
    a, b, c = rand((10, 30), seed=1), rand((30, 5), seed=2), rand((5, 60), seed=3)
    close(LA.multi_dot([np.asarray(a), np.asarray(b), np.asarray(c)]), numpy.linalg.multi_dot([a, b, c]))
    v = rand((10,), seed=4)
    close(LA.multi_dot([np.asarray(v), np.asarray(a), np.asarray(b)]), numpy.linalg.multi_dot([v, a, b]))
    m = rand((4, 4), seed=5) + 3 * numpy.eye(4)
    for p in [None, 1, 2, -2, "fro", math.inf]:
        close(LA.cond(np.asarray(m), p), numpy.linalg.cond(m, p))


def test_empty_stacks():
    e = numpy.zeros((0, 3, 3))
    close(LA.inv(np.asarray(e)), numpy.linalg.inv(e))
    close(LA.det(np.asarray(numpy.zeros((2, 0, 0)))), numpy.linalg.det(numpy.zeros((2, 0, 0))))
    assert LA.svd(np.asarray(numpy.zeros((0, 4, 2)))).S.shape == (0, 2)


def test_errors_are_numpys():
    with pytest.raises(LA.LinAlgError, match="Singular matrix") as info:
        LA.inv(np.asarray(numpy.ones((3, 3))))
    assert isinstance(info.value, ValueError)
    with pytest.raises(LA.LinAlgError, match="Singular matrix"):
        LA.solve(np.asarray(numpy.zeros((2, 2))), np.asarray(numpy.ones(2)))
    with pytest.raises(LA.LinAlgError, match="not positive definite"):
        LA.cholesky(np.asarray(-numpy.eye(3)))
    with pytest.raises(LA.LinAlgError, match="square"):
        LA.inv(np.asarray(numpy.ones((2, 3))))
    with pytest.raises(LA.LinAlgError, match="at least two-dimensional"):
        LA.det(np.asarray(numpy.ones(3)))
    with pytest.raises(TypeError, match="float16"):
        LA.inv(np.asarray(numpy.eye(2, dtype=numpy.float16)))
    s, l = LA.slogdet(np.asarray(numpy.ones((3, 3))))  # singular: no error, numpy's (0, -inf)
    assert float(s) == 0.0 and float(l) == -math.inf


# ---- eig / eigvals: compared with numpy up to the order of the eigenvalues and each vector's phase


def _sorted_eigvals(w):
    w = numpy.asarray(w)
    return numpy.sort_complex(w.astype(numpy.complex128)) if w.ndim == 1 else \
        numpy.stack([_sorted_eigvals(x) for x in w.reshape(-1, w.shape[-1])]).reshape(w.shape)


def _check_eig(a, w, v, tol):
    """A v = w v column by column, unit-norm columns, eigenvalues equal to numpy's as multisets."""
    a, w, v = numpy.asarray(a), numpy.asarray(w), numpy.asarray(v)
    want_w, _ = numpy.linalg.eig(a)
    assert w.dtype == want_w.dtype and v.dtype == want_w.dtype, (w.dtype, v.dtype, want_w.dtype)
    assert w.shape == want_w.shape and v.shape == a.shape
    scale = max(1.0, float(numpy.abs(a).max())) if a.size else 1.0
    numpy.testing.assert_allclose(_sorted_eigvals(w), _sorted_eigvals(want_w), rtol=tol, atol=tol * scale)
    numpy.testing.assert_allclose(a.astype(v.dtype) @ v, v * w[..., None, :], rtol=tol, atol=tol * scale)
    numpy.testing.assert_allclose(numpy.linalg.norm(v, axis=-2), 1.0, rtol=tol, atol=tol)


EIG_TOL = {"float32": 2e-3, "float64": 1e-8, "complex64": 2e-3, "complex128": 1e-8, "int32": 1e-8}


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (5, 5), (12, 12), (4, 6, 6), (2, 3, 4, 4), (40, 40)])
def test_eig_real_matches_numpy(dtype, shape):
    a = rand(shape, dtype, 3)
    w, v = LA.eig(np.asarray(a))
    _check_eig(a, w, v, EIG_TOL[dtype])
    wv = LA.eigvals(np.asarray(a))
    assert numpy.asarray(wv).dtype == numpy.linalg.eigvals(a).dtype
    numpy.testing.assert_allclose(_sorted_eigvals(wv), _sorted_eigvals(numpy.linalg.eigvals(a)),
                                  rtol=EIG_TOL[dtype], atol=EIG_TOL[dtype] * 10)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (7, 7), (3, 5, 5), (30, 30)])
def test_eig_complex_matches_numpy(dtype, shape):
    r = numpy.random.default_rng(4)
    a = (r.standard_normal(shape) + 1j * r.standard_normal(shape)).astype(dtype)
    w, v = LA.eig(np.asarray(a))
    _check_eig(a, w, v, EIG_TOL[dtype])
    wv = numpy.asarray(LA.eigvals(np.asarray(a)))
    assert wv.dtype == numpy.dtype(dtype)
    numpy.testing.assert_allclose(_sorted_eigvals(wv), _sorted_eigvals(numpy.linalg.eigvals(a)),
                                  rtol=EIG_TOL[dtype], atol=EIG_TOL[dtype] * 10)


@pytest.mark.parametrize("a", [
    [[2.0, 0.0], [0.0, 1.0]],                          # diagonal: real, exactly
    [[1.0, 2.0], [3.0, 4.0]],                          # real eigenvalues
    [[0.0, 1.0], [-1.0, 0.0]],                         # +-i
    [[1.0, 2.0, 0.0], [-2.0, 1.0, 0.0], [0.0, 0.0, 3.0]],  # a complex pair and a real one
    [[1.0, 1.0], [0.0, 1.0]],                          # defective (Jordan block)
    [[0.0, 0.0], [0.0, 0.0]],
    [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],  # permutation: roots of unity
    numpy.triu(numpy.arange(1.0, 17.0).reshape(4, 4)),    # triangular
    numpy.diag([1.0, 1.0, 2.0, 2.0]) + numpy.diag([1e-3, 0.0, 1e-3], 1),
])
def test_eig_special_matrices(a):
    a = numpy.asarray(a, dtype="float64")
    w, v = LA.eig(np.asarray(a))
    w, v = numpy.asarray(w), numpy.asarray(v)
    want_w = numpy.linalg.eigvals(a)
    assert w.dtype == want_w.dtype
    numpy.testing.assert_allclose(_sorted_eigvals(w), _sorted_eigvals(want_w), atol=1e-7)
    numpy.testing.assert_allclose(a.astype(v.dtype) @ v, v * w[None, :], atol=1e-7)
    numpy.testing.assert_allclose(numpy.linalg.norm(v, axis=0), 1.0, atol=1e-12)


def test_eig_real_result_only_when_whole_stack_is_real():
    # numpy decides real vs complex over the whole stack: one rotation makes every result complex
    a = numpy.stack([numpy.diag([1.0, 2.0]), numpy.array([[0.0, 1.0], [-1.0, 0.0]])])
    w, v = LA.eig(np.asarray(a))
    assert numpy.asarray(w).dtype == numpy.complex128 and numpy.asarray(v).dtype == numpy.complex128
    assert numpy.asarray(LA.eig(np.asarray(a[:1]))[0]).dtype == numpy.float64
    f32 = numpy.asarray(LA.eigvals(np.asarray(a.astype("float32"))))
    assert f32.dtype == numpy.complex64


def test_eig_symmetric_matches_eigh():
    a = spd((6, 6), "float64", 5)
    w, v = LA.eig(np.asarray(a))
    assert numpy.asarray(w).dtype == numpy.float64
    numpy.testing.assert_allclose(numpy.sort(numpy.asarray(w)), numpy.linalg.eigvalsh(a), rtol=1e-10)


def test_eig_noncontiguous_and_empty():
    a = rand((7, 7), "float64", 6)
    w, v = LA.eig(np.asarray(a)[::2, ::2])
    _check_eig(a[::2, ::2], w, v, 1e-8)
    w, v = LA.eig(np.asarray(a).T)
    _check_eig(a.T, w, v, 1e-8)
    for shape, dtype in [((0, 0), "float64"), ((2, 0, 0), "float32"), ((0, 3, 3), "float64")]:
        e = numpy.zeros(shape, dtype)
        w, v = LA.eig(np.asarray(e))
        ww, wv = numpy.linalg.eig(e)
        assert numpy.asarray(w).shape == ww.shape and numpy.asarray(w).dtype == ww.dtype
        assert numpy.asarray(v).shape == wv.shape and numpy.asarray(v).dtype == wv.dtype
        assert numpy.asarray(LA.eigvals(np.asarray(e))).dtype == numpy.linalg.eigvals(e).dtype


def test_eig_errors_like_numpy():
    with pytest.raises(LA.LinAlgError, match="square"):
        LA.eig(np.ones((2, 3)))
    with pytest.raises(LA.LinAlgError, match="two-dimensional"):
        LA.eigvals(np.ones(3))
    with pytest.raises(LA.LinAlgError, match="infs or NaNs"):
        LA.eig(np.asarray([[math.nan, 1.0], [1.0, 1.0]]))
    with pytest.raises(LA.LinAlgError, match="infs or NaNs"):
        LA.eigvals(np.asarray([[math.inf, 1.0], [1.0, 1.0]]))
    with pytest.raises(TypeError, match="float16"):
        LA.eig(np.ones((2, 2), dtype=np.float16))
    assert issubclass(LA.LinAlgError, ValueError)


@pytest.mark.parametrize("a", [[[0.0, 0.0, 0.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[1.0, 2.0], [2.0, 4.0]],
                               [[0.0, 0.0], [0.0, 1e-300]]])
def test_svd_converges_on_rank_deficient_input(a):
    # a column that Jacobi rotations reduce to rounding noise must not stall convergence
    a = numpy.asarray(a)
    u, s, vh = (numpy.asarray(x) for x in LA.svd(np.asarray(a)))
    numpy.testing.assert_allclose(s, numpy.linalg.svd(a, compute_uv=False), atol=1e-12)
    numpy.testing.assert_allclose((u * s) @ vh, a, atol=1e-12)
    numpy.testing.assert_allclose(u.T @ u, numpy.eye(len(u)), atol=1e-12)


@pytest.mark.parametrize("n", [4, 10, 13, 22, 28])
def test_eig_repeated_eigenvalues_of_symmetric_matrix_stay_real(n):
    # Q D Q^T with doubled eigenvalues: rounding noise may pair two equal eigenvalues in a 2x2 block
    # with a noise-level imaginary part; the result must stay real (LAPACK's sometimes turns complex)
    r = numpy.random.default_rng(n)
    q, _ = numpy.linalg.qr(r.standard_normal((n, n)))
    a = q @ numpy.diag(numpy.repeat(r.standard_normal((n + 1) // 2), 2)[:n]) @ q.T
    for x in (a, (a + a.T) / 2):
        w, v = (numpy.asarray(t) for t in LA.eig(np.asarray(x)))
        assert w.dtype == numpy.float64 and v.dtype == numpy.float64
        numpy.testing.assert_allclose(numpy.sort(w), numpy.linalg.eigvalsh((x + x.T) / 2), atol=1e-12)
        numpy.testing.assert_allclose(x @ v, v * w, atol=1e-12)


def _match_error(w, ref):
    """Largest distance after pairing each reference eigenvalue with the nearest unused one of w
    (sorting complex numbers is unstable where real parts are rounding noise)."""
    w, left, worst = list(numpy.asarray(w, complex)), list(numpy.asarray(ref, complex)), 0.0
    assert numpy.isfinite(w).all() and numpy.isfinite(left).all()
    for r in left:
        i = int(numpy.argmin([abs(x - r) for x in w]))
        worst = max(worst, abs(w.pop(i) - r))
    return worst


def _hard_matrices(n):
    cyc = numpy.roll(numpy.eye(n), 1, axis=0)
    up, down = numpy.diag(numpy.ones(n - 1), 1), numpy.diag(numpy.ones(n - 1), -1)
    comp = down.copy()
    comp[0] = numpy.linspace(-1, 1, n)
    blk = numpy.zeros((n, n))
    blk[:n // 2, :n // 2] = rand((n // 2, n // 2), "float64", n)
    return {"cyclic": cyc, "companion": comp, "tridiag": up + down, "skew": up - down, "ones": numpy.ones((n, n)),
            "antidiag": numpy.eye(n)[::-1], "nilpotent": up, "half-zero": blk}


@pytest.mark.parametrize("n", [2, 3, 5, 8, 15, 16, 24, 39])
@pytest.mark.parametrize("kind", ["cyclic", "companion", "tridiag", "skew", "ones", "antidiag", "nilpotent",
                                  "half-zero"])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eig_converges_on_structured_matrices(n, kind, dtype):
    # exact symmetries (cycles, rank one, zero blocks) stall plain QR shifts; these need the
    # exceptional shifts and the noise-level deflation
    a = _hard_matrices(n)[kind].astype(dtype)
    w, v = (numpy.asarray(x) for x in LA.eig(np.asarray(a)))
    ref = numpy.linalg.eigvals(a)
    assert _match_error(w, ref) < 1e-6
    numpy.testing.assert_allclose(a @ v, v * w[None, :], atol=1e-10)


@pytest.mark.parametrize("scale", [1e300, 1e200, 1e-200, 1e-300, 1e-310])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eig_extreme_magnitudes(scale, dtype):
    # squared norms of such entries overflow or underflow: the matrix is scaled by a power of two first
    a = (numpy.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]) * scale).astype(dtype)
    if dtype == "complex128":
        a = a * (1 + 0.5j)
    w, v = (numpy.asarray(x) for x in LA.eig(np.asarray(a)))
    ref = numpy.linalg.eigvals(a)
    assert w.dtype == ref.dtype

    def unscale(x):  # part by part: complex division by a subnormal overflows in numpy
        return x.real / scale + 1j * (x.imag / scale) if x.dtype.kind == "c" else x / scale
    assert numpy.isfinite(unscale(w)).all()
    assert _match_error(unscale(w), unscale(ref)) < 1e-12
    numpy.testing.assert_allclose(numpy.linalg.norm(v, axis=0), 1.0, atol=1e-12)
    numpy.testing.assert_allclose(unscale(a) @ v, v * unscale(w), atol=1e-10)


@pytest.mark.parametrize("n", [4, 10, 30])
@pytest.mark.parametrize("kind", ["real", "complex"])
def test_eig_order_usually_matches_lapack(n, kind):
    # same shift strategy and deflation tests as LAPACK's small-matrix QR (dlahqr/zlahqr, used below
    # n = 75): the eigenvalues come in numpy's order, unless rounding differences reorder them
    r = numpy.random.default_rng(100 + n)
    same = 0
    for _ in range(10):
        a = r.standard_normal((n, n)) + (1j * r.standard_normal((n, n)) if kind == "complex" else 0)
        w = numpy.asarray(LA.eigvals(np.asarray(a)))
        same += bool(numpy.allclose(w, numpy.linalg.eigvals(a), atol=1e-8))
    assert same >= 8, same


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_tensorsolve_matches_numpy(dtype):
    rng = numpy.random.default_rng(7)
    a = (rng.standard_normal((6, 4, 2, 3, 4)) * 3).astype(dtype)
    b = (rng.standard_normal((6, 4)) * 3).astype(dtype)
    if dtype == "int64":
        a = a + numpy.eye(24).reshape(6, 4, 2, 3, 4).astype(dtype) * 50
    want = numpy.linalg.tensorsolve(a, b)
    got = np.linalg.tensorsolve(np.asarray(a), np.asarray(b))
    assert got.shape == want.shape and str(got.dtype) == str(want.dtype)
    numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=1e-3 if dtype == "float32" else 1e-9, atol=1e-4)
    # axes move named axes of a to the end
    a2 = numpy.moveaxis(a.astype("float64"), 4, 0)
    numpy.testing.assert_allclose(numpy.asarray(np.linalg.tensorsolve(np.asarray(a2), np.asarray(b.astype("float64")), axes=(0,))),
                                  numpy.linalg.tensorsolve(a2, b.astype("float64"), axes=(0,)), rtol=1e-9, atol=1e-9)


def test_tensorsolve_and_tensorinv_errors():
    with pytest.raises(np.linalg.LinAlgError, match="tensorsolve"):
        np.linalg.tensorsolve(np.ones((2, 3, 4)), np.ones((2,)))
    with pytest.raises(ValueError, match="tensorinv"):
        np.linalg.tensorinv(np.ones((4, 4)), ind=0)
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.tensorinv(np.zeros((4, 2, 2)), ind=1)


@pytest.mark.parametrize("shape,ind", [((4, 6, 8, 3), 2), ((24, 8, 3), 1), ((2, 3, 6), 2)])
def test_tensorinv_matches_numpy(shape, ind):
    rng = numpy.random.default_rng(3)
    a = rng.standard_normal(shape)
    want = numpy.linalg.tensorinv(a, ind=ind)
    got = np.linalg.tensorinv(np.asarray(a), ind=ind)
    assert got.shape == want.shape
    numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=1e-8, atol=1e-10)
