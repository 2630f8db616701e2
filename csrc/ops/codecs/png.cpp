// PNG pixel work: (un)filtering, Adam7, bit unpacking, and the conversions cv2's libpng setup performs
// (palette/tRNS expansion, 16->8 by dropping the low byte, libpng's rgb_to_gray weights, RGB->BGR).
// Chunk parsing stays in Python; the IDAT stream is inflated by our own decoder (inflate.cpp), then rows
// are unfiltered and converted one at a time while they are in cache.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/threadpool.h"
#include "ops/codecs/codec_kernels.h"
#include "ops/codecs/codecs.h"
#include "ops/codecs/inflate.h"

namespace mnn::codecs {
namespace {


inline uint8_t paeth_fast(int a, int b, int c) {
  // |p-a| = |b-c|, |p-b| = |a-c|, |p-c| = |a+b-2c| with p = a+b-c; selects compile to cmovs.
  int pa = std::abs(b - c), pb = std::abs(a - c), pc = std::abs(a + b - 2 * c);
  int ab = pb < pa ? b : a;
  int pab = pb < pa ? pb : pa;
  return static_cast<uint8_t>(pc < pab ? c : ab);
}

#if defined(__SSE2__)
// Sub on 3- and 4-byte pixels, four pixels per step: a prefix sum inside the register (two
// shifted adds) plus the previous step's last pixel. The byte loop instead waits on a
// store-to-load round trip per byte (~4x slower); cv2 writes Sub on every row by default.
// Returns where the scalar loop goes on.
template <int kBpp>
size_t unfilter_sub_simd(uint8_t* row, size_t n) {
  if constexpr (kBpp != 3 && kBpp != 4) {
    return kBpp;
  } else {
    constexpr int kStep = 4 * kBpp;
    __m128i carry = _mm_setzero_si128();  // the last reconstructed pixel, in every pixel slot
    const __m128i low3 = _mm_setr_epi8(-1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    size_t i = 0;
    for (; i + 16 <= n; i += kStep) {
      __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i));
      x = _mm_add_epi8(x, _mm_slli_si128(x, kBpp));
      x = _mm_add_epi8(x, _mm_slli_si128(x, 2 * kBpp));
      // The step's own sum (its last pixel, in every slot) does not depend on the carry, so
      // the only chain from step to step is one add.
      __m128i last;
      if constexpr (kBpp == 4) {
        last = _mm_shuffle_epi32(x, 0xFF);
      } else {
        last = _mm_and_si128(_mm_srli_si128(x, 9), low3);
        last = _mm_or_si128(last, _mm_slli_si128(last, 3));
        last = _mm_or_si128(last, _mm_slli_si128(last, 6));
      }
      x = _mm_add_epi8(x, carry);
      carry = _mm_add_epi8(carry, last);
      if constexpr (kBpp == 4) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(row + i), x);
      } else {
        // exactly the 12 bytes: a 16-byte store would overlap the next step's load, which then
        // cannot be forwarded and waits for the store to retire
        _mm_storel_epi64(reinterpret_cast<__m128i*>(row + i), x);
        const int32_t hi = _mm_cvtsi128_si32(_mm_srli_si128(x, 8));
        std::memcpy(row + i + 8, &hi, 4);
      }
    }
    return std::max<size_t>(i, kBpp);
  }
}

// Paeth on 3- and 4-byte pixels, one pixel a step with its channels in 16-bit lanes: the predictor's
// selects become compares and masks (first of a, b, c at the minimum distance, as the spec orders them).
// 2.5-3.5x the byte loop, where each byte is a chain of abs/compare/cmov. Pixels are read as 4 bytes
// (the 4th lane of a 3-byte pixel is ignored) and the last 3-byte pixel is left to the scalar loop, so
// nothing past the row is read; returns where that loop goes on.
inline __m128i abs_epi16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }

