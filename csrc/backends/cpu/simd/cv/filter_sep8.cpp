// CPU kernel of cv_sep8 (shape rule: ops/cv/filter_sep.cpp): uint8 -> uint8 separable filtering
// with a float kernel (sepFilter2D on uint8 images, ddepth -1) in cv2's own arithmetic, so the
// results are cv2's bits, in one native pass.
//
// cv2's createSeparableLinearFilter (filter.dispatch.cpp / filter.simd.hpp, AVX2 dispatch; checked
// bit for bit against the installed cv2) picks one of two engines for 8u -> 8u (this kernel is the
// second; the fixed-point kernels stay on cv_sepf, whose exact sums give cv2's results):
//  * fixed point, when both kernels are "smooth" (no negative tap, sum 1 within FLT_EPSILON),
//    symmetric about a centred anchor, and every tap * 256 is an integer within 10 FLT_EPSILON * 256:
//    integer row sums with taps kx*256, integer column sums with taps ky*256, plus delta * 65536
//    (rounded to int), then (s + 2^15) >> 16 saturated. Exact integers: no order dependence.
//  * float otherwise: taps converted to float32; row pass RowFilter<uchar, float, RowVec_8u32f>:
//    the first W*cn - (W*cn) % 32 elements s = S0 k0, s = fma(Sj, kj, s); the tail in RowFilter's
//    scalar loops. Column pass SymmColumnFilter<Cast<float, uchar>, SymmColumnVec_32f8u> for a
//    symmetric / antisymmetric ky (SIMD: s = fma(k0, C, delta) (antisymmetric: s = delta), then
//    fma(kq, Rq +- Lq, s)), ColumnFilter<Cast<float, uchar>> otherwise (scalar only); the result
//    is rounded half to even and saturated to uint8.
// The AVX-512 target narrows the symmetric column pass with cv2's own cvtps2dq + saturating
// packs (col_sym2_avx512); every other loop is plain C++ the compiler vectorizes.
// The scalar tails' contraction (which products the compiler fused with the following add) is
// cv2's build's choice, found by comparing candidates with cv2 on kernels whose sums often land
// near .5 (box filters; tests/cv/test_sep13.py): see row_tail and col_scalar.
// std::fma is exact in every ISA target and -ffp-contract=off keeps the plain products and sums
// apart, so all targets give the same bits.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#if defined(__AVX512F__)
#include <immintrin.h>
// GCC 12's AVX-512 intrinsics start from an uninitialised register by design (their masked
// builtins ignore it) and -Wmaybe-uninitialized reports that inside the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

inline int64_t bmap8(int64_t p, int64_t n, int mode) {
  if (p >= 0 && p < n) return p;
  switch (mode) {
    case 0: return -1;
    case 1: return p < 0 ? 0 : n - 1;
    case 3: return ((p % n) + n) % n;
    case 2:
      if (n == 1) return 0;
      do { p = p < 0 ? -p - 1 : 2 * n - p - 1; } while (p < 0 || p >= n);
      return p;
    default:
      if (n == 1) return 0;
      do { p = p < 0 ? -p : 2 * n - p - 2; } while (p < 0 || p >= n);
      return p;
  }
}

inline float fma_(float a, float b, float c) { return std::fma(a, b, c); }

// cvRound then saturation to uint8, as cv2's v_round + saturating packs: cvtps2dq rounds half to
// even and gives INT_MIN for NaN and anything outside int32 (which saturates to 0). irintf is that
// instruction on x86 (vectorized, and in the scalar target); elsewhere the range test makes a
// library irintf agree.
inline uint8_t sat8(float v) {
#if defined(__x86_64__) || defined(__i386__)
  const int i = __builtin_irintf(v);
#else
  const int i = (v >= -2147483648.0f && v < 2147483648.0f) ? __builtin_irintf(v) : 0;
#endif
  return static_cast<uint8_t>(std::min(std::max(i, 0), 255));
}

enum ColKind { kSym, kAsym, kGen };

