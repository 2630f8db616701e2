"""`python -m mnn`: a short tour that computes real things with mnn.numpy and shows what the engine did.

1. a least-squares polynomial fit, once in closed form (normal equations) and once by gradient
   descent with mnn.value_and_grad: the same training step repeated is planned once, then cached;
2. a quasi-Monte Carlo estimate of pi over 4M points (elementwise work fused into one pass);
3. the fused chain a*b + c*2 - sqrt(abs(a)) over 4M float32, timed, and against numpy when numpy
   happens to be installed (mnn itself never needs it);
4. a real photo through an mnn.cv pipeline (resize -> cvtColor -> GaussianBlur -> Canny -> drawing
   -> dnn.blobFromImage), written to mnn_demo_out.png: the photo is a PNG from scikit-image's data
   folder when that package is installed (read by mnn.cv.imread; neither numpy nor skimage is
   imported), else a scene drawn with mnn.cv's drawing functions.
"""
import importlib.util
import math
import os
import statistics
import sys
import time

import mnn
import mnn.numpy as np


def _since(before):
    """Engine counters accumulated since the snapshot `before` (gauges such as last_* and
    *_bytes are reported as they are now)."""
    now = mnn.engine.stats()
    gauges = ("arena_bytes", "output_bytes", "peak_bytes", "cached_plans")
    return {k: v if k.startswith("last_") or k in gauges or not isinstance(v, int) else v - before.get(k, 0)
            for k, v in now.items()}


def _frac(x):
    return x - np.floor(x)


def _r2(n, offset=0):
    """The first n points of Roberts' R2 low-discrepancy sequence in the unit square."""
    g = 1.32471795724474602596  # the plastic number: x**3 = x + 1
    i = np.arange(offset, offset + n, dtype=np.float64)
    return _frac(0.5 + i / g), _frac(0.5 + i / (g * g))


