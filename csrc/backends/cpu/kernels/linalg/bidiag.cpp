// Householder bidiagonalisation (Golub-Kahan) and the blocked application of its reflectors.
//
// The reduction alternates a left reflector (zeroing a column below the diagonal) and a right one
// (zeroing a row right of the superdiagonal). The engine stores matrices row-major, so a step is
// one pass over the rows of the trailing matrix, each row a contiguous L1-resident vector: the
// pass applies the left update to a row, then the right one (row k is updated first, so the right
// reflector is known by then: one dot product and one axpy per row), and it also accumulates
// x^T A for the next step, x being the next column below its first row, so the next left
// reflector's A^T u needs no pass of its own (u is x scaled, plus a unit first entry). Unblocked
// LAPACK dgebd2 reads the trailing matrix three times a step; this reads and writes it once,
// which is what bounds the reduction (it is memory-bound beyond L2). The products with Q and P,
// which cost as much again in flops, are blocked into GEMMs (compact WY), below.
#include "backends/cpu/kernels/linalg/bidiag.h"

#include <algorithm>
#include <cmath>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "backends/cpu/kernels/gemm.h"
#include "backends/cpu/kernels/linalg/jacobi_svd.h"  // axpy, dot

namespace mnn::cpu::linalg {

namespace {

// LAPACK's dlarfg on (alpha, x[0..len) with stride): returns tau, leaves beta in alpha and the
// reflector's tail (v[1..]) in x, x times mult. tau = 0 (H = I) when x is already zero.
double householder(double& alpha, double* x, int64_t len, int64_t stride, double& mult) {
  double xn2 = 0;
  for (int64_t i = 0; i < len; ++i) xn2 += x[i * stride] * x[i * stride];
  double sc = 1.0;  // unit of alpha, xn2 and beta below
  if (xn2 < 1e-200) {
    // the squares may have underflowed (a row of a graded matrix): a tau that does not match v
    // exactly would make H non-orthogonal, so redo the sums in units of the largest entry
    double xmax = std::fabs(alpha);
    for (int64_t i = 0; i < len; ++i) xmax = std::max(xmax, std::fabs(x[i * stride]));
    // the caller scales a to max 1: entries this small are far below its rounding, and beyond
    // them 1 / (alpha - beta) could overflow
    if (xmax < 1e-290) return 0.0;
    sc = xmax;
    xn2 = 0;
    for (int64_t i = 0; i < len; ++i) xn2 += (x[i * stride] / sc) * (x[i * stride] / sc);
    if (xn2 == 0.0) return 0.0;  // below alpha by more than 1e150: H = I is exact to rounding
  }
  const double a = alpha / sc;
  const double beta = -std::copysign(std::sqrt(a * a + xn2), a);
  const double tau = (beta - a) / beta, scale = 1.0 / ((a - beta) * sc);
  for (int64_t i = 0; i < len; ++i) x[i * stride] *= scale;
  mult = scale;
  alpha = beta * sc;
  return tau;
}

// The row kernels of the reduction's single pass (an AVX2+FMA version and a portable one; the
// pass is bound by memory traffic, so wider vectors would not pay):
//   axpy_dot: r += c w (c may be 0), then returns r . v;
//   axpy_acc: r -= t v, then (when acc) acc[j-1] += r[0] r[j] for j >= 1.
void axpy_dot_base(double* r, const double* w, double c, const double* v, int64_t n, double& out) {
  if (c != 0.0) axpy(r, w, n, c);
  out = dot(r, v, n);
}
double axpy_dot_base_r(double* r, const double* w, double c, const double* v, int64_t n) {
  double o;
  axpy_dot_base(r, w, c, v, n, o);
  return o;
}
void axpy_acc_base(double* __restrict__ r, const double* __restrict__ v, double t, int64_t n, double* __restrict__ acc) {
  if (t != 0.0) axpy(r, v, n, -t);
  if (acc && n > 1) axpy(acc, r + 1, n - 1, r[0]);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2,fma"))) double axpy_dot_avx2(double* __restrict__ r, const double* __restrict__ w,
                                                         double c, const double* __restrict__ v, int64_t n) {
  const __m256d vc = _mm256_set1_pd(c);
  __m256d s0 = _mm256_setzero_pd(), s1 = s0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256d x0 = _mm256_fmadd_pd(vc, _mm256_loadu_pd(w + i), _mm256_loadu_pd(r + i));
    __m256d x1 = _mm256_fmadd_pd(vc, _mm256_loadu_pd(w + i + 4), _mm256_loadu_pd(r + i + 4));
    _mm256_storeu_pd(r + i, x0);
    _mm256_storeu_pd(r + i + 4, x1);
    s0 = _mm256_fmadd_pd(x0, _mm256_loadu_pd(v + i), s0);
    s1 = _mm256_fmadd_pd(x1, _mm256_loadu_pd(v + i + 4), s1);
  }
  alignas(32) double t[4];
  _mm256_store_pd(t, _mm256_add_pd(s0, s1));
  double sum = (t[0] + t[1]) + (t[2] + t[3]);
  for (; i < n; ++i) {
    r[i] += c * w[i];
    sum += r[i] * v[i];
  }
  return sum;
}

__attribute__((target("avx2,fma"))) void axpy_acc_avx2(double* __restrict__ r, const double* __restrict__ v, double t,
                                                       int64_t n, double* __restrict__ acc) {
  const double r0 = r[0] - t * v[0];
  r[0] = r0;
  const __m256d vt = _mm256_set1_pd(-t), vr = _mm256_set1_pd(r0);
  r += 1;
  v += 1;
  n -= 1;
  int64_t i = 0;
  if (acc) {
    for (; i + 4 <= n; i += 4) {
      __m256d x = _mm256_fmadd_pd(vt, _mm256_loadu_pd(v + i), _mm256_loadu_pd(r + i));
      _mm256_storeu_pd(r + i, x);
      _mm256_storeu_pd(acc + i, _mm256_fmadd_pd(vr, x, _mm256_loadu_pd(acc + i)));
    }
    for (; i < n; ++i) {
      r[i] -= t * v[i];
      acc[i] += r0 * r[i];
    }
  } else if (t != 0.0) {
    for (; i + 4 <= n; i += 4)
      _mm256_storeu_pd(r + i, _mm256_fmadd_pd(vt, _mm256_loadu_pd(v + i), _mm256_loadu_pd(r + i)));
    for (; i < n; ++i) r[i] -= t * v[i];
  }
}
#endif

struct RowOps {
  double (*axpy_dot)(double*, const double*, double, const double*, int64_t);
  void (*axpy_acc)(double*, const double*, double, int64_t, double*);
};

const RowOps& row_ops() {
  static const RowOps o = [] {
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return RowOps{axpy_dot_avx2, axpy_acc_avx2};
#endif
    return RowOps{axpy_dot_base_r, axpy_acc_base};
  }();
  return o;
}

constexpr int64_t kBlock = 64;  // reflectors per compact-WY block

// x (rows x cols, ldx) <- (H_0 ... H_{b-1}) x for b reflectors of length `rows`: reflector c is
// 1 at position c, 0 before, and elem(c, i) = base[i * si + c * sc] for i > c.
void apply_block(const double* base, int64_t si, int64_t sc, const double* tau, int64_t b, int64_t rows, double* x,
                 int64_t cols, int64_t ldx, std::vector<double>& yt, std::vector<double>& t, std::vector<double>& w,
                 std::vector<double>& w2, bool transpose = false) {
  // Y^T (b x rows), explicit unit diagonal and zeros
  yt.assign(b * rows, 0.0);
  for (int64_t c = 0; c < b; ++c) {
    double* y = yt.data() + c * rows;
    y[c] = 1.0;
    for (int64_t i = c + 1; i < rows; ++i) y[i] = base[i * si + c * sc];
  }
  // T (b x b upper triangular) with H_0 ... H_{b-1} = I - Y T Y^T (dlarft, forward, columnwise)
  t.assign(b * b, 0.0);
  for (int64_t i = 0; i < b; ++i) {
    t[i * b + i] = tau[i];
    if (tau[i] == 0.0) continue;
    for (int64_t j = 0; j < i; ++j)  // t[j][i] = -tau_i (y_j . y_i), y_i is zero before i
      t[j * b + i] = -tau[i] * dot(yt.data() + j * rows + i, yt.data() + i * rows + i, rows - i);
    for (int64_t j = 0; j < i; ++j) {  // t[0:i, i] = T[0:i, 0:i] t[0:i, i]
      double s = 0;
      for (int64_t l = j; l < i; ++l) s += t[j * b + l] * t[l * b + i];
      t[j * b + i] = s;
    }
  }
  w.resize(b * cols);
  w2.resize(b * cols);
  gemm_f64(b, cols, rows, yt.data(), rows, 1, x, ldx, 1, w.data());           // W = Y^T X
  if (transpose)  // (H_0 ... H_{b-1})^T = I - Y T^T Y^T
    gemm_f64(b, cols, b, t.data(), 1, b, w.data(), cols, 1, w2.data());       // W2 = T^T W
  else
    gemm_f64(b, cols, b, t.data(), b, 1, w.data(), cols, 1, w2.data());       // W2 = T W
  for (double& v : w2) v = -v;
  gemm_f64_acc(rows, cols, b, yt.data(), 1, rows, w2.data(), cols, 1, x, ldx);  // X -= Y W2
}

}  // namespace

