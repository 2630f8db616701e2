"""connectedComponents' mask-based run extraction and findContours' reused scratch (session 12):
labels, stats and contours equal cv2's on noise, photos and sparse images, on widths around the
64-pixel mask boundary, on non-contiguous views, and over repeated calls (the scratch is reused)."""
import cv2
import numpy as np
import pytest

import mnn.cv as mc


def _noise(h, w, seed, density=0.5):
    rng = np.random.default_rng(seed)
    return (rng.random((h, w)) < density).astype(np.uint8) * 255


def _photo(h, w):
    skdata = pytest.importorskip("skimage.data")
    return ((cv2.resize(skdata.camera(), (w, h)) > 100) * 255).astype(np.uint8)


def _sparse(h, w):
    s = np.zeros((h, w), np.uint8)
    cv2.circle(s, (w // 3, h // 2), max(2, h // 5), 255, -1)
    cv2.circle(s, (2 * w // 3, h // 3), max(2, h // 6), 255, 2)
    s[-1, -1] = 7  # a lone pixel in the last column of the last row
    return s


IMAGES = [
    ("noise", lambda: _noise(37, 63, 1)), ("noise64", lambda: _noise(21, 64, 2)), ("noise65", lambda: _noise(19, 65, 3)),
    ("noise129", lambda: _noise(33, 129, 4, 0.7)), ("dense", lambda: _noise(17, 130, 5, 0.95)),
    ("full", lambda: np.full((9, 70), 255, np.uint8)), ("empty", lambda: np.zeros((9, 70), np.uint8)),
    ("photo", lambda: _photo(121, 161)), ("sparse", lambda: _sparse(97, 203)), ("one_col", lambda: _noise(40, 1, 6)),
]


@pytest.mark.parametrize("name,make", IMAGES, ids=[n for n, _ in IMAGES])
@pytest.mark.parametrize("conn", [4, 8])
@pytest.mark.parametrize("ltype", [cv2.CV_16U, cv2.CV_32S])
def test_components_match_cv2(name, make, conn, ltype):
    img = make()
    for _ in range(2):  # the second call runs on the thread's reused scratch
        n, lab = mc.connectedComponents(img, connectivity=conn, ltype=ltype)
        rn, rlab = cv2.connectedComponents(img, connectivity=conn, ltype=ltype)
        assert n == rn
        np.testing.assert_array_equal(np.asarray(lab), rlab)
        assert np.asarray(lab).dtype == rlab.dtype
    n, lab, st, cen = mc.connectedComponentsWithStats(img, connectivity=conn, ltype=ltype)
    rn, rlab, rst, rcen = cv2.connectedComponentsWithStats(img, connectivity=conn, ltype=ltype)
    assert n == rn
    np.testing.assert_array_equal(np.asarray(lab), rlab)
    np.testing.assert_array_equal(np.asarray(st), rst)
    np.testing.assert_array_equal(np.asarray(cen), rcen)


@pytest.mark.parametrize("conn", [4, 8])
def test_components_on_views(conn):
    base = _noise(60, 200, 7)
    for view in (base[3:50, 5:140], base[::2, 1::3], base[:, ::-1]):
        n, lab, st, cen = mc.connectedComponentsWithStats(view, connectivity=conn)
        rn, rlab, rst, rcen = cv2.connectedComponentsWithStats(np.ascontiguousarray(view), connectivity=conn)
        assert n == rn
        np.testing.assert_array_equal(np.asarray(lab), rlab)
        np.testing.assert_array_equal(np.asarray(st), rst)
        np.testing.assert_array_equal(np.asarray(cen), rcen)


def _same_contours(got, want):
    cs, h = got
    rcs, rh = want
    assert len(cs) == len(rcs)
    for c, rc in zip(cs, rcs):
        np.testing.assert_array_equal(np.asarray(c), rc)
    if rh is None:
        assert h is None
    else:
        np.testing.assert_array_equal(np.asarray(h), rh)


@pytest.mark.parametrize("name,make", IMAGES, ids=[n for n, _ in IMAGES])
@pytest.mark.parametrize("method", [cv2.CHAIN_APPROX_NONE, cv2.CHAIN_APPROX_SIMPLE, cv2.CHAIN_APPROX_TC89_L1,
                                    cv2.CHAIN_APPROX_TC89_KCOS])
def test_find_contours_match_cv2(name, make, method):
    img = make()
    for mode in (cv2.RETR_LIST, cv2.RETR_TREE, cv2.RETR_EXTERNAL, cv2.RETR_CCOMP):
        for _ in range(2):  # reused TC89 scratch must not leak between borders or calls
            _same_contours(mc.findContours(img, mode, method), cv2.findContours(img, mode, method))


def test_components_bad_input():
    with pytest.raises(Exception, match=r"^\[mnn.cv.connectedComponents\]"):
        mc.connectedComponents(_noise(5, 5, 0), connectivity=6)
    with pytest.raises(Exception, match=r"^\[mnn.cv.connectedComponentsWithStats\]"):
        mc.connectedComponentsWithStats(np.zeros((4, 4), np.float32))
