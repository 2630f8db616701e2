// cv_color_5x5 (shape rule: ops/cv/color_ext.cpp): 16-bit packed BGR565 / BGR555 to and from
// BGR(A)/RGB(A) and gray, with cv2's bit layout and arithmetic.
//
// A packed pixel is one little-endian uint16 stored as 2 uint8 channels: blue in bits 0-4, green
// in 5-10 (565) or 5-9 (555), red in 11-15 or 10-14; 555 keeps an alpha bit in bit 15 (set when
// the source alpha is non-zero; decodes to 255 or 0). Unpacking shifts the field to the top of
// the byte and leaves the low bits zero (no replication), as cv2 does. Gray uses cv2's 15-bit
// weights on the unpacked channels. The loops are plain per-pixel code the compiler vectorises.
#include <cstdint>
#include <cstring>

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

template <int scn, int bidx, bool g6>
void to_packed_t(const uint8_t* s, uint8_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i, s += scn, d += 2) {
    const unsigned b = s[bidx], g = s[1], r = s[bidx ^ 2];
    unsigned v;
    if (g6) v = (b >> 3) | ((g & ~3u) << 3) | ((r & ~7u) << 8);
    else v = (b >> 3) | ((g & ~7u) << 2) | ((r & ~7u) << 7) | (scn == 4 && s[3] ? 0x8000u : 0u);
    store16(d, v);
  }
}

template <int dcn, int bidx, bool g6>
void from_packed_t(const uint8_t* s, uint8_t* d, int64_t n) {
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

template <bool g6>
void gray_to_packed_t(const uint8_t* s, uint8_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i, d += 2) {
    const unsigned t = s[i], t3 = t >> 3;
    store16(d, g6 ? (t3 | ((t & ~3u) << 3) | (t3 << 11)) : (t3 | (t3 << 5) | (t3 << 10)));
  }
}

template <bool g6>
void packed_to_gray_t(const uint8_t* s, uint8_t* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i, s += 2) {
    unsigned b, g, r;
    unpack(load16(s), g6, b, g, r);
    d[i] = static_cast<uint8_t>((b * kBY + g * kGY + r * kRY + (1u << (kGrayShift - 1))) >> kGrayShift);
  }
}

// The layout as template arguments: constant strides and field positions are what lets the
// compiler vectorise these loops (interleaved loads / stores), per ISA.
using RowFn = void (*)(const uint8_t*, uint8_t*, int64_t);

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
    parallel_for(npix_, int64_t(1) << 15, [&](int64_t lo, int64_t hi) { fn(src + lo * scn, dst + lo * dcn, hi - lo); });
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
