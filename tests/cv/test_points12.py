"""mnn.cv point-set geometry (_points.py) against cv2 5 on the same inputs: perspectiveTransform,
transform, convertPointsTo/FromHomogeneous, Rodrigues (+ jacobian), fitLine (every distance; cv2's
fixed-seed reweighted fit), HuMoments, matchShapes, isContourConvex, convexityDefects,
rotatedRectangleIntersection and intersectConvexConvex. Float32 results are bit-exact unless noted;
float64 within 1e-12 relative where cv2's arithmetic is direct."""
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


H = numpy.array([[1.1, 0.1, 3.0], [0.2, 0.9, 4.0], [0.001, 0.002, 1.0]])


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape", [(7, 1, 2), (1, 7, 2), (3, 5, 2), (0, 1, 2)])
def test_perspective_transform_2d(dtype, shape):
    x = (numpy.random.default_rng(0).random(shape) * 200 - 50).astype(dtype)
    tol = 1e-6 if dtype == numpy.float32 else 1e-13
    same(mcv.perspectiveTransform(x, H), cv2.perspectiveTransform(x, H), rtol=tol, atol=tol)
    same(mcv.perspectiveTransform(x, H.astype(numpy.float32)), cv2.perspectiveTransform(x, H.astype(numpy.float32)),
         rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_perspective_transform_3d_and_degenerate(dtype):
    rng = numpy.random.default_rng(1)
    x = (rng.random((9, 1, 3)) * 10).astype(dtype)
    for m in (rng.random((4, 4)), rng.random((3, 4))):
        same(mcv.perspectiveTransform(x, m), cv2.perspectiveTransform(x, m), rtol=1e-6, atol=1e-9)
    # w == 0 and |w| <= FLT_EPSILON give 0, as in cv2
    m = numpy.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 0]])
    pts = numpy.array([[[0.0, 5]], [[1e-9, 2]], [[2, 3]]], dtype)
    same(mcv.perspectiveTransform(pts, m), cv2.perspectiveTransform(pts, m))
    # a non-contiguous view
    big = (rng.random((10, 2, 2)) * 50).astype(dtype)
    v = big[::2, :1]
    same(mcv.perspectiveTransform(v, H), cv2.perspectiveTransform(v, H), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int8, numpy.uint16, numpy.int16, numpy.int32, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize("cn,mshape", [(3, (3, 3)), (3, (3, 4)), (3, (2, 3)), (1, (2, 2)), (2, (4, 3)), (4, (4, 4)),
                                       (4, (1, 5)), (3, (1, 4))])
def test_transform(dtype, cn, mshape):
    rng = numpy.random.default_rng(cn * 10 + mshape[0])
    shape = (9, 67, cn) if cn > 1 else (9, 67)  # 603 pixels: SIMD blocks and a tail
    lo = -100 if dtype in (numpy.int8, numpy.int16, numpy.int32, numpy.float32, numpy.float64) else 0
    img = (rng.random(shape) * 200 + lo).astype(dtype)
    m = rng.random(mshape) * 1.3 - 0.3
    got, want = mcv.transform(img, m), cv2.transform(img, m)
    if dtype == numpy.float32:
        same(got, want, rtol=1e-6, atol=1e-4)  # cv2's SIMD and tail orders differ by an ulp
    elif dtype == numpy.float64:
        same(got, want, rtol=1e-13, atol=1e-12)
    else:
        same(got, want)


def test_integer_matrices_are_taken_as_float():
    x = (numpy.random.default_rng(13).random((6, 1, 2)) * 10).astype(numpy.float32)
    for m in (numpy.array([[2, 1, 3], [0, 1, -4], [0, 0, 1]], numpy.int32), numpy.eye(3, dtype=numpy.uint8)):
        same(mcv.perspectiveTransform(x, m), cv2.perspectiveTransform(x, m))
        same(mcv.transform(x, m[:2]), cv2.transform(x, m[:2]))


def test_transform_point_forms_and_views():
    rng = numpy.random.default_rng(2)
    pts = (rng.random((11, 1, 2)) * 100).astype(numpy.float32)
    a = numpy.array([[0.9, -0.2, 5], [0.3, 1.1, -2]])
    same(mcv.transform(pts, a), cv2.transform(pts, a), rtol=1e-6, atol=1e-4)
    same(mcv.transform(pts, a[:, :2]), cv2.transform(pts, a[:, :2]), rtol=1e-6, atol=1e-4)
    img = (rng.random((20, 30, 3)) * 255).astype(numpy.uint8)[1::2, ::3]
    m = rng.random((3, 3))
    same(mcv.transform(img, m), cv2.transform(img, m))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape", [(5, 2), (5, 1, 2), (1, 5, 2), (5, 3), (5, 1, 3)])
def test_to_homogeneous(dtype, shape):
    x = (numpy.random.default_rng(3).random(shape) * 10).astype(dtype)
    same(mcv.convertPointsToHomogeneous(x), cv2.convertPointsToHomogeneous(x))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape", [(5, 3), (5, 1, 3), (1, 5, 4), (5, 4)])
def test_from_homogeneous(dtype, shape):
    x = (numpy.random.default_rng(4).random(shape) * 10 + 0.5).astype(dtype)
    x.reshape(-1, shape[-1])[0, -1] = 0  # w == 0: divided by 1
    if dtype != numpy.int32:
        x.reshape(-1, shape[-1])[1, -1] = 1e-9  # |w| <= FLT_EPSILON: divided by 1
    same(mcv.convertPointsFromHomogeneous(x), cv2.convertPointsFromHomogeneous(x))


ROTVECS = [[0.1, -0.2, 0.3], [0.0, 0.0, 0.0], [3.0, 0.1, -0.2], [numpy.pi, 0, 0], [1e-20, 0, 0], [0, -2.5, 1.0]]


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("v", ROTVECS)
def test_rodrigues_both_ways(dtype, v):
    tol = 1e-6 if dtype == numpy.float32 else 1e-12
    for form in ((3,), (3, 1), (1, 3), (1, 1, 3)):
        vec = numpy.array(v, dtype).reshape(form)
        got, want = mcv.Rodrigues(vec), cv2.Rodrigues(vec)
        same(got[0], want[0], rtol=tol, atol=tol)
        same(got[1], want[1], rtol=tol, atol=tol)
    R = cv2.Rodrigues(numpy.array(v, dtype))[0]
    got, want = mcv.Rodrigues(R), cv2.Rodrigues(R)
    same(got[0], want[0], rtol=1e-5 if dtype == numpy.float32 else 1e-9, atol=1e-6 if dtype == numpy.float32 else 1e-12)
    same(got[1], want[1], rtol=1e-4 if dtype == numpy.float32 else 1e-8, atol=1e-5 if dtype == numpy.float32 else 1e-10)


def test_rodrigues_special_matrices():
    rng = numpy.random.default_rng(5)
    for R in (numpy.diag([1.0, -1, -1]), numpy.diag([-1.0, 1, -1]), numpy.eye(3), rng.random((3, 3)),
              numpy.full((3, 3), 200.0), numpy.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]])):
        got, want = mcv.Rodrigues(R), cv2.Rodrigues(R)
        same(got[0], want[0], rtol=1e-9, atol=1e-12)
        same(got[1], want[1], rtol=1e-8, atol=1e-10)


