"""INTER_CUBIC warps on cv2's generic path (int16, float64, and 2-channel images of any depth)
against cv2 5.0, bit for bit.

What makes them exact (backends/cpu/simd/cv/warp_cubic.cpp): each row of four taps is summed
from its second tap (w1*p1, then fused multiply-adds of p0, p2, p3); a float64 pixel with any
tap outside the image sums taps truncated to integers (the source pixels, the border constant,
the old destination pixel alike); with BORDER_CONSTANT / BORDER_TRANSPARENT a point outside
(-3, n+1) on some axis takes the constant as given / keeps the old pixel.
"""
import zlib

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as cv  # noqa: E402

BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP,
           cv2.BORDER_REFLECT_101, cv2.BORDER_TRANSPARENT]
FLAGS = cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP


def _image(rng, dtype, shape):
    if dtype == "int16":
        return rng.integers(-32768, 32768, shape).astype(dtype)
    if dtype == "uint8":
        return rng.integers(0, 256, shape).astype(dtype)
    if dtype == "uint16":
        return rng.integers(0, 65536, shape).astype(dtype)
    return (rng.random(shape) * 300 - 80).astype(dtype)


def _call(fn, op, src, a, b, border, bval, dst):
    kw = dict(borderMode=border, borderValue=bval)
    if border == cv2.BORDER_TRANSPARENT:
        kw["dst"] = dst.copy()
    if op == "affine":
        return np.asarray(fn.warpAffine(src, a, b, flags=FLAGS, **kw))
    if op == "perspective":
        return np.asarray(fn.warpPerspective(src, a, b, flags=FLAGS, **kw))
    return np.asarray(fn.remap(src, a, b, cv2.INTER_CUBIC, **kw))


def _args(rng, op, h, w, dh, dw):
    if op == "affine":
        m = np.eye(2, 3) + rng.normal(0, 0.35, (2, 3))
        m[:, 2] = rng.normal(0, 9, 2)
        return m, (dw, dh)
    if op == "perspective":
        m = np.eye(3) + rng.normal(0, 0.15, (3, 3))
        m[2, :2] = rng.normal(0, 0.01, 2)
        m[:2, 2] = rng.normal(0, 8, 2)
        return m, (dw, dh)
    mx = (rng.random((dh, dw)) * (w + 12) - 6).astype(np.float32)
    my = (rng.random((dh, dw)) * (h + 12) - 6).astype(np.float32)
    return mx, my


