// CPU kernels of the FFT primitives (shape rules: ops/fft/fft.cpp).
//
// One 1-D complex transform of any length n: the FFTPACK-style mixed-radix decomposition with
// self-sorting (Stockham) passes, radices 4, 2, 3, 5 written out and any other odd factor done
// directly; a length with a prime factor above kMaxDirectRadix goes through Bluestein's chirp-z
// (a cyclic convolution of smooth length m >= 2n-1). Plans (factors, twiddles) are built once per
// (length, precision) and shared. Batches of lines along a non-last axis are gathered a few
// columns at a time so every cache line read is used whole.
#include <cmath>
#include <complex>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "core/error.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

constexpr int kMaxDirectRadix = 64;

template <class T>
class FftPlan {
 public:
  using C = std::complex<T>;

  explicit FftPlan(int64_t n) : n_(n) {
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
      for (int64_t j = 1; j < p; ++j)
        for (int64_t i = 0; i < ps.ido; ++i) tw_.push_back(unit<T>((j * i * l1) % n, n));
      if (p > 5)
        for (int64_t k = 0; k < p; ++k) roots_.push_back(unit<T>(k, p));
      passes_.push_back(ps);
      l1 *= p;
    }
  }

  int64_t size() const { return n_; }
  // Elements of scratch run() needs.
  int64_t work_size() const { return blue_ ? 2 * m_ + sub_->work_size() : n_; }

  // Transforms data[0..n) in place (unnormalised); work has work_size() elements.
  void run(C* data, C* work, bool forward) const {
    if (n_ == 1) return;
    if (blue_) {
      if (forward) return bluestein(data, work);
      // backward(x) = conj(forward(conj(x))): Bluestein needs only the forward chirp
      for (int64_t i = 0; i < n_; ++i) data[i] = std::conj(data[i]);
      bluestein(data, work);
      for (int64_t i = 0; i < n_; ++i) data[i] = std::conj(data[i]);
      return;
    }
    C* src = data;
    C* dst = work;
    for (const Pass& ps : passes_) {
      if (forward) pass<true>(ps, src, dst);
      else pass<false>(ps, src, dst);
      std::swap(src, dst);
    }
    if (src != data) std::memcpy(static_cast<void*>(data), src, sizeof(C) * n_);
  }

 private:
  struct Pass {
    int ip;
    int64_t l1, ido;
    size_t tw, roots;
  };

  // exp(-2 pi i k / n), from the angle reduced to [0, 2pi): accurate to an ulp or two.
  template <class U>
  static std::complex<U> unit(int64_t k, int64_t n) {
    long double a = -2.0L * 3.141592653589793238462643383279502884L * static_cast<long double>(k) /
                    static_cast<long double>(n);
    double ad = static_cast<double>(a);
    return std::complex<U>(static_cast<U>(std::cos(ad)), static_cast<U>(std::sin(ad)));
  }

  static std::vector<int64_t> factorize(int64_t n) {
    std::vector<int64_t> f;
    while (n % 4 == 0) { f.push_back(4); n /= 4; }
    while (n % 2 == 0) { f.push_back(2); n /= 2; }
    for (int64_t p = 3; p * p <= n; p += 2)
      while (n % p == 0) { f.push_back(p); n /= p; }
    if (n > 1) f.push_back(n);
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
  void pass(const Pass& ps, const C* cc, C* ch) const {
    const int ip = ps.ip;
    const int64_t l1 = ps.l1, ido = ps.ido;
    const C* tw = tw_.data() + ps.tw;
    auto twid = [&](int64_t j, int64_t i) {
      C t = tw[(j - 1) * ido + i];
      return Fwd ? t : std::conj(t);
    };
    auto mul = [](C a, C b) { return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()); };
    // multiplies by -i (forward) or +i (backward)
    auto rot = [](C a) { return Fwd ? C(a.imag(), -a.real()) : C(-a.imag(), a.real()); };
    for (int64_t k = 0; k < l1; ++k) {
      const C* in = cc + k * ip * ido;
      C* out = ch + k * ido;
      const int64_t os = l1 * ido;  // stride between outputs j
      if (ip == 4) {
        for (int64_t i = 0; i < ido; ++i) {
          C a0 = in[i], a1 = in[ido + i], a2 = in[2 * ido + i], a3 = in[3 * ido + i];
          C t0 = a0 + a2, t1 = a0 - a2, t2 = a1 + a3, t3 = rot(a1 - a3);
          C y0 = t0 + t2, y1 = t1 + t3, y2 = t0 - t2, y3 = t1 - t3;
          out[i] = y0;
          if (i == 0) {
            out[os] = y1; out[2 * os] = y2; out[3 * os] = y3;
          } else {
            out[os + i] = mul(y1, twid(1, i));
            out[2 * os + i] = mul(y2, twid(2, i));
            out[3 * os + i] = mul(y3, twid(3, i));
          }
        }
      } else if (ip == 2) {
        for (int64_t i = 0; i < ido; ++i) {
          C a0 = in[i], a1 = in[ido + i];
          out[i] = a0 + a1;
          out[os + i] = i ? mul(a0 - a1, twid(1, i)) : a0 - a1;
        }
      } else if (ip == 3) {
        const T c = T(-0.5), s = Fwd ? T(-0.866025403784438646763723170752936183L) : T(0.866025403784438646763723170752936183L);
        for (int64_t i = 0; i < ido; ++i) {
          C a0 = in[i], a1 = in[ido + i], a2 = in[2 * ido + i];
          C t1 = a1 + a2, d = a1 - a2;
          C base = a0 + c * t1;
          C id(-s * d.imag(), s * d.real());  // i s d
          C y1 = base + id, y2 = base - id;
          out[i] = a0 + t1;
          if (i == 0) {
            out[os] = y1; out[2 * os] = y2;
          } else {
            out[os + i] = mul(y1, twid(1, i));
            out[2 * os + i] = mul(y2, twid(2, i));
          }
        }
      } else if (ip == 5) {
        const T c1 = T(0.309016994374947424102293417182819059L), c2 = T(-0.809016994374947424102293417182819059L);
        const T sg = Fwd ? T(-1) : T(1);
        const T s1 = sg * T(0.951056516295153572116439333379382143L), s2 = sg * T(0.587785252292473129168705954639072769L);
        for (int64_t i = 0; i < ido; ++i) {
          C a0 = in[i], a1 = in[ido + i], a2 = in[2 * ido + i], a3 = in[3 * ido + i], a4 = in[4 * ido + i];
          C t1 = a1 + a4, t2 = a2 + a3, d1 = a1 - a4, d2 = a2 - a3;
          C b1 = a0 + c1 * t1 + c2 * t2, b2 = a0 + c2 * t1 + c1 * t2;
          C e1 = s1 * d1 + s2 * d2, e2 = s2 * d1 - s1 * d2;
          C ie1(-e1.imag(), e1.real()), ie2(-e2.imag(), e2.real());
          C y[5] = {a0 + t1 + t2, b1 + ie1, b2 + ie2, b2 - ie2, b1 - ie1};
          out[i] = y[0];
          for (int j = 1; j < 5; ++j) out[j * os + i] = i ? mul(y[j], twid(j, i)) : y[j];
        }
      } else {
        const C* roots = roots_.data() + ps.roots;
        std::vector<C> v(ip);
        for (int64_t i = 0; i < ido; ++i) {
          for (int m = 0; m < ip; ++m) v[m] = in[m * ido + i];
          for (int j = 0; j < ip; ++j) {
            C acc = v[0];
            int64_t idx = 0;
            for (int m = 1; m < ip; ++m) {
              idx += j;
              if (idx >= ip) idx -= ip;
              C r = Fwd ? roots[idx] : std::conj(roots[idx]);
              acc += mul(v[m], r);
            }
            out[j * os + i] = (j && i) ? mul(acc, twid(j, i)) : acc;
          }
        }
      }
    }
  }

  int64_t n_;
  std::vector<Pass> passes_;
  std::vector<C> tw_, roots_;
  bool blue_ = false;
  int64_t m_ = 0;
  std::unique_ptr<FftPlan<T>> sub_;
  std::vector<C> chirp_, bfft_;
};

