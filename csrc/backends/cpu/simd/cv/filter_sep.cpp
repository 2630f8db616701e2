// CPU kernels of cv_sepf and cv_f2d (shape rules: ops/cv/filter_sep.cpp), compiled once per ISA:
// sepFilter2D, Sobel, Scharr, Laplacian, filter2D and non-8-bit GaussianBlur in one native pass.
//
// The arithmetic is cv_sep_filter's / cv_filter2d's (filter_kernels.cpp), which the tests pin
// against cv2: every sum in double, in a fixed order, rounded once per operation (no FMA: the
// build passes -ffp-contract=off). What changes is only how much work reaches those doubles:
//
// - Exact integer sums. For an integer source, a kernel whose taps are all multiples of one power
//   of two, w_k = g * q_k * 2^-E, makes every product and partial sum of the double loop an exact
//   multiple of 2^-E; while their bound stays below 2^53 no double operation rounds, so the sum in
//   any order is g * 2^-E * (sum of q_k * s), an integer sum times a constant, computed exactly in
//   int16 or int32 lanes (2 to 4 times the lanes of doubles, no conversions per tap). Sobel,
//   Scharr, Laplacian, box kernels like ones/25 in float32 and the row pass of most float kernels
//   on 8-bit images qualify. Whatever does not qualify runs the double loops, in the same order.
// - One pass: each band of output rows keeps a ring of row-filtered source rows (each filtered
//   once), and the column pass works on blocks that stay in L1, writing the output type directly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

constexpr int64_t kBlock = 512;  // column-pass block: a few KB of accumulators, L1-resident

