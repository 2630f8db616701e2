"""Regressions found by the differential audit (tools/cv_audit.py): each compares with cv2.

The audit calls cv2 and mnn.cv with the same arguments over a grid of dtypes, channel counts,
shapes, layouts and bad parameters; what it found wrong is pinned down here, plus a reduced run
of the audit itself on the functions it fixed.
"""
import importlib.util
import os

import cv2
import numpy
import pytest

import mnn.cv as mcv
import mnn.numpy as mnp

_RNG = numpy.random.default_rng(8)


def _img(shape, dtype=numpy.uint8):
    if numpy.dtype(dtype).kind == "f":
        return (_RNG.random(shape) * 200).astype(dtype)
    return _RNG.integers(0, 256, shape).astype(dtype)


def _eq(a, b, tol=0):
    a, b = numpy.asarray(a), numpy.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    assert numpy.abs(a.astype(numpy.float64) - b.astype(numpy.float64)).max(initial=0) <= tol


# ---- output arguments: cv2 fills dst (and returns it) when it has the result's shape and dtype ----

_X = _img((9, 11, 3))
_G = _img((9, 11))
_DST_CALLS = {
    "flip": (lambda m, d: m.flip(_X, 1, d), _X.shape, numpy.uint8),
    "add": (lambda m, d: m.add(_X, _X, d), _X.shape, numpy.uint8),
    "GaussianBlur": (lambda m, d: m.GaussianBlur(_X, (3, 3), 0, d), _X.shape, numpy.uint8),
    "bitwise_not": (lambda m, d: m.bitwise_not(_X, dst=d), _X.shape, numpy.uint8),
    "cvtColor": (lambda m, d: m.cvtColor(_X, cv2.COLOR_BGR2GRAY, d), _G.shape, numpy.uint8),
    "resize": (lambda m, d: m.resize(_X, (11, 9), d), _X.shape, numpy.uint8),
    "Sobel": (lambda m, d: m.Sobel(_G, cv2.CV_32F, 1, 0, d), _G.shape, numpy.float32),
    "Canny": (lambda m, d: m.Canny(_G, 50, 150, edges=d), _G.shape, numpy.uint8),
    "warpAffine": (lambda m, d: m.warpAffine(_X, numpy.float64([[1, 0, 1], [0, 1, 2]]), (11, 9), d),
                   _X.shape, numpy.uint8),
    "threshold": (lambda m, d: m.threshold(_G, 100, 255, cv2.THRESH_BINARY, d)[1], _G.shape, numpy.uint8),
}


@pytest.mark.parametrize("name", sorted(_DST_CALLS))
@pytest.mark.parametrize("kind", ["numpy", "mnn"])
def test_dst_argument_is_filled_and_returned(name, kind):
    call, shape, dtype = _DST_CALLS[name]
    ref_dst = numpy.zeros(shape, dtype)
    ref = call(cv2, ref_dst)
    assert ref is ref_dst  # what cv2 does
    dst = numpy.zeros(shape, dtype) if kind == "numpy" else mnp.zeros(shape, dtype=numpy.dtype(dtype).name)
    got = call(mcv, dst)
    assert got is dst
    _eq(dst, ref_dst)


@pytest.mark.parametrize("name", ["flip", "add", "GaussianBlur", "cvtColor"])
def test_dst_of_another_shape_or_dtype_is_left_alone(name):
    call, shape, dtype = _DST_CALLS[name]
    for wrong in (numpy.zeros((2, 2), numpy.float64), numpy.zeros(shape, numpy.float64)):
        ref_dst, dst = wrong.copy(), wrong.copy()
        ref, got = call(cv2, ref_dst), call(mcv, dst)
        assert ref is not ref_dst and got is not dst
        _eq(dst, ref_dst)
        _eq(got, ref)


@pytest.mark.parametrize("fn", ["add", "subtract", "bitwise_and", "bitwise_or"])
@pytest.mark.parametrize("kind", ["numpy", "mnn"])
def test_masked_ops_keep_dst_outside_the_mask(fn, kind):
    y = _img(_X.shape)
    mask = (_RNG.random(_X.shape[:2]) > 0.5).astype(numpy.uint8)
    init = _img(_X.shape)
    ref_dst = init.copy()
    getattr(cv2, fn)(_X, y, ref_dst, mask)
    dst = init.copy() if kind == "numpy" else mnp.asarray(init.copy())
    assert getattr(mcv, fn)(_X, y, dst, mask) is dst
    _eq(dst, ref_dst)


