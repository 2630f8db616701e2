#!/usr/bin/env python3
"""Where the time of a tiny op goes: a 100-element float32 `a + b`, evaluated and read back each
time, split into the stages a call passes through, next to numpy doing the same.

    python benchmarks/dispatch.py

Stages (each row adds one stage to the previous one; the difference is that stage's cost):
  binding floor   a no-op call into the extension (what any pybind11 call costs)
  record          `a + b`: one graph node (promotion, broadcast, shape, hash inputs)
  + eval          `mnn.eval(a + b)`: extract the pending node, structural hash, plan-cache
                  lookup (a hit), bind buffers, run the kernel, realise the node
  + read back     `(a + b)[0].item()`: the round trip issue 3 measures (index view + item)

Then the same split for one cv call on a small numpy image (a 64x48x3 uint8 frame: resize to
32x24 LINEAR, and cvtColor BGR2RGB), next to cv2 doing the whole call:
  from_buffer     `_core.from_buffer(img)`: the numpy image imported zero-copy
  + record        the primitive recorded on it, as the wrapper's memoised path records it (one
                  node; `_core.prim_apply` of a bound primitive, `_core.prim` on older builds)
  + wrapper       `cv.resize(img, ...)`: the public call (checks, memo, error naming), unevaluated
  + eval          `mnn.eval(cv.resize(img, ...))`: plan-cache hit, kernel run
  + to numpy      `numpy.asarray(cv.resize(img, ...))`: what a cv2 caller gets back
"""
import statistics
import time

import mnn
import mnn.numpy as mnp
from mnn import _core

try:
    import numpy as np
except ImportError:
    np = None


def per_call(fn, inner=20000, repeats=9):
    """Median ns per call. CPU time of this thread (time.thread_time), not wall time: the host is
    shared, and time spent waiting for a core is not this code's cost."""
    for _ in range(inner // 10):
        fn()
    samples = []
    for _ in range(repeats):
        t0 = time.thread_time()
        for _ in range(inner):
            fn()
        samples.append((time.thread_time() - t0) / inner)
    return statistics.median(samples) * 1e9


def print_rows(title, rows, peer=None):
    print(f"{title:<48}{'ns/call':>10}{'stage ns':>10}")
    prev = 0.0
    for i, (name, ns) in enumerate(rows):
        print(f"{name:<48}{ns:>10.0f}{ns - prev:>10.0f}")
        prev = ns
    if peer is not None:
        name, ns = peer
        print(f"{name:<48}{ns:>10.0f}")
        print(f"whole call, mnn time / cv2 time: {rows[-1][1] / ns:.2f}x")


def cv_rows():
    """The cv split (needs numpy; the cv2 column needs cv2)."""
    import mnn.cv as mcv
    try:
        import cv2
    except ImportError:
        cv2 = None
    img = (np.arange(48 * 64 * 3, dtype=np.uint32) * 2654435761 >> 24).astype(np.uint8).reshape(48, 64, 3)
    fb = _core.from_buffer
    prim = _core.prim
    asarray = np.asarray
    ev = mnn.eval
    m = fb(img)
    resize, cvt = mcv.resize, mcv.cvtColor
    lin, code = mcv.INTER_LINEAR, mcv.COLOR_BGR2RGB
    # the engine arguments the wrappers pass (checked against the public call below)
    rz_ints, rz_floats = [24, 32, 1], [32 / 64, 24 / 48]
    perm = prim("cv_color", [m], [0, 3, 3, 2, 1, 0], [])
    ok = np.array_equal(asarray(perm), asarray(cvt(img, code)))
    ok &= np.array_equal(asarray(prim("cv_resize", [m], rz_ints, rz_floats)), asarray(resize(img, (32, 24))))
    if cv2 is not None:
        ok &= np.array_equal(asarray(resize(img, (32, 24))), cv2.resize(img, (32, 24)))
        ok &= np.array_equal(asarray(cvt(img, code)), cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    if not ok:
        raise SystemExit("dispatch.py: the engine calls timed here no longer match the public cv calls")
    # the record the wrappers' memoised path makes: a bound primitive where this build has them
    if hasattr(_core, "prim_bind"):
        apply, rz_bound, perm_bound = _core.prim_apply, _core.prim_bind("cv_resize", rz_ints, rz_floats), \
            _core.prim_bind("cv_color", [0, 3, 3, 2, 1, 0], [])
        rec_rz, rec_perm = (lambda: apply(rz_bound, fb(img))), (lambda: apply(perm_bound, fb(img)))
    else:
        rec_rz = lambda: prim("cv_resize", [fb(img)], rz_ints, rz_floats)  # noqa: E731
        rec_perm = lambda: prim("cv_color", [fb(img)], [0, 3, 3, 2, 1, 0], [])  # noqa: E731
    inner = 5000
    for title, rec, pub, peer in (
            ("cv resize 64x48x3 u8 -> 32x24 linear",
             rec_rz,
             lambda: resize(img, (32, 24), interpolation=lin),
             cv2 and (lambda: cv2.resize(img, (32, 24), interpolation=cv2.INTER_LINEAR))),
            ("cv cvtColor 64x48x3 u8 BGR2RGB",
             rec_perm,
             lambda: cvt(img, code),
             cv2 and (lambda: cv2.cvtColor(img, cv2.COLOR_BGR2RGB)))):
        rows = [
            ("from_buffer (numpy image, zero-copy)", per_call(lambda: fb(img), inner)),
            ("+ record (the primitive on it)", per_call(rec, inner)),
            ("+ public wrapper (unevaluated result)", per_call(pub, inner)),
            ("+ eval (plan-cache hit, kernel)", per_call(lambda: ev(pub()), inner)),
            ("+ to numpy (numpy.asarray of the result)", per_call(lambda: asarray(pub()), inner)),
        ]
        print()
        print_rows(title, rows, peer and ("cv2 (whole call)", per_call(peer, inner)))


def main():
    mnn.set_num_threads(1)
    a = mnp.linspace(0, 1, 100, dtype="float32")
    b = mnp.linspace(1, 2, 100, dtype="float32")
    mnn.eval(a, b)
    ev = mnn.eval
    rows = [
        ("binding floor (no-op extension call)", per_call(_core.get_num_threads)),
        ("record a + b", per_call(lambda: a + b)),
        ("record + eval (plan-cache hit, execute)", per_call(lambda: ev(a + b))),
        ("record + eval + read back (a + b)[0].item()", per_call(lambda: (a + b)[0].item())),
    ]
    print(f"{'stage (100-element float32 a + b)':<48}{'ns/call':>10}{'stage ns':>10}")
    prev = 0.0
    for name, ns in rows:
        print(f"{name:<48}{ns:>10.0f}{ns - prev:>10.0f}")
        prev = ns if name != rows[0][0] else 0.0
    if np is not None:
        x = np.linspace(0, 1, 100, dtype=np.float32)
        y = np.linspace(1, 2, 100, dtype=np.float32)
        add = per_call(lambda: x + y)
        trip = per_call(lambda: (x + y)[0].item())
        print(f"{'numpy a + b':<48}{add:>10.0f}")
        print(f"{'numpy (a + b)[0].item()':<48}{trip:>10.0f}")
        print(f"round trip, mnn time / numpy time: {rows[-1][1] / trip:.2f}x (issue 3 asks <= 2.5x)")
    if np is not None:
        cv_rows()
    s = mnn.engine.stats()
    print(f"plan cache: {s['plan_hits']} hits, {s['plan_misses']} misses")


if __name__ == "__main__":
    main()
