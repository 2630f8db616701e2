"""uint8 BGR/RGB -> HLS_FULL (and HSV_FULL -> BGR/RGB) against cv2, which on x86 hands it to Intel IPP (hue scale 255, and
IPP's own float arithmetic with the approximate reciprocal). IPP's vector code covers the first
w - w % 8 pixels of each row, which mnn reproduces exactly on every colour; its scalar code does
the last w % 8, where mnn is exact on ~97% of colours and one level away on the rest."""

import platform

import cv2
import numpy
import pytest

import mnn.cv as cv

pytestmark = pytest.mark.skipif(
    platform.machine().lower() not in ("x86_64", "amd64") or not cv2.ipp.useIPP(),
    reason="cv2 routes HLS_FULL through IPP only in its x86 builds with IPP on")

CODES = [(cv2.COLOR_BGR2HLS_FULL, "BGR"), (cv2.COLOR_RGB2HLS_FULL, "RGB")]


def all_colours(width):
    v = numpy.arange(1 << 24, dtype=numpy.uint32)
    img = numpy.stack([(v >> 16) & 255, (v >> 8) & 255, v & 255], -1).astype(numpy.uint8)
    return img.reshape(-1, width, 3)


@pytest.mark.parametrize("code,name", CODES)
def test_every_colour_in_ipp_vector_part_is_exact(code, name):
    img = all_colours(4096)  # rows of 4096: no scalar tail
    numpy.testing.assert_array_equal(numpy.asarray(cv.cvtColor(img, code)), cv2.cvtColor(img, code))


def test_every_colour_in_ipp_scalar_tail_within_one():
    img = all_colours(1)  # every pixel is its row's tail
    want = cv2.cvtColor(img, cv2.COLOR_BGR2HLS_FULL).astype(numpy.int16)
    got = numpy.asarray(cv.cvtColor(img, cv2.COLOR_BGR2HLS_FULL)).astype(numpy.int16)
    diff = got - want
    assert numpy.abs(diff).max() <= 1
    assert numpy.count_nonzero(diff[..., 1]) == 0  # L: (max + min) >> 1 exactly
    assert numpy.count_nonzero(diff.any(-1)) < 0.03 * diff.shape[0]


@pytest.mark.parametrize("code,name", CODES)
@pytest.mark.parametrize("shape", [(1, 1, 3), (3, 7, 3), (97, 131, 3), (64, 136, 4), (5, 8, 4), (240, 17, 3)])
def test_random_images(code, name, shape):
    rng = numpy.random.default_rng(sum(shape))
    img = rng.integers(0, 256, shape, dtype=numpy.uint8)
    want = cv2.cvtColor(img, code)
    got = numpy.asarray(cv.cvtColor(img, code))
    body = shape[1] - shape[1] % 8
    numpy.testing.assert_array_equal(got[:, :body], want[:, :body])
    assert numpy.abs(got.astype(int) - want).max() <= 1


def test_view_and_mnn_input():
    import mnn.numpy as mnp

    rng = numpy.random.default_rng(5)
    img = rng.integers(0, 256, (64, 200, 3), dtype=numpy.uint8)[:, 8:168]  # a view, 160 wide
    want = cv2.cvtColor(numpy.ascontiguousarray(img), cv2.COLOR_BGR2HLS_FULL)
    numpy.testing.assert_array_equal(numpy.asarray(cv.cvtColor(img, cv2.COLOR_BGR2HLS_FULL)), want)
    numpy.testing.assert_array_equal(numpy.asarray(cv.cvtColor(mnp.asarray(img), cv2.COLOR_BGR2HLS_FULL)), want)


@pytest.mark.parametrize("code", [cv2.COLOR_HSV2BGR_FULL, cv2.COLOR_HSV2RGB_FULL])
def test_hsv_full_inverse_every_input(code):
    """HSV_FULL -> BGR/RGB (IPP too): equal on all but 53 of the 2^24 inputs, one level apart there."""
    img = all_colours(4096)  # H, S, V
    want = cv2.cvtColor(img, code)
    got = numpy.asarray(cv.cvtColor(img, code))
    diff = numpy.abs(got.astype(numpy.int16) - want)
    assert diff.max() <= 1
    assert numpy.count_nonzero(diff.any(-1)) <= 53


@pytest.mark.parametrize("dcn", [3, 4])
@pytest.mark.parametrize("shape", [(1, 1), (7, 13), (97, 131)])
def test_hsv_full_inverse_random(dcn, shape):
    rng = numpy.random.default_rng(dcn + shape[1])
    img = rng.integers(0, 256, shape + (3,), dtype=numpy.uint8)
    for code in (cv2.COLOR_HSV2BGR_FULL, cv2.COLOR_HSV2RGB_FULL):
        want = cv2.cvtColor(img, code, dstCn=dcn)
        got = numpy.asarray(cv.cvtColor(img, code, dstCn=dcn))
        assert got.shape == want.shape
        assert numpy.abs(got.astype(int) - want).max() <= 1
        assert numpy.count_nonzero(got != want) <= 1
