// findHomography's estimators, ported from mnn/cv/_calib.py (_homography_dlt, _homography_errors,
// _subset, _ransac, _lmeds, _refine, findHomography's tail) with Python's operation order kept,
// so the results are that implementation's to the bit (robust_fit.h says how and why).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "ops/cv/robust_fit.h"

namespace mnn::ops::robust_fit {
namespace {

using detail::f32;
using detail::Pt;

constexpr double kDblEpsilon = 2.220446049250313e-16;
constexpr double kFltEpsilon = 1.1920928955078125e-07;
constexpr int kLmeds = 4, kRho = 16;

// The cyclic Jacobi eigensolver of mnn.numpy.linalg.eigh (backends/cpu/kernels/linalg/
// decompositions.cpp), repeated here step for step because _homography_dlt calls eigh and its
// eigenvector's bits must be the same; keep the two in step. Returns the eigenvector of the
// smallest eigenvalue (first after a stable sort, as eigh's column 0); false if not converged
// (eigh raises there).
bool smallest_eigenvector(const std::vector<double>& in, double* out) {
  constexpr int n = 9;  // a compile-time size lets the compiler unroll the rotations
  double a[n * n], vt[n * n];  // vt holds eigh's v transposed: its columns p, q become rows
  std::copy(in.begin(), in.end(), a);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) a[i * n + j] = a[j * n + i];
  for (int i = 0; i < n * n; ++i) vt[i] = 0.0;
  for (int i = 0; i < n; ++i) vt[i * n + i] = 1.0;
  bool converged = false;
  for (int sweep = 0; sweep < 100 && !converged; ++sweep) {
    double off = 0, total = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) (i == j ? total : off) += a[i * n + j] * a[i * n + j];
    total += off;
    if (off <= kDblEpsilon * kDblEpsilon * total || off == 0.0) {
      converged = true;
      break;
    }
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        double apq = a[p * n + q];
        if (apq == 0.0) continue;
        double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {
          double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {
          double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < n; ++k) {
          double vkp = vt[p * n + k], vkq = vt[q * n + k];
          vt[p * n + k] = c * vkp - s * vkq;
          vt[q * n + k] = s * vkp + c * vkq;
        }
      }
  }
  if (!converged) return false;
  // column 0 after eigh's stable sort by eigenvalue: the first smallest diagonal entry (a NaN
  // there would make that sort's order depend on its algorithm: left to the Python code)
  int first = 0;
  for (int i = 0; i < n; ++i) {
    if (std::isnan(a[i * n + i])) throw Fallback{};
    if (a[i * n + i] < a[first * n + first]) first = i;
  }
  for (int k = 0; k < n; ++k) out[k] = vt[first * n + k];
  return true;
}

// _mat3_mul: sum(a[i][k] * b[k][j]) as a left fold from 0.
void mat3_mul(const double* a, const double* b, double* c) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double acc = 0.0;
      for (int k = 0; k < 3; ++k) acc += a[i * 3 + k] * b[k * 3 + j];
      c[i * 3 + j] = acc;
    }
}

