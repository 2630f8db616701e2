// Data-movement kernels for one ISA (compiled once per ISA target, see elementwise_table.cpp):
// 2-D block transposes, and the float32 <-> float16 casts (F16C), which fill_transpose() puts
// over the generic cast loops; it must run after fill_elementwise().
// The caller (backends/cpu/strided.cpp) cuts a strided copy into cache-sized blocks; these
// kernels move one block with in-register transposes of 8x8 (4-byte), 4x4 (8-byte) and 8x8
// (2-byte) micro-tiles, so every load and store touches whole vectors instead of one element.
// Only bits move, so every dtype of a given size shares one kernel.
#include <cstring>

#include "backends/cpu/simd/kernel_table.h"
#include "backends/cpu/simd/neon.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace mnn::cpu::MNN_ISA_NS {

namespace {

template <class T>
inline void transpose_scalar(const T* s, int64_t sp, T* d, int64_t dp, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) d[c * dp + r] = s[r * sp + c];
}

// Edges (rows or cols not a multiple of the micro-tile) fall back to the scalar loop.
template <class T, int M, class Micro>
inline void transpose_tiled(const T* s, int64_t sp, T* d, int64_t dp, int64_t rows, int64_t cols, Micro micro) {
  int64_t r = 0;
  for (; r + M <= rows; r += M) {
    int64_t c = 0;
    for (; c + M <= cols; c += M) micro(s + r * sp + c, sp, d + c * dp + r, dp);
    if (c < cols) transpose_scalar(s + r * sp + c, sp, d + c * dp + r, dp, M, cols - c);
  }
  if (r < rows) transpose_scalar(s + r * sp, sp, d + r, dp, rows - r, cols);
}

#if defined(__AVX2__)
inline void micro8x8_f32(const float* s, int64_t sp, float* d, int64_t dp) {
  // Lane-crossing done by the loads: row k's low half and row k+4's low half share a register.
  __m256 r0 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 0 * sp)), _mm_loadu_ps(s + 4 * sp), 1);
  __m256 r1 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 1 * sp)), _mm_loadu_ps(s + 5 * sp), 1);
  __m256 r2 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 2 * sp)), _mm_loadu_ps(s + 6 * sp), 1);
  __m256 r3 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 3 * sp)), _mm_loadu_ps(s + 7 * sp), 1);
  __m256 r4 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 0 * sp + 4)), _mm_loadu_ps(s + 4 * sp + 4), 1);
  __m256 r5 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 1 * sp + 4)), _mm_loadu_ps(s + 5 * sp + 4), 1);
  __m256 r6 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 2 * sp + 4)), _mm_loadu_ps(s + 6 * sp + 4), 1);
  __m256 r7 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s + 3 * sp + 4)), _mm_loadu_ps(s + 7 * sp + 4), 1);
  __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
  __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
  __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  _mm256_storeu_ps(d + 0 * dp, _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)));
  _mm256_storeu_ps(d + 1 * dp, _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2)));
  _mm256_storeu_ps(d + 2 * dp, _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)));
  _mm256_storeu_ps(d + 3 * dp, _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2)));
  _mm256_storeu_ps(d + 4 * dp, _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)));
  _mm256_storeu_ps(d + 5 * dp, _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2)));
  _mm256_storeu_ps(d + 6 * dp, _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)));
  _mm256_storeu_ps(d + 7 * dp, _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2)));
}

inline void micro4x4_f64(const double* s, int64_t sp, double* d, int64_t dp) {
  __m256d r0 = _mm256_loadu_pd(s), r1 = _mm256_loadu_pd(s + sp);
  __m256d r2 = _mm256_loadu_pd(s + 2 * sp), r3 = _mm256_loadu_pd(s + 3 * sp);
  __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
  __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
  _mm256_storeu_pd(d, _mm256_permute2f128_pd(t0, t2, 0x20));
  _mm256_storeu_pd(d + dp, _mm256_permute2f128_pd(t1, t3, 0x20));
  _mm256_storeu_pd(d + 2 * dp, _mm256_permute2f128_pd(t0, t2, 0x31));
  _mm256_storeu_pd(d + 3 * dp, _mm256_permute2f128_pd(t1, t3, 0x31));
}

