// The codecs' per-pixel kernels, compiled once per ISA (csrc/backends/cpu/simd/codecs/) and picked at
// run time like the engine's other kernels: the best registered level not above cpu::active_isa()
// (MNN_ISA=scalar|avx2 caps it). Every ISA computes bit-identical results: they are integer kernels
// written so the compiler can vectorise them, and the tests compare ISAs through MNN_ISA.
#pragma once
#include <cstdint>

namespace mnn::codecs {

struct CodecKernels {
  // libjpeg's accurate integer IDCT of nblocks consecutive blocks of quantized coefficients (64 each,
  // natural order) into side-by-side 8x8 pixel blocks (out + 8 * b).
  void (*idct_blocks)(const int16_t* coefs, int nblocks, const uint16_t* quant, uint8_t* out, int stride);
  // libjpeg's fixed-point YCbCr -> BGR of n pixels.
  void (*ycc_to_bgr)(const uint8_t* y, const uint8_t* cb, const uint8_t* cr, uint8_t* bgr, int n);
  // libjpeg-turbo's fancy 2x upsampling of one row: h2v2 (near row, far row) and h2v1; in has dw >= 3
  // samples, out gets 2*dw.
  void (*fancy_h2v2)(const uint8_t* near, const uint8_t* far, int dw, uint8_t* out);
  void (*fancy_h2v1)(const uint8_t* in, int dw, uint8_t* out);
  // (The JPEG encoder's kernels are in jpeg_encode_kernels.h.)
  // dst = src with channels 0 and 2 exchanged (BGR <-> RGB, BGRA <-> RGBA), channels 3 or 4.
  void (*swap_rb)(const uint8_t* src, uint8_t* dst, int64_t npx, int channels);
};

int register_codec_kernels(int isa_level, const CodecKernels* kernels);
const CodecKernels& codec_kernels();

}  // namespace mnn::codecs
