// cv2's VNG demosaicing (variable number of gradients), reproduced bit for bit on uint8.
//
// For every site, eight directional gradients (N, S, W, E and the diagonals) are sums of
// absolute differences over the 5x5 neighbourhood (seven per-row gradient planes, then sums of
// two or four of them). The directions whose gradient is below T = min + max(max / 2, 1) vote:
// each adds its estimate of the two missing colours and of the site's own colour, and a missing
// colour is the site's value plus the mean difference, rounded half to even in float32.
//
// As cv2 5.0 does, the image is first extended by 2 pixels on every side (reflect-101, which keeps
// the Bayer phase), so every pixel gets the full scheme. cv2 computes 8 sites at a time in SIMD
// (after one scalar site when a row starts on green, while 10 padded columns remain), where the
// mean's 1/(2n) factor is 0.5f / n; its scalar path uses a table whose n = 7 entry is another
// float (0.0714286f), so a difference of 7 (mod 14) over 7 votes rounds the other way there.
// Both are reproduced, so the result equals cv2's bit for bit. Compiled once per ISA (simd/):
// on AVX2 targets cv2's 8-site blocks are computed 8 lanes at a time too (vng_block8), other
// targets run every site through the scalar code with the same per-site factor.
#include "backends/cpu/simd/cv/color_bayer_vng.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "core/threadpool.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

constexpr int kPlanes = 7;
constexpr int kSimdBlock = 8, kSimdNeed = 10;  // cv2's 128-bit loop: 8 sites while i <= w - 10

// Columns 1 .. w - 2 of the seven planes; every array a restrict parameter, which is what lets
// the compiler vectorise the loop (GCC ignores restrict on local pointers).
void gradient_cols(const uint8_t* __restrict u, const uint8_t* __restrict m, const uint8_t* __restrict l, int64_t w,
                   uint16_t* __restrict p0, uint16_t* __restrict p1, uint16_t* __restrict p2, uint16_t* __restrict p3,
                   uint16_t* __restrict p4, uint16_t* __restrict p5, uint16_t* __restrict p6) {
  for (int64_t i = 1; i < w - 1; ++i) {
    auto ad = [](int a, int b) { return a > b ? a - b : b - a; };
    const int up = u[i], dn = l[i], lf = m[i - 1], rt = m[i + 1];
    const int ul = u[i - 1], ur = u[i + 1], dl = l[i - 1], dr = l[i + 1];
    p0[i] = uint16_t(ad(ul, dl) + ad(up, dn) * 2 + ad(ur, dr));
    p1[i] = uint16_t(ad(ul, ur) + ad(lf, rt) * 2 + ad(dl, dr));
    const int d2 = ad(ur, dl) * 2, d3 = ad(ul, dr) * 2;
    p2[i] = uint16_t(d2);
    p3[i] = uint16_t(d3);
    p4[i] = uint16_t(d2 + ad(up, lf) + ad(dn, rt));
    p5[i] = uint16_t(d3 + ad(up, rt) + ad(dn, lf));
    p6[i] = uint16_t((up + lf + rt + dn) >> 1);
  }
}

// The seven gradient planes of source row r, columns 1 .. w - 2 (0 and w - 1 stay 0).
void gradient_row(const uint8_t* src, int64_t w, int64_t r, uint16_t* p) {
  std::fill(p, p + kPlanes * w, uint16_t(0));
  gradient_cols(src + (r - 1) * w, src + r * w, src + (r + 1) * w, w, p, p + w, p + 2 * w, p + 3 * w, p + 4 * w,
                p + 5 * w, p + 6 * w);
}

inline int round_even(float v) { return static_cast<int>(std::nearbyint(v)); }