template <class T>
std::shared_ptr<const FftPlan<T>> plan_for(int64_t n) {
  static std::mutex mu;
  static std::map<int64_t, std::shared_ptr<const FftPlan<T>>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  if (cache.size() > 64) cache.clear();  // bounded: plans of long transforms are large
  auto p = std::make_shared<const FftPlan<T>>(n);
  cache[n] = p;
  return p;
}

// The lines of an array along one axis: outer x [len] x inner, contiguous.
struct Lines {
  int64_t outer = 1, inner = 1;
  Lines(const Shape& s, int axis) {
    for (int d = 0; d < axis; ++d) outer *= s[d];
    for (size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  }
};

// Runs fn(src_line, dst_line) over every line; lines along a non-last axis are gathered in blocks
// of kBlock columns into contiguous scratch and scattered back.
template <class Sin, class Sout, class Fn>
void for_lines(const Sin* in, int64_t nin, Sout* out, int64_t nout, const Lines& L, Fn&& fn) {
  constexpr int64_t kBlock = 8;
  if (L.inner == 1) {
    int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, nin));
    parallel_for(L.outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) fn(in + o * nin, out + o * nout);
    });
    return;
  }
  const int64_t nblk = (L.inner + kBlock - 1) / kBlock;
  parallel_for(L.outer * nblk, 1, [&](int64_t b, int64_t e) {
    std::vector<Sin> gi(static_cast<size_t>(kBlock * nin));
    std::vector<Sout> go(static_cast<size_t>(kBlock * nout));
    for (int64_t u = b; u < e; ++u) {
      int64_t o = u / nblk, c0 = (u % nblk) * kBlock, w = std::min(kBlock, L.inner - c0);
      const Sin* ib = in + o * nin * L.inner + c0;
      for (int64_t j = 0; j < nin; ++j)
        for (int64_t c = 0; c < w; ++c) gi[c * nin + j] = ib[j * L.inner + c];
      for (int64_t c = 0; c < w; ++c) fn(gi.data() + c * nin, go.data() + c * nout);
      Sout* ob = out + o * nout * L.inner + c0;
      for (int64_t j = 0; j < nout; ++j)
        for (int64_t c = 0; c < w; ++c) ob[j * L.inner + c] = go[c * nout + j];
    }
  });
}

