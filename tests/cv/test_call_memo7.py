"""The per-call shortcuts of mnn.cv (session 7): resize and GaussianBlur remember the engine
arguments a validated call produced, and numpy images are imported through their buffer directly.
A remembered call must still compute from the new image's data, and every call the shortcut does
not cover must raise what cv2 raises. Compared against cv2 on repeated calls."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as cv  # noqa: E402
import mnn.numpy as np  # noqa: E402

RNG = numpy.random.default_rng(77)


def u8(shape):
    return RNG.integers(0, 256, shape, dtype=numpy.uint8)


def same(got, want):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype, want.dtype)
    assert numpy.array_equal(g, want)


@pytest.mark.parametrize("interp", [cv.INTER_NEAREST, cv.INTER_LINEAR, cv.INTER_AREA])
def test_resize_repeated_calls_read_each_new_image(interp):
    for _ in range(3):  # the first call validates, the next ones take the remembered arguments
        a = u8((37, 45, 3))
        same(cv.resize(np.asarray(a), (16, 11), interpolation=interp), cv2.resize(a, (16, 11), interpolation=interp))
        same(cv.resize(a, (16, 11), interpolation=interp), cv2.resize(a, (16, 11), interpolation=interp))


def test_resize_remembered_shape_with_a_strided_view_and_ignored_factors():
    a = u8((30, 40, 3))
    same(cv.resize(np.asarray(a), (8, 6)), cv2.resize(a, (8, 6)))
    big = u8((60, 40, 3))
    view = np.asarray(big)[::2]  # same shape and dtype as `a`, not contiguous
    same(cv.resize(view, (8, 6)), cv2.resize(numpy.ascontiguousarray(big[::2]), (8, 6)))
    same(cv.resize(np.asarray(a), (8, 6), fx=-3, fy=7), cv2.resize(a, (8, 6), fx=-3, fy=7))


def test_resize_errors_after_a_remembered_call():
    a = u8((20, 24, 3))
    m = np.asarray(a)
    same(cv.resize(m, (10, 12)), cv2.resize(a, (10, 12)))
    # (INTER_LINEAR_EXACT is implemented now: after a remembered call it still follows cv2)
    same(cv.resize(m, (10, 12), interpolation=cv.INTER_LINEAR_EXACT),
         cv2.resize(a, (10, 12), interpolation=cv2.INTER_LINEAR_EXACT))
    for args, kwargs in [(((0, 0),), {}), ((None,), {"fx": 0, "fy": 1}), (((10, 12),), {"interpolation": 99})]:
        with pytest.raises(cv.error, match=r"\[mnn.cv.resize\]"):
            cv.resize(m, *args, **kwargs)
    with pytest.raises(TypeError, match=r"\[mnn.cv.resize\]"):
        cv.resize(m, ([10], 12))
    with pytest.raises(cv2.error):
        cv2.resize(a, (10, 12), interpolation=99)
    # a 1-channel HxWx1 image comes back HxW, remembered or not
    one = u8((20, 24, 1))
    for _ in range(2):
        same(cv.resize(np.asarray(one), (10, 12)), cv2.resize(one, (10, 12)))


@pytest.mark.parametrize("dtype", ["uint8", "float32", "float64"])
@pytest.mark.parametrize("ksize,sigma", [((3, 3), 0), ((0, 0), 1.5), ((5, 1), 0.8), ((1, 1), 0)])
def test_gaussian_blur_repeated_calls(dtype, ksize, sigma):
    for _ in range(3):
        a = u8((19, 23, 3)).astype(dtype)
        want = cv2.GaussianBlur(a, ksize, sigma)
        for src in (a, np.asarray(a)):
            got = numpy.asarray(cv.GaussianBlur(src, ksize, sigma))
            assert got.shape == want.shape and got.dtype == want.dtype
            if dtype == "uint8":
                assert numpy.abs(got.astype(int) - want).max(initial=0) <= 1
            else:
                numpy.testing.assert_allclose(got, want, rtol=0, atol=1e-4 * 255)


def test_gaussian_blur_errors_after_a_remembered_call():
    a = u8((10, 12, 3))
    cv.GaussianBlur(a, (3, 3), 0)
    with pytest.raises(cv.error, match="ksize.width > 0"):
        cv.GaussianBlur(a, (4, 3), 0, borderType=99)  # the size is checked before the border
    with pytest.raises(cv2.error):
        cv2.GaussianBlur(a, (4, 3), 0, borderType=cv2.BORDER_REFLECT)
    with pytest.raises(cv.error, match="unsupported border type"):
        cv.GaussianBlur(a, (3, 3), 0, borderType=cv.BORDER_WRAP + 10)
    with pytest.raises(cv.error, match="unsupported border type"):
        cv.GaussianBlur(a.astype("float32"), (3, 3), 0, borderType=cv.BORDER_WRAP)
    with pytest.raises(cv2.error):
        cv2.GaussianBlur(a.astype("float32"), (3, 3), 0, borderType=cv2.BORDER_WRAP)


def test_numpy_images_through_the_buffer():
    a = u8((9, 14, 3))
    same(cv.cvtColor(a, cv.COLOR_BGR2GRAY), cv2.cvtColor(a, cv2.COLOR_BGR2GRAY))
    same(cv.cvtColor(a[:, ::2], cv.COLOR_BGR2RGB), cv2.cvtColor(a[:, ::2], cv2.COLOR_BGR2RGB))
    b = (u8((9, 14)) > 128)
    same(cv.resize(b, (7, 5), interpolation=cv.INTER_NEAREST), cv2.resize(b.astype(numpy.uint8), (7, 5),
                                                                        interpolation=cv2.INTER_NEAREST) > 0)
    with pytest.raises(cv.error, match="unsupported depth"):
        cv.resize(numpy.array([["a", "b"]]), (3, 3))
    with pytest.raises(TypeError, match=r"\[mnn.cv.cvtColor\]"):
        cv.cvtColor(object(), cv.COLOR_BGR2GRAY)
