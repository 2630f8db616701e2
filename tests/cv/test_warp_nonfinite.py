"""NaN / infinite / huge map entries with INTER_NEAREST and INTER_LINEAR (uint8, uint16, float32)
equal cv2 5.0's results, which follow from its float -> int conversion: floor / round of a NaN,
an infinity or a value outside the int range is INT_MIN, per axis. So the pixel is outside on that
axis (a replicating border takes the first row / column there; wrapping folds INT_MIN in 32-bit
arithmetic), and the bilinear fraction s - float(INT_MIN) is NaN or infinite for a non-finite s:
the sum is NaN (0 for integer images) whatever the border, except where cv2 skips the pixel as
wholly outside: in its scalar tail (the last width % 16 columns) pixel by pixel, in its vector
columns only when the whole group of 16 is outside. Reflecting borders with huge coordinates are
left out: cv2 itself folds them one period at a time (seconds per pixel)."""
import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as cv  # noqa: E402

VALS = [np.nan, np.inf, -np.inf, 1e20, -1e20, 3e9, -3e9, 2.2e9, -2.2e9, 2.1e9, -2.1e9, 1e9, -1e9,
        40000.0, -40000.0, 33000, -33000, 32767.5, -32768.5, 2.5]


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32"])
@pytest.mark.parametrize("interp", [cv2.INTER_NEAREST, cv2.INTER_LINEAR])
@pytest.mark.parametrize("border", [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_WRAP,
                                    cv2.BORDER_TRANSPARENT])
def test_nonfinite_map_entries(dtype, interp, border):
    src = (np.arange(36).reshape(6, 6) * 7 + 3).astype(dtype)
    for pad in (0, 3, 32):  # the values in vector groups with inside lanes, whole groups, the tail
        for axis in (0, 1):
            mx = np.full((1, pad + len(VALS)), 2.5, np.float32)
            my = mx.copy()
            (mx if axis == 0 else my)[0, pad:] = VALS
            kw = dict(borderMode=border, borderValue=(99, 0, 0, 0))
            dst = np.full(mx.shape, 77, dtype)
            want = cv2.remap(src, mx, my, interp, dst=dst.copy(), **kw)
            got = np.asarray(cv.remap(src, mx, my, interp, dst=dst.copy(), **kw))
            np.testing.assert_array_equal(got, want, err_msg=f"pad={pad} axis={axis}")
