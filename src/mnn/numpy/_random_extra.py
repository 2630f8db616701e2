"""The rarer numpy.random laws: hypergeometric, logseries, noncentral_chisquare, noncentral_f,
vonmises and zipf, for Generator and RandomState.

They draw from the generator's own bit stream (so seeded results are reproducible), but only their
distribution matches numpy, not numpy's numbers. The rejection samplers (Kemp's logseries,
Devroye's zipf, Best & Fisher's von Mises) and the urn hypergeometric run one variate at a time
over a buffer of native uniforms: correct and deterministic, not vectorised.
"""
import math

from .. import _core
from . import _dtypes

_F64 = _dtypes.dtype("float64")
_I64 = _dtypes.dtype("int64")


class _Uniforms:
    """[0, 1) doubles from the bit generator, fetched in native blocks."""

    def __init__(self, st, hint):
        self._st, self._buf, self._i = st, [], 0
        self._block = max(64, min(1 << 16, 4 * hint))

    def __call__(self):
        if self._i == len(self._buf):
            self._buf, self._i = self._st.random([self._block], False).tolist(), 0
        v = self._buf[self._i]
        self._i += 1
        return v


def _broadcast(owner, fn, size, **named):
    """Parameters as flat Python lists over the output shape (numpy's size/broadcast rules)."""
    from .random import _out_shape, _param, _size_tuple
    arrays = [_param(v, _F64, fn, k) for k, v in named.items()]
    shape, scalar = _out_shape(_size_tuple(size, fn), arrays, fn)
    n = 1
    for s in shape:
        n *= s
    flat = []
    for arr in arrays:
        vals = _core.broadcast_to(arr, list(shape)).tolist() if shape else arr.tolist()
        flat.append(_flatten(vals) if shape else [vals])
    return flat, shape, scalar and shape == (), n


def _flatten(x):
    if not isinstance(x, list):
        return [x]
    out = []
    for v in x:
        out.extend(_flatten(v))
    return out


def _result(values, shape, scalar, dt):
    from ._creation import asarray
    r = _core.reshape(_core.astype(asarray(values if values else [0])[:len(values)], dt._code), list(shape))
    return _core.item(r, 0) if scalar else r


def _bad(cond, fn, msg):
    if cond:
        raise ValueError(f"[mnn.numpy.random.{fn}] {msg}")


def hypergeometric(owner, ngood, nbad, nsample, size=None, legacy=False):
    fn = "hypergeometric"
    (g, b, m), shape, scalar, n = _broadcast(owner, fn, size, ngood=ngood, nbad=nbad, nsample=nsample)
    _bad(any(v < 0 for v in g), fn, "ngood < 0")
    _bad(any(v < 0 for v in b), fn, "nbad < 0")
    _bad(any(v < (1 if legacy else 0) for v in m), fn, "nsample < 1" if legacy else "nsample < 0")
    _bad(any(x + y < z for x, y, z in zip(g, b, m)), fn, "ngood + nbad < nsample")
    u = _Uniforms(owner._st, n)
    out = []
    for good, bad, take in zip(g, b, m):
        good, bad, take = int(good), int(bad), int(take)
        total = good + bad
        k = min(take, total - take)  # draw the smaller side of the urn, one ball at a time
        got, gl, left = 0, good, total
        for _ in range(k):
            if u() * left < gl:
                got += 1
                gl -= 1
            left -= 1
        out.append(got if k == take else good - got)
    return _result(out, shape, scalar, _I64)


def logseries(owner, p, size=None):
    fn = "logseries"
    (ps,), shape, scalar, n = _broadcast(owner, fn, size, p=p)
    _bad(any(not (0.0 <= v < 1.0) for v in ps), fn, "p < 0, p >= 1 or p is NaN")
    u = _Uniforms(owner._st, n)
    out = []
    for pv in ps:
        if pv == 0.0:
            out.append(1)
            continue
        r = math.log1p(-pv)
        while True:  # Kemp (1981), "Efficient generation of logarithmically distributed variates"
            v = u()
            if v >= pv:
                out.append(1)
                break
            q = -math.expm1(r * u())
            if v <= q * q:
                if v == 0.0:
                    continue
                res = math.floor(1 + math.log(v) / math.log(q))
                if res < 1:
                    continue
                out.append(int(res))
                break
            out.append(1 if v >= q else 2)
            break
    return _result(out, shape, scalar, _I64)


def zipf(owner, a, size=None):
    fn = "zipf"
    (al,), shape, scalar, n = _broadcast(owner, fn, size, a=a)
    _bad(any(not (v > 1.0) for v in al), fn, "a <= 1 or a is NaN")
    u = _Uniforms(owner._st, n)
    out = []
    for av in al:
        am1 = av - 1.0
        b = 2.0 ** am1
        while True:  # Devroye, "Non-Uniform Random Variate Generation" (1986), X.6
            uu = 1.0 - u()
            vv = u()
            x = math.floor(uu ** (-1.0 / am1)) if uu > 0 else math.inf
            if x > 9.2e18 or x < 1.0:
                continue
            t = (1.0 + 1.0 / x) ** am1
            if vv * x * (t - 1.0) / (b - 1.0) <= t / b:
                out.append(int(x))
                break
    return _result(out, shape, scalar, _I64)