// cv2's borderInterpolate: the source index for position p of an axis of length n, -1 for the
// constant (zero) border (BORDER_WRAP: GaussianBlur of 16-bit images takes it).
inline int64_t bmap(int64_t p, int64_t n, int mode) {
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

// Source row r (-1: the zero row) extended by `left` and `right` pixels of border.
template <class S>
void pad_row(const S* img, int64_t w, int64_t c, int64_t r, int64_t left, int64_t right, int mode, S* dst) {
  const int64_t tot = w + left + right;
  if (r < 0) {
    std::fill(dst, dst + tot * c, S(0));
    return;
  }
  const S* row = img + r * w * c;
  std::memcpy(dst + left * c, row, sizeof(S) * static_cast<size_t>(w * c));
  for (int64_t x = 0; x < tot; ++x) {
    if (x == left) x = left + w;
    if (x >= tot) break;
    const int64_t s = bmap(x - left, w, mode);
    for (int64_t k = 0; k < c; ++k) dst[x * c + k] = s < 0 ? S(0) : row[s * c + k];
  }
}

// The exact-integer form of a kernel: w_k = g * q_k * 2^-e (g > 0 the gcd of the integers
// w_k * 2^e). ok is false when a tap is not finite or the integers do not fit.
struct IntForm {
  bool ok = false;
  std::vector<int64_t> q;
  double g = 0;   // < 2^53
  int e = 0;
  double sum_abs = 0;  // sum |q_k|
};

IntForm int_form(const double* w, int64_t n) {
  IntForm f;
  int e = -1100;
  bool any = false;
  for (int64_t k = 0; k < n; ++k) {
    if (!std::isfinite(w[k])) return f;
    if (w[k] == 0) continue;
    any = true;
    int ex;
    const double m = std::frexp(std::fabs(w[k]), &ex);  // |w| = m * 2^ex, m in [0.5, 1)
    uint64_t im = static_cast<uint64_t>(std::ldexp(m, 53));
    int lsb = ex - 53;
    while (!(im & 1)) im >>= 1, ++lsb;
    e = std::max(e, -lsb);
  }
  if (!any) e = 0;
  if (e > 900 || e < -900) return f;
  int64_t g = 0;
  f.q.resize(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const double v = std::ldexp(w[k], e);
    if (std::fabs(v) >= 9007199254740992.0) return f;  // 2^53
    f.q[k] = static_cast<int64_t>(v);
    g = std::gcd(g, f.q[k] < 0 ? -f.q[k] : f.q[k]);
  }
  if (g == 0) g = 1;
  for (auto& v : f.q) {
    v /= g;
    f.sum_abs += static_cast<double>(v < 0 ? -v : v);
  }
  f.g = static_cast<double>(g), f.e = e, f.ok = true;
  return f;
}

template <class S>
double max_abs() {
  if constexpr (std::is_floating_point_v<S>) return std::numeric_limits<double>::infinity();
  else return std::max(-static_cast<double>(std::numeric_limits<S>::min()), static_cast<double>(std::numeric_limits<S>::max()));
}

// cv2's saturate_cast of a double: round half to even, clamp; NaN gives 0. Written as the
// compare-selects that map onto vmaxpd / vminpd (a NaN picks the bound: the lower one is 0 for
// unsigned types; signed ones select 0 for it separately), then a 32-bit conversion.
template <class O>
inline O sat(double v) {
  if constexpr (std::is_floating_point_v<O>) {
    return static_cast<O>(v);
  } else {
    constexpr double lo = static_cast<double>(std::numeric_limits<O>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<O>::max());
    double r = std::nearbyint(v);
    r = r > lo ? r : lo;
    r = r < hi ? r : hi;
    if constexpr (std::is_signed_v<O>) r = v == v ? r : 0.0;
    return static_cast<O>(static_cast<int32_t>(r));
  }
}

// Stores a block of exact integer sums t (the double value is t * mul, exact), then * scale +
// delta as the double loop does. direct: the double steps are the identity for this output type,
// so the integer saturates (or converts) as it is.
template <class A, class O>
void store_int(const A* __restrict t, O* __restrict o, int64_t n, double mul, double scale, double delta, bool direct) {
  if (direct) {
    for (int64_t x = 0; x < n; ++x) {
      if constexpr (std::is_floating_point_v<O>) {
        o[x] = static_cast<O>(t[x]);
      } else {
        int64_t v = t[x];
        v = v < int64_t(std::numeric_limits<O>::min()) ? int64_t(std::numeric_limits<O>::min()) : v;
        v = v > int64_t(std::numeric_limits<O>::max()) ? int64_t(std::numeric_limits<O>::max()) : v;
        o[x] = static_cast<O>(v);
      }
    }
    return;
  }
  if (scale == 1.0 && std::is_integral_v<O> && delta == 0.0) {  // (* 1.0, + 0.0: see store_dbl)
    for (int64_t x = 0; x < n; ++x) o[x] = sat<O>(static_cast<double>(t[x]) * mul);
  } else {
    for (int64_t x = 0; x < n; ++x) o[x] = sat<O>((static_cast<double>(t[x]) * mul) * scale + delta);
  }
}

// o = sat(a * scale + delta), leaving out the steps that are the identity for this output type
// (* 1.0 always; + 0.0 where the sign of a zero does not survive the rounding)
template <class O>
void store_dbl(const double* __restrict a, O* __restrict o, int64_t n, double scale, double delta) {
  const bool no_delta = std::is_integral_v<O> && delta == 0.0;
  if (scale == 1.0 && no_delta) {
    for (int64_t x = 0; x < n; ++x) o[x] = sat<O>(a[x]);
  } else if (scale == 1.0) {
    for (int64_t x = 0; x < n; ++x) o[x] = sat<O>(a[x] + delta);
  } else {
    for (int64_t x = 0; x < n; ++x) o[x] = sat<O>(a[x] * scale + delta);
  }
}
// Stores sat(t * mul) (t: exact integer sums of the column pass) where that is provably what the
// double loop gives: the loop's result D lies within tol of V = t * mul (error bound of its ny
// products and sums), and fl(t * mul) within u|V|, so when fl(t * mul) is farther than lim =
// 0.5 - tol - u|V|max from every half-integer both round to the same integer. Elements closer to a
// tie (rare: about 2 * tol of all values) are recomputed with the double loop itself, from the
// ring's exact row sums (r_j = T_j * cx, then 0 + ... left to right, as run_dbl does).
template <class A, class O>
void store_chk(const A* __restrict t, const A* const* rows, O* __restrict o, int64_t n, double mul, double lim,
               double cx, const double* ky, int64_t ny) {
  int bad = 0;
  for (int64_t x = 0; x < n; ++x) {
    const double v = static_cast<double>(t[x]) * mul;
    bad |= static_cast<int>(std::fabs(v - std::nearbyint(v)) > lim);
    o[x] = sat<O>(v);
  }
  if (!bad) return;
  for (int64_t x = 0; x < n; ++x) {
    const double v = static_cast<double>(t[x]) * mul;
    if (!(std::fabs(v - std::nearbyint(v)) > lim)) continue;
    double s = ky[0] * (static_cast<double>(rows[0][x]) * cx);
    for (int64_t j = 1; j < ny; ++j) s = s + ky[j] * (static_cast<double>(rows[j][x]) * cx);
    o[x] = sat<O>(s);
  }
}

template <class O>
void store_plain(const double* __restrict a, O* __restrict o, int64_t n) {
  for (int64_t x = 0; x < n; ++x) o[x] = sat<O>(a[x]);
}

template <class F>
decltype(auto) on_depth(DType d, F&& f) {
  switch (d) {
    case DType::UInt8: return f(uint8_t{});
    case DType::Int8: return f(int8_t{});
    case DType::UInt16: return f(uint16_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Float32: return f(float{});
    default: return f(double{});
  }
}

int64_t band_grain(int64_t n) { return std::max<int64_t>(8, (int64_t(1) << 16) / std::max<int64_t>(1, n)); }

// ---- row pass: d[x] = sum_k w_k * p[x + k*c], in the double loop's order ---------------------

template <int N, class A, class S>
void row_fixed(A* __restrict d, const S* __restrict p, int64_t c, const A* w, int64_t n) {
  A k[N];
  for (int i = 0; i < N; ++i) k[i] = w[i];
  for (int64_t x = 0; x < n; ++x) {
    A s = k[0] * static_cast<A>(p[x]);
#pragma GCC unroll 16
    for (int i = 1; i < N; ++i) s = s + k[i] * static_cast<A>(p[x + i * c]);
    d[x] = s;
  }
}

template <class A, class S>
void row_any(A* d, const S* p, int64_t c, const A* w, int64_t nk, int64_t n) {
  switch (nk) {
    case 1: return row_fixed<1>(d, p, c, w, n);
    case 2: return row_fixed<2>(d, p, c, w, n);
    case 3: return row_fixed<3>(d, p, c, w, n);
    case 4: return row_fixed<4>(d, p, c, w, n);
    case 5: return row_fixed<5>(d, p, c, w, n);
    case 6: return row_fixed<6>(d, p, c, w, n);
    case 7: return row_fixed<7>(d, p, c, w, n);
    default: break;
  }
  row_fixed<7>(d, p, c, w, n);
  for (int64_t k = 7; k < nk; ++k) {  // later taps one at a time: the same left-to-right sums
    const A wk = w[k];
    const S* __restrict s = p + k * c;
    A* __restrict o = d;
    for (int64_t x = 0; x < n; ++x) o[x] = o[x] + wk * static_cast<A>(s[x]);
  }
}

// ---- column pass over a block: a[x] = z + sum_j w_j * rows[j][x] (z: 0.0 for the double loop,
// which starts from a zeroed accumulator; nothing for integers) ---------------------------------

template <int N, bool Z, class A>
void col_fixed(A* __restrict a, const A* const* rows, int64_t off, const A* w, int64_t n) {
  const A* r[N];
  A k[N];
  for (int i = 0; i < N; ++i) r[i] = rows[i] + off, k[i] = w[i];
  for (int64_t x = 0; x < n; ++x) {
    A s;
    if constexpr (Z) s = A(0) + k[0] * r[0][x];
    else s = k[0] * r[0][x];
#pragma GCC unroll 16
    for (int i = 1; i < N; ++i) s = s + k[i] * r[i][x];
    a[x] = s;
  }
}

template <bool Z, class A>
void col_sw(A* a, const A* const* rows, int64_t off, const A* w, int64_t nk, int64_t n) {
  switch (nk) {
    case 1: return col_fixed<1, Z>(a, rows, off, w, n);
    case 2: return col_fixed<2, Z>(a, rows, off, w, n);
    case 3: return col_fixed<3, Z>(a, rows, off, w, n);
    case 4: return col_fixed<4, Z>(a, rows, off, w, n);
    case 5: return col_fixed<5, Z>(a, rows, off, w, n);
    case 6: return col_fixed<6, Z>(a, rows, off, w, n);
    default: return col_fixed<7, Z>(a, rows, off, w, n);
  }
}

// z: start from 0.0 (the double loop's zeroed accumulator: it turns a -0.0 sum into 0.0)
template <class A>
void col_any(A* a, const A* const* rows, int64_t off, const A* w, int64_t nk, int64_t n, bool z = false) {
  if constexpr (std::is_floating_point_v<A>) {
    if (z) col_sw<true>(a, rows, off, w, nk, n);
    else col_sw<false>(a, rows, off, w, nk, n);
  } else {
    col_sw<false>(a, rows, off, w, nk, n);
  }
  if (nk <= 7) return;
  for (int64_t k = 7; k < nk; ++k) {
    const A wk = w[k];
    const A* __restrict s = rows[k] + off;
    A* __restrict o = a;
    for (int64_t x = 0; x < n; ++x) o[x] = o[x] + wk * s[x];
  }
}

// Walks output rows [y0, y1) with a ring of k prepared rows: before use(y, rows), rows[j] is the
// prepared source row at position y - a + j (make(p, dst) prepares position p).
template <class R, class Make, class Use>
void ring_rows(int64_t y0, int64_t y1, int64_t k, int64_t a, int64_t rowlen, Make make, Use use) {
  std::vector<R> buf(static_cast<size_t>(k * rowlen));
  std::vector<const R*> rows(static_cast<size_t>(k));
  auto slot = [k](int64_t p) { return ((p % k) + k) % k; };
  int64_t next = y0 - a;
  for (int64_t y = y0; y < y1; ++y) {
    const int64_t first = y - a, last = first + k - 1;
    next = std::max(next, first);
    for (; next <= last; ++next) make(next, buf.data() + slot(next) * rowlen);
    for (int64_t j = 0; j < k; ++j) rows[j] = buf.data() + slot(first + j) * rowlen;
    use(y, rows.data());
  }
}

// ---- cv_sepf ----------------------------------------------------------------------------------

class SepfKernel final : public backend::Kernel {
 public:
  explicit SepfKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    nx_ = i[0], ny_ = i[1], ax_ = i[2], ay_ = i[3];
    border_ = static_cast<int>(i[4]);
    out_ = static_cast<DType>(i[5]);
    kx_.assign(f.begin(), f.begin() + nx_);
    ky_.assign(f.begin() + nx_, f.begin() + nx_ + ny_);
    delta_ = f[nx_ + ny_], scale_ = f[nx_ + ny_ + 1];
    const Shape& sh = s.inputs[0].shape;
    h_ = sh[0], w_ = sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
    in_ = s.inputs[0].dtype;
  }
  void run(char* const* in, char* out) override {
    on_depth(in_, [&](auto zs) {
      using S = decltype(zs);
      on_depth(out_, [&](auto zo) {
        using O = decltype(zo);
        run_typed<S, O>(reinterpret_cast<const S*>(in[0]), reinterpret_cast<O*>(out));
        return 0;
      });
      return 0;
    });
  }

 private:
  template <class S, class O>
  void run_typed(const S* src, O* dst) const {
    const double m = max_abs<S>();
    if constexpr (std::is_integral_v<S>) {
      const IntForm fx = int_form(kx_.data(), nx_), fy = int_form(ky_.data(), ny_);
      if (fx.ok && fx.g * fx.sum_abs * m < 9007199254740992.0) {
        const double cx = std::ldexp(fx.g, -fx.e);
        // both passes exact: the integer sum over the window, times cx * cy
        if (fy.ok && fx.g * fy.g * fx.sum_abs * fy.sum_abs * m < 9007199254740992.0) {
          const double b = fx.sum_abs * fy.sum_abs * m;
          const double mul = std::ldexp(fx.g * fy.g, -(fx.e + fy.e));
          if (b < 32767.0 && fx.sum_abs * m < 32767.0) return run_int<S, O, int16_t>(src, dst, fx, fy, mul);
          if (b < 2147483647.0) return run_int<S, O, int32_t>(src, dst, fx, fy, mul);
        }
        // the row pass exact, the column pass rounds in double: for an integer output (no scale or
        // delta) the exact integer sum times cx * cy rounds to the same integer except near ties,
        // which store_chk recomputes with the double loop
        if constexpr (std::is_integral_v<O>) {
          const double b = fx.sum_abs * fy.sum_abs * m;
          if (fy.ok && scale_ == 1.0 && delta_ == 0.0 && fx.g * fy.g < 9007199254740992.0 && fx.e + fy.e < 1000 &&
              fx.e + fy.e > -1000) {
            const double mul = std::ldexp(fx.g * fy.g, -(fx.e + fy.e));
            const double lim = 0.5 - static_cast<double>(ny_ + 3) * std::ldexp(mul * b, -52);
            if (lim > 0.25) {
              if (b < 32767.0 && fx.sum_abs * m < 32767.0) return run_int<S, O, int16_t>(src, dst, fx, fy, mul, lim, cx);
              if (b < 2147483647.0) return run_int<S, O, int32_t>(src, dst, fx, fy, mul, lim, cx);
            }
          }
        }
        // the row pass exact (integer sums times cx: today's doubles), the column pass in double
        if (fx.sum_abs * m < 2147483647.0) return run_dbl<S, O, true>(src, dst, &fx, cx);
      }
    }
    run_dbl<S, O, false>(src, dst, nullptr, 1.0);
  }

  // Elements [j0, j0 + len) of source row p's border-extended row (padded coordinates: element
  // j is source element j - ax*c): a pointer into the image when the span lies inside it, else
  // a copy in seg with the border filled in.
  template <class S>
  const S* segment(const S* src, int64_t p, int64_t j0, int64_t len, S* seg) const {
    const int64_t n = w_ * c_, c = c_, s0 = j0 - ax_ * c;
    const int64_t r = bmap(p, h_, border_);
    if (r >= 0 && s0 >= 0 && s0 + len <= n) return src + r * n + s0;
    const S* row = r >= 0 ? src + r * n : nullptr;
    for (int64_t j = 0; j < len; ++j) {
      const int64_t e = s0 + j;
      if (row && e >= 0 && e < n) {
        const int64_t m = std::min(len - j, n - e);  // the run inside the row
        std::memcpy(seg + j, row + e, sizeof(S) * static_cast<size_t>(m));
        j += m - 1;
        continue;
      }
      const int64_t px = e >= 0 ? e / c : -((-e + c - 1) / c), k = e - px * c;
      const int64_t sx = row ? bmap(px, w_, border_) : -1;
      seg[j] = sx < 0 ? S(0) : row[sx * c + k];
    }
    return seg;
  }

  // Walks output rows [y0, y1) strip by strip (sw elements wide): for each strip a ring of ny
  // row-filtered source rows (make(p, x0, bn, dst)), kept in L1, and use(y, x0, bn, rows).
  // The rows are taken in bands whose source and output (row_bytes a row) stay within ~512 KB of
  // L2 while the strips walk down them: a 1080p image walked strip by strip over its full height
  // would stream from memory once per strip. A band re-filters ny - 1 rows (a few percent).
  template <class A, class Make, class Use>
  void strips(int64_t y0, int64_t y1, int64_t sw, int64_t row_bytes, Make make, Use use) const {
    const int64_t n = w_ * c_, ny = ny_;
    const int64_t hb = std::max<int64_t>(8 * ny, (int64_t(512) << 10) / std::max<int64_t>(1, row_bytes));
    std::vector<A> ring(static_cast<size_t>(ny * sw));
    std::vector<const A*> rows(static_cast<size_t>(ny));
    auto slot = [&](int64_t p) { return ring.data() + ((p % ny) + ny) % ny * sw; };
    for (int64_t b0 = y0; b0 < y1; b0 += hb) {
      const int64_t b1 = std::min(y1, b0 + hb);
      for (int64_t x0 = 0; x0 < n; x0 += sw) {
        const int64_t bn = std::min(sw, n - x0);
        int64_t next = b0 - ay_;
        for (int64_t y = b0; y < b1; ++y) {
          const int64_t first = y - ay_, last = first + ny - 1;
          next = std::max(next, first);
          for (; next <= last; ++next) make(next, x0, bn, slot(next));
          for (int64_t j = 0; j < ny; ++j) rows[j] = slot(first + j);
          use(y, x0, bn, rows.data());
        }
      }
    }
  }

  // strip width: the ring of ny rows of A within ~16 KB
  int64_t strip_width(size_t asz) const {
    return std::max<int64_t>(64, (static_cast<int64_t>(16384 / asz) / ny_) & ~int64_t(63));
  }

  template <class S, class O, class A>
  void run_int(const S* src, O* dst, const IntForm& fx, const IntForm& fy, double mul, double lim = 0.0,
               double cx = 0.0) const {
    const int64_t n = w_ * c_, c = c_, nx = nx_, ny = ny_;
    std::vector<A> qx(fx.q.begin(), fx.q.end()), qy(fy.q.begin(), fy.q.end());
    // the double steps after the sum change nothing: mul 1, scale 1, delta 0 (an integer output
    // rounds a -0.0 like 0.0; a float one gets the integer's conversion, the same rounding)
    const bool direct = mul == 1.0 && scale_ == 1.0 && delta_ == 0.0 && !std::signbit(delta_);
    const int64_t sw = strip_width(sizeof(A));
    parallel_for(h_, band_grain(n), [&](int64_t y0, int64_t y1) {
      std::vector<S> seg(static_cast<size_t>(sw + (nx - 1) * c));
      std::vector<A> acc(static_cast<size_t>(sw));
      auto make = [&](int64_t p, int64_t x0, int64_t bn, A* d) {
        row_any<A, S>(d, segment<S>(src, p, x0, bn + (nx - 1) * c, seg.data()), c, qx.data(), nx, bn);
      };
      auto use = [&](int64_t y, int64_t x0, int64_t bn, const A* const* rows) {
        if constexpr (std::is_same_v<A, O>) {
          if (direct) return col_any<A>(dst + y * n + x0, rows, 0, qy.data(), ny, bn);
        }
        col_any<A>(acc.data(), rows, 0, qy.data(), ny, bn);
        if constexpr (std::is_integral_v<O>) {
          if (lim > 0.0) return store_chk<A, O>(acc.data(), rows, dst + y * n + x0, bn, mul, lim, cx, ky_.data(), ny);
        }
        store_int<A, O>(acc.data(), dst + y * n + x0, bn, mul, scale_, delta_, direct);
      };
      strips<A>(y0, y1, sw, n * static_cast<int64_t>(sizeof(S) + sizeof(O)), make, use);
    });
  }

  template <class S, class O, bool IntRow>
  void run_dbl(const S* src, O* dst, const IntForm* fx, double cx) const {
    const int64_t n = w_ * c_, c = c_, nx = nx_, ny = ny_;
    std::vector<int32_t> qx;
    if (IntRow) qx.assign(fx->q.begin(), fx->q.end());
    const int64_t sw = strip_width(sizeof(double));
    parallel_for(h_, band_grain(n), [&](int64_t y0, int64_t y1) {
      std::vector<S> seg(static_cast<size_t>(sw + (nx - 1) * c));
      std::vector<int32_t> tx(IntRow ? static_cast<size_t>(sw) : 0);
      std::vector<double> acc(static_cast<size_t>(sw));
      auto make = [&](int64_t p, int64_t x0, int64_t bn, double* d) {
        const S* sp = segment<S>(src, p, x0, bn + (nx - 1) * c, seg.data());
        if constexpr (IntRow) {
          // the double loop's row sums are exact: the integer sum times cx, one rounding-free product
          row_any<int32_t, S>(tx.data(), sp, c, qx.data(), nx, bn);
          const int32_t* __restrict t = tx.data();
          double* __restrict o = d;
          for (int64_t x = 0; x < bn; ++x) o[x] = static_cast<double>(t[x]) * cx;
        } else {
          row_any<double, S>(d, sp, c, kx_.data(), nx, bn);
        }
      };
      auto use = [&](int64_t y, int64_t x0, int64_t bn, const double* const* rows) {
        // an integer output rounds -0.0 like 0.0: the double loop's leading 0.0 + is moot there
        col_any<double>(acc.data(), rows, 0, ky_.data(), ny, bn, std::is_floating_point_v<O>);
        store_dbl<O>(acc.data(), dst + y * n + x0, bn, scale_, delta_);
      };
      strips<double>(y0, y1, sw, n * static_cast<int64_t>(sizeof(S) + sizeof(O)), make, use);
    });
  }

  int64_t nx_, ny_, ax_, ay_, h_, w_, c_;
  int border_;
  DType in_, out_;
  std::vector<double> kx_, ky_;
  double delta_, scale_;
};

// a[x] = a[x] + w_0 * s_0[x] + w_1 * s_1[x] + ..., taps left to right (the double loop's order),
// up to 8 taps per pass over the block: one load and store of the accumulator per 8 taps
template <int K, class A, class S>
void taps_k(A* __restrict a, const S* const* sp, const A* w, int64_t n) {
  const S* s[K];
  A k[K];
  for (int i = 0; i < K; ++i) s[i] = sp[i], k[i] = w[i];
  for (int64_t x = 0; x < n; ++x) {
    A v = a[x];
#pragma GCC unroll 8
    for (int i = 0; i < K; ++i) v = static_cast<A>(v + k[i] * static_cast<A>(s[i][x]));
    a[x] = v;
  }
}

template <class A, class S>
void taps_any(A* a, const S* const* sp, const A* w, int64_t nt, int64_t n) {
  for (int64_t t = 0; t < nt; t += 8) {
    switch (std::min<int64_t>(8, nt - t)) {
      case 1: taps_k<1>(a, sp + t, w + t, n); break;
      case 2: taps_k<2>(a, sp + t, w + t, n); break;
      case 3: taps_k<3>(a, sp + t, w + t, n); break;
      case 4: taps_k<4>(a, sp + t, w + t, n); break;
      case 5: taps_k<5>(a, sp + t, w + t, n); break;
      case 6: taps_k<6>(a, sp + t, w + t, n); break;
      case 7: taps_k<7>(a, sp + t, w + t, n); break;
      default: taps_k<8>(a, sp + t, w + t, n); break;
    }
  }
}

// ---- cv_f2d -----------------------------------------------------------------------------------

class F2dKernel final : public backend::Kernel {
 public:
  explicit F2dKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    kh_ = i[0], kw_ = i[1], ay_ = i[2], ax_ = i[3];
    border_ = static_cast<int>(i[4]);
    out_ = static_cast<DType>(i[5]);
    k_.assign(f.begin(), f.begin() + kh_ * kw_);
    delta_ = f[kh_ * kw_];
    for (int64_t r = 0; r < kh_; ++r)
      for (int64_t q = 0; q < kw_; ++q)
        if (k_[r * kw_ + q] != 0.0) taps_.push_back({r, q, k_[r * kw_ + q]});
    const Shape& sh = s.inputs[0].shape;
    h_ = sh[0], w_ = sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
    in_ = s.inputs[0].dtype;
  }
  void run(char* const* in, char* out) override {
    on_depth(in_, [&](auto zs) {
      using S = decltype(zs);
      on_depth(out_, [&](auto zo) {
        using O = decltype(zo);
        run_typed<S, O>(reinterpret_cast<const S*>(in[0]), reinterpret_cast<O*>(out));
        return 0;
      });
      return 0;
    });
  }

 private:
  struct Tap {
    int64_t r, q;
    double w;
  };

  template <class S, class O>
  void run_typed(const S* src, O* dst) const {
    if constexpr (std::is_integral_v<S>) {
      const IntForm f = int_form(k_.data(), kh_ * kw_);
      if (f.ok) {
        const double m = max_abs<S>(), b = f.sum_abs * m;
        // delta is added first: it must be an exact multiple of 2^-e inside the same bound
        const double dq = std::ldexp(delta_, f.e);
        // (a -0.0 delta: the double loop can end in -0.0, which a float output keeps)
        const bool zero_sign = std::is_floating_point_v<O> && std::signbit(delta_);
        if (!zero_sign && dq == std::floor(dq) && f.g * b + std::fabs(dq) < 9007199254740992.0) {
          const double mul = std::ldexp(f.g, -f.e);
          if (b < 32767.0) return run_int<S, O, int16_t>(src, dst, f, mul);
          if (b < 2147483647.0) return run_int<S, O, int32_t>(src, dst, f, mul);
        }
      }
    }
    run_dbl<S, O>(src, dst);
  }

  // Walks the output in row bands with a ring of kh border-extended source rows.
  template <class S, class Use>
  void walk(const S* src, Use use) const {
    const int64_t c = c_;
    parallel_for(h_, band_grain(w_ * c), [&](int64_t y0, int64_t y1) {
      auto make = [&](int64_t p, S* d) { pad_row<S>(src, w_, c, bmap(p, h_, border_), ax_, kw_ - 1 - ax_, border_, d); };
      use(y0, y1, make);
    });
  }

  template <class S, class O, class A>
  void run_int(const S* src, O* dst, const IntForm& f, double mul) const {
    const int64_t n = w_ * c_, c = c_;
    std::vector<Tap> taps;
    std::vector<A> q;
    for (const Tap& t : taps_) taps.push_back(t), q.push_back(static_cast<A>(f.q[t.r * kw_ + t.q]));
    const double delta = delta_;
    // the value is t * mul + delta, exactly; when mul and delta are integers and it fits, it is
    // that integer, which an integer output saturates as it is
    const bool as_int = std::is_integral_v<O> && mul == std::floor(mul) && delta == std::floor(delta) &&
                        mul * f.sum_abs * max_abs<S>() + std::fabs(delta) < 2147483647.0;
    const int32_t imul = as_int ? static_cast<int32_t>(mul) : 0, idelta = as_int ? static_cast<int32_t>(delta) : 0;
    walk<S>(src, [&](int64_t y0, int64_t y1, auto& make) {
      std::vector<A> acc(static_cast<size_t>(kBlock));
      std::vector<int32_t> iv(static_cast<size_t>(kBlock));
      std::vector<const S*> sp(taps.size());
      ring_rows<S>(y0, y1, kh_, ay_, (w_ + kw_ - 1) * c, make, [&](int64_t y, const S* const* rows) {
        O* o = dst + y * n;
        for (int64_t x0 = 0; x0 < n; x0 += kBlock) {
          const int64_t bn = std::min(kBlock, n - x0);
          A* __restrict a = acc.data();
          std::fill(a, a + bn, A(0));
          for (size_t k = 0; k < taps.size(); ++k) sp[k] = rows[taps[k].r] + taps[k].q * c + x0;
          taps_any<A, S>(a, sp.data(), q.data(), static_cast<int64_t>(taps.size()), bn);
          if (as_int) {
            int32_t* __restrict v = iv.data();
            for (int64_t x = 0; x < bn; ++x) v[x] = static_cast<int32_t>(a[x]) * imul + idelta;
            store_int<int32_t, O>(v, o + x0, bn, 1.0, 1.0, 0.0, true);
          } else {
            O* __restrict op = o + x0;
            for (int64_t x = 0; x < bn; ++x) op[x] = sat<O>(static_cast<double>(a[x]) * mul + delta);
          }
        }
      });
    });
  }

  template <class S, class O>
  void run_dbl(const S* src, O* dst) const {
    const int64_t n = w_ * c_, c = c_;
    std::vector<double> wts;
    for (const Tap& t : taps_) wts.push_back(t.w);
    walk<S>(src, [&](int64_t y0, int64_t y1, auto& make) {
      std::vector<double> acc(static_cast<size_t>(kBlock));
      std::vector<const S*> sp(taps_.size());
      ring_rows<S>(y0, y1, kh_, ay_, (w_ + kw_ - 1) * c, make, [&](int64_t y, const S* const* rows) {
        O* o = dst + y * n;
        for (int64_t x0 = 0; x0 < n; x0 += kBlock) {
          const int64_t bn = std::min(kBlock, n - x0);
          double* __restrict a = acc.data();
          std::fill(a, a + bn, delta_);
          for (size_t k = 0; k < taps_.size(); ++k) sp[k] = rows[taps_[k].r] + taps_[k].q * c + x0;
          taps_any<double, S>(a, sp.data(), wts.data(), static_cast<int64_t>(taps_.size()), bn);
          store_plain<O>(a, o + x0, bn);
        }
      });
    });
  }

  int64_t kh_, kw_, ay_, ax_, h_, w_, c_;
  int border_;
  DType in_, out_;
  std::vector<double> k_;
  std::vector<Tap> taps_;
  double delta_;
};

std::unique_ptr<backend::Kernel> prepare_sepf(const backend::StepDesc& s) { return std::make_unique<SepfKernel>(s); }
std::unique_ptr<backend::Kernel> prepare_f2d(const backend::StepDesc& s) { return std::make_unique<F2dKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_sepf, "cv_sepf", &prepare_sepf);
MNN_REGISTER_CPU_KERNEL(cv_f2d, "cv_f2d", &prepare_f2d);

}  // namespace mnn::cpu::MNN_ISA_NS
