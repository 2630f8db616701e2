// findHomography's normalised DLT, ported from mnn/cv/_calib.py _homography_dlt with Python's
// operation order (robust_fit.h), and the eigensolver of mnn.numpy.linalg.eigh run on several
// matrices at once (robust_dlt.h says why).
#include "ops/cv/robust_dlt.h"

#include <cmath>
#include <limits>

#include "backends/cpu/kernels/linalg/jacobi_eigh.h"

namespace mnn::ops::robust_fit::detail {
namespace {

constexpr double kDblEpsilon = 2.220446049250313e-16;
constexpr double kFltEpsilon = 1.1920928955078125e-07;
constexpr int kN = 9;

// _mat3_mul: sum(a[i][k] * b[k][j]) as a left fold from 0.
void mat3_mul(const double* a, const double* b, double* c) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double acc = 0.0;
      for (int k = 0; k < 3; ++k) acc += a[i * 3 + k] * b[k * 3 + j];
      c[i * 3 + j] = acc;
    }
}

// The cyclic Jacobi eigensolver of mnn.numpy.linalg.eigh (backends/cpu/kernels/linalg/
// decompositions.cpp), repeated here step for step on each lane because _homography_dlt calls
// eigh and its eigenvector's bits must be the same: keep the two in step. Each lane gets the
// eigenvector of its smallest eigenvalue (the first after eigh's stable sort: its column 0).
// Eigenvectors are kept transposed (eigh's columns p, q are rows here): same values.
void smallest_eigenvectors(Dlt* const* m, int lanes) {
  constexpr int n = kN;
  double a[kDltLanes][n * n], vt[kDltLanes][n * n];
  bool live[kDltLanes];
  double prev_off[kDltLanes];
  for (int l = 0; l < lanes; ++l) {
    prev_off[l] = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n * n; ++i) a[l][i] = m[l]->ltl[i], vt[l][i] = 0.0;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) a[l][i * n + j] = a[l][j * n + i];
    for (int i = 0; i < n; ++i) vt[l][i * n + i] = 1.0;
    live[l] = true;
    m[l]->status = 1;
  }
  for (int sweep = 0; sweep < 100; ++sweep) {
    bool any = false;
    for (int l = 0; l < lanes; ++l) {
      if (!live[l]) continue;
      double off = 0, total = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) (i == j ? total : off) += a[l][i * n + j] * a[l][i * n + j];
      total += off;
      if (off <= kDblEpsilon * kDblEpsilon * total || off == 0.0 || cpu::linalg::jacobi_stalled(off, prev_off[l], total, n))
        live[l] = false, m[l]->status = 0;
      prev_off[l] = off;
      any |= live[l];
    }
    if (!any) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        double c[kDltLanes], s[kDltLanes];
        bool act[kDltLanes];
        for (int l = 0; l < lanes; ++l) {  // the lanes' rotation angles: independent chains
          const double apq = a[l][p * n + q];
          act[l] = live[l] && apq != 0.0;
          if (!act[l]) continue;
          double theta = (a[l][q * n + q] - a[l][p * n + p]) / (2 * apq);
          double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
          c[l] = 1 / std::sqrt(t * t + 1), s[l] = t * c[l];
        }
        for (int l = 0; l < lanes; ++l) {
          if (!act[l]) continue;
          double* al = a[l];
          const double cl = c[l], sl = s[l];
          for (int k = 0; k < n; ++k) {
            double akp = al[k * n + p], akq = al[k * n + q];
            al[k * n + p] = cl * akp - sl * akq;
            al[k * n + q] = sl * akp + cl * akq;
          }
          for (int k = 0; k < n; ++k) {
            double apk = al[p * n + k], aqk = al[q * n + k];
            al[p * n + k] = cl * apk - sl * aqk;
            al[q * n + k] = sl * apk + cl * aqk;
          }
          double* v = vt[l];
          for (int k = 0; k < n; ++k) {
            double vkp = v[p * n + k], vkq = v[q * n + k];
            v[p * n + k] = cl * vkp - sl * vkq;
            v[q * n + k] = sl * vkp + cl * vkq;
          }
        }
      }
  }
  for (int l = 0; l < lanes; ++l) {
    if (m[l]->status) continue;
    int first = 0;
    for (int i = 0; i < n; ++i) {
      if (std::isnan(a[l][i * n + i])) m[l]->status = 2;  // the sort's order would be its own
      if (a[l][i * n + i] < a[l][first * n + first]) first = i;
    }
    for (int k = 0; k < n; ++k) m[l]->H[k] = vt[l][first * n + k];  // h0, until dlt_finish
  }
}

