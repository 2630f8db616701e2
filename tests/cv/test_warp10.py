"""Issue 5 geometry gaps against cv2 5.0: which depths and channel counts the warps take, and resize
with fx / fy.

- warpAffine / warpPerspective / remap: INTER_NEAREST on int32 (and int64 / uint64, which cv2's
  binding narrows to int32), bit for bit; the interpolating modes refused on int8 / int32, every
  mode refused on uint32 / float16 / bool, as cv2 refuses them.
- 5 to 128 channels (cv2's Python binding's limit) with NEAREST and LINEAR, on cv2's 1/32-pixel
  remap path, bit for bit; CUBIC and LANCZOS4 take at most 4 channels in cv2 and here. float64
  LINEAR is bit for bit too, on any channel count (its border pixels now sum in double, as cv2's).
- the border value rounds as cv2's saturate_cast from double: out-of-int values become the type's
  minimum, and channel c takes entry c % 4.
- resize with dsize=(0, 0) and fx / fy that are not the size ratios: cv2 hands float32 / float64
  LINEAR with 1, 3 or 4 channels to IPP's affine warp; float32 and float64 are bit for bit.
  Everything else cv2 resizes with its own code, which mnn already matched.
"""
import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as cv  # noqa: E402

H, W = 97, 131
DH, DW = 89, 113
BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP, cv2.BORDER_REFLECT_101]
M_AFF = np.float64([[0.93, 0.21, 3.3], [-0.17, 1.08, -2.7]])
M_PERSP = np.float64([[0.95, 0.1, 2.0], [-0.05, 1.02, -1.0], [1e-4, -2e-4, 1.0]])


def _image(rng, dtype, cn, shape=(H, W)):
    shape = shape + ((cn,) if cn > 1 else ())
    if dtype == "bool":
        return rng.random(shape) > 0.5
    if np.dtype(dtype).kind in "ui":
        info = np.iinfo(dtype)
        lo, hi = max(int(info.min), -(2 ** 40)), min(int(info.max), 2 ** 40)
        return rng.integers(lo, hi, shape, endpoint=True).astype(dtype)
    return (rng.random(shape) * 200 - 50).astype(dtype)


def _maps(rng, dh=DH, dw=DW):
    mx = (rng.random((dh, dw)) * (W + 10) - 5).astype(np.float32)
    my = (rng.random((dh, dw)) * (H + 10) - 5).astype(np.float32)
    return mx, my


def _calls(interp, border, bv, maps):
    mx, my = maps
    kw = dict(borderMode=border, borderValue=bv)
    return {
        "warpAffine": lambda m, a: m.warpAffine(a, M_AFF, (DW, DH), flags=interp, **kw),
        "warpPerspective": lambda m, a: m.warpPerspective(a, M_PERSP, (DW, DH), flags=interp, **kw),
        "remap": lambda m, a: m.remap(a, mx, my, interp, **kw),
    }


def _same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint64"])
@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("border", BORDERS)
def test_int32_nearest_matches_cv2(dtype, cn, border):
    rng = np.random.default_rng(cn * 10 + border)
    img = _image(rng, dtype, cn)
    bv = (2.0 ** 40, -123456789.0, 16777217.0, -2.5)  # out of int range, beyond float precision, a tie
    for name, call in _calls(cv2.INTER_NEAREST, border, bv, _maps(rng)).items():
        _same(call(cv, img), call(cv2, img))


def test_int32_nearest_noncontiguous_and_transparent():
    rng = np.random.default_rng(3)
    base = _image(rng, "int32", 4, (H + 20, W + 30))
    views = [base[7:7 + H, 11:11 + W], base[::-1, ::-1, :3][:H, :W], base[1:H + 1, 2:W + 2, 1]]
    for view in views:
        assert not view.flags["C_CONTIGUOUS"]
        for call in _calls(cv2.INTER_NEAREST, cv2.BORDER_REFLECT_101, 0, _maps(rng)).values():
            _same(call(cv, view), call(cv2, np.ascontiguousarray(view)))
    # BORDER_TRANSPARENT keeps the given dst where the source point is outside
    img = _image(rng, "int32", 3)
    dst = _image(rng, "int32", 3, (DH, DW))
    want = cv2.warpAffine(img, M_AFF, (DW, DH), dst=dst.copy(), flags=cv2.INTER_NEAREST,
                          borderMode=cv2.BORDER_TRANSPARENT)
    got = cv.warpAffine(img, M_AFF, (DW, DH), dst=dst.copy(), flags=cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_TRANSPARENT)
    _same(got, want)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint64", "uint32", "float16", "bool"])
