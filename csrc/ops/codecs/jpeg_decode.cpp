// JPEG decoder: baseline and progressive Huffman, any sampling factors, restart markers.
// The arithmetic follows libjpeg-turbo's defaults (what cv2 decodes with) so that pixels agree with
// cv2: the accurate integer IDCT ("ISLOW", 13-bit constants, two passes), the triangle-filter chroma
// upsampling for 2x1/2x2/1x2 ratios and the 16-bit fixed-point YCbCr->RGB tables.
// Entropy decoding is serial. A baseline file is decoded one MCU row of coefficients at a time, IDCT
// right after; with one thread the upsampling/colour pass follows each MCU row too (a small ring of plane
// rows, all cache-resident), with workers it runs on the thread pool over whole planes at the end.
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>

#include "core/threadpool.h"
#include "ops/codecs/codec_kernels.h"
#include "ops/codecs/codecs.h"

namespace mnn::codecs {
namespace {

// Zigzag position -> natural (row-major) position; extra entries absorb corrupt run lengths.
const int kNatural[64 + 16] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63};

[[noreturn]] void corrupt(const char* what) { throw CodecError(std::string("corrupt JPEG data: ") + what); }

// Huffman lookahead: the next kLookBits bits index a table that resolves every code of up to that
// length (all but the rarest symbols; longer codes take the canonical maxcode walk). 9 bits keeps the
// four tables of a colour image (16 KB) in L1.
constexpr int kLookBits = 9;

// A decoded symbol packed for the entropy loop, with everything one baseline symbol needs precomputed
// (s = the symbol's low nibble, its extra-bit count):
//   bits 0-5   code length + s: what the symbol consumes in a baseline scan
//   bits 8-13  code length
//   bits 16-21 (64 - s) & 63: the shift that brings the s extra bits down
//   bits 24-31 the symbol (AC: run << 4 | s)
//   bits 32-63 1 - 2^s as int32: EXTEND's correction for a leading 0 bit
// Zero: not resolved by the table (no valid entry is zero: the code length is >= 1).
inline uint64_t sym_entry(int len, int sym) {
  const int s = sym & 15;
  return static_cast<uint64_t>(len + s) | static_cast<uint64_t>(len) << 8 |
         static_cast<uint64_t>((64 - s) & 63) << 16 | static_cast<uint64_t>(sym) << 24 |
         static_cast<uint64_t>(static_cast<uint32_t>(1 - (1 << s))) << 32;
}
inline int entry_len(uint64_t e) { return static_cast<int>(e >> 8) & 63; }
inline int entry_sym(uint64_t e) { return static_cast<int>(e >> 24) & 255; }

struct HuffTable {
  bool defined = false;
  uint64_t look[1 << kLookBits];  // sym_entry of the code the next kLookBits bits start with, 0: longer
  int32_t maxcode[18];
  int32_t valoffset[18];
  uint8_t vals[256];

  void build(const uint8_t* counts, const uint8_t* symbols, int nsym) {
    std::memset(look, 0, sizeof look);
    std::memcpy(vals, symbols, nsym);
    int code = 0, k = 0;
    for (int len = 1; len <= 16; ++len) {
      valoffset[len] = k - code;
      if (counts[len - 1]) {
        for (int i = 0; i < counts[len - 1]; ++i, ++k, ++code) {
          if (code >= (1 << len)) corrupt("bad Huffman table");  // more codes than this length holds
          if (len <= kLookBits) {
            const int shift = kLookBits - len;
            const uint64_t e = sym_entry(len, symbols[k]);
            for (int j = 0; j < (1 << shift); ++j) look[(code << shift) | j] = e;
          }
        }
        maxcode[len] = code - 1;
      } else {
        maxcode[len] = -1;
      }
      if (code > (1 << len)) corrupt("bad Huffman table");
      code <<= 1;
    }
    maxcode[17] = 0x7fffffff;
    defined = true;
  }

