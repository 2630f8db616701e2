"""mnn.numpy.linalg: numpy.linalg (and the Array API linalg extension) on the engine.

The factorizations are native primitives (csrc/ops/linalg/decompositions.cpp) batched over
leading dimensions; norms, pinv, lstsq, matrix_rank, cond, matrix_power and multi_dot are
built from them and ordinary ops. Like numpy, inputs of integer or bool type are computed in
float64, float32 stays float32, float16 is refused; LinAlgError is raised on the calling line
(results are evaluated at once, since numpy raises there). Eigenvectors and singular vectors
are unique only up to sign: ours may differ from LAPACK's by a sign per vector.

eig/eigvals (csrc/ops/linalg/eig.cpp) follow numpy's result type: complex input gives complex
results; real input gives real results when every eigenvalue of the whole stack is real, complex
ones otherwise. Eigenvalues come in Schur-form order, the same shift strategy as LAPACK's below
n = 75, so usually numpy's order; eigenvectors have unit norm, complex ones with their largest
component real and positive (a phase or sign per vector may differ from LAPACK's).
Gradients (mnn/autograd/linalg_vjps.py) exist for every factorization with real results; eig
refuses them for complex spectra, since the autograd tape carries real arrays only.
"""
import builtins
import math
from collections import namedtuple

import mnn

from .. import _core
from . import _dtypes
from ._common import asarray
from ._linalg import matmul, outer, vecdot  # noqa: F401  (part of the linalg namespace)
from ._manipulation import matrix_transpose  # noqa: F401

LinAlgError = _core.LinAlgError

EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])


def _float(a, fn):
    """numpy's linalg input rule: ints/bool -> float64, float32/float64 kept, others refused."""
    a = asarray(a)
    kind = a.dtype.kind
    if kind in "biu":
        return a.astype(_dtypes.float64)
    if a.dtype == _dtypes.float16:
        raise TypeError(f"[mnn.numpy.linalg.{fn}] array type float16 is unsupported in linalg")
    return a


def _stack(a, fn, square=True):
    a = _float(a, fn)
    if a.ndim < 2:
        raise LinAlgError(f"[mnn.numpy.linalg.{fn}] {a.ndim}-dimensional array given. Array must be at least "
                          f"two-dimensional")
    if square and a.shape[-1] != a.shape[-2]:
        raise LinAlgError(f"[mnn.numpy.linalg.{fn}] Last 2 dimensions of the array must be square")
    return a


def _now(*xs):
    """numpy raises LinAlgError on the line that asked: evaluate here."""
    mnn.eval(*xs)
    return xs[0] if len(xs) == 1 else xs


def _empty_like_stack(a, shape=None):
    from ._creation import zeros
    return zeros(a.shape if shape is None else shape, dtype=a.dtype)


def solve(a, b):
    a = _stack(a, "solve")
    b = _float(b, "solve")
    dt = _dtypes.result_type(a.dtype, b.dtype)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    vector = b.ndim == 1  # numpy 2: b is a stack of vectors only when it is 1-d
    if vector:
        b = _core.reshape(b, list(b.shape) + [1])
    if b.shape[-2] != a.shape[-1]:
        raise ValueError(f"[mnn.numpy.linalg.solve] solve: Input operand 1 has a mismatch in its core dimension 0 "
                         f"(size {b.shape[-2]} is different from {a.shape[-1]})")
    batch = _broadcast_batch(a.shape[:-2], b.shape[:-2])
    if a.shape[:-2] != batch:
        a = _core.broadcast_to(a, list(batch) + list(a.shape[-2:]))
    if b.shape[:-2] != batch:
        b = _core.broadcast_to(b, list(batch) + list(b.shape[-2:]))
    if a.shape[-1] == 0 or b.shape[-1] == 0 or math.prod(batch) == 0:
        x = _empty_like_stack(b)
    else:
        x = _core.prim("linalg_solve", [a, b])
    if vector:
        x = _core.reshape(x, list(x.shape[:-1]))
    return _now(x)


def _broadcast_batch(s1, s2):
    from ._manipulation import broadcast_shapes
    return broadcast_shapes(tuple(s1), tuple(s2))


def inv(a):
    a = _stack(a, "inv")
    if a.size == 0:
        return _empty_like_stack(a)
    return _now(_core.prim("linalg_inv", [a]))


def _slogdet_packed(a, fn):
    a = _stack(a, fn)
    if a.shape[-1] == 0:  # the empty product: det 1
        from ._creation import ones, zeros
        shape = list(a.shape[:-2])
        return ones(shape, dtype=a.dtype), zeros(shape, dtype=a.dtype), ones(shape, dtype=a.dtype)
    p = _now(_core.prim("linalg_slogdet", [a]))
    return p[..., 0], p[..., 1], p[..., 2]