def _exact(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", ["affine", "perspective", "remap"])
@pytest.mark.parametrize("dtype,cn", [("int16", 1), ("int16", 2), ("int16", 3), ("int16", 4),
                                      ("float64", 1), ("float64", 2), ("float64", 3), ("float64", 4),
                                      ("float32", 2), ("uint8", 2), ("uint16", 2)])
@pytest.mark.parametrize("border", BORDERS)
def test_generic_cubic_exact(op, dtype, cn, border):
    rng = np.random.default_rng(zlib.crc32(repr((op, dtype, cn, border)).encode()))
    for _ in range(3):
        h, w = (int(v) for v in rng.integers(2, 26, 2))
        dh, dw = (int(v) for v in rng.integers(1, 30, 2))
        shape = (h, w) if cn == 1 else (h, w, cn)
        src = _image(rng, dtype, shape)
        a, b = _args(rng, op, h, w, dh, dw)
        # fractional constants: float64 truncates them where they enter a sum, not where stored
        bval = tuple(float(v) for v in rng.random(4) * 300 - 40)
        dst = _image(rng, dtype, (dh, dw) if cn == 1 else (dh, dw, cn))
        _exact(_call(cv, op, src, a, b, border, bval, dst), _call(cv2, op, src, a, b, border, bval, dst))


@pytest.mark.parametrize("border", [cv2.BORDER_CONSTANT, cv2.BORDER_TRANSPARENT, cv2.BORDER_REFLECT_101])
def test_float64_edge_sweep(border):
    # a translation that walks a small image through every case: wholly inside, taps partly
    # outside (truncated sums), all taps outside but within (-3, n+1), and beyond it
    rng = np.random.default_rng(border)
    src = rng.random((7, 6, 3)) * 200 - 100
    dst = rng.random((4, 19, 3)) * 200 - 100
    for tx in (-9.5, -3.0, -2.999, -2.5, -1.25, 0.0, 0.5, 2.75, 4.5, 5.0, 6.999, 7.0, 12.25):
        for ty in (-3.5, -2.9, 0.25, 5.6, 6.9, 7.1):
            m = np.array([[1.0, 0.0, tx], [0.0, 1.0, ty]])
            bval = (7.6, -7.6, 123.4, 0)
            _exact(_call(cv, "affine", src, m, (19, 4), border, bval, dst),
                   _call(cv2, "affine", src, m, (19, 4), border, bval, dst))


def test_float64_rotation_photo_sized():
    rng = np.random.default_rng(17)
    src = rng.random((97, 131)) * 1000 - 500
    m = cv2.getRotationMatrix2D((60.0, 45.0), 23.0, 0.9)
    for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE):
        want = cv2.warpAffine(src, m, (140, 100), flags=cv2.INTER_CUBIC, borderMode=border, borderValue=(3.7,))
        got = np.asarray(cv.warpAffine(src, m, (140, 100), flags=cv2.INTER_CUBIC, borderMode=border,
                                       borderValue=(3.7,)))
        _exact(got, want)


def test_int16_extremes():
    # sums near the int16 ends and within a hair of .5: saturation and rounding
    rng = np.random.default_rng(5)
    src = np.where(rng.random((16, 16)) < 0.5, -32768, 32767).astype(np.int16)
    for op in ("affine", "perspective", "remap"):
        a, b = _args(rng, op, 16, 16, 20, 21)
        for border in BORDERS:
            dst = _image(rng, "int16", (20, 21))
            _exact(_call(cv, op, src, a, b, border, (-40000.0, 0, 0, 0), dst),
                   _call(cv2, op, src, a, b, border, (-40000.0, 0, 0, 0), dst))


def test_generic_noncontiguous_source():
    rng = np.random.default_rng(8)
    base = rng.random((30, 40, 4)) * 100
    m = np.array([[0.9, 0.2, 1.5], [-0.1, 1.1, -2.0]])
    for view in (base[::2, 1::2, :2], base[3:25, 5:35, 1], base[:, ::-1, :2].astype(np.int16)):
        for border in (cv2.BORDER_CONSTANT, cv2.BORDER_WRAP):
            want = cv2.warpAffine(np.ascontiguousarray(view), m, (17, 13), flags=FLAGS, borderMode=border)
            got = np.asarray(cv.warpAffine(view, m, (17, 13), flags=FLAGS, borderMode=border))
            _exact(got, want)


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32", "int16", "float64"])
@pytest.mark.parametrize("border", [cv2.BORDER_CONSTANT, cv2.BORDER_TRANSPARENT])
def test_outside_bound_is_half_open(dtype, border):
    # every point of a row at one x: exactly -3 is still computed (all its taps outside), below
    # -3 or from n + 1 on it is the constant / the old pixel; the 8-lane and generic paths alike
    rng = np.random.default_rng(31)
    src = _image(rng, dtype, (7, 6, 3))
    for tx in (-3.0, -2.9999, -3.0001, 7.0, 6.9999, 7.0001):
        for ty in (-3.0, 0.5, 7.0, 6.9999, -3.0001):
            m = np.array([[0.0, 0.0, tx], [0.0, 1.0, ty]])
            dst = _image(rng, dtype, (3, 16, 3))
            bval = (7.6, 17.2, 100.5, 0)
            _exact(_call(cv, "affine", src, m, (16, 3), border, bval, dst),
                   _call(cv2, "affine", src, m, (16, 3), border, bval, dst))
