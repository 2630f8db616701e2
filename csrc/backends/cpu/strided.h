// Strided data movement shared by CPU kernels: dimension coalescing, gather/scatter of a run of
// elements between an N-d strided layout and a contiguous tile, and cache-blocked N-d copies
// (transposes, broadcasts, windows) between two strided layouts.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mnn::cpu {

// Destinations past this size do not fit in the last-level cache: kernels write them with
// streaming stores, which skip the read-for-ownership of every destination line.
constexpr int64_t kStreamingBytes = 8 << 20;


// Merges adjacent dims that every operand walks contiguously and drops size-1 dims. `strides`
// holds one element-stride vector per operand, all for `dims`; all are rewritten in place.
void coalesce(std::vector<int64_t>& dims, std::vector<std::vector<int64_t>*> strides);

// Copies elements [start, start+n) (flat row-major index over dims) from a strided layout into a
// contiguous buffer, or back (scatter).
void gather(const char* base, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t itemsize,
            int64_t start, int64_t n, char* dst);
void scatter(const char* src, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t itemsize,
             int64_t start, int64_t n, char* base);

// dst[a*d_i + b*d_j] = src[a*s_i + b*s_j] for a < ni, b < nj (element strides, any sign; src
// strides may be 0). One cache-sized block: SIMD transposes where one side is contiguous along
// a and the other along b, row copies or fills where both run along the same axis.
void copy_2d(const char* src, int64_t s_i, int64_t s_j, char* dst, int64_t d_i, int64_t d_j, int64_t ni, int64_t nj,
             size_t itemsize);

// A prepared N-d strided copy (MNN's onResize/onExecute split): dst[idx] = src[idx] over `dims`.
// Plans once which two dims to block (a transpose: the destination's inner dim against the
// dim the source walks contiguously) and how to cut the work, then runs on the thread pool.
// Large destinations written contiguously use streaming stores. src and dst must not overlap
// unless they are the same memory with the same layout.
class StridedCopy {
 public:
  StridedCopy() = default;
  StridedCopy(std::vector<int64_t> dims, std::vector<int64_t> src_strides, std::vector<int64_t> dst_strides,
              size_t itemsize);
  void run(const char* src, char* dst) const;
  // Runs work units [u0, u1) on the calling thread (run() splits units over the pool).
  void run_units(const char* src, char* dst, int64_t u0, int64_t u1) const;
  int64_t units() const { return units_; }

 private:
  std::vector<int64_t> dims_, ss_, ds_;  // coalesced
  std::vector<int> outer_;               // dims walked by the unit counter, innermost last
  size_t isz_ = 0;
  int64_t total_ = 0;
  bool blocked_ = false;                 // 2-D blocks over (bi_dim_, last dim)
  bool streaming_ = false;
  bool stream_blocks_ = false;           // blocked transpose of a large result: through L1 scratch
  int bi_dim_ = -1;
  int64_t bi_ = 1, bj_ = 1, nbi_ = 1, nbj_ = 1;
  int64_t units_ = 0, grain_ = 1;

  // Unit u's source and destination element offsets and its block extents.
  void unit_at(int64_t u, int64_t& so, int64_t& dof, int64_t& ni, int64_t& nj) const;
  void run_stream_blocks(const char* src, char* dst, int64_t u0, int64_t u1) const;
};

}  // namespace mnn::cpu
