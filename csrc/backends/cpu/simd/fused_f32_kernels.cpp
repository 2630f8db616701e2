// Fused float32 programs run a block of kF32Block elements at a time (KernelTable::f32_program):
// every instruction is an inline SIMD loop over the block, its value kept in eight ymm registers
// (the accumulator) for the next instruction, its other operands read where they lie (a streamed
// input in place, a spilled value from a small stack block), and the block's result goes straight
// to the output, with streaming stores when asked. The tile interpreter (fused.cpp) calls a
// microkernel per instruction over 512-element tiles, then copies the result out; on a chain that
// streams 256 MB (a*b + c*2 - sqrt(abs(a)) on 16M float32) its arithmetic and copies overlap the
// memory stream only in part, while these blocks keep the loads and stores flowing. There is no
// software prefetch: on a Zen 3 core, requesting the input streams 1-8 KB ahead made that chain
// slower, both here and in a hand-written loop; the hardware prefetchers follow three streams.
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

inline __m256 ld(const float* p) { return _mm256_loadu_ps(p); }
// A load that stays in program order: the handlers read an operand's eight vectors lowest
// address first. Left to itself GCC issued a block's loads from its last vector down (0xe0,
// 0xc0, ... 0x00), a descending walk inside every 256-byte block of an input stream. On a
// contended Zen 3 core (load 10-13) the 16M chain a*b + c*2 - sqrt(abs(a)) ran at a median 1.32x
// the time of a hand-written ascending AVX2 loop over the same buffers before, 1.18x after
// (paired in-process runs, 8 alternating process pairs; 5 of the 8 pairs favoured the change).
inline __m256 ldo(const float* p) {
  __m256 v = _mm256_loadu_ps(p);
  __asm__ volatile("" : "+x"(v) : : "memory");
  return v;
}

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

// The program runs as threaded code: decoded once per call into steps, each step a handler
// function that does its work on the accumulator and then tail-calls the next step's handler.
// The accumulator travels as eight __m256 arguments, which the x86-64 ABI passes in ymm0-ymm7,
// so it stays in registers from step to step, and each handler ends in its own indirect jump,
// which the branch predictor learns per site. A step costs ~4 instructions besides its
// arithmetic. The switch in a loop this replaces spent ~15 per instruction and block (decoding,
// pointer updates, the spill test, one shared jump), and GCC kept its accumulator on the stack
// (the Call case's call clobbers the ymm registers); on cache-resident data the chain
// a*b + c*2 - sqrt(abs(a)) took 3x the time of a hand-written loop, now 1.4x. (GCC's labels as
// values would also give one jump per handler, but then GCC keeps the accumulator in memory.)
struct Step;
#define MNN_ACC_PARAMS __m256 x0, __m256 x1, __m256 x2, __m256 x3, __m256 x4, __m256 x5, __m256 x6, __m256 x7
#define MNN_ACC_ARGS x0, x1, x2, x3, x4, x5, x6, x7
using Handler = void (*)(const Step* s, intptr_t ib, MNN_ACC_PARAMS);

// Operands are a base address plus (mask & the block's byte offset ib): a streamed input moves
// with the block (mask ~0), a slot or a broadcast input's filled slot stays put (mask 0).
struct Step {
  Handler fn;
  const char* a;
  const char* b;
  intptr_t ma, mb;
  float* dst;  // the slot a spill or a call writes; the output, for the step that stores
  EwFn call;
  const Step* first;  // for the step that stores: the program's first step, run on the next block
  intptr_t end;       // and the byte offset where the blocks end
};
constexpr int kMaxSteps = 64 + 1;  // each instruction, and the final store

inline const float* opa(const Step* s, intptr_t ib) { return reinterpret_cast<const float*>(s->a + (s->ma & ib)); }
inline const float* opb(const Step* s, intptr_t ib) { return reinterpret_cast<const float*>(s->b + (s->mb & ib)); }

#define MNN_ACC_MAP(EXPR)                                                                                   \
  x0 = EXPR(0, x0); x1 = EXPR(1, x1); x2 = EXPR(2, x2); x3 = EXPR(3, x3); x4 = EXPR(4, x4); x5 = EXPR(5, x5); \
  x6 = EXPR(6, x6); x7 = EXPR(7, x7)

