// CPU kernel of cv_draw (shape rule: ops/cv/drawing.cpp; Python API: mnn/cv/_drawing.py).
//
// The output starts as a copy of the image; then a stream of drawing commands is rasterised onto it
// with cv2's geometry so that results are pixel-identical: coordinates in 16-bit fixed point,
// Bresenham lines (4- and 8-connected) with cv2's clipping and end-point rounding, convex polygons
// scanned edge by edge, general polygons through an active-edge table whose spans round inwards,
// midpoint circles, and ellipses approximated by polygons sampled at whole degrees.
// Anti-aliased lines (LINE_AA) use cv2's arithmetic (line_aa below), so they are pixel-identical too;
// anti-aliased polygons, circles and thick lines are built from them as in cv2.
//
// Command stream (ints; colour in floats[0..3]):
//   0 LINE       x0 y0 x1 y1 thickness line_type shift          (round caps at both ends)
//   1 POLYLINE   closed thickness line_type shift n  x y ...
//   2 FILLCONVEX line_type shift n  x y ...
//   3 FILLPOLY   line_type shift offx offy ncontours  { n  x y ... }
//   4 CIRCLE     cx cy radius thickness line_type shift
//   5 ELLIPSE    cx cy ax ay angle start end thickness line_type  (centre and axes in 16-bit fixed point)
//   6 CONTOURS   thickness line_type ncontours  { n  x y ... }   (closed outlines, caps at segment ends)
//   7 OFFSET     dx dy   (added, raw, to the points of every later POLYLINE: putText's glyphs are
//                         encoded once relative to their pen position and placed by an OFFSET)
// line_type is cv2's value: 4, 8, 16 (LINE_AA) or the aliases 0 (8-connected) and 1 (4-connected),
// which cv2 5 routes differently in places (thin lines with shift > 0); LINE_AA becomes 8 on images
// that are not 8-bit, as in cv2 (decoded per command below).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "backends/cpu/kernels/cv/drawing.h"
#include "core/error.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

constexpr int kShift = 16;
constexpr int64_t kOne = int64_t(1) << kShift;
constexpr int kAA = 16;

struct Pt {
  int64_t x, y;
  bool operator!=(const Pt& o) const { return x != o.x || y != o.y; }
};

// cv2 rounds doubles to the nearest integer, ties to even (the FPU's default mode).
int64_t round_even(double v) { return static_cast<int64_t>(std::nearbyint(v)); }

// sin of whole degrees 0..450, rounded to 7 decimals and stored as float: cv2 samples ellipses from
// such a table, so computing it the same way keeps every vertex on the same pixel.
const float* sin_table() {
  static const std::vector<float> t = [] {
    std::vector<float> v(451);
    for (int i = 0; i <= 450; ++i) {
      double s = std::sin(i * 3.14159265358979323846 / 180.0);
      v[i] = static_cast<float>(std::round(s * 1e7) / 1e7);
    }
    return v;
  }();
  return t.data();
}

// The image and colour being drawn. Writes go through uint8_t pointers, which may alias anything,
// so the members are read into locals before each loop (else every store reloads them); the walks
// that plot pixel by pixel take a copy of the Canvas (Canvas lc = c) for the same reason.
struct Canvas {
  uint8_t* data;
  int64_t h, w, pix, step;
  int cn;
  bool u8;
  uint8_t color[32];
  uint8_t pattern[48];  // the colour repeated over 48 bytes (16 pixels of 3 bytes, 12 of 4, ...)
  uint32_t col32;       // the first 4 bytes of the colour
  int cval[4];          // colour as ints, for blending (uint8 images only)

  void set_color() {  // after color[] and pix are filled in
    for (int64_t i = 0; i < 48; i += pix) std::memcpy(pattern + i, color, static_cast<size_t>(std::min<int64_t>(pix, 48 - i)));
    std::memcpy(&col32, color, 4);
  }
  void span(int64_t y, int64_t x1, int64_t x2) const {  // x1..x2 inclusive, already inside the image
    const int64_t ps = pix;
    uint8_t* p = data + y * step + x1 * ps;
    int64_t n = x2 - x1 + 1;
    if (ps == 1) {
      std::memset(p, color[0], static_cast<size_t>(n));
      return;
    }
    if (ps == 3 || ps == 4) {
      // long spans take 48-byte stores of the repeated colour (16 pixels of 3 bytes, 12 of 4), the
      // rest one pixel at a time with stores of the pixel's own size
      const int64_t per = 48 / ps;
      if (n >= per) {
        uint8_t pat[48];
        std::memcpy(pat, pattern, 48);
        for (; n >= per; n -= per, p += 48) std::memcpy(p, pat, 48);
      }
      const uint32_t cc = col32;
      if (ps == 3) {
        const uint16_t lo = static_cast<uint16_t>(cc);
        const uint8_t hi = static_cast<uint8_t>(cc >> 16);
        for (; n > 0; --n, p += 3) std::memcpy(p, &lo, 2), p[2] = hi;
      } else {
        for (; n > 0; --n, p += 4) std::memcpy(p, &cc, 4);
      }
      return;
    }
    for (; n > 0; --n, p += ps) std::memcpy(p, color, static_cast<size_t>(ps));
  }
  void put(int64_t x, int64_t y) const {
    if (static_cast<uint64_t>(x) < static_cast<uint64_t>(w) && static_cast<uint64_t>(y) < static_cast<uint64_t>(h)) {
      uint8_t* p = data + y * step + x * pix;
      switch (pix) {
        case 1: *p = static_cast<uint8_t>(col32); break;
        case 3: {
          const uint16_t lo = static_cast<uint16_t>(col32);
          std::memcpy(p, &lo, 2);
          p[2] = static_cast<uint8_t>(col32 >> 16);
          break;
        }
        case 4: std::memcpy(p, &col32, 4); break;
        default: std::memcpy(p, color, static_cast<size_t>(pix));
      }
    }
  }
  void clipped_span(int64_t y, int64_t x1, int64_t x2) const {
    if (y < 0 || y >= h) return;
    x1 = std::max<int64_t>(x1, 0);
    x2 = std::min<int64_t>(x2, w - 1);
    if (x1 <= x2) span(y, x1, x2);
  }
};

