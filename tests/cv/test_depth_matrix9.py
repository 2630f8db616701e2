"""Issue 5's depth x channel grid: every image function of mnn.cv against cv2 on a random odd-size
image (23x37: SIMD bodies plus scalar tails) of every depth (uint8, int8, uint16, int16, int32,
float32, float64) and every channel count (1-4).

Where cv2 accepts the combination, mnn must give cv2's answer: exactly on integers (within 1 only
where another test documents cv2's own rounding, TOL1 below) and within 1e-5 of the output's
magnitude on floats. Where cv2 raises, mnn must raise a `[mnn.cv.func]` error too. Known
disagreements are strict xfails (KNOWN), each naming what differs, so a fix turns them red.

cv2 5.0 itself corrupts its heap on sqrt/exp/log of an integer image and returns garbage for
pow(integer image, 0.5): those calls are never made; mnn's rejection (sqrt/exp/log) is checked
alone, and pow is gridded on integer powers."""
import zlib

import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as cv  # noqa: E402

DEPTHS = ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"]
CNS = [1, 2, 3, 4]
H, W = 23, 37


def image(name, dtype, cn):
    # seeded by the case id, so a case's data is the same whichever tests are selected
    rng = numpy.random.default_rng(zlib.crc32(f"{name}-{dtype}-{cn}".encode()))
    shape = (H, W) if cn == 1 else (H, W, cn)
    if numpy.dtype(dtype).kind in "iu":
        info = numpy.iinfo(dtype)
        return rng.integers(max(info.min, -3000), min(info.max, 3000) + 1, shape).astype(dtype)
    return (rng.standard_normal(shape) * 50).astype(dtype)


def other(a):
    return numpy.ascontiguousarray(a[::-1, ::-1])


K3 = numpy.array([[0, 1, 0], [1, -3, 2], [0, 1, 1]], numpy.float32) / 4
M_AFF = numpy.array([[0.9, 0.2, 3.5], [-0.15, 1.1, -2.25]])
M_PER = numpy.array([[0.9, 0.1, 2.0], [-0.05, 1.05, 1.0], [1e-4, 2e-4, 1.0]])
_gx, _gy = numpy.meshgrid(numpy.linspace(-2, W + 1, W), numpy.linspace(-1, H + 2, H))
MX = (_gx + 0.37 * numpy.sin(_gy)).astype(numpy.float32)
MY = (_gy + 0.21 * numpy.cos(_gx)).astype(numpy.float32)
ONES33 = numpy.ones((3, 3), numpy.uint8)


POLY = numpy.int32([[3, 2], [33, 5], [25, 20], [6, 17]])


def _contours(m, a, mode):
    # a binary picture of a in a's own depth; contours as lists (cv2 gives a tuple of arrays)
    b = (numpy.asarray(a if a.ndim == 2 else a[..., 0]) > 10).astype(a.dtype)
    cs, h = m.findContours(b, mode, m.CHAIN_APPROX_SIMPLE)
    return [numpy.asarray(c) for c in cs], h


def _nonneg(a):
    # |a| in a's own dtype (int8's -128 has no positive twin: lifted to -127 first)
    return numpy.abs(numpy.maximum(a, -127)) if a.dtype.kind == "i" else numpy.abs(a)


def _scalar(cn, v):
    return (v,) * cn if cn > 1 else v


