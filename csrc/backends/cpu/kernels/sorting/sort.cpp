// CPU kernels for sort and argsort along any axis (ops/sorting/sorting.cpp).
//
// Both are stable and follow numpy's order (sort_keys.h). Value sorts of 32-bit types take the
// AVX2 quicksort where the CPU has it (vector_quicksort.h: its result equals a stable sort's).
// Otherwise long rows use an LSD radix sort over
// the order-preserving key bytes: one histogram pass for all digits, then one scatter pass per
// digit, skipping digits where every element falls in one bucket (small-range integers, floats
// of one sign and exponent band). Short rows use a comparison sort on the same keys, where the
// histogram set-up would cost more than it saves. Rows along an inner axis are gathered into a
// scratch row, sorted, and scattered back; rows are independent, so they run in parallel.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "backends/cpu/kernels/sorting/sort_keys.h"
#include "backends/cpu/kernels/sorting/vector_quicksort.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;
using sorting::key_of;
using sorting::SortKey;

namespace {

// Rows shorter than this take a comparison sort; so do buckets left by an MSD pass that are
// shorter than kBucketMin (their LSD passes would cost more in histogram set-up than they save).
constexpr int64_t kRadixMin = 256;
constexpr int64_t kBucketMin = 48;

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

template <class U>
inline unsigned digit(U k, int p) { return static_cast<unsigned>((k >> (8 * p)) & 0xff); }

// One stable scatter pass from src to dst by key byte q; false (and nothing moved) when every
// element has the same byte. The input is cut into K contiguous segments scattered in an
// interleaved loop, each with its own bucket offsets: runs of equal digits (common in the high
// bytes of real data) then form K independent increment chains instead of one serial chain
// through memory. ends (optional) receives each bucket's end offset.
template <int K, class E, class KeyF>
bool scatter_pass(const E* src, E* dst, int64_t n, int q, KeyF key, int64_t* ends) {
  using U = decltype(key(*src));
  int64_t h[K][256];
  std::memset(h, 0, sizeof(h));
  const int64_t len = n / K;
  for (int64_t i = 0; i < len; ++i)
    for (int k = 0; k < K; ++k) ++h[k][digit<U>(key(src[k * len + i]), q)];
  for (int64_t i = K * len; i < n; ++i) ++h[K - 1][digit<U>(key(src[i]), q)];
  int64_t off = 0;
  for (int b = 0; b < 256; ++b) {
    int64_t total = 0;
    for (int k = 0; k < K; ++k) total += h[k][b];
    if (total == n) return false;
    for (int k = 0; k < K; ++k) {
      int64_t c = h[k][b];
      h[k][b] = off;
      off += c;
    }
  }
  for (int64_t i = 0; i < len; ++i)
    for (int k = 0; k < K; ++k) {
      const E x = src[k * len + i];
      dst[h[k][digit<U>(key(x), q)]++] = x;
    }
  for (int64_t i = K * len; i < n; ++i) {
    const E x = src[i];
    dst[h[K - 1][digit<U>(key(x), q)]++] = x;
  }
  if (ends)
    for (int b = 0; b < 256; ++b) ends[b] = h[K - 1][b];
  return true;
}

template <class E, class KeyF>
bool scatter(const E* src, E* dst, int64_t n, int q, KeyF key, int64_t* ends = nullptr) {
  if (n >= 4096) return scatter_pass<4>(src, dst, n, q, key, ends);
  return scatter_pass<1>(src, dst, n, q, key, ends);
}

// Stable radix sort of n elements by key bytes p..0. The data starts in buf[0] and must end in
// buf[want]; both buffers are scratch. Rows that fit in cache take LSD passes; larger ones take
// one MSD pass on the top byte, which leaves buckets that fit in cache (or recurse), so every
// element crosses main memory about twice instead of once per byte.
template <class E, class KeyF>
void radix(E* b0, E* b1, int64_t n, int p, int want, KeyF key) {
  if (n < kBucketMin) {
    E* dst = want ? b1 : b0;
    if (want) std::memcpy(dst, b0, n * sizeof(E));
    std::stable_sort(dst, dst + n, [&](const E& x, const E& y) { return key(x) < key(y); });
    return;
  }
  if (p > 0 && n * static_cast<int64_t>(sizeof(E)) > (int64_t(256) << 10)) {
    int64_t ends[256];
    if (!scatter(b0, b1, n, p, key, ends)) {
      radix(b0, b1, n, p - 1, want, key);
      return;
    }
    int64_t begin = 0;
    for (int b = 0; b < 256; ++b) {
      if (ends[b] > begin) radix(b1 + begin, b0 + begin, ends[b] - begin, p - 1, 1 - want, key);
      begin = ends[b];
    }
    return;
  }
  E* src = b0;
  E* dst = b1;
  int at = 0;
  for (int q = 0; q <= p; ++q)
    if (scatter(src, dst, n, q, key)) {
      std::swap(src, dst);
      at = 1 - at;
    }
  if (at != want) std::memcpy(want ? b1 : b0, src, n * sizeof(E));
}

// The top key byte that still varies once keys are offset by their minimum: values spanning a
// small range (small integers, one exponent band) need fewer passes.
template <class U>
int top_byte(U range) {
  int p = 0;
  while (p + 1 < static_cast<int>(sizeof(U)) && (range >> (8 * (p + 1))) != 0) ++p;
  return p;
}

// Large rows: one pass histograms the top 16 bits of the (range-reduced) key, consecutive
// prefixes are merged into groups of about a cache's worth of elements, and one scatter pass
// moves every element to its group; each group then sorts in cache. Unlike a fixed top-byte MSD
// pass, which leaves a few huge buckets when values cluster (floats of one sign and a few
// exponents), this splits where the data is, so every element crosses main memory once.
template <class E, class U, class KeyF>
void radix_range(E* b0, E* b1, int64_t n, U range, int want, KeyF key) {
  int bits = 0;
  while (bits < static_cast<int>(sizeof(U) * 8) && (range >> bits) != 0) ++bits;
  const int64_t target = std::max<int64_t>(kBucketMin, (int64_t(128) << 10) / static_cast<int64_t>(sizeof(E)));
  if (bits <= 16 || n <= 2 * target) {
    radix(b0, b1, n, top_byte<U>(range), want, key);
    return;
  }
  const int shift = bits - 16;
  // Histogram and scatter run over contiguous chunks, one per thread; chunk c's elements go after
  // those of chunks before it in every group, so the scatter stays stable.
  const int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(get_num_threads(), n / (int64_t(1) << 16)));
  auto chunk_lo = [&](int64_t c) { return n * c / chunks; };
  std::vector<std::vector<int64_t>> ch(chunks, std::vector<int64_t>(65536, 0));
  parallel_for(chunks, 1, [&](int64_t clo, int64_t chi) {
    for (int64_t c = clo; c < chi; ++c) {
      int64_t* hc = ch[c].data();
      for (int64_t i = chunk_lo(c), e = chunk_lo(c + 1); i < e; ++i) ++hc[static_cast<size_t>(key(b0[i]) >> shift)];
    }
  });
  std::vector<uint16_t> group(65536);
  std::vector<int64_t> first_prefix{0}, starts{0};
  int64_t filled = 0, at = 0;
  for (int p = 0; p < 65536; ++p) {
    int64_t count = 0;
    for (int64_t c = 0; c < chunks; ++c) count += ch[c][p];
    if (filled > 0 && filled + count > target) {
      first_prefix.push_back(p);
      starts.push_back(at);
      filled = 0;
    }
    group[p] = static_cast<uint16_t>(first_prefix.size() - 1);
    filled += count;
    at += count;
  }
  const size_t groups = first_prefix.size();
  first_prefix.push_back(65536);
  starts.push_back(n);
  // off[c][g]: where chunk c's first element of group g goes.
  std::vector<std::vector<int64_t>> off(chunks, std::vector<int64_t>(groups, 0));
  for (int64_t c = 0; c < chunks; ++c)
    for (int p = 0; p < 65536; ++p) off[c][group[p]] += ch[c][p];
  for (size_t g = 0; g < groups; ++g) {
    int64_t run = starts[g];
    for (int64_t c = 0; c < chunks; ++c) {
      int64_t count = off[c][g];
      off[c][g] = run;
      run += count;
    }
  }
  parallel_for(chunks, 1, [&](int64_t clo, int64_t chi) {
    for (int64_t c = clo; c < chi; ++c) {
      int64_t* oc = off[c].data();
      for (int64_t i = chunk_lo(c), e = chunk_lo(c + 1); i < e; ++i) {
        const E x = b0[i];
        b1[oc[group[static_cast<size_t>(key(x) >> shift)]]++] = x;
      }
    }
  });
  // Groups are independent: a single long row uses every thread here (inside a row-parallel
  // kernel this nested parallel_for runs serially).
  parallel_for(static_cast<int64_t>(groups), 1, [&](int64_t glo, int64_t ghi) {
    for (int64_t g = glo; g < ghi; ++g) {
      int64_t len = starts[g + 1] - starts[g];
      if (len == 0) continue;
      const U base = static_cast<U>(U(first_prefix[g]) << shift);
      const U span = static_cast<U>((U(first_prefix[g + 1] - first_prefix[g]) << shift) - 1);
      radix(b1 + starts[g], b0 + starts[g], len, top_byte<U>(span), 1 - want,
            [&key, base](const E& x) { return static_cast<U>(key(x) - base); });
    }
  });
}

