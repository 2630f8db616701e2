// Reductions (sum/prod/max/min/any/all over any set of axes) and argmax/argmin.
// Inputs may be strided; outputs are contiguous. Two loop shapes cover every case after the
// dims are split into kept (outer) and reduced: reduced-innermost (each output reduces a run,
// pairwise for float sums as numpy does) and kept-innermost (rows accumulate into the output
// row, reading memory in order: axis 0 of a matrix reads rows, not columns).
#include <cmath>
#include <cstring>
#include <memory>
#include <algorithm>
#include <limits>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/strided.h"
#include "core/error.h"
#include "core/threadpool.h"
#include "ops/ops.h"

namespace mnn::cpu {

using namespace core;
using ops::ReduceKind;

namespace {

template <class T> using acc_t = std::conditional_t<std::is_same_v<T, half>, float, T>;

template <class A>
struct SumOp {
  static A init() { return A(0); }
  static A apply(A a, A b) {
    if constexpr (std::is_same_v<A, bool>) return a || b;
    else if constexpr (std::is_integral_v<A>) return A(std::make_unsigned_t<A>(a) + std::make_unsigned_t<A>(b));
    else return a + b;
  }
};
template <class A>
struct ProdOp {
  static A init() { return A(1); }
  static A apply(A a, A b) {
    if constexpr (std::is_same_v<A, bool>) return a && b;
    else if constexpr (std::is_integral_v<A>) {
      using U = std::conditional_t<(sizeof(A) < 4), uint32_t, std::make_unsigned_t<A>>;
      return A(U(a) * U(b));
    } else return a * b;
  }
};
template <class A>
struct MaxOp {
  static A init() { return std::numeric_limits<A>::lowest(); }
  static A apply(A a, A b) {
    if constexpr (std::is_floating_point_v<A>) return (a >= b || std::isnan(a)) ? a : b;
    else return a >= b ? a : b;
  }
};
template <class A>
struct MinOp {
  static A init() {
    if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::infinity();
    else return std::numeric_limits<A>::max();
  }
  static A apply(A a, A b) {
    if constexpr (std::is_floating_point_v<A>) return (a <= b || std::isnan(a)) ? a : b;
    else return a <= b ? a : b;
  }
};

// numpy's pairwise summation for a contiguous-or-strided run of floats.
template <class T, class A>
A pairwise_sum(const T* p, int64_t n, int64_t stride) {
  if (n < 8) {
    A r = A(0);
    for (int64_t i = 0; i < n; ++i) r += A(p[i * stride]);
    return r;
  }
  if (n <= 128) {
    A r[8];
    for (int k = 0; k < 8; ++k) r[k] = A(p[k * stride]);
    int64_t i = 8;
    for (; i + 8 <= n; i += 8)
      for (int k = 0; k < 8; ++k) r[k] += A(p[(i + k) * stride]);
    A res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += A(p[i * stride]);
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum<T, A>(p, n2, stride) + pairwise_sum<T, A>(p + n2 * stride, n - n2, stride);
}

struct Geometry {
  std::vector<int64_t> kdims, kstr;  // kept dims (output order), input strides
  std::vector<int64_t> rdims, rstr;  // reduced dims, input strides
  int64_t nout = 1, nred = 1;
};

Geometry split(const backend::TensorDesc& in, const std::vector<int64_t>& axes) {
  Geometry g;
  std::vector<char> red(in.shape.size(), 0);
  for (auto a : axes) red[a] = 1;
  for (size_t i = 0; i < in.shape.size(); ++i) {
    if (red[i]) {
      g.rdims.push_back(in.shape[i]);
      g.rstr.push_back(in.strides[i]);
    } else {
      g.kdims.push_back(in.shape[i]);
      g.kstr.push_back(in.strides[i]);
    }
  }
  coalesce(g.kdims, {&g.kstr});
  coalesce(g.rdims, {&g.rstr});
  g.nout = numel(g.kdims);
  g.nred = numel(g.rdims);
  return g;
}

// Element offset of flat index i within dims/strides.
inline int64_t offset_of(int64_t i, const std::vector<int64_t>& dims, const std::vector<int64_t>& st) {
  int64_t off = 0;
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    off += (i % dims[d]) * st[d];
    i /= dims[d];
  }
  return off;
}

template <class T, template <class> class OpT>
class ReduceKernel final : public backend::Kernel {
 public:
  ReduceKernel(Geometry g, bool is_sum) : g_(std::move(g)), is_sum_(is_sum) {}
  void run(char* const* inputs, char* output) override {
    using A = acc_t<T>;
    using R = OpT<A>;
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    T* out = reinterpret_cast<T*>(output);
    const int64_t nout = g_.nout, nred = g_.nred;
    if (nout == 0) return;
    // kept-innermost: accumulate whole rows of the output (reads in memory order)
    bool rows = !g_.kdims.empty() && g_.kstr.back() == 1 && g_.kdims.size() == 1 && nred > 1 &&
                !(g_.rstr.size() == 1 && g_.rstr[0] == 1);
    if (rows) {
      int64_t n = g_.kdims[0];
      parallel_for(n, 4096, [&](int64_t b, int64_t e) {
        std::unique_ptr<A[]> acc(new A[e - b]);
        std::fill(acc.get(), acc.get() + (e - b), R::init());
        for (int64_t r = 0; r < nred; ++r) {
          const T* row = in + offset_of(r, g_.rdims, g_.rstr);
          for (int64_t j = b; j < e; ++j) acc[j - b] = R::apply(acc[j - b], A(row[j]));
        }
        for (int64_t j = b; j < e; ++j) out[j] = T(acc[j - b]);
      });
      return;
    }
    int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(nred, 1));
    parallel_for(nout, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* base = in + offset_of(o, g_.kdims, g_.kstr);
        A acc;
        if constexpr (std::is_floating_point_v<A>) {
          if (is_sum_ && g_.rdims.size() <= 1) {
            out[o] = T(g_.rdims.empty() ? A(base[0]) : pairwise_sum<T, A>(base, nred, g_.rstr[0]));
            continue;
          }
        }
        acc = R::init();
        if (g_.rdims.size() == 1) {
          int64_t s = g_.rstr[0];
          for (int64_t r = 0; r < nred; ++r) acc = R::apply(acc, A(base[r * s]));
        } else {
          for (int64_t r = 0; r < nred; ++r) acc = R::apply(acc, A(base[offset_of(r, g_.rdims, g_.rstr)]));
        }
        out[o] = T(acc);
      }
    });
  }

 private:
  Geometry g_;
  bool is_sum_;
};

