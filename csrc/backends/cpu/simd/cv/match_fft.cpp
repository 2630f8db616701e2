// CPU kernel of cv_ccorr_fft (shape rule: ops/cv/match_fft.cpp): matchTemplate's cross-correlation
// by blocked FFT (overlap-save), for templates large enough that the direct sums cost more.
//
// The output is cut into tiles of (Nh-h+1) x (Nw-w+1) pixels. Each tile reads the Nh x Nw image
// block at its corner (zeros past the image), takes its 2-D real DFT, multiplies it by the conjugate
// DFT of the zero-padded template (computed once per channel) and sums the products over channels;
// one inverse DFT then holds the circular correlation, whose first (Nh-h+1) x (Nw-w+1) values never
// wrap and are the tile's result. Everything is float64, so the error is about 1e-16 of
// sum|img|*|templ|: for uint8 images the sums are integers and are rounded to them, which gives the
// exact correlation (the bits of cv_ccorr_u8); for float32 images the result is within ~1e-15
// relative of the exact sums (cv2 itself correlates float32 images by a float64 DFT).
//
// Layout: a tile's spectrum is stored by pairs of columns, [(Nw/2+2)/2][Nh][2], so the column
// transforms run on contiguous data, two at a time through the plans' SIMD pair passes. The FFT passes are the plans of mnn.numpy.fft (kernels/fft/fft_plan.h), whose
// SIMD passes give the generic passes' bits; this file does plain loops with no FMA contraction,
// so every ISA gives the scalar build's bits. Tiles run in parallel, each computed by one thread
// alone with its own scratch: any thread count gives the same result.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "backends/cpu/kernels/fft/fft_plan.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;
using Cd = std::complex<double>;

class CcorrFftKernel final : public backend::Kernel {
 public:
  explicit CcorrFftKernel(const backend::StepDesc& s)
      : u8_(s.inputs[0].dtype == DType::UInt8), H_(s.inputs[0].shape[0]), W_(s.inputs[0].shape[1]),
        C_(s.inputs[0].shape[2]), h_(s.inputs[1].shape[0]), w_(s.inputs[1].shape[1]),
        Nh_(s.params->ints[0]), Nw_(s.params->ints[1]), Mc_(Nw_ / 2 + 1), Mp_((Mc_ + 1) / 2), rows_(Nh_), cols_(Nw_) {}

