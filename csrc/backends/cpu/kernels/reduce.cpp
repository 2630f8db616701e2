// Reductions (sum/prod/max/min/any/all over any set of axes) and argmax/argmin.
// Inputs may be strided; outputs are contiguous. After the dims are split into kept (outer) and
// reduced, two loop shapes take the SIMD microkernels of simd/reduce_kernels.cpp:
//  - runs: the reduced dims coalesce to one unit-stride run; each output reduces a run
//    (pairwise for float sums, as numpy). One output (a full reduction) splits the run over
//    threads along numpy's pairwise tree, so the result does not depend on the thread count.
//  - rows: the innermost kept dim has unit stride; rows accumulate into the output row, reading
//    memory in order (axis 0 of a matrix reads rows, not columns); threads split the columns.
// Anything else takes the generic strided loops below.
#include <cmath>
#include <cstring>
#include <memory>
#include <algorithm>
#include <numeric>
#include <limits>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/simd/kernel_table.h"
#include "backends/cpu/strided.h"
#include "core/error.h"
#include "core/threadpool.h"
#include "ops/ops.h"

namespace mnn::cpu {

using namespace core;
using ops::ReduceKind;

namespace {

template <class T> using acc_t = std::conditional_t<core::is_half_like_v<T>, float, T>;

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

// numpy's fmax/fmin reductions (nanmax/nanmin), as the SIMD kernels compute them: from -inf
// (+inf) take a value only when it beats the running one, which a NaN never does. A slice that
// ends at the start value is checked afterwards (ReduceKernel::fix_no_number).
template <class A>
struct FMaxOp {
  static A init() { return -std::numeric_limits<A>::infinity(); }
  static A apply(A a, A b) { return b > a ? b : a; }
};
template <class A>
struct FMinOp {
  static A init() { return std::numeric_limits<A>::infinity(); }
  static A apply(A a, A b) { return b < a ? b : a; }
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
  // The reduced dims in memory order (largest stride outermost, as numpy's iterator orders them):
  // a transposed or channel-first view of a contiguous buffer then coalesces into one unit-stride
  // run and sums pairwise like numpy, instead of accumulating along a strided dim (a float32 mean of
  // an HWC->CHW tensor drifted by ~1e-5 relative from numpy's). Only commutative reductions use this.
  std::vector<size_t> order(g.rdims.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::llabs(g.rstr[a]) > std::llabs(g.rstr[b]);
  });
  std::vector<int64_t> rd, rs;
  for (size_t i : order) rd.push_back(g.rdims[i]), rs.push_back(g.rstr[i]);
  g.rdims.swap(rd);
  g.rstr.swap(rs);
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


// ---- numpy's NaN from max/min -----------------------------------------------------------------
// numpy 2.4 returns a NaN from max/min whose sign and payload depend on the loop that met it
// (umath/loops_minmax): the first element is the start value and the inner loop runs over the rest.
//  - A unit-stride reduced innermost axis takes the SIMD reduce loop (float32/float64): per call of
//    len elements, when the running value or any of the first floor(len / lanes) * lanes elements is
//    NaN, the horizontal reduce returns the default quiet NaN (+, zero payload); the scalar tail
//    keeps the first NaN it meets, as it is. So x.max(axis=1) of a row holding -NaN reads +NaN.
//  - Otherwise (a strided or reversed axis, a kept axis innermost, float16's scalar loops) the
//    first NaN in iteration order wins, sign and payload intact.
// The kernels find the NaN-ness; outputs that came out NaN are then redone here (rare, so a scan).

// numpy's SIMD width for those loops: its AVX512_SKX target on such CPUs, AVX2, else 128 bits.
int numpy_minmax_lane_bytes() {
#if defined(__x86_64__) || defined(__i386__)
  static const int bytes = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
      return 64;
    return __builtin_cpu_supports("avx2") ? 32 : 16;
  }();
  return bytes;
#else
  return 16;
#endif
}

template <class T>
inline bool nan_of(T v) {
  if constexpr (std::is_same_v<T, core::half>) return (v.bits & 0x7fff) > 0x7c00;
  else if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

// numpy's inner loop for one output. The reduced dims nested inside every kept dim (of size > 1)
// form its core, one call per index of the outer reduced dims (the rest: the elementwise loop,
// first NaN wins). float32/float64 only (float16's loops are plain scalar ones):
//  - a core of one unit-stride dim: the SIMD reduce loop, in place;
//  - a core of several dims: copied into numpy's buffer (8192 elements), then the SIMD loop;
//  - a core of one strided dim: the scalar loop unrolled by 8 (eight accumulators, element k of
//    a call into lane k % 8, each lane keeping its first NaN, then lanes joined as a tree, so the
//    lowest lane with a NaN wins; the running value before the call wins over them).
struct NanLoop {
  enum Kind { First, Simd, Unrolled } kind = First;
  int64_t core = 0;
};

template <class T>
NanLoop numpy_minmax_loop(const Geometry& g) {
  NanLoop l;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    int64_t kmin = std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < g.kdims.size(); ++i)
      if (g.kdims[i] > 1) kmin = std::min<int64_t>(kmin, std::llabs(g.kstr[i]));
    int64_t core = 1;
    size_t ng = 0;
    for (size_t i = g.rdims.size(); i-- > 0 && std::llabs(g.rstr[i]) < kmin;) core *= g.rdims[i], ++ng;
    if (ng == 0) return l;
    l.core = core;
    l.kind = ng == 1 && g.rstr.back() != 1 ? NanLoop::Unrolled : NanLoop::Simd;
  }
  return l;
}

