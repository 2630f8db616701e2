"""INTER_CUBIC warpAffine / warpPerspective / remap against cv2 5.0, bit for bit.

uint8, uint16 and float32 results equal cv2's exactly, for 1-4 channels and every border mode,
including points far outside the image (cv2 clamps coordinates to [-max(n,16), 2*max(n,16)],
which matters for reflecting and wrapping borders), NaN / inf map entries, a perspective
denominator of zero, and BORDER_TRANSPARENT (cv2 works in groups of 8 pixels whose outside taps
read the destination at the group's first pixel). int16 and 2-channel images run cv2's generic
path, exact as well (tests/cv/test_warp_cubic9.py covers it, float64 included).
"""
import zlib

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as cv  # noqa: E402

DTYPES = ["uint8", "uint16", "int16", "float32"]
BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP,
           cv2.BORDER_REFLECT_101, cv2.BORDER_TRANSPARENT]


def _image(rng, dtype, h, w, cn):
    shape = (h, w) if cn == 1 else (h, w, cn)
    if dtype == "uint8":
        return rng.integers(0, 256, shape).astype(dtype)
    if dtype == "uint16":
        return rng.integers(0, 65536, shape).astype(dtype)
    if dtype == "int16":
        return rng.integers(-32768, 32768, shape).astype(dtype)
    return (rng.random(shape) * 300 - 50).astype(dtype)


def _check(got, want, dtype, cn=1):
    # exact on cv2's generic path too (int16, 2 channels): its summation order is known now
    # (warp_cubic.cpp; tests/cv/test_warp_cubic9.py)
    got = np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def _call(fn, src, op, dsize, border, bval, dst):
    kw = dict(borderMode=border, borderValue=bval)
    if border == cv2.BORDER_TRANSPARENT:
        kw["dst"] = dst.copy()
    flags = cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP
    if op == "affine":
        return fn.warpAffine(src, dsize[0], dsize[1], flags=flags, **kw)
    if op == "perspective":
        return fn.warpPerspective(src, dsize[0], dsize[1], flags=flags, **kw)
    return fn.remap(src, dsize[0], dsize[1], cv2.INTER_CUBIC, **kw)


def _args(rng, op, h, w, dh, dw):
    if op == "affine":
        m = np.eye(2, 3) + rng.normal(0, 0.4, (2, 3))
        m[:, 2] = rng.normal(0, 15, 2)
        return m, (dw, dh)
    if op == "perspective":
        m = np.eye(3) + rng.normal(0, 0.2, (3, 3))
        m[2, :2] = rng.normal(0, 0.01, 2)
        m[:2, 2] = rng.normal(0, 10, 2)
        return m, (dw, dh)
    mx = (rng.random((dh, dw)) * (w + 60) - 30).astype(np.float32)
    my = (rng.random((dh, dw)) * (h + 60) - 30).astype(np.float32)
    return mx, my


@pytest.mark.parametrize("op", ["affine", "perspective", "remap"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
@pytest.mark.parametrize("border", BORDERS)
def test_cubic_matches_cv2(op, dtype, cn, border):
    rng = np.random.default_rng(zlib.crc32(repr((op, dtype, cn, border)).encode()))
    for _ in range(2):
        h, w = rng.integers(2, 30, 2)
        dh, dw = rng.integers(1, 40, 2)
        src = _image(rng, dtype, h, w, cn)
        a, b = _args(rng, op, h, w, dh, dw)
        bval = tuple(float(v) for v in rng.random(4) * 300 - 20)
        dst = _image(rng, dtype, dh, dw, cn)
        want = _call(cv2, src, op, (a, b), border, bval, dst)
        got = _call(cv, src, op, (a, b), border, bval, dst)
        _check(got, want, dtype, cn)


@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("dw", [1, 5, 8, 12, 16, 17, 33])
def test_cubic_groups_and_far_points(border, dw):
    # translations that sweep a small image across the row: groups wholly outside, partly
    # inside, the overlapping last group, and points far beyond the clamp bounds
    rng = np.random.default_rng(dw * 10 + border)
    for dtype in ["uint8", "float32"]:
        src = _image(rng, dtype, 7, 5, 3)
        dst = _image(rng, dtype, 3, dw, 3)
        for tx in (-70.3, -9.8125, -6.3, -2.97, 0.4, 3.6, 5.97, 40.25):
            m = np.array([[1.0, 0.0, tx], [0.0, 1.0, 1.3]])
            want = _call(cv2, src, "affine", (m, (dw, 3)), border, (17.3, 200.6, 3.0, 0), dst)
            got = _call(cv, src, "affine", (m, (dw, 3)), border, (17.3, 200.6, 3.0, 0), dst)
            _check(got, want, dtype)


@pytest.mark.parametrize("border", BORDERS[:5])
def test_cubic_nonfinite_coordinates(border):
    src = (np.arange(36, dtype=np.float32).reshape(6, 6) * 7 + 3)
    mx = np.array([[np.nan, np.inf, -np.inf, 1e20, -1e20, 2.5, np.nan, 2.5, 3e9, -3e9]], np.float32)
    my = np.array([[2.5, 2.5, 2.5, 2.5, 2.5, np.nan, np.nan, np.inf, 2.5, 2.5]], np.float32)
    for img in (src, src.astype(np.uint8)):
        want = cv2.remap(img, mx, my, cv2.INTER_CUBIC, borderMode=border, borderValue=(99, 0, 0, 0))
        got = cv.remap(img, mx, my, cv2.INTER_CUBIC, borderMode=border, borderValue=(99, 0, 0, 0))
        np.testing.assert_array_equal(np.asarray(got), want)
    # a perspective denominator of zero at x = 4: X / 0 is inf or NaN, then clamped
    p = np.array([[1, 0, 0], [0, 1, 0], [0.5, 0, -2.0]])
    flags = cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP
    want = cv2.warpPerspective(src, p, (8, 2), flags=flags, borderMode=border, borderValue=(99, 0, 0, 0))
    got = cv.warpPerspective(src, p, (8, 2), flags=flags, borderMode=border, borderValue=(99, 0, 0, 0))
    np.testing.assert_array_equal(np.asarray(got), want)


def test_cubic_forward_matrix_and_large_image():
    # the usual call: a forward matrix (inverted inside), a photo-sized uint8 image
    rng = np.random.default_rng(7)
    src = rng.integers(0, 256, (181, 243, 3)).astype(np.uint8)
    m = cv2.getRotationMatrix2D((120.0, 90.0), 17.0, 1.13)
    for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REFLECT_101):
        want = cv2.warpAffine(src, m, (250, 190), flags=cv2.INTER_CUBIC, borderMode=border)
        got = cv.warpAffine(src, m, (250, 190), flags=cv2.INTER_CUBIC, borderMode=border)
        np.testing.assert_array_equal(np.asarray(got), want)


def test_cubic_int8_rejected_like_cv2():
    src = np.zeros((5, 5), np.int8)
    m = np.eye(2, 3)
    with pytest.raises(Exception):
        cv2.warpAffine(src, m, (5, 5), flags=cv2.INTER_CUBIC)
    with pytest.raises(cv.error, match=r"\[mnn.cv.warpAffine\]"):
        cv.warpAffine(src, m, (5, 5), flags=cv2.INTER_CUBIC)
    with pytest.raises(cv.error, match=r"\[mnn.cv.remap\]"):
        cv.remap(src, np.zeros((3, 3), np.float32), np.zeros((3, 3), np.float32), cv2.INTER_CUBIC)