  void run(char* const* in, char* out) override {
    double* o = reinterpret_cast<double*>(out);
    const int64_t Ho = H_ - h_ + 1, Wo = W_ - w_ + 1;
    const int64_t th = Nh_ - h_ + 1, tw = Nw_ - w_ + 1;  // output pixels per tile
    const int64_t ny = (Ho + th - 1) / th, nx = (Wo + tw - 1) / tw;
    const int64_t plane = 2 * Mp_ * Nh_;
    // the template's spectra, conjugated: correlation = IDFT(DFT(img) * conj(DFT(templ)))
    std::vector<Cd> tspec(plane * C_);
    {
      Scratch sc(*this);
      for (int64_t c = 0; c < C_; ++c) {
        forward(in[1], w_, h_, w_, 0, 0, c, sc, tspec.data() + c * plane);
        for (int64_t i = 0; i < plane; ++i) tspec[c * plane + i] = std::conj(tspec[c * plane + i]);
      }
    }
    const double scale = 1.0 / (double(Nh_) * double(Nw_));
    // one tile's work is (C+1) 2-D transforms: a few tiles per task keep the pool's overhead small
    parallel_for(ny * nx, 1, [&](int64_t t0, int64_t t1) {
      Scratch sc(*this);
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t y0 = (t / nx) * th, x0 = (t % nx) * tw;
        const int64_t oh = std::min(th, Ho - y0), ow = std::min(tw, Wo - x0);
        for (int64_t c = 0; c < C_; ++c) {
          // one channel multiplies in place (no second buffer to keep in cache)
          Cd* acc = sc.acc.data();
          Cd* sp = C_ == 1 ? acc : sc.spec.data();
          forward(in[0], W_, H_, W_, y0, x0, c, sc, sp);
          const Cd* ts = tspec.data() + c * plane;
          // products in a fixed order (channel 0 first), written out so no FMA can fuse them
          if (c == 0)
            for (int64_t i = 0; i < plane; ++i) acc[i] = mul(sp[i], ts[i]);
          else
            for (int64_t i = 0; i < plane; ++i) acc[i] += mul(sp[i], ts[i]);
        }
        // inverse: columns (length Nh, contiguous), then the rows that hold output
        columns(sc.acc.data(), sc, false);
        for (int64_t r = 0; r < oh; ++r) {
          for (int64_t k = 0; k < Mc_; ++k) sc.line[k] = sc.acc[at(k, r)];
          cols_.backward(sc.line.data(), sc.real.data(), sc.work.data());
          double* dst = o + (y0 + r) * Wo + x0;
          if (u8_)
            for (int64_t x = 0; x < ow; ++x) dst[x] = std::nearbyint(sc.real[x] * scale);
          else
            for (int64_t x = 0; x < ow; ++x) dst[x] = sc.real[x] * scale;
        }
      }
    });
  }

 private:
  struct Scratch {
    std::vector<Cd> spec, acc, line, work;
    std::vector<double> real;
    explicit Scratch(const CcorrFftKernel& k)
        : spec(k.C_ == 1 ? 0 : 2 * k.Mp_ * k.Nh_), acc(2 * k.Mp_ * k.Nh_), line(k.Mc_),
          work(std::max(k.rows_.work_size(), k.cols_.work_size()) + 2 * k.Nh_), real(k.Nw_) {}
  };

  static Cd mul(Cd a, Cd b) {
    const double re = a.real() * b.real() - a.imag() * b.imag();
    const double im = a.real() * b.imag() + a.imag() * b.real();
    return Cd(re, im);
  }

  // The DFT of channel c of the Nh x Nw block at (y0, x0) of an H x W x C image with row pitch
  // pitch*C (zeros outside it), stored transposed into spec [Mc][Nh].
  void forward(const char* src, int64_t pitch, int64_t H, int64_t W, int64_t y0, int64_t x0, int64_t c,
               Scratch& sc, Cd* spec) const {
    const int64_t nr = std::min(Nh_, H - y0), nc = std::min(Nw_, W - x0);
    for (int64_t r = 0; r < nr; ++r) {
      const int64_t base = ((y0 + r) * pitch + x0) * C_ + c;
      double* x = sc.real.data();
      if (u8_) {
        const uint8_t* p = reinterpret_cast<const uint8_t*>(src) + base;
        for (int64_t j = 0; j < nc; ++j) x[j] = p[j * C_];
      } else {
        const float* p = reinterpret_cast<const float*>(src) + base;
        for (int64_t j = 0; j < nc; ++j) x[j] = p[j * C_];
      }
      for (int64_t j = nc; j < Nw_; ++j) x[j] = 0.0;
      cols_.forward(x, sc.line.data(), sc.work.data());
      for (int64_t k = 0; k < Mc_; ++k) spec[at(k, r)] = sc.line[k];
    }
    // rows past the image transform to zero, and so does the padding column of an odd Mc
    for (int64_t r = nr; r < Nh_; ++r)
      for (int64_t k = 0; k < 2 * Mp_; ++k) spec[at(k, r)] = Cd(0.0, 0.0);
    if (Mc_ % 2)
      for (int64_t r = 0; r < nr; ++r) spec[at(Mc_, r)] = Cd(0.0, 0.0);
    columns(spec, sc, true);
  }

  // Spectrum layout: columns k in pairs, each pair's Nh rows with the two columns interleaved, so
  // the column transforms run two at a time on contiguous data through the SIMD pair passes.
  int64_t at(int64_t k, int64_t r) const { return (k >> 1) * 2 * Nh_ + 2 * r + (k & 1); }

  void columns(Cd* spec, Scratch& sc, bool fwd) const {
    if (rows_.pair_ok()) {
      for (int64_t p = 0; p < Mp_; ++p) rows_.run_pair(spec + p * 2 * Nh_, spec + p * 2 * Nh_, sc.work.data(), fwd);
      return;
    }
    Cd* col = sc.work.data() + rows_.work_size();  // no pair passes (the scalar build): one at a time
    for (int64_t k = 0; k < Mc_; ++k) {
      for (int64_t r = 0; r < Nh_; ++r) col[r] = spec[at(k, r)];
      rows_.run(col, sc.work.data(), fwd);
      for (int64_t r = 0; r < Nh_; ++r) spec[at(k, r)] = col[r];
    }
  }

  bool u8_;
  int64_t H_, W_, C_, h_, w_, Nh_, Nw_, Mc_, Mp_;
  fft::FftPlan<double> rows_;   // column transforms (length Nh)
  fft::RealPlan<double> cols_;  // row transforms (length Nw)
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<CcorrFftKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_ccorr_fft, "cv_ccorr_fft", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
