// The small dense linear algebra behind solvePnPRansac's port (robust_pnp_detail.h), each a
// step-for-step port of the Python function named in its comment: the same loops, the same
// operation order (sums are left folds from 0.0), so that the bits are the reference's.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "ops/cv/robust_pnp_detail.h"

namespace mnn::ops::robust_pnp::detail {

namespace {

// Exact products as hi + lo by Dekker's split (|x|, |y| < 2, so nothing overflows). CPython gets
// the same exact pair (by fma or by this split); libm's software fma would cost far more here
// (the baseline build target has no FMA instruction).
inline void split(double x, double& hi, double& lo) {
  const double c = 134217729.0 * x;  // 2^27 + 1
  hi = c - (c - x);
  lo = x - hi;
}

inline void two_product(double x, double y, double& hi, double& lo) {
  double xh, xl, yh, yl;
  split(x, xh, xl);
  split(y, yh, yl);
  hi = x * y;
  lo = ((xh * yh - hi) + xh * yl + xl * yh) + xl * yl;
}

inline void two_square(double x, double& hi, double& lo) {
  double xh, xl;
  split(x, xh, xl);
  hi = x * x;
  lo = ((xh * xh - hi) + xh * xl + xl * xh) + xl * xl;
}

double vector_norm2(double v0, double v1, double mx) {
  uint64_t bits;
  std::memcpy(&bits, &mx, sizeof bits);
  const int field = static_cast<int>(bits >> 52);  // mx > 0 and finite
  int max_e = field - 1022;                        // frexp's exponent of a normal number
  if (field == 0 || field >= 2046) std::frexp(mx, &max_e);  // subnormal, or 2^-max_e subnormal
  if (max_e < -1023) {  // scaling by 2^-max_e would overflow: make subnormals normal first
    return kDblMin * vector_norm2(v0 / kDblMin, v1 / kDblMin, mx / kDblMin);
  }
  double scale;
  if (-max_e > -1022 && -max_e < 1024) {  // 2^-max_e is normal: build it
    const uint64_t sb = static_cast<uint64_t>(1023 - max_e) << 52;
    std::memcpy(&scale, &sb, sizeof scale);
  } else {
    scale = std::ldexp(1.0, -max_e);
  }
  // the two squares are independent: both first, then the ordered sums
  double h0, l0, h1, l1;
  two_square(v0 * scale, h0, l0);
  two_square(v1 * scale, h1, l1);
  double csum = 1.0, frac1 = 0.0, frac2 = 0.0;
  {
    const double s = csum + h0;  // |csum| >= |hi|: Dekker's fast two-sum
    const double slo = (csum - s) + h0;
    csum = s;
    frac1 += l0;
    frac2 += slo;
  }
  {
    const double s = csum + h1;
    const double slo = (csum - s) + h1;
    csum = s;
    frac1 += l1;
    frac2 += slo;
  }
  double h = std::sqrt(csum - 1.0 + (frac1 + frac2));
  double phi, plo;
  two_product(-h, h, phi, plo);
  const double s = csum + phi, slo = (csum - s) + phi;
  csum = s;
  frac1 += plo;
  frac2 += slo;
  const double x = csum - 1.0 + (frac1 + frac2);
  h += x / (2.0 * h);
  if (max_e > -1000 && max_e < 1000) {  // h / 2^-max_e is exact and normal: multiply by 2^max_e
    const uint64_t ib = static_cast<uint64_t>(1023 + max_e) << 52;
    double inv;
    std::memcpy(&inv, &ib, sizeof inv);
    return h * inv;
  }
  return h / scale;
}

// cv::RNG with a seed (_robust._CvRng)
struct Rng {
  uint64_t state;
  uint32_t next() {
    state = (state & 0xFFFFFFFFull) * 4164903690ull + (state >> 32);
    return static_cast<uint32_t>(state);
  }
};

}  // namespace

double psq_slow(double x) {
  volatile double two = 2.0;
  const double r = std::pow(x, static_cast<double>(two));
  if (std::isinf(r) && std::isfinite(x)) throw Fallback{};
  return r;
}

double py_hypot(double x, double y) {
  const double a = std::fabs(x), b = std::fabs(y);
  const bool nan = std::isnan(a) || std::isnan(b);
  double mx = 0.0;
  if (a > mx) mx = a;
  if (b > mx) mx = b;
  if (std::isinf(mx)) return mx;
  if (nan) return std::nan("");
  if (mx == 0.0) return mx;
  return vector_norm2(a, b, mx);
}

namespace {

// py_hypot of two independent pairs at once, written lane by lane so that the compiler runs them
// side by side (each lane's operations are exactly py_hypot's). Only for the common case: both
// arguments finite, the larger one normal and of exponent well inside the double range (the
// scale and its inverse are then exact powers of two built from bits); false otherwise.
bool py_hypot2(const double x[2], const double y[2], double out[2]) {
  double v0[2], v1[2], scale[2], unscale[2];
  for (int l = 0; l < 2; ++l) {
    v0[l] = std::fabs(x[l]), v1[l] = std::fabs(y[l]);
    double mx = 0.0;
    if (v0[l] > mx) mx = v0[l];
    if (v1[l] > mx) mx = v1[l];
    uint64_t bits;
    std::memcpy(&bits, &mx, sizeof bits);
    const int field = static_cast<int>(bits >> 52);  // NaN / inf: 2047; 0 and subnormals: 0
    if (field < 30 || field > 2000) return false;
    const int max_e = field - 1022;
    const uint64_t sb = static_cast<uint64_t>(1023 - max_e) << 52, ib = static_cast<uint64_t>(1023 + max_e) << 52;
    std::memcpy(&scale[l], &sb, sizeof sb);
    std::memcpy(&unscale[l], &ib, sizeof ib);
    if (std::isnan(v0[l]) || std::isnan(v1[l])) return false;
  }
  double h0[2], l0[2], h1[2], l1[2];
  for (int l = 0; l < 2; ++l) two_square(v0[l] * scale[l], h0[l], l0[l]);
  for (int l = 0; l < 2; ++l) two_square(v1[l] * scale[l], h1[l], l1[l]);
  double csum[2] = {1.0, 1.0}, frac1[2] = {0.0, 0.0}, frac2[2] = {0.0, 0.0}, h[2];
  for (int l = 0; l < 2; ++l) {
    const double s = csum[l] + h0[l];
    const double slo = (csum[l] - s) + h0[l];
    csum[l] = s;
    frac1[l] += l0[l];
    frac2[l] += slo;
  }
  for (int l = 0; l < 2; ++l) {
    const double s = csum[l] + h1[l];
    const double slo = (csum[l] - s) + h1[l];
    csum[l] = s;
    frac1[l] += l1[l];
    frac2[l] += slo;
  }
  for (int l = 0; l < 2; ++l) h[l] = std::sqrt(csum[l] - 1.0 + (frac1[l] + frac2[l]));
  for (int l = 0; l < 2; ++l) {
    double phi, plo;
    two_product(-h[l], h[l], phi, plo);
    const double s = csum[l] + phi, slo = (csum[l] - s) + phi;
    csum[l] = s;
    frac1[l] += plo;
    frac2[l] += slo;
  }
  for (int l = 0; l < 2; ++l) {
    const double xx = csum[l] - 1.0 + (frac1[l] + frac2[l]);
    h[l] += xx / (2.0 * h[l]);
    out[l] = h[l] * unscale[l];
  }
  return true;
}

}  // namespace

struct Step {
  int i1, j1, i2, j2;  // i2 < 0: a single rotation
};

// The cyclic Jacobi order of k columns as steps of one or two rotations. A rotation touches only
// its two columns (their values, norms and vt rows), so rotations of disjoint pairs commute
// exactly: each step takes the first pair not yet run and, where there is one, the next pair that
// is disjoint from it and from every pair still waiting before it (so hoisting it changes no
// bits). The columns are the same whatever the data, so the schedule is built once per k.
const std::vector<Step>& pair_schedule(int k) {
  static const std::vector<std::vector<Step>> all = [] {
    std::vector<std::vector<Step>> out(kMax + 1);
    for (int kk = 2; kk <= kMax; ++kk) {
      std::vector<std::pair<int, int>> left;
      for (int i = 0; i < kk - 1; ++i)
        for (int j = i + 1; j < kk; ++j) left.emplace_back(i, j);
      auto meets = [](std::pair<int, int> a, std::pair<int, int> b) {
        return a.first == b.first || a.first == b.second || a.second == b.first || a.second == b.second;
      };
      while (!left.empty()) {
        const auto a = left.front();
        size_t pick = 0;
        for (size_t c = 1; c < left.size() && !pick; ++c) {
          bool ok = !meets(a, left[c]);
          for (size_t d = 1; d < c && ok; ++d) ok = !meets(left[d], left[c]);
          if (ok) pick = c;
        }
        if (pick) {
          out[kk].push_back({a.first, a.second, left[pick].first, left[pick].second});
          left.erase(left.begin() + pick);
        } else {
          out[kk].push_back({a.first, a.second, -1, -1});
        }
        left.erase(left.begin());
      }
    }
    return out;
  }();
  return all[k];
}

void svd(const Mat& rows, Svd& out) {
  const int m = rows.rows, k = rows.cols;
  out.m = m, out.k = k;
  double at[kMax][kMax], vt[kMax][kMax], w[kMax];
  for (int j = 0; j < k; ++j)
    for (int q = 0; q < m; ++q) at[j][q] = rows.a[q][j];
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) vt[i][j] = i == j ? 1.0 : 0.0;
  for (int i = 0; i < k; ++i) {
    double sd = 0.0;
    for (int q = 0; q < m; ++q) sd += at[i][q] * at[i][q];
    w[i] = sd;
  }
  const double eps = 10 * kDblEps;
  const int sweeps = std::max(m, 30);
  bool changed = false;
  // One Jacobi rotation of columns i and j (and their w, vt rows): it reads and writes nothing
  // else, so rotations of disjoint column pairs commute exactly.
  auto rotate = [&](int i, int j) {
    double* ai = at[i];
    double* aj = at[j];
    double a = w[i], b = w[j], p = 0.0;
    for (int q = 0; q < m; ++q) p += ai[q] * aj[q];
    if (std::fabs(p) <= eps * psqrt(a * b)) return;
    p *= 2;
    const double beta = a - b;
    const double gamma = py_hypot(p, beta);
    double c, sn;
    if (beta < 0) {
      const double delta = (gamma - beta) * 0.5;
      sn = psqrt(pdiv(delta, gamma));
      c = pdiv(p, gamma * sn * 2);
    } else {
      c = psqrt(pdiv(gamma + beta, gamma * 2));
      sn = pdiv(p, gamma * c * 2);
    }
    a = b = 0.0;
    for (int q = 0; q < m; ++q) {
      const double t0 = c * ai[q] + sn * aj[q];
      const double t1 = -sn * ai[q] + c * aj[q];
      ai[q] = t0, aj[q] = t1;
    }
    for (int q = 0; q < m; ++q) {
      a += ai[q] * ai[q];
      b += aj[q] * aj[q];
    }
    w[i] = a, w[j] = b;
    changed = true;
    for (int q = 0; q < k; ++q) {
      const double x = vt[i][q], y = vt[j][q];
      vt[i][q] = c * x + sn * y;
      vt[j][q] = -sn * x + c * y;
    }
  };
  // Two rotations of disjoint column pairs, (i1, j1) and (i2, j2), side by side: the same
  // operations as rotate() on each, interleaved so that their latency chains overlap.
  auto rotate2 = [&](int i1, int j1, int i2, int j2) {
    const int I[2] = {i1, i2}, Jc[2] = {j1, j2};
    double p[2] = {0.0, 0.0};
    for (int q = 0; q < m; ++q)
      for (int l = 0; l < 2; ++l) p[l] += at[I[l]][q] * at[Jc[l]][q];
    bool go[2];
    for (int l = 0; l < 2; ++l) go[l] = !(std::fabs(p[l]) <= eps * psqrt(w[I[l]] * w[Jc[l]]));
    if (!go[0] || !go[1]) {  // at most one turns: the plain path (it recomputes its p: same bits)
      if (go[0]) rotate(i1, j1);
      if (go[1]) rotate(i2, j2);
      return;
    }
    double beta[2], gamma[2], c[2], sn[2];
    for (int l = 0; l < 2; ++l) p[l] *= 2, beta[l] = w[I[l]] - w[Jc[l]];
    if (!py_hypot2(p, beta, gamma))
      for (int l = 0; l < 2; ++l) gamma[l] = py_hypot(p[l], beta[l]);
    for (int l = 0; l < 2; ++l) {
      // beta < 0: sn = sqrt(((gamma - beta) * 0.5) / gamma), c = p / (gamma * sn * 2);
      // else:     c = sqrt((gamma + beta) / (gamma * 2)),    sn = p / (gamma * c * 2)
      const bool neg = beta[l] < 0;
      const double num = neg ? (gamma[l] - beta[l]) * 0.5 : gamma[l] + beta[l];
      const double den = neg ? gamma[l] : gamma[l] * 2;
      const double u = psqrt(pdiv(num, den));
      const double v = pdiv(p[l], gamma[l] * u * 2);
      sn[l] = neg ? u : v;
      c[l] = neg ? v : u;
    }
    for (int q = 0; q < m; ++q)
      for (int l = 0; l < 2; ++l) {
        double* ai = at[I[l]];
        double* aj = at[Jc[l]];
        const double t0 = c[l] * ai[q] + sn[l] * aj[q];
        const double t1 = -sn[l] * ai[q] + c[l] * aj[q];
        ai[q] = t0, aj[q] = t1;
      }
    double a[2] = {0.0, 0.0}, b[2] = {0.0, 0.0};
    for (int q = 0; q < m; ++q)
      for (int l = 0; l < 2; ++l) {
        a[l] += at[I[l]][q] * at[I[l]][q];
        b[l] += at[Jc[l]][q] * at[Jc[l]][q];
      }
    for (int l = 0; l < 2; ++l) w[I[l]] = a[l], w[Jc[l]] = b[l];
    changed = true;
    for (int q = 0; q < k; ++q)
      for (int l = 0; l < 2; ++l) {
        const double x = vt[I[l]][q], y = vt[Jc[l]][q];
        vt[I[l]][q] = c[l] * x + sn[l] * y;
        vt[Jc[l]][q] = -sn[l] * x + c[l] * y;
      }
  };
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    changed = false;
    // The reference's cyclic order (0, 1), (0, 2), ..., (1, 2), ..., two rotations at a time
    // (see pair_schedule): the bits are the cyclic order's, while two independent rotation
    // chains keep the core busy (each alone is one long latency chain).
    for (const Step& st : pair_schedule(k)) {
      if (st.i2 < 0) rotate(st.i1, st.j1);
      else rotate2(st.i1, st.j1, st.i2, st.j2);
    }
    if (!changed) break;
  }
  for (int i = 0; i < k; ++i) {
    double sd = 0.0;
    for (int q = 0; q < m; ++q) sd += at[i][q] * at[i][q];
    w[i] = psqrt(sd);
  }
  for (int i = 0; i < k - 1; ++i) {
    int j = i;
    for (int q = i + 1; q < k; ++q)
      if (w[j] < w[q]) j = q;
    if (i != j) {
      std::swap(w[i], w[j]);
      for (int q = 0; q < m; ++q) std::swap(at[i][q], at[j][q]);
      for (int q = 0; q < k; ++q) std::swap(vt[i][q], vt[j][q]);
    }
  }
  for (int i = 0; i < k; ++i) {
    out.w[i] = w[i];
    const double sd = w[i];
    if (sd > kDblMin) {
      const double inv = 1 / sd;
      for (int q = 0; q < m; ++q) out.us[i][q] = at[i][q] * inv;
    } else {
      for (int q = 0; q < m; ++q) out.us[i][q] = 0.0;
    }
    for (int q = 0; q < k; ++q) out.vs[i][q] = vt[i][q];
  }
}

