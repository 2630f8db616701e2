// CPU kernels for partition/argpartition, searchsorted, bincount, sorting_gather and
// sorting_mask_positions (ops/sorting/sorting.cpp). Comparisons go through the same
// order-preserving keys as sort, so NaNs sit last and -0.0 equals +0.0 everywhere.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "backends/cpu/kernels/sorting/sort_keys.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;
using sorting::key_of;

namespace {

struct Rows {
  int64_t outer = 1, n = 1, inner = 1;
};

Rows rows_of(const Shape& s, int64_t axis) {
  int nd = static_cast<int>(s.size());
  int ax = static_cast<int>(axis < 0 ? axis + nd : axis);
  Rows r;
  for (int d = 0; d < ax; ++d) r.outer *= s[d];
  r.n = s[ax];
  for (int d = ax + 1; d < nd; ++d) r.inner *= s[d];
  return r;
}

// kth values, ascending and unique: nth_element on each, left to right, each time only over the
// part right of the previous kth (everything there is already >= it), keeps earlier kths in place.
std::vector<int64_t> kths_of(const Params& p) {
  std::vector<int64_t> k(p.ints.begin() + 1, p.ints.end());
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  return k;
}

template <class T, bool Arg>
class PartitionKernel final : public backend::Kernel {
 public:
  explicit PartitionKernel(const backend::StepDesc& s)
      : r_(rows_of(s.inputs[0].shape, s.params->ints[0])), kth_(kths_of(*s.params)) {}
  void run(char* const* in, char* out) override {
    using Out = std::conditional_t<Arg, int64_t, T>;
    const T* a = reinterpret_cast<const T*>(in[0]);
    Out* o = reinterpret_cast<Out*>(out);
    const Rows r = r_;
    if (r.n == 0 || r.outer * r.inner == 0) return;
    parallel_for(r.outer * r.inner, std::max<int64_t>(1, 65536 / r.n), [&](int64_t lo, int64_t hi) {
      sorting::Scratch<T> row;
      row.resize(r.n);
      std::vector<int64_t> idx(Arg ? r.n : 0);
      for (int64_t q = lo; q < hi; ++q) {
        int64_t oi = q / r.inner, ii = q % r.inner;
        const T* src = a + oi * r.n * r.inner + ii;
        Out* dst = o + oi * r.n * r.inner + ii;
        for (int64_t j = 0; j < r.n; ++j) row[j] = src[j * r.inner];
        int64_t start = 0;
        if constexpr (Arg) {
          std::iota(idx.begin(), idx.end(), int64_t(0));
          const T* rv = row.data();
          for (int64_t k : kth_) {
            std::nth_element(idx.begin() + start, idx.begin() + k, idx.end(),
                             [rv](int64_t x, int64_t y) { return key_of(rv[x]) < key_of(rv[y]); });
            start = k + 1;
          }
          for (int64_t j = 0; j < r.n; ++j) dst[j * r.inner] = idx[j];
        } else {
          for (int64_t k : kth_) {
            std::nth_element(row.data() + start, row.data() + k, row.data() + r.n,
                             [](T x, T y) { return key_of(x) < key_of(y); });
            start = k + 1;
          }
          for (int64_t j = 0; j < r.n; ++j) dst[j * r.inner] = row[j];
        }
      }
    });
  }

 private:
  Rows r_;
  std::vector<int64_t> kth_;
};

template <class T>
class SearchsortedKernel final : public backend::Kernel {
 public:
  explicit SearchsortedKernel(const backend::StepDesc& s)
      : n_(s.inputs[0].shape[0]), m_(numel(s.inputs[1].shape)), right_(s.params->ints.at(0) != 0) {}
  void run(char* const* in, char* out) override {
    using U = typename sorting::SortKey<T>::U;
    const T* a = reinterpret_cast<const T*>(in[0]);
    const T* v = reinterpret_cast<const T*>(in[1]);
    int64_t* o = reinterpret_cast<int64_t*>(out);
    const int64_t n = n_;
    const bool right = right_;
    parallel_for(m_, 4096, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        U k = key_of(v[i]);
        int64_t l = 0, h = n;  // invariant: answer in [l, h]
        while (l < h) {
          int64_t mid = l + (h - l) / 2;
          U km = key_of(a[mid]);
          if (right ? !(k < km) : km < k) l = mid + 1;
          else h = mid;
        }
        o[i] = l;
      }
    });
  }

 private:
  int64_t n_, m_;
  bool right_;
};

