// Fused float32 programs run a block of kF32Block elements at a time (KernelTable::f32_program):
// every instruction is an inline SIMD loop over the block, its operands read where they lie (a
// streamed input in place, a register from a small stack block), and the last instruction writes
// the output directly, with streaming stores when asked. The tile interpreter (fused.cpp) calls a
// microkernel per instruction over 512-element tiles, then copies the result out; on a chain that
// streams 256 MB (a*b + c*2 - sqrt(abs(a)) on 16M float32) its arithmetic and copies overlap the
// memory stream only in part, while these blocks keep the loads and stores flowing.
//
// Each operation is the IEEE one numpy uses (add, multiply, divide, sqrt round once; abs and
// negative touch only the sign bit; maximum/minimum select as kernels/elementwise_ops.h does), so
// results are bit-identical to the tile path. Only x86 targets with AVX2 fill the entry; other
// targets leave it null and every program takes the tile path.
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include <type_traits>

#include "backends/cpu/simd/kernel_table.h"

namespace mnn::cpu::MNN_ISA_NS {

#if defined(__AVX2__)
namespace {

constexpr int kVecs = kF32Block / 8;  // ymm registers per block
// Input lines requested this far ahead of the block being computed: the hardware prefetcher alone
// leaves the three streams of the chain short of bandwidth while a block computes.
constexpr int64_t kPrefetchAhead = 512;  // elements

struct ToScratch {
  static void put(float* p, __m256 v) { _mm256_store_ps(p, v); }
};
struct ToOutput {
  static void put(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
};
struct Streamed {  // 32-byte aligned output, bypassing the caches
  static void put(float* p, __m256 v) { _mm256_stream_ps(p, v); }
};

inline __m256 ld(const float* p) { return _mm256_loadu_ps(p); }

// numpy's float maximum/minimum (elementwise_ops.h): a when it wins or is NaN, else b; fmax/fmin
// take a when it wins or b is NaN.
inline __m256 sel(__m256 take_a, __m256 a, __m256 b) { return _mm256_blendv_ps(b, a, take_a); }
inline __m256 is_nan(__m256 x) { return _mm256_cmp_ps(x, x, _CMP_UNORD_Q); }

template <class Store>
inline void step(const F32Instr& ins, const float* a, const float* b, float* d) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 one = _mm256_set1_ps(1.0f);
#define MNN_F32_LOOP(expr)                                                      \
  for (int v = 0; v < kVecs; ++v) {                                             \
    const float* av = a + 8 * v;                                                \
    const float* bv = b + 8 * v;                                                \
    (void)bv;                                                                   \
    Store::put(d + 8 * v, expr);                                                \
  }                                                                             \
  return;
  switch (ins.op) {
    case F32Op::Add: MNN_F32_LOOP(_mm256_add_ps(ld(av), ld(bv)))
    case F32Op::Subtract: MNN_F32_LOOP(_mm256_sub_ps(ld(av), ld(bv)))
    case F32Op::Multiply: MNN_F32_LOOP(_mm256_mul_ps(ld(av), ld(bv)))
    case F32Op::Divide: MNN_F32_LOOP(_mm256_div_ps(ld(av), ld(bv)))
    case F32Op::Maximum:
      MNN_F32_LOOP(sel(_mm256_or_ps(_mm256_cmp_ps(ld(av), ld(bv), _CMP_GE_OQ), is_nan(ld(av))), ld(av), ld(bv)))
    case F32Op::Minimum:
      MNN_F32_LOOP(sel(_mm256_or_ps(_mm256_cmp_ps(ld(av), ld(bv), _CMP_LE_OQ), is_nan(ld(av))), ld(av), ld(bv)))
    case F32Op::Fmax:
      MNN_F32_LOOP(sel(_mm256_or_ps(_mm256_cmp_ps(ld(av), ld(bv), _CMP_GE_OQ), is_nan(ld(bv))), ld(av), ld(bv)))
    case F32Op::Fmin:
      MNN_F32_LOOP(sel(_mm256_or_ps(_mm256_cmp_ps(ld(av), ld(bv), _CMP_LE_OQ), is_nan(ld(bv))), ld(av), ld(bv)))
    case F32Op::Negative: MNN_F32_LOOP(_mm256_xor_ps(ld(av), sign))
    case F32Op::Absolute: MNN_F32_LOOP(_mm256_andnot_ps(sign, ld(av)))
    case F32Op::Copy: MNN_F32_LOOP(ld(av))
    case F32Op::Square: MNN_F32_LOOP(_mm256_mul_ps(ld(av), ld(av)))
    case F32Op::Reciprocal: MNN_F32_LOOP(_mm256_div_ps(one, ld(av)))
    case F32Op::Sqrt: MNN_F32_LOOP(_mm256_sqrt_ps(ld(av)))
    case F32Op::Floor: MNN_F32_LOOP(_mm256_round_ps(ld(av), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC))
    case F32Op::Ceil: MNN_F32_LOOP(_mm256_round_ps(ld(av), _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC))
    case F32Op::Trunc: MNN_F32_LOOP(_mm256_round_ps(ld(av), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC))
    case F32Op::Rint: MNN_F32_LOOP(_mm256_round_ps(ld(av), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
    case F32Op::Call: {
      const char* srcs[2] = {reinterpret_cast<const char*>(a), reinterpret_cast<const char*>(b)};
      if constexpr (std::is_same_v<Store, ToScratch>) {
        ins.call(kF32Block, srcs, reinterpret_cast<char*>(d));
      } else {  // the microkernel writes its block to the stack, then it moves to the output
        alignas(32) float tmp[kF32Block];
        ins.call(kF32Block, srcs, reinterpret_cast<char*>(tmp));
        for (int v = 0; v < kVecs; ++v) Store::put(d + 8 * v, _mm256_load_ps(tmp + 8 * v));
      }
      return;
    }
  }
#undef MNN_F32_LOOP
}

void run_program(const F32Instr* code, int ncode, int nin, const float* const* in, const bool* broadcast,
                 float* out, int64_t n, bool stream) {
  alignas(64) float regs[kF32MaxSlots][kF32Block];
  const float* src[kF32MaxSlots];
  for (int s = 0; s < kF32MaxSlots; ++s) src[s] = regs[s];
  for (int k = 0; k < nin; ++k) {
    if (!broadcast[k]) continue;
    for (int e = 0; e < kF32Block; ++e) regs[k][e] = in[k][0];
  }
  const F32Instr& last = code[ncode - 1];
  for (int64_t i = 0; i < n; i += kF32Block) {
    for (int k = 0; k < nin; ++k) {
      if (broadcast[k]) continue;
      src[k] = in[k] + i;
      for (int e = 0; e < kF32Block; e += 16) _mm_prefetch(reinterpret_cast<const char*>(src[k] + kPrefetchAhead + e), _MM_HINT_T0);
    }
    for (int k = 0; k + 1 < ncode; ++k) {
      const F32Instr& ins = code[k];
      step<ToScratch>(ins, src[ins.a], src[ins.b], regs[ins.dst]);
    }
    if (stream) step<Streamed>(last, src[last.a], src[last.b], out + i);
    else step<ToOutput>(last, src[last.a], src[last.b], out + i);
  }
}

}  // namespace

void fill_fused(KernelTable& t) { t.f32_program = &run_program; }
#else
void fill_fused(KernelTable&) {}  // no f32 block kernel: fused programs take the tile path
#endif

}  // namespace mnn::cpu::MNN_ISA_NS