inline void micro8x8_u16(const uint16_t* s, int64_t sp, uint16_t* d, int64_t dp) {
  __m128i a[8], b[8], c[8];
  for (int k = 0; k < 8; ++k) a[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k * sp));
  for (int k = 0; k < 4; ++k) {
    b[2 * k] = _mm_unpacklo_epi16(a[2 * k], a[2 * k + 1]);
    b[2 * k + 1] = _mm_unpackhi_epi16(a[2 * k], a[2 * k + 1]);
  }
  // b[0]: cols 0-3 of rows 0,1; b[1]: cols 4-7 of rows 0,1; b[2], b[3]: rows 2,3; ...
  c[0] = _mm_unpacklo_epi32(b[0], b[2]);  // cols 0,1 of rows 0-3
  c[1] = _mm_unpackhi_epi32(b[0], b[2]);  // cols 2,3
  c[2] = _mm_unpacklo_epi32(b[1], b[3]);  // cols 4,5
  c[3] = _mm_unpackhi_epi32(b[1], b[3]);  // cols 6,7
  c[4] = _mm_unpacklo_epi32(b[4], b[6]);  // rows 4-7
  c[5] = _mm_unpackhi_epi32(b[4], b[6]);
  c[6] = _mm_unpacklo_epi32(b[5], b[7]);
  c[7] = _mm_unpackhi_epi32(b[5], b[7]);
  for (int k = 0; k < 4; ++k) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (2 * k) * dp), _mm_unpacklo_epi64(c[k], c[k + 4]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (2 * k + 1) * dp), _mm_unpackhi_epi64(c[k], c[k + 4]));
  }
}

// 16x16 bytes: four rounds of interleaving rows k and k+8 (bytes, then 2-, 4-, 8-byte groups);
// after the fourth, register k holds column k.
inline void micro16x16_u8(const uint8_t* s, int64_t sp, uint8_t* d, int64_t dp) {
  __m128i a[16], b[16];
  for (int k = 0; k < 16; ++k) a[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k * sp));
  for (int k = 0; k < 8; ++k) {
    b[2 * k] = _mm_unpacklo_epi8(a[k], a[k + 8]);
    b[2 * k + 1] = _mm_unpackhi_epi8(a[k], a[k + 8]);
  }
  for (int k = 0; k < 8; ++k) {
    a[2 * k] = _mm_unpacklo_epi8(b[k], b[k + 8]);
    a[2 * k + 1] = _mm_unpackhi_epi8(b[k], b[k + 8]);
  }
  for (int k = 0; k < 8; ++k) {
    b[2 * k] = _mm_unpacklo_epi8(a[k], a[k + 8]);
    b[2 * k + 1] = _mm_unpackhi_epi8(a[k], a[k + 8]);
  }
  for (int k = 0; k < 8; ++k) {
    a[2 * k] = _mm_unpacklo_epi8(b[k], b[k + 8]);
    a[2 * k + 1] = _mm_unpackhi_epi8(b[k], b[k + 8]);
  }
  for (int k = 0; k < 16; ++k) _mm_storeu_si128(reinterpret_cast<__m128i*>(d + k * dp), a[k]);
}
#endif

#if defined(MNN_NEON)
// The same micro-tiles with arm_neon.h: ZIP1/ZIP2 (and TRN1/TRN2) are the unpacklo/unpackhi of
// the x86 versions. 4-byte tiles are 4x4 (one q register a row), 8-byte tiles 2x2.
inline void micro4x4_u32(const uint32_t* s, int64_t sp, uint32_t* d, int64_t dp) {
  uint32x4_t r0 = vld1q_u32(s), r1 = vld1q_u32(s + sp), r2 = vld1q_u32(s + 2 * sp), r3 = vld1q_u32(s + 3 * sp);
  // t0 = r0[0] r1[0] r0[2] r1[2], t1 = r0[1] r1[1] r0[3] r1[3]; the same for rows 2, 3
  uint32x4_t t0 = vtrn1q_u32(r0, r1), t1 = vtrn2q_u32(r0, r1);
  uint32x4_t t2 = vtrn1q_u32(r2, r3), t3 = vtrn2q_u32(r2, r3);
  // 64-bit halves: column 0 = t0.lo t2.lo, column 2 = t0.hi t2.hi
  uint64x2_t u0 = vreinterpretq_u64_u32(t0), u1 = vreinterpretq_u64_u32(t1);
  uint64x2_t u2 = vreinterpretq_u64_u32(t2), u3 = vreinterpretq_u64_u32(t3);
  vst1q_u32(d, vreinterpretq_u32_u64(vzip1q_u64(u0, u2)));
  vst1q_u32(d + dp, vreinterpretq_u32_u64(vzip1q_u64(u1, u3)));
  vst1q_u32(d + 2 * dp, vreinterpretq_u32_u64(vzip2q_u64(u0, u2)));
  vst1q_u32(d + 3 * dp, vreinterpretq_u32_u64(vzip2q_u64(u1, u3)));
}

