// CPU kernel of cv_lap8 (shape rule: ops/cv/filter_sep.cpp): Laplacian of a uint8 image with
// ksize 1 or 3 into int16, scale 1, delta 0, any channel count and border but wrap.
//
// cv2's 3x3 Laplacian kernels have small integer taps, so its result (IPP's fixed-point 3x3
// Laplacian for ksize 3, filter2D's float32 sums of integers for ksize 1) is the exact integer
// sum, which fits int16 without saturating (|sum| <= 8 * 255). Here that sum is formed in int16
// lanes from three border-extended rows in one pass (32 pixels per AVX-512 register):
//   ksize 1:  U + D + L + R - 4 C          ksize 3:  2 (UL + UR + DL + DR) - 8 C
// Integer arithmetic: every ISA target gives the same bits.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

inline int64_t bmap_lap(int64_t p, int64_t n, int mode) {
  if (p >= 0 && p < n) return p;
  switch (mode) {
    case 0: return -1;
    case 1: return p < 0 ? 0 : n - 1;
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

class Lap8Kernel final : public backend::Kernel {
 public:
  explicit Lap8Kernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    ksize_ = static_cast<int>(i[0]);
    border_ = static_cast<int>(i[1]);
    const Shape& sh = s.inputs[0].shape;
    h_ = sh[0], w_ = sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
  }

  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    int16_t* dst = reinterpret_cast<int16_t*>(out);
    const int64_t tot = w_ * c_, c = c_, plen = tot + 2 * c;
    parallel_for(h_, std::max<int64_t>(8, (int64_t(1) << 17) / std::max<int64_t>(1, tot)), [&](int64_t y0, int64_t y1) {
      // ring of three border-extended rows (element j + c is source element j)
      std::vector<uint8_t> ring(static_cast<size_t>(3 * plen));
      auto make = [&](int64_t p, uint8_t* d) {
        const int64_t r = bmap_lap(p, h_, border_);
        if (r < 0) {
          std::fill(d, d + plen, uint8_t(0));
          return;
        }
        const uint8_t* row = src + r * tot;
        std::memcpy(d + c, row, static_cast<size_t>(tot));
        const int64_t sl = bmap_lap(-1, w_, border_), sr = bmap_lap(w_, w_, border_);
        for (int64_t k = 0; k < c; ++k) {
          d[k] = sl < 0 ? 0 : row[sl * c + k];
          d[c + tot + k] = sr < 0 ? 0 : row[sr * c + k];
        }
      };
      int64_t made = y0 - 2;  // the last source position already in the ring
      for (int64_t y = y0; y < y1; ++y) {
        for (int64_t p = std::max(made + 1, y - 1); p <= y + 1; ++p) make(p, ring.data() + ((p % 3 + 3) % 3) * plen);
        made = y + 1;
        const uint8_t* u = ring.data() + (((y - 1) % 3 + 3) % 3) * plen;
        const uint8_t* m = ring.data() + ((y % 3 + 3) % 3) * plen;
        const uint8_t* d = ring.data() + (((y + 1) % 3 + 3) % 3) * plen;
        if (ksize_ == 3) row3(dst + y * tot, u, m + c, d, c, tot);
        else row1(dst + y * tot, u + c, m, d + c, c, tot);
      }
    });
  }

 private:
  // o[x] = 2 (u[x] + u[x+2c] + d[x] + d[x+2c]) - 8 m[x]  (u, d padded rows; m at the pixel)
  static void row3(int16_t* __restrict o, const uint8_t* __restrict u, const uint8_t* __restrict m,
                   const uint8_t* __restrict d, int64_t c, int64_t n) {
    const uint8_t* __restrict u2 = u + 2 * c;
    const uint8_t* __restrict d2 = d + 2 * c;
    for (int64_t x = 0; x < n; ++x) {
      const int16_t s = static_cast<int16_t>(u[x] + u2[x] + d[x] + d2[x]);
      o[x] = static_cast<int16_t>(2 * s - 8 * static_cast<int16_t>(m[x]));
    }
  }

  // o[x] = u[x] + d[x] + m[x] + m[x+2c] - 4 m[x+c]  (m padded; u, d at the pixel)
  static void row1(int16_t* __restrict o, const uint8_t* __restrict u, const uint8_t* __restrict m,
                    const uint8_t* __restrict d, int64_t c, int64_t n) {
    const uint8_t* __restrict mc = m + c;
    const uint8_t* __restrict m2 = m + 2 * c;
    for (int64_t x = 0; x < n; ++x) {
      const int16_t s = static_cast<int16_t>(u[x] + d[x] + m[x] + m2[x]);
      o[x] = static_cast<int16_t>(s - 4 * static_cast<int16_t>(mc[x]));
    }
  }

  int ksize_, border_;
  int64_t h_, w_, c_;
};

std::unique_ptr<backend::Kernel> prepare_lap8(const backend::StepDesc& s) { return std::make_unique<Lap8Kernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_lap8, "cv_lap8", &prepare_lap8);

}  // namespace mnn::cpu::MNN_ISA_NS
