// cv_color_5x5 (shape rule: ops/cv/color_ext.cpp): 16-bit packed BGR565 / BGR555 to and from
// BGR(A)/RGB(A) and gray, with cv2's bit layout and arithmetic.
//
// A packed pixel is one little-endian uint16 stored as 2 uint8 channels: blue in bits 0-4, green
// in 5-10 (565) or 5-9 (555), red in 11-15 or 10-14; 555 keeps an alpha bit in bit 15 (set when
// the source alpha is non-zero; decodes to 255 or 0). Unpacking shifts the field to the top of
// the byte and leaves the low bits zero (no replication), as cv2 does. Gray uses cv2's 15-bit
// weights on the unpacked channels. Compiled once per ISA (simd/): the loops are per-pixel code
// the compiler vectorises, with AVX2 loops for the colour ones.
#include <cstdint>
#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

constexpr int kGrayShift = 15, kRY = 9798, kGY = 19235, kBY = 3735;  // sum 1 << 15

inline uint16_t load16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
inline void store16(uint8_t* p, unsigned v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}

// The three 8-bit channels (b, g, r) of a packed pixel.
inline void unpack(unsigned t, bool g6, unsigned& b, unsigned& g, unsigned& r) {
  b = (t << 3) & 0xf8;
  if (g6) {
    g = (t >> 3) & 0xfc;
    r = (t >> 8) & 0xf8;
  } else {
    g = (t >> 2) & 0xf8;
    r = (t >> 7) & 0xf8;
  }
}

#if defined(__AVX2__)
// x >> n for n >= 0, x << -n otherwise (n a constant).
template <int n>
inline __m256i shr(__m256i x) {
  if constexpr (n >= 0) return _mm256_srli_epi32(x, n);
  else return _mm256_slli_epi32(x, -n);
}

// 16 pixels a step, each 32-bit lane one pixel's bytes, so every field is one shift and mask;
// returns the pixels done. The 3-channel loads read 4 bytes past their 8 pixels (hence the
// 2-pixel margin).
template <int scn, int bidx, bool g6>
int64_t to_packed_avx2(const uint8_t* s, uint8_t* d, int64_t n) {
  const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                          0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
  auto load8 = [&](const uint8_t* p) {
    if constexpr (scn == 4) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 12)), 1);
    return _mm256_shuffle_epi8(v, spread);
  };
  constexpr int rpos = 8 * (bidx ^ 2);
  const __m256i mb = _mm256_set1_epi32(0x1f), mg = _mm256_set1_epi32(g6 ? 0x7e0 : 0x3e0),
                mr = _mm256_set1_epi32(g6 ? 0xf800 : 0x7c00), abit = _mm256_set1_epi32(0x8000);
  auto pack8 = [&](__m256i x) {
    __m256i v = _mm256_or_si256(_mm256_and_si256(shr<8 * bidx + 3>(x), mb),
                                _mm256_and_si256(shr<g6 ? 5 : 6>(x), mg));
    v = _mm256_or_si256(v, _mm256_and_si256(shr<rpos - (g6 ? 8 : 7)>(x), mr));
    if constexpr (scn == 4 && !g6)
      v = _mm256_or_si256(v, _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_srli_epi32(x, 24), _mm256_setzero_si256()), abit));
    return v;
  };
  const int64_t margin = scn == 3 ? 2 : 0;
  int64_t i = 0;
  for (; i + 16 + margin <= n; i += 16) {
    const __m256i v = _mm256_packus_epi32(pack8(load8(s + scn * i)), pack8(load8(s + scn * (i + 8))));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 2 * i), _mm256_permute4x64_epi64(v, 0xD8));
  }
  return i;
}
#endif

template <int scn, int bidx, bool g6>
void to_packed_t(const uint8_t* s, uint8_t* d, int64_t n, bool) {
#if defined(__AVX2__)
  const int64_t done = to_packed_avx2<scn, bidx, g6>(s, d, n);
  s += scn * done, d += 2 * done, n -= done;
#endif
  for (int64_t i = 0; i < n; ++i, s += scn, d += 2) {
    const unsigned b = s[bidx], g = s[1], r = s[bidx ^ 2];
    unsigned v;
    if (g6) v = (b >> 3) | ((g & ~3u) << 3) | ((r & ~7u) << 8);
    else v = (b >> 3) | ((g & ~7u) << 2) | ((r & ~7u) << 7) | (scn == 4 && s[3] ? 0x8000u : 0u);
    store16(d, v);
  }
}

