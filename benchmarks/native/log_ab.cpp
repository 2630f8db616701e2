// Why log has an AVX-512 form (backends/cpu/simd/vmath_kernels.cpp: log_run16): the 8-lane AVX2
// loop (log_run8) against the 16-lane one, and the proof that they give the same bits as each
// other and as the scalar target's per-element log_f64 on every one of the 2^32 float bit patterns
// (and the same numpy flags, per chunk). Timing is thread CPU time, interleaved (8, 16, 8, 16, ...),
// minimum and median of the repeats; the host is shared.
// Not part of the build (includes the kernel source into an ISA namespace of its own; contraction
// off, as the scalar target, which has no FMA, computes log_f64):
//   g++ -O2 -std=c++17 -fno-math-errno -fno-trapping-math -ffp-contract=off -mavx512f -mavx512bw \
//       -mavx512dq -mavx512vl -mfma -mf16c -Icsrc benchmarks/native/log_ab.cpp -o /tmp/log_ab
//   /tmp/log_ab          (timing; /tmp/log_ab sweep: the 2^32 bit check, ~1 minute)
#define MNN_ISA_NS log_ab
#include "backends/cpu/simd/vmath_kernels.cpp"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

static double now_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

using namespace mnn::cpu::log_ab;

static int sweep() {
  constexpr int64_t kChunk = 1 << 20;
  std::vector<uint32_t> u(kChunk);
  std::vector<float> x(kChunk), o8(kChunk), o16(kChunk), os(kChunk);
  int64_t bad8 = 0, bad_s = 0, bad_flags = 0;
  for (uint64_t c = 0; c < (uint64_t{1} << 32) / kChunk; ++c) {
    for (int64_t i = 0; i < kChunk; ++i) u[i] = static_cast<uint32_t>(c * kChunk + i);
    std::memcpy(x.data(), u.data(), kChunk * 4);
    mnn::cpu::fp_status_take();
    log_run8(kChunk, x.data(), o8.data());
    const int f8 = mnn::cpu::fp_status_take();
    log_run16(kChunk, x.data(), o16.data());
    const int f16 = mnn::cpu::fp_status_take();
    for (int64_t i = 0; i < kChunk; ++i) os[i] = log_f64(x[i]);
    mnn::cpu::fp_status_take();
    for (int64_t i = 0; i < kChunk; ++i) {
      uint32_t a, b, s;
      std::memcpy(&a, &o8[i], 4), std::memcpy(&b, &o16[i], 4), std::memcpy(&s, &os[i], 4);
      if (a != b && bad8++ < 10) std::printf("avx2 != avx512 at %08x: %08x %08x\n", u[i], a, b);
      if (s != b && bad_s++ < 10) std::printf("scalar != avx512 at %08x: %08x %08x\n", u[i], s, b);
    }
    // numpy's flags: divide by zero where a chunk has +-0, invalid where it has a negative non-NaN
    // or a signalling NaN (either sign; numpy's log raises invalid for those too)
    int want = 0;
    for (int64_t i = 0; i < kChunk; ++i) {
      const uint32_t m = u[i] & 0x7fffffffu;
      if (m == 0) want |= FE_DIVBYZERO;
      if ((u[i] >> 31) && m != 0 && m <= 0x7f800000u) want |= FE_INVALID;
      if (m > 0x7f800000u && !(m & 0x00400000u)) want |= FE_INVALID;
    }
    if (f16 != want) bad_flags++, std::printf("chunk %llu flags %x want %x (avx2 %x)\n", (unsigned long long)c, f16, want, f8);
  }
  std::printf("2^32 patterns: avx2 != avx512 %lld, scalar != avx512 %lld, chunks with wrong flags %lld\n",
              (long long)bad8, (long long)bad_s, (long long)bad_flags);
  return bad8 || bad_s || bad_flags;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "sweep") return sweep();
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> dist(0.0f, 255.0f);  // cv.log's typical input: pixel values
  for (int64_t n : {4096, 307200, 16 << 20}) {
    std::vector<float> a(n), o(n);
    for (auto& v : a) v = dist(gen) + 1e-3f;
    const int reps = n <= 4096 ? 2001 : n <= 307200 ? 101 : 11, inner = n <= 4096 ? 20 : 1;
    std::vector<double> t8, t16;
    for (int r = 0; r < reps; ++r) {
      double t0 = now_ns();
      for (int j = 0; j < inner; ++j) log_run8(n, a.data(), o.data());
      double t1 = now_ns();
      for (int j = 0; j < inner; ++j) log_run16(n, a.data(), o.data());
      double t2 = now_ns();
      t8.push_back((t1 - t0) / inner), t16.push_back((t2 - t1) / inner);
    }
    std::sort(t8.begin(), t8.end()), std::sort(t16.begin(), t16.end());
    std::printf("n=%9lld  8-lane min %9.1f us med %9.1f us | 16-lane min %9.1f us med %9.1f us | x%.2f (min) x%.2f (med)\n",
                (long long)n, t8[0] / 1e3, t8[reps / 2] / 1e3, t16[0] / 1e3, t16[reps / 2] / 1e3, t8[0] / t16[0],
                t8[reps / 2] / t16[reps / 2]);
  }
}
