"""Random-argument mode of tools/cv_audit.py (a helper module it imports; run the audit, not this).

Where the audit's grid calls each function with fixed inputs, this draws random valid arguments per
function: odd sizes (97x131, 1x1, 1xN, Nx1), every depth and channel count, every border mode /
interpolation / flag value, numpy, mnn and non-contiguous inputs; and, one case in four, a spoiled
one (bad depth, bad flag, empty or 4-d image). A case is fully determined by (function, seed, case
number), so any finding replays:

    python tools/cv_audit.py --random 200                         # every function here, 200 cases each
    python tools/cv_audit.py --random 1000 --only resize,remap --seed 3
    python tools/cv_audit.py --random 1 --only resize --seed 7 --case 12   # replay one case, print it

Outcomes use the audit's classes (ok, both_raise, differ, mnn_lenient, mnn_missing, bad_message,
empty_none, crash, hang) plus two of this mode's own: off_by_1 (integer results off by exactly 1:
what cv2's IPP paths give, e.g. uint8 CUBIC resize, which the issue accepts) and mnn_stricter (mnn
raises on a spoiled argument cv2 takes anyway, e.g. an empty image: a lesser finding than
mnn_missing). Each function runs in its own child process, so a crash (segfault, abort) or a hang is
attributed to its case and side (cv2 5.0 itself loops forever in warpAffine/remap on 1-pixel images
with BORDER_REFLECT_101 and in some copyMakeBorder calls; the generators steer clear of those).
"""
import json
import math
import os
import subprocess
import sys
import time
import traceback

import numpy

# the audit's entry point: workers are started through it, so they find mnn the way it does
AUDIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cv_audit.py")
# findings not listed without verbose: accepted or lesser differences
QUIET = ("off_by_1", "mnn_stricter", "empty_none")

DEPTHS = ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"]
BAD_DEPTHS = ["int64", "uint32", "bool", "float16", "uint64"]
BORDERS = [0, 1, 2, 3, 4]  # CONSTANT, REPLICATE, REFLECT, WRAP, REFLECT_101
INTERPS = [0, 1, 2, 3, 4, 6]


class Img:
    """An image argument: given to cv2 as a contiguous numpy array, to mnn as numpy, mnn, or a
    non-contiguous view of either (the same pixels)."""

    def __init__(self, a, how):
        self.a, self.how = a, how

    def __repr__(self):
        return f"Img({self.a.shape}, {self.a.dtype}, {self.how})"


