"""mnn.numpy.random: numpy's Generator and legacy RandomState on numpy's own bit generators.

Seeded streams are numpy's, bit for bit, for:
  - seeding: SeedSequence (entropy pool, generate_state, spawn), PCG64 and MT19937 states in numpy's
    formats (bit_generator.state dicts; RandomState.get_state/set_state tuples with the cached
    Gaussian); RandomState/np.random.seed with an int in [0, 2**32) (init_genrand) or a 1-d int
    sequence (init_by_array); default_rng(seed) = Generator(PCG64(SeedSequence(seed))).
  - Generator (PCG64 or MT19937): random (float64, float32), standard_normal / normal (256-level
    ziggurat, float64 and float32), standard_exponential (ziggurat or method="inv", both widths) /
    exponential,
    uniform, integers (Lemire, every integer dtype and bool, endpoint, scalar or array bounds),
    choice (with/without replacement, with p, Floyd and tail-shuffle paths, axis), permutation,
    shuffle, bytes.
  - RandomState / module functions: random_sample (rand, random, ranf, sample), randn /
    standard_normal / normal (polar Box-Muller with its cached value), uniform, standard_exponential /
    exponential, randint (masked rejection, every dtype), random_integers, choice, shuffle,
    permutation, bytes.
Elementwise affine steps (loc + scale * z, low + range * u) use mnn's arithmetic, which rounds as
numpy's does (no FMA), so they match too.

Every other law (gamma, beta, binomial, poisson, geometric, chisquare, standard_t, f, weibull, ...,
and hypergeometric, logseries, zipf, vonmises, noncentral_chisquare, noncentral_f from
_random_extra.py) matches numpy in distribution only: each call takes one 64-bit word from the same
bit generator as the key of a counter-based Philox stream (the "random" primitive,
csrc/ops/random/random.cpp), so results are reproducible from the seed and the saved state, and
independent of the thread count, but they are not numpy's numbers.

The exact draws are eager native fills (csrc/ops/random/streams.cpp) returning mnn arrays; a seeded
stream is sequential, except that PCG64's float64 fills jump ahead (LCG advance in O(log n)) so
large ones are split over threads with the same result for any thread count.
"""
import builtins
import math
import operator

from .. import _core
from . import _bitgen, _dtypes
from ._common import asarray, ndarray

__all__ = ["Generator", "RandomState", "BitGenerator", "PCG64", "MT19937", "SeedSequence", "default_rng", "seed", "get_state", "set_state", "rand", "randn", "randint",
           "random_integers", "random_sample", "random", "ranf", "sample", "choice", "shuffle", "permutation",
           "normal", "uniform", "standard_normal", "standard_exponential", "standard_gamma", "exponential", "poisson",
           "binomial", "beta", "gamma", "geometric", "lognormal", "laplace", "logistic", "multinomial", "chisquare",
           "bytes", "standard_cauchy", "standard_t", "f", "weibull", "pareto", "power", "rayleigh", "gumbel",
           "triangular", "wald", "negative_binomial", "dirichlet"]

BitGenerator, PCG64, MT19937, SeedSequence = _bitgen.BitGenerator, _bitgen.PCG64, _bitgen.MT19937, _bitgen.SeedSequence

# Distribution codes of the primitive (keep in sync with csrc/ops/random/random.cpp).
_UNIFORM, _NORMAL, _EXPONENTIAL, _GAMMA, _POISSON, _BINOMIAL, _INTEGERS, _GEOMETRIC = range(8)
_CHOICE_CDF, _PERMUTATION, _CHOICE_NOREPLACE, _BETA, _PERMUTATION_ROWS = range(8, 13)

_M64 = (1 << 64) - 1
_F64 = _dtypes.dtype("float64")
_F32 = _dtypes.dtype("float32")
_I64 = _dtypes.dtype("int64")
_U64 = _dtypes.dtype("uint64")


def _size_tuple(size, fn):
    if size is None:
        return None
    try:
        shape = tuple(operator.index(s) for s in size) if isinstance(size, (tuple, list)) else (operator.index(size),)
    except TypeError:
        raise TypeError(f"[mnn.numpy.random.{fn}] 'size' must be None, an integer or a tuple of integers") from None
    if any(s < 0 for s in shape):
        raise ValueError(f"[mnn.numpy.random.{fn}] negative dimensions are not allowed")
    return shape


def _is_scalar(x):
    return isinstance(x, (int, float, bool)) or (isinstance(x, ndarray) and x.ndim == 0)


def _param(x, dt, fn, name):
    """A distribution parameter as an ndarray of dtype dt (Python scalars stay cheap 0-d arrays)."""
    if isinstance(x, ndarray):
        return x if x.dtype == dt else x.astype(dt)
    if isinstance(x, (int, float, bool)):
        return _core.scalar(x, dt._code)
    try:
        return asarray(x).astype(dt)
    except (TypeError, ValueError):
        raise TypeError(f"[mnn.numpy.random.{fn}] {name} must be a number or an array of numbers") from None


def _any(mask):
    if isinstance(mask, ndarray):
        from ._reductions import any as _array_any
        return bool(_array_any(mask))
    return bool(mask)


def _check(cond_bad, fn, msg):
    if _any(cond_bad):
        raise ValueError(f"[mnn.numpy.random.{fn}] {msg}")


def _out_shape(size, params, fn):
    """numpy's rule: size wins and parameters must broadcast to it; else the parameters' broadcast shape."""
    shapes = [tuple(p.shape) for p in params]
    try:
        bshape = _broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"[mnn.numpy.random.{fn}] shape mismatch: objects cannot be broadcast to a single shape")
    if size is None:
        return bshape, True
    try:
        if _broadcast_shapes(bshape, size) != size:
            raise ValueError
    except ValueError:
        raise ValueError(f"[mnn.numpy.random.{fn}] shape mismatch: objects cannot be broadcast to a single shape. "
                         f"Mismatch is between arg 0 with shape {bshape} and size {size}") from None
    return size, False


