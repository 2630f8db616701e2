"""The drop-in measure: whole numpy programs, written in plain numpy style, run unchanged on numpy and
on mnn.numpy. Each script is a function of the module `np`; the test runs the SAME source twice and
compares what it returns. Tolerances reflect where a script mixes float32 and float64 (the engine may
sum in another order than numpy, so float32 results differ by a few ulp).
"""
import numpy
import pytest

import mnn.numpy as mnp


def to_numpy(x):
    """Results come back as (nested tuples of) arrays, scalars or lists; make them numpy."""
    if isinstance(x, (tuple, list)):
        return type(x)(to_numpy(v) for v in x)
    if isinstance(x, dict):
        return {k: to_numpy(v) for k, v in x.items()}
    if isinstance(x, (int, float, bool, complex, str)) or x is None:
        return x
    return numpy.asarray(x)


def assert_same(ref, got, rtol, atol, path="result"):
    if isinstance(ref, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(ref) == len(got), path
        for i, (r, g) in enumerate(zip(ref, got)):
            assert_same(r, g, rtol, atol, f"{path}[{i}]")
        return
    if isinstance(ref, dict):
        assert ref.keys() == got.keys(), path
        for k in ref:
            assert_same(ref[k], got[k], rtol, atol, f"{path}[{k!r}]")
        return
    if isinstance(ref, (int, float, bool)) and not isinstance(got, numpy.ndarray):
        assert type(got) in (int, float, bool) or numpy.ndim(got) == 0, (path, type(got))
        numpy.testing.assert_allclose(got, ref, rtol=rtol, atol=atol, err_msg=path)
        return
    ref, got = numpy.asarray(ref), numpy.asarray(got)
    assert got.shape == ref.shape, (path, got.shape, ref.shape)
    assert got.dtype == ref.dtype, (path, got.dtype, ref.dtype)
    if ref.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, ref, err_msg=path)
    else:
        numpy.testing.assert_allclose(got, ref, rtol=rtol, atol=atol, err_msg=path)


def run_both(script, *args, rtol=1e-10, atol=1e-12):
    ref = to_numpy(script(numpy, *args))
    got = to_numpy(script(mnp, *args))
    assert_same(ref, got, rtol, atol)
    return ref, got


# --------------------------------------------------------------------------------------------------
# Kalman filter: a 2-D constant-velocity target observed in position only.

def kalman_track(np, seed=0, steps=60, dt=0.1):
    rng = numpy.random.default_rng(seed)  # the SAME noise for both runs
    F = np.array([[1, 0, dt, 0], [0, 1, 0, dt], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=np.float64)
    H = np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0]])
    q = 0.05
    G = np.array([[0.5 * dt ** 2, 0], [0, 0.5 * dt ** 2], [dt, 0], [0, dt]])
    Q = q * G @ G.T
    R = np.eye(2) * 0.25
    truth = np.zeros((steps, 4))
    truth[0] = [0.0, 0.0, 1.0, 0.5]
    for k in range(1, steps):
        truth[k] = F @ truth[k - 1]
    z = truth[:, :2] + np.asarray(rng.normal(0, 0.5, size=(steps, 2)))

    x = np.zeros(4)
    P = np.eye(4) * 10.0
    estimates = np.empty((steps, 4))
    gains = []
    for k in range(steps):
        x = F @ x
        P = F @ P @ F.T + Q
        y = z[k] - H @ x
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ y
        P = (np.eye(4) - K @ H) @ P
        estimates[k] = x
        gains.append(np.trace(K))
    rmse = np.sqrt(np.mean(np.sum((estimates[:, :2] - truth[:, :2]) ** 2, axis=1)))
    return estimates, P, np.array(gains), float(rmse)


def test_kalman_filter():
    ref, got = run_both(kalman_track, rtol=1e-9, atol=1e-10)
    assert ref[3] < 0.5  # the filter tracks (a sanity check on the script itself)


# --------------------------------------------------------------------------------------------------
# Histogram equalization of a uint8 image: histogram, cumsum, interp, LUT by fancy indexing.

