"""The native robust fits (csrc/ops/cv/robust_fit*, mnn/cv/_robust_fit.py) behind findHomography,
estimateAffine2D and estimateAffinePartial2D.

The native code is a port of the Python implementation, which stays in the tree as the reference
(_robust_fit.ENABLED = False runs it). The port must give its bits: the same matrix bytes, the same
masks, the same exception where the reference raises (the native call defers to it there). The
masks are also compared with cv2's at the sizes the benchmarks use (50 / 500 / 2000 points, 30%
outliers), the matrices within the tolerances of test_calib12.py / test_estimate_affine.py."""
import sys

import numpy
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as mcv  # noqa: E402
import mnn.numpy as mnp  # noqa: E402
from mnn.cv import _robust_fit  # noqa: E402


# Python 3.12's sum() of floats is compensated; the reference's sums (and the port) are 3.11's
# left folds, so on 3.12+ the two agree only to rounding
bitwise = pytest.mark.skipif(sys.version_info >= (3, 12), reason="the reference's sum() is compensated on 3.12+")


def outcome(fn, *args, **kw):
    """(matrix bytes + dtype, mask bytes) or (exception type, message) of one call."""
    try:
        m, mask = fn(*args, **kw)
    except Exception as e:  # noqa: BLE001 - the exception itself is compared
        return ("raised", type(e).__name__, str(e))
    m = None if m is None else (numpy.asarray(m).tobytes(), numpy.asarray(m).dtype.str, numpy.asarray(m).shape)
    mask = numpy.asarray(mask)
    return (m, mask.tobytes(), mask.dtype.str, mask.shape)


def native_and_reference(fn, *args, **kw):
    native = outcome(fn, *args, **kw)
    _robust_fit.ENABLED = False
    try:
        ref = outcome(fn, *args, **kw)
    finally:
        _robust_fit.ENABLED = True
    return native, ref


def homography_problem(rng, n, outliers, noise, scale=640.0):
    src = rng.uniform(0, scale, (n, 2))
    H = numpy.array([[1.05, 0.04, 12.0], [-0.03, 0.98, -7.0], [1.2e-4, -0.8e-4, 1.0]])
    H = H + rng.normal(0, 1e-3, (3, 3)) * [[1, 1, 10], [1, 1, 10], [1e-3, 1e-3, 0]]
    p = numpy.c_[src, numpy.ones(n)] @ H.T
    dst = p[:, :2] / p[:, 2:] + rng.normal(0, noise, (n, 2))
    k = int(round(outliers * n))
    idx = rng.choice(n, k, replace=False)
    dst[idx] = rng.uniform(0, scale, (k, 2))
    return src, dst


def affine_problem(rng, n, outliers, noise, partial):
    src = rng.uniform(0, 640, (n, 2))
    A = numpy.array([[0.9, -0.2, 15.0], [0.2, 0.9, -4.0]]) if partial else numpy.array([[1.1, 0.1, 5], [-0.05, 0.95, 9]])
    dst = src @ A[:, :2].T + A[:, 2] + rng.normal(0, noise, (n, 2))
    k = int(round(outliers * n))
    idx = rng.choice(n, k, replace=False)
    dst[idx] = rng.uniform(0, 640, (k, 2))
    return src, dst


def forms(rng, s, d):
    """The same points as the argument forms callers pass: numpy float32 / float64, (N, 1, 2),
    mnn arrays, non-contiguous views, lists of tuples."""
    s32, d32 = s.astype(numpy.float32), d.astype(numpy.float32)
    wide_s, wide_d = numpy.zeros((len(s), 5)), numpy.zeros((2 * len(d), 2))
    wide_s[:, 1:4:2], wide_d[::2] = s, d
    return [(s32, d32), (s, d), (s32.reshape(-1, 1, 2), d.reshape(-1, 1, 2)),
            (mnp.asarray(s32), mnp.asarray(d)), (wide_s[:, 1:4:2], wide_d[::2]),
            ([tuple(p) for p in s32.tolist()], [tuple(p) for p in d.tolist()])]


@bitwise
@pytest.mark.parametrize("method", [0, cv2.RANSAC, cv2.LMEDS, cv2.RHO])
def test_find_homography_native_equals_reference(method):
    rng = numpy.random.default_rng(100 + method)
    for t, n in enumerate([5, 6, 9, 17, 31, 64, 150]):
        for outliers in (0.0, 0.3, 0.6):
            s, d = homography_problem(rng, n, outliers, [0.0, 0.5, 2.0][t % 3])
            thr = [3.0, 1.0, 0.5, 10.0, 0.0][(t + int(outliers * 10)) % 5]
            for fs, fd in forms(rng, s, d)[t % 2::2]:
                native, ref = native_and_reference(mcv.findHomography, fs, fd, method, thr)
                # equal outcomes include the reference's exceptions: mnn.numpy.linalg.eigh reports
                # no convergence on a few 4-point DLT matrices (64 points, 60% outliers, RHO here)
                assert native == ref, (n, outliers, thr)


