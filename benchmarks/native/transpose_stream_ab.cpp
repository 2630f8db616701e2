// Why large transposes go through L1 scratch (backends/cpu/strided.cpp run_stream_blocks):
// 4096x4096 float32, thread-time medians of interleaved variants. "direct": 64x64 blocks written
// straight from 8x8 micro-tiles (the path below 8 MB); "scratch": 32x128 blocks transposed into
// scratch, destination rows (128 B) streamed, the next block's source prefetched meanwhile;
// "scratch-nopf": the same without the prefetch; memcpy and a streaming copy of 64 MB for scale.
// Not part of the build:
//   g++ -O2 -mavx2 -std=c++17 benchmarks/native/transpose_stream_ab.cpp -o /tmp/tr_ab && /tmp/tr_ab
#include <immintrin.h>
#include <sys/mman.h>
#include <time.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
static double tnow() { timespec ts; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6; }
static float* alloc(size_t n) { size_t b = (n * 4 + (2 << 20) - 1) / (2 << 20) * (2 << 20); void* p = aligned_alloc(2 << 20, b); madvise(p, b, MADV_HUGEPAGE); memset(p, 0, b); return (float*)p; }
static const int64_t N = 4096;
static inline void micro8x8(const float* s, int64_t sp, float* d, int64_t dp) {
  __m256 r[8], t[8];
  for (int k = 0; k < 4; ++k) {
    r[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + k * sp)), _mm_loadu_ps(s + (k + 4) * sp), 1);
    r[k + 4] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + k * sp + 4)), _mm_loadu_ps(s + (k + 4) * sp + 4), 1);
  }
  for (int k = 0; k < 8; k += 2) t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]), t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
  const int src[4][2] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}};
  for (int q = 0; q < 4; ++q) {
    _mm256_storeu_ps(d + (2 * q) * dp, _mm256_shuffle_ps(t[src[q][0]], t[src[q][1]], 0x44));
    _mm256_storeu_ps(d + (2 * q + 1) * dp, _mm256_shuffle_ps(t[src[q][0]], t[src[q][1]], 0xEE));
  }
}
static void direct(const float* s, float* d) {
  for (int64_t i0 = 0; i0 < N; i0 += 64) for (int64_t j0 = 0; j0 < N; j0 += 64)
    for (int64_t r = 0; r < 64; r += 8) for (int64_t c = 0; c < 64; c += 8) micro8x8(s + (i0 + r) * N + j0 + c, N, d + (j0 + c) * N + i0 + r, N);
}
template <bool PF>
static void scratch(const float* s, float* d) {
  const int BI = 32, BJ = 128;  // source rows x source columns; destination rows of BI floats
  alignas(64) static float scr[BJ * BI];
  for (int64_t i0 = 0; i0 < N; i0 += BI) for (int64_t j0 = 0; j0 < N; j0 += BJ) {
    for (int r = 0; r < BI; r += 8) for (int c = 0; c < BJ; c += 8) micro8x8(s + (i0 + r) * N + j0 + c, N, scr + c * BI + r, BI);
    int64_t ni = i0, nj = j0 + BJ;
    if (nj >= N) nj = 0, ni += BI;
    const float* nb = PF && ni < N ? s + ni * N + nj : nullptr;
    for (int c = 0; c < BJ; ++c) {
      float* o = d + (j0 + c) * N + i0;
      for (int k = 0; k < BI; k += 8) _mm256_stream_ps(o + k, _mm256_load_ps(scr + c * BI + k));
      if (nb) for (int l = 0; l < 2; ++l) { int L = 2 * c + l; _mm_prefetch((const char*)(nb + (L / 8) * N + (L % 8) * 16), _MM_HINT_T0); }
    }
  }
  _mm_sfence();
}
static void ntcopy(const float* s, float* d) { for (int64_t i = 0; i < N * N; i += 8) _mm256_stream_ps(d + i, _mm256_load_ps(s + i)); _mm_sfence(); }
int main() {
  float *s = alloc(N * N), *d = alloc(N * N), *ref = alloc(N * N);
  for (int64_t i = 0; i < N * N; ++i) s[i] = i * 0.5f;
  for (int64_t i = 0; i < N; ++i) for (int64_t j = 0; j < N; ++j) ref[j * N + i] = s[i * N + j];
  struct V { const char* n; void (*f)(const float*, float*); bool check; };
  V vs[] = {{"direct", direct, true}, {"scratch", scratch<true>, true}, {"scratch-nopf", scratch<false>, true},
            {"memcpy", [](const float* a, float* b) { memcpy(b, a, N * N * 4); }, false}, {"ntcopy", ntcopy, false}};
  const int nv = sizeof(vs) / sizeof(vs[0]);
  std::vector<double> t[nv];
  for (int rep = 0; rep < 9; ++rep) for (int v = 0; v < nv; ++v) {
    double t0 = tnow(); vs[v].f(s, d); t[v].push_back(tnow() - t0);
    if (rep == 0 && vs[v].check && memcmp(d, ref, N * N * 4)) printf("%s WRONG\n", vs[v].n);
  }
  for (int v = 0; v < nv; ++v) { std::sort(t[v].begin(), t[v].end()); printf("%-13s %.2f ms (min %.2f)  %.2f GB/s\n", vs[v].n, t[v][4], t[v][0], 2.0 * N * N * 4 / t[v][4] / 1e6); }
}
