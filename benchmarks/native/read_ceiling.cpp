// The single-core DRAM read ceiling that bounds a float32 sum of 4096x4096 (64 MB, beyond the
// 32 MB L3): the fastest of several plain read loops, each summing 64 MB with many independent
// accumulators (no order kept, so only the memory system limits it). Variants: 1, 2, 4 or 8
// streams (the array split in equal parts read in lockstep), with and without software prefetch
// (into L1, T0, or into L2, T1) some distance ahead per stream; AVX-512 loads. Prefetching into L1
// is the slowest form here: each prefetch holds an L1 miss buffer until its line arrives. Between timed reads another 64 MB buffer is swept, as
// benchmarks/run.py's interleaved libraries do, so no part of the array is cache resident.
// Both buffers are 2 MB aligned and advised MADV_HUGEPAGE, as numpy's and mnn's large buffers are
// (this host's THP mode is "madvise"): on 4 KB pages the same loops read 30-40% slower (1 stream
// 18.5 against 26.9 GB/s), which understated the ceiling in session 11's record.
// Thread CPU time, minimum and median of 15 runs. Not part of the build:
//   g++ -O2 -std=c++17 -mavx512f -mavx512dq benchmarks/native/read_ceiling.cpp -o /tmp/read_ceiling && /tmp/read_ceiling
#include <immintrin.h>
#include <sys/mman.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static double now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
constexpr size_t kN = size_t(4096) * 4096;

// PF: 0 no software prefetch, 1 into L1 (T0), 2 into L2 (T1), DIST bytes ahead of each stream
template <int S, int PF, int DIST = 1024>
static float read_sum(const float* p) {
  const size_t part = kN / S;
  __m512 acc[S][2];
  for (int s = 0; s < S; ++s) acc[s][0] = acc[s][1] = _mm512_setzero_ps();
  for (size_t i = 0; i < part; i += 32)
    for (int s = 0; s < S; ++s) {
      const float* q = p + s * part + i;
      if (PF == 1) _mm_prefetch(reinterpret_cast<const char*>(q) + DIST, _MM_HINT_T0);
      if (PF == 2) _mm_prefetch(reinterpret_cast<const char*>(q) + DIST, _MM_HINT_T1);
      acc[s][0] = _mm512_add_ps(acc[s][0], _mm512_loadu_ps(q));
      acc[s][1] = _mm512_add_ps(acc[s][1], _mm512_loadu_ps(q + 16));
    }
  __m512 t = _mm512_setzero_ps();
  for (int s = 0; s < S; ++s) t = _mm512_add_ps(t, _mm512_add_ps(acc[s][0], acc[s][1]));
  return _mm512_reduce_add_ps(t);
}

int main() {
  constexpr size_t kHuge = size_t(2) << 20;
  float* a = static_cast<float*>(std::aligned_alloc(kHuge, kN * 4));
  float* other = static_cast<float*>(std::aligned_alloc(kHuge, kN * 4));
#ifdef MADV_HUGEPAGE
  madvise(a, kN * 4, MADV_HUGEPAGE);  // a hint: without it the loops run on 4 KB pages
  madvise(other, kN * 4, MADV_HUGEPAGE);
#endif
  for (size_t i = 0; i < kN; ++i) a[i] = float(i % 7), other[i] = 1.0f;
  struct V { const char* name; float (*fn)(const float*); };
  const V variants[] = {{"1 stream", read_sum<1, 0>},          {"2 streams", read_sum<2, 0>},
                        {"4 streams", read_sum<4, 0>},         {"8 streams", read_sum<8, 0>},
                        {"16 streams", read_sum<16, 0>},       {"1 stream, L1 1K", read_sum<1, 1>},
                        {"1 stream, L2 1K", read_sum<1, 2>},   {"1 stream, L2 4K", read_sum<1, 2, 4096>},
                        {"1 stream, L2 8K", read_sum<1, 2, 8192>}, {"1 stream, L2 16K", read_sum<1, 2, 16384>},
                        {"4 streams, L2 2K", read_sum<4, 2, 2048>}, {"8 streams, L2 4K", read_sum<8, 2, 4096>}};
  volatile float sink = 0;
  for (const V& v : variants) {
    std::vector<double> t;
    for (int rep = 0; rep < 15; ++rep) {
      sink = sink + read_sum<1, 0>(other);  // evict: the array comes from DRAM
      const double t0 = now_ms();
      sink = sink + v.fn(a);
      t.push_back(now_ms() - t0);
    }
    std::sort(t.begin(), t.end());
    std::printf("%-22s min %.3f ms (%.1f GB/s)  median %.3f ms (%.1f GB/s)\n", v.name, t[0], kN * 4 / t[0] / 1e6, t[7],
                kN * 4 / t[7] / 1e6);
  }
  std::free(a);
  std::free(other);
}