@pytest.mark.parametrize("interp", [cv2.INTER_NEAREST, cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_LANCZOS4])
@pytest.mark.parametrize("cn", [1, 3, 5])
def test_depths_accepted_exactly_as_cv2(dtype, interp, cn):
    rng = np.random.default_rng(5)
    img = _image(rng, dtype, cn, (23, 31))
    for name, call in _calls(interp, cv2.BORDER_CONSTANT, 0, _maps(rng, 9, 11)).items():
        try:
            want = call(cv2, img)
        except cv2.error:
            with pytest.raises(cv.error, match=r"^\[mnn\.cv\.%s\]" % name):
                call(cv, img)
            continue
        _same(call(cv, img), want)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"])
@pytest.mark.parametrize("interp", [cv2.INTER_NEAREST, cv2.INTER_LINEAR])
@pytest.mark.parametrize("cn", [5, 7, 16, 128])
def test_many_channels_match_cv2(dtype, interp, cn):
    rng = np.random.default_rng(cn)
    shape = (H, W) if cn < 128 else (29, 37)
    img = _image(rng, dtype, cn, shape)
    if interp != cv2.INTER_NEAREST and dtype in ("int8", "int32"):  # cv2: NEAREST only (ifunc != 0)
        for name, call in _calls(interp, cv2.BORDER_CONSTANT, 0, _maps(rng)).items():
            with pytest.raises(cv2.error):
                call(cv2, img)
            with pytest.raises(cv.error, match=r"^\[mnn\.cv\.%s\] cv2 interpolates" % name):
                call(cv, img)
        return
    for border in BORDERS:
        for call in _calls(interp, border, (7, 300, -2, 9.5), _maps(rng)).values():
            _same(call(cv, img), call(cv2, img))


@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_float64_linear_borders_exact(cn):
    # the taps outside the image (constant, replicate, reflect, wrap) sum in double, as cv2's
    rng = np.random.default_rng(20 + cn)
    img = _image(rng, "float64", cn)
    for border in BORDERS:
        for call in _calls(cv2.INTER_LINEAR, border, (7.25, 300, -2, 9.5), _maps(rng)).values():
            _same(call(cv, img), call(cv2, img))


@pytest.mark.parametrize("cn", [5, 6])
def test_many_channels_noncontiguous(cn):
    rng = np.random.default_rng(11)
    base = _image(rng, "uint8", cn + 2, (H + 10, W + 10))
    view = base[5:5 + H, ::-1][:, :W, 1:cn + 1]
    assert not view.flags["C_CONTIGUOUS"]
    for interp in (cv2.INTER_NEAREST, cv2.INTER_LINEAR):
        for call in _calls(interp, cv2.BORDER_REPLICATE, 0, _maps(rng)).values():
            _same(call(cv, view), call(cv2, np.ascontiguousarray(view)))


@pytest.mark.parametrize("interp", [cv2.INTER_CUBIC, cv2.INTER_LANCZOS4])
def test_many_channels_refused_for_wide_kernels(interp):
    img = np.zeros((9, 11, 5), np.uint8)
    for name, call in _calls(interp, cv2.BORDER_CONSTANT, 0, _maps(np.random.default_rng(0), 4, 5)).items():
        with pytest.raises(cv2.error):
            call(cv2, img)
        with pytest.raises(cv.error, match=r"^\[mnn\.cv\.%s\]" % name):
            call(cv, img)


