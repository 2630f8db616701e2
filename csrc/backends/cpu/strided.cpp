#include "backends/cpu/strided.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "backends/cpu/simd/kernel_table.h"
#include "core/threadpool.h"

namespace mnn::cpu {

// complex128 elements: moved as two words.
struct Bytes16 {
  uint64_t lo, hi;
};

void coalesce(std::vector<int64_t>& dims, std::vector<std::vector<int64_t>*> strides) {
  std::vector<int64_t> nd;
  std::vector<std::vector<int64_t>> ns(strides.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (!nd.empty()) {
      bool merge = true;
      for (size_t k = 0; k < strides.size(); ++k)
        if (ns[k].back() != (*strides[k])[i] * dims[i]) { merge = false; break; }
      if (merge) {
        nd.back() *= dims[i];
        for (size_t k = 0; k < strides.size(); ++k) ns[k].back() = (*strides[k])[i];
        continue;
      }
    }
    nd.push_back(dims[i]);
    for (size_t k = 0; k < strides.size(); ++k) ns[k].push_back((*strides[k])[i]);
  }
  dims = nd;
  for (size_t k = 0; k < strides.size(); ++k) *strides[k] = ns[k];
}

namespace {

inline int log2_size(size_t isz) { return isz == 1 ? 0 : isz == 2 ? 1 : isz == 4 ? 2 : 3; }

// dst[r] = src[r * stride], r < n: a transpose of one column (simd/transpose_kernels.cpp).
inline void gather_run(const char* src, int64_t stride, char* dst, int64_t n, size_t isz) {
  kernels().transpose[log2_size(isz)](src, stride, dst, 1, n, 1);
}

template <class T, bool Gather>
void move_run(char* strided, int64_t stride, char* contig, int64_t n) {
  T* s = reinterpret_cast<T*>(strided);
  T* c = reinterpret_cast<T*>(contig);
  if (stride == 1) {
    if (Gather) std::memcpy(c, s, n * sizeof(T));
    else std::memcpy(s, c, n * sizeof(T));
    return;
  }
  if (Gather) {
    // the ISA's column kernel: whole-vector loads for strides 2 and -1 (x[:, ::2], x[:, ::-1])
    if (sizeof(T) <= 8 && n >= 8 && (stride == 2 || stride == -1)) return gather_run(strided, stride, contig, n, sizeof(T));
    for (int64_t i = 0; i < n; ++i) c[i] = s[i * stride];
  } else {
    for (int64_t i = 0; i < n; ++i) s[i * stride] = c[i];
  }
}

template <bool Gather>
void walk(char* base, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t isz,
          int64_t start, int64_t n, char* contig) {
  int nd = static_cast<int>(dims.size());
  if (nd == 0) {
    if (n > 0) Gather ? std::memcpy(contig, base, isz) : std::memcpy(base, contig, isz);
    return;
  }
  int64_t idx[64];  // numpy caps ndim at 64
  int64_t rem = start, off = 0;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rem % dims[d];
    rem /= dims[d];
    off += idx[d] * strides[d];
  }
  int64_t inner = dims[nd - 1], istride = strides[nd - 1];
  while (n > 0) {
    int64_t run = std::min(n, inner - idx[nd - 1]);
    char* p = base + off * static_cast<int64_t>(isz);
    switch (isz) {
      case 1: move_run<uint8_t, Gather>(p, istride, contig, run); break;
      case 2: move_run<uint16_t, Gather>(p, istride, contig, run); break;
      case 4: move_run<uint32_t, Gather>(p, istride, contig, run); break;
      case 8: move_run<uint64_t, Gather>(p, istride, contig, run); break;
      default: move_run<Bytes16, Gather>(p, istride, contig, run); break;
    }
    contig += run * isz;
    n -= run;
    off += run * istride;
    idx[nd - 1] += run;
    for (int d = nd - 1; d > 0 && idx[d] == dims[d]; --d) {
      off -= idx[d] * strides[d];
      idx[d] = 0;
      ++idx[d - 1];
      off += strides[d - 1];
    }
  }
}

}  // namespace

void gather(const char* base, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t itemsize,
            int64_t start, int64_t n, char* dst) {
  walk<true>(const_cast<char*>(base), dims, strides, itemsize, start, n, dst);
}

void scatter(const char* src, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t itemsize,
             int64_t start, int64_t n, char* base) {
  walk<false>(base, dims, strides, itemsize, start, n, const_cast<char*>(src));
}