class Sep8Kernel final : public backend::Kernel {
 public:
  explicit Sep8Kernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    nx_ = i[0], ny_ = i[1], ax_ = i[2], ay_ = i[3];
    border_ = static_cast<int>(i[4]);
    std::vector<double> kx(f.begin(), f.begin() + nx_), ky(f.begin() + nx_, f.begin() + nx_ + ny_);
    const double delta = f[nx_ + ny_];
    const Shape& sh = s.inputs[0].shape;
    h_ = sh[0], w_ = sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
    const int ct = kernel_type(ky, ay_);
    for (double v : kx) kx_.push_back(static_cast<float>(v));
    for (double v : ky) ky_.push_back(static_cast<float>(v));
    delta_ = static_cast<float>(delta);
    ck_ = (ct & 2) ? kSym : (ct & 4) ? kAsym : kGen;
    if (ny_ == 1) ck_ = kGen;  // SymmColumnVec_32f8u has no ksize-1 case: all scalar
  }

  void run(char* const* in, char* out) override {
    run_u8(reinterpret_cast<const uint8_t*>(in[0]), reinterpret_cast<uint8_t*>(out));
  }

 private:
  // cv2's getKernelType on the kernel as given: 1 smooth, 2 symmetric, 4 antisymmetric (a centred
  // anchor needed for both)
  static int kernel_type(const std::vector<double>& k, int64_t a) {
    const int64_t n = static_cast<int64_t>(k.size());
    int t = 1 | (2 * a + 1 == n ? 6 : 0);
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double x = k[i], y = k[n - 1 - i];
      if (x != y) t &= ~2;
      if (x != -y) t &= ~4;
      if (x < 0) t &= ~1;
      sum += x;
    }
    if (std::fabs(sum - 1) > FLT_EPSILON * (std::fabs(sum) + 1)) t &= ~1;
    if (t & 2) t &= ~4;  // both (all zeros): cv2 takes the symmetric branches
    return t;
  }

  // source row p (a border row where p is outside) extended by the row border, as floats (exact;
  // converting once per row instead of once per tap): element j is source element j - ax*c
  void pad_row(const uint8_t* src, int64_t p, float* pad) const {
    const int64_t n = w_ * c_, c = c_, tot = n + (nx_ - 1) * c;
    const int64_t r = bmap8(p, h_, border_);
    if (r < 0) {
      std::fill(pad, pad + tot, 0.0f);
      return;
    }
    const uint8_t* __restrict row = src + r * n;
    const int64_t l = ax_ * c;
    float* __restrict mid = pad + l;
    for (int64_t j = 0; j < n; ++j) mid[j] = static_cast<float>(row[j]);
    for (int64_t j = 0; j < tot; ++j) {
      if (j == l) j = l + n;
      if (j >= tot) break;
      const int64_t e = j - l;
      const int64_t px = e >= 0 ? e / c : -((-e + c - 1) / c), k = e - px * c;
      const int64_t sx = bmap8(px, w_, border_);
      pad[j] = sx < 0 ? 0.0f : static_cast<float>(row[sx * c + k]);
    }
  }

  // ---- float engine -------------------------------------------------------------------------

  template <int N>
  static void row_simd(float* __restrict d, const float* __restrict p, int64_t c, const float* w, int64_t n) {
    float k[N];
    for (int i = 0; i < N; ++i) k[i] = w[i];
    for (int64_t x = 0; x < n; ++x) {
      float s = p[x] * k[0];
#pragma GCC unroll 16
      for (int i = 1; i < N; ++i) s = fma_(p[x + i * c], k[i], s);
      d[x] = s;
    }
  }

  void row_simd_any(float* __restrict d, const float* __restrict p, int64_t n) const {
    const int64_t c = c_;
    const float* k = kx_.data();
    switch (nx_) {
      case 1: return row_simd<1>(d, p, c, k, n);
      case 2: return row_simd<2>(d, p, c, k, n);
      case 3: return row_simd<3>(d, p, c, k, n);
      case 4: return row_simd<4>(d, p, c, k, n);
      case 5: return row_simd<5>(d, p, c, k, n);
      case 6: return row_simd<6>(d, p, c, k, n);
      case 7: return row_simd<7>(d, p, c, k, n);
      case 8: return row_simd<8>(d, p, c, k, n);
      case 9: return row_simd<9>(d, p, c, k, n);
      default: break;
    }
    for (int64_t x = 0; x < n; ++x) {
      float s = p[x] * k[0];
      for (int64_t i = 1; i < nx_; ++i) s = fma_(p[x + i * c], k[i], s);
      d[x] = s;
    }
  }

  // RowFilter's scalar loops for the last elements (quads and singles alike): s = k0 S0, then
  // s + kj Sj, every product and sum rounded (cv2's build did not contract them here)
  float row_tail(const float* p) const {
    const int64_t c = c_;
    const float* k = kx_.data();
    float s = k[0] * p[0];
    for (int64_t j = 1; j < nx_; ++j) s = s + k[j] * p[j * c];
    return s;
  }

  void make_row_f(const float* pad, float* d) const {
    const int64_t tot = w_ * c_;
    const int64_t nv = tot - tot % 32;
    row_simd_any(d, pad, nv);
    for (int64_t x = nv; x < tot; ++x) d[x] = row_tail(pad + x);
  }

  // column pass over elements [0, n) of one output row; r[j] is the row-filtered row y - ay + j
  template <int H>
  void col_sym_fixed(uint8_t* __restrict o, const float* const* r, int64_t n) const {
    const float* k = ky_.data() + H;
    const float d = delta_;
    const float* p[2 * H + 1];
    float kk[H + 1];
    for (int i = 0; i <= 2 * H; ++i) p[i] = r[i];
    for (int i = 0; i <= H; ++i) kk[i] = k[i];
    for (int64_t x = 0; x < n; ++x) {
      float s = fma_(kk[0], p[H][x], d);
#pragma GCC unroll 16
      for (int q = 1; q <= H; ++q) s = fma_(kk[q], p[H + q][x] + p[H - q][x], s);
      o[x] = sat8(s);
    }
  }

  template <int H>
  void col_asym_fixed(uint8_t* __restrict o, const float* const* r, int64_t n) const {
    const float* k = ky_.data() + H;
    const float d = delta_;
    const float* p[2 * H + 1];
    float kk[H + 1];
    for (int i = 0; i <= 2 * H; ++i) p[i] = r[i];
    for (int i = 0; i <= H; ++i) kk[i] = k[i];
    for (int64_t x = 0; x < n; ++x) {
      float s = d;
#pragma GCC unroll 16
      for (int q = 1; q <= H; ++q) s = fma_(kk[q], p[H + q][x] - p[H - q][x], s);
      o[x] = sat8(s);
    }
  }

  template <int N>
  void col_gen_fixed(uint8_t* __restrict o, const float* const* r, int64_t n) const {
    const float d = delta_;
    const float* p[N];
    float kk[N];
    for (int i = 0; i < N; ++i) p[i] = r[i], kk[i] = ky_[i];
    for (int64_t x = 0; x < n; ++x) {
      float s = fma_(kk[0], p[0][x], d);
#pragma GCC unroll 16
      for (int j = 1; j < N; ++j) s = fma_(kk[j], p[j][x], s);
      o[x] = sat8(s);
    }
  }

