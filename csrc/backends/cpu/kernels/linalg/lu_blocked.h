// Recursive (GEMM-based) LU with partial pivoting and triangular solves for larger matrices
// (lu_blocked.cpp).
#pragma once
#include <cstdint>
namespace mnn::cpu::linalg {

// a (n x n, row-major) = P L U in place, LAPACK's getrf layout: unit L below the diagonal, U on
// and above it; row k was swapped with row piv[k] at step k; sign *= -1 per swap. Returns false
// when a pivot is exactly 0 (the factorization still completes, as getrf's does).
bool lu_blocked(double* a, int64_t n, int64_t* piv, int& sign);

// b (n x k, row stride ldb) = L^-1 b for the unit lower triangle of l (n x n, row stride ldl).
void trsm_unit_lower(const double* l, int64_t ldl, int64_t n, double* b, int64_t ldb, int64_t k);
// b = U^-1 b for the upper triangle (diagonal included) of u.
void trsm_upper(const double* u, int64_t ldu, int64_t n, double* b, int64_t ldb, int64_t k);

}  // namespace mnn::cpu::linalg