inline void micro2x2_u64(const uint64_t* s, int64_t sp, uint64_t* d, int64_t dp) {
  uint64x2_t r0 = vld1q_u64(s), r1 = vld1q_u64(s + sp);
  vst1q_u64(d, vzip1q_u64(r0, r1));
  vst1q_u64(d + dp, vzip2q_u64(r0, r1));
}

// 8x8 of 2 bytes and 16x16 of bytes: rounds of interleaving rows k and k+M/2 (as the x86
// 16x16 byte tile); after log2(M) rounds register k holds column k.
inline void micro8x8_u16(const uint16_t* s, int64_t sp, uint16_t* d, int64_t dp) {
  uint16x8_t a[8], b[8];
  for (int k = 0; k < 8; ++k) a[k] = vld1q_u16(s + k * sp);
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < 4; ++k) {
      b[2 * k] = vzip1q_u16(a[k], a[k + 4]);
      b[2 * k + 1] = vzip2q_u16(a[k], a[k + 4]);
    }
    for (int k = 0; k < 8; ++k) a[k] = b[k];
  }
  for (int k = 0; k < 8; ++k) vst1q_u16(d + k * dp, a[k]);
}

inline void micro16x16_u8(const uint8_t* s, int64_t sp, uint8_t* d, int64_t dp) {
  uint8x16_t a[16], b[16];
  for (int k = 0; k < 16; ++k) a[k] = vld1q_u8(s + k * sp);
  for (int round = 0; round < 4; ++round) {
    for (int k = 0; k < 8; ++k) {
      b[2 * k] = vzip1q_u8(a[k], a[k + 8]);
      b[2 * k + 1] = vzip2q_u8(a[k], a[k + 8]);
    }
    for (int k = 0; k < 16; ++k) a[k] = b[k];
  }
  for (int k = 0; k < 16; ++k) vst1q_u8(d + k * dp, a[k]);
}

// float32 <-> float16 with FCVTN / FCVTL (base ARMv8-A Advanced SIMD; no FP16 arithmetic
// needed). They round like core::float_to_half_bits (nearest-even, overflow to inf, subnormals
// kept: Linux runs with FPCR.FZ16 clear), but NaN payloads may differ, so any group of four
// holding a NaN is redone by the scalar conversion: bit-identical to it.
void cast_f32_f16(int64_t n, const char* in, char* out) {
  const float* s = reinterpret_cast<const float*>(in);
  uint16_t* d = reinterpret_cast<uint16_t*>(out);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float32x4_t v = vld1q_f32(s + i);
    if (vminvq_u32(vceqq_f32(v, v)) == 0) {
      for (int k = 0; k < 4; ++k) d[i + k] = core::float_to_half_bits(s[i + k]);
      continue;
    }
    vst1_u16(d + i, vreinterpret_u16_f16(vcvt_f16_f32(v)));
  }
  for (; i < n; ++i) d[i] = core::float_to_half_bits(s[i]);
}

void cast_f16_f32(int64_t n, const char* in, char* out) {
  const uint16_t* s = reinterpret_cast<const uint16_t*>(in);
  float* d = reinterpret_cast<float*>(out);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float32x4_t v = vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(s + i)));
    if (vminvq_u32(vceqq_f32(v, v)) == 0) {
      for (int k = 0; k < 4; ++k) d[i + k] = core::half_bits_to_float(s[i + k]);
      continue;
    }
    vst1q_f32(d + i, v);
  }
  for (; i < n; ++i) d[i] = core::half_bits_to_float(s[i]);
}
#endif

// One column of a transpose: d[r] = s[r * sp], the gather of a strided view's row (x[:, ::2],
// x[:, ::-1]) into a tile. Element loops move one element per load/store pair; strides 2 and -1,
// the common views, load whole vectors and pick or reverse lanes with permutes (only bits move,
// so every ISA gives the scalar target's bytes). Other strides keep the element loop.
template <class T>
inline void column_scalar(const T* s, int64_t sp, T* d, int64_t n) {
  for (int64_t r = 0; r < n; ++r) d[r] = s[r * sp];
}