template <class T>
struct SortScratch {
  sorting::Scratch<T> tmp, row;
};

// Values move as themselves (no encode/decode passes, one scratch row); their keys are
// recomputed per pass, which costs a few ALU operations against a memory-bound scatter.
template <class T>
void sort_row(T* a, int64_t n, SortScratch<T>& s, int threads) {
  using U = typename SortKey<T>::U;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>) {
    if (sorting::vector_sort_available()) {
      sorting::vector_sort(a, n, threads);
      return;
    }
  }
  if (n < kRadixMin) {
    std::stable_sort(a, a + n, [](T x, T y) { return key_of(x) < key_of(y); });
    return;
  }
  U lo = ~U(0), hi = 0;
  for (int64_t i = 0; i < n; ++i) {
    U k = key_of(a[i]);
    lo = std::min(lo, k);
    hi = std::max(hi, k);
  }
  if (lo == hi) return;
  s.tmp.resize(n);
  radix_range(a, s.tmp.data(), n, static_cast<U>(hi - lo), 0, [lo](T x) { return static_cast<U>(key_of(x) - lo); });
}

template <class U, class I>
struct KeyIndex {
  U k;
  I i;
};

template <class T>
struct ArgScratch {
  using U = typename SortKey<T>::U;
  sorting::Scratch<KeyIndex<U, uint32_t>> s1, s2;
  sorting::Scratch<KeyIndex<U, int64_t>> l1, l2;
};

