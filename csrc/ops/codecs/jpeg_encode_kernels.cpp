// Registry of the JPEG encoder's per-ISA kernels and the quantization-table set-up (see jpeg_encode_kernels.h).
#include "ops/codecs/jpeg_encode_kernels.h"

#include "backends/cpu/simd/kernel_table.h"
#include "ops/codecs/codecs.h"

namespace mnn::codecs {
namespace {
// Constant-initialised, so registrations from other objects' static initialisers are safe in any order.
const JpegEncodeKernels* g_by_level[3] = {nullptr, nullptr, nullptr};
}  // namespace

int register_jpeg_encode_kernels(int isa_level, const JpegEncodeKernels* kernels) {
  if (isa_level >= 0 && isa_level < 3) g_by_level[isa_level] = kernels;
  return isa_level;
}

const JpegEncodeKernels& jpeg_encode_kernels() {
  for (int level = cpu::isa_level(cpu::active_isa()); level >= 0; --level)
    if (g_by_level[level]) return *g_by_level[level];
  throw CodecError("no JPEG encoder kernels registered");
}

// For d = 8q (8..2040) let s = floor(log2 d). If d is not a power of two, recip = ceil(2^(16+s) / d)
// < 2^16 and scale = 2^(16-s): the two high-half multiplies give floor(a * recip / 2^(16+s)) (the
// inner floor does not change the outer one), which is a/d plus an error e < a / 2^(16+s). For
// a < 2^15, e < 2^(-1-s) < 1/d (as d < 2^(s+1)), and a/d's fractional part is at most 1 - 1/d, so
// the floor is exact. Powers of two: recip = 2^15 and scale = 2^(17-s), a plain shift by s.
// The DCT's outputs are below 2^14 in magnitude (8 x 1024 and the half-divisor), well inside.
void jpeg_quant_prepare(const uint16_t* quant, JpegQuant& q) {
  for (int i = 0; i < 64; ++i) {
    const uint32_t d = 8u * quant[i];
    int s = 0;
    while ((2u << s) <= d) ++s;
    const bool pow2 = (d & (d - 1)) == 0;
    const uint32_t recip = pow2 ? 1u << 15 : static_cast<uint32_t>(((uint64_t(1) << (16 + s)) + d - 1) / d);
    const uint32_t scale = pow2 ? 1u << (17 - s) : 1u << (16 - s);
    q.div[i] = static_cast<uint16_t>(d);
    for (int half = 0; half < 2; ++half) {
      q.half[i / 8][8 * half + i % 8] = static_cast<uint16_t>(d >> 1);
      q.recip[i / 8][8 * half + i % 8] = static_cast<uint16_t>(recip);
      q.scale[i / 8][8 * half + i % 8] = static_cast<uint16_t>(scale);
    }
  }
}

}  // namespace mnn::codecs