def slogdet(a):
    sign, logabs, _ = _slogdet_packed(a, "slogdet")
    return SlogdetResult(sign, logabs)


def det(a):
    return _slogdet_packed(a, "det")[2]


def cholesky(a, /, *, upper=False):
    a = _stack(a, "cholesky")
    if a.size == 0:
        return _empty_like_stack(a)
    low = _now(_core.prim("linalg_cholesky", [a]))
    return matrix_transpose(low) if upper else low


def qr(a, mode="reduced"):
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"[mnn.numpy.linalg.qr] Unrecognized mode '{mode}'")
    if mode == "raw":
        raise NotImplementedError("[mnn.numpy.linalg.qr] mode='raw' (LAPACK's Householder storage) is not supported")
    a = _stack(a, "qr", square=False)
    m, n = a.shape[-2], a.shape[-1]
    k = builtins.min(m, n)
    if a.size == 0:
        from ._creation import eye, zeros
        batch = list(a.shape[:-2])
        qcols, rrows = (m, m) if mode == "complete" else (k, k)
        q = _core.broadcast_to(eye(m, qcols, dtype=a.dtype), batch + [m, qcols]).copy()
        r = zeros(batch + [rrows, n], dtype=a.dtype)
        return r if mode == "r" else QRResult(q, r)
    if mode != "complete" and m > n and not _wants_grad(a):
        # the thin primitive forms only Q's first n columns; gradients go through the complete one
        p = _now(_core.prim("linalg_qr_thin", [a]))
        r = p[..., :k, k:].copy()
        return r if mode == "r" else QRResult(p[..., :, :k].copy(), r)
    p = _now(_core.prim("linalg_qr", [a]))
    if mode == "complete":
        return QRResult(p[..., :, :m].copy(), p[..., :, m:].copy())
    r = p[..., :k, m:].copy()
    if mode == "r":
        return r
    return QRResult(p[..., :, :k].copy(), r)


