"""hypergeometric, logseries, zipf, vonmises, noncentral_chisquare, noncentral_f: fixed seeds, law
checked by chi-square (discrete) or Kolmogorov-Smirnov (continuous) tests against scipy, plus
reproducibility, shapes and numpy's parameter errors."""
import numpy
import pytest
from scipy import stats

import mnn.numpy as mnp

ALPHA = 1e-3  # fixed seeds: deterministic; this only decides whether the law fits
N = 20000


def chi2_fits(x, pmf, support):
    """Pearson chi-square over `support` plus one tail bin holding the rest."""
    x = numpy.asarray(x)
    obs = numpy.array([(x == k).sum() for k in support] + [(~numpy.isin(x, support)).sum()], dtype=float)
    p = numpy.array([pmf(k) for k in support])
    exp = numpy.append(p, max(0.0, 1.0 - p.sum())) * len(x)
    keep = exp > 5
    obs, exp = obs[keep], exp[keep]
    exp *= obs.sum() / exp.sum()
    return stats.chisquare(obs, exp).pvalue > ALPHA


def test_hypergeometric_law():
    for ngood, nbad, nsample in [(10, 5, 7), (50, 80, 100), (3, 200, 20)]:
        x = mnp.random.default_rng(1).hypergeometric(ngood, nbad, nsample, N)
        assert x.dtype == mnp.int64
        rv = stats.hypergeom(ngood + nbad, ngood, nsample)
        assert chi2_fits(x, rv.pmf, range(0, min(ngood, nsample) + 1))


def test_logseries_law():
    for p in (0.3, 0.9):
        x = mnp.random.default_rng(2).logseries(p, N)
        assert chi2_fits(x, stats.logser(p).pmf, range(1, 30))


def test_zipf_law():
    for a in (1.7, 3.0):
        x = mnp.random.default_rng(3).zipf(a, N)
        assert int(numpy.asarray(x).min()) >= 1
        assert chi2_fits(x, stats.zipf(a).pmf, range(1, 40))


def test_vonmises_law():
    for mu, kappa in [(0.5, 2.0), (-1.0, 0.3), (2.0, 30.0)]:
        x = numpy.asarray(mnp.random.default_rng(4).vonmises(mu, kappa, N))
        assert (numpy.abs(x) <= numpy.pi).all()
        centred = numpy.mod(x - mu + numpy.pi, 2 * numpy.pi) - numpy.pi  # scipy's law is not wrapped around mu
        assert stats.kstest(centred, stats.vonmises(kappa).cdf).pvalue > ALPHA
    x = numpy.asarray(mnp.random.default_rng(4).vonmises(0.0, 0.0, N))  # kappa 0: uniform on the circle
    assert stats.kstest(x, stats.uniform(-numpy.pi, 2 * numpy.pi).cdf).pvalue > ALPHA


def test_noncentral_chisquare_law():
    for df, nonc in [(3.0, 2.0), (0.5, 1.5), (4.0, 0.0)]:  # both branches (df > 1, Poisson mixture) and nonc 0
        x = numpy.asarray(mnp.random.default_rng(5).noncentral_chisquare(df, nonc, N))
        ref = stats.chi2(df).cdf if nonc == 0 else stats.ncx2(df, nonc).cdf
        assert stats.kstest(x, ref).pvalue > ALPHA


def test_noncentral_f_law():
    x = numpy.asarray(mnp.random.default_rng(6).noncentral_f(3.0, 7.0, 2.5, N))
    assert stats.kstest(x, stats.ncf(3.0, 7.0, 2.5).cdf).pvalue > ALPHA


@pytest.mark.parametrize("name,args", [("hypergeometric", (10, 5, 7)), ("logseries", (0.6,)), ("zipf", (2.5,)),
                                       ("vonmises", (0.5, 2.0)), ("noncentral_chisquare", (3.0, 2.0)),
                                       ("noncentral_f", (3.0, 5.0, 2.0))])
def test_reproducible_shapes_and_entry_points(name, args):
    a = numpy.asarray(getattr(mnp.random.default_rng(9), name)(*args, size=(3, 4)))
    b = numpy.asarray(getattr(mnp.random.default_rng(9), name)(*args, size=(3, 4)))
    assert a.shape == (3, 4) and (a == b).all()
    assert numpy.ndim(getattr(mnp.random.default_rng(9), name)(*args)) == 0
    mnp.random.seed(3)
    c = numpy.asarray(getattr(mnp.random, name)(*args, size=5))
    mnp.random.seed(3)
    d = numpy.asarray(getattr(mnp.random.RandomState(3), name)(*args, size=5))
    assert c.shape == (5,) and (c == d).all()


def test_broadcast_parameters():
    x = numpy.asarray(mnp.random.default_rng(0).vonmises(numpy.array([0.0, 1.0, 2.0]), 5.0))
    assert x.shape == (3,)
    y = numpy.asarray(mnp.random.default_rng(0).hypergeometric(numpy.array([[5], [10]]), 5, 3))
    assert y.shape == (2, 1) and (y <= 3).all()


def test_parameter_errors():
    g = mnp.random.default_rng(0)
    with pytest.raises(ValueError):
        g.hypergeometric(3, 2, 6)
    with pytest.raises(ValueError):
        g.logseries(1.0)
    with pytest.raises(ValueError):
        g.zipf(1.0)
    with pytest.raises(ValueError):
        g.vonmises(0.0, -1.0)
    with pytest.raises(ValueError):
        g.noncentral_chisquare(0.0, 1.0)
    with pytest.raises(ValueError):
        g.noncentral_f(1.0, 1.0, -1.0)
    with pytest.raises(ValueError):
        mnp.random.RandomState(0).hypergeometric(3, 2, 0)  # legacy: nsample < 1
