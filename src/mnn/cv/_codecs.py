"""Image file I/O: imread, imwrite, imdecode, imencode for PNG, JPEG and BMP, with cv2's flags and results.

Containers (PNG chunks, JPEG markers, BMP headers, EXIF) are parsed here; the per-pixel work (JPEG's
entropy coding, DCTs, chroma resampling and colour conversion; PNG's filters and sample conversion)
runs natively in csrc/ops/codecs through _core, deflate included: PNG reading inflates with our own decoder
(csrc/ops/codecs/inflate.cpp), PNG writing deflates natively (zlib's lazy levels 4-9 aside). Decoders mirror what cv2's
libjpeg-turbo / libpng setup produces, so decoded pixels equal cv2's.
"""
import os
import struct
import zlib

from .. import _core
from .. import numpy as _np
from ._common import as_image, error, fail

__all__ = [
    "imread", "imwrite", "imdecode", "imencode", "haveImageReader", "haveImageWriter",
    "IMREAD_UNCHANGED", "IMREAD_GRAYSCALE", "IMREAD_COLOR", "IMREAD_COLOR_BGR", "IMREAD_COLOR_RGB",
    "IMREAD_ANYDEPTH", "IMREAD_ANYCOLOR", "IMREAD_LOAD_GDAL", "IMREAD_IGNORE_ORIENTATION",
    "IMREAD_REDUCED_GRAYSCALE_2", "IMREAD_REDUCED_COLOR_2", "IMREAD_REDUCED_GRAYSCALE_4",
    "IMREAD_REDUCED_COLOR_4", "IMREAD_REDUCED_GRAYSCALE_8", "IMREAD_REDUCED_COLOR_8",
    "IMWRITE_JPEG_QUALITY", "IMWRITE_JPEG_PROGRESSIVE", "IMWRITE_JPEG_OPTIMIZE", "IMWRITE_JPEG_RST_INTERVAL",
    "IMWRITE_JPEG_LUMA_QUALITY", "IMWRITE_JPEG_CHROMA_QUALITY", "IMWRITE_JPEG_SAMPLING_FACTOR",
    "IMWRITE_JPEG_SAMPLING_FACTOR_411", "IMWRITE_JPEG_SAMPLING_FACTOR_420", "IMWRITE_JPEG_SAMPLING_FACTOR_422",
    "IMWRITE_JPEG_SAMPLING_FACTOR_440", "IMWRITE_JPEG_SAMPLING_FACTOR_444",
    "IMWRITE_PNG_COMPRESSION", "IMWRITE_PNG_STRATEGY", "IMWRITE_PNG_BILEVEL", "IMWRITE_PNG_FILTER",
    "IMWRITE_PNG_ZLIBBUFFER_SIZE", "IMWRITE_PNG_STRATEGY_DEFAULT", "IMWRITE_PNG_STRATEGY_FILTERED",
    "IMWRITE_PNG_STRATEGY_HUFFMAN_ONLY", "IMWRITE_PNG_STRATEGY_RLE", "IMWRITE_PNG_STRATEGY_FIXED",
    "IMWRITE_PNG_FILTER_NONE", "IMWRITE_PNG_FILTER_SUB", "IMWRITE_PNG_FILTER_UP", "IMWRITE_PNG_FILTER_AVG",
    "IMWRITE_PNG_FILTER_PAETH", "IMWRITE_PNG_FAST_FILTERS", "IMWRITE_PNG_ALL_FILTERS",
    "IMWRITE_BMP_COMPRESSION", "IMWRITE_BMP_COMPRESSION_RGB", "IMWRITE_BMP_COMPRESSION_BITFIELDS",
]

