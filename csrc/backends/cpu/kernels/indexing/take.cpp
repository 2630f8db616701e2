// CPU kernels for take and scatter_add (ops/indexing/take.cpp). Both see the data as
// [outer, axis, inner] blocks of bytes: take copies whole inner rows, so one kernel serves every
// dtype; scatter_add accumulates in the element type.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/threadpool.h"
#include "ops/indexing/index_common.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

struct Blocks {
  int64_t outer = 1, n = 1, inner = 1, m = 1;  // m: number of indices
};

Blocks blocks_of(const Shape& data, int axis, int64_t axis_len, int64_t m) {
  Blocks b;
  for (int d = 0; d < axis; ++d) b.outer *= data[d];
  b.n = axis_len;
  b.m = m;
  return b;
}

inline int64_t wrap(int64_t i, int64_t n) { return i < 0 ? i + n : i; }

struct Bytes16 {
  uint64_t lo, hi;
};

// Gathers rows [lo, hi) of the output (row r = outer block r / m, index r % m). Rows of 1..16
// bytes, the gather of scalars, are moved as one typed value; everything the loop reads lives in
// locals so the stores (which may alias anything through char*) do not force reloads, and the
// loads of a random gather stay independent and overlap.
template <class Row, int64_t Mode>
void gather_rows(const char* a, const int64_t* __restrict idx, char* out, Blocks b, int64_t rb, int64_t lo,
                 int64_t hi) {
  int64_t o = lo / b.m, j = lo % b.m;
  const int64_t n = b.n, m = b.m;
  while (lo < hi) {
    int64_t stop = std::min(hi, lo + (m - j));
    const char* src = a + o * n * rb;
    for (int64_t r = lo; r < stop; ++r, ++j) {
      int64_t t = idx[j];
      if constexpr (Mode == ops::indexing::Raise) t = t < 0 ? t + n : t;
      else t = ops::indexing::normalize_index(t, n, Mode);
      if constexpr (std::is_void_v<Row>) {
        std::memcpy(out + r * rb, src + t * rb, rb);
      } else {
        Row v;
        std::memcpy(&v, src + t * sizeof(Row), sizeof(Row));
        std::memcpy(out + r * sizeof(Row), &v, sizeof(Row));
      }
    }
    lo = stop;
    j = 0;
    ++o;
  }
}

class TakeKernel final : public backend::Kernel {
 public:
  explicit TakeKernel(const backend::StepDesc& s) {
    int axis = static_cast<int>(s.params->ints[0]);
    int64_t mode = s.params->ints.size() > 2 ? s.params->ints[2] : ops::indexing::Raise;
    const Shape& a = s.inputs[0].shape;
    if (axis < 0) axis += static_cast<int>(a.size());
    b_ = blocks_of(a, axis, a[axis], numel(s.inputs[1].shape));
    int64_t inner = 1;
    for (size_t d = axis + 1; d < a.size(); ++d) inner *= a[d];
    row_bytes_ = inner * static_cast<int64_t>(itemsize(s.output.dtype));
    fn_ = pick(row_bytes_, mode);
  }
  void run(char* const* in, char* out) override {
    const Blocks b = b_;
    const int64_t rb = row_bytes_;
    if (b.outer == 0 || b.m == 0 || rb == 0) return;
    const char* a = in[0];
    const int64_t* idx = reinterpret_cast<const int64_t*>(in[1]);
    auto fn = fn_;
    int64_t grain = std::max<int64_t>(1, (1 << 15) / std::max<int64_t>(rb, 8));
    parallel_for(b.outer * b.m, grain, [=](int64_t lo, int64_t hi) { fn(a, idx, out, b, rb, lo, hi); });
  }

 private:
  using GatherFn = void (*)(const char*, const int64_t*, char*, Blocks, int64_t, int64_t, int64_t);
  template <int64_t Mode>
  static GatherFn pick_mode(int64_t rb) {
    switch (rb) {
      case 1: return &gather_rows<uint8_t, Mode>;
      case 2: return &gather_rows<uint16_t, Mode>;
      case 4: return &gather_rows<uint32_t, Mode>;
      case 8: return &gather_rows<uint64_t, Mode>;
      case 16: return &gather_rows<Bytes16, Mode>;
      default: return &gather_rows<void, Mode>;
    }
  }
  static GatherFn pick(int64_t rb, int64_t mode) {
    if (mode == ops::indexing::Wrap) return pick_mode<ops::indexing::Wrap>(rb);
    if (mode == ops::indexing::Clip) return pick_mode<ops::indexing::Clip>(rb);
    return pick_mode<ops::indexing::Raise>(rb);
  }

  Blocks b_;
  int64_t row_bytes_ = 0;
  GatherFn fn_ = nullptr;
};

template <class T>
inline T add(T a, T b) {
  if constexpr (core::is_half_like_v<T>) return T(static_cast<float>(a) + static_cast<float>(b));
  else if constexpr (std::is_same_v<T, bool>) return a || b;
  else return static_cast<T>(a + b);  // integers wrap, as numpy's add.at does
}

template <class T>
class ScatterAddKernel final : public backend::Kernel {
 public:
  explicit ScatterAddKernel(const backend::StepDesc& s) {
    int axis = static_cast<int>(s.params->ints[0]);
    const Shape& g = s.inputs[0].shape;
    int k = static_cast<int>(s.inputs[1].shape.size());
    b_ = blocks_of(g, axis, s.params->ints[1], numel(s.inputs[1].shape));
    for (size_t d = axis + k; d < g.size(); ++d) b_.inner *= g[d];
  }
  void run(char* const* in, char* out) override {
    const T* g = reinterpret_cast<const T*>(in[0]);
    const int64_t* idx = reinterpret_cast<const int64_t*>(in[1]);
    T* o = reinterpret_cast<T*>(out);
    const Blocks b = b_;
    std::fill(o, o + b.outer * b.n * b.inner, T{});
    // Each outer block is independent; within one, repeated indices accumulate in index order.
    parallel_for(b.outer, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t p = lo; p < hi; ++p)
        for (int64_t j = 0; j < b.m; ++j) {
          int64_t t = wrap(idx[j], b.n);
          if (t < 0 || t >= b.n) continue;  // unreachable after take's check; never write outside
          T* dst = o + (p * b.n + t) * b.inner;
          const T* src = g + (p * b.m + j) * b.inner;
          for (int64_t i = 0; i < b.inner; ++i) dst[i] = add(dst[i], src[i]);
        }
    });
  }

 private:
  Blocks b_;
};

std::unique_ptr<backend::Kernel> prepare_take(const backend::StepDesc& s) { return std::make_unique<TakeKernel>(s); }

std::unique_ptr<backend::Kernel> prepare_scatter_add(const backend::StepDesc& s) {
  return dispatch_dtype(s.output.dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    return std::make_unique<ScatterAddKernel<T>>(s);
  });
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(take, "take", &prepare_take);
MNN_REGISTER_CPU_KERNEL(scatter_add, "scatter_add", &prepare_scatter_add);

}  // namespace mnn::cpu
