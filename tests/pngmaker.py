"""A small reference PNG writer (numpy + zlib) for tests: every color type, bit depth, filter and Adam7,
so mnn's decoder can be checked against cv2's on files cv2 itself cannot write."""
import struct
import zlib

import numpy as np

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def _chunk(tag, data):
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def _pack_rows(samples, depth):
    """samples: (h, w*c) integer array -> list of row byte strings."""
    h = samples.shape[0]
    if depth == 16:
        return [samples[y].astype(">u2").tobytes() for y in range(h)]
    if depth == 8:
        return [samples[y].astype(np.uint8).tobytes() for y in range(h)]
    per = 8 // depth
    rows = []
    for y in range(h):
        r = samples[y].astype(np.uint8)
        pad = (-len(r)) % per
        r = np.concatenate([r, np.zeros(pad, np.uint8)]).reshape(-1, per)
        b = np.zeros(len(r), np.uint16)
        for i in range(per):
            b = (b << depth) | r[:, i]
        rows.append(b.astype(np.uint8).tobytes())
    return rows


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _filter(rows, bpp, rng):
    out = bytearray()
    prev = bytes(len(rows[0])) if rows else b""
    for row in rows:
        ft = int(rng.integers(0, 5))
        r = np.frombuffer(row, np.uint8).astype(np.int32)
        p = np.frombuffer(prev, np.uint8).astype(np.int32)
        left = np.concatenate([np.zeros(bpp, np.int32), r[:-bpp]]) if len(r) > bpp else np.zeros_like(r)
        ul = np.concatenate([np.zeros(bpp, np.int32), p[:-bpp]]) if len(p) > bpp else np.zeros_like(p)
        if ft == 0:
            f = r
        elif ft == 1:
            f = r - left
        elif ft == 2:
            f = r - p
        elif ft == 3:
            f = r - (left + p) // 2
        else:
            f = r - np.array([_paeth(a, b, c) for a, b, c in zip(left, p, ul)], np.int32)
        out.append(ft)
        out += (f & 255).astype(np.uint8).tobytes()
        prev = row
    return bytes(out)


def make_png(samples, color_type, depth, interlace=False, palette=None, trns=None, seed=0):
    """samples: (h, w) or (h, w, c) integers in the file's own channel order (RGB[A], gray[A], indices)."""
    rng = np.random.default_rng(seed)
    s = np.asarray(samples)
    if s.ndim == 2:
        s = s[:, :, None]
    h, w, c = s.shape
    assert c == CHANNELS[color_type]
    bpp = max(1, c * depth // 8)
    if interlace:
        raw = b""
        for x0, y0, dx, dy in ADAM7:
            sub = s[y0::dy, x0::dx]
            if sub.size:
                raw += _filter(_pack_rows(sub.reshape(sub.shape[0], -1), depth), bpp, rng)
    else:
        raw = _filter(_pack_rows(s.reshape(h, -1), depth), bpp, rng) if h and w else b""
    out = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, int(interlace)))
    if palette is not None:
        out += _chunk(b"PLTE", np.asarray(palette, np.uint8).tobytes())
    if trns is not None:
        out += _chunk(b"tRNS", trns)
    z = zlib.compress(raw, 6)
    # split IDAT in two, as streaming encoders do
    out += _chunk(b"IDAT", z[: len(z) // 2]) + _chunk(b"IDAT", z[len(z) // 2:])
    return out + _chunk(b"IEND", b"")
