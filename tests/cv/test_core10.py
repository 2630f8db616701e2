"""Issue 5 cv2-exactness gaps: pow's whole powers, equalizeHist's float32 scale, inRange's bound
conversion, silence on IEEE conditions (divide, log, sqrt, exp, pow), fitEllipse on degenerate
point sets. Every case is compared with the real cv2."""
import warnings

import cv2
import numpy
import pytest

import mnn
import mnn.cv as cv
import mnn.numpy as mnp

INT_DEPTHS = ["uint8", "int8", "uint16", "int16", "int32"]
rng = numpy.random.default_rng(10)


def _ints(dtype, shape):
    info = numpy.iinfo(dtype)
    a = rng.integers(info.min, int(info.max) + 1, shape, dtype=numpy.int64)
    small = rng.integers(max(info.min, -60), min(int(info.max), 60) + 1, shape, dtype=numpy.int64)
    a = numpy.where(rng.random(shape) < 0.5, a, small)  # half large (wrapping), half small
    a.flat[:5] = [info.min, info.max, 0, 1, 2][:5] if info.min < 0 else [0, info.max, 1, 2, 3]
    return a.astype(dtype)


# ---------------------------------------------------------------------------------------------
# pow

@pytest.mark.parametrize("dtype", INT_DEPTHS)
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_pow_whole_powers_of_integer_images(dtype, cn):
    a = _ints(dtype, (13, 23, cn) if cn > 1 else (13, 23))
    for view in (a, a[1::2, ::3]):
        for p in list(range(-6, 14)) + [31, 32, 1000, 1001, -1001, 3.0, -2.0, None]:
            x = view
            if dtype == "int32" and p is not None and p < 0:
                # cv2 indexes its table with |INT_MIN| (negative) and crashes: never ask it that
                x = numpy.maximum(view, numpy.int32(-2147483647))
            want = cv2.pow(x, p)
            got = numpy.asarray(cv.pow(x, p))
            assert got.dtype == want.dtype and got.shape == want.shape
            numpy.testing.assert_array_equal(got, want, err_msg=f"{dtype} p={p}")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_whole_powers_of_float_images_bit_exact(dtype):
    # cv2 takes the reciprocal first and then squares and multiplies in the image's type
    a = (rng.standard_normal((17, 29)) * 3).astype(dtype)
    a.flat[:6] = [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e-30]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # cv2 is silent on 0 ** -1 and overflow; so is mnn
        for view in (a, a[::2, 1::2]):
            for p in [-7, -3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 11, 31, 0.5]:
                x = numpy.abs(view) if p == 0.5 else view
                want = cv2.pow(x, p)
                got = numpy.asarray(cv.pow(x, p))
                numpy.testing.assert_array_equal(got, want, err_msg=f"{dtype} p={p}")


def test_pow_fractional_float_is_close():
    # cv2's own exp/log pow for fractional powers: within a few ulps of numpy's
    a = rng.random((9, 11)).astype(numpy.float32) * 10
    numpy.testing.assert_allclose(numpy.asarray(cv.pow(a, 2.5)), cv2.pow(a, 2.5), rtol=3e-6)


# ---------------------------------------------------------------------------------------------
# equalizeHist

def test_equalize_hist_float32_products_on_random_images():
    for t in range(120):
        shape = (int(rng.integers(1, 70)), int(rng.integers(1, 70)))
        lo = int(rng.integers(0, 256))
        hi = int(rng.integers(lo, 256))
        a = rng.integers(lo, hi + 1, shape).astype(numpy.uint8)
        if t % 3 == 0:
            a = a[::2, 1::3]
        numpy.testing.assert_array_equal(numpy.asarray(cv.equalizeHist(a)), cv2.equalizeHist(a), err_msg=str(t))


