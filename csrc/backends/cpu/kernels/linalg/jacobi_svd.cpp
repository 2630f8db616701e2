// One-sided (Hestenes) Jacobi SVD: plane rotations applied to pairs of columns of A until every
// pair is orthogonal; the column norms are then the singular values, the normalised columns U,
// and the accumulated rotations V.
//
// Why this layout: the engine stores matrices row-major, so a column of A is strided and every
// pair visit would touch m cache lines per column. Here A is held transposed (each column of A is
// one contiguous row of W) and so is V, so a pair visit streams two contiguous rows through L1.
// The inner loops (dot products, the rotation, axpy) have AVX-512 and AVX2+FMA versions picked
// once from the CPU's features. Matrices of 16 or more columns are first reduced by QR with column
// pivoting and the sweeps run on R^T (preconditioned(), below), which needs fewer sweeps.
// Cost: ~11 sweeps of n^2/2 pair visits for a random 512x512 matrix, about 6x LAPACK's gesdd
// (bidiagonalisation + divide and conquer) on one thread, which svd_dc.cpp now follows; Jacobi
// remains for matrices under 20 columns (faster there) and the divide and conquer's leaves.
#include "backends/cpu/kernels/linalg/jacobi_svd.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace mnn::cpu::linalg {

namespace {

constexpr double kEps = 2.220446049250313e-16;

// out = (x.x, y.y, x.y) over n elements; (x, y) <- (c x - s y, s x + c y). Portable versions
// with 4 independent partial sums; x86 builds add AVX-512 and AVX2+FMA versions (below), chosen
// once from the CPU's features.
void dot3_base(const double* __restrict__ x, const double* __restrict__ y, int64_t n, double* out) {
  double a[4] = {}, b[4] = {}, g[4] = {};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) {
      const double xv = x[i + k], yv = y[i + k];
      a[k] += xv * xv;
      b[k] += yv * yv;
      g[k] += xv * yv;
    }
  double sa = (a[0] + a[1]) + (a[2] + a[3]), sb = (b[0] + b[1]) + (b[2] + b[3]), sg = (g[0] + g[1]) + (g[2] + g[3]);
  for (; i < n; ++i) {
    sa += x[i] * x[i];
    sb += y[i] * y[i];
    sg += x[i] * y[i];
  }
  out[0] = sa;
  out[1] = sb;
  out[2] = sg;
}

void rotate_base(double* __restrict__ x, double* __restrict__ y, int64_t n, double c, double s) {
  for (int64_t i = 0; i < n; ++i) {
    const double xv = x[i], yv = y[i];
    x[i] = c * xv - s * yv;
    y[i] = s * xv + c * yv;
  }
}

// x . y
double dot_base(const double* __restrict__ x, const double* __restrict__ y, int64_t n) {
  double g[4] = {};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) g[k] += x[i + k] * y[i + k];
  double sg = (g[0] + g[1]) + (g[2] + g[3]);
  for (; i < n; ++i) sg += x[i] * y[i];
  return sg;
}

// y += a x
void axpy_base(double* __restrict__ y, const double* __restrict__ x, int64_t n, double a) {
  for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f"))) double dot_avx512(const double* __restrict__ x, const double* __restrict__ y,
                                                      int64_t n) {
  __m512d g0 = _mm512_setzero_pd(), g1 = g0, g2 = g0, g3 = g0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    g0 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i), g0);
    g1 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 8), _mm512_loadu_pd(y + i + 8), g1);
    g2 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 16), _mm512_loadu_pd(y + i + 16), g2);
    g3 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 24), _mm512_loadu_pd(y + i + 24), g3);
  }
  for (; i + 8 <= n; i += 8) g0 = _mm512_fmadd_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i), g0);
  if (i < n) {
    const __mmask8 k = static_cast<__mmask8>((1u << (n - i)) - 1);
    g1 = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(k, x + i), _mm512_maskz_loadu_pd(k, y + i), g1);
  }
  alignas(64) double t[8];
  _mm512_store_pd(t, _mm512_add_pd(_mm512_add_pd(g0, g1), _mm512_add_pd(g2, g3)));
  return ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]));
}

__attribute__((target("avx2,fma"))) double hsum256(__m256d v);

