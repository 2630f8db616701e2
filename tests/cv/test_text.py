"""mnn.cv.putText / getTextSize against OpenCV 4's Hershey text.

OpenCV 5 (the cv2 the other tests use) draws TrueType fonts in putText, so the reference here is a
record of OpenCV 4.10's output: tests/cv/data/hershey_cv2_4.json holds, for 820 calls, cv2's
getTextSize and a digest of its putText pixels (tools/derive_hershey_faces.py writes it): 420
calls of 8 faces, their italic variants and the italic flag, 5 strings incl. non-ASCII, scales
0.55..2.3, thickness 1..3, LINE_8/4/AA and the alias 0, bottomLeftOrigin, 1/3/4 channels,
uint8/uint16/float32; then every character of every face (printable ASCII, the Cyrillic of
FONT_HERSHEY_COMPLEX, non-ASCII characters drawn as '?') in lines of 16, thin and thick, LINE_8
and LINE_4. Expected:
- getTextSize equal, for every string;
- putText pixel-identical for LINE_8 / LINE_4 / 0 and LINE_AA whenever no character of the
  string is drawn with a stand-in glyph (_hershey.missing: OpenCV's own glyphs, in no public
  Hershey set; mnn draws them in cv2's advance), also for text running off the image (cv2 4.10
  and 5 draw anti-aliased lines and thick strokes with the same arithmetic, which mnn
  reproduces); with stand-ins, identical outside their columns (162 calls).
"""
import hashlib
import importlib.util
import json
import os

import numpy
import pytest

if importlib.util.find_spec("pyhershey") is None:
    pytest.skip("the optional text extra (pip install mnn[text]) is not installed", allow_module_level=True)

import mnn.cv as cv  # noqa: E402
import mnn.numpy as mnp  # noqa: E402
from mnn.cv import _hershey  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "data", "hershey_cv2_4.json")) as f:
    GOLDEN = json.load(f)["cases"]


def face_key(f):
    base = f & 15
    return base | 16 if f & 16 and base in (1, 3, 4, 5) else base


def canvas(c):
    shape = (150, 700, c["cn"]) if c["cn"] > 1 else (150, 700)
    return (numpy.arange(int(numpy.prod(shape))) * 7 % 61).astype(c["dtype"]).reshape(shape)


def digest(img):
    return hashlib.sha256(numpy.ascontiguousarray(numpy.asarray(img)).tobytes()).hexdigest()[:20]


def stand_ins(c):
    """Does the string hold a character mnn draws with a stand-in glyph?"""
    return bool(set(_hershey.codes(c["text"], c["face"])) & _hershey.missing(face_key(c["face"])))


def exact_expected(c):
    if stand_ins(c):
        return False
    return True


def stand_in_columns(c):
    """Image columns around the characters mnn draws with stand-ins (their advance, widened by 30%
    and the thickness on both sides); tools/derive_hershey_faces.py recorded cv2's pixels outside."""
    face = face_key(c["face"])
    gone = _hershey.missing(face)
    glyphs = _hershey.face_table(face, "test")[2]
    x, cols = float(c["org"][0]), []
    for code in _hershey.codes(c["text"], c["face"]):
        adv = (glyphs[code][1] - glyphs[code][0]) * c["scale"]
        if code in gone:
            m = 0.3 * adv + c["thickness"] + 1
            cols.append((max(int(x - m), 0), int(x + adv + m) + 1))
        x += adv
    return cols


def draw(c, img=None):
    img = canvas(c) if img is None else img
    return cv.putText(img, c["text"], tuple(c["org"]), c["face"], c["scale"], c["color"], c["thickness"],
                      c["lineType"], c["blo"])


@pytest.mark.parametrize("i", range(len(GOLDEN)))
def test_text_size_matches_cv2_4(i):
    c = GOLDEN[i]
    (w, h), base = cv.getTextSize(c["text"], c["face"], c["scale"], c["thickness"])
    (rw, rh), rbase = c["size"]
    assert (h, base) == (rh, rbase)
    assert w == rw  # stand-in glyphs too: they are drawn in cv2's advance


@pytest.mark.parametrize("i", range(len(GOLDEN)))
def test_put_text_matches_cv2_4(i):
    c = GOLDEN[i]
    out = draw(c)
    ink = float(numpy.abs(numpy.asarray(out, numpy.float64) - canvas(c)).sum())
    assert ink > 0
    if exact_expected(c):
        assert digest(out) == c["sha"]
    else:  # a few glyphs differ: most of the ink is the same
        assert abs(ink - c["ink"]) <= 0.5 * c["ink"]
    if "sha_rest" in c and c["lineType"] != cv.LINE_AA and c["org"][0] + c["size"][0][0] + 4 < 700:
        # stand-ins are drawn in cv2's advance: every other character is cv2's, pixel for pixel
        rest = numpy.asarray(out).copy()
        for a, b in stand_in_columns(c):
            rest[:, a:b] = canvas(c)[:, a:b]
        assert digest(rest) == c["sha_rest"]