// One output's NaN as numpy returns it; base: the output's first element, elements in the
// Geometry's reduced order (numpy's: largest stride outermost).
template <class T>
T numpy_minmax_nan(const T* base, const Geometry& g, NanLoop loop) {
  const int64_t nred = g.nred;
  auto at = [&](int64_t r) { return base[offset_of(r, g.rdims, g.rstr)]; };
  if (loop.kind == NanLoop::First) {
    for (int64_t r = 0; r < nred; ++r)
      if (nan_of(at(r))) return at(r);
    return base[0];
  }
  const T canon = std::numeric_limits<T>::quiet_NaN();
  const int64_t vs = loop.kind == NanLoop::Unrolled ? 8 : numpy_minmax_lane_bytes() / int64_t(sizeof(T));
  const int64_t core = loop.core, chunk = loop.kind == NanLoop::Simd ? std::min<int64_t>(core, 8192) : core;
  T r = base[0];
  for (int64_t c1 = 0; c1 < nred; c1 += core)
    for (int64_t c0 = c1; c0 < c1 + core; c0 += chunk) {
      const int64_t start = c0 == 0 ? 1 : 0, len = std::min(chunk, c1 + core - c0) - start;
      if (len <= 0 || (loop.kind == NanLoop::Unrolled && nan_of(r))) continue;
      if (nan_of(r)) return canon;
      const int64_t first = c0 + start, nv = len / vs * vs;
      if (loop.kind == NanLoop::Simd) {
        for (int64_t i = 0; i < nv; ++i)
          if (nan_of(at(first + i))) return canon;
      } else if (nv > 0) {
        for (int64_t lane = 0; lane < 8 && !nan_of(r); ++lane)
          for (int64_t i = lane; i < nv; i += 8)
            if (nan_of(at(first + i))) {
              r = at(first + i);
              break;
            }
        if (nan_of(r)) continue;
      }
      for (int64_t i = nv; i < len; ++i)
        if (nan_of(at(first + i))) {
          r = at(first + i);
          break;
        }
    }
  return r;
}

// ---- fast paths over the SIMD microkernels ----------------------------------------------------

template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return DType::Bool;
  else if constexpr (std::is_same_v<T, int8_t>) return DType::Int8;
  else if constexpr (std::is_same_v<T, int16_t>) return DType::Int16;
  else if constexpr (std::is_same_v<T, int32_t>) return DType::Int32;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::Int64;
  else if constexpr (std::is_same_v<T, uint8_t>) return DType::UInt8;
  else if constexpr (std::is_same_v<T, uint16_t>) return DType::UInt16;
  else if constexpr (std::is_same_v<T, uint32_t>) return DType::UInt32;
  else if constexpr (std::is_same_v<T, uint64_t>) return DType::UInt64;
  else if constexpr (core::is_half_like_v<T>) return DType::Float16;
  else if constexpr (std::is_same_v<T, float>) return DType::Float32;
  else return DType::Float64;
}

constexpr int64_t kMinTask = 1 << 15;  // elements of work that justify another thread

bool unit_run(const Geometry& g) { return g.rdims.size() == 1 && g.rstr[0] == 1 && g.nred > 0; }
bool unit_rows(const Geometry& g) {
  return !g.kdims.empty() && !g.rdims.empty() && g.kstr.back() == 1 && g.nred > 0 && !unit_run(g);
}

// The top `depth` levels of numpy's pairwise split of [off, off+n), leaves in order; joining the
// leaves' sums back along the same tree gives the single-threaded result bit for bit.
void pairwise_split(int64_t off, int64_t n, int depth, std::vector<std::pair<int64_t, int64_t>>& out) {
  if (depth == 0 || n <= 2048) {
    out.push_back({off, n});
    return;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  pairwise_split(off, n2, depth - 1, out);
  pairwise_split(off + n2, n - n2, depth - 1, out);
}
template <class A, class F>
A pairwise_join(int64_t n, int depth, const A* parts, size_t& k, F join) {
  if (depth == 0 || n <= 2048) return parts[k++];
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  A a = pairwise_join(n2, depth - 1, parts, k, join);
  A b = pairwise_join(n - n2, depth - 1, parts, k, join);
  return join(a, b);
}

// One long run, split over the pool along the pairwise tree.
template <class T, class R>
acc_t<T> run_split(ReduceRunFn fn, const T* p, int64_t n) {
  using A = acc_t<T>;
  int nt = get_num_threads();
  if (nt <= 1 || n < 2 * kMinTask) {
    A a;
    fn(reinterpret_cast<const char*>(p), n, 1, 0, &a);
    return a;
  }
  int depth = 0;
  while ((1 << depth) < 2 * nt && (n >> depth) >= 2 * kMinTask) ++depth;
  std::vector<std::pair<int64_t, int64_t>> parts;
  pairwise_split(0, n, depth, parts);
  std::unique_ptr<A[]> res(new A[parts.size()]);
  parallel_for(static_cast<int64_t>(parts.size()), 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) fn(reinterpret_cast<const char*>(p + parts[i].first), parts[i].second, 1, 0, &res[i]);
  });
  size_t k = 0;
  return pairwise_join<A>(n, depth, res.get(), k, [](A a, A b) { return R::apply(a, b); });
}

// Rows shape: calls body(in_offset, out_offset, ncols_part, inner_rows_dim, inner_stride, outer
// reduced dims) per (outer kept index, column range); column ranges split over the pool.
struct RowsPlan {
  int64_t ncols, nouter, nsplit, nin, sin;
  std::vector<int64_t> odims, ostr, rd, rs;
  int64_t nrouter;
  explicit RowsPlan(const Geometry& g) {
    ncols = g.kdims.back();
    nouter = g.nout / ncols;
    odims.assign(g.kdims.begin(), g.kdims.end() - 1);
    ostr.assign(g.kstr.begin(), g.kstr.end() - 1);
    rd.assign(g.rdims.begin(), g.rdims.end() - 1);
    rs.assign(g.rstr.begin(), g.rstr.end() - 1);
    nin = g.rdims.back();
    sin = g.rstr.back();
    nrouter = g.nred / nin;
    int nt = get_num_threads();
    nsplit = g.nout * g.nred < 2 * kMinTask ? 1 : std::clamp<int64_t>(ncols / 512, 1, nt);
  }
  // fn(in_off, out_off, c0, c1)
  template <class F>
  void for_each(F fn) const {
    parallel_for(nouter * nsplit, 1, [&](int64_t b, int64_t e) {
      for (int64_t it = b; it < e; ++it) {
        int64_t o = it / nsplit, s = it % nsplit;
        int64_t c0 = ncols * s / nsplit, c1 = ncols * (s + 1) / nsplit;
        c0 -= c0 % 16, c1 = s + 1 == nsplit ? ncols : c1 - c1 % 16;
        if (c1 > c0) fn(offset_of(o, odims, ostr) + c0, o * ncols + c0, c0, c1);
      }
    });
  }
};

