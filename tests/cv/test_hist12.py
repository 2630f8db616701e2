"""Issue 5, session 12: the native histogram / statistics paths (csrc/ops/cv/hist.cpp, kernels in
csrc/backends/cpu/simd/cv/hist.cpp, Python in mnn/cv/_hist.py) of calcHist, Otsu / triangle
thresholds, equalizeHist, CLAHE, mean, meanStdDev, norm and normalize. Each is compared with the
real cv2 (exact where cv2's answer is an integer count or a pixel; integer means / deviations are
exact too, as both sum exactly and scale by 1 / n), on odd sizes, every channel count and depth
the call takes, masks and non-contiguous views; normalize also against mnn's former mnn.numpy
path (kept for float16 and int8-mask calls), bit for bit; every answer the same at 1 and 2
threads and under MNN_ISA=scalar as under every other ISA."""
import json

import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn  # noqa: E402
import mnn.cv as cv  # noqa: E402
from mnn.cv import _hist  # noqa: E402

from helpers import run_under_isa  # noqa: E402

RNG = numpy.random.default_rng(1212)
SHAPES = [(1, 1), (7, 5), (97, 131), (301, 257)]  # 301 x 257: several 64K-pixel tasks


def rand(shape, dtype):
    if dtype == numpy.float32 or dtype == numpy.float64:
        return (RNG.standard_normal(shape) * 60 + 100).astype(dtype)
    info = numpy.iinfo(dtype)
    return RNG.integers(max(info.min, -3000), min(info.max, 3000) + 1, shape).astype(dtype)


def img8(shape):
    return RNG.integers(0, 256, shape, dtype=numpy.uint8)


def mask_of(shape):
    return (RNG.random(shape[:2]) > 0.4).astype(numpy.uint8)


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    old = mnn.get_num_threads()
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(old)


# ---- calcHist ----

@pytest.mark.parametrize("shape", SHAPES)
def test_calchist_uint8_one_dim(shape, threads):
    for cn in (1, 3, 4):
        a = img8(shape + (cn,) if cn > 1 else shape)
        m = mask_of(shape)
        for ch in range(cn):
            for bins, rng in ((256, [0, 256]), (30, [10, 200]), (7, [-5.5, 300.25]), (1, [0, 256])):
                for mask in (None, m):
                    got = numpy.asarray(cv.calcHist([a], [ch], mask, [bins], rng))
                    want = cv2.calcHist([a], [ch], mask, [bins], rng)
                    numpy.testing.assert_array_equal(got.reshape(want.shape), want)


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.uint16, numpy.float32])
def test_calchist_multi_dim_and_images(dtype, threads):
    h, w = 97, 131
    if dtype == numpy.uint8:
        a, b = img8((h, w, 3)), img8((h, w))
        r = [0, 256]
    elif dtype == numpy.uint16:
        a, b = RNG.integers(0, 65536, (h, w, 3), dtype=numpy.uint16), RNG.integers(0, 65536, (h, w), dtype=numpy.uint16)
        r = [0, 65536]
    else:
        a, b = (RNG.random((h, w, 3)) * 1.2 - 0.1).astype(numpy.float32), (RNG.random((h, w)) * 1.2 - 0.1).astype(numpy.float32)
        r = [0, 1]
    m = mask_of((h, w))
    for chs, sizes in (([0], [50]), ([0, 2], [16, 8]), ([2, 3], [5, 9]), ([0, 1, 3], [4, 6, 5]), ([3], [300])):
        for mask in (None, m):
            got = numpy.asarray(cv.calcHist([a, b], chs, mask, sizes, r * len(chs)))
            want = cv2.calcHist([a, b], chs, mask, sizes, r * len(chs))
            numpy.testing.assert_array_equal(got.reshape(want.shape), want, err_msg=str((chs, sizes)))


def test_calchist_views_and_accumulate():
    big = img8((200, 300, 3))
    for view in (big[1::2, 3::3], big[:, ::-1], big[50:147, 20:151, 1:]):
        for ch in range(view.shape[2]):
            got = numpy.asarray(cv.calcHist([view], [ch], None, [64], [0, 256]))
            want = cv2.calcHist([numpy.ascontiguousarray(view)], [ch], None, [64], [0, 256])
            numpy.testing.assert_array_equal(got.reshape(want.shape), want)
    a, b = img8((31, 17)), img8((31, 17))
    h = cv2.calcHist([a], [0], None, [32], [0, 256])
    got = numpy.asarray(cv.calcHist([b], [0], None, [32], [0, 256], hist=h.copy(), accumulate=True))
    want = cv2.calcHist([b], [0], None, [32], [0, 256], hist=h.copy(), accumulate=True)
    numpy.testing.assert_array_equal(got.reshape(want.shape), want)
    f = (RNG.standard_normal((53, 41)) * 100).astype(numpy.float32)
    f[3, 4], f[5, 6] = numpy.inf, -numpy.inf
    got = numpy.asarray(cv.calcHist([f], [0], None, [37], [-150.5, 200]))
    numpy.testing.assert_array_equal(got.reshape(-1), cv2.calcHist([f], [0], None, [37], [-150.5, 200]).reshape(-1))


