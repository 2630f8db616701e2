"""Issue 5, session 13 (small13): the direct road of the small per-pixel calls.

csrc/python/fast_run.cpp runs a memoised primitive's CPU kernel at once on dense realised inputs
(_core.prim_run / prim_values, bound by _core.prim_now_bind), and answers minMaxLoc of a dense
single-channel image in C (_core.cv_minmaxloc). The public calls that take it: minMaxLoc,
threshold (and the other _fastpix memos), merge, add and bitwise_and of two images of one type,
flip (and the other cv_geom_copy memos), _core_math's prims; normalize(NORM_MINMAX) of uint8 into
uint8 as one kernel (cv_norm_minmax_u8). Each is compared with the real cv2 bit
for bit on odd sizes, every depth and channel count the call takes, numpy and mnn inputs (dense,
non-contiguous, pending), at 1 and 2 threads and under every ISA against the scalar build; the
direct road against the recorded one (the same kernel through the graph)."""
import json
import threading

import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn  # noqa: E402
import mnn.cv as cv  # noqa: E402
import mnn.numpy as mnp  # noqa: E402
from mnn import _core  # noqa: E402
from mnn.cv import _core_ops, _fastpix  # noqa: E402

from helpers import non_contiguous, run_under_isa  # noqa: E402

RNG = numpy.random.default_rng(1313)
# (301, 257): several 64K-element tasks, and outputs past the 16 KB where the direct road places
# its output against 4K aliasing
SHAPES = [(1, 1), (3, 1), (7, 5), (61, 83), (301, 257)]
DEPTHS = [numpy.uint8, numpy.int8, numpy.uint16, numpy.int16, numpy.int32, numpy.float32, numpy.float64]


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    old = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(old)


def rand(shape, dtype):
    if dtype in (numpy.float32, numpy.float64):
        return (RNG.standard_normal(shape) * 60 + 100).astype(dtype)
    info = numpy.iinfo(dtype)
    return RNG.integers(max(info.min, -3000), min(info.max, 3000) + 1, shape).astype(dtype)


def same(got, want):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got, want)


# ---- minMaxLoc: answered in C for dense single-channel images ----

@pytest.mark.parametrize("dtype", DEPTHS)
def test_minmaxloc_matches_cv2(dtype, threads):
    for shape in SHAPES:
        a = rand(shape, dtype)
        want = cv2.minMaxLoc(a)
        for src in (a, a[:, :, None], non_contiguous(a), mnp.asarray(a), mnp.asarray(a) + 0):
            got = cv.minMaxLoc(src)
            assert got == want, (shape, type(src), got, want)
            assert isinstance(got[0], float) and isinstance(got[2][0], int)
        assert cv.minMaxLoc(a) == want  # a repeated call (the memo) as well


def test_minmaxloc_direct_road_takes_dense_images_only():
    a = rand((9, 11), numpy.uint8)
    r = _core.cv_minmaxloc(a)
    assert r == cv2.minMaxLoc(a)
    for other in (non_contiguous(a), a.astype(numpy.int64), a.astype(numpy.float16), a.astype(bool),
                  numpy.zeros((0, 4), numpy.uint8), numpy.zeros((4,), numpy.uint8),
                  numpy.zeros((4, 4, 3), numpy.uint8), mnp.asarray(a) + 0, [[1, 2]], None):
        assert _core.cv_minmaxloc(other) is None


