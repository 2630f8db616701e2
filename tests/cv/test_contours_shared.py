"""findContours' results are realised arrays over slices of one shared buffer
(ops/cv/contours_unpack.cpp): each must still behave as an array of its own."""
import gc

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
import mnn  # noqa: E402
import mnn.cv as mcv  # noqa: E402
import mnn.numpy as mnp  # noqa: E402

MODES = [cv2.RETR_EXTERNAL, cv2.RETR_LIST, cv2.RETR_CCOMP, cv2.RETR_TREE]
METHODS = [cv2.CHAIN_APPROX_NONE, cv2.CHAIN_APPROX_SIMPLE, cv2.CHAIN_APPROX_TC89_L1, cv2.CHAIN_APPROX_TC89_KCOS]


def blobs(h, w, seed, p=0.5, blur=5, level=120):
    rng = np.random.default_rng(seed)
    noise = (rng.random((h, w)) < p).astype(np.uint8) * 255
    return (cv2.GaussianBlur(noise, (blur, blur), 0) > level).astype(np.uint8) * 255


def check_same(got, want):
    cs, hier = got
    ws, wh = want
    assert isinstance(cs, tuple) and len(cs) == len(ws)
    for a, b in zip(cs, ws):
        assert a.dtype == mnp.int32 and tuple(a.shape) == b.shape
        np.testing.assert_array_equal(np.asarray(a), b)
    if wh is None:
        assert hier is None
    else:
        assert tuple(hier.shape) == wh.shape
        np.testing.assert_array_equal(np.asarray(hier), wh)


def snapshot(cs, hier):
    return [np.array(np.asarray(c)) for c in cs], np.array(np.asarray(hier))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("method", METHODS)
def test_many_contours_match_cv2(mode, method):
    img = blobs(120, 160, seed=mode * 10 + method)
    want = cv2.findContours(img, mode, method)
    assert len(want[0]) > (10 if mode == cv2.RETR_EXTERNAL else 50)
    check_same(mcv.findContours(mnp.asarray(img), mode, method), want)
    check_same(mcv.findContours(img, mode, method), want)  # a numpy image


def test_writing_one_contour_leaves_the_others_and_a_second_call_unchanged():
    img = blobs(100, 100, seed=1)
    cs, hier = mcv.findContours(mnp.asarray(img), cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE)
    before, hier_before = snapshot(cs, hier)
    k = len(cs) // 2
    cs[k][0, 0, 0] = -7          # a setitem on one contour
    nb = cs[k + 1]
    nb += 1000                    # an in-place update of its neighbour in the buffer
    hier[0, 0, 0] = 99
    assert int(cs[k][0, 0, 0]) == -7
    np.testing.assert_array_equal(np.asarray(cs[k + 1]), before[k + 1] + 1000)
    assert int(hier[0, 0, 0]) == 99 and int(hier[0, 0, 1]) == hier_before[0, 0, 1]
    for i, c in enumerate(cs):
        if i not in (k, k + 1):
            np.testing.assert_array_equal(np.asarray(c), before[i])
    np.testing.assert_array_equal(np.asarray(cs[k])[1:], before[k][1:])
    np.testing.assert_array_equal(np.asarray(cs[k])[0, 0, 1], before[k][0, 0, 1])
    check_same(mcv.findContours(mnp.asarray(img), cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE),
               cv2.findContours(img, cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE))


