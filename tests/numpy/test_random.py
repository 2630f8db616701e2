"""mnn.numpy.random: the Philox primitive (known answers), reproducibility (seeds, thread counts,
plan reuse), each distribution against its law (KS / chi-square tests and moments at fixed seeds),
numpy's shapes, dtypes and return types, and numpy's exceptions for bad parameters."""
import math
import os
import subprocess
import sys

import numpy
import pytest
from scipy import stats

import mnn
import mnn.numpy as mnp
from mnn import _core

ALPHA = 1e-3  # fixed seeds make every test deterministic; this only decides whether the law fits


def a(x):
    return numpy.asarray(x)


# ------------------------------------------------------------------ the generator itself

def test_philox_known_answer():
    # Random123's published vector: Philox-4x32-10, key 0, counter 0 -> 6627e8d5 e169c58d bc57ac4c 9b00dbd8.
    # Full-range integers return a lane's raw 64 bits (element 0: words 0-1, element 1: words 2-3).
    key = _core.scalar(0, mnp.dtype("uint64")._code)
    lo = _core.reshape(_core.scalar(0, mnp.dtype("int64")._code), [1])
    rng = _core.reshape(_core.scalar(-1, mnp.dtype("int64")._code), [1])  # 2**64 - 1 as int64 bits
    out = _core.prim("random", [key, lo, rng], [6, mnp.dtype("uint64")._code, 2], [])
    assert a(out).tolist() == [0xE169C58D6627E8D5, 0x9B00DBD8BC57AC4C]
    # Longer draws go through the batched (SIMD) rounds: every lane against a plain Python Philox.
    k = 0x0123456789ABCDEF
    key = _core.scalar(k, mnp.dtype("uint64")._code)
    out = a(_core.prim("random", [key, lo, rng], [6, mnp.dtype("uint64")._code, 75], []))
    expected = []
    for m in range(38):
        w = _philox_reference(k & 0xFFFFFFFF, k >> 32, [m & 0xFFFFFFFF, m >> 32, 0, 0])
        expected += [w[0] | w[1] << 32, w[2] | w[3] << 32]
    assert out.tolist() == expected[:75]


def _philox_reference(k0, k1, c):
    mask = 0xFFFFFFFF
    c0, c1, c2, c3 = c
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0) & mask, p1 & mask, ((p0 >> 32) ^ c3 ^ k1) & mask, p0 & mask
        k0, k1 = (k0 + 0x9E3779B9) & mask, (k1 + 0xBB67AE85) & mask
    return [c0, c1, c2, c3]


def test_seeded_reproducible_and_distinct():
    r1 = a(mnp.random.default_rng(123).random(1000))
    r2 = a(mnp.random.default_rng(123).random(1000))
    r3 = a(mnp.random.default_rng(124).random(1000))
    assert numpy.array_equal(r1, r2)
    assert not numpy.array_equal(r1, r3)
    g = mnp.random.default_rng(123)
    first, second = a(g.random(1000)), a(g.random(1000))
    assert numpy.array_equal(first, r1) and not numpy.array_equal(first, second)
    # big seeds and sequences are accepted and differ from their low bits
    assert not numpy.array_equal(a(mnp.random.default_rng(2**70 + 5).random(4)),
                                 a(mnp.random.default_rng(5).random(4)))
    assert numpy.array_equal(a(mnp.random.default_rng([1, 2, 3]).random(4)),
                             a(mnp.random.default_rng([1, 2, 3]).random(4)))
    g = mnp.random.default_rng(7)
    assert mnp.random.default_rng(g) is g


def test_spawn_children_are_distinct_and_reproducible():
    kids = mnp.random.default_rng(8).spawn(3)
    again = mnp.random.default_rng(8).spawn(3)
    draws = [a(k.random(50)) for k in kids]
    assert all(numpy.array_equal(x, a(k.random(50))) for x, k in zip(draws, again))
    parent = a(mnp.random.default_rng(8).random(50))
    for i in range(3):
        assert not numpy.array_equal(draws[i], parent)
        assert not numpy.array_equal(draws[i], draws[(i + 1) % 3])


def test_two_draws_in_one_expression_differ():
    g = mnp.random.default_rng(0)
    x = g.random(5) - g.random(5)  # two lazy draws: their keys are data, never merged by CSE
    assert numpy.all(a(x) != 0)