__attribute__((target("avx2,fma"))) double dot_avx2(const double* __restrict__ x, const double* __restrict__ y,
                                                    int64_t n) {
  __m256d g0 = _mm256_setzero_pd(), g1 = g0, g2 = g0, g3 = g0;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    g0 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i), g0);
    g1 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 4), _mm256_loadu_pd(y + i + 4), g1);
    g2 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 8), _mm256_loadu_pd(y + i + 8), g2);
    g3 = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 12), _mm256_loadu_pd(y + i + 12), g3);
  }
  double sg = hsum256(_mm256_add_pd(_mm256_add_pd(g0, g1), _mm256_add_pd(g2, g3)));
  for (; i < n; ++i) sg += x[i] * y[i];
  return sg;
}

__attribute__((target("avx512f"))) void axpy_avx512(double* __restrict__ y, const double* __restrict__ x, int64_t n,
                                                     double a) {
  const __m512d va = _mm512_set1_pd(a);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(y + i, _mm512_fmadd_pd(va, _mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i)));
  if (i < n) {
    const __mmask8 k = static_cast<__mmask8>((1u << (n - i)) - 1);
    _mm512_mask_storeu_pd(y + i, k, _mm512_fmadd_pd(va, _mm512_maskz_loadu_pd(k, x + i), _mm512_maskz_loadu_pd(k, y + i)));
  }
}

__attribute__((target("avx2,fma"))) void axpy_avx2(double* __restrict__ y, const double* __restrict__ x, int64_t n,
                                                   double a) {
  const __m256d va = _mm256_set1_pd(a);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, _mm256_fmadd_pd(va, _mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i)));
  for (; i < n; ++i) y[i] += a * x[i];
}

__attribute__((target("avx512f"))) void dot3_avx512(const double* __restrict__ x, const double* __restrict__ y,
                                                     int64_t n, double* out) {
  __m512d a0 = _mm512_setzero_pd(), b0 = a0, g0 = a0, a1 = a0, b1 = a0, g1 = a0;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512d x0 = _mm512_loadu_pd(x + i), y0 = _mm512_loadu_pd(y + i);
    __m512d x1 = _mm512_loadu_pd(x + i + 8), y1 = _mm512_loadu_pd(y + i + 8);
    a0 = _mm512_fmadd_pd(x0, x0, a0);
    b0 = _mm512_fmadd_pd(y0, y0, b0);
    g0 = _mm512_fmadd_pd(x0, y0, g0);
    a1 = _mm512_fmadd_pd(x1, x1, a1);
    b1 = _mm512_fmadd_pd(y1, y1, b1);
    g1 = _mm512_fmadd_pd(x1, y1, g1);
  }
  if (i + 8 <= n) {
    __m512d x0 = _mm512_loadu_pd(x + i), y0 = _mm512_loadu_pd(y + i);
    a0 = _mm512_fmadd_pd(x0, x0, a0);
    b0 = _mm512_fmadd_pd(y0, y0, b0);
    g0 = _mm512_fmadd_pd(x0, y0, g0);
    i += 8;
  }
  if (i < n) {
    const __mmask8 k = static_cast<__mmask8>((1u << (n - i)) - 1);
    __m512d x0 = _mm512_maskz_loadu_pd(k, x + i), y0 = _mm512_maskz_loadu_pd(k, y + i);
    a1 = _mm512_fmadd_pd(x0, x0, a1);
    b1 = _mm512_fmadd_pd(y0, y0, b1);
    g1 = _mm512_fmadd_pd(x0, y0, g1);
  }
  alignas(64) double t[3][8];
  _mm512_store_pd(t[0], _mm512_add_pd(a0, a1));
  _mm512_store_pd(t[1], _mm512_add_pd(b0, b1));
  _mm512_store_pd(t[2], _mm512_add_pd(g0, g1));
  for (int r = 0; r < 3; ++r) out[r] = ((t[r][0] + t[r][1]) + (t[r][2] + t[r][3])) + ((t[r][4] + t[r][5]) + (t[r][6] + t[r][7]));
}

