// Fused float32 programs run a block of kF32Block elements at a time (KernelTable::f32_program):
// every instruction is an inline SIMD loop over the block, its value kept in eight ymm registers
// (the accumulator) for the next instruction, its other operands read where they lie (a streamed
// input in place, a spilled value from a small stack block), and the block's result goes straight
// to the output, with streaming stores when asked. The tile interpreter (fused.cpp) calls a
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

#include "backends/cpu/simd/kernel_table.h"

namespace mnn::cpu::MNN_ISA_NS {

#if defined(__AVX2__)
namespace {

constexpr int kVecs = kF32Block / 8;  // ymm registers per block
// Input lines requested this far ahead of the block being computed: the hardware prefetcher alone
// leaves the three streams of the chain short of bandwidth while a block computes.
constexpr int64_t kPrefetchAhead = 512;  // elements

inline __m256 ld(const float* p) { return _mm256_loadu_ps(p); }

// numpy's float maximum/minimum (elementwise_ops.h): a when it wins strictly or is NaN, else b
// (so a tie of -0.0 and +0.0 gives b, as numpy); fmax/fmin take a when it wins or b is NaN.
inline __m256 is_nan(__m256 x) { return _mm256_cmp_ps(x, x, _CMP_UNORD_Q); }
inline __m256 vmax(__m256 x, __m256 y) {
  return _mm256_blendv_ps(y, x, _mm256_or_ps(_mm256_cmp_ps(x, y, _CMP_GT_OQ), is_nan(x)));
}
inline __m256 vmin(__m256 x, __m256 y) {
  return _mm256_blendv_ps(y, x, _mm256_or_ps(_mm256_cmp_ps(x, y, _CMP_LT_OQ), is_nan(x)));
}
inline __m256 vfmax(__m256 x, __m256 y) {
  return _mm256_blendv_ps(y, x, _mm256_or_ps(_mm256_cmp_ps(x, y, _CMP_GT_OQ), is_nan(y)));
}
inline __m256 vfmin(__m256 x, __m256 y) {
  return _mm256_blendv_ps(y, x, _mm256_or_ps(_mm256_cmp_ps(x, y, _CMP_LT_OQ), is_nan(y)));
}
inline __m256 vneg(__m256 x) { return _mm256_xor_ps(x, _mm256_set1_ps(-0.0f)); }
inline __m256 vabs(__m256 x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }
inline __m256 vcopy(__m256 x) { return x; }
inline __m256 vsquare(__m256 x) { return _mm256_mul_ps(x, x); }
inline __m256 vrecip(__m256 x) { return _mm256_div_ps(_mm256_set1_ps(1.0f), x); }
inline __m256 vfloor(__m256 x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
inline __m256 vceil(__m256 x) { return _mm256_round_ps(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); }
inline __m256 vtrunc(__m256 x) { return _mm256_round_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
inline __m256 vrint(__m256 x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }

template <bool Stream>
void run_blocks(const F32Instr* code, int ncode, int nin, const float* const* in, const bool* broadcast,
                float* out, int64_t n) {
  alignas(64) float slots[kF32MaxSlots][kF32Block];
  const float* src[kF32MaxSlots];
  for (int s = 0; s < kF32MaxSlots; ++s) src[s] = slots[s];
  for (int k = 0; k < nin; ++k) {
    if (!broadcast[k]) continue;
    for (int e = 0; e < kF32Block; ++e) slots[k][e] = in[k][0];
  }
  // the program's first instruction always writes the accumulator; zeroing it once keeps the
  // compiler from assuming otherwise (-Wmaybe-uninitialized)
  __m256 acc[kVecs];
  for (int v = 0; v < kVecs; ++v) acc[v] = _mm256_setzero_ps();
  for (int64_t i = 0; i < n; i += kF32Block) {
    for (int k = 0; k < nin; ++k) {
      if (broadcast[k]) continue;
      src[k] = in[k] + i;
      for (int e = 0; e < kF32Block; e += 16) _mm_prefetch(reinterpret_cast<const char*>(src[k] + kPrefetchAhead + e), _MM_HINT_T0);
    }
    for (int k = 0; k < ncode; ++k) {
      const F32Instr& ins = code[k];
      const float* a = src[ins.a];
      const float* b = src[ins.b];
      // one jump per instruction: the case is the opcode and where its operands lie
#define MNN_F32_CASE(OP, FORM) case (static_cast<int>(F32Op::OP) << 2 | FORM)
#define MNN_F32_BINARY(OP, F)                                                                        \
  MNN_F32_CASE(OP, 0) : for (int v = 0; v < kVecs; ++v) acc[v] = F(ld(a + 8 * v), ld(b + 8 * v)); break; \
  MNN_F32_CASE(OP, 1) : for (int v = 0; v < kVecs; ++v) acc[v] = F(acc[v], ld(b + 8 * v)); break;        \
  MNN_F32_CASE(OP, 2) : for (int v = 0; v < kVecs; ++v) acc[v] = F(ld(a + 8 * v), acc[v]); break;        \
  MNN_F32_CASE(OP, 3) : for (int v = 0; v < kVecs; ++v) acc[v] = F(acc[v], acc[v]); break;
#define MNN_F32_UNARY(OP, F)                                                             \
  MNN_F32_CASE(OP, 0) : for (int v = 0; v < kVecs; ++v) acc[v] = F(ld(a + 8 * v)); break; \
  MNN_F32_CASE(OP, 3) : for (int v = 0; v < kVecs; ++v) acc[v] = F(acc[v]); break;
      switch (static_cast<int>(ins.op) << 2 | ins.form) {
        MNN_F32_BINARY(Add, _mm256_add_ps)
        MNN_F32_BINARY(Subtract, _mm256_sub_ps)
        MNN_F32_BINARY(Multiply, _mm256_mul_ps)
        MNN_F32_BINARY(Divide, _mm256_div_ps)
        MNN_F32_BINARY(Maximum, vmax)
        MNN_F32_BINARY(Minimum, vmin)
        MNN_F32_BINARY(Fmax, vfmax)
        MNN_F32_BINARY(Fmin, vfmin)
        MNN_F32_UNARY(Negative, vneg)
        MNN_F32_UNARY(Absolute, vabs)
        MNN_F32_UNARY(Copy, vcopy)
        MNN_F32_UNARY(Square, vsquare)
        MNN_F32_UNARY(Reciprocal, vrecip)
        MNN_F32_UNARY(Sqrt, _mm256_sqrt_ps)
        MNN_F32_UNARY(Floor, vfloor)
        MNN_F32_UNARY(Ceil, vceil)
        MNN_F32_UNARY(Trunc, vtrunc)
        MNN_F32_UNARY(Rint, vrint)
        MNN_F32_CASE(Call, 0) : {  // operands in slots (the builder spills them); the value is loaded back
          const char* args[2] = {reinterpret_cast<const char*>(a), reinterpret_cast<const char*>(b)};
          ins.call(kF32Block, args, reinterpret_cast<char*>(slots[ins.dst]));
          for (int v = 0; v < kVecs; ++v) acc[v] = _mm256_load_ps(slots[ins.dst] + 8 * v);
          break;
        }
        default: __builtin_unreachable();  // the builder (fused.cpp) emits only the forms above
      }
#undef MNN_F32_BINARY
#undef MNN_F32_UNARY
#undef MNN_F32_CASE
      if (ins.spill)
        for (int v = 0; v < kVecs; ++v) _mm256_store_ps(slots[ins.dst] + 8 * v, acc[v]);
    }
    for (int v = 0; v < kVecs; ++v) {
      if (Stream) _mm256_stream_ps(out + i + 8 * v, acc[v]);
      else _mm256_storeu_ps(out + i + 8 * v, acc[v]);
    }
  }
}

void run_program(const F32Instr* code, int ncode, int nin, const float* const* in, const bool* broadcast,
                 float* out, int64_t n, bool stream) {
  if (stream) run_blocks<true>(code, ncode, nin, in, broadcast, out, n);
  else run_blocks<false>(code, ncode, nin, in, broadcast, out, n);
}

}  // namespace

void fill_fused(KernelTable& t) { t.f32_program = &run_program; }
#else
void fill_fused(KernelTable&) {}  // no f32 block kernel: fused programs take the tile path
#endif

}  // namespace mnn::cpu::MNN_ISA_NS
