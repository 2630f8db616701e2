// Reduction microkernels for one ISA (compiled once per target, see elementwise_table.cpp).
// Written with GCC vector extensions: each lane is exact IEEE arithmetic, so every target
// computes bit-identical results and the target only decides how wide the machine ops are.
//
// Two shapes cover the CPU reductions (kernels/reduce.cpp picks one and splits threads):
//  - run:  reduce one contiguous run to a value. Float sums follow numpy's pairwise scheme
//          exactly (8 accumulators per block of <= 128, halves split on multiples of 8), with
//          four blocks summed at once so the adds' latency hides; float16 sums in float. A long
//          run reads its four equal quarter subtrees in lockstep (sum_long).
//  - rows: acc[j] = op(acc[j], row_r[j]) for rows in order (axis 0 of a row-major matrix): the
//          same per-column order as numpy's elementwise loop, so results are bit-exact; float16
//          rounds to half after each row, as numpy's half add does.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "backends/cpu/simd/kernel_table.h"
#include "backends/cpu/simd/neon.h"

// Wide vector types only ever pass between inlined internal functions of one target.
#pragma GCC diagnostic ignored "-Wpsabi"

// Lane shuffles: clang and GCC >= 12 have __builtin_shufflevector, older GCC __builtin_shuffle.
#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define MNN_SHUFFLE_KIND 1
#endif
#endif
#if !defined(MNN_SHUFFLE_KIND) && defined(__GNUC__) && !defined(__clang__)
#define MNN_SHUFFLE_KIND 2
#endif
#ifndef MNN_SHUFFLE_KIND
#define MNN_SHUFFLE_KIND 0
#endif


namespace mnn::cpu::MNN_ISA_NS {

using core::DType;
using core::half;

namespace {

#if defined(__AVX512F__)
constexpr int kVecBytes = 64;
#else
constexpr int kVecBytes = 32;
#endif

template <class T, int N>
struct VecOf {
  typedef T type __attribute__((vector_size(N * sizeof(T))));
};
template <class T, int N> using vec = typename VecOf<T, N>::type;

// Storage type -> arithmetic type: float for half, same-size unsigned for signed integers
// (wrap-around without undefined behaviour), the type itself otherwise.
template <class T> struct Calc { using type = T; };
template <> struct Calc<half> { using type = float; };
template <class T> using calc_t = typename Calc<T>::type;

template <class T> constexpr bool is_float_v = std::is_floating_point_v<T> || std::is_same_v<T, half>;

// Always inlined: the scalar target would otherwise call it out of line with a 32-byte vector
// return (-Wpsabi) from the unrolled leaf4_128.
template <int N, class T>
__attribute__((always_inline)) inline vec<calc_t<T>, N> load(const T* p) {
  using C = calc_t<T>;
  vec<C, N> v;
  if constexpr (std::is_same_v<T, half>) {
#if defined(__F16C__)
    static_assert(N % 8 == 0);
    for (int k = 0; k < N; k += 8) {
      __m256 f = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k)));
      std::memcpy(reinterpret_cast<float*>(&v) + k, &f, 32);
    }
#elif defined(MNN_NEON)
    static_assert(N % 4 == 0);
    for (int k = 0; k < N; k += 4) {  // FCVTL: exact, like the scalar widening
      float32x4_t f = vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(reinterpret_cast<const uint16_t*>(p + k))));
      std::memcpy(reinterpret_cast<float*>(&v) + k, &f, 16);
    }
#else
    for (int k = 0; k < N; ++k) v[k] = static_cast<float>(p[k]);
#endif
  } else {
    std::memcpy(&v, p, sizeof(v));
  }
  return v;
}

template <int N, class T>
inline void store(T* p, vec<calc_t<T>, N> v) {
  if constexpr (std::is_same_v<T, half>) {
#if defined(__F16C__)
    for (int k = 0; k < N; k += 8) {
      __m256 f;
      std::memcpy(&f, reinterpret_cast<float*>(&v) + k, 32);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p + k), _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
    }
#elif defined(MNN_NEON)
    for (int k = 0; k < N; k += 4) {  // FCVTN: nearest-even, as half(float) (NaN payloads aside, as F16C)
      float32x4_t f;
      std::memcpy(&f, reinterpret_cast<const float*>(&v) + k, 16);
      vst1_u16(reinterpret_cast<uint16_t*>(p + k), vreinterpret_u16_f16(vcvt_f16_f32(f)));
    }
#else
    for (int k = 0; k < N; ++k) p[k] = half(v[k]);
#endif
  } else {
    std::memcpy(p, &v, sizeof(v));
  }
}

// Round float lanes to half precision and back (numpy's half loops store after each op).
template <int N>
inline vec<float, N> round_half(vec<float, N> v) {
  half h[N];
  store<N>(h, v);
  return load<N>(h);
}

inline float round_half(float v) { return static_cast<float>(half(v)); }

// ---- the four value reductions, written once for scalars and vectors -------------------------
// Max/min propagate NaN (numpy's maximum/minimum): keep a when a wins or is NaN, else take b.
struct SumOp {
  template <class V> static V apply(V a, V b) { return a + b; }
  template <class C> static C init() { return C(0); }
};
struct ProdOp {
  template <class V> static V apply(V a, V b) { return a * b; }
  template <class C> static C init() { return C(1); }
};
struct MaxOp {
  template <class V> static V apply(V a, V b) {
    if constexpr (std::is_floating_point_v<V>) return (a >= b || a != a) ? a : b;
    else if constexpr (std::is_arithmetic_v<V>) return a >= b ? a : b;
    else if constexpr (std::is_floating_point_v<std::remove_reference_t<decltype(a[0])>>) return ((a >= b) | (a != a)) ? a : b;
    else return a >= b ? a : b;
  }
  template <class C> static C init() { return std::numeric_limits<C>::lowest(); }
};
struct MinOp {
  template <class V> static V apply(V a, V b) {
    if constexpr (std::is_floating_point_v<V>) return (a <= b || a != a) ? a : b;
    else if constexpr (std::is_arithmetic_v<V>) return a <= b ? a : b;
    else if constexpr (std::is_floating_point_v<std::remove_reference_t<decltype(a[0])>>) return ((a <= b) | (a != a)) ? a : b;
    else return a <= b ? a : b;
  }
  template <class C> static C init() { return std::numeric_limits<C>::max(); }
};

// NaN-skipping max/min (numpy's fmax/fmin, used by nanmax/nanmin): from -inf (+inf), take b only
// when it beats a, which a NaN never does: one compare and one blend per element. A slice with
// no number then comes out at the start value; the caller tells that from a real -inf (+inf).
// Equal values keep a, as fmax keeps its first argument; every accumulator starts from the
// start value, never from an element (a NaN would stick).
struct FMaxOp {
  template <class V> static V apply(V a, V b) { return (b > a) ? b : a; }
  template <class C> static C init() { return -std::numeric_limits<C>::infinity(); }
};
struct FMinOp {
  template <class V> static V apply(V a, V b) { return (b < a) ? b : a; }
  template <class C> static C init() { return std::numeric_limits<C>::infinity(); }
};
template <class Op>
constexpr bool is_extreme_op_v = std::is_same_v<Op, MaxOp> || std::is_same_v<Op, MinOp> || std::is_same_v<Op, FMaxOp> ||
                                 std::is_same_v<Op, FMinOp>;

