// cv2.resize INTER_CUBIC and INTER_LANCZOS4 on uint8 images (any channel count): the arithmetic of
// the separable uint8 path of resize.cpp (SeparableResize, ksize 4 and 8), in a dedicated kernel
// that vectorises both passes. LANCZOS4 (cv2's own code, exact): weights as resize.cpp's
// lanczos4_coeffs, taps s - 3 .. s + 4, the same int row pass, and a fixed-point column pass
// (sum + 2^21) >> 22 over every element (int64 in the scalar code; int32 lanes in the SIMD code,
// which wrap to the same value when the weights bound every sum inside int32, checked per kernel).
// CUBIC: The bits are those of that path, unchanged (within 1 of cv2, whose 1/3/4-channel uint8
// cubic is IPP's own; exact for the other channel counts, which are cv2's own code):
//
// * weights: Keys' cubic (A = -0.75) in float at f = float((d + 0.5) * scale - 0.5) - floor,
//   scaled by 2048 and rounded; taps s - 1 .. s + 2 clamped to the image;
// * horizontal pass: exact int sums of uint8 * weight (any evaluation order gives the same bits,
//   so the SIMD pass is free to regroup them);
// * vertical pass: float, r3 * b3 first, then + r2 * b2, + r1 * b1, + r0 * b0 (b = weight /
//   2048^2, each product and sum rounded: no FMA, the build has -ffp-contract=off), rounded to
//   nearest even and saturated, on the elements cv2's 8-lane vector loop covers; the last
//   (row elements mod 8) take cv2's fixed-point tail, (sum + 2^21) >> 22.
//   The SIMD loop does those same float operations lane by lane, so every ISA gives the scalar
//   build's bits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
// GCC 12's AVX-512 conversion intrinsics start from an uninitialised register by design and
// -Wmaybe-uninitialized reports that inside the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "backends/backend.h"
#include "core/threadpool.h"

