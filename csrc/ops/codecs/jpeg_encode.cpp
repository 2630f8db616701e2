// Baseline JPEG encoder: JFIF, the example tables of the standard's Annex K scaled by quality the way
// libjpeg does (so a quality means what it means to cv2), libjpeg's fixed-point RGB->YCbCr, box
// downsampling with libjpeg's alternating rounding bias, the accurate integer forward DCT.
#include <algorithm>
#include <cstring>

#include "core/threadpool.h"
#include "ops/codecs/codec_kernels.h"
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

struct HuffCodes {
  uint16_t code[256];
  uint8_t len[256];
  HuffCodes(const uint8_t* bits, const uint8_t* vals) {
    std::memset(len, 0, sizeof len);
    int c = 0, k = 0;
    for (int l = 1; l <= 16; ++l) {
      for (int i = 0; i < bits[l - 1]; ++i, ++k, ++c) {
        code[vals[k]] = static_cast<uint16_t>(c);
        len[vals[k]] = static_cast<uint8_t>(l);
      }
      c <<= 1;
    }
  }
};

// Appends MSB-first bits with JPEG's byte stuffing. The caller reserves room (reserve()) before each
// block, so put() writes through a raw pointer without capacity checks.
struct BitWriter {
  std::vector<uint8_t>& out;
  size_t pos;
  uint64_t acc = 0;  // pending bits, right-aligned
  int n = 0;
  explicit BitWriter(std::vector<uint8_t>& o) : out(o), pos(o.size()) {}
  void reserve(size_t extra) {
    if (pos + extra > out.size()) out.resize(std::max(out.size() * 2, pos + extra));
  }
  inline void put(uint32_t bits, int len) {
    acc = (acc << len) | (bits & ((1u << len) - 1));
    n += len;
    if (n >= 32) {
      uint32_t w = static_cast<uint32_t>(acc >> (n - 32));
      n -= 32;
      uint8_t* d = out.data() + pos;
      // Fast path: no 0xFF byte among the four, so no stuffing.
      if ((w & ((w & 0x7F7F7F7Fu) + 0x01010101u) & 0x80808080u) == 0) {
        d[0] = static_cast<uint8_t>(w >> 24);
        d[1] = static_cast<uint8_t>(w >> 16);
        d[2] = static_cast<uint8_t>(w >> 8);
        d[3] = static_cast<uint8_t>(w);
        pos += 4;
      } else {
        for (int k = 3; k >= 0; --k) {
          uint8_t byte = static_cast<uint8_t>(w >> (8 * k));
          out[pos++] = byte;
          if (byte == 0xFF) out[pos++] = 0;
        }
      }
    }
  }
  void flush() {
    if (n % 8) put(0x7F, 8 - n % 8);  // pad with ones
    reserve(16);
    while (n > 0) {
      uint8_t byte = static_cast<uint8_t>(acc >> (n - 8));
      out[pos++] = byte;
      if (byte == 0xFF) out[pos++] = 0;
      n -= 8;
    }
    out.resize(pos);
  }
};

void put_marker(std::vector<uint8_t>& o, int m, int len) {
  o.push_back(0xFF);
  o.push_back(static_cast<uint8_t>(m));
  o.push_back(static_cast<uint8_t>(len >> 8));
  o.push_back(static_cast<uint8_t>(len & 255));
}

struct Plane {
  int w, h;  // padded to whole blocks of this component
  std::vector<uint8_t> px;
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
  const int pw = mx * mcuw, ph = my * mcuh;

  const CodecKernels& K = codec_kernels();
  // Colour conversion into full-resolution planes padded by edge replication (right edge per row,
  // bottom edge by repeating the last image row), as libjpeg pads to whole MCUs.
  std::vector<Plane> full(nc);
  for (auto& p : full) {
    p.w = pw;
    p.h = ph;
    p.px.resize(static_cast<size_t>(pw) * ph);
  }
  core::parallel_for(ph, 16, [&](int64_t y0, int64_t y1) {
    for (int64_t y = y0; y < y1; ++y) {
      const uint8_t* src = pixels + std::min<int64_t>(y, height - 1) * width * channels;
      const size_t row = static_cast<size_t>(y) * pw;
      if (nc == 1) {
        std::memcpy(&full[0].px[row], src, width);
      } else {
        K.bgr_to_ycc(src, channels, width, &full[0].px[row], &full[1].px[row], &full[2].px[row]);
      }
      for (int ci = 0; ci < nc; ++ci) std::memset(&full[ci].px[row + width], full[ci].px[row + width - 1], pw - width);
    }
  });
  // Chroma downsampling: box average with libjpeg's alternating bias (1,2 / 0,1) so errors don't drift.
  if (nc == 3 && (hs > 1 || vs > 1)) {
    for (int ci = 1; ci < 3; ++ci) {
      Plane d{pw / hs, ph / vs, {}};
      d.px.resize(static_cast<size_t>(d.w) * d.h);
      const Plane& s = full[ci];
      core::parallel_for(d.h, 16, [&](int64_t y0, int64_t y1) {
        for (int64_t y = y0; y < y1; ++y) {
          const uint8_t* r0 = &s.px[static_cast<size_t>(y * vs) * s.w];
          const uint8_t* r1 = vs == 2 ? r0 + s.w : r0;
          uint8_t* o = &d.px[static_cast<size_t>(y) * d.w];
          if (vs == 2) {
            for (int x = 0; x < d.w; ++x)
              o[x] = static_cast<uint8_t>((r0[2 * x] + r0[2 * x + 1] + r1[2 * x] + r1[2 * x + 1] + 1 + (x & 1)) >> 2);
          } else {
            for (int x = 0; x < d.w; ++x) o[x] = static_cast<uint8_t>((r0[2 * x] + r0[2 * x + 1] + (x & 1)) >> 1);
          }
        }
      });
      full[ci] = std::move(d);
    }
  }

