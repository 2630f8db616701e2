// solvePnPRansac's estimator (robust_pnp.h): a port of mnn/cv/_pnp.py's _epnp, _refine_pose and
// solvePnPRansac loop, with _calib._project / _undistort_one, keeping Python's operation order.
#include "ops/cv/robust_pnp.h"

#include <algorithm>
#include <cmath>

#include "ops/cv/robust_fit.h"
#include "ops/cv/robust_pnp_detail.h"

namespace mnn::ops::robust_pnp {

namespace {

using detail::Fallback;
using detail::Mat;
using detail::pdiv;
using detail::psq;
using detail::psqrt;
using detail::Svd;

struct P3 {
  double x[3];
};
struct P2 {
  double u, v;
};

struct Camera {
  double K[3][3];
  double k[14];
  int nd;
  double fx, fy, cx, cy;
};

struct Pose {
  double R[3][3];
  double t[3];
  double err;
};

// _pnp._betas: false where it returns None
bool betas_of(const double L[6][10], const double rho[6], int approx, double out[4]) {
  static const int cols1[4] = {0, 1, 3, 6}, cols2[3] = {0, 1, 2}, cols3[5] = {0, 1, 2, 3, 4};
  const int* cols = approx == 1 ? cols1 : approx == 2 ? cols2 : cols3;
  const int nc = approx == 1 ? 4 : approx == 2 ? 3 : 5;
  Mat a;
  a.rows = 6, a.cols = nc;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < nc; ++c) a.a[r][c] = L[r][cols[c]];
  double b[5];
  detail::svd_solve(a, rho, b);
  if (approx == 1) {
    if (b[0] < 0) {
      const double b0 = psqrt(-b[0]);
      out[0] = b0, out[1] = pdiv(-b[1], b0), out[2] = pdiv(-b[2], b0), out[3] = pdiv(-b[3], b0);
      return true;
    }
    const double b0 = psqrt(b[0]);
    if (b0 == 0) return false;
    out[0] = b0, out[1] = b[1] / b0, out[2] = b[2] / b0, out[3] = b[3] / b0;
    return true;
  }
  double b0, b1;
  if (b[0] < 0) {
    b0 = psqrt(-b[0]), b1 = b[2] < 0 ? psqrt(-b[2]) : 0.0;
  } else {
    b0 = psqrt(b[0]), b1 = b[2] > 0 ? psqrt(b[2]) : 0.0;
  }
  if (b[1] < 0) b0 = -b0;
  out[0] = b0, out[1] = b1, out[3] = 0.0;
  out[2] = approx == 2 ? 0.0 : (b0 != 0 ? b[3] / b0 : 0.0);  // Python's `if b0` (NaN is true)
  return true;
}

// _pnp._gauss_newton
void gauss_newton(const double L[6][10], const double rho[6], double betas[4]) {
  for (int it = 0; it < 5; ++it) {
    Mat A;
    A.rows = 6, A.cols = 4;
    double r[6];
    const double b0 = betas[0], b1 = betas[1], b2 = betas[2], b3 = betas[3];
    for (int q = 0; q < 6; ++q) {
      const double* l = L[q];
      A.a[q][0] = 2 * l[0] * b0 + l[1] * b1 + l[3] * b2 + l[6] * b3;
      A.a[q][1] = l[1] * b0 + 2 * l[2] * b1 + l[4] * b2 + l[7] * b3;
      A.a[q][2] = l[3] * b0 + l[4] * b1 + 2 * l[5] * b2 + l[8] * b3;
      A.a[q][3] = l[6] * b0 + l[7] * b1 + l[8] * b2 + 2 * l[9] * b3;
      r[q] = rho[q] - (l[0] * b0 * b0 + l[1] * b0 * b1 + l[2] * b1 * b1 + l[3] * b0 * b2 + l[4] * b1 * b2 +
                       l[5] * b2 * b2 + l[6] * b0 * b3 + l[7] * b1 * b3 + l[8] * b2 * b3 + l[9] * b3 * b3);
    }
    double x[4];
    if (!detail::lstsq(A, r, x)) break;
    for (int i = 0; i < 4; ++i) betas[i] = betas[i] + x[i];
  }
}

// _pnp._r_and_t: false where it returns None
bool r_and_t(const double vs[4][12], const double betas[4], const std::vector<const P3*>& pws,
             const std::vector<double>& alphas, const std::vector<const P2*>& uvs, const Camera& cam, Pose& out) {
  const size_t n = pws.size();
  double ccs[4][3];
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 3; ++k) {
      double s = 0.0;
      for (int i = 0; i < 4; ++i) s += betas[i] * vs[i][3 * j + k];
      ccs[j][k] = s;
    }
  std::vector<double> pcs(3 * n);
  for (size_t p = 0; p < n; ++p) {
    const double* a = &alphas[4 * p];
    for (int k = 0; k < 3; ++k) {
      double s = 0.0;
      for (int j = 0; j < 4; ++j) s += a[j] * ccs[j][k];
      pcs[3 * p + k] = s;
    }
  }
  if (pcs[2] < 0)
    for (double& x : pcs) x = -x;  // (ccs are not used past here)
  double pc0[3], pw0[3];
  for (int k = 0; k < 3; ++k) {
    double s = 0.0, s2 = 0.0;
    for (size_t p = 0; p < n; ++p) s += pcs[3 * p + k];
    for (size_t p = 0; p < n; ++p) s2 += pws[p]->x[k];
    pc0[k] = s / static_cast<double>(n);
    pw0[k] = s2 / static_cast<double>(n);
  }
  Mat abt;
  abt.rows = abt.cols = 3;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (size_t p = 0; p < n; ++p) s += (pcs[3 * p + i] - pc0[i]) * (pws[p]->x[j] - pw0[j]);
      abt.a[i][j] = s;
    }
  Svd sv;
  detail::svd_cv(abt, sv);
  double(&R)[3][3] = out.R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += sv.us[k][i] * sv.vs[k][j];
      R[i][j] = s;
    }
  const double det = R[0][0] * (R[1][1] * R[2][2] - R[1][2] * R[2][1]) -
                     R[0][1] * (R[1][0] * R[2][2] - R[1][2] * R[2][0]) +
                     R[0][2] * (R[1][0] * R[2][1] - R[1][1] * R[2][0]);
  if (det < 0)
    for (double& x : R[2]) x = -x;
  for (int i = 0; i < 3; ++i) {
    double s = 0.0;
    for (int k = 0; k < 3; ++k) s += R[i][k] * pw0[k];
    out.t[i] = pc0[i] - s;
  }
  double err = 0.0;
  for (size_t p = 0; p < n; ++p) {
    double X[3];
    for (int i = 0; i < 3; ++i) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += R[i][k] * pws[p]->x[k];
      X[i] = s + out.t[i];
    }
    if (X[2] == 0) return false;
    const double ue = cam.cx + cam.fx * X[0] / X[2], ve = cam.cy + cam.fy * X[1] / X[2];
    err += psqrt(psq(uvs[p]->u - ue) + psq(uvs[p]->v - ve));
  }
  out.err = err / static_cast<double>(n);
  return true;
}

