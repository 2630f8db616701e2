"""Issue 5 (session 12): the cv_math kernels (csrc/backends/cpu/simd/cv/core_math.cpp) behind phase,
cartToPolar, magnitude, sqrt, the bitwise ops (masks included) and hconcat / vconcat, against the
real cv2, bit for bit: odd sizes, every channel count and depth cv2 takes, non-contiguous views,
special values (0, -0, inf, NaN, denormals), 1 and 2 threads, and under MNN_ISA=avx2 / scalar.

cv2's float magnitude comes from IPP when cv2 uses it (its default): IPP's own approximation
(within 2 ulp), which no open arithmetic reproduces. mnn computes what cv2 computes without IPP
(sqrt(fma(x, x, y*y)), the same as cv2's cartToPolar magnitude), so magnitude is compared with cv2
with IPP switched off, and with cv2's default within 2 ulp."""
import os

import cv2
import numpy
import pytest
from helpers import run_under_isa

import mnn
import mnn.cv as cv
import mnn.numpy as mnp

SHAPES = [(1, 1), (1, 33), (7, 5), (31, 97), (64, 130), (301, 257)]


@pytest.fixture(params=[1, 2])
def threads(request):
    old = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(old)


@pytest.fixture
def no_ipp():
    old = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(False)
    yield
    cv2.ipp.setUseIPP(old)


def same_bits(got, want, what=""):
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    g = numpy.ascontiguousarray(got).view(numpy.uint8)
    w = numpy.ascontiguousarray(want).view(numpy.uint8)
    if not numpy.array_equal(g, w):
        # NaN's payload is not part of the contract (cv2 makes the default NaN too; compare as NaN)
        bad = ~((got == want) | (numpy.isnan(got) & numpy.isnan(want)))
        assert not bad.any(), f"{what}: {int(bad.sum())} of {bad.size} differ, first at {numpy.argwhere(bad)[:3].tolist()}"


def floats(shape, dtype, seed, special=True):
    rng = numpy.random.default_rng(seed)
    scale = rng.choice([1e-3, 1.0, 100.0, 1e5], shape)
    a = (rng.standard_normal(shape) * scale).astype(dtype)
    if special and a.size >= 12:
        tiny = numpy.finfo(dtype).tiny
        a.flat[:12] = [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, tiny / 4, -tiny / 8, 1.0, -1.0, 3.0, tiny, -2.5]
    return a


def views(a):
    """a, a non-contiguous view of it (reversed rows, every other column), and an mnn copy."""
    out = [a, mnp.asarray(a)]
    if a.shape[0] > 2 and a.shape[1] > 2:
        out.append(a[::-1, ::2])
        out.append(mnp.asarray(a)[1:, ::-2])
    return out


def np_of(v):
    return numpy.ascontiguousarray(numpy.asarray(v))


# ---------------------------------------------------------------------------------------------
# phase / cartToPolar: cv2's own atan polynomial (fma in float32 lanes), exact

