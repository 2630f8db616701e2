// Bidiagonal SVD by divide and conquer (Gu and Eisenstat, "A divide-and-conquer algorithm for the
// bidiagonal SVD", 1995; the method of LAPACK's dbdsdc), written for this engine.
//
// An n x (n + sqre) upper bidiagonal B (sqre 1: one extra column, whose null vector the parent
// needs) is split at its middle row k into B1 (k x (k+1), rows above), row k (d_k, e_k) and B2
// (rows below, (n-k-1) x (n-k-1+sqre)). With the children's SVDs, B = U M W^T where M is a
// "broken arrow": its first row z holds row k of B times the children's right vectors, and the
// rest of it is diag(0, s1, s2). Its singular values are the roots of the secular equation
// 1 + sum z_j^2 / (d_j^2 - s^2) = 0, found by a safeguarded iteration on a two-pole rational
// model (each root is held as an offset from its nearer pole, so d_j^2 - s^2 stays accurate);
// z is then recomputed from the roots (Gu-Eisenstat), which makes the vectors orthogonal to
// working precision. Entries with tiny z or with nearly equal d deflate (a rotation, then a
// singular value that is already known). The children's vectors times M's are two GEMMs per side
// on the block-diagonal structure, so most of the work runs in the engine's GEMM. Leaves (at
// most kLeaf rows) take the one-sided Jacobi SVD of the small dense matrix.
#include "backends/cpu/kernels/linalg/bidiag_dc.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "backends/cpu/kernels/gemm.h"
#include "backends/cpu/kernels/linalg/jacobi_svd.h"

