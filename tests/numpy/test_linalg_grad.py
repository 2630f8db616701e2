"""Gradients of mnn.numpy.linalg (vjps in mnn/autograd/linalg_vjps.py) against central finite
differences of the same mnn function in float64, and against torch.linalg where torch is installed.
Losses involving eigen-/singular vectors are chosen invariant under each vector's sign, the only
case where the gradient exists."""
import numpy
import pytest

import mnn
import mnn.numpy as mnp
from helpers import central_differences

LA = mnp.linalg


def _rand(shape, seed):
    return numpy.random.default_rng(seed).standard_normal(shape)


def _spd(shape, seed):
    a = _rand(shape, seed)
    return a @ numpy.swapaxes(a, -1, -2) + shape[-1] * numpy.eye(shape[-1])


def _distinct_sym(n, seed):
    """A symmetric matrix with well separated eigenvalues (vector gradients scale as 1 / gap)."""
    q, _ = numpy.linalg.qr(_rand((n, n), seed))
    return q @ numpy.diag(numpy.arange(1.0, n + 1.0) * 1.5) @ q.T


def _loss_value(f, arrs):
    with mnn.no_grad():
        return float(numpy.asarray(f(*[mnp.array(a) for a in arrs])))


def _fd(f, xs, eps=1e-6):
    return central_differences(lambda arrs: _loss_value(f, arrs), xs, eps)


def check(f, *xs, tol=1e-6):
    """mnn.grad of scalar f w.r.t. every argument equals central differences."""
    xs = [numpy.asarray(x, dtype="float64") for x in xs]
    got = mnn.grad(f, argnums=tuple(range(len(xs))))(*[mnp.array(x) for x in xs])
    want = _fd(f, xs)
    for g, w in zip(got, want):
        g = numpy.asarray(g)
        assert g.shape == w.shape and g.dtype == numpy.float64
        assert numpy.isfinite(g).all() and numpy.isfinite(w).all()  # allclose would pass NaN == NaN
        numpy.testing.assert_allclose(g, w, rtol=tol, atol=tol)
    return [numpy.asarray(g) for g in got]


def W(shape, seed=99):
    return mnp.array(_rand(shape, seed))


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
def test_inv(shape):
    a = _rand(shape, 1) + 3 * numpy.eye(shape[-1])
    check(lambda x: mnp.sum(LA.inv(x) * W(shape)), a)


@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (2, 4, 4)])
def test_det_slogdet(shape):
    a = _rand(shape, 2) + 2 * numpy.eye(shape[-1])
    w = W(shape[:-2])
    check(lambda x: mnp.sum(LA.det(x) * w), a)
    check(lambda x: mnp.sum(LA.slogdet(x)[1] * w), a)
    check(lambda x: mnp.sum(LA.slogdet(x).sign * w + LA.slogdet(x).logabsdet), a)


@pytest.mark.parametrize("ashape,bshape", [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 4, 4), (2, 4, 3)),
                                           ((4, 4), (2, 4, 1))])
def test_solve(ashape, bshape):
    a = _rand(ashape, 3) + 3 * numpy.eye(ashape[-1])
    b = _rand(bshape, 4)
    out_shape = numpy.linalg.solve(a, b).shape
    check(lambda x, y: mnp.sum(LA.solve(x, y) * W(out_shape)), a, b)


@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (2, 4, 4)])
def test_cholesky_reads_lower_triangle(shape):
    a = _spd(shape, 5)
    g, = check(lambda x: mnp.sum(LA.cholesky(x) * W(shape)), a)
    assert numpy.all(numpy.triu(g, 1) == 0)  # the upper triangle is never read
    check(lambda x: mnp.sum(LA.cholesky(x, upper=True) * W(shape)), a)


def test_cholesky_through_symmetric_parameterisation():
    m = _rand((4, 4), 6)
    check(lambda x: mnp.sum(LA.cholesky(x @ mnp.swapaxes(x, -1, -2) + 4 * mnp.eye(4)) * W((4, 4))), m)


