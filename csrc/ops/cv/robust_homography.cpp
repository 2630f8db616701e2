// findHomography's estimators, ported from mnn/cv/_calib.py (_homography_dlt, _homography_errors,
// _subset, _ransac, _lmeds, _refine, findHomography's tail) with Python's operation order kept,
// so the results are that implementation's to the bit (robust_fit.h says how and why).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/cv/robust_dlt.h"
#include "ops/cv/robust_fit.h"

namespace mnn::ops::robust_fit {
namespace {

using detail::f32;
using detail::Pt;

constexpr double kDblEpsilon = 2.220446049250313e-16;
constexpr double kFltEpsilon = 1.1920928955078125e-07;
constexpr int kLmeds = 4, kRho = 16;

// _homography_dlt over the points whose flag is set (all when flags is null); false for a
// degenerate set (None).
bool homography_dlt(const std::vector<Pt>& src, const std::vector<Pt>& dst, const uint8_t* flags, double H[9]) {
  detail::Dlt m;
  detail::dlt_prepare(src.data(), dst.data(), src.size(), flags, m);
  if (m.degenerate) return false;
  detail::Dlt* one = &m;
  detail::solve_dlts(&one, 1);
  if (m.status) throw Fallback{};  // eigh raises LinAlgError, or NaN meets its sort
  std::copy(m.H, m.H + 9, H);
  return true;
}

// _homography_errors: squared reprojection errors in float32, the model rounded to float32.
void homography_errors(const double* H, const detail::Pts32& p, std::vector<float>& out) {
  float h[9];
  for (int i = 0; i < 9; ++i) h[i] = static_cast<float>(f32(H[i]));
  const size_t n = p.sx.size();
  out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const float X = p.sx[i], Y = p.sy[i];
    const float ww = 1.0f / ((h[6] * X + h[7] * Y) + h[8]);  // a zero divisor makes the error non-finite
    const float dx = ((h[0] * X + h[1] * Y) + h[2]) * ww - p.dx[i];
    const float dy = ((h[3] * X + h[4] * Y) + h[5]) * ww - p.dy[i];
    out[i] = dx * dx + dy * dy;
  }
  detail::check_finite(out);
}

int64_t inlier_mask(const std::vector<float>& err, double t, std::vector<uint8_t>& mask) {
  mask.resize(err.size());
  int64_t good = 0;
  for (size_t i = 0; i < err.size(); ++i) good += mask[i] = err[i] <= t;
  return good;
}

double det3(const Pt& a, const Pt& b, const Pt& c) {
  return a.x * (b.y - c.y) - a.y * (b.x - c.x) + (b.x * c.y - c.x * b.y);
}

bool subset_ok(const Pt* ms, const Pt* md) {
  if (detail::collinear_last(ms, 4) || detail::collinear_last(md, 4)) return false;
  static const int tri[4][3] = {{0, 1, 2}, {1, 2, 3}, {0, 2, 3}, {0, 1, 3}};
  int negative = 0;
  for (const auto& t : tri)
    negative += det3(ms[t[0]], ms[t[1]], ms[t[2]]) * det3(md[t[0]], md[t[1]], md[t[2]]) < 0;
  return negative == 0 || negative == 4;
}

// _calib._subset: 4 distinct indices passing the orientation test; false after max_attempts.
bool subset(const std::vector<Pt>& s, const std::vector<Pt>& d, detail::CvRng& rng, int max_attempts, Pt* ms,
            Pt* md) {
  const int64_t count = static_cast<int64_t>(s.size());
  for (int a = 0; a < max_attempts; ++a) {
    int64_t idx[4];
    for (int k = 0; k < 4; ++k) {
      int64_t i;
      do {
        i = rng.uniform(0, count);
      } while (std::find(idx, idx + k, i) != idx + k);
      idx[k] = i;
    }
    for (int k = 0; k < 4; ++k) ms[k] = s[idx[k]], md[k] = d[idx[k]];
    if (subset_ok(ms, md)) return true;
  }
  return false;
}

// The next minimal samples of a RANSAC / LMEDS loop, drawn ahead and solved together. The draws
// depend only on the points and the RNG, never on a model, so drawing ahead gives each iteration
// the sample it would draw itself; samples past the loop's end are dropped unused.
struct Batch {
  struct Sample {
    Pt ms[4], md[4];
    detail::Dlt dlt;
  } sample[detail::kDltLanes];
  int drawn = 0;        // samples drawn
  bool failed = false;  // the draw after them failed (_subset returned None)

