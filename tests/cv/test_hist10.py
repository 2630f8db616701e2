"""Issue 5, three depth gaps against the real cv2 5:
- threshold with THRESH_OTSU on uint16 (cv2 searches all 65536 bins; the returned threshold and the
  image must be the same), while THRESH_TRIANGLE stays 8-bit only as in cv2;
- CLAHE on uint16 (65536-bin tile histograms, clip limit scaled by area / 65536, LUT scale
  65535 / area): exact;
- bilateralFilter on float32, every border mode, 1 and 3 channels: cv2's interpolated range-kernel
  table sized from the padded image's value range (BORDER_CONSTANT's zeros included), within 1e-5
  relative. Photos from skimage.data, random odd sizes and non-contiguous views."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")
skdata = pytest.importorskip("skimage.data")

import mnn.cv as cv  # noqa: E402

RNG = numpy.random.default_rng(510)
CAMERA16 = numpy.ascontiguousarray(skdata.camera()[100:353, 130:421]).astype(numpy.uint16) * 257  # 253x291
ASTRO = numpy.ascontiguousarray(skdata.astronaut()[40:237, 150:381, ::-1])  # 197x231 BGR
ASTRO_GRAY = cv2.cvtColor(ASTRO, cv2.COLOR_BGR2GRAY)
COINS = numpy.ascontiguousarray(skdata.coins()[:201, :253])


def _u16(shape, hi=65536):
    return RNG.integers(0, hi, shape, dtype=numpy.uint16)


def _bimodal16(shape):
    a = numpy.where(RNG.random(shape) < 0.3, RNG.normal(9000, 1500, shape), RNG.normal(41000, 5000, shape))
    return numpy.clip(a, 0, 65535).astype(numpy.uint16)


def _eq(got, want):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype, want.dtype)
    d = numpy.abs(g.astype(numpy.int64) - want.astype(numpy.int64))
    assert d.max(initial=0) == 0, f"max diff {d.max()} on {int((d > 0).sum())} of {d.size}"


def _close(got, want, rel=1e-5):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype, want.dtype)
    scale = max(1.0, float(numpy.abs(want[numpy.isfinite(want)]).max(initial=0)))
    numpy.testing.assert_allclose(g, want, rtol=rel, atol=rel * scale, equal_nan=True)


# ---- threshold: THRESH_OTSU on uint16 ------------------------------------------------------------

OTSU16 = {
    "camera": CAMERA16,
    "astro": ASTRO_GRAY.astype(numpy.uint16) * 257 + 3,
    "coins12bit": COINS.astype(numpy.uint16) * 16,
    "random": _u16((37, 53)),
    "bimodal": _bimodal16((61, 47)),
    "narrow": (_u16((29, 31), 40) + 30000).astype(numpy.uint16),
    "two_values": numpy.where(RNG.random((19, 23)) < 0.4, 7, 65000).astype(numpy.uint16),
    "one_pixel": numpy.full((1, 1), 1234, numpy.uint16),
    "column": _u16((41, 1)),
    "hwc1": _bimodal16((33, 35, 1)),
}


@pytest.mark.parametrize("name", list(OTSU16))
@pytest.mark.parametrize("kind", [cv2.THRESH_BINARY, cv2.THRESH_BINARY_INV, cv2.THRESH_TRUNC,
                                  cv2.THRESH_TOZERO, cv2.THRESH_TOZERO_INV])
def test_otsu_uint16(name, kind):
    img = OTSU16[name]
    for maxval in (255, 65535):
        t_want, want = cv2.threshold(img, 0, maxval, kind | cv2.THRESH_OTSU)
        t_got, got = cv.threshold(img, 0, maxval, kind | cv2.THRESH_OTSU)
        assert t_got == t_want, (name, t_got, t_want)
        _eq(got, want)


def test_otsu_uint16_views_and_flat():
    base = _bimodal16((90, 121))
    for view in (base[::2, 1::3], base[5:70, 7:100], base.T, base[::-1, ::-1]):
        t_want, want = cv2.threshold(view, 0, 65535, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        t_got, got = cv.threshold(view, 0, 65535, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        assert t_got == t_want
        _eq(got, want)
    flat = numpy.full((17, 19), 4321, numpy.uint16)  # no split possible: cv2 reports 0
    t_want, want = cv2.threshold(flat, 0, 100, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    t_got, got = cv.threshold(flat, 0, 100, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    assert t_got == t_want == 0.0
    _eq(got, want)
    # the 8-bit path is unchanged
    for img in (ASTRO_GRAY, COINS):
        t_want, want = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        t_got, got = cv.threshold(img, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        assert t_got == t_want
        _eq(got, want)


def test_otsu_uint16_tiny_first_class():
    # over 2^23 pixels one pixel is < FLT_EPSILON of the mass: cv2 skips such bins without adding
    # them to the class mean; the threshold must still be cv2's
    img = _bimodal16((2049, 4099))
    img[0, 0] = 0
    img[5, 9] = 65535
    t_want, _ = cv2.threshold(img, 0, 1, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    t_got, got = cv.threshold(img, 0, 1, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    assert t_got == t_want
    assert int(numpy.asarray(got).sum()) == int((img > t_want).sum())


@pytest.mark.parametrize("img,flag", [
    (_u16((9, 11, 3)), cv2.THRESH_OTSU),           # cv2: CV_8UC1 || CV_16UC1
    (_u16((9, 11)), cv2.THRESH_TRIANGLE),          # cv2: triangle is 8-bit only
    (_u16((9, 11)).astype(numpy.int16), cv2.THRESH_OTSU),
    (RNG.random((9, 11)).astype(numpy.float32), cv2.THRESH_OTSU),
])
def test_otsu_triangle_rejections_match_cv2(img, flag):
    with pytest.raises(cv2.error):
        cv2.threshold(img, 0, 255, cv2.THRESH_BINARY | flag)
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.threshold\]"):
        cv.threshold(img, 0, 255, cv2.THRESH_BINARY | flag)


# ---- CLAHE on uint16 -------------------------------------------------------------------------------

CLAHE16 = {
    "camera": CAMERA16,
    "coins12bit": COINS.astype(numpy.uint16) * 16 + 5,
    "random": _u16((37, 53)),
    "bimodal": _bimodal16((64, 48)),
    "narrow": (_u16((29, 31), 300) + 20000).astype(numpy.uint16),
    "small": _u16((5, 3)),
}


@pytest.mark.parametrize("name", list(CLAHE16))
@pytest.mark.parametrize("clip,grid", [(40.0, (8, 8)), (2.0, (8, 8)), (3.0, (5, 7)), (0.0, (4, 4)),
                                       (1.0, (3, 2)), (1000.0, (1, 1)), (0.5, (2, 9))])
def test_clahe_uint16(name, clip, grid):
    img = CLAHE16[name]
    _eq(cv.createCLAHE(clip, grid).apply(img), cv2.createCLAHE(clip, grid).apply(img))


def test_clahe_uint16_views_and_shapes():
    base = _bimodal16((95, 130))
    clahe, ref = cv.createCLAHE(2.5, (6, 5)), cv2.createCLAHE(2.5, (6, 5))
    for view in (base[::2, 1::3], base[3:80, 7:111], base.T, base[::-1]):
        _eq(clahe.apply(view), ref.apply(numpy.ascontiguousarray(view)))
    hwc1 = base[:41, :57, None]
    _eq(clahe.apply(hwc1), ref.apply(hwc1))
    # the 8-bit path is unchanged
    _eq(clahe.apply(ASTRO_GRAY), ref.apply(ASTRO_GRAY))
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.CLAHE\.apply\]"):
        clahe.apply(_u16((9, 11, 3)))
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.CLAHE\.apply\]"):
        clahe.apply(_u16((9, 11)).astype(numpy.int16))


# ---- bilateralFilter on float32 ------------------------------------------------------------------

BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP,
           cv2.BORDER_REFLECT_101]
F32 = {
    "gray": ASTRO_GRAY.astype(numpy.float32) / 255,
    "bgr": ASTRO.astype(numpy.float32) / 255,
    "rand1": RNG.random((23, 37)).astype(numpy.float32),
    "rand3": RNG.random((19, 29, 3)).astype(numpy.float32),
    "offset1": (RNG.random((21, 17)) * 100 + 100).astype(numpy.float32),  # zero padding far outside
    "signed3": (RNG.random((15, 22, 3)) * 4 - 3).astype(numpy.float32),
}


@pytest.mark.parametrize("name", list(F32))
@pytest.mark.parametrize("border", BORDERS)
def test_bilateral_float32(name, border):
    img = F32[name]
    span = float(img.max() - img.min())
    for d, sc, ss in ((5, 0.12 * span, 3), (0, 0.3 * span, 2.5), (9, 0.05 * span, 1.2), (-1, 2 * span, 1.0)):
        want = cv2.bilateralFilter(img, d, sc, ss, borderType=border)
        _close(cv.bilateralFilter(img, d, sc, ss, borderType=border), want)


def test_bilateral_float32_views_flat_and_sigmas():
    base = RNG.random((60, 71, 3)).astype(numpy.float32)
    for view in (base[::2, 1::3], base[5:50, 3:64], base[:, :, 1], base[::-1, :, 0]):
        for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REFLECT_101):
            want = cv2.bilateralFilter(numpy.ascontiguousarray(view), 7, 0.2, 2, borderType=border)
            _close(cv.bilateralFilter(view, 7, 0.2, 2, borderType=border), want)
    # a flat image: copied, unless zero padding makes the padded image non-flat
    flat = numpy.full((9, 13), 0.5, numpy.float32)
    for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE):
        _close(cv.bilateralFilter(flat, 5, 0.1, 3, borderType=border),
               cv2.bilateralFilter(flat, 5, 0.1, 3, borderType=border))
    # cv2 5 copies the image when either sigma is <= 1e-6 (both depths)
    u8 = ASTRO[:31, :45]
    for img in (F32["rand3"], u8):
        for sc, ss in ((0, 3), (-1, 3), (1e-7, 3), (0.2, 0), (0.2, 1e-7)):
            want = cv2.bilateralFilter(img, 5, sc, ss)
            got = numpy.asarray(cv.bilateralFilter(img, 5, sc, ss))
            assert numpy.array_equal(got, want) and numpy.array_equal(want, img), (img.dtype, sc, ss)


def test_bilateral_float64_rejected_like_cv2():
    img = RNG.random((9, 11))
    with pytest.raises(cv2.error):
        cv2.bilateralFilter(img, 5, 0.1, 3)
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.bilateralFilter\]"):
        cv.bilateralFilter(img, 5, 0.1, 3)


@pytest.mark.parametrize("border", [cv2.BORDER_CONSTANT, cv2.BORDER_REFLECT_101])
def test_bilateral_uint8_unchanged(border):
    # the 8-bit path now pads with zeros in the kernel too: still within cv2's one level
    for img in (ASTRO, ASTRO_GRAY, RNG.integers(0, 256, (13, 7, 3), dtype=numpy.uint8)):
        want = cv2.bilateralFilter(img, 7, 40, 3, borderType=border)
        got = numpy.asarray(cv.bilateralFilter(img, 7, 40, 3, borderType=border))
        assert got.shape == want.shape and got.dtype == want.dtype
        assert numpy.abs(got.astype(int) - want).max() <= 1


@pytest.mark.parametrize("shape", [(17, 23), (15, 19, 3)])
def test_bilateral_float32_nan_spreads_over_its_window(shape):
    # cv2 5.0 has no defined answer here (it reads its range table at an index cast from NaN: NaN
    # outputs in some windows, garbage or a crash in others), so it is not called. mnn follows IEEE
    # arithmetic: every output whose disc-shaped window holds a NaN pixel is NaN, the others finite
    # and equal to the result without the NaN where no window reaches it.
    img = RNG.random(shape).astype(numpy.float32)
    nan = img.copy()
    nan[3, 4] = numpy.nan
    nan[10, 12, ...] = numpy.nan if len(shape) == 2 else (0.5, numpy.nan, 0.5)
    got = numpy.asarray(cv.bilateralFilter(nan, 5, 0.2, 2, borderType=cv2.BORDER_CONSTANT))
    clean = numpy.asarray(cv.bilateralFilter(img, 5, 0.2, 2, borderType=cv2.BORDER_CONSTANT))
    bad = numpy.isnan(nan) if len(shape) == 2 else numpy.isnan(nan).any(axis=2)
    yy, xx = numpy.mgrid[-2:3, -2:3]
    disc = (yy * yy + xx * xx <= 4).astype(numpy.uint8)  # cv2's window: offsets within the radius
    reach = cv2.dilate(bad.astype(numpy.uint8), disc, borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    got_nan = numpy.isnan(got) if len(shape) == 2 else numpy.isnan(got).all(axis=2)
    assert numpy.array_equal(got_nan, reach)
    # outside the NaN windows the value range (and so the table) is the same as without them
    far = ~cv2.dilate(reach.astype(numpy.uint8), disc).astype(bool)
    numpy.testing.assert_allclose(got[far], clean[far], rtol=1e-6)