template <int kBpp>
size_t unfilter_paeth_simd(uint8_t* row, const uint8_t* prev, size_t n) {
  if constexpr (kBpp != 3 && kBpp != 4) {
    return 0;
  } else {
    const __m128i zero = _mm_setzero_si128();
    __m128i a = zero, c = zero;  // left and upper-left pixels; zeros for the first pixel (predictor = b)
    size_t i = 0;
    for (; i + 4 <= n; i += kBpp) {
      int32_t xv, bv;
      std::memcpy(&xv, row + i, 4);
      std::memcpy(&bv, prev + i, 4);
      const __m128i b = _mm_unpacklo_epi8(_mm_cvtsi32_si128(bv), zero);
      const __m128i bc = _mm_sub_epi16(b, c), ac = _mm_sub_epi16(a, c);
      const __m128i pa = abs_epi16(bc), pb = abs_epi16(ac), pc = abs_epi16(_mm_add_epi16(bc, ac));
      const __m128i m = _mm_min_epi16(_mm_min_epi16(pa, pb), pc);
      const __m128i take_a = _mm_cmpeq_epi16(pa, m);
      const __m128i take_b = _mm_andnot_si128(take_a, _mm_cmpeq_epi16(pb, m));
      const __m128i take_c = _mm_andnot_si128(_mm_or_si128(take_a, take_b), _mm_set1_epi16(-1));
      const __m128i pred = _mm_or_si128(_mm_or_si128(_mm_and_si128(take_a, a), _mm_and_si128(take_b, b)),
                                        _mm_and_si128(take_c, c));
      const __m128i r = _mm_add_epi8(_mm_cvtsi32_si128(xv), _mm_packus_epi16(pred, pred));
      const int32_t rv = _mm_cvtsi128_si32(r);
      std::memcpy(row + i, &rv, kBpp);  // exactly the pixel: the next one is still filtered
      a = _mm_unpacklo_epi8(r, zero);
      c = b;
    }
    return i;
  }
}
#endif

// Sub/Avg/Paeth depend on the previous pixel: with bpp a compile-time constant the bpp channels
// form independent chains the CPU overlaps.
template <int kBpp>
void unfilter_row_bpp(int type, uint8_t* row, const uint8_t* prev, size_t n) {
  const size_t b = std::min(n, static_cast<size_t>(kBpp));
  switch (type) {
    case 0: break;
    case 1: {
      size_t i = kBpp;
#if defined(__SSE2__)
      i = unfilter_sub_simd<kBpp>(row, n);
#endif
      for (; i < n; ++i) row[i] = static_cast<uint8_t>(row[i] + row[i - kBpp]);
      break;
    }
    case 2:
      for (size_t i = 0; i < n; ++i) row[i] = static_cast<uint8_t>(row[i] + prev[i]);
      break;
    case 3:
      for (size_t i = 0; i < b; ++i) row[i] = static_cast<uint8_t>(row[i] + (prev[i] >> 1));
      for (size_t i = kBpp; i < n; ++i) row[i] = static_cast<uint8_t>(row[i] + ((row[i - kBpp] + prev[i]) >> 1));
      break;
    case 4: {
      size_t i = 0;
#if defined(__SSE2__)
      i = unfilter_paeth_simd<kBpp>(row, prev, n);
#endif
      if (i == 0)
        for (; i < b; ++i) row[i] = static_cast<uint8_t>(row[i] + prev[i]);
      for (; i < n; ++i) row[i] = static_cast<uint8_t>(row[i] + paeth_fast(row[i - kBpp], prev[i], prev[i - kBpp]));
      break;
    }
    default: throw CodecError("corrupt PNG data: bad filter type " + std::to_string(type));
  }
}

// Reverses one filtered row in place; prev is the previous reconstructed row (zeros for the first).
void unfilter_row(int type, uint8_t* row, const uint8_t* prev, size_t n, int bpp) {
  switch (bpp) {
    case 1: return unfilter_row_bpp<1>(type, row, prev, n);
    case 2: return unfilter_row_bpp<2>(type, row, prev, n);
    case 3: return unfilter_row_bpp<3>(type, row, prev, n);
    case 4: return unfilter_row_bpp<4>(type, row, prev, n);
    case 6: return unfilter_row_bpp<6>(type, row, prev, n);
    default: return unfilter_row_bpp<8>(type, row, prev, n);
  }
}

