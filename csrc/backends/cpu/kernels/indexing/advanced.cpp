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
  if constexpr (core::is_half_like_v<T>) return static_cast<float>(v) != 0.0f;
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

// Output rows along the last result axis; each input is read with its broadcast strides (0 on
// broadcast axes), so broadcast index arrays are never materialised.
class RavelIndexKernel final : public backend::Kernel {
 public:
  explicit RavelIndexKernel(const backend::StepDesc& s) {
    const auto& p = s.params->ints;
    mode_ = p[1];
    k_ = static_cast<int>(p[2]);
    dims_.assign(p.begin() + 3, p.begin() + 3 + k_);
    strides_.assign(k_, 1);
    for (int d = k_ - 2; d >= 0; --d) strides_[d] = strides_[d + 1] * dims_[d + 1];
    out_ = s.output.shape;
    for (int d = 0; d < k_; ++d) in_strides_.push_back(broadcast_strides(s.inputs[d].shape,
                                                                          contiguous_strides(s.inputs[d].shape), out_));
  }
  void run(char* const* in, char* out) override {
    int64_t* o = reinterpret_cast<int64_t*>(out);
    const int nd = static_cast<int>(out_.size());
    const int64_t len = nd ? out_[nd - 1] : 1;
    const int64_t nrows = len ? numel(out_) / len : 0;
    parallel_for(nrows, std::max<int64_t>(1, (1 << 14) / std::max<int64_t>(len, 1)), [&](int64_t lo, int64_t hi) {
      for (int64_t row = lo; row < hi; ++row) {
        int64_t* dst = o + row * len;
        std::fill(dst, dst + len, 0);
        for (int d = 0; d < k_; ++d) {
          const Strides& st = in_strides_[d];
          int64_t off = 0;
          for (int64_t r = row, a = nd - 2; a >= 0; --a) {
            off += (r % out_[a]) * st[a];
            r /= out_[a];
          }
          const int64_t* v = reinterpret_cast<const int64_t*>(in[d]) + off;
          const int64_t step = nd ? st[nd - 1] : 0, n = dims_[d], sd = strides_[d];
          if (mode_ == ops::indexing::Raise || mode_ == ops::indexing::RaiseStrict) {
            for (int64_t j = 0; j < len; ++j) {  // checked when recorded
              int64_t t = v[j * step];
              dst[j] += (t < 0 ? t + n : t) * sd;
            }
          } else {
            for (int64_t j = 0; j < len; ++j)
              dst[j] += ops::indexing::normalize_index(v[j * step], n, mode_) * sd;
          }
        }
      }
    });
  }

 private:
  int64_t mode_ = 0;
  int k_ = 0;
  std::vector<int64_t> dims_, strides_;
  Shape out_;
  std::vector<Strides> in_strides_;
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

// gather: the source keeps its strides. Output rows are (p, j) pairs, p over the rest axes
// before `lead`, j over the indices; each copies one block over the rest axes after `lead`. Block
// offsets in the source come from small tables (per outer position, per index, per block row),
// so the inner loop is a strided (or, with unit stride, memcpy) run along the last axis.
class GatherKernel final : public backend::Kernel {
 public:
  explicit GatherKernel(const backend::StepDesc& s) {
    const auto& p = s.params->ints;
    const auto& src = s.inputs[0];
    int64_t lead = p[0], k = p[1];
    isz_ = static_cast<int64_t>(itemsize(src.dtype));
    std::vector<int64_t> rest_shape, rest_strides;
    for (int64_t d = 0, j = 0; d < static_cast<int64_t>(src.shape.size()); ++d) {
      if (j < k && p[2 + j] == d) {
        idims_.push_back(src.shape[d]);
        istrides_.push_back(src.strides[d]);
        ++j;
      } else {
        rest_shape.push_back(src.shape[d]);
        rest_strides.push_back(src.strides[d]);
      }
    }
    m_ = numel(s.inputs[1].shape);
    int64_t total = 1;
    for (int64_t n : idims_) total *= n;
    small_ = total < (int64_t{1} << 32);  // no index axis is empty when there are indices to decode
    // Outer positions (rest axes before lead): a table of source offsets.
    outer_offs_ = offsets_of(rest_shape.data(), rest_strides.data(), lead);
    // Inner block: rows over rest axes after lead except the last, then the last axis as a run.
    int64_t nin = static_cast<int64_t>(rest_shape.size()) - lead;
    if (nin > 0) {
      run_len_ = rest_shape.back();
      run_stride_ = rest_strides.back();
      row_offs_ = offsets_of(rest_shape.data() + lead, rest_strides.data() + lead, nin - 1);
    } else {
      run_len_ = 1;
      run_stride_ = 1;
      row_offs_ = {0};
    }
    block_ = run_len_ * static_cast<int64_t>(row_offs_.size());
  }