namespace mnn::cpu::linalg {

namespace {

constexpr double kEps = 2.220446049250313e-16;
constexpr int64_t kLeaf = 24;

// The small dense case: B^T = Ut S Vt^T by Jacobi, so B = Vt S Ut^T.
bool leaf(int64_t n, int sqre, const double* d, const double* e, double* s, double* u, int64_t ldu, double* w,
          int64_t ldw) {
  const int64_t nc = n + sqre;
  // scaled to max 1 (a deep leaf of a graded matrix can be tiny: its squares would underflow)
  double scale = 0;
  for (int64_t i = 0; i < n; ++i) scale = std::max(scale, std::fabs(d[i]));
  for (int64_t i = 0; i + 1 < nc; ++i) scale = std::max(scale, std::fabs(e[i]));
  if (scale == 0.0) scale = 1.0;
  std::vector<double> bt(nc * n, 0.0), ut, ss, vt;
  for (int64_t i = 0; i < n; ++i) {
    bt[i * n + i] = d[i] / scale;
    if (i + 1 < nc) bt[(i + 1) * n + i] = e[i] / scale;
  }
  const bool ok = jacobi_svd_tall(bt, nc, n, ut, ss, vt, true);
  for (int64_t j = 0; j < n; ++j) {  // Jacobi's order is descending; ours ascending
    const int64_t src = n - 1 - j;
    s[j] = ss[src] * scale;
    if (u)
      for (int64_t i = 0; i < n; ++i) u[i * ldu + j] = vt[i * n + src];
    for (int64_t i = 0; i < nc; ++i) w[i * ldw + j] = ut[i * nc + src];
  }
  if (sqre)
    for (int64_t i = 0; i < nc; ++i) w[i * ldw + n] = ut[i * nc + n];
  return ok;
}

// Root i (ascending) of f(x) = 1 + sum_j z2_j / (ds_j^2 - x), ds ascending with ds[0] = 0, returned
// as x = ds[origin]^2 + tau with origin i or i+1, whichever pole is nearer.
void secular_root(int64_t nk, const double* ds, const double* z2, double zsq, int64_t i, int64_t& origin,
                  double& tau, std::vector<double>& del) {
  const bool last = i == nk - 1;
  double lo, hi;
  if (!last) {
    const double gap = (ds[i + 1] - ds[i]) * (ds[i + 1] + ds[i]);
    double f = 1.0;
    for (int64_t j = 0; j < nk; ++j) f += z2[j] / ((ds[j] - ds[i]) * (ds[j] + ds[i]) - 0.5 * gap);
    if (f >= 0) {
      origin = i;
      lo = 0.0;
      hi = 0.5 * gap;
    } else {
      origin = i + 1;
      lo = -0.5 * gap;
      hi = 0.0;
    }
  } else {
    origin = i;
    lo = 0.0;
    hi = zsq;
  }
  const double dk = ds[origin];
  del.resize(nk);
  for (int64_t j = 0; j < nk; ++j) del[j] = (ds[j] - dk) * (ds[j] + dk);
  const double dl = del[i], dr = last ? 0.0 : del[i + 1];
  double t = 0.5 * (lo + hi);
  for (int it = 0; it < 200; ++it) {
    double psi = 0, dpsi = 0, phi = 0, dphi = 0;
    for (int64_t j = 0; j <= i; ++j) {
      const double r = 1.0 / (del[j] - t), q = z2[j] * r;
      psi += q;
      dpsi += q * r;
    }
    for (int64_t j = i + 1; j < nk; ++j) {
      const double r = 1.0 / (del[j] - t), q = z2[j] * r;
      phi += q;
      dphi += q * r;
    }
    const double f = 1.0 + psi + phi;
    if (f == 0.0) break;
    if (f < 0) lo = t;
    else hi = t;
    if (std::fabs(f) <= 8 * kEps * (1.0 + std::fabs(psi) + phi + std::fabs(t) * (dpsi + dphi))) break;
    if (hi - lo <= 4 * kEps * std::max(std::fabs(lo), std::fabs(hi))) break;
    // f ~ A + B / (dl - x) + C / (dr - x), matching psi and phi in value and slope at t
    const double pl = dl - t, pr = dr - t;
    const double b = dpsi * pl * pl, c = last ? 0.0 : dphi * pr * pr;
    const double a = 1.0 + psi - dpsi * pl + (last ? 0.0 : phi - dphi * pr);
    double tn = NAN;
    if (last) {
      if (a > 0) tn = dl + b / a;
    } else {
      const double a2 = a, a1 = -(a * (dl + dr) + b + c), a0 = a * dl * dr + b * dr + c * dl;
      if (a2 == 0.0) {
        if (a1 != 0.0) tn = -a0 / a1;
      } else {
        const double sq = std::sqrt(std::max(0.0, a1 * a1 - 4 * a2 * a0));
        const double q = -0.5 * (a1 + std::copysign(sq, a1));
        const double r1 = q / a2, r2 = q != 0.0 ? a0 / q : NAN;
        tn = (r1 > lo && r1 < hi) ? r1 : r2;
      }
    }
    if (!(tn > lo && tn < hi)) tn = 0.5 * (lo + hi);
    if (tn == t) break;
    t = tn;
  }
  tau = t;
}

// Scratch for the merges, sized once for the whole problem: the recursion is sequential and a
// merge uses it only after its children are done (fresh n^2 buffers per merge cost page faults).
struct Work {
  std::vector<double> eu, ew, out, g;
};

// The merge of a divide-and-conquer node: from the children's singular values s1 (k), s2 (n-k-1),
// row k of B (alpha at column k, beta at k+1), row k of W1 (l1, k+1 entries with the null one)
// and row 0 of W2 (f2, n-k-1+sqre entries): the node's singular values s (ascending), E_u and E_w
// transposed (et[c * n + r]: rows in merged coordinates, columns the output order; E_u skipped
// when eut is null) and the rotation (cn, sn) that combines the two null directions.
void merge(int64_t n, int64_t k, int sqre, double alpha, double beta, const double* s1, const double* s2,
           const double* l1, const double* f2, double* s, double* eut, double* ewt, double& cn, double& sn) {
  const int64_t n2 = n - k - 1;
  // merged coordinates: 0 = row k of B / the combined null direction, 1..k = B1's, k+1..n-1 = B2's
  std::vector<double> dm(n), z(n);
  dm[0] = 0.0;
  for (int64_t j = 0; j < k; ++j) {
    dm[1 + j] = s1[j];
    z[1 + j] = alpha * l1[j];
  }
  for (int64_t j = 0; j < n2; ++j) {
    dm[k + 1 + j] = s2[j];
    z[k + 1 + j] = beta * f2[j];
  }
  const double za = alpha * l1[k], zb = sqre ? beta * f2[n2] : 0.0;
  cn = 1.0;
  sn = 0.0;
  z[0] = za;
  if (sqre) {  // the two null directions: one meets row k with sqrt(za^2 + zb^2), the other not at all
    const double r = std::hypot(za, zb);
    if (r > 0) {
      cn = za / r;
      sn = zb / r;
    }
    z[0] = r;
  }

  // Scaled to max 1 as LAPACK's dlasd1 does: z^2 and d^2 of a deep, tiny node must not underflow.
  double dmax = 0;
  for (int64_t j = 0; j < n; ++j) dmax = std::max(dmax, dm[j]);
  double scale = std::max({dmax, std::fabs(alpha), std::fabs(beta)});
  if (scale == 0.0) scale = 1.0;
  for (int64_t j = 0; j < n; ++j) {
    dm[j] /= scale;
    z[j] /= scale;
  }
  // Deflation, tol as LAPACK's dlasd2.
  const double tol = 8 * kEps;
  std::vector<int64_t> order(n - 1);
  std::iota(order.begin(), order.end(), 1);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return dm[x] < dm[y]; });
  struct Rot {
    int64_t p, j;
    double c, s;
    bool both;  // also on U (two nearly equal d); else on W only (d_j ~ 0, against coordinate 0)
  };
  std::vector<Rot> rots;
  std::vector<int64_t> kept{0}, defl;
  std::vector<double> defl_val, defl_sign;
  kept.reserve(n);
  for (int64_t j : order) {
    if (std::fabs(z[j]) <= tol) {
      defl.push_back(j);
      defl_val.push_back(dm[j]);
      defl_sign.push_back(1.0);
      continue;
    }
    const int64_t p = kept.back();
    if (p == 0 ? dm[j] <= tol : dm[j] - dm[p] <= tol) {
      const double r = std::hypot(z[p], z[j]), c = z[p] / r, sg = z[j] / r;
      z[p] = r;
      z[j] = 0.0;
      rots.push_back({p, j, c, sg, p != 0});
      defl.push_back(j);
      // against coordinate 0, column j keeps c d_j on its diagonal (the s d_j it leaves in column 0
      // is below tol); against an equal d, U and W rotate alike and d_j stays
      defl_val.push_back(p == 0 ? std::fabs(c * dm[j]) : dm[j]);
      defl_sign.push_back(p == 0 && c < 0 ? -1.0 : 1.0);
      continue;
    }
    kept.push_back(j);
  }
  if (std::fabs(z[0]) <= tol) z[0] = z[0] < 0 ? -tol : tol;

