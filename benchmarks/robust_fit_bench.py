"""findHomography (RANSAC, LMEDS), estimateAffine2D and estimateAffinePartial2D (RANSAC) on mnn.cv
and cv2 at 50 / 500 / 2000 correspondences with 30% outliers, 1 thread, interleaved per repeat
(medians and minimums of 11). `python benchmarks/robust_fit_bench.py py` times mnn's Python
reference implementation instead of the native port (3 repeats: it is slow)."""
import time, statistics, sys
import numpy as np, cv2
import mnn, mnn.cv as mcv
import mnn.cv._robust_fit as rf
mnn.set_num_threads(1); cv2.setNumThreads(1)
rng = np.random.default_rng(0)
def data(n, partial=False, homog=True):
    src = rng.uniform(0, 640, (n, 2)).astype(np.float32)
    if homog:
        H = np.array([[1.05, 0.04, 12.0], [-0.03, 0.98, -7.0], [1.2e-4, -0.8e-4, 1.0]])
        p = np.c_[src, np.ones(n)] @ H.T; dst = p[:, :2] / p[:, 2:]
    else:
        A = np.array([[0.9, -0.2, 15.0], [0.2, 0.9, -4.0]]) if partial else np.array([[1.1, 0.1, 5], [-0.05, 0.95, 9]])
        dst = src @ A[:, :2].T + A[:, 2]
    dst = dst + rng.normal(0, 0.5, (n, 2))
    k = int(0.3 * n); idx = rng.choice(n, k, replace=False); dst[idx] = rng.uniform(0, 640, (k, 2))
    return src, dst.astype(np.float32)
calls = [
 ("findHomography RANSAC", lambda m, s, d: m.findHomography(s, d, m.RANSAC, 3.0), True, False),
 ("findHomography LMEDS", lambda m, s, d: m.findHomography(s, d, m.LMEDS), True, False),
 ("estimateAffine2D", lambda m, s, d: m.estimateAffine2D(s, d), False, False),
 ("estimateAffinePartial2D", lambda m, s, d: m.estimateAffinePartial2D(s, d), False, True),
]
py = len(sys.argv) > 1 and sys.argv[1] == "py"
if py: rf.ENABLED = False
for name, f, homog, partial in calls:
    for n in (50, 500, 2000):
        s, d = data(n, partial, homog)
        tm, tc = [], []
        reps = 11 if not py else 3
        for _ in range(reps):
            t0 = time.perf_counter(); r = f(mcv, s, d); np.asarray(r[0]); np.asarray(r[1]); tm.append(time.perf_counter() - t0)
            t0 = time.perf_counter(); r2 = f(cv2, s, d); tc.append(time.perf_counter() - t0)
        same = np.array_equal(np.asarray(r[1]), r2[1])
        print(f"{name:26s} n={n:5d} mnn {statistics.median(tm)*1e3:8.3f} ms (min {min(tm)*1e3:.3f})  cv2 {statistics.median(tc)*1e3:8.3f} ms (min {min(tc)*1e3:.3f})  ratio(cv2/mnn) med {statistics.median(tc)/statistics.median(tm):6.2f} min {min(tc)/min(tm):6.2f}  mask==cv2 {same}")