  void draw(const std::vector<Pt>& s, const std::vector<Pt>& d, detail::CvRng& rng, int attempts, int64_t want) {
    drawn = 0;
    failed = false;
    const int n = static_cast<int>(std::min<int64_t>(want, detail::kDltLanes));
    detail::Dlt* todo[detail::kDltLanes];
    for (; drawn < n; ++drawn) {
      Sample& x = sample[drawn];
      if (!subset(s, d, rng, attempts, x.ms, x.md)) {
        failed = true;
        break;
      }
      detail::dlt_prepare(x.ms, x.md, 4, nullptr, x.dlt);
      todo[drawn] = &x.dlt;
    }
    detail::solve_dlts(todo, drawn);
  }
  // the model of sample j, or null for a degenerate one (None)
  const double* model(int j) const {
    const detail::Dlt& m = sample[j].dlt;
    if (m.degenerate) return nullptr;
    if (m.status) throw Fallback{};  // eigh raises LinAlgError, or NaN meets its sort
    return m.H;
  }
};

bool ransac(const std::vector<Pt>& s, const std::vector<Pt>& d, const detail::Pts32& p32, double threshold,
            double confidence, int64_t max_iters, double H[9], std::vector<uint8_t>& best_mask) {
  const int64_t count = static_cast<int64_t>(s.size());
  detail::CvRng rng;
  const double t = f32(threshold * threshold);
  int64_t niters = std::max<int64_t>(max_iters, 1), best_count = 0, it = 0;
  bool have = false;
  std::vector<float> err;
  std::vector<uint8_t> mask;
  Batch batch;
  while (it < niters) {
    batch.draw(s, d, rng, 10000, niters - it);
    for (int j = 0; j < batch.drawn && it < niters; ++j) {
      ++it;
      const double* m = batch.model(j);
      if (!m) continue;
      homography_errors(m, p32, err);
      const int64_t good = inlier_mask(err, t, mask);
      if (good > std::max<int64_t>(best_count, 3)) {
        std::copy(m, m + 9, H);
        best_mask = mask;
        best_count = good;
        have = true;
        niters = detail::update_iters(confidence, static_cast<double>(count - good) / static_cast<double>(count), 4,
                                      niters);
      }
    }
    if (batch.failed && it < niters) {  // the iteration whose draw failed
      if (it == 0) return false;
      break;
    }
  }
  return have;
}

// sorted(err)[k] < bound, without sorting: at least k + 1 errors lie below the bound.
bool kth_below(const std::vector<float>& err, int64_t k, double bound) {
  int64_t below = 0;
  for (float e : err) below += e < bound;
  return below > k;
}

bool lmeds(const std::vector<Pt>& s, const std::vector<Pt>& d, const detail::Pts32& p32, double confidence,
           int64_t max_iters, double H[9], std::vector<uint8_t>& mask) {
  const int64_t count = static_cast<int64_t>(s.size());
  detail::CvRng rng;
  const int64_t niters = std::max<int64_t>(detail::update_iters(confidence, 0.45, 4, max_iters), 3);
  double min_median = std::numeric_limits<double>::infinity();
  bool have = false;
  std::vector<float> err;
  Batch batch;
  for (int64_t it = 0; it < niters;) {
    batch.draw(s, d, rng, 1000, niters - it);
    for (int j = 0; j < batch.drawn; ++j, ++it) {
      const double* m = batch.model(j);
      if (!m) continue;
      homography_errors(m, p32, err);  // finite, else Fallback
      if (!kth_below(err, count / 2, min_median)) continue;
      min_median = detail::kth_smallest(err, count / 2);
      std::copy(m, m + 9, H);
      have = true;
    }
    if (batch.failed) {  // iteration `it` drew no sample
      if (it == 0) return false;
      break;
    }
  }
  if (!have) return false;
  const double sigma =
      std::max(2.5 * 1.4826 * (1 + 5.0 / static_cast<double>(count - 4)) * std::sqrt(min_median), 0.001);
  homography_errors(H, p32, err);
  return inlier_mask(err, f32(sigma * sigma), mask) >= 4;
}

// One point under _refine's model (h22 = 1): the weight and the projection. The cost and the
// normal-equation passes both call this, so the jacobian they rebuild has the same bits.
struct Proj {
  double w, xi, yi;
};
inline Proj project(const double* h, double X, double Y) {
  double w = h[6] * X + h[7] * Y + 1.0;
  w = std::fabs(w) > kDblEpsilon ? 1.0 / w : 0.0;
  return {w, (h[0] * X + h[1] * Y + h[2]) * w, (h[3] * X + h[4] * Y + h[5]) * w};
}

// sum(v * v for v in r) over the residuals (x, y per point), a left fold.
double lm_cost(const double* h, const std::vector<Pt>& s, const std::vector<Pt>& d) {
  double acc = 0.0;
  for (size_t i = 0; i < s.size(); ++i) {
    const Proj p = project(h, s[i].x, s[i].y);
    const double rx = p.xi - d[i].x, ry = p.yi - d[i].y;
    acc += rx * rx;
    acc += ry * ry;
  }
  return acc;
}

// The jacobian rows of one point (x residual, then y residual) and the residuals.
inline void jac_rows(const double* h, const Pt& s, const Pt& d, double jx[8], double jy[8], double& rx, double& ry) {
  const double X = s.x, Y = s.y;
  const Proj p = project(h, X, Y);
  const double w = p.w, xi = p.xi, yi = p.yi;
  rx = xi - d.x, ry = yi - d.y;
  const double ax[8] = {X * w, Y * w, w, 0.0, 0.0, 0.0, -X * w * xi, -Y * w * xi};
  const double ay[8] = {0.0, 0.0, 0.0, X * w, Y * w, w, -X * w * yi, -Y * w * yi};
  std::copy(ax, ax + 8, jx);
  std::copy(ay, ay + 8, jy);
}

// J^T J and J^T r as _refine's sums: each entry a left fold over the rows in order. Rows of x
// residuals are 0 in columns 3..5 and rows of y residuals in columns 0..2; with every value
// finite those terms are +-0, which leave a fold that starts at +0 unchanged, so they are skipped
// (and J^T J is symmetric term by term). With a non-finite value (0 * inf is NaN) every term is
// summed, as Python does.
void lm_normal(const double* h, const std::vector<Pt>& s, const std::vector<Pt>& d, double jtj[8][8],
               double jtr[8]) {
  static const int kX[5] = {0, 1, 2, 6, 7}, kY[5] = {3, 4, 5, 6, 7};
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) jtj[i][j] = 0.0;
    jtr[i] = 0.0;
  }
  double jx[8], jy[8], rx, ry;
  bool finite = true;
  for (size_t k = 0; k < s.size(); ++k) {
    jac_rows(h, s[k], d[k], jx, jy, rx, ry);
    for (int a = 0; a < 5; ++a) {
      const int i = kX[a];
      for (int b = a; b < 5; ++b) jtj[i][kX[b]] += jx[i] * jx[kX[b]];
      jtr[i] += jx[i] * rx;
    }
    for (int a = 0; a < 5; ++a) {
      const int i = kY[a];
      for (int b = a; b < 5; ++b) jtj[i][kY[b]] += jy[i] * jy[kY[b]];
      jtr[i] += jy[i] * ry;
    }
    finite &= std::isfinite(rx) && std::isfinite(ry);
    for (int i = 0; i < 8; ++i) finite &= std::isfinite(jx[i]) && std::isfinite(jy[i]);
  }
  if (finite) {
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < i; ++j) jtj[i][j] = jtj[j][i];
    return;
  }
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) jtj[i][j] = 0.0;
    jtr[i] = 0.0;
  }
  for (size_t k = 0; k < s.size(); ++k) {
    jac_rows(h, s[k], d[k], jx, jy, rx, ry);
    for (const double* Jk : {jx, jy}) {
      const double r = Jk == jx ? rx : ry;
      for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) jtj[i][j] += Jk[i] * Jk[j];
        jtr[i] += Jk[i] * r;
      }
    }
  }
}

