// In-place AVX2 quicksort of 32-bit rows (vector_quicksort.cpp), used by the sort kernel where
// the CPU has AVX2: faster than the radix sort on long rows, whose scatter passes are bound by
// TLB misses on hosts with 4 KiB pages.
//
// The result equals a stable sort's: integers have no distinguishable equal values, and for
// floats the only ones (the signs of zeros, NaN payloads) are put back in input order.
#pragma once
#include <cstdint>

namespace mnn::cpu::sorting {

// True on an x86 CPU with AVX2 unless MNN_ISA caps the engine below AVX2.
bool vector_sort_available();

// Ascending in numpy's order (NaNs last, -0.0 equal to +0.0). threads > 1 splits a long row
// into ranges sorted on the thread pool.
void vector_sort(float* a, int64_t n, int threads);
// The same for src[0..n) written to dst (which may be src): the copy is part of the first pass.
void vector_sort_copy(const float* src, float* dst, int64_t n, int threads);
void vector_sort_copy(const int32_t* src, int32_t* dst, int64_t n, int threads);
void vector_sort_copy(const uint32_t* src, uint32_t* dst, int64_t n, int threads);
void vector_sort(int32_t* a, int64_t n, int threads);
void vector_sort(uint32_t* a, int64_t n, int threads);

}  // namespace mnn::cpu::sorting
