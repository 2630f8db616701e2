"""Issue 5, the one-pass box / adaptive-threshold / rectangular-morphology / 3x3 median primitives
(csrc/ops/cv/filter_box.cpp, simd/cv/filter_box.cpp + filter_morph.cpp, mnn/cv/_filter_box.py):
equal to the real cv2 on odd sizes, 1-4 channels, the depths cv2 takes, every border type, anchors,
iterations and non-contiguous views; float box sums bit-equal to the cv_sep_filter arithmetic they
replace; the same bits at 1 and 2 threads and under MNN_ISA=scalar as under every other ISA; a
repeated (memoised) call answers for the new pixels."""
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
BORDERS = [cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_REFLECT_101]
DEPTHS = ["uint8", "uint16", "int16", "float32"]


def _img(shape, dtype, rng=RNG):
    if dtype == "uint8":
        return rng.integers(0, 256, shape, dtype=numpy.uint8)
    if dtype == "uint16":
        return rng.integers(0, 65536, shape, dtype=numpy.uint16)
    if dtype == "int16":
        return rng.integers(-32768, 32768, shape, dtype=numpy.int16)
    return (rng.standard_normal(shape) * 50).astype(dtype)


def _shape(h, w, cn):
    return (h, w) if cn == 1 else (h, w, cn)


def _eq(got, want):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    numpy.testing.assert_array_equal(got, want)


def _sep_ref(img, kw, kh, anchor, border, out, scale, sqr):
    """The box filter as cv_sep_filter computed it before (unit taps, double sums): the bits the
    float paths must keep."""
    ax, ay = anchor
    ax = kw // 2 if ax == -1 else ax
    ay = kh // 2 if ay == -1 else ay
    ints = [kw, kh, ax, ay, border, dtype_code(out), int(sqr), 0]
    return numpy.asarray(_core.prim("cv_sep_filter", [mnn.numpy.asarray(img)], ints,
                                    [1.0] * (kw + kh) + [0.0, scale, 0.0]))


# ---- box filters ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DEPTHS)
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_blur_and_box_filter_match_cv2(dtype, cn):
    img = _img(_shape(23, 37, cn), dtype)
    for ksize in [(1, 1), (3, 3), (5, 5), (7, 7), (4, 2), (8, 8), (1, 4), (6, 3), (11, 1)]:
        for border in BORDERS:
            want = cv2.blur(img, ksize, borderType=border)
            got = cv.blur(img, ksize, borderType=border)
            if dtype == "float32":
                _eq(got, _sep_ref(img, *ksize, (-1, -1), border, "float32", 1.0 / (ksize[0] * ksize[1]), False))
                numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=1e-5, atol=1e-4)
            else:
                _eq(got, want)
    for anchor in [(0, 0), (4, 1), (2, 2)]:
        _eq_or_close(cv.boxFilter(img, -1, (5, 3), anchor=anchor), cv2.boxFilter(img, -1, (5, 3), anchor=anchor), dtype)


def _eq_or_close(got, want, dtype):
    if dtype in ("float32", "float64"):
        numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=1e-5, atol=1e-4)
        assert numpy.asarray(got).dtype == want.dtype
    else:
        _eq(got, want)


def test_float32_wrap_border_and_float64():
    img = _img((19, 21, 3), "float32")
    got = cv.blur(img, (5, 3), borderType=cv2.BORDER_WRAP)
    _eq(got, _sep_ref(img, 5, 3, (-1, -1), cv2.BORDER_WRAP, "float32", 1 / 15, False))
    numpy.testing.assert_allclose(numpy.asarray(got), cv2.blur(img, (5, 3), borderType=cv2.BORDER_WRAP), rtol=1e-5, atol=1e-4)
    d = img.astype(numpy.float64)
    numpy.testing.assert_allclose(numpy.asarray(cv.blur(d, (5, 5))), cv2.blur(d, (5, 5)), rtol=1e-12, atol=1e-10)