template <class T>
class FftKernel final : public backend::Kernel {
 public:
  using C = std::complex<T>;
  enum Kind { C2C, R2C, C2R };
  FftKernel(const backend::StepDesc& s, Kind kind) : kind_(kind), lines_(s.inputs[0].shape, static_cast<int>(s.params->ints[0])) {
    axis_ = static_cast<int>(s.params->ints[0]);
    nin_ = s.inputs[0].shape[axis_];
    nout_ = s.output.shape[axis_];
    forward_ = kind == C2C ? s.params->ints[1] != 0 : kind == R2C;
    n_ = kind == C2R ? nout_ : nin_;
    scale_ = static_cast<T>(s.params->floats.empty() ? 1.0 : s.params->floats[0]);
    plan_ = plan_for<T>(n_);
  }

  void run(char* const* inputs, char* output) override {
    if (lines_.outer * lines_.inner == 0) return;
    const FftPlan<T>& P = *plan_;
    const int64_t n = n_;
    const T scale = scale_;
    const bool fwd = forward_;
    auto scratch = [&]() {
      thread_local std::vector<C> buf;
      size_t need = static_cast<size_t>(n + P.work_size());
      if (buf.size() < need) buf.resize(need);
      return buf.data();
    };
    if (kind_ == C2C) {
      for_lines(reinterpret_cast<const C*>(inputs[0]), nin_, reinterpret_cast<C*>(output), nout_, lines_,
                [&](const C* src, C* dst) {
                  C* w = scratch();
                  if (dst != src) std::memcpy(static_cast<void*>(dst), src, sizeof(C) * n);
                  P.run(dst, w, fwd);
                  if (scale != T(1))
                    for (int64_t i = 0; i < n; ++i) dst[i] *= scale;
                });
    } else if (kind_ == R2C) {
      for_lines(reinterpret_cast<const T*>(inputs[0]), nin_, reinterpret_cast<C*>(output), nout_, lines_,
                [&](const T* src, C* dst) {
                  C* w = scratch();
                  C* z = w + P.work_size();
                  for (int64_t i = 0; i < n; ++i) z[i] = C(src[i], T(0));
                  P.run(z, w, true);
                  for (int64_t i = 0; i < nout_; ++i) dst[i] = z[i] * scale;
                });
    } else {
      for_lines(reinterpret_cast<const C*>(inputs[0]), nin_, reinterpret_cast<T*>(output), nout_, lines_,
                [&](const C* src, T* dst) {
                  C* w = scratch();
                  C* z = w + P.work_size();
                  for (int64_t k = 0; k < nin_; ++k) z[k] = src[k];
                  for (int64_t k = nin_; k < n; ++k) z[k] = std::conj(src[n - k]);
                  P.run(z, w, false);
                  for (int64_t i = 0; i < n; ++i) dst[i] = z[i].real() * scale;
                });
    }
  }

 private:
  Kind kind_;
  Lines lines_;
  int axis_;
  int64_t nin_, nout_, n_;
  bool forward_;
  T scale_;
  std::shared_ptr<const FftPlan<T>> plan_;
};

template <int K>
std::unique_ptr<backend::Kernel> prepare_fft(const backend::StepDesc& s) {
  using Kd = typename FftKernel<double>::Kind;
  DType d = K == 2 ? s.output.dtype : s.inputs[0].dtype;  // the real side decides the precision
  if (K == 1) d = s.inputs[0].dtype;
  bool single = d == DType::Complex64 || d == DType::Float32;
  if (single) return std::make_unique<FftKernel<float>>(s, static_cast<typename FftKernel<float>::Kind>(K));
  return std::make_unique<FftKernel<double>>(s, static_cast<Kd>(K));
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(fft_c2c, "fft_c2c", &prepare_fft<0>);
MNN_REGISTER_CPU_KERNEL(fft_r2c, "fft_r2c", &prepare_fft<1>);
MNN_REGISTER_CPU_KERNEL(fft_c2r, "fft_c2r", &prepare_fft<2>);

}  // namespace mnn::cpu
