// cv2.resize INTER_LINEAR_EXACT: cv2's bit-exact bilinear resize, reproduced in integer fixed
// point so that every depth it takes (uint8, int8, uint16, int16, int32) gives cv2 5.0's values
// exactly. (float32/float64 LINEAR_EXACT is plain INTER_LINEAR in cv2; the Python layer routes it
// there, and a 2x downscale on both axes is INTER_AREA, chosen in resize.cpp's prepare.)
//
// The arithmetic, written from the behaviour of cv2's resize_bitExact and its fixed-point types:
// * Coordinates in double: f = (1 / inv_scale) * (d + 0.5) - 0.5, i = floor(f). The fraction
//   f - i becomes a fixed-point weight c1 = round_half_even((f - i) * 2^F), c0 = 2^F - c1, with F
//   = 8 for uint8, 16 for the 8/16-bit types other than uint8, 32 for int32.
// * i < 0 (or a source of one pixel) takes pixel 0 alone, i >= n - 1 the last pixel alone; both
//   as the pixel scaled by 2^F, with no rounding in between.
// * The horizontal pass keeps c0*p0 + c1*p1 in F fractional bits (uint16 for uint8, int32 /
//   uint32 for the 16-bit types, int64 for int32: none of them can overflow, since c0 + c1 = 2^F).
// * The vertical pass multiplies two such values into 2F bits and rounds half up:
//   (h0*c0 + h1*c1 + 2^(2F-1)) >> 2F, saturated. For int32 each product is itself rounded back to
//   32 fractional bits on its magnitude first (cv2's 64-bit fixed-point multiply). Rows that take
//   one source row alone are (h + 2^(F-1)) >> F.
// The results are integers computed exactly, so SIMD (AVX2 uint8 below) and scalar paths agree
// bit for bit, whatever the thread split.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
// GCC 12's AVX-512 intrinsics start from an uninitialised register by design and
// -Wmaybe-uninitialized reports that inside the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "backends/backend.h"
#include "core/error.h"
#include "core/threadpool.h"

namespace mnn::cpu::MNN_ISA_NS {

std::unique_ptr<backend::Kernel> prepare_resize_linear_exact(const backend::StepDesc& s, double isx, double isy);
std::unique_ptr<backend::Kernel> prepare_resize_linear_float(const backend::StepDesc& s);

namespace {

using core::DType;

// Per source type: the fixed-point row type FT and its fractional bits.
template <class T> struct ExactTraits;
template <> struct ExactTraits<uint8_t> { using FT = uint16_t; static constexpr int F = 8; };
template <> struct ExactTraits<int8_t> { using FT = int32_t; static constexpr int F = 16; };
template <> struct ExactTraits<int16_t> { using FT = int32_t; static constexpr int F = 16; };
template <> struct ExactTraits<uint16_t> { using FT = uint32_t; static constexpr int F = 16; };
template <> struct ExactTraits<int32_t> { using FT = int64_t; static constexpr int F = 32; };

// One axis: for destination index d in [lo, hi) the taps ofs[d], ofs[d] + 1 with weights c0, c1;
// below lo the first source pixel, from hi on the last.
struct ExactAxis {
  std::vector<int> ofs;
  std::vector<int64_t> c0, c1;
  int lo = 0, hi = 0;
};

ExactAxis exact_axis(int ssize, int dsize, double inv_scale, int F) {
  ExactAxis a;
  a.ofs.assign(dsize, 0);
  a.c0.assign(dsize, 0);
  a.c1.assign(dsize, 0);
  a.lo = 0;
  a.hi = dsize;
  const double scale = 1.0 / inv_scale;
  const double one = std::ldexp(1.0, F);
  for (int d = 0; d < dsize; ++d) {
    // two roundings, no fused multiply-add (the build has -ffp-contract=off)
    const double f = scale * (double(d) + 0.5) - 0.5;
    const int i = static_cast<int>(std::floor(f));
    if (i >= 0 && ssize > 1) {
      if (i < ssize - 1) {
        a.ofs[d] = i;
        const int64_t c1 = static_cast<int64_t>(std::nearbyint((f - double(i)) * one));  // ties to even
        a.c1[d] = c1;
        a.c0[d] = (int64_t(1) << F) - c1;
      } else {
        a.ofs[d] = ssize - 1;
        a.hi = std::min(a.hi, d);
      }
    } else {
      a.lo = std::max(a.lo, d + 1);
    }
  }
  if (a.hi < a.lo) a.hi = a.lo;  // (a one-pixel source: every index takes pixel 0)
  return a;
}

template <class T>
inline T sat_to(int64_t v) {
  constexpr int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  return static_cast<T>(v < lo ? lo : v > hi ? hi : v);
}

// A row of one source pixel (cn values) scaled by 2^F.
template <class T, class FT, int F>
inline FT fixed_of(T v) {
  return static_cast<FT>(static_cast<FT>(v) * (FT(1) << F));
}

// cv2's 64-bit fixed-point product (32 fractional bits each), rounded half up on the magnitude.
inline int64_t mul_fixed64(int64_t h, int64_t c) {
  const bool neg = (h < 0) != (c < 0);
  const unsigned __int128 uh = h < 0 ? (unsigned __int128)(~uint64_t(h) + 1) : (unsigned __int128)uint64_t(h);
  const unsigned __int128 uc = c < 0 ? (unsigned __int128)(~uint64_t(c) + 1) : (unsigned __int128)uint64_t(c);
  const unsigned __int128 m = (uh * uc + (unsigned __int128)(uint64_t(1) << 31)) >> 32;
  if (neg) return m >= ((unsigned __int128)1 << 63) ? std::numeric_limits<int64_t>::min() : -int64_t(uint64_t(m));
  return m > (unsigned __int128)std::numeric_limits<int64_t>::max() ? std::numeric_limits<int64_t>::max()
                                                                    : int64_t(uint64_t(m));
}

inline int64_t sat_add64(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return a < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  return r;
}

template <class T>
class LinearExactResize final : public backend::Kernel {
  using FT = typename ExactTraits<T>::FT;
  static constexpr int F = ExactTraits<T>::F;

