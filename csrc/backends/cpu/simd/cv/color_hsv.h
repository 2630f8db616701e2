// HSV and HLS conversions for the cv_color kernel (color.cpp), written to give cv2's results: see
// color_hsv.cpp for which of cv2's (and, on x86, Intel IPP's) rounding sequences each reproduces.
// uint8 BGR/RGB -> HSV (not HLS) stays in color.cpp: it is integer arithmetic with cv2's tables.
#pragma once
#include <cstdint>

namespace mnn::cpu::MNN_ISA_NS {

// One uint8 row of n pixels: cv2 treats a row's first pixels (its SIMD code) and the rest (its
// scalar code) differently, so callers pass whole rows. scn/dcn: 3 or 4 channels, blue at bidx;
// hrange: 180 or 256 (the _FULL codes).
void hls_row_u8(const uint8_t* s, uint8_t* d, int n, int scn, int bidx, int hrange);
void hsv_inv_row_u8(const uint8_t* s, uint8_t* d, int n, int dcn, int bidx, int hrange, bool hls);
#if defined(__SSE__) || defined(__x86_64__) || defined(_M_X64)
// cv2's x86 wheels route these two through Intel IPP (hue scale 255).
void hls_full_ipp_row_u8(const uint8_t* s, uint8_t* d, int n, int scn, int bidx);
void hsv_full_ipp_inv_row_u8(const uint8_t* s, uint8_t* d, int n, int dcn, int bidx);
#endif
// float32 (cv2's scalar formulas; position in the row does not matter): n pixels. nt: write the
// result with non-temporal stores (large images: color.cpp's stream_output).
void hsv_run_f32(const float* s, float* d, int64_t n, int scn, int bidx, int hrange, bool hls, bool nt);
void hsv_inv_run_f32(const float* s, float* d, int64_t n, int dcn, int bidx, int hrange, bool hls, bool nt);

}  // namespace mnn::cpu::MNN_ISA_NS