  // Codes longer than kLookBits: the canonical walk of T.81 F.2.2.3 on the top 16 bits of the buffer.
  uint64_t slow_entry(uint64_t buf) const {
    const uint32_t code16 = static_cast<uint32_t>(buf >> 48);
    for (int len = kLookBits + 1; len <= 16; ++len) {
      const int32_t code = static_cast<int32_t>(code16 >> (16 - len));
      if (code <= maxcode[len]) return sym_entry(len, vals[(valoffset[len] + code) & 0xFF]);
    }
    return sym_entry(16, 0);  // invalid code: libjpeg warns and substitutes symbol 0
  }
};

// MSB-first bit reader over entropy-coded data: skips stuffed zero bytes and stops at a marker,
// after which it feeds zeros (libjpeg does the same and warns; a truncated file still decodes).
struct BitReader {
  const uint8_t* p;
  const uint8_t* end;
  uint64_t buf = 0;  // the next nbits bits MSB-first; below them zeros or the bits that follow
  int nbits = 0;
  bool at_marker = false;
  const uint8_t* ff = nullptr;  // no 0xFF byte in [p, ff): while 8 bytes fit there, every byte is data

  BitReader(const uint8_t* begin, const uint8_t* stop) : p(begin), end(stop), ff(begin) {}

  // Branch-free refill to 56..63 bits from 8 bytes that hold no 0xFF (no stuffing, no marker). The
  // whole word goes in; only the whole bytes that fit are counted, the rest of the word are the bits
  // that follow (a later refill ORs the same bits there again).
  static inline void refill_word(const uint8_t*& p, uint64_t& buf, int& nbits) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    buf |= __builtin_bswap64(w) >> nbits;
    p += (63 - nbits) >> 3;
    nbits |= 56;
  }

  void fill() {
    if (ff - p >= 8) {
      refill_word(p, buf, nbits);
      return;
    }
    while (nbits <= 55) {
      uint64_t byte = 0;
      if (!at_marker && p < end) {
        byte = *p;
        if (byte == 0xFF) {
          const uint8_t* q = p + 1;
          while (q < end && *q == 0xFF) ++q;  // fill bytes
          if (q < end && *q == 0) {
            p = q + 1;
          } else {
            at_marker = true;
            p = q < end ? q - 1 : end;
            byte = 0;
          }
        } else {
          ++p;
        }
      }
      buf |= byte << (56 - nbits);
      nbits += 8;
    }
    if (at_marker) {
      ff = p;
    } else if (ff < p) {  // passed the last 0xFF seen: find the next
      const void* f = std::memchr(p, 0xFF, static_cast<size_t>(end - p));
      ff = f ? static_cast<const uint8_t*>(f) : end;
    }
  }
  inline uint32_t peek(int n) { return static_cast<uint32_t>(buf >> (64 - n)); }
  inline void skip(int n) { buf <<= n; nbits -= n; }
  inline int get_bits(int n) {
    if (n == 0) return 0;
    if (nbits < n) fill();
    int v = static_cast<int>(buf >> (64 - n));
    skip(n);
    return v;
  }
  inline int get_bit() { return get_bits(1); }
  // The entry of the next symbol; needs nbits >= 16 (ensure() first).
  inline uint64_t entry(const HuffTable& h) const {
    const uint64_t e = h.look[buf >> (64 - kLookBits)];
    return __builtin_expect(e != 0, 1) ? e : h.slow_entry(buf);
  }
  // At least 32 valid bits: one whole baseline symbol (code <= 16 bits, extra bits <= 15).
  inline void ensure() {
    if (nbits < 32) fill();
  }
  inline int decode(const HuffTable& h) {
    ensure();
    const uint64_t e = entry(h);
    skip(entry_len(e));
    return entry_sym(e);
  }
  // After a restart interval: drop the buffered bits and step over an RSTn marker if present.
  void restart() {
    buf = 0;
    nbits = 0;
    if (at_marker && p + 1 < end && p[0] == 0xFF && p[1] >= 0xD0 && p[1] <= 0xD7) {
      p += 2;
      at_marker = false;
    } else if (!at_marker) {
      // Missing marker: resynchronise on the next RSTn, as libjpeg's resync does for corrupt data.
      while (p + 1 < end && !(p[0] == 0xFF && p[1] >= 0xD0 && p[1] <= 0xD7)) ++p;
      if (p + 1 < end) p += 2;
    }
  }
};

inline int extend(int v, int s) { return v < (1 << (s - 1)) ? v - (1 << s) + 1 : v; }

struct Component {
  int id = 0, h = 1, v = 1, tq = 0;
  int td = 0, ta = 0;                // Huffman table selectors of the current scan
  int bw = 0, bh = 0;                // blocks per line / rows, padded to whole MCUs
  int dw = 0, dh = 0;                // downsampled size actually covered by the image
  int pred = 0;                      // DC predictor
  std::vector<int16_t> coefs;        // bw*bh*64, zigzag-free natural order
};