template <class T, template <class> class OpT>
class ReduceKernel final : public backend::Kernel {
 public:
  ReduceKernel(Geometry g, int kind) : g_(std::move(g)), is_sum_(kind == 0), kind_(kind) {}
  void run(char* const* inputs, char* output) override {
    using A = acc_t<T>;
    using R = OpT<A>;
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    T* out = reinterpret_cast<T*>(output);
    const int64_t nout = g_.nout, nred = g_.nred;
    if (nout == 0) return;
    const int dt = static_cast<int>(dtype_of<T>());
    // numpy starts a float sum at 0 (so -0.0 sums to 0.0); 0 + x is x otherwise
    auto finish = [&](A a) -> T {
      if constexpr (std::is_floating_point_v<A>) {
        if (is_sum_) return T(A(0) + a);
      }
      return T(a);
    };
    if (unit_run(g_)) {
      ReduceRunFn fn = kernels().reduce_run[kind_][dt];
      if (nout == 1) {
        if (kind_ == 1 && std::is_floating_point_v<A>) {  // numpy's float product is one ordered chain
          A a;
          fn(reinterpret_cast<const char*>(in + offset_of(0, g_.kdims, g_.kstr)), nred, 1, 0, &a);
          out[0] = T(a);
          return;
        }
        out[0] = finish(run_split<T, R>(fn, in + offset_of(0, g_.kdims, g_.kstr), nred));
        fix_nans(in, out);
        return;
      }
      // Outputs along the innermost kept dim go to the kernel four at a time, a quarter of the
      // chunk apart: the kernel sums four runs in lockstep, and four long sequential streams read
      // faster from memory than four adjacent short ones.
      const int64_t inner = g_.kdims.back(), istride = g_.kstr.back() * int64_t(sizeof(T));
      parallel_for(nout, std::max<int64_t>(4, kMinTask / nred), [&](int64_t b, int64_t e) {
        A acc[4];
        for (int64_t o = b; o < e;) {
          const int64_t cnt = std::min<int64_t>(e - o, inner - o % inner), q = cnt / 4;
          for (int64_t i = 0; i < q; ++i) {
            fn(reinterpret_cast<const char*>(in + offset_of(o + i, g_.kdims, g_.kstr)), nred, 4, q * istride, acc);
            for (int k = 0; k < 4; ++k) out[o + i + k * q] = finish(acc[k]);
          }
          for (int64_t i = 4 * q; i < cnt; ++i) {
            fn(reinterpret_cast<const char*>(in + offset_of(o + i, g_.kdims, g_.kstr)), nred, 1, 0, acc);
            out[o + i] = finish(acc[0]);
          }
          o += cnt;
        }
      });
      fix_nans(in, out);
      return;
    }
    if (unit_rows(g_)) {
      ReduceRowsFn fn = kernels().reduce_rows[kind_][dt];
      RowsPlan plan(g_);
      // max/min start from the first row, sum/prod (and fmax/fmin, which must not start at a NaN)
      // from their start value
      const bool from_first = kind_ == 2 || kind_ == 3;
      plan.for_each([&](int64_t ioff, int64_t ooff, int64_t c0, int64_t c1) {
        T* o = out + ooff;
        const T* ib = in + ioff;
        if (from_first) std::memcpy(static_cast<void*>(o), ib, (c1 - c0) * sizeof(T));
        else std::fill(o, o + (c1 - c0), T(R::init()));
        for (int64_t ro = 0; ro < plan.nrouter; ++ro) {
          int64_t skip = (from_first && ro == 0) ? 1 : 0;
          fn(reinterpret_cast<const char*>(ib + offset_of(ro, plan.rd, plan.rs) + skip * plan.sin),
             plan.sin * int64_t(sizeof(T)), plan.nin - skip, c1 - c0, reinterpret_cast<char*>(o));
        }
      });
      // float16 rows round-trip through float, which quiets a signalling NaN numpy passes through
      if (std::is_same_v<T, core::half> || kind_ >= 4) fix_nans(in, out);
      return;
    }
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
          for (int64_t j = b; j < e; ++j) {
            acc[j - b] = R::apply(acc[j - b], A(row[j]));
            if constexpr (std::is_same_v<T, core::half>) acc[j - b] = A(T(acc[j - b]));  // numpy rounds per row
          }
        }
        for (int64_t j = b; j < e; ++j) out[j] = T(acc[j - b]);
      });
      if (std::is_same_v<T, core::half> || kind_ >= 4) fix_nans(in, out);
      return;
    }
    // float16 with a kept dim innermost in memory: numpy runs its elementwise half loop, which
    // rounds the running value to half after every element (a product can overflow there)
    bool half_steps = false;
    if constexpr (std::is_same_v<T, core::half>) {
      int64_t kmin = std::numeric_limits<int64_t>::max(), rmin = kmin;
      for (size_t i = 0; i < g_.kdims.size(); ++i)
        if (g_.kdims[i] > 1) kmin = std::min<int64_t>(kmin, std::llabs(g_.kstr[i]));
      for (size_t i = 0; i < g_.rdims.size(); ++i)
        if (g_.rdims[i] > 1) rmin = std::min<int64_t>(rmin, std::llabs(g_.rstr[i]));
      half_steps = kind_ < 2 && kmin < rmin;
    }
    int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(nred, 1));
    parallel_for(nout, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* base = in + offset_of(o, g_.kdims, g_.kstr);
        A acc;
        if (half_steps) {
          acc = R::init();
          for (int64_t r = 0; r < nred; ++r)
            acc = A(T(R::apply(acc, A(base[offset_of(r, g_.rdims, g_.rstr)]))));
          out[o] = T(acc);
          continue;
        }
        if constexpr (std::is_floating_point_v<A>) {
          if (is_sum_ && g_.rdims.size() <= 1) {
            // through finish: a lone -0.0 (a length-1 axis) or a pairwise block of them sums to
            // +0.0 in numpy, which adds to its zero identity
            out[o] = finish(g_.rdims.empty() ? A(base[0]) : pairwise_sum<T, A>(base, nred, g_.rstr[0]));
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
    fix_nans(in, out);
  }

 private:
  // max/min outputs that came out NaN take the NaN numpy returns (see numpy_minmax_nan).
  void fix_nans(const T* in, T* out) const {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, core::half>) {
      if (kind_ >= 4) return fix_no_number(in, out);
      if (kind_ < 2) return;
      const NanLoop loop = numpy_minmax_loop<T>(g_);
      for (int64_t o = 0; o < g_.nout; ++o)
        if (nan_of(out[o])) out[o] = numpy_minmax_nan(in + offset_of(o, g_.kdims, g_.kstr), g_, loop);
    }
  }
  // fmax/fmin: an output left at the start value (-inf / +inf) is NaN when its slice holds no
  // number at all (numpy's all-NaN slice), else it is that infinity. Rare, so a scan.
  void fix_no_number(const T* in, T* out) const {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, core::half>) {
      using A = acc_t<T>;
      const A start = kind_ == 4 ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::infinity();
      for (int64_t o = 0; o < g_.nout; ++o) {
        if (A(out[o]) != start) continue;
        const T* base = in + offset_of(o, g_.kdims, g_.kstr);
        bool number = false;
        for (int64_t r = 0; r < g_.nred && !number; ++r) number = !nan_of(base[offset_of(r, g_.rdims, g_.rstr)]);
        if (!number) out[o] = T(std::numeric_limits<A>::quiet_NaN());
      }
    }
  }
  Geometry g_;
  bool is_sum_;
  int kind_;
};

