// cv2.resize INTER_CUBIC on float32, uint16 and int16 images of 1, 3 or 4 channels with a dsize
// (scales that are the size ratios): cv2 5.0 hands these to Intel IPP (ipp_hal_resize, cubic with
// B = 0, C = 0.75), whose arithmetic differs from cv2's own C++. This kernel reproduces IPP bit for
// bit. Everything below was measured against cv2 5.0 (IPP 2026.0, AVX-512 build) with impulse
// images and random data, by searching every evaluation order of the 4-tap sums with and without
// fused multiply-adds; it is not derived from IPP's code (which is closed).
//
// Coefficients: f = (d + 0.5) * (n_src / n_dst) - 0.5 in double, i = floor(f), t = float(f - i).
// The distance to the leftmost tap u = float(1 + t) and to the rightmost v = float(2 - t) are
// floats; the four weights are Keys' cubic (a = -0.75) evaluated in double on them and rounded to
// float: w0 = P_out(u), w1 = P_in(u - 1), w2 = P_in(2 - u), w3 = P_out(v). Taps i - 1 .. i + 2,
// clamped to the image (IPP's replicated border).
//
// Sums (p_k = w_k * s_k rounded to float, fma exact then rounded once), horizontal pass first:
// * Destination pixels whose taps all lie inside the image on both axes ("inner"):
//   horizontal, 1 channel (p0 + p1) + (p2 + p3); 3 or 4 channels fma(w0, s0, p3) + fma(w1, s1, p2);
//   vertical fma(w0, h0, p1) + fma(w2, h2, p3).
//   IPP's vector loop covers a row's inner elements (pixels x channels) four at a time; the last
//   (count mod 4) elements are its tail, where the horizontal sum of one channel is
//   (p0 + p2) + (p1 + p3) and, for float32 images, the vertical one fma(w1, h1, p0) + fma(w2, h2, p3)
//   (16-bit images keep the body's vertical sum there).
// * The others (a tap clamped on either axis, the "border"): each of the four rows' horizontal sum
//   is an fma chain, p1 then w0, w2, w3 for the rows of taps 1 and 2, p0 then w1, w2, w3 for taps 0
//   and 3; the vertical sum (p0 + p2) + (p1 + p3).
// 16-bit images compute in float as float32 images do and round to nearest (ties to even),
// saturated.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "backends/backend.h"
#include "core/threadpool.h"

