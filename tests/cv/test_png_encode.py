"""mnn.cv's PNG writer and its native deflate encoder (csrc/ops/codecs/deflate_encode.cpp).

Every stream must decode, through cv2.imdecode and through Python's zlib, to exactly the input; chunk
CRCs, the zlib header and Adler-32 must be valid (cv2 rejects a file whose CRC or Adler-32 is wrong);
sizes must stay close to cv2's. A small pure-Python inflater (below) walks the deflate blocks so the
tests can check which block types (stored, fixed, dynamic) the encoder picked.
"""
import struct
import zlib

import cv2
import numpy as np
import pytest

import mnn.cv as mcv
from mnn import _core

skdata = pytest.importorskip("skimage.data")

RNG = np.random.default_rng(77)
SIG = b"\x89PNG\r\n\x1a\n"
STORED, FIXED, DYNAMIC = 0, 1, 2


def encode(img, params=()):
    ok, buf = mcv.imencode(".png", img, list(params))
    assert ok is True
    buf = np.asarray(buf)
    assert buf.dtype == np.uint8 and buf.ndim == 1
    return buf.tobytes()


def chunks(png):
    """(type, body) of every chunk, asserting the signature and each chunk's CRC."""
    assert png[:8] == SIG
    out, i = [], 8
    while i < len(png):
        n, = struct.unpack(">I", png[i:i + 4])
        ctype, body = png[i + 4:i + 8], png[i + 8:i + 8 + n]
        crc, = struct.unpack(">I", png[i + 8 + n:i + 12 + n])
        assert crc == zlib.crc32(ctype + body), ctype
        out.append((ctype, body))
        i += 12 + n
    assert i == len(png) and out[0][0] == b"IHDR" and out[-1] == (b"IEND", b"")
    return out


def check_zlib(stream, raw):
    """zlib header (RFC 1950), Adler-32 trailer and the payload itself."""
    cmf, flg = stream[0], stream[1]
    assert cmf == 0x78 and (cmf * 256 + flg) % 31 == 0 and not flg & 0x20  # deflate, 32K window, no dictionary
    assert struct.unpack(">I", stream[-4:])[0] == zlib.adler32(raw)
    assert zlib.decompress(stream) == raw


def png_rows(img):
    """The image as PNG scanline samples (RGB order, big-endian), for comparing with the inflated IDAT."""
    a = img if img.ndim == 3 else img[:, :, None]
    if a.shape[2] >= 3:
        a = a[:, :, [2, 1, 0] + list(range(3, a.shape[2]))]
    return np.ascontiguousarray(a).astype(a.dtype.newbyteorder(">")).tobytes()


def unfilter(raw, h, rowbytes, bpp):
    out, prev = bytearray(), bytearray(rowbytes)
    for y in range(h):
        f, row = raw[y * (rowbytes + 1)], bytearray(raw[y * (rowbytes + 1) + 1:(y + 1) * (rowbytes + 1)])
        for i in range(rowbytes):
            a = row[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if f == 1:
                row[i] = (row[i] + a) & 255
            elif f == 2:
                row[i] = (row[i] + b) & 255
            elif f == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            else:
                assert f == 0
        out += row
        prev = row
    return bytes(out)


def check_png(img, params=(), py_unfilter=False):
    """Encodes img; asserts cv2 and zlib both give it back exactly; returns the file."""
    png = encode(img, params)
    parts = chunks(png)
    w, h, depth, ctype, comp, filt, interlace = struct.unpack(">IIBBBBB", parts[0][1])
    ch = 1 if img.ndim == 2 else img.shape[2]
    assert (w, h, depth, ctype) == (img.shape[1], img.shape[0], img.dtype.itemsize * 8, {1: 0, 3: 2, 4: 6}[ch])
    assert (comp, filt, interlace) == (0, 0, 0)
    stream = b"".join(body for t, body in parts if t == b"IDAT")
    raw = zlib.decompress(stream)
    check_zlib(stream, raw)
    rowbytes = w * ch * img.dtype.itemsize
    assert len(raw) == h * (rowbytes + 1)
    if py_unfilter:
        assert unfilter(raw, h, rowbytes, ch * img.dtype.itemsize) == png_rows(img)
    back = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    assert back is not None and back.dtype == img.dtype
    np.testing.assert_array_equal(back.reshape(img.shape), img)
    return png


# ---------------------------------------------------------------- a tiny inflater that reports block types

_LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
          195, 227, 258]
