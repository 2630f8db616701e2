// Evaluation: record -> pre-infer -> plan -> execute -> cache (DESIGN.md).
//
// eval() extracts the pending subgraph behind the requested nodes, looks its structure up in the
// plan cache (leaves hash by dtype/shape/strides, never by data), and on a miss builds a Plan:
// CSE, elementwise fusion, in-place decisions, a lifetime-based arena layout and a prepared kernel
// per step. Execution binds this graph's buffers to the plan and runs the steps; afterwards the
// evaluated nodes hold buffers and drop their inputs, freeing the graph.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/node.h"

namespace mnn::engine {

void eval(const std::vector<core::NodePtr>& roots);

struct Stats {
  uint64_t evals = 0;           // eval() calls that had pending work
  uint64_t plan_hits = 0;
  uint64_t plan_misses = 0;
  uint64_t fused_groups = 0;    // fused elementwise steps run
  uint64_t kernels_run = 0;     // steps run (fused groups count once)
  uint64_t nodes_evaluated = 0; // pending nodes realised or consumed
  uint64_t arena_bytes = 0;     // arena of the last plan run
  uint64_t output_bytes = 0;    // fresh output buffers of the last plan run
  uint64_t peak_bytes = 0;      // largest arena + outputs of any plan run so far
  uint64_t inplace_steps = 0;   // steps that wrote into a buffer they read from
  uint64_t last_fused_groups = 0;  // fused steps in the last plan run
  uint64_t last_steps = 0;         // steps in the last plan run
  uint64_t cached_plans = 0;
};
Stats& stats();
void reset_stats();
void clear_plan_cache();
void set_plan_cache_capacity(size_t n);

// The Python layer installs a hook that releases the GIL around `fn` (kernel execution and lock
// waits); the engine itself knows nothing of Python.
using BlockingRegion = void (*)(const std::function<void()>& fn);
void set_blocking_region(BlockingRegion hook);

// Floating-point conditions an evaluation met (numpy's errstate categories), each with the ufunc
// name numpy would give it. The hook (installed by the Python layer) turns them into warnings or
// FloatingPointError per the current errstate; it runs after the engine lock is released, so it
// may evaluate arrays itself. A hook that throws makes eval() throw (the results are kept).
enum FpErrorKind : int { kFpDivide = 1, kFpOverflow = 2, kFpInvalid = 4 };
struct FpError {
  FpErrorKind kind;
  const char* op;  // "divide", "sqrt", "cast", ...
};
using FpErrorHook = void (*)(const std::vector<FpError>& errors);
void set_fp_error_hook(FpErrorHook hook);

}  // namespace mnn::engine
