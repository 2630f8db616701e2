"""mnn.cv filters and morphology against cv2: random odd-sized images of every depth and channel
count cv2 accepts, real photos, every border mode, and cv2's errors."""
import cv2
import numpy
import pytest
import skimage.data

import mnn.cv as cv
import mnn.numpy as np

RNG = numpy.random.default_rng(7)
SHAPE = (97, 131)
DEPTHS = [numpy.uint8, numpy.uint16, numpy.int16, numpy.float32, numpy.float64]
BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP, cv2.BORDER_REFLECT_101]


def image(dtype, cn, shape=SHAPE):
    s = shape if cn == 1 else shape + (cn,)
    if numpy.issubdtype(dtype, numpy.integer):
        info = numpy.iinfo(dtype)
        return RNG.integers(max(info.min, -3000), min(info.max, 3000) + 1, s).astype(dtype)
    return (RNG.standard_normal(s) * 50).astype(dtype)


def same(got, want, tol=0.0):
    got = numpy.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    if tol == 0:
        numpy.testing.assert_array_equal(got, want)
    else:
        numpy.testing.assert_allclose(got.astype(numpy.float64), want.astype(numpy.float64), rtol=tol, atol=tol)


def tol_of(dtype):
    return 1e-4 if dtype == numpy.float32 else (1e-9 if dtype == numpy.float64 else 0)


PHOTOS = [skimage.data.astronaut(), skimage.data.camera(), skimage.data.coins()]


@pytest.mark.parametrize("ksize,sigma", [((3, 3), 0), ((5, 5), 0), ((7, 7), 0), ((5, 3), 1.2), ((0, 0), 1.5),
                                         ((9, 9), 2.0), ((1, 5), 0), ((15, 15), 0)])
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_gaussian_uint8_is_exact(ksize, sigma, cn):
    a = image(numpy.uint8, cn)
    same(cv.GaussianBlur(a, ksize, sigma), cv2.GaussianBlur(a, ksize, sigma))


@pytest.mark.parametrize("border", BORDERS)
def test_gaussian_uint8_16bit_path_edges(border):
    # sigma-0 3- and 5-tap kernels take the 16-bit path (filter_kernels.cpp, Gauss16Kernel): images
    # smaller than the kernel, mixed sizes, saturated input (the path's largest partial sums)
    for shape in [(1, 1), (2, 3), (4, 1, 3), (5, 7, 3), (6, 2, 4), (13, 17, 2)]:
        a = RNG.integers(0, 256, shape).astype(numpy.uint8)
        for img in (a, numpy.full_like(a, 255)):
            for ksize in [(3, 3), (5, 5), (1, 5), (5, 1), (3, 5), (5, 3), (1, 3)]:
                same(cv.GaussianBlur(img, ksize, 0, borderType=border), cv2.GaussianBlur(img, ksize, 0, borderType=border))


@pytest.mark.parametrize("border", BORDERS)
def test_gaussian_borders_and_photos(border):
    for p in PHOTOS:
        same(cv.GaussianBlur(p, (5, 5), 0, borderType=border), cv2.GaussianBlur(p, (5, 5), 0, borderType=border))
    a = image(numpy.float32, 3)
    if border == cv2.BORDER_WRAP:  # cv2's float path has no wrap-around
        with pytest.raises(cv.error, match=r"\[mnn.cv.GaussianBlur\]"):
            cv.GaussianBlur(a, (7, 5), 1.3, sigmaY=0.8, borderType=border)
        return
    same(cv.GaussianBlur(a, (7, 5), 1.3, sigmaY=0.8, borderType=border),
         cv2.GaussianBlur(a, (7, 5), 1.3, sigmaY=0.8, borderType=border))  # float32: cv2's bits (gauss13)


@pytest.mark.parametrize("dtype", DEPTHS)
def test_gaussian_other_depths(dtype):
    a = image(dtype, 3)
    got, want = cv.GaussianBlur(a, (5, 5), 1.1), cv2.GaussianBlur(a, (5, 5), 1.1)
    if dtype in (numpy.uint8, numpy.float32):  # float32: cv2's own float arithmetic, bit for bit
        same(got, want)
    else:
        same(got, want, 1 if numpy.issubdtype(dtype, numpy.integer) else tol_of(dtype))