# cv2's values (imgcodecs.hpp).
IMREAD_UNCHANGED = -1
IMREAD_GRAYSCALE = 0
IMREAD_COLOR_BGR = IMREAD_COLOR = 1
IMREAD_ANYDEPTH = 2
IMREAD_ANYCOLOR = 4
IMREAD_LOAD_GDAL = 8
IMREAD_REDUCED_GRAYSCALE_2, IMREAD_REDUCED_COLOR_2 = 16, 17
IMREAD_REDUCED_GRAYSCALE_4, IMREAD_REDUCED_COLOR_4 = 32, 33
IMREAD_REDUCED_GRAYSCALE_8, IMREAD_REDUCED_COLOR_8 = 64, 65
IMREAD_IGNORE_ORIENTATION = 128
IMREAD_COLOR_RGB = 256

IMWRITE_JPEG_QUALITY, IMWRITE_JPEG_PROGRESSIVE, IMWRITE_JPEG_OPTIMIZE = 1, 2, 3
IMWRITE_JPEG_RST_INTERVAL, IMWRITE_JPEG_LUMA_QUALITY, IMWRITE_JPEG_CHROMA_QUALITY = 4, 5, 6
IMWRITE_JPEG_SAMPLING_FACTOR = 7
IMWRITE_JPEG_SAMPLING_FACTOR_411 = 0x411111
IMWRITE_JPEG_SAMPLING_FACTOR_420 = 0x221111
IMWRITE_JPEG_SAMPLING_FACTOR_422 = 0x211111
IMWRITE_JPEG_SAMPLING_FACTOR_440 = 0x121111
IMWRITE_JPEG_SAMPLING_FACTOR_444 = 0x111111
IMWRITE_PNG_COMPRESSION, IMWRITE_PNG_STRATEGY, IMWRITE_PNG_BILEVEL = 16, 17, 18
IMWRITE_PNG_FILTER, IMWRITE_PNG_ZLIBBUFFER_SIZE = 19, 20
IMWRITE_PNG_STRATEGY_DEFAULT, IMWRITE_PNG_STRATEGY_FILTERED, IMWRITE_PNG_STRATEGY_HUFFMAN_ONLY = 0, 1, 2
IMWRITE_PNG_STRATEGY_RLE, IMWRITE_PNG_STRATEGY_FIXED = 3, 4
IMWRITE_PNG_FILTER_NONE, IMWRITE_PNG_FILTER_SUB, IMWRITE_PNG_FILTER_UP = 8, 16, 32
IMWRITE_PNG_FILTER_AVG, IMWRITE_PNG_FILTER_PAETH = 64, 128
IMWRITE_PNG_FAST_FILTERS, IMWRITE_PNG_ALL_FILTERS = 56, 248
IMWRITE_BMP_COMPRESSION, IMWRITE_BMP_COMPRESSION_RGB, IMWRITE_BMP_COMPRESSION_BITFIELDS = 768, 0, 3

_PNG_SIG = b"\x89PNG\r\n\x1a\n"


class _Corrupt(Exception):
    """Malformed input: the public functions turn it into None (decode) like cv2."""


# ---------------------------------------------------------------------------------------------
# flags


def _want(flags, src_channels, src16):
    """(channels, keep 16-bit, RGB order) cv2 produces for these flags from an image with src_channels."""
    if flags < 0:  # IMREAD_UNCHANGED
        return src_channels, src16, False
    if flags & (IMREAD_REDUCED_GRAYSCALE_2 | IMREAD_REDUCED_GRAYSCALE_4 | IMREAD_REDUCED_GRAYSCALE_8):
        raise NotImplementedError("[mnn.cv.imread] IMREAD_REDUCED_* flags are not supported")
    if flags & IMREAD_LOAD_GDAL:
        raise NotImplementedError("[mnn.cv.imread] IMREAD_LOAD_GDAL is not supported")
    color = bool(flags & (IMREAD_COLOR | IMREAD_COLOR_RGB)) or (bool(flags & IMREAD_ANYCOLOR) and src_channels > 1)
    return (3 if color else 1), (src16 and bool(flags & IMREAD_ANYDEPTH)), bool(flags & IMREAD_COLOR_RGB)


