"""Depths and arguments cv2 5 accepts that mnn.cv used to refuse or answer differently (the audit's
leftovers, tools/cv_audit.py): each case compares with cv2 on the same input."""
import numpy
import pytest

import cv2
import mnn.cv as mcv
import mnn.numpy as mnp


def _img(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.startswith("float"):
        return (rng.random(shape) * 200 - 20).astype(dtype)
    info = numpy.iinfo(dtype)
    return rng.integers(max(info.min, -100), min(info.max, 300) + 1, shape).astype(dtype)


def _same(got, want):
    """Equal dtype, shape and bytes (bool arrays compared byte for byte: cv2 writes 0xFE for ~true)."""
    if isinstance(want, tuple):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if not isinstance(want, numpy.ndarray):
        # a float statistic (mean, norm): cv2 accumulates half images in float32 blocks, mnn in
        # float64, so the last digits may differ
        assert got == pytest.approx(want, rel=1e-6, abs=1e-9, nan_ok=True)
        return
    g = numpy.asarray(got)
    assert g.dtype == want.dtype and g.shape == want.shape
    if want.dtype == bool:
        numpy.testing.assert_array_equal(g.view(numpy.uint8), want.view(numpy.uint8))
    elif want.dtype == numpy.float64:  # meanStdDev's statistics (see above)
        numpy.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-9)
    else:
        numpy.testing.assert_array_equal(g, want)


SHAPES = [(13, 17), (13, 17, 3), (1, 9, 2), (9, 1, 5), (0, 0)]
VIEWS = {"contig": lambda a: a, "step": lambda a: numpy.repeat(a, 2, axis=0)[::2], "reversed": lambda a: a[:, ::-1]}

# function -> (call on (module, a, b), dtypes cv2 5 takes)
PAIR_OPS = {
    "add": (lambda m, a, b: m.add(a, b), ("float16", "int64", "uint64")),
    "subtract": (lambda m, a, b: m.subtract(a, b), ("float16", "int64")),
    "multiply": (lambda m, a, b: m.multiply(a, b), ("float16", "int64")),
    "divide": (lambda m, a, b: m.divide(a, b), ("float16", "int64")),
    "absdiff": (lambda m, a, b: m.absdiff(a, b), ("float16", "int64")),
    "addWeighted": (lambda m, a, b: m.addWeighted(a, 0.5, b, 0.25, 3.0), ("float16", "int64")),
    "min": (lambda m, a, b: m.min(a, b), ("float16", "int64", "bool")),
    "max": (lambda m, a, b: m.max(a, b), ("float16", "int64", "bool")),
    "bitwise_and": (lambda m, a, b: m.bitwise_and(a, b), ("float16", "int64", "bool")),
    "bitwise_xor": (lambda m, a, b: m.bitwise_xor(a, b), ("float16", "int64", "bool")),
    "hconcat": (lambda m, a, b: m.hconcat([a, b]), ("float16", "int64", "bool")),
    "vconcat": (lambda m, a, b: m.vconcat([a, b]), ("float16", "int64", "bool")),
}


@pytest.mark.parametrize("name", sorted(PAIR_OPS))
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_pair_ops_new_depths(name, shape, view):
    call, dtypes = PAIR_OPS[name]
    for dt in dtypes:
        a, b = VIEWS[view](_img(shape, dt, 1)), VIEWS[view](_img(shape, dt, 2))
        want = call(cv2, a, b)
        if want is None:  # cv2 hands an empty result back as None
            assert numpy.asarray(call(mcv, a, b)).size == 0
            continue
        _same(call(mcv, a, b), want)


