"""Issue 5, session 13: float32 GaussianBlur and sepFilter2D in cv2's own float32 arithmetic
(cv_sepf32; kernel csrc/backends/cpu/simd/cv/filter_sep32.cpp).

cv2 runs them as a float32 row pass then a float32 column pass whose expressions (FMA or plain
products, the summation order) depend on the kernel's symmetry and size and on whether an element
lies in the SIMD part of a row (the first W*cn - (W*cn) % 8) or in the scalar tail. These tests
pin cv2's bits exactly: odd widths put elements in every tail position, kernels of every size from
1 to 35 taps, symmetric, generic, non-centred anchors, deltas, every border, 1-4 channels,
antisymmetric (derivative) kernels, non-contiguous views, 1 and 2 threads, and the scalar build's
bits under every ISA.
Today's double path was up to ~8e-6 (noise of scale 40) away from cv2 on these calls."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn  # noqa: E402
import mnn.cv as cv  # noqa: E402
from mnn import _core  # noqa: E402
from mnn.numpy._common import dtype_code  # noqa: E402

from helpers import run_under_isa  # noqa: E402

RNG = numpy.random.default_rng(1313)
BORDERS = [cv2.BORDER_REFLECT_101, cv2.BORDER_REPLICATE, cv2.BORDER_CONSTANT, cv2.BORDER_REFLECT]
# widths: multiples of 8 (no tail), every tail length 1..7 with 1 and 3 channels, tiny images
SIZES = [(9, 16), (13, 17), (7, 21), (11, 35), (6, 13), (1, 7), (5, 1), (2, 3), (24, 67)]


def _img(shape, kind):
    if kind == "noise":
        return (RNG.standard_normal(shape) * 40).astype(numpy.float32)
    # photo-like: smooth values in [0, 1], many near-equal neighbours
    u8 = cv2.GaussianBlur(RNG.integers(0, 256, shape).astype(numpy.uint8), (9, 9), 3)
    return u8.astype(numpy.float32) / 255


def _same(got, want, where):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, where
    eq = (got == want) | (numpy.isnan(got) & numpy.isnan(want))
    assert eq.all(), f"{where}: {numpy.count_nonzero(~eq)} elements differ, max {numpy.nanmax(numpy.abs(got - want))}"


@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_gaussian_blur_float32_is_cv2_bit_for_bit(cn):
    n = 0
    for (h, w) in SIZES:
        shape = (h, w) if cn == 1 else (h, w, cn)
        for kind in ("noise", "photo"):
            img = _img(shape, kind)
            for ks, sx, sy in [((3, 3), 0, 0), ((5, 5), 0, 0), ((7, 7), 0, 0), ((3, 3), 1.1, 0), ((5, 5), 1.3, 0),
                               ((7, 7), 2.0, 0), ((0, 0), 1.0, 0), ((0, 0), 0.6, 0), ((5, 3), 1.2, 0.7),
                               ((1, 5), 0, 0), ((9, 1), 0, 0), ((0, 0), 2.5, 0)]:
                for border in BORDERS:
                    want = cv2.GaussianBlur(img, ks, sx, sigmaY=sy, borderType=border)
                    got = cv.GaussianBlur(img, ks, sx, sigmaY=sy, borderType=border)
                    _same(got, want, (shape, kind, ks, sx, sy, border))
                    n += 1
    assert n == len(SIZES) * 2 * 12 * 4


def test_gaussian_blur_float32_views_and_large_images():
    base = _img((301, 517, 3), "photo")
    for view in (base[1:300:2, 3:500:3], base[:, ::-1], base[10:200, 7:411, 1], numpy.asfortranarray(base[:, :, 0])):
        for ks, s in [((5, 5), 0), ((7, 7), 1.5), ((3, 3), 0)]:
            _same(cv.GaussianBlur(view, ks, s), cv2.GaussianBlur(view, ks, s), (view.shape, ks))
    big = _img((1080, 1921, 3), "noise")  # every row has a tail of 3; bands across threads
    for ks, s in [((7, 7), 1.5), ((5, 5), 0)]:
        _same(cv.GaussianBlur(big, ks, s), cv2.GaussianBlur(big, ks, s), ks)


def _sep_kernels():
    ks = []
    for n in list(range(1, 14)) + [17, 21, 33, 35]:
        ks.append(("gauss", numpy.float32(cv2.getGaussianKernel(n, 0.35 * n + 0.2, cv2.CV_32F).ravel())))
        ks.append(("generic", RNG.uniform(-0.5, 0.9, n).astype(numpy.float32)))
        s = RNG.uniform(-1, 1, n).astype(numpy.float32)
        ks.append(("symmetric", (s + s[::-1]) / 2))
        if n % 2:
            ks.append(("antisymmetric", s - s[::-1]))
    ks += [("121", numpy.float32([1, 2, 1])), ("1m21", numpy.float32([1, -2, 1])), ("lap5", numpy.float32([1, 0, -2, 0, 1])),
           ("box", numpy.float32([0.2] * 5)), ("zeros", numpy.float32([0, 0, 0])), ("neg", numpy.float32([-1, 2, -1])),
           ("2m", numpy.float32([1, -2, 1]) * -1)]
    return ks


@pytest.mark.parametrize("cn", [1, 2, 3])
def test_sep_filter2d_float32_is_cv2_bit_for_bit(cn):
    ks = _sep_kernels()
    n = 0
    for (h, w) in [(23, 37), (16, 64), (11, 13), (3, 1), (1, 5)]:
        shape = (h, w) if cn == 1 else (h, w, cn)
        img = _img(shape, "noise")
        for i, (nx, kx) in enumerate(ks):
            ny, ky = ks[(i * 7 + cn) % len(ks)]
            border = BORDERS[(i + h) % 4]
            for anchor in ((-1, -1), (0, len(ky) - 1)):
                for delta in (0.0, 1.5):
                    want = cv2.sepFilter2D(img, -1, kx, ky, anchor=anchor, delta=delta, borderType=border)
                    got = cv.sepFilter2D(img, -1, kx, ky, anchor=anchor, delta=delta, borderType=border)
                    _same(got, want, (shape, nx, len(kx), ny, len(ky), border, anchor, delta))
                    n += 1
    assert n == 5 * len(ks) * 4


def test_sep_filter2d_float64_kernels_and_ddepth():
    img = _img((19, 45, 3), "noise")
    kx = RNG.uniform(-1, 1, 7)
    kx = (kx + kx[::-1]) / 2  # symmetric in double: cv2 takes the symmetric branches, in float32
    ky = RNG.uniform(-1, 1, 5)
    for border in BORDERS:
        for dd in (-1, cv2.CV_32F):
            _same(cv.sepFilter2D(img, dd, kx, ky, borderType=border), cv2.sepFilter2D(img, dd, kx, ky, borderType=border),
                  (border, dd))
    # a float64 result keeps the double path (cv2's buffer is double there too)
    want = cv2.sepFilter2D(img, cv2.CV_64F, kx, ky)
    numpy.testing.assert_allclose(numpy.asarray(cv.sepFilter2D(img, cv2.CV_64F, kx, ky)), want, rtol=1e-12, atol=1e-10)


def test_derivative_kernels_are_cv2_bit_for_bit():
    # antisymmetric kernels take cv2's own branches (differences of the mirrored taps)
    img = _img((21, 35, 3), "noise")
    for kx, ky in [([-1.0, 0.0, 1.0], [1.0, 2.0, 1.0]), ([1.0, 2.0, 1.0], [-0.5, -1.0, 0.0, 1.0, 0.5]),
                   ([-1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]), ([1.0, 0.0, -1.0], [3.0, 10.0, 3.0]),
                   ([-1.0, -2.0, 0.0, 2.0, 1.0], [0.25, 0.0, -0.25]), ([-3.0, 0.0, 3.0], [1.0, 0.0, -1.0]),
                   ([1.0, -4.0, 5.0, 0.0, -5.0, 4.0, -1.0], [1.0, 4.0, 6.0, 4.0, 1.0])]:
        for border in BORDERS:
            for delta in (0.0, 0.5):
                kxf, kyf = numpy.float32(kx), numpy.float32(ky)
                want = cv2.sepFilter2D(img, -1, kxf, kyf, delta=delta, borderType=border)
                _same(cv.sepFilter2D(img, -1, kxf, kyf, delta=delta, borderType=border), want, (kx, ky, border, delta))


def test_float32_path_is_the_same_at_1_and_2_threads():
    img = _img((700, 333, 3), "noise")
    k9 = numpy.float32(cv2.getGaussianKernel(9, 2.0, cv2.CV_32F).ravel())
    calls = [lambda: cv.GaussianBlur(img, (7, 7), 1.5), lambda: cv.GaussianBlur(img, (3, 3), 0, borderType=cv2.BORDER_CONSTANT),
             lambda: cv.sepFilter2D(img, -1, k9, k9[:5].copy(), anchor=(2, 1), delta=0.25)]
    old = mnn.get_num_threads()
    try:
        res = {}
        for t in (1, 2):
            mnn.set_num_threads(t)
            res[t] = [numpy.asarray(f()).tobytes() for f in calls]
    finally:
        mnn.set_num_threads(old)
    assert res[1] == res[2]
    _same(cv.GaussianBlur(img, (7, 7), 1.5), cv2.GaussianBlur(img, (7, 7), 1.5), "2 threads")


_ISA_PROGRAM = r"""
import json, hashlib
import numpy
import cv2
import mnn.cv as cv
rng = numpy.random.default_rng(13)
out = []
for shape in ((9, 7, 3), (33, 70), (17, 131, 4), (5, 23, 2)):
    a = (rng.standard_normal(shape) * 40).astype(numpy.float32)
    for b in (0, 1, 2, 4):
        rs = [cv.GaussianBlur(a, (3, 3), 0, borderType=b), cv.GaussianBlur(a, (5, 5), 1.2, borderType=b),
              cv.GaussianBlur(a, (7, 5), 1.5, borderType=b), cv.GaussianBlur(a, (0, 0), 3.0, borderType=b)]
        for n in (1, 2, 3, 4, 5, 7, 9, 12, 17, 25):
            k = rng.uniform(-0.5, 1, n).astype(numpy.float32)
            rs.append(cv.sepFilter2D(a, -1, k, (k + k[::-1]) / 2, borderType=b, delta=0.5))
            rs.append(cv.sepFilter2D(a, -1, (k + k[::-1]) / 2, k, borderType=b))
            rs.append(cv.sepFilter2D(a, -1, k - k[::-1], k - k[::-1], borderType=b, delta=-1.25))
        for r in rs:
            out.append(hashlib.sha1(numpy.ascontiguousarray(numpy.asarray(r)).tobytes()).hexdigest())
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_scalar_isa_gives_the_same_bits(isa):
    scalar = run_under_isa(_ISA_PROGRAM, "scalar")
    other = run_under_isa(_ISA_PROGRAM, isa)
    assert len(scalar) == len(other) == 4 * 4 * 34
    diff = [i for i, (a, b) in enumerate(zip(scalar, other)) if a != b]
    assert not diff, f"cases {diff} differ between MNN_ISA=scalar and MNN_ISA={isa}"
    assert len(set(scalar)) > len(scalar) // 2