class Gen:
    def __init__(self, seed):
        self.rng = numpy.random.default_rng(seed)
        self.spoiled = False  # whether maybe_bad spoiled an argument

    def choice(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def int(self, lo, hi):
        return int(self.rng.integers(lo, hi + 1))

    def flt(self, lo, hi):
        return float(self.rng.uniform(lo, hi))

    def side(self, big=140):
        return self.choice([1, 1, 2, 3, self.int(1, 9), self.int(5, 40), self.int(20, big), 97, 131])

    def hw(self, big=140):
        r = self.rng.random()
        if r < 0.08:
            return 1, 1
        if r < 0.16:
            return 1, self.side(big)
        if r < 0.24:
            return self.side(big), 1
        if r < 0.34:
            return 97, 131
        return self.side(big), self.side(big)

    def values(self, shape, dtype, kind="random"):
        if dtype == "bool":
            return self.rng.random(shape) < 0.5
        if dtype.startswith("float"):
            if kind == "binary":
                return (self.rng.random(shape) < 0.3).astype(dtype)
            scale = self.choice([1.0, 255.0, 1000.0])
            v = self.rng.random(shape) * scale - (scale / 2 if self.rng.random() < 0.3 else 0)
            return v.astype(dtype)
        info = numpy.iinfo(dtype)
        if kind == "binary":
            return ((self.rng.random(shape) < 0.3) * self.choice([1, 255 if info.max >= 255 else 1])).astype(dtype)
        if kind == "blocks":  # piecewise-constant regions: edges and contours
            h, w = shape[:2]
            small = self.rng.integers(0, 2, (max(1, h // 6), max(1, w // 6)) + tuple(shape[2:])) * min(255, info.max)
            big = numpy.kron(small, numpy.ones((6, 6) + (1,) * (len(shape) - 2), dtype=numpy.int64))
            big = numpy.pad(big, [(0, max(0, h - big.shape[0])), (0, max(0, w - big.shape[1]))] +
                            [(0, 0)] * (len(shape) - 2))[:h, :w]
            return big.astype(dtype)
        lo, hi = max(info.min, -2**62), min(info.max, 2**62)
        if self.rng.random() < 0.5 and dtype not in ("uint8", "int8"):
            lo, hi = max(lo, -300), min(hi, 300)
        return self.rng.integers(lo, hi, shape, endpoint=True).astype(dtype)

    def image(self, depths=DEPTHS, cns=(1, 3, 4), h=None, w=None, kind="random", allow_3d1=True):
        if h is None:
            h, w = self.hw()
        dtype = self.choice(list(depths))
        cn = self.choice(list(cns))
        shape = (h, w) if cn == 1 and (not allow_3d1 or self.rng.random() < 0.8) else (h, w, cn)
        a = self.values(shape, dtype, kind)
        return Img(a, self.choice(["numpy", "mnn", "numpy-view", "mnn-view"]))

    def matrix(self, rows, cols, kind="affine"):
        if kind == "affine":
            ang, sc = self.flt(-180, 180), self.flt(0.5, 1.6)
            c, s = math.cos(math.radians(ang)) * sc, math.sin(math.radians(ang)) * sc
            return numpy.array([[c, s, self.flt(-20, 20)], [-s, c, self.flt(-20, 20)]])
        m = numpy.eye(3) + self.rng.normal(0, 0.05, (3, 3))
        m[2, :2] = self.rng.normal(0, 0.0008, 2)
        m[:2, 2] = self.rng.uniform(-10, 10, 2)
        return m

    def points(self, n, dtype="int32", spread=100):
        if dtype == "int32":
            return self.rng.integers(-spread, spread, (n, 1, 2)).astype(numpy.int32)
        return (self.rng.random((n, 1, 2)) * 2 * spread - spread).astype(dtype)


def to_cv2(x):
    if isinstance(x, Img):
        return numpy.ascontiguousarray(x.a)
    if isinstance(x, (list, tuple)):
        return type(x)(to_cv2(v) for v in x)
    return x


def to_mnn(x):
    import mnn.numpy as mnp
    if isinstance(x, Img):
        a, how = x.a, x.how
        if how.endswith("view"):
            # the same pixels inside a larger buffer: rows two apart, a column margin
            pad = numpy.zeros((a.shape[0] * 2, a.shape[1] + 3) + a.shape[2:], a.dtype)
            pad[::2, 1:1 + a.shape[1]] = a
            base = pad if how.startswith("numpy") else mnp.asarray(pad)
            return base[::2, 1:1 + a.shape[1]]
        return a if how == "numpy" else mnp.asarray(a)
    if isinstance(x, (list, tuple)):
        return type(x)(to_mnn(v) for v in x)
    return x


def describe(x):
    if isinstance(x, Img):
        return repr(x)
    if isinstance(x, numpy.ndarray):
        return f"array({x.shape}, {x.dtype})" if x.size > 12 else f"np.{x.dtype}({x.tolist()})"
    if isinstance(x, (list, tuple)):
        return type(x)(describe(v) for v in x).__repr__()
    if isinstance(x, dict):
        return {k: describe(v) for k, v in x.items()}
    return repr(x)


# ---------------------------------------------------------------------------------------------
# comparison


class Mismatch(Exception):
    def __init__(self, msg, off_by_one=False, status=None):
        super().__init__(msg)
        self.off_by_one = off_by_one
        self.status = status or ("off_by_1" if off_by_one else "differ")


def compare(got, want, path="out", rel=1e-5, scale=1.0):
    import mnn.numpy as mnp
    if isinstance(want, numpy.ndarray):
        if not isinstance(got, (mnp.ndarray, numpy.ndarray)):
            raise Mismatch(f"{path}: got {type(got).__name__}, want ndarray")
        g = numpy.asarray(got)
        if g.shape != want.shape or g.dtype != want.dtype:
            raise Mismatch(f"{path}: got {g.shape} {g.dtype}, want {want.shape} {want.dtype}")
        if want.dtype.kind == "f":
            gn, wn = numpy.isnan(g), numpy.isnan(want)
            if (gn != wn).any():
                raise Mismatch(f"{path}: NaN at {int((gn != wn).sum())} places differ")
            gf, wf = numpy.where(gn, 0, g).astype(numpy.float64), numpy.where(wn, 0, want).astype(numpy.float64)
            inf = numpy.isinf(wf) | numpy.isinf(gf)
            if (gf[inf] != wf[inf]).any():
                raise Mismatch(f"{path}: infinities differ")
            fin = ~inf
            sc = max(scale, float(numpy.abs(wf[fin]).max(initial=0)))
            d = numpy.abs(gf[fin] - wf[fin])
            if d.size and d.max() > rel * sc:
                raise Mismatch(f"{path}: max diff {d.max():.3g} (scale {sc:.3g}), {int((d > rel * sc).sum())} values")
        else:
            d = numpy.abs(g.astype(numpy.int64) - want.astype(numpy.int64))
            if d.max(initial=0) > 0:
                raise Mismatch(f"{path}: max diff {d.max()}, {int((d > 0).sum())} of {d.size} values",
                               off_by_one=d.max() == 1)
        return
    if isinstance(want, (tuple, list)):
        if isinstance(got, mnp.ndarray):
            got = numpy.asarray(got)
        if not isinstance(got, (tuple, list, numpy.ndarray)) or len(got) != len(want):
            raise Mismatch(f"{path}: got {type(got).__name__} len {len(got) if hasattr(got, '__len__') else '-'}, "
                           f"want {type(want).__name__} len {len(want)}")
        ob = []
        for i, (g, w) in enumerate(zip(got, want)):
            try:
                compare(g, w, f"{path}[{i}]", rel, scale)
            except Mismatch as e:
                if not e.off_by_one:
                    raise
                ob.append(e)
        if ob:
            raise ob[0]
        return
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            raise Mismatch(f"{path}: got {type(got).__name__} keys {sorted(got) if isinstance(got, dict) else '-'}")
        for k in want:
            compare(got[k], want[k], f"{path}[{k!r}]", rel, scale)
        return
    if want is None:
        if isinstance(got, (mnp.ndarray, numpy.ndarray)) and got.size == 0:
            raise Mismatch(f"{path}: got an empty array, want None (cv2 hands an empty result back as None)",
                           status="empty_none")
        if got is not None:
            raise Mismatch(f"{path}: got {type(got).__name__}, want None")
        return
    if isinstance(want, bool):
        if got is not want and got != want:
            raise Mismatch(f"{path}: got {got!r}, want {want!r}")
        return
    if isinstance(want, (int, float, numpy.number)):
        if isinstance(got, mnp.ndarray):
            got = numpy.asarray(got).item()
        if not isinstance(got, (int, float, numpy.number)):
            raise Mismatch(f"{path}: got {type(got).__name__}, want a number {want!r}")
        w, g = float(want), float(got)
        if math.isnan(w) and math.isnan(g):
            return
        if isinstance(want, (int, numpy.integer)) and not isinstance(want, bool):
            if g != w:
                raise Mismatch(f"{path}: got {got!r}, want {want!r}", off_by_one=abs(g - w) == 1)
            return
        if not abs(g - w) <= rel * max(scale, abs(w)):
            raise Mismatch(f"{path}: got {got!r}, want {want!r}")
        return
    if got != want:
        raise Mismatch(f"{path}: got {got!r}, want {want!r}")


# ---------------------------------------------------------------------------------------------
# generators: each returns (args, kwargs), arrays as Img; `bad` generators give invalid arguments

SPECS = {}


def spec(name, cv2_name=None, rel=1e-5, post=None, scale=None):
    """scale(args): the magnitude float results are relative to, where it is the input's (point
    coordinates) rather than the result's own."""
    def deco(f):
        SPECS[name] = dict(gen=f, cv2=cv2_name or name, rel=rel, post=post, scale=scale)
        return f
    return deco


def maybe_bad(g, args, kwargs, img_index=0, flags=(), empty=True):
    """With probability 1/4, spoil one argument: a bad depth, an empty or 4-d image, a bad flag.
    empty=False leaves out empty images (where cv2 itself crashes on them)."""
    if g.rng.random() >= 0.25:
        return args, kwargs
    g.spoiled = True
    args = list(args)
    r = g.int(0, 3 if flags else 2)
    if r == 1 and not empty:
        r = 0
    img = args[img_index]
    if r == 0 and isinstance(img, Img):
        args[img_index] = Img(g.values(img.a.shape, g.choice(BAD_DEPTHS)), img.how)
    elif r == 1 and isinstance(img, Img):
        args[img_index] = Img(numpy.zeros((0,) + img.a.shape[1:], img.a.dtype), "numpy")
    elif r == 2 and isinstance(img, Img):
        args[img_index] = Img(numpy.zeros((2, 3, 4, 5), img.a.dtype), "numpy")
    elif flags:
        key = g.choice(list(flags))
        val = g.choice([-1, 7, 99, 1 << 20])
        if isinstance(key, int):
            args[key] = val
        else:
            kwargs = dict(kwargs, **{key: val})
    return args, kwargs


@spec("resize")
def _resize(g):
    img = g.image(cns=(1, 2, 3, 4, 5, 7))
    h, w = img.a.shape[:2]
    interp = g.choice(INTERPS)
    if g.rng.random() < 0.7:
        dsize = (g.side(), g.side()) if g.rng.random() < 0.5 else (max(1, w // g.int(1, 4)), max(1, h // g.int(1, 4)))
        return maybe_bad(g, [img, dsize], dict(interpolation=interp), flags=("interpolation",))
    fx, fy = g.choice([0.5, 0.25, 1 / 3, 2.0, 1.5, g.flt(0.1, 3)]), g.choice([0.5, 0.25, 2.0, g.flt(0.1, 3)])
    return maybe_bad(g, [img, None], dict(fx=fx, fy=fy, interpolation=interp), flags=("interpolation",))


def _warp_common(g, perspective):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 2, 3, 4))
    h, w = img.a.shape[:2]
    M = g.matrix(3 if perspective else 2, 3, "persp" if perspective else "affine")
    if not perspective:
        M[:, 2] += (w / 2 - M[0, 0] * w / 2 - M[0, 1] * h / 2, h / 2 - M[1, 0] * w / 2 - M[1, 1] * h / 2)
    dsize = (g.side(), g.side()) if g.rng.random() < 0.4 else (w, h)
    flags = g.choice([0, 1, 2, 3, 4]) | (16 if g.rng.random() < 0.3 else 0)
    border = g.choice([0, 1, 2, 3, 4])  # (BORDER_TRANSPARENT: cv2 leaves its new dst uninitialised)
    if min(h, w) == 1 and border == 4:
        border = 1  # cv2 never returns (a 1-pixel side has no REFLECT_101 neighbour)
    kw = dict(flags=flags, borderMode=border)
    if border == 0 and g.rng.random() < 0.5:
        kw["borderValue"] = tuple(g.flt(0, 255) for _ in range(4)) if g.rng.random() < 0.5 else g.int(0, 255)
    return maybe_bad(g, [img, M, dsize], kw, flags=("flags", "borderMode"))


@spec("warpAffine")
def _warp_affine(g):
    return _warp_common(g, False)


@spec("warpPerspective")
def _warp_perspective(g):
    return _warp_common(g, True)


@spec("remap")
def _remap(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 2, 3, 4))
    h, w = img.a.shape[:2]
    dh, dw = g.hw(80)
    mx = (g.rng.random((dh, dw)) * (w + 4) - 2).astype(numpy.float32)
    my = (g.rng.random((dh, dw)) * (h + 4) - 2).astype(numpy.float32)
    interp = g.choice([0, 1, 2, 4])
    border = g.choice([0, 1, 2, 3, 4])  # (BORDER_TRANSPARENT: cv2 leaves its new dst uninitialised)
    if min(h, w) == 1 and border == 4:
        border = 1  # cv2 never returns (a 1-pixel side has no REFLECT_101 neighbour)
    if g.rng.random() < 0.3:  # one two-channel map
        m = numpy.dstack([mx, my])
        return maybe_bad(g, [img, Img(m, "numpy"), None, interp], dict(borderMode=border), flags=(3, "borderMode"))
    return maybe_bad(g, [img, Img(mx, g.choice(["numpy", "mnn"])), Img(my, "numpy"), interp],
                     dict(borderMode=border, borderValue=g.int(0, 255)), flags=(3, "borderMode"))


def _color_codes():
    import cv2
    return sorted({getattr(cv2, n) for n in dir(cv2) if n.startswith("COLOR_")})


@spec("cvtColor")
def _cvt_color(g):
    import cv2
    code = g.choice(_color_codes())
    h, w = g.hw(60)
    if g.rng.random() < 0.6:
        h, w = h * 2, w * 2  # the YUV 4:2:0 layouts need even sides
    dtypes = ["uint8", "uint16", "float32", "float64", "int8"]
    combos = [(cn, dt) for cn in (1, 2, 3, 4) for dt in dtypes]
    g.rng.shuffle(combos)
    if g.rng.random() < 0.85:  # mostly a combination cv2 takes (found by asking it)
        for cn, dt in combos:
            try:
                cv2.cvtColor(numpy.zeros((h, w, cn), dt), code)
                break
            except cv2.error:
                continue
    else:
        cn, dt = combos[0]
    shape = (h, w) if cn == 1 and g.rng.random() < 0.7 else (h, w, cn)
    a = g.values(shape, dt)
    if dt.startswith("float") and g.rng.random() < 0.7:
        a = g.rng.random(shape).astype(dt)  # the 0..1 range of float images
    return [Img(a, g.choice(["numpy", "mnn", "numpy-view", "mnn-view"])), code], {}


@spec("GaussianBlur")
def _gaussian(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 2, 3, 4))
    k = (g.choice([0, 1, 3, 5, 7, 9, 15]), g.choice([0, 1, 3, 5, 7]))
    s = g.choice([0, 0.5, 1.0, 1.5, 3.3])
    if k[0] == 0 or k[1] == 0:
        s = g.choice([0.8, 1.2, 2.0])
    kw = dict(sigmaY=g.choice([0, 0, 1.1, 2.5]), borderType=g.choice([0, 1, 2, 4, 16 | 4]))
    return maybe_bad(g, [img, k, s], kw, flags=("borderType",))


@spec("blur")
def _blur(g):
    img = g.image(cns=(1, 2, 3, 4))
    k = (g.int(1, 9), g.int(1, 9))
    return maybe_bad(g, [img, k], dict(borderType=g.choice([0, 1, 2, 4])), flags=("borderType",))


@spec("boxFilter")
def _box(g):
    img = g.image(cns=(1, 3, 4))
    k = (g.int(1, 7), g.int(1, 7))
    return maybe_bad(g, [img, g.choice([-1, 5, 6]), k], dict(normalize=g.choice([True, False]),
                                                              borderType=g.choice([0, 1, 2, 4])), flags=("borderType",))


@spec("medianBlur")
def _median(g):
    img = g.image(depths=("uint8", "uint16", "float32"), cns=(1, 3, 4))
    k = g.choice([1, 3, 5, 7]) if img.a.dtype != numpy.uint8 else g.choice([1, 3, 5, 7, 9, 11])
    return maybe_bad(g, [img, k], {}, flags=(1,))


@spec("bilateralFilter")
def _bilateral(g):
    img = g.image(depths=("uint8", "float32"), cns=(1, 3))
    return maybe_bad(g, [img, g.choice([-1, 0, 3, 5, 9]), g.flt(5, 80), g.flt(1, 20)],
                     dict(borderType=g.choice([0, 1, 2, 4])), flags=("borderType",))


def _deriv_ddepth(g, img):
    return g.choice([-1, 3, 5, 6]) if img.a.dtype == numpy.uint8 else g.choice([-1, 5, 6])


@spec("Sobel")
def _sobel(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 3))
    k = g.choice([1, 3, 5, 7, -1])
    dx, dy = g.choice([(1, 0), (0, 1), (1, 1), (2, 0), (0, 2)])
    return maybe_bad(g, [img, _deriv_ddepth(g, img), dx, dy], dict(ksize=k, scale=g.choice([1, 0.5]),
                                                                   delta=g.choice([0, 10]),
                                                                   borderType=g.choice([0, 1, 2, 4])),
                     flags=("borderType",))


@spec("Scharr")
def _scharr(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 3))
    dx, dy = g.choice([(1, 0), (0, 1)])
    return maybe_bad(g, [img, _deriv_ddepth(g, img), dx, dy], dict(borderType=g.choice([0, 1, 2, 4])),
                     flags=("borderType",))


