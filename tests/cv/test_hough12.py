"""Hough line and circle transforms (mnn/cv/_hough.py, kernels csrc/backends/cpu/simd/cv/hough.cpp) against cv2:
the same lines / segments, in the same order, with the same shapes and dtypes."""
import cv2
import numpy as np
import pytest

import mnn
import mnn.cv as mc
from tests.helpers import run_under_isa

skdata = pytest.importorskip("skimage.data")


def _same(ref, got):
    if ref is None:
        assert got is None
        return
    got = np.asarray(got)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)


def _synthetic():
    img = np.zeros((237, 311), np.uint8)
    cv2.line(img, (10, 20), (300, 200), 255, 1)
    cv2.line(img, (50, 230), (60, 5), 255, 1)
    cv2.line(img, (0, 100), (310, 100), 255, 1)
    cv2.line(img, (200, 10), (200, 150), 128, 1)
    return img


def _edges():
    return {
        "synthetic": _synthetic(),
        "camera": cv2.Canny(skdata.camera()[3:400, 5:371], 80, 200),
        "coins": cv2.Canny(skdata.coins(), 50, 150)[:, 1:],
        "view": cv2.Canny(skdata.camera(), 80, 200)[1:400:2, 3:500],  # non-contiguous
    }


STANDARD = [
    ((1, np.pi / 180, 100), {}), ((2, np.pi / 90, 60), {}),
    ((1.5, 0.013, 80), dict(min_theta=0.3, max_theta=2.5)), ((3, np.pi / 45, 30), {}),
    ((0.7, np.pi / 360, 50), {}), ((1, np.pi / 180, 50), dict(use_edgeval=True)),
    ((1, np.pi / 180, 100000), {}),
]


@pytest.mark.parametrize("which", ["synthetic", "camera", "coins", "view"])
@pytest.mark.parametrize("args,kw", STANDARD)
def test_hough_lines(which, args, kw):
    e = _edges()[which]
    _same(cv2.HoughLines(e, *args, **kw), mc.HoughLines(e, *args, **kw))
    _same(cv2.HoughLinesWithAccumulator(e, *args, **kw), mc.HoughLinesWithAccumulator(e, *args, **kw))


PROB = [(1, np.pi / 180, 50, None, 30, 5), (1, np.pi / 180, 20, None, 10, 3), (2, np.pi / 90, 40),
        (1.5, 0.02, 30, None, 20, 10), (1, np.pi / 180, 100000)]


@pytest.mark.parametrize("which", ["synthetic", "camera", "coins", "view"])
@pytest.mark.parametrize("args", PROB)
def test_hough_lines_p(which, args):
    e = _edges()[which]
    _same(cv2.HoughLinesP(e, *args), mc.HoughLinesP(e, *args))


def test_hough_keywords_and_known_lines():
    e = _synthetic()
    ref = cv2.HoughLinesP(e, rho=1, theta=np.pi / 180, threshold=40, minLineLength=50, maxLineGap=2)
    got = mc.HoughLinesP(e, rho=1, theta=np.pi / 180, threshold=40, minLineLength=50, maxLineGap=2)
    _same(ref, got)
    # the horizontal line y = 100 is found whole
    assert any(tuple(sorted([(s[0], s[1]), (s[2], s[3])])) == ((0, 100), (310, 100)) for s in np.asarray(got).tolist())
    lines = np.asarray(mc.HoughLines(e, 1, np.pi / 180, 150)).reshape(-1, 2)
    assert any(abs(r - 100) < 1 and abs(t - np.pi / 2) < 0.02 for r, t in lines.tolist())


