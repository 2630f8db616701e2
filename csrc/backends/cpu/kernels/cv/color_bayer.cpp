// cv_color_bayer (shape rule: ops/cv/color_ext.cpp): bilinear demosaicing of a raw Bayer image
// (uint8 or uint16) to BGR(A)/RGB(A) or gray, giving cv2's results bit for bit.
//
// cv2's scheme: each inner pixel is interpolated from its 3x3 neighbourhood. At a red or blue
// site the two missing colours are the averages of the 4 diagonal and the 4 cross neighbours
// ((sum + 2) >> 2); at a green site they are the averages of the 2 vertical and the 2 horizontal
// neighbours ((sum + 1) >> 1). The first and last columns then copy their neighbours, and the
// first and last rows copy theirs; images under 3 pixels a side are all zero (alpha kept in
// columns when only the width is that small). Row r (from 0 at the first inner row) swaps the
// blue/red sides and the green phase of row r - 1.
//
// The _EA codes choose the green at red/blue sites by the smaller gradient (rgb_row); the _VNG
// codes are in color_bayer_vng.cpp.
//
// Gray weights the same neighbourhood with cv2's 14-bit luma weights in unsigned 32-bit
// arithmetic (uint16 sums may wrap, as in cv2). cv2's source also has a 16-bit SIMD gray path
// with other rounding, but the cv2 5.0 wheels give the scalar formula's result everywhere
// (tests/cv/test_color10.py checks every row length up to 65), so only that one is written.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "backends/cpu/kernels/cv/color_bayer_vng.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

constexpr unsigned kR2Y = 4899, kG2Y = 9617, kB2Y = 1868;
constexpr int kShift = 14;

inline unsigned descale(unsigned x, int n) { return (x + (1u << (n - 1))) >> n; }

// One output row of colour: rows T, M, B of the source around it, w inner pixels starting at
// column 1 of d (a full output row, dcn channels).
// Edge-aware (ea): green at a red/blue site averages the pair, vertical or horizontal, whose
// difference is not larger than the other's (horizontal on ties), as cv2's _EA codes do.
template <class T>
void rgb_row(const T* t, const T* m, const T* b, T* d, int64_t w, int dcn, int blue, bool green, bool ea) {
  const T alpha = std::numeric_limits<T>::max();
  const int lo = 1 - blue, hi = 1 + blue;
  T* o = d + dcn;
  for (int64_t j = 0; j < w; ++j, o += dcn) {
    if (((j + (green ? 1 : 0)) & 1) == 0) {
      o[lo] = T((t[j] + t[j + 2] + b[j] + b[j + 2] + 2) >> 2);
      if (!ea) {
        o[1] = T((t[j + 1] + m[j] + m[j + 2] + b[j + 1] + 2) >> 2);
      } else {
        const int dh = std::abs(int(m[j]) - int(m[j + 2])), dv = std::abs(int(b[j + 1]) - int(t[j + 1]));
        o[1] = T(dh > dv ? (t[j + 1] + b[j + 1] + 1) >> 1 : (m[j] + m[j + 2] + 1) >> 1);
      }
      o[hi] = m[j + 1];
    } else {
      o[lo] = T((t[j + 1] + b[j + 1] + 1) >> 1);
      o[1] = m[j + 1];
      o[hi] = T((m[j] + m[j + 2] + 1) >> 1);
    }
    if (dcn == 4) o[3] = alpha;
  }
  std::memcpy(d, d + dcn, dcn * sizeof(T));
  std::memcpy(d + (w + 1) * dcn, d + w * dcn, dcn * sizeof(T));
}

// cv2's scalar gray formulas for one inner pixel at offset j (red/blue site or green site).
template <class T>
inline T gray_px(const T* t, const T* m, const T* b, int64_t j, bool green_site, unsigned bc, unsigned rc) {
  if (!green_site) {
    unsigned t0 = (unsigned(t[j]) + t[j + 2] + b[j] + b[j + 2]) * rc;
    unsigned t1 = (unsigned(t[j + 1]) + m[j] + m[j + 2] + b[j + 1]) * kG2Y;
    unsigned t2 = unsigned(m[j + 1]) * (4 * bc);
    return T(descale(t0 + t1 + t2, kShift + 2));
  }
  unsigned t0 = (unsigned(t[j + 1]) + b[j + 1]) * rc;
  unsigned t1 = (unsigned(m[j]) + m[j + 2]) * bc;
  unsigned t2 = unsigned(m[j + 1]) * (2 * kG2Y);
  return T(descale(t0 + t1 + t2, kShift + 1));
}