inline uint8_t sat(int v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

#if defined(__AVX2__)
// Eight sites i .. i + 7 of one row as cv2's SIMD loop computes them (k = 0.5f / n), one site per
// 32-bit lane: both kinds of site are computed and blended by the lane's parity (green when
// green ^ (lane & 1)). Same integer sums, the same float multiply and round-half-even
// conversion as the scalar code, so the bytes are identical.
void vng_block8(const uint8_t* src, int64_t w, int64_t c, int64_t i, const uint16_t* b0, const uint16_t* b1,
                const uint16_t* b2, uint8_t* o, int blue_idx, bool green) {
  const uint8_t* s = src + c * w + i;
  const int64_t bs = w;
  auto S = [&](int64_t off) { return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(s + off))); };
  auto P = [&](const uint16_t* b, int plane, int off) {
    return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + plane * w + i + off)));
  };
  auto add = [](__m256i x, __m256i y) { return _mm256_add_epi32(x, y); };
  auto dbl = [](__m256i x) { return _mm256_slli_epi32(x, 1); };
  const __m256i G = green ? _mm256_setr_epi32(-1, 0, -1, 0, -1, 0, -1, 0) : _mm256_setr_epi32(0, -1, 0, -1, 0, -1, 0, -1);
  auto sel = [&](__m256i rb, __m256i gr) { return _mm256_blendv_epi8(rb, gr, G); };
  const __m256i gN = add(P(b0, 0, 0), P(b1, 0, 0)), gS = add(P(b1, 0, 0), P(b2, 0, 0));
  const __m256i gW = add(P(b1, 1, -1), P(b1, 1, 0)), gE = add(P(b1, 1, 0), P(b1, 1, 1));
  const __m256i gNE = sel(add(P(b0, 4, 1), P(b1, 4, 0)), add(add(P(b0, 2, 0), P(b0, 2, 1)), add(P(b1, 2, 0), P(b1, 2, 1))));
  const __m256i gSW = sel(add(P(b1, 4, 0), P(b2, 4, -1)), add(add(P(b1, 2, 0), P(b1, 2, -1)), add(P(b2, 2, 0), P(b2, 2, -1))));
  const __m256i gNW = sel(add(P(b0, 5, -1), P(b1, 5, 0)), add(add(P(b0, 3, 0), P(b0, 3, -1)), add(P(b1, 3, 0), P(b1, 3, -1))));
  const __m256i gSE = sel(add(P(b1, 5, 0), P(b2, 5, 1)), add(add(P(b1, 3, 0), P(b1, 3, 1)), add(P(b2, 3, 0), P(b2, 3, 1))));
  const __m256i mn = _mm256_min_epi32(_mm256_min_epi32(_mm256_min_epi32(gN, gS), _mm256_min_epi32(gW, gE)),
                                      _mm256_min_epi32(_mm256_min_epi32(gNE, gSW), _mm256_min_epi32(gNW, gSE)));
  const __m256i mx = _mm256_max_epi32(_mm256_max_epi32(_mm256_max_epi32(gN, gS), _mm256_max_epi32(gW, gE)),
                                      _mm256_max_epi32(_mm256_max_epi32(gNE, gSW), _mm256_max_epi32(gNW, gSE)));
  const __m256i T = add(mn, _mm256_max_epi32(_mm256_srli_epi32(mx, 1), _mm256_set1_epi32(1)));
  const __m256i s0 = S(0);
  __m256i own = _mm256_setzero_si256(), va = own, vb = own, ng = own;
  auto vote = [&](__m256i g, __m256i o_, __m256i x, __m256i y) {
    const __m256i m = _mm256_cmpgt_epi32(T, g);
    own = add(own, _mm256_and_si256(m, o_));
    va = add(va, _mm256_and_si256(m, x));
    vb = add(vb, _mm256_and_si256(m, y));
    ng = _mm256_sub_epi32(ng, m);
  };
  const int64_t n2 = 2 * bs;
  vote(gN, add(S(-n2), s0), sel(dbl(S(-bs)), add(S(-n2 - 1), S(-n2 + 1))), sel(add(S(-bs - 1), S(-bs + 1)), dbl(S(-bs))));
  vote(gS, add(S(n2), s0), sel(dbl(S(bs)), add(S(n2 - 1), S(n2 + 1))), sel(add(S(bs - 1), S(bs + 1)), dbl(S(bs))));
  vote(gW, add(S(-2), s0), dbl(S(-1)), sel(add(S(-bs - 1), S(bs - 1)), add(S(-bs - 2), S(bs - 2))));
  vote(gE, add(S(2), s0), dbl(S(1)), sel(add(S(-bs + 1), S(bs + 1)), add(S(-bs + 2), S(bs + 2))));
  vote(gNE, sel(add(S(-n2 + 2), s0), dbl(S(-bs + 1))), sel(P(b0, 6, 1), add(S(-n2 + 1), S(1))),
       sel(dbl(S(-bs + 1)), add(S(-bs), S(-bs + 2))));
  vote(gSW, sel(add(S(n2 - 2), s0), dbl(S(bs - 1))), sel(P(b2, 6, -1), add(S(n2 - 1), S(-1))),
       sel(dbl(S(bs - 1)), add(S(bs), S(bs - 2))));
  vote(gNW, sel(add(S(-n2 - 2), s0), dbl(S(-bs - 1))), sel(P(b0, 6, -1), add(S(-n2 - 1), S(-1))),
       sel(dbl(S(-bs - 1)), add(S(-bs - 2), S(-bs))));
  vote(gSE, sel(add(S(n2 + 2), s0), dbl(S(bs + 1))), sel(P(b2, 6, 1), add(S(n2 + 1), S(1))),
       sel(dbl(S(bs + 1)), add(S(bs + 2), S(bs))));
  const __m256 k = _mm256_div_ps(_mm256_set1_ps(0.5f), _mm256_cvtepi32_ps(ng));
  const __m256i x = add(s0, _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(va, own)), k)));
  const __m256i y = add(s0, _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(vb, own)), k)));
  auto clamp = [](__m256i v) { return _mm256_min_epi32(_mm256_max_epi32(v, _mm256_setzero_si256()), _mm256_set1_epi32(255)); };
  const __m256i R = clamp(sel(s0, x)), Gc = clamp(sel(x, s0)), B = clamp(y);
  const __m256i px = _mm256_or_si256(_mm256_or_si256(blue_idx == 0 ? B : R, _mm256_slli_epi32(Gc, 8)),
                                     _mm256_slli_epi32(blue_idx == 0 ? R : B, 16));
  const __m256i drop = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  const __m256i p = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(px, drop), _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o), _mm256_castsi256_si128(p));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(o + 16), _mm256_extracti128_si256(p, 1));
}
#endif