template <class T>
class AnyAllKernel final : public backend::Kernel {
 public:
  AnyAllKernel(Geometry g, bool any) : g_(std::move(g)), any_(any) {}
  void run(char* const* inputs, char* output) override {
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    bool* out = reinterpret_cast<bool*>(output);
    using C = acc_t<T>;
    const int dt = static_cast<int>(dtype_of<T>());
    if (g_.nout == 0) return;
    if (unit_run(g_)) {
      BoolRunFn fn = kernels().bool_run[any_ ? 0 : 1][dt];
      parallel_for(g_.nout, std::max<int64_t>(1, kMinTask / g_.nred), [&](int64_t b, int64_t e) {
        for (int64_t o = b; o < e; ++o)
          out[o] = fn(reinterpret_cast<const char*>(in + offset_of(o, g_.kdims, g_.kstr)), g_.nred);
      });
      return;
    }
    if (unit_rows(g_)) {
      BoolRowsFn fn = kernels().bool_rows[any_ ? 0 : 1][dt];
      RowsPlan plan(g_);
      plan.for_each([&](int64_t ioff, int64_t ooff, int64_t c0, int64_t c1) {
        std::fill(out + ooff, out + ooff + (c1 - c0), !any_);
        for (int64_t ro = 0; ro < plan.nrouter; ++ro)
          fn(reinterpret_cast<const char*>(in + ioff + offset_of(ro, plan.rd, plan.rs)), plan.sin * int64_t(sizeof(T)),
             plan.nin, c1 - c0, out + ooff);
      });
      return;
    }
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
  ArgKernel(Geometry g, bool is_max, bool skip_nan) : g_(std::move(g)), max_(is_max), nan_(skip_nan) {}
  void run(char* const* inputs, char* output) override {
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    int64_t* out = reinterpret_cast<int64_t*>(output);
    const int64_t n = g_.nred, s = g_.rstr.empty() ? 0 : g_.rstr[0];
    if (g_.nout == 0) return;
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, core::half>) {
      if (nan_) return run_nan(in, out, n, s);
    }
    run_plain(in, out, n, s);
  }

 private:
  // nanargmax/nanargmin (numpy: NaNs replaced by -inf / +inf, then argmax / argmin). A run is
  // searched as is first: when the index found is not a NaN the run holds none and that is the
  // answer; otherwise it is searched again through a buffer with the NaNs replaced. -1: all NaN.
  void run_nan(const T* in, int64_t* out, int64_t n, int64_t s) {
    const int dt = static_cast<int>(dtype_of<T>());
    ArgRunFn fn = kernels().arg_run[max_ ? 0 : 1][dt];
    if (s == 1 || g_.kdims.empty() || g_.kstr.back() != 1) {
      parallel_for(g_.nout, std::max<int64_t>(1, kMinTask / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
        for_offsets(b, e, [&](int64_t o, int64_t off) {
          const T* base = in + off;
          if (s == 1) {
            const int64_t i = fn(reinterpret_cast<const char*>(base), n);
            if (!nan_of(base[i])) {
              out[o] = i;
              return;
            }
          }
          out[o] = replaced_run(fn, base, n, s);
        });
      });
      return;
    }
    // short strided slices along a kept unit-stride dim (axis 0 of a matrix): rows in order,
    // each column keeping its best (NaN replaced) value and whether it met a number
    const int64_t w = g_.kdims.back(), nouter = g_.nout / w;
    parallel_for(nouter, 1, [&](int64_t b, int64_t e) {
      using C = acc_t<T>;
      const C fill = C(max_ ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity());
      std::unique_ptr<C[]> best(new C[w]);
      std::unique_ptr<char[]> seen(new char[w]);
      for (int64_t ob = b; ob < e; ++ob) {
        const T* base = in + offset_of(ob * w, g_.kdims, g_.kstr);
        int64_t* o = out + ob * w;
        for (int64_t r = 0; r < n; ++r) {
          const T* row = base + r * s;
          for (int64_t j = 0; j < w; ++j) {
            const bool num = !nan_of(row[j]);
            const C v = num ? C(row[j]) : fill;
            if (r == 0 || (max_ ? v > best[j] : v < best[j])) best[j] = v, o[j] = r;
            seen[j] = r == 0 ? num : (seen[j] | num);
          }
        }
        for (int64_t j = 0; j < w; ++j)
          if (!seen[j]) o[j] = -1;
      }
    });
  }