// Unfilters one (sub)image of w x h from data[*off...] and writes its samples to dst at pixel (x0 + x*dx,
// y0 + y*dy) of the full image (dst row stride = full_w samples_per_pixel elements).
void unfilter_pass(const uint8_t* data, size_t size, size_t* off, int w, int h, int depth, int spp, uint8_t* dst,
                   int full_w, int x0, int y0, int dx, int dy) {
  if (w == 0 || h == 0) return;
  const size_t rowbytes = (static_cast<size_t>(w) * spp * depth + 7) / 8;
  const int bpp = std::max(1, spp * depth / 8);
  std::vector<uint8_t> prev(rowbytes, 0), cur(rowbytes);
  const int esize = depth == 16 ? 2 : 1;
  if (depth == 8 && dx == 1 && dy == 1) {
    // Whole rows of bytes: unfiltered in place in dst, against the row above it there.
    for (int y = 0; y < h; ++y) {
      if (*off + 1 + rowbytes > size) throw CodecError("corrupt PNG data: image data too short");
      const int type = data[*off];
      uint8_t* drow = dst + static_cast<size_t>(y0 + y) * full_w * spp;
      std::memcpy(drow, data + *off + 1, rowbytes);
      *off += 1 + rowbytes;
      unfilter_row(type, drow, y ? drow - static_cast<size_t>(full_w) * spp : prev.data(), rowbytes, bpp);
    }
    return;
  }
  for (int y = 0; y < h; ++y) {
    if (*off + 1 + rowbytes > size) throw CodecError("corrupt PNG data: image data too short");
    int type = data[*off];
    std::memcpy(cur.data(), data + *off + 1, rowbytes);
    *off += 1 + rowbytes;
    unfilter_row(type, cur.data(), prev.data(), rowbytes, bpp);
    uint8_t* drow = dst + (static_cast<size_t>(y0 + y * dy) * full_w) * spp * esize;
    if (depth == 8 && dx == 1) {
      std::memcpy(drow, cur.data(), rowbytes);
    } else if (depth == 8) {
      for (int x = 0; x < w; ++x) std::memcpy(drow + static_cast<size_t>(x0 + x * dx) * spp, &cur[x * spp], spp);
    } else if (depth == 16) {
      uint16_t* d16 = reinterpret_cast<uint16_t*>(drow);
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < spp; ++c) {
          size_t i = (static_cast<size_t>(x) * spp + c) * 2;
          d16[static_cast<size_t>(x0 + x * dx) * spp + c] = static_cast<uint16_t>((cur[i] << 8) | cur[i + 1]);
        }
    } else {  // 1, 2, 4 bits: always one sample per pixel (gray or palette)
      const int mask = (1 << depth) - 1, per = 8 / depth;
      for (int x = 0; x < w; ++x) {
        int shift = 8 - depth * (x % per + 1);
        drow[x0 + x * dx] = static_cast<uint8_t>((cur[x / per] >> shift) & mask);
      }
    }
    std::swap(prev, cur);
  }
}

void filter_row(int f, const uint8_t* row, const uint8_t* prev, uint8_t* o, size_t n, int bpp) {
  const size_t b = std::min(n, static_cast<size_t>(bpp));
  switch (f) {
    case 0: std::memcpy(o, row, n); break;
    case 1:
      std::memcpy(o, row, b);
      for (size_t i = b; i < n; ++i) o[i] = static_cast<uint8_t>(row[i] - row[i - bpp]);
      break;
    case 2:
      for (size_t i = 0; i < n; ++i) o[i] = static_cast<uint8_t>(row[i] - prev[i]);
      break;
    case 3:
      for (size_t i = 0; i < b; ++i) o[i] = static_cast<uint8_t>(row[i] - (prev[i] >> 1));
      for (size_t i = b; i < n; ++i) o[i] = static_cast<uint8_t>(row[i] - ((row[i - bpp] + prev[i]) >> 1));
      break;
    default:
      for (size_t i = 0; i < b; ++i) o[i] = static_cast<uint8_t>(row[i] - prev[i]);
      for (size_t i = b; i < n; ++i) o[i] = static_cast<uint8_t>(row[i] - paeth_fast(row[i - bpp], prev[i], prev[i - bpp]));
  }
}

}  // namespace

