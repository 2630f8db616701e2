"""mnn.cv image codecs against cv2: decoded pixels, round trips both ways, flags, corrupt input."""
import os
import struct

import cv2
import numpy as np
import pytest

import mnn.cv as mcv
from pngmaker import make_png

skdata = pytest.importorskip("skimage.data")

RNG = np.random.default_rng(1234)


def photo(name):
    return np.ascontiguousarray(getattr(skdata, name)()[..., ::-1])


PHOTOS = {n: photo(n) for n in ("astronaut", "chelsea", "coffee")}


def as_np(a):
    return None if a is None else np.asarray(a)


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 99.0 if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def same(mine, ref):
    mine = as_np(mine)
    assert mine is not None and ref is not None
    assert mine.shape == ref.shape and mine.dtype == ref.dtype, (mine.shape, mine.dtype, ref.shape, ref.dtype)
    np.testing.assert_array_equal(mine, ref)


def close(mine, ref, tol=1):
    mine = as_np(mine)
    assert mine.shape == ref.shape and mine.dtype == ref.dtype
    assert np.abs(mine.astype(int) - ref).max() <= tol


FLAGS = [cv2.IMREAD_UNCHANGED, cv2.IMREAD_GRAYSCALE, cv2.IMREAD_COLOR, cv2.IMREAD_ANYDEPTH,
         cv2.IMREAD_ANYCOLOR, cv2.IMREAD_ANYDEPTH | cv2.IMREAD_ANYCOLOR, cv2.IMREAD_ANYDEPTH | cv2.IMREAD_COLOR,
         cv2.IMREAD_COLOR_RGB]


def test_constants_match_cv2():
    for name in mcv._codecs.__all__:
        if name.isupper():
            assert getattr(mcv, name) == getattr(cv2, name), name


# ---------------------------------------------------------------- PNG decode: every color type/depth


def _png_cases():
    h, w = 23, 37
    for interlace in (False, True):
        for depth in (1, 2, 4, 8, 16):
            yield f"gray{depth}", RNG.integers(0, 1 << depth, (h, w)), 0, depth, interlace, None, None
        yield "gray8-trns", RNG.integers(0, 256, (h, w)), 0, 8, interlace, None, b"\x00\x07"
        for depth in (8, 16):
            yield f"rgb{depth}", RNG.integers(0, 1 << depth, (h, w, 3)), 2, depth, interlace, None, None
            yield f"ga{depth}", RNG.integers(0, 1 << depth, (h, w, 2)), 4, depth, interlace, None, None
            yield f"rgba{depth}", RNG.integers(0, 1 << depth, (h, w, 4)), 6, depth, interlace, None, None
        s = RNG.integers(0, 256, (h, w, 3))
        s[0, :5] = (10, 20, 30)
        trns = struct.pack(">HHH", 10, 20, 30)
        yield "rgb8-trns", s, 2, 8, interlace, None, trns
        for depth in (1, 2, 4, 8):
            n = 1 << depth
            pal = RNG.integers(0, 256, (n, 3))
            yield f"pal{depth}", RNG.integers(0, n, (h, w)), 3, depth, interlace, pal, None
            yield f"pal{depth}-trns", RNG.integers(0, n, (h, w)), 3, depth, interlace, pal, bytes([0, 77][: n])


@pytest.mark.parametrize("case", list(_png_cases()), ids=lambda c: f"{c[0]}-{'adam7' if c[4] else 'seq'}")
def test_png_decode_matches_cv2(case):
    _name, samples, ctype, depth, interlace, pal, trns = case
    buf = np.frombuffer(make_png(samples, ctype, depth, interlace, pal, trns, seed=depth), np.uint8)
    for flags in FLAGS:
        same(mcv.imdecode(buf, flags), cv2.imdecode(buf, flags))