def test_put_text_in_place_on_mnn_and_numpy():
    c = next(c for c in GOLDEN if exact_expected(c) and c["dtype"] == "uint8" and c["cn"] == 3)
    a = canvas(c)
    ret = draw(c, a)
    assert ret is a and digest(a) == c["sha"]
    m = mnp.asarray(canvas(c))
    ret = draw(c, m)
    assert ret is m and digest(numpy.asarray(m)) == c["sha"]
    big = numpy.zeros((300, 800, 3), numpy.uint8)  # a view writes through to its base
    base_c = dict(c)
    view = big[10:160, 50:750]
    view[...] = canvas(c)
    draw(base_c, view)
    assert digest(big[10:160, 50:750]) == c["sha"] and not big[:10].any()


def test_text_stays_inside_its_box():
    # ink extents (x min, x max, y min, y max) of OpenCV 4.10's "Typography" at (20, 100), scale 1.5,
    # thickness 2 (Hershey glyphs may cross getTextSize's box: FONT_HERSHEY_PLAIN's capitals do)
    ref = {cv.FONT_HERSHEY_SIMPLEX: (21, 281, 68, 112), cv.FONT_HERSHEY_PLAIN: (21, 164, 84, 104),
           cv.FONT_HERSHEY_TRIPLEX | cv.FONT_ITALIC: (25, 338, 68, 112),
           cv.FONT_HERSHEY_COMPLEX_SMALL: (22, 234, 80, 107), cv.FONT_HERSHEY_SCRIPT_COMPLEX: (21, 254, 68, 119)}
    for face, box in ref.items():
        (w, h), base = cv.getTextSize("Typography", face, 1.5, 2)
        img = numpy.zeros((200, 600), numpy.uint8)
        cv.putText(img, "Typography", (20, 100), face, 1.5, 255, 2)
        ys, xs = numpy.nonzero(img)
        if stand_ins(dict(text="Typography", face=face)):  # PLAIN's lower case: other glyphs, same cell
            assert (xs.min(), ys.min()) == box[::2] and xs.max() <= 20 + w and ys.max() <= 100 + 2 * base
        else:
            assert (xs.min(), xs.max(), ys.min(), ys.max()) == box


def test_empty_text_and_nul():
    img = numpy.full((20, 30), 9, numpy.uint8)
    assert cv.putText(img, "", (2, 10), cv.FONT_HERSHEY_SIMPLEX, 1.0, 255) is img and (img == 9).all()
    assert cv.getTextSize("", cv.FONT_HERSHEY_SIMPLEX, 1.5, 3) == ((3, 34), 15)  # OpenCV 4.10's answer
    assert cv.getTextSize("ab\0cd", 0, 1.0, 1) == cv.getTextSize("ab", 0, 1.0, 1)  # a C string for cv2


def test_errors():
    img = numpy.zeros((20, 30), numpy.uint8)
    for bad in (8, 15, -1):
        with pytest.raises(cv.error, match=r"\[mnn.cv.putText\] Unknown font type"):
            cv.putText(img, "a", (2, 10), bad, 1.0, 255)
        with pytest.raises(cv.error, match=r"\[mnn.cv.getTextSize\] Unknown font type"):
            cv.getTextSize("a", bad, 1.0, 1)
    with pytest.raises(cv.error, match=r"\[mnn.cv.putText\] thickness"):
        cv.putText(img, "a", (2, 10), 0, 1.0, 255, -1)
    with pytest.raises(TypeError, match=r"\[mnn.cv.putText\].*'text'"):
        cv.putText(img, 12, (2, 10), 0, 1.0, 255)
    with pytest.raises(cv.error, match=r"\[mnn.cv.getTextSize\].*fontScale"):
        cv.getTextSize("a", 0, "big", 1)


def test_missing_package_says_how_to_install(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyhershey" else real(name, *a))
    for name, empty in (("_db", None), ("_glyphs", {}), ("_tables", {}), ("_mappings", None)):
        monkeypatch.setattr(_hershey, name, empty)
    with pytest.raises(ImportError, match=r"\[mnn.cv.putText\].*pip install mnn\[text\]"):
        cv.putText(numpy.zeros((20, 30), numpy.uint8), "a", (2, 10), 0, 1.0, 255)
    with pytest.raises(ImportError, match=r"\[mnn.cv.getTextSize\].*pip install mnn\[text\]"):
        cv.getTextSize("a", 0, 1.0, 1)


def test_every_character_is_recorded():
    """The golden file draws every character of every face, and compares by digest every one mnn
    has cv2's glyph for; the stand-ins are the documented few."""
    seen = {}
    for c in GOLDEN:
        if exact_expected(c) and c["lineType"] in (cv.LINE_4, cv.LINE_8):
            seen.setdefault(face_key(c["face"]), set()).update(_hershey.codes(c["text"], c["face"]))
    for f in (0, 1, 2, 3, 4, 5, 6, 7, 1 | 16, 3 | 16, 4 | 16, 5 | 16):
        want = set(range(32, 127)) | (set(range(127, 191)) if f == 3 else set())
        assert seen[f] == want - _hershey.missing(f), f
    # what cannot be drawn from the Hershey data (OpenCV's own glyphs): at most these
    assert _hershey.missing(3) == set(map(ord, "#\\_{}")) and _hershey.missing(5) == set(map(ord, "#\\{}"))
    assert len(_hershey.missing(1)) <= 45 and all(len(_hershey.missing(f)) <= 10 for f in (0, 2, 4, 6, 7, 19, 20, 21))