// _pnp._epnp on the points pws with undistorted pixels uvs: false where it returns None
bool epnp(const std::vector<const P3*>& pws, const std::vector<const P2*>& uvs, const Camera& cam, Pose& best) {
  const size_t n = pws.size();
  const double dn = static_cast<double>(n);
  const double fu = cam.fx, fv = cam.fy, uc = cam.cx, vc = cam.cy;
  double c0[3];
  for (int i = 0; i < 3; ++i) {
    double s = 0.0;
    for (size_t p = 0; p < n; ++p) s += pws[p]->x[i];
    c0[i] = s / dn;
  }
  std::vector<double> pw0(3 * n);
  for (size_t p = 0; p < n; ++p)
    for (int i = 0; i < 3; ++i) pw0[3 * p + i] = pws[p]->x[i] - c0[i];
  Mat cov;
  cov.rows = cov.cols = 3;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (size_t p = 0; p < n; ++p) s += pw0[3 * p + i] * pw0[3 * p + j];
      cov.a[i][j] = s;
    }
  Svd sc;
  detail::svd_cv(cov, sc);
  double cws[4][3];
  for (int j = 0; j < 3; ++j) cws[0][j] = c0[j];
  for (int i = 0; i < 3; ++i) {
    const double k = psqrt(sc.w[i] / dn);
    for (int j = 0; j < 3; ++j) cws[i + 1][j] = c0[j] + k * sc.us[i][j];
  }
  double cc[3][3], cci[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) cc[i][j] = cws[j + 1][i] - cws[0][i];
  detail::pinv3(cc, cci);
  std::vector<double> alphas(4 * n);
  for (size_t p = 0; p < n; ++p) {
    double d[3], a[3];
    for (int i = 0; i < 3; ++i) d[i] = pws[p]->x[i] - cws[0][i];
    for (int r = 0; r < 3; ++r) {
      double s = 0.0;
      for (int c = 0; c < 3; ++c) s += cci[r][c] * d[c];
      a[r] = s;
    }
    double* al = &alphas[4 * p];
    al[0] = 1.0 - a[0] - a[1] - a[2], al[1] = a[0], al[2] = a[1], al[3] = a[2];
  }
  Mat mtm;
  mtm.rows = mtm.cols = 12;
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) mtm.a[i][j] = 0.0;
  for (size_t p = 0; p < n; ++p) {
    const double* a = &alphas[4 * p];
    const double u = uvs[p]->u, v = uvs[p]->v;
    double r1[12] = {0}, r2[12] = {0};
    for (int j = 0; j < 4; ++j) {
      r1[3 * j] = a[j] * fu, r1[3 * j + 2] = a[j] * (uc - u);
      r2[3 * j + 1] = a[j] * fv, r2[3 * j + 2] = a[j] * (vc - v);
    }
    for (int i = 0; i < 12; ++i)
      if (r1[i] != 0 || r2[i] != 0)  // Python's `r1[i] or r2[i]` (NaN is true)
        for (int j = 0; j < 12; ++j) mtm.a[i][j] += r1[i] * r1[j] + r2[i] * r2[j];
  }
  Svd se;
  detail::svd_cv(mtm, se);
  double vs[4][12];
  for (int i = 0; i < 4; ++i)
    for (int q = 0; q < 12; ++q) vs[i][q] = se.us[11 - i][q];
  static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  double L[6][10], rho[6];
  for (int q = 0; q < 6; ++q) {
    const int a = pairs[q][0], b = pairs[q][1];
    double dv[4][3];
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 3; ++k) dv[i][k] = vs[i][3 * a + k] - vs[i][3 * b + k];
    auto dot = [&](int x, int y) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += dv[x][k] * dv[y][k];
      return s;
    };
    const double row[10] = {dot(0, 0),     2 * dot(0, 1), dot(1, 1),     2 * dot(0, 2), 2 * dot(1, 2),
                            dot(2, 2),     2 * dot(0, 3), 2 * dot(1, 3), 2 * dot(2, 3), dot(3, 3)};
    std::copy(row, row + 10, L[q]);
    double s = 0.0;
    for (int k = 0; k < 3; ++k) s += psq(cws[a][k] - cws[b][k]);
    rho[q] = s;
  }
  bool have = false;
  for (int approx = 1; approx <= 3; ++approx) {
    double betas[4];
    if (!betas_of(L, rho, approx, betas)) continue;
    gauss_newton(L, rho, betas);
    Pose res;
    if (r_and_t(vs, betas, pws, alphas, uvs, cam, res) && (!have || res.err < best.err)) best = res, have = true;
  }
  return have;
}