def test_bad_input_names_the_function():
    a = mnn.numpy.asarray(numpy.zeros((5, 5), numpy.float32))
    f32 = dtype_code("float32")
    with pytest.raises(TypeError, match=r"^\[mnn.cv.sepFilter2D\]"):
        _core.prim("cv_sepf32", [mnn.numpy.asarray(numpy.zeros((5, 5), numpy.int16))], [1, 1, 0, 0, 4, f32], [1.0, 1.0, 0.0, 1.0])
    with pytest.raises(TypeError, match=r"^\[mnn.cv.sepFilter2D\]"):
        _core.prim("cv_sepf32", [a], [1, 1, 0, 0, 4, dtype_code("float64")], [1.0, 1.0, 0.0, 1.0])
    with pytest.raises(TypeError, match=r"^\[mnn.cv.sepFilter2D\]"):
        _core.prim("cv_sepf32", [a], [1, 1, 0, 0, 4, f32], [1.0, 1.0, 0.0, 2.0])
    with pytest.raises(ValueError, match=r"^\[mnn.cv.sepFilter2D\]"):
        _core.prim("cv_sepf32", [a], [3, 1, 3, 0, 4, f32], [1.0] * 6)
    with pytest.raises(cv.error, match=r"^\[mnn.cv.GaussianBlur\]"):
        cv.GaussianBlur(numpy.zeros((5, 5), numpy.float32), (4, 4), 0)


