"""cvtColor's packed and raw camera formats against cv2: 16-bit BGR565/BGR555, packed YUV 4:2:2
(YUY2/UYVY/YVYU) both ways, RGBA <-> mRGBA, and Bayer demosaicing, bilinear and edge-aware
(uint8 and uint16).

Every result must equal cv2's exactly, on odd sizes (4:2:2 needs an even width), strided views,
the dstCn argument where cv2 honours it, and cv2's refusals (wrong channels, depth, width)."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

from helpers import run_under_isa  # noqa: E402

import mnn.cv as cv  # noqa: E402
import mnn.numpy as np  # noqa: E402

RNG = numpy.random.default_rng(20261127)

PACKED16 = list(range(12, 32))
YUV422_DECODE = [107, 108, 111, 112, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124]
YUV422_ENCODE = list(range(143, 155))
MRGBA = [125, 126]
BAYER = [46, 47, 48, 49, 86, 87, 88, 89, 139, 140, 141, 142, 135, 136, 137, 138, 62, 63, 64, 65]  # EA, VNG
VNG = [62, 63, 64, 65]  # uint8 only


def rand(shape, dtype="uint8"):
    return RNG.integers(0, numpy.iinfo(dtype).max + 1, shape).astype(dtype)


def src_channels(code):
    """The channel counts cv2 accepts for code's source."""
    if code in PACKED16:
        return {20: (1,), 30: (1,)}.get(code, (2,) if (code - 12) % 10 in (2, 3, 6, 7, 9) else (3, 4))
    if code in YUV422_DECODE:
        return (2,)
    if code in YUV422_ENCODE:
        return (3,) if code in (143, 144, 147, 148, 149, 150) else (4,)
    if code in MRGBA:
        return (4,)
    return (1,)


def check(got, want):
    assert isinstance(got, np.ndarray)
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, g.dtype, want.shape, want.dtype)
    bad = numpy.argwhere(g != want)
    assert bad.size == 0, f"{len(bad)} differ, first at {bad[:3].tolist()}: {g[tuple(bad[0])]} vs {want[tuple(bad[0])]}"


def all_cases():
    for code in PACKED16 + YUV422_DECODE + YUV422_ENCODE + MRGBA + BAYER:
        depths = ("uint8", "uint16") if code in BAYER and code not in VNG else ("uint8",)
        for dtype in depths:
            for cn in src_channels(code):
                yield code, dtype, cn


@pytest.mark.parametrize("code,dtype,cn", list(all_cases()))
@pytest.mark.parametrize("hw", [(37, 58), (9, 130), (1, 2)])
def test_matches_cv2(code, dtype, cn, hw):
    h, w = hw
    if code in BAYER + PACKED16 + MRGBA:
        w += 1  # odd sizes wherever cv2 takes them (4:2:2 needs an even width)
    a = rand((h, w) if cn == 1 else (h, w, cn), dtype)
    check(cv.cvtColor(a, code), cv2.cvtColor(a, code))


def test_packed16_every_value():
    # all 65536 packed values, and every byte value through the encoders and gray
    packed = numpy.arange(65536, dtype=numpy.uint16).view(numpy.uint8).reshape(256, 256, 2)
    for code in (14, 15, 18, 19, 21, 24, 25, 28, 29, 31):
        check(cv.cvtColor(packed, code), cv2.cvtColor(packed, code))
    bgra = rand((256, 255, 4))
    bgra[:, :, 3] = numpy.arange(255)[None, :]  # alpha 0 and not 0 for BGR555's alpha bit
    gray = numpy.arange(256, dtype=numpy.uint8).reshape(16, 16)
    for code in (12, 13, 16, 17, 22, 23, 26, 27):
        check(cv.cvtColor(bgra, code), cv2.cvtColor(bgra, code))
    for code in (20, 30):
        check(cv.cvtColor(gray, code), cv2.cvtColor(gray, code))


