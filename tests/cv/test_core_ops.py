"""mnn.cv core array operations against cv2: saturation and rounding per depth, scalar operands,
masks, statistics, bitwise and polar functions, and cv2's errors."""
import cv2
import numpy
import pytest
import skimage.data

import mnn.cv as cv
import mnn.numpy as np

RNG = numpy.random.default_rng(3)
DEPTHS = [numpy.uint8, numpy.int8, numpy.uint16, numpy.int16, numpy.int32, numpy.float32, numpy.float64]
SMALL = (numpy.uint8, numpy.int8, numpy.uint16, numpy.int16)


def image(dtype, cn, shape=(97, 131)):
    s = shape if cn == 1 else shape + (cn,)
    if numpy.issubdtype(dtype, numpy.integer):
        info = numpy.iinfo(dtype)
        return RNG.integers(max(info.min, -1000), min(info.max, 1000) + 1, s).astype(dtype)
    return (RNG.standard_normal(s) * 100).astype(dtype)


def same(got, want, tol=0.0):
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w, tol)
        return
    if not isinstance(want, numpy.ndarray):
        assert got == pytest.approx(want, rel=1e-7, abs=1e-9)  # float32 sums: cv2 accumulates in blocks
        return
    got = numpy.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    if tol == 0:
        numpy.testing.assert_array_equal(got, want)
    else:
        numpy.testing.assert_allclose(got.astype(numpy.float64), want.astype(numpy.float64), rtol=tol, atol=tol)


def ftol(dtype, f32=1e-5):
    return f32 if dtype == numpy.float32 else (1e-12 if dtype == numpy.float64 else 0)


@pytest.mark.parametrize("dtype", DEPTHS)
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_arithmetic(dtype, cn):
    a, b = image(dtype, cn), image(dtype, cn)
    mask = (RNG.random(a.shape[:2]) > 0.5).astype(numpy.uint8)
    for f in ("add", "subtract", "absdiff"):
        same(getattr(cv, f)(a, b), getattr(cv2, f)(a, b))
    same(cv.add(a, b, mask=mask), cv2.add(a, b, mask=mask))
    same(cv.subtract(a, b, mask=mask), cv2.subtract(a, b, mask=mask))
    same(cv.subtract(a, 7), cv2.subtract(a, 7))
    same(cv.add(a, (1.5, 2.5, -3, 4)), cv2.add(a, (1.5, 2.5, -3, 4)))
    same(cv.add(a, b, dtype=cv2.CV_32F), cv2.add(a, b, dtype=cv2.CV_32F))
    same(cv.multiply(a, b), cv2.multiply(a, b), ftol(dtype))
    same(cv.multiply(a, b, scale=0.37), cv2.multiply(a, b, scale=0.37), ftol(dtype, 1e-4) or (1 if dtype == numpy.int32 else 0))
    same(cv.divide(a, b, scale=3), cv2.divide(a, b, scale=3), ftol(dtype, 1e-4))
    same(cv.divide(5.0, b), cv2.divide(5.0, b), ftol(dtype))
    # int32 uses a double fma in cv2: within one.
    same(cv.addWeighted(a, 0.3, b, 0.7, 2.5), cv2.addWeighted(a, 0.3, b, 0.7, 2.5),
         ftol(dtype, 1e-4) or (1 if dtype == numpy.int32 else 0))
    same(cv.convertScaleAbs(a, alpha=1.7, beta=-3), cv2.convertScaleAbs(a, alpha=1.7, beta=-3))


def test_arithmetic_rounding_and_zero_division():
    a = numpy.array([[1, 2, 3, 5, 0]], numpy.uint8)
    b = numpy.array([[2, 4, 0, 2, 0]], numpy.uint8)
    same(cv.divide(a, b), cv2.divide(a, b))
    f, g = a.astype(numpy.float32), b.astype(numpy.float32)
    same(cv.divide(f, g), cv2.divide(f, g))
    s = numpy.array([[3, -5, 0]], numpy.int16)
    same(cv.divide(2.0, s), cv2.divide(2.0, s))
    same(cv.multiply(numpy.array([[3, 5, 7]], numpy.uint8), numpy.array([[3, 5, 7]], numpy.uint8), scale=0.5),
         cv2.multiply(numpy.array([[3, 5, 7]], numpy.uint8), numpy.array([[3, 5, 7]], numpy.uint8), scale=0.5))


