// The shared steps of cv2's registrators (sampling, iteration count, median) and the affine /
// similarity fit, ported from mnn/cv/_robust.py and the _estimate polish of mnn/cv/_geometry.py
// with Python's operation order kept everywhere (see robust_fit.h for why that matters).
#include "ops/cv/robust_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mnn::ops::robust_fit {
namespace detail {

constexpr double kFltEpsilon = 1.1920928955078125e-07;
constexpr double kDblMin = 2.2250738585072014e-308;

std::vector<Pt> to_points(const std::vector<double>& xy) {
  std::vector<Pt> p(xy.size() / 2);
  for (size_t i = 0; i < p.size(); ++i) p[i] = {f32(xy[2 * i]), f32(xy[2 * i + 1])};
  return p;
}

Pts32 as_f32(const std::vector<Pt>& s, const std::vector<Pt>& d) {
  Pts32 p;
  for (size_t i = 0; i < s.size(); ++i) {
    p.sx.push_back(static_cast<float>(s[i].x)), p.sy.push_back(static_cast<float>(s[i].y));
    p.dx.push_back(static_cast<float>(d[i].x)), p.dy.push_back(static_cast<float>(d[i].y));
  }
  return p;
}

void check_finite(const std::vector<float>& errors) {
  bool ok = true;
  for (float e : errors) ok &= std::isfinite(e);
  if (!ok) throw Fallback{};
}

bool collinear_last(const Pt* pts, int count) {
  const int i = count - 1;
  const double xi = pts[i].x, yi = pts[i].y;
  for (int j = 0; j < i; ++j) {
    const double dx1 = pts[j].x - xi, dy1 = pts[j].y - yi;
    for (int k = 0; k < j; ++k) {
      const double dx2 = pts[k].x - xi, dy2 = pts[k].y - yi;
      if (std::fabs(dx2 * dy1 - dy2 * dx1) <=
          kFltEpsilon * (std::fabs(dx1) + std::fabs(dy1) + std::fabs(dx2) + std::fabs(dy2)))
        return true;
    }
  }
  return false;
}

int64_t update_iters(double p, double ep, int model_points, int64_t max_iters) {
  // Python's max(a, b) keeps a unless b > a, std::max keeps a unless a < b: the same, NaN included.
  p = std::min(std::max(p, 0.0), 1.0);
  ep = std::min(std::max(ep, 0.0), 1.0);
  double num = std::max(1.0 - p, kDblMin);
  // float ** int is libm pow in Python; a volatile exponent keeps the compiler from expanding it
  volatile double e = model_points;
  double denom = 1.0 - std::pow(1.0 - ep, static_cast<double>(e));
  if (denom < kDblMin) return 0;
  num = std::log(num);
  denom = std::log(denom);
  if (denom >= 0 || -num >= static_cast<double>(max_iters) * (-denom)) return max_iters;
  const double q = num / denom;
  if (!std::isfinite(q)) throw Fallback{};  // int(round(nan)) raises
  return static_cast<int64_t>(std::nearbyint(q));  // round() is half-to-even, as nearbyint
}

double kth_smallest(std::vector<float> errors, int64_t k) {
  for (float e : errors)
    if (std::isnan(e)) throw Fallback{};  // Python's sort of NaNs is not reproduced
  std::nth_element(errors.begin(), errors.begin() + k, errors.end());
  return errors[k];
}

}  // namespace detail