  void run(char* const* in, char* out) override {
    const char* src = in[0];
    const int64_t* flat = reinterpret_cast<const int64_t*>(in[1]);
    const int64_t m = m_, k = static_cast<int64_t>(idims_.size());
    std::vector<int64_t> ioffs(m);
    parallel_for(m, 1 << 14, [&](int64_t lo, int64_t hi) {
      for (int64_t j = lo; j < hi; ++j) {
        int64_t r = flat[j], off = 0;
        if (k == 1) {
          ioffs[j] = r * istrides_[0];
          continue;
        }
        if (small_) {  // 32-bit division is several times cheaper than 64-bit
          uint32_t r32 = static_cast<uint32_t>(r);
          for (int64_t d = k - 1; d >= 0; --d) {
            uint32_t n = static_cast<uint32_t>(idims_[d]);
            off += static_cast<int64_t>(r32 % n) * istrides_[d];
            r32 /= n;
          }
        } else {
          for (int64_t d = k - 1; d >= 0; --d) {
            int64_t n = idims_[d];
            off += (r % n) * istrides_[d];
            r /= n;
          }
        }
        ioffs[j] = off;
      }
    });
    switch (isz_) {
      case 1: return copy_blocks<uint8_t>(src, ioffs, out);
      case 2: return copy_blocks<uint16_t>(src, ioffs, out);
      case 4: return copy_blocks<uint32_t>(src, ioffs, out);
      case 8: return copy_blocks<uint64_t>(src, ioffs, out);
      default: return copy_blocks<void>(src, ioffs, out);
    }
  }

 private:
  static std::vector<int64_t> offsets_of(const int64_t* shape, const int64_t* strides, int64_t nd) {
    std::vector<int64_t> offs{0};
    for (int64_t d = 0; d < nd; ++d) {
      std::vector<int64_t> next;
      next.reserve(offs.size() * shape[d]);
      for (int64_t o : offs)
        for (int64_t i = 0; i < shape[d]; ++i) next.push_back(o + i * strides[d]);
      offs.swap(next);
    }
    return offs;
  }

  template <class T>
  void copy_blocks(const char* src, const std::vector<int64_t>& ioffs, char* out) {
    const int64_t m = m_, block = block_, len = run_len_, rs = run_stride_, isz = isz_;
    const int64_t nrows = static_cast<int64_t>(outer_offs_.size()) * m;
    if (nrows == 0 || block == 0) return;
    const int64_t* oo = outer_offs_.data();
    const int64_t* io = ioffs.data();
    const int64_t* ro = row_offs_.data();
    const int64_t nro = static_cast<int64_t>(row_offs_.size());
    if (block == 1) {  // single elements (every axis indexed, or the rest before lead): a plain gather
      parallel_for(nrows, 1 << 14, [=](int64_t lo, int64_t hi) {
        int64_t p = lo / m, j = lo % m;
        for (int64_t r = lo; r < hi; ++r) {
          const char* s = src + (oo[p] + io[j] + ro[0]) * isz;
          if constexpr (std::is_void_v<T>) std::memcpy(out + r * isz, s, isz);
          else std::memcpy(out + r * sizeof(T), s, sizeof(T));
          if (++j == m) j = 0, ++p;
        }
      });
      return;
    }
    parallel_for(nrows, std::max<int64_t>(1, (1 << 14) / std::max<int64_t>(block, 1)), [=](int64_t lo, int64_t hi) {
      int64_t p = lo / m, j = lo % m;
      for (int64_t r = lo; r < hi; ++r) {
        const int64_t base = oo[p] + io[j];
        if (++j == m) j = 0, ++p;
        char* dst = out + r * block * isz;
        for (int64_t q = 0; q < nro; ++q, dst += len * isz) {
          const char* s = src + (base + ro[q]) * isz;
          if constexpr (std::is_void_v<T>) {
            for (int64_t i = 0; i < len; ++i) std::memcpy(dst + i * isz, s + i * rs * isz, isz);
          } else {
            if (rs == 1) {
              std::memcpy(dst, s, len * sizeof(T));
            } else {
              T* d = reinterpret_cast<T*>(dst);
              for (int64_t i = 0; i < len; ++i) std::memcpy(d + i, s + i * rs * sizeof(T), sizeof(T));
            }
          }
        }
      }
    });
  }

  int64_t isz_ = 1, m_ = 0, run_len_ = 1, run_stride_ = 1, block_ = 0;
  bool small_ = true;
  std::vector<int64_t> idims_, istrides_, outer_offs_, row_offs_;
};

std::unique_ptr<backend::Kernel> prepare_gather(const backend::StepDesc& s) {
  return std::make_unique<GatherKernel>(s);
}

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
MNN_REGISTER_CPU_KERNEL(gather, "gather", &prepare_gather);

}  // namespace mnn::cpu