// A hint to fetch the cache line at byte offset `off` of the image for writing (the address may
// lie outside it: a prefetch never faults, and the arithmetic is done on integers).
inline void prefetch_w(const uint8_t* data, int64_t off) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(data) + static_cast<uintptr_t>(off)), 1);
}

// Clips the segment a-b to [0, w-1] x [0, h-1] (Cohen-Sutherland; each intersection is computed in
// double and truncated, the way cv2's clipLine does it, so clipped end points land on the same
// pixels). False when nothing is left.
bool clip_segment(int64_t w, int64_t h, Pt& a, Pt& b) {
  if (w <= 0 || h <= 0) return false;
  const int64_t right = w - 1, bottom = h - 1;
  auto code = [&](const Pt& p) {
    return (p.x < 0 ? 1 : 0) | (p.x > right ? 2 : 0) | (p.y < 0 ? 4 : 0) | (p.y > bottom ? 8 : 0);
  };
  int ca = code(a), cb = code(b);
  if ((ca & cb) == 0 && (ca | cb) != 0) {
    if (ca & 12) {
      int64_t e = ca < 8 ? 0 : bottom;
      a.x += static_cast<int64_t>(static_cast<double>(e - a.y) * (b.x - a.x) / (b.y - a.y));
      a.y = e;
      ca = (a.x < 0 ? 1 : 0) | (a.x > right ? 2 : 0);
    }
    if (cb & 12) {
      int64_t e = cb < 8 ? 0 : bottom;
      b.x += static_cast<int64_t>(static_cast<double>(e - b.y) * (b.x - a.x) / (b.y - a.y));
      b.y = e;
      cb = (b.x < 0 ? 1 : 0) | (b.x > right ? 2 : 0);
    }
    if ((ca & cb) == 0 && (ca | cb) != 0) {
      if (ca) {
        int64_t e = ca == 1 ? 0 : right;
        a.y += static_cast<int64_t>(static_cast<double>(e - a.x) * (b.y - a.y) / (b.x - a.x));
        a.x = e;
        ca = 0;
      }
      if (cb) {
        int64_t e = cb == 1 ? 0 : right;
        b.y += static_cast<int64_t>(static_cast<double>(e - b.x) * (b.y - a.y) / (b.x - a.x));
        b.x = e;
        cb = 0;
      }
    }
  }
  return (ca | cb) == 0;
}

// A 1-pixel line between integer points, 8- or 4-connected, always walked left to right.
void line_int(const Canvas& canvas, Pt a, Pt b, int connectivity) {
  const Canvas c = canvas;  // a local copy: see Canvas
  connectivity = connectivity == 0 ? 8 : connectivity == 1 ? 4 : connectivity;  // cv2's aliases
  if (a.x < 0 || a.x >= c.w || b.x < 0 || b.x >= c.w || a.y < 0 || a.y >= c.h || b.y < 0 || b.y >= c.h)
    if (!clip_segment(c.w, c.h, a, b)) return;
  if (b.x < a.x) std::swap(a, b);
  int64_t dx = b.x - a.x, dy = b.y - a.y;
  const int64_t sy = dy < 0 ? -1 : 1;
  dy = dy < 0 ? -dy : dy;
  const bool steep = dy > dx;
  const int64_t major = steep ? dy : dx, minor = steep ? dx : dy;
  // one step along the major axis, one along the minor one
  const int64_t mjx = steep ? 0 : 1, mjy = steep ? sy : 0;
  const int64_t mnx = steep ? 1 : 0, mny = steep ? 0 : sy;
  int64_t x = a.x, y = a.y;
  if (connectivity == 8) {
    int64_t err = major - 2 * minor;
    for (int64_t i = 0; i <= major; ++i) {
      c.put(x, y);
      if (err < 0) {
        err += 2 * major - 2 * minor;
        x += mjx + mnx, y += mjy + mny;
      } else {
        err -= 2 * minor;
        x += mjx, y += mjy;
      }
    }
  } else {
    int64_t err = 0;
    for (int64_t i = 0; i <= major + minor; ++i) {
      c.put(x, y);
      if (err < 0) {
        err += 2 * major;
        x += mnx, y += mny;
      } else {
        err -= 2 * minor;
        x += mjx, y += mjy;
      }
    }
  }
}

// A 1-pixel 8-connected line between fixed-point points (cv2 draws thin lines with shift > 0 so):
// the far end point is rounded and set, then the major axis is walked one pixel at a time from
// the near end while the minor coordinate advances by the slope in fixed point.
void line_fixed(const Canvas& canvas, Pt a, Pt b) {
  const Canvas c = canvas;  // a local copy: see Canvas
  if (!clip_segment(c.w << kShift, c.h << kShift, a, b)) return;
  int64_t dx = b.x - a.x, dy = b.y - a.y;
  const int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  int64_t xs, ys, count;
  if (ax > ay) {
    if (dx < 0) std::swap(a, b), dy = -dy;
    xs = kOne;
    ys = (dy * kOne) / (ax | 1);
    count = (b.x - a.x) >> kShift;
  } else {
    if (dy < 0) std::swap(a, b), dx = -dx;
    xs = (dx * kOne) / (ay | 1);
    ys = kOne;
    count = (b.y - a.y) >> kShift;
  }
  a.x += kOne >> 1;
  a.y += kOne >> 1;
  c.put((b.x + (kOne >> 1)) >> kShift, (b.y + (kOne >> 1)) >> kShift);
  if (ax > ay) {
    int64_t x = a.x >> kShift, y = a.y;
    for (; count >= 0; --count, ++x, y += ys) c.put(x, y >> kShift);
  } else {
    int64_t y = a.y >> kShift, x = a.x;
    for (; count >= 0; --count, ++y, x += xs) c.put(x >> kShift, y);
  }
}

