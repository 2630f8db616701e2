"""The uint8 fast paths of resize and cvtColor against cv2, byte for byte: the 2x2 INTER_AREA
kernel (pair sums, 1, 3 and 4 channels; 2 channels round ties to even), BGR2GRAY's 32-pixel
pmaddwd loop, and permutations and gray large enough to be written with non-temporal stores
(>= 6 MB read + written), at widths around every vector step, 1-pixel images, non-contiguous views
and on several threads (whose chunks start at unaligned output addresses)."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn  # noqa: E402
import mnn.cv as cv  # noqa: E402
import mnn.numpy as np  # noqa: E402

RNG = numpy.random.default_rng(2026)
WIDTHS = [1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 95, 96, 97, 130, 333]


def u8(shape):
    return RNG.integers(0, 256, shape).astype(numpy.uint8)


def same(got, want):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype
    assert numpy.array_equal(g, want)


@pytest.fixture(params=[1, 2])
def threads(request):
    old = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(old)


@pytest.mark.parametrize("cn", [1, 2, 3, 4])
@pytest.mark.parametrize("interp", [cv.INTER_AREA, cv.INTER_LINEAR])  # cv2 routes an exact 2x LINEAR to AREA
def test_area_2x2_matches_cv2(cn, interp):
    for h in (2, 3, 5):
        for w in WIDTHS:
            a = u8((h, w) if cn == 1 else (h, w, cn))
            dsize = (max(w // 2, 1), max(h // 2, 1))
            if dsize == (w, h):
                continue
            same(cv.resize(np.asarray(a), dsize, interpolation=interp), cv2.resize(a, dsize, interpolation=interp))


@pytest.mark.parametrize("cn", [1, 3, 4])
def test_area_2x2_extremes_and_views(cn):
    # all-255 blocks (sum 1020, the largest pair sum) and sums of 4k + 2 (the rounding ties)
    shape = (6, 70) if cn == 1 else (6, 70, cn)
    for a in (numpy.full(shape, 255, numpy.uint8), numpy.zeros(shape, numpy.uint8),
              numpy.tile(numpy.array([0, 1, 1, 0], numpy.uint8), 6 * 70 * cn // 4 + 1)[:6 * 70 * cn].reshape(shape)):
        same(cv.resize(np.asarray(a), (35, 3), interpolation=cv.INTER_AREA),
             cv2.resize(a, (35, 3), interpolation=cv.INTER_AREA))
    big = u8((13, 101) if cn == 1 else (13, 101, cn))
    view = big[1:11, 3:99]  # strided rows, offset start: the wrapper copies to contiguous first
    same(cv.resize(np.asarray(big)[1:11, 3:99], (48, 5), interpolation=cv.INTER_AREA),
         cv2.resize(numpy.ascontiguousarray(view), (48, 5), interpolation=cv.INTER_AREA))


def test_area_2x2_full_hd(threads):
    a = u8((1080, 1920, 3))
    same(cv.resize(np.asarray(a), (960, 540), interpolation=cv.INTER_AREA),
         cv2.resize(a, (960, 540), interpolation=cv.INTER_AREA))


@pytest.mark.parametrize("code,cn", [(cv.COLOR_BGR2GRAY, 3), (cv.COLOR_RGB2GRAY, 3),
                                     (cv.COLOR_BGRA2GRAY, 4), (cv.COLOR_RGBA2GRAY, 4)])
def test_gray_matches_cv2(code, cn):
    for w in WIDTHS:
        a = u8((3, w, cn))
        same(cv.cvtColor(np.asarray(a), code), cv2.cvtColor(a, code))
    for a in (numpy.full((4, 70, cn), 255, numpy.uint8), u8((1, 1, cn))):
        same(cv.cvtColor(np.asarray(a), code), cv2.cvtColor(a, code))
    big = u8((9, 80, cn))
    same(cv.cvtColor(np.asarray(big)[1:8, 5:75], code), cv2.cvtColor(numpy.ascontiguousarray(big[1:8, 5:75]), code))


@pytest.mark.parametrize("code", [cv.COLOR_BGR2RGB, cv.COLOR_BGR2BGRA, cv.COLOR_BGR2RGBA, cv.COLOR_BGR2GRAY])
def test_large_images_match_cv2(code, threads):
    # >= 6 MB read + written: the stores are streamed; odd sizes leave unaligned heads and tails
    for shape in [(1080, 1920, 3), (701, 2003, 3), (1601, 1201, 3)]:
        a = u8(shape)
        same(cv.cvtColor(np.asarray(a), code), cv2.cvtColor(a, code))
    a = u8((1100, 2005, 3))
    view = a[3:1090, 2:2001]
    same(cv.cvtColor(np.asarray(a)[3:1090, 2:2001], code), cv2.cvtColor(numpy.ascontiguousarray(view), code))


@pytest.mark.parametrize("code", [cv.COLOR_BGRA2BGR, cv.COLOR_BGRA2RGBA, cv.COLOR_RGBA2BGR])
def test_large_four_channel_sources_match_cv2(code, threads):
    a = u8((1000, 1333, 4))
    same(cv.cvtColor(np.asarray(a), code), cv2.cvtColor(a, code))


def test_one_pixel_images():
    for cn in (1, 3, 4):
        a = u8((1, 1) if cn == 1 else (1, 1, cn))
        same(cv.resize(np.asarray(a), (1, 1), interpolation=cv.INTER_AREA), cv2.resize(a, (1, 1), interpolation=cv.INTER_AREA))
        b = u8((2, 2) if cn == 1 else (2, 2, cn))
        same(cv.resize(np.asarray(b), (1, 1), interpolation=cv.INTER_AREA), cv2.resize(b, (1, 1), interpolation=cv.INTER_AREA))
    a = u8((1, 1, 3))
    for code in (cv.COLOR_BGR2RGB, cv.COLOR_BGR2BGRA, cv.COLOR_BGR2GRAY):
        same(cv.cvtColor(np.asarray(a), code), cv2.cvtColor(a, code))
