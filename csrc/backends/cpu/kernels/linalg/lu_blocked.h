// Blocked LU with partial pivoting for larger matrices (lu_blocked.cpp).
#pragma once
#include <cstdint>

namespace mnn::cpu::linalg {

// a (n x n, row-major) = P L U in place, LAPACK's getrf layout: unit L below the diagonal, U on
// and above it; row k was swapped with row piv[k] at step k; sign *= -1 per swap. Returns false
// when a pivot is exactly 0 (the factorization still completes, as getrf's does).
bool lu_blocked(double* a, int64_t n, int64_t* piv, int& sign);

}  // namespace mnn::cpu::linalg
