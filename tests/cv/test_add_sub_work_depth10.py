"""cv.add / cv.subtract with dtype= another depth: cv2 computes in a work depth (int32 for 16/32-bit
sources, wrapping; float32 for float32, or int32 written as float32) before converting, so large
int32 values and float32 sums saved as int32 must match it bit for bit."""
import numpy
import pytest
import cv2

import mnn.cv as cv

DEPTHS = {cv2.CV_8U: "uint8", cv2.CV_8S: "int8", cv2.CV_16U: "uint16", cv2.CV_16S: "int16",
          cv2.CV_32S: "int32", cv2.CV_32F: "float32", cv2.CV_64F: "float64"}


def _pair(dtype, rng):
    if dtype == "int32":  # near the ends of int32, so sums wrap
        a = rng.integers(-2**31, 2**31, (23, 37, 3), dtype=numpy.int64).astype(numpy.int32)
        b = rng.integers(-2**31, 2**31, (23, 37, 3), dtype=numpy.int64).astype(numpy.int32)
    elif dtype == "float32":  # sums whose float32 and float64 roundings differ
        a = (rng.standard_normal((23, 37, 3)) * 1e6).astype(numpy.float32)
        b = (rng.standard_normal((23, 37, 3)) * 1e3).astype(numpy.float32) + numpy.float32(0.5)
    else:
        info = numpy.iinfo(dtype)
        a = rng.integers(info.min, int(info.max) + 1, (23, 37, 3)).astype(dtype)
        b = rng.integers(info.min, int(info.max) + 1, (23, 37, 3)).astype(dtype)
    return a, b


@pytest.mark.parametrize("fn", ["add", "subtract"])
@pytest.mark.parametrize("src", ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"])
def test_every_output_depth_matches_cv2(fn, src):
    rng = numpy.random.default_rng(10)
    a, b = _pair(src, rng) if src != "float64" else (rng.standard_normal((23, 37, 3)) * 1e9,
                                                      rng.standard_normal((23, 37, 3)) * 1e9)
    for code in DEPTHS:
        want = getattr(cv2, fn)(a, b, dtype=code)
        got = numpy.asarray(getattr(cv, fn)(a, b, dtype=code))
        assert got.dtype == want.dtype, (code, got.dtype, want.dtype)
        numpy.testing.assert_array_equal(got, want, err_msg=f"{fn} {src} -> {DEPTHS[code]}")
    # strided views take the same path
    want = getattr(cv2, fn)(a[::2, 1::3], b[::2, 1::3], dtype=cv2.CV_16S)
    numpy.testing.assert_array_equal(numpy.asarray(getattr(cv, fn)(a[::2, 1::3], b[::2, 1::3], dtype=cv2.CV_16S)), want)