def _eigh_packed(a, fn, UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError(f"[mnn.numpy.linalg.{fn}] UPLO argument must be 'L' or 'U'")
    a = _stack(a, fn)
    if UPLO == "U":  # the kernel reads the lower triangle: mirror the upper one into it
        a = matrix_transpose(a)
    if a.size == 0:
        from ._creation import zeros
        return zeros(list(a.shape[:-1]), dtype=a.dtype), _empty_like_stack(a)
    p = _now(_core.prim("linalg_eigh", [a]))
    return p[..., :, 0].copy(), p[..., :, 1:].copy()


def eigh(a, UPLO="L"):
    w, v = _eigh_packed(a, "eigh", UPLO)
    return EighResult(w, v)


def eigvalsh(a, UPLO="L"):
    return _eigh_packed(a, "eigvalsh", UPLO)[0]


def _assert_finite(a, fn):
    from . import all as _all, isfinite
    if a.size and not bool(_all(isfinite(a))):
        raise LinAlgError(f"[mnn.numpy.linalg.{fn}] Array must not contain infs or NaNs")


def _real_if_all_real(a, *xs):
    """numpy's eig/eigvals rule: a real input whose eigenvalues are all real (over the whole stack,
    imaginary parts exactly 0, as the real Schur form delivers them) gives real results."""
    from . import any as _any, imag, real
    if a.dtype.kind == "c":
        return xs
    if xs[0].size and bool(_any(imag(xs[0]) != 0)):
        return xs
    return tuple(real(x).copy() for x in xs)


def _eig_input(a, fn):
    a = _stack(a, fn)
    _assert_finite(a, fn)
    return a


def _wants_grad(a):
    m = a._autograd
    return _core.grad_enabled() and m is not None and (m.requires_grad or m.grad_fn is not None)


def _differentiable(a, fn, complex_result, real_prim):
    """The autograd tape carries real arrays only: a real result is recomputed by the real-output
    primitive, which records the gradient; a complex one cannot be differentiated (refused here
    rather than silently giving a zero gradient)."""
    if complex_result:
        raise NotImplementedError(f"[mnn.numpy.linalg.{fn}] gradients through complex eigenvalues are not supported "
                                  f"(autograd carries real arrays only); under mnn.no_grad() the values are "
                                  f"available without gradients")
    return _now(_core.prim(real_prim, [a]))


def eig(a):
    """Eigenvalues and right eigenvectors (columns of unit norm; complex ones with their largest
    component real) of a stack of square matrices; real results where numpy gives them (see
    _real_if_all_real)."""
    a = _eig_input(a, "eig")
    if a.size == 0:
        from ._creation import zeros
        return EigResult(zeros(list(a.shape[:-1]), dtype=a.dtype), _empty_like_stack(a))
    p = _now(_core.prim("linalg_eig", [a]))
    w, v = _real_if_all_real(a, p[..., :, 0].copy(), p[..., :, 1:].copy())
    if _wants_grad(a):
        p = _differentiable(a, "eig", w.dtype.kind == "c", "linalg_eig_real")
        w, v = p[..., :, 0].copy(), p[..., :, 1:].copy()
    return EigResult(w, v)


def eigvals(a):
    a = _eig_input(a, "eigvals")
    if a.size == 0:
        from ._creation import zeros
        return zeros(list(a.shape[:-1]), dtype=a.dtype)
    w = _now(_core.prim("linalg_eigvals", [a]))
    w = _real_if_all_real(a, w)[0]
    if _wants_grad(a):
        w = _differentiable(a, "eigvals", w.dtype.kind == "c", "linalg_eigvals_real")
    return w


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    a = _stack(a, "svd", square=False)
    m, n = a.shape[-2], a.shape[-1]
    k = builtins.min(m, n)
    if not compute_uv:
        return svdvals(a)
    batch = list(a.shape[:-2])
    if a.size == 0:
        from ._creation import eye, zeros
        uc, vr = (m, n) if full_matrices else (k, k)
        u = _core.broadcast_to(eye(m, uc, dtype=a.dtype), batch + [m, uc]).copy()
        vh = _core.broadcast_to(eye(vr, n, dtype=a.dtype), batch + [vr, n]).copy()
        return SVDResult(u, zeros(batch + [k], dtype=a.dtype), vh)
    # the thin primitive forms only the k columns of U (and k rows of Vh) it returns
    uc, vr = (m, n) if full_matrices else (k, k)
    p = _now(_core.prim("linalg_svd" if full_matrices else "linalg_svd_thin", [a]))
    u = _core.reshape(p[..., :m * uc].copy(), batch + [m, uc])
    s = p[..., m * uc:m * uc + k].copy()
    vh = _core.reshape(p[..., m * uc + k:].copy(), batch + [vr, n])
    return SVDResult(u, s, vh)


def svdvals(x, /):
    a = _stack(x, "svdvals", square=False)
    if a.size == 0:
        from ._creation import zeros
        return zeros(list(a.shape[:-2]) + [builtins.min(a.shape[-2:])], dtype=a.dtype)
    return _now(_core.prim("linalg_svdvals", [a]))


def _eps(dt):
    return _dtypes.finfo(dt).eps


def pinv(a, rcond=None, hermitian=False, *, rtol=None):
    from ._reductions import max as _max
    a = _stack(a, "pinv", square=False)
    m, n = a.shape[-2], a.shape[-1]
    if rcond is None and rtol is None:
        cutoff = builtins.max(m, n) * _eps(a.dtype)
    else:
        cutoff = rtol if rcond is None else rcond
    u, s, vh = svd(a, full_matrices=False)
    if s.size == 0:
        return _empty_like_stack(a, list(a.shape[:-2]) + [n, m])
    big = s > asarray(cutoff) * _max(s, axis=-1, keepdims=True)
    from ._ufuncs import where
    sinv = where(big, 1.0 / where(big, s, 1.0), 0.0).astype(a.dtype)
    return matmul(matrix_transpose(vh) * _core.expand_dims(sinv, -2), matrix_transpose(u))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    from ._reductions import max as _max
    from ._reductions import sum as _sum
    A = asarray(A)
    if A.ndim < 2:
        from ._reductions import any as _any
        return _any(A != 0).astype(_dtypes.int64)
    s = svdvals(_float(A, "matrix_rank"))
    if tol is None:
        r = rtol if rtol is not None else builtins.max(A.shape[-2:]) * _eps(s.dtype)
        tol = _max(s, axis=-1, keepdims=True) * r
    else:
        tol = _core.expand_dims(asarray(tol), -1) if asarray(tol).ndim else asarray(tol)
    return _sum(s > tol, axis=-1)


def lstsq(a, b, rcond=None):
    from ._reductions import sum as _sum
    a = _stack(a, "lstsq", square=False)
    b = _float(b, "lstsq")
    if a.ndim != 2:
        raise LinAlgError("[mnn.numpy.linalg.lstsq] 2-dimensional array given. Array must be two-dimensional")
    vector = b.ndim == 1
    b2 = _core.reshape(b, [b.shape[0], 1]) if vector else b
    m, n = a.shape
    if b2.shape[0] != m:
        raise LinAlgError("[mnn.numpy.linalg.lstsq] Incompatible dimensions")
    if rcond is None:
        rcond = _eps(a.dtype) * builtins.max(m, n)
    u, s, vh = svd(a, full_matrices=False)
    from ._reductions import max as _max
    from ._ufuncs import where
    big = s > rcond * (_max(s) if s.size else 0)
    sinv = where(big, 1.0 / where(big, s, 1.0), 0.0).astype(a.dtype)
    x = matmul(matrix_transpose(vh), _core.expand_dims(sinv, -1) * matmul(matrix_transpose(u), b2))
    rank = _sum(big)
    _now(x, rank)  # one evaluation for both (int(rank) alone would be a second)
    resid_shape = [] if vector else [b2.shape[1]]
    if int(rank) == n and m > n:
        r = matmul(a, x) - b2
        resid = _sum(r * r, axis=0)
    else:
        from ._creation import zeros
        resid = zeros([0], dtype=a.dtype)
        resid_shape = None
    if vector:
        x = _core.reshape(x, [n])
        if resid_shape is not None:
            resid = _core.reshape(resid, [1])
    return _now(x), resid, int(rank), s


def matrix_power(a, n):
    a = asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise LinAlgError("[mnn.numpy.linalg.matrix_power] Last 2 dimensions of the array must be square")
    try:
        n = int(n) if not isinstance(n, bool) and float(n) == int(n) else None
    except (TypeError, ValueError):
        n = None
    if n is None:
        raise TypeError("[mnn.numpy.linalg.matrix_power] exponent must be an integer")
    if n == 0:
        from ._creation import eye
        return _core.broadcast_to(eye(a.shape[-1], dtype=a.dtype), list(a.shape)).copy()
    if n < 0:
        a, n = inv(a), -n
    result, base = None, a
    while n:  # binary exponentiation: log2(n) products
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def multi_dot(arrays, *, out=None):
    arrays = [asarray(x) for x in arrays]
    if len(arrays) < 2:
        raise ValueError("[mnn.numpy.linalg.multi_dot] Expecting at least two arrays.")
    first_vec, last_vec = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_vec:
        arrays[0] = _core.reshape(arrays[0], [1, arrays[0].shape[0]])
    if last_vec:
        arrays[-1] = _core.reshape(arrays[-1], [arrays[-1].shape[0], 1])
    for x in arrays:
        if x.ndim != 2:
            raise ValueError(f"[mnn.numpy.linalg.multi_dot] {x.ndim}-dimensional array given. Array must be "
                             f"two-dimensional")
    # the cheapest parenthesisation (classic matrix-chain dynamic programme)
    dims = [arrays[0].shape[0]] + [x.shape[1] for x in arrays]
    nmat = len(arrays)
    cost = [[0] * nmat for _ in range(nmat)]
    split = [[0] * nmat for _ in range(nmat)]
    for length in range(1, nmat):
        for i in range(nmat - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    def chain(i, j):
        if i == j:
            return arrays[i]
        return matmul(chain(i, split[i][j]), chain(split[i][j] + 1, j))

    r = chain(0, nmat - 1)
    if first_vec and last_vec:
        r = _core.reshape(r, [])
    elif first_vec:
        r = _core.reshape(r, [r.shape[1]])
    elif last_vec:
        r = _core.reshape(r, [r.shape[0]])
    from ._common import write_out
    return write_out(r, out, "multi_dot")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    from ._reductions import max as _max
    from ._reductions import min as _min
    from ._reductions import sum as _sum
    x = _float(x, "vector_norm")
    ax = axis
    if ax is None:
        flat = _core.reshape(x, [-1])
        r = vector_norm(flat, axis=0, ord=ord)
        return _core.reshape(r, [1] * x.ndim) if keepdims else r
    a = abs(x)
    if ord == math.inf:
        return _max(a, axis=ax, keepdims=keepdims)
    if ord == -math.inf:
        return _min(a, axis=ax, keepdims=keepdims)
    if ord == 0:
        return _sum(x != 0, axis=ax, keepdims=keepdims).astype(x.dtype)
    if ord == 1:
        return _sum(a, axis=ax, keepdims=keepdims)
    if ord == 2:
        return _core.ufunc(_core.OPCODES["sqrt"], _sum(x * x, axis=ax, keepdims=keepdims))
    return _sum(a ** ord, axis=ax, keepdims=keepdims) ** (1.0 / ord)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def norm(x, ord=None, axis=None, keepdims=False):
    from ._reductions import max as _max
    from ._reductions import min as _min
    from ._reductions import sum as _sum
    x = _float(x, "norm")
    if axis is None:
        if ord is None or (ord in ("f", "fro") and x.ndim == 2) or (ord == 2 and x.ndim == 1):
            r = _core.ufunc(_core.OPCODES["sqrt"], _sum(x * x))
            return _core.reshape(r, [1] * x.ndim) if keepdims else r
        if x.ndim not in (1, 2):
            raise ValueError("[mnn.numpy.linalg.norm] Improper number of dimensions to norm.")
        axis = tuple(range(x.ndim))
    if isinstance(axis, int):
        axis = (axis,)
    axis = tuple(int(a) for a in axis)
    if len(axis) == 1:
        if isinstance(ord, str):
            raise ValueError(f"[mnn.numpy.linalg.norm] Invalid norm order '{ord}' for vectors")
        return vector_norm(x, axis=axis[0], keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axis) != 2:
        raise ValueError("[mnn.numpy.linalg.norm] Improper number of dimensions to norm.")
    r0, c0 = (a % x.ndim for a in axis)
    if r0 == c0:
        raise ValueError("[mnn.numpy.linalg.norm] Duplicate axes given.")
    if ord in (None, "fro", "f"):
        r = _core.ufunc(_core.OPCODES["sqrt"], _sum(x * x, axis=axis, keepdims=keepdims))
        return r
    # move the two axes last for the SVD-based and row/column norms
    rest = [d for d in range(x.ndim) if d not in (r0, c0)]
    xm = _core.transpose(x, rest + [r0, c0])
    if ord in (2, -2, "nuc"):
        s = svdvals(xm)
        r = _max(s, axis=-1) if ord == 2 else _min(s, axis=-1) if ord == -2 else _sum(s, axis=-1)
    elif ord in (1, -1):
        col = _sum(abs(xm), axis=-2)
        r = _max(col, axis=-1) if ord == 1 else _min(col, axis=-1)
    elif ord in (math.inf, -math.inf):
        row = _sum(abs(xm), axis=-1)
        r = _max(row, axis=-1) if ord == math.inf else _min(row, axis=-1)
    else:
        raise ValueError("[mnn.numpy.linalg.norm] Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[r0] = shape[c0] = 1
        r = _core.reshape(r, shape)
    return r


def cond(x, p=None):
    x = _stack(x, "cond", square=p not in (None, 2, -2))
    if p in (None, 2, -2):
        s = svdvals(x)
        from ._reductions import max as _max
        from ._reductions import min as _min
        return _max(s, axis=-1) / _min(s, axis=-1) if p != -2 else _min(s, axis=-1) / _max(s, axis=-1)
    return norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))


def trace(x, /, *, offset=0, dtype=None):
    from . import trace as _trace
    return _trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x, /, *, offset=0):
    from ._manipulation import diagonal as _diagonal
    return _diagonal(x, offset=offset, axis1=-2, axis2=-1)


