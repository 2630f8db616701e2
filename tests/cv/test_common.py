"""mnn.cv basics shared by every family: the exception type, input conversion, thread control."""
import numpy
import pytest

import mnn.cv as cv
import mnn.numpy as np


def test_error_is_an_exception_with_the_function_name():
    e = cv._common.fail("resize", "bad size")
    assert isinstance(e, cv.error) and isinstance(e, Exception)
    assert str(e) == "[mnn.cv.resize] bad size"


def test_as_image_accepts_numpy_without_copy_and_rejects_none():
    a = numpy.arange(12, dtype=numpy.uint8).reshape(3, 4)
    img = cv._common.as_image(a, "f")
    assert isinstance(img, np.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(img), a)
    with pytest.raises(cv.error, match=r"\[mnn.cv.f\]"):
        cv._common.as_image(None, "f")


def test_channels():
    assert cv._common.channels(np.zeros((4, 5), dtype="uint8")) == 1
    assert cv._common.channels(np.zeros((4, 5, 3), dtype="uint8")) == 3


def test_set_num_threads_follows_cv2():
    before = cv.getNumThreads()
    try:
        cv.setNumThreads(0)
        assert cv.getNumThreads() == 1
        cv.setNumThreads(2)
        assert cv.getNumThreads() == 2
    finally:
        cv.setNumThreads(before)
