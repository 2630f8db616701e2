// Which instruction of a fused program raised an IEEE flag (errstate reporting, engine/eval.cpp).
// The interpreter tests the thread's flags after each instruction over a tile (one status-register
// read per few thousand elements), keeps the first op that can raise each condition, and clears
// the flags; flags from ops that cannot (ordered compares of NaN set 'invalid') are dropped, as
// numpy reports nothing for them.
#pragma once
#include "core/node.h"

namespace mnn::cpu {

// fe: FE_* bits just raised by `op`, the instruction at `pos` of its program.
void note_fused_fp(int fe, core::Op op, int pos);

struct FusedFpBlame {
  int flags = 0;                 // FE_* bits kept since the last take
  int outside = 0;               // FE_* bits found set on entry to a program (a row region's
                                 // reduction raised them), kept apart so no instruction is blamed
  int op[3] = {-1, -1, -1};      // per condition (divide, overflow, invalid): the op, or -1
  int pos[3] = {0, 0, 0};
};
FusedFpBlame take_fused_fp();

// Off (the default) until the engine has someone to report to: then the interpreter skips the test.
void set_fused_fp_tracking(bool on);

// Whether `op` can raise the condition (0 divide, 1 overflow, 2 invalid) at all.
bool op_can_raise(core::Op op, int cond);

}  // namespace mnn::cpu