 public:
  LinearExactResize(int sh, int sw, int dh, int dw, int cn, double isx, double isy)
      : sh_(sh), sw_(sw), dh_(dh), dw_(dw), cn_(cn),
        ax_(exact_axis(sw, dw, isx, F)), ay_(exact_axis(sh, dh, isy, F)) {
    // Per element of the interpolated span [lo*cn, hi*cn): the first tap's offset in the row and
    // the weights; for uint8 the weights packed as two int16 (c0 low, c1 high) for madd.
    const int n = (ax_.hi - ax_.lo) * cn;
    eofs_.resize(n);
    ec0_.resize(n);
    ec1_.resize(n);
    for (int x = ax_.lo, e = 0; x < ax_.hi; ++x)
      for (int c = 0; c < cn; ++c, ++e) {
        eofs_[e] = ax_.ofs[x] * cn + c;
        ec0_[e] = static_cast<FT>(ax_.c0[x]);
        ec1_[e] = static_cast<FT>(ax_.c1[x]);
      }
#if defined(__AVX2__)
    if constexpr (std::is_same_v<T, uint8_t>) {
      if (cn <= 4) {
        // pixels whose 8-byte load (both taps: 2 cn <= 8 bytes) stays inside the row, in pairs;
        // the weights of pixels x, x + 1 broadcast to the two 128-bit halves
        const int np = ax_.hi - ax_.lo;
        while (npix_ < np && ax_.ofs[ax_.lo + npix_] * cn + 8 <= sw * cn) ++npix_;
        npix_ &= ~1;
        wvec_.resize(size_t(npix_) * 4);
        for (int x = 0; x < npix_; ++x) {
          const int32_t w = int32_t(uint32_t(ax_.c0[ax_.lo + x]) | (uint32_t(ax_.c1[ax_.lo + x]) << 16));
          for (int k = 0; k < 4; ++k) wvec_[size_t(x) * 4 + k] = w;
        }
      }
    }
#endif
  }

  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const int rw = dw_ * cn_;
    // A small resize (1080p -> 224x224 is ~0.15 ms on one core) loses more to waking the pool's
    // workers on a busy machine than a second core gains it: one chunk below ~1M row-pass values.
    const int64_t work = (std::min<int64_t>(sh_, 2 * int64_t(dh_)) + dh_) * int64_t(rw);
    const int64_t grain = work < (int64_t(1) << 20) ? std::max(1, dh_) : std::max<int64_t>(1, 8192 / std::max(1, rw));
    core::parallel_for(dh_, grain, [&](int64_t y0, int64_t y1) {
      std::vector<FT> buf(size_t(2) * (rw + 4));
      FT* slot[2] = {buf.data(), buf.data() + rw + 4};
      int held[2] = {-1, -1};
      // the horizontal pass of source row r, kept in one of two slots (not in `keep`)
      auto row = [&](int r, int keep) -> const FT* {
        for (int k = 0; k < 2; ++k)
          if (held[k] == r) return slot[k];
        const int k = held[0] == keep ? 1 : 0;
        hline(src + size_t(r) * sw_ * cn_, slot[k]);
        held[k] = r;
        return slot[k];
      };
      for (int64_t y = y0; y < y1; ++y) {
        T* D = dst + size_t(y) * rw;
        if (y < ay_.lo || y >= ay_.hi) {
          set_row(row(y < ay_.lo ? 0 : sh_ - 1, -1), D, rw);
        } else {
          const int iy = ay_.ofs[y];
          const FT* h0 = row(iy, iy + 1);
          const FT* h1 = row(iy + 1, iy);
          vline(h0, h1, ay_.c0[y], ay_.c1[y], D, rw);
        }
      }
    });
  }

 private:
  void hline(const T* S, FT* H) const {
    const int cn = cn_;
    FT* Hm = H + ax_.lo * cn;
    const int n = (ax_.hi - ax_.lo) * cn;
    int e = 0;
#if defined(__AVX2__)
    if constexpr (std::is_same_v<T, uint8_t>) e = hline_u8_avx2(S, Hm);
#endif
    const int* of = eofs_.data();
    const FT* c0 = ec0_.data();
    const FT* c1 = ec1_.data();
    for (; e < n; ++e) {
      const T* p = S + of[e];
      if constexpr (std::is_same_v<T, int32_t>) {
        Hm[e] = int64_t(c0[e]) * p[0] + int64_t(c1[e]) * p[cn];  // exact: |sum| <= 2^63
      } else {
        Hm[e] = static_cast<FT>(c0[e] * static_cast<FT>(p[0]) + c1[e] * static_cast<FT>(p[cn]));
      }
    }
    // the edges last: the vector loop's stores run past its last pixel
    for (int x = 0; x < ax_.lo; ++x)
      for (int c = 0; c < cn; ++c) H[x * cn + c] = fixed_of<T, FT, F>(S[c]);
    const T* last = S + size_t(sw_ - 1) * cn;
    for (int x = ax_.hi; x < dw_; ++x)
      for (int c = 0; c < cn; ++c) H[x * cn + c] = fixed_of<T, FT, F>(last[c]);
  }

#if defined(__AVX2__)
  // uint8 with 1 to 4 channels, two pixels per vector: one 8-byte load holds both taps of a
  // pixel; a byte shuffle pairs them per channel as int16 (p0, p1), madd with (c0, c1) gives
  // c0*p0 + c1*p1 (at most 255 * 256), and 4 values are stored per pixel, the ones past its cn
  // overwritten by the next pixel (or the edge fill; the row buffer has room for them).
  int hline_u8_avx2(const uint8_t* S, uint16_t* H) const {
    const int cn = cn_, np = npix_;
    if (np == 0) return 0;
    alignas(16) int8_t ctl[16];
    for (int j = 0; j < 4; ++j) {
      const bool on = j < cn;
      ctl[4 * j] = on ? int8_t(j) : int8_t(-128);
      ctl[4 * j + 1] = -128;
      ctl[4 * j + 2] = on ? int8_t(cn + j) : int8_t(-128);
      ctl[4 * j + 3] = -128;
    }
    const __m256i shuf = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(ctl)));
    const int* ofs = ax_.ofs.data() + ax_.lo;
    const int32_t* wv = wvec_.data();
    int x = 0;
    for (; x + 4 <= np; x += 4) {
      const __m256i pa = _mm256_inserti128_si256(
          _mm256_castsi128_si256(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(S + ofs[x] * cn))),
          _mm_loadl_epi64(reinterpret_cast<const __m128i*>(S + ofs[x + 1] * cn)), 1);
      const __m256i pb = _mm256_inserti128_si256(
          _mm256_castsi128_si256(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(S + ofs[x + 2] * cn))),
          _mm_loadl_epi64(reinterpret_cast<const __m128i*>(S + ofs[x + 3] * cn)), 1);
      const __m256i ra = _mm256_madd_epi16(_mm256_shuffle_epi8(pa, shuf),
                                           _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wv + 4 * x)));
      const __m256i rb = _mm256_madd_epi16(_mm256_shuffle_epi8(pb, shuf),
                                           _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wv + 4 * x + 8)));
      const __m256i r = _mm256_packus_epi32(ra, rb);  // lanes: (x, x+2), (x+1, x+3)
      const __m128i lo = _mm256_castsi256_si128(r), hi = _mm256_extracti128_si256(r, 1);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(H + x * cn), lo);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(H + (x + 1) * cn), hi);
      _mm_storeh_pi(reinterpret_cast<__m64*>(H + (x + 2) * cn), _mm_castsi128_ps(lo));
      _mm_storeh_pi(reinterpret_cast<__m64*>(H + (x + 3) * cn), _mm_castsi128_ps(hi));
    }
    return x * cn;
  }