def test_equalize_hist_large_and_constant():
    a = rng.integers(0, 256, (1031, 1297)).astype(numpy.uint8)
    a[:40] = 7
    numpy.testing.assert_array_equal(numpy.asarray(cv.equalizeHist(a)), cv2.equalizeHist(a))
    c = numpy.full((5, 7), 42, numpy.uint8)
    numpy.testing.assert_array_equal(numpy.asarray(cv.equalizeHist(c)), cv2.equalizeHist(c))


# ---------------------------------------------------------------------------------------------
# inRange

def _same_in_range(x, lo, hi, where=""):
    try:
        want = cv2.inRange(x, lo, hi)
    except cv2.error:
        with pytest.raises(Exception, match=r"^\[mnn\.cv\.inRange\]"):
            cv.inRange(x, lo, hi)
        return
    numpy.testing.assert_array_equal(numpy.asarray(cv.inRange(x, lo, hi)), want, err_msg=f"{where} {lo} {hi}")


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_in_range_float_bounds_are_rounded_to_the_depth(dtype):
    vals = [0.1, 0.2, 0.3, 0.6, 0.7, 0.9, 1e-8, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e5, 65504, 1e-45]
    with numpy.errstate(over="ignore"):
        x = numpy.concatenate([numpy.array(vals).astype(dtype), rng.random(42).astype(dtype)]).reshape(7, 8)
    bounds = [0.1, 0.2, 0.3, 0.6, 0.7, 0.9, 0, 1e-8, numpy.inf, -numpy.inf, numpy.nan, 1e39, 65504, 65520]
    for lo in bounds:
        for hi in bounds:
            _same_in_range(x, lo, hi, dtype)
            _same_in_range(x[1:, ::3], lo, hi, dtype)
    x3 = rng.random((7, 5, 3)).astype(dtype)
    x3[0, 0], x3[0, 1] = [0.1, 0.2, 0.3], [0.6, 0.7, 0.9]
    for lo, hi in [((0.1, 0.2, 0.3), (0.6, 0.7, 0.9)), ((0.1, 0.2, 0.3, 0), (0.6, 0.7, 0.9, 0))]:
        _same_in_range(x3, lo, hi, dtype)
        _same_in_range(x3[::2, 1:], lo, hi, dtype)


@pytest.mark.parametrize("dtype", INT_DEPTHS)
def test_in_range_integer_images_with_float_and_out_of_range_bounds(dtype):
    info = numpy.iinfo(dtype)
    x = numpy.array([[info.min, info.min + 1, -1 if info.min < 0 else 0, 0, 1, 2, 3, info.max - 1, info.max]], dtype)
    for lo, hi in [(info.max + 5, info.max + 10), (info.min - 10, info.min - 5), (2.5, 3.5), (1.5, 2.5),
                   (-0.5, 0.5), (300, 200), (3, 2), (info.max, info.max + 1e12), (-1e12, info.min),
                   (float("nan"), 5), (0, float("inf")), (-float("inf"), 3), (2 ** 31 - 0.5, 2 ** 31 + 3),
                   (-2 ** 31 - 0.6, 0)]:
        _same_in_range(x, lo, hi, dtype)


@pytest.mark.parametrize("dtype", INT_DEPTHS + ["float16", "float32", "float64"])
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_in_range_bound_forms(dtype, cn):
    # a number is (v, 0, 0, 0); a one-element tuple/array fills every channel except on 8/16-bit
    # images (unless the array has the image's type); arrays must match src's size and type
    x = rng.integers(0, 10, (5, 7, cn)).astype(dtype)
    if cn == 1:
        x = x[:, :, 0]
    d = numpy.dtype(dtype)
    for lo, hi in [((1,), (9,)), (numpy.array([1.0]), numpy.array([9.0])), (numpy.array([1], d), numpy.array([9], d)),
                   (numpy.array([[1.0]]), numpy.array([[9.0]])), (2, 8), ((2,) * cn, (7,) * cn),
                   ((2, 3, 4, 5), (7, 7, 7, 7)), (numpy.full(x.shape, 3, d), numpy.full(x.shape, 6, d)),
                   (numpy.full(x.shape, 3.0), numpy.full(x.shape, 6.0)), ((1, 0), (9, 0)),
                   (numpy.array([1, 2, 3.0]), numpy.array([8, 8, 8.0]))]:
        if (cn > 1 and d.itemsize <= 2 and d.kind in "iu" and numpy.size(lo) == 1 and not isinstance(lo, int)
                and getattr(lo, "dtype", None) != d):
            # mnn takes these as (v, 0, 0, 0), as cv2 5.0 does on most images; cv2 was also seen to
            # answer otherwise on an int16 3-channel one: not settled, so not compared here
            continue
        _same_in_range(x, lo, hi, f"{dtype} cn={cn}")