template <class T>
class AnyAllKernel final : public backend::Kernel {
 public:
  AnyAllKernel(Geometry g, bool any) : g_(std::move(g)), any_(any) {}
  void run(char* const* inputs, char* output) override {
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    bool* out = reinterpret_cast<bool*>(output);
    using C = acc_t<T>;
    parallel_for(g_.nout, 64, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* base = in + offset_of(o, g_.kdims, g_.kstr);
        bool r = !any_;
        for (int64_t k = 0; k < g_.nred; ++k) {
          bool v = C(base[offset_of(k, g_.rdims, g_.rstr)]) != C(0);
          if (v == any_) {
            r = any_;
            break;
          }
        }
        out[o] = r;
      }
    });
  }

 private:
  Geometry g_;
  bool any_;
};

template <class T>
class ArgKernel final : public backend::Kernel {
 public:
  ArgKernel(Geometry g, bool is_max) : g_(std::move(g)), max_(is_max) {}
  void run(char* const* inputs, char* output) override {
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    int64_t* out = reinterpret_cast<int64_t*>(output);
    using C = acc_t<T>;
    const int64_t n = g_.nred, s = g_.rstr.empty() ? 0 : g_.rstr[0];
    parallel_for(g_.nout, 64, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* base = in + offset_of(o, g_.kdims, g_.kstr);
        C best = C(base[0]);
        int64_t bi = 0;
        for (int64_t k = 1; k < n; ++k) {
          if constexpr (std::is_floating_point_v<C>) {
            if (std::isnan(best)) break;  // numpy: the first NaN wins
          }
          C v = C(base[k * s]);
          bool better = max_ ? v > best : v < best;
          if constexpr (std::is_floating_point_v<C>) better |= std::isnan(v);
          if (better) {
            best = v;
            bi = k;
          }
        }
        out[o] = bi;
      }
    });
  }

 private:
  Geometry g_;
  bool max_;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_reduce(const backend::StepDesc& step) {
  const auto& p = step.params->ints;
  auto kind = static_cast<ReduceKind>(p[0]);
  std::vector<int64_t> axes(p.begin() + 1, p.end());
  Geometry g = split(step.inputs[0], axes);
  DType dt = step.inputs[0].dtype;
  return dispatch_dtype(dt, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    switch (kind) {
      case ReduceKind::Sum: return std::make_unique<ReduceKernel<T, SumOp>>(std::move(g), true);
      case ReduceKind::Prod: return std::make_unique<ReduceKernel<T, ProdOp>>(std::move(g), false);
      case ReduceKind::Max: return std::make_unique<ReduceKernel<T, MaxOp>>(std::move(g), false);
      case ReduceKind::Min: return std::make_unique<ReduceKernel<T, MinOp>>(std::move(g), false);
      case ReduceKind::Any: return std::make_unique<AnyAllKernel<T>>(std::move(g), true);
      default: return std::make_unique<AnyAllKernel<T>>(std::move(g), false);
    }
  });
}

std::unique_ptr<backend::Kernel> prepare_argreduce(const backend::StepDesc& step) {
  const auto& p = step.params->ints;
  bool is_max = p[0] == 0;
  Geometry g;
  const auto& in = step.inputs[0];
  for (size_t i = 0; i < in.shape.size(); ++i) {
    if (static_cast<int64_t>(i) == p[1]) continue;
    g.kdims.push_back(in.shape[i]);
    g.kstr.push_back(in.strides[i]);
  }
  coalesce(g.kdims, {&g.kstr});
  g.rdims = {in.shape[p[1]]};
  g.rstr = {in.strides[p[1]]};
  g.nout = numel(g.kdims);
  g.nred = in.shape[p[1]];
  return dispatch_dtype(in.dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    return std::make_unique<ArgKernel<T>>(std::move(g), is_max);
  });
}

}  // namespace mnn::cpu
