"""Corner measures and detectors (mnn/cv/_features.py) against the real cv2."""
import cv2
import numpy as np
import pytest

import mnn.cv as mc

skdata = pytest.importorskip("skimage.data")


def _photo(h=201, w=157):
    return cv2.cvtColor(skdata.astronaut(), cv2.COLOR_RGB2GRAY)[7:7 + h, 11:11 + w]


def _images():
    g = _photo()
    return {"u8": g, "f32": g.astype(np.float32) / 255, "u8_view": _photo(301, 313)[::2, 1::2]}


def _rel(ref, got):
    got = np.asarray(got)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    return np.abs(ref.astype(np.float64) - got).max() / max(np.abs(ref).max(), 1e-30)


MEASURES = [
    ("cornerMinEigenVal", (3,), {}), ("cornerMinEigenVal", (2,), {"ksize": 5}),
    ("cornerMinEigenVal", (4,), {"ksize": -1, "borderType": cv2.BORDER_REPLICATE}),
    ("cornerHarris", (2, 3, 0.04), {}), ("cornerHarris", (5, 1, 0.06), {}),
    ("cornerHarris", (3, -1, 0.04), {"borderType": cv2.BORDER_REFLECT}),
    ("preCornerDetect", (3,), {}), ("preCornerDetect", (5,), {"borderType": cv2.BORDER_REPLICATE}),
]


@pytest.mark.parametrize("kind", ["u8", "f32", "u8_view"])
@pytest.mark.parametrize("fn,args,kw", MEASURES)
def test_measures_match_cv2(kind, fn, args, kw):
    src = _images()[kind]
    ref = getattr(cv2, fn)(src, *args, **kw)
    assert _rel(ref, getattr(mc, fn)(src, *args, **kw)) < 1e-5


@pytest.mark.parametrize("kind", ["u8", "f32"])
@pytest.mark.parametrize("block,ksize", [(3, 3), (2, 5), (5, -1)])
def test_eigen_vals_and_vecs(kind, block, ksize):
    src = _images()[kind]
    ref = cv2.cornerEigenValsAndVecs(src, block, ksize)
    got = np.asarray(mc.cornerEigenValsAndVecs(src, block, ksize))
    assert got.shape == ref.shape == src.shape + (6,) and got.dtype == np.float32
    assert _rel(ref[..., :2], got[..., :2]) < 1e-5
    # The vectors are exact functions of the eigenvalues, but ill-conditioned where the tensor is
    # nearly isotropic or diagonal (mnn's Sobel differs from cv2's by an ulp on some pixels):
    # compare where the eigenvalue gap and the off-diagonal term are well above rounding.
    l1, l2 = ref[..., 0], ref[..., 1]
    ok = (l1 - l2 > 1e-3 * l1.max()) & (np.abs(ref[..., 3] * ref[..., 2]) > 1e-3)
    assert ok.sum() > 100
    np.testing.assert_allclose(got[..., 2:][ok], ref[..., 2:][ok], atol=1e-4)
    assert (np.abs(got[..., 2:] - ref[..., 2:]).max(-1) < 1e-4).mean() > 0.99


def test_measures_dst_and_channels():
    src = _photo()
    dst = np.empty(src.shape, np.float32)
    out = mc.cornerHarris(src, 2, 3, 0.04, dst)
    assert out is dst and _rel(cv2.cornerHarris(src, 2, 3, 0.04), dst) < 1e-5
    three = src[:, :, None]
    assert _rel(cv2.cornerMinEigenVal(three, 3), mc.cornerMinEigenVal(three, 3)) < 1e-5


GFTT = [
    dict(maxCorners=100, qualityLevel=0.01, minDistance=10),
    dict(maxCorners=0, qualityLevel=0.05, minDistance=0),
    dict(maxCorners=50, qualityLevel=0.01, minDistance=5.5, useHarrisDetector=True, k=0.04, blockSize=5),
    dict(maxCorners=80, qualityLevel=0.02, minDistance=3, mask=None, blockSize=3, gradientSize=5),
    dict(maxCorners=25, qualityLevel=0.001, minDistance=1),
]


