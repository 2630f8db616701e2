// CPU kernels of the dense decompositions (shape rules and packing: ops/linalg/decompositions.cpp).
// Each matrix of a stack is copied into double precision, factored there and written back in the
// array's dtype; the stack is split over the thread pool. The algorithms are the textbook ones,
// chosen for robustness on the small and medium matrices preprocessing and model code uses:
// LU with partial pivoting (solve, inv, det; recursive over the GEMM from 72 on, where it measured faster: lu_blocked.cpp),
// Cholesky, Householder QR with LAPACK's sign convention (so Q and R match numpy's), cyclic Jacobi
// for eigh, and for the SVD bidiagonalisation + divide and conquer (svd_dc.cpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "backends/cpu/kernels/error_flags.h"
#include "backends/cpu/kernels/linalg/bidiag.h"
#include "backends/cpu/kernels/linalg/jacobi_eigh.h"
#include "backends/cpu/kernels/linalg/jacobi_svd.h"
#include "backends/cpu/kernels/linalg/lu_blocked.h"
#include "backends/cpu/kernels/linalg/svd_dc.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

using Mat = std::vector<double>;  // row-major

constexpr double kEps = 2.220446049250313e-16;

// ---- LU with partial pivoting: a = P L U, in place. Returns false when a pivot is exactly 0.
bool lu(Mat& a, int64_t n, std::vector<int64_t>& piv, int& sign) {
  piv.resize(n);
  if (n >= 72) return linalg::lu_blocked(a.data(), n, piv.data(), sign);  // GEMM-based (lu_blocked.cpp)
  sign = 1;
  bool ok = true;
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = k;
    for (int64_t i = k + 1; i < n; ++i)
      if (std::fabs(a[i * n + k]) > std::fabs(a[p * n + k])) p = i;
    piv[k] = p;
    if (p != k) {
      std::swap_ranges(a.begin() + k * n, a.begin() + (k + 1) * n, a.begin() + p * n);
      sign = -sign;
    }
    double d = a[k * n + k];
    if (d == 0.0) {
      ok = false;
      continue;
    }
    for (int64_t i = k + 1; i < n; ++i) {
      double f = a[i * n + k] /= d;
      if (f == 0.0) continue;
      for (int64_t j = k + 1; j < n; ++j) a[i * n + j] -= f * a[k * n + j];
    }
  }
  return ok;
}

// Solves (P L U) x = b for k right-hand sides (b is n x k, row-major), in place.
void lu_solve(const Mat& a, int64_t n, const std::vector<int64_t>& piv, Mat& b, int64_t k) {
  for (int64_t i = 0; i < n; ++i)
    if (piv[i] != i) std::swap_ranges(b.begin() + i * k, b.begin() + (i + 1) * k, b.begin() + piv[i] * k);
  if (k == 1) {  // one right-hand side: each row is one dot product with the solved part
    for (int64_t i = 1; i < n; ++i) b[i] -= linalg::dot(a.data() + i * n, b.data(), i);
    for (int64_t i = n - 1; i >= 0; --i)
      b[i] = (b[i] - linalg::dot(a.data() + i * n + i + 1, b.data() + i + 1, n - i - 1)) / a[i * n + i];
    return;
  }
  if (n >= 64) {  // many right-hand sides (inv): recursive triangular solves, GEMM-based
    linalg::trsm_unit_lower(a.data(), n, n, b.data(), k, k);
    linalg::trsm_upper(a.data(), n, n, b.data(), k, k);
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < i; ++j) {
      double f = a[i * n + j];
      if (f != 0.0)
        for (int64_t c = 0; c < k; ++c) b[i * k + c] -= f * b[j * k + c];
    }
  for (int64_t i = n - 1; i >= 0; --i) {
    for (int64_t j = i + 1; j < n; ++j) {
      double f = a[i * n + j];
      if (f != 0.0)
        for (int64_t c = 0; c < k; ++c) b[i * k + c] -= f * b[j * k + c];
    }
    double d = a[i * n + i];
    for (int64_t c = 0; c < k; ++c) b[i * k + c] /= d;
  }
}

