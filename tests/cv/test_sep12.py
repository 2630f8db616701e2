"""Issue 5, session 12: the one-pass linear filters (cv_sepf, cv_f2d, cv_pyramid; kernels in
csrc/backends/cpu/simd/cv/filter_sep.cpp and pyramid.cpp) behind sepFilter2D, Sobel, Scharr,
Laplacian, filter2D, non-8-bit GaussianBlur, pyrDown and pyrUp.

Their results must be the earlier kernels' bit for bit (cv_sep_filter, cv_filter2d, cv_pyr stay
in the engine, so every case here is compared with them directly), and those are cv2's exactly
for integer images (compared too) and within float rounding for float ones. Odd sizes, 1-5
channels, every source depth cv2 takes, every ddepth, every border, kernels that take the exact
integer path and kernels that do not, non-contiguous views, 1 and 2 threads, and the scalar
build's bits under every ISA."""
import json

import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn  # noqa: E402
import mnn.cv as cv  # noqa: E402
from mnn import _core  # noqa: E402
from mnn.numpy._common import dtype_code  # noqa: E402

from helpers import run_under_isa  # noqa: E402

RNG = numpy.random.default_rng(1212)
DEPTHS = [numpy.uint8, numpy.uint16, numpy.int16, numpy.float32, numpy.float64]
BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_REFLECT_101]
SIZES = [(1, 1), (1, 9), (7, 1), (2, 3), (13, 17), (33, 70)]
CV_DEPTH = {numpy.uint8: 0, numpy.uint16: 2, numpy.int16: 3, numpy.float32: 5, numpy.float64: 6}


def _img(h, w, cn, dt):
    shape = (h, w) if cn == 1 else (h, w, cn)
    if dt == numpy.uint8:
        return RNG.integers(0, 256, shape, dtype=numpy.uint8)
    if dt == numpy.uint16:
        return RNG.integers(0, 65536, shape, dtype=numpy.uint16)
    if dt == numpy.int16:
        return RNG.integers(-32768, 32768, shape, dtype=numpy.int16)
    return (RNG.standard_normal(shape) * 40).astype(dt)


def _bytes(x):
    x = numpy.asarray(x)
    return x.dtype.str, x.shape, x.tobytes()


# kernels: exact integer sums (Sobel-like, ones/25 in float32), float taps that are not, zeros,
# negative and large taps (sums that overflow the 16-bit lanes)
SEP_KERNELS = [
    ([-1.0, 0.0, 1.0], [1.0, 2.0, 1.0]),
    ([3.0, 10.0, 3.0], [-1.0, 0.0, 1.0]),
    ([float(numpy.float32(0.2))] * 5, [float(numpy.float32(0.2))] * 5),
    ([float(v) for v in numpy.float32([0.04, 0.3, -0.2, 0.5, 0.1])], [1.0, 2.0, 1.0]),
    ([0.1, 0.2, 0.3, 0.25, 0.15, 0.05, 0.7, 0.01, 0.3], [1 / 3, 1 / 3, 1 / 3]),
    ([1.0, -4.0, 6.0, -4.0, 1.0], [200.0, 0.0, -130.5, 7.0, 1.0, 1.0, 9.0]),
    ([0.0, 0.0, 0.0], [0.5, 0.25]),
]


def _old_sep(a, kx, ky, anc, border, out, delta, scale):
    return _core.prim("cv_sep_filter", [a], [len(kx), len(ky), anc[0], anc[1], border, dtype_code(out), 0, 0],
                      list(kx) + list(ky) + [delta, scale, 0.0])


def _new_sep(a, kx, ky, anc, border, out, delta, scale):
    return _core.prim("cv_sepf", [a], [len(kx), len(ky), anc[0], anc[1], border, dtype_code(out)],
                      list(kx) + list(ky) + [delta, scale])