// The tail of _homography_dlt: denormalise h0 (in H) and scale H[2][2] to 1.
void dlt_finish(Dlt& m) {
  const double inv_hnorm[9] = {1.0 / m.smx, 0.0, m.cmx, 0.0, 1.0 / m.smy, m.cmy, 0.0, 0.0, 1.0};
  const double hnorm2[9] = {m.sMx, 0.0, -m.cMx * m.sMx, 0.0, m.sMy, -m.cMy * m.sMy, 0.0, 0.0, 1.0};
  double t[9];
  mat3_mul(inv_hnorm, m.H, t);
  mat3_mul(t, hnorm2, m.H);
  const double sc = std::fabs(m.H[8]) > kFltEpsilon ? 1.0 / m.H[8] : 1.0;
  for (double& v : m.H) v *= sc;
}

}  // namespace

void dlt_prepare(const Pt* s, const Pt* d, size_t count, const uint8_t* flags, Dlt& m) {
  size_t used = 0;
  double cmx = 0.0, cmy = 0.0, cMx = 0.0, cMy = 0.0;
  // each sum is its own left fold over the points in order, as in Python
  for (size_t i = 0; i < count; ++i)
    if (!flags || flags[i]) cmx += d[i].x, cmy += d[i].y, cMx += s[i].x, cMy += s[i].y, ++used;
  const double n = static_cast<double>(used);
  cmx /= n, cmy /= n, cMx /= n, cMy /= n;
  double smx = 0.0, smy = 0.0, sMx = 0.0, sMy = 0.0;
  for (size_t i = 0; i < count; ++i)
    if (!flags || flags[i]) {
      smx += std::fabs(d[i].x - cmx), smy += std::fabs(d[i].y - cmy);
      sMx += std::fabs(s[i].x - cMx), sMy += std::fabs(s[i].y - cMy);
    }
  // Python's min(): the first item unless a later one is smaller (so NaN first stays)
  double lo = std::fabs(smx);
  for (double v : {std::fabs(smy), std::fabs(sMx), std::fabs(sMy)})
    if (v < lo) lo = v;
  m.degenerate = lo < kDblEpsilon;
  if (m.degenerate) return;
  smx = n / smx, smy = n / smy, sMx = n / sMx, sMy = n / sMy;
  m.cmx = cmx, m.cmy = cmy, m.cMx = cMx, m.cMy = cMy, m.smx = smx, m.smy = smy, m.sMx = sMx, m.sMy = sMy;
  double* ltl = m.ltl;
  for (int i = 0; i < 81; ++i) ltl[i] = 0.0;
  for (size_t i = 0; i < count; ++i) {
    if (flags && !flags[i]) continue;
    const double x = (d[i].x - cmx) * smx, y = (d[i].y - cmy) * smy;
    const double X = (s[i].x - cMx) * sMx, Y = (s[i].y - cMy) * sMy;
    const double lx[9] = {X, Y, 1.0, 0.0, 0.0, 0.0, -x * X, -x * Y, -x};
    const double ly[9] = {0.0, 0.0, 0.0, X, Y, 1.0, -y * X, -y * Y, -y};
    for (int j = 0; j < 9; ++j)
      for (int q = j; q < 9; ++q) ltl[j * 9 + q] += lx[j] * lx[q] + ly[j] * ly[q];
  }
  for (int j = 0; j < 9; ++j)
    for (int q = 0; q < j; ++q) ltl[j * 9 + q] = ltl[q * 9 + j];
}

void solve_dlts(Dlt* const* dlts, int count) {
  Dlt* live[kDltLanes];
  int lanes = 0;
  for (int i = 0; i < count; ++i)
    if (!dlts[i]->degenerate) live[lanes++] = dlts[i];
  if (!lanes) return;
  smallest_eigenvectors(live, lanes);
  for (int l = 0; l < lanes; ++l)
    if (!live[l]->status) dlt_finish(*live[l]);
}

}  // namespace mnn::ops::robust_fit::detail
