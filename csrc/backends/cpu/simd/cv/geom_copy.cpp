// cv_geom_copy kernel (shape rule: ops/cv/geom_fast.cpp): flip, transpose, rotate by quarter
// turns and copyMakeBorder's non-constant borders as one native pass of pixel moves. A pixel is
// itemsize * channels bytes and moves as one block whatever the dtype, so every ISA gives the
// same bytes; the SIMD loops only regroup bytes.
//
// Also cv_resize's INTER_NEAREST(_EXACT) gather (prepare_resize_nearest_px, called by resize.cpp).
//
// Modes: 0 flip rows (flipCode 0), 1 flip columns (> 0), 2 both (< 0, ROTATE_180), 3 transpose,
// 4 ROTATE_90_CLOCKWISE, 5 ROTATE_90_COUNTERCLOCKWISE, 6 border (ints: top, bottom, left, right,
// border type 1..4).
// The three quarter turns are one transpose with signed strides: clockwise reads the source
// rows bottom up, counterclockwise writes the destination rows bottom up.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
// GCC 12's AVX-512 intrinsics start from an uninitialised register by design and
// -Wmaybe-uninitialized reports that inside the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "backends/backend.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

std::unique_ptr<backend::Kernel> prepare_resize_nearest_px(const backend::StepDesc& s, bool exact, double isx, double isy);

namespace {

using namespace core;

constexpr int64_t kGrainBytes = int64_t(1) << 16;  // bytes per task: below this threads cost more than they save

// ---- row reversal: D[i] = S[n - 1 - i], pixels of E bytes ----

#if defined(__AVX2__)
// Byte shuffles that reverse the pixel order of a 48-byte block (48 / E pixels): output chunk q
// (16 bytes) is the OR of pshufb(input chunk r, m[q][r]).
struct Rev48 {
  __m128i m[3][3];
  explicit Rev48(int E) {
    alignas(16) int8_t t[3][3][16];
    for (int b = 0; b < 48; ++b) {
      const int j = b / E, c = b % E, sb = (48 / E - 1 - j) * E + c;
      for (int r = 0; r < 3; ++r) t[b / 16][r][b % 16] = sb / 16 == r ? int8_t(sb % 16) : int8_t(-128);
    }
    for (int q = 0; q < 3; ++q)
      for (int r = 0; r < 3; ++r) m[q][r] = _mm_load_si128(reinterpret_cast<const __m128i*>(t[q][r]));
  }
};
#endif

#if defined(__AVX512F__)
// 192 bytes (192 / E pixels) reversed by pixel with VBMI byte permutes: each output vector is a
// two-source permute of input vectors 0 and 1 plus a masked permute of vector 2's bytes. Zen 4
// does a 640x480 BGR row flip in ~60% of the 16-byte pshufb loop's time (that loop is bound by
// its 9 shuffles per 48 bytes, not by memory). Compiled for VBMI whatever the target's flags and
// used only where cpuid reports it; a byte move, so every ISA gives the same bytes.
struct Rev192 {
  alignas(64) uint8_t i01[3][64], i2[3][64];
  uint64_t m2[3] = {0, 0, 0};
  explicit Rev192(int E) {
    const int P = 192 / E;
    for (int b = 0; b < 192; ++b) {
      const int q = b / 64, k = b % 64, sb = (P - 1 - b / E) * E + b % E;
      i01[q][k] = static_cast<uint8_t>(sb < 128 ? sb : 0);
      i2[q][k] = static_cast<uint8_t>(sb >= 128 ? sb - 128 : 0);
      if (sb >= 128) m2[q] |= uint64_t(1) << k;
    }
  }
};

__attribute__((target("avx512vbmi,avx512bw,avx512f")))
int64_t reverse_vbmi(const uint8_t* S, uint8_t* D, int64_t n, int E, const Rev192& rv) {
  const int64_t P = 192 / E;
  __m512i a[3], b[3];
  for (int q = 0; q < 3; ++q) a[q] = _mm512_load_si512(rv.i01[q]), b[q] = _mm512_load_si512(rv.i2[q]);
  int64_t i = 0;
  for (; i + P <= n; i += P) {
    const uint8_t* s = S + (n - i - P) * E;
    const __m512i x0 = _mm512_loadu_si512(s), x1 = _mm512_loadu_si512(s + 64), x2 = _mm512_loadu_si512(s + 128);
    for (int q = 0; q < 3; ++q) {
      const __m512i t = _mm512_permutex2var_epi8(x0, a[q], x1);
      _mm512_storeu_si512(D + i * E + 64 * q, _mm512_mask_permutexvar_epi8(t, rv.m2[q], b[q], x2));
    }
  }
  return i;
}

bool has_vbmi() {
  static const bool v = __builtin_cpu_supports("avx512vbmi");
  return v;
}
#endif

template <int E>
void reverse_px(const uint8_t* S, uint8_t* D, int64_t n) {
  int64_t i = 0;
#if defined(__AVX512F__)
  if constexpr (192 % E == 0) {
    if (has_vbmi() && n >= 192 / E) {
      static const Rev192 rv(E);
      i = reverse_vbmi(S, D, n, E, rv);
      // the last n - i output pixels are source pixels [0, n - i): the loops below on that part
      D += i * E, n -= i, i = 0;
    }
  }
#endif
  // (a single-source VBMI loop, 21 pixels a step with masked stores, measured slower than this on
  // Zen 4; the 192-byte loop above is faster)
#if defined(__AVX2__)
  if constexpr (48 % E == 0) {
    static const Rev48 rv(E);
    constexpr int64_t P = 48 / E;
    for (; i + P <= n; i += P) {
      const uint8_t* s = S + (n - i - P) * E;
      const __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
      const __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
      const __m128i a2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
      for (int q = 0; q < 3; ++q) {
        const __m128i o = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(a0, rv.m[q][0]), _mm_shuffle_epi8(a1, rv.m[q][1])),
                                       _mm_shuffle_epi8(a2, rv.m[q][2]));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(D + i * E + 16 * q), o);
      }
    }
  }
