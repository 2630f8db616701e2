// CPU kernel of cv_sepf32 (shape rule: ops/cv/filter_sep.cpp): float32 -> float32 separable
// filtering (GaussianBlur and sepFilter2D on float32 images) in cv2's own float32 arithmetic, so
// the results are cv2's bits instead of a correctly rounded double sum that differs from them.
//
// cv2 (AVX2 dispatch of filter.simd.hpp; checked bit for bit against the installed cv2) runs a row
// pass into a float32 buffer, then a column pass. Which expression each element gets depends on
// the kernel's symmetry, its size and where the element falls in the row of W*cn elements: the
// first W*cn - (W*cn) % 8 go through the SIMD code (FMA), the last (W*cn) % 8 through the scalar
// C++ loops, which the compiler contracted to FMA in some places and not in others. The table
// (S: source taps, C centre, Lq/Rq the taps q left/right of it, k_q = kernel[centre + q]):
//
//   row, symmetric, n = 3 or 5 (SymmRowSmallFilter):
//     SIMD and pairs of the tail: fma(C, k0, (L1 + R1) * k1), then fma(R2 + L2, k2, .) for n = 5;
//       k = (1, +-2, 1) pairs: (L1 +- 2C) + R1; k = (1, 0, -2, 0, 1) pairs: (-2C + L2) + R2
//     a last odd element: k0 * C, then n = 3: fma(R1 + L1, k1, .); n = 5: + k1(R1+L1) + k2(R2+L2)
//   row, otherwise (RowFilter): s = S0 k0, s = fma(Sj, kj, s) left to right (SIMD, quads);
//     a last single element: the first 4 * floor((n-1)/4) taps after S0 as s + kj Sj, then fma
//   row, n = 1: k0 * S0
//   column, symmetric, n = 3 (SymmColumnSmallFilter): SIMD fma(L1 + R1, k1, fma(C, k0, delta))
//     (k = (1, +-2, 1): fma(C, k0, (L1 + R1) + delta)); tail: fma(L1 + R1, k1, C k0) + delta
//     (k = (1, +-2, 1): ((L1 +- 2C) + R1) + delta)
//   column, symmetric, other n: SIMD fma(C, k0, delta), fma(Rq + Lq, kq, .); tail fma(C, k0,
//     delta), then + kq (Rq + Lq), each product and sum rounded
//   column, neither symmetric nor antisymmetric (ColumnFilter, no SIMD): fma(S0, k0, delta), then
//     + kj Sj rounded
//   row, antisymmetric (k_-q = -k_q), n = 3: (R1 - L1) k1 (a last odd element fma(R1 - L1, k1,
//     k0 C)); n = 5: SIMD fma(R2 - L2, k2, (R1 - L1) k1), tail pairs fma(R1 - L1, k1, (R2 - L2) k2),
//     a last odd element k0 C + k1 (R1 - L1) + k2 (R2 - L2); n >= 7: RowFilter as above
//   column, antisymmetric: SIMD s = delta, fma(Rq - Lq, kq, s); tail the same for n = 3, else
//     delta + kq (Rq - Lq), each rounded
// Every operation is
// float32 with one rounding: std::fma is exact in every ISA target and -ffp-contract=off keeps the
// plain products and sums apart, so all targets give the same bits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

inline int64_t bmap32(int64_t p, int64_t n, int mode) {
  if (p >= 0 && p < n) return p;
  switch (mode) {
    case 0: return -1;
    case 1: return p < 0 ? 0 : n - 1;
    case 3: return ((p % n) + n) % n;
    case 2:
      if (n == 1) return 0;
      do { p = p < 0 ? -p - 1 : 2 * n - p - 1; } while (p < 0 || p >= n);
      return p;
    default:
      if (n == 1) return 0;
      do { p = p < 0 ? -p : 2 * n - p - 2; } while (p < 0 || p >= n);
      return p;
  }
}

inline float fma_(float a, float b, float c) { return std::fma(a, b, c); }

// kRowU8: a uint8 source (sepFilter2D of uint8 into float32): cv2's RowFilter<uchar, float,
// RowVec_8u32f> for every kernel, whose SIMD part (the first W*cn - (W*cn) % 32) is fma(S0, k0, +0)
// then fma(Sj, kj, s), and whose scalar loops are k0 S0 then s + kj Sj, every step rounded
enum RowKind { kRowCopyish, kRowSym3, kRowSym5, kRowAsym3, kRowAsym5, kRowGen, kRowU8 };
enum ColKind { kColSym3, kColSym, kColAsym3, kColAsym, kColGen };