#endif

  void set_row(const FT* H, T* D, int n) const {
    constexpr int64_t half = int64_t(1) << (F - 1);
    for (int i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, uint8_t>) {
        D[i] = sat_to<uint8_t>((int64_t(H[i]) + half) >> F);
      } else if constexpr (std::is_same_v<T, int32_t>) {
        D[i] = sat_to<int32_t>(int64_t(uint64_t(H[i]) + uint64_t(half)) >> F);
      } else if constexpr (std::is_signed_v<FT>) {
        D[i] = sat_to<T>(int32_t(uint32_t(H[i]) + uint32_t(half)) >> F);
      } else {
        D[i] = sat_to<T>((uint32_t(H[i]) + uint32_t(half)) >> F);
      }
    }
  }

  void vline(const FT* H0, const FT* H1, int64_t c0, int64_t c1, T* D, int n) const {
    int i = 0;
    if constexpr (std::is_same_v<T, uint8_t>) {
#if defined(__AVX2__)
      i = vline_u8_avx2(H0, H1, int(c0), int(c1), D, n);
#endif
      for (; i < n; ++i) D[i] = sat_to<uint8_t>((uint32_t(H0[i]) * uint32_t(c0) + uint32_t(H1[i]) * uint32_t(c1) + (1u << 15)) >> 16);
    } else if constexpr (std::is_same_v<T, int32_t>) {
      for (; i < n; ++i) {
        const int64_t s = sat_add64(mul_fixed64(H0[i], c0), mul_fixed64(H1[i], c1));
        D[i] = sat_to<int32_t>(int64_t(uint64_t(s) + (uint64_t(1) << 31)) >> 32);
      }
    } else if constexpr (std::is_signed_v<FT>) {
      for (; i < n; ++i) {
        const int64_t s = int64_t(H0[i]) * c0 + int64_t(H1[i]) * c1;
        D[i] = sat_to<T>(int64_t(uint64_t(s) + (uint64_t(1) << 31)) >> 32);
      }
    } else {
      for (; i < n; ++i) {
        const uint64_t s = uint64_t(H0[i]) * uint64_t(c0) + uint64_t(H1[i]) * uint64_t(c1);
        D[i] = sat_to<T>(int64_t((s + (uint64_t(1) << 31)) >> 32));
      }
    }
  }

#if defined(__AVX2__)
  // (h0*c0 + h1*c1 + 2^15) >> 16 with madd: the 16-bit values are offset by -2^15 to fit int16,
  // which takes 2^15 * (c0 + c1) = 2^23 off every sum; it is added back with the rounding term.
  static int vline_u8_avx2(const uint16_t* H0, const uint16_t* H1, int c0, int c1, uint8_t* D, int n) {
    const __m256i w = _mm256_set1_epi32(int32_t(uint32_t(c0) | (uint32_t(c1) << 16)));
    const __m256i flip = _mm256_set1_epi16(int16_t(0x8000));
    const __m256i bias = _mm256_set1_epi32((1 << 23) + (1 << 15));
    int i = 0;
    for (; i + 32 <= n; i += 32) {
      __m256i out[2];
      for (int h = 0; h < 2; ++h) {
        const __m256i a = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(H0 + i + 16 * h)), flip);
        const __m256i b = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(H1 + i + 16 * h)), flip);
        const __m256i lo = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), w), bias), 16);
        const __m256i hi = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), w), bias), 16);
        out[h] = _mm256_packs_epi32(lo, hi);  // 16 values in order, per 128-bit lane
      }
      const __m256i r = _mm256_permute4x64_epi64(_mm256_packus_epi16(out[0], out[1]), 0xD8);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(D + i), r);
    }
    return i;
  }
#endif

  int sh_, sw_, dh_, dw_, cn_;
  ExactAxis ax_, ay_;
  std::vector<int> eofs_;
  std::vector<FT> ec0_, ec1_;
  std::vector<int32_t> wvec_;
  int npix_ = 0;
};

// INTER_LINEAR (and so LINEAR_EXACT) on float32 / float64 images of 1, 3 or 4 channels: cv2 5.0
// hands these to IPP, whose arithmetic (measured against cv2 bit by bit) is: the source coordinate
// f = (d + 0.5) * (n_src / n_dst) - 0.5 in double (for float32 two roundings, not an fma: a point
// on a pixel comes out whole; for float64 one fma), i = floor(f), t = f - i in the image's type
// (a float t that rounds to 1 stays with i: fma(b - a, 1, a), which can differ from b by an ulp);
// taps clamped to the image; each pass a fused lerp fma(b - a, t, a), the horizontal one first
// (float32 with 3 or 4 channels: see LerpResize for the columns outside the source).
struct LerpAxis {
  std::vector<int> i0, i1;
  std::vector<double> t;
  std::vector<int8_t> side;  // IPP's resize: -1 left of the first pixel, 1 right of the last (none: empty)
};

LerpAxis lerp_axis(int ssize, int dsize, bool f32) {
  LerpAxis a;
  a.i0.resize(dsize);
  a.i1.resize(dsize);
  a.t.resize(dsize);
  const double scale = double(ssize) / double(dsize);
  for (int d = 0; d < dsize; ++d) {
    // float32: not fused (-ffp-contract=off); float64: fused
    const double f = f32 ? (double(d) + 0.5) * scale - 0.5 : std::fma(double(d) + 0.5, scale, -0.5);
    int i = static_cast<int>(std::floor(f));
    double t = f - double(i);
    if (f32) t = double(static_cast<float>(t));  // may round to 1: IPP keeps i, lerping at t = 1
    a.i0[d] = std::min(std::max(i, 0), ssize - 1);
    a.i1[d] = std::min(std::max(i + 1, 0), ssize - 1);
    a.t[d] = t;
    a.side.push_back(i < 0 ? -1 : i + 1 > ssize - 1 ? 1 : 0);
  }
  return a;
}

