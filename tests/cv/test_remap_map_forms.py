"""remap takes every cv2 map form straight to the kernel (no stacked or converted copy), with
cv2's results bit for bit:

- two CV_32FC1 maps (x, y), one CV_32FC2 map of (x, y) pairs, non-contiguous maps included;
- convertMaps' fixed-point pair (CV_16SC2 whole pixels + CV_16UC1 1/32-pixel table index, in
  either argument order), whose uint8 bilinear path is vectorised: wide rows mix groups wholly
  inside, straddling an edge and wholly outside, for every border mode;
- a CV_16SC2 map alone with INTER_NEAREST.

With fixed-point maps and BORDER_TRANSPARENT cv2 leaves a pixel whose base tap is outside the
image as it was, and otherwise replicates the outside taps (bilinear); INTER_CUBIC turns the maps
into float ones first (x + fraction / 32) and runs its float-coordinate cubic.
"""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as cv  # noqa: E402

BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP,
           cv2.BORDER_REFLECT_101, cv2.BORDER_TRANSPARENT]


def assert_same(got, want, what):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, what
    bad = numpy.argwhere(g != want)
    assert bad.size == 0, f"{what}: {len(bad)} values differ, first at {bad[:3].tolist()}"


def image(rng, dtype, h, w, cn):
    shape = (h, w) if cn == 1 else (h, w, cn)
    if dtype == "uint8":
        return rng.integers(0, 256, shape).astype(dtype)
    if dtype in ("uint16", "int16"):
        return rng.integers(0, 30000, shape).astype(dtype)
    return (rng.random(shape) * 300 - 50).astype(dtype)


def distortion_maps(rng, h, w, dh, dw, spill=0.15):
    """A smooth lens-like distortion of the destination grid, partly outside the source."""
    yy, xx = numpy.mgrid[0:dh, 0:dw].astype(numpy.float64)
    u, v = xx / max(dw - 1, 1) - 0.5, yy / max(dh - 1, 1) - 0.5
    k = 1 + rng.uniform(0.05, 0.3) * (u * u + v * v)
    s = 1 + 2 * spill
    mx = (w - 1) * (0.5 + s * u * k) + rng.uniform(-1, 1)
    my = (h - 1) * (0.5 + s * v * k) + rng.uniform(-1, 1)
    return mx.astype(numpy.float32), my.astype(numpy.float32)


def call(fn, src, m1, m2, interp, border, dst):
    kw = dict(borderMode=border, borderValue=(7, 80, 190, 250))
    if border == cv2.BORDER_TRANSPARENT:
        kw["dst"] = dst.copy()
    return fn.remap(src, m1, m2, interp, **kw)


