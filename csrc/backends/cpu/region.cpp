// Row regions (backend.h): softmax, (x - mean) / std and friends in one pass over memory.
//
// The planner hands over a small program over an [R, C] view: elementwise steps (each a fused
// program) and last-axis reductions, reading slots that are either inputs (strided, read in place)
// or intermediates. This kernel runs the whole program on a block of rows at a time, with the
// intermediates in a per-thread scratch sized to stay in L2; so x is read from memory once and the
// result written once, where evaluating the ops one by one streams every intermediate through DRAM.
// Each step reuses the ordinary prepared kernels (the tile interpreter, the reduce kernels), built
// for the block's shape; row reductions of a block give the same bits as of the whole array,
// since every row is reduced on its own. Float reductions over contiguous rows call the table's
// reduce_run directly, and a float32 exp(x - m) (softmax, logsumexp) runs as one exp kernel that
// also takes the following row sum in the same pass; both keep the bits of the general path.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/fp_status.h"
#include "backends/cpu/fused.h"
#include "backends/cpu/simd/kernel_table.h"
#include "backends/cpu/strided.h"
#include "core/threadpool.h"

namespace mnn::cpu {

using namespace core;
using backend::RegionProgram;

namespace {

// Elements of one row block. Every pass of a block after the first (the reduction that streams
// the rows in) should find its slots in cache; eight rows of 1024 let a float sum run rows in
// lockstep. 4096 measured best while each block's first pass waited on memory; with the next
// block prefetched during this one (Prefetch), 8192 measured ~3% faster for softmax and
// (x - mean) / std 4096x1024 (fewer per-block calls; the slots still fit L1 + L2).
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
    // The result, when too large for the last-level cache, is computed into scratch and streamed
    // out: stores that skip the read-for-ownership of every line, a third of its memory traffic.
    // (Side outputs are written in place: streaming them too measured slower, their rows are
    // still read from cache by the steps after the one that writes them.)
    for (size_t s = 0; s < p.slots.size(); ++s) {
      const auto& sl = p.slots[s];
      if (sl.result && sl.full && R * C * static_cast<int64_t>(itemsize(sl.dtype)) >= kStreamingBytes)
        streamed_.push_back(static_cast<int>(s));
    }
    // A result made by a per-row step is written straight to its rows with streaming stores as
    // each row is computed (no scratch copy, and the stores overlap the next rows' arithmetic).
    if (!streamed_.empty()) {
      for (size_t k = 0; k < p.steps.size(); ++k) {
        const auto& st = p.steps[k];
        bool row_operand = false;
        for (int s : st.srcs) row_operand |= !is_full_width(s);
        if (!st.reduce && st.full && row_operand && st.dst == streamed_[0] && !exp_shift_operands(st).ok())
          stream_step_ = static_cast<int>(k);
      }
      if (stream_step_ >= 0) streamed_.clear();
    }
    for (size_t s = 0; s < p.slots.size(); ++s) {
      const auto& sl = p.slots[s];
      const bool streamed = std::find(streamed_.begin(), streamed_.end(), static_cast<int>(s)) != streamed_.end();
      if ((sl.external >= 0 || sl.result) && !streamed) continue;
      scratch_off_[s] = scratch_bytes_;
      int64_t bytes = block_rows_ * (sl.full ? C : 1) * static_cast<int64_t>(itemsize(sl.dtype));
      scratch_bytes_ += (bytes + 63) & ~int64_t(63);
    }
    for (size_t s = 0; s < p.slots.size(); ++s) {
      const auto& sl = p.slots[s];
      int64_t isz = static_cast<int64_t>(itemsize(sl.dtype));
      slot_isz_.push_back(isz);
      row_step_.push_back(sl.external >= 0 ? sl.row_stride * isz : (sl.full ? C : 1) * isz);
    }
    // A full-width step that reads a per-row value (x - mean) runs row by row, where that value is
    // a scalar operand; over a whole block it would be a strided broadcast, gathered per tile.
    for (const auto& st : p.steps) {
      bool row_operand = false;
      for (int s : st.srcs) row_operand |= !is_full_width(s);
      per_row_.push_back(!st.reduce && st.full && row_operand);
    }
    for (size_t k = 0; k < p.steps.size(); ++k) {
      direct_reduce_.push_back(direct_reduce(p.steps[k]));
      exp_shift_.push_back(per_row_[k] ? exp_shift_operands(p.steps[k]) : ExpShift{});
    }
    // exp(x - m) followed by the sum of its rows (softmax): the sum is taken in the exp's pass.
    skip_.assign(p.steps.size(), 0);
    for (size_t k = 0; k + 1 < p.steps.size(); ++k) {
      const auto& nx = p.steps[k + 1];
      if (exp_shift_[k].a >= 0 && direct_reduce_[k + 1] && nx.reduce_kind == 0 && nx.srcs[0] == p.steps[k].dst &&
          p.slots[nx.dst].dtype == DType::Float32 && kernels().exp_sum_shifted_f32 && C >= 8 &&
          C <= kernels().exp_sum_max_n) {
        exp_shift_[k].sum_step = static_cast<int>(k + 1);
        skip_[k + 1] = 1;
      }
    }
    // Inputs the next block reads from memory (see Prefetch): contiguous rows of external slots
    // that no step writes.
    std::vector<char> written(p.slots.size(), 0);
    for (const auto& st : p.steps) written[st.dst] = 1;
    for (size_t s = 0; s < p.slots.size(); ++s) {
      const auto& sl = p.slots[s];
      if (sl.external >= 0 && !written[s] && sl.row_stride != 0 && (sl.col_stride == 1 || !sl.full))
        prefetched_.push_back(static_cast<int>(s));
    }
    if (stream_step_ >= 0) chain_ = row_chain(p.steps[stream_step_]);
    // softmax's exp(x - m) with its row sum, then e / sum as the streamed result: run row by row
    // together (run_exp_chain).
    if (chain_.ok() && chain_.nops == 1 && chain_.ops[0].op == 3 && !chain_.ops[0].scalar_first) {
      const auto& cst = p.steps[stream_step_];
      for (size_t k = 0; k + 2 < p.steps.size(); ++k) {
        const int sum_step = exp_shift_[k].sum_step;
        if (sum_step == static_cast<int>(k + 1) && stream_step_ == sum_step + 1 &&
            cst.srcs[chain_.full] == p.steps[k].dst && cst.srcs[chain_.scalar_in[0]] == p.steps[sum_step].dst)
          exp_chain_ = static_cast<int>(k);
      }
    }
    for (size_t k = 1; k < p.steps.size(); ++k) {
      if (skip_[k]) continue;
      const bool rows = exp_shift_[k].a >= 0 || static_cast<int>(k) == stream_step_;
      // the row kernel spreads its share over the row: it takes kChainShare ticks' worth per row
      ticks_ += (rows ? block_rows_ : 1) * (static_cast<int>(k) == stream_step_ && chain_.ok() ? chain_share() : 1);
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
          const int64_t isz = slot_isz_[s];
          if (scratch_off_[s] >= 0) slot_ptr[s] = scratch + scratch_off_[s];
          else if (sl.external >= 0) slot_ptr[s] = inputs[sl.external] + r0 * sl.row_stride * isz;
          else slot_ptr[s] = output + r0 * (sl.full ? p_.cols : 1) * isz;
        }
        const int64_t nrows = (b == nblocks_ - 1) ? tail_rows_ : block_rows_;
        Prefetch pf;
        if (b + 1 < b1) setup_prefetch(pf, inputs, b + 1);
        bool chain_done = false;  // run_exp_chain did the chain step of this block
        for (size_t k = 0; k < p_.steps.size(); ++k) {
          const auto& st = p_.steps[k];
          if (skip_[k]) continue;  // done by the step before
          const bool chain = static_cast<int>(k) == stream_step_ && chain_.ok() &&
                             !chain_in_place(slot_ptr[st.srcs[chain_.full]], slot_ptr[st.dst], nrows);
          if (k > 0 && !chain) pf.tick();
          args.clear();
          for (int s : st.srcs) args.push_back(slot_ptr[s]);
          if (direct_reduce_[k]) {
            run_reduce(st, direct_reduce_[k], args[0], slot_ptr[st.dst], nrows);
          } else if (st.reduce) {
            kernels[k]->run(args.data(), slot_ptr[st.dst]);
          } else if (!per_row_[k]) {
            // the whole block is one tile run on this thread (no pool dispatch per block)
            const int64_t zero[64] = {};
            run_fused_rows(*kernels[k], args.data(), zero, slot_ptr[st.dst], 0, 1);
          } else if (exp_shift_[k].a >= 0) {
            char* sums = exp_shift_[k].sum_step >= 0 ? slot_ptr[p_.steps[exp_shift_[k].sum_step].dst] : nullptr;
            static const bool no_ec = std::getenv("MNN_NO_EXP_CHAIN") != nullptr;
            if (exp_chain_ == static_cast<int>(k) && !no_ec) {
              const auto& cst = p_.steps[stream_step_];
              const char* e_rows = slot_ptr[cst.srcs[chain_.full]];
              // the result over x's own rows (in place over a dead input) would leave a block that
              // raised a flag nothing to run again from: the steps one after the other instead
              if (!chain_in_place(e_rows, slot_ptr[cst.dst], nrows) &&
                  !rows_overlap(args[exp_shift_[k].a], row_step_[st.srcs[exp_shift_[k].a]], slot_ptr[cst.dst],
                                row_step_[cst.dst], nrows) &&
                  run_exp_chain(st, exp_shift_[k], args.data(), slot_ptr[st.dst], sums, slot_ptr[cst.dst], nrows, pf)) {
                chain_done = true;
                continue;
              }
            }
            run_exp_shift(st, *kernels[k], exp_shift_[k], args.data(), slot_ptr[st.dst], sums, nrows, pf);
          } else if (chain) {
            if (chain_done) continue;
            run_chain(st, *kernels[k], args.data(), slot_ptr[st.dst], nrows, pf);
          } else if (static_cast<int>(k) == stream_step_) {
            // row by row (streaming stores), with the next block's prefetches in between
            steps.clear();
            for (int s : st.srcs) steps.push_back(row_step_[s]);
            const int64_t row_bytes = row_step_[st.dst];
            for (int64_t r = 0; r < nrows; ++r) {
              if (r > 0) pf.tick();
              char* row_args[64];
              for (size_t i = 0; i < args.size(); ++i) row_args[i] = args[i] + r * steps[i];
              run_fused_rows(*kernels[k], row_args, steps.data(), slot_ptr[st.dst] + r * row_bytes, row_bytes, 1);
            }
          } else {
            // one row at a time: the per-row values are scalars to the tile interpreter
            steps.clear();
            for (int s : st.srcs) steps.push_back(row_step_[s]);
            run_fused_rows(*kernels[k], args.data(), steps.data(), slot_ptr[st.dst], row_step_[st.dst], nrows);
          }
        }
        pf.finish();
        for (int s : streamed_) {
          const int64_t row_bytes = p_.cols * slot_isz_[s];
          char* dst = p_.slots[s].external >= 0 ? inputs[p_.slots[s].external] : output;
          stream_out(dst + r0 * row_bytes, slot_ptr[s], nrows * row_bytes);
        }
      }
#if defined(__SSE2__)
      if (!streamed_.empty() || stream_step_ >= 0) _mm_sfence();  // streaming stores are weakly ordered: publish them
#endif
    });
  }

 private:
  struct Chain {
    int full = -1;                        // program input: the row's values
    int nops = 0;
    RowChainOp ops[kRowChainMaxOps];      // s filled per row
    int scalar_in[kRowChainMaxOps] = {};  // program input holding op k's per-row scalar
    bool ok() const { return full >= 0; }
  };

  // Software prefetch of the next block's input rows, spread over this block's compute: the first
  // step of a block (softmax's max) otherwise waits on memory with nothing to overlap, then the
  // rest of the block computes with the memory bus idle. Each tick issues a share of the lines.
  // The lines go to L2 (T1), not L1: a prefetch into L1 holds one of the core's few L1 miss
  // buffers until its line arrives, which capped the stream at ~13 GB/s; into L2 the block's lines
  // are all in flight at once (softmax 4096x1024 on cold data 2.85 -> 2.36 ms, row max alone
  // 1.21 -> 0.63 ms, Zen 4).
  struct Prefetch {
    struct Range {
      const char* p;
      int64_t bytes;
    };
    Range ranges[8];
    int nranges = 0, cur = 0;
    int64_t off = 0, per_tick = 0;
    void issue(int64_t lines) {
#if defined(__SSE2__)
      while (lines > 0 && cur < nranges) {
        const Range& rg = ranges[cur];
        for (; lines > 0 && off < rg.bytes; off += 64, --lines) _mm_prefetch(rg.p + off, _MM_HINT_T1);
        if (off >= rg.bytes) ++cur, off = 0;
      }
#else
      (void)lines;
#endif
    }
    void tick() { issue(per_tick); }
    // A tick's lines as one contiguous piece for a kernel to spread over its work (the rest of
    // the tick, past the end of the current range, issued now).
    void take(const char*& p, int64_t& bytes, int64_t share) {
      p = nullptr;
      bytes = 0;
      if (cur >= nranges) return;
      const Range& rg = ranges[cur];
      p = rg.p + off;
      bytes = std::min(share * per_tick * 64, rg.bytes - off);
      off += bytes;
      if (off >= rg.bytes) ++cur, off = 0;
      issue(share * per_tick - (bytes + 63) / 64);
    }
    void finish() { issue(int64_t(1) << 40); }
  };

  void setup_prefetch(Prefetch& pf, char* const* inputs, int64_t b) const {
    if (prefetched_.empty() || ticks_ == 0) return;
    const int64_t r0 = b * block_rows_;
    const int64_t nrows = std::min(block_rows_, p_.rows - r0);
    int64_t lines = 0;
    for (int s : prefetched_) {
      const auto& sl = p_.slots[s];
      const int64_t isz = slot_isz_[s];
      const int64_t width = sl.full ? p_.cols : 1;
      // the block's rows are one range when contiguous, else row by row (up to the range limit)
      const char* base = inputs[sl.external] + r0 * sl.row_stride * isz;
      if (sl.row_stride == width || nrows == 1) {
        if (pf.nranges < 8) pf.ranges[pf.nranges++] = {base, nrows * width * isz}, lines += nrows * width * isz / 64 + 1;
      } else {
        for (int64_t r = 0; r < nrows && pf.nranges < 8; ++r)
          pf.ranges[pf.nranges++] = {base + r * sl.row_stride * isz, width * isz}, lines += width * isz / 64 + 1;
      }
    }
    pf.per_tick = (lines + ticks_ - 1) / ticks_;
  }

  struct ExpShift {
    int a = -1, b = -1;  // program inputs: exp(in[a] - in[b]), in[b] one value per row
    int sum_step = -1;   // the next step, a float32 sum of these rows, done in the same pass
    bool ok() const { return a >= 0; }
  };

  // A reduction the kernel table runs straight from the block: float32/float64 over contiguous
  // rows, into a slot of the same dtype. ReduceKernel::run would add a pool dispatch and a
  // std::function per block, which shows at a few rows per block.
  ReduceRunFn direct_reduce(const backend::RegionStep& st) const {
    if (!st.reduce) return nullptr;
    const auto& src = p_.slots[st.srcs[0]];
    const DType dt = src.dtype;
    if ((dt != DType::Float32 && dt != DType::Float64) || p_.slots[st.dst].dtype != dt) return nullptr;
    if (src.external >= 0 ? src.col_stride != 1 : !src.full) return nullptr;
    if (st.reduce_kind < 0 || st.reduce_kind > 3) return nullptr;
    return kernels().reduce_run[st.reduce_kind][static_cast<int>(dt)];
  }

  void run_reduce(const backend::RegionStep& st, ReduceRunFn fn, const char* src, char* dst, int64_t nrows) const {
    const int64_t stride = row_step_[st.srcs[0]];
    const bool sum = st.reduce_kind == 0;  // numpy starts a float sum at 0 (so -0.0 sums to 0.0)
    if (p_.slots[st.dst].dtype == DType::Float32) finish_reduce<float>(fn, src, stride, dst, nrows, sum);
    else finish_reduce<double>(fn, src, stride, dst, nrows, sum);
  }

  template <class T>
  void finish_reduce(ReduceRunFn fn, const char* src, int64_t stride, char* dst, int64_t nrows, bool sum) const {
    T* out = reinterpret_cast<T*>(dst);
    fn(src, p_.cols, nrows, stride, out);
    if (sum)
      for (int64_t r = 0; r < nrows; ++r) out[r] = T(0) + out[r];
  }

  // exp(x - m) over float32 rows, m one value per row (softmax, logsumexp): one pass of the
  // table's exp kernel instead of a subtract tile and an exp tile. The result has the bits the
  // program gives; a row where some IEEE flag comes up is run again by the program itself, so
  // errstate hears of the subtraction or exp that raised it exactly as before.
  ExpShift exp_shift_operands(const backend::RegionStep& st) const {
    const auto& prog = st.program;
    if (!kernels().exp_shifted_f32 || prog.code.size() != 2) return {};
    const auto& c0 = prog.code[0];
    const auto& c1 = prog.code[1];
    const int nin = static_cast<int>(prog.inputs.size());
    const DType f32 = DType::Float32;
    if (c0.op != Op::Subtract || c0.compute != f32 || c0.out != f32 || c0.src[0] < 0 || c0.src[0] >= nin ||
        c0.src[1] < 0 || c0.src[1] >= nin || c0.src[2] >= 0)
      return {};
    if (c1.op != Op::Exp || c1.compute != f32 || c1.out != f32 || c1.src[0] != c0.dst || c1.src[1] >= 0 ||
        prog.result != c1.dst)
      return {};
    const int a = c0.src[0], b = c0.src[1];
    if (prog.inputs[a].dtype != f32 || prog.inputs[b].dtype != f32 || p_.slots[st.dst].dtype != f32) return {};
    const auto& sa = p_.slots[st.srcs[a]];
    const bool a_rows = sa.external >= 0 ? sa.col_stride == 1 : sa.full;
    if (!a_rows || is_full_width(st.srcs[b])) return {};
    return {a, b};
  }

  void run_exp_shift(const backend::RegionStep& st, backend::Kernel& kernel, ExpShift e, char* const* args,
                     char* dst, char* sums, int64_t nrows, Prefetch& pf) const {
    const int64_t a_step = row_step_[st.srcs[e.a]], b_step = row_step_[st.srcs[e.b]];
    const int64_t o_step = row_step_[st.dst];
    const size_t nin = st.srcs.size();
    float* sum = reinterpret_cast<float*>(sums);
    auto row = [&](int64_t r) {
      const float* a = reinterpret_cast<const float*>(args[e.a] + r * a_step);
      const float m = *reinterpret_cast<const float*>(args[e.b] + r * b_step);
      float* of = reinterpret_cast<float*>(dst + r * o_step);
      return sum ? kernels().exp_sum_shifted_f32(p_.cols, a, m, of, sum + r) : kernels().exp_shifted_f32(p_.cols, a, m, of);
    };
    // The flags are read once for the block (reading MXCSR waits for the FP work in flight, which
    // per row cost the overlap of one row's tail with the next row's start); flags of earlier
    // steps stay raised, as they were.
    const int before = fp_status_take();
    bool over = false;
    for (int64_t r = 0; r < nrows; ++r) {
      if (r > 0) pf.tick();
      over |= row(r);
    }
    if (over || fp_status_take()) {
      // Some row raised a flag: every row again, one at a time, and a row that raises runs the
      // program itself, so the flags are raised and attributed as they always were.
      for (int64_t r = 0; r < nrows; ++r) {
        const int prev = fp_status_take();  // the rows before keep theirs
        const bool row_over = row(r);
        const int raised = fp_status_take();
        if (row_over || raised) {
          char* row_args[64];
          const int64_t zero[64] = {};
          for (size_t i = 0; i < nin; ++i) row_args[i] = args[i] + r * row_step_[st.srcs[i]];
          run_fused_rows(kernel, row_args, zero, dst + r * o_step, 0, 1);
          if (sum) kernels().reduce_run[0][static_cast<int>(DType::Float32)](dst + r * o_step, p_.cols, 1, 0, sum + r);
        }
        if (prev) fp_status_raise(prev);
      }
    }
    if (before) fp_status_raise(before);
    if (sum)
      for (int64_t r = 0; r < nrows; ++r) sum[r] = 0.0f + sum[r];  // numpy starts a float sum at 0
  }

  // The result step as a chain of float32 +, -, *, / between the row's values and per-row scalars
  // ((x - m) / s, e / s), for the table's row kernel; ok() false when it is anything else.
  Chain row_chain(const backend::RegionStep& st) const {
    Chain c;
    const auto& prog = st.program;
    const int nin = static_cast<int>(prog.inputs.size());
    if (!kernels().row_chain_f32 || prog.code.empty() || static_cast<int>(prog.code.size()) > kRowChainMaxOps ||
        p_.slots[st.dst].dtype != DType::Float32)
      return {};
    auto row_scalar = [&](int in) {
      return in >= 0 && in < nin && prog.inputs[in].dtype == DType::Float32 && !is_full_width(st.srcs[in]);
    };
    int full = -1, acc = -1;  // acc: the register holding the chain's value so far
    for (const auto& ins : prog.code) {
      uint8_t op;
      switch (ins.op) {
        case Op::Add: op = 0; break;
        case Op::Subtract: op = 1; break;
        case Op::Multiply: op = 2; break;
        case Op::Divide: op = 3; break;
        default: return {};
      }
      if (ins.compute != DType::Float32 || ins.out != DType::Float32 || ins.src[2] >= 0) return {};
      int value = -1, scalar = -1;
      for (int side = 0; side < 2; ++side) {
        const int r = ins.src[side];
        const bool is_value = acc >= 0 ? r == acc
                                       : r >= 0 && r < nin && prog.inputs[r].dtype == DType::Float32 &&
                                             is_full_width(st.srcs[r]) && contiguous_row(st.srcs[r]);
        if (is_value && value < 0) value = side;
        else if (row_scalar(r)) scalar = side;
      }
      if (value < 0 || scalar < 0 || value == scalar) return {};
      if (acc < 0) full = ins.src[value];
      c.ops[c.nops].op = op;
      // a 0-d scalar's NaN wins in numpy's add and multiply loops, a per-row value's only first
      c.ops[c.nops].scalar_first = scalar == 0 || ((op == 0 || op == 2) && !row_value(st.srcs[ins.src[scalar]]));
      c.scalar_in[c.nops] = ins.src[scalar];
      ++c.nops;
      acc = ins.dst;
    }
    if (acc != prog.result) return {};
    c.full = full;
    return c;
  }

  // Prefetch ticks a row of the row kernel takes: it spreads its lines between its stores, where
  // a tick between other steps issues them in one burst that waits for free miss buffers
  // (2 measured best for softmax; 4 was better still for (x - mean) / std but worse for softmax).
  static constexpr int64_t chain_share() { return 2; }

  // Whether the result is written over the rows the chain reads (in place over a temporary input):
  // then a block that raised a flag could not be run again from its input, so the block takes the
  // program, which handles the overlap.
  bool chain_in_place(const char* in, const char* out, int64_t nrows) const {
    const auto& cst = p_.steps[stream_step_];
    return rows_overlap(in, row_step_[cst.srcs[chain_.full]], out, row_step_[cst.dst], nrows);
  }

  // Whether nrows float32 rows of C from `in` and from `out` (byte steps between rows) share memory.
  bool rows_overlap(const char* in, int64_t in_step, const char* out, int64_t out_step, int64_t nrows) const {
    const int64_t row = p_.cols * 4;
    const int64_t in_bytes = (nrows - 1) * std::abs(in_step) + row;
    const char* lo = in_step < 0 ? in - (in_bytes - row) : in;
    const int64_t out_bytes = (nrows - 1) * out_step + row;
    return lo < out + out_bytes && out < lo + in_bytes;
  }

  // A value per row (a reduction's, or an input's [R, 1] column), as opposed to one 0-d value for
  // every row: with it numpy keeps the first operand's NaN in an add or a multiply.
  bool row_value(int s) const {
    const auto& sl = p_.slots[s];
    return !is_full_width(s) && !(sl.external >= 0 && sl.row_stride == 0);
  }

  bool contiguous_row(int s) const {
    const auto& sl = p_.slots[s];
    return sl.external >= 0 ? sl.col_stride == 1 : sl.full;
  }

  // exp(x - m) of a row, its sum s (the exp kernel's pass), then the row's e / s through the row
  // kernel with streaming stores, one row after the other. Where the table has exp_sum_div_f32,
  // row r's e / s is done inside row r + 1's exp pass, a piece between every 64 exps: after the exps
  // its stores came as one burst that waited on the memory bus (a quarter of a warm 4096x1024
  // softmax), where between them they drain while the exps compute. The values are the steps'
  // own (the same kernels, or the same IEEE operations, on the same rows). Returns false, with the
  // block's flags cleared, when some IEEE flag came up: the caller then runs the two steps as
  // before, which raise and attribute it.
  bool run_exp_chain(const backend::RegionStep& st, ExpShift e, char* const* args, char* e_dst, char* sums,
                     char* out, int64_t nrows, Prefetch& pf) const {
    const int64_t a_step = row_step_[st.srcs[e.a]], b_step = row_step_[st.srcs[e.b]], e_step = row_step_[st.dst];
    const int64_t out_step = row_step_[p_.steps[stream_step_].dst];
    float* sum = reinterpret_cast<float*>(sums);
    static const bool no_side = std::getenv("MNN_NO_INTERLEAVED_DIV") != nullptr;  // the A/B switch
    const auto exp_sum_div = no_side ? nullptr : kernels().exp_sum_div_f32;
    RowChainOp op = chain_.ops[0];
    auto e_row = [&](int64_t r) { return reinterpret_cast<float*>(e_dst + r * e_step); };
    auto out_row = [&](int64_t r) { return reinterpret_cast<float*>(out + r * out_step); };
    const int before = fp_status_take();
    bool over = false;
    for (int64_t r = 0; r < nrows; ++r) {
      if (r > 0) pf.tick();
      const float* a = reinterpret_cast<const float*>(args[e.a] + r * a_step);
      const float m = *reinterpret_cast<const float*>(args[e.b] + r * b_step);
      const char* pf_p;
      int64_t pf_bytes;
      if (exp_sum_div && r > 0) {  // this row's exps with the row before's e / s
        pf.take(pf_p, pf_bytes, chain_share());
        over |= exp_sum_div(p_.cols, a, m, e_row(r), sum + r, e_row(r - 1), sum[r - 1], out_row(r - 1), pf_p, pf_bytes);
      } else {
        over |= kernels().exp_sum_shifted_f32(p_.cols, a, m, e_row(r), sum + r);
      }
      sum[r] = 0.0f + sum[r];  // numpy starts a float sum at 0
      if (exp_sum_div && r + 1 < nrows) continue;  // its e / s goes with the next row's exps
      op.s = sum[r];
      pf.take(pf_p, pf_bytes, chain_share());
      kernels().row_chain_f32(p_.cols, e_row(r), &op, 1, out_row(r), pf_p, pf_bytes);
    }
    const bool clean = !over && !fp_status_take();
    if (before) fp_status_raise(before);
    return clean;
  }

  // The result step through the row kernel, each row's stores overlapping a share of the next
  // block's prefetches. IEEE flags are read once for the block; a block that raised one runs the
  // step's program again (the same values), which raises and attributes them as always.
  void run_chain(const backend::RegionStep& st, backend::Kernel& kernel, char* const* args, char* dst, int64_t nrows,
                 Prefetch& pf) const {
    const int64_t out_step = row_step_[st.dst];
    const int64_t in_step = row_step_[st.srcs[chain_.full]];
    RowChainOp ops[kRowChainMaxOps];
    for (int k = 0; k < chain_.nops; ++k) ops[k] = chain_.ops[k];
    const int before = fp_status_take();
    for (int64_t r = 0; r < nrows; ++r) {
      for (int k = 0; k < chain_.nops; ++k) {
        const int in = chain_.scalar_in[k];
        ops[k].s = *reinterpret_cast<const float*>(args[in] + r * row_step_[st.srcs[in]]);
      }
      const char* pf_p;
      int64_t pf_bytes;
      pf.take(pf_p, pf_bytes, chain_share());
      kernels().row_chain_f32(p_.cols, reinterpret_cast<const float*>(args[chain_.full] + r * in_step), ops,
                              chain_.nops, reinterpret_cast<float*>(dst + r * out_step), pf_p, pf_bytes);
    }
    if (fp_status_take()) {
      std::vector<int64_t> steps;
      for (int s : st.srcs) steps.push_back(row_step_[s]);
      run_fused_rows(kernel, const_cast<char**>(args), steps.data(), dst, out_step, nrows);
    }
    if (before) fp_status_raise(before);
  }

  // dst <- src (n bytes; src cache resident) with streaming stores.
  static void stream_out(char* dst, const char* src, int64_t n) {
#if defined(__SSE2__)
    const int64_t head = std::min<int64_t>(n, (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15);
    std::memcpy(dst, src, head);
    int64_t k = head;
    for (; k + 64 <= n; k += 64) {
      const __m128i* s = reinterpret_cast<const __m128i*>(src + k);
      __m128i* d = reinterpret_cast<__m128i*>(dst + k);
      const __m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1);
      const __m128i c = _mm_loadu_si128(s + 2), e = _mm_loadu_si128(s + 3);
      _mm_stream_si128(d, a);
      _mm_stream_si128(d + 1, b);
      _mm_stream_si128(d + 2, c);
      _mm_stream_si128(d + 3, e);
    }
    for (; k + 16 <= n; k += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k), _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k)));
    std::memcpy(dst + k, src + k, n - k);