void bidiagonalize(double* a, int64_t m, int64_t n, double* d, double* e, double* tau_q, double* tau_p) {
  const RowOps& ops = row_ops();
  std::vector<double> w(n), v(n), acc(n, 0.0);
  double mult = 0;
  for (int64_t k = 0; k < n; ++k) {
    double* colk = a + k * n + k;  // column k from row k, stride n
    const double tl = householder(colk[0], colk + n, m - k - 1, n, mult);
    d[k] = colk[0];
    tau_q[k] = tl;
    if (k == n - 1) break;
    const int64_t wl = n - k - 1;
    double* rk = a + k * n + k + 1;
    if (tl != 0.0) {
      // w = tau A[k:, k+1:]^T u, u = (1, mult x): the previous step's pass accumulated x^T A
      if (k == 0) {
        std::fill(acc.begin(), acc.begin() + wl, 0.0);
        for (int64_t i = k + 1; i < m; ++i) axpy(acc.data(), a + i * n + k + 1, wl, a[i * n + k] / mult);
      }
      for (int64_t j = 0; j < wl; ++j) w[j] = tl * (rk[j] + mult * acc[j]);
      axpy(rk, w.data(), wl, -1.0);
    }
    // the right reflector from the updated row k
    const double tr = householder(rk[0], rk + 1, wl - 1, 1, mult);
    e[k] = rk[0];
    tau_p[k] = tr;
    v[0] = 1.0;
    std::copy(rk + 1, rk + wl, v.begin() + 1);
    // One pass over the rows below: left update, right update, and x^T A for the next step's
    // left reflector (x: the next column below its first row, A: the rest of each row).
    std::fill(acc.begin(), acc.begin() + wl - 1, 0.0);
    for (int64_t i = k + 1; i < m; ++i) {
      double* ri = a + i * n + k + 1;
      const double y = ops.axpy_dot(ri, w.data(), tl != 0.0 ? -colk[(i - k) * n] : 0.0, v.data(), wl);
      ops.axpy_acc(ri, v.data(), tr * y, wl, i > k + 1 ? acc.data() : nullptr);
    }
  }
}