@pytest.mark.parametrize("kw", GFTT)
@pytest.mark.parametrize("which", ["astro", "camera", "f32"])
def test_good_features_same_corners_same_order(kw, which):
    if which == "astro":
        img = _photo(301, 257)
    elif which == "camera":
        img = skdata.camera()[5:400, 3:399]
    else:
        img = _photo(233, 171).astype(np.float32)
    ref = cv2.goodFeaturesToTrack(img, **kw)
    got = mc.goodFeaturesToTrack(img, **kw)
    got = np.asarray(got)
    assert got.dtype == np.float32 and got.shape == ref.shape
    np.testing.assert_array_equal(got, ref)


def test_good_features_positional_overloads_and_mask():
    img = _photo(301, 257)
    mask = np.zeros(img.shape, np.uint8)
    mask[40:200, 30:180] = 1
    ref = cv2.goodFeaturesToTrack(img, 40, 0.01, 7, None, mask, 3, False, 0.04)
    np.testing.assert_array_equal(np.asarray(mc.goodFeaturesToTrack(img, 40, 0.01, 7, None, mask, 3, False, 0.04)), ref)
    ref = cv2.goodFeaturesToTrack(img, 40, 0.01, 7, mask, 5, gradientSize=3)
    np.testing.assert_array_equal(np.asarray(mc.goodFeaturesToTrack(img, 40, 0.01, 7, mask, 5, gradientSize=3)), ref)
    with pytest.raises(cv2.error):
        cv2.goodFeaturesToTrack(img, 40, 0.01, 7, mask, 5, 3)
    with pytest.raises(mc.error):
        mc.goodFeaturesToTrack(img, 40, 0.01, 7, mask, 5, 3)
    rc, rq = cv2.goodFeaturesToTrackWithQuality(img, 30, 0.01, 5, mask)
    gc, gq = mc.goodFeaturesToTrackWithQuality(img, 30, 0.01, 5, mask)
    np.testing.assert_array_equal(np.asarray(gc), rc)
    assert np.asarray(gq).shape == rq.shape
    np.testing.assert_allclose(np.asarray(gq), rq, rtol=1e-5)
    bmask = mask.astype(bool)  # cv2 5 takes bool masks too
    ref = cv2.goodFeaturesToTrack(img, 40, 0.01, 7, mask=bmask)
    np.testing.assert_array_equal(np.asarray(mc.goodFeaturesToTrack(img, 40, 0.01, 7, mask=bmask)), ref)


def test_good_features_none_found():
    empty = np.zeros((0, 5), np.uint8)
    assert cv2.goodFeaturesToTrack(empty, 10, 0.01, 3) is None
    assert mc.goodFeaturesToTrack(empty, 10, 0.01, 3) is None
    flat = np.full((31, 29), 7, np.uint8)
    assert cv2.goodFeaturesToTrack(flat, 10, 0.01, 3) is None
    assert mc.goodFeaturesToTrack(flat, 10, 0.01, 3) is None


def test_good_features_synthetic_squares():
    # Rotated filled squares with a little texture: the corners are clear, isolated maxima.
    rng = np.random.default_rng(3)
    img = (rng.random((181, 203)) * 20).astype(np.uint8)
    for cx, cy, a in [(50, 60, 10), (140, 50, 30), (100, 130, 55)]:
        box = cv2.boxPoints(((cx, cy), (40, 40), a)).astype(np.int32)
        cv2.fillPoly(img, [box], 200)
    ref = cv2.goodFeaturesToTrack(img, 20, 0.1, 8)
    np.testing.assert_array_equal(np.asarray(mc.goodFeaturesToTrack(img, 20, 0.1, 8)), ref)


@pytest.mark.xfail(strict=True, reason="checkerboard plateaus: equal responses in cv2 differ by an ulp in "
                   "mnn (mnn's float Sobel/sepFilter2D is not bit-exact with cv2's), which flips plateau maxima")