namespace mnn::cpu::MNN_ISA_NS {

std::unique_ptr<backend::Kernel> prepare_resize_cubic_ipp(const backend::StepDesc& s, double isx, double isy);

namespace {

// Keys' cubic, a = -0.75, Horner in double (the form that gives IPP's weights bit for bit)
inline double cubic_outer(double x) { return ((-0.75 * x + 3.75) * x - 6.0) * x + 3.0; }
inline double cubic_inner(double x) { return ((1.25 * x - 2.25) * x) * x + 1.0; }

struct CubicAxis {
  std::vector<int> idx;    // 4 per destination index: the clamped taps
  std::vector<float> w;    // 4 per destination index
  int lo = 0, hi = 0;      // destination indices [lo, hi) have all four taps inside the source
};

CubicAxis cubic_axis(int ssize, int dsize) {
  CubicAxis a;
  a.idx.resize(size_t(dsize) * 4);
  a.w.resize(size_t(dsize) * 4);
  const double scale = double(ssize) / double(dsize);
  a.lo = dsize;
  a.hi = dsize;
  bool seen_inner = false;
  for (int d = 0; d < dsize; ++d) {
    const double f = (double(d) + 0.5) * scale - 0.5;  // two roundings (-ffp-contract=off)
    const double fl = std::floor(f);
    const int i = static_cast<int>(fl);
    const float t = static_cast<float>(f - fl);
    const float u = 1.0f + t, v = 2.0f - t;
    const double ud = u;
    float* w = &a.w[size_t(d) * 4];
    w[0] = static_cast<float>(cubic_outer(ud));
    w[1] = static_cast<float>(cubic_inner(ud - 1.0));
    w[2] = static_cast<float>(cubic_inner(2.0 - ud));
    w[3] = static_cast<float>(cubic_outer(double(v)));
    for (int k = 0; k < 4; ++k) a.idx[size_t(d) * 4 + k] = std::min(std::max(i - 1 + k, 0), ssize - 1);
    const bool inner = i - 1 >= 0 && i + 2 <= ssize - 1;
    if (inner && !seen_inner) a.lo = d, seen_inner = true;
    if (inner) a.hi = d + 1;
  }
  if (!seen_inner) a.lo = a.hi = 0;
  return a;
}

template <class T>
inline T store(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    const float r = std::nearbyint(v);  // ties to even under the default rounding mode
    const float lo = float(std::numeric_limits<T>::min()), hi = float(std::numeric_limits<T>::max());
    return static_cast<T>(r < lo ? lo : r > hi ? hi : r);
  }
}

template <class T>
class CubicIppResize final : public backend::Kernel {
 public:
  CubicIppResize(int sh, int sw, int dh, int dw, int cn)
      : sh_(sh), sw_(sw), dh_(dh), dw_(dw), cn_(cn), ax_(cubic_axis(sw, dw)), ay_(cubic_axis(sh, dh)) {
    // per inner element: its four source offsets within a row and its weights
    const int n = (ax_.hi - ax_.lo) * cn;
    for (int k = 0; k < 4; ++k) {
      eo_[k].resize(size_t(n));
      ew_[k].resize(size_t(n));
    }
    for (int x = ax_.lo, e = 0; x < ax_.hi; ++x)
      for (int c = 0; c < cn; ++c, ++e)
        for (int k = 0; k < 4; ++k) {
          eo_[k][size_t(e)] = ax_.idx[size_t(x) * 4 + k] * cn + c;
          ew_[k][size_t(e)] = ax_.w[size_t(x) * 4 + k];
        }
    tail_ = n % 4;
  }

  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    const int rw = dw_ * cn_;
    const int64_t grain = std::max<int64_t>(1, 8192 / std::max(1, rw));
    core::parallel_for(dh_, grain, [&](int64_t y0, int64_t y1) {
      const int n = (ax_.hi - ax_.lo) * cn_;
      std::vector<float> ring(size_t(4) * std::max(1, n));
      int held[4] = {-1, -1, -1, -1};
      std::vector<float> hb(size_t(4) * rw);  // the border path's four horizontal rows
      for (int64_t y = y0; y < y1; ++y) {
        const int* ry = &ay_.idx[size_t(y) * 4];
        const float* wy = &ay_.w[size_t(y) * 4];
        T* D = dst + size_t(y) * rw;
        const bool border_row = y < ay_.lo || y >= ay_.hi;
        if (border_row) {
          border_pixels(src, ry, wy, 0, dw_, hb.data(), D);
          continue;
        }
        if (ax_.lo > 0) border_pixels(src, ry, wy, 0, ax_.lo, hb.data(), D);
        if (ax_.hi < dw_) border_pixels(src, ry, wy, ax_.hi, dw_, hb.data(), D);
        if (n == 0) continue;
        const float* h[4];
        for (int k = 0; k < 4; ++k) h[k] = inner_row(src, ry[k], ring.data(), held, n, ry);
        T* Di = D + size_t(ax_.lo) * cn_;
        const float w0 = wy[0], w1 = wy[1], w2 = wy[2], w3 = wy[3];
        // (16-bit images: their vertical tail is the body's sum)
        const int body = std::is_same_v<T, float> ? n - tail_ : n;
        for (int e = 0; e < body; ++e) {
          const float a = std::fma(w0, h[0][e], w1 * h[1][e]);
          const float b = std::fma(w2, h[2][e], w3 * h[3][e]);
          Di[e] = store<T>(a + b);
        }
        for (int e = body; e < n; ++e) {
          const float a = std::fma(w1, h[1][e], w0 * h[0][e]);
          const float b = std::fma(w2, h[2][e], w3 * h[3][e]);
          Di[e] = store<T>(a + b);
        }
      }
    });
  }

 private:
  int sh_, sw_, dh_, dw_, cn_;
  CubicAxis ax_, ay_;
  std::vector<int> eo_[4];
  std::vector<float> ew_[4];
  int tail_ = 0;