@bitwise
@pytest.mark.parametrize("method", [cv2.RANSAC, cv2.LMEDS])
def test_find_homography_native_equals_reference_options(method):
    rng = numpy.random.default_rng(7)
    s, d = homography_problem(rng, 60, 0.4, 1.0)
    for kw in (dict(maxIters=1), dict(maxIters=2), dict(maxIters=0), dict(maxIters=-3), dict(maxIters=50),
               dict(confidence=0.5), dict(confidence=0.999), dict(confidence=1.0), dict(confidence=0.0),
               dict(ransacReprojThreshold=-1.0), dict(ransacReprojThreshold=1e-3)):
        native, ref = native_and_reference(mcv.findHomography, s, d, method, **kw)
        assert native == ref, kw
    s, d = homography_problem(rng, 400, 0.3, 0.5)
    native, ref = native_and_reference(mcv.findHomography, s.astype(numpy.float32), d.astype(numpy.float32), method)
    assert native == ref


@bitwise
def test_find_homography_native_equals_reference_degenerate():
    line = numpy.c_[numpy.arange(10.0), 2 * numpy.arange(10.0) + 1]
    same = numpy.ones((8, 2)) * 5
    sq = numpy.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    dup = numpy.r_[sq, sq, sq]
    grid = numpy.random.default_rng(1).integers(0, 50, (30, 2)).astype(numpy.float32)
    cases = [(line, line * 2), (same, same), (sq, sq[::-1].copy()), (sq, sq * 3 + 1), (dup, dup * 2 + 3),
             (grid, grid[::-1].copy()), (grid, grid * 1.5 + 2), (grid.astype(numpy.int32), grid.astype(numpy.int32) + 3)]
    raised = 0
    for s, d in cases:
        for method in (0, cv2.RANSAC, cv2.LMEDS, cv2.RHO):
            native, ref = native_and_reference(mcv.findHomography, s, d, method)
            assert native == ref, (s[:2], method)
            raised += native[0] == "raised"
    # where the reference raises, so does the native path (it defers): these sets include such cases
    assert raised >= 1


@bitwise
def test_find_homography_defers_where_the_reference_raises_or_meets_nan():
    # a collinear set: the reference divides by zero in its float32 error test (cv2 does not raise:
    # a known difference of the reference, kept as it is)
    line = mnp.asarray(numpy.c_[numpy.arange(10.0), 2 * numpy.arange(10.0) + 1])
    assert _robust_fit.homography(line, line * 2, 0, 3.0, 0.995, 2000) is None
    with pytest.raises(ZeroDivisionError):
        mcv.findHomography(line, line * 2)
    rng = numpy.random.default_rng(5)
    s, d = homography_problem(rng, 40, 0.2, 0.5)
    d[3] = numpy.nan
    for method in (0, cv2.RANSAC, cv2.LMEDS):
        native, ref = native_and_reference(mcv.findHomography, s, d, method)
        assert native == ref
    # and on ordinary data it does not defer
    s, d = homography_problem(rng, 40, 0.2, 0.5)
    for method in (0, cv2.RANSAC, cv2.LMEDS):
        assert _robust_fit.homography(mnp.asarray(s), mnp.asarray(d), method, 3.0, 0.995, 2000) is not None


@bitwise
@pytest.mark.parametrize("est", ["estimateAffine2D", "estimateAffinePartial2D"])
@pytest.mark.parametrize("method", [cv2.RANSAC, cv2.LMEDS])
def test_estimate_affine_native_equals_reference(est, method):
    rng = numpy.random.default_rng(3 + method)
    partial = est == "estimateAffinePartial2D"
    fn = getattr(mcv, est)
    for t, n in enumerate([2, 3, 4, 5, 8, 13, 50, 200]):
        for outliers in (0.0, 0.3, 0.6):
            s, d = affine_problem(rng, n, outliers, [0.0, 0.5, 2.0][t % 3], partial)
            kw = dict(method=method, ransacReprojThreshold=[3.0, 1.0, 0.5, 10.0][t % 4], refineIters=[10, 0][t % 2])
            for fs, fd in forms(rng, s, d)[t % 2::2]:
                native, ref = native_and_reference(fn, fs, fd, **kw)
                assert native == ref, (n, outliers, kw)
    s, d = affine_problem(rng, 60, 0.4, 1.0, partial)
    for kw in (dict(maxIters=1), dict(maxIters=3), dict(maxIters=0), dict(confidence=0.5), dict(confidence=0.999),
               dict(ransacReprojThreshold=-1.0)):
        native, ref = native_and_reference(fn, s, d, method=method, **kw)
        assert native == ref, kw
    line = numpy.c_[numpy.arange(10.0), 2 * numpy.arange(10.0) + 1]
    grid = numpy.random.default_rng(1).integers(0, 50, (30, 2)).astype(numpy.float32)
    for s, d in ((line, line * 2), (numpy.ones((8, 2)), numpy.ones((8, 2))), (grid, grid[::-1].copy()),
                 (grid, grid * 2 + 1), (numpy.zeros((0, 2)), numpy.zeros((0, 2)))):
        native, ref = native_and_reference(fn, s, d, method=method)
        assert native == ref