#else
    std::memcpy(dst, src, n);
#endif
  }

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
        prog.row_values.assign(st.srcs.size(), 0);
        for (size_t i = 0; i < st.srcs.size(); ++i) {
          prog.inputs[i].shape = {p_.cols};
          prog.inputs[i].strides = {is_full_width(st.srcs[i]) ? slot_strides(st.srcs[i], true)[1] : 0};
          prog.row_values[i] = row_value(st.srcs[i]);
        }
        prog.output.shape = {p_.cols};
        prog.output.strides = {1};
        out.push_back(static_cast<int>(k) == stream_step_ ? prepare_fused_streaming(prog) : prepare_fused(prog));
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
  std::vector<int64_t> slot_isz_;  // bytes per element of each slot
  std::vector<int64_t> row_step_;  // bytes from one row of a slot to the next
  std::vector<char> per_row_;      // per step: run row by row
  std::vector<ReduceRunFn> direct_reduce_;  // per step: the table's reduction, or null
  std::vector<ExpShift> exp_shift_;         // per step: runs as exp(x - m), or a = -1
  std::vector<char> skip_;                  // per step: done by the step before it
  std::vector<int> streamed_;               // the result, when computed in scratch and streamed out
  std::vector<int> prefetched_;             // external input slots prefetched a block ahead
  int stream_step_ = -1;                    // the per-row step whose rows are streamed out as made
  Chain chain_;                             // stream_step_ as the table's row_chain_f32
  int exp_chain_ = -1;                      // the exp step run_exp_chain runs with stream_step_
  int64_t ticks_ = 0;                       // Prefetch ticks in a full block
  std::vector<std::unique_ptr<backend::Kernel>> main_, tail_;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_region(const RegionProgram& region) {
  return std::make_unique<RegionKernel>(region);
}

}  // namespace mnn::cpu
