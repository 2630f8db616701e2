// GEMM microkernels for one ISA (compiled once per target, see CMakeLists.txt). The blocking,
// packing and threading live in kernels/matmul.cpp; this file holds what runs in the innermost
// loops: the register-blocked MR x NR microkernel over packed panels, the matrix-vector kernels
// and the small-matrix kernel. One template serves every ISA: the register type is a GCC vector
// of the target's width (16 bytes for the baseline build, 32 for AVX2, 64 for AVX-512), so the
// AVX-512 kernel is the AVX2 one with wider registers, same MR and the same loop. The aarch64
// neon target has its own tiles (8x12 float, 4x8 double) written with arm_neon.h: 32 vector
// registers hold twice the accumulators, and the by-lane FMA reads A without broadcasts.
// Everything has internal linkage except fill_gemm().
#include <cstring>

#include "backends/cpu/simd/neon.h"

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "backends/cpu/simd/kernel_table.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

#if defined(__AVX512F__)
constexpr int kVecBytes = 64;
#elif defined(__AVX2__)
constexpr int kVecBytes = 32;
#else
constexpr int kVecBytes = 16;
#endif

template <class T>
struct Vec {
  typedef T reg __attribute__((vector_size(kVecBytes)));
  static constexpr int W = kVecBytes / sizeof(T);
  static reg load(const T* p) {
    reg r;
    std::memcpy(&r, p, sizeof r);
    return r;
  }
  static void store(T* p, reg r) { std::memcpy(p, &r, sizeof r); }
  static reg bcast(T x) {  // not reg{} + x: without -ffast-math that is a real add (0 + -0 = 0)
#if defined(__AVX512F__)
    if constexpr (sizeof(T) == 4) return (reg)_mm512_set1_ps(x);
    else return (reg)_mm512_set1_pd(x);
#elif defined(__AVX2__)
    if constexpr (sizeof(T) == 4) return (reg)_mm256_set1_ps(x);
    else return (reg)_mm256_set1_pd(x);
#elif defined(MNN_NEON)
    if constexpr (sizeof(T) == 4) return (reg)vdupq_n_f32(x);
    else return (reg)vdupq_n_f64(x);
#else
    reg r;
    for (int i = 0; i < W; ++i) r[i] = x;
    return r;
#endif
  }
  static reg zero() { return reg{}; }
  // acc + a*b: one rounding where the target has FMA (GEMM's summation order differs from any
  // other library's anyway; callers compare with a tolerance).
  static reg fma(reg a, reg b, reg acc) {
#if defined(__AVX512F__)
    if constexpr (sizeof(T) == 4) return (reg)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)acc);
    else return (reg)_mm512_fmadd_pd((__m512d)a, (__m512d)b, (__m512d)acc);
#elif defined(__FMA__)
    if constexpr (sizeof(T) == 4) return (reg)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)acc);
    else return (reg)_mm256_fmadd_pd((__m256d)a, (__m256d)b, (__m256d)acc);
#elif defined(MNN_NEON)
    if constexpr (sizeof(T) == 4) return (reg)vfmaq_f32((float32x4_t)acc, (float32x4_t)a, (float32x4_t)b);
    else return (reg)vfmaq_f64((float64x2_t)acc, (float64x2_t)a, (float64x2_t)b);
#else
    return acc + a * b;
#endif
  }
};

// The register tile: MR rows x NR columns.
#if defined(MNN_NEON)
template <class T> constexpr int kMR = sizeof(T) == 4 ? 8 : 4;  // 24 / 16 accumulators of 32 registers
template <class T> constexpr int kNR = sizeof(T) == 4 ? 12 : 8;
#else
template <class T> constexpr int kMR = 6;  // NR = 2 vectors (12 accumulators + 3 temporaries)
template <class T> constexpr int kNR = 2 * Vec<T>::W;
#endif

