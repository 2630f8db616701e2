"""mnn.cv.dnn against cv2.dnn: blobFromImage(s) on odd-sized images (97x131, 1/3/4 channels, uint8 and
float32 and the other depths), resize / centre crop / letterbox, swapRB with per-channel means, CV_8U
blobs; NMSBoxes and NMSBoxesRotated on random boxes; Preprocess against the cv2 + numpy recipe."""
import cv2
import numpy
import pytest

import mnn
import mnn.cv as cv
import mnn.numpy as mnp

RNG = numpy.random.default_rng(5)
H, W = 97, 131


def image(cn, dtype=numpy.uint8, shape=(H, W)):
    s = shape if cn == 1 else shape + (cn,)
    if dtype == numpy.uint8:
        return RNG.integers(0, 256, s).astype(dtype)
    if numpy.issubdtype(dtype, numpy.integer):
        return RNG.integers(0, 1000, s).astype(dtype)
    return (RNG.random(s) * 255).astype(dtype)


def same(got, want, tol=0.0):
    got = numpy.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    if tol:
        numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        numpy.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("cn", [1, 3, 4])
@pytest.mark.parametrize("size", [None, (131, 97), (64, 48), (224, 224), (50, 120)])
@pytest.mark.parametrize("crop", [False, True])
@pytest.mark.parametrize("swap", [False, True])
def test_blob_from_image_uint8(cn, size, crop, swap):
    img = image(cn)
    kw = dict(scalefactor=1 / 127.5, size=size, mean=(104.0, 117.0, 123.0, 50.0), swapRB=swap, crop=crop)
    want = cv2.dnn.blobFromImage(img, **kw)
    same(cv.dnn.blobFromImage(img, **kw), want, 1e-6)
    same(cv.dnn.blobFromImage(mnp.array(img), **kw), want, 1e-6)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.uint16, numpy.int16])
def test_blob_from_image_other_depths(dtype):
    img = image(3, dtype)
    for kw in [dict(), dict(scalefactor=0.5, size=(60, 40), mean=(1.0, 2.0, 3.0), swapRB=True),
               dict(size=(100, 100), crop=True, mean=7.5)]:
        got, want = numpy.asarray(cv.dnn.blobFromImage(img, **kw)), cv2.dnn.blobFromImage(img, **kw)
        assert got.shape == want.shape and got.dtype == want.dtype
        # mnn.cv.resize: float depths within ~1e-4 relative of cv2, 16-bit within one level
        atol = 1e-3 if numpy.issubdtype(dtype, numpy.floating) else 1.0
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=atol)
        if not numpy.issubdtype(dtype, numpy.floating):
            assert (numpy.abs(got - want) > 1e-3).mean() < 0.01


def test_blob_uint8_depth_and_scalar_mean():
    img = image(3)
    same(cv.dnn.blobFromImage(img, size=(40, 30), swapRB=True, ddepth=cv2.CV_8U),
         cv2.dnn.blobFromImage(img, size=(40, 30), swapRB=True, ddepth=cv2.CV_8U))
    # a single number is cv2.Scalar(v): only the first channel's mean
    same(cv.dnn.blobFromImage(img, 1.0, None, 10.0), cv2.dnn.blobFromImage(img, 1.0, None, 10.0))
    with pytest.raises(cv.error, match=r"dnn.blobFromImage"):
        cv.dnn.blobFromImage(img, 2.0, ddepth=cv2.CV_8U)
    # other depths into a CV_8U blob: cv2 5 truncates and keeps the low 8 bits (no saturation)
    wide = RNG.random((9, 11, 3)) * 700 - 200
    for dt in (numpy.float64, numpy.float32, numpy.uint16, numpy.int16):
        a = wide.astype(dt)
        got = numpy.asarray(cv.dnn.blobFromImage(a, size=(7, 5), swapRB=True, ddepth=cv2.CV_8U))
        want = cv2.dnn.blobFromImage(a, size=(7, 5), swapRB=True, ddepth=cv2.CV_8U)
        assert got.dtype == want.dtype and got.shape == want.shape
        # exact but where resize rounding (within one level) crosses an integer before truncation
        d = (got.astype(int) - want.astype(int)) % 256
        assert numpy.isin(d, [0, 1, 255]).all() and (d != 0).mean() < 0.05


def test_blob_from_images():
    imgs = [image(3), image(3, shape=(60, 80)), image(3, shape=(200, 150))]
    kw = dict(scalefactor=1 / 255, size=(64, 64), mean=(0.5, 0.4, 0.3), swapRB=True, crop=True)
    same(cv.dnn.blobFromImages(imgs, **kw), cv2.dnn.blobFromImages(imgs, **kw), 1e-6)
    kw["crop"] = False
    same(cv.dnn.blobFromImages(imgs, **kw), cv2.dnn.blobFromImages(imgs, **kw), 1e-6)
    with pytest.raises(cv.error, match=r"dnn.blobFromImages"):
        cv.dnn.blobFromImages([image(3), image(3, shape=(60, 80))])  # different sizes, no resize


@pytest.mark.parametrize("mode", [cv2.dnn.DNN_PMODE_NULL, cv2.dnn.DNN_PMODE_CROP_CENTER, cv2.dnn.DNN_PMODE_LETTERBOX])
@pytest.mark.parametrize("cn", [1, 3])
def test_blob_with_params(mode, cn):
    img = image(cn)
    p = cv2.dnn.Image2BlobParams()
    p.scalefactor = (1 / 255, 1 / 128, 1 / 64, 1.0)
    p.size = (80, 80)
    p.mean = (10.0, 20.0, 30.0, 0.0)
    p.swapRB = True
    p.paddingmode = mode
    q = cv.dnn.Image2BlobParams(scalefactor=p.scalefactor, size=p.size, mean=p.mean, swapRB=True, mode=mode)
    same(cv.dnn.blobFromImageWithParams(img, q), cv2.dnn.blobFromImageWithParams(img, p), 1e-6)


