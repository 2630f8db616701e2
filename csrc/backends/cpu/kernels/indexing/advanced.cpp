// CPU kernels for nonzero, ravel_index and put (ops/indexing/advanced.cpp).
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/threadpool.h"
#include "ops/indexing/index_common.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

template <class T>
inline bool truthy(T v) {
  if constexpr (std::is_same_v<T, half>) return static_cast<float>(v) != 0.0f;
  else return v != T{};
}

// Two passes over fixed chunks (count, then write at the prefix offsets) so the output order is
// row-major whatever the thread count.
template <class T>
class NonzeroKernel final : public backend::Kernel {
 public:
  explicit NonzeroKernel(const backend::StepDesc& s) : shape_(s.inputs[0].shape), flat_(s.params->ints.at(0) != 0) {
    n_ = numel(shape_);
  }
  void run(char* const* in, char* out) override {
    const T* a = reinterpret_cast<const T*>(in[0]);
    int64_t* o = reinterpret_cast<int64_t*>(out);
    const int64_t chunk = 1 << 16;
    const int64_t nchunks = (n_ + chunk - 1) / chunk;
    std::vector<int64_t> offs(nchunks + 1, 0);
    parallel_for(nchunks, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t c = lo; c < hi; ++c) {
        int64_t cnt = 0;
        for (int64_t i = c * chunk, e = std::min(n_, i + chunk); i < e; ++i) cnt += truthy(a[i]);
        offs[c + 1] = cnt;
      }
    });
    for (int64_t c = 0; c < nchunks; ++c) offs[c + 1] += offs[c];
    const int64_t total = offs[nchunks];
    const int nd = static_cast<int>(shape_.size());
    parallel_for(nchunks, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t c = lo; c < hi; ++c) {
        int64_t w = offs[c];
        for (int64_t i = c * chunk, e = std::min(n_, i + chunk); i < e; ++i) {
          if (!truthy(a[i])) continue;
          if (flat_ || nd <= 1) {
            o[w++] = i;
            continue;
          }
          int64_t r = i;
          for (int d = nd - 1; d >= 0; --d) {
            o[d * total + w] = r % shape_[d];
            r /= shape_[d];
          }
          ++w;
        }
      }
    });
  }

 private:
  Shape shape_;
  bool flat_;
  int64_t n_ = 0;
};

class RavelIndexKernel final : public backend::Kernel {
 public:
  explicit RavelIndexKernel(const backend::StepDesc& s) {
    const auto& p = s.params->ints;
    mode_ = p[1];
    k_ = static_cast<int>(p[2]);
    dims_.assign(p.begin() + 3, p.begin() + 3 + k_);
    strides_.assign(k_, 1);
    for (int d = k_ - 2; d >= 0; --d) strides_[d] = strides_[d + 1] * dims_[d + 1];
    m_ = numel(s.output.shape);
  }
  void run(char* const* in, char* out) override {
    int64_t* o = reinterpret_cast<int64_t*>(out);
    parallel_for(m_, 1 << 14, [&](int64_t lo, int64_t hi) {
      std::fill(o + lo, o + hi, 0);
      for (int d = 0; d < k_; ++d) {
        const int64_t* v = reinterpret_cast<const int64_t*>(in[d]);
        const int64_t n = dims_[d], st = strides_[d];
        for (int64_t j = lo; j < hi; ++j) {
          int64_t t = ops::indexing::normalize_index(v[j], n, mode_);
          o[j] += std::min(std::max<int64_t>(t, 0), n - 1) * st;  // checked when recorded; never leave bounds
        }
      }
    });
  }

 private:
  int64_t mode_ = 0, m_ = 0;
  int k_ = 0;
  std::vector<int64_t> dims_, strides_;
};

template <int RB>
inline void move_row(char* dst, const char* src, int64_t rb) {
  if constexpr (RB > 0) std::memcpy(dst, src, RB);
  else std::memcpy(dst, src, rb);
}

class PutKernel final : public backend::Kernel {
 public:
  explicit PutKernel(const backend::StepDesc& s) {
    int axis = static_cast<int>(s.params->ints.at(0));
    const Shape& d = s.inputs[0].shape;
    for (int i = 0; i < axis; ++i) outer_ *= d[i];
    n_ = d[axis];
    int64_t inner = 1;
    for (size_t i = axis + 1; i < d.size(); ++i) inner *= d[i];
    rb_ = inner * static_cast<int64_t>(itemsize(s.output.dtype));
    m_ = numel(s.inputs[1].shape);
  }
  void run(char* const* in, char* out) override {
    const int64_t total = outer_ * n_ * rb_;
    parallel_for(total, 1 << 18, [&](int64_t lo, int64_t hi) { std::memcpy(out + lo, in[0] + lo, hi - lo); });
    switch (rb_) {
      case 1: return scatter<1>(in, out);
      case 2: return scatter<2>(in, out);
      case 4: return scatter<4>(in, out);
      case 8: return scatter<8>(in, out);
      default: return scatter<0>(in, out);
    }
  }

 private:
  // Indices of one outer block are applied in order (the last repeat wins), so blocks run in
  // parallel, and a single wide block splits its rows by byte range instead.
  template <int RB>
  void scatter(char* const* in, char* out) {
    const int64_t* idx = reinterpret_cast<const int64_t*>(in[1]);
    const char* vals = in[2];
    const int64_t n = n_, m = m_, rb = rb_;
    if (outer_ == 0 || m == 0 || rb == 0) return;
    if (outer_ == 1 && rb >= (1 << 12)) {
      parallel_for(rb, 1 << 11, [&](int64_t lo, int64_t hi) {
        for (int64_t j = 0; j < m; ++j) {
          int64_t t = idx[j] < 0 ? idx[j] + n : idx[j];
          if (t < 0 || t >= n) continue;
          std::memcpy(out + t * rb + lo, vals + j * rb + lo, hi - lo);
        }
      });
      return;
    }
    parallel_for(outer_, std::max<int64_t>(1, (1 << 15) / std::max<int64_t>(1, m * rb)), [&](int64_t lo, int64_t hi) {
      for (int64_t p = lo; p < hi; ++p) {
        char* dst = out + p * n * rb;
        const char* src = vals + p * m * rb;
        for (int64_t j = 0; j < m; ++j) {
          int64_t t = idx[j] < 0 ? idx[j] + n : idx[j];
          if (t < 0 || t >= n) continue;
          move_row<RB>(dst + t * rb, src + j * rb, rb);
        }
      }
    });
  }

  int64_t outer_ = 1, n_ = 0, rb_ = 0, m_ = 0;
};

std::unique_ptr<backend::Kernel> prepare_nonzero(const backend::StepDesc& s) {
  return dispatch_dtype(s.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    return std::make_unique<NonzeroKernel<decltype(zero)>>(s);
  });
}

std::unique_ptr<backend::Kernel> prepare_ravel_index(const backend::StepDesc& s) {
  return std::make_unique<RavelIndexKernel>(s);
}

std::unique_ptr<backend::Kernel> prepare_put(const backend::StepDesc& s) { return std::make_unique<PutKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(nonzero, "nonzero", &prepare_nonzero);
MNN_REGISTER_CPU_KERNEL(ravel_index, "ravel_index", &prepare_ravel_index);
MNN_REGISTER_CPU_KERNEL(put, "put", &prepare_put);

}  // namespace mnn::cpu