@spec("Laplacian")
def _laplacian(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 3))
    return maybe_bad(g, [img, _deriv_ddepth(g, img)], dict(ksize=g.choice([1, 3, 5]), borderType=g.choice([0, 1, 2, 4])),
                     flags=("borderType",))


@spec("filter2D")
def _filter2d(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 3, 4))
    kh, kw = g.int(1, 7), g.int(1, 7)
    k = g.rng.normal(0, 1, (kh, kw)).astype(g.choice([numpy.float32, numpy.float64]))
    return maybe_bad(g, [img, g.choice([-1, 5, 6]), k], dict(delta=g.choice([0, 3.5]), borderType=g.choice([0, 1, 2, 4])),
                     flags=("borderType",))


@spec("sepFilter2D")
def _sepfilter(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 3, 4))
    kx = g.rng.normal(0, 1, g.int(1, 7)).astype(numpy.float32)
    ky = g.rng.normal(0, 1, g.int(1, 7)).astype(numpy.float32)
    return maybe_bad(g, [img, g.choice([-1, 5, 6]), kx, ky], dict(borderType=g.choice([0, 1, 2, 4])), flags=("borderType",))


def _kernel(g):
    import cv2
    shape = g.choice([0, 1, 2])
    ks = (g.int(1, 7), g.int(1, 7))
    return cv2.getStructuringElement(shape, ks) if g.rng.random() < 0.8 else \
        (g.rng.random((g.int(1, 5), g.int(1, 5))) < 0.6).astype(numpy.uint8)


