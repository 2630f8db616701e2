// Why the axis-0 sum prefetches the next group of rows in memory order (backends/cpu/simd/
// reduce_kernels.cpp, NextGroupPrefetch): 4096x4096 float32 summed over axis 0 in numpy's order
// (acc += row, rows in order), 8 rows per pass. Variants, interleaved, thread-CPU-time minimum and
// first quartile of 61 runs (the host is shared, so the median mostly measures neighbours):
//   G1        numpy's loop: acc += one row
//   G8 pf256  8 rows per pass, each row prefetched 256 B ahead (the kernel before)
//   G8 +next  the same, plus the next 8 rows prefetched into L2 as one sequential stream
//   raw       one sequential read of the 64 MB, for the ceiling
// Not part of the build:
//   g++ -O2 -mavx2 -std=c++17 benchmarks/native/sum_axis0_ab.cpp -o /tmp/sum0_ab && /tmp/sum0_ab
#include <immintrin.h>
#include <sys/mman.h>
#include <time.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
static double tnow() { timespec ts; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6; }
constexpr int R = 4096, Cn = 4096;

template <int G, bool PF, bool NEXT>
static void rows(const float* base, float* acc) {
  for (int r0 = 0; r0 < R; r0 += G) {
    const float* rp[G];
    for (int k = 0; k < G; ++k) rp[k] = base + size_t(r0 + k) * Cn;
    const char* next = reinterpret_cast<const char*>(base + size_t(r0 + G) * Cn);
    const bool pf_next = NEXT && r0 + G < R;
    for (int j = 0, step = 0; j < Cn; j += 16, ++step) {
      __m256 a0 = _mm256_loadu_ps(acc + j), a1 = _mm256_loadu_ps(acc + j + 8);
      if (pf_next)  // the next group is contiguous here: G lines per step, in order
        for (int k = 0; k < G; ++k) _mm_prefetch(next + (size_t(step) * G + k) * 64, _MM_HINT_T1);
      for (int k = 0; k < G; ++k) {
        if (PF) _mm_prefetch(reinterpret_cast<const char*>(rp[k] + j) + 256, _MM_HINT_T0);
        a0 = _mm256_add_ps(a0, _mm256_loadu_ps(rp[k] + j));
        a1 = _mm256_add_ps(a1, _mm256_loadu_ps(rp[k] + j + 8));
      }
      _mm256_storeu_ps(acc + j, a0), _mm256_storeu_ps(acc + j + 8, a1);
    }
  }
}

static void raw(const float* p, float* acc) {
  __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  for (size_t i = 0; i < size_t(R) * Cn; i += 32) {
    s0 = _mm256_add_ps(s0, _mm256_loadu_ps(p + i)), s1 = _mm256_add_ps(s1, _mm256_loadu_ps(p + i + 8));
    s2 = _mm256_add_ps(s2, _mm256_loadu_ps(p + i + 16)), s3 = _mm256_add_ps(s3, _mm256_loadu_ps(p + i + 24));
  }
  _mm256_storeu_ps(acc, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
}

int main() {
  const size_t bytes = size_t(R) * Cn * 4;
  float* a = static_cast<float*>(aligned_alloc(2 << 20, bytes));
  madvise(a, bytes, MADV_HUGEPAGE);
  for (size_t i = 0; i < size_t(R) * Cn; ++i) a[i] = float(i % 1000) * 0.001f;
  std::vector<float> acc(Cn), ref(Cn, 0.f);
  rows<1, false, false>(a, ref.data());
  struct V { const char* name; void (*f)(const float*, float*); bool check; } vs[] = {
      {"G1 (numpy's loop)", rows<1, false, false>, true}, {"G8 pf256 (before)", rows<8, true, false>, true},
      {"G8 pf256 +next", rows<8, true, true>, true}, {"raw 1-stream read", raw, false}};
  std::vector<double> t[4];
  for (int rep = 0; rep < 61; ++rep)
    for (int v = 0; v < 4; ++v) {
      std::fill(acc.begin(), acc.end(), 0.f);
      double t0 = tnow();
      vs[v].f(a, acc.data());
      t[v].push_back(tnow() - t0);
      if (vs[v].check && std::memcmp(acc.data(), ref.data(), Cn * 4)) return std::printf("%s: wrong sum\n", vs[v].name), 1;
    }
  for (int v = 0; v < 4; ++v) {
    std::sort(t[v].begin(), t[v].end());
    std::printf("%-20s min %6.3f ms (%4.1f GB/s)  p25 %6.3f ms (%4.1f GB/s)\n", vs[v].name, t[v][0], bytes / t[v][0] / 1e6,
                t[v][15], bytes / t[v][15] / 1e6);
  }
}