def equalize(np, img):
    img = np.asarray(img)
    hist, edges = np.histogram(img.ravel(), bins=256, range=(0, 256))
    counts = np.bincount(img.ravel(), minlength=256)
    assert (hist == counts).all()
    cdf = hist.cumsum()
    nz = cdf[cdf > 0]
    cdf_min = nz.min()
    lut = np.round((cdf - cdf_min) * 255.0 / (cdf[-1] - cdf_min))
    lut = np.clip(lut, 0, 255).astype(np.uint8)
    out = lut[img]
    # the same mapping through interp on the normalized cdf (float route)
    cdf_norm = cdf / cdf[-1]
    out2 = np.interp(img.ravel().astype(np.float64), edges[:-1], cdf_norm * 255).reshape(img.shape)
    out2 = np.floor(out2).astype(np.uint8)
    hist_after = np.bincount(out.ravel(), minlength=256)
    return out, out2, lut, hist_after, edges, cdf


@pytest.mark.parametrize("shape", [(64, 48), (31, 17)])
def test_histogram_equalization(shape):
    rng = numpy.random.default_rng(1)
    # a low-contrast image: values squeezed into [80, 140)
    img = (rng.beta(2, 5, size=shape) * 60 + 80).astype(numpy.uint8)
    ref, got = run_both(equalize, img, rtol=1e-12, atol=1e-12)
    assert ref[0].max() == 255 and ref[0].min() == 0


def equalize_photo(np, img):
    hist = np.bincount(np.asarray(img).ravel(), minlength=256)
    cdf = np.cumsum(hist).astype(np.float32)
    lut = (255 * (cdf - cdf.min()) / (cdf.max() - cdf.min())).astype(np.uint8)
    return lut[np.asarray(img)], cdf


def test_histogram_equalization_photo():
    skimage_data = pytest.importorskip("skimage.data")
    img = skimage_data.camera()[::3, ::3]
    run_both(equalize_photo, img, rtol=1e-6, atol=0)


# --------------------------------------------------------------------------------------------------
# k-means (Lloyd's algorithm) on Gaussian blobs with a fixed initialisation.

def kmeans(np, X, k=4, iters=20):
    X = np.asarray(X)
    centers = X[:k].copy()
    history = []
    for _ in range(iters):
        d2 = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=-1)
        labels = np.argmin(d2, axis=1)
        new = np.stack([X[labels == j].mean(axis=0) if np.any(labels == j) else centers[j] for j in range(k)])
        shift = np.linalg.norm(new - centers)
        centers = new
        inertia = np.min(d2, axis=1).sum()
        history.append(float(inertia))
        if shift < 1e-12:
            break
    counts = np.bincount(labels, minlength=k)
    return centers, labels, counts, history


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_kmeans(dtype):
    rng = numpy.random.default_rng(2)
    true_centers = numpy.array([[0, 0], [5, 5], [-5, 5], [5, -5]], dtype=float)
    X = numpy.concatenate([c + rng.normal(size=(50, 2)) for c in true_centers])
    X = X[rng.permutation(len(X))].astype(dtype)
    tol = 1e-10 if dtype == "float64" else 2e-5
    ref, got = run_both(kmeans, X, rtol=tol, atol=tol)
    assert sorted(ref[2].tolist()) == [50, 50, 50, 50] or len(ref[3]) > 1


# --------------------------------------------------------------------------------------------------
# A small MLP on the digits data set with hand-written backprop.