// ---- Householder QR: returns Q (m x m) and R (m x n) with R's diagonal = -sign(x0) * |x|,
// LAPACK's dgeqrf convention.
// q_cols: how many leading columns of Q to form (m: complete; min(m, n): reduced, where the
// reflectors are applied to the m x k slice of the identity only). The fallback path below always
// forms all m columns. Returns the number of columns q holds (row stride).
int64_t qr(Mat a, int64_t m, int64_t n, Mat& q, Mat& r, int64_t q_cols) {
  int64_t k = std::min(m, n);
  if (m >= n && n > 0) {  // blocked Householder QR (linalg/bidiag.cpp), Q from its compact-WY blocks
    double amax = 0, sum = 0;
    for (double x : a) {
      amax = std::max(amax, std::fabs(x));
      sum += x;
    }
    if (std::isfinite(amax) && !std::isnan(sum) && amax > 0) {
      for (double& x : a) x /= amax;  // its reflectors assume a largest entry of about 1
      std::vector<double> tau(n);
      linalg::qr_householder(a.data(), m, n, tau.data());
      r.assign(m * n, 0.0);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = i; j < n; ++j) r[i * n + j] = a[i * n + j] * amax;
      q.assign(m * q_cols, 0.0);
      for (int64_t i = 0; i < q_cols; ++i) q[i * q_cols + i] = 1.0;
      linalg::apply_q(a.data(), m, n, tau.data(), q.data(), q_cols, q_cols);
      return q_cols;
    }
  }
  std::vector<Mat> vs;
  std::vector<double> taus;
  for (int64_t j = 0; j < k; ++j) {
    double norm = 0;
    for (int64_t i = j; i < m; ++i) norm += a[i * n + j] * a[i * n + j];
    norm = std::sqrt(norm);
    Mat v(m - j, 0.0);
    double x0 = a[j * n + j];
    if (norm == 0.0 || (m - j == 1)) {  // nothing to annihilate: H = I (LAPACK's tau = 0)
      vs.push_back(v);
      taus.push_back(0.0);
      continue;
    }
    double beta = x0 >= 0 ? -norm : norm;
    v[0] = 1.0;
    for (int64_t i = j + 1; i < m; ++i) v[i - j] = a[i * n + j] / (x0 - beta);
    double tau = (beta - x0) / beta;
    // a[j:, j:] -= tau v (v^T a[j:, j:])
    for (int64_t c = j; c < n; ++c) {
      double s = 0;
      for (int64_t i = j; i < m; ++i) s += v[i - j] * a[i * n + c];
      s *= tau;
      for (int64_t i = j; i < m; ++i) a[i * n + c] -= s * v[i - j];
    }
    for (int64_t i = j + 1; i < m; ++i) a[i * n + j] = 0.0;
    a[j * n + j] = beta;
    vs.push_back(std::move(v));
    taus.push_back(tau);
  }
  r = a;
  q.assign(m * m, 0.0);
  for (int64_t i = 0; i < m; ++i) q[i * m + i] = 1.0;
  for (int64_t j = k - 1; j >= 0; --j) {  // Q = H_0 ... H_{k-1} I, applied from the right end
    if (taus[j] == 0.0) continue;
    const Mat& v = vs[j];
    for (int64_t c = 0; c < m; ++c) {
      double s = 0;
      for (int64_t i = j; i < m; ++i) s += v[i - j] * q[i * m + c];
      s *= taus[j];
      for (int64_t i = j; i < m; ++i) q[i * m + c] -= s * v[i - j];
    }
  }
  return m;
}

