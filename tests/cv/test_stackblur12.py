"""cv2.stackBlur (mnn/cv/_stackblur.py, kernel csrc/backends/cpu/simd/cv/stackblur.cpp) against cv2.

cv2's result depends on its code path per element (table vs float division, vector vs scalar
loops), and its vertical pass is split into stripes by thread count; mnn reproduces the one-thread
paths, so the reference runs with cv2.setNumThreads(1)."""
import cv2
import numpy as np
import pytest

import mnn
import mnn.cv as mc
from tests.helpers import run_under_isa

skdata = pytest.importorskip("skimage.data")


@pytest.fixture(autouse=True)
def _cv2_one_thread():
    old = cv2.getNumThreads()
    cv2.setNumThreads(1)
    yield
    cv2.setNumThreads(old)


def _sources():
    img = skdata.astronaut()[:301, 5:262]
    rng = np.random.default_rng(1)
    return {
        "u8c3": img, "u8c1": cv2.cvtColor(img, cv2.COLOR_RGB2GRAY),
        "u16": img.astype(np.uint16) * 257, "s16": (img.astype(np.int16) - 128) * 200,
        "f32": img.astype(np.float32) / 255, "u8c4": cv2.cvtColor(img, cv2.COLOR_RGB2RGBA)[:, :101],
        "u8c2": rng.integers(0, 256, (67, 45, 2), dtype=np.uint8), "view": img[1::2, ::3],
        "f32c1_rand": rng.standard_normal((53, 79)).astype(np.float32),
    }


KSIZES = [(3, 3), (5, 7), (9, 9), (1, 5), (7, 1), (11, 11), (31, 15), (101, 3), (3, 999), (1, 1)]


@pytest.mark.parametrize("kind", ["u8c3", "u8c1", "u16", "s16", "f32", "u8c4", "u8c2", "view", "f32c1_rand"])
@pytest.mark.parametrize("ksize", KSIZES)
def test_stack_blur(kind, ksize):
    src = _sources()[kind]
    ref = cv2.stackBlur(src, ksize)
    got = np.asarray(mc.stackBlur(src, ksize))
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)


def test_stack_blur_threads_isa_and_dst():
    src = _sources()["u8c3"]
    ref = cv2.stackBlur(src, (7, 9))
    for n in (1, 2):
        mnn.set_num_threads(n)
        np.testing.assert_array_equal(np.asarray(mc.stackBlur(src, (7, 9))), ref)
    mnn.set_num_threads(0)
    dst = np.empty_like(src)
    assert mc.stackBlur(src, (7, 9), dst) is dst
    np.testing.assert_array_equal(dst, ref)
    code = (
        "import json, numpy as np, mnn.cv as mc\n"
        "from skimage import data\n"
        "img = data.astronaut()[:301, 5:262]\n"
        "print(json.dumps([np.asarray(mc.stackBlur(img, (7, 9))).tolist(),\n"
        "                  np.asarray(mc.stackBlur(img.astype(np.float32), (3, 13))).tolist()]))\n"
    )
    fref = cv2.stackBlur(src.astype(np.float32), (3, 13))
    for isa in ("scalar", "avx2", "avx512"):
        a, b = run_under_isa(code, isa)
        np.testing.assert_array_equal(np.array(a, np.uint8), ref)
        np.testing.assert_array_equal(np.array(b, np.float32), fref)


@pytest.mark.parametrize("call", [
    lambda: mc.stackBlur(np.zeros((10, 10), np.uint8), (4, 3)),
    lambda: mc.stackBlur(np.zeros((10, 10), np.uint8), (3, 0)),
    lambda: mc.stackBlur(np.zeros((10, 10), np.float64), (3, 3)),
    lambda: mc.stackBlur(np.zeros((10, 10), np.int32), (3, 3)),
    lambda: mc.stackBlur(None, (3, 3)),
    lambda: mc.stackBlur(np.zeros((0, 10), np.uint8), (3, 3)),
    lambda: mc.stackBlur(np.zeros((10, 10), np.uint8), 3),
])
def test_bad_input(call):
    with pytest.raises((mc.error, TypeError, ValueError)) as e:
        call()
    assert str(e.value).startswith("[mnn.cv.")