// resize with fx / fy that are not the size ratios: cv2 hands IPP a forward affine map
// x_dst = s * x_src + (0.5 * s - 0.5) (s = fx) and IPP warps with it. Measured against cv2 bit by bit:
// the source coordinate is (d - (0.5 * s - 0.5)) / s in double, i = floor, t = f - i (in the image's
// type); a point left of the first pixel takes it (t = 0), one at or right of the last pixel is
// the last pair's lerp at t = 1 (fma(b - a, 1, a), which can differ from b by an ulp).
//
// float64 (f64_columns / f64_rows): IPP inverts the map [[s, 0, shift], [0, so, shift_o]] itself,
// coefficient by coefficient: inv = so / (s * so), off = -(so * shift) / (s * so) (so: the other
// axis's scale), and evaluates it in its own order. A row's coordinate is fma(y, inv, off). Columns
// run from the first whose coordinate is >= 0 to the last below the last pixel in two-lane double
// vectors, two of them a step: the first two columns fma(x, inv, off), the next two those + 2 inv,
// then each column the one four back + 4 inv; past the last whole step, the next two columns are
// the ones four back + 4 inv and a third is the one two back + 2 inv. (Measured against cv2 5.0's
// float64 resize bit for bit; the columns outside that span take the edge pixels, whatever their
// coordinate.)
// Rows outside the image (above the first, below the last) take a scalar loop instead: from the
// first column's fma, each column the previous one + inv (kColumnsScalar).
// With 3 or 4 channels a vector holds one column's coordinate pair: the first two columns fma(x,
// inv, off), then each column the one two back + 2 inv (kColumnsPairs).
enum class AffineF64 { kNone, kColumns, kColumnsPairs, kColumnsScalar, kRows };
// How far past the image a column coordinate may be (rounding) and still be lerped: measured
// excesses of 4e-15 are, of 0.016 are not.
constexpr double kAffineTol = 1e-9;

LerpAxis lerp_axis_affine(int ssize, int dsize, double s, bool f32, AffineF64 f64 = AffineF64::kNone,
                          double so = 1.0) {
  LerpAxis a;
  a.i0.resize(dsize);
  a.i1.resize(dsize);
  a.t.resize(dsize);
  const double shift = -0.5 + 0.5 * s;
  std::vector<double> coord(static_cast<size_t>(dsize));
  for (int d = 0; d < dsize; ++d) coord[size_t(d)] = (double(d) - shift) / s;
  int lo = 0, hi = dsize;  // float64 columns: the span IPP's column loop covers
  if (f64 != AffineF64::kNone) {
    const double det = s * so, inv = so / det, off = -(so * shift) / det;
    for (int d = 0; d < dsize; ++d) coord[size_t(d)] = std::fma(double(d), inv, off);
    if (f64 != AffineF64::kRows) {
      // IPP's vector loops take the columns whose coordinate is in [0, ssize - 1] give or take a
      // rounding error (there the lerp extrapolates that little from the last pair)
      // (a single destination column is not the vector loop's: measured, no tolerance there)
      const bool vec = f64 != AffineF64::kColumnsScalar && dsize > 1;
      const double tol = vec ? kAffineTol : 0.0;
      int x0 = 0, x1 = 0;
      while (x0 < dsize && coord[size_t(x0)] < -tol && vec) ++x0;
      x1 = x0;
      while (x1 < dsize && coord[size_t(x1)] <= double(ssize - 1) + tol) ++x1;
      lo = x0, hi = x1;
      const int m = x1 - x0, n4 = m / 4 * 4;
      double* c = coord.data() + x0;
      for (int k = 0; k < m; ++k) {
        if (f64 == AffineF64::kColumnsScalar) c[k] = k == 0 ? std::fma(double(x0), inv, off) : c[k - 1] + inv;
        else if (k < 2) c[k] = std::fma(double(x0 + k), inv, off);
        else if (f64 == AffineF64::kColumnsPairs) c[k] = c[k - 2] + 2 * inv;
        else if (k < 4) c[k] = c[k - 2] + 2 * inv;
        else if (k < n4 || k - n4 < 2) c[k] = c[k - 4] + 4 * inv;
        else c[k] = c[k - 2] + 2 * inv;
      }
    }
  }
  if (f64 == AffineF64::kRows) {  // the rows outside are set by the caller
    for (int d = 0; d < dsize; ++d) {
      const double f = coord[size_t(d)];
      const int i = std::min(std::max(static_cast<int>(std::floor(f)), 0), ssize - 2);
      a.i0[d] = i, a.i1[d] = i + 1, a.t[d] = f - double(i);
    }
    return a;
  }
  if (f64 == AffineF64::kColumns || f64 == AffineF64::kColumnsPairs) {
    for (int d = 0; d < dsize; ++d) {
      const double f = coord[size_t(d)];
      if (d >= lo && d < hi && (dsize > 1 || f < double(ssize - 1))) {  // the last pair's (or first pair's) lerp, even a hair outside
        const int i = std::min(std::max(static_cast<int>(std::floor(f)), 0), ssize - 2);
        a.i0[d] = i, a.i1[d] = i + 1, a.t[d] = f - double(i);
        a.side.push_back(0);
      } else if (d < lo) {  // the first pixel (reading the second at t = 0: a NaN there comes through)
        a.i0[d] = 0, a.i1[d] = 1, a.t[d] = 0.0;
        a.side.push_back(-1);
      } else {  // the last pixel
        a.i0[d] = a.i1[d] = ssize - 1, a.t[d] = 0.0;
        a.side.push_back(1);
      }
    }
    return a;
  }
  for (int d = 0; d < dsize; ++d) {
    const double f = coord[size_t(d)];
    int i = static_cast<int>(std::floor(f));
    double t = f - double(i);
    if (t == 1.0) ++i, t = 0.0;
    if (f < 0) i = 0, t = 0.0;
    if (i >= ssize - 1) i = ssize - 2, t = 1.0;  // ssize >= 2 (IPP is not used for one row or column)
    if (f32) t = double(static_cast<float>(t));
    a.i0[d] = i;
    a.i1[d] = i + 1;
    // float64: outside the image the edge pixel itself (a coordinate on the last pixel is still the
    // last pair's lerp at t = 1)
    // (the rows outside take the last pixel for a coordinate on it too)
    if (f64 != AffineF64::kNone && (f > double(ssize - 1) || (f64 == AffineF64::kColumnsScalar && f >= double(ssize - 1))))
      a.i0[d] = a.i1[d] = ssize - 1, t = 0.0;
    if (f64 != AffineF64::kNone) a.side.push_back(f < 0 ? -1 : a.i0[d] == a.i1[d] ? 1 : 0);
    a.t[d] = t;
  }
  return a;
}

