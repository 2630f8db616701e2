"""In-place semantics of mnn.cv drawing, as cv2's: the image given is modified and returned as the
same object, for numpy arrays (written through their memory) and mnn arrays (their own buffer when
no pending computation reads it, else through the graph), their non-contiguous views and the
aliases that share their memory; read-only images raise; pending (lazy) mnn arrays are drawn on
their value while computations recorded earlier keep the old one."""
import cv2
import numpy
import pytest

import mnn
import mnn.cv as cv
import mnn.numpy as mnp

RNG = numpy.random.default_rng(7)


def frame(h=61, w=83, cn=3, dtype=numpy.uint8):
    return RNG.integers(0, 200, (h, w, cn) if cn > 1 else (h, w)).astype(dtype)


def draw(m, img):
    """A mix of commands: thin and thick, LINE_8 and LINE_AA, filled, text."""
    m.line(img, (-5, 3), (90, 50), (255, 10, 20), 1, m.LINE_AA)
    m.rectangle(img, (5, 5), (40, 30), (0, 200, 0), 2)
    m.circle(img, (50, 30), 12, (30, 40, 250), -1, m.LINE_AA)
    m.polylines(img, [numpy.array([[2, 50], [30, 58], [60, 40]], numpy.int32)], True, (9, 99, 199), 1)
    return img


def reference(img):
    want = img.copy()
    draw(cv2, want)
    return want


def cv2_on_view(view, draw_fn):
    """cv2's pixels for a drawing on a view: cv2 itself refuses views whose pixels are not packed
    in rows (mnn draws through them), so it draws on a packed copy that is written back."""
    c = numpy.ascontiguousarray(view)
    draw_fn(c)
    view[...] = c


def test_numpy_modified_in_place_same_object():
    img = frame()
    want = reference(img)
    for fn, args in (("line", ((0, 0), (50, 40), (1, 2, 3), 2, cv2.LINE_AA)),
                     ("rectangle", ((3, 3), (20, 20), (4, 5, 6), -1)),
                     ("circle", ((30, 30), 9, (7, 8, 9), 1)),
                     ("fillPoly", ([numpy.array([[1, 1], [30, 5], [9, 40]], numpy.int32)], (1, 1, 1)))):
        a = frame()
        b = a.copy()
        assert getattr(cv, fn)(a, *args) is a
        getattr(cv2, fn)(b, *args)
        numpy.testing.assert_array_equal(a, b)
    assert draw(cv, img) is img
    numpy.testing.assert_array_equal(img, want)


def test_numpy_putText_in_place():
    a = frame()
    before = a.copy()
    assert cv.putText(a, "abc 0.75", (3, 40), cv.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 0), 1, cv.LINE_AA) is a
    assert (a != before).any()
    m = mnp.array(before)
    cv.putText(m, "abc 0.75", (3, 40), cv.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 0), 1, cv.LINE_AA)
    numpy.testing.assert_array_equal(numpy.asarray(m), a)   # same pixels whichever path drew them


@pytest.mark.parametrize("view", ["rows", "roi", "flipped_rows", "every_other_column", "two_channels", "transposed"])
def test_numpy_views_write_through(view):
    base = frame(cn=3)
    want_base = base.copy()
    pick = {"rows": lambda a: a[5:50],
            "roi": lambda a: a[5:50, 7:70],
            "flipped_rows": lambda a: a[::-1],
            "every_other_column": lambda a: a[:, ::2],
            "two_channels": lambda a: a[:, :, :2],
            "transposed": lambda a: a.transpose(1, 0, 2)}[view]
    v = pick(base)
    assert cv.line(v, (0, 0), (40, 30), (200, 100), 2, cv.LINE_AA) is v
    cv.circle(v, (20, 20), 8, (50, 60), -1)
    cv2_on_view(pick(want_base), lambda c: (cv2.line(c, (0, 0), (40, 30), (200, 100), 2, cv2.LINE_AA),
                                            cv2.circle(c, (20, 20), 8, (50, 60), -1)))
    numpy.testing.assert_array_equal(base, want_base)  # the base sees what was drawn on its view


def test_read_only_numpy_raises_untouched():
    a = frame()
    a.flags.writeable = False
    before = a.copy()
    for call in (lambda: cv.line(a, (0, 0), (5, 5), (1, 2, 3)),
                 lambda: cv.circle(a, (9, 9), 4, (1, 2, 3), -1, cv.LINE_AA),
                 lambda: cv.putText(a, "x", (5, 20), cv.FONT_HERSHEY_SIMPLEX, 0.5, (1, 2, 3))):
        with pytest.raises(cv.error, match=r"\[mnn.cv.(line|circle|putText)\].*read-only"):
            call()
    numpy.testing.assert_array_equal(a, before)
    with pytest.raises(cv.error, match="read-only"):  # a read-only view of a writeable array, too
        cv.rectangle(numpy.broadcast_to(frame(), (61, 83, 3)), (1, 1), (5, 5), (1, 2, 3))