  // The inner horizontal sums of source row r (held in a four-slot ring; a slot whose row the
  // current output row does not use is reused).
  const float* inner_row(const T* src, int r, float* ring, int* held, int n, const int* ry) const {
    for (int k = 0; k < 4; ++k)
      if (held[k] == r) return ring + size_t(k) * n;
    int slot = 0;
    for (int k = 0; k < 4; ++k) {
      const int hr = held[k];
      if (hr != ry[0] && hr != ry[1] && hr != ry[2] && hr != ry[3]) {
        slot = k;
        break;
      }
    }
    float* H = ring + size_t(slot) * n;
    const T* S = src + size_t(r) * sw_ * cn_;
    const int* o0 = eo_[0].data(); const int* o1 = eo_[1].data();
    const int* o2 = eo_[2].data(); const int* o3 = eo_[3].data();
    const float* c0 = ew_[0].data(); const float* c1 = ew_[1].data();
    const float* c2 = ew_[2].data(); const float* c3 = ew_[3].data();
    const int body = n - tail_;
    if (cn_ == 1) {
      for (int e = 0; e < body; ++e) {
        const float p0 = c0[e] * float(S[o0[e]]), p1 = c1[e] * float(S[o1[e]]);
        const float p2 = c2[e] * float(S[o2[e]]), p3 = c3[e] * float(S[o3[e]]);
        H[e] = (p0 + p1) + (p2 + p3);
      }
      for (int e = body; e < n; ++e) {
        const float p0 = c0[e] * float(S[o0[e]]), p1 = c1[e] * float(S[o1[e]]);
        const float p2 = c2[e] * float(S[o2[e]]), p3 = c3[e] * float(S[o3[e]]);
        H[e] = (p0 + p2) + (p1 + p3);
      }
    } else {
      for (int e = 0; e < n; ++e) {
        const float a = std::fma(c0[e], float(S[o0[e]]), c3[e] * float(S[o3[e]]));
        const float b = std::fma(c1[e], float(S[o1[e]]), c2[e] * float(S[o2[e]]));
        H[e] = a + b;
      }
    }
    held[slot] = r;
    return H;
  }

  // Destination columns [x0, x1) of one output row on IPP's border path (see the top of the file).
  void border_pixels(const T* src, const int* ry, const float* wy, int x0, int x1, float* hb, T* D) const {
    const int cn = cn_;
    for (int k = 0; k < 4; ++k) {
      const T* S = src + size_t(ry[k]) * sw_ * cn;
      float* H = hb + size_t(k) * dw_ * cn;
      const bool outer = k == 0 || k == 3;
      for (int x = x0; x < x1; ++x) {
        const int* ix = &ax_.idx[size_t(x) * 4];
        const float* wx = &ax_.w[size_t(x) * 4];
        for (int c = 0; c < cn; ++c) {
          const float s0 = float(S[ix[0] * cn + c]), s1 = float(S[ix[1] * cn + c]);
          const float s2 = float(S[ix[2] * cn + c]), s3 = float(S[ix[3] * cn + c]);
          float acc = outer ? std::fma(wx[1], s1, wx[0] * s0) : std::fma(wx[0], s0, wx[1] * s1);
          acc = std::fma(wx[2], s2, acc);
          H[x * cn + c] = std::fma(wx[3], s3, acc);
        }
      }
    }
    const float* h0 = hb;
    const float* h1 = hb + size_t(dw_) * cn;
    const float* h2 = hb + size_t(2) * dw_ * cn;
    const float* h3 = hb + size_t(3) * dw_ * cn;
    for (int e = x0 * cn; e < x1 * cn; ++e) {
      const float a = wy[0] * h0[e] + wy[2] * h2[e];
      const float b = wy[1] * h1[e] + wy[3] * h3[e];
      D[e] = store<T>(a + b);
    }
  }
};

}  // namespace

// Called by prepare_resize (resize.cpp) for INTER_CUBIC with a dsize on the images cv2 gives IPP:
// float32, uint16 or int16 with 1, 3 or 4 channels and a source of at least 4x4 pixels.
std::unique_ptr<backend::Kernel> prepare_resize_cubic_ipp(const backend::StepDesc& s, double isx, double isy) {
  const auto& a = s.inputs[0].shape;
  const auto& o = s.output.shape;
  const int sh = int(a[0]), sw = int(a[1]), cn = a.size() == 3 ? int(a[2]) : 1;
  const int dh = int(o[0]), dw = int(o[1]);
  // fx / fy that are not the size ratios take IPP's affine warp instead (ipp_hal_resize's rule)
  const double ex = std::fabs(double(dw) / sw - isx) / isx, ey = std::fabs(double(dh) / sh - isy) / isy;
  if (ex > 1e-10 || ey > 1e-10) return nullptr;
  switch (s.output.dtype) {
    case core::DType::Float32: return std::make_unique<CubicIppResize<float>>(sh, sw, dh, dw, cn);
    case core::DType::UInt16: return std::make_unique<CubicIppResize<uint16_t>>(sh, sw, dh, dw, cn);
    case core::DType::Int16: return std::make_unique<CubicIppResize<int16_t>>(sh, sw, dh, dw, cn);
    default: return nullptr;
  }
}

}  // namespace mnn::cpu::MNN_ISA_NS