@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(uplo):
    a = _distinct_sym(4, 7)
    wv, wvec = W((4,)), W((4, 4))
    check(lambda x: mnp.sum(LA.eigvalsh(x, UPLO=uplo) * wv), a)
    check(lambda x: mnp.sum(LA.eigh(x, UPLO=uplo).eigenvectors ** 2 * wvec), a)
    check(lambda x: mnp.sum(LA.eigh(x, UPLO=uplo)[0] * wv) + mnp.sum(LA.eigh(x, UPLO=uplo)[1] ** 2 * wvec), a)


def test_eigh_batched_through_symmetric_parameterisation():
    b = numpy.stack([_distinct_sym(3, 8), _distinct_sym(3, 9)])
    wvec = W((2, 3, 3))
    check(lambda x: mnp.sum(LA.eigh((x + mnp.swapaxes(x, -1, -2)) / 2)[1] ** 2 * wvec), b)


@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (2, 4, 4), (2, 6, 2), (3, 5), (2, 2, 4)])
def test_qr_reduced(shape):
    a = _rand(shape, 10)
    q_shape, r_shape = (x.shape for x in numpy.linalg.qr(a))
    wq, wr = W(q_shape, 11), W(r_shape, 12)
    check(lambda x: mnp.sum(LA.qr(x).Q * wq) + mnp.sum(LA.qr(x).R * wr), a)
    check(lambda x: mnp.sum(LA.qr(x, mode="r") * wr), a)


def test_qr_complete_tall_q_extra_columns_refused():
    a = _rand((4, 2), 13)
    check(lambda x: mnp.sum(LA.qr(x, mode="complete").R * W((4, 2))), a)  # R alone is fine
    x = mnp.array(a)
    with pytest.raises(NotImplementedError, match="qr"):
        mnn.grad(lambda x: mnp.sum(LA.qr(x, mode="complete").Q * W((4, 4))))(x)


@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (2, 4, 3), (1, 1), (4, 1), (9, 3), (3, 9), (2, 7, 4)])
def test_svd_values_and_vectors(shape):
    a = _rand(shape, 14)
    k = min(shape[-2:])
    ws = W(shape[:-2] + (k,), 15)
    wuv = W(shape, 16)
    check(lambda x: mnp.sum(LA.svd(x, compute_uv=False) * ws), a)
    check(lambda x: mnp.sum(LA.svdvals(x) * ws), a)
    check(lambda x: mnp.sum(LA.svd(x).S * ws), a)  # full_matrices=True is fine when only S is used

    def uv(x):  # U Vh = sum_i u_i v_i^T: invariant under the sign of each singular pair
        u, s, vh = LA.svd(x, full_matrices=False)
        return mnp.sum((u @ vh) * wuv) + mnp.sum(s * ws)
    check(uv, a)

    def squares(x):
        u, s, vh = LA.svd(x, full_matrices=False)
        return mnp.sum(u ** 2 * W(u.shape, 17)) + mnp.sum(vh ** 2 * W(vh.shape, 18))
    check(squares, a)


def test_svd_full_matrices_extra_vectors_refused():
    with pytest.raises(NotImplementedError, match="full_matrices"):
        mnn.grad(lambda x: mnp.sum(LA.svd(x).U))(mnp.array(_rand((4, 2), 19)))


@pytest.mark.parametrize("ord_,axis", [(None, None), ("fro", None), (2, None), ("nuc", None), (-2, None),
                                       (1, None), (numpy.inf, None), (2, (0, 1)), (None, 0), (3, 1)])
def test_norm_by_composition(ord_, axis):
    a = _rand((4, 3), 20)
    check(lambda x: LA.norm(x, ord=ord_, axis=axis) if axis is None else mnp.sum(LA.norm(x, ord=ord_, axis=axis)),
          a)


def test_pinv_lstsq_cond_matrix_power_by_composition():
    a = _rand((5, 3), 21)
    b = _rand((5, 2), 22)
    check(lambda x: mnp.sum(LA.pinv(x) * W((3, 5))), a)
    check(lambda x, y: mnp.sum(LA.lstsq(x, y)[0] * W((3, 2))), a, b)
    sq = _rand((3, 3), 23) + 2 * numpy.eye(3)
    check(lambda x: LA.cond(x), sq)
    check(lambda x: mnp.sum(LA.matrix_power(x, -2) * W((3, 3))), sq)


