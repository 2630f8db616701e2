"""The per-call shortcuts of session 8: resize and cvtColor remember a validated call for numpy
images too (keyed by the numpy image's type, shape and dtype) and record the primitive bound once
(_core.prim_bind / prim_apply). A remembered call must read the new image's data, whatever its
strides, and must never mix up numpy and mnn images or images that differ only in dtype or
channel count. Compared against cv2 on repeated calls."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn.cv as cv  # noqa: E402
import mnn.numpy as np  # noqa: E402
from mnn import _core  # noqa: E402

RNG = numpy.random.default_rng(88)


def u8(shape):
    return RNG.integers(0, 256, shape, dtype=numpy.uint8)


def same(got, want):
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype, want.dtype)
    assert numpy.array_equal(g, want)


@pytest.mark.parametrize("interp", [cv.INTER_NEAREST, cv.INTER_LINEAR, cv.INTER_AREA, cv.INTER_CUBIC])
def test_resize_numpy_images_repeated(interp):
    for _ in range(4):  # the first call validates, later ones take the remembered primitive
        a = u8((29, 41, 3))
        got, want = cv.resize(a, (17, 9), interpolation=interp), cv2.resize(a, (17, 9), interpolation=interp)
        if interp == cv.INTER_CUBIC:  # u8 CUBIC is within 1 of cv2 (cv2 hands it to IPP)
            g = numpy.asarray(got).astype(int)
            assert g.shape == want.shape and numpy.abs(g - want).max() <= 1
            same(got, numpy.asarray(cv.resize(np.asarray(a), (17, 9), interpolation=interp)))
        else:
            same(got, want)


def test_resize_numpy_memo_sees_writes_and_strides():
    a = u8((24, 32, 3))
    same(cv.resize(a, (8, 6)), cv2.resize(a, (8, 6)))
    a[:] = 255 - a  # the same numpy object, new content: nothing is cached by identity
    same(cv.resize(a, (8, 6)), cv2.resize(a, (8, 6)))
    big = u8((48, 32, 3))
    view = big[::2]  # same shape and dtype as `a`, rows strided
    same(cv.resize(view, (8, 6)), cv2.resize(numpy.ascontiguousarray(view), (8, 6)))
    flipped = a[:, ::-1]  # negative strides
    same(cv.resize(flipped, (8, 6)), cv2.resize(numpy.ascontiguousarray(flipped), (8, 6)))
    ro = a.copy()
    ro.flags.writeable = False
    same(cv.resize(ro, (8, 6)), cv2.resize(ro, (8, 6)))


def test_resize_memo_keeps_numpy_and_mnn_and_dtypes_apart():
    a = u8((20, 30, 3))
    f = RNG.random((20, 30, 3), dtype=numpy.float32)
    for _ in range(2):
        same(cv.resize(a, (10, 7)), cv2.resize(a, (10, 7)))
        same(cv.resize(np.asarray(a), (10, 7)), cv2.resize(a, (10, 7)))
        numpy.testing.assert_allclose(numpy.asarray(cv.resize(f, (10, 7))), cv2.resize(f, (10, 7)), rtol=1e-5)
        same(cv.resize(a[:, :, :1], (10, 7)), cv2.resize(numpy.ascontiguousarray(a[:, :, :1]), (10, 7)))
        same(cv.resize(a[:, :, 0], (10, 7)), cv2.resize(numpy.ascontiguousarray(a[:, :, 0]), (10, 7)))
        same(cv.resize(a, (10, 7), interpolation=cv.INTER_NEAREST),
             cv2.resize(a, (10, 7), interpolation=cv2.INTER_NEAREST))


def test_resize_numpy_errors_after_a_remembered_call():
    a = u8((20, 24, 3))
    same(cv.resize(a, (10, 12)), cv2.resize(a, (10, 12)))
    with pytest.raises(cv.error, match=r"\[mnn.cv.resize\]"):
        cv.resize(a, (10, 12), interpolation=99)
    with pytest.raises(cv.error, match=r"\[mnn.cv.resize\]"):
        cv.resize(a, (0, 0))
    with pytest.raises(TypeError, match=r"\[mnn.cv.resize\]"):
        cv.resize(a, ([10], 12))
    with pytest.raises(cv.error, match=r"\[mnn.cv.resize\]"):
        cv.resize(a.astype(numpy.int32), (10, 12))  # cv2 refuses int32 images for LINEAR too
    # a non-native byte order never takes the buffer import: the general path converts it
    be = a.astype(">u2")  # 16-bit LINEAR is within 1 of cv2: compared with the native-order result
    native = numpy.asarray(cv.resize(np.array(a.astype(numpy.uint16)), (10, 12)))
    assert numpy.abs(native.astype(int) - cv2.resize(a.astype(numpy.uint16), (10, 12))).max() <= 1
    same(cv.resize(be, (10, 12)), native)
    same(cv.resize(be, (10, 12)), native)


@pytest.mark.parametrize("code", [cv2.COLOR_BGR2RGB, cv2.COLOR_BGR2GRAY, cv2.COLOR_BGR2HSV, cv2.COLOR_BGR2BGRA])
def test_cvtcolor_numpy_images_repeated(code):
    for _ in range(3):
        a = u8((13, 22, 3))
        same(cv.cvtColor(a, code), cv2.cvtColor(a, code))
        same(cv.cvtColor(np.asarray(a), code), cv2.cvtColor(a, code))
    view = u8((26, 22, 3))[::2]
    same(cv.cvtColor(view, code), cv2.cvtColor(numpy.ascontiguousarray(view), code))


def test_cvtcolor_memo_keeps_channels_dtypes_and_errors_apart():
    a3, a4 = u8((10, 12, 3)), u8((10, 12, 4))
    f3 = RNG.random((10, 12, 3), dtype=numpy.float32)
    for _ in range(2):
        same(cv.cvtColor(a3, cv2.COLOR_BGR2GRAY), cv2.cvtColor(a3, cv2.COLOR_BGR2GRAY))
        same(cv.cvtColor(a4, cv2.COLOR_BGRA2GRAY), cv2.cvtColor(a4, cv2.COLOR_BGRA2GRAY))
        numpy.testing.assert_allclose(numpy.asarray(cv.cvtColor(f3, cv2.COLOR_BGR2GRAY)),
                                      cv2.cvtColor(f3, cv2.COLOR_BGR2GRAY), rtol=1e-6)
        with pytest.raises(cv.error, match=r"\[mnn.cv.cvtColor\]"):
            cv.cvtColor(a4, cv2.COLOR_GRAY2BGR)  # 4 channels into a 1-channel conversion
        with pytest.raises(cv.error, match=r"\[mnn.cv.cvtColor\]"):
            cv.cvtColor(a3, 9999)


def test_prim_bind_records_what_prim_records():
    a = u8((9, 14, 3))
    m = _core.from_buffer(a)
    bound = _core.prim_bind("cv_resize", [5, 7, 1], [7 / 14, 5 / 9])
    same(_core.prim_apply(bound, m), numpy.asarray(_core.prim("cv_resize", [m], [5, 7, 1], [7 / 14, 5 / 9])))
    same(_core.prim_apply(bound, m), cv2.resize(a, (7, 5)))
    strided = np.asarray(u8((18, 14, 3)))[::2]
    same(_core.prim_apply(bound, strided), cv2.resize(numpy.ascontiguousarray(numpy.asarray(strided)), (7, 5)))
    with pytest.raises(ValueError, match="unknown primitive"):
        _core.prim_bind("no_such_primitive", [], [])
    with pytest.raises(TypeError, match="prim_bind"):
        _core.prim_apply(object(), m)
    with pytest.raises(TypeError, match="mnn ndarrays"):
        _core.prim_apply(bound, a)