// Weights of cv2's anti-aliased line. Each column (row, for steep lines) of the walk blends three
// pixels across the line with a Gaussian of their distance to it, sampled in 1/32 pixel (kAAFilter:
// entries 0..31 for the centre pixel, 32..63 for the outer ones), scaled by a gain that depends on
// the slope (kAASlopeGain, indexed by the slope in 1/32 up to 45 degrees: a diagonal covers more
// pixels per step, so each gets less). These are the numbers cv2 uses; being data, not code, they
// are what makes the blend bit-exact.
constexpr int kAASlopeGain[32] = {181, 181, 181, 182, 182, 183, 184, 185, 187, 188, 190, 192, 194, 196, 198, 201,
                                  203, 206, 209, 211, 214, 218, 221, 224, 227, 231, 235, 238, 242, 246, 250, 254};
constexpr int kAAFilter[64] = {168, 177, 185, 194, 202, 210, 218, 224, 231, 236, 241, 246, 249, 252, 254, 254,
                               254, 254, 252, 249, 246, 241, 236, 231, 224, 218, 210, 202, 194, 185, 177, 168,
                               158, 149, 140, 131, 122, 114, 105, 97,  89,  82,  75,  68,  62,  56,  50,  45,
                               40,  36,  32,  28,  25,  22,  19,  16,  14,  12,  11,  9,   8,   7,   5,   5};

// Blends the colour into one pixel (inside the image) with weight a/256, twice over (cv2 applies its
// blend step twice, which sharpens the profile; the rounding of each step is kept).
template <int CN>
inline void aa_blend_px(uint8_t* p, const int* cval, int a) {
  for (int k = 0; k < CN; ++k) {
    int v = p[k];
    v += ((cval[k] - v) * a + 127) >> 8;
    v += ((cval[k] - v) * a + 127) >> 8;
    p[k] = static_cast<uint8_t>(v);
  }
}

#if defined(__SSE2__)
// The same double blend on one 3- or 4-channel pixel held as four int32 lanes (SSE2, the x86-64
// baseline): _mm_madd_epi16 of (c - v) with (a, 0) pairs is (c - v) * a exactly, since |c - v| <= 255
// fits the low int16 half of each lane. A third of the scalar ALU work; the same integers.
inline __m128i aa_blend_vec(__m128i v, __m128i cv, __m128i a) {
  const __m128i k127 = _mm_set1_epi32(127);
  v = _mm_add_epi32(v, _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(_mm_sub_epi32(cv, v), a), k127), 8));
  return _mm_add_epi32(v, _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(_mm_sub_epi32(cv, v), a), k127), 8));
}

// One pixel p (CN = 3 or 4 bytes) blended with weight a. A 3-byte pixel is read and written with
// the same 16+8-bit accesses (loads that match earlier stores forward from them; a memcpy of 3
// bytes into a 32-bit local goes through the stack and stalls), never touching its neighbours.
template <int CN>
inline void aa_blend_px_vec(uint8_t* p, __m128i cv, int a) {
  uint32_t raw;
  if (CN == 4) {
    std::memcpy(&raw, p, 4);
  } else {
    uint16_t lo;
    std::memcpy(&lo, p, 2);
    raw = lo | static_cast<uint32_t>(p[2]) << 16;
  }
  const __m128i z = _mm_setzero_si128();
  __m128i v = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(raw)), z), z);
  v = aa_blend_vec(v, cv, _mm_shuffle_epi32(_mm_cvtsi32_si128(a), 0));
  const uint32_t out = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(v, v), z)));
  if (CN == 4) {
    std::memcpy(p, &out, 4);
  } else {
    const uint16_t lo = static_cast<uint16_t>(out);
    std::memcpy(p, &lo, 2);
    p[2] = static_cast<uint8_t>(out >> 16);
  }
}
#endif

// The walk of line_aa (below): one step per whole pixel along the major axis u, blending the three
// pixels across the line. Pointers step along both axes; the bounds are checked per pixel only
// where the three pixels reach past the image (the walk itself stays inside after clipping, u
// checked anyway). 3- and 4-channel pixels take the SSE2 blend where it is available.
template <int CN>
void aa_walk(const Canvas& canvas, bool x_major, int64_t u, int64_t v, int64_t vstep, int64_t left,
             const int (&ends)[3][3]) {
  // a local copy of what the walk reads (see Canvas), without the colour patterns it does not need
  const struct {
    uint8_t* data;
    int64_t w, h, pix, step;
    int cval[4];
  } c = {canvas.data, canvas.w, canvas.h, canvas.pix, canvas.step,
         {canvas.cval[0], canvas.cval[1], canvas.cval[2], canvas.cval[3]}};
  const int64_t ulim = x_major ? c.w : c.h, vlim = x_major ? c.h : c.w;
  const int64_t su = x_major ? c.pix : c.step, sv = x_major ? c.step : c.pix;  // byte strides along u, v
#if defined(__SSE2__)
  constexpr bool kVec = CN == 3 || CN == 4;
  const __m128i cv = _mm_setr_epi32(c.cval[0], c.cval[1], c.cval[2], c.cval[3]);
#endif
  constexpr int64_t kAhead = 12;  // steps: a y-major walk meets a new row (a cache line) at each
  for (int64_t done = 0; left >= 0; ++u, v += vstep, ++done, --left) {
    if (!x_major) {
      if (left > kAhead) prefetch_w(c.data, (u + kAhead) * su + (((v + kAhead * vstep) >> kShift) - 1) * sv);
    } else if ((done & 7) == 0 && left > 32) {
      // an x-major walk moves along three rows: a new cache line of each every 64 / pix steps
      const int64_t off = (u + 32) * su + (((v + 32 * vstep) >> kShift) - 1) * sv;
      prefetch_w(c.data, off), prefetch_w(c.data, off + sv), prefetch_w(c.data, off + 2 * sv);
    }
    if (u < 0 || u >= ulim) continue;
    const int f = ends[done < 2 ? done : 2][left < 2 ? left : 2];
    const int d = static_cast<int>((v >> (kShift - 5)) & 31);
    const int64_t vc = v >> kShift;  // the pixel below (right of) the line's centre
    const int w0 = (f * kAAFilter[d + 32] >> 8) & 0xff, w1 = (f * kAAFilter[d] >> 8) & 0xff,
              w2 = (f * kAAFilter[63 - d] >> 8) & 0xff;
    if (vc >= 1 && vc + 1 < vlim) {
      uint8_t* p = c.data + u * su + (vc - 1) * sv;
#if defined(__SSE2__)
      if constexpr (kVec) {
        aa_blend_px_vec<CN>(p, cv, w0);
        aa_blend_px_vec<CN>(p + sv, cv, w1);
        aa_blend_px_vec<CN>(p + 2 * sv, cv, w2);
        continue;
      }
#endif
      aa_blend_px<CN>(p, c.cval, w0);
      aa_blend_px<CN>(p + sv, c.cval, w1);
      aa_blend_px<CN>(p + 2 * sv, c.cval, w2);
    } else {
      const int w[3] = {w0, w1, w2};
      for (int k = 0; k < 3; ++k) {
        const int64_t vk = vc - 1 + k;
        if (vk >= 0 && vk < vlim) aa_blend_px<CN>(c.data + u * su + vk * sv, c.cval, w[k]);
      }
    }
  }
}