def line_points(rng, n, outliers=True):
    t = numpy.linspace(0, 10, n)
    pts = numpy.stack([t * 2 + 1, t * 0.7 - 3 + rng.normal(0, 0.3, n)], 1)
    if outliers:
        pts[::5] += rng.normal(0, 5, (len(pts[::5]), 2))
    return pts


@pytest.mark.parametrize("dist", [cv2.DIST_L2, cv2.DIST_L1, cv2.DIST_L12, cv2.DIST_FAIR, cv2.DIST_WELSCH,
                                  cv2.DIST_HUBER])
def test_fitline_matches_cv2_bit_for_bit(dist):
    rng = numpy.random.default_rng(dist)
    for it in range(40):
        n = int(rng.integers(2, 60))
        pts = line_points(rng, n)
        for p in ((pts * 10).astype(numpy.int32), pts.astype(numpy.float32),
                  pts.astype(numpy.float32).reshape(-1, 1, 2), pts.astype(numpy.float32).reshape(1, -1, 2)):
            param, reps, aeps = ((0, 0.01, 0.01), (2.5, 0.001, 0.001), (0, 0, 0))[it % 3]
            same(mcv.fitLine(p, dist, param, reps, aeps), cv2.fitLine(p, dist, param, reps, aeps))


@pytest.mark.parametrize("dist", [cv2.DIST_L2, cv2.DIST_L1, cv2.DIST_L12, cv2.DIST_FAIR, cv2.DIST_WELSCH,
                                  cv2.DIST_HUBER])
