// Baseline JPEG encoder: JFIF, the example tables of the standard's Annex K scaled by quality the way
// libjpeg does (so a quality means what it means to cv2), libjpeg's fixed-point RGB->YCbCr, box
// downsampling with libjpeg's alternating rounding bias, the accurate integer forward DCT.
// One MCU row at a time goes from pixels to entropy-coded bits while it is in cache: colour conversion,
// edge padding and downsampling into row buffers, then the per-ISA FDCT kernel, which also hands the
// Huffman coder each coefficient's appended bits and size category in zigzag order with a nonzero
// mask, so the coder's inner loop is a bit scan, one table load and one put per coefficient.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "core/threadpool.h"
#include "ops/codecs/jpeg_encode_kernels.h"
#include "ops/codecs/codecs.h"

namespace mnn::codecs {
namespace {

const int kZigzag[64] = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
                         41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
                         30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

// Annex K.1 (natural order).
const uint8_t kLumaQ[64] = {16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
                            14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
                            18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
                            49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};
const uint8_t kChromaQ[64] = {17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99,
                              99, 99, 47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
                              99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99};

// Annex K.3 Huffman tables: code counts per length 1..16, then symbols.
const uint8_t kDcLumaBits[16] = {0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0};
const uint8_t kDcChromaBits[16] = {0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0};
const uint8_t kDcVals[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
const uint8_t kAcLumaBits[16] = {0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d};
const uint8_t kAcLumaVals[162] = {
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71,
    0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72,
    0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37,
    0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
    0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83,
    0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3,
    0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
    0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
    0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa};
const uint8_t kAcChromaBits[16] = {0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77};
const uint8_t kAcChromaVals[162] = {
    0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22,
    0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1,
    0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36,
    0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
    0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a,
    0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a,
    0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba,
    0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
    0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa};

void put_marker(std::vector<uint8_t>& o, int m, int len) {
  o.push_back(0xFF);
  o.push_back(static_cast<uint8_t>(m));
  o.push_back(static_cast<uint8_t>(len >> 8));
  o.push_back(static_cast<uint8_t>(len & 255));
}

// Code and length per symbol of one Annex K table.
struct HuffCodes {
  // For symbol s (DC: a size; AC: run << 4 | size, the size being s & 15) the code already shifted
  // past the s & 15 value bits that follow it, with the total length in the high word: one load and
  // one OR per coefficient.
  uint64_t e[256];
  HuffCodes(const uint8_t* bits, const uint8_t* vals) {
    std::memset(e, 0, sizeof e);
    int c = 0, k = 0;
    for (int l = 1; l <= 16; ++l) {
      for (int i = 0; i < bits[l - 1]; ++i, ++k, ++c) {
        const int sym = vals[k], sz = sym & 15;
        e[sym] = static_cast<uint64_t>(c) << sz | static_cast<uint64_t>(l + sz) << 32;
      }
      c <<= 1;
    }
  }
};

// MSB-first bits with JPEG's byte stuffing, eight bytes at a time. acc's low (64 - free) bits are
// pending; bits above them are already written (or zero) and shift out before the next word is cut.
// The caller guarantees room (kMaxBlockBytes per block) at p.
class BitSink {
 public:
  uint8_t* p;
  explicit BitSink(uint8_t* out) : p(out) {}
  // bits < 2^len, len <= 32
  inline void put(uint64_t bits, int len) {
    if (len < free_) {
      acc_ = (acc_ << len) | bits;
      free_ -= len;
      return;
    }
    const int over = len - free_;  // 0..31; free_ is 1..31 here
    emit8((acc_ << free_) | (bits >> over));
    acc_ = bits;
    free_ = 64 - over;
  }
  // Pads the last byte with ones, as libjpeg does, and writes what is pending.
  void flush() {
    const int pending = 64 - free_;
    if (pending % 8) put((1u << (8 - pending % 8)) - 1, 8 - pending % 8);
    for (int n = 64 - free_; n > 0; n -= 8) byte(static_cast<uint8_t>(acc_ >> (n - 8)));
    free_ = 64;
  }

 private:
  uint64_t acc_ = 0;
  int free_ = 64;
  inline void byte(uint8_t b) {
    *p++ = b;
    if (b == 0xFF) *p++ = 0;
  }
  inline void emit8(uint64_t w) {
    // A 0xFF byte needs a stuffed zero after it: rare outside noise, so test all eight at once.
    if (((~w - 0x0101010101010101ull) & w & 0x8080808080808080ull) == 0) {
      const uint64_t be = __builtin_bswap64(w);
      std::memcpy(p, &be, 8);
      p += 8;
    } else {
      for (int k = 56; k >= 0; k -= 8) byte(static_cast<uint8_t>(w >> k));
    }
  }
};

// Worst case of one block: DC 11 + 11 bits, 63 AC of at most 16 + 10 bits, all doubled by stuffing.
constexpr size_t kMaxBlockBytes = 512;

struct Tables {
  HuffCodes dc[2] = {HuffCodes(kDcLumaBits, kDcVals), HuffCodes(kDcChromaBits, kDcVals)};
  HuffCodes ac[2] = {HuffCodes(kAcLumaBits, kAcLumaVals), HuffCodes(kAcChromaBits, kAcChromaVals)};
};

// c and nb as fdct_quant writes them (zigzag order): the DC, then per AC coefficient its appended bits
// and their count.
inline void encode_block(BitSink& bs, const int16_t* c, const uint8_t* nb, uint64_t nonzero, int& pred,
                         const HuffCodes& hd, const HuffCodes& ha) {
  const int diff = c[0] - pred;
  pred = c[0];
  const unsigned ad = static_cast<unsigned>(diff < 0 ? -diff : diff);
  const int s = ad ? 32 - __builtin_clz(ad) : 0;
  const uint32_t dbits = static_cast<uint32_t>(diff + (diff >> 31)) & ((1u << s) - 1);  // v - 1 if negative
  const uint64_t hdc = hd.e[s];
  bs.put(static_cast<uint32_t>(hdc) | dbits, static_cast<int>(hdc >> 32));
  uint64_t nz = nonzero & ~uint64_t(1);
  int last = 0;
  while (nz) {
    const int k = __builtin_ctzll(nz);
    nz &= nz - 1;
    int run = k - last - 1;
    last = k;
    for (; run > 15; run -= 16) bs.put(static_cast<uint32_t>(ha.e[0xF0]), static_cast<int>(ha.e[0xF0] >> 32));
    const uint64_t h = ha.e[(run << 4) | nb[k]];
    bs.put(static_cast<uint32_t>(h) | static_cast<uint16_t>(c[k]), static_cast<int>(h >> 32));
  }
  if (last != 63) bs.put(static_cast<uint32_t>(ha.e[0]), static_cast<int>(ha.e[0] >> 32));
}

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};

}  // namespace

std::vector<uint8_t> jpeg_encode(const uint8_t* pixels, int width, int height, int channels, int quality,
                                 int subsampling) {
  if (width <= 0 || height <= 0 || width > 65535 || height > 65535)
    throw CodecError("JPEG image dimensions must be in [1, 65535]");
  quality = std::clamp(quality, 1, 100);
  const int scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
  uint16_t q[2][64];
  for (int i = 0; i < 64; ++i) {
    q[0][i] = static_cast<uint16_t>(std::clamp((kLumaQ[i] * scale + 50) / 100, 1, 255));
    q[1][i] = static_cast<uint16_t>(std::clamp((kChromaQ[i] * scale + 50) / 100, 1, 255));
  }
  const int nc = channels == 1 ? 1 : 3;
  const int hs = nc == 1 || subsampling == 2 ? 1 : 2;        // luma's horizontal factor
  const int vs = nc == 1 || subsampling != 0 ? 1 : 2;        // luma's vertical factor
  const int mcuw = 8 * hs, mcuh = 8 * vs;
  const int mx = (width + mcuw - 1) / mcuw, my = (height + mcuh - 1) / mcuh;
  const int pw = mx * mcuw;

  std::vector<uint8_t> o;
  o.reserve(1024);
  o.push_back(0xFF);
  o.push_back(0xD8);
  static const uint8_t jfif[] = {'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0};
  put_marker(o, 0xE0, 16);
  o.insert(o.end(), jfif, jfif + 14);
  for (int t = 0; t < (nc == 1 ? 1 : 2); ++t) {
    put_marker(o, 0xDB, 67);
    o.push_back(static_cast<uint8_t>(t));
    for (int i = 0; i < 64; ++i) o.push_back(static_cast<uint8_t>(q[t][kZigzag[i]]));
  }
  put_marker(o, 0xC0, 8 + 3 * nc);
  o.push_back(8);
  o.push_back(static_cast<uint8_t>(height >> 8));
  o.push_back(static_cast<uint8_t>(height & 255));
  o.push_back(static_cast<uint8_t>(width >> 8));
  o.push_back(static_cast<uint8_t>(width & 255));
  o.push_back(static_cast<uint8_t>(nc));
  for (int ci = 0; ci < nc; ++ci) {
    o.push_back(static_cast<uint8_t>(ci + 1));
    o.push_back(static_cast<uint8_t>(ci == 0 ? (hs << 4) | vs : 0x11));
    o.push_back(static_cast<uint8_t>(ci ? 1 : 0));
  }
  auto put_dht = [&](int cls, int id, const uint8_t* bits, const uint8_t* vals) {
    int n = 0;
    for (int i = 0; i < 16; ++i) n += bits[i];
    put_marker(o, 0xC4, 19 + n);
    o.push_back(static_cast<uint8_t>((cls << 4) | id));
    o.insert(o.end(), bits, bits + 16);
    o.insert(o.end(), vals, vals + n);
  };
  put_dht(0, 0, kDcLumaBits, kDcVals);
  put_dht(1, 0, kAcLumaBits, kAcLumaVals);
  if (nc == 3) {
    put_dht(0, 1, kDcChromaBits, kDcVals);
    put_dht(1, 1, kAcChromaBits, kAcChromaVals);
  }
  put_marker(o, 0xDA, 6 + 2 * nc);
  o.push_back(static_cast<uint8_t>(nc));
  for (int ci = 0; ci < nc; ++ci) {
    o.push_back(static_cast<uint8_t>(ci + 1));
    o.push_back(static_cast<uint8_t>(ci ? 0x11 : 0x00));
  }
  o.push_back(0);
  o.push_back(63);
  o.push_back(0);

  // One MCU row at a time, colour conversion to entropy coding, so the rows and their coefficients stay in
  // cache. Each row's quantized blocks: luma block rows j < vs of ybw blocks, then Cb's and Cr's mx.
  const JpegEncodeKernels& K = jpeg_encode_kernels();
  JpegQuant qt[2];
  jpeg_quant_prepare(q[0], qt[0]);
  jpeg_quant_prepare(q[1], qt[1]);
  const int ybw = mx * hs, cw = pw / hs;
  const size_t row_blocks = static_cast<size_t>(ybw) * vs + (nc == 3 ? 2 * static_cast<size_t>(mx) : 0);
  // Scratch of one worker: full-resolution rows of each component, then the downsampled chroma rows.
  const size_t plane_rows = static_cast<size_t>(mcuh) * pw;
  const size_t scratch_bytes = plane_rows * nc + (nc == 3 ? 2 * static_cast<size_t>(mcuh / vs) * cw : 0);
  auto compute_row = [&](int mrow, uint8_t* scratch, int16_t* coefs, uint8_t* nbits, uint64_t* nonzero) {
    uint8_t* full[3] = {scratch, scratch + plane_rows, scratch + 2 * plane_rows};
    for (int r = 0; r < mcuh; ++r) {
      // libjpeg pads to whole MCUs by replicating the last column and the last row.
      const int y = std::min(mrow * mcuh + r, height - 1);
      const uint8_t* src = pixels + static_cast<size_t>(y) * width * channels;
      uint8_t* row[3] = {full[0] + static_cast<size_t>(r) * pw, full[1] + static_cast<size_t>(r) * pw,
                         full[2] + static_cast<size_t>(r) * pw};
      if (nc == 1) std::memcpy(row[0], src, width);
      else K.bgr_to_ycc(src, channels, width, row[0], row[1], row[2]);
      for (int ci = 0; ci < nc; ++ci) std::memset(row[ci] + width, row[ci][width - 1], pw - width);
    }
    K.fdct_quant(full[0], pw, ybw, qt[0], coefs, nbits, nonzero);
    if (vs == 2) K.fdct_quant(full[0] + 8 * pw, pw, ybw, qt[0], coefs + 64 * ybw, nbits + 64 * ybw, nonzero + ybw);
    if (nc == 1) return;
    for (int ci = 1; ci < 3; ++ci) {
      const uint8_t* plane = full[ci];
      int stride = pw;
      if (hs == 2) {  // box average with libjpeg's alternating bias so errors don't drift
        uint8_t* down = scratch + 3 * plane_rows + static_cast<size_t>(ci - 1) * (mcuh / vs) * cw;
        for (int r = 0; r < 8; ++r) {
          const uint8_t* r0 = full[ci] + static_cast<size_t>(r * vs) * pw;
          if (vs == 2) K.down_h2v2(r0, r0 + pw, cw, down + r * cw);
          else K.down_h2v1(r0, cw, down + r * cw);
        }
        plane = down;
        stride = cw;
      }
      const size_t b0 = static_cast<size_t>(ybw) * vs + static_cast<size_t>(ci - 1) * mx;
      K.fdct_quant(plane, stride, mx, qt[1], coefs + 64 * b0, nbits + 64 * b0, nonzero + b0);
    }
  };

  static const Tables tab;
  // The entropy-coded data goes to a per-thread buffer kept from call to call: a fresh one per image
  // costs more in page faults than the coding of a small image (buffers past 64 MB are given back).
  thread_local std::unique_ptr<uint8_t, FreeDeleter> buf;
  thread_local size_t cap = 0;
  // A first guess (a quarter byte a sample, at most 8 MB); encode_row grows it on demand.
  const size_t want =
      std::max<size_t>(std::min<size_t>(static_cast<size_t>(width) * height * nc / 4, size_t(8) << 20),
                       row_blocks * kMaxBlockBytes) + 64;
  auto grow = [&](size_t need) {
    const size_t next = std::max(need, cap * 2);
    uint8_t* grown = static_cast<uint8_t*>(std::realloc(buf.get(), next));
    if (!grown) throw std::bad_alloc();
    buf.release();
    buf.reset(grown);
    cap = next;
  };
  if (cap < want) grow(want);
  struct GiveBack {  // an outsized buffer is not kept
    std::unique_ptr<uint8_t, FreeDeleter>& b;
    size_t& c;
    ~GiveBack() {
      if (c > (size_t(64) << 20)) {
        b.reset();
        c = 0;
      }
    }
  } give_back{buf, cap};
  BitSink bs(buf.get());
  int pred[3] = {0, 0, 0};
  auto encode_row = [&](const int16_t* coefs, const uint8_t* nbits, const uint64_t* nonzero) {
    const size_t used = static_cast<size_t>(bs.p - buf.get());
    if (used + row_blocks * kMaxBlockBytes + 64 > cap) {
      grow(used + row_blocks * kMaxBlockBytes + 64);
      bs.p = buf.get() + used;
    }
    // A local copy: its state can live in registers (stores through bs.p could alias the shared one).
    BitSink s = bs;
    int pr[3] = {pred[0], pred[1], pred[2]};
    for (int x = 0; x < mx; ++x) {
      for (int j = 0; j < vs; ++j)
        for (int i = 0; i < hs; ++i) {
          const size_t b = static_cast<size_t>(j) * ybw + x * hs + i;
          encode_block(s, coefs + 64 * b, nbits + 64 * b, nonzero[b], pr[0], tab.dc[0], tab.ac[0]);
        }
      for (int ci = 1; ci < nc; ++ci) {
        const size_t b = static_cast<size_t>(ybw) * vs + static_cast<size_t>(ci - 1) * mx + x;
        encode_block(s, coefs + 64 * b, nbits + 64 * b, nonzero[b], pr[ci], tab.dc[1], tab.ac[1]);
      }
    }
    bs = s;
    for (int ci = 0; ci < 3; ++ci) pred[ci] = pr[ci];
  };

  const int threads = core::get_num_threads();
  // With workers, batches of MCU rows are transformed in parallel and then entropy coded in order.
  // (at most ~32 MB of coefficients in flight, for very wide images)
  const size_t row_bytes = row_blocks * (64 * sizeof(int16_t) + 64 + sizeof(uint64_t));
  const int batch = threads > 1 ? static_cast<int>(std::clamp<size_t>((size_t(32) << 20) / row_bytes, 1,
                                                                      static_cast<size_t>(std::min(my, 4 * threads))))
                                : 1;
  std::vector<int16_t> coefs(row_blocks * 64 * batch);
  std::vector<uint8_t> nbits(row_blocks * 64 * batch);
  std::vector<uint64_t> nonzero(row_blocks * batch);
  if (batch == 1) {
    std::vector<uint8_t> scratch(scratch_bytes);
    for (int y = 0; y < my; ++y) {
      compute_row(y, scratch.data(), coefs.data(), nbits.data(), nonzero.data());
      encode_row(coefs.data(), nbits.data(), nonzero.data());
    }
  } else {
    for (int y0 = 0; y0 < my; y0 += batch) {
      const int n = std::min(batch, my - y0);
      core::parallel_for(n, 1, [&](int64_t r0, int64_t r1) {
        std::vector<uint8_t> scratch(scratch_bytes);
        for (int64_t r = r0; r < r1; ++r)
          compute_row(y0 + static_cast<int>(r), scratch.data(), coefs.data() + r * row_blocks * 64,
                      nbits.data() + r * row_blocks * 64, nonzero.data() + r * row_blocks);
      });
      for (int r = 0; r < n; ++r)
        encode_row(coefs.data() + r * row_blocks * 64, nbits.data() + r * row_blocks * 64,
                   nonzero.data() + r * row_blocks);
    }
  }
  bs.flush();
  o.reserve(o.size() + static_cast<size_t>(bs.p - buf.get()) + 2);  // exact: no regrowth for the EOI
  o.insert(o.end(), buf.get(), bs.p);
  o.push_back(0xFF);
  o.push_back(0xD9);
  return o;
}

}  // namespace mnn::codecs
