// Batched, broadcast matrix product.
// float32/float64: our own GEMM in the BLIS/GotoBLAS style. Per (NC column block, KC depth
// block) B is packed into NR-column panels (it stays in L3, one panel in L1) and A into MR-row
// panels (an MC x KC block stays in L2); the per-ISA microkernel (simd/gemm_kernels.cpp) runs
// MR x NR register tiles over them. Packing reads any strides, so transposed and strided operands
// cost one pass. Threads split the MC x NR-panel tiles of each block, never the depth, so every
// output element is summed in the same order whatever the thread count. Matrix-vector products
// and small matrices skip packing.
// Other dtypes: a straightforward i-k-j kernel (ints wrap, bool is or-of-ands, float16 computes
// in float32 and rounds once).
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/kernels/gemm.h"
#include "backends/cpu/simd/kernel_table.h"
#include "core/threadpool.h"

namespace mnn::cpu {

using namespace core;

namespace {

// A per-thread, 64-byte aligned scratch buffer that only grows (packed panels, strided vectors).
template <class T>
T* scratch(int slot, size_t n) {
  struct Buf {
    void* p = nullptr;
    size_t n = 0;
    ~Buf() { std::free(p); }
  };
  thread_local Buf bufs[4];
  Buf& b = bufs[slot];
  if (b.n < n) {
    std::free(b.p);
    size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    b.p = std::aligned_alloc(64, bytes);
    if (!b.p) throw std::bad_alloc();
    b.n = n;
  }
  return static_cast<T*>(b.p);
}

inline int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

// C (M x N, contiguous) = A B with A, B of any strides. With ldc > 0, C has row stride ldc; with
// accumulate, C += A B (for blocked factorizations' trailing updates); negate_a makes it C -= A B.
template <class T>
void packed_gemm(const GemmKernel<T>& g, int64_t M, int64_t N, int64_t K, const T* A, int64_t am, int64_t ak,
                 const T* B, int64_t bk, int64_t bn, T* C, int64_t ldc = 0, bool accumulate = false,
                 bool negate_a = false) {
  if (ldc <= 0) ldc = N;
  const int MR = g.mr, NR = g.nr;
  const int64_t KC = g.kc, NC = g.nc;
  // Row blocks of equal height (a multiple of MR): 1024 rows are 8 x 132 rather than 7 x 144 + 16,
  // whose last block would stream every B panel for three tiles. Only the grouping changes, so
  // the results do not.
  const int64_t nt = get_num_threads();
  const int64_t mpan = (M + MR - 1) / MR;
  int64_t MC = round_up((M + (M + g.mc - 1) / g.mc - 1) / ((M + g.mc - 1) / g.mc), MR);
  if (nt > 1 && mpan > nt) {
    // Threads take whole row blocks, so the slowest one holds ceil(blocks / nt) of them: among
    // block counts from the L2-sized one up to two rounds more, take the one whose busiest thread
    // has the fewest MR panels (2048 rows on 2 threads: 18 blocks of 19 panels, 171 per thread,
    // rather than 15 of 23, 184 on one thread and 158 on the other).
    const int64_t base = (M + g.mc - 1) / g.mc;
    int64_t best = -1;
    for (int64_t nb = base; nb <= base + 2 * nt && nb <= mpan; ++nb) {
      const int64_t per = (mpan + nb - 1) / nb, used = (mpan + per - 1) / per;
      const int64_t span = per * ((used + nt - 1) / nt);
      if (best < 0 || span < best) best = span, MC = per * MR;
    }
  }
  const int64_t kcmax = std::min(KC, K), ncmax = std::min(NC, round_up(N, NR));
  T* pa = scratch<T>(0, static_cast<size_t>(round_up(M, MR) * kcmax));
  T* pb = scratch<T>(1, static_cast<size_t>(ncmax * kcmax));
  const int64_t nib = (M + MC - 1) / MC;
  for (int64_t jc = 0; jc < N; jc += NC) {
    const int64_t nc = std::min(NC, N - jc), npan = (nc + NR - 1) / NR;
    // Tiles for the threads: MC row blocks x groups of NR panels; more groups when M is short.
    const int64_t njg = std::min(npan, std::max<int64_t>(1, (2 * nt + nib - 1) / nib));
    const int64_t per_g = (npan + njg - 1) / njg;
    for (int64_t pc = 0; pc < K; pc += KC) {
      const int64_t kc = std::min(KC, K - pc);
      const int64_t pack_grain = std::max<int64_t>(1, 16384 / (kc * NR));
      parallel_for(npan, pack_grain, [&](int64_t p0, int64_t p1) {
        g.pack_b(pb + p0 * kc * NR, B + pc * bk + (jc + p0 * NR) * bn, std::min<int64_t>(p1 * NR, nc) - p0 * NR, kc, bk,
                 bn);
      });
      auto pack_a_panels = [&](int64_t q0, int64_t q1) {
        g.pack_a(pa + q0 * kc * MR, A + q0 * MR * am + pc * ak, std::min<int64_t>(q1 * MR, M) - q0 * MR, kc, am, ak,
                 negate_a);
      };
      // With one tile per MC block, its task packs that block just before using it (hot in L2);
      // otherwise several tasks share a block, so all of A is packed first.
      const bool pack_in_task = njg == 1;
      if (!pack_in_task) parallel_for(mpan, pack_grain, pack_a_panels);
      const bool acc = accumulate || pc > 0;
      // Each thread claims tiles one at a time (parallel_for would hand out runs of several): a
      // thread the shared machine delays then costs at most one tile's wait at the end.
      const int64_t ntile = nib * njg;
      std::atomic<int64_t> next_tile{0};
      parallel_for(std::min(nt, ntile), 1, [&](int64_t, int64_t) {
        // A task that packs its own block packs it into this thread's buffer, the same one for
        // every block: it stays in L2, where a block of the shared buffer (all of A's rows, more
        // than L2) would first have to be fetched from L3 just to be overwritten.
        T* pa_own = pack_in_task ? scratch<T>(3, static_cast<size_t>(MC * kc)) : nullptr;
        for (int64_t t; (t = next_tile.fetch_add(1, std::memory_order_relaxed)) < ntile;) {
          const int64_t i0 = (t / njg) * MC, i1 = std::min(M, i0 + MC);
          const T* pa_blk = pa + (i0 / MR) * kc * MR;
          if (pack_in_task) {
            g.pack_a(pa_own, A + i0 * am + pc * ak, i1 - i0, kc, am, ak, negate_a);
            pa_blk = pa_own;
          }
          const int64_t p0 = (t % njg) * per_g, p1 = std::min(npan, p0 + per_g);
          for (int64_t p = p0; p < p1; ++p) {
            const T* bp = pb + p * kc * NR;
            const int n = static_cast<int>(std::min<int64_t>(NR, nc - p * NR));
            T* cp = C + jc + p * NR;
            // The first four tiles prefetch the next panel into L2 (a quarter each), so it need
            // not come from L3 while the tiles that use it run.
            const T* next = bp + kc * NR;
            for (int64_t ir = i0, t = 0; ir < i1; ir += MR, ++t)
              g.ukr(kc, pa_blk + ((ir - i0) / MR) * kc * MR, bp, cp + ir * ldc, ldc,
                    static_cast<int>(std::min<int64_t>(MR, M - ir)), n, acc, t < 4 ? next + t * (kc * NR / 4) : bp);
          }
        }
      });
    }
  }
}

// Below this many multiply-adds a matrix skips packing (and stays on one thread).
constexpr int64_t kSmallWork = 32 * 32 * 32;
// Below this many multiply-adds per matrix, batches are split across threads instead.
constexpr int64_t kBatchSplitWork = 1 << 20;

template <class T>
const GemmKernel<T>& gemm_table() {
  if constexpr (std::is_same_v<T, float>) return kernels().sgemm;
  else return kernels().dgemm;
}

// One matrix: C (M x N, contiguous) = A (M x K, strides am, ak) B (K x N, strides bk, bn).
template <class T>
void gemm(const GemmKernel<T>& g, int64_t M, int64_t N, int64_t K, const T* A, int64_t am, int64_t ak, const T* B,
          int64_t bk, int64_t bn, T* C) {
  if (K == 0) {
    std::fill(C, C + M * N, T(0));
    return;
  }
  auto contiguous_vec = [&](const T* x, int64_t n, int64_t stride) {
    if (stride == 1) return x;
    T* d = scratch<T>(2, static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) d[i] = x[i * stride];
    return static_cast<const T*>(d);
  };
  constexpr int64_t kVecGrain = 1 << 16;  // multiply-adds per chunk
  if (N == 1 && (ak == 1 || am == 1)) {
    const T* x = contiguous_vec(B, K, bk);
    if (ak == 1)
      parallel_for(M, std::max<int64_t>(1, kVecGrain / K), [&](int64_t i0, int64_t i1) {
        g.gemv_rows(i1 - i0, K, A + i0 * am, am, x, C + i0);
      });
    else
      parallel_for(M, std::max<int64_t>(256, kVecGrain / K), [&](int64_t i0, int64_t i1) {
        g.gemv_cols(K, i1 - i0, A + i0, ak, x, C + i0);
      });
    return;
  }
  if (M == 1 && (bn == 1 || bk == 1)) {
    const T* x = contiguous_vec(A, K, ak);
    if (bn == 1)
      parallel_for(N, std::max<int64_t>(256, kVecGrain / K), [&](int64_t j0, int64_t j1) {
        g.gemv_cols(K, j1 - j0, B + j0, bk, x, C + j0);
      });
    else
      parallel_for(N, std::max<int64_t>(1, kVecGrain / K), [&](int64_t j0, int64_t j1) {
        g.gemv_rows(j1 - j0, K, B + j0 * bn, bn, x, C + j0);
      });
    return;
  }
  if (bn == 1 && M * N * K <= kSmallWork) {
    g.small(M, N, K, A, am, ak, B, bk, C);
    return;
  }
  packed_gemm(g, M, N, K, A, am, ak, B, bk, bn, C);
}

template <class T>
class MatmulKernel final : public backend::Kernel {
  using A = std::conditional_t<core::is_half_like_v<T>, float, T>;