  // Quantized coefficients of every block (zigzag order), computed in parallel.
  struct Coefs {
    int bw, bh;
    std::vector<int16_t> c;
  };
  std::vector<Coefs> coefs(nc);
  for (int ci = 0; ci < nc; ++ci) {
    const Plane& p = full[ci];
    Coefs& k = coefs[ci];
    k.bw = p.w / 8;
    k.bh = p.h / 8;
    k.c.resize(static_cast<size_t>(k.bw) * k.bh * 64);
    const uint16_t* qt = q[ci ? 1 : 0];
    uint16_t div[64];
    float recip[64];
    for (int i = 0; i < 64; ++i) {
      div[i] = static_cast<uint16_t>(qt[i] * 8);
      recip[i] = 1.0f / static_cast<float>(div[i]);
    }
    core::parallel_for(k.bh, 2, [&](int64_t b0, int64_t b1) {
      for (int64_t by = b0; by < b1; ++by)
        for (int bx = 0; bx < k.bw; ++bx)
          K.fdct_quant(&p.px[(by * 8) * p.w + bx * 8], p.w, div, recip, k.c.data() + (by * k.bw + bx) * 64);
    });
  }

  std::vector<uint8_t> o;
  o.reserve(static_cast<size_t>(width) * height * nc / 4 + 1024);
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

  static const HuffCodes dcl(kDcLumaBits, kDcVals), acl(kAcLumaBits, kAcLumaVals);
  static const HuffCodes dcc(kDcChromaBits, kDcVals), acc(kAcChromaBits, kAcChromaVals);
  BitWriter bw(o);
  int pred[3] = {0, 0, 0};
  auto nbits = [](int v) {
    unsigned a = static_cast<unsigned>(v < 0 ? -v : v);
    return a ? 32 - __builtin_clz(a) : 0;
  };
  auto encode_block = [&](const int16_t* z, int ci) {
    bw.reserve(2 * 64 * 4 + 16);  // at most 32 bits per coefficient, doubled by stuffing
    const HuffCodes& hd = ci ? dcc : dcl;
    const HuffCodes& ha = ci ? acc : acl;
    int diff = z[0] - pred[ci];
    pred[ci] = z[0];
    int s = nbits(diff);
    bw.put(hd.code[s], hd.len[s]);
    if (s) bw.put(diff < 0 ? diff - 1 : diff, s);
    // Walk the nonzero coefficients through a bit mask instead of testing all 63.
    uint64_t nz = 0;
    for (int k = 1; k < 64; ++k) nz |= static_cast<uint64_t>(z[k] != 0) << k;
    int last = 0;
    while (nz) {
      int k = __builtin_ctzll(nz);
      nz &= nz - 1;
      int run = k - last - 1;
      last = k;
      while (run > 15) {
        bw.put(ha.code[0xF0], ha.len[0xF0]);
        run -= 16;
      }
      int v = z[k];
      int sz = nbits(v);
      int sym = (run << 4) | sz;
      bw.put(ha.code[sym], ha.len[sym]);
      bw.put(v < 0 ? v - 1 : v, sz);
    }
    int run = 63 - last;
    if (run) bw.put(ha.code[0], ha.len[0]);
  };
  for (int y = 0; y < my; ++y)
    for (int x = 0; x < mx; ++x)
      for (int ci = 0; ci < nc; ++ci) {
        const Coefs& k = coefs[ci];
        int h = ci == 0 ? hs : 1, v = ci == 0 ? vs : 1;
        for (int j = 0; j < v; ++j)
          for (int i = 0; i < h; ++i)
            encode_block(k.c.data() + (static_cast<size_t>(y * v + j) * k.bw + x * h + i) * 64, ci);
      }
  bw.flush();
  o.push_back(0xFF);
  o.push_back(0xD9);
  return o;
}

}  // namespace mnn::codecs