def test_get_gaussian_kernel():
    for n, s in [(1, 0), (3, 0), (5, 0), (7, 0), (9, 0), (5, 1.3), (11, 2.5)]:
        for kt in (cv2.CV_32F, cv2.CV_64F):
            same(cv.getGaussianKernel(n, s, kt), cv2.getGaussianKernel(n, s, ktype=kt), 1e-7)


@pytest.mark.parametrize("dtype", DEPTHS)
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_box_blur(dtype, cn):
    a = image(dtype, cn)
    t = tol_of(dtype)
    same(cv.blur(a, (3, 5)), cv2.blur(a, (3, 5)), t)
    # Even power-of-two areas: cv2 5's 8-bit path rounds inconsistently (within one).
    same(cv.boxFilter(a, -1, (2, 2)), cv2.boxFilter(a, -1, (2, 2)), t or 1)
    same(cv.boxFilter(a, -1, (6, 2)), cv2.boxFilter(a, -1, (6, 2)), t)
    same(cv.boxFilter(a, -1, (4, 3), anchor=(0, 2), borderType=cv2.BORDER_REFLECT),
         cv2.boxFilter(a, -1, (4, 3), anchor=(0, 2), borderType=cv2.BORDER_REFLECT), t)
    same(cv.boxFilter(a, cv2.CV_32F, (5, 5), normalize=False), cv2.boxFilter(a, cv2.CV_32F, (5, 5), normalize=False), 1e-4)
    same(cv.sqrBoxFilter(a, cv2.CV_64F, (3, 3)), cv2.sqrBoxFilter(a, cv2.CV_64F, (3, 3)), 1e-9)
    same(cv.sqrBoxFilter(a, -1, (3, 3)), cv2.sqrBoxFilter(a, -1, (3, 3)), 1e-4)


def test_box_saturates_unnormalized_uint8():
    a = image(numpy.uint8, 1)
    same(cv.boxFilter(a, -1, (3, 3), normalize=False), cv2.boxFilter(a, -1, (3, 3), normalize=False))


@pytest.mark.parametrize("ksize", [3, 5, 7, 9])
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_median_uint8_exact(ksize, cn):
    a = image(numpy.uint8, cn)
    same(cv.medianBlur(a, ksize), cv2.medianBlur(a, ksize))


@pytest.mark.parametrize("ksize", [3, 5])
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_median_uint8_row_chunks(ksize, cn):
    # the 8-bit 3x3/5x5 kernels work on 32/64-byte vectors (the 5x5 in strips of at most 256 row bytes):
    # rows just under, at and over those sizes, and images shorter than the window
    for w in (8, 11, 16, 17, 33, 255, 256, 257, 341, 342, 343, 683, 1030):
        for h in (1, 2, 4, 9):
            a = RNG_MEDIAN.integers(0, 256, (h, w, cn) if cn > 1 else (h, w)).astype(numpy.uint8)
            same(cv.medianBlur(a, ksize), cv2.medianBlur(a, ksize))


RNG_MEDIAN = numpy.random.default_rng(55)


@pytest.mark.parametrize("cn", [1, 3, 4])
@pytest.mark.parametrize("threads", [1, 2])
def test_median5_uint8_strips_and_row_pairs(cn, threads):
    # The 8-bit 5x5 kernel walks strips of <= 256 row bytes down the rows two output rows at a time
    # (edge strips read replicated copies of the row ends): row lengths around one and two strips,
    # odd and even heights (a last row without a partner), thread chunks starting at odd rows, and
    # values with many ties.
    import mnn
    before = mnn.get_num_threads()
    mnn.set_num_threads(threads)
    try:
        for w in (7, 8, 170, 171, 256, 257, 300, 511, 512, 513, 1025, 1537):
            for h in (1, 2, 3, 5, 6, 37):
                shape = (h, w, cn) if cn > 1 else (h, w)
                for hi in (256, 3):
                    a = RNG_MEDIAN.integers(0, hi, shape).astype(numpy.uint8)
                    same(cv.medianBlur(a, 5), cv2.medianBlur(a, 5))
    finally:
        mnn.set_num_threads(before)


@pytest.mark.parametrize("dtype", [numpy.uint16, numpy.float32])
def test_median_small_other_depths(dtype):
    a = image(dtype, 3)
    for k in (3, 5):
        same(cv.medianBlur(a, k), cv2.medianBlur(a, k))
    with pytest.raises(cv.error, match=r"\[mnn.cv.medianBlur\]"):
        cv.medianBlur(a, 7)


