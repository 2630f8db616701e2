// GEMM microkernels for one ISA (compiled once per target, see CMakeLists.txt). The blocking,
// packing and threading live in kernels/matmul.cpp; this file holds what runs in the innermost
// loops: the register-blocked MR x NR microkernel over packed panels, the matrix-vector kernels
// and the small-matrix kernel. One template serves every ISA: the register type is a GCC vector
// of the target's width (16 bytes for the baseline build, 32 for AVX2, 64 for AVX-512), so the
// AVX-512 kernel is the AVX2 one with wider registers, same MR and the same loop.
// Everything has internal linkage except fill_gemm().
#include <cstring>

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
#else
    return acc + a * b;
#endif
  }
};

constexpr int kMR = 6;  // rows of the register tile; NR = 2 vectors (12 accumulators + 3 temporaries)

// C[0:m, 0:n] (=|+=) A~ B~ where a is an MR-row panel (a[k*MR + i]) and b an NR-column panel
// (b[k*NR + j]), both zero-padded to the full tile, so the loop never branches on edges.
template <class T>
void ukr(int64_t kc, const T* __restrict a, const T* __restrict b, T* __restrict c, int64_t ldc, int m, int n,
         bool accumulate) {
  using V = Vec<T>;
  using reg = typename V::reg;
  constexpr int W = V::W, NR = 2 * W;
  reg c00 = V::zero(), c01 = V::zero(), c10 = V::zero(), c11 = V::zero(), c20 = V::zero(), c21 = V::zero();
  reg c30 = V::zero(), c31 = V::zero(), c40 = V::zero(), c41 = V::zero(), c50 = V::zero(), c51 = V::zero();
  for (int i = 0; i < m; ++i) __builtin_prefetch(c + i * ldc, 1), __builtin_prefetch(c + i * ldc + NR - 1, 1);
  auto step = [&](const T* ap, const T* bp) __attribute__((always_inline)) {
    reg b0 = V::load(bp), b1 = V::load(bp + W), av;
    av = V::bcast(ap[0]); c00 = V::fma(av, b0, c00); c01 = V::fma(av, b1, c01);
    av = V::bcast(ap[1]); c10 = V::fma(av, b0, c10); c11 = V::fma(av, b1, c11);
    av = V::bcast(ap[2]); c20 = V::fma(av, b0, c20); c21 = V::fma(av, b1, c21);
    av = V::bcast(ap[3]); c30 = V::fma(av, b0, c30); c31 = V::fma(av, b1, c31);
    av = V::bcast(ap[4]); c40 = V::fma(av, b0, c40); c41 = V::fma(av, b1, c41);
    av = V::bcast(ap[5]); c50 = V::fma(av, b0, c50); c51 = V::fma(av, b1, c51);
    // Keeps the compiler from hoisting the next step's loads into this one, which runs it out
    // of registers (12 accumulators + 2 B vectors + 1 broadcast = 15 of 16 on AVX2) and spills.
    asm volatile("" ::: "memory");
  };
  int64_t k = 0;
  for (; k + 4 <= kc; k += 4) {
    __builtin_prefetch(b + 8 * NR);
    step(a, b);
    step(a + kMR, b + NR);
    step(a + 2 * kMR, b + 2 * NR);
    step(a + 3 * kMR, b + 3 * NR);
    a += 4 * kMR;
    b += 4 * NR;
  }
  for (; k < kc; ++k, a += kMR, b += NR) step(a, b);

  const reg rows[kMR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
  if (m == kMR && n == NR) {
    for (int i = 0; i < kMR; ++i) {
      T* ci = c + i * ldc;
      if (accumulate) {
        V::store(ci, V::load(ci) + rows[i][0]);
        V::store(ci + W, V::load(ci + W) + rows[i][1]);
      } else {
        V::store(ci, rows[i][0]);
        V::store(ci + W, rows[i][1]);
      }
    }
    return;
  }
  T tile[kMR][NR];
  for (int i = 0; i < kMR; ++i) {
    V::store(tile[i], rows[i][0]);
    V::store(tile[i] + W, rows[i][1]);
  }
  for (int i = 0; i < m; ++i) {
    T* ci = c + i * ldc;
    if (accumulate)
      for (int j = 0; j < n; ++j) ci[j] += tile[i][j];
    else
      for (int j = 0; j < n; ++j) ci[j] = tile[i][j];
  }
}

// y[i] = sum_k A[i*lda + k] x[k]. Lane-wise partial sums (a fixed order, so the compiler may
// vectorise without reassociating), combined pairwise at the end.
template <class T>
void gemv_rows(int64_t m, int64_t kk, const T* __restrict a, int64_t lda, const T* __restrict x, T* __restrict y) {
  constexpr int L = 2 * Vec<T>::W;
  for (int64_t i = 0; i < m; ++i) {
    const T* ai = a + i * lda;
    T acc[L] = {};
    int64_t k = 0;
    for (; k + L <= kk; k += L)
      for (int l = 0; l < L; ++l) acc[l] += ai[k + l] * x[k + l];
    for (int l = 0; k < kk; ++k, ++l) acc[l] += ai[k] * x[k];
    for (int w = L / 2; w >= 1; w /= 2)
      for (int l = 0; l < w; ++l) acc[l] += acc[l + w];
    y[i] = acc[0];
  }
}

// y[j] = sum_k x[k] B[k*ldb + j], columns in chunks that keep y in L1.
template <class T>
void gemv_cols(int64_t kk, int64_t n, const T* __restrict b, int64_t ldb, const T* __restrict x, T* __restrict y) {
  constexpr int64_t kChunk = 2048;
  for (int64_t j0 = 0; j0 < n; j0 += kChunk) {
    int64_t j1 = j0 + kChunk < n ? j0 + kChunk : n;
    for (int64_t j = j0; j < j1; ++j) y[j] = T(0);
    for (int64_t k = 0; k < kk; ++k) {
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
  g.gemv_rows = &gemv_rows<T>;
  g.gemv_cols = &gemv_cols<T>;
  g.small = &small<T>;
  g.mr = kMR;
  g.nr = 2 * Vec<T>::W;
  // A block (MC x KC) in half of L2, B micro-panel (KC x NR) in half of L1, B block (KC x NC)
  // in L3; MC is a multiple of MR, NC of NR.
  g.kc = 256;
  g.mc = (sizeof(T) == 4 ? 144 : 72) / kMR * kMR;
  g.nc = 4080 / g.nr * g.nr;
}

}  // namespace

void fill_gemm(KernelTable& t) {
  fill_one(t.sgemm);
  fill_one(t.dgemm);
}

}  // namespace mnn::cpu::MNN_ISA_NS