__attribute__((target("avx512f"))) void rotate_avx512(double* __restrict__ x, double* __restrict__ y, int64_t n,
                                                       double c, double s) {
  const __m512d vc = _mm512_set1_pd(c), vs = _mm512_set1_pd(s);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m512d xv = _mm512_loadu_pd(x + i), yv = _mm512_loadu_pd(y + i);
    _mm512_storeu_pd(x + i, _mm512_fmsub_pd(vc, xv, _mm512_mul_pd(vs, yv)));
    _mm512_storeu_pd(y + i, _mm512_fmadd_pd(vs, xv, _mm512_mul_pd(vc, yv)));
  }
  if (i < n) {
    const __mmask8 k = static_cast<__mmask8>((1u << (n - i)) - 1);
    __m512d xv = _mm512_maskz_loadu_pd(k, x + i), yv = _mm512_maskz_loadu_pd(k, y + i);
    _mm512_mask_storeu_pd(x + i, k, _mm512_fmsub_pd(vc, xv, _mm512_mul_pd(vs, yv)));
    _mm512_mask_storeu_pd(y + i, k, _mm512_fmadd_pd(vs, xv, _mm512_mul_pd(vc, yv)));
  }
}

__attribute__((target("avx2,fma"))) double hsum256(__m256d v) {
  __m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
  lo = _mm_add_pd(lo, hi);
  return _mm_cvtsd_f64(_mm_add_sd(lo, _mm_unpackhi_pd(lo, lo)));
}

__attribute__((target("avx2,fma"))) void dot3_avx2(const double* __restrict__ x, const double* __restrict__ y,
                                                   int64_t n, double* out) {
  __m256d a0 = _mm256_setzero_pd(), b0 = a0, g0 = a0, a1 = a0, b1 = a0, g1 = a0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256d x0 = _mm256_loadu_pd(x + i), y0 = _mm256_loadu_pd(y + i);
    __m256d x1 = _mm256_loadu_pd(x + i + 4), y1 = _mm256_loadu_pd(y + i + 4);
    a0 = _mm256_fmadd_pd(x0, x0, a0);
    b0 = _mm256_fmadd_pd(y0, y0, b0);
    g0 = _mm256_fmadd_pd(x0, y0, g0);
    a1 = _mm256_fmadd_pd(x1, x1, a1);
    b1 = _mm256_fmadd_pd(y1, y1, b1);
    g1 = _mm256_fmadd_pd(x1, y1, g1);
  }
  double sa = hsum256(_mm256_add_pd(a0, a1)), sb = hsum256(_mm256_add_pd(b0, b1)), sg = hsum256(_mm256_add_pd(g0, g1));
  for (; i < n; ++i) {
    sa += x[i] * x[i];
    sb += y[i] * y[i];
    sg += x[i] * y[i];
  }
  out[0] = sa;
  out[1] = sb;
  out[2] = sg;
}

__attribute__((target("avx2,fma"))) void rotate_avx2(double* __restrict__ x, double* __restrict__ y, int64_t n,
                                                     double c, double s) {
  const __m256d vc = _mm256_set1_pd(c), vs = _mm256_set1_pd(s);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    __m256d xv = _mm256_loadu_pd(x + i), yv = _mm256_loadu_pd(y + i);
    _mm256_storeu_pd(x + i, _mm256_fmsub_pd(vc, xv, _mm256_mul_pd(vs, yv)));
    _mm256_storeu_pd(y + i, _mm256_fmadd_pd(vs, xv, _mm256_mul_pd(vc, yv)));
  }
  for (; i < n; ++i) {
    const double xv = x[i], yv = y[i];
    x[i] = c * xv - s * yv;
    y[i] = s * xv + c * yv;
  }
}
#endif

struct Ops {
  void (*dot3)(const double*, const double*, int64_t, double*);
  void (*rotate)(double*, double*, int64_t, double, double);
  void (*axpy)(double*, const double*, int64_t, double);
  double (*dot)(const double*, const double*, int64_t);
};

const Ops& ops() {
  static const Ops o = [] {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return Ops{dot3_avx512, rotate_avx512, axpy_avx512, dot_avx512};
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Ops{dot3_avx2, rotate_avx2, axpy_avx2, dot_avx2};
#endif
    return Ops{dot3_base, rotate_base, axpy_base, dot_base};
  }();
  return o;
}

// Extends the orthonormal columns of u (rows x cols, the first `have` valid) to a full orthonormal
// basis, trying the standard basis vectors in turn (twice-orthogonalised Gram-Schmidt).
void complete_basis(std::vector<double>& u, int64_t rows, int64_t cols, int64_t have) {
  for (int64_t e = 0; have < cols && e < rows; ++e) {
    std::vector<double> x(rows, 0.0);
    x[e] = 1.0;
    for (int pass = 0; pass < 2; ++pass)
      for (int64_t c = 0; c < have; ++c) {
        double d = 0;
        for (int64_t i = 0; i < rows; ++i) d += u[i * cols + c] * x[i];
        for (int64_t i = 0; i < rows; ++i) x[i] -= d * u[i * cols + c];
      }
    double nrm = 0;
    for (double t : x) nrm += t * t;
    nrm = std::sqrt(nrm);
    if (nrm < 1e-8) continue;
    for (int64_t i = 0; i < rows; ++i) u[i * cols + have] = x[i] / nrm;
    ++have;
  }
}

}  // namespace