void svd_cv(const Mat& rows, Svd& out) {
  svd(rows, out);
  const int m = rows.rows;
  Rng rng{0x12345678ull};
  const double eps = kDblEps * 10;
  for (int i = 0; i < out.k; ++i) {
    double sd = out.w[i];
    if (sd > kDblMin) continue;
    double vec[kMax];
    for (int q = 0; q < m; ++q) vec[q] = out.us[i][q];
    for (int tries = 0; tries < 100; ++tries) {
      const double val0 = 1.0 / m;
      for (int q = 0; q < m; ++q) vec[q] = (rng.next() & 256) ? val0 : -val0;
      for (int rep = 0; rep < 2; ++rep)
        for (int j = 0; j < i; ++j) {
          double d = 0.0;
          for (int q = 0; q < m; ++q) d += vec[q] * out.us[j][q];
          for (int q = 0; q < m; ++q) vec[q] = vec[q] - d * out.us[j][q];
          double asum = 0.0;
          for (int q = 0; q < m; ++q) asum += std::fabs(vec[q]);
          asum = asum > eps * 100 ? 1 / asum : 0.0;
          for (int q = 0; q < m; ++q) vec[q] = vec[q] * asum;
        }
      double ss = 0.0;
      for (int q = 0; q < m; ++q) ss += vec[q] * vec[q];
      sd = psqrt(ss);
      if (sd > kDblMin) break;
    }
    const double sc = sd > kDblMin ? 1 / sd : 0.0;
    for (int q = 0; q < m; ++q) out.us[i][q] = vec[q] * sc;
  }
}

