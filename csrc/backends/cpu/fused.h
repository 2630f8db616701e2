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

// The same, writing a contiguous output with streaming stores at any size and without the fence
// after them: the caller fences once when all its calls are done (a row region streams its result
// row by row, where a fence per row would wait for each row's stores to drain).
std::unique_ptr<backend::Kernel> prepare_fused_streaming(const backend::FusedProgram& program);

// Runs a kernel made by prepare_fused once per row on the calling thread: operand i of row r
// lies at inputs[i] + r * in_row_bytes[i], the result at output + r * out_row_bytes. A row
// region's per-row steps use it (a per-row value is a broadcast scalar to the program), where
// calling run() per row paid a pool dispatch and a thread-local lookup each time.
void run_fused_rows(backend::Kernel& kernel, char* const* inputs, const int64_t* in_row_bytes, char* output,
                    int64_t out_row_bytes, int64_t nrows);

}  // namespace mnn::cpu