def test_median_photos_and_errors():
    for p in PHOTOS:
        same(cv.medianBlur(p, 5), cv2.medianBlur(p, 5))
    with pytest.raises(cv.error, match=r"\[mnn.cv.medianBlur\]"):
        cv.medianBlur(PHOTOS[1], 4)


@pytest.mark.parametrize("dtype", DEPTHS)
@pytest.mark.parametrize("ddepth", [-1, cv2.CV_16S, cv2.CV_32F, cv2.CV_64F])
def test_sobel_scharr_laplacian(dtype, ddepth):
    a = image(dtype, 3)
    t = 1e-3 if ddepth == cv2.CV_32F or dtype == numpy.float32 else (1e-9 if dtype == numpy.float64 or ddepth == cv2.CV_64F else 0)
    if dtype in (numpy.float32, numpy.float64) and ddepth == cv2.CV_16S:
        t = 1  # cv2 accumulates in float32: a rounding tie may land one apart

    def check(f):
        try:
            want = f(cv2)
        except cv2.error:  # a depth combination cv2 does not implement: so must mnn refuse it
            with pytest.raises(cv.error):
                f(cv)
            return
        same(f(cv), want, t)
    for dx, dy, k in [(1, 0, 3), (0, 1, 3), (1, 1, 5), (2, 0, 3), (1, 0, 1), (0, 2, 7)]:
        check(lambda m: m.Sobel(a, ddepth, dx, dy, ksize=k))
    check(lambda m: m.Sobel(a, ddepth, 1, 0, scale=0.5, delta=3))
    check(lambda m: m.Scharr(a, ddepth, 0, 1))
    for k in (1, 3):
        check(lambda m: m.Laplacian(a, ddepth, ksize=k))
    if t == 0:  # 5x5 Laplacian: cv2 sums two float passes; may differ by one on integers
        try:
            same(cv.Laplacian(a, ddepth, ksize=5), cv2.Laplacian(a, ddepth, ksize=5), 1)
        except cv2.error:
            pass


@pytest.mark.parametrize("border", BORDERS)
def test_sobel_borders(border):
    a = image(numpy.uint8, 3)
    if border == cv2.BORDER_WRAP:
        with pytest.raises(cv.error, match=r"\[mnn.cv.Sobel\]"):
            cv.Sobel(a, cv2.CV_16S, 1, 1, borderType=border)
        return
    same(cv.Sobel(a, cv2.CV_16S, 1, 1, borderType=border), cv2.Sobel(a, cv2.CV_16S, 1, 1, borderType=border))


def test_get_deriv_kernels():
    for dx, dy, k in [(1, 0, 3), (0, 1, 5), (2, 1, 7), (1, 0, 1), (1, 0, -1)]:
        for norm in (False, True):
            for g, w in zip(cv.getDerivKernels(dx, dy, k, normalize=norm), cv2.getDerivKernels(dx, dy, k, normalize=norm)):
                same(g, w, 1e-7)


@pytest.mark.parametrize("dtype", DEPTHS)
def test_filter2d_sepfilter(dtype):
    a = image(dtype, 3)
    k = numpy.array([[1, 2, 1], [0, 1, 0], [-1, 0, 2]], numpy.float32) / 4
    t = 1 if numpy.issubdtype(dtype, numpy.integer) else 1e-3
    with pytest.raises(cv.error, match=r"\[mnn.cv.filter2D\]"):
        cv.filter2D(a, -1, k, borderType=cv2.BORDER_WRAP)
    for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REFLECT_101, cv2.BORDER_REFLECT):
        same(cv.filter2D(a, -1, k, borderType=border), cv2.filter2D(a, -1, k, borderType=border), t)
    if dtype != numpy.float32:
        same(cv.filter2D(a, cv2.CV_64F, k, anchor=(0, 1), delta=2.0), cv2.filter2D(a, cv2.CV_64F, k, anchor=(0, 1), delta=2.0), 1e-3)
    else:
        with pytest.raises(cv.error, match=r"\[mnn.cv.filter2D\]"):
            cv.filter2D(a, cv2.CV_64F, k)
    kx, ky = numpy.array([1, 4, 6, 4, 1], numpy.float32), numpy.array([-1, 0, 1], numpy.float32)
    dd = cv2.CV_64F if dtype == numpy.float64 else cv2.CV_32F
    same(cv.sepFilter2D(a, dd, kx, ky), cv2.sepFilter2D(a, dd, kx, ky), 0 if dtype == numpy.float32 else 1e-3)


