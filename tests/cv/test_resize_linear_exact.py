"""cv2.resize INTER_LINEAR_EXACT against cv2 5.0, bit for bit.

The integer depths run cv2's fixed-point bilinear resize (backends/cpu/simd/cv/
resize_linear_exact.cpp); a 2x downscale on both axes is INTER_AREA (cv2's shortcut, but for 2
channels), which cv2 lacks for int8/int32 (both raise); float images are INTER_LINEAR.
"""
import zlib

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as cv  # noqa: E402

LE = cv2.INTER_LINEAR_EXACT
INT_DTYPES = ["uint8", "int8", "uint16", "int16", "int32"]


def _image(rng, dtype, shape):
    if dtype.startswith("float"):
        return (rng.random(shape) * 300 - 50).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, int(info.max) + 1, shape, dtype=np.int64).astype(dtype)


def _same(src, **kw):
    try:
        want = cv2.resize(src, interpolation=LE, **kw)
    except cv2.error:
        with pytest.raises(cv.error, match=r"^\[mnn\.cv\.resize\]"):
            cv.resize(src, interpolation=LE, **kw)
        return None
    got = np.asarray(cv.resize(src, interpolation=LE, **kw))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    return want


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
def test_linear_exact_random_sizes(dtype, cn):
    rng = np.random.default_rng(zlib.crc32(repr((dtype, cn)).encode()))
    for _ in range(6):
        h, w = (int(v) for v in rng.integers(1, 48, 2))
        shape = (h, w) if cn == 1 else (h, w, cn)
        src = _image(rng, dtype, shape)
        dh, dw = (int(v) for v in rng.integers(1, 90, 2))
        if (dh, dw) == (h, w) or (2 * dh == h and 2 * dw == w):
            continue  # the copy and the 2x shortcut have their own tests
        _same(src, dsize=(dw, dh))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_linear_exact_fx_fy(dtype):
    rng = np.random.default_rng(11)
    src = _image(rng, dtype, (37, 53, 3))
    for fx, fy in [(0.3, 0.7), (1.5, 2.25), (3.1, 0.45), (0.999, 1.001), (7.0, 5.0), (0.13, 0.11)]:
        _same(src, dsize=(0, 0), fx=fx, fy=fy)


@pytest.mark.parametrize("cn", [1, 3, 4])
def test_linear_exact_wide_rows(cn):
    # rows long enough for every vector loop and its tails, up and down
    rng = np.random.default_rng(cn)
    src = _image(rng, "uint8", (61, 517, cn) if cn > 1 else (61, 517))
    for dsize in [(211, 23), (1031, 97), (518, 60), (37, 130), (33, 5)]:
        _same(src, dsize=dsize)


def test_linear_exact_photo_sizes():
    rng = np.random.default_rng(5)
    src = _image(rng, "uint8", (1080, 1920, 3))
    _same(src, dsize=(224, 224))
    _same(src, dsize=(960, 540))  # exactly 2x: the INTER_AREA shortcut
    _same(src, dsize=(1283, 721))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_linear_exact_extreme_values(dtype):
    # all-min / all-max images and a checkerboard of the two: the rounding and saturation ends
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    board = np.where((np.arange(15)[:, None] + np.arange(19)[None, :]) % 2 == 0, lo, hi).astype(dtype)
    for src in (np.full((15, 19, 3), lo, dtype), np.full((15, 19, 3), hi, dtype), board):
        for dsize in [(7, 9), (44, 31), (19, 16), (3, 40)]:
            _same(src, dsize=dsize)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_linear_exact_one_pixel_axes(dtype):
    rng = np.random.default_rng(3)
    for shape in [(1, 9), (9, 1), (1, 1), (1, 6, 3), (5, 1, 4), (2, 2)]:
        src = _image(rng, dtype, shape)
        for dsize in [(4, 7), (1, 3), (13, 2), (1, 1)]:
            if dsize == (shape[1], shape[0]):
                continue
            _same(src, dsize=dsize)


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int16", "int8", "int32"])
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_linear_exact_half_size(dtype, cn):
    # a 2x downscale is cv2's INTER_AREA (int8/int32 have none: both raise), but for 2 channels
    rng = np.random.default_rng(cn)
    src = _image(rng, dtype, (22, 30, cn) if cn > 1 else (22, 30))
    odd = _image(rng, dtype, (23, 31, cn) if cn > 1 else (23, 31))  # fx = 0.5 on odd sizes
    if dtype in ("int8", "int32") and cn != 2:
        for img, kw in [(src, dict(dsize=(15, 11))), (odd, dict(dsize=(0, 0), fx=0.5, fy=0.5))]:
            with pytest.raises(cv2.error):
                cv2.resize(img, interpolation=LE, **kw)
            with pytest.raises(cv.error, match=r"^\[mnn\.cv\.resize\]"):
                cv.resize(img, interpolation=LE, **kw)
        return
    _same(src, dsize=(15, 11))
    _same(odd, dsize=(0, 0), fx=0.5, fy=0.5)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32"])