 public:
  explicit MatmulKernel(const backend::StepDesc& s) {
    const auto& a = s.inputs[0];
    const auto& b = s.inputs[1];
    const auto& o = s.output;
    int on = static_cast<int>(o.shape.size());
    M_ = o.shape[on - 2];
    N_ = o.shape[on - 1];
    K_ = a.shape[a.shape.size() - 1];
    batch_.assign(o.shape.begin(), o.shape.end() - 2);
    auto bstrides = [&](const backend::TensorDesc& t) {
      std::vector<int64_t> st(batch_.size(), 0);
      size_t tb = t.shape.size() - 2, off = batch_.size() - tb;
      for (size_t i = 0; i < tb; ++i) st[off + i] = t.shape[i] == 1 ? 0 : t.strides[i];
      return st;
    };
    abst_ = bstrides(a);
    bbst_ = bstrides(b);
    as_m_ = a.strides[a.shape.size() - 2];
    as_k_ = a.strides[a.shape.size() - 1];
    bs_k_ = b.strides[b.shape.size() - 2];
    bs_n_ = b.strides[b.shape.size() - 1];
    nbatch_ = numel(batch_);
  }

  void run(char* const* inputs, char* output) override {
    const T* a = reinterpret_cast<const T*>(inputs[0]);
    const T* b = reinterpret_cast<const T*>(inputs[1]);
    T* c = reinterpret_cast<T*>(output);
    if (M_ == 0 || N_ == 0) return;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const GemmKernel<T>& g = gemm_table<T>();
      auto one = [&](int64_t bi) {
        int64_t aoff, boff;
        batch_offsets(bi, aoff, boff);
        gemm(g, M_, N_, K_, a + aoff, as_m_, as_k_, b + boff, bs_k_, bs_n_, c + bi * M_ * N_);
      };
      if (nbatch_ > 1 && M_ * N_ * K_ < kBatchSplitWork) {
        parallel_for(nbatch_, std::max<int64_t>(1, kBatchSplitWork / std::max<int64_t>(1, M_ * N_ * K_)),
                     [&](int64_t b0, int64_t b1) {
                       for (int64_t bi = b0; bi < b1; ++bi) one(bi);
                     });
      } else {
        for (int64_t bi = 0; bi < nbatch_; ++bi) one(bi);
      }
      return;
    }
    std::unique_ptr<A[]> pb(new A[static_cast<size_t>(K_ * N_)]);  // not vector<bool>: needs .data()
    for (int64_t bi = 0; bi < nbatch_; ++bi) {
      int64_t aoff, boff;
      batch_offsets(bi, aoff, boff);
      const T* ab = a + aoff;
      const T* bb = b + boff;
      for (int64_t k = 0; k < K_; ++k)
        for (int64_t j = 0; j < N_; ++j) pb[k * N_ + j] = A(bb[k * bs_k_ + j * bs_n_]);
      T* cb = c + bi * M_ * N_;
      parallel_for(M_, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, K_ * N_ / 64)), [&](int64_t i0, int64_t i1) {
        std::unique_ptr<A[]> acc(new A[static_cast<size_t>(N_)]);
        constexpr int64_t kKB = 256;
        for (int64_t i = i0; i < i1; ++i) {
          std::fill(acc.get(), acc.get() + N_, A(0));
          for (int64_t k0 = 0; k0 < K_; k0 += kKB) {
            int64_t k1 = std::min(K_, k0 + kKB);
            for (int64_t k = k0; k < k1; ++k) {
              A av = A(ab[i * as_m_ + k * as_k_]);
              const A* brow = pb.get() + k * N_;
              if constexpr (std::is_same_v<A, bool>) {
                if (av)
                  for (int64_t j = 0; j < N_; ++j) acc[j] = acc[j] || brow[j];
              } else if constexpr (std::is_integral_v<A>) {
                using U = std::conditional_t<(sizeof(A) < 4), uint32_t, std::make_unsigned_t<A>>;
                for (int64_t j = 0; j < N_; ++j) acc[j] = A(U(acc[j]) + U(av) * U(brow[j]));
              } else {
                A* accp = acc.get();
                for (int64_t j = 0; j < N_; ++j) accp[j] += av * brow[j];
              }
            }
          }
          for (int64_t j = 0; j < N_; ++j) cb[i * N_ + j] = T(acc[j]);
        }
      });
    }
  }

 private:
  void batch_offsets(int64_t bi, int64_t& aoff, int64_t& boff) const {
    aoff = boff = 0;
    for (int d = static_cast<int>(batch_.size()) - 1; d >= 0; --d) {
      int64_t k = bi % batch_[d];
      bi /= batch_[d];
      aoff += k * abst_[d];
      boff += k * bbst_[d];
    }
  }

  int64_t M_, N_, K_, nbatch_;
  std::vector<int64_t> batch_, abst_, bbst_;
  int64_t as_m_, as_k_, bs_k_, bs_n_;
};

}  // namespace