  // The NaN-replaced search of base[0], base[s], ..., chunk by chunk through a buffer; a later
  // chunk wins only with a strictly better value (numpy's first index). -1 when all are NaN.
  int64_t replaced_run(ArgRunFn fn, const T* base, int64_t n, int64_t s) const {
    using C = acc_t<T>;
    constexpr int64_t kBuf = 2048;
    alignas(64) T buf[kBuf];
    const T fill = T(max_ ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity());
    C best{};
    int64_t bi = -1;
    bool number = false;
    for (int64_t c0 = 0; c0 < n; c0 += kBuf) {
      const int64_t len = std::min(kBuf, n - c0);
      const T* src = buf;
      int64_t j = -1;
      if (s == 1) {  // a chunk without NaN is searched in place (its index is not a NaN)
        j = fn(reinterpret_cast<const char*>(base + c0), len);
        if (!nan_of(base[c0 + j])) src = base + c0;
      }
      if (src == buf) {
        for (int64_t k = 0; k < len; ++k) {
          const T v = base[(c0 + k) * s];
          const bool num = !nan_of(v);
          number |= num;
          buf[k] = num ? v : fill;
        }
        j = fn(reinterpret_cast<const char*>(src), len);
      } else {
        number = true;
      }
      const C v = C(src[j]);
      if (bi < 0 || (max_ ? v > best : v < best)) best = v, bi = c0 + j;
    }
    return number ? bi : -1;
  }

