// Numeric conditions a kernel cannot throw from (it runs on pool threads with no GIL): kernels set
// a flag, and the engine turns it into numpy's exception once the plan has run.
#pragma once
#include <atomic>

namespace mnn::cpu {

enum ErrorFlag : int {
  kErrDivideByZero = 1,
  kErrNegativeIntPower = 2,
  kErrSingularMatrix = 4,       // linalg: LU found an exactly singular matrix
  kErrNotPositiveDefinite = 8,  // linalg: Cholesky met a non-positive pivot
  kErrNoConvergence = 16,       // linalg: an iterative decomposition did not converge
};

std::atomic<int>& error_flags();
inline void flag_error(int f) { error_flags().fetch_or(f, std::memory_order_relaxed); }

}  // namespace mnn::cpu