def test_too_many_channels_refused():
    img = np.zeros((9, 11, 129), np.uint8)
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.warpAffine\] unsupported number of channels 129"):
        cv.warpAffine(img, M_AFF, (5, 4), flags=cv2.INTER_NEAREST)


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int16", "float32"])
@pytest.mark.parametrize("interp", [cv2.INTER_NEAREST, cv2.INTER_LINEAR, cv2.INTER_CUBIC])
def test_border_value_rounds_as_cv2(dtype, interp):
    # saturate_cast<T>(double) is cvRound first: 1e10 fills uint8 with 0, not 255
    img = np.ones((7, 40, 3), dtype)
    m = np.float64([[1, 0, 2], [0, 1, 0]])
    for bv in ((1e10,) * 4, (2 ** 31 - 0.4,) * 4, (16777217.0,) * 4, (-1e10, 300.5, 301.5, 0)):
        want = cv2.warpAffine(img, m, (40, 7), flags=interp, borderValue=bv)
        _same(cv.warpAffine(img, m, (40, 7), flags=interp, borderValue=bv), want)


# ------------------------------------------------------------------------------------------------
# resize with fx / fy

FACTORS = [0.37, 1.7, 0.5, 2.0, 1 / 3]
RESIZE_DTYPES = ["uint8", "int8", "uint16", "int16", "float32", "float64"]
INTERPS = [cv2.INTER_NEAREST, cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_AREA, cv2.INTER_LANCZOS4,
           cv2.INTER_LINEAR_EXACT, cv2.INTER_NEAREST_EXACT]
# cv2 gives IPP uint8 / 16-bit / float32 CUBIC with 1, 3 or 4 channels; IPP's cubic is its own (the
# docstring of mnn/cv/_geometry.py): within 1 on integers, ~1e-5 relative on float32. 16-bit LINEAR
# is IPP's affine warp (exact) unless fx / fy are the size ratios: then IPP's resize (int16 within 1).
IPP_APPROX = {("uint8", cv2.INTER_CUBIC), ("uint16", cv2.INTER_CUBIC), ("int16", cv2.INTER_CUBIC),
              ("float32", cv2.INTER_CUBIC)}


def _resize_pair(img, interp, fx, fy):
    try:
        want = cv2.resize(img, (0, 0), fx=fx, fy=fy, interpolation=interp)
    except cv2.error:
        with pytest.raises(cv.error, match=r"^\[mnn\.cv\.resize\]"):
            cv.resize(img, (0, 0), fx=fx, fy=fy, interpolation=interp)
        return None, None
    return np.asarray(cv.resize(img, (0, 0), fx=fx, fy=fy, interpolation=interp)), want


@pytest.mark.parametrize("dtype", RESIZE_DTYPES)
@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("interp", INTERPS)
def test_resize_fx_fy_matches_cv2(dtype, cn, interp):
    rng = np.random.default_rng(cn * 7 + interp)
    img = _image(rng, dtype, cn)
    for f in FACTORS + [(1.7, 0.61)]:
        fx, fy = f if isinstance(f, tuple) else (f, f)
        ratios = round(W * fx) / W == fx and round(H * fy) / H == fy
        approx = cn in (1, 3, 4) and ((dtype, interp) in IPP_APPROX or
                                      (dtype == "int16" and interp == cv2.INTER_LINEAR and ratios))
        got, want = _resize_pair(img, interp, fx, fy)
        if want is None:
            continue
        assert got.dtype == want.dtype and got.shape == want.shape
        if not approx:  # float64 LINEAR too: IPP's affine warp reproduced (tests/cv/test_cvexact11.py)
            np.testing.assert_array_equal(got, want)
        elif dtype == "float32":
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())
        else:
            assert np.abs(got.astype(np.int64) - want).max() <= 1


