// Huffman code construction and the bit writer for the deflate encoder (deflate_encode.cpp).
// Internal to csrc/ops/codecs.
#pragma once
#include <cstdint>
#include <cstring>

namespace mnn::codecs::deflate {

// Code lengths for freq[0..n) (n <= 288), none longer than max_len. Codes are always complete (the
// Kraft sum is exactly 1): zlib's inflate rejects incomplete code-length codes, so when fewer than two
// symbols occur, dummy symbols get length 1 too. Symbols with freq 0 get length 0 (unless a dummy).
void build_code_lengths(const uint32_t* freq, int n, int max_len, uint8_t* lens);

// Canonical codes (RFC 1951 3.2.2) for lens[0..n), bit-reversed because deflate sends codes MSB first
// into an LSB-first bit stream.
void canonical_codes(const uint8_t* lens, int n, uint16_t* codes);

// LSB-first bit writer over a buffer with at least 8 bytes of slack past any byte it will complete.
// put() may be called while bits() + n <= 64; flush() leaves at most 7 bits pending.
struct BitWriter {
  uint8_t* out;
  uint64_t acc = 0;
  int count = 0;

  explicit BitWriter(uint8_t* dst) : out(dst) {}
  void put(uint64_t value, int n) {
    acc |= value << count;
    count += n;
  }
  void flush() {
    std::memcpy(out, &acc, 8);  // little-endian hosts only (x86, aarch64)
    out += count >> 3;
    acc >>= count & 56;  // count <= 63, so the shift is < 64
    count &= 7;
  }
  // Pads to a byte boundary (stored blocks and the stream's end).
  void align() {
    flush();
    if (count) {
      *out++ = static_cast<uint8_t>(acc);
      acc = 0;
      count = 0;
    }
  }
};

}  // namespace mnn::codecs::deflate
