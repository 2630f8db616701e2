// cv_resize kernels (ops/cv/geometry.cpp), written to give cv2.resize's exact results.
//
// cv2 resizes separably: a horizontal pass turns each needed source row into a row of dst
// width, a vertical pass combines `ksize` such rows. On uint8 both passes are fixed point
// (coefficients scaled by 2048) and the linear vertical pass rounds the way cv2's SIMD code does:
// ((S0>>4)*b0 >> 16) + ((S1>>4)*b1 >> 16), then (+2)>>2. Other depths compute in float (double
// for float64). INTER_AREA with integer factors averages blocks; other downscales weight each
// source pixel by its overlap with the destination cell; upscaling AREA is linear with cv2's
// area-specific coefficients. Horizontal clamping of the linear fraction at the image edges
// (but not vertical) is cv2's too.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "backends/cpu/simd/cv/resize_rows.h"
#include "core/error.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

// int16 lanes of cv2's vector resize passes on x86: the opencv-python wheels build resize.cpp for
// their SSE baseline (8 lanes; 16 put a few tail values off by one against cv2 5.0). Where its
// vector loops end, its scalar tails (fixed point where the vector code rounds in float) begin.
constexpr int kCv2Lanes16 = 8;

enum { kNearest = 0, kLinear = 1, kCubic = 2, kArea = 3, kLanczos4 = 4, kLinearExact = 5, kNearestExact = 6 };

template <class T>
inline T saturate(float v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    long r = std::lrint(v);  // cvRound: half to even under the default rounding mode
    if (r < static_cast<long>(std::numeric_limits<T>::min())) r = std::numeric_limits<T>::min();
    if (r > static_cast<long>(std::numeric_limits<T>::max())) r = std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}
template <class T>
inline T saturate(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    long r = std::lrint(v);
    if (r < static_cast<long>(std::numeric_limits<T>::min())) r = std::numeric_limits<T>::min();
    if (r > static_cast<long>(std::numeric_limits<T>::max())) r = std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}
