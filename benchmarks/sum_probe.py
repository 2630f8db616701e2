"""Interleaved timing probe for the 4096x4096 float32 sums (issue 3), not a test.

benchmarks/run.py times one library's repeats back to back, so a noisy second on the shared host
lands on one library only. Here every repeat calls mnn, numpy and torch in turn (the order rotates
each repeat) and records both wall time (perf_counter) and CPU time of this thread (thread_time,
which excludes time spent descheduled). Medians, the 10-90% spread and GB/s per library and axis.

    PYTHONPATH=src python benchmarks/sum_probe.py [--repeats 40] [--n 4096] [--axes 0,1,all]
"""
import argparse
import statistics
import time

import numpy as np

import mnn
import mnn.numpy as mnp

try:
    import torch
except ImportError:  # the probe still compares mnn with numpy
    torch = None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=40)
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--axes", default="0,1,all")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--raw-lib", default=None,
                    help="optional throwaway .so exporting float NAME(const float*) read-bandwidth kernels over "
                         "the whole 4096x4096 buffer, timed in the same rotation as a hardware reference")
    ap.add_argument("--raw", default="raw_streams4,raw_stream1", help="kernel names in --raw-lib")
    args = ap.parse_args()
    mnn.set_num_threads(args.threads)
    if torch is not None:
        torch.set_num_threads(args.threads)
    n = args.n
    base = np.random.default_rng(20261122).standard_normal((n, n), dtype=np.float32)
    xm = mnp.array(base)
    mnn.eval(xm)
    xt = torch.from_numpy(base.copy()) if torch is not None else None
    gb = 4 * n * n / 1e9

    for ax in args.axes.split(","):
        axis = None if ax == "all" else int(ax)

        def f_mnn():
            r = xm.sum(axis=axis)
            mnn.eval(r)
            return r

        fns = {"mnn": f_mnn, "numpy": lambda: base.sum(axis=axis)}
        if xt is not None:
            fns["torch"] = (lambda: xt.sum()) if axis is None else (lambda: xt.sum(dim=axis))
        if args.raw_lib:
            import ctypes
            lib = ctypes.CDLL(args.raw_lib)
            ptr = ctypes.c_void_p(np.asarray(xm).ctypes.data)  # mnn's own (huge-page) buffer
            for name in args.raw.split(","):
                f = getattr(lib, name)
                f.restype = ctypes.c_float
                f.argtypes = [ctypes.c_void_p]
                fns[name] = (lambda f=f: f(ptr))
        # same bits as numpy (a cheap sanity check that the probe times the right thing)
        assert np.array_equal(np.asarray(f_mnn()), base.sum(axis=axis))
        for f in fns.values():
            f()
        names = list(fns)
        wall = {k: [] for k in names}
        cpu = {k: [] for k in names}
        for i in range(args.repeats):
            order = names[i % len(names):] + names[:i % len(names)]
            for k in order:
                c0, w0 = time.thread_time(), time.perf_counter()
                fns[k]()
                w1, c1 = time.perf_counter(), time.thread_time()
                wall[k].append(w1 - w0)
                cpu[k].append(c1 - c0)

        def q(v, p):
            s = sorted(v)
            return s[min(len(s) - 1, int(p * len(s)))]

        print(f"sum {n}x{n} f32 axis={ax}  ({args.repeats} interleaved repeats, {args.threads} thread(s))")
        for k in names:
            for label, v in (("wall", wall[k]), ("cpu ", cpu[k])):
                med = statistics.median(v)
                print(f"  {k:6s} {label} median {med * 1e3:7.3f} ms  min {min(v) * 1e3:7.3f}  "
                      f"p10-p90 {q(v, .1) * 1e3:7.3f}-{q(v, .9) * 1e3:7.3f}  {gb / med:6.1f} GB/s (median)")
        for peer in names[1:]:
            rw = statistics.median(wall[peer]) / statistics.median(wall["mnn"])
            rc = statistics.median(cpu[peer]) / statistics.median(cpu["mnn"])
            rm = min(wall[peer]) / min(wall["mnn"])
            # per-repeat ratio: both calls saw nearly the same machine state
            pr = sorted(a / b for a, b in zip(wall[peer], wall["mnn"]))
            print(f"  {peer}/mnn: wall median {rw:.2f}x  cpu median {rc:.2f}x  min {rm:.2f}x  "
                  f"per-repeat ratio median {statistics.median(pr):.2f} (p10 {q(pr, .1):.2f}, p90 {q(pr, .9):.2f})")


if __name__ == "__main__":
    main()
