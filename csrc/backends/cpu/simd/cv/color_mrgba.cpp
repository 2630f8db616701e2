// cv_color_mrgba (shape rule: ops/cv/color_ext.cpp): RGBA <-> alpha-premultiplied RGBA (uint8),
// as cv2 5.0 rounds it: premultiply c' = (c * a + 127) / 255 (c * a / 255 to nearest; it is
// never a half); un-premultiply
// c = min(255, (c' * 255 + a / 2) / a), 0 where a is 0. Alpha is copied either way.
#include <algorithm>
#include <cstdint>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

// Both maps computed per channel in branch-free code the compiler vectorises (per ISA):
// (v * a + 127) / 255 as a multiply-shift (x * 32897 >> 23 == x / 255 for every x < 2^16,
// checked exhaustively), and the inverse with a float division: the numerator and the alpha
// are under 2^16, so a non-integer quotient is at least 1 / 255 from the next integer, far more
// than float's rounding error, and truncating the float quotient gives the integer one.
void premultiply(const uint8_t* s, uint8_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t a = s[4 * i + 3];
    for (int c = 0; c < 3; ++c) d[4 * i + c] = static_cast<uint8_t>(((s[4 * i + c] * a + 127) * 32897u) >> 23);
    d[4 * i + 3] = static_cast<uint8_t>(a);
  }
}

void unpremultiply(const uint8_t* s, uint8_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const int32_t a = s[4 * i + 3];
    const float fa = float(a > 0 ? a : 1);
    for (int c = 0; c < 4; ++c) {  // c == 3 keeps alpha: one uniform 4-wide body vectorises
      const int32_t q = static_cast<int32_t>(float(s[4 * i + c] * 255 + (a >> 1)) / fa);
      const int32_t v = std::min(q, 255) & -int32_t(a != 0);  // masks, not branches: they vectorise
      d[4 * i + c] = static_cast<uint8_t>(c == 3 ? a : v);
    }
  }
}

class MrgbaKernel final : public backend::Kernel {
 public:
  explicit MrgbaKernel(const backend::StepDesc& s)
      : inverse_(s.params->ints[0] != 0), npix_(s.inputs[0].shape[0] * s.inputs[0].shape[1]) {}

  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    parallel_for(npix_, int64_t(1) << 14, [&](int64_t lo, int64_t hi) {
      (inverse_ ? unpremultiply : premultiply)(src + lo * 4, dst + lo * 4, hi - lo);
    });
  }

 private:
  bool inverse_;
  int64_t npix_;
};

std::unique_ptr<backend::Kernel> prepare_mrgba(const backend::StepDesc& s) { return std::make_unique<MrgbaKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_color_mrgba, "cv_color_mrgba", &prepare_mrgba);

}  // namespace mnn::cpu::MNN_ISA_NS
