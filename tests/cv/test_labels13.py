"""connectedComponents[WithStats] as one native call (csrc/ops/cv/components.cpp, session 13):
labels, n, stats and centroids equal cv2's bit for bit on noise of several densities (the
many-small-components case), photo thresholds, large images, odd widths around the 64-pixel mask,
int8 and non-contiguous input, empty and all-foreground images; the stats are computed from runs
(the background's from totals and gaps), so these pin that arithmetic against cv2's pixel sums."""
import cv2
import numpy as np
import pytest

import mnn
import mnn.cv as mc
import mnn.numpy as mnp


def _noise(h, w, seed, above):
    rng = np.random.default_rng(seed)
    return ((rng.random((h, w)) > above) * 255).astype(np.uint8)


def _photo(h, w):
    skdata = pytest.importorskip("skimage.data")
    g = cv2.resize(skdata.camera(), (w, h))
    return cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]


def _check(img, conn, ltype, src=None):
    """mnn on `src` (default: img) against cv2 on img, both calls, every output."""
    src = img if src is None else src
    n, lab = mc.connectedComponents(src, connectivity=conn, ltype=ltype)
    rn, rlab = cv2.connectedComponents(img, connectivity=conn, ltype=ltype)
    assert n == rn and isinstance(n, int)
    assert isinstance(lab, mnp.ndarray)
    got = np.asarray(lab)
    assert got.dtype == rlab.dtype and got.shape == rlab.shape
    np.testing.assert_array_equal(got, rlab)
    n, lab, st, cen = mc.connectedComponentsWithStats(src, connectivity=conn, ltype=ltype)
    rn, rlab, rst, rcen = cv2.connectedComponentsWithStats(img, connectivity=conn, ltype=ltype)
    assert n == rn
    np.testing.assert_array_equal(np.asarray(lab), rlab)
    for a, b in ((st, rst), (cen, rcen)):
        assert isinstance(a, mnp.ndarray)
        g = np.asarray(a)
        assert g.dtype == b.dtype and g.shape == b.shape
        np.testing.assert_array_equal(g, b)  # centroids exact: same double sums, one division
    return rn


@pytest.mark.parametrize("above", [0.5, 0.8, 0.95])
@pytest.mark.parametrize("conn", [4, 8])
@pytest.mark.parametrize("shape", [(48, 64), (61, 67), (33, 129), (1, 200), (150, 1)])
def test_noise_densities(above, conn, shape):
    img = _noise(*shape, seed=int(above * 100) + conn, above=above)
    _check(img, conn, cv2.CV_32S)


@pytest.mark.parametrize("conn", [4, 8])
def test_full_size_noise_and_photo(conn):
    for above in (0.5, 0.8, 0.95):
        assert _check(_noise(480, 640, 7, above), conn, cv2.CV_32S) > 1000
    _check(_photo(480, 640), conn, cv2.CV_32S)
    _check(_noise(1080, 1920, 8, 0.8), conn, cv2.CV_32S)


@pytest.mark.parametrize("conn", [4, 8])
@pytest.mark.parametrize("ltype", [cv2.CV_16U, cv2.CV_32S])
def test_label_types_and_photo(conn, ltype):
    _check(_photo(97, 131), conn, ltype)
    _check(_noise(70, 90, 3, 0.6), conn, ltype)


@pytest.mark.parametrize("conn", [4, 8])
def test_background_stats_edge_cases(conn):
    # all foreground: the background label exists with no pixels (left -1, top INT_MAX, NaN centroid)
    _check(np.full((5, 9), 255, np.uint8), conn, cv2.CV_32S)
    # all background; a frame; holes touching every border; a lone pixel in each corner
    _check(np.zeros((6, 7), np.uint8), conn, cv2.CV_32S)
    f = np.full((8, 10), 255, np.uint8)
    f[2:6, 3:7] = 0
    _check(f, conn, cv2.CV_32S)
    g = np.full((7, 66), 255, np.uint8)
    g[0, 0] = g[-1, -1] = g[3, 0] = g[0, 65] = 0
    _check(g, conn, cv2.CV_32S)
    c = np.zeros((5, 65), np.uint8)
    c[0, 0] = c[0, -1] = c[-1, 0] = c[-1, -1] = 1
    _check(c, conn, cv2.CV_32S)


