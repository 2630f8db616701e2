#include "backends/cpu/fused.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <atomic>
#include <memory>
#include <cfenv>

#include "backends/cpu/fp_blame.h"
#include "backends/cpu/fp_status.h"
#include "backends/cpu/kernels/elementwise_table.h"
#include "backends/cpu/strided.h"
#include "core/error.h"
#include "core/threadpool.h"

namespace mnn::cpu {

using namespace core;
using backend::FusedProgram;

namespace {

// Elements per tile. A tile's working set (the registers a program keeps live, the contiguous
// inputs it reads and the next tile's prefetched lines) must stay in a 32 KiB L1: at 512 float32
// elements the 16M chain a*b + c*2 - sqrt(abs(a)) ran in 18-20 ms on one Zen 3 core, at 1024 in
// 21-23 ms (interleaved runs), at 256 the per-instruction overhead shows (25 ms).
constexpr int64_t kTile = 512;
// Register tiles sit kSlotBytes apart: a tile of the widest dtype (16 bytes) plus five cache lines,
// so element i of different registers falls in different L1 sets; at a multiple of 4 KiB every
// register's line i would compete for one set, and a store would alias the next load (4K aliasing).
constexpr size_t kSlotBytes = kTile * 16 + 5 * 64;
constexpr int64_t kPrefetchBytes = 2 << 20;  // contiguous input bytes from which tiles prefetch ahead
constexpr int64_t kParallelGrain = 32768;  // elements below which splitting costs more than it saves
// Row broadcasts (plan_rows): rows shorter than this that cannot be grouped keep the gathered tiles,
// whose cost is paid per kTile elements and not per row; long rows split into units of kRowChunk.
constexpr int64_t kRowMin = 64;
constexpr int64_t kRowChunk = 32768;

// Copies n bytes from cache-resident scratch to 16-byte-aligned memory, bypassing the caches.
inline void stream_copy(char* dst, const char* src, size_t n) {
#if defined(__SSE2__)
  if ((reinterpret_cast<uintptr_t>(dst) & 15) == 0) {
    size_t k = 0;
    for (; k + 16 <= n; k += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k)));
    std::memcpy(dst + k, src + k, n - k);
    return;
  }
#endif
  std::memcpy(dst, src, n);
}


std::atomic<bool> g_fp_tracking{false};
std::atomic<int> g_outside_flags{0};
inline void note_outside_fp(int fe) { g_outside_flags.fetch_or(fe, std::memory_order_relaxed); }
inline bool fp_tracking() { return g_fp_tracking.load(std::memory_order_relaxed); }

struct Operand {
  size_t isz;
  std::vector<int64_t> strides;  // coalesced
  enum Mode { Direct, Scalar, Strided } mode;
};

struct Instr {
  Op op;
  EwFn fn = nullptr;
  CastFn cast = nullptr;
  size_t where_isz = 0;
  int src[3];
  int dst;
};

class FusedKernel final : public backend::Kernel {
 public:
  explicit FusedKernel(const FusedProgram& p, bool stream_unfenced = false) {
    dims_ = p.output.shape;
    total_ = numel(dims_);
    std::vector<std::vector<int64_t>> st;
    for (auto& in : p.inputs) st.push_back(in.strides);
    st.push_back(p.output.strides);
    std::vector<std::vector<int64_t>*> ptrs;
    for (auto& s : st) ptrs.push_back(&s);
    coalesce(dims_, ptrs);
    auto mode_of = [&](const std::vector<int64_t>& s) {
      bool zero = true;
      for (auto v : s) zero &= v == 0;
      if (zero) return Operand::Scalar;
      if (dims_.size() == 1 && s[0] == 1) return Operand::Direct;
      return Operand::Strided;
    };
    for (size_t i = 0; i < p.inputs.size(); ++i)
      in_.push_back({itemsize(p.inputs[i].dtype), st[i], mode_of(st[i])});
    out_ = {itemsize(p.output.dtype), st.back(), mode_of(st.back())};
    if (total_ <= 1) out_.mode = Operand::Direct;  // a single element is contiguous
    nregs_ = static_cast<int>(p.inputs.size());
    reg_isz_.clear();
    for (auto& in : p.inputs) reg_isz_.push_back(itemsize(in.dtype));
    for (auto& c : p.code) {
      Instr ins;
      ins.op = c.op;
      std::memcpy(ins.src, c.src, sizeof(ins.src));
      ins.dst = c.dst;
      if (c.op == Op::Cast) {
        ins.cast = cast_kernel(c.compute, c.out);
      } else if (c.op == Op::Where) {
        ins.where_isz = itemsize(c.out);
      } else {
        ins.fn = ew_kernel(c.op, c.compute);
        if (!ins.fn)
          throw TypeError(api_msg(op_name(c.op), std::string("no kernel for dtype ") + dtype_name(c.compute)));
      }
      if (c.dst >= static_cast<int>(reg_isz_.size())) reg_isz_.resize(c.dst + 1);
      reg_isz_[c.dst] = itemsize(c.out);
      nregs_ = std::max(nregs_, c.dst + 1);
      code_.push_back(ins);
    }
    result_ = p.result;
    row_value_.assign(p.inputs.size(), 0);
    for (size_t i = 0; i < p.row_values.size() && i < p.inputs.size(); ++i) row_value_[i] = p.row_values[i];
    use_scalar_kernels(p);
    // A program that only moves one input (x.T.copy(), a.T[...] = b, broadcast_to(x, s).copy(),
    // full) runs as a prepared N-d copy: cache-blocked transposes, row copies and fills, with no
    // round trip through scratch.
    int src = -1;
    const int nin = static_cast<int>(p.inputs.size());
    if (p.code.empty()) {
      src = p.result;
    } else if (p.code.size() == 1 && p.result == p.code[0].dst &&
               (p.code[0].op == Op::Copy || (p.code[0].op == Op::Cast && p.code[0].compute == p.code[0].out))) {
      src = p.code[0].src[0];
    }
    if (src >= 0 && src < nin && p.inputs[src].dtype == p.output.dtype && out_.mode != Operand::Scalar) {
      copy_src_ = src;
      copy_ = StridedCopy(p.output.shape, p.inputs[src].strides, p.output.strides, out_.isz);
    }
    streaming_ = out_.mode == Operand::Direct && total_ * static_cast<int64_t>(out_.isz) >= kStreamingBytes;
    if (stream_unfenced && out_.mode == Operand::Direct) streaming_ = unfenced_ = true;
    if (copy_src_ < 0) plan_blocks();
    if (copy_src_ < 0 && !blocked_ && plan_rows(p, stream_unfenced)) return;
    int64_t direct_bytes = 0;  // prefetching pays only for inputs that come from beyond the caches
    for (auto& in : in_) direct_bytes += in.mode == Operand::Direct ? total_ * static_cast<int64_t>(in.isz) : 0;
    prefetch_ = copy_src_ < 0 && !blocked_ && !code_.empty() && direct_bytes >= kPrefetchBytes;
    if (copy_src_ < 0 && !blocked_) plan_f32_blocks(p);
  }