// T: the image's type; F: the type IPP computes in (the image's for floats, float for 16-bit
// images, whose results it rounds to nearest, ties to even).
template <class T, class F = T>
class LerpResize final : public backend::Kernel {
 public:
  LerpResize(int sh, int sw, int dh, int dw, int cn)
      : LerpResize(sh, sw, dh, dw, cn, lerp_axis(sw, dw, std::is_same_v<F, float>),
                   lerp_axis(sh, dh, std::is_same_v<F, float>)) {}
  LerpResize(int sh, int sw, int dh, int dw, int cn, LerpAxis ax, LerpAxis ay)
      : sh_(sh), sw_(sw), dh_(dh), dw_(dw), cn_(cn), ax_(std::move(ax)), ay_(std::move(ay)) {
    const int n = dw * cn;
    e0_.resize(n);
    e1_.resize(n);
    et_.resize(n);
    for (int x = 0, e = 0; x < dw; ++x)
      for (int c = 0; c < cn; ++c, ++e) {
        e0_[e] = ax_.i0[x] * cn + c;
        e1_[e] = ax_.i1[x] * cn + c;
        et_[e] = static_cast<F>(ax_.t[x]);
      }
    // IPP's resize (not its warp) runs the destination columns left or right of the source on
    // their own path when there are at least 5 of them on that side, and there its vertical lerp
    // is not fused (a + (b - a) * t): for 4 channels all of them, for 3 the first two (measured
    // against cv2 5.0 element by element on float32; 1 channel and float64 stay fused).
    unfused_.assign(size_t(n), 0);
    if (std::is_same_v<T, float> && !ax_.side.empty() && (cn == 3 || cn == 4)) {
      int nl = 0, nr = 0;
      for (int8_t v : ax_.side) nl += v < 0, nr += v > 0;
      for (int x = 0; x < dw; ++x) {
        const int8_t v = ax_.side[x];
        if ((v < 0 && nl >= 5) || (v > 0 && nr >= 5))
          for (int c = 0; c < (cn == 3 ? 2 : 4); ++c) unfused_[size_t(x) * cn + c] = 1;
      }
    }
    any_unfused_ = std::find(unfused_.begin(), unfused_.end(), uint8_t(1)) != unfused_.end();
    // 16-bit images: the destination pixels [vx0_, vx1_) take the SIMD row pass, those whose
    // taps are neighbours (i1 = i0 + 1) and whose 4-element loads at both taps stay in the row
    if constexpr (sizeof(T) == 2 && std::is_same_v<F, float>) {
      auto ok = [&](int x) {
        return ax_.i1[x] == ax_.i0[x] + 1 && ax_.i0[x] * cn + 8 <= sw * cn && (cn == 1 || cn == 3 || cn == 4);
      };
      int x = 0;
      while (x < dw && !ok(x)) ++x;
      vx0_ = x;
      while (x < dw && ok(x)) ++x;
      vx1_ = x;
      tv_.resize(size_t(vx1_ - vx0_ + 1) * 4);
      for (int k = vx0_; k < vx1_; ++k)
        for (int c = 0; c < 4; ++c) tv_[size_t(k - vx0_) * 4 + c] = static_cast<float>(ax_.t[k]);
    }
  }