def test_blob_errors():
    with pytest.raises(cv.error, match=r"\[mnn.cv.dnn.blobFromImage\].*channels"):
        cv.dnn.blobFromImage(numpy.zeros((4, 6, 2), numpy.uint8))
    with pytest.raises(cv.error, match=r"\[mnn.cv.dnn.blobFromImage\]"):
        cv.dnn.blobFromImage(None)
    with pytest.raises(cv.error, match=r"\[mnn.cv.dnn.blobFromImage\].*depth"):
        cv.dnn.blobFromImage(numpy.zeros((4, 6, 3), numpy.uint8), ddepth=cv2.CV_16S)


def test_preprocess_matches_cv2_numpy_recipe():
    img = image(3, shape=(97, 131))
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
    r = cv2.cvtColor(cv2.resize(img, (64, 48)), cv2.COLOR_BGR2RGB).astype(numpy.float32)
    want = ((r / 255.0 - numpy.array(mean, numpy.float32)) / numpy.array(std, numpy.float32)).transpose(2, 0, 1)[None]
    pre = cv.dnn.Preprocess((64, 48), mean=mean, std=std, scale=1 / 255, swapRB=True)
    same(pre(img), numpy.ascontiguousarray(want), 1e-5)
    before = mnn.engine.stats()["plan_misses"]
    pre(img)
    assert mnn.engine.stats()["plan_misses"] == before  # the repeated call reuses its plans


def test_preprocess_letterbox():
    img = image(3, shape=(97, 131))
    pre = cv.dnn.Preprocess((64, 64), scale=1 / 255, swapRB=True, letterbox=True)
    got = numpy.asarray(pre(img))
    r = min(64 / 131, 64 / 97)
    rw, rh = round(131 * r), round(97 * r)
    left, top = (64 - rw) // 2, (64 - rh) // 2
    inner = cv2.cvtColor(cv2.resize(img, (rw, rh)), cv2.COLOR_BGR2RGB).astype(numpy.float32) / 255
    want = numpy.full((64, 64, 3), 114 / 255, numpy.float32)
    want[top:top + rh, left:left + rw] = inner
    same(got, numpy.ascontiguousarray(want.transpose(2, 0, 1)[None]), 1e-6)
    back = pre.unletterbox([[left, top, left + rw, top + rh]])[0]
    numpy.testing.assert_allclose(back, [0, 0, 131, 97], atol=1.5)


def random_boxes(n):
    xy = RNG.random((n, 2)) * 100
    wh = RNG.random((n, 2)) * 40 + 1
    return numpy.concatenate([xy, wh], 1), RNG.random(n).astype(numpy.float32)


@pytest.mark.parametrize("n", [0, 1, 5, 60])
@pytest.mark.parametrize("args", [(0.3, 0.4), (0.0, 0.5, 1.0, 0), (0.2, 0.3, 0.9, 0), (0.1, 0.45, 1.0, 7),
                                  (0.5, 0.0)])
def test_nms_boxes(n, args):
    boxes, scores = random_boxes(n)
    want = cv2.dnn.NMSBoxes(boxes.tolist(), scores.tolist(), *args)
    got = cv.dnn.NMSBoxes(boxes.tolist(), scores.tolist(), *args)
    if isinstance(want, tuple):
        assert got == want
    else:
        same(got, want)
    ints = numpy.round(boxes).astype(numpy.int32)  # integer boxes and numpy inputs work too
    w2 = cv2.dnn.NMSBoxes(ints.tolist(), scores.tolist(), *args)
    g2 = cv.dnn.NMSBoxes(ints, scores, *args)
    assert numpy.asarray(g2).tolist() == numpy.asarray(w2).tolist()


def test_nms_ties_keep_input_order():
    boxes = [(0, 0, 10, 10), (100, 100, 10, 10), (1, 1, 10, 10), (50, 50, 10, 10)]
    scores = [0.5, 0.5, 0.5, 0.5]
    same(cv.dnn.NMSBoxes(boxes, scores, 0.1, 0.3), cv2.dnn.NMSBoxes(boxes, scores, 0.1, 0.3))


@pytest.mark.parametrize("n", [1, 6, 40])
def test_nms_rotated(n):
    rects = [((float(x), float(y)), (float(w), float(h)), float(a)) for x, y, w, h, a in
             zip(RNG.random(n) * 60, RNG.random(n) * 60, RNG.random(n) * 30 + 5, RNG.random(n) * 30 + 5,
                 RNG.random(n) * 180 - 90)]
    scores = RNG.random(n).astype(numpy.float32).tolist()
    for thr in (0.1, 0.3, 0.6):
        want = cv2.dnn.NMSBoxesRotated(rects, scores, 0.2, thr)
        got = cv.dnn.NMSBoxesRotated(rects, scores, 0.2, thr)
        assert numpy.asarray(got).tolist() == numpy.asarray(want).tolist()


def test_nms_errors():
    with pytest.raises(cv.error, match=r"\[mnn.cv.dnn.NMSBoxes\]"):
        cv.dnn.NMSBoxes([(0, 0, 1, 1)], [0.5, 0.6], 0.1, 0.5)
    with pytest.raises(cv.error, match=r"\[mnn.cv.dnn.NMSBoxes\]"):
        cv.dnn.NMSBoxes([(0, 0, 1)], [0.5], 0.1, 0.5)