namespace {

// Element loops for the layouts no kernel covers; the inner loop runs along the destination's
// smaller stride so writes stay close together.
template <class T>
void copy_2d_generic(const T* s, int64_t s_i, int64_t s_j, T* d, int64_t d_i, int64_t d_j, int64_t ni, int64_t nj) {
  if ((nj == 1 && ni > 1) || (ni > 1 && std::llabs(d_i) < std::llabs(d_j))) {
    std::swap(s_i, s_j);
    std::swap(d_i, d_j);
    std::swap(ni, nj);
  }
  for (int64_t a = 0; a < ni; ++a) {
    const T* sr = s + a * s_i;
    T* dr = d + a * d_i;
    if (s_j == 0 && d_j == 1) {
      std::fill(dr, dr + nj, *sr);
    } else if (d_j == 1) {
      for (int64_t b = 0; b < nj; ++b) dr[b] = sr[b * s_j];
    } else {
      for (int64_t b = 0; b < nj; ++b) dr[b * d_j] = sr[b * s_j];
    }
  }
}

// Streaming (non-temporal) row writes for destinations far larger than the caches: they skip
// the read-for-ownership of every destination line. Head and tail go through the cache.
void stream_row(char* dst, const char* src, int64_t s_stride, int64_t n, size_t isz) {
#if defined(__SSE2__)
  if (s_stride == 1 || s_stride == 0) {
    int64_t head = (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15;
    if (head % static_cast<int64_t>(isz) == 0 && n * static_cast<int64_t>(isz) >= head + 64) {
      head /= static_cast<int64_t>(isz);
      copy_2d(src, 0, s_stride, dst, 0, 1, 1, head, isz);
      dst += head * isz;
      src += head * s_stride * isz;
      n -= head;
      int64_t bytes = n * static_cast<int64_t>(isz), k = 0;
      if (s_stride == 1) {
        for (; k + 64 <= bytes; k += 64) {
          __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k));
          __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k + 16));
          __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k + 32));
          __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k + 48));
          _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k), a);
          _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k + 16), b);
          _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k + 32), c);
          _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k + 48), e);
        }
      } else {
        alignas(16) char pat[16];
        for (size_t q = 0; q < 16; q += isz) std::memcpy(pat + q, src, isz);
        __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(pat));
        for (; k + 16 <= bytes; k += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(dst + k), v);
      }
      int64_t done = k / static_cast<int64_t>(isz);
      copy_2d(src + done * s_stride * isz, 0, s_stride, dst + k, 0, 1, 1, n - done, isz);
      return;
    }
  }
#endif
  copy_2d(src, 0, s_stride, dst, 0, 1, 1, n, isz);
}

}  // namespace

// n rows of B bytes each, B a constant: the copies compile to a move or two each.
template <int B>
void copy_rows_of(const char* src, int64_t s_step, char* dst, int64_t d_step, int64_t n) {
  for (int64_t a = 0; a < n; ++a) std::memcpy(dst + a * d_step, src + a * s_step, B);
}

// n rows of `bytes` <= 16 bytes, `s_step` and `d_step` bytes apart.
void copy_short_rows(const char* src, int64_t s_step, char* dst, int64_t d_step, int64_t n, int64_t bytes) {
  switch (bytes) {
    case 1: return copy_rows_of<1>(src, s_step, dst, d_step, n);
    case 2: return copy_rows_of<2>(src, s_step, dst, d_step, n);
    case 3: return copy_rows_of<3>(src, s_step, dst, d_step, n);
    case 4: return copy_rows_of<4>(src, s_step, dst, d_step, n);
    case 6: return copy_rows_of<6>(src, s_step, dst, d_step, n);
    case 8: return copy_rows_of<8>(src, s_step, dst, d_step, n);
    case 12: return copy_rows_of<12>(src, s_step, dst, d_step, n);
    case 16: return copy_rows_of<16>(src, s_step, dst, d_step, n);
    default:
      for (int64_t a = 0; a < n; ++a) std::memcpy(dst + a * d_step, src + a * s_step, bytes);
  }
}

