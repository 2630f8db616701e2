// The IEEE status flags kernels raise (invalid, divide by zero, overflow), for numpy's errstate
// warnings. On x86 they are read and cleared through MXCSR, a few cycles: fetestexcept also reads
// the x87 status word and cost 10% of a fused chain, and glibc's feraiseexcept raises some flags
// through the x87 unit, which MXCSR does not see. Elsewhere (aarch64) <cfenv> is the interface.
#pragma once
#include <cfenv>
#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>
#define MNN_FP_STATUS_MXCSR 1
#endif

namespace mnn::cpu {

// The FE_* flags raised since the last call, which clears them.
inline int fp_status_take() {
#if defined(MNN_FP_STATUS_MXCSR)
  constexpr unsigned kFlags = 0x1 | 0x4 | 0x8;  // MXCSR: invalid, divide by zero, overflow
  const unsigned csr = _mm_getcsr();
  if (!(csr & kFlags)) return 0;
  _mm_setcsr(csr & ~kFlags);
  return (csr & 0x1 ? FE_INVALID : 0) | (csr & 0x4 ? FE_DIVBYZERO : 0) | (csr & 0x8 ? FE_OVERFLOW : 0);
#else
  const int fe = std::fetestexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW);
  if (fe) std::feclearexcept(fe);
  return fe;
#endif
}

// Raises FE_* flags where fp_status_take will see them (kernels that build inf/NaN by selects).
inline void fp_status_raise(int fe) {
#if defined(MNN_FP_STATUS_MXCSR)
  _mm_setcsr(_mm_getcsr() | (fe & FE_INVALID ? 0x1u : 0u) | (fe & FE_DIVBYZERO ? 0x4u : 0u) |
             (fe & FE_OVERFLOW ? 0x8u : 0u));
#else
  std::feraiseexcept(fe);
#endif
}

}  // namespace mnn::cpu