def _image(buf, h, w, c, dtype=None):
    a = _np.frombuffer(buf, dtype=dtype or _np.uint8)
    return a.reshape((h, w) if c == 1 else (h, w, c))


# ---------------------------------------------------------------------------------------------
# PNG

_PNG_DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
_MAX_PIXELS = 1 << 30  # cv2's CV_IO_MAX_IMAGE_PIXELS: larger headers are rejected before allocating


def _png_decode(data, flags):
    data = memoryview(data)  # chunk bodies are views, not copies (_core.png_decode gathers the IDATs)
    pos, n = 8, len(data)
    ihdr = None
    palette, trns, idat, exif = b"", None, [], None
    while True:
        if pos + 12 > n:
            raise _Corrupt("truncated PNG")
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length or pos + 12 + length > n:
            raise _Corrupt("truncated PNG chunk")
        critical = not (ctype[0] & 0x20)
        if critical:  # libpng rejects a critical chunk whose CRC is wrong
            (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
            if zlib.crc32(body, zlib.crc32(ctype)) & 0xFFFFFFFF != crc:
                raise _Corrupt("PNG CRC error")
        pos += 12 + length
        if ctype == b"IHDR":
            if length != 13:
                raise _Corrupt("bad IHDR")
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ihdr is None:
            raise _Corrupt("IHDR missing")
        elif ctype == b"PLTE":
            palette = body
        elif ctype == b"tRNS":
            trns = body
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"eXIf" and exif is None:
            exif = body
        elif ctype == b"IEND":
            break
    w, h, depth, color_type, comp, filt, interlace = ihdr
    if (w == 0 or h == 0 or w > 1 << 24 or h > 1 << 24 or color_type not in _PNG_DEPTHS
            or depth not in _PNG_DEPTHS[color_type] or comp or filt or interlace > 1):
        raise _Corrupt("bad IHDR")
    if color_type == 3 and (not palette or len(palette) % 3):
        raise _Corrupt("palette missing")
    if w * h > _MAX_PIXELS:
        raise _Corrupt("image too large")
    if color_type in (0, 4) or trns is None:
        natural = {0: 1, 2: 3, 3: 3, 4: 4, 6: 4}[color_type]
    else:
        natural = 4 if color_type != 0 else 1  # libpng expands tRNS to alpha (cv2 ignores it on gray)
    out_c, keep16, rgb = _want(flags, natural, depth == 16)
    try:
        # inflates only what the image needs (a small file can expand without bound), unfilters, converts
        buf = _core.png_decode(idat, w, h, depth, color_type, bool(interlace), bytes(palette),
                               bytes(trns or b""), out_c, keep16, rgb)
    except ValueError as e:
        raise _Corrupt(str(e)) from None
    img = _image(buf, h, w, out_c, _np.uint16 if keep16 and depth == 16 else None)
    if exif and flags >= 0 and not flags & IMREAD_IGNORE_ORIENTATION:  # cv2 5 honours eXIf like JPEG's APP1
        img = _orient(img, _exif_orientation(exif))
    return img


def _png_chunk(tag, body):
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)