@pytest.mark.parametrize("shape", [(97, 131), (97, 131, 3), (97, 131, 4), (1, 1), (1, 5, 3), (6, 1, 4)])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_png_round_trips_with_cv2(shape, dtype, tmp_path):
    img = RNG.integers(0, np.iinfo(dtype).max + 1, shape, dtype=dtype)
    for params in ([], [cv2.IMWRITE_PNG_COMPRESSION, 9], [cv2.IMWRITE_PNG_COMPRESSION, 0],
                   [cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_PAETH],
                   [cv2.IMWRITE_PNG_STRATEGY, cv2.IMWRITE_PNG_STRATEGY_FILTERED]):
        ok, mine = mcv.imencode(".png", img, params)
        assert ok is True and as_np(mine).ndim == 1 and as_np(mine).dtype == np.uint8
        same(cv2.imdecode(as_np(mine), cv2.IMREAD_UNCHANGED), img)  # mnn writes -> cv2 reads
        ok, ref = cv2.imencode(".png", img, params)
        same(mcv.imdecode(ref, cv2.IMREAD_UNCHANGED), img)  # cv2 writes -> mnn reads
    path = str(tmp_path / "x.png")
    assert mcv.imwrite(path, img) is True
    same(cv2.imread(path, cv2.IMREAD_UNCHANGED), img)
    same(mcv.imread(path, cv2.IMREAD_UNCHANGED), img)


PNG_FILTERS = {"none": cv2.IMWRITE_PNG_FILTER_NONE, "sub": cv2.IMWRITE_PNG_FILTER_SUB,
               "up": cv2.IMWRITE_PNG_FILTER_UP, "avg": cv2.IMWRITE_PNG_FILTER_AVG,
               "paeth": cv2.IMWRITE_PNG_FILTER_PAETH, "all": cv2.IMWRITE_PNG_ALL_FILTERS}


@pytest.mark.parametrize("filt", list(PNG_FILTERS))
@pytest.mark.parametrize("layout", ["gray", "bgr", "bgra", "bgr16", "gray16"])
def test_png_photo_every_filter_matches_cv2(filt, layout):
    # Real photos at odd sizes, written by cv2 with one filter type on every row (or libpng's per-row choice),
    # through the decoder's fast paths (inflate's table loop, SIMD unfiltering, the in-place row conversion).
    img = cv2.resize(PHOTOS["astronaut"], (301, 203), interpolation=cv2.INTER_AREA)
    if layout.startswith("gray"):
        img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    if layout == "bgra":
        img = np.dstack([img, img[:, :, 1]])
    if layout.endswith("16"):
        img = img.astype(np.uint16) * 257 + RNG.integers(0, 256, img.shape).astype(np.uint16)
    for params in ([cv2.IMWRITE_PNG_FILTER, PNG_FILTERS[filt]],
                   [cv2.IMWRITE_PNG_FILTER, PNG_FILTERS[filt], cv2.IMWRITE_PNG_COMPRESSION, 9]):
        ok, buf = cv2.imencode(".png", img, params)
        for flags in FLAGS:
            same(mcv.imdecode(buf, flags), cv2.imdecode(buf, flags))


@pytest.mark.parametrize("shape", [(1, 1), (1, 3000, 3), (3000, 1), (2, 2, 4), (3, 5000), (700, 3, 3)])
def test_png_thin_and_tiny_images_match_cv2(shape):
    # Streams shorter than the inflater's fast-loop margins, and rows far longer than them.
    smooth = np.cumsum(RNG.integers(-2, 3, shape), axis=1 if len(shape) > 1 else 0)
    img = (smooth % 256).astype(np.uint8)
    for params in ([], [cv2.IMWRITE_PNG_COMPRESSION, 9], [cv2.IMWRITE_PNG_COMPRESSION, 0]):
        ok, buf = cv2.imencode(".png", img, params)
        for flags in (cv2.IMREAD_UNCHANGED, cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE):
            same(mcv.imdecode(buf, flags), cv2.imdecode(buf, flags))