class BincountKernel final : public backend::Kernel {
 public:
  explicit BincountKernel(const backend::StepDesc& s)
      : n_(s.inputs[0].shape[0]), len_(s.output.shape[0]), weighted_(s.inputs.size() > 1) {}
  void run(char* const* in, char* out) override {
    const int64_t* x = reinterpret_cast<const int64_t*>(in[0]);
    if (weighted_) {
      // Sequential, in input order: numpy's float sums depend on the order of addition.
      const double* w = reinterpret_cast<const double*>(in[1]);
      double* o = reinterpret_cast<double*>(out);
      std::fill(o, o + len_, 0.0);
      for (int64_t i = 0; i < n_; ++i)
        if (x[i] >= 0 && x[i] < len_) o[x[i]] += w[i];
    } else {
      int64_t* o = reinterpret_cast<int64_t*>(out);
      std::fill(o, o + len_, int64_t(0));
      for (int64_t i = 0; i < n_; ++i)
        if (x[i] >= 0 && x[i] < len_) ++o[x[i]];
    }
  }

 private:
  int64_t n_, len_;
  bool weighted_;
};

template <class T>
class GatherKernel final : public backend::Kernel {
 public:
  explicit GatherKernel(const backend::StepDesc& s)
      : r_(rows_of(s.inputs[0].shape, s.params->ints[0])), m_(rows_of(s.output.shape, s.params->ints[0]).n) {}
  void run(char* const* in, char* out) override {
    const T* a = reinterpret_cast<const T*>(in[0]);
    const int64_t* idx = reinterpret_cast<const int64_t*>(in[1]);
    T* o = reinterpret_cast<T*>(out);
    const Rows r = r_;
    const int64_t m = m_;
    if (r.n == 0) return;  // then the output is empty too (checked when recorded)
    parallel_for(r.outer, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, m * r.inner)), [&](int64_t lo, int64_t hi) {
      for (int64_t oi = lo; oi < hi; ++oi)
        for (int64_t j = 0; j < m; ++j)
          for (int64_t ii = 0; ii < r.inner; ++ii) {
            int64_t q = (oi * m + j) * r.inner + ii;
            int64_t t = idx[q];
            t = t < 0 ? t + r.n : t;
            t = std::min<int64_t>(std::max<int64_t>(t, 0), r.n - 1);  // never read outside the row
            o[q] = a[(oi * r.n + t) * r.inner + ii];
          }
    });
  }

 private:
  Rows r_;
  int64_t m_;
};

class MaskPositionsKernel final : public backend::Kernel {
 public:
  explicit MaskPositionsKernel(const backend::StepDesc& s) : n_(numel(s.inputs[0].shape)), c_(s.output.shape[0]) {}
  void run(char* const* in, char* out) override {
    const bool* m = reinterpret_cast<const bool*>(in[0]);
    int64_t* o = reinterpret_cast<int64_t*>(out);
    int64_t c = 0;
    for (int64_t i = 0; i < n_ && c < c_; ++i)
      if (m[i]) o[c++] = i;
  }

 private:
  int64_t n_, c_;
};

std::unique_ptr<backend::Kernel> prepare_partition(const backend::StepDesc& s) {
  return dispatch_dtype(s.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    return std::make_unique<PartitionKernel<decltype(zero), false>>(s);
  });
}

std::unique_ptr<backend::Kernel> prepare_argpartition(const backend::StepDesc& s) {
  return dispatch_dtype(s.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    return std::make_unique<PartitionKernel<decltype(zero), true>>(s);
  });
}

std::unique_ptr<backend::Kernel> prepare_searchsorted(const backend::StepDesc& s) {
  return dispatch_dtype(s.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    return std::make_unique<SearchsortedKernel<decltype(zero)>>(s);
  });
}

std::unique_ptr<backend::Kernel> prepare_gather(const backend::StepDesc& s) {
  return dispatch_dtype(s.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    return std::make_unique<GatherKernel<decltype(zero)>>(s);
  });
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(partition, "partition", &prepare_partition);
MNN_REGISTER_CPU_KERNEL(argpartition, "argpartition", &prepare_argpartition);
MNN_REGISTER_CPU_KERNEL(searchsorted, "searchsorted", &prepare_searchsorted);
MNN_REGISTER_CPU_KERNEL(bincount, "bincount",
                        [](const backend::StepDesc& s) -> std::unique_ptr<backend::Kernel> {
                          return std::make_unique<BincountKernel>(s);
                        });
MNN_REGISTER_CPU_KERNEL(sorting_gather, "sorting_gather", &prepare_gather);
MNN_REGISTER_CPU_KERNEL(sorting_mask_positions, "sorting_mask_positions",
                        [](const backend::StepDesc& s) -> std::unique_ptr<backend::Kernel> {
                          return std::make_unique<MaskPositionsKernel>(s);
                        });

}  // namespace mnn::cpu
