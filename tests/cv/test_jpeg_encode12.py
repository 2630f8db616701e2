"""The JPEG encoder's output bytes are pinned (session 12 rewrote it for speed: fused MCU rows, AVX2
colour conversion and FDCT, reciprocal quantization, a new bit writer). EXPECTED holds hashes of the
bytes the previous encoder (main at a573810) wrote for deterministic inputs built here, over every
quality, 4:2:0/4:2:2/4:4:4, gray, BGRA, odd sizes down to 1x1 and views; every ISA and thread count
must reproduce them. 4:4:4 and gray files are also byte-identical to cv2's (libjpeg-turbo); 4:2:x ones
differ from cv2 at some edges (its downsampling pads differently), which these hashes keep as they were."""
import hashlib
import json

import cv2
import numpy as np
import pytest

import mnn
import mnn.cv as mcv
from helpers import run_under_isa

skdata = pytest.importorskip("skimage.data")

PROGRAM = r'''
import hashlib, json, sys
import numpy as np, cv2
import mnn, mnn.cv as mcv
from skimage import data as skdata


def cases():
    rng = np.random.default_rng(12)
    noise = rng.integers(0, 256, (97, 131, 3), dtype=np.uint8)
    yy, xx = np.mgrid[0:97, 0:131]
    smooth = np.dstack([(xx * 2) % 256, (yy * 3 + xx) % 256, (xx * yy) % 256]).astype(np.uint8)
    mixed = cv2.addWeighted(cv2.GaussianBlur(noise, (5, 5), 1.5), 0.7, smooth, 0.3, 0)
    checker = ((xx + yy) % 2 * 255).astype(np.uint8)
    photo = np.ascontiguousarray(skdata.astronaut()[::2, ::2, ::-1])  # 256x256 BGR
    samplings = {"420": [], "422": [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_422],
                 "444": [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]}
    Q = lambda q: [cv2.IMWRITE_JPEG_QUALITY, q]
    out = []
    for s, sp in samplings.items():  # every quality on a mixed smooth/noisy image
        out.append((f"allq {s}", [(mixed, Q(q) + sp) for q in range(1, 101)]))
    out.append(("allq gray", [(mixed[:, :, 1].copy(), Q(q)) for q in range(1, 101)]))
    out.append(("allq bgra", [(np.dstack([mixed, noise[:, :, :1]]), Q(q)) for q in range(1, 101, 7)]))
    sizes = [(1, 1), (7, 9), (8, 8), (9, 7), (16, 16), (17, 33), (15, 1), (1, 40), (97, 131)]
    for s, sp in samplings.items():
        for q in (1, 50, 95, 100):
            out.append((f"sizes {s} q{q}", [(mixed[:h, :w], Q(q) + sp) for h, w in sizes] +
                        [(mixed[:h, :w, 0], Q(q)) for h, w in sizes]))
        out.append((f"noise {s}", [(noise, Q(q) + sp) for q in (30, 75, 95, 100)]))
        out.append((f"photo {s}", [(photo, Q(q) + sp) for q in (10, 75, 90, 95, 100)]))
        out.append((f"extremes {s}", [(np.zeros((33, 47, 3), np.uint8), Q(95) + sp),
                                      (np.full((33, 47, 3), 255, np.uint8), Q(95) + sp),
                                      (np.dstack([checker, 255 - checker, checker]), Q(100) + sp),
                                      (np.dstack([checker, 255 - checker, checker]), Q(1) + sp)]))
        out.append((f"views {s}", [(mixed[::2, ::3], Q(95) + sp), (mixed[:, ::-1], Q(75) + sp),
                                   (photo[10:200, 5:250:2], Q(95) + sp), (mixed[1:, 1:, 0], Q(90))]))
    out.append(("extremes gray", [(checker, Q(100)), (checker, Q(1)), (np.zeros((5, 3), np.uint8), Q(95)),
                                  (photo[:, :, 2].copy(), Q(95))]))
    # Every DCT basis function's sign pattern at full swing (0/255) and inverted: the FDCT's largest
    # intermediate sums (the 16-bit SIMD path's tightest ranges), quantized with divisors 8 and up.
    c = np.cos((2 * np.arange(8)[:, None] + 1) * np.arange(8)[None, :] * np.pi / 16)  # c[x, u]
    tiles = [np.where(np.outer(c[:, v], c[:, u]) >= 0, 255, 0) for v in range(8) for u in range(8)]
    basis = np.block([[t for t in tiles[i:i + 16]] for i in range(0, 64, 16)]).astype(np.uint8)
    basis = np.vstack([basis, 255 - basis])
    for s, sp in samplings.items():
        out.append((f"basis {s}", [(np.dstack([basis, 255 - basis, basis[::-1]]), Q(q) + sp) for q in (100, 90, 50)]))
    out.append(("basis gray", [(basis, Q(q)) for q in (100, 97, 90, 50, 10)]))
    big = cv2.resize(photo, (1001, 703), interpolation=cv2.INTER_LINEAR)  # many MCU rows: thread splits
    for s, sp in samplings.items():
        out.append((f"big {s}", [(big, Q(95) + sp), (big, Q(75) + sp)]))
    out.append(("big gray", [(big[:, :, 1].copy(), Q(95))]))
    return out



def hashes(threads):
    mnn.set_num_threads(threads)
    res = {}
    for name, items in cases():
        h = hashlib.sha256()
        for img, p in items:
            h.update(np.asarray(mcv.imencode(".jpg", img, p)[1]).tobytes())
        res[name] = h.hexdigest()[:16]
    return res
'''