// _calib._project of one point, no jacobian: (u, v); the jacobian's pose columns when rot_u etc.
struct Proj {
  double u, v;
};

inline void project_point(const double R[3][3], const double t[3], const double X[3], const Camera& cam, Proj& out,
                          const double* dR = nullptr, double* ju = nullptr, double* jv = nullptr) {
  const double* k = cam.k;
  double Y[3];
  for (int i = 0; i < 3; ++i) Y[i] = R[i][0] * X[0] + R[i][1] * X[1] + R[i][2] * X[2] + t[i];
  const double z = Y[2] != 0 ? 1.0 / Y[2] : 1.0;
  const double x = Y[0] * z, y = Y[1] * z;
  const double r2 = x * x + y * y;
  const double r4 = r2 * r2;
  const double r6 = r4 * r2;
  const double a1 = 2 * x * y, a2 = r2 + 2 * x * x, a3 = r2 + 2 * y * y;
  const double cdist = 1 + k[0] * r2 + k[1] * r4 + k[4] * r6;
  const double icdist2 = pdiv(1.0, 1 + k[5] * r2 + k[6] * r4 + k[7] * r6);
  const double xd = x * cdist * icdist2 + k[2] * a1 + k[3] * a2 + k[8] * r2 + k[9] * r4;
  const double yd = y * cdist * icdist2 + k[2] * a3 + k[3] * a1 + k[10] * r2 + k[11] * r4;
  out.u = xd * cam.fx + cam.cx, out.v = yd * cam.fy + cam.cy;
  if (!dR) return;
  const double dcdist = 2 * (k[0] + 2 * k[1] * r2 + 3 * k[4] * r4);
  const double dicd = -icdist2 * icdist2 * 2 * (k[5] + 2 * k[6] * r2 + 3 * k[7] * r4);
  const double dxd_dx = cdist * icdist2 + x * (dcdist * x * icdist2 + cdist * dicd * x) + k[2] * 2 * y +
                        k[3] * 6 * x + (k[8] + 2 * k[9] * r2) * 2 * x;
  const double dxd_dy = x * (dcdist * y * icdist2 + cdist * dicd * y) + k[2] * 2 * x + k[3] * 2 * y +
                        (k[8] + 2 * k[9] * r2) * 2 * y;
  const double dyd_dx = y * (dcdist * x * icdist2 + cdist * dicd * x) + k[2] * 2 * x + k[3] * 2 * y +
                        (k[10] + 2 * k[11] * r2) * 2 * x;
  const double dyd_dy = cdist * icdist2 + y * (dcdist * y * icdist2 + cdist * dicd * y) + k[2] * 6 * y +
                        k[3] * 2 * x + (k[10] + 2 * k[11] * r2) * 2 * y;
  const double dx_dY[3] = {z, 0.0, -x * z}, dy_dY[3] = {0.0, z, -y * z};
  double du_dY[3], dv_dY[3];
  for (int i = 0; i < 3; ++i) {
    du_dY[i] = cam.fx * (dxd_dx * dx_dY[i] + dxd_dy * dy_dY[i]);
    dv_dY[i] = cam.fy * (dyd_dx * dx_dY[i] + dyd_dy * dy_dY[i]);
  }
  for (int j = 0; j < 3; ++j) {
    const double* d = dR + 9 * j;
    double dY[3];
    for (int i = 0; i < 3; ++i) dY[i] = d[i * 3] * X[0] + d[i * 3 + 1] * X[1] + d[i * 3 + 2] * X[2];
    double su = 0.0, sv = 0.0;
    for (int i = 0; i < 3; ++i) su += du_dY[i] * dY[i];
    for (int i = 0; i < 3; ++i) sv += dv_dY[i] * dY[i];
    ju[j] = su, jv[j] = sv;
  }
  for (int i = 0; i < 3; ++i) ju[3 + i] = du_dY[i], jv[3 + i] = dv_dY[i];
}