# ---------------------------------------------------------------------------------------------
# silence on IEEE conditions (cv2 never warns)

@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_ops_are_silent_like_cv2(dtype):
    a = numpy.array([[1, 0, -1, 0, 2.5, -3, numpy.inf, numpy.nan]], dtype)[:, ::1]
    b = numpy.array([[0, 0, 0, -0.0, 2, -0.0, 0, 1]], dtype)

    def same(got, want):
        numpy.testing.assert_array_equal(numpy.asarray(got), want)

    same(cv.divide(a, b), cv2.divide(a, b))
    same(cv.divide(a, b, scale=3), cv2.divide(a, b, scale=3))
    same(cv.divide(2.0, b), cv2.divide(2.0, b))
    same(cv.log(b), cv2.log(b))
    same(cv.log(a), cv2.log(a))
    same(cv.sqrt(a), cv2.sqrt(a))
    same(cv.exp(numpy.array([[1000, -1000, 1]], dtype)), cv2.exp(numpy.array([[1000, -1000, 1]], dtype)))
    same(cv.pow(b, -1), cv2.pow(b, -1))
    # mnn arrays as operands (lazy ones too)
    ma, mb = mnp.asarray(a), mnp.asarray(b) * mnp.asarray(numpy.ones_like(b))
    same(cv.divide(ma, mb), cv2.divide(a, b))


def test_callers_own_pending_warning_still_comes():
    # cv ops silence their own IEEE conditions, not the ones the caller's pending work owes
    z = mnp.asarray(numpy.zeros((2, 3), numpy.float32))
    pending = mnp.asarray(numpy.ones((2, 3), numpy.float32)) / z  # lazy: 1 / 0
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        r = cv.sqrt(pending)
        mnn.eval(r)
    numpy.testing.assert_array_equal(numpy.asarray(r), numpy.full((2, 3), numpy.inf, numpy.float32))


# ---------------------------------------------------------------------------------------------
# fitEllipse

def _close(g, w, rel=1e-5):
    g = [*g[0], *g[1], g[2]]
    w = [*w[0], *w[1], w[2]]
    assert all(abs(a - b) <= rel * max(1.0, abs(b)) for a, b in zip(g, w)), (g, w)


def _both(pts, seed):
    cv2.setRNGSeed(seed)
    cv.setRNGSeed(seed)
    return cv.fitEllipse(pts), cv2.fitEllipse(pts)


def test_fit_ellipse_of_ellipses_and_blobs():
    # 6 points or more: cv2's general fit (5 points take its direct fit, see the five-point test)
    for t in range(30):
        n = int(rng.integers(6, 40))
        th = rng.random(n) * 2 * numpy.pi
        a, b = rng.random(2) * 50 + 1
        ang = rng.random() * numpy.pi
        x, y = a * numpy.cos(th), b * numpy.sin(th)
        pts = numpy.stack([100 + x * numpy.cos(ang) - y * numpy.sin(ang), 80 + x * numpy.sin(ang) + y * numpy.cos(ang)], 1)
        _close(*_both(pts.astype(numpy.float32), t))
        _close(*_both(numpy.round(pts).astype(numpy.int32), t))
    for t in range(20):
        img = numpy.zeros((60, 60), numpy.uint8)
        cv2.ellipse(img, (int(rng.integers(10, 50)), int(rng.integers(10, 50))),
                    (int(rng.integers(1, 20)), int(rng.integers(0, 20))), float(rng.random() * 180), 0, 360, 255, -1)
        for c in cv2.findContours(img, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)[0]:
            # thin blobs (a side under 2) are the degenerate cases still open (see the report)
            if len(c) >= 5 and min(cv2.minAreaRect(c)[1]) >= 2:
                _close(*_both(c, t))