  // The secular equation on the kept coordinates.
  const int64_t nk = static_cast<int64_t>(kept.size());
  std::vector<double> ds(nk), zs(nk), z2(nk), tau(nk), zh(nk), del;
  std::vector<int64_t> orig(nk);
  double zsq = 0;
  for (int64_t i = 0; i < nk; ++i) {
    ds[i] = dm[kept[i]];
    zs[i] = z[kept[i]];
    z2[i] = zs[i] * zs[i];
    zsq += z2[i];
  }
  for (int64_t i = 0; i < nk; ++i) secular_root(nk, ds.data(), z2.data(), zsq, i, orig[i], tau[i], del);
  // ds_j^2 - sigma_i^2, accurate through the root's offset from its pole
  auto diff = [&](int64_t j, int64_t i) {
    const double dk = ds[orig[i]];
    double v = (ds[j] - dk) * (ds[j] + dk) - tau[i];
    return v != 0.0 ? v : (j > i ? 1e-300 : -1e-300);
  };
  // Gu-Eisenstat: the z for which the computed roots are exact
  for (int64_t j = 0; j < nk; ++j) {
    double prod = -diff(j, nk - 1);
    for (int64_t i = 0; i < j; ++i) prod *= diff(j, i) / ((ds[j] - ds[i]) * (ds[j] + ds[i]));
    for (int64_t i = j; i < nk - 1; ++i) prod *= -diff(j, i) / ((ds[i + 1] - ds[j]) * (ds[i + 1] + ds[j]));
    zh[j] = std::copysign(std::sqrt(std::fabs(prod)), zs[j]);
  }