  void run_plain(const T* in, int64_t* out, int64_t n, int64_t s) {
    using C = acc_t<T>;
    const int dt = static_cast<int>(dtype_of<T>());
    if (s == 1) {
      ArgRunFn fn = kernels().arg_run[max_ ? 0 : 1][dt];
      if (g_.nout == 1 && get_num_threads() > 1 && n >= 4 * kMinTask) {
        // chunks in order; the earlier chunk wins ties, a NaN wins over numbers
        int64_t nchunks = std::min<int64_t>(4 * get_num_threads(), n / kMinTask);
        std::vector<int64_t> idx(nchunks);
        const T* base = in + offset_of(0, g_.kdims, g_.kstr);
        parallel_for(nchunks, 1, [&](int64_t b, int64_t e) {
          for (int64_t c = b; c < e; ++c) {
            int64_t c0 = n * c / nchunks, c1 = n * (c + 1) / nchunks;
            idx[c] = c0 + fn(reinterpret_cast<const char*>(base + c0), c1 - c0);
          }
        });
        int64_t bi = idx[0];
        for (int64_t c = 1; c < nchunks; ++c) {
          C best = C(base[bi]), v = C(base[idx[c]]);
          bool take = max_ ? v > best : v < best;
          if constexpr (std::is_floating_point_v<C>) take = !std::isnan(best) && (take || std::isnan(v));
          if (take) bi = idx[c];
        }
        out[0] = bi;
        return;
      }
      parallel_for(g_.nout, std::max<int64_t>(1, kMinTask / n), [&](int64_t b, int64_t e) {
        for_offsets(b, e, [&](int64_t o, int64_t off) { out[o] = fn(reinterpret_cast<const char*>(in + off), n); });
      });
      return;
    }
    if (!g_.kdims.empty() && g_.kstr.back() == 1) {
      ArgRowsFn fn = kernels().arg_rows[max_ ? 0 : 1][dt];
      RowsPlan plan(g_);
      plan.for_each([&](int64_t ioff, int64_t ooff, int64_t c0, int64_t c1) {
        int64_t w = c1 - c0;
        std::unique_ptr<T[]> best(new T[w]);
        std::memcpy(static_cast<void*>(best.get()), in + ioff, w * sizeof(T));
        std::fill(out + ooff, out + ooff + w, int64_t(0));
        fn(reinterpret_cast<const char*>(in + ioff + s), s * int64_t(sizeof(T)), n - 1, 1, w,
           reinterpret_cast<char*>(best.get()), out + ooff);
      });
      return;
    }
    if (n >= 16) {
      // A strided run (a reversed row, a column of a transposed view): gathered into a buffer
      // chunk by chunk and searched by the run kernel; numpy copies such a run whole.
      ArgRunFn fn = kernels().arg_run[max_ ? 0 : 1][dt];
      parallel_for(g_.nout, std::max<int64_t>(1, 4096 / n), [&](int64_t b, int64_t e) {
        for_offsets(b, e, [&](int64_t o, int64_t off) { out[o] = strided_run(fn, in + off, n, s); });
      });
      return;
    }
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

  // f(o, offset of output o's first element) for o in [b, e), the offset carried from one
  // output to the next (a division per output and dim cost as much as a short row's search).
  template <class F>
  void for_offsets(int64_t b, int64_t e, F f) const {
    const size_t nd = g_.kdims.size();
    if (nd == 0) {
      for (int64_t o = b; o < e; ++o) f(o, 0);
      return;
    }
    std::vector<int64_t> idx(nd);
    int64_t r = b;
    for (size_t d = nd; d-- > 0;) idx[d] = r % g_.kdims[d], r /= g_.kdims[d];
    int64_t off = offset_of(b, g_.kdims, g_.kstr);
    const int64_t last = g_.kstr[nd - 1], width = g_.kdims[nd - 1];
    for (int64_t o = b; o < e; ++o) {
      f(o, off);
      if (++idx[nd - 1] < width) {
        off += last;
        continue;
      }
      idx[nd - 1] = 0;
      size_t d = nd - 1;
      while (d > 0 && ++idx[d - 1] == g_.kdims[d - 1]) idx[--d] = 0;
      off = offset_of(o + 1, g_.kdims, g_.kstr);
    }
  }

  // dst[k] = last[-k], k < len, 8 bytes at a time: GCC at -O2 copies a reversed run element by
  // element (1 ns a byte, more than the search), a byte swap reverses 8 bytes in one instruction.
  static void reverse_copy(T* dst, const T* last, int64_t len) {
    constexpr int64_t kPer = 8 / sizeof(T);
    int64_t k = 0;
    if constexpr (sizeof(T) <= 4) {
      for (; k + kPer <= len; k += kPer) {
        uint64_t w;
        std::memcpy(&w, last - k - (kPer - 1), 8);
        if constexpr (sizeof(T) == 1) w = __builtin_bswap64(w);
        else if constexpr (sizeof(T) == 2) w = __builtin_bswap64(((w >> 8) & 0x00ff00ff00ff00ffull) | ((w & 0x00ff00ff00ff00ffull) << 8));
        else w = (w >> 32) | (w << 32);
        std::memcpy(static_cast<void*>(dst + k), &w, 8);
      }
    }
    for (; k < len; ++k) dst[k] = last[-k];
  }

  // argmax/argmin of base[0], base[s], ..., base[(n-1)s]: chunks copied to a contiguous buffer;
  // a later chunk wins only with a strictly better value, and a NaN ends the search.
  int64_t strided_run(ArgRunFn fn, const T* base, int64_t n, int64_t s) const {
    using C = acc_t<T>;
    constexpr int64_t kBuf = 2048;
    alignas(64) T buf[kBuf];
    C best{};
    int64_t bi = 0;
    for (int64_t c0 = 0; c0 < n; c0 += kBuf) {
      const int64_t len = std::min(kBuf, n - c0);
      const T* src = base + c0 * s;
      if (s == -1) {
        reverse_copy(buf, src, len);
      } else {
        for (int64_t k = 0; k < len; ++k) buf[k] = src[k * s];
      }
      const int64_t j = fn(reinterpret_cast<const char*>(buf), len);
      const C v = C(buf[j]);
      bool take = c0 == 0 || (max_ ? v > best : v < best);
      if constexpr (std::is_floating_point_v<C>) take = take || v != v;
      if (take) best = v, bi = c0 + j;
      if constexpr (std::is_floating_point_v<C>) {
        if (best != best) break;
      }
    }
    return bi;
  }

  Geometry g_;
  bool max_, nan_;
};

// Bool/integer reductions into int64 that read the input in its own type: a sum accumulated in
// int64 (numpy's sum of small integers; uint64's bits are the same) or a count of nonzeros.
// Integer addition is associative, so any split over lanes or threads gives numpy's bits.
template <class T>
class Int64AccKernel final : public backend::Kernel {
 public:
  Int64AccKernel(Geometry g, bool count) : g_(std::move(g)), count_(count) {}
  void run(char* const* inputs, char* output) override {
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    int64_t* out = reinterpret_cast<int64_t*>(output);
    const int dt = static_cast<int>(dtype_of<T>());
    const int64_t nout = g_.nout, nred = g_.nred;
    if (nout == 0) return;
    if (unit_run(g_)) {
      ReduceRunFn fn = count_ ? kernels().count_run[dt] : kernels().wsum_run[dt];
      if (nout == 1) {
        const char* p = reinterpret_cast<const char*>(in + offset_of(0, g_.kdims, g_.kstr));
        const int64_t nparts = std::clamp<int64_t>(nred / (4 * kMinTask), 1, 4 * get_num_threads());
        std::vector<int64_t> part(nparts, 0);
        parallel_for(nparts, 1, [&](int64_t b, int64_t e) {
          for (int64_t k = b; k < e; ++k) {
            const int64_t c0 = nred * k / nparts, c1 = nred * (k + 1) / nparts;
            fn(p + c0 * int64_t(sizeof(T)), c1 - c0, 1, 0, &part[k]);
          }
        });
        uint64_t total = 0;
        for (int64_t v : part) total += uint64_t(v);
        out[0] = int64_t(total);
        return;
      }
      parallel_for(nout, std::max<int64_t>(1, kMinTask / nred), [&](int64_t b, int64_t e) {
        for (int64_t o = b; o < e; ++o)
          fn(reinterpret_cast<const char*>(in + offset_of(o, g_.kdims, g_.kstr)), nred, 1, 0, out + o);
      });
      return;
    }
    if (unit_rows(g_)) {
      ReduceRowsFn fn = count_ ? kernels().count_rows[dt] : kernels().wsum_rows[dt];
      RowsPlan plan(g_);
      plan.for_each([&](int64_t ioff, int64_t ooff, int64_t c0, int64_t c1) {
        std::fill(out + ooff, out + ooff + (c1 - c0), int64_t(0));
        for (int64_t ro = 0; ro < plan.nrouter; ++ro)
          fn(reinterpret_cast<const char*>(in + ioff + offset_of(ro, plan.rd, plan.rs)), plan.sin * int64_t(sizeof(T)),
             plan.nin, c1 - c0, reinterpret_cast<char*>(out + ooff));
      });
      return;
    }
    parallel_for(nout, std::max<int64_t>(1, 4096 / std::max<int64_t>(nred, 1)), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* base = in + offset_of(o, g_.kdims, g_.kstr);
        uint64_t acc = 0;
        for (int64_t r = 0; r < nred; ++r) acc += value(base[offset_of(r, g_.rdims, g_.rstr)]);
        out[o] = int64_t(acc);
      }
    });
  }

 private:
  uint64_t value(T x) const {
    if constexpr (std::is_same_v<T, core::half>) {
      return (x.bits & 0x7fff) != 0;
    } else if constexpr (std::is_floating_point_v<T>) {
      return x != T(0);
    } else {
      if (count_) return x != T(0);
      return uint64_t(int64_t(x));  // sign- or zero-extended, as numpy's cast to int64
    }
  }
  Geometry g_;
  bool count_;
};