def test_calchist_bad_input():
    a = img8((9, 9))
    with pytest.raises(Exception, match=r"\[mnn.cv.calcHist\]"):
        cv.calcHist([a], [1], None, [8], [0, 256])
    with pytest.raises(Exception, match=r"\[mnn.cv.calcHist\]"):
        cv.calcHist([a], [0], numpy.ones((8, 9), numpy.uint8), [8], [0, 256])


# ---- Otsu / triangle, equalizeHist ----

@pytest.mark.parametrize("shape", SHAPES + [(480, 640)])
def test_otsu_triangle(shape, threads):
    variants = [img8(shape), (img8(shape) // 4 + 60).astype(numpy.uint8),
                numpy.clip(RNG.normal(80, 20, shape), 0, 255).astype(numpy.uint8),
                numpy.full(shape, 77, numpy.uint8)]
    for a in variants:
        for auto in (cv2.THRESH_OTSU, cv2.THRESH_TRIANGLE):
            for kind in range(5):
                t, r = cv.threshold(a, 0, 200, kind | auto)
                t2, r2 = cv2.threshold(a, 0, 200, kind | auto)
                assert t == t2, (auto, kind, t, t2)
                numpy.testing.assert_array_equal(numpy.asarray(r), r2)
    big = img8((shape[0] * 2 + 1, shape[1] + 3))
    view = big[1::2, 2:-1]
    t, r = cv.threshold(view, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    t2, r2 = cv2.threshold(numpy.ascontiguousarray(view), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    assert t == t2
    numpy.testing.assert_array_equal(numpy.asarray(r), r2)


@pytest.mark.parametrize("shape", SHAPES + [(480, 640)])
def test_equalize_hist(shape, threads):
    for a in (img8(shape), (img8(shape) // 8 + 100).astype(numpy.uint8), numpy.full(shape, 9, numpy.uint8)):
        numpy.testing.assert_array_equal(numpy.asarray(cv.equalizeHist(a)), cv2.equalizeHist(a))
    big = img8((shape[0] + 4, 2 * shape[1]))
    view = big[2:-2, ::2]
    numpy.testing.assert_array_equal(numpy.asarray(cv.equalizeHist(view)), cv2.equalizeHist(numpy.ascontiguousarray(view)))


# ---- CLAHE: cv2's answer, and the former kernel's (cv_clahe) bit for bit ----

@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.uint16])
def test_clahe(dtype, threads):
    for shape in ((97, 131), (64, 64), (480, 640), (5, 3), (33, 200)):
        a = img8(shape) if dtype == numpy.uint8 else RNG.integers(0, 4096, shape, dtype=numpy.uint16)
        for clip, grid in ((2.0, (8, 8)), (40.0, (3, 5)), (0.0, (7, 6)), (1.0, (1, 1)), (4.0, (2, 9))):
            got = numpy.asarray(cv.createCLAHE(clip, grid).apply(a))
            numpy.testing.assert_array_equal(got, cv2.createCLAHE(clip, grid).apply(a), err_msg=str((shape, clip, grid)))
            old = numpy.asarray(mnn._core.prim("cv_clahe", [mnn._core.from_buffer(a)], [grid[0], grid[1]], [clip]))
            numpy.testing.assert_array_equal(got, old)


# ---- mean, meanStdDev ----

DEPTHS = [numpy.uint8, numpy.int8, numpy.uint16, numpy.int16, numpy.int32, numpy.float32, numpy.float64]


@pytest.mark.parametrize("dtype", DEPTHS)
@pytest.mark.parametrize("cn", [1, 2, 3, 4])
def test_mean_std(dtype, cn, threads):
    exact = dtype not in (numpy.int32, numpy.float32, numpy.float64)
    for shape in ((7, 5), (97, 131), (301, 257)):
        a = rand(shape + (cn,) if cn > 1 else shape, dtype)
        m = mask_of(shape)
        for mask in (None, m, numpy.zeros(shape, numpy.uint8)):
            got, want = cv.mean(a, mask), cv2.mean(a, mask=mask)
            if exact:
                assert tuple(got) == tuple(want), (got, want)
            else:
                # cv2 sums float32 in float32 blocks: its float means are good to ~1e-8
                numpy.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
            g, w = cv.meanStdDev(a, mask=mask), cv2.meanStdDev(a, mask=mask)
            for x, y in zip(g, w):
                x = numpy.asarray(x)
                assert x.shape == y.shape and x.dtype == y.dtype
                if exact:
                    numpy.testing.assert_array_equal(x, y)
                else:
                    numpy.testing.assert_allclose(x, y, rtol=1e-6, atol=1e-6)
    view = rand((40, 60, 4), dtype)[::2, 1::3, :cn]
    numpy.testing.assert_allclose(cv.mean(view), cv2.mean(numpy.ascontiguousarray(view)), rtol=1e-6)


def test_mean_std_bad_input():
    with pytest.raises(Exception, match=r"\[mnn.cv.meanStdDev\]"):
        cv.meanStdDev(numpy.zeros((0, 3), numpy.uint8))
    with pytest.raises(Exception, match=r"\[mnn.cv.mean\]"):
        cv.mean(img8((9, 9)), numpy.ones((8, 9), numpy.uint8))


# ---- norm, normalize ----

def _old_path(fn):
    """fn() on the mnn.numpy path normalize and norm took before the native one."""
    keep = _hist.DEPTHS
    _hist.DEPTHS = ()
    try:
        return fn()
    finally:
        _hist.DEPTHS = keep


OUTS = [-1, cv2.CV_8U, cv2.CV_8S, cv2.CV_16U, cv2.CV_16S, cv2.CV_32S, cv2.CV_32F, cv2.CV_64F]


@pytest.mark.parametrize("dtype", DEPTHS)
def test_normalize_matches_former_path_and_cv2(dtype, threads):
    shape = (61, 83)
    for cn in (1, 3):
        a = rand(shape + (cn,) if cn > 1 else shape, dtype)
        if dtype in (numpy.float32, numpy.float64):
            a[3, 5] = -a[3, 5]
        m = mask_of(shape)
        for nt in (cv2.NORM_MINMAX, cv2.NORM_INF, cv2.NORM_L1, cv2.NORM_L2):
            alpha, beta = (-3, 250) if nt == cv2.NORM_MINMAX else (100, 0)
            for out in OUTS:
                for mask in ((None, m) if cn == 1 or nt != cv2.NORM_MINMAX else (None,)):
                    for dst in ((None,) if mask is None else (None, "fill")):
                        od = a.dtype if out < 0 else cv2.normalize(a[:1, :1], None, 1, 0, cv2.NORM_INF, dtype=out).dtype
                        d = None if dst is None else numpy.full(a.shape, 7, od)
                        run = lambda: numpy.asarray(cv.normalize(a, None if d is None else d.copy(), alpha, beta, nt, out, mask))
                        got, old = run(), _old_path(run)
                        want = cv2.normalize(a, None if d is None else d.copy(), alpha, beta, nt, out, mask)
                        assert got.dtype == want.dtype and got.shape == want.shape
                        if nt in (cv2.NORM_L1, cv2.NORM_L2) and dtype in (numpy.float32, numpy.float64):
                            # float L1 / L2 norms sum in another order than numpy did: last-bit differences
                            numpy.testing.assert_allclose(got, old, rtol=1e-6, atol=1 if od.kind in "iu" else 1e-12)
                        else:
                            numpy.testing.assert_array_equal(got, old, err_msg=str((nt, out, mask is None)))
                        tol = 1 if od.kind in "iu" else 1e-5 * max(1.0, float(numpy.abs(want).max()))
                        assert numpy.abs(got.astype(numpy.float64) - want).max() <= tol


@pytest.mark.parametrize("dtype", DEPTHS)
def test_norm(dtype, threads):
    for shape in ((7, 5), (97, 131, 3), (301, 257)):
        a = rand(shape, dtype)
        m = mask_of(shape)
        for nt in (cv2.NORM_INF, cv2.NORM_L1, cv2.NORM_L2, cv2.NORM_L2SQR):
            for mask in (None, m):
                got, want = cv.norm(a, nt, mask), cv2.norm(a, nt, mask=mask)
                if dtype in (numpy.float32, numpy.float64, numpy.int32):
                    # cv2 sums small float32 arrays in float32: good to ~1e-8
                    assert abs(got - want) <= 1e-6 * max(1.0, abs(want)), (nt, got, want)
                elif nt == cv2.NORM_INF or nt == cv2.NORM_L1:
                    assert got == want, (nt, got, want)
                else:
                    # mnn sums integer squares exactly; cv2's L2SQR is sqrt(sum) squared again and
                    # its 16-bit sums are float: off by an ulp or two
                    assert abs(got - want) <= 1e-14 * abs(want), (nt, got, want)


def test_normalize_nan_and_constant():
    f = rand((13, 9), numpy.float32)
    f[2, 3] = numpy.nan
    for nt in (cv2.NORM_MINMAX, cv2.NORM_INF):
        got = numpy.asarray(cv.normalize(f, None, 0, 1, nt))
        numpy.testing.assert_array_equal(got, _old_path(lambda: numpy.asarray(cv.normalize(f, None, 0, 1, nt))))
    c = numpy.full((9, 7), 5, numpy.uint8)
    numpy.testing.assert_array_equal(numpy.asarray(cv.normalize(c, None, 0, 255, cv2.NORM_MINMAX)),
                                     cv2.normalize(c, None, 0, 255, cv2.NORM_MINMAX))


@pytest.mark.parametrize("shape", [(1, 1), (7, 5), (97, 131), (301, 257)])
def test_calchist_uint8_two_dims(shape, threads):
    # the 2-D 8-bit kernel (two tables, a spare slot for values out of range): counts exact
    a = img8(shape + (3,))
    g = img8(shape)
    m = mask_of(shape)
    cases = [([a], [0, 1], [32, 32], [0, 256, 0, 256]), ([a], [2, 0], [30, 17], [5, 250, 0, 256]),
             ([a, g], [1, 3], [256, 256], [0, 256, 0, 256]), ([a[::-1, ::2]], [0, 2], [7, 100], [40, 41.5, -3, 300])]
    for imgs, ch, sz, rg in cases:
        for mask in (None, m if imgs[0].shape[:2] == shape else None):
            got = numpy.asarray(cv.calcHist(imgs, ch, mask, sz, rg))
            want = cv2.calcHist(imgs, ch, mask, sz, rg)
            numpy.testing.assert_array_equal(got, want, err_msg=str((ch, sz, rg, mask is None)))


def test_normalize_fused_matches_former_path_on_odd_alpha():
    # the one-kernel normalize takes alpha / beta as doubles: ints beyond 2^53 and values whose
    # float32 scale would overflow keep the two-step path; bool / numpy scalars give the same bits
    a = rand((31, 17), numpy.int16)
    m = mask_of((31, 17))
    for alpha, beta in ((True, 0), (numpy.float32(0.3), numpy.int64(7)), (2 ** 60 + 1, 0), (1e19, -5), (0.1, 1e-3)):
        for nt in (cv2.NORM_MINMAX, cv2.NORM_L2):
            for out in (-1, cv2.CV_32F, cv2.CV_8U):
                run = lambda: numpy.asarray(cv.normalize(a, None, alpha, beta, nt, out, m))
                numpy.testing.assert_array_equal(run(), _old_path(run), err_msg=str((alpha, beta, nt, out)))


# ---- the same bits at every ISA ----

_ISA_PROGRAM = r"""
import json
import numpy, cv2
import mnn, mnn.cv as cv
rng = numpy.random.default_rng(5)
out = []
for shape in ((7, 5), (97, 131), (301, 257)):
    a = rng.integers(0, 256, shape + (3,), dtype=numpy.uint8)
    g = numpy.ascontiguousarray(a[:, :, 1])
    m = (rng.random(shape) > 0.5).astype(numpy.uint8)
    f = (rng.standard_normal(shape) * 50).astype(numpy.float32)
    f[1, 1] = numpy.nan
    for threads in (1, 2):
        mnn.set_num_threads(threads)
        res = [cv.calcHist([a], [0, 2], None, [16, 8], [0, 256, 0, 256]), cv.calcHist([f], [0], m, [40], [-100, 100]),
               cv.calcHist([a], [1, 0], m, [32, 30], [0, 256, 3, 250]),
               cv.threshold(g, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1], cv.threshold(g, 0, 9, 2 | cv2.THRESH_TRIANGLE)[1],
               cv.equalizeHist(g), cv.createCLAHE(3.0, (5, 7)).apply(g)]
        stats = [cv.mean(a), cv.mean(f, m), [numpy.asarray(x).tolist() for x in cv.meanStdDev(f)],
                 [numpy.asarray(x).tolist() for x in cv.meanStdDev(a, mask=m)],
                 cv.norm(f, cv2.NORM_L2), cv.norm(f, cv2.NORM_L1, m), cv.norm(a, cv2.NORM_INF)]
        for nt in (cv2.NORM_MINMAX, cv2.NORM_L2, cv2.NORM_INF, cv2.NORM_L1):
            res.append(cv.normalize(f, None, 1, 0, nt))
            res.append(cv.normalize(a, None, 0.5, 3, nt, cv2.CV_32F))
            res.append(cv.normalize(g, None, 0, 100, nt, cv2.CV_16S, m))
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