# ---- against torch.linalg (symmetric conventions compared through a symmetric parameterisation)

def _torch_grad(fn, *xs):
    torch = pytest.importorskip("torch")
    ts = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    fn(torch, *ts).backward()
    return [t.grad.numpy() for t in ts]


@pytest.mark.parametrize("name", ["inv", "det", "slogdet", "solve", "cholesky", "eigh", "qr", "svd", "svdvals",
                                  "pinv"])
def test_against_torch(name):
    pytest.importorskip("torch")
    a = _rand((2, 4, 4), 30) + 2 * numpy.eye(4)
    sym = _distinct_sym(4, 31)
    b = _rand((2, 4, 2), 32)
    w = _rand((2, 4, 4), 33)
    ws = _rand((2, 4), 34)
    cases = {
        "inv": (lambda L, x: L.sum(L.linalg.inv(x) * L.asarray(w)), [a]),
        "det": (lambda L, x: L.sum(L.linalg.det(x) * L.asarray(ws[:, 0])), [a]),
        "slogdet": (lambda L, x: L.sum(L.linalg.slogdet(x)[1] * L.asarray(ws[:, 0])), [a]),
        "solve": (lambda L, x, y: L.sum(L.linalg.solve(x, y) * L.asarray(w[..., :2])), [a, b]),
        "cholesky": (lambda L, x: L.sum(L.linalg.cholesky(x @ L.swapaxes(x, -1, -2) + 4 * L.eye(4, dtype=x.dtype))
                                       * L.asarray(w)), [a]),
        "eigh": (lambda L, x: L.sum(L.linalg.eigh((x + L.swapaxes(x, -1, -2)) / 2)[1] ** 2 * L.asarray(w)) +
                 L.sum(L.linalg.eigh((x + L.swapaxes(x, -1, -2)) / 2)[0] * L.asarray(ws)), [sym]),
        "qr": (lambda L, x: L.sum(L.linalg.qr(x)[0] * L.asarray(w)) + L.sum(L.linalg.qr(x)[1] * L.asarray(w)), [a]),
        "svd": (lambda L, x: L.sum(_uvh(L, x) * L.asarray(w)), [a]),
        "svdvals": (lambda L, x: L.sum(L.linalg.svdvals(x) * L.asarray(ws)), [a]),
        "pinv": (lambda L, x: L.sum(L.linalg.pinv(x) * L.asarray(w)), [a]),
    }
    fn, xs = cases[name]
    want = _torch_grad(lambda torch, *ts: fn(_TorchNS(torch), *ts), *xs)
    got = mnn.grad(lambda *ms: fn(_MnnNS(), *ms), argnums=tuple(range(len(xs))))(*[mnp.array(x) for x in xs])
    for g, t in zip(got, want):
        assert numpy.isfinite(t).all()
        numpy.testing.assert_allclose(numpy.asarray(g), t, rtol=1e-7, atol=1e-9, equal_nan=False)


def _uvh(L, x):
    u, s, vh = L.linalg.svd(x, full_matrices=False)
    return u @ vh


class _MnnNS:
    linalg = LA
    sum = staticmethod(mnp.sum)
    swapaxes = staticmethod(mnp.swapaxes)

    @staticmethod
    def asarray(x):
        return mnp.array(x)

    @staticmethod
    def eye(n, dtype=None):
        return mnp.eye(n)


class _TorchNS:
    def __init__(self, torch):
        self.t = torch
        self.linalg = torch.linalg
        self.sum = torch.sum
        self.swapaxes = torch.swapaxes

    def asarray(self, x):
        return self.t.tensor(x, dtype=self.t.float64)

    def eye(self, n, dtype=None):
        return self.t.eye(n, dtype=self.t.float64)


