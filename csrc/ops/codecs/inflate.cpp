// zlib/deflate decoder (see inflate.h), written from RFC 1950 and RFC 1951.
//
// Decoding tables: a Huffman code becomes a main table indexed by the next kLitBits (kDistBits) input bits,
// plus subtables for the rare longer codes. Deflate packs codes starting at their most significant bit, so a
// table index is the bit-reversed code. Every slot is one uint32:
//   bits 0-4   bits to consume: the code's length, plus a length/distance symbol's extra bits, or the lengths
//              of both codes of a literal pair
//   bits 5-7   kind (kLit1, kLit2, kMatch, kEob, kSub, kBad)
//   bits 8-15  the literal (kLit1, first of kLit2); the code length, where the extra bits start (kMatch);
//              the subtable's index bits (kSub)
//   bits 16-31 the second literal and, in bits 24-31, the first code's length (kLit2); the base length or
//              distance (kMatch); the subtable's offset (kSub)
// Subtable slots count only the bits past the main index.
#include "ops/codecs/inflate.h"

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ops/codecs/codecs.h"

namespace mnn::codecs {
namespace {

constexpr uint32_t kLit1 = 0u << 5, kLit2 = 1u << 5, kMatch = 2u << 5, kEob = 3u << 5, kSub = 4u << 5,
                   kBad = 5u << 5, kKind = 7u << 5;
constexpr int kLitBits = 11, kDistBits = 8, kPreBits = 7;
// Main table plus room for the subtables of the worst case (every long code its own 2^(15 - bits) subtable).
constexpr int kLitTableSize = (1 << kLitBits) + 288 * (1 << (15 - kLitBits));
constexpr int kDistTableSize = (1 << kDistBits) + 32 * (1 << (15 - kDistBits));
// The fast loop runs while this much output room is left: a refill's worth of literals (8 bytes) plus the
// longest match (258) plus the up-to-15-byte overshoot of the wide match copies.
constexpr ptrdiff_t kOutMargin = 320;
// ... and while this much input is left: two unconditional 8-byte refills per iteration.
constexpr ptrdiff_t kInMargin = 32;

inline uint32_t nbits(uint32_t e) { return e & 31; }
inline bool is_literal(uint32_t e) { return (e & (6u << 5)) == 0; }  // kLit1 or kLit2

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // little-endian hosts only (x86-64, arm64), as elsewhere in the codecs
}
inline void store64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
inline void store16(uint8_t* p, uint32_t v) {
  const uint16_t s = static_cast<uint16_t>(v);
  std::memcpy(p, &s, 2);
}
inline void copy16(uint8_t* dst, const uint8_t* src) {
#if defined(__SSE2__)
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
#else
  const uint64_t a = load64(src), b = load64(src + 8);
  store64(dst, a);
  store64(dst + 8, b);
#endif
}

[[noreturn]] void corrupt(const char* what) { throw CodecError(std::string("corrupt PNG data: ") + what); }
// The input ended before the stream did: fatal even where a data error is not (see zlib_inflate).
struct Truncated : CodecError {
  Truncated() : CodecError("corrupt PNG data: truncated zlib stream") {}
};

// Builds the decode table of the code with lengths lens[0, n) (0: symbol unused); info[s] is symbol s's slot
// without its lengths (for kMatch, its extra-bit count in bits 0-4). Returns false for an over-subscribed code,
// or an incomplete one unless allow_single and it is one code of length 1 (zlib's rule); a code with no symbols
// gives a table of kBad.
bool build_table(const uint8_t* lens, int n, const uint32_t* info, int tb, bool allow_single, uint32_t* table,
                 int cap) {
  int count[16] = {};
  for (int s = 0; s < n; ++s) ++count[lens[s]];
  count[0] = 0;
  int left = 1, maxlen = 0;
  for (int l = 1; l <= 15; ++l) {
    left = (left << 1) - count[l];
    if (left < 0) return false;
    if (count[l]) maxlen = l;
  }
  const int main_size = 1 << tb;
  if (left > 0) {
    if (maxlen > 1 || (maxlen == 1 && !allow_single)) return false;
    std::fill(table, table + main_size, kBad);
  }
  int pos[17];
  pos[1] = 0;
  for (int l = 1; l <= 15; ++l) pos[l + 1] = pos[l] + count[l];
  const int total = pos[16];
  uint16_t sorted[288];
  for (int s = 0; s < n; ++s)
    if (lens[s]) sorted[pos[lens[s]]++] = static_cast<uint16_t>(s);
  // Canonical codes in (length, symbol) order, stored bit-reversed (the table index).
  uint16_t rev[288];
  uint32_t code = 0;
  int prev_len = 0;
  for (int k = 0; k < total; ++k) {
    const int l = lens[sorted[k]];
    if (k) code = (code + 1) << (l - prev_len);
    prev_len = l;
    uint32_t r = 0;
    for (int b = 0; b < l; ++b) r |= ((code >> b) & 1u) << (l - 1 - b);
    rev[k] = static_cast<uint16_t>(r);
  }
  auto slot = [&](uint32_t inf, int len) -> uint32_t {
    if ((inf & kKind) == kMatch)
      return (inf & 0xFFFF0000u) | kMatch | (static_cast<uint32_t>(len) << 8) | (len + nbits(inf));
    return inf | static_cast<uint32_t>(len);
  };
  // Longer codes: one subtable per main-index prefix, wide enough for the longest code sharing that prefix
  // (codes with a prefix in common are contiguous in canonical order, the longest last).
  uint8_t sub_bits[1 << kLitBits];
  uint16_t sub_off[1 << kLitBits];
  if (maxlen > tb) {
    std::fill(sub_bits, sub_bits + main_size, 0);
    std::fill(sub_off, sub_off + main_size, 0);
    for (int k = 0; k < total; ++k) {
      const int l = lens[sorted[k]];
      if (l > tb) sub_bits[rev[k] & (main_size - 1)] = static_cast<uint8_t>(l - tb);
    }
  }
  int next = main_size;
  for (int k = 0; k < total; ++k) {
    const int s = sorted[k], l = lens[s];
    const uint32_t r = rev[k];
    if (l <= tb) {
      const uint32_t e = slot(info[s], l);
      for (uint32_t i = r; i < static_cast<uint32_t>(main_size); i += 1u << l) table[i] = e;
      continue;
    }
    const uint32_t prefix = r & (main_size - 1);
    const int sb = sub_bits[prefix];
    if (sub_off[prefix] == 0) {  // first code with this prefix (real offsets are >= main_size)
      if (next + (1 << sb) > cap) return false;
      sub_off[prefix] = static_cast<uint16_t>(next);
      table[prefix] = kSub | static_cast<uint32_t>(tb) | (static_cast<uint32_t>(sb) << 8) |
                      (static_cast<uint32_t>(next) << 16);
      next += 1 << sb;
    }
    const uint32_t e = slot(info[s], l - tb);
    uint32_t* sub = table + (table[prefix] >> 16);
    for (uint32_t i = r >> tb; i < (1u << sb); i += 1u << (l - tb)) sub[i] = e;
  }
  return true;
}

// Literal pairs: where a literal's code leaves room in the main index for a whole second literal code, the
// slot emits both. Walking down, slot i >> l1 (<= i) is still a single-literal slot when it is read.
void pair_literals(uint32_t* table) {
  for (int i = (1 << kLitBits) - 1; i >= 0; --i) {
    const uint32_t e = table[i];
    if ((e & kKind) != kLit1) continue;
    const uint32_t l1 = nbits(e);
    const uint32_t e2 = table[i >> l1];
    if ((e2 & kKind) != kLit1 || nbits(e2) > kLitBits - l1) continue;
    table[i] = kLit2 | (l1 + nbits(e2)) | (e & 0xFF00u) | ((e2 & 0xFF00u) << 8) | (l1 << 24);
  }
}

struct SymbolInfo {
  uint32_t lit[288], dist[32], pre[19];
  SymbolInfo() {
    for (int s = 0; s < 256; ++s) lit[s] = kLit1 | (static_cast<uint32_t>(s) << 8);
    lit[256] = kEob;
    for (int i = 0; i < 28; ++i) {
      const int extra = i < 8 ? 0 : i / 4 - 1;
      const int base = i < 8 ? 3 + i : ((4 + (i & 3)) << extra) + 3;
      lit[257 + i] = kMatch | static_cast<uint32_t>(extra) | (static_cast<uint32_t>(base) << 16);
    }
    lit[285] = kMatch | (258u << 16);
    lit[286] = lit[287] = kBad;
    for (int s = 0; s < 30; ++s) {
      const int extra = s < 4 ? 0 : s / 2 - 1;
      const int base = s < 4 ? s + 1 : ((2 + (s & 1)) << extra) + 1;
      dist[s] = kMatch | static_cast<uint32_t>(extra) | (static_cast<uint32_t>(base) << 16);
    }
    dist[30] = dist[31] = kBad;
    for (int s = 0; s < 19; ++s) pre[s] = kLit1 | (static_cast<uint32_t>(s) << 8);
  }
};

const SymbolInfo& symbol_info() {
  static const SymbolInfo info;
  return info;
}

// Copies a match of len bytes from dist bytes back; may write up to 15 bytes past op + len (the caller
// guarantees the room).
inline void copy_match_fast(uint8_t* op, size_t dist, size_t len) {
  uint8_t* const end = op + len;
  const uint8_t* src = op - dist;
  if (dist >= 16) {
    do {
      copy16(op, src);
      op += 16;
      src += 16;
    } while (op < end);
  } else if (dist >= 8) {
    do {
      store64(op, load64(src));
      op += 8;
      src += 8;
    } while (op < end);
  } else if (dist == 1) {
    const uint64_t v = src[0] * 0x0101010101010101ull;
    do {
      store64(op, v);
      store64(op + 8, v);
      op += 16;
    } while (op < end);
  } else {
    // The match repeats with period dist, so once 8 bytes are out, a multiple of dist >= 8 is also a valid
    // distance and the copy can go 8 bytes at a time.
    for (int i = 0; i < 8; ++i) op[i] = src[i];
    const size_t period = dist * ((8 + dist - 1) / dist);
    op += 8;
    while (op < end) {
      store64(op, load64(op - period));
      op += 8;
    }
  }
}

// The decoder proper; see zlib_inflate for what `extra` means.
size_t inflate_stream(const uint8_t* in, size_t in_size, uint8_t* out, size_t out_size, bool& extra) {
  if (in_size < 2) throw Truncated();
  if ((in[0] & 15) != 8 || (in[0] >> 4) > 7 || ((in[0] << 8) | in[1]) % 31 != 0) corrupt("incorrect zlib header");
  if (in[1] & 0x20) corrupt("zlib preset dictionary");
  const SymbolInfo& info = symbol_info();
  std::vector<uint32_t> lit_table(kLitTableSize), dist_table(kDistTableSize);
  uint32_t* const lit = lit_table.data();
  uint32_t* const dist = dist_table.data();

  const uint8_t* ip = in + 2;
  const uint8_t* const iend = in + in_size;
  uint8_t* op = out;
  uint8_t* const oend = out + out_size;
  // Bit buffer: the next `left` input bits, first bit lowest. Bits above `left` are zero or already the right
  // future bits (the branch-free refill ORs a byte in twice at the same place). Past the end of the input the
  // slow refill shifts in zero bytes and counts them in `over`: consuming any of them means truncation.
  uint64_t buf = 0;
  uint32_t left = 0;
  size_t over = 0;

  auto refill_slow = [&] {
    while (left <= 56) {
      uint64_t byte = 0;
      if (ip < iend) byte = *ip++;
      else ++over;
      buf |= byte << left;
      left += 8;
    }
  };
  auto check_over = [&] {
    if (over * 8 > left) throw Truncated();
  };
  size_t extra_bytes = 0;  // decoded past out_size (counted only for distance checks)
  auto consume = [&](uint32_t n) {
    buf >>= n;
    left -= n;
  };
  auto getbits = [&](uint32_t n) -> uint32_t {
    if (left < n) refill_slow();
    const uint32_t v = static_cast<uint32_t>(buf & ((uint64_t(1) << n) - 1));
    consume(n);
    check_over();
    return v;
  };

  bool final = false;
  while (!final) {
    final = getbits(1);
    const uint32_t type = getbits(2);
    if (type == 0) {  // stored: byte-aligned LEN, NLEN, then LEN raw bytes
      consume(left & 7);
      const size_t pos = static_cast<size_t>(ip - in) + over - left / 8;  // first byte not yet consumed
      if (pos > in_size) throw Truncated();
      ip = in + pos;
      buf = 0;
      left = 0;
      over = 0;
      if (iend - ip < 4) throw Truncated();
      const size_t len = ip[0] | (ip[1] << 8), nlen = ip[2] | (ip[3] << 8);
      ip += 4;
      if (len != (~nlen & 0xFFFF)) corrupt("invalid stored block lengths");
      if (static_cast<size_t>(iend - ip) < len) throw Truncated();
      const size_t n = std::min(len, static_cast<size_t>(oend - op));
      std::memcpy(op, ip, n);
      op += n;
      ip += len;
      if (n < len) {
        extra = true;
        extra_bytes += len - n;
      }
      continue;
    }
    if (type == 3) corrupt("invalid block type");
    if (type == 1) {  // fixed codes (RFC 1951 3.2.6)
      uint8_t lens[288 + 32];
      std::fill(lens, lens + 144, 8);
      std::fill(lens + 144, lens + 256, 9);
      std::fill(lens + 256, lens + 280, 7);
      std::fill(lens + 280, lens + 288, 8);
      std::fill(lens + 288, lens + 320, 5);
      build_table(lens, 288, info.lit, kLitBits, true, lit, kLitTableSize);
      build_table(lens + 288, 32, info.dist, kDistBits, true, dist, kDistTableSize);
    } else {  // dynamic codes: the code lengths, themselves Huffman coded (RFC 1951 3.2.7)
      const uint32_t hlit = getbits(5) + 257, hdist = getbits(5) + 1, hclen = getbits(4) + 4;
      if (hlit > 286 || hdist > 30) corrupt("too many length or distance symbols");
      static const uint8_t kOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
      uint8_t pre_lens[19] = {};
      for (uint32_t i = 0; i < hclen; ++i) pre_lens[kOrder[i]] = static_cast<uint8_t>(getbits(3));
      uint32_t pre[1 << kPreBits];
      if (!build_table(pre_lens, 19, info.pre, kPreBits, false, pre, 1 << kPreBits)) corrupt("invalid code lengths set");
      uint8_t lens[286 + 30];
      uint32_t i = 0;
      const uint32_t total = hlit + hdist;
      while (i < total) {
        if (left < 16) refill_slow();
        const uint32_t e = pre[buf & ((1u << kPreBits) - 1)];
        if ((e & kKind) == kBad) corrupt("invalid code lengths set");
        consume(nbits(e));
        check_over();
        const uint32_t sym = (e >> 8) & 0xFF;
        if (sym < 16) {
          lens[i++] = static_cast<uint8_t>(sym);
          continue;
        }
        uint32_t rep;
        uint8_t val = 0;
        if (sym == 16) {
          if (i == 0) corrupt("invalid bit length repeat");
          val = lens[i - 1];
          rep = 3 + getbits(2);
        } else if (sym == 17) {
          rep = 3 + getbits(3);
        } else {
          rep = 11 + getbits(7);
        }
        if (i + rep > total) corrupt("invalid bit length repeat");
        std::memset(lens + i, val, rep);
        i += rep;
      }
      if (lens[256] == 0) corrupt("invalid code -- missing end-of-block");
      uint8_t lit_lens[288] = {};
      std::memcpy(lit_lens, lens, hlit);
      if (!build_table(lit_lens, 288, info.lit, kLitBits, true, lit, kLitTableSize))
        corrupt("invalid literal/lengths set");
      if (!build_table(lens + hlit, static_cast<int>(hdist), info.dist, kDistBits, true, dist, kDistTableSize))
        corrupt("invalid distances set");
    }
    pair_literals(lit);

    // Huffman-coded data up to end-of-block.
    constexpr uint32_t lit_mask = (1u << kLitBits) - 1, dist_mask = (1u << kDistBits) - 1;
    for (;;) {
      // Fast loop: no bounds checks inside (the margins cover an iteration); one branch-free refill gives
      // >= 56 bits, enough for four main-table literal slots (4 x 11 bits, leaving 12 for the next lookup)
      // or for one length plus distance (<= 20 + 28 bits).
      while (iend - ip >= kInMargin && oend - op >= kOutMargin) {
        buf |= load64(ip) << left;
        ip += (63 - left) >> 3;
        left |= 56;
        uint32_t e = lit[buf & lit_mask];
        if (is_literal(e)) {
          consume(nbits(e));
          store16(op, e >> 8);
          op += 1 + ((e >> 5) & 1);
          e = lit[buf & lit_mask];
          if (is_literal(e)) {
            consume(nbits(e));
            store16(op, e >> 8);
            op += 1 + ((e >> 5) & 1);
            e = lit[buf & lit_mask];
            if (is_literal(e)) {
              consume(nbits(e));
              store16(op, e >> 8);
              op += 1 + ((e >> 5) & 1);
              e = lit[buf & lit_mask];
              if (is_literal(e)) {
                consume(nbits(e));
                store16(op, e >> 8);
                op += 1 + ((e >> 5) & 1);
                continue;
              }
            }
          }
          buf |= load64(ip) << left;  // e still holds: a refill leaves the low bits alone
          ip += (63 - left) >> 3;
          left |= 56;
        }
        if ((e & kKind) == kSub) {
          consume(kLitBits);
          e = lit[(e >> 16) + (buf & ((1u << ((e >> 8) & 15)) - 1))];
          if ((e & kKind) == kLit1) {
            consume(nbits(e));
            *op++ = static_cast<uint8_t>(e >> 8);
            continue;
          }
        }
        const uint32_t kind = e & kKind;
        if (kind == kMatch) {
          uint64_t saved = buf;
          uint32_t n = nbits(e);
          consume(n);
          const size_t len = (e >> 16) + ((saved & ((uint64_t(1) << n) - 1)) >> ((e >> 8) & 0xFF));
          uint32_t d = dist[buf & dist_mask];
          if ((d & kKind) == kSub) {
            consume(kDistBits);
            d = dist[(d >> 16) + (buf & ((1u << ((d >> 8) & 15)) - 1))];
          }
          if ((d & kKind) != kMatch) corrupt("invalid distance code");
          saved = buf;
          n = nbits(d);
          consume(n);
          const size_t distance = (d >> 16) + ((saved & ((uint64_t(1) << n) - 1)) >> ((d >> 8) & 0xFF));
          if (distance > static_cast<size_t>(op - out)) corrupt("invalid distance too far back");
          copy_match_fast(op, distance, len);
          op += len;
          continue;
        }
        if (kind == kEob) {
          consume(nbits(e));
          goto block_done;
        }
        corrupt("invalid literal/length code");
      }
      // Slow loop, near the end of the input or the output: one symbol at a time, every access checked.
      // Past the end of out, symbols are decoded and dropped.
      refill_slow();
      uint32_t e = lit[buf & lit_mask];
      if ((e & kKind) == kSub) {
        consume(kLitBits);
        e = lit[(e >> 16) + (buf & ((1u << ((e >> 8) & 15)) - 1))];
      }
      const uint32_t kind = e & kKind;
      if (kind == kLit1 || kind == kLit2) {
        consume(kind == kLit2 ? e >> 24 : nbits(e));  // a pair gives only its first literal here
        check_over();
        if (op < oend) {
          *op++ = static_cast<uint8_t>(e >> 8);
        } else {
          extra = true;
          ++extra_bytes;
        }
        continue;
      }
      if (kind == kMatch) {
        const uint64_t saved = buf;
        const uint32_t n = nbits(e);
        consume(n);
        check_over();
        const size_t len = (e >> 16) + ((saved & ((uint64_t(1) << n) - 1)) >> ((e >> 8) & 0xFF));
        refill_slow();
        uint32_t d = dist[buf & dist_mask];
        if ((d & kKind) == kSub) {
          consume(kDistBits);
          d = dist[(d >> 16) + (buf & ((1u << ((d >> 8) & 15)) - 1))];
        }
        if ((d & kKind) != kMatch) corrupt("invalid distance code");
        const uint64_t dsaved = buf;
        const uint32_t dn = nbits(d);
        consume(dn);
        check_over();
        const size_t distance = (d >> 16) + ((dsaved & ((uint64_t(1) << dn) - 1)) >> ((d >> 8) & 0xFF));
        if (distance > static_cast<size_t>(op - out) + extra_bytes) corrupt("invalid distance too far back");
        const size_t m = std::min(len, static_cast<size_t>(oend - op));
        for (size_t k = 0; k < m; ++k) op[k] = op[k - distance];
        op += m;
        if (m < len) {
          extra = true;
          extra_bytes += len - m;
        }
        continue;
      }
      if (kind == kEob) {
        consume(nbits(e));
        check_over();
        break;
      }
      corrupt("invalid literal/length code");
    }
  block_done:;
  }
  // The Adler-32 trailer, big-endian, at the next byte boundary.
  consume(left & 7);
  const size_t pos = static_cast<size_t>(ip - in) + over - left / 8;
  if (pos > in_size || in_size - pos < 4) throw Truncated();
  const uint32_t stored = (uint32_t(in[pos]) << 24) | (uint32_t(in[pos + 1]) << 16) | (uint32_t(in[pos + 2]) << 8) | in[pos + 3];
  if (!extra && adler32_update(1, out, static_cast<size_t>(op - out)) != stored) corrupt("incorrect data check");
  return static_cast<size_t>(op - out);
}

}  // namespace

size_t zlib_inflate(const uint8_t* in, size_t in_size, uint8_t* out, size_t out_size) {
  bool extra = false;
  try {
    return inflate_stream(in, in_size, out, out_size, extra);
  } catch (const Truncated&) {
    throw;
  } catch (const CodecError&) {
    if (extra) return out_size;  // libpng: a data error after the image's bytes is only a warning
    throw;
  }
}

}  // namespace mnn::codecs