@pytest.mark.parametrize("src", ["uint8", "uint16", "int16", "float32"])
def test_box_filter_unnormalised_and_other_depths(src):
    img = _img((17, 29, 3), src)
    outs = {"uint8": [-1, cv2.CV_16U, cv2.CV_16S, cv2.CV_32S, cv2.CV_32F, cv2.CV_64F],
            "uint16": [-1, cv2.CV_8U, cv2.CV_32S, cv2.CV_32F, cv2.CV_64F],
            # int16 -> CV_8U: cv2 5 answers 255 for some negative sums (mnn saturates them to 0, as
            # before this primitive: pinned against the old arithmetic below)
            "int16": [-1, cv2.CV_32S, cv2.CV_32F, cv2.CV_64F],
            "float32": [-1, cv2.CV_8U, cv2.CV_16S, cv2.CV_64F]}[src]
    for dd in outs:
        for norm in (True, False):
            for border in BORDERS:
                want = cv2.boxFilter(img, dd, (5, 3), normalize=norm, borderType=border)
                got = cv.boxFilter(img, dd, (5, 3), normalize=norm, borderType=border)
                _eq_or_close(got, want, str(want.dtype) if src != "float32" else "float32")
    if src == "int16":
        for norm in (True, False):
            _eq(cv.boxFilter(img, cv2.CV_8U, (5, 3), normalize=norm),
                _sep_ref(img, 5, 3, (-1, -1), 4, "uint8", 1 / 15 if norm else 1.0, False))


@pytest.mark.parametrize("src", ["uint8", "uint16", "int16", "float32"])
def test_sqr_box_filter(src):
    img = _img((15, 26, 2), src)
    if src == "float32":
        img = img / 10
    for dd in (-1, cv2.CV_32F, cv2.CV_64F):
        for norm in (True, False):
            for border in BORDERS:
                want = cv2.sqrBoxFilter(img, dd, (5, 5), normalize=norm, borderType=border)
                got = cv.sqrBoxFilter(img, dd, (5, 5), normalize=norm, borderType=border)
                assert numpy.asarray(got).dtype == want.dtype
                numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=1e-6)
                if src == "float32" and dd == -1:
                    _eq(got, _sep_ref(img, 5, 5, (-1, -1), border, "float64", 1 / 25 if norm else 1.0, True))
    u8 = _img((15, 26), "uint8")
    _eq(cv.sqrBoxFilter(u8, cv2.CV_32S, (3, 5), normalize=False), cv2.sqrBoxFilter(u8, cv2.CV_32S, (3, 5), normalize=False))


def test_box_views_and_thin_images():
    base = _img((40, 50, 3), "uint8")
    view = base[3:36:2, 5:47:3]
    _eq(cv.blur(view, (5, 5)), cv2.blur(numpy.ascontiguousarray(view), (5, 5)))
    _eq(cv.blur(base[:, :, 1], (3, 7)), cv2.blur(numpy.ascontiguousarray(base[:, :, 1]), (3, 7)))
    for shape in [(1, 9), (9, 1), (1, 1), (2, 3, 3)]:
        img = _img(shape, "uint8")
        for border in BORDERS:
            _eq(cv.blur(img, (5, 5), borderType=border), cv2.blur(img, (5, 5), borderType=border))


# ---- adaptiveThreshold ------------------------------------------------------------------------

@pytest.mark.parametrize("method", [cv2.ADAPTIVE_THRESH_MEAN_C, cv2.ADAPTIVE_THRESH_GAUSSIAN_C])
@pytest.mark.parametrize("ttype", [cv2.THRESH_BINARY, cv2.THRESH_BINARY_INV])
def test_adaptive_threshold(method, ttype):
    img = _img((41, 57), "uint8")
    smooth = cv2.GaussianBlur(img, (9, 9), 3)  # pixels near their mean: the comparison's edge cases
    for src in (img, smooth, img[1::2, ::3]):
        for block in (3, 5, 11, 31):
            for C in (2, -3, 0, 0.5, -0.5, 300):
                for maxv in (255, 100):
                    want = cv2.adaptiveThreshold(numpy.ascontiguousarray(src), maxv, method, ttype, block, C)
                    _eq(cv.adaptiveThreshold(src, maxv, method, ttype, block, C), want)