// Anti-aliased 1-pixel line between 16-bit fixed-point points, with cv2's arithmetic: the segment is
// clipped to the image (in fixed point), then walked one pixel at a time along its major axis
// ("u"; "v" is the minor axis) from the whole pixel holding the near end to the one holding the far
// end. At each step the three pixels around the line get kAAFilter weights of the line's position
// in 1/32 pixel, times a per-column factor: the slope gain inside the line, and for the first two
// and last two columns a reduced gain that accounts for the end points' sub-pixel position (in
// 1/16 pixel) so that joined segments do not double up.
void line_aa(Canvas& c, Pt a, Pt b) {
  if (!c.u8 || (c.cn != 1 && c.cn != 3 && c.cn != 4)) {
    // cv2 blends only 1/3/4-channel 8-bit images; others get a plain line between the end points
    // truncated (not rounded) to whole pixels
    line_int(c, {a.x >> kShift, a.y >> kShift}, {b.x >> kShift, b.y >> kShift}, 8);
    return;
  }
  if (!clip_segment(c.w << kShift, c.h << kShift, a, b)) return;
  const bool x_major = std::llabs(b.x - a.x) > std::llabs(b.y - a.y);
  int64_t u0 = x_major ? a.x : a.y, v0 = x_major ? a.y : a.x;
  int64_t u1 = x_major ? b.x : b.y, v1 = x_major ? b.y : b.x;
  if (u1 < u0) std::swap(u0, u1), std::swap(v0, v1);
  const int64_t du = u1 - u0;
  const int64_t vstep = (v1 - v0) * kOne / (du | 1);  // minor-axis advance per pixel, truncated
  u1 += kOne;
  int64_t left = (u1 >> kShift) - (u0 >> kShift);     // steps after the current one
  // the minor coordinate at the start of the first pixel, plus half a pixel
  int64_t v = v0 + ((vstep * -(u0 & (kOne - 1))) >> kShift) + (kOne >> 1);
  int s = static_cast<int>((vstep >> (kShift - 5)) & 0x3f);
  if (vstep < 0) s ^= 0x3f;
  const int gain = (s & 0x20) ? 0x100 : kAASlopeGain[s];
  // end-point factors, indexed [min(steps done, 2)][min(steps left, 2)]
  const int f0 = static_cast<int>((u0 >> (kShift - 7)) & 0x78);  // near end's fraction, 1/16 px << 3
  const int f1 = static_cast<int>((u1 >> (kShift - 7)) & 0x78);  // far end's (+1 px)
  int ends[3][3];
  {
    const int near1 = ((0x78 - f0) | 4) * gain, far1 = (f1 | 4) * gain, full = gain << 7;
    ends[0][0] = 0;
    ends[0][1] = ends[1][0] = ((((f1 - f0) & 0x78) | 4) * gain >> 8) & 0x1ff;
    ends[0][2] = (near1 >> 8) & 0x1ff;
    ends[1][1] = ((((f1 - f0) + 0x80) | 4) * gain >> 8) & 0x1ff;
    ends[1][2] = ((near1 + full) >> 8) & 0x1ff;
    ends[2][0] = (far1 >> 8) & 0x1ff;
    ends[2][1] = ((far1 + full) >> 8) & 0x1ff;
    ends[2][2] = gain;
  }
  switch (c.cn) {
    case 1: aa_walk<1>(c, x_major, u0 >> kShift, v, vstep, left, ends); break;
    case 3: aa_walk<3>(c, x_major, u0 >> kShift, v, vstep, left, ends); break;
    default: aa_walk<4>(c, x_major, u0 >> kShift, v, vstep, left, ends); break;
  }
}

// A filled convex polygon: outline first (so thin slivers still show), then one span per row
// between a left and a right edge that are followed vertex by vertex from the topmost vertex.
// The pixels fill_convex paints for an axis-aligned rectangle with corners on whole pixels and
// LINE_4/LINE_8: the outline is the rectangle's border (every walk below steps along one axis
// only) and the scan fill paints the rows between (all but the last, which the outline holds), so
// together they paint the whole rectangle inside the image, which is filled directly here. This is
// each thick segment of rectangle(), polylines() and drawContours() along an axis.
bool fill_axis_rect(const Canvas& c, const Pt* v, int64_t n, int line_type, int shift) {
  if (n != 4 || line_type >= kAA) return false;
  const int64_t frac = (int64_t(1) << shift) - 1;
  for (int64_t i = 0; i < 4; ++i)
    if ((v[i].x | v[i].y) & frac) return false;
  const bool a = v[0].x == v[3].x && v[1].x == v[2].x && v[0].y == v[1].y && v[2].y == v[3].y;
  const bool b = v[0].x == v[1].x && v[2].x == v[3].x && v[0].y == v[3].y && v[1].y == v[2].y;
  if (!a && !b) return false;
  const int64_t x0 = std::max<int64_t>(std::min(v[0].x, v[2].x) >> shift, 0);
  const int64_t x1 = std::min<int64_t>(std::max(v[0].x, v[2].x) >> shift, c.w - 1);
  const int64_t y0 = std::max<int64_t>(std::min(v[0].y, v[2].y) >> shift, 0);
  const int64_t y1 = std::min<int64_t>(std::max(v[0].y, v[2].y) >> shift, c.h - 1);
  for (int64_t y = y0; x0 <= x1 && y <= y1; ++y) {
    if (y + 8 <= y1) prefetch_w(c.data, (y + 8) * c.step + x0 * c.pix);  // a box's sides: a new row per span
    c.span(y, x0, x1);
  }
  return true;
}