void rot_of(const double r[3], double R[3][3], double* J = nullptr) {
  double Rf[9], Jf[27];
  detail::rodrigues_vec(r, Rf, Jf);
  for (int i = 0; i < 9; ++i) R[i / 3][i % 3] = Rf[i];
  if (J) std::copy(Jf, Jf + 27, J);
}

void rvec_of(const double R[3][3], double r[3]) {
  double v[9];
  for (int i = 0; i < 9; ++i) v[i] = R[i / 3][i % 3];
  detail::rodrigues_mat(v, r);
}

// _calib._undistort_list(us, vs, K, k, nd, None, K, (COUNT, 5, 0.01))
std::vector<P2> undistort(const std::vector<P2>& uv, const Camera& cam) {
  const double* k = cam.k;
  double RR[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int q = 0; q < 3; ++q) s += cam.K[i][q] * (q == j ? 1.0 : 0.0);
      RR[i][j] = s;
    }
  const double ifx = pdiv(1.0, cam.fx), ify = pdiv(1.0, cam.fy);
  std::vector<P2> out(uv.size());
  for (size_t p = 0; p < uv.size(); ++p) {
    const double u = uv[p].u, v = uv[p].v;
    double x = (u - cam.cx) * ifx, y = (v - cam.cy) * ify;
    if (cam.nd) {
      const double x0 = x, y0 = y;
      const double alpha = 1.0;  // only the EPS criterion halves it, and it is off
      for (int j = 0; j < 5; ++j) {
        const double r2 = x * x + y * y;
        const double icdist = pdiv(1 + ((k[7] * r2 + k[6]) * r2 + k[5]) * r2, 1 + ((k[4] * r2 + k[1]) * r2 + k[0]) * r2);
        if (icdist < 0) {
          x = (u - cam.cx) * ifx, y = (v - cam.cy) * ify;
          break;
        }
        const double dx = 2 * k[2] * x * y + k[3] * (r2 + 2 * x * x) + k[8] * r2 + k[9] * r2 * r2;
        const double dy = k[2] * (r2 + 2 * y * y) + 2 * k[3] * x * y + k[10] * r2 + k[11] * r2 * r2;
        const double nx = (1.0 - alpha) * x + alpha * (x0 - dx) * icdist;
        const double ny = (1.0 - alpha) * y + alpha * (y0 - dy) * icdist;
        x = nx, y = ny;
      }
    }
    const double xx = RR[0][0] * x + RR[0][1] * y + RR[0][2];
    const double yy = RR[1][0] * x + RR[1][1] * y + RR[1][2];
    const double ww = pdiv(1.0, RR[2][0] * x + RR[2][1] * y + RR[2][2]);
    out[p] = {xx * ww, yy * ww};
  }
  return out;
}