def test_fitline_3d_matches_cv2_bit_for_bit(dist):
    rng = numpy.random.default_rng(100 + dist)
    for it in range(25):
        n = int(rng.integers(2, 50))
        t = numpy.linspace(0, 10, n)
        pts = numpy.stack([t * 2 + 1, t * 0.7 - 3 + rng.normal(0, 0.3, n), -t * 0.3 + rng.normal(0, 0.3, n)], 1)
        pts[::5] += rng.normal(0, 5, (len(pts[::5]), 3))
        for p in ((pts * 10).astype(numpy.int32), pts.astype(numpy.float32), pts.astype(numpy.float32).reshape(-1, 1, 3)):
            param, reps, aeps = ((0, 0.01, 0.01), (2.5, 0.001, 0.001), (0, 0, 0))[it % 3]
            same(mcv.fitLine(p, dist, param, reps, aeps), cv2.fitLine(p, dist, param, reps, aeps))


def test_fitline_exact_and_noncontiguous():
    pts = numpy.array([[0, 0], [1, 1], [2, 2], [3, 3]], numpy.float32)
    for dist in (cv2.DIST_L2, cv2.DIST_L1, cv2.DIST_HUBER):
        same(mcv.fitLine(pts, dist, 0, 0.01, 0.01), cv2.fitLine(pts, dist, 0, 0.01, 0.01))
    big = (numpy.random.default_rng(6).random((30, 2, 2)) * 50).astype(numpy.float32)
    v = big[::3, 0]
    same(mcv.fitLine(v, cv2.DIST_FAIR, 0, 0.01, 0.01), cv2.fitLine(v, cv2.DIST_FAIR, 0, 0.01, 0.01))