def test_arithmetic_errors():
    a = image(numpy.uint8, 3)
    with pytest.raises(cv.error, match=r"\[mnn.cv.add\]"):
        cv.add(a, image(numpy.uint8, 1))
    with pytest.raises(cv.error, match=r"\[mnn.cv.add\]"):
        cv.add(a, a.astype(numpy.int16))
    same(cv.add(a, a.astype(numpy.int16), dtype=cv2.CV_16S), cv2.add(a, a.astype(numpy.int16), dtype=cv2.CV_16S))


@pytest.mark.parametrize("dtype", DEPTHS)
@pytest.mark.parametrize("cn", [1, 3])
def test_normalize(dtype, cn):
    a = image(dtype, cn)
    mask = (RNG.random(a.shape[:2]) > 0.5).astype(numpy.uint8)
    t = ftol(dtype, 1e-4) or (1 if dtype == numpy.int32 else 0)
    for nt in (cv2.NORM_INF, cv2.NORM_L1, cv2.NORM_L2, cv2.NORM_MINMAX):
        same(cv.normalize(a, None, 100, 10, nt), cv2.normalize(a, None, 100, 10, nt), t)
        same(cv.normalize(a, None, 1, 0, nt, cv2.CV_32F), cv2.normalize(a, None, 1, 0, nt, cv2.CV_32F), 1e-5)
    if cn == 1:
        same(cv.normalize(a, None, 0, 255, cv2.NORM_MINMAX, mask=mask), cv2.normalize(a, None, 0, 255, cv2.NORM_MINMAX, mask=mask), t)


@pytest.mark.parametrize("dtype", DEPTHS)
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_split_merge_concat_stats(dtype, cn):
    a, b = image(dtype, cn), image(dtype, cn)
    mask = (RNG.random(a.shape[:2]) > 0.5).astype(numpy.uint8)
    same(cv.split(a), cv2.split(a))
    same(cv.merge(list(cv2.split(a))), cv2.merge(list(cv2.split(a))))
    same(cv.hconcat([a, b]), cv2.hconcat([a, b]))
    same(cv.vconcat([a, b, a]), cv2.vconcat([a, b, a]))
    same(cv.mean(a), cv2.mean(a))
    same(cv.mean(a, mask), cv2.mean(a, mask=mask))
    same(cv.meanStdDev(a), cv2.meanStdDev(a), 1e-9)
    same(cv.meanStdDev(a, mask=mask), cv2.meanStdDev(a, mask=mask), 1e-9)
    if cn == 1:
        same(cv.minMaxLoc(a), cv2.minMaxLoc(a))
        same(cv.minMaxLoc(a, mask), cv2.minMaxLoc(a, mask=mask))
        assert cv.countNonZero(a) == cv2.countNonZero(a)
    else:
        with pytest.raises(cv.error, match=r"\[mnn.cv.minMaxLoc\]"):
            cv.minMaxLoc(a)
        with pytest.raises(cv.error, match=r"\[mnn.cv.countNonZero\]"):
            cv.countNonZero(a)