inline uint8_t sat_u8(int v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

void cubic_coeffs(float x, float* c) {
  const float A = -0.75f;
  c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
  c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
  c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
  c[3] = 1.f - c[0] - c[1] - c[2];
}

void lanczos4_coeffs(float x, float* c) {
  static const double s45 = 0.70710678118654752440084436210485;
  static const double cs[][2] = {{1, 0}, {-s45, -s45}, {0, 1}, {s45, -s45}, {-1, 0}, {s45, s45}, {0, -1}, {-s45, s45}};
  // cv2's own form, rounding for rounding (float results are compared bit for bit): a tap at
  // distance ~0 (x ~ 0, or x ~ 1 where (d + 0.5) * scale - 0.5 lands a hair below an integer)
  // would be the formula's 0/0, so it gets 1e30 and the normalisation leaves it weight 1 and
  // the others ~1e-31, not exactly 0.
  const double pi = 3.141592653589793238462643383279502884;
  float sum = 0;
  double y0 = -(x + 3) * pi * 0.25, s0 = std::sin(y0), c0 = std::cos(y0);
  for (int i = 0; i < 8; ++i) {
    float yf = x + 3 - i;
    if (std::fabs(yf) >= 1e-6f) {
      double y = -yf * pi * 0.25;
      c[i] = static_cast<float>((cs[i][0] * s0 + cs[i][1] * c0) / (y * y));
    } else {
      c[i] = 1e30f;
    }
    sum += c[i];
  }
  sum = 1.f / sum;
  for (int i = 0; i < 8; ++i) c[i] *= sum;
}

// Per destination position along one axis: ksize clamped source indices and their weights.
struct Taps {
  int ksize = 2;
  std::vector<int> idx;        // n * ksize
  std::vector<float> w;        // float weights
  std::vector<int> iw;         // the same scaled by 2048 and rounded (uint8 paths)
};

Taps make_taps(int ssize, int dsize, double scale, double inv_scale, int interp, bool area_mode, bool is_x) {
  Taps t;
  t.ksize = interp == kCubic ? 4 : interp == kLanczos4 ? 8 : 2;
  const int ks = t.ksize, ks2 = ks / 2;
  t.idx.resize(size_t(dsize) * ks);
  t.w.resize(size_t(dsize) * ks);
  t.iw.resize(size_t(dsize) * ks);
  const bool linear = interp != kCubic && interp != kLanczos4;
  for (int d = 0; d < dsize; ++d) {
    float f;
    int s;
    if (!area_mode) {
      f = static_cast<float>((d + 0.5) * scale - 0.5);
      s = static_cast<int>(std::floor(f));
      f -= s;
    } else {
      s = static_cast<int>(std::floor(d * scale));
      f = static_cast<float>((d + 1) - (s + 1) * inv_scale);
      f = f <= 0 ? 0.f : f - std::floor(f);
    }
    if (is_x && linear) {
      if (s < 0) f = 0, s = 0;
      if (s >= ssize - 1) f = 0, s = ssize - 1;
    }
    float c[8];
    if (interp == kCubic) cubic_coeffs(f, c);
    else if (interp == kLanczos4) lanczos4_coeffs(f, c);
    else c[0] = 1.f - f, c[1] = f;
    for (int k = 0; k < ks; ++k) {
      int i = std::min(std::max(s - ks2 + 1 + k, 0), ssize - 1);
      t.idx[size_t(d) * ks + k] = i;
      t.w[size_t(d) * ks + k] = c[k];
      t.iw[size_t(d) * ks + k] = static_cast<int>(std::lrint(c[k] * 2048.f));
    }
  }
  return t;
}

struct Geometry {
  int sh, sw, dh, dw, cn;
};

Geometry geometry_of(const backend::StepDesc& s) {
  Geometry g;
  const Shape& a = s.inputs[0].shape;
  const Shape& o = s.output.shape;
  g.sh = static_cast<int>(a[0]);
  g.sw = static_cast<int>(a[1]);
  g.cn = a.size() == 3 ? static_cast<int>(a[2]) : 1;
  g.dh = static_cast<int>(o[0]);
  g.dw = static_cast<int>(o[1]);
  return g;
}

// Separable interpolation (linear, cubic, lanczos4, and area upscaling).
template <class T>
class SeparableResize final : public backend::Kernel {
 public:
  SeparableResize(const backend::StepDesc& s, int interp, double isx, double isy) : g_(geometry_of(s)), interp_(interp) {
    bool area = interp == kArea;
    int ip = area ? kLinear : interp;
    tx_ = make_taps(g_.sw, g_.dw, 1.0 / isx, isx, ip, area, true);
    ty_ = make_taps(g_.sh, g_.dh, 1.0 / isy, isy, ip, area, false);
    interp_ = ip;
    if (std::is_integral_v<T> && ty_.ksize == 2) {
      // A zero-weight second row adds exactly 0 (integer images hold no inf or NaN): point it at
      // the first, so that row is neither fetched nor resized (a 3x linear downscale samples
      // every third row with weights (1, 0) and used to resize twice the rows it needs).
      for (int d = 0; d < g_.dh; ++d)
        if (std::is_same_v<T, uint8_t> ? ty_.iw[2 * d + 1] == 0 : ty_.w[2 * d + 1] == 0.f)
          ty_.idx[2 * d + 1] = ty_.idx[2 * d];
    }
    if constexpr (std::is_same_v<T, uint8_t>) {
      // Linear weights of exactly (1, 0) on both axes (odd integer downscales: 3x samples pixel
      // 3d + 1) make cv2's fixed-point result the sampled pixel itself: with S = 2048 p, the
      // vertical pass gives ((((S >> 4) * 2048) >> 16) + 2) >> 2 = (4 p + 2) >> 2 = p. Such a
      // resize is a gather of whole pixels, with no row pass at all.
      bool ones = tx_.ksize == 2 && ty_.ksize == 2;
      for (int d = 0; ones && d < g_.dw; ++d) ones = tx_.iw[2 * d] == 2048 && tx_.iw[2 * d + 1] == 0;
      for (int d = 0; ones && d < g_.dh; ++d) ones = ty_.iw[2 * d] == 2048 && ty_.iw[2 * d + 1] == 0;
      gather_ = ones;
    }
    if (tx_.ksize == 2) {
      // Byte offsets and packed (a0, a1) 16-bit weights of each column; the 4-byte loads of
      // the SIMD row pass stay inside the row for the first nsafe_ columns.
      const int cn = g_.cn, row_bytes = g_.sw * cn;
      ofs0_.resize(g_.dw);
      ofs1_.resize(g_.dw);
      wpk_.resize(g_.dw);
      nsafe_ = 0;
      bool safe = true;
      for (int x = 0; x < g_.dw; ++x) {
        ofs0_[x] = tx_.idx[2 * x] * cn;
        ofs1_[x] = tx_.idx[2 * x + 1] * cn;
        wpk_[x] = int((uint32_t(tx_.iw[2 * x + 1]) << 16) | (uint32_t(tx_.iw[2 * x]) & 0xffffu));
        safe = safe && ofs0_[x] + 4 <= row_bytes && ofs1_[x] + 4 <= row_bytes;
        if (safe) nsafe_ = x + 1;
      }
      // Linear taps read two neighbouring pixels (the second one cn bytes on), or give the
      // second a zero weight where the edge clamps them: one 8-byte load then holds both.
      // npair_ (even) columns qualify for the two-pixels-per-vector loop.
      npair_ = 0;
      if (cn == 3 || cn == 4) {
        bool ok = true;
        for (int x = 0; x < g_.dw && ok; ++x) {
          ok = ofs0_[x] + 8 <= row_bytes && (ofs1_[x] == ofs0_[x] + cn || tx_.iw[2 * x + 1] == 0);
          if (ok) npair_ = x + 1;
        }
        npair_ &= ~1;
        // (a0, a1) of column x in the low 128 bits, of column x + 1 in the high 128 bits
        wvec_.resize(size_t(npair_) * 4);
        for (int x = 0; x < npair_; ++x)
          for (int k = 0; k < 4; ++k) wvec_[size_t(x / 2) * 8 + (x % 2) * 4 + k] = wpk_[x];
      }
    }
  }

  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const Geometry g = g_;
    const int rw = g.dw * g.cn;
    int64_t grain = std::max<int64_t>(1, 32768 / std::max(rw, 1));
    parallel_for(g.dh, grain, [&](int64_t y0, int64_t y1) {
      if constexpr (std::is_same_v<T, uint8_t>) {
        if (gather_) gather_u8(src, dst + size_t(y0) * rw, y0, y1);
        else run_u8(src, dst + size_t(y0) * rw, y0, y1);
      } else {
        run_float(src, dst, y0, y1);
      }
    });
  }

 public:
  // uint8 rows [y0, y1) into dst, row y0 first (resize_rows.h)
  void rows_u8(const uint8_t* src, uint8_t* dst, int64_t y0, int64_t y1) const {
    if (gather_) gather_u8(src, dst, y0, y1);
    else run_u8(src, dst, y0, y1);
  }

 private:
  // Horizontal pass of one source row: int sums of uint8 * 2048-scaled weights.
#if defined(__AVX2__)
  // Two source rows at once (3 or 4 channels, linear): twice the loads in flight when the rows
  // come from memory. The tails are left to hrow_u8.
  void hrow2_u8(const uint8_t* Sa, const uint8_t* Sb, int* Da, int* Db, ptrdiff_t pf = 0) const {
    if (npair_ > 0) {
      hpair2_u8(Sa, Sb, Da, Db, pf);
      hrow_u8(Sa, Da, npair_);
      hrow_u8(Sb, Db, npair_);
      return;
    }
    const int cn = g_.cn;
    const int* o0 = ofs0_.data();
    const int* o1 = ofs1_.data();
    const int* wp = wpk_.data();
    for (int x = 0; x < nsafe_; ++x) {
      int32_t a0, a1, b0, b1;
      std::memcpy(&a0, Sa + o0[x], 4);
      std::memcpy(&a1, Sa + o1[x], 4);
      std::memcpy(&b0, Sb + o0[x], 4);
      std::memcpy(&b1, Sb + o1[x], 4);
      const __m128i w = _mm_set1_epi32(wp[x]);
      __m128i pa = _mm_cvtepu8_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(a0), _mm_cvtsi32_si128(a1)));
      __m128i pb = _mm_cvtepu8_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(b0), _mm_cvtsi32_si128(b1)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(Da + x * cn), _mm_madd_epi16(pa, w));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(Db + x * cn), _mm_madd_epi16(pb, w));
    }
    hrow_u8(Sa, Da, nsafe_);
    hrow_u8(Sb, Db, nsafe_);
  }
#endif

