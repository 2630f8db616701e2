"""mnn.cv.cvtColor's Lab and Luv conversions against cv2: uint8 equal to cv2 on every 8-bit triple
(forward: all 2^24 colours, inverse: all 2^24 Lab/Luv byte triples), float32 RGB->Lab/Luv within
1e-5 (they equal cv2's bits in practice) on random, out-of-range and special values, at widths that
exercise both of cv2's code paths within a row (blocks of 8 pixels and the row tail)."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as cv  # noqa: E402

RNG = numpy.random.default_rng(20261126)
FWD = [cv.COLOR_BGR2Lab, cv.COLOR_RGB2Lab, cv.COLOR_LBGR2Lab, cv.COLOR_LRGB2Lab,
       cv.COLOR_BGR2Luv, cv.COLOR_RGB2Luv, cv.COLOR_LBGR2Luv, cv.COLOR_LRGB2Luv]
INV = [cv.COLOR_Lab2BGR, cv.COLOR_Lab2RGB, cv.COLOR_Lab2LBGR, cv.COLOR_Lab2LRGB,
       cv.COLOR_Luv2BGR, cv.COLOR_Luv2RGB, cv.COLOR_Luv2LBGR, cv.COLOR_Luv2LRGB]


@pytest.fixture(scope="module")
def every_triple():
    c = numpy.arange(1 << 24, dtype=numpy.uint32)
    return numpy.stack([c & 255, (c >> 8) & 255, c >> 16], -1).astype(numpy.uint8).reshape(4096, 4096, 3)


def assert_equal_u8(got, want):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype
    bad = numpy.argwhere(g != want)
    assert bad.size == 0, f"{len(bad)} values differ, first at {bad[:3].tolist()}"


@pytest.mark.parametrize("code", [cv.COLOR_BGR2Lab, cv.COLOR_LBGR2Lab, cv.COLOR_BGR2Luv, cv.COLOR_LBGR2Luv,
                                  cv.COLOR_Lab2BGR, cv.COLOR_Lab2LBGR, cv.COLOR_Luv2BGR, cv.COLOR_Luv2LBGR])
def test_u8_every_triple(every_triple, code):
    assert_equal_u8(cv.cvtColor(every_triple, code), cv2.cvtColor(every_triple, code))


@pytest.mark.parametrize("code", FWD + INV)
@pytest.mark.parametrize("shape", [(37, 261, 3), (5, 7, 4), (1, 1, 3), (3, 16, 3)])
def test_u8_random(code, shape):
    if code in INV and shape[2] == 4:
        shape = shape[:2] + (3,)
    a = RNG.integers(0, 256, shape, dtype=numpy.uint8)
    assert_equal_u8(cv.cvtColor(a, code), cv2.cvtColor(a, code))
    if code in INV:
        assert_equal_u8(cv.cvtColor(a, code, dstCn=4), cv2.cvtColor(a, code, dstCn=4))


def test_u8_non_contiguous_and_rgba():
    a = RNG.integers(0, 256, (40, 90, 4), dtype=numpy.uint8)
    v = a[::2, 5:80]
    for code in FWD:
        assert_equal_u8(cv.cvtColor(v, code), cv2.cvtColor(v, code))
        assert_equal_u8(cv.cvtColor(v[..., :3], code), cv2.cvtColor(numpy.ascontiguousarray(v[..., :3]), code))


def float_image(h, w, scn):
    a = RNG.random((h, w, scn)).astype(numpy.float32)
    flat = a.reshape(-1)
    k = len(flat) // 5
    # out of range, exact ends, tiny values (the linear part of the curves) and large ones
    flat[:k] = RNG.uniform(-0.5, 1.5, k)
    flat[k:k + 50] = [0, 1, -0.0, 1e-7, 1e-4, 0.003, 0.0031308, 0.04045, 0.0088, 0.5] * 5
    flat[k + 50:k + 60] = [2, 100, -3, 1 - 1e-7, 1e-30, 0.999, 0.25, 0.75, 1.0001, -1e-6]
    RNG.shuffle(flat)
    return a


@pytest.mark.parametrize("code", FWD)
@pytest.mark.parametrize("w", [1, 7, 8, 9, 16, 17, 64, 131])
@pytest.mark.parametrize("scn", [3, 4])
def test_f32_forward(code, w, scn):
    a = float_image(max(23, 400 // w), w, scn)
    g, want = numpy.asarray(cv.cvtColor(a, code)), cv2.cvtColor(a, code)
    assert g.shape == want.shape and g.dtype == want.dtype
    numpy.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("code", FWD)
def test_f32_forward_nan_inf(code):
    # cv2 clips NaN and +-inf: in its 8-pixel blocks NaN becomes 0 or 1 (by the path's operand
    # order), in the row tail 1; mnn does the same
    a = RNG.random((4, 19, 3)).astype(numpy.float32)
    a[:, 0, 0] = numpy.nan
    a[:, 3, 1] = numpy.inf
    a[:, 5, 2] = -numpy.inf
    a[:, 9, 1] = numpy.nan
    a[:, 17, 1] = numpy.nan       # in the tail (the last pixels of a 19-wide row)
    a[:, 18, 0] = numpy.inf
    g, want = numpy.asarray(cv.cvtColor(a, code)), cv2.cvtColor(a, code)
    numpy.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-4, equal_nan=True)


@pytest.mark.parametrize("code", FWD)
def test_f32_forward_bit_exact(code):
    # the tables and operation order are cv2's, so the float results are its bits
    a = float_image(41, 133, 3)
    numpy.testing.assert_array_equal(numpy.asarray(cv.cvtColor(a, code)), cv2.cvtColor(a, code))


@pytest.mark.parametrize("code", INV)
def test_f32_inverse(code):
    # valid Lab/Luv values (from colours): cv2's inverse-gamma spline and operation order, so its bits
    fwd = {cv.COLOR_Lab2BGR: 44, cv.COLOR_Lab2RGB: 45, cv.COLOR_Lab2LBGR: 74, cv.COLOR_Lab2LRGB: 75,
           cv.COLOR_Luv2BGR: 50, cv.COLOR_Luv2RGB: 51, cv.COLOR_Luv2LBGR: 76, cv.COLOR_Luv2LRGB: 77}[code]
    a = cv2.cvtColor(RNG.random((31, 45, 3)).astype(numpy.float32), fwd)
    g, want = numpy.asarray(cv.cvtColor(a, code)), cv2.cvtColor(a, code)
    assert g.shape == want.shape and g.dtype == want.dtype
    numpy.testing.assert_array_equal(g, want)


def test_empty_and_tiny():
    for code in (cv.COLOR_BGR2Lab, cv.COLOR_BGR2Luv):
        for dtype in (numpy.uint8, numpy.float32):
            a = numpy.zeros((0, 5, 3), dtype)
            assert numpy.asarray(cv.cvtColor(a, code)).shape == cv2.cvtColor(numpy.zeros((1, 5, 3), dtype), code)[:0].shape