  // IPP's int16 resize (not its warp) lerps the edge rows and columns, whose taps the image's edge
  // clamps to one source row or column, on a path of its own: a + round((b - a) * t), the float
  // product rounded to an integer before a is added (ties to even on the difference, not on the
  // sum as inside). Measured against cv2 5.0 tie by tie; uint16 keeps the inner formula there.
  void set_anchored_edges() { anchored_ = true; }

  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const int rw = dw_ * cn_;
    const int64_t grain = std::max<int64_t>(1, 16384 / std::max(1, rw));
    if (anchored_) return run_anchored(src, dst, rw, grain);
    core::parallel_for(dh_, grain, [&](int64_t y0, int64_t y1) {
      // each slot padded by 8: the SIMD row pass stores whole vectors
      std::vector<F> buf(size_t(2) * (rw + 8));
      F* slot[2] = {buf.data(), buf.data() + rw + 8};
      int held[2] = {-1, -1};
      auto row = [&](int r, int keep) -> const F* {
        for (int k = 0; k < 2; ++k)
          if (held[k] == r) return slot[k];
        const int k = held[0] == keep ? 1 : 0;
        const T* S = src + size_t(r) * sw_ * cn_;
        F* H = slot[k];
        hline<1>(&S, &H);
        held[k] = r;
        return H;
      };
      for (int64_t y = y0; y < y1; ++y) {
        const int r0 = ay_.i0[y], r1 = ay_.i1[y];
        if (cn_ != 1 && r0 != r1 && held[0] != r0 && held[1] != r0 && held[0] != r1 && held[1] != r1) {
          const T* S2[2] = {src + size_t(r0) * sw_ * cn_, src + size_t(r1) * sw_ * cn_};
          hline<2>(S2, slot);
          held[0] = r0, held[1] = r1;
        }
        const F* h0 = row(r0, r1);
        const F* h1 = row(r1, r0);
        const F t = static_cast<F>(ay_.t[y]);
        T* D = dst + size_t(y) * rw;
        if (!any_unfused_) {  // one branch-free loop the compiler vectorises
          int e = 0;
#if defined(__AVX2__)
          if constexpr (sizeof(T) == 2 && std::is_same_v<F, float>) {
            // the same fma, round to nearest (ties to even: nearbyint's mode), clamp and narrow
            const __m256 vt = _mm256_set1_ps(t);
            const __m256 lo = _mm256_set1_ps(float(std::numeric_limits<T>::min()));
            const __m256 hi = _mm256_set1_ps(float(std::numeric_limits<T>::max()));
            auto at = [&](int i) {
              const __m256 a = _mm256_loadu_ps(h0 + i), b = _mm256_loadu_ps(h1 + i);
              const __m256 r = _mm256_round_ps(_mm256_fmadd_ps(_mm256_sub_ps(b, a), vt, a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
              return _mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(r, lo), hi));
            };
            for (; e + 16 <= rw; e += 16) {
              const __m256i p = std::is_signed_v<T> ? _mm256_packs_epi32(at(e), at(e + 8)) : _mm256_packus_epi32(at(e), at(e + 8));
              _mm256_storeu_si256(reinterpret_cast<__m256i*>(D + e), _mm256_permute4x64_epi64(p, 0xD8));
            }
          }
#endif
          for (; e < rw; ++e) D[e] = store(std::fma(h1[e] - h0[e], t, h0[e]));
          continue;
        }
        for (int e = 0; e < rw; ++e)
          D[e] = store(unfused_[e] ? F(h0[e] + (h1[e] - h0[e]) * t) : std::fma(h1[e] - h0[e], t, h0[e]));
      }
    });
  }

 private:
  int sh_, sw_, dh_, dw_, cn_;
  LerpAxis ax_, ay_;
  std::vector<int> e0_, e1_;
  std::vector<F> et_;
  std::vector<uint8_t> unfused_;
  bool any_unfused_ = false;
  bool anchored_ = false;

  // a + round((b - a) * t) in F, for the lerps along an edge (see set_anchored_edges)
  static T anchored(T a, T b, F t) {
    const F d = static_cast<F>(b) - static_cast<F>(a);
    return store(static_cast<F>(std::nearbyint(d * t)) + static_cast<F>(a));
  }

  void run_anchored(const T* src, T* dst, int rw, int64_t grain) {
    core::parallel_for(dh_, grain, [&](int64_t y0, int64_t y1) {
      std::vector<F> h0(static_cast<size_t>(rw)), h1(static_cast<size_t>(rw));
      for (int64_t y = y0; y < y1; ++y) {
        const int r0 = ay_.i0[y], r1 = ay_.i1[y];
        const T* S0 = src + size_t(r0) * sw_ * cn_;
        const T* S1 = src + size_t(r1) * sw_ * cn_;
        T* D = dst + size_t(y) * rw;
        if (r0 == r1) {  // an edge row: the horizontal lerp alone
          for (int e = 0; e < rw; ++e) D[e] = anchored(S0[e0_[e]], S0[e1_[e]], et_[e]);
          continue;
        }
        const F ty = static_cast<F>(ay_.t[y]);
        for (int e = 0; e < rw; ++e) {
          if (e0_[e] == e1_[e]) {  // an edge column: the vertical lerp alone
            D[e] = anchored(S0[e0_[e]], S1[e0_[e]], ty);
            continue;
          }
          const F a0 = static_cast<F>(S0[e0_[e]]), b0 = static_cast<F>(S0[e1_[e]]);
          const F a1 = static_cast<F>(S1[e0_[e]]), b1 = static_cast<F>(S1[e1_[e]]);
          const F p = std::fma(b0 - a0, et_[e], a0), q = std::fma(b1 - a1, et_[e], a1);
          D[e] = store(std::fma(q - p, ty, p));
        }
      }
    });
  }

  // The horizontal lerp of one source row: fma(b - a, t, a) per element (a, b exact in F, b - a
  // exact, one rounding), as vectors where the taps are neighbours: every ISA gives these bits.
  // NR (1 or 2) rows at once: two rows' independent loads keep twice the misses in flight
  template <int NR>
  void hline(const T* const* Sr, F* const* Hr) const {
    const int rw = dw_ * cn_;
    auto scalar = [&](int e0, int e1) {
      for (int r = 0; r < NR; ++r) {
        const T* S = Sr[r];
        F* H = Hr[r];
        for (int e = e0; e < e1; ++e) {
          const F a = static_cast<F>(S[e0_[e]]), b = static_cast<F>(S[e1_[e]]);
          H[e] = std::fma(b - a, et_[e], a);
        }
      }
    };
    int x = vx0_;
    scalar(0, x * cn_);
#if defined(__AVX2__)
    if constexpr (sizeof(T) == 2 && std::is_same_v<F, float>) {
      constexpr bool sgn = std::is_signed_v<T>;
      auto widen = [](__m128i v) { return _mm256_cvtepi32_ps(sgn ? _mm256_cvtepi16_epi32(v) : _mm256_cvtepu16_epi32(v)); };
      const int cn = cn_;
      const int* i0 = ax_.i0.data();
      const F* et = et_.data();
      if (cn == 3 || cn == 4) {
        // two pixels a step, one per 128-bit lane: one 16-byte load holds both taps' elements
        // (a0 a1 a2 b0 b1 b2 . . or a0..a3 b0..b3); byte shuffles put a's and b's in the high
        // halves of 32-bit lanes, an arithmetic or logical shift widens them
        const __m256i ma = cn == 3 ? _mm256_broadcastsi128_si256(_mm_setr_epi8(-1, -1, 0, 1, -1, -1, 2, 3, -1, -1, 4, 5, -1, -1, -1, -1))
                                   : _mm256_broadcastsi128_si256(_mm_setr_epi8(-1, -1, 0, 1, -1, -1, 2, 3, -1, -1, 4, 5, -1, -1, 6, 7));
        const __m256i mb = cn == 3 ? _mm256_broadcastsi128_si256(_mm_setr_epi8(-1, -1, 6, 7, -1, -1, 8, 9, -1, -1, 10, 11, -1, -1, -1, -1))
                                   : _mm256_broadcastsi128_si256(_mm_setr_epi8(-1, -1, 8, 9, -1, -1, 10, 11, -1, -1, 12, 13, -1, -1, 14, 15));
        auto wide = [](__m256i v) { return _mm256_cvtepi32_ps(sgn ? _mm256_srai_epi32(v, 16) : _mm256_srli_epi32(v, 16)); };
        const __m256i pack3 = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
        const float* tv = tv_.data() - size_t(vx0_) * 4;  // (t_x x4 | t_x+1 x4) from vx0_ on
        const int end = vx1_;
#if defined(__AVX512F__)
        {
          // four pixels a step, one per 128-bit lane
          const __m512i ma4 = _mm512_broadcast_i32x4(_mm256_castsi256_si128(ma)), mb4 = _mm512_broadcast_i32x4(_mm256_castsi256_si128(mb));
          const __m512i pack12 = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 15, 15, 15);
          auto wide4 = [](__m512i v) { return _mm512_cvtepi32_ps(sgn ? _mm512_srai_epi32(v, 16) : _mm512_srli_epi32(v, 16)); };
          auto ld = [](const T* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
          for (; x + 4 <= end; x += 4) {
            const int o0 = i0[x] * cn, o1 = i0[x + 1] * cn, o2 = i0[x + 2] * cn, o3 = i0[x + 3] * cn;
            const __m512 t = _mm512_loadu_ps(tv + size_t(x) * 4);
            for (int r = 0; r < NR; ++r) {
              const T* S = Sr[r];
              __m512i v = _mm512_castsi128_si512(ld(S + o0));
              v = _mm512_inserti32x4(v, ld(S + o1), 1);
              v = _mm512_inserti32x4(v, ld(S + o2), 2);
              v = _mm512_inserti32x4(v, ld(S + o3), 3);
              const __m512 a = wide4(_mm512_shuffle_epi8(v, ma4)), b = wide4(_mm512_shuffle_epi8(v, mb4));
              __m512 h = _mm512_fmadd_ps(_mm512_sub_ps(b, a), t, a);
              if (cn == 3) h = _mm512_permutexvar_ps(pack12, h);
              _mm512_storeu_ps(Hr[r] + x * cn, h);
            }
          }
        }
#endif
        for (; x + 2 <= end; x += 2) {
          const int o0 = i0[x] * cn, o1 = i0[x + 1] * cn;
          const __m256 t = _mm256_loadu_ps(tv + size_t(x) * 4);
          for (int r = 0; r < NR; ++r) {
            const __m256i v = _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(Sr[r] + o1),
                                                  reinterpret_cast<const __m128i*>(Sr[r] + o0));
            const __m256 a = wide(_mm256_shuffle_epi8(v, ma)), b = wide(_mm256_shuffle_epi8(v, mb));
            __m256 h = _mm256_fmadd_ps(_mm256_sub_ps(b, a), t, a);
            if (cn == 3) h = _mm256_permutevar8x32_ps(h, pack3);
            _mm256_storeu_ps(Hr[r] + x * cn, h);
          }
        }
        (void)et;
        (void)widen;
      } else {
        // eight pixels a step: each pixel's two neighbouring elements read as one 32-bit word
        const __m256i lo16 = _mm256_set1_epi32(0xffff);
        const T* S = Sr[0];
        F* H = Hr[0];
        for (; NR == 1 && x + 8 <= vx1_; x += 8) {
          // (scalar loads: AMD's vpgatherdd is microcoded and several times slower)
          int32_t q[8];
          for (int j = 0; j < 8; ++j) std::memcpy(&q[j], S + i0[x + j], 4);
          const __m256i w = _mm256_setr_epi32(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]);
          __m256i ai = _mm256_and_si256(w, lo16), bi = _mm256_srli_epi32(w, 16);
          if (sgn) ai = _mm256_srai_epi32(_mm256_slli_epi32(w, 16), 16), bi = _mm256_srai_epi32(w, 16);
          const __m256 a = _mm256_cvtepi32_ps(ai), b = _mm256_cvtepi32_ps(bi);
          _mm256_storeu_ps(H + x, _mm256_fmadd_ps(_mm256_sub_ps(b, a), _mm256_loadu_ps(et + x), a));
        }
      }
    }