std::unique_ptr<uint8_t[]> png_unfilter(const uint8_t* data, size_t size, int width, int height, int bit_depth,
                                        int spp, bool interlaced) {
  const int esize = bit_depth == 16 ? 2 : 1;
  std::unique_ptr<uint8_t[]> out(new uint8_t[static_cast<size_t>(width) * height * spp * esize]);
  size_t off = 0;
  if (!interlaced) {
    unfilter_pass(data, size, &off, width, height, bit_depth, spp, out.get(), width, 0, 0, 1, 1);
    return out;
  }
  static const int adam7[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                  {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
  for (const auto& p : adam7) {
    int w = width > p[0] ? (width - p[0] + p[2] - 1) / p[2] : 0;
    int h = height > p[1] ? (height - p[1] + p[3] - 1) / p[3] : 0;
    unfilter_pass(data, size, &off, w, h, bit_depth, spp, out.get(), width, p[0], p[1], p[2], p[3]);
  }
  return out;
}

void png_filter(const uint8_t* pixels, int width, int height, int channels, int depth, int filter_mask,
                uint8_t* out) {
  const int esize = depth == 16 ? 2 : 1;
  const int bpp = channels * esize;
  const size_t n = static_cast<size_t>(width) * bpp;
  if ((filter_mask & 31) == 0) filter_mask = 1;
  int single = -1;
  for (int f = 0; f < 5; ++f)
    if (filter_mask == (1 << f)) single = f;
  const CodecKernels& K = codec_kernels();
  // cv2's pixel (B,G,R[,A], native endian) -> PNG's (R,G,B[,A], big endian).
  auto png_row = [&](int64_t y, uint8_t* dst) {
    const uint8_t* src = pixels + y * n;
    const size_t npx = static_cast<size_t>(width);
    if (esize == 1) {
      if (channels == 1) {
        std::memcpy(dst, src, n);
      } else {
        K.swap_rb(src, dst, static_cast<int64_t>(npx), channels);
      }
      return;
    }
    for (size_t x = 0; x < npx; ++x)
      for (int c = 0; c < channels; ++c) {
        int sc = (channels >= 3 && c < 3) ? 2 - c : c;
        uint16_t v;
        std::memcpy(&v, src + (x * channels + sc) * 2, 2);
        dst[(x * channels + c) * 2] = static_cast<uint8_t>(v >> 8);
        dst[(x * channels + c) * 2 + 1] = static_cast<uint8_t>(v & 255);
      }
  };
  core::parallel_for(height, 32, [&](int64_t y0, int64_t y1) {
    std::vector<uint8_t> cand(n), best(n), row(n), prev(n, 0);
    if (y0 > 0) png_row(y0 - 1, prev.data());
    for (int64_t y = y0; y < y1; ++y) {
      png_row(y, row.data());
      uint8_t* dst = out + y * (n + 1);
      uint64_t best_cost = ~uint64_t(0);
      for (int f = 0; f < 5; ++f) {
        if (!(filter_mask & (1 << f))) continue;
        uint8_t* o = single >= 0 ? dst + 1 : cand.data();
        filter_row(f, row.data(), prev.data(), o, n, bpp);
        if (single >= 0) {
          dst[0] = static_cast<uint8_t>(f);
          break;
        }
        // libpng's heuristic: bytes as signed, smallest sum of magnitudes wins.
        uint64_t cost = 0;
        for (size_t i = 0; i < n; ++i) cost += static_cast<uint64_t>(std::abs(static_cast<int>(static_cast<int8_t>(o[i]))));
        if (cost < best_cost) {
          best_cost = cost;
          dst[0] = static_cast<uint8_t>(f);
          std::swap(cand, best);
        }
      }
      if (single < 0) std::memcpy(dst + 1, best.data(), n);
      std::swap(row, prev);
    }
  });
}

void palette_lookup(const uint8_t* idx, size_t n, const uint8_t* palette, int npal, int entry, uint8_t* out) {
  for (size_t i = 0; i < n; ++i) {
    int k = idx[i];
    if (k < npal) std::memcpy(out + i * entry, palette + static_cast<size_t>(k) * entry, entry);
    else std::memset(out + i * entry, 0, entry);
  }
}

void png_convert(const uint8_t* samples, int width, int height, int depth, int color_type, const uint8_t* palette,
                 int npal, const uint8_t* trns, int ntrns, int out_channels, bool out16, bool rgb_order,
                 uint8_t* out) {
  static const int kSpp[7] = {1, 0, 3, 1, 2, 0, 4};
  if (color_type < 0 || color_type > 6 || kSpp[color_type] == 0) throw CodecError("corrupt PNG data: bad color type");
  const int spp = kSpp[color_type];
  const bool wide = depth == 16;
  const bool keep16 = wide && out16;
  const int maxv = wide ? 65535 : 255;
  // A gray sample of depth < 8 scales to 8 bits by bit replication (libpng's expand_gray_1_2_4_to_8).
  const int gray_scale = color_type == 0 && depth < 8 ? 255 / ((1 << depth) - 1) : 1;
  int tr = -1, tg = -1, tb = -1;
  if (color_type == 2 && ntrns >= 6) {
    tr = (trns[0] << 8) | trns[1];
    tg = (trns[2] << 8) | trns[3];
    tb = (trns[4] << 8) | trns[5];
  }
  const int64_t npix = static_cast<int64_t>(width) * height;
  // Fast paths for the common 8-bit layouts: channel order only (no tRNS, no palette, no scaling).
  if (depth == 8 && (color_type == 0 || color_type == 2 || color_type == 6) && !(color_type == 2 && tr >= 0)) {
    const CodecKernels& K = codec_kernels();
    const int sc = spp, oc = out_channels;
    const bool swap = !rgb_order;
    bool handled = true;
    if (sc == oc && sc == 1) {
      std::memcpy(out, samples, static_cast<size_t>(npix));
    } else if (sc == 1 && oc == 3) {
      core::parallel_for(npix, 1 << 16, [&](int64_t p0, int64_t p1) {
        for (int64_t p = p0; p < p1; ++p) out[3 * p] = out[3 * p + 1] = out[3 * p + 2] = samples[p];
      });
    } else if (sc >= 3 && oc >= 3 && oc <= sc) {
      core::parallel_for(npix, 1 << 16, [&](int64_t p0, int64_t p1) {
        const int a = swap ? 2 : 0, b = swap ? 0 : 2;
        if (sc == oc && swap) {
          K.swap_rb(samples + sc * p0, out + sc * p0, p1 - p0, sc);
        } else if (sc == 3 && oc == 3) {
          for (int64_t p = p0; p < p1; ++p) {
            const uint8_t* in = samples + 3 * p;
            uint8_t* o = out + 3 * p;
            o[0] = in[a];
            o[1] = in[1];
            o[2] = in[b];
          }
        } else if (sc == 4 && oc == 4) {
          for (int64_t p = p0; p < p1; ++p) {
            const uint8_t* in = samples + 4 * p;
            uint8_t* o = out + 4 * p;
            o[0] = in[a];
            o[1] = in[1];
            o[2] = in[b];
            o[3] = in[3];
          }
        } else {
          for (int64_t p = p0; p < p1; ++p) {
            const uint8_t* in = samples + 4 * p;
            uint8_t* o = out + 3 * p;
            o[0] = in[a];
            o[1] = in[1];
            o[2] = in[b];
          }
        }
      });
    } else {
      handled = false;
    }
    if (handled) return;
  }
  core::parallel_for(npix, 1 << 15, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      uint32_t s[4] = {0, 0, 0, 0};
      if (wide) {
        const uint16_t* in = reinterpret_cast<const uint16_t*>(samples) + p * spp;
        for (int c = 0; c < spp; ++c) s[c] = in[c];
      } else {
        const uint8_t* in = samples + p * spp;
        for (int c = 0; c < spp; ++c) s[c] = in[c];
      }
      uint32_t r, g, b, a = maxv;
      bool is_gray = false;
      switch (color_type) {
        case 0: r = g = b = s[0] * gray_scale; is_gray = true; break;
        case 4: r = g = b = s[0]; a = s[1]; is_gray = true; break;
        case 2:
          r = s[0]; g = s[1]; b = s[2];
          if (static_cast<int>(r) == tr && static_cast<int>(g) == tg && static_cast<int>(b) == tb) a = 0;
          break;
        case 3:
          if (static_cast<int>(s[0]) < npal) {
            r = palette[3 * s[0]]; g = palette[3 * s[0] + 1]; b = palette[3 * s[0] + 2];
          } else {
            r = g = b = 0;
          }
          a = static_cast<int>(s[0]) < ntrns ? trns[s[0]] : 255;
          break;
        default: r = s[0]; g = s[1]; b = s[2]; a = s[3];
      }
      const int shift = wide && !keep16 ? 8 : 0;
      uint32_t v[4];
      int n = out_channels;
      if (n == 1) {
        // libpng's rgb_to_gray as cv2 configures it (0.299, 0.587 in 1/32768 units, truncated);
        // 16-bit data rounds, 8-bit data truncates.
        uint32_t y = is_gray ? r : (wide ? (9797 * r + 19234 * g + 3737 * b + 16384) >> 15 : (9797 * r + 19234 * g + 3737 * b) >> 15);
        v[0] = y >> shift;
      } else {
        v[0] = (rgb_order ? r : b) >> shift;
        v[1] = g >> shift;
        v[2] = (rgb_order ? b : r) >> shift;
        v[3] = a >> shift;
      }
      if (keep16) {
        uint16_t* o = reinterpret_cast<uint16_t*>(out) + p * n;
        for (int c = 0; c < n; ++c) o[c] = static_cast<uint16_t>(v[c]);
      } else {
        uint8_t* o = out + p * n;
        for (int c = 0; c < n; ++c) o[c] = static_cast<uint8_t>(v[c]);
      }
    }
  });
}

