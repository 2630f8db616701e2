"""numpy.polynomial.polynomial on mnn: power series with coefficients in increasing degree, and the
Polynomial class with numpy's domain -> window mapping (fit() maps the data to [-1, 1] before the
least-squares fit, which keeps it well conditioned). Formulas follow numpy's, so values agree to
rounding."""
import math
import sys
import warnings

from ... import _core


def _mnp():
    return sys.modules["mnn.numpy"]


def _as_coef(c):
    """1-d float (or complex) coefficients: integers and bools become float64, as numpy's as_series."""
    mnp = _mnp()
    c = mnp.atleast_1d(mnp.asarray(c))
    if c.ndim != 1:
        raise ValueError("[mnn.numpy.polynomial] Coefficient array is not 1-d")
    if c.dtype.kind in "biu":
        c = c.astype(mnp.float64)
    return c


def polytrim(c, tol=0):
    """Trailing coefficients with |c| <= tol removed (at least one kept)."""
    c = _as_coef(c)
    vals = [abs(v) for v in c.tolist()]
    k = len(vals)
    while k > 1 and vals[k - 1] <= tol:
        k -= 1
    return c[:k]


def _trim_zeros(c):
    return polytrim(c, 0)


def polyval(x, c, tensor=True):
    """c[0] + c[1]*x + ... by Horner's rule from the highest degree (numpy's order of operations)."""
    mnp = _mnp()
    c = mnp.atleast_1d(mnp.asarray(c))
    if c.dtype.kind in "biu":
        c = c + 0.0
    if isinstance(x, (tuple, list)):
        x = mnp.asarray(x)
    if isinstance(x, _core.ndarray) and tensor:
        c = c.reshape(tuple(c.shape) + (1,) * x.ndim)
    c0 = c[-1] + x * 0
    for i in range(2, c.shape[0] + 1):
        c0 = c[-i] + c0 * x
    return c0


def polyvander(x, deg):
    """Columns x**0, x**1, ..., x**deg."""
    mnp = _mnp()
    x = mnp.asarray(x) + 0.0
    deg = int(deg)
    if deg < 0:
        raise ValueError("[mnn.numpy.polynomial.polyvander] deg must be non-negative")
    cols = [mnp.ones_like(x)]
    for _ in range(deg):
        cols.append(cols[-1] * x)
    return mnp.stack(cols, axis=-1)