def mlp_digits(np, X, y, epochs=5, hidden=32, lr=0.1, batch=64, dtype="float32"):
    rng = numpy.random.default_rng(3)
    X = np.asarray(X).astype(dtype) / 16.0
    y = np.asarray(y)
    n, d = X.shape
    n_cls = 10
    W1 = np.asarray(rng.normal(0, 1 / numpy.sqrt(d), size=(d, hidden))).astype(dtype)
    b1 = np.zeros(hidden, dtype=dtype)
    W2 = np.asarray(rng.normal(0, 1 / numpy.sqrt(hidden), size=(hidden, n_cls))).astype(dtype)
    b2 = np.zeros(n_cls, dtype=dtype)
    Y = np.eye(n_cls, dtype=dtype)[y]
    losses = []
    for epoch in range(epochs):
        for s in range(0, n, batch):
            xb, yb = X[s:s + batch], Y[s:s + batch]
            h_pre = xb @ W1 + b1
            h = np.maximum(h_pre, 0)
            logits = h @ W2 + b2
            logits = logits - logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            loss = -np.mean(np.sum(yb * np.log(p + 1e-9), axis=1))
            g_logits = (p - yb) / xb.shape[0]
            gW2 = h.T @ g_logits
            gb2 = g_logits.sum(axis=0)
            g_h = g_logits @ W2.T
            g_h[h_pre <= 0] = 0
            gW1 = xb.T @ g_h
            gb1 = g_h.sum(axis=0)
            W1 -= lr * gW1
            b1 -= lr * gb1
            W2 -= lr * gW2
            b2 -= lr * gb2
        losses.append(float(loss))
    pred = np.argmax(np.maximum(X @ W1 + b1, 0) @ W2 + b2, axis=1)
    acc = float(np.mean(pred == y))
    return W1, b2, losses, acc


def test_mlp_digits():
    datasets = pytest.importorskip("sklearn.datasets")
    digits = datasets.load_digits()
    X, y = digits.data[:640], digits.target[:640]
    ref, got = run_both(mlp_digits, X, y, rtol=1e-4, atol=1e-5)
    assert ref[3] > 0.8 and abs(ref[3] - got[3]) <= 2 / 640
    assert ref[2][-1] < ref[2][0]


def test_mlp_digits_float64():
    datasets = pytest.importorskip("sklearn.datasets")
    digits = datasets.load_digits()
    X, y = digits.data[:320], digits.target[:320]
    run_both(lambda np, X, y: mlp_digits(np, X, y, epochs=3, dtype="float64"), X, y, rtol=1e-8, atol=1e-10)


# --------------------------------------------------------------------------------------------------
# Explicit finite differences for the 2-D heat equation; Monte Carlo estimate of pi.

def heat_equation(np, n=33, steps=200, alpha=0.2):
    u = np.zeros((n, n))
    x = np.linspace(0, 1, n)
    X, Y = np.meshgrid(x, x, indexing="ij")
    u[:] = np.exp(-((X - 0.5) ** 2 + (Y - 0.5) ** 2) / 0.01)
    u[0, :] = u[-1, :] = u[:, 0] = u[:, -1] = 0
    total = [float(u.sum())]
    for _ in range(steps):
        lap = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]
        u[1:-1, 1:-1] += alpha * lap
        total.append(float(u.sum()))
    # a 1-D version with np.roll (periodic) and np.diff
    v = np.sin(2 * np.pi * x)
    for _ in range(50):
        v = v + alpha * (np.roll(v, 1) - 2 * v + np.roll(v, -1))
    grad = np.diff(v) / np.diff(x)
    return u, np.array(total), v, grad, np.gradient(u, axis=0)


def test_heat_equation():
    ref, got = run_both(heat_equation, rtol=1e-9, atol=1e-12)
    assert ref[1][-1] < ref[1][0]  # heat leaves through the cold boundary


def monte_carlo(np, n=20000):
    rng = numpy.random.default_rng(4)
    pts = np.asarray(rng.random((n, 2)))
    inside = (pts ** 2).sum(axis=1) <= 1.0
    est = 4 * np.count_nonzero(inside) / n
    running = 4 * np.cumsum(inside) / np.arange(1, n + 1)
    hits = np.where(inside)[0]
    q = np.percentile(np.hypot(pts[:, 0], pts[:, 1]), [10, 50, 90])
    return est, running, hits, q


def test_monte_carlo_pi():
    ref, got = run_both(monte_carlo, rtol=1e-12, atol=1e-12)
    assert abs(ref[0] - numpy.pi) < 0.05