#if defined(__AVX2__)
// 8 pixels a step: each packed value widened to a 32-bit lane and its fields shifted straight to
// their output byte; a 3-channel result drops byte 3 in each 128-bit lane and joins the lanes
// (24 bytes in dwords 0-5). With nt (a footprint past the caches, as color.cpp's
// stream_output), 32 pixels a step from the first 32-byte aligned output on, their four 24-byte
// results merged into whole aligned registers for streaming stores.
template <int dcn, int bidx, bool g6>
int64_t from_packed_avx2(const uint8_t* s, uint8_t* d, int64_t n, bool nt) {
  constexpr int bpos = 8 * bidx, rpos = 8 * (bidx ^ 2);
  const __m256i mb = _mm256_set1_epi32(0xf8 << bpos), mg = _mm256_set1_epi32(g6 ? 0xfc00 : 0xf800),
                mr = _mm256_set1_epi32(0xf8 << rpos), a255 = _mm256_set1_epi32(int(0xff000000u));
  const __m256i drop = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  auto px8 = [&](const uint8_t* p) {  // 8 pixels as 32 bytes (4 channels) or 24 bytes in dwords 0-5
    const __m256i x = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    __m256i v = _mm256_or_si256(_mm256_and_si256(shr<-(3 + bpos)>(x), mb), _mm256_and_si256(shr<g6 ? -5 : -6>(x), mg));
    v = _mm256_or_si256(v, _mm256_and_si256(shr<(g6 ? 8 : 7) - rpos>(x), mr));
    if constexpr (dcn == 4) {
      return _mm256_or_si256(v, g6 ? a255 : _mm256_and_si256(_mm256_srai_epi32(_mm256_slli_epi32(x, 16), 31), a255));
    } else {
      return _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, drop), join);
    }
  };
  int64_t i = 0;
  if (nt && (reinterpret_cast<uintptr_t>(d) & 31) == 0) {  // the caller aligned d
    // a (bytes 0-23) + b (0-7); b (8-23) + c (0-15); c (16-23) + e (0-23), as dword permutes + blends
    const __m256i b_to0 = _mm256_setr_epi32(0, 0, 0, 0, 0, 0, 0, 1), b_to1 = _mm256_setr_epi32(2, 3, 4, 5, 0, 0, 0, 0);
    const __m256i c_to1 = _mm256_setr_epi32(0, 0, 0, 0, 0, 1, 2, 3), c_to2 = _mm256_setr_epi32(4, 5, 0, 0, 0, 0, 0, 0);
    const __m256i e_to2 = _mm256_setr_epi32(0, 0, 0, 1, 2, 3, 4, 5);
    for (; i + 32 <= n; i += 32) {
      const uint8_t* p = s + 2 * i;
      __m256i* o = reinterpret_cast<__m256i*>(d + dcn * i);
      const __m256i a = px8(p), b = px8(p + 16), c = px8(p + 32), e = px8(p + 48);
      if constexpr (dcn == 4) {
        _mm256_stream_si256(o, a), _mm256_stream_si256(o + 1, b), _mm256_stream_si256(o + 2, c), _mm256_stream_si256(o + 3, e);
      } else {
        _mm256_stream_si256(o, _mm256_blend_epi32(a, _mm256_permutevar8x32_epi32(b, b_to0), 0xC0));
        _mm256_stream_si256(o + 1, _mm256_blend_epi32(_mm256_permutevar8x32_epi32(b, b_to1), _mm256_permutevar8x32_epi32(c, c_to1), 0xF0));
        _mm256_stream_si256(o + 2, _mm256_blend_epi32(_mm256_permutevar8x32_epi32(c, c_to2), _mm256_permutevar8x32_epi32(e, e_to2), 0xFC));
      }
    }
    _mm_sfence();
  }
  for (; i + 8 <= n; i += 8) {
    const __m256i p = px8(s + 2 * i);
    if constexpr (dcn == 4) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 4 * i), p);
    } else {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 3 * i), _mm256_castsi256_si128(p));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(d + 3 * i + 16), _mm256_extracti128_si256(p, 1));
    }
  }
  return i;
}
#endif

template <int dcn, int bidx, bool g6>
void from_packed_scalar(const uint8_t* s, uint8_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i, s += 2, d += dcn) {
    const unsigned t = load16(s);
    unsigned b, g, r;
    unpack(t, g6, b, g, r);
    d[bidx] = static_cast<uint8_t>(b);
    d[1] = static_cast<uint8_t>(g);
    d[bidx ^ 2] = static_cast<uint8_t>(r);
    if (dcn == 4) d[3] = g6 ? 255 : (t & 0x8000 ? 255 : 0);
  }
}

