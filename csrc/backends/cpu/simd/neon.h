// MNN_NEON: set in the aarch64 neon kernel target only (CMakeLists.txt: mnn_isa_target(neon 1)),
// where the simd/ sources take their arm_neon.h paths. The aarch64 scalar target compiles the
// same sources without them (plain C++, whatever the compiler makes of it), so it stays the
// reference the neon kernels are checked against (tools/check_neon.sh).
#pragma once

#if defined(__aarch64__) && defined(MNN_ISA_LEVEL) && MNN_ISA_LEVEL >= 1
#define MNN_NEON 1
#include <arm_neon.h>
#endif
