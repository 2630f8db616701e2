#!/usr/bin/env python3
"""The drop-in measure, timed: each plain-numpy program of tests/test_scripts.py runs unchanged on
numpy and on mnn.numpy; prints median wall times and the ratio (numpy time / mnn time, above 1:
mnn is faster).

    python benchmarks/scripts.py              # every script, 5 timed runs each after a warm-up
    python benchmarks/scripts.py --only kalman,mlp --repeats 9

The programs are small (the sizes the tests use), so the numbers mostly measure per-call overhead
(recording, planning, evaluation triggers) rather than kernel speed; benchmarks/run.py measures the
kernels. mnn results are read back (numpy.asarray) inside the timed region.
"""
import argparse
import importlib.util
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import numpy  # noqa: E402

import mnn.numpy as mnp  # noqa: E402


def _load_scripts():
    spec = importlib.util.spec_from_file_location("test_scripts", os.path.join(ROOT, "tests", "test_scripts.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _cases(t):
    rng = numpy.random.default_rng(0)
    cases = {
        "kalman": (t.kalman_track, ()),
        "kmeans": (t.kmeans, (numpy.concatenate([c + rng.normal(size=(50, 2)) for c in
                                                 ([0, 0], [5, 5], [-5, 5], [5, -5])]),)),
        "heat_equation": (t.heat_equation, ()),
        "monte_carlo": (t.monte_carlo, ()),
        "mandelbrot": (t.mandelbrot, ()),
        "nbody": (t.nbody, (rng.normal(size=(12, 3)), rng.normal(size=(12, 3)), rng.uniform(0.5, 2, 12))),
        "logistic_regression": (t.logistic_regression, (rng.normal(size=(200, 4)),
                                                        (rng.random(200) > 0.5).astype(float))),
        "pagerank": (t.pagerank, (numpy.unique(rng.integers(0, 30, size=(120, 2)), axis=0), 30)),
        "game_of_life": (t.game_of_life, ((rng.random((24, 30)) < 0.3).astype(numpy.uint8),)),
        "edit_distance": (t.edit_distance, ("kitten sat", "sitting cat")),
        "surface_fit": (t.surface_fit, (rng.normal(size=(21, 17)),)),
        "label_report": (t.label_report, ()),
    }
    try:
        from sklearn.datasets import load_digits
        d = load_digits()
        cases["mlp_digits"] = (t.mlp_digits, (d.data[:640], d.target[:640]))
    except ImportError:
        pass
    try:
        import skimage.data
        cases["image_pipeline"] = (t.image_pipeline, (skimage.data.astronaut()[::8, ::8],))
        cases["image_filters"] = (t.image_filters, (skimage.data.camera()[100:160, 200:280],))
    except ImportError:
        pass
    return cases


def _time(fn, lib, args, repeats, t):
    fn(lib, *args)  # warm-up: imports, plan cache
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        t.to_numpy(fn(lib, *args))
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated substrings of script names")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    t = _load_scripts()
    only = [s for s in args.only.split(",") if s]
    print(f"{'script':22s} {'numpy ms':>10s} {'mnn ms':>10s} {'numpy/mnn':>10s}")
    with numpy.errstate(all="ignore"):
        for name, (fn, fargs) in _cases(t).items():
            if only and not any(s in name for s in only):
                continue
            tn = _time(fn, numpy, fargs, args.repeats, t)
            tm = _time(fn, mnp, fargs, args.repeats, t)
            print(f"{name:22s} {tn * 1e3:10.2f} {tm * 1e3:10.2f} {tn / tm:10.2f}")


if __name__ == "__main__":
    main()