struct Decoder {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  JpegHeader hdr;
  bool frame_seen = false;
  uint16_t qt[4][64];
  bool qt_defined[4] = {false, false, false, false};
  HuffTable dc[4], ac[4];
  std::vector<Component> comps;
  int hmax = 1, vmax = 1, mcux = 0, mcuy = 0;
  int restart_interval = 0;
  int adobe_transform = -1;
  bool jfif = false;
  int eobrun = 0;
  // Row mode (a baseline file whose first scan interleaves every component): coefficients live only for
  // one MCU row and row_done(mcu_row) consumes them, so the IDCT works on cache-resident data.
  bool row_mode = false;
  std::function<void(int)> row_done;

  Decoder(const uint8_t* d, size_t n) : data(d), size(n) {}

  int u8() {
    if (pos >= size) corrupt("unexpected end of data");
    return data[pos++];
  }
  int u16() {
    int hi = u8();
    return (hi << 8) | u8();
  }

  // Next marker code, skipping any garbage before it (libjpeg tolerates it with a warning).
  int next_marker() {
    for (;;) {
      while (pos < size && data[pos] != 0xFF) ++pos;
      while (pos < size && data[pos] == 0xFF) ++pos;
      if (pos >= size) return -1;
      int m = data[pos++];
      if (m != 0) return m;  // 0xFF00 is a stuffed byte inside entropy-coded data, not a marker
    }
  }

  void read_dqt(size_t end) {
    while (pos < end) {
      int pq_tq = u8();
      int tq = pq_tq & 15, prec = pq_tq >> 4;
      if (tq > 3 || prec > 1) corrupt("bad DQT");
      for (int i = 0; i < 64; ++i) qt[tq][kNatural[i]] = static_cast<uint16_t>(prec ? u16() : u8());
      qt_defined[tq] = true;
    }
  }

  void read_dht(size_t end) {
    while (pos < end) {
      int tc_th = u8();
      int tc = tc_th >> 4, th = tc_th & 15;
      if (tc > 1 || th > 3) corrupt("bad DHT");
      uint8_t counts[16];
      int total = 0;
      for (int i = 0; i < 16; ++i) total += counts[i] = static_cast<uint8_t>(u8());
      if (total > 256 || pos + total > end) corrupt("bad DHT");
      (tc ? ac[th] : dc[th]).build(counts, data + pos, total);
      pos += total;
    }
  }

  void read_sof(int marker) {
    if (frame_seen) corrupt("duplicate SOF");
    frame_seen = true;
    hdr.progressive = marker == 0xC2;
    if (u8() != 8) throw CodecError("unsupported JPEG sample precision (only 8-bit)");
    hdr.height = u16();
    hdr.width = u16();
    int n = u8();
    if (hdr.width <= 0 || hdr.height <= 0) corrupt("empty image (DNL streams are not supported)");
    if (n != 1 && n != 3) throw CodecError("unsupported JPEG component count " + std::to_string(n));
    comps.assign(n, Component());
    for (auto& c : comps) {
      c.id = u8();
      int hv = u8();
      c.h = hv >> 4;
      c.v = hv & 15;
      c.tq = u8();
      if (c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3) corrupt("bad SOF");
      hmax = std::max(hmax, c.h);
      vmax = std::max(vmax, c.v);
    }
    if (n == 1) comps[0].h = comps[0].v = hmax = vmax = 1;  // a single component is never subsampled
    mcux = (hdr.width + 8 * hmax - 1) / (8 * hmax);
    mcuy = (hdr.height + 8 * vmax - 1) / (8 * vmax);
    if (static_cast<int64_t>(mcux) * mcuy * hmax * vmax > (int64_t(1) << 26)) corrupt("image too large");
    for (auto& c : comps) {
      if (hmax % c.h || vmax % c.v) throw CodecError("unsupported JPEG sampling factors");
      c.bw = mcux * c.h;
      c.bh = mcuy * c.v;
      c.dw = static_cast<int>((static_cast<int64_t>(hdr.width) * c.h + hmax - 1) / hmax);
      c.dh = static_cast<int>((static_cast<int64_t>(hdr.height) * c.v + vmax - 1) / vmax);
    }
  }