// _pnp._pnp_errors <= thr as a mask: float32 projections, differences and squares. Float
// arithmetic on float32 values gives the reference's double-then-round bits, overflow to inf
// included (its f32 packs with struct's native "f", which rounds to inf rather than raising).
int64_t inlier_mask(const std::vector<P3>& pts, const std::vector<P2>& uvs, const double r[3], const double t[3],
                    const Camera& cam, float thr, std::vector<uint8_t>& mask) {
  double R[3][3];
  rot_of(r, R);
  const size_t n = pts.size();
  mask.resize(n);
  const double* k = cam.k;
  const double fx = cam.fx, fy = cam.fy, cx = cam.cx, cy = cam.cy;
  // project_point's arithmetic without its throw, so that the loop has no branch and vectorises:
  // a zero distortion denominator (where the reference raises) is noted and thrown after it
  bool zero_den = false;
  int64_t good = 0;
  if (cam.nd == 0) {
    // No distortion (every k is 0): where r^6 is finite, cdist = icdist2 = 1 exactly and the
    // distortion terms are signed zeros, so xd is x up to the sign of a zero, which the squared
    // error does not see. One division per point instead of two, branch-free; if any point's r^6
    // is not finite the general pass below redoes them all.
    bool odd = false;
    for (size_t p = 0; p < n; ++p) {
      const double* X = pts[p].x;
      double Y[3];
      for (int i = 0; i < 3; ++i) Y[i] = R[i][0] * X[0] + R[i][1] * X[1] + R[i][2] * X[2] + t[i];
      const double zr = 1.0 / Y[2];
      const double z = Y[2] != 0 ? zr : 1.0;
      const double x = Y[0] * z, y = Y[1] * z;
      const double r2 = x * x + y * y;
      const double r6 = r2 * r2 * r2;
      odd |= !(std::fabs(r6) <= 1.7976931348623157e308);
      const float dx = static_cast<float>(uvs[p].u) - static_cast<float>(x * fx + cx);
      const float dy = static_cast<float>(uvs[p].v) - static_cast<float>(y * fy + cy);
      const float e = dx * dx + dy * dy;
      const bool in = e <= thr;
      mask[p] = in;
      good += in;
    }
    if (!odd) return good;
    good = 0;
  }
  for (size_t p = 0; p < n; ++p) {
    const double* X = pts[p].x;
    double Y[3];
    for (int i = 0; i < 3; ++i) Y[i] = R[i][0] * X[0] + R[i][1] * X[1] + R[i][2] * X[2] + t[i];
    const double zr = 1.0 / Y[2];
    const double z = Y[2] != 0 ? zr : 1.0;
    const double x = Y[0] * z, y = Y[1] * z;
    const double r2 = x * x + y * y;
    const double r4 = r2 * r2;
    const double r6 = r4 * r2;
    const double a1 = 2 * x * y, a2 = r2 + 2 * x * x, a3 = r2 + 2 * y * y;
    const double cdist = 1 + k[0] * r2 + k[1] * r4 + k[4] * r6;
    const double den = 1 + k[5] * r2 + k[6] * r4 + k[7] * r6;
    zero_den |= den == 0;
    const double icdist2 = 1.0 / den;
    const double xd = x * cdist * icdist2 + k[2] * a1 + k[3] * a2 + k[8] * r2 + k[9] * r4;
    const double yd = y * cdist * icdist2 + k[2] * a3 + k[3] * a1 + k[10] * r2 + k[11] * r4;
    const float fu = static_cast<float>(xd * fx + cx), fv = static_cast<float>(yd * fy + cy);
    const float dx = static_cast<float>(uvs[p].u) - fu, dy = static_cast<float>(uvs[p].v) - fv;
    const float e = dx * dx + dy * dy;
    const bool in = e <= thr;
    mask[p] = in;
    good += in;
  }
  if (zero_den) throw Fallback{};
  return good;
}