void svd_solve(const Mat& rows, const double* rhs, double* x) {
  Svd s;
  svd(rows, s);
  double threshold = 0.0;
  for (int i = 0; i < s.k; ++i) threshold += s.w[i];
  threshold *= 2 * kDblEps;
  for (int j = 0; j < s.k; ++j) x[j] = 0.0;
  for (int i = 0; i < s.k; ++i) {
    const double wi = s.w[i];
    if (std::fabs(wi) <= threshold) continue;
    double coef = 0.0;
    for (int q = 0; q < s.m; ++q) coef += s.us[i][q] * rhs[q];
    coef *= pdiv(1, wi);
    for (int j = 0; j < s.k; ++j) x[j] = x[j] + coef * s.vs[i][j];
  }
}

void pinv3(const double m[3][3], double out[3][3]) {
  Mat a;
  a.rows = a.cols = 3;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a.a[i][j] = m[i][j];
  Svd s;
  svd(a, s);
  const double thr = ((0.0 + s.w[0] + s.w[1] + s.w[2]) * kDblEps) * 2;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double acc = 0.0;
      for (int k = 0; k < 3; ++k)
        if (s.w[k] > thr) acc += pdiv(s.vs[k][i] * s.us[k][j], s.w[k]);
      out[i][j] = acc;
    }
}