void fill_convex(Canvas& c, const Pt* v, int64_t n, int line_type, int shift) {
  if (n <= 0) return;
  if (fill_axis_rect(c, v, n, line_type, shift)) return;
  const int64_t delta = (int64_t(1) << shift) >> 1;
  const int64_t d1 = line_type < kAA ? (kOne >> 1) : kOne - 1;
  const int64_t d2 = line_type < kAA ? (kOne >> 1) : 0;
  const int up = kShift - shift;
  Pt p0{v[n - 1].x << up, v[n - 1].y << up};
  int64_t xmin = v[0].x, xmax = v[0].x, ymin = v[0].y, ymax = v[0].y;
  int64_t imin = 0;
  for (int64_t i = 0; i < n; ++i) {
    Pt p = v[i];
    if (p.y < ymin) ymin = p.y, imin = i;
    ymax = std::max(ymax, p.y);
    xmax = std::max(xmax, p.x);
    xmin = std::min(xmin, p.x);
    p.x <<= up;
    p.y <<= up;
    if (line_type <= 8) {
      if (shift == 0) line_int(c, {p0.x >> kShift, p0.y >> kShift}, {p.x >> kShift, p.y >> kShift}, line_type);
      else line_fixed(c, p0, p);
    } else {
      line_aa(c, p0, p);
    }
    p0 = p;
  }
  xmin = (xmin + delta) >> shift;
  xmax = (xmax + delta) >> shift;
  ymin = (ymin + delta) >> shift;
  ymax = (ymax + delta) >> shift;
  if (n < 3 || xmax < 0 || ymax < 0 || xmin >= c.w || ymin >= c.h) return;
  ymax = std::min(ymax, c.h - 1);
  struct Side { int64_t idx, di, x, dx, ye; } side[2];
  side[0] = {imin, 1, -kOne, 0, ymin};
  side[1] = {imin, n - 1, -kOne, 0, ymin};
  int64_t budget = n;  // edges left to visit, shared by both sides
  int64_t y = ymin;
  do {
    if (line_type < kAA || y < ymax || y == ymin) {
      for (auto& s : side) {
        if (y < s.ye) continue;
        int64_t i0 = s.idx, i1 = i0 + s.di;
        if (i1 >= n) i1 -= n;
        while (budget-- > 0) {
          const int64_t ty = (v[i1].y + delta) >> shift;
          if (ty > y) {
            const int64_t xs = v[i0].x << up, xe = v[i1].x << up;
            s.ye = ty;
            s.dx = ((xe - xs) * 2 + (ty - y)) / (2 * (ty - y));
            s.x = xs;
            s.idx = i1;
            break;
          }
          i0 = i1;
          i1 += s.di;
          if (i1 >= n) i1 -= n;
        }
      }
    }
    if (budget < 0) break;
    if (y >= 0) {
      const Side& l = side[0].x > side[1].x ? side[1] : side[0];
      const Side& r = side[0].x > side[1].x ? side[0] : side[1];
      int64_t x1 = (l.x + d1) >> kShift, x2 = (r.x + d2) >> kShift;
      if (x2 >= 0 && x1 < c.w) {
        x1 = std::max<int64_t>(x1, 0);
        x2 = std::min<int64_t>(x2, c.w - 1);
        if (x1 <= x2) c.span(y, x1, x2);
      }
    } else {
      // rows above the image draw nothing: step straight to the row before the next edge change (or
      // row 0); the x's advance by the same sums, so huge polygons (thick lines with far sub-pixel
      // end points, which cv2 does not clip) cost their visible rows only
      const int64_t skip = std::min({int64_t(-1), side[0].ye - 1, side[1].ye - 1}) - y;
      if (skip > 0) {
        side[0].x += side[0].dx * skip;
        side[1].x += side[1].dx * skip;
        y += skip;
      }
    }
    side[0].x += side[0].dx;
    side[1].x += side[1].dx;
  } while (++y <= ymax);
}

void fill_convex(Canvas& c, const std::vector<Pt>& v, int line_type, int shift) {
  fill_convex(c, v.data(), static_cast<int64_t>(v.size()), line_type, shift);
}

struct Edge {
  int64_t y0, y1, x, dx;
};

// Edges of a polygon for the even-odd scanline fill (x in 16-bit fixed point, y in pixels), drawing
// its outline on the way as cv2 does.
void collect_edges(Canvas& c, const std::vector<Pt>& v, std::vector<Edge>& edges, int line_type, int shift,
                   Pt offset) {
  const int64_t n = static_cast<int64_t>(v.size());
  if (n == 0) return;
  const int64_t delta = offset.y + ((int64_t(1) << shift) >> 1);
  const int up = kShift - shift;
  auto conv = [&](const Pt& p) { return Pt{(p.x + offset.x) << up, (p.y + delta) >> shift}; };
  Pt p0 = conv(v[n - 1]);
  for (int64_t i = 0; i < n; ++i) {
    const Pt p1 = conv(v[i]);
    // the edge runs through (x0, y0) and (x1, y1): for LINE_AA the exact end points; for LINE_4/8
    // (cv2 5) the outline's own end points, x rounded to whole pixels, and when the outline leaves
    // the image, its clipped end points (keeping the rows when clipping flattens it), so that the
    // fill meets the outline drawn inside the image
    Pt q0 = p0, q1 = p1;
    if (line_type < kAA) {
      Pt t0{(p0.x + (kOne >> 1)) >> kShift, p0.y}, t1{(p1.x + (kOne >> 1)) >> kShift, p1.y};
      line_int(c, t0, t1, line_type);
      if (t0.x < 0 || t0.x >= c.w || t1.x < 0 || t1.x >= c.w || t0.y < 0 || t0.y >= c.h || t1.y < 0 || t1.y >= c.h) {
        clip_segment(c.w, c.h, t0, t1);
        if (t0.y != t1.y) q0.y = t0.y, q1.y = t1.y;
      }
      q0.x = t0.x * kOne, q1.x = t1.x * kOne;
    } else {
      line_aa(c, {p0.x, p0.y * kOne}, {p1.x, p1.y * kOne});
    }
    if (p0.y != p1.y) {
      Edge e;
      e.dx = (q1.x - q0.x) / (q1.y - q0.y);
      if (p0.y < p1.y) e = {p0.y, p1.y, q0.x + (p0.y - q0.y) * e.dx, e.dx};
      else e = {p1.y, p0.y, q1.x + (p1.y - q1.y) * e.dx, e.dx};
      edges.push_back(e);
    }
    p0 = p1;
  }
}