@pytest.mark.parametrize("dt", DEPTHS)
def test_sep_kernel_is_the_previous_one_bit_for_bit(dt):
    outs = ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"]
    n = 0
    for cn in (1, 2, 3, 4, 5):
        for (h, w) in SIZES:
            a = mnn.numpy.asarray(_img(h, w, cn, dt))
            for ki, (kx, ky) in enumerate(SEP_KERNELS):
                border = BORDERS[(ki + cn + h) % 4]
                anc = (len(kx) - 1, 0) if ki == 4 else (len(kx) // 2, len(ky) // 2)
                out = outs[(ki + cn + w) % 7]
                for delta, scale in ((0.0, 1.0), (1.5, 0.25), (-0.0, -3.0)):
                    want = _bytes(_old_sep(a, kx, ky, anc, border, out, delta, scale))
                    got = _bytes(_new_sep(a, kx, ky, anc, border, out, delta, scale))
                    assert got == want, (cn, h, w, ki, border, out, delta, scale)
                    n += 1
    assert n == 5 * len(SIZES) * len(SEP_KERNELS) * 3


F2D_KERNELS = [
    numpy.ones((5, 5), numpy.float32) / 25,
    numpy.float32([[0, 1, 0], [1, -4, 1], [0, 1, 0]]),
    numpy.float32([[2, 0, 2], [0, -8, 0], [2, 0, 2]]) * 0.5,
    numpy.float32([[0, 1, 0.5], [-1, 2.25, 3], [0.1, 0, -7]]),
    numpy.float64([[1e-3, 0.3, 1 / 7, 11.0]]),
    numpy.full((3, 4), 1000.0),
]


@pytest.mark.parametrize("dt", DEPTHS)
def test_filter2d_kernel_is_the_previous_one_bit_for_bit(dt):
    outs = ["uint8", "int16", "uint16", "float32", "float64", "int32"]
    for cn in (1, 2, 3, 4, 5):
        for (h, w) in SIZES:
            a = mnn.numpy.asarray(_img(h, w, cn, dt))
            for ki, k in enumerate(F2D_KERNELS):
                kh, kw = k.shape
                vals = [float(v) for v in k.ravel()]
                border = BORDERS[(ki + cn + w) % 4]
                ay, ax = (kh - 1, 0) if ki == 3 else (kh // 2, kw // 2)
                out = outs[(ki + cn + h) % 6]
                for delta in (0.0, 3.0, -0.5):
                    want = _core.prim("cv_filter2d", [a], [kh, kw, ay, ax, border, dtype_code(out)], vals + [delta, 0.0])
                    got = _core.prim("cv_f2d", [a], [kh, kw, ay, ax, border, dtype_code(out)], vals + [delta])
                    assert _bytes(got) == _bytes(want), (cn, h, w, ki, border, out, delta)


def _old_pyr(x, params):
    """The earlier cv_pyr kernel (1-4 channels; plane by plane past 4, as pyrDown/pyrUp ran it)."""
    if x.ndim == 3 and x.shape[2] > 4:
        planes = [numpy.asarray(_core.prim("cv_pyr", [mnn.numpy.asarray(numpy.ascontiguousarray(x[:, :, c]))], params, []))
                  for c in range(x.shape[2])]
        return numpy.stack(planes, axis=2)
    return _core.prim("cv_pyr", [mnn.numpy.asarray(x)], params, [])


@pytest.mark.parametrize("dt", DEPTHS)
def test_pyramid_kernel_is_the_previous_one_bit_for_bit(dt):
    n = 0
    for cn in (1, 2, 3, 4, 5):
        for (h, w) in SIZES + [(6, 8), (9, 4)]:
            x = _img(h, w, cn, dt)
            a = mnn.numpy.asarray(x)
            up = [0, 2 * h, 2 * w, 4]
            assert _bytes(_core.prim("cv_pyramid", [a], up, [])) == _bytes(_old_pyr(x, up)), (cn, h, w)
            for dh in {(h + 1) // 2, h // 2, (h + 2) // 2 + (h % 2 == 0)} - {0}:
                for dw in {(w + 1) // 2, w // 2 + (w > 2)} - {0}:
                    if abs(2 * dh - h) > 2 or abs(2 * dw - w) > 2:
                        continue
                    for mode in (1, 2, 3, 4):
                        down = [1, dh, dw, mode]
                        got = _core.prim("cv_pyramid", [a], down, [])
                        assert _bytes(got) == _bytes(_old_pyr(x, down)), (cn, h, w, dh, dw, mode)
                        n += 1
    assert n > 5 * 8 * 4


def _same(got, want, tol=0.0):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    if tol == 0.0:
        numpy.testing.assert_array_equal(got, want)
    else:
        numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, float(numpy.abs(want).max(initial=0))))


def _views(a):
    """The image, a strided crop and (3+ channels) a channel slice: non-contiguous inputs."""
    yield a
    if a.shape[0] > 2 and a.shape[1] > 2:
        yield a[1:-1:2, ::-1][:, 1:]
    if a.ndim == 3 and a.shape[2] >= 3:
        yield a[:, :, 1:3]


# the ddepths cv2's 3x3 Laplacian (a filter2D) takes per source depth
LAPLACE_OUT = {numpy.uint8: (-1, cv2.CV_16S, cv2.CV_32F, cv2.CV_64F), numpy.uint16: (-1, cv2.CV_32F, cv2.CV_64F),
               numpy.int16: (-1, cv2.CV_16S, cv2.CV_32F, cv2.CV_64F), numpy.float32: (-1, cv2.CV_32F),
               numpy.float64: (-1, cv2.CV_64F)}


@pytest.mark.parametrize("dt", DEPTHS)
def test_public_functions_against_cv2(dt):
    exact = dt in (numpy.uint8, numpy.uint16, numpy.int16)
    k5 = numpy.ones((5, 5), numpy.float32) / 25
    for cn in (1, 3, 4):
        for (h, w) in ((13, 17), (1, 9), (31, 8)):
            for a in _views(_img(h, w, cn, dt)):
                for b in BORDERS:
                    for dd in (-1, cv2.CV_16S, cv2.CV_32F, cv2.CV_64F):
                        if dt == numpy.float64 and dd == cv2.CV_32F:
                            continue  # cv2 has no 64F -> 32F derivative filter
                        if not exact and dd == cv2.CV_16S:
                            continue  # float sums rounded to integers: cv2's float32 rounding flips some
                        tol = 0.0 if exact else 1e-5
                        _same(cv.Sobel(a, dd, 1, 0, borderType=b), cv2.Sobel(a, dd, 1, 0, borderType=b), tol)
                        _same(cv.Sobel(a, dd, 1, 2, ksize=5, scale=0.5, borderType=b),
                              cv2.Sobel(a, dd, 1, 2, ksize=5, scale=0.5, borderType=b), tol)
                        _same(cv.Scharr(a, dd, 0, 1, borderType=b, delta=3), cv2.Scharr(a, dd, 0, 1, borderType=b, delta=3), tol)
                        if dd in LAPLACE_OUT[dt]:
                            _same(cv.Laplacian(a, dd, ksize=3, borderType=b), cv2.Laplacian(a, dd, ksize=3, borderType=b), tol)
                    if dt == numpy.uint8:
                        _same(cv.filter2D(a, -1, k5, borderType=b), cv2.filter2D(a, -1, k5, borderType=b))
                        _same(cv.sepFilter2D(a, -1, k5[0], k5[:, 0], borderType=b),
                              cv2.sepFilter2D(a, -1, k5[0], k5[:, 0], borderType=b))
                    elif dt in (numpy.float32, numpy.float64):
                        _same(cv.filter2D(a, -1, k5, borderType=b), cv2.filter2D(a, -1, k5, borderType=b), 1e-5)
                        # float32: cv2's own float32 arithmetic (cv_sepf32, session 13): exact
                        _same(cv.GaussianBlur(a, (7, 7), 1.5, borderType=b), cv2.GaussianBlur(a, (7, 7), 1.5, borderType=b),
                              0.0 if dt == numpy.float32 else 1e-5)
                        if dt == numpy.float32:
                            _same(cv.sepFilter2D(a, -1, k5[0], k5[:, 0] * 2, delta=0.5, borderType=b),
                                  cv2.sepFilter2D(a, -1, k5[0], k5[:, 0] * 2, delta=0.5, borderType=b))
                    if b != cv2.BORDER_CONSTANT:
                        _same(cv.pyrDown(a, borderType=b), cv2.pyrDown(a, borderType=b), 0.0 if exact else 1e-6)
                _same(cv.pyrUp(a), cv2.pyrUp(a), 0.0 if exact else 1e-6)


def test_one_and_two_threads_give_the_same_bits():
    img = _img(211, 157, 3, numpy.uint8)
    f = _img(211, 157, 3, numpy.float32)
    k5 = numpy.ones((5, 5), numpy.float32) / 25
    calls = [lambda: cv.pyrUp(img), lambda: cv.pyrDown(img), lambda: cv.pyrDown(f), lambda: cv.pyrUp(f),
             lambda: cv.GaussianBlur(f, (7, 7), 1.5), lambda: cv.filter2D(img, -1, k5), lambda: cv.filter2D(f, -1, k5),
             lambda: cv.sepFilter2D(img, -1, k5[0], k5[:, 0]), lambda: cv.Sobel(img, cv2.CV_16S, 1, 0),
             lambda: cv.Scharr(img, cv2.CV_32F, 0, 1), lambda: cv.Laplacian(img, cv2.CV_16S, ksize=3),
             lambda: cv.Laplacian(f, -1, ksize=5)]
    n0 = mnn.get_num_threads()
    try:
        mnn.set_num_threads(1)
        one = [_bytes(c()) for c in calls]
        mnn.set_num_threads(2)
        two = [_bytes(c()) for c in calls]
    finally:
        mnn.set_num_threads(n0)
    assert one == two


_ISA_PROGRAM = r"""
import json, hashlib
import numpy
import mnn.cv as cv
rng = numpy.random.default_rng(5)
out = []
for dt in ("uint8", "uint16", "int16", "float32", "float64"):
    for shape in ((9, 7, 3), (33, 70), (17, 131, 4)):
        if dt in ("float32", "float64"):
            a = (rng.standard_normal(shape) * 40).astype(dt)
        else:
            a = rng.integers(0, 60000 if dt != "uint8" else 256, shape).astype(dt)
        k5 = numpy.ones((5, 5), numpy.float32) / 25
        kx = numpy.float32([0.04, 0.3, -0.2, 0.5, 0.1])
        for b in (0, 1, 2, 4):
            rs = [cv.Sobel(a, cv.CV_64F, 1, 0, borderType=b), cv.Scharr(a, -1, 0, 1, borderType=b),
                  cv.Laplacian(a, -1, ksize=3, borderType=b), cv.Laplacian(a, cv.CV_64F, ksize=5, borderType=b),
                  cv.filter2D(a, -1, k5, borderType=b), cv.sepFilter2D(a, -1, kx, kx[::-1].copy(), borderType=b, delta=2.5),
                  cv.sepFilter2D(a, cv.CV_64F, kx, k5[0], borderType=b), cv.pyrUp(a), cv.pyrDown(a, borderType=max(b, 1))]
            if dt != "uint8":
                rs.append(cv.GaussianBlur(a, (7, 5), 1.5, borderType=b))
            for r in rs:
                out.append(hashlib.sha1(numpy.ascontiguousarray(numpy.asarray(r)).tobytes()).hexdigest())
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_scalar_isa_gives_the_same_bits(isa):
    scalar = run_under_isa(_ISA_PROGRAM, "scalar")
    other = run_under_isa(_ISA_PROGRAM, isa)
    assert len(scalar) == len(other) == 5 * 3 * 4 * 9 + 4 * 3 * 4
    diff = [i for i, (a, b) in enumerate(zip(scalar, other)) if a != b]
    assert not diff, f"cases {diff} differ between MNN_ISA=scalar and MNN_ISA={isa}"
    assert len(set(scalar)) > len(scalar) // 2


def test_bad_input_names_the_function():
    a = numpy.zeros((5, 5), numpy.uint8)
    with pytest.raises(ValueError, match=r"^\[mnn.cv.sepFilter2D\]"):
        _core.prim("cv_sepf", [mnn.numpy.asarray(a)], [3, 3, 5, 1, 4, dtype_code("uint8")], [1.0] * 8)
    with pytest.raises(ValueError, match=r"^\[mnn.cv.filter2D\]"):
        _core.prim("cv_f2d", [mnn.numpy.asarray(a)], [2, 2, 0, 0, 4, dtype_code("uint8")], [1.0] * 3)
    with pytest.raises(ValueError, match=r"^\[mnn.cv.pyrDown\]"):
        _core.prim("cv_pyramid", [mnn.numpy.asarray(a)], [1, 9, 3, 4], [])
    with pytest.raises(ValueError, match=r"^\[mnn.cv.pyrUp\]"):
        _core.prim("cv_pyramid", [mnn.numpy.asarray(a)], [0, 9, 10, 4], [])
    with pytest.raises(TypeError, match=r"^\[mnn.cv.pyrDown\]"):
        _core.prim("cv_pyramid", [mnn.numpy.asarray(a.astype(numpy.int8))], [1, 3, 3, 4], [])
    with pytest.raises(cv.error, match=r"^\[mnn.cv.sepFilter2D\]"):
        cv.sepFilter2D(a, -1, numpy.ones((3, 3)), numpy.ones(3))
    with pytest.raises(cv.error, match=r"^\[mnn.cv.filter2D\]"):
        cv.filter2D(a, -1, numpy.ones((3, 3)), anchor=(3, 0))
    with pytest.raises(cv.error, match=r"^\[mnn.cv.Sobel\]"):
        cv.Sobel(a, cv2.CV_8U, 0, 0)
    with pytest.raises(cv.error, match=r"^\[mnn.cv.pyrDown\]"):
        cv.pyrDown(a, borderType=cv2.BORDER_CONSTANT)


# session 12b: float kernels on integer images to integer outputs take exact integer sums, with the
# elements near a rounding tie recomputed by the double loop; rows go in L2-sized bands
def test_sep_ties_and_bands_are_the_previous_kernel_bit_for_bit():
    third = [1 / 3] * 3
    # with kx = [0.5], ky = [1/3] * 3 the exact value is (sum of 3 pixels) / 6, a tie for sums 6k + 3;
    # vertical triples (0, 1, 20), (0, 1, 56), (0, 1, 68) are ties where the double loop's rounding
    # gives the other integer than the one-product value: those elements must take the loop's result
    tie = numpy.tile(numpy.uint8([0, 1, 20, 0, 1, 56, 0, 1, 68]).reshape(-1, 1), (3, 11))
    k5 = [float(numpy.float32(0.04))] * 5
    kx = [float(v) for v in numpy.float32([0.04, 0.3, -0.2, 0.5, 0.1])]
    cases = [(tie, [0.5], third), (tie[:, :, None].repeat(3, 2), [0.5], third),
             (_img(700, 400, 3, numpy.uint8), k5, k5), (_img(650, 300, 1, numpy.uint16), k5, kx),
             (_img(333, 500, 4, numpy.int16), kx, kx), (_img(600, 90, 2, numpy.uint8), [0.5, 0.5], third)]
    n = 0
    for img, kx_, ky_ in cases:
        a = mnn.numpy.asarray(img)
        for out in ("uint8", "int16", "uint16", "int32", "float32"):
            for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REFLECT_101):
                anc = (len(kx_) // 2, len(ky_) // 2)
                want = _bytes(_old_sep(a, kx_, ky_, anc, border, out, 0.0, 1.0))
                assert _bytes(_new_sep(a, kx_, ky_, anc, border, out, 0.0, 1.0)) == want, (img.shape, out, border)
                n += 1
    assert n == 6 * 5 * 2
    # the tie image really needs the recomputation (the check is not vacuous): somewhere the double
    # loop rounds to another integer than (exact integer sum) * (0.5 / 3) does
    loop = numpy.asarray(_old_sep(mnn.numpy.asarray(tie), [0.5], third, (0, 1), 4, "float64", 0.0, 1.0))
    sums = cv2.sepFilter2D(tie.astype(numpy.float64), -1, numpy.ones(1), numpy.ones(3), anchor=(0, 1), borderType=4)
    assert numpy.any(numpy.rint(loop) != numpy.rint(sums * (0.5 * (1 / 3))))
