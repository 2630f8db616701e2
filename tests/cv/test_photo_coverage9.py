"""Issue 5's photo coverage: every function of the cv list against cv2 on real photographs
(scikit-image's astronaut, coffee, chelsea, camera, coins), in the depths and channel counts that
pipelines feed them (uint8 gray/BGR/BGRA, uint16 from 16-bit PNGs, float32 after /255).

Exact on integer outputs except where another test documents cv2's own rounding (named at each
tol=1); floats within 1e-5 of the output's magnitude. Crops are small odd sizes (CI's time budget):
the photo's content, not its size, is what these tests add to the random-image grids."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")
skdata = pytest.importorskip("skimage.data")

import mnn.cv as cv  # noqa: E402
import mnn.numpy as np  # noqa: E402


def _bgr(rgb):
    return numpy.ascontiguousarray(rgb[..., ::-1])


ASTRO = _bgr(skdata.astronaut()[40:237, 150:381])  # 197x231: the face and the flag
COFFEE = _bgr(skdata.coffee()[100:297, 200:431])  # same size as ASTRO, for two-image ops
CHELSEA = _bgr(skdata.chelsea()[50:250, 100:330])  # 200x230: even, for 4:2:0 YUV
CAMERA = numpy.ascontiguousarray(skdata.camera()[100:353, 130:421])  # 253x291 gray
COINS = numpy.ascontiguousarray(skdata.coins()[:201, :253])  # gray, many blobs
GRAY = cv2.cvtColor(ASTRO, cv2.COLOR_BGR2GRAY)
BGRA = numpy.dstack([ASTRO, GRAY])  # a real alpha plane
U16 = {1: CAMERA.astype(numpy.uint16) * 257, 3: ASTRO.astype(numpy.uint16) * 257}
F32 = {1: GRAY.astype(numpy.float32) / 255, 3: ASTRO.astype(numpy.float32) / 255}
PIPELINE = [ASTRO, BGRA, CAMERA, U16[1], U16[3], F32[1], F32[3]]
PIPELINE_IDS = ["bgr", "bgra", "gray", "gray16", "bgr16", "grayf", "bgrf"]


def same(got, want, tol=0, rel=1e-5, where=""):
    if isinstance(want, dict):
        for k in want:
            same(got[k], want[k], tol, rel, f"{where}[{k}]")
        return
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, tol, rel, f"{where}[{i}]")
        return
    if want is None or isinstance(want, (bool, int, float, numpy.generic)):
        if isinstance(want, float) or isinstance(want, numpy.floating):
            assert abs(float(got) - float(want)) <= rel * max(1.0, abs(float(want))), (where, got, want)
        else:
            assert got == want, (where, got, want)
        return
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (where, g.shape, want.shape, g.dtype, want.dtype)
    if want.dtype.kind in "iub":
        d = numpy.abs(g.astype(numpy.int64) - want.astype(numpy.int64))
        assert d.max(initial=0) <= tol, f"{where}: max diff {d.max()} on {int((d > 0).sum())} of {d.size}"
    else:
        scale = max(1.0, float(numpy.abs(want[numpy.isfinite(want)]).max(initial=0)))
        numpy.testing.assert_allclose(g, want, rtol=rel, atol=rel * scale, equal_nan=True, err_msg=where)


def both(fn, *args, **kw):
    """(mnn result, cv2 result) of the same call; inputs copied so in-place drawing stays separate."""
    def cp(v):
        return v.copy() if isinstance(v, numpy.ndarray) else v
    return getattr(cv, fn)(*map(cp, args), **kw), getattr(cv2, fn)(*map(cp, args), **kw)


# ---- codecs ----------------------------------------------------------------------------------

READ_FLAGS = [cv2.IMREAD_UNCHANGED, cv2.IMREAD_GRAYSCALE, cv2.IMREAD_COLOR, cv2.IMREAD_ANYDEPTH,
              cv2.IMREAD_ANYCOLOR, cv2.IMREAD_ANYDEPTH | cv2.IMREAD_ANYCOLOR, cv2.IMREAD_COLOR_RGB]


@pytest.mark.parametrize("img", [CAMERA, ASTRO, BGRA, U16[1], U16[3]], ids=["gray", "bgr", "bgra", "gray16", "bgr16"])
def test_png_photo_both_ways_every_read_flag(img, tmp_path):
    ok, mine = cv.imencode(".png", img)
    assert ok
    same(cv2.imdecode(numpy.asarray(mine), cv2.IMREAD_UNCHANGED), img)  # mnn writes, cv2 reads: lossless
    ok, ref = cv2.imencode(".png", img)
    for flags in READ_FLAGS:
        same(cv.imdecode(ref, flags), cv2.imdecode(ref, flags), where=str(flags))
    path = str(tmp_path / "p.png")
    assert cv.imwrite(path, img)
    for flags in (cv2.IMREAD_UNCHANGED, cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE):
        same(cv.imread(path, flags), cv2.imread(path, flags), where=str(flags))


@pytest.mark.parametrize("img", [CAMERA, ASTRO], ids=["gray", "bgr"])
def test_bmp_photo_both_ways(img, tmp_path):
    ok, mine = cv.imencode(".bmp", img)
    assert ok
    same(cv2.imdecode(numpy.asarray(mine), cv2.IMREAD_UNCHANGED), img)
    ok, ref = cv2.imencode(".bmp", img)
    for flags in (cv2.IMREAD_UNCHANGED, cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE):
        same(cv.imdecode(ref, flags), cv2.imdecode(ref, flags), where=str(flags))


@pytest.mark.parametrize("img", [CAMERA, CHELSEA], ids=["gray", "bgr"])
def test_jpeg_photo_decode_and_encode(img, tmp_path):
    ok, ref = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    for flags in (cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE, cv2.IMREAD_UNCHANGED, cv2.IMREAD_COLOR_RGB):
        got, want = numpy.asarray(cv.imdecode(ref, flags)), cv2.imdecode(ref, flags)
        assert got.shape == want.shape and got.dtype == want.dtype
        # IDCT/upsampling rounding: within 1 on average (tests/cv/test_codecs.py::test_jpeg_decode_matches_cv2)
        assert numpy.abs(got.astype(int) - want).mean() <= 1
    ok, mine = cv.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    back = cv2.imdecode(numpy.asarray(mine), cv2.IMREAD_UNCHANGED)
    theirs = cv2.imdecode(ref, cv2.IMREAD_UNCHANGED)
    assert back.shape == img.shape
    # mnn's encoder loses no more than cv2's at the same quality
    assert numpy.abs(back.astype(int) - img).mean() <= numpy.abs(theirs.astype(int) - img).mean() + 0.5


# ---- color -----------------------------------------------------------------------------------

IPP_OR_FLOAT_PATH = {68, 69, 70, 71, 72, 73, 52, 53, 54, 55, 60, 61}  # tests/cv/test_color.py: within 1


def _color_cases():
    out = []
    for code, (kind, _p, scns, depths) in sorted(cv._color._TABLE.items()):
        if kind in (cv._color._YUV420SP, cv._color._YUV420P, "y_plane", cv._color._TO_YUV420P):
            continue
        for d in depths:
            scn = scns[-1] if d == "uint8" else scns[0]  # BGRA where accepted on uint8, else the first
            out.append(pytest.param(code, d, scn, id=f"{code}-{d}-c{scn}"))
    return out


@pytest.mark.parametrize("code,dtype,scn", _color_cases())
def test_cvtcolor_every_code_on_a_photo(code, dtype, scn):
    if scn == 2:  # packed 2-byte pixels (BGR565/555, YUV 4:2:2): the photo packed by cv2 itself
        packer = cv2.COLOR_BGR2YUV_YUY2 if cv._color._TABLE[code][0] == "422" else cv2.COLOR_BGR2BGR565
        src = cv2.cvtColor(numpy.ascontiguousarray(ASTRO[:, : ASTRO.shape[1] // 2 * 2]), packer)
    else:
        src = {1: CAMERA, 3: ASTRO, 4: BGRA}[scn]
    if cv._color._TABLE[code][0] == "422":  # 4:2:2 needs an even width
        src = numpy.ascontiguousarray(src[:, : src.shape[1] // 2 * 2])
    if dtype == "uint16":
        src = src.astype(numpy.uint16) * 257
    elif dtype == "float32":
        src = src.astype(numpy.float32) / 255
    same(cv.cvtColor(src, code), cv2.cvtColor(src, code), tol=1 if code in IPP_OR_FLOAT_PATH else 0)


@pytest.mark.parametrize("fwd,inv", [(cv2.COLOR_BGR2HSV, cv2.COLOR_HSV2BGR), (cv2.COLOR_BGR2HLS, cv2.COLOR_HLS2BGR),
                                     (cv2.COLOR_BGR2Lab, cv2.COLOR_Lab2BGR), (cv2.COLOR_BGR2Luv, cv2.COLOR_Luv2BGR),
                                     (cv2.COLOR_BGR2YCrCb, cv2.COLOR_YCrCb2BGR), (cv2.COLOR_BGR2XYZ, cv2.COLOR_XYZ2BGR)])
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_cvtcolor_inverse_on_a_converted_photo(fwd, inv, dtype):
    # the inverse conversions fed real HSV/Lab/... values, as a pipeline does
    src = ASTRO if dtype == "uint8" else F32[3]
    mid = cv2.cvtColor(src, fwd)
    same(cv.cvtColor(mid, inv), cv2.cvtColor(mid, inv), tol=1 if inv in IPP_OR_FLOAT_PATH else 0)


def _yuv420(layout):
    i420 = cv2.cvtColor(CHELSEA, cv2.COLOR_BGR2YUV_I420)
    h, w = CHELSEA.shape[:2]
    y, u, v = i420[:h], i420[h:h + h // 4].reshape(h // 2, w // 2), i420[h + h // 4:].reshape(h // 2, w // 2)
    if layout == "I420":
        return i420
    if layout == "YV12":
        return numpy.vstack([y, v.reshape(-1, w), u.reshape(-1, w)])
    uv = numpy.dstack([u, v] if layout == "NV12" else [v, u]).reshape(h // 2, w)
    return numpy.vstack([y, uv])


@pytest.mark.parametrize("layout,codes", [
    ("NV12", [cv2.COLOR_YUV2BGR_NV12, cv2.COLOR_YUV2RGB_NV12, cv2.COLOR_YUV2BGRA_NV12, cv2.COLOR_YUV2RGBA_NV12]),
    ("NV21", [cv2.COLOR_YUV2BGR_NV21, cv2.COLOR_YUV2RGB_NV21, cv2.COLOR_YUV2BGRA_NV21, cv2.COLOR_YUV2RGBA_NV21]),
    ("I420", [cv2.COLOR_YUV2BGR_I420, cv2.COLOR_YUV2RGB_I420, cv2.COLOR_YUV2BGRA_I420, cv2.COLOR_YUV2GRAY_420]),
    ("YV12", [cv2.COLOR_YUV2BGR_YV12, cv2.COLOR_YUV2RGB_YV12, cv2.COLOR_YUV2BGRA_YV12, cv2.COLOR_YUV2RGBA_YV12])])
def test_yuv420_photo_to_bgr(layout, codes):
    yuv = _yuv420(layout)
    for code in codes:
        same(cv.cvtColor(yuv, code), cv2.cvtColor(yuv, code), where=str(code))
    if layout in ("NV12", "NV21"):
        h = CHELSEA.shape[0]
        y, uv = yuv[:h], numpy.ascontiguousarray(yuv[h:].reshape(h // 2, -1, 2))
        for code in codes:
            same(cv.cvtColorTwoPlane(y, uv, code), cv2.cvtColorTwoPlane(y, uv, code), where=f"two-plane {code}")


def test_photo_to_yuv420_every_layout():
    bgra = numpy.dstack([CHELSEA, CHELSEA[..., 0]])
    for code in (cv2.COLOR_BGR2YUV_I420, cv2.COLOR_RGB2YUV_I420, cv2.COLOR_BGR2YUV_YV12, cv2.COLOR_RGB2YUV_YV12):
        same(cv.cvtColor(CHELSEA, code), cv2.cvtColor(CHELSEA, code), where=str(code))
    for code in (cv2.COLOR_BGRA2YUV_I420, cv2.COLOR_RGBA2YUV_YV12):
        same(cv.cvtColor(bgra, code), cv2.cvtColor(bgra, code), where=str(code))


# ---- geometry --------------------------------------------------------------------------------

def _resize_tol(img, interp):
    # tests/cv/test_geometry.py::_exact_resize: cv2 hands 16-bit/float LINEAR and uint8/16-bit/float32
    # CUBIC (1, 3, 4 channels) to IPP, within 1 / 2e-5 relative there
    d = str(img.dtype)
    if (interp == cv2.INTER_LINEAR and d != "uint8") or (interp == cv2.INTER_CUBIC and d != "float64"):
        return 1, 2e-5
    return 0, 1e-5


@pytest.mark.parametrize("img", PIPELINE, ids=PIPELINE_IDS)
def test_resize_every_interpolation(img):
    h, w = img.shape[:2]
    for interp in (cv2.INTER_NEAREST, cv2.INTER_NEAREST_EXACT, cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_AREA,
                   cv2.INTER_LANCZOS4):
        tol, rel = _resize_tol(img, interp)
        for dsize in ((w // 2, h // 2), (113, 61), (2 * w + 1, h + 37)):
            same(cv.resize(img, dsize, interpolation=interp), cv2.resize(img, dsize, interpolation=interp), tol, rel,
                 where=f"{interp} {dsize}")
    same(cv.resize(img, None, fx=0.37, fy=0.61), cv2.resize(img, None, fx=0.37, fy=0.61), *_resize_tol(img, 1))


@pytest.mark.parametrize("img", PIPELINE, ids=PIPELINE_IDS)
def test_warps_remap_and_matrices(img):
    h, w = img.shape[:2]
    R, R2 = both("getRotationMatrix2D", (w / 2, h / 2), 17.5, 0.9)
    same(R, R2)
    src3 = numpy.float32([[0, 0], [w - 1, 0], [0, h - 1]])
    dst3 = numpy.float32([[5, 3], [w - 20, 9], [11, h - 4]])
    A, A2 = both("getAffineTransform", src3, dst3)
    same(A, A2)
    same(*both("invertAffineTransform", A2))
    src4 = numpy.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    dst4 = numpy.float32([[9, 4], [w - 3, 12], [w - 15, h - 2], [2, h - 20]])
    P, P2 = both("getPerspectiveTransform", src4, dst4)
    same(P, P2)
    # linear / nearest: a rare 1-off where coordinates round differently (test_geometry.py, tol=1);
    # cubic exact on uint8 / uint16 / float32 (test_warp_cubic.py)
    for flags in (cv2.INTER_NEAREST, cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP):
        tol = 0 if flags == cv2.INTER_CUBIC else 1
        for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REFLECT_101):
            same(*both("warpAffine", img, R2, (w, h), flags=flags, borderMode=border), tol, 1e-4, where=f"A {flags}")
            same(*both("warpPerspective", img, P2, (w, h), flags=flags, borderMode=border), tol, 1e-4,
                 where=f"P {flags}")
    # a lens-like remap, in float maps and in cv2's fixed-point maps from convertMaps
    yy, xx = numpy.mgrid[0:h, 0:w].astype(numpy.float32)
    r = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w * w)
    mx = (w / 2 + (xx - w / 2) * (1 + 0.3 * r)).astype(numpy.float32)
    my = (h / 2 + (yy - h / 2) * (1 + 0.3 * r)).astype(numpy.float32)
    for interp in (cv2.INTER_NEAREST, cv2.INTER_LINEAR, cv2.INTER_CUBIC):
        same(*both("remap", img, mx, my, interp), 0, 1e-4, where=f"remap {interp}")
    m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
    g1, g2 = cv.convertMaps(mx, my, cv2.CV_16SC2)
    same([g1, g2], [m1, m2])
    same(*both("remap", img, m1, m2, cv2.INTER_LINEAR), 0, 1e-4, where="fixed-point remap")
    same(cv.convertMaps(m1, m2, cv2.CV_32FC1), cv2.convertMaps(m1, m2, cv2.CV_32FC1))


@pytest.mark.parametrize("img", PIPELINE, ids=PIPELINE_IDS)
def test_flip_rotate_border_subpix_pyramids(img):
    for c in (0, 1, -1):
        same(*both("flip", img, c))
    for c in (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE):
        same(*both("rotate", img, c))
    same(*both("transpose", img))
    for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP,
                   cv2.BORDER_REFLECT_101):
        same(*both("copyMakeBorder", img, 7, 3, 11, 5, border, value=(10, 20, 30, 40)))
    # cv2 takes 1 or 3 channels of uint8 / float32 here (the grid checks mnn raises elsewhere)
    subpix = img.dtype != numpy.uint16 and img.ndim == 2 or img.shape[-1] == 3 and img.dtype != numpy.uint16
    for center in ((50.3, 40.7), (3.5, 2.25), (img.shape[1] - 2.6, 100.0)) if subpix else ():
        # within 1 on integers: tests/cv/test_geometry.py's getRectSubPix check
        same(*both("getRectSubPix", img, (31, 17), center), 1, 1e-4)
    same(*both("pyrDown", img))
    same(*both("pyrUp", img[:60, :70]))


def _corners(gray):
    # real point sets: the vertices of a photo's simplified contours
    bw = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]
    cs, _ = cv2.findContours(bw, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    pts = numpy.vstack([cv2.approxPolyDP(c, 2, True) for c in cs if len(c) > 20]).reshape(-1, 2)
    return pts.astype(numpy.float32)


@pytest.mark.parametrize("est", ["estimateAffine2D", "estimateAffinePartial2D"])
def test_estimate_affine_on_photo_points(est):
    pts = _corners(CAMERA)[:300]
    A = cv2.getRotationMatrix2D((140, 120), 12, 1.1)
    dst = (pts @ A[:, :2].T + A[:, 2]).astype(numpy.float32)
    dst[::7] += 25  # outliers
    for method in (cv2.RANSAC, cv2.LMEDS):
        (gm, gi), (wm, wi) = both(est, pts, dst, method=method)
        same(gi, wi)
        same(gm, wm, rel=1e-5)


# ---- filters and morphology ------------------------------------------------------------------

@pytest.mark.parametrize("img", PIPELINE, ids=PIPELINE_IDS)
def test_smoothing_filters(img):
    same(*both("blur", img, (5, 3)))
    same(*both("boxFilter", img, -1, (3, 7), normalize=True, borderType=cv2.BORDER_REPLICATE))
    same(*both("sqrBoxFilter", img, cv2.CV_32F if img.dtype != numpy.float64 else -1, (5, 5)))
    # GaussianBlur: exact on uint8; within 1 on 16-bit (tests/cv/test_filters.py::test_gaussian_other_depths)
    tol = 0 if img.dtype == numpy.uint8 else 1
    for ks, sigma in (((5, 5), 0), ((7, 3), 1.7), ((0, 0), 2.5)):
        same(*both("GaussianBlur", img, ks, sigma), tol, 1e-5, where=str(ks))
    k = cv2.getGaussianKernel(9, 1.6)
    same(cv.getGaussianKernel(9, 1.6), k)
    same(cv.getGaussianKernel(7, 0, ktype=cv2.CV_32F), cv2.getGaussianKernel(7, 0, ktype=cv2.CV_32F))
    # float kernels on integer images: within 1 (tests/cv/test_filters.py::test_filter2d_sepfilter)
    same(*both("sepFilter2D", img, -1, k, k.T.copy()), 1, 1e-5)
    for ksize in (3, 5) + ((7,) if img.dtype == numpy.uint8 else ()):  # cv2: ksize > 5 on uint8 only
        same(*both("medianBlur", img, ksize), where=str(ksize))


@pytest.mark.parametrize("img", [ASTRO, CAMERA, F32[1], F32[3]], ids=["bgr", "gray", "grayf", "bgrf"])
def test_bilateral_filter(img):
    # within 1 on uint8: tests/cv/test_threshold.py::test_bilateral
    sc = 30 if img.dtype == numpy.uint8 else 0.12
    same(*both("bilateralFilter", img, 7, sc, 5), 1, 1e-5)
    if img.dtype == numpy.uint8:  # float32: test_bilateral_float_constant_border
        same(*both("bilateralFilter", img, 0, sc, 2.5, borderType=cv2.BORDER_CONSTANT), 1, 1e-5)
    same(*both("bilateralFilter", img, 0, sc, 2.5, borderType=cv2.BORDER_REFLECT), 1, 1e-5)


def test_bilateral_float_constant_border():
    same(*both("bilateralFilter", F32[1], 9, 0.12, 2.5, borderType=cv2.BORDER_CONSTANT))


@pytest.mark.parametrize("img", PIPELINE, ids=PIPELINE_IDS)
def test_derivatives_and_filter2d(img):
    fdepth = cv2.CV_32F if img.dtype != numpy.float64 else cv2.CV_64F
    for dx, dy, ks in ((1, 0, 3), (0, 1, 5), (1, 1, 3), (2, 0, 7), (1, 0, 1)):
        same(*both("Sobel", img, fdepth, dx, dy, ksize=ks), where=f"{dx}{dy}{ks}")
    same(*both("Sobel", img, -1, 1, 0, scale=0.5, delta=3))
    same(*both("Scharr", img, fdepth, 0, 1))
    same(*both("Scharr", img, -1, 1, 0, scale=0.25))
    for ks in (1, 3, 5):
        same(*both("Laplacian", img, fdepth, ksize=ks), where=str(ks))
    if img.dtype == numpy.uint8:  # the usual u8 -> s16 gradient pipeline (then convertScaleAbs)
        gx, gx2 = both("Sobel", img, cv2.CV_16S, 1, 0)
        same(gx, gx2)
        same(cv.convertScaleAbs(gx), cv2.convertScaleAbs(gx2))
        same(*both("Laplacian", img, cv2.CV_16S, ksize=3))
    for dx, dy, ks in ((1, 0, 3), (0, 2, 5), (0, 1, cv2.FILTER_SCHARR)):
        same(cv.getDerivKernels(dx, dy, ks, normalize=True), cv2.getDerivKernels(dx, dy, ks, normalize=True))
    kx, ky = cv2.getDerivKernels(1, 0, 5, normalize=True, ktype=cv2.CV_32F)
    same(*both("sepFilter2D", img, fdepth, kx, ky))
    sharpen = numpy.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], numpy.float32)
    same(*both("filter2D", img, -1, sharpen))
    same(*both("filter2D", img, fdepth, numpy.float32([[1, 2, 1, 0, -1]]) / 6, anchor=(1, 0), delta=0.5,
               borderType=cv2.BORDER_REFLECT))
    emboss = (numpy.arange(49, dtype=numpy.float32).reshape(7, 7) - 24) / 100  # large kernel: the DFT path in cv2
    same(*both("filter2D", img, fdepth, emboss), 0, 1e-4)


@pytest.mark.parametrize("img", PIPELINE, ids=PIPELINE_IDS)
def test_morphology_every_op_and_shape(img):
    for shape in (cv2.MORPH_RECT, cv2.MORPH_CROSS, cv2.MORPH_ELLIPSE):
        k = cv2.getStructuringElement(shape, (5, 3))
        same(cv.getStructuringElement(shape, (5, 3)), k)
        same(*both("erode", img, k), where=f"erode {shape}")
        same(*both("dilate", img, k, iterations=2, borderType=cv2.BORDER_REFLECT), where=f"dilate {shape}")
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    for op in (cv2.MORPH_ERODE, cv2.MORPH_DILATE, cv2.MORPH_OPEN, cv2.MORPH_CLOSE, cv2.MORPH_GRADIENT,
               cv2.MORPH_TOPHAT, cv2.MORPH_BLACKHAT):
        same(*both("morphologyEx", img, op, k), where=str(op))


def test_morphology_hitmiss_on_a_binarized_photo():
    bw = cv2.threshold(COINS, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]
    k = numpy.array([[0, 1, 0], [-1, 1, 1], [0, 1, 0]], numpy.int32)
    same(*both("morphologyEx", bw, cv2.MORPH_HITMISS, k))


# ---- threshold, histograms, edges ------------------------------------------------------------

@pytest.mark.parametrize("img", [CAMERA, COINS, ASTRO, F32[1], F32[3], U16[1]],
                         ids=["camera", "coins", "bgr", "grayf", "bgrf", "gray16"])
def test_threshold_every_type(img):
    t = 0.4 if img.dtype == numpy.float32 else (30000 if img.dtype == numpy.uint16 else 100)
    for kind in (cv2.THRESH_BINARY, cv2.THRESH_BINARY_INV, cv2.THRESH_TRUNC, cv2.THRESH_TOZERO,
                 cv2.THRESH_TOZERO_INV):
        same(*both("threshold", img, t, 200, kind), where=str(kind))
        if img.dtype == numpy.uint8 and img.ndim == 2:
            for auto in (cv2.THRESH_OTSU, cv2.THRESH_TRIANGLE):
                same(*both("threshold", img, 0, 255, kind | auto), where=f"{kind}|{auto}")


@pytest.mark.parametrize("img", [CAMERA, COINS], ids=["camera", "coins"])
def test_adaptive_threshold_equalize_clahe_canny(img):
    for method in (cv2.ADAPTIVE_THRESH_MEAN_C, cv2.ADAPTIVE_THRESH_GAUSSIAN_C):
        for kind in (cv2.THRESH_BINARY, cv2.THRESH_BINARY_INV):
            same(*both("adaptiveThreshold", img, 255, method, kind, 11, 2), where=f"{method} {kind}")
    same(*both("equalizeHist", img))
    for clip, grid in ((2.0, (8, 8)), (4.0, (3, 5)), (0.0, (2, 2))):
        same(cv.createCLAHE(clip, grid).apply(img), cv2.createCLAHE(clip, grid).apply(img), where=str(grid))
    for lo, hi, ap, l2 in ((50, 150, 3, False), (30, 90, 5, True), (100, 200, 3, True)):
        same(*both("Canny", img, lo, hi, apertureSize=ap, L2gradient=l2), where=f"{lo} {hi} {ap} {l2}")
    dx = cv2.Sobel(img, cv2.CV_16S, 1, 0)
    dy = cv2.Sobel(img, cv2.CV_16S, 0, 1)
    same(*both("Canny", dx, dy, 60, 160))


def test_in_range_float32_bound_equal_to_a_pixel():
    same(*both("inRange", F32[3], (0.1, 0.2, 0.3), (0.6, 0.7, 0.9)))


def test_in_range_and_histograms_on_photos():
    hsv = cv2.cvtColor(ASTRO, cv2.COLOR_BGR2HSV)
    same(*both("inRange", hsv, (0, 60, 40), (25, 255, 255)))  # a skin mask
    same(*both("inRange", F32[3], (0.1, 0.2, 0.3), (0.65, 0.75, 0.95)))  # no pixel equals a bound
    same(*both("inRange", CAMERA, 40, 120))
    same(*both("inRange", U16[1], 10000, 40000))
    mask = cv2.inRange(hsv, (0, 60, 40), (25, 255, 255))
    for ch, size, rng in (([0], [180], [0, 180]), ([1], [32], [0, 256]), ([0, 1], [30, 32], [0, 180, 0, 256])):
        same(cv.calcHist([hsv], ch, None, size, rng), cv2.calcHist([hsv], ch, None, size, rng), where=str(ch))
        same(cv.calcHist([hsv], ch, mask, size, rng), cv2.calcHist([hsv], ch, mask, size, rng), where=f"mask {ch}")
    same(cv.calcHist([U16[1]], [0], None, [64], [0, 65536]), cv2.calcHist([U16[1]], [0], None, [64], [0, 65536]))
    same(cv.calcHist([F32[1]], [0], None, [50], [0, 1]), cv2.calcHist([F32[1]], [0], None, [50], [0, 1]))


# ---- contours, components, shape descriptors -------------------------------------------------

def _binary(gray):
    return cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]


def _as_lists(contours):
    return [numpy.asarray(c).tolist() for c in contours]


@pytest.mark.parametrize("src", [COINS, CAMERA], ids=["coins", "camera"])
def test_find_contours_every_mode_and_method(src):
    bw = _binary(src)
    for mode in (cv2.RETR_EXTERNAL, cv2.RETR_LIST, cv2.RETR_CCOMP, cv2.RETR_TREE, cv2.RETR_FLOODFILL):
        img = bw.astype(numpy.int32) if mode == cv2.RETR_FLOODFILL else bw
        for method in (cv2.CHAIN_APPROX_NONE, cv2.CHAIN_APPROX_SIMPLE, cv2.CHAIN_APPROX_TC89_L1,
                       cv2.CHAIN_APPROX_TC89_KCOS):
            (gc, gh), (wc, wh) = cv.findContours(img.copy(), mode, method), cv2.findContours(img.copy(), mode, method)
            assert _as_lists(gc) == _as_lists(wc), (mode, method)
            same(gh, wh, where=f"hierarchy {mode} {method}")
    gc, _ = cv.findContours(bw, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE, offset=(5, -3))
    wc, _ = cv2.findContours(bw, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE, offset=(5, -3))
    assert _as_lists(gc) == _as_lists(wc)


def test_shape_descriptors_of_photo_contours():
    cs, _ = cv2.findContours(_binary(COINS), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    cs = sorted(cs, key=len)[-40:]  # the coins' outlines, not single-pixel specks
    assert len(cs) >= 20
    for c in cs:
        for oriented in (False, True):
            assert cv.contourArea(c, oriented) == pytest.approx(cv2.contourArea(c, oriented), rel=1e-9, abs=1e-9)
        assert cv.arcLength(c, True) == pytest.approx(cv2.arcLength(c, True), rel=1e-9)
        assert cv.boundingRect(c) == cv2.boundingRect(c)
        assert cv.moments(c) == cv2.moments(c)
        same(cv.minAreaRect(c), cv2.minAreaRect(c), rel=1e-5)
        same(cv.boxPoints(cv2.minAreaRect(c)), cv2.boxPoints(cv2.minAreaRect(c)))
        same(cv.convexHull(c), cv2.convexHull(c))
        same(cv.convexHull(c, returnPoints=False), cv2.convexHull(c, returnPoints=False))
        same(cv.convexHull(c, clockwise=True), cv2.convexHull(c, clockwise=True))
        for eps in (1.0, 3.5):
            same(cv.approxPolyDP(c, eps, True), cv2.approxPolyDP(c, eps, True))
        if min(cv2.minAreaRect(c)[1]) >= 2:  # a sliver (all points on 2 columns): test_fit_ellipse_of_a_sliver
            same(cv.fitEllipse(c), cv2.fitEllipse(c), rel=1e-5)
        same(cv.minEnclosingCircle(c), cv2.minEnclosingCircle(c), rel=1e-5)
        x, y, w, h = cv2.boundingRect(c)
        for pt in ((x + w / 2, y + h / 2), (x - 3.0, y + 1.5), (float(c[0, 0, 0]), float(c[0, 0, 1]))):
            assert cv.pointPolygonTest(c, pt, False) == cv2.pointPolygonTest(c, pt, False)
            assert cv.pointPolygonTest(c, pt, True) == pytest.approx(cv2.pointPolygonTest(c, pt, True), rel=1e-9)
    bw = _binary(COINS)
    assert cv.boundingRect(bw) == cv2.boundingRect(bw)
    for binary in (False, True):
        g, w = cv.moments(COINS, binary), cv2.moments(COINS, binary)
        for k in w:
            assert g[k] == pytest.approx(w[k], rel=1e-9, abs=1e-9), k


def test_fit_ellipse_of_a_sliver():
    # the 18-point outline of a coin cut by the crop's right edge (COINS, RETR_LIST, CHAIN_APPROX_NONE)
    ys = [190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 198, 197, 196, 195, 194, 193, 192, 191]
    xs = [252, 252, 252] + [251] * 12 + [252, 252, 252]
    c = numpy.int32(list(zip(xs, ys))).reshape(-1, 1, 2)
    same(cv.fitEllipse(c), cv2.fitEllipse(c), rel=1e-5)


@pytest.mark.parametrize("connectivity", [4, 8])
def test_connected_components_of_a_photo(connectivity):
    bw = _binary(COINS)
    for ltype in (cv2.CV_32S, cv2.CV_16U):
        n, lab = cv.connectedComponents(bw, connectivity=connectivity, ltype=ltype)
        n2, lab2 = cv2.connectedComponents(bw, connectivity=connectivity, ltype=ltype)
        assert n == n2
        same(lab, lab2)
    r, r2 = cv.connectedComponentsWithStats(bw, connectivity=connectivity), \
        cv2.connectedComponentsWithStats(bw, connectivity=connectivity)
    assert r[0] == r2[0]
    same(list(r[1:]), list(r2[1:]))


# ---- drawing ---------------------------------------------------------------------------------

@pytest.mark.parametrize("img", [ASTRO, BGRA, CAMERA, U16[3], F32[3]], ids=["bgr", "bgra", "gray", "bgr16", "bgrf"])
def test_drawing_on_a_photo(img):
    # LINE_AA is exact on uint8 (tests/cv/test_drawing.py) and drawn as LINE_8 elsewhere, as in cv2
    color = {numpy.dtype(numpy.uint8): (0, 255, 40, 128), numpy.dtype(numpy.uint16): (0, 65535, 9000, 1),
             numpy.dtype(numpy.float32): (0.0, 1.0, 0.25, 0.5)}[img.dtype]
    cs, _ = cv2.findContours(_binary(GRAY), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    poly = [numpy.int32([[20, 20], [120, 35], [90, 150], [30, 110]]), numpy.int32([[150, 10], [220, 60], [170, 90]])]
    for lt in (cv2.LINE_8, cv2.LINE_4, cv2.LINE_AA):
        calls = [("line", ((5, 7), (180, 150), color, 3, lt)), ("arrowedLine", ((200, 20), (40, 170), color, 2, lt)),
                 ("rectangle", ((30, 40), (150, 120), color, 2, lt)), ("rectangle", ((60, 60), (90, 99), color, -1, lt)),
                 ("circle", ((100, 90), 47, color, 4, lt)), ("circle", ((20, 180), 15, color, -1, lt)),
                 ("ellipse", ((110, 100), (70, 30), 25, 15, 300, color, 2, lt)),
                 ("polylines", (poly, True, color, 2, lt)), ("fillPoly", (poly, color, lt)),
                 ("fillConvexPoly", (poly[1], color, lt)),
                 ("drawContours", (cs, -1, color, 2, lt)), ("drawContours", (cs, 1 if len(cs) > 1 else 0, color, -1, lt))]
        for fn, args in calls:
            got, want = both(fn, img, *args)
            same(got, want, where=f"{fn} {lt}")


def test_put_text_on_a_photo():
    # cv2 5 draws TrueType text, so the Hershey reference is tests/cv/test_text.py's cv2 4 record;
    # here: the text on a photo is the text on a blank canvas, composited, and nothing outside its box moves
    pytest.importorskip("pyhershey")
    img = ASTRO.copy()
    org, font, scale, th = (12, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.3, 2
    (tw, bh), base = cv.getTextSize("mnn 5!", font, scale, th)
    out = numpy.asarray(cv.putText(img.copy(), "mnn 5!", org, font, scale, (0, 255, 255), th, cv2.LINE_8))
    blank = numpy.asarray(cv.putText(numpy.zeros_like(img), "mnn 5!", org, font, scale, (0, 255, 255), th, cv2.LINE_8))
    ink = blank.any(axis=2)
    assert ink.sum() > 100
    numpy.testing.assert_array_equal(out[ink], blank[ink])
    numpy.testing.assert_array_equal(out[~ink], img[~ink])
    ys, xs = numpy.nonzero(ink)
    assert xs.min() >= org[0] - th and xs.max() <= org[0] + tw + th
    assert ys.min() >= org[1] - bh - th and ys.max() <= org[1] + base + th


# ---- core arithmetic and statistics ----------------------------------------------------------

PAIRS = [(ASTRO, COFFEE), (ASTRO.astype(numpy.uint16) * 257, COFFEE.astype(numpy.uint16) * 257),
         (ASTRO.astype(numpy.float32) / 255, COFFEE.astype(numpy.float32) / 255),
         (cv2.Sobel(GRAY, cv2.CV_16S, 1, 0), cv2.Sobel(GRAY, cv2.CV_16S, 0, 1))]


# the float pair divides by zero: cv2 gives inf / nan silently, and so must mnn (a RuntimeWarning
# is an error here)
@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("a,b", PAIRS, ids=["u8", "u16", "f32", "s16-gradients"])
def test_arithmetic_on_photo_pairs(a, b):
    mask = cv2.inRange(GRAY, 60, 200)
    same(*both("absdiff", a, b))
    for fn in ("add", "subtract"):
        same(*both(fn, a, b), where=fn)
        same(*both(fn, a, b, mask=mask), where=f"{fn} mask")
    same(*both("add", a, (20, 40, 60, 0)))
    same(*both("multiply", a, b, scale=1 / 255 if a.dtype == numpy.uint8 else 1.0))
    same(*both("divide", a, b, scale=255 if a.dtype == numpy.uint8 else 1.0))
    # int32 uses a double fma in cv2: within one (test_core_ops.py); other depths exact
    same(*both("addWeighted", a, 0.7, b, 0.3, 12.5))
    same(*both("convertScaleAbs", a, alpha=0.8, beta=5))
    for norm in (cv2.NORM_MINMAX, cv2.NORM_L2, cv2.NORM_L1, cv2.NORM_INF):
        same(*both("normalize", a, None, 1 if norm != cv2.NORM_MINMAX else 0, 255 if norm == cv2.NORM_MINMAX else 0,
                   norm, dtype=cv2.CV_32F), where=str(norm))
    if a.ndim == 2 or a.shape[-1] == 1:
        same(cv.minMaxLoc(a), cv2.minMaxLoc(a))
        same(cv.minMaxLoc(a, mask), cv2.minMaxLoc(a, mask))
        assert cv.countNonZero(a) == cv2.countNonZero(a)
    same(cv.mean(a), cv2.mean(a))
    same(cv.mean(a, mask), cv2.mean(a, mask))
    same(cv.meanStdDev(a), cv2.meanStdDev(a))
    same(cv.meanStdDev(a, mask=mask), cv2.meanStdDev(a, mask=mask))
    same(*both("hconcat", [a, b]))
    same(*both("vconcat", [a, b, a]))
    parts, parts2 = both("split", a)
    same(list(parts), list(parts2))
    same(cv.merge(list(parts2)[::-1]), cv2.merge(list(parts2)[::-1]))
    if a.dtype.kind in "iu":
        for fn in ("bitwise_and", "bitwise_or", "bitwise_xor"):
            same(*both(fn, a, b), where=fn)
            same(*both(fn, a, b, mask=mask), where=f"{fn} mask")
        same(*both("bitwise_not", a))


def test_minmax_count_on_gray_photos():
    for g in (CAMERA, COINS, U16[1], F32[1]):
        same(cv.minMaxLoc(g), cv2.minMaxLoc(g))
        assert cv.countNonZero(g) == cv2.countNonZero(g)
        bw = _binary(CAMERA)
        assert cv.countNonZero(bw) == cv2.countNonZero(bw)


def test_lut_gamma_on_photos():
    gamma = numpy.clip(((numpy.arange(256) / 255.0) ** 0.6) * 255 + 0.5, 0, 255).astype(numpy.uint8)
    for img in (ASTRO, CAMERA, BGRA):
        same(*both("LUT", img, gamma))
    per_channel = numpy.dstack([gamma, gamma[::-1], numpy.arange(256, dtype=numpy.uint8)]).reshape(256, 1, 3)
    same(*both("LUT", ASTRO, per_channel))
    same(*both("LUT", ASTRO, numpy.linspace(-1, 1, 256).astype(numpy.float32)))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_math_on_photo_gradients(dtype):
    gx = cv2.Sobel(GRAY, cv2.CV_32F, 1, 0).astype(dtype)
    gy = cv2.Sobel(GRAY, cv2.CV_32F, 0, 1).astype(dtype)
    same(*both("magnitude", gx, gy))
    # cv2's phase / cartToPolar use a polynomial atan (about 0.3 degrees): mnn reproduces it
    for deg in (False, True):
        same(*both("phase", gx, gy, angleInDegrees=deg), where=f"phase {deg}")
        same(*both("cartToPolar", gx, gy, angleInDegrees=deg), where=f"cartToPolar {deg}")
    f = GRAY.astype(dtype) / 255
    same(*both("sqrt", f))
    same(*both("exp", f))
    same(*both("log", f + 0.01))
    for p in (2, 3, 0.5, 2.2, -1):
        same(*both("pow", f + 0.01, p), where=str(p))
    same(*both("pow", ASTRO, 2))


def test_set_num_threads_keeps_photo_results():
    saved = cv.getNumThreads()
    try:
        for n in (1, 2, 4):
            cv.setNumThreads(n)
            assert cv.getNumThreads() == n
            same(cv.GaussianBlur(ASTRO, (7, 7), 0), cv2.GaussianBlur(ASTRO, (7, 7), 0))
            same(cv.resize(ASTRO, (101, 77), interpolation=cv2.INTER_AREA),
                 cv2.resize(ASTRO, (101, 77), interpolation=cv2.INTER_AREA))
            same(cv.cvtColor(ASTRO, cv2.COLOR_BGR2HSV), cv2.cvtColor(ASTRO, cv2.COLOR_BGR2HSV))
            same(cv.medianBlur(CAMERA, 5), cv2.medianBlur(CAMERA, 5))
    finally:
        cv.setNumThreads(saved)
    assert cv.getNumThreads() == saved


# ---- dnn preprocessing and NMS ---------------------------------------------------------------

def test_blob_from_photos():
    for img in (ASTRO, COFFEE, BGRA, F32[3], CAMERA):
        for size, crop, swap in (((224, 224), False, True), ((96, 64), True, False), ((0, 0), False, True)):
            mean = (104, 117, 123) if img.dtype == numpy.uint8 else (0.4, 0.45, 0.5)
            got = cv.dnn.blobFromImage(img, 1 / 127.5, size, mean, swapRB=swap, crop=crop)
            want = cv2.dnn.blobFromImage(img, 1 / 127.5, size, mean, swapRB=swap, crop=crop)
            # resize inside: uint8 LINEAR is exact, float32 LINEAR is IPP's (2e-5, test_geometry.py)
            same(got, want, rel=2e-5, where=f"{size} {crop} {swap}")
    got = cv.dnn.blobFromImages([ASTRO, COFFEE], 1 / 255, (128, 128), (0, 0, 0), swapRB=True)
    same(got, cv2.dnn.blobFromImages([ASTRO, COFFEE], 1 / 255, (128, 128), (0, 0, 0), swapRB=True))
    same(cv.dnn.blobFromImage(ASTRO, ddepth=cv2.CV_8U), cv2.dnn.blobFromImage(ASTRO, ddepth=cv2.CV_8U))


def test_nms_on_photo_detections():
    # detections a pipeline would have: the coins' components, scored by area, plus jittered duplicates
    n, _lab, stats, _c = cv2.connectedComponentsWithStats(_binary(COINS))
    boxes = stats[1:, :4].astype(numpy.float64)
    rng = numpy.random.default_rng(9)
    boxes = numpy.vstack([boxes, boxes + rng.normal(0, 3, boxes.shape)])
    scores = (numpy.log1p(numpy.concatenate([stats[1:, 4], stats[1:, 4] * 0.8])) / 10).astype(numpy.float32)
    for thr, iou in ((0.1, 0.3), (0.3, 0.5), (0.0, 0.7)):
        got = cv.dnn.NMSBoxes(boxes.tolist(), scores.tolist(), thr, iou)
        want = cv2.dnn.NMSBoxes(boxes.tolist(), scores.tolist(), thr, iou)
        assert numpy.asarray(got).tolist() == numpy.asarray(want).tolist(), (thr, iou)
    cs, _ = cv2.findContours(_binary(COINS), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    rects = [cv2.minAreaRect(c) for c in cs if len(c) >= 5]
    rects += [((x + 2.0, y - 1.5), (w * 1.1, h), a + 10) for (x, y), (w, h), a in rects]
    rscores = rng.random(len(rects)).astype(numpy.float32).tolist()
    for iou in (0.2, 0.5):
        got = cv.dnn.NMSBoxesRotated(rects, rscores, 0.1, iou)
        want = cv2.dnn.NMSBoxesRotated(rects, rscores, 0.1, iou)
        assert numpy.asarray(got).tolist() == numpy.asarray(want).tolist(), iou
