"""Issue 5, session 13 (sep13): uint8 -> uint8 sepFilter2D with a float kernel in cv2's own float32
arithmetic (cv_sep8; kernel csrc/backends/cpu/simd/cv/filter_sep8.cpp).

cv2 runs these calls as a float32 row pass (RowVec_8u32f on the first W*cn - (W*cn) % 32 elements,
RowFilter's scalar loops on the rest) and a float32 column pass (SymmColumnVec_32f8u for symmetric
and antisymmetric column kernels, scalar loops for the tail and for other kernels), rounded half
to even and saturated. Kernels whose sums often land near .5 (box filters) tell the candidate
expressions apart; odd widths put elements in every tail position. The kernels cv2 runs in fixed
point (smooth, symmetric, taps multiples of 1/256) stay on cv_sepf. The double path these calls
took before was up to 1 away from cv2 (a generic 5-tap kernel on a 640x480 photo or noise: ~0.35%
of the pixels; box filters on widths with a scalar tail).
uint8 -> float32 (ddepth CV_32F) runs the same row pass and cv2's float32 column pass (gauss13's,
cv_sepf32): the double path was off by ulps on ~30-47% of the pixels there."""
import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn  # noqa: E402
import mnn.cv as cv  # noqa: E402
from mnn import _core  # noqa: E402
from mnn.numpy._common import dtype_code  # noqa: E402
from mnn.cv import _filter_sep as _fs  # noqa: E402

from helpers import run_under_isa  # noqa: E402

RNG = numpy.random.default_rng(1313)
BORDERS = [cv2.BORDER_REFLECT_101, cv2.BORDER_REPLICATE, cv2.BORDER_CONSTANT, cv2.BORDER_REFLECT]
# (H, W): W*cn multiples of 32 (no tail) and every kind of tail, tiny images
SIZES = [(9, 32), (13, 17), (7, 45), (11, 35), (6, 13), (1, 7), (5, 1), (2, 3), (24, 67), (40, 31)]


def _kernels(n):
    box = numpy.full(n, 1.0 / n, numpy.float32)
    g = RNG.uniform(-0.2, 0.6, n).astype(numpy.float32)
    s = ((g + g[::-1]) / 2).astype(numpy.float32)
    a = (g - g[::-1]).astype(numpy.float32)
    return [(box, box), (box * 1.3, box * 0.7), (g, s), (s, g), (s, s), (a, a), (g.astype(numpy.float64), s.astype(numpy.float64))]


def _same(got, want, what):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    bad = numpy.argwhere(got != want)
    assert bad.size == 0, f"{what}: {len(bad)} differ, first at {bad[:3].tolist()}"


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 9, 11, 15])
def test_sep_uint8_float_kernels_are_cv2_bits(n):
    for kx, ky in _kernels(n):
        for (h, w) in SIZES:
            for cn in (1, 2, 3, 4):
                shape = (h, w) if cn == 1 else (h, w, cn)
                img = RNG.integers(0, 256, shape, dtype=numpy.uint8)
                for border in BORDERS:
                    for delta in (0.0, 0.5, -3.25):
                        want = cv2.sepFilter2D(img, -1, kx, ky, delta=delta, borderType=border)
                        got = cv.sepFilter2D(img, -1, kx, ky, delta=delta, borderType=border)
                        _same(got, want, (n, kx.dtype, ky.dtype, shape, border, delta))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 9])
def test_sep_uint8_to_float32_is_cv2_bits(n):
    for kx, ky in _kernels(n) + [(numpy.float32([1, 2, 1]), numpy.float32([-1, 0, 1]))]:
        for (h, w) in SIZES:
            for cn in (1, 3, 4):
                shape = (h, w) if cn == 1 else (h, w, cn)
                img = RNG.integers(0, 256, shape, dtype=numpy.uint8)
                for border in BORDERS:
                    for delta in (0.0, 0.25):
                        want = cv2.sepFilter2D(img, cv2.CV_32F, kx, ky, delta=delta, borderType=border)
                        got = cv.sepFilter2D(img, cv2.CV_32F, kx, ky, delta=delta, borderType=border)
                        _same(got, want, (n, shape, border, delta))
    img = RNG.integers(0, 256, (60, 97, 3), dtype=numpy.uint8)[::2, 1::2]  # a view: RowFilter's tails
    k = numpy.float32([0.1, -0.3, 0.5, 0.2, 0.05])
    _same(cv.sepFilter2D(img, cv2.CV_32F, k, k[::-1].copy()), cv2.sepFilter2D(img, cv2.CV_32F, k, k[::-1].copy()), "view")


def test_sep_uint8_mixed_sizes_anchors_and_wrap():
    img = RNG.integers(0, 256, (37, 53, 3), dtype=numpy.uint8)
    for nx, ny in ((3, 5), (5, 3), (7, 1), (1, 7), (2, 5)):
        kx = numpy.full(nx, 1.0 / nx, numpy.float32)
        ky = RNG.uniform(0, 0.5, ny).astype(numpy.float32)
        for anchor in ((-1, -1), (0, ny - 1), (nx - 1, 0)):
            for border in BORDERS + [cv2.BORDER_WRAP]:
                try:
                    want = cv2.sepFilter2D(img, -1, kx, ky, anchor=anchor, borderType=border)
                except cv2.error:
                    continue
                _same(cv.sepFilter2D(img, -1, kx, ky, anchor=anchor, borderType=border), want, (nx, ny, anchor, border))


