#!/usr/bin/env python3
"""Per-ISA microkernel benchmark: the same kernels run under each ISA the CPU supports
(MNN_ISA=scalar|avx2|avx512, one subprocess each), on data that fits in L2 so the numbers show
the kernels' compute speed rather than memory bandwidth.

    python benchmarks/microkernels.py              # 1 thread, every available ISA
    python benchmarks/microkernels.py --markdown   # also print a markdown table (BENCHMARKS.md)

Elementwise and reduction rows are in elements per nanosecond (higher is better), GEMM rows in
GFLOP/s. Each number is the median of repeated timings.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

CASES = [  # name, unit
    ("add f32 (64K, in cache)", "elem/ns"),
    ("mul+add f32 fused (64K)", "elem/ns"),
    ("exp f32 (64K)", "elem/ns"),
    ("tanh f32 (64K)", "elem/ns"),
    ("add int32 (64K)", "elem/ns"),
    ("cast f16->f32 (64K)", "elem/ns"),
    ("sum f32 all (64K)", "elem/ns"),
    ("sum f32 axis 0 (256x256)", "elem/ns"),
    ("sum f32 axis 1 (256x256)", "elem/ns"),
    ("max f32 axis 1 (256x256)", "elem/ns"),
    ("sgemm 256", "GFLOP/s"),
    ("sgemm 1024", "GFLOP/s"),
    ("dgemm 512", "GFLOP/s"),
]


def measure():
    """Runs in the child: times every case under the ISA the environment selected."""
    import mnn
    import mnn.numpy as np

    mnn.set_num_threads(1)
    n = 1 << 16

    def timed(fn, work, repeats=31):
        fn()
        samples = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - t0)
        return work / statistics.median(samples)

    x = np.linspace(-3, 3, n, dtype="float32")
    y = np.linspace(1, 2, n, dtype="float32")
    xi = np.arange(n, dtype="int32")
    xh = x.astype("float16")
    m = np.linspace(-1, 1, 256 * 256, dtype="float32").reshape(256, 256)
    mnn.eval(x, y, xi, xh, m)
    ev = mnn.eval
    out = {}
    out["add f32 (64K, in cache)"] = timed(lambda: ev(x + y), n) / 1e9
    out["mul+add f32 fused (64K)"] = timed(lambda: ev(x * y + x), n) / 1e9
    out["exp f32 (64K)"] = timed(lambda: ev(np.exp(x)), n) / 1e9
    out["tanh f32 (64K)"] = timed(lambda: ev(np.tanh(x)), n) / 1e9
    out["add int32 (64K)"] = timed(lambda: ev(xi + xi), n) / 1e9
    out["cast f16->f32 (64K)"] = timed(lambda: ev(xh.astype("float32")), n) / 1e9
    out["sum f32 all (64K)"] = timed(lambda: ev(x.sum()), n) / 1e9
    out["sum f32 axis 0 (256x256)"] = timed(lambda: ev(m.sum(0)), m.size) / 1e9
    out["sum f32 axis 1 (256x256)"] = timed(lambda: ev(m.sum(1)), m.size) / 1e9
    out["max f32 axis 1 (256x256)"] = timed(lambda: ev(m.max(1)), m.size) / 1e9
    for name, size, dt, reps in [("sgemm 256", 256, "float32", 31), ("sgemm 1024", 1024, "float32", 7),
                                 ("dgemm 512", 512, "float64", 7)]:
        a = np.linspace(-1, 1, size * size, dtype=dt).reshape(size, size)
        b = a.T.copy()
        mnn.eval(a, b)
        out[name] = timed(lambda: ev(a @ b), 2.0 * size ** 3, reps) / 1e9
    out["_isa"] = mnn._core.isa()
    print(json.dumps(out))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        return measure()
    import mnn

    isas = list(mnn._core.available_isas())
    results = {}
    for isa in isas:
        env = dict(os.environ, MNN_ISA=isa)
        r = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"microkernels under MNN_ISA={isa} failed:\n{r.stderr}")
        results[isa] = json.loads(r.stdout.strip().splitlines()[-1])
        assert results[isa]["_isa"] == isa, f"asked for {isa}, ran {results[isa]['_isa']}"
    head = f"{'kernel':<28}{'unit':>9}" + "".join(f"{i:>10}" for i in isas)
    if len(isas) > 1:
        head += f"{isas[-1] + '/scalar':>16}"
    print(head)
    print("-" * len(head))
    for name, unit in CASES:
        row = f"{name:<28}{unit:>9}" + "".join(f"{results[i][name]:>10.2f}" for i in isas)
        if len(isas) > 1:
            row += f"{results[isas[-1]][name] / results['scalar'][name]:>15.1f}x"
        print(row)
    if args.markdown:
        print()
        print("| kernel | unit | " + " | ".join(isas) + (f" | {isas[-1]}/scalar |" if len(isas) > 1 else " |"))
        print("|---|---|" + "---|" * len(isas) + ("---|" if len(isas) > 1 else ""))
        for name, unit in CASES:
            cells = " | ".join(f"{results[i][name]:.2f}" for i in isas)
            ratio = f" | {results[isas[-1]][name] / results['scalar'][name]:.1f}x |" if len(isas) > 1 else " |"
            print(f"| {name} | {unit} | {cells}{ratio}")


if __name__ == "__main__":
    main()
