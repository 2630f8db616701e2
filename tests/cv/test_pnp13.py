"""The native solvePnPRansac (csrc/ops/cv/robust_pnp*, mnn/cv/_robust_pnp.py).

The native code is a port of the Python implementation in _pnp.py, which stays in the tree as the
reference (_robust_pnp.ENABLED = False runs it). The port must give its bits: the same rvec / tvec
bytes, the same inlier indices, the same exception where the reference raises (the native call
defers to it there). The inliers are also compared with cv2's at the sizes the benchmarks use
(50 / 500 / 2000 points, 30% outliers), the poses within test_calib12.py's tolerance."""
import sys

import numpy
import pytest

cv2 = pytest.importorskip("cv2")
import mnn.cv as mcv  # noqa: E402
import mnn.numpy as mnp  # noqa: E402
from mnn import _core  # noqa: E402
from mnn.cv import _robust_pnp  # noqa: E402

from helpers import run_under_isa  # noqa: E402

# Python 3.12's sum() of floats is compensated; the reference's sums (and the port) are 3.11's
# left folds, so on 3.12+ the two agree only to rounding
bitwise = pytest.mark.skipif(sys.version_info >= (3, 12), reason="the reference's sum() is compensated on 3.12+")

DISTS = [None, numpy.array([0.1, -0.05, 0.001, -0.002]), numpy.array([-0.2, 0.08, 0.0005, 0.001, -0.01]),
         numpy.array([0.05, -0.01, 0.0, 0.001, 0.002, 0.01, -0.003, 0.001])]


def problem(rng, n, outliers, noise, planar=False, dist=None):
    K = numpy.array([[rng.uniform(400, 900), 0, rng.uniform(300, 340)],
                     [0, rng.uniform(400, 900), rng.uniform(220, 260)], [0, 0, 1]])
    obj = rng.uniform(-1, 1, (n, 3))
    if planar:
        obj[:, 2] = 0
    rv = rng.normal(0, 0.4, 3)
    tv = numpy.array([rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.uniform(4, 8)])
    img, _ = cv2.projectPoints(obj, rv, tv, K, dist)
    img = img.reshape(-1, 2) + rng.normal(0, noise, (n, 2))
    k = int(round(outliers * n))
    idx = rng.choice(n, k, replace=False)
    img[idx] = rng.uniform(0, 640, (k, 2))
    return obj, img, K


def outcome(fn, *args, **kw):
    """(retval, then bytes + dtype + shape of each array or None) or (exception type, message)."""
    try:
        r = fn(*args, **kw)
    except Exception as e:  # noqa: BLE001 - the exception itself is compared
        return ("raised", type(e).__name__, str(e))
    out = [bool(r[0])]
    for x in r[1:]:
        a = None if x is None else numpy.asarray(x)
        out.append(None if a is None else (a.tobytes(), a.dtype.str, a.shape))
    return tuple(out)


def native_and_reference(*args, **kw):
    calls = []
    real = _core.cv_solve_pnp_ransac

    def spy(*a):
        r = real(*a)
        calls.append(r is not None)
        return r

    _core.cv_solve_pnp_ransac = spy
    try:
        native = outcome(mcv.solvePnPRansac, *args, **kw)
    finally:
        _core.cv_solve_pnp_ransac = real
    _robust_pnp.ENABLED = False
    try:
        ref = outcome(mcv.solvePnPRansac, *args, **kw)
    finally:
        _robust_pnp.ENABLED = True
    return native, ref, calls


@bitwise
@pytest.mark.parametrize("flags", [cv2.SOLVEPNP_ITERATIVE, cv2.SOLVEPNP_EPNP], ids=["iterative", "epnp"])
@pytest.mark.parametrize("dist", range(4), ids=["nodist", "dist4", "dist5", "dist8"])
def test_bits_equal_reference(flags, dist):
    rng = numpy.random.default_rng(1300 + 10 * flags + dist)
    sizes = [5, 6, 7, 9, 13, 21, 40, 77, 150]
    for it, n in enumerate(sizes):
        obj, img, K = problem(rng, n, [0.0, 0.1, 0.3, 0.5, 0.7][it % 5], [0.0, 0.5, 2.0][it % 3], it % 4 == 3,
                              DISTS[dist])
        if it % 2:
            obj, img = obj.astype(numpy.float32), img.astype(numpy.float32)
        kw = dict(iterationsCount=[100, 30, 500][it % 3], reprojectionError=[8.0, 1.0, 3.0, 0.5, 20.0][it % 5],
                  confidence=[0.99, 0.9, 0.999][it % 3], flags=flags)
        native, ref, calls = native_and_reference(obj, img, K, DISTS[dist], **kw)
        assert calls == [True], (n, kw)  # the native estimator answered (no fallback)
        assert native == ref, (n, kw)


