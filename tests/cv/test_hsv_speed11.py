"""HSV/HLS conversions (csrc/backends/cpu/simd/cv/color_hsv.cpp): the AVX2 and AVX-512 kernels
must give the scalar reference's bytes exactly, on every uint8 input (all 2^24 colours in one
4096x4096 image), at every row width around the vector / scalar-tail split (cv2 converts a row's
first pixels with its SIMD code and the rest with scalar code, and mnn reproduces both), on views,
and on float32 data, hues outside [0, 360) and special values included (every bit but a NaN's
sign and payload). Agreement with cv2 itself
is pinned by tests/cv/test_color*.py and test_hls_ipp11.py; the last tests here check it again on
the row widths this file adds."""

import cv2
import numpy
import pytest
from helpers import run_under_isa

import mnn
import mnn.cv as cv

PROGRAM = r"""
import hashlib, json
import numpy
import mnn.cv as cv
out = {}
def put(name, arr):
    a = numpy.ascontiguousarray(numpy.asarray(arr))
    if a.dtype.kind == "f":  # one NaN: which NaN (sign, payload) an operation returns is not pinned
        a = numpy.where(numpy.isnan(a), numpy.float32(numpy.nan), a)
    out[name] = hashlib.sha256(a.tobytes()).hexdigest()
FWD = [cv.COLOR_BGR2HLS, cv.COLOR_RGB2HLS, cv.COLOR_BGR2HLS_FULL, cv.COLOR_RGB2HLS_FULL, cv.COLOR_BGR2HSV,
       cv.COLOR_RGB2HSV_FULL]
INV = [cv.COLOR_HSV2BGR, cv.COLOR_HSV2RGB, cv.COLOR_HSV2BGR_FULL, cv.COLOR_HSV2RGB_FULL,
       cv.COLOR_HLS2BGR, cv.COLOR_HLS2RGB, cv.COLOR_HLS2BGR_FULL, cv.COLOR_HLS2RGB_FULL]
v = numpy.arange(1 << 24, dtype=numpy.uint32)
img = numpy.stack([(v >> 16) & 255, (v >> 8) & 255, v & 255], -1).astype(numpy.uint8).reshape(4096, 4096, 3)
for c in FWD[:4]:
    put(f"all_fwd{c}", cv.cvtColor(img, c))
for c in INV:
    put(f"all_inv{c}", cv.cvtColor(img, c))
for c in (cv.COLOR_HSV2BGR, cv.COLOR_HSV2RGB_FULL, cv.COLOR_HLS2BGR_FULL):
    put(f"all_inv4_{c}", cv.cvtColor(img, c, dstCn=4))
img4 = numpy.concatenate([img, img[..., 1:2]], -1)
for c in (cv.COLOR_BGR2HLS, cv.COLOR_RGB2HLS_FULL):
    put(f"all_fwd4_{c}", cv.cvtColor(img4, c))
del img, img4, v
rng = numpy.random.default_rng(11)
# every width around the 8 / 16 / 32 pixel steps and the stack-buffered last vector
for w in list(range(1, 34)) + [47, 63, 64, 65, 255, 256, 257, 263]:
    for cn in (3, 4):
        a = rng.integers(0, 256, (5, w, cn)).astype(numpy.uint8)
        for c in FWD:
            put(f"w{w}c{cn}fwd{c}", cv.cvtColor(a, c))
    a = rng.integers(0, 256, (5, w, 3)).astype(numpy.uint8)
    for c in INV:
        for dcn in (3, 4):
            put(f"w{w}inv{c}d{dcn}", cv.cvtColor(a, c, dstCn=dcn))
    f = rng.uniform(0, 1, (3, w, 3)).astype(numpy.float32)
    for c in (cv.COLOR_BGR2HSV, cv.COLOR_RGB2HLS, cv.COLOR_BGR2HLS_FULL):
        put(f"w{w}f32fwd{c}", cv.cvtColor(f, c))
    f4 = rng.uniform(0, 1, (3, w, 4)).astype(numpy.float32)
    put(f"w{w}f32fwd4", cv.cvtColor(f4, cv.COLOR_RGB2HSV))
    hsv = numpy.stack([rng.uniform(-400, 800, (3, w)), rng.uniform(0, 1, (3, w)), rng.uniform(0, 1, (3, w))], -1)
    hsv = hsv.astype(numpy.float32)
    for c in (cv.COLOR_HSV2BGR, cv.COLOR_HLS2RGB, cv.COLOR_HSV2RGB_FULL, cv.COLOR_HLS2BGR_FULL):
        for dcn in (3, 4):
            put(f"w{w}f32inv{c}d{dcn}", cv.cvtColor(hsv, c, dstCn=dcn))
            put(f"w{w}f32inv_inrange{c}d{dcn}", cv.cvtColor(numpy.abs(hsv) % 360, c, dstCn=dcn))
# views: a column window (odd offset, odd width) and negative strides
big = rng.integers(0, 256, (37, 301, 4)).astype(numpy.uint8)
for c in FWD:
    put(f"view_fwd{c}", cv.cvtColor(big[:, 3:290, :3], c))
    put(f"view_fwd_rev{c}", cv.cvtColor(big[::-1, ::-1, :3], c))
for c in INV:
    put(f"view_inv{c}", cv.cvtColor(big[1:, 5:288, 1:], c))
# float32 images large enough for streamed stores (color.cpp: 32 MB in + out), split over threads
# at pixels whose destination is not 64-byte aligned (the reference converts up to the first
# aligned one); hues out of range send whole blocks to the reference in the middle of a run
import mnn
mnn.set_num_threads(3)
bf = rng.uniform(0, 1, (1500, 1001, 4)).astype(numpy.float32)  # >= 32 MB in + out
for c in (cv.COLOR_BGR2HSV, cv.COLOR_RGB2HLS):
    put(f"bigf_fwd{c}", cv.cvtColor(bf[..., :3], c))
    put(f"bigf_fwd4_{c}", cv.cvtColor(bf, c))
bh = bf[..., :3] * numpy.array([360, 1, 1], numpy.float32)
bh[::7, ::5, 0] -= 400
for c in (cv.COLOR_HSV2BGR, cv.COLOR_HLS2RGB):
    for dcn in (3, 4):
        put(f"bigf_inv{c}d{dcn}", cv.cvtColor(bh, c, dstCn=dcn))
mnn.set_num_threads(1)
# float32 specials: zeros of both signs, grey, ones, negatives, huge, inf, nan
sp = numpy.array([0.0, -0.0, 1.0, 0.5, -0.25, 2.0, 1e30, -1e30, numpy.inf, -numpy.inf, numpy.nan, 1e-8],
                 numpy.float32)
combo = numpy.stack(numpy.meshgrid(sp, sp, sp, indexing="ij"), -1).reshape(-1, 3)
combo = numpy.concatenate([combo, combo[:16]]).reshape(-1, 16, 3)
for c in (cv.COLOR_BGR2HSV, cv.COLOR_BGR2HLS):
    put(f"special_fwd{c}", cv.cvtColor(combo, c))
# (the reference wraps a hue into [0, 6) one step at a time, as cv2: huge or infinite hues never end)
hue = numpy.array([0.0, -0.0, 360.0, 359.99997, -360.0, 720.0, -1e-6, 180.0, 60.0, numpy.nan], numpy.float32)
hs = numpy.stack(numpy.meshgrid(hue, sp, sp, indexing="ij"), -1).reshape(-1, 16, 3)
for c in (cv.COLOR_HSV2BGR, cv.COLOR_HLS2BGR):
    put(f"special_inv{c}", cv.cvtColor(hs, c))
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_hsv_hls_isa_kernels_match_scalar(isa):
    ref, got = run_under_isa(PROGRAM, "scalar"), run_under_isa(PROGRAM, isa)
    assert ref.keys() == got.keys() and len(ref) > 1000
    bad = [k for k in ref if ref[k] != got[k]]
    assert not bad, bad


# cv2's SIMD code covers the first n - n % 8 pixels of each row (HLS both ways, and IPP's HLS_FULL);
# its HSV -> BGR code the first n - n % 32. mnn reproduces those exactly; the scalar tails
# differ from cv2's by at most one level where noted in test_color*.py / test_hls_ipp11.py.
VEC_EXACT = {cv2.COLOR_BGR2HLS: 8, cv2.COLOR_RGB2HLS: 8, cv2.COLOR_HLS2BGR: 8, cv2.COLOR_HLS2RGB_FULL: 8,
             cv2.COLOR_HSV2BGR: 32, cv2.COLOR_HSV2RGB: 32, cv2.COLOR_BGR2HLS_FULL: 8}


@pytest.mark.parametrize("code", list(VEC_EXACT))
@pytest.mark.parametrize("w", [1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 65, 257])
def test_widths_against_cv2(code, w):
    rng = numpy.random.default_rng(w + code)
    img = rng.integers(0, 256, (9, w, 3), dtype=numpy.uint8)
    want = cv2.cvtColor(img, code)
    got = numpy.asarray(cv.cvtColor(img, code))
    body = w - w % VEC_EXACT[code]
    numpy.testing.assert_array_equal(got[:, :body], want[:, :body])
    assert numpy.abs(got.astype(int) - want).max() <= 1


@pytest.mark.parametrize("code,tol", [(cv2.COLOR_BGR2HSV, 1e-4), (cv2.COLOR_BGR2HLS, 1e-4), (cv2.COLOR_HSV2BGR, 1e-5),
                                      (cv2.COLOR_HLS2RGB, 1e-5)])
@pytest.mark.parametrize("w", [1, 15, 16, 17, 33])
def test_float32_widths_against_cv2(code, tol, w):
    rng = numpy.random.default_rng(w)
    if code in (cv2.COLOR_BGR2HSV, cv2.COLOR_BGR2HLS):
        img = rng.uniform(0, 1, (7, w, 3)).astype(numpy.float32)
    else:
        img = numpy.stack([rng.uniform(0, 360, (7, w)), rng.uniform(0, 1, (7, w)), rng.uniform(0, 1, (7, w))], -1)
        img = img.astype(numpy.float32)
    numpy.testing.assert_allclose(numpy.asarray(cv.cvtColor(img, code)), cv2.cvtColor(img, code), rtol=tol, atol=tol * 360)