def test_fit_ellipse_of_two_pixel_wide_outlines():
    # a coin cut by the crop's edge (test_photo_coverage9.py) and thin rectangles' outlines:
    # the conic is a pair of lines, its centre the least-norm SVD answer
    ys = [190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 198, 197, 196, 195, 194, 193, 192, 191]
    xs = [252, 252, 252] + [251] * 12 + [252, 252, 252]
    _close(*_both(numpy.int32(list(zip(xs, ys))).reshape(-1, 1, 2), 0))
    for t in range(12):
        w, h = (int(v) for v in rng.integers(1, 20, 2))
        x0, y0 = (int(v) for v in rng.integers(0, 100, 2))
        pts = ([(x0 + i, y0) for i in range(w)] + [(x0 + w, y0 + j) for j in range(h)] +
               [(x0 + w - i, y0 + h) for i in range(w)] + [(x0, y0 + h - j) for j in range(h)])
        _close(*_both(numpy.int32(pts), t))


def test_fit_ellipse_of_collinear_points_follows_the_seeded_generator():
    # cv2 nudges ill-conditioned point sets by random offsets from theRNG: equal after the same
    # setRNGSeed, and again on a second call that continues the same sequence. 6+ points (the
    # general fit); 5 collinear points take cv2's direct fit, test_fit_ellipse_of_five_collinear_points
    for seed in range(3):
        _collinear_sets_match(numpy.random.default_rng(seed))
    _close(*_both(numpy.int32([(5, 5)] * 7), 3))
    _close(*_both(numpy.int32([(0, 0), (1, 0)] * 4), 4))


def _collinear_sets_match(rng):
    # the fit of a nudged, nearly degenerate set amplifies rounding: over 300 such sets (seeds 0-19)
    # one is 1.9e-5 relative off cv2 and the rest within 1e-5, so these compare at 1e-4
    for t in range(15):
        n = int(rng.integers(6, 30))
        x0, y0 = (int(v) for v in rng.integers(0, 100, 2))
        dx, dy = (int(v) for v in rng.integers(-3, 4, 2))
        dx = dx if dx or dy else 1
        k = numpy.arange(n)
        pts = numpy.stack([x0 + dx * k, y0 + dy * k], 1).astype(numpy.int32)
        rng.shuffle(pts)
        _close(*_both(pts, t), rel=1e-4)
        _close(cv.fitEllipse(pts.astype(numpy.float32) * 0.37), cv2.fitEllipse(pts.astype(numpy.float32) * 0.37),
               rel=1e-4)


@pytest.mark.xfail(strict=True, reason="5 collinear points: cv2's direct (5-point) fit of a degenerate set and "
                                       "mnn's differ (centre off by 1.6 on this one)")
def test_fit_ellipse_of_five_collinear_points():
    _close(*_both(numpy.int32([[3, 75], [9, 75], [7, 75], [1, 75], [5, 75]]), 7))


def test_fit_ellipse_five_points_and_bad_input():
    for t in range(20):
        pts = numpy.float32(rng.random((5, 2)) * 40)
        _close(*_both(pts, t), rel=1e-4)
    with pytest.raises(Exception, match=r"^\[mnn\.cv\.fitEllipse\]"):
        cv.fitEllipse(numpy.int32([(0, 0), (1, 1), (2, 0), (1, 2)]))