// Stores the accumulator to d (32-byte aligned unless Stream: then for streaming stores).
template <bool Stream>
inline void put(float* d, MNN_ACC_PARAMS) {
  if (Stream) {
    _mm256_stream_ps(d, x0), _mm256_stream_ps(d + 8, x1), _mm256_stream_ps(d + 16, x2), _mm256_stream_ps(d + 24, x3);
    _mm256_stream_ps(d + 32, x4), _mm256_stream_ps(d + 40, x5), _mm256_stream_ps(d + 48, x6), _mm256_stream_ps(d + 56, x7);
  } else {
    _mm256_store_ps(d, x0), _mm256_store_ps(d + 8, x1), _mm256_store_ps(d + 16, x2), _mm256_store_ps(d + 24, x3);
    _mm256_store_ps(d + 32, x4), _mm256_store_ps(d + 40, x5), _mm256_store_ps(d + 48, x6), _mm256_store_ps(d + 56, x7);
  }
}

// Stores the block's result (to s->dst + ib) and goes on with the next block from s->first,
// returning to run_program's loop every kRunBlocks blocks, so the calls nest a bounded depth where
// the compiler does not turn them into jumps (unoptimised builds).
constexpr intptr_t kRunBlocks = 16;
template <bool Stream>
__attribute__((always_inline)) inline void finish(const Step* s, intptr_t ib, MNN_ACC_PARAMS) {
  float* o = reinterpret_cast<float*>(reinterpret_cast<char*>(s->dst) + ib);
  if (Stream) {
    put<true>(o, MNN_ACC_ARGS);
  } else {
    _mm256_storeu_ps(o, x0), _mm256_storeu_ps(o + 8, x1), _mm256_storeu_ps(o + 16, x2), _mm256_storeu_ps(o + 24, x3);
    _mm256_storeu_ps(o + 32, x4), _mm256_storeu_ps(o + 40, x5), _mm256_storeu_ps(o + 48, x6), _mm256_storeu_ps(o + 56, x7);
  }
  constexpr intptr_t kBlockBytes = kF32Block * sizeof(float);
  ib += kBlockBytes;
  if (ib % (kRunBlocks * kBlockBytes) == 0 || ib == s->end) return;
  return s->first->fn(s->first, ib, MNN_ACC_ARGS);
}

// What a step does after its arithmetic (Mode): 0 tail-calls the next step; 1 also keeps the
// value in slot s->dst for a later instruction (spill); 2 and 3 are the last instruction's: the
// block's result goes to the output (3: streaming stores) and the next block starts, one step and
// one indirect jump less per block than a store step of its own (a Call last still takes one).
// Where the remaining gap to a hand-written loop lies: on cache-resident data (16K elements, one
// Zen 3 core, loaded host) the 6 steps of a*b + c*2 - sqrt(abs(a)) took ~1.25x the time of the
// same loads, spills and arithmetic written as one straight-line loop, and that loop matched the
// hand-written one; the straight-line loop reading its operand addresses from a step table came
// out as fast as it in one build and as slow as the steps in another (benchmarks/native/
// fused_chain_ab.cpp). Fusing pairs
// of steps into superinstructions (the 7 steps it had before, down to 4) did not close it outside
// the noise (5.3-6.1 against 5.6-6.2 ms, straight-line 3.9-4.2), so it is
// not the jump count alone.
enum Mode { kNext = 0, kSpill = 1, kStore = 2, kStream = 3 };
template <int M>
__attribute__((always_inline)) inline void next(const Step* s, intptr_t ib, MNN_ACC_PARAMS) {
  if (M == kSpill) put<false>(s->dst, MNN_ACC_ARGS);
  if (M == kStore || M == kStream) return finish<M == kStream>(s, ib, MNN_ACC_ARGS);
  return s[1].fn(s + 1, ib, MNN_ACC_ARGS);
}
#define MNN_NEXT return next<M>(s, ib, MNN_ACC_ARGS)

// Form (kernel_table.h): bit 0, operand a is the accumulator; bit 1, operand b is.
template <class Op, int Form, int M>
void binary(const Step* s, intptr_t ib, MNN_ACC_PARAMS) {
  [[maybe_unused]] const float* a = opa(s, ib);
  [[maybe_unused]] const float* b = opb(s, ib);
  // a broadcast operand (bits 2, 3) is one value: loaded once, not once per vector
  [[maybe_unused]] __m256 ua, ub;
  if (Form & 4) ua = _mm256_broadcast_ss(a);
  if (Form & 8) ub = _mm256_broadcast_ss(b);
#define MNN_E(V, X)                                                                                  \
  Op::f(Form & 1 ? X : Form & 4 ? ua : ldo(a + 8 * V), Form & 2 ? X : Form & 8 ? ub : ldo(b + 8 * V))
  MNN_ACC_MAP(MNN_E);
#undef MNN_E
  MNN_NEXT;
}

