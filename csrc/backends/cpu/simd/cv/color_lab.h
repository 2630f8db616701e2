// Lab and Luv conversions for the cv_color kernel (color.cpp), written to give cv2's results bit
// for bit: see color_lab.cpp for how cv2 computes them and which of its steps are reproduced.
#pragma once
#include <cstdint>

namespace mnn::cpu::MNN_ISA_NS {

// One row of w pixels: RGB-like (scn = 3 or 4 channels, blue at bidx) -> L, a|u, b|v.
// srgb: apply the sRGB transfer curve (the L-codes, LBGR/LRGB, skip it). cv2's float code treats
// the first pixels of a row (8 at a time) and the rest differently, so callers pass whole rows.
void lab_forward_row_u8(const uint8_t* s, uint8_t* d, int64_t w, int scn, int bidx, bool srgb, bool luv);
void lab_forward_row_f32(const float* s, float* d, int64_t w, int scn, int bidx, bool srgb, bool luv);
// L, a|u, b|v -> RGB-like with dcn = 3 or 4 channels (alpha = the depth's maximum).
void lab_inverse_row_u8(const uint8_t* s, uint8_t* d, int64_t w, int dcn, int bidx, bool srgb, bool luv);
void lab_inverse_row_f32(const float* s, float* d, int64_t w, int dcn, int bidx, bool srgb, bool luv);

}  // namespace mnn::cpu::MNN_ISA_NS
