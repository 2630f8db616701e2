"""Mismatch matrix of mnn.cv's per-element arithmetic against the real cv2.

For each function and parameter set it prints a matrix of mismatching element counts: rows are the
source depth (uint8..float64), columns the dtype argument (-1, CV_8U .. CV_64F); 'cE' where cv2
refuses the pair, 'mE' where only mnn does, 'dt' where the result dtypes differ. NaN matches NaN.

    PYTHONPATH=src python tools/cv_arith_matrix.py [--seed N] [--big] [--special] [--only NAME]

--big draws integers over the whole type range (int32 products then leave double's exact range)
and floats up to 1e6; --special plants 0, NaN and +-inf in the inputs. The exit status is 1 when
anything mismatches, so the tool can gate a change.
"""
import argparse
import sys
import warnings

import cv2
import numpy

import mnn.cv as cv

DEPTHS = {cv2.CV_8U: numpy.uint8, cv2.CV_8S: numpy.int8, cv2.CV_16U: numpy.uint16, cv2.CV_16S: numpy.int16,
          cv2.CV_32S: numpy.int32, cv2.CV_32F: numpy.float32, cv2.CV_64F: numpy.float64}


def calls():
    """(name, fn(module, a, b, dtype)) for every function and parameter variation."""
    out = [("add", lambda m, a, b, d: m.add(a, b, dtype=d)),
           ("subtract", lambda m, a, b, d: m.subtract(a, b, dtype=d))]
    # a Scalar on either side of add / subtract: cv2 picks the Scalar's own depth and a work depth
    # from it (int32 work wraps: 1e10 is cvRound's INT_MIN; float32 work rounds the Scalar)
    for v in (3, -7.5, 0.1, 300.5, 2147483647.0, 3e9, -1e10, 1e300, float("nan"), (1e10, 2.5, -3e9)):
        out.append((f"add(a, {v})", lambda m, a, b, d, v=v: m.add(a, v, dtype=d)))
        out.append((f"add({v}, b)", lambda m, a, b, d, v=v: m.add(v, b, dtype=d)))
        out.append((f"subtract(a, {v})", lambda m, a, b, d, v=v: m.subtract(a, v, dtype=d)))
        out.append((f"subtract({v}, b)", lambda m, a, b, d, v=v: m.subtract(v, b, dtype=d)))
    for s in (1.0, 0.37, 3.3, 1 / 3, -2.0):
        out.append((f"multiply scale={s:.4g}", lambda m, a, b, d, s=s: m.multiply(a, b, scale=s, dtype=d)))
        out.append((f"divide scale={s:.4g}", lambda m, a, b, d, s=s: m.divide(a, b, scale=s, dtype=d)))
    out.append(("multiply(a, 2.5)", lambda m, a, b, d: m.multiply(a, 2.5, dtype=d)))
    out.append(("multiply(1/3, b, scale=3.3)", lambda m, a, b, d: m.multiply(1 / 3, b, scale=3.3, dtype=d)))
    out.append(("divide(a, 0.7)", lambda m, a, b, d: m.divide(a, 0.7, dtype=d)))
    out.append(("divide(7, b)", lambda m, a, b, d: m.divide(7, b, dtype=d)))
    out.append(("divide(7, b, scale=0.3)", lambda m, a, b, d: m.divide(7, b, scale=0.3, dtype=d)))
    for w in ((0.3, 0.7, 1.5), (0.5, 0.5, 0.0), (1.7, -0.3, -12.25), (0.1, 1.0, 0.0), (1 / 3, 2 / 3, 0.5)):
        out.append((f"addWeighted {w}", lambda m, a, b, d, w=w: m.addWeighted(a, w[0], b, w[1], w[2], dtype=d)))
    return out


def draw(rng, dt, shape, big, special):
    if numpy.dtype(dt).kind == "f":
        x = (rng.standard_normal(shape) * (1e6 if big else 100)).astype(dt)
        if special:
            flat = x.reshape(-1)
            flat[::17] = 0
            flat[5::23] = numpy.nan
            flat[7::29] = numpy.inf
            flat[11::31] = -numpy.inf
        return x
    ii = numpy.iinfo(dt)
    lim = ii.max if big else 1000
    x = rng.integers(max(ii.min, -lim), min(ii.max, lim), shape, endpoint=True).astype(dt)
    if special:
        x.reshape(-1)[::13] = 0
    return x


def mismatches(fn, a, b, dd):
    try:
        want = fn(cv2, a, b, dd)
    except cv2.error:
        return "cE", 0
    try:
        got = numpy.asarray(fn(cv, a, b, dd))
    except Exception:  # noqa: BLE001  (any refusal is the finding here)
        return "mE", 1
    if got.dtype != want.dtype or got.shape != want.shape:
        return "dt", 1
    same = (got == want) | (numpy.isnan(got.astype(float)) & numpy.isnan(want.astype(float)))
    n = int((~same).sum())
    return str(n), n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--big", action="store_true", help="whole integer ranges, floats up to 1e6")
    ap.add_argument("--special", action="store_true", help="plant 0, NaN and inf in the inputs")
    ap.add_argument("--only", help="run only the variations whose name starts with this")
    ap.add_argument("--shape", default="37,41,3", help="input shape, e.g. 37,41 or 9,11,4")
    ap.add_argument("--quiet", action="store_true", help="print only the non-zero matrices")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    shape = tuple(int(v) for v in args.shape.split(","))
    total = 0
    for name, fn in calls():
        if args.only and not name.startswith(args.only):
            continue
        rng = numpy.random.default_rng(args.seed)
        rows, sub = [], 0
        for dt in DEPTHS.values():
            a, b = draw(rng, dt, shape, args.big, args.special), draw(rng, dt, shape, args.big, args.special)
            row = []
            for dd in [-1] + list(DEPTHS):
                cell, n = mismatches(fn, a, b, dd)
                row.append(cell)
                sub += n
            rows.append((numpy.dtype(dt).name, row))
        total += sub
        if sub or not args.quiet:
            print(f"{name}: {sub} mismatching")
            for dname, row in rows:
                print(f"    {dname:8s} " + " ".join(f"{c:>5s}" for c in row))
    print("total mismatches", total)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