#if defined(__AVX2__)
  // Columns [0, npair_) of one row, two output pixels per 256-bit madd: each pixel's two taps
  // come from one 8-byte load, interleaved per channel by one byte shuffle. The 3-channel
  // store writes two ints past the pair (the row slots are padded).
  void hpair_u8(const uint8_t* S, int* D) const {
    const int cn = g_.cn;
    const __m128i shuf = cn == 3 ? _mm_setr_epi8(0, 3, 1, 4, 2, 5, -1, -1, 8, 11, 9, 12, 10, 13, -1, -1)
                                 : _mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    const __m256i pack3 = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    const int* o0 = ofs0_.data();
    const __m256i* wv = reinterpret_cast<const __m256i*>(wvec_.data());
    for (int x = 0; x < npair_; x += 2) {
      int64_t q0, q1;
      std::memcpy(&q0, S + o0[x], 8);
      std::memcpy(&q1, S + o0[x + 1], 8);
      const __m128i b = _mm_shuffle_epi8(_mm_set_epi64x(q1, q0), shuf);
      __m256i r = _mm256_madd_epi16(_mm256_cvtepu8_epi16(b), _mm256_loadu_si256(wv + x / 2));
      if (cn == 3) r = _mm256_permutevar8x32_epi32(r, pack3);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(D + x * cn), r);
    }
  }

  // hpair_u8 over two source rows at once, as cv2's row pass does: the column offsets and
  // weights are loaded once for both, and the two rows' independent loads keep twice as many
  // cache misses in flight (a 1080p -> 224 downscale reads every row it needs from L3/DRAM).
  // pf (bytes, 0: none): where the next output row's source rows lie from these; their bytes at
  // the same columns are prefetched as the loop goes, one line per row every ~2 lines read.
  void hpair2_u8(const uint8_t* Sa, const uint8_t* Sb, int* Da, int* Db, ptrdiff_t pf) const {
    if (g_.cn == 3) hpair2_u8_loop<3>(Sa, Sb, Da, Db, ofs0_.data(), wvec_.data(), npair_, pf);
    else hpair2_u8_loop<4>(Sa, Sb, Da, Db, ofs0_.data(), wvec_.data(), npair_, pf);
  }

  // The loop itself, out of line with everything it touches in arguments: inlined into run(),
  // GCC kept reloading spilled pointers and npair_ (the int stores might alias it) from the
  // stack every iteration, ~5 of its ~25 uops.
  template <int CN>
  __attribute__((noinline)) static void hpair2_u8_loop(const uint8_t* __restrict Sa, const uint8_t* __restrict Sb,
                                                       int* __restrict Da, int* __restrict Db, const int* __restrict o0,
                                                       const int* __restrict wvi, int np, ptrdiff_t pf) {
    const __m128i shuf = CN == 3 ? _mm_setr_epi8(0, 3, 1, 4, 2, 5, -1, -1, 8, 11, 9, 12, 10, 13, -1, -1)
                                 : _mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    const __m256i pack3 = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    const __m256i* wv = reinterpret_cast<const __m256i*>(wvi);
    for (int x = 0; x < np; x += 2, ++wv, Da += 2 * CN, Db += 2 * CN) {
      const int oa = o0[x], ob = o0[x + 1];
      if (pf) {
        __builtin_prefetch(Sa + oa + pf, 0, 3);
        __builtin_prefetch(Sb + oa + pf, 0, 3);
      }
      int64_t a0, a1, b0, b1;
      std::memcpy(&a0, Sa + oa, 8);
      std::memcpy(&a1, Sa + ob, 8);
      std::memcpy(&b0, Sb + oa, 8);
      std::memcpy(&b1, Sb + ob, 8);
      const __m256i w = _mm256_loadu_si256(wv);
      __m256i ra = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_shuffle_epi8(_mm_set_epi64x(a1, a0), shuf)), w);
      __m256i rb = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_shuffle_epi8(_mm_set_epi64x(b1, b0), shuf)), w);
      if (CN == 3) ra = _mm256_permutevar8x32_epi32(ra, pack3), rb = _mm256_permutevar8x32_epi32(rb, pack3);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(Da), ra);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(Db), rb);
    }
  }
#endif

  void hrow_u8(const uint8_t* S, int* D, int x_from = 0) const {
    const int cn = g_.cn, ks = tx_.ksize, dw = g_.dw;
    const int* idx = tx_.idx.data();
    const int* w = tx_.iw.data();
    if (ks == 2) {
      if (cn == 3 || cn == 4) {
        int x = x_from;
#if defined(__AVX2__)
        // Each pixel pair as interleaved 16-bit (p0c, p1c) lanes times (a0, a1): one madd gives
        // all channels. 4-byte loads read one byte past a 3-channel pixel, so the pixels at the
        // row's end are left to the scalar loop.
        if (x == 0 && npair_ > 0) {
          hpair_u8(S, D);
          x = npair_;
        }
        const int* o0 = ofs0_.data();
        const int* o1 = ofs1_.data();
        const int* wp = wpk_.data();
        for (; x < nsafe_; ++x) {
          int32_t v0, v1;
          std::memcpy(&v0, S + o0[x], 4);
          std::memcpy(&v1, S + o1[x], 4);
          __m128i pr = _mm_cvtepu8_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(v0), _mm_cvtsi32_si128(v1)));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(D + x * cn), _mm_madd_epi16(pr, _mm_set1_epi32(wp[x])));
        }