  void run(char* const* inputs, char* output) override {
    if (total_ == 0) return;
    if (copy_src_ >= 0) return copy_.run(inputs[copy_src_], output);
    if (row_) {
      // a unit is a group of rows_per_ rows, or a chunk of one long row
      parallel_for(row_units_, std::max<int64_t>(1, kParallelGrain / (rows_per_ * std::min(row_len_, kRowChunk))),
                   [&](int64_t u0, int64_t u1) { run_row_units(inputs, output, u0, u1); });
      return;
    }
    if (blocked_) {
      parallel_for(units_, std::max<int64_t>(1, kParallelGrain / (bi_ * bj_)), [&](int64_t u0, int64_t u1) {
        run_blocks(inputs, output, u0, u1);
      });
      return;
    }
    int64_t ntiles = (total_ + kTile - 1) / kTile;
    parallel_for(ntiles, std::max<int64_t>(1, kParallelGrain / kTile), [&](int64_t t0, int64_t t1) {
      run_tiles(inputs, output, t0, t1);
    });
  }

 private:
  // Per-thread scratch: one tile per register (16 bytes per element covers every dtype, complex128 too).
  char* scratch() const {
    thread_local std::vector<char> buf;
    size_t need = static_cast<size_t>(nregs_) * kSlotBytes + 64;  // + alignment to a cache line
    if (buf.size() < need) buf.resize(need);
    return reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(buf.data()) + 63) & ~uintptr_t(63));
  }
  struct Bytes16 {
    uint64_t lo, hi;
  };
  template <class U>
  static void fill_as(char* dst, const char* value, int64_t m) {
    U v;
    std::memcpy(&v, value, sizeof(U));
    std::fill(reinterpret_cast<U*>(dst), reinterpret_cast<U*>(dst) + m, v);
  }
  static char* reg_buf(char* scratch, int r) { return scratch + static_cast<size_t>(r) * kSlotBytes; }

  // A binary instruction whose second operand is a broadcast input (x - m, e / s, x * 2.0) runs
  // the scalar-operand microkernel, reading that one value in place; an input read only that way
  // is never filled into a tile (a row region refills its per-row values on every row).
  void use_scalar_kernels(const FusedProgram& p) {
    const int nin = static_cast<int>(p.inputs.size());
    needs_fill_.assign(nin, 1);
    std::vector<char> read_as_tile(nin, 0);
    std::vector<int> holds(std::max(nregs_, nin), -1);  // register -> the input it still holds
    for (int i = 0; i < nin; ++i) holds[i] = in_[i].mode == Operand::Scalar ? i : -1;
    for (size_t k = 0; k < code_.size(); ++k) {
      Instr& ins = code_[k];
      const auto& c = p.code[k];
      const int b = ins.src[1];
      bool scalar_b = false;
      // (the add and multiply kernels give a NaN scalar's NaN: not numpy's choice for a row value)
      // (integers have no NaN: x * c[:, None] on int32 keeps the scalar kernel)
      const bool first_nan = (c.op == Op::Add || c.op == Op::Multiply) && (is_float(c.compute) || is_complex(c.compute)) &&
                             b >= 0 && holds[b] >= 0 && row_value_[holds[b]];
      if (ins.fn && b >= 0 && ins.src[2] < 0 && holds[b] >= 0 && !first_nan) {
        // reads ptr[b][0]: the value in place, or the first element of its filled tile
        if (EwFn f = ew_kernel_scalar_b(c.op, c.compute)) ins.fn = f, scalar_b = true;
      }
      for (int j = 0; j < 3; ++j) {
        const int r = ins.src[j];
        if (r >= 0 && holds[r] >= 0 && !(j == 1 && scalar_b)) read_as_tile[holds[r]] = 1;
      }
      holds[ins.dst] = -1;
    }
    if (result_ < nin && holds[result_] >= 0) read_as_tile[holds[result_]] = 1;
    for (int i = 0; i < nin; ++i) needs_fill_[i] = in_[i].mode == Operand::Scalar && read_as_tile[i];
  }

  static F32Op f32_op(Op op) {
    switch (op) {
      case Op::Add: return F32Op::Add;
      case Op::Subtract: return F32Op::Subtract;
      case Op::Multiply: return F32Op::Multiply;
      case Op::Divide: return F32Op::Divide;
      case Op::Maximum: return F32Op::Maximum;
      case Op::Minimum: return F32Op::Minimum;
      case Op::Fmax: return F32Op::Fmax;
      case Op::Fmin: return F32Op::Fmin;
      case Op::Negative: return F32Op::Negative;
      case Op::Absolute: return F32Op::Absolute;
      case Op::Positive: case Op::Copy: case Op::Cast: return F32Op::Copy;  // float32 -> float32
      case Op::Square: return F32Op::Square;
      case Op::Reciprocal: return F32Op::Reciprocal;
      case Op::Sqrt: return F32Op::Sqrt;
      case Op::Floor: return F32Op::Floor;
      case Op::Ceil: return F32Op::Ceil;
      case Op::Trunc: return F32Op::Trunc;
      case Op::Rint: return F32Op::Rint;
      default: return F32Op::Call;
    }
  }

  // A program of float32 operations over contiguous or broadcast float32 inputs, with a contiguous
  // float32 output, also runs as an F32 block program (simd/fused_f32_kernels.cpp): no tile round
  // trips through scratch, the output written in place. Anything else keeps the tile interpreter.
  void plan_f32_blocks(const FusedProgram& p) {
    // MNN_FUSED_TILES_ONLY=1 (read when a plan is built) keeps every program on the tiles: the
    // A/B switch for benchmarks and for bisecting a wrong answer to one path or the other.
    f32_fn_ = std::getenv("MNN_FUSED_TILES_ONLY") ? nullptr : f32_program_kernel();
    const int nin = static_cast<int>(p.inputs.size());
    if (!f32_fn_ || p.code.empty() || out_.mode != Operand::Direct || p.output.dtype != DType::Float32 ||
        nregs_ > kF32MaxSlots || result_ != p.code.back().dst)
      return;
    for (int i = 0; i < nin; ++i)
      if (p.inputs[i].dtype != DType::Float32 || in_[i].mode == Operand::Strided) return;
    // Each value is spilled to its slot when an instruction other than the next one reads it, or
    // when the next one is a Call (which reads slots); otherwise it passes in the accumulator.
    const int ncode = static_cast<int>(p.code.size());
    std::vector<char> defined(nregs_, 0);
    for (int k = 0; k < ncode; ++k) {
      const auto& c = p.code[k];
      if (c.dst < nin || defined[c.dst] || c.compute != DType::Float32 || c.out != DType::Float32 || c.src[2] >= 0)
        return;  // each register written once (the builder below relies on it)
      defined[c.dst] = 1;
    }
    auto is_call = [&](int k) { return k < ncode && f32_op(p.code[k].op) == F32Op::Call; };
    std::vector<F32Instr> code;
    for (int k = 0; k < ncode; ++k) {
      const auto& c = p.code[k];
      int a = c.src[0], b = c.src[1] >= 0 ? c.src[1] : c.src[0];
      // numpy's add and multiply loops put a broadcast scalar operand first (its NaN wins when
      // both are NaN; the instruction keeps the first operand's), but not a row region's per-row value
      auto scalar_in = [&](int r) { return r < nin && in_[r].mode == Operand::Scalar && !row_value_[r]; };
      if ((c.op == Op::Add || c.op == Op::Multiply) && scalar_in(b) && !scalar_in(a)) std::swap(a, b);
      F32Instr ins;
      ins.op = f32_op(c.op);
      ins.a = static_cast<uint8_t>(a);
      ins.b = static_cast<uint8_t>(b);
      ins.dst = static_cast<uint8_t>(c.dst);
      if (ins.op == F32Op::Call) {
        ins.call = ew_kernel(c.op, DType::Float32);
        if (!ins.call) return;
      } else if (k > 0) {
        const int acc = p.code[k - 1].dst;  // the accumulator holds the previous value
        ins.form = static_cast<uint8_t>((a == acc ? 1 : 0) | (b == acc ? 2 : 0));
      }
      code.push_back(ins);
      bool later = false;  // read by an instruction after the next one
      for (int j = k + 2; j < ncode && !later; ++j)
        for (int q = 0; q < 3; ++q) later |= p.code[j].src[q] == c.dst;
      code.back().spill = ins.op != F32Op::Call && (later || is_call(k + 1));  // a Call's value is in its slot
    }
    f32_code_ = std::move(code);
    f32_broadcast_.reset(new bool[nin + 1]);
    for (int i = 0; i < nin; ++i) f32_broadcast_[i] = in_[i].mode == Operand::Scalar;
  }

  // Broadcast scalars are filled once per call, not per tile.
  void fill_scalars(char* const* inputs, char* scr, const char** ptr) const {
    for (size_t i = 0; i < in_.size(); ++i) {
      if (in_[i].mode != Operand::Scalar) continue;
      if (!needs_fill_[i]) {
        ptr[i] = inputs[i];
        continue;
      }
      char* b = reg_buf(scr, static_cast<int>(i));
      const int64_t m = std::min(fill_elems_, total_);  // a tile, or a block of the transposed path
      switch (in_[i].isz) {  // typed fills: a memcpy call per element cost microseconds per run
        case 1: std::memset(b, *reinterpret_cast<const uint8_t*>(inputs[i]), m); break;
        case 2: fill_as<uint16_t>(b, inputs[i], m); break;
        case 4: fill_as<uint32_t>(b, inputs[i], m); break;
        case 8: fill_as<uint64_t>(b, inputs[i], m); break;
        default: fill_as<Bytes16>(b, inputs[i], m); break;  // complex128
      }
      ptr[i] = b;
    }
  }

  // Runs the program over n gathered elements; the last instruction writes straight to
  // direct_out when it is given (and not streamed). Returns where the result lies.
  // pf: where the next tile's contiguous inputs start (nullptr: no prefetching), pf_n its elements.
  // A tile program computes for a while between touching its input streams, and the hardware
  // prefetcher does not run far enough ahead to cover that: so the next tile's input lines are
  // requested, a share after each instruction, and their reads overlap this tile's arithmetic
  // (the 16M-element chain a*b + c*2 - sqrt(abs(a)) went from 22-23 to 17-19 ms on one Zen 4
  // core). Spread out, not in one burst at the tile's start, which measured no faster.
  const char* exec(int64_t n, const char** ptr, char* scr, char* direct_out, const char* const* pf = nullptr,
                   int64_t pf_n = 0) const {
    if (fp_tracking())
      if (int fe = fp_status_take()) note_outside_fp(fe);
    for (size_t k = 0; k < code_.size(); ++k) {
      const Instr& ins = code_[k];
      bool last = k + 1 == code_.size() && ins.dst == result_;
      char* dst = (last && direct_out && !streaming_) ? direct_out : reg_buf(scr, ins.dst);
      if (ins.cast) {
        ins.cast(n, ptr[ins.src[0]], dst);
      } else if (ins.where_isz) {
        where_kernel(n, ptr[ins.src[0]], ptr[ins.src[1]], ptr[ins.src[2]], dst, ins.where_isz);
      } else {
        const char* srcs[3] = {ptr[ins.src[0]], ins.src[1] >= 0 ? ptr[ins.src[1]] : nullptr,
                               ins.src[2] >= 0 ? ptr[ins.src[2]] : nullptr};
        ins.fn(n, srcs, dst);
      }
      if (pf) {
        const int64_t K = static_cast<int64_t>(code_.size());
        for (size_t i = 0; i < in_.size(); ++i) {
          if (!pf[i]) continue;
          const int64_t lines = (pf_n * static_cast<int64_t>(in_[i].isz) + 63) / 64;
          const int64_t l0 = lines * static_cast<int64_t>(k) / K, l1 = lines * static_cast<int64_t>(k + 1) / K;
          for (int64_t l = l0; l < l1; ++l) __builtin_prefetch(pf[i] + l * 64, 0, 3);
        }
      }
      // after each instruction, so the warning names the ufunc that raised it (fp_status.h)
      if (fp_tracking())
        if (int fe = fp_status_take()) note_fused_fp(fe, ins.op, static_cast<int>(k));
      ptr[ins.dst] = dst;
    }
    return ptr[result_];
  }

 public:
  // Row by row on the calling thread (see run_fused_rows): one scratch lookup for all rows, no
  // pool dispatch per row; only the broadcast scalars (the row's own values) are refilled.
  void run_rows(char* const* inputs, const int64_t* in_step, char* output, int64_t out_step, int64_t nrows) {
    if (total_ == 0) return;
    char* row_in[64];
    const size_t nin = in_.size();
    if (copy_src_ >= 0 || blocked_ || out_.mode != Operand::Direct) {
      for (int64_t r = 0; r < nrows; ++r) {
        for (size_t i = 0; i < nin; ++i) row_in[i] = inputs[i] + r * in_step[i];
        run(row_in, output + r * out_step);
      }
      return;
    }
    char* scr = scratch();
    const int64_t ntiles = (total_ + kTile - 1) / kTile;
    for (int64_t r = 0; r < nrows; ++r) {
      for (size_t i = 0; i < nin; ++i) row_in[i] = inputs[i] + r * in_step[i];
      run_tiles(row_in, output + r * out_step, 0, ntiles, scr);
    }
  }

 private:
  void run_tiles(char* const* inputs, char* output, int64_t t0, int64_t t1) const {
    run_tiles(inputs, output, t0, t1, scratch());
  }

  // limit: the elements that exist (a row group's last unit may hold fewer rows than total_ has)
  void run_tiles(char* const* inputs, char* output, int64_t t0, int64_t t1, char* scr, int64_t limit = -1) const {
    const char* ptr[64];
    fill_scalars(inputs, scr, ptr);
    const int64_t end = std::min(t1 * kTile, limit < 0 ? total_ : limit);
    int64_t start = t0 * kTile;
    if (!f32_code_.empty() && !overlaps_output(inputs, output)) start = run_f32_blocks(inputs, output, start, end, scr, ptr);
    for (; start < end; start += kTile) run_tile(inputs, output, start, std::min(kTile, end - start), end, scr, ptr);
#if defined(__SSE2__)
    if (streaming_ && !unfenced_) _mm_sfence();  // streaming stores are weakly ordered: publish before returning
#endif
  }

  // Elements [start, start + n) through the tile interpreter; `end` bounds the next tile's prefetch.
  void run_tile(char* const* inputs, char* output, int64_t start, int64_t n, int64_t end, char* scr,
                const char** ptr) const {
    const int nin = static_cast<int>(in_.size());
    for (int i = 0; i < nin; ++i) {
      const Operand& op = in_[i];
      if (op.mode == Operand::Direct) {
        ptr[i] = inputs[i] + start * static_cast<int64_t>(op.isz);
      } else if (op.mode == Operand::Strided) {
        gather(inputs[i], dims_, op.strides, op.isz, start, n, reg_buf(scr, i));
        ptr[i] = reg_buf(scr, i);
      }
    }
    char* direct_out = out_.mode == Operand::Direct ? output + start * static_cast<int64_t>(out_.isz) : nullptr;
    const char* pfp[64];
    bool use_pf = false;
    if (prefetch_ && start + n < end) {
      for (int i = 0; i < nin; ++i) {
        pfp[i] = in_[i].mode == Operand::Direct ? inputs[i] + (start + n) * static_cast<int64_t>(in_[i].isz) : nullptr;
        use_pf |= pfp[i] != nullptr;
      }
    }
    const char* res = exec(n, ptr, scr, direct_out, use_pf ? pfp : nullptr, std::min(kTile, end - start - n));
    if (direct_out) {
      if (streaming_) stream_copy(direct_out, res, n * out_.isz);
      else if (res != direct_out) std::memcpy(direct_out, res, n * out_.isz);
    } else if (out_.mode == Operand::Scalar) {
      std::memcpy(output, res + (n - 1) * out_.isz, out_.isz);
    } else {
      scatter(res, dims_, out_.strides, out_.isz, start, n, output);
    }
  }

  // Whether the output shares bytes with a contiguous input: the block program's fallback for
  // errstate (below) recomputes a chunk, which needs the inputs intact.
  bool overlaps_output(char* const* inputs, const char* output) const {
    const size_t bytes = static_cast<size_t>(total_) * out_.isz;
    for (size_t i = 0; i < in_.size(); ++i)
      if (in_[i].mode == Operand::Direct && inputs[i] < output + bytes && output < inputs[i] + bytes) return true;
    return false;
  }

  // Elements from start on, in chunks of whole F32 blocks; returns where the tile interpreter takes
  // over (the last partial block, or everything after a chunk that raised an IEEE flag).
  // errstate names the operation that raised a flag (fp_blame.h), which a block program cannot
  // tell apart: a chunk that raised one is recomputed by the tile interpreter, which attributes it
  // per instruction and writes the same values, and the rest of the range stays there (sqrt of
  // many negatives pays for one extra chunk, not one per chunk).
  int64_t run_f32_blocks(char* const* inputs, char* output, int64_t start, int64_t end, char* scr,
                         const char** ptr) const {
    // elements between flag checks: each chunk is a program call (its decoding, the broadcast slots'
    // fill, an MXCSR read); 64K elements make that 1/64 of what 4096 did, and a chunk that raised a
    // flag costs one 256 KB tile pass more
    constexpr int64_t kChunk = 65536;
    const int nin = static_cast<int>(in_.size());
    float* out = reinterpret_cast<float*>(output);
    const bool stream = streaming_ && (reinterpret_cast<uintptr_t>(out + start) & 31) == 0;
    const bool track = fp_tracking();
    const float* in[kF32MaxSlots];
    while (end - start >= kF32Block) {
      const int64_t n = std::min(kChunk, (end - start) / kF32Block * kF32Block);
      for (int i = 0; i < nin; ++i)
        in[i] = reinterpret_cast<const float*>(inputs[i]) + (in_[i].mode == Operand::Direct ? start : 0);
      if (track)
        if (int fe = fp_status_take()) note_outside_fp(fe);
      f32_fn_(f32_code_.data(), static_cast<int>(f32_code_.size()), nin, in, f32_broadcast_.get(), out + start, n,
              stream);
      if (track && fp_status_take()) {
        for (int64_t s = start; s < start + n; s += kTile) run_tile(inputs, output, s, std::min(kTile, start + n - s), end, scr, ptr);
        return start + n;
      }
      start += n;
    }
    return start;
  }
  // Broadcasts along rows: the output's last axis is contiguous and every input either walks it
  // contiguously (x, or a row vector r of shape (1, C): outer strides 0) or holds one value per
  // row (a column vector c of shape (R, 1): last stride 0). Gathering such operands into tiles and
  // scattering the result cost 2-3x the arithmetic (x * c ran at 0.3x numpy). Instead a work unit
  // is a group of k consecutive rows (along the innermost outer dim) run by the 1-d program row_
  // over k * C elements, its inputs read in place where they can be:
  //  - k == 1 (long rows): x and r are read in place, c is a broadcast scalar refilled per row
  //    (the path a row region's per-row values take), long rows split into chunks of columns;
  //  - k > 1 (short rows, where a call per row would cost more than its work): x is read in place
  //    when its k rows are contiguous, r is repeated k times into a buffer once (refilled only
  //    when it moves, as for (B, 1, C)), c is expanded to k runs of C values per group.
  // The result is written in place, through the f32 block program where it applies.
  //  - an input whose rows are strided (x[:, ::2], x[:, ::-1], inner stride other than 0 and 1)
  //    is gathered chunk by chunk (kRowGatherChunk elements, in L1) with the ISA's column kernel
  //    (whole-vector loads for strides 2 and -1) and the row program reads the chunk as contiguous,
  //    which lets the f32 block program run it. A/B in one process against the gathered tiles
  //    (MNN_FUSED_NO_ROW_GATHER=1), 4096x2048 float32, one Zen 4 core, medians of 31:
  //    x[:, ::-1] * 2 5.3 ms against 8.3; x[:, ::2] * 2, int32 x[:, ::2] + 1 and
  //    x[:, ::2].astype(float64) within 3% either way (both paths use the same column kernel).
  enum RowKind : uint8_t { kRowDirect, kRowRepeat, kRowExpand, kRowScalar, kRowGather };
  static constexpr int64_t kRowGatherChunk = 8 * kTile;

  bool plan_rows(const FusedProgram& p, bool stream_unfenced) {
    const int nd = static_cast<int>(dims_.size());
    if (nd < 2 || out_.mode != Operand::Strided || out_.strides[nd - 1] != 1 ||
        std::getenv("MNN_FUSED_NO_ROWS"))  // the A/B switch for benchmarks and bisecting
      return false;
    const int nin = static_cast<int>(in_.size());
    const int64_t C = dims_[nd - 1], inner = dims_[nd - 2];
    // k rows in one run: the output's and every moving input's rows must follow each other
    bool groupable = stride_at(out_, nd - 2) == C, any_gather = false;
    std::vector<RowKind> kind(nin, kRowScalar);
    for (int i = 0; i < nin; ++i) {
      if (in_[i].mode == Operand::Scalar) continue;
      const int64_t last = in_[i].strides[nd - 1], s2 = stride_at(in_[i], nd - 2);
      const bool gathered = last != 0 && last != 1;
      if (gathered && (in_[i].isz > 8 || std::getenv("MNN_FUSED_NO_ROW_GATHER"))) return false;
      kind[i] = gathered ? kRowGather : last == 0 ? kRowExpand : s2 == 0 ? kRowRepeat : kRowDirect;
      groupable &= kind[i] != kRowDirect || s2 == C;
      groupable &= !gathered;  // one row at a time, chunk by chunk
      any_gather |= gathered;
    }
    outer_dims_.assign(dims_.begin(), dims_.end() - 1);
    outer_strides_.assign(nin + 1, std::vector<int64_t>(nd - 1, 0));
    for (int i = 0; i <= nin; ++i)
      for (int d = 0; d < nd - 1; ++d) outer_strides_[i][d] = stride_at(i < nin ? in_[i] : out_, d);
    // a large result leaves with streaming stores, fenced once per thread (not once per row)
    streaming_ = stream_unfenced || total_ * static_cast<int64_t>(out_.isz) >= kStreamingBytes;
    unfenced_ = stream_unfenced;
    // Group sizes measured on Zen 4 (x * c, x * r, (x - c) * r + 1 over C = 16..1024): the tile
    // interpreter is fastest at groups of one tile, the f32 block program at twice that; larger
    // groups push the expanded operands out of L1. Rows of more than half a group run one by one.
    auto group_rows = [&](int64_t elems) {
      return groupable ? std::max<int64_t>(1, std::min(inner, elems / C)) : int64_t(1);
    };
    const char* env = std::getenv("MNN_ROW_GROUP");  // the A/B switch for the group size
    int64_t k = group_rows(env ? std::atoll(env) : kTile);
    if (k == 1 && C < kRowMin) return false;  // a call per short row costs more than the gathered tiles
    build_row_kernel(p, kind, k, C);
    if (!env && !row_->f32_code_.empty() && group_rows(2 * kTile) != k) build_row_kernel(p, kind, group_rows(2 * kTile), C);
    row_tiles_ = (rows_per_ * C + kTile - 1) / kTile;
    chunk_tiles_ = rows_per_ > 1 ? row_tiles_ : std::max<int64_t>(1, (any_gather ? kRowGatherChunk : kRowChunk) / kTile);
    row_chunks_ = (row_tiles_ + chunk_tiles_ - 1) / chunk_tiles_;
    groups_ = (inner + rows_per_ - 1) / rows_per_;
    row_units_ = total_ / (C * inner) * groups_ * row_chunks_;
    return true;
  }

  static int64_t stride_at(const Operand& op, int d) { return op.mode == Operand::Strided ? op.strides[d] : 0; }

  // row_: the program over groups of k rows of C elements, each input read as `kind` says.
  void build_row_kernel(const FusedProgram& p, std::vector<RowKind> kind, int64_t k, int64_t C) {
    const int nin = static_cast<int>(in_.size());
    const int no = static_cast<int>(outer_dims_.size());
    FusedProgram q = p;
    q.row_values.assign(nin, 0);
    int64_t moving_bytes = 0;
    for (int i = 0; i < nin; ++i) {
      bool varies = false;  // along the outer dims: a per-row value (numpy keeps x's NaN in x + c)
      for (int d = 0; d < no; ++d) varies |= outer_strides_[i][d] != 0;
      if (k == 1 && kind[i] == kRowExpand) kind[i] = kRowScalar;  // one value per row
      q.inputs[i].shape = {k * C};
      q.inputs[i].strides = {kind[i] == kRowScalar ? 0 : 1};  // (a gathered chunk is contiguous)
      q.row_values[i] = (i < static_cast<int>(p.row_values.size()) && p.row_values[i]) ||
                        (kind[i] == kRowScalar && varies);
      moving_bytes += kind[i] == kRowDirect ? total_ * static_cast<int64_t>(in_[i].isz) : 0;
    }
    q.output.shape = {k * C};
    q.output.strides = {1};
    row_ = std::make_unique<FusedKernel>(q, streaming_);
    // the row program alone sees one group's bytes: whether its tiles prefetch is the whole call's
    row_->prefetch_ = row_->copy_src_ < 0 && !row_->code_.empty() && moving_bytes >= kPrefetchBytes;
    has_gather_ = std::find(kind.begin(), kind.end(), kRowGather) != kind.end();
    row_kind_ = std::move(kind);
    rows_per_ = k;
    row_len_ = C;
  }

  template <class U>
  static void expand_as(char* dst, const char* src, int64_t stride, int64_t k, int64_t C) {
    U* d = reinterpret_cast<U*>(dst);
    const U* s = reinterpret_cast<const U*>(src);
    for (int64_t r = 0; r < k; ++r, d += C) std::fill(d, d + C, s[r * stride]);
  }
  // dst = k runs of C copies of src[r * stride] (a column vector's values for a group of rows).
  static void expand(char* dst, const char* src, int64_t stride, int64_t k, int64_t C, size_t isz) {
    switch (isz) {
      case 1: expand_as<uint8_t>(dst, src, stride, k, C); break;
      case 2: expand_as<uint16_t>(dst, src, stride, k, C); break;
      case 4: expand_as<uint32_t>(dst, src, stride, k, C); break;
      case 8: expand_as<uint64_t>(dst, src, stride, k, C); break;
      default: expand_as<Bytes16>(dst, src, stride, k, C); break;
    }
  }

  void run_row_units(char* const* inputs, char* output, int64_t u0, int64_t u1) const {
    char* scr = row_->scratch();
    const int nin = static_cast<int>(in_.size());
    const int no = static_cast<int>(outer_dims_.size());
    const int64_t k = rows_per_, C = row_len_, inner = outer_dims_[no - 1];
    char* bufs = nullptr;  // k > 1: a group's repeated and expanded inputs, one slot per input
    const size_t slot = static_cast<size_t>(k * C) * 16 + 64;
    if (k > 1) {
      thread_local std::vector<char> buf;
      if (buf.size() < slot * nin + 64) buf.resize(slot * nin + 64);
      bufs = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(buf.data()) + 63) & ~uintptr_t(63));
    }
    char* gather_buf = nullptr;  // gathered inputs: a chunk of up to 8-byte elements per input
    if (has_gather_) {
      thread_local std::vector<char> gbuf;
      const size_t need = static_cast<size_t>(kRowGatherChunk) * 8 * nin + 64;
      if (gbuf.size() < need) gbuf.resize(need);
      gather_buf = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(gbuf.data()) + 63) & ~uintptr_t(63));
    }
    const char* repeated[64] = {};  // which row each repeat buffer holds
    int64_t rep_k[64] = {};
    char* rin[64];
    for (int64_t u = u0; u < u1; ++u) {
      const int64_t chunk = u % row_chunks_;
      int64_t rest = u / row_chunks_;
      const int64_t r0 = rest % groups_ * k, kk = std::min(k, inner - r0);
      rest /= groups_;
      int64_t off[65] = {};
      for (int i = 0; i <= nin; ++i) off[i] = r0 * outer_strides_[i][no - 1];
      for (int d = no - 2; d >= 0; --d) {
        const int64_t idx = rest % outer_dims_[d];
        rest /= outer_dims_[d];
        for (int i = 0; i <= nin; ++i) off[i] += idx * outer_strides_[i][d];
      }
      for (int i = 0; i < nin; ++i) {
        const size_t isz = in_[i].isz;
        char* src = inputs[i] + off[i] * static_cast<int64_t>(isz);
        rin[i] = src;
        if (row_kind_[i] == kRowGather) {
          // this chunk's elements into the input's L1 buffer; rin points where element 0 would be,
          // so the row program's element offsets land in the buffer
          const int64_t e0 = chunk * chunk_tiles_ * kTile, ne = std::min(C - e0, chunk_tiles_ * kTile);
          char* b = gather_buf + static_cast<size_t>(kRowGatherChunk) * 8 * i;
          const int64_t last = in_[i].strides[in_[i].strides.size() - 1];
          copy_2d(src + e0 * last * static_cast<int64_t>(isz), 0, last, b, 0, 1, 1, ne, isz);
          rin[i] = b - e0 * static_cast<int64_t>(isz);
          continue;
        }
        if (k == 1 || row_kind_[i] == kRowDirect || row_kind_[i] == kRowScalar) continue;
        char* b = bufs + slot * i;
        rin[i] = b;
        if (row_kind_[i] == kRowExpand) {
          expand(b, src, outer_strides_[i][no - 1], kk, C, isz);
        } else if (repeated[i] != src || rep_k[i] < kk) {
          for (int64_t r = 0; r < kk; ++r) std::memcpy(b + r * C * isz, src, C * isz);
          repeated[i] = src;
          rep_k[i] = kk;
        }
      }
      const int64_t t0 = chunk * chunk_tiles_;
      row_->run_tiles(rin, output + off[nin] * static_cast<int64_t>(out_.isz), t0,
                      std::min(row_tiles_, t0 + chunk_tiles_), scr, kk * C);
    }