def test_minmaxloc_nan_answers_unchanged():
    # cv2's answers when the first element is NaN depend on its loop (see _core_ops._minmax_checked;
    # float32 images of 64 or more elements: mnn skips NaN where cv2's lanes may keep one, see
    # test_cvfast11's strict xfail): the direct road gives the checked path's answer, and cv2's
    # where that is cv2's
    checked = _core_ops._minmax_public
    for dtype in (numpy.float32, numpy.float64):
        for shape in ((3, 5), (1, 63), (1, 64), (7, 13), (40, 41)):
            a = rand(shape, dtype)
            a[0, 0] = numpy.nan
            got = cv.minMaxLoc(a)
            assert repr(got) == repr(checked(a)), (dtype, shape, got)
            if dtype == numpy.float64 or a.size < 64:
                assert repr(got) == repr(cv2.minMaxLoc(a)), (dtype, shape, got)
            a[shape[0] // 2, shape[1] // 2] = numpy.nan
            assert repr(cv.minMaxLoc(a)) == repr(checked(a))
        a = numpy.full((9, 9), numpy.nan, dtype)
        assert repr(cv.minMaxLoc(a)) == repr(cv2.minMaxLoc(a))


def test_minmaxloc_errors_keep_the_checked_path():
    with pytest.raises(Exception, match=r"^\[mnn\.cv\.minMaxLoc\]"):
        cv.minMaxLoc(numpy.zeros((4, 4, 3), numpy.uint8))
    # an empty image (cv2 4.x dies of SIGFPE there: no comparison with it): mnn's answer as before
    assert cv.minMaxLoc(numpy.zeros((0, 3), numpy.uint8)) == (0.0, 0.0, (-1, -1), (-1, -1))


# ---- the per-pixel calls through the direct road ----

def _calls(a, b, planes):
    return [
        (lambda m, x=a, y=b: m.add(x, y)),
        (lambda m, x=a, y=b: m.bitwise_and(x, y)),
        (lambda m, x=a: m.flip(x, 1)),
        (lambda m, x=a: m.flip(x, 0)),
        (lambda m, x=a: m.flip(x, -1)),
        (lambda m, ps=planes: m.merge(ps)),
    ]


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int8, numpy.uint16, numpy.int16, numpy.float32, numpy.float64])
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_per_pixel_calls_match_cv2(dtype, cn, threads):
    for shape in SHAPES:
        full = shape + (cn,) if cn > 1 else shape
        a, b = rand(full, dtype), rand(full, dtype)
        planes = [rand(shape, dtype) for _ in range(max(cn, 2))]
        for k, call in enumerate(_calls(a, b, planes)):
            want = call(cv2)
            same(call(cv), want)
            same(call(cv), want)  # the memoised / bound road a second time
        # mnn inputs: realised, pending (recorded, then evaluated by the lazy road), non-contiguous
        for conv in (mnp.asarray, lambda x: mnp.asarray(x) + 0, non_contiguous):
            ma, mb = conv(a), conv(b)
            mp = [conv(p) for p in planes]
            for call, ref in zip(_calls(ma, mb, mp), _calls(a, b, planes)):
                same(call(cv), ref(cv2))


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.uint16, numpy.int16, numpy.float32, numpy.float64])
def test_threshold_memo_runs_at_once_and_matches_cv2(dtype, threads):
    for shape in SHAPES:
        a = rand(shape, dtype)
        for kind in range(5):
            want = cv2.threshold(a, 97.5, 200, kind)
            for _ in range(2):  # the checked call, then the memo's direct road
                t, got = cv.threshold(a, 97.5, 200, kind)
                assert t == want[0]
                same(got, want[1])
            t, got = cv.threshold(non_contiguous(a), 97.5, 200, kind)
            same(got, want[1])


def test_int32_and_bool_bitwise_and_mixed_operands():
    a, b = rand((13, 17, 3), numpy.int32), rand((13, 17, 3), numpy.int32)
    same(cv.bitwise_and(a, b), cv2.bitwise_and(a, b))
    m = (rand((13, 17), numpy.uint8) > 0).astype(numpy.uint8)
    same(cv.bitwise_and(a, b, mask=m), cv2.bitwise_and(a, b, mask=m))
    # operands of different types or layouts leave the direct road: the results do not change
    u = rand((13, 17, 3), numpy.uint8)
    same(cv.add(u, mnp.asarray(u)), cv2.add(u, u))
    same(cv.add(u, non_contiguous(u)), cv2.add(u, u))
    same(cv.add(u, 7), cv2.add(u, 7))
    same(cv.merge([u[:, :, 0], mnp.asarray(u[:, :, 1].copy())]), cv2.merge([u[:, :, 0], u[:, :, 1]]))