def cross(x1, x2, /, *, axis=-1):
    from . import cross as _cross
    return _cross(x1, x2, axis=axis)


def tensordot(x1, x2, /, *, axes=2):
    from . import tensordot as _tensordot
    return _tensordot(x1, x2, axes=axes)


def tensorsolve(a, b, axes=None):
    """Solves tensordot(a, x, axes=b.ndim) = b for x, as numpy.linalg.tensorsolve."""
    a, b = asarray(a), asarray(b)
    if axes is not None:
        # the named axes of a move to the end, in the order given
        order = [k for k in range(a.ndim) if k not in [ax % a.ndim for ax in axes]]
        order += [ax % a.ndim for ax in axes]
        a = a.transpose(order)
    x_shape = a.shape[b.ndim:]
    n = math.prod(x_shape)
    if a.size != n * n:
        raise LinAlgError("[mnn.numpy.linalg.tensorsolve] Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return solve(a.reshape(n, n), b.reshape(-1)).reshape(x_shape)


def tensorinv(a, ind=2):
    """The inverse of a under tensordot(., ., ind), as numpy.linalg.tensorinv."""
    a = asarray(a)
    if ind <= 0:
        raise ValueError("[mnn.numpy.linalg.tensorinv] Invalid ind argument.")
    inv_shape = a.shape[ind:] + a.shape[:ind]
    n = math.prod(a.shape[ind:])
    return inv(a.reshape(n, -1)).reshape(inv_shape)