// _calib._solve: Gaussian elimination with partial pivoting (zero pivot: false); rows whose
// factor is 0 are skipped as in the Python code (it matters for -0.0 and NaN).
bool solve8(double m[8][9], double x[8]) {
  const int n = 8;
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(m[r][c]) > std::fabs(m[p][c])) p = r;
    if (m[p][c] == 0) return false;
    if (p != c)
      for (int q = 0; q <= n; ++q) std::swap(m[c][q], m[p][q]);
    for (int r = c + 1; r < n; ++r) {
      const double f = m[r][c] / m[c][c];
      if (f != 0)  // Python's `if f:` (NaN is true)
        for (int q = c; q <= n; ++q) m[r][q] -= f * m[c][q];
    }
  }
  for (int r = n - 1; r >= 0; --r) {
    double acc = 0.0;
    for (int q = r + 1; q < n; ++q) acc += m[r][q] * x[q];
    x[r] = (m[r][n] - acc) / m[r][r];
  }
  return true;
}

// _refine: Levenberg-Marquardt on the reprojection error of the flagged points.
void refine(double H[9], const std::vector<Pt>& src, const std::vector<Pt>& dst, const std::vector<uint8_t>& flags) {
  std::vector<Pt> s, d;
  for (size_t i = 0; i < src.size(); ++i)
    if (flags[i]) s.push_back(src[i]), d.push_back(dst[i]);
  double h[8] = {H[0], H[1], H[2], H[3], H[4], H[5], H[6], H[7]};
  double cost = lm_cost(h, s, d), lam = 1e-3;
  for (int iter = 0; iter < 100; ++iter) {
    double jtj[8][8], jtr[8];
    lm_normal(h, s, d, jtj, jtr);
    bool improved = false, converged = false;
    while (lam < 1e16) {
      double a[8][9], step[8];
      for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) a[i][j] = jtj[i][j];
        a[i][i] += a[i][i] > 0 ? lam * a[i][i] : lam;
        a[i][8] = -jtr[i];
      }
      if (!solve8(a, step)) {
        lam *= 10;
        continue;
      }
      double h2[8];
      for (int i = 0; i < 8; ++i) h2[i] = h[i] + step[i];
      const double cost2 = lm_cost(h2, s, d);
      if (cost2 <= cost) {
        bool small = true;
        for (int i = 0; i < 8 && small; ++i) small = std::fabs(step[i]) <= 1e-15 * std::max(std::fabs(h[i]), 1e-300);
        std::copy(h2, h2 + 8, h);
        converged = cost - cost2 <= 1e-30 * std::max(cost, 1e-300) || small;
        cost = cost2;
        lam = std::max(lam / 10, 1e-15);
        improved = true;
        break;
      }
      lam *= 10;
    }
    if (!improved || converged) break;
  }
  std::copy(h, h + 8, H);
  H[8] = 1.0;
}

}  // namespace