def test_last_owner_written_in_place_and_others_freed():
    img = blobs(80, 80, seed=2)
    want, _ = cv2.findContours(img, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    cs, hier = mcv.findContours(mnp.asarray(img), cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    last = cs[-1]
    first = cs[0]
    del cs, hier
    gc.collect()
    last *= 3                     # now the sole owners of the shared buffer: written in place
    first -= 1
    np.testing.assert_array_equal(np.asarray(last), want[-1] * 3)
    np.testing.assert_array_equal(np.asarray(first), want[0] - 1)
    np.testing.assert_array_equal(np.asarray(last + first[:1]), want[-1] * 3 + want[0][:1] - 1)


def test_numpy_view_of_one_contour_sees_writes_and_others_do_not():
    img = blobs(60, 60, seed=3)
    cs, _ = mcv.findContours(mnp.asarray(img), cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    before, _ = snapshot(cs, _)
    view = np.asarray(cs[1])
    cs[1][...] = 5
    assert (view == 5).all()
    view[0, 0, 0] = 11             # numpy writes through to that contour only
    assert int(cs[1][0, 0, 0]) == 11
    for i, c in enumerate(cs):
        if i != 1:
            np.testing.assert_array_equal(np.asarray(c), before[i])


def test_contours_survive_the_image():
    img = blobs(90, 70, seed=4)
    want = cv2.findContours(img, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    m = mnp.asarray(img.copy())
    got = mcv.findContours(m, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    del m
    gc.collect()
    junk = [mnp.full((90, 70), 77, dtype="uint8") + 1 for _ in range(4)]  # reuse freed memory
    mnn.eval(*junk)
    check_same(got, want)


def test_lazy_image_is_evaluated():
    img = blobs(50, 50, seed=5)
    lazy = (mnp.asarray(img) > 0).astype("uint8") * 255  # pending until findContours reads it
    check_same(mcv.findContours(lazy, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE),
               cv2.findContours(img, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE))


@pytest.mark.parametrize("shape", [(0, 0), (0, 5), (5, 0), (1, 1), (7, 9)])
@pytest.mark.parametrize("mode", MODES)
def test_empty_and_blank_images(shape, mode):
    img = np.zeros(shape, np.uint8)
    check_same(mcv.findContours(mnp.asarray(img), mode, cv2.CHAIN_APPROX_SIMPLE),
               cv2.findContours(img, mode, cv2.CHAIN_APPROX_SIMPLE))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("where", [(0, 0), (3, 4), (6, 8)])
def test_one_pixel(method, where):
    img = np.zeros((7, 9), np.uint8)
    img[where] = 1
    check_same(mcv.findContours(mnp.asarray(img), cv2.RETR_TREE, method),
               cv2.findContours(img, cv2.RETR_TREE, method))
    one = np.ones((1, 1), np.uint8)
    check_same(mcv.findContours(mnp.asarray(one), cv2.RETR_TREE, method),
               cv2.findContours(one, cv2.RETR_TREE, method))


def test_offset_and_uint8_floodfill_error():
    img = blobs(40, 40, seed=6)
    check_same(mcv.findContours(mnp.asarray(img), cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE, offset=(5, -3)),
               cv2.findContours(img, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE, offset=(5, -3)))
    with pytest.raises(Exception, match=r"\[mnn.cv.findContours\]"):
        mcv.findContours(mnp.asarray(img), cv2.RETR_FLOODFILL, cv2.CHAIN_APPROX_SIMPLE)


def test_graph_primitive_unpacks_the_same():
    """The registered cv_find_contours primitive (a graph node) unpacks to the same arrays."""
    from mnn import _core
    img = blobs(64, 64, seed=7)
    packed = _core.prim("cv_find_contours", [mnp.asarray(img)], [3, 2, 0, 0], [])
    check_same(_core.cv_unpack_contours(packed), cv2.findContours(img, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE))
    empty = _core.prim("cv_find_contours", [mnp.zeros((5, 5), dtype="uint8")], [3, 2, 0, 0], [])
    assert _core.cv_unpack_contours(empty) == ((), None)


def test_eval_of_realised_contours_and_views():
    img = blobs(40, 40, seed=8)
    cs, hier = mcv.findContours(mnp.asarray(img), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    want, _ = cv2.findContours(img, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    lazy = cs[0] + 1
    mnn.eval(*cs, hier, cs[1][::2], lazy)
    np.testing.assert_array_equal(np.asarray(lazy), want[0] + 1)
    np.testing.assert_array_equal(np.asarray(cs[1][::2]), want[1][::2])