bool lstsq(const Mat& a, const double* b, double* x) {
  const int m = a.rows, n = a.cols;
  double r[kMax][kMax], y[kMax], v[kMax];
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) r[i][j] = a.a[i][j];
    y[i] = b[i];
  }
  for (int k = 0; k < n; ++k) {
    double ss = 0.0;
    for (int i = k; i < m; ++i) ss += psq(r[i][k]);
    const double norm = psqrt(ss);
    if (norm == 0) continue;
    const double alpha = r[k][k] > 0 ? -norm : norm;
    for (int i = 0; i < m; ++i) v[i] = 0.0;
    v[k] = r[k][k] - alpha;
    for (int i = k + 1; i < m; ++i) v[i] = r[i][k];
    double vn = 0.0;
    for (int i = k; i < m; ++i) vn += v[i] * v[i];
    if (vn == 0) continue;
    for (int j = k; j < n; ++j) {
      double s = 0.0;
      for (int i = k; i < m; ++i) s += v[i] * r[i][j];
      const double f = 2 * s / vn;
      for (int i = k; i < m; ++i) r[i][j] -= f * v[i];
    }
    double s = 0.0;
    for (int i = k; i < m; ++i) s += v[i] * y[i];
    const double f = 2 * s / vn;
    for (int i = k; i < m; ++i) y[i] -= f * v[i];
  }
  for (int i = n - 1; i >= 0; --i) {
    if (r[i][i] == 0) return false;
    double s = 0.0;
    for (int j = i + 1; j < n; ++j) s += r[i][j] * x[j];
    x[i] = (y[i] - s) / r[i][i];
  }
  return true;
}