template <class T, class I, class S>
void argsort_pairs(const T* a, int64_t n, int64_t* out, S& b0, S& b1) {
  using U = typename SortKey<T>::U;
  b0.resize(n);
  b1.resize(n);
  U lo = ~U(0), hi = 0;
  for (int64_t i = 0; i < n; ++i) {
    U k = key_of(a[i]);
    lo = std::min(lo, k);
    hi = std::max(hi, k);
  }
  auto* p0 = b0.data();
  for (int64_t i = 0; i < n; ++i) p0[i] = {static_cast<U>(key_of(a[i]) - lo), static_cast<I>(i)};
  if (hi != lo)
    radix_range(p0, b1.data(), n, static_cast<U>(hi - lo), 0, [](const KeyIndex<U, I>& e) { return e.k; });
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(p0[i].i);
}

template <class T>
void argsort_row(const T* a, int64_t n, int64_t* out, ArgScratch<T>& s) {
  if (n < kRadixMin) {
    std::iota(out, out + n, int64_t(0));
    std::stable_sort(out, out + n, [a](int64_t i, int64_t j) { return key_of(a[i]) < key_of(a[j]); });
    return;
  }
  // Sorting (key, index) pairs keeps each element's key next to its index: one write stream per
  // bucket, and 32-bit indices while they suffice.
  if (n <= int64_t(UINT32_MAX)) argsort_pairs<T, uint32_t>(a, n, out, s.s1, s.s2);
  else argsort_pairs<T, int64_t>(a, n, out, s.l1, s.l2);
}