#if defined(__AVX512F__) && defined(__AVX512BW__)
  // cvtps2dq + saturating packs of 4 vectors into 64 bytes, cv2's own narrowing (GCC's narrowing
  // of sat8's clamps costs twice the instructions); the same bits as sat8
  static inline void pack64(uint8_t* o, __m512 a, __m512 b, __m512 c, __m512 e) {
    const __m512i ab = _mm512_packs_epi32(_mm512_cvtps_epi32(a), _mm512_cvtps_epi32(b));
    const __m512i ce = _mm512_packs_epi32(_mm512_cvtps_epi32(c), _mm512_cvtps_epi32(e));
    const __m512i idx = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    _mm512_storeu_si512(o, _mm512_permutexvar_epi32(idx, _mm512_packus_epi16(ab, ce)));
  }

  // col_sym2's expression 64 elements at a time; returns how many it did
  template <int H>
  static int64_t col_sym2_avx512(uint8_t* o0, uint8_t* o1, const float* const* p, const float* kk, float d, int64_t n) {
    const __m512 vd = _mm512_set1_ps(d);
    __m512 vk[H + 1];
    for (int q = 0; q <= H; ++q) vk[q] = _mm512_set1_ps(kk[q]);
    int64_t x = 0;
    for (; x + 64 <= n; x += 64) {
      __m512 s0[4], s1[4];
      for (int j = 0; j < 4; ++j) {
        const int64_t xj = x + 16 * j;
        s0[j] = _mm512_fmadd_ps(vk[0], _mm512_loadu_ps(p[H] + xj), vd);
        s1[j] = _mm512_fmadd_ps(vk[0], _mm512_loadu_ps(p[H + 1] + xj), vd);
        for (int q = 1; q <= H; ++q) {
          const __m512 m = _mm512_loadu_ps(p[H + 1 - q] + xj);  // shared by both rows
          const __m512 pp = _mm512_loadu_ps(p[H + q] + xj);
          s0[j] = _mm512_fmadd_ps(vk[q], _mm512_add_ps(pp, _mm512_loadu_ps(p[H - q] + xj)), s0[j]);
          s1[j] = _mm512_fmadd_ps(vk[q], _mm512_add_ps(_mm512_loadu_ps(p[H + 1 + q] + xj), m), s1[j]);
        }
      }
      pack64(o0 + x, s0[0], s0[1], s0[2], s0[3]);
      pack64(o1 + x, s1[0], s1[1], s1[2], s1[3]);
    }
    return x;
  }
