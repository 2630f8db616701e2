"""Issue 5 (Lab/Luv exactness and speed): float32 Lab/Luv -> RGB equal cv2 5's bits, and the paths
made faster (uint8 Luv->BGR, uint8 LBGR->Luv, float32 LBGR->Lab, float32 BGR->Luv) still equal cv2.

Every comparison here is exact: float results are compared bit for bit (NaN payloads and the sign
of zero included), because mnn reproduces cv2's tables (the inverse-sRGB spline over 1024
intervals), its 8-pixel block arithmetic and its per-pixel row tail. Inputs: a 1920x1080 photo
(skimage.data.astronaut, resized), random odd-size images (97x131, so rows end in a 3-pixel
tail), a dense grid of L, a|u, b|v with out-of-gamut and special values, non-contiguous views,
dstCn 3 and 4, and the scalar ISA against cv2 in a subprocess."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")
skdata = pytest.importorskip("skimage.data")

from helpers import run_under_isa  # noqa: E402

import mnn.cv as cv  # noqa: E402

RNG = numpy.random.default_rng(905)
INV = {"Lab2BGR": cv.COLOR_Lab2BGR, "Lab2RGB": cv.COLOR_Lab2RGB, "Lab2LBGR": cv.COLOR_Lab2LBGR,
       "Lab2LRGB": cv.COLOR_Lab2LRGB, "Luv2BGR": cv.COLOR_Luv2BGR, "Luv2RGB": cv.COLOR_Luv2RGB,
       "Luv2LBGR": cv.COLOR_Luv2LBGR, "Luv2LRGB": cv.COLOR_Luv2LRGB}
# the forward code whose output is natural input for each inverse code
FWD_OF = {"Lab2BGR": cv.COLOR_BGR2Lab, "Lab2RGB": cv.COLOR_RGB2Lab, "Lab2LBGR": cv.COLOR_LBGR2Lab,
          "Lab2LRGB": cv.COLOR_LRGB2Lab, "Luv2BGR": cv.COLOR_BGR2Luv, "Luv2RGB": cv.COLOR_RGB2Luv,
          "Luv2LBGR": cv.COLOR_LBGR2Luv, "Luv2LRGB": cv.COLOR_LRGB2Luv}


def same_bits(got, want):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype
    if g.dtype == numpy.float32:
        g, want = g.view(numpy.uint32), want.view(numpy.uint32)
    bad = numpy.argwhere(g != want)
    assert bad.size == 0, f"{len(bad)} values differ, first at {bad[:3].tolist()}"


@pytest.fixture(scope="module")
def photo():
    img = numpy.ascontiguousarray(skdata.astronaut()[:, :, ::-1])
    return cv2.resize(img, (1920, 1080), interpolation=cv2.INTER_LINEAR)


def lab_grid(luv):
    # L beyond [0, 100], a|u and b|v far out of gamut, on a grid that puts many values at the
    # branch points (L = 8, f = 6/29) and zero
    L = numpy.linspace(-10, 110, 61, dtype=numpy.float32)
    ab = numpy.linspace(-200, 200, 81, dtype=numpy.float32)
    g = numpy.stack(numpy.meshgrid(L, ab, ab, indexing="ij"), -1).reshape(-1, 3)
    extra = numpy.array([[8, 0, 0], [8.0001, 1, -1], [7.9999, -1, 1], [0, 0, 0], [100, 0, 0],
                         [50, 500 * (6 / 29 - 66 / 116), 0], [50, 0, 200 * (66 / 116 - 6 / 29)],
                         [-0.0, -0.0, -0.0], [1e-30, 1e-30, -1e-30], [100, 1e6, -1e6]], numpy.float32)
    g = numpy.concatenate([g, extra])
    return g[: len(g) // 1037 * 1037].reshape(-1, 1037, 3)   # 1037 = 129 blocks of 8 + a 5-pixel tail


@pytest.mark.parametrize("name", list(INV))
@pytest.mark.parametrize("dcn", [3, 4])
def test_f32_inverse_photo(photo, name, dcn):
    lab = cv2.cvtColor(photo.astype(numpy.float32) / 255, FWD_OF[name])
    same_bits(cv.cvtColor(lab, INV[name], dstCn=dcn), cv2.cvtColor(lab, INV[name], dstCn=dcn))


@pytest.mark.parametrize("name", list(INV))
@pytest.mark.parametrize("dcn", [3, 4])
def test_f32_inverse_grid(name, dcn):
    g = lab_grid(name.startswith("Luv"))
    same_bits(cv.cvtColor(g, INV[name], dstCn=dcn), cv2.cvtColor(g, INV[name], dstCn=dcn))


@pytest.mark.parametrize("name", list(INV))
@pytest.mark.parametrize("w", [1, 7, 8, 9, 16, 131])
def test_f32_inverse_random_special(name, w):
    # random Lab/Luv (in and out of gamut) with NaN, +-inf, zeros and -0 both in the 8-pixel blocks
    # and in the row tail
    a = numpy.concatenate([RNG.uniform(-5, 105, (97, w, 1)), RNG.uniform(-150, 150, (97, w, 2))], -1)
    a = a.astype(numpy.float32)
    a[::3, :: 5, 0] = numpy.nan
    a[1::4, ::3, 1] = numpy.inf
    a[2::5, w // 2:, 2] = -numpy.inf
    a[::2, -1:, 0] = 0
    a[1::2, :1] = -0.0
    a[3::7, ::2, 1] = numpy.nan
    for dcn in (3, 4):
        same_bits(cv.cvtColor(a, INV[name], dstCn=dcn), cv2.cvtColor(a, INV[name], dstCn=dcn))


@pytest.mark.parametrize("name", list(INV))
def test_f32_inverse_non_contiguous(name):
    big = numpy.concatenate([RNG.uniform(0, 100, (60, 300, 1)), RNG.uniform(-100, 100, (60, 300, 2))], -1)
    v = big.astype(numpy.float32)[::2, 7:270:2]             # 30 x 132, strided rows and pixels
    want = cv2.cvtColor(numpy.ascontiguousarray(v), INV[name])
    same_bits(cv.cvtColor(v, INV[name]), want)
    # a 4-channel-spaced view of 3 channels
    w4 = numpy.zeros((30, 97, 4), numpy.float32)
    w4[..., :3] = v[:, :97]
    same_bits(cv.cvtColor(w4[..., :3], INV[name], dstCn=4), cv2.cvtColor(numpy.ascontiguousarray(w4[..., :3]), INV[name], dstCn=4))


# ---- the paths made faster: still cv2's answers ----

FAST_U8 = [cv.COLOR_Luv2BGR, cv.COLOR_Luv2RGB, cv.COLOR_Luv2LBGR, cv.COLOR_LBGR2Luv, cv.COLOR_LRGB2Luv]
FAST_F32 = [cv.COLOR_LBGR2Lab, cv.COLOR_LRGB2Lab, cv.COLOR_BGR2Luv, cv.COLOR_RGB2Luv, cv.COLOR_LBGR2Luv]


@pytest.mark.parametrize("code", FAST_U8)
def test_u8_fast_paths_photo_and_odd(photo, code):
    inv = code in (cv.COLOR_Luv2BGR, cv.COLOR_Luv2RGB, cv.COLOR_Luv2LBGR)
    src = cv2.cvtColor(photo, cv.COLOR_BGR2Luv) if inv else photo
    same_bits(cv.cvtColor(src, code), cv2.cvtColor(src, code))
    odd = RNG.integers(0, 256, (97, 131, 3), dtype=numpy.uint8)
    same_bits(cv.cvtColor(odd, code), cv2.cvtColor(odd, code))
    view = RNG.integers(0, 256, (100, 300, 4), dtype=numpy.uint8)[::3, 5:250]
    if inv:
        for dcn in (3, 4):
            same_bits(cv.cvtColor(odd, code, dstCn=dcn), cv2.cvtColor(odd, code, dstCn=dcn))
        view = view[..., :3]
        same_bits(cv.cvtColor(view, code), cv2.cvtColor(numpy.ascontiguousarray(view), code))
    else:
        same_bits(cv.cvtColor(view, code), cv2.cvtColor(view, code))              # 4 channels
        same_bits(cv.cvtColor(view[..., :3], code), cv2.cvtColor(numpy.ascontiguousarray(view[..., :3]), code))
    for w in (1, 8, 9, 10, 17, 255, 256, 257, 263):
        a = RNG.integers(0, 256, (3, w, 3), dtype=numpy.uint8)
        same_bits(cv.cvtColor(a, code), cv2.cvtColor(a, code))


def test_u8_luv_inverse_every_triple_rgb_dcn4():
    c = numpy.arange(1 << 24, dtype=numpy.uint32)
    a = numpy.stack([c & 255, (c >> 8) & 255, c >> 16], -1).astype(numpy.uint8).reshape(4096, 4096, 3)
    for code in (cv.COLOR_Luv2RGB, cv.COLOR_Luv2LRGB):
        same_bits(cv.cvtColor(a, code, dstCn=4), cv2.cvtColor(a, code, dstCn=4))


@pytest.mark.parametrize("code", FAST_F32)
def test_f32_fast_paths(photo, code):
    f = photo.astype(numpy.float32) / 255
    same_bits(cv.cvtColor(f, code), cv2.cvtColor(f, code))
    odd = RNG.uniform(-0.2, 1.2, (97, 131, 4)).astype(numpy.float32)
    odd[::5, ::7, 1] = numpy.nan
    same_bits(cv.cvtColor(odd, code), cv2.cvtColor(odd, code))                      # 4 channels
    v = odd[1::2, 3:, :3]
    same_bits(cv.cvtColor(v, code), cv2.cvtColor(numpy.ascontiguousarray(v), code))


ISA_PROGRAM = r"""
import json
import cv2, numpy
import mnn.cv as cv
rng = numpy.random.default_rng(9)
bad = []
def check(name, got, want):
    g = numpy.asarray(got)
    if g.dtype == numpy.float32:
        g, want = g.view(numpy.uint32), want.view(numpy.uint32)
    if not numpy.array_equal(g, want):
        bad.append(name)