void gemm_f64(int64_t M, int64_t N, int64_t K, const double* A, int64_t am, int64_t ak, const double* B, int64_t bk,
              int64_t bn, double* C) {
  gemm(gemm_table<double>(), M, N, K, A, am, ak, B, bk, bn, C);
}

void gemm_f64_acc(int64_t M, int64_t N, int64_t K, const double* A, int64_t am, int64_t ak, const double* B,
                  int64_t bk, int64_t bn, double* C, int64_t ldc) {
  if (M <= 0 || N <= 0 || K <= 0) return;
  packed_gemm(gemm_table<double>(), M, N, K, A, am, ak, B, bk, bn, C, ldc, true);
}

void gemm_f64_sub(int64_t M, int64_t N, int64_t K, const double* A, int64_t am, int64_t ak, const double* B,
                  int64_t bk, int64_t bn, double* C, int64_t ldc) {
  if (M <= 0 || N <= 0 || K <= 0) return;
  packed_gemm(gemm_table<double>(), M, N, K, A, am, ak, B, bk, bn, C, ldc, true, true);
}

std::unique_ptr<backend::Kernel> prepare_matmul(const backend::StepDesc& step) {
  // complex takes the generic row-accumulating loop (correct, not BLAS-fast)
  return dispatch_dtype_all(step.output.dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    return std::make_unique<MatmulKernel<T>>(step);
  });
}

}  // namespace mnn::cpu
