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
    for _ in range(inner // 10):
        fn()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t0) / inner)
    return statistics.median(samples) * 1e9


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
    s = mnn.engine.stats()
    print(f"plan cache: {s['plan_hits']} hits, {s['plan_misses']} misses")


if __name__ == "__main__":
    main()