def test_filter2d_integer_kernel_uint8_exact():
    for p in PHOTOS:
        k = numpy.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], numpy.float32)
        same(cv.filter2D(p, -1, k), cv2.filter2D(p, -1, k))


@pytest.mark.parametrize("shape", [cv2.MORPH_RECT, cv2.MORPH_CROSS, cv2.MORPH_ELLIPSE])
@pytest.mark.parametrize("ksize", [(3, 3), (5, 3), (7, 7), (1, 1), (4, 6)])
def test_structuring_element(shape, ksize):
    same(cv.getStructuringElement(shape, ksize), cv2.getStructuringElement(shape, ksize))


@pytest.mark.parametrize("dtype", DEPTHS + [numpy.int8])
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_erode_dilate(dtype, cn):
    a = image(dtype, cn)
    if dtype == numpy.int8:
        with pytest.raises(cv2.error):
            cv2.erode(a, None)
        with pytest.raises(cv.error, match=r"\[mnn.cv.erode\]"):
            cv.erode(a, None)
        return
    el = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    for k in (numpy.ones((3, 3), numpy.uint8), el, None):
        same(cv.erode(a, k), cv2.erode(a, k))
        same(cv.dilate(a, k, iterations=2), cv2.dilate(a, k, iterations=2))
    same(cv.erode(a, el, anchor=(1, 3), iterations=2), cv2.erode(a, el, anchor=(1, 3), iterations=2))
    for border in (cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_REFLECT_101):
        same(cv.dilate(a, el, borderType=border), cv2.dilate(a, el, borderType=border))
    same(cv.erode(a, el, borderType=cv2.BORDER_CONSTANT, borderValue=0),
         cv2.erode(a, el, borderType=cv2.BORDER_CONSTANT, borderValue=0))


@pytest.mark.parametrize("op", range(7))
def test_morphology_ex(op):
    el = cv2.getStructuringElement(cv2.MORPH_CROSS, (5, 3))
    for a in PHOTOS + [image(numpy.float32, 3), image(numpy.int16, 1)]:
        same(cv.morphologyEx(a, op, el), cv2.morphologyEx(a, op, el))
        same(cv.morphologyEx(a, op, el, iterations=2), cv2.morphologyEx(a, op, el, iterations=2))


def test_hitmiss():
    a = (image(numpy.uint8, 1) > 128).astype(numpy.uint8) * 255
    k = numpy.array([[0, 1, 0], [1, -1, 1], [0, 1, 0]], numpy.int32)
    same(cv.morphologyEx(a, cv2.MORPH_HITMISS, k), cv2.morphologyEx(a, cv2.MORPH_HITMISS, k))


def test_non_contiguous_input_and_mnn_arrays():
    import mnn.numpy as mnp
    a = image(numpy.uint8, 3, (100, 140))[::-1, 3:134]
    same(cv.GaussianBlur(a, (5, 5), 0), cv2.GaussianBlur(a, (5, 5), 0))
    same(cv.medianBlur(mnp.asarray(a), 3), cv2.medianBlur(a, 3))


def test_errors():
    a = image(numpy.uint8, 3)
    with pytest.raises(cv.error, match=r"\[mnn.cv.GaussianBlur\]"):
        cv.GaussianBlur(a, (4, 4), 0)
    with pytest.raises(cv.error, match=r"\[mnn.cv.GaussianBlur\]"):
        cv.GaussianBlur(a, (0, 0), 0)
    with pytest.raises(cv.error, match=r"\[mnn.cv.blur\]"):
        cv.blur(a, (3, 3), anchor=(5, 0))
    with pytest.raises(cv.error, match=r"\[mnn.cv.erode\]"):
        cv.erode(a, numpy.ones((3, 3), numpy.uint8), borderType=cv2.BORDER_WRAP)
    with pytest.raises(cv.error):
        cv.GaussianBlur(None, (3, 3), 0)
    for f in (lambda m: m.GaussianBlur(numpy.zeros((0, 5), numpy.uint8), (3, 3), 0),
              lambda m: m.medianBlur(numpy.zeros((4, 0, 3), numpy.uint8), 3)):
        with pytest.raises(cv2.error):
            f(cv2)
        with pytest.raises(cv.error):
            f(cv)
    with pytest.raises(cv.error):
        cv.Sobel(a, cv2.CV_16S, 0, 0)
    with pytest.raises(cv.error):
        cv.GaussianBlur(a, (3, 3), 0, borderType=cv2.BORDER_TRANSPARENT)


