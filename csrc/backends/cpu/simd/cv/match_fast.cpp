// CPU kernels of cv_ccorr_u8 and cv_match_score (shape rules: ops/cv/match_fast.cpp).
//
// cv_ccorr_u8: the uint8 cross-correlation of matchTemplate in exact integer arithmetic. The
// image is stored as signed bytes v = img - 128 so that AVX-512 VNNI (vpdpbusd: unsigned x signed
// bytes, four products summed into an int32 lane) can multiply it by the unsigned template:
// sum(t * img) = sum(t * v) + 128 * sum(t). For that the image is laid out as "quads": Q[x] holds
// v[x..x+3] in one int32, so the four taps tx..tx+3 of 16 adjacent outputs are one vector load
// at Q + x + tx. |t * v| <= 255 * 128, so C*h*w <= 65793 products fit int32 (checked by the
// shape rule). Integer sums are exact in any order, so the VNNI path, the plain loop used on
// other CPUs and ISAs, and any thread count all give the same bits (the exact correlation, which
// the float kernel cv_ccorr also gives for templates up to 258 columns).
//
// cv_match_score: cv2's formulas turning the correlation and the window sums into the score, one
// pass, the operations of mnn/cv/_match.py's former array expressions in their order (doubles).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

struct Geo {
  int64_t H, W, C, h, w, Ho, Wo;
};

// Exact correlation by plain loops (int32 sums of t * (img - 128)): rows y0..y1.
void ccorr_plain(const uint8_t* img, const uint8_t* tpl, double* out, const Geo& g, double corr, int64_t y0,
                 int64_t y1) {
  std::vector<int32_t> acc(g.Wo);
  for (int64_t y = y0; y < y1; ++y) {
    std::fill(acc.begin(), acc.end(), 0);
    for (int64_t ty = 0; ty < g.h; ++ty) {
      const uint8_t* src = img + (y + ty) * g.W * g.C;
      for (int64_t tx = 0; tx < g.w; ++tx)
        for (int64_t c = 0; c < g.C; ++c) {
          const int32_t t = tpl[(ty * g.w + tx) * g.C + c];
          const uint8_t* s = src + tx * g.C + c;
          for (int64_t x = 0; x < g.Wo; ++x) acc[x] += t * (int32_t(s[x * g.C]) - 128);
        }
    }
    for (int64_t x = 0; x < g.Wo; ++x) out[y * g.Wo + x] = double(acc[x]) + corr;
  }
}

#if defined(__AVX512F__)
#define MNN_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))

// Four output rows y..y+3 by 64 columns x0..x0+63: 16 int32 accumulators; each quad row's four
// vectors are loaded once and used by all four output rows (template rows ro-k, zero-padded).
MNN_VNNI void vnni_block(const int32_t* q, const int32_t* tq, int64_t Wq, int64_t rows_q, int64_t nq, int64_t C,
                         int64_t h, int64_t y, int64_t x0, int32_t* res /* 4 x 64 */) {
  __m512i a[4][4];
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k)
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) a[k][j] = _mm512_setzero_si512();
  for (int64_t c = 0; c < C; ++c) {
    for (int64_t ro = 0; ro < h + 3; ++ro) {
      const int32_t* src = q + (c * rows_q + y + ro) * Wq + x0;
      // padded template rows: index ro - k + 3 of (h + 6) rows, zeros outside 3..h+2
      const int32_t* t0 = tq + (c * (h + 6) + ro + 3) * nq;
      for (int64_t j4 = 0; j4 < nq; ++j4) {
        const int32_t* sp = src + 4 * j4;
        const __m512i s0 = _mm512_loadu_si512(sp), s1 = _mm512_loadu_si512(sp + 16);
        const __m512i s2 = _mm512_loadu_si512(sp + 32), s3 = _mm512_loadu_si512(sp + 48);
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k) {
          const __m512i t = _mm512_set1_epi32(t0[j4 - k * nq]);
          a[k][0] = _mm512_dpbusd_epi32(a[k][0], t, s0);
          a[k][1] = _mm512_dpbusd_epi32(a[k][1], t, s1);
          a[k][2] = _mm512_dpbusd_epi32(a[k][2], t, s2);
          a[k][3] = _mm512_dpbusd_epi32(a[k][3], t, s3);
        }
      }
    }
  }
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 4; ++j) _mm512_storeu_si512(res + k * 64 + 16 * j, a[k][j]);
}