// _homography_dlt over the points whose flag is set (all when flags is null); false for a
// degenerate set (None).
bool homography_dlt(const std::vector<Pt>& src, const std::vector<Pt>& dst, const uint8_t* flags, double H[9]) {
  std::vector<Pt> s, d;
  for (size_t i = 0; i < src.size(); ++i)
    if (!flags || flags[i]) s.push_back(src[i]), d.push_back(dst[i]);
  const double n = static_cast<double>(s.size());
  double cmx = 0.0, cmy = 0.0, cMx = 0.0, cMy = 0.0;
  for (const Pt& p : d) cmx += p.x;
  for (const Pt& p : d) cmy += p.y;
  for (const Pt& p : s) cMx += p.x;
  for (const Pt& p : s) cMy += p.y;
  cmx /= n, cmy /= n, cMx /= n, cMy /= n;
  double smx = 0.0, smy = 0.0, sMx = 0.0, sMy = 0.0;
  for (const Pt& p : d) smx += std::fabs(p.x - cmx);
  for (const Pt& p : d) smy += std::fabs(p.y - cmy);
  for (const Pt& p : s) sMx += std::fabs(p.x - cMx);
  for (const Pt& p : s) sMy += std::fabs(p.y - cMy);
  // Python's min(): the first item unless a later one is smaller (so NaN first stays)
  double lo = std::fabs(smx);
  for (double v : {std::fabs(smy), std::fabs(sMx), std::fabs(sMy)})
    if (v < lo) lo = v;
  if (lo < kDblEpsilon) return false;
  smx = n / smx, smy = n / smy, sMx = n / sMx, sMy = n / sMy;
  std::vector<double> ltl(81, 0.0);
  for (size_t i = 0; i < s.size(); ++i) {
    const double x = (d[i].x - cmx) * smx, y = (d[i].y - cmy) * smy;
    const double X = (s[i].x - cMx) * sMx, Y = (s[i].y - cMy) * sMy;
    const double lx[9] = {X, Y, 1.0, 0.0, 0.0, 0.0, -x * X, -x * Y, -x};
    const double ly[9] = {0.0, 0.0, 0.0, X, Y, 1.0, -y * X, -y * Y, -y};
    for (int j = 0; j < 9; ++j)
      for (int q = j; q < 9; ++q) ltl[j * 9 + q] += lx[j] * lx[q] + ly[j] * ly[q];
  }
  for (int j = 0; j < 9; ++j)
    for (int q = 0; q < j; ++q) ltl[j * 9 + q] = ltl[q * 9 + j];
  double h0[9];
  if (!smallest_eigenvector(ltl, h0)) throw Fallback{};  // eigh raises LinAlgError
  const double inv_hnorm[9] = {1.0 / smx, 0.0, cmx, 0.0, 1.0 / smy, cmy, 0.0, 0.0, 1.0};
  const double hnorm2[9] = {sMx, 0.0, -cMx * sMx, 0.0, sMy, -cMy * sMy, 0.0, 0.0, 1.0};
  double t[9];
  mat3_mul(inv_hnorm, h0, t);
  mat3_mul(t, hnorm2, H);
  const double sc = std::fabs(H[8]) > kFltEpsilon ? 1.0 / H[8] : 1.0;
  for (int i = 0; i < 9; ++i) H[i] *= sc;
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

bool ransac(const std::vector<Pt>& s, const std::vector<Pt>& d, const detail::Pts32& p32, double threshold, double confidence,
            int64_t max_iters, double H[9], std::vector<uint8_t>& best_mask) {
  const int64_t count = static_cast<int64_t>(s.size());
  detail::CvRng rng;
  const double t = f32(threshold * threshold);
  int64_t niters = std::max<int64_t>(max_iters, 1), best_count = 0, it = 0;
  bool have = false;
  Pt ms[4], md[4];
  double m[9];
  std::vector<float> err;
  std::vector<uint8_t> mask;
  while (it < niters) {
    if (!subset(s, d, rng, 10000, ms, md)) {
      if (it == 0) return false;
      break;
    }
    ++it;
    if (!homography_dlt({ms, ms + 4}, {md, md + 4}, nullptr, m)) continue;
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
  return have;
}

bool lmeds(const std::vector<Pt>& s, const std::vector<Pt>& d, const detail::Pts32& p32, double confidence, int64_t max_iters, double H[9],
           std::vector<uint8_t>& mask) {
  const int64_t count = static_cast<int64_t>(s.size());
  detail::CvRng rng;
  const int64_t niters = std::max<int64_t>(detail::update_iters(confidence, 0.45, 4, max_iters), 3);
  double min_median = std::numeric_limits<double>::infinity();
  bool have = false;
  Pt ms[4], md[4];
  double m[9];
  std::vector<float> err;
  for (int64_t it = 0; it < niters; ++it) {
    if (!subset(s, d, rng, 1000, ms, md)) {
      if (it == 0) return false;
      break;
    }
    if (!homography_dlt({ms, ms + 4}, {md, md + 4}, nullptr, m)) continue;
    homography_errors(m, p32, err);
    const double median = detail::kth_smallest(err, count / 2);
    if (median < min_median) min_median = median, std::copy(m, m + 9, H), have = true;
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