def _png_encode(img, params):
    h, w = img.shape[:2]
    c = 1 if img.ndim == 2 else img.shape[2]
    if c not in (1, 3, 4):
        raise fail("imencode", f"PNG supports 1, 3 or 4 channels, got {c}")
    depth = 16 if img.dtype == _np.uint16 else 8
    level, strategy, filters = 1, IMWRITE_PNG_STRATEGY_RLE, IMWRITE_PNG_FILTER_SUB  # cv2's defaults
    if IMWRITE_PNG_COMPRESSION in params:
        # cv2: an explicit level switches to the default strategy and libpng's adaptive filtering
        level = min(max(params[IMWRITE_PNG_COMPRESSION], 0), 9)
        strategy, filters = IMWRITE_PNG_STRATEGY_DEFAULT, IMWRITE_PNG_ALL_FILTERS
    if IMWRITE_PNG_STRATEGY in params:
        strategy = params[IMWRITE_PNG_STRATEGY]
        if strategy not in (0, 1, 2, 3, 4):
            raise fail("imencode", f"invalid IMWRITE_PNG_STRATEGY {strategy}")
    if IMWRITE_PNG_FILTER in params:
        filters = params[IMWRITE_PNG_FILTER]
    if params.get(IMWRITE_PNG_BILEVEL):
        raise NotImplementedError("[mnn.cv.imencode] IMWRITE_PNG_BILEVEL is not supported")
    if _core.zlib_native(level, strategy):  # deflated natively, see csrc/ops/codecs/deflate_encode.cpp
        try:
            return _core.png_encode(memoryview(img), w, h, c, depth, (filters >> 3) & 31, level, strategy)
        except ValueError as e:  # e.g. an IDAT over PNG's 2^31 - 1 byte chunk limit
            raise fail("imencode", str(e)) from None
    rows = _core.png_filter(memoryview(img), w, h, c, depth, (filters >> 3) & 31)
    z = zlib.compressobj(level, zlib.DEFLATED, 15, 8, strategy)
    payload = z.compress(rows) + z.flush()
    color_type = {1: 0, 3: 2, 4: 6}[c]
    return (_PNG_SIG + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, 0))
            + _png_chunk(b"IDAT", payload) + _png_chunk(b"IEND", b""))


# ---------------------------------------------------------------------------------------------
# JPEG


def _exif_orientation(tiff):
    """The Orientation tag (0x0112) of IFD0, or 1."""
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return 1
    e = "<" if tiff[:2] == b"II" else ">"
    (ifd,) = struct.unpack(e + "I", tiff[4:8])
    if ifd + 2 > len(tiff):
        return 1
    (count,) = struct.unpack(e + "H", tiff[ifd:ifd + 2])
    for i in range(count):
        p = ifd + 2 + 12 * i
        if p + 12 > len(tiff):
            break
        tag, typ = struct.unpack(e + "HH", tiff[p:p + 4])
        if tag == 0x0112 and typ == 3:
            (v,) = struct.unpack(e + "H", tiff[p + 8:p + 10])
            return v if 1 <= v <= 8 else 1
    return 1


def _orient(img, o):
    """cv2's ExifTransform: flips and transposes for orientations 2..8."""
    if o == 1:
        return img
    if o >= 5:
        img = _np.swapaxes(img, 0, 1)
    if o in (2, 6):
        img = img[:, ::-1]
    elif o in (3, 7):
        img = img[::-1, ::-1]
    elif o in (4, 8):
        img = img[::-1]
    return _np.ascontiguousarray(img)


def _jpeg_decode(data, flags):
    try:
        w, h, comps, _progressive, exif_off, exif_size = _core.jpeg_header(data)
        if w * h > _MAX_PIXELS:
            raise _Corrupt("image too large")
        out_c, _keep16, rgb = _want(flags, 1 if comps == 1 else 3, False)
        buf, h, w = _core.jpeg_decode(data, out_c)
    except ValueError as e:
        raise _Corrupt(str(e)) from None
    img = _image(buf, h, w, out_c)
    if rgb and out_c == 3:
        img = _np.ascontiguousarray(img[:, :, ::-1])
    if flags >= 0 and not flags & IMREAD_IGNORE_ORIENTATION and exif_off >= 0:
        img = _orient(img, _exif_orientation(data[exif_off:exif_off + exif_size]))
    return img


_SAMPLING = {IMWRITE_JPEG_SAMPLING_FACTOR_420: 0, IMWRITE_JPEG_SAMPLING_FACTOR_422: 1,
             IMWRITE_JPEG_SAMPLING_FACTOR_444: 2}


