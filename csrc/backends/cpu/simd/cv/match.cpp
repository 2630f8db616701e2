// CPU kernel of cv_ccorr (shape rule: ops/cv/match.cpp): direct cross-correlation for
// matchTemplate. For each output row and each template row the products are summed in float
// along x (an axpy per template column, which vectorises across output pixels), and each template
// row's float sum is added into a double accumulator. uint8 images give exact float row sums for
// templates up to 258 columns (258 * 255^2 < 2^24), so their correlation is exact; the order of
// every addition is fixed, so each ISA gives the scalar build's bits. Rows run in parallel
// (each output row is computed by one thread alone: any thread count gives the same result).
#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

// r[i] += t[tx] * s[tx + i] for every template column, the row sums held in vector registers
// (the compiler keeps a local array in memory across the loop); a multiply then an add per lane,
// the scalar loop's operations in its order, so the bits are the scalar build's.
template <int kB>
inline void full_row(const float* src, const float* trow, int64_t w, float* r) {
#if defined(__AVX512F__)
  static_assert(kB == 64, "four 16-lane registers");
  __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  for (int64_t tx = 0; tx < w; ++tx) {
    const __m512 t = _mm512_set1_ps(trow[tx]);
    const float* s = src + tx;
    a0 = _mm512_add_ps(a0, _mm512_mul_ps(t, _mm512_loadu_ps(s)));
    a1 = _mm512_add_ps(a1, _mm512_mul_ps(t, _mm512_loadu_ps(s + 16)));
    a2 = _mm512_add_ps(a2, _mm512_mul_ps(t, _mm512_loadu_ps(s + 32)));
    a3 = _mm512_add_ps(a3, _mm512_mul_ps(t, _mm512_loadu_ps(s + 48)));
  }
  _mm512_storeu_ps(r, a0);
  _mm512_storeu_ps(r + 16, a1);
  _mm512_storeu_ps(r + 32, a2);
  _mm512_storeu_ps(r + 48, a3);
#elif defined(__AVX2__)
  static_assert(kB == 64, "two passes of four 8-lane registers");
  for (int h = 0; h < 64; h += 32) {
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t tx = 0; tx < w; ++tx) {
      const __m256 t = _mm256_set1_ps(trow[tx]);
      const float* s = src + tx + h;
      a0 = _mm256_add_ps(a0, _mm256_mul_ps(t, _mm256_loadu_ps(s)));
      a1 = _mm256_add_ps(a1, _mm256_mul_ps(t, _mm256_loadu_ps(s + 8)));
      a2 = _mm256_add_ps(a2, _mm256_mul_ps(t, _mm256_loadu_ps(s + 16)));
      a3 = _mm256_add_ps(a3, _mm256_mul_ps(t, _mm256_loadu_ps(s + 24)));
    }
    _mm256_storeu_ps(r + h, a0);
    _mm256_storeu_ps(r + h + 8, a1);
    _mm256_storeu_ps(r + h + 16, a2);
    _mm256_storeu_ps(r + h + 24, a3);
  }
#else
  for (int i = 0; i < kB; ++i) r[i] = 0.0f;
  for (int64_t tx = 0; tx < w; ++tx) {
    const float t = trow[tx];
    const float* s = src + tx;
    for (int i = 0; i < kB; ++i) r[i] += t * s[i];
  }
#endif
}

// One block of kB output pixels of row y: fixed-size float row sums the compiler keeps in
// vector registers (no stores between template columns), a double sum over template rows.
template <int kB>
void ccorr_block(const float* img, const float* tpl, double* out, int64_t C, int64_t H, int64_t W, int64_t h,
                 int64_t w, int64_t y, int64_t x0, int64_t n) {
  double acc[kB];
  for (int i = 0; i < kB; ++i) acc[i] = 0.0;
  for (int64_t c = 0; c < C; ++c) {
    for (int64_t ty = 0; ty < h; ++ty) {
      const float* src = img + (c * H + y + ty) * W + x0;
      const float* trow = tpl + (c * h + ty) * w;
      float r[kB];
      for (int i = 0; i < kB; ++i) r[i] = 0.0f;
      if (n == kB) {
        full_row<kB>(src, trow, w, r);
      } else {  // the row's tail: the same additions in the same order
        for (int64_t tx = 0; tx < w; ++tx) {
          const float t = trow[tx];
          const float* s = src + tx;
          for (int64_t i = 0; i < n; ++i) r[i] += t * s[i];
        }
      }
      for (int i = 0; i < kB; ++i) acc[i] += static_cast<double>(r[i]);
    }
  }
  for (int64_t i = 0; i < n; ++i) out[y * (W - w + 1) + x0 + i] = acc[i];
}