def _broadcast_shapes(*shapes):
    nd = max((len(s) for s in shapes), default=0)
    out = [1] * nd
    for s in shapes:
        for i, d in enumerate(s):
            j = nd - len(s) + i
            if out[j] == 1:
                out[j] = d
            elif d != 1 and d != out[j]:
                raise ValueError("shape mismatch")
    return tuple(out)


def _expand(p, shape):
    """A parameter as 1 element or one element per output element (the kernel's two forms)."""
    if p.size == 1:
        return _core.reshape(p, [1])
    return _core.as_contiguous(_core.broadcast_to(p, list(shape)))


class Generator:
    """numpy.random.Generator over a numpy bit generator (PCG64 by default, or MT19937)."""

    def __init__(self, bit_generator=None):
        if isinstance(bit_generator, Generator):
            bit_generator = bit_generator._bit_generator
        if not isinstance(bit_generator, _bitgen.BitGenerator):  # mnn extension: a seed makes a PCG64
            bit_generator = _bitgen.PCG64(bit_generator)
        self._bit_generator = bit_generator
        self._st = bit_generator._st

    @property
    def bit_generator(self):
        return self._bit_generator

    def __repr__(self):
        return f"Generator({type(self._bit_generator).__name__})"

    # -- the one way bits are drawn ------------------------------------------------------------
    def _next_key(self):
        """The distributions without a numpy-exact port key a Philox stream off one 64-bit word of
        the bit generator: reproducible from the seed and the state, not numpy's numbers."""
        return _core.scalar(self._st.next64(), _U64._code)

    def _std(self, dist, shape, f32=False):
        """numpy-exact standard draws of `shape` (eager native fills)."""
        method = {_UNIFORM: "random", _NORMAL: "normal_zig", _EXPONENTIAL: "exp_zig", "inv": "exp_inv"}[dist]
        return getattr(self._st, method)(list(shape), f32)

    def _draw(self, dist, dt, shape, params=()):
        return _core.prim("random", [self._next_key(), *params], [dist, dt._code, *shape], [])

    def _float_dtype(self, dtype, fn):
        dt = _dtypes.dtype(dtype)
        if dt not in (_F32, _F64):
            raise TypeError(f"[mnn.numpy.random.{fn}] Unsupported dtype {dt!r} for {fn}")
        return dt

    def _into(self, result, out, fn):
        if out is None:
            return result
        if tuple(out.shape) != tuple(result.shape) or out.dtype != result.dtype:
            raise ValueError(f"[mnn.numpy.random.{fn}] Supplied output array has the wrong shape or dtype")
        _core.assign(out, result)
        return out

    def _simple(self, dist, size, dtype, out, fn):
        dt = self._float_dtype(dtype, fn)
        if out is not None and size is None:
            size = tuple(out.shape)
        shape = _size_tuple(size, fn)
        r = self._std(dist, shape if shape is not None else (), dt == _F32)
        if out is not None:
            return self._into(r, out, fn)
        return _core.item(r, 0) if shape is None else r

    # -- continuous ----------------------------------------------------------------------------
    def random(self, size=None, dtype="float64", out=None):
        return self._simple(_UNIFORM, size, dtype, out, "random")

    def standard_normal(self, size=None, dtype="float64", out=None):
        return self._simple(_NORMAL, size, dtype, out, "standard_normal")

    def standard_exponential(self, size=None, dtype="float64", method="zig", out=None):
        if method not in ("zig", "inv"):
            raise ValueError(f"[mnn.numpy.random.standard_exponential] Unknown method {method!r}")
        return self._simple(_EXPONENTIAL if method == "zig" else "inv", size, dtype, out, "standard_exponential")

    def _affine(self, dist, loc, scale, size, fn, scale_name="scale"):
        """loc + scale * X for a standard variate X, with numpy's validation and broadcasting."""
        loc_a, scale_a = _param(loc, _F64, fn, "loc"), _param(scale, _F64, fn, scale_name)
        _check(scale_a < 0, fn, f"{scale_name} < 0")
        shape, scalar = _out_shape(_size_tuple(size, fn), [loc_a, scale_a], fn)
        r = self._std(dist, shape) * scale_a + loc_a
        return _core.item(r, 0) if scalar and shape == () else r

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._affine(_NORMAL, loc, scale, size, "normal")

    def exponential(self, scale=1.0, size=None):
        return self._affine(_EXPONENTIAL, 0.0, scale, size, "exponential")

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        r = self._affine(_NORMAL, mean, sigma, size, "lognormal", "sigma")
        return _math_exp(r)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        fn = "laplace"
        loc_a, scale_a = _param(loc, _F64, fn, "loc"), _param(scale, _F64, fn, "scale")
        _check(scale_a < 0, fn, "scale < 0")
        shape, scalar = _out_shape(_size_tuple(size, fn), [loc_a, scale_a], fn)
        # A sign from a fair coin times a standard exponential: the coin is a second uniform.
        e = self._draw(_EXPONENTIAL, _F64, shape)
        sign = (self._draw(_UNIFORM, _F64, shape) < 0.5) * 2.0 - 1.0
        r = e * sign * scale_a + loc_a
        return _core.item(r, 0) if scalar and shape == () else r

    def logistic(self, loc=0.0, scale=1.0, size=None):
        fn = "logistic"
        loc_a, scale_a = _param(loc, _F64, fn, "loc"), _param(scale, _F64, fn, "scale")
        _check(scale_a < 0, fn, "scale < 0")
        shape, scalar = _out_shape(_size_tuple(size, fn), [loc_a, scale_a], fn)
        u = self._draw(_UNIFORM, _F64, shape)
        u = _u("where")(u > 0, u, 2.0 ** -54)  # U in (0, 1): numpy redraws the one value (0) whose logit is -inf
        r = _u("log")(u / (1.0 - u)) * scale_a + loc_a
        return _core.item(r, 0) if scalar and shape == () else r

    def uniform(self, low=0.0, high=1.0, size=None):
        fn = "uniform"
        low_a, high_a = _param(low, _F64, fn, "low"), _param(high, _F64, fn, "high")
        rng = high_a - low_a
        if _any(~_u("isfinite")(rng)):
            raise OverflowError("[mnn.numpy.random.uniform] high - low range exceeds valid bounds")
        shape, scalar = _out_shape(_size_tuple(size, fn), [low_a, high_a], fn)
        r = self._std(_UNIFORM, shape) * rng + low_a
        return _core.item(r, 0) if scalar and shape == () else r

    def standard_gamma(self, shape, size=None, dtype="float64", out=None):
        fn = "standard_gamma"
        dt = self._float_dtype(dtype, fn)
        k = _param(shape, _F64, fn, "shape")
        _check(k < 0, fn, "shape < 0")
        if out is not None and size is None:
            size = tuple(out.shape)
        oshape, scalar = _out_shape(_size_tuple(size, fn), [k], fn)
        r = self._draw(_GAMMA, dt, oshape, [_expand(k, oshape)])
        if out is not None:
            return self._into(r, out, fn)
        return _core.item(r, 0) if scalar and oshape == () else r

    def gamma(self, shape, scale=1.0, size=None):
        fn = "gamma"
        k, s = _param(shape, _F64, fn, "shape"), _param(scale, _F64, fn, "scale")
        _check(k < 0, fn, "shape < 0")
        _check(s < 0, fn, "scale < 0")
        oshape, scalar = _out_shape(_size_tuple(size, fn), [k, s], fn)
        r = self._draw(_GAMMA, _F64, oshape, [_expand(k, oshape)]) * s
        return _core.item(r, 0) if scalar and oshape == () else r

    def chisquare(self, df, size=None):
        fn = "chisquare"
        d = _param(df, _F64, fn, "df")
        _check(~(d > 0), fn, "df <= 0")
        oshape, scalar = _out_shape(_size_tuple(size, fn), [d], fn)
        r = self._draw(_GAMMA, _F64, oshape, [_expand(d * 0.5, oshape)]) * 2.0
        return _core.item(r, 0) if scalar and oshape == () else r

    def beta(self, a, b, size=None):
        fn = "beta"
        a_, b_ = _param(a, _F64, fn, "a"), _param(b, _F64, fn, "b")
        _check(~(a_ > 0), fn, "a <= 0")
        _check(~(b_ > 0), fn, "b <= 0")
        oshape, scalar = _out_shape(_size_tuple(size, fn), [a_, b_], fn)
        r = self._draw(_BETA, _F64, oshape, [_expand(a_, oshape), _expand(b_, oshape)])
        return _core.item(r, 0) if scalar and oshape == () else r

    # -- laws composed from the native draws ---------------------------------------------------
    def _params(self, fn, size, **named):
        arrays = [_param(v, _F64, fn, k) for k, v in named.items()]
        shape, scalar = _out_shape(_size_tuple(size, fn), arrays, fn)
        return arrays, shape, scalar and shape == ()

    @staticmethod
    def _ret(r, scalar):
        return _core.item(r, 0) if scalar else r

    def _gamma_draw(self, k, shape):
        return self._draw(_GAMMA, _F64, shape, [_expand(k, shape)])

    def standard_cauchy(self, size=None):
        shape = _size_tuple(size, "standard_cauchy")
        oshape = shape if shape is not None else ()
        r = self._draw(_NORMAL, _F64, oshape) / self._draw(_NORMAL, _F64, oshape)
        return self._ret(r, shape is None)

    def standard_t(self, df, size=None):
        fn = "standard_t"
        (d,), shape, scalar = self._params(fn, size, df=df)
        _check(~(d > 0), fn, "df <= 0")
        chi2 = self._gamma_draw(d * 0.5, shape) * 2.0
        r = self._draw(_NORMAL, _F64, shape) / _u("sqrt")(chi2 / d)
        return self._ret(r, scalar)

    def f(self, dfnum, dfden, size=None):
        fn = "f"
        (a, b), shape, scalar = self._params(fn, size, dfnum=dfnum, dfden=dfden)
        _check(~(a > 0), fn, "dfnum <= 0")
        _check(~(b > 0), fn, "dfden <= 0")
        r = (self._gamma_draw(a * 0.5, shape) * 2.0 / a) / (self._gamma_draw(b * 0.5, shape) * 2.0 / b)
        return self._ret(r, scalar)

    def weibull(self, a, size=None):
        fn = "weibull"
        (k,), shape, scalar = self._params(fn, size, a=a)
        _check(k < 0, fn, "a < 0")
        e = self._draw(_EXPONENTIAL, _F64, shape)
        # a == 0 gives 0, as numpy does (E ** inf would be 0 or inf)
        r = _u("where")(k == 0, 0.0, e ** (1.0 / _u("where")(k == 0, 1.0, k)))
        return self._ret(r, scalar)

    def pareto(self, a, size=None):
        fn = "pareto"
        (k,), shape, scalar = self._params(fn, size, a=a)
        _check(~(k > 0), fn, "a <= 0")
        return self._ret(_u("expm1")(self._draw(_EXPONENTIAL, _F64, shape) / k), scalar)

    def power(self, a, size=None):
        fn = "power"
        (k,), shape, scalar = self._params(fn, size, a=a)
        _check(~(k > 0), fn, "a <= 0")
        u = -_u("expm1")(-self._draw(_EXPONENTIAL, _F64, shape))  # U in (0, 1) from an exponential
        return self._ret(u ** (1.0 / k), scalar)

    def rayleigh(self, scale=1.0, size=None):
        fn = "rayleigh"
        (sc,), shape, scalar = self._params(fn, size, scale=scale)
        _check(sc < 0, fn, "scale < 0")
        return self._ret(_u("sqrt")(self._draw(_EXPONENTIAL, _F64, shape) * 2.0) * sc, scalar)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        fn = "gumbel"
        (lo, sc), shape, scalar = self._params(fn, size, loc=loc, scale=scale)
        _check(sc < 0, fn, "scale < 0")
        return self._ret(lo - sc * _u("log")(self._draw(_EXPONENTIAL, _F64, shape)), scalar)

    def triangular(self, left, mode, right, size=None):
        fn = "triangular"
        (lf, md, rt), shape, scalar = self._params(fn, size, left=left, mode=mode, right=right)
        _check(lf > md, fn, "left > mode")
        _check(md > rt, fn, "mode > right")
        _check(lf == rt, fn, "left == right")
        u = self._draw(_UNIFORM, _F64, shape)
        base, lw, rw = rt - lf, md - lf, rt - md
        cut = lw / base
        sqrt = _u("sqrt")
        r = _u("where")(u <= cut, lf + sqrt(u * base * lw), rt - sqrt((1.0 - u) * base * rw))
        return self._ret(r, scalar)

    def wald(self, mean, scale, size=None):
        fn = "wald"
        (mu, lam), shape, scalar = self._params(fn, size, mean=mean, scale=scale)
        _check(~(mu > 0), fn, "mean <= 0")
        _check(~(lam > 0), fn, "scale <= 0")
        # Michael, Schucany & Haas (1976): a root of the chi-square(1) transform, picked by a coin.
        y = self._draw(_NORMAL, _F64, shape) ** 2
        sqrt = _u("sqrt")
        x = mu + mu * mu * y / (2.0 * lam) - mu / (2.0 * lam) * sqrt(4.0 * mu * lam * y + mu * mu * y * y)
        u = self._draw(_UNIFORM, _F64, shape)
        r = _u("where")(u <= mu / (mu + x), x, mu * mu / x)
        return self._ret(r, scalar)

    def negative_binomial(self, n, p, size=None):
        fn = "negative_binomial"
        (nn, pp), shape, scalar = self._params(fn, size, n=n, p=p)
        _check(~(nn > 0), fn, "n <= 0")
        _check(~((pp > 0) & (pp <= 1)), fn, "p < 0, p > 1 or p is NaN")
        lam = self._gamma_draw(nn, shape) * ((1.0 - pp) / pp)  # a Poisson of a gamma-distributed mean
        r = self._draw(_POISSON, _I64, shape, [_expand(_core.as_contiguous(lam), shape)])
        return self._ret(r, scalar)

    def dirichlet(self, alpha, size=None):
        fn = "dirichlet"
        al = _param(alpha, _F64, fn, "alpha")
        if al.ndim != 1:
            raise ValueError(f"[mnn.numpy.random.{fn}] alpha must be a one-dimensional sequence")
        _check(~(al >= 0), fn, "alpha < 0")
        shape = _size_tuple(size, fn)
        shape = () if shape is None else shape
        k = al.shape[0]
        full = shape + (k,)
        g = self._gamma_draw(_core.as_contiguous(_core.broadcast_to(al, list(full))), full)
        from ._reductions import sum as _sum
        return g / _sum(g, axis=-1, keepdims=True)

    # -- discrete ------------------------------------------------------------------------------
    def poisson(self, lam=1.0, size=None):
        fn = "poisson"
        lam_a = _param(lam, _F64, fn, "lam")
        _check(lam_a < 0, fn, "lam < 0")
        _check(lam_a != lam_a, fn, "lam contains NaNs")
        _check(lam_a > 9.223372006484771e18, fn, "lam value too large")
        oshape, scalar = _out_shape(_size_tuple(size, fn), [lam_a], fn)
        r = self._draw(_POISSON, _I64, oshape, [_expand(lam_a, oshape)])
        return _core.item(r, 0) if scalar and oshape == () else r

    def binomial(self, n, p, size=None):
        fn = "binomial"
        n_a = _param(n, _I64, fn, "n")
        p_a = _param(p, _F64, fn, "p")
        _check(n_a < 0, fn, "n < 0")
        _check(~((p_a >= 0) & (p_a <= 1)), fn, "p < 0, p > 1 or p is NaN")
        oshape, scalar = _out_shape(_size_tuple(size, fn), [n_a, p_a], fn)
        r = self._draw(_BINOMIAL, _I64, oshape, [_expand(n_a, oshape), _expand(p_a, oshape)])
        return _core.item(r, 0) if scalar and oshape == () else r

    def geometric(self, p, size=None):
        fn = "geometric"
        p_a = _param(p, _F64, fn, "p")
        _check(~((p_a > 0) & (p_a <= 1)), fn, "p <= 0, p > 1 or p contains NaNs")
        oshape, scalar = _out_shape(_size_tuple(size, fn), [p_a], fn)
        r = self._draw(_GEOMETRIC, _I64, oshape, [_expand(p_a, oshape)])
        return _core.item(r, 0) if scalar and oshape == () else r

    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        return _bounded_integers(self._st, low, high, size, dtype, endpoint, False, "integers")

    def multinomial(self, n, pvals, size=None):
        fn = "multinomial"
        pv = _param(pvals, _F64, fn, "pvals")
        if pv.ndim != 1:
            raise ValueError(f"[mnn.numpy.random.{fn}] pvals must have at least 1 dimension") if pv.ndim == 0 else \
                NotImplementedError(f"[mnn.numpy.random.{fn}] multi-dimensional pvals are not supported yet")
        k = pv.shape[0]
        p = [_core.item(pv, j) for j in range(k)]
        if any(not (0.0 <= x <= 1.0) for x in p):
            raise ValueError(f"[mnn.numpy.random.{fn}] pvals < 0, pvals > 1 or pvals contains NaNs")
        if k and sum(p[:-1]) > 1.0 + 1e-12:
            raise ValueError(f"[mnn.numpy.random.{fn}] sum(pvals[:-1]) > 1.0")
        n_a = _param(n, _I64, fn, "n")
        _check(n_a < 0, fn, "n < 0")
        oshape, _ = _out_shape(_size_tuple(size, fn), [n_a], fn)
        # Sequential conditional binomials: category j takes Binomial(remaining, p_j / remaining mass).
        left = _core.as_contiguous(_core.broadcast_to(n_a, list(oshape))) if n_a.shape != oshape else n_a
        counts, mass = [], 1.0
        for j in range(k - 1):
            q = 0.0 if mass <= 0 else min(1.0, max(0.0, p[j] / mass))
            x = self._draw(_BINOMIAL, _I64, oshape, [_expand(left, oshape), _core.reshape(_core.scalar(q, 11), [1])])
            counts.append(x)
            left = left - x
            mass -= p[j]
        counts.append(left)
        from ._manipulation import stack
        return stack(counts, axis=-1)

    # -- sampling and permutations -------------------------------------------------------------
    def permutation(self, x, axis=0):
        return _permutation(self._st, x, axis, "permutation")

    def shuffle(self, x, axis=0):
        _shuffle(self._st, x, axis, "shuffle")

    def permuted(self, x, axis=None, out=None):
        a = asarray(x)
        if axis is None:
            flat = _core.reshape(_core.as_contiguous(a), [a.size])
            r = _core.reshape(_core.prim("take", [flat, self._draw(_PERMUTATION, _I64, (a.size,))], [0], []),
                              list(a.shape))
        else:
            ax = _axis(axis, a.ndim, "permuted")
            from ._manipulation import moveaxis
            m = moveaxis(a, ax, -1)
            n = m.shape[-1]
            rows = m.size // n if n else 0
            # one native draw permutes every row; row offsets turn it into indices of the flat data
            perm = self._draw(_PERMUTATION_ROWS, _I64, (rows, n))
            offsets = _core.reshape(_core.arange_int(0, rows * n, n, _I64._code), [rows, 1]) if rows else 0
            flat = _core.reshape(_core.as_contiguous(m), [m.size])
            r = _core.prim("take", [flat, _core.reshape(_core.as_contiguous(perm + offsets), [rows * n])], [0], [])
            r = moveaxis(_core.reshape(r, list(m.shape)), -1, ax)
        if out is not None:
            _core.assign(out, r)
            return out
        return r

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        return _choice(self, a, size, replace, p, axis, shuffle, False)

    def bytes(self, length):
        return _bytes(self._st, length, False)

    def spawn(self, n_children):
        return [Generator(bg) for bg in self._bit_generator.spawn(n_children)]