@spec("erode")
def _erode(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 3, 4))
    kw = dict(iterations=g.choice([1, 1, 2, 3]), borderType=g.choice([0, 1, 2, 4]))
    if g.rng.random() < 0.3:
        kw["borderValue"] = g.int(0, 255)
    return maybe_bad(g, [img, _kernel(g)], kw, flags=("borderType",))


@spec("dilate")
def _dilate(g):
    return _erode(g)


@spec("morphologyEx")
def _morph(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 3, 4))
    op = g.choice([0, 1, 2, 3, 4, 5, 6, 7])
    k = _kernel(g)
    if op == 7:  # HITMISS: uint8 one channel, kernel of -1/0/1
        img = g.image(depths=("uint8",), cns=(1,), kind="binary")
        k = g.rng.integers(-1, 2, (3, 3)).astype(numpy.int32)
    return maybe_bad(g, [img, op, k], dict(iterations=g.choice([1, 2]), borderType=g.choice([0, 1, 2, 4])),
                     flags=(1, "borderType"))


@spec("threshold")
def _threshold(g):
    typ = g.choice([0, 1, 2, 3, 4])
    extra = g.choice([0, 0, 8, 16])
    depths = ("uint8",) if extra else ("uint8", "int8", "uint16", "int16", "float32", "float64")
    cns = (1,) if extra else (1, 2, 3, 4)
    img = g.image(depths=depths, cns=cns)
    return maybe_bad(g, [img, g.choice([0, 127, 127.5, -3, 200, 1e6]), g.choice([255, 1, 100.5]), typ | extra], {},
                     flags=(3,))