# ---- morphology -------------------------------------------------------------------------------

MORPH_OPS = [cv2.MORPH_ERODE, cv2.MORPH_DILATE, cv2.MORPH_OPEN, cv2.MORPH_CLOSE, cv2.MORPH_GRADIENT,
             cv2.MORPH_TOPHAT, cv2.MORPH_BLACKHAT]


@pytest.mark.parametrize("dtype", DEPTHS + ["float64"])
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_morphology_rect_matches_cv2(dtype, cn):
    img = _img(_shape(21, 33, cn), dtype)
    for ksize in [(5, 5), (3, 1), (1, 4), (4, 6)]:
        ker = cv2.getStructuringElement(cv2.MORPH_RECT, ksize)
        for op in MORPH_OPS:
            for border in BORDERS:
                want = cv2.morphologyEx(img, op, ker, borderType=border)
                _eq(cv.morphologyEx(img, op, ker, borderType=border), want)
    ker = numpy.ones((3, 5), numpy.uint8)
    _eq(cv.erode(img, ker), cv2.erode(img, ker))
    _eq(cv.dilate(img, ker), cv2.dilate(img, ker))


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32"])
def test_morphology_anchor_iterations_border_values(dtype):
    img = _img((19, 27, 3), dtype)
    ker = numpy.ones((3, 4), numpy.uint8)
    for op in MORPH_OPS:
        for anchor in [(-1, -1), (0, 0), (3, 2)]:
            for it in (1, 2, 3):
                want = cv2.morphologyEx(img, op, ker, anchor=anchor, iterations=it)
                _eq(cv.morphologyEx(img, op, ker, anchor=anchor, iterations=it), want)
        for bv in (0, 7, (5, 5, 5, 5)):
            want = cv2.morphologyEx(img, op, ker, borderType=cv2.BORDER_CONSTANT, borderValue=bv)
            _eq(cv.morphologyEx(img, op, ker, borderType=cv2.BORDER_CONSTANT, borderValue=bv), want)
        # per-channel border values, an empty kernel (None: a 3x3 rectangle), a non-rect element
        want = cv2.morphologyEx(img, op, ker, borderValue=(1, 200, 3, 0))
        _eq(cv.morphologyEx(img, op, ker, borderValue=(1, 200, 3, 0)), want)
        _eq(cv.morphologyEx(img, op, None, iterations=2), cv2.morphologyEx(img, op, None, iterations=2))
        cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (5, 5))
        _eq(cv.morphologyEx(img, op, cross), cv2.morphologyEx(img, op, cross))


def test_morphology_views_thin_and_saturation():
    base = _img((40, 50, 3), "uint8")
    ker = numpy.ones((5, 5), numpy.uint8)
    view = base[2:37:3, 1:49:2]
    for op in MORPH_OPS:
        _eq(cv.morphologyEx(view, op, ker), cv2.morphologyEx(numpy.ascontiguousarray(view), op, ker))
        for shape in [(1, 7), (7, 1), (1, 1), (2, 2, 3)]:
            img = _img(shape, "uint8")
            _eq(cv.morphologyEx(img, op, ker), cv2.morphologyEx(img, op, ker))
    # int16 gradient / tophat saturate (32767 - -32768)
    s16 = numpy.full((9, 9), -32768, numpy.int16)
    s16[4, 4] = 32767
    for op in (cv2.MORPH_GRADIENT, cv2.MORPH_TOPHAT, cv2.MORPH_BLACKHAT):
        _eq(cv.morphologyEx(s16, op, ker), cv2.morphologyEx(s16, op, ker))