  // Markers up to the first SOS; leaves pos at the SOS segment length.
  void read_header() {
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) corrupt("not a JPEG file");
    pos = 2;
    for (;;) {
      int m = next_marker();
      if (m < 0) corrupt("no image data");
      if (m == 0xD8 || (m >= 0xD0 && m <= 0xD7) || m == 0x01) continue;
      if (m == 0xD9) corrupt("no image data");
      size_t seg = pos;
      int len = u16();
      if (len < 2 || seg + len > size) corrupt("bad segment length");
      size_t end = seg + len;
      switch (m) {
        case 0xC0: case 0xC1: case 0xC2: read_sof(m); break;
        case 0xC3: case 0xC5: case 0xC6: case 0xC7: case 0xC9: case 0xCA: case 0xCB: case 0xCD: case 0xCE:
        case 0xCF:
          throw CodecError("unsupported JPEG process (lossless, hierarchical or arithmetic coding)");
        case 0xC4: read_dht(end); break;
        case 0xDB: read_dqt(end); break;
        case 0xDD: restart_interval = u16(); break;
        case 0xE0:
          if (len >= 7 && std::memcmp(data + pos, "JFIF\0", 5) == 0) jfif = true;
          break;
        case 0xE1:
          if (hdr.exif_offset < 0 && len >= 8 && std::memcmp(data + pos, "Exif\0\0", 6) == 0) {
            hdr.exif_offset = static_cast<int64_t>(pos + 6);
            hdr.exif_size = len - 8;
          }
          break;
        case 0xEE:
          if (len >= 14 && std::memcmp(data + pos, "Adobe", 5) == 0) adobe_transform = data[pos + 11];
          break;
        case 0xDA:
          if (!frame_seen) corrupt("SOS before SOF");
          pos = seg;
          return;
        default: break;
      }
      pos = end;
    }
    hdr.components = static_cast<int>(comps.size());
  }

  // Whether three components hold RGB rather than YCbCr (libjpeg's rule: JFIF means YCbCr, then
  // the Adobe transform flag, then component ids 'R','G','B').
  bool is_rgb() const {
    if (comps.size() != 3 || jfif) return false;
    if (adobe_transform >= 0) return adobe_transform == 0;
    return comps[0].id == 'R' && comps[1].id == 'G' && comps[2].id == 'B';
  }

  // ---- entropy-coded segments ----
  // One baseline block. Each symbol costs one table lookup: the entry gives the code length, the
  // extra-bit count and EXTEND's constants together, so the coefficient comes out with shifts and
  // masks, without a branch on whether the value fits the lookahead. The bit buffer lives in registers
  // for the whole block and is refilled once per two symbols, without a data-dependent branch.
  void decode_block_baseline(BitReader& br, Component& c, int16_t* blk) {
    const uint64_t* dlook = dc[c.td].look;
    const uint64_t* alook = ac[c.ta].look;
    uint64_t buf = br.buf;
    int nbits = br.nbits;
    const uint8_t* p = br.p;
    const uint8_t* ff = br.ff;
    // To 56..63 bits; the checked byte-wise path runs only near a 0xFF byte (then to >= 56 as well).
    auto refill = [&] {
      if (__builtin_expect(ff - p >= 8, 1)) {
        BitReader::refill_word(p, buf, nbits);
      } else if (nbits < 56) {
        br.buf = buf;
        br.nbits = nbits;
        br.p = p;
        br.fill();
        buf = br.buf;
        nbits = br.nbits;
        p = br.p;
        ff = br.ff;
      }
    };
    // The next symbol's entry; needs 16 bits buffered.
    auto next = [&](const uint64_t* look, const HuffTable& h) {
      const uint64_t e = look[buf >> (64 - kLookBits)];
      return __builtin_expect(e != 0, 1) ? e : h.slow_entry(buf);
    };
    refill();
    uint64_t e = next(dlook, dc[c.td]);
    {
      const int s = entry_sym(e);
      if (s > 15) corrupt("bad DC difference");
      const uint64_t b = buf << entry_len(e);
      buf <<= e & 63;
      nbits -= static_cast<int>(e & 63);
      // EXTEND (T.81 F.2.2.1) with 0 for s = 0: a leading 0 bit means negative, v - (2^s - 1).
      const int64_t t = static_cast<int64_t>((b >> (63 - s)) >> 1);
      c.pred += static_cast<int>(t + (static_cast<int64_t>(e) >> 32 & ~(static_cast<int64_t>(b) >> 63)));
    }
    blk[0] = static_cast<int16_t>(c.pred);
    // One AC symbol: false at the end of the block. A symbol takes <= 9 + 15 bits when the table
    // resolves it, so two fit in the 56 bits a refill leaves; longer codes refill again.
    const HuffTable& ha = ac[c.ta];
    int k = 1;
    auto ac_symbol = [&]() {
      if (__builtin_expect(nbits < 32, 0)) refill();
      const uint64_t e = next(alook, ha);
      const uint64_t b = buf << entry_len(e);
      buf <<= e & 63;
      nbits -= static_cast<int>(e & 63);
      if (__builtin_expect((e & 0x0F000000) == 0, 0)) {  // s = 0: EOB, or ZRL (sixteen zeros)
        if (entry_sym(e) != 0xF0) return false;
        k += 16;
        return k < 64;
      }
      const int64_t t = static_cast<int64_t>(b >> ((e >> 16) & 63));
      k += static_cast<int>(e >> 28) & 15;
      blk[kNatural[k]] = static_cast<int16_t>(t + (static_cast<int64_t>(e) >> 32 & ~(static_cast<int64_t>(b) >> 63)));
      return ++k < 64;
    };
    for (;;) {
      refill();
      if (!ac_symbol() || !ac_symbol()) break;
    }
    br.buf = buf;
    br.nbits = nbits;
    br.p = p;
  }

  void decode_dc_first(BitReader& br, Component& c, int16_t* blk, int al) {
    int s = br.decode(dc[c.td]);
    if (s > 15) corrupt("bad DC difference");
    int diff = s ? extend(br.get_bits(s), s) : 0;
    c.pred += diff;
    blk[0] = static_cast<int16_t>(static_cast<unsigned>(c.pred) << al);
  }

  void decode_ac_first(BitReader& br, Component& c, int16_t* blk, int ss, int se, int al) {
    if (eobrun > 0) {
      --eobrun;
      return;
    }
    const HuffTable& ha = ac[c.ta];
    for (int k = ss; k <= se; ++k) {
      int rs = br.decode(ha);
      int r = rs >> 4, s = rs & 15;
      if (s) {
        k += r;
        int v = extend(br.get_bits(s), s);
        blk[kNatural[std::min(k, 63)]] = static_cast<int16_t>(static_cast<unsigned>(v) << al);
      } else if (r == 15) {
        k += 15;
      } else {
        eobrun = (1 << r) - 1;
        if (r) eobrun += br.get_bits(r);
        break;
      }
    }
  }

  void decode_ac_refine(BitReader& br, Component& c, int16_t* blk, int ss, int se, int al) {
    const int p1 = 1 << al, m1 = -1 * (1 << al);
    int k = ss;
    auto refine = [&](int16_t* coef) {
      if (br.get_bit() && (*coef & p1) == 0) *coef = static_cast<int16_t>(*coef + (*coef >= 0 ? p1 : m1));
    };
    if (eobrun == 0) {
      const HuffTable& ha = ac[c.ta];
      for (; k <= se; ++k) {
        int rs = br.decode(ha);
        int r = rs >> 4, s = rs & 15;
        int value = 0;
        if (s) {
          value = br.get_bit() ? p1 : m1;  // s must be 1 in a refinement scan
        } else if (r != 15) {
          eobrun = 1 << r;
          if (r) eobrun += br.get_bits(r);
          break;
        }
        do {
          int16_t* coef = blk + kNatural[k];
          if (*coef != 0) {
            refine(coef);
          } else {
            if (--r < 0) break;
          }
          ++k;
        } while (k <= se);
        if (value && k <= 63) blk[kNatural[k]] = static_cast<int16_t>(value);
      }
    }
    if (eobrun > 0) {
      for (; k <= se; ++k) {
        int16_t* coef = blk + kNatural[k];
        if (*coef != 0) refine(coef);
      }
      --eobrun;
    }
  }

  // One scan: component selectors, spectral selection and successive approximation, then the data.
  void read_scan() {
    size_t seg = pos;
    int len = u16();
    int ns = u8();
    if (ns < 1 || ns > 4 || len != 6 + 2 * ns || seg + len > size) corrupt("bad SOS");
    std::vector<Component*> sc;
    for (int i = 0; i < ns; ++i) {
      int id = u8(), t = u8();
      Component* found = nullptr;
      for (auto& c : comps)
        if (c.id == id) found = &c;
      if (!found) corrupt("SOS names an unknown component");
      if ((t >> 4) > 3 || (t & 15) > 3) corrupt("bad Huffman table selector");
      found->td = t >> 4;
      found->ta = t & 15;
      sc.push_back(found);
    }
    int ss = u8(), se = u8(), a = u8();
    int ah = a >> 4, al = a & 15;
    if (!hdr.progressive) {
      ss = 0;
      se = 63;
      ah = al = 0;
    } else if (ss > se || se > 63 || (ss == 0 && se != 0) || (ss > 0 && ns != 1) || al > 13) {
      corrupt("bad progressive scan parameters");
    }
    for (Component* c : sc) {
      bool need_dc = ss == 0 && ah == 0, need_ac = se > 0 && !(hdr.progressive && ah);
      if ((need_dc && !dc[c->td].defined) || (need_ac && !ac[c->ta].defined) ||
          (hdr.progressive && ss > 0 && !ac[c->ta].defined))
        corrupt("scan uses an undefined Huffman table");
      c->pred = 0;
    }
    eobrun = 0;

    BitReader br{data + pos, data + size};
    // by_local: the block row within its MCU row, where row mode keeps the coefficients.
    auto block = [&](Component& c, int bx, int by, int by_local) {
      if (row_mode) by = by_local;
      int16_t* blk = c.coefs.data() + (static_cast<int64_t>(by) * c.bw + bx) * 64;
      if (!hdr.progressive) decode_block_baseline(br, c, blk);
      else if (ss == 0) {
        if (ah == 0) decode_dc_first(br, c, blk, al);
        else if (br.get_bit()) blk[0] = static_cast<int16_t>(blk[0] | (1 << al));
      } else if (ah == 0) {
        decode_ac_first(br, c, blk, ss, se, al);
      } else {
        decode_ac_refine(br, c, blk, ss, se, al);
      }
    };
    auto restart_check = [&](int64_t& todo) {
      if (restart_interval == 0) return;
      if (todo == 0) {
        br.restart();
        for (Component* c : sc) c->pred = 0;
        eobrun = 0;
        todo = restart_interval;
      }
      --todo;
    };
    int64_t todo = restart_interval;
    if (ns == 1) {
      // Non-interleaved: blocks in the component's own raster, only those covering the image.
      Component& c = *sc[0];
      int nbx = (c.dw + 7) / 8, nby = (c.dh + 7) / 8;
      for (int by = 0; by < nby; ++by) {
        for (int bx = 0; bx < nbx; ++bx) {
          restart_check(todo);
          block(c, bx, by, 0);
        }
        if (row_mode) row_done(by);
      }
    } else {
      for (int my = 0; my < mcuy; ++my) {
        for (int mx = 0; mx < mcux; ++mx) {
          restart_check(todo);
          for (Component* c : sc)
            for (int y = 0; y < c->v; ++y)
              for (int x = 0; x < c->h; ++x) block(*c, mx * c->h + x, my * c->v + y, y);
        }
        if (row_mode) row_done(my);
      }
    }
    // Continue after the entropy-coded data: at the marker that stopped the reader.
    pos = static_cast<size_t>(br.p - data);
  }

  void decode_coefficients() {
    for (auto& c : comps) c.coefs.assign(static_cast<size_t>(c.bw) * (row_mode ? c.v : c.bh) * 64, 0);
    read_scan();
    // Row mode consumed every component's coefficients already; a baseline file has no further scans.
    const bool single_scan = row_mode;
    row_mode = false;
    {  // further scans: progressive passes, or one scan per component in a non-interleaved baseline file
      for (;;) {
        int m = next_marker();
        // No EOI: the file was cut short. cv2 (OpenCV 5) rejects it rather than show a partial image.
        if (m < 0) corrupt("premature end of data");
        if (m == 0xD9) break;
        if ((m >= 0xD0 && m <= 0xD7) || m == 0x01) continue;
        size_t seg = pos;
        int len = u16();
        if (len < 2 || seg + len > size) corrupt("premature end of data");
        if (m == 0xDA) {
          if (single_scan) corrupt("unexpected second scan in a baseline image");
          pos = seg;
          read_scan();
          continue;
        }
        if (m == 0xC4) read_dht(seg + len);
        else if (m == 0xDB) read_dqt(seg + len);
        else if (m == 0xDD) restart_interval = u16();
        pos = seg + len;
      }
    }
    for (auto& c : comps)
      if (!qt_defined[c.tq]) corrupt("quantization table not defined");
  }
};

