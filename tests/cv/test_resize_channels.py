"""mnn.cv.resize on images cv2 takes beyond the usual 1 to 4 channels (HxWx5 ... HxWx128), and the
uint8 LINEAR row pass that works two source rows at once (3 and 4 channels, every width), against
cv2. cv2 hands no image with 2 or more than 4 channels to IPP, so every depth and interpolation is
bit-exact there, floats included (summation order and all)."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as cv  # noqa: E402
import mnn.numpy as np  # noqa: E402

INTERPS = [cv.INTER_NEAREST, cv.INTER_LINEAR, cv.INTER_CUBIC, cv.INTER_AREA, cv.INTER_LANCZOS4,
           cv.INTER_NEAREST_EXACT]
# (src h, src w, dst h, dst w): non-integer and integer downscales, upscales, mixed, 1-pixel sides
GEOMETRIES = [(13, 17, 6, 8), (12, 16, 6, 8), (12, 18, 4, 6), (5, 7, 11, 15), (9, 9, 9, 4),
              (31, 29, 7, 30), (20, 21, 10, 10), (10, 10, 5, 20), (1, 9, 3, 4), (7, 1, 2, 1)]


def image(shape, dtype, rng):
    if dtype.startswith("float"):
        return (rng.random(shape) * 255).astype(dtype)
    info = numpy.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)


def check(got, want, dtype=None, interp=None):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype)
    bad = g != want
    assert not bad.any(), f"{int(bad.sum())} values differ, max {numpy.abs(g.astype(float) - want).max()}"


@pytest.mark.parametrize("cn", [2, 5, 6, 7, 8, 16, 128])
@pytest.mark.parametrize("dtype", ["uint8", "float32", "uint16", "float64"])
@pytest.mark.parametrize("interp", INTERPS)
def test_resize_more_than_four_channels(cn, dtype, interp):
    rng = numpy.random.default_rng(cn * 31 + interp)
    for sh, sw, dh, dw in GEOMETRIES:
        a = image((sh, sw, cn), dtype, rng)
        try:
            want = cv2.resize(a, (dw, dh), interpolation=interp)
        except cv2.error:
            # cv2's general INTER_AREA downscale (non-integer factors) has no >4-channel kernel
            assert interp == cv.INTER_AREA
            with pytest.raises(cv.error, match=r"\[mnn.cv.resize\].*cn <= 4"):
                cv.resize(a, (dw, dh), interpolation=interp)
            continue
        check(cv.resize(a, (dw, dh), interpolation=interp), want, dtype, interp)


def test_resize_more_channels_of_views_and_limits():
    rng = numpy.random.default_rng(3)
    a = image((30, 40, 7), "uint8", rng)
    view = np.asarray(a)[::-1, 3::2]  # a non-contiguous mnn view
    want = cv2.resize(numpy.ascontiguousarray(a[::-1, 3::2]), (9, 11), interpolation=cv.INTER_LINEAR)
    check(cv.resize(view, (9, 11), interpolation=cv.INTER_LINEAR), want, "uint8", cv.INTER_LINEAR)
    # a channel view of a wider image
    want = cv2.resize(numpy.ascontiguousarray(a[:, :, 1:6]), (13, 5), interpolation=cv.INTER_CUBIC)
    check(cv.resize(np.asarray(a)[:, :, 1:6], (13, 5), interpolation=cv.INTER_CUBIC), want, "uint8", cv.INTER_CUBIC)
    with pytest.raises(cv.error, match=r"\[mnn.cv.resize\]"):
        cv.resize(numpy.zeros((4, 4, 129), numpy.uint8), (2, 2))  # cv2's Python binding: at most 128
    with pytest.raises(cv.error, match=r"\[mnn.cv.resize\]"):
        cv.resize(numpy.zeros((4, 4, 0), numpy.uint8), (2, 2))


@pytest.mark.parametrize("cn", [3, 4])
def test_resize_linear_u8_every_width(cn):
    # The two-row pass covers the columns whose taps sit side by side (all but the right edge);
    # the rest go one pixel at a time. Every source and destination width 1..67 crosses that edge.
    rng = numpy.random.default_rng(cn)
    for sw in range(1, 68):
        a = image((int(rng.integers(2, 40)), sw, cn), "uint8", rng)
        for dw in sorted({1, 2, 3, max(1, sw // 3), max(1, sw // 2), sw + 1, 2 * sw + 3, int(rng.integers(1, 70))}):
            dh = int(rng.integers(1, 12))
            want = cv2.resize(a, (dw, dh), interpolation=cv.INTER_LINEAR)
            got = numpy.asarray(cv.resize(a, (dw, dh), interpolation=cv.INTER_LINEAR))
            assert numpy.array_equal(got, want), (sw, dw, dh)


def test_resize_linear_u8_large_downscale_and_views():
    # the 1080p -> 224 shape of the benchmark, smaller: every output row needs two new source rows
    rng = numpy.random.default_rng(11)
    a = image((270, 480, 3), "uint8", rng)
    for dsize in [(56, 56), (224, 224), (57, 31), (479, 1)]:
        want = cv2.resize(a, dsize, interpolation=cv.INTER_LINEAR)
        assert numpy.array_equal(numpy.asarray(cv.resize(np.asarray(a), dsize, interpolation=cv.INTER_LINEAR)), want)
    big = image((300, 520, 4), "uint8", rng)
    view = np.asarray(big)[7:277, 11:491, :3]  # non-contiguous: rows and channels cut
    want = cv2.resize(numpy.ascontiguousarray(big[7:277, 11:491, :3]), (56, 56), interpolation=cv.INTER_LINEAR)
    assert numpy.array_equal(numpy.asarray(cv.resize(view, (56, 56), interpolation=cv.INTER_LINEAR)), want)


@pytest.mark.parametrize("cn", [2, 5, 7, 9])
def test_resize_cubic_u8_exact_without_ipp(cn):
    # cv2 hands uint8 CUBIC with 1, 3 or 4 channels to IPP (within 1 there, test_geometry.py); with
    # 2 or more than 4 it runs its own code: float rounding in the vector loop, fixed point in the
    # tail of each row past the last whole 8-value step. Large horizontal downscales make the
    # two roundings differ.
    rng = numpy.random.default_rng(40 + cn)
    for _ in range(25):
        dw, dh = int(rng.integers(1, 60)), int(rng.integers(1, 60))
        sw, sh = int(rng.integers(1, 520)), int(rng.integers(1, 200))
        a = image((sh, sw, cn), "uint8", rng)
        want = cv2.resize(a, (dw, dh), interpolation=cv.INTER_CUBIC)
        got = numpy.asarray(cv.resize(a, (dw, dh), interpolation=cv.INTER_CUBIC))
        assert numpy.array_equal(got, want), (sh, sw, dh, dw)
    a = image((301, 517, cn), "uint8", rng)
    want = cv2.resize(a, (17, 301), interpolation=cv.INTER_CUBIC)
    assert numpy.array_equal(numpy.asarray(cv.resize(a, (17, 301), interpolation=cv.INTER_CUBIC)), want)


@pytest.mark.parametrize("cn", [2, 5, 7])
@pytest.mark.parametrize("interp", [cv.INTER_LINEAR, cv.INTER_CUBIC])
def test_resize_float_exact_without_ipp(cn, interp):
    # cv2's own float32 passes: a 2x LINEAR downscale is its area average, and the cubic vertical
    # vector loop sums from the last row up (its 4-lane tail from the first down)
    rng = numpy.random.default_rng(60 + cn)
    for sh, sw, dh, dw in [(12, 16, 6, 8), (13, 17, 6, 8), (13, 17, 29, 30), (13, 17, 13, 5), (40, 41, 20, 9),
                           (9, 31, 27, 11)]:
        a = image((sh, sw, cn), "float32", rng)
        want = cv2.resize(a, (dw, dh), interpolation=interp)
        got = numpy.asarray(cv.resize(a, (dw, dh), interpolation=interp))
        assert numpy.array_equal(got, want), (sh, sw, dh, dw, numpy.abs(got - want).max())


@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_resize_area_integer_factors_float_exact(cn, dtype):
    # cv2's block average adds a block's pixels four at a time (each four summed first), and its
    # float32 2x2 vector loop (1 or 4 channels) adds each row's pair first: mnn summed in plain
    # order, one rounding step off on 3x3 and larger blocks.
    rng = numpy.random.default_rng(70 + cn)
    for f in (2, 3, 4, 5):
        for h, w in [(f * 7, f * 13), (f * 9 + 1, f * 5 + 2), (f, f * 11)]:
            a = image((h, w, cn), dtype, rng)
            dsize = (w // f, h // f)
            if cn > 4 and (h % f or w % f):  # a non-integer area downscale: cv2 takes 1 to 4 channels
                with pytest.raises(cv.error, match="cn <= 4"):
                    cv.resize(a, dsize, interpolation=cv.INTER_AREA)
                continue
            check(cv.resize(a, dsize, interpolation=cv.INTER_AREA), cv2.resize(a, dsize, interpolation=cv.INTER_AREA))
            check(cv.resize(a, None, fx=1 / f, fy=1 / f, interpolation=cv.INTER_AREA),
                  cv2.resize(a, None, fx=1 / f, fy=1 / f, interpolation=cv.INTER_AREA))


@pytest.mark.parametrize("cn", [1, 3, 4, 5])
@pytest.mark.parametrize("dtype", ["float32", "int16", "uint16"])
@pytest.mark.parametrize("interp", [cv.INTER_LANCZOS4, cv.INTER_CUBIC])
def test_resize_vertical_vector_order_exact(cn, dtype, interp):
    # cv2's vertical vector loops sum from the last row up (float32 Lanczos 4 lanes a step; int16
    # Lanczos and 16-bit cubic 8 lanes), their tails from the first row down. Widths around the
    # lane counts; 1, 3 and 4 channel CUBIC is IPP's (not compared here).
    if interp == cv.INTER_CUBIC and cn != 5:
        return
    rng = numpy.random.default_rng(80 + cn)
    for sh, sw, dh, dw in [(17, 4, 30, 4), (17, 8, 30, 8), (17, 3, 30, 3), (13, 17, 29, 30), (31, 29, 7, 9),
                           (9, 31, 27, 11), (1, 5, 3, 7)]:
        a = image((sh, sw, cn), dtype, rng)
        check(cv.resize(a, (dw, dh), interpolation=interp), cv2.resize(a, (dw, dh), interpolation=interp))


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint32", "float16", "bool"])
def test_resize_nearest_only_depths(dtype):
    # cv2 resizes these depths with INTER_NEAREST and INTER_NEAREST_EXACT only (a gather of whole
    # pixels) and raises "func != 0" for the other interpolations; mnn rejected all of them but
    # int8, and resized int8 with every interpolation. (int64/uint64 work too, but cv2's Python
    # binding truncates those to int32 first: nothing to compare with.)
    rng = numpy.random.default_rng(90)
    for shape, dsize in [((4, 6), (3, 5)), ((7, 9, 3), (13, 2)), ((5, 7, 1), (2, 2)), ((3, 4, 2), (9, 13)),
                         ((97, 131, 4), (40, 30))]:
        a = (rng.random(shape) * 2000 - 1000).astype(dtype)
        for interp in INTERPS:
            try:
                want = cv2.resize(a, dsize, interpolation=interp)
            except cv2.error:
                with pytest.raises(cv.error, match=r"\[mnn.cv.resize\] func != 0"):
                    cv.resize(a, dsize, interpolation=interp)
                continue
            assert interp in (cv.INTER_NEAREST, cv.INTER_NEAREST_EXACT)
            check(cv.resize(a, dsize, interpolation=interp), want)
            check(cv.resize(np.asarray(a), dsize, interpolation=interp), want)