def test_mrgba_every_pair():
    v, a = numpy.meshgrid(numpy.arange(256), numpy.arange(256), indexing="ij")
    img = numpy.stack([v, 255 - v, v // 2, a], axis=-1).astype(numpy.uint8)
    for code in MRGBA:
        check(cv.cvtColor(img, code), cv2.cvtColor(img, code))


@pytest.mark.parametrize("code,dtype", [(c, d) for c in BAYER for d in ("uint8", "uint16") if d == "uint8" or c not in VNG])
def test_bayer_every_width(code, dtype):
    # every small size, and row lengths around cv2's SIMD blocks (VNG rounds differently in them)
    for w in range(1, 66):
        for h in (1, 2, 3, 4, 7, 8, 11):
            a = rand((h, w), dtype)
            check(cv.cvtColor(a, code), cv2.cvtColor(a, code))


@pytest.mark.parametrize("code", [86, 87, 88, 89, 46, 139, 136, 62, 65])
def test_bayer_extremes(code):
    # saturated uint16 sums wrap in cv2's unsigned arithmetic; uint8 at 0/255 and the top bit pattern
    for dtype in ("uint8",) if code in VNG else ("uint8", "uint16"):
        top = numpy.iinfo(dtype).max
        for a in (numpy.full((9, 41), top, dtype), numpy.zeros((9, 41), dtype),
                  (numpy.indices((9, 41)).sum(0) % 2 * top).astype(dtype), rand((9, 41), dtype) | (top // 2 + 1)):
            check(cv.cvtColor(a, code), cv2.cvtColor(a, code))


def test_bayer_large_photo_sized():
    a = rand((241, 333))
    for code in (46, 87, 141, 137, 63, 64):
        check(cv.cvtColor(a, code), cv2.cvtColor(a, code))


def test_views():
    base = rand((40, 70, 4))
    packed = base[3:33:2, 5:65:2, 1:3]  # HxWx2 strided
    for code in (14, 19, 21, 28, 31, 108, 120, 123, 124):
        check(cv.cvtColor(packed, code), cv2.cvtColor(packed, code))
    bgr = base[1::3, 2:62:2, 1:]
    for code in (12, 23, 144, 149):
        check(cv.cvtColor(bgr, code), cv2.cvtColor(bgr, code))
    rgba = base[::-1, ::3]
    for code in (17, 27, 125, 126, 146, 153):
        check(cv.cvtColor(rgba, code), cv2.cvtColor(rgba, code))
    raw = base[2:37, 1:68:2, 2]
    for code in (20, 30, 46, 47, 88, 142, 62, 65):
        check(cv.cvtColor(raw, code), cv2.cvtColor(raw, code))
    raw16 = rand((31, 45), "uint16")[::2, 1::2]
    for code in (48, 89, 140):
        check(cv.cvtColor(raw16, code), cv2.cvtColor(raw16, code))
    # mnn arrays, and their views, as well as numpy ones
    m = np.asarray(base)
    check(cv.cvtColor(m[:, :, :2], 15), cv2.cvtColor(numpy.ascontiguousarray(base[:, :, :2]), 15))
    check(cv.cvtColor(m[::2, :, 0], 49), cv2.cvtColor(numpy.ascontiguousarray(base[::2, :, 0]), 49))


def test_single_channel_3d_input():
    a = rand((11, 13, 1))
    for code in (20, 30, 46, 86, 139):
        check(cv.cvtColor(a, code), cv2.cvtColor(a, code))


@pytest.mark.parametrize("code,dcn", [(14, 4), (18, 3), (29, 3), (24, 4), (108, 4), (112, 3), (121, 3),
                                      (46, 4), (139, 3), (142, 3), (21, 3), (31, 4), (123, 4), (12, 4),
                                      (144, 3), (125, 3), (86, 1), (135, 3), (63, 3),
                                      (0, 3), (1, 4), (2, 3), (3, 4), (4, 4), (5, 3)])
def test_dstcn(code, dcn):
    cn = src_channels(code)[0] if code > 5 else 4
    a = rand((7, 10) if cn == 1 else (7, 10, cn))
    check(cv.cvtColor(a, code, dstCn=dcn), cv2.cvtColor(a, code, dstCn=dcn))
    if code <= 5:  # the channel swaps also take 3 channels, and 1 (as gray)
        for b in (a[:, :, :3], a[:, :, 0]):
            check(cv.cvtColor(b, code, dstCn=dcn), cv2.cvtColor(b, code, dstCn=dcn))
    if code in BAYER and code not in VNG:
        a16 = a.astype(numpy.uint16) * 257
        check(cv.cvtColor(a16, code, dstCn=dcn), cv2.cvtColor(a16, code, dstCn=dcn))


def test_repeated_calls_use_the_memo_and_agree():
    a = rand((9, 12, 2))
    for _ in range(3):
        check(cv.cvtColor(a, 14), cv2.cvtColor(a, 14))
        check(cv.cvtColor(a, 116, dstCn=4), cv2.cvtColor(a, 116, dstCn=4))
    b = rand((9, 12))
    for _ in range(3):
        check(cv.cvtColor(b, 88), cv2.cvtColor(b, 88))
    odd = rand((9, 13, 2))  # same code and channel count, odd width: still refused after the memo
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.cvtColor\]"):
        numpy.asarray(cv.cvtColor(odd, 116, dstCn=4))
    check(cv.cvtColor(odd, 124), cv2.cvtColor(odd, 124))  # Y extraction takes odd widths


@pytest.mark.parametrize("a,code,kw", [
    (numpy.zeros((5, 6, 3), numpy.uint8), 14, {}),             # 5x5 decoder needs 2 channels
    (numpy.zeros((5, 6, 2), numpy.uint8), 12, {}),             # encoder needs 3 or 4
    (numpy.zeros((5, 6, 3), numpy.uint16), 12, {}),            # 8-bit only
    (numpy.zeros((5, 6, 2), numpy.uint8), 14, {"dstCn": 1}),
    (numpy.zeros((5, 6, 2), numpy.uint8), 14, {"dstCn": 5}),
    (numpy.zeros((5, 6, 3), numpy.uint8), 20, {}),             # gray source has 1 channel
    (numpy.zeros((5, 7, 2), numpy.uint8), 115, {}),            # 4:2:2 needs an even width
    (numpy.zeros((5, 7, 3), numpy.uint8), 148, {}),
    (numpy.zeros((5, 6, 2), numpy.uint16), 115, {}),
    (numpy.zeros((5, 6, 3), numpy.uint8), 125, {}),            # mRGBA needs 4 channels
    (numpy.zeros((5, 6, 4), numpy.uint16), 126, {}),
    (numpy.zeros((5, 6, 3), numpy.uint8), 46, {}),             # Bayer is one channel
    (numpy.zeros((5, 6), numpy.float32), 46, {}),
    (numpy.zeros((5, 6), numpy.uint8), 46, {"dstCn": 1}),
    (numpy.zeros((5, 6, 3), numpy.uint8), 4, {"dstCn": 1}),     # channel swaps give 3 or 4
    (numpy.zeros((5, 6), numpy.uint8), 0, {"dstCn": 2}),
    (numpy.zeros((5, 6), numpy.uint8), 86, {"dstCn": 3}),
    (numpy.zeros((5, 6), numpy.uint8), 135, {"dstCn": 4}),    # edge-aware gives 3 channels only
    (numpy.zeros((5, 6), numpy.float32), 138, {}),
    (numpy.zeros((9, 10), numpy.uint16), 62, {}),            # VNG is uint8 only
])
def test_refusals(a, code, kw):
    with pytest.raises(cv2.error):
        cv2.cvtColor(a, code, **kw)
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.cvtColor\]"):
        cv.cvtColor(a, code, **kw)


def test_vng_four_channels_refused():
    # cv2 accepts dstCn=4 for VNG but writes 3-channel pixels into the 4-channel image (its
    # bilinear fallback under 8 pixels does give BGRA); mnn.cv refuses instead of copying that
    a = rand((16, 16))
    assert cv2.cvtColor(a, cv2.COLOR_BayerBG2BGR_VNG, dstCn=4).shape == (16, 16, 4)
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.cvtColor\].*VNG only as 3 channels"):
        cv.cvtColor(a, cv.COLOR_BayerBG2BGR_VNG, dstCn=4)


# The kernels are compiled per ISA (scalar, AVX2, AVX-512): each target must give cv2's bytes.
# The inputs are small (under color_packed16's streaming footprint); test_packed16_decode_large
# covers the streamed stores under the default ISA.
# Widths straddle the 16-pixel SIMD steps; the packed16 / mRGBA inputs cover every value.
ISA_PROGRAM = r"""
import json
import cv2, numpy
import mnn.cv as cv
rng = numpy.random.default_rng(10)
bad = []
def check(name, got, want):
    if not numpy.array_equal(numpy.asarray(got), want):
        bad.append(name)
packed = numpy.arange(65536, dtype=numpy.uint16).view(numpy.uint8).reshape(256, 256, 2)
for code in (14, 15, 18, 19, 21, 24, 25, 28, 29, 31):
    check(f"p{code}", cv.cvtColor(packed, code), cv2.cvtColor(packed, code))
v, a = numpy.meshgrid(numpy.arange(256), numpy.arange(256), indexing="ij")
rgba = numpy.stack([v, 255 - v, v // 2, a], axis=-1).astype(numpy.uint8)
for code in (125, 126):
    check(f"m{code}", cv.cvtColor(rgba, code), cv2.cvtColor(rgba, code))
for w in (2, 16, 18, 34, 66, 130):
    for code in (12, 13, 16, 17, 22, 23, 26, 27):
        x = rng.integers(0, 256, (5, w + 1, 4 if code in (16, 17, 26, 27) else 3)).astype(numpy.uint8)
        x[::2, ::3, -1] = 0  # BGR555's alpha bit
        check(f"e{code},{w}", cv.cvtColor(x, code), cv2.cvtColor(x, code))
    for code in (20, 30):
        g = rng.integers(0, 256, (5, w + 1)).astype(numpy.uint8)
        check(f"g{code},{w}", cv.cvtColor(g, code), cv2.cvtColor(g, code))
    yuv = rng.integers(0, 256, (5, w, 2)).astype(numpy.uint8)
    for code in (107, 108, 111, 112, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124):
        check(f"y{code},{w}", cv.cvtColor(yuv, code), cv2.cvtColor(yuv, code))
    for ww in (w, w + 1, w + 3):
        raw = rng.integers(0, 256, (7, ww)).astype(numpy.uint8)
        for code in (46, 47, 48, 49, 86, 87, 88, 89, 139, 140, 141, 142, 135, 136, 137, 138, 62, 63, 64, 65):
            check(f"b{code},{ww}", cv.cvtColor(raw, code), cv2.cvtColor(raw, code))
print(json.dumps(bad))
"""


@pytest.mark.parametrize("isa", ["scalar", "avx2", "default"])  # avx2 caps at neon on aarch64
def test_per_isa(isa):
    import os
    assert run_under_isa(ISA_PROGRAM, os.environ.get("MNN_ISA", "") if isa == "default" else isa) == []


def test_packed16_decode_large():
    # over 6 MB of source + result: the decoders stream their stores (aligned 96-byte blocks after
    # a scalar head); an odd width puts every row at another alignment
    a = rand((1201, 1151, 2))
    for code in (14, 15, 18, 19, 24, 25, 28, 29):
        check(cv.cvtColor(a, code), cv2.cvtColor(a, code))
