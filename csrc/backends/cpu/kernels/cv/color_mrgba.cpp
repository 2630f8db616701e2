// cv_color_mrgba (shape rule: ops/cv/color_ext.cpp): RGBA <-> alpha-premultiplied RGBA (uint8),
// as cv2 5.0 rounds it: premultiply c' = (c * a + 127) / 255 (c * a / 255 to nearest; it is
// never a half); un-premultiply
// c = min(255, (c' * 255 + a / 2) / a), 0 where a is 0. Alpha is copied either way.
#include <cstdint>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

void premultiply(const uint8_t* s, uint8_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i, s += 4, d += 4) {
    const unsigned a = s[3];
    for (int c = 0; c < 3; ++c) d[c] = static_cast<uint8_t>((s[c] * a + 127) / 255);
    d[3] = s[3];
  }
}

void unpremultiply(const uint8_t* s, uint8_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i, s += 4, d += 4) {
    const unsigned a = s[3];
    for (int c = 0; c < 3; ++c) {
      const unsigned v = a ? (s[c] * 255u + a / 2) / a : 0u;
      d[c] = static_cast<uint8_t>(v > 255 ? 255 : v);
    }
    d[3] = s[3];
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
      if (inverse_) unpremultiply(src + lo * 4, dst + lo * 4, hi - lo);
      else premultiply(src + lo * 4, dst + lo * 4, hi - lo);
    });
  }

 private:
  bool inverse_;
  int64_t npix_;
};

std::unique_ptr<backend::Kernel> prepare_mrgba(const backend::StepDesc& s) { return std::make_unique<MrgbaKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_color_mrgba, "cv_color_mrgba", &prepare_mrgba);

}  // namespace mnn::cpu
