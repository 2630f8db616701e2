// Where the fused block program's time goes, against hand-written code, on the issue 3 chain
// a*b + c*2 - sqrt(abs(a)) (float32): the block program (csrc/backends/cpu/simd/fused_f32_kernels.cpp,
// included here) called per 65536-element chunk as fused.cpp does ("prog64k") and over everything
// at once ("progall"), a hand-written AVX2 loop with streaming stores ("hand64"), the program's
// own steps as one straight-line loop ("straight": the same loads, spills and arithmetic, no
// jumps) and the same with operand addresses read from a step table ("strsteps"). Thread-time
// median and min per variant, the variants interleaved. Not part of the build:
//   g++ -O3 -mavx2 -mfma -mf16c -fno-math-errno -fno-trapping-math -ffp-contract=off -std=c++17 \
//       -Icsrc benchmarks/native/fused_chain_ab.cpp -o /tmp/fused_chain_ab
//   /tmp/fused_chain_ab 15            # 16M elements (memory bound)
//   /tmp/fused_chain_ab 15 16384      # 16K elements, repeated to the same total (cache resident)
// Standalone A/B: the block program (threaded code) vs hand loops, 16M float32 chain.
#define MNN_ISA_NS avx2
#include "backends/cpu/simd/fused_f32_kernels.cpp"
#include <time.h>
#include <sys/mman.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cmath>
using namespace mnn::cpu; using namespace mnn::cpu::avx2;
static double tt() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static double wt() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static float* alloc(size_t n) { size_t b = n * 4; void* p = aligned_alloc(2 << 20, (b + (2<<20)-1)/(2<<20)*(2<<20)); madvise(p, b, MADV_HUGEPAGE); return (float*)p; }
__attribute__((noinline)) void hand(const float* a, const float* b, const float* c, float* o, int64_t n) {
  const __m256 two = _mm256_set1_ps(2.0f), sm = _mm256_set1_ps(-0.0f);
  for (int64_t i = 0; i < n; i += 64) {
#define E(V) { __m256 va = _mm256_loadu_ps(a + i + 8*V), vb = _mm256_loadu_ps(b + i + 8*V), vc = _mm256_loadu_ps(c + i + 8*V); \
    __m256 r = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(va, vb), _mm256_mul_ps(two, vc)), _mm256_sqrt_ps(_mm256_andnot_ps(sm, va))); _mm256_stream_ps(o + i + 8*V, r); }
    E(0) E(1) E(2) E(3) E(4) E(5) E(6) E(7)