def test_linear_exact_noncontiguous(dtype):
    rng = np.random.default_rng(9)
    base = _image(rng, dtype, (40, 60, 4))
    for view in (base[3:37:2, 5:55:3], base[:, ::-1, :3], base[::3, 1::2, 1], base[5:30, 7:50]):
        assert not view.flags["C_CONTIGUOUS"]
        _same(view, dsize=(17, 29))
        _same(view, dsize=(0, 0), fx=1.7, fy=0.6)


@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
def test_linear_exact_floats_are_linear(cn):
    # cv2 resizes float images with INTER_LINEAR; with 1, 3 or 4 channels and an explicit dsize
    # that is IPP's lerp (resize_linear_exact.cpp), reproduced to the bit for every channel count
    rng = np.random.default_rng(4)
    for dtype in ("float32", "float64"):
        for _ in range(4):
            h, w = (int(v) for v in rng.integers(2, 40, 2))
            src = _image(rng, dtype, (h, w, cn))
            dsize = tuple(int(v) for v in rng.integers(1, 60, 2))
            want = cv2.resize(src, dsize, interpolation=LE)
            np.testing.assert_array_equal(want, cv2.resize(src, dsize, interpolation=cv2.INTER_LINEAR))
            got = np.asarray(cv.resize(src, dsize, interpolation=LE))
            lin = np.asarray(cv.resize(src, dsize, interpolation=cv2.INTER_LINEAR))
            np.testing.assert_array_equal(got, lin)  # the same kernel as INTER_LINEAR
            np.testing.assert_array_equal(got, want)


def test_linear_float_fx_fy_and_thin_sources_stay_close():
    # fx / fy that are not the size ratios, and 1-pixel sources: cv2's own code there, not IPP
    rng = np.random.default_rng(12)
    for dtype in ("float32", "float64"):
        for shape, kw in [((13, 37), dict(dsize=(0, 0), fx=2.1, fy=1.3)), ((1, 9, 3), dict(dsize=(12, 5))),
                          ((24, 1, 4), dict(dsize=(3, 26)))]:
            src = _image(rng, dtype, shape)
            want = cv2.resize(src, interpolation=LE, **kw)
            got = np.asarray(cv.resize(src, interpolation=LE, **kw))
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


def test_linear_exact_same_size_is_a_copy():
    src = _image(np.random.default_rng(0), "uint16", (6, 7, 3))
    out = np.asarray(cv.resize(src, (7, 6), interpolation=LE))
    np.testing.assert_array_equal(out, src)


def test_linear_exact_rejects_unsupported_depths():
    for dtype in ("float16", "uint32"):
        src = np.zeros((6, 8), dtype)
        with pytest.raises(cv.error, match=r"^\[mnn\.cv\.resize\]"):
            cv.resize(src, (5, 3), interpolation=LE)
    with pytest.raises(cv2.error):
        cv2.resize(np.zeros((6, 8), np.float16), (5, 3), interpolation=LE)
    # int64 is narrowed to int32 by cv2's binding (and mnn's), then resized
    src = np.arange(48, dtype=np.int64).reshape(6, 8) * 1000
    np.testing.assert_array_equal(np.asarray(cv.resize(src, (5, 3), interpolation=LE)),
                                  cv2.resize(src, (5, 3), interpolation=LE))