@spec("adaptiveThreshold")
def _adaptive(g):
    img = g.image(depths=("uint8",), cns=(1,))
    return maybe_bad(g, [img, g.choice([255, 100]), g.choice([0, 1]), g.choice([0, 1]), g.choice([3, 5, 11]),
                         g.choice([0, 2, -3.5])], {}, flags=(2, 3, 4))


@spec("Canny")
def _canny(g):
    img = g.image(depths=("uint8",), cns=(1, 3), kind=g.choice(["random", "blocks"]))
    return maybe_bad(g, [img, g.choice([10, 50, 100]), g.choice([30, 150, 200])],
                     dict(apertureSize=g.choice([3, 5, 7]), L2gradient=g.choice([False, True])), flags=("apertureSize",))


@spec("findContours")
def _find_contours(g):
    img = g.image(depths=("uint8",), cns=(1,), kind=g.choice(["binary", "blocks", "random"]), allow_3d1=False)
    mode, method = g.choice([0, 1, 2, 3]), g.choice([1, 2, 3, 4])
    if g.rng.random() < 0.1:
        img = g.image(depths=("int32",), cns=(1,), kind="binary", allow_3d1=False)
        mode = g.choice([1, 2])  # cv2: 32-bit images only with CCOMP or FLOODFILL
    return maybe_bad(g, [img, mode, method], {}, flags=(1, 2))


def _labels_gen(g):
    img = g.image(depths=("uint8", "int8"), cns=(1,), kind=g.choice(["binary", "blocks"]), allow_3d1=False)
    # (cv2 5.0 segfaults on an empty image here)
    return maybe_bad(g, [img], dict(connectivity=g.choice([4, 8]), ltype=g.choice([4, 2])), flags=("connectivity",),
                     empty=False)


@spec("connectedComponents")
def _cc(g):
    return _labels_gen(g)


@spec("connectedComponentsWithStats")
def _ccs(g):
    return _labels_gen(g)