namespace {

// Jacobi sweeps over the n rows of w (each of length len; row j is column j of the matrix being
// orthogonalised), accumulating the rotations into the rows of vt (n x n) when vt is given.
// noise2: squared norm below which a column is rounding noise (pairs with it count as
// converged, since rotating them never meets the relative test). Returns true on convergence.
bool run_sweeps(double* w, int64_t len, int64_t n, double* vt, double noise2) {
  if (n <= 1) return true;
  // LAPACK dgesvj's threshold: a pair counts as orthogonal when |cos angle| <= sqrt(len) eps.
  const double tol = kEps * std::sqrt(static_cast<double>(len));
  const Ops& k = ops();
  // Pairs are visited block by block: all pairs between column blocks I <= J, with blocks small
  // enough that both (their W and V rows) stay in L2 while their pairs are visited. Any such
  // ordering of all pairs per sweep converges like the cyclic one.
  const int64_t row_bytes = (len + (vt ? n : 0)) * static_cast<int64_t>(sizeof(double));
  const int64_t bs = std::max<int64_t>(4, std::min<int64_t>(n, (int64_t(192) << 10) / std::max<int64_t>(1, row_bytes)));
  // Squared column norms are tracked through the rotations (|p|^2 -= t g, |q|^2 += t g, as
  // LAPACK's dgesvj does), so a pair visit needs one dot product, not three; they are recomputed
  // exactly at every sweep and whenever an update lost half of a norm (cancellation).
  std::vector<double> nrm(n);
  auto exact = [&](int64_t j) { return k.dot(w + j * len, w + j * len, len); };
  auto visit = [&](int64_t p, int64_t q, bool& rotated) {
    double* wp = w + p * len;
    double* wq = w + q * len;
    const double alpha = nrm[p], beta = nrm[q];
    if (alpha <= noise2 || beta <= noise2) return;
    const double gamma = k.dot(wp, wq, len);
    if (gamma == 0.0 || std::fabs(gamma) <= tol * std::sqrt(alpha) * std::sqrt(beta)) return;
    rotated = true;
    const double zeta = (beta - alpha) / (2 * gamma);
    const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
    const double c = 1 / std::sqrt(1 + t * t), sn = c * t;
    k.rotate(wp, wq, len, c, sn);
    if (vt) k.rotate(vt + p * n, vt + q * n, n, c, sn);
    const double np = alpha - t * gamma, nq = beta + t * gamma;
    nrm[p] = np < 0.5 * alpha ? exact(p) : np;
    nrm[q] = nq < 0.5 * beta ? exact(q) : nq;
  };
  for (int sweep = 0; sweep < 80; ++sweep) {
    bool rotated = false;
    for (int64_t j = 0; j < n; ++j) nrm[j] = exact(j);
    for (int64_t i0 = 0; i0 < n; i0 += bs) {
      const int64_t i1 = std::min(n, i0 + bs);
      for (int64_t p = i0; p < i1; ++p)
        for (int64_t q = p + 1; q < i1; ++q) visit(p, q, rotated);
      for (int64_t j0 = i1; j0 < n; j0 += bs) {
        const int64_t j1 = std::min(n, j0 + bs);
        for (int64_t p = i0; p < i1; ++p)
          for (int64_t q = j0; q < j1; ++q) visit(p, q, rotated);
      }
    }
    if (!rotated) return true;
  }
  return false;
}

// The rows of w (n of length len) sorted by decreasing norm: the singular values, and the order.
void norms_order(const double* w, int64_t len, int64_t n, std::vector<double>& s, std::vector<int64_t>& order) {
  std::vector<double> norms(n);
  for (int64_t j = 0; j < n; ++j) {
    double t = 0;
    const double* wj = w + j * len;
    for (int64_t i = 0; i < len; ++i) t += wj[i] * wj[i];
    norms[j] = std::sqrt(t);
  }
  order.resize(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return norms[x] > norms[y]; });
  s.resize(n);
  for (int64_t j = 0; j < n; ++j) s[j] = norms[order[j]];
}