Fit find_homography(const std::vector<double>& src, const std::vector<double>& dst, int method, double thr,
                    double confidence, int64_t max_iters) {
  const std::vector<Pt> s = detail::to_points(src), d = detail::to_points(dst);
  const detail::Pts32 p32 = detail::as_f32(s, d);
  const int64_t n = static_cast<int64_t>(s.size());
  Fit fit;
  double H[9];
  std::vector<uint8_t> inl;
  bool have;
  if (method == 0 || n == 4) {
    have = homography_dlt(s, d, nullptr, H);
    inl.assign(n, 1);
  } else if (method == kLmeds) {
    have = lmeds(s, d, p32, confidence, max_iters, H, inl);
  } else {
    have = ransac(s, d, p32, thr, confidence, max_iters, H, inl);
  }
  if (!have) {
    fit.mask.assign(n, 0);
    return fit;
  }
  if (n > 4 && std::find(inl.begin(), inl.end(), 1) != inl.end()) {
    double H2[9];
    if (method != 0 && homography_dlt(s, d, inl.data(), H2)) std::copy(H2, H2 + 9, H);
    refine(H, s, d, inl);
    const double sc = std::fabs(H[8]) > kFltEpsilon ? 1.0 / H[8] : 1.0;
    for (double& v : H) v *= sc;
    std::vector<float> err;
    homography_errors(H, p32, err);
    inlier_mask(err, f32(thr * thr), inl);
  }
  if (method == kRho)
    for (double& v : H) v = f32(v);  // cv2's RHO returns a float32 model
  fit.found = true;
  fit.model.assign(H, H + 9);
  fit.mask = std::move(inl);
  return fit;
}

}  // namespace mnn::ops::robust_fit
