"""The float32/float64 GEMM (packed microkernels, matrix-vector and small-matrix paths) against
numpy: odd sizes around the register tile and cache blocks, transposed/strided/broadcast operands,
batches; every ISA against the scalar one; and results that do not depend on the thread count."""

import numpy
import pytest
from helpers import run_under_isa

import mnn
import mnn.numpy as mnp

RTOL = {"float32": 2e-5, "float64": 1e-12}


def check(a, b, dt):
    got = numpy.asarray(mnp.asarray(a) @ mnp.asarray(b))
    want = numpy.asarray(a, dtype="float64") @ numpy.asarray(b, dtype="float64")
    assert got.dtype == numpy.dtype(dt)
    assert got.shape == want.shape
    # Error bound of a length-K dot product relative to sum |a||b|, not to the (cancelling) result.
    k = a.shape[-1]
    scale = numpy.abs(numpy.asarray(a, "float64")) @ numpy.abs(numpy.asarray(b, "float64"))
    numpy.testing.assert_array_less(numpy.abs(got - want), RTOL[dt] * (1 + k / 64) * scale + 1e-30)


@pytest.fixture(params=["float32", "float64"])
def dt(request):
    return request.param


def rand(rng, shape, dt):
    return rng.standard_normal(shape).astype(dt)


SIZES = [1, 2, 3, 5, 6, 7, 8, 13, 16, 17, 31, 33, 48, 63, 67]


@pytest.mark.parametrize("m", SIZES)
def test_odd_sizes(m, dt):
    rng = numpy.random.default_rng(m)
    for n in (1, 7, 16, 17, 67):
        for k in (1, 5, 16, 33, 67):
            check(rand(rng, (m, k), dt), rand(rng, (k, n), dt), dt)


@pytest.mark.parametrize("mnk", [(150, 300, 70), (145, 257, 4097), (301, 600, 33), (7, 1000, 300),
                                 (300, 9, 300), (97, 513, 1), (1, 513, 97), (200, 1, 200)])
def test_block_tails(mnk, dt):
    # past MC (144/72), KC (256) and NC (4080) with remainders in every dimension
    m, n, k = mnk[0], mnk[2], mnk[1]
    rng = numpy.random.default_rng(m * n + k)
    check(rand(rng, (m, k), dt), rand(rng, (k, n), dt), dt)


@pytest.mark.parametrize("layout", ["TN", "NT", "TT", "strided", "negative", "sliced"])
@pytest.mark.parametrize("shape", [(5, 3, 4), (67, 45, 130), (200, 300, 150), (1, 300, 200), (200, 300, 1)])
def test_layouts(layout, shape, dt):
    m, k, n = shape
    rng = numpy.random.default_rng(11)
    a, b = rand(rng, (m, k), dt), rand(rng, (k, n), dt)
    if layout == "TN":
        A, B = mnp.asarray(a.T.copy()).T, mnp.asarray(b)
    elif layout == "NT":
        A, B = mnp.asarray(a), mnp.asarray(b.T.copy()).T
    elif layout == "TT":
        A, B = mnp.asarray(a.T.copy()).T, mnp.asarray(b.T.copy()).T
    elif layout == "strided":
        a2, b2 = rand(rng, (2 * m, 3 * k), dt), rand(rng, (3 * k, 2 * n), dt)
        a, b = a2[::2, ::3], b2[::3, ::2]
        A, B = mnp.asarray(a2)[::2, ::3], mnp.asarray(b2)[::3, ::2]
    elif layout == "negative":
        A, B = mnp.asarray(a)[::-1], mnp.asarray(b)[:, ::-1]
        a, b = a[::-1], b[:, ::-1]
    else:
        a2, b2 = rand(rng, (m + 3, k + 5), dt), rand(rng, (k + 2, n + 7), dt)
        a, b = a2[1:m + 1, 3:k + 3], b2[2:, 5:n + 5]
        A, B = mnp.asarray(a2)[1:m + 1, 3:k + 3], mnp.asarray(b2)[2:, 5:n + 5]
    got = numpy.asarray(A @ B)
    want = a.astype("float64") @ b.astype("float64")
    numpy.testing.assert_allclose(got, want, rtol=RTOL[dt] * 50, atol=RTOL[dt] * 50 * (1 + k))