@pytest.mark.parametrize("cn,dtype", [(1, numpy.uint8), (3, numpy.uint8), (4, numpy.uint8), (3, numpy.float32),
                                      (1, numpy.int16)])
def test_mnn_in_place_same_object_and_aliases(cn, dtype):
    img = frame(cn=cn, dtype=dtype)
    want = reference(img)
    m = mnp.array(img)
    mnn.eval(m)
    alias = m[:]           # an mnn view of the whole buffer
    exported = numpy.asarray(m)  # numpy's view of mnn's memory when it is zero-copy
    assert draw(cv, m) is m
    numpy.testing.assert_array_equal(numpy.asarray(m), want)
    numpy.testing.assert_array_equal(numpy.asarray(alias), want)
    if numpy.shares_memory(exported, numpy.asarray(m)):
        numpy.testing.assert_array_equal(exported, want)


@pytest.mark.parametrize("view", ["roi", "flipped_rows", "every_other_column", "channel"])
def test_mnn_views_write_through(view):
    img = frame()
    pick = {"roi": lambda a: a[5:50, 7:70],
            "flipped_rows": lambda a: a[::-1],
            "every_other_column": lambda a: a[:, ::2],
            "channel": lambda a: a[:, :, 1]}[view]
    want = img.copy()
    wv = pick(want)
    cv2_on_view(wv, lambda c: (cv2.line(c, (0, 0), (40, 30), (200, 100, 7), 2, cv2.LINE_AA),
                               cv2.circle(c, (20, 20), 8, (50, 60, 70), -1)))
    m = mnp.array(img)
    mnn.eval(m)
    v = pick(m)
    assert cv.line(v, (0, 0), (40, 30), (200, 100, 7), 2, cv.LINE_AA) is v
    cv.circle(v, (20, 20), 8, (50, 60, 70), -1)
    numpy.testing.assert_array_equal(numpy.asarray(m), want)
    numpy.testing.assert_array_equal(numpy.asarray(v), wv)


def test_mnn_lazy_input_and_earlier_readers():
    img = frame()
    m = mnp.array(img) + 1          # pending: drawn on its value
    later_sum = m.astype(mnp.int32) * 2   # recorded before the drawing: must keep the old value
    want = reference(img + 1)
    assert draw(cv, m) is m
    numpy.testing.assert_array_equal(numpy.asarray(m), want)
    numpy.testing.assert_array_equal(numpy.asarray(later_sum), (img.astype(numpy.int32) + 1) * 2)


def test_mnn_value_read_by_pending_node_keeps_old_value():
    img = frame()
    m = mnp.array(img)
    mnn.eval(m)
    pending = m[10:20] * 1          # reads m's buffer lazily
    cv.rectangle(m, (0, 0), (82, 60), (0, 0, 0), -1)
    numpy.testing.assert_array_equal(numpy.asarray(pending), img[10:20])
    numpy.testing.assert_array_equal(numpy.asarray(m), numpy.zeros_like(img))


def test_mnn_numpy_backed_array_writes_numpy_memory():
    img = frame()
    want = reference(img)
    m = mnp.asarray(img)            # zero-copy over numpy's memory
    draw(cv, m)
    numpy.testing.assert_array_equal(numpy.asarray(m), want)
    if numpy.shares_memory(numpy.asarray(m), img):
        numpy.testing.assert_array_equal(img, want)


@pytest.mark.parametrize("lib", ["numpy", "mnn"])
def test_putText_on_views_the_graph_path(lib):
    """Text on a view whose pixels are not packed in rows takes the graph path (the glyph stream
    travels as packed bytes there too): same pixels as text drawn on a packed copy."""
    img = frame(h=40, w=200)
    before = img.copy()
    want = img.copy()
    packed = numpy.ascontiguousarray(want[:, ::2])
    cv.putText(packed, "Ab 0.5", (2, 25), cv.FONT_HERSHEY_SIMPLEX, 0.6, (255, 0, 90), 1, cv.LINE_AA)
    want[:, ::2] = packed
    m = mnp.array(img) if lib == "mnn" else img
    v = m[:, ::2]
    assert cv.putText(v, "Ab 0.5", (2, 25), cv.FONT_HERSHEY_SIMPLEX, 0.6, (255, 0, 90), 1, cv.LINE_AA) is v
    numpy.testing.assert_array_equal(numpy.asarray(m), want)
    assert (numpy.asarray(m) != before).any()