def mapped_gap(h1, h2, src, mask):
    """The largest distance between the two homographies' images of the masked points."""
    h1, h2 = numpy.asarray(h1), numpy.asarray(h2)
    p = numpy.c_[src, numpy.ones(len(src))]
    q1, q2 = p @ h1.T, p @ h2.T
    m = numpy.asarray(mask).ravel().astype(bool)
    return float(numpy.abs(q1[:, :2] / q1[:, 2:] - q2[:, :2] / q2[:, 2:])[m].max())


@pytest.mark.parametrize("n", [50, 500, 2000])
@pytest.mark.parametrize("method", [cv2.RANSAC, cv2.LMEDS])
def test_find_homography_against_cv2_at_benchmark_sizes(n, method):
    rng = numpy.random.default_rng(n + method)
    s, d = homography_problem(rng, n, 0.3, 0.5)
    s, d = s.astype(numpy.float32), d.astype(numpy.float32)
    got, want = mcv.findHomography(s, d, method, 3.0), cv2.findHomography(s, d, method, 3.0)
    numpy.testing.assert_array_equal(numpy.asarray(got[1]), want[1])
    assert mapped_gap(got[0], want[0], s, want[1]) < 1e-3


@pytest.mark.parametrize("n", [50, 500, 2000])
@pytest.mark.parametrize("est", ["estimateAffine2D", "estimateAffinePartial2D"])
@pytest.mark.parametrize("method", [cv2.RANSAC, cv2.LMEDS])
def test_estimate_affine_against_cv2_at_benchmark_sizes(n, est, method):
    rng = numpy.random.default_rng(n + method)
    s, d = affine_problem(rng, n, 0.3, 0.5, est == "estimateAffinePartial2D")
    s, d = s.astype(numpy.float32), d.astype(numpy.float32)
    (gm, gi), (wm, wi) = getattr(mcv, est)(s, d, method=method), getattr(cv2, est)(s, d, method=method)
    numpy.testing.assert_array_equal(numpy.asarray(gi), wi)
    numpy.testing.assert_allclose(numpy.asarray(gm), wm, rtol=0, atol=1e-5 * max(1.0, numpy.abs(wm).max()))


def test_bad_input_still_names_the_function():
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.findHomography\]"):
        mcv.findHomography(numpy.zeros((5, 2), numpy.float32), numpy.zeros((6, 2), numpy.float32), cv2.RANSAC)
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.estimateAffine2D\]"):
        mcv.estimateAffine2D(numpy.zeros((5, 2), numpy.float32), numpy.zeros((6, 2), numpy.float32))
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.estimateAffinePartial2D\]"):
        mcv.estimateAffinePartial2D(numpy.zeros((1, 2), numpy.float32), numpy.zeros((1, 2), numpy.float32))


@pytest.mark.parametrize("seed", [1, 105, 118, 271])
def test_homography_where_the_dlt_eigh_stalled_matches_cv2(seed):
    # The DLT's L^T L of these samples has eigenvalues so far apart that the Jacobi sweeps of
    # mnn.numpy.linalg.eigh stalled at rounding level and raised "did not converge" (cv2 finds H).
    rng = numpy.random.default_rng(seed)
    n = int(rng.integers(8, 200))
    out = rng.random() * 0.7
    src = (rng.random((n, 2)) * 640).astype(numpy.float32)
    h = numpy.array([[1, 0.1, 5], [0.05, 1.1, -3], [1e-4, 2e-4, 1]])
    dst = cv2.perspectiveTransform(src[None], h)[0]
    k = rng.random(n) < out
    dst[k] = rng.random((k.sum(), 2)) * 640
    dst = dst.astype(numpy.float32)
    want_h, want_mask = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
    got_h, got_mask = mcv.findHomography(src, dst, mcv.RANSAC, 3.0)
    numpy.testing.assert_array_equal(numpy.asarray(got_mask), want_mask)
    numpy.testing.assert_allclose(numpy.asarray(got_h), want_h, rtol=1e-6, atol=1e-9)