// A bool/integer sum into float32/float64 (mean, sum(dtype=float)): numpy casts the input in
// buffers of 8192 elements and sums each buffer pairwise into the running total, so a run is cast
// block by block into a small buffer and summed by the float kernel; axis-0 shapes add rows in
// order, per column, as numpy's loop does.
template <class T, class A>
class CastSumKernel final : public backend::Kernel {
 public:
  static constexpr int64_t kBuf = 8192;  // numpy's default buffer size (NPY_BUFSIZE)
  explicit CastSumKernel(Geometry g) : g_(std::move(g)) {}
  void run(char* const* inputs, char* output) override {
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    A* out = reinterpret_cast<A*>(output);
    const int64_t nout = g_.nout, nred = g_.nred;
    if (nout == 0) return;
    CastFn cast = kernels().cast[static_cast<int>(dtype_of<T>())][static_cast<int>(dtype_of<A>())];
    ReduceRunFn sum = kernels().reduce_run[0][static_cast<int>(dtype_of<A>())];
    ReduceRunFn isum = kernels().wsum_run[static_cast<int>(dtype_of<T>())];
    auto block_sum = [&](const T* p, int64_t len, A* buf) {
      if constexpr (std::is_same_v<A, double> && sizeof(T) <= 4) {
        // |x| < 2^32 and 8192 of them: every partial sum of numpy's pairwise tree is an integer
        // below 2^53, exact, so the block's float64 sum is its integer sum, converted once.
        int64_t si;
        isum(reinterpret_cast<const char*>(p), len, 1, 0, &si);
        return double(si);
      }
      A s;
      cast(len, reinterpret_cast<const char*>(p), reinterpret_cast<char*>(buf));
      sum(reinterpret_cast<const char*>(buf), len, 1, 0, &s);
      return s;
    };
    if (unit_run(g_)) {
      if (nout == 1 && get_num_threads() > 1 && nred >= 4 * kBuf) {
        // block sums in parallel, added in order: the single-threaded bits
        const T* p = in + offset_of(0, g_.kdims, g_.kstr);
        const int64_t nb = (nred + kBuf - 1) / kBuf;
        std::vector<A> part(nb);
        parallel_for(nb, 4, [&](int64_t b, int64_t e) {
          std::unique_ptr<A[]> buf(new A[kBuf]);
          for (int64_t k = b; k < e; ++k) part[k] = block_sum(p + k * kBuf, std::min(kBuf, nred - k * kBuf), buf.get());
        });
        A total = A(0);
        for (A v : part) total += v;
        out[0] = total;
        return;
      }
      parallel_for(nout, std::max<int64_t>(1, kMinTask / nred), [&](int64_t b, int64_t e) {
        std::unique_ptr<A[]> buf(new A[std::min(kBuf, nred)]);
        for (int64_t o = b; o < e; ++o) {
          const T* p = in + offset_of(o, g_.kdims, g_.kstr);
          A total = A(0);
          for (int64_t c0 = 0; c0 < nred; c0 += kBuf) total += block_sum(p + c0, std::min(kBuf, nred - c0), buf.get());
          out[o] = total;
        }
      });
      return;
    }
    if (unit_rows(g_)) {
      RowsPlan plan(g_);
      plan.for_each([&](int64_t ioff, int64_t ooff, int64_t c0, int64_t c1) {
        A* o = out + ooff;
        const int64_t w = c1 - c0;
        std::fill(o, o + w, A(0));
        for (int64_t ro = 0; ro < plan.nrouter; ++ro) {
          const T* rb = in + ioff + offset_of(ro, plan.rd, plan.rs);
          for (int64_t r = 0; r < plan.nin; ++r) {
            const T* row = rb + r * plan.sin;
            for (int64_t j = 0; j < w; ++j) o[j] += A(row[j]);
          }
        }
      });
      return;
    }
    parallel_for(nout, std::max<int64_t>(1, 4096 / std::max<int64_t>(nred, 1)), [&](int64_t b, int64_t e) {
      std::unique_ptr<A[]> buf(new A[std::min(kBuf, std::max<int64_t>(nred, 1))]);
      for (int64_t o = b; o < e; ++o) {
        const T* base = in + offset_of(o, g_.kdims, g_.kstr);
        // numpy: each innermost reduced run summed pairwise (8192-element blocks), the runs added
        // in order
        A total = A(0);
        const int64_t nin = g_.rdims.empty() ? 1 : g_.rdims.back(), s = g_.rstr.empty() ? 0 : g_.rstr.back();
        std::vector<int64_t> od(g_.rdims.begin(), g_.rdims.end() - (g_.rdims.empty() ? 0 : 1));
        std::vector<int64_t> os(g_.rstr.begin(), g_.rstr.end() - (g_.rstr.empty() ? 0 : 1));
        for (int64_t ro = 0; ro < nred / std::max<int64_t>(nin, 1); ++ro) {
          const T* run = base + offset_of(ro, od, os);
          for (int64_t c0 = 0; c0 < nin; c0 += kBuf) {
            const int64_t len = std::min(kBuf, nin - c0);
            for (int64_t k = 0; k < len; ++k) buf[k] = A(run[(c0 + k) * s]);
            A part;
            sum(reinterpret_cast<const char*>(buf.get()), len, 1, 0, &part);
            total += part;
          }
        }
        out[o] = total;
      }
    });
  }

 private:
  Geometry g_;
};