// ---- cyclic Jacobi on a symmetric matrix (only its lower triangle is read, as numpy's UPLO='L').
// Converged when the off-diagonal mass is below eps^2 of the whole, or when the sweeps have
// stalled at rounding level (linalg/jacobi_eigh.h; findHomography's DLT matrices raised "did not
// converge" without that).
bool eigh(Mat a, int64_t n, std::vector<double>& w, Mat& v) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) a[i * n + j] = a[j * n + i];
  v.assign(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) v[i * n + i] = 1.0;
  bool converged = n <= 1;
  double prev_off = std::numeric_limits<double>::infinity();
  for (int sweep = 0; sweep < 100 && !converged; ++sweep) {
    double off = 0, total = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) (i == j ? total : off) += a[i * n + j] * a[i * n + j];
    total += off;
    if (off <= kEps * kEps * total || off == 0.0 || linalg::jacobi_stalled(off, prev_off, total, n)) {
      converged = true;
      break;
    }
    prev_off = off;
    for (int64_t p = 0; p < n; ++p)
      for (int64_t q = p + 1; q < n; ++q) {
        double apq = a[p * n + q];
        if (apq == 0.0) continue;
        double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int64_t k = 0; k < n; ++k) {  // columns p, q
          double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int64_t k = 0; k < n; ++k) {  // rows p, q
          double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (int64_t k = 0; k < n; ++k) {
          double vkp = v[k * n + p], vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return a[x * n + x] < a[y * n + y]; });
  w.resize(n);
  Mat vs(n * n);
  for (int64_t c = 0; c < n; ++c) {
    w[c] = a[order[c] * n + order[c]];
    for (int64_t k = 0; k < n; ++k) vs[k * n + c] = v[k * n + order[c]];
  }
  v = std::move(vs);
  return converged;
}

// ---- SVD of a tall matrix: bidiagonalisation + divide and conquer (linalg/svd_dc.cpp); the
// one-sided Jacobi SVD (linalg/jacobi_svd.cpp) for matrices with fewer than kJacobiCols columns,
// where it is faster (no reflector blocks or GEMM set-up: 2000 4x4 matrices 3x, 500 10x10 1.5x,
// even at 20x20; the divide and conquer is 2x faster at 40x40, 4x at 100x100, ~6x at 512x512).
constexpr int64_t kJacobiCols = 20;

bool svd_tall_direct(Mat& a, int64_t m, int64_t n, Mat& u, std::vector<double>& s, Mat& v, bool want_vectors,
                     bool thin) {
  if (n >= kJacobiCols) return linalg::svd_tall_dc(a, m, n, u, s, v, want_vectors, thin);
  bool ok = linalg::jacobi_svd_tall(a, m, n, u, s, v, want_vectors);
  if (thin && want_vectors && m > n) {  // Jacobi builds the m x m U: keep its first n columns
    Mat ut(m * n);
    for (int64_t i = 0; i < m; ++i) std::copy(u.begin() + i * m, u.begin() + i * m + n, ut.begin() + i * n);
    u = std::move(ut);
  }
  return ok;
}

// A much taller than wide matrix (m >= 1.6 n, LAPACK dgesdd's crossover) is QR-factored first:
// A = Q R, R = U_R S V^T, so the SVD proper runs on the n x n R and the thin U = Q [U_R; 0] costs
// one blocked reflector product. The QR (2 m n^2 flops, GEMM-blocked) is cheaper than
// bidiagonalising the m x n matrix (4 m n^2, half of it matrix-vector), and the back-transformation
// touches m x n instead of m x m.
bool svd_tall(Mat& a, int64_t m, int64_t n, Mat& u, std::vector<double>& s, Mat& v, bool want_vectors, bool thin) {
  if (!(thin && n > 0 && m * 5 >= n * 8)) return svd_tall_direct(a, m, n, u, s, v, want_vectors, thin);
  double amax = 0, sum = 0;  // NaN compares false in the max; the sum catches it
  for (double x : a) {
    amax = std::max(amax, std::fabs(x));
    sum += x;
  }
  // non-finite or zero input: the direct path's handling (NaN outputs, identities)
  if (!std::isfinite(amax) || std::isnan(sum) || amax == 0.0) return svd_tall_direct(a, m, n, u, s, v, want_vectors, thin);
  for (double& x : a) x /= amax;  // the reflectors assume a largest entry of about 1 (bidiag.h)
  std::vector<double> tau(n);
  linalg::qr_householder(a.data(), m, n, tau.data());
  Mat r(n * n, 0.0), ur;
  for (int64_t i = 0; i < n; ++i) std::copy(a.begin() + i * n + i, a.begin() + (i + 1) * n, r.begin() + i * n + i);
  bool ok = svd_tall_direct(r, n, n, ur, s, v, want_vectors, true);
  for (double& x : s) x *= amax;
  if (!want_vectors) return ok;
  u.assign(m * n, 0.0);
  std::copy(ur.begin(), ur.end(), u.begin());  // [U_R; 0]
  linalg::apply_q(a.data(), m, n, tau.data(), u.data(), n, n);
  return ok;
}

