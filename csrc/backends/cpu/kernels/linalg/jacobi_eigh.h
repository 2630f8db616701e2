// The stopping rule of the cyclic Jacobi eigensolver (mnn.numpy.linalg.eigh, decompositions.cpp),
// shared with the copy of that solver in ops/cv/robust_dlt.cpp, whose results must keep eigh's bits.
#pragma once

#include <cstdint>

namespace mnn::cpu::linalg {

// A sweep left the off-diagonal mass `off` no smaller than the sweep before (`prev_off`) while it
// is within n^2 eps^2 of the matrix's whole mass: the rotations only move rounding noise around.
// For eigenvalues spread over many orders of magnitude the strict test (off <= eps^2 total) can
// stay out of reach there. Before the sweeps stall the mass falls quadratically, so a matrix that
// meets the strict test stops at the same sweep as without this rule.
inline bool jacobi_stalled(double off, double prev_off, double total, int64_t n) {
  constexpr double kEps = 2.220446049250313e-16;
  return off >= prev_off && off <= static_cast<double>(n * n) * kEps * kEps * total;
}

}  // namespace mnn::cpu::linalg