void copy_2d(const char* src, int64_t s_i, int64_t s_j, char* dst, int64_t d_i, int64_t d_j, int64_t ni, int64_t nj,
             size_t isz) {
  if (ni <= 0 || nj <= 0) return;
  const int64_t sz = static_cast<int64_t>(isz);
  if (s_j == 1 && d_j == 1) {
    const int64_t bytes = nj * sz;
    if (bytes <= 16 && ni > 1) return copy_short_rows(src, s_i * sz, dst, d_i * sz, ni, bytes);
    for (int64_t a = 0; a < ni; ++a) std::memcpy(dst + a * d_i * sz, src + a * s_i * sz, nj * isz);
    return;
  }
  if (s_i == 1 && d_i == 1) {
    for (int64_t b = 0; b < nj; ++b) std::memcpy(dst + b * d_j * sz, src + b * s_j * sz, ni * isz);
    return;
  }
  const KernelTable& k = kernels();
  // strided rows into contiguous rows (x[:, ::2], x[:, ::-1]): the column kernel per row
  if (isz <= 8 && d_j == 1 && (s_j == 2 || s_j == -1) && nj >= 8 && (ni == 1 || std::llabs(d_i) >= nj)) {
    for (int64_t a = 0; a < ni; ++a) k.transpose[log2_size(isz)](src + a * s_i * sz, s_j, dst + a * d_i * sz, 1, nj, 1);
    return;
  }
  if (isz <= 8 && s_i == 1 && d_j == 1) return k.transpose[log2_size(isz)](src, s_j, dst, d_i, nj, ni);
  if (isz <= 8 && s_j == 1 && d_i == 1) return k.transpose[log2_size(isz)](src, s_i, dst, d_j, ni, nj);
  switch (isz) {
    case 1: return copy_2d_generic(reinterpret_cast<const uint8_t*>(src), s_i, s_j, reinterpret_cast<uint8_t*>(dst), d_i, d_j, ni, nj);
    case 2: return copy_2d_generic(reinterpret_cast<const uint16_t*>(src), s_i, s_j, reinterpret_cast<uint16_t*>(dst), d_i, d_j, ni, nj);
    case 4: return copy_2d_generic(reinterpret_cast<const uint32_t*>(src), s_i, s_j, reinterpret_cast<uint32_t*>(dst), d_i, d_j, ni, nj);
    case 8: return copy_2d_generic(reinterpret_cast<const uint64_t*>(src), s_i, s_j, reinterpret_cast<uint64_t*>(dst), d_i, d_j, ni, nj);
    default: return copy_2d_generic(reinterpret_cast<const Bytes16*>(src), s_i, s_j, reinterpret_cast<Bytes16*>(dst), d_i, d_j, ni, nj);
  }
}

namespace {
constexpr int64_t kChunkBytes = 64 << 10;     // least work per thread-pool chunk
}  // namespace