// tile = A~ B~ over kc steps, where a is an MR-row panel (a[k*MR + i]) and b an NR-column panel
// (b[k*NR + j]), both zero-padded to the full tile. Portable version: GCC vectors of the target
// width (used for the baseline and AVX-512 targets).
template <class T>
[[maybe_unused]] void kloop_vec(int64_t kc, const T* __restrict a, const T* __restrict b, T (*tile)[kNR<T>]) {
  using V = Vec<T>;
  using reg = typename V::reg;
  constexpr int W = V::W, NR = 2 * W;
  constexpr int MR = 6;
  static_assert(kNR<T> == NR && kMR<T> == MR, "the generic tile is 6 x 2 vectors");
  reg c00 = V::zero(), c01 = V::zero(), c10 = V::zero(), c11 = V::zero(), c20 = V::zero(), c21 = V::zero();
  reg c30 = V::zero(), c31 = V::zero(), c40 = V::zero(), c41 = V::zero(), c50 = V::zero(), c51 = V::zero();
  for (int64_t k = 0; k < kc; ++k, a += MR, b += NR) {
    reg b0 = V::load(b), b1 = V::load(b + W), av;
    av = V::bcast(a[0]); c00 = V::fma(av, b0, c00); c01 = V::fma(av, b1, c01);
    av = V::bcast(a[1]); c10 = V::fma(av, b0, c10); c11 = V::fma(av, b1, c11);
    av = V::bcast(a[2]); c20 = V::fma(av, b0, c20); c21 = V::fma(av, b1, c21);
    av = V::bcast(a[3]); c30 = V::fma(av, b0, c30); c31 = V::fma(av, b1, c31);
    av = V::bcast(a[4]); c40 = V::fma(av, b0, c40); c41 = V::fma(av, b1, c41);
    av = V::bcast(a[5]); c50 = V::fma(av, b0, c50); c51 = V::fma(av, b1, c51);
  }
  const reg rows[MR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
  for (int i = 0; i < MR; ++i) {
    V::store(tile[i], rows[i][0]);
    V::store(tile[i] + W, rows[i][1]);
  }
}

#if defined(__AVX2__) && defined(__FMA__) && !defined(__AVX512F__)
// AVX2 + FMA: the same loop in assembly. GCC's register allocator spills two of the twelve
// accumulators of the intrinsic version (15 of 16 ymm registers live), which costs ~20%.
// ymm0-11 accumulate rows 0-5 (two vectors each), ymm12-13 hold B, ymm14-15 A broadcasts.
// SUF: s (float) / d (double); ES: element size; AO / BO: byte offsets of this k step.
#define MNN_GEMM_ROW(SUF, ES, AO, I, RA, C0, C1)                                  \
  "vbroadcasts" SUF " " AO "+" #I "*" ES "(%[a]), %%ymm" #RA "\n\t"              \
  "vfmadd231p" SUF " %%ymm12, %%ymm" #RA ", %%ymm" #C0 "\n\t"                    \
  "vfmadd231p" SUF " %%ymm13, %%ymm" #RA ", %%ymm" #C1 "\n\t"
#define MNN_GEMM_STEP(SUF, ES, AO, BO)                                            \
  "vmovups " BO "(%[b]), %%ymm12\n\t"                                            \
  "vmovups " BO "+32(%[b]), %%ymm13\n\t"                                         \
  MNN_GEMM_ROW(SUF, ES, AO, 0, 14, 0, 1) MNN_GEMM_ROW(SUF, ES, AO, 1, 15, 2, 3)  \
  MNN_GEMM_ROW(SUF, ES, AO, 2, 14, 4, 5) MNN_GEMM_ROW(SUF, ES, AO, 3, 15, 6, 7)  \
  MNN_GEMM_ROW(SUF, ES, AO, 4, 14, 8, 9) MNN_GEMM_ROW(SUF, ES, AO, 5, 15, 10, 11)
// After the loop the tile goes straight to C (row stride ldc bytes, rows 3-5 addressed from
// c3 = c + 3 ldc), added to it when acc != 0. Once per 4 k steps the loop touches one line of pf
// into L2: the driver points it at the B panel the next tiles will use, so that panel is on its
// way from L3 while this one computes (it needs no more than the L2 prefetch; L1 keeps this one).
#define MNN_GEMM_ROWOUT(SUF, R0, R1, ADDR0, ADDR1)                                                  \
  "vaddp" SUF " " ADDR0 ", %%ymm" #R0 ", %%ymm" #R0 "\n\t vaddp" SUF " " ADDR1 ", %%ymm" #R1 ", %%ymm" #R1 "\n\t"
#define MNN_GEMM_ROWST(SUF, R0, R1, ADDR0, ADDR1) "vmovups %%ymm" #R0 ", " ADDR0 "\n\t vmovups %%ymm" #R1 ", " ADDR1 "\n\t"
#define MNN_GEMM_ROWS(M, SUF)                                                                         \
  M(SUF, 0, 1, "(%[c])", "32(%[c])") M(SUF, 2, 3, "(%[c],%[ldc])", "32(%[c],%[ldc])")                  \
  M(SUF, 4, 5, "(%[c],%[ldc],2)", "32(%[c],%[ldc],2)") M(SUF, 6, 7, "(%[c3])", "32(%[c3])")            \
  M(SUF, 8, 9, "(%[c3],%[ldc])", "32(%[c3],%[ldc])") M(SUF, 10, 11, "(%[c3],%[ldc],2)", "32(%[c3],%[ldc],2)")
#define MNN_GEMM_KLOOP(SUF, ES)                                                                    \
  "vxorps %%ymm0, %%ymm0, %%ymm0\n\t vxorps %%ymm1, %%ymm1, %%ymm1\n\t"                            \
  "vxorps %%ymm2, %%ymm2, %%ymm2\n\t vxorps %%ymm3, %%ymm3, %%ymm3\n\t"                            \
  "vxorps %%ymm4, %%ymm4, %%ymm4\n\t vxorps %%ymm5, %%ymm5, %%ymm5\n\t"                            \
  "vxorps %%ymm6, %%ymm6, %%ymm6\n\t vxorps %%ymm7, %%ymm7, %%ymm7\n\t"                            \
  "vxorps %%ymm8, %%ymm8, %%ymm8\n\t vxorps %%ymm9, %%ymm9, %%ymm9\n\t"                            \
  "vxorps %%ymm10, %%ymm10, %%ymm10\n\t vxorps %%ymm11, %%ymm11, %%ymm11\n\t"                      \
  "test %[k4], %[k4]\n\t jz 2f\n\t"                                                                \
  "1:\n\t"                                                                                         \
  "prefetcht0 4*6*" ES "*4(%[a])\n\t"                                                             \
  "prefetcht1 (%[pf])\n\t"                                                                         \
  MNN_GEMM_STEP(SUF, ES, "0*6*" ES, "0") MNN_GEMM_STEP(SUF, ES, "1*6*" ES, "64")                  \
  MNN_GEMM_STEP(SUF, ES, "2*6*" ES, "128") MNN_GEMM_STEP(SUF, ES, "3*6*" ES, "192")               \
  "add $4*6*" ES ", %[a]\n\t add $256, %[b]\n\t add $64, %[pf]\n\t dec %[k4]\n\t jnz 1b\n\t"      \
  "2:\n\t test %[k1], %[k1]\n\t jz 4f\n\t"                                                         \
  "3:\n\t"                                                                                         \
  MNN_GEMM_STEP(SUF, ES, "0", "0")                                                                 \
  "add $6*" ES ", %[a]\n\t add $64, %[b]\n\t dec %[k1]\n\t jnz 3b\n\t"                             \
  "4:\n\t test %[acc], %[acc]\n\t jz 5f\n\t"                                                       \
  MNN_GEMM_ROWS(MNN_GEMM_ROWOUT, SUF)                                                             \
  "5:\n\t"                                                                                         \
  MNN_GEMM_ROWS(MNN_GEMM_ROWST, SUF)                                                                \
  : [a] "+r"(a), [b] "+r"(b), [k4] "+r"(k4), [k1] "+r"(k1), [pf] "+r"(pf)                          \
  : [c] "r"(c), [c3] "r"(c3), [ldc] "r"(ldc), [acc] "r"(acc)                                       \
  : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",       \
    "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory", "cc"

// C (MR x NR, row stride ldc elements) = A~ B~ over kc steps, or += with acc.
template <class T>
void kloop_c(int64_t kc, const T* a, const T* b, T* c, int64_t ldc, bool accumulate, const T* pf) {
  static_assert(2 * Vec<T>::W * sizeof(T) == 64, "the assembly assumes 64-byte B rows");
  int64_t k4 = kc / 4, k1 = kc % 4;
  const int64_t acc = accumulate;
  T* c3 = c + 3 * ldc;
  ldc *= sizeof(T);
  if constexpr (sizeof(T) == 4) asm volatile(MNN_GEMM_KLOOP("s", "4"));
  else asm volatile(MNN_GEMM_KLOOP("d", "8"));
}
#define MNN_GEMM_KLOOP_C 1
#undef MNN_GEMM_KLOOP
#undef MNN_GEMM_ROWS
#undef MNN_GEMM_ROWST
#undef MNN_GEMM_ROWOUT
#undef MNN_GEMM_STEP
#undef MNN_GEMM_ROW
#elif defined(MNN_NEON)
// float 8x12: rows 0-3 and 4-7 of A are two q registers, each row's broadcast is a lane of
// them (FMLA by element); B is three q registers. 24 + 5 of the 32 registers. The accumulators
// are named variables: GCC keeps an array of them on the stack across iterations.
void kloop(int64_t kc, const float* __restrict a, const float* __restrict b, float (*tile)[12]) {
#define MNN_NEON_DECL(I) float32x4_t c##I##0 = vdupq_n_f32(0.0f), c##I##1 = c##I##0, c##I##2 = c##I##0;
  MNN_NEON_DECL(0) MNN_NEON_DECL(1) MNN_NEON_DECL(2) MNN_NEON_DECL(3)
  MNN_NEON_DECL(4) MNN_NEON_DECL(5) MNN_NEON_DECL(6) MNN_NEON_DECL(7)
#undef MNN_NEON_DECL
  for (int64_t k = 0; k < kc; ++k, a += 8, b += 12) {
    const float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4), b2 = vld1q_f32(b + 8);
    const float32x4_t a0 = vld1q_f32(a), a1 = vld1q_f32(a + 4);
#define MNN_NEON_ROW(I, A, L)                 \
  c##I##0 = vfmaq_laneq_f32(c##I##0, b0, A, L); \
  c##I##1 = vfmaq_laneq_f32(c##I##1, b1, A, L); \
  c##I##2 = vfmaq_laneq_f32(c##I##2, b2, A, L);
    MNN_NEON_ROW(0, a0, 0) MNN_NEON_ROW(1, a0, 1) MNN_NEON_ROW(2, a0, 2) MNN_NEON_ROW(3, a0, 3)
    MNN_NEON_ROW(4, a1, 0) MNN_NEON_ROW(5, a1, 1) MNN_NEON_ROW(6, a1, 2) MNN_NEON_ROW(7, a1, 3)
#undef MNN_NEON_ROW
  }
#define MNN_NEON_STORE(I) \
  vst1q_f32(tile[I], c##I##0), vst1q_f32(tile[I] + 4, c##I##1), vst1q_f32(tile[I] + 8, c##I##2);
  MNN_NEON_STORE(0) MNN_NEON_STORE(1) MNN_NEON_STORE(2) MNN_NEON_STORE(3)
  MNN_NEON_STORE(4) MNN_NEON_STORE(5) MNN_NEON_STORE(6) MNN_NEON_STORE(7)
#undef MNN_NEON_STORE
}

// double 4x8: two q registers of A (rows 0-1, 2-3), four of B, 16 accumulators.
void kloop(int64_t kc, const double* __restrict a, const double* __restrict b, double (*tile)[8]) {
#define MNN_NEON_DECL(I) float64x2_t c##I##0 = vdupq_n_f64(0.0), c##I##1 = c##I##0, c##I##2 = c##I##0, c##I##3 = c##I##0;
  MNN_NEON_DECL(0) MNN_NEON_DECL(1) MNN_NEON_DECL(2) MNN_NEON_DECL(3)
#undef MNN_NEON_DECL
  for (int64_t k = 0; k < kc; ++k, a += 4, b += 8) {
    const float64x2_t b0 = vld1q_f64(b), b1 = vld1q_f64(b + 2), b2 = vld1q_f64(b + 4), b3 = vld1q_f64(b + 6);
    const float64x2_t a0 = vld1q_f64(a), a1 = vld1q_f64(a + 2);
#define MNN_NEON_ROW(I, A, L)                   \
  c##I##0 = vfmaq_laneq_f64(c##I##0, b0, A, L); \
  c##I##1 = vfmaq_laneq_f64(c##I##1, b1, A, L); \
  c##I##2 = vfmaq_laneq_f64(c##I##2, b2, A, L); \
  c##I##3 = vfmaq_laneq_f64(c##I##3, b3, A, L);
    MNN_NEON_ROW(0, a0, 0) MNN_NEON_ROW(1, a0, 1) MNN_NEON_ROW(2, a1, 0) MNN_NEON_ROW(3, a1, 1)
#undef MNN_NEON_ROW
  }
#define MNN_NEON_STORE(I)                                                                          \
  vst1q_f64(tile[I], c##I##0), vst1q_f64(tile[I] + 2, c##I##1), vst1q_f64(tile[I] + 4, c##I##2), \
      vst1q_f64(tile[I] + 6, c##I##3);
  MNN_NEON_STORE(0) MNN_NEON_STORE(1) MNN_NEON_STORE(2) MNN_NEON_STORE(3)
#undef MNN_NEON_STORE
}
#else
template <class T>
void kloop(int64_t kc, const T* a, const T* b, T (*tile)[kNR<T>]) {
  kloop_vec(kc, a, b, tile);
}
#endif

// C[0:m, 0:n] (row stride ldc) = A~ B~, or += when accumulate; pf: see MNN_GEMM_KLOOP (a hint,
// any address: prefetches never fault).
template <class T>
void ukr(int64_t kc, const T* __restrict a, const T* __restrict b, T* __restrict c, int64_t ldc, int m, int n,
         bool accumulate, const T* pf) {
  using V = Vec<T>;
  constexpr int W = V::W, MR = kMR<T>, NR = kNR<T>;
  static_assert(NR % W == 0);
  for (int i = 0; i < m; ++i) __builtin_prefetch(c + i * ldc, 1), __builtin_prefetch(c + i * ldc + NR - 1, 1);
  alignas(64) T tile[MR][NR];
#if defined(MNN_GEMM_KLOOP_C)
  if (m == MR && n == NR) {
    kloop_c(kc, a, b, c, ldc, accumulate, pf);
    return;
  }
  kloop_c(kc, a, b, &tile[0][0], NR, false, pf);
#else
  (void)pf;
  kloop(kc, a, b, tile);
  if (m == MR && n == NR) {
    for (int i = 0; i < MR; ++i) {
      T* ci = c + i * ldc;
      for (int j = 0; j < NR; j += W) {
        if (accumulate) V::store(ci + j, V::load(ci + j) + V::load(tile[i] + j));
        else V::store(ci + j, V::load(tile[i] + j));
      }
    }
    return;
  }
#endif
  for (int i = 0; i < m; ++i) {
    T* ci = c + i * ldc;
    if (accumulate)
      for (int j = 0; j < n; ++j) ci[j] += tile[i][j];
    else
      for (int j = 0; j < n; ++j) ci[j] = tile[i][j];
  }
}

// Packing. pack_a: rows [0, m) of A (strides sm, sk) into ceil(m/MR) MR-row panels, k-major
// (dst[k*MR + i] within a panel, panels kc*MR apart), rows past m zero; with negate, -A.
// pack_b: columns [0, n) of B (strides sk, sn) into ceil(n/NR) NR-column panels (dst[k*NR + j],
// panels kc*NR apart), columns past n zero. Both only copy, so the products do not depend on
// which path packed them. The AVX2 paths transpose 8 x 8 (float) / 4 x 4 (double) blocks in
// registers; a scalar loop over the same elements handles the rest.
template <class T>
void pack_a_scalar(T* dst, const T* src, int64_t m, int64_t kc, int64_t sm, int64_t sk, bool negate) {
  constexpr int MR = kMR<T>;
  const T s1 = negate ? T(-1) : T(1);
  for (int64_t k = 0; k < kc; ++k) {
    const T* s = src + k * sk;
    T* d = dst + k * MR;
    int64_t i = 0;
    for (; i < m; ++i) d[i] = s1 * s[i * sm];
    for (; i < MR; ++i) d[i] = T(0);
  }
}

template <class T>
void pack_b_scalar(T* dst, const T* src, int64_t n, int64_t kc, int64_t sk, int64_t sn) {
  constexpr int NR = kNR<T>;
  for (int64_t j = 0; j < n; ++j) {
    const T* s = src + j * sn;
    for (int64_t k = 0; k < kc; ++k) dst[k * NR + j] = s[k * sk];
  }
  for (int64_t j = n; j < NR; ++j)
    for (int64_t k = 0; k < kc; ++k) dst[k * NR + j] = T(0);
}

#if defined(__AVX2__)
// r[i] <- column i of the 8 x 8 block whose rows are r[0..7].
inline void transpose8(__m256* r) {
  __m256 t[8], u[8];
  for (int i = 0; i < 8; i += 2) t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]), t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  for (int i = 0; i < 8; i += 4) {
    u[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
    u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
    u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  for (int i = 0; i < 4; ++i) r[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20), r[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
}
// r[i] <- column i of the 4 x 4 block whose rows are r[0..3].
inline void transpose4(__m256d* r) {
  const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
  const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
  r[0] = _mm256_permute2f128_pd(t0, t2, 0x20), r[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
  r[2] = _mm256_permute2f128_pd(t0, t2, 0x31), r[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}
#endif

template <class T>
void pack_a(T* dst, const T* src, int64_t m, int64_t kc, int64_t sm, int64_t sk, bool negate) {
  constexpr int MR = kMR<T>;
  for (int64_t i0 = 0; i0 < m; i0 += MR, dst += kc * MR) {
    const T* s = src + i0 * sm;
    const int64_t mi = m - i0 < MR ? m - i0 : MR;
    int64_t k = 0;
#if defined(__AVX2__)
    if constexpr (MR == 6) {
      if (mi == MR && sk == 1) {  // rows contiguous: transpose blocks of 6 rows x 8 (4) columns
        if constexpr (sizeof(T) == 4) {
          const __m256 sg = _mm256_set1_ps(negate ? -0.0f : 0.0f);  // xor: exact negation
          for (; k + 8 <= kc; k += 8) {
            // Every other block (one line of each row), touch the next panel's rows: a panel's
            // rows are kc*4 bytes long, too short for the hardware streams to ramp up, so
            // without this each line comes from L3/DRAM at full latency.
            if ((k & 15) == 0)
              for (int i = 0; i < 6; ++i) _mm_prefetch(reinterpret_cast<const char*>(s + (MR + i) * sm + k), _MM_HINT_T0);
            __m256 r[8];
            for (int i = 0; i < 6; ++i) r[i] = _mm256_xor_ps(_mm256_loadu_ps(s + i * sm + k), sg);
            r[6] = r[7] = _mm256_setzero_ps();
            transpose8(r);
            // Each store writes 8 lanes, the last two overwritten by the next; the block's last
            // column is stored exactly, so nothing past this panel is touched.
            T* d = dst + k * MR;
            for (int j = 0; j < 7; ++j) _mm256_storeu_ps(d + j * MR, r[j]);
            _mm_storeu_ps(d + 7 * MR, _mm256_castps256_ps128(r[7]));
            _mm_storel_pi(reinterpret_cast<__m64*>(d + 7 * MR + 4), _mm256_extractf128_ps(r[7], 1));
          }
        } else {
          const __m256d sg = _mm256_set1_pd(negate ? -0.0 : 0.0);
          for (; k + 4 <= kc; k += 4) {
            if ((k & 7) == 0)  // as for float: the next panel's rows, one line each
              for (int i = 0; i < 6; ++i) _mm_prefetch(reinterpret_cast<const char*>(s + (MR + i) * sm + k), _MM_HINT_T0);
            __m256d r[4], q[4];
            for (int i = 0; i < 4; ++i) r[i] = _mm256_xor_pd(_mm256_loadu_pd(s + i * sm + k), sg);
            q[0] = _mm256_xor_pd(_mm256_loadu_pd(s + 4 * sm + k), sg);
            q[1] = _mm256_xor_pd(_mm256_loadu_pd(s + 5 * sm + k), sg);
            transpose4(r);
            const __m256d lo = _mm256_unpacklo_pd(q[0], q[1]), hi = _mm256_unpackhi_pd(q[0], q[1]);
            const __m128d tail[4] = {_mm256_castpd256_pd128(lo), _mm256_castpd256_pd128(hi), _mm256_extractf128_pd(lo, 1),
                                     _mm256_extractf128_pd(hi, 1)};
            T* d = dst + k * MR;
            for (int j = 0; j < 4; ++j) _mm256_storeu_pd(d + j * MR, r[j]), _mm_storeu_pd(d + j * MR + 4, tail[j]);
          }
        }
      } else if (mi == MR && sm == 1) {  // columns contiguous (a transposed A): 6 values per k
        const T s1 = negate ? T(-1) : T(1);
        for (; k < kc; ++k)
          for (int i = 0; i < MR; ++i) dst[k * MR + i] = s1 * s[k * sk + i];
      }
    }
#endif
    if (k < kc) pack_a_scalar(dst + k * MR, s + k * sk, mi, kc - k, sm, sk, negate);
  }
}

template <class T>
void pack_b(T* dst, const T* src, int64_t n, int64_t kc, int64_t sk, int64_t sn) {
  using V = Vec<T>;
  constexpr int NR = kNR<T>, W = V::W;
  const int64_t nfull = n / NR;  // whole panels; a partial last one takes the scalar loop
  if (sn == 1) {
    // Eight rows at a time: each panel gets eight consecutive rows (whole cache lines, in order)
    // while the eight row streams of B are read sequentially. Row by row would write one line
    // into every panel per row, kc*NR apart, all into the same L1 set (~2x slower).
    for (int64_t k0 = 0; k0 < kc; k0 += 8) {
      const int64_t kb = kc - k0 < 8 ? kc - k0 : 8;
      const T* s = src + k0 * sk;
      T* d = dst + k0 * NR;
      if (kb == 8) {
#if defined(__AVX2__)
        constexpr int R32 = NR * sizeof(T) / 32;  // 32-byte pieces per panel row
        static_assert(R32 * 32 == NR * sizeof(T));
        for (int64_t p = 0; p < nfull; ++p, s += NR, d += kc * NR)
          for (int k = 0; k < 8; ++k)
            for (int j = 0; j < R32; ++j)
              _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + k * NR) + j,
                                  _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + k * sk) + j));
#else
        for (int64_t p = 0; p < nfull; ++p, s += NR, d += kc * NR)
          for (int k = 0; k < 8; ++k)
            for (int j = 0; j < NR; j += W) V::store(d + k * NR + j, V::load(s + k * sk + j));
#endif
      } else {
        for (int64_t p = 0; p < nfull; ++p, s += NR, d += kc * NR)
          for (int64_t k = 0; k < kb; ++k)
            for (int j = 0; j < NR; j += W) V::store(d + k * NR + j, V::load(s + k * sk + j));
      }
    }
  }
#if defined(__AVX2__)
  else if (sk == 1 && NR == 16 && sizeof(T) == 4) {  // columns contiguous (a transposed B)
    for (int64_t p = 0; p < nfull; ++p) {
      const float* s = reinterpret_cast<const float*>(src) + p * NR * sn;
      float* d = reinterpret_cast<float*>(dst) + p * kc * NR;
      int64_t k = 0;
      for (; k + 8 <= kc; k += 8)
        for (int h = 0; h < 2; ++h) {
          __m256 r[8];
          for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_ps(s + (h * 8 + j) * sn + k);
          transpose8(r);
          for (int kk = 0; kk < 8; ++kk) _mm256_storeu_ps(d + (k + kk) * NR + h * 8, r[kk]);
        }
      if (k < kc) pack_b_scalar(reinterpret_cast<T*>(d + k * NR), reinterpret_cast<const T*>(s + k), NR, kc - k, sk, sn);
    }
  } else if (sk == 1 && NR == 8 && sizeof(T) == 8) {
    for (int64_t p = 0; p < nfull; ++p) {
      const double* s = reinterpret_cast<const double*>(src) + p * NR * sn;
      double* d = reinterpret_cast<double*>(dst) + p * kc * NR;
      int64_t k = 0;
      for (; k + 4 <= kc; k += 4)
        for (int h = 0; h < 2; ++h) {
          __m256d r[4];
          for (int j = 0; j < 4; ++j) r[j] = _mm256_loadu_pd(s + (h * 4 + j) * sn + k);
          transpose4(r);
          for (int kk = 0; kk < 4; ++kk) _mm256_storeu_pd(d + (k + kk) * NR + h * 4, r[kk]);
        }
      if (k < kc) pack_b_scalar(reinterpret_cast<T*>(d + k * NR), reinterpret_cast<const T*>(s + k), NR, kc - k, sk, sn);
    }
  }
#endif
  else {
    for (int64_t p = 0; p < nfull; ++p) pack_b_scalar(dst + p * kc * NR, src + p * NR * sn, NR, kc, sk, sn);
  }
  if (nfull * NR < n) pack_b_scalar(dst + nfull * kc * NR, src + nfull * NR * sn, n - nfull * NR, kc, sk, sn);
}

// The pairwise combination of gemv_rows' L lane sums (s[l] += s[l + w] for w = L/2 .. 1) in scalar
// registers. In place on the stack, GCC's wide loads of lanes the tail had just written one by one
// missed store forwarding: ~20 ns a row, all of a row's time when K is small (A @ x, 5 columns).
// Same additions in the same order: the same bits.
template <class T, int L>
__attribute__((noinline, optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-tree-loop-distribute-patterns")))
T pairwise_lanes(const T* s) {
  T t[L / 2];
  for (int l = 0; l < L / 2; ++l) t[l] = s[l] + s[l + L / 2];
  for (int w = L / 4; w >= 1; w /= 2)
    for (int l = 0; l < w; ++l) t[l] += t[l + w];
  return t[0];
}

// A row shorter than L (no vector step ran): lane l holds 0 + a[l] x[l] (l < K) or 0, as the lane
// array of the general path would, combined the same way, all without touching memory.
template <class T, int L>
__attribute__((noinline, optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-tree-loop-distribute-patterns")))
T short_row(const T* a, const T* x, int64_t kk) {
  T t[L];
  for (int l = 0; l < L; ++l) t[l] = l < kk ? T(0) + a[l] * x[l] : T(0);
  for (int w = L / 2; w >= 1; w /= 2)
    for (int l = 0; l < w; ++l) t[l] += t[l + w];
  return t[0];
}

// y[i] = sum_k A[i*lda + k] x[k]. Lane-wise partial sums (lane l adds the k = l mod L terms in
// order), combined pairwise at the end. Written with explicit vectors: GCC vectorised the
// lane-array form only partly for double (A @ x ran at half of numpy's speed).
template <class T>
void gemv_rows(int64_t m, int64_t kk, const T* __restrict a, int64_t lda, const T* __restrict x, T* __restrict y) {
  using V = Vec<T>;
  using reg = typename V::reg;
  constexpr int W = V::W, L = 2 * W;
  const int64_t kv = kk / L * L;
  // Finish one row: spill its vector sums to lanes, add the tail, reduce pairwise.
  auto finish = [&](const T* ai, reg v0, reg v1) {
    if (kv == 0) return short_row<T, L>(ai, x, kk);
    alignas(64) T s[L];
    V::store(s, v0);
    V::store(s + W, v1);
    for (int64_t k = kv, l = 0; k < kk; ++k, ++l) s[l] += ai[k] * x[k];
    return pairwise_lanes<T, L>(s);
  };
  int64_t i = 0;
  // Four rows at a time: x is loaded once for four, and four streams keep more loads in flight.
  for (; i + 4 <= m; i += 4) {
    const T* a0 = a + i * lda;
    const T* a1 = a0 + lda;
    const T* a2 = a1 + lda;
    const T* a3 = a2 + lda;
    reg s00 = V::zero(), s01 = V::zero(), s10 = V::zero(), s11 = V::zero();
    reg s20 = V::zero(), s21 = V::zero(), s30 = V::zero(), s31 = V::zero();
    for (int64_t k = 0; k < kv; k += L) {
      const reg x0 = V::load(x + k), x1 = V::load(x + k + W);
      s00 = s00 + V::load(a0 + k) * x0, s01 = s01 + V::load(a0 + k + W) * x1;
      s10 = s10 + V::load(a1 + k) * x0, s11 = s11 + V::load(a1 + k + W) * x1;
      s20 = s20 + V::load(a2 + k) * x0, s21 = s21 + V::load(a2 + k + W) * x1;
      s30 = s30 + V::load(a3 + k) * x0, s31 = s31 + V::load(a3 + k + W) * x1;
    }
    y[i] = finish(a0, s00, s01);
    y[i + 1] = finish(a1, s10, s11);
    y[i + 2] = finish(a2, s20, s21);
    y[i + 3] = finish(a3, s30, s31);
  }
  for (; i < m; ++i) {
    const T* ai = a + i * lda;
    reg s0 = V::zero(), s1 = V::zero();
    for (int64_t k = 0; k < kv; k += L)
      s0 = s0 + V::load(ai + k) * V::load(x + k), s1 = s1 + V::load(ai + k + W) * V::load(x + k + W);
    y[i] = finish(ai, s0, s1);
  }
}

// y[j] = sum_k x[k] B[k*ldb + j] (added in k order), columns in chunks of 16 KiB of y (it stays in
// L1). Four rows of B per pass over the chunk: y is loaded and stored once per four rows, and
// four row streams are in flight; each y[j] still takes its terms one at a time, in k order.
template <class T>
void gemv_cols(int64_t kk, int64_t n, const T* __restrict b, int64_t ldb, const T* __restrict x, T* __restrict y) {
  using V = Vec<T>;
  using reg = typename V::reg;
  constexpr int W = V::W;
  constexpr int64_t kChunk = 16384 / sizeof(T);
  for (int64_t j0 = 0; j0 < n; j0 += kChunk) {
    const int64_t j1 = j0 + kChunk < n ? j0 + kChunk : n;
    const int64_t jv = j0 + (j1 - j0) / W * W;
    for (int64_t j = j0; j < j1; ++j) y[j] = T(0);
    int64_t k = 0;
    for (; k + 4 <= kk; k += 4) {
      const T* b0 = b + k * ldb;
      const T* b1 = b0 + ldb;
      const T* b2 = b1 + ldb;
      const T* b3 = b2 + ldb;
      const reg x0 = V::bcast(x[k]), x1 = V::bcast(x[k + 1]), x2 = V::bcast(x[k + 2]), x3 = V::bcast(x[k + 3]);
      for (int64_t j = j0; j < jv; j += W) {
        reg v = V::load(y + j);
        v = v + x0 * V::load(b0 + j);
        v = v + x1 * V::load(b1 + j);
        v = v + x2 * V::load(b2 + j);
        v = v + x3 * V::load(b3 + j);
        V::store(y + j, v);
      }
      for (int64_t j = jv; j < j1; ++j) {
        T v = y[j];
        v += x[k] * b0[j];
        v += x[k + 1] * b1[j];
        v += x[k + 2] * b2[j];
        v += x[k + 3] * b3[j];
        y[j] = v;
      }
    }
    for (; k < kk; ++k) {
      const T xv = x[k];
      const T* bk = b + k * ldb;
      for (int64_t j = j0; j < j1; ++j) y[j] += xv * bk[j];
    }
  }
}

// C = A B for small operands with unit column stride in B: no packing, C rows stay in L1.
template <class T>
void small(int64_t m, int64_t n, int64_t kk, const T* __restrict a, int64_t as_m, int64_t as_k, const T* __restrict b,
           int64_t bs_k, T* __restrict c) {
  for (int64_t i = 0; i < m; ++i) {
    T* ci = c + i * n;
    for (int64_t j = 0; j < n; ++j) ci[j] = T(0);
    for (int64_t k = 0; k < kk; ++k) {
      const T av = a[i * as_m + k * as_k];
      const T* bk = b + k * bs_k;
      for (int64_t j = 0; j < n; ++j) ci[j] += av * bk[j];
    }
  }
}

template <class T>
void fill_one(GemmKernel<T>& g) {
  g.ukr = &ukr<T>;
  g.pack_a = &pack_a<T>;
  g.pack_b = &pack_b<T>;
  g.gemv_rows = &gemv_rows<T>;
  g.gemv_cols = &gemv_cols<T>;
  g.small = &small<T>;
  g.mr = kMR<T>;
  g.nr = kNR<T>;
  // A block (MC x KC) in half of L2, B micro-panel (KC x NR) in half of L1, B block (KC x NC)
  // in L3; MC is a multiple of MR, NC of NR.
  g.kc = 256;
  g.mc = (sizeof(T) == 4 ? 144 : 72) / kMR<T> * kMR<T>;
  g.nc = 4080 / g.nr * g.nr;
}

}  // namespace

void fill_gemm(KernelTable& t) {
  fill_one(t.sgemm);
  fill_one(t.dgemm);
}

}  // namespace mnn::cpu::MNN_ISA_NS
