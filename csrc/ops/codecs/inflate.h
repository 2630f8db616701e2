// A zlib (RFC 1950) / deflate (RFC 1951) decoder for PNG's IDAT stream, written for speed on the data
// PNG encoders produce (long runs of literals, short matches): table-driven Huffman decoding that emits
// two literals per lookup where both codes fit the table index, a 64-bit bit buffer refilled without
// branches, and matches copied 8 or 16 bytes at a time. Python's zlib is ~2x slower here, and the
// inflate is most of a PNG decode.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mnn::codecs {

// Inflates the zlib stream in[0, in_size) into out[0, out_size) and returns the number of bytes written
// (fewer than out_size when the stream ends first). Ends like cv2's libpng, which reads the stream to its end:
// - up to the last byte of out, any malformed or truncated data throws CodecError;
// - if the stream holds more data than out_size, the rest is decoded and dropped, and a data error there
//   (or a wrong Adler-32) is ignored, but a stream cut short still throws;
// - otherwise the Adler-32 trailer must be present and match.
// Never reads or writes out of bounds.
size_t zlib_inflate(const uint8_t* in, size_t in_size, uint8_t* out, size_t out_size);

}  // namespace mnn::codecs
