"""mnn.cv.putText / getTextSize against OpenCV 4's Hershey text.

OpenCV 5 (the cv2 the other tests use) draws TrueType fonts in putText, so the reference here is a
record of OpenCV 4.10's output: tests/cv/data/hershey_cv2_4.json holds, for 420 calls (8 faces, their italic variants
and the italic flag, 5 strings incl. non-ASCII, scales 0.55..2.3, thickness 1..3, LINE_8/4/AA and
the alias 0, bottomLeftOrigin, 1/3/4 channels, uint8/uint16/float32), cv2's getTextSize and a
digest of its putText pixels (tools/derive_hershey_faces.py writes it). Expected:
- getTextSize equal, except the width for FONT_HERSHEY_PLAIN / COMPLEX_SMALL (stand-in glyphs) and
  for strings holding a character of _hershey._MISSING;
- putText pixel-identical for LINE_8 / LINE_4 / 0 and LINE_AA whenever the face's glyphs are in the
  package and no character of the string is missing, also for text running off the image (cv2 4.10
  and 5 draw anti-aliased lines and thick strokes with the same arithmetic, which mnn reproduces).
"""
import hashlib
import json
import os

import numpy
import pytest

pytest.importorskip("HersheyFonts", reason="the optional text extra (pip install mnn[text]) is not installed")

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


def exact_expected(c):
    k = face_key(c["face"])
    if k in _hershey._STAND_INS or set(c["text"]) & set(_hershey._MISSING[k]):
        return False
    return True


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
    k = face_key(c["face"])
    if k in _hershey._STAND_INS or set(c["text"]) & set(_hershey._MISSING[k]):
        assert abs(w - rw) <= 0.35 * rw  # stand-in glyphs: the same cell, other widths
    else:
        assert w == rw


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
    for face in (cv.FONT_HERSHEY_SIMPLEX, cv.FONT_HERSHEY_PLAIN, cv.FONT_HERSHEY_TRIPLEX | cv.FONT_ITALIC,
                 cv.FONT_HERSHEY_COMPLEX_SMALL, cv.FONT_HERSHEY_SCRIPT_COMPLEX):
        (w, h), base = cv.getTextSize("Typography", face, 1.5, 2)
        img = numpy.zeros((200, 600), numpy.uint8)
        cv.putText(img, "Typography", (20, 100), face, 1.5, 255, 2)
        ys, xs = numpy.nonzero(img)
        assert xs.min() >= 20 - 2 and xs.max() <= 20 + w
        assert ys.min() >= 100 - h and ys.max() <= 100 + 2 * base  # Hershey descenders pass the baseline


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
    import sys
    monkeypatch.setitem(sys.modules, "HersheyFonts", None)
    monkeypatch.setattr(_hershey, "_fonts", None)
    monkeypatch.setattr(_hershey, "_tables", {})
    with pytest.raises(ImportError, match=r"\[mnn.cv.putText\].*pip install mnn\[text\]"):
        cv.putText(numpy.zeros((20, 30), numpy.uint8), "a", (2, 10), 0, 1.0, 255)
    with pytest.raises(ImportError, match=r"\[mnn.cv.getTextSize\].*pip install mnn\[text\]"):
        cv.getTextSize("a", 0, 1.0, 1)