StridedCopy::StridedCopy(std::vector<int64_t> dims, std::vector<int64_t> ss, std::vector<int64_t> ds, size_t isz)
    : dims_(std::move(dims)), ss_(std::move(ss)), ds_(std::move(ds)), isz_(isz) {
  coalesce(dims_, {&ss_, &ds_});
  total_ = 1;
  for (auto d : dims_) total_ *= d;
  const int nd = static_cast<int>(dims_.size());
  if (total_ == 0) return;
  if (nd == 0) {
    units_ = 1;
    return;
  }
  const int j = nd - 1;
  const int64_t sz = static_cast<int64_t>(isz);
  // The side that does not run along the inner dim decides the second blocked dim: the one it
  // walks with the smallest stride (unit stride: a plain transpose).
  if (!(ds_[j] == 1 && (ss_[j] == 1 || ss_[j] == 0)) && nd >= 2) {
    const std::vector<int64_t>& x = ds_[j] != 1 ? ds_ : ss_;
    int best = -1;
    for (int k = 0; k < j; ++k)
      if (x[k] != 0 && (best < 0 || std::llabs(x[k]) < std::llabs(x[best]))) best = k;
    if (best >= 0 && std::llabs(x[best]) < std::llabs(x[j])) {
      blocked_ = true;
      bi_dim_ = best;
    }
  }
  // Rows of a few bytes (the pixels of an HxWx3 image flipped left-right, x[:, ::-1] over
  // channels): one unit per row was ~13 ns of index arithmetic and a memcpy call per pixel
  // (4 ms for a 640x480x3 uint8 flip); as blocks over the next dim, a unit is a run of pixels
  // copied by fixed-size moves (copy_2d).
  if (!blocked_ && nd >= 2 && dims_[j] * sz <= 16 && ds_[j] == 1 && ss_[j] == 1 && dims_[j - 1] > 1) {
    blocked_ = true;
    bi_dim_ = j - 1;
  }
  for (int k = 0; k < j; ++k)
    if (k != bi_dim_) outer_.push_back(k);
  int64_t outer = 1;
  for (int k : outer_) outer *= dims_[k];
  const int64_t dj = dims_[j];
  if (blocked_) {
    // Square blocks of B x B elements (B*isz = 256 bytes: whole cache lines on both sides, a
    // block pair well inside L1/L2); a short dim gives its share to the other.
    const int64_t B = std::max<int64_t>(16, 256 / sz), di = dims_[bi_dim_];
    bj_ = std::min(dj, B);
    bi_ = std::min(di, std::max(B, B * B / bj_));
    if (bi_ < B) bj_ = std::min(dj, std::max(B, B * B / bi_));
    nbi_ = (di + bi_ - 1) / bi_;
    nbj_ = (dj + bj_ - 1) / bj_;
    // A transpose into a destination past the caches goes through L1 scratch (run_stream_blocks):
    // 128-byte destination segments (two whole lines, streamed) and 512-byte source segments (at
    // most 128 elements: 16 KB of scratch). Needs unit-stride rows on both sides and destination
    // rows of at least 128 bytes, so each segment is whole streamed lines.
    // MNN_TRANSPOSE_DIRECT=1 (read when a plan is built) keeps the direct path: the A/B switch.
    if (!std::getenv("MNN_TRANSPOSE_DIRECT") && ds_[j] == 1 && ss_[bi_dim_] == 1 && isz <= 8 && isz != 0 && (isz & (isz - 1)) == 0 &&
        total_ * sz >= kStreamingBytes && dj * sz >= 128) {
      stream_blocks_ = true;
      bj_ = 128 / sz;
      bi_ = std::min(di, std::min<int64_t>(512 / sz, 128));
      nbi_ = (di + bi_ - 1) / bi_;
      nbj_ = (dj + bj_ - 1) / bj_;
    }
    units_ = outer * nbi_ * nbj_;
    grain_ = std::max<int64_t>(1, kChunkBytes / (bi_ * bj_ * sz));
  } else {
    // Rows of the inner dim; long rows are cut so the pool can share them.
    bj_ = std::min(dj, std::max<int64_t>(64, (256 << 10) / sz));
    nbj_ = (dj + bj_ - 1) / bj_;
    units_ = outer * nbj_;
    grain_ = std::max<int64_t>(1, kChunkBytes / (bj_ * sz));
    streaming_ = ds_[j] == 1 && (ss_[j] == 1 || ss_[j] == 0) && total_ * sz >= kStreamingBytes;
  }
}

void StridedCopy::unit_at(int64_t u, int64_t& so, int64_t& dof, int64_t& ni, int64_t& nj) const {
  const int j = static_cast<int>(dims_.size()) - 1;
  int64_t rest = u, bi = 0, bj;
  if (stream_blocks_) {
    // source-contiguous blocks first: the next block continues the same source rows (which the
    // hardware prefetcher follows too) and the destination rows after them; walking down a
    // 512-byte column strip of the source instead took 1.4x the time (4096x4096 float32)
    bi = rest % nbi_;
    rest /= nbi_;
    bj = rest % nbj_;
    rest /= nbj_;
  } else {
    bj = rest % nbj_;
    rest /= nbj_;
    if (blocked_) {
      bi = rest % nbi_;
      rest /= nbi_;
    }
  }
  so = 0, dof = 0;
  for (int q = static_cast<int>(outer_.size()) - 1; q >= 0; --q) {
    const int k = outer_[q];
    const int64_t idx = rest % dims_[k];
    rest /= dims_[k];
    so += idx * ss_[k];
    dof += idx * ds_[k];
  }
  const int64_t j0 = bj * bj_;
  nj = std::min(bj_, dims_[j] - j0);
  so += j0 * ss_[j];
  dof += j0 * ds_[j];
  ni = 1;
  if (blocked_) {
    const int64_t i0 = bi * bi_;
    ni = std::min(bi_, dims_[bi_dim_] - i0);
    so += i0 * ss_[bi_dim_];
    dof += i0 * ds_[bi_dim_];
  }
}

