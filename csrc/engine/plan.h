// A Plan: everything pre-inference decided for one graph structure, reusable for any graph with
// the same structure. Values are numbered leaves first (0..n_leaves-1), then pending nodes in
// topological order.
#pragma once
#include <memory>
#include <vector>

#include "backends/backend.h"
#include "core/node.h"

namespace mnn::engine {

struct Store {
  int64_t bytes = 0;
  int leaf = -1;           // the leaf whose buffer this is (-1: allocated by the plan)
  bool dedicated = false;  // holds a plan output: a fresh buffer per run, handed to the node
  int64_t arena_offset = 0;
  int first_step = 0, last_step = -1;  // lifetime, for packing the arena
};

struct Step {
  std::unique_ptr<backend::Kernel> kernel;
  std::unique_ptr<backend::FusedProgram> program;
  std::unique_ptr<backend::RegionProgram> region;
  std::vector<int> inputs;  // value ids
  std::vector<int64_t> input_byte_offsets;
  int output = -1;          // value id
  int64_t output_byte_offset = 0;
  int copy_from = -1;       // Write without in-place: copy this value's whole buffer first
  int64_t copy_bytes = 0;
  bool fused = false;
  bool inplace = false;
  core::Op op = core::Op::kNumElementwise;  // the op of an unfused step (names its FP errors)
  bool adds = false;  // a sum/prod reduction: its overflow and inf - inf are numpy's 'reduce' errors
};

struct Plan {
  int n_leaves = 0, n_pending = 0;
  std::vector<int> canonical;  // per value: the value it is computed as (CSE); itself normally
  std::vector<int> store_of;   // per value: store index or -1 (fused away: never in memory)
  std::vector<char> is_output;
  std::vector<Store> stores;
  std::vector<Step> steps;
  int64_t arena_bytes = 0;
  int64_t work_bytes = -1;  // bytes the plan writes (computed on first run; small plans keep the GIL)
  std::shared_ptr<core::Buffer> arena;  // kept between runs of this plan
};

// Builds a plan for the extracted graph (see eval.cpp).
std::shared_ptr<Plan> build_plan(const std::vector<core::Node*>& leaves, const std::vector<core::Node*>& pending,
                                 const std::vector<char>& is_output, const std::vector<char>& leaf_exclusive);

}  // namespace mnn::engine