namespace mnn::cpu::MNN_ISA_NS {

std::unique_ptr<backend::Kernel> prepare_resize_cubic_u8(const backend::StepDesc& s, double isx, double isy);
std::unique_ptr<backend::Kernel> prepare_resize_lanczos_u8(const backend::StepDesc& s, double isx, double isy);

namespace {

using namespace core;

constexpr int kCv2Lanes16 = 8;  // cv2's vertical vector loop step (resize.cpp: SSE baseline)

// The coefficient formula of resize.cpp's cubic_coeffs, operation for operation.
void cubic_coeffs(float x, float* c) {
  const float A = -0.75f;
  c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
  c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
  c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
  c[3] = 1.f - c[0] - c[1] - c[2];
}

// The coefficient formula of resize.cpp's lanczos4_coeffs, operation for operation.
void lanczos4_coeffs(float x, float* c) {
  static const double s45 = 0.70710678118654752440084436210485;
  static const double cs[][2] = {{1, 0}, {-s45, -s45}, {0, 1}, {s45, -s45}, {-1, 0}, {s45, s45}, {0, -1}, {-s45, s45}};
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

struct Axis {
  std::vector<int> idx;  // K clamped taps per destination index
  std::vector<int> iw;   // their weights * 2048, rounded
};

template <int K>
Axis make_axis(int ssize, int dsize, double scale) {
  Axis a;
  a.idx.resize(size_t(dsize) * K);
  a.iw.resize(size_t(dsize) * K);
  for (int d = 0; d < dsize; ++d) {
    float f = static_cast<float>((d + 0.5) * scale - 0.5);
    const int s = static_cast<int>(std::floor(f));
    f -= s;
    float c[K];
    if constexpr (K == 4) cubic_coeffs(f, c);
    else lanczos4_coeffs(f, c);
    for (int k = 0; k < K; ++k) {
      a.idx[size_t(d) * K + k] = std::min(std::max(s - K / 2 + 1 + k, 0), ssize - 1);
      a.iw[size_t(d) * K + k] = static_cast<int>(std::lrint(c[k] * 2048.f));
    }
  }
  return a;
}

// K = 4: INTER_CUBIC, K = 8: INTER_LANCZOS4
template <int K>
class SepU8 final : public backend::Kernel {
 public:
  SepU8(const backend::StepDesc& s, double isx, double isy) {
    const Shape& a = s.inputs[0].shape;
    const Shape& o = s.output.shape;
    sh_ = int(a[0]), sw_ = int(a[1]), cn_ = a.size() == 3 ? int(a[2]) : 1;
    dh_ = int(o[0]), dw_ = int(o[1]);
    tx_ = make_axis<K>(sw_, dw_, 1.0 / isx);
    ty_ = make_axis<K>(sh_, dh_, 1.0 / isy);
    // LANCZOS4's SIMD column pass sums in int32 lanes: exact (wrapping to the int64 sum) when the
    // weights bound every |sum| + 2^21 below 2^31
    if constexpr (K == 8) {
      auto wmax = [](const Axis& ax, int n) {
        int64_t m = 0;
        for (int d = 0; d < n; ++d) {
          int64_t t = 0;
          for (int k = 0; k < K; ++k) t += std::abs(int64_t(ax.iw[size_t(d) * K + k]));
          m = std::max(m, t);
        }
        return m;
      };
      int32_ok_ = 255 * wmax(tx_, dw_) * wmax(ty_, dh_) + (int64_t(1) << 21) < (int64_t(1) << 31);
    }
    // Columns [vx0_, vx1_) take the SIMD row pass: K unclamped taps, and 16-byte loads (3/4
    // channels: one per 4 taps) or a 4-byte one (1 channel, CUBIC) from the first tap inside the
    // row. Taps move monotonically with the column, so these columns are one run.
    const int row_bytes = sw_ * cn_;
    const int load = cn_ == 1 ? 4 : 16 + (K - 4) * cn_;
    vx0_ = vx1_ = 0;
    bool seen = false;
    ofs_.resize(dw_);
    w01_.resize(size_t(dw_) * (K / 2));
    for (int x = 0; x < dw_; ++x) {
      const int* ix = &tx_.idx[size_t(x) * K];
      const int* w = &tx_.iw[size_t(x) * K];
      ofs_[x] = ix[0] * cn_;
      // (w0, w1), (w2, w3), ... as packed int16 pairs
      for (int k = 0; k < K / 2; ++k)
        w01_[size_t(x) * (K / 2) + k] = int((uint32_t(w[2 * k + 1]) << 16) | (uint32_t(w[2 * k]) & 0xffffu));
      bool ok = ix[0] * cn_ + load <= row_bytes && (cn_ == 3 || cn_ == 4 || (cn_ == 1 && K == 4));
      for (int k = 1; k < K; ++k) ok = ok && ix[k] == ix[0] + k;
      if (ok && !seen) vx0_ = x, seen = true;
      if (ok) vx1_ = x + 1;
    }
    if (!seen) vx0_ = vx1_ = 0;
    // Per pair of SIMD columns (x, x + 1) from vx0_: (w0, w1) of x in the low lane and of x + 1
    // in the high lane, then the same for (w2, w3), ... (K / 2 vectors a pair).
    const int npair = (vx1_ - vx0_) / 2;
    wv_.resize(size_t(npair) * 8 * (K / 2));
    for (int p = 0; p < npair; ++p)
      for (int h = 0; h < K / 2; ++h)
        for (int l = 0; l < 2; ++l)
          for (int k = 0; k < 4; ++k)
            wv_[(size_t(p) * (K / 2) + h) * 8 + l * 4 + k] = w01_[size_t(vx0_ + 2 * p + l) * (K / 2) + h];
  }

  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    const int rw = dw_ * cn_;
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max(rw, 1));
    parallel_for(dh_, grain, [&](int64_t y0, int64_t y1) { rows(src, dst, y0, y1); });
  }