def vonmises(owner, mu, kappa, size=None):
    fn = "vonmises"
    (mus, ks), shape, scalar, n = _broadcast(owner, fn, size, mu=mu, kappa=kappa)
    _bad(any(not (k >= 0) for k in ks), fn, "kappa < 0")
    u = _Uniforms(owner._st, n)
    out = []
    for m, k in zip(mus, ks):
        if k < 1e-8:
            out.append(m + math.pi * (2 * u() - 1))  # (nearly) uniform on the circle
            continue
        if k < 1e-5:
            s = 1.0 / k + k  # second-order expansion of Best & Fisher's s for tiny kappa
        else:
            r = 1 + math.sqrt(1 + 4 * k * k)
            rho = (r - math.sqrt(2 * r)) / (2 * k)
            s = (1 + rho * rho) / (2 * rho)
        while True:  # Best & Fisher (1979), "Efficient simulation of the von Mises distribution"
            z = math.cos(math.pi * u())
            w = (1 + s * z) / (s + z)
            y = k * (s - w)
            v = u()
            if y * (2 - y) - v >= 0 or (v > 0 and math.log(y / v) + 1 - y >= 0):
                break
        res = math.acos(max(-1.0, min(1.0, w)))
        if u() < 0.5:
            res = -res
        res += m
        neg = res < 0
        mod = math.fmod(abs(res) + math.pi, 2 * math.pi) - math.pi
        out.append(-mod if neg else mod)
    return _result(out, shape, scalar, _F64)


def noncentral_chisquare(owner, df, nonc, size=None):
    fn = "noncentral_chisquare"
    from .random import _check, _out_shape, _param, _size_tuple, _u
    d, lam = _param(df, _F64, fn, "df"), _param(nonc, _F64, fn, "nonc")
    _check(~(d > 0), fn, "df <= 0")
    _check(~(lam >= 0), fn, "nonc < 0")
    shape, scalar = _out_shape(_size_tuple(size, fn), [d, lam], fn)
    return _noncentral_chisquare(owner, d, lam, shape, scalar)


def _noncentral_chisquare(owner, d, lam, shape, scalar):
    from .random import _u
    where, sqrt = _u("where"), _u("sqrt")
    gen = owner if not hasattr(owner, "_gen") else owner._gen
    # df > 1: chi2(df - 1) + (Z + sqrt(nonc))^2; otherwise a Poisson(nonc / 2) mixture of chi2(df + 2i)
    big = d > 1
    z = gen.standard_normal(shape if shape else None)
    a = gen.chisquare(where(big, d - 1, 1.0), shape) + (z + sqrt(lam)) ** 2
    i = gen.poisson(lam / 2, shape)
    b = gen.chisquare(d + 2.0 * i, shape)
    r = where(big, a, b)
    r = where(lam == 0, gen.chisquare(d, shape), r)
    return _core.item(r, 0) if scalar and shape == () else r


def noncentral_f(owner, dfnum, dfden, nonc, size=None):
    fn = "noncentral_f"
    from .random import _check, _out_shape, _param, _size_tuple
    a, b, lam = _param(dfnum, _F64, fn, "dfnum"), _param(dfden, _F64, fn, "dfden"), _param(nonc, _F64, fn, "nonc")
    _check(~(a > 0), fn, "dfnum <= 0")
    _check(~(b > 0), fn, "dfden <= 0")
    _check(~(lam >= 0), fn, "nonc < 0")
    shape, scalar = _out_shape(_size_tuple(size, fn), [a, b, lam], fn)
    gen = owner if not hasattr(owner, "_gen") else owner._gen
    t = _noncentral_chisquare(owner, a, lam, shape, False) * b
    r = t / (gen.chisquare(b, shape) * a)
    return _core.item(r, 0) if scalar and shape == () else r


def install(generator_cls, random_state_cls):
    generator_cls.hypergeometric = lambda self, ngood, nbad, nsample, size=None: \
        hypergeometric(self, ngood, nbad, nsample, size)
    random_state_cls.hypergeometric = lambda self, ngood, nbad, nsample, size=None: \
        hypergeometric(self, ngood, nbad, nsample, size, legacy=True)
    for cls in (generator_cls, random_state_cls):
        cls.logseries = lambda self, p, size=None: logseries(self, p, size)
        cls.zipf = lambda self, a, size=None: zipf(self, a, size)
        cls.vonmises = lambda self, mu, kappa, size=None: vonmises(self, mu, kappa, size)
        cls.noncentral_chisquare = lambda self, df, nonc, size=None: noncentral_chisquare(self, df, nonc, size)
        cls.noncentral_f = lambda self, dfnum, dfden, nonc, size=None: noncentral_f(self, dfnum, dfden, nonc, size)


NAMES = ("hypergeometric", "logseries", "zipf", "vonmises", "noncentral_chisquare", "noncentral_f")
