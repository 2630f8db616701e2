// Start-up choice of the kernel table: cpuid (through the compiler's builtins) on x86, the
// kernel's hardware capabilities (getauxval) on aarch64, and MNN_ISA.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "backends/cpu/kernels/elementwise_table.h"
#include "backends/cpu/kernels/error_flags.h"
#include "backends/cpu/simd/kernel_table.h"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace mnn::cpu {

std::atomic<int>& error_flags() {
  static std::atomic<int> flags{0};
  return flags;
}

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::AVX2: return "avx2";
    case Isa::AVX512: return "avx512";
    case Isa::Neon: return "neon";
    default: return "scalar";
  }
}

namespace {

bool cpu_supports(Isa isa) {
#if defined(__x86_64__) || defined(_M_X64)
  __builtin_cpu_init();
  if (isa == Isa::AVX2)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
  if (isa == Isa::AVX512)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#endif
#if defined(__aarch64__)
  // Advanced SIMD is part of ARMv8-A; the kernel still reports it (a CPU without it could not
  // run the baseline build either).
  if (isa == Isa::Neon) {
#if defined(__linux__) && defined(HWCAP_ASIMD)
    return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
#else
    return true;
#endif
  }
#endif
  return isa == Isa::Scalar;
}

bool compiled_in(Isa isa) {
  switch (isa) {
#ifdef MNN_HAVE_AVX2
    case Isa::AVX2: return true;
#endif
#ifdef MNN_HAVE_AVX512
    case Isa::AVX512: return true;
#endif
#ifdef MNN_HAVE_NEON
    case Isa::Neon: return true;
#endif
    case Isa::Scalar: return true;
    default: return false;
  }
}

// The highest level allowed (ISAs compare by isa_level): a name of the other architecture caps
// at its tier (neon on x86 means avx2, avx2 on aarch64 means neon); an unknown name caps nothing.
int cap_from_env() {
  const char* e = std::getenv("MNN_ISA");
  if (!e || !*e) return isa_level(Isa::AVX512);
  if (!std::strcmp(e, "scalar")) return isa_level(Isa::Scalar);
  if (!std::strcmp(e, "avx2")) return isa_level(Isa::AVX2);
  if (!std::strcmp(e, "neon")) return isa_level(Isa::Neon);
  return isa_level(Isa::AVX512);
}

std::unique_ptr<KernelTable> build(Isa isa) {
  auto t = std::make_unique<KernelTable>();
  switch (isa) {
#ifdef MNN_HAVE_AVX2
    case Isa::AVX2: avx2::fill_elementwise(*t); avx2::fill_reduce(*t); avx2::fill_transpose(*t); avx2::fill_gemm(*t); avx2::fill_vmath(*t); avx2::fill_fft(*t); avx2::fill_fused(*t); avx2::fill_rows(*t); break;
#endif
#ifdef MNN_HAVE_AVX512
    case Isa::AVX512: avx512::fill_elementwise(*t); avx512::fill_reduce(*t); avx512::fill_transpose(*t); avx512::fill_gemm(*t); avx512::fill_vmath(*t); avx512::fill_fft(*t); avx512::fill_fused(*t); avx512::fill_rows(*t); break;
#endif
#ifdef MNN_HAVE_NEON
    case Isa::Neon: neon::fill_elementwise(*t); neon::fill_reduce(*t); neon::fill_transpose(*t); neon::fill_gemm(*t); neon::fill_vmath(*t); neon::fill_fft(*t); neon::fill_fused(*t); neon::fill_rows(*t); break;
#endif
    default: scalar::fill_elementwise(*t); scalar::fill_reduce(*t); scalar::fill_transpose(*t); scalar::fill_gemm(*t); scalar::fill_vmath(*t); scalar::fill_fft(*t); scalar::fill_fused(*t); scalar::fill_rows(*t); break;
  }
  return t;
}

struct Tables {
  std::unique_ptr<KernelTable> by_isa[kNumIsas];
  Isa active = Isa::Scalar;
  Tables() {
    const int cap = cap_from_env();
    for (int i = 0; i < kNumIsas; ++i) {
      Isa isa = static_cast<Isa>(i);
      if (compiled_in(isa) && cpu_supports(isa)) {
        by_isa[i] = build(isa);
        // one family is compiled in, so its levels rise with i
        if (isa_level(isa) <= cap) active = isa;
      }
    }
  }
};

const Tables& tables() {
  static Tables* t = new Tables();
  return *t;
}

}  // namespace

Isa active_isa() { return tables().active; }
const KernelTable& kernels() { return *tables().by_isa[static_cast<int>(tables().active)]; }
const KernelTable* kernels_for(Isa isa) { return tables().by_isa[static_cast<int>(isa)].get(); }

EwFn ew_kernel(core::Op op, core::DType compute) {
  return kernels().ew[static_cast<int>(op)][static_cast<int>(compute)];
}
EwFn ew_kernel_scalar_b(core::Op op, core::DType compute) {
  return kernels().ew_scalar_b[static_cast<int>(op)][static_cast<int>(compute)];
}
CastFn cast_kernel(core::DType from, core::DType to) {
  return kernels().cast[static_cast<int>(from)][static_cast<int>(to)];
}
F32ProgramFn f32_program_kernel() { return kernels().f32_program; }
void where_kernel(int64_t n, const char* cond, const char* a, const char* b, char* out, size_t itemsize) {
  kernels().where(n, cond, a, b, out, itemsize);
}

}  // namespace mnn::cpu