# name -> f(module, image, cn); the same call is made on cv2 and on mnn.cv
CASES = {
    "resize_nearest": lambda m, a, cn: m.resize(a, (51, 17), interpolation=m.INTER_NEAREST),
    "resize_nearest_exact": lambda m, a, cn: m.resize(a, (51, 17), interpolation=m.INTER_NEAREST_EXACT),
    "resize_linear": lambda m, a, cn: m.resize(a, (51, 17), interpolation=m.INTER_LINEAR),
    "resize_cubic": lambda m, a, cn: m.resize(a, (51, 17), interpolation=m.INTER_CUBIC),
    "resize_area_down": lambda m, a, cn: m.resize(a, (13, 9), interpolation=m.INTER_AREA),
    "resize_area_up": lambda m, a, cn: m.resize(a, (51, 31), interpolation=m.INTER_AREA),
    "resize_lanczos": lambda m, a, cn: m.resize(a, (51, 17), interpolation=m.INTER_LANCZOS4),
    "warpAffine_linear": lambda m, a, cn: m.warpAffine(a, M_AFF, (41, 29)),
    "warpAffine_nearest": lambda m, a, cn: m.warpAffine(a, M_AFF, (41, 29), flags=m.INTER_NEAREST),
    "warpAffine_cubic": lambda m, a, cn: m.warpAffine(a, M_AFF, (41, 29), flags=m.INTER_CUBIC),
    "warpAffine_replicate": lambda m, a, cn: m.warpAffine(a, M_AFF, (41, 29), borderMode=m.BORDER_REPLICATE),
    "warpPerspective_linear": lambda m, a, cn: m.warpPerspective(a, M_PER, (41, 29)),
    "warpPerspective_nearest": lambda m, a, cn: m.warpPerspective(a, M_PER, (41, 29), flags=m.INTER_NEAREST),
    "remap_linear": lambda m, a, cn: m.remap(a, MX, MY, m.INTER_LINEAR),
    "remap_nearest": lambda m, a, cn: m.remap(a, MX, MY, m.INTER_NEAREST),
    "remap_cubic": lambda m, a, cn: m.remap(a, MX, MY, m.INTER_CUBIC),
    "flip": lambda m, a, cn: [m.flip(a, c) for c in (0, 1, -1)],
    "rotate": lambda m, a, cn: [m.rotate(a, c) for c in (0, 1, 2)],
    "transpose": lambda m, a, cn: m.transpose(a),
    "copyMakeBorder": lambda m, a, cn: [m.copyMakeBorder(a, 2, 3, 4, 1, b, value=(7, 8, 9, 10)) for b in range(5)],
    "getRectSubPix": lambda m, a, cn: m.getRectSubPix(a, (7, 5), (10.3, 8.6)),
    "pyrDown": lambda m, a, cn: m.pyrDown(a),
    "pyrUp": lambda m, a, cn: m.pyrUp(a),
    "blur": lambda m, a, cn: m.blur(a, (3, 5)),
    "boxFilter": lambda m, a, cn: m.boxFilter(a, -1, (5, 3), normalize=False),
    "sqrBoxFilter": lambda m, a, cn: m.sqrBoxFilter(a, -1, (3, 3)),
    "GaussianBlur": lambda m, a, cn: m.GaussianBlur(a, (5, 5), 1.3),
    "medianBlur3": lambda m, a, cn: m.medianBlur(a, 3),
    "medianBlur5": lambda m, a, cn: m.medianBlur(a, 5),
    "medianBlur7": lambda m, a, cn: m.medianBlur(a, 7),
    "bilateralFilter": lambda m, a, cn: m.bilateralFilter(a, 5, 30, 3),
    "filter2D": lambda m, a, cn: m.filter2D(a, -1, K3),
    "filter2D_to_f32": lambda m, a, cn: m.filter2D(a, m.CV_32F, K3),
    "sepFilter2D": lambda m, a, cn: m.sepFilter2D(a, -1, numpy.array([0.25, 0.5, 0.25]),
                                                  numpy.array([-0.5, 0, 0.5, 1.0, 0.25])),
    "Sobel": lambda m, a, cn: m.Sobel(a, -1, 1, 0),
    "Sobel_to_f32_k5": lambda m, a, cn: m.Sobel(a, m.CV_32F, 1, 1, ksize=5),
    "Sobel_to_16s": lambda m, a, cn: m.Sobel(a, m.CV_16S, 0, 1),
    "Scharr_to_f64": lambda m, a, cn: m.Scharr(a, m.CV_64F, 0, 1),
    "Laplacian": lambda m, a, cn: m.Laplacian(a, -1),
    "Laplacian_to_f32_k3": lambda m, a, cn: m.Laplacian(a, m.CV_32F, ksize=3),
    "erode": lambda m, a, cn: m.erode(a, numpy.ones((3, 5), numpy.uint8)),
    "dilate_ellipse_x2": lambda m, a, cn: m.dilate(a, m.getStructuringElement(m.MORPH_ELLIPSE, (5, 5)), iterations=2),
    "morph_open": lambda m, a, cn: m.morphologyEx(a, m.MORPH_OPEN, ONES33),
    "morph_close": lambda m, a, cn: m.morphologyEx(a, m.MORPH_CLOSE, ONES33),
    "morph_gradient": lambda m, a, cn: m.morphologyEx(a, m.MORPH_GRADIENT, ONES33),
    "morph_tophat": lambda m, a, cn: m.morphologyEx(a, m.MORPH_TOPHAT, ONES33),
    "morph_blackhat": lambda m, a, cn: m.morphologyEx(a, m.MORPH_BLACKHAT, ONES33),
    "threshold": lambda m, a, cn: [m.threshold(a, 17, 200, t) for t in (0, 1, 2, 3, 4)],
    "threshold_otsu": lambda m, a, cn: m.threshold(a, 0, 255, m.THRESH_BINARY | m.THRESH_OTSU),
    "threshold_triangle": lambda m, a, cn: m.threshold(a, 0, 255, m.THRESH_BINARY | m.THRESH_TRIANGLE),
    "adaptiveThreshold": lambda m, a, cn: m.adaptiveThreshold(a, 255, m.ADAPTIVE_THRESH_GAUSSIAN_C,
                                                              m.THRESH_BINARY, 5, 2),
    "inRange": lambda m, a, cn: m.inRange(a, _scalar(cn, -5), _scalar(cn, 60)),
    "equalizeHist": lambda m, a, cn: m.equalizeHist(a),
    "calcHist": lambda m, a, cn: m.calcHist([a], [0], None, [16], [-100, 100]),
    "CLAHE": lambda m, a, cn: m.createCLAHE(2.0, (4, 4)).apply(a),
    "Canny": lambda m, a, cn: m.Canny(a, 50, 150),
    "split": lambda m, a, cn: list(m.split(a)),
    "merge": lambda m, a, cn: m.merge([a, other(a)]),
    "add": lambda m, a, cn: m.add(a, other(a)),
    "subtract": lambda m, a, cn: m.subtract(a, other(a)),
    "multiply": lambda m, a, cn: m.multiply(a, other(a), scale=0.5),
    "divide": lambda m, a, cn: m.divide(a, other(a)),
    "absdiff": lambda m, a, cn: m.absdiff(a, other(a)),
    "addWeighted": lambda m, a, cn: m.addWeighted(a, 0.3, other(a), 0.6, 2.5),
    "convertScaleAbs": lambda m, a, cn: m.convertScaleAbs(a, alpha=1.7, beta=-3),
    "normalize_minmax": lambda m, a, cn: m.normalize(a, None, 0, 255, m.NORM_MINMAX),
    "normalize_l2_to_f32": lambda m, a, cn: m.normalize(a, None, 100, 0, m.NORM_L2, dtype=m.CV_32F),
    "minMaxLoc": lambda m, a, cn: m.minMaxLoc(a),
    "mean": lambda m, a, cn: m.mean(a),
    "meanStdDev": lambda m, a, cn: m.meanStdDev(a),
    "countNonZero": lambda m, a, cn: m.countNonZero(a),
    "LUT": lambda m, a, cn: m.LUT(a, numpy.arange(256, dtype=numpy.uint8)[::-1].copy()),
    "bitwise": lambda m, a, cn: [m.bitwise_and(a, other(a)), m.bitwise_or(a, other(a)),
                                 m.bitwise_xor(a, other(a)), m.bitwise_not(a)],
    "magnitude": lambda m, a, cn: m.magnitude(a, other(a)),
    "phase": lambda m, a, cn: m.phase(a, other(a)),
    "cartToPolar": lambda m, a, cn: m.cartToPolar(a, other(a), angleInDegrees=True),
    "sqrt": lambda m, a, cn: m.sqrt(numpy.abs(a)),
    "exp": lambda m, a, cn: m.exp(a / 20 if a.dtype.kind == "f" else a),
    "log": lambda m, a, cn: m.log(numpy.abs(a) + 1),
    # values within +-40 so that cv2's int32 intermediate never wraps (test_pow_integer_overflow)
    "pow": lambda m, a, cn: [m.pow(numpy.clip(a, -40, 40).astype(a.dtype), p) for p in (0, 1, 2, 3)],
    "pow_fractional": lambda m, a, cn: m.pow(_nonneg(a), 0.5),
    "hconcat": lambda m, a, cn: m.hconcat([a, a]),
    "vconcat": lambda m, a, cn: m.vconcat([a, other(a)]),
    # non-negative mass: cv2's float32 path returns NaN nu3x for a negative m00 (its float64 path does not)
    "moments": lambda m, a, cn: m.moments(numpy.abs(a)),
    "boundingRect": lambda m, a, cn: m.boundingRect(a),
    "blobFromImage": lambda m, a, cn: m.dnn.blobFromImage(a, 0.5, (17, 13), _scalar(cn, 3), swapRB=cn >= 3),
    "inRange_fractional_bounds": lambda m, a, cn: m.inRange(a, _scalar(cn, -5.5), _scalar(cn, 60.5)),
    "findContours": lambda m, a, cn: _contours(m, a, m.RETR_CCOMP),
    "findContours_floodfill": lambda m, a, cn: _contours(m, a, m.RETR_FLOODFILL),
    "connectedComponents": lambda m, a, cn: m.connectedComponents((a > 10).astype(a.dtype)),
    "connectedComponentsWithStats": lambda m, a, cn: m.connectedComponentsWithStats((a > 10).astype(a.dtype), connectivity=4),
    "draw_line_circle_rect": lambda m, a, cn: [m.line(a.copy(), (2, 3), (35, 19), _scalar(4, 77), 2),
                                               m.circle(a.copy(), (18, 11), 8, _scalar(4, 99), -1),
                                               m.rectangle(a.copy(), (3, 4), (30, 20), _scalar(4, 55), 1, m.LINE_4)],
    "draw_ellipse_polys": lambda m, a, cn: [m.ellipse(a.copy(), (18, 11), (12, 6), 30, 0, 270, _scalar(4, 66), 2),
                                            m.fillPoly(a.copy(), [POLY], _scalar(4, 44)),
                                            m.polylines(a.copy(), [POLY], True, _scalar(4, 88), 1),
                                            m.fillConvexPoly(a.copy(), POLY[:3], _scalar(4, 33)),
                                            m.arrowedLine(a.copy(), (30, 2), (4, 20), _scalar(4, 22), 1)],
    "draw_aa": lambda m, a, cn: [m.line(a.copy(), (2, 3), (35, 19), _scalar(4, 77), 2, m.LINE_AA),
                                 m.circle(a.copy(), (18, 11), 8, _scalar(4, 99), 1, m.LINE_AA)],
    "drawContours": lambda m, a, cn: m.drawContours(a.copy(), [POLY.reshape(-1, 1, 2)], -1, _scalar(4, 11), 2),
    "cvtColor_gray": lambda m, a, cn: m.cvtColor(a, {1: m.COLOR_GRAY2BGR, 2: m.COLOR_BGR5652BGR,
                                                     3: m.COLOR_BGR2GRAY, 4: m.COLOR_BGRA2GRAY}[cn]),
    "cvtColor_hsv": lambda m, a, cn: m.cvtColor(a, m.COLOR_BGR2HSV),
    "cvtColor_ycrcb": lambda m, a, cn: m.cvtColor(a, m.COLOR_BGR2YCrCb),
    "cvtColor_xyz": lambda m, a, cn: m.cvtColor(a, m.COLOR_BGR2XYZ),
    "cvtColor_lab": lambda m, a, cn: m.cvtColor(a, m.COLOR_BGR2Lab),
}