// Integer sums/products wrap: compute in the unsigned type of the same size.
template <class T> struct Wrap { using type = T; };
template <> struct Wrap<int8_t> { using type = uint8_t; };
template <> struct Wrap<int16_t> { using type = uint16_t; };
template <> struct Wrap<int32_t> { using type = uint32_t; };
template <> struct Wrap<int64_t> { using type = uint64_t; };

template <class T> constexpr int lanes() { return kVecBytes / sizeof(calc_t<T>) < 8 ? 8 : kVecBytes / sizeof(calc_t<T>); }

// ---- pairwise float sums (numpy's @TYPE@_pairwise_sum) ---------------------------------------
template <class T>
struct Pairwise {
  using A = calc_t<T>;
  using V8 = vec<A, 8>;
  struct Leaf { const T* p; int64_t n; };

  // ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), numpy's order, with two in-register
  // shuffles instead of eight lane extractions (a + b and b + a are the same bits). Per 128-block
  // this was most of the lockstep kernel's extra time over a plain 4-stream read (C++ harness).
  static A combine8(V8 r) {
#if MNN_SHUFFLE_KIND == 1
    V8 t = r + __builtin_shufflevector(r, r, 1, 0, 3, 2, 5, 4, 7, 6);
    V8 u = t + __builtin_shufflevector(t, t, 2, 3, 0, 1, 6, 7, 4, 5);
    return u[0] + u[4];
#elif MNN_SHUFFLE_KIND == 2
    using M = vec<std::conditional_t<sizeof(A) == 8, int64_t, int32_t>, 8>;
    V8 t = r + __builtin_shuffle(r, M{1, 0, 3, 2, 5, 4, 7, 6});
    V8 u = t + __builtin_shuffle(t, M{2, 3, 0, 1, 6, 7, 4, 5});
    return u[0] + u[4];
#else
    return ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
#endif
  }

  // One block of 8 <= n <= 128: eight lane accumulators, then the rest one by one.
  static A leaf(const T* p, int64_t n) {
    V8 r = load<8>(p);
    int64_t i = 8, m = n - n % 8;
    for (; i < m; i += 8) {
      r += load<8>(p + i);
    }
    A res = combine8(r);
    for (; i < n; ++i) res += A(p[i]);
    return res;
  }

  // Four full blocks of 128 at once: a constant trip count the compiler unrolls, four
  // independent add chains; same order as leaf().
  static void leaf4_128(const T* p0, const T* p1, const T* p2, const T* p3, A* out) {
    V8 r0 = load<8>(p0), r1 = load<8>(p1), r2 = load<8>(p2), r3 = load<8>(p3);
#pragma GCC unroll 15
    for (int i = 8; i < 128; i += 8) {
      r0 += load<8>(p0 + i);
      r1 += load<8>(p1 + i);
      r2 += load<8>(p2 + i);
      r3 += load<8>(p3 + i);
    }
    out[0] = combine8(r0), out[1] = combine8(r1), out[2] = combine8(r2), out[3] = combine8(r3);
  }

  // Four blocks at once (independent chains); same per-block order as leaf().
  static void leaf4(const Leaf* l, A* out) {
    V8 r0 = load<8>(l[0].p), r1 = load<8>(l[1].p), r2 = load<8>(l[2].p), r3 = load<8>(l[3].p);
    int64_t m0 = l[0].n - l[0].n % 8, m1 = l[1].n - l[1].n % 8, m2 = l[2].n - l[2].n % 8, m3 = l[3].n - l[3].n % 8;
    int64_t mm = std::min(std::min(m0, m1), std::min(m2, m3));
    int64_t i = 8;
    for (; i < mm; i += 8) {
      r0 += load<8>(l[0].p + i);
      r1 += load<8>(l[1].p + i);
      r2 += load<8>(l[2].p + i);
      r3 += load<8>(l[3].p + i);
    }
    for (int64_t j = i; j < m0; j += 8) r0 += load<8>(l[0].p + j);
    for (int64_t j = i; j < m1; j += 8) r1 += load<8>(l[1].p + j);
    for (int64_t j = i; j < m2; j += 8) r2 += load<8>(l[2].p + j);
    for (int64_t j = i; j < m3; j += 8) r3 += load<8>(l[3].p + j);
    V8 rs[4] = {r0, r1, r2, r3};
    for (int k = 0; k < 4; ++k) {
      A res = combine8(rs[k]);
      for (int64_t j = l[k].n - l[k].n % 8; j < l[k].n; ++j) res += A(l[k].p[j]);
      out[k] = res;
    }
  }