_LEXTRA = [0] * 8 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [0]
_DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
          4097, 6145, 8193, 12289, 16385, 24577]
_DEXTRA = [0, 0, 0, 0] + [k // 2 for k in range(2, 28)]


class _Bits:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def get(self, n):
        v = 0
        for k in range(n):
            v |= ((self.data[self.pos >> 3] >> (self.pos & 7)) & 1) << k
            self.pos += 1
        return v


def _decoder(lengths):
    """Canonical Huffman decoding table {(length, code): symbol}; asserts the code is complete."""
    kraft = sum(2.0 ** -n for n in lengths if n)
    assert kraft == 1.0, kraft
    table, code = {}, 0
    for n in range(1, 16):
        for s, ln in enumerate(lengths):
            if ln == n:
                table[(n, code)] = s
                code += 1
        code <<= 1
    return table


def _symbol(bits, table):
    code = n = 0
    while (n, code) not in table:
        code = (code << 1) | bits.get(1)
        n += 1
        assert n <= 15
    return table[(n, code)]


def inflate_blocks(stream):
    """Inflates a zlib stream in Python; returns (data, [block types], [max distance used])."""
    bits, out, types, far = _Bits(stream[2:-4]), bytearray(), [], 0
    while True:
        final, btype = bits.get(1), bits.get(2)
        types.append(btype)
        if btype == STORED:
            bits.pos = (bits.pos + 7) & ~7
            n, nn = bits.get(16), bits.get(16)
            assert n ^ nn == 0xFFFF
            out += stream[2 + bits.pos // 8:2 + bits.pos // 8 + n]
            bits.pos += 8 * n
        else:
            assert btype in (FIXED, DYNAMIC)
            if btype == FIXED:
                lit = _decoder([8] * 144 + [9] * 112 + [7] * 24 + [8] * 8)
                dist = _decoder([5] * 32)
            else:
                hlit, hdist, hclen = bits.get(5) + 257, bits.get(5) + 1, bits.get(4) + 4
                order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
                cl = [0] * 19
                for k in range(hclen):
                    cl[order[k]] = bits.get(3)
                clt, lens = _decoder(cl), []
                while len(lens) < hlit + hdist:
                    s = _symbol(bits, clt)
                    if s < 16:
                        lens.append(s)
                    elif s == 16:
                        lens += [lens[-1]] * (3 + bits.get(2))
                    else:
                        lens += [0] * ((3 + bits.get(3)) if s == 17 else (11 + bits.get(7)))
                assert len(lens) == hlit + hdist
                lit = _decoder(lens[:hlit])
                dist = _decoder(lens[hlit:])  # the encoder always sends a complete distance code
            while True:
                s = _symbol(bits, lit)
                if s < 256:
                    out.append(s)
                    continue
                if s == 256:
                    break
                length = _LBASE[s - 257] + bits.get(_LEXTRA[s - 257])
                d = _symbol(bits, dist)
                d = _DBASE[d] + bits.get(_DEXTRA[d])
                assert 1 <= d <= min(32768, len(out))
                far = max(far, d)
                for _ in range(length):
                    out.append(out[-d])
        if final:
            break
    assert (bits.pos + 7) // 8 == len(stream) - 6  # nothing after the final block but padding
    return bytes(out), types, far


def deflate(data, level, strategy):
    stream = bytes(_core.zlib_compress(data, level, strategy))
    check_zlib(stream, data)
    return stream


# ---------------------------------------------------------------- images


def _content(kind, shape, dtype):
    top = np.iinfo(dtype).max
    if kind == "flat":
        return np.full(shape, top // 3, dtype)
    if kind == "noise":
        return RNG.integers(0, top + 1, shape, dtype=dtype)
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]]
    g = (xx * 7 + yy * 3) % (top + 1)
    if len(shape) == 3:
        g = np.stack([(g + 40 * k) % (top + 1) for k in range(shape[2])], -1)
    return g.astype(dtype)


SHAPES = [(1, 1), (97, 131), (1, 5000), (3000, 1)]
LEVEL_PARAMS = [[cv2.IMWRITE_PNG_COMPRESSION, lvl] for lvl in range(10)]
STRATEGY_PARAMS = [[cv2.IMWRITE_PNG_STRATEGY, s] for s in range(5)]


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("kind", ["flat", "noise", "gradient"])
def test_round_trip_every_level_and_strategy(channels, dtype, kind):
    for hw in SHAPES:
        img = _content(kind, hw if channels == 1 else hw + (channels,), dtype)
        for params in [[]] + LEVEL_PARAMS + STRATEGY_PARAMS:
            check_png(img, params)


def test_round_trip_python_unfilter_and_filters():
    """The inflated rows unfilter (in Python, by the PNG spec) to the image, for every filter choice."""
    img = _content("gradient", (23, 37, 3), np.uint8) ^ RNG.integers(0, 4, (23, 37, 3), dtype=np.uint8)
    for f in (cv2.IMWRITE_PNG_FILTER_NONE, cv2.IMWRITE_PNG_FILTER_SUB, cv2.IMWRITE_PNG_FILTER_UP,
              cv2.IMWRITE_PNG_FILTER_AVG, cv2.IMWRITE_PNG_FILTER_PAETH, cv2.IMWRITE_PNG_ALL_FILTERS):
        check_png(img, [cv2.IMWRITE_PNG_FILTER, f], py_unfilter=True)
    check_png(img.astype(np.uint16) * 257, [cv2.IMWRITE_PNG_COMPRESSION, 2], py_unfilter=True)


PHOTO_NAMES = ["astronaut", "chelsea", "coffee", "camera", "rocket", "coins"]


def _photo(name):
    im = getattr(skdata, name)()
    return np.ascontiguousarray(im[..., ::-1] if im.ndim == 3 else im)


@pytest.mark.parametrize("name", PHOTO_NAMES)
def test_photos_round_trip_and_stay_close_to_cv2_size(name):
    img = _photo(name)
    for params in ([], [cv2.IMWRITE_PNG_COMPRESSION, 1], [cv2.IMWRITE_PNG_COMPRESSION, 3],
                   [cv2.IMWRITE_PNG_STRATEGY, cv2.IMWRITE_PNG_STRATEGY_HUFFMAN_ONLY]):
        mine = len(check_png(img, params))
        ref = len(cv2.imencode(".png", img, params)[1])
        assert mine <= 1.10 * ref, (params, mine, ref)
    # BGRA and 16-bit versions of the photo
    if img.ndim == 3:
        check_png(np.concatenate([img, img[:, :, :1]], 2))
    check_png(img.astype(np.uint16) * 257 + 3)


def test_benchmark_photo_size_matches_cv2():
    img = cv2.resize(_photo("coffee"), (1920, 1080), interpolation=cv2.INTER_AREA)
    mine, ref = len(check_png(img)), len(cv2.imencode(".png", img)[1])
    assert 0.95 * ref <= mine <= 1.02 * ref, (mine, ref)


def test_noise_and_flat_are_never_pathological():
    noise = RNG.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    raw = 300 * (1 + 400 * 3)
    for params in [[]] + LEVEL_PARAMS + STRATEGY_PARAMS:
        assert len(check_png(noise, params)) <= raw * 1.001 + 200  # stored blocks at worst
    flat = np.full((1080, 1920, 3), 77, np.uint8)
    for params in [[]] + STRATEGY_PARAMS + [[cv2.IMWRITE_PNG_COMPRESSION, 1]]:
        mine, ref = len(check_png(flat, params)), len(cv2.imencode(".png", flat, params)[1])
        assert mine <= 1.1 * ref + 1000, (params, mine, ref)  # runs of 258 bytes; Huffman-only: 1 bit a byte
    assert len(encode(flat)) < 20000


def test_crc_and_adler_are_checked_by_cv2():
    """cv2 refuses a file with a wrong IDAT CRC or Adler-32, so the checks above are the ones that matter."""
    img = _content("noise", (20, 30, 3), np.uint8)
    png = bytearray(encode(img))
    i = png.find(b"IDAT")
    n, = struct.unpack(">I", png[i - 4:i])
    bad = bytearray(png)
    bad[i + 4 + n] ^= 1  # CRC
    assert cv2.imdecode(np.frombuffer(bytes(bad), np.uint8), cv2.IMREAD_UNCHANGED) is None
    bad = bytearray(png)
    bad[i + 4 + n - 1] ^= 1  # Adler-32, with the CRC fixed up
    bad[i + 4 + n:i + 8 + n] = struct.pack(">I", zlib.crc32(bytes(bad[i:i + 4 + n])))
    assert cv2.imdecode(np.frombuffer(bytes(bad), np.uint8), cv2.IMREAD_UNCHANGED) is None


def test_fuzz_random_small_images():
    rng = np.random.default_rng(2024)
    for _ in range(150):
        h, w = int(rng.integers(1, 40)), int(rng.integers(1, 40))
        ch = int(rng.choice([1, 3, 4]))
        dtype = np.uint16 if rng.random() < 0.3 else np.uint8
        shape = (h, w) if ch == 1 and rng.random() < 0.5 else (h, w, ch)
        top = int(rng.choice([1, 3, 255, np.iinfo(dtype).max]))
        img = rng.integers(0, top + 1, shape).astype(dtype)
        if rng.random() < 0.3:  # long runs
            img[:, : w // 2] = img[0, 0]
        params = []
        if rng.random() < 0.5:
            params += [cv2.IMWRITE_PNG_COMPRESSION, int(rng.integers(0, 10))]
        if rng.random() < 0.5:
            params += [cv2.IMWRITE_PNG_STRATEGY, int(rng.integers(0, 5))]
        if rng.random() < 0.3:
            params += [cv2.IMWRITE_PNG_FILTER, int(rng.choice([8, 16, 32, 64, 128, 248]))]
        check_png(img, params)


def test_imwrite_uses_the_same_encoder(tmp_path):
    img = _photo("chelsea")[:100, :150]
    path = str(tmp_path / "a.png")
    assert mcv.imwrite(path, img) is True
    with open(path, "rb") as f:
        assert f.read() == encode(img)
    np.testing.assert_array_equal(cv2.imread(path, cv2.IMREAD_UNCHANGED), img)


# ---------------------------------------------------------------- the deflate encoder on raw bytes

NATIVE = [(0, 0), (1, 3), (5, 3), (9, 3), (1, 2), (9, 2), (1, 0), (2, 1), (3, 0), (1, 4), (3, 4)]


def _byte_cases():
    r = np.random.default_rng(5)
    yield "empty", b""
    yield "one", b"x"
    yield "two", b"xy"
    yield "run300", b"a" + b"b" * 300 + b"c"
    yield "runs", b"".join(bytes([k % 251]) * int(n) for k, n in enumerate(r.integers(1, 700, 300)))
    yield "zeros", bytes(200000)
    yield "noise", r.integers(0, 256, 70000, dtype=np.uint8).tobytes()
    yield "lowentropy", r.integers(0, 3, 100000, dtype=np.uint8).tobytes()
    yield "text", b"the quick brown fox jumps over the lazy dog. " * 3000
    yield "skewed", r.geometric(0.02, 150000).clip(0, 255).astype(np.uint8).tobytes()
    yield "mixed", r.integers(0, 256, 40000, dtype=np.uint8).tobytes() + bytes(40000) + b"abc" * 20000


@pytest.mark.parametrize("name,data", list(_byte_cases()), ids=lambda v: v if isinstance(v, str) else "")
def test_deflate_round_trips(name, data):
    for level, strategy in NATIVE:
        assert _core.zlib_native(level, strategy)
        deflate(data, level, strategy)


def test_checksums_match_zlib():
    r = np.random.default_rng(9)
    for n in [0, 1, 7, 8, 15, 16, 17, 100, 5551, 5552, 5553, 65536, 100003]:
        for fill in ("noise", "ff"):
            d = r.integers(0, 256, n, dtype=np.uint8).tobytes() if fill == "noise" else b"\xff" * n
            assert _core.crc32(d) == zlib.crc32(d)
            assert _core.adler32(d) == zlib.adler32(d)
            assert _core.crc32(d[n // 2:], _core.crc32(d[:n // 2])) == zlib.crc32(d)
            assert _core.adler32(d[n // 2:], _core.adler32(d[:n // 2])) == zlib.adler32(d)


def test_block_types():
    # level 0: only stored blocks, each at most 65535 bytes
    data = bytes(range(256)) * 600
    s = deflate(data, 0, 0)
    out, types, _ = inflate_blocks(s)
    assert out == data and set(types) == {STORED} and len(types) == 3
    assert len(s) == len(data) + 5 * 3 + 6
    # incompressible data is stored, even by the RLE and Huffman-only strategies
    noise = RNG.integers(0, 256, 3000, dtype=np.uint8).tobytes()
    for strategy in (3, 2, 0):
        out, types, _ = inflate_blocks(deflate(noise, 1, strategy))
        assert out == noise and types == [STORED]
    # a short input is cheapest with the fixed code; Z_FIXED always uses it (unless stored is smaller)
    out, types, _ = inflate_blocks(deflate(b"abcabcabcabc", 1, 3))
    assert types == [FIXED]
    text = b"hello, deflate! " * 400
    out, types, _ = inflate_blocks(deflate(text, 1, 4))
    assert out == text and types == [FIXED]
    # a longer skewed input gets a dynamic code
    skewed = np.random.default_rng(1).geometric(0.1, 5000).clip(0, 255).astype(np.uint8).tobytes()
    out, types, _ = inflate_blocks(deflate(skewed, 1, 3))
    assert out == skewed and types == [DYNAMIC]
    # several blocks, of different types: noise, then something compressible
    mixed = RNG.integers(0, 256, 40000, dtype=np.uint8).tobytes() + skewed * 8
    out, types, _ = inflate_blocks(deflate(mixed, 1, 2))
    assert out == mixed and len(types) >= 2 and STORED in types and DYNAMIC in types


def test_long_runs_and_far_matches():
    # runs longer than 258 become several distance-1 matches
    data = b"q" + b"z" * 5000 + b"q"
    s = deflate(data, 1, 3)
    out, types, far = inflate_blocks(s)
    assert out == data and far == 1 and len(s) < 60
    # a 32768-byte block repeated: every match is at exactly the largest distance deflate allows
    block = RNG.integers(0, 256, 32768, dtype=np.uint8).tobytes()
    s = deflate(block * 2, 1, 0)
    out, _, far = inflate_blocks(s)
    assert out == block * 2 and far == 32768 and len(s) < 32768 + 2000
    # one byte further is out of reach: still correct (zlib.decompress checks every distance), no far matches
    block = RNG.integers(0, 256, 32769, dtype=np.uint8).tobytes()
    s = deflate(block * 2, 1, 0)
    assert len(s) > 2 * 32769 * 0.99


def test_fallback_levels_still_use_zlib():
    """Levels 4-9 with the default/filtered/fixed strategies go through Python's zlib (identical to cv2's)."""
    img = _photo("chelsea")
    for lvl in (4, 6, 9):
        assert not _core.zlib_native(lvl, 0)
        mine = encode(img, [cv2.IMWRITE_PNG_COMPRESSION, lvl])
        ref = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, lvl])[1].tobytes()
        assert abs(len(mine) - len(ref)) <= 0.02 * len(ref)
        check_png(img, [cv2.IMWRITE_PNG_COMPRESSION, lvl])


@pytest.mark.parametrize("threads", [2, 3, 5])
def test_threads_split_the_stream_into_stretches(threads):
    """With several threads, stretches of >= 512 KB are deflated in parallel and joined by sync flushes."""
    import mnn
    img = cv2.resize(_photo("coffee"), (1280, 960), interpolation=cv2.INTER_AREA)  # 3.7 MB of rows
    img[:200] = 9  # a flat band: runs that cross stretch boundaries
    before = mnn.get_num_threads()
    try:
        mnn.set_num_threads(1)
        single = {tuple(p): encode(img, p) for p in ([], *STRATEGY_PARAMS, [cv2.IMWRITE_PNG_COMPRESSION, 2])}
        mnn.set_num_threads(threads)
        for p, one in single.items():
            many = check_png(img, list(p))
            assert many != one  # really split (each stretch ends with an empty stored block)
            assert abs(len(many) - len(one)) <= 0.01 * len(one)
    finally:
        mnn.set_num_threads(before)
    raw = bytes(range(256)) * 4000 + bytes(300000) + np.random.default_rng(3).integers(0, 256, 900000, np.uint8).tobytes()
    try:
        mnn.set_num_threads(threads)
        for level, strategy in NATIVE:
            deflate(raw, level, strategy)
    finally:
        mnn.set_num_threads(before)