class Sepf32Kernel final : public backend::Kernel {
 public:
  explicit Sepf32Kernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    nx_ = i[0], ny_ = i[1], ax_ = i[2], ay_ = i[3];
    border_ = static_cast<int>(i[4]);
    std::vector<double> kx(f.begin(), f.begin() + nx_), ky(f.begin() + nx_, f.begin() + nx_ + ny_);
    delta_ = static_cast<float>(f[nx_ + ny_]);
    for (double v : kx) kx_.push_back(static_cast<float>(v));
    for (double v : ky) ky_.push_back(static_cast<float>(v));
    const Shape& sh = s.inputs[0].shape;
    h_ = sh[0], w_ = sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
    // cv2's getKernelType runs on the kernels as given (double here), before the float conversion
    // (a kernel both symmetric and antisymmetric, all zeros, takes cv2's symmetric branches)
    const bool rsym = symmetric(kx, ax_, 1), rasym = !rsym && symmetric(kx, ax_, -1);
    if (nx_ == 1) rk_ = kRowCopyish;
    else if (rsym && nx_ <= 5) rk_ = nx_ == 3 ? kRowSym3 : kRowSym5;
    else if (rasym && nx_ <= 5) rk_ = nx_ == 3 ? kRowAsym3 : kRowAsym5;
    else rk_ = kRowGen;
    u8_ = s.inputs[0].dtype == DType::UInt8;
    if (u8_) rk_ = kRowU8;
    const bool csym = symmetric(ky, ay_, 1), casym = !csym && symmetric(ky, ay_, -1);
    if (csym) ck_ = ny_ == 3 ? kColSym3 : kColSym;
    else if (casym) ck_ = ny_ == 3 ? kColAsym3 : kColAsym;
    else ck_ = kColGen;
  }

  void run(char* const* in, char* out) override {
    if (u8_) run_f(nullptr, reinterpret_cast<const uint8_t*>(in[0]), reinterpret_cast<float*>(out));
    else run_f(reinterpret_cast<const float*>(in[0]), nullptr, reinterpret_cast<float*>(out));
  }

 private:
  // cv2's KERNEL_SYMMETRICAL (sign 1) / KERNEL_ASYMMETRICAL (sign -1): a centred anchor and
  // k[i] == sign * k[n-1-i]
  static bool symmetric(const std::vector<double>& k, int64_t a, double sign) {
    const int64_t n = static_cast<int64_t>(k.size());
    if (2 * a + 1 != n) return false;
    for (int64_t i = 0; i < n; ++i)
      if (!(k[i] == sign * k[n - 1 - i])) return false;
    return true;
  }

  // Elements [j0, j0 + len) of source row p's border-extended row (element j is source element
  // j - ax*c): a pointer into the image when the span lies inside it, else a copy in seg.
  const float* segment(const float* src, int64_t p, int64_t j0, int64_t len, float* seg) const {
    const int64_t n = w_ * c_, c = c_, s0 = j0 - ax_ * c;
    const int64_t r = bmap32(p, h_, border_);
    if (r >= 0 && s0 >= 0 && s0 + len <= n) return src + r * n + s0;
    const float* row = r >= 0 ? src + r * n : nullptr;
    for (int64_t j = 0; j < len; ++j) {
      const int64_t e = s0 + j;
      if (row && e >= 0 && e < n) {
        const int64_t m = std::min(len - j, n - e);
        std::memcpy(seg + j, row + e, sizeof(float) * static_cast<size_t>(m));
        j += m - 1;
        continue;
      }
      const int64_t px = e >= 0 ? e / c : -((-e + c - 1) / c), k = e - px * c;
      const int64_t sx = row ? bmap32(px, w_, border_) : -1;
      seg[j] = sx < 0 ? 0.0f : row[sx * c + k];
    }
    return seg;
  }

  // ---- row pass: d[x] for elements x0 + x of the row (x < bn); p[x + t*c] is tap t ----------

  // the SIMD part of RowFilter: fma from +0 (quads of the tail start from the product instead;
  // the two differ only in the sign of a zero sum)
  template <int N>
  static void row_gen_fixed(float* __restrict d, const float* __restrict p, int64_t c, const float* w, int64_t n) {
    float k[N];
    for (int i = 0; i < N; ++i) k[i] = w[i];
    for (int64_t x = 0; x < n; ++x) {
      float s = fma_(p[x], k[0], 0.0f);
#pragma GCC unroll 16
      for (int i = 1; i < N; ++i) s = fma_(p[x + i * c], k[i], s);
      d[x] = s;
    }
  }

  void row_vec(float* __restrict d, const float* __restrict p, int64_t n) const {
    const int64_t c = c_;
    const float* k = kx_.data();
    if (rk_ == kRowU8 && nx_ == 1) {
      const float k0 = k[0];
      for (int64_t x = 0; x < n; ++x) d[x] = fma_(p[x], k0, 0.0f);
      return;
    }
    switch (rk_) {
      case kRowCopyish: {
        const float k0 = k[0];
        for (int64_t x = 0; x < n; ++x) d[x] = k0 * p[x];
        return;
      }
      case kRowSym3: {
        const float k0 = k[1], k1 = k[2];
        const float* __restrict l = p;
        const float* __restrict m = p + c;
        const float* __restrict r = p + 2 * c;
        for (int64_t x = 0; x < n; ++x) d[x] = fma_(m[x], k0, (l[x] + r[x]) * k1);
        return;
      }
      case kRowSym5: {
        const float k0 = k[2], k1 = k[3], k2 = k[4];
        const float* __restrict l2 = p;
        const float* __restrict l1 = p + c;
        const float* __restrict m = p + 2 * c;
        const float* __restrict r1 = p + 3 * c;
        const float* __restrict r2 = p + 4 * c;
        for (int64_t x = 0; x < n; ++x) d[x] = fma_(r2[x] + l2[x], k2, fma_(m[x], k0, (l1[x] + r1[x]) * k1));
        return;
      }
      case kRowAsym3: {
        const float k1 = k[2];
        const float* __restrict l = p;
        const float* __restrict r = p + 2 * c;
        for (int64_t x = 0; x < n; ++x) d[x] = (r[x] - l[x]) * k1;
        return;
      }
      case kRowAsym5: {
        const float k1 = k[3], k2 = k[4];
        const float* __restrict l2 = p;
        const float* __restrict l1 = p + c;
        const float* __restrict r1 = p + 3 * c;
        const float* __restrict r2 = p + 4 * c;
        for (int64_t x = 0; x < n; ++x) d[x] = fma_(r2[x] - l2[x], k2, (r1[x] - l1[x]) * k1);
        return;
      }
      default: break;
    }
    switch (nx_) {
      case 2: return row_gen_fixed<2>(d, p, c, k, n);
      case 3: return row_gen_fixed<3>(d, p, c, k, n);
      case 4: return row_gen_fixed<4>(d, p, c, k, n);
      case 5: return row_gen_fixed<5>(d, p, c, k, n);
      case 6: return row_gen_fixed<6>(d, p, c, k, n);
      case 7: return row_gen_fixed<7>(d, p, c, k, n);
      case 8: return row_gen_fixed<8>(d, p, c, k, n);
      case 9: return row_gen_fixed<9>(d, p, c, k, n);
      default: break;
    }
    // long kernels: the chain continues 8 taps per pass (one load and store of d per pass)
    row_gen_fixed<9>(d, p, c, k, n);
    for (int64_t t = 9; t < nx_; t += 8) {
      switch (std::min<int64_t>(8, nx_ - t)) {
        case 1: row_gen_more<1>(d, p + t * c, c, k + t, n); break;
        case 2: row_gen_more<2>(d, p + t * c, c, k + t, n); break;
        case 3: row_gen_more<3>(d, p + t * c, c, k + t, n); break;
        case 4: row_gen_more<4>(d, p + t * c, c, k + t, n); break;
        case 5: row_gen_more<5>(d, p + t * c, c, k + t, n); break;
        case 6: row_gen_more<6>(d, p + t * c, c, k + t, n); break;
        case 7: row_gen_more<7>(d, p + t * c, c, k + t, n); break;
        default: row_gen_more<8>(d, p + t * c, c, k + t, n); break;
      }
    }
  }

  template <int N>
  static void row_gen_more(float* __restrict d, const float* __restrict p, int64_t c, const float* w, int64_t n) {
    float k[N];
    for (int i = 0; i < N; ++i) k[i] = w[i];
    for (int64_t x = 0; x < n; ++x) {
      float s = d[x];
#pragma GCC unroll 16
      for (int i = 0; i < N; ++i) s = fma_(p[x + i * c], k[i], s);
      d[x] = s;
    }
  }

  // One element of the scalar tail: q its index in the tail of t elements.
  float row_tail(const float* p, int64_t q, int64_t t) const {
    const int64_t c = c_;
    const float* k = kx_.data();
    auto S = [&](int64_t j) { return p[j * c]; };
    switch (rk_) {
      case kRowCopyish: return k[0] * p[0];
      case kRowU8: {
        float s = k[0] * S(0);
        for (int64_t j = 1; j < nx_; ++j) s = s + k[j] * S(j);
        return s;
      }
      case kRowSym3: {
        const float k0 = k[1], k1 = k[2];
        if (q < t - t % 2) {  // pairs
          if (std::fabs(k0) == 2.0f && k1 == 1.0f) {
            const float c2 = S(1) * 2.0f;
            return k0 > 0 ? (S(0) + c2) + S(2) : (S(0) - c2) + S(2);
          }
          return fma_(S(1), k0, (S(0) + S(2)) * k1);
        }
        return fma_(S(2) + S(0), k1, k0 * S(1));
      }
      case kRowSym5: {
        const float k0 = k[2], k1 = k[3], k2 = k[4];
        if (q < t - t % 2) {
          if (k0 == -2.0f && k1 == 0.0f && k2 == 1.0f) return (-2.0f * S(2) + S(0)) + S(4);
          return fma_(S(0) + S(4), k2, fma_(S(2), k0, (S(1) + S(3)) * k1));
        }
        float s = k0 * S(2);
        s = s + k1 * (S(3) + S(1));
        return s + k2 * (S(4) + S(0));
      }
      case kRowAsym3:
        if (q < t - t % 2) return (S(2) - S(0)) * k[2];
        return fma_(S(2) - S(0), k[2], k[1] * S(1));
      case kRowAsym5:
        if (q < t - t % 2) return fma_(S(3) - S(1), k[3], (S(4) - S(0)) * k[4]);
        {
          float s = k[2] * S(2);
          s = s + k[3] * (S(3) - S(1));
          return s + k[4] * (S(4) - S(0));
        }
      default: break;
    }
    float s = k[0] * S(0);
    if (q < t - t % 4) {  // quads
      for (int64_t j = 1; j < nx_; ++j) s = fma_(S(j), k[j], s);
      return s;
    }
    const int64_t plain = (nx_ - 1) / 4 * 4;  // the unrolled part of the single loop: not contracted
    for (int64_t j = 1; j < nx_; ++j) s = j <= plain ? s + k[j] * S(j) : fma_(S(j), k[j], s);
    return s;
  }

  // ---- column pass: o[x] from rows r[0..ny) (r[j] the row-filtered row at y - ay + j) ------

  template <int H>
  void col_sym_fixed(float* __restrict o, const float* const* r, const float* k, int64_t n) const {
    const float* __restrict m = r[H];
    const float d = delta_;
    for (int64_t x = 0; x < n; ++x) {
      float s = fma_(m[x], k[0], d);
#pragma GCC unroll 16
      for (int q = 1; q <= H; ++q) s = fma_(r[H + q][x] + r[H - q][x], k[q], s);
      o[x] = s;
    }
  }

  // o[x] = fma(R_q + L_q, k_q, o[x]) for q = q0 .. q0 + N - 1 (c: the centre row's pointer slot)
  template <int N>
  static void col_sym_more(float* __restrict o, const float* const* c, int64_t q0, const float* k, int64_t n) {
    const float* a[N];
    const float* b[N];
    float kk[N];
    for (int i = 0; i < N; ++i) a[i] = c[q0 + i], b[i] = c[-(q0 + i)], kk[i] = k[q0 + i];
    for (int64_t x = 0; x < n; ++x) {
      float s = o[x];
#pragma GCC unroll 8
      for (int i = 0; i < N; ++i) s = fma_(a[i][x] + b[i][x], kk[i], s);
      o[x] = s;
    }
  }

  // Two output rows at once (rows r[0 .. ny]): each ring row is loaded once for both, the
  // arithmetic of each is col_vec's
  bool pairable() const {
    if (ck_ == kColSym3) return !(std::fabs(ky_[1]) == 2.0f && ky_[2] == 1.0f);
    if (ck_ == kColGen) return ny_ >= 2 && ny_ <= 9;
    return (ck_ == kColSym || ck_ == kColAsym3 || ck_ == kColAsym) && ny_ >= 3 && ny_ <= 17;
  }

  // antisymmetric: s = delta, then fma(R_q - L_q, k_q, s), two rows (r[0 .. 2H+1]) at once
  template <int H>
  void col_asym_fixed2(float* __restrict o0, float* __restrict o1, const float* const* r, int64_t n) const {
    const float* k = ky_.data() + H;
    const float d = delta_;
    const float* p[2 * H + 2];
    float kk[H + 1];
    for (int i = 0; i < 2 * H + 2; ++i) p[i] = r[i];
    for (int i = 0; i <= H; ++i) kk[i] = k[i];
    for (int64_t x = 0; x < n; ++x) {
      float s0 = fma_(p[H + 1][x] - p[H - 1][x], kk[1], d), s1 = fma_(p[H + 2][x] - p[H][x], kk[1], d);
#pragma GCC unroll 16
      for (int q = 2; q <= H; ++q) {
        s0 = fma_(p[H + q][x] - p[H - q][x], kk[q], s0);
        s1 = fma_(p[H + 1 + q][x] - p[H + 1 - q][x], kk[q], s1);
      }
      o0[x] = s0, o1[x] = s1;
    }
  }

  // ColumnFilter: fma(S_0, k_0, delta), then + k_j S_j rounded; two rows (r[0 .. N]) at once
  template <int N>
  void col_gen_fixed2(float* __restrict o0, float* __restrict o1, const float* const* r, int64_t n) const {
    const float d = delta_;
    const float* p[N + 1];
    float kk[N];
    for (int i = 0; i <= N; ++i) p[i] = r[i];
    for (int i = 0; i < N; ++i) kk[i] = ky_[i];
    for (int64_t x = 0; x < n; ++x) {
      float s0 = fma_(p[0][x], kk[0], d), s1 = fma_(p[1][x], kk[0], d);
#pragma GCC unroll 16
      for (int j = 1; j < N; ++j) {
        s0 = s0 + kk[j] * p[j][x];
        s1 = s1 + kk[j] * p[j + 1][x];
      }
      o0[x] = s0, o1[x] = s1;
    }
  }

  template <int H>
  void col_sym_fixed2(float* __restrict o0, float* __restrict o1, const float* const* r, int64_t n) const {
    const float* k = ky_.data() + H;
    const float d = delta_;
    const float* p[2 * H + 2];
    float kk[H + 1];
    for (int i = 0; i < 2 * H + 2; ++i) p[i] = r[i];
    for (int i = 0; i <= H; ++i) kk[i] = k[i];
    for (int64_t x = 0; x < n; ++x) {
      float s0 = fma_(p[H][x], kk[0], d), s1 = fma_(p[H + 1][x], kk[0], d);
#pragma GCC unroll 16
      for (int q = 1; q <= H; ++q) {
        s0 = fma_(p[H + q][x] + p[H - q][x], kk[q], s0);
        s1 = fma_(p[H + 1 + q][x] + p[H + 1 - q][x], kk[q], s1);
      }
      o0[x] = s0, o1[x] = s1;
    }
  }

  void col_vec2(float* __restrict o0, float* __restrict o1, const float* const* r, int64_t n) const {
    if (ck_ == kColSym3) {
      const float k0 = ky_[1], k1 = ky_[2], d = delta_;
      const float* __restrict a = r[0];
      const float* __restrict b = r[1];
      const float* __restrict c = r[2];
      const float* __restrict e = r[3];
      for (int64_t x = 0; x < n; ++x) {
        const float bx = b[x], cx = c[x];
        o0[x] = fma_(a[x] + cx, k1, fma_(bx, k0, d));
        o1[x] = fma_(bx + e[x], k1, fma_(cx, k0, d));
      }
      return;
    }
    if (ck_ == kColGen) {
      switch (ny_) {
        case 2: return col_gen_fixed2<2>(o0, o1, r, n);
        case 3: return col_gen_fixed2<3>(o0, o1, r, n);
        case 4: return col_gen_fixed2<4>(o0, o1, r, n);
        case 5: return col_gen_fixed2<5>(o0, o1, r, n);
        case 6: return col_gen_fixed2<6>(o0, o1, r, n);
        case 7: return col_gen_fixed2<7>(o0, o1, r, n);
        case 8: return col_gen_fixed2<8>(o0, o1, r, n);
        default: return col_gen_fixed2<9>(o0, o1, r, n);
      }
    }
    if (ck_ != kColSym) {
      switch (ny_) {
        case 3: return col_asym_fixed2<1>(o0, o1, r, n);
        case 5: return col_asym_fixed2<2>(o0, o1, r, n);
        case 7: return col_asym_fixed2<3>(o0, o1, r, n);
        case 9: return col_asym_fixed2<4>(o0, o1, r, n);
        case 11: return col_asym_fixed2<5>(o0, o1, r, n);
        case 13: return col_asym_fixed2<6>(o0, o1, r, n);
        case 15: return col_asym_fixed2<7>(o0, o1, r, n);
        default: return col_asym_fixed2<8>(o0, o1, r, n);
      }
    }
    switch (ny_) {
      case 5: return col_sym_fixed2<2>(o0, o1, r, n);
      case 7: return col_sym_fixed2<3>(o0, o1, r, n);
      case 9: return col_sym_fixed2<4>(o0, o1, r, n);
      case 11: return col_sym_fixed2<5>(o0, o1, r, n);
      case 13: return col_sym_fixed2<6>(o0, o1, r, n);
      case 15: return col_sym_fixed2<7>(o0, o1, r, n);
      default: return col_sym_fixed2<8>(o0, o1, r, n);
    }
  }

  void col_vec(float* __restrict o, const float* const* r, int64_t n) const {
    const float d = delta_;
    if (ck_ == kColSym3) {
      const float k0 = ky_[1], k1 = ky_[2];
      const float* __restrict a = r[0];
      const float* __restrict m = r[1];
      const float* __restrict b = r[2];
      if (std::fabs(k0) == 2.0f && k1 == 1.0f) {
        for (int64_t x = 0; x < n; ++x) o[x] = fma_(m[x], k0, (a[x] + b[x]) + d);
      } else {
        for (int64_t x = 0; x < n; ++x) o[x] = fma_(a[x] + b[x], k1, fma_(m[x], k0, d));
      }
      return;
    }
    if (ck_ == kColAsym3 || ck_ == kColAsym) {  // s = delta, then fma(R_q - L_q, k_q, s)
      const int64_t hh = ny_ / 2;
      const float* k = ky_.data() + hh;
      for (int64_t x = 0; x < n; ++x) o[x] = fma_(r[hh + 1][x] - r[hh - 1][x], k[1], d);
      for (int64_t q = 2; q <= hh; ++q) {
        const float kq = k[q];
        const float* __restrict a = r[hh + q];
        const float* __restrict b = r[hh - q];
        for (int64_t x = 0; x < n; ++x) o[x] = fma_(a[x] - b[x], kq, o[x]);
      }
      return;
    }
    if (ck_ == kColSym) {
      switch (ny_) {
        case 1: return col_sym_fixed<0>(o, r, ky_.data() + 0, n);
        case 5: return col_sym_fixed<2>(o, r, ky_.data() + 2, n);
        case 7: return col_sym_fixed<3>(o, r, ky_.data() + 3, n);
        case 9: return col_sym_fixed<4>(o, r, ky_.data() + 4, n);
        case 11: return col_sym_fixed<5>(o, r, ky_.data() + 5, n);
        case 13: return col_sym_fixed<6>(o, r, ky_.data() + 6, n);
        case 15: return col_sym_fixed<7>(o, r, ky_.data() + 7, n);
        case 17: return col_sym_fixed<8>(o, r, ky_.data() + 8, n);
        default: break;
      }
      const int64_t hh = ny_ / 2;
      const float* k = ky_.data() + hh;
      col_sym_fixed<8>(o, r + (hh - 8), k, n);  // the centre and 8 pairs, then 4 pairs per pass
      for (int64_t q = 9; q <= hh; q += 4) {
        switch (std::min<int64_t>(4, hh - q + 1)) {
          case 1: col_sym_more<1>(o, r + hh, q, k, n); break;
          case 2: col_sym_more<2>(o, r + hh, q, k, n); break;
          case 3: col_sym_more<3>(o, r + hh, q, k, n); break;
          default: col_sym_more<4>(o, r + hh, q, k, n); break;
        }
      }
      return;
    }
    col_gen(o, r, n);
  }

  // ColumnFilter has no SIMD part: every element is the plain chain
  void col_gen(float* __restrict o, const float* const* r, int64_t n) const {
    const float* k = ky_.data();
    const float d = delta_;
    {
      const float k0 = k[0];
      const float* __restrict a = r[0];
      for (int64_t x = 0; x < n; ++x) o[x] = fma_(a[x], k0, d);
    }
    for (int64_t j = 1; j < ny_; ++j) {
      const float kj = k[j];
      const float* __restrict a = r[j];
      for (int64_t x = 0; x < n; ++x) o[x] = o[x] + kj * a[x];
    }
  }

  void col_tail(float* __restrict o, const float* const* r, int64_t n) const {
    const float d = delta_;
    if (ck_ == kColSym3) {
      const float k0 = ky_[1], k1 = ky_[2];
      const bool two = std::fabs(k0) == 2.0f && k1 == 1.0f;
      for (int64_t x = 0; x < n; ++x) {
        const float a = r[0][x], m = r[1][x], b = r[2][x];
        if (two) o[x] = (k0 > 0 ? (a + m * 2.0f) + b : (a - m * 2.0f) + b) + d;
        else o[x] = fma_(a + b, k1, m * k0) + d;
      }
      return;
    }
    if (ck_ == kColAsym3) return col_vec(o, r, n);  // the tail's fma(R - L, k1, delta) is the SIMD's
    if (ck_ == kColAsym) {
      const int64_t hh = ny_ / 2;
      const float* k = ky_.data() + hh;
      for (int64_t x = 0; x < n; ++x) {
        float s = d;
        for (int64_t q = 1; q <= hh; ++q) s = s + k[q] * (r[hh + q][x] - r[hh - q][x]);
        o[x] = s;
      }
      return;
    }
    if (ck_ == kColSym) {
      const int64_t hh = ny_ / 2;
      const float* k = ky_.data() + hh;
      for (int64_t x = 0; x < n; ++x) {
        float s = fma_(r[hh][x], k[0], d);
        for (int64_t q = 1; q <= hh; ++q) s = s + k[q] * (r[hh + q][x] + r[hh - q][x]);
        o[x] = s;
      }
      return;
    }
    col_gen(o, r, n);
  }

  // Row outputs [x0, x0 + bn) of a row; p[x - x0 + t*c] is tap t of output x. Elements below nv
  // take the SIMD expressions, the others the scalar tail's.
  void row_range(float* d, const float* p, int64_t x0, int64_t bn, int64_t nv, int64_t tot) const {
    const int64_t nvec = std::clamp<int64_t>(nv - x0, 0, bn);
    row_vec(d, p, nvec);
    for (int64_t x = nvec; x < bn; ++x) d[x] = row_tail(p + x, x0 + x - nv, tot - nv);
  }

  // The row-filtered source row at position p (a border row where p is outside): the outputs whose
  // window lies inside the row read the image directly, the few at each edge a padded copy.
  void make_row(const float* src, int64_t p, float* d, float* pad, int64_t nv) const {
    const int64_t tot = w_ * c_, c = c_, nx = nx_;
    const int64_t r = bmap32(p, h_, border_);
    const int64_t nl = ax_ * c, nr = (nx - 1 - ax_) * c;  // outputs reaching past the left / right end
    if (r < 0 || nl + nr >= tot) {
      segment(src, p, 0, tot + (nx - 1) * c, pad);
      row_range(d, pad, 0, tot, nv, tot);
      return;
    }
    const float* row = src + r * tot;
    if (nl > 0) row_range(d, segment(src, p, 0, nl + (nx - 1) * c, pad), 0, nl, nv, tot);
    row_range(d + nl, row, nl, tot - nl - nr, nv, tot);
    if (nr > 0) {
      const int64_t x0 = tot - nr;
      row_range(d + x0, segment(src, p, x0, nr + (nx - 1) * c, pad), x0, nr, nv, tot);
    }
  }

  // uint8 row p (a border row where p is outside) extended by the row border, as floats (exact)
  void pad_u8(const uint8_t* src, int64_t p, float* pad) const {
    const int64_t n = w_ * c_, c = c_, tot = n + (nx_ - 1) * c, l = ax_ * c;
    const int64_t r = bmap32(p, h_, border_);
    if (r < 0) {
      std::fill(pad, pad + tot, 0.0f);
      return;
    }
    const uint8_t* __restrict row = src + r * n;
    float* __restrict mid = pad + l;
    for (int64_t j = 0; j < n; ++j) mid[j] = static_cast<float>(row[j]);
    for (int64_t j = 0; j < tot; ++j) {
      if (j == l) j = l + n;
      if (j >= tot) break;
      const int64_t e = j - l;
      const int64_t px = e >= 0 ? e / c : -((-e + c - 1) / c), k = e - px * c;
      const int64_t sx = bmap32(px, w_, border_);
      pad[j] = sx < 0 ? 0.0f : static_cast<float>(row[sx * c + k]);
    }
  }

  // src (float32) or src8 (uint8)
  void run_f(const float* src, const uint8_t* src8, float* dst) const {
    const int64_t tot = w_ * c_, c = c_, nx = nx_, ny = ny_;
    const int64_t nv = tot - tot % 8;  // elements of the SIMD part; the rest are cv2's scalar tail
    const int64_t grain = std::max<int64_t>(8, (int64_t(1) << 16) / std::max<int64_t>(1, tot));
    // each thread's band keeps a ring of ny full row-filtered rows (cv2's own layout: a 1080p
    // row of 3 channels is 23 KB, the ring stays in L2); a band re-filters ny - 1 rows
    parallel_for(h_, grain, [&](int64_t y0, int64_t y1) {
      std::vector<float> pad(static_cast<size_t>(tot + (nx - 1) * c));
      // rows 64-byte aligned: the column pass's loads of them then never straddle cache lines
      const int64_t stride = (tot + 15) & ~int64_t(15);
      const int64_t nr = ny + 1;  // one row more than a window: pairs of output rows share loads
      std::vector<float> ring(static_cast<size_t>(nr * stride + 16));
      float* ring0 = ring.data() + ((64 - reinterpret_cast<uintptr_t>(ring.data()) % 64) % 64) / sizeof(float);
      std::vector<const float*> rows(static_cast<size_t>(nr)), tails(static_cast<size_t>(nr));
      auto slot = [&](int64_t p) { return ring0 + ((p % nr) + nr) % nr * stride; };
      const bool pairs = pairable();
      int64_t next = y0 - ay_;
      for (int64_t y = y0; y < y1;) {
        const int64_t two = pairs && y + 1 < y1 ? 2 : 1;
        const int64_t first = y - ay_, last = first + ny - 2 + two;
        next = std::max(next, first);
        for (; next <= last; ++next) {
          if (!src8) {
            make_row(src, next, slot(next), pad.data(), nv);
          } else {  // RowVec_8u32f's SIMD part is 32 elements wide
            pad_u8(src8, next, pad.data());
            row_range(slot(next), pad.data(), 0, tot, tot - tot % 32, tot);
          }
        }
        for (int64_t j = 0; j < ny - 1 + two; ++j) rows[j] = slot(first + j), tails[j] = rows[j] + nv;
        float* o = dst + y * tot;
        if (two == 2) {
          col_vec2(o, o + tot, rows.data(), nv);
          if (nv < tot) col_tail(o + tot + nv, tails.data() + 1, tot - nv);
        } else {
          col_vec(o, rows.data(), nv);
        }
        if (nv < tot) col_tail(o + nv, tails.data(), tot - nv);
        y += two;
      }
    });
  }

  int64_t nx_, ny_, ax_, ay_, h_, w_, c_;
  int border_;
  bool u8_ = false;
  RowKind rk_;
  ColKind ck_;
  std::vector<float> kx_, ky_;
  float delta_;
};

std::unique_ptr<backend::Kernel> prepare_sepf32(const backend::StepDesc& s) { return std::make_unique<Sepf32Kernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_sepf32, "cv_sepf32", &prepare_sepf32);

}  // namespace mnn::cpu::MNN_ISA_NS
