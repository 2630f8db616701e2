// Numeric conditions a kernel cannot throw from (it runs on pool threads with no GIL): kernels set
// a flag, and the engine turns it into numpy's exception once the plan has run.
#pragma once
#include <atomic>

namespace mnn::cpu {

enum ErrorFlag : int { kErrDivideByZero = 1, kErrNegativeIntPower = 2 };

std::atomic<int>& error_flags();
inline void flag_error(int f) { error_flags().fetch_or(f, std::memory_order_relaxed); }

}  // namespace mnn::cpu
