// PNG files from cv2's images without Python's zlib: rows filtered by png_filter, deflated by
// zlib_compress, then the chunks (IHDR, a single IDAT, IEND) with their CRCs. One IDAT is as valid
// as libpng's 8 KB pieces and saves a header per piece.
#include <cstring>
#include <memory>

#include "ops/codecs/codecs.h"

namespace mnn::codecs {
namespace {

constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

void put_be32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

size_t filtered_size(int width, int height, int channels, int depth) {
  return static_cast<size_t>(height) * (1 + static_cast<size_t>(width) * channels * (depth == 16 ? 2 : 1));
}

// Writes length, type and CRC around a body already at p + 8; returns the chunk's total size.
size_t close_chunk(uint8_t* p, const char* type, size_t body) {
  if (body > 0x7FFFFFFFu) throw CodecError("PNG chunk too large (more than 2^31 - 1 bytes)");
  put_be32(p, static_cast<uint32_t>(body));
  std::memcpy(p + 4, type, 4);
  put_be32(p + 8 + body, crc32_update(0, p + 4, body + 4));
  return 12 + body;
}

}  // namespace

size_t png_encode_bound(int width, int height, int channels, int depth) {
  return 8 + 25 + 12 + zlib_bound(filtered_size(width, height, channels, depth)) + 12;
}

size_t png_encode(const uint8_t* pixels, int width, int height, int channels, int depth, int filter_mask,
                  int level, int strategy, uint8_t* out) {
  if (!zlib_native(level, strategy)) throw CodecError("png_encode: level/strategy not handled natively");
  const size_t raw = filtered_size(width, height, channels, depth);
  // The filtered rows live in a per-thread scratch buffer kept between calls: a fresh 6 MB buffer per
  // 1080p frame costs ~1500 page faults (the kernel zeroes every page), about 5% of the encode.
  // Buffers above kKeep are released after use so one huge image does not pin its memory.
  constexpr size_t kKeep = size_t(64) << 20;
  thread_local std::unique_ptr<uint8_t[]> scratch;
  thread_local size_t scratch_size = 0;
  if (scratch_size < raw) {
    scratch.reset();
    scratch_size = 0;
    scratch.reset(new uint8_t[raw]);
    scratch_size = raw;
  }
  struct Release {
    ~Release() {
      if (scratch_size > kKeep) {
        scratch.reset();
        scratch_size = 0;
      }
    }
  } release;
  uint8_t* rows = scratch.get();
  png_filter(pixels, width, height, channels, depth, filter_mask, rows);
  uint8_t* p = out;
  std::memcpy(p, kSignature, 8);
  p += 8;
  put_be32(p + 8, static_cast<uint32_t>(width));
  put_be32(p + 12, static_cast<uint32_t>(height));
  const uint8_t color_type = channels == 1 ? 0 : channels == 3 ? 2 : 6;
  const uint8_t tail[5] = {static_cast<uint8_t>(depth), color_type, 0, 0, 0};  // deflate, adaptive filters, no interlace
  std::memcpy(p + 16, tail, 5);
  p += close_chunk(p, "IHDR", 13);
  p += close_chunk(p, "IDAT", zlib_compress(rows, raw, level, strategy, p + 8));
  p += close_chunk(p, "IEND", 0);
  return static_cast<size_t>(p - out);
}

}  // namespace mnn::codecs
