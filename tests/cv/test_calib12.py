"""mnn.cv camera-model functions (_calib.py) against cv2 5 on the same inputs: findHomography,
projectPoints (+ jacobian), undistortPoints, initUndistortRectifyMap (CV_32FC1 / CV_32FC2 /
CV_16SC2), undistort and getOptimalNewCameraMatrix.

findHomography: the RANSAC / LMEDS samplers draw cv2's random sequence, so inlier masks are cv2's,
and on noise-free point sets (with or without gross outliers) H agrees within 1e-6 (the float32 targets leave ~1e-8 for the polish). With noise, H
is the converged least-squares polish; cv2 stops after 10 LM steps, so the two map every inlier
to within 1e-3 pixel of each other. RHO is run as RANSAC: its mask and H agree on noise-free data."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as mcv  # noqa: E402


def np_(x):
    return None if x is None else numpy.asarray(x)


def same(got, want, rtol=0.0, atol=0.0):
    got, want = np_(got), np_(want)
    if want is None:
        assert got is None
        return
    assert got is not None
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    if rtol == 0 and atol == 0:
        numpy.testing.assert_array_equal(got, want)
    else:
        numpy.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


K = numpy.array([[500.0, 0, 320], [0, 510, 240], [0, 0, 1]])
DISTS = [None, numpy.array([0.1, -0.05, 0.001, 0.002]), numpy.array([0.1, -0.05, 0.001, 0.002, 0.01]),
         numpy.array([-0.2, 0.05, 0.001, -0.002, 0.01, 0.02, -0.01, 0.005]),
         numpy.array([0.1, -0.05, 0.001, 0.002, 0.01, 0.02, -0.01, 0.005, 0.001, 0.002, -0.001, 0.0005])]


@pytest.mark.parametrize("d", DISTS, ids=lambda d: "none" if d is None else f"d{len(d)}")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_project_points(d, dtype):
    rng = numpy.random.default_rng(0)
    obj = (rng.random((7, 3)) * 2 - 1 + [0, 0, 6]).astype(dtype)
    for rvec in (numpy.array([0.1, -0.2, 0.3]), cv2.Rodrigues(numpy.array([0.3, 0.1, -0.2]))[0],
                 numpy.zeros(3)):
        for aspect in (0, 1.2):
            for o in (obj, obj.reshape(-1, 1, 3), obj.reshape(1, -1, 3)):
                got = mcv.projectPoints(o, rvec, numpy.array([0.1, 0.2, 0.3]), K, d, aspectRatio=aspect)
                want = cv2.projectPoints(o, rvec, numpy.array([0.1, 0.2, 0.3]), K, d, aspectRatio=aspect)
                tol = 1e-6 if dtype == numpy.float32 else 1e-12
                same(got[0], want[0], rtol=tol, atol=tol)
                same(got[1], want[1], rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("d", DISTS, ids=lambda d: "none" if d is None else f"d{len(d)}")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_undistort_points(d, dtype):
    rng = numpy.random.default_rng(1)
    src = (rng.random((9, 1, 2)) * 640).astype(dtype)
    R = cv2.Rodrigues(numpy.array([0.01, 0.02, 0.0]))[0]
    for r, p in ((None, None), (None, K), (R, K), (R, None), (None, numpy.hstack([K, numpy.ones((3, 1))]))):
        for s in (src, src.reshape(-1, 2), src.reshape(1, -1, 2)):
            same(mcv.undistortPoints(s, K, d, R=r, P=p), cv2.undistortPoints(s, K, d, R=r, P=p),
                 rtol=1e-12 if dtype == numpy.float64 else 0, atol=1e-12 if dtype == numpy.float64 else 0)
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-6)
    same(mcv.undistortPoints(src, K, d, criteria=crit), cv2.undistortPoints(src, K, d, criteria=crit),
         rtol=1e-12 if dtype == numpy.float64 else 0, atol=1e-12 if dtype == numpy.float64 else 0)


@pytest.mark.parametrize("d", DISTS[1:], ids=lambda d: f"d{len(d)}")
def test_optimal_new_camera_matrix(d):
    for alpha in (0, 0.3, 1):
        for center in (False, True):
            for new_size in (None, (800, 600)):
                got = mcv.getOptimalNewCameraMatrix(K, d, (640, 480), alpha, new_size, centerPrincipalPoint=center)
                want = cv2.getOptimalNewCameraMatrix(K, d, (640, 480), alpha, new_size, centerPrincipalPoint=center)
                same(got[0], want[0], rtol=1e-12, atol=1e-12)
                assert tuple(got[1]) == tuple(want[1])


@pytest.mark.parametrize("d", DISTS, ids=lambda d: "none" if d is None else f"d{len(d)}")
@pytest.mark.parametrize("m1type", [cv2.CV_32FC1, cv2.CV_32FC2, cv2.CV_16SC2])
def test_init_undistort_rectify_map(d, m1type):
    newk = K * numpy.array([[0.9], [0.9], [1.0]])
    R = cv2.Rodrigues(numpy.array([0.01, -0.02, 0.005]))[0]
    for r, nk in ((None, newk), (R, newk), (None, None)):
        got = mcv.initUndistortRectifyMap(K, d, r, nk, (161, 121), m1type)
        want = cv2.initUndistortRectifyMap(K, d, r, nk, (161, 121), m1type)
        if m1type == cv2.CV_16SC2:
            same(got[0], want[0])
            same(got[1], want[1])
        else:
            # the float maps are double arithmetic rounded to float32: within an ulp of cv2's
            same(got[0], want[0], rtol=1e-6, atol=1e-4)
            same(got[1], want[1], rtol=1e-6, atol=1e-4)
    assert mcv.CV_16SC2 == cv2.CV_16SC2 and mcv.CV_32FC2 == cv2.CV_32FC2


@pytest.mark.parametrize("d", DISTS, ids=lambda d: "none" if d is None else f"d{len(d)}")
@pytest.mark.parametrize("shape,dtype", [((121, 161, 3), numpy.uint8), ((60, 75), numpy.uint8),
                                         ((60, 75, 4), numpy.float32), ((33, 47), numpy.uint16)])
def test_undistort_image(d, shape, dtype):
    img = (numpy.random.default_rng(2).random(shape) * 255).astype(dtype)
    same(mcv.undistort(img, K, d), cv2.undistort(img, K, d), atol=1e-4 if dtype == numpy.float32 else 0)
    nk = K * numpy.array([[0.8], [0.8], [1.0]])
    same(mcv.undistort(img, K, d, newCameraMatrix=nk), cv2.undistort(img, K, d, newCameraMatrix=nk),
         atol=1e-4 if dtype == numpy.float32 else 0)
    # a remap through mnn's convertMaps / remap of the 16SC2 maps gives undistort's result
    m1, m2 = mcv.initUndistortRectifyMap(K, d, None, K, (shape[1], shape[0]), mcv.CV_16SC2)
    same(mcv.remap(img, m1, m2, cv2.INTER_LINEAR), cv2.undistort(img, K, d), atol=1e-4 if dtype == numpy.float32 else 0)


def homography_problem(rng, n, noise, outliers):
    src = (rng.random((n, 2)) * 500).astype(numpy.float32)
    H = numpy.array([[1 + rng.normal(0, 0.1), rng.normal(0, 0.1), rng.normal(0, 20)],
                     [rng.normal(0, 0.1), 1 + rng.normal(0, 0.1), rng.normal(0, 20)],
                     [rng.normal(0, 1e-4), rng.normal(0, 1e-4), 1]])
    dst = cv2.perspectiveTransform(src.reshape(-1, 1, 2).astype(numpy.float64), H).reshape(-1, 2)
    dst = dst + rng.normal(0, noise, dst.shape)
    k = int(rng.integers(1, n // 3 + 1)) if outliers and n > 6 else 0
    dst[:k] += rng.normal(0, 80, (k, 2)) + 40
    return src, dst.astype(numpy.float32)


def mapped_gap(h1, h2, src, mask):
    s = src.reshape(-1, 1, 2).astype(numpy.float64)
    p1 = cv2.perspectiveTransform(s, numpy.asarray(h1)).reshape(-1, 2)
    p2 = cv2.perspectiveTransform(s, numpy.asarray(h2)).reshape(-1, 2)
    m = numpy.asarray(mask).ravel().astype(bool)
    return float(numpy.abs(p1 - p2)[m].max())


@pytest.mark.parametrize("method", [0, cv2.RANSAC, cv2.LMEDS, cv2.RHO])
def test_find_homography_noise_free(method):
    rng = numpy.random.default_rng(method + 3)
    for _ in range(15):
        n = int(rng.integers(4, 60))
        # RHO's own sampler can miss the model when a third of the points are outliers; cv2's RHO is
        # not reproduced (mnn runs RANSAC), so it is compared on outlier-free sets only
        src, dst = homography_problem(rng, n, 0.0, outliers=method not in (0, cv2.RHO))
        for s, d in ((src, dst), (src.reshape(-1, 1, 2), dst.reshape(1, -1, 2)), (src.astype(numpy.float64), dst)):
            got, want = mcv.findHomography(s, d, method, 3.0), cv2.findHomography(s, d, method, 3.0)
            same(got[1], want[1])
            # float32 targets are not exactly on the model: the polish moves H by ~1e-8
            if method == cv2.RHO:  # cv2's RHO polishes on its own and returns a float32 model
                same(got[0], want[0], rtol=1e-4, atol=1e-6)
            else:
                same(got[0], want[0], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("method", [cv2.RANSAC, cv2.LMEDS])
def test_find_homography_noisy_masks_and_fit(method):
    rng = numpy.random.default_rng(method + 10)
    for _ in range(12):
        n = int(rng.integers(8, 60))
        src, dst = homography_problem(rng, n, 0.7, outliers=True)
        got, want = mcv.findHomography(src, dst, method, 3.0), cv2.findHomography(src, dst, method, 3.0)
        same(got[1], want[1])
        # the converged polish and cv2's 10 LM steps map every inlier to within 1e-3 pixel
        assert mapped_gap(got[0], want[0], src, want[1]) < 1e-3


def test_find_homography_exact_four_points_and_3d_input():
    src = numpy.array([[0, 0], [100, 0], [100, 50], [0, 50]], numpy.float32)
    dst = numpy.array([[10, 5], [120, 8], [115, 70], [5, 60]], numpy.float32)
    for method in (0, cv2.RANSAC, cv2.LMEDS):
        got, want = mcv.findHomography(src, dst, method), cv2.findHomography(src, dst, method)
        same(got[0], want[0], rtol=1e-9, atol=1e-12)
        same(got[1], want[1])
    h3 = numpy.hstack([src, numpy.ones((4, 1), numpy.float32) * 2])
    same(mcv.findHomography(h3, dst)[0], cv2.findHomography(h3, dst)[0], rtol=1e-9, atol=1e-12)


BAD = [
    (lambda m: m.findHomography(numpy.zeros((3, 2), numpy.float32), numpy.zeros((3, 2), numpy.float32)), "findHomography"),
    (lambda m: m.findHomography(numpy.zeros((5, 2), numpy.float32), numpy.zeros((6, 2), numpy.float32)), "findHomography"),
    (lambda m: m.findHomography(numpy.zeros((5, 5), numpy.float32), numpy.zeros((5, 5), numpy.float32)), "findHomography"),
    (lambda m: m.findHomography(numpy.random.rand(8, 2), numpy.random.rand(8, 2), 3), "findHomography"),
    (lambda m: m.projectPoints(numpy.zeros((5, 2)), numpy.zeros(3), numpy.zeros(3), K, None), "projectPoints"),
    (lambda m: m.projectPoints(numpy.zeros((5, 3)), numpy.zeros(3), numpy.zeros(3), numpy.eye(2), None), "projectPoints"),
    (lambda m: m.projectPoints(numpy.zeros((5, 3)), numpy.zeros(3), numpy.zeros(3), K, numpy.zeros(6)), "projectPoints"),
    (lambda m: m.undistortPoints(numpy.zeros((5, 3), numpy.float32), K, None), "undistortPoints"),
    (lambda m: m.undistortPoints(numpy.zeros((5, 2), numpy.int32), K, None), "undistortPoints"),
    (lambda m: m.initUndistortRectifyMap(K, None, None, K, (10, 10), 99), "initUndistortRectifyMap"),
    (lambda m: m.undistort(numpy.zeros((5, 5), numpy.uint8), numpy.eye(2), None), "undistort"),
]


@pytest.mark.parametrize("call,name", BAD)
def test_bad_input_raises_like_cv2(call, name):
    with pytest.raises(cv2.error):
        call(cv2)
    with pytest.raises((mcv.error, TypeError, ValueError), match=rf"^\[mnn\.cv\.{name}\]"):
        call(mcv)


def pnp_problem(rng, n, planar, noise, dist):
    obj = rng.random((n, 3)) * 2 - 1
    if planar:
        obj[:, 2] = 0
    rv = rng.normal(0, 0.5, 3)
    tv = numpy.array([rng.normal(0, 0.5), rng.normal(0, 0.5), rng.uniform(4, 8)])
    img, _ = cv2.projectPoints(obj, rv, tv, K, dist)
    return obj, img + rng.normal(0, noise, img.shape), rv, tv


def reprojection_cost(pose, obj, img, dist):
    p, _ = cv2.projectPoints(obj, numpy.asarray(pose[1]), numpy.asarray(pose[2]), K, dist)
    return float(((p - img) ** 2).sum())


def pose_close(got, want, tol):
    assert got[0] == want[0]
    same(got[1], want[1], rtol=tol, atol=tol)
    same(got[2], want[2], rtol=tol, atol=tol)


@pytest.mark.parametrize("flags", [cv2.SOLVEPNP_ITERATIVE, cv2.SOLVEPNP_EPNP])
@pytest.mark.parametrize("noise", [0.0, 0.5])
@pytest.mark.parametrize("dist", [None, DISTS[1]], ids=["nodist", "dist"])
def test_solve_pnp_general_position(flags, noise, dist):
    rng = numpy.random.default_rng(20 + flags)
    for _ in range(8):
        n = int(rng.integers(6, 40))
        obj, img, _, _ = pnp_problem(rng, n, False, noise, dist)
        for o, i in ((obj, img), (obj.astype(numpy.float32), img.astype(numpy.float32).reshape(-1, 2)),
                     (obj.reshape(1, -1, 3), img.reshape(1, -1, 2))):
            pose_close(mcv.solvePnP(o, i, K, dist, flags=flags), cv2.solvePnP(o, i, K, dist, flags=flags), 1e-6)


@pytest.mark.parametrize("noise", [0.0, 0.3])
def test_solve_pnp_iterative_planar(noise):
    rng = numpy.random.default_rng(30)
    for _ in range(8):
        obj, img, _, _ = pnp_problem(rng, int(rng.integers(4, 30)), True, noise, DISTS[1])
        got, want = mcv.solvePnP(obj, img, K, DISTS[1]), cv2.solvePnP(obj, img, K, DISTS[1])
        if noise == 0:
            pose_close(got, want, 1e-6)
            continue
        # cv2's LM stops after its step limit on a few planar problems (up to ~5e-5 away); mnn's runs
        # on to the minimum: the same minimum, never a worse fit
        pose_close(got, want, 1e-4)
        assert reprojection_cost(got, obj, img, DISTS[1]) <= reprojection_cost(want, obj, img, DISTS[1]) + 1e-9


def test_solve_pnp_extrinsic_guess_and_degenerate_epnp():
    rng = numpy.random.default_rng(31)
    obj, img, rv, tv = pnp_problem(rng, 12, False, 0.4, None)
    guess_r, guess_t = rv.reshape(3, 1) + 0.05, tv.reshape(3, 1) + 0.1
    pose_close(mcv.solvePnP(obj, img, K, None, guess_r.copy(), guess_t.copy(), True),
               cv2.solvePnP(obj, img, K, None, guess_r.copy(), guess_t.copy(), True), 1e-6)
    # planar sets: cv2's SVD fills the zero singular direction from its own RNG; mnn does the same
    for noise in (0.0, 0.3):
        for _ in range(5):
            obj, img, rv, tv = pnp_problem(rng, int(rng.integers(4, 20)), True, noise, DISTS[1])
            pose_close(mcv.solvePnP(obj, img, K, DISTS[1], flags=cv2.SOLVEPNP_EPNP),
                       cv2.solvePnP(obj, img, K, DISTS[1], flags=cv2.SOLVEPNP_EPNP), 1e-6)
    # with 4 or 5 general points EPnP's null space is degenerate and cv2's answer depends on its
    # SVD's rounding there: both are the exact pose to ~1e-4 on noise-free data, not to 1e-6
    for n, planar in ((4, False), (5, False)):
        obj, img, rv, tv = pnp_problem(rng, n, planar, 0.0, None)
        got = mcv.solvePnP(obj, img, K, None, flags=cv2.SOLVEPNP_EPNP)
        want = cv2.solvePnP(obj, img, K, None, flags=cv2.SOLVEPNP_EPNP)
        same(got[2], want[2], rtol=1e-2, atol=1e-2)


def test_solve_pnp_bad_input():
    rng = numpy.random.default_rng(32)
    obj, img, _, _ = pnp_problem(rng, 5, False, 0.0, None)
    with pytest.raises(cv2.error, match="at least 6 points"):
        cv2.solvePnP(obj, img, K, None)
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.solvePnP\] DLT algorithm needs at least 6 points"):
        mcv.solvePnP(obj, img, K, None)
    for o, i in ((obj[:3], img[:3]), (obj, img[:4]), (obj[:, :2], img)):
        with pytest.raises(cv2.error):
            cv2.solvePnP(o, i, K, None, flags=cv2.SOLVEPNP_EPNP)
        with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.solvePnP\]"):
            mcv.solvePnP(o, i, K, None, flags=cv2.SOLVEPNP_EPNP)
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.solvePnP\] flags=2 is not supported"):
        mcv.solvePnP(obj, img, K, None, flags=cv2.SOLVEPNP_P3P)
    assert (mcv.SOLVEPNP_IPPE, mcv.SOLVEPNP_SQPNP, mcv.SOLVEPNP_IPPE_SQUARE) == \
        (cv2.SOLVEPNP_IPPE, cv2.SOLVEPNP_SQPNP, cv2.SOLVEPNP_IPPE_SQUARE)


@pytest.mark.parametrize("dist", [None, DISTS[1]], ids=["nodist", "dist"])
def test_solve_pnp_ippe(dist):
    rng = numpy.random.default_rng(50)
    for it in range(12):
        obj, img, _, _ = pnp_problem(rng, int(rng.integers(4, 30)), True, 0.4 * (it % 2), dist)
        if it % 3 == 1:  # a plane not at z = 0
            obj = obj @ cv2.Rodrigues(rng.normal(0, 0.5, 3))[0].T + [0.3, 0.1, 0.2]
            img, _ = cv2.projectPoints(obj, rng.normal(0, 0.3, 3), numpy.array([0.1, -0.2, 6.0]), K, dist)
        for o, i in ((obj, img), (obj.astype(numpy.float32), img.astype(numpy.float32).reshape(-1, 2))):
            pose_close(mcv.solvePnP(o, i, K, dist, flags=cv2.SOLVEPNP_IPPE),
                       cv2.solvePnP(o, i, K, dist, flags=cv2.SOLVEPNP_IPPE), 1e-9)


@pytest.mark.parametrize("dist", [None, DISTS[1]], ids=["nodist", "dist"])
@pytest.mark.parametrize("flags", [cv2.SOLVEPNP_ITERATIVE, cv2.SOLVEPNP_EPNP])
def test_solve_pnp_ransac(dist, flags):
    # cv2's sampler, 5-point EPnP models and float32 error test: the same inliers, bit for bit
    rng = numpy.random.default_rng(40 + flags)
    for it in range(10):
        n = int(rng.integers(6, 50))
        obj, img, _, _ = pnp_problem(rng, n, False, 0.5 * (it % 2), dist)
        k = int(rng.integers(0, n // 3 + 1))
        img[:k] += rng.normal(0, 60, (k, 1, 2))
        got = mcv.solvePnPRansac(obj, img, K, dist, flags=flags)
        want = cv2.solvePnPRansac(obj, img, K, dist, flags=flags)
        assert got[0] == want[0]
        same(got[3], want[3])
        if not want[0]:
            continue
        same(got[1], want[1], rtol=1e-5, atol=1e-5)
        same(got[2], want[2], rtol=1e-5, atol=1e-5)
    obj, img, _, _ = pnp_problem(rng, 20, False, 0.0, None)
    for thr in (2.0, 20.0):
        got = mcv.solvePnPRansac(obj.astype(numpy.float32), img.astype(numpy.float32), K, None,
                                 iterationsCount=50, reprojectionError=thr, confidence=0.9)
        want = cv2.solvePnPRansac(obj.astype(numpy.float32), img.astype(numpy.float32), K, None,
                                  iterationsCount=50, reprojectionError=thr, confidence=0.9)
        same(got[3], want[3])
        same(got[1], want[1], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dist", [None, DISTS[1]], ids=["nodist", "dist"])
def test_solve_pnp_sqpnp(dist):
    # cv2 stops its SQP steps at a 1e-5 step norm; mnn polishes each start to its minimum: the
    # same global minimiser to 1e-6
    rng = numpy.random.default_rng(60)
    for it in range(16):
        obj, img, _, _ = pnp_problem(rng, int(rng.integers(4, 30)), it % 4 == 0, 0.4 * (it % 2), dist)
        for o, i in ((obj, img), (obj.astype(numpy.float32), img.astype(numpy.float32))):
            pose_close(mcv.solvePnP(o, i, K, dist, flags=cv2.SOLVEPNP_SQPNP),
                       cv2.solvePnP(o, i, K, dist, flags=cv2.SOLVEPNP_SQPNP), 1e-6)
    # 3 points have up to four exact poses: cv2 and mnn may return different ones, each exact
    obj, img, _, _ = pnp_problem(rng, 3, False, 0.0, None)
    for pose in (mcv.solvePnP(obj, img, K, None, flags=cv2.SOLVEPNP_SQPNP),
                 cv2.solvePnP(obj, img, K, None, flags=cv2.SOLVEPNP_SQPNP)):
        assert pose[0] and reprojection_cost(pose, obj, img, None) < 1e-12


def test_output_arguments_are_filled_like_cv2():
    rng = numpy.random.default_rng(70)
    src, dst = homography_problem(rng, 20, 0.0, outliers=True)
    mask = numpy.zeros((20, 1), numpy.uint8)
    got = mcv.findHomography(src, dst, cv2.RANSAC, 3.0, mask)
    assert got[1] is mask
    same(mask, cv2.findHomography(src, dst, cv2.RANSAC, 3.0)[1])
    m1, m2 = numpy.zeros((12, 16, 2), numpy.int16), numpy.zeros((12, 16), numpy.uint16)
    got = mcv.initUndistortRectifyMap(K, DISTS[1], None, K, (16, 12), cv2.CV_16SC2, m1, m2)
    assert got[0] is m1 and got[1] is m2
    want = cv2.initUndistortRectifyMap(K, DISTS[1], None, K, (16, 12), cv2.CV_16SC2)
    same(m1, want[0])
    same(m2, want[1])
    obj, img, _, _ = pnp_problem(rng, 10, False, 0.0, None)
    rvec, tvec = numpy.zeros((3, 1)), numpy.zeros((3, 1))
    got = mcv.solvePnP(obj, img, K, None, rvec, tvec)
    assert got[1] is rvec and got[2] is tvec
    pose_close((True, rvec, tvec), cv2.solvePnP(obj, img, K, None), 1e-6)
    ip, jac = numpy.zeros((10, 1, 2)), numpy.zeros((20, 15))
    got = mcv.projectPoints(obj, numpy.zeros(3), numpy.array([0, 0, 5.0]), K, None, ip, jac)
    assert got[0] is ip and got[1] is jac
    same(ip, cv2.projectPoints(obj, numpy.zeros(3), numpy.array([0, 0, 5.0]), K, None)[0], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dist", [None, DISTS[1]], ids=["nodist", "dist"])
def test_solve_pnp_ippe_square(dist):
    rng = numpy.random.default_rng(80)
    for it in range(12):
        half = rng.uniform(0.05, 1) / 2
        obj = numpy.array([[-half, half, 0], [half, half, 0], [half, -half, 0], [-half, -half, 0]])
        rv, tv = rng.normal(0, 0.5, 3), numpy.array([rng.normal(0, 0.2), rng.normal(0, 0.2), rng.uniform(1, 4)])
        img, _ = cv2.projectPoints(obj, rv, tv, K, dist)
        img = img + rng.normal(0, 0.3 * (it % 2), img.shape)
        for o, i in ((obj, img), (obj.astype(numpy.float32), img.astype(numpy.float32))):
            pose_close(mcv.solvePnP(o, i, K, dist, flags=cv2.SOLVEPNP_IPPE_SQUARE),
                       cv2.solvePnP(o, i, K, dist, flags=cv2.SOLVEPNP_IPPE_SQUARE), 1e-12)
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.solvePnP\] npoints == 4"):
        mcv.solvePnP(numpy.zeros((5, 3)), numpy.zeros((5, 2)), K, None, flags=cv2.SOLVEPNP_IPPE_SQUARE)


def test_non_contiguous_views():
    # cv2 refuses non-contiguous point vectors in some of these (checkVector); mnn takes the view
    # and gives cv2's answer on the contiguous copy
    c = numpy.ascontiguousarray
    rng = numpy.random.default_rng(90)
    obj, img, _, _ = pnp_problem(rng, 24, False, 0.3, DISTS[1])
    big_obj = numpy.repeat(obj, 2, axis=0)[::2]  # a strided view of the same points
    big_img = numpy.repeat(img.reshape(-1, 2), 2, axis=0)[::2]
    assert not big_obj.flags.c_contiguous and not big_img.flags.c_contiguous
    pose_close(mcv.solvePnP(big_obj, big_img, K, DISTS[1]), cv2.solvePnP(c(big_obj), c(big_img), K, DISTS[1]), 1e-6)
    same(mcv.projectPoints(big_obj, numpy.zeros(3), numpy.array([0, 0, 5.0]), K, DISTS[1])[0],
         cv2.projectPoints(c(big_obj), numpy.zeros(3), numpy.array([0, 0, 5.0]), K, DISTS[1])[0],
         rtol=1e-12, atol=1e-12)
    same(mcv.undistortPoints(big_img, K, DISTS[1]), cv2.undistortPoints(c(big_img), K, DISTS[1]),
         rtol=1e-12, atol=1e-12)
    src, dst = homography_problem(rng, 30, 0.0, outliers=True)
    s2, d2 = numpy.repeat(src, 2, axis=0)[::2], numpy.repeat(dst, 2, axis=0)[::2]
    got, want = mcv.findHomography(s2, d2, cv2.RANSAC), cv2.findHomography(c(s2), c(d2), cv2.RANSAC)
    same(got[1], want[1])
    same(got[0], want[0], rtol=1e-6, atol=1e-7)
    Kv = numpy.repeat(K, 2, axis=1)[:, ::2]
    same(mcv.getOptimalNewCameraMatrix(Kv, DISTS[1], (640, 480), 0.5)[0],
         cv2.getOptimalNewCameraMatrix(c(Kv), DISTS[1], (640, 480), 0.5)[0], rtol=1e-12, atol=1e-12)