ISA_PROGRAM = r"""
import hashlib, json, numpy, cv2
import mnn, mnn.cv as cv
rng = numpy.random.default_rng(5)
a = rng.integers(0, 256, (61, 83, 3), dtype=numpy.uint8)
g = a[:, :, 1].copy()
f = (rng.standard_normal((61, 83, 3)) * 40).astype(numpy.float32)
el = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
outs = {
    "gauss": cv.GaussianBlur(a, (5, 5), 0), "gauss_f": cv.GaussianBlur(f, (7, 7), 1.5),
    "median3": cv.medianBlur(a, 3), "median5": cv.medianBlur(a, 5), "median5g": cv.medianBlur(g, 5),
    "median5f": cv.medianBlur(f, 5), "median9": cv.medianBlur(a, 9),
    "sobel": cv.Sobel(a, cv2.CV_16S, 1, 1), "sobel_f": cv.Sobel(f, -1, 1, 0, ksize=5),
    "filter2d": cv.filter2D(f, -1, numpy.ones((3, 4), numpy.float32) / 7),
    "erode": cv.erode(a, el), "dilate": cv.dilate(f, None, iterations=2),
    "canny": cv.Canny(a, 40, 120), "canny_l2": cv.Canny(g, 40, 120, L2gradient=True),
}
print(json.dumps({k: hashlib.sha256(bytes(memoryview(numpy.ascontiguousarray(numpy.asarray(v))))).hexdigest()
                  for k, v in outs.items()}))
"""


def _run_isa(isa):
    import json
    import os
    import subprocess
    import sys
    import mnn
    env = dict(os.environ, MNN_ISA=isa)
    src = os.path.dirname(os.path.dirname(mnn.__file__))
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", ISA_PROGRAM], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _isas():
    import mnn
    return [i for i in mnn._core.available_isas() if i != "scalar"]


@pytest.mark.parametrize("isa", _isas())
def test_simd_filter_kernels_match_scalar_build(isa):
    # The per-ISA builds of the filter kernels (simd/cv/) must agree bit for bit with the scalar one.
    ref, got = _run_isa("scalar"), _run_isa(isa)
    assert ref.keys() == got.keys()
    for key in ref:
        assert ref[key] == got[key], key


@pytest.mark.parametrize("cn", [2, 3, 4])
@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32"])
def test_morphology_constant_border_per_channel(cn, dtype):
    # cv2's borderValue is a Scalar: a number v means (v, 0, 0, 0), a tuple one value per channel.
    # mnn put the first value in every channel (seen on 1xN images, where the border dominates).
    rng = numpy.random.default_rng(cn)
    for shape in [(1, 17), (1, 1), (3, 5), (12, 9)]:
        a = (rng.random(shape + (cn,)) * 250).astype(dtype)
        for k in [numpy.ones((3, 5), numpy.uint8), numpy.ones((2, 1), numpy.uint8),
                  cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 3))]:
            for bv in [91, (10, 20, 30, 40), (7, 7, 7, 7), 300]:
                for it in (1, 2):
                    for name in ("erode", "dilate"):
                        want = getattr(cv2, name)(a, k, iterations=it, borderType=cv2.BORDER_CONSTANT, borderValue=bv)
                        got = numpy.asarray(getattr(cv, name)(np.asarray(a), k, iterations=it,
                                                              borderType=cv.BORDER_CONSTANT, borderValue=bv))
                        assert got.shape == want.shape and numpy.array_equal(got, want), (name, shape, k.shape, bv, it)
    want = cv2.morphologyEx(a, cv2.MORPH_GRADIENT, k, borderType=cv2.BORDER_CONSTANT, borderValue=(1, 2, 3, 4))
    got = cv.morphologyEx(a, cv.MORPH_GRADIENT, k, borderType=cv.BORDER_CONSTANT, borderValue=(1, 2, 3, 4))
    assert numpy.array_equal(numpy.asarray(got), want)
