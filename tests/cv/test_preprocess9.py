"""mnn.cv.dnn.Preprocess's fused primitive (cv_preprocess: cv2-exact INTER_LINEAR uint8 rows ->
float32 x*a - b -> R/B swap -> NCHW/NHWC, letterbox padding) against cv2 + numpy: bit for bit
against cv2.resize followed by x.astype(float32) * float32(scale/std) - float32(mean/std) in numpy,
and within 1e-6 of numpy's (x * scale - mean) / std. Odd sizes, up- and downscales (the 2x AREA
rule, (1, 0)-weight gathers, identity), 1/3/4 channels and gray HxW, both layouts, swapRB on/off,
letterbox with odd padding, numpy and mnn inputs, non-contiguous views, 1 and 2 threads, every ISA
build against the scalar one, the memoised repeat call, and bad parameters."""
import cv2
import numpy
import pytest
from helpers import run_under_isa

import mnn
import mnn.cv as cv
import mnn.numpy as mnp

RNG = numpy.random.default_rng(9)
IMNET_MEAN, IMNET_STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


def image(shape):
    return RNG.integers(0, 256, shape).astype(numpy.uint8)


def per_channel(v, nch):
    return [float(v)] * nch if isinstance(v, (int, float)) else [float(t) for t in v]


def reference(img, size, mean=0.0, std=1.0, scale=1.0, swapRB=False, letterbox=False, pad_value=114,
              layout="NCHW"):
    """cv2.resize (+ numpy padding) then the float32 arithmetic in numpy; also numpy's float64
    (x * scale - mean) / std for the tolerance check."""
    img3 = img if img.ndim == 3 else img[:, :, None]
    ih, iw, nch = img3.shape
    w, h = size
    if letterbox:
        r = min(w / iw, h / ih)
        rw, rh = max(1, int(round(iw * r))), max(1, int(round(ih * r)))
    else:
        rw, rh = w, h
    x = cv2.resize(img, (rw, rh), interpolation=cv2.INTER_LINEAR) if (rw, rh) != (iw, ih) else img
    x = x.reshape(rh, rw, nch)
    if letterbox:
        left, top = (w - rw) // 2, (h - rh) // 2
        full = numpy.empty((h, w, nch), numpy.uint8)
        full[:] = numpy.array(per_channel(pad_value, nch), numpy.uint8)
        full[top:top + rh, left:left + rw] = x
        x = full
    if swapRB and nch >= 3:
        x = x[:, :, [2, 1, 0] + list(range(3, nch))]
    mean, std = per_channel(mean, nch), per_channel(std, nch)
    a = numpy.array([scale / s for s in std], numpy.float32)
    b = numpy.array([m / s for m, s in zip(mean, std)], numpy.float32)
    exact = x.astype(numpy.float32) * a - b
    loose = (x.astype(numpy.float64) * scale - numpy.array(mean)) / numpy.array(std)
    if layout == "NCHW":
        exact, loose = exact.transpose(2, 0, 1), loose.transpose(2, 0, 1)
    return numpy.ascontiguousarray(exact[None]), loose[None]


def check(got, img, size, **kw):
    exact, loose = reference(img, size, **kw)
    got = numpy.asarray(got)
    assert got.dtype == numpy.float32 and got.shape == exact.shape, (got.dtype, got.shape, exact.shape)
    numpy.testing.assert_array_equal(got, exact)
    numpy.testing.assert_allclose(got, loose, rtol=1e-6, atol=1e-6)


# (input shape, size) pairs: odd downscales both ways, upscale, mixed, identity, exact 2x (cv2 takes
# INTER_AREA there), 3x with (1, 0) weights (a gather of whole pixels)
GEOMS = [((97, 131), (37, 53)), ((97, 131), (53, 37)), ((97, 131), (300, 211)), ((97, 131), (250, 40)),
         ((97, 131), (131, 97)), ((98, 130), (65, 49)), ((99, 129), (43, 33)), ((5, 3), (224, 224)),
         ((1, 1), (7, 5)), ((97, 131), (1, 1))]


