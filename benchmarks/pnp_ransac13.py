"""solvePnPRansac, mnn.cv against cv2 at 50 / 500 / 2000 points, 30% outliers, 1 thread.

    PYTHONPATH=src python benchmarks/pnp_ransac13.py [--repeats 15]

Interleaved A/B (one mnn call, one cv2 call per repeat; medians and minimums), float32 points as
numpy arrays, results read back (np.asarray), as a ported pipeline does. Also checks that the
inlier indices equal cv2's."""
import argparse
import time

import cv2
import numpy

import mnn
import mnn.cv as mcv

ap = argparse.ArgumentParser()
ap.add_argument("--repeats", type=int, default=15)
args = ap.parse_args()
mnn.set_num_threads(1)
cv2.setNumThreads(1)
rng = numpy.random.default_rng(5)
K = numpy.array([[700.0, 0, 320], [0, 690, 240], [0, 0, 1]])
for n in (50, 500, 2000):
    obj = rng.uniform(-1, 1, (n, 3))
    img, _ = cv2.projectPoints(obj, rng.normal(0, 0.4, 3), numpy.array([0.1, -0.1, 6.0]), K, None)
    img = img.reshape(-1, 2) + rng.normal(0, 0.5, (n, 2))
    out = rng.choice(n, int(0.3 * n), replace=False)
    img[out] = rng.uniform(0, 640, (len(out), 2))
    obj, img = obj.astype(numpy.float32), img.astype(numpy.float32)
    tm, tc = [], []
    for _ in range(args.repeats):
        t = time.perf_counter()
        got = mcv.solvePnPRansac(obj, img, K, None)
        numpy.asarray(got[1]), numpy.asarray(got[2]), numpy.asarray(got[3])
        tm.append(time.perf_counter() - t)
        t = time.perf_counter()
        want = cv2.solvePnPRansac(obj, img, K, None)
        tc.append(time.perf_counter() - t)
    same = numpy.array_equal(numpy.asarray(got[3]), want[3])
    print(f"n={n:5d}  mnn {1e3 * numpy.median(tm):7.3f} ms (min {1e3 * min(tm):.3f})  cv2 {1e3 * numpy.median(tc):7.3f} ms "
          f"(min {1e3 * min(tc):.3f})  cv2/mnn {numpy.median(tc) / numpy.median(tm):5.2f}x  inliers==cv2 {same}")
