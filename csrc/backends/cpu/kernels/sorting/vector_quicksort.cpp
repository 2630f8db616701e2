// Entry points of the AVX2 quicksort (vector_quicksort_impl.h): NaN and signed-zero handling for
// floats, and the split of a long row over threads.
#include "backends/cpu/kernels/sorting/vector_quicksort.h"

#include <cstdlib>

#if defined(__x86_64__) || defined(_M_X64)
#include <cmath>
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

// Partitions a[0..n) into up to `threads` unsorted ranges (plus runs of equal values, which are
// done), then sorts the ranges on the thread pool.
template <class D>
void sort_split(typename D::T* a, int64_t n, int threads) {
  if (threads <= 1 || n < kParallelMin) {
    vq::sort<D>(a, n);
    return;
  }
  std::vector<std::pair<int64_t, int64_t>> parts{{0, n}};  // [begin, end) still to sort
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
  core::parallel_for(static_cast<int64_t>(parts.size()), 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) vq::sort<D>(a + parts[i].first, parts[i].second - parts[i].first);
  });
}

// Counts of NaNs, zeros and negative zeros.
struct FloatCensus {
  int64_t nan = 0, zero = 0, neg_zero = 0;
};

// Copies src[0..n) to dst without its NaNs (dst may be src) and counts what the float fix-ups
// need, in one pass: the copy moves each vector's non-NaN lanes to its front with the
// partition's permutation table.
__attribute__((target("avx2,popcnt"))) FloatCensus census_copy(const float* src, float* dst, int64_t n) {
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
  const FloatCensus c = census_copy(src, dst, n);
  const int64_t m = n - c.nan;
  std::vector<uint8_t> negative;
  if (c.neg_zero && c.neg_zero < c.zero) {
    negative.reserve(c.zero);
    for (int64_t i = 0; i < m; ++i)
      if (dst[i] == 0.0f) negative.push_back(std::signbit(dst[i]));
  }
  sort_split<vq::Lanes<vq::F32>>(dst, m, threads);
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

#else  // no AVX2 kernels on this architecture: the sort kernel keeps its radix sort

bool vector_sort_available() { return false; }
void vector_sort(float*, int64_t, int) { std::abort(); }
void vector_sort_copy(const float*, float*, int64_t, int) { std::abort(); }
void vector_sort(int32_t*, int64_t, int) { std::abort(); }
void vector_sort(uint32_t*, int64_t, int) { std::abort(); }

#endif

}  // namespace mnn::cpu::sorting
