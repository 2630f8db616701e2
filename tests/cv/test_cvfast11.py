"""Issue 5, the single-pass pixel kernels (csrc/backends/cpu/simd/cv/fastpix.cpp) behind threshold,
inRange, LUT, countNonZero, minMaxLoc, merge and split: bit-exact against the real cv2 on odd
sizes, every channel count and depth cv2 takes, non-contiguous views, cv2's NaN answers (threshold:
a NaN pixel or threshold gives 0 for the binary types and the pixel otherwise; minMaxLoc: NaN and no
location when the first element is NaN, NaN skipped otherwise), 1 and 2 threads on images larger
than one reduction chunk (2^18 elements), and the same answers under every MNN_ISA."""
import json

import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn  # noqa: E402
import mnn.cv as cv  # noqa: E402

from helpers import run_under_isa  # noqa: E402

RNG = numpy.random.default_rng(1111)
SHAPES = [(1, 1), (3, 5), (7, 13), (37, 71), (61, 67)]
INT_RANGES = {"uint8": (0, 256), "int8": (-128, 128), "uint16": (0, 65536), "int16": (-32768, 32768),
              "int32": (-(2 ** 31), 2 ** 31)}


def _img(shape, dtype, cn=1, lo=None, hi=None):
    full = shape if cn == 1 else shape + (cn,)
    if dtype in INT_RANGES:
        a, b = INT_RANGES[dtype]
        return RNG.integers(a if lo is None else lo, b if hi is None else hi, full, dtype=dtype)
    return (RNG.random(full) * 300 - 50).astype(dtype)


def _views(a):
    """The image, a strided window of a larger one, and a column-reversed view."""
    big = numpy.zeros((a.shape[0] + 3, a.shape[1] * 2 + 1) + a.shape[2:], a.dtype)
    big[1:1 + a.shape[0], 1:1 + 2 * a.shape[1]:2] = a
    yield a
    yield big[1:1 + a.shape[0], 1:1 + 2 * a.shape[1]:2]
    yield a[:, ::-1]


def _same(got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got, want)  # NaN equals NaN here


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int16", "float32", "float64"])
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_threshold_all_types(dtype, cn):
    for shape in SHAPES:
        img = _img(shape, dtype, cn)
        if dtype.startswith("float") and img.size > 4:
            img.flat[::7] = numpy.nan
        for v in _views(img):
            for kind in range(5):
                for t, m in ((100, 255), (0, 77), (-3.5, 200), (127.6, 1000)):
                    rw, dw = cv2.threshold(v, t, m, kind)
                    rg, dg = cv.threshold(v, t, m, kind)
                    assert rg == rw
                    _same(dg, dw)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_threshold_nan_threshold_and_maxval(dtype):
    img = _img((19, 23), dtype)
    img[3, :5] = numpy.nan
    for kind in range(5):
        for t, m in ((numpy.nan, 7.0), (5.0, numpy.nan), (numpy.inf, 1.0), (-numpy.inf, 2.0)):
            _same(cv.threshold(img, t, m, kind)[1], cv2.threshold(img, t, m, kind)[1])


def test_threshold_otsu_and_triangle_use_the_kernel():
    img = _img((53, 47), "uint8")
    for flag in (cv2.THRESH_OTSU, cv2.THRESH_TRIANGLE):
        for kind in range(5):
            rw, dw = cv2.threshold(img, 0, 255, kind | flag)
            rg, dg = cv.threshold(img, 0, 255, kind | flag)
            assert rg == rw
            _same(dg, dw)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"])
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_inrange_scalar_bounds(dtype, cn):
    bounds = [((10,) * cn, (200,) * cn), (tuple(range(-5, -5 + 40 * cn, 40)), tuple(range(300, 300 - 50 * cn, -50))),
              ((0,) * cn, (0,) * cn), ((-1e9,) * cn, (1e9,) * cn), ((50.5,) * cn, (50.4,) * cn),
              ((3,) * cn, (2 ** 40,) * cn)]
    for shape in SHAPES:
        img = _img(shape, dtype, cn, *((None, None) if dtype not in INT_RANGES else
                                       (max(INT_RANGES[dtype][0], -20), min(INT_RANGES[dtype][1], 320))))
        for v in _views(img):
            for lo, hi in bounds:
                _same(cv.inRange(v, lo, hi), cv2.inRange(v, lo, hi))
    # a single number bounds channel 0 and asks 0 of the rest, as cv2's Scalar does
    img = _img((21, 17), dtype, cn)
    _same(cv.inRange(img, 5, 100), cv2.inRange(img, 5, 100))


def test_inrange_float_nan():
    img = _img((33, 29), "float32", 3)
    img[4, 4, 1] = numpy.nan
    _same(cv.inRange(img, (0, 0, 0), (100, 100, 100)), cv2.inRange(img, (0, 0, 0), (100, 100, 100)))
    _same(cv.inRange(img, (numpy.nan, 0, 0), (100, 100, 100)), cv2.inRange(img, (numpy.nan, 0, 0), (100, 100, 100)))


