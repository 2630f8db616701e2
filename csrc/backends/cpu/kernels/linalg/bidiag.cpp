// Householder bidiagonalisation (Golub-Kahan) and the blocked application of its reflectors.
//
// The reduction alternates a left reflector (zeroing a column below the diagonal) and a right one
// (zeroing a row right of the superdiagonal). The engine stores matrices row-major, so each step
// is two passes over the rows of the trailing matrix, each row a contiguous L1-resident vector:
// pass 1 accumulates w = A^T u (row axpys); pass 2 applies the left update to a row, and since row
// k is updated first, the right reflector is known by then, so the same pass applies the right
// update (one dot product and one axpy per row). This is LAPACK's unblocked dgebd2 restructured
// for row-major storage, at memory speed; the products with Q and P (which cost as much again)
// are blocked into GEMMs, below.
#include "backends/cpu/kernels/linalg/bidiag.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels/gemm.h"
#include "backends/cpu/kernels/linalg/jacobi_svd.h"  // axpy, dot

namespace mnn::cpu::linalg {

namespace {

// LAPACK's dlarfg on (alpha, x[0..len) with stride): returns tau, leaves beta in alpha and the
// reflector's tail (v[1..]) in x. tau = 0 (H = I) when x is already zero.
double householder(double& alpha, double* x, int64_t len, int64_t stride) {
  double xn2 = 0;
  for (int64_t i = 0; i < len; ++i) xn2 += x[i * stride] * x[i * stride];
  double sc = 1.0;  // unit of alpha, xn2 and beta below
  if (xn2 < 1e-200) {
    // the squares may have underflowed (a row of a graded matrix): a tau that does not match v
    // exactly would make H non-orthogonal, so redo the sums in units of the largest entry
    double xmax = std::fabs(alpha);
    for (int64_t i = 0; i < len; ++i) xmax = std::max(xmax, std::fabs(x[i * stride]));
    if (xmax == 0.0) return 0.0;
    sc = xmax;
    xn2 = 0;
    for (int64_t i = 0; i < len; ++i) xn2 += (x[i * stride] / sc) * (x[i * stride] / sc);
    if (xn2 == 0.0) return 0.0;  // below alpha by more than 1e150: H = I is exact to rounding
  }
  const double a = alpha / sc;
  const double beta = -std::copysign(std::sqrt(a * a + xn2), a);
  const double tau = (beta - a) / beta, scale = 1.0 / ((a - beta) * sc);
  for (int64_t i = 0; i < len; ++i) x[i * stride] *= scale;
  alpha = beta * sc;
  return tau;
}

constexpr int64_t kBlock = 32;  // reflectors per compact-WY block

// x (rows x cols, ldx) <- (H_0 ... H_{b-1}) x for b reflectors of length `rows`: reflector c is
// 1 at position c, 0 before, and elem(c, i) = base[i * si + c * sc] for i > c.
void apply_block(const double* base, int64_t si, int64_t sc, const double* tau, int64_t b, int64_t rows, double* x,
                 int64_t cols, int64_t ldx, std::vector<double>& yt, std::vector<double>& t, std::vector<double>& w,
                 std::vector<double>& w2) {
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
  gemm_f64(b, cols, b, t.data(), b, 1, w.data(), cols, 1, w2.data());         // W2 = T W
  for (double& v : w2) v = -v;
  gemm_f64_acc(rows, cols, b, yt.data(), 1, rows, w2.data(), cols, 1, x, ldx);  // X -= Y W2
}

}  // namespace

void bidiagonalize(double* a, int64_t m, int64_t n, double* d, double* e, double* tau_q, double* tau_p) {
  std::vector<double> w(n), v(n);
  for (int64_t k = 0; k < n; ++k) {
    double* colk = a + k * n + k;  // column k from row k, stride n
    const double tl = householder(colk[0], colk + n, m - k - 1, n);
    d[k] = colk[0];
    tau_q[k] = tl;
    if (k == n - 1) break;
    const int64_t wl = n - k - 1;
    double* rk = a + k * n + k + 1;
    std::fill(w.begin(), w.begin() + wl, 0.0);
    if (tl != 0.0) {
      // pass 1: w = tau A[k:, k+1:]^T u
      axpy(w.data(), rk, wl, 1.0);
      for (int64_t i = k + 1; i < m; ++i) axpy(w.data(), a + i * n + k + 1, wl, colk[(i - k) * n]);
      for (int64_t j = 0; j < wl; ++j) w[j] *= tl;
      axpy(rk, w.data(), wl, -1.0);
    }
    // the right reflector from the updated row k
    const double tr = householder(rk[0], rk + 1, wl - 1, 1);
    e[k] = rk[0];
    tau_p[k] = tr;
    v[0] = 1.0;
    std::copy(rk + 1, rk + wl, v.begin() + 1);
    if (tl == 0.0 && tr == 0.0) continue;
    // pass 2: left update, then right update, row by row
    for (int64_t i = k + 1; i < m; ++i) {
      double* ri = a + i * n + k + 1;
      if (tl != 0.0) axpy(ri, w.data(), wl, -colk[(i - k) * n]);
      if (tr != 0.0) axpy(ri, v.data(), wl, -tr * dot(ri, v.data(), wl));
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

}  // namespace mnn::cpu::linalg
