// The table of CPU microkernels for one ISA. Each ISA target (simd/*.cpp compiled with its own
// -m flags into namespace mnn::cpu::<isa>) fills a KernelTable; at start-up the dispatcher
// (kernels/dispatch.cpp) picks the best target this CPU supports, capped by MNN_ISA.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/node.h"

namespace mnn::cpu {

// out[i] = op(in[0][i], in[1][i], ...) for i < n; every operand contiguous and of the compute
// dtype, except comparison/predicate results, which are bool.
using EwFn = void (*)(int64_t n, const char* const* in, char* out);
using CastFn = void (*)(int64_t n, const char* in, char* out);
// out[i] = cond[i] ? a[i] : b[i] (cond bool; a, b, out of itemsize bytes).
using WhereFn = void (*)(int64_t n, const char* cond, const char* a, const char* b, char* out, size_t itemsize);
using TransposeFn = void (*)(const char* src, int64_t src_pitch, char* dst, int64_t dst_pitch, int64_t rows,
                             int64_t cols);

// GEMM pieces for one float type (simd/gemm_kernels.cpp); blocking and threads: kernels/matmul.cpp.
template <class T>
struct GemmKernel {
  // C[0:m, 0:n] (row stride ldc) = A~ B~, or += when accumulate: a is an MR-row panel packed
  // k-major (a[k*mr + i]), b an NR-column panel (b[k*nr + j]), both zero-padded to mr / nr.
  // pf: memory the kernel may prefetch into L2 meanwhile (kc*16 bytes from it; any address).
  void (*ukr)(int64_t kc, const T* a, const T* b, T* c, int64_t ldc, int m, int n, bool accumulate,
              const T* pf) = nullptr;
  int mr = 0, nr = 0, mc = 0, kc = 0, nc = 0;  // register tile and cache blocks
  // Rows [0, m) of A (strides sm, sk; -A with negate) into ceil(m/mr) panels kc*mr apart, zero-padded.
  void (*pack_a)(T* dst, const T* a, int64_t m, int64_t kc, int64_t sm, int64_t sk, bool negate) = nullptr;
  // Columns [0, n) of B (strides sk, sn) into ceil(n/nr) panels kc*nr apart, zero-padded.
  void (*pack_b)(T* dst, const T* b, int64_t n, int64_t kc, int64_t sk, int64_t sn) = nullptr;
  // y[i] = sum_k a[i*lda + k] x[k], i < m
  void (*gemv_rows)(int64_t m, int64_t k, const T* a, int64_t lda, const T* x, T* y) = nullptr;
  // y[j] = sum_k x[k] b[k*ldb + j], j < n
  void (*gemv_cols)(int64_t k, int64_t n, const T* b, int64_t ldb, const T* x, T* y) = nullptr;
  // contiguous c (m x n) = a b, b with unit column stride; no packing (small operands)
  void (*small)(int64_t m, int64_t n, int64_t k, const T* a, int64_t as_m, int64_t as_k, const T* b, int64_t bs_k,
                T* c) = nullptr;
};

// Reductions (simd/reduce_kernels.cpp; shapes and threads: kernels/reduce.cpp). kind: 0 sum,
// 1 prod, 2 max, 3 min; inputs of the result dtype. run: *acc = reduce(p[0..n)) in the accumulator
// type (float for float16), float sums in numpy's pairwise order; `count` runs `stride` bytes apart
// fill acc[0..count). rows: acc[j] = op(acc[j],
// row_r[j]) for the nrows rows `stride` bytes apart, in order (float16 rounds per row, as numpy).
using ReduceRunFn = void (*)(const char* p, int64_t n, int64_t count, int64_t stride, void* acc);
using ReduceRowsFn = void (*)(const char* base, int64_t stride, int64_t nrows, int64_t n, char* acc);
// Kinds 4 (nanmax) and 5 (nanmin) of reduce_run/reduce_rows skip NaN (numpy's fmax/fmin
// reductions): float types only; a run with no number gives NaN.
// wsum: the sum of a bool/integer run read in its own type and accumulated in int64 (sign- or
// zero-extended, wrapping: the bits of uint64 too); count: how many elements are != 0 (int64).
// Same run/rows shapes as above, acc int64.
// any (0) / all (1) of raw input: the answer for a run; acc[j] = acc[j] or/and (row_r[j] != 0).
using BoolRunFn = bool (*)(const char* p, int64_t n);
using BoolRowsFn = void (*)(const char* base, int64_t stride, int64_t nrows, int64_t n, bool* acc);
// argmax (0) / argmin (1): first index of the extreme (first NaN); rows update best/idx with
// rows numbered r0, r0+1, ... (best, idx hold row r0-1's state, set by the caller).
using ArgRunFn = int64_t (*)(const char* p, int64_t n);
using ArgRowsFn = void (*)(const char* base, int64_t stride, int64_t nrows, int64_t r0, int64_t n, char* best,
                           int64_t* idx);

// One Stockham pass of a complex128 FFT (kernels/fft/fft_plan.h: cc [l1][ip][ido] -> ch
// [ip][l1][ido], twiddles in the plan's pair layout); false for a radix it has no kernel for.
using FftPassFn = bool (*)(int ip, int64_t l1, int64_t ido, const double* tw, const double* in, double* out,
                           bool forward);

// Fused float32 programs run block by block in registers (simd/fused_f32_kernels.cpp; built and
// called by backends/cpu/fused.cpp). Slots [0, nin) hold the inputs, the rest spilled values.
// The program is an accumulator machine: each instruction leaves its value in the accumulator (a
// block of SIMD registers), its operands come from the accumulator or from slots, and `spill` also
// keeps the value in slot dst for a later use; after the last instruction the accumulator is the output.
enum class F32Op : uint8_t {
  Add, Subtract, Multiply, Divide, Maximum, Minimum, Fmax, Fmin,  // binary
  Negative, Absolute, Copy, Square, Reciprocal, Sqrt, Floor, Ceil, Trunc, Rint,  // unary
  Call,  // any other float32 -> float32 microkernel, over slots a (and b) into slot dst, then loaded
};
struct F32Instr {
  F32Op op;
  // bit 0: operand a is the accumulator (slot a otherwise); bit 1: b likewise. A unary op has
  // b == a (form 0 or 3); a Call reads slots (form 0). (The kernel adds its own bits for
  // operands that are broadcast inputs.)
  uint8_t form = 0;
  uint8_t a = 0, b = 0, dst = 0;
  bool spill = false;
  EwFn call = nullptr;
};
constexpr int kF32Block = 64;     // elements per block: n given to the program is a multiple of it
constexpr int kF32MaxSlots = 24;  // inputs + spilled values
// out[0, n) = the program over in[k][0, n), or over in[k][0] for broadcast inputs; every pointer
// float32, out 32-byte aligned when stream (streaming stores bypass the caches; the caller fences).
using F32ProgramFn = void (*)(const F32Instr* code, int ncode, int nin, const float* const* in,
                              const bool* broadcast, float* out, int64_t n, bool stream);

// out[i] = exp(a[i] - shift) in float32 (a row region's exp(x - max)); returns whether some
// a[i] - shift overflows, so the caller raises FE_OVERFLOW as numpy's exp would.
using ExpShiftedFn = bool (*)(int64_t n, const float* a, float shift, float* out);
// The same, and *sum = the sum of out[0..n) in numpy's pairwise order, bit for bit as reduce_run's
// float32 sum (8 <= n <= exp_sum_max_n).
using ExpSumShiftedFn = bool (*)(int64_t n, const float* a, float shift, float* out, float* sum);
// exp_sum_shifted_f32 that also finishes the row before it (softmax, region.cpp run_exp_chain):
// prev_out[i] = prev_e[i] / prev_s for i < n, written with streaming stores a piece at a time
// between this row's exps, and the lines of pf[0, pf_bytes) prefetched (into L2) along the way.
// Done after this row's exps, the previous row's stores came as one burst that waited on the
// memory bus; between them they drain while the exps compute. Each value is the IEEE quotient,
// so the bits are row_chain_f32's.
using ExpSumDivFn = bool (*)(int64_t n, const float* a, float shift, float* out, float* sum, const float* prev_e,
                             float prev_s, float* prev_out, const char* pf, int64_t pf_bytes);

// A row region's result step when it is a chain of float32 +, -, *, / between each element of a
// row and per-row scalars ((x - m) / s, e / s): out[i] = the chain applied to a[i], IEEE operations
// in the program's order and operand order (so the program's bits), written with streaming stores
// where out is 32-byte aligned (the caller fences). Meanwhile the cache lines of pf[0, pf_bytes)
// are prefetched, spread over the row (the next block's rows; simd/row_kernels.cpp).
struct RowChainOp {
  uint8_t op = 0;            // 0 add, 1 subtract, 2 multiply, 3 divide
  bool scalar_first = false;  // s op value, else value op s
  float s = 0.0f;
};
using RowChainFn = void (*)(int64_t n, const float* a, const RowChainOp* ops, int nops, float* out, const char* pf,
                            int64_t pf_bytes);
constexpr int kRowChainMaxOps = 4;

struct KernelTable {
  EwFn ew[static_cast<int>(core::Op::kNumElementwise)][core::kNumDTypes] = {};
  // Binary ops whose second operand is one value broadcast over the n elements (x - m, e / s,
  // x * 2.0): in[1] points at that value, so no tile is filled with copies of it.
  EwFn ew_scalar_b[static_cast<int>(core::Op::kNumElementwise)][core::kNumDTypes] = {};
  CastFn cast[core::kNumDTypes][core::kNumDTypes] = {};
  WhereFn where = nullptr;
  ExpShiftedFn exp_shifted_f32 = nullptr;  // null: no vectorised exp on this target (neon)
  ExpSumShiftedFn exp_sum_shifted_f32 = nullptr;
  ExpSumDivFn exp_sum_div_f32 = nullptr;  // null: exp_sum_shifted_f32, then row_chain_f32
  int64_t exp_sum_max_n = 0;
  ReduceRunFn reduce_run[6][core::kNumDTypes] = {};
  ReduceRowsFn reduce_rows[6][core::kNumDTypes] = {};
  ReduceRunFn wsum_run[core::kNumDTypes] = {};
  ReduceRowsFn wsum_rows[core::kNumDTypes] = {};
  ReduceRunFn count_run[core::kNumDTypes] = {};
  ReduceRowsFn count_rows[core::kNumDTypes] = {};
  BoolRunFn bool_run[2][core::kNumDTypes] = {};
  BoolRowsFn bool_rows[2][core::kNumDTypes] = {};
  ArgRunFn arg_run[2][core::kNumDTypes] = {};
  ArgRowsFn arg_rows[2][core::kNumDTypes] = {};
  // dst[c * dst_pitch + r] = src[r * src_pitch + c] for r < rows, c < cols (pitches in
  // elements); indexed by log2 of the element size (1, 2, 4, 8 bytes). simd/transpose_kernels.cpp.
  TransposeFn transpose[4] = {};
  GemmKernel<float> sgemm;
  GemmKernel<double> dgemm;
  F32ProgramFn f32_program = nullptr;  // null: fused programs take the tile interpreter
  RowChainFn row_chain_f32 = nullptr;  // null: the region runs the step's program
  FftPassFn fft_pass_c128 = nullptr;  // simd/fft_kernels.cpp; null: the plan's generic passes
  // The same pass over two interleaved transforms (data [n][2] complex128); null: no pair path.
  FftPassFn fft_pass_c128x2 = nullptr;
};

// Neon is the aarch64 target; x86 and aarch64 builds never hold both families.
enum class Isa : int { Scalar = 0, AVX2 = 1, AVX512 = 2, Neon = 3 };
constexpr int kNumIsas = 4;
const char* isa_name(Isa isa);
// The level a target registers its per-ISA kernels at (MNN_ISA_LEVEL, prims/registry.h): 0 the
// baseline, 1 the first SIMD tier of the architecture (avx2, neon), 2 avx512.
constexpr int isa_level(Isa isa) { return isa == Isa::Neon ? 1 : static_cast<int>(isa); }
// The ISA whose kernels run: the best compiled-in target the CPU supports, capped by the
// environment variable MNN_ISA=scalar|avx2|avx512 on x86, scalar|neon on aarch64 (read once,
// at first use).
Isa active_isa();
const KernelTable& kernels();
const KernelTable* kernels_for(Isa isa);  // nullptr when not compiled in or not supported (tests)

namespace scalar { void fill_elementwise(KernelTable& t); }
namespace scalar { void fill_reduce(KernelTable& t); }
namespace scalar { void fill_transpose(KernelTable& t); }
namespace scalar { void fill_gemm(KernelTable& t); }
namespace scalar { void fill_fft(KernelTable& t); }
namespace scalar { void fill_fused(KernelTable& t); }  // simd/fused_f32_kernels.cpp
namespace scalar { void fill_vmath(KernelTable& t); }  // simd/vmath_kernels.cpp: after fill_elementwise
namespace scalar { void fill_rows(KernelTable& t); }  // simd/row_kernels.cpp
namespace avx2 { void fill_elementwise(KernelTable& t); }
namespace avx2 { void fill_reduce(KernelTable& t); }
namespace avx2 { void fill_transpose(KernelTable& t); }
namespace avx2 { void fill_gemm(KernelTable& t); }
namespace avx2 { void fill_fft(KernelTable& t); }
namespace avx2 { void fill_fused(KernelTable& t); }  // simd/fused_f32_kernels.cpp
namespace avx2 { void fill_vmath(KernelTable& t); }  // simd/vmath_kernels.cpp: after fill_elementwise
namespace avx2 { void fill_rows(KernelTable& t); }  // simd/row_kernels.cpp
namespace avx512 { void fill_elementwise(KernelTable& t); }
namespace avx512 { void fill_reduce(KernelTable& t); }
namespace avx512 { void fill_transpose(KernelTable& t); }
namespace avx512 { void fill_gemm(KernelTable& t); }
namespace avx512 { void fill_fft(KernelTable& t); }
namespace avx512 { void fill_fused(KernelTable& t); }  // simd/fused_f32_kernels.cpp
namespace avx512 { void fill_vmath(KernelTable& t); }  // simd/vmath_kernels.cpp: after fill_elementwise
namespace avx512 { void fill_rows(KernelTable& t); }  // simd/row_kernels.cpp
namespace neon { void fill_elementwise(KernelTable& t); }
namespace neon { void fill_reduce(KernelTable& t); }
namespace neon { void fill_transpose(KernelTable& t); }
namespace neon { void fill_gemm(KernelTable& t); }
namespace neon { void fill_fft(KernelTable& t); }
namespace neon { void fill_fused(KernelTable& t); }  // simd/fused_f32_kernels.cpp
namespace neon { void fill_vmath(KernelTable& t); }  // simd/vmath_kernels.cpp: after fill_elementwise
namespace neon { void fill_rows(KernelTable& t); }  // simd/row_kernels.cpp

}  // namespace mnn::cpu