#if defined(__AVX2__)
inline __m256i load256(const void* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline void store256(void* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }

// 32 bytes of even elements from 64 bytes at s (two registers a, b): a's evens, then b's.
template <int Size>
inline __m256i evens(__m256i a, __m256i b) {
  if constexpr (Size == 8) {
    __m256i t = _mm256_unpacklo_epi64(a, b);  // a0 b0 | a2 b2
    return _mm256_permute4x64_epi64(t, _MM_SHUFFLE(3, 1, 2, 0));
  } else if constexpr (Size == 4) {
    __m256 t = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(t), _MM_SHUFFLE(3, 1, 2, 0));  // a0 a2 b0 b2 | a4 a6 b4 b6
  } else if constexpr (Size == 2) {
    const __m256i lo = _mm256_set1_epi32(0xFFFF);  // the packs never saturate: values fit
    __m256i t = _mm256_packus_epi32(_mm256_and_si256(a, lo), _mm256_and_si256(b, lo));
    return _mm256_permute4x64_epi64(t, _MM_SHUFFLE(3, 1, 2, 0));
  } else {
    const __m256i lo = _mm256_set1_epi16(0xFF);
    __m256i t = _mm256_packus_epi16(_mm256_and_si256(a, lo), _mm256_and_si256(b, lo));
    return _mm256_permute4x64_epi64(t, _MM_SHUFFLE(3, 1, 2, 0));
  }
}

// The 32 bytes at s in reverse element order.
template <int Size>
inline __m256i reversed(__m256i a) {
  if constexpr (Size == 8) {
    return _mm256_permute4x64_epi64(a, _MM_SHUFFLE(0, 1, 2, 3));
  } else if constexpr (Size == 4) {
    return _mm256_permutevar8x32_epi32(a, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
  } else {
    // reverse inside each 16-byte lane, then swap the lanes
    const __m256i m = Size == 2 ? _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12,
                                                    13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1)
                                : _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13,
                                                    12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(a, m), _MM_SHUFFLE(1, 0, 3, 2));
  }
}
#endif

template <class T>
void column(const T* s, int64_t sp, T* d, int64_t n) {
  int64_t r = 0;
#if defined(__AVX2__)
  constexpr int64_t V = 32 / sizeof(T);  // elements per register
  if (sp == 2) {
    for (; r + V <= n; r += V) store256(d + r, evens<sizeof(T)>(load256(s + 2 * r), load256(s + 2 * r + V)));
  } else if (sp == -1) {
    // elements r .. r+V-1 lie at s - r - V + 1 .. s - r
    for (; r + V <= n; r += V) store256(d + r, reversed<sizeof(T)>(load256(s - r - V + 1)));
  }
#endif
  column_scalar(s + r * sp, sp, d + r, n - r);
}

// Few columns packed densely (HWC pixels -> CHW planes) or few rows written densely (planes ->
// pixels): fixed-width group loads / stores the compiler turns into shuffles.
template <class T, int C>
void deinterleave(const T* s, T* d, int64_t dp, int64_t rows) {
  for (int64_t r = 0; r < rows; ++r)
    for (int c = 0; c < C; ++c) d[c * dp + r] = s[r * C + c];
}
template <class T, int R>
void interleave(const T* s, int64_t sp, T* d, int64_t cols) {
  for (int64_t c = 0; c < cols; ++c)
    for (int r = 0; r < R; ++r) d[c * R + r] = s[r * sp + c];
}

template <class T>
bool transpose_narrow(const T* s, int64_t sp, T* d, int64_t dp, int64_t rows, int64_t cols) {
  if (cols == sp && rows >= 16) {
    switch (cols) {
      case 2: deinterleave<T, 2>(s, d, dp, rows); return true;
      case 3: deinterleave<T, 3>(s, d, dp, rows); return true;
      case 4: deinterleave<T, 4>(s, d, dp, rows); return true;
      default: break;
    }
  }
  if (rows == dp && cols >= 16) {
    switch (rows) {
      case 2: interleave<T, 2>(s, sp, d, cols); return true;
      case 3: interleave<T, 3>(s, sp, d, cols); return true;
      case 4: interleave<T, 4>(s, sp, d, cols); return true;
      default: break;
    }
  }
  return false;
}

