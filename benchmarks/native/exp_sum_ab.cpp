// Why exp and softmax's exp-and-row-sum have AVX-512 forms (backends/cpu/simd/vmath_kernels.cpp):
// the 8-lane kernels against the 16-lane ones on L1-resident rows (thread CPU time, minimum and
// first quartile of 201 runs; the host is shared). Both give the same bits, checked here too.
// Not part of the build (includes the kernel source into an ISA namespace of its own):
//   g++ -O2 -std=c++17 -mavx512f -mavx512bw -mavx512dq -mavx512vl -mfma -mf16c -Icsrc \
//       benchmarks/native/exp_sum_ab.cpp -o /tmp/exp_ab && /tmp/exp_ab
#define MNN_ISA_NS exp_ab
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

int main() {
  using namespace mnn::cpu::exp_ab;
  constexpr int N = 4096, kReps = 201, kInner = 50;
  std::vector<float> a(N), o1(N), o2(N);
  std::mt19937 gen(1);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  for (auto& v : a) v = dist(gen) * 3.0f;
  int bad = 0;
  for (int n : {8, 9, 100, 128, 129, 520, 1000, 1024, 2047, 4096}) {
    float s1, s2;
    exp_sum_shifted8(n, a.data(), 0.5f, o1.data(), &s1);
    exp_sum16(n, a.data(), 0.5f, o2.data(), &s2);
    bad += std::memcmp(o1.data(), o2.data(), n * 4) != 0 || std::memcmp(&s1, &s2, 4) != 0;
    exp_shifted8(n, a.data(), 0.0f, o1.data());
    exp_run16<false>(n, a.data(), 0.0f, o2.data());
    bad += std::memcmp(o1.data(), o2.data(), n * 4) != 0;
  }
  std::printf("bit mismatches between the 8- and 16-lane kernels: %d\n", bad);
  for (int row : {128, 1024, 4096}) {
    std::vector<double> t[4];
    float sum;
    for (int rep = 0; rep < kReps; ++rep) {
      double t0 = now_ns();
      for (int k = 0; k < kInner; ++k)
        for (int i = 0; i < N; i += row) exp_shifted8(row, a.data() + i, 0.5f, o1.data() + i);
      double t1 = now_ns();
      for (int k = 0; k < kInner; ++k)
        for (int i = 0; i < N; i += row) exp_run16<true>(row, a.data() + i, 0.5f, o1.data() + i);
      double t2 = now_ns();
      for (int k = 0; k < kInner; ++k)
        for (int i = 0; i < N; i += row) exp_sum_shifted8(row, a.data() + i, 0.5f, o1.data() + i, &sum);
      double t3 = now_ns();
      for (int k = 0; k < kInner; ++k)
        for (int i = 0; i < N; i += row) exp_sum16(row, a.data() + i, 0.5f, o1.data() + i, &sum);
      double t4 = now_ns();
      const double per = 1.0 / (double(kInner) * N);
      t[0].push_back((t1 - t0) * per), t[1].push_back((t2 - t1) * per);
      t[2].push_back((t3 - t2) * per), t[3].push_back((t4 - t3) * per);
    }
    for (auto& v : t) std::sort(v.begin(), v.end());
    std::printf("rows of %4d  ns/elem (min, q1): exp 8-lane %.3f %.3f  16-lane %.3f %.3f | exp+sum 8-lane %.3f %.3f  "
                "16-lane %.3f %.3f\n", row, t[0][0], t[0][kReps / 4], t[1][0], t[1][kReps / 4], t[2][0],
                t[2][kReps / 4], t[3][0], t[3][kReps / 4]);
  }
}
