"""The per-call fast paths of session 12 (issue 5): image_key and prim_apply_image in C
(csrc/python/fast_access.cpp), as_image's identity tests (_common.py), the buffer export's single
allocation (bind_array.cpp) and the public wrapper's shared error renaming (_public.py). Each must
give what the path it shortcuts gives: the same keys, the same arrays, the same aliasing, the same
errors."""
import collections

import cv2
import numpy
import pytest

import mnn
import mnn.cv as cv
import mnn.numpy as np
from mnn import _core
from mnn.cv import _fastpix
from mnn.cv._common import as_image, memo_type

DTYPES = ["uint8", "int8", "uint16", "int16", "int32", "int64", "uint64", "float16", "float32", "float64", "bool"]


def _py_image_key(src):
    """The key as _fastpix.image_key built it in Python before it moved to C."""
    c = src.__class__
    if c is not _core.ndarray and memo_type(src) is None:
        return None
    return (c, src.shape, src.dtype, src.strides)


def _views(dt):
    base = (numpy.arange(7 * 9 * 3) % 251).astype(dt).reshape(7, 9, 3)
    return [base, base[:, :, 0], base[1::2, ::3], base[::-1], base[:, 2:, 1], base[None], base[:0]]


@pytest.mark.parametrize("dt", DTYPES)
def test_image_key_matches_the_python_key_for_numpy_and_mnn(dt):
    for v in _views(dt):
        assert _fastpix.image_key(v) == _py_image_key(v)
        m = np.asarray(v)
        assert _fastpix.image_key(m) == _py_image_key(m)
        assert _fastpix.image_key(m)[3] == tuple(m.strides)


def test_image_key_of_other_objects_is_none():
    class Sub(numpy.ndarray):
        pass

    for x in (None, 3, 2.5, "img", [[1, 2]], (1, 2), numpy.zeros(3, "U2"), numpy.zeros(3, object),
              numpy.zeros(3, "datetime64[s]"), numpy.zeros((2, 2)).view(Sub), numpy.float32(1)):
        assert _fastpix.image_key(x) is None
        assert _fastpix.image_key(x) == _py_image_key(x)
    # a byte-swapped array is memoisable (its dtype char is a plain one), keyed by its own dtype
    be = numpy.arange(6, dtype=">i4").reshape(2, 3)
    assert _fastpix.image_key(be) == _py_image_key(be)
    assert _fastpix.image_key(be) != _fastpix.image_key(be.astype("<i4"))


def test_prim_apply_image_equals_prim_apply_and_refuses_what_from_buffer_refuses():
    g = (numpy.arange(5 * 7) * 37 % 256).astype(numpy.uint8).reshape(5, 7)
    cv.threshold(g, 100, 255, cv.THRESH_BINARY)
    bound = _core.prim_bind("cv_count_nz", [], [])
    for src in (g, g[::2, 1:], np.asarray(g)):
        got = _core.prim_apply_image(bound, src)
        ref = _core.prim_apply(bound, src if src.__class__ is _core.ndarray else _core.from_buffer(src))
        assert _core.item(got, 0) == _core.item(ref, 0) == int(numpy.count_nonzero(numpy.asarray(src)))
    assert _core.prim_apply_image(bound, numpy.zeros(3, "U2")) is None  # no buffer import: the caller's checked path
    with pytest.raises(TypeError, match=r"\[mnn.engine\]"):
        _core.prim_apply_image("not a capsule", g)
    with pytest.raises(TypeError, match=r"\[mnn.engine\]"):
        _core.prim_apply_image(bound)


@pytest.mark.parametrize("dt", DTYPES)
def test_as_image_is_zero_copy_and_narrows_64_bit(dt):
    for v in _views(dt):
        v = v.copy() if not v.flags.writeable else v
        img = as_image(v, "f")
        want = v.astype("int32") if dt in ("int64", "uint64") else v
        assert str(img.dtype) == str(want.dtype)
        numpy.testing.assert_array_equal(numpy.asarray(img), want)
    m = np.asarray(_views(dt)[1])
    assert (as_image(m, "f") is m) == (dt not in ("int64", "uint64"))


def test_as_image_aliases_the_numpy_memory_and_keeps_errors():
    a = numpy.zeros((4, 6), numpy.uint8)
    view = a[1:, ::2]
    img = as_image(view, "f")
    view[0, 0] = 9  # a zero-copy import sees the caller's later writes
    assert int(numpy.asarray(img)[0, 0]) == 9
    numpy.testing.assert_array_equal(numpy.asarray(as_image([[1, 2], [3, 4]], "f")), [[1, 2], [3, 4]])
    with pytest.raises(cv.error, match=r"^\[mnn.cv.f\] 'src' is None"):
        as_image(None, "f")
    with pytest.raises(TypeError, match=r"^\[mnn.cv.f\] Expected Ptr<cv::UMat> for argument 'img'"):
        as_image(object(), "f", "img")