def test_concat_errors():
    with pytest.raises(cv.error, match=r"\[mnn.cv.hconcat\]"):
        cv.hconcat([image(numpy.uint8, 1, (5, 4)), image(numpy.uint8, 1, (6, 4))])
    with pytest.raises(cv.error, match=r"\[mnn.cv.vconcat\]"):
        cv.vconcat([image(numpy.uint8, 1, (5, 4)), image(numpy.uint8, 1, (5, 3))])


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int8, numpy.uint16, numpy.int16, numpy.int32])
def test_bitwise(dtype):
    a, b = image(dtype, 3), image(dtype, 3)
    mask = (RNG.random(a.shape[:2]) > 0.5).astype(numpy.uint8)
    for f in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        same(getattr(cv, f)(a, b), getattr(cv2, f)(a, b))
        same(getattr(cv, f)(a, b, mask=mask), getattr(cv2, f)(a, b, mask=mask))
    same(cv.bitwise_not(a), cv2.bitwise_not(a))
    same(cv.bitwise_not(a, mask=mask), cv2.bitwise_not(a, mask=mask))
    photo = skimage.data.astronaut()
    same(cv.bitwise_and(photo, (0xF0, 0x0F, 0xFF)), cv2.bitwise_and(photo, (0xF0, 0x0F, 0xFF)))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_polar_and_math(dtype):
    x, y = image(dtype, 1), image(dtype, 1)
    same(cv.magnitude(x, y), cv2.magnitude(x, y), 1e-5)
    # cv2's atan2 is a polynomial approximation: mnn evaluates the same polynomial.
    same(cv.phase(x, y), cv2.phase(x, y), 1e-5)
    same(cv.phase(x, y, angleInDegrees=True), cv2.phase(x, y, angleInDegrees=True), 1e-4)
    same(cv.cartToPolar(x, y), cv2.cartToPolar(x, y), 1e-4)
    mag, ang = numpy.abs(x), y / 50
    same(cv.polarToCart(mag, ang), cv2.polarToCart(mag, ang), 1e-3)
    same(cv.polarToCart(mag, ang * 50, angleInDegrees=True), cv2.polarToCart(mag, ang * 50, angleInDegrees=True), 1e-3)
    p = numpy.abs(x) / 100
    same(cv.sqrt(p), cv2.sqrt(p), 1e-6)
    same(cv.exp(p), cv2.exp(p), 1e-5)
    same(cv.log(p + 0.01), cv2.log(p + 0.01), 1e-5)
    same(cv.pow(x, 3), cv2.pow(x, 3), 1e-5)
    same(cv.pow(p, 0.5), cv2.pow(p, 0.5), 1e-6)
    with pytest.raises(cv.error, match=r"\[mnn.cv.sqrt\]"):
        cv.sqrt(image(numpy.uint8, 1))
    with pytest.raises(cv.error, match=r"\[mnn.cv.magnitude\]"):
        cv.magnitude(x, y.astype(numpy.float64 if dtype == numpy.float32 else numpy.float32))


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.uint16, numpy.int16])
def test_pow_saturates(dtype):
    a = image(dtype, 3)
    same(cv.pow(a, 2), cv2.pow(a, 2))


@pytest.mark.parametrize("name", ["min", "max"])
@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32"])
def test_min_max_match_cv2(name, dtype):
    rng = numpy.random.default_rng(5)
    a = (rng.random((13, 17, 3)) * 300 - 20).astype(dtype)
    b = (rng.random((13, 17, 3)) * 300 - 20).astype(dtype)
    same(getattr(cv, name)(a, b), getattr(cv2, name)(a, b))
    same(getattr(cv, name)(a[..., 0], 100), getattr(cv2, name)(a[..., 0], 100))


SINGLE_CHANNEL_CALLS = {
    "blur": lambda c, x: c.blur(x, (3, 3)),
    "GaussianBlur": lambda c, x: c.GaussianBlur(x, (5, 5), 0),
    "medianBlur": lambda c, x: c.medianBlur(x, 3),
    "erode": lambda c, x: c.erode(x, numpy.ones((3, 3), numpy.uint8)),
    "threshold": lambda c, x: c.threshold(x, 100, 255, 0)[1],
    "equalizeHist": lambda c, x: c.equalizeHist(x),
    "add": lambda c, x: c.add(x, x),
    "LUT": lambda c, x: c.LUT(x, numpy.arange(256, dtype=numpy.uint8)[::-1].copy()),
    "bitwise_not": lambda c, x: c.bitwise_not(x),
    "pyrDown": lambda c, x: c.pyrDown(x),
    "hconcat": lambda c, x: c.hconcat([x, x]),
    "Sobel": lambda c, x: c.Sobel(x, -1, 1, 0),
}


