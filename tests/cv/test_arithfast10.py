"""Issue 5: the native cv_arith fast path (add, subtract, absdiff, multiply, divide, addWeighted,
convertScaleAbs for same-depth, unmasked images and images against Scalars) is bit-exact with
cv2 5: odd sizes, widths 1..17 (SIMD tails), 1-4 channels, non-contiguous views, Scalars in both
positions, NaN / inf / -0.0 for floats, saturation extremes; and MNN_ISA=scalar gives the same
bits as the default ISA (in a subprocess, as the ISA is chosen at start-up)."""
import json
import os
import subprocess
import sys

import cv2
import numpy
import pytest

import mnn
import mnn.cv as cv

DEPTHS = ["uint8", "int8", "uint16", "int16", "float32", "float64"]
SHAPES = [(97, 131), (97, 131, 1), (31, 23, 2), (19, 29, 3), (7, 11, 4)] + [(3, w) for w in range(1, 18)] + \
         [(2, w, 3) for w in (1, 5, 8, 11, 17)] + [(181, 187), (67, 181, 3)]  # the last: > 32768 elements
SCALES = [1.0, 0.5, 0.37, 3.3, -2.0, 1 + 2.0 ** -24, 1 + 2.0 ** -21]
WEIGHTS = [(0.3, 0.7, 1.5), (0.5, 0.5, 0.0), (1.7, -0.3, -12.25), (1 / 3, 2 / 3, 0.5), (0.3, 0.7, 1e-30),
           (3e7, -1e-7, 0.5)]
SCALARS = [3, -7.5, 2.5, 300.5, 1e10, -1e10, (1, 2, 3, 4), (0.5, -1.5), (70000.0, -3.0, 2.5)]


def _draw(rng, dtype, shape, view=False):
    big = tuple(shape[:1]) + (shape[1] * 2 + 1,) + tuple(shape[2:]) if view else shape
    if dtype.startswith("float"):
        x = (rng.standard_normal(big) * 100).astype(dtype)
        flat = x.reshape(-1)
        with numpy.errstate(over="ignore"):  # some of these overflow float32 to inf, on purpose
            flat[::7] = rng.standard_normal(flat[::7].shape) * 3e38 if dtype == "float32" else 1e300
        flat[1::11], flat[2::13], flat[3::17], flat[4::19], flat[5::23] = 0.0, -0.0, numpy.nan, numpy.inf, -numpy.inf
        flat[6::29] = 1e-40 if dtype == "float32" else 1e-310  # subnormal
    else:
        info = numpy.iinfo(dtype)
        x = rng.integers(int(info.min), int(info.max), big, endpoint=True).astype(dtype)
        flat = x.reshape(-1)
        flat[::5], flat[1::7], flat[2::9] = info.max, info.min, 0
    return x[:, 1::2] if view else x


def _same(got, want):
    """Bit equality, any NaN matching any NaN (cv2's NaN payloads are not part of its contract)."""
    got, want = numpy.asarray(got), numpy.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind == "f":
        it = {4: numpy.uint32, 8: numpy.uint64}[got.itemsize]
        both_nan = numpy.isnan(got) & numpy.isnan(want)
        return bool(numpy.all((got.view(it) == want.view(it)) | both_nan))
    return numpy.array_equal(got, want)


def _cases(rng, depths=DEPTHS, shapes=SHAPES):
    """(name, mnn thunk, cv2 thunk) for every op on every depth and shape."""
    for dtype in depths:
        for si, shape in enumerate(shapes):
            view = si % 3 == 1
            a, b = _draw(rng, dtype, shape, view), _draw(rng, dtype, shape, view)
            tag = f"{dtype}{shape}{'v' if view else ''}"
            for op in ("add", "subtract", "absdiff"):
                yield f"{op} {tag}", (lambda op=op, a=a, b=b: (getattr(cv, op)(a, b), getattr(cv2, op)(a, b)))
            for s in SCALES[:3] if si > 4 else SCALES:
                yield f"multiply s={s} {tag}", (lambda s=s, a=a, b=b: (cv.multiply(a, b, scale=s), cv2.multiply(a, b, scale=s)))
                yield f"divide s={s} {tag}", (lambda s=s, a=a, b=b: (cv.divide(a, b, scale=s), cv2.divide(a, b, scale=s)))
            for w in WEIGHTS[:2] if si > 4 else WEIGHTS:
                yield f"addWeighted {w} {tag}", (lambda w=w, a=a, b=b: (cv.addWeighted(a, w[0], b, w[1], w[2]),
                                                                       cv2.addWeighted(a, w[0], b, w[1], w[2])))
            for al, be in ((1.0, 0.0), (0.37, 12.5), (-2.0, -0.5), (1e-3, 2.5), (3e5, 0.1)):
                yield f"convertScaleAbs {al},{be} {tag}", (lambda al=al, be=be, a=a: (
                    cv.convertScaleAbs(a, alpha=al, beta=be), cv2.convertScaleAbs(a, alpha=al, beta=be)))
            if si > 4:
                continue
            for v in SCALARS:
                for op in ("add", "subtract", "absdiff", "multiply", "divide"):
                    yield f"{op}(img, {v}) {tag}", (lambda op=op, v=v, a=a: (getattr(cv, op)(a, v), getattr(cv2, op)(a, v)))
                    yield f"{op}({v}, img) {tag}", (lambda op=op, v=v, a=a: (getattr(cv, op)(v, a), getattr(cv2, op)(v, a)))
            yield f"multiply(img, 2.5, scale=0.3) {tag}", (lambda a=a: (cv.multiply(a, 2.5, scale=0.3), cv2.multiply(a, 2.5, scale=0.3)))
            yield f"divide(3.0, img, scale=0.3) {tag}", (lambda a=a: (cv.divide(3.0, a, scale=0.3), cv2.divide(3.0, a, scale=0.3)))