  static void collect(const T* p, int64_t n, Leaf* out, int& k) {
    if (n <= 128) {
      out[k++] = {p, n};
      return;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    collect(p, n2, out, k);
    collect(p + n2, n - n2, out, k);
  }
  static A combine(int64_t n, const A* sums, int& k) {
    if (n <= 128) return sums[k++];
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    A a = combine(n2, sums, k);
    return a + combine(n - n2, sums, k);
  }

  static A sum(const T* p, int64_t n) {
    if (n < 8) {
      A r = A(0);
      for (int64_t i = 0; i < n; ++i) r += A(p[i]);
      return r;
    }
    if (n <= 128) return leaf(p, n);
    if (n > 2048) {
      int64_t n2 = n / 2;
      n2 -= n2 % 8;
      return sum(p, n2) + sum(p + n2, n - n2);
    }
    // 128 < n <= 2048: blocks one after another (a single stream reads fastest here)
    Leaf leaves[40];
    A sums[40];
    int k = 0;
    collect(p, n, leaves, k);
    for (int i = 0; i < k; ++i) sums[i] = leaf(leaves[i].p, leaves[i].n);
    int c = 0;
    return combine(n, sums, c);
  }

  // S runs (S a multiple of 4) of the same length n, so the same tree, in lockstep: block j of
  // every run is summed by leaf4, whose four independent chains hide the adds' latency, and S
  // streams far apart keep more memory requests in flight than one stream does (one Zen 3 core
  // reads about 14 GB/s from one stream, 19+ from several).
  template <int S>
  static void sum_lockstep(const T* const* ps, int64_t n, A* out) {
    if (n <= 128) {
      for (int s = 0; s < S; ++s) out[s] = sum(ps[s], n);
      return;
    }
    if (n > 2048) {
      int64_t n2 = n / 2;
      n2 -= n2 % 8;
      A a[S], b[S];
      const T* q[S];
      for (int s = 0; s < S; ++s) q[s] = ps[s] + n2;
      sum_lockstep<S>(ps, n2, a);
      sum_lockstep<S>(q, n - n2, b);
      for (int s = 0; s < S; ++s) out[s] = a[s] + b[s];
      return;
    }
    if (n % 128 == 0 && ((n / 128) & (n / 128 - 1)) == 0) {
      // n = 128 * 2^k (a 4096-wide row's halves, a power-of-two total's 2048 chunks): numpy's
      // tree is then full blocks of 128 joined as a balanced binary tree, so the leaves are
      // consecutive and their sums join level by level, without the generic walk below (7-15%
      // slower for 4096-wide rows in a C++ harness on the contended host).
      constexpr int kMaxLeaves = 16;
      const int nl = static_cast<int>(n / 128);
      A sums[S][kMaxLeaves];
      for (int j = 0; j < nl; ++j)
        for (int s0 = 0; s0 < S; s0 += 4) {
          A r[4];
          leaf4_128(ps[s0] + 128 * j, ps[s0 + 1] + 128 * j, ps[s0 + 2] + 128 * j, ps[s0 + 3] + 128 * j, r);
          for (int s = 0; s < 4; ++s) sums[s0 + s][j] = r[s];
        }
      for (int s = 0; s < S; ++s) {
        A* x = sums[s];
        for (int m = nl; m > 1; m /= 2)
          for (int k = 0; k < m / 2; ++k) x[k] = x[2 * k] + x[2 * k + 1];
        out[s] = x[0];
      }
      return;
    }
    Leaf leaves[40];
    A sums[S][40];
    int k = 0;
    collect(ps[0], n, leaves, k);
    for (int j = 0; j < k; ++j) {
      int64_t off = leaves[j].p - ps[0];
      for (int s0 = 0; s0 < S; s0 += 4) {
        Leaf l4[4];
        for (int s = 0; s < 4; ++s) l4[s] = {ps[s0 + s] + off, leaves[j].n};
        A r[4];
        leaf4(l4, r);
        for (int s = 0; s < 4; ++s) sums[s0 + s][j] = r[s];
      }
    }
    for (int s = 0; s < S; ++s) {
      int c = 0;
      out[s] = combine(n, sums[s], c);
    }
  }

  // A long run: its four quarter subtrees in lockstep when they have equal lengths: four streams
  // a quarter apart, the pattern in which an axis-1 sum reads its runs. Eight eighths in lockstep
  // (used before) read 3-7% slower in paired in-process runs on a contended Zen 3 core (medians of
  // 5 runs, against +-3% between identical code), and on the quiet host a 4096^2 sum over all
  // took 4.1 and 5.5 ms in two runs where the quarter-pattern axis 1 took 3.9. A single stream
  // (adjacent leaves in separate registers) was 1.3x slower quiet and 1.6-2.5x contended.
  static A sum_long(const T* p, int64_t n) {
    if (n < 16384) return sum(p, n);
    int64_t h = n / 2;
    h -= h % 8;
    int64_t q0 = h / 2, q1 = (n - h) / 2;
    q0 -= q0 % 8, q1 -= q1 % 8;
    if (q0 == h - q0 && q1 == n - h - q1 && q0 == q1) {
      const T* ps[4] = {p, p + q0, p + h, p + h + q1};
      A r[4];
      sum_lockstep<4>(ps, q0, r);
      return (r[0] + r[1]) + (r[2] + r[3]);
    }
    return sum_long(p, h) + sum_long(p + h, n - h);
  }
};

// ---- run: reduce p[0..n) to *acc (accumulator type) -----------------------------------------
template <class Op, class T>
void run_one(const T* p, int64_t n, calc_t<T>* acc) {
  using C0 = calc_t<T>;
  if constexpr (std::is_same_v<Op, SumOp> && is_float_v<T>) {
    *acc = Pairwise<T>::sum_long(p, n);
  } else if constexpr (std::is_same_v<Op, ProdOp> && is_float_v<T>) {
    // numpy multiplies a float run in order (float16 in float, rounded once): lanes would round
    // differently and can meet inf * 0 = NaN where numpy's running product is already 0
    C0 r = C0(1);
    for (int64_t i = 0; i < n; ++i) r *= C0(p[i]);
    *acc = r;
  } else {
    using C = std::conditional_t<is_extreme_op_v<Op>, C0, typename Wrap<C0>::type>;
    constexpr int N = lanes<T>();
    using V = vec<C, N>;
    C r = Op::template init<C0>();
    int64_t i = 0;
    if constexpr (std::is_same_v<Op, FMaxOp> || std::is_same_v<Op, FMinOp>) {
      if (n >= 4 * N) {
      V a0 = V{} + r, a1 = a0, a2 = a0, a3 = a0;
      for (; i + 4 * N <= n; i += 4 * N)
        a0 = Op::apply(a0, load<N>(p + i)), a1 = Op::apply(a1, load<N>(p + i + N)),
        a2 = Op::apply(a2, load<N>(p + i + 2 * N)), a3 = Op::apply(a3, load<N>(p + i + 3 * N));
      V a = Op::apply(Op::apply(a0, a1), Op::apply(a2, a3));
      for (int k = 0; k < N; ++k) r = Op::apply(r, C(a[k]));
      }
    } else if (n >= 4 * N) {
      V a0, a1, a2, a3;
      if constexpr (std::is_same_v<T, half>) {
        a0 = load<N>(p), a1 = load<N>(p + N), a2 = load<N>(p + 2 * N), a3 = load<N>(p + 3 * N);
      } else {
        std::memcpy(&a0, p, sizeof(V)), std::memcpy(&a1, p + N, sizeof(V));
        std::memcpy(&a2, p + 2 * N, sizeof(V)), std::memcpy(&a3, p + 3 * N, sizeof(V));
      }
      for (i = 4 * N; i + 4 * N <= n; i += 4 * N) {
        V b0, b1, b2, b3;
        if constexpr (std::is_same_v<T, half>) {
          b0 = load<N>(p + i), b1 = load<N>(p + i + N), b2 = load<N>(p + i + 2 * N), b3 = load<N>(p + i + 3 * N);
        } else {
          std::memcpy(&b0, p + i, sizeof(V)), std::memcpy(&b1, p + i + N, sizeof(V));
          std::memcpy(&b2, p + i + 2 * N, sizeof(V)), std::memcpy(&b3, p + i + 3 * N, sizeof(V));
        }
        a0 = Op::apply(a0, b0), a1 = Op::apply(a1, b1), a2 = Op::apply(a2, b2), a3 = Op::apply(a3, b3);
      }
      V a = Op::apply(Op::apply(a0, a1), Op::apply(a2, a3));
      r = a[0];
      for (int k = 1; k < N; ++k) r = Op::apply(r, C(a[k]));
    }
    for (; i < n; ++i) r = Op::apply(r, C(C0(p[i])));
    *acc = C0(r);
  }
}

#ifndef MNN_RUNS
#define MNN_RUNS 4
#endif
constexpr int kRuns = MNN_RUNS;

// fmax/fmin of S runs of n at once, in lockstep: S streams keep more memory requests in flight
// than one (as the sums' lockstep); two vectors per run per step.
template <class Op, class T, int S>
void fext_lockstep(const T* const* ps, int64_t n, calc_t<T>* out) {
  using C = calc_t<T>;
  constexpr int N = lanes<T>();
  using V = vec<C, N>;
  const C start = Op::template init<C>();
  V a[S][2];
  for (int s = 0; s < S; ++s) a[s][0] = a[s][1] = V{} + start;
  int64_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N)
    for (int s = 0; s < S; ++s)
      a[s][0] = Op::apply(a[s][0], load<N>(ps[s] + i)), a[s][1] = Op::apply(a[s][1], load<N>(ps[s] + i + N));
  for (int s = 0; s < S; ++s) {
    V v = Op::apply(a[s][0], a[s][1]);
    C r = start;
    for (int k = 0; k < N; ++k) r = Op::apply(r, C(v[k]));
    for (int64_t j = i; j < n; ++j) r = Op::apply(r, C(ps[s][j]));
    out[s] = r;
  }
}

