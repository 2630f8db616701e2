"""mnn.cv.estimateAffine2D / estimateAffinePartial2D against cv2 5: RANSAC and LMEDS draw cv2's
random sequence, so the inlier masks are the same, bit for bit, with outliers present; the matrix is
the least-squares fit on the inliers that cv2's Levenberg-Marquardt polish converges to (within
1e-5 of the matrix's scale: cv2 stops after refineIters steps)."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as mcv  # noqa: E402
import mnn.numpy as mnp  # noqa: E402

ESTIMATORS = ["estimateAffine2D", "estimateAffinePartial2D"]


def problem(rng, t):
    n = int(rng.integers(2, 40))
    pts = (rng.random((n, 2)) * 100).astype(numpy.float32)
    A = cv2.getRotationMatrix2D((30, 40), float(rng.uniform(-40, 40)), float(rng.uniform(0.5, 2)))
    if t % 3 == 0:
        A[:, :2] += rng.normal(0, 0.1, (2, 2))  # a general affine map, not a similarity
    dst = (pts @ A[:, :2].T + A[:, 2]).astype(numpy.float32)
    dst += rng.normal(0, float(rng.choice([0, 0.3, 2])), (n, 2)).astype(numpy.float32)
    k = int(rng.integers(0, n // 2 + 1))
    dst[:k] += rng.normal(0, 40, (k, 2)).astype(numpy.float32)  # outliers
    if t % 10 == 0:  # coarse grids: collinear samples and exact ties on the threshold
        pts, dst = numpy.round(pts / 10).astype(numpy.float32), numpy.round(dst / 10).astype(numpy.float32)
    return pts, dst


def same(got, want):
    (gm, gi), (wm, wi) = got, want
    numpy.testing.assert_array_equal(numpy.asarray(gi), wi)
    if wm is None:
        assert gm is None
    else:
        gm = numpy.asarray(gm)
        assert gm.dtype == numpy.float64 and gm.shape == (2, 3)
        numpy.testing.assert_allclose(gm, wm, rtol=0, atol=1e-5 * max(1.0, numpy.abs(wm).max()))


@pytest.mark.parametrize("est", ESTIMATORS)
@pytest.mark.parametrize("method", ["RANSAC", "LMEDS"])
def test_random_problems_with_outliers(est, method):
    rng = numpy.random.default_rng(7)
    for t in range(60):
        pts, dst = problem(rng, t)
        kw = dict(method=getattr(cv2, method), ransacReprojThreshold=float(rng.choice([1.0, 3.0])))
        if est == "estimateAffinePartial2D" or len(pts) >= 2:
            want = getattr(cv2, est)(pts, dst, **kw)
            got = getattr(mcv, est)(mnp.asarray(pts) if t % 2 else pts, dst, **kw)
            same(got, want)


@pytest.mark.parametrize("est", ESTIMATORS)
def test_parameters(est):
    rng = numpy.random.default_rng(3)
    pts, dst = problem(rng, 1)
    for kw in (dict(maxIters=1), dict(maxIters=0), dict(confidence=0.5), dict(refineIters=0),
               dict(ransacReprojThreshold=-1.0), dict(ransacReprojThreshold=0.1)):
        same(getattr(mcv, est)(pts, dst, **kw), getattr(cv2, est)(pts, dst, **kw))


def test_minimal_and_degenerate_sets():
    tri = numpy.float32([[0, 0], [10, 1], [2, 9]])
    same(mcv.estimateAffine2D(tri, tri * 2 + 1), cv2.estimateAffine2D(tri, tri * 2 + 1))
    same(mcv.estimateAffinePartial2D(tri[:2], tri[:2] * 2), cv2.estimateAffinePartial2D(tri[:2], tri[:2] * 2))
    same(mcv.estimateAffine2D(tri[:2], tri[:2]), cv2.estimateAffine2D(tri[:2], tri[:2]))  # too few: None
    line = numpy.float32([[0, 0], [1, 1], [2, 2], [3, 3]])  # every sample collinear
    for method in (cv2.RANSAC, cv2.LMEDS):
        same(mcv.estimateAffine2D(line, line, method=method), cv2.estimateAffine2D(line, line, method=method))


@pytest.mark.parametrize("est", ESTIMATORS)
def test_errors_name_the_function(est):
    pts = numpy.float32([[0, 0], [10, 1], [2, 9], [5, 5]])
    for kw in (dict(method=0), dict(confidence=0.0), dict(confidence=1.0)):
        with pytest.raises(cv2.error):
            getattr(cv2, est)(pts, pts, **kw)
        with pytest.raises(mcv.error, match=rf"^\[mnn.cv.{est}\]"):
            getattr(mcv, est)(pts, pts, **kw)
    with pytest.raises(mcv.error, match=rf"^\[mnn.cv.{est}\]"):
        getattr(mcv, est)(pts, pts[:3])
    with pytest.raises(cv2.error):
        cv2.estimateAffinePartial2D(pts[:1], pts[:1])
    with pytest.raises(mcv.error, match=r"^\[mnn.cv.estimateAffinePartial2D\]"):
        mcv.estimateAffinePartial2D(pts[:1], pts[:1])