void StridedCopy::run_units(const char* src, char* dst, int64_t u0, int64_t u1) const {
  const int64_t sz = static_cast<int64_t>(isz_);
  if (dims_.empty()) {
    std::memcpy(dst, src, isz_);
    return;
  }
  if (stream_blocks_) return run_stream_blocks(src, dst, u0, u1);
  const int j = static_cast<int>(dims_.size()) - 1;
  for (int64_t u = u0; u < u1; ++u) {
    int64_t so, dof, ni, nj;
    unit_at(u, so, dof, ni, nj);
    if (blocked_) {
      copy_2d(src + so * sz, ss_[bi_dim_], ss_[j], dst + dof * sz, ds_[bi_dim_], ds_[j], ni, nj, isz_);
    } else if (streaming_) {
      stream_row(dst + dof * sz, src + so * sz, ss_[j], nj, isz_);
    } else {
      copy_2d(src + so * sz, 0, ss_[j], dst + dof * sz, 0, ds_[j], 1, nj, isz_);
    }
  }
#if defined(__SSE2__)
  if (streaming_) _mm_sfence();  // streaming stores are weakly ordered: publish before returning
#endif
}

// A transpose whose destination is far larger than the caches. Written straight from the block
// kernel, each destination line fills a few elements at a time from different micro-tiles, so it
// is read for ownership, and evicted lines go back to memory half written; the source walks 64
// rows of 256 bytes, too short for the hardware prefetcher to follow. Here each block is transposed
// into L1 scratch, then its destination segments leave with streaming stores (whole lines, no
// read for ownership), and while they drain the next block's source lines are prefetched, a
// share after each segment. 4096x4096 float32, one Zen 3 core, thread-time medians
// (benchmarks/native/transpose_stream_ab.cpp): direct 26 ms, scratch 11 ms (17 ms without the
// prefetch), memcpy of the same 64 MB 10 ms; in mnn.numpy.ascontiguousarray(x.T), A/B in one
// process with MNN_TRANSPOSE_DIRECT=1: 20-26 ms before, 11-16 ms after.
void StridedCopy::run_stream_blocks(const char* src, char* dst, int64_t u0, int64_t u1) const {
  const int64_t sz = static_cast<int64_t>(isz_);
  const int j = static_cast<int>(dims_.size()) - 1;
  const int64_t s_j = ss_[j], d_i = ds_[bi_dim_];
  const TransposeFn tr = kernels().transpose[log2_size(isz_)];
  alignas(64) char scratch[16 << 10];  // bi_ x bj_ elements, rows of bj_ * isz = 128 bytes
  int64_t so, dof, ni, nj;
  unit_at(u0, so, dof, ni, nj);
  for (int64_t u = u0; u < u1; ++u) {
    // scratch[c * bj_ + r] = src[so + r * s_j + c]: destination row c of the block, contiguous
    tr(src + so * sz, s_j, scratch, bj_, nj, ni);
    int64_t nso = 0, ndof = 0, nni = 0, nnj = 0;
    if (u + 1 < u1) unit_at(u + 1, nso, ndof, nni, nnj);
    // the next block's source: nnj segments of nni elements, s_j apart, `per` of their lines
    // requested after each destination segment (a cursor, no division per segment)
    const int64_t seg_bytes = nni * sz, step = s_j * sz;
    const int64_t per = nnj ? (nnj * ((seg_bytes + 63) / 64 + 1) + ni - 1) / ni : 0;
    const char* seg = src + nso * sz;
    int64_t r = 0, off = 0;
    const int64_t bytes = nj * sz;
    for (int64_t c = 0; c < ni; ++c) {
      char* d = dst + (dof + c * d_i) * sz;
      const char* q = scratch + c * bj_ * sz;
#if defined(__SSE2__)
      if (((reinterpret_cast<uintptr_t>(d) | static_cast<uintptr_t>(bytes)) & 15) == 0) {
        // the common case inline (a call per 128-byte segment showed in the profile)
        for (int64_t k = 0; k < bytes; k += 16)
          _mm_stream_si128(reinterpret_cast<__m128i*>(d + k), _mm_load_si128(reinterpret_cast<const __m128i*>(q + k)));
      } else {
        stream_row(d, q, 1, nj, isz_);
      }
#else
      std::memcpy(d, q, bytes);
#endif
      for (int64_t k = 0; k < per && r < nnj; ++k) {
        __builtin_prefetch(seg + r * step + off, 0, 3);
        off += 64;
        if (off >= seg_bytes + 64) off = 0, ++r;  // one line past the segment covers its misaligned end
      }
    }
    so = nso, dof = ndof, ni = nni, nj = nnj;
  }
#if defined(__SSE2__)
  _mm_sfence();  // streaming stores are weakly ordered: publish before returning
#endif
}

void StridedCopy::run(const char* src, char* dst) const {
  if (total_ == 0 || (src == dst && ss_ == ds_)) return;
  core::parallel_for(units_, grain_, [&](int64_t u0, int64_t u1) { run_units(src, dst, u0, u1); });
}

}  // namespace mnn::cpu