@pytest.mark.parametrize("name", list(PHOTOS))
def test_png_full_size_photos_match_cv2(name):
    ok, buf = cv2.imencode(".png", PHOTOS[name])  # cv2's defaults: Sub filter, RLE strategy, level 1
    same(mcv.imdecode(buf, cv2.IMREAD_COLOR), cv2.imdecode(buf, cv2.IMREAD_COLOR))
    same(mcv.imdecode(buf, cv2.IMREAD_COLOR_RGB), cv2.imdecode(buf, cv2.IMREAD_COLOR_RGB))


def test_png_compression_level_changes_size():
    img = PHOTOS["chelsea"]
    sizes = [len(as_np(mcv.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, lvl])[1])) for lvl in (0, 1, 9)]
    assert sizes[0] > sizes[1] > sizes[2]
    assert sizes[0] > img.size  # level 0 stores


# ---------------------------------------------------------------- JPEG decode


JPEG_PARAMS = {
    "420": [],
    "422": [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_422],
    "444": [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444],
    "440": [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_440],
    "411": [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_411],
    "progressive": [cv2.IMWRITE_JPEG_PROGRESSIVE, 1],
    "progressive-444": [cv2.IMWRITE_JPEG_PROGRESSIVE, 1, cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
                        cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444],
    "restart": [cv2.IMWRITE_JPEG_RST_INTERVAL, 3],
    "progressive-restart": [cv2.IMWRITE_JPEG_PROGRESSIVE, 1, cv2.IMWRITE_JPEG_RST_INTERVAL, 2],
    "optimized-q30": [cv2.IMWRITE_JPEG_OPTIMIZE, 1, cv2.IMWRITE_JPEG_QUALITY, 30],
    "q100": [cv2.IMWRITE_JPEG_QUALITY, 100],
}


@pytest.mark.parametrize("kind", list(JPEG_PARAMS))
@pytest.mark.parametrize("src", ["astronaut", "coffee", "random-97x131", "gray-chelsea"])
def test_jpeg_decode_matches_cv2(kind, src):
    if src == "random-97x131":
        img = RNG.integers(0, 256, (97, 131, 3), dtype=np.uint8)
    elif src == "gray-chelsea":
        img = cv2.cvtColor(PHOTOS["chelsea"], cv2.COLOR_BGR2GRAY)
    else:
        img = PHOTOS[src]
    ok, buf = cv2.imencode(".jpg", img, JPEG_PARAMS[kind])
    for flags in (cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE, cv2.IMREAD_UNCHANGED, cv2.IMREAD_COLOR_RGB,
                  cv2.IMREAD_ANYCOLOR):
        ref = cv2.imdecode(buf, flags)
        mine = as_np(mcv.imdecode(buf, flags))
        assert mine.shape == ref.shape and mine.dtype == ref.dtype
        assert psnr(mine, ref) >= 45
        assert np.abs(mine.astype(int) - ref).mean() <= 1


@pytest.mark.parametrize("w,h", [(1, 1), (2, 3), (17, 9), (97, 131), (131, 97), (8, 8), (16, 16)])
def test_jpeg_odd_sizes_exact(w, h):
    # libjpeg-turbo's arithmetic is reproduced exactly, including image edges and tiny widths.
    img = RNG.integers(0, 256, (h, w, 3), dtype=np.uint8)
    for kind in ("420", "422", "440", "progressive"):
        ok, buf = cv2.imencode(".jpg", img, JPEG_PARAMS[kind])
        same(mcv.imdecode(buf, cv2.IMREAD_COLOR), cv2.imdecode(buf, cv2.IMREAD_COLOR))


