"""Session 13's memory-bound calls (mem13) against cv2, on every ISA and at 1 and 2 threads: flip /
rotate 180 (the VBMI row reversal and 32-byte row copies of csrc/backends/cpu/simd/cv/geom_copy.cpp,
widths around their steps, every pixel size), integer absdiff (cv_absdiff_int), and cvtColor's
memo on the direct road."""
import cv2
import numpy as np
import pytest

import mnn
import mnn.cv as mc
from tests.helpers import run_under_isa

# (dtype, channels): pixel sizes 1, 2, 3, 4, 6, 8, 12, 16 (VBMI steps of 192 / E pixels) and 24
# (float64 x 3: the runtime-size loop)
PIXELS = [(np.uint8, 1), (np.uint8, 2), (np.uint8, 3), (np.uint8, 4), (np.uint16, 3), (np.float32, 2),
          (np.int16, 4), (np.float32, 3), (np.float32, 4), (np.float64, 3)]
WIDTHS = [1, 5, 63, 64, 65, 97, 191, 193, 257, 641]


def _img(h, w, dt, c, seed=0):
    rng = np.random.default_rng(seed)
    shape = (h, w) if c == 1 else (h, w, c)
    if np.dtype(dt).kind == "f":
        return rng.standard_normal(shape).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, shape, endpoint=True, dtype=dt)


@pytest.mark.parametrize("dt,c", PIXELS)
@pytest.mark.parametrize("w", WIDTHS)
def test_flip_matches_cv2(dt, c, w):
    a = _img(7, w, dt, c, seed=w)
    for code in (1, -1, 0):
        np.testing.assert_array_equal(np.asarray(mc.flip(a, code)), cv2.flip(a, code))
    np.testing.assert_array_equal(np.asarray(mc.rotate(a, cv2.ROTATE_180)), cv2.rotate(a, cv2.ROTATE_180))


def test_flip_views_and_mnn_inputs():
    base = _img(31, 703, np.uint8, 3, seed=3)
    for a in (base[1:30, 5:650], base[::2, ::-1], base[:, 7:7 + 577]):
        for code in (1, -1):
            want = cv2.flip(np.ascontiguousarray(a), code)
            np.testing.assert_array_equal(np.asarray(mc.flip(a, code)), want)
            np.testing.assert_array_equal(np.asarray(mc.flip(mnn.numpy.asarray(np.ascontiguousarray(a)), code)), want)


def test_flip_threads_same_bytes():
    a = _img(480, 641, np.uint8, 3, seed=5)
    want = cv2.flip(a, 1)
    old = mnn.get_num_threads()
    try:
        for n in (1, 2):
            mnn.set_num_threads(n)
            np.testing.assert_array_equal(np.asarray(mc.flip(a, 1)), want)
            np.testing.assert_array_equal(np.asarray(mc.flip(a, -1)), cv2.flip(a, -1))
    finally:
        mnn.set_num_threads(old)


_PROG = r"""
import hashlib, json, numpy as np, mnn.cv as mc
rng = np.random.default_rng(11)
out = {}
for dt, c in [("uint8", 1), ("uint8", 3), ("uint8", 4), ("uint16", 3), ("float32", 3), ("float32", 4), ("float64", 3)]:
    for w in (63, 193, 641):
        a = rng.integers(0, 256, (9, w, c)).astype(dt)
        for code in (1, -1, 0):
            out[f"{dt}{c}/{w}/{code}"] = hashlib.sha1(np.asarray(mc.flip(a, code)).tobytes()).hexdigest()
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_flip_isa_same_bytes(isa):
    got, ref = run_under_isa(_PROG, isa), run_under_isa(_PROG, "avx512")
    assert len(ref) == 63 and got == ref


# ---- absdiff of 8/16-bit integer images (cv_absdiff_int, csrc/backends/cpu/simd/cv/fastpix.cpp) ----
INT_DEPTHS = [np.uint8, np.int8, np.uint16, np.int16]


@pytest.mark.parametrize("dt", INT_DEPTHS)
@pytest.mark.parametrize("c", [1, 2, 3, 4])
@pytest.mark.parametrize("hw", [(1, 1), (7, 13), (33, 65), (481, 161)])
def test_absdiff_int_matches_cv2(dt, c, hw):
    a, b = _img(*hw, dt, c, seed=1), _img(*hw, dt, c, seed=2)
    want = cv2.absdiff(a, b)
    got = mc.absdiff(a, b)
    assert np.asarray(got).dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(mc.absdiff(mnn.numpy.asarray(a), mnn.numpy.asarray(b))), want)


@pytest.mark.parametrize("dt", INT_DEPTHS)
def test_absdiff_int_extremes_saturate(dt):
    info = np.iinfo(dt)
    vals = np.array([info.min, info.min + 1, -1 if info.min < 0 else 1, 0, 1, info.max - 1, info.max], dtype=dt)
    a, b = np.meshgrid(vals, vals)
    a, b = np.ascontiguousarray(np.tile(a, (3, 5))), np.ascontiguousarray(np.tile(b, (3, 5)))
    np.testing.assert_array_equal(np.asarray(mc.absdiff(a, b)), cv2.absdiff(a, b))
    np.testing.assert_array_equal(np.asarray(mc.absdiff(b, a)), cv2.absdiff(b, a))


def test_absdiff_int_views_and_mixed_operands():
    base, other = _img(40, 90, np.uint8, 3, seed=4), _img(40, 90, np.uint8, 3, seed=5)
    a, b = base[3:37, 10:81], other[::-1][3:37, 9:80]
    want = cv2.absdiff(np.ascontiguousarray(a), np.ascontiguousarray(b))
    np.testing.assert_array_equal(np.asarray(mc.absdiff(a, b)), want)
    np.testing.assert_array_equal(np.asarray(mc.absdiff(mnn.numpy.asarray(np.ascontiguousarray(a)), b)), want)
    with pytest.raises(Exception, match=r"\[mnn\.cv\.absdiff\]"):
        mc.absdiff(base, other[:, :89])  # sizes differ: cv2 refuses too


def test_absdiff_int_threads_same_bytes():
    a, b = _img(1080, 641, np.int16, 3, seed=6), _img(1080, 641, np.int16, 3, seed=7)
    want = cv2.absdiff(a, b)
    old = mnn.get_num_threads()
    try:
        for n in (1, 2):
            mnn.set_num_threads(n)
            np.testing.assert_array_equal(np.asarray(mc.absdiff(a, b)), want)
    finally:
        mnn.set_num_threads(old)


_PROG_ABS = r"""
import hashlib, json, numpy as np, mnn.cv as mc
rng = np.random.default_rng(12)
out = {}
for dt in ("uint8", "int8", "uint16", "int16"):
    info = np.iinfo(dt)
    for w in (63, 641):
        a = rng.integers(info.min, info.max, (9, w, 3), endpoint=True).astype(dt)
        b = rng.integers(info.min, info.max, (9, w, 3), endpoint=True).astype(dt)
        out[f"{dt}/{w}"] = hashlib.sha1(np.asarray(mc.absdiff(a, b)).tobytes()).hexdigest()