 private:
  // Horizontal pass of one source row into D (dw * cn ints; the slot is padded by 4 ints).
  void hrow(const uint8_t* S, int* D) const {
    const int cn = cn_;
    const int* idx = tx_.idx.data();
    const int* w = tx_.iw.data();
    auto scalar = [&](int x0, int x1) {
      for (int x = x0; x < x1; ++x)
        for (int c = 0; c < cn; ++c) {
          int sum = 0;
          for (int k = 0; k < K; ++k) sum += S[idx[x * K + k] * cn + c] * w[x * K + k];
          D[x * cn + c] = sum;
        }
    };
    scalar(0, vx0_);
    int x = vx0_;
#if defined(__AVX2__)
    const int* ofs = ofs_.data();
    const int* wp = w01_.data();
    if (cn == 3 || cn == 4) {
      // Two pixels a step, one in each 128-bit lane: the bytes of a pixel's four taps regrouped
      // as (p0c, p1c) pairs in its lane's low half and (p2c, p3c) in the high half, widened to
      // int16 by unpacking with zero, one madd by (w0, w1) and one by (w2, w3), added. A
      // 3-channel pixel's fourth int is 0; the lanes are packed to 6 ints (8 stored: the two
      // past them are overwritten by the next step, or land in the slot's padding).
      const __m256i shuf = cn == 3 ? _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 3, 1, 4, 2, 5, -1, -1, 6, 9, 7, 10, 8, 11, -1, -1))
                                   : _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15));
      const __m256i pack3 = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7), zero = _mm256_setzero_si256();
      const __m256i* wv = reinterpret_cast<const __m256i*>(wv_.data());
      for (; x + 2 <= vx1_; x += 2) {
        const __m256i* w = wv + (x - vx0_) / 2 * (K / 2);
        __m256i m = zero;
        for (int g = 0; g < K / 4; ++g) {  // four taps a group
          const int o = 4 * g * cn;
          const __m256i v = _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(S + ofs[x + 1] + o),
                                                reinterpret_cast<const __m128i*>(S + ofs[x] + o));
          const __m256i b = _mm256_shuffle_epi8(v, shuf);
          m = _mm256_add_epi32(m, _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi8(b, zero), _mm256_loadu_si256(w + 2 * g)),
                                                   _mm256_madd_epi16(_mm256_unpackhi_epi8(b, zero), _mm256_loadu_si256(w + 2 * g + 1))));
        }
        if (cn == 3) m = _mm256_permutevar8x32_epi32(m, pack3);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(D + x * cn), m);
      }
    } else if (cn == 1 && K == 4) {
      // Eight pixels a step: each pixel's four bytes as int16, madd by (w0, w1, w2, w3), the
      // pairs added.
      const __m256i perm = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
      for (; x + 8 <= vx1_; x += 8) {
        uint32_t q[8];
        for (int j = 0; j < 8; ++j) std::memcpy(&q[j], S + ofs[x + j], 4);
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
        const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp + 2 * x));
        const __m256i w1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp + 2 * x + 8));
        const __m256i lo = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(v)), w0);
        const __m256i hi = _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1)), w1);
        // hadd: (x0 x1 x4 x5 | x2 x3 x6 x7) -> in order
        const __m256i sum = _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(lo, hi), perm);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(D + x), sum);
      }
    }
#endif
    scalar(x, dw_);
  }

  // Vertical pass of one output row from its K horizontally resized rows.
  void vrow(const int* const* r, const int* b, uint8_t* D) const {
    if constexpr (K == 8) return vrow_fixed(r, b, D);
    const int rw = dw_ * cn_;
    const float sc = 1.f / (2048.f * 2048.f);
    const float f0 = b[0] * sc, f1 = b[1] * sc, f2 = b[2] * sc, f3 = b[3] * sc;
    const int vec_end = rw - rw % kCv2Lanes16;
    const int *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
    int x = 0;
#if defined(__AVX512F__)
    {
      const __m512 v0 = _mm512_set1_ps(f0), v1 = _mm512_set1_ps(f1), v2 = _mm512_set1_ps(f2), v3 = _mm512_set1_ps(f3);
      const __m512i zero = _mm512_setzero_si512();
      for (; x + 16 <= vec_end; x += 16) {
        auto ld = [&](const int* p) { return _mm512_cvtepi32_ps(_mm512_loadu_si512(p + x)); };
        __m512 v = _mm512_mul_ps(ld(r3), v3);
        v = _mm512_add_ps(_mm512_mul_ps(ld(r2), v2), v);
        v = _mm512_add_ps(_mm512_mul_ps(ld(r1), v1), v);
        v = _mm512_add_ps(_mm512_mul_ps(ld(r0), v0), v);
        const __m512i q = _mm512_max_epi32(_mm512_cvtps_epi32(v), zero);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(D + x), _mm512_cvtusepi32_epi8(q));
      }
    }
#endif
#if defined(__AVX2__)
    {
      const __m256 v0 = _mm256_set1_ps(f0), v1 = _mm256_set1_ps(f1), v2 = _mm256_set1_ps(f2), v3 = _mm256_set1_ps(f3);
      auto at = [&](int i) {
        auto ld = [&](const int* p) { return _mm256_cvtepi32_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i))); };
        __m256 v = _mm256_mul_ps(ld(r3), v3);
        v = _mm256_add_ps(_mm256_mul_ps(ld(r2), v2), v);
        v = _mm256_add_ps(_mm256_mul_ps(ld(r1), v1), v);
        v = _mm256_add_ps(_mm256_mul_ps(ld(r0), v0), v);
        return _mm256_cvtps_epi32(v);  // nearest, ties to even (lrint under the default mode)
      };
      for (; x + 16 <= vec_end; x += 16) {
        const __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(at(x), at(x + 8)), 0xD8);
        const __m256i bts = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0xD8);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(D + x), _mm256_castsi256_si128(bts));
      }
      for (; x < vec_end; x += 8) {
        const __m256i i = at(x);
        const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256(i, 1));
        _mm_storel_epi64(reinterpret_cast<__m128i*>(D + x), _mm_packus_epi16(w, w));
      }
    }