#endif
    scalar(x * cn_, rw);
  }

  int vx0_ = 0, vx1_ = 0;
  std::vector<float> tv_;  // per SIMD pixel from vx0_: its t four times

  static T store(F v) {
    if constexpr (std::is_same_v<T, F>) return v;
    else {
      const F r = std::nearbyint(v);
      return static_cast<T>(std::min<F>(F(std::numeric_limits<T>::max()), std::max<F>(F(std::numeric_limits<T>::min()), r)));
    }
  }
};

// IPP's float64 affine warp (resize with fx / fy that are not the size ratios): for each output
// row the vertical lerp fma(b - a, t, a) of its two source rows over the whole width first, then
// the horizontal one fma(b - a, u, a) of that row (the opposite order of its resize). A row above
// the first source row or below the last is that edge row, lerped along its own column
// coordinates (kColumnsScalar), unfused (a + (b - a) * u) for one channel and the third of three.
class AffineLerpF64 final : public backend::Kernel {
 public:
  AffineLerpF64(int sh, int sw, int dh, int dw, int cn, LerpAxis ax, LerpAxis ax_outside, LerpAxis ay,
                std::vector<uint8_t> outside)
      : sw_(sw), dh_(dh), dw_(dw), cn_(cn), ax_(std::move(ax)), axo_(std::move(ax_outside)), ay_(std::move(ay)),
        outside_(std::move(outside)) {
    (void)sh;
  }

  void run(char* const* in, char* out) override {
    const double* src = reinterpret_cast<const double*>(in[0]);
    double* dst = reinterpret_cast<double*>(out);
    const int rw = dw_ * cn_, sw = sw_ * cn_;
    const int64_t grain = std::max<int64_t>(1, 16384 / std::max(1, rw + sw));
    core::parallel_for(dh_, grain, [&](int64_t y0, int64_t y1) {
      std::vector<double> v(static_cast<size_t>(sw));
      for (int64_t y = y0; y < y1; ++y) {
        const double* a = src + size_t(ay_.i0[y]) * sw;
        const double* b = src + size_t(ay_.i1[y]) * sw;
        const double t = ay_.t[y];
        // the edge rows and columns outside the image are weighted sums with weights 1 and 0 in IPP,
        // a * 1 + b * 0 (an inf on the edge stays inf; a NaN or inf beside it gives NaN), or the
        // edge value itself past the last row or column
        const bool out_row = outside_[size_t(y)] != 0;
        if (out_row && a == b) std::copy(a, a + sw, v.begin());
        else if (out_row) for (int e = 0; e < sw; ++e) v[size_t(e)] = std::fma(b[e] - a[e], 0.0, a[e]);
        else for (int e = 0; e < sw; ++e) v[size_t(e)] = std::fma(b[e] - a[e], t, a[e]);
        double* D = dst + size_t(y) * rw;
        auto edge = [&](const LerpAxis& ax, int x) {
          const double* p = v.data() + size_t(ax.i0[x]) * cn_;
          const double* q = v.data() + size_t(ax.i1[x]) * cn_;
          for (int c = 0; c < cn_; ++c) D[x * cn_ + c] = ax.side[size_t(x)] < 0 ? p[c] + q[c] * 0.0 : p[c];
        };
        if (outside_[size_t(y)]) {
          // IPP's loop for the rows outside: its lerp is not fused (this file has -ffp-contract=off)
          // for one channel and for the third of three, fused for the others
          const int fused = cn_ == 1 ? 0 : cn_ == 3 ? 2 : cn_;
          for (int x = 0; x < dw_; ++x) {
            if (axo_.side[size_t(x)] != 0) {
              edge(axo_, x);
              continue;
            }
            const double* p = v.data() + size_t(axo_.i0[x]) * cn_;
            const double* q = v.data() + size_t(axo_.i1[x]) * cn_;
            const double u = axo_.t[x];
            for (int c = 0; c < cn_; ++c)
              D[x * cn_ + c] = c < fused ? std::fma(q[c] - p[c], u, p[c]) : p[c] + (q[c] - p[c]) * u;
          }
          continue;
        }
        for (int x = 0; x < dw_; ++x) {
          if (ax_.side[size_t(x)] != 0 && t >= 1.0) {
            // a column outside the image on the last row itself: that source pixel (IPP's edge
            // columns clamp the row rather than lerp at t = 1)
            for (int c = 0; c < cn_; ++c) D[x * cn_ + c] = b[size_t(ax_.i0[x]) * cn_ + c];
            continue;
          }
          if (ax_.side[size_t(x)] != 0) {
            edge(ax_, x);
            continue;
          }
          const double* p = v.data() + size_t(ax_.i0[x]) * cn_;
          const double* q = v.data() + size_t(ax_.i1[x]) * cn_;
          const double u = ax_.t[x];
          for (int c = 0; c < cn_; ++c) D[x * cn_ + c] = std::fma(q[c] - p[c], u, p[c]);
        }
      }
    });
  }