def test_vectors(dt):
    rng = numpy.random.default_rng(3)
    for k in (1, 7, 33, 1000):
        a, v, w = rand(rng, (45, k), dt), rand(rng, (k,), dt), rand(rng, (k,), dt)
        numpy.testing.assert_allclose(numpy.asarray(mnp.asarray(a) @ mnp.asarray(v)), a @ v, rtol=1e-4, atol=1e-4)
        numpy.testing.assert_allclose(numpy.asarray(mnp.asarray(v) @ mnp.asarray(a.T.copy())), v @ a.T,
                                      rtol=1e-4, atol=1e-4)
        numpy.testing.assert_allclose(numpy.asarray(mnp.asarray(v) @ mnp.asarray(w)), v @ w, rtol=1e-4, atol=1e-4)
        # transposed matrix with a vector: the column-wise paths
        at = mnp.asarray(a.T.copy()).T
        numpy.testing.assert_allclose(numpy.asarray(at @ mnp.asarray(v)), a @ v, rtol=1e-4, atol=1e-4)
        numpy.testing.assert_allclose(numpy.asarray(mnp.asarray(v) @ mnp.asarray(a.copy()).T), v @ a.T,
                                      rtol=1e-4, atol=1e-4)
        # strided vector
        v2 = rand(rng, (2 * k,), dt)
        numpy.testing.assert_allclose(numpy.asarray(mnp.asarray(a) @ mnp.asarray(v2)[::2]), a @ v2[::2],
                                      rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shapes", [((4, 5, 6), (4, 6, 7)), ((3, 1, 17, 9), (1, 5, 9, 20)), ((6, 33, 40), (40, 19)),
                                    ((50, 40), (2, 3, 40, 61)), ((2, 150, 260), (2, 260, 70)), ((1000, 3, 4), (4, 5))])
def test_batched_broadcast(shapes, dt):
    rng = numpy.random.default_rng(5)
    a, b = rand(rng, shapes[0], dt), rand(rng, shapes[1], dt)
    got = numpy.asarray(mnp.asarray(a) @ mnp.asarray(b))
    want = a.astype("float64") @ b.astype("float64")
    assert got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * shapes[0][-1])


def test_batched_transposed_views(dt):
    rng = numpy.random.default_rng(9)
    a, b = rand(rng, (3, 70, 50), dt), rand(rng, (3, 40, 70), dt)
    got = numpy.asarray(mnp.swapaxes(mnp.asarray(a), 1, 2) @ mnp.swapaxes(mnp.asarray(b), 1, 2))
    want = numpy.swapaxes(a, 1, 2) @ numpy.swapaxes(b, 1, 2)
    numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * 70)


def test_empty_and_zero_k(dt):
    for sa, sb in [((0, 5), (5, 3)), ((4, 0), (0, 3)), ((4, 5), (5, 0)), ((2, 0, 3), (2, 3, 4)), ((300, 0), (0, 300))]:
        a, b = numpy.ones(sa, dt), numpy.ones(sb, dt)
        got = numpy.asarray(mnp.asarray(a) @ mnp.asarray(b))
        numpy.testing.assert_array_equal(got, a @ b)


def test_special_values(dt):
    a = numpy.ones((20, 30), dt)
    b = numpy.ones((30, 40), dt)
    a[3, 4] = numpy.nan
    b[5, 6] = numpy.inf
    got = numpy.asarray(mnp.asarray(a) @ mnp.asarray(b))
    numpy.testing.assert_array_equal(got, a @ b)


def test_results_do_not_depend_on_thread_count():
    rng = numpy.random.default_rng(1)
    cases = [((300, 517), (517, 411)), ((1, 3000), (3000, 900)), ((3000, 900), (900,)), ((40, 50, 60), (60, 30)),
             ((200, 700), (700, 5000))]
    before = mnn.get_num_threads()
    try:
        for dt in ("float32", "float64"):
            for sa, sb in cases:
                a, b = rand(rng, sa, dt), rand(rng, sb, dt)
                res = []
                for nt in (1, 2, 3):
                    mnn.set_num_threads(nt)
                    res.append(numpy.asarray(mnp.asarray(a) @ mnp.asarray(b)))
                numpy.testing.assert_array_equal(res[0], res[1])
                numpy.testing.assert_array_equal(res[0], res[2])
    finally:
        mnn.set_num_threads(before)


PROGRAM = r"""
import json, sys
import numpy
import mnn.numpy as mnp
rng = numpy.random.default_rng(7)
out = {}
for dt in ["float32", "float64"]:
    for m, k, n in [(1, 1, 1), (5, 7, 3), (6, 16, 16), (13, 33, 67), (67, 300, 45), (150, 260, 100), (1, 300, 77),
                    (77, 300, 1), (30, 30, 30)]:
        a = rng.standard_normal((m, k)).astype(dt)
        b = rng.standard_normal((k, n)).astype(dt)
        A, B = mnp.asarray(a), mnp.asarray(b)
        res = {"nn": A @ B, "tn": mnp.asarray(a.T.copy()).T @ B, "nt": A @ mnp.asarray(b.T.copy()).T}
        for key, v in res.items():
            out["%s.%dx%dx%d.%s" % (dt, m, k, n, key)] = numpy.asarray(v).astype("float64").ravel().tolist()
json.dump(out, sys.stdout)
"""


def run_with(isa):
    return run_under_isa(PROGRAM, isa)


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_isa_gemm_matches_scalar(isa):
    ref, got = run_with("scalar"), run_with(isa)
    assert ref.keys() == got.keys()
    for key in ref:
        r, g = numpy.array(ref[key]), numpy.array(got[key])
        tol = 1e-4 if key.startswith("float32") else 1e-11
        numpy.testing.assert_allclose(g, r, rtol=tol, atol=tol * 20, err_msg=key)
