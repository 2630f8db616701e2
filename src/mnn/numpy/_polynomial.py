"""numpy's classic polynomial API (highest power first): polyval, polyfit, vander, poly1d and its
arithmetic. The formulas follow numpy's (Horner's rule; least squares on a column-scaled
Vandermonde matrix) so results agree to rounding."""
import warnings

from . import _dtypes, _polyfit13
from ._common import asarray, ndarray


def _mnp():
    import sys
    return sys.modules["mnn.numpy"]


class RankWarning(RuntimeWarning):
    """polyfit's warning for a rank-deficient fit (numpy.exceptions.RankWarning)."""


def _coeffs(p):
    return p.coeffs if isinstance(p, poly1d) else asarray(p)


def vander(x, N=None, increasing=False):
    """Columns x**(N-1), ..., x**0 (or increasing), as repeated products like numpy's."""
    mnp = _mnp()
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("[mnn.numpy.vander] x must be a one-dimensional array or sequence.")
    if N is None:
        N = x.shape[0]
    dt = _dtypes.promote_types(x.dtype, _dtypes.int64)
    x = x.astype(dt)
    if N == 0:
        return mnp.empty((x.shape[0], 0), dtype=dt)
    cols = [mnp.ones_like(x)] + [x] * (N - 1)
    v = mnp.cumprod(mnp.stack(cols, axis=1), axis=1).astype(dt)
    return v if increasing else mnp.flip(v, axis=1)


