"""Hershey stroke fonts for putText / getTextSize, read at first use from the optional package
Hershey-Fonts (``pip install mnn[text]``). mnn ships no glyph data of its own.

The package holds the classic .jhf font files (one glyph per line, ASCII 32.. in order; each
glyph is its left and right bearing and pen strokes, every coordinate a letter offset from 'R').
Which file (and, for a few characters, which glyph of another file) draws each cv2 face was found
by rendering every glyph through our rasteriser and comparing with OpenCV 4.10's putText pixel by
pixel (tools/derive_hershey_faces.py). OpenCV 5 no longer draws Hershey glyphs (its putText
renders built-in TrueType fonts), so OpenCV 4's output is the reference for these faces.

What cannot be reproduced from the package's data (mnn.cv.putText's docstring lists it):
* FONT_HERSHEY_PLAIN and FONT_HERSHEY_COMPLEX_SMALL use Hershey glyph sets that no .jhf file of
  the package contains; they are drawn with the simplex / complex glyphs shrunk to the face's
  cell (cap and base lines as in cv2), so widths differ from cv2's;
* a few punctuation marks per face (_MISSING below) are drawn by glyphs OpenCV took from other
  Hershey sets; the face's own glyph is used instead (its shape and advance differ);
* Cyrillic 'э' (FONT_HERSHEY_COMPLEX) has no glyph in the package; 'Э' is drawn instead.
"""
import io
import tarfile

_PKG_HINT = "install the optional text extra: pip install mnn[text] (it adds the Hershey-Fonts package)"

# face -> (font file, cap line, base line, {char: (other file, char there)}) for the faces whose
# glyphs are in the package. Cap/base lines are cv2's cell: glyph y == base lies on the baseline.
_FACES = {
    0: ("rowmans", 12, 9, {"*": ("futural", "*"), "^": ("futuram", "^"), "`": ("futuram", "`")}),
    2: ("futuram", 12, 9, {"(": ("rowmand", "("), ")": ("rowmand", ")"), "-": ("rowmand", "-")}),
    3: ("timesr", 12, 9, {'"': ("cyrillic", '"'), "*": ("rowmans", "*"), ",": ("greekc", ","),
                          ".": ("rowmans", "."), ":": ("rowmans", ":"), ";": ("greekc", '"')}),
    4: ("timesrb", 12, 9, {"-": ("rowmand", "-"), "N": ("timesr", "N")}),
    6: ("cursive", 12, 9, {",": ("rowmans", ","), ".": ("rowmans", "."), ":": ("rowmans", ":"),
                           ";": ("rowmans", ";"), "^": ("futuram", "^"), "`": ("futuram", "`")}),
    7: ("scriptc", 12, 9, {"'": ("timesi", "'"), "*": ("rowmans", "*"), ",": ("greekc", ","),
                           ".": ("rowmans", "."), "/": ("rowmans", "/"), ":": ("rowmans", ":"),
                           ";": ("greekc", '"'), "?": ("timesr", "?"), "^": ("futuram", "^"),
                           "`": ("futuram", "`")}),
    3 | 16: ("timesi", 12, 9, {"#": ("rowmand", "#"), "&": ("scriptc", "&"), "*": ("rowmans", "*"),
                               ",": ("greekc", ","), ".": ("rowmans", "."), ":": ("rowmans", ":"),
                               ";": ("greekc", '"')}),
    4 | 16: ("timesib", 12, 9, {"*": ("futuram", "*"), "-": ("rowmand", "-"), "N": ("timesi", "N")}),
}
# faces whose Hershey set is not in the package: (stand-in face, cap line, base line)
_STAND_INS = {1: (0, 4, 5), 1 | 16: (3 | 16, 4, 5), 5: (3, 7, 6), 5 | 16: (3 | 16, 7, 6)}
# characters whose cv2 glyph is in no file of the package (drawn with the face's own glyph)
_MISSING = {0: "#'@[\\]_{}", 2: "#%&<>@\\_{}", 3: "#\\_{}", 4: "#%<>@\\_{}", 6: "#'@[\\]_{}",
            7: "%\\_{}", 3 | 16: "%\\_{}", 4 | 16: "\"#%'/<>@\\_i{}"}

# FONT_HERSHEY_COMPLEX also draws Cyrillic (cv2 codes 127..190 = U+0410..U+044F): А..Щ / а..щ are
# the letters A..Z / a..z of cyrilc_1, the last six of each case sit on symbols of 'cyrillic'.
_CYR_TAIL = {0x42A: "]", 0x42B: "$", 0x42C: "_", 0x42D: "C", 0x42E: "U", 0x42F: "^",
             0x44A: "|", 0x44B: "&", 0x44C: "~", 0x44D: "C", 0x44E: "u", 0x44F: "}"}