bool gauss_solve(const double a[6][6], const double* b, int n, double* x) {
  double m[6][7];
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) m[i][j] = a[i][j];
    m[i][n] = b[i];
  }
  for (int c = 0; c < n; ++c) {
    int p = c;  // Python's max(): the first of the largest, replaced only by a strictly larger
    double best = std::fabs(m[c][c]);
    for (int r = c + 1; r < n; ++r) {
      const double v = std::fabs(m[r][c]);
      if (v > best) best = v, p = r;
    }
    if (m[p][c] == 0) return false;
    for (int q = 0; q <= n; ++q) std::swap(m[c][q], m[p][q]);
    for (int r = c + 1; r < n; ++r) {
      const double f = m[r][c] / m[c][c];
      if (f != 0)  // Python's `if f:` (NaN is true)
        for (int q = c; q <= n; ++q) m[r][q] -= f * m[c][q];
    }
  }
  for (int r = n - 1; r >= 0; --r) {
    double s = 0.0;
    for (int q = r + 1; q < n; ++q) s += m[r][q] * x[q];
    x[r] = (m[r][n] - s) / m[r][r];
  }
  return true;
}

void rodrigues_vec(const double r[3], double R[9], double J[27]) {
  double rx = r[0], ry = r[1], rz = r[2];
  for (int i = 0; i < 27; ++i) J[i] = 0.0;
  const double theta = psqrt(rx * rx + ry * ry + rz * rz);
  if (theta < kDblEps) {
    static const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int i = 0; i < 9; ++i) R[i] = eye[i];
    J[5] = J[15] = J[19] = -1.0;
    J[7] = J[11] = J[21] = 1.0;
    return;
  }
  if (std::isinf(theta)) throw Fallback{};  // math.cos(inf) raises
  const double c = std::cos(theta), s = std::sin(theta);
  const double c1 = 1.0 - c;
  const double it = 1.0 / theta;
  rx = rx * it, ry = ry * it, rz = rz * it;
  const double rrt[9] = {rx * rx, rx * ry, rx * rz, rx * ry, ry * ry, ry * rz, rx * rz, ry * rz, rz * rz};
  const double rcross[9] = {0.0, -rz, ry, rz, 0.0, -rx, -ry, rx, 0.0};
  const double eye[9] = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
  for (int k = 0; k < 9; ++k) R[k] = c * eye[k] + c1 * rrt[k] + s * rcross[k];
  const double drrt[27] = {rx + rx, ry, rz, ry, 0, 0, rz, 0, 0, 0, rx, 0, rx, ry + ry, rz, 0, rz, 0,
                           0,       0,  rx, 0,  0, ry, rx, ry, rz + rz};
  static const double dcross[27] = {0, 0, 0, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0,
                                    0, -1, 0, 1, 0, 0, 0, 0, 0};
  const double rs[3] = {rx, ry, rz};
  for (int i = 0; i < 3; ++i) {
    const double ri = rs[i];
    const double a0 = -s * ri, a1 = (s - 2 * c1 * it) * ri, a2 = c1 * it;
    const double a3 = (c - s * it) * ri, a4 = s * it;
    for (int k = 0; k < 9; ++k)
      J[i * 9 + k] = a0 * eye[k] + a1 * rrt[k] + a2 * drrt[i * 9 + k] + a3 * rcross[k] + a4 * dcross[i * 9 + k];
  }
}

