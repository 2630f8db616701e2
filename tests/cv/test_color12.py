"""cvtColor's one-pass linear conversions (cv_color_ycc: csrc/backends/cpu/simd/cv/color_ycc.cpp)
against cv2, bit for bit: uint8 YCrCb/YUV/XYZ both ways on all 2^24 colours, RGB -> I420/YV12
with every colour at a chroma sample, float32 YCrCb/YUV/XYZ/gray/channel permutations on odd sizes
with out-of-range values (cv2 fuses multiply-adds in YCrCb/YUV/gray, and its XYZ and forward
YCrCb/YUV change operation order after the first W - W % 8 pixels of each row), non-contiguous
views, 1 and 2 threads, and the scalar and AVX2 builds."""

import cv2
import numpy as np
import pytest
from helpers import run_under_isa

import mnn
import mnn.cv as mc
import mnn.numpy as mnp


def _all_colours(shift=0):
    """4096 x 4096 x 3 uint8 holding every colour once (rolled by `shift` pixels)."""
    v = np.arange(1 << 24, dtype=np.uint32)
    if shift:
        v = np.roll(v, shift)
    return np.stack([v & 255, (v >> 8) & 255, v >> 16], -1).astype(np.uint8).reshape(4096, 4096, 3)


def _same(code, img, **kw):
    want = cv2.cvtColor(img, code, **kw)
    got = np.asarray(mc.cvtColor(img, code, **kw))
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True), (code, img.shape, img.dtype)
    return got


@pytest.fixture(scope="module")
def colours():
    return _all_colours()


FWD = ["BGR2YCrCb", "RGB2YCrCb", "BGR2YUV", "RGB2YUV", "BGR2XYZ", "RGB2XYZ"]
INV = ["YCrCb2BGR", "YCrCb2RGB", "YUV2BGR", "YUV2RGB", "XYZ2BGR", "XYZ2RGB"]


@pytest.mark.parametrize("name", FWD + INV)
def test_u8_every_colour(colours, name):
    code = getattr(cv2, "COLOR_" + name)
    _same(code, colours)
    if name in INV:
        _same(code, colours, dstCn=4)


@pytest.mark.parametrize("name", FWD)
def test_u8_four_channel_sources(colours, name):
    bgra = np.concatenate([colours[:1024], np.full((1024, 4096, 1), 77, np.uint8)], -1)
    _same(getattr(cv2, "COLOR_" + name), bgra)


@pytest.mark.parametrize("name", ["BGR2YUV_I420", "RGB2YUV_I420", "BGR2YUV_YV12", "RGB2YUV_YV12"])
def test_u8_i420_every_colour_at_a_chroma_sample(name):
    # chroma is read from the top-left pixel of each 2x2 block: four shifts put every colour there
    code = getattr(cv2, "COLOR_" + name)
    for shift in (0, 1, 4096, 4097):
        _same(code, _all_colours(shift))


@pytest.mark.parametrize("name", ["BGRA2YUV_I420", "RGBA2YUV_I420", "BGRA2YUV_YV12", "RGBA2YUV_YV12",
                                  "BGR2YUV_IYUV", "RGB2YUV_YV12"])
@pytest.mark.parametrize("shape", [(98, 132), (2, 2), (4, 38), (480, 640)])
def test_u8_i420_sizes_and_channels(name, shape):
    rng = np.random.default_rng(sum(shape))
    for cn in (3, 4):
        _same(getattr(cv2, "COLOR_" + name), rng.integers(0, 256, shape + (cn,), dtype=np.uint8))


def _floats(shape, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shape) * 0.8 + 0.4).astype(np.float32)
    flat = a.reshape(-1)
    k = flat.size
    # out-of-range values: large, tiny, negative, infinities and NaN
    for j, v in enumerate([1e30, -1e30, 1e-40, -0.0, 300.0, np.inf, -np.inf, np.nan]):
        flat[(j * 7919) % k] = v
    return a


F_FWD = FWD + ["BGR2GRAY", "RGB2GRAY"]
F_CODES = F_FWD + INV + ["BGR2BGRA", "RGB2BGRA", "BGR2RGB", "BGRA2BGR", "BGRA2RGB", "BGRA2RGBA", "RGBA2BGR"]
SHAPES = [(97, 131), (7, 5), (13, 16), (3, 1), (5, 23), (11, 8), (4, 12), (3, 31), (2, 4)]


@pytest.mark.parametrize("name", F_CODES)
@pytest.mark.parametrize("shape", SHAPES)
def test_f32_exact(name, shape):
    code = getattr(cv2, "COLOR_" + name)
    src_cn = 4 if name.startswith(("BGRA", "RGBA")) else 3
    _same(code, _floats(shape + (src_cn,), seed=shape[1]))
    if name in F_FWD:
        _same(code, _floats(shape + (4,), seed=shape[0]))  # BGRA / RGBA sources
    if name in INV:
        _same(code, _floats(shape + (3,)), dstCn=4)