template <class T>
class SortKernel final : public backend::Kernel {
 public:
  explicit SortKernel(const backend::StepDesc& s) : r_(rows_of(s.inputs[0].shape, s.params->ints[0])) {}
  void run(char* const* in, char* out) override {
    const T* a = reinterpret_cast<const T*>(in[0]);
    T* o = reinterpret_cast<T*>(out);
    const Rows r = r_;
    if (r.n == 0 || r.outer * r.inner == 0) return;
    // one row may use every thread itself; many rows are spread over the threads instead
    const int row_threads = r.outer * r.inner == 1 ? get_num_threads() : 1;
    parallel_for(r.outer * r.inner, std::max<int64_t>(1, 65536 / r.n), [&](int64_t lo, int64_t hi) {
      SortScratch<T> tmp;
      sorting::Scratch<T>& row = tmp.row;
      for (int64_t q = lo; q < hi; ++q) {
        int64_t oi = q / r.inner, ii = q % r.inner;
        const T* src = a + oi * r.n * r.inner + ii;
        T* dst = o + oi * r.n * r.inner + ii;
        if (r.inner == 1) {
          if constexpr (std::is_same_v<T, float> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>) {
            if (sorting::vector_sort_available()) {
              sorting::vector_sort_copy(src, dst, r.n, row_threads);
              continue;
            }
          }
          if (dst != src) std::memcpy(dst, src, r.n * sizeof(T));
          sort_row(dst, r.n, tmp, row_threads);
        } else {
          row.resize(r.n);
          for (int64_t j = 0; j < r.n; ++j) row[j] = src[j * r.inner];
          sort_row(row.data(), r.n, tmp, row_threads);
          for (int64_t j = 0; j < r.n; ++j) dst[j * r.inner] = row[j];
        }
      }
    });
  }

 private:
  Rows r_;
};

template <class T>
class ArgsortKernel final : public backend::Kernel {
 public:
  explicit ArgsortKernel(const backend::StepDesc& s) : r_(rows_of(s.inputs[0].shape, s.params->ints[0])) {}
  void run(char* const* in, char* out) override {
    const T* a = reinterpret_cast<const T*>(in[0]);
    int64_t* o = reinterpret_cast<int64_t*>(out);
    const Rows r = r_;
    if (r.n == 0 || r.outer * r.inner == 0) return;
    parallel_for(r.outer * r.inner, std::max<int64_t>(1, 65536 / r.n), [&](int64_t lo, int64_t hi) {
      ArgScratch<T> s;
      sorting::Scratch<T> row;
      std::vector<int64_t> idx;
      for (int64_t q = lo; q < hi; ++q) {
        int64_t oi = q / r.inner, ii = q % r.inner;
        const T* src = a + oi * r.n * r.inner + ii;
        int64_t* dst = o + oi * r.n * r.inner + ii;
        if (r.inner == 1) {
          argsort_row(src, r.n, dst, s);
        } else {
          row.resize(r.n);
          idx.resize(r.n);
          for (int64_t j = 0; j < r.n; ++j) row[j] = src[j * r.inner];
          argsort_row(row.data(), r.n, idx.data(), s);
          for (int64_t j = 0; j < r.n; ++j) dst[j * r.inner] = idx[j];
        }
      }
    });
  }

 private:
  Rows r_;
};

std::unique_ptr<backend::Kernel> prepare_sort(const backend::StepDesc& s) {
  return dispatch_dtype(s.output.dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    return std::make_unique<SortKernel<decltype(zero)>>(s);
  });
}

std::unique_ptr<backend::Kernel> prepare_argsort(const backend::StepDesc& s) {
  return dispatch_dtype(s.inputs[0].dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    return std::make_unique<ArgsortKernel<decltype(zero)>>(s);
  });
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(sort, "sort", &prepare_sort);
MNN_REGISTER_CPU_KERNEL(argsort, "argsort", &prepare_argsort);

}  // namespace mnn::cpu