void apply_q(const double* a, int64_t m, int64_t n, const double* tau_q, double* x, int64_t cols, int64_t ldx) {
  std::vector<double> yt, t, w, w2;
  const int64_t nref = std::min(n, m - 1);  // reflector m-1 (when m == n) is the identity
  if (nref <= 0) return;
  for (int64_t j0 = (nref - 1) / kBlock * kBlock; j0 >= 0; j0 -= kBlock) {
    const int64_t b = std::min(kBlock, nref - j0);
    apply_block(a + j0 * n + j0, n, 1, tau_q + j0, b, m - j0, x + j0 * ldx, cols, ldx, yt, t, w, w2);
  }
}

void apply_p(const double* a, int64_t n, const double* tau_p, double* x, int64_t cols, int64_t ldx) {
  std::vector<double> yt, t, w, w2;
  const int64_t nref = n - 2;  // G_{n-2} acts on one row: the identity
  if (nref <= 0) return;
  for (int64_t j0 = (nref - 1) / kBlock * kBlock; j0 >= 0; j0 -= kBlock) {
    const int64_t b = std::min(kBlock, nref - j0);
    apply_block(a + j0 * n + j0 + 1, 1, n, tau_p + j0, b, n - 1 - j0, x + (j0 + 1) * ldx, cols, ldx, yt, t, w, w2);
  }
}

// QR panel width: the panel is factored with matrix-vector work, the rest of the matrix by GEMMs,
// so narrower than the back-transformation's blocks
constexpr int64_t kQrPanel = 32;

void qr_householder(double* a, int64_t m, int64_t n, double* tau) {
  std::vector<double> yt, t, w, w2, panel;
  double mult = 0;
  const int64_t nref = std::min(n, m - 1);
  std::fill(tau, tau + n, 0.0);
  for (int64_t j0 = 0; j0 < nref; j0 += kQrPanel) {
    const int64_t b = std::min(kQrPanel, nref - j0), pend = j0 + b;
    // the panel (columns j0..j0+b-1, rows j0..m-1), one reflector at a time, on a column-major
    // copy: each column contiguous, so the reflector's dot products and updates run over long
    // vectors instead of one short row at a time
    const int64_t rows = m - j0;
    panel.resize(b * rows);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t c = 0; c < b; ++c) panel[c * rows + i] = a[(j0 + i) * n + j0 + c];
    for (int64_t c = 0; c < b; ++c) {
      double* col = panel.data() + c * rows;
      const int64_t len = rows - c - 1;
      const double tk = householder(col[c], col + c + 1, len, 1, mult);
      tau[j0 + c] = tk;
      if (tk == 0.0) continue;
      for (int64_t c2 = c + 1; c2 < b; ++c2) {  // H = I - tau u u^T, u = (1, col[c+1..])
        double* x = panel.data() + c2 * rows;
        const double wv = tk * (x[c] + dot(col + c + 1, x + c + 1, len));
        x[c] -= wv;
        axpy(x + c + 1, col + c + 1, len, -wv);
      }
    }
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t c = 0; c < b; ++c) a[(j0 + i) * n + j0 + c] = panel[c * rows + i];
    // the trailing columns get the block's Q^T = (H_j0 ... H_{j0+b-1})^T as GEMMs (compact WY)
    if (pend < n)
      apply_block(a + j0 * n + j0, n, 1, tau + j0, b, m - j0, a + j0 * n + pend, n - pend, n, yt, t, w, w2, true);
  }
}

}  // namespace mnn::cpu::linalg
