#!/usr/bin/env python3
"""Differential audit of mnn.cv against cv2: the same call, the same arguments, on both.

Every public mnn.cv function (and mnn.cv.dnn's cv2 ones) is called with a grid of inputs: dtypes cv2
accepts and rejects, 1..5 channels, empty / 1x1 / 1xN / Nx1 / odd shapes, non-contiguous, reversed,
channel-slice, Fortran-ordered and read-only arrays, mnn arrays instead of numpy ones, dst= arguments,
and out-of-range or wrong-type parameters. Each case is classified:

  ok           both return and agree (return values and every array argument after the call)
  both_raise   both raise, and mnn's message names the function (fine)
  bad_message  both raise, but mnn's message does not start with [mnn.cv.<name>]
  mnn_lenient  cv2 raises, mnn returns something (bad unless documented)
  mnn_missing  mnn raises, cv2 returns (missing support)
  differ       both return but the results (or the arrays passed in) differ: a wrong answer
  off_by_1     differ, but only integer values off by exactly 1 where the spec wants them exact
               (cv2's IPP / fixed-point paths round differently): listed, a lesser finding
  crash        mnn's process died in the call (segfault, abort): the worst bug
  hang         mnn's call did not return within the time limit
  empty_none   cv2 returns None for an empty result where mnn returns an empty array
  cv2_crash    cv2 5.0 itself crashed or hung (its bug; mnn's side only has to answer cleanly)
  documented   cv2 raises, mnn returns, and `documented()` says why that is intended (e.g. drawing
               into a strided view, which cv2 refuses)

cv2's side and mnn's side run in separate worker processes (faulthandler on): when a worker dies,
the case it was in is recorded as a crash of that side and the rest continue in a fresh worker.

  python tools/cv_audit.py                     # full audit, summary to stdout
  python tools/cv_audit.py --only resize,flip  # some functions
  python tools/cv_audit.py --quick             # the reduced grid tests/cv/test_audit_regressions.py runs
  python tools/cv_audit.py --list bad          # also list every non-fine case
  python tools/cv_audit.py --json out.json     # every case's record

Random mode (tools/cv_audit_random.py): random valid and spoiled arguments per function instead of
the grid, each case replayable from (function, seed, case number):

  python tools/cv_audit.py --random 200                                  # 200 random cases per function
  python tools/cv_audit.py --random 1000 --only resize,remap --seed 3
  python tools/cv_audit.py --random 1 --only resize --seed 7 --case 12   # replay one case, print it
"""
import argparse
import glob
import json
import math
import os
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# the source tree's mnn when it holds a developer build (tools/dev_build.sh puts _core*.so into
# src/mnn/) and PYTHONPATH names no other; otherwise the installed package (a CI checkout has no
# build in src/, and importing that half-package would fail in every worker)
_SRC = os.path.join(os.path.dirname(HERE), "src")
if not os.environ.get("PYTHONPATH") and glob.glob(os.path.join(_SRC, "mnn", "_core*.so")):
    sys.path.insert(0, _SRC)
FINE = ("ok", "both_raise", "cv2_crash", "documented")
SEVERITY = ["crash", "hang", "differ", "off_by_1", "mnn_lenient", "mnn_missing", "bad_message", "empty_none", "cv2_crash",
            "documented", "both_raise", "ok"]

# ---------------------------------------------------------------------------------------------
# Inputs. Everything below is deterministic: a case is rebuilt from its description (function
# name + variant) in each worker, once for cv2 and once for mnn, so neither side sees the other's
# mutations.

DTYPES = ["uint8", "int8", "uint16", "int16", "int32", "float16", "float32", "float64", "bool", "int64"]
BASE_HW = (13, 17)
SHAPES = {"0x0": (0, 0), "1x1": (1, 1), "1xN": (1, 9), "Nx1": (9, 1), "97x131": (97, 131)}
LAYOUTS = ["step", "reversed", "chslice", "fortran", "readonly"]
MNN_LAYOUTS = ["contig", "step", "chslice"]


def _np():
    import numpy
    return numpy


def rand_array(rng, shape, dtype):
    np = _np()
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.startswith("float"):
        return (rng.random(shape) * 200 - 20).astype(dtype)
    info = np.iinfo(dtype)
    lo, hi = max(info.min, -100), min(info.max, 300) if dtype not in ("uint8", "int8") else info.max
    return rng.integers(lo, int(hi) + 1, shape).astype(dtype)


def image(rng, dtype="uint8", ch=3, hw=BASE_HW, layout="contig"):
    """An image of the given kind, built so that its final layout has `hw` and `ch` where possible."""
    np = _np()
    h, w = hw
    shape = (h, w) if ch == 1 else (h, w, ch)
    if layout == "step":
        big = rand_array(rng, (h * 2, w * 3) + shape[2:], dtype)
        return big[::2, ::3]
    if layout == "reversed":
        return rand_array(rng, shape, dtype)[:, ::-1]
    if layout == "chslice":
        big = rand_array(rng, (h, w, max(ch, 1) + 1), dtype)
        return big[..., 1] if ch == 1 else big[..., 1:]
    a = rand_array(rng, shape, dtype)
    if layout == "fortran":
        return np.asfortranarray(a)
    if layout == "readonly":
        a.flags.writeable = False
    return a


class Ctx:
    """What a spec's builder gets: the primary image's kind and a seeded generator for the rest."""

    def __init__(self, rng, dtype, ch, hw):
        self.rng, self.dtype, self.ch, self.hw = rng, dtype, ch, hw

    def like(self, x):
        """A second image with x's shape and dtype (contiguous)."""
        return rand_array(self.rng, x.shape, str(x.dtype))

    def pts(self, n=12, dtype="int32", shape3=True):
        a = self.rng.integers(0, 40, (n, 2)).astype(dtype)
        return a.reshape(n, 1, 2) if shape3 else a

    def binary(self, x):
        np = _np()
        return (np.asarray(x) > np.asarray(x).mean()).astype(np.uint8) * 255 if x.size else x


# ---------------------------------------------------------------------------------------------
# Specs: for each function, how to build a valid call around the primary image x, which input
# grid applies, and which parameter variants to try. `build(x, c)` returns (args, kwargs).

class Spec:
    def __init__(self, build, grid="img", params=(), tol=None, dst=True, ch=None, dt=None, call=None):
        self.build = build          # (x, ctx) -> (args, kwargs)
        self.grid = grid            # img: x varies over the full grid; draw: x is drawn into; none: x unused
        self.params = params        # [(label, transform(args, kwargs, ctx) -> (args, kwargs))]
        self.tol = tol              # absolute tolerance for integer results (None: exact)
        self.dst = dst              # whether a dst= keyword case applies (the result's shape is x's)
        self.ch = ch                # channel count for the base / shape / layout cases
        self.dt = dt                # dtype for the base / shape / layout cases
        self.call = call            # (module, args, kwargs) -> result, where the function is not called plainly


def P(label, i, v):
    """A parameter variant replacing positional argument i by v (v may be a callable of ctx)."""
    def t(args, kw, c):
        args = list(args)
        args[i] = v(c) if callable(v) else v
        return args, kw
    return (label, t)


def K(label, **over):
    """A parameter variant setting keyword arguments (cv2's names)."""
    def t(args, kw, c):
        kw = dict(kw)
        kw.update({k: (v(c) if callable(v) else v) for k, v in over.items()})
        return args, kw
    return (label, t)


NAN = float("nan")
HUGE = 1 << 40
# wrong-type / out-of-range values tried on every image function's second positional argument
GENERIC_BAD = [("arg1=None", None), ("arg1=str", "abc"), ("arg1=nan", NAN), ("arg1=huge", HUGE)]


def ksize_params(i, tuple_ok=True):
    if tuple_ok:
        return [P("ksize=even", i, (4, 4)), P("ksize=neg", i, (-3, -3)), P("ksize=list", i, [3, 3]),
                P("ksize=float", i, (3.0, 3.0)), P("ksize=huge", i, (HUGE, HUGE)), P("ksize=0", i, (0, 0)),
                P("ksize=None", i, None), P("ksize=int", i, 3), P("ksize=1elem", i, (3,))]
    return [P("k=even", i, 4), P("k=neg", i, -3), P("k=float", i, 3.0), P("k=huge", i, HUGE),
            P("k=0", i, 0), P("k=None", i, None), P("k=tuple", i, (3, 3))]


def border_params(name="borderType"):
    return [K(f"{name}=CONSTANT", **{name: 0}), K(f"{name}=REPLICATE", **{name: 1}),
            K(f"{name}=REFLECT", **{name: 2}), K(f"{name}=WRAP", **{name: 3}),
            K(f"{name}=bad", **{name: 99}), K(f"{name}=-1", **{name: -1}), K(f"{name}=ISOLATED", **{name: 16 | 4})]


def depth_params(i):
    return [P(f"ddepth={d}", i, d) for d in (0, 1, 2, 3, 4, 5, 6, 7, 99, -2)]


