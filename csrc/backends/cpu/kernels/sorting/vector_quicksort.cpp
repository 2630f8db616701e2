// Entry points of the AVX2 quicksort (vector_quicksort_impl.h): NaN and signed-zero handling for
// floats, and the split of a long row over threads.
#include "backends/cpu/kernels/sorting/vector_quicksort.h"

#include <cstdlib>

#if defined(__x86_64__) || defined(_M_X64)
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/cpu/kernels/sorting/vector_quicksort_impl.h"
#include "backends/cpu/simd/kernel_table.h"
#include "core/threadpool.h"
#endif

namespace mnn::cpu::sorting {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

// Rows shorter than this sort on one thread: the split's partition passes would not pay off.
constexpr int64_t kParallelMin = int64_t(1) << 16;

using Parts = std::vector<std::pair<int64_t, int64_t>>;  // [begin, end) ranges still to sort

// Partitions the largest of `parts` until there are `threads` of them (runs of values equal to
// a pivot that is their range's minimum are done and dropped), then sorts them on the pool.
template <class D>
void sort_parts(typename D::T* a, Parts parts, int threads) {
  for (int guard = 0; guard < 4 * threads && !parts.empty() && static_cast<int>(parts.size()) < threads; ++guard) {
    size_t big = 0;
    for (size_t i = 1; i < parts.size(); ++i)
      if (parts[i].second - parts[i].first > parts[big].second - parts[big].first) big = i;
    const auto [lo, hi] = parts[big];
    if (hi - lo < kParallelMin) break;
    const auto p = vq::pick_pivot<D>(a + lo, hi - lo);
    const int64_t m = vq::partition<D, false>(a + lo, hi - lo, p);
    if (m == 0) {  // p is the minimum: its equal elements are in place
      const int64_t e = vq::partition<D, true>(a + lo, hi - lo, p);
      if (lo + e == hi) parts.erase(parts.begin() + big);
      else parts[big].first = lo + e;
    } else {
      parts[big].second = lo + m;
      parts.push_back({lo + m, hi});
    }
  }
  if (threads <= 1 || parts.size() <= 1) {
    for (const auto& [lo, hi] : parts) vq::sort<D>(a + lo, hi - lo);
    return;
  }
  core::parallel_for(static_cast<int64_t>(parts.size()), 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) vq::sort<D>(a + parts[i].first, parts[i].second - parts[i].first);
  });
}

template <class D>
void sort_split(typename D::T* a, int64_t n, int threads) {
  if (threads <= 1 || n < kParallelMin) vq::sort<D>(a, n);
  else sort_parts<D>(a, Parts{{0, n}}, threads);
}

// Counts of NaNs, zeros and negative zeros.
struct FloatCensus {
  int64_t nan = 0, zero = 0, neg_zero = 0;
};

// Copies src[0..n) to dst without its NaNs (dst may be src) and counts what the float fix-ups
// need, in one pass: the copy moves each vector's non-NaN lanes to its front with the
// partition's permutation table.
__attribute__((target("avx2,fma,popcnt,bmi,bmi2"))) FloatCensus census_copy(const float* src, float* dst, int64_t n) {
  FloatCensus c;
  const __m256 zero = _mm256_setzero_ps();
  int64_t i = 0, m = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(src + i);
    const unsigned un = _mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    const unsigned z = _mm256_movemask_ps(_mm256_cmp_ps(v, zero, _CMP_EQ_OQ));
    if (__builtin_expect(un == 0, 1)) {
      _mm256_storeu_ps(dst + m, v);
      m += 8;
    } else {
      const unsigned keep = ~un & 0xFF;
      _mm256_storeu_ps(dst + m, _mm256_permutevar8x32_ps(v, vq::perm_of(static_cast<int>(keep))));
      m += _mm_popcnt_u32(keep);
      c.nan += _mm_popcnt_u32(un);
    }
    if (z) {
      c.zero += _mm_popcnt_u32(z);
      c.neg_zero += _mm_popcnt_u32(z & static_cast<unsigned>(_mm256_movemask_ps(v)));
    }
  }
  for (; i < n; ++i) {
    const float x = src[i];
    if (std::isnan(x)) {
      ++c.nan;
      continue;
    }
    c.zero += x == 0.0f;
    c.neg_zero += x == 0.0f && std::signbit(x);
    dst[m++] = x;
  }
  return c;
}

