"""Paths added for issue 5's speed margins, against cv2: uint8 LINEAR resizes whose taps are all
(1, 0) (odd integer downscales: a gather of whole pixels), LINEAR rows whose second tap weighs 0
(that row is skipped), and findContours making its 0/1 plane row by row just ahead of the scan and
of borders that run far below it, with reused trace buffers across calls."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as mcv  # noqa: E402
import mnn.numpy as mnp  # noqa: E402


def noise(shape, dtype, seed):
    rng = numpy.random.default_rng(seed)
    info = numpy.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)


# (src h, src w, dst h, dst w): 3x and 5x downscales (taps (1, 0) on both axes), one axis only,
# odd sizes that leave a last column/row at the edge, and 1-pixel outputs
GATHER = [(1080, 1920, 360, 640), (99, 150, 33, 50), (100, 151, 20, 30), (45, 45, 15, 45), (45, 45, 45, 9),
          (9, 10, 3, 2), (3, 3, 1, 1), (31, 7, 31, 1), (300, 3, 100, 1),
          (3, 1, 1, 3), (9, 1, 3, 5)]  # a 1-pixel-wide source: every column clamps to taps (1, 0)


@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("sh,sw,dh,dw", GATHER)
def test_resize_linear_unit_taps_uint8_exact(cn, sh, sw, dh, dw):
    a = noise((sh, sw, cn) if cn > 1 else (sh, sw), "uint8", sh * 7 + sw + cn)
    want = cv2.resize(a, (dw, dh), interpolation=cv2.INTER_LINEAR)
    got = numpy.asarray(mcv.resize(mnp.array(a), (dw, dh), interpolation=mcv.INTER_LINEAR))
    assert got.shape == want.shape and got.dtype == want.dtype
    assert numpy.array_equal(got, want)
    # a numpy input (and a non-contiguous one) takes the same kernel
    assert numpy.array_equal(numpy.asarray(mcv.resize(a, (dw, dh))), want)
    b = numpy.ascontiguousarray(numpy.concatenate([a, a], axis=1))[:, ::2]
    assert numpy.array_equal(numpy.asarray(mcv.resize(b, (dw, dh))), cv2.resize(b, (dw, dh)))


@pytest.mark.parametrize("dtype", ["uint16", "int16"])
@pytest.mark.parametrize("sh,sw,dh,dw", [(99, 150, 33, 50), (45, 45, 15, 45), (60, 61, 12, 61)])
def test_resize_linear_zero_weight_rows_16bit(dtype, sh, sw, dh, dw):
    # rows whose second tap weighs 0 skip that row; cv2 hands 1/3/4-channel 16-bit LINEAR to IPP
    # (within 1), 2 channels it resizes itself (exact)
    for cn in (1, 2, 3, 4):
        a = noise((sh, sw, cn) if cn > 1 else (sh, sw), dtype, cn + sh)
        want = cv2.resize(a, (dw, dh), interpolation=cv2.INTER_LINEAR)
        got = numpy.asarray(mcv.resize(mnp.array(a), (dw, dh), interpolation=mcv.INTER_LINEAR))
        assert got.shape == want.shape and got.dtype == want.dtype
        diff = numpy.abs(got.astype(numpy.int64) - want.astype(numpy.int64)).max()
        assert diff <= (0 if cn == 2 else 1), diff


def _same_contours(got, want):
    gc, gh = got
    wc, wh = want
    assert len(gc) == len(wc)
    for g, w in zip(gc, wc):
        assert numpy.array_equal(numpy.asarray(g), w)
    if wh is None:
        assert gh is None
    else:
        assert numpy.array_equal(numpy.asarray(gh), wh)


def _spiral(h, w):
    """A 1-pixel-wide square spiral over the whole image: its one border runs from the top row to
    the bottom one and back many times (every step into a row the scan has not reached)."""
    pts = []
    t, l, b, r = 1, 1, h - 2, w - 2
    while t + 2 <= b and l + 2 <= r:
        pts += [(l, t), (r, t), (r, b), (l + 2, b), (l + 2, t + 2)]
        t, l, b, r = t + 2, l + 2, b - 2, r - 2
    img = numpy.zeros((h, w), numpy.uint8)
    cv2.polylines(img, [numpy.array(pts, numpy.int32)], False, 255, 1)
    return img


def _images():
    rng = numpy.random.default_rng(8)
    yield _spiral(300, 257)
    yield _spiral(67, 1000)
    comb = numpy.zeros((400, 120), numpy.uint8)  # tall teeth hanging from one top bar
    comb[2:5, 2:118] = 255
    comb[5:398, 2:118:4] = 255
    yield comb
    yield (rng.random((200, 300)) > 0.5).astype(numpy.uint8) * 255  # thousands of borders
    yield (rng.random((700, 400)) > 0.45).astype(numpy.uint8)  # > 32765 borders: int32 labels
    yield numpy.full((40, 33), 7, numpy.uint8)
    yield numpy.zeros((1, 1), numpy.uint8)
    yield numpy.ones((1, 50), numpy.uint8)
    yield numpy.ones((50, 1), numpy.uint8)


@pytest.mark.parametrize("mode", [cv2.RETR_EXTERNAL, cv2.RETR_LIST, cv2.RETR_CCOMP, cv2.RETR_TREE])
@pytest.mark.parametrize("method", [cv2.CHAIN_APPROX_NONE, cv2.CHAIN_APPROX_SIMPLE, cv2.CHAIN_APPROX_TC89_L1])
def test_find_contours_lazy_plane(mode, method):
    for img in _images():
        want = cv2.findContours(img, mode, method)
        _same_contours(mcv.findContours(mnp.array(img), mode, method), want)
        # again: the trace buffers kept from the call before (larger or smaller) are reused
        _same_contours(mcv.findContours(img, mode, method), want)