// Even-odd fill of an edge collection: per row, the active edges (kept sorted by x) pair up and
// each pair fills the pixels whose centres lie between them (left end rounded up, right end down).
void fill_edges(Canvas& c, std::vector<Edge>& edges) {
  const int64_t total = static_cast<int64_t>(edges.size());
  if (total < 2) return;
  int64_t ymin = INT64_MAX, ymax = INT64_MIN, xmin = INT64_MAX, xmax = INT64_MIN;
  for (const Edge& e : edges) {
    const int64_t xe = e.x + (e.y1 - e.y0) * e.dx;
    ymin = std::min(ymin, e.y0);
    ymax = std::max(ymax, e.y1);
    xmin = std::min({xmin, e.x, xe});
    xmax = std::max({xmax, e.x, xe});
  }
  if (ymax < 0 || ymin >= c.h || xmax < 0 || xmin >= (c.w << kShift)) return;
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    if (a.y0 != b.y0) return a.y0 < b.y0;
    if (a.x != b.x) return a.x < b.x;
    return a.dx < b.dx;
  });
  ymax = std::min(ymax, c.h);
  std::vector<int64_t> active, next;
  int64_t i = 0;
  for (int64_t y = edges[0].y0; y < ymax; ++y) {
    next.clear();
    size_t k = 0;
    bool draw = false;
    int64_t prev = -1;
    for (;;) {
      const bool have = k < active.size();
      const bool fresh = i < total && edges[i].y0 == y;
      if (!have && !fresh) break;
      if (have && edges[active[k]].y1 == y) {  // the edge ends on this row
        ++k;
        continue;
      }
      int64_t cur;
      if (have && (!fresh || edges[active[k]].x < edges[i].x)) cur = active[k++];
      else if (i < total) cur = i++;
      else break;
      next.push_back(cur);
      if (draw) {
        Edge& a = edges[prev];
        Edge& b = edges[cur];
        if (y >= 0) {
          int64_t x1, x2;
          if (a.x > b.x) x1 = (b.x + kOne - 1) >> kShift, x2 = a.x >> kShift;
          else x1 = (a.x + kOne - 1) >> kShift, x2 = b.x >> kShift;
          if (x1 < c.w && x2 >= 0) {
            x1 = std::max<int64_t>(x1, 0);
            x2 = std::min<int64_t>(x2, c.w - 1);
            if (x1 <= x2) c.span(y, x1, x2);
          }
        }
        a.x += a.dx;
        b.x += b.dx;
      }
      draw = !draw;
      prev = cur;
    }
    std::stable_sort(next.begin(), next.end(), [&](int64_t p, int64_t q) { return edges[p].x < edges[q].x; });
    active.swap(next);
  }
}

// Midpoint circle of integer centre and radius: outline points or filled rows.
void circle_int(const Canvas& canvas, Pt ctr, int64_t r, bool fill) {
  const Canvas c = canvas;  // a local copy: see Canvas
  int64_t err = 0, dx = r, dy = 0, plus = 1, minus = (r << 1) - 1;
  while (dx >= dy) {
    const int64_t y11 = ctr.y - dy, y12 = ctr.y + dy, y21 = ctr.y - dx, y22 = ctr.y + dx;
    const int64_t x11 = ctr.x - dx, x12 = ctr.x + dx, x21 = ctr.x - dy, x22 = ctr.x + dy;
    if (fill) {
      c.clipped_span(y11, x11, x12);
      c.clipped_span(y12, x11, x12);
      c.clipped_span(y21, x21, x22);
      c.clipped_span(y22, x21, x22);
    } else {
      c.put(x11, y11), c.put(x11, y12), c.put(x12, y11), c.put(x12, y12);
      c.put(x21, y21), c.put(x21, y22), c.put(x22, y21), c.put(x22, y22);
    }
    ++dy;
    err += plus;
    plus += 2;
    if (err > 0) {
      err -= minus;
      --dx;
      minus -= 2;
    }
  }
}

// Vertices of an elliptic arc sampled every `delta` degrees (doubles; the public ellipse2Poly and
// the drawing code round them differently).
std::vector<std::pair<double, double>> ellipse_points(double cx, double cy, double aw, double ah, int64_t angle,
                                                      int64_t a0, int64_t a1, int64_t delta) {
  const float* st = sin_table();
  while (angle < 0) angle += 360;
  while (angle > 360) angle -= 360;
  if (a0 > a1) std::swap(a0, a1);
  while (a0 < 0) a0 += 360, a1 += 360;
  while (a1 > 360) a1 -= 360, a0 -= 360;
  if (a1 - a0 > 360) a0 = 0, a1 = 360;
  const int64_t ang = angle < 0 ? angle + 360 : angle;
  const float alpha = st[450 - ang], beta = st[ang];  // cos, sin of the rotation
  std::vector<std::pair<double, double>> pts;
  for (int64_t i = a0; i < a1 + delta; i += delta) {
    int64_t t = std::min(i, a1);
    if (t < 0) t += 360;
    const double x = aw * st[450 - t], y = ah * st[t];
    pts.emplace_back(cx + x * alpha - y * beta, cy + x * beta + y * alpha);
  }
  if (pts.size() == 1) pts.assign(2, {cx, cy});
  return pts;
}

void poly_line(Canvas& c, const std::vector<Pt>& v, bool closed, int64_t thickness, int line_type, int shift);