def test_hough_threads_and_isa():
    e = _edges()["camera"]
    ref = cv2.HoughLinesP(e, 1, np.pi / 180, 20, None, 10, 3)
    for n in (1, 2):
        mnn.set_num_threads(n)
        _same(ref, mc.HoughLinesP(e, 1, np.pi / 180, 20, None, 10, 3))
        _same(cv2.HoughLines(e, 1, np.pi / 180, 60), mc.HoughLines(e, 1, np.pi / 180, 60))
    mnn.set_num_threads(0)
    code = (
        "import json, numpy as np, cv2, mnn.cv as mc\n"
        "from skimage import data\n"
        "e = cv2.Canny(data.camera()[3:400, 5:371], 80, 200)\n"
        "c = cv2.medianBlur(data.coins(), 5)\n"
        "print(json.dumps([np.asarray(mc.HoughLinesP(e, 1, np.pi/180, 20, None, 10, 3)).tolist(),\n"
        "                  np.asarray(mc.HoughLinesWithAccumulator(e, 1, np.pi/180, 60)).tolist(),\n"
        "                  np.asarray(mc.HoughCircles(c, 3, 1.5, 15, None, 120, 30, 10, 60)).tolist(),\n"
        "                  np.asarray(mc.HoughCircles(c, 4, 1.5, 10, None, 300, 0.9)).tolist()]))\n"
    )
    acc = cv2.HoughLinesWithAccumulator(e, 1, np.pi / 180, 60)
    circ = cv2.HoughCircles(cv2.medianBlur(skdata.coins(), 5), cv2.HOUGH_GRADIENT, 1.5, 15, None, 120, 30, 10, 60)
    old = cv2.getNumThreads()
    cv2.setNumThreads(1)
    alt = cv2.HoughCircles(cv2.medianBlur(skdata.coins(), 5), cv2.HOUGH_GRADIENT_ALT, 1.5, 10, None, 300, 0.9)
    cv2.setNumThreads(old)
    for isa in ("scalar", "avx2", "avx512"):
        segs, lines, circles, alts = run_under_isa(code, isa)
        np.testing.assert_array_equal(np.array(alts, np.float32), alt)
        np.testing.assert_array_equal(np.array(segs, np.int32), ref)
        np.testing.assert_array_equal(np.array(lines, np.float32), acc)
        np.testing.assert_array_equal(np.array(circles, np.float32), circ)


@pytest.mark.parametrize("call", [
    lambda: mc.HoughLines(np.zeros((20, 20, 3), np.uint8), 1, np.pi / 180, 10),
    lambda: mc.HoughLines(np.zeros((20, 20), np.float32), 1, np.pi / 180, 10),
    lambda: mc.HoughLines(np.zeros((20, 20), np.uint8), 0, np.pi / 180, 10),
    lambda: mc.HoughLines(np.zeros((20, 20), np.uint8), 1, -1.0, 10),
    lambda: mc.HoughLines(np.zeros((20, 20), np.uint8), 1, np.pi / 180, 10, None, 2, 2),
    lambda: mc.HoughLines(np.zeros((20, 20), np.uint8), 1, np.pi / 180, 10, min_theta=2.0, max_theta=1.0),
    lambda: mc.HoughLinesP(np.zeros((20, 20), np.int16), 1, np.pi / 180, 10),
    lambda: mc.HoughLinesP(None, 1, np.pi / 180, 10),
    lambda: mc.HoughLinesP(np.zeros((20, 20), np.uint8), 1, 0.0, 10),
    lambda: mc.HoughLinesP(np.zeros((20, 20), np.uint8), 1, np.pi / 180, 1.5),
])
def test_bad_input(call):
    with pytest.raises((mc.error, TypeError, ValueError)) as e:
        call()
    assert str(e.value).startswith("[mnn.cv.")


def _circles_image():
    img = np.full((241, 317), 30, np.uint8)
    for (x, y, r) in [(60, 70, 30), (200, 120, 50), (120, 190, 25), (270, 50, 20)]:
        cv2.circle(img, (x, y), r, 200, -1)
    return cv2.GaussianBlur(img, (5, 5), 1.5)


CIRCLE_ARGS = [
    (cv2.HOUGH_GRADIENT, 1, 20),
    (cv2.HOUGH_GRADIENT, 1.5, 15, None, 120, 30, 10, 60),
    (cv2.HOUGH_GRADIENT, 2, 30, None, 100, 40, 5, 0),
    (cv2.HOUGH_GRADIENT, 1, 10, None, 80, 20, 0, -1),  # centres only
    (cv2.HOUGH_GRADIENT, 1.2, 25, None, 60, 25, 15, 12),  # maxRadius <= minRadius: minRadius + 2
]


