// Strided data movement shared by CPU kernels: dimension coalescing and gather/scatter of a run
// of elements between an N-d strided layout and a contiguous tile.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mnn::cpu {

// Merges adjacent dims that every operand walks contiguously and drops size-1 dims. `strides`
// holds one element-stride vector per operand, all for `dims`; all are rewritten in place.
void coalesce(std::vector<int64_t>& dims, std::vector<std::vector<int64_t>*> strides);

// Copies elements [start, start+n) (flat row-major index over dims) from a strided layout into a
// contiguous buffer, or back (scatter).
void gather(const char* base, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t itemsize,
            int64_t start, int64_t n, char* dst);
void scatter(const char* src, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t itemsize,
             int64_t start, int64_t n, char* base);

}  // namespace mnn::cpu