#if defined(__SSE2__)
    if (streaming_ && !unfenced_) _mm_sfence();  // the row kernel streams unfenced: publish before returning
#endif
  }

  // Transposed operands: tiles are 2-D blocks over (bi_dim_, last dim), so an operand that walks
  // bi_dim_ contiguously is moved with block transposes (copy_2d) instead of one column at a
  // time. Inside a block elements are row-major (i outer, j inner), like any other tile.
  void plan_blocks() {
    const int nd = static_cast<int>(dims_.size());
    if (nd < 2 || total_ <= kTile) return;
    const int j = nd - 1;
    auto transposed_dim = [&](const Operand& op) {
      if (op.mode != Operand::Strided || std::llabs(op.strides[j]) <= 1) return -1;
      int best = -1;
      for (int k = 0; k < j; ++k)
        if (op.strides[k] != 0 && (best < 0 || std::llabs(op.strides[k]) < std::llabs(op.strides[best]))) best = k;
      return best >= 0 && std::llabs(op.strides[best]) < std::llabs(op.strides[j]) ? best : -1;
    };
    int k = transposed_dim(out_);
    for (size_t i = 0; i < in_.size() && k < 0; ++i) k = transposed_dim(in_[i]);
    if (k < 0) return;
    blocked_ = true;
    bi_dim_ = k;
    // MNN_FUSED_NO_STREAM_ROWS=1 (read when a plan is built): the A/B switch for the streamed rows
    stream_rows_ = out_.mode == Operand::Strided && out_.strides[j] == 1 && std::llabs(out_.strides[k]) != 1 &&
                   total_ * static_cast<int64_t>(out_.isz) >= kStreamingBytes && !std::getenv("MNN_FUSED_NO_STREAM_ROWS");
    for (int q = 0; q < j; ++q)
      if (q != k) outer_.push_back(q);
    // A block is one tile, as large as the register slots allow for the widest value the program
    // holds (kSlotBytes fits kTile elements of 16 bytes): each block pays the unit's bookkeeping,
    // one copy_2d call per transposed input and one program dispatch, which at 512 float32
    // elements cost as much as the transpose itself (x.T * 2 on 512x512 float32 in cache, thread
    // time min of 101: 112 us at 512 elements, 98 at 1024, 86 at 2048; x * 2 takes 31 us). Past
    // the caches the larger block also reads 256-byte segments of each transposed row, not 64:
    // x.T * 2 over 4096x2048 float32, one Zen 4 core, A/B interleaved in one process (min of 31):
    // 13.0 ms (median 19.6) at 512 elements, 4.4 ms (median 4.9-6.5) at 2048. Walking the blocks
    // along the contiguous input dim first instead measured 5.0-5.1 ms.
    // Every buffer a block fills lives in a register slot: the registers, and the inputs gathered
    // (Strided) or filled with a broadcast value (Scalar read as a tile, as where's branches are).
    size_t widest = out_.isz;
    for (size_t r : reg_isz_) widest = std::max(widest, r);
    for (const Operand& op : in_)
      if (op.mode != Operand::Direct) widest = std::max(widest, op.isz);
    const char* env = std::getenv("MNN_BLOCK_ELEMS");  // the A/B switch for the block size
    const int64_t elems = std::min<int64_t>(env ? std::max<int64_t>(1, std::atoll(env)) : 4 * kTile,
                                            kTile * 16 / static_cast<int64_t>(std::max<size_t>(widest, 1)));
    fill_elems_ = std::max(kTile, elems);
    const int64_t di = dims_[k], dj = dims_[j], B = 32;  // blocks of elems / 32 x 32 elements
    bj_ = std::min(dj, B);
    bi_ = std::min(di, elems / bj_);
    if (bi_ < B) bj_ = std::min(dj, elems / bi_);
    nbi_ = (di + bi_ - 1) / bi_;
    nbj_ = (dj + bj_ - 1) / bj_;
    units_ = nbi_ * nbj_;
    for (int q : outer_) units_ *= dims_[q];
  }

  void run_blocks(char* const* inputs, char* output, int64_t u0, int64_t u1) const {
    char* scr = scratch();
    const char* ptr[64];
    const int nin = static_cast<int>(in_.size());
    const int j = static_cast<int>(dims_.size()) - 1, ki = bi_dim_;
    fill_scalars(inputs, scr, ptr);
    int64_t off[65];
    for (int64_t u = u0; u < u1; ++u) {
      int64_t rest = u;
      int64_t j0 = rest % nbj_ * bj_;
      rest /= nbj_;
      int64_t i0 = rest % nbi_ * bi_;
      rest /= nbi_;
      int64_t ni = std::min(bi_, dims_[ki] - i0), nj = std::min(bj_, dims_[j] - j0);
      for (int i = 0; i <= nin; ++i) {
        const Operand& op = i < nin ? in_[i] : out_;
        off[i] = i0 * (op.mode == Operand::Strided ? op.strides[ki] : 0) +
                 j0 * (op.mode == Operand::Strided ? op.strides[j] : 0);
      }
      for (int q = static_cast<int>(outer_.size()) - 1; q >= 0; --q) {
        int d = outer_[q];
        int64_t idx = rest % dims_[d];
        rest /= dims_[d];
        for (int i = 0; i <= nin; ++i) {
          const Operand& op = i < nin ? in_[i] : out_;
          if (op.mode == Operand::Strided) off[i] += idx * op.strides[d];
        }
      }
      for (int i = 0; i < nin; ++i) {
        const Operand& op = in_[i];
        if (op.mode != Operand::Strided) continue;
        char* b = reg_buf(scr, i);
        copy_2d(inputs[i] + off[i] * static_cast<int64_t>(op.isz), op.strides[ki], op.strides[j], b, nj, 1, ni, nj,
                op.isz);
        ptr[i] = b;
      }
      const char* res = exec(ni * nj, ptr, scr, nullptr);
      if (out_.mode == Operand::Scalar) {
        std::memcpy(output, res + (ni * nj - 1) * out_.isz, out_.isz);
      } else if (stream_rows_) {
        // a large result with contiguous rows: each block row leaves with streaming stores
        char* o = output + off[nin] * static_cast<int64_t>(out_.isz);
        const int64_t step = out_.strides[ki] * static_cast<int64_t>(out_.isz);
        for (int64_t r = 0; r < ni; ++r) stream_copy(o + r * step, res + r * nj * out_.isz, nj * out_.isz);
      } else {
        copy_2d(res, nj, 1, output + off[nin] * static_cast<int64_t>(out_.isz), out_.strides[ki], out_.strides[j],
                ni, nj, out_.isz);
      }
    }
#if defined(__SSE2__)
    if (stream_rows_) _mm_sfence();  // streaming stores are weakly ordered: publish before returning
#endif
  }

  std::vector<int64_t> dims_;
  int64_t total_;
  std::vector<Operand> in_;
  Operand out_;
  std::vector<Instr> code_;
  std::vector<size_t> reg_isz_;
  int nregs_ = 0;
  int result_ = 0;
  int64_t fill_elems_ = kTile;     // elements of a broadcast value filled into its slot (run_blocks: more)
  std::vector<char> needs_fill_;  // per input: a broadcast value some instruction reads as a tile
  std::vector<char> row_value_;   // per input: a row region's per-row value (FusedProgram::row_values)
  bool streaming_ = false;
  bool unfenced_ = false;  // streaming stores the caller fences (prepare_fused_streaming)
  bool prefetch_ = false;
  F32ProgramFn f32_fn_ = nullptr;
  std::vector<F32Instr> f32_code_;          // empty: the program runs as tiles only
  std::unique_ptr<bool[]> f32_broadcast_;  // per input: read as one value
  int copy_src_ = -1;
  StridedCopy copy_;
  bool blocked_ = false;
  bool stream_rows_ = false;  // blocked: the result's block rows are contiguous and streamed
  int bi_dim_ = -1;
  std::vector<int> outer_;
  int64_t bi_ = 1, bj_ = 1, nbi_ = 1, nbj_ = 1, units_ = 0;
  // row broadcasts (plan_rows): the one-row program and how rows map to the operands
  std::unique_ptr<FusedKernel> row_;
  std::vector<int64_t> outer_dims_;                 // dims_ without the last
  std::vector<std::vector<int64_t>> outer_strides_;  // per input, then the output: over outer_dims_
  std::vector<RowKind> row_kind_;                   // per input: how a unit reads it
  bool has_gather_ = false;                         // some input is kRowGather
  int64_t row_len_ = 0, rows_per_ = 1, groups_ = 1, row_tiles_ = 0, chunk_tiles_ = 1, row_chunks_ = 1, row_units_ = 0;
};

}  // namespace