def specs():
    """Built lazily (needs cv2's constants)."""
    import cv2
    np = _np()
    S = {}
    k3 = lambda c: np.ones((3, 3), np.uint8)  # noqa: E731
    f32 = "float32"

    def two(name):
        S[name] = Spec(lambda x, c: ((x, c.like(x)), {}),
                       params=[P("src2=scalar", 1, 3.0), P("src2=tuple", 1, (1.0, 2.0, 3.0, 4.0)),
                               P("src2=shape", 1, lambda c: np.zeros((3, 3), np.uint8)),
                               P("src2=dtype", 1, lambda c: np.zeros(c.hw + ((c.ch,) if c.ch > 1 else ()), np.float64)),
                               P("src2=None", 1, None)]
                       + ([K("mask=u8", mask=lambda c: rand_array(c.rng, c.hw, "uint8")),
                           K("mask=bad", mask=lambda c: np.ones((2, 2), np.uint8))]
                          if name in ("add", "subtract", "bitwise_and", "bitwise_or", "bitwise_xor") else [])
                       + ([K("dtype=f32", dtype=5), K("dtype=bad", dtype=99)]
                          if name in ("add", "subtract", "multiply", "divide") else [])
                       + ([K("scale=2", scale=2.0), K("scale=nan", scale=NAN)] if name in ("multiply", "divide") else []))

    for n in ("add", "subtract", "multiply", "divide", "absdiff", "min", "max", "bitwise_and", "bitwise_or", "bitwise_xor"):
        two(n)
    S["addWeighted"] = Spec(lambda x, c: ((x, 0.5, c.like(x), 0.25, 3.0), {}),
                            params=[P("alpha=nan", 1, NAN), P("alpha=str", 1, "a"), P("gamma=None", 4, None),
                                    K("dtype=f32", dtype=5), K("dtype=bad", dtype=42)])
    S["bitwise_not"] = Spec(lambda x, c: ((x,), {}), params=[K("mask=u8", mask=lambda c: rand_array(c.rng, c.hw, "uint8"))])
    for n in ("exp", "log", "sqrt"):
        S[n] = Spec(lambda x, c: ((x,), {}), dt=f32, tol=None)
    S["pow"] = Spec(lambda x, c: ((x, 2.0), {}), dt=f32,
                    params=[P("power=0.5", 1, 0.5), P("power=-1", 1, -1.0), P("power=3", 1, 3), P("power=nan", 1, NAN),
                            P("power=None", 1, None)])
    S["convertScaleAbs"] = Spec(lambda x, c: ((x,), {"alpha": 1.5, "beta": 3.0}),
                                params=[K("alpha=nan", alpha=NAN), K("alpha=-2", alpha=-2.0), K("beta=str", beta="x")])
    S["LUT"] = Spec(lambda x, c: ((x, np.arange(256)[::-1].astype(np.uint8)), {}),
                    params=[P("lut=f32", 1, lambda c: np.arange(256, dtype=np.float32) * 0.5),
                            P("lut=short", 1, lambda c: np.arange(100, dtype=np.uint8)),
                            P("lut=3ch", 1, lambda c: rand_array(c.rng, (256, 1, 3), "uint8")),
                            P("lut=list", 1, list(range(256))), P("lut=None", 1, None)])
    S["flip"] = Spec(lambda x, c: ((x, 1), {}), params=[P("flip=0", 1, 0), P("flip=-1", 1, -1), P("flip=5", 1, 5),
                                                        P("flip=float", 1, 1.0), P("flip=None", 1, None)])
    S["rotate"] = Spec(lambda x, c: ((x, 0), {}), dst=False,
                       params=[P("rot=1", 1, 1), P("rot=2", 1, 2), P("rot=3", 1, 3), P("rot=-1", 1, -1), P("rot=None", 1, None)])
    S["transpose"] = Spec(lambda x, c: ((x,), {}), dst=False)
    S["copyMakeBorder"] = Spec(lambda x, c: ((x, 1, 2, 3, 4, cv2.BORDER_REFLECT), {}), dst=False,
                               params=[P("border=CONST", 5, 0), P("border=WRAP", 5, 3), P("border=101", 5, 4),
                                       P("border=REPL", 5, 1), P("border=bad", 5, 17),
                                       P("top=-1", 1, -1), P("top=float", 1, 1.5), P("top=huge", 1, HUGE),
                                       K("value", borderType=0, value=(1, 2, 3, 4)), P("big_reflect", 1, 40), P("top=None", 1, None)])
    S["resize"] = Spec(lambda x, c: ((x, (7, 5)), {}), dst=False, tol=1,
                       params=[K("inter=NN", interpolation=0), K("inter=CUBIC", interpolation=2),
                               K("inter=AREA", interpolation=3), K("inter=LANCZOS", interpolation=4),
                               K("inter=NN_EXACT", interpolation=6), K("inter=LINEAR_EXACT", interpolation=5),
                               K("inter=bad", interpolation=99), P("dsize=0,fx", 1, (0, 0)),
                               (("fx=2", lambda a, k, c: ((a[0], None), {"fx": 2.0, "fy": 2.0}))),
                               (("fx=0.5area", lambda a, k, c: ((a[0], None), {"fx": 0.5, "fy": 0.5, "interpolation": 3}))),
                               P("dsize=list", 1, [7, 5]), P("dsize=float", 1, (7.0, 5.0)), P("dsize=neg", 1, (-7, 5)),
                               P("dsize=huge", 1, (HUGE, 5)), P("dsize=None", 1, None),
                               (("fx=nan", lambda a, k, c: ((a[0], None), {"fx": NAN, "fy": 1.0}))),
                               (("fx=neg", lambda a, k, c: ((a[0], None), {"fx": -1.0, "fy": 1.0})))])
    S["pyrDown"] = Spec(lambda x, c: ((x,), {}), dst=False, params=border_params() + [K("dstsize=bad", dstsize=(1, 1))])
    S["pyrUp"] = Spec(lambda x, c: ((x,), {}), dst=False, params=border_params() + [K("dstsize=bad", dstsize=(1, 1))])
    S["blur"] = Spec(lambda x, c: ((x, (3, 3)), {}), tol=0, params=ksize_params(1) + border_params()
                     + [K("anchor=0,0", anchor=(0, 0)), K("anchor=bad", anchor=(5, 5))])
    S["boxFilter"] = Spec(lambda x, c: ((x, -1, (3, 3)), {}), params=depth_params(1) + ksize_params(2)
                          + [K("normalize=False", normalize=False)] + border_params())
    S["sqrBoxFilter"] = Spec(lambda x, c: ((x, -1, (3, 3)), {}), params=depth_params(1) + ksize_params(2)
                             + [K("normalize=False", normalize=False)], dst=False)
    S["GaussianBlur"] = Spec(lambda x, c: ((x, (5, 5), 1.2), {}), tol=1,
                             params=ksize_params(1) + border_params()
                             + [P("sigma=nan", 2, NAN), P("sigma=neg", 2, -1.0), P("sigma=0", 2, 0.0), P("sigma=None", 2, None),
                                P("sigma=huge", 2, 1e30), K("sigmaY=3", sigmaY=3.0), P("auto", 1, (0, 0)),
                                P("sigma=str", 2, "a")])
    S["medianBlur"] = Spec(lambda x, c: ((x, 3), {}), params=ksize_params(1, tuple_ok=False) + [P("k=5", 1, 5), P("k=7", 1, 7)])
    S["bilateralFilter"] = Spec(lambda x, c: ((x, 5, 50.0, 50.0), {}), tol=1,
                                params=[P("d=-1", 1, -1), P("d=0", 1, 0), P("d=huge", 1, HUGE), P("sc=nan", 2, NAN),
                                        P("sc=0", 2, 0.0), P("ss=neg", 3, -5.0)] + border_params())
    S["filter2D"] = Spec(lambda x, c: ((x, -1, np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float32)), {}), tol=1,
                         params=depth_params(1) + [P("k=even", 2, lambda c: np.ones((4, 4), np.float32) / 16),
                                                   P("k=u8", 2, k3), P("k=empty", 2, lambda c: np.ones((0, 0), np.float32)),
                                                   P("k=list", 2, [[1, 0], [0, 1]]), P("k=None", 2, None),
                                                   P("k=3d", 2, lambda c: np.ones((3, 3, 2), np.float32)),
                                                   K("delta=5", delta=5.0), K("anchor=bad", anchor=(9, 9))] + border_params())
    S["sepFilter2D"] = Spec(lambda x, c: ((x, -1, np.array([1, 2, 1], np.float32) / 4, np.array([1, 2, 1], np.float32) / 4), {}),
                            tol=1, params=depth_params(1) + [P("kx=2d", 2, lambda c: np.ones((3, 3), np.float32)),
                                                             P("kx=None", 2, None), P("kx=list", 2, [0.25, 0.5, 0.25])])
    S["Sobel"] = Spec(lambda x, c: ((x, -1, 1, 0), {}), tol=1,
                      params=depth_params(1) + [P("dx=0,dy=0", 2, 0), K("ksize=5", ksize=5), K("ksize=-1", ksize=-1),
                                                K("ksize=4", ksize=4), K("ksize=9", ksize=9), P("dx=3", 2, 3),
                                                K("scale=nan", scale=NAN)] + border_params())
    S["Scharr"] = Spec(lambda x, c: ((x, -1, 1, 0), {}), tol=1,
                       params=depth_params(1) + [P("dx=1,dy=1", 3, 1), P("dx=2", 2, 2)] + border_params())
    S["Laplacian"] = Spec(lambda x, c: ((x, -1), {}), tol=1,
                          params=depth_params(1) + [K("ksize=3", ksize=3), K("ksize=5", ksize=5), K("ksize=2", ksize=2),
                                                    K("ksize=-1", ksize=-1)] + border_params())
    S["Canny"] = Spec(lambda x, c: ((x, 50.0, 150.0), {}), tol=None,
                      params=[K("aperture=5", apertureSize=5), K("aperture=4", apertureSize=4), K("L2", L2gradient=True),
                              P("t1=nan", 1, NAN), P("t1>t2", 1, 200.0)])
    S["erode"] = Spec(lambda x, c: ((x, k3(c)), {}),
                      params=[K("iter=2", iterations=2), K("iter=0", iterations=0), K("iter=-1", iterations=-1),
                              P("k=None", 1, None), P("k=empty", 1, lambda c: np.ones((0, 0), np.uint8)),
                              P("k=f32", 1, lambda c: np.ones((3, 3), np.float32)), P("k=list", 1, [[1, 1], [1, 1]]),
                              K("anchor=bad", anchor=(7, 7)), K("borderValue=5", borderType=0, borderValue=5)] + border_params())
    S["dilate"] = Spec(S["erode"].build, params=S["erode"].params)
    S["morphologyEx"] = Spec(lambda x, c: ((x, cv2.MORPH_OPEN, k3(c)), {}),
                             params=[P(f"op={o}", 1, o) for o in (0, 1, 3, 4, 5, 6, 7, 8, -1)]
                             + [K("iter=2", iterations=2), P("k=None", 2, None)])
    S["threshold"] = Spec(lambda x, c: ((x, 100.0, 255.0, cv2.THRESH_BINARY), {}),
                          params=[P(f"type={t}", 3, t) for t in (1, 2, 3, 4, 7, 8, 16, 8 | 1, 99)]
                          + [P("thresh=nan", 1, NAN), P("maxval=-5", 2, -5.0), P("thresh=huge", 1, 1e300), P("type=str", 3, "b")])
    S["adaptiveThreshold"] = Spec(lambda x, c: ((x, 255.0, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 11, 2.0), {}),
                                  params=[P("gauss", 2, 1), P("inv", 3, 1), P("type=bad", 3, 2), P("method=bad", 2, 5),
                                          P("block=even", 4, 10), P("block=1", 4, 1), P("block=huge", 4, 1001),
                                          P("C=nan", 5, NAN), P("maxval=nan", 1, NAN)])
    S["inRange"] = Spec(lambda x, c: ((x, (10,) * max(c.ch, 1), (150,) * max(c.ch, 1)), {}),
                        params=[P("lo=scalar", 1, 10), P("lo=array", 1, lambda c: np.zeros(c.hw + ((c.ch,) if c.ch > 1 else ()), np.uint8)),
                                P("lo=None", 1, None), P("lo=nan", 1, NAN), P("lo=len2", 1, (1, 2))], dst=False)
    S["equalizeHist"] = Spec(lambda x, c: ((x,), {}), ch=1)
    S["calcHist"] = Spec(lambda x, c: (([x], [0], None, [16], [0, 256]), {}), dst=False,
                         params=[P("ch=5", 1, [5]), P("bins=0", 3, [0]), P("bins=-1", 3, [-1]), P("range=rev", 4, [256, 0]),
                                 P("mask", 2, lambda c: rand_array(c.rng, c.hw, "uint8")), P("2d", 1, [0, 1]),
                                 P("imgs=array", 0, lambda c: image(c.rng, c.dtype, c.ch, c.hw)), P("range=nan", 4, [NAN, 1.0]),
                                 (("accumulate", lambda a, k, c: (a, {"accumulate": True})))])
    S["createCLAHE"] = Spec(lambda x, c: ((x,), {}), ch=1, dst=False, call=lambda m, a, k: m.createCLAHE(2.0, (4, 4)).apply(*a, **k),
                            tol=None)
    S["countNonZero"] = Spec(lambda x, c: ((x,), {}), ch=1, dst=False)
    S["mean"] = Spec(lambda x, c: ((x,), {}), dst=False, params=[K("mask", mask=lambda c: rand_array(c.rng, c.hw, "uint8")),
                                                               K("mask=bad", mask=lambda c: np.ones((2, 2), np.uint8))])
    S["meanStdDev"] = Spec(S["mean"].build, dst=False, params=S["mean"].params)
    S["minMaxLoc"] = Spec(lambda x, c: ((x,), {}), ch=1, dst=False, params=S["mean"].params)
    S["norm"] = Spec(lambda x, c: ((x,), {}), dst=False,
                     params=[K("L1", normType=2), K("L2", normType=4), K("INF", normType=1), K("L2SQR", normType=5),
                             K("bad", normType=99), K("mask", mask=lambda c: rand_array(c.rng, c.hw, "uint8"))])
    S["normalize"] = Spec(lambda x, c: ((x, None, 0.0, 255.0, cv2.NORM_MINMAX), {}), dst=False,
                          params=[K("dtype=f32", dtype=5), K("dtype=u8", dtype=0), P("INF", 4, 1), P("L1", 4, 2), P("L2", 4, 4),
                                  P("bad", 4, 99), P("alpha=nan", 2, NAN), K("mask", mask=lambda c: rand_array(c.rng, c.hw, "uint8"))])
    S["split"] = Spec(lambda x, c: ((x,), {}), dst=False)
    S["merge"] = Spec(lambda x, c: (([x, c.like(x), c.like(x)],), {}), ch=1, dst=False,
                      params=[P("mismatch", 0, lambda c: [image(c.rng, "uint8", 1, c.hw), image(c.rng, "float32", 1, c.hw)]),
                              P("shapes", 0, lambda c: [image(c.rng, "uint8", 1, (3, 3)), image(c.rng, "uint8", 1, (4, 3))]),
                              P("empty", 0, []), P("one", 0, lambda c: [image(c.rng, "uint8", 1, c.hw)]),
                              P("tuple", 0, lambda c: (image(c.rng, "uint8", 1, c.hw), image(c.rng, "uint8", 1, c.hw)))])
    S["hconcat"] = Spec(lambda x, c: (([x, c.like(x)],), {}), dst=False,
                        params=[P("mismatch", 0, lambda c: [image(c.rng, "uint8", 1, (3, 3)), image(c.rng, "uint8", 1, (4, 3))]),
                                P("dtypes", 0, lambda c: [image(c.rng, "uint8", 1, (3, 3)), image(c.rng, "float32", 1, (3, 3))]),
                                P("empty", 0, [])])
    S["vconcat"] = Spec(lambda x, c: (([x, c.like(x)],), {}), dst=False,
                        params=[P("mismatch", 0, lambda c: [image(c.rng, "uint8", 1, (3, 3)), image(c.rng, "uint8", 1, (3, 4))]),
                                P("empty", 0, [])])
    S["cvtColor"] = Spec(lambda x, c: ((x, {1: cv2.COLOR_GRAY2BGR, 3: cv2.COLOR_BGR2GRAY, 4: cv2.COLOR_BGRA2BGR}.get(c.ch, 6)), {}),
                         dst=False, tol=1,
                         params=[P(f"code={n}", 1, getattr(cv2, n)) for n in
                                 ("COLOR_BGR2RGB", "COLOR_BGR2HSV", "COLOR_HSV2BGR", "COLOR_BGR2YCrCb", "COLOR_BGR2YUV",
                                  "COLOR_BGR2Lab", "COLOR_BGR2Luv", "COLOR_BGR2HLS", "COLOR_BGR2XYZ", "COLOR_BGR2BGRA",
                                  "COLOR_BGRA2GRAY", "COLOR_GRAY2BGRA", "COLOR_BGR2HSV_FULL", "COLOR_RGB2GRAY",
                                  "COLOR_YUV2BGR_NV12", "COLOR_BGR2YUV_I420", "COLOR_BGR5652BGR", "COLOR_BGR2BGR565")]
                         + [P("code=-1", 1, -1), P("code=999", 1, 999), P("code=None", 1, None), K("dstCn=4", dstCn=4),
                            K("dstCn=-1", dstCn=-1), P("code=float", 1, 6.0)])
    S["cvtColorTwoPlane"] = Spec(lambda x, c: ((rand_array(c.rng, (8, 10), "uint8"), rand_array(c.rng, (4, 5, 2), "uint8"),
                                                cv2.COLOR_YUV2BGR_NV12), {}), grid="none", tol=1,
                                 params=[P("odd", 0, lambda c: rand_array(c.rng, (7, 9), "uint8")), P("uv=bad", 1, lambda c: rand_array(c.rng, (4, 5), "uint8")),
                                         P("code=bad", 2, 6), P("f32", 0, lambda c: rand_array(c.rng, (8, 10), "float32")),
                                         P("NV21", 2, cv2.COLOR_YUV2BGR_NV21), P("RGBA", 2, cv2.COLOR_YUV2RGBA_NV12)])
    # geometry
    M = np.array([[0.9, 0.1, 1.5], [-0.1, 0.95, 2.0]], np.float64)
    H = np.array([[0.9, 0.1, 1.5], [-0.1, 0.95, 2.0], [0.001, 0.002, 1.0]], np.float64)
    warp_params = [K("flags=NN", flags=0), K("flags=CUBIC", flags=2), K("flags=AREA", flags=3), K("flags=INV", flags=1 | 16),
                   K("flags=bad", flags=99), K("border=REPL", borderMode=1), K("border=REFL", borderMode=2),
                   K("border=WRAP", borderMode=3), K("border=TRANSP", borderMode=5), K("border=bad", borderMode=42),
                   K("borderValue", borderValue=(10, 20, 30, 40)), P("dsize=neg", 2, (-3, 4)), P("dsize=0", 2, (0, 0)),
                   P("dsize=huge", 2, (HUGE, HUGE)), P("dsize=list", 2, [9, 7]), P("dsize=float", 2, (9.0, 7.0)),
                   P("M=None", 1, None), P("M=nan", 1, lambda c: np.full((2, 3), NAN)), P("M=list", 1, M.tolist()),
                   P("M=f32", 1, M.astype(np.float32)), P("M=int", 1, lambda c: np.array([[1, 0, 2], [0, 1, 3]], np.int32))]
    S["warpAffine"] = Spec(lambda x, c: ((x, M, (9, 7)), {}), dst=False, tol=1,
                           params=warp_params + [P("M=3x3", 1, H), P("M=2x2", 1, lambda c: np.eye(2))])
    S["warpPerspective"] = Spec(lambda x, c: ((x, H, (9, 7)), {}), dst=False, tol=1,
                                params=[(lab, t) for lab, t in warp_params if not lab.startswith("M=")]
                                + [P("M=2x3", 1, M), P("M=nan", 1, lambda c: np.full((3, 3), NAN)),
                                   P("M=singular", 1, lambda c: np.zeros((3, 3)))])

    def maps(c, h=7, w=9, dtype="float32"):
        mx = np.tile(np.linspace(-1, c.hw[1], w, dtype=np.float32), (h, 1))
        my = np.tile(np.linspace(-1, c.hw[0], h, dtype=np.float32)[:, None], (1, w))
        return mx.astype(dtype), my.astype(dtype)
    S["remap"] = Spec(lambda x, c: ((x,) + maps(c) + (cv2.INTER_LINEAR,), {}), dst=False, tol=1,
                      params=[P("NN", 3, 0), P("CUBIC", 3, 2), P("LANCZOS", 3, 4), P("inter=bad", 3, 99),
                              K("border=REPL", borderMode=1), K("border=TRANSP", borderMode=5), K("border=WRAP", borderMode=3),
                              P("map1=f64", 1, lambda c: maps(c, dtype="float64")[0]),
                              P("map2=None", 2, None), P("map1=xy", 1, lambda c: np.dstack(maps(c))),
                              P("map2=shape", 2, lambda c: maps(c, 3, 3)[1]), P("map1=nan", 1, lambda c: np.full((7, 9), NAN, np.float32)),
                              P("map1=huge", 1, lambda c: np.full((7, 9), 1e30, np.float32))])
    S["convertMaps"] = Spec(lambda x, c: (maps(c) + (cv2.CV_16SC2,), {}), grid="none", tol=1,
                            params=[P("to32FC2", 2, cv2.CV_32FC2), P("to32FC1", 2, cv2.CV_32FC1), P("bad", 2, 42),
                                    K("nn", nninterpolation=True), P("map2=None", 1, None)])
    S["getRectSubPix"] = Spec(lambda x, c: ((x, (5, 5), (6.5, 6.5)), {}), dst=False, tol=1,
                              params=[P("center=out", 2, (-20.0, 100.0)), P("size=neg", 1, (-1, 3)), P("size=0", 1, (0, 0)),
                                      P("center=nan", 2, (NAN, 1.0)), K("patchType=f32", patchType=5), P("size=huge", 1, (HUGE, 2))])
    S["getRotationMatrix2D"] = Spec(lambda x, c: (((5.0, 5.0), 30.0, 1.0), {}), grid="none",
                                    params=[P("center=int", 0, (5, 5)), P("angle=nan", 1, NAN), P("center=list", 0, [5, 5]),
                                            P("center=None", 0, None), P("center=1", 0, (5,))])
    S["getAffineTransform"] = Spec(lambda x, c: ((np.float32([[0, 0], [10, 0], [0, 10]]), np.float32([[1, 2], [12, 1], [2, 13]])), {}),
                                   grid="none", params=[P("f64", 0, np.float64([[0, 0], [10, 0], [0, 10]])),
                                                        P("4pts", 0, np.float32([[0, 0], [10, 0], [0, 10], [1, 1]])),
                                                        P("degenerate", 0, np.float32([[0, 0], [0, 0], [0, 0]])),
                                                        P("list", 0, [[0, 0], [10, 0], [0, 10]])])
    S["getPerspectiveTransform"] = Spec(lambda x, c: ((np.float32([[0, 0], [10, 0], [0, 10], [10, 10]]),
                                                       np.float32([[1, 2], [12, 1], [2, 13], [11, 12]])), {}),
                                        grid="none", params=[P("3pts", 0, np.float32([[0, 0], [10, 0], [0, 10]])),
                                                             P("f64", 0, np.float64([[0, 0], [10, 0], [0, 10], [10, 10]])),
                                                             P("degenerate", 0, np.zeros((4, 2), np.float32))])
    S["invertAffineTransform"] = Spec(lambda x, c: ((M,), {}), grid="none",
                                      params=[P("f32", 0, M.astype(np.float32)), P("3x3", 0, H), P("singular", 0, np.zeros((2, 3))),
                                              P("int", 0, lambda c: np.array([[1, 0, 2], [0, 1, 3]], np.int32)), P("list", 0, M.tolist())])
    S["getGaussianKernel"] = Spec(lambda x, c: ((5, 1.0), {}), grid="none",
                                  params=[P("k=even", 0, 4), P("k=neg", 0, -1), P("sigma=0", 1, 0.0), P("sigma=nan", 1, NAN),
                                          K("ktype=f32", ktype=5), K("ktype=bad", ktype=0), P("k=huge", 0, HUGE), P("k=float", 0, 5.0)])
    S["getDerivKernels"] = Spec(lambda x, c: ((1, 0, 3), {}), grid="none",
                                params=[P("ksize=5", 2, 5), P("ksize=-1", 2, -1), P("ksize=4", 2, 4), K("normalize", normalize=True),
                                        K("ktype=f32", ktype=5), P("dx=5", 0, 5)])
    S["getStructuringElement"] = Spec(lambda x, c: ((cv2.MORPH_ELLIPSE, (5, 5)), {}), grid="none",
                                      params=[P("rect", 0, 0), P("cross", 0, 1), P("bad", 0, 9), P("ksize=even", 1, (4, 6)),
                                              P("ksize=0", 1, (0, 0)), P("ksize=neg", 1, (-1, 3)), K("anchor=bad", anchor=(9, 9)),
                                              P("ksize=1", 1, (1, 1))])
    S["morphologyDefaultBorderValue"] = Spec(lambda x, c: ((), {}), grid="none")
    S["boxPoints"] = Spec(lambda x, c: ((((10.0, 10.0), (5.0, 8.0), 30.0),), {}), grid="none",
                          params=[P("ints", 0, ((10, 10), (5, 8), 30)), P("bad", 0, (1, 2)), P("None", 0, None)])
    # points / contours
    pts_params = [P("pts=f32", 0, lambda c: c.pts(dtype="float32")), P("pts=Nx2", 0, lambda c: c.pts(shape3=False)),
                  P("pts=f64", 0, lambda c: c.pts(dtype="float64")), P("pts=u8", 0, lambda c: c.pts(dtype="uint8")),
                  P("pts=empty", 0, lambda c: np.zeros((0, 1, 2), np.int32)), P("pts=one", 0, lambda c: c.pts(1)),
                  P("pts=two", 0, lambda c: c.pts(2)), P("pts=list", 0, [[0, 0], [5, 0], [5, 5]]),
                  P("pts=Nx3", 0, lambda c: np.zeros((5, 3), np.int32)), P("pts=None", 0, None),
                  P("pts=nan", 0, lambda c: np.full((5, 2), NAN, np.float32)),
                  P("pts=noncontig", 0, lambda c: c.pts(24, shape3=False)[::2]), P("pts=readonly", 0, lambda c: _ro(c.pts()))]
    S["approxPolyDP"] = Spec(lambda x, c: ((c.pts(), 2.0, True), {}), grid="none",
                             params=pts_params + [P("eps=neg", 1, -1.0), P("eps=nan", 1, NAN), P("open", 2, False)])
    S["arcLength"] = Spec(lambda x, c: ((c.pts(), True), {}), grid="none", params=pts_params + [P("open", 1, False)])
    S["contourArea"] = Spec(lambda x, c: ((c.pts(),), {}), grid="none", params=pts_params + [K("oriented", oriented=True)])
    S["boundingRect"] = Spec(lambda x, c: ((c.pts(),), {}), grid="none",
                             params=pts_params + [P("img", 0, lambda c: rand_array(c.rng, (9, 11), "uint8"))])
    S["convexHull"] = Spec(lambda x, c: ((c.pts(),), {}), grid="none",
                           params=pts_params + [K("cw", clockwise=True), K("idx", returnPoints=False)])
    S["fitEllipse"] = Spec(lambda x, c: ((c.pts(),), {}), grid="none", params=pts_params)
    S["minAreaRect"] = Spec(lambda x, c: ((c.pts(),), {}), grid="none", params=pts_params)
    S["minEnclosingCircle"] = Spec(lambda x, c: ((c.pts(),), {}), grid="none", params=pts_params)
    S["moments"] = Spec(lambda x, c: ((c.pts(),), {}), grid="none",
                        params=pts_params + [P("img", 0, lambda c: rand_array(c.rng, (9, 11), "uint8")),
                                             P("img_f32", 0, lambda c: rand_array(c.rng, (9, 11), "float32")),
                                             (("binary", lambda a, k, c: ((rand_array(c.rng, (9, 11), "uint8"),), {"binaryImage": True})))])
    S["pointPolygonTest"] = Spec(lambda x, c: ((c.pts(dtype="float32"), (10.0, 12.0), True), {}), grid="none",
                                 params=pts_params + [P("nodist", 2, False), P("pt=int", 1, (10, 12)), P("pt=nan", 1, (NAN, 1.0)),
                                                      P("pt=None", 1, None)])
    S["ellipse2Poly"] = Spec(lambda x, c: (((6, 6), (4, 3), 30, 0, 360, 10), {}), grid="none",
                             params=[P("delta=0", 5, 0), P("delta=neg", 5, -5), P("axes=neg", 1, (-4, 3)),
                                     P("center=float", 0, (6.0, 6.0)), P("arc=rev", 3, 300), P("huge", 1, (HUGE, 3))])
    S["clipLine"] = Spec(lambda x, c: (((0, 0, 10, 10), (-5, 3), (20, 7)), {}), grid="none",
                         params=[P("float", 1, (-5.0, 3.0)), P("outside", 1, (-5, -5)), P("rect=neg", 0, (0, 0, -1, 5)),
                                 P("huge", 2, (HUGE, 7))])
    S["findContours"] = Spec(lambda x, c: ((c.binary(x), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE), {}), ch=1, dst=False,
                             params=[P(f"mode={m}", 1, m) for m in (0, 1, 2, 3, 4, 9)]
                             + [P(f"method={m}", 2, m) for m in (1, 3, 4, 9)] + [K("offset", offset=(2, 3))])
    S["connectedComponents"] = Spec(lambda x, c: ((c.binary(x),), {}), ch=1, dst=False,
                                    params=[K("conn=4", connectivity=4), K("conn=5", connectivity=5), K("ltype=u16", ltype=2),
                                            K("ltype=bad", ltype=5)])
    S["connectedComponentsWithStats"] = Spec(S["connectedComponents"].build, ch=1, dst=False, params=S["connectedComponents"].params)
    # math on float pairs
    S["magnitude"] = Spec(lambda x, c: ((x, c.like(x)), {}), dt=f32, ch=1, params=[P("y=f64", 1, lambda c: rand_array(c.rng, c.hw, "float64"))])
    S["phase"] = Spec(lambda x, c: ((x, c.like(x)), {}), dt=f32, ch=1, params=[K("deg", angleInDegrees=True)])
    S["cartToPolar"] = Spec(lambda x, c: ((x, c.like(x)), {}), dt=f32, ch=1, dst=False, params=[K("deg", angleInDegrees=True)])
    S["polarToCart"] = Spec(lambda x, c: ((x, c.like(x)), {}), dt=f32, ch=1, dst=False, params=[K("deg", angleInDegrees=True)])
    # drawing (x is drawn into)
    col = (255, 0, 128, 50)
    S["line"] = Spec(lambda x, c: ((x, (1, 1), (10, 8), col, 2), {}), grid="draw",
                     params=[P("th=-1", 4, -1), P("th=0", 4, 0), P("th=huge", 4, 1000), P("pt=float", 1, (1.5, 1.0)),
                             P("pt=huge", 2, (HUGE, 3)), P("color=scalar", 3, 7), P("color=None", 3, None),
                             K("aa", lineType=16), K("shift=2", shift=2), K("shift=-1", shift=-1), K("shift=99", shift=99),
                             P("pt=list", 1, [1, 1]), P("pt=1", 1, (1,))])
    S["arrowedLine"] = Spec(lambda x, c: ((x, (1, 1), (10, 8), col, 1), {}), grid="draw",
                            params=[K("tip=nan", tipLength=NAN), K("tip=huge", tipLength=1e9), P("th=-1", 4, -1)])
    S["rectangle"] = Spec(lambda x, c: ((x, (1, 1), (10, 8), col, 1), {}), grid="draw",
                          params=[P("th=-1", 4, -1), P("rect", 1, (1, 1, 5, 5)), P("pt=float", 1, (1.5, 1.0))])
    S["circle"] = Spec(lambda x, c: ((x, (6, 6), 4, col, -1), {}), grid="draw",
                       params=[P("r=neg", 2, -1), P("r=0", 2, 0), P("r=float", 2, 4.0), P("r=huge", 2, HUGE), P("th=2", 4, 2),
                               K("aa", lineType=16), P("center=float", 1, (6.5, 6.0))])
    S["ellipse"] = Spec(lambda x, c: ((x, (6, 6), (4, 3), 30.0, 0.0, 360.0, col, 1), {}), grid="draw",
                        params=[P("axes=neg", 2, (-4, 3)), P("th=-1", 7, -1), P("angle=nan", 3, NAN),
                                (("box", lambda a, k, c: ((a[0], ((6.0, 6.0), (8.0, 5.0), 30.0), col, 1), {})))])
    S["drawMarker"] = Spec(lambda x, c: ((x, (5, 5), col), {}), grid="draw",
                           params=[K(f"type={t}", markerType=t) for t in (1, 2, 3, 4, 5, 6, 9)] + [K("size=neg", markerSize=-3)])
    S["fillConvexPoly"] = Spec(lambda x, c: ((x, c.pts(6, shape3=False), col), {}), grid="draw",
                               params=[P("pts=f32", 1, lambda c: c.pts(6, dtype="float32")), P("pts=empty", 1, lambda c: np.zeros((0, 2), np.int32)),
                                       K("shift=1", shift=1), P("pts=list", 1, [[0, 0], [5, 0], [5, 5]])])
    S["fillPoly"] = Spec(lambda x, c: ((x, [c.pts(6, shape3=False)], col), {}), grid="draw",
                         params=[P("pts=array", 1, lambda c: c.pts(6, shape3=False)), P("pts=empty", 1, []),
                                 K("offset", offset=(2, 3)), P("pts=f32", 1, lambda c: [c.pts(6, dtype="float32")])])
    S["polylines"] = Spec(lambda x, c: ((x, [c.pts(6, shape3=False)], True, col), {}), grid="draw",
                          params=[P("open", 2, False), P("pts=array", 1, lambda c: c.pts(6, shape3=False)), K("th=3", thickness=3),
                                  K("th=-1", thickness=-1)])
    S["drawContours"] = Spec(lambda x, c: ((x, [c.pts(6)], -1, col, 1), {}), grid="draw",
                             params=[P("idx=5", 2, 5), P("idx=0", 2, 0), P("th=-1", 4, -1), P("contours=array", 1, lambda c: c.pts(6)),
                                     P("contours=empty", 1, [])])
    S["putText"] = Spec(lambda x, c: ((x, "Ag1", (1, 10), cv2.FONT_HERSHEY_SIMPLEX, 0.4, col, 1), {}), grid="draw",
                        params=[P("font=bad", 3, 99), P("scale=0", 4, 0.0), P("scale=neg", 4, -1.0), P("scale=nan", 4, NAN),
                                P("text=empty", 1, ""), P("text=int", 1, 5), P("text=unicode", 1, "é∑"), P("org=float", 2, (1.5, 10.0)),
                                K("bottomLeft", bottomLeftOrigin=True), K("th=-1", thickness=-1)])
    S["getTextSize"] = Spec(lambda x, c: (("Ag1", cv2.FONT_HERSHEY_SIMPLEX, 0.4, 1), {}), grid="none",
                            params=[P("font=bad", 1, 99), P("scale=neg", 2, -1.0), P("th=0", 3, 0), P("text=None", 0, None),
                                    P("font=italic", 1, cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC)])
    # codecs
    S["imencode"] = Spec(lambda x, c: ((".png", x), {}), dst=False, call=_imencode_decoded,
                         params=[P("jpg", 0, ".jpg"), P("bmp", 0, ".bmp"), P("bad", 0, ".xyz"), P("noext", 0, "png"),
                                 K("params", params=[cv2.IMWRITE_PNG_COMPRESSION, 9])])
    S["imdecode"] = Spec(lambda x, c: ((_png_bytes(c), cv2.IMREAD_COLOR), {}), grid="none",
                         params=[P("gray", 1, cv2.IMREAD_GRAYSCALE), P("unchanged", 1, cv2.IMREAD_UNCHANGED),
                                 P("garbage", 0, lambda c: np.frombuffer(b"notanimage" * 3, np.uint8)),
                                 P("empty", 0, lambda c: np.zeros(0, np.uint8)), P("bytes", 0, lambda c: _png_bytes(c).tobytes()),
                                 P("truncated", 0, lambda c: _png_bytes(c)[:40]), P("2d", 0, lambda c: _png_bytes(c)[None, :])])
    S["imwrite"] = Spec(lambda x, c: ((None, x), {}), dst=False, call=_imwrite_roundtrip)
    S["imread"] = Spec(lambda x, c: ((None,), {}), grid="none", call=_imread_file,
                       params=[K("gray", flags=0), K("unchanged", flags=-1)])
    S["haveImageReader"] = Spec(lambda x, c: (("a.png",), {}), grid="none", params=[P("xyz", 0, "a.xyz"), P("None", 0, None)])
    S["haveImageWriter"] = Spec(lambda x, c: (("a.jpg",), {}), grid="none", params=[P("xyz", 0, "a.xyz")])
    # dnn
    S["dnn.blobFromImage"] = Spec(lambda x, c: ((x, 1 / 255, (8, 6), (1.0, 2.0, 3.0), True, False), {}), dst=False, tol=1,
                                  params=[P("size=0", 2, (0, 0)), P("crop", 5, True), P("size=neg", 2, (-1, 4)),
                                          P("mean=nan", 3, (NAN,) * 3), K("ddepth=u8", ddepth=0), K("ddepth=bad", ddepth=3)])
    S["dnn.blobFromImages"] = Spec(lambda x, c: (([x, c.like(x)], 1.0, (8, 6)), {}), dst=False, tol=1,
                                   params=[P("empty", 0, []), P("mismatch", 0, lambda c: [image(c.rng), image(c.rng, "uint8", 3, (5, 5))])])
    S["dnn.NMSBoxes"] = Spec(lambda x, c: ((_boxes(c), [0.9, 0.8, 0.7, 0.3, 0.6], 0.5, 0.4), {}), grid="none",
                             params=[P("scores=short", 1, [0.9]), P("empty", 0, []), P("nms=nan", 3, NAN),
                                     K("top_k=2", top_k=2), K("eta=0.5", eta=0.5), P("boxes=f32", 0, lambda c: np.array(_boxes(c), np.float32))])
    src3 = np.float32([[0, 0], [10, 0], [0, 10], [10, 10], [5, 3], [2, 8], [7, 7], [3, 1]])
    A = np.float32([[0.9, -0.2, 3.0], [0.2, 0.9, -1.0]])
    dst3 = src3 @ A[:, :2].T + A[:, 2]
    for n in ("estimateAffine2D", "estimateAffinePartial2D"):
        S[n] = Spec(lambda x, c: ((src3, dst3), {}), grid="none",
                    params=[P("3pts", 0, src3[:3]), P("2pts", 0, src3[:2]), P("mismatch", 1, dst3[:5]),
                            K("lmeds", method=cv2.LMEDS), P("f64", 0, src3.astype(np.float64)), P("None", 0, None)])
    S["dnn.NMSBoxesRotated"] = Spec(lambda x, c: (([((5.0, 5.0), (10.0, 10.0), 0.0), ((6.0, 6.0), (10.0, 10.0), 10.0),
                                                    ((30.0, 30.0), (5.0, 5.0), 45.0)], [0.9, 0.8, 0.7], 0.5, 0.4), {}),
                                    grid="none", params=[P("empty", 0, []), P("scores=short", 1, [0.9])])
    S["dnn.NMSBoxesBatched"] = Spec(lambda x, c: ((_boxes(c), [0.9, 0.8, 0.7, 0.3, 0.6], [0, 1, 0, 0, 1], 0.5, 0.4), {}),
                                    grid="none", params=[P("ids=short", 2, [0]), P("ids=float", 2, [0.0] * 5), P("empty", 0, []),
                                                         K("top_k=2", top_k=2), K("eta=0.5", eta=0.5)])
    S["dnn.softNMSBoxes"] = Spec(lambda x, c: ((_boxes(c), [0.9, 0.8, 0.7, 0.3, 0.6], 0.2, 0.4), {}), grid="none",
                                 params=[P("scores=short", 1, [0.9]), P("empty", 0, []), K("linear", method=1),
                                         K("sigma=0", sigma=0.0), K("top_k=2", top_k=2), K("method=bad", method=9),
                                         P("boxes=f32", 0, lambda c: np.array(_boxes(c), np.float32))])
    S["dnn.imagesFromBlob"] = Spec(lambda x, c: ((rand_array(c.rng, (2, 3, 5, 4), "float32"),), {}), grid="none",
                                   params=[P("3d", 0, lambda c: rand_array(c.rng, (3, 5, 4), "float32"))])
    return S