// General SVD: a (m x n) = U S Vh; U m x m and Vh n x n, or (thin) U m x k and Vh k x n, k = min(m, n).
bool svd(Mat& a, int64_t m, int64_t n, Mat& u, std::vector<double>& s, Mat& vh, bool want_vectors, bool thin) {
  Mat v;
  if (m >= n) {
    bool ok = svd_tall(a, m, n, u, s, v, want_vectors, thin);
    if (want_vectors) {
      vh.assign(n * n, 0.0);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) vh[i * n + j] = v[j * n + i];
    }
    return ok;
  }
  Mat at(n * m);  // a^T = U' S V'^T  =>  a = V' S U'^T
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) at[j * m + i] = a[i * n + j];
  Mat u2, v2;
  bool ok = svd_tall(at, n, m, u2, s, v2, want_vectors, thin);
  if (want_vectors) {
    u = v2;  // m x m
    const int64_t uc = thin ? m : n;  // columns of U' (n x uc): Vh is uc x n
    vh.assign(uc * n, 0.0);
    for (int64_t i = 0; i < uc; ++i)
      for (int64_t j = 0; j < n; ++j) vh[i * n + j] = u2[j * uc + i];
  }
  return ok;
}

// ---- the kernel: one matrix (or pair) per batch item, in parallel.
template <class T>
class LinalgKernel final : public backend::Kernel {
 public:
  enum Kind { Solve, Inv, Slogdet, Cholesky, Qr, Eigh, Svd, Svdvals, SvdThin, QrThin };
  LinalgKernel(Kind kind, const backend::StepDesc& s) : kind_(kind) {
    const Shape& a = s.inputs[0].shape;
    m_ = a[a.size() - 2];
    n_ = a[a.size() - 1];
    batch_ = numel(Shape(a.begin(), a.end() - 2));
    if (kind == Solve) k_ = s.inputs[1].shape.back();
    out_per_ = batch_ ? numel(s.output.shape) / batch_ : 0;
  }

  void run(char* const* inputs, char* output) override {
    const T* a = reinterpret_cast<const T*>(inputs[0]);
    const T* b = kind_ == Solve ? reinterpret_cast<const T*>(inputs[1]) : nullptr;
    T* out = reinterpret_cast<T*>(output);
    const int64_t per = m_ * n_;
    const int64_t work = std::max<int64_t>(1, per * std::min(m_, n_));
    parallel_for(batch_, std::max<int64_t>(1, (1 << 18) / work), [&](int64_t b0, int64_t b1) {
      for (int64_t i = b0; i < b1; ++i) {
        Mat x(a + i * per, a + (i + 1) * per);
        one(x, b ? b + i * n_ * k_ : nullptr, out + i * out_per_);
      }
    });
  }

