"""Issue 5 (session 11): the fast paths of channel swaps (cvtColor BGR2RGB and kin: AVX512-VBMI
permutes, AVX2 blends, scalar) and of images against a cv2 Scalar (8/16-bit add / subtract in
SIMD integer lanes, every other 8-bit op through per-channel tables, convertScaleAbs as cv2's
float32 fma) are bit-exact with cv2: odd sizes, 1-4 channels, non-contiguous views, .5 ties,
1 and 2 threads, and under MNN_ISA=avx2 / scalar (subprocesses: the ISA is chosen at start-up)."""
import cv2
import numpy
import pytest
from helpers import run_under_isa

import mnn
import mnn.cv as cv

SWAPS = [(cv2.COLOR_BGR2RGB, 3), (cv2.COLOR_RGB2BGR, 3), (cv2.COLOR_BGRA2RGBA, 4), (cv2.COLOR_BGR2RGBA, 3)]
# 1x1; odd; a row of 64 pixels +- 1 (one VBMI block of 192 bytes); > 6 MB moved (streamed stores)
SWAP_SHAPES = [(1, 1), (97, 131), (1, 63), (1, 64), (1, 65), (3, 129), (1600, 1201)]


@pytest.fixture(params=[1, 2])
def threads(request):
    old = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(old)