@pytest.mark.parametrize("cn", [1, 3, 4])
@pytest.mark.parametrize("border", BORDERS)
def test_fixed_point_maps_u8_linear_wide_rows(cn, border):
    rng = numpy.random.default_rng(cn * 10 + border)
    for h, w, dh, dw in ((37, 61, 23, 77), (5, 6, 9, 40), (120, 90, 40, 133)):
        src = image(rng, "uint8", h, w, cn)
        mx, my = distortion_maps(rng, h, w, dh, dw)
        m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        dst = image(rng, "uint8", dh, dw, cn)
        want = call(cv2, src, m1, m2, cv2.INTER_LINEAR, border, dst)
        assert_same(call(cv, src, m1, m2, cv2.INTER_LINEAR, border, dst), want, f"fixed {(h, w, cn)}")
        assert_same(call(cv, src, m2, m1, cv2.INTER_LINEAR, border, dst), want, f"fixed swapped {(h, w, cn)}")
        # the whole-pixel map alone (cv2 5.0 reads it only with INTER_NEAREST: LINEAR returns
        # values from no visible rule, CUBIC raises)
        want = call(cv2, src, m1, None, cv2.INTER_NEAREST, border, dst)
        assert_same(call(cv, src, m1, None, cv2.INTER_NEAREST, border, dst), want, f"16SC2 alone {(h, w, cn)}")


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int16", "float32"])
@pytest.mark.parametrize("interp", [cv2.INTER_NEAREST, cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_LANCZOS4])
def test_fixed_point_maps_other_depths(dtype, interp):
    rng = numpy.random.default_rng(3)
    src = image(rng, dtype, 31, 44, 3)
    mx, my = distortion_maps(rng, 31, 44, 20, 50)
    m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2, nninterpolation=interp == cv2.INTER_NEAREST)
    dst = image(rng, dtype, 20, 50, 3)
    for border in BORDERS:
        want = call(cv2, src, m1, m2, interp, border, dst)
        got = call(cv, src, m1, m2, interp, border, dst)
        if dtype == "float32":
            numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=2e-6, atol=1e-3)
        elif dtype == "int16" and interp == cv2.INTER_CUBIC:  # cv2's generic cubic (test_warp_cubic.py)
            d = numpy.abs(numpy.asarray(got).astype(numpy.int64) - want)
            assert d.max() <= 1 and (d > 0).mean() < 0.02
        else:
            assert_same(got, want, f"{dtype} interp={interp} border={border}")


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32"])
@pytest.mark.parametrize("cn", [1, 3, 4])
@pytest.mark.parametrize("interp", [cv2.INTER_NEAREST, cv2.INTER_LINEAR, cv2.INTER_CUBIC])
def test_float_map_forms(dtype, cn, interp):
    rng = numpy.random.default_rng(cn * 7 + interp)
    src = image(rng, dtype, 45, 70, cn)
    mx, my = distortion_maps(rng, 45, 70, 29, 83)
    dst = image(rng, dtype, 29, 83, cn)
    for border in BORDERS:
        want = call(cv2, src, mx, my, interp, border, dst)
        assert_same(call(cv, src, mx, my, interp, border, dst), want, f"two maps border={border}")
        assert_same(call(cv, src, numpy.dstack([mx, my]), None, interp, border, dst), want,
                    f"one map border={border}")
        # (H, W, 1) maps and non-contiguous maps (every other column of a wider map)
        assert_same(call(cv, src, mx[..., None], my[..., None], interp, border, dst), want, "HxWx1 maps")
        wx = numpy.repeat(mx, 2, axis=1)[:, ::2]
        wy = numpy.repeat(my, 2, axis=1)[:, ::2]
        assert_same(call(cv, src, wx, wy, interp, border, dst), want, "strided maps")


def test_full_hd_distortion_all_forms():
    rng = numpy.random.default_rng(11)
    src = image(rng, "uint8", 1080, 1920, 3)
    mx, my = distortion_maps(rng, 1080, 1920, 1080, 1920, spill=0.02)
    want = cv2.remap(src, mx, my, cv2.INTER_LINEAR)
    assert_same(cv.remap(src, mx, my, cv2.INTER_LINEAR), want, "two maps")
    assert_same(cv.remap(src, numpy.dstack([mx, my]), None, cv2.INTER_LINEAR), want, "one map")
    m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
    assert_same(cv.remap(src, m1, m2, cv2.INTER_LINEAR), cv2.remap(src, m1, m2, cv2.INTER_LINEAR), "fixed")


def test_map_errors():
    src = numpy.zeros((8, 8), numpy.uint8)
    mx = numpy.zeros((4, 5), numpy.float32)
    with pytest.raises(cv.error, match=r"\[mnn.cv.remap\]"):
        cv.remap(src, mx, numpy.zeros((4, 6), numpy.float32), cv2.INTER_LINEAR)
    with pytest.raises(cv.error, match=r"\[mnn.cv.remap\]"):
        cv.remap(src, mx, mx.astype(numpy.float64), cv2.INTER_LINEAR)
    with pytest.raises(cv.error, match=r"\[mnn.cv.remap\]"):
        cv.remap(src, numpy.zeros((4, 5, 2), numpy.int16), numpy.zeros((4, 6), numpy.uint16), cv2.INTER_LINEAR)
    with pytest.raises(cv.error, match=r"\[mnn.cv.remap\]"):
        cv.remap(src, mx.astype(numpy.int32), None, cv2.INTER_LINEAR)