def _all_draws(g, n):
    return [g.random(n), g.random(n, dtype="float32"), g.standard_normal(n), g.normal(2, 3, n),
            g.exponential(2.0, n), g.gamma(0.5, 2.0, n), g.gamma(7.0, size=n), g.beta(0.7, 3.0, n), g.poisson(3.0, n),
            g.poisson(400.0, n), g.binomial(20, 0.3, n), g.binomial(10**6, 0.6, n), g.integers(0, 1000, n),
            g.integers(-5, 2**40, n), g.geometric(0.2, n), g.choice(7, n, p=[0.1, 0.2, 0.1, 0.1, 0.2, 0.2, 0.1]),
            g.permutation(n), g.uniform(-1, 1, n), g.multinomial(100, [0.2, 0.5, 0.3], n // 4),
            g.permuted(mnp.arange(n // 10 * 10).reshape(-1, 10), axis=1)]


def test_thread_count_does_not_change_values():
    n = 20001  # odd, larger than every kernel's grain: the work really splits
    old = mnn.get_num_threads()
    try:
        mnn.set_num_threads(1)
        one = [a(x) for x in _all_draws(mnp.random.default_rng(99), n)]
        mnn.set_num_threads(2)
        two = [a(x) for x in _all_draws(mnp.random.default_rng(99), n)]
    finally:
        mnn.set_num_threads(old)
    for x, y in zip(one, two):
        assert x.dtype == y.dtype and numpy.array_equal(x, y)


ISA_PROGRAM = """
import hashlib, numpy, mnn.numpy as mnp
g = mnp.random.default_rng(2024)
draws = [g.random(1003), g.random(517, dtype="float32"), g.standard_normal(1001), g.integers(0, 10**9, 999),
         g.gamma(1.5, size=300), g.poisson(30.0, 300), g.binomial(100, 0.4, 300), g.permutation(100)]
print(hashlib.sha256(b"".join(numpy.asarray(d).tobytes() for d in draws)).hexdigest())
"""


def _draws_digest(isa):
    env = dict(os.environ, MNN_ISA=isa)
    src = os.path.dirname(os.path.dirname(mnn.__file__))
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", ISA_PROGRAM], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


@pytest.mark.parametrize("isa", [i for i in _core.available_isas() if i != "scalar"])
def test_isa_builds_draw_the_same_bits(isa):
    # The AVX2 Philox rounds are exact integer arithmetic: every ISA yields the scalar build's bits.
    ref = _draws_digest("scalar")
    assert len(ref) == 64 and ref == _draws_digest(isa)


def test_prefix_property_of_lanes():
    # Element i depends only on (key, i): a longer draw with the same key extends a shorter one.
    x5 = a(mnp.random.default_rng(3).random(5))
    x9 = a(mnp.random.default_rng(3).random(9))
    assert numpy.array_equal(x5, x9[:5])


def test_plan_reused_across_calls():
    g = mnp.random.default_rng(1)
    (g.normal(0, 1, 1000) * 2).sum().item()
    mnn.engine.reset_stats()
    vals = [(g.normal(0, 1, 1000) * 2).sum().item() for _ in range(5)]
    s = mnn.engine.stats()
    assert s["plan_misses"] == 0 and s["plan_hits"] >= 5
    assert len(set(vals)) == 5


def test_draws_are_mnn_arrays_that_compose_lazily():
    # numpy-exact streams are filled eagerly (a seeded stream is sequential); arithmetic on them stays lazy
    x = mnp.random.default_rng(0).random((3, 4))
    assert isinstance(x, mnp.ndarray) and x.shape == (3, 4) and x.dtype == mnp.float64
    y = x * 2 + 1
    assert not y._is_evaluated()
    numpy.testing.assert_array_equal(a(y), numpy.random.default_rng(0).random((3, 4)) * 2 + 1)


# ------------------------------------------------------------------ continuous laws

N = 40000


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_random_uniform01(dtype):
    x = a(mnp.random.default_rng(10).random(N, dtype=dtype))
    assert x.dtype == dtype and x.min() >= 0 and x.max() < 1
    assert stats.kstest(x, "uniform").pvalue > ALPHA


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_standard_normal(dtype):
    x = a(mnp.random.default_rng(11).standard_normal(N, dtype=dtype))
    assert x.dtype == dtype
    assert stats.kstest(x.astype(float), "norm").pvalue > ALPHA
    assert abs(x.mean()) < 4 / math.sqrt(N) and abs(x.var() - 1) < 5 * math.sqrt(2 / N)


@pytest.mark.parametrize("law", ["norm", "expon"])
def test_ziggurat_large_sample_and_tails(law):
    # The fast rectangle path, the wedges and the tail beyond the base layer each carry their share
    # of the mass: a large KS test and the tail counts beyond the table's edge r check all three.
    n = 2_000_000
    g = mnp.random.default_rng(77)
    x = a(g.standard_normal(n) if law == "norm" else g.standard_exponential(n))
    assert stats.kstest(x, law).pvalue > ALPHA
    r = 3.6541528853610088 if law == "norm" else 7.69711747013104972
    tail = (abs(x) > r).sum() if law == "norm" else (x > r).sum()
    p = 2 * stats.norm.sf(r) if law == "norm" else stats.expon.sf(r)
    assert abs(tail - n * p) < 5 * math.sqrt(n * p)
    beyond = x[abs(x) > r] if law == "norm" else x[x > r] - r
    if law == "expon":
        assert stats.kstest(beyond, "expon").pvalue > ALPHA  # memoryless tail
    else:
        assert stats.kstest(abs(beyond), lambda t: 1 - stats.norm.sf(t) / stats.norm.sf(r)).pvalue > ALPHA
    for lo, hi in ((0.0, 0.5), (1.0, 1.3), (2.0, 2.6), (3.0, 3.4)):  # slabs across many layers
        cnt = ((x >= lo) & (x < hi)).sum()
        q = stats.norm.cdf(hi) - stats.norm.cdf(lo) if law == "norm" else stats.expon.cdf(hi) - stats.expon.cdf(lo)
        assert abs(cnt - n * q) < 5 * math.sqrt(n * q)


def test_normal_uniform_affine():
    g = mnp.random.default_rng(12)
    assert stats.kstest(a(g.normal(3.0, 2.5, N)), "norm", args=(3.0, 2.5)).pvalue > ALPHA
    assert stats.kstest(a(g.uniform(-2.0, 5.0, N)), "uniform", args=(-2.0, 7.0)).pvalue > ALPHA
    u = a(g.uniform(5.0, -2.0, 1000))  # low > high is allowed: values lie in (high, low]
    assert u.min() > -2.0 and u.max() <= 5.0


@pytest.mark.parametrize("method", ["standard_exponential", "exponential"])
def test_exponential(method):
    g = mnp.random.default_rng(13)
    x = a(g.standard_exponential(N)) if method == "standard_exponential" else a(g.exponential(0.5, N)) * 2
    assert x.min() > 0 and stats.kstest(x, "expon").pvalue > ALPHA


@pytest.mark.parametrize("shape", [0.05, 0.3, 1.0, 2.5, 30.0, 1e4])
def test_gamma(shape):
    x = a(mnp.random.default_rng(14).standard_gamma(shape, N))
    assert stats.kstest(x, "gamma", args=(shape,)).pvalue > ALPHA
    y = a(mnp.random.default_rng(14).gamma(shape, 3.0, N))
    assert numpy.allclose(y, 3.0 * x)


@pytest.mark.parametrize("ab", [(0.5, 0.5), (2.0, 5.0), (0.2, 30.0), (100.0, 100.0)])
def test_beta(ab):
    x = a(mnp.random.default_rng(15).beta(*ab, N))
    assert x.min() >= 0 and x.max() <= 1
    assert stats.kstest(x, "beta", args=ab).pvalue > ALPHA


def test_other_continuous():
    g = mnp.random.default_rng(16)
    assert stats.kstest(a(g.lognormal(0.5, 0.8, N)), "lognorm", args=(0.8, 0, math.exp(0.5))).pvalue > ALPHA
    assert stats.kstest(a(g.laplace(1.0, 2.0, N)), "laplace", args=(1.0, 2.0)).pvalue > ALPHA
    assert stats.kstest(a(g.logistic(-1.0, 0.5, N)), "logistic", args=(-1.0, 0.5)).pvalue > ALPHA
    assert stats.kstest(a(g.chisquare(3.0, N)), "chi2", args=(3.0,)).pvalue > ALPHA


@pytest.mark.parametrize("call,law,args", [
    ("standard_cauchy(N)", "cauchy", ()), ("standard_t(3.5, N)", "t", (3.5,)), ("f(4, 7, N)", "f", (4, 7)),
    ("weibull(1.7, N)", "weibull_min", (1.7,)), ("pareto(2.5, N)", "lomax", (2.5,)),
    ("power(3.0, N)", "powerlaw", (3.0,)), ("rayleigh(2.0, N)", "rayleigh", (0, 2.0)),
    ("gumbel(1.0, 2.0, N)", "gumbel_r", (1.0, 2.0)), ("triangular(-1, 0.5, 3, N)", "triang", (0.375, -1, 4)),
    ("wald(1.5, 2.0, N)", "invgauss", (0.75, 0, 2.0)),
])
def test_composed_continuous_laws(call, law, args):
    x = a(eval("mnp.random.default_rng(18)." + call))
    assert x.shape == (N,) and stats.kstest(x, law, args=args).pvalue > ALPHA
    r = numpy.random.default_rng(0)
    one = eval("mnp.random.default_rng(18)." + call.replace(", N)", ")").replace("(N)", "()"))
    assert type(one) is type(eval("r." + call.replace(", N)", ")").replace("(N)", "()")))


def test_negative_binomial_and_dirichlet():
    g = mnp.random.default_rng(19)
    x = a(g.negative_binomial(3, 0.4, N))
    assert x.dtype == numpy.int64
    assert _chisq_fit(x, lambda k: stats.nbinom.pmf(k, 3, 0.4), range(60)) > ALPHA
    d = a(g.dirichlet([1.0, 2.0, 3.0], N))
    assert d.shape == (N, 3) and numpy.allclose(d.sum(1), 1)
    assert stats.kstest(d[:, 1], "beta", args=(2.0, 4.0)).pvalue > ALPHA  # marginals are Beta(a_i, sum - a_i)
    assert a(g.dirichlet([0.5, 0.5])).shape == (2,)
    assert a(g.weibull(0.0, 3)).tolist() == [0.0, 0.0, 0.0]


def test_array_parameters_broadcast():
    g = mnp.random.default_rng(17)
    loc = mnp.asarray([[0.0], [100.0]])
    scale = mnp.asarray([1.0, 2.0, 3.0])
    x = g.normal(loc, scale)
    assert x.shape == (2, 3)
    big = a(g.normal(loc, scale, size=(4000, 2, 3)))
    assert numpy.allclose(big.mean(0), [[0, 0, 0], [100, 100, 100]], atol=0.25)
    assert numpy.allclose(big.std(0), [[1, 2, 3]] * 2, rtol=0.06)
    sh = a(g.gamma(mnp.asarray([0.5, 5.0, 50.0]), size=(20000, 3)))
    assert numpy.allclose(sh.mean(0), [0.5, 5, 50], rtol=0.03)
    p = a(g.poisson(mnp.asarray([1.0, 30.0]), size=(20000, 2)))
    assert numpy.allclose(p.mean(0), [1, 30], rtol=0.03)
    with pytest.raises(ValueError):
        g.normal(mnp.zeros(3), 1.0, size=(2, 2))


# ------------------------------------------------------------------ discrete laws

def _chisq_fit(x, pmf, support):
    counts = numpy.array([(x == k).sum() for k in support], dtype=float)
    expected = numpy.array([pmf(k) for k in support]) * len(x)
    rest_obs, rest_exp = len(x) - counts.sum(), len(x) - expected.sum()
    keep = expected >= 5
    obs, exp = counts[keep], expected[keep]
    tail_obs, tail_exp = rest_obs + counts[~keep].sum(), rest_exp + expected[~keep].sum()
    if tail_exp > 1e-6 * len(x) or tail_obs:  # a bin for everything else, unless its law says "never"
        obs, exp = numpy.append(obs, tail_obs), numpy.append(exp, tail_exp)
    exp = exp * obs.sum() / exp.sum()
    return stats.chisquare(obs, exp).pvalue


@pytest.mark.parametrize("lam", [0.0, 0.5, 4.0, 9.99, 10.0, 60.0])
def test_poisson(lam):
    x = a(mnp.random.default_rng(20).poisson(lam, N))
    assert x.dtype == numpy.int64
    if lam == 0:
        assert (x == 0).all()
        return
    support = range(int(lam + 8 * math.sqrt(lam) + 10))
    assert _chisq_fit(x, lambda k: stats.poisson.pmf(k, lam), support) > ALPHA


def test_poisson_large_mean():
    x = a(mnp.random.default_rng(21).poisson(1e7, N)).astype(float)
    assert abs(x.mean() - 1e7) < 5 * math.sqrt(1e7 / N)
    assert abs(x.var() / 1e7 - 1) < 5 * math.sqrt(2 / N)


@pytest.mark.parametrize("n,p", [(1, 0.5), (10, 0.3), (50, 0.9), (100, 0.5), (1000, 0.02), (0, 0.4), (7, 0.0),
                                 (7, 1.0)])
def test_binomial(n, p):
    x = a(mnp.random.default_rng(22).binomial(n, p, N))
    assert x.dtype == numpy.int64 and x.min() >= 0 and x.max() <= n
    if p in (0.0, 1.0) or n == 0:
        assert (x == n * p).all()
        return
    assert _chisq_fit(x, lambda k: stats.binom.pmf(k, n, p), range(n + 1)) > ALPHA


@pytest.mark.parametrize("n,p", [(10**6, 0.3), (10**9, 0.999), (5000, 0.5)])
def test_binomial_large(n, p):
    x = a(mnp.random.default_rng(23).binomial(n, p, N)).astype(float)
    mean, var = n * p, n * p * (1 - p)
    assert abs(x.mean() - mean) < 5 * math.sqrt(var / N)
    assert abs(x.var() / var - 1) < 5 * math.sqrt(2 / N)
    z = (x - mean) / math.sqrt(var)  # normal approximation is excellent at these sizes
    assert stats.kstest(z + numpy.random.default_rng(0).uniform(-0.5, 0.5, N) / math.sqrt(var), "norm").pvalue > ALPHA


@pytest.mark.parametrize("p", [0.05, 0.5, 1.0])
def test_geometric(p):
    x = a(mnp.random.default_rng(24).geometric(p, N))
    assert x.min() >= 1
    assert _chisq_fit(x, lambda k: stats.geom.pmf(k, p), range(1, 200)) > ALPHA if p < 1 else (x == 1).all()


@pytest.mark.parametrize("low,high,endpoint", [(0, 7, False), (-3, 3, True), (0, 2**33 + 1, False),
                                              (10, 11, False)])
def test_integers_uniform(low, high, endpoint):
    x = a(mnp.random.default_rng(25).integers(low, high, N, endpoint=endpoint))
    top = high if endpoint else high - 1
    assert x.dtype == numpy.int64 and x.min() >= low and x.max() <= top
    if top == low:
        assert (x == low).all()
    elif top - low < 50:
        assert _chisq_fit(x, lambda k: 1 / (top - low + 1), range(low, top + 1)) > ALPHA
    else:
        assert stats.kstest((x - low) / (top - low + 1), "uniform").pvalue > ALPHA


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "bool"])
def test_integers_dtypes(dtype):
    info = numpy.iinfo(dtype) if dtype != "bool" else None
    lo, hi = (0, 1) if info is None else (int(info.min), int(info.max))
    x = a(mnp.random.default_rng(26).integers(lo, hi, 5000, dtype=dtype, endpoint=True))
    assert x.dtype == dtype and x.min() >= lo and x.max() <= hi
    assert x.min() < lo + (hi - lo) / 10 + 1 and x.max() > hi - (hi - lo) / 10 - 1  # covers the whole range
    with pytest.raises(ValueError):
        mnp.random.default_rng(0).integers(lo, hi + 1, 5, dtype=dtype, endpoint=True)
    with pytest.raises(ValueError):
        mnp.random.default_rng(0).integers(lo - 1, hi, 5, dtype=dtype)


def test_integers_array_bounds():
    x = a(mnp.random.default_rng(27).integers(mnp.asarray([0, 3]), mnp.asarray([[5], [200]]), size=(3000, 2, 2)))
    assert x.shape == (3000, 2, 2)
    for (i, j), (lo, hi) in {(0, 0): (0, 5), (0, 1): (3, 5), (1, 0): (0, 200), (1, 1): (3, 200)}.items():
        assert x[:, i, j].min() == lo and x[:, i, j].max() == hi - 1
    with pytest.raises(ValueError):
        mnp.random.default_rng(0).integers(mnp.asarray([0, 100]), mnp.asarray([[5], [200]]))


def test_choice():
    g = mnp.random.default_rng(30)
    p = [0.1, 0.0, 0.4, 0.2, 0.3]
    x = a(g.choice(5, N, p=p))
    assert (x != 1).all()
    assert _chisq_fit(x, lambda k: p[k], range(5)) > ALPHA
    u = a(g.choice(6, N))
    assert _chisq_fit(u, lambda k: 1 / 6, range(6)) > ALPHA
    s = a(g.choice(50, 50, replace=False))
    assert sorted(s.tolist()) == list(range(50))
    w = a(g.choice(10, 4, replace=False, p=[0.05] * 8 + [0.3, 0.3]))
    assert len(set(w.tolist())) == 4
    firsts = numpy.array([int(g.choice(3, 1, replace=False, p=[0.2, 0.3, 0.5])[0]) for _ in range(2000)])
    assert _chisq_fit(firsts, lambda k: [0.2, 0.3, 0.5][k], range(3)) > ALPHA
    items = mnp.asarray([[1, 2], [3, 4], [5, 6]])
    rows = a(g.choice(items, 4))
    assert rows.shape == (4, 2) and all(r.tolist() in ([1, 2], [3, 4], [5, 6]) for r in rows)
    cols = a(g.choice(items, 3, axis=1))
    assert cols.shape == (3, 3)
    assert a(g.choice(items, (2, 2))).shape == (2, 2, 2)


def test_permutation_and_shuffle():
    g = mnp.random.default_rng(31)
    p = a(g.permutation(100))
    assert sorted(p.tolist()) == list(range(100)) and p.tolist() != list(range(100))
    firsts = numpy.array([int(g.permutation(4)[0]) for _ in range(4000)])
    assert _chisq_fit(firsts, lambda k: 0.25, range(4)) > ALPHA
    m = mnp.arange(12).reshape(4, 3)
    pm = a(g.permutation(m))
    assert sorted(map(tuple, pm.tolist())) == [tuple(r) for r in numpy.arange(12).reshape(4, 3).tolist()]
    pc = a(g.permutation(m, axis=1))
    assert sorted(pc[0].tolist()) == [0, 1, 2] and (pc - pc[:, :1] == pc[0] - pc[0, 0]).all()
    x = mnp.arange(10.0)
    view = x[2:8]
    g.shuffle(view)  # in place, through a view
    xv = a(x)
    assert xv[:2].tolist() == [0, 1] and xv[8:].tolist() == [8, 9] and sorted(xv[2:8].tolist()) == [2, 3, 4, 5, 6, 7]
    lst = list(range(20))
    g.shuffle(lst)
    assert sorted(lst) == list(range(20)) and lst != list(range(20))
    rows = a(g.permuted(mnp.arange(5) * mnp.ones((4000, 1), dtype="int64"), axis=1))
    assert (numpy.sort(rows, axis=1) == numpy.arange(5)).all()
    for col in (0, 4):  # every value equally likely at every position, row after row
        assert _chisq_fit(rows[:, col], lambda k: 0.2, range(5)) > ALPHA
    assert len({tuple(r) for r in rows[:200].tolist()}) > 90  # rows are not copies of one permutation
    pe = a(g.permuted(mnp.arange(12).reshape(3, 4), axis=1))
    assert all(sorted(r) == list(range(4 * i, 4 * i + 4)) for i, r in enumerate(pe.tolist()))
    assert sorted(a(g.permuted(mnp.arange(12).reshape(3, 4))).ravel().tolist()) == list(range(12))


def test_multinomial():
    g = mnp.random.default_rng(32)
    pv = [0.2, 0.5, 0.3]
    x = a(g.multinomial(50, pv, size=20000))
    assert x.shape == (20000, 3) and (x.sum(1) == 50).all() and x.min() >= 0
    assert numpy.allclose(x.mean(0), [10, 25, 15], rtol=0.02)
    assert numpy.allclose(x.var(0), [50 * p * (1 - p) for p in pv], rtol=0.05)
    one = a(g.multinomial(10, [0.5, 0.5]))
    assert one.shape == (2,) and one.sum() == 10
    with pytest.raises(ValueError):
        g.multinomial(10, [0.7, 0.6, 0.1])
    with pytest.raises(ValueError):
        g.multinomial(-1, [0.5, 0.5])


# ------------------------------------------------------------------ shapes, dtypes, return types

def test_return_types_like_numpy():
    g, r = mnp.random.default_rng(0), numpy.random.default_rng(0)
    for call in ["random()", "normal()", "uniform()", "standard_normal()", "exponential()", "beta(1, 2)",
                 "gamma(2.0)", "poisson(3)", "binomial(5, 0.5)", "geometric(0.5)", "choice(5)", "lognormal()"]:
        assert type(eval("g." + call)) is type(eval("r." + call)), call
    i = g.integers(5)
    assert isinstance(i, mnp.ndarray) and i.ndim == 0 and i.dtype == mnp.int64
    for call in ["random(size=())", "normal(size=())", "integers(5, size=())", "poisson(2.0, size=())"]:
        x, y = eval("g." + call), eval("r." + call)
        assert isinstance(x, mnp.ndarray) and x.shape == y.shape == () and x.dtype == y.dtype, call
    for call in ["random((2, 3))", "normal(0, 1, 4)", "integers(0, 5, (2, 0))", "beta(1, 2, [3])",
                 "choice(5, (2, 2))", "poisson(1.0, size=(0,))", "random(0)", "multinomial(3, [0.5, 0.5], (2, 3))",
                 "permutation(5)", "binomial(mnp_n, 0.5)"]:
        x = eval("g." + call.replace("mnp_n", "mnp.asarray([3, 4])"))
        y = eval("r." + call.replace("mnp_n", "numpy.asarray([3, 4])"))
        assert x.shape == y.shape and x.dtype == y.dtype, call


def test_out_argument():
    g = mnp.random.default_rng(0)
    out = mnp.zeros((3, 2))
    res = g.random(out=out)
    assert res is out and (a(out) > 0).all()
    out32 = mnp.zeros(5, dtype="float32")
    g.standard_normal(dtype="float32", out=out32)
    assert (a(out32) != 0).all()


# ------------------------------------------------------------------ errors

@pytest.mark.parametrize("call,exc", [
    ("normal(0, -1)", ValueError), ("normal(0, mnp.asarray([1.0, -1.0]))", ValueError),
    ("exponential(-2.0)", ValueError), ("gamma(-1.0)", ValueError), ("gamma(1.0, -1.0)", ValueError),
    ("standard_gamma(-0.5)", ValueError), ("beta(0.0, 1.0)", ValueError), ("beta(1.0, -1.0)", ValueError),
    ("poisson(-1.0)", ValueError), ("poisson(1e20)", ValueError), ("binomial(-1, 0.5)", ValueError),
    ("binomial(5, 1.5)", ValueError), ("binomial(5, float('nan'))", ValueError), ("geometric(0.0)", ValueError),
    ("geometric(1.5)", ValueError), ("integers(5, 5)", ValueError), ("integers(5, 3)", ValueError),
    ("integers(0, 300, dtype='uint8')", ValueError), ("integers(-1, 3, dtype='uint32')", ValueError),
    ("choice(0)", ValueError), ("choice([])", ValueError), ("choice(3, p=[0.5, 0.5])", ValueError),
    ("choice(3, p=[0.5, 0.6, -0.1])", ValueError), ("choice(3, p=[0.2, 0.2, 0.2])", ValueError),
    ("choice(3, 4, replace=False)", ValueError), ("choice(3, 3, replace=False, p=[0.5, 0.5, 0.0])", ValueError),
    ("random(-1)", ValueError), ("random(dtype='int32')", TypeError), ("standard_normal(dtype='float16')", TypeError),
    ("uniform(0, float('inf'))", OverflowError), ("integers(5, dtype='float64')", TypeError),
    ("random((2, 'a'))", TypeError), ("chisquare(0)", ValueError), ("standard_t(0)", ValueError),
    ("f(0, 1)", ValueError), ("f(1, -1)", ValueError), ("weibull(-1)", ValueError), ("pareto(0)", ValueError),
    ("power(-1)", ValueError), ("rayleigh(-1)", ValueError), ("gumbel(0, -1)", ValueError),
    ("triangular(1, 0, 2)", ValueError), ("triangular(0, 3, 2)", ValueError), ("triangular(1, 1, 1)", ValueError),
    ("wald(0, 1)", ValueError), ("wald(1, 0)", ValueError), ("negative_binomial(0, 0.5)", ValueError),
    ("negative_binomial(1, 1.5)", ValueError), ("dirichlet([1.0, -1.0])", ValueError),
    ("dirichlet([[1.0]])", ValueError),
])
def test_bad_parameters_raise_like_numpy(call, exc):
    with pytest.raises(exc):
        eval("numpy.random.default_rng(0)." + call.replace("mnp.", "numpy."))
    with pytest.raises(exc, match=r"\[mnn\.numpy\.random"):
        eval("mnp.random.default_rng(0)." + call)


def test_bad_seeds():
    for bad, exc in ((-1, ValueError), (1.5, TypeError)):
        with pytest.raises(exc):
            numpy.random.default_rng(bad)
        with pytest.raises(exc):
            mnp.random.default_rng(bad)
    for bad, exc in ((-1, ValueError), (2**32, ValueError), (1.5, TypeError)):
        with pytest.raises(exc):
            numpy.random.seed(bad)
        with pytest.raises(exc):
            mnp.random.seed(bad)


# ------------------------------------------------------------------ legacy API

def test_legacy_module_functions():
    mnp.random.seed(5)
    first = [a(mnp.random.rand(3, 2)), a(mnp.random.randn(4)), a(mnp.random.randint(0, 10, 6)),
             a(mnp.random.random_sample((2,))), a(mnp.random.random(3)), a(mnp.random.choice(10, 3)),
             a(mnp.random.permutation(8)), a(mnp.random.normal(1, 2, 3)), a(mnp.random.uniform(0, 1, 3))]
    mnp.random.seed(5)
    again = [a(mnp.random.rand(3, 2)), a(mnp.random.randn(4)), a(mnp.random.randint(0, 10, 6)),
             a(mnp.random.random_sample((2,))), a(mnp.random.random(3)), a(mnp.random.choice(10, 3)),
             a(mnp.random.permutation(8)), a(mnp.random.normal(1, 2, 3)), a(mnp.random.uniform(0, 1, 3))]
    for x, y, shape in zip(first, again, [(3, 2), (4,), (6,), (2,), (3,), (3,), (8,), (3,), (3,)]):
        assert numpy.array_equal(x, y) and x.shape == shape
    st = mnp.random.get_state()
    u = a(mnp.random.rand(5))
    mnp.random.set_state(st)
    assert numpy.array_equal(u, a(mnp.random.rand(5)))
    for call in ["rand()", "randn()", "randint(5)", "random_sample()", "choice(5)", "normal()", "uniform()",
                 "poisson(3)", "binomial(4, 0.5)"]:
        assert type(eval("mnp.random." + call)) is type(eval("numpy.random." + call)), call
    assert a(mnp.random.randint(3, size=1000)).max() == 2 and a(mnp.random.randint(3, size=1000)).min() == 0
    assert mnp.random.randint(0, 5, 3, dtype="uint8").dtype == mnp.uint8
    x = mnp.arange(10)
    mnp.random.shuffle(x)
    assert sorted(a(x).tolist()) == list(range(10))


def test_random_state_objects():
    r1, r2 = mnp.random.RandomState(42), mnp.random.RandomState(42)
    assert numpy.array_equal(a(r1.rand(10)), a(r2.rand(10)))
    assert numpy.array_equal(a(r1.randn(2, 3)), a(r2.randn(2, 3)))
    assert stats.kstest(a(r1.random_sample(N)), "uniform").pvalue > ALPHA
    assert stats.kstest(a(r1.standard_normal(N)), "norm").pvalue > ALPHA
    assert r1.randint(3, 4) == 3


@pytest.mark.parametrize("method", ["svd", "cholesky", "eigh"])
def test_multivariate_normal(method):
    # the streams are not numpy's; the distribution is: sample mean and covariance, shapes, errors
    rng = mnp.random.default_rng(0)
    mean, cov = [1.0, -2.0, 0.5], [[2.0, 0.8, 0.1], [0.8, 1.0, -0.3], [0.1, -0.3, 0.5]]
    x = numpy.asarray(rng.multivariate_normal(mean, cov, size=100000, method=method))
    assert x.shape == (100000, 3) and x.dtype == numpy.float64
    numpy.testing.assert_allclose(x.mean(0), mean, atol=0.02)
    numpy.testing.assert_allclose(numpy.cov(x.T), cov, atol=0.03)
    assert rng.multivariate_normal(mean, cov, size=(2, 4), method=method).shape == (2, 4, 3)
    assert mnp.random.multivariate_normal([0, 0], numpy.eye(2)).shape == (2,)
    assert mnp.random.RandomState(1).multivariate_normal([0, 0], numpy.eye(2), 5).shape == (5, 2)


def test_multivariate_normal_errors():
    rng = mnp.random.default_rng(1)
    with pytest.raises(ValueError, match=r"^\[mnn.numpy.random.multivariate_normal\] cov must be"):
        rng.multivariate_normal([0, 0], [1, 1])
    with pytest.raises(ValueError, match="same length"):
        rng.multivariate_normal([0, 0, 0], numpy.eye(2))
    with pytest.raises(ValueError, match="positive-semidefinite"):
        rng.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="raise")
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        rng.multivariate_normal([0, 0], [[1, 2], [2, 1]])
