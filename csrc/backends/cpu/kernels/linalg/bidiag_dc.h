// Singular values and vectors of a bidiagonal matrix by divide and conquer (bidiag_dc.cpp).
#pragma once
#include <cstdint>

namespace mnn::cpu::linalg {

// B (n x n upper bidiagonal: diagonal d, superdiagonal e (n-1)) = U diag(s) V^T, s ascending,
// U and V n x n row-major with row strides ldu, ldv. With u null, only s is computed (v may be
// null too; the merges then pass up two rows of each V instead of V). Returns false on
// non-finite input.
bool bidiag_svd_dc(int64_t n, const double* d, const double* e, double* s, double* u, int64_t ldu, double* v,
                   int64_t ldv);

}  // namespace mnn::cpu::linalg