#endif
  for (; i < n; ++i) std::memcpy(D + i * E, S + (n - 1 - i) * E, E);
}

// One row copied with 32-byte moves, four loads before four stores. glibc's AVX-512 memcpy
// aligns the destination and takes 64-byte loads, each crossing a cache line when the source
// is 16 bytes off that alignment (numpy's arrays start 0x10 into a page): mnn.cv.flip(img, 0) of
// a 640x480 BGR image then took 27 us against 23 us from a 64-aligned source; 32-byte moves
// took 19-20 us from either in a standalone loop (memcpy 20-21.5).
inline void copy_row(uint8_t* d, const uint8_t* s, size_t n) {
#if defined(__AVX2__)
  if (n >= 32) {
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 32));
      const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 64));
      const __m256i e = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 96));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), a);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i + 32), b);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i + 64), c);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i + 96), e);
    }
    for (; i + 32 <= n; i += 32)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i)));
    // the last bytes: one overlapping move ending at the row's end (source and destination are
    // different buffers, so rewriting a few bytes already copied writes the same bytes)
    if (i < n)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + n - 32), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + n - 32)));
    return;
  }
#endif
  std::memcpy(d, s, n);
}

void reverse_any(const uint8_t* S, uint8_t* D, int64_t n, size_t esz) {
  for (int64_t i = 0; i < n; ++i) std::memcpy(D + size_t(i) * esz, S + size_t(n - 1 - i) * esz, esz);
}

// ---- transpose: D(i, j) = S(j, i); S has h rows of w pixels (stride ss bytes, may be
// negative), D has w rows of h pixels (stride ds). Output rows [i0, i1). ----