def test_masked_normalize_keeps_dst_outside_the_mask():
    mask = (_RNG.random(_G.shape) > 0.5).astype(numpy.uint8)
    init = _img(_G.shape)
    ref_dst, dst = init.copy(), init.copy()
    cv2.normalize(_G, ref_dst, 0, 255, cv2.NORM_MINMAX, mask=mask)
    mcv.normalize(_G, dst, 0, 255, cv2.NORM_MINMAX, mask=mask)
    _eq(dst, ref_dst)


def test_dst_in_place_on_the_source():
    a, b = _X.copy(), _X.copy()
    cv2.flip(a, 0, a)
    r = mcv.flip(b, 0, b)
    assert r is b
    _eq(b, a)


def test_read_only_dst_raises_a_named_error():
    d = numpy.zeros(_X.shape, numpy.uint8)
    d.flags.writeable = False
    with pytest.raises(ValueError, match=r"^\[mnn\.cv\.flip\] output array 'dst'"):
        mcv.flip(_X, 1, d)


# ---- a number is Scalar(v, 0, 0, 0) for min, max, bitwise ops and inRange's bounds ----

@pytest.mark.parametrize("fn", ["min", "max", "bitwise_and", "bitwise_or", "bitwise_xor", "add", "subtract"])
@pytest.mark.parametrize("ch", [1, 3, 4])
@pytest.mark.parametrize("value", [3.0, 200, (3.0, 5.0, 7.0, 9.0)])
def test_scalar_operand_matches_cv2(fn, ch, value):
    x = _img((5, 6, ch) if ch > 1 else (5, 6))
    _eq(getattr(mcv, fn)(x, value), getattr(cv2, fn)(x, value))


@pytest.mark.parametrize("ch", [1, 3, 4])
@pytest.mark.parametrize("bounds", [(10, 150), ((10,), (150,)), ((10, 20, 30, 40), (150, 160, 170, 180))])
def test_inrange_scalar_bounds_match_cv2(ch, bounds):
    x = _img((5, 6, ch) if ch > 1 else (5, 6))
    _eq(mcv.inRange(x, *bounds), cv2.inRange(x, *bounds))


# ---- morphology: a negative iteration count is one pass in cv2 ----

@pytest.mark.parametrize("fn", ["erode", "dilate"])
@pytest.mark.parametrize("iterations", [-3, -1, 0, 1, 2])
def test_morphology_iterations_match_cv2(fn, iterations):
    k = numpy.ones((3, 3), numpy.uint8)
    _eq(getattr(mcv, fn)(_X, k, iterations=iterations), getattr(cv2, fn)(_X, k, iterations=iterations))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_invert_affine_keeps_the_matrix_type(dtype):
    M = numpy.array([[0.9, 0.1, 1.5], [-0.1, 0.95, 2.0]], dtype)
    _eq(mcv.invertAffineTransform(M), cv2.invertAffineTransform(M), 1e-6)


@pytest.mark.parametrize("d", [2**40, -(2**40)])
def test_bilateral_huge_diameter_raises_instead_of_hanging(d):
    with pytest.raises(Exception):
        cv2.bilateralFilter(_X, d, 50, 50)
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.bilateralFilter\] d="):
        mcv.bilateralFilter(_X, d, 50, 50)


@pytest.mark.parametrize("fn", ["erode", "dilate"])
@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.float32])
def test_morphology_five_channels_default_border(fn, dtype):
    x = _img((9, 11, 5), dtype)
    k = numpy.ones((3, 3), numpy.uint8)
    _eq(getattr(mcv, fn)(x, k), getattr(cv2, fn)(x, k))


def test_inrange_five_channels_take_a_value_per_channel():
    x = _img((5, 6, 5))
    lo, hi = (10, 20, 30, 40, 50), (150, 160, 170, 180, 250)
    _eq(mcv.inRange(x, lo, hi), cv2.inRange(x, lo, hi))
    for bad in (10, (10, 20, 30, 40)):
        with pytest.raises(cv2.error):
            cv2.inRange(x, bad, hi)
        with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.inRange\] "):
            mcv.inRange(x, bad, hi)


@pytest.mark.parametrize("bounds", [(10.5, 150.5), (11.5, 149.5), (-3.7, 2.5), (float("nan"), 100), (1e300, 2)])
@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int16])
def test_inrange_rounds_bounds_like_cv2_on_integer_images(bounds, dtype):
    x = numpy.arange(256).reshape(16, 16).astype(dtype)
    _eq(mcv.inRange(x, *bounds), cv2.inRange(x, *bounds))


