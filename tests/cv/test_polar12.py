"""cv2.warpPolar (mnn/cv/_polar.py) against the real cv2: every flag (linear / semi-log, forward /
inverse, interpolation), depths, channel counts, odd sizes and non-contiguous views."""
import cv2
import numpy as np
import pytest

import mnn.cv as mc

skdata = pytest.importorskip("skimage.data")

F = cv2.WARP_FILL_OUTLIERS


def _sources():
    img = skdata.astronaut()[:301, 5:262]
    return {"u8c3": img, "u8c1": cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), "f32c3": img.astype(np.float32) / 255,
            "u16c4": (cv2.cvtColor(img, cv2.COLOR_RGB2RGBA).astype(np.uint16) * 257), "view": img[::2, ::3]}


CASES = [
    ((0, 0), None, None, F),
    ((151, 211), (-3.3, 1.7), 120.5, F | cv2.INTER_LINEAR),
    ((100, 0), (60, 70), 90, F | cv2.WARP_POLAR_LOG | cv2.INTER_CUBIC),
    ((131, 97), (40, 50), 80, F | cv2.INTER_NEAREST),
    ((77, 133), None, 60, F | cv2.WARP_POLAR_LOG | cv2.INTER_LANCZOS4),
]


@pytest.mark.parametrize("kind", ["u8c3", "u8c1", "f32c3", "u16c4", "view"])
@pytest.mark.parametrize("dsize,center,radius,flags", CASES)
def test_forward(kind, dsize, center, radius, flags):
    src = _sources()[kind]
    h, w = src.shape[:2]
    c = (w / 2, h / 2) if center is None else (center[0] if center[0] > 0 else w / 2 + center[0], center[1] if center[1] > 2 else h / 2 + center[1])
    r = min(h, w) / 2 if radius is None else radius
    ref = cv2.warpPolar(src, dsize, c, r, flags)
    got = np.asarray(mc.warpPolar(src, dsize, c, r, flags))
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("kind", ["u8c3", "u8c1", "f32c3"])
@pytest.mark.parametrize("mode", [cv2.WARP_POLAR_LINEAR, cv2.WARP_POLAR_LOG])
@pytest.mark.parametrize("interp", [cv2.INTER_LINEAR, cv2.INTER_NEAREST, cv2.INTER_CUBIC])
def test_inverse(kind, mode, interp):
    src = _sources()[kind]
    h, w = src.shape[:2]
    c = (w / 2 + 0.5, h / 2 - 1.25)
    polar = cv2.warpPolar(src, (90, 181), c, 100, F | mode)
    ref = cv2.warpPolar(polar, (w, h), c, 100, F | mode | interp | cv2.WARP_INVERSE_MAP)
    got = np.asarray(mc.warpPolar(polar, (w, h), c, 100, F | mode | interp | cv2.WARP_INVERSE_MAP))
    assert got.shape == ref.shape and got.dtype == ref.dtype
    _check_inverse(got, ref, mode == cv2.WARP_POLAR_LOG and interp != cv2.INTER_NEAREST)


def _check_inverse(got, ref, log_interp):
    if log_interp:
        # the semi-log inverse map takes a float log: mnn.cv.log differs from cv2.log by an ulp on
        # ~3% of values, which moves a float interpolation by ~1e-5 and may flip an integer
        # pixel's rounding by 1 (rarely: ~1 in 10^5 here)
        np.testing.assert_allclose(got.astype(np.float64), ref, atol=1e-4 if ref.dtype == np.float32 else 1)
        assert (got == ref).mean() > 0.97
    else:
        np.testing.assert_array_equal(got, ref)


def test_transparent_border_keeps_dst():
    src = _sources()["u8c3"]
    ref_dst = np.full((120, 90, 3), 7, np.uint8)
    got_dst = ref_dst.copy()
    ref = cv2.warpPolar(src, (90, 120), (100, 100), 200, cv2.INTER_LINEAR, ref_dst)
    got = mc.warpPolar(src, (90, 120), (100, 100), 200, cv2.INTER_LINEAR, got_dst)
    np.testing.assert_array_equal(np.asarray(got), ref)
    assert (ref == 7).any()  # the radius reaches outside the image: those pixels keep dst


@pytest.mark.parametrize("call", [
    lambda: mc.warpPolar(None, (10, 10), (5, 5), 5, 0),
    lambda: mc.warpPolar(np.zeros((20, 20), np.uint8), (10, 10), (5, 5), 0, cv2.WARP_POLAR_LOG),
    lambda: mc.warpPolar(np.zeros((20, 20), np.uint8), (-5, 10), (5, 5), 5, 0),
    lambda: mc.warpPolar(np.zeros((20, 20), np.uint8), 10, (5, 5), 5, 0),
    lambda: mc.warpPolar(np.zeros((20, 20, 3, 2), np.uint8), (10, 10), (5, 5), 5, 0),
    lambda: mc.warpPolar(np.zeros((0, 20), np.uint8), (10, 10), (5, 5), 5, 0),
])
def test_bad_input(call):
    with pytest.raises((mc.error, TypeError, ValueError)) as e:
        call()
    assert str(e.value).startswith("[mnn.cv.")



@pytest.mark.parametrize("kind", ["u8c3", "f32c3", "view"])
@pytest.mark.parametrize("flags", [F, F | cv2.INTER_NEAREST, F | cv2.WARP_INVERSE_MAP | cv2.INTER_CUBIC])
def test_linear_and_log_polar_cv2_4_wrappers(kind, flags):
    # cv2 5 dropped linearPolar / logPolar; cv2 4 defined them as these warpPolar calls
    src = _sources()[kind]
    h, w = src.shape[:2]
    c = (w / 2 - 0.5, h / 2 + 2.0)
    np.testing.assert_array_equal(np.asarray(mc.linearPolar(src, c, 90, flags)),
                                  cv2.warpPolar(src, (w, h), c, 90, flags))
    m = 40.0
    _check_inverse(np.asarray(mc.logPolar(src, c, m, flags)),
                   cv2.warpPolar(src, (w, h), c, np.exp(w / m), flags | cv2.WARP_POLAR_LOG),
                   bool(flags & cv2.WARP_INVERSE_MAP) and flags & cv2.INTER_MAX != cv2.INTER_NEAREST)
