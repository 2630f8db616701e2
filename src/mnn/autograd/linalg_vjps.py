"""Vector-Jacobian products of the dense linear-algebra primitives (csrc/ops/linalg), keyed by
primitive name like the rest of vjps.py, which merges this table into VJP.

The primitives return packed results (see csrc/ops/linalg/decompositions.cpp) that linalg.py
slices; the cotangent g arrives in the packed layout, zero where the caller dropped a part. The
formulas are the standard matrix-calculus ones (Giles 2008; Walter & Lehmann 2018 for QR;
Townsend 2016 for the SVD), written with mnn.numpy ops so the backward pass is lazy graph work.

Symmetric inputs (cholesky, eigh) are read from their lower triangle only, so the gradient is the
derivative of exactly that function: lower triangular, each off-diagonal entry standing for both
A[i, j] and A[j, i]. Any symmetric parameterisation (A = M M^T, A = (B + B^T) / 2) gets the same
gradient as torch's symmetric convention.

Eigenvectors and singular vectors are defined up to sign, so only losses invariant under those
signs have a gradient; for those the formulas are exact. Repeated eigenvalues/singular values make
the vector gradients infinite, as in torch; value-only gradients stay finite there.

eig/eigvals are differentiable where their result is real: linalg.py then records the real-output
primitives linalg_eig_real/linalg_eigvals_real (the tape carries real arrays only) and refuses
gradients of complex spectra.
"""
import mnn.numpy as np

from .. import _core


def _t(x):
    return np.swapaxes(x, -1, -2)


def _mm(a, b):
    return np.matmul(a, b)


def _solve(a, b):
    """a^{-1} b for stacks of matrices with equal batch shapes (lazy: a singular a raises when the
    gradient is evaluated)."""
    return _core.prim("linalg_solve", [a, b])


def _diag_embed(d):
    n = d.shape[-1]
    return np.expand_dims(d, -1) * np.eye(n, dtype=d.dtype)


def _diag(x):
    return np.diagonal(x, axis1=-2, axis2=-1)


def _tril(x, k=0):
    return np.tril(x, k)


def _lower_only(sym):
    """The gradient w.r.t. the lower triangle of a function that mirrors it into a symmetric
    matrix, from the gradient `sym` w.r.t. that symmetric matrix (not necessarily symmetric)."""
    return _tril(sym + _t(sym)) - _diag_embed(_diag(sym))


def _inv(node, xs, g):
    out = node.output
    ot = _t(out)
    return [-_mm(_mm(ot, g), ot)]


def _solve_vjp(node, xs, g):
    a, _ = xs
    gb = _solve(_t(a), g)
    return [-_mm(gb, _t(node.output)), gb]


def _slogdet(node, xs, g):
    # packed (sign, log|det|, det): the sign is piecewise constant; d log|det| = tr(A^{-1} dA) and
    # d det = tr(adj(A) dA), adj(A) = det(A) A^{-1} where A is invertible
    a, = xs
    out = node.output
    glog, gdet = g[..., 1], g[..., 2]
    if bool(np.any(out[..., 0] == 0)) and not _any_nonzero(glog):
        return [_expand2(gdet) * _t(_adjugate_svd(a))]  # an exactly singular matrix: det still has a gradient
    coef = glog + gdet * out[..., 2]
    return [_expand2(coef) * _t(_core.prim("linalg_inv", [a]))]


def _expand2(x):
    return np.expand_dims(np.expand_dims(x, -1), -1)


def _adjugate_svd(a):
    """adj(A) for any square A, singular too: with A = U S V^T, adj(A) = det(U) det(V) V adj(S) U^T
    and adj(S) = diag(prod_{j != i} s_j)."""
    u, s, v = _svd_parts(a)
    n = s.shape[-1]
    others = np.stack([np.prod(np.concatenate([s[..., :i], s[..., i + 1:]], axis=-1), axis=-1) for i in range(n)],
                      axis=-1) if n > 1 else np.ones(s.shape, dtype=s.dtype)
    sign = _core.prim("linalg_slogdet", [u])[..., 2] * _core.prim("linalg_slogdet", [v])[..., 2]
    return _expand2(sign) * _mm(v * np.expand_dims(others, -2), _t(u))


def _cholesky(node, xs, g):
    # A = L L^T; with P = L^T gL, dA's gradient is L^{-T} phi(P) L^{-1}, phi = lower triangle with
    # the diagonal halved, then read through the symmetric mirror of the lower triangle
    low = node.output
    p = _mm(_t(low), _tril(g))
    phi = _tril(p) - 0.5 * _diag_embed(_diag(p))
    x = _solve(_t(low), _t(_solve(_t(low), _t(phi))))  # L^{-T} phi L^{-1}
    return [_lower_only(0.5 * (x + _t(x)))]