# cv2 crashes (heap corruption) or returns garbage on these for integer images: never call it there
FLOAT_ONLY_IN_CV2 = {"sqrt", "exp", "log", "pow_fractional"}

# within 1 on integers where existing tests document cv2's own (IPP or fixed-point) rounding:
# tests/cv/test_geometry.py (_exact_resize; getRectSubPix of one channel, which cv2 hands to IPP),
# test_filters.py (test_gaussian_other_depths), test_threshold.py (test_bilateral). Warps and
# addWeighted are exact on every depth (test_warp10.py, test_arith10.py).
TOL1 = {("resize_linear", d) for d in ("uint16", "int16")} | \
       {("resize_cubic", d) for d in ("uint8", "uint16", "int16")} | \
       {("getRectSubPix", "uint8"), ("GaussianBlur", "uint16"), ("bilateralFilter", "uint8")}
# floats: 1e-5 of the output's magnitude; IPP's float resize is documented at 2e-5 (test_geometry)
FTOL = {"resize_linear": 2e-5, "resize_cubic": 2e-5}
# a float output of a 16-bit resize: blobFromImage resizes in the input depth (cv2's IPP 16-bit
# LINEAR, within 1 as above), then scales by 0.5
ATOL = {("blobFromImage", "uint16"): 0.5, ("blobFromImage", "int16"): 0.5}