def test_repeated_eigen_and_singular_values_when_only_values_are_used():
    # symmetric functions of repeated eigenvalues stay differentiable: no 1 / (w_i - w_j) may leak in
    two_i = 2 * numpy.eye(3)
    g, = check(lambda x: mnp.sum(LA.eigvalsh(x) ** 2), two_i)
    numpy.testing.assert_allclose(g, numpy.diag([4.0, 4.0, 4.0]))
    check(lambda x: mnp.sum(LA.eigh(x).eigenvalues), two_i)
    q, _ = numpy.linalg.qr(_rand((3, 3), 40))
    g, = check(lambda x: mnp.sum(LA.svdvals(x) ** 2), q)
    numpy.testing.assert_allclose(g, 2 * q, atol=1e-9)
    check(lambda x: LA.norm(x, "nuc"), q)


def test_gradient_dtype_float32():
    a = mnp.array(_rand((3, 3), 41) + 3 * numpy.eye(3), dtype=mnp.float32)
    for f in (lambda x: mnp.sum(LA.inv(x)), lambda x: LA.det(x), lambda x: mnp.sum(LA.svdvals(x)),
              lambda x: mnp.sum(LA.qr(x).R), lambda x: mnp.sum(LA.eigvalsh(x))):
        g = mnn.grad(f)(a)
        assert g.dtype == mnp.float32 and g.shape == (3, 3)
        g64 = mnn.grad(f)(a.astype(mnp.float64))
        numpy.testing.assert_allclose(numpy.asarray(g), numpy.asarray(g64), rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("a", [[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
                               [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[0.0]]])
def test_det_of_singular_matrix_has_the_adjugate_gradient(a):
    a = numpy.asarray(a)
    g, = check(lambda x: LA.det(x), a)
    n = a.shape[0]
    cof = numpy.array([[(-1) ** (i + j) * numpy.linalg.det(numpy.delete(numpy.delete(a, i, 0), j, 1)) if n > 1 else 1.0
                        for j in range(n)] for i in range(n)])
    numpy.testing.assert_allclose(g, cof, atol=1e-9)


def _real_spectrum(n, seed):
    """A non-symmetric matrix with well separated real eigenvalues."""
    p = _rand((n, n), seed) + n * numpy.eye(n)
    return p @ numpy.diag(numpy.arange(1.0, n + 1.0)) @ numpy.linalg.inv(p)


@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (2, 4, 4)])
def test_eig_real_spectrum(shape):
    a = _real_spectrum(shape[-1], 50) if len(shape) == 2 else numpy.stack([_real_spectrum(shape[-1], 51 + i)
                                                                           for i in range(shape[0])])
    ww, wv = W(shape[:-1], 52), W(shape, 53)
    check(lambda x: mnp.sum(LA.eigvals(x) * ww), a)
    check(lambda x: mnp.sum(LA.eig(x).eigenvalues * ww), a)
    check(lambda x: mnp.sum(LA.eig(x).eigenvectors ** 2 * wv) + mnp.sum(LA.eig(x)[0] * ww), a)


def test_eig_against_torch():
    torch = pytest.importorskip("torch")
    a = _real_spectrum(4, 54)
    wv, ww = _rand((4, 4), 55), _rand((4,), 56)
    t = torch.tensor(a, requires_grad=True)
    l, v = torch.linalg.eig(t)
    (torch.sum(l.real * torch.tensor(ww)) + torch.sum(v.real ** 2 * torch.tensor(wv))).backward()
    got = mnn.grad(lambda x: mnp.sum(LA.eig(x)[0] * mnp.array(ww)) + mnp.sum(LA.eig(x)[1] ** 2 * mnp.array(wv)))(
        mnp.array(a))
    numpy.testing.assert_allclose(numpy.asarray(got), t.grad.numpy(), rtol=1e-7, atol=1e-9)


def test_eig_complex_spectrum_gradient_refused_not_zero():
    rot = numpy.array([[0.0, 1.0], [-1.0, 0.0]])
    for f in (lambda x: mnp.sum(mnp.real(LA.eigvals(x))), lambda x: mnp.sum(mnp.abs(LA.eig(x)[1]))):
        with pytest.raises(NotImplementedError, match="complex eigenvalues"):
            mnn.grad(f)(mnp.array(rot))
    with mnn.no_grad():  # without a gradient to record, complex results are fine
        assert numpy.asarray(LA.eigvals(mnp.array(rot))).dtype == numpy.complex128