@pytest.mark.parametrize("kind", ["420", "422", "444", "440", "411", "restart", "q100", "progressive"])
@pytest.mark.parametrize("shape", [(1, 1, 3), (9, 17, 3), (131, 97, 3), (250, 33, 3), (200, 301, 3), (67, 45)])
def test_jpeg_decode_one_thread_matches_workers(kind, shape):
    # One thread converts each MCU row's pixels right after its IDCT out of a small ring of plane rows;
    # with workers, whole planes are converted at the end. Both must give the same pixels.
    import mnn
    img = cv2.GaussianBlur(RNG.integers(0, 256, shape, dtype=np.uint8), (5, 5), 1.5)
    ok, buf = cv2.imencode(".jpg", img, JPEG_PARAMS[kind])
    before = mnn.get_num_threads()
    try:
        for flags in (cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE, cv2.IMREAD_UNCHANGED):
            mnn.set_num_threads(1)
            one = as_np(mcv.imdecode(buf, flags))
            mnn.set_num_threads(2)
            two = as_np(mcv.imdecode(buf, flags))
            ref = cv2.imdecode(buf, flags)
            same(one, two)
            assert one.shape == ref.shape and psnr(one, ref) >= 45
    finally:
        mnn.set_num_threads(before)


def _with_exif(jpeg, orientation, big_endian=False):
    e = ">" if big_endian else "<"
    tiff = (b"MM\x00\x2a" if big_endian else b"II\x2a\x00") + struct.pack(e + "I", 8)
    tiff += struct.pack(e + "H", 1) + struct.pack(e + "HHI", 0x0112, 3, 1) + struct.pack(e + "HH", orientation, 0)
    tiff += struct.pack(e + "I", 0)
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