#endif

  // Two output rows at once (rows r[0 .. ny]): each ring row is loaded once for both; the
  // arithmetic of each row is col_simd's
  template <int H>
  void col_sym2(uint8_t* __restrict o0, uint8_t* __restrict o1, const float* const* r, int64_t n) const {
    const float* k = ky_.data() + H;
    const float d = delta_;
    const float* p[2 * H + 2];
    float kk[H + 1];
    for (int i = 0; i < 2 * H + 2; ++i) p[i] = r[i];
    for (int i = 0; i <= H; ++i) kk[i] = k[i];
    int64_t x0 = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    x0 = col_sym2_avx512<H>(o0, o1, p, kk, d, n);
#endif
    for (int64_t x = x0; x < n; ++x) {
      float s0 = fma_(kk[0], p[H][x], d), s1 = fma_(kk[0], p[H + 1][x], d);
#pragma GCC unroll 16
      for (int q = 1; q <= H; ++q) {
        s0 = fma_(kk[q], p[H + q][x] + p[H - q][x], s0);
        s1 = fma_(kk[q], p[H + 1 + q][x] + p[H + 1 - q][x], s1);
      }
      o0[x] = sat8(s0), o1[x] = sat8(s1);
    }
  }

  template <int H>
  void col_asym2(uint8_t* __restrict o0, uint8_t* __restrict o1, const float* const* r, int64_t n) const {
    const float* k = ky_.data() + H;
    const float d = delta_;
    const float* p[2 * H + 2];
    float kk[H + 1];
    for (int i = 0; i < 2 * H + 2; ++i) p[i] = r[i];
    for (int i = 0; i <= H; ++i) kk[i] = k[i];
    for (int64_t x = 0; x < n; ++x) {
      float s0 = d, s1 = d;
#pragma GCC unroll 16
      for (int q = 1; q <= H; ++q) {
        s0 = fma_(kk[q], p[H + q][x] - p[H - q][x], s0);
        s1 = fma_(kk[q], p[H + 1 + q][x] - p[H + 1 - q][x], s1);
      }
      o0[x] = sat8(s0), o1[x] = sat8(s1);
    }
  }

  template <int N>
  void col_gen2(uint8_t* __restrict o0, uint8_t* __restrict o1, const float* const* r, int64_t n) const {
    const float d = delta_;
    const float* p[N + 1];
    float kk[N];
    for (int i = 0; i <= N; ++i) p[i] = r[i];
    for (int i = 0; i < N; ++i) kk[i] = ky_[i];
    for (int64_t x = 0; x < n; ++x) {
      float s0 = fma_(kk[0], p[0][x], d), s1 = fma_(kk[0], p[1][x], d);
#pragma GCC unroll 16
      for (int j = 1; j < N; ++j) s0 = fma_(kk[j], p[j][x], s0), s1 = fma_(kk[j], p[j + 1][x], s1);
      o0[x] = sat8(s0), o1[x] = sat8(s1);
    }
  }

  void col_simd2(uint8_t* o0, uint8_t* o1, const float* const* r, int64_t n) const {
    if (ck_ == kGen) {
      switch (ny_) {
        case 1: return col_gen2<1>(o0, o1, r, n);
        case 2: return col_gen2<2>(o0, o1, r, n);
        case 3: return col_gen2<3>(o0, o1, r, n);
        case 4: return col_gen2<4>(o0, o1, r, n);
        case 5: return col_gen2<5>(o0, o1, r, n);
        case 6: return col_gen2<6>(o0, o1, r, n);
        case 7: return col_gen2<7>(o0, o1, r, n);
        default: break;
      }
    } else if (ck_ == kSym) {
      switch (ny_ / 2) {
        case 1: return col_sym2<1>(o0, o1, r, n);
        case 2: return col_sym2<2>(o0, o1, r, n);
        case 3: return col_sym2<3>(o0, o1, r, n);
        default: break;
      }
    } else {
      switch (ny_ / 2) {
        case 1: return col_asym2<1>(o0, o1, r, n);
        case 2: return col_asym2<2>(o0, o1, r, n);
        case 3: return col_asym2<3>(o0, o1, r, n);
        default: break;
      }
    }
    col_simd(o0, r, n);
    col_simd(o1, r + 1, n);
  }

  void col_simd(uint8_t* __restrict o, const float* const* r, int64_t n) const {
    const int64_t hh = ny_ / 2;
    if (ck_ == kGen) {
      switch (ny_) {
        case 1: return col_gen_fixed<1>(o, r, n);
        case 2: return col_gen_fixed<2>(o, r, n);
        case 3: return col_gen_fixed<3>(o, r, n);
        case 4: return col_gen_fixed<4>(o, r, n);
        case 5: return col_gen_fixed<5>(o, r, n);
        case 6: return col_gen_fixed<6>(o, r, n);
        case 7: return col_gen_fixed<7>(o, r, n);
        case 8: return col_gen_fixed<8>(o, r, n);
        case 9: return col_gen_fixed<9>(o, r, n);
        default: return col_scalar(o, r, 0, n, true);
      }
    }
    if (ck_ == kSym) {
      switch (hh) {
        case 1: return col_sym_fixed<1>(o, r, n);
        case 2: return col_sym_fixed<2>(o, r, n);
        case 3: return col_sym_fixed<3>(o, r, n);
        case 4: return col_sym_fixed<4>(o, r, n);
        default: break;
      }
    } else {
      switch (hh) {
        case 1: return col_asym_fixed<1>(o, r, n);
        case 2: return col_asym_fixed<2>(o, r, n);
        case 3: return col_asym_fixed<3>(o, r, n);
        case 4: return col_asym_fixed<4>(o, r, n);
        default: break;
      }
    }
    const float* k = ky_.data() + hh;
    for (int64_t x = 0; x < n; ++x) {
      float s = ck_ == kSym ? fma_(k[0], r[hh][x], delta_) : delta_;
      for (int64_t q = 1; q <= hh; ++q) {
        const float v = ck_ == kSym ? r[hh + q][x] + r[hh - q][x] : r[hh + q][x] - r[hh - q][x];
        s = fma_(k[q], v, s);
      }
      o[x] = sat8(s);
    }
  }

  // Scalar loops of SymmColumnFilter / ColumnFilter for elements [x0, x1). quad (the unrolled
  // loop): every step contracted, fma(k0, C, delta) then fma(kq, v, s); the single-element loop
  // contracts only its first step: fma(k0, C, delta), then s + kq v rounded twice.
  void col_scalar(uint8_t* __restrict o, const float* const* r, int64_t x0, int64_t x1, bool quad) const {
    const bool f = quad;
    const float d = delta_;
    const int64_t hh = ny_ / 2;
    for (int64_t x = x0; x < x1; ++x) {
      float s;
      if (ck_ == kGen) {
        s = fma_(ky_[0], r[0][x], d);
        for (int64_t j = 1; j < ny_; ++j) s = f ? fma_(ky_[j], r[j][x], s) : s + ky_[j] * r[j][x];
      } else {
        const float* k = ky_.data() + hh;
        // the antisymmetric loops start from delta; the symmetric ones from k0 C + delta
        s = ck_ == kSym ? fma_(k[0], r[hh][x], d) : d;
        for (int64_t q = 1; q <= hh; ++q) {
          const float v = ck_ == kSym ? r[hh + q][x] + r[hh - q][x] : r[hh + q][x] - r[hh - q][x];
          s = f ? fma_(k[q], v, s) : s + k[q] * v;
        }
      }
      o[x] = sat8(s);
    }
  }

  // cv2's SIMD part (the first tot - tot % 32) and its unrolled scalar loop (quads up to
  // tot - tot % 4) compute the same expression: one vector loop covers both; then the singles
  void col_f(uint8_t* o, const float* const* r) const {
    const int64_t tot = w_ * c_;
    const int64_t nq = tot - tot % 4;
    col_simd(o, r, nq);
    col_scalar(o, r, nq, tot, false);
  }

  template <typename T>
  void run_t(const uint8_t* src, uint8_t* dst) const {
    const int64_t tot = w_ * c_, ny = ny_, nq = tot - tot % 4;
    const int64_t grain = std::max<int64_t>(8, (int64_t(1) << 16) / std::max<int64_t>(1, tot));
    // each thread's band keeps a ring of ny + 1 row-filtered rows (pairs of output rows share
    // their loads); a band re-filters ny - 1 rows
    parallel_for(h_, grain, [&](int64_t y0, int64_t y1) {
      std::vector<float> pad(static_cast<size_t>(tot + (nx_ - 1) * c_));
      const int64_t stride = (tot + 15) & ~int64_t(15), nr = ny + 1;
      std::vector<T> ring(static_cast<size_t>(nr * stride + 16));
      T* ring0 = ring.data() + ((64 - reinterpret_cast<uintptr_t>(ring.data()) % 64) % 64) / sizeof(T);
      std::vector<const T*> rows(static_cast<size_t>(nr));
      auto slot = [&](int64_t p) { return ring0 + ((p % nr) + nr) % nr * stride; };
      int64_t next = y0 - ay_;
      for (int64_t y = y0; y < y1;) {
        const int64_t two = y + 1 < y1 ? 2 : 1;
        const int64_t first = y - ay_, last = first + ny - 2 + two;
        next = std::max(next, first);
        for (; next <= last; ++next) {
          pad_row(src, next, pad.data());
          make_row_f(pad.data(), slot(next));
        }
        for (int64_t j = 0; j < ny - 1 + two; ++j) rows[j] = slot(first + j);
        uint8_t* o = dst + y * tot;
        if (two == 2) {
          col_simd2(o, o + tot, rows.data(), nq);
          col_scalar(o, rows.data(), nq, tot, false);
          col_scalar(o + tot, rows.data() + 1, nq, tot, false);
        } else {
          col_f(o, rows.data());
        }
        y += two;
      }
    });
  }

  void run_u8(const uint8_t* src, uint8_t* dst) const { run_t<float>(src, dst); }

  int64_t nx_, ny_, ax_, ay_, h_, w_, c_;
  int border_;
  ColKind ck_ = kGen;
  std::vector<float> kx_, ky_;
  float delta_ = 0;
};

std::unique_ptr<backend::Kernel> prepare_sep8(const backend::StepDesc& s) { return std::make_unique<Sep8Kernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_sep8, "cv_sep8", &prepare_sep8);

}  // namespace mnn::cpu::MNN_ISA_NS
