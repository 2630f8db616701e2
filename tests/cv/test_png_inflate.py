"""mnn's own inflate (csrc/ops/codecs/inflate.cpp) against Python's zlib, and PNG stream-end rules against cv2.

The inflater decodes every PNG's IDAT data, so it must agree with zlib on every kind of deflate stream (stored,
fixed and dynamic blocks, every level and strategy, small windows, all match distances), stop exactly where asked,
and turn corrupt or truncated streams into an error, never a crash or a read past the input.
"""
import struct
import zlib

import cv2
import numpy as np
import pytest

import mnn.cv as mcv
from mnn import _core

RNG = np.random.default_rng(77)


def _payloads():
    yield "empty", b""
    yield "one", b"x"
    yield "random", RNG.integers(0, 256, 70_000, dtype=np.uint8).tobytes()
    yield "text", bytes(RNG.choice(np.frombuffer(b"abcdefgh ", np.uint8), 200_000))
    # small residuals, like Sub-filtered photo rows: mostly short literal codes (the literal-pair path)
    yield "residuals", (RNG.normal(0, 3, 300_000).round().astype(np.int64) & 255).astype(np.uint8).tobytes()
    for period in (1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 300):  # every match-copy path
        unit = RNG.integers(0, 256, period, dtype=np.uint8).tobytes()
        yield f"period{period}", (unit * (5000 // period + 2))[:5000] + RNG.integers(0, 256, 50, np.uint8).tobytes()
    far = RNG.integers(0, 256, 40_000, dtype=np.uint8).tobytes()
    yield "far-matches", far + far[:20_000] + far[7:30_007]  # distances near the 32 KiB window
    yield "long-runs", b"".join(bytes([v]) * int(n) for v, n in zip(RNG.integers(0, 256, 300), RNG.integers(1, 700, 300)))


PAYLOADS = list(_payloads())
SETTINGS = [(0, 0, 15), (1, 0, 15), (6, 0, 15), (9, 0, 15), (1, zlib.Z_RLE, 15), (6, zlib.Z_FILTERED, 15),
            (6, zlib.Z_HUFFMAN_ONLY, 15), (6, zlib.Z_FIXED, 15), (9, 0, 9), (6, zlib.Z_RLE, 10)]


def _compress(data, level, strategy, wbits):
    z = zlib.compressobj(level, zlib.DEFLATED, wbits, 8, strategy)
    return z.compress(data) + z.flush()


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: f"l{s[0]}-s{s[1]}-w{s[2]}")
def test_inflate_matches_zlib(setting):
    for name, data in PAYLOADS:
        c = _compress(data, *setting)
        assert bytes(_core.zlib_inflate(c, len(data))) == data, name
        assert bytes(_core.zlib_inflate(c, len(data) + 1000)) == data, name  # the stream ends first
        for k in sorted({0, 1, len(data) // 3, max(len(data) - 1, 0)}):
            if k < len(data):  # stops after k bytes; the rest of the stream is read and dropped
                assert bytes(_core.zlib_inflate(c, k)) == data[:k], (name, k)


def test_inflate_streams_with_flushes_and_many_blocks():
    data = (RNG.normal(0, 5, 400_000).round().astype(np.int64) & 255).astype(np.uint8).tobytes()
    z = zlib.compressobj(6)
    parts = []
    for i in range(0, len(data), 37_000):
        parts.append(z.compress(data[i:i + 37_000]))
        parts.append(z.flush(zlib.Z_FULL_FLUSH if i % 2 else zlib.Z_SYNC_FLUSH))  # empty stored blocks
    c = b"".join(parts) + z.flush()
    assert bytes(_core.zlib_inflate(c, len(data))) == data


def test_inflate_rejects_bad_headers_and_truncation():
    data = RNG.integers(0, 4, 10_000, dtype=np.uint8).tobytes()
    c = zlib.compress(data, 6)
    for bad in (b"", b"\x78", b"\x79\x9c" + c[2:], b"\x78\xbb" + c[2:],  # bad check bits / preset dictionary
                c[:len(c) // 2], c[:-1], c[:-4], c[:-1] + bytes([c[-1] ^ 1])):  # truncated / wrong Adler-32
        with pytest.raises(ValueError, match="corrupt PNG data"):
            _core.zlib_inflate(bad, len(data))


def test_corrupt_streams_never_crash():
    data = (RNG.normal(0, 4, 20_000).round().astype(np.int64) & 255).astype(np.uint8).tobytes()
    good = [zlib.compress(data, lvl) for lvl in (1, 6, 9)] + [_compress(data, 6, zlib.Z_FIXED, 15)]
    checked = 0
    for i in range(600):
        c = bytearray(good[i % len(good)])
        mode = i % 3
        if mode == 0:
            for _ in range(1 + i % 4):
                j = int(RNG.integers(2, len(c)))
                c[j] ^= 1 << int(RNG.integers(0, 8))
        elif mode == 1:
            c = c[:int(RNG.integers(0, len(c)))]
        else:
            j = int(RNG.integers(2, len(c)))
            c[j:] = RNG.integers(0, 256, len(c) - j, dtype=np.uint8).tobytes()
        c = bytes(c)
        try:
            got = bytes(_core.zlib_inflate(c, len(data)))
        except ValueError as e:
            assert "corrupt PNG data" in str(e)
            continue
        try:  # whatever it returns is what the stream says (zlib without its end checks)
            ref = zlib.decompressobj().decompress(c, len(data))
        except zlib.error:
            continue
        if len(got) == len(data) == len(ref):
            assert got == ref
            checked += 1
    assert checked > 0


# ------------------------------------------------------- where the stream ends, as cv2 (libpng) decides

_IMG = (np.arange(30 * 40 * 3) % 251).astype(np.uint8).reshape(30, 40, 3)
_RAW = b"".join(b"\x00" + _IMG[y, :, ::-1].tobytes() for y in range(30))


def _chunk(tag, body):
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)


def _png(idats):
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 30, 8, 2, 0, 0, 0))
            + b"".join(_chunk(b"IDAT", d) for d in idats) + _chunk(b"IEND", b""))


def _flip_last(c):
    return c[:-1] + bytes([c[-1] ^ 1])


def _streams():
    c = zlib.compress(_RAW)
    more = zlib.compress(_RAW + b"\x00" + bytes(120))  # one row too many
    one = zlib.compress(_RAW + b"\x07")
    z = zlib.compressobj()
    sync = z.compress(_RAW) + z.flush(zlib.Z_SYNC_FLUSH)
    yield "valid", [c]
    yield "split-idat", [c[:100], b"", c[100:]]
    yield "garbage-after-adler", [c + bytes(range(50))]
    yield "bad-adler", [_flip_last(c)]
    yield "no-adler", [c[:-4]]
    yield "half-adler", [c[:-2]]
    yield "short-data", [zlib.compress(_RAW[:-1])]
    yield "no-final-block", [sync]
    yield "empty-final-block", [sync + z.flush()]
    yield "extra-row", [more]
    yield "extra-row-bad-adler", [_flip_last(more)]
    yield "extra-row-no-adler", [more[:-4]]
    yield "extra-byte-bad-adler", [_flip_last(one)]
    yield "extra-byte-no-adler", [one[:-4]]


@pytest.mark.parametrize("case", list(_streams()), ids=lambda c: c[0])
def test_stream_end_rules_match_cv2(case):
    buf = np.frombuffer(_png(case[1]), np.uint8)
    ref = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    got = mcv.imdecode(buf, cv2.IMREAD_COLOR)
    assert (got is None) == (ref is None), case[0]
    if ref is not None:
        np.testing.assert_array_equal(np.asarray(got), ref)


def _fix_crcs(b):
    """Recomputes every chunk's CRC, so corrupted bytes reach the inflater instead of failing the CRC check."""
    out, pos = bytearray(b[:8]), 8
    while pos + 12 <= len(b):
        (n,) = struct.unpack(">I", b[pos:pos + 4])
        if pos + 12 + n > len(b):
            return bytes(out + b[pos:])
        out += b[pos:pos + 8 + n] + struct.pack(">I", zlib.crc32(b[pos + 4:pos + 8 + n]) & 0xFFFFFFFF)
        pos += 12 + n
    return bytes(out + b[pos:])


def test_corrupt_idat_data_decodes_like_cv2():
    # Damaged deflate data with valid chunk CRCs: cv2 and mnn agree on failing (None) or on the exact pixels.
    img = np.ascontiguousarray(RNG.integers(0, 40, (61, 83, 3)).cumsum(axis=1).astype(np.uint8))
    bases = [cv2.imencode(".png", img, p)[1].tobytes()
             for p in ([], [cv2.IMWRITE_PNG_COMPRESSION, 9], [cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_PAETH])]
    decoded = 0
    for i in range(150):
        b = bytearray(bases[i % len(bases)])
        for _ in range(1 + i % 5):
            b[int(RNG.integers(41, len(b)))] = int(RNG.integers(0, 256))
        buf = np.frombuffer(_fix_crcs(bytes(b)), np.uint8)
        ref = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
        got = mcv.imdecode(buf, cv2.IMREAD_UNCHANGED)
        assert (got is None) == (ref is None), i
        if ref is not None:
            np.testing.assert_array_equal(np.asarray(got), ref)
            decoded += 1
    assert decoded > 0