@pytest.mark.parametrize("cn", [1, 3, 4])
def test_resize_fx_fy_float32_linear_bit_exact(cn):
    rng = np.random.default_rng(40 + cn)
    for shape in ((H, W), (3, 57), (57, 3), (3, 3), (2, 2), (2, 57), (61, 2)):
        img = _image(rng, "float32", cn, shape)
        for fx, fy in ((0.37, 0.37), (1.7, 1.7), (0.5, 0.5), (1 / 3, 1 / 3), (2.3, 0.77), (0.61, 1.45), (7.3, 5.1)):
            if round(shape[1] * fx) < 1 or round(shape[0] * fy) < 1:
                continue
            got, want = _resize_pair(img, cv2.INTER_LINEAR, fx, fy)
            if min(shape) >= 3:
                np.testing.assert_array_equal(got, want)
            else:  # IPP's warp of 2-pixel-wide sources rounds its own way: an ulp on some pixels
                np.testing.assert_allclose(got, want, rtol=3e-7, atol=3e-7 * np.abs(want).max())


@pytest.mark.parametrize("dtype", ["uint16", "int16"])
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_resize_fx_fy_16bit_linear_bit_exact(dtype, cn):
    # IPP's affine warp on 16-bit images: float lerps rounded to nearest (ties to even)
    rng = np.random.default_rng(50 + cn)
    for shape in ((H, W), (13, 9), (3, 57), (40, 33)):
        img = _image(rng, dtype, cn, shape)
        for fx, fy in ((0.37, 0.37), (1.7, 1.7), (1 / 3, 1 / 3), (2.3, 0.77), (0.61, 1.45), (7.3, 5.1)):
            got, want = _resize_pair(img, cv2.INTER_LINEAR, fx, fy)
            np.testing.assert_array_equal(got, want)
    view = _image(rng, dtype, 4, (H + 4, W + 6))[2:2 + H, ::-1][:, :W, :cn]
    got, want = _resize_pair(view, cv2.INTER_LINEAR, 0.37, 1.7)
    np.testing.assert_array_equal(got, cv2.resize(np.ascontiguousarray(view), (0, 0), fx=0.37, fy=1.7))


def test_resize_fx_fy_noncontiguous():
    rng = np.random.default_rng(8)
    base = _image(rng, "float32", 4, (H + 10, W + 12))
    for view in (base[3:3 + H, 5:5 + W, :3], base[::2, ::-1], base[1:H, 2:W, 2]):
        assert not view.flags["C_CONTIGUOUS"]
        for fx, fy in ((0.37, 0.37), (1.7, 1.3), (1 / 3, 1 / 3)):
            want = cv2.resize(np.ascontiguousarray(view), (0, 0), fx=fx, fy=fy, interpolation=cv2.INTER_LINEAR)
            got = cv.resize(view, (0, 0), fx=fx, fy=fy, interpolation=cv2.INTER_LINEAR)
            np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_resize_dsize_float_linear_bit_exact(dtype, cn):
    # IPP's resize with an explicit dsize, narrow sources included: float32 coordinates are
    # (d + 0.5) * scale - 0.5 unfused (a t rounding to 1 stays with its pixel), and 5 or more
    # destination columns outside the source on one side take an unfused vertical lerp (3 channels:
    # the first two); float64 is one fma and fused lerps throughout
    rng = np.random.default_rng(60 + cn)
    for _ in range(60):
        h, w = (int(v) for v in rng.integers(2, 40, 2))
        src = _image(rng, dtype, cn, (h, w))
        dsize = tuple(int(v) for v in rng.integers(1, 60, 2))
        want = cv2.resize(src, dsize, interpolation=cv2.INTER_LINEAR)
        np.testing.assert_array_equal(np.asarray(cv.resize(src, dsize, interpolation=cv2.INTER_LINEAR)), want)
    for shape, dsize in (((11, 3), (52, 43)), ((36, 2), (47, 15)), ((H, W), (200, 150)), ((34, 13), (45, 56))):
        src = _image(rng, dtype, cn, shape)
        view = np.concatenate([src, src], axis=1)[:, ::2] if shape[1] > 2 else src[:, ::-1]
        for img in (src, view):
            want = cv2.resize(np.ascontiguousarray(img), dsize, interpolation=cv2.INTER_LINEAR)
            np.testing.assert_array_equal(np.asarray(cv.resize(img, dsize, interpolation=cv2.INTER_LINEAR)), want)