// out (len x len, row-major) gets columns w[order[j]] / s[j] while s[j] is not negligible, then
// completes an orthonormal basis.
void normalised_columns(const double* w, int64_t len, int64_t n, const std::vector<double>& s,
                        const std::vector<int64_t>& order, double tiny, std::vector<double>& out) {
  out.assign(len * len, 0.0);
  int64_t have = 0;
  std::vector<double> x(len);
  for (int64_t j = 0; j < n && s[j] > tiny && have == j; ++j, ++have) {
    const double* wc = w + order[j] * len;
    for (int64_t i = 0; i < len; ++i) x[i] = wc[i] / s[j];
    // w carries rounding of order eps |A|, so w / s drifts from orthogonal as s gets small;
    // reorthogonalising (twice) against the larger ones moves the product by O(eps |A|) only
    for (int pass = 0; pass < 2 && j > 0; ++pass) {
      for (int64_t c = 0; c < j; ++c) {
        double dt = 0;
        for (int64_t i = 0; i < len; ++i) dt += out[i * len + c] * x[i];
        for (int64_t i = 0; i < len; ++i) x[i] -= dt * out[i * len + c];
      }
      double nrm = 0;
      for (double t : x) nrm += t * t;
      nrm = 1.0 / std::sqrt(nrm);
      for (double& t : x) t *= nrm;
    }
    for (int64_t i = 0; i < len; ++i) out[i * len + j] = x[i];
  }
  complete_basis(out, len, len, have);
}

// Plain one-sided Jacobi on A itself (small matrices).
bool plain(const std::vector<double>& a, int64_t m, int64_t n, std::vector<double>& u, std::vector<double>& s,
           std::vector<double>& v, bool want_vectors, double noise2) {
  std::vector<double> w(n * m), vt;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) w[j * m + i] = a[i * n + j];
  if (want_vectors) {
    vt.assign(n * n, 0.0);
    for (int64_t i = 0; i < n; ++i) vt[i * n + i] = 1.0;
  }
  const bool converged = run_sweeps(w.data(), m, n, want_vectors ? vt.data() : nullptr, noise2);
  std::vector<int64_t> order;
  norms_order(w.data(), m, n, s, order);
  if (!want_vectors) return converged;
  v.assign(n * n, 0.0);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) v[i * n + j] = vt[order[j] * n + i];
  normalised_columns(w.data(), m, n, s, order, s.empty() ? 0.0 : s[0] * kEps * std::max(m, n), u);
  return converged;
}