#endif
        if (cn == 4) {
          for (; x < dw; ++x) {
            const uint8_t* p0 = S + idx[2 * x] * 4;
            const uint8_t* p1 = S + idx[2 * x + 1] * 4;
            int a0 = w[2 * x], a1 = w[2 * x + 1];
            for (int c = 0; c < 4; ++c) D[4 * x + c] = p0[c] * a0 + p1[c] * a1;
          }
          return;
        }
        for (; x < dw; ++x) {
          const uint8_t* p0 = S + idx[2 * x] * 3;
          const uint8_t* p1 = S + idx[2 * x + 1] * 3;
          int a0 = w[2 * x], a1 = w[2 * x + 1];
          D[3 * x] = p0[0] * a0 + p1[0] * a1;
          D[3 * x + 1] = p0[1] * a0 + p1[1] * a1;
          D[3 * x + 2] = p0[2] * a0 + p1[2] * a1;
        }
        return;
      }
      for (int x = 0; x < dw; ++x) {
        const uint8_t* p0 = S + idx[2 * x] * cn;
        const uint8_t* p1 = S + idx[2 * x + 1] * cn;
        int a0 = w[2 * x], a1 = w[2 * x + 1];
        for (int c = 0; c < cn; ++c) D[x * cn + c] = p0[c] * a0 + p1[c] * a1;
      }
      return;
    }
    for (int x = 0; x < dw; ++x)
      for (int c = 0; c < cn; ++c) {
        int sum = 0;
        for (int k = 0; k < ks; ++k) sum += S[idx[x * ks + k] * cn + c] * w[x * ks + k];
        D[x * cn + c] = sum;
      }
  }

  // Output rows [y0, y1) of a resize whose weights are all (1, 0) (see gather_): pixel x of row
  // y is source pixel idx[2x] of row idx[2y]. 3 and 4 channels move as one 4-byte word, the
  // 3-channel word's fourth byte overwritten by the next pixel (the last pixel goes bytewise).
  void gather_u8(const uint8_t* src, uint8_t* dst, int64_t y0, int64_t y1) const {
    const int cn = g_.cn, dw = g_.dw;
    const size_t sstep = size_t(g_.sw) * cn;
    const int* xi = tx_.idx.data();
    for (int64_t y = y0; y < y1; ++y) {
      const uint8_t* S = src + size_t(ty_.idx[size_t(2 * y)]) * sstep;
      uint8_t* D = dst + size_t(y - y0) * dw * cn;
      int x = 0;
      if ((cn == 3 || cn == 4) && sstep >= 4) {
        const size_t last = sstep - 4;  // a 4-byte load must start here or before
        for (; x < dw - 1; ++x) {
          const size_t o = size_t(xi[2 * x]) * cn;
          if (o > last) break;
          uint32_t v;
          std::memcpy(&v, S + o, 4);
          std::memcpy(D + size_t(x) * cn, &v, 4);
        }
      }
      for (; x < dw; ++x)
        for (int c = 0; c < cn; ++c) D[size_t(x) * cn + c] = S[size_t(xi[2 * x]) * cn + c];
    }
  }

  void run_u8(const uint8_t* src, uint8_t* dst, int64_t y0, int64_t y1) const {
    const Geometry g = g_;
    const int rw = g.dw * g.cn, ks = ty_.ksize;
    const size_t sstep = size_t(g.sw) * g.cn;
    // A small cache of horizontally resized rows: consecutive output rows share source rows.
    // Each cached row is padded by 4 ints: the 4-lane stores of 3-channel pixels write one past.
    const size_t slot_stride = size_t(rw) + 4;
    std::vector<int> buf(slot_stride * ks);
    std::vector<int> have(ks, -1);
    std::vector<const int*> rows(ks);
    for (int64_t y = y0; y < y1; ++y) {
      const int* sy = &ty_.idx[size_t(y) * ks];
      // The next output's source rows are prefetched spread through this row's two-row pass
      // (hpair2_u8), not in one burst: on Zen 3 (1080p -> 224x224) a burst of ~180 prefetches
      // per row stalled the loop and cost ~20%; spread, a cold 1080p -> 224 resize took ~9% less
      // time and -> 300x300 ~15% less on this machine's EPYC (cache flushed before each call).
#if defined(__AVX2__)
      if (ks == 2 && tx_.ksize == 2 && (g.cn == 3 || g.cn == 4) && sy[0] != sy[1] && have[0] != sy[0] &&
          have[1] != sy[0] && have[0] != sy[1] && have[1] != sy[1]) {
        const ptrdiff_t pf = y + 1 < g.dh ? (ptrdiff_t(ty_.idx[size_t(y + 1) * ks]) - sy[0]) * ptrdiff_t(sstep) : 0;
        hrow2_u8(src + size_t(sy[0]) * sstep, src + size_t(sy[1]) * sstep, &buf[0], &buf[slot_stride], pf);
        have[0] = sy[0];
        have[1] = sy[1];
      }
#endif
      for (int k = 0; k < ks; ++k) {
        int slot = -1;
        for (int j = 0; j < ks; ++j)
          if (have[j] == sy[k]) slot = j;
        if (slot < 0) {
          // Reuse a slot no row of this output needs.
          for (int j = 0; j < ks && slot < 0; ++j) {
            bool needed = false;
            for (int m = 0; m < ks; ++m) needed |= have[j] == sy[m];
            if (!needed) slot = j;
          }
          hrow_u8(src + size_t(sy[k]) * sstep, &buf[size_t(slot) * slot_stride]);
          have[slot] = sy[k];
        }
        rows[k] = &buf[size_t(slot) * slot_stride];
      }
      uint8_t* D = dst + size_t(y - y0) * rw;
      const int* b = &ty_.iw[size_t(y) * ks];
      if (ks == 2) {
        const int* S0 = rows[0];
        const int* S1 = rows[1];
        const int b0 = b[0], b1 = b[1];
        int x = 0;
#if defined(__AVX2__)
        // cv2's own formulation in 16-bit lanes: mulhi(S>>4, b) is exactly ((S>>4)*b)>>16.
        {
          const __m256i vb0 = _mm256_set1_epi16(static_cast<int16_t>(b0)), vb1 = _mm256_set1_epi16(static_cast<int16_t>(b1));
          const __m256i two = _mm256_set1_epi16(2);
          auto half16 = [&](int xx) {
            __m256i a0 = _mm256_srai_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(S0 + xx)), 4);
            __m256i a1 = _mm256_srai_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(S0 + xx + 8)), 4);
            __m256i c0 = _mm256_srai_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(S1 + xx)), 4);
            __m256i c1 = _mm256_srai_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(S1 + xx + 8)), 4);
            __m256i p0 = _mm256_permute4x64_epi64(_mm256_packs_epi32(a0, a1), 0xD8);
            __m256i p1 = _mm256_permute4x64_epi64(_mm256_packs_epi32(c0, c1), 0xD8);
            __m256i v = _mm256_add_epi16(_mm256_mulhi_epi16(p0, vb0), _mm256_mulhi_epi16(p1, vb1));
            return _mm256_srai_epi16(_mm256_add_epi16(v, two), 2);
          };
          for (; x + 32 <= rw; x += 32) {
            __m256i lo = half16(x), hi = half16(x + 16);
            __m256i r = _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(D + x), r);
          }
        }