print(json.dumps(out))
"""


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_absdiff_int_isa_same_bytes(isa):
    got, ref = run_under_isa(_PROG_ABS, isa), run_under_isa(_PROG_ABS, "avx512")
    assert len(ref) == 8 and got == ref


# ---- cvtColor's memo runs on the direct road (_core.prim_run) ----
CODES = [(cv2.COLOR_BGR2RGB, 3), (cv2.COLOR_BGR2BGRA, 3), (cv2.COLOR_BGRA2BGR, 4), (cv2.COLOR_BGR5652BGR, 2),
         (cv2.COLOR_BGR2GRAY, 3), (cv2.COLOR_GRAY2BGR, 1), (cv2.COLOR_BGR2YCrCb, 3)]


# (cv2 takes BGR565 as uint8 only)
@pytest.mark.parametrize("code,c,dt", [(k, c, dt) for k, c in CODES for dt in (np.uint8, np.float32)
                                       if dt is np.uint8 or k != cv2.COLOR_BGR5652BGR])
def test_cvtcolor_memo_direct(code, c, dt):
    base = _img(37, 131, dt, c, seed=8)
    if dt is np.float32:
        base = np.abs(base) % 1
    views = [base, base[1:36, 3:130], base[::2, ::-1]]
    for img in views:
        want = cv2.cvtColor(img, code)
        for _ in range(3):  # the first call memoises; the later ones take the memo's road
            np.testing.assert_array_equal(np.asarray(mc.cvtColor(img, code)), want)
        m = mnn.numpy.asarray(np.ascontiguousarray(img))
        for _ in range(2):
            np.testing.assert_array_equal(np.asarray(mc.cvtColor(m, code)), want)
    bad = np.zeros((5, 7, 5), dt)  # a channel count cv2 refuses for each of these codes
    with pytest.raises(cv2.error):
        cv2.cvtColor(bad, code)
    with pytest.raises(Exception, match=r"\[mnn\.cv\.cvtColor\]"):
        mc.cvtColor(bad, code)


@pytest.mark.parametrize("code,c", [(cv2.COLOR_BGR2BGRA, 3), (cv2.COLOR_BGR2RGBA, 3), (cv2.COLOR_BGRA2BGR, 4),
                                    (cv2.COLOR_RGBA2BGR, 4), (cv2.COLOR_BGR2RGB, 3), (cv2.COLOR_BGRA2RGBA, 4)])
def test_cvtcolor_perm_1080p(code, c):
    # past color.cpp's streaming footprint (6 MB), where the perm path now stores ordinarily on
    # VBMI hosts: the same bytes either way
    img = _img(1080, 1921, np.uint8, c, seed=9)
    want = cv2.cvtColor(img, code)
    for n in (1, 2):
        old = mnn.get_num_threads()
        try:
            mnn.set_num_threads(n)
            np.testing.assert_array_equal(np.asarray(mc.cvtColor(img, code)), want)
        finally:
            mnn.set_num_threads(old)