# ---- Laplacian uint8 -> int16, ksize 1 and 3 (cv_lap8: one integer pass) --------------------------

@pytest.mark.parametrize("ksize", [1, 3])
def test_laplacian_u8_to_16s_is_cv2(ksize):
    n = 0
    for shape in [(1, 1), (1, 9), (7, 1), (2, 3), (13, 17), (33, 70), (5, 6, 3), (9, 11, 4), (4, 5, 2), (121, 333)]:
        g = RNG.integers(0, 256, shape, dtype=numpy.uint8)
        for border in BORDERS:
            for scale, delta in ((1, 0), (2, 0), (1, 3), (0.5, -1.5)):  # the last three take cv_f2d
                want = cv2.Laplacian(g, cv2.CV_16S, ksize=ksize, scale=scale, delta=delta, borderType=border)
                got = cv.Laplacian(g, cv2.CV_16S, ksize=ksize, scale=scale, delta=delta, borderType=border)
                assert numpy.asarray(got).dtype == numpy.int16
                numpy.testing.assert_array_equal(numpy.asarray(got), want, err_msg=str((shape, border, scale, delta)))
                n += 1
    assert n == 10 * 4 * 4
    extremes = numpy.zeros((9, 12), numpy.uint8)
    extremes[::2, ::2] = 255  # sums of -8*255 and +8*255 (no int16 saturation either way)
    numpy.testing.assert_array_equal(numpy.asarray(cv.Laplacian(extremes, cv2.CV_16S, ksize=ksize)),
                                     cv2.Laplacian(extremes, cv2.CV_16S, ksize=ksize))
    view = RNG.integers(0, 256, (40, 60, 3), dtype=numpy.uint8)[1::2, ::3]
    numpy.testing.assert_array_equal(numpy.asarray(cv.Laplacian(view, cv2.CV_16S, ksize=ksize)),
                                     cv2.Laplacian(view, cv2.CV_16S, ksize=ksize))