#endif
        for (; x < rw; ++x) {
          int v = (((S0[x] >> 4) * b0) >> 16) + (((S1[x] >> 4) * b1) >> 16);
          D[x] = sat_u8((v + 2) >> 2);
        }
      } else if (ks == 4) {
        const float sc = 1.f / (2048.f * 2048.f);
        float fb[4];
        for (int k = 0; k < 4; ++k) fb[k] = b[k] * sc;
        // cv2's vector loop (kCv2Lanes16 values a step) rounds in float; the values past its last
        // whole step go through the fixed-point formula, which rounds a few differently.
        const int vec_end = rw - rw % kCv2Lanes16;
        for (int x = 0; x < vec_end; ++x) {
          float v = rows[3][x] * fb[3];
          v = rows[2][x] * fb[2] + v;
          v = rows[1][x] * fb[1] + v;
          v = rows[0][x] * fb[0] + v;
          D[x] = sat_u8(static_cast<int>(std::lrint(v)));
        }
        for (int x = vec_end; x < rw; ++x) {
          const int64_t v = int64_t(rows[0][x]) * b[0] + int64_t(rows[1][x]) * b[1] + int64_t(rows[2][x]) * b[2] +
                            int64_t(rows[3][x]) * b[3];
          const int64_t r = (v + (1 << 21)) >> 22;
          D[x] = static_cast<uint8_t>(r < 0 ? 0 : r > 255 ? 255 : r);
        }
      } else {
        for (int x = 0; x < rw; ++x) {
          int64_t v = 0;
          for (int k = 0; k < ks; ++k) v += int64_t(rows[k][x]) * b[k];
          int64_t r = (v + (1 << 21)) >> 22;
          D[x] = static_cast<uint8_t>(r < 0 ? 0 : r > 255 ? 255 : r);
        }
      }
    }
  }

  template <class W>
  void hrow_float(const T* S, W* D) const {
    const int cn = g_.cn, ks = tx_.ksize, dw = g_.dw;
    const int* idx = tx_.idx.data();
    const float* w = tx_.w.data();
    for (int x = 0; x < dw; ++x)
      for (int c = 0; c < cn; ++c) {
        W sum = W(S[idx[x * ks] * cn + c]) * W(w[x * ks]);
        for (int k = 1; k < ks; ++k) sum += W(S[idx[x * ks + k] * cn + c]) * W(w[x * ks + k]);
        D[x * cn + c] = sum;
      }
  }

  void run_float(const T* src, T* dst, int64_t y0, int64_t y1) const {
    using W = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const Geometry g = g_;
    const int rw = g.dw * g.cn, ks = ty_.ksize;
    const size_t sstep = size_t(g.sw) * g.cn;
    std::vector<W> buf(size_t(rw) * ks);
    std::vector<int> have(ks, -1);
    std::vector<const W*> rows(ks);
    for (int64_t y = y0; y < y1; ++y) {
      const int* sy = &ty_.idx[size_t(y) * ks];
      for (int k = 0; k < ks; ++k) {
        int slot = -1;
        for (int j = 0; j < ks; ++j)
          if (have[j] == sy[k]) slot = j;
        if (slot < 0) {
          for (int j = 0; j < ks && slot < 0; ++j) {
            bool needed = false;
            for (int m = 0; m < ks; ++m) needed |= have[j] == sy[m];
            if (!needed) slot = j;
          }
          hrow_float(src + size_t(sy[k]) * sstep, &buf[size_t(slot) * rw]);
          have[slot] = sy[k];
        }
        rows[k] = &buf[size_t(slot) * rw];
      }
      T* D = dst + size_t(y) * rw;
      const float* b = &ty_.w[size_t(y) * ks];
      int x = 0;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>) {
        // cv2's vector loops of the vertical pass sum from the last row up: float32 cubic and
        // Lanczos (4 lanes a step), int16 cubic and Lanczos and uint16 cubic (8 lanes, rounded
        // half to even like the tail). Their tails, and the other cases, sum from the first row
        // down, as below.
        constexpr bool f32 = std::is_same_v<T, float>;
        constexpr int lanes = f32 ? 4 : 8;
        const bool rev = ks == 4 || (ks == 8 && !std::is_same_v<T, uint16_t>);
        if (rev)
          for (; x < rw - rw % lanes; ++x) {
            W v = rows[ks - 1][x] * W(b[ks - 1]);
            for (int k = ks - 2; k >= 0; --k) v = rows[k][x] * W(b[k]) + v;
            D[x] = saturate<T>(v);
          }
      }
      for (; x < rw; ++x) {
        W v = rows[0][x] * W(b[0]);
        for (int k = 1; k < ks; ++k) v += rows[k][x] * W(b[k]);
        D[x] = saturate<T>(v);
      }
    }
  }

  Geometry g_;
  int interp_;
  Taps tx_, ty_;
  std::vector<int> ofs0_, ofs1_, wpk_, wvec_;
  int nsafe_ = 0, npair_ = 0;
  bool gather_ = false;
};

// Nearest neighbour: a gather of whole pixels. NEAREST maps d -> floor(d * scale);
// NEAREST_EXACT samples pixel centres, floor((d + 0.5) * scale), accumulated as cv2 does.
template <class T>
class NearestResize final : public backend::Kernel {
 public:
  NearestResize(const backend::StepDesc& s, bool exact, double isx, double isy) : g_(geometry_of(s)) {
    xo_.resize(g_.dw);
    yo_.resize(g_.dh);
    if (!exact) {
      double fx = 1.0 / isx, fy = 1.0 / isy;
      for (int x = 0; x < g_.dw; ++x) xo_[x] = std::min(static_cast<int>(std::floor(x * fx)), g_.sw - 1);
      for (int y = 0; y < g_.dh; ++y) yo_[y] = std::min(static_cast<int>(std::floor(y * fy)), g_.sh - 1);
    } else {
      auto fill = [](std::vector<int>& o, int ssz, int dsz) {
        double scale = double(ssz) / double(dsz);
        double f = scale * 0.5;
        for (int i = 0; i < dsz; ++i) {
          o[i] = std::min(static_cast<int>(std::floor(f)), ssz - 1);
          f += scale;
        }
      };
      fill(xo_, g_.sw, g_.dw);
      fill(yo_, g_.sh, g_.dh);
    }
  }
  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const Geometry g = g_;
    const int cn = g.cn;
    parallel_for(g.dh, std::max(1, 16384 / std::max(1, g.dw * cn)), [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) {
        const T* S = src + size_t(yo_[y]) * g.sw * cn;
        T* D = dst + size_t(y) * g.dw * cn;
        if (cn == 1) {
          for (int x = 0; x < g.dw; ++x) D[x] = S[xo_[x]];
        } else if (cn == 3) {
          for (int x = 0; x < g.dw; ++x) {
            const T* p = S + xo_[x] * 3;
            D[3 * x] = p[0], D[3 * x + 1] = p[1], D[3 * x + 2] = p[2];
          }
        } else {
          for (int x = 0; x < g.dw; ++x)
            for (int c = 0; c < cn; ++c) D[x * cn + c] = S[xo_[x] * cn + c];
        }
      }
    });
  }

 private:
  Geometry g_;
  std::vector<int> xo_, yo_;
};