// Complex sum/prod/any/all: a plain strided loop (numpy has no SIMD complex reductions either).
// Sums are pairwise over each output's elements in order, as numpy's, so results agree to rounding.
template <class T>
class ComplexReduceKernel final : public backend::Kernel {
 public:
  ComplexReduceKernel(Geometry g, ReduceKind kind) : g_(std::move(g)), kind_(kind) {}
  void run(char* const* inputs, char* output) override {
    const T* in = reinterpret_cast<const T*>(inputs[0]);
    if (g_.nout == 0) return;
    parallel_for(g_.nout, std::max<int64_t>(1, kMinTask / std::max<int64_t>(1, g_.nred)), [&](int64_t b, int64_t e) {
      std::vector<T> vals(static_cast<size_t>(g_.nred));
      for (int64_t o = b; o < e; ++o) {
        const T* base = in + offset_of(o, g_.kdims, g_.kstr);
        for (int64_t k = 0; k < g_.nred; ++k) vals[k] = base[offset_of(k, g_.rdims, g_.rstr)];
        if (kind_ == ReduceKind::Any || kind_ == ReduceKind::All) {
          bool any = kind_ == ReduceKind::Any, r = !any;
          for (auto& v : vals)
            if ((v != T(0)) == any) { r = any; break; }
          reinterpret_cast<bool*>(output)[o] = r;
        } else if (kind_ == ReduceKind::Sum) {
          reinterpret_cast<T*>(output)[o] = pairwise(vals.data(), g_.nred);
        } else {
          T r(1, 0);
          for (auto& v : vals)
            r = T(r.real() * v.real() - r.imag() * v.imag(), r.real() * v.imag() + r.imag() * v.real());
          reinterpret_cast<T*>(output)[o] = r;
        }
      }
    });
  }

 private:
  static T pairwise(const T* v, int64_t n) {
    if (n <= 8) {
      T r(0, 0);
      for (int64_t i = 0; i < n; ++i) r += v[i];
      return r;
    }
    int64_t h = n / 2;
    return pairwise(v, h) + pairwise(v + h, n - h);
  }
  Geometry g_;
  ReduceKind kind_;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_reduce(const backend::StepDesc& step) {
  const auto& p = step.params->ints;
  auto kind = static_cast<ReduceKind>(p[0]);
  std::vector<int64_t> axes(p.begin() + 1, p.end());
  Geometry g = split(step.inputs[0], axes);
  DType dt = step.inputs[0].dtype;
  if (is_complex(dt)) {
    if (kind == ReduceKind::Max || kind == ReduceKind::Min)
      throw TypeError("[mnn.numpy.max] maximum/minimum of complex arrays is not supported");
    if (dt == DType::Complex64) return std::make_unique<ComplexReduceKernel<std::complex<float>>>(std::move(g), kind);
    return std::make_unique<ComplexReduceKernel<std::complex<double>>>(std::move(g), kind);
  }
  const DType odt = step.output.dtype;
  const Kind ik = kind_of(dt);
  const bool int_in = ik == Kind::Bool || ik == Kind::Signed || ik == Kind::Unsigned;
  if (kind == ReduceKind::CountNonzero ||
      (kind == ReduceKind::Sum && int_in && dt != odt && (odt == DType::Int64 || odt == DType::UInt64))) {
    return dispatch_dtype(dt, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
      using T = decltype(zero);
      return std::make_unique<Int64AccKernel<T>>(std::move(g), kind == ReduceKind::CountNonzero);
    });
  }
  if (kind == ReduceKind::Sum && int_in && (odt == DType::Float64 || odt == DType::Float32)) {
    return dispatch_dtype(dt, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
      using T = decltype(zero);
      if constexpr (std::is_integral_v<T>) {
        if (odt == DType::Float64) return std::make_unique<CastSumKernel<T, double>>(std::move(g));
        return std::make_unique<CastSumKernel<T, float>>(std::move(g));
      } else {
        throw ValueError("[mnn.numpy.sum] internal: not an integer input");
      }
    });
  }
  if (dt != odt && kind != ReduceKind::Any && kind != ReduceKind::All)
    throw ValueError("[mnn.numpy.sum] internal: reduction input and output dtypes differ");
  return dispatch_dtype(dt, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    constexpr bool kFloat = std::is_floating_point_v<T> || std::is_same_v<T, core::half>;
    switch (kind) {
      case ReduceKind::NanMax:
        if constexpr (kFloat) return std::make_unique<ReduceKernel<T, FMaxOp>>(std::move(g), 4);
        else return std::make_unique<ReduceKernel<T, MaxOp>>(std::move(g), 2);
      case ReduceKind::NanMin:
        if constexpr (kFloat) return std::make_unique<ReduceKernel<T, FMinOp>>(std::move(g), 5);
        else return std::make_unique<ReduceKernel<T, MinOp>>(std::move(g), 3);
      case ReduceKind::Sum: return std::make_unique<ReduceKernel<T, SumOp>>(std::move(g), 0);
      case ReduceKind::Prod: return std::make_unique<ReduceKernel<T, ProdOp>>(std::move(g), 1);
      case ReduceKind::Max: return std::make_unique<ReduceKernel<T, MaxOp>>(std::move(g), 2);
      case ReduceKind::Min: return std::make_unique<ReduceKernel<T, MinOp>>(std::move(g), 3);
      case ReduceKind::Any: return std::make_unique<AnyAllKernel<T>>(std::move(g), true);
      default: return std::make_unique<AnyAllKernel<T>>(std::move(g), false);
    }
  });
}

std::unique_ptr<backend::Kernel> prepare_argreduce(const backend::StepDesc& step) {
  const auto& p = step.params->ints;
  bool is_max = p[0] == 0 || p[0] == 2, skip_nan = p[0] >= 2;
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
    return std::make_unique<ArgKernel<T>>(std::move(g), is_max, skip_nan);
  });
}

}  // namespace mnn::cpu