KNOWN = {}


def _cmp(got, want, tol, ftol, where="out", atol=0.0):
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), where
        for k in want:
            _cmp(got[k], want[k], tol, ftol, f"{where}[{k}]", atol)
        return
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), (where, type(got), len(got))
        for i, (g, w) in enumerate(zip(got, want)):
            _cmp(g, w, tol, ftol, f"{where}[{i}]", atol)
        return
    if isinstance(want, (int, float)):
        assert abs(float(got) - float(want)) <= ftol * max(1.0, abs(float(want))), (where, got, want)
        return
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (where, g.shape, want.shape, g.dtype, want.dtype)
    if want.dtype.kind in "iub":
        d = numpy.abs(g.astype(numpy.float64) - want.astype(numpy.float64))
        assert d.max(initial=0) <= tol, f"{where}: max diff {d.max()} on {int((d > 0).sum())} of {d.size}"
        return
    gf, wf = g.astype(numpy.float64), want.astype(numpy.float64)
    assert numpy.array_equal(numpy.isnan(gf), numpy.isnan(wf)), f"{where}: NaN positions differ"
    finite = numpy.isfinite(wf)
    scale = max(1.0, float(numpy.abs(wf[finite]).max(initial=0)))
    numpy.testing.assert_allclose(gf, wf, rtol=ftol, atol=max(atol, ftol * scale), equal_nan=True, err_msg=where)