#if defined(__AVX2__)
// 2x2 block means of uint8 pixels with cn channels: each 16 source bytes of the two rows give
// the rounded mean of pixel pairs at every byte, and a byte shuffle keeps the bytes that start a
// pair (those with (i mod 2cn) < cn). Stores are 16 wide; the bytes past the kept ones are
// rewritten by the next store. Returns how many outputs were written. ties_even rounds a sum
// of 4k + 2 to the even neighbour (cv2's rule for 2 channels) instead of up. Only 2-channel
// images take it now; 1, 3 and 4 channels go to area2x2_u8_pairs below.
int area2x2_u8_simd(const uint8_t* S0, const uint8_t* S1, uint8_t* D, int n, int cn, bool ties_even) {
  const int period = 2 * cn;
  __m128i masks[8];
  for (int ph = 0; ph < period; ++ph) {
    alignas(16) int8_t m[16];
    int k = 0;
    for (int j = 0; j < 16; ++j)
      if ((ph + j) % period < cn) m[k++] = static_cast<int8_t>(j);
    for (int j = k; j < 16; ++j) m[j] = -1;
    masks[ph] = _mm_load_si128(reinterpret_cast<const __m128i*>(m));
  }
  const __m256i two = _mm256_set1_epi16(2), one = _mm256_set1_epi16(1);
  // (s + 2) >> 2, or (s + 1 + ((s >> 2) & 1)) >> 2 for ties to even
  auto round4 = [&](__m256i v) {
    __m256i bias = ties_even ? _mm256_add_epi16(_mm256_and_si256(_mm256_srli_epi16(v, 2), one), one) : two;
    return _mm256_srli_epi16(_mm256_add_epi16(v, bias), 2);
  };
  int i = 0;
  auto out_at = [&](int b) { return (b / period) * cn + std::min(b % period, cn); };
  // 32 source bytes a step, widened in-lane (unpack with zero) so that no step crosses the two
  // 128-bit lanes until the end: ~half the instructions per byte of the 16-byte loop below.
  // Each lane's kept bytes go out with their own 16-byte store, the second one starting where
  // the first one's kept bytes end. Inputs read: bytes [i, i + 32 + cn) of both rows.
  {
    const __m256i zero = _mm256_setzero_si256();
    for (; i + 32 + cn <= 2 * n; i += 32) {
      const int out0 = out_at(i), out1 = out_at(i + 16);
      if (out1 + 16 > n) break;
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(S0 + i));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(S1 + i));
      const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(S0 + i + cn));
      const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(S1 + i + cn));
      __m256i lo = _mm256_add_epi16(_mm256_add_epi16(_mm256_unpacklo_epi8(a, zero), _mm256_unpacklo_epi8(b, zero)),
                                    _mm256_add_epi16(_mm256_unpacklo_epi8(c, zero), _mm256_unpacklo_epi8(d, zero)));
      __m256i hi = _mm256_add_epi16(_mm256_add_epi16(_mm256_unpackhi_epi8(a, zero), _mm256_unpackhi_epi8(b, zero)),
                                    _mm256_add_epi16(_mm256_unpackhi_epi8(c, zero), _mm256_unpackhi_epi8(d, zero)));
      lo = round4(lo);
      hi = round4(hi);
      const __m256i p = _mm256_packus_epi16(lo, hi);  // bytes back in order within each lane
      const __m128i p0 = _mm_shuffle_epi8(_mm256_castsi256_si128(p), masks[i % period]);
      const __m128i p1 = _mm_shuffle_epi8(_mm256_extracti128_si256(p, 1), masks[(i + 16) % period]);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(D + out0), p0);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(D + out1), p1);
    }
  }
  // Inputs read: bytes [i, i + 16 + cn) of both rows, all inside the 2n source bytes.
  for (; i + 16 + cn <= 2 * n; i += 16) {
    int out = out_at(i);
    if (out + 16 > n) break;
    __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(S0 + i)));
    __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(S1 + i)));
    __m256i c = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(S0 + i + cn)));
    __m256i d = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(S1 + i + cn)));
    __m256i s = round4(_mm256_add_epi16(_mm256_add_epi16(a, b), _mm256_add_epi16(c, d)));
    __m128i p = _mm_packus_epi16(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    int ph = i % period;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(D + out), _mm_shuffle_epi8(p, masks[ph]));
  }
  int out = (i / period) * cn + std::min(i % period, cn);
  return out - out % cn;
}

// 2x2 block means of 1, 3 or 4-channel uint8 pixels rounded as (sum + 2) >> 2 (cv2's rule for
// these channel counts), n output pixels. A byte shuffle puts the two horizontal neighbours of
// each output byte side by side, so one pmaddubsw by ones gives the pair sums as 16-bit words,
// and the two rows add as words: a quarter of the shuffles of the widen-and-add loop above,
// whose per-step output offsets also divide by the run-time period. Returns the output pixels
// written (all n once n fills one step: the last step is moved back to end at n, rewriting a
// few outputs with the same values); reads stay inside the 2n source pixels of each row.
int area2x2_u8_pairs(const uint8_t* S0, const uint8_t* S1, uint8_t* D, int n, int cn) {
  const __m256i ones = _mm256_set1_epi8(1), two = _mm256_set1_epi16(2);
  auto mean4 = [&](__m256i a, __m256i b) {  // a, b: pair-ordered bytes of the two rows
    const __m256i s = _mm256_add_epi16(_mm256_maddubs_epi16(a, ones), _mm256_maddubs_epi16(b, ones));
    return _mm256_srli_epi16(_mm256_add_epi16(s, two), 2);
  };
  int x = 0;
  if (cn == 3) {
    // Each 128-bit lane takes 4 source pixels (12 bytes of a 16-byte load): 2 outputs, 6 words.
    // A step makes 8 outputs from lanes holding source pixels {0-3, 8-11} and {4-7, 12-15}, so
    // that after packing each lane holds 4 outputs in 2 x 6 bytes, squeezed together in-lane and
    // then across lanes. The loads read 4 bytes past the step's 48, except in the last step,
    // whose final lane loads 4 bytes earlier and shuffles from 4 bytes further in.
    const __m256i pairs = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1));
    const __m256i pairs_end = _mm256_setr_epi8(0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1,
                                               4, 7, 5, 8, 6, 9, 10, 13, 11, 14, 12, 15, -1, -1, -1, -1);
    const __m256i squeeze = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1));
    const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    auto ld = [&](const uint8_t* p, int back) {  // pixels p[0..3] and p[8..11], pair-ordered
      const __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                                _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 24 - back)), 1);
      return _mm256_shuffle_epi8(v, back ? pairs_end : pairs);
    };
    auto step8 = [&](int x0, int back) {
      const uint8_t* a = S0 + 6 * x0;
      const uint8_t* b = S1 + 6 * x0;
      const __m256i lo = mean4(ld(a, 0), ld(b, 0)), hi = mean4(ld(a + 12, back), ld(b + 12, back));
      const __m256i o = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(_mm256_packus_epi16(lo, hi), squeeze), join);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(D + 3 * x0), _mm256_castsi256_si128(o));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(D + 3 * x0 + 16), _mm256_extracti128_si256(o, 1));
    };
    for (; 6 * x + 52 <= 6 * n; x += 8) step8(x, 0);
    if (n < 8) return x;
    if (x < n) step8(n - 8, 4);
    return n;
  }
  // 1 channel: neighbours are adjacent already; 4 channels: one in-lane shuffle per 4 pixels.
  const __m256i pairs = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15));
  auto ld = [&](const uint8_t* p) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    return cn == 4 ? _mm256_shuffle_epi8(v, pairs) : v;
  };
  const int step = 32 / cn;  // outputs per 32-byte store
  auto step32 = [&](int x0) {
    const uint8_t* a = S0 + 2 * cn * x0;
    const uint8_t* b = S1 + 2 * cn * x0;
    const __m256i lo = mean4(ld(a), ld(b)), hi = mean4(ld(a + 32), ld(b + 32));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(D + cn * x0), _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8));
  };
  for (; x + step <= n; x += step) step32(x);
  if (n < step) return x;
  if (x < n) step32(n - step);
  return n;
}
#endif