namespace {

using detail::f32;
using detail::Pt;

// _robust._subset: `need` distinct indices whose last point is not collinear with the others
// (checked from 3 points on); false when max_attempts draws all failed.
bool affine_subset(const std::vector<Pt>& s, const std::vector<Pt>& d, int need, detail::CvRng& rng,
                   int max_attempts, Pt* ms, Pt* md) {
  const int64_t count = static_cast<int64_t>(s.size());
  for (int a = 0; a < max_attempts; ++a) {
    int64_t idx[3];
    for (int k = 0; k < need; ++k) {
      int64_t i;
      do {
        i = rng.uniform(0, count);
      } while (std::find(idx, idx + k, i) != idx + k);
      idx[k] = i;
    }
    for (int k = 0; k < need; ++k) ms[k] = s[idx[k]], md[k] = d[idx[k]];
    if (need >= 3 && (detail::collinear_last(ms, need) || detail::collinear_last(md, need))) continue;
    return true;
  }
  return false;
}

// _affine_kernel: the affine map of 3 point pairs in closed form.
bool affine_kernel(const Pt* s, const Pt* d, double m[6]) {
  const double x1 = s[0].x, y1 = s[0].y, x2 = s[1].x, y2 = s[1].y, x3 = s[2].x, y3 = s[2].y;
  const double den = x1 * (y2 - y3) + x2 * (y3 - y1) + x3 * (y1 - y2);
  if (den == 0) return false;
  const double k = 1.0 / den;
  for (int r = 0; r < 2; ++r) {
    const double A1 = r ? d[0].y : d[0].x, A2 = r ? d[1].y : d[1].x, A3 = r ? d[2].y : d[2].x;
    m[3 * r + 0] = k * (A1 * (y2 - y3) + A2 * (y3 - y1) + A3 * (y1 - y2));
    m[3 * r + 1] = k * (A1 * (x3 - x2) + A2 * (x1 - x3) + A3 * (x2 - x1));
    m[3 * r + 2] = k * (A1 * (x2 * y3 - x3 * y2) + A2 * (x3 * y1 - x1 * y3) + A3 * (x1 * y2 - x2 * y1));
  }
  return true;
}

// _similarity_kernel: rotation + uniform scale + shift of 2 point pairs.
bool similarity_kernel(const Pt* s, const Pt* d, double m[6]) {
  const double x1 = s[0].x, y1 = s[0].y, x2 = s[1].x, y2 = s[1].y;
  const double X1 = d[0].x, Y1 = d[0].y, X2 = d[1].x, Y2 = d[1].y;
  const double den = (x1 - x2) * (x1 - x2) + (y1 - y2) * (y1 - y2);
  if (den == 0) return false;
  const double k = 1.0 / den;
  const double s0 = k * ((X1 - X2) * (x1 - x2) + (Y1 - Y2) * (y1 - y2));
  const double s1 = k * ((Y1 - Y2) * (x1 - x2) - (X1 - X2) * (y1 - y2));
  const double s2 =
      k * ((Y1 - Y2) * (x1 * y2 - x2 * y1) - (X1 * y2 - X2 * y1) * (y1 - y2) - (X1 * x2 - X2 * x1) * (x1 - x2));
  const double s3 =
      k * (-(X1 - X2) * (x1 * y2 - x2 * y1) - (Y1 * x2 - Y2 * x1) * (x1 - x2) - (Y1 * y2 - Y2 * y1) * (y1 - y2));
  m[0] = s0, m[1] = -s1, m[2] = s2, m[3] = s1, m[4] = s0, m[5] = s3;
  return true;
}

// _robust._errors: squared reprojection errors in float32 with the model rounded to float32.
void affine_errors(const double m[6], const detail::Pts32& p, std::vector<float>& out) {
  float F[6];
  for (int i = 0; i < 6; ++i) F[i] = static_cast<float>(f32(m[i]));
  const size_t n = p.sx.size();
  out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const float x = p.sx[i], y = p.sy[i];
    const float a = ((F[0] * x + F[1] * y) + F[2]) - p.dx[i];
    const float b = ((F[3] * x + F[4] * y) + F[5]) - p.dy[i];
    out[i] = a * a + b * b;
  }
  detail::check_finite(out);
}

int64_t mask_from(const std::vector<float>& err, double t, std::vector<uint8_t>& mask) {
  mask.resize(err.size());
  int64_t good = 0;
  for (size_t i = 0; i < err.size(); ++i) good += mask[i] = err[i] <= t;
  return good;
}

// _geometry._solve: Gaussian elimination with partial pivoting; false when a pivot is < 1e-300.
bool solve_small(std::vector<std::vector<double>> m, int n, std::vector<double>& x) {
  for (int c = 0; c < n; ++c) {
    int piv = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(m[r][c]) > std::fabs(m[piv][c])) piv = r;
    if (std::fabs(m[piv][c]) < 1e-300) return false;
    std::swap(m[c], m[piv]);
    for (int r = c + 1; r < n; ++r) {
      const double f = m[r][c] / m[c][c];
      for (int k = c; k <= n; ++k) m[r][k] -= f * m[c][k];
    }
  }
  x.assign(n, 0.0);
  for (int r = n - 1; r >= 0; --r) {
    double acc = 0.0;
    for (int k = r + 1; k < n; ++k) acc += m[r][k] * x[k];
    x[r] = (m[r][n] - acc) / m[r][r];
  }
  return true;
}