_fonts = None   # file name -> list of glyphs (left, right, strokes), index = ASCII code - 32
_tables = {}    # face -> (cap, base, {code: (left, right, strokes)}) with coordinates already scaled


def _load_fonts(fn):
    """Parses every .jhf file of the Hershey-Fonts package (once)."""
    global _fonts
    if _fonts is not None:
        return _fonts
    try:
        import HersheyFonts
    except ImportError:
        raise ImportError(f"[mnn.cv.{fn}] text needs the Hershey glyphs, which mnn does not ship: {_PKG_HINT}") from None
    try:
        # the package keeps its .jhf files in one compressed tar; read them raw so that the glyphs
        # (bearings included) are exactly the published ones
        raw = HersheyFonts.HersheyFonts()._HersheyFonts__get_compressed_font_bytes()
        fonts = {}
        with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
            for member in tar.getmembers():
                text = tar.extractfile(member).read().decode("ascii")
                fonts[member.name] = [_parse_glyph(line) for line in text.splitlines()
                                      if len(line) >= 10 and line[0] != "#"]
    except Exception as e:  # a package version laid out differently
        raise ImportError(f"[mnn.cv.{fn}] could not read the glyphs of the installed Hershey-Fonts package "
                          f"({type(e).__name__}: {e}); {_PKG_HINT}") from None
    _fonts = fonts
    return fonts


def _parse_glyph(line):
    """One .jhf line: columns 0-4 glyph number, 5-7 vertex count, 8-9 bearings, then strokes
    separated by ' R' (pen up), each a run of coordinate pairs."""
    left, right = ord(line[8]) - 82, ord(line[9]) - 82
    strokes = []
    for s in line[10:].rstrip().split(" R"):
        pts = [(ord(s[i]) - 82, ord(s[i + 1]) - 82) for i in range(0, len(s) - 1, 2)]
        if len(pts) > 1:  # cv2 draws a stroke only when it has two points or more
            strokes.append(pts)
    return left, right, strokes


def face_table(face, fn):
    """(cap line, base line, {code: (left, right, strokes)}) of a cv2 face (italic bit included)."""
    tab = _tables.get(face)
    if tab is not None:
        return tab
    fonts = _load_fonts(fn)
    if face in _FACES:
        name, cap, base, over = _FACES[face]
        glyphs = {}
        for code in range(32, 127):
            other = over.get(chr(code))
            glyphs[code] = fonts[other[0]][ord(other[1]) - 32] if other else fonts[name][code - 32]
        if face == 3:
            for u in range(0x410, 0x450):
                if u in _CYR_TAIL:
                    g = fonts["cyrillic"][ord(_CYR_TAIL[u]) - 32]
                else:
                    g = fonts["cyrilc_1"][(65 if u < 0x430 else 97) + (u - 0x410) % 32 - 32]
                glyphs[127 + u - 0x410] = g
        tab = (cap, base, glyphs)
    else:
        src, cap, base = _STAND_INS[face]
        scap, sbase, sglyphs = face_table(src, fn)
        k = (cap + base) / (scap + sbase)
        # shrink into this face's cell, keeping the baseline on the baseline
        glyphs = {c: (l * k, r * k, [[(x * k, (y - sbase) * k + base) for x, y in s] for s in strokes])
                  for c, (l, r, strokes) in sglyphs.items() if c < 127}
        tab = (cap, base, glyphs)
    _tables[face] = tab
    return tab


def codes(text, face):
    """The glyph codes cv2 draws for `text` (its UTF-8 bytes, cv2's readCheck): ASCII 32..126 as
    is; under FONT_HERSHEY_COMPLEX, Cyrillic А..я become 127..190 and any other multi-byte
    character one '?'; under other faces every byte outside 32..126 is a '?'."""
    b = text.encode("utf-8", "surrogatepass")
    out, i, n = [], 0, len(b)
    while i < n:
        c, lo, hi = b[i], 32, 127
        nxt = b[i + 1] if i + 1 < n else 0
        if c >= 0x80 and face == 3:
            if c == 0xD0 and 0x90 <= nxt <= 0xBF:
                c, lo, hi = nxt - 17, 127, 175
                i += 1
            elif c == 0xD1 and 0x80 <= nxt <= 0x8F:
                c, lo, hi = nxt + 47, 175, 191
                i += 1
            else:
                for lead in (0xC0, 0xE0, 0xF0, 0xF8, 0xFC):
                    if c >= lead and (b[i + 1] if i + 1 < n else 0) != 0:
                        i += 1
                c = 63
        if not lo <= c < hi:
            c = 63
        out.append(c)
        i += 1
    return out