void ellipse_fixed(Canvas& c, Pt ctr, Pt axes, int64_t angle, int64_t a0, int64_t a1, int64_t thickness,
                   int line_type) {
  axes.x = std::llabs(axes.x), axes.y = std::llabs(axes.y);
  int64_t delta = (std::max(axes.x, axes.y) + (kOne >> 1)) >> kShift;
  delta = delta < 3 ? 90 : delta < 10 ? 30 : delta < 15 ? 18 : 5;
  auto dp = ellipse_points(double(ctr.x), double(ctr.y), double(axes.x), double(axes.y), angle, a0, a1, delta);
  std::vector<Pt> v;
  for (const auto& q : dp) {
    Pt p;
    p.x = round_even(q.first / kOne) << kShift;
    p.y = round_even(q.second / kOne) << kShift;
    p.x += round_even(q.first - p.x);
    p.y += round_even(q.second - p.y);
    if (v.empty() || p != v.back()) v.push_back(p);
  }
  if (v.size() == 1) v.assign(2, ctr);
  if (thickness >= 0) {
    poly_line(c, v, false, thickness, line_type, kShift);
  } else if (a1 - a0 >= 360) {
    fill_convex(c, v, line_type, kShift);
  } else {
    v.push_back(ctr);
    std::vector<Edge> edges;
    collect_edges(c, v, edges, line_type, kShift, {0, 0});
    fill_edges(c, edges);
  }
}

// A filled anti-aliased round cap of radius `half` (fixed point) at ctr: ellipse_fixed(c, ctr,
// {half, half}, 0, 0, 360, -1, line_type) without its heap vectors when the disc is small enough
// for cv2's 90-degree sampling (thin lines' caps: one per segment of every thick AA polyline and
// circle), else that call itself. Same vertices: the same table values, products and rounding.
void round_cap_aa(Canvas& c, Pt ctr, int64_t half, int line_type) {
  half = std::llabs(half);
  if (((half + (kOne >> 1)) >> kShift) >= 3) {
    ellipse_fixed(c, ctr, {half, half}, 0, 0, 360, -1, line_type);
    return;
  }
  const float* st = sin_table();
  const float alpha = st[450], beta = st[0];
  const double cx = double(ctr.x), cy = double(ctr.y), aw = double(half), ah = double(half);
  Pt v[5];
  int64_t n = 0;
  for (int64_t t = 0; t <= 360; t += 90) {
    const double x = aw * st[450 - t], y = ah * st[t];
    const double qx = cx + x * alpha - y * beta, qy = cy + x * beta + y * alpha;
    Pt p;
    p.x = round_even(qx / kOne) << kShift;
    p.y = round_even(qy / kOne) << kShift;
    p.x += round_even(qx - p.x);
    p.y += round_even(qy - p.y);
    if (n == 0 || p != v[n - 1]) v[n++] = p;
  }
  if (n == 1) v[0] = v[1] = ctr, n = 2;
  fill_convex(c, v, n, line_type, kShift);
}

// A line of any thickness: thin ones are rasterised directly; thick ones are a filled rectangle
// along the segment plus round caps (flags bit 0: at p0, bit 1: at p1).
void thick_line(Canvas& c, Pt p0, Pt p1, int64_t thickness, int line_type, int flags, int shift) {
  if (thickness > 1 && shift == 0) {
    // cv2 5 first clips a thick segment with whole-pixel end points (shift == 0) to the image grown
    // by `thickness` on every side; the clipped (truncated) end points then define the band and its
    // caps. Segments with sub-pixel end points are not clipped.
    const int64_t m = thickness;
    Pt a{p0.x + m, p0.y + m}, b{p1.x + m, p1.y + m};
    if (!clip_segment(c.w + 2 * m, c.h + 2 * m, a, b)) return;
    p0 = {a.x - m, a.y - m}, p1 = {b.x - m, b.y - m};
  }
  const int up = kShift - shift;
  p0.x <<= up, p0.y <<= up, p1.x <<= up, p1.y <<= up;
  if (thickness <= 1) {
    if (line_type < kAA) {
      // cv2 5: a thin LINE_8 (or LINE_4 with shift 0) line is rounded to whole pixels and walked
      // with Bresenham; a LINE_4 line with sub-pixel end points takes the fixed-point walk
      if (line_type == 8 || line_type == 1 || shift == 0) {
        line_int(c, {(p0.x + (kOne >> 1)) >> kShift, (p0.y + (kOne >> 1)) >> kShift},
                 {(p1.x + (kOne >> 1)) >> kShift, (p1.y + (kOne >> 1)) >> kShift}, line_type);
      } else {
        line_fixed(c, p0, p1);
      }
    } else {
      line_aa(c, p0, p1);
    }
    return;
  }
  const double dx = (p0.x - p1.x) / double(kOne), dy = (p1.y - p0.y) / double(kOne);
  double r = dx * dx + dy * dy;
  const int64_t odd = thickness & 1;
  const int64_t half = thickness << (kShift - 1);
  if (std::fabs(r) > DBL_EPSILON) {
    r = (half + odd * kOne * 0.5) / std::sqrt(r);
    const Pt d{round_even(dy * r), round_even(dx * r)};
    const Pt q[4] = {{p0.x + d.x, p0.y + d.y}, {p0.x - d.x, p0.y - d.y},
                     {p1.x - d.x, p1.y - d.y}, {p1.x + d.x, p1.y + d.y}};
    fill_convex(c, q, 4, line_type, kShift);
  }
  for (int i = 0; i < 2; ++i) {
    if (flags & (i + 1)) {
      if (line_type < kAA) {
        const Pt ctr{(p0.x + (kOne >> 1)) >> kShift, (p0.y + (kOne >> 1)) >> kShift};
        circle_int(c, ctr, (half + (kOne >> 1)) >> kShift, true);
      } else {
        round_cap_aa(c, p0, half, line_type);
      }
    }
    p0 = p1;
  }
}

void poly_line(Canvas& c, const std::vector<Pt>& v, bool closed, int64_t thickness, int line_type, int shift) {
  const size_t n = v.size();
  if (n == 0) return;
  int flags = closed ? 2 : 3;
  Pt p0 = v[closed ? n - 1 : 0];
  for (size_t i = closed ? 0 : 1; i < n; ++i) {
    thick_line(c, p0, v[i], thickness, line_type, flags, shift);
    p0 = v[i];
    flags = 2;
  }
}