def _check_one(name, dtype, cn):
    f = CASES[name]
    a = image(name, dtype, cn)
    if name == "pow_fractional" and a.dtype.kind != "f":
        # cv2's documented meaning: the power in floating point, rounded and saturated
        want = numpy.rint(numpy.sqrt(_nonneg(a).astype(numpy.float64)))
        _cmp(f(cv, a, cn), want.astype(a.dtype), 0, 0)
        return
    if name in FLOAT_ONLY_IN_CV2 and a.dtype.kind != "f":
        with pytest.raises(Exception, match=r"^\[mnn\.cv\."):
            f(cv, a, cn)
        return
    try:
        want = f(cv2, a, cn)
    except cv2.error:
        with pytest.raises(Exception, match=r"\[mnn\.cv\.") as info:
            f(cv, a, cn)
        assert not isinstance(info.value, (SystemError, MemoryError))
        return
    got = f(cv, a, cn)
    if name == "bitwise" and a.dtype.kind == "f":  # bit patterns (NaNs included) must match
        got = [numpy.asarray(g).view(f"u{a.itemsize}") for g in got]
        want = [w.view(f"u{a.itemsize}") for w in want]
    _cmp(got, want, 1 if (name, dtype) in TOL1 else 0, FTOL.get(name, 1e-5), atol=ATOL.get((name, dtype), 0.0))


# one test per (function, depth), channels looped inside: 4x fewer pytest items (CI's time budget).
# A KNOWN channel count must still fail (strict, like xfail(strict=True)); the others must pass.
@pytest.mark.parametrize("dtype", DEPTHS)
@pytest.mark.parametrize("name", list(CASES))
def test_matches_cv2_or_both_raise(name, dtype):
    known = []
    for cn in CNS:
        if (name, dtype, cn) not in KNOWN:
            _check_one(name, dtype, cn)
            continue
        try:
            _check_one(name, dtype, cn)
        except (Exception, pytest.fail.Exception):  # a wrong answer, a wrong raise or a missing raise
            known.append(f"c{cn}: {KNOWN[(name, dtype, cn)]}")
        else:
            pytest.fail(f"KNOWN[({name!r}, {dtype!r}, {cn})] now matches cv2: remove it from KNOWN")
    if known:
        pytest.xfail("; ".join(known))


@pytest.mark.parametrize("dtype", ["int16", "int32"])
def test_pow_integer_overflow_wraps_like_cv2(dtype):
    a = numpy.array([[-3000, -1291, 1291, 1626, 2999, 7]], numpy.int64)
    a = numpy.clip(a, numpy.iinfo(dtype).min, numpy.iinfo(dtype).max).astype(dtype)
    numpy.testing.assert_array_equal(numpy.asarray(cv.pow(a, 3)), cv2.pow(a, 3))


def test_equalize_hist_float32_scale():
    # a random 23x37 image whose float32 and float64 products round differently (a photo's do not:
    # tests/cv/test_threshold.py::test_equalize_hist)
    a = numpy.random.default_rng(1).integers(0, 256, (23, 37)).astype(numpy.uint8)
    numpy.testing.assert_array_equal(numpy.asarray(cv.equalizeHist(a)), cv2.equalizeHist(a))


def test_non_contiguous_views_across_depths():
    # the grid's inputs are contiguous; a strided crop of each depth must give the same answers
    for d in DEPTHS:
        for cn in (1, 3):
            a = image("view", d, cn)[1::2, 2:-1]
            for name in ("resize_area_down", "GaussianBlur", "flip", "copyMakeBorder", "minMaxLoc", "meanStdDev",
                         "Sobel_to_f32_k5", "threshold", "pyrDown"):
                try:
                    want = CASES[name](cv2, a, cn)
                except cv2.error:
                    continue
                _cmp(CASES[name](cv, a, cn), want, 1 if (name, d) in TOL1 else 0, FTOL.get(name, 1e-5))