template <class Op, class T>
void run_fn(const char* src, int64_t n, int64_t count, int64_t stride, void* accp) {
  auto* acc = static_cast<calc_t<T>*>(accp);
  int64_t c = 0;
  if constexpr (std::is_same_v<Op, FMaxOp> || std::is_same_v<Op, FMinOp>) {
    using C = calc_t<T>;
    if (count == 1 && n >= 4096) {  // one long run: its quarters in lockstep
      const T* p = reinterpret_cast<const T*>(src);
      const int64_t q = n / 4;
      const T* ps[4] = {p, p + q, p + 2 * q, p + 3 * q};
      C r[4];
      fext_lockstep<Op, T, 4>(ps, q, r);
      C v = Op::apply(Op::apply(r[0], r[1]), Op::apply(r[2], r[3]));
      for (int64_t j = 4 * q; j < n; ++j) v = Op::apply(v, C(p[j]));
      acc[0] = v;
      return;
    }
    for (; c + 4 <= count; c += 4) {
      const T* ps[4];
      for (int s = 0; s < 4; ++s) ps[s] = reinterpret_cast<const T*>(src + (c + s) * stride);
      fext_lockstep<Op, T, 4>(ps, n, acc + c);
    }
  }
  if constexpr (std::is_same_v<Op, SumOp> && is_float_v<T>) {
    if (n >= 256) {
      for (; c + kRuns <= count; c += kRuns) {
        const T* ps[kRuns];
        for (int s = 0; s < kRuns; ++s) ps[s] = reinterpret_cast<const T*>(src + (c + s) * stride);
        Pairwise<T>::template sum_lockstep<kRuns>(ps, n, acc + c);
      }
    }
  }
  for (; c < count; ++c) run_one<Op, T>(reinterpret_cast<const T*>(src + c * stride), n, acc + c);
}

// ---- rows: acc[j] = op(acc[j], row_r[j]) for r < nrows, rows `stride` bytes apart ------------

// Walks the next group of rows (g rows of `row_bytes`, `stride` apart) in memory order and
// prefetches it into L2 at the pace the current group is consumed, so that while one group is
// summed the next one streams in as ONE sequential read. The summing itself reads g rows
// 16 KB apart; left to the hardware prefetchers those g short streams read ~15% slower than
// one long one on this host (benchmarks/native/sum_axis0_ab.cpp).
class NextGroupPrefetch {
 public:
  NextGroupPrefetch(const char* first_row, int64_t stride, int64_t row_bytes, int64_t rows)
      : row_(first_row), stride_(stride), row_bytes_(row_bytes), rows_left_(rows) {}
  // The current group consumed `bytes` more of its total; prefetch the same share of the next.
  void advance(int64_t bytes) {
    for (owed_ += bytes; owed_ >= 64 && rows_left_ > 0; owed_ -= 64) {
      __builtin_prefetch(row_ + col_, 0, 2);  // locality 2: into L2, not L1 (L1 holds acc)
      if ((col_ += 64) >= row_bytes_) col_ = 0, row_ += stride_, --rows_left_;
    }
  }

 private:
  const char* row_;
  int64_t stride_, row_bytes_, rows_left_, col_ = 0, owed_ = 0;
};

// G rows per pass, W vectors of columns per step, each row prefetched PF bytes ahead (0: none),
// and the next group prefetched in memory order (NextGroupPrefetch).
template <class Op, class T, int G, int W, int PF>
void rows_impl(const char* base, int64_t stride, int64_t nrows, int64_t n, char* accp) {
  using C0 = calc_t<T>;
  using C = std::conditional_t<is_extreme_op_v<Op>, C0, typename Wrap<C0>::type>;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr int N = lanes<T>();
  T* acc = reinterpret_cast<T*>(accp);
  const int64_t row_bytes = n * int64_t(sizeof(T));
  for (int64_t r0 = 0; r0 < nrows; r0 += G) {
    const int g = static_cast<int>(std::min<int64_t>(G, nrows - r0));
    const T* rows[G];
    for (int k = 0; k < g; ++k) rows[k] = reinterpret_cast<const T*>(base + (r0 + k) * stride);
    const int64_t next_rows = std::clamp<int64_t>(nrows - r0 - G, 0, G);
    NextGroupPrefetch next(base + (r0 + G) * stride, stride, row_bytes, next_rows);
    const int64_t step_bytes = int64_t(W * N * sizeof(T)) * next_rows;
    int64_t j = 0;
    for (; j + W * N <= n; j += W * N) {
      vec<C0, N> a[W];
      for (int w = 0; w < W; ++w) a[w] = load<N>(acc + j + w * N);
      next.advance(step_bytes);
      for (int k = 0; k < g; ++k) {
        if constexpr (PF > 0) __builtin_prefetch(rows[k] + j + PF / int(sizeof(T)));
        for (int w = 0; w < W; ++w) {
          vec<C0, N> x = load<N>(rows[k] + j + w * N);
          if constexpr (std::is_same_v<C, C0>) a[w] = Op::apply(a[w], x);
          else a[w] = (vec<C0, N>)Op::apply((vec<C, N>)a[w], (vec<C, N>)x);
          if constexpr (kHalf) a[w] = round_half<N>(a[w]);
        }
      }
      for (int w = 0; w < W; ++w) store<N>(acc + j + w * N, a[w]);
    }
    for (; j < n; ++j) {
      C a = C(C0(acc[j]));
      for (int k = 0; k < g; ++k) {
        a = Op::apply(a, C(C0(rows[k][j])));
        if constexpr (kHalf) a = round_half(a);
      }
      acc[j] = T(C0(a));
    }
  }
}