template <class T>
void gray_row(const T* t, const T* m, const T* b, T* d, int64_t w, bool green, unsigned bc, unsigned rc) {
  T* o = d + 1;
  int64_t j = 0;
  if (green) {
    o[0] = gray_px(t, m, b, 0, true, bc, rc);
    j = 1;
  }
  for (; j < w; ++j) o[j] = gray_px(t, m, b, j, ((j + (green ? 1 : 0)) & 1) != 0, bc, rc);
  d[0] = d[1];
  d[w + 1] = d[w];
}

class BayerKernel final : public backend::Kernel {
 public:
  explicit BayerKernel(const backend::StepDesc& s) : dtype_(s.inputs[0].dtype) {
    const auto& p = s.params->ints;
    dcn_ = int(p[0]), blue_ = int(p[1]), green_ = p[2] != 0;
    const int64_t algo = p.size() > 3 ? p[3] : 0;  // 0 bilinear, 1 edge-aware, 2 VNG
    ea_ = algo == 1, vng_ = algo == 2;
    h_ = s.inputs[0].shape[0];
    w_ = s.inputs[0].shape[1];
  }

  void run(char* const* in, char* out) override {
    if (dtype_ == DType::UInt16) run_t<uint16_t>(in[0], out);
    else run_t<uint8_t>(in[0], out);
  }

 private:
  template <class T>
  void run_t(const char* in, char* out) {
    const T* src = reinterpret_cast<const T*>(in);
    T* dst = reinterpret_cast<T*>(out);
    const int64_t h = h_, w = w_, row = w * dcn_;
    if constexpr (std::is_same_v<T, uint8_t>) {
      if (vng_ && std::min(h, w) >= 8) {
        bayer_vng_u8(src, dst, h, w, blue_ < 0 ? 0 : 2, green_);
        return;
      }
    }
    // VNG under 8 pixels a side: cv2 demosaics bilinearly
    const int blue0 = blue_;
    const bool green0 = green_;
    if (h < 3 || w < 3) {
      std::fill(dst, dst + h * row, T(0));
      if (dcn_ == 4 && h >= 3 && !ea_)
        for (int64_t i = 0; i < h * w; ++i) dst[i * 4 + 3] = std::numeric_limits<T>::max();
      return;
    }
    parallel_for(h - 2, std::max<int64_t>(1, 8192 / w), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const T* t = src + r * w;
        const bool odd = (r & 1) != 0;
        const bool green = green0 != odd;
        T* d = dst + (r + 1) * row;
        if (dcn_ == 1) {
          // blue_ < 0 marks the BG/GB layouts, whose first inner row weights blue at its red/blue sites
          unsigned bc = kB2Y, rc = kR2Y;
          if ((blue_ > 0) != odd) std::swap(bc, rc);
          gray_row(t, t + w, t + 2 * w, d, w - 2, green, bc, rc);
        } else {
          rgb_row(t, t + w, t + 2 * w, d, w - 2, dcn_, odd ? -blue0 : blue0, green, ea_);
        }
      }
    });
    std::memcpy(dst, dst + row, row * sizeof(T));
    std::memcpy(dst + (h - 1) * row, dst + (h - 2) * row, row * sizeof(T));
  }

  DType dtype_;
  int dcn_ = 3, blue_ = -1;
  bool green_ = false, ea_ = false, vng_ = false;
  int64_t h_ = 0, w_ = 0;
};

std::unique_ptr<backend::Kernel> prepare_bayer(const backend::StepDesc& s) { return std::make_unique<BayerKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_color_bayer, "cv_color_bayer", &prepare_bayer);

}  // namespace mnn::cpu