for w in (1, 9, 131):
    lab = numpy.concatenate([rng.uniform(-5, 105, (23, w, 1)), rng.uniform(-150, 150, (23, w, 2))], -1).astype(numpy.float32)
    lab[::3, ::4, 1] = numpy.nan
    u8 = rng.integers(0, 256, (23, w, 3)).astype(numpy.uint8)
    f = rng.uniform(-0.1, 1.1, (23, w, 3)).astype(numpy.float32)
    for code in (56, 57, 78, 79, 58, 59, 80, 81):
        for dcn in (3, 4):
            check(f"f{code},{w},{dcn}", cv.cvtColor(lab, code, dstCn=dcn), cv2.cvtColor(lab, code, dstCn=dcn))
            check(f"u{code},{w},{dcn}", cv.cvtColor(u8, code, dstCn=dcn), cv2.cvtColor(u8, code, dstCn=dcn))
    for code in (74, 75, 50, 51, 76, 77):
        check(f"f{code},{w}", cv.cvtColor(f, code), cv2.cvtColor(f, code))
        check(f"u{code},{w}", cv.cvtColor(u8, code), cv2.cvtColor(u8, code))
print(json.dumps(bad))
"""


@pytest.mark.parametrize("isa", ["scalar", "default"])
def test_lab_luv_per_isa(isa):
    import os
    assert run_under_isa(ISA_PROGRAM, os.environ.get("MNN_ISA", "") if isa == "default" else isa) == []