@spec("normalize")
def _normalize(g):
    img = g.image(depths=("uint8", "int8", "uint16", "int16", "int32", "float32", "float64"), cns=(1, 2, 3, 4))
    nt = g.choice([1, 2, 4, 32])
    kw = dict(alpha=g.choice([1, 0, 255, 0.5]), beta=g.choice([0, 1, 255]), norm_type=nt,
              dtype=g.choice([-1, -1, 0, 5, 6]))
    return maybe_bad(g, [img, None], kw, flags=("norm_type",))


@spec("LUT")
def _lut(g):
    img = g.image(depths=("uint8", "int8"), cns=(1, 3, 4))
    cn = g.choice([1, 1, img.a.shape[2] if img.a.ndim == 3 else 1])
    lut = g.values((256,) if cn == 1 and g.rng.random() < 0.5 else (1, 256, cn) if cn > 1 else (256, 1),
                   g.choice(["uint8", "int16", "float32", "float64", "int32"]))
    return maybe_bad(g, [img, lut], {})


def _points_scale(args):
    return max(1.0, float(numpy.abs(numpy.asarray(args[0], dtype=numpy.float64)).max(initial=0)))


def _point_set(g, n=None, dtype=None):
    n = n or g.choice([1, 2, 3, 4, 5, 10, 50])
    return g.points(n, dtype or g.choice(["int32", "float32"]))


@spec("minAreaRect", scale=_points_scale)
def _min_area_rect(g):
    return [_point_set(g)], {}


@spec("boxPoints")
def _box_points(g):
    return [((g.flt(-50, 50), g.flt(-50, 50)), (g.flt(0, 40), g.flt(0, 40)), g.flt(-180, 180))], {}


@spec("approxPolyDP", scale=_points_scale)
def _approx(g):
    return [_point_set(g), g.choice([0.5, 1, 3, 10, 0]), g.choice([True, False])], {}


@spec("convexHull", scale=_points_scale)
def _hull(g):
    return [_point_set(g)], dict(clockwise=g.choice([False, True]), returnPoints=g.choice([True, False]))


@spec("contourArea", scale=_points_scale)
def _area(g):
    return [_point_set(g)], dict(oriented=g.choice([False, True]))


@spec("arcLength", scale=_points_scale)
def _arc(g):
    return [_point_set(g), g.choice([True, False])], {}


@spec("boundingRect")
def _brect(g):
    if g.rng.random() < 0.3:
        return [g.image(depths=("uint8",), cns=(1,), kind="binary", allow_3d1=False)], {}
    return [_point_set(g)], {}


@spec("moments")
def _moments(g):
    if g.rng.random() < 0.5:
        return [g.image(depths=("uint8", "float32"), cns=(1,), allow_3d1=False), g.choice([False, True])], {}
    return [_point_set(g)], {}


@spec("fitEllipse", scale=_points_scale)
def _fit_ellipse(g):
    return [_point_set(g, n=g.choice([5, 6, 20, 50]), dtype="float32")], {}


@spec("minEnclosingCircle", scale=_points_scale)
def _mec(g):
    return [_point_set(g)], {}


@spec("pointPolygonTest", scale=_points_scale)
def _ppt(g):
    return [_point_set(g, n=g.choice([3, 5, 20])), (g.flt(-100, 100), g.flt(-100, 100)), g.choice([True, False])], {}


@spec("flip")
def _flip(g):
    return maybe_bad(g, [g.image(cns=(1, 2, 3, 4, 5)), g.choice([0, 1, -1])], {})


@spec("transpose")
def _transpose(g):
    return maybe_bad(g, [g.image(cns=(1, 2, 3, 4))], {})


@spec("rotate")
def _rotate(g):
    return maybe_bad(g, [g.image(cns=(1, 2, 3, 4)), g.choice([0, 1, 2])], {}, flags=(1,))


@spec("copyMakeBorder")
def _cmb(g):
    img = g.image(cns=(1, 2, 3, 4))
    t, b, l, r = (g.int(0, 12) for _ in range(4))
    bt = g.choice(BORDERS)
    kw = {}
    if bt == 0 and g.rng.random() < 0.5:
        kw["value"] = tuple(g.int(0, 255) for _ in range(4))
    return maybe_bad(g, [img, t, b, l, r, bt], kw, flags=(5,))


