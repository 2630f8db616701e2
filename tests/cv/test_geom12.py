"""Issue 5, session 12's native geometry kernels:

- resize INTER_CUBIC and INTER_LANCZOS4 on uint8 (simd/cv/resize_cubic_u8.cpp): the separable fixed-point arithmetic
  mnn had before, now with SIMD row and column passes. Checked against a numpy model of that
  arithmetic bit for bit (odd sizes, up and down scales, fx / fy, 1 to 5 channels, views, 1 and 2
  threads), against cv2 (exact for 2 and 5 channels, its own code; within 1 for 1, 3 and 4, IPP's),
  and MNN_ISA=scalar against every other ISA. LANCZOS4 is cv2's own code: exact on every channel count.
- warpAffine / warpPerspective INTER_CUBIC on uint8 (warp_cubic.cpp): exact against cv2.
- resize INTER_LINEAR on 16-bit images (IPP's lerps, resize_linear_exact.cpp) and INTER_NEAREST(_EXACT)
  (geom_copy.cpp): exact against cv2.
- flip, transpose, rotate and copyMakeBorder's non-constant borders (cv_geom_copy,
  simd/cv/geom_copy.cpp): exact against cv2 on every depth and pixel size cv2 takes, odd sizes,
  views, 1 and 2 threads, and every ISA.
"""
import json

import numpy
import pytest

cv2 = pytest.importorskip("cv2")

import mnn  # noqa: E402
import mnn.cv as cv  # noqa: E402

from helpers import run_under_isa  # noqa: E402

RNG = numpy.random.default_rng(1212)


@pytest.fixture(params=[1, 2])
def threads(request):
    old = mnn.get_num_threads() if hasattr(mnn, "get_num_threads") else 1
    mnn.set_num_threads(request.param)
    yield request.param
    mnn.set_num_threads(old)


def _u8(shape):
    return RNG.integers(0, 256, shape, dtype=numpy.uint8)


# ---- resize INTER_CUBIC uint8: a numpy model of the kernel's arithmetic ----

def _axis(ssize, dsize, scale):
    f32 = numpy.float32
    A = f32(-0.75)
    idx = numpy.zeros((dsize, 4), numpy.int64)
    iw = numpy.zeros((dsize, 4), numpy.int64)
    for d in range(dsize):
        f = f32((d + 0.5) * scale - 0.5)
        s = int(numpy.floor(f))
        x = f32(f - f32(s))
        one = f32(1)
        c0 = ((A * (x + one) - f32(5) * A) * (x + one) + f32(8) * A) * (x + one) - f32(4) * A
        c1 = ((A + f32(2)) * x - (A + f32(3))) * x * x + one
        c2 = ((A + f32(2)) * (one - x) - (A + f32(3))) * (one - x) * (one - x) + one
        c3 = one - c0 - c1 - c2
        for k, c in enumerate((c0, c1, c2, c3)):
            idx[d, k] = min(max(s - 1 + k, 0), ssize - 1)
            iw[d, k] = int(numpy.rint(f32(c * f32(2048))))
    return idx, iw


def _cubic_model(src, dw, dh, isx, isy):
    img = src if src.ndim == 3 else src[:, :, None]
    sh, sw, cn = img.shape
    xi, xw = _axis(sw, dw, 1.0 / isx)
    yi, yw = _axis(sh, dh, 1.0 / isy)
    rows = (img.astype(numpy.int64)[:, xi, :] * xw[None, :, :, None]).sum(axis=2)  # sh x dw x cn, exact ints
    rows = rows.reshape(sh, dw * cn)
    rw = dw * cn
    vec_end = rw - rw % 8
    out = numpy.empty((dh, rw), numpy.uint8)
    sc = numpy.float32(1.0 / (2048.0 * 2048.0))
    for y in range(dh):
        r = [rows[yi[y, k]] for k in range(4)]
        f = [numpy.float32(numpy.float32(yw[y, k]) * sc) for k in range(4)]
        v = r[3][:vec_end].astype(numpy.float32) * f[3]
        for k in (2, 1, 0):
            v = r[k][:vec_end].astype(numpy.float32) * f[k] + v
        out[y, :vec_end] = numpy.clip(numpy.rint(v), 0, 255).astype(numpy.uint8)
        t = sum(r[k][vec_end:] * yw[y, k] for k in range(4))
        out[y, vec_end:] = numpy.clip((t + (1 << 21)) >> 22, 0, 255)
    out = out.reshape(dh, dw, cn)
    return out if src.ndim == 3 else out[:, :, 0]