def _same(got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    return got.dtype == want.dtype and got.shape == want.shape and numpy.array_equal(got, want)


@pytest.mark.parametrize("code,cn", SWAPS)
def test_channel_swaps_match_cv2(code, cn, threads):
    rng = numpy.random.default_rng(code)
    for h, w in SWAP_SHAPES:
        a = rng.integers(0, 256, (h, w, cn), dtype=numpy.uint8)
        assert _same(cv.cvtColor(a, code), cv2.cvtColor(a, code)), (h, w)
        m = mnn.numpy.array(a)
        assert _same(cv.cvtColor(m, code), cv2.cvtColor(a, code)), (h, w)
        # the memoised fast path must see a new shape / a view as what it is
        if w > 3:
            v = a[:, 1:-2]  # non-contiguous rows, odd offset
            assert _same(cv.cvtColor(v, code), cv2.cvtColor(numpy.ascontiguousarray(v), code)), (h, w)
            mv = m[::-1, 1::2]
            assert _same(cv.cvtColor(mv, code), cv2.cvtColor(numpy.ascontiguousarray(a[::-1, 1::2]), code)), (h, w)


def test_channel_swap_unaligned_buffers():
    """Source and destination at every byte offset mod 64 (the VBMI loop and the AVX2 loop's
    aligned head / tail split), against cv2."""
    rng = numpy.random.default_rng(7)
    base = rng.integers(0, 256, 3 * 700 + 64, dtype=numpy.uint8)
    for off in range(0, 64, 5):
        a = base[off:off + 3 * 700].reshape(7, 100, 3)
        for code in (cv2.COLOR_BGR2RGB, cv2.COLOR_BGR2RGBA):
            assert _same(cv.cvtColor(a, code), cv2.cvtColor(numpy.ascontiguousarray(a), code)), (off, code)


def test_repeated_cvtcolor_keeps_the_public_contract():
    """cvtColor's memoised calls skip the public wrapper: dst, named errors and 2-d gray results
    must still behave as the wrapper makes them."""
    rng = numpy.random.default_rng(3)
    a = rng.integers(0, 256, (9, 13, 3), dtype=numpy.uint8)
    for _ in range(3):  # the first call memoises, the next ones take the fast path
        assert _same(cv.cvtColor(a, cv2.COLOR_BGR2RGB), cv2.cvtColor(a, cv2.COLOR_BGR2RGB))
        g = cv.cvtColor(a, cv2.COLOR_BGR2GRAY)
        assert _same(g, cv2.cvtColor(a, cv2.COLOR_BGR2GRAY)) and g.shape == (9, 13)
        out = numpy.zeros_like(a)
        r = cv.cvtColor(a, cv2.COLOR_BGR2RGB, out)
        assert r is out and numpy.array_equal(out, cv2.cvtColor(a, cv2.COLOR_BGR2RGB))
        r = cv.cvtColor(a, cv2.COLOR_BGR2RGBA, dstCn=3)
        assert _same(r, cv2.cvtColor(a, cv2.COLOR_BGR2RGBA, dstCn=3))
    for args, kwargs in (((), {}), ((a,), {}), ((a, 4, None, 0, None, 5), {}), ((a, 4), {"foo": 1}), ((), {"code": 4}),
                         ((a, "x"), {}), ((a[:, :, :2], 4), {}), ((a.astype(numpy.int32), 4), {})):
        with pytest.raises((TypeError, ValueError, cv.error), match=r"^\[mnn\.cv\.cvtColor\]"):
            cv.cvtColor(*args, **kwargs)


# ---- images against a Scalar ----

SCALARS = [5, 5.0, 2.5, 3.5, -2.5, 0.5, -7.5, 300.5, -300, 1e10, (5, 5, 5, 0), (7, -3, 300, 1.5),
           (0.5, 1.5, 2.5, 3.5), (-1.5, 254.5)]
MUL_SCALARS = [2.0, 0.5, 1.5, (1.5, 2.0, 0.5, 0), (0.3, 1 / 3, 3.3, -1.0), 1e10, -0.25]
SHAPES = [(97, 131), (67, 71, 1), (61, 67, 2), (67, 61, 3), (59, 73, 4), (3, 5, 3), (1, 1)]


def _img(rng, dtype, shape, view=False):
    info = numpy.iinfo(dtype)
    big = shape[:1] + (shape[1] * 2 + 1,) + shape[2:] if view else shape
    x = rng.integers(int(info.min), int(info.max), big, endpoint=True).astype(dtype)
    flat = x.reshape(-1)
    flat[::5], flat[1::7], flat[2::9] = info.max, info.min, 0
    return x[:, 1::2] if view else x


def _scalar_cases(dtype):
    rng = numpy.random.default_rng(11)
    for si, shape in enumerate(SHAPES):
        for view in (False, True):
            a = _img(rng, dtype, shape, view)
            for v in SCALARS:
                for op in ("add", "subtract", "absdiff"):
                    if op != "absdiff" and isinstance(v, float) and abs(v) > 2 ** 31:
                        continue  # KNOWN (test_arithfast10): cv2 wraps INT_MIN + x in int32 there
                    yield f"{op}(img, {v}) {dtype}{shape}{view}", getattr(cv, op)(a, v), getattr(cv2, op)(a, v)
                    yield f"{op}({v}, img) {dtype}{shape}{view}", getattr(cv, op)(v, a), getattr(cv2, op)(v, a)
            for v in MUL_SCALARS:
                yield f"multiply(img, {v}) {dtype}{shape}{view}", cv.multiply(a, v), cv2.multiply(a, v)
                yield f"multiply({v}, img) {dtype}{shape}{view}", cv.multiply(v, a), cv2.multiply(v, a)
                yield (f"multiply(img, {v}, 0.7) {dtype}{shape}{view}", cv.multiply(a, v, scale=0.7),
                       cv2.multiply(a, v, scale=0.7))
                yield f"divide(img, {v}) {dtype}{shape}{view}", cv.divide(a, v), cv2.divide(a, v)
                yield f"divide({v}, img) {dtype}{shape}{view}", cv.divide(v, a), cv2.divide(v, a)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16"])
def test_scalar_ops_match_cv2(dtype, threads):
    bad, n = [], 0
    for name, got, want in _scalar_cases(dtype):
        n += 1
        if not _same(got, want):
            bad.append(name)
    assert n > 500
    assert not bad, f"{len(bad)} of {n} differ from cv2, first: {bad[:6]}"


def test_repeated_scalar_calls_match_cv2():
    """The memoised road (_arith_scalar_fast.py) for mnn images: repeated calls, views, every
    channel count and integer depth, Scalars that compare equal but differ (5 / 5.0, 0.0 / -0.0),
    and the calls it must leave alone (divide, float images, dst, mask, dtype)."""
    rng = numpy.random.default_rng(21)
    for dtype in ("uint8", "int8", "uint16", "int16", "float32"):
        for shape in ((37, 41), (37, 41, 1), (37, 41, 2), (37, 41, 3), (37, 41, 4)):
            a = _img(rng, dtype, shape) if dtype != "float32" else rng.standard_normal(shape).astype(dtype) * 100
            m = mnn.numpy.array(a)
            for _ in range(2):
                for v in (5, 5.0, 0.0, -0.0, 2.5, (1, -2.5, 3.5, 4), (0.5,)):
                    for op in ("add", "subtract", "absdiff", "multiply", "divide"):
                        assert _same(getattr(cv, op)(m, v), getattr(cv2, op)(a, v)), (op, dtype, shape, v)
                        assert _same(getattr(cv, op)(v, m), getattr(cv2, op)(v, a)), (op, dtype, shape, v)
                    assert _same(cv.multiply(m, v, scale=-0.5), cv2.multiply(a, v, scale=-0.5)), (dtype, shape, v)
                mv = m[::2, 1::3]
                av = numpy.ascontiguousarray(a[::2, 1::3])
                assert _same(cv.add(mv, (3, 4, 5, 6)), cv2.add(av, (3, 4, 5, 6))), (dtype, shape)
                assert _same(cv.multiply(mv, 1.5), cv2.multiply(av, 1.5)), (dtype, shape)
    from mnn.cv import _arith_scalar_fast
    assert any(k[0] == "rsubtract" and str(k[1]) == "int16" for k in _arith_scalar_fast._BOUND)  # the road was taken
    a = _img(rng, "uint8", (9, 13, 3))
    m = mnn.numpy.array(a)
    for _ in range(2):
        out = mnn.numpy.zeros((9, 13, 3), dtype="uint8")
        assert cv.add(m, 5, out) is out and _same(out, cv2.add(a, 5))
        mask = (rng.integers(0, 2, (9, 13)) * 255).astype(numpy.uint8)
        assert _same(cv.add(m, 5, mask=mask), cv2.add(a, 5, mask=mask))
        assert _same(cv.add(m, 5, dtype=cv2.CV_16S), cv2.add(a, 5, dtype=cv2.CV_16S))
        with pytest.raises(cv.error, match=r"^\[mnn\.cv\.multiply\]"):
            cv.multiply(m, 2.0, scale="x")


def test_scalar_ties_uint8():
    """Every byte value against Scalars whose products / quotients land on .5: the tables are
    filled by the double loop, which rounds half to even as cvRound does."""
    x = numpy.tile(numpy.arange(256, dtype=numpy.uint8), 64).reshape(64, 256)  # > 4096: the table path
    for cn in (1, 2, 3, 4):
        a = numpy.ascontiguousarray(numpy.repeat(x[:, :, None], cn, 2)[:, :, :cn])
        a = a[:, :, 0] if cn == 1 else a
        for v in (0.5, 1.5, 2.5, (0.5, 1.5, 2.5, 3.5), (2.5, 0.5)):
            for op in ("multiply", "divide"):
                assert _same(getattr(cv, op)(a, v), getattr(cv2, op)(a, v)), (op, v, cn)
            assert _same(cv.multiply(a, v, scale=0.5), cv2.multiply(a, v, scale=0.5)), (v, cn)
            assert _same(cv.add(a, v), cv2.add(a, v)), (v, cn)
            assert _same(cv.subtract(v, a), cv2.subtract(v, a)), (v, cn)


def test_convert_scale_abs_float32_fma():
    """cv2 computes |fma(x, alpha, beta)| in float32 at every width (its scalar tail too): 22.5 *
    float32(1/3) - 5 is 2.5000002 fused, 2.5 with two roundings."""
    for n in (1, 3, 8, 17, 33, 100, 40000):
        x = numpy.full((1, n), 22.5, numpy.float32)
        want = cv2.convertScaleAbs(x, alpha=1 / 3, beta=-5)
        assert want[0, 0] == 3
        assert _same(cv.convertScaleAbs(x, alpha=1 / 3, beta=-5), want), n


@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_convert_scale_abs_ties(cn, threads):
    rng = numpy.random.default_rng(cn)
    shape = (211, 157, cn) if cn > 1 else (211, 157)
    # odd integers times 0.5 are exact .5 ties; their float32 neighbours straddle them
    k = rng.integers(-600, 600, shape).astype(numpy.float32) * 2 + 1
    near = numpy.nextafter(k, numpy.float32(numpy.inf) * numpy.sign(rng.standard_normal(shape)).astype(numpy.float32))
    x = numpy.where(rng.random(shape) < 0.5, k, near).astype(numpy.float32)
    flat = x.reshape(-1)
    flat[::97], flat[1::89], flat[2::83] = numpy.nan, numpy.inf, -3e38
    for al, be in ((0.5, 0.0), (0.5, 0.25), (-0.5, -0.5), (1 / 3, -5.0), (0.37, 12.5), (3e5, 0.1), (1.0, 0.0)):
        want = cv2.convertScaleAbs(x, alpha=al, beta=be)
        assert _same(cv.convertScaleAbs(x, alpha=al, beta=be), want), (al, be)
        v = x[:, 1::2]
        assert _same(cv.convertScaleAbs(v, alpha=al, beta=be), cv2.convertScaleAbs(numpy.ascontiguousarray(v), alpha=al,
                                                                                  beta=be)), (al, be)
    # >= 6 MB read + written: the streamed-store loop, from an unaligned start (a view)
    big = (rng.standard_normal((1100, 403, 3)) * 200).astype(numpy.float32)
    for part in (big, big[:, 1:]):
        want = cv2.convertScaleAbs(numpy.ascontiguousarray(part), alpha=0.5, beta=0.25)
        assert _same(cv.convertScaleAbs(part, alpha=0.5, beta=0.25), want)
    for dtype in ("uint8", "int8", "uint16", "int16"):
        a = _img(rng, dtype, shape)
        for al, be in ((0.5, 0.0), (1 / 3, -5.0), (-2.5, 0.5), (1e-3, 2.5)):
            assert _same(cv.convertScaleAbs(a, alpha=al, beta=be), cv2.convertScaleAbs(a, alpha=al, beta=be)), (dtype, al)


_ISA_PROGRAM = r"""
import json, os, sys
import numpy, cv2
sys.path[:0] = [sys.argv[1], os.path.dirname(sys.argv[1])]  # this file, and tests/ for its helpers import
import test_cvspeed11 as t
import mnn.cv as cv
bad, n = [], 0
rng = numpy.random.default_rng(5)
for code, cn in t.SWAPS:
    for h, w in t.SWAP_SHAPES:
        a = rng.integers(0, 256, (h, w, cn), dtype=numpy.uint8)
        n += 1
        if not t._same(cv.cvtColor(a, code), cv2.cvtColor(a, code)):
            bad.append(f"cvtColor {code} {h}x{w}")
for dtype in ("uint8", "int16"):
    for name, got, want in t._scalar_cases(dtype):
        n += 1
        if not t._same(got, want):
            bad.append(name)
x = (rng.standard_normal((67, 61, 3)) * 300).astype(numpy.float32)
for al, be in ((0.5, 0.0), (1 / 3, -5.0), (0.37, 12.5)):
    n += 1
    if not t._same(cv.convertScaleAbs(x, alpha=al, beta=be), cv2.convertScaleAbs(x, alpha=al, beta=be)):
        bad.append(f"convertScaleAbs {al} {be}")
print(json.dumps([n, bad]))
"""


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_other_isas_match_cv2(isa):
    import os
    n, bad = run_under_isa(_ISA_PROGRAM, isa, (os.path.dirname(os.path.abspath(__file__)),))
    assert n > 1000
    assert not bad, f"under MNN_ISA={isa}, {len(bad)} of {n} differ from cv2, first: {bad[:6]}"
