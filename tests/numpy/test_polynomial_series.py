"""mnn.numpy.polynomial (power series and the Polynomial class) against numpy.polynomial."""
import numpy
import pytest

import mnn.numpy as mnp

P, Q = numpy.polynomial.Polynomial, mnp.polynomial.Polynomial
pp, mp = numpy.polynomial.polynomial, mnp.polynomial.polynomial


def same(got, ref, tol=1e-9):
    g, r = numpy.asarray(got), numpy.asarray(ref)
    assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
    numpy.testing.assert_allclose(g, r, rtol=tol, atol=1e-12)


def _data():
    x = numpy.linspace(0, 10, 20)
    return x, 3 + 2 * x - 0.1 * x ** 2 + 0.01 * numpy.sin(3 * x)


def test_fit_convert_call_calculus():
    x, y = _data()
    p, q = P.fit(x, y, 2), Q.fit(mnp.asarray(x), mnp.asarray(y), 2)
    same(q.coef, p.coef)
    same(q.domain, p.domain)
    same(q.window, p.window)
    same(q.convert().coef, p.convert().coef)
    same(q(mnp.asarray(x)), p(x))
    assert abs(float(q(2.0)) - p(2.0)) < 1e-9
    same(q.deriv().coef, p.deriv().coef)
    same(q.integ().coef, p.integ().coef)
    same(q.integ(2, k=[1, 2], lbnd=3).coef, p.integ(2, k=[1, 2], lbnd=3).coef)
    pw, qw = P.fit(x, y, 3, w=x + 1, domain=[0, 20]), Q.fit(mnp.asarray(x), mnp.asarray(y), 3, w=mnp.asarray(x + 1),
                                                            domain=[0, 20])
    same(qw.coef, pw.coef)
    assert q.degree() == p.degree() == 2


def test_arithmetic_and_linspace():
    a, b = P([1, 2, 3]), Q([1, 2, 3])
    same((b * b).coef, (a * a).coef)
    same((b + 1).coef, (a + 1).coef)
    same((2 * b).coef, (2 * a).coef)
    same((1 - b).coef, (1 - a).coef)
    same((b - Q([1, 1])).coef, (a - P([1, 1])).coef)
    same((b ** 3).coef, (a ** 3).coef)
    same((-b).coef, (-a).coef)
    same((b / 2).coef, (a / 2).coef)
    same(b.deriv(2).coef, a.deriv(2).coef)
    same(b.integ(k=1).coef, a.integ(k=1).coef)
    for r, s in zip(b.linspace(5), a.linspace(5)):
        same(r, s)
    same(Q.fromroots([1, 2, 3]).coef, P.fromroots([1, 2, 3]).coef)
    assert b == Q([1, 2, 3]) and b != Q([1, 2])
    with pytest.raises(TypeError, match="Domains"):
        b + Q([1], domain=[0, 1])


def test_series_functions():
    x, y = _data()
    same(mp.polyfit(mnp.asarray(x), mnp.asarray(y), 3), pp.polyfit(x, y, 3), tol=1e-8)
    same(mp.polyval(mnp.asarray([1.0, 2]), [1, 2, 3]), pp.polyval([1.0, 2], [1, 2, 3]))
    same(mp.polyval(mnp.asarray([[1.0], [2]]), mnp.asarray([[1, 2], [3, 4]])), pp.polyval([[1.0], [2]], [[1, 2], [3, 4]]))
    same(mp.polyder([1, 2, 3, 4], 2, scl=0.5), pp.polyder([1, 2, 3, 4], 2, scl=0.5))
    same(mp.polyder([1, 2], 3), pp.polyder([1, 2], 3))
    same(mp.polyint([1, 2, 3], 2, k=[1, 2], lbnd=1, scl=2), pp.polyint([1, 2, 3], 2, k=[1, 2], lbnd=1, scl=2))
    same(mp.polyfromroots([1, 2, 3]), pp.polyfromroots([1, 2, 3]))
    same(mp.polyvander(mnp.asarray([1.0, 2, 3]), 3), pp.polyvander([1.0, 2, 3], 3))
    for name in ("polyadd", "polysub", "polymul"):
        for a, b in (([1, 2], [1, 2, 3]), ([1, 2, 3], [1, 2, 3]), ([0.5], [2])):
            same(getattr(mp, name)(a, b), getattr(pp, name)(a, b))
    same(mp.polytrim([1, 2, 0, 1e-9], tol=1e-6), pp.polytrim([1, 2, 0, 1e-9], tol=1e-6))
    with pytest.raises(TypeError, match=r"^\[mnn.numpy.polynomial.polyfit\]"):
        mp.polyfit(mnp.asarray([1.0, 2]), mnp.asarray([1.0]), 1)


def test_roots_and_poly():
    # roots: eigenvalues of the companion matrix (mnn.numpy.linalg.eigvals), as numpy computes them
    same(mnp.roots([1, -6, 11, -6, 0]), numpy.roots([1, -6, 11, -6, 0]))
    same(mnp.roots([0, 0, 2, -4]), numpy.roots([0, 0, 2, -4]))
    same(mnp.poly1d([1, -3, 2]).roots, numpy.poly1d([1, -3, 2]).roots)
    same(mp.polycompanion([1, 2, 3, 4]), pp.polycompanion([1, 2, 3, 4]))
    same(mp.polyroots([-6, 11, -6, 1]), pp.polyroots([-6, 11, -6, 1]))
    x = numpy.linspace(0, 10, 9)
    y = (x - 2) * (x - 7)
    same(Q.fit(mnp.asarray(x), mnp.asarray(y), 2).roots(), P.fit(x, y, 2).roots())
    for A in ([[1.0, 2], [3, 4]], [[0.0, -1], [1, 0]], [[2.0, 0, 0], [0, 3, 4], [0, 4, 9]]):
        same(mnp.poly(mnp.asarray(A)), numpy.poly(numpy.asarray(A)))  # characteristic polynomial
