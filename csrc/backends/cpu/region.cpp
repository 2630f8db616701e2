// Row regions (backend.h): softmax, (x - mean) / std and friends in one pass over memory.
//
// The planner hands over a small program over an [R, C] view: elementwise steps (each a fused
// program) and last-axis reductions, reading slots that are either inputs (strided, read in place)
// or intermediates. This kernel runs the whole program on a block of rows at a time, with the
// intermediates in a per-thread scratch sized to stay in L2; so x is read from memory once and the
// result written once, where evaluating the ops one by one streams every intermediate through DRAM.
// Each step reuses the ordinary prepared kernels (the tile interpreter, the reduce kernels), built
// for the block's shape; row reductions of a block give the same bits as of the whole array,
// since every row is reduced on its own.
#include <algorithm>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/fused.h"
#include "core/threadpool.h"

namespace mnn::cpu {

using namespace core;
using backend::RegionProgram;

namespace {

// Elements of one row block: a handful of float slots of this size stay within a 512 KiB L2.
constexpr int64_t kBlockElems = 8192;

class RegionKernel final : public backend::Kernel {
 public:
  explicit RegionKernel(const RegionProgram& p) : p_(p) {
    const int64_t R = p.rows, C = p.cols;
    block_rows_ = std::clamp<int64_t>(kBlockElems / std::max<int64_t>(C, 1), 1, std::max<int64_t>(R, 1));
    nblocks_ = R == 0 ? 0 : (R + block_rows_ - 1) / block_rows_;
    tail_rows_ = R - (nblocks_ - 1) * block_rows_;
    // Scratch layout: one 64-byte aligned area per intermediate slot, sized for a full block.
    scratch_off_.assign(p.slots.size(), -1);
    for (size_t s = 0; s < p.slots.size(); ++s) {
      const auto& sl = p.slots[s];
      if (sl.external >= 0 || sl.result) continue;
      scratch_off_[s] = scratch_bytes_;
      int64_t bytes = block_rows_ * (sl.full ? C : 1) * static_cast<int64_t>(itemsize(sl.dtype));
      scratch_bytes_ += (bytes + 63) & ~int64_t(63);
    }
    for (size_t s = 0; s < p.slots.size(); ++s) {
      const auto& sl = p.slots[s];
      int64_t isz = static_cast<int64_t>(itemsize(sl.dtype));
      row_step_.push_back(sl.external >= 0 ? sl.row_stride * isz : (sl.full ? C : 1) * isz);
    }
    // A full-width step that reads a per-row value (x - mean) runs row by row, where that value is
    // a scalar operand; over a whole block it would be a strided broadcast, gathered per tile.
    for (const auto& st : p.steps) {
      bool row_operand = false;
      for (int s : st.srcs) row_operand |= !is_full_width(s);
      per_row_.push_back(!st.reduce && st.full && row_operand);
    }
    if (nblocks_ > 0) main_ = prepare_steps(block_rows_);
    if (nblocks_ > 0 && tail_rows_ != block_rows_) tail_ = prepare_steps(tail_rows_);
  }