 private:
  void one(Mat& a, const T* b, T* out) const {
    const int64_t m = m_, n = n_;
    switch (kind_) {
      case Solve:
      case Inv: {
        std::vector<int64_t> piv;
        int sign;
        if (!lu(a, n, piv, sign)) return flag_error(kErrSingularMatrix);
        int64_t k = kind_ == Solve ? k_ : n;
        Mat rhs(n * k, 0.0);
        if (kind_ == Solve) std::copy(b, b + n * k, rhs.begin());
        else for (int64_t i = 0; i < n; ++i) rhs[i * n + i] = 1.0;
        lu_solve(a, n, piv, rhs, k);
        std::copy(rhs.begin(), rhs.end(), out);
        return;
      }
      case Slogdet: {
        std::vector<int64_t> piv;
        int sign;
        if (!lu(a, n, piv, sign)) {  // numpy: sign 0, log|det| -inf, det 0
          out[0] = T(0);
          out[1] = T(-INFINITY);
          out[2] = T(0);
          return;
        }
        double logabs = 0, det = sign;
        for (int64_t i = 0; i < n; ++i) {
          double d = a[i * n + i];
          if (d < 0) sign = -sign;
          logabs += std::log(std::fabs(d));
          det *= d;
        }
        out[0] = T(sign);
        out[1] = T(logabs);
        out[2] = T(det);
        return;
      }
      case Cholesky: {
        Mat l(n * n, 0.0);
        for (int64_t j = 0; j < n; ++j) {
          double d = a[j * n + j];
          for (int64_t k = 0; k < j; ++k) d -= l[j * n + k] * l[j * n + k];
          if (!(d > 0)) return flag_error(kErrNotPositiveDefinite);
          d = std::sqrt(d);
          l[j * n + j] = d;
          for (int64_t i = j + 1; i < n; ++i) {
            double t = a[i * n + j];
            for (int64_t k = 0; k < j; ++k) t -= l[i * n + k] * l[j * n + k];
            l[i * n + j] = t / d;
          }
        }
        std::copy(l.begin(), l.end(), out);
        return;
      }
      case Qr: {
        Mat q, r;
        qr(a, m, n, q, r, m);
        const int64_t w = m + n;  // row width of the packed output: Q (m cols) then R (n cols)
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < m; ++j) out[i * w + j] = T(q[i * m + j]);
          for (int64_t j = 0; j < n; ++j) out[i * w + m + j] = T(r[i * n + j]);
        }
        return;
      }
      case QrThin: {
        Mat q, r;
        const int64_t k = std::min(m, n), qs = qr(a, m, n, q, r, k);
        const int64_t w = k + n;  // Q (m x k) in the first k columns, R's first k rows after them
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < k; ++j) out[i * w + j] = T(q[i * qs + j]);
          for (int64_t j = 0; j < n; ++j) out[i * w + k + j] = T(i < k ? r[i * n + j] : 0.0);
        }
        return;
      }
      case Eigh: {
        std::vector<double> w;
        Mat v;
        if (!eigh(a, n, w, v)) flag_error(kErrNoConvergence);
        for (int64_t i = 0; i < n; ++i) {
          out[i * (n + 1)] = T(w[i]);
          for (int64_t j = 0; j < n; ++j) out[i * (n + 1) + 1 + j] = T(v[i * n + j]);
        }
        return;
      }
      case Svd:
      case SvdThin:
      case Svdvals: {
        Mat u, vh;
        std::vector<double> s;
        bool vectors = kind_ != Svdvals;
        if (!svd(a, m, n, u, s, vh, vectors, kind_ == SvdThin)) flag_error(kErrNoConvergence);
        if (!vectors) {
          std::copy(s.begin(), s.end(), out);
          return;
        }
        for (size_t i = 0; i < u.size(); ++i) out[i] = T(u[i]);  // m x m, or m x k (thin)
        for (size_t i = 0; i < s.size(); ++i) out[u.size() + i] = T(s[i]);
        for (size_t i = 0; i < vh.size(); ++i) out[u.size() + s.size() + i] = T(vh[i]);
        return;
      }
    }
  }

  Kind kind_;
  int64_t m_ = 0, n_ = 0, k_ = 0, batch_ = 0, out_per_ = 0;
};

template <int K>
std::unique_ptr<backend::Kernel> prepare(const backend::StepDesc& s) {
  using Kind = typename LinalgKernel<double>::Kind;
  if (s.inputs[0].dtype == DType::Float32)
    return std::make_unique<LinalgKernel<float>>(static_cast<typename LinalgKernel<float>::Kind>(K), s);
  return std::make_unique<LinalgKernel<double>>(static_cast<Kind>(K), s);
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(linalg_solve, "linalg_solve", &prepare<0>);
MNN_REGISTER_CPU_KERNEL(linalg_inv, "linalg_inv", &prepare<1>);
MNN_REGISTER_CPU_KERNEL(linalg_slogdet, "linalg_slogdet", &prepare<2>);
MNN_REGISTER_CPU_KERNEL(linalg_cholesky, "linalg_cholesky", &prepare<3>);
MNN_REGISTER_CPU_KERNEL(linalg_qr, "linalg_qr", &prepare<4>);
MNN_REGISTER_CPU_KERNEL(linalg_eigh, "linalg_eigh", &prepare<5>);
MNN_REGISTER_CPU_KERNEL(linalg_svd, "linalg_svd", &prepare<6>);
MNN_REGISTER_CPU_KERNEL(linalg_svdvals, "linalg_svdvals", &prepare<7>);
MNN_REGISTER_CPU_KERNEL(linalg_svd_thin, "linalg_svd_thin", &prepare<8>);
MNN_REGISTER_CPU_KERNEL(linalg_qr_thin, "linalg_qr_thin", &prepare<9>);

}  // namespace mnn::cpu