// A component's IDCT output: every row of the image, or (ring > 0) a ring of the last `ring` rows.
struct Plane {
  std::unique_ptr<uint8_t[]> data;
  int stride = 0, ring = 0;
  uint8_t* row(int64_t r) const { return data.get() + (ring ? r % ring : r) * stride; }
};

// One output row of a component at full resolution (width W), from its IDCT plane: the plane's own row
// when the component is not subsampled, else out, filled.
// fancy 2x1 / 2x2 / 1x2 follow libjpeg-turbo's triangle filters, edges replicated; other ratios replicate.
const uint8_t* upsample_row(const CodecKernels& K, const Component& c, const Plane& pl, int hmax, int vmax, int y,
                            int W, uint8_t* out) {
  int hr = hmax / c.h, vr = vmax / c.v;
  if (hr == 1 && vr == 1) return pl.row(y);
  const int dw = c.dw;
  // out holds at least 2*dw + 16 bytes, so the 2x kernels may write past W.
  if (hr == 2 && vr == 2 && dw > 2) {
    int iy = y >> 1;
    int ny = (y & 1) ? std::min(iy + 1, c.dh - 1) : std::max(iy - 1, 0);
    K.fancy_h2v2(pl.row(iy), pl.row(ny), dw, out);
    return out;
  }
  if (hr == 2 && vr == 1 && dw > 2) {
    K.fancy_h2v1(pl.row(y), dw, out);
    return out;
  }
  if (hr == 1 && vr == 2) {
    int iy = y >> 1;
    bool below = y & 1;
    int ny = below ? std::min(iy + 1, c.dh - 1) : std::max(iy - 1, 0);
    const uint8_t* r0 = pl.row(iy);
    const uint8_t* r1 = pl.row(ny);
    int bias = below ? 2 : 1;
    for (int x = 0; x < W; ++x) out[x] = static_cast<uint8_t>((r0[x] * 3 + r1[x] + bias) >> 2);
    return out;
  }
  const uint8_t* r0 = pl.row(y / vr);
  for (int x = 0; x < W; ++x) out[x] = r0[x / hr];
  return out;
}

}  // namespace