# ---- medianBlur 3x3 ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["uint16", "int16", "float32"])
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_median3(dtype, cn):
    for h, w in [(23, 37), (1, 5), (5, 1), (2, 2), (3, 40)]:
        img = _img(_shape(h, w, cn), dtype)
        _eq(cv.medianBlur(img, 3), cv2.medianBlur(img, 3))
    img = _img((30, 40, 4), dtype)
    view = img[1::2, 3:37]
    _eq(cv.medianBlur(view, 3), cv2.medianBlur(numpy.ascontiguousarray(view), 3))
    few = (_img((25, 31), "uint8") // 64).astype(dtype)  # many equal values
    _eq(cv.medianBlur(few, 3), cv2.medianBlur(few, 3))


# ---- threads, ISAs, memo, errors ----------------------------------------------------------------

def _all_calls(img3, g, gf, s16):
    ker = numpy.ones((5, 5), numpy.uint8)
    out = [cv.blur(img3, (5, 5)), cv.boxFilter(img3, -1, (7, 7)), cv.boxFilter(img3, cv2.CV_32F, (4, 4)),
           cv.sqrBoxFilter(gf, -1, (5, 5)), cv.blur(gf, (3, 5)), cv.boxFilter(s16, -1, (3, 3), normalize=False),
           cv.medianBlur(gf, 3), cv.medianBlur(s16, 3)]
    for m in (cv2.ADAPTIVE_THRESH_MEAN_C, cv2.ADAPTIVE_THRESH_GAUSSIAN_C):
        out.append(cv.adaptiveThreshold(g, 255, m, cv2.THRESH_BINARY, 11, 2))
    for op in MORPH_OPS:
        out += [cv.morphologyEx(img3, op, ker), cv.morphologyEx(gf, op, ker)]
    return [numpy.asarray(r) for r in out]


def test_one_and_two_threads_agree():
    rng = numpy.random.default_rng(5)
    img3 = _img((301, 257, 3), "uint8", rng)
    g, gf, s16 = img3[:, :, 0].copy(), (img3[:, :, 1] / 7).astype(numpy.float32), _img((301, 257), "int16", rng)
    old = mnn.get_num_threads()
    try:
        mnn.set_num_threads(1)
        one = _all_calls(img3, g, gf, s16)
        mnn.set_num_threads(2)
        two = _all_calls(img3, g, gf, s16)
    finally:
        mnn.set_num_threads(old)
    for a, b in zip(one, two):
        _eq(b, a)


_ISA_PROGRAM = r"""
import json
import numpy
import mnn.cv as cv
import cv2
rng = numpy.random.default_rng(9)
out = []
for shape in ((13, 1), (9, 7, 3), (31, 23, 3), (97, 131), (40, 70, 4)):
    u8 = rng.integers(0, 256, shape, dtype=numpy.uint8)
    f32 = (rng.standard_normal(shape) * 9).astype(numpy.float32)
    f32.flat[3] = numpy.nan
    s16 = rng.integers(-32768, 32768, shape, dtype=numpy.int16)
    ker = numpy.ones((5, 3), numpy.uint8)
    rs = []
    for border in (0, 1, 2, 4):
        rs += [cv.blur(u8, (5, 5), borderType=border), cv.boxFilter(u8, -1, (7, 3), borderType=border),
               cv.blur(f32, (3, 5), borderType=border), cv.sqrBoxFilter(f32, -1, (5, 5), borderType=border),
               cv.boxFilter(s16, cv2.CV_32F, (4, 4), borderType=border)]
        for op in range(7):
            rs += [cv.morphologyEx(x, op, ker, borderType=border) for x in (u8, f32, s16)]
    rs += [cv.medianBlur(f32, 3), cv.medianBlur(s16, 3)]
    wide = (rng.standard_normal((5, 1100 // shape[1] + 1200)) * 9).astype(numpy.float32)  # register path
    wide.flat[::97] = numpy.nan
    rs.append(cv.medianBlur(wide, 3))
    if u8.ndim == 2:
        rs += [cv.adaptiveThreshold(u8, 255, m, t, 7, 1) for m in (0, 1) for t in (0, 1)]
    out += [numpy.asarray(r).view(numpy.uint8).tobytes().hex() for r in rs]
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_scalar_isa_gives_the_same_bits(isa):
    scalar = run_under_isa(_ISA_PROGRAM, "scalar")
    other = run_under_isa(_ISA_PROGRAM, isa)
    assert len(scalar) == len(other) > 100
    diff = [i for i, (a, b) in enumerate(zip(scalar, other)) if a != b]
    assert not diff, f"cases {diff} differ between MNN_ISA=scalar and MNN_ISA={isa}"


def test_repeated_calls_answer_for_new_pixels():
    ker = numpy.ones((5, 5), numpy.uint8)
    for _ in range(3):
        img = _img((33, 45, 3), "uint8")
        g = img[:, :, 0].copy()
        _eq(cv.blur(img, (5, 5)), cv2.blur(img, (5, 5)))
        _eq(cv.erode(img, ker), cv2.erode(img, ker))
        _eq(cv.morphologyEx(g, cv2.MORPH_GRADIENT, ker), cv2.morphologyEx(g, cv2.MORPH_GRADIENT, ker))
        _eq(cv.adaptiveThreshold(g, 255, 1, 0, 11, 2), cv2.adaptiveThreshold(g, 255, 1, 0, 11, 2))
        gf = g.astype(numpy.float32)
        _eq(cv.medianBlur(gf, 3), cv2.medianBlur(gf, 3))
    # a memoised call on a different element must not reuse the first one's
    img = _img((33, 45), "uint8")
    _eq(cv.erode(img, numpy.ones((3, 3), numpy.uint8)), cv2.erode(img, numpy.ones((3, 3), numpy.uint8)))
    _eq(cv.erode(img, numpy.ones((5, 1), numpy.uint8)), cv2.erode(img, numpy.ones((5, 1), numpy.uint8)))
    # mnn arrays in, HxWx1 images (returned as cv2 returns them)
    m = mnn.numpy.asarray(img)
    _eq(cv.blur(m, (3, 3)), cv2.blur(img, (3, 3)))
    _eq(cv.blur(m, (3, 3)), cv2.blur(img, (3, 3)))
    one = img[:, :, None]
    assert numpy.asarray(cv.blur(one, (3, 3))).shape == cv2.blur(one, (3, 3)).shape


@pytest.mark.parametrize("call", [
    lambda: cv.blur(numpy.zeros((5, 5), numpy.uint8), (0, 3)),
    lambda: cv.boxFilter(numpy.zeros((5, 5), numpy.uint8), -1, (3, 3), anchor=(3, 0)),
    lambda: cv.adaptiveThreshold(numpy.zeros((5, 5), numpy.uint8), 255, 0, 0, 4, 1),
    lambda: cv.adaptiveThreshold(numpy.zeros((5, 5, 3), numpy.uint8), 255, 0, 0, 3, 1),
    lambda: cv.erode(numpy.zeros((5, 5), numpy.uint8), numpy.ones((3, 3)), anchor=(5, 5)),
    lambda: cv.morphologyEx(numpy.zeros((5, 5), numpy.uint8), 99, numpy.ones((3, 3))),
    lambda: cv.medianBlur(numpy.zeros((5, 5), numpy.float32), 4),
])
def test_bad_input_raises_named_errors(call):
    with pytest.raises((ValueError, TypeError, cv.error)) as e:
        call()
    assert str(e.value).startswith("[mnn.cv.")


# ---- box12b: fused paths ------------------------------------------------------------------------

@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_blur_uint8_fused_row_taps(cn):
    # the 3 / 5 / 7-wide uint8 averages take the row taps fused with the rounding (every window
    # sum of every area checked against cv2), on wide rows, anchors and every border
    img = _img(_shape(23, 301, cn), "uint8")
    sat = numpy.full(_shape(9, 70, cn), 255, numpy.uint8)  # the largest window sums
    for ksize in [(3, 3), (5, 5), (7, 7), (3, 7), (5, 1), (7, 36), (5, 13)]:
        for border in BORDERS:
            for anchor in [(-1, -1), (0, 0), (ksize[0] - 1, ksize[1] - 1)]:
                want = cv2.blur(img, ksize, anchor=anchor, borderType=border)
                _eq(cv.blur(img, ksize, anchor=anchor, borderType=border), want)
        _eq(cv.blur(sat, ksize), cv2.blur(sat, ksize))
        _eq(cv.boxFilter(img[1::2, 3:290:2], -1, ksize), cv2.boxFilter(numpy.ascontiguousarray(img[1::2, 3:290:2]), -1, ksize))


def test_adaptive_gaussian_means_near_half_integers():
    # The Gaussian mean is summed in float32 and recomputed exactly where that sum is near a
    # half-integer: structured images (steps, stripes, checkerboards, two-level noise) put many
    # means there; block sizes with unrolled (<= 15) and general tap loops.
    rng = numpy.random.default_rng(77)
    h, w = 64, 97
    yy, xx = numpy.mgrid[0:h, 0:w]
    imgs = [((xx // 3 + yy // 2) % 2 * 255).astype(numpy.uint8),
            ((xx > 40) * 255).astype(numpy.uint8),
            ((xx % 2) * 1 + 100).astype(numpy.uint8),
            rng.integers(0, 2, (h, w)).astype(numpy.uint8) * 255,
            rng.integers(0, 2, (h, w)).astype(numpy.uint8) + 7,
            rng.integers(0, 256, (h, w), dtype=numpy.uint8)]
    near = 0
    for img in imgs:
        for block in (3, 5, 7, 11, 15, 17, 21, 51):
            gb = cv2.GaussianBlur(img.astype(numpy.float32), (block, block), 0, borderType=cv2.BORDER_REPLICATE)
            near += int((numpy.abs(gb - numpy.floor(gb) - 0.5) < 1e-3).sum())
            for C in (0, 1, -2):
                for ttype in (cv2.THRESH_BINARY, cv2.THRESH_BINARY_INV):
                    want = cv2.adaptiveThreshold(img, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, ttype, block, C)
                    _eq(cv.adaptiveThreshold(img, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, ttype, block, C), want)
    assert near > 100  # the exact recompute was exercised


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32"])
def test_compound_morphology_sub_bands(dtype):
    # OPEN / CLOSE / TOPHAT / BLACKHAT / GRADIENT run in sub-bands of rows sized to the cache: images
    # tall and wide enough for several per thread, tall kernels, off-centre anchors, iterations
    for shape in [(157, 1500, 3), (90, 2100)]:
        img = _img(shape, dtype)
        for ksize in [(5, 5), (3, 15), (7, 2)]:
            ker = numpy.ones(ksize[::-1], numpy.uint8)
            for op in (cv2.MORPH_OPEN, cv2.MORPH_CLOSE, cv2.MORPH_GRADIENT, cv2.MORPH_TOPHAT, cv2.MORPH_BLACKHAT):
                for border in BORDERS:
                    want = cv2.morphologyEx(img, op, ker, borderType=border)
                    _eq(cv.morphologyEx(img, op, ker, borderType=border), want)
                for anchor in [(0, 0), (ksize[0] - 1, ksize[1] - 1)]:
                    want = cv2.morphologyEx(img, op, ker, anchor=anchor, iterations=2)
                    _eq(cv.morphologyEx(img, op, ker, anchor=anchor, iterations=2), want)


@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_median3_float_long_rows(cn):
    # rows longer than 1024 elements sort their inner columns in registers, the edge pixels apart
    for w in (1025 // cn + 1, 1931):
        img = _img(_shape(6, w, cn), "float32")
        img.flat[::53] = numpy.inf
        img.flat[7::61] = -numpy.inf
        _eq(cv.medianBlur(img, 3), cv2.medianBlur(img, 3))
        view = img[:, 1:-1]
        _eq(cv.medianBlur(view, 3), cv2.medianBlur(numpy.ascontiguousarray(view), 3))