EXPECTED = {
    "allq 420": "9e3bf7d904c535f4",
    "allq 422": "4440261480c735a9",
    "allq 444": "a058c6198dd4982b",
    "allq gray": "99418e940d50b4af",
    "allq bgra": "4efb10793f7cb2ea",
    "sizes 420 q1": "f1540f69480de63a",
    "sizes 420 q50": "c3e2a0a6bfd2b646",
    "sizes 420 q95": "94431976832efed6",
    "sizes 420 q100": "c126d1bda9ba55bb",
    "noise 420": "37a96e90013e17e2",
    "photo 420": "b5f49566a4461b30",
    "extremes 420": "d155a042566a4721",
    "views 420": "fab61e23be89b582",
    "sizes 422 q1": "5757a4c0cad77524",
    "sizes 422 q50": "bec498daba236998",
    "sizes 422 q95": "26485877386fde50",
    "sizes 422 q100": "529c5642701d035b",
    "noise 422": "11302de48ebd2f1d",
    "photo 422": "8baebd9f6a7f27c6",
    "extremes 422": "47457f0ae636bee2",
    "views 422": "ca762b64c595b610",
    "sizes 444 q1": "e957a2c064ea4947",
    "sizes 444 q50": "42e5cf4f976de690",
    "sizes 444 q95": "ab8bff63f663fb21",
    "sizes 444 q100": "5ad6c1a88b610d52",
    "noise 444": "6b5598ec8be5b3f8",
    "photo 444": "0ba51c8b512d3885",
    "extremes 444": "2cdbe0625301531a",
    "views 444": "b7115015aaf908ba",
    "extremes gray": "cced3712647f015d",
    "basis 420": "b1779474cee493f8",
    "basis 422": "206672e8d9ecfadd",
    "basis 444": "503efa1c984c6f31",
    "basis gray": "78a54d5031380803",
    "big 420": "91defb142e4dd722",
    "big 422": "63226d1592ae64f0",
    "big 444": "c1f2bfa9ec71dcc3",
    "big gray": "42c836adddb3f782",
}

NS = {}
exec(PROGRAM, NS)


@pytest.fixture
def restore_threads():
    n = mnn.get_num_threads()
    yield
    mnn.set_num_threads(n)