#if defined(__AVX512F__)
// Four output rows of one 64-pixel block at once (AVX-512): each source row's vectors are loaded
// once and multiplied by the template value each of the four output rows needs from it, so the
// loads are shared. For every output row the additions are the ones ccorr_block makes, in its
// order (per template row: from zero, template columns ascending, then into the double sum,
// template rows ascending), so the bits are the scalar build's.
void ccorr_block4(const float* img, const float* tpl, double* out, int64_t C, int64_t H, int64_t W, int64_t h,
                  int64_t w, int64_t y, int64_t x0) {
  const int64_t Wo = W - w + 1;
  alignas(64) double dacc[4][64];
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 64; ++i) dacc[k][i] = 0.0;
  for (int64_t c = 0; c < C; ++c) {
    for (int64_t ro = 0; ro < h + 3; ++ro) {
      const float* src = img + (c * H + y + ro) * W + x0;
      bool on[4];
      const float* trow[4];
      for (int k = 0; k < 4; ++k) {
        on[k] = ro - k >= 0 && ro - k < h;
        trow[k] = tpl + (c * h + (on[k] ? ro - k : 0)) * w;
      }
      __m512 a[4][4];
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k)
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) a[k][j] = _mm512_setzero_ps();
      for (int64_t tx = 0; tx < w; ++tx) {
        const float* sp = src + tx;
        const __m512 s0 = _mm512_loadu_ps(sp), s1 = _mm512_loadu_ps(sp + 16);
        const __m512 s2 = _mm512_loadu_ps(sp + 32), s3 = _mm512_loadu_ps(sp + 48);
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k) {
          const __m512 t = _mm512_set1_ps(trow[k][tx]);  // a row not in use reads row 0 and is dropped
          a[k][0] = _mm512_add_ps(a[k][0], _mm512_mul_ps(t, s0));
          a[k][1] = _mm512_add_ps(a[k][1], _mm512_mul_ps(t, s1));
          a[k][2] = _mm512_add_ps(a[k][2], _mm512_mul_ps(t, s2));
          a[k][3] = _mm512_add_ps(a[k][3], _mm512_mul_ps(t, s3));
        }
      }
      for (int k = 0; k < 4; ++k) {
        if (!on[k]) continue;
        alignas(64) float r[64];
        for (int j = 0; j < 4; ++j) _mm512_store_ps(r + 16 * j, a[k][j]);
        for (int i = 0; i < 64; ++i) dacc[k][i] += static_cast<double>(r[i]);
      }
    }
  }
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 64; ++i) out[(y + k) * Wo + x0 + i] = dacc[k][i];
}
#endif

void ccorr_row(const float* img, const float* tpl, double* out, int64_t y, int64_t C, int64_t H, int64_t W,
               int64_t h, int64_t w, int64_t Wo) {
  constexpr int kB = 64;
  for (int64_t x0 = 0; x0 < Wo; x0 += kB)
    ccorr_block<kB>(img, tpl, out, C, H, W, h, w, y, x0, std::min<int64_t>(kB, Wo - x0));
}

class CcorrKernel final : public backend::Kernel {
 public:
  explicit CcorrKernel(const backend::StepDesc& s)
      : C_(s.inputs[0].shape[0]), H_(s.inputs[0].shape[1]), W_(s.inputs[0].shape[2]),
        h_(s.inputs[1].shape[1]), w_(s.inputs[1].shape[2]) {}
  void run(char* const* in, char* out) override {
    const float* img = reinterpret_cast<const float*>(in[0]);
    const float* tpl = reinterpret_cast<const float*>(in[1]);
    double* o = reinterpret_cast<double*>(out);
    const int64_t Ho = H_ - h_ + 1, Wo = W_ - w_ + 1;
    const int64_t work = std::max<int64_t>(1, Wo * C_ * h_ * w_);
    const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 20) / work);  // rows per task
#if defined(__AVX512F__)
    // groups of four output rows (full 64-pixel blocks by ccorr_block4, the rest as single rows)
    const int64_t groups = (Ho + 3) / 4;
    parallel_for(groups, std::max<int64_t>(1, grain / 4), [&](int64_t g0, int64_t g1) {
      for (int64_t g = g0; g < g1; ++g) {
        const int64_t y = 4 * g;
        if (y + 4 <= Ho) {
          const int64_t full = Wo / 64 * 64;
          for (int64_t x0 = 0; x0 < full; x0 += 64) ccorr_block4(img, tpl, o, C_, H_, W_, h_, w_, y, x0);
          if (full < Wo)
            for (int64_t k = 0; k < 4; ++k)
              ccorr_block<64>(img, tpl, o, C_, H_, W_, h_, w_, y + k, full, Wo - full);
        } else {
          for (int64_t yy = y; yy < Ho; ++yy) ccorr_row(img, tpl, o, yy, C_, H_, W_, h_, w_, Wo);
        }
      }
    });
#else
    parallel_for(Ho, grain, [&](int64_t r0, int64_t r1) {
      for (int64_t y = r0; y < r1; ++y) ccorr_row(img, tpl, o, y, C_, H_, W_, h_, w_, Wo);
    });
#endif
  }

 private:
  int64_t C_, H_, W_, h_, w_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<CcorrKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_ccorr, "cv_ccorr", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