// G = 8 rows per pass over acc (acc traffic 1/8 of the input's), two vectors of columns per step,
// each row prefetched 256 bytes ahead (2-4% on a 4096^2 float32 axis-0 sum; 16 rows, 4 rows x 4
// vectors, 512/1024/2048-byte prefetch were not faster), the next 8 rows prefetched in memory
// order (12-20% in benchmarks/native/sum_axis0_ab.cpp, minimum and first-quartile times).
template <class Op, class T>
void rows_fn(const char* base, int64_t stride, int64_t nrows, int64_t n, char* accp) {
  // max/min: a NaN-propagating step is a compare, a mask or and a blend (~6 cycles of latency
  // per row on the accumulator, against an add's 3), so four vectors of columns (four chains)
  // per step and four rows per pass: 10-20% faster than 8 x 2 on a 2048^2 and 1024^2 float32
  // axis-0 max (interleaved in-process A/B, medians of 41), the same at 4096x2048; 8 x 4 was not.
  if constexpr (is_extreme_op_v<Op>) rows_impl<Op, T, 4, 4, 256>(base, stride, nrows, n, accp);
  else rows_impl<Op, T, 8, 2, 256>(base, stride, nrows, n, accp);
}

// ---- any / all -------------------------------------------------------------------------------
// Truth of an element: x != 0 (NaN is true, -0.0 false); float16 by its bits.
template <class T> struct Truth { using type = T; };
template <> struct Truth<half> { using type = uint16_t; };
template <> struct Truth<bool> { using type = uint8_t; };
template <class T>
inline auto nonzero(T x) {
  if constexpr (std::is_same_v<T, half>) return (x.bits & 0x7fff) != 0;
  else return x != T(0);
}

// ---- widening sums and counts (acc int64) ----------------------------------------------------
// A bool/integer sum read in the input's own type: numpy casts small integers to int64 first;
// lanes of the input widened in registers give the same wrapped int64 (integer addition is
// associative, so any lane order has the same bits). Narrow inputs add into 32-bit lanes, which
// are flushed into int64 long before they could overflow.
template <class T> struct Raw { using type = T; };
template <> struct Raw<bool> { using type = uint8_t; };

template <class T>
int64_t wsum_one(const T* src, int64_t n) {
  using U = typename Raw<T>::type;
  const U* p = reinterpret_cast<const U*>(src);
  int64_t total = 0, i = 0;
  if constexpr (sizeof(U) >= 8) {
    uint64_t r = 0;
    for (; i < n; ++i) r += uint64_t(p[i]);
    return int64_t(r);
  } else if constexpr (sizeof(U) == 4) {
    constexpr int N = kVecBytes / 8;
    using W = vec<int64_t, N>;
    using S = vec<U, N>;
    W a0{}, a1{};
    for (; i + 2 * N <= n; i += 2 * N) {
      S x0, x1;
      std::memcpy(&x0, p + i, sizeof(S)), std::memcpy(&x1, p + i + N, sizeof(S));
      a0 += __builtin_convertvector(x0, W), a1 += __builtin_convertvector(x1, W);
    }
    a0 += a1;
    for (int k = 0; k < N; ++k) total += a0[k];
  } else {
    // 8/16-bit: the vector read as lanes twice as wide, the low and high halves added (each
    // biased to unsigned: x ^ 0x80.. is x + 2^(bits-1) for signed x), into lanes of that width,
    // flushed before they can overflow; the bias is taken off at the end.
    using H = std::conditional_t<sizeof(U) == 1, uint16_t, uint32_t>;
    constexpr int N = kVecBytes / sizeof(H);
    constexpr int kBits = 8 * sizeof(U);
    constexpr H kLow = H((H(1) << kBits) - 1);
    constexpr H kBias = std::is_signed_v<U> ? H(H(1) << (kBits - 1)) : H(0);
    constexpr H kBias2 = H(kBias | (kBias << kBits));
    // per flush a lane gains at most 2 * 4 * kSteps * (2^bits - 1) < 2^(2 bits)
    constexpr int64_t kSteps = sizeof(U) == 1 ? 32 : 8192;
    using W = vec<H, N>;
    int64_t biased = 0;
    while (i + 4 * N * 2 <= n) {
      W a0{}, a1{};
      const int64_t end = std::min(n - n % (4 * N * 2), i + kSteps * 4 * N * 2);
      for (; i < end; i += 4 * N * 2) {
        W x0, x1, x2, x3;
        std::memcpy(&x0, p + i, sizeof(W)), std::memcpy(&x1, p + i + 2 * N, sizeof(W));
        std::memcpy(&x2, p + i + 4 * N, sizeof(W)), std::memcpy(&x3, p + i + 6 * N, sizeof(W));
        x0 ^= kBias2, x1 ^= kBias2, x2 ^= kBias2, x3 ^= kBias2;
        a0 += (x0 & kLow) + (x0 >> kBits) + (x1 & kLow) + (x1 >> kBits);
        a1 += (x2 & kLow) + (x2 >> kBits) + (x3 & kLow) + (x3 >> kBits);
      }
      for (int k = 0; k < N; ++k) biased += int64_t(a0[k]) + int64_t(a1[k]);
    }
    total = biased - int64_t(kBias) * i;
  }
  for (; i < n; ++i) total = int64_t(uint64_t(total) + uint64_t(int64_t(p[i])));
  return total;
}

template <class T>
void wsum_run(const char* src, int64_t n, int64_t count, int64_t stride, void* accp) {
  auto* acc = static_cast<int64_t*>(accp);
  for (int64_t c = 0; c < count; ++c) acc[c] = wsum_one<T>(reinterpret_cast<const T*>(src + c * stride), n);
}

// acc[j] += row_r[j] in int64 (wrapping), rows in order.
template <class T>
void wsum_rows(const char* base, int64_t stride, int64_t nrows, int64_t n, char* accp) {
  using U = typename Raw<T>::type;
  uint64_t* acc = reinterpret_cast<uint64_t*>(accp);
  for (int64_t r = 0; r < nrows; ++r) {
    const U* row = reinterpret_cast<const U*>(base + r * stride);
    for (int64_t j = 0; j < n; ++j) acc[j] += uint64_t(int64_t(row[j]));
  }
}

// Lanes that are nonzero (NaN counts, -0.0 does not; float16 by its bits, as any/all).
template <class T> struct CountLane { using type = T; };
template <> struct CountLane<bool> { using type = uint8_t; };
template <> struct CountLane<half> { using type = uint16_t; };