  void run(char* const* inputs, char* output) override {
    if (nblocks_ == 0 || p_.cols == 0) return;
    parallel_for(nblocks_, 1, [&](int64_t b0, int64_t b1) {
      thread_local std::vector<char> scratch_buf;
      if (scratch_buf.size() < static_cast<size_t>(scratch_bytes_ + 64)) scratch_buf.resize(scratch_bytes_ + 64);
      char* scratch = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(scratch_buf.data()) + 63) & ~uintptr_t(63));
      std::vector<char*> slot_ptr(p_.slots.size());
      std::vector<char*> args;
      std::vector<int64_t> steps;
      for (int64_t b = b0; b < b1; ++b) {
        const int64_t r0 = b * block_rows_;
        const auto& kernels = (b == nblocks_ - 1 && !tail_.empty()) ? tail_ : main_;
        for (size_t s = 0; s < p_.slots.size(); ++s) {
          const auto& sl = p_.slots[s];
          const int64_t isz = static_cast<int64_t>(itemsize(sl.dtype));
          if (sl.external >= 0) slot_ptr[s] = inputs[sl.external] + r0 * sl.row_stride * isz;
          else if (sl.result) slot_ptr[s] = output + r0 * (sl.full ? p_.cols : 1) * isz;
          else slot_ptr[s] = scratch + scratch_off_[s];
        }
        const int64_t nrows = (b == nblocks_ - 1) ? tail_rows_ : block_rows_;
        for (size_t k = 0; k < p_.steps.size(); ++k) {
          const auto& st = p_.steps[k];
          args.clear();
          for (int s : st.srcs) args.push_back(slot_ptr[s]);
          if (!per_row_[k]) {
            kernels[k]->run(args.data(), slot_ptr[st.dst]);
            continue;
          }
          // one row at a time: the per-row values are scalars to the tile interpreter
          steps.clear();
          for (int s : st.srcs) steps.push_back(row_step_[s]);
          run_fused_rows(*kernels[k], args.data(), steps.data(), slot_ptr[st.dst], row_step_[st.dst], nrows);
        }
      }
    });
  }

 private:
  // Does the slot hold C distinct values per row (not a per-row value broadcast along the row)?
  bool is_full_width(int s) const {
    const auto& sl = p_.slots[s];
    return sl.external >= 0 ? sl.col_stride != 0 : sl.full;
  }

  // A slot's element strides inside a block, as read by a step whose result is `full` or not.
  Strides slot_strides(int s, bool reader_full) const {
    const auto& sl = p_.slots[s];
    if (sl.external >= 0) return {sl.row_stride, reader_full ? sl.col_stride : 0};
    if (sl.full) return {p_.cols, 1};
    return {1, 0};
  }

  std::vector<std::unique_ptr<backend::Kernel>> prepare_steps(int64_t rows) const {
    std::vector<std::unique_ptr<backend::Kernel>> out;
    for (size_t k = 0; k < p_.steps.size(); ++k) {
      const auto& st = p_.steps[k];
      if (per_row_[k]) {  // shape [C]: full-width operands stride along the row, per-row ones are scalars
        backend::FusedProgram prog = st.program;
        for (size_t i = 0; i < st.srcs.size(); ++i) {
          prog.inputs[i].shape = {p_.cols};
          prog.inputs[i].strides = {is_full_width(st.srcs[i]) ? slot_strides(st.srcs[i], true)[1] : 0};
        }
        prog.output.shape = {p_.cols};
        prog.output.strides = {1};
        out.push_back(prepare_fused(prog));
        continue;
      }
      if (st.reduce) {
        core::Params params;
        params.ints = {st.reduce_kind, 1};
        backend::StepDesc d;
        d.op = Op::Reduce;
        d.params = &params;
        d.inputs.push_back({p_.slots[st.srcs[0]].dtype, {rows, p_.cols}, slot_strides(st.srcs[0], true)});
        d.output = {p_.slots[st.dst].dtype, {rows}, {1}};
        out.push_back(prepare_reduce(d));
        continue;
      }
      backend::FusedProgram prog = st.program;
      Shape shape{rows, st.full ? p_.cols : 1};
      for (size_t i = 0; i < st.srcs.size(); ++i) {
        prog.inputs[i].shape = shape;
        prog.inputs[i].strides = slot_strides(st.srcs[i], st.full);
      }
      prog.output.shape = shape;
      prog.output.strides = st.full ? Strides{p_.cols, 1} : Strides{1, 1};
      out.push_back(prepare_fused(prog));
    }
    return out;
  }

  RegionProgram p_;
  int64_t block_rows_ = 1, nblocks_ = 0, tail_rows_ = 0, scratch_bytes_ = 0;
  std::vector<int64_t> scratch_off_;
  std::vector<int64_t> row_step_;  // bytes from one row of a slot to the next
  std::vector<char> per_row_;      // per step: run row by row
  std::vector<std::unique_ptr<backend::Kernel>> main_, tail_;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_region(const RegionProgram& region) {
  return std::make_unique<RegionKernel>(region);
}

}  // namespace mnn::cpu
