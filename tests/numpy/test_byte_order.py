"""numpy arrays in the non-native byte order (e.g. '>u2' from a file or a network buffer) import as
native arrays with numpy's values; they used to recurse between asarray and array() forever."""

import sys

import numpy
import pytest

import mnn.cv as mcv
import mnn.numpy as np

SWAPPED = ">" if sys.byteorder == "little" else "<"
DTYPES = ["u2", "i2", "u4", "i4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]


@pytest.mark.parametrize("code", DTYPES)
@pytest.mark.parametrize("make", [np.asarray, np.array])
def test_swapped_arrays_import_with_numpys_values(code, make):
    ref = (numpy.arange(24).reshape(2, 3, 4) * 7 - 20).astype(SWAPPED + code)
    for view in (ref, ref[:, ::-1, ::2], ref[1], ref[0, 1, 2], ref[:0]):
        got = make(view)
        assert str(got.dtype) == numpy.dtype(code).name
        assert got.shape == numpy.shape(view)
        numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(view))


def test_swapped_arrays_inside_lists_and_cv():
    a = numpy.array([1, 300, 65535], SWAPPED + "u2")
    got = np.array([a, a[::-1]])
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.array([a, a[::-1]]))
    img = (numpy.arange(64 * 48) % 60000).astype(SWAPPED + "u2").reshape(48, 64)
    import cv2

    ref = cv2.resize(img.astype(numpy.uint16), (32, 24), interpolation=cv2.INTER_AREA)
    numpy.testing.assert_array_equal(numpy.asarray(mcv.resize(img, (32, 24), interpolation=mcv.INTER_AREA)), ref)