template <class T>
int64_t count_one(const T* src, int64_t n) {
  using U = typename CountLane<T>::type;
  using I = std::conditional_t<sizeof(U) == 1, int8_t,
                               std::conditional_t<sizeof(U) == 2, int16_t, std::conditional_t<sizeof(U) == 4, int32_t, int64_t>>>;
  const U* p = reinterpret_cast<const U*>(src);
  constexpr int N = kVecBytes / sizeof(U);
  using V = vec<U, N>;
  using VI = vec<I, N>;
  // per-lane counts in I: at most 2 * kSteps per flush, below I's maximum
  constexpr int64_t kSteps = sizeof(I) == 1 ? 63 : 16384;
  auto nz = [](V x) -> VI {
    if constexpr (std::is_same_v<T, half>) x &= U(0x7fff);
    return (VI)(x != U(0));
  };
  int64_t total = 0, i = 0;
  while (i + 2 * N <= n) {
    VI c0{}, c1{};
    const int64_t end = std::min(n - n % (2 * N), i + kSteps * 2 * N);
    for (; i < end; i += 2 * N) {
      V x0, x1;
      std::memcpy(&x0, p + i, sizeof(V)), std::memcpy(&x1, p + i + N, sizeof(V));
      c0 -= nz(x0), c1 -= nz(x1);
    }
    for (int k = 0; k < N; ++k) total += int64_t(c0[k]) + int64_t(c1[k]);
  }
  for (; i < n; ++i) total += nonzero(reinterpret_cast<const T*>(p)[i]) ? 1 : 0;
  return total;
}

template <class T>
void count_run(const char* src, int64_t n, int64_t count, int64_t stride, void* accp) {
  auto* acc = static_cast<int64_t*>(accp);
  for (int64_t c = 0; c < count; ++c) acc[c] = count_one<T>(reinterpret_cast<const T*>(src + c * stride), n);
}

template <class T>
void count_rows(const char* base, int64_t stride, int64_t nrows, int64_t n, char* accp) {
  using U = typename CountLane<T>::type;
  int64_t* acc = reinterpret_cast<int64_t*>(accp);
  for (int64_t r = 0; r < nrows; ++r) {
    const U* row = reinterpret_cast<const U*>(base + r * stride);
    if constexpr (std::is_same_v<T, half>) {
      for (int64_t j = 0; j < n; ++j) acc[j] += (row[j] & 0x7fff) != 0;
    } else {
      for (int64_t j = 0; j < n; ++j) acc[j] += row[j] != U(0);
    }
  }
}

template <bool Any, class T>
bool anyall_run(const char* src, int64_t n) {
  using U = typename Truth<T>::type;
  const U* p = reinterpret_cast<const U*>(src);
  constexpr int N = kVecBytes / sizeof(U);
  using V = vec<U, N>;
  int64_t i = 0;
  constexpr int B = 8 * N;  // check for the answer once per block
  for (; i + B <= n; i += B) {
    decltype(V{} != V{}) hit = {};
    for (int k = 0; k < B; k += N) {
      V x;
      std::memcpy(&x, p + i + k, sizeof(V));
      if constexpr (std::is_same_v<T, half>) x &= U(0x7fff);
      if constexpr (Any) hit |= (x != U(0));
      else hit |= (x == U(0));
    }
    for (int k = 0; k < N; ++k)
      if (hit[k]) return Any;
  }
  for (; i < n; ++i) {
    bool nz = nonzero(reinterpret_cast<const T*>(p)[i]);
    if (nz == Any) return Any;
  }
  return !Any;
}

template <bool Any, class T>
void anyall_rows(const char* base, int64_t stride, int64_t nrows, int64_t n, bool* acc) {
  using U = typename Truth<T>::type;
  uint8_t* o = reinterpret_cast<uint8_t*>(acc);
  for (int64_t r = 0; r < nrows; ++r) {
    const T* row = reinterpret_cast<const T*>(base + r * stride);
    if constexpr (std::is_same_v<T, half>) {
      const U* u = reinterpret_cast<const U*>(row);
      for (int64_t j = 0; j < n; ++j) {
        uint8_t v = (u[j] & 0x7fff) != 0;
        o[j] = Any ? (o[j] | v) : (o[j] & v);
      }
    } else {
      const U* u = reinterpret_cast<const U*>(row);
      for (int64_t j = 0; j < n; ++j) {
        uint8_t v = u[j] != U(0);
        o[j] = Any ? (o[j] | v) : (o[j] & v);
      }
    }
  }
}

// ---- argmax / argmin ---------------------------------------------------------------------------
// numpy: the first index of the extreme; for floats the first NaN wins.
template <bool Max, class V>
inline auto better(V x, V b) {
  if constexpr (Max) return x > b;
  else return x < b;
}

// Whether any lane of a comparison mask is set (lanes are 0 or all ones). One test instruction
// where the target has it: OR-ing the mask's words one by one (the generic form) cost as much as
// the comparisons it summarises.
template <class M>
inline bool any_lane(M m) {
#if defined(__AVX512F__)
  if constexpr (sizeof(M) == 64) {
    __m512i v;
    std::memcpy(&v, &m, 64);
    return _mm512_test_epi64_mask(v, v) != 0;
  }
#endif
#if defined(__AVX__)
  if constexpr (sizeof(M) == 32) {
    __m256i v;
    std::memcpy(&v, &m, 32);
    return !_mm256_testz_si256(v, v);
  }
#endif
#if defined(__SSE2__)
  if constexpr (sizeof(M) % 16 == 0) {
    __m128i v = _mm_setzero_si128();
    for (size_t k = 0; k < sizeof(M); k += 16) {
      __m128i w;
      std::memcpy(&w, reinterpret_cast<const char*>(&m) + k, 16);
      v = _mm_or_si128(v, w);
    }
    return _mm_movemask_epi8(v) != 0;
  }
#endif
  constexpr int W = sizeof(M) / 8;
  uint64_t w[W];
  std::memcpy(w, &m, sizeof(M));
  uint64_t r = 0;
  for (int k = 0; k < W; ++k) r |= w[k];
  return r != 0;
}

// The first set lane of a comparison mask that has one (lanes are 0 or all ones): the lowest set
// byte of a byte mask, over the lane's width. (Scanning for the lane element by element cost up
// to 4 vectors of scalar compares per search: most of a short bool row's time.)
template <int N, class M>
inline int first_lane(M m) {
  constexpr int kLane = int(sizeof(M)) / N;
#if defined(__AVX512BW__)
  if constexpr (sizeof(M) == 64) {
    __m512i v;
    std::memcpy(&v, &m, 64);
    return __builtin_ctzll(_mm512_test_epi8_mask(v, v)) / kLane;
  }
#endif
#if defined(__AVX2__)
  if constexpr (sizeof(M) == 32) {
    __m256i v;
    std::memcpy(&v, &m, 32);
    return __builtin_ctz(static_cast<unsigned>(_mm256_movemask_epi8(v))) / kLane;
  }
#endif
#if defined(__SSE2__)
  if constexpr (sizeof(M) % 16 == 0) {
    for (size_t k = 0; k < sizeof(M); k += 16) {
      __m128i w;
      std::memcpy(&w, reinterpret_cast<const char*>(&m) + k, 16);
      const int bits = _mm_movemask_epi8(w);
      if (bits) return int((k + __builtin_ctz(static_cast<unsigned>(bits))) / kLane);
    }
  }
#endif
  for (int k = 0; k < N; ++k)
    if (m[k]) return k;
  return N;
}