CUBIC_SIZES = [(7, 9), (23, 37), (61, 45), (4, 4), (2, 3), (1, 1), (1, 17)]


@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("hw", CUBIC_SIZES)
def test_cubic_u8_matches_the_model_and_cv2(cn, hw, threads):
    h, w = hw
    src = _u8((h, w, cn) if cn > 1 else (h, w))
    for dh, dw in ((h * 3 + 1, w * 2 + 5), (max(1, h // 2), max(1, w // 3)), (h + 2, max(1, w - 1)), (5, 40)):
        got = numpy.asarray(cv.resize(src, (dw, dh), interpolation=cv2.INTER_CUBIC))
        numpy.testing.assert_array_equal(got, _cubic_model(src, dw, dh, dw / w, dh / h))
        ref = cv2.resize(src, (dw, dh), interpolation=cv2.INTER_CUBIC)
        assert got.shape == ref.shape
        diff = numpy.abs(got.astype(int) - ref.astype(int))
        if cn in (2, 5) or min(h, w) < 4:
            assert diff.max() == 0  # cv2's own code (IPP takes 1, 3, 4 channels of 4x4 and up)
        else:
            assert diff.max() <= 1


def test_cubic_u8_fx_fy_views_and_large(threads):
    src = _u8((241, 331, 3))
    view = src[3:200:2, 5:300:3]  # non-contiguous rows and columns
    got = numpy.asarray(cv.resize(view, None, fx=1.7, fy=0.6, interpolation=cv2.INTER_CUBIC))
    h, w = view.shape[:2]
    dw, dh = int(round(w * 1.7)), int(round(h * 0.6))
    numpy.testing.assert_array_equal(got, _cubic_model(numpy.ascontiguousarray(view), dw, dh, 1.7, 0.6))
    big = numpy.asarray(cv.resize(src, (403, 517), interpolation=cv2.INTER_CUBIC))
    numpy.testing.assert_array_equal(big, _cubic_model(src, 403, 517, 403 / 331, 517 / 241))
    ref = cv2.resize(src, (403, 517), interpolation=cv2.INTER_CUBIC)
    assert numpy.abs(big.astype(int) - ref.astype(int)).max() <= 1


@pytest.mark.parametrize("cn", [1, 2, 3, 4, 5])
def test_lanczos4_u8_exact(cn, threads):
    # the same kernel with 8 taps and cv2's fixed-point column pass: cv2's own code, exact
    for h, w in CUBIC_SIZES + [(97, 131)]:
        src = _u8((h, w, cn) if cn > 1 else (h, w))
        for s in (src, src[::-1, 1:] if w > 1 else src):
            sh, sw = s.shape[:2]
            for dh, dw in ((sh * 3 + 1, sw * 2 + 5), (max(1, sh // 2), max(1, sw // 3)), (sh + 2, max(1, sw - 1)), (5, 40)):
                _eq(cv.resize(s, (dw, dh), interpolation=cv2.INTER_LANCZOS4),
                    cv2.resize(s, (dw, dh), interpolation=cv2.INTER_LANCZOS4))
    big = _u8((301, 411, 3))
    _eq(cv.resize(big, None, fx=0.37, fy=0.53, interpolation=cv2.INTER_LANCZOS4),
        cv2.resize(big, None, fx=0.37, fy=0.53, interpolation=cv2.INTER_LANCZOS4))


# ---- resize INTER_LINEAR on 16-bit images (IPP's lerps, SIMD row pass in resize_linear_exact.cpp) ----

@pytest.mark.parametrize("dtype", ["uint16", "int16"])
@pytest.mark.parametrize("cn", [1, 3, 4])
def test_linear_16bit_exact(dtype, cn, threads):
    info = numpy.iinfo(dtype)
    for h, w in ((5, 7), (37, 53), (64, 97), (121, 203)):
        shape = (h, w, cn) if cn > 1 else (h, w)
        a = RNG.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
        for src in (a, a[1:, 2:] if h > 5 else a):
            sh, sw = src.shape[:2]
            for dsize in ((sw // 2, sh // 2), (sw // 3 + 1, sh // 2 + 1), (sw * 2 + 1, sh * 3 - 1), (sw + 5, max(2, sh - 3))):
                _eq(cv.resize(src, dsize), cv2.resize(src, dsize))


# ---- resize INTER_NEAREST / INTER_NEAREST_EXACT (geom_copy.cpp's pixel gather) ----

@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64", "int64", "float16"])
def test_nearest_exact(dtype, threads):
    for shape in ((1, 1), (3, 5, 3), (17, 23), (33, 70, 2), (64, 48, 3), (101, 53, 4), (29, 31, 5)):
        a = _img(shape, dtype)
        h, w = shape[:2]
        for src in (a, a[::-1, 1:] if w > 1 else a):
            sh, sw = src.shape[:2]
            for dsize in ((sw * 5 // 4 + 1, sh * 5 // 4 + 1), (max(1, sw // 3), max(1, sh // 2)), (sw * 3, sh + 1), (1, 1)):
                for interp in (cv2.INTER_NEAREST, cv2.INTER_NEAREST_EXACT):
                    _eq(cv.resize(src, dsize, interpolation=interp), cv2.resize(src, dsize, interpolation=interp))
        _eq(cv.resize(a, None, fx=1.37, fy=0.61, interpolation=cv2.INTER_NEAREST),
            cv2.resize(a, None, fx=1.37, fy=0.61, interpolation=cv2.INTER_NEAREST))


# ---- warpAffine / warpPerspective INTER_CUBIC uint8 (warp_cubic.cpp: AVX-512 inside pixels) ----

@pytest.mark.parametrize("cn", [1, 3, 4])
def test_warp_cubic_u8_exact(cn, threads):
    base = _u8((483, 641, cn) if cn > 1 else (483, 641))
    M = cv2.getRotationMatrix2D((320, 240), 15, 1.07)
    P = numpy.array([[1, 0.1, 5], [0.05, 1, 3], [1e-4, 2e-4, 1]])
    for a in (base, base[5:400:2, 3:600]):
        h, w = a.shape[:2]
        for border in (cv2.BORDER_CONSTANT, cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT_101):
            _eq(cv.warpAffine(a, M, (w + 3, h), flags=cv2.INTER_CUBIC, borderMode=border),
                cv2.warpAffine(a, M, (w + 3, h), flags=cv2.INTER_CUBIC, borderMode=border))
        _eq(cv.warpPerspective(a, P, (w, h + 5), flags=cv2.INTER_CUBIC),
            cv2.warpPerspective(a, P, (w, h + 5), flags=cv2.INTER_CUBIC))
    # a source whose last row's last pixels are inside taps: the row loads stop at the image's end
    small = _u8((6, 5, cn) if cn > 1 else (6, 5))
    S = numpy.array([[1.0, 0, 0.9], [0, 1.0, 0.95]])
    _eq(cv.warpAffine(small, S, (5, 6), flags=cv2.INTER_CUBIC), cv2.warpAffine(small, S, (5, 6), flags=cv2.INTER_CUBIC))


# ---- flip / transpose / rotate / copyMakeBorder ----

DTYPES = ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"]


def _img(shape, dtype):
    if dtype in ("float16", "float32", "float64"):
        return RNG.standard_normal(shape).astype(dtype)
    info = numpy.iinfo(dtype)
    return RNG.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def _shapes(cns):
    for h, w in ((1, 1), (1, 7), (9, 1), (17, 23), (33, 70), (64, 48), (101, 53)):
        for cn in cns:
            yield (h, w) if cn == 0 else (h, w, cn)


def _eq(got, ref):
    got = numpy.asarray(got)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    numpy.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dtype", DTYPES)
def test_flip_rotate_transpose_exact(dtype, threads):
    for shape in _shapes([0, 1, 2, 3, 4]):
        a = _img(shape, dtype)
        for code in (0, 1, -1, 5, -3):
            _eq(cv.flip(a, code), cv2.flip(a, code))
        esz = (shape[2] if len(shape) == 3 else 1) * a.itemsize
        if esz in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32):
            _eq(cv.transpose(a), cv2.transpose(a))
            for code in (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE):
                _eq(cv.rotate(a, code), cv2.rotate(a, code))
        else:
            _eq(cv.rotate(a, cv2.ROTATE_180), cv2.rotate(a, cv2.ROTATE_180))


def test_flip_rotate_views_large_and_repeated(threads):
    base = _u8((1083, 1931, 3))
    for a in (base, base[7:1000:3, 11:1900:2], base[:, ::-1], base[5:600, 3:500, :2], base[:, :, 0], base[::2, ::2, 1]):
        for _ in range(2):  # the second call takes the memo
            for code in (0, 1, -1):
                _eq(cv.flip(a, code), cv2.flip(a, code))
            _eq(cv.transpose(a), cv2.transpose(a))
            for code in (0, 1, 2):
                _eq(cv.rotate(a, code), cv2.rotate(a, code))


def test_mnn_input_and_bad_args():
    a = _u8((37, 41, 3))
    m = mnn.numpy.asarray(a)
    _eq(cv.flip(m, 1), cv2.flip(a, 1))
    _eq(cv.rotate(m, 0), cv2.rotate(a, 0))
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.rotate\]"):
        cv.rotate(a, 7)
    with pytest.raises(TypeError, match=r"^\[mnn\.cv\.flip\]"):
        cv.flip(a, 1.5)
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.transpose\]"):
        cv.transpose(_u8((5, 6, 5)))
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.copyMakeBorder\]"):
        cv.copyMakeBorder(a, -1, 0, 0, 0, cv2.BORDER_REFLECT)
    with pytest.raises(ValueError, match=r"^\[mnn\.cv\.copyMakeBorder\]"):
        mnn._core.prim("cv_geom_copy", [m], [6, 1, 1, 1, 1, 9], [])
    with pytest.raises(ValueError, match=r"^\[mnn\.cv\.flip\]"):
        mnn._core.prim("cv_geom_copy", [m], [11], [])


BORDERS = [cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT, cv2.BORDER_WRAP, cv2.BORDER_REFLECT_101,
           cv2.BORDER_REFLECT_101 | cv2.BORDER_ISOLATED]


@pytest.mark.parametrize("dtype", DTYPES)
def test_copy_make_border_exact(dtype, threads):
    for shape in _shapes([0, 1, 2, 3, 4, 5]):
        a = _img(shape, dtype)
        for bt in BORDERS:
            for t, b, l, r in ((10, 10, 10, 10), (0, 3, 7, 0), (25, 1, 0, 31), (0, 0, 0, 0)):
                _eq(cv.copyMakeBorder(a, t, b, l, r, bt), cv2.copyMakeBorder(a, t, b, l, r, bt))


def test_copy_make_border_views_bool_half_and_constant(threads):
    base = _u8((481, 643, 3))
    for a in (base, base[3:400:2, 1:600:3], base[:, :, 1]):
        for _ in range(2):
            _eq(cv.copyMakeBorder(a, 10, 10, 10, 10, cv2.BORDER_REFLECT_101),
                cv2.copyMakeBorder(a, 10, 10, 10, 10, cv2.BORDER_REFLECT_101))
            _eq(cv.copyMakeBorder(a, 3, 2, 5, 4, cv2.BORDER_CONSTANT, value=(7, 8, 9)),
                cv2.copyMakeBorder(a, 3, 2, 5, 4, cv2.BORDER_CONSTANT, value=(7, 8, 9)))
    h = RNG.standard_normal((13, 17, 3)).astype(numpy.float16)
    got = numpy.asarray(cv.copyMakeBorder(h, 4, 5, 6, 7, cv2.BORDER_WRAP))
    assert got.dtype == numpy.float16
    numpy.testing.assert_array_equal(got, numpy.pad(h, ((4, 5), (6, 7), (0, 0)), mode="wrap"))
    bo = RNG.integers(0, 2, (11, 9)).astype(bool)
    got = numpy.asarray(cv.copyMakeBorder(bo, 2, 3, 4, 5, cv2.BORDER_REFLECT))
    numpy.testing.assert_array_equal(got, numpy.pad(bo, ((2, 3), (4, 5)), mode="symmetric"))
    with pytest.raises(cv.error, match=r"^\[mnn\.cv\.copyMakeBorder\]"):
        cv.copyMakeBorder(numpy.zeros((0, 5), numpy.uint8), 1, 1, 1, 1, cv2.BORDER_REFLECT)


_ISA_PROGRAM = r"""
import json, hashlib
import numpy
import mnn, mnn.cv as cv
rng = numpy.random.default_rng(12)
out = []
for nt in (1, 2):
    mnn.set_num_threads(nt)
    for shape in ((5, 7), (23, 37, 3), (61, 45, 4), (33, 29, 2), (19, 13, 5), (240, 321, 3), (97, 131)):
        a = rng.integers(0, 256, shape, dtype=numpy.uint8)
        h, w = shape[:2]
        for dsize in ((w * 2 + 3, h * 3 - 1), (w // 2 + 1, h // 3 + 1), (w + 9, h)):
            out.append(numpy.asarray(cv.resize(a, dsize, interpolation=2)))
            out.append(numpy.asarray(cv.resize(a, dsize, interpolation=4)))
        for code in (0, 1, -1):
            out.append(numpy.asarray(cv.flip(a, code)))
        if len(shape) == 2 or shape[2] != 5:
            out.append(numpy.asarray(cv.transpose(a)))
            for code in (0, 2):
                out.append(numpy.asarray(cv.rotate(a, code)))
        out.append(numpy.asarray(cv.copyMakeBorder(a, 9, 3, 11, 2, 4)))
        if len(shape) == 2 or shape[2] <= 4:
            M = numpy.array([[0.93, 0.31, -2.5], [-0.27, 1.08, 3.25]])
            for border in (0, 1, 4):
                out.append(numpy.asarray(cv.warpAffine(a, M, (w + 7, h - 1), flags=2, borderMode=border, borderValue=(9, 99, 199, 5))))
        for interp in (0, 6):
            out.append(numpy.asarray(cv.resize(a, (w * 5 // 4 + 1, h * 3 // 2), interpolation=interp)))
            out.append(numpy.asarray(cv.resize(a, (w // 2 + 1, h // 3 + 1), interpolation=interp)))
        if len(shape) == 2 or shape[2] in (1, 3, 4):
            for dt in ("uint16", "int16"):
                b = (a.astype(numpy.int32) * 257 - (32768 if dt == "int16" else 0)).astype(dt)
                for dsize in ((w // 2 + 1, h // 2), (w * 2 - 1, h + 3), (w - 3, h * 2)):
                    out.append(numpy.asarray(cv.resize(b, dsize)))
                out.append(numpy.asarray(cv.resize(b, None, fx=0.7, fy=1.3)))
print(json.dumps([hashlib.sha1(numpy.ascontiguousarray(x).tobytes()).hexdigest() for x in out]))
"""


@pytest.mark.parametrize("isa", [i for i in mnn._core.available_isas() if i != "scalar"])
def test_scalar_isa_gives_the_same_bits(isa):
    scalar = run_under_isa(_ISA_PROGRAM, "scalar")
    other = run_under_isa(_ISA_PROGRAM, isa)
    assert len(scalar) == len(other) > 100
    diff = [i for i, (a, b) in enumerate(zip(scalar, other)) if a != b]
    assert not diff, f"cases {diff} differ between MNN_ISA=scalar and MNN_ISA={isa}"