void rodrigues_mat(const double v[9], double out[3]) {
  for (int i = 0; i < 9; ++i)
    if (!(-100 <= v[i] && v[i] < 100)) {  // cv2's checkRange: NaN or out of range gives zeros
      out[0] = out[1] = out[2] = 0.0;
      return;
    }
  Mat a;
  a.rows = a.cols = 3;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a.a[i][j] = v[3 * i + j];
  Svd s;
  svd(a, s);  // _svd3_polar: U * Vt
  double R[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double acc = 0.0;
      for (int k = 0; k < 3; ++k) acc += s.us[k][i] * s.vs[k][j];
      R[i][j] = acc;
    }
  double rx = R[2][1] - R[1][2], ry = R[0][2] - R[2][0], rz = R[1][0] - R[0][1];
  const double sn = psqrt((rx * rx + ry * ry + rz * rz) * 0.25);
  double c = (R[0][0] + R[1][1] + R[2][2] - 1) * 0.5;
  c = c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c;
  double theta = std::acos(c);
  if (sn < 1e-5) {
    if (c > 0) {
      rx = ry = rz = 0.0;
    } else {
      rx = psqrt(std::max((R[0][0] + 1) * 0.5, 0.0));
      ry = psqrt(std::max((R[1][1] + 1) * 0.5, 0.0)) * (R[0][1] < 0 ? -1.0 : 1.0);
      rz = psqrt(std::max((R[2][2] + 1) * 0.5, 0.0)) * (R[0][2] < 0 ? -1.0 : 1.0);
      if (std::fabs(rx) < std::fabs(ry) && std::fabs(rx) < std::fabs(rz) && (R[1][2] > 0) != (ry * rz > 0)) rz = -rz;
      theta = pdiv(theta, psqrt(rx * rx + ry * ry + rz * rz));
      rx = rx * theta, ry = ry * theta, rz = rz * theta;
    }
  } else {
    double vth = 1 / (2 * sn);
    vth *= theta;
    rx = rx * vth, ry = ry * vth, rz = rz * vth;
  }
  out[0] = rx, out[1] = ry, out[2] = rz;
}

}  // namespace mnn::ops::robust_pnp::detail