def _jpeg_encode(img, params):
    h, w = img.shape[:2]
    c = 1 if img.ndim == 2 else img.shape[2]
    if c not in (1, 3, 4):
        raise fail("imencode", f"JPEG supports 1, 3 or 4 channels, got {c}")
    # cv2 drops alpha: the encoder reads 4-channel pixels and skips it, no 3-channel copy needed
    quality = min(max(params.get(IMWRITE_JPEG_QUALITY, 95), 0), 100)
    sampling = params.get(IMWRITE_JPEG_SAMPLING_FACTOR, IMWRITE_JPEG_SAMPLING_FACTOR_420)
    if sampling not in _SAMPLING:
        raise NotImplementedError(f"[mnn.cv.imencode] JPEG sampling factor {sampling:#x} is not supported "
                                  "(4:2:0, 4:2:2 and 4:4:4 are)")
    for key, name in ((IMWRITE_JPEG_PROGRESSIVE, "IMWRITE_JPEG_PROGRESSIVE"),
                      (IMWRITE_JPEG_OPTIMIZE, "IMWRITE_JPEG_OPTIMIZE"),
                      (IMWRITE_JPEG_RST_INTERVAL, "IMWRITE_JPEG_RST_INTERVAL"),
                      (IMWRITE_JPEG_LUMA_QUALITY, "IMWRITE_JPEG_LUMA_QUALITY"),
                      (IMWRITE_JPEG_CHROMA_QUALITY, "IMWRITE_JPEG_CHROMA_QUALITY")):
        if params.get(key, 0) > 0:
            raise NotImplementedError(f"[mnn.cv.imencode] {name} is not supported (baseline JPEG only)")
    try:
        return _core.jpeg_encode(memoryview(img), w, h, c, max(quality, 1), _SAMPLING[sampling])
    except ValueError as e:
        raise fail("imencode", str(e)) from None


# ---------------------------------------------------------------------------------------------
# BMP


def _bgr_to_gray(img):
    """cv2's fixed-point BGR->gray (14-bit weights 1868, 9617, 4899, rounded)."""
    x = img.astype(_np.int32)
    g = (x[:, :, 0] * 1868 + x[:, :, 1] * 9617 + x[:, :, 2] * 4899 + 8192) >> 14
    return _np.ascontiguousarray(g.astype(_np.uint8))