void run_fused_rows(backend::Kernel& kernel, char* const* inputs, const int64_t* in_row_bytes, char* output,
                    int64_t out_row_bytes, int64_t nrows) {
  static_cast<FusedKernel&>(kernel).run_rows(inputs, in_row_bytes, output, out_row_bytes, nrows);
}

std::unique_ptr<backend::Kernel> prepare_fused(const FusedProgram& program) {
  if (program.inputs.size() + program.code.size() > 64)
    throw NotImplementedError("[mnn.engine] fused program too large");
  return std::make_unique<FusedKernel>(program);
}

std::unique_ptr<backend::Kernel> prepare_fused_streaming(const FusedProgram& program) {
  if (program.inputs.size() + program.code.size() > 64)
    throw NotImplementedError("[mnn.engine] fused program too large");
  return std::make_unique<FusedKernel>(program, true);
}


// ---- errstate attribution (fp_blame.h) ----
namespace {
std::atomic<int> g_fused_flags{0};
std::atomic<int> g_fused_op[3] = {-1, -1, -1};
std::atomic<int> g_fused_pos[3] = {0, 0, 0};
}  // namespace

void set_fused_fp_tracking(bool on) { g_fp_tracking.store(on); }

bool op_can_raise(Op op, int cond) {
  switch (op) {
    case Op::Divide: case Op::FloorDivide: case Op::Reciprocal: case Op::Power: case Op::Cast:
      return true;
    case Op::Remainder: case Op::Fmod:
    case Op::Log: case Op::Log2: case Op::Log10: case Op::Log1p: case Op::Arctanh:
      return cond != 1;
    case Op::Sqrt: case Op::Arcsin: case Op::Arccos: case Op::Arccosh: case Op::Sin: case Op::Cos: case Op::Tan:
      return cond == 2;
    case Op::Exp: case Op::Exp2: case Op::Expm1: case Op::Sinh: case Op::Cosh:
      return cond == 1;
    case Op::Square: case Op::Multiply: case Op::Add: case Op::Subtract:
      return cond != 0;
    default:
      return false;
  }
}

void note_fused_fp(int fe, Op op, int pos) {
  const int bits[3] = {FE_DIVBYZERO, FE_OVERFLOW, FE_INVALID};
  for (int c = 0; c < 3; ++c) {
    if (!(fe & bits[c]) || !op_can_raise(op, c)) continue;
    // reads first: every tile of sqrt(negatives) lands here, and writes would bounce the line
    if (!(g_fused_flags.load(std::memory_order_relaxed) & bits[c])) g_fused_flags.fetch_or(bits[c], std::memory_order_relaxed);
    int expect = -1;
    if (g_fused_op[c].load(std::memory_order_relaxed) == -1 &&
        g_fused_op[c].compare_exchange_strong(expect, static_cast<int>(op)))
      g_fused_pos[c].store(pos);
  }
}

FusedFpBlame take_fused_fp() {
  FusedFpBlame b;
  b.flags = g_fused_flags.exchange(0);
  b.outside = g_outside_flags.exchange(0);
  for (int c = 0; c < 3; ++c) {
    b.pos[c] = g_fused_pos[c].load();
    b.op[c] = g_fused_op[c].exchange(-1);
  }
  return b;
}

}  // namespace mnn::cpu