def test_laplacian_u8_threads_isas_and_errors():
    g = RNG.integers(0, 256, (700, 333), dtype=numpy.uint8)
    n0 = mnn.get_num_threads()
    try:
        res = []
        for t in (1, 2):
            mnn.set_num_threads(t)
            res.append([numpy.asarray(cv.Laplacian(g, cv2.CV_16S, ksize=k, borderType=b)).tobytes() for k in (1, 3) for b in (0, 4)])
    finally:
        mnn.set_num_threads(n0)
    assert res[0] == res[1]
    program = ("import json, hashlib, numpy, mnn.cv as cv\n"
               "g = numpy.random.default_rng(3).integers(0, 256, (37, 45, 3), dtype=numpy.uint8)\n"
               "print(json.dumps([hashlib.sha1(numpy.asarray(cv.Laplacian(g, 3, ksize=k, borderType=b)).tobytes()).hexdigest()"
               " for k in (1, 3) for b in (0, 1, 2, 4)]))\n")
    scalar = run_under_isa(program, "scalar")
    for isa in mnn._core.available_isas():
        assert run_under_isa(program, isa) == scalar, isa
    a = mnn.numpy.asarray(numpy.zeros((5, 5), numpy.uint8))
    with pytest.raises(ValueError, match=r"^\[mnn.cv.Laplacian\]"):
        _core.prim("cv_lap8", [a], [5, 4], [])
    with pytest.raises(ValueError, match=r"^\[mnn.cv.Laplacian\]"):
        _core.prim("cv_lap8", [a], [3, 3], [])
    with pytest.raises(TypeError, match=r"^\[mnn.cv.Laplacian\]"):
        _core.prim("cv_lap8", [mnn.numpy.asarray(numpy.zeros((5, 5), numpy.float32))], [3, 4], [])


def test_sep_filter2d_memo_keys_on_kernel_content():
    from mnn.cv import _filter_sep
    kx = numpy.float32([0.25, 0.5, 0.25])
    ky = numpy.float32([-1, 0, 1])
    _filter_sep._MEMO.clear()
    for i in range(3):
        img = _img((17, 23, 3), "noise")
        _same(cv.sepFilter2D(img, -1, kx, ky, delta=0.5), cv2.sepFilter2D(img, -1, kx, ky, delta=0.5), i)
    assert len(_filter_sep._MEMO) == 1  # the repeated call took the remembered primitive
    kx[0] = 0.125  # the same array, new contents: a new key, cv2's result for the new kernel
    _same(cv.sepFilter2D(img, -1, kx, ky, delta=0.5), cv2.sepFilter2D(img, -1, kx, ky, delta=0.5), "mutated")
    u8 = RNG.integers(0, 256, (17, 23), dtype=numpy.uint8)  # another depth: another key
    _same(cv.sepFilter2D(u8, -1, kx, kx), cv2.sepFilter2D(u8, -1, kx, kx), "uint8")
    out = numpy.zeros((17, 23, 3), numpy.float32)  # dst given: the checked path
    cv.sepFilter2D(img, -1, kx, ky, dst=out)
    _same(out, cv2.sepFilter2D(img, -1, kx, ky), "dst")
    with pytest.raises(cv.error, match=r"^\[mnn.cv.sepFilter2D\]"):
        cv.sepFilter2D(img, -1, kx, numpy.ones((3, 3), numpy.float32))