def _prod(shape):
    r = 1
    for s in shape:
        r *= s
    return r


def _axis(axis, ndim, fn):
    ax = operator.index(axis)
    if not -ndim <= ax < ndim:
        raise _core.AxisError(f"[mnn.numpy.random.{fn}] axis {ax} is out of bounds for array of dimension {ndim}")
    return ax % ndim


def _u(name):
    from . import _ufuncs
    return _ufuncs.UFUNCS[name] if name in _ufuncs.UFUNCS else getattr(_ufuncs, name)


def _math_exp(r):
    from . import _ufuncs as u
    if isinstance(r, ndarray):
        return u.UFUNCS["exp"](r)
    import math
    return math.exp(r)


def default_rng(seed=None):
    """numpy.random.default_rng: a Generator on PCG64(SeedSequence(seed)); a Generator passes through,
    a bit generator is wrapped."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, _bitgen.BitGenerator):
        return Generator(seed)
    return Generator(_bitgen.PCG64(seed))


# -- numpy-exact helpers shared by Generator (Lemire bounded integers) and RandomState (masked) --------

def _bounded_integers(st, low, high, size, dtype, endpoint, masked, fn):
    """numpy's bounded integers: off + [0, rng] per element, rng = high(-1) - low, word widths by dtype."""
    dt = _dtypes.dtype(dtype)
    if dt.kind not in "iub":
        raise TypeError(f"[mnn.numpy.random.{fn}] Unsupported dtype {dt!r} for {fn}")
    if high is None:
        low, high = 0, low
    lo_info = (0, 1) if dt.kind == "b" else (_dtypes.iinfo(dt).min, _dtypes.iinfo(dt).max)
    shape = _size_tuple(size, fn)
    if not isinstance(low, ndarray) and not isinstance(high, ndarray) and _is_scalar(low) and _is_scalar(high):
        lo = int(low) if isinstance(low, float) else operator.index(low)
        hi = int(high) if isinstance(high, float) else operator.index(high)
        top = hi if endpoint else hi - 1
        if lo < lo_info[0]:
            raise ValueError(f"[mnn.numpy.random.{fn}] low is out of bounds for {dt.name}")
        if top > lo_info[1]:
            raise ValueError(f"[mnn.numpy.random.{fn}] high is out of bounds for {dt.name}")
        if top < lo:
            raise ValueError(f"[mnn.numpy.random.{fn}] low {'>' if endpoint else '>='} high")
        oshape = shape if shape is not None else ()
        return st.bounded(lo & _M64, (top - lo) & _M64, list(oshape), dt._code, masked)
    lo_a, hi_a = _param(low, _I64, fn, "low"), _param(high, _I64, fn, "high")
    top = hi_a if endpoint else hi_a - 1
    _check(lo_a < lo_info[0], fn, f"low is out of bounds for {dt.name}")
    _check(top > lo_info[1], fn, f"high is out of bounds for {dt.name}")
    _check(top < lo_a, fn, "low > high" if endpoint else "low >= high")
    oshape, _ = _out_shape(shape, [lo_a, hi_a], fn)
    los = _core.broadcast_to(lo_a, list(oshape)).tolist() if oshape else [lo_a.tolist()]
    tops = _core.broadcast_to(top, list(oshape)).tolist() if oshape else [top.tolist()]
    los, tops = _flat(los), _flat(tops)
    return st.bounded_array([v & _M64 for v in los], [(t - v) & _M64 for v, t in zip(los, tops)], list(oshape),
                            dt._code, masked)


