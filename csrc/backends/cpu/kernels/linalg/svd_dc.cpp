// Dense SVD in three stages, as LAPACK's dgesdd: Householder bidiagonalisation A = Q B P^T
// (bidiag.cpp), the bidiagonal SVD B = U_B S V_B^T by divide and conquer (bidiag_dc.cpp), then
// U = Q [U_B 0; 0 I] and V = P V_B by blocked reflector products (GEMMs).
#include "backends/cpu/kernels/linalg/svd_dc.h"

#include <algorithm>
#include <cmath>

#include "backends/cpu/kernels/linalg/bidiag.h"
#include "backends/cpu/kernels/linalg/bidiag_dc.h"

namespace mnn::cpu::linalg {

bool svd_tall_dc(std::vector<double>& a, int64_t m, int64_t n, std::vector<double>& u, std::vector<double>& s,
                 std::vector<double>& v, bool want_vectors, bool thin) {
  const int64_t uc = thin ? n : m;  // columns of U
  s.assign(n, 0.0);
  auto identities = [&] {
    if (!want_vectors) return;
    u.assign(m * uc, 0.0);
    v.assign(n * n, 0.0);
    for (int64_t i = 0; i < uc; ++i) u[i * uc + i] = 1.0;
    for (int64_t i = 0; i < n; ++i) v[i * n + i] = 1.0;
  };
  double amax = 0;
  for (double x : a) amax = std::max(amax, std::fabs(x));
  double nan_check = 0;  // NaN compares false in the max above; the sum catches it
  for (double x : a) nan_check += x;
  if (!std::isfinite(amax) || std::isnan(nan_check)) {  // outputs sized and NaN: the caller flags the error
    s.assign(n, NAN);
    if (want_vectors) {
      u.assign(m * uc, NAN);
      v.assign(n * n, NAN);
    }
    return false;
  }
  if (n == 0 || amax == 0.0) {
    identities();
    return true;
  }
  // scaled to max 1, so the reflectors' norms neither overflow nor underflow
  for (double& x : a) x /= amax;
  std::vector<double> d(n), e(std::max<int64_t>(n, 1)), tq(n), tp(std::max<int64_t>(n, 1));
  bidiagonalize(a.data(), m, n, d.data(), e.data(), tq.data(), tp.data());
  std::vector<double> sa(n), ub(want_vectors ? n * n : 0), vb(want_vectors ? n * n : 0);
  const bool ok = bidiag_svd_dc(n, d.data(), e.data(), sa.data(), want_vectors ? ub.data() : nullptr, n,
                                want_vectors ? vb.data() : nullptr, n);
  for (int64_t j = 0; j < n; ++j) s[j] = sa[n - 1 - j] * amax;  // ascending -> descending
  if (!want_vectors) return ok;
  u.assign(m * uc, 0.0);
  v.assign(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      u[i * uc + j] = ub[i * n + (n - 1 - j)];
      v[i * n + j] = vb[i * n + (n - 1 - j)];
    }
  for (int64_t i = n; i < uc; ++i) u[i * uc + i] = 1.0;
  apply_q(a.data(), m, n, tq.data(), u.data(), uc, uc);
  apply_p(a.data(), n, tp.data(), v.data(), n, n);
  return ok;
}

}  // namespace mnn::cpu::linalg