void circle_cmd(Canvas& c, Pt ctr, int64_t r, int64_t thickness, int line_type, int shift) {
  if (thickness > 1 || line_type != 8 || shift > 0) {
    const int up = kShift - shift;
    ellipse_fixed(c, {ctr.x << up, ctr.y << up}, {r << up, r << up}, 0, 0, 360, thickness, line_type);
  } else {
    circle_int(c, ctr, r, thickness < 0);
  }
}

template <typename T>
T saturate(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    const double r = std::nearbyint(v);
    if (!(r > static_cast<double>(std::numeric_limits<T>::min()))) return std::numeric_limits<T>::min();
    if (!(r < static_cast<double>(std::numeric_limits<T>::max()))) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}

}  // namespace

void draw_commands(char* data, int64_t h, int64_t w, int64_t step, int cn, DType dt, const int64_t* ints,
                   size_t nints, const double* col) {
  const int64_t isz = static_cast<int64_t>(itemsize(dt));
  if (h == 0 || w == 0) return;
    Canvas c{};
    c.data = reinterpret_cast<uint8_t*>(data);
    c.h = h, c.w = w, c.pix = cn * isz, c.step = step, c.cn = cn;
    c.u8 = dt == DType::UInt8;
    dispatch_dtype(dt, [&](auto zero) {
      using T = decltype(zero);
      for (int k = 0; k < cn; ++k) {
        T v = saturate<T>(col[k]);
        std::memcpy(c.color + k * isz, &v, sizeof(T));
      }
      return 0;
    });
    c.set_color();
    for (int k = 0; k < 4; ++k) c.cval[k] = static_cast<int>(saturate<uint8_t>(col[k]));
    size_t pos = 0;
    // the stream comes from mnn/cv/_drawing.py; a short one (a bug there) throws instead of reading past it
    auto next = [&]() {
      if (pos >= nints) throw ValueError("[mnn.cv.draw] truncated command stream");
      return ints[pos++];
    };
    // cv2 anti-aliases on 8-bit images only and draws LINE_8 on the others (mnn/cv/_drawing.py
    // passes the caller's line type on)
    auto next_lt = [&]() {
      const int lt = static_cast<int>(next());
      return lt == kAA && !c.u8 ? 8 : lt;
    };
    Pt off{0, 0};  // OFFSET: added to the points of the POLYLINE commands that follow
    auto points = [&](int64_t n) {
      std::vector<Pt> v(static_cast<size_t>(n));
      for (auto& p : v) p.x = next(), p.y = next();
      return v;
    };
    while (pos < nints) {
      const int64_t cmd = next();
      switch (cmd) {
        case 0: {
          Pt a{next(), next()}, b{next(), next()};
          int64_t th = next();
          int lt = next_lt(), sh = static_cast<int>(next());
          thick_line(c, a, b, th, lt, 3, sh);
          break;
        }
        case 1: {
          bool closed = next() != 0;
          int64_t th = next();
          int lt = next_lt(), sh = static_cast<int>(next());
          std::vector<Pt> v = points(next());
          for (auto& p : v) p.x += off.x, p.y += off.y;
          poly_line(c, v, closed, th, lt, sh);
          break;
        }
        case 2: {
          int lt = next_lt(), sh = static_cast<int>(next());
          fill_convex(c, points(next()), lt, sh);
          break;
        }
        case 3: {
          int lt = next_lt(), sh = static_cast<int>(next());
          Pt off{next(), next()};
          int64_t nc = next();
          std::vector<Edge> edges;
          for (int64_t k = 0; k < nc; ++k) collect_edges(c, points(next()), edges, lt, sh, off);
          fill_edges(c, edges);
          break;
        }
        case 4: {
          Pt ctr{next(), next()};
          int64_t r = next(), th = next();
          int lt = next_lt(), sh = static_cast<int>(next());
          circle_cmd(c, ctr, r, th, lt, sh);
          break;
        }
        case 5: {
          Pt ctr{next(), next()}, ax{next(), next()};
          int64_t ang = next(), a0 = next(), a1 = next(), th = next();
          int lt = next_lt();
          ellipse_fixed(c, ctr, ax, ang, a0, a1, th, lt);
          break;
        }
        case 6: {
          int64_t th = next();
          int lt = next_lt();
          int64_t nc = next();
          for (int64_t k = 0; k < nc; ++k) {
            std::vector<Pt> v = points(next());
            for (size_t i = 0; i < v.size(); ++i) thick_line(c, v[i], v[(i + 1) % v.size()], th, lt, 2, 0);
          }
          break;
        }
        case 7:
          off.x = next(), off.y = next();
          break;
        default:
          throw ValueError("[mnn.cv.draw] bad command " + std::to_string(cmd));  // unreachable: the stream is built by mnn/cv/_drawing.py
      }
    }
}

namespace {

class DrawKernel final : public backend::Kernel {
 public:
  explicit DrawKernel(const backend::StepDesc& s) : ints_(s.params->ints), col_(s.params->floats) {
    const Shape& sh = s.inputs[0].shape;
    h_ = sh[0], w_ = sh[1];
    cn_ = sh.size() == 3 ? static_cast<int>(sh[2]) : 1;
    dt_ = s.inputs[0].dtype;
    isz_ = static_cast<int64_t>(itemsize(dt_));
  }

  void run(char* const* in, char* out) override {
    const size_t bytes = static_cast<size_t>(h_ * w_ * cn_ * isz_);
    if (out != in[0] && bytes) std::memcpy(out, in[0], bytes);
    draw_commands(out, h_, w_, w_ * cn_ * isz_, cn_, dt_, ints_.data(), ints_.size(), col_.data());
  }

 private:
  std::vector<int64_t> ints_;
  std::vector<double> col_;
  int64_t h_, w_, isz_;
  int cn_;
  DType dt_;
};

std::unique_ptr<backend::Kernel> prepare_draw(const backend::StepDesc& s) { return std::make_unique<DrawKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_draw, "cv_draw", &prepare_draw);

}  // namespace mnn::cpu