 private:
  int sw_, dh_, dw_, cn_;
  LerpAxis ax_, axo_, ay_;
  std::vector<uint8_t> outside_;  // per output row: above the first source row or below the last
};

}  // namespace

// Called by prepare_resize (resize.cpp) for INTER_LINEAR_EXACT on the integer depths.
std::unique_ptr<backend::Kernel> prepare_resize_linear_exact(const backend::StepDesc& s, double isx, double isy) {
  const auto& a = s.inputs[0].shape;
  const auto& o = s.output.shape;
  const int sh = int(a[0]), sw = int(a[1]), cn = a.size() == 3 ? int(a[2]) : 1;
  const int dh = int(o[0]), dw = int(o[1]);
  switch (s.output.dtype) {
    case DType::UInt8: return std::make_unique<LinearExactResize<uint8_t>>(sh, sw, dh, dw, cn, isx, isy);
    case DType::Int8: return std::make_unique<LinearExactResize<int8_t>>(sh, sw, dh, dw, cn, isx, isy);
    case DType::UInt16: return std::make_unique<LinearExactResize<uint16_t>>(sh, sw, dh, dw, cn, isx, isy);
    case DType::Int16: return std::make_unique<LinearExactResize<int16_t>>(sh, sw, dh, dw, cn, isx, isy);
    case DType::Int32: return std::make_unique<LinearExactResize<int32_t>>(sh, sw, dh, dw, cn, isx, isy);
    default: throw core::ValueError("[mnn.cv.resize] INTER_LINEAR_EXACT takes 8-, 16- and 32-bit integer images here");
  }
}

// Called by prepare_resize (resize.cpp) for INTER_LINEAR (and LINEAR_EXACT on floats) on float32,
// float64, uint16 and int16 images of 1, 3 or 4 channels and at least 2x2 (those cv2 gives IPP).
// IPP's own resize when the scales are the size ratios (within 1e-10 relative; exactly for
// float64), its affine warp when fx / fy are not (ipp_hal_resize's rule). 16-bit images compute in
// float and round to nearest, ties to even: the resize as float32's lerps (int16 with its own edge
// rounding, LerpResize::set_anchored_edges), the warp as its float lerps; both bit for bit.
std::unique_ptr<backend::Kernel> prepare_resize_linear_float(const backend::StepDesc& s, double isx, double isy) {
  const auto& a = s.inputs[0].shape;
  const auto& o = s.output.shape;
  const int sh = int(a[0]), sw = int(a[1]), cn = a.size() == 3 ? int(a[2]) : 1;
  const int dh = int(o[0]), dw = int(o[1]);
  const core::DType dt = s.output.dtype;
  const bool f64 = dt == core::DType::Float64, f32 = !f64;  // 16-bit images compute in float
  const double eps = f64 ? 0.0 : 1e-10;
  const double ex = std::fabs(double(dw) / sw - isx) / isx, ey = std::fabs(double(dh) / sh - isy) / isy;
  if (ex > eps || ey > eps) {
    const AffineF64 cols = !f64 ? AffineF64::kNone : cn == 1 ? AffineF64::kColumns : AffineF64::kColumnsPairs;
    LerpAxis ax = lerp_axis_affine(sw, dw, isx, f32, cols, isy);
    LerpAxis ay = lerp_axis_affine(sh, dh, isy, f32, f64 ? AffineF64::kRows : AffineF64::kNone, isx);
    if (f64) {
      std::vector<uint8_t> outside(static_cast<size_t>(dh));
      const double det = isx * isy, inv = isx / det, off = -(isx * (-0.5 + 0.5 * isy)) / det;
      // a row is outside above the first source row, or past the last one: by the forward map of
      // the last row, which IPP bounds the rows with (a coordinate a rounding error past the last
      // row is still a lerp of the last pair if that map says so)
      const double last = double(sh - 1) * isy + (-0.5 + 0.5 * isy);
      for (int y = 0; y < dh; ++y) {
        const double f = std::fma(double(y), inv, off);
        const bool below = f > double(sh - 1) + kAffineTol || double(y) > last;
        outside[size_t(y)] = f < 0 || below;
        // (the rows above still read the second row at t = 0: a NaN there comes through, as in cv2)
        if (outside[size_t(y)]) ay.i0[size_t(y)] = below ? sh - 1 : 0, ay.i1[size_t(y)] = below ? sh - 1 : 1, ay.t[size_t(y)] = 0.0;
        // (the kernel takes the rows below as the last row, those above as row 0 * 1 + row 1 * 0)
      }
      return std::make_unique<AffineLerpF64>(sh, sw, dh, dw, cn, std::move(ax),
                                             lerp_axis_affine(sw, dw, isx, false, AffineF64::kColumnsScalar, isy),
                                             std::move(ay), std::move(outside));
    }
    if (dt == core::DType::UInt16)
      return std::make_unique<LerpResize<uint16_t, float>>(sh, sw, dh, dw, cn, std::move(ax), std::move(ay));
    if (dt == core::DType::Int16)
      return std::make_unique<LerpResize<int16_t, float>>(sh, sw, dh, dw, cn, std::move(ax), std::move(ay));
    return std::make_unique<LerpResize<float>>(sh, sw, dh, dw, cn, std::move(ax), std::move(ay));
  }
  if (dt == core::DType::UInt16) return std::make_unique<LerpResize<uint16_t, float>>(sh, sw, dh, dw, cn);
  if (dt == core::DType::Int16) {
    auto k = std::make_unique<LerpResize<int16_t, float>>(sh, sw, dh, dw, cn);
    k->set_anchored_edges();
    return k;
  }
  if (f32) return std::make_unique<LerpResize<float>>(sh, sw, dh, dw, cn);
  return std::make_unique<LerpResize<double>>(sh, sw, dh, dw, cn);
}

}  // namespace mnn::cpu::MNN_ISA_NS
