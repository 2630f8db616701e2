"""mnn.cv.matchTemplate (group 4 of api12b) against the real cv2: the six methods on uint8 and
float32 images of 1-4 channels, odd sizes, views, 1x1 templates, the template as large as the image,
the swap cv2 makes when the template is the larger, bad input. cv2 correlates through a float DFT;
mnn's correlation is exact on uint8 (direct, double sums), so scores agree to cv2's rounding:
1e-5 relative to the largest score for the unnormalised methods, 1e-4 absolute for normalised ones."""
import cv2
import numpy as np
import pytest

import mnn
import mnn.cv as mcv


def check(g, e, method, img=None, t=None):
    """cv2's float DFT errs relative to the correlation's size (its largest value): the
    unnormalised scores are compared within 1e-5 of that, the normalised ones within 1e-4."""
    g = np.asarray(g)
    assert g.shape == e.shape and g.dtype == e.dtype == np.float32
    if method in (cv2.TM_SQDIFF_NORMED, cv2.TM_CCORR_NORMED, cv2.TM_CCOEFF_NORMED):
        np.testing.assert_allclose(g, e, rtol=0, atol=1e-4)
    else:
        scale = float(np.abs(cv2.matchTemplate(img, t, cv2.TM_CCORR)).max()) if img is not None else 0.0
        np.testing.assert_allclose(g, e, rtol=0, atol=1e-5 * max(1.0, scale, float(np.abs(e).max())))


def make(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype == np.uint8:
        return rng.integers(0, 256, shape).astype(np.uint8)
    return (rng.standard_normal(shape) * 20 + 50).astype(np.float32)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
@pytest.mark.parametrize("method", range(6))
def test_methods(dtype, cn, method):
    shape = (41, 57) if cn == 1 else (41, 57, cn)
    img = make(shape, dtype, cn)
    for (y, x, h, w) in ((5, 7, 9, 13), (0, 0, 1, 1), (20, 30, 21, 27), (3, 4, 2, 17)):
        t = img[y:y + h, x:x + w].copy()
        t = t + (3 if dtype == np.uint8 else 0.5) * (t < 200)  # not an exact copy everywhere
        t = t.astype(dtype)
        check(mcv.matchTemplate(img, t, method), cv2.matchTemplate(img, t, method), method, img, t)
    v = img[1::2, ::-1]
    t = make((5, 6) + shape[2:], dtype, 9)
    check(mcv.matchTemplate(v, t, method), cv2.matchTemplate(v, t, method), method, v, t)


@pytest.mark.parametrize("method", range(6))
def test_edges(method):
    img = make((13, 17, 3), np.uint8, 3)
    check(mcv.matchTemplate(img, img, method), cv2.matchTemplate(img, img, method), method, img, img)
    small = img[2:5, 3:9].copy()
    # a template larger than the image in both dimensions: cv2 swaps them
    check(mcv.matchTemplate(small, img, method), cv2.matchTemplate(small, img, method), method, img, small)
    flat = np.full((9, 9), 7, np.uint8)
    g0 = img[..., 0].copy()
    check(mcv.matchTemplate(g0, flat, method), cv2.matchTemplate(g0, flat, method), method, g0, flat)
    flat_img = np.full((15, 15), 9, np.uint8)
    t = make((4, 5), np.uint8, 4)
    check(mcv.matchTemplate(flat_img, t, method), cv2.matchTemplate(flat_img, t, method), method, flat_img, t)
    one = np.array([[5]], np.uint8)
    check(mcv.matchTemplate(one, one, method), cv2.matchTemplate(one, one, method), method)


def test_threads_same_result():
    img = make((301, 257), np.uint8, 5)
    t = img[40:71, 30:63].copy()
    old = mnn.get_num_threads() if hasattr(mnn, "get_num_threads") else None
    try:
        mnn.set_num_threads(1)
        a = np.asarray(mcv.matchTemplate(img, t, cv2.TM_CCOEFF_NORMED))
        mnn.set_num_threads(2)
        b = np.asarray(mcv.matchTemplate(img, t, cv2.TM_CCOEFF_NORMED))
    finally:
        mnn.set_num_threads(old if old else 0)
    assert np.array_equal(a, b)
    check(a, cv2.matchTemplate(img, t, cv2.TM_CCOEFF_NORMED), cv2.TM_CCOEFF_NORMED)


_ISA = r"""
import json, numpy
import mnn.cv as cv
rng = numpy.random.default_rng(7)
out = []
for dt in ("uint8", "float32"):
    img = (rng.random((67, 93, 3)) * 255).astype(dt)
    t = (rng.random((11, 70, 3)) * 255).astype(dt)
    for m in range(6):
        out.append(numpy.asarray(cv.matchTemplate(img, t, m)).tobytes().hex())
print(json.dumps(out))
"""


def test_same_bits_every_isa():
    from helpers import run_under_isa
    ref = run_under_isa(_ISA, "scalar")
    for isa in mnn._core.available_isas():
        if isa != "scalar":
            assert run_under_isa(_ISA, isa) == ref, isa


def raises_named(f):
    with pytest.raises(Exception) as ei:
        f()
    assert str(ei.value).startswith("[mnn.cv.matchTemplate]"), str(ei.value)


def test_bad_input():
    img = make((20, 20), np.uint8, 6)
    raises_named(lambda: mcv.matchTemplate(img, img[:5, :5].astype(np.float32), 0))
    raises_named(lambda: mcv.matchTemplate(img.astype(np.int16), img[:5, :5].astype(np.int16), 0))
    raises_named(lambda: mcv.matchTemplate(img, img[:5, :5], 6))
    raises_named(lambda: mcv.matchTemplate(img, make((25, 5), np.uint8, 1), 0))
    raises_named(lambda: mcv.matchTemplate(img, make((5, 5, 3), np.uint8, 1), 0))
    raises_named(lambda: mcv.matchTemplate(None, img, 0))
