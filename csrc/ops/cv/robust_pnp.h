// cv2.solvePnPRansac's estimator, native: RANSAC over 5-point EPnP poses (cv2's fixed-seed
// sampler, float32 error test, iteration update), then EPnP on the inliers and, for
// SOLVEPNP_ITERATIVE, the Levenberg-Marquardt polish.
//
// A port of the Python implementation in mnn/cv/_pnp.py (with the helpers it calls: _structure's
// Jacobi SVD, _points.Rodrigues, _calib's projection and undistortion), which stays as the
// reference and must be matched BIT FOR BIT. The rules of robust_fit.h apply: Python's operation
// order everywhere (sums are left folds from 0.0, as Python 3.11's sum()), x ** 2 is libm pow,
// math.hypot is CPython's own algorithm (ported; not libm's hypot), no FMA contraction. Where
// the Python code would raise (a division by zero, math.cos(inf), ...), and on points that are not
// finite as float32 (left to the reference rather than porting its NaN paths), these
// functions throw robust_fit::Fallback and the caller runs the Python code instead.
#pragma once
#include <cstdint>
#include <vector>

namespace mnn::ops::robust_pnp {

struct PnpRansac {
  // 0: (False, None, None, None); 1: (False, zero pose, None): no model had > 4 inliers;
  // 2: (False, best sample pose, None): the inlier EPnP failed; 3: (True, pose, inliers).
  // n == 5 (a single EPnP of all points) answers 0 or 3 with every point an inlier.
  int kind = 0;
  double rvec[3] = {0, 0, 0}, tvec[3] = {0, 0, 0};
  std::vector<int32_t> inliers;
};

// obj: x, y, z per point; img: u, v per point (both not yet rounded to float32, n >= 5 points).
// K: 3x3 row-major; dist: 14 coefficients (zeros past nd); thr: the float32 squared threshold;
// iterative: SOLVEPNP_ITERATIVE (else SOLVEPNP_EPNP) for the inlier solve.
PnpRansac solve_pnp_ransac(const std::vector<double>& obj, const std::vector<double>& img, const double K[9],
                           const double dist[14], int nd, int64_t iters, double thr, double confidence,
                           bool iterative);

}  // namespace mnn::ops::robust_pnp