def _flat(x):
    if not isinstance(x, list):
        return [x]
    out = []
    for v in x:
        out.extend(_flat(v))
    return out


def _shuffled(st, n):
    """The order numpy's Fisher-Yates shuffle (random_interval) leaves 0..n-1 in."""
    return st.shuffled_indices(n, True)


def _permutation(st, x, axis, fn):
    if isinstance(x, int) or (isinstance(x, ndarray) and x.ndim == 0 and x.dtype.kind in "iu"):
        n = operator.index(x)
        if n < 0:
            raise ValueError(f"[mnn.numpy.random.{fn}] negative dimensions are not allowed")
        return _shuffled(st, n)
    a = _population(x)
    if a.ndim == 0:
        raise IndexError(f"[mnn.numpy.random.{fn}] x must be an integer or at least 1-dimensional")
    ax = _axis(axis, a.ndim, fn)
    return _take(a, _shuffled(st, a.shape[ax]), ax)


def _population(x):
    """A sampled operand as an array; string arrays ('<U') stay string arrays."""
    from ._strings import StrArray, contains_str
    if isinstance(x, StrArray) or (isinstance(x, (list, tuple)) and contains_str(x)):
        from ._strings import asstr
        return asstr(x, fn="random")
    return asarray(x)


def _take(a, idx, ax):
    if a.dtype.kind == "U":  # a string array picks its elements by index
        return a.take(idx, axis=ax)
    return _core.prim("take", [a, idx], [ax], [])