def test_bad_input_raises_named_errors():
    u = rand((5, 6), numpy.uint8)
    with pytest.raises(Exception, match=r"^\[mnn\.cv\.merge\]"):
        cv.merge([u, u[:4]])
    with pytest.raises(Exception, match=r"^\[mnn\.cv\.merge\]"):
        cv.merge([u, u.astype(numpy.uint16)])
    with pytest.raises(Exception, match=r"^\[mnn\.cv\.add\]"):
        cv.add(u, u[:4])
    with pytest.raises(Exception, match=r"^\[mnn\.cv\.bitwise_and\]"):
        cv.bitwise_and(u, u.astype(numpy.int16))
    with pytest.raises(TypeError, match=r"prim_now_bind"):
        _core.prim_values(None, u)
    with pytest.raises(ValueError, match=r"unknown primitive"):
        _core.prim_now_bind("no_such_prim", [], [])


# ---- normalize(NORM_MINMAX) uint8 -> uint8 in one kernel ----

@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_normalize_minmax_u8_matches_cv2_and_the_former_path(cn, threads, monkeypatch):
    for shape in SHAPES:
        full = shape + (cn,) if cn > 1 else shape
        for lo, hi in ((0, 256), (3, 200), (77, 78)):
            a = RNG.integers(lo, hi, full).astype(numpy.uint8)
            for alpha, beta in ((0, 255), (255, 0), (10, 20), (-3, 250), (0.5, 3.7), (1e5, -1e5), (7, 7), (0.0, 1.0)):
                want = cv2.normalize(a, None, alpha, beta, cv2.NORM_MINMAX)
                got = cv.normalize(a, None, alpha, beta, cv2.NORM_MINMAX)
                same(got, want)
                for src in (non_contiguous(a), mnp.asarray(a) + 0):
                    same(cv.normalize(src, None, alpha, beta, cv2.NORM_MINMAX), want)
    # the former road (statistics node, then the table lookup) gives the same bits, odd alphas too
    a = RNG.integers(0, 256, (61, 83, cn) if cn > 1 else (61, 83)).astype(numpy.uint8)
    cases = [(0.1, 1e-3), (2.5, 300.25), (-1e19, 1e19), (numpy.float32(0.3), 7), (True, 0), (2 ** 60 + 1, 0)]
    fast = [numpy.asarray(cv.normalize(a, None, al, be, cv2.NORM_MINMAX)) for al, be in cases]
    monkeypatch.setattr(_fastpix, "normalize_minmax_u8", lambda *args: None)
    for (al, be), f in zip(cases, fast):
        same(f, numpy.asarray(cv.normalize(a, None, al, be, cv2.NORM_MINMAX)))


def test_normalize_other_calls_keep_their_road():
    a = RNG.integers(0, 256, (31, 17)).astype(numpy.uint8)
    m = (RNG.random((31, 17)) > 0.5).astype(numpy.uint8)
    # (float32 outputs: mnn's double arithmetic is within an ulp of cv2's, as test_hist12 allows)
    numpy.testing.assert_allclose(numpy.asarray(cv.normalize(a, None, 0, 100, cv2.NORM_MINMAX, cv2.CV_32F)),
                                  cv2.normalize(a, None, 0, 100, cv2.NORM_MINMAX, cv2.CV_32F), rtol=1e-6)
    same(cv.normalize(a, None, 0, 100, cv2.NORM_MINMAX, mask=m), cv2.normalize(a, None, 0, 100, cv2.NORM_MINMAX, mask=m))
    d = numpy.full((31, 17), 9, numpy.uint8)
    same(cv.normalize(a, d, 0, 100, cv2.NORM_MINMAX), cv2.normalize(a, d.copy(), 0, 100, cv2.NORM_MINMAX))
    assert numpy.array_equal(d, cv2.normalize(a, None, 0, 100, cv2.NORM_MINMAX))  # dst filled
    with pytest.raises(Exception, match=r"^\[mnn\.cv\.normalize\]"):
        cv.normalize(a, None, "x", 0, cv2.NORM_MINMAX)


# ---- the direct road against the recorded one ----