  // Output order: all n singular values ascending (roots and deflated ones interleaved).
  struct Out {
    double v;
    int64_t idx;  // < nk: root; else deflated entry idx - nk
  };
  std::vector<Out> outs(n);
  for (int64_t i = 0; i < nk; ++i) {
    const double dk = ds[orig[i]];
    outs[i] = {std::sqrt(std::max(0.0, dk * dk + tau[i])), i};
  }
  for (size_t t = 0; t < defl.size(); ++t) outs[nk + t] = {defl_val[t], nk + static_cast<int64_t>(t)};
  std::stable_sort(outs.begin(), outs.end(), [](const Out& x, const Out& y) { return x.v < y.v; });

  // E_u, E_w (n x n): rows in merged coordinates, columns the output order; stored transposed
  // (et[c * n + r] = E[r][c]) so that each vector is written contiguously; the GEMMs read E
  // through strides.
  if (eut) std::fill(eut, eut + n * n, 0.0);
  std::fill(ewt, ewt + n * n, 0.0);
  std::vector<double> col(nk), colu(nk);
  for (int64_t c = 0; c < n; ++c) {
    s[c] = outs[c].v * scale;
    const int64_t idx = outs[c].idx;
    double* ec = ewt + c * n;
    double* ecu = eut ? eut + c * n : nullptr;
    if (idx >= nk) {
      const int64_t t = idx - nk;
      if (ecu) ecu[defl[t]] = defl_sign[t];
      ec[defl[t]] = 1.0;
      continue;
    }
    // zh_j / (ds_j^2 - sigma^2) is the right vector; ds_j times it (and -1 first) the left one
    const double dk = ds[orig[idx]], ti = tau[idx];
    double nrm = 0, nrmu = 1.0;
    for (int64_t j = 0; j < nk; ++j) {
      const double x = zh[j] / ((ds[j] - dk) * (ds[j] + dk) - ti);
      col[j] = x;
      nrm += x * x;
      colu[j] = ds[j] * x;
      nrmu += colu[j] * colu[j];
    }
    nrm = 1.0 / std::sqrt(nrm);
    for (int64_t j = 0; j < nk; ++j) ec[kept[j]] = col[j] * nrm;
    if (!ecu) continue;
    nrmu = 1.0 / std::sqrt(nrmu);  // ds[0] = 0: colu[0] adds nothing and becomes the -1 counted in nrmu
    colu[0] = -1.0;
    for (int64_t j = 0; j < nk; ++j) ecu[kept[j]] = colu[j] * nrmu;
  }
  for (auto r = rots.rbegin(); r != rots.rend(); ++r) {
    auto rot_rows = [&](double* et) {  // rows p and j of E
      for (int64_t c = 0; c < n; ++c) {
        double* ec = et + c * n;
        const double a = ec[r->p], b = ec[r->j];
        ec[r->p] = r->c * a - r->s * b;
        ec[r->j] = r->s * a + r->c * b;
      }
    };
    rot_rows(ewt);
    if (r->both && eut) rot_rows(eut);
  }

}

