// Image codecs for mnn.cv's imread/imdecode/imwrite/imencode: the pixel-level work (entropy coding,
// transforms, filtering, colour conversion). Container parsing that only touches headers and the
// mapping to cv2's flags live in Python (src/mnn/cv/_codecs.py). PNG writing deflates natively
// (deflate_encode.cpp) on the settings it covers; decoding and the rest use Python's zlib.
// Every decoder validates its input and throws CodecError on anything malformed: a corrupt file
// must become None or cv2.error in Python, never a crash or an out-of-bounds access.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mnn::codecs {

struct CodecError : std::runtime_error { using std::runtime_error::runtime_error; };

// ---- JPEG (jpeg_decode.cpp, jpeg_encode.cpp) ----
struct JpegHeader {
  int width = 0, height = 0, components = 0;
  bool progressive = false;
  int64_t exif_offset = -1, exif_size = 0;  // APP1 "Exif\0\0" payload (the TIFF data), if any
};
// Parses markers up to the first scan; throws CodecError when the stream is not a decodable JPEG.
JpegHeader jpeg_read_header(const uint8_t* data, size_t size);
// Decodes into out (height*width*out_channels bytes): out_channels 1 gives the luma plane (what
// libjpeg's JCS_GRAYSCALE output is), 3 gives BGR. Matches libjpeg-turbo's defaults: ISLOW IDCT,
// fancy (triangle) chroma upsampling, its fixed-point YCbCr->RGB tables.
void jpeg_decode(const uint8_t* data, size_t size, uint8_t* out, int out_channels);
// Baseline JFIF with the standard tables scaled by quality like libjpeg; channels 1 (gray) or 3 (BGR);
// subsampling 0 = 4:2:0, 1 = 4:2:2, 2 = 4:4:4 (ignored for gray).
std::vector<uint8_t> jpeg_encode(const uint8_t* pixels, int width, int height, int channels, int quality,
                                 int subsampling);

// ---- PNG (png.cpp) ----
// From the inflated IDAT stream to samples: one byte per sample for bit depths <= 8 (values not
// rescaled), native uint16 for depth 16. Handles all five filters and Adam7. Every sample is written
// (or CodecError is thrown), so the buffer is not zero-filled first.
std::unique_ptr<uint8_t[]> png_unfilter(const uint8_t* data, size_t size, int width, int height, int bit_depth,
                                  int samples_per_pixel, bool interlaced);
// Bytes of filtered scanlines (each with its filter byte) an image of this layout inflates to.
size_t png_filtered_size(int width, int height, int depth, int samples_per_pixel, bool interlaced);
// Whether zsize bytes of deflate data could inflate to `expected` bytes at all (deflate expands at most
// 1032x: a 258-byte match per 2 bits): lets a tiny file claiming a huge image fail before allocating.
inline bool png_stream_can_fill(size_t zsize, size_t expected) { return expected / 1032 <= zsize; }
// Bytes png_decode needs in out: the image, or for a non-interlaced image the inflated stream if larger
// (it is inflated into out and converted in place).
size_t png_decode_capacity(int width, int height, int depth, int color_type, bool interlaced, int out_channels,
                           bool out16);
// The whole pixel path of a PNG decode: inflates the concatenated IDAT data (a zlib stream), unfilters and
// converts like png_unfilter + png_convert; the image ends up in out[0, image bytes). Throws CodecError on a
// corrupt or short stream.
void png_decode(const uint8_t* zdata, size_t zsize, int width, int height, int depth, int color_type, bool interlaced,
                const uint8_t* palette, int npal, const uint8_t* trns, int ntrns, int out_channels, bool out16,
                bool rgb_order, uint8_t* out, size_t capacity);
// cv2's image (B,G,R[,A] or gray; 8-bit or native 16-bit) -> filtered PNG scanlines for deflate:
// filter_mask bit k enables filter k (0..4); with several enabled, picks per row by the minimum sum of
// absolute differences (libpng's heuristic).
// out holds height * (1 + width * channels * depth / 8) bytes.
void png_filter(const uint8_t* pixels, int width, int height, int channels, int depth, int filter_mask, uint8_t* out);
// ---- zlib / deflate (deflate_encode.cpp, checksums.cpp) ----
// zlib's strategies (Z_DEFAULT_STRATEGY .. Z_FIXED), the same numbers as cv2's IMWRITE_PNG_STRATEGY_*.
constexpr int kStrategyDefault = 0, kStrategyFiltered = 1, kStrategyHuffmanOnly = 2, kStrategyRle = 3,
              kStrategyFixed = 4;
// Whether zlib_compress handles (level, strategy) itself: level 0 (stored), Huffman-only, RLE at any
// level, and the other strategies at zlib's fast levels 1-3 (a greedy hash matcher). The lazy
// levels 4-9 are left to zlib.
bool zlib_native(int level, int strategy);
// Most bytes zlib_compress writes for n input bytes (it never writes more than stored blocks would).
size_t zlib_bound(size_t n);
// A zlib stream (RFC 1950 header, deflate blocks, Adler-32) of data[0..n) into out (zlib_bound(n)
// bytes); returns its length. Throws CodecError when !zlib_native(level, strategy).
size_t zlib_compress(const uint8_t* data, size_t n, int level, int strategy, uint8_t* out);
// Running CRC-32 (PNG/gzip polynomial; start from 0) and Adler-32 (start from 1).
uint32_t crc32_update(uint32_t crc, const uint8_t* p, size_t n);
uint32_t adler32_update(uint32_t adler, const uint8_t* p, size_t n);
// A whole PNG file (signature, IHDR, one IDAT, IEND) of cv2's image, filtered as png_filter does and
// deflated by zlib_compress (so zlib_native(level, strategy) must hold); png_encode_bound() bytes of
// out suffice. Returns the file's length.
size_t png_encode_bound(int width, int height, int channels, int depth);
size_t png_encode(const uint8_t* pixels, int width, int height, int channels, int depth, int filter_mask,
                  int level, int strategy, uint8_t* out);

// out[i*entry ...] = palette[idx[i]*entry ...] (indices past npal give zeros): BMP and palette images.
void palette_lookup(const uint8_t* idx, size_t n, const uint8_t* palette, int npal, int entry, uint8_t* out);

// Samples from png_unfilter -> cv2's decoded image: out_channels 1 (gray), 3 (BGR) or 4 (BGRA);
// out16 keeps 16-bit data (2 bytes per output sample) else drops the low byte; rgb_order for IMREAD_COLOR_RGB.
void png_convert(const uint8_t* samples, int width, int height, int depth, int color_type, const uint8_t* palette,
                 int npal, const uint8_t* trns, int ntrns, int out_channels, bool out16, bool rgb_order, uint8_t* out);

}  // namespace mnn::codecs
