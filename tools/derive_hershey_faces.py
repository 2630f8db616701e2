"""How mnn/cv/_hershey.py's face table was found, and the reference file of tests/cv/test_text.py.

OpenCV 5's putText draws TrueType fonts; the Hershey faces mnn reproduces are OpenCV 4's, so both
modes need an OpenCV 4 build of cv2 on the path, e.g.
    pip install --target /tmp/cv4 --no-deps opencv-python-headless==4.10.0.84
    PYTHONPATH=/tmp/cv4:src python tools/derive_hershey_faces.py faces
    PYTHONPATH=/tmp/cv4:src python tools/derive_hershey_faces.py golden > tests/cv/data/hershey_cv2_4.json

faces:  for every cv2 face and character, renders the character with cv2 at fontScale 3 and every
        glyph of every .jhf file of the Hershey-Fonts package through mnn's rasteriser, and prints
        which (file, character) draw the same pixels with the same advance.
golden: records cv2 4's getTextSize and a digest of its putText pixels for a set of calls (the
        test replays them with mnn.cv; no glyph data is stored, only digests and sizes).
"""
import hashlib
import json
import sys

import cv2
import numpy as np

import mnn.cv as mcv
from mnn.cv import _drawing, _hershey

FACES = [0, 1, 2, 3, 4, 5, 6, 7, 1 | 16, 3 | 16, 4 | 16, 5 | 16]


def render(glyph, base, shape=(200, 200), org=(60, 130), scale=3.0):
    """One glyph drawn the way putText draws it (thin LINE_8 strokes, 16-bit fixed point)."""
    img = np.zeros(shape, np.uint8)
    hs = round(scale * 65536)
    vx, vy = (org[0] << 16) - glyph[0] * hs, (org[1] << 16) - base * hs
    ints = []
    for s in glyph[2]:
        ints += [_drawing._POLYLINE, 0, 1, 0, 16, len(s)]
        for x, y in s:
            ints += (x * hs + vx, y * hs + vy)
    if ints:
        _drawing._draw(img, img, ints, [255.0, 0, 0, 0])
    return img


def faces():
    fonts = _hershey._load_fonts("derive")
    for f in FACES:
        (w, h), base = cv2.getTextSize("A", f, 1.0, 0)
        print(f"face {f}: cap {h - base} base {base}")
        for code in range(32, 127):
            ch = chr(code)
            ref = cv2.putText(np.zeros((200, 200), np.uint8), ch, (60, 130), f, 3.0, 255, 1, 8)
            adv = cv2.getTextSize(ch, f, 1.0, 0)[0][0]
            hits = [(name, chr(k + 32)) for name, glyphs in fonts.items() for k, g in enumerate(glyphs)
                    if g[1] - g[0] == adv and np.array_equal(render(g, base), ref)]
            print(f"  {ch!r}: {hits[:6]}")


def cases():
    texts = ["Hello, World!", "mnn 0.42 (qty) x=3;y", "AaBbCc Kilo", "SCORE: 97% [ok]", "é Ж ü"]
    out = []
    for f in FACES + [16, 2 | 16]:
        for i, text in enumerate(texts):
            for scale, t, lt in [(1.0, 1, 8), (0.55, 1, 4), (1.7, 2, 8), (2.3, 3, 4), (0.8, 1, 0), (1.2, 2, 16)]:
                blo = (i + t) % 3 == 0
                cn, dtype = [(3, "uint8"), (1, "uint8"), (4, "float32"), (3, "uint16")][(i + f) % 4]
                color = [(10, 200, 255), (77,), (0.25, 0.5, 0.75, 1.0), (60000, 3, 999)][(i + f) % 4]
                org = (7, 70 if not blo else 20)
                out.append(dict(text=text, face=f, scale=scale, thickness=t, lineType=lt, blo=blo,
                                org=org, cn=cn, dtype=dtype, color=color))
    return out


def canvas(c):
    """A textured background (so that drawn-over pixels are visible in the digest)."""
    shape = (150, 700, c["cn"]) if c["cn"] > 1 else (150, 700)
    return (np.arange(int(np.prod(shape))) * 7 % 61).astype(c["dtype"]).reshape(shape)


def digest(img):
    img = np.ascontiguousarray(np.asarray(img))
    return hashlib.sha256(img.tobytes()).hexdigest()[:20]


def golden():
    out = []
    for c in cases():
        img = cv2.putText(canvas(c), c["text"], c["org"], c["face"], c["scale"], c["color"], c["thickness"],
                          c["lineType"], c["blo"])
        bg = canvas(c).astype(np.float64)
        rec = dict(c, sha=digest(img), size=cv2.getTextSize(c["text"], c["face"], c["scale"], c["thickness"]),
                   ink=float(np.abs(img.astype(np.float64) - bg).sum()))
        out.append(rec)
    sys.stdout.write('{"opencv": %s, "cases": [\n' % json.dumps(cv2.__version__))
    sys.stdout.write(",\n".join(json.dumps(r) for r in out))  # one call a line
    sys.stdout.write("\n]}\n")


if __name__ == "__main__":
    assert cv2.__version__.startswith("4."), "needs OpenCV 4 (OpenCV 5 draws TrueType text)"
    {"faces": faces, "golden": golden}[sys.argv[1]]()
