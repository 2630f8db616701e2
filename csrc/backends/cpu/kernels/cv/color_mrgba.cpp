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

// Both maps as 256 x 256 tables (by alpha, then value), built once: a load per channel instead
// of a division.
struct Tables {
  uint8_t mul[256][256], unmul[256][256];
  Tables() {
    for (unsigned a = 0; a < 256; ++a)
      for (unsigned v = 0; v < 256; ++v) {
        mul[a][v] = static_cast<uint8_t>((v * a + 127) / 255);
        const unsigned u = a ? (v * 255u + a / 2) / a : 0u;
        unmul[a][v] = static_cast<uint8_t>(u > 255 ? 255 : u);
      }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

void convert(const uint8_t* s, uint8_t* d, int64_t n, const uint8_t (&lut)[256][256]) {
  for (int64_t i = 0; i < n; ++i, s += 4, d += 4) {
    const uint8_t* row = lut[s[3]];
    d[0] = row[s[0]];
    d[1] = row[s[1]];
    d[2] = row[s[2]];
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
      convert(src + lo * 4, dst + lo * 4, hi - lo, inverse_ ? tables().unmul : tables().mul);
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