@pytest.mark.parametrize("threads", [1, 2])
def test_bytes_unchanged(threads, restore_threads):
    got = NS["hashes"](threads)
    assert got.keys() == EXPECTED.keys()
    bad = {k: v for k, v in got.items() if v != EXPECTED[k]}
    assert not bad, bad


@pytest.mark.parametrize("isa", ["scalar", "avx2", "avx512"])
def test_bytes_unchanged_per_isa(isa):
    got = run_under_isa(PROGRAM + "\nprint(json.dumps(hashes(2)))", isa)
    bad = {k: v for k, v in got.items() if v != EXPECTED[k]}
    assert not bad, (isa, bad)


def test_444_and_gray_equal_cv2_bytes():
    # For these cv2 and mnn agree byte for byte, an independent reference beside the hashes.
    n = 0
    for name, items in NS["cases"]():
        for img, p in items:
            sampling = dict(zip(p[::2], p[1::2])).get(cv2.IMWRITE_JPEG_SAMPLING_FACTOR)
            if img.ndim == 2 or (img.shape[2] == 3 and sampling == cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444):
                mine = np.asarray(mcv.imencode(".jpg", img, p)[1]).tobytes()
                assert mine == cv2.imencode(".jpg", img, p)[1].tobytes(), (name, img.shape, p)
                n += 1
    assert n > 150


def test_large_photo_equals_cv2_444(restore_threads):
    img = np.ascontiguousarray(cv2.resize(skdata.coffee()[:, :, ::-1], (1920, 1080), interpolation=cv2.INTER_AREA))
    p = [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]
    ref = cv2.imencode(".jpg", img, p)[1].tobytes()
    for threads in (1, 2):
        mnn.set_num_threads(threads)
        assert np.asarray(mcv.imencode(".jpg", img, p)[1]).tobytes() == ref


def test_bad_input_still_raises():
    with pytest.raises(Exception, match=r"\[mnn.cv.imencode\]"):
        mcv.imencode(".jpg", np.zeros((4, 4, 2), np.uint8))


def test_output_buffer_growth_in_a_fresh_process():
    # Noise at quality 100 writes ~4x the encoder's first guess of the output size: its per-thread buffer
    # grows several times mid-image (a fresh process, so no earlier call has already grown it).
    prog = r"""
import json, numpy as np, cv2, mnn.cv as mcv
rng = np.random.default_rng(5)
res = []
for shape, p in (((1000, 1200), [cv2.IMWRITE_JPEG_QUALITY, 100]),
                 ((700, 900, 3), [cv2.IMWRITE_JPEG_QUALITY, 100, cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
                                  cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444])):
    img = rng.integers(0, 256, shape, dtype=np.uint8)
    mine = np.asarray(mcv.imencode(".jpg", img, p)[1]).tobytes()
    res.append([len(mine), mine == cv2.imencode(".jpg", img, p)[1].tobytes()])
print(json.dumps(res))
"""
    for isa in ("avx512", "avx2", "scalar"):
        res = run_under_isa(prog, isa)
        assert all(same for _, same in res), (isa, res)
        assert res[0][0] > 1000 * 1200 // 2


def test_reciprocal_quantization_is_exact():
    # jpeg_quant_prepare's divisor-free form, ((a * recip) >> 16) * scale >> 16, restated here and checked
    # against a // d for every quantizer 1..255 (d = 8q) and every a < 2^15 (the DCT keeps a < 2^14).
    a = np.arange(1 << 15, dtype=np.uint64)
    for qv in range(1, 256):
        d = 8 * qv
        s = d.bit_length() - 1
        if d & (d - 1) == 0:
            recip, scale = 1 << 15, 1 << (17 - s)
        else:
            recip, scale = -(-(1 << (16 + s)) // d), 1 << (16 - s)
        assert recip < 1 << 16 and scale < 1 << 16
        got = (((a * recip) >> 16) * scale) >> 16
        np.testing.assert_array_equal(got, a // d, err_msg=f"quantizer {qv}")