def _bmp_decode(data, flags):
    if len(data) < 26:
        raise _Corrupt("truncated BMP")
    (offset,) = struct.unpack("<I", data[10:14])
    (hsize,) = struct.unpack("<I", data[14:18])
    if hsize == 12:
        w, h, _planes, bpp = struct.unpack("<HHHH", data[18:26])
        comp, ncolors, entry = 0, 0, 3
    elif hsize >= 40 and len(data) >= 14 + 40:
        w, h, _planes, bpp, comp = struct.unpack("<iiHHI", data[18:34])
        (ncolors,) = struct.unpack("<I", data[46:50])
        entry = 4
    else:
        raise _Corrupt("bad BMP header")
    top_down = h < 0
    h = abs(h)
    if w <= 0 or h == 0 or w > 1 << 16 or h > 1 << 16:
        raise _Corrupt("bad BMP size")
    if comp == 3 and bpp == 32 and hsize >= 56:
        masks = struct.unpack("<4I", data[54:70])
        if masks[:3] != (0xFF0000, 0xFF00, 0xFF):
            raise NotImplementedError("[mnn.cv.imread] BMP bit fields other than BGRA are not supported")
    elif comp == 3 and bpp == 32 and hsize == 40:
        masks = struct.unpack("<3I", data[54:66])
        if masks != (0xFF0000, 0xFF00, 0xFF):
            raise NotImplementedError("[mnn.cv.imread] BMP bit fields other than BGR are not supported")
    elif comp != 0:
        raise NotImplementedError("[mnn.cv.imread] compressed (RLE) BMP files are not supported")
    if bpp not in (8, 24, 32):
        raise NotImplementedError(f"[mnn.cv.imread] {bpp}-bit BMP files are not supported")
    stride = (w * bpp + 31) // 32 * 4
    if offset + stride * h > len(data):
        raise _Corrupt("truncated BMP")
    rows = _np.frombuffer(data, dtype=_np.uint8, count=stride * h, offset=offset).reshape(h, stride)
    if not top_down:
        rows = rows[::-1]
    nbytes = w * bpp // 8
    pix = _np.ascontiguousarray(rows[:, :nbytes])
    if bpp == 8:
        ncolors = ncolors or 256
        ptab = data[14 + hsize:14 + hsize + entry * min(ncolors, 256)]
        pal = [ptab[i:i + 3] for i in range(0, len(ptab) - entry + 1, entry)]
        gray = all(p[0] == p[1] == p[2] for p in pal)
        out_c, _k, rgb = _want(flags, 1 if gray else 3, False)
        if gray or out_c == 1:
            if not gray:  # cv2 converts the palette, then looks it up
                pal = [bytes([(p[0] * 1868 + p[1] * 9617 + p[2] * 4899 + 8192) >> 14]) * 3 for p in pal]
            lut = b"".join(p[:1] for p in pal)
            img = _image(_core.palette_lookup(memoryview(pix), lut, 1), h, w, 1)
            if out_c == 3:
                img = _np.ascontiguousarray(_np.broadcast_to(img[:, :, None], (h, w, 3)))
            return img
        img = _image(_core.palette_lookup(memoryview(pix), b"".join(pal), 3), h, w, 3)
    else:
        # cv2 keeps the fourth byte (IMREAD_UNCHANGED) only when the file declares bit fields
        src_c = 4 if bpp == 32 and comp == 3 else 3
        img = pix.reshape(h, w, bpp // 8)
        out_c, _k, rgb = _want(flags, src_c, False)
        if out_c == 1:
            return _bgr_to_gray(img)
        if img.shape[2] != out_c:
            img = img[:, :, :out_c]
    if rgb:
        img = img[:, :, ::-1]
    return _np.ascontiguousarray(img)


def _bmp_encode(img):
    h, w = img.shape[:2]
    c = 1 if img.ndim == 2 else img.shape[2]
    if c not in (1, 3, 4):
        raise fail("imencode", f"BMP supports 1, 3 or 4 channels, got {c}")
    stride = (w * c + 3) // 4 * 4
    rows = img.reshape(h, w * c)[::-1]
    if stride != w * c:
        rows = _np.concatenate([rows, _np.zeros((h, stride - w * c), dtype=_np.uint8)], axis=1)
    body = bytes(memoryview(_np.ascontiguousarray(rows)))
    if c == 4:  # cv2 writes a V5 header with BGRA bit fields
        info = struct.pack("<IiiHHIIiiII", 124, w, h, 1, 32, 3, 0, 0, 0, 0, 0)
        info += struct.pack("<4I", 0xFF0000, 0xFF00, 0xFF, 0xFF000000) + b"BGRs" + bytes(124 - 60)
        extra = b""
    else:
        info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 8 * c, 0, 0, 0, 0, 0, 0)
        extra = b"".join(bytes([i, i, i, 0]) for i in range(256)) if c == 1 else b""
    offset = 14 + len(info) + len(extra)
    return b"BM" + struct.pack("<IHHI", offset + len(body), 0, 0, offset) + info + extra + body


# ---------------------------------------------------------------------------------------------
# public API


def _decode(data, flags):
    flags = int(flags)
    try:
        if data[:8] == _PNG_SIG:
            return _png_decode(data, flags)
        if data[:3] == b"\xff\xd8\xff":
            return _jpeg_decode(data, flags)
        if data[:2] == b"BM":
            return _bmp_decode(data, flags)
    except (_Corrupt, struct.error, MemoryError):
        return None
    return None


def _as_bytes(buf):
    if isinstance(buf, (bytes, bytearray)):
        return bytes(buf)
    a = as_image(buf, "imdecode", "buf")
    if a.size == 0:
        raise fail("imdecode", "Assertion failed: !buf.empty()")
    return memoryview(_np.ascontiguousarray(a)).cast("B")  # the decoders only read it: no copy