size_t png_filtered_size(int width, int height, int depth, int spp, bool interlaced) {
  static const int adam7[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                  {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
  static const int whole[1][4] = {{0, 0, 1, 1}};
  const auto* passes = interlaced ? adam7 : whole;
  size_t total = 0;
  for (int p = 0; p < (interlaced ? 7 : 1); ++p) {
    const int x0 = passes[p][0], y0 = passes[p][1], dx = passes[p][2], dy = passes[p][3];
    const size_t pw = width > x0 ? (width - x0 + dx - 1) / dx : 0, ph = height > y0 ? (height - y0 + dy - 1) / dy : 0;
    if (pw && ph) total += ph * (1 + (pw * spp * depth + 7) / 8);
  }
  return total;
}

size_t png_decode_capacity(int width, int height, int depth, int color_type, bool interlaced, int out_channels,
                           bool out16) {
  static const int kSpp[7] = {1, 0, 3, 1, 2, 0, 4};
  const size_t image = static_cast<size_t>(width) * height * out_channels * (depth == 16 && out16 ? 2 : 1);
  if (interlaced || color_type < 0 || color_type > 6 || kSpp[color_type] == 0) return image;
  return std::max(image, png_filtered_size(width, height, depth, kSpp[color_type], false));
}

void png_decode(const uint8_t* zdata, size_t zsize, int width, int height, int depth, int color_type, bool interlaced,
                const uint8_t* palette, int npal, const uint8_t* trns, int ntrns, int out_channels, bool out16,
                bool rgb_order, uint8_t* out, size_t capacity) {
  static const int kSpp[7] = {1, 0, 3, 1, 2, 0, 4};
  if (color_type < 0 || color_type > 6 || kSpp[color_type] == 0) throw CodecError("corrupt PNG data: bad color type");
  if (capacity < png_decode_capacity(width, height, depth, color_type, interlaced, out_channels, out16))
    throw CodecError("png_decode: output buffer too small");
  const int spp = kSpp[color_type];
  const size_t expected = png_filtered_size(width, height, depth, spp, interlaced);
  if (!png_stream_can_fill(zsize, expected)) throw CodecError("corrupt PNG data: not enough image data");
  if (interlaced) {
    std::unique_ptr<uint8_t[]> raw(new uint8_t[expected]);
    if (zlib_inflate(zdata, zsize, raw.get(), expected) < expected)
      throw CodecError("corrupt PNG data: not enough image data");
    std::unique_ptr<uint8_t[]> samples = png_unfilter(raw.get(), expected, width, height, depth, spp, true);
    png_convert(samples.get(), width, height, depth, color_type, palette, npal, trns, ntrns, out_channels, out16,
                rgb_order, out);
    return;
  }
  // The stream is inflated into the end of out (no second image-sized buffer, whose page faults alone cost
  // ~15% of a decode), then each row is unfiltered in a small buffer and converted to the front of out.
  // Output row y ends at or before stream row y + 1 starts (out is max(image, stream) bytes), so a row is
  // never overwritten before it is read.
  const size_t rowbytes = (static_cast<size_t>(width) * spp * depth + 7) / 8;
  const int bpp = std::max(1, spp * depth / 8);
  const size_t out_row = static_cast<size_t>(width) * out_channels * (depth == 16 && out16 ? 2 : 1);
  uint8_t* const raw = out + (capacity - expected);
  if (zlib_inflate(zdata, zsize, raw, expected) < expected) throw CodecError("corrupt PNG data: not enough image data");
  std::vector<uint8_t> rows(2 * rowbytes, 0);
  uint8_t* prev = rows.data();  // zeros: the row above the first
  uint8_t* cur = prev + rowbytes;
  std::vector<uint16_t> wide(depth == 16 ? static_cast<size_t>(width) * spp : 0);
  std::vector<uint8_t> narrow(depth < 8 || depth == 16 ? static_cast<size_t>(width) * spp : 0);
  const bool rgb_trns = color_type == 2 && ntrns >= 6;
  // 16-bit data kept as 16-bit in the common layouts: byte swap and channel order in one pass.
  const bool direct16 = depth == 16 && out16 && !rgb_trns &&
                        ((spp == 1 && out_channels == 1) || (spp >= 3 && out_channels >= 3 && out_channels <= spp));
  // 16-bit data read as 8-bit: libpng drops the low byte first, so the high bytes go down the 8-bit path,
  // except where the 16-bit values themselves matter (RGB->gray rounding, an RGB tRNS key).
  const bool high8 = depth == 16 && !out16 && !rgb_trns && (out_channels != 1 || color_type == 0 || color_type == 4);
  for (int y = 0; y < height; ++y) {
    const uint8_t* src = raw + static_cast<size_t>(y) * (rowbytes + 1);
    const int type = src[0];
    std::memcpy(cur, src + 1, rowbytes);
    unfilter_row(type, cur, prev, rowbytes, bpp);
    const uint8_t* samples = cur;
    if (direct16) {
      uint16_t* o = reinterpret_cast<uint16_t*>(out + static_cast<size_t>(y) * out_row);
      auto be = [&](size_t i) { return static_cast<uint16_t>((cur[2 * i] << 8) | cur[2 * i + 1]); };
      const int a = rgb_order ? 0 : 2, b = rgb_order ? 2 : 0;
      if (spp == 1) {
        for (int x = 0; x < width; ++x) o[x] = be(x);
      } else {
        for (int x = 0; x < width; ++x) {
          const size_t i = static_cast<size_t>(x) * spp;
          uint16_t* px = o + static_cast<size_t>(x) * out_channels;
          px[0] = be(i + a);
          px[1] = be(i + 1);
          px[2] = be(i + b);
          if (out_channels == 4) px[3] = be(i + 3);
        }
      }
      std::swap(prev, cur);
      continue;
    }
    int conv_depth = depth;
    if (high8) {
      for (size_t i = 0; i < narrow.size(); ++i) narrow[i] = cur[2 * i];
      samples = narrow.data();
      conv_depth = 8;
    } else if (depth == 16) {
      for (size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<uint16_t>((cur[2 * i] << 8) | cur[2 * i + 1]);
      samples = reinterpret_cast<const uint8_t*>(wide.data());
    } else if (depth < 8) {  // 1, 2, 4 bits: one sample per pixel (gray or palette)
      const int mask = (1 << depth) - 1, per = 8 / depth;
      for (int x = 0; x < width; ++x)
        narrow[x] = static_cast<uint8_t>((cur[x / per] >> (8 - depth * (x % per + 1))) & mask);
      samples = narrow.data();
    }
    png_convert(samples, width, 1, conv_depth, color_type, palette, npal, trns, ntrns, out_channels, out16, rgb_order,
                out + static_cast<size_t>(y) * out_row);
    std::swap(prev, cur);
  }
}

}  // namespace mnn::codecs
