"""Audit mnn.numpy reductions against numpy: dtypes x shapes x views x axes x keepdims x arguments.

Integer results, min/max/argmin/argmax/any/all and NaN-ness must agree bit for bit (NaN payloads
included); float sums/means/var must stay within about 2x numpy's own error against a float64
(complex128) reference; exceptions must match in type, with a message prefixed [mnn.numpy.<fn>].

    PYTHONPATH=src python tools/reduce_audit.py [--quick] [--only sum,max]
"""
import argparse
import itertools
import sys
import warnings

import numpy as np

import mnn.numpy as mp

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
FUNCS = ["sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std", "any", "all", "cumsum",
         "cumprod", "nansum", "nanmax", "nanmin", "ptp", "median"]
SHAPES = [(), (0,), (7,), (1, 9), (9, 1), (3, 0), (3, 5, 7), (4, 33), (130, 3)]
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: None}


def make(dtype, shape, rng, special):
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        x = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(info.min, int(info.max) + 1, n, dtype=dt) if dt.itemsize < 8 else \
            rng.integers(-2**62 if dt.kind == "i" else 0, 2**62, n).astype(dt)
    elif dt.kind == "f":
        x = (rng.standard_normal(n) * 3).astype(dt)
        if special and n:
            vals = [np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0]
            for v in vals[: max(1, n // 5)]:
                x[rng.integers(0, n)] = v
    else:
        x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
        if special and n:
            x[rng.integers(0, n)] = complex(np.nan, 1)
    return x.reshape(shape)


def views(x):
    yield "c", x
    if x.ndim >= 2:
        yield "T", x.T
    if x.ndim >= 1 and x.shape[-1] > 1:
        yield "rev", x[..., ::-1]
        yield "step", x[..., ::2]


def axes_for(nd, fn):
    if fn in ("argmin", "argmax", "cumsum", "cumprod"):
        return [None] + list(range(-nd, nd))
    out = [None] + list(range(nd)) + ([-1] if nd else [])
    if nd >= 2:
        out += [(0, nd - 1)]
    if nd >= 3:
        out += [(1, 0), (0, 1, 2)]
    return out


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f" and a.dtype.itemsize in _UINT:
        return np.array_equal(a.view(_UINT[a.itemsize]), b.view(_UINT[a.itemsize]))
    if a.dtype.kind == "c":
        return same_bits(a.real.copy(), b.real.copy()) and same_bits(a.imag.copy(), b.imag.copy())
    return np.array_equal(a, b)


def close_enough(fn, x, r, q, kw):
    """Float results: NaN/inf positions equal, error vs a wide reference within 2x numpy's (+ulps)."""
    r, q = np.asarray(r), np.asarray(q)
    if r.shape != q.shape or r.dtype != q.dtype:
        return False
    if fn in ("min", "max", "nanmin", "nanmax", "ptp", "median", "argmin", "argmax"):
        return same_bits(r, q) or (fn in ("ptp", "median") and np.array_equal(r, q, equal_nan=True))
    if not np.array_equal(np.isnan(r), np.isnan(q)) or not np.array_equal(np.isinf(r), np.isinf(q)):
        return False
    wide = np.complex128 if r.dtype.kind == "c" else np.float64
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kw2 = dict(kw)
            kw2.pop("dtype", None)
            ref = np.asarray(getattr(np, fn)(np.asarray(x).astype(wide), **kw2)).astype(wide)
    except Exception:
        return np.allclose(r, q, equal_nan=True)
    fin = np.isfinite(r)
    er = np.abs(r.astype(wide)[fin] - ref[fin])
    eq = np.abs(q.astype(wide)[fin] - ref[fin])
    eps = np.finfo(r.dtype).eps
    # rounding of the terms themselves: sums cancel, so scale by the sum of magnitudes
    mag = np.abs(ref)
    if fn in ("sum", "nansum", "mean", "cumsum"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mag = np.asarray(getattr(np, fn)(np.abs(np.nan_to_num(np.asarray(x).astype(wide))), **kw2)).astype(wide)
            mag = np.abs(mag)
    scale = np.broadcast_to(mag, ref.shape)[fin] * eps * 4 + (eps if r.dtype.itemsize > 2 else 1e-3)
    return bool(np.all(eq <= 2 * er + scale))


def call(mod, fn, x, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return getattr(mod, fn)(x, **kw)


def check(fn, x, xm, kw, report):
    try:
        r = call(np, fn, x, kw)
        err = None
    except Exception as e:  # noqa: BLE001
        r, err = None, e
    try:
        q = call(mp, fn, xm, kw)
        q = np.asarray(q) if not np.isscalar(q) else q
        merr = None
    except Exception as e:  # noqa: BLE001
        q, merr = None, e
    tag = f"{fn}({x.dtype}{list(x.shape)} strides={x.strides}, {kw})"
    if merr is not None and "complex" in str(merr) and "not supported" in str(merr):
        report.append(f"UNSUPPORTED {fn} complex: {merr}")  # a clear exception, counted apart
        return
    if err is not None or merr is not None:
        if err is None:
            report.append(f"RAISE {tag}: mnn {type(merr).__name__}: {merr}")
        elif merr is None:
            report.append(f"NORAISE {tag}: numpy {type(err).__name__}: {err}")
        elif not isinstance(merr, type(err)) and not isinstance(err, type(merr)):
            report.append(f"ERRTYPE {tag}: numpy {type(err).__name__}, mnn {type(merr).__name__}: {merr}")
        elif f"[mnn.numpy." not in str(merr):
            report.append(f"ERRMSG {tag}: {merr}")
        return
    r = np.asarray(r)
    q = np.asarray(q)
    if r.dtype.kind in "biu" or r.dtype.kind not in "fc":
        ok = same_bits(r, q)
    else:
        ok = close_enough(fn, x, r, q, kw)
    if not ok:
        report.append(f"DIFF {tag}: numpy {r.dtype}{r.shape} {np.ravel(r)[:4]} mnn {q.dtype}{q.shape} {np.ravel(q)[:4]}")


def audit(funcs, quick=False):
    rng = np.random.default_rng(0)
    report = []
    shapes = SHAPES[:6] if quick else SHAPES
    for dtype, shape, special in itertools.product(DTYPES, shapes, (False, True)):
        base = make(dtype, shape, rng, special)
        mbase = mp.asarray(base)
        for (vname, x), (_, xm) in zip(views(base), views(mbase)):
            for fn in funcs:
                for ax in axes_for(x.ndim, fn):
                    kws = [{"axis": ax}]
                    if fn not in ("argmin", "argmax", "cumsum", "cumprod", "median", "ptp"):
                        kws.append({"axis": ax, "keepdims": True})
                    if fn in ("sum", "prod", "mean", "cumsum", "nansum") and ax is None:
                        kws += [{"axis": ax, "dtype": d} for d in ("float64", "int32", "float32")]
                    if fn in ("sum", "prod", "max", "min") and ax is None and not special:
                        kws.append({"axis": ax, "initial": 5})
                        kws.append({"axis": -1 if x.ndim else None, "where": (x != 0) if x.ndim else True,
                                    "initial": 1})
                    if fn in ("var", "std") and ax is None:
                        kws.append({"axis": ax, "ddof": 1})
                    for kw in kws:
                        if "where" in kw and not isinstance(kw["where"], bool):
                            kwm = dict(kw, where=mp.asarray(kw["where"]))
                            check_where(fn, x, xm, kw, kwm, report)
                        else:
                            check(fn, x, xm, kw, report)
    return report


def check_where(fn, x, xm, kw, kwm, report):
    try:
        r = call(np, fn, x, kw)
    except Exception as e:  # noqa: BLE001
        try:
            call(mp, fn, xm, kwm)
            report.append(f"NORAISE {fn} where {x.dtype}{x.shape}: numpy {e}")
        except Exception:  # noqa: BLE001
            pass
        return
    try:
        q = np.asarray(call(mp, fn, xm, kwm))
    except Exception as e:  # noqa: BLE001
        if "complex" in str(e) and "not supported" in str(e):
            report.append(f"UNSUPPORTED {fn} complex: {e}")
        else:
            report.append(f"RAISE {fn} where {x.dtype}{x.shape}: {e}")
        return
    if not (same_bits(r, q) or (np.asarray(r).dtype.kind in "fc" and np.allclose(r, q, rtol=1e-3, equal_nan=True))):
        report.append(f"DIFF {fn} where {x.dtype}{x.shape}: {np.ravel(r)[:4]} vs {np.ravel(q)[:4]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    funcs = a.only.split(",") if a.only else FUNCS
    rep = audit(funcs, a.quick)
    unsupported = sorted({line for line in rep if line.startswith("UNSUPPORTED")})
    rep = [line for line in rep if not line.startswith("UNSUPPORTED")]
    for line in unsupported + rep:
        print(line)
    print(f"{len(rep)} mismatches ({len(unsupported)} unsupported complex features)", file=sys.stderr)
    return 1 if rep else 0


if __name__ == "__main__":
    sys.exit(main())