def random_contours(rng, count):
    out = []
    for _ in range(count):
        img = numpy.zeros((120, 120), numpy.uint8)
        poly = (rng.random((int(rng.integers(3, 9)), 2)) * 100 + 10).astype(numpy.int32)
        cv2.fillPoly(img, [poly], 255)
        cs, _ = cv2.findContours(img, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out.extend(cs)
    return out


def test_hu_moments_and_match_shapes():
    rng = numpy.random.default_rng(7)
    cs = random_contours(rng, 12)
    for c in cs:
        same(mcv.HuMoments(cv2.moments(c)), cv2.HuMoments(cv2.moments(c)), rtol=1e-12, atol=1e-300)
        same(mcv.HuMoments(mcv.moments(c)), cv2.HuMoments(cv2.moments(c)), rtol=1e-9, atol=1e-300)
    for a, b in zip(cs, cs[1:]):
        for method in (cv2.CONTOURS_MATCH_I1, cv2.CONTOURS_MATCH_I2, cv2.CONTOURS_MATCH_I3):
            want = cv2.matchShapes(a, b, method, 0)
            assert mcv.matchShapes(a, b, method, 0) == pytest.approx(want, rel=1e-9)
            assert mcv.matchShapes(a.astype(numpy.float32), b, method, 0) == \
                pytest.approx(cv2.matchShapes(a.astype(numpy.float32), b, method, 0), rel=1e-9)
    # grayscale images, and a shape against an empty one (cv2: DBL_MAX)
    img = numpy.zeros((40, 50), numpy.uint8)
    img[5:30, 10:20] = 255
    img2 = numpy.zeros((40, 50), numpy.uint8)
    cv2.circle(img2, (25, 20), 12, 255, -1)
    for method in (1, 2, 3):
        assert mcv.matchShapes(img, img2, method, 0) == pytest.approx(cv2.matchShapes(img, img2, method, 0), rel=1e-9)
        empty = numpy.zeros((40, 50), numpy.uint8)
        assert mcv.matchShapes(img, empty, method, 0) == cv2.matchShapes(img, empty, method, 0)


def test_is_contour_convex():
    rng = numpy.random.default_rng(8)
    for _ in range(100):
        n = int(rng.integers(1, 30))
        for p in ((rng.random((n, 2)) * 100).astype(numpy.int32), (rng.random((n, 2)) * 100).astype(numpy.float32)):
            assert mcv.isContourConvex(p) == cv2.isContourConvex(p)
            h = cv2.convexHull(p)
            assert mcv.isContourConvex(h) == cv2.isContourConvex(h)
            assert mcv.isContourConvex(h.reshape(1, -1, 2)) == cv2.isContourConvex(h.reshape(1, -1, 2))
    assert mcv.isContourConvex(numpy.zeros((0, 2), numpy.int32)) is False


def test_convexity_defects():
    rng = numpy.random.default_rng(9)
    checked = 0
    for c in random_contours(rng, 40):
        if len(c) < 4:
            continue
        for cw in (False, True):
            hull = cv2.convexHull(c, clockwise=cw, returnPoints=False)
            try:
                want = cv2.convexityDefects(c, hull)
            except cv2.error:
                with pytest.raises(mcv.error, match="not monotonous"):
                    mcv.convexityDefects(c, hull)
                continue
            same(mcv.convexityDefects(c, hull), want)
            same(mcv.convexityDefects(c.reshape(-1, 2), hull.ravel()), want)
            checked += 1
    assert checked > 20
    square = numpy.array([[0, 0], [10, 0], [10, 10], [0, 10]], numpy.int32)
    assert mcv.convexityDefects(square, numpy.array([[3], [2], [1], [0]], numpy.int32)) is None


def random_rect(rng):
    return ((float(rng.random() * 50), float(rng.random() * 50)), (float(rng.random() * 40 + 1),
            float(rng.random() * 40 + 1)), float(rng.random() * 360 - 180))


def test_rotated_rectangle_intersection():
    rng = numpy.random.default_rng(10)
    for _ in range(200):
        r1, r2 = random_rect(rng), random_rect(rng)
        for a, b in ((r1, r2), (r1, r1), (r1, (r1[0], r1[1], r1[2] + 90)), (r1, (r1[0], (1.0, 1.0), 0.0))):
            got, want = mcv.rotatedRectangleIntersection(a, b), cv2.rotatedRectangleIntersection(a, b)
            assert got[0] == want[0]
            same(got[1], want[1])
    for a, b in ((((10, 10), (20, 20), 0), ((10, 10), (10, 10), 0)), (((10, 10), (20, 20), 0), ((20, 10), (20, 20), 0)),
                 (((0, 0), (2, 2), 0), ((10, 10), (2, 2), 0)), (((0, 0), (0, 2), 0), ((0, 0), (2, 2), 0))):
        got, want = mcv.rotatedRectangleIntersection(a, b), cv2.rotatedRectangleIntersection(a, b)
        assert got[0] == want[0]
        same(got[1], want[1])
    assert mcv.INTERSECT_NONE == cv2.INTERSECT_NONE and mcv.INTERSECT_FULL == cv2.INTERSECT_FULL


def test_intersect_convex_convex():
    rng = numpy.random.default_rng(11)
    for _ in range(120):
        n = int(rng.integers(3, 30))
        P = cv2.convexHull((rng.random((n, 2)) * 100).astype(numpy.float32))
        Q = cv2.convexHull((rng.random((n, 2)) * 100 + 30).astype(numpy.float32))
        for p, q in ((P, Q), (P, P[::-1]), (P, P), (P, (P * 0.5 + 25).astype(numpy.float32)),
                     (P.astype(numpy.int32), Q.astype(numpy.int32)), (Q, P), (P[::-1], Q[::-1]),
                     (P.reshape(-1, 2), Q + 200)):
            for nested in (True, False):
                got = mcv.intersectConvexConvex(p, q, handleNested=nested)
                want = cv2.intersectConvexConvex(p, q, handleNested=nested)
                assert got[0] == pytest.approx(want[0], rel=1e-6, abs=1e-6)
                same(got[1], want[1])


BAD = [
    (lambda m: m.perspectiveTransform(numpy.zeros((5, 1, 2), numpy.int32), H), "perspectiveTransform"),
    (lambda m: m.perspectiveTransform(numpy.zeros((5, 1, 2), numpy.float32), numpy.eye(4)), "perspectiveTransform"),
    (lambda m: m.perspectiveTransform(None, H), "perspectiveTransform"),
    (lambda m: m.transform(numpy.zeros((5, 5, 3), numpy.uint8), numpy.eye(2)), "transform"),
    (lambda m: m.convertPointsToHomogeneous(numpy.zeros((5, 5), numpy.float32)), "convertPointsToHomogeneous"),
    (lambda m: m.convertPointsFromHomogeneous(numpy.zeros((5, 2), numpy.float32)), "convertPointsFromHomogeneous"),
    (lambda m: m.Rodrigues(numpy.zeros((2, 2))), "Rodrigues"),
    (lambda m: m.Rodrigues(numpy.zeros(3, numpy.int32)), "Rodrigues"),
    (lambda m: m.fitLine(numpy.zeros((5, 4), numpy.float32), 2, 0, 0.01, 0.01), "fitLine"),
    (lambda m: m.fitLine(numpy.zeros((0, 3), numpy.float32), 2, 0, 0.01, 0.01), "fitLine"),
    (lambda m: m.fitLine(numpy.zeros((5, 2), numpy.float32), 99, 0, 0.01, 0.01), "fitLine"),
    (lambda m: m.fitLine(numpy.zeros((0, 2), numpy.float32), 2, 0, 0.01, 0.01), "fitLine"),
    (lambda m: m.matchShapes(numpy.zeros((5, 2), numpy.int32), numpy.zeros((5, 2), numpy.int32), 7, 0), "matchShapes"),
    (lambda m: m.isContourConvex(numpy.zeros((5, 2), numpy.float64)), "isContourConvex"),
    (lambda m: m.convexityDefects(numpy.zeros((5, 2), numpy.float32), numpy.zeros((3, 1), numpy.int32)),
     "convexityDefects"),
    (lambda m: m.convexityDefects(numpy.zeros((5, 2), numpy.int32), numpy.array([[9], [1], [0]], numpy.int32)),
     "convexityDefects"),
    (lambda m: m.intersectConvexConvex(numpy.zeros((5, 3), numpy.float32), numpy.zeros((5, 2), numpy.float32)),
     "intersectConvexConvex"),
]


@pytest.mark.parametrize("call,name", BAD)
def test_bad_input_raises_like_cv2(call, name):
    with pytest.raises(cv2.error):
        call(cv2)
    with pytest.raises((mcv.error, TypeError, ValueError), match=rf"^\[mnn\.cv\.{name}\]"):
        call(mcv)


def test_bad_python_arguments_name_the_function():
    with pytest.raises(TypeError, match=r"^\[mnn\.cv\.rotatedRectangleIntersection\]"):
        mcv.rotatedRectangleIntersection("x", ((0, 0), (1, 1), 0))
    with pytest.raises(TypeError, match=r"^\[mnn\.cv\.HuMoments\]"):
        mcv.HuMoments([1, 2, 3])


def test_min_enclosing_triangle():
    rng = numpy.random.default_rng(12)
    sets = []
    for it in range(150):
        n = int(rng.integers(1, 40))
        if it % 3 == 0:
            sets.append((rng.random((n, 2)) * 100).astype(numpy.int32))
        elif it % 3 == 1:
            sets.append((rng.random((n, 2)) * 100).astype(numpy.float32).reshape(-1, 1, 2))
        else:
            sets.append((rng.normal(0, 1, (n, 2)) * [30, 5] + 50).astype(numpy.float32))
    circle = numpy.array([[numpy.cos(t), numpy.sin(t)] for t in numpy.linspace(0, 2 * numpy.pi, 50, endpoint=False)])
    sets += [numpy.array([[0, 0], [10, 0], [10, 10], [0, 10]], numpy.float32),
             numpy.array([[0, 0], [1, 1], [2, 2], [3, 3]], numpy.float32),
             numpy.array([[0, 0], [0, 0], [5, 5]], numpy.int32), (circle * 100).astype(numpy.float32),
             (circle[::8] * 1000 + 5000).astype(numpy.float32), numpy.array([[0, 0], [100, 0], [100, 1], [0, 1]], numpy.int32),
             (rng.random((300, 2)) * 1e4).astype(numpy.float32)]
    for p in sets:
        got, want = mcv.minEnclosingTriangle(p), cv2.minEnclosingTriangle(p)
        assert got[0] == want[0]
        same(got[1], want[1])
    with pytest.raises(cv2.error):
        cv2.minEnclosingTriangle(numpy.zeros((0, 2), numpy.float32))
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.minEnclosingTriangle\]"):
        mcv.minEnclosingTriangle(numpy.zeros((0, 2), numpy.float32))
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.minEnclosingTriangle\]"):
        mcv.minEnclosingTriangle(numpy.zeros((5, 2), numpy.float64))


