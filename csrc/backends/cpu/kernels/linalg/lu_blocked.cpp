// Right-looking blocked LU with partial pivoting. Unblocked elimination updates the whole
// trailing matrix once per column (n^3/3 multiply-adds at memory speed); here a panel of kNb
// columns is factored on its own, the matching block row of U is solved from it, and the trailing
// matrix takes one GEMM update per panel, so almost all the work runs in the engine's GEMM.
#include "backends/cpu/kernels/linalg/lu_blocked.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels/gemm.h"
#include "backends/cpu/kernels/linalg/jacobi_svd.h"  // axpy

namespace mnn::cpu::linalg {

namespace {
constexpr int64_t kNb = 64;
}

bool lu_blocked(double* a, int64_t n, int64_t* piv, int& sign) {
  sign = 1;
  bool ok = true;
  std::vector<double> tmp, panel;
  for (int64_t k0 = 0; k0 < n; k0 += kNb) {
    const int64_t k1 = std::min(n, k0 + kNb);
    // Panel: columns k0..k1 of rows k0..n, factored unblocked in a column-major copy (pivot
    // searches and column updates then run along contiguous memory); its row swaps are applied
    // to the columns left and right of the panel afterwards, in order.
    const int64_t h = n - k0, wdt = k1 - k0;
    panel.resize(h * wdt);
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < wdt; ++j) panel[j * h + i] = a[(k0 + i) * n + k0 + j];
    for (int64_t kk = 0; kk < wdt; ++kk) {
      double* col = panel.data() + kk * h;
      int64_t p = kk;
      double best = std::fabs(col[kk]);
      for (int64_t i = kk + 1; i < h; ++i) {
        const double v = std::fabs(col[i]);
        if (v > best) {
          best = v;
          p = i;
        }
      }
      piv[k0 + kk] = k0 + p;
      if (p != kk) {
        for (int64_t j = 0; j < wdt; ++j) std::swap(panel[j * h + kk], panel[j * h + p]);
        sign = -sign;
      }
      const double d = col[kk];
      if (d == 0.0) {
        ok = false;
        continue;
      }
      for (int64_t i = kk + 1; i < h; ++i) col[i] /= d;
      for (int64_t j = kk + 1; j < wdt; ++j) {
        double* cj = panel.data() + j * h;
        const double f = cj[kk];
        if (f != 0.0) axpy(cj + kk + 1, col + kk + 1, h - kk - 1, -f);
      }
    }
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < wdt; ++j) a[(k0 + i) * n + k0 + j] = panel[j * h + i];
    for (int64_t k = k0; k < k1; ++k) {
      const int64_t p = piv[k];
      if (p == k) continue;
      std::swap_ranges(a + k * n, a + k * n + k0, a + p * n);
      std::swap_ranges(a + k * n + k1, a + (k + 1) * n, a + p * n + k1);
    }
    if (k1 == n) break;
    // U12 = L11^-1 A12 (rows k0..k1, columns k1..n), unit lower triangular forward substitution.
    for (int64_t i = k0 + 1; i < k1; ++i) {
      double* ri = a + i * n;
      for (int64_t j = k0; j < i; ++j) {
        const double f = ri[j];
        if (f == 0.0) continue;
        const double* rj = a + j * n;
        axpy(ri + k1, rj + k1, n - k1, -f);
      }
    }
    // A22 -= L21 U12: the GEMM accumulates (-L21) U12 straight into A22.
    const int64_t r = n - k1, kb = k1 - k0;
    tmp.resize(r * kb);
    for (int64_t i = 0; i < r; ++i)
      for (int64_t j = 0; j < kb; ++j) tmp[i * kb + j] = -a[(k1 + i) * n + k0 + j];
    gemm_f64_acc(r, r, kb, tmp.data(), kb, 1, a + k0 * n + k1, n, 1, a + k1 * n + k1, n);
  }
  return ok;
}

}  // namespace mnn::cpu::linalg