@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_lut_uint8(cn):
    lut1 = RNG.integers(0, 256, 256, dtype=numpy.uint8)
    lutc = RNG.integers(0, 256, (1, 256, cn), dtype=numpy.uint8)
    for shape in SHAPES + [(5, 131)]:  # 131: two 64-byte vectors and a tail
        img = _img(shape, "uint8", cn)
        for v in _views(img):
            _same(cv.LUT(v, lut1), cv2.LUT(v, lut1))
            if cn > 1:
                _same(cv.LUT(v, lutc), cv2.LUT(v, lutc))


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"])
def test_count_nonzero(dtype):
    for shape in SHAPES + [(9, 200)]:
        img = _img(shape, dtype)
        img[RNG.random(shape) < 0.4] = 0
        if dtype.startswith("float") and img.size > 3:
            img.flat[1] = numpy.nan
            img.flat[2] = -0.0
        for v in _views(img):
            assert cv.countNonZero(v) == cv2.countNonZero(v)
    assert cv.countNonZero(numpy.zeros((7, 300), dtype)) == 0


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"])
def test_minmaxloc_first_index(dtype):
    for shape in SHAPES + [(11, 100)]:
        # a narrow range: many ties, so the first-index rule decides the locations
        img = _img(shape, dtype, 1, *((0, 5) if dtype in INT_RANGES else (None, None)))
        if dtype.startswith("float"):
            img = numpy.round(img / 60).astype(dtype)
        for v in _views(img):
            assert cv.minMaxLoc(v) == cv2.minMaxLoc(v)
    const = numpy.full((13, 9), 3, dtype)
    assert cv.minMaxLoc(const) == cv2.minMaxLoc(const)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_minmaxloc_nan(dtype):
    # cv2's answer for a NaN first element depends on its loop: float32 rows (the whole image when
    # continuous) of 64 or more skip NaN, shorter ones give NaN and no location, float64 NaN at (0, 0)
    for h, w in ((15, 70), (3, 5), (7, 9), (2, 64), (1, 63)):
        base = (numpy.arange(h * w, dtype=dtype).reshape(h, w) * 7) % 23
        for pos in [(0, 0), (0, 1), (h // 2, w // 3), (h - 1, w - 1)]:
            img = base.copy()
            img[pos] = numpy.nan
            for v in (img, numpy.pad(img, ((0, 0), (0, 3)))[:, :w]):  # continuous, and rows with gaps
                assert str(cv.minMaxLoc(v)) == str(cv2.minMaxLoc(v))  # nan != nan: compare printed tuples
        img = numpy.full((h, w), numpy.nan, dtype)
        assert str(cv.minMaxLoc(img)) == str(cv2.minMaxLoc(img))


@pytest.mark.xfail(strict=True, reason="cv2's float32 vector loop (rows of 64 or more) keeps per-lane minima "
                   "whose answer with several NaN depends on which lanes and blocks hold them (it may even "
                   "report NaN and no location while numbers remain); mnn skips every NaN")
def test_minmaxloc_float32_many_nan():
    f = (numpy.random.default_rng(5).random((17, 131)) * 300 - 50).astype(numpy.float32)
    f.flat[::5] = numpy.nan
    assert str(cv.minMaxLoc(f)) == str(cv2.minMaxLoc(f))


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"])
@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
def test_split_merge(dtype, cn):
    for shape in SHAPES:
        img = _img(shape, dtype, cn)
        for v in _views(img):
            got, want = cv.split(v), cv2.split(v)
            assert len(got) == len(want)
            for g, w in zip(got, want):
                _same(g, w)
            planes = [numpy.ascontiguousarray(p) for p in want]
            _same(cv.merge(planes), cv2.merge(planes))
            # planes that are views themselves
            _same(cv.merge([p[:, ::-1] for p in planes]), cv2.merge([p[:, ::-1] for p in planes]))


def test_split_planes_are_independent():
    img = _img((9, 11), "uint8", 3)
    b, g, r = cv.split(img)
    b[:] = 0
    _same(g, img[:, :, 1])
    _same(r, img[:, :, 2])


@pytest.mark.parametrize("threads", [1, 2])
def test_large_images_threads(threads):
    # 700x1100 > one 2^18 chunk: the reductions combine several chunks
    old = mnn.get_num_threads()
    mnn.set_num_threads(threads)
    try:
        img = _img((700, 1100), "uint8", 3)
        g = numpy.ascontiguousarray(img[:, :, 0])
        f = (g.astype(numpy.float32) - 100) / 7
        f[600, 1000] = -1000  # the minimum in a late chunk
        lut = RNG.integers(0, 256, 256, dtype=numpy.uint8)
        _same(cv.threshold(g, 99, 255, 0)[1], cv2.threshold(g, 99, 255, 0)[1])
        _same(cv.threshold(f, 3, 9, 2)[1], cv2.threshold(f, 3, 9, 2)[1])
        _same(cv.inRange(img, (10, 20, 30), (200, 210, 220)), cv2.inRange(img, (10, 20, 30), (200, 210, 220)))
        _same(cv.LUT(img, lut), cv2.LUT(img, lut))
        assert cv.countNonZero(g) == cv2.countNonZero(g)
        assert cv.countNonZero(f) == cv2.countNonZero(f)
        assert cv.minMaxLoc(g) == cv2.minMaxLoc(g)
        assert cv.minMaxLoc(f) == cv2.minMaxLoc(f)
        for a, b in zip(cv.split(img), cv2.split(img)):
            _same(a, b)
        _same(cv.merge(cv2.split(img)), img)
    finally:
        mnn.set_num_threads(old)


def test_bad_input_is_named():
    with pytest.raises(Exception, match=r"\[mnn.cv.countNonZero\]"):
        cv.countNonZero(numpy.zeros((4, 4, 3), numpy.uint8))
    with pytest.raises(Exception, match=r"\[mnn.cv.minMaxLoc\]"):
        cv.minMaxLoc(numpy.zeros((4, 4, 3), numpy.uint8))
    with pytest.raises(Exception, match=r"\[mnn.cv.merge\]"):
        cv.merge([numpy.zeros((4, 4), numpy.uint8), numpy.zeros((4, 5), numpy.uint8)])
    with pytest.raises(Exception, match=r"\[mnn.cv.LUT\]"):
        cv.LUT(numpy.zeros((4, 4), numpy.uint8), numpy.zeros(100, numpy.uint8))


_ISA_PROGRAM = r"""
import json, numpy, cv2
import mnn.cv as cv
rng = numpy.random.default_rng(5)
out = []
def rec(got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    out.append([got.tobytes().hex()[:4000], got.dtype == want.dtype and got.shape == want.shape
                and bool(numpy.array_equal(got, want, equal_nan=got.dtype.kind == "f"))])
for shape in ((3, 5), (17, 131), (61, 67)):
    for cn in (1, 3, 4):
        full = shape if cn == 1 else shape + (cn,)
        u = rng.integers(0, 256, full, dtype=numpy.uint8)
        f = (rng.random(full) * 300 - 50).astype(numpy.float32)
        f.flat[::5] = numpy.nan
        for kind in range(5):
            rec(cv.threshold(u, 100, 200, kind)[1], cv2.threshold(u, 100, 200, kind)[1])
            rec(cv.threshold(f, 100, 200, kind)[1], cv2.threshold(f, 100, 200, kind)[1])
        lo, hi = (20, 40, 60, 80)[:cn], (180, 200, 220, 240)[:cn]
        rec(cv.inRange(u, lo, hi), cv2.inRange(u, lo, hi))
        rec(cv.inRange(f, lo, hi), cv2.inRange(f, lo, hi))
        lut = rng.integers(0, 256, 256, dtype=numpy.uint8)
        rec(cv.LUT(u, lut), cv2.LUT(u, lut))
        if cn > 1:
            rec(cv.merge(cv2.split(u)), u)
            for a, b in zip(cv.split(u), cv2.split(u)):
                rec(a, b)
        else:
            rec(numpy.asarray([cv.countNonZero(u), cv.countNonZero(f)]), numpy.asarray([cv2.countNonZero(u), cv2.countNonZero(f)]))
            f = numpy.nan_to_num(f)  # several NaN: see test_minmaxloc_float32_many_nan
            r = numpy.asarray([cv.minMaxLoc(u)[:2] + cv.minMaxLoc(u)[2] + cv.minMaxLoc(u)[3], cv.minMaxLoc(f)[:2] + cv.minMaxLoc(f)[2] + cv.minMaxLoc(f)[3]])
            w = numpy.asarray([cv2.minMaxLoc(u)[:2] + cv2.minMaxLoc(u)[2] + cv2.minMaxLoc(u)[3], cv2.minMaxLoc(f)[:2] + cv2.minMaxLoc(f)[2] + cv2.minMaxLoc(f)[3]])
            rec(r, w)
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_every_isa_matches_scalar_and_cv2(isa):
    scalar = run_under_isa(_ISA_PROGRAM, "scalar")
    other = run_under_isa(_ISA_PROGRAM, isa)
    assert len(scalar) == len(other) > 100
    assert all(ok for _, ok in scalar), [i for i, (_, ok) in enumerate(scalar) if not ok]
    assert all(ok for _, ok in other), [i for i, (_, ok) in enumerate(other) if not ok]
    diff = [i for i, (a, b) in enumerate(zip(scalar, other)) if a[0] != b[0]]
    assert not diff, f"cases {diff} differ between MNN_ISA=scalar and MNN_ISA={isa}"