@bitwise
def test_bits_equal_reference_large():
    # the inlier refit (EPnP over hundreds of points, then LM) on larger sets
    rng = numpy.random.default_rng(1399)
    for n, dist in ((600, None), (1000, DISTS[2])):
        obj, img, K = problem(rng, n, 0.3, 0.5, False, dist)
        native, ref, calls = native_and_reference(obj.astype(numpy.float32), img.astype(numpy.float32), K, dist)
        assert calls == [True] and native == ref


@bitwise
def test_argument_forms():
    # float32 / float64, (N, 1, 3) and (1, N, 3), mnn arrays, non-contiguous views, lists: the
    # same points give the same bits as the reference, and as each other
    rng = numpy.random.default_rng(1310)
    obj, img, K = problem(rng, 31, 0.3, 0.5)
    o32, i32 = obj.astype(numpy.float32), img.astype(numpy.float32)
    wide_o, wide_i = numpy.zeros((31, 7)), numpy.zeros((62, 2))
    wide_o[:, 1:7:2], wide_i[::2] = o32, i32
    forms = [(o32, i32), (o32.astype(numpy.float64), i32.astype(numpy.float64)),
             (o32.reshape(-1, 1, 3), i32.reshape(1, -1, 2)), (mnp.asarray(o32), mnp.asarray(i32)),
             (wide_o[:, 1:7:2], wide_i[::2]), (mnp.asarray(wide_o)[:, 1:7:2], mnp.asarray(wide_i)[::2]),
             ([tuple(p) for p in o32.tolist()], [tuple(p) for p in i32.tolist()])]
    first = None
    for o, i in forms:
        native, ref, _ = native_and_reference(o, i, K, None)
        assert native == ref
        first = first or native
        assert native == first


@pytest.mark.parametrize("n", [50, 500, 2000])
def test_inliers_equal_cv2(n):
    rng = numpy.random.default_rng(1320 + n)
    for dist in (None, DISTS[1]):
        obj, img, K = problem(rng, n, 0.3, 0.5, False, dist)
        obj, img = obj.astype(numpy.float32), img.astype(numpy.float32)
        for flags in (cv2.SOLVEPNP_ITERATIVE, cv2.SOLVEPNP_EPNP):
            got = mcv.solvePnPRansac(obj, img, K, dist, flags=flags)
            want = cv2.solvePnPRansac(obj, img, K, dist, flags=flags)
            assert got[0] == want[0] is True
            assert numpy.array_equal(numpy.asarray(got[3]), want[3]) and numpy.asarray(got[3]).dtype == numpy.int32
            numpy.testing.assert_allclose(numpy.asarray(got[1]), want[1], rtol=1e-5, atol=1e-5)
            numpy.testing.assert_allclose(numpy.asarray(got[2]), want[2], rtol=1e-5, atol=1e-5)
            assert numpy.asarray(got[1]).shape == (3, 1) and numpy.asarray(got[1]).dtype == numpy.float64


def test_five_points_and_no_model():
    rng = numpy.random.default_rng(1330)
    obj, img, K = problem(rng, 5, 0.0, 0.0)
    got, want = mcv.solvePnPRansac(obj, img, K, None), cv2.solvePnPRansac(obj, img, K, None)
    assert got[0] and want[0]
    assert numpy.array_equal(numpy.asarray(got[3]), want[3])
    numpy.testing.assert_allclose(numpy.asarray(got[2]), want[2], rtol=1e-6, atol=1e-6)
    # every point an outlier for a tiny threshold: no model, cv2's zeroed pose buffers
    obj, img, K = problem(rng, 30, 1.0, 0.0)
    got = mcv.solvePnPRansac(obj, img, K, None, reprojectionError=1e-3)
    want = cv2.solvePnPRansac(obj, img, K, None, reprojectionError=1e-3)
    assert got[0] is False and want[0] is False and got[3] is None
    # (cv2's pose buffers are left uninitialised here: only their shapes are compared)
    assert not numpy.asarray(got[1]).any() and not numpy.asarray(got[2]).any()
    assert numpy.asarray(got[1]).shape == want[1].shape == numpy.asarray(got[2]).shape == want[2].shape == (3, 1)