@pytest.mark.parametrize("name", sorted(SINGLE_CHANNEL_CALLS))
def test_a_single_channel_image_comes_back_2d_as_in_cv2(name):
    x = numpy.random.default_rng(6).integers(0, 255, (20, 24, 1), dtype=numpy.uint8)
    want = SINGLE_CHANNEL_CALLS[name](cv2, x)
    got = SINGLE_CHANNEL_CALLS[name](cv, x)
    assert want.ndim == 2 and got.shape == want.shape
    same(got, want)


def test_drawing_returns_the_image_it_drew_on():
    img = numpy.zeros((10, 12, 1), numpy.uint8)
    out = cv.line(img, (0, 0), (9, 9), 255)
    assert out is img and out.shape == (10, 12, 1)


@pytest.mark.parametrize("n", [1, 3, 8, 17, 64])
def test_int32_arithmetic_overflow_as_cv2(n):
    # cv2 adds and subtracts int32 images in int32 (the result wraps, absdiff is |wrapped a - b|),
    # and rounds float results to int32 with cvRound, whose out-of-range answer is INT_MIN (a Scalar
    # too); mnn saturated both ways.
    rng = numpy.random.default_rng(n)
    a = rng.integers(-2**31, 2**31, (2, n)).astype(numpy.int32)
    b = rng.integers(-2**31, 2**31, (2, n)).astype(numpy.int32)
    a[0, 0], b[0, 0] = -2**31, 2**31 - 1
    cases = [("add", (a, b)), ("subtract", (a, b)), ("absdiff", (a, b)), ("multiply", (a, b)),
             ("addWeighted", (a, 0.7, b, 0.9, 3.0)), ("divide", (a, b))]
    for s in (5e9, -5e9, 3.0, 2.0**31 - 1, -2.0**31):
        cases += [("add", (a, s)), ("subtract", (s, a)), ("absdiff", (a, s))]
    for name, args in cases:
        want = getattr(cv2, name)(*args)
        got = numpy.asarray(getattr(cv, name)(*[np.asarray(v) if isinstance(v, numpy.ndarray) else v for v in args]))
        assert got.dtype == want.dtype and numpy.array_equal(got, want), (name, args[1:] if len(args) > 1 else None)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_bitwise_on_float_images_as_cv2(dtype):
    # cv2 works on the bit patterns of float images; mnn's bitwise_not raised on them
    rng = numpy.random.default_rng(12)
    a = (rng.random((9, 13, 3)) * 100 - 50).astype(dtype)
    b = (rng.random((9, 13, 3)) * 100 - 50).astype(dtype)
    a[0, 0, 0], b[0, 0, 0] = numpy.nan, -0.0
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        want = getattr(cv2, name)(a, b)
        got = numpy.asarray(getattr(cv, name)(np.asarray(a)[:, ::1], b))
        assert got.dtype == want.dtype and numpy.array_equal(got.view(numpy.uint8), want.view(numpy.uint8)), name
    view = np.asarray(a)[::2, 1:]
    want = cv2.bitwise_not(numpy.ascontiguousarray(a[::2, 1:]))
    got = numpy.asarray(cv.bitwise_not(view))
    assert got.dtype == want.dtype and numpy.array_equal(got.view(numpy.uint8), want.view(numpy.uint8))