// The first partition pass fused with the copy (one pass over memory instead of two): src's
// non-NaN elements go to dst, those below p from the front, the others from the back, in
// vectors like vq::partition's (the room between the two write ends is never smaller than what
// is left to read). The NaNs leave a gap between the two
// sides, closed by moving the last elements of the right side into it; the NaNs themselves are
// written by the caller. Floats also get their census here.
struct CopySplit {
  int64_t left = 0, kept = 0;  // dst[0, left) < p <= dst[left, kept)
  FloatCensus c;
};

template <class D>
__attribute__((target("avx2,fma,popcnt,bmi,bmi2"))) CopySplit copy_partition(const typename D::T* src, typename D::T* dst,
                                                                      int64_t n, typename D::T p) {
  using T = typename D::T;
  using V = typename D::V;
  constexpr bool kFloat = std::is_same_v<T, float>;
  CopySplit r;
  const V P = D::set1(p);
  T* wl = dst;
  T* wr = dst + n;
  int64_t i = 0;
  // 16 or more left to read: the room between the write ends is then at least 16, so the two
  // whole-vector stores of a put cannot overlap (they may once it is less, as NaNs and the
  // scalar lanes leave it at any size)
  for (; i + 16 <= n; i += 8) {
    const V v = D::load(src + i);
    if constexpr (kFloat) {
      const unsigned un = _mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
      const unsigned z = _mm256_movemask_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_EQ_OQ));
      if (z) {
        r.c.zero += _mm_popcnt_u32(z);
        r.c.neg_zero += _mm_popcnt_u32(z & static_cast<unsigned>(_mm256_movemask_ps(v)));
      }
      if (__builtin_expect(un != 0, 0)) {
        r.c.nan += _mm_popcnt_u32(un);
        for (int k = 0; k < 8; ++k) {
          const T x = src[i + k];
          if (std::isnan(x)) continue;
          if (x < p) *wl++ = x;
          else *--wr = x;
        }
        continue;
      }
    }
    vq::put<D, false>(v, P, wl, wr);
  }
  for (; i < n; ++i) {
    const T x = src[i];
    if constexpr (kFloat) {
      if (std::isnan(x)) {
        ++r.c.nan;
        continue;
      }
      r.c.zero += x == 0.0f;
      r.c.neg_zero += x == 0.0f && std::signbit(x);
    }
    if (x < p) *wl++ = x;
    else *--wr = x;
  }
  r.left = wl - dst;
  const int64_t gap = wr - wl, right = dst + n - wr, moved = std::min(gap, right);
  std::memcpy(wl, dst + n - moved, moved * sizeof(T));  // [n - moved, n) does not meet [wl, wl + moved)
  r.kept = n - gap;
  return r;
}

// The pivot for copy_partition: vq::pick_pivot's median of samples, with NaN samples read as 0
// (any value is correct; NaNs just must not reach the comparisons of the network).
template <class D>
typename D::T copy_pivot(const typename D::T* src, int64_t n) {
  using T = typename D::T;
  alignas(32) T s[64];
  const int k = 64;
  const int64_t step = n / k;
  for (int i = 0; i < k; ++i) {
    T x = src[i * step + step / 2];
    if constexpr (std::is_same_v<T, float>)
      if (std::isnan(x)) x = 0;
    s[i] = x;
  }
  vq::small_sort_n<D, 8>(s, k);
  return s[k / 2];
}

// Copy-sort of a long row: fused first pass, then both sides sorted (on threads if allowed).
template <class D>
FloatCensus copy_sort_long(const typename D::T* src, typename D::T* dst, int64_t n, int threads, int64_t* kept) {
  const CopySplit r = copy_partition<D>(src, dst, n, copy_pivot<D>(src, n));
  Parts parts;
  if (r.left > 0) parts.push_back({0, r.left});
  if (r.kept > r.left) parts.push_back({r.left, r.kept});
  sort_parts<D>(dst, std::move(parts), threads);
  *kept = r.kept;
  return r.c;
}

