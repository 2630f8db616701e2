// Row access to cv_resize's uint8 separable path (resize.cpp), for kernels that consume the resized
// rows while they are still in cache (cv_preprocess) instead of reading a whole resized image back.
// Each ISA target compiles resize.cpp and its consumers into its own MNN_ISA_NS, so a consumer
// links to the resize of its own ISA.
#pragma once
#include <cstdint>
#include <memory>

namespace mnn::cpu::MNN_ISA_NS {

class ResizeRowsU8 {
 public:
  virtual ~ResizeRowsU8() = default;
  // Output rows [y0, y1) of the resize of src (sh x sw x cn uint8, dense) written to dst, row y at
  // dst + (y - y0) * dw * cn: the bytes cv2.resize gives. Thread-safe (scratch is per call).
  virtual void rows(const uint8_t* src, uint8_t* dst, int64_t y0, int64_t y1) const = 0;
};

// cv2.resize(src, (dw, dh), INTER_LINEAR) row by row, with the factors cv2 is given
// (inv_scale_x = dw / sw, inv_scale_y = dh / sh). nullptr where cv2 would not take the separable
// linear path (a 2x downscale on both axes is INTER_AREA there): resize the whole image instead.
std::unique_ptr<ResizeRowsU8> make_linear_rows_u8(int sh, int sw, int cn, int dh, int dw, double isx, double isy);

}  // namespace mnn::cpu::MNN_ISA_NS