@pytest.mark.parametrize("which", ["synthetic", "coins", "coins_raw"])
@pytest.mark.parametrize("args", CIRCLE_ARGS)
def test_hough_circles(which, args):
    img = {"synthetic": _circles_image(), "coins": cv2.medianBlur(skdata.coins(), 5),
           "coins_raw": skdata.coins()[3:, 1:]}[which]
    _same(cv2.HoughCircles(img, *args), mc.HoughCircles(img, *args))


def test_hough_circles_known_and_keywords():
    img = _circles_image()
    kw = dict(method=cv2.HOUGH_GRADIENT, dp=1, minDist=20, param1=100, param2=20, minRadius=10, maxRadius=60)
    ref = cv2.HoughCircles(img, **kw)
    got = mc.HoughCircles(img, **kw)
    _same(ref, got)
    found = np.asarray(got)[0]
    for (x, y, r) in [(60, 70, 30), (200, 120, 50), (120, 190, 25), (270, 50, 20)]:
        assert np.min(np.hypot(found[:, 0] - x, found[:, 1] - y) + np.abs(found[:, 2] - r)) < 4
    view = np.ascontiguousarray(np.pad(img, 3))[3:-3:1, 3:-3]  # a non-contiguous view of the same pixels
    _same(ref, mc.HoughCircles(view, **kw))


def test_hough_circles_threads():
    img = cv2.medianBlur(skdata.coins(), 5)
    ref = cv2.HoughCircles(img, cv2.HOUGH_GRADIENT, 1.5, 15, None, 120, 30, 10, 60)
    for n in (1, 2):
        mnn.set_num_threads(n)
        _same(ref, mc.HoughCircles(img, cv2.HOUGH_GRADIENT, 1.5, 15, None, 120, 30, 10, 60))
    mnn.set_num_threads(0)


@pytest.mark.parametrize("call", [
    lambda: mc.HoughCircles(np.zeros((20, 20, 3), np.uint8), cv2.HOUGH_GRADIENT, 1, 10),
    lambda: mc.HoughCircles(np.zeros((20, 20), np.float32), cv2.HOUGH_GRADIENT, 1, 10),
    lambda: mc.HoughCircles(np.zeros((20, 20), np.uint8), cv2.HOUGH_GRADIENT, 0, 10),
    lambda: mc.HoughCircles(np.zeros((20, 20), np.uint8), cv2.HOUGH_GRADIENT, 1, 0),
    lambda: mc.HoughCircles(np.zeros((20, 20), np.uint8), cv2.HOUGH_GRADIENT, 1, 10, None, -1),
    lambda: mc.HoughCircles(np.zeros((20, 20), np.uint8), 7, 1, 10),
    lambda: mc.HoughCircles(np.zeros((20, 20), np.uint8), cv2.HOUGH_GRADIENT_ALT, 1, 10, None, 100, 1.5),
    lambda: mc.HoughCircles(np.zeros((20, 20), np.uint8), cv2.HOUGH_GRADIENT_ALT, 1, 10, None, -3, 0.5),
])
def test_circles_bad_input(call):
    with pytest.raises((mc.error, TypeError, ValueError)) as e:
        call()
    assert str(e.value).startswith("[mnn.cv.")


ALT_ARGS = [
    (cv2.HOUGH_GRADIENT_ALT, 1.5, 10, None, 300, 0.9),
    (cv2.HOUGH_GRADIENT_ALT, 1, 20, None, 100, 0.8, 5, 60),
    (cv2.HOUGH_GRADIENT_ALT, 2, 5, None, 150, 0.5),
    (cv2.HOUGH_GRADIENT_ALT, 1, 8, None, 120, 0.7, 40, 10),  # minRadius > maxRadius: swapped
]


@pytest.mark.parametrize("which", ["synthetic", "coins", "coins_raw"])
@pytest.mark.parametrize("args", ALT_ARGS)
def test_hough_circles_alt(which, args):
    # cv2 merges its per-thread results in completion order before sorting: one thread is its
    # deterministic answer
    img = {"synthetic": _circles_image(), "coins": cv2.medianBlur(skdata.coins(), 5),
           "coins_raw": skdata.coins()[3:, 1:]}[which]
    old = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        ref = cv2.HoughCircles(img, *args)
    finally:
        cv2.setNumThreads(old)
    _same(ref, mc.HoughCircles(img, *args))