// One output row around row c of the padded image (width w): planes of rows c - 1, c, c + 1;
// d receives padded columns 2 .. w - 3 (the image's columns).
void vng_row(const uint8_t* src, int64_t w, int64_t c, const uint16_t* b0, const uint16_t* b1, const uint16_t* b2,
             uint8_t* d, int blue_idx, bool green) {
  static const float kScalar[9] = {0.f, 0.5f, 0.25f, 0.1666666666667f, 0.125f, 0.1f, 0.08333333333f, 0.0714286f, 0.0625f};
  const int64_t N = w, N2 = 2 * w, N3 = 3 * w, N4 = 4 * w, N5 = 5 * w, N6 = 6 * w;
  const int64_t simd_from = green ? 3 : 2;  // cv2 runs one scalar green site first
  for (int64_t i = 2; i < w - 2; ++i, green = !green) {
#if defined(__AVX2__)
    // cv2's SIMD blocks: 8 sites from simd_from on while 10 padded columns remain; 8 sites keep
    // the parity, so the loop's flip is undone here
    if (i >= simd_from && (i - simd_from) % kSimdBlock == 0 && i <= w - kSimdNeed) {
      vng_block8(src, w, c, i, b0, b1, b2, d + (i - 2) * 3, blue_idx, green);
      i += kSimdBlock - 1;
      green = !green;
      continue;
    }
#endif
    const uint8_t* s = src + c * w + i;
    const int64_t bs = w;
    const int gN = b0[i] + b1[i], gS = b1[i] + b2[i], gW = b1[N + i - 1] + b1[N + i], gE = b1[N + i] + b1[N + i + 1];
    int gNE, gSW, gNW, gSE;
    if (!green) {
      gNE = b0[N4 + i + 1] + b1[N4 + i];
      gSW = b1[N4 + i] + b2[N4 + i - 1];
      gNW = b0[N5 + i - 1] + b1[N5 + i];
      gSE = b1[N5 + i] + b2[N5 + i + 1];
    } else {
      gNE = b0[N2 + i] + b0[N2 + i + 1] + b1[N2 + i] + b1[N2 + i + 1];
      gSW = b1[N2 + i] + b1[N2 + i - 1] + b2[N2 + i] + b2[N2 + i - 1];
      gNW = b0[N3 + i] + b0[N3 + i - 1] + b1[N3 + i] + b1[N3 + i - 1];
      gSE = b1[N3 + i] + b1[N3 + i + 1] + b2[N3 + i] + b2[N3 + i + 1];
    }
    const int mn = std::min({gN, gS, gW, gE, gNE, gSW, gNW, gSE});
    const int mx = std::max({gN, gS, gW, gE, gNE, gSW, gNW, gSE});
    const int T = mn + std::max(mx / 2, 1);
    // own: the site's colour sums; a, b: the two other colours (G and B at red/blue sites,
    // R and B at green sites, R meaning the colour of the row's red/blue sites)
    int own = 0, a = 0, b = 0, ng = 0;
    auto vote = [&](int g, int o, int x, int y) {
      if (g < T) own += o, a += x, b += y, ++ng;
    };
    if (!green) {
      vote(gN, s[-2 * bs] + s[0], s[-bs] * 2, s[-bs - 1] + s[-bs + 1]);
      vote(gS, s[2 * bs] + s[0], s[bs] * 2, s[bs - 1] + s[bs + 1]);
      vote(gW, s[-2] + s[0], s[-1] * 2, s[-bs - 1] + s[bs - 1]);
      vote(gE, s[2] + s[0], s[1] * 2, s[-bs + 1] + s[bs + 1]);
      vote(gNE, s[-2 * bs + 2] + s[0], b0[N6 + i + 1], s[-bs + 1] * 2);
      vote(gSW, s[2 * bs - 2] + s[0], b2[N6 + i - 1], s[bs - 1] * 2);
      vote(gNW, s[-2 * bs - 2] + s[0], b0[N6 + i - 1], s[-bs - 1] * 2);
      vote(gSE, s[2 * bs + 2] + s[0], b2[N6 + i + 1], s[bs + 1] * 2);
    } else {
      vote(gN, s[-2 * bs] + s[0], s[-2 * bs - 1] + s[-2 * bs + 1], s[-bs] * 2);
      vote(gS, s[2 * bs] + s[0], s[2 * bs - 1] + s[2 * bs + 1], s[bs] * 2);
      vote(gW, s[-2] + s[0], s[-1] * 2, s[-bs - 2] + s[bs - 2]);
      vote(gE, s[2] + s[0], s[1] * 2, s[-bs + 2] + s[bs + 2]);
      vote(gNE, s[-bs + 1] * 2, s[-2 * bs + 1] + s[1], s[-bs] + s[-bs + 2]);
      vote(gSW, s[bs - 1] * 2, s[2 * bs - 1] + s[-1], s[bs] + s[bs - 2]);
      vote(gNW, s[-bs - 1] * 2, s[-2 * bs - 1] + s[-1], s[-bs - 2] + s[-bs]);
      vote(gSE, s[bs + 1] * 2, s[2 * bs + 1] + s[1], s[bs + 2] + s[bs]);
    }
    const int64_t block = simd_from + (i - simd_from) / kSimdBlock * kSimdBlock;  // its SIMD block's first site
    const bool simd = i >= simd_from && block <= w - kSimdNeed;
    const float k = simd ? 0.5f / float(ng) : kScalar[ng];
    const int v = s[0];
    const int x = v + round_even(float(a - own) * k), y = v + round_even(float(b - own) * k);
    uint8_t* o = d + (i - 2) * 3;
    int R, G, B;
    if (!green) R = v, G = x, B = y;
    else G = v, R = x, B = y;
    o[blue_idx] = sat(B);
    o[1] = sat(G);
    o[blue_idx ^ 2] = sat(R);
  }
}

}  // namespace