// Rows long enough for the fused first pass to pay for its set-up.
constexpr int64_t kFusedMin = 4096;

}  // namespace

bool vector_sort_available() {
  static const bool ok = [] {
    __builtin_cpu_init();
    const bool cpu = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") &&
                     __builtin_cpu_supports("bmi2");
    return cpu && active_isa() != Isa::Scalar;
  }();
  return ok;
}

// The quicksort needs a total order, so NaNs move out first and return at the end (in input
// order, payloads kept); zeros of both signs sort as equals, so their input order of signs is
// recorded and written over the sorted run of zeros.
void vector_sort_copy(const float* src, float* dst, int64_t n, int threads) {
  std::vector<float> nans;
  if (src == dst) {  // in place: the NaNs must be saved before the compaction overwrites them
    for (int64_t i = 0; i < n; ++i)
      if (std::isnan(src[i])) nans.push_back(src[i]);
  }
  using D = vq::Lanes<vq::F32>;
  std::vector<uint8_t> negative;
  FloatCensus c;
  int64_t m = 0;
  if (src != dst && n >= kFusedMin) {
    c = copy_sort_long<D>(src, dst, n, threads, &m);
    if (c.neg_zero && c.neg_zero < c.zero) {  // src still has the zeros in input order
      negative.reserve(c.zero);
      for (int64_t i = 0; i < n; ++i)
        if (src[i] == 0.0f) negative.push_back(std::signbit(src[i]));
    }
  } else {
    c = census_copy(src, dst, n);
    m = n - c.nan;
    if (c.neg_zero && c.neg_zero < c.zero) {
      negative.reserve(c.zero);
      for (int64_t i = 0; i < m; ++i)
        if (dst[i] == 0.0f) negative.push_back(std::signbit(dst[i]));
    }
    sort_split<D>(dst, m, threads);
  }
  if (!negative.empty()) {
    float* z = std::lower_bound(dst, dst + m, 0.0f);
    for (size_t k = 0; k < negative.size(); ++k) z[k] = negative[k] ? -0.0f : 0.0f;
  }
  if (c.nan) {
    if (src == dst) {
      std::memcpy(dst + m, nans.data(), nans.size() * sizeof(float));
    } else {
      float* out = dst + m;
      for (int64_t i = 0; i < n; ++i)
        if (std::isnan(src[i])) *out++ = src[i];
    }
  }
}

void vector_sort(float* a, int64_t n, int threads) { vector_sort_copy(a, a, n, threads); }

void vector_sort(int32_t* a, int64_t n, int threads) { sort_split<vq::Lanes<vq::I32<true>>>(a, n, threads); }
void vector_sort(uint32_t* a, int64_t n, int threads) { sort_split<vq::Lanes<vq::I32<false>>>(a, n, threads); }

template <class T, class D>
void copy_sort_int(const T* src, T* dst, int64_t n, int threads) {
  if (src == dst || n < kFusedMin) {
    if (src != dst) std::memcpy(dst, src, n * sizeof(T));
    sort_split<D>(dst, n, threads);
    return;
  }
  int64_t kept = 0;
  copy_sort_long<D>(src, dst, n, threads, &kept);
}

void vector_sort_copy(const int32_t* src, int32_t* dst, int64_t n, int threads) {
  copy_sort_int<int32_t, vq::Lanes<vq::I32<true>>>(src, dst, n, threads);
}
void vector_sort_copy(const uint32_t* src, uint32_t* dst, int64_t n, int threads) {
  copy_sort_int<uint32_t, vq::Lanes<vq::I32<false>>>(src, dst, n, threads);
}

#else  // no AVX2 kernels on this architecture: the sort kernel keeps its radix sort

bool vector_sort_available() { return false; }
void vector_sort(float*, int64_t, int) { std::abort(); }
void vector_sort_copy(const float*, float*, int64_t, int) { std::abort(); }
void vector_sort_copy(const int32_t*, int32_t*, int64_t, int) { std::abort(); }
void vector_sort_copy(const uint32_t*, uint32_t*, int64_t, int) { std::abort(); }
void vector_sort(int32_t*, int64_t, int) { std::abort(); }
void vector_sort(uint32_t*, int64_t, int) { std::abort(); }

#endif

}  // namespace mnn::cpu::sorting