// The plain extreme, for lanes known to hold no NaN (NaNs are found separately).
template <bool Max, class V>
inline V extreme(V a, V x) {
  if constexpr (Max) return x > a ? x : a;
  else return x < a ? x : a;
}

// The extreme of a vector's lanes (NaN-free), halves folded in registers: log2(N) steps, not
// N - 1. (Halves taken through memory made GCC keep the loop's accumulator on the stack.)
#if MNN_SHUFFLE_KIND == 1
template <class V, size_t... K>
inline auto low_half(V v, std::index_sequence<K...>) { return __builtin_shufflevector(v, v, K...); }
template <class V, size_t... K>
inline auto high_half(V v, std::index_sequence<K...>) { return __builtin_shufflevector(v, v, (K + sizeof...(K))...); }
#endif
template <bool Max, class C, int N>
inline C lanes_extreme(vec<C, N> v) {
#if MNN_SHUFFLE_KIND == 1
  if constexpr (N > 2) {
    constexpr auto half_n = std::make_index_sequence<N / 2>{};
    return lanes_extreme<Max, C, N / 2>(extreme<Max>(low_half(v, half_n), high_half(v, half_n)));
  }
#endif
  C m = v[0];
  for (int k = 1; k < N; ++k) m = extreme<Max>(m, C(v[k]));
  return m;
}

// The first i < len with q[i] == m (m occurs in q): four vectors per test, then the vector,
// then the lane. -0.0 == 0.0, so the first of tied zeros is found, as numpy's index.
template <int N, class T, class C>
int64_t first_equal(const T* q, int64_t len, C m) {
  using V = vec<C, N>;
  const V mv = V{} + m;
  int64_t i = 0;
  for (; i + 4 * N <= len; i += 4 * N) {
    auto e = (load<N>(q + i) == mv) | (load<N>(q + i + N) == mv) | (load<N>(q + i + 2 * N) == mv) |
             (load<N>(q + i + 3 * N) == mv);
    if (any_lane(e)) break;
  }
  for (; i + N <= len; i += N) {
    const auto e = load<N>(q + i) == mv;
    if (any_lane(e)) return i + first_lane<N>(e);
  }
  for (; i < len; ++i)
    if (C(q[i]) == m) return i;
  return len;  // m is not in q (the bool search's "not found")
}

// Signed integer lanes as wide as C's (the type of a comparison of C vectors).
template <class C>
using lane_int_t = std::conditional_t<sizeof(C) == 1, int8_t,
                                      std::conditional_t<sizeof(C) == 2, int16_t,
                                                         std::conditional_t<sizeof(C) == 4, int32_t, int64_t>>>;

// numpy's argmax/argmin of a run: the first index of the extreme, or of the first NaN (floats).
// The run goes in chunks of 64 blocks of 4 vectors (block numbers fit int8 lanes), one pass each:
// per block the lane-wise extreme of its 4 vectors; each lane keeps its best value and the first
// block that reached it (a strict comparison, so ties keep the earlier block). The chunk's extreme
// is then the lanes' extreme, and its first index lies in the earliest block any lane with that
// value recorded, which is searched. NaNs are tracked per chunk; a chunk holding one returns its
// first NaN (no earlier chunk held one). An earlier version reduced the lanes horizontally every
// 4 vectors and ran at ~1/9 of numpy's speed; one that searched the chunk again for the extreme
// at ~2/3. Bool (as uint8_t, values 0/1) looks for the first value that cannot be beaten.
template <bool Max, class T, bool Bool = false>
int64_t arg_run(const char* src, int64_t n) {
  const T* p = reinterpret_cast<const T*>(src);
  using C = calc_t<T>;
  using I = lane_int_t<C>;
  constexpr bool kFloat = is_float_v<T>;
  constexpr int N = lanes<T>();
  using V = vec<C, N>;
  using VI = vec<I, N>;
  constexpr int64_t kBlock = 4 * N;
  constexpr int64_t kChunk = 64 * kBlock;
  static_assert(kChunk % kBlock == 0 && kChunk / kBlock <= 64, "block numbers must fit the lanes");
  constexpr C kTop = Bool ? C(Max ? 1 : 0) : (Max ? std::numeric_limits<C>::max() : std::numeric_limits<C>::lowest());
  if constexpr (Bool) {
    const int64_t i = first_equal<N>(p, n, kTop);
    return i < n ? i : 0;  // no 1 (argmax) / 0 (argmin): all equal, the first wins
  }
  C best{};
  int64_t bi = 0;
  for (int64_t c0 = 0; c0 < n; c0 += kChunk) {
    const int64_t len = std::min(kChunk, n - c0);
    const T* q = p + c0;
    C m;
    int64_t at;  // the chunk's first index of m
    bool nan = false;
    int64_t i;
    if (len >= kBlock) {
      V x0 = load<N>(q), x1 = load<N>(q + N), x2 = load<N>(q + 2 * N), x3 = load<N>(q + 3 * N);
      V a = extreme<Max>(extreme<Max>(x0, x1), extreme<Max>(x2, x3));
      VI blk{}, cur{};
      decltype(a != a) u{};
      if constexpr (kFloat) u = (x0 != x0) | (x1 != x1) | (x2 != x2) | (x3 != x3);
      for (i = kBlock; i + kBlock <= len; i += kBlock) {
        x0 = load<N>(q + i), x1 = load<N>(q + i + N), x2 = load<N>(q + i + 2 * N), x3 = load<N>(q + i + 3 * N);
        V e = extreme<Max>(extreme<Max>(x0, x1), extreme<Max>(x2, x3));
        cur += I(1);
        auto gt = better<Max>(e, a);
        a = gt ? e : a;
        blk = gt ? cur : blk;
        if constexpr (kFloat) u |= (x0 != x0) | (x1 != x1) | (x2 != x2) | (x3 != x3);
      }
      if constexpr (kFloat) nan = any_lane(u);
      if (!nan && c0 > 0 && !any_lane(better<Max>(a, V{} + best))) {
        m = best, at = 0;  // no lane beats the best so far: only the tail below may
      } else if (!nan) {
        m = lanes_extreme<Max, C, N>(a);
        const VI first = (a == (V{} + m)) ? blk : VI{} + I(64);
        const int64_t b = lanes_extreme<false, I, N>(first);
        at = b * kBlock + first_equal<N>(q + b * kBlock, kBlock, m);
      }
    } else {
      m = C(q[0]);
      at = 0;
      if constexpr (kFloat) nan = m != m;
      i = 1;
    }
    if constexpr (kFloat) {
      for (int64_t k = i; k < len && !nan; ++k) nan = C(q[k]) != C(q[k]);
      if (nan) {  // no NaN before this chunk, so its first NaN is the answer
        for (i = 0; i < len; ++i)
          if (C(q[i]) != C(q[i])) break;
        return c0 + i;
      }
    }
    for (; i < len; ++i) {
      const C x = C(q[i]);
      if (better<Max>(x, m)) m = x, at = i;
    }
    if (c0 == 0 || better<Max>(m, best)) {
      best = m;
      bi = c0 + at;
      if constexpr (!kFloat) {
        if (best == kTop) return bi;
      }
    }
  }
  return bi;
}

