// INTER_CUBIC for warpAffine / warpPerspective / remap with cv2 5.0's arithmetic (warp_cubic.cpp),
// called by the cv_warp / cv_remap kernels of warp.cpp (compiled once per ISA, like them).
#pragma once

#include <cstddef>
#include <cstdint>

namespace mnn::cpu::MNN_ISA_NS {

struct CubicWarp {
  int mode = 0;  // 0 affine, 1 perspective, 2 remap (float maps)
  const void* src = nullptr;
  int sh = 0, sw = 0, cn = 1;
  int dh = 0, dw = 0;
  const float* mapx = nullptr;  // remap: x and y of pixel i at mapx[i * mstride], mapy[i * mstride]
  const float* mapy = nullptr;
  size_t mstride = 2;
  double m[9] = {0};  // the inverse matrix (dst -> src), row-major
  int border = 0;     // cv2 border code, 5 = BORDER_TRANSPARENT
  double bval[4] = {0};
};

// Writes every destination row; dst already holds the old pixels for BORDER_TRANSPARENT.
// T: uint8_t, uint16_t, int16_t, float, double.
template <class T>
void warp_cubic_run(const CubicWarp& p, T* dst);

}  // namespace mnn::cpu::MNN_ISA_NS