@pytest.mark.parametrize("orientation", range(1, 9))
def test_jpeg_exif_orientation(orientation):
    img = RNG.integers(0, 256, (24, 40, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(".jpg", img)
    data = np.frombuffer(_with_exif(buf.tobytes(), orientation, big_endian=orientation % 2 == 0), np.uint8)
    for flags in (cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE, cv2.IMREAD_UNCHANGED,
                  cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION):
        same(mcv.imdecode(data, flags), cv2.imdecode(data, flags))


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
def test_png_exif_orientation(orientation):
    from pngmaker import _chunk
    tiff = b"II\x2a\x00" + struct.pack("<IH", 8, 1) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack("<I", 0)
    png = make_png(RNG.integers(0, 256, (24, 40, 3)), 2, 8)
    buf = np.frombuffer(png[:33] + _chunk(b"eXIf", tiff) + png[33:], np.uint8)
    for flags in (cv2.IMREAD_COLOR, cv2.IMREAD_UNCHANGED, cv2.IMREAD_GRAYSCALE,
                  cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION):
        same(mcv.imdecode(buf, flags), cv2.imdecode(buf, flags))


# ---------------------------------------------------------------- JPEG encode


@pytest.mark.parametrize("quality", [5, 50, 75, 95, 100])
@pytest.mark.parametrize("sampling", [None, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_422, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444])
def test_jpeg_encode_readable_by_cv2(quality, sampling):
    img = PHOTOS["coffee"]
    params = [cv2.IMWRITE_JPEG_QUALITY, quality]
    if sampling is not None:
        params += [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, sampling]
    ok, mine = mcv.imencode(".jpg", img, params)
    mine = as_np(mine)
    dec = cv2.imdecode(mine, cv2.IMREAD_COLOR)
    ok, ref = cv2.imencode(".jpg", img, params)
    ref_dec = cv2.imdecode(ref, cv2.IMREAD_COLOR)
    assert dec.shape == img.shape
    # Same quantisation as libjpeg: the same quality costs the same and looks the same.
    assert psnr(dec, ref_dec) >= 45
    assert abs(len(mine) - len(ref)) <= 0.02 * len(ref)
    assert psnr(dec, img) >= psnr(ref_dec, img) - 0.1


def test_jpeg_encode_gray_odd_size_and_default_420():
    img = RNG.integers(0, 256, (97, 131), dtype=np.uint8)
    ok, mine = mcv.imencode(".jpg", img)
    same(cv2.imdecode(as_np(mine), cv2.IMREAD_UNCHANGED), cv2.imdecode(cv2.imencode(".jpg", img)[1], -1))
    col = PHOTOS["astronaut"][:97, :131].copy()
    ok, mine = mcv.imencode(".jpg", col)
    data = as_np(mine).tobytes()
    sof = data.index(b"\xff\xc0")
    assert data[sof + 11] == 0x22  # luma 2x2: 4:2:0 like cv2's default
    bgra = np.dstack([col, np.full(col.shape[:2], 7, np.uint8)])
    same(mcv.imencode(".jpg", bgra)[1], as_np(mcv.imencode(".jpg", col)[1]))


# ---------------------------------------------------------------- BMP


@pytest.mark.parametrize("shape", [(97, 131), (97, 131, 3), (97, 131, 4), (1, 1, 3), (3, 5)])
def test_bmp_round_trips_with_cv2(shape):
    img = RNG.integers(0, 256, shape, dtype=np.uint8)
    ok, ref = cv2.imencode(".bmp", img)
    ok, mine = mcv.imencode(".bmp", img)
    same(mine, ref)  # byte-identical files
    for flags in (cv2.IMREAD_UNCHANGED, cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE, cv2.IMREAD_COLOR_RGB):
        if flags == cv2.IMREAD_GRAYSCALE and len(shape) == 3 and shape[2] == 4:
            # cv2's BGRA->gray of 32-bit BMPs rounds differently from its BGR->gray: within 1
            close(mcv.imdecode(ref, flags), cv2.imdecode(ref, flags))
        else:
            same(mcv.imdecode(ref, flags), cv2.imdecode(ref, flags))


def _bmp(img, bpp, top_down=False, palette=None, bitfields=False):
    h, w = img.shape[:2]
    stride = (w * bpp + 31) // 32 * 4
    rows = img.reshape(h, -1).astype(np.uint8)
    rows = np.concatenate([rows, np.zeros((h, stride - rows.shape[1]), np.uint8)], axis=1)
    if not top_down:
        rows = rows[::-1]
    pal = b"" if palette is None else np.concatenate([palette, np.zeros((len(palette), 1), np.uint8)], 1).astype(
        np.uint8).tobytes()
    masks = struct.pack("<3I", 0xFF0000, 0xFF00, 0xFF) if bitfields else b""
    info = struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, bpp, 3 if bitfields else 0, 0, 0, 0,
                       len(palette) if palette is not None else 0, 0)
    off = 14 + 40 + len(masks) + len(pal)
    body = rows.tobytes()
    return np.frombuffer(b"BM" + struct.pack("<IHHI", off + len(body), 0, 0, off) + info + masks + pal + body,
                         np.uint8)


@pytest.mark.parametrize("top_down", [False, True])
def test_bmp_decode_variants(top_down):
    h, w = 13, 7
    color_pal = RNG.integers(0, 256, (256, 3), dtype=np.uint8)
    gray_pal = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, 1)
    files = [
        _bmp(RNG.integers(0, 256, (h, w), dtype=np.uint8), 8, top_down, color_pal),
        _bmp(RNG.integers(0, 256, (h, w), dtype=np.uint8), 8, top_down, gray_pal),
        _bmp(RNG.integers(0, 16, (h, w), dtype=np.uint8), 8, top_down, color_pal[:16]),
        _bmp(RNG.integers(0, 256, (h, w, 3), dtype=np.uint8), 24, top_down),
        _bmp(RNG.integers(0, 256, (h, w, 4), dtype=np.uint8), 32, top_down),
        _bmp(RNG.integers(0, 256, (h, w, 4), dtype=np.uint8), 32, top_down, bitfields=True),
    ]
    for buf in files:
        for flags in (cv2.IMREAD_UNCHANGED, cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE):
            if flags == cv2.IMREAD_GRAYSCALE and buf is files[-1]:
                close(mcv.imdecode(buf, flags), cv2.imdecode(buf, flags))  # BGRA->gray: see above
            else:
                same(mcv.imdecode(buf, flags), cv2.imdecode(buf, flags))