// best[j], idx[j] hold the extreme and its row so far (row 0 loaded by the caller); rows r0 + r.
template <bool Max, class T>
void arg_rows(const char* base, int64_t stride, int64_t nrows, int64_t r0, int64_t n, char* bestp, int64_t* idx) {
  T* best = reinterpret_cast<T*>(bestp);
  using C = calc_t<T>;
  constexpr bool kFloat = is_float_v<T>;
  if constexpr (sizeof(C) >= 4 && !std::is_same_v<T, half>) {
    using I = std::conditional_t<sizeof(C) == 4, int32_t, int64_t>;
    constexpr int N = kVecBytes / sizeof(C);
    constexpr int G = 16;
    for (int64_t g0 = 0; g0 < nrows; g0 += G) {
      const int g = static_cast<int>(std::min<int64_t>(G, nrows - g0));
      const T* rows[G];
      for (int k = 0; k < g; ++k) rows[k] = reinterpret_cast<const T*>(base + (g0 + k) * stride);
      int64_t j = 0;
      for (; j + N <= n; j += N) {
        vec<C, N> b = load<N>(best + j);
        vec<I, N> w = vec<I, N>{} - 1;
        for (int k = 0; k < g; ++k) {
          vec<C, N> x = load<N>(rows[k] + j);
          vec<I, N> m;
          if constexpr (kFloat) m = (vec<I, N>)(better<Max>(x, b) | ((x != x) & (b == b)));
          else m = (vec<I, N>)better<Max>(x, b);
          b = m ? x : b;
          w = m ? vec<I, N>{} + I(k) : w;
        }
        store<N>(best + j, b);
        for (int k = 0; k < N; ++k)
          if (w[k] >= 0) idx[j + k] = r0 + g0 + w[k];
      }
      for (; j < n; ++j) {
        C b = C(best[j]);
        for (int k = 0; k < g; ++k) {
          C x = C(rows[k][j]);
          bool m = better<Max>(x, b);
          if constexpr (kFloat) m = m || (x != x && b == b);
          if (m) b = x, idx[j] = r0 + g0 + k;
        }
        best[j] = T(b);
      }
    }
  } else {
    for (int64_t r = 0; r < nrows; ++r) {
      const T* row = reinterpret_cast<const T*>(base + r * stride);
      for (int64_t j = 0; j < n; ++j) {
        C x = C(row[j]), b = C(best[j]);
        bool m = better<Max>(x, b);
        if constexpr (kFloat) m = m || (x != x && b == b);
        if (m) best[j] = row[j], idx[j] = r0 + r;
      }
    }
  }
}

// Bool runs reduced by or (sum, max) / and (prod, min): the any/all search, which stops at the
// first deciding element (numpy's logical reductions do; a full max pass was ~8x slower on a
// random bool matrix).
template <bool Any>
void bool_run_fn(const char* src, int64_t n, int64_t count, int64_t stride, void* accp) {
  auto* acc = static_cast<uint8_t*>(accp);
  for (int64_t c = 0; c < count; ++c) acc[c] = anyall_run<Any, bool>(src + c * stride, n);
}

template <class T>
void fill_type(KernelTable& t, DType d) {
  const int i = static_cast<int>(d);
  if constexpr (std::is_same_v<T, bool>) {
    // bool values are 0/1 bytes: max is or, min is and (numpy's bool add and multiply).
    t.reduce_run[0][i] = &bool_run_fn<true>;
    t.reduce_run[1][i] = &bool_run_fn<false>;
    t.reduce_run[2][i] = &bool_run_fn<true>;
    t.reduce_run[3][i] = &bool_run_fn<false>;
    t.reduce_rows[0][i] = &rows_fn<MaxOp, uint8_t>;
    t.reduce_rows[1][i] = &rows_fn<MinOp, uint8_t>;
    t.reduce_rows[2][i] = &rows_fn<MaxOp, uint8_t>;
    t.reduce_rows[3][i] = &rows_fn<MinOp, uint8_t>;
    t.arg_run[0][i] = &arg_run<true, uint8_t, true>;
    t.arg_run[1][i] = &arg_run<false, uint8_t, true>;
    t.arg_rows[0][i] = &arg_rows<true, uint8_t>;
    t.arg_rows[1][i] = &arg_rows<false, uint8_t>;
  } else {
    t.reduce_run[0][i] = &run_fn<SumOp, T>;
    t.reduce_run[1][i] = &run_fn<ProdOp, T>;
    t.reduce_run[2][i] = &run_fn<MaxOp, T>;
    t.reduce_run[3][i] = &run_fn<MinOp, T>;
    t.reduce_rows[0][i] = &rows_fn<SumOp, T>;
    t.reduce_rows[1][i] = &rows_fn<ProdOp, T>;
    t.reduce_rows[2][i] = &rows_fn<MaxOp, T>;
    t.reduce_rows[3][i] = &rows_fn<MinOp, T>;
    t.arg_run[0][i] = &arg_run<true, T>;
    t.arg_run[1][i] = &arg_run<false, T>;
    t.arg_rows[0][i] = &arg_rows<true, T>;
    t.arg_rows[1][i] = &arg_rows<false, T>;
  }
  if constexpr (is_float_v<T>) {
    t.reduce_run[4][i] = &run_fn<FMaxOp, T>;
    t.reduce_run[5][i] = &run_fn<FMinOp, T>;
    t.reduce_rows[4][i] = &rows_fn<FMaxOp, T>;
    t.reduce_rows[5][i] = &rows_fn<FMinOp, T>;
  } else {
    t.wsum_run[i] = &wsum_run<T>;
    t.wsum_rows[i] = &wsum_rows<T>;
  }
  t.count_run[i] = &count_run<T>;
  t.count_rows[i] = &count_rows<T>;
  t.bool_run[0][i] = &anyall_run<true, T>;
  t.bool_run[1][i] = &anyall_run<false, T>;
  t.bool_rows[0][i] = &anyall_rows<true, T>;
  t.bool_rows[1][i] = &anyall_rows<false, T>;
}

}  // namespace

void fill_reduce(KernelTable& t) {
  fill_type<bool>(t, DType::Bool);
  fill_type<int8_t>(t, DType::Int8);
  fill_type<int16_t>(t, DType::Int16);
  fill_type<int32_t>(t, DType::Int32);
  fill_type<int64_t>(t, DType::Int64);
  fill_type<uint8_t>(t, DType::UInt8);
  fill_type<uint16_t>(t, DType::UInt16);
  fill_type<uint32_t>(t, DType::UInt32);
  fill_type<uint64_t>(t, DType::UInt64);
  fill_type<half>(t, DType::Float16);
  fill_type<float>(t, DType::Float32);
  fill_type<double>(t, DType::Float64);
}

}  // namespace mnn::cpu::MNN_ISA_NS