@spec("pyrDown")
def _pyrdown(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32", "float64"), cns=(1, 3, 4))
    return maybe_bad(g, [img], dict(borderType=g.choice([1, 2, 4])), flags=("borderType",))


@spec("pyrUp")
def _pyrup(g):
    return _pyrdown(g)


@spec("equalizeHist")
def _eqhist(g):
    return maybe_bad(g, [g.image(depths=("uint8",), cns=(1,))], {})


@spec("inRange")
def _inrange(g):
    img = g.image(depths=("uint8", "uint16", "int16", "float32"), cns=(1, 3))
    cn = img.a.shape[2] if img.a.ndim == 3 else 1
    lo = tuple(g.int(0, 100) for _ in range(cn)) if cn > 1 else g.int(0, 100)
    hi = tuple(g.int(100, 250) for _ in range(cn)) if cn > 1 else g.int(100, 250)
    return maybe_bad(g, [img, lo, hi], {})


def _binary_pair(g, depths=DEPTHS, cns=(1, 2, 3, 4)):
    a = g.image(depths=depths, cns=cns)
    b = Img(g.values(a.a.shape, str(a.a.dtype)), g.choice(["numpy", "mnn", "mnn-view"]))
    return a, b


for _name in ["add", "subtract", "absdiff", "min", "max", "bitwise_and", "bitwise_or", "bitwise_xor"]:
    def _make(name):
        def gen(g):
            a, b = _binary_pair(g)
            return maybe_bad(g, [a, b], {})
        return gen
    spec(_name)(_make(_name))


@spec("multiply")
def _mul(g):
    a, b = _binary_pair(g)
    return maybe_bad(g, [a, b], dict(scale=g.choice([1, 0.5, 2.0])))


@spec("divide")
def _div(g):
    a, b = _binary_pair(g)
    return maybe_bad(g, [a, b], dict(scale=g.choice([1, 0.5, 255.0])))


@spec("addWeighted")
def _addw(g):
    a, b = _binary_pair(g)
    return maybe_bad(g, [a, g.flt(-1, 2), b, g.flt(-1, 2), g.flt(-50, 50)], {})


@spec("bitwise_not")
def _bnot(g):
    return maybe_bad(g, [g.image(cns=(1, 3, 4))], {})


@spec("convertScaleAbs")
def _csa(g):
    return maybe_bad(g, [g.image(cns=(1, 3, 4))], dict(alpha=g.choice([1, 0.5, -2.0, 3.3]), beta=g.choice([0, 10, -7.5])))


@spec("split")
def _split(g):
    return maybe_bad(g, [g.image(cns=(1, 2, 3, 4))], {})


@spec("merge")
def _merge(g):
    a = g.image(cns=(1,), allow_3d1=False)
    return [[a] + [Img(g.values(a.a.shape, str(a.a.dtype)), "mnn") for _ in range(g.int(0, 3))]], {}


@spec("minMaxLoc")
def _minmaxloc(g):
    return maybe_bad(g, [g.image(cns=(1,), allow_3d1=False)], {}, empty=False)  # (cv2 5.0: SIGFPE on empty)


@spec("mean")
def _mean(g):
    return maybe_bad(g, [g.image(cns=(1, 2, 3, 4))], {})


@spec("meanStdDev")
def _msd(g):
    return maybe_bad(g, [g.image(cns=(1, 2, 3, 4))], {})


@spec("countNonZero")
def _cnz(g):
    return maybe_bad(g, [g.image(cns=(1,), allow_3d1=False, kind="binary")], {})


@spec("getRotationMatrix2D")
def _grm(g):
    return [(g.flt(-50, 50), g.flt(-50, 50)), g.flt(-360, 360), g.flt(0.1, 3)], {}


@spec("getAffineTransform")
def _gat(g):
    return [(g.rng.random((3, 2)) * 100).astype(numpy.float32), (g.rng.random((3, 2)) * 100).astype(numpy.float32)], {}


@spec("getPerspectiveTransform")
def _gpt(g):
    return [(g.rng.random((4, 2)) * 100).astype(numpy.float32), (g.rng.random((4, 2)) * 100).astype(numpy.float32)], {}


@spec("invertAffineTransform")
def _iat(g):
    return [g.matrix(2, 3)], {}


@spec("getGaussianKernel")
def _ggk(g):
    return [g.choice([1, 3, 5, 7, 9, 31]), g.choice([0, -1, 0.5, 1.3, 4.0])], dict(ktype=g.choice([5, 6]))


@spec("getStructuringElement")
def _gse(g):
    return [g.choice([0, 1, 2]), (g.int(1, 9), g.int(1, 9))], {}


@spec("hconcat")
def _hconcat(g):
    a = g.image(cns=(1, 3))
    return [[a, Img(g.values((a.a.shape[0], g.int(1, 9)) + a.a.shape[2:], str(a.a.dtype)), "mnn")]], {}


@spec("vconcat")
def _vconcat(g):
    a = g.image(cns=(1, 3))
    return [[a, Img(g.values((g.int(1, 9),) + a.a.shape[1:], str(a.a.dtype)), "mnn")]], {}


@spec("getRectSubPix")
def _grsp(g):
    img = g.image(depths=("uint8", "float32"), cns=(1, 3))
    h, w = img.a.shape[:2]
    return [img, (g.int(1, 20), g.int(1, 20)), (g.flt(-5, w + 5), g.flt(-5, h + 5))], {}


@spec("calcHist")
def _calchist(g):
    img = g.image(depths=("uint8",), cns=(1, 3))
    cn = img.a.shape[2] if img.a.ndim == 3 else 1
    ch = [g.int(0, cn - 1)]
    return [[img], ch, None, [g.choice([8, 16, 256])], [0, 256]], {}


# ---------------------------------------------------------------------------------------------
# running


def run_case(name, seed, case, show=False, phase=None):
    import cv2
    import mnn.cv as cv
    s = SPECS[name]
    g = Gen([seed, case, sum(map(ord, name))])
    args, kwargs = s["gen"](g)
    desc = f"{name}({', '.join(describe(a) for a in args)}{''.join(f', {k}={describe(v)}' for k, v in kwargs.items())})"
    if show:
        print(desc)
    cv2_err = None
    if phase:
        phase("cv2")
    try:
        want = getattr(cv2, s["cv2"])(*to_cv2(args), **kwargs)
    except Exception as e:  # cv2.error, TypeError, OverflowError, ...
        cv2_err = e
    mnn_args = to_mnn(args)
    if phase:
        phase("mnn")
    try:
        got = getattr(cv, name)(*mnn_args, **kwargs)
    except Exception as e:
        tag = f"[mnn.cv.{name}]"
        if cv2_err is not None:
            if tag not in str(e):
                return "bad_message", desc, f"{type(e).__name__}: {str(e)[:200]}"
            return "both_raise", desc, ""
        # on a spoiled argument that cv2 takes anyway (an empty image, an unknown flag value it
        # ignores), mnn being stricter is a lesser finding than raising on a valid call
        return ("mnn_stricter" if g.spoiled else "mnn_missing"), desc, f"{type(e).__name__}: {str(e)[:300]}"
    if cv2_err is not None:
        return "mnn_lenient", desc, f"cv2: {str(cv2_err).strip().splitlines()[-1][:200]}"
    if s["post"]:
        got, want = s["post"](got, want)
    try:
        compare(got, want, rel=s["rel"], scale=s["scale"](to_cv2(args)) if s["scale"] else 1.0)
    except Mismatch as e:
        return e.status, desc, str(e)
    return "ok", desc, ""


def worker(name, seed, n, start, logpath):
    import warnings
    warnings.simplefilter("ignore")
    for case in range(start, n):
        def phase(which, case=case):  # the case (and side) about to run, for the parent if this one dies or hangs
            with open(logpath, "w") as f:
                f.write(json.dumps(dict(case=case, phase=which)))
        phase("gen")
        try:
            status, desc, msg = run_case(name, seed, case, phase=phase)
        except Exception as e:  # the fuzzer's own failure: report, go on
            status, desc, msg = "tool_error", "", f"{type(e).__name__}: {e}"
        print(json.dumps(dict(case=case, status=status, desc=desc, msg=msg)), flush=True)


def _wait(p, logpath, hang_s):
    """Waits for a worker; kills it when one case has run for hang_s seconds (cv2 itself loops
    forever on some inputs, e.g. a 1-pixel image with BORDER_REFLECT_101 in warpAffine CUBIC)."""
    import threading
    chunks = {}
    readers = [threading.Thread(target=lambda k, f: chunks.__setitem__(k, f.read()), args=(k, f))
               for k, f in (("out", p.stdout), ("err", p.stderr))]
    for t in readers:
        t.start()
    hung = False
    while p.poll() is None:
        time.sleep(0.2)
        try:
            if time.time() - os.path.getmtime(logpath) > hang_s:
                p.kill()
                hung = True
        except OSError:
            pass
    for t in readers:
        t.join()
    return chunks.get("out", ""), chunks.get("err", ""), hung


def drive(names, seed, n, verbose, hang_s=20):
    """Runs n random cases of each function (one child process per function, restarted after a
    crash or hang); prints a line per function and the findings. Returns the findings."""
    findings = []
    for name in names:
        start = 0
        counts = {}
        while start < n:
            logpath = f"/tmp/cv_audit_random_{os.getpid()}_{name}.json"
            p = subprocess.Popen([sys.executable, AUDIT, "--random-worker", name, "--seed", str(seed), "--random", str(n),
                                  "--start", str(start), "--log", logpath], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            out, err, hung = _wait(p, logpath, hang_s)
            last = start
            for line in out.splitlines():
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                last = r["case"] + 1
                counts[r["status"]] = counts.get(r["status"], 0) + 1
                if r["status"] not in ("ok", "both_raise"):
                    findings.append((name, r["case"], r["status"], r["desc"], r["msg"]))
            if p.returncode != 0:
                try:
                    with open(logpath) as f:
                        info = json.load(f)
                except (OSError, ValueError):
                    info = dict(case=last, phase="?")
                kind = "hang" if hung else "crash"
                counts[kind] = counts.get(kind, 0) + 1
                tail = (err or "").strip().splitlines()[-1:] or [""]
                findings.append((name, info["case"], kind, f"in {info['phase']} (rc={p.returncode})", tail[0][:300]))
                start = info["case"] + 1
            else:
                start = n
            if os.path.exists(logpath):
                os.remove(logpath)
        print(f"{name:30s} " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())), flush=True)
    print()
    for name, case, status, desc, msg in findings:
        if verbose or status not in QUIET:
            print(f"{status:12s} {name} --seed {seed} --case {case}: {desc}\n    {msg}")
    quiet = [f for f in findings if f[2] in QUIET]
    if quiet and not verbose:
        print(f"({len(quiet)} off_by_1 / mnn_stricter / empty_none cases not listed; -v lists them)")
    return findings


def main(names, seed, n, case=None, verbose=False):
    """The audit's --random mode: exit status 1 when a finding other than the quiet ones remains."""
    unknown = [x for x in names if x not in SPECS]
    if unknown:
        sys.exit(f"no random generator for {unknown}; these have one: {' '.join(sorted(SPECS))}")
    if case is not None:
        for name in names:
            print(run_case(name, seed, case, show=True))
        return 0
    findings = drive(names, seed, n, verbose)
    return 1 if any(f[2] not in QUIET for f in findings) else 0