# ---------------------------------------------------------------- cv2 semantics, files, errors


def test_imread_imwrite_files(tmp_path):
    img = PHOTOS["chelsea"]
    for ext in (".png", ".jpg", ".jpeg", ".bmp", ".PNG"):
        path = str(tmp_path / f"a{ext}")
        assert mcv.imwrite(path, img) is True
        with open(path, "rb") as f:
            head = f.read(3)
        assert head[:2] in (b"\x89P", b"\xff\xd8", b"BM")
        for flags in (cv2.IMREAD_COLOR, cv2.IMREAD_GRAYSCALE, cv2.IMREAD_UNCHANGED):
            same(mcv.imread(path, flags), cv2.imread(path, flags))
    same(mcv.imread(str(tmp_path / "a.png")), cv2.imread(str(tmp_path / "a.png")))  # IMREAD_COLOR default


def test_imread_missing_and_unknown(tmp_path):
    assert mcv.imread(str(tmp_path / "missing.png")) is None
    p = tmp_path / "text.png"
    p.write_bytes(b"hello, not an image")
    assert mcv.imread(str(p)) is None
    assert mcv.imread(str(tmp_path)) is None  # a directory
    with pytest.raises(mcv.error):
        mcv.imwrite(str(tmp_path / "x.unknownext"), PHOTOS["chelsea"])
    bad_dir = str(tmp_path / "no" / "such" / "dir" / "x.png")
    assert mcv.imwrite(bad_dir, PHOTOS["chelsea"]) is cv2.imwrite(bad_dir, PHOTOS["chelsea"]) is False
    with pytest.raises(mcv.error):
        mcv.imencode(".png", np.zeros((4, 4, 2), np.uint8))  # cv2: channels == 1 || 3 || 4
    with pytest.raises(mcv.error):
        mcv.imencode(".png", np.zeros((0, 3), np.uint8))
    with pytest.raises(mcv.error):
        mcv.imdecode(np.zeros(0, np.uint8), cv2.IMREAD_COLOR)
    with pytest.raises(cv2.error):  # the reference raises too
        cv2.imdecode(np.zeros(0, np.uint8), cv2.IMREAD_COLOR)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int16, np.int32, np.uint16])
def test_imencode_of_other_depths_saturates_like_cv2(dtype):
    img = RNG.uniform(-300, 700, (9, 11, 3)).astype(dtype)
    for ext in (".png", ".bmp", ".jpg"):
        if ext == ".png" and dtype == np.uint16:
            continue  # kept as 16-bit: the round-trip tests cover it
        same(cv2.imdecode(as_np(mcv.imencode(ext, img)[1]), -1), cv2.imdecode(cv2.imencode(ext, img)[1], -1))