def test_prim_run_equals_the_recorded_primitive(threads):
    g = rand((301, 257), numpy.uint8)
    for name, ints, floats, ins in (("cv_thresh", [0], [100.0, 255.0], [g]),
                                    ("cv_merge", [], [], [g, g[::-1].copy(), g.T.copy().T.copy()]),
                                    ("cv_minmaxloc", [0], [], [g]),
                                    ("cv_count_nz", [], [], [g])):
        now = _core.prim_now_bind(name, ints, floats)
        lazy = numpy.asarray(_core.prim(name, [_core.from_buffer(x) for x in ins], ints, floats))
        got = _core.prim_run(now, *ins)
        same(got, lazy)
        same(_core.prim_run(now, *[mnp.asarray(x) for x in ins]), lazy)
        if lazy.dtype in (numpy.float64, numpy.int64):
            assert _core.prim_values(now, *ins) == tuple(float(v) for v in lazy.ravel())
    # a result of the direct road is an ordinary realised array
    r = _core.prim_run(_core.prim_now_bind("cv_thresh", [0], [100.0, 255.0]), g)
    same(r + 1, numpy.where(g > 100, 255, 0).astype(numpy.uint8) + numpy.uint8(1))
    assert numpy.asarray(r).flags.c_contiguous
    # a prim_bind() capsule is applied lazily, as _core.prim_apply(_image) would
    old = _core.prim_bind("cv_thresh", [0], [100.0, 255.0])
    same(_core.prim_run(old, g), numpy.where(g > 100, 255, 0).astype(numpy.uint8))


def test_prim_run_from_threads():
    # the capsule's cached kernel is taken by one thread at a time; the others prepare their own
    g = rand((301, 257), numpy.uint8)
    want = cv2.threshold(g, 90, 255, cv2.THRESH_BINARY)[1]
    now = _core.prim_now_bind("cv_thresh", [0], [90.0, 255.0])
    bad = []

    def work():
        for _ in range(50):
            if not numpy.array_equal(numpy.asarray(_core.prim_run(now, g)), want):
                bad.append(1)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not bad


def test_numpy_input_outlives_nothing():
    # the imported buffer is held while the kernel runs and released after: the numpy array can
    # be dropped at once, and a read-only one is accepted
    g = rand((61, 83), numpy.uint8)
    g.setflags(write=False)
    same(cv.flip(g, 1), cv2.flip(g, 1))
    same(cv.threshold(g, 10, 20, 0)[1], cv2.threshold(g, 10, 20, 0)[1])
    r = cv.add(rand((61, 83), numpy.uint8), g)
    assert numpy.asarray(r).shape == (61, 83)


# ---- every ISA gives the scalar build's bits ----

_ISA_PROGRAM = r"""
import json
import numpy, cv2
import mnn, mnn.cv as cv
rng = numpy.random.default_rng(13)
out = []
for shape in ((7, 5), (97, 131), (301, 257)):
    a = rng.integers(0, 256, shape + (3,), dtype=numpy.uint8)
    g = numpy.ascontiguousarray(a[:, :, 1])
    f = (rng.standard_normal(shape) * 50).astype(numpy.float32)
    f[1, 1] = numpy.nan
    for threads in (1, 2):
        mnn.set_num_threads(threads)
        res = [cv.normalize(a, None, 3, 250, cv2.NORM_MINMAX), cv.normalize(g, None, 0, 255, cv2.NORM_MINMAX),
               cv.add(a, a[::-1].copy()), cv.bitwise_and(a, a[::-1].copy()), cv.flip(a, 1), cv.flip(a, -1),
               cv.merge([g, g.T.copy().T, g[::-1].copy()]), cv.threshold(g, 100, 255, 0)[1],
               cv.threshold(f, 0.5, 2, 2)[1], cv.add(f, f)]
        stats = [cv.minMaxLoc(g), cv.minMaxLoc(f), cv.minMaxLoc(f.astype(numpy.float64))]
        out.append([numpy.asarray(r).view(numpy.uint8).tobytes().hex() for r in res] + [repr(stats)])
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_scalar_isa_gives_the_same_bits(isa):
    scalar = run_under_isa(_ISA_PROGRAM, "scalar")
    other = run_under_isa(_ISA_PROGRAM, isa)
    assert len(scalar) == len(other) == 6
    assert scalar == other
    assert scalar[0::2] == scalar[1::2]  # 1 and 2 threads agree
