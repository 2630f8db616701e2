// Recursive LU with partial pivoting (Toledo's column-halving form of LAPACK's getrf) and the
// triangular solves that go with it, on row-major storage.
//
// Why recursive: a right-looking blocked LU still factors each panel column by column, and a
// 512-row, 64-column panel is 256 KiB, so those rank-1 updates run at L2 speed; on a 512x512 solve
// they took as long as all the GEMM updates together. Halving the columns instead puts every
// update, the panel's included, into the engine's GEMM; only panels of kBase columns are
// eliminated one column at a time.
#include "backends/cpu/kernels/linalg/lu_blocked.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels/gemm.h"
#include "backends/cpu/kernels/linalg/jacobi_svd.h"  // axpy

namespace mnn::cpu::linalg {

namespace {

// Panels this narrow are eliminated column by column: a row's part of the panel is 1-2 cache
// lines, and a GEMM call on them costs more in packing than it saves.
constexpr int64_t kBase = 16;
// Triangles this small are solved by substitution (axpy per row).
constexpr int64_t kTrsmBase = 32;

// C (m x n, row stride ldc) -= A (m x k, row stride lda) B (k x n, row stride ldb).
void gemm_sub(int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b, int64_t ldb,
              double* c, int64_t ldc) {
  gemm_f64_sub(m, n, k, a, lda, 1, b, ldb, 1, c, ldc);
}

// Column-by-column elimination of an m x n panel (n <= kBase); piv is relative to the panel's
// first row; row swaps move the panel's columns only. The panel is worked on in a column-major
// copy: the pivot search, the scaling and every update then run along contiguous memory
// (in place, each step would walk m rows a cache line apart).
bool panel_lu(double* a, int64_t lda, int64_t m, int64_t n, int64_t* piv, int& sign, std::vector<double>& cm) {
  cm.resize(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t c = 0; c < n; ++c) cm[c * m + i] = a[i * lda + c];
  bool ok = true;
  for (int64_t j = 0; j < n && j < m; ++j) {
    double* col = cm.data() + j * m;
    int64_t p = j;
    double best = std::fabs(col[j]);
    for (int64_t i = j + 1; i < m; ++i) {
      const double v = std::fabs(col[i]);
      if (v > best) {  // the first largest, as LAPACK's idamax
        best = v;
        p = i;
      }
    }
    piv[j] = p;
    if (p != j) {
      for (int64_t c = 0; c < n; ++c) std::swap(cm[c * m + j], cm[c * m + p]);
      sign = -sign;
    }
    const double d = col[j];
    if (d == 0.0) {  // singular: getrf records it and goes on
      ok = false;
      continue;
    }
    for (int64_t i = j + 1; i < m; ++i) col[i] /= d;
    for (int64_t c = j + 1; c < n; ++c) {
      double* cc = cm.data() + c * m;
      const double f = cc[j];
      if (f != 0.0) axpy(cc + j + 1, col + j + 1, m - j - 1, -f);
    }
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t c = 0; c < n; ++c) a[i * lda + c] = cm[c * m + i];
  return ok;
}

// Applies the row swaps piv[0..count) (relative to row 0 of a) to columns [c0, c1).
void swap_rows(double* a, int64_t lda, const int64_t* piv, int64_t count, int64_t c0, int64_t c1) {
  if (c1 <= c0) return;
  for (int64_t j = 0; j < count; ++j)
    if (piv[j] != j) std::swap_ranges(a + j * lda + c0, a + j * lda + c1, a + piv[j] * lda + c0);
}

bool rec_lu(double* a, int64_t lda, int64_t m, int64_t n, int64_t* piv, int& sign, std::vector<double>& scratch) {
  if (n <= kBase) return panel_lu(a, lda, m, n, piv, sign, scratch);
  // split at a multiple of 8 so the GEMM's blocks stay aligned with its microkernel
  const int64_t n1 = std::max<int64_t>(8, (n / 2) / 8 * 8), n2 = n - n1;
  bool ok = rec_lu(a, lda, m, n1, piv, sign, scratch);
  swap_rows(a, lda, piv, n1, n1, n);
  // A12 = L11^-1 A12, then A22 -= A21 A12 and factor what is left
  trsm_unit_lower(a, lda, n1, a + n1, lda, n2);
  if (m <= n1) return ok;
  gemm_sub(m - n1, n2, n1, a + n1 * lda, lda, a + n1, lda, a + n1 * lda + n1, lda);
  ok = rec_lu(a + n1 * lda + n1, lda, m - n1, n2, piv + n1, sign, scratch) && ok;
  const int64_t k2 = std::min(n2, m - n1);
  swap_rows(a + n1 * lda, lda, piv + n1, k2, 0, n1);
  for (int64_t j = 0; j < k2; ++j) piv[n1 + j] += n1;
  return ok;
}

}  // namespace

void trsm_unit_lower(const double* l, int64_t ldl, int64_t n, double* b, int64_t ldb, int64_t k) {
  if (n <= 0 || k <= 0) return;
  if (n <= kTrsmBase) {
    for (int64_t i = 1; i < n; ++i)
      for (int64_t j = 0; j < i; ++j) {
        const double f = l[i * ldl + j];
        if (f != 0.0) axpy(b + i * ldb, b + j * ldb, k, -f);
      }
    return;
  }
  const int64_t h = n / 2;
  trsm_unit_lower(l, ldl, h, b, ldb, k);
  gemm_sub(n - h, k, h, l + h * ldl, ldl, b, ldb, b + h * ldb, ldb);
  trsm_unit_lower(l + h * ldl + h, ldl, n - h, b + h * ldb, ldb, k);
}

void trsm_upper(const double* u, int64_t ldu, int64_t n, double* b, int64_t ldb, int64_t k) {
  if (n <= 0 || k <= 0) return;
  if (n <= kTrsmBase) {
    for (int64_t i = n - 1; i >= 0; --i) {
      double* bi = b + i * ldb;
      for (int64_t j = i + 1; j < n; ++j) {
        const double f = u[i * ldu + j];
        if (f != 0.0) axpy(bi, b + j * ldb, k, -f);
      }
      const double d = u[i * ldu + i];
      for (int64_t c = 0; c < k; ++c) bi[c] /= d;
    }
    return;
  }
  const int64_t h = n / 2;
  trsm_upper(u + h * ldu + h, ldu, n - h, b + h * ldb, ldb, k);
  gemm_sub(h, k, n - h, u + h, ldu, b + h * ldb, ldb, b, ldb);
  trsm_upper(u, ldu, h, b, ldb, k);
}

bool lu_blocked(double* a, int64_t n, int64_t* piv, int& sign) {
  sign = 1;
  std::vector<double> scratch;
  return rec_lu(a, n, n, n, piv, sign, scratch);
}

}  // namespace mnn::cpu::linalg