def test_output_arguments_are_filled_like_cv2():
    v = numpy.array([0.1, -0.2, 0.3])
    dst, jac = numpy.zeros((3, 3)), numpy.zeros((3, 9))
    got = mcv.Rodrigues(v, dst, jac)
    assert got[0] is dst and got[1] is jac
    numpy.testing.assert_allclose(dst, cv2.Rodrigues(v)[0], rtol=1e-12, atol=1e-15)
    numpy.testing.assert_allclose(jac, cv2.Rodrigues(v)[1], rtol=1e-12, atol=1e-15)
    wrong = numpy.zeros((2, 2))
    assert mcv.Rodrigues(v, wrong)[0] is not wrong and not wrong.any()  # a misfit is left alone
    pts = numpy.array([[0, 0], [1, 1.1], [2, 2], [3, 3.2]], numpy.float32)
    line = numpy.zeros((4, 1), numpy.float32)
    assert mcv.fitLine(pts, cv2.DIST_L2, 0, 0.01, 0.01, line) is line
    same(line, cv2.fitLine(pts, cv2.DIST_L2, 0, 0.01, 0.01))
    tri = numpy.zeros((3, 2), numpy.float32)
    assert mcv.minEnclosingTriangle(pts, tri)[1] is tri
    same(tri, cv2.minEnclosingTriangle(pts)[1])
    hu = numpy.zeros((7, 1))
    m = cv2.moments(pts)
    assert mcv.HuMoments(m, hu) is hu
    same(hu, cv2.HuMoments(m), rtol=1e-12, atol=1e-300)