// _geometry._lstsq_affine on the inliers; false where it returns None.
bool lstsq_affine(const std::vector<Pt>& s, const std::vector<Pt>& d, const std::vector<uint8_t>& mask,
                  bool partial, double m[6]) {
  if (partial) {
    std::vector<std::vector<double>> a(4, std::vector<double>(5, 0.0));  // [ata | atb]
    for (size_t p = 0; p < s.size(); ++p) {
      if (!mask[p]) continue;
      const double x = s[p].x, y = s[p].y;
      const double rows[2][4] = {{x, -y, 1.0, 0.0}, {y, x, 0.0, 1.0}};
      const double rhs[2] = {d[p].x, d[p].y};
      for (int q = 0; q < 2; ++q)
        for (int i = 0; i < 4; ++i) {
          a[i][4] += rows[q][i] * rhs[q];
          for (int j = 0; j < 4; ++j) a[i][j] += rows[q][i] * rows[q][j];
        }
    }
    std::vector<double> r;
    if (!solve_small(a, 4, r)) return false;
    m[0] = r[0], m[1] = -r[1], m[2] = r[2], m[3] = r[1], m[4] = r[0], m[5] = r[3];
    return true;
  }
  std::vector<std::vector<double>> au(3, std::vector<double>(4, 0.0)), av;
  double bv[3] = {0.0, 0.0, 0.0};
  for (size_t p = 0; p < s.size(); ++p) {
    if (!mask[p]) continue;
    const double row[3] = {s[p].x, s[p].y, 1.0};
    for (int i = 0; i < 3; ++i) {
      au[i][3] += row[i] * d[p].x;
      bv[i] += row[i] * d[p].y;
      for (int j = 0; j < 3; ++j) au[i][j] += row[i] * row[j];
    }
  }
  av = au;
  for (int i = 0; i < 3; ++i) av[i][3] = bv[i];
  std::vector<double> ru, rv;
  // Python solves both before testing either; a failed solve raises nothing, so order is free
  if (!solve_small(au, 3, ru) || !solve_small(av, 3, rv)) return false;
  for (int j = 0; j < 3; ++j) m[j] = ru[j], m[3 + j] = rv[j];
  return true;
}

}  // namespace

Fit estimate_affine(const std::vector<double>& src, const std::vector<double>& dst, bool partial, bool lmeds,
                    double thr, double confidence, int64_t max_iters, bool refine) {
  const std::vector<Pt> s = detail::to_points(src), d = detail::to_points(dst);
  const detail::Pts32 p32 = detail::as_f32(s, d);
  const int need = partial ? 2 : 3;
  const int64_t count = static_cast<int64_t>(s.size());
  auto kernel = partial ? similarity_kernel : affine_kernel;
  Fit fit;
  fit.mask.assign(count, 0);
  if (count < need) return fit;
  double best[6];
  bool have = false;
  if (count == need) {
    have = kernel(s.data(), d.data(), best);
    if (have) fit.mask.assign(count, 1);
  } else {
    detail::CvRng rng;
    Pt ms[3], md[3];
    double m[6];
    std::vector<float> err;
    if (lmeds) {
      const int64_t niters = std::max<int64_t>(detail::update_iters(confidence, 0.45, need, max_iters), 3);
      double min_median = std::numeric_limits<double>::infinity();
      for (int64_t it = 0; it < niters; ++it) {
        if (!affine_subset(s, d, need, rng, 1000, ms, md)) {
          if (it == 0) return fit;
          break;
        }
        if (!kernel(ms, md, m)) continue;
        affine_errors(m, p32, err);
        const double median = detail::kth_smallest(err, count / 2);
        if (median < min_median) min_median = median, std::copy(m, m + 6, best), have = true;
      }
      if (!have) return fit;
      const double sigma =
          std::max(2.5 * 1.4826 * (1 + 5.0 / static_cast<double>(count - need)) * std::sqrt(min_median), 0.001);
      affine_errors(best, p32, err);
      if (mask_from(err, f32(sigma * sigma), fit.mask) < need) {
        fit.mask.assign(count, 0);
        return fit;
      }
    } else {
      int64_t niters = std::max<int64_t>(max_iters, 1), best_count = 0, it = 0;
      std::vector<uint8_t> mask;
      while (it < niters) {
        if (!affine_subset(s, d, need, rng, 10000, ms, md)) {
          if (it == 0) return fit;
          break;
        }
        ++it;
        if (!kernel(ms, md, m)) continue;
        affine_errors(m, p32, err);
        const int64_t good = mask_from(err, f32(thr * thr), mask);
        if (good > std::max<int64_t>(best_count, need - 1)) {
          std::copy(m, m + 6, best);
          have = true;
          fit.mask = mask;
          best_count = good;
          niters = detail::update_iters(confidence, static_cast<double>(count - good) / static_cast<double>(count),
                                        need, niters);
        }
      }
      if (!have) return fit;
    }
    if (refine) {
      double fitted[6];
      if (lstsq_affine(s, d, fit.mask, partial, fitted)) std::copy(fitted, fitted + 6, best);
    }
  }
  if (!have) return fit;
  fit.found = true;
  fit.model.assign(best, best + 6);
  return fit;
}

}  // namespace mnn::ops::robust_fit
