// The JPEG encoder's per-pixel kernels, compiled once per ISA (csrc/backends/cpu/simd/codecs/
// jpeg_encode_kernels.cpp) and picked at run time like codec_kernels.h: the best registered level not
// above cpu::active_isa(). Every ISA gives the scalar build's bits (integer arithmetic only; the SIMD
// paths are exact rearrangements of libjpeg's ISLOW forward DCT and its rounding quantization).
#pragma once
#include <cstdint>

namespace mnn::codecs {

// One quantization table in the forms the kernels use. div is the reference (scalar) divisor; the SIMD
// path divides by a 16-bit reciprocal: q = ((a * recip) >> 16) * scale >> 16 equals a / div for every
// a < 2^15 (proof in jpeg_quant_prepare; tests/cv/test_jpeg_encode12.py checks every quantizer exhaustively).
struct JpegQuant {
  uint16_t div[64];  // 8 * quantizer, natural order
  // Per row v of the block, the row's 8 values twice (two blocks side by side in one 16-lane vector).
  alignas(32) uint16_t half[8][16], recip[8][16], scale[8][16];
};
void jpeg_quant_prepare(const uint16_t* quant, JpegQuant& q);

struct JpegEncodeKernels {
  // libjpeg's fixed-point BGR -> YCbCr of n pixels (pixel_stride 3 or 4 bytes).
  void (*bgr_to_ycc)(const uint8_t* bgr, int pixel_stride, int n, uint8_t* y, uint8_t* cb, uint8_t* cr);
  // Box downsampling with libjpeg's alternating bias: out[x] (x < dw) from in[2x], in[2x+1] of one row
  // (h2v1: + 0/1, >> 1) or of two rows (h2v2: + 1/2, >> 2).
  void (*down_h2v1)(const uint8_t* r0, int dw, uint8_t* out);
  void (*down_h2v2)(const uint8_t* r0, const uint8_t* r1, int dw, uint8_t* out);
  // Accurate integer forward DCT and rounding quantization of nblocks 8x8 blocks side by side
  // (px + 8 * b, rows stride bytes apart), 64 values per block in zigzag order, in the form the entropy
  // coder appends: out[0] the quantized DC; for k >= 1 out[k] the low nbits[k] bits JPEG writes after the
  // coefficient's symbol (v, or v - 1 when negative) and nbits[k] its size category (0 for a zero).
  // nonzero[b] bit k is set iff zigzag coefficient k is nonzero.
  void (*fdct_quant)(const uint8_t* px, int stride, int nblocks, const JpegQuant& q, int16_t* out, uint8_t* nbits,
                     uint64_t* nonzero);
};

int register_jpeg_encode_kernels(int isa_level, const JpegEncodeKernels* kernels);
const JpegEncodeKernels& jpeg_encode_kernels();

}  // namespace mnn::codecs