def test_mean_and_meanstddev_of_empty_images():
    # cv2: mean of an empty image is 0 (mnn gave NaN); meanStdDev raises (mnn gave NaN)
    for a in (numpy.zeros((0, 2, 4)), numpy.zeros((0, 131, 3), numpy.int32), numpy.zeros((5, 0), numpy.uint8)):
        assert cv.mean(a) == cv2.mean(a)
        with pytest.raises(cv2.error):
            cv2.meanStdDev(a)
        with pytest.raises(cv.error, match=r"\[mnn.cv.meanStdDev\]"):
            cv.meanStdDev(a)


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int8, numpy.uint16, numpy.int16])
def test_multiply_overflow_as_cv2(dtype):
    # cv2 multiplies two uint16 images in int (a product past 2^31 wraps negative: 0), and with a
    # scale rounds the float product to int with cvRound first (INT_MIN, so the type's minimum,
    # when out of range); mnn saturated to the maximum.
    rng = numpy.random.default_rng(int(numpy.dtype(dtype).itemsize) * 10 + numpy.dtype(dtype).kind.__hash__() % 7)
    info = numpy.iinfo(dtype)
    for n in (1, 3, 8, 17, 64):
        a = rng.integers(info.min, info.max, (2, n), endpoint=True).astype(dtype)
        b = rng.integers(info.min, info.max, (2, n), endpoint=True).astype(dtype)
        for s in (1, 2, 0.5, 1e-5, 3.7):
            want = cv2.multiply(a, b, scale=s)
            assert numpy.array_equal(numpy.asarray(cv.multiply(np.asarray(a), b, scale=s)), want), (n, s)


def test_sobel_scharr_ksize_needs_first_derivative():
    # Sobel(ksize=-1) is Scharr: cv2 raises for dx + dy != 1; mnn filtered anyway
    a = numpy.zeros((5, 7), numpy.uint8)
    for dx, dy in [(2, 0), (0, 2), (1, 1)]:
        with pytest.raises(cv2.error):
            cv2.Sobel(a, cv2.CV_32F, dx, dy, ksize=-1)
        with pytest.raises(cv.error, match=r"\[mnn.cv.Sobel\]"):
            cv.Sobel(a, cv.CV_32F, dx, dy, ksize=-1)
    assert numpy.array_equal(numpy.asarray(cv.Sobel(a, cv.CV_32F, 1, 0, ksize=-1)), cv2.Sobel(a, cv2.CV_32F, 1, 0, ksize=-1))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.int16])
def test_convert_scale_abs_past_int_range(dtype):
    # cv2 rounds |x * alpha + beta| to int before saturating to uint8: past INT_MAX that is INT_MIN,
    # so 0 (int32 computed in float32 as the small depths); mnn gave 255. (float64 is not
    # reproduced there: cv2's vector loop goes through float32, its scalar tail stays in double.)
    rng = numpy.random.default_rng(5)
    for n in (1, 5, 8, 33):
        if dtype == numpy.int16:
            a = rng.integers(-32768, 32767, (2, n)).astype(dtype)
        else:
            a = numpy.clip(rng.random((2, n)) * 2.0**33 - 2.0**32, -2.0**31, 2.0**31 - 1).astype(dtype)
        a[0, 0] = numpy.iinfo(numpy.int32).max if dtype == numpy.int32 else a[0, 0]
        for alpha, beta in [(1, 0), (-2, -7.5), (0.5, 3), (1e-9, 0), (3.3, 1)]:
            want = cv2.convertScaleAbs(a, alpha=alpha, beta=beta)
            assert numpy.array_equal(numpy.asarray(cv.convertScaleAbs(np.asarray(a), alpha=alpha, beta=beta)), want)


def test_minmaxloc_of_a_4d_array_raises():
    # cv2 takes arrays of at most 2 dimensions (3 with one channel); mnn answered for any
    a = numpy.zeros((2, 3, 4, 5), numpy.float64)
    with pytest.raises(cv2.error):
        cv2.minMaxLoc(a)
    with pytest.raises(cv.error, match=r"\[mnn.cv.minMaxLoc\]"):
        cv.minMaxLoc(a)
    assert cv.minMaxLoc(numpy.arange(12.0).reshape(3, 4, 1)) == cv2.minMaxLoc(numpy.arange(12.0).reshape(3, 4, 1))