@pytest.mark.parametrize("nch", [0, 1, 3, 4])
@pytest.mark.parametrize("shape,size", GEOMS)
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_resize_convert_exact(nch, shape, size, layout):
    img = image(shape if nch == 0 else shape + (nch,))
    kw = dict(mean=(0.485, 0.456, 0.406, 0.5)[:max(nch, 1)], std=(0.229, 0.224, 0.225, 0.3)[:max(nch, 1)],
              scale=1 / 255, swapRB=True, layout=layout)
    pre = cv.dnn.Preprocess(size, **kw)
    check(pre(img), img, size, **kw)
    kw["swapRB"] = False
    check(cv.dnn.Preprocess(size, **kw)(mnp.array(img)), img, size, **kw)


@pytest.mark.parametrize("nch", [0, 1, 3, 4])
@pytest.mark.parametrize("shape,size", [((97, 131), (67, 101)), ((131, 97), (101, 67)), ((97, 131), (64, 64)),
                                        ((98, 130), (65, 49)), ((40, 40), (300, 211)), ((97, 131), (131, 97)),
                                        ((97, 131), (262, 194)), ((3, 200), (31, 32))])
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_letterbox_exact(nch, shape, size, layout):
    img = image(shape if nch == 0 else shape + (nch,))
    pad = (114, 0, 255, 7)[:max(nch, 1)] if nch > 1 else 113
    kw = dict(scale=1 / 255, swapRB=nch >= 3, letterbox=True, pad_value=pad, layout=layout,
              mean=0.25, std=(0.5, 0.25, 0.125, 2.0)[:max(nch, 1)])
    pre = cv.dnn.Preprocess(size, **kw)
    got = pre(img)
    check(got, img, size, **kw)
    w, h = size
    r = min(w / shape[1], h / shape[0])
    rw, rh = max(1, int(round(shape[1] * r))), max(1, int(round(shape[0] * r)))
    assert pre.ratio == r and pre.pad == ((w - rw) // 2, (h - rh) // 2)


def test_classification_1080p_and_yolo_frames():
    # the benchmark's shapes: 1080p -> 224 (linear downscale by 4.8), 1080p -> 640 letterbox (3x,
    # the gather path), 720p -> 640 letterbox (2x, cv2's INTER_AREA)
    frame = image((1080, 1920, 3))
    kw = dict(mean=IMNET_MEAN, std=IMNET_STD, scale=1 / 255, swapRB=True)
    check(cv.dnn.Preprocess((224, 224), **kw)(frame), frame, (224, 224), **kw)
    kw = dict(scale=1 / 255, swapRB=True, letterbox=True)
    check(cv.dnn.Preprocess((640, 640), **kw)(frame), frame, (640, 640), **kw)
    hd = numpy.ascontiguousarray(frame[:720, :1280])
    check(cv.dnn.Preprocess((640, 640), **kw)(hd), hd, (640, 640), **kw)


@pytest.mark.parametrize("threads", [1, 2])
def test_threads(threads):
    old = mnn.get_num_threads()
    mnn.set_num_threads(threads)
    try:
        frame = image((541, 963, 3))
        for kw in (dict(mean=IMNET_MEAN, std=IMNET_STD, scale=1 / 255, swapRB=True),
                   dict(scale=1 / 255, swapRB=True, letterbox=True, layout="NHWC")):
            check(cv.dnn.Preprocess((320, 320), **kw)(frame), frame, (320, 320), **kw)
    finally:
        mnn.set_num_threads(old)


def test_non_contiguous_inputs():
    base = image((120, 160, 4))
    kw = dict(mean=IMNET_MEAN, std=IMNET_STD, scale=1 / 255, swapRB=True)
    views = [base[::2, :, :3], base[5:-7, 3:-2, :3], base[:, ::-1, :3], base[::-1, :, 1:], base[:, :, :3][:, :, ::-1]]
    for v in views:
        want = numpy.ascontiguousarray(v)
        check(cv.dnn.Preprocess((37, 53), **kw)(v), want, (37, 53), **kw)
        mv = mnp.array(base)[::2, :, :3] if v is views[0] else mnp.array(want)
        check(cv.dnn.Preprocess((37, 53), **kw)(mv), want, (37, 53), **kw)
    m = mnp.array(base)[5:-7, 3:-2, :3]
    check(cv.dnn.Preprocess((64, 64), letterbox=True, **kw)(m), numpy.ascontiguousarray(base[5:-7, 3:-2, :3]),
          (64, 64), letterbox=True, **kw)


def test_lazy_and_memoised_repeat():
    img = image((97, 131, 3))
    kw = dict(mean=IMNET_MEAN, std=IMNET_STD, scale=1 / 255, swapRB=True)
    pre = cv.dnn.Preprocess((53, 37), **kw)
    first = pre(img)
    assert isinstance(first, mnp.ndarray) and first.shape == (1, 3, 37, 53) and str(first.dtype) == "float32"
    check(first, img, (53, 37), **kw)
    before = mnn.engine.stats()["plan_misses"]
    img2 = image((97, 131, 3))
    check(pre(img2), img2, (53, 37), **kw)  # same geometry, new pixels: the memoised call
    assert mnn.engine.stats()["plan_misses"] == before
    # changing a setting after a call is honoured (the memo is dropped)
    pre.mean = (0.0, 0.0, 0.0)
    check(pre(img2), img2, (53, 37), **dict(kw, mean=(0.0, 0.0, 0.0)))
    pre.swapRB = False
    check(pre(img2), img2, (53, 37), **dict(kw, mean=(0.0, 0.0, 0.0), swapRB=False))
    # a non-contiguous view of the memoised shape takes the memoised call too, and is read right
    view = image((97, 262, 3))[:, ::2]
    check(pre(view), numpy.ascontiguousarray(view), (53, 37), **dict(kw, mean=(0.0, 0.0, 0.0), swapRB=False))
    mview = mnp.array(image((97, 131, 4)))[:, :, 1:]
    check(pre(mview), numpy.ascontiguousarray(numpy.asarray(mview)), (53, 37),
          **dict(kw, mean=(0.0, 0.0, 0.0), swapRB=False))
    pre.layout = "NHWC"
    check(pre(img2), img2, (53, 37), **dict(kw, mean=(0.0, 0.0, 0.0), swapRB=False, layout="NHWC"))


def test_letterbox_memo_keeps_ratio_per_geometry():
    pre = cv.dnn.Preprocess((64, 64), scale=1 / 255, letterbox=True)
    a, b = image((97, 131, 3)), image((131, 97, 3))
    pre(a)
    ra, pa = pre.ratio, pre.pad
    pre(b)
    rb, pb = pre.ratio, pre.pad
    assert (ra, pa) != (rb, pb)
    check(pre(a), a, (64, 64), scale=1 / 255, letterbox=True)
    assert (pre.ratio, pre.pad) == (ra, pa)
    box = pre.unletterbox([[pa[0], pa[1], 64 - pa[0], 64 - pa[1]]])[0]
    numpy.testing.assert_allclose(box, [0, 0, 131, 97], atol=1.5)


def test_general_path_still_matches():
    # inputs the fused kernel does not take go through resize -> copyMakeBorder -> elementwise, with
    # the same float32 arithmetic: a float32 image, 2 channels, a fractional padding value
    f = RNG.random((97, 131, 3)).astype(numpy.float32) * 255
    kw = dict(mean=IMNET_MEAN, std=IMNET_STD, scale=1 / 255, swapRB=True)
    got = numpy.asarray(cv.dnn.Preprocess((53, 37), **kw)(f))
    # (float resizes are tested in test_geometry; here: the same resize, then the same float32 math)
    x = numpy.asarray(cv.resize(f, (53, 37), interpolation=cv.INTER_LINEAR))[:, :, ::-1]
    a = numpy.array([1 / 255 / s for s in IMNET_STD], numpy.float32)
    b = numpy.array([m / s for m, s in zip(IMNET_MEAN, IMNET_STD)], numpy.float32)
    numpy.testing.assert_array_equal(got, (x * a - b).transpose(2, 0, 1)[None])
    two = image((97, 131, 2))
    check(cv.dnn.Preprocess((53, 37), scale=0.5, mean=(1, 2), std=(3, 4))(two), two, (53, 37), scale=0.5,
          mean=(1, 2), std=(3, 4))
    img = image((97, 131, 3))
    got = numpy.asarray(cv.dnn.Preprocess((64, 64), letterbox=True, pad_value=114.6)(img))
    exact, _ = reference(img, (64, 64), letterbox=True, pad_value=115)  # cv2 rounds the border value
    numpy.testing.assert_array_equal(got, exact)


def test_bad_input():
    # the Python layer raises mnn.cv.error (cv2.error's counterpart), the primitive ValueError/TypeError
    with pytest.raises(cv.error, match=r"\[mnn.cv.dnn.Preprocess\]"):
        cv.dnn.Preprocess((0, 10))
    with pytest.raises(cv.error, match=r"\[mnn.cv.dnn.Preprocess\]"):
        cv.dnn.Preprocess((10, 10), mean=(1, 2))(image((9, 9, 3)))
    with pytest.raises(cv.error, match=r"\[mnn.cv.dnn.Preprocess\]"):
        cv.dnn.Preprocess((10, 10))(image((0, 9, 3)))
    with pytest.raises(cv.error, match=r"\[mnn.cv.dnn.Preprocess\]"):
        cv.dnn.Preprocess((10, 10), letterbox=True, pad_value=(1, 2))(image((9, 9, 3)))
    img = mnp.array(image((9, 11, 3)))
    good_i, good_f = [8, 8, 8, 8, 0, 0, 1, 0], [8 / 11, 8 / 9] + [1.0] * 3 + [0.0] * 3 + [114.0] * 3
    mnn.eval(mnn._core.prim("cv_preprocess", [img], good_i, good_f))
    bad = [([8, 8, 9, 8, 0, 0, 1, 0], good_f), ([8, 8, 8, 8, 1, 0, 1, 0], good_f), ([8, 8, 8, 8, 0, 0, 1], good_f),
           (good_i, good_f[:-1]), (good_i, good_f[:-1] + [300.0]), (good_i, good_f[:-1] + [1.5]),
           (good_i, [0.0] + good_f[1:]), ([8, -1, 8, 8, 0, 0, 1, 0], good_f)]
    for ints, floats in bad:
        with pytest.raises(ValueError, match=r"\[mnn.cv.dnn.Preprocess\]"):
            mnn._core.prim("cv_preprocess", [img], ints, floats)
    with pytest.raises(TypeError, match=r"\[mnn.cv.dnn.Preprocess\]"):
        mnn._core.prim("cv_preprocess", [img.astype(mnp.float32)], good_i, good_f)
    with pytest.raises(ValueError, match=r"\[mnn.cv.dnn.Preprocess\]"):
        mnn._core.prim("cv_preprocess", [mnp.array(image((9, 11, 2)))], good_i, good_f)


ISA_PROGRAM = r"""
import hashlib, json
import numpy
import mnn.cv as cv
rng = numpy.random.default_rng(4)
out = {}
for shape in [(97, 131, 3), (61, 83, 4), (45, 67), (360, 641, 3)]:
    a = rng.integers(0, 256, shape).astype(numpy.uint8)
    for size in [(224, 224), (33, 21), (200, 150), (shape[1] // 2, shape[0] // 2)]:
        for lb in (False, True):
            for layout in ("NCHW", "NHWC"):
                pre = cv.dnn.Preprocess(size, mean=0.4, std=0.3, scale=1 / 255, swapRB=True, letterbox=lb,
                                        layout=layout)
                out[f"{shape}{size}{lb}{layout}"] = hashlib.sha256(numpy.asarray(pre(a)).tobytes()).hexdigest()
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_isa_builds_match_scalar(isa):
    ref, got = run_under_isa(ISA_PROGRAM, "scalar"), run_under_isa(ISA_PROGRAM, isa)
    assert ref.keys() == got.keys()
    assert [k for k in ref if ref[k] != got[k]] == []
