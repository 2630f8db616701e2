// HSV/HLS conversions of the cv_color kernel (see color_hsv.h).
//
// Each conversion has a per-pixel scalar reference (the scalar target's path, and every target's
// row tail) and AVX2 / AVX-512 versions that run the same float32 steps in 8 / 16 lanes, in the
// same order: this file is built with -ffp-contract=off (CMakeLists.txt's MNN_FP_FLAGS), so a
// product and a sum stay two roundings unless the reference itself uses an fma. Every target gives
// the scalar target's bytes (tests/cv/test_hsv_speed11.py checks all 2^24 inputs).
#include "backends/cpu/simd/cv/color_hsv.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE__) || defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

namespace mnn::cpu::MNN_ISA_NS {

namespace {

constexpr float kEps = std::numeric_limits<float>::epsilon();

inline uint8_t satf_u8(float v) {
  int i = static_cast<int>(std::lrint(v));
  return static_cast<uint8_t>(i < 0 ? 0 : i > 255 ? 255 : i);
}
inline uint8_t trunc_u8(float v) {
  int i = static_cast<int>(v);
  return static_cast<uint8_t>(i < 0 ? 0 : i > 255 ? 255 : i);
}

// ---------------------------------------------------------------------------------------------
// scalar references

inline void rgb2hsv_f(float r, float g, float b, float hscale, float& h, float& s, float& v) {
  float vmax = std::max(std::max(r, g), b), vmin = std::min(std::min(r, g), b);
  float diff = vmax - vmin;
  v = vmax;
  s = diff / (std::fabs(vmax) + kEps);
  diff = 60.f / (diff + kEps);
  if (vmax == r) h = (g - b) * diff;
  else if (vmax == g) h = (b - r) * diff + 120.f;
  else h = (r - g) * diff + 240.f;
  if (h < 0) h += 360.f;
  h *= hscale;
}

inline void rgb2hls_f(float r, float g, float b, float hscale, float& h, float& l, float& s) {
  float vmax = std::max(std::max(r, g), b), vmin = std::min(std::min(r, g), b);
  float diff = vmax - vmin;
  l = (vmax + vmin) * 0.5f;
  h = 0.f;
  s = 0.f;
  if (diff > kEps) {
    s = l < 0.5f ? diff / (vmax + vmin) : diff / (2.f - vmax - vmin);
    diff = 60.f / diff;
    if (vmax == r) h = (g - b) * diff;
    else if (vmax == g) h = (b - r) * diff + 120.f;
    else h = (r - g) * diff + 240.f;
    if (h < 0.f) h += 360.f;
  }
  h *= hscale;
}

// Which of (t0, t1, t2, t3) each of b, g, r takes in each hue sector.
const int kSector[6][3] = {{1, 3, 0}, {1, 0, 2}, {3, 0, 1}, {0, 2, 1}, {0, 1, 3}, {2, 1, 0}};

// The scaled hue into [0, 6). cv2 adds or subtracts 6 until it gets there, which never ends for
// an infinite hue or one so large that h - 6 rounds back to h (cv2 hangs on those), and takes
// millions of steps past 2^24. fmod is exact, so it gives the loop's bits wherever the loop's
// steps are exact (|h| < 2^24, including the final rounding of h + 6 for a negative h); inf
// becomes NaN, which the sector check maps to sector 0 as it does NaN.
inline float wrap_hue(float h) {
  if (h < 0.f || h >= 6.f) {
    h = std::fmod(h, 6.f);
    if (h < 0.f) h += 6.f;
    if (h == 0.f) h = 0.f;  // the loop ends on +0, fmod can give -0
  }
  return h;
}

inline void hsv2rgb_f(float h, float s, float v, float hscale, float& b, float& g, float& r) {
  if (s == 0) {
    b = g = r = v;
    return;
  }
  float tab[4];
  h *= hscale;
  h = wrap_hue(h);
  int sector = static_cast<int>(std::floor(h));
  h -= sector;
  if (static_cast<unsigned>(sector) >= 6u) sector = 0, h = 0.f;
  tab[0] = v;
  tab[1] = v * (1.f - s);
  // cv2's AVX2 build contracts `1 - s*h` into one fused multiply-add (its scalar tail too): plain
  // float arithmetic rounded ~1 in 7000 uint8 pixels the other way (55 instead of 56)
  tab[2] = v * std::fma(-s, h, 1.f);
  tab[3] = v * std::fma(-s, 1.f - h, 1.f);
  b = tab[kSector[sector][0]];
  g = tab[kSector[sector][1]];
  r = tab[kSector[sector][2]];
}

inline void hls2rgb_f(float h, float l, float s, float hscale, float& b, float& g, float& r) {
  if (s == 0) {
    b = g = r = l;
    return;
  }
  float tab[4];
  float p2 = l <= 0.5f ? l * (1 + s) : l + s - l * s;
  float p1 = 2 * l - p2;
  h *= hscale;
  h = wrap_hue(h);
  int sector = static_cast<int>(std::floor(h));
  h -= sector;
  if (static_cast<unsigned>(sector) >= 6u) sector = 0, h = 0.f;
  tab[0] = p2;
  tab[1] = p1;
  tab[2] = p1 + (p2 - p1) * (1 - h);
  tab[3] = p1 + (p2 - p1) * h;
  b = tab[kSector[sector][0]];
  g = tab[kSector[sector][1]];
  r = tab[kSector[sector][2]];
}

// cv2 converts most pixels of a row with its SIMD code and the rest with scalar code, and the
// two round differently. These reproduce the SIMD variants pixel by pixel (muladd is a fused
// multiply-add in cv2's AVX2 build); the callers pick a variant from the pixel's place in its row.
inline void rgb2hls_vec(float r, float g, float b, float hscale, float& h, float& l, float& s) {
  float mx = std::max(std::max(r, g), b), mn = std::min(std::min(r, g), b);
  float diff = mx - mn, msum = mx + mn;
  l = msum * 0.5f;
  s = diff / (l < 0.5f ? msum : 2.0f - msum);
  float hh = mx == r ? g - b : mx == g ? b - r : r - g;
  float part = mx == r ? (g < b ? 360.f : 0.f) : mx == g ? 120.f : 240.f;
  float inv = 60.f / diff;
  h = std::fma(hh, inv, part) * hscale;
  if (!(diff > kEps)) h = 0.f, s = 0.f;
}

// HSV2RGB_simd: sector from truncation, selected without tables.
inline void hsv2rgb_vec(float h, float s, float v, float hscale, float& b, float& g, float& r) {
  h *= hscale;
  float pre = std::trunc(h);
  h -= pre;
  float t0 = v, t1 = v * (1.f - s), t2 = v * std::fma(-s, h, 1.f), t3 = v * std::fma(-s, 1.f - h, 1.f);
  float sec = std::trunc(pre * (1.0f / 6.0f));
  sec = pre - sec * 6.f;
  b = sec < 2 ? t1 : sec == 2 ? t3 : sec == 3 ? t0 : sec == 4 ? t0 : t2;
  g = sec < 1 ? t3 : sec == 1 ? t0 : sec == 2 ? t0 : sec == 3 ? t2 : t1;
  r = sec < 1 ? t0 : sec == 1 ? t2 : sec == 2 ? t1 : sec == 3 ? t1 : sec == 4 ? t3 : t0;
}

inline void hls2rgb_vec(float h, float l, float s, float hscale, float& b, float& g, float& r) {
  float ls = l * s;
  float e0 = l <= 0.5f ? ls : s - ls;
  float raw = h * hscale;
  float pre = std::trunc(raw);
  float hs = raw - pre;
  float sec = pre - 6.0f * std::trunc(raw * (1.0f / 6.0f));
  float e1 = hs + hs;
  float t0 = l + e0, t1 = l - e0, t2 = (l + e0) - e0 * e1, t3 = (l - e0) + e0 * e1;
  b = sec < 2 ? t1 : sec <= 2 ? t3 : sec <= 4 ? t0 : t2;
  g = sec < 1 ? t3 : sec <= 2 ? t0 : sec < 4 ? t2 : t1;
  r = sec < 1 ? t0 : sec < 2 ? t2 : sec < 4 ? t1 : sec <= 4 ? t3 : t0;
}

constexpr int kBlock = 256;  // cv2's BLOCK_SIZE: HLS converts rows in chunks of this many pixels
constexpr int kVecF = 8;     // float lanes of cv2's AVX2 build

// The pixels of a uint8 row that cv2's HLS code (both ways) converts with its SIMD variant: every
// 256-pixel block but the last is a multiple of 8, so all but the row's last n % 8.
inline int hls_vec_count(int n) { return n - n % kVecF; }

void hls_px_u8(const uint8_t* p, uint8_t* q, int bidx, float hscale, bool vec) {
  float r = p[bidx ^ 2] * (1.f / 255.f), g = p[1] * (1.f / 255.f), b = p[bidx] * (1.f / 255.f);
  float h, l, sv;
  if (vec) rgb2hls_vec(r, g, b, hscale, h, l, sv);
  else rgb2hls_f(r, g, b, hscale, h, l, sv);
  q[0] = satf_u8(h);
  q[1] = satf_u8(l * 255.f);
  q[2] = satf_u8(sv * 255.f);
}

void hsv_inv_px_u8(const uint8_t* p, uint8_t* q, int dcn, int bidx, float hscale, bool vec) {
  float h = p[0], x = p[1] * (1.f / 255.f), y = p[2] * (1.f / 255.f), b, g, r;
  if (vec) {
    hsv2rgb_vec(h, x, y, hscale, b, g, r);
    q[bidx] = trunc_u8(b * 255.f), q[1] = trunc_u8(g * 255.f), q[bidx ^ 2] = trunc_u8(r * 255.f);
  } else {
    hsv2rgb_f(h, x, y, hscale, b, g, r);
    q[bidx] = satf_u8(b * 255.f), q[1] = satf_u8(g * 255.f), q[bidx ^ 2] = satf_u8(r * 255.f);
  }
  if (dcn == 4) q[3] = 255;
}

void hls_inv_px_u8(const uint8_t* p, uint8_t* q, int dcn, int bidx, float hscale, bool vec) {
  float h = p[0], l = p[1] * (1.f / 255.f), sv = p[2] * (1.f / 255.f), b, g, r;
  if (vec) hls2rgb_vec(h, l, sv, hscale, b, g, r);
  else hls2rgb_f(h, l, sv, hscale, b, g, r);
  q[bidx] = satf_u8(b * 255.f), q[1] = satf_u8(g * 255.f), q[bidx ^ 2] = satf_u8(r * 255.f);
  if (dcn == 4) q[3] = 255;
}

#if defined(__SSE__) || defined(__x86_64__) || defined(_M_X64)
// cv2 on x86 hands uint8 BGR/RGB -> HLS_FULL to IPP, whose hue scale is 255 (OpenCV's own code,
// used where IPP is not, has 256). Its arithmetic, fitted over all 2^24 colours against cv2 5.0
// with IPP on (tools: black-box tables, no IPP source):
//  - the first n - n % 8 pixels of a row (its vector code): L = rint((max + min) / 2), half to
//    even; S = rint(float(d * rcp(den)) * 255), d = max - min, den = max + min where that is
//    <= 255, else 510 - (max + min); H = rint(float(h * float(255/360))) with h = (num * rcp(d) +
//    {0, 2, 4}) * 60, +360 if negative, num the difference of the two other channels; all in
//    float32, rcp the processor's approximate reciprocal (rcpps), whose values this CPU's
//    instruction gives here too. Exact on every colour.
//  - the last n % 8 pixels (its scalar code): L = (max + min) >> 1 exactly; S and H the same
//    formulas truncated, with a true division: all but 2.4% (S) and 0.25% (H) of colours exact,
//    the rest one level away from IPP's.
// One float32 multiply or subtract that the compiler can neither fuse into an fma (the FMA
// targets contract a*b+c) nor reassociate: IPP's code rounds each of them.
inline float mul_r(float a, float b) {
#if defined(__AVX__)
  asm("vmulss %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
#else
  asm("mulss %1, %0" : "+x"(a) : "xm"(b));
#endif
  return a;
}
inline float sub_r(float a, float b) {
#if defined(__AVX__)
  asm("vsubss %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
#else
  asm("subss %1, %0" : "+x"(a) : "xm"(b));
#endif
  return a;
}
inline float add_r(float a, float b) {
#if defined(__AVX__)
  asm("vaddss %2, %1, %0" : "=x"(a) : "x"(a), "xm"(b));
#else
  asm("addss %1, %0" : "+x"(a) : "xm"(b));
#endif
  return a;
}

const float* ipp_rcp_table() {
  static const std::array<float, 512> t = [] {
    std::array<float, 512> r{};
    for (int i = 0; i < 512; i += 4)
      _mm_storeu_ps(r.data() + i, _mm_rcp_ps(_mm_setr_ps(float(i), float(i + 1), float(i + 2), float(i + 3))));
    return r;
  }();
  return t.data();
}

void hls_full_ipp_px_u8(const uint8_t* p, uint8_t* q, int bidx, const float* rcp, bool vec) {
  const int r = p[bidx ^ 2], g = p[1], b = p[bidx];
  const int mx = std::max(std::max(r, g), b), mn = std::min(std::min(r, g), b);
  const int d = mx - mn, sum = mx + mn, den = sum <= 255 ? sum : 510 - sum;
  const int num = mx == r ? g - b : mx == g ? b - r : r - g;
  const float off = mx == r ? 0.f : mx == g ? 2.f : 4.f;
  if (vec) {
    q[1] = static_cast<uint8_t>(std::nearbyint(sum * 0.5f));
    if (d == 0) {
      q[0] = q[2] = 0;
      return;
    }
    const float sv = float(d) * rcp[den];
    q[2] = static_cast<uint8_t>(std::nearbyint(sv * 255.f));
    float h = mul_r(add_r(mul_r(float(num), rcp[d]), off), 60.f);
    if (h < 0.f) h += 360.f;
    q[0] = static_cast<uint8_t>(std::nearbyint(h * (255.f / 360.f)));
  } else {
    q[1] = static_cast<uint8_t>(sum >> 1);
    if (d == 0) {
      q[0] = q[2] = 0;
      return;
    }
    q[2] = static_cast<uint8_t>(std::trunc((float(d) / float(den)) * 255.f));
    float h = (float(num) / float(d) + off) * 60.f;
    if (h < 0.f) h += 360.f;
    q[0] = static_cast<uint8_t>(std::trunc(h * (255.f / 360.f)));
  }
}

// cv2 on x86 hands uint8 HSV_FULL -> BGR/RGB to IPP as well. Its arithmetic, fitted the same way
// (all 2^24 inputs): h = H * float(1/255) * 6, sector i = floor(h), f = h - i, s = S * float(1/255),
// and the channels V, V (1 - s), V (1 - s f), V (1 - s (1 - f)) on the 0..255 scale, each step a
// float32 rounding, then rint. Equal to cv2 on all but 53 of the 2^24 inputs (one level, on
// values within 2e-5 of a half), where IPP's own evaluation order is not known.
void hsv_full_ipp_inv_px_u8(const uint8_t* p, uint8_t* q, int dcn, int bidx) {
  const float h = mul_r(mul_r(float(p[0]), 1.f / 255.f), 6.f);
  const float sat = mul_r(float(p[1]), 1.f / 255.f), v = float(p[2]);
  const float fl = std::floor(h);
  const int sector = static_cast<int>(fl) % 6;
  const float f = sub_r(h, fl);
  const float m = mul_r(v, sub_r(1.f, sat));
  const float nn = mul_r(v, sub_r(1.f, mul_r(sat, f)));
  const float kk = mul_r(v, sub_r(1.f, mul_r(sat, sub_r(1.f, f))));
  float r, g, b;
  switch (sector) {
    case 0: r = v, g = kk, b = m; break;
    case 1: r = nn, g = v, b = m; break;
    case 2: r = m, g = v, b = kk; break;
    case 3: r = m, g = nn, b = v; break;
    case 4: r = kk, g = m, b = v; break;
    default: r = v, g = m, b = nn; break;
  }
  q[bidx] = static_cast<uint8_t>(std::nearbyint(b));
  q[1] = static_cast<uint8_t>(std::nearbyint(g));
  q[bidx ^ 2] = static_cast<uint8_t>(std::nearbyint(r));
  if (dcn == 4) q[3] = 255;
}
#endif

}  // namespace
}  // namespace mnn::cpu::MNN_ISA_NS

#include "backends/cpu/simd/cv/color_hsv_simd.h"

namespace mnn::cpu::MNN_ISA_NS {

// ---------------------------------------------------------------------------------------------
// row entry points: the vector code (when the target has one) takes the pixels it can, the
// scalar reference the rest.

void hls_row_u8(const uint8_t* s, uint8_t* d, int n, int scn, int bidx, int hrange) {
  const float hscale = hrange / 360.f;
  const int nvec = hls_vec_count(n);
  int k = hsv_simd::hls_fwd_u8(s, d, nvec, n, scn, bidx, hscale);
  for (; k < n; ++k) hls_px_u8(s + size_t(k) * scn, d + size_t(k) * 3, bidx, hscale, k < nvec);
}

void hsv_inv_row_u8(const uint8_t* s, uint8_t* d, int n, int dcn, int bidx, int hrange, bool hls) {
  const float hscale = 6.f / hrange;
  if (!hls) {
    // cv2's HSV2RGB SIMD code takes 4 vectors (32 pixels) at a time
    const int nvec = n / (4 * kVecF) * (4 * kVecF);
    int k = hsv_simd::hsv_inv_u8(s, d, nvec, dcn, bidx, hscale);
    for (; k < n; ++k) hsv_inv_px_u8(s + size_t(k) * 3, d + size_t(k) * dcn, dcn, bidx, hscale, k < nvec);
    return;
  }
  const int nvec = hls_vec_count(n);
  int k = hsv_simd::hls_inv_u8(s, d, nvec, dcn, bidx, hscale);
  for (; k < n; ++k) hls_inv_px_u8(s + size_t(k) * 3, d + size_t(k) * dcn, dcn, bidx, hscale, k < nvec);
}

#if defined(__SSE__) || defined(__x86_64__) || defined(_M_X64)
void hls_full_ipp_row_u8(const uint8_t* s, uint8_t* d, int n, int scn, int bidx) {
  const float* rcp = ipp_rcp_table();
  const int nvec = n - n % 8;
  int k = hsv_simd::hls_full_ipp_u8(s, d, nvec, n, scn, bidx);
  for (; k < n; ++k) hls_full_ipp_px_u8(s + size_t(k) * scn, d + size_t(k) * 3, bidx, rcp, k < nvec);
}

void hsv_full_ipp_inv_row_u8(const uint8_t* s, uint8_t* d, int n, int dcn, int bidx) {
  int k = hsv_simd::hsv_full_ipp_inv_u8(s, d, n, dcn, bidx);
  for (; k < n; ++k) hsv_full_ipp_inv_px_u8(s + size_t(k) * 3, d + size_t(k) * dcn, dcn, bidx);
}
#endif

// With nt, the pixels before the destination's first 64-byte aligned one (at most 15) go
// through the reference, so that the vector code streams whole aligned lines.
int64_t aligned_head(const float* d, int ch, int64_t n) {
  for (int64_t k = 0; k < 16 && k <= n; ++k)
    if ((reinterpret_cast<uintptr_t>(d + k * ch) & 63) == 0) return k;
  return -1;  // never aligned (d not on a 16-byte boundary with 4 channels)
}

void hsv_run_f32(const float* s, float* d, int64_t n, int scn, int bidx, int hrange, bool hls, bool nt) {
  const float hscale = hrange / 360.f;
  auto ref = [&](int64_t count) {
    for (int64_t k = 0; k < count; ++k, s += scn, d += 3) {
      if (hls) rgb2hls_f(s[bidx ^ 2], s[1], s[bidx], hscale, d[0], d[1], d[2]);
      else rgb2hsv_f(s[bidx ^ 2], s[1], s[bidx], hscale, d[0], d[1], d[2]);
    }
  };
  int64_t head = nt ? aligned_head(d, 3, n) : 0;
  if (head < 0) head = 0, nt = false;
  ref(head);
  n -= head;
  const int64_t done = hsv_simd::hsv_fwd_f32(s, d, n, scn, bidx, hscale, hls, nt);
  s += done * scn;
  d += done * 3;
  ref(n - done);
}

void hsv_inv_run_f32(const float* s, float* d, int64_t n, int dcn, int bidx, int hrange, bool hls, bool nt) {
  const float hscale = 6.f / hrange;
  auto ref = [&](int64_t i, int64_t stop) {
    for (; i < stop; ++i) {
      const float* p = s + i * 3;
      float* q = d + i * dcn;
      float b, g, r;
      if (hls) hls2rgb_f(p[0], p[1], p[2], hscale, b, g, r);
      else hsv2rgb_f(p[0], p[1], p[2], hscale, b, g, r);
      q[bidx] = b, q[1] = g, q[bidx ^ 2] = r;
      if (dcn == 4) q[3] = 1.f;
    }
  };
  int64_t i = nt ? aligned_head(d, dcn, n) : 0;
  if (i < 0) i = 0, nt = false;
  ref(0, i);
  while (i < n) {
    // the vector code stops at a block whose hue needs the reference's wrap-around loop: that
    // block (16 pixels, which keeps the destination's alignment) goes through the reference
    i += hsv_simd::hsv_inv_f32(s + i * 3, d + i * dcn, n - i, dcn, bidx, hscale, hls, nt);
    const int64_t stop = std::min<int64_t>(n, i + 16);
    ref(i, stop);
    i = stop;
  }
}

}  // namespace mnn::cpu::MNN_ISA_NS