def _ro(a):
    a.flags.writeable = False
    return a


def _boxes(c):
    return [[0, 0, 10, 10], [1, 1, 10, 10], [20, 20, 5, 5], [21, 21, 5, 5], [0, 0, 3, 3]]


def _png_bytes(c):
    import cv2
    return cv2.imencode(".png", rand_array(c.rng, (5, 6, 3), "uint8"))[1]


def _imencode_decoded(m, args, kwargs):
    """Encoders may legitimately differ byte for byte: the comparison is of what cv2 decodes (lossless formats)."""
    import cv2
    ok, buf = m.imencode(*args, **kwargs)
    buf = _np().asarray(buf)
    ext = args[0]
    if ext in (".jpg", "jpg"):
        return ok, buf.ndim, cv2.imdecode(buf, -1).shape
    return ok, buf.ndim, cv2.imdecode(buf, -1)


def _imwrite_roundtrip(m, args, kwargs):
    import cv2
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "a.png")
        ok = m.imwrite(p, *args[1:], **kwargs)
        return ok, cv2.imread(p, -1) if os.path.exists(p) else None


def _imread_file(m, args, kwargs):
    import cv2
    import tempfile
    rng = _np().random.default_rng(5)
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "a.png")
        cv2.imwrite(p, rand_array(rng, (5, 6, 3), "uint8"))
        return m.imread(p, **kwargs), m.imread(os.path.join(d, "missing.png"))