def test_good_features_checkerboard_plateaus():
    img = skdata.checkerboard()
    ref = cv2.goodFeaturesToTrack(img, 0, 0.05, 0)
    np.testing.assert_array_equal(np.asarray(mc.goodFeaturesToTrack(img, 0, 0.05, 0)), ref)


@pytest.mark.parametrize("depth", [np.uint8, np.float32])
@pytest.mark.parametrize("win,zero,crit", [
    ((5, 5), (-1, -1), (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.001)),
    ((3, 4), (1, 1), (cv2.TERM_CRITERIA_MAX_ITER, 5, 0)),
    ((7, 3), (-1, -1), (cv2.TERM_CRITERIA_EPS, 0, 0.01)),
])
def test_corner_sub_pix(depth, win, zero, crit):
    img = _photo(301, 257).astype(depth)
    c = cv2.goodFeaturesToTrack(_photo(301, 257), 25, 0.01, 10)
    ref = cv2.cornerSubPix(img, c.copy(), win, zero, crit)
    mine = c.copy()
    got = mc.cornerSubPix(img, mine, win, zero, crit)
    assert got is mine  # refined in place, as cv2 does
    np.testing.assert_allclose(mine, ref, atol=1e-3)
    flat = c.reshape(-1, 2).copy()
    np.testing.assert_allclose(np.asarray(mc.cornerSubPix(img, flat, win, zero, crit)),
                               cv2.cornerSubPix(img, c.reshape(-1, 2).copy(), win, zero, crit), atol=1e-3)


@pytest.mark.parametrize("call", [
    lambda: mc.cornerHarris(np.zeros((20, 20, 3), np.uint8), 2, 3, 0.04),
    lambda: mc.cornerHarris(np.zeros((20, 20), np.float64), 2, 3, 0.04),
    lambda: mc.cornerMinEigenVal(np.zeros((20, 20), np.uint8), 0),
    lambda: mc.cornerMinEigenVal(np.zeros((20, 20), np.uint8), 3, ksize=4),
    lambda: mc.preCornerDetect(np.zeros((20, 20), np.int16), 3),
    lambda: mc.cornerEigenValsAndVecs(None, 3, 3),
    lambda: mc.goodFeaturesToTrack(np.zeros((20, 20), np.uint8), 5, 0.0, 1),
    lambda: mc.goodFeaturesToTrack(np.zeros((20, 20), np.uint8), 5, 0.1, 1, mask=np.ones((19, 20), np.uint8)),
    lambda: mc.cornerSubPix(np.zeros((20, 20), np.uint8), np.zeros((3, 2), np.float64), (3, 3), (-1, -1), (1, 5, 0)),
    lambda: mc.cornerSubPix(np.zeros((8, 8), np.uint8), np.zeros((3, 2), np.float32), (3, 3), (-1, -1), (1, 5, 0)),
    lambda: mc.cornerSubPix(np.zeros((20, 20), np.uint8), np.full((1, 2), 50, np.float32), (3, 3), (-1, -1), (1, 5, 0)),
])
def test_bad_input(call):
    with pytest.raises((mc.error, TypeError, ValueError)) as e:
        call()
    assert str(e.value).startswith("[mnn.cv.")


def test_good_features_threads_and_isa():
    import mnn
    from tests.helpers import run_under_isa
    img = _photo(301, 257)
    ref = cv2.goodFeaturesToTrack(img, 0, 0.001, 3)
    for n in (1, 2):
        mnn.set_num_threads(n)
        np.testing.assert_array_equal(np.asarray(mc.goodFeaturesToTrack(img, 0, 0.001, 3)), ref)
    mnn.set_num_threads(0)
    code = (
        "import json, cv2, numpy as np, mnn.cv as mc\n"
        "from skimage import data\n"
        "img = cv2.cvtColor(data.astronaut(), cv2.COLOR_RGB2GRAY)[7:308, 11:268]\n"
        "print(json.dumps(np.asarray(mc.goodFeaturesToTrack(img, 0, 0.001, 3)).tolist()))\n"
    )
    for isa in ("scalar", "avx2", "avx512"):
        np.testing.assert_array_equal(np.array(run_under_isa(code, isa), np.float32), ref)