def _shuffle(st, x, axis, fn):
    if not isinstance(x, ndarray):
        if isinstance(x, list):
            perm = _shuffled(st, len(x)).tolist()
            x[:] = [x[i] for i in perm]
            return
        raise TypeError(f"[mnn.numpy.random.{fn}] x must be an ndarray or a mutable sequence")
    if x.ndim == 0:
        raise TypeError(f"[mnn.numpy.random.{fn}] object of type 0-d ndarray has no len()")
    ax = _axis(axis, x.ndim, fn)
    idx = _shuffled(st, x.shape[ax])
    if x.dtype.kind == "U":
        x[...] = x.take(idx, axis=ax)
        return
    _core.assign(x, _core.copy(_core.prim("take", [x, idx], [ax], [])))


def _cdf(pl):
    """numpy's p.cumsum() / cdf[-1]: a sequential float64 running sum, normalised by its last value."""
    acc, out = 0.0, []
    for v in pl:
        acc += v
        out.append(acc)
    last = out[-1]
    return [c / last for c in out]


def _choice(owner, a, size, replace, p, axis, shuffle, legacy):
    """numpy's choice: Generator (legacy=False: Lemire integers, Floyd sampling) or RandomState (masked
    integers, a permutation prefix); weighted draws search the normalised cdf with uniforms."""
    fn = "choice"
    st = owner._st
    pop_is_int = isinstance(a, int) or (isinstance(a, ndarray) and a.ndim == 0 and a.dtype.kind in "iu")
    if pop_is_int:
        n = operator.index(a)
        arr = None
        if legacy and n <= 0 and not (size is not None and _prod(_size_tuple(size, fn)) == 0):
            raise ValueError(f"[mnn.numpy.random.{fn}] a must be greater than 0 unless no samples are taken")
        if n < 0:
            raise ValueError(f"[mnn.numpy.random.{fn}] a must be a positive integer unless no samples are taken")
    else:
        arr = _population(a)
        if arr.ndim == 0:
            raise ValueError(f"[mnn.numpy.random.{fn}] a must be a sequence or an integer, not a 0-d array")
        ax = _axis(axis, arr.ndim, fn) if not legacy else 0
        if legacy and arr.ndim != 1:
            raise ValueError(f"[mnn.numpy.random.{fn}] a must be 1-dimensional")
        n = arr.shape[ax]
    shape = _size_tuple(size, fn)
    count = 1 if shape is None else _prod(shape)
    if n <= 0 and count:
        raise ValueError(f"[mnn.numpy.random.{fn}] a cannot be empty unless no samples are taken" if not pop_is_int
                         else f"[mnn.numpy.random.{fn}] a must be a positive integer unless no samples are taken")
    pl = None
    if p is not None:
        pa = _param(p, _F64, fn, "p")
        if pa.ndim != 1:
            raise ValueError(f"[mnn.numpy.random.{fn}] p must be 1-dimensional")
        if pa.shape[0] != n:
            raise ValueError(f"[mnn.numpy.random.{fn}] a and p must have same size")
        pl = pa.tolist()
        if any(x != x for x in pl):
            raise ValueError(f"[mnn.numpy.random.{fn}] probabilities contain NaN")
        if any(x < 0 for x in pl):
            raise ValueError(f"[mnn.numpy.random.{fn}] probabilities are not non-negative")
        if abs(math.fsum(pl) - 1.0) > 1.4901161193847656e-08:  # numpy's sqrt(float64 eps)
            raise ValueError(f"[mnn.numpy.random.{fn}] probabilities do not sum to 1")
    oshape = shape if shape is not None else ()
    if replace:
        if pl is not None:
            from ._sorting import searchsorted
            u = st.random(list(oshape), False)
            idx = _core.astype(searchsorted(asarray(_cdf(pl)), u, side="right"), _I64._code)
        else:
            idx = st.bounded(0, n - 1, list(oshape), _I64._code, legacy) if count else \
                _core.reshape(_core.arange_int(0, 0, 1, _I64._code), list(oshape))
    else:
        if count > n:
            raise ValueError(f"[mnn.numpy.random.{fn}] Cannot take a larger sample than population when replace is "
                             f"False")
        if pl is not None:
            if sum(1 for x in pl if x > 0) < count:
                raise ValueError(f"[mnn.numpy.random.{fn}] Fewer non-zero entries in p than size")
            import bisect
            found, pw = [], list(pl)
            while len(found) < count:
                x = st.random([count - len(found)], False).tolist()
                for f_ in found:
                    pw[f_] = 0.0
                cdf = _cdf(pw)
                new = [bisect.bisect_right(cdf, v) for v in x]
                first = {}
                for k, v in enumerate(new):
                    first.setdefault(v, k)
                found.extend(new[k] for k in sorted(first.values()))
            idx = _core.reshape(_core.astype(asarray(found[:count]), _I64._code), list(oshape))
        elif legacy:
            idx = _core.reshape(_core.as_contiguous(_shuffled(st, n)[:count]), list(oshape))
        else:
            idx = _core.reshape(st.choice_noreplace(n, count, shuffle), list(oshape))
    if arr is None:
        return _core.item(idx, 0) if shape is None else idx
    return _take(arr, idx, ax)