ONE_OPS = {
    "convertScaleAbs": (lambda m, a: m.convertScaleAbs(a, alpha=1.5, beta=3.0), ("float16", "int64", "bool")),
    "normalize": (lambda m, a: m.normalize(a, None, 0.0, 255.0, m.NORM_MINMAX), ("float16", "int64", "bool")),
    "normalize_u8": (lambda m, a: m.normalize(a, None, 0.0, 255.0, m.NORM_MINMAX, dtype=0), ("float16", "int64", "bool")),
    "norm": (lambda m, a: m.norm(a), ("float16", "int64", "bool")),
    "norm_l1": (lambda m, a: m.norm(a, m.NORM_L1), ("float16", "int64", "bool")),
    "mean": (lambda m, a: m.mean(a), ("float16", "int64")),
    "meanStdDev": (lambda m, a: m.meanStdDev(a), ("float16", "int64")),
    "split": (lambda m, a: tuple(m.split(a)), ("float16", "int64", "bool")),
    "merge": (lambda m, a: m.merge([a[..., 0], a[..., -1]]) if a.ndim == 3 else m.merge([a, a]), ("float16", "int64", "bool")),
    "bitwise_not": (lambda m, a: m.bitwise_not(a), ("float16", "int64", "bool")),
    "pow": (lambda m, a: m.pow(a, 2.0), ("float16", "int64")),
    "flip": (lambda m, a: m.flip(a, -1), ("int64", "bool")),
    "transpose": (lambda m, a: m.transpose(a), ("int64", "bool")),
    "rotate": (lambda m, a: m.rotate(a, m.ROTATE_90_CLOCKWISE), ("int64", "bool")),
    "copyMakeBorder": (lambda m, a: m.copyMakeBorder(a, 1, 2, 3, 4, m.BORDER_CONSTANT, value=(5, 0, 2, 1)),
                       ("int64", "bool")),
    "copyMakeBorder_reflect": (lambda m, a: m.copyMakeBorder(a, 2, 1, 0, 3, m.BORDER_REFLECT), ("bool",)),
}


@pytest.mark.parametrize("name", sorted(ONE_OPS))
@pytest.mark.parametrize("shape", [(13, 17), (13, 17, 3), (1, 9, 2), (9, 1, 4)], ids=str)
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_one_ops_new_depths(name, shape, view):
    call, dtypes = ONE_OPS[name]
    for dt in dtypes:
        a = VIEWS[view](_img(shape, dt, 3))
        _same(call(mcv, a), call(cv2, a))
        _same(call(mcv, mnp.asarray(numpy.ascontiguousarray(a))), call(cv2, a))


@pytest.mark.parametrize("dt", ["float16", "int64", "bool"])
def test_single_channel_stats_new_depths(dt):
    a = _img((11, 7), dt, 4)
    _same(mcv.countNonZero(a), cv2.countNonZero(a))
    _same(tuple(mcv.minMaxLoc(a)), cv2.minMaxLoc(a))


def test_int64_is_narrowed_to_int32_like_cv2():
    """cv2's binding keeps the low 32 bits of an int64 / uint64 array."""
    for dt in ("int64", "uint64"):
        a = numpy.array([[2**40 + 5, 2**35, 2**31, 7, 3000000000]], dtype=dt)
        for call in (lambda m: m.flip(a, 1), lambda m: m.add(a, a), lambda m: m.transpose(a),
                     lambda m: m.convertScaleAbs(a)):
            _same(call(mcv), call(cv2))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "absdiff", "min", "max", "bitwise_and", "bitwise_or"])
@pytest.mark.parametrize("scalar", [1 << 40, float("nan"), 2**31, 2**31 - 1, 1e10, -(2**33), 7.5])
@pytest.mark.parametrize("ch", [1, 3])
def test_out_of_range_scalars_follow_cvround(name, scalar, ch):
    """cv2 rounds a Scalar for an integer image with cvRound: INT_MIN when out of int32's range."""
    a = _img((5, 6) if ch == 1 else (5, 6, ch), "uint8", 5)
    _same(getattr(mcv, name)(a, scalar), getattr(cv2, name)(a, scalar))


@pytest.mark.parametrize("dtype", [7, 99, 42 & 7, 9])
def test_output_depth_codes(dtype):
    a, b = _img((4, 5, 3), "uint8", 6), _img((4, 5, 3), "uint8", 7)
    for name in ("add", "subtract", "multiply", "divide"):
        _same(getattr(mcv, name)(a, b, dtype=dtype), getattr(cv2, name)(a, b, dtype=dtype))
    _same(mcv.addWeighted(a, 0.5, b, 0.25, 1.0, dtype=dtype), cv2.addWeighted(a, 0.5, b, 0.25, 1.0, dtype=dtype))


def test_none_int_arguments_are_zero_and_floats_refused():
    a = _img((5, 6, 3), "uint8", 8)
    _same(mcv.flip(a, None), cv2.flip(a, None))
    _same(mcv.rotate(a, None), cv2.rotate(a, None))
    _same(mcv.copyMakeBorder(a, None, 1, 2, 0, cv2.BORDER_REPLICATE), cv2.copyMakeBorder(a, None, 1, 2, 0, cv2.BORDER_REPLICATE))
    for call in (lambda m: m.flip(a, 1.0), lambda m: m.flip(a, 1 << 40), lambda m: m.copyMakeBorder(a, 1.5, 1, 1, 1, 0)):
        with pytest.raises(Exception):
            call(cv2)
        with pytest.raises(TypeError, match=r"^\[mnn\.cv\.(flip|copyMakeBorder)\]"):
            call(mcv)