def _sweep(seed=5, depths=DEPTHS, shapes=SHAPES):
    rng = numpy.random.default_rng(seed)
    bad, n = [], 0
    for name, run in _cases(rng, depths, shapes):
        got, want = run()
        n += 1
        if not _same(got, want):
            bad.append(name)
    return n, bad


@pytest.mark.parametrize("dtype", DEPTHS)
def test_native_matches_cv2(dtype):
    n, bad = _sweep(depths=[dtype])
    assert n > 300
    assert not bad, f"{len(bad)} of {n} cases differ from cv2, first: {bad[:8]}"


def test_native_path_is_taken():
    """The routed cases reach the cv_arith primitive; other depths keep the Python path."""
    from mnn.cv import _core_ops
    a = numpy.arange(12, dtype=numpy.uint8).reshape(3, 4)
    assert _core_ops._native_pair("addWeighted", a, a, (0.5, 0.5, 0.0)) is not None
    assert _core_ops._native_scalar("add", a, (1, 2)) is not None
    assert _core_ops._native_pair("add", a.astype(numpy.int32), a.astype(numpy.int32)) is None
    assert _core_ops._native_pair("add", a, a.astype(numpy.int16)) is None
    assert numpy.array_equal(numpy.asarray(cv.addWeighted(a, 0.5, a, 0.5, 0.0)), cv2.addWeighted(a, 0.5, a, 0.5, 0.0))


def test_dst_and_fallbacks():
    rng = numpy.random.default_rng(1)
    a, b = _draw(rng, "uint8", (9, 13, 3)), _draw(rng, "uint8", (9, 13, 3))
    dst = mnn.numpy.zeros((9, 13, 3), dtype="uint8")
    r = cv.add(a, b, dst)
    assert r is dst and numpy.array_equal(numpy.asarray(dst), cv2.add(a, b))
    m = (rng.integers(0, 2, (9, 13)) * 255).astype(numpy.uint8)
    assert numpy.array_equal(numpy.asarray(cv.add(a, b, mask=m)), cv2.add(a, b, mask=m))
    assert numpy.array_equal(numpy.asarray(cv.multiply(a, b, dtype=cv2.CV_16U)), cv2.multiply(a, b, dtype=cv2.CV_16U))
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.add\]"):
        cv.add(a, b[:, :5])
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.addWeighted\]"):
        cv.addWeighted(a, 0.5, b.astype(numpy.int16), 0.5, 0)


def test_no_ieee_warnings():
    """cv2 warns about nothing: x / 0 and inf - inf in the native kernel leave no numpy warning."""
    import warnings
    x = numpy.array([[0.0, 1.0, numpy.inf]], dtype=numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = numpy.asarray(cv.divide(x, numpy.zeros_like(x)))
        r2 = numpy.asarray(cv.subtract(x, x))
    assert _same(r, cv2.divide(x, numpy.zeros_like(x))) and _same(r2, cv2.subtract(x, x))


_ISA_PROGRAM = """
import json, sys
sys.path.insert(0, {tests!r})
import test_arithfast10 as t
print(json.dumps(t._sweep(seed=9, shapes=t.SHAPES[:2] + t.SHAPES[5:12] + t.SHAPES[-2:])))
"""


@pytest.mark.parametrize("isa", ["scalar"])
def test_scalar_isa_matches_cv2(isa):
    env = dict(os.environ, MNN_ISA=isa)
    # the subprocess imports the mnn under test, not whichever one site-packages holds
    src = os.path.dirname(os.path.dirname(mnn.__file__))
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    prog = _ISA_PROGRAM.format(tests=os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", prog], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    n, bad = json.loads(out.stdout.strip().splitlines()[-1])
    assert n > 1000
    assert not bad, f"under MNN_ISA={isa}, {len(bad)} of {n} cases differ from cv2, first: {bad[:8]}"