#endif
    for (; x < vec_end; ++x) {
      float v = r3[x] * f3;
      v = r2[x] * f2 + v;
      v = r1[x] * f1 + v;
      v = r0[x] * f0 + v;
      const long q = std::lrint(v);
      D[x] = static_cast<uint8_t>(q < 0 ? 0 : q > 255 ? 255 : q);
    }
    for (; x < rw; ++x) {
      const int64_t v = int64_t(r0[x]) * b[0] + int64_t(r1[x]) * b[1] + int64_t(r2[x]) * b[2] + int64_t(r3[x]) * b[3];
      const int64_t q = (v + (1 << 21)) >> 22;
      D[x] = static_cast<uint8_t>(q < 0 ? 0 : q > 255 ? 255 : q);
    }
  }

  // LANCZOS4's column pass: (sum of rows * weights + 2^21) >> 22, saturated, on every element.
  void vrow_fixed(const int* const* r, const int* b, uint8_t* D) const {
    const int rw = dw_ * cn_;
    int x = 0;
#if defined(__AVX2__)
    if (int32_ok_) {
      __m256i bk[K];
      for (int k = 0; k < K; ++k) bk[k] = _mm256_set1_epi32(b[k]);
      const __m256i half = _mm256_set1_epi32(1 << 21);
      auto at = [&](int i) {
        __m256i acc = half;
        for (int k = 0; k < K; ++k)
          acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(r[k] + i)), bk[k]));
        return _mm256_srai_epi32(acc, 22);
      };
      for (; x + 16 <= rw; x += 16) {
        const __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(at(x), at(x + 8)), 0xD8);
        const __m256i bts = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0xD8);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(D + x), _mm256_castsi256_si128(bts));
      }
    }
#endif
    for (; x < rw; ++x) {
      int64_t v = 0;
      for (int k = 0; k < K; ++k) v += int64_t(r[k][x]) * b[k];
      const int64_t q = (v + (1 << 21)) >> 22;
      D[x] = static_cast<uint8_t>(q < 0 ? 0 : q > 255 ? 255 : q);
    }
  }

  void rows(const uint8_t* src, uint8_t* dst, int64_t y0, int64_t y1) const {
    const int rw = dw_ * cn_;
    const size_t sstep = size_t(sw_) * cn_;
    // A ring of K horizontally resized rows, reused while consecutive output rows share source
    // rows; each slot padded by 8 ints for the 3-channel stores.
    const size_t slot = size_t(rw) + 8;
    std::vector<int> buf(slot * K);
    int have[K];
    for (int k = 0; k < K; ++k) have[k] = -1;
    for (int64_t y = y0; y < y1; ++y) {
      const int* sy = &ty_.idx[size_t(y) * K];
      const int* rows[K];
      for (int k = 0; k < K; ++k) {
        int j = -1;
        for (int m = 0; m < K; ++m)
          if (have[m] == sy[k]) j = m;
        if (j < 0) {
          for (int m = 0; m < K && j < 0; ++m) {  // a slot no tap of this output row needs
            bool needed = false;
            for (int q = 0; q < K; ++q) needed |= have[m] == sy[q];
            if (!needed) j = m;
          }
          hrow(src + size_t(sy[k]) * sstep, &buf[size_t(j) * slot]);
          have[j] = sy[k];
        }
        rows[k] = &buf[size_t(j) * slot];
      }
      vrow(rows, &ty_.iw[size_t(y) * K], dst + size_t(y) * rw);
    }
  }

  int sh_, sw_, cn_, dh_, dw_;
  Axis tx_, ty_;
  std::vector<int> ofs_, w01_, wv_;
  int vx0_ = 0, vx1_ = 0;
  bool int32_ok_ = false;
};

}  // namespace

std::unique_ptr<backend::Kernel> prepare_resize_cubic_u8(const backend::StepDesc& s, double isx, double isy) {
  return std::make_unique<SepU8<4>>(s, isx, isy);
}

std::unique_ptr<backend::Kernel> prepare_resize_lanczos_u8(const backend::StepDesc& s, double isx, double isy) {
  return std::make_unique<SepU8<8>>(s, isx, isy);
}

}  // namespace mnn::cpu::MNN_ISA_NS