def polyval(p, x):
    """Horner's rule: ((p[0] * x + p[1]) * x + ...) + p[-1]."""
    mnp = _mnp()
    if isinstance(p, poly1d):
        p = p.coeffs
        x = asarray(x)
    else:
        p = asarray(p)
        x = asarray(x)
    y = mnp.zeros_like(x)
    for k in range(p.shape[0]):
        y = y * x + p[k]
    return y


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares fit of a degree-`deg` polynomial; coefficients highest power first."""
    mnp = _mnp()
    if cov:
        raise NotImplementedError("[mnn.numpy.polyfit] cov= is not supported yet")
    order = int(deg) + 1
    x = asarray(x) + 0.0
    y = asarray(y) + 0.0
    if deg < 0:
        raise ValueError("[mnn.numpy.polyfit] expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("[mnn.numpy.polyfit] expected 1D vector for x")
    if x.size == 0:
        raise TypeError("[mnn.numpy.polyfit] expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("[mnn.numpy.polyfit] expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("[mnn.numpy.polyfit] expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * _dtypes.finfo(x.dtype).eps
    if w is None and not full:
        hit = _polyfit13.fit(x, y, order, rcond)
        if hit is not None:
            c, rank = hit
            if rank != order:
                warnings.warn("Polyfit may be poorly conditioned", RankWarning, stacklevel=2)
            return c
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = asarray(w) + 0.0
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = mnp.sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = mnp.linalg.lstsq(lhs, rhs, rcond=rcond)
    c = (c.T / scale).T
    if int(rank) != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    return c


def _trim(c):
    """Leading zeros off (numpy's poly1d keeps at least one coefficient)."""
    vals = c.tolist()
    k = 0
    while k < len(vals) - 1 and vals[k] == 0:
        k += 1
    return c[k:]


def _aligned(a1, a2):
    """Both coefficient arrays, the shorter padded with leading zeros; and whether either was a
    poly1d (the result is then a poly1d too)."""
    mnp = _mnp()
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = mnp.atleast_1d(_coeffs(a1)), mnp.atleast_1d(_coeffs(a2))
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = mnp.concatenate([mnp.zeros(diff, dtype=a1.dtype), a1])
    elif diff < 0:
        a2 = mnp.concatenate([mnp.zeros(-diff, dtype=a2.dtype), a2])
    return a1, a2, truepoly


def polyadd(a1, a2):
    a1, a2, truepoly = _aligned(a1, a2)
    val = a1 + a2
    return poly1d(val) if truepoly else val


def polysub(a1, a2):
    a1, a2, truepoly = _aligned(a1, a2)
    val = a1 - a2
    return poly1d(val) if truepoly else val


def polymul(a1, a2):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    val = _mnp().convolve(_coeffs(a1), _coeffs(a2))
    return poly1d(val) if truepoly else val


def polydiv(u, v):
    """Quotient and remainder of polynomial long division (numpy's loop; small remainders trimmed)."""
    mnp = _mnp()
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    u = mnp.atleast_1d(_coeffs(u)) + 0.0
    v = mnp.atleast_1d(_coeffs(v)) + 0.0
    m, n = u.shape[0] - 1, v.shape[0] - 1
    uv, vv = u.tolist(), v.tolist()  # a short sequential loop: plain Python floats, numpy's operations
    scale = 1.0 / vv[0]
    q = [0.0] * max(m - n + 1, 1)
    r = list(uv)
    for k in range(0, m - n + 1):
        d = scale * r[k]
        q[k] = d
        for j in range(n + 1):
            r[k + j] -= d * vv[j]
    dt = _dtypes.result_type(u.dtype, v.dtype)
    r_arr = mnp.asarray(r, dtype=dt)
    while r_arr.shape[0] > 1 and mnp.allclose(r_arr[0], 0, rtol=1e-14):
        r_arr = r_arr[1:]
    q_arr = mnp.asarray(q, dtype=dt)
    if truepoly:
        return poly1d(q_arr), poly1d(r_arr)
    return q_arr, r_arr


def polyder(p, m=1):
    m = int(m)
    if m < 0:
        raise ValueError("[mnn.numpy.polyder] Order of derivative must be positive (see polyint)")
    mnp = _mnp()
    truepoly = isinstance(p, poly1d)
    val = asarray(_coeffs(p))
    for _ in range(m):
        n = val.shape[0] - 1
        val = val[:-1] * mnp.arange(n, 0, -1)
    if m and val.shape[0] == 0:
        val = mnp.zeros(1, dtype=val.dtype)
    return poly1d(val) if truepoly else val


def polyint(p, m=1, k=None):
    m = int(m)
    if m < 0:
        raise ValueError("[mnn.numpy.polyint] Order of integral must be positive (see polyder)")
    mnp = _mnp()
    if k is None:
        k = [0] * m
    elif not isinstance(k, (list, tuple, ndarray)):
        k = [k] * m
    k = list(k.tolist() if isinstance(k, ndarray) else k)
    if len(k) == 1 and m > 1:
        k = k * m
    if len(k) < m:
        raise ValueError("[mnn.numpy.polyint] k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    val = asarray(_coeffs(p))
    for i in range(m):
        val = mnp.concatenate([val / mnp.arange(val.shape[0], 0, -1), mnp.asarray([k[i]], dtype=float)])
    return poly1d(val) if truepoly else val


def _eigvals(a, fn):
    return _mnp().linalg.eigvals(a)


def roots(p):
    """Roots of the polynomial with coefficients p (highest power first): eigenvalues of its
    companion matrix, as numpy computes them; zero trailing coefficients give zero roots."""
    mnp = _mnp()
    p = mnp.atleast_1d(asarray(p))
    if p.ndim != 1:
        raise ValueError("[mnn.numpy.roots] Input must be a rank-1 array.")
    nz = [i for i, v in enumerate(p.tolist()) if v != 0]
    if not nz:
        return mnp.asarray([])
    trailing = p.shape[0] - nz[-1] - 1
    p = p[nz[0]:nz[-1] + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(mnp.float64)
    n = p.shape[0]
    if n > 1:
        A = mnp.diag(mnp.ones((n - 2,), dtype=p.dtype), -1)
        A[0, :] = -p[1:] / p[0]
        r = _eigvals(A, "roots")
    else:
        r = mnp.asarray([])
    return mnp.concatenate([r, mnp.zeros(trailing, dtype=r.dtype)])


def poly(seq_of_zeros):
    """Coefficients of the monic polynomial with the given roots (1-d input)."""
    mnp = _mnp()
    z = mnp.atleast_1d(asarray(seq_of_zeros))
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = _eigvals(z, "poly")  # the characteristic polynomial of a matrix
    if z.ndim != 1:
        raise ValueError("[mnn.numpy.poly] input must be 1d or non-empty square 2d array.")
    dt = _dtypes.result_type(z.dtype, _dtypes.float64) if z.dtype.kind != "c" else z.dtype
    a = mnp.ones(1, dtype=dt)
    for r in z.tolist():
        a = mnp.convolve(a, mnp.asarray([1, -r], dtype=dt))
    if a.dtype.kind == "c":
        zs = z.tolist()
        pos = sorted(c for c in zs if c.imag > 0)
        neg = sorted(c.conjugate() for c in zs if c.imag < 0)
        if pos == neg:
            a = mnp.real(a).copy()
    return a


class poly1d:
    """A polynomial as an object: p(x), p + q, p * q, p.deriv(), p.integ(), p[k] (coefficient of x**k)."""
    __module__ = "mnn.numpy"
    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        mnp = _mnp()
        if isinstance(c_or_r, poly1d):
            self._coeffs = c_or_r._coeffs
            self._variable = variable or c_or_r._variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c = mnp.atleast_1d(asarray(c_or_r))
        if c.ndim > 1:
            raise ValueError("[mnn.numpy.poly1d] Polynomial must be 1d only.")
        c = _trim(c)
        if c.shape[0] == 0:
            c = mnp.asarray([0], dtype=c.dtype)
        self._coeffs = c
        self._variable = variable or "x"

    @property
    def coeffs(self):
        return self._coeffs

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self):
        return roots(self._coeffs)

    r = roots

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __len__(self):
        return self.order

    def __array__(self, dtype=None, copy=None):
        return self._coeffs.__array__(dtype)

    def __repr__(self):
        return f"poly1d({self._coeffs.tolist()!r})"

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __add__(self, other):
        return polyadd(self, other if isinstance(other, poly1d) else poly1d(other))

    __radd__ = __add__

    def __sub__(self, other):
        return polysub(self, other if isinstance(other, poly1d) else poly1d(other))

    def __rsub__(self, other):
        return polysub(poly1d(other), self)

    def __mul__(self, other):
        if isinstance(other, (int, float, complex)):
            return poly1d(self._coeffs * other)
        return polymul(self, poly1d(other))

    def __rmul__(self, other):
        return self.__mul__(other)

    def __truediv__(self, other):
        if isinstance(other, (int, float, complex)):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __pow__(self, n):
        if not isinstance(n, int) or n < 0:
            raise ValueError("[mnn.numpy.poly1d] Power to non-negative integers only.")
        res = poly1d([1])
        for _ in range(n):
            res = polymul(res, self)
        return res

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        a, b = self._coeffs, other._coeffs
        return a.shape == b.shape and bool((a == b).all())

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __getitem__(self, power):
        if power > self.order or power < 0:
            return _mnp().zeros((), dtype=self._coeffs.dtype)
        return self._coeffs[self.order - power]

    def __iter__(self):
        return iter(self._coeffs.tolist())

    def deriv(self, m=1):
        return poly1d(polyder(self._coeffs, m))

    def integ(self, m=1, k=0):
        return poly1d(polyint(self._coeffs, m, k))

