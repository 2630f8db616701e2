// The SVD of a dense matrix the way LAPACK's dgesdd computes it (svd_dc.cpp).
#pragma once
#include <cstdint>
#include <vector>

namespace mnn::cpu::linalg {

// a (m x n, row-major, m >= n; overwritten) = U diag(s) V^T with U m x m and V n x n row-major,
// s descending. thin: U is m x n, the first n columns only (the reflectors are applied to the
// m x n identity slice, not m x m). Returns false on non-finite input.
bool svd_tall_dc(std::vector<double>& a, int64_t m, int64_t n, std::vector<double>& u, std::vector<double>& s,
                 std::vector<double>& v, bool want_vectors, bool thin = false);

}  // namespace mnn::cpu::linalg