@pytest.mark.parametrize("dt,ch", [("uint8", 5), ("float64", 5), ("float64", 2), ("int16", 3), ("float32", 5), ("uint8", 6)])
def test_transpose_element_size_limit(dt, ch):
    a = _img((4, 6, ch), dt, 9)
    try:
        want = cv2.transpose(a)
    except cv2.error:
        for call in (lambda: mcv.transpose(a), lambda: mcv.rotate(a, 0)):
            with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.(transpose|rotate)\]"):
                call()
        _same(mcv.rotate(a, cv2.ROTATE_180), cv2.rotate(a, cv2.ROTATE_180))  # a flip: any size
        return
    _same(mcv.transpose(a), want)


def test_mean_refuses_more_than_four_channels():
    a = _img((4, 6, 5), "uint8", 10)
    with pytest.raises(cv2.error):
        cv2.mean(a)
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.mean\]"):
        mcv.mean(a)


@pytest.mark.parametrize("dt", ["uint8", "uint16", "int16", "float32"])
@pytest.mark.parametrize("ch", [2, 5, 7])
@pytest.mark.parametrize("k", [3, 5, 7])
def test_median_blur_any_channel_count(dt, ch, k):
    a = _img((13, 17, ch), dt, 11)[:, ::-1]
    try:
        want = cv2.medianBlur(a, k)
    except cv2.error:
        with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.medianBlur\]"):
            mcv.medianBlur(a, k)
        return
    _same(mcv.medianBlur(a, k), want)


@pytest.mark.parametrize("n", [2, 4, 6, 8, 12, 3, 5, 11])
@pytest.mark.parametrize("sigma", [0.0, -1.0, 0.3, 1.0, 2.5])
@pytest.mark.parametrize("ktype", [cv2.CV_32F, cv2.CV_64F])
def test_gaussian_kernel_even_sizes(n, sigma, ktype):
    want = cv2.getGaussianKernel(n, sigma, ktype=ktype)
    got = numpy.asarray(mcv.getGaussianKernel(n, sigma, ktype=ktype))
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=1e-6 if ktype == cv2.CV_32F else 1e-13, atol=0)


@pytest.mark.parametrize("ddepth", [None, 99, 3])
def test_filter_ddepth_codes(ddepth):
    a = _img((9, 11, 3), "uint8", 12)
    _same(mcv.sqrBoxFilter(a, ddepth, (3, 3)), cv2.sqrBoxFilter(a, ddepth, (3, 3)))
    _same(mcv.boxFilter(a, ddepth, (3, 3)), cv2.boxFilter(a, ddepth, (3, 3)))


DRAW = {
    "line": lambda m, x: m.line(x, (1, 1), (10, 8), (255, 0, 128, 50), 2),
    "line_aa": lambda m, x: m.line(x, (1, 1), (10, 8), (200, 7, 1, 0), 1, m.LINE_AA),
    "circle": lambda m, x: m.circle(x, (6, 6), 4, (255, 0, 128, 50), -1),
    "rectangle": lambda m, x: m.rectangle(x, (1, 1), (10, 8), (3.5, 0, 0.25, 1), 1),
    "ellipse": lambda m, x: m.ellipse(x, (6, 6), (4, 3), 30.0, 0.0, 360.0, (255, 0, 128, 50), 1),
    "fillPoly": lambda m, x: m.fillPoly(x, [numpy.array([[0, 0], [9, 1], [5, 11]], numpy.int32)], (9, 0, 255, 1)),
    "polylines": lambda m, x: m.polylines(x, [numpy.array([[0, 0], [9, 1], [5, 11]], numpy.int32)], True, (1, 2, 3, 4), 2),
    "drawMarker": lambda m, x: m.drawMarker(x, (5, 5), (255, 0, 0, 0), m.MARKER_STAR, 7),
}