# ---------------------------------------------------------------------------------------------
# The case grid. A case is a small JSON-able description; `materialize` turns it into arguments.

def cases(names, quick=False):
    S = specs()
    out = []
    for name in names:
        sp = S[name]
        dt0, ch0 = sp.dt or "uint8", sp.ch or 3
        if sp.grid == "none":
            out.append({"fn": name, "v": "base"})
        else:
            out.append({"fn": name, "v": "base", "dtype": dt0, "ch": ch0})
            dts = DTYPES if not quick else ["uint8", "int8", "float16", "float32", "bool", "int64"]
            chs = [1, 2, 3, 4, 5] if not quick else [1, 3, 5]
            for dt in dts:
                for ch in chs:
                    if (dt, ch) != (dt0, ch0):
                        out.append({"fn": name, "v": "dtype", "dtype": dt, "ch": ch})
            for sh in (SHAPES if not quick else ["0x0", "1x1", "Nx1"]):
                for dt in dict.fromkeys([dt0, "float32"]):
                    out.append({"fn": name, "v": "shape", "dtype": dt, "ch": ch0, "hw": SHAPES[sh], "shape": sh})
            for lay in (LAYOUTS if not quick else ["step", "chslice", "readonly"]):
                for ch in dict.fromkeys([ch0, 1]):
                    out.append({"fn": name, "v": "layout", "dtype": dt0, "ch": ch, "layout": lay})
            for lay in (MNN_LAYOUTS if not quick else ["step"]):
                out.append({"fn": name, "v": "mnn", "dtype": dt0, "ch": ch0, "layout": lay})
            if sp.dst and sp.grid == "img":
                out.append({"fn": name, "v": "dst", "dtype": dt0, "ch": ch0})
                out.append({"fn": name, "v": "dst_wrong", "dtype": dt0, "ch": ch0})
            if sp.grid == "img" and not quick:
                for lab, _ in GENERIC_BAD:
                    out.append({"fn": name, "v": "generic", "dtype": dt0, "ch": ch0, "label": lab})
        for lab, _ in sp.params:
            out.append({"fn": name, "v": "param", "label": lab, "dtype": dt0, "ch": ch0})
    for i, c in enumerate(out):
        c["id"] = i
    return out