// _pnp._refine_pose: Levenberg-Marquardt on the reprojection error over (rvec, tvec)
void refine_pose(double params[6], const std::vector<const P3*>& pts, const std::vector<const P2*>& uvs,
                 const Camera& cam) {
  const size_t n = pts.size();
  std::vector<double> res(2 * n), J(12 * n), res2(2 * n);
  // The reference builds the jacobian with every residual vector; it is a pure function of the
  // parameters (raising nowhere the residuals do not), so here it is built only for accepted
  // steps: a rejected step (most of them, near the minimum) costs the residuals alone.
  auto residuals = [&](const double* p, std::vector<double>& rs) {
    double R[3][3];
    rot_of(p, R);
    for (size_t i = 0; i < n; ++i) {
      Proj q;
      project_point(R, p + 3, pts[i]->x, cam, q);
      rs[2 * i] = q.u - uvs[i]->u;
      rs[2 * i + 1] = q.v - uvs[i]->v;
    }
    double cost = 0.0;
    for (double x : rs) cost += x * x;
    return cost;
  };
  auto jacobian = [&](const double* p, std::vector<double>& jac) {
    double R[3][3], dR[27];
    rot_of(p, R, dR);
    for (size_t i = 0; i < n; ++i) {
      Proj q;
      project_point(R, p + 3, pts[i]->x, cam, q, dR, &jac[12 * i], &jac[12 * i + 6]);
    }
  };
  double cost = residuals(params, res);
  jacobian(params, J);
  double lam = 1e-3;
  for (int iter = 0; iter < 100; ++iter) {
    // each entry is its own left fold over the rows, as the reference's sum(); one pass over the
    // rows keeps them all, and J^T J's lower half equals its upper (the same products, in order)
    double jtj[6][6], jtr[6];
    {
      double acc[21] = {0}, accr[6] = {0};
      const double* Jq = J.data();
      for (size_t q = 0; q < 2 * n; ++q, Jq += 6) {
        int e = 0;
        for (int i = 0; i < 6; ++i)
          for (int j = i; j < 6; ++j) acc[e++] += Jq[i] * Jq[j];
        for (int i = 0; i < 6; ++i) accr[i] += Jq[i] * res[q];
      }
      int e = 0;
      for (int i = 0; i < 6; ++i) {
        for (int j = i; j < 6; ++j) jtj[i][j] = jtj[j][i] = acc[e++];
        jtr[i] = accr[i];
      }
    }
    bool done = true;
    while (lam < 1e16) {
      double a[6][6], nb[6], step[6];
      for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) a[i][j] = jtj[i][j];
        nb[i] = -jtr[i];
      }
      for (int i = 0; i < 6; ++i) a[i][i] += lam * (a[i][i] > 0 ? a[i][i] : 1.0);
      if (!detail::gauss_solve(a, nb, 6, step)) {
        lam *= 10;
        continue;
      }
      double p2[6];
      for (int i = 0; i < 6; ++i) p2[i] = params[i] + step[i];
      const double cost2 = residuals(p2, res2);
      if (cost2 <= cost) {
        const double gain = cost - cost2;
        std::copy(p2, p2 + 6, params);
        res.swap(res2);
        jacobian(params, J);
        cost = cost2;
        lam = std::max(lam / 10, 1e-15);
        double mx = std::fabs(step[0]);  // Python's max(): replaced only by a strictly larger value
        for (int i = 1; i < 6; ++i)
          if (std::fabs(step[i]) > mx) mx = std::fabs(step[i]);
        done = gain <= 1e-28 * std::max(cost, 1e-300) || mx < 1e-15;
        break;
      }
      lam *= 10;
    }
    if (done) break;
  }
}

}  // namespace