@bitwise
def test_fallback_where_reference_raises():
    # inputs on which the Python code raises: the native call defers, and the same error comes out
    rng = numpy.random.default_rng(1340)
    obj, img, K = problem(rng, 20, 0.2, 0.5)
    bad_K = K.copy()
    bad_K[0, 0] = 0.0  # the undistortion divides by fx
    native, ref, calls = native_and_reference(obj, img, bad_K, None)
    assert calls == [False] and native == ref and native[0] == "raised"
    # points that are not finite as float32 (the reference's f32 rounds 1e39 to inf): deferred
    for bad in (1e39, numpy.nan, -numpy.inf):
        odd = obj.copy()
        odd[3, 0] = bad
        native, ref, calls = native_and_reference(odd, img, K, None)
        assert calls == [False] and native == ref
    # a threshold beyond float32 (inf): every finite error is an inlier, natively
    native, ref, calls = native_and_reference(obj, img, K, None, reprojectionError=1e39)
    assert calls == [True] and native == ref and native[0] is True


def test_bad_arguments():
    rng = numpy.random.default_rng(1350)
    obj, img, K = problem(rng, 20, 0.2, 0.5)
    with pytest.raises(Exception, match=r"^\[mnn.cv.solvePnPRansac\]"):
        mcv.solvePnPRansac(obj, img[:10], K, None)
    with pytest.raises(Exception, match=r"^\[mnn.cv.solvePnPRansac\]"):
        mcv.solvePnPRansac(obj, img, K, None, flags=cv2.SOLVEPNP_SQPNP)
    with pytest.raises(Exception, match=r"^\[mnn.cv.solvePnPRansac\]"):
        mcv.solvePnPRansac(obj[:4], img[:4], K, None)
    with pytest.raises(Exception, match=r"^\[mnn.cv.solvePnPRansac\]"):
        mcv.solvePnPRansac(obj.astype(numpy.int32), img, K, None)


_ISA_PROGRAM = """
import json
import numpy
import mnn
import mnn.cv as mcv
rng = numpy.random.default_rng(1360)
out = []
for n in (6, 50, 400):
    for dist in (None, numpy.array([0.1, -0.05, 0.001, -0.002])):
        K = numpy.array([[700.0, 0, 320], [0, 690, 240], [0, 0, 1]])
        obj = rng.uniform(-1, 1, (n, 3))
        img = rng.uniform(0, 640, (n, 2))
        import cv2
        good, _ = cv2.projectPoints(obj, numpy.array([0.1, -0.2, 0.05]), numpy.array([0.1, 0.0, 5.0]), K, dist)
        img[: int(0.7 * n)] = good.reshape(-1, 2)[: int(0.7 * n)]
        for threads in (1, 2):
            mnn.set_num_threads(threads)
            r = mcv.solvePnPRansac(obj, img, K, dist)
            out.append([bool(r[0])] + [None if x is None else numpy.asarray(x).tobytes().hex() for x in r[1:]])
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", [i for i in _core.available_isas() if i != "scalar"])
def test_scalar_isa_gives_the_same_bits(isa):
    # the estimator is plain C++ (no per-ISA kernel, no threads): every target and thread count
    # must still give the scalar build's bytes
    scalar = run_under_isa(_ISA_PROGRAM, "scalar")
    other = run_under_isa(_ISA_PROGRAM, isa)
    assert len(scalar) == len(other) == 12 and sum(r[0] for r in scalar) >= 8
    assert scalar == other
    assert all(scalar[i] == scalar[i + 1] for i in range(0, 12, 2))  # 1 and 2 threads