def case_name(c):
    bits = [c["fn"], c["v"]]
    for k in ("dtype", "ch", "shape", "layout", "label"):
        if k in c:
            bits.append(f"{k}={c[k]}")
    return " ".join(str(b) for b in bits)


def materialize(case, S, for_mnn):
    """(call, args, kwargs) for one side; mnn arrays replace numpy ones in the 'mnn' variant."""
    np = _np()
    sp = S[case["fn"]]
    seed = case["id"] * 7919 + 13
    rng = np.random.default_rng(seed)
    hw = tuple(case.get("hw", BASE_HW))
    ch = case.get("ch", 3)
    dt = case.get("dtype", "uint8")
    c = Ctx(rng, dt, ch, hw)
    lay = case.get("layout", "contig")
    if sp.grid == "none":
        x = None
    elif case["v"] == "mnn":
        x = image(rng, dt, ch, hw, "contig" if lay != "step" else "contig")
    else:
        x = image(rng, dt, ch, hw, lay)
    if case["v"] == "mnn" and for_mnn:
        import mnn.numpy as mnp
        if lay == "step":
            big = mnp.asarray(np.ascontiguousarray(image(np.random.default_rng(seed + 1), dt, ch, (hw[0] * 2, hw[1] * 3))))
            x = big[::2, ::3]
        elif lay == "chslice":
            big = mnp.asarray(np.ascontiguousarray(image(np.random.default_rng(seed + 1), dt, ch + 1, hw)))
            x = big[..., 1] if ch == 1 else big[..., 1:]
        else:
            x = mnp.asarray(x.copy())
    elif case["v"] == "mnn":
        if lay == "step":
            x = image(np.random.default_rng(seed + 1), dt, ch, (hw[0] * 2, hw[1] * 3))[::2, ::3]
        elif lay == "chslice":
            big = image(np.random.default_rng(seed + 1), dt, ch + 1, hw)
            x = big[..., 1] if ch == 1 else big[..., 1:]
    args, kw = sp.build(x, c)
    if case["v"] == "dst":
        kw = dict(kw, dst=np.zeros(np.asarray(x).shape, np.asarray(x).dtype) if x is not None else None)
    elif case["v"] == "dst_wrong":
        kw = dict(kw, dst=np.zeros((2, 2), np.float64))
    elif case["v"] == "generic":
        v = dict(GENERIC_BAD)[case["label"]]
        args = list(args)
        if len(args) > 1:
            args[1] = v
    elif case["v"] == "param":
        t = dict(sp.params)[case["label"]]
        args, kw = t(args, kw, c)
    if case["v"] == "mnn" and for_mnn:
        args = [_to_mnn(a) if a is not x else a for a in args]
        kw = {k: _to_mnn(v) for k, v in kw.items()}
    return sp.call, tuple(args), kw