// INTER_AREA with integer factors: block means. cv2 rounds a full 2x2 uint8 block as
// (sum + 2) >> 2 and other blocks as round(sum * (1/area)); blocks cut by the image edge
// average the pixels they hold.
template <class T>
class AreaFastResize final : public backend::Kernel {
 public:
  AreaFastResize(const backend::StepDesc& s, int fx, int fy) : g_(geometry_of(s)), fx_(fx), fy_(fy) {}
  void run(char* const* in, char* out) override {
    using W = std::conditional_t<std::is_floating_point_v<T>, std::conditional_t<std::is_same_v<T, double>, double, float>, int>;
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const Geometry g = g_;
    const int cn = g.cn, fx = fx_, fy = fy_;
    const size_t sstep = size_t(g.sw) * cn;
    const int full_w = std::min(g.dw, g.sw / fx);  // destination columns whose block is whole
    const float scale = 1.f / float(fx * fy);
    std::vector<size_t> block_ofs;  // offsets of a block's pixels from its top-left one
    for (int r = 0; r < fy; ++r)
      for (int k = 0; k < fx; ++k) block_ofs.push_back(r * sstep + size_t(k) * cn);
    parallel_for(g.dh, std::max(1, 8192 / std::max(1, g.dw * cn)), [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) {
        T* D = dst + size_t(y) * g.dw * cn;
        int sy0 = static_cast<int>(y) * fy;
        if (sy0 >= g.sh) {
          std::fill(D, D + size_t(g.dw) * cn, T(0));
          continue;
        }
        bool full_rows = sy0 + fy <= g.sh;
        int x = 0;
        if (full_rows) {
          const T* S = src + size_t(sy0) * sstep;
          // cv2 rounds a whole 2x2 integer block as (sum + 2) >> 2 (ties up) only for 1, 3 and 4
          // channels; 2 or more than 4 channels take its generic block loop, round(sum * 0.25)
          // with ties to even: (sum + 1 + ((sum >> 2) & 1)) >> 2 in integers.
          if constexpr (std::is_integral_v<T>) {
            if (fx == 2 && fy == 2 && cn <= 4) {
              const T* S1 = S + sstep;
              const bool even = cn == 2;
#if defined(__AVX2__)
              if constexpr (std::is_same_v<T, uint8_t>)
                x = even ? area2x2_u8_simd(S, S1, D, full_w * cn, cn, true) / cn : area2x2_u8_pairs(S, S1, D, full_w, cn);
#endif
              for (; x < full_w; ++x)
                for (int c = 0; c < cn; ++c) {
                  int o = 2 * x * cn + c;
                  // >> of a negative int16 sum floors, as cv2's does
                  int sum = int(S[o]) + int(S[o + cn]) + int(S1[o]) + int(S1[o + cn]);
                  D[x * cn + c] = static_cast<T>((sum + (even ? 1 + ((sum >> 2) & 1) : 2)) >> 2);
                }
            }
          }
          // cv2's float32 2x2 vector loop (1 or 4 channels, 4 values a step) adds each row's pair
          // first: ((a + b) + (c + d)) * 0.25; its tail takes the generic order below.
          if constexpr (std::is_same_v<T, float>) {
            if (fx == 2 && fy == 2 && (cn == 1 || cn == 4)) {
              const float* S1 = S + sstep;
              const int n = (full_w * cn) & ~3;
              for (int i = 0; i < n; ++i) {
                const int o = (i / cn) * 2 * cn + i % cn;
                D[i] = ((S[o] + S[o + cn]) + (S1[o] + S1[o + cn])) * 0.25f;
              }
              x = n / cn;
            }
          }
          // cv2's order (it matters for floats): the block's pixels row by row, added to the sum
          // four at a time, each four summed among themselves first.
          const int area = fx * fy;
          const size_t* bo = block_ofs.data();
          for (; x < full_w; ++x)
            for (int c = 0; c < cn; ++c) {
              const T* p = S + size_t(x) * fx * cn + c;
              W sum = 0;
              int k = 0;
              for (; k <= area - 4; k += 4) sum += W(p[bo[k]]) + W(p[bo[k + 1]]) + W(p[bo[k + 2]]) + W(p[bo[k + 3]]);
              for (; k < area; ++k) sum += W(p[bo[k]]);
              D[x * cn + c] = saturate<T>(sum * scale);
            }
        }
        for (; x < g.dw; ++x)
          for (int c = 0; c < cn; ++c) {
            W sum = 0;
            int count = 0;
            for (int r = 0; r < fy && sy0 + r < g.sh; ++r)
              for (int k = 0; k < fx && x * fx + k < g.sw; ++k) {
                sum += W(src[size_t(sy0 + r) * sstep + size_t(x * fx + k) * cn + c]);
                ++count;
              }
            D[x * cn + c] = count ? saturate<T>(float(sum) / count) : T(0);
          }
      }
    });
  }

 private:
  Geometry g_;
  int fx_, fy_;
};

// INTER_AREA for non-integer downscaling: every source pixel weighted by its overlap with the
// destination cell (cv2's computeResizeAreaTab), accumulated in float.
struct AreaTab {
  std::vector<int> start;  // per destination index: first entry in si/alpha
  std::vector<int> si;
  std::vector<float> alpha;
};

AreaTab area_tab(int ssize, int dsize, double scale) {
  AreaTab t;
  for (int d = 0; d < dsize; ++d) {
    t.start.push_back(static_cast<int>(t.si.size()));
    double f1 = d * scale, f2 = f1 + scale;
    double cell = std::min(scale, ssize - f1);
    int s1 = static_cast<int>(std::ceil(f1)), s2 = static_cast<int>(std::floor(f2));
    s2 = std::min(s2, ssize - 1);
    s1 = std::min(s1, s2);
    if (s1 - f1 > 1e-3) {
      t.si.push_back(s1 - 1);
      t.alpha.push_back(static_cast<float>((s1 - f1) / cell));
    }
    for (int sx = s1; sx < s2; ++sx) {
      t.si.push_back(sx);
      t.alpha.push_back(static_cast<float>(1.0 / cell));
    }
    if (f2 - s2 > 1e-3) {
      t.si.push_back(s2);
      t.alpha.push_back(static_cast<float>(std::min(std::min(f2 - s2, 1.), cell) / cell));
    }
  }
  t.start.push_back(static_cast<int>(t.si.size()));
  return t;
}

template <class T>
class AreaResize final : public backend::Kernel {
 public:
  AreaResize(const backend::StepDesc& s, double sx, double sy)
      : g_(geometry_of(s)), tx_(area_tab(g_.sw, g_.dw, sx)), ty_(area_tab(g_.sh, g_.dh, sy)) {}
  void run(char* const* in, char* out) override {
    using W = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const Geometry g = g_;
    const int cn = g.cn, rw = g.dw * cn;
    const size_t sstep = size_t(g.sw) * cn;
    parallel_for(g.dh, 1, [&](int64_t y0, int64_t y1) {
      std::vector<W> buf(rw), sum(rw);
      for (int64_t y = y0; y < y1; ++y) {
        for (int j = ty_.start[y]; j < ty_.start[y + 1]; ++j) {
          const T* S = src + size_t(ty_.si[j]) * sstep;
          std::fill(buf.begin(), buf.end(), W(0));
          for (int x = 0; x < g.dw; ++x)
            for (int k = tx_.start[x]; k < tx_.start[x + 1]; ++k) {
              W a = tx_.alpha[k];
              const T* p = S + size_t(tx_.si[k]) * cn;
              for (int c = 0; c < cn; ++c) buf[x * cn + c] += W(p[c]) * a;
            }
          W beta = ty_.alpha[j];
          if (j == ty_.start[y])
            for (int i = 0; i < rw; ++i) sum[i] = beta * buf[i];
          else
            for (int i = 0; i < rw; ++i) sum[i] += beta * buf[i];
        }
        T* D = dst + size_t(y) * rw;
        for (int i = 0; i < rw; ++i) D[i] = saturate<T>(sum[i]);
      }
    });
  }

