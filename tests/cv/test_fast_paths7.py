"""The vector paths of Canny (int16 magnitudes, 16-pixel suppression), the 3x3 median, BGR<->RGB and
resize against cv2 at widths around their vector steps, 1/3/4 channels, ROIs and noisy images (where
most pixels are edge candidates), under the default ISA and MNN_ISA=scalar."""
import cv2
import numpy
import pytest
from helpers import run_under_isa

import mnn.cv as cv

RNG = numpy.random.default_rng(7)
WIDTHS = (1, 2, 3, 15, 16, 17, 18, 31, 32, 33, 47, 48, 49, 63, 64, 65, 97, 130)


def same(got, want):
    got = numpy.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
    numpy.testing.assert_array_equal(got, want)


def noisy(h, w, cn):
    """A gradient plus noise: Canny 50/150 keeps a large share of pixels, on every direction."""
    y, x = numpy.mgrid[0:h, 0:w]
    base = numpy.stack([(x * 7) % 256, (y * 5) % 256, ((x + y) * 97) % 256, (x * y) % 256][:cn], -1)
    a = numpy.clip(base + RNG.integers(-40, 41, base.shape), 0, 255).astype(numpy.uint8)
    return a[:, :, 0] if cn == 1 else a


@pytest.mark.parametrize("cn", [1, 3, 4])
def test_canny_widths(cn):
    for w in WIDTHS:
        for h in (1, 2, 5, 37):
            a = noisy(h, w, cn)
            for lo, hi in [(50, 150), (0, 0), (-5, 20), (400, 2000), (30000, 40000)]:
                same(cv.Canny(a, lo, hi), cv2.Canny(a, lo, hi))
            same(cv.Canny(a, 50, 150, L2gradient=True), cv2.Canny(a, 50, 150, L2gradient=True))


@pytest.mark.parametrize("aperture", [3, 5, 7])
def test_canny_roi_and_apertures(aperture):
    a = noisy(120, 211, 3)
    roi = a[7:101, 5:190]  # not contiguous
    for img in (a, roi, a[:, :, 1], roi[:, ::-1]):
        same(cv.Canny(img, 50, 150, apertureSize=aperture), cv2.Canny(img, 50, 150, apertureSize=aperture))
        same(cv.Canny(img, 20, 60, apertureSize=aperture), cv2.Canny(img, 20, 60, apertureSize=aperture))


def test_canny_wide_gradients():
    # caller-supplied gradients beyond the Sobel range take the int32 path (above 2^14 cv2's own
    # int arithmetic overflows in the direction test, which mnn does not reproduce)
    for shape in ((41, 67), (23, 35, 3)):
        dx = RNG.integers(-16383, 16384, shape).astype(numpy.int16)
        dy = RNG.integers(-16383, 16384, shape).astype(numpy.int16)
        for lo, hi in [(50, 150), (20000, 40000), (60000, 65000)]:
            same(cv.Canny(dx, dy, lo, hi), cv2.Canny(dx, dy, lo, hi))


ISA_PROGRAM = r"""
import json, sys
import cv2, numpy
import mnn.cv as cv
rng = numpy.random.default_rng(5)
bad = []
def check(name, got, want):
    if not numpy.array_equal(numpy.asarray(got), want):
        bad.append(name)
for cn in (1, 3, 4):
    for w in (1, 15, 16, 17, 33, 64, 65, 131):
        a = rng.integers(0, 256, (19, w, cn)).astype(numpy.uint8)
        a = a[:, :, 0] if cn == 1 else a
        check(f"canny{cn},{w}", cv.Canny(a, 50, 150), cv2.Canny(a, 50, 150))
        check(f"canny_roi{cn},{w}", cv.Canny(a[2:-2, w // 3:], 20, 90), cv2.Canny(a[2:-2, w // 3:], 20, 90))
        check(f"median3{cn},{w}", cv.medianBlur(a, 3), cv2.medianBlur(a, 3))
        check(f"median3_roi{cn},{w}", cv.medianBlur(a[1:, w // 3:], 3), cv2.medianBlur(numpy.ascontiguousarray(a[1:, w // 3:]), 3))
        if cn == 3:
            check(f"rgb{w}", cv.cvtColor(a, cv.COLOR_BGR2RGB), cv2.cvtColor(a, cv2.COLOR_BGR2RGB))
        check(f"resize224_{cn},{w}", cv.resize(a, (224, 224)), cv2.resize(a, (224, 224)))
big = rng.integers(0, 256, (1083, 1931, 3)).astype(numpy.uint8)
check("canny_big", cv.Canny(big, 50, 150), cv2.Canny(big, 50, 150))
check("median3_big", cv.medianBlur(big, 3), cv2.medianBlur(big, 3))
check("rgb_big", cv.cvtColor(big, cv.COLOR_BGR2RGB), cv2.cvtColor(big, cv2.COLOR_BGR2RGB))
check("rgb_big_roi", cv.cvtColor(big[3:, 5:-4], cv.COLOR_BGR2RGB), cv2.cvtColor(big[3:, 5:-4], cv2.COLOR_BGR2RGB))
check("resize224_big", cv.resize(big, (224, 224)), cv2.resize(big, (224, 224)))
print(json.dumps(bad))
"""


@pytest.mark.parametrize("isa", ["scalar", "default"])
def test_fast_paths_per_isa(isa):
    import os
    assert run_under_isa(ISA_PROGRAM, os.environ.get("MNN_ISA", "") if isa == "default" else isa) == []


def test_large_streamed_conversions():
    # Large permutations and gray stream their stores (the BGR<->RGB loop also prefetches its
    # source); repeated calls, odd width: every result must be cv2's.
    a = RNG.integers(0, 256, (1300, 1601, 3), dtype=numpy.uint8)
    want_rgb, want_gray = cv2.cvtColor(a, cv2.COLOR_BGR2RGB), cv2.cvtColor(a, cv2.COLOR_BGR2GRAY)
    want_bgra = cv2.cvtColor(a, cv2.COLOR_BGR2BGRA)
    for _ in range(40):
        same(cv.cvtColor(a, cv.COLOR_BGR2RGB), want_rgb)
        same(cv.cvtColor(a, cv.COLOR_BGR2GRAY), want_gray)
    for _ in range(20):
        same(cv.cvtColor(a, cv.COLOR_BGR2BGRA), want_bgra)
