// The fused tile interpreter: runs a whole elementwise program (a chain like
// a*b + c*2 - sqrt(abs(a))) in one pass over memory. Each thread takes tiles of a few thousand
// elements; every instruction runs a contiguous microkernel over the tile, operands living in
// per-thread scratch (L1/L2) or read straight from contiguous inputs. One read per input, one
// write of the output, no temporaries in memory.
#pragma once
#include <memory>

#include "backends/backend.h"

namespace mnn::cpu {

std::unique_ptr<backend::Kernel> prepare_fused(const backend::FusedProgram& program);

}  // namespace mnn::cpu
