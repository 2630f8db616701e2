// 2-D block transposes for one ISA (compiled once per ISA target, see elementwise_table.cpp).
// The caller (backends/cpu/strided.cpp) cuts a strided copy into cache-sized blocks; these
// kernels move one block with in-register transposes of 8x8 (4-byte), 4x4 (8-byte) and 8x8
// (2-byte) micro-tiles, so every load and store touches whole vectors instead of one element.
// Only bits move, so every dtype of a given size shares one kernel.
#include <cstring>

#include "backends/cpu/simd/kernel_table.h"

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

template <class T>
void transpose_t(const char* src, int64_t sp, char* dst, int64_t dp, int64_t rows, int64_t cols) {
  const T* s = reinterpret_cast<const T*>(src);
  T* d = reinterpret_cast<T*>(dst);
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
#endif
  transpose_scalar(s, sp, d, dp, rows, cols);
}

}  // namespace

void fill_transpose(KernelTable& t) {
  t.transpose[0] = &transpose_t<uint8_t>;
  t.transpose[1] = &transpose_t<uint16_t>;
  t.transpose[2] = &transpose_t<uint32_t>;
  t.transpose[3] = &transpose_t<uint64_t>;
}

}  // namespace mnn::cpu::MNN_ISA_NS
