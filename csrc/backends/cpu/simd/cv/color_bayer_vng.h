// Bayer demosaicing by variable number of gradients (cv2's COLOR_Bayer*2BGR_VNG), uint8.
#pragma once
#include <cstdint>

namespace mnn::cpu::MNN_ISA_NS {

// src: h x w raw Bayer (min(h, w) >= 8); dst: h x w x 3. blue_idx (0 or 2: where the blue of the
// first row goes) and green0 (whether pixel (0, 0) is green) describe row 0; both alternate by row.
void bayer_vng_u8(const uint8_t* src, uint8_t* dst, int64_t h, int64_t w, int blue_idx, bool green0);

}  // namespace mnn::cpu::MNN_ISA_NS