@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_phase_and_cart_to_polar_bits(dtype, cn, threads):
    for i, (h, w) in enumerate(SHAPES):
        shape = (h, w, cn) if cn > 1 else (h, w)
        x, y = floats(shape, dtype, 10 + i), floats(shape, dtype, 50 + i)
        y.flat[:12] = [0.0, 0.0, 1.0, -numpy.inf, 1.0, 5e-39, numpy.nan, -0.0, 1.0, 3.0, -1e-30, 2.5][: min(12, y.size)]
        for deg in (False, True):
            for xv, yv in zip(views(x), views(y)):
                xn, yn = np_of(xv), np_of(yv)
                same_bits(cv.phase(xv, yv, angleInDegrees=deg), cv2.phase(xn, yn, angleInDegrees=deg), f"phase {shape} {deg}")
                m, a = cv.cartToPolar(xv, yv, angleInDegrees=deg)
                wm, wa = cv2.cartToPolar(xn, yn, angleInDegrees=deg)
                same_bits(m, wm, f"cartToPolar mag {shape}")
                same_bits(a, wa, f"cartToPolar angle {shape} {deg}")


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_polar_on_row_views_as_cv2_sees_them(dtype, no_ipp):
    # a numpy view with whole rows strided is a Mat with a step to cv2: it works row by row, so
    # short rows take its scalar loop (and the float64 forms' blocks of 128 restart each row)
    for h, w, cn in [(40, 9, 1), (40, 20, 1), (23, 50, 3), (9, 200, 2), (5, 700, 1)]:
        shape = (h, w + 3, cn) if cn > 1 else (h, w + 3)
        x, y = floats(shape, dtype, w), floats(shape, dtype, w + 1)
        xv, yv = x[:, 1:-2], y[:, 2:-1]
        for deg in (False, True):
            same_bits(cv.phase(xv, yv, angleInDegrees=deg), cv2.phase(xv, yv, angleInDegrees=deg), f"phase {shape}")
            m, a = cv.cartToPolar(xv, yv, angleInDegrees=deg)
            wm, wa = cv2.cartToPolar(xv, yv, angleInDegrees=deg)
            same_bits(m, wm, f"cartToPolar mag {shape}")
            same_bits(a, wa, f"cartToPolar angle {shape}")
        same_bits(cv.magnitude(xv, yv), cv2.magnitude(xv, yv), f"magnitude {shape}")
        # one continuous operand and one view: cv2 still goes row by row
        same_bits(cv.phase(numpy.ascontiguousarray(xv), yv), cv2.phase(numpy.ascontiguousarray(xv), yv))