#undef E
  }
}
// the block program's steps as straight-line code: spills to a stack slot, the scalar from a slot
__attribute__((noinline)) void straight(const float* a, const float* b, const float* c, const float* twos, float* o, int64_t n) {
  alignas(64) float s4[64], s6[64];
  for (int64_t i = 0; i < n; i += 64) {
    __m256 x[8];
    for (int v = 0; v < 8; ++v) x[v] = mul_ordered(ldo(a + i + 8*v), ldo(b + i + 8*v));
    for (int v = 0; v < 8; ++v) _mm256_store_ps(s4 + 8*v, x[v]);
    for (int v = 0; v < 8; ++v) x[v] = mul_ordered(ldo(twos + 8*v), ldo(c + i + 8*v));
    for (int v = 0; v < 8; ++v) x[v] = add_ordered(ldo(s4 + 8*v), x[v]);
    for (int v = 0; v < 8; ++v) _mm256_store_ps(s6 + 8*v, x[v]);
    for (int v = 0; v < 8; ++v) x[v] = vabs(ldo(a + i + 8*v));
    for (int v = 0; v < 8; ++v) x[v] = _mm256_sqrt_ps(x[v]);
    for (int v = 0; v < 8; ++v) x[v] = _mm256_sub_ps(ldo(s6 + 8*v), x[v]);
    for (int v = 0; v < 8; ++v) _mm256_stream_ps(o + i + 8*v, x[v]);
  }
}
struct SOp { const char* a; const char* b; intptr_t ma, mb; float* dst; };
static inline const float* A(const SOp& o, intptr_t ib) { return (const float*)(o.a + (o.ma & ib)); }
static inline const float* B(const SOp& o, intptr_t ib) { return (const float*)(o.b + (o.mb & ib)); }
__attribute__((noinline)) void straight_steps(const SOp* ops, float* o, int64_t n) {
  for (intptr_t ib = 0; ib < n * 4; ib += 256) {
    __m256 x[8];
    const float *pa = A(ops[0], ib), *pb = B(ops[0], ib);
    for (int v = 0; v < 8; ++v) x[v] = mul_ordered(ldo(pa + 8*v), ldo(pb + 8*v));
    for (int v = 0; v < 8; ++v) _mm256_store_ps(ops[0].dst + 8*v, x[v]);
    pa = A(ops[1], ib); pb = B(ops[1], ib);
    for (int v = 0; v < 8; ++v) x[v] = mul_ordered(ldo(pa + 8*v), ldo(pb + 8*v));
    pa = A(ops[2], ib);
    for (int v = 0; v < 8; ++v) x[v] = add_ordered(ldo(pa + 8*v), x[v]);
    for (int v = 0; v < 8; ++v) _mm256_store_ps(ops[2].dst + 8*v, x[v]);
    pa = A(ops[3], ib);
    for (int v = 0; v < 8; ++v) x[v] = vabs(ldo(pa + 8*v));
    for (int v = 0; v < 8; ++v) x[v] = _mm256_sqrt_ps(x[v]);
    pa = A(ops[5], ib);
    for (int v = 0; v < 8; ++v) x[v] = _mm256_sub_ps(ldo(pa + 8*v), x[v]);
    float* po = (float*)((char*)o + ib);
    for (int v = 0; v < 8; ++v) _mm256_stream_ps(po + 8*v, x[v]);
  }
}
int main(int argc, char** argv) {
  const int64_t n = argc > 2 ? atoll(argv[2]) : (16 << 20); const int inner = (16 << 20) / n;
  float *a = alloc(n), *b = alloc(n), *c = alloc(n), *o = alloc(n), *o2 = alloc(n);
  for (int64_t i = 0; i < n; ++i) { a[i] = std::sin(i * 0.37f); b[i] = std::cos(i * 0.11f); c[i] = (i % 97) * 0.01f - 0.3f; }
  memset(o, 0, n*4); memset(o2, 0, n*4);
  float two = 2.0f;
  // program: t4=a*b (spill), t5=2*c, t6=t4+t5 (spill), t7=|a|, t8=sqrt, t9=t6-t8
  F32Instr code[6];
  code[0] = {F32Op::Multiply, 0, 0, 1, 4, true, nullptr};
  code[1] = {F32Op::Multiply, 0, 3, 2, 5, false, nullptr};
  code[2] = {F32Op::Add, 2, 4, 5, 6, true, nullptr};
  code[3] = {F32Op::Absolute, 0, 0, 0, 7, false, nullptr};
  code[4] = {F32Op::Sqrt, 3, 7, 7, 8, false, nullptr};
  code[5] = {F32Op::Subtract, 2, 6, 8, 9, false, nullptr};
  const float* in[4] = {a, b, c, &two};
  bool bc[4] = {false, false, false, true};
  F32ProgramFn prog = nullptr; { KernelTable t; avx2::fill_fused(t); prog = t.f32_program; }
  auto run_prog = [&](float* out) { for (int64_t s = 0; s < n; s += 65536) { const float* ii[4] = {a + s, b + s, c + s, &two}; prog(code, 6, 4, ii, bc, out + s, std::min<int64_t>(65536, n - s), true); } _mm_sfence(); };
  alignas(64) static float sl[8][64]; for (int k = 0; k < 64; ++k) sl[3][k] = 2.0f;
  SOp sops[6] = {{(const char*)a, (const char*)b, ~intptr_t(0), ~intptr_t(0), sl[4]}, {(const char*)sl[3], (const char*)c, 0, ~intptr_t(0), nullptr},
    {(const char*)sl[4], nullptr, 0, 0, sl[6]}, {(const char*)a, nullptr, ~intptr_t(0), 0, nullptr}, {nullptr, nullptr, 0, 0, nullptr}, {(const char*)sl[6], nullptr, 0, 0, nullptr}};
  const char* names[] = {"prog64k", "hand64", "progall", "straight", "strsteps"};
  alignas(64) float twos[64]; for (int k = 0; k < 64; ++k) twos[k] = 2.0f;
  int nv = 5, reps = argc > 1 ? atoi(argv[1]) : 15;
  std::vector<double> T[8], W[8];
  for (int r = 0; r < reps; ++r)
    for (int v = 0; v < nv; ++v) {
      double t0 = tt(), w0 = wt(); for (int q = 0; q < inner; ++q) {
      if (v == 0) run_prog(o); else if (v == 1) { hand(a, b, c, o2, n); _mm_sfence(); }
      else if (v == 2) { prog(code, 6, 4, in, bc, o, n, true); _mm_sfence(); }
      else if (v == 3) { straight(a, b, c, twos, o2, n); _mm_sfence(); }
      else if (v == 4) { straight_steps(sops, o2, n); _mm_sfence(); }
      } T[v].push_back(tt() - t0); W[v].push_back(wt() - w0);
    }
  if (memcmp(o, o2, n * 4)) printf("MISMATCH\n");
  for (int v = 0; v < nv; ++v) { std::sort(T[v].begin(), T[v].end()); std::sort(W[v].begin(), W[v].end());
    printf("%-8s thread med %.2f min %.2f ms | wall med %.2f min %.2f\n", names[v], T[v][reps/2]*1e3, T[v][0]*1e3, W[v][reps/2]*1e3, W[v][0]*1e3); }
}