void bayer_vng_u8(const uint8_t* src, uint8_t* dst, int64_t h, int64_t w, int blue_idx, bool green0) {
  // reflect-101 by 2: -1 -> 1, -2 -> 2, n -> n - 2, n + 1 -> n - 3 (h, w >= 8)
  const int64_t ph = h + 4, pw = w + 4;
  auto refl = [](int64_t k, int64_t n) { return k < 0 ? -k : k >= n ? 2 * n - 2 - k : k; };
  std::vector<uint8_t> pad(size_t(ph) * pw);
  for (int64_t y = 0; y < ph; ++y) {
    const uint8_t* s = src + refl(y - 2, h) * w;
    uint8_t* d = pad.data() + y * pw;
    std::memcpy(d + 2, s, w);
    d[0] = s[2], d[1] = s[1], d[w + 2] = s[w - 2], d[w + 3] = s[w - 3];
  }
  const int64_t row = w * 3;
  parallel_for(h, std::max<int64_t>(1, 2048 / w), [&](int64_t r0, int64_t r1) {
    std::vector<uint16_t> planes(size_t(3) * kPlanes * pw);
    uint16_t* p[3] = {planes.data(), planes.data() + kPlanes * pw, planes.data() + 2 * kPlanes * pw};
    int64_t have = -10;  // padded row whose planes are in p[1]
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t c = r + 2;
      if (have == c - 1) {
        std::rotate(p, p + 1, p + 3);
        gradient_row(pad.data(), pw, c + 1, p[2]);
      } else {
        gradient_row(pad.data(), pw, c - 1, p[0]);
        gradient_row(pad.data(), pw, c, p[1]);
        gradient_row(pad.data(), pw, c + 1, p[2]);
      }
      have = c;
      const bool odd = (r & 1) != 0;
      vng_row(pad.data(), pw, c, p[0], p[1], p[2], dst + r * row, odd ? blue_idx ^ 2 : blue_idx, green0 != odd);
    }
  });
}

}  // namespace mnn::cpu::MNN_ISA_NS