def polyfit(x, y, deg, rcond=None, full=False, w=None):
    """Least-squares power series of degree deg; coefficients in increasing degree."""
    mnp = _mnp()
    x = mnp.asarray(x) + 0.0
    y = mnp.asarray(y) + 0.0
    deg = int(deg)
    if deg < 0:
        raise ValueError("[mnn.numpy.polynomial.polyfit] expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("[mnn.numpy.polynomial.polyfit] expected 1D vector for x")
    if x.size == 0:
        raise TypeError("[mnn.numpy.polynomial.polyfit] expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("[mnn.numpy.polynomial.polyfit] expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("[mnn.numpy.polynomial.polyfit] expected x and y to have same length")
    lhs = polyvander(x, deg).T
    rhs = y.T
    if w is not None:
        w = mnp.asarray(w) + 0.0
        lhs = lhs * w
        rhs = rhs * w
    if rcond is None:
        rcond = x.shape[0] * mnp.finfo(x.dtype).eps
    scl = mnp.sqrt(mnp.square(lhs).sum(1))
    scl = mnp.where(scl == 0, 1.0, scl)
    c, resids, rank, s = mnp.linalg.lstsq(lhs.T / scl, rhs.T, rcond=rcond)
    c = (c.T / scl).T
    if int(rank) != deg + 1 and not full:
        from .._polynomial import RankWarning
        warnings.warn("The fit may be poorly conditioned", RankWarning, stacklevel=2)
    if full:
        return c, [resids, rank, s, rcond]
    return c


def _pad_pair(c1, c2):
    mnp = _mnp()
    n = max(c1.shape[0], c2.shape[0])
    if c1.shape[0] < n:
        c1 = mnp.concatenate([c1, mnp.zeros(n - c1.shape[0], dtype=c1.dtype)])
    if c2.shape[0] < n:
        c2 = mnp.concatenate([c2, mnp.zeros(n - c2.shape[0], dtype=c2.dtype)])
    return c1, c2


def polyadd(c1, c2):
    a, b = _pad_pair(_as_coef(c1), _as_coef(c2))
    return _trim_zeros(a + b)


def polysub(c1, c2):
    a, b = _pad_pair(_as_coef(c1), _as_coef(c2))
    return _trim_zeros(a - b)


def polymul(c1, c2):
    return _trim_zeros(_mnp().convolve(_as_coef(c1), _as_coef(c2)))


def polyder(c, m=1, scl=1, axis=0):
    """Derivative m times; each one also multiplies by scl (the chain rule of a linear change of variable)."""
    mnp = _mnp()
    if axis != 0:
        raise NotImplementedError("[mnn.numpy.polynomial.polyder] only axis=0 is supported")
    c = _as_coef(c)
    m = int(m)
    if m < 0:
        raise ValueError("[mnn.numpy.polynomial.polyder] The order of derivation must be non-negative")
    n = c.shape[0]
    if m >= n:
        return c[:1] * 0
    for _ in range(m):
        n -= 1
        c = c * scl
        c = c[1:n + 1] * mnp.arange(1, n + 1)
    return c


def polyint(c, m=1, k=(), lbnd=0, scl=1, axis=0):
    """Integral m times; integration constants k, chosen so the value at lbnd is k (numpy's rule)."""
    mnp = _mnp()
    if axis != 0:
        raise NotImplementedError("[mnn.numpy.polynomial.polyint] only axis=0 is supported")
    c = _as_coef(c)
    m = int(m)
    if m < 0:
        raise ValueError("[mnn.numpy.polynomial.polyint] The order of integration must be non-negative")
    k = list(k) if isinstance(k, (list, tuple)) else [k]
    if len(k) > m:
        raise ValueError("[mnn.numpy.polynomial.polyint] Too many integration constants")
    k = k + [0] * (m - len(k))
    for i in range(m):
        n = c.shape[0]
        c = c * scl
        if n == 1 and float(abs(c[0])) == 0:
            c = c + k[i]
            continue
        tmp = mnp.concatenate([c[:1] * 0, c / mnp.arange(1, n + 1)])
        tmp[0] = tmp[0] + (k[i] - polyval(lbnd, tmp))
        c = tmp
    return c


def polyfromroots(roots):
    """Monic power series with the given roots (numpy multiplies the linear factors pairwise)."""
    mnp = _mnp()
    r = mnp.atleast_1d(mnp.asarray(roots))
    if r.size == 0:
        return mnp.ones(1)
    factors = [mnp.asarray([-v, 1.0]) for v in sorted(r.tolist())] if r.dtype.kind != "c" else \
        [mnp.asarray([-v, 1.0 + 0j]) for v in r.tolist()]
    while len(factors) > 1:
        m, rem = divmod(len(factors), 2)
        nxt = [mnp.convolve(factors[i], factors[i + m]) for i in range(m)]
        if rem:
            nxt[0] = mnp.convolve(nxt[0], factors[-1])
        factors = nxt
    return factors[0]


def polycompanion(c):
    """The companion matrix of the power series c (c[-1] != 0)."""
    mnp = _mnp()
    c = _as_coef(c)
    if c.shape[0] < 2:
        raise ValueError("[mnn.numpy.polynomial.polycompanion] Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return mnp.asarray([[-c[0] / c[1]]])
    n = c.shape[0] - 1
    mat = mnp.zeros((n, n), dtype=c.dtype)
    rows = mnp.arange(1, n)
    mat[rows, rows - 1] = 1
    mat[:, -1] = mat[:, -1] - c[:-1] / c[-1]
    return mat


def polyroots(c):
    """Roots of the power series c, sorted (eigenvalues of the flipped companion matrix, as numpy)."""
    mnp = _mnp()
    c = _as_coef(c)
    if c.shape[0] < 2:
        return mnp.asarray([], dtype=c.dtype)
    if c.shape[0] == 2:
        return mnp.asarray([-c[0] / c[1]])
    la = mnp.linalg
    if not hasattr(la, "eigvals"):
        raise NotImplementedError("[mnn.numpy.polynomial.polyroots] needs mnn.numpy.linalg.eigvals, which mnn "
                                  "lacks yet")
    m = polycompanion(c)[::-1, ::-1]
    return mnp.sort(la.eigvals(m))


def polyline(off, scl):
    mnp = _mnp()
    return mnp.asarray([off, scl]) if scl != 0 else mnp.asarray([off])


def _getdomain(x):
    mnp = _mnp()
    x = mnp.asarray(x)
    return mnp.asarray([float(x.min()), float(x.max())])


def _mapparms(old, new):
    """off, scl with new = off + scl * old, for the intervals old -> new."""
    o0, o1 = float(old[0]), float(old[1])
    n0, n1 = float(new[0]), float(new[1])
    off = (o1 * n0 - o0 * n1) / (o1 - o0)
    scl = (n1 - n0) / (o1 - o0)
    return off, scl


class Polynomial:
    """A power series p(x) = sum c[i] * t**i with t = off + scl * x mapping `domain` onto `window`."""
    __module__ = "mnn.numpy.polynomial"
    __hash__ = None
    basis_name = None

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        mnp = _mnp()
        self.coef = _as_coef(coef)
        self.domain = mnp.asarray([-1.0, 1.0]) if domain is None else mnp.asarray(domain, dtype=float)
        self.window = mnp.asarray([-1.0, 1.0]) if window is None else mnp.asarray(window, dtype=float)
        self.symbol = symbol

    # -- construction
    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None, symbol="x"):
        mnp = _mnp()
        domain = _getdomain(x) if domain is None else (mnp.asarray(domain, dtype=float) if len(domain) else
                                                         _getdomain(x))
        window = mnp.asarray([-1.0, 1.0]) if window is None else mnp.asarray(window, dtype=float)
        off, scl = _mapparms(domain.tolist(), window.tolist())
        xnew = off + scl * mnp.asarray(x)
        res = polyfit(xnew, y, deg, rcond=rcond, full=full, w=w)
        if full:
            coef, status = res
            return cls(coef, domain=domain, window=window, symbol=symbol), status
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots, domain=(-1, 1), window=None, symbol="x"):
        return cls(polyfromroots(roots), domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain=None, window=None, symbol="x"):
        p = cls([0.0, 1.0], domain, window, symbol)
        off, scl = _mapparms(p.window.tolist(), p.domain.tolist())
        return cls(polyline(off, scl), p.domain, p.window, symbol)

    # -- evaluation
    def mapparms(self):
        return _mapparms(self.domain.tolist(), self.window.tolist())

    def __call__(self, arg):
        off, scl = self.mapparms()
        return polyval(off + scl * _mnp().asarray(arg) if not isinstance(arg, (int, float, complex)) else
                       off + scl * arg, self.coef)

    def linspace(self, n=100, domain=None):
        mnp = _mnp()
        dom = self.domain if domain is None else mnp.asarray(domain, dtype=float)
        x = mnp.linspace(float(dom[0]), float(dom[1]), n)
        return x, self(x)

    # -- calculus and conversion
    def deriv(self, m=1):
        off, scl = self.mapparms()
        return self.__class__(polyder(self.coef, m, scl), self.domain, self.window, self.symbol)

    def integ(self, m=1, k=(), lbnd=None):
        off, scl = self.mapparms()
        lb = 0 if lbnd is None else off + scl * lbnd
        return self.__class__(polyint(self.coef, m, k, lb, 1.0 / scl), self.domain, self.window, self.symbol)

    def convert(self, domain=None, kind=None, window=None):
        """The same function with another domain/window (default [-1, 1] both: plain coefficients)."""
        mnp = _mnp()
        if kind is not None and kind is not Polynomial:
            raise NotImplementedError("[mnn.numpy.polynomial.Polynomial.convert] only kind=Polynomial is supported")
        new_domain = mnp.asarray([-1.0, 1.0]) if domain is None else mnp.asarray(domain, dtype=float)
        new_window = mnp.asarray([-1.0, 1.0]) if window is None else mnp.asarray(window, dtype=float)
        # x in terms of the new variable u (u = off2 + scl2 * x), then t = off + scl * x in terms of u
        off, scl = self.mapparms()
        off2, scl2 = _mapparms(new_domain.tolist(), new_window.tolist())
        a = off - scl * off2 / scl2  # t = a + b * u
        b = scl / scl2
        coef = self.coef.tolist()
        out = [0.0] * len(coef)
        for i, ci in enumerate(coef):  # expand ci * (a + b u)**i
            for j in range(i + 1):
                out[j] += ci * math.comb(i, j) * a ** (i - j) * b ** j
        return Polynomial(mnp.asarray(out, dtype=self.coef.dtype), new_domain, new_window, self.symbol)

    def degree(self):
        return self.coef.shape[0] - 1

    def cutdeg(self, deg):
        return self.__class__(self.coef[:deg + 1], self.domain, self.window, self.symbol)

    def trim(self, tol=0):
        return self.__class__(polytrim(self.coef, tol), self.domain, self.window, self.symbol)

    def roots(self):
        """Roots in the domain's variable (numpy maps the window roots back through the domain)."""
        off, scl = _mapparms(self.window.tolist(), self.domain.tolist())
        return off + scl * polyroots(self.coef)

    # -- arithmetic (operands must share domain and window)
    def _other(self, other):
        if isinstance(other, Polynomial):
            if self.domain.tolist() != other.domain.tolist() or self.window.tolist() != other.window.tolist():
                raise TypeError("[mnn.numpy.polynomial.Polynomial] Domains/windows differ")
            return other.coef
        return _as_coef(other)

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self.symbol)

    def __add__(self, other):
        return self._new(polyadd(self.coef, self._other(other)))

    def __radd__(self, other):
        return self._new(polyadd(self._other(other), self.coef))

    def __sub__(self, other):
        return self._new(polysub(self.coef, self._other(other)))

    def __rsub__(self, other):
        return self._new(polysub(self._other(other), self.coef))

    def __mul__(self, other):
        return self._new(polymul(self.coef, self._other(other)))

    def __rmul__(self, other):
        return self._new(polymul(self._other(other), self.coef))

    def __truediv__(self, other):
        if isinstance(other, (int, float, complex)):
            return self._new(self.coef / other)
        return NotImplemented

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def __pow__(self, n):
        if not isinstance(n, int) or n < 0:
            raise ValueError("[mnn.numpy.polynomial.Polynomial] Power must be a non-negative integer.")
        r = _mnp().ones(1)
        for _ in range(n):
            r = polymul(r, self.coef)
        return self._new(r)

    def __eq__(self, other):
        return (isinstance(other, Polynomial) and self.coef.shape == other.coef.shape and
                bool((self.coef == other.coef).all()) and self.domain.tolist() == other.domain.tolist() and
                self.window.tolist() == other.window.tolist())

    def __ne__(self, other):
        return not self.__eq__(other)

    def __len__(self):
        return self.coef.shape[0]

    def __repr__(self):
        return (f"Polynomial({self.coef.tolist()!r}, domain={self.domain.tolist()!r}, "
                f"window={self.window.tolist()!r}, symbol={self.symbol!r})")