def _to_mnn(a):
    np = _np()
    import mnn.numpy as mnp
    if isinstance(a, np.ndarray):
        return mnp.asarray(a.copy())
    if isinstance(a, list):
        return [_to_mnn(v) for v in a]
    return a


# ---------------------------------------------------------------------------------------------
# Comparison

def normalize(r):
    """A result as plain Python / numpy values, so cv2's and mnn's can be compared."""
    np = _np()
    if r is None or isinstance(r, (bool, str, bytes)):
        return r
    if isinstance(r, (int, float, np.generic)):
        return float(r) if not isinstance(r, (bool, np.bool_)) else bool(r)
    if isinstance(r, (list, tuple)):
        return [normalize(v) for v in r]
    if isinstance(r, np.ndarray) or hasattr(r, "__array_interface__") or type(r).__name__ == "ndarray":
        return np.asarray(r)
    if isinstance(r, dict):
        return {k: normalize(v) for k, v in r.items()}
    return f"<{type(r).__name__}>"


def differs(a, b, tol, path="r"):
    """None when a and b agree, else a short description of the first difference."""
    np = _np()
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            if isinstance(a, np.ndarray) and isinstance(b, list) or isinstance(b, np.ndarray) and isinstance(a, list):
                try:
                    a2, b2 = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
                    if a2.shape == b2.shape:
                        return differs(a2, b2, tol, path)
                except (ValueError, TypeError):
                    pass
            return f"{path}: type {type(a).__name__} vs {type(b).__name__}"
        if a.shape != b.shape:
            return f"{path}: shape {a.shape} vs {b.shape}"
        if a.dtype != b.dtype:
            return f"{path}: dtype {a.dtype} vs {b.dtype}"
        if a.size == 0:
            return None
        if a.dtype.kind == "b":
            bad = int(np.count_nonzero(a != b))
            return None if bad == 0 else f"{path}: {bad} of {a.size} differ"
        fa, fb = a.astype(np.float64), b.astype(np.float64)
        nan_a, nan_b = np.isnan(fa), np.isnan(fb)
        if (nan_a != nan_b).any():
            return f"{path}: NaN positions differ ({int((nan_a != nan_b).sum())})"
        fa, fb = np.where(nan_a, 0, fa), np.where(nan_b, 0, fb)
        inf_eq = np.isinf(fa) | np.isinf(fb)
        if (fa[inf_eq] != fb[inf_eq]).any():
            return f"{path}: inf positions differ"
        fa, fb = np.where(inf_eq, 0, fa), np.where(inf_eq, 0, fb)
        d = np.abs(fa - fb)
        if a.dtype.kind in "iu":
            lim = tol or 0
        else:
            scale = max(1.0, float(np.abs(fa).max()))
            lim = max(tol or 0, (1e-3 if a.dtype == np.float16 else 1e-4 if a.dtype == np.float32 else 1e-6) * scale)
        m = float(d.max())
        if m > lim:
            return f"{path}: max |diff| {m:g} > {lim:g} at {np.unravel_index(int(d.argmax()), d.shape)} ({int((d > lim).sum())} of {d.size})"
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} vs {len(b)}"
        for i, (u, v) in enumerate(zip(a, b)):
            e = differs(u, v, tol, f"{path}[{i}]")
            if e:
                return e
        return None
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return None
        if abs(a - b) <= max(tol or 0, 1e-5 * max(1.0, abs(a))):
            return None
        return f"{path}: {a!r} vs {b!r}"
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            e = differs(a[k], b.get(k), tol, f"{path}.{k}")
            if e:
                return e
        return None
    if a != b:
        return f"{path}: {_short(a)} vs {_short(b)}"
    return None