template <class T>
void transpose_t(const char* src, int64_t sp, char* dst, int64_t dp, int64_t rows, int64_t cols) {
  const T* s = reinterpret_cast<const T*>(src);
  T* d = reinterpret_cast<T*>(dst);
  if (cols == 1) return column(s, sp, d, rows);
  if (transpose_narrow(s, sp, d, dp, rows, cols)) return;
#if defined(__AVX2__)
  if constexpr (sizeof(T) == 4) {
    return transpose_tiled<float, 8>(reinterpret_cast<const float*>(s), sp, reinterpret_cast<float*>(d), dp, rows,
                                     cols, micro8x8_f32);
  } else if constexpr (sizeof(T) == 8) {
    return transpose_tiled<double, 4>(reinterpret_cast<const double*>(s), sp, reinterpret_cast<double*>(d), dp,
                                      rows, cols, micro4x4_f64);
  } else if constexpr (sizeof(T) == 2) {
    return transpose_tiled<uint16_t, 8>(s, sp, d, dp, rows, cols, micro8x8_u16);
  } else {
    return transpose_tiled<uint8_t, 16>(s, sp, d, dp, rows, cols, micro16x16_u8);
  }
#elif defined(MNN_NEON)
  if constexpr (sizeof(T) == 4) {
    return transpose_tiled<uint32_t, 4>(reinterpret_cast<const uint32_t*>(s), sp, reinterpret_cast<uint32_t*>(d), dp,
                                        rows, cols, micro4x4_u32);
  } else if constexpr (sizeof(T) == 8) {
    return transpose_tiled<uint64_t, 2>(reinterpret_cast<const uint64_t*>(s), sp, reinterpret_cast<uint64_t*>(d), dp,
                                        rows, cols, micro2x2_u64);
  } else if constexpr (sizeof(T) == 2) {
    return transpose_tiled<uint16_t, 8>(s, sp, d, dp, rows, cols, micro8x8_u16);
  } else {
    return transpose_tiled<uint8_t, 16>(s, sp, d, dp, rows, cols, micro16x16_u8);
  }
#endif
  transpose_scalar(s, sp, d, dp, rows, cols);
}

#if defined(__F16C__) && defined(__AVX2__)
// float32 <-> float16 through F16C, 8 lanes at a time. The hardware rounds like
// core::float_to_half_bits (nearest-even, overflow to inf) but spells some NaN payloads
// differently, so any group holding a NaN is redone by the scalar conversion: bit-identical.
void cast_f32_f16(int64_t n, const char* in, char* out) {
  const float* s = reinterpret_cast<const float*>(in);
  uint16_t* d = reinterpret_cast<uint16_t*>(out);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_loadu_ps(s + i);
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q))) {
      for (int k = 0; k < 8; ++k) d[i + k] = core::float_to_half_bits(s[i + k]);
      continue;
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  for (; i < n; ++i) d[i] = core::float_to_half_bits(s[i]);
}

void cast_f16_f32(int64_t n, const char* in, char* out) {
  const uint16_t* s = reinterpret_cast<const uint16_t*>(in);
  float* d = reinterpret_cast<float*>(out);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q))) {
      for (int k = 0; k < 8; ++k) d[i + k] = core::half_bits_to_float(s[i + k]);
      continue;
    }
    _mm256_storeu_ps(d + i, v);
  }
  for (; i < n; ++i) d[i] = core::half_bits_to_float(s[i]);
}
#endif

}  // namespace

void fill_transpose(KernelTable& t) {
#if (defined(__F16C__) && defined(__AVX2__)) || defined(MNN_NEON)
  t.cast[static_cast<int>(core::DType::Float32)][static_cast<int>(core::DType::Float16)] = &cast_f32_f16;
  t.cast[static_cast<int>(core::DType::Float16)][static_cast<int>(core::DType::Float32)] = &cast_f16_f32;
#endif
  t.transpose[0] = &transpose_t<uint8_t>;
  t.transpose[1] = &transpose_t<uint16_t>;
  t.transpose[2] = &transpose_t<uint32_t>;
  t.transpose[3] = &transpose_t<uint64_t>;
}

}  // namespace mnn::cpu::MNN_ISA_NS