@pytest.mark.parametrize("conn", [4, 8])
def test_diagonal_and_block_order(conn):
    # diagonal chains and checkerboards: 8-connectivity joins them, and numbers components in
    # cv2's 2x2-block order, which differs from raster order here
    img = np.zeros((9, 12), np.uint8)
    for k in range(6):
        img[1 + k, 2 + k] = 255
    img[0, 9] = img[1, 10] = 255
    img[5, 0] = img[4, 1] = 255
    img[3::2, 9::2] = 255
    _check(img, conn, cv2.CV_32S)
    checker = (np.indices((17, 19)).sum(axis=0) % 2 * 255).astype(np.uint8)
    _check(checker, conn, cv2.CV_32S)


def test_int8_views_and_mnn_input():
    img = _noise(41, 77, 11, 0.5)
    _check(img, 8, cv2.CV_32S, src=img.view(np.int8))
    big = _noise(60, 150, 12, 0.7)
    view = big[5:50:2, 3:140:3]
    _check(np.ascontiguousarray(view), 8, cv2.CV_32S, src=view)
    _check(np.ascontiguousarray(view), 4, cv2.CV_32S, src=mnp.asarray(big)[5:50:2, 3:140:3])
    lazy = (mnp.asarray(img) > 0).astype("uint8") * 3  # pending until the call reads it
    _check(img, 8, cv2.CV_32S, src=lazy)
    _check(img[:, :, None].copy(), 8, cv2.CV_32S, src=img[:, :, None])


@pytest.mark.parametrize("shape", [(0, 0), (0, 5), (5, 0)])
def test_empty_images(shape):
    img = np.zeros(shape, np.uint8)
    n, lab = mc.connectedComponents(img)
    assert n == 1 and tuple(lab.shape) == shape
    n, lab, st, cen = mc.connectedComponentsWithStats(img)
    assert n == 1 and tuple(st.shape) == (1, 5) and tuple(cen.shape) == (1, 2)
    assert np.asarray(st).tolist() == [[-1, 2147483647, 0, 0, 0]]
    assert np.isnan(np.asarray(cen)).all()


def test_repeated_calls_and_threads():
    imgs = [_noise(300, 257, s, a) for s, a in ((1, 0.5), (2, 0.95), (3, 0.8))]
    want = [cv2.connectedComponentsWithStats(i) for i in imgs]
    try:
        for threads in (1, 2):
            mnn.set_num_threads(threads)
            for _ in range(2):  # the run tables are reused between calls
                for img, w in zip(imgs, want):
                    n, lab, st, cen = mc.connectedComponentsWithStats(img)
                    assert n == w[0]
                    for a, b in zip((lab, st, cen), w[1:]):
                        np.testing.assert_array_equal(np.asarray(a), b)
    finally:
        mnn.set_num_threads(1)


def test_results_are_independent_arrays():
    img = _noise(20, 30, 5, 0.5)
    n, lab, st, cen = mc.connectedComponentsWithStats(img)
    want = cv2.connectedComponentsWithStats(img)
    lab[0, 0] = 99
    st += 1
    np.testing.assert_array_equal(np.asarray(st), want[2] + 1)
    np.testing.assert_array_equal(np.asarray(cen), want[3])
    n2, lab2 = mc.connectedComponents(img)
    np.testing.assert_array_equal(np.asarray(lab2), want[1])


def test_uint16_overflow_and_bad_input():
    many = np.zeros((600, 600), np.uint8)
    many[::2, ::2] = 255  # 90000 isolated pixels: more labels than uint16 holds
    with pytest.raises(cv2.error):
        cv2.connectedComponents(many, connectivity=4, ltype=cv2.CV_16U)
    with pytest.raises(ValueError, match=r"^\[mnn.cv.connectedComponents\] Total number of labels overflowed"):
        mc.connectedComponents(many, connectivity=4, ltype=cv2.CV_16U)
    n, _ = mc.connectedComponents(many, connectivity=4)
    assert n == 90001
    with pytest.raises(Exception, match=r"^\[mnn.cv.connectedComponentsWithStats\]"):
        mc.connectedComponentsWithStats(np.zeros((4, 4), np.float32))
    with pytest.raises(Exception, match=r"^\[mnn.cv.connectedComponentsWithStats\]"):
        mc.connectedComponentsWithStats(np.zeros((4, 4), np.uint8), connectivity=6)
    with pytest.raises(Exception, match=r"^\[mnn.cv.connectedComponents\]"):
        mc.connectedComponents(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(Exception, match=r"^\[mnn.cv.connectedComponents\]"):
        mc.connectedComponents(np.zeros((4, 4), np.uint8), ltype=cv2.CV_8U)