PnpRansac solve_pnp_ransac(const std::vector<double>& obj, const std::vector<double>& img, const double K[9],
                           const double dist[14], int nd, int64_t iters, double thr, double confidence,
                           bool iterative) {
  using robust_fit::detail::f32;
  const size_t n = obj.size() / 3;
  Camera cam;
  for (int i = 0; i < 9; ++i) cam.K[i / 3][i % 3] = K[i];
  std::copy(dist, dist + 14, cam.k);
  cam.nd = nd;
  cam.fx = K[0], cam.fy = K[4], cam.cx = K[2], cam.cy = K[5];
  std::vector<P3> pts(n);
  std::vector<P2> uvs(n);
  for (size_t p = 0; p < n; ++p) {
    for (int i = 0; i < 3; ++i) pts[p].x[i] = f32(obj[3 * p + i]);
    uvs[p] = {f32(img[2 * p]), f32(img[2 * p + 1])};
  }
  // points that are not finite as float32 are left to the reference (rare; not worth porting
  // its NaN paths, which must then match too)
  for (const P3& p : pts)
    if (!std::isfinite(p.x[0]) || !std::isfinite(p.x[1]) || !std::isfinite(p.x[2])) throw Fallback{};
  for (const P2& p : uvs)
    if (!std::isfinite(p.u) || !std::isfinite(p.v)) throw Fallback{};
  const std::vector<P2> und = undistort(uvs, cam);
  PnpRansac out;
  std::vector<const P3*> sp;
  std::vector<const P2*> su;
  auto kernel = [&](const size_t* idx, size_t count, double r[3], double t[3]) {
    sp.resize(count), su.resize(count);
    for (size_t i = 0; i < count; ++i) sp[i] = &pts[idx[i]], su[i] = &und[idx[i]];
    Pose pose;
    if (!epnp(sp, su, cam, pose)) return false;
    rvec_of(pose.R, r);
    std::copy(pose.t, pose.t + 3, t);
    return true;
  };
  if (n == 5) {
    const size_t idx[5] = {0, 1, 2, 3, 4};
    if (!kernel(idx, 5, out.rvec, out.tvec)) return out;
    out.kind = 3;
    for (int32_t i = 0; i < 5; ++i) out.inliers.push_back(i);
    return out;
  }
  const float thr32 = static_cast<float>(thr);  // an f32 value: exact
  robust_fit::detail::CvRng rng;
  int64_t niters = std::max<int64_t>(iters, 1), best_count = 0, it = 0;
  bool have = false;
  double best_r[3], best_t[3];
  std::vector<uint8_t> mask, best_mask;
  while (it < niters) {
    size_t idx[5];
    for (int k = 0; k < 5; ++k) {
      size_t i;
      do {
        i = static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(n)));
      } while (std::find(idx, idx + k, i) != idx + k);
      idx[k] = i;
    }
    ++it;
    double r[3], t[3];
    if (!kernel(idx, 5, r, t)) continue;
    const int64_t good = inlier_mask(pts, uvs, r, t, cam, thr32, mask);
    if (good > std::max<int64_t>(best_count, 4)) {
      std::copy(r, r + 3, best_r), std::copy(t, t + 3, best_t);
      best_mask = mask;
      best_count = good;
      have = true;
      niters = robust_fit::detail::update_iters(
          confidence, static_cast<double>(static_cast<int64_t>(n) - good) / static_cast<double>(n), 5, niters);
    }
  }
  if (!have) {
    out.kind = 1;
    return out;
  }
  std::vector<const P3*> ip;
  std::vector<const P2*> iu, iund;
  for (size_t p = 0; p < n; ++p)
    if (best_mask[p]) ip.push_back(&pts[p]), iu.push_back(&uvs[p]), iund.push_back(&und[p]);
  Pose pose;
  if (!epnp(ip, iund, cam, pose)) {
    out.kind = 2;
    std::copy(best_r, best_r + 3, out.rvec), std::copy(best_t, best_t + 3, out.tvec);
    return out;
  }
  double params[6];
  rvec_of(pose.R, params);
  std::copy(pose.t, pose.t + 3, params + 3);
  if (iterative) refine_pose(params, ip, iu, cam);
  out.kind = 3;
  std::copy(params, params + 3, out.rvec), std::copy(params + 3, params + 6, out.tvec);
  for (size_t p = 0; p < n; ++p)
    if (best_mask[p]) out.inliers.push_back(static_cast<int32_t>(p));
  return out;
}

}  // namespace mnn::ops::robust_pnp