@pytest.mark.parametrize("thresh", [100.5, -3.5, 1e300, -1e300, float("nan")])
@pytest.mark.parametrize("kind", range(5))
def test_threshold_out_of_range_threshold_matches_cv2(thresh, kind):
    x = numpy.arange(256, dtype=numpy.uint8).reshape(16, 16)
    (rt, rd), (mt, md) = cv2.threshold(x, thresh, 255, kind), mcv.threshold(x, thresh, 255, kind)
    assert rt == mt
    _eq(md, rd)


def test_errors_raised_on_behalf_of_another_function_name_the_called_one(tmp_path):
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.imwrite\] .*\(in mnn\.cv\.imencode\)"):
        mcv.imwrite(str(tmp_path / "a.png"), _img((4, 5, 2)))
    with pytest.raises(MemoryError, match=r"^\[mnn\.cv\.resize\] "):
        mcv.resize(_X, (5, 2**40))


@pytest.mark.parametrize("ranges", [[256, 0], [float("nan"), 1.0], [5, 5]])
def test_calchist_rejects_empty_or_reversed_ranges(ranges):
    with pytest.raises(cv2.error):
        cv2.calcHist([_G], [0], None, [16], ranges)
    with pytest.raises(mcv.error, match=r"^\[mnn\.cv\.calcHist\] each range needs low < high"):
        mcv.calcHist([_G], [0], None, [16], ranges)


@pytest.mark.parametrize("ksize", [(1, 1), (2, 2), (1, 2), (4, 4), (8, 2), (16, 16), (3, 3), (2, 3), (6, 4)])
@pytest.mark.parametrize("ch", [1, 3])
def test_uint8_box_average_rounds_like_cv2(ksize, ch):
    # cv2 5 divides power-of-two windows with a shift whose rounding constant is n/2 + 1
    x = _img((31, 37, ch) if ch > 1 else (31, 37))
    _eq(mcv.blur(x, ksize), cv2.blur(x, ksize))
    _eq(mcv.boxFilter(x, -1, ksize, borderType=cv2.BORDER_CONSTANT), cv2.boxFilter(x, -1, ksize, borderType=cv2.BORDER_CONSTANT))


@pytest.mark.parametrize("d", [-1, 0, 5])
@pytest.mark.parametrize("sigma_space", [0.0, -2.0, 3.0])
@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.float32])
def test_bilateral_nonpositive_sigma_space_matches_cv2(d, sigma_space, dtype):
    x = _img((13, 17, 3), dtype)
    # exact where cv2 returns the image; a positive sigma is the usual within-1 of 8-bit rounding
    tol = 0 if sigma_space <= 0 else (1 if dtype == numpy.uint8 else 1e-3)
    _eq(mcv.bilateralFilter(x, d, 50.0, sigma_space), cv2.bilateralFilter(x, d, 50.0, sigma_space), tol)


# ---- a reduced run of the audit on the functions above: no crash, hang or wrong answer ----

def _audit_module():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "cv_audit.py")
    spec = importlib.util.spec_from_file_location("cv_audit", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_reduced_audit_finds_no_crash_or_wrong_answer():
    audit = _audit_module()
    names = ["flip", "add", "min", "bitwise_and", "inRange", "erode", "invertAffineTransform", "threshold",
             "line", "imwrite", "blur"]
    recs = audit.run_audit(names, quick=True, case_timeout=30.0)
    bad = [f"{r['cls']}: {r['name']}: {r['detail']}" for r in recs if r["cls"] in ("crash", "hang", "differ")]
    assert len(recs) > 200 and not bad, "\n".join(bad)


@pytest.mark.parametrize("sigma", [1e12, 3e9, float("inf")])
def test_gaussian_blur_huge_sigma_fails_like_cv2(sigma):
    # cv2 rounds the sigma-derived size with cvRound (INT_MIN when out of range) and asserts; mnn
    # once built a kernel of ~10^13 taps here and the process was killed for memory
    img = numpy.zeros((6, 7, 3), numpy.uint8)
    with pytest.raises(cv2.error):
        cv2.GaussianBlur(img, None, sigma)
    with pytest.raises(Exception, match=r"^\[mnn\.cv\.GaussianBlur\]"):
        mcv.GaussianBlur(img, None, sigma)