def _eigh(node, xs, g):
    # packed [w | V]: dw_k = v_k^T dA v_k, dV = V (F o (V^T dA V)) with F_ij = 1 / (w_j - w_i)
    out = node.output
    w, v = out[..., :, 0], out[..., :, 1:]
    gw, gv = g[..., :, 0], g[..., :, 1:]
    if not _any_nonzero(gv):  # eigenvalues alone: defined even where eigenvalues repeat
        return [_lower_only(_mm(v * np.expand_dims(gw, -2), _t(v)))]
    diff = np.expand_dims(w, -2) - np.expand_dims(w, -1)  # [i, j] = w_j - w_i
    n = w.shape[-1]
    eye = np.eye(n, dtype=w.dtype)
    f = np.where(eye == 1, 0.0, 1.0 / np.where(eye == 1, 1.0, diff)).astype(w.dtype)
    inner = _diag_embed(gw) + f * _mm(_t(v), gv)
    ga = _mm(_mm(v, inner), _t(v))
    return [_lower_only(0.5 * (ga + _t(ga)))]


def _copyltu(m):
    return _tril(m) + _t(_tril(m, -1))


def _qr_square(q, r, gq, gr):
    """Reduced QR backward for m >= n (q m x n, r n x n): (gQ + Q copyltu(M)) R^{-T} with
    M = R gR^T - gQ^T Q."""
    m = _mm(r, _t(gr)) - _mm(_t(gq), q)
    b = gq + _mm(q, _copyltu(m))
    return _t(_solve(r, _t(b)))


def _any_nonzero(x):
    return bool(x.size) and bool(np.any(x != 0))


def _unsupported_if_nonzero(x, what):
    if _any_nonzero(x):
        raise NotImplementedError(f"[mnn.autograd] {what}")


def _qr(node, xs, g):
    # packed [Q (m x m) | R (m x n)], complete; linalg.py's reduced mode slices Q[:, :k], R[:k]
    a, = xs
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    out = node.output
    q, r = out[..., :, :k], out[..., :k, m:]
    gq, gr = g[..., :, :k], g[..., :k, m:]
    _unsupported_if_nonzero(g[..., :, k:m], "qr: the gradient of the complete Q's extra columns (mode='complete' "
                                            "with m > n) is not defined")
    if m >= n:
        return [_qr_square(q, r, gq, gr)]
    # wide: A = [X | Y] = Q [U | V] with X = Q U square; Y = Q V feeds back into Q
    y = a[..., :, m:]
    u, gu, gvv = r[..., :, :m], gr[..., :, :m], gr[..., :, m:]
    gx = _qr_square(q, u, gq + _mm(y, _t(gvv)), gu)
    gy = _mm(q, gvv)
    return [np.concatenate([gx, gy], axis=-1)]


def _svd_parts(a):
    """Reduced U, S, V (not Vh) of a, recomputed for the backward of svdvals."""
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    p = _core.prim("linalg_svd", [a])
    batch = list(a.shape[:-2])
    u = np.reshape(p[..., :m * m], batch + [m, m])[..., :, :k]
    s = p[..., m * m:m * m + k]
    vh = np.reshape(p[..., m * m + k:], batch + [n, n])[..., :k, :]
    return u, s, _t(vh)


def _svd_backward(u, s, v, gu, gs, gv, m, n):
    """A = U diag(S) V^T, reduced (U m x k, V n x k); any of gu, gv may be None."""
    k = s.shape[-1]
    core = _diag_embed(gs) if gs is not None else None
    if gu is None and gv is None:
        return _mm(_mm(u, core), _t(v))
    s2 = s * s
    diff = np.expand_dims(s2, -2) - np.expand_dims(s2, -1)  # [i, j] = s_j^2 - s_i^2
    eye = np.eye(k, dtype=s.dtype)
    f = np.where(eye == 1, 0.0, 1.0 / np.where(eye == 1, 1.0, diff)).astype(s.dtype)
    sm = _diag_embed(s)
    inner = core if core is not None else np.zeros(list(s.shape) + [k], dtype=s.dtype)
    sinv = np.expand_dims(1.0 / s, -2)  # scales columns: X diag(1/s)
    extra = None
    if gu is not None:
        ut_gu = _mm(_t(u), gu)
        inner = inner + _mm(f * (ut_gu - _t(ut_gu)), sm)
        if m > k:  # the part of gU outside span(U)
            extra = _mm((gu - _mm(u, ut_gu)) * sinv, _t(v))
    if gv is not None:
        vt_gv = _mm(_t(v), gv)
        inner = inner + _mm(sm, f * (vt_gv - _t(vt_gv)))
        if n > k:
            e2 = _mm(u * sinv, _t(gv - _mm(v, vt_gv)))
            extra = e2 if extra is None else extra + e2
    ga = _mm(_mm(u, inner), _t(v))
    return ga if extra is None else ga + extra