def _bytes(st, length, masked):
    """numpy's bytes(): uint32 draws over [0, 2**32) in little-endian order, cut to length."""
    import struct
    n = operator.index(length)
    words = st.bounded(0, _M32, [-(-n // 4)], _dtypes.dtype("uint32")._code, masked).tolist()
    return struct.pack(f"<{len(words)}I", *words)[:n]


_M32 = 0xFFFFFFFF


class RandomState:
    """numpy's legacy RandomState on MT19937, seeded and drawn exactly as numpy does (see the module
    docstring for which methods reproduce numpy's numbers)."""

    def __init__(self, seed=None):
        if isinstance(seed, _bitgen.BitGenerator):
            bg = seed
        else:
            bg = _bitgen.MT19937.__new__(_bitgen.MT19937)
            bg._st = _core.MT19937State()
            bg._seed_seq = None
            bg._legacy_seeding(seed)
        self._bit_generator = bg
        self._st = bg._st
        self._gen = Generator(bg)  # the distributions without a legacy port draw through it

    def __repr__(self):
        return f"RandomState({type(self._bit_generator).__name__})"

    def seed(self, seed=None):
        if not isinstance(self._bit_generator, _bitgen.MT19937):
            raise TypeError("[mnn.numpy.random.seed] can only re-seed a MT19937 BitGenerator")
        self._bit_generator._legacy_seeding(seed)

    def get_state(self, legacy=True):
        st = self._bit_generator.state
        if not isinstance(self._bit_generator, _bitgen.MT19937):
            return st
        has_gauss, gauss = self._st.has_gauss, self._st.gauss
        if legacy:
            return ("MT19937", st["state"]["key"], st["state"]["pos"], has_gauss, gauss)
        st["has_gauss"], st["gauss"] = has_gauss, gauss
        return st

    def set_state(self, state):
        if isinstance(state, dict):
            if "bit_generator" not in state or "state" not in state:
                raise ValueError("[mnn.numpy.random.set_state] state dictionary is not valid.")
            self._bit_generator.state = state
            has_gauss, gauss = state.get("has_gauss", 0), state.get("gauss", 0.0)
        else:
            if not isinstance(state, (tuple, list)) or len(state) < 3 or state[0] != "MT19937":
                raise ValueError("[mnn.numpy.random.set_state] state must be a dict or a tuple "
                                 "('MT19937', key, pos[, has_gauss, cached_gaussian])")
            self._bit_generator.state = state
            has_gauss, gauss = (state[3], state[4]) if len(state) >= 5 else (0, 0.0)
        if isinstance(self._bit_generator, _bitgen.MT19937):
            self._st.has_gauss, self._st.gauss = int(has_gauss), float(gauss)

    # -- numpy-exact legacy streams -------------------------------------------------------------
    def _one_or_many(self, draw, size, fn):
        shape = _size_tuple(size, fn)
        r = draw(list(shape) if shape is not None else [])
        return _core.item(r, 0) if shape is None else r

    def random_sample(self, size=None):
        return self._one_or_many(lambda s: self._st.random(s, False), size, "random_sample")

    random = ranf = sample = random_sample

    def rand(self, *args):
        return self.random_sample(args if args else None)

    def standard_normal(self, size=None):
        return self._one_or_many(self._st.legacy_gauss, size, "standard_normal")

    def randn(self, *args):
        return self.standard_normal(args if args else None)

    def standard_exponential(self, size=None):
        return self._one_or_many(self._st.legacy_exp, size, "standard_exponential")

    def _cont(self, draw, a, b, size, fn, names, bad):
        """numpy's legacy cont(): validate, broadcast, then f(a, b, X) with one draw per element."""
        a_, b_ = _param(a, _F64, fn, names[0]), _param(b, _F64, fn, names[1])
        bad(a_, b_)
        shape, scalar = _out_shape(_size_tuple(size, fn), [a_, b_], fn)
        return draw(list(shape)), a_, b_, scalar and shape == ()

    def normal(self, loc=0.0, scale=1.0, size=None):
        z, loc_a, sc, scalar = self._cont(self._st.legacy_gauss, loc, scale, size, "normal", ("loc", "scale"),
                                          lambda a, b: _check(b < 0, "normal", "scale < 0"))
        r = z * sc + loc_a
        return _core.item(r, 0) if scalar else r

    def uniform(self, low=0.0, high=1.0, size=None):
        def bad(lo, hi):
            if _any(~_u("isfinite")(hi - lo)):
                raise OverflowError("[mnn.numpy.random.uniform] Range exceeds valid bounds")
        u, lo, hi, scalar = self._cont(lambda s: self._st.random(s, False), low, high, size, "uniform",
                                       ("low", "high"), bad)
        r = u * (hi - lo) + lo
        return _core.item(r, 0) if scalar else r

    def exponential(self, scale=1.0, size=None):
        e, sc, _, scalar = self._cont(self._st.legacy_exp, scale, 0.0, size, "exponential", ("scale", "scale"),
                                      lambda a, b: _check(a < 0, "exponential", "scale < 0"))
        r = e * sc
        return _core.item(r, 0) if scalar else r

    def randint(self, low, high=None, size=None, dtype=int):
        r = _bounded_integers(self._st, low, high, size, _I64 if dtype is int else dtype, False, True, "randint")
        if size is None and r.ndim == 0:
            return _core.item(r, 0)
        return r

    def random_integers(self, low, high=None, size=None):
        if high is None:
            low, high = 1, low
        r = _bounded_integers(self._st, low, high, size, _I64, True, True, "random_integers")
        return _core.item(r, 0) if size is None and r.ndim == 0 else r

    def tomaxint(self, size=None):
        return self.randint(0, (1 << 63) - 1, size)

    def choice(self, a, size=None, replace=True, p=None):
        return _choice(self, a, size, replace, p, 0, True, True)

    def shuffle(self, x):
        _shuffle(self._st, x, 0, "shuffle")

    def permutation(self, x):
        return _permutation(self._st, x, 0, "permutation")

    def bytes(self, length):
        return _bytes(self._st, length, True)

    def standard_gamma(self, shape, size=None):
        return self._gen.standard_gamma(shape, size)


for _name in ("poisson", "binomial", "beta", "gamma", "geometric", "lognormal", "laplace", "logistic", "multinomial", "chisquare", "standard_cauchy", "standard_t", "f", "weibull",
              "pareto", "power", "rayleigh", "gumbel", "triangular", "wald", "negative_binomial", "dirichlet"):
    setattr(RandomState, _name, (lambda name: lambda self, *a, **k: getattr(self._gen, name)(*a, **k))(_name))

_global = RandomState()


def seed(seed=None):
    _global.seed(seed)


def get_state(legacy=True):
    return _global.get_state(legacy)


def set_state(state):
    _global.set_state(state)


def _module_fn(name):
    def f(*args, **kwargs):
        return getattr(_global, name)(*args, **kwargs)
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = f"numpy.random.{name} on the module's global RandomState."
    return f


for _name in ("rand", "randn", "randint", "random_integers", "random_sample", "random", "ranf", "sample", "choice",
              "shuffle", "permutation", "normal", "uniform", "standard_normal", "standard_exponential",
              "standard_gamma", "exponential", "poisson", "binomial", "beta", "gamma", "geometric", "lognormal",
              "laplace", "logistic", "multinomial", "chisquare", "bytes", "standard_cauchy", "standard_t", "f",
              "weibull", "pareto", "power", "rayleigh", "gumbel", "triangular", "wald", "negative_binomial",
              "dirichlet"):
    globals()[_name] = _module_fn(_name)
del _name


# -- multivariate normal (appended: numpy's method='svd'|'cholesky'|'eigh' factorisations) -----------

def _multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
    """mean + z @ F with z standard normal and F.T @ F == cov (F from an SVD, Cholesky or eigh of cov)."""
    fn = "multivariate_normal"
    from . import linalg
    from ._creation import asarray as _asarray
    mean = _asarray(mean, dtype=_F64)
    cov = _asarray(cov, dtype=_F64)
    if mean.ndim != 1:
        raise ValueError(f"[mnn.numpy.random.{fn}] mean must be 1 dimensional")
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError(f"[mnn.numpy.random.{fn}] cov must be 2 dimensional and square")
    if mean.shape[0] != cov.shape[0]:
        raise ValueError(f"[mnn.numpy.random.{fn}] mean and cov must have same length")
    if method not in ("svd", "cholesky", "eigh"):
        raise ValueError(f"[mnn.numpy.random.{fn}] method must be one of {{'eigh', 'svd', 'cholesky'}}")
    if check_valid not in ("warn", "raise", "ignore"):
        raise ValueError(f"[mnn.numpy.random.{fn}] check_valid must equal 'warn', 'raise', or 'ignore'")
    shape = _size_tuple(size, fn)
    shape = () if shape is None else shape
    n = mean.shape[0]
    z = self.standard_normal(shape + (n,))
    from ._ufuncs import UFUNCS
    sqrt, absolute = UFUNCS["sqrt"], UFUNCS["absolute"]
    if method == "cholesky":
        factor = _core.transpose(linalg.cholesky(cov), [1, 0])
    else:
        if method == "eigh":
            s, u = linalg.eigh(cov)
            vh = _core.transpose(u, [1, 0])
        else:
            _, s, vh = linalg.svd(cov)
        if check_valid != "ignore":
            from ._math_funcs import allclose
            psd = allclose(_core.matmul(_core.transpose(vh, [1, 0]) * s, vh), cov, rtol=tol, atol=tol)
            if method == "eigh":
                psd = psd and builtins.bool((s >= -tol).all())
            if not psd:
                msg = f"[mnn.numpy.random.{fn}] covariance is not symmetric positive-semidefinite."
                if check_valid == "raise":
                    raise ValueError(msg)
                import warnings
                warnings.warn(msg, RuntimeWarning, stacklevel=2)
        factor = _core.reshape(sqrt(absolute(s)), [n, 1]) * vh
    return _core.matmul(z, factor) + mean


Generator.multivariate_normal = _multivariate_normal
RandomState.multivariate_normal = lambda self, *a, **k: self._gen.multivariate_normal(*a, **k)
multivariate_normal = _module_fn("multivariate_normal")
__all__.append("multivariate_normal")


# -- the rarer laws (distribution-exact only; _random_extra.py) ---------------------------------------
from . import _random_extra  # noqa: E402

_random_extra.install(Generator, RandomState)
for _name in _random_extra.NAMES:
    globals()[_name] = _module_fn(_name)
    __all__.append(_name)
del _name