@pytest.mark.parametrize("shape", [(), (5,), (3, 7), (4, 5, 3), (2, 3, 4, 5)])
def test_buffer_export_shapes_strides_and_views(shape):
    x = numpy.arange(int(numpy.prod(shape)), dtype=numpy.float32).reshape(shape) * 1.5 - 4
    m = np.asarray(x) + 1  # pending: the export evaluates it
    got = numpy.asarray(m)
    numpy.testing.assert_array_equal(got, x + 1)
    mv = memoryview(m)
    assert mv.shape == shape and mv.format == "f" and mv.strides == got.strides
    if len(shape) >= 2:
        v = m[::-1, ::2]  # a strided window exports its own strides
        numpy.testing.assert_array_equal(numpy.asarray(v), (x + 1)[::-1, ::2])
        assert memoryview(v).strides == numpy.asarray(v).strides
        assert not memoryview(v).c_contiguous


def test_buffer_export_pins_the_memory_and_writes_through():
    m = np.zeros((3, 4), dtype="int16")
    a = numpy.asarray(m)
    a[1, 2] = 7  # numpy's view of a writeable mnn array writes its memory
    assert int(m[1, 2]) == 7
    del m
    assert int(a[1, 2]) == 7 and a.sum() == 7  # the export keeps the buffer alive
    r = cv.add(numpy.ones((2, 3), numpy.uint8), numpy.ones((2, 3), numpy.uint8))
    assert numpy.asarray(r).tolist() == [[2, 2, 2], [2, 2, 2]]


@pytest.mark.parametrize("threads", [1, 2])
def test_memoised_calls_equal_cv2_on_repeats_and_views(threads):
    before = mnn.get_num_threads()
    mnn.set_num_threads(threads)
    try:
        rng = numpy.random.default_rng(3)
        img = rng.integers(0, 256, (97, 131, 3), dtype=numpy.uint8)
        for src in (img[:, :, 0].copy(), img[1::2, ::3, 1], img[::-1, :, 2], img, img[:, ::-1]):
            for _ in range(3):  # the first call fills the memos, the next ones take them
                if src.ndim == 2:
                    assert cv.minMaxLoc(src) == cv2.minMaxLoc(src)
                    assert cv.countNonZero(src) == cv2.countNonZero(src)
                t, d = cv.threshold(src, 100, 255, cv.THRESH_BINARY_INV)
                t2, d2 = cv2.threshold(src, 100, 255, cv2.THRESH_BINARY_INV)
                assert t == t2
                numpy.testing.assert_array_equal(numpy.asarray(d), d2)
                numpy.testing.assert_array_equal(numpy.asarray(cv.flip(src, 1)), cv2.flip(src, 1))
                numpy.testing.assert_array_equal(numpy.asarray(cv.add(src, src)), cv2.add(src, src))
    finally:
        mnn.set_num_threads(before)


def test_memo_sees_new_pixels_of_the_same_array():
    g = numpy.zeros((16, 24), numpy.uint8)
    assert cv.countNonZero(g) == 0
    g[3, 5] = 200
    assert cv.countNonZero(g) == 1  # the memo holds the bound primitive, never the pixels
    assert cv.minMaxLoc(g) == cv2.minMaxLoc(g)
    g[...] = 7
    assert numpy.asarray(cv.threshold(g, 6, 9, cv.THRESH_BINARY)[1]).max() == 9


def test_wrapper_errors_are_renamed_once():
    with pytest.raises(cv.error, match=r"^\[mnn.cv.countNonZero\]"):
        cv.countNonZero(numpy.zeros((4, 4, 3), numpy.uint8))
    with pytest.raises(ValueError, match=r"^\[mnn.cv.threshold\] could not convert string to float: 'a'$"):
        cv.threshold(numpy.zeros((4, 4), numpy.uint8), "a", 255, 0)
    with pytest.raises(ValueError, match=r"^\[mnn.cv.getRotationMatrix2D\]") as e:
        cv.getRotationMatrix2D("center", 1.0, 1.0)
    assert e.value.__cause__ is not None
    # a function without output arguments takes the lean wrapper: a 1-channel result is still 2-d
    r = cv.cvtColor(numpy.zeros((4, 5, 3), numpy.uint8), cv.COLOR_BGR2GRAY)
    assert tuple(r.shape) == (4, 5)


def test_output_argument_is_still_filled():
    src = numpy.arange(12, dtype=numpy.uint8).reshape(3, 4)
    out = numpy.zeros((3, 4), numpy.uint8)
    r = cv.flip(src, 1, dst=out)
    assert r is out
    numpy.testing.assert_array_equal(out, cv2.flip(src, 1))


def test_tuple_results_are_plain_tuples():
    Pair = collections.namedtuple("Pair", "a b")
    from mnn.cv import _public

    wrapped = _public._named(lambda x: Pair(x, x), "mnn.cv.fake")
    r = wrapped(1)
    assert type(r) is tuple and r == (1, 1)