def _corruptions(data):
    n = len(data)
    yield data[: n // 2]
    yield data[:40]
    yield data[:10]
    for seed in range(6):
        r = np.random.default_rng(seed)
        b = bytearray(data)
        for i in r.integers(2, n, 20):
            b[i] = r.integers(0, 256)
        yield bytes(b)
    b = bytearray(data)
    b[n // 3: n // 3 + 200] = bytes(200)
    yield bytes(b)


@pytest.mark.parametrize("ext,params", [(".png", []), (".jpg", []), (".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
                                        (".bmp", []), (".png", [cv2.IMWRITE_PNG_COMPRESSION, 0])])
def test_corrupt_and_truncated_inputs_never_crash(ext, params):
    img = RNG.integers(0, 256, (31, 45, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(ext, img, params)
    for bad in _corruptions(buf.tobytes()):
        for flags in (cv2.IMREAD_COLOR, cv2.IMREAD_UNCHANGED, cv2.IMREAD_GRAYSCALE):
            try:
                out = mcv.imdecode(np.frombuffer(bad, np.uint8), flags)
            except mcv.error:
                continue
            if out is not None:
                out = as_np(out)
                assert out.dtype in (np.uint8, np.uint16) and out.ndim in (2, 3)


def _patch_ihdr(png, w, h):
    import zlib
    ihdr = struct.pack(">II", w, h) + png[24:29]
    chunk = png[8:16] + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    return png[:8] + chunk + png[33:]


def test_huge_headers_are_rejected_without_allocating():
    # A few bytes claiming a gigantic image: PNG (deflate bomb guard) and JPEG (cv2's pixel limit).
    png = make_png(np.zeros((4, 4), np.uint8), 0, 8)
    assert as_np(mcv.imdecode(np.frombuffer(_patch_ihdr(png, 4, 4), np.uint8), -1)).shape == (4, 4)
    for w, h in ((1 << 23, 1 << 23), (4, 400), (30000, 30000)):  # too large / not enough image data
        bad = np.frombuffer(_patch_ihdr(png, w, h), np.uint8)
        assert mcv.imdecode(bad, cv2.IMREAD_UNCHANGED) is None
    ok, jpg = cv2.imencode(".jpg", np.zeros((8, 8), np.uint8))
    data = bytearray(jpg.tobytes())
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", 65000, 65000)
    assert mcv.imdecode(np.frombuffer(bytes(data), np.uint8), cv2.IMREAD_COLOR) is None


def test_fuzzed_jpegs_never_crash():
    # Byte flips, deletions and insertions in every JPEG flavour (found: Huffman tables with too many
    # codes, table selectors past 3); the result is None, an image or cv2.error, never a crash.
    rng = np.random.default_rng(99)
    img = cv2.GaussianBlur(rng.integers(0, 256, (37, 53, 3), dtype=np.uint8), (3, 3), 1)
    seeds = [cv2.imencode(".jpg", img, p)[1].tobytes() for p in JPEG_PARAMS.values()]
    decoded = 0
    for it in range(300):
        b = bytearray(seeds[it % len(seeds)])
        for _ in range(rng.integers(1, 20)):
            op, i = rng.integers(0, 4), int(rng.integers(0, len(b)))
            if op == 0:
                b[i] = rng.integers(0, 256)
            elif op == 1:
                del b[i:i + rng.integers(1, 50)]
            elif op == 2:
                b[i:i] = rng.integers(0, 256, rng.integers(1, 20)).astype(np.uint8).tobytes()
            else:
                b[i] ^= 1 << int(rng.integers(0, 8))
        out = mcv.imdecode(np.frombuffer(bytes(b), np.uint8), cv2.IMREAD_COLOR)
        if out is not None:
            assert as_np(out).ndim == 3
            decoded += 1
    assert decoded > 0


@pytest.mark.parametrize("progressive", [0, 1])
def test_truncated_jpeg_is_rejected_like_cv2(progressive):
    ok, buf = cv2.imencode(".jpg", PHOTOS["astronaut"], [cv2.IMWRITE_JPEG_PROGRESSIVE, progressive])
    for cut in (buf[: len(buf) * 2 // 3], buf[:-2]):  # OpenCV 5 returns None without EOI
        assert cv2.imdecode(cut, cv2.IMREAD_COLOR) is None
        assert mcv.imdecode(cut, cv2.IMREAD_COLOR) is None
    damaged = buf.copy()
    damaged[len(buf) // 2: len(buf) // 2 + 300] = 0  # corrupt entropy data still decodes, as in libjpeg
    ref, mine = cv2.imdecode(damaged, cv2.IMREAD_COLOR), as_np(mcv.imdecode(damaged, cv2.IMREAD_COLOR))
    assert ref is not None and mine.shape == ref.shape
    np.testing.assert_array_equal(mine[:100], ref[:100])  # rows before the damage are exact


def test_imdecode_accepts_mnn_arrays_and_bytes():
    import mnn.numpy as mnp
    ok, buf = cv2.imencode(".png", PHOTOS["chelsea"])
    same(mcv.imdecode(mnp.asarray(buf), cv2.IMREAD_COLOR), PHOTOS["chelsea"])
    same(mcv.imdecode(buf.tobytes(), cv2.IMREAD_COLOR), PHOTOS["chelsea"])
    ok, enc = mcv.imencode(".png", mnp.asarray(PHOTOS["chelsea"][::2, ::-1]))  # non-contiguous view
    same(cv2.imdecode(as_np(enc), cv2.IMREAD_COLOR), PHOTOS["chelsea"][::2, ::-1])


def test_unsupported_options_raise_clearly():
    with pytest.raises(NotImplementedError, match=r"\[mnn.cv.imencode\]"):
        mcv.imencode(".jpg", PHOTOS["chelsea"], [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    ok, buf = cv2.imencode(".png", PHOTOS["chelsea"])
    with pytest.raises(NotImplementedError, match=r"\[mnn.cv.imread\]"):
        mcv.imdecode(buf, cv2.IMREAD_REDUCED_COLOR_2)


def test_imwrite_path_like(tmp_path):
    img = RNG.integers(0, 256, (5, 6, 3), dtype=np.uint8)
    p = tmp_path / "pl.png"
    assert mcv.imwrite(p, img) is True
    same(mcv.imread(os.fspath(p), -1), img)


# ---------------------------------------------------------------- per-ISA kernels agree bit for bit

_ISA_PROGRAM = r"""
import hashlib, sys
import numpy as np, cv2
import mnn.cv as mcv
from mnn import _core
rng = np.random.default_rng(7)
img = cv2.GaussianBlur(rng.integers(0, 256, (67, 93, 3), dtype=np.uint8), (5, 5), 2)
h = hashlib.sha256()
for params in ([], [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_422],
               [cv2.IMWRITE_JPEG_PROGRESSIVE, 1, cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]):
    buf = cv2.imencode(".jpg", img, params)[1]
    h.update(np.asarray(mcv.imdecode(buf, cv2.IMREAD_COLOR)).tobytes())
for q in (20, 95):
    h.update(np.asarray(mcv.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])[1]).tobytes())
    h.update(np.asarray(mcv.imencode(".jpg", img[:, :, 0].copy(), [cv2.IMWRITE_JPEG_QUALITY, q])[1]).tobytes())
# Quantizers patched up (every DQT entry 255, then 20) on a quality-100 file: dequantized coefficients
# past int16, and pass-1 sums past int16, which the 16-bit SIMD IDCT hands to the 32-bit path.
q100 = bytes(cv2.imencode(".jpg", rng.integers(0, 256, (40, 56, 3), dtype=np.uint8),
                          [cv2.IMWRITE_JPEG_QUALITY, 100])[1])
for qv in (255, 20):
    buf = bytearray(q100)
    i = buf.find(b"\xff\xdb")
    while i >= 0:
        end = i + 2 + (buf[i + 2] << 8 | buf[i + 3])
        for j in range(i + 4, end, 65):
            buf[j + 1:j + 65] = bytes([qv]) * 64
        i = buf.find(b"\xff\xdb", end)
    h.update(np.asarray(mcv.imdecode(np.frombuffer(bytes(buf), np.uint8), cv2.IMREAD_COLOR)).tobytes())
print(_core.isa(), h.hexdigest())
"""


def _run_isa(isa):
    import subprocess
    import sys
    import mnn
    env = dict(os.environ, MNN_ISA=isa)
    src = os.path.dirname(os.path.dirname(mnn.__file__))
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", _ISA_PROGRAM], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_isa_kernels_match_scalar():
    import mnn
    isas = mnn._core.available_isas()
    ref_isa, ref = _run_isa("scalar")
    assert ref_isa == "scalar"
    for isa in isas:
        if isa != "scalar":
            got_isa, got = _run_isa(isa)
            assert got_isa == isa and got == ref, isa
