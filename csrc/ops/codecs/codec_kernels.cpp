// Registry of the per-ISA codec kernels (see codec_kernels.h).
#include "ops/codecs/codec_kernels.h"

#include "backends/cpu/simd/kernel_table.h"
#include "ops/codecs/codecs.h"

namespace mnn::codecs {
namespace {
// Constant-initialised, so registrations from other objects' static initialisers are safe in any order.
const CodecKernels* g_by_level[3] = {nullptr, nullptr, nullptr};
}  // namespace

int register_codec_kernels(int isa_level, const CodecKernels* kernels) {
  if (isa_level >= 0 && isa_level < 3) g_by_level[isa_level] = kernels;
  return isa_level;
}

const CodecKernels& codec_kernels() {
  for (int level = cpu::isa_level(cpu::active_isa()); level >= 0; --level)
    if (g_by_level[level]) return *g_by_level[level];
  throw CodecError("no codec kernels registered");
}

}  // namespace mnn::codecs