template <int dcn, int bidx, bool g6>
void from_packed_t(const uint8_t* s, uint8_t* d, int64_t n, bool nt) {
#if defined(__AVX2__)
  if (nt) {  // pixels up to the first 32-byte aligned output, so the streaming stores can start
    int64_t head = 0;
    while (head < n && head < 32 && (reinterpret_cast<uintptr_t>(d + dcn * head) & 31) != 0) ++head;
    from_packed_scalar<dcn, bidx, g6>(s, d, head);
    s += 2 * head, d += dcn * head, n -= head;
  }
  const int64_t done = from_packed_avx2<dcn, bidx, g6>(s, d, n, nt);
  s += 2 * done, d += dcn * done, n -= done;
#else
  (void)nt;
#endif
  from_packed_scalar<dcn, bidx, g6>(s, d, n);
}

template <bool g6>
void gray_to_packed_t(const uint8_t* s, uint8_t* d, int64_t n, bool) {
  for (int64_t i = 0; i < n; ++i, d += 2) {
    const unsigned t = s[i], t3 = t >> 3;
    store16(d, g6 ? (t3 | ((t & ~3u) << 3) | (t3 << 11)) : (t3 | (t3 << 5) | (t3 << 10)));
  }
}

template <bool g6>
void packed_to_gray_t(const uint8_t* s, uint8_t* d, int64_t n, bool) {
  for (int64_t i = 0; i < n; ++i, s += 2) {
    unsigned b, g, r;
    unpack(load16(s), g6, b, g, r);
    d[i] = static_cast<uint8_t>((b * kBY + g * kGY + r * kRY + (1u << (kGrayShift - 1))) >> kGrayShift);
  }
}

// The layout as template arguments: constant strides and field positions are what lets the
// compiler vectorise these loops (interleaved loads / stores), per ISA.
using RowFn = void (*)(const uint8_t*, uint8_t*, int64_t, bool);

template <bool g6>
RowFn pick_g(int dir, int cn, int bidx) {
  switch (dir) {
    case 0:
      if (cn == 3) return bidx == 0 ? &to_packed_t<3, 0, g6> : &to_packed_t<3, 2, g6>;
      return bidx == 0 ? &to_packed_t<4, 0, g6> : &to_packed_t<4, 2, g6>;
    case 1:
      if (cn == 3) return bidx == 0 ? &from_packed_t<3, 0, g6> : &from_packed_t<3, 2, g6>;
      return bidx == 0 ? &from_packed_t<4, 0, g6> : &from_packed_t<4, 2, g6>;
    case 2: return &gray_to_packed_t<g6>;
    default: return &packed_to_gray_t<g6>;
  }
}

class Packed16Kernel final : public backend::Kernel {
 public:
  explicit Packed16Kernel(const backend::StepDesc& s) {
    const auto& p = s.params->ints;
    dir_ = int(p[0]), cn_ = int(p[1]), bidx_ = int(p[2]), g6_ = p[3] == 6;
    npix_ = s.inputs[0].shape[0] * s.inputs[0].shape[1];
  }

  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    const int scn = dir_ == 0 ? cn_ : dir_ == 2 ? 1 : 2;
    const int dcn = dir_ == 1 ? cn_ : dir_ == 3 ? 1 : 2;
    const RowFn fn = g6_ ? pick_g<true>(dir_, cn_, bidx_) : pick_g<false>(dir_, cn_, bidx_);
    // decoding to 3 / 4 channels streams its stores past the caches for large images (the
    // footprint rule of color.cpp's stream_output: 1080p BGR5652BGR is 10 MB)
    const bool nt = dir_ == 1 && npix_ * (scn + dcn) >= (int64_t(6) << 20);
    parallel_for(npix_, int64_t(1) << 15, [&](int64_t lo, int64_t hi) { fn(src + lo * scn, dst + lo * dcn, hi - lo, nt); });
  }

 private:
  int dir_ = 0, cn_ = 3, bidx_ = 0;
  bool g6_ = true;
  int64_t npix_ = 0;
};

std::unique_ptr<backend::Kernel> prepare_packed16(const backend::StepDesc& s) { return std::make_unique<Packed16Kernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_color_5x5, "cv_color_5x5", &prepare_packed16);

}  // namespace mnn::cpu::MNN_ISA_NS