// SVD of the n x (n + sqre) bidiagonal (d, e): s ascending, U (n x n, skipped when u is null) and
// W ((n+sqre) x (n+sqre); column n is the null vector when sqre).
bool dc(int64_t n, int sqre, const double* d, const double* e, double* s, double* u, int64_t ldu, double* w,
        int64_t ldw, Work& wk) {
  if (n <= kLeaf) return leaf(n, sqre, d, e, s, u, ldu, w, ldw);
  const int64_t k = n / 2, n2 = n - k - 1, n2c = n2 + sqre, nc = n + sqre;
  std::vector<double> s1(k), s2(n2);
  double* w1 = w;                            // (k+1) x (k+1), null column k
  double* w2 = w + (k + 1) * ldw + (k + 1);  // n2c x n2c, null column n2 when sqre
  bool ok = dc(k, 1, d, e, s1.data(), u, ldu, w1, ldw, wk);
  ok = dc(n2, sqre, d + k + 1, e + k + 1, s2.data(), u ? u + (k + 1) * ldu + (k + 1) : nullptr, ldu, w2, ldw, wk) && ok;
  double cn, sn;
  double* eut = u ? wk.eu.data() : nullptr;
  double* ewt = wk.ew.data();
  merge(n, k, sqre, d[k], e[k], s1.data(), s2.data(), w1 + k * ldw, w2, s, eut, ewt, cn, sn);

  // U <- [U1 0 0; 0 1 0; 0 0 U2] (rows of B: B1's, row k, B2's) times E_u.
  if (u) {
    double* un = wk.out.data();
    gemm_f64(k, n, k, u, ldu, 1, eut + 1, 1, n, un);
    for (int64_t c = 0; c < n; ++c) un[k * n + c] = eut[c * n];
    gemm_f64(n2, n, n2, u + (k + 1) * ldu + (k + 1), ldu, 1, eut + (k + 1), 1, n, un + (k + 1) * n);
    for (int64_t i = 0; i < n; ++i) std::copy(un + i * n, un + (i + 1) * n, u + i * ldu);
  }
  // W <- blockdiag(W1, W2) times the null rotation times E_w. W1's null column pairs with merged
  // row 0 (weight cn), W2's (when sqre) too (weight sn); the new null column is -sn null1 + cn null2.
  double* w1p = wk.g.data();  // W1 with its null column first (scaled by cn): rows 0..k of E in order
  double* wn = wk.out.data();
  std::vector<double> nullc(nc, 0.0), e0(n);
  for (int64_t i = 0; i <= k; ++i) {
    w1p[i * (k + 1)] = cn * w1[i * ldw + k];
    std::copy(w1 + i * ldw, w1 + i * ldw + k, w1p + i * (k + 1) + 1);
  }
  gemm_f64(k + 1, n, k + 1, w1p, k + 1, 1, ewt, 1, n, wn);
  gemm_f64(n2c, n, n2, w2, ldw, 1, ewt + (k + 1), 1, n, wn + (k + 1) * n);
  if (sqre) {
    for (int64_t c = 0; c < n; ++c) e0[c] = ewt[c * n];
    for (int64_t i = 0; i < n2c; ++i) {  // W2's null column meets merged row 0 with weight sn
      const double f = sn * w2[i * ldw + n2];
      if (f != 0.0) axpy(wn + (k + 1 + i) * n, e0.data(), n, f);
    }
    for (int64_t i = 0; i <= k; ++i) nullc[i] = -sn * w1[i * ldw + k];
    for (int64_t i = 0; i < n2c; ++i) nullc[k + 1 + i] = cn * w2[i * ldw + n2];
  }
  for (int64_t i = 0; i < nc; ++i) {
    std::copy(wn + i * n, wn + (i + 1) * n, w + i * ldw);
    if (sqre) w[i * ldw + n] = nullc[i];
  }
  return ok;
}