template <int E>
void transpose_rows(const uint8_t* S, ptrdiff_t ss, uint8_t* D, ptrdiff_t ds, int64_t h, int64_t w, int64_t i0,
                    int64_t i1) {
  // Tiles of 64 output rows (64 source columns: whole cache lines of 1-byte pixels) by 16 source
  // rows: the source lines a tile reads and the destination lines it writes stay in L1.
  constexpr int64_t BI = 64, BJ = E == 1 ? 16 : 32;
  for (int64_t ib = i0; ib < i1; ib += BI) {
    const int64_t ie = std::min(ib + BI, i1);
    int64_t j = 0;
#if defined(__AVX2__)
    if constexpr (E == 1) {
      // 16 x 16 byte blocks: 16 source rows interleaved by four rounds of unpacks (bytes, words,
      // dwords, qwords), each output row one 16-byte store
      const int64_t ie16 = ib + ((ie - ib) & ~int64_t(15));
      for (; j + 16 <= h; j += 16)
        for (int64_t i = ib; i < ie16; i += 16) {
          __m128i r[16], t[16];
          for (int k = 0; k < 16; ++k) r[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(S + (j + k) * ss + i));
          for (int k = 0; k < 8; ++k) t[k] = _mm_unpacklo_epi8(r[2 * k], r[2 * k + 1]), t[k + 8] = _mm_unpackhi_epi8(r[2 * k], r[2 * k + 1]);
          for (int k = 0; k < 4; ++k)
            for (int hh = 0; hh < 2; ++hh) {
              const int q = 8 * hh;
              r[q + k] = _mm_unpacklo_epi16(t[q + 2 * k], t[q + 2 * k + 1]);
              r[q + k + 4] = _mm_unpackhi_epi16(t[q + 2 * k], t[q + 2 * k + 1]);
            }
          for (int k = 0; k < 2; ++k)
            for (int g = 0; g < 4; ++g) {
              const int q = 4 * g;
              t[q + k] = _mm_unpacklo_epi32(r[q + 2 * k], r[q + 2 * k + 1]);
              t[q + k + 2] = _mm_unpackhi_epi32(r[q + 2 * k], r[q + 2 * k + 1]);
            }
          for (int g = 0; g < 8; ++g) {
            r[2 * g] = _mm_unpacklo_epi64(t[2 * g], t[2 * g + 1]);
            r[2 * g + 1] = _mm_unpackhi_epi64(t[2 * g], t[2 * g + 1]);
          }
          // r[m] now holds source column i + m: output row i + m
          for (int m = 0; m < 16; ++m) _mm_storeu_si128(reinterpret_cast<__m128i*>(D + (i + m) * ds + j), r[m]);
        }
      // the columns past the last whole 16 (ie16..ie) of the rows done: by the loop below
      for (int64_t i = ie16; i < ie; ++i)
        for (int64_t jj = 0; jj < j; ++jj) D[i * ds + jj] = S[jj * ss + i];
    }
#endif
    for (; j < h; j += BJ) {
      const int64_t je = std::min(j + BJ, h);
      for (int64_t i = ib; i < ie; ++i) {
        uint8_t* d = D + i * ds;
        const uint8_t* s = S + i * E;
        int64_t jj = j;
        if constexpr (E == 3) {
          // 4-byte moves: the load's fourth byte is the next pixel of the same source row (not
          // for the row's last pixel), the store's is rewritten by the next output pixel (not for
          // the row's last one, done below)
          if (i + 1 < w) {
            if (je == j + BJ && je < h) {
#pragma GCC unroll 16
              for (int64_t k = 0; k < BJ; ++k) {
                uint32_t v;
                std::memcpy(&v, s + (j + k) * ss, 4);
                std::memcpy(d + (j + k) * 3, &v, 4);
              }
              jj = je;
            }
            for (; jj < je && jj + 1 < h; ++jj) {
              uint32_t v;
              std::memcpy(&v, s + jj * ss, 4);
              std::memcpy(d + jj * 3, &v, 4);
            }
          }
        }
        for (; jj < je; ++jj) std::memcpy(d + jj * E, s + jj * ss, E);
      }
    }
  }
}

void transpose_rows_any(const uint8_t* S, ptrdiff_t ss, uint8_t* D, ptrdiff_t ds, int64_t h, int64_t, int64_t i0,
                        int64_t i1, size_t esz) {
  for (int64_t i = i0; i < i1; ++i)
    for (int64_t j = 0; j < h; ++j) std::memcpy(D + i * ds + j * ptrdiff_t(esz), S + j * ss + i * ptrdiff_t(esz), esz);
}

// ---- borders (cv2's borderInterpolate for REPLICATE, REFLECT, WRAP, REFLECT_101) ----

int border_index(int p, int len, int mode) {
  if (static_cast<unsigned>(p) < static_cast<unsigned>(len)) return p;
  if (len == 1) return 0;
  if (mode == 1) return p < 0 ? 0 : len - 1;
  if (mode == 3) {
    if (p < 0) p -= ((p - len + 1) / len) * len;
    if (p >= len) p %= len;
    return p;
  }
  const int delta = mode == 4;
  do {
    if (p < 0) p = -p - 1 + delta;
    else p = len - 1 - (p - len) - delta;
  } while (static_cast<unsigned>(p) >= static_cast<unsigned>(len));
  return p;
}

template <int E>
void border_px(const uint8_t* S, uint8_t* D, const int* xs, int n) {
  for (int x = 0; x < n; ++x) std::memcpy(D + x * E, S + size_t(xs[x]) * E, E);
}

// Calls f with std::integral_constant<int, E> for the pixel sizes with a fixed-size path, or with
// 0 for the others (runtime-size moves).
template <class F>
void by_esz(size_t esz, F&& f) {
  switch (esz) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 6: return f(std::integral_constant<int, 6>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 12: return f(std::integral_constant<int, 12>{});
    case 16: return f(std::integral_constant<int, 16>{});
    default: return f(std::integral_constant<int, 0>{});
  }
}

