"""mnn.cv.dnn non-maximum suppression (NMSBoxes, NMSBoxesBatched, NMSBoxesRotated, softNMSBoxes)
against cv2 5: exact index (and updated score) equality on clustered random boxes, ties, empty and
degenerate boxes, negative sizes, NaN scores and coordinates, eta < 1, top_k, 1 and 5000 boxes,
every input form (lists, numpy and mnn arrays of int / float32 / float64, non-contiguous views),
and the errors for bad input."""
import math

import cv2
import numpy
import pytest

import mnn.cv as cv
import mnn.numpy as mnp

RNG = numpy.random.default_rng(9)


def as_list(r):
    """A result as nested lists ((), cv2's empty answer, stays ())."""
    if isinstance(r, tuple):
        return tuple(as_list(x) for x in r)
    return numpy.asarray(r).tolist()


def check_same(got, want):
    if isinstance(want, tuple) and not want:
        assert got == ()
        return
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            check_same(g, w)
        return
    g = numpy.asarray(got)
    assert g.dtype == want.dtype and g.shape == want.shape
    assert g.tobytes() == want.tobytes()  # bit-exact (float32 updated scores too)


def clustered(n, integer=False, spread=4.0):
    """Boxes around a few centres, so that many overlap and suppression happens."""
    centres = RNG.random((max(1, n // 8), 2)) * 200
    xy = centres[RNG.integers(0, len(centres), n)] + RNG.normal(0, spread, (n, 2))
    wh = RNG.random((n, 2)) * 30 + 5
    b = numpy.concatenate([xy, wh], 1)
    return numpy.round(b).astype(numpy.int32) if integer else b


def scores_for(n, ties=False):
    s = RNG.random(n).astype(numpy.float32)
    return (numpy.round(s * 4) / 4).astype(numpy.float32) if ties else s


PARAMS = [(0.0, 0.5, 1.0, 0), (0.2, 0.3, 1.0, 0), (0.1, 0.7, 0.8, 0), (0.3, 0.9, 0.5, 0), (0.0, 0.4, 1.0, 5),
          (0.1, 0.0, 1.0, 0), (0.1, 1.0, 1.0, -3), (0.5, 0.45, 0.95, 40)]


@pytest.mark.parametrize("n", [1, 2, 9, 64, 301])
@pytest.mark.parametrize("params", PARAMS)
@pytest.mark.parametrize("integer", [False, True])
def test_nms_boxes_random(n, params, integer):
    b = clustered(n, integer)
    s = scores_for(n, ties=n % 2 == 1)
    want = cv2.dnn.NMSBoxes(b.tolist(), s.tolist(), *params)
    check_same(cv.dnn.NMSBoxes(b.tolist(), s.tolist(), *params), want)
    check_same(cv.dnn.NMSBoxes(b, s, *params), want)


def test_nms_boxes_5000():
    b = clustered(5000, spread=20)
    s = scores_for(5000)
    for params in [(0.1, 0.5), (0.0, 0.3, 0.9, 0), (0.2, 0.6, 1.0, 100)]:
        want = cv2.dnn.NMSBoxes(b.tolist(), s.tolist(), *params)
        assert len(want) > 10
        check_same(cv.dnn.NMSBoxes(b, s, *params), want)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64"])
def test_nms_boxes_input_forms(dtype):
    b = numpy.abs(clustered(40, integer=True)).clip(0, 120).astype(dtype)
    s = scores_for(40)
    want = cv2.dnn.NMSBoxes(b, s, 0.1, 0.4)
    check_same(cv.dnn.NMSBoxes(b, s, 0.1, 0.4), want)
    check_same(cv.dnn.NMSBoxes(mnp.asarray(b), mnp.asarray(s), 0.1, 0.4), want)  # mnn arrays
    check_same(cv.dnn.NMSBoxes([tuple(r) for r in b.tolist()], tuple(s.tolist()), 0.1, 0.4), want)
    check_same(cv.dnn.NMSBoxes(list(b), list(s), 0.1, 0.4), want)  # lists of numpy rows / scalars


def test_nms_boxes_non_contiguous_views():
    big = clustered(80)
    s = scores_for(80).astype(numpy.float64)
    view = numpy.asfortranarray(big)[::2]  # strided rows, column-major
    sv = s[::2]
    want = cv2.dnn.NMSBoxes(view.tolist(), sv.tolist(), 0.1, 0.4)
    check_same(cv.dnn.NMSBoxes(view, sv, 0.1, 0.4), want)
    m = mnp.asarray(big)[::2]
    check_same(cv.dnn.NMSBoxes(m, mnp.asarray(s)[::2], 0.1, 0.4), want)


def test_nms_boxes_degenerate():
    # zero-area boxes, negative widths / heights (both negative: a positive "area" that overlaps
    # nothing), boxes left of / above the origin, identical boxes, a box inside another
    b = [[0, 0, 0, 0], [0, 0, 0, 0], [5, 5, -3, -3], [5, 5, -3, -3], [-10, -10, 15, 15], [-12, -9, 15, 15],
         [0, 0, 10, 0], [1, 1, 4, 4], [0, 0, 10, 10], [0, 0, 10, 10], [2, 2, 3, 3], [-5, 3, -1, 4],
         [1e9, 1e9, 1e9, 1e9], [1.5e9, 1.5e9, 1e9, 1e9]]
    for s in [[0.9] * len(b), list(numpy.linspace(0.95, 0.1, len(b))), list(numpy.linspace(0.1, 0.95, len(b)))]:
        for nt in (0.0, 0.2, 0.5, 1.0):
            want = cv2.dnn.NMSBoxes(b, s, 0.05, nt)
            check_same(cv.dnn.NMSBoxes(b, s, 0.05, nt), want)


def test_nms_boxes_nan_and_inf():
    b = clustered(30)
    b[3, 0] = math.nan
    b[7, 2] = math.nan
    b[9, 1] = math.inf
    b[11, 3] = -math.inf
    s = scores_for(30)
    s[[2, 5, 17]] = numpy.nan
    s[6] = numpy.inf
    for params in [(0.1, 0.5), (0.0, 0.3, 0.9, 0), (0.0, 0.8, 1.0, 7)]:
        want = cv2.dnn.NMSBoxes(b.tolist(), s.tolist(), *params)
        check_same(cv.dnn.NMSBoxes(b, s, *params), want)


def test_nms_boxes_ties_keep_input_order():
    b = [[0, 0, 10, 10], [1, 1, 10, 10], [100, 100, 10, 10], [2, 2, 10, 10], [101, 101, 10, 10]]
    s = [0.5] * 5
    for tk in (0, 1, 2, 3):
        want = cv2.dnn.NMSBoxes(b, s, 0.1, 0.3, 1.0, tk)
        check_same(cv.dnn.NMSBoxes(b, s, 0.1, 0.3, 1.0, tk), want)


def test_nms_boxes_fractional_float32_thresholds():
    # IoU 0.195...: the float32 threshold and the float-rounded overlap decide, as in cv2
    b = [[0, 0, 1.4, 1.4], [0.6, 0.6, 1.4, 1.4]]
    for nt in (0.1, 0.19, 0.195, 0.1953, 0.2):
        check_same(cv.dnn.NMSBoxes(b, [0.9, 0.8], 0.1, nt), cv2.dnn.NMSBoxes(b, [0.9, 0.8], 0.1, nt))
    # a score equal to the threshold once rounded to float is not above it
    check_same(cv.dnn.NMSBoxes(b, [0.3, 0.30000001], 0.3, 0.5), cv2.dnn.NMSBoxes(b, [0.3, 0.30000001], 0.3, 0.5))


@pytest.mark.parametrize("empty", [[], (), None, numpy.zeros((0, 4)), numpy.zeros(0)])
def test_nms_empty(empty):
    scores = None if empty is None else []
    assert cv.dnn.NMSBoxes(empty, scores, 0.1, 0.5) == cv2.dnn.NMSBoxes(empty, scores, 0.1, 0.5) == ()
    assert cv.dnn.NMSBoxesBatched(empty, scores, scores, 0.1, 0.5) == ()
    assert cv2.dnn.NMSBoxesBatched(empty, scores, scores, 0.1, 0.5) == ()
    # all scores below the threshold: () as well
    assert cv.dnn.NMSBoxes([[0, 0, 1, 1]], [0.1], 0.5, 0.5) == cv2.dnn.NMSBoxes([[0, 0, 1, 1]], [0.1], 0.5, 0.5) == ()


@pytest.mark.parametrize("n", [1, 8, 70, 400])
@pytest.mark.parametrize("params", PARAMS[:6])
def test_nms_batched(n, params):
    b = clustered(n, integer=n % 2 == 0)
    s = scores_for(n, ties=n == 70)
    cls = RNG.integers(0, 4, n)
    if n > 1:
        cls[0] = -1  # negative ids shift the other way, as in cv2
    want = cv2.dnn.NMSBoxesBatched(b.tolist(), s.tolist(), cls.tolist(), *params)
    check_same(cv.dnn.NMSBoxesBatched(b.tolist(), s.tolist(), cls.tolist(), *params), want)
    check_same(cv.dnn.NMSBoxesBatched(b, s, cls.astype(numpy.int32), *params), want)
    # no score_threshold >= 0 check in cv2's batched variant
    check_same(cv.dnn.NMSBoxesBatched(b, s, cls, -0.5, 0.5), cv2.dnn.NMSBoxesBatched(b.tolist(), s.tolist(), cls.tolist(), -0.5, 0.5))


def rotated_set(n, nested=False):
    c = clustered(n, spread=6)
    ang = RNG.random(n) * 360 - 180
    rr = [((float(x), float(y)), (float(w), float(h)), float(a)) for (x, y, w, h), a in zip(c, ang)]
    if nested and n > 4:
        rr[1] = (rr[0][0], (rr[0][1][0] / 2, rr[0][1][1] / 2), rr[0][2])  # inside rr[0]: full overlap
        rr[2] = rr[0]  # identical
        rr[3] = (rr[0][0], rr[0][1], rr[0][2] + 90.0)  # the same centre turned
        rr[4] = ((5.0, 5.0), (0.0, 4.0), 10.0)  # empty
    return rr


@pytest.mark.parametrize("n", [1, 6, 40, 150])
@pytest.mark.parametrize("params", [(0.1, 0.3), (0.0, 0.5, 0.9, 0), (0.2, 0.05), (0.0, 0.7, 1.0, 10)])
def test_nms_rotated(n, params):
    rr = rotated_set(n, nested=True)
    s = scores_for(n, ties=n == 40).tolist()
    want = cv2.dnn.NMSBoxesRotated(rr, s, *params)
    check_same(cv.dnn.NMSBoxesRotated(rr, s, *params), want)


def test_rotated_overlap_full_and_none():
    from mnn import _core
    a = [10.0, 10.0, 8.0, 4.0, 30.0]
    assert _core.cv_nms_rotated_iou(a, a) == 1.0  # the same rect
    assert _core.cv_nms_rotated_iou(a, [10.0, 10.0, 2.0, 1.0, 30.0]) == 1.0  # one inside the other
    assert _core.cv_nms_rotated_iou(a, [100.0, 10.0, 8.0, 4.0, 30.0]) == 0.0  # apart
    assert _core.cv_nms_rotated_iou(a, [10.0, 10.0, 0.0, 4.0, 30.0]) == 0.0  # empty
    # a partial overlap agrees with cv2's polygon area to float rounding
    b = [12.0, 11.0, 8.0, 4.0, 75.0]
    _, pts = cv2.rotatedRectangleIntersection(((a[0], a[1]), (a[2], a[3]), a[4]), ((b[0], b[1]), (b[2], b[3]), b[4]))
    inter = cv2.contourArea(pts)
    assert _core.cv_nms_rotated_iou(a, b) == pytest.approx(inter / (32 + 32 - inter), rel=1e-5)


@pytest.mark.parametrize("n", [1, 5, 40, 200])
@pytest.mark.parametrize("method", [1, 2])
@pytest.mark.parametrize("args", [(0.1, 0.3, 0, 0.5), (0.0, 0.5, 0, 1.3), (0.3, 0.2, 7, 0.1), (0.05, 0.0, 3, 0.5)])
def test_soft_nms(n, method, args):
    b = clustered(n, integer=True)
    s = scores_for(n, ties=n == 40)
    st, nt, tk, sigma = args
    want = cv2.dnn.softNMSBoxes(b.tolist(), s.tolist(), st, nt, tk, sigma, method)
    check_same(cv.dnn.softNMSBoxes(b.tolist(), s.tolist(), st, nt, tk, sigma, method), want)
    check_same(cv.dnn.softNMSBoxes(b, s, st, nt, top_k=tk, sigma=sigma, method=method), want)


def test_soft_nms_defaults_and_edges():
    b = [[0, 0, 10, 10], [0, 0, 10, 10], [50, 50, 10, 10], [1, 1, 10, 10], [0, 0, 0, 0], [50000, 0, 50000, 40000],
         [50000, 0, 50000, 50000]]
    s = [0.9, 0.8, 0.7, 0.7, 0.6, 0.5, 0.45]
    check_same(cv.dnn.softNMSBoxes(b, s, 0.1, 0.5), cv2.dnn.softNMSBoxes(b, s, 0.1, 0.5))  # gaussian, sigma 0.5
    check_same(cv.dnn.softNMSBoxes(b, s, 0.1, 0.5, sigma=0.0), cv2.dnn.softNMSBoxes(b, s, 0.1, 0.5, sigma=0.0))
    s2 = [0.9, float("nan"), 0.7, 0.7, 0.6, 0.5, 0.45]
    check_same(cv.dnn.softNMSBoxes(b, s2, 0.0, 0.5), cv2.dnn.softNMSBoxes(b, s2, 0.0, 0.5))
    assert cv.dnn.softNMSBoxes([], [], 0.1, 0.5) == cv2.dnn.softNMSBoxes([], [], 0.1, 0.5) == ((), ())
    assert cv.dnn.SOFT_NMSMETHOD_SOFTNMS_LINEAR == cv2.dnn.SOFT_NMSMETHOD_SOFTNMS_LINEAR
    assert cv.dnn.SOFT_NMSMETHOD_SOFTNMS_GAUSSIAN == cv2.dnn.SOFT_NMSMETHOD_SOFTNMS_GAUSSIAN


BAD = [
    ("NMSBoxes", ([(0, 0, 1, 1)], [0.5, 0.6], 0.1, 0.5), cv.error, "bboxes.size"),
    ("NMSBoxes", ([(0, 0, 1)], [0.5], 0.1, 0.5), TypeError, "bboxes"),
    ("NMSBoxes", ([(0, 0, 1, "a")], [0.5], 0.1, 0.5), TypeError, "bboxes"),
    ("NMSBoxes", ([(True, 0, 1, 1)], [0.5], 0.1, 0.5), TypeError, "bboxes"),
    ("NMSBoxes", (numpy.zeros((3, 5)), [0.5] * 3, 0.1, 0.5), TypeError, r"\(N, 4\)"),
    ("NMSBoxes", (numpy.zeros((3, 4)), numpy.zeros((3, 1)), 0.1, 0.5), TypeError, "scores"),
    ("NMSBoxes", (numpy.zeros((3, 4), bool), [0.5] * 3, 0.1, 0.5), TypeError, "bboxes"),
    ("NMSBoxes", (5, [0.5], 0.1, 0.5), TypeError, "bboxes"),
    ("NMSBoxes", ([(0, 0, 1, 1)], ["x"], 0.1, 0.5), TypeError, "scores"),
    ("NMSBoxes", ([(0, 0, 1, 1)], [0.5], -0.1, 0.5), cv.error, "score_threshold"),
    ("NMSBoxes", ([(0, 0, 1, 1)], [0.5], math.nan, 0.5), cv.error, "score_threshold"),
    ("NMSBoxes", ([(0, 0, 1, 1)], [0.5], 0.1, -0.5), cv.error, "nms_threshold"),
    ("NMSBoxes", ([(0, 0, 1, 1)], [0.5], 0.1, 0.5, 0.0), cv.error, "eta"),
    ("NMSBoxes", ([(0, 0, 1, 1)], [0.5], "a", 0.5), TypeError, "score_threshold"),
    ("NMSBoxes", ([(0, 0, 1, 1)], [0.5], 0.1, 0.5, 1.0, 2.5), TypeError, "top_k"),
    ("NMSBoxesRotated", ([(0, 0, 1, 1, 0)], [0.5], 0.1, 0.5), TypeError, "bboxes"),
    ("NMSBoxesRotated", ([((0, 0), (1, 1), 0)], [0.5, 0.2], 0.1, 0.5), cv.error, "bboxes.size"),
    ("NMSBoxesRotated", ([((0, 0), (1, 1), 0)], [0.5], -1.0, 0.5), cv.error, "score_threshold"),
    ("NMSBoxesBatched", ([(0, 0, 1, 1)], [0.5], [0.0], 0.1, 0.5), TypeError, "class_ids"),
    ("NMSBoxesBatched", ([(0, 0, 1, 1)], [0.5], [0, 1], 0.1, 0.5), cv.error, "class_ids.size"),
    ("softNMSBoxes", ([(0, 0, 1.5, 1)], [0.5], 0.1, 0.5), TypeError, "bboxes"),
    ("softNMSBoxes", ([(0, 0, 1, 1)], [0.5], 0.1, 0.5, -1), cv.error, "top_k"),
    ("softNMSBoxes", ([(0, 0, 1, 1)], [0.5], 0.1, 0.5, 0, -1.0), cv.error, "sigma"),
    ("softNMSBoxes", ([(0, 0, 1, 1), (0, 0, 1, 1)], [0.5, 0.4], 0.1, 0.5, 0, 0.5, 7), cv.error, "method"),
]


@pytest.mark.parametrize("name,args,exc,what", BAD)
def test_bad_input(name, args, exc, what):
    with pytest.raises(Exception):  # cv2 refuses each of these too
        getattr(cv2.dnn, name)(*args)
    with pytest.raises(exc, match=rf"^\[mnn\.cv\.dnn\.{name}\] .*{what}") as info:
        getattr(cv.dnn, name)(*args)
    assert isinstance(info.value, cv.error)  # parse errors are both cv.error and TypeError


@pytest.mark.parametrize("layout", ["outlier", "huge_box", "far_apart", "tiny"])
def test_nms_boxes_spatial_layouts(layout):
    # the native pass looks only at kept boxes near a candidate when the boxes allow a grid, and
    # scans them all otherwise; both must give cv2's answer
    b = clustered(400, spread=3)
    if layout == "outlier":
        b[5] = [1e7, -1e7, 20, 20]  # a grid over the extent would be too sparse
    elif layout == "huge_box":
        b[5] = [-500, -500, 5000, 5000]  # cells as large as the whole set
    elif layout == "far_apart":
        b[:, :2] *= 1e4
    else:
        b[:, 2:] *= 1e-3
        b[:, :2] *= 1e-3
    s = scores_for(400)
    for params in [(0.0, 0.5), (0.1, 0.2, 0.9, 0), (0.0, 0.0)]:
        check_same(cv.dnn.NMSBoxes(b, s, *params), cv2.dnn.NMSBoxes(b.tolist(), s.tolist(), *params))
        cls = numpy.arange(400) % 3
        check_same(cv.dnn.NMSBoxesBatched(b, s, cls, *params),
                   cv2.dnn.NMSBoxesBatched(b.tolist(), s.tolist(), cls.tolist(), *params))