template <class Op, int Form, int M>
void unary(const Step* s, intptr_t ib, MNN_ACC_PARAMS) {
  [[maybe_unused]] const float* a = opa(s, ib);
#define MNN_E(V, X) Op::f(Form ? X : ldo(a + 8 * V))
  MNN_ACC_MAP(MNN_E);
#undef MNN_E
  MNN_NEXT;
}

// Any other float32 microkernel: operands in slots or inputs, the value through its slot. The
// accumulator is dead here (the call's value replaces it), so the call clobbers nothing live.
void call(const Step* s, intptr_t ib, MNN_ACC_PARAMS) {
  constexpr int M = kNext;  // its value is in its slot already
  const char* args[2] = {reinterpret_cast<const char*>(opa(s, ib)), reinterpret_cast<const char*>(opb(s, ib))};
  s->call(kF32Block, args, reinterpret_cast<char*>(s->dst));
#define MNN_E(V, X) _mm256_load_ps(s->dst + 8 * V)
  MNN_ACC_MAP(MNN_E);
#undef MNN_E
  MNN_NEXT;
}

// The step that stores after a Call (whose value is in its slot, not in a step of its own).
template <bool Stream>
void store(const Step* s, intptr_t ib, MNN_ACC_PARAMS) {
  return finish<Stream>(s, ib, MNN_ACC_ARGS);
}
#undef MNN_NEXT
#undef MNN_ACC_MAP

#define MNN_F32_OP(NAME, EXPR) \
  struct NAME {                \
    static __m256 f(__m256 x, __m256 y) { return EXPR; } \
  };
// x86 returns the first source's NaN when both operands are NaN, as numpy does for its first
// operand; GCC may swap an add's or a multiply's operands (commutative), so asm pins the order.
inline __m256 add_ordered(__m256 x, __m256 y) {
  __m256 r;
  asm("vaddps %2, %1, %0" : "=x"(r) : "x"(x), "xm"(y));
  return r;
}
inline __m256 mul_ordered(__m256 x, __m256 y) {
  __m256 r;
  asm("vmulps %2, %1, %0" : "=x"(r) : "x"(x), "xm"(y));
  return r;
}
MNN_F32_OP(AddOp, add_ordered(x, y))
MNN_F32_OP(SubOp, _mm256_sub_ps(x, y))
MNN_F32_OP(MulOp, mul_ordered(x, y))
MNN_F32_OP(DivOp, _mm256_div_ps(x, y))
MNN_F32_OP(MaxOp, vmax(x, y))
MNN_F32_OP(MinOp, vmin(x, y))
MNN_F32_OP(FmaxOp, vfmax(x, y))
MNN_F32_OP(FminOp, vfmin(x, y))
#undef MNN_F32_OP
#define MNN_F32_OP(NAME, EXPR) \
  struct NAME {                \
    static __m256 f(__m256 x) { return EXPR; } \
  };
MNN_F32_OP(NegOp, vneg(x))
MNN_F32_OP(AbsOp, vabs(x))
MNN_F32_OP(CopyOp, x)
MNN_F32_OP(SquareOp, vsquare(x))
MNN_F32_OP(RecipOp, vrecip(x))
MNN_F32_OP(SqrtOp, _mm256_sqrt_ps(x))
MNN_F32_OP(FloorOp, vfloor(x))
MNN_F32_OP(CeilOp, vceil(x))
MNN_F32_OP(TruncOp, vtrunc(x))
MNN_F32_OP(RintOp, vrint(x))
#undef MNN_F32_OP