// Singular values only: a node passes up just the first and last rows of its W (f and l, n+sqre
// entries each), which is all its parent's merge reads (LAPACK's dlasda does the same), so a
// merge costs O(n^2) instead of two GEMMs.
bool dc_values(int64_t n, int sqre, const double* d, const double* e, double* s, double* f, double* l,
               std::vector<double>& ewt) {
  const int64_t nc = n + sqre;
  if (n <= kLeaf) {
    std::vector<double> w(nc * nc);
    const bool ok = leaf(n, sqre, d, e, s, nullptr, 0, w.data(), nc);
    std::copy(w.begin(), w.begin() + nc, f);
    std::copy(w.end() - nc, w.end(), l);
    return ok;
  }
  const int64_t k = n / 2, n2 = n - k - 1, n2c = n2 + sqre;
  std::vector<double> s1(k), s2(n2), f1(k + 1), l1(k + 1), f2(n2c), l2(n2c);
  bool ok = dc_values(k, 1, d, e, s1.data(), f1.data(), l1.data(), ewt);
  ok = dc_values(n2, sqre, d + k + 1, e + k + 1, s2.data(), f2.data(), l2.data(), ewt) && ok;
  double cn, sn;
  merge(n, k, sqre, d[k], e[k], s1.data(), s2.data(), l1.data(), f2.data(), s, nullptr, ewt.data(), cn, sn);
  // rows 0 and nc-1 of blockdiag(W1, W2) times the null rotation, in merged coordinates
  std::vector<double> r0(n, 0.0), rl(n, 0.0);
  r0[0] = cn * f1[k];
  std::copy(f1.begin(), f1.begin() + k, r0.begin() + 1);
  if (sqre) rl[0] = sn * l2[n2];
  std::copy(l2.begin(), l2.begin() + n2, rl.begin() + k + 1);
  for (int64_t c = 0; c < n; ++c) {
    const double* ec = ewt.data() + c * n;
    f[c] = dot(r0.data(), ec, n);
    l[c] = dot(rl.data(), ec, n);
  }
  if (sqre) {
    f[n] = -sn * f1[k];
    l[n] = cn * l2[n2];
  }
  return ok;
}

}  // namespace

bool bidiag_svd_dc(int64_t n, const double* d, const double* e, double* s, double* u, int64_t ldu, double* v,
                   int64_t ldv) {
  if (n <= 0) return true;
  double scale = 0;
  for (int64_t i = 0; i < n; ++i) scale = std::max(scale, std::fabs(d[i]));
  for (int64_t i = 0; i + 1 < n; ++i) scale = std::max(scale, std::fabs(e[i]));
  if (!std::isfinite(scale)) return false;
  if (u)
    for (int64_t i = 0; i < n; ++i) {
      std::fill(u + i * ldu, u + i * ldu + n, 0.0);
      std::fill(v + i * ldv, v + i * ldv + n, 0.0);
    }
  if (scale == 0.0) {
    for (int64_t i = 0; i < n; ++i) {
      s[i] = 0.0;
      if (u) {
        u[i * ldu + i] = 1.0;
        v[i * ldv + i] = 1.0;
      }
    }
    return true;
  }
  // scaled to max 1: the secular equation's squares neither overflow nor underflow needlessly
  std::vector<double> ds(n), es(n, 0.0);
  for (int64_t i = 0; i < n; ++i) ds[i] = d[i] / scale;
  for (int64_t i = 0; i + 1 < n; ++i) es[i] = e[i] / scale;
  if (!u) {
    std::vector<double> ewt(n > kLeaf ? n * n : 0), f(n), l(n);
    const bool ok = dc_values(n, 0, ds.data(), es.data(), s, f.data(), l.data(), ewt);
    for (int64_t i = 0; i < n; ++i) s[i] *= scale;
    return ok;
  }
  Work wk;
  if (n > kLeaf) {
    if (u) wk.eu.resize(n * n);
    wk.ew.resize(n * n);
    wk.out.resize((n + 1) * n);
    wk.g.resize((n + 1) * n);
  }
  const bool ok = dc(n, 0, ds.data(), es.data(), s, u, ldu, v, ldv, wk);
  for (int64_t i = 0; i < n; ++i) s[i] *= scale;
  return ok;
}

}  // namespace mnn::cpu::linalg