def imread(filename, flags=IMREAD_COLOR):
    """Reads a PNG/JPEG/BMP file like cv2.imread: None when the file is missing, unreadable or corrupt."""
    if not isinstance(filename, (str, bytes, os.PathLike)):
        raise TypeError("[mnn.cv.imread] Can't convert object to 'str' for 'filename'")
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return _decode(data, flags)


def imdecode(buf, flags):
    """Decodes an in-memory image (a 1-d uint8 array or bytes) like cv2.imdecode: None if it is not one."""
    data = _as_bytes(buf)
    if not data:
        raise fail("imdecode", "Assertion failed: !buf.empty()")
    return _decode(data, flags)


def _params_dict(fn, params):
    params = list(params or [])
    if len(params) % 2:
        raise fail(fn, "Assertion failed: params.size() <= CV_IO_MAX_IMAGE_PARAMS*2 (pairs expected)")
    return {int(params[i]): int(params[i + 1]) for i in range(0, len(params), 2)}


def _prepare(img, fn):
    img = as_image(img, fn, "img")
    if img.ndim not in (2, 3) or img.size == 0:
        raise fail(fn, "Assertion failed: !_img.empty() (expected a non-empty 2-d or 3-d image)")
    if img.dtype not in (_np.uint8, _np.uint16):
        # cv2 converts other depths with saturate_cast (round half to even, clip)
        wide = _np.rint(img) if img.dtype.kind == "f" else img.astype(_np.int64)  # int8's range lacks 255
        img = _np.clip(wide, 0, 255).astype(_np.uint8)
    return _np.ascontiguousarray(img)


def _encode(ext, img, params, fn):
    # cv2 takes what follows the last dot ("a.png" is PNG) and finds no encoder without one ("png")
    dot = ext.rfind(".")
    if dot < 0:
        raise fail(fn, f"could not find encoder for the specified extension '{ext}' (it needs a dot: '.png')")
    ext = ext[dot:].lower()
    p = _params_dict(fn, params)
    img = _prepare(img, fn)
    if ext == ".png":
        return _png_encode(img, p)
    if img.dtype != _np.uint8:  # JPEG and BMP are 8-bit: cv2 saturates
        img = _np.ascontiguousarray(_np.clip(img, 0, 255).astype(_np.uint8))
    if ext in (".jpg", ".jpeg", ".jpe"):
        return _jpeg_encode(img, p)
    if ext in (".bmp", ".dib"):
        return _bmp_encode(img)
    raise fail(fn, f"could not find a writer for the specified extension '{ext}'")


def imencode(ext, img, params=None):
    """Encodes to PNG/JPEG/BMP like cv2.imencode: (True, 1-d uint8 array)."""
    data = _encode(ext, img, params, "imencode")
    return True, _np.frombuffer(bytearray(data), dtype=_np.uint8)


def imwrite(filename, img, params=None):
    """Writes a PNG/JPEG/BMP file chosen by the extension, like cv2.imwrite; returns True."""
    name = os.fspath(filename)
    ext = os.path.splitext(name if isinstance(name, str) else name.decode())[1]
    if not ext:
        raise fail("imwrite", f"could not find a writer for the specified extension in '{name}'")
    data = _encode(ext, img, params, "imwrite")
    try:
        with open(name, "wb") as f:
            f.write(data)
    except OSError:  # cv2 reports an unwritable path by returning False
        return False
    return True


def haveImageReader(filename):
    try:
        with open(filename, "rb") as f:
            head = f.read(8)
    except OSError:
        return False
    return head == _PNG_SIG or head[:3] == b"\xff\xd8\xff" or head[:2] == b"BM"


def haveImageWriter(filename):
    return os.path.splitext(os.fspath(filename))[1].lower() in (".png", ".jpg", ".jpeg", ".jpe", ".bmp", ".dib")