// handler per [mode][opcode << 4 | form]: form bits 0 and 1, operand a / b is the accumulator;
// bits 2 and 3, it is a broadcast slot. Unary ops read a only (bit 0: the accumulator); a Call
// form 0 only (and no storing mode: a store step follows it).
#define MNN_B4(OP, M, F) &binary<OP, F, M>, &binary<OP, F + 1, M>, &binary<OP, F + 2, M>, &binary<OP, F + 3, M>,
#define MNN_B(OP, M) MNN_B4(OP, M, 0) MNN_B4(OP, M, 4) MNN_B4(OP, M, 8) MNN_B4(OP, M, 12)
#define MNN_U4(OP, M) &unary<OP, 0, M>, &unary<OP, 3, M>, &unary<OP, 0, M>, &unary<OP, 3, M>,
#define MNN_U(OP, M) MNN_U4(OP, M) MNN_U4(OP, M) MNN_U4(OP, M) MNN_U4(OP, M)
#define MNN_N4 nullptr, nullptr, nullptr, nullptr,
#define MNN_ALL(M, CALL)                                                                                      \
  {MNN_B(AddOp, M) MNN_B(SubOp, M) MNN_B(MulOp, M) MNN_B(DivOp, M) MNN_B(MaxOp, M) MNN_B(MinOp, M)           \
   MNN_B(FmaxOp, M) MNN_B(FminOp, M) MNN_U(NegOp, M) MNN_U(AbsOp, M) MNN_U(CopyOp, M) MNN_U(SquareOp, M)     \
   MNN_U(RecipOp, M) MNN_U(SqrtOp, M) MNN_U(FloorOp, M) MNN_U(CeilOp, M) MNN_U(TruncOp, M) MNN_U(RintOp, M) \
   CALL, nullptr, nullptr, nullptr, MNN_N4 MNN_N4 MNN_N4}
constexpr int kNumKeys = 16 * (static_cast<int>(F32Op::Call) + 1);
const Handler kHandlers[4][kNumKeys] = {MNN_ALL(kNext, &call), MNN_ALL(kSpill, &call), MNN_ALL(kStore, nullptr),
                                        MNN_ALL(kStream, nullptr)};
#undef MNN_B4
#undef MNN_U4
#undef MNN_N4
#undef MNN_B
#undef MNN_U
#undef MNN_ALL

void run_program(const F32Instr* code, int ncode, int nin, const float* const* in, const bool* broadcast,
                 float* out, int64_t n, bool stream) {
  alignas(64) float slots[kF32MaxSlots][kF32Block];
  for (int k = 0; k < nin; ++k) {
    if (!broadcast[k]) continue;
    for (int e = 0; e < kF32Block; ++e) slots[k][e] = in[k][0];
  }
  auto operand = [&](int r, const char*& base, intptr_t& mask) {
    const bool moves = r < nin && !broadcast[r];
    base = moves ? reinterpret_cast<const char*>(in[r]) : reinterpret_cast<const char*>(slots[r]);
    mask = moves ? ~intptr_t(0) : 0;
  };
  Step steps[kMaxSteps];
  const intptr_t end = n * static_cast<intptr_t>(sizeof(float));
  int ns = 0;
  for (int k = 0; k < ncode; ++k) {
    const F32Instr& ins = code[k];
    // operands that are broadcast inputs (and not the accumulator) read one value
    int form = ins.form & 3;
    if (ins.op != F32Op::Call) {
      if (!(form & 1) && ins.a < nin && broadcast[ins.a]) form |= 4;
      if (!(form & 2) && ins.b < nin && broadcast[ins.b]) form |= 8;
    }
    const int key = static_cast<int>(ins.op) << 4 | form;
    const bool stores = k + 1 == ncode && ins.op != F32Op::Call && !ins.spill;  // the last one stores
    Step& st = steps[ns++];
    st.fn = kHandlers[stores ? (stream ? kStream : kStore) : ins.spill ? kSpill : kNext][key];
    operand(ins.a, st.a, st.ma);
    operand(ins.b, st.b, st.mb);
    st.dst = stores ? out : slots[ins.dst];
    st.call = ins.call;
    st.first = steps;
    st.end = end;
  }
  if (steps[ns - 1].dst != out)  // a Call (or a spill) last: a step of its own stores
    steps[ns++] = Step{stream ? &store<true> : &store<false>, nullptr, nullptr, 0, 0, out, nullptr, steps, end};
  const __m256 z = _mm256_setzero_ps();  // the first step always writes the accumulator
  for (intptr_t ib = 0; ib < end; ib += kRunBlocks * kF32Block * static_cast<intptr_t>(sizeof(float)))
    steps[0].fn(steps, ib, z, z, z, z, z, z, z, z);
}
#undef MNN_ACC_PARAMS
#undef MNN_ACC_ARGS

}  // namespace

void fill_fused(KernelTable& t) { t.f32_program = &run_program; }
#else
void fill_fused(KernelTable&) {}  // no f32 block kernel: fused programs take the tile path
#endif

}  // namespace mnn::cpu::MNN_ISA_NS
