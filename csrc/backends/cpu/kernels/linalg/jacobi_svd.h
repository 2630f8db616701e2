// One-sided (Hestenes) Jacobi SVD of a tall matrix, laid out for speed (jacobi_svd.cpp): the SVD of
// small matrices and of the divide and conquer's leaves (bidiag_dc.cpp).
#pragma once
#include <cstdint>
#include <vector>

namespace mnn::cpu::linalg {

// a (m x n, row-major, m >= n) = U diag(s) V^T with U m x m and V n x n (both row-major),
// s descending. Columns whose singular value is negligible get U columns that complete an
// orthonormal basis. Returns false when the sweeps did not converge.
bool jacobi_svd_tall(const std::vector<double>& a, int64_t m, int64_t n, std::vector<double>& u,
                     std::vector<double>& s, std::vector<double>& v, bool want_vectors);

// y[i] += a x[i], i < n, with the best vector width this CPU has (AVX-512 / AVX2+FMA / baseline).
void axpy(double* y, const double* x, int64_t n, double a);
// x . y over n elements, same dispatch.
double dot(const double* x, const double* y, int64_t n);

}  // namespace mnn::cpu::linalg