def _solve3(m, v):
    """Gaussian elimination with partial pivoting for a small dense system (Python lists)."""
    n = len(v)
    a = [list(map(float, row)) + [float(v[i])] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            for k in range(c, n + 1):
                a[r][k] -= f * a[c][k]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (a[r][n] - sum(a[r][k] * x[k] for k in range(r + 1, n))) / a[r][r]
    return x


def least_squares():
    print("1. Least-squares fit of y = 0.5 - 2x + 3x^2 + noise, 2000 samples")
    n = 2000
    x = np.linspace(-1.0, 1.0, n)
    u, _ = _r2(n, offset=7)
    noise = (u - 0.5) * 0.2  # deterministic, zero-mean, |noise| <= 0.1
    y = 0.5 - 2.0 * x + 3.0 * x ** 2 + noise
    a = np.stack([np.ones_like(x), x, x ** 2], axis=1)  # (n, 3) design matrix
    coef = _solve3((a.T @ a).tolist(), (a.T @ y).tolist())
    print("   normal equations:  " + "  ".join(f"{c:+.4f}" for c in coef))

    def loss(w):
        r = a @ w - y
        return (r * r).mean()

    step = mnn.value_and_grad(loss)
    w = np.zeros(3)
    lr = 0.5
    before = mnn.engine.stats()
    for _ in range(300):
        value, g = step(w)
        w = w - lr * g
        mnn.eval(w)
    s = _since(before)
    print("   gradient descent:  " + "  ".join(f"{c:+.4f}" for c in w.tolist())
          + f"   (300 steps, final mse {float(value):.5f})")
    print(f"   300 training steps: plan cache {s['plan_hits']} hits / {s['plan_misses']} misses")
    print()


def estimate_pi():
    n = 4_000_000
    print(f"2. Quasi-Monte Carlo estimate of pi from {n:,} points of the R2 sequence")
    t0 = time.perf_counter()
    px, py = _r2(n)
    inside = (px * px + py * py) <= 1.0
    est = 4.0 * inside.mean().item()
    dt = time.perf_counter() - t0
    print(f"   pi ~ {est:.7f}   (error {abs(est - math.pi):.1e}, {dt * 1e3:.1f} ms)")
    print()


def _median_ms(fn, repeats=7):
    fn()  # warm-up: the first call plans, later calls hit the plan cache
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def fused_chain():
    n = 4 << 20
    print(f"3. Fused chain a*b + c*2 - sqrt(abs(a)) over {n:,} float32 "
          f"({mnn.get_num_threads()} threads)")
    u, v = _r2(n)
    a = (u * 2.0 - 1.0).astype(np.float32)
    b = (v * 2.0 - 1.0).astype(np.float32)
    c = (_frac(u + v) - 0.5).astype(np.float32)
    mnn.eval(a, b, c)

    def run_mnn():
        r = a * b + c * 2.0 - np.sqrt(np.abs(a))
        mnn.eval(r)
        return r

    before = mnn.engine.stats()
    r = run_mnn()
    s = _since(before)
    print(f"   checksum {float(r.sum(dtype=np.float64)):.4f}; one evaluation ran {s['last_steps']} step(s), "
          f"{s['last_fused_groups']} fused group(s), {s['kernels_run']} kernel(s)")
    t_mnn = _median_ms(run_mnn)
    print(f"   mnn:   {t_mnn:8.2f} ms")
    try:
        import numpy
    except ImportError:
        print("   numpy is not installed: no comparison (mnn does not need it)")
        return
    na, nb, nc = (numpy.array(x) for x in (a, b, c))  # independent copies in numpy's memory

    def run_numpy():
        return na * nb + nc * 2.0 - numpy.sqrt(numpy.abs(na))

    diff = float(numpy.max(numpy.abs(numpy.asarray(r) - run_numpy())))
    t_np = _median_ms(run_numpy)
    print(f"   numpy: {t_np:8.2f} ms   -> mnn is {t_np / t_mnn:.2f}x numpy's speed here "
          f"(max difference {diff:.1e})")


def _photo_path():
    """A photograph shipped by scikit-image, located without importing it (or numpy)."""
    try:
        spec = importlib.util.find_spec("skimage")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    data = os.path.join(os.path.dirname(spec.origin), "data")
    for name in ("chelsea.png", "coffee.png", "astronaut.png"):
        if os.path.isfile(os.path.join(data, name)):
            return os.path.join(data, name)
    return None


def _synthetic_scene(cv, h=360, w=480):
    """A small BGR scene drawn with mnn.cv: a sky-to-ground gradient, a sun, houses, a road."""
    y = np.arange(h, dtype=np.float32)[:, None, None] / h
    sky = np.array([235.0, 190.0, 120.0], dtype=np.float32)
    ground = np.array([60.0, 140.0, 90.0], dtype=np.float32)
    img = (sky * (1.0 - y) + ground * y + np.zeros((1, w, 1), np.float32)).astype(np.uint8)
    cv.circle(img, (w - 90, 70), 38, (60, 220, 255), -1, cv.LINE_AA)
    for i, (x0, hh) in enumerate(((40, 110), (170, 140), (300, 95))):
        base = h - 90
        cv.rectangle(img, (x0, base - hh), (x0 + 100, base), (70 + 40 * i, 90, 160), -1)
        roof = np.array([[x0 - 10, base - hh], [x0 + 50, base - hh - 50], [x0 + 110, base - hh]], np.int32)
        cv.fillPoly(img, [roof], (40, 40, 120 + 30 * i))
        cv.rectangle(img, (x0 + 38, base - 45), (x0 + 62, base), (30, 50, 80), -1)
    road = np.array([[w // 2 - 30, h - 90], [w // 2 + 30, h - 90], [w - 40, h - 1], [40, h - 1]], np.int32)
    cv.fillConvexPoly(img, road, (80, 80, 80))
    cv.line(img, (w // 2, h - 85), (w // 2, h - 5), (255, 255, 255), 3)
    return img


def cv_pipeline(out_path="mnn_demo_out.png"):
    """Section 4; returns the path written."""
    import mnn.cv as cv
    print("4. A photo through an mnn.cv pipeline")
    t0 = time.perf_counter()
    path = _photo_path()
    img = cv.imread(path) if path else None
    if img is None:
        img = _synthetic_scene(cv)
        print("   source: a scene drawn with mnn.cv (scikit-image's sample photos are not installed)")
    else:
        print(f"   source: {path} ({img.shape[1]}x{img.shape[0]}, decoded by mnn.cv.imread)")
    h0, w0 = img.shape[0], img.shape[1]
    scale = 480 / max(h0, w0)
    small = cv.resize(img, (max(1, round(w0 * scale)), max(1, round(h0 * scale))), interpolation=cv.INTER_AREA)
    gray = cv.cvtColor(small, cv.COLOR_BGR2GRAY)
    blur = cv.GaussianBlur(gray, (5, 5), 1.2)
    edges = cv.Canny(blur, 60, 160)
    out = np.array(small)
    # paint the edges red, then box where they are densest (a coarse grid over the edge map)
    out = np.where((edges > 0)[:, :, None], np.array([0, 0, 255], dtype=np.uint8), out)
    h, w = edges.shape
    cell = 40
    density = (edges[:h // cell * cell, :w // cell * cell] > 0).reshape(h // cell, cell, w // cell, cell)
    density = density.mean(axis=(1, 3)).tolist()
    busy = sorted(((d, r, c) for r, row in enumerate(density) for c, d in enumerate(row)), reverse=True)[:4]
    for d, r, c in busy:
        cv.rectangle(out, (c * cell, r * cell), (c * cell + cell - 1, r * cell + cell - 1), (0, 255, 0), 2)
    if hasattr(cv, "findContours"):
        contours, _ = cv.findContours(edges, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE)
        contours = sorted(contours, key=lambda c: -c.shape[0])[:20]
        cv.drawContours(out, contours, -1, (255, 200, 0), 1)
    cv.circle(out, (w // 2, h // 2), min(h, w) // 3, (255, 255, 255), 1, cv.LINE_AA)
    blob = cv.dnn.blobFromImage(out, 1 / 255, (224, 224), (104, 117, 123), swapRB=True)
    ok = cv.imwrite(out_path, out)
    dt = time.perf_counter() - t0
    print(f"   resize -> cvtColor -> GaussianBlur -> Canny ({int((edges > 0).sum()):,} edge pixels) -> drawing "
          f"-> blob {tuple(blob.shape)} mean {float(blob.mean()):+.3f}   ({dt * 1e3:.0f} ms)")
    print(f"   wrote {os.path.abspath(out_path)}" if ok else f"   could not write {out_path}")
    return out_path


def main():
    print(f"mnn {mnn.__version__}: NumPy-compatible arrays on a lazy, fusing engine "
          f"({mnn.engine.info()['backend']}, {mnn.get_num_threads()} threads)\n")
    mnn.engine.reset_stats()
    for part in (least_squares, estimate_pi, fused_chain):
        part()
    print()
    cv_pipeline()
    s = mnn.engine.stats()
    print()
    print("mnn.engine.stats() for the whole demo:")
    for k in ("evals", "plan_hits", "plan_misses", "fused_groups", "kernels_run", "nodes_evaluated",
              "inplace_steps", "cached_plans", "peak_bytes"):
        if k in s:
            print(f"   {k:<16} {s[k]:>12,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
