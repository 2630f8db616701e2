// One 1-D complex FFT plan of any length (used by kernels/fft/fft.cpp): FFTPACK-style mixed-radix
// self-sorting passes, radices 8, 4, 2, 3, 5 written out, other odd factors directly, Bluestein's
// chirp-z for prime factors above kMaxDirectRadix. Complex128 passes of radix 2/3/4/5/8 go to the
// per-ISA SIMD kernels (KernelTable::fft_pass_c128) when the CPU has them.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "backends/cpu/simd/kernel_table.h"

// GCC's loop vectoriser turns the strided butterfly loops into shuffles that run slower than
// the scalar code (measured: ~15-25% on lengths 1000/1024), so it is off for the plan code.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-tree-vectorize")
#endif

namespace mnn::cpu::fft {

constexpr int kMaxDirectRadix = 64;

// A plain complex pair: GCC keeps std::complex arithmetic as scalar real/imag operations, while
// this struct's component-wise operations become one SIMD instruction each (SLP vectorisation).
template <class T>
struct Cx {
  T r, i;
  Cx() = default;
  Cx(T re, T im) : r(re), i(im) {}
  T real() const { return r; }
  T imag() const { return i; }
  Cx& operator+=(Cx b) { r += b.r; i += b.i; return *this; }
};
template <class T> inline Cx<T> operator+(Cx<T> a, Cx<T> b) { return {a.r + b.r, a.i + b.i}; }
template <class T> inline Cx<T> operator-(Cx<T> a, Cx<T> b) { return {a.r - b.r, a.i - b.i}; }
template <class T> inline Cx<T> operator*(Cx<T> a, T s) { return {a.r * s, a.i * s}; }
template <class T> inline Cx<T> operator*(T s, Cx<T> a) { return {a.r * s, a.i * s}; }
template <class T> inline Cx<T> cconj(Cx<T> a) { return {a.r, -a.i}; }
// a * b, and a * -i (Fwd) or a * +i (backward).
template <class T> inline Cx<T> cmul(Cx<T> a, Cx<T> b) {
  return Cx<T>(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}
template <bool Fwd, class T> inline Cx<T> crot(Cx<T> a) {
  return Fwd ? Cx<T>(a.imag(), -a.real()) : Cx<T>(-a.imag(), a.real());
}

#if defined(__GNUC__) && defined(__SSE2__)
// complex128 as one 16-byte vector (GCC vector extensions; aligned(8): arrays of std::complex
// need not be 16-byte aligned). GCC left the struct above as scalar code for double, so every
// butterfly add was two scalar adds; here it is one packed add. Every operation is the same IEEE
// operation as the scalar form (products by +-1 only flip signs), so results are bit-identical.
typedef double CxV2d __attribute__((vector_size(16), aligned(8)));
typedef long long CxV2i __attribute__((vector_size(16)));
template <>
struct Cx<double> {
  CxV2d v;
  Cx() = default;
  Cx(double re, double im) { v = CxV2d{re, im}; }
  explicit Cx(CxV2d x) : v(x) {}
  double real() const { return v[0]; }
  double imag() const { return v[1]; }
  Cx& operator+=(Cx b) { v += b.v; return *this; }
};
inline Cx<double> operator+(Cx<double> a, Cx<double> b) { return Cx<double>(a.v + b.v); }
inline Cx<double> operator-(Cx<double> a, Cx<double> b) { return Cx<double>(a.v - b.v); }
inline Cx<double> operator*(Cx<double> a, double s) { return Cx<double>(a.v * s); }
inline Cx<double> operator*(double s, Cx<double> a) { return Cx<double>(a.v * s); }
inline Cx<double> cconj(Cx<double> a) { return Cx<double>(a.v * CxV2d{1.0, -1.0}); }
inline Cx<double> cmul(Cx<double> a, Cx<double> b) {
  const CxV2d ar = {a.v[0], a.v[0]}, ai = {a.v[1], a.v[1]};
  const CxV2d bs = __builtin_shuffle(b.v, CxV2i{1, 0});  // (b.i, b.r)
  return Cx<double>(ar * b.v + CxV2d{-1.0, 1.0} * (ai * bs));
}
template <bool Fwd> inline Cx<double> crot(Cx<double> a) {
  const CxV2d sw = __builtin_shuffle(a.v, CxV2i{1, 0});  // (a.i, a.r)
  return Cx<double>(sw * (Fwd ? CxV2d{1.0, -1.0} : CxV2d{-1.0, 1.0}));
}
#endif

template <class T>
class FftPlan {
 public:
  using C = std::complex<T>;

  explicit FftPlan(int64_t n) : n_(n) {
    if constexpr (std::is_same_v<T, double>) {
      pass_fn_ = kernels().fft_pass_c128;
      pair_fn_ = kernels().fft_pass_c128x2;
    }
    std::vector<int64_t> f = factorize(n);
    for (auto p : f)
      if (p > kMaxDirectRadix) blue_ = true;
    if (blue_) {
      init_bluestein();
      return;
    }
    int64_t l1 = 1;
    for (auto p : f) {
      Pass ps{static_cast<int>(p), l1, n / (l1 * p), tw_.size(), roots_.size()};
      // i-major: the ip-1 twiddles of one i are adjacent, one stream instead of ip-1 streams
      // a power-of-two apart (which would fight the inputs and outputs for the same cache sets);
      // i in pairs (i even, i+1) interleaved per j, so a SIMD pass over two i loads each pair
      // with one load (simd/fft_kernels.cpp). An odd ido is padded with a unit twiddle.
      // (complex128 only: single precision runs the generic passes and keeps the plain layout).
      const int64_t ido2 = kPairTw ? (ps.ido + 1) & ~int64_t(1) : ps.ido;
      tw_.resize(tw_.size() + ido2 * (p - 1), C(1, 0));
      for (int64_t i = 0; i < ps.ido; ++i)
        for (int64_t j = 1; j < p; ++j) tw_[ps.tw + tw_index(static_cast<int>(p), j, i)] = unit<T>((j * i * l1) % n, n);
      if (p > 5)
        for (int64_t k = 0; k < p; ++k) roots_.push_back(unit<T>(k, p));
      passes_.push_back(ps);
      l1 *= p;
    }
    pair_ok_ = pair_fn_ != nullptr && n > 1;
    for (const Pass& ps : passes_)
      if (ps.ip != 2 && ps.ip != 3 && ps.ip != 4 && ps.ip != 5 && ps.ip != 8) pair_ok_ = false;
  }

  int64_t size() const { return n_; }
  // Elements of scratch run() needs.
  int64_t work_size() const {
    if (blue_) return 2 * m_ + sub_->work_size();
    return n_;
  }

  // Transforms data[0..n) in place (unnormalised); work has work_size() elements.
  void run(C* data, C* work, bool forward) const { run(data, data, work, forward); }

  // out = transform of in (unnormalised); in == out is allowed. The passes ping-pong between
  // out and work, starting on the side that makes the last one land in out: no copies.
  void run(const C* in, C* out, C* work, bool forward) const {
    if (n_ == 1 || blue_) {
      if (in != out) std::memcpy(static_cast<void*>(out), in, sizeof(C) * n_);
      if (n_ == 1) return;
      if (forward) return bluestein(out, work);
      // backward(x) = conj(forward(conj(x))): Bluestein needs only the forward chirp
      for (int64_t i = 0; i < n_; ++i) out[i] = std::conj(out[i]);
      bluestein(out, work);
      for (int64_t i = 0; i < n_; ++i) out[i] = std::conj(out[i]);
      return;
    }
    // With p passes alternating between two buffers, the last lands in the first written one
    // when p is odd: so write out first for odd p, work first for even p. In place, an odd count
    // has to read its input from a copy in work.
    const size_t np = passes_.size();
    const C* src = in;
    C* dst = (np % 2 == 1) ? out : work;
    if (in == dst) {
      std::memcpy(static_cast<void*>(work), in, sizeof(C) * n_);
      src = work;
    }
    for (size_t q = 0; q < np; ++q) {
      if (forward) pass<true>(passes_[q], src, dst);
      else pass<false>(passes_[q], src, dst);
      src = dst;
      dst = (dst == out) ? work : out;
    }
    if (src != out) std::memcpy(static_cast<void*>(out), src, sizeof(C) * n_);
  }

  // Two transforms at once on interleaved data ([n][2] complex: element e of transform 0, then
  // of transform 1), for the columns of a row-major array, where two adjacent columns are
  // adjacent in memory; work has 2n elements. Only when pair_ok().
  bool pair_ok() const { return pair_ok_; }
  void run_pair(const C* in, C* out, C* work, bool forward) const {
    const size_t np = passes_.size();
    const C* src = in;
    C* dst = (np % 2 == 1) ? out : work;
    if (in == dst) {
      std::memcpy(static_cast<void*>(work), in, sizeof(C) * 2 * n_);
      src = work;
    }
    for (size_t q = 0; q < np; ++q) {
      const Pass& ps = passes_[q];
      pair_fn_(ps.ip, ps.l1, ps.ido, reinterpret_cast<const double*>(tw_.data() + ps.tw),
               reinterpret_cast<const double*>(src), reinterpret_cast<double*>(dst), forward);
      src = dst;
      dst = (dst == out) ? work : out;
    }
    if (src != out) std::memcpy(static_cast<void*>(out), src, sizeof(C) * 2 * n_);
  }

  // exp(-2 pi i k / n), from the angle reduced to [0, 2pi): accurate to an ulp or two.
  template <class U>
  static std::complex<U> unit(int64_t k, int64_t n) {
    long double a = -2.0L * 3.141592653589793238462643383279502884L * static_cast<long double>(k) /
                    static_cast<long double>(n);
    double ad = static_cast<double>(a);
    return std::complex<U>(static_cast<U>(std::cos(ad)), static_cast<U>(std::sin(ad)));
  }

 private:
  struct Pass {
    int ip;
    int64_t l1, ido;
    size_t tw, roots;
  };

  static constexpr bool kPairTw = std::is_same_v<T, double>;
  // Where twiddle (j, i) of a pass of radix ip sits in the pass's table.
  static int64_t tw_index(int ip, int64_t j, int64_t i) {
    return kPairTw ? (i & ~int64_t(1)) * (ip - 1) + 2 * (j - 1) + (i & 1) : i * (ip - 1) + (j - 1);
  }

  // Odd factors first, powers of two last: every pass but the last then has an even ido, so the
  // SIMD passes over pairs of i have no half-empty tail (1000 = 5 5 5 8: ido 200, 40, 8, 1).
  static std::vector<int64_t> factorize(int64_t n) {
    std::vector<int64_t> two;
    while (n % 8 == 0) { two.push_back(8); n /= 8; }
    while (n % 4 == 0) { two.push_back(4); n /= 4; }
    while (n % 2 == 0) { two.push_back(2); n /= 2; }
    std::vector<int64_t> f;
    for (int64_t p = 3; p * p <= n; p += 2)
      while (n % p == 0) { f.push_back(p); n /= p; }
    if (n > 1) f.push_back(n);
    f.insert(f.end(), two.begin(), two.end());
    return f;
  }

  static int64_t good_size(int64_t target) {  // smallest 2^a 3^b 5^c >= target
    int64_t best = 1;
    while (best < target) best *= 2;
    for (int64_t f5 = 1; f5 < best; f5 *= 5)
      for (int64_t f35 = f5; f35 < best; f35 *= 3) {
        int64_t v = f35;
        while (v < target) v *= 2;
        if (v < best) best = v;
      }
    return best;
  }

  void init_bluestein() {
    m_ = good_size(2 * n_ - 1);
    sub_ = std::make_unique<FftPlan<T>>(m_);
    chirp_.resize(n_);
    const long double pi = 3.141592653589793238462643383279502884L;
    for (int64_t k = 0; k < n_; ++k) {
      // exp(i pi k^2 / n), with k^2 reduced mod 2n so the angle stays small and exact
      int64_t r = static_cast<int64_t>((static_cast<unsigned __int128>(k) * k) % (2 * n_));
      double a = static_cast<double>(pi * r / n_);
      chirp_[k] = C(static_cast<T>(std::cos(a)), static_cast<T>(std::sin(a)));
    }
    std::vector<std::complex<T>> b(m_, C(0, 0)), w(sub_->work_size());
    const T inv_m = T(1) / static_cast<T>(m_);
    for (int64_t k = 0; k < n_; ++k) {
      b[k] = chirp_[k] * inv_m;
      if (k) b[m_ - k] = b[k];
    }
    sub_->run(b.data(), w.data(), true);
    bfft_ = std::move(b);
  }

  void bluestein(C* data, C* work) const {
    C* a = work;
    C* sw = work + 2 * m_;
    for (int64_t k = 0; k < n_; ++k) a[k] = data[k] * std::conj(chirp_[k]);
    std::fill(a + n_, a + m_, C(0, 0));
    sub_->run(a, sw, true);
    for (int64_t k = 0; k < m_; ++k) a[k] *= bfft_[k];
    sub_->run(a, sw, false);
    for (int64_t k = 0; k < n_; ++k) data[k] = a[k] * std::conj(chirp_[k]);
  }

  // One self-sorting pass: cc viewed as [l1][ip][ido], ch as [ip][l1][ido];
  // ch[j][k][i] = tw(j, i) * sum_m cc[k][m][i] w^(j m), w = exp(-+2 pi i / ip).
  template <bool Fwd>
  void pass(const Pass& ps, const C* __restrict__ ccc, C* __restrict__ cch) const {
    // restrict: input, output and twiddles never overlap, so loads may move above stores
    using V = Cx<T>;  // layout-compatible with std::complex<T>
    const V* __restrict__ cc = reinterpret_cast<const V*>(ccc);
    V* __restrict__ ch = reinterpret_cast<V*>(cch);
    const int ip = ps.ip;
    const int64_t l1 = ps.l1, ido = ps.ido;
    const V* __restrict__ tw = reinterpret_cast<const V*>(tw_.data()) + ps.tw;
    if constexpr (std::is_same_v<T, double>)
      if (pass_fn_ && pass_fn_(ip, ps.l1, ps.ido, reinterpret_cast<const double*>(tw_.data() + ps.tw),
                               reinterpret_cast<const double*>(ccc), reinterpret_cast<double*>(cch), Fwd))
        return;
    auto twid = [&](int64_t j, int64_t i) {
      V t = tw[tw_index(ip, j, i)];
      return Fwd ? t : cconj(t);
    };
    auto mul = [](V a, V b) { return cmul(a, b); };
    // multiplies by -i (forward) or +i (backward)
    auto rot = [](V a) { return crot<Fwd>(a); };
    const int64_t os = l1 * ido;  // stride between outputs j
    // The radix is chosen once per pass; each branch runs its own loop over k.
    auto each_k = [&](auto&& body) {
      for (int64_t k = 0; k < l1; ++k) body(cc + k * ip * ido, ch + k * ido);
    };
    if (ip == 8) {
      each_k([&](const V* __restrict__ in, V* __restrict__ out) {
        const T h = T(0.707106781186547524400844362104849039L);
        auto bf = [&](int64_t i, V* y) {
          V a[8];
          for (int m = 0; m < 8; ++m) a[m] = in[m * ido + i];
          // two 4-point DFTs (even / odd samples), then the 8th-root twiddles
          V t0 = a[0] + a[4], t1 = a[0] - a[4], t2 = a[2] + a[6], t3 = rot(a[2] - a[6]);
          V e0 = t0 + t2, e1 = t1 + t3, e2 = t0 - t2, e3 = t1 - t3;
          V u0 = a[1] + a[5], u1 = a[1] - a[5], u2 = a[3] + a[7], u3 = rot(a[3] - a[7]);
          V o0 = u0 + u2, o1 = u1 + u3, o2 = u0 - u2, o3 = u1 - u3;
          o1 = (o1 + rot(o1)) * h;
          o2 = rot(o2);
          o3 = (rot(o3) - o3) * h;
          y[0] = e0 + o0; y[4] = e0 - o0;
          y[1] = e1 + o1; y[5] = e1 - o1;
          y[2] = e2 + o2; y[6] = e2 - o2;
          y[3] = e3 + o3; y[7] = e3 - o3;
        };
        V y[8];
        bf(0, y);
        for (int j = 0; j < 8; ++j) out[j * os] = y[j];
        for (int64_t i = 1; i < ido; ++i) {
          bf(i, y);
          out[i] = y[0];
          for (int j = 1; j < 8; ++j) out[j * os + i] = mul(y[j], twid(j, i));
        }
      });
    } else if (ip == 4) {
      each_k([&](const V* __restrict__ in, V* __restrict__ out) {
        auto bf = [&](int64_t i, V& y0, V& y1, V& y2, V& y3) {
          V a0 = in[i], a1 = in[ido + i], a2 = in[2 * ido + i], a3 = in[3 * ido + i];
          V t0 = a0 + a2, t1 = a0 - a2, t2 = a1 + a3, t3 = rot(a1 - a3);
          y0 = t0 + t2; y1 = t1 + t3; y2 = t0 - t2; y3 = t1 - t3;
        };
        V y0, y1, y2, y3;
        bf(0, y0, y1, y2, y3);
        out[0] = y0; out[os] = y1; out[2 * os] = y2; out[3 * os] = y3;
        for (int64_t i = 1; i < ido; ++i) {
          bf(i, y0, y1, y2, y3);
          out[i] = y0;
          out[os + i] = mul(y1, twid(1, i));
          out[2 * os + i] = mul(y2, twid(2, i));
          out[3 * os + i] = mul(y3, twid(3, i));
        }
      });
    } else if (ip == 2) {
      each_k([&](const V* __restrict__ in, V* __restrict__ out) {
        out[0] = in[0] + in[ido];
        out[os] = in[0] - in[ido];
        for (int64_t i = 1; i < ido; ++i) {
          V a0 = in[i], a1 = in[ido + i];
          out[i] = a0 + a1;
          out[os + i] = mul(a0 - a1, twid(1, i));
        }
      });
    } else if (ip == 3) {
      each_k([&](const V* __restrict__ in, V* __restrict__ out) {
        const T c = T(-0.5), s = Fwd ? T(-0.866025403784438646763723170752936183L) : T(0.866025403784438646763723170752936183L);
        for (int64_t i = 0; i < ido; ++i) {
          V a0 = in[i], a1 = in[ido + i], a2 = in[2 * ido + i];
          V t1 = a1 + a2, d = a1 - a2;
          V base = a0 + c * t1;
          V id = crot<false>(d) * s;  // i s d (crot<false>: times +i)
          V y1 = base + id, y2 = base - id;
          out[i] = a0 + t1;
          out[os + i] = i ? mul(y1, twid(1, i)) : y1;
          out[2 * os + i] = i ? mul(y2, twid(2, i)) : y2;
        }
      });
    } else if (ip == 5) {
      each_k([&](const V* __restrict__ in, V* __restrict__ out) {
        const T c1 = T(0.309016994374947424102293417182819059L), c2 = T(-0.809016994374947424102293417182819059L);
        const T sg = Fwd ? T(-1) : T(1);
        const T s1 = sg * T(0.951056516295153572116439333379382143L), s2 = sg * T(0.587785252292473129168705954639072769L);
        for (int64_t i = 0; i < ido; ++i) {
          V a0 = in[i], a1 = in[ido + i], a2 = in[2 * ido + i], a3 = in[3 * ido + i], a4 = in[4 * ido + i];
          V t1 = a1 + a4, t2 = a2 + a3, d1 = a1 - a4, d2 = a2 - a3;
          V b1 = a0 + c1 * t1 + c2 * t2, b2 = a0 + c2 * t1 + c1 * t2;
          V e1 = s1 * d1 + s2 * d2, e2 = s2 * d1 - s1 * d2;
          V ie1 = crot<false>(e1), ie2 = crot<false>(e2);  // i e1, i e2
          out[i] = a0 + t1 + t2;
          if (i) {
            out[os + i] = mul(b1 + ie1, twid(1, i));
            out[2 * os + i] = mul(b2 + ie2, twid(2, i));
            out[3 * os + i] = mul(b2 - ie2, twid(3, i));
            out[4 * os + i] = mul(b1 - ie1, twid(4, i));
          } else {
            out[os] = b1 + ie1; out[2 * os] = b2 + ie2; out[3 * os] = b2 - ie2; out[4 * os] = b1 - ie1;
          }
        }
      });
    } else {
      each_k([&](const V* __restrict__ in, V* __restrict__ out) {
        const V* roots = reinterpret_cast<const V*>(roots_.data()) + ps.roots;
        std::vector<V> v(ip);
        for (int64_t i = 0; i < ido; ++i) {
          for (int m = 0; m < ip; ++m) v[m] = in[m * ido + i];
          for (int j = 0; j < ip; ++j) {
            V acc = v[0];
            int64_t idx = 0;
            for (int m = 1; m < ip; ++m) {
              idx += j;
              if (idx >= ip) idx -= ip;
              V r = Fwd ? roots[idx] : cconj(roots[idx]);
              acc += mul(v[m], r);
            }
            out[j * os + i] = (j && i) ? mul(acc, twid(j, i)) : acc;
          }
        }
      });
    }
  }

  int64_t n_;
  std::vector<Pass> passes_;
  std::vector<C> tw_, roots_;
  bool blue_ = false;
  int64_t m_ = 0;
  std::unique_ptr<FftPlan<T>> sub_;
  std::vector<C> chirp_, bfft_;
  FftPassFn pass_fn_ = nullptr, pair_fn_ = nullptr;
  bool pair_ok_ = false;
};

// Real transforms of even length n = 2h through one complex transform of length h: the even
// and odd samples travel as the real and imaginary parts, and a twiddle pass separates them.
// Odd lengths use the complex plan of length n on the real data.
template <class T>
class RealPlan {
 public:
  using C = std::complex<T>;
  explicit RealPlan(int64_t n) : n_(n), even_(n % 2 == 0 && n >= 4), plan_(even_ ? n / 2 : n) {
    if (even_)
      for (int64_t k = 0; k <= n / 2; ++k) w_.push_back(FftPlan<T>::template unit<T>(k, n));
  }
  int64_t work_size() const { return plan_.size() + plan_.work_size() + 1; }

  // out[0..n/2] = unnormalised forward transform of the real x[0..n)
  void forward(const T* x, C* out, C* work) const {
    C* z = work;
    C* w = work + plan_.size();
    if (!even_) {
      for (int64_t i = 0; i < n_; ++i) z[i] = C(x[i], T(0));
      plan_.run(z, z, w, true);
      for (int64_t k = 0; k <= n_ / 2; ++k) out[k] = z[k];
      return;
    }
    const int64_t h = n_ / 2;
    for (int64_t j = 0; j < h; ++j) z[j] = C(x[2 * j], x[2 * j + 1]);
    plan_.run(z, z, w, true);
    for (int64_t k = 0; k <= h; ++k) {
      C a = z[k == h ? 0 : k], b = std::conj(z[k == 0 ? 0 : h - k]);
      C e = (a + b) * T(0.5);
      C d = (a - b) * T(0.5);
      C o(d.imag(), -d.real());  // d / i
      C t = w_[k];
      out[k] = e + C(t.real() * o.real() - t.imag() * o.imag(), t.real() * o.imag() + t.imag() * o.real());
    }
  }

  // x[0..n) = unnormalised backward transform of the Hermitian spectrum X[0..n/2]
  // (imaginary parts of X[0] and, for even n, X[n/2] are ignored, as numpy does).
  void backward(const C* X, T* x, C* work) const {
    C* z = work;
    C* w = work + plan_.size();
    const int64_t m = n_ / 2 + 1;
    if (!even_) {
      for (int64_t k = 0; k < m; ++k) z[k] = X[k];
      for (int64_t k = m; k < n_; ++k) z[k] = std::conj(X[n_ - k]);
      plan_.run(z, z, w, false);
      for (int64_t i = 0; i < n_; ++i) x[i] = z[i].real();
      return;
    }
    const int64_t h = n_ / 2;
    for (int64_t k = 0; k < h; ++k) {
      C a = k == 0 ? C(X[0].real(), T(0)) : X[k];
      C b = h - k == h ? C(X[h].real(), T(0)) : std::conj(X[h - k]);
      if (k == 0) b = C(X[h].real(), T(0));
      C e = a + b, d = a - b;
      C t = std::conj(w_[k]);
      C o(t.real() * d.real() - t.imag() * d.imag(), t.real() * d.imag() + t.imag() * d.real());
      z[k] = e + C(-o.imag(), o.real());  // e + i o
    }
    plan_.run(z, z, w, false);
    for (int64_t j = 0; j < h; ++j) {
      x[2 * j] = z[j].real();
      x[2 * j + 1] = z[j].imag();
    }
  }

 private:
  int64_t n_;
  bool even_;
  FftPlan<T> plan_;
  std::vector<C> w_;
};

}  // namespace mnn::cpu::fft

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