// Preconditioned Jacobi (Drmac and Veselic): A P = Q R by Householder QR with column pivoting,
// then Jacobi on X = R^T, whose columns are already nearly orthogonal and sorted by norm, so it
// converges in a few sweeps instead of a dozen. With X V_x = U_x S:
// A = (Q V_x) S (P U_x)^T, i.e. U = Q [V_x 0; 0 I] and V = P U_x.
bool preconditioned(const std::vector<double>& a, int64_t m, int64_t n, std::vector<double>& u,
                    std::vector<double>& s, std::vector<double>& v, bool want_vectors, double noise2) {
  const Ops& k = ops();
  std::vector<double> w(n * m);  // row j: column j of A, then of the partially reduced matrix
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) w[j * m + i] = a[i * n + j];
  std::vector<int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<double> rest(n);  // squared norm of rows k.. of each remaining column
  double d3[3];
  for (int64_t j = 0; j < n; ++j) {
    k.dot3(w.data() + j * m, w.data() + j * m, m, d3);
    rest[j] = d3[0];
  }
  std::vector<double> hv(n * m, 0.0), tau(n, 0.0);  // reflector k: hv[k*m + k..m), v[k] = 1
  for (int64_t c = 0; c < n; ++c) {
    int64_t p = c;
    for (int64_t j = c + 1; j < n; ++j)
      if (rest[j] > rest[p]) p = j;
    if (p != c) {
      std::swap_ranges(w.begin() + c * m, w.begin() + (c + 1) * m, w.begin() + p * m);
      std::swap(perm[c], perm[p]);
      std::swap(rest[c], rest[p]);
    }
    double* x = w.data() + c * m;
    const int64_t len = m - c;
    double xn2 = 0;
    for (int64_t i = c + 1; i < m; ++i) xn2 += x[i] * x[i];
    double* hvc = hv.data() + c * m + c;
    if (xn2 == 0.0) {  // nothing below the diagonal: H = I
      tau[c] = 0.0;
      for (int64_t j = c + 1; j < n; ++j) rest[j] = std::max(0.0, rest[j] - w[j * m + c] * w[j * m + c]);
      continue;
    }
    double alpha = x[c], unit = 1.0;
    if (xn2 < 1e-200) {  // the squares may have underflowed: redo them in units of the largest entry
      unit = std::fabs(alpha);
      for (int64_t i = c + 1; i < m; ++i) unit = std::max(unit, std::fabs(x[i]));
      xn2 = 0;
      for (int64_t i = c + 1; i < m; ++i) xn2 += (x[i] / unit) * (x[i] / unit);
      alpha /= unit;
    }
    const double beta = -std::copysign(std::sqrt(alpha * alpha + xn2), alpha);
    tau[c] = (beta - alpha) / beta;
    const double scale = 1.0 / ((alpha - beta) * unit);
    hvc[0] = 1.0;
    for (int64_t i = 1; i < len; ++i) hvc[i] = x[c + i] * scale;
    x[c] = beta * unit;
    for (int64_t i = c + 1; i < m; ++i) x[i] = 0.0;
    for (int64_t j = c + 1; j < n; ++j) {
      double* y = w.data() + j * m + c;
      k.dot3(hvc, y, len, d3);
      k.axpy(y, hvc, len, -tau[c] * d3[2]);
      rest[j] = std::max(0.0, d3[1] - y[0] * y[0]);
    }
  }
  // X = R^T: column i of X (row i of xw) is row i of R, i.e. element j of it is w[j][i], j >= i.
  std::vector<double> xw(n * n, 0.0), vt;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i; j < n; ++j) xw[i * n + j] = w[j * m + i];
  if (want_vectors) {
    vt.assign(n * n, 0.0);
    for (int64_t i = 0; i < n; ++i) vt[i * n + i] = 1.0;
  }
  const bool converged = run_sweeps(xw.data(), n, n, want_vectors ? vt.data() : nullptr, noise2);
  std::vector<int64_t> order;
  norms_order(xw.data(), n, n, s, order);
  if (!want_vectors) return converged;
  // V = P U_x
  std::vector<double> ux;
  normalised_columns(xw.data(), n, n, s, order, s.empty() ? 0.0 : s[0] * kEps * std::max(m, n), ux);
  v.assign(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) std::copy(ux.begin() + i * n, ux.begin() + (i + 1) * n, v.begin() + perm[i] * n);
  // U = H_0 ... H_{n-1} [V_x 0; 0 I], built column by column (row j of mt is column j of U).
  std::vector<double> mt(m * m, 0.0);
  for (int64_t j = 0; j < m; ++j) {
    double* col = mt.data() + j * m;
    if (j < n) std::copy(vt.begin() + order[j] * n, vt.begin() + (order[j] + 1) * n, col);
    else col[j] = 1.0;
  }
  for (int64_t c = n - 1; c >= 0; --c) {
    if (tau[c] == 0.0) continue;
    const double* hvc = hv.data() + c * m + c;
    // columns j >= n with j < c are still e_j, zero in rows c.., so H_c leaves them alone
    for (int64_t j = 0; j < m; ++j) {
      if (j >= n && j < c) continue;
      double* y = mt.data() + j * m + c;
      k.dot3(hvc, y, m - c, d3);
      k.axpy(y, hvc, m - c, -tau[c] * d3[2]);
    }
  }
  u.assign(m * m, 0.0);
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < m; ++i) u[i * m + j] = mt[j * m + i];
  return converged;
}

}  // namespace

void axpy(double* y, const double* x, int64_t n, double a) { ops().axpy(y, x, n, a); }

double dot(const double* x, const double* y, int64_t n) { return ops().dot(x, y, n); }

bool jacobi_svd_tall(const std::vector<double>& a, int64_t m, int64_t n, std::vector<double>& u,
                     std::vector<double>& s, std::vector<double>& v, bool want_vectors) {
  double frob2 = 0;
  for (double x : a) frob2 += x * x;
  const double noise2 = kEps * kEps * frob2;
  if (n < 16) return plain(a, m, n, u, s, v, want_vectors, noise2);
  return preconditioned(a, m, n, u, s, v, want_vectors, noise2);
}

}  // namespace mnn::cpu::linalg