void ccorr_vnni(const uint8_t* img, const uint8_t* tpl, double* out, const Geo& g, double corr) {
  const int64_t nq = (g.w + 3) / 4;
  const int64_t Wo64 = (g.Wo + 63) / 64 * 64;
  const int64_t Wq = Wo64 + 4 * nq + 16;
  const int64_t groups = (g.Ho + 3) / 4;
  const int64_t rows_q = 4 * groups + g.h + 3;
  // quads of (img - 128) per channel; zero outside the image (those bytes meet zero template
  // taps or feed outputs that are dropped)
  std::vector<int32_t> q(size_t(g.C * rows_q * Wq), 0);
  parallel_for(g.H, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, g.W * g.C)), [&](int64_t r0, int64_t r1) {
    std::vector<uint8_t> row(size_t(Wq + 4), 0);
    for (int64_t r = r0; r < r1; ++r)
      for (int64_t c = 0; c < g.C; ++c) {
        const uint8_t* s = img + r * g.W * g.C + c;
        for (int64_t x = 0; x < g.W; ++x) row[x] = uint8_t(s[x * g.C] ^ 0x80);
        int32_t* d = q.data() + (c * rows_q + r) * Wq;
        for (int64_t x = 0; x < std::min(Wq, g.W); ++x) {
          uint32_t v;
          std::memcpy(&v, row.data() + x, 4);
          d[x] = int32_t(v);
        }
      }
  });
  // template quads, 3 zero rows above and below each channel's rows
  std::vector<int32_t> tq(size_t(g.C * (g.h + 6) * nq), 0);
  for (int64_t c = 0; c < g.C; ++c)
    for (int64_t ty = 0; ty < g.h; ++ty)
      for (int64_t j = 0; j < nq; ++j) {
        uint32_t v = 0;
        for (int b = 0; b < 4; ++b)
          if (4 * j + b < g.w) v |= uint32_t(tpl[(ty * g.w + 4 * j + b) * g.C + c]) << (8 * b);
        tq[(c * (g.h + 6) + ty + 3) * nq + j] = int32_t(v);
      }
  const int64_t work = std::max<int64_t>(1, 4 * Wo64 * g.C * (g.h + 3) * nq);
  parallel_for(groups, std::max<int64_t>(1, (int64_t(1) << 20) / work), [&](int64_t g0, int64_t g1) {
    alignas(64) int32_t res[4 * 64];
    for (int64_t gi = g0; gi < g1; ++gi) {
      const int64_t y = 4 * gi;
      for (int64_t x0 = 0; x0 < g.Wo; x0 += 64) {
        vnni_block(q.data(), tq.data(), Wq, rows_q, nq, g.C, g.h, y, x0, res);
        const int64_t n = std::min<int64_t>(64, g.Wo - x0);
        for (int64_t k = 0; k < 4 && y + k < g.Ho; ++k)
          for (int64_t i = 0; i < n; ++i) out[(y + k) * g.Wo + x0 + i] = double(res[k * 64 + i]) + corr;
      }
    }
  });
}
#endif

class CcorrU8Kernel final : public backend::Kernel {
 public:
  explicit CcorrU8Kernel(const backend::StepDesc& s) {
    g_.H = s.inputs[0].shape[0];
    g_.W = s.inputs[0].shape[1];
    g_.C = s.inputs[0].shape[2];
    g_.h = s.inputs[1].shape[0];
    g_.w = s.inputs[1].shape[1];
    g_.Ho = g_.H - g_.h + 1;
    g_.Wo = g_.W - g_.w + 1;
  }
  void run(char* const* in, char* out) override {
    const uint8_t* img = reinterpret_cast<const uint8_t*>(in[0]);
    const uint8_t* tpl = reinterpret_cast<const uint8_t*>(in[1]);
    double* o = reinterpret_cast<double*>(out);
    int64_t tsum = 0;
    for (int64_t i = 0; i < g_.h * g_.w * g_.C; ++i) tsum += tpl[i];
    const double corr = 128.0 * double(tsum);
#if defined(__AVX512F__)
    if (__builtin_cpu_supports("avx512vnni")) return ccorr_vnni(img, tpl, o, g_, corr);
#endif
    const int64_t work = std::max<int64_t>(1, g_.Wo * g_.C * g_.h * g_.w);
    parallel_for(g_.Ho, std::max<int64_t>(1, (int64_t(1) << 20) / work),
                 [&](int64_t r0, int64_t r1) { ccorr_plain(img, tpl, o, g_, corr, r0, r1); });
  }