 private:
  Geometry g_;
  AreaTab tx_, ty_;
};

}  // namespace

// resize_linear_exact.cpp: INTER_LINEAR_EXACT on the integer depths; IPP's INTER_LINEAR on floats
std::unique_ptr<backend::Kernel> prepare_resize_linear_exact(const backend::StepDesc& s, double isx, double isy);
std::unique_ptr<backend::Kernel> prepare_resize_linear_float(const backend::StepDesc& s, double isx, double isy);
// resize_cubic_ipp.cpp: IPP's INTER_CUBIC (float32 / uint16 / int16, dsize scales)
std::unique_ptr<backend::Kernel> prepare_resize_cubic_ipp(const backend::StepDesc& s, double isx, double isy);
// resize_cubic_u8.cpp: this file's uint8 cubic arithmetic, both passes vectorised
std::unique_ptr<backend::Kernel> prepare_resize_cubic_u8(const backend::StepDesc& s, double isx, double isy);
std::unique_ptr<backend::Kernel> prepare_resize_lanczos_u8(const backend::StepDesc& s, double isx, double isy);
// geom_copy.cpp: NearestResize's tables, pixels moved as blocks and repeated rows copied
std::unique_ptr<backend::Kernel> prepare_resize_nearest_px(const backend::StepDesc& s, bool exact, double isx, double isy);

namespace {

std::unique_ptr<backend::Kernel> prepare_resize(const backend::StepDesc& s) {
  const Params& p = *s.params;
  int interp = static_cast<int>(p.ints[2]);
  double isx = p.floats[0], isy = p.floats[1];
  Geometry g = geometry_of(s);
  double sx = 1.0 / isx, sy = 1.0 / isy;
  int ix = static_cast<int>(std::lrint(sx)), iy = static_cast<int>(std::lrint(sy));
  bool area_fast = std::abs(sx - ix) < std::numeric_limits<double>::epsilon() &&
                   std::abs(sy - iy) < std::numeric_limits<double>::epsilon();
  if (interp == kLinearExact) {
    // cv2: float images take plain INTER_LINEAR; on the integer depths a 2x downscale on both
    // axes is the area average (but for 2 channels), anything else its bit-exact linear resize
    const bool flt = s.output.dtype == DType::Float32 || s.output.dtype == DType::Float64;
    if (flt) interp = kLinear;
    else if (area_fast && ix == 2 && iy == 2 && g.cn != 2) interp = kArea;
    else return prepare_resize_linear_exact(s, isx, isy);
  }
  // float32 / float64 linear with 1, 3 or 4 channels is IPP's in cv2 when the source is at least
  // 2x2 (else cv2's own code, as here): its resize, or its affine warp for fx / fy that are not the
  // size ratios (resize_linear_exact.cpp)
  // 16-bit images likewise take IPP's affine warp for such fx / fy.
  if (interp == kLinear && (g.cn == 1 || g.cn == 3 || g.cn == 4) && g.sw > 1 && g.sh > 1 &&
      (s.output.dtype == DType::Float32 || s.output.dtype == DType::Float64 || s.output.dtype == DType::UInt16 ||
       s.output.dtype == DType::Int16))
    if (auto k = prepare_resize_linear_float(s, isx, isy)) return k;
  // cubic on float32 / uint16 / int16 with 1, 3 or 4 channels and a source of at least 4x4 is
  // IPP's in cv2 (smaller sources and other depths: cv2's own code, as here)
  if (interp == kCubic && (g.cn == 1 || g.cn == 3 || g.cn == 4) && g.sw >= 4 && g.sh >= 4 &&
      (s.output.dtype == DType::Float32 || s.output.dtype == DType::UInt16 || s.output.dtype == DType::Int16))
    if (auto k = prepare_resize_cubic_ipp(s, isx, isy)) return k;
  if (interp == kCubic && s.output.dtype == DType::UInt8) return prepare_resize_cubic_u8(s, isx, isy);
  if (interp == kLanczos4 && s.output.dtype == DType::UInt8) return prepare_resize_lanczos_u8(s, isx, isy);
  if (interp == kNearest || interp == kNearestExact) return prepare_resize_nearest_px(s, interp == kNearestExact, isx, isy);
  // cv2: a linear 2x downscale on both axes is the area average. Other depths with 1, 3 or 4
  // channels go to IPP first, which stays linear (float weights 0.5: round(sum / 4) ties to
  // even, not the area rounding); with 2 or more than 4 channels cv2's own rule holds for all.
  if (interp == kLinear && area_fast && ix == 2 && iy == 2 &&
      (s.output.dtype == DType::UInt8 || g.cn == 2 || g.cn > 4))
    interp = kArea;
  return dispatch_dtype(s.output.dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ||
                  std::is_same_v<T, int8_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, float> ||
                  std::is_same_v<T, double>) {
      if (interp == kNearest || interp == kNearestExact)
        return std::make_unique<NearestResize<T>>(s, interp == kNearestExact, isx, isy);
      if (interp == kArea && sx >= 1 && sy >= 1) {
        if (area_fast) return std::make_unique<AreaFastResize<T>>(s, ix, iy);
        return std::make_unique<AreaResize<T>>(s, sx, sy);
      }
      return std::make_unique<SeparableResize<T>>(s, interp, isx, isy);
    } else {
      throw ValueError("[mnn.cv.resize] unsupported dtype");
    }
  });
}

class LinearRowsU8 final : public ResizeRowsU8 {
 public:
  LinearRowsU8(const backend::StepDesc& s, double isx, double isy) : r_(s, kLinear, isx, isy) {}
  void rows(const uint8_t* src, uint8_t* dst, int64_t y0, int64_t y1) const override { r_.rows_u8(src, dst, y0, y1); }

 private:
  SeparableResize<uint8_t> r_;
};

}  // namespace

std::unique_ptr<ResizeRowsU8> make_linear_rows_u8(int sh, int sw, int cn, int dh, int dw, double isx, double isy) {
  if (sw == 2 * dw && sh == 2 * dh) return nullptr;  // prepare_resize's 2x AREA rule (exact for integer sizes)
  backend::StepDesc s;
  s.inputs.push_back({DType::UInt8, Shape{sh, sw, cn}, {}});
  s.output = {DType::UInt8, Shape{dh, dw, cn}, {}};
  return std::make_unique<LinearRowsU8>(s, isx, isy);
}

MNN_REGISTER_CPU_KERNEL(cv_resize, "cv_resize", &prepare_resize);

}  // namespace mnn::cpu::MNN_ISA_NS