def test_sep_uint8_photo_like_and_views():
    # smooth gradients with noise (a photo's statistics) and non-contiguous views
    y, x = numpy.mgrid[0:241, 0:323]
    base = (127 + 100 * numpy.sin(x / 17.0) * numpy.cos(y / 23.0))[..., None] + RNG.normal(0, 6, (241, 323, 3))
    img = numpy.clip(base, 0, 255).astype(numpy.uint8)
    k5 = numpy.ones((5, 5), numpy.float32) / 25
    for a in (img, img[::2, 1::3], img[5:200, 7:300, 1], img[:, ::-1]):
        for kx, ky in ((k5[0], k5[:, 0]), (numpy.float32([0.1, 0.8, 0.1]), numpy.float32([-1, 0, 1]) * 0.5)):
            _same(cv.sepFilter2D(a, -1, kx, ky), cv2.sepFilter2D(a, -1, kx, ky), (a.shape, kx))


def test_sep_uint8_routes():
    img = RNG.integers(0, 256, (20, 30, 3), dtype=numpy.uint8)
    k = numpy.full(5, 0.2, numpy.float32)
    cv.sepFilter2D(img, -1, k, k * 1.01)
    assert _fs._LAST[0][0] == "cv_sep8"
    # cv2's fixed-point engine: smooth symmetric kernels of multiples of 1/256 stay on cv_sepf
    kq = numpy.float32([0.25, 0.5, 0.25])
    _fs._LAST[0] = None
    got = cv.sepFilter2D(img, -1, kq, kq)
    assert _fs._LAST[0] is None or _fs._LAST[0][0] != "cv_sep8"
    assert numpy.abs(numpy.asarray(got).astype(int) - cv2.sepFilter2D(img, -1, kq, kq)).max() <= 1
    assert _fs._fixed_point_8u([0.25, 0.5, 0.25], 1, [1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16], 2)
    assert not _fs._fixed_point_8u([0.2] * 5, 2, [0.2] * 5, 2)
    assert not _fs._fixed_point_8u([0.25, 0.5, 0.25], 0, [0.25, 0.5, 0.25], 1)


def test_sep8_primitive_checks_its_input():
    u8, f32 = dtype_code("uint8"), dtype_code("float32")
    a = mnn.numpy.asarray(numpy.zeros((4, 5), numpy.float32))
    with pytest.raises(TypeError, match=r"^\[mnn.cv.sepFilter2D\]"):
        _core.prim("cv_sep8", [a], [1, 1, 0, 0, 4, u8], [1.0, 1.0, 0.0, 1.0])
    b = mnn.numpy.asarray(numpy.zeros((4, 5), numpy.uint8))
    with pytest.raises(TypeError, match=r"^\[mnn.cv.sepFilter2D\]"):
        _core.prim("cv_sep8", [b], [1, 1, 0, 0, 4, f32], [1.0, 1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match=r"^\[mnn.cv.sepFilter2D\]"):
        _core.prim("cv_sep8", [b], [3, 1, 5, 0, 4, u8], [1.0, 1.0, 1.0, 1.0, 0.0, 1.0])


def test_threads_give_the_same_bits():
    img = RNG.integers(0, 256, (700, 333, 3), dtype=numpy.uint8)
    k = numpy.full(5, 0.2, numpy.float32)
    g = numpy.float32([0.1, -0.3, 0.5, 0.7, 0.2, 0.1, -0.05])
    calls = [lambda: cv.sepFilter2D(img, -1, k, k), lambda: cv.sepFilter2D(img, -1, g, k, delta=0.5),
             lambda: cv.sepFilter2D(img[:, :331], -1, k[:3], g, borderType=cv2.BORDER_CONSTANT),
             lambda: cv.sepFilter2D(img, cv2.CV_32F, g, k, delta=0.5)]
    old = mnn.get_num_threads()
    try:
        res = {}
        for t in (1, 2):
            mnn.set_num_threads(t)
            res[t] = [numpy.asarray(f()).tobytes() for f in calls]
    finally:
        mnn.set_num_threads(old)
    assert res[1] == res[2]
    _same(cv.sepFilter2D(img, -1, k, k), cv2.sepFilter2D(img, -1, k, k), "threads")


_ISA_PROGRAM = r"""
import json, hashlib
import numpy
import mnn.cv as cv
rng = numpy.random.default_rng(13)
out = []
for shape in ((9, 7, 3), (33, 70), (17, 131, 4), (5, 23, 2)):
    a = rng.integers(0, 256, shape, dtype=numpy.uint8)
    for b in (0, 1, 2, 4):
        for n in (1, 2, 3, 5, 7):
            k = rng.uniform(-0.3, 0.8, n).astype(numpy.float32)
            box = numpy.full(n, 1.0 / n, numpy.float32)
            rs = [cv.sepFilter2D(a, -1, box, box, borderType=b, delta=0.5),
                  cv.sepFilter2D(a, -1, k, (k + k[::-1]) / 2, borderType=b),
                  cv.sepFilter2D(a, -1, (k + k[::-1]) / 2, k, borderType=b),
                  cv.sepFilter2D(a, -1, k - k[::-1], k - k[::-1], borderType=b, delta=-1.25),
                  cv.sepFilter2D(a, 5, k, (k + k[::-1]) / 2, borderType=b, delta=0.5)]
            for r in rs:
                out.append(hashlib.sha1(numpy.ascontiguousarray(numpy.asarray(r)).tobytes()).hexdigest())
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_scalar_isa_gives_the_same_bits(isa):
    scalar = run_under_isa(_ISA_PROGRAM, "scalar")
    other = run_under_isa(_ISA_PROGRAM, isa)
    assert len(scalar) == len(other) == 4 * 4 * 5 * 5
    diff = [i for i, (a, b) in enumerate(zip(scalar, other)) if a != b]
    assert not diff, f"cases {diff} differ between MNN_ISA=scalar and MNN_ISA={isa}"
    assert len(set(scalar)) > len(scalar) // 2