@pytest.mark.parametrize("name", sorted(DRAW))
@pytest.mark.parametrize("dt", ["float16", "bool"])
@pytest.mark.parametrize("ch", [1, 2, 3, 4])
def test_drawing_on_half_and_bool_images(name, dt, ch):
    base = _img((13, 17) if ch == 1 else (13, 17, ch), dt, 13)
    want, got, got_m = base.copy(), base.copy(), mnp.asarray(base.copy())
    DRAW[name](cv2, want)
    assert DRAW[name](mcv, got) is got
    DRAW[name](mcv, got_m)
    _same(got, want)
    _same(got_m, want)


@pytest.mark.parametrize("call", [
    lambda m, x: m.arrowedLine(x, (1, 1), (10, 8), (255, 0, 0), 1, tipLength=float("nan")),
    lambda m, x: m.arrowedLine(x, (1, 1), (10, 8), (255, 0, 0), 1, tipLength=1e9),
    lambda m, x: m.ellipse(x, (6, 6), (4, 3), float("nan"), 0.0, 360.0, (255, 0, 0), 1),
    lambda m, x: m.drawMarker(x, (5, 5), (255, 0, 0), m.MARKER_CROSS, -3),
    lambda m, x: m.drawMarker(x, (5, 5), (255, 0, 0), m.MARKER_SQUARE, -7),
    lambda m, x: m.line(x, (1, 1), (10, 8), None, 2),
])
def test_drawing_odd_parameters_as_cv2(call):
    want, got = numpy.zeros((13, 17, 3), numpy.uint8), numpy.zeros((13, 17, 3), numpy.uint8)
    call(cv2, want)
    call(mcv, got)
    _same(got, want)


def test_refused_like_cv2():
    """What cv2 refuses, mnn refuses too (with its own message)."""
    img8 = _img((6, 7), "int8", 14)
    M = numpy.array([[0.9, 0.1, 1.5], [-0.1, 0.95, 2.0]])
    cases = [
        ("pyrDown", lambda m: m.pyrDown(img8)),
        ("pyrUp", lambda m: m.pyrUp(_img((6, 7), "uint8", 1), borderType=m.BORDER_DEFAULT | m.BORDER_ISOLATED)),
        ("warpAffine", lambda m: m.warpAffine(img8, M, (5, 4))),
        ("warpAffine", lambda m: m.warpAffine(_img((6, 7), "uint8", 1), numpy.array([[1, 0, 2], [0, 1, 3]], numpy.int32), (5, 4))),
        ("getAffineTransform", lambda m: m.getAffineTransform(numpy.float64([[0, 0], [1, 0], [0, 1]]), numpy.float32([[0, 0], [1, 0], [0, 1]]))),
        ("invertAffineTransform", lambda m: m.invertAffineTransform(numpy.array([[1, 0, 2], [0, 1, 3]], numpy.int32))),
        ("norm", lambda m: m.norm(_img((4, 4), "uint8", 1), 99)),
        ("merge", lambda m: m.merge([numpy.zeros((0, 0), numpy.uint8)] * 2)),
        ("normalize", lambda m: m.normalize(_img((4, 4, 3), "uint8", 1), None, 0, 255, m.NORM_MINMAX, mask=numpy.ones((4, 4), numpy.uint8))),
        ("calcHist", lambda m: m.calcHist([_img((4, 4), "int32", 1)], [0], None, [4], [0, 256])),
        ("Sobel", lambda m: m.Sobel(_img((6, 7), "uint8", 1), 99, 1, 0)),
        ("boxFilter", lambda m: m.boxFilter(_img((6, 7), "uint8", 1), 1 << 40, (3, 3))),
    ]
    for fn, call in cases:
        with pytest.raises(Exception):
            call(cv2)
        with pytest.raises(Exception, match=rf"^\[mnn\.cv\.{fn}\]"):
            call(mcv)


def test_warp_int8_nearest_and_calchist_empty():
    img8 = _img((6, 7, 3), "int8", 15)
    M = numpy.array([[0.9, 0.1, 1.5], [-0.1, 0.95, 2.0]])
    _same(mcv.warpAffine(img8, M, (9, 7), flags=cv2.INTER_NEAREST), cv2.warpAffine(img8, M, (9, 7), flags=cv2.INTER_NEAREST))
    e = numpy.zeros((0, 0), numpy.uint8)
    _same(mcv.calcHist([e], [0], None, [16], [0, 256]), cv2.calcHist([e], [0], None, [16], [0, 256]))
    h = _img((9, 11, 3), "float16", 16)
    _same(mcv.inRange(h, (10.5, 20, 30), (150, 160.25, 170)), cv2.inRange(h, (10.5, 20, 30), (150, 160.25, 170)))