def _short(v):
    s = repr(v)
    return s if len(s) < 80 else s[:77] + "..."


def _arrays_in(args, kwargs):
    """Every array argument (incl. in lists), so mutations of inputs / dst / drawn images are compared."""
    out = []
    for i, a in enumerate(list(args) + list(kwargs.values())):
        items = a if isinstance(a, list) else [a]
        for j, v in enumerate(items):
            if hasattr(v, "shape") and hasattr(v, "dtype"):
                out.append((i, j, v))
    return out


# ---------------------------------------------------------------------------------------------
# Workers: one process runs cv2's side of the cases, another mnn's, so a crash (or a heap that cv2
# corrupted: cv2 5.0 itself segfaults on some of these inputs) is attributed to the side it
# happened in. Each prints a marker before a case and the pickled outcome after it.

def run_side(mod, name, call, args, kwargs):
    fn = mod
    for part in name.split("."):
        fn = getattr(fn, part)
    try:
        r = call(mod, args, kwargs) if call is not None else fn(*args, **kwargs)
        arrays = [(i, j, normalize(v).copy()) for i, j, v in _arrays_in(args, kwargs)]
        return {"ok": True, "r": normalize(r), "arrays": arrays}
    except Exception as e:  # noqa: BLE001  (the audit records every exception; MemoryError included)
        return {"ok": False, "type": type(e).__name__, "msg": str(e).strip()[:300]}
    except MemoryError as e:
        return {"ok": False, "type": "MemoryError", "msg": str(e)[:300]}


def worker(side, ids, names, quick):
    import base64
    import faulthandler
    import pickle
    import resource
    faulthandler.enable()
    lim = 3 << 30  # a runaway allocation fails here instead of taking the machine's memory
    resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    import warnings
    warnings.simplefilter("ignore")
    if side == "cv2":
        import cv2 as mod
        mod.setNumThreads(1)
        mod.setRNGSeed(0)
    else:
        import mnn.cv as mod
    S = specs()
    allc = cases(names, quick)
    for i in ids:
        case = allc[i]
        print(f"@S {i}", flush=True)
        t0 = time.perf_counter()
        call, args, kwargs = materialize(case, S, side == "mnn")
        out = run_side(mod, case["fn"], call, args, kwargs)
        out["t"] = time.perf_counter() - t0
        print(f"@R {i} " + base64.b64encode(pickle.dumps(out)).decode(), flush=True)


def _run_side_workers(side, names, ids, quick, case_timeout, progress, allc):
    """{id: outcome} for one side; outcomes of cases whose process died are {'crash'|'hang': detail}."""
    import base64
    import pickle
    import queue
    import tempfile
    import threading
    env = dict(os.environ, OMP_NUM_THREADS="1")
    results = {}
    todo = list(ids)
    restarts = 0
    while todo:
        err = tempfile.TemporaryFile(mode="w+")  # a pipe nobody reads would block a chatty worker
        p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", side, "--names", ",".join(names),
                              "--ids", ",".join(map(str, todo))] + (["--quick"] if quick else []),
                             stdout=subprocess.PIPE, stderr=err, env=env, text=True)
        # A thread reads the worker's lines into a queue: select() on a buffered pipe would miss
        # lines already read into Python's buffer and throttle the run to one line per timeout.
        lines = queue.Queue()
        reader = threading.Thread(target=lambda f=p.stdout: ([lines.put(ln) for ln in f], lines.put(None)), daemon=True)
        reader.start()
        cur, timed_out = None, False
        while True:
            try:
                line = lines.get(timeout=case_timeout if cur is not None else 600.0)
            except queue.Empty:
                timed_out = True
                p.kill()
                break
            if line is None:
                break
            if line.startswith("@S "):
                cur = int(line[3:])
            elif line.startswith("@R "):
                i, blob = line[3:].split(" ", 1)
                results[int(i)] = pickle.loads(base64.b64decode(blob))
                todo.remove(int(i))
                cur = None
        p.wait()
        err.seek(0)
        tail = err.read()
        err.close()
        if cur is not None and cur not in results:
            first = [ln for ln in tail.splitlines() if ln.startswith("Fatal Python error") or "Error" in ln or "free()" in ln]
            kind = "hang" if timed_out else "crash"
            results[cur] = {kind: f"rc={p.returncode} " + " | ".join(first[:3])[:200]}
            todo.remove(cur)
            if progress:
                print(f"  {kind} in {side}: {case_name(allc[cur])}", file=sys.stderr, flush=True)
        elif todo:
            restarts += 1
            if restarts > 5:
                raise RuntimeError(f"{side} workers keep dying outside any case: rc={p.returncode} {tail[-2000:]}")
    return results


def _empty_equiv(a, b):
    """cv2's None (or empty tuple) where mnn has an empty array (or a tuple of them)."""
    np = _np()
    if a is None:
        return isinstance(b, np.ndarray) and b.size == 0
    if isinstance(a, list) and isinstance(b, list):
        if not a:
            return all(isinstance(v, np.ndarray) and v.size == 0 for v in b)
        return len(a) == len(b) and all(u is not None and differs(u, v, None) is None or _empty_equiv(u, v)
                                        for u, v in zip(a, b))
    return False


_NONE_READ = "cv2's binding reads None as {}; mnn refuses None (a clear TypeError)"
_NAN_PTS = "NaN points have no order: cv2 sorts them with comparisons that are all false (undefined), its answer is an accident"
_SCALAR_IMG = "a number where the image goes: cv2's binding encodes it as a 4x1 image of its Scalar; mnn refuses it"
# (function, class, label) -> why mnn's answer is intended: the cases where cv2's differs only by an
# accident of its binding or of integer overflow, with nothing a pipeline could rely on
KNOWN = {
    ("Canny", "mnn_missing", "arg1=None"): _NONE_READ.format("a threshold of 0"),
    ("Canny", "mnn_missing", "arg1=nan"): "a NaN threshold: cv2 floors it to INT_MIN (every gradient passes); mnn refuses it",
    ("Canny", "mnn_missing", "t1=nan"): "a NaN threshold: cv2 floors it to INT_MIN (every gradient passes); mnn refuses it",
    ("Canny", "differ", "arg1=huge"): "a threshold >= 2^31: cv2 floors it into a C int, which overflows to INT_MIN (more edges "
                                      "than at 2^31 - 1); mnn keeps it huge (no edges)",
    ("addWeighted", "mnn_missing", "dtype=bad"): "dtype=42 is CV_64UC2 in cv2 5's type codes: cv2 writes uint64, a depth mnn.cv "
                                                 "does not produce",
    ("boundingRect", "mnn_missing", "pts=None"): _NONE_READ.format("an empty point set"),
    ("boundingRect", "mnn_missing", "pts=nan"): "NaN points: cv2 floors NaN to INT_MIN in some SIMD lanes and skips it in "
                                                "others; mnn refuses non-finite points",
    ("moments", "mnn_missing", "pts=None"): _NONE_READ.format("an empty point set"),
    ("boxPoints", "mnn_missing", "None"): _NONE_READ.format("an all-zero box"),
    ("pointPolygonTest", "mnn_missing", "pt=None"): _NONE_READ.format("the point (0, 0)"),
    ("getRotationMatrix2D", "mnn_missing", "center=None"): _NONE_READ.format("the centre (0, 0)"),
    ("getRectSubPix", "mnn_missing", "arg1=None"): _NONE_READ.format("a 0x0 patch size"),
    ("haveImageReader", "mnn_missing", "None"): _NONE_READ.format("an empty file name"),
    ("convexHull", "differ", "pts=nan"): _NAN_PTS,
    ("minAreaRect", "differ", "pts=nan"): _NAN_PTS,
    ("getPerspectiveTransform", "differ", "degenerate"): "four equal points: no transform exists; cv2 5 returns an arbitrary "
                                                         "null vector of its SVD, mnn zeros with M[2,2] = 1 (cv2 4's answer)",
    ("imencode", "mnn_missing", "arg1=nan"): _SCALAR_IMG,
    ("imencode", "mnn_missing", "arg1=huge"): _SCALAR_IMG,
    ("imwrite", "mnn_missing", "arg1=nan"): _SCALAR_IMG,
    ("imwrite", "mnn_missing", "arg1=huge"): _SCALAR_IMG,
    ("imdecode", "mnn_lenient", "bytes"): "a bytes buffer is read as np.frombuffer(buf, np.uint8) would be (cv2 wants an array)",
}