 private:
  Geo g_;
};

class ScoreKernel final : public backend::Kernel {
 public:
  explicit ScoreKernel(const backend::StepDesc& s)
      : Ho_(s.inputs[0].shape[0]), Wo_(s.inputs[0].shape[1]), W1_(s.inputs[1].shape[1]), C_(s.inputs[1].shape[2]),
        m_(int(s.params->ints[0])), h_(s.params->ints[1]), w_(s.params->ints[2]), f_(s.params->floats) {}
  void run(char* const* in, char* out) override {
    const double* cc = reinterpret_cast<const double*>(in[0]);
    const double* S = reinterpret_cast<const double*>(in[1]);
    const double* Q = reinterpret_cast<const double*>(in[2]);
    float* o = reinterpret_cast<float*>(out);
    parallel_for(Ho_, std::max<int64_t>(1, 8192 / std::max<int64_t>(1, Wo_)), [&](int64_t r0, int64_t r1) {
      for (int64_t y = r0; y < r1; ++y)
        for (int64_t x = 0; x < Wo_; ++x) o[y * Wo_ + x] = score(cc[y * Wo_ + x], S, Q, y, x);
    });
  }

 private:
  // window sum of channel k of an integral: the four corners in _window_sums' order
  double wsum(const double* I, int64_t y, int64_t x, int64_t k) const {
    const int64_t r0 = y * W1_, r1 = (y + h_) * W1_;
    return I[(r1 + x + w_) * C_ + k] - I[(r0 + x + w_) * C_ + k] - I[(r1 + x) * C_ + k] + I[(r0 + x) * C_ + k];
  }
  float score(double num, const double* S, const double* Q, int64_t y, int64_t x) const {
    const double* tmean = f_.data() + 3;
    if (m_ == 4) {  // TM_CCOEFF
      for (int64_t k = 0; k < C_; ++k)
        if (tmean[k] != 0.0) num = num - wsum(S, y, x, k) * tmean[k];
      return float(num);
    }
    const bool coeff = m_ == 5;
    double wm2 = 0.0;
    if (coeff) {
      for (int64_t k = 0; k < C_; ++k) {
        const double sk = wsum(S, y, x, k);
        wm2 = k == 0 ? sk * sk : wm2 + sk * sk;
        if (tmean[k] != 0.0) num = num - sk * tmean[k];
      }
      wm2 = wm2 * f_[2];
    }
    double ws2 = wsum(Q, y, x, 0);
    for (int64_t k = 1; k < C_; ++k) ws2 = ws2 + wsum(Q, y, x, k);
    if (m_ == 0 || m_ == 1) {
      const double v = ws2 - 2.0 * num + f_[1];
      num = v >= 0.0 ? v : 0.0;
      if (m_ == 0) return float(num);
    }
    const double d = coeff ? ws2 - wm2 : ws2;
    const double diff2 = d >= 0.0 ? d : 0.0;
    const double lim = double(10 * 1.1920928955078125e-07) * ws2;
    const double tt = diff2 <= (0.5 <= lim ? 0.5 : lim) ? 0.0 : std::sqrt(diff2) * f_[0];
    const double an = std::fabs(num);
    if (an < tt) return float(num / tt);
    if (an < tt * 1.125) return num > 0 ? 1.0f : -1.0f;
    return m_ == 1 ? 1.0f : 0.0f;
  }
  int64_t Ho_, Wo_, W1_, C_;
  int m_;
  int64_t h_, w_;
  std::vector<double> f_;
};

std::unique_ptr<backend::Kernel> make_ccorr(const backend::StepDesc& s) { return std::make_unique<CcorrU8Kernel>(s); }
std::unique_ptr<backend::Kernel> make_score(const backend::StepDesc& s) { return std::make_unique<ScoreKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_ccorr_u8, "cv_ccorr_u8", &make_ccorr);
MNN_REGISTER_CPU_KERNEL(cv_match_score, "cv_match_score", &make_score);

}  // namespace mnn::cpu::MNN_ISA_NS