def _loop_sensitive_pairs():
    """(x, y) float32 pairs whose angle cv2's scalar loop rounds differently from its vector loop,
    found with cv2 itself (a call of one element is scalar, of 64 vector)."""
    rng = numpy.random.default_rng(12)
    x = rng.standard_normal(20000).astype(numpy.float32)
    y = rng.standard_normal(20000).astype(numpy.float32)
    vec = cv2.phase(x[None], y[None])[0]
    one = numpy.array([cv2.phase(x[i:i + 1, None], y[i:i + 1, None])[0, 0] for i in range(x.size)])
    d = numpy.flatnonzero(vec != one)
    assert d.size >= 4  # the test below needs some
    return x[d], y[d]


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_polar_takes_cv2s_scalar_loop_where_cv2_does(dtype, no_ipp):
    # images made only of pairs whose answer tells cv2's two loops apart: every length around
    # cv2's two-vector threshold (16 floats), around float64's blocks of 128 and cartToPolar's
    # blocks of 1024 (1026 for 3 channels), continuous and as row views
    px, py = _loop_sensitive_pairs()
    for n in [1, 3, 15, 16, 17, 127, 128, 129, 143, 144, 145, 1024 + 15, 1026 + 17, 2050, 4100]:
        for cn in (1, 3):
            if n % cn:
                continue
            k = numpy.arange(n) % px.size
            x, y = px[k].astype(dtype).reshape(1, n // cn, cn), py[k].astype(dtype).reshape(1, n // cn, cn)
            x, y = (x[..., 0], y[..., 0]) if cn == 1 else (x, y)
            rx, ry = numpy.repeat(x, 3, 0), numpy.repeat(y, 3, 0)
            for xv, yv in ((x, y), (rx[:, 1:], ry[:, 1:])) if n // cn > 1 else ((x, y),):
                same_bits(cv.phase(xv, yv), cv2.phase(xv, yv), f"phase n={n} cn={cn}")
                m, a = cv.cartToPolar(xv, yv, angleInDegrees=True)
                wm, wa = cv2.cartToPolar(xv, yv, angleInDegrees=True)
                same_bits(a, wa, f"cartToPolar n={n} cn={cn}")
                same_bits(m, wm, f"cartToPolar mag n={n} cn={cn}")
                same_bits(cv.magnitude(xv, yv), cv2.magnitude(xv, yv), f"magnitude n={n}")


def test_phase_on_a_grid_of_angles():
    # every octant and the diagonals |x| == |y|, where the polynomial's branch flips
    t = numpy.linspace(-720, 720, 4001)
    r = numpy.array([1e-30, 1e-3, 1.0, 7.5, 1e20])[:, None]
    x = (r * numpy.cos(numpy.radians(t))).astype(numpy.float32)
    y = (r * numpy.sin(numpy.radians(t))).astype(numpy.float32)
    x[:, ::7] = y[:, ::7]
    x[:, 3::7] = -y[:, 3::7]
    for deg in (False, True):
        same_bits(cv.phase(x, y, angleInDegrees=deg), cv2.phase(x, y, angleInDegrees=deg))


def test_polar_results_keep_dst_and_errors():
    x, y = floats((9, 11), numpy.float32, 1), floats((9, 11), numpy.float32, 2)
    out = numpy.zeros_like(x)
    r = cv.phase(x, y, out)
    assert r is out
    same_bits(out, cv2.phase(x, y))
    with pytest.raises(cv.error, match=r"\[mnn.cv.phase\]"):
        cv.phase(x, y.astype(numpy.float64))
    with pytest.raises(cv.error, match=r"\[mnn.cv.cartToPolar\]"):
        cv.cartToPolar(x, y[:, :5])
    with pytest.raises(cv.error, match=r"\[mnn.cv.magnitude\]"):
        cv.magnitude(numpy.ones((3, 3), numpy.uint8), numpy.ones((3, 3), numpy.uint8))


# ---------------------------------------------------------------------------------------------
# polarToCart: cv2 5's Cephes sincos in float32 lanes (calls of >= 16 angles), its table form
# below that; cv2 hands float32 / float64 with a magnitude in radians to IPP by default

POLAR_SHAPES = [(1, 1), (1, 7), (1, 15), (1, 16), (1, 17), (7, 5), (13, 1027), (64, 130), (301, 257)]


def _angles(shape, dtype, seed, special=True):
    rng = numpy.random.default_rng(seed)
    a = (rng.standard_normal(shape) * rng.choice([0.01, 1.0, 10.0, 1000.0], shape)).astype(dtype)
    if special and a.size >= 10:
        a.flat[:10] = [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e-40, numpy.pi, -numpy.pi / 2, 1e9, 3e38]
    return a


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("cn", [1, 2, 3])
def test_polar_to_cart_bits_without_ipp(dtype, cn, threads, no_ipp):
    for i, (h, w) in enumerate(POLAR_SHAPES):
        shape = (h, w, cn) if cn > 1 else (h, w)
        ang = _angles(shape, dtype, 20 + i)
        mag = (numpy.random.default_rng(i).random(shape) * 100).astype(dtype)
        for deg in (False, True):
            with numpy.errstate(over="ignore"):
                a = ang * 57 if deg else ang
            for av, mv in zip(views(a), views(mag)):
                an, mn = np_of(av), np_of(mv)
                want = cv2.polarToCart(None, an, angleInDegrees=deg)
                got = cv.polarToCart(None, av, angleInDegrees=deg)
                same_bits(got[0], want[0], f"x {shape} {deg}")
                same_bits(got[1], want[1], f"y {shape} {deg}")
                if dtype == numpy.float64 and not deg:
                    continue  # mnn keeps the double-precision form there (below)
                want = cv2.polarToCart(mn, an, angleInDegrees=deg)
                got = cv.polarToCart(mv, av, angleInDegrees=deg)
                same_bits(got[0], want[0], f"x*m {shape} {deg}")
                same_bits(got[1], want[1], f"y*m {shape} {deg}")


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_polar_to_cart_against_default_cv2(dtype):
    # no magnitude, or degrees: cv2's own loops, exact; a magnitude in radians: IPP's answer,
    # within an ulp or two (float64) or float32 rounding (float32)
    for i, shape in enumerate([(1, 9), (40, 33), (301, 257, 2)]):
        ang = _angles(shape, dtype, i, special=False)
        mag = (numpy.random.default_rng(i).random(shape) * 100).astype(dtype)
        for deg in (False, True):
            a = ang * 57 if deg else ang
            for k in range(2):
                same_bits(cv.polarToCart(None, a, angleInDegrees=deg)[k], cv2.polarToCart(None, a, angleInDegrees=deg)[k])
            got, want = cv.polarToCart(mag, a, angleInDegrees=deg), cv2.polarToCart(mag, a, angleInDegrees=deg)
            for k in range(2):
                if deg:
                    same_bits(got[k], want[k])
                else:
                    rtol = 1e-14 if dtype == numpy.float64 else 1e-6
                    numpy.testing.assert_allclose(numpy.asarray(got[k]), want[k], rtol=rtol, atol=rtol * 100)


def test_polar_to_cart_dst_and_errors():
    ang, mag = _angles((9, 11), numpy.float32, 3, special=False), numpy.ones((9, 11), numpy.float32)
    x, y = numpy.zeros_like(ang), numpy.zeros_like(ang)
    rx, ry = cv.polarToCart(mag, ang, x, y)
    assert rx is x and ry is y
    wx, wy = cv2.polarToCart(mag, ang)
    numpy.testing.assert_allclose(x, wx, rtol=1e-6, atol=1e-6)
    with pytest.raises(cv.error, match=r"\[mnn.cv.polarToCart\]"):
        cv.polarToCart(mag, numpy.ones((9, 11), numpy.uint8))
    with pytest.raises(cv.error, match=r"\[mnn.cv.polarToCart\]"):
        cv.polarToCart(mag[:, :3], ang)


# ---------------------------------------------------------------------------------------------
# magnitude, sqrt

@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("cn", [1, 3])
def test_magnitude_matches_cv2_without_ipp(dtype, cn, threads, no_ipp):
    for i, (h, w) in enumerate(SHAPES):
        shape = (h, w, cn) if cn > 1 else (h, w)
        x, y = floats(shape, dtype, 70 + i), floats(shape, dtype, 90 + i)
        for xv, yv in zip(views(x), views(y)):
            same_bits(cv.magnitude(xv, yv), cv2.magnitude(np_of(xv), np_of(yv)), f"magnitude {shape}")


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_magnitude_within_ipp_accuracy(dtype):
    x, y = floats((301, 257), dtype, 3, False), floats((301, 257), dtype, 4, False)
    got, want = numpy.asarray(cv.magnitude(x, y)), cv2.magnitude(x, y)
    it = numpy.int32 if dtype == numpy.float32 else numpy.int64
    assert numpy.abs(got.view(it).astype(numpy.int64) - want.view(it)).max() <= 2


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_sqrt_bits(dtype, threads):
    for i, (h, w) in enumerate(SHAPES):
        a = floats((h, w, 3), dtype, 110 + i)
        for v in views(a):
            same_bits(cv.sqrt(v), cv2.sqrt(np_of(v)), f"sqrt {a.shape}")
    with pytest.raises(cv.error, match=r"\[mnn.cv.sqrt\]"):
        cv.sqrt(numpy.ones((3, 3), numpy.uint8))


# ---------------------------------------------------------------------------------------------
# bitwise ops

BIT_DEPTHS = ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"]


def ints(shape, dtype, seed):
    rng = numpy.random.default_rng(seed)
    return rng.integers(0, 256, shape + (numpy.dtype(dtype).itemsize,), dtype=numpy.uint8).view(dtype).reshape(shape)


@pytest.mark.parametrize("dtype", BIT_DEPTHS)
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_bitwise_ops_bits(dtype, cn, threads):
    for i, (h, w) in enumerate(SHAPES):
        shape = (h, w, cn) if cn > 1 else (h, w)
        a, b = ints(shape, dtype, i), ints(shape, dtype, 100 + i)
        mask = (numpy.random.default_rng(i).random((h, w)) < 0.6).astype(numpy.uint8) * numpy.uint8(7)
        for av, bv, mv in zip(views(a), views(b), views(mask)):
            an, bn, mn = np_of(av), np_of(bv), np_of(mv)
            for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
                f, g = getattr(cv, name), getattr(cv2, name)
                same_bits(f(av, bv), g(an, bn), f"{name} {shape}")
                same_bits(f(av, bv, mask=mv), g(an, bn, mask=mn), f"{name} masked {shape}")
            same_bits(cv.bitwise_not(av), cv2.bitwise_not(an), f"not {shape}")
            same_bits(cv.bitwise_not(av, mask=mv), cv2.bitwise_not(an, mask=mn), f"not masked {shape}")


SCALARS = [5, 300, -7, 2.5, 3.5, -1e10, 1e20, float("nan"), (0xF0, 0x0F, 0xFF), (70000.4, -3, 9, 1), (1, 2)]


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16", "int32"])
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_bitwise_against_a_scalar(dtype, cn, threads):
    # cv2's Scalar: a number is Scalar(v, 0, 0, 0), a tuple is padded with zeros; each value is
    # rounded half to even (INT_MIN when out of int32's range or NaN), then saturated
    rng = numpy.random.default_rng(cn)
    for h, w in [(1, 1), (7, 9), (31, 67), (130, 5)]:
        shape = (h, w, cn) if cn > 1 else (h, w)
        a = ints(shape, dtype, h + w)
        mask = (rng.random((h, w)) < 0.5).astype(numpy.uint8)
        for s in SCALARS:
            vals = ([float(s)] + [0.0] * cn)[:cn] if not isinstance(s, tuple) else ([float(v) for v in s] + [0.0] * 4)[:cn]
            px = []
            for v in vals:
                r = round(v) if numpy.isfinite(v) else -2**31
                r = r if -2**31 <= r < 2**31 else -2**31
                px.append(numpy.clip(r, numpy.iinfo(dtype).min, numpy.iinfo(dtype).max))
            px = numpy.array(px, dtype=dtype)
            for name, op in (("bitwise_and", numpy.bitwise_and), ("bitwise_or", numpy.bitwise_or),
                             ("bitwise_xor", numpy.bitwise_xor)):
                f = getattr(cv, name)
                want = op(a, px if cn > 1 else px[0])
                wm = numpy.where((mask != 0)[..., None] if cn > 1 else mask != 0, want, 0).astype(dtype)
                for av in views(a)[:2]:
                    same_bits(f(av, s), want, f"{name} {s}")
                    same_bits(f(s, av), want, f"{name} {s} first")
                    same_bits(f(av, s, mask=mask), wm, f"{name} {s} masked")
                try:  # and against cv2 itself where it takes this Scalar
                    ref = getattr(cv2, name)(a, s, mask=mask)
                except cv2.error:
                    continue
                same_bits(f(a, s, mask=mask), ref, f"{name} {s} cv2")


def test_bitwise_with_mask_and_dst_keeps_dst():
    a, b = ints((13, 17, 3), "uint8", 1), ints((13, 17, 3), "uint8", 2)
    mask = (numpy.arange(13 * 17).reshape(13, 17) % 3 == 0).astype(numpy.uint8)
    d1, d2 = ints((13, 17, 3), "uint8", 3), None
    d2 = d1.copy()
    r = cv.bitwise_xor(a, b, d1, mask)
    cv2.bitwise_xor(a, b, d2, mask)
    same_bits(r, d2)
    same_bits(cv.bitwise_and(a, (0xF0, 0x0F, 0xFF)), cv2.bitwise_and(a, (0xF0, 0x0F, 0xFF)))
    with pytest.raises(cv.error, match=r"\[mnn.cv.bitwise_and\]"):
        cv.bitwise_and(a, b[:, :3])
    with pytest.raises(cv.error, match=r"\[mnn.cv.bitwise_or\]"):
        cv.bitwise_or(a, b, mask=mask[:5])


# ---------------------------------------------------------------------------------------------
# hconcat / vconcat

@pytest.mark.parametrize("dtype", BIT_DEPTHS)
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_concat_bits(dtype, cn, threads):
    for i, (h, w) in enumerate(SHAPES):
        shape = (h, w, cn) if cn > 1 else (h, w)
        a = ints(shape, dtype, i)
        b = ints((h, w + 3) + shape[2:], dtype, i + 1)
        c = ints((h + 2,) + shape[1:], dtype, i + 2)
        for av in views(a):
            an = np_of(av)
            bh = ints(an.shape[:1] + (5,) + an.shape[2:], dtype, 9)
            cv_ = ints((4,) + an.shape[1:], dtype, 8)
            same_bits(cv.hconcat([av, bh, av]), cv2.hconcat([an, bh, an]), f"hconcat {shape}")
            same_bits(cv.vconcat([av, cv_, av]), cv2.vconcat([an, cv_, an]), f"vconcat {shape}")
        same_bits(cv.hconcat([a, b]), cv2.hconcat([a, b]))
        same_bits(cv.vconcat([c, a]), cv2.vconcat([c, a]))
    with pytest.raises(cv.error, match=r"\[mnn.cv.hconcat\]"):
        cv.hconcat([numpy.zeros((3, 4), numpy.uint8), numpy.zeros((4, 4), numpy.uint8)])
    with pytest.raises(cv.error, match=r"\[mnn.cv.vconcat\]"):
        cv.vconcat([numpy.zeros((3, 4), numpy.uint8), numpy.zeros((3, 4), numpy.int16)])


# ---------------------------------------------------------------------------------------------
# other ISAs: every target gives cv2's bits (run in subprocesses: the ISA is chosen at start-up)

_ISA_PROGRAM = r"""
import json, os, sys
sys.path[:0] = [sys.argv[1], os.path.dirname(sys.argv[1])]
import cv2, numpy
import mnn, mnn.cv as cv
from test_math12 import floats, ints
cv2.ipp.setUseIPP(False)
n, bad = 0, []
def check(name, got, want):
    global n
    got, want = numpy.asarray(got), numpy.asarray(want)
    ok = (got == want) | (numpy.isnan(got) & numpy.isnan(want)) if got.dtype.kind == "f" else got == want
    n += got.size
    if got.shape != want.shape or not ok.all():
        bad.append(name)
for threads in (1, 2):
    mnn.set_num_threads(threads)
    for dt in (numpy.float32, numpy.float64):
        for shape in ((1, 5), (37, 61, 3), (200, 333)):
            x, y = floats(shape, dt, 1), floats(shape, dt, 2)
            for deg in (False, True):
                check("phase", cv.phase(x, y, angleInDegrees=deg), cv2.phase(x, y, angleInDegrees=deg))
                m, a = cv.cartToPolar(x, y, angleInDegrees=deg)
                wm, wa = cv2.cartToPolar(x, y, angleInDegrees=deg)
                check("c2p mag", m, wm); check("c2p ang", a, wa)
            check("magnitude", cv.magnitude(x, y), cv2.magnitude(x, y))
            for deg in (False, True):
                for k, v in enumerate(cv.polarToCart(numpy.abs(x), y, angleInDegrees=deg)):
                    if deg or dt == numpy.float32:
                        check("polarToCart", v, cv2.polarToCart(numpy.abs(x), y, angleInDegrees=deg)[k])
                    else:
                        check("polarToCart f64", v, [numpy.abs(x) * numpy.cos(y), numpy.abs(x) * numpy.sin(y)][k])
                for k, v in enumerate(cv.polarToCart(None, y, angleInDegrees=deg)):
                    check("polarToCart unit", v, cv2.polarToCart(None, y, angleInDegrees=deg)[k])
            check("sqrt", cv.sqrt(numpy.abs(x)), cv2.sqrt(numpy.abs(x)))
    for shape in ((37, 61, 3), (200, 333)):
        a, b = ints(shape, "uint8", 3), ints(shape, "uint8", 4)
        m = (ints(shape[:2], "uint8", 5) > 100).astype(numpy.uint8)
        check("xor mask", cv.bitwise_xor(a, b, mask=m), cv2.bitwise_xor(a, b, mask=m))
        check("not", cv.bitwise_not(a), cv2.bitwise_not(a))
        check("hconcat", cv.hconcat([a, b]), cv2.hconcat([a, b]))
        check("vconcat", cv.vconcat([a, b]), cv2.vconcat([a, b]))
print(json.dumps([n, bad]))
"""


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_other_isas_match_cv2(isa):
    n, bad = run_under_isa(_ISA_PROGRAM, isa, (os.path.dirname(os.path.abspath(__file__)),))
    assert n > 100000
    assert not bad, f"under MNN_ISA={isa}: {bad}"
