// The table of CPU microkernels for one ISA. Each ISA target (simd/*.cpp compiled with its own
// -m flags into namespace mnn::cpu::<isa>) fills a KernelTable; at start-up the dispatcher
// (kernels/dispatch.cpp) picks the best target this CPU supports, capped by MNN_ISA.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/node.h"

namespace mnn::cpu {

// out[i] = op(in[0][i], in[1][i], ...) for i < n; every operand contiguous and of the compute
// dtype, except comparison/predicate results, which are bool.
using EwFn = void (*)(int64_t n, const char* const* in, char* out);
using CastFn = void (*)(int64_t n, const char* in, char* out);
// out[i] = cond[i] ? a[i] : b[i] (cond bool; a, b, out of itemsize bytes).
using WhereFn = void (*)(int64_t n, const char* cond, const char* a, const char* b, char* out, size_t itemsize);

struct KernelTable {
  EwFn ew[static_cast<int>(core::Op::kNumElementwise)][core::kNumDTypes] = {};
  CastFn cast[core::kNumDTypes][core::kNumDTypes] = {};
  WhereFn where = nullptr;
};

enum class Isa : int { Scalar = 0, AVX2 = 1, AVX512 = 2 };
const char* isa_name(Isa isa);
// The ISA whose kernels run: the best compiled-in target the CPU supports, capped by the
// environment variable MNN_ISA=scalar|avx2|avx512 (read once, at first use).
Isa active_isa();
const KernelTable& kernels();
const KernelTable* kernels_for(Isa isa);  // nullptr when not compiled in or not supported (tests)

namespace scalar { void fill_elementwise(KernelTable& t); }
namespace avx2 { void fill_elementwise(KernelTable& t); }
namespace avx512 { void fill_elementwise(KernelTable& t); }

}  // namespace mnn::cpu
