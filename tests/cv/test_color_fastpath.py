"""mnn.cv.cvtColor's repeat-call path: the primitive's arguments are remembered per (code, channels,
dtype, dstCn), so a frame loop skips the validation. Each case calls twice or more, mixing
channel counts, dtypes, views and invalid inputs, and compares with cv2."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as cv  # noqa: E402
import mnn.numpy as np  # noqa: E402

RNG = numpy.random.default_rng(17)


def img(shape, dtype="uint8"):
    if dtype == "float32":
        return RNG.random(shape).astype(numpy.float32)
    return RNG.integers(0, 256, shape).astype(dtype)


def same(got, want, tol=0):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype
    assert numpy.abs(g.astype(numpy.float64) - want.astype(numpy.float64)).max(initial=0) <= tol


@pytest.mark.parametrize("code", [cv.COLOR_BGR2RGB, cv.COLOR_BGR2BGRA, cv.COLOR_BGR2GRAY, cv.COLOR_BGR2HSV,
                                  cv.COLOR_RGBA2BGR, cv.COLOR_BGR2YCrCb])
def test_repeated_calls_follow_channels_and_dtype(code):
    for _ in range(2):
        for shape in [(9, 13, 3), (9, 13, 4), (1, 1, 3), (5, 67, 4)]:
            for dtype in ["uint8", "float32"]:
                a = img(shape, dtype)
                try:
                    want = cv2.cvtColor(a, code)
                except cv2.error:
                    with pytest.raises(cv.error, match=r"\[mnn.cv.cvtColor\]"):
                        cv.cvtColor(np.asarray(a), code)
                    continue
                tol = 1e-4 if dtype == "float32" else (1 if code == cv.COLOR_BGR2HSV else 0)
                same(cv.cvtColor(np.asarray(a), code), want, tol)


def test_cached_code_still_rejects_bad_inputs():
    good = np.asarray(img((4, 5, 3)))
    for _ in range(3):
        cv.cvtColor(good, cv.COLOR_BGR2RGB)
    with pytest.raises(cv.error, match=r"\[mnn.cv.cvtColor\]"):
        cv.cvtColor(np.asarray(img((4, 5, 2))), cv.COLOR_BGR2RGB)
    with pytest.raises(cv.error, match=r"\[mnn.cv.cvtColor\]"):
        cv.cvtColor(np.asarray(img((4, 5, 3, 1))), cv.COLOR_BGR2RGB)
    with pytest.raises(cv.error, match=r"\[mnn.cv.cvtColor\]"):
        cv.cvtColor(np.asarray(img((4, 5, 3), "int32")), cv.COLOR_BGR2RGB)
    with pytest.raises(cv.error, match=r"\[mnn.cv.cvtColor\]"):
        cv.cvtColor(good, 100000)


def test_dstcn_is_part_of_the_key():
    hsv = img((6, 7, 3))
    for _ in range(2):
        for dcn in (0, 3, 4):
            same(cv.cvtColor(np.asarray(hsv), cv.COLOR_HSV2BGR, dstCn=dcn), cv2.cvtColor(hsv, cv.COLOR_HSV2BGR, dstCn=dcn), 1)


def test_views_and_one_channel_3d_on_repeat():
    a = img((20, 30, 4))
    for _ in range(2):
        v = np.asarray(a)[2:17:2, ::-1, :3]  # non-contiguous mnn view
        same(cv.cvtColor(v, cv.COLOR_BGR2RGB), cv2.cvtColor(numpy.ascontiguousarray(a[2:17:2, ::-1, :3]),
                                                            cv.COLOR_BGR2RGB))
        g = img((5, 6, 1))
        same(cv.cvtColor(np.asarray(g), cv.COLOR_GRAY2BGR), cv2.cvtColor(g, cv.COLOR_GRAY2BGR))
        g2 = img((5, 6))
        same(cv.cvtColor(np.asarray(g2), cv.COLOR_GRAY2BGR), cv2.cvtColor(g2, cv.COLOR_GRAY2BGR))
        # numpy inputs take the general path and agree too
        same(cv.cvtColor(a[:, :, :3], cv.COLOR_BGR2RGB), cv2.cvtColor(a[:, :, :3], cv.COLOR_BGR2RGB))
