"""float32 HSV/HLS -> BGR with hues cv2 itself never finishes on: cv2 wraps the scaled hue into
[0, 6) by adding or subtracting 6 in a loop, which does not end for +-inf or a hue so large that
h - 6 == h. mnn wraps with fmod (the loop's bits wherever the loop's steps are exact) and answers."""

import subprocess
import sys

import numpy
import pytest

PROGRAM = r"""
import numpy, mnn.cv as cv
img = numpy.full((3, 20, 3), 0.5, numpy.float32)
img[0, :, 0] = [numpy.inf, -numpy.inf, 1e30, -1e30, 3e8, -3e8, 5e7, numpy.nan, 1e20, 7e6] * 2
for code in (cv.COLOR_HSV2BGR, cv.COLOR_HLS2BGR, cv.COLOR_HSV2RGB_FULL, cv.COLOR_HLS2RGB_FULL):
    out = numpy.asarray(cv.cvtColor(img, code))
    assert out.shape == img.shape
    assert numpy.isfinite(out[0]).all(), (code, out[0])
print("ok")
"""


def test_huge_and_infinite_hues_return():
    # in a subprocess with a time limit: a regression would hang, not fail
    import os

    import mnn

    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(mnn.__file__)) + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().endswith("ok")


@pytest.mark.parametrize("code", ["COLOR_HSV2BGR", "COLOR_HLS2BGR"])
def test_in_range_hues_still_equal_cv2(code):
    cv2 = pytest.importorskip("cv2")
    import mnn.cv as cv

    rng = numpy.random.default_rng(3)
    img = rng.random((31, 45, 3)).astype(numpy.float32)
    img[..., 0] *= 359.0
    c = getattr(cv2, code)
    numpy.testing.assert_allclose(numpy.asarray(cv.cvtColor(img, c)), cv2.cvtColor(img, c), rtol=0, atol=2.5e-7)