class GeomCopy final : public backend::Kernel {
 public:
  explicit GeomCopy(const backend::StepDesc& s) {
    const Shape& a = s.inputs[0].shape;
    h_ = a[0], w_ = a[1];
    int64_t cn = 1;
    for (size_t d = 2; d < a.size(); ++d) cn *= a[d];
    esz_ = size_t(cn) * itemsize(s.inputs[0].dtype);
    mode_ = int(s.params->ints[0]);
    if (mode_ == 6) {
      const auto& p = s.params->ints;
      top_ = int(p[1]), left_ = int(p[3]), btype_ = int(p[5]);
      dh_ = int(s.output.shape[0]), dw_ = int(s.output.shape[1]);
      for (int x = 0; x < left_; ++x) xl_.push_back(border_index(x - left_, int(w_), btype_));
      for (int x = left_ + int(w_); x < dw_; ++x) xr_.push_back(border_index(x - left_, int(w_), btype_));
    }
  }

  void run(char* const* in, char* out) override {
    const uint8_t* S = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* D = reinterpret_cast<uint8_t*>(out);
    const size_t row = size_t(w_) * esz_;
    if (h_ == 0 || w_ == 0) return;  // nothing to move (the rule refuses borders of empty images)
    if (mode_ <= 2) {
      const bool rows = mode_ != 1, cols = mode_ != 0;
      const int64_t grain = std::max<int64_t>(1, kGrainBytes / int64_t(row));
      by_esz(esz_, [&](auto e) {
        constexpr int E = decltype(e)::value;
        parallel_for(h_, grain, [&](int64_t y0, int64_t y1) {
          for (int64_t y = y0; y < y1; ++y) {
            const uint8_t* s = S + size_t(rows ? h_ - 1 - y : y) * row;
            uint8_t* d = D + size_t(y) * row;
            if (!cols) copy_row(d, s, row);
            else if constexpr (E > 0) reverse_px<E>(s, d, w_);
            else reverse_any(s, d, w_, esz_);
          }
        });
      });
      return;
    }
    if (mode_ == 6) return border(S, D);
    // transpose family: D has w_ rows of h_ pixels
    const ptrdiff_t srow = ptrdiff_t(row), drow = ptrdiff_t(size_t(h_) * esz_);
    const uint8_t* s = S;
    ptrdiff_t ss = srow;
    uint8_t* d = D;
    ptrdiff_t ds = drow;
    if (mode_ == 4) s = S + (h_ - 1) * srow, ss = -srow;  // clockwise: source rows bottom up
    if (mode_ == 5) d = D + (w_ - 1) * drow, ds = -drow;  // counterclockwise: output rows bottom up
    const int64_t grain = std::max<int64_t>(64, (kGrainBytes / std::max<ptrdiff_t>(drow, 1)) & ~int64_t(63));
    by_esz(esz_, [&](auto e) {
      constexpr int E = decltype(e)::value;
      parallel_for(w_, grain, [&](int64_t i0, int64_t i1) {
        if constexpr (E > 0) transpose_rows<E>(s, ss, d, ds, h_, w_, i0, i1);
        else transpose_rows_any(s, ss, d, ds, h_, w_, i0, i1, esz_);
      });
    });
  }

 private:
  void border(const uint8_t* S, uint8_t* D) const {
    const size_t row = size_t(w_) * esz_, drow = size_t(dw_) * esz_;
    const int64_t grain = std::max<int64_t>(1, kGrainBytes / std::max<int64_t>(1, int64_t(drow)));
    by_esz(esz_, [&](auto e) {
      constexpr int E = decltype(e)::value;
      parallel_for(dh_, grain, [&](int64_t y0, int64_t y1) {
        for (int64_t y = y0; y < y1; ++y) {
          const uint8_t* s = S + size_t(border_index(int(y) - top_, int(h_), btype_)) * row;
          uint8_t* d = D + size_t(y) * drow;
          uint8_t* dr = d + size_t(left_) * esz_ + row;
          if constexpr (E > 0) {
            border_px<E>(s, d, xl_.data(), int(xl_.size()));
            border_px<E>(s, dr, xr_.data(), int(xr_.size()));
          } else {
            for (size_t x = 0; x < xl_.size(); ++x) std::memcpy(d + x * esz_, s + size_t(xl_[x]) * esz_, esz_);
            for (size_t x = 0; x < xr_.size(); ++x) std::memcpy(dr + x * esz_, s + size_t(xr_[x]) * esz_, esz_);
          }
          std::memcpy(d + size_t(left_) * esz_, s, row);
        }
      });
    });
  }

  int64_t h_, w_;
  size_t esz_;
  int mode_;
  int top_ = 0, left_ = 0, btype_ = 0, dh_ = 0, dw_ = 0;
  std::vector<int> xl_, xr_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<GeomCopy>(s); }

