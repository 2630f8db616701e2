"""mnn.cv's per-ISA kernels (csrc/backends/cpu/simd/cv/) against their scalar builds: the SIMD
paths (resize rows, area 2x2, warpAffine gathers, gray/HSV/channel permutation loops, streamed
permutations of large images, medians) must give the scalar code's bytes exactly."""

import pytest
from helpers import run_under_isa

import mnn

PROGRAM = r"""
import hashlib, json
import numpy
import mnn.cv as cv
rng = numpy.random.default_rng(3)
out = {}
def put(name, arr):
    out[name] = hashlib.sha256(numpy.ascontiguousarray(numpy.asarray(arr)).tobytes()).hexdigest()
for shape in [(97, 131, 3), (61, 83, 4), (45, 67)]:
    a = rng.integers(0, 256, shape).astype(numpy.uint8)
    for dsize in [(224, 224), (33, 21), (200, 150)]:
        for interp in (cv.INTER_LINEAR, cv.INTER_AREA, cv.INTER_CUBIC, cv.INTER_NEAREST):
            put(f"resize{shape}{dsize}{interp}", cv.resize(a, dsize, interpolation=interp))
    put(f"area2{shape}", cv.resize(a, (shape[1] // 2, shape[0] // 2), interpolation=cv.INTER_AREA))
    M = numpy.array([[0.96, 0.26, -10.0], [-0.26, 0.96, 20.0]])
    for interp in (cv.INTER_LINEAR, cv.INTER_NEAREST):
        for border in (cv.BORDER_CONSTANT, cv.BORDER_REFLECT_101):
            put(f"warp{shape}{interp}{border}", cv.warpAffine(a, M, (150, 120), flags=interp, borderMode=border))
    for ks in ((5, 5), (3, 3), (1, 5)):  # GaussianBlur's 16-bit path, every border
        for border in (cv.BORDER_CONSTANT, cv.BORDER_WRAP, cv.BORDER_REFLECT_101):
            put(f"gauss{shape}{ks}{border}", cv.GaussianBlur(a, ks, 0, borderType=border))
    for k in (3, 5):  # sorted-column medians (filter_kernels.cpp), wide and just-wide-enough rows
        put(f"median{shape}{k}", cv.medianBlur(a, k))
        put(f"median_narrow{shape}{k}", cv.medianBlur(a[:, :14], k))
    if len(shape) == 3:
        for code in (cv.COLOR_BGR2GRAY, cv.COLOR_BGR2RGB, cv.COLOR_BGR2HSV, cv.COLOR_RGB2HSV_FULL, cv.COLOR_BGR2HLS,
                     cv.COLOR_BGRA2GRAY if shape[2] == 4 else cv.COLOR_BGR2YCrCb):
            put(f"color{shape}{code}", cv.cvtColor(a, code))
        # every (b, g) pair with r = 0 / 255: every sdiv/hdiv index of the HSV loops
        ij = numpy.indices((256, 256)).reshape(2, -1).T.astype(numpy.uint8)
        for r in (0, 255):
            px = numpy.concatenate([ij, numpy.full((ij.shape[0], shape[2] - 2), r, numpy.uint8)], 1)
            for code in (cv.COLOR_BGR2HSV, cv.COLOR_RGB2HSV_FULL):
                put(f"hsv_all{shape}{r}{code}", cv.cvtColor(px.reshape(256, 256, shape[2]), code))
        # every channel permutation shape: 3->3, 3->4, 4->3, 4->4 (perm_u8.h)
        perms = ((cv.COLOR_BGR2BGRA, cv.COLOR_BGR2RGBA) if shape[2] == 3 else
                 (cv.COLOR_BGRA2BGR, cv.COLOR_BGRA2RGB, cv.COLOR_BGRA2RGBA))
        for code in perms:
            put(f"perm{shape}{code}", cv.cvtColor(a, code))
            put(f"perm_odd{shape}{code}", cv.cvtColor(a[:, 3:-2], code))
# 2x2 INTER_AREA (pmaddubsw pair sums for 1, 3, 4 channels, the widen loop for 2) and gray
# (pmaddwd, 32 pixels a step) at widths around their vector steps
for cn in (1, 2, 3, 4):
    for w in (1, 2, 15, 16, 17, 33, 63, 64, 65, 131):
        a = rng.integers(0, 256, (7, w, cn) if cn > 1 else (7, w)).astype(numpy.uint8)
        put(f"area2_w{w}c{cn}", cv.resize(a, (max(w // 2, 1), 3), interpolation=cv.INTER_AREA))
        if cn >= 3:
            put(f"gray_w{w}c{cn}", cv.cvtColor(a, cv.COLOR_BGR2GRAY if cn == 3 else cv.COLOR_BGRA2GRAY))
# conversions large enough for non-temporal stores (>= 6 MB read + written), odd width
big = rng.integers(0, 256, (1600, 1201, 3)).astype(numpy.uint8)
for code in (cv.COLOR_BGR2RGB, cv.COLOR_BGR2BGRA, cv.COLOR_BGR2RGBA, cv.COLOR_BGR2GRAY):
    put(f"perm_big{code}", cv.cvtColor(big, code))
print(json.dumps(out))
"""


def run_with(isa):
    return run_under_isa(PROGRAM, isa)


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_cv_isa_kernels_match_scalar(isa):
    ref, got = run_with("scalar"), run_with(isa)
    assert ref.keys() == got.keys()
    bad = [k for k in ref if ref[k] != got[k]]
    assert not bad, bad