def _svd(node, xs, g):
    # packed [U (m x m) | S (k) | Vh (n x n)] flattened; full_matrices=False slices U[:, :k], Vh[:k]
    a, = xs
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    out = node.output
    batch = list(a.shape[:-2])
    u_full = np.reshape(out[..., :m * m], batch + [m, m])
    vh_full = np.reshape(out[..., m * m + k:], batch + [n, n])
    gu_full = np.reshape(g[..., :m * m], batch + [m, m])
    gvh_full = np.reshape(g[..., m * m + k:], batch + [n, n])
    _unsupported_if_nonzero(gu_full[..., :, k:], "svd: the gradient of U's extra columns (full_matrices=True, m > n) "
                                                 "is not defined; use full_matrices=False")
    _unsupported_if_nonzero(gvh_full[..., k:, :], "svd: the gradient of Vh's extra rows (full_matrices=True, n > m) "
                                                  "is not defined; use full_matrices=False")
    u, v = u_full[..., :, :k], _t(vh_full[..., :k, :])
    gu, gv = gu_full[..., :, :k], _t(gvh_full[..., :k, :])
    gs = g[..., m * m:m * m + k]
    # skip the vector terms when no gradient reaches the vectors: S alone is always well defined
    gu = gu if _any_nonzero(gu) else None
    gv = gv if _any_nonzero(gv) else None
    return [_svd_backward(u, out[..., m * m:m * m + k], v, gu, gs, gv, m, n)]


def _svd_thin(node, xs, g):
    # packed [U (m x k) | S (k) | Vh (k x n)] flattened (full_matrices=False)
    a, = xs
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    out = node.output
    batch = list(a.shape[:-2])
    u = np.reshape(out[..., :m * k], batch + [m, k])
    v = _t(np.reshape(out[..., m * k + k:], batch + [k, n]))
    gu = np.reshape(g[..., :m * k], batch + [m, k])
    gv = _t(np.reshape(g[..., m * k + k:], batch + [k, n]))
    gs = g[..., m * k:m * k + k]
    gu = gu if _any_nonzero(gu) else None
    gv = gv if _any_nonzero(gv) else None
    return [_svd_backward(u, out[..., m * k:m * k + k], v, gu, gs, gv, m, n)]


def _svdvals(node, xs, g):
    a, = xs
    u, _, v = _svd_parts(a)
    return [_mm(u * np.expand_dims(g, -2), _t(v))]


def _eig_general(a, w, v, gw, gv):
    """A V = V diag(w), real, columns of unit norm: with M = V^T gV,
    gA = V^{-T} (diag(gw) + F o (M - V^T V diag(M))) V^T, F_ij = 1 / (w_j - w_i) off the diagonal."""
    inner = _diag_embed(gw) if gw is not None else None
    if gv is not None:
        m = _mm(_t(v), gv)
        n = w.shape[-1]
        eye = np.eye(n, dtype=w.dtype)
        diff = np.expand_dims(w, -2) - np.expand_dims(w, -1)
        f = np.where(eye == 1, 0.0, 1.0 / np.where(eye == 1, 1.0, diff)).astype(w.dtype)
        term = f * (m - _mm(_t(v), v) * np.expand_dims(_diag(m), -2))
        inner = term if inner is None else inner + term
    return _solve(_t(v), _mm(inner, _t(v)))


def _eig_real(node, xs, g):
    a, = xs
    out = node.output
    gv = g[..., :, 1:]
    return [_eig_general(a, out[..., :, 0], out[..., :, 1:], g[..., :, 0], gv if _any_nonzero(gv) else None)]


def _eigvals_real(node, xs, g):
    a, = xs
    p = _core.prim("linalg_eig_real", [a])
    return [_eig_general(a, p[..., :, 0], p[..., :, 1:], g, None)]


LINALG_VJP = {
    "linalg_eig_real": _eig_real,
    "linalg_eigvals_real": _eigvals_real,
    "linalg_inv": _inv,
    "linalg_solve": _solve_vjp,
    "linalg_slogdet": _slogdet,
    "linalg_cholesky": _cholesky,
    "linalg_eigh": _eigh,
    "linalg_qr": _qr,
    "linalg_svd": _svd,
    "linalg_svd_thin": _svd_thin,
    "linalg_svdvals": _svdvals,
}