// ---- cv_resize INTER_NEAREST / INTER_NEAREST_EXACT: a gather of whole pixels. NEAREST maps d to
// floor(d * scale); NEAREST_EXACT samples pixel centres, floor((d + 0.5) * scale) accumulated as
// cv2 does (resize.cpp's NearestResize, whose tables these are). An output row whose source row
// is the previous one's is a copy of that row. ----

template <int E>
void gather_px(const uint8_t* S, uint8_t* D, const int* xo, int n, int sw, bool tail_safe) {
  int x = 0;
  if constexpr (E == 3) {
    // 4-byte moves: the fourth byte read is the next source pixel's (the last pixel of the last
    // row excepted: tail_safe says whether the byte past this row is readable); the fourth
    // written is rewritten by the next output pixel (the row's last pixel goes bytewise)
    for (; x + 1 < n; ++x) {
      const uint8_t* p = S + size_t(xo[x]) * 3;
      if (xo[x] + 1 >= sw && !tail_safe) break;  // (xo never decreases: the rest too)
      uint32_t v;
      std::memcpy(&v, p, 4);
      std::memcpy(D + size_t(x) * 3, &v, 4);
    }
  }
  for (; x < n; ++x) std::memcpy(D + size_t(x) * E, S + size_t(xo[x]) * E, E);
}

class NearestPx final : public backend::Kernel {
 public:
  NearestPx(const backend::StepDesc& s, bool exact, double isx, double isy) {
    const Shape& a = s.inputs[0].shape;
    sh_ = int(a[0]), sw_ = int(a[1]);
    int64_t cn = 1;
    for (size_t d = 2; d < a.size(); ++d) cn *= a[d];
    esz_ = size_t(cn) * itemsize(s.inputs[0].dtype);
    dh_ = int(s.output.shape[0]), dw_ = int(s.output.shape[1]);
    xo_.resize(dw_);
    yo_.resize(dh_);
    if (!exact) {
      const double fx = 1.0 / isx, fy = 1.0 / isy;
      for (int x = 0; x < dw_; ++x) xo_[x] = std::min(static_cast<int>(std::floor(x * fx)), sw_ - 1);
      for (int y = 0; y < dh_; ++y) yo_[y] = std::min(static_cast<int>(std::floor(y * fy)), sh_ - 1);
    } else {
      auto fill = [](std::vector<int>& o, int ssz, int dsz) {
        const double scale = double(ssz) / double(dsz);
        double f = scale * 0.5;
        for (int i = 0; i < dsz; ++i) {
          o[i] = std::min(static_cast<int>(std::floor(f)), ssz - 1);
          f += scale;
        }
      };
      fill(xo_, sw_, dw_);
      fill(yo_, sh_, dh_);
    }
  }
  void run(char* const* in, char* out) override {
    const uint8_t* S = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* D = reinterpret_cast<uint8_t*>(out);
    const size_t srow = size_t(sw_) * esz_, drow = size_t(dw_) * esz_;
    const int64_t grain = std::max<int64_t>(1, kGrainBytes / std::max<int64_t>(1, int64_t(drow)));
    by_esz(esz_, [&](auto e) {
      constexpr int E = decltype(e)::value;
      parallel_for(dh_, grain, [&](int64_t y0, int64_t y1) {
        for (int64_t y = y0; y < y1; ++y) {
          uint8_t* d = D + size_t(y) * drow;
          if (y > y0 && yo_[y] == yo_[y - 1]) {  // the same source row as the row above
            std::memcpy(d, d - drow, drow);
            continue;
          }
          const uint8_t* s = S + size_t(yo_[y]) * srow;
          if constexpr (E > 0) {
            gather_px<E>(s, d, xo_.data(), dw_, sw_, yo_[y] + 1 < sh_);
          } else {
            for (int x = 0; x < dw_; ++x) std::memcpy(d + size_t(x) * esz_, s + size_t(xo_[x]) * esz_, esz_);
          }
        }
      });
    });
  }

 private:
  int sh_, sw_, dh_, dw_;
  size_t esz_;
  std::vector<int> xo_, yo_;
};

}  // namespace

// Called by prepare_resize (resize.cpp) for INTER_NEAREST and INTER_NEAREST_EXACT on every depth.
std::unique_ptr<backend::Kernel> prepare_resize_nearest_px(const backend::StepDesc& s, bool exact, double isx, double isy) {
  return std::make_unique<NearestPx>(s, exact, isx, isy);
}

MNN_REGISTER_CPU_KERNEL(cv_geom_copy, "cv_geom_copy", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
