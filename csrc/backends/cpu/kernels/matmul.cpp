// Batched, broadcast matrix product. Straightforward and correct for every dtype: each batch's
// operands are packed into contiguous compute-typed panels, then an i-k-j loop over cache blocks
// (vectorisable inner loop over j). The fast GEMM (packed microkernels per ISA) replaces the
// float path in the kernels work.
#include <algorithm>
#include <memory>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "core/threadpool.h"

namespace mnn::cpu {

using namespace core;

namespace {

template <class T>
class MatmulKernel final : public backend::Kernel {
  using A = std::conditional_t<std::is_same_v<T, half>, float, T>;

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
    std::unique_ptr<A[]> pb(new A[static_cast<size_t>(K_ * N_)]);  // not vector<bool>: needs .data()
    for (int64_t bi = 0; bi < nbatch_; ++bi) {
      int64_t aoff = 0, boff = 0, rem = bi;
      for (int d = static_cast<int>(batch_.size()) - 1; d >= 0; --d) {
        int64_t k = rem % batch_[d];
        rem /= batch_[d];
        aoff += k * abst_[d];
        boff += k * bbst_[d];
      }
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
  int64_t M_, N_, K_, nbatch_;
  std::vector<int64_t> batch_, abst_, bbst_;
  int64_t as_m_, as_k_, bs_k_, bs_n_;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_matmul(const backend::StepDesc& step) {
  return dispatch_dtype(step.output.dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    return std::make_unique<MatmulKernel<T>>(step);
  });
}

}  // namespace mnn::cpu