JpegHeader jpeg_read_header(const uint8_t* data, size_t size) {
  Decoder d(data, size);
  d.read_header();
  d.hdr.components = static_cast<int>(d.comps.size());
  return d.hdr;
}

void jpeg_decode(const uint8_t* data, size_t size, uint8_t* out, int out_channels) {
  Decoder d(data, size);
  d.read_header();
  const int W = d.hdr.width, H = d.hdr.height;
  const int nc = static_cast<int>(d.comps.size());
  const CodecKernels& K = codec_kernels();

  std::vector<Plane> planes(nc);
  // IDCT of block rows [r0, r1) of component ci; `local` addresses a one-MCU-row coefficient buffer.
  auto idct_rows = [&](int ci, int64_t r0, int64_t r1, bool local) {
    Component& c = d.comps[ci];
    if (!d.qt_defined[c.tq]) corrupt("quantization table not defined");
    const int stride = c.bw * 8;
    const int nby = (c.dh + 7) / 8, nbx = (c.dw + 7) / 8;
    const uint16_t* q = d.qt[c.tq];
    const Plane& pl = planes[ci];
    for (int64_t by = r0; by < std::min<int64_t>(r1, nby); ++by) {
      const int16_t* row = c.coefs.data() + (local ? by - r0 : by) * c.bw * 64;
      K.idct_blocks(row, nbx, q, pl.row(by * 8), stride);
    }
  };
  // Output rows [y0, y1) from the planes: upsampling and colour conversion. scratch holds 3 * rw bytes.
  const bool rgb = d.is_rgb();
  const size_t rw = static_cast<size_t>(W) + 32;  // >= 2*dw + 16 for every component
  auto emit_rows = [&](int64_t y0, int64_t y1, uint8_t* scratch) {
    for (int64_t y = y0; y < y1; ++y) {
      uint8_t* o = out + y * W * out_channels;
      if (nc == 1) {
        const uint8_t* src = planes[0].row(y);
        if (out_channels == 1) std::memcpy(o, src, W);
        else
          for (int x = 0; x < W; ++x) o[3 * x] = o[3 * x + 1] = o[3 * x + 2] = src[x];
        continue;
      }
      if (out_channels == 1 && !rgb) {
        std::memcpy(o,
                    upsample_row(K, d.comps[0], planes[0], d.hmax, d.vmax, static_cast<int>(y), W, scratch),
                    W);
        continue;
      }
      const uint8_t* cp[3];
      for (int ci = 0; ci < 3; ++ci)
        cp[ci] = upsample_row(K, d.comps[ci], planes[ci], d.hmax, d.vmax, static_cast<int>(y), W, scratch + ci * rw);
      const uint8_t *c0 = cp[0], *c1 = cp[1], *c2 = cp[2];
      if (rgb) {
        if (out_channels == 1) {
          // libjpeg's RGB->gray: the same weights as its encoder's Y.
          for (int x = 0; x < W; ++x)
            o[x] = static_cast<uint8_t>((19595 * c0[x] + 38470 * c1[x] + 7471 * c2[x] + 32768) >> 16);
        } else {
          for (int x = 0; x < W; ++x) {
            o[3 * x] = c2[x];
            o[3 * x + 1] = c1[x];
            o[3 * x + 2] = c0[x];
          }
        }
        continue;
      }
      K.ycc_to_bgr(c0, c1, c2, o, W);
    }
  };
  // pos is at the first SOS: row mode when it is a baseline scan over every component.
  const bool row_mode = !d.hdr.progressive && d.pos + 2 < size && d.data[d.pos + 2] == nc;
  // Single-threaded row mode also emits the output rows an MCU row completes right away, while its
  // planes' rows are still in cache. Vertical fancy upsampling reads one plane row ahead, so rows lag
  // by vmax until the last MCU row. With workers, the rows are converted in parallel at the end.
  const bool fused = row_mode && core::get_num_threads() <= 1;
  // One plane per needed component, padded to whole MCUs. Every byte that is read is written by the
  // IDCT first, so no zero fill. The grayscale output of a YCbCr image needs only the luma plane.
  // Fused, a ring of three MCU rows is enough (rows emitted after MCU row m read MCU rows m-1 and m)
  // and stays in cache, where full planes would be megabytes of freshly faulted memory.
  for (int ci = 0; ci < nc; ++ci) {
    if (out_channels == 1 && ci > 0 && !d.is_rgb()) break;
    const Component& c = d.comps[ci];
    Plane& pl = planes[ci];
    pl.stride = c.bw * 8;
    pl.ring = fused ? 3 * 8 * c.v : 0;
    pl.data.reset(new uint8_t[static_cast<size_t>(pl.stride) * (fused ? pl.ring : c.bh * 8)]);
  }
  std::vector<uint8_t> scratch(fused ? 3 * rw : 0);
  int64_t emitted = 0;
  if (row_mode) {
    d.row_mode = true;
    d.row_done = [&](int mcu_row) {
      for (int ci = 0; ci < nc; ++ci) {
        if (!planes[ci].data) continue;
        Component& c = d.comps[ci];
        idct_rows(ci, static_cast<int64_t>(mcu_row) * c.v, static_cast<int64_t>(mcu_row + 1) * c.v, true);
      }
      for (auto& c : d.comps) std::fill(c.coefs.begin(), c.coefs.end(), 0);
      if (fused) {
        const int64_t ready = mcu_row + 1 >= d.mcuy
                                  ? H
                                  : std::min<int64_t>(H, static_cast<int64_t>(mcu_row + 1) * 8 * d.vmax -
                                                             (d.vmax > 1 ? d.vmax : 0));
        if (ready > emitted) emit_rows(emitted, ready, scratch.data());
        emitted = std::max(emitted, ready);
      }
    };
  }
  d.decode_coefficients();
  if (!row_mode) {
    for (int ci = 0; ci < nc; ++ci) {
      if (!planes[ci].data) continue;
      const int nby = (d.comps[ci].dh + 7) / 8;
      core::parallel_for(nby, 4, [&](int64_t b0, int64_t b1) { idct_rows(ci, b0, b1, false); });
    }
  }
  for (auto& c : d.comps) std::vector<int16_t>().swap(c.coefs);
  if (emitted < H) {
    if (fused) corrupt("missing MCU rows");  // cannot happen: every MCU row of the scan reports
    core::parallel_for(H - emitted, 16, [&](int64_t y0, int64_t y1) {
      std::vector<uint8_t> rows(3 * rw);
      emit_rows(emitted + y0, emitted + y1, rows.data());
    });
  }
}

}  // namespace mnn::codecs