def documented(case, cls="mnn_lenient"):
    """Why a difference is intended, for the cases where it is (else None): mnn returning where cv2
    raises (cls mnn_lenient), answering differently on purpose (cls differ), or raising where cv2
    returns only garbage (cls mnn_missing)."""
    v, lab = case["v"], case.get("label", "")
    why = KNOWN.get((case["fn"], cls, lab))
    if why:
        return why
    if case["fn"] in ("putText", "getTextSize"):
        return "mnn draws OpenCV 4's Hershey text (tests/cv/test_text.py); cv2 5 draws TrueType, on uint8 only"
    if cls == "differ" and lab.endswith("=TRANSP") and case["fn"] in ("warpAffine", "warpPerspective"):
        return "BORDER_TRANSPARENT without dst: cv2 leaves the uncovered pixels uninitialised"
    if cls == "differ" and case.get("shape") == "0x0" and case["fn"] in ("getRectSubPix", "remap"):
        return "an empty source: cv2 samples uninitialised memory"
    if cls == "mnn_missing" and case["fn"] == "rotate" and lab in ("rot=3", "rot=-1"):
        return "an unknown rotate code: cv2 returns its new dst uninitialised (nothing to match)"
    if cls == "mnn_missing" and case["fn"] == "sqrt" and case.get("dtype") not in ("float32", "float64"):
        return "cv2 5.0's sqrt of a non-float image returns garbage (its float kernel on integer bits)"
    if cls != "mnn_lenient":
        return None
    if lab == "pts=noncontig":
        return "a strided point array is read as numpy would (cv2's checkVector refuses the layout)"
    draw = case["fn"] in DRAWING
    if draw and (v == "layout" and case.get("layout") != "readonly" or v == "mnn" and case.get("layout") != "contig"):
        return "draws through a strided or Fortran-ordered view (cv2 refuses layouts it cannot wrap)"
    if draw and case.get("shape") == "0x0":
        return "drawing on an empty image draws nothing (cv2 refuses the empty array)"
    if lab.endswith("=list") or lab == "pts=list":
        return "a nested list is taken like numpy.asarray would (cv2 wants an array)"
    if lab in ("ksize=float", "k=float", "dsize=float"):
        return "an integral float size is taken as the integer (cv2 wants an int)"
    if case["fn"] == "inRange" and lab == "lo=array":
        return "an array bound with a Scalar bound is broadcast (tests/cv/test_threshold.py; cv2 wants both of one kind)"
    return None


DRAWING = {"line", "arrowedLine", "rectangle", "circle", "ellipse", "drawMarker", "fillConvexPoly", "fillPoly",
           "polylines", "drawContours", "putText"}


def classify(case, a, b, S):
    """a: cv2's outcome, b: mnn's."""
    name = case["fn"]
    qual = f"[mnn.cv.{name}]"
    if "crash" in b or "hang" in b:
        k = "crash" if "crash" in b else "hang"
        return k, f"mnn {b[k]}"
    if "crash" in a or "hang" in a:
        # cv2 5.0's own bug: nothing to compare with, but mnn must still answer cleanly
        if b["ok"] or b["msg"].startswith(qual):
            return "cv2_crash", f"cv2 {a.get('crash') or a.get('hang')}; mnn {'returns' if b['ok'] else 'raises'}"
        return "bad_message", f"(cv2 crashed) mnn {b['type']}: {b['msg'][:160]}"
    if not a["ok"] and not b["ok"]:
        if b["msg"].startswith(qual) or (name == "createCLAHE" and b["msg"].startswith("[mnn.cv.CLAHE.apply]")):
            return "both_raise", ""
        return "bad_message", f"mnn {b['type']}: {b['msg'][:160]}"
    if not a["ok"]:
        why = documented(case)
        if why:
            return "documented", why
        return "mnn_lenient", f"cv2 {a['type']}: {a['msg'][:160]}"
    if not b["ok"]:
        why = documented(case, "mnn_missing")
        if why:
            return "documented", why
        return "mnn_missing", f"mnn {b['type']}: {b['msg'][:200]}"
    tol = S[name].tol
    e = differs(a["r"], b["r"], tol)
    if e and _empty_equiv(a["r"], b["r"]):
        return "empty_none", "cv2 returns None (or nothing) for an empty result, mnn an empty array"
    if e and documented(case, "differ"):
        return "documented", documented(case, "differ")
    if e:
        return ("off_by_1" if _off_by_one(a["r"], b["r"]) else "differ"), e
    if len(a["arrays"]) != len(b["arrays"]):
        return "differ", "array argument count"
    for (i, j, u), (_, _, v) in zip(a["arrays"], b["arrays"]):
        e = differs(u, v, tol, f"arg{i}.{j}")
        if e and documented(case, "differ"):
            return "documented", documented(case, "differ")
        if e:
            return ("off_by_1" if _off_by_one(u, v) else "differ"), "after the call " + e
    return "ok", ""


def _off_by_one(a, b):
    """Whether every difference between a and b is an integer array value off by exactly 1."""
    np = _np()
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = [(u, v) for u, v in zip(a, b) if differs(u, v, None) is not None]
        return bool(pairs) and all(_off_by_one(u, v) for u, v in pairs)
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind not in "iu" or a.size == 0:
        return False
    return int(np.abs(a.astype(np.int64) - b.astype(np.int64)).max()) == 1


def audited_names():
    import mnn.cv as mcv
    import cv2
    import inspect
    names = []
    for n in sorted(dir(mcv)):
        f = getattr(mcv, n)
        if n.startswith("_") or not inspect.isfunction(f) or n in ("setNumThreads", "getNumThreads"):
            continue
        if hasattr(cv2, n):
            names.append(n)
    for n in sorted(dir(mcv.dnn)):
        f = getattr(mcv.dnn, n)
        if n.startswith("_") or not inspect.isfunction(f) or inspect.unwrap(f).__module__ != "mnn.cv._dnn":
            continue
        if hasattr(cv2.dnn, n):
            names.append("dnn." + n)
    return names


def run_audit(names, quick=False, case_timeout=10.0, progress=False):
    """Every case's record: both sides run concurrently, each in its own worker processes."""
    import threading
    allc = cases(names, quick)
    ids = [c["id"] for c in allc]
    out = {}
    failures = {}

    def side_run(s):
        try:
            out[s] = _run_side_workers(s, names, ids, quick, case_timeout, progress, allc)
        except Exception as e:  # re-raised below: a dead side must fail the audit, not vanish
            failures[s] = e

    th = [threading.Thread(target=side_run, args=(s,)) for s in ("cv2", "mnn")]
    for t in th:
        t.start()
    for t in th:
        t.join()
    for s, e in failures.items():
        raise RuntimeError(f"the {s} side of the audit failed: {e}") from e
    S = specs()
    recs = []
    for c in allc:
        a, b = out["cv2"][c["id"]], out["mnn"][c["id"]]
        cls, detail = classify(c, a, b, S)
        side = lambda o: ("ok" if o.get("ok") else f"{o['type']}: {o['msg'][:120]}") if "ok" in o else "died"  # noqa: E731
        recs.append({"id": c["id"], "fn": c["fn"], "name": case_name(c), "cls": cls, "detail": detail,
                     "cv2": side(a), "mnn": side(b), "t_mnn": round(b.get("t", 0), 4)})
    return recs


def summarize(recs, listing=None, out=sys.stdout):
    from collections import Counter
    cnt = Counter(r["cls"] for r in recs)
    print(f"{len(recs)} cases: " + ", ".join(f"{k}={cnt.get(k, 0)}" for k in SEVERITY), file=out)
    per = {}
    for r in recs:
        per.setdefault(r["fn"], Counter())[r["cls"]] += 1
    print("\nper function (non-fine classes):", file=out)
    for fn, c in sorted(per.items()):
        bad = {k: v for k, v in c.items() if k not in FINE}
        if bad:
            print(f"  {fn:32s} " + " ".join(f"{k}={v}" for k, v in sorted(bad.items(), key=lambda kv: SEVERITY.index(kv[0]))), file=out)
    if listing:
        want = set(SEVERITY) - set(FINE) if listing == "bad" else set(listing.split(","))
        print("", file=out)
        for k in SEVERITY:
            if k not in want:
                continue
            for r in recs:
                if r["cls"] == k:
                    extra = f"  [cv2 {r['cv2']}]" if k == "mnn_missing" else ""
                    print(f"{k:12s} {r['name']}: {r['detail']}{extra}", file=out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated function names (dnn ones as dnn.NAME)")
    ap.add_argument("--quick", action="store_true", help="reduced grid")
    ap.add_argument("--list", help="'bad' or comma-separated classes to list case by case")
    ap.add_argument("--json", help="write every case's record here")
    ap.add_argument("--from-json", help="summarize the records of an earlier --json run (with this file's rules)")
    ap.add_argument("--random", type=int, metavar="N", help="random mode: N random cases per function")
    ap.add_argument("--seed", type=int, default=0, help="random mode: the seed")
    ap.add_argument("--case", type=int, help="random mode: replay this one case (with --only) and print it")
    ap.add_argument("-v", action="store_true", help="random mode: list off_by_1 / mnn_stricter cases too")
    ap.add_argument("--random-worker", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--log", help=argparse.SUPPRESS)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--names", help=argparse.SUPPRESS)
    ap.add_argument("--ids", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.worker, [int(i) for i in a.ids.split(",")], a.names.split(","), a.quick)
        return
    if a.random_worker or a.random is not None:
        sys.path.insert(0, HERE)
        import cv_audit_random as rnd
        if a.random_worker:
            rnd.worker(a.random_worker, a.seed, a.random, a.start, a.log)
            return
        names = a.only.split(",") if a.only else sorted(rnd.SPECS)
        sys.exit(rnd.main(names, a.seed, a.random, a.case, a.v))
    if a.from_json:
        with open(a.from_json) as f:
            recs = json.load(f)
        names = list(dict.fromkeys(r["fn"] for r in recs))
        allc = cases(names, a.quick)
        for r in recs:  # re-apply the documented rules, which may be newer than the run
            why = documented(allc[r["id"]], r["cls"]) if r["cls"] in ("mnn_lenient", "differ", "mnn_missing") else None
            if why:
                r["cls"], r["detail"] = "documented", why
        summarize(recs, a.list)
        return
    names = audited_names()
    if a.only:
        want = a.only.split(",")
        unknown = [n for n in want if n not in names]
        if unknown:
            sys.exit(f"unknown functions: {unknown}")
        names = want
    known = specs()
    missing = [n for n in names if n not in known]
    if missing:
        print(f"no spec (not audited): {missing}", file=sys.stderr)
    names = [n for n in names if n in known]
    t0 = time.time()
    recs = run_audit(names, a.quick, progress=True)
    summarize(recs, a.list)
    print(f"\n{len(names)} functions, {time.time() - t0:.0f} s", file=sys.stderr)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(recs, f, indent=0)


if __name__ == "__main__":
    main()
