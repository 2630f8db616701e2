// A row region's result step as one streaming pass per row (kernel_table.h RowChainFn): softmax's
// e / s and standardisation's (x - m) / s. The generic step runs the block program interpreter
// into the row and pays its per-call set-up on every row; here the chain is a few vector
// operations per eight elements, the stores bypass the caches (the result is not read again), and
// the next block's input lines are prefetched between them, so its first pass (the max, the sum)
// finds them in cache instead of waiting on memory with nothing to overlap.
#include <cstdint>

#include "backends/cpu/simd/kernel_table.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace mnn::cpu::MNN_ISA_NS {

#if defined(__AVX2__)
namespace {

// When both operands are NaN, x86 returns the first source's, and numpy the first operand's (a
// row's value + its row's scalar, x + m[:, None], gives x's NaN; m[:, None] + x gives m's). GCC may
// swap the operands of a commutative add or multiply, so asm pins the program's order.
inline float add1(float x, float y) {
  float r;
  asm("vaddss %2, %1, %0" : "=x"(r) : "x"(x), "xm"(y));
  return r;
}
inline float mul1(float x, float y) {
  float r;
  asm("vmulss %2, %1, %0" : "=x"(r) : "x"(x), "xm"(y));
  return r;
}
inline __m256 add8(__m256 x, __m256 y) {
  __m256 r;
  asm("vaddps %2, %1, %0" : "=x"(r) : "x"(x), "xm"(y));
  return r;
}
inline __m256 mul8(__m256 x, __m256 y) {
  __m256 r;
  asm("vmulps %2, %1, %0" : "=x"(r) : "x"(x), "xm"(y));
  return r;
}

// One element with scalar instructions: the same IEEE operations as the vector lanes.
inline float chain1(float v, const RowChainOp* ops, int nops) {
  for (int k = 0; k < nops; ++k) {
    const float s = ops[k].s;
    const bool f = ops[k].scalar_first;
    switch (ops[k].op) {
      case 0: v = f ? add1(s, v) : add1(v, s); break;
      case 1: v = f ? s - v : v - s; break;
      case 2: v = f ? mul1(s, v) : mul1(v, s); break;
      default: v = f ? s / v : v / s; break;
    }
  }
  return v;
}

inline __m256 chain8(__m256 v, const RowChainOp* ops, const __m256* s, int nops) {
  for (int k = 0; k < nops; ++k) {
    const bool f = ops[k].scalar_first;
    switch (ops[k].op) {
      case 0: v = f ? add8(s[k], v) : add8(v, s[k]); break;
      case 1: v = f ? _mm256_sub_ps(s[k], v) : _mm256_sub_ps(v, s[k]); break;
      case 2: v = f ? mul8(s[k], v) : mul8(v, s[k]); break;
      default: v = f ? _mm256_div_ps(s[k], v) : _mm256_div_ps(v, s[k]); break;
    }
  }
  return v;
}

void row_chain_f32(int64_t n, const float* a, const RowChainOp* ops, int nops, float* out, const char* pf,
                   int64_t pf_bytes) {
  __m256 s[kRowChainMaxOps];
  for (int k = 0; k < nops; ++k) s[k] = _mm256_set1_ps(ops[k].s);
  const char* pf_end = pf + pf_bytes;
  int64_t i = 0;
  // scalar head up to a 32-byte aligned output
  for (; i < n && (reinterpret_cast<uintptr_t>(out + i) & 31) != 0; ++i) out[i] = chain1(a[i], ops, nops);
  // after j of the `iters` iterations of 16 elements, floor(j * lines / iters) lines prefetched:
  // the lines spread evenly over the row
  const int64_t iters = (n - i) / 16, lines = (pf_bytes + 63) / 64;
  int64_t acc = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256 v0 = chain8(_mm256_loadu_ps(a + i), ops, s, nops);
    const __m256 v1 = chain8(_mm256_loadu_ps(a + i + 8), ops, s, nops);
    _mm256_stream_ps(out + i, v0);
    _mm256_stream_ps(out + i + 8, v1);
    for (acc += lines; acc >= iters; acc -= iters, pf += 64) _mm_prefetch(pf, _MM_HINT_T1);
  }
  for (; i < n; ++i) out[i] = chain1(a[i], ops, nops);
  for (; pf < pf_end; pf += 64) _mm_prefetch(pf, _MM_HINT_T1);  // a row too short to spread them over
  // (into L2, not L1: region.cpp's Prefetch says why)
}

}  // namespace

void fill_rows(KernelTable& t) { t.row_chain_f32 = &row_chain_f32; }
#else
void fill_rows(KernelTable&) {}  // no row kernel: the region runs the step's program
#endif

}  // namespace mnn::cpu::MNN_ISA_NS
