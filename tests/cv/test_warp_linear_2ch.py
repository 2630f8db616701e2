"""2-channel INTER_LINEAR warps against cv2 5.0, bit for bit.

cv2 warps 2-channel images on its older 1/32-pixel path, whose float sum adds the four weighted
taps left to right (p00*w0 + p01*w1 + p10*w2 + p11*w3); float32 results equal cv2's exactly.
"""
import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as cv  # noqa: E402


@pytest.mark.parametrize("dtype", ["float32", "uint8", "uint16", "int16"])
@pytest.mark.parametrize("border", [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT,
                                    cv2.BORDER_WRAP, cv2.BORDER_REFLECT_101])
def test_linear_two_channel_matches_cv2(dtype, border):
    rng = np.random.default_rng(border * 7 + len(dtype))
    for _ in range(3):
        h, w = rng.integers(3, 40, 2)
        dh, dw = rng.integers(1, 45, 2)
        src = (rng.random((h, w, 2)) * 200 - (0 if dtype.startswith("u") else 50)).astype(dtype)
        m = np.eye(2, 3) + rng.normal(0, 0.3, (2, 3))
        m[:, 2] = rng.normal(0, 5, 2)
        p = np.eye(3) + rng.normal(0, 0.2, (3, 3))
        p[2, :2] = rng.normal(0, 0.005, 2)
        p[:2, 2] = rng.normal(0, 5, 2)
        mx = (rng.random((dh, dw)) * (w + 8) - 4).astype(np.float32)
        my = (rng.random((dh, dw)) * (h + 8) - 4).astype(np.float32)
        kw = dict(borderMode=border, borderValue=(3.5, 4.25, 0, 0))
        calls = [lambda m_: m_.warpAffine(src, m, (dw, dh), flags=cv2.INTER_LINEAR, **kw),
                 lambda m_: m_.warpPerspective(src, p, (dw, dh), flags=cv2.INTER_LINEAR, **kw),
                 lambda m_: m_.remap(src, mx, my, cv2.INTER_LINEAR, **kw)]
        for call in calls:
            np.testing.assert_array_equal(np.asarray(call(cv)), call(cv2))