@pytest.mark.parametrize("name", ["BGR2YCrCb", "YUV2RGB", "BGR2XYZ", "XYZ2RGB", "BGR2GRAY", "BGR2BGRA", "BGR2YUV_I420"])
def test_views(name):
    code = getattr(cv2, "COLOR_" + name)
    rng = np.random.default_rng(5)
    base = rng.integers(0, 256, (120, 170, 3), dtype=np.uint8)
    views = [base[3:101, 1:133], base[::2, ::2], base[:, ::-1], base[..., ::-1]]
    if name == "BGR2YUV_I420":  # (even sizes only)
        views = [base[3:101, 1:133], base[::2, 2::2], base[:, ::-1], base[..., ::-1]]
    if name != "BGR2YUV_I420":
        views += [(base.astype(np.float32) / 255)[1:98:, 2:133], (base.astype(np.float32) / 200)[::-1, ::3]]
    for v in views:
        want = cv2.cvtColor(np.ascontiguousarray(v), code)
        assert np.array_equal(np.asarray(mc.cvtColor(v, code)), want, equal_nan=True)
        m = mnp.asarray(base)[3:101, 1:133] if v.dtype == np.uint8 else None  # an mnn view too
        if m is not None:
            assert np.array_equal(np.asarray(mc.cvtColor(m, code)), cv2.cvtColor(base[3:101, 1:133], code))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("shape", [(480, 640), (1080, 1920), (301, 517)])
def test_threads(threads, shape):
    old = mnn.get_num_threads() if hasattr(mnn, "get_num_threads") else None
    mnn.set_num_threads(threads)
    try:
        rng = np.random.default_rng(threads)
        u = rng.integers(0, 256, shape + (3,), dtype=np.uint8)
        f = _floats(shape + (3,))
        for name in ("BGR2YCrCb", "YCrCb2BGR", "BGR2XYZ", "XYZ2BGR", "BGR2YUV", "YUV2RGB"):
            code = getattr(cv2, "COLOR_" + name)
            _same(code, u)
            _same(code, f)
        _same(cv2.COLOR_BGR2GRAY, f)
        _same(cv2.COLOR_BGR2BGRA, f)
        if shape[0] % 2 == 0 and shape[1] % 2 == 0:
            _same(cv2.COLOR_BGR2YUV_I420, u)
    finally:
        mnn.set_num_threads(old if old else 0)


def test_repeated_calls_use_the_memo_and_stay_exact():
    rng = np.random.default_rng(9)
    u = rng.integers(0, 256, (64, 96, 3), dtype=np.uint8)
    f = _floats((64, 96, 3))
    for _ in range(3):
        for name in ("BGR2YCrCb", "YUV2BGR", "XYZ2RGB", "BGR2BGRA"):
            _same(getattr(cv2, "COLOR_" + name), u)
            _same(getattr(cv2, "COLOR_" + name), f)
    with pytest.raises(Exception, match=r"^\[mnn.cv.cvtColor\]"):
        mc.cvtColor(rng.integers(0, 256, (63, 96, 3), dtype=np.uint8), cv2.COLOR_BGR2YUV_I420)


def test_primitive_rejects_bad_parameters():
    u = mnp.asarray(np.zeros((4, 6, 3), np.uint8))
    f = mnp.asarray(np.zeros((4, 6, 3), np.float32))
    for arr, ints in ((u, [0, 4, 0, 0]), (u, [9, 3, 0]), (u, [4, 3, 0]), (f, [6, 3, 4, 1, 1, 2, -1]),
                      (f, [6, 3, 4, 0, 1, 2, 3]), (u, [5, 3, 1, 0]), (f, [1, 3, 1, 0])):
        with pytest.raises(ValueError, match=r"^\[mnn.cv.cvtColor\]"):
            mnn._core.prim("cv_color_ycc", [arr], ints, [])


ISA_PROGRAM = r"""
import hashlib, json
import numpy
import mnn, mnn.cv as cv
rng = numpy.random.default_rng(12)
out = {}
u = rng.integers(0, 256, (53, 149, 3)).astype(numpy.uint8)
u4 = rng.integers(0, 256, (53, 149, 4)).astype(numpy.uint8)
f = (rng.standard_normal((53, 149, 3)) * 0.8 + 0.4).astype(numpy.float32)
f4 = (rng.standard_normal((53, 149, 4)) * 0.8 + 0.4).astype(numpy.float32)
f[3, 5] = numpy.inf; f[7, 9] = numpy.nan; f[2, 140] = -1e30
for name in ("BGR2YCrCb", "RGB2YUV", "BGR2XYZ", "RGB2XYZ", "YCrCb2BGR", "YUV2RGB", "XYZ2BGR", "XYZ2RGB", "BGR2GRAY",
             "RGB2GRAY", "BGR2BGRA", "RGB2BGRA", "BGR2RGB"):
    code = getattr(cv, "COLOR_" + name)
    for tag, img in (("u", u), ("u4", u4), ("f", f), ("f4", f4)):
        if name in ("BGR2GRAY", "RGB2GRAY", "BGR2BGRA", "RGB2BGRA", "BGR2RGB") and tag.startswith("u"):
            continue
        if name[0] in "XY" and tag.endswith("4"):  # the inverse conversions take 3 channels
            continue
        out[name + tag] = hashlib.sha256(numpy.ascontiguousarray(numpy.asarray(cv.cvtColor(img, code))).tobytes()).hexdigest()
for name in ("BGR2YUV_I420", "RGB2YUV_YV12"):
    for tag, img in (("u", u[:52, :146]), ("u4", u4[:52, :146])):
        out[name + tag] = hashlib.sha256(numpy.asarray(cv.cvtColor(img, getattr(cv, "COLOR_" + name))).tobytes()).hexdigest()
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", ["scalar", "avx2"])
def test_isa_builds_match_cv2(isa):
    want = run_under_isa(ISA_PROGRAM.replace("import mnn, mnn.cv as cv", "import cv2 as cv"), isa)
    assert run_under_isa(ISA_PROGRAM, isa) == want
