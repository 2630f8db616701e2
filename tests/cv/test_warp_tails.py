"""warpAffine / warpPerspective with NEAREST and LINEAR equal cv2 bit for bit in every column.

cv2 (AVX2) computes the source point of whole groups of 16 columns with fused multiply-adds and
the last width % 16 columns in a scalar loop whose rounding differs (fma(x, M0, y*M1) + M2). These
sweeps use random non-integer centres, angles and scales and destination widths with every tail
length 0..15 (widths that are multiples of 16 included), so a column split or rounding that is off
shows up as a mismatch in the last columns of a row."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as cv  # noqa: E402
import mnn.numpy as np  # noqa: E402

BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP,
           cv2.BORDER_REFLECT_101, cv2.BORDER_TRANSPARENT]


def image(rng, shape, dtype):
    if dtype == "float32":
        return rng.uniform(-50, 300, shape).astype(dtype)
    return rng.integers(0, numpy.iinfo(dtype).max, shape, endpoint=True).astype(dtype)


def assert_same(got, want, what):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, what
    bad = numpy.argwhere(g != want)
    assert bad.size == 0, f"{what}: {len(bad)} values differ, first at {bad[:3].tolist()}"


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32"])
@pytest.mark.parametrize("cn", [1, 3, 4])
@pytest.mark.parametrize("interp", [cv2.INTER_NEAREST, cv2.INTER_LINEAR])
def test_warps_every_tail_length(dtype, cn, interp):
    rng = numpy.random.default_rng(1000 * cn + 10 * interp + len(dtype))
    for tail in range(16):
        h, w = int(rng.integers(5, 40)), int(rng.integers(3, 60))
        dw, dh = 16 * int(rng.integers(0, 3)) + tail or 16, int(rng.integers(2, 12))
        a = image(rng, (h, w, cn) if cn > 1 else (h, w), dtype)
        centre = (w / 2 + rng.uniform(-4, 4), h / 2 + rng.uniform(-4, 4))
        M = cv2.getRotationMatrix2D(centre, rng.uniform(-180, 180), rng.uniform(0.4, 2.5))
        P = numpy.vstack([M, [rng.uniform(-3e-3, 3e-3), rng.uniform(-3e-3, 3e-3), 1.0]])
        border = BORDERS[tail % len(BORDERS)]
        bv = tuple(float(v) for v in rng.uniform(0, 255, 4))
        base = image(rng, (dh, dw, cn) if cn > 1 else (dh, dw), dtype)
        kw = dict(borderMode=border, borderValue=bv)
        for flags in (interp, interp | cv2.WARP_INVERSE_MAP):
            want = cv2.warpAffine(a, M, (dw, dh), dst=base.copy(), flags=flags, **kw)
            got = cv.warpAffine(np.array(a), M, (dw, dh), dst=np.array(base.copy()), flags=flags, **kw)
            assert_same(got, want, f"warpAffine tail={tail} {(h, w)}->{(dh, dw)} flags={flags} border={border}")
        want = cv2.warpPerspective(a, P, (dw, dh), dst=base.copy(), flags=interp, **kw)
        got = cv.warpPerspective(np.array(a), P, (dw, dh), dst=np.array(base.copy()), flags=interp, **kw)
        assert_same(got, want, f"warpPerspective tail={tail} {(h, w)}->{(dh, dw)} border={border}")


@pytest.mark.parametrize("cn", [1, 3, 4])
def test_warp_affine_uint8_linear_wide_rows(cn):
    # wide rows run the AVX2 uint8 path over most of the row, then the cv2-vector and tail columns
    rng = numpy.random.default_rng(cn)
    for dw in (256, 257, 271, 383):
        a = image(rng, (90, 300, cn) if cn > 1 else (90, 300), "uint8")
        centre = (150 + rng.uniform(-1, 1), 45 + rng.uniform(-1, 1))
        M = cv2.getRotationMatrix2D(centre, rng.uniform(-40, 40), rng.uniform(0.7, 1.4))
        for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REFLECT_101, cv2.BORDER_REPLICATE):
            want = cv2.warpAffine(a, M, (dw, 60), borderMode=border)
            assert_same(cv.warpAffine(np.array(a), M, (dw, 60), borderMode=border), want, f"dw={dw} border={border}")


def test_warp_affine_full_hd_off_centre_rotation():
    # the reported case: 1920 columns (a multiple of 16: cv2 has no scalar tail) were off near column 1907
    rng = numpy.random.default_rng(7)
    a = rng.integers(0, 256, (1080, 1920, 3), dtype=numpy.uint8)
    M = cv2.getRotationMatrix2D((1920 / 2 + 0.3, 1080 / 2 - 0.1), 15, 1.0)
    assert_same(cv.warpAffine(np.array(a), M, (1920, 1080)), cv2.warpAffine(a, M, (1920, 1080)), "1080p")


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32"])
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_remap_linear_every_tail_length(dtype, cn):
    # remap's last width % 16 columns interpolate with cv2's fused lerp too
    rng = numpy.random.default_rng(50 + cn + len(dtype))
    for tail in range(16):
        h, w = int(rng.integers(3, 40)), int(rng.integers(2, 50))
        dw, dh = 16 * int(rng.integers(0, 3)) + tail or 16, int(rng.integers(1, 8))
        a = image(rng, (h, w, cn) if cn > 1 else (h, w), dtype)
        mx = rng.uniform(-3, w + 3, (dh, dw)).astype(numpy.float32)
        my = rng.uniform(-3, h + 3, (dh, dw)).astype(numpy.float32)
        for interp in (cv2.INTER_NEAREST, cv2.INTER_LINEAR):
            border = BORDERS[(tail + interp) % 5]
            want = cv2.remap(a, mx, my, interp, borderMode=border, borderValue=(7, 8, 9, 10))
            got = cv.remap(np.array(a), np.array(mx), np.array(my), interp, borderMode=border, borderValue=(7, 8, 9, 10))
            assert_same(got, want, f"remap tail={tail} interp={interp} border={border}")
