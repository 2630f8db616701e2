// CPU kernel of the "random" primitive (ops/random/random.cpp).
//
// The bits come from Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC'11), a counter-based generator: block(key, counter) is a pure function, so output
// element i can be computed by whichever thread owns it and the result is the same for any
// thread count. Two ways of addressing the counter space:
//   - lanes: the cheap distributions (uniform, normal, exponential, bounded integers) read one
//     128-bit block per pair of elements, counter = (m, 0, 0, 0) for block m;
//   - streams: distributions that reject or loop (gamma, Poisson, binomial, ...) give element i
//     its own unbounded stream, counter = (i, j) for its j-th block, under a different key so the
//     two never overlap.
// Sequential algorithms (Fisher-Yates, weighted sampling without replacement) use stream 0 on
// one thread.
//
// Compiled once per ISA (simd/): only the integer Philox rounds differ (AVX2 computes 8 blocks
// per instruction), and integer arithmetic is exact, so every ISA produces the same bits; the
// floating-point steps are the same scalar code everywhere (and -ffp-contract=off keeps FMA out).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

enum Dist : int64_t {
  kUniform = 0, kNormal, kExponential, kGamma, kPoisson, kBinomial, kIntegers, kGeometric,
  kChoiceCdf, kPermutation, kChoiceNoReplace, kBeta, kPermutationRows
};

struct Block {
  uint32_t w[4];
};

inline Block philox(uint32_t k0, uint32_t k1, uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3) {
  constexpr uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  for (int r = 0; r < 10; ++r) {
    uint64_t p0 = static_cast<uint64_t>(M0) * c0, p1 = static_cast<uint64_t>(M1) * c2;
    uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += W0;
    k1 += W1;
  }
  return {{c0, c1, c2, c3}};
}

// kBatch consecutive blocks (counters m0 .. m0+kBatch-1, zero high words) in structure-of-arrays
// form: the same rounds as philox() on every lane, written so the compiler vectorises them
// (32x32->64 multiplies map onto pmuludq).
constexpr int kBatch = 16;

inline void philox_batch(uint32_t k0, uint32_t k1, uint64_t m0, uint32_t (&w)[4][kBatch]) {
  constexpr uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
#if defined(__AVX2__)
  // Two groups of 8 lanes. mul_epu32 multiplies the even 32-bit lanes into 64-bit products; the
  // odd lanes go through the same multiply after a 32-bit shift, and blends put hi/lo halves back.
  const __m256i mul0 = _mm256_set1_epi32(static_cast<int>(M0)), mul1 = _mm256_set1_epi32(static_cast<int>(M1));
  for (int g = 0; g < kBatch; g += 8) {
    alignas(32) uint32_t lo[8], hi[8];
    for (int i = 0; i < 8; ++i) {
      uint64_t m = m0 + static_cast<uint64_t>(g + i);
      lo[i] = static_cast<uint32_t>(m);
      hi[i] = static_cast<uint32_t>(m >> 32);
    }
    __m256i c0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(lo));
    __m256i c1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(hi));
    __m256i c2 = _mm256_setzero_si256(), c3 = _mm256_setzero_si256();
    uint32_t ka = k0, kb = k1;
    for (int r = 0; r < 10; ++r) {
      __m256i pe0 = _mm256_mul_epu32(c0, mul0), po0 = _mm256_mul_epu32(_mm256_srli_epi64(c0, 32), mul0);
      __m256i pe1 = _mm256_mul_epu32(c2, mul1), po1 = _mm256_mul_epu32(_mm256_srli_epi64(c2, 32), mul1);
      __m256i hi0 = _mm256_blend_epi32(_mm256_srli_epi64(pe0, 32), po0, 0xAA);
      __m256i lo0 = _mm256_blend_epi32(pe0, _mm256_slli_epi64(po0, 32), 0xAA);
      __m256i hi1 = _mm256_blend_epi32(_mm256_srli_epi64(pe1, 32), po1, 0xAA);
      __m256i lo1 = _mm256_blend_epi32(pe1, _mm256_slli_epi64(po1, 32), 0xAA);
      __m256i n0 = _mm256_xor_si256(_mm256_xor_si256(hi1, c1), _mm256_set1_epi32(static_cast<int>(ka)));
      __m256i n2 = _mm256_xor_si256(_mm256_xor_si256(hi0, c3), _mm256_set1_epi32(static_cast<int>(kb)));
      c0 = n0;
      c1 = lo1;
      c2 = n2;
      c3 = lo0;
      ka += W0;
      kb += W1;
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(&w[0][g]), c0);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(&w[1][g]), c1);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(&w[2][g]), c2);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(&w[3][g]), c3);
  }
#else
  uint32_t c0[kBatch], c1[kBatch], c2[kBatch], c3[kBatch];
  for (int i = 0; i < kBatch; ++i) {
    uint64_t m = m0 + static_cast<uint64_t>(i);
    c0[i] = static_cast<uint32_t>(m);
    c1[i] = static_cast<uint32_t>(m >> 32);
    c2[i] = 0;
    c3[i] = 0;
  }
  for (int r = 0; r < 10; ++r) {
    for (int i = 0; i < kBatch; ++i) {
      uint64_t p0 = static_cast<uint64_t>(M0) * c0[i], p1 = static_cast<uint64_t>(M1) * c2[i];
      uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1[i] ^ k0;
      uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c3[i] ^ k1;
      c1[i] = static_cast<uint32_t>(p1);
      c3[i] = static_cast<uint32_t>(p0);
      c0[i] = n0;
      c2[i] = n2;
    }
    k0 += W0;
    k1 += W1;
  }
  for (int i = 0; i < kBatch; ++i) {
    w[0][i] = c0[i];
    w[1][i] = c1[i];
    w[2][i] = c2[i];
    w[3][i] = c3[i];
  }
#endif
}

constexpr double kTwo53 = 1.0 / 9007199254740992.0;  // 2^-53

inline double u01(uint64_t x) { return static_cast<double>(x >> 11) * kTwo53; }            // [0, 1)
inline double u01_open_low(uint64_t x) { return static_cast<double>((x >> 11) + 1) * kTwo53; }  // (0, 1]
inline uint64_t join(uint32_t lo, uint32_t hi) { return (static_cast<uint64_t>(hi) << 32) | lo; }

// Element i's private stream: an unbounded sequence of 32-bit words.
class Stream {
 public:
  Stream(uint64_t key, uint64_t i)
      : k0_(static_cast<uint32_t>(key) ^ 0x85EBCA6Bu), k1_(static_cast<uint32_t>(key >> 32) ^ 0xC2B2AE35u), i_(i) {}
  uint32_t next32() {
    if (pos_ == 4) {
      b_ = philox(k0_, k1_, static_cast<uint32_t>(i_), static_cast<uint32_t>(i_ >> 32), static_cast<uint32_t>(j_),
                  static_cast<uint32_t>(j_ >> 32));
      ++j_;
      pos_ = 0;
    }
    return b_.w[pos_++];
  }
  uint64_t next64() {
    uint32_t lo = next32();
    return join(lo, next32());
  }
  double uniform() { return u01(next64()); }
  double uniform_open_low() { return u01_open_low(next64()); }
  double normal() {
    double u1 = uniform_open_low(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

 private:
  uint32_t k0_, k1_;
  uint64_t i_, j_ = 0;
  Block b_{};
  int pos_ = 4;
};

// Ziggurat tables (Marsaglia & Tsang, "The Ziggurat Method for Generating Random Variables",
// 2000) with 256 layers of equal area v under a decreasing density f, from the base layer's
// edge r: x[i+1] = f^-1(f(x[i]) + v / x[i]), x[0] = v / f(r) (the base strip with the tail),
// x[256] = 0. Layer i spans heights [f(x[i]), f(x[i+1])] and widths [0, x[i]).
struct Ziggurat {
  double x[257], f[257];
  Ziggurat(double r, double v, double (*dens)(double), double (*inv)(double)) {
    x[0] = v / dens(r);
    x[1] = r;
    for (int i = 1; i < 256; ++i) x[i + 1] = i == 255 ? 0.0 : inv(dens(x[i]) + v / x[i]);
    for (int i = 0; i <= 256; ++i) f[i] = dens(x[i]);
  }
};

double normal_density(double x) { return std::exp(-0.5 * x * x); }
double normal_inverse(double y) { return std::sqrt(-2.0 * std::log(y)); }
double exp_density(double x) { return std::exp(-x); }
double exp_inverse(double y) { return -std::log(y); }

const Ziggurat& normal_zig() {
  static const Ziggurat z(3.6541528853610088, 0.00492867323399, &normal_density, &normal_inverse);
  return z;
}
const Ziggurat& exp_zig() {
  static const Ziggurat z(7.69711747013104972, 0.0039496598225815571993, &exp_density, &exp_inverse);
  return z;
}

// One 64-bit word: bits 0-7 pick the layer, bit 8 the sign (normal only), bits 11-63 the
// position. The rectangle test accepts about 99% of draws; the rest (wedges, the tail) continue
// in the element's own stream, so the value still depends only on (key, element).
inline bool zig_try(const Ziggurat& z, uint64_t bits, double& x) {
  int i = static_cast<int>(bits & 255);
  x = u01(bits) * z.x[i];
  return x < z.x[i + 1];
}

// The draw `b` missed its layer's rectangle: finish it in its wedge or the tail (continuing with
// the element's stream), and start a whole new draw only when the wedge rejects (the standard
// algorithm; restarting on every miss would under-sample wedges and tail).
double normal_finish(Stream& s, uint64_t b) {
  const Ziggurat& z = normal_zig();
  for (;;) {
    double x;
    const double sign = (b & 256) ? -1.0 : 1.0;
    if (zig_try(z, b, x)) return sign * x;
    const int i = static_cast<int>(b & 255);
    if (i == 0) {  // the tail beyond r (Marsaglia 1964)
      const double r = z.x[1];
      double a, c;
      do {
        a = -std::log(s.uniform_open_low()) / r;
        c = -std::log(s.uniform_open_low());
      } while (c + c < a * a);
      return sign * (r + a);
    }
    if (z.f[i] + s.uniform() * (z.f[i + 1] - z.f[i]) < normal_density(x)) return sign * x;
    b = s.next64();
  }
}

double exponential_finish(Stream& s, uint64_t b) {
  const Ziggurat& z = exp_zig();
  for (;;) {
    double x;
    if (zig_try(z, b, x)) return x;
    const int i = static_cast<int>(b & 255);
    if (i == 0) return z.x[1] - std::log(s.uniform_open_low());  // memoryless tail
    if (z.f[i] + s.uniform() * (z.f[i + 1] - z.f[i]) < exp_density(x)) return x;
    b = s.next64();
  }
}

inline double normal_zig_draw(uint64_t bits, uint64_t key, uint64_t e) {
  double x;
  if (zig_try(normal_zig(), bits, x)) return (bits & 256) ? -x : x;
  Stream s(key, e);
  return normal_finish(s, bits);
}

inline double exponential_zig_draw(uint64_t bits, uint64_t key, uint64_t e) {
  double x;
  if (zig_try(exp_zig(), bits, x)) return x;
  Stream s(key, e);
  return exponential_finish(s, bits);
}

// Marsaglia & Tsang (2000); shape < 1 boosts to shape + 1 and scales by U^(1/shape).
double gamma(Stream& s, double a) {
  if (a == 0.0) return 0.0;
  if (a < 1.0) {
    double u = s.uniform_open_low();
    return std::exp(std::log(gamma(s, a + 1.0)) + std::log(u) / a);
  }
  const double d = a - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = s.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = s.uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

double beta(Stream& s, double a, double b) {
  double x = gamma(s, a), y = gamma(s, b);
  if (x + y == 0.0) return s.uniform() < a / (a + b) ? 1.0 : 0.0;  // both underflowed (tiny shapes)
  return x / (x + y);
}

// Knuth's product of uniforms for small means; Hormann's PTRS (transformed rejection) otherwise.
int64_t poisson(Stream& s, double lam) {
  if (lam == 0.0) return 0;
  if (lam < 10.0) {
    const double L = std::exp(-lam);
    int64_t k = 0;
    double prod = s.uniform();
    while (prod > L) {
      ++k;
      prod *= s.uniform();
    }
    return k;
  }
  const double slam = std::sqrt(lam), loglam = std::log(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    double U = s.uniform() - 0.5, V = s.uniform();
    double us = 0.5 - std::fabs(U);
    double k = std::floor((2.0 * a / us + b) * U + lam + 0.43);
    if (us >= 0.07 && V <= vr) return static_cast<int64_t>(k);
    if (k < 0.0 || (us < 0.013 && V > us)) continue;
    if (std::log(V) + std::log(invalpha) - std::log(a / (us * us) + b) <= -lam + k * loglam - std::lgamma(k + 1.0))
      return static_cast<int64_t>(k);
  }
}

// Inversion (walk the pmf from 0) for a small mean n*p with p <= 1/2.
int64_t binomial_inversion(Stream& s, int64_t n, double p) {
  const double q = 1.0 - p, r = p / q, g = r * static_cast<double>(n + 1);
  const double q_n = std::exp(static_cast<double>(n) * std::log1p(-p));
  for (;;) {
    double f = q_n, u = s.uniform();
    int64_t x = 0;
    for (;;) {
      if (u < f) return x;
      if (x >= n) break;  // rounding left mass at the end: draw again
      u -= f;
      ++x;
      f *= g / static_cast<double>(x) - r;
    }
  }
}

// Large means: split on an order statistic of the n uniforms (Devroye, "Non-Uniform Random
// Variate Generation", X.4): the a-th smallest is Beta(a, n + 1 - a); the count below p is a
// plus or minus a binomial of about half the size, so O(log n) beta draws reach the small case.
int64_t binomial(Stream& s, int64_t n, double p) {
  int64_t acc = 0;
  bool flip = false;
  for (;;) {
    if (n == 0 || p <= 0.0) return flip ? -acc : acc;
    if (p >= 1.0) return flip ? -(acc + n) : acc + n;
    double small_p = std::min(p, 1.0 - p);
    if (static_cast<double>(n) * small_p < 30.0) {
      int64_t x = p <= 0.5 ? binomial_inversion(s, n, p) : n - binomial_inversion(s, n, 1.0 - p);
      return flip ? -(acc + x) : acc + x;
    }
    int64_t a = (n + 1) / 2;
    double x = beta(s, static_cast<double>(a), static_cast<double>(n + 1 - a));
    if (x < p) {
      acc += a;
      n -= a;
      p = (p - x) / (1.0 - x);
    } else {
      n = a - 1;
      p = p / x;
    }
  }
}

// Uniform on [0, range] (inclusive), unbiased: Lemire's multiply-shift with rejection; the
// first draw comes from the lane, redraws from the element's stream.
inline uint64_t bounded(uint64_t x, uint64_t range, uint64_t key, uint64_t i) {
  if (range == std::numeric_limits<uint64_t>::max()) return x;
  const uint64_t m = range + 1;
  if ((m & range) == 0) return x & range;
  unsigned __int128 prod = static_cast<unsigned __int128>(x) * m;
  uint64_t low = static_cast<uint64_t>(prod);
  if (low < m) {
    const uint64_t t = (0 - m) % m;
    if (low < t) {
      Stream s(key, i);
      while (low < t) {
        prod = static_cast<unsigned __int128>(s.next64()) * m;
        low = static_cast<uint64_t>(prod);
      }
    }
  }
  return static_cast<uint64_t>(prod >> 64);
}

int64_t geometric(double u_open_low, double p) {
  if (p >= 1.0) return 1;
  double k = std::floor(std::log(u_open_low) / std::log1p(-p)) + 1.0;
  return k >= 9.2e18 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(k);
}

struct Param {
  const char* p = nullptr;
  bool per_element = false;
  template <class T>
  T at(int64_t i) const { return reinterpret_cast<const T*>(p)[per_element ? i : 0]; }
};

class RandomKernel final : public backend::Kernel {
 public:
  explicit RandomKernel(const backend::StepDesc& s)
      : dist_(s.params->ints[0]), out_dtype_(s.output.dtype), n_(numel(s.output.shape)),
        n_rows_(s.output.shape.empty() ? 1 : s.output.shape[0]) {
    for (size_t k = 1; k < s.inputs.size(); ++k) {
      table_len_ = numel(s.inputs[k].shape);
      per_element_.push_back(table_len_ != 1 || n_ == 1);
    }
  }

  void run(char* const* in, char* out) override {
    const uint64_t key = *reinterpret_cast<const uint64_t*>(in[0]);
    Param p[2];
    for (size_t k = 0; k < per_element_.size(); ++k) p[k] = {in[k + 1], per_element_[k]};
    if (out_dtype_ == DType::Float32) run_typed<float>(key, p, out);
    else if (out_dtype_ == DType::Float64) run_typed<double>(key, p, out);
    else run_typed<int64_t>(key, p, out);
  }

 private:
  template <class T>
  void run_typed(uint64_t key, const Param* p, char* out_bytes) {
    T* out = reinterpret_cast<T*>(out_bytes);
    const int64_t n = n_;
    const uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
    // Lane distributions: block m feeds elements 2m and 2m+1 (64 bits each).
    auto lanes = [&](auto&& gen) {
      parallel_for((n + 1) / 2, 2048, [&](int64_t lo, int64_t hi) {
        uint32_t w[4][kBatch];
        int64_t m = lo;
        for (; m + kBatch <= hi; m += kBatch) {
          philox_batch(k0, k1, static_cast<uint64_t>(m), w);
          for (int i = 0; i < kBatch; ++i) gen(2 * (m + i), join(w[0][i], w[1][i]), join(w[2][i], w[3][i]));
        }
        for (; m < hi; ++m) {
          Block b = philox(k0, k1, static_cast<uint32_t>(m), static_cast<uint32_t>(m >> 32), 0, 0);
          gen(2 * m, join(b.w[0], b.w[1]), join(b.w[2], b.w[3]));
        }
      });
    };
    auto put = [&](int64_t i, auto v) {
      if (i < n) out[i] = static_cast<T>(v);
    };
    auto per_stream = [&](int64_t grain, auto&& gen) {
      parallel_for(n, grain, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
          Stream s(key, static_cast<uint64_t>(i));
          out[i] = static_cast<T>(gen(s, i));
        }
      });
    };
    switch (dist_) {
      case kUniform:
        if constexpr (std::is_same_v<T, float>) {
          // 24 random bits per float32, as numpy's Generator.random(dtype=float32) uses.
          lanes([&](int64_t i, uint64_t a, uint64_t b) {
            put(i, static_cast<float>(a >> 40) * (1.0f / 16777216.0f));
            put(i + 1, static_cast<float>(b >> 40) * (1.0f / 16777216.0f));
          });
        } else {
          lanes([&](int64_t i, uint64_t a, uint64_t b) {
            put(i, u01(a));
            put(i + 1, u01(b));
          });
        }
        break;
      case kNormal:
        normal_zig();  // build the table before the threads race to it
        lanes([&](int64_t i, uint64_t a, uint64_t b) {
          put(i, normal_zig_draw(a, key, static_cast<uint64_t>(i)));
          if (i + 1 < n) put(i + 1, normal_zig_draw(b, key, static_cast<uint64_t>(i + 1)));
        });
        break;
      case kExponential:
        exp_zig();
        lanes([&](int64_t i, uint64_t a, uint64_t b) {
          put(i, exponential_zig_draw(a, key, static_cast<uint64_t>(i)));
          if (i + 1 < n) put(i + 1, exponential_zig_draw(b, key, static_cast<uint64_t>(i + 1)));
        });
        break;
      case kGamma:
        per_stream(512, [&](Stream& s, int64_t i) { return gamma(s, p[0].at<double>(i)); });
        break;
      case kBeta:
        per_stream(256, [&](Stream& s, int64_t i) { return beta(s, p[0].at<double>(i), p[1].at<double>(i)); });
        break;
      case kPoisson:
        per_stream(512, [&](Stream& s, int64_t i) { return poisson(s, p[0].at<double>(i)); });
        break;
      case kBinomial:
        per_stream(256, [&](Stream& s, int64_t i) { return binomial(s, p[0].at<int64_t>(i), p[1].at<double>(i)); });
        break;
      case kGeometric:
        lanes([&](int64_t i, uint64_t a, uint64_t b) {
          put(i, geometric(u01_open_low(a), p[0].at<double>(i)));
          if (i + 1 < n) put(i + 1, geometric(u01_open_low(b), p[0].at<double>(i + 1)));
        });
        break;
      case kIntegers:
        // low + offset wraps mod 2^64, so one int64 kernel serves uint64 outputs bit for bit.
        lanes([&](int64_t i, uint64_t a, uint64_t b) {
          auto one = [&](int64_t e, uint64_t x) {
            uint64_t low = static_cast<uint64_t>(p[0].at<int64_t>(e)), range = static_cast<uint64_t>(p[1].at<int64_t>(e));
            out[e] = static_cast<T>(static_cast<int64_t>(low + bounded(x, range, key, static_cast<uint64_t>(e))));
          };
          one(i, a);
          if (i + 1 < n) one(i + 1, b);
        });
        break;
      case kChoiceCdf: {
        const double* cdf = reinterpret_cast<const double*>(p[0].p);
        const int64_t k = table_len_;
        const double total = cdf[k - 1];
        lanes([&](int64_t i, uint64_t a, uint64_t b) {
          auto one = [&](int64_t e, uint64_t x) {
            double u = u01(x) * total;
            int64_t j = std::upper_bound(cdf, cdf + k, u) - cdf;
            out[e] = static_cast<T>(std::min(j, k - 1));
          };
          one(i, a);
          if (i + 1 < n) one(i + 1, b);
        });
        break;
      }
      case kPermutation: {  // Fisher-Yates, one stream, one thread: deterministic by construction
        Stream s(key, 0);
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(i);
        for (int64_t i = n - 1; i > 0; --i) {
          uint64_t j = bounded(s.next64(), static_cast<uint64_t>(i), key, static_cast<uint64_t>(n + i));
          std::swap(out[i], out[j]);
        }
        break;
      }
      case kPermutationRows: {  // one Fisher-Yates per row, row r on stream r: any thread count agrees
        const int64_t len = n_rows_ ? n / n_rows_ : 0, rows = n_rows_;
        parallel_for(rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(len, 1)), [&](int64_t lo, int64_t hi) {
          for (int64_t r = lo; r < hi; ++r) {
            T* row = out + r * len;
            Stream s(key, static_cast<uint64_t>(r));
            for (int64_t i = 0; i < len; ++i) row[i] = static_cast<T>(i);
            for (int64_t i = len - 1; i > 0; --i) {
              // redraws use streams numbered past every row's, so they never replay a row's words
              uint64_t j = bounded(s.next64(), static_cast<uint64_t>(i), key,
                                   static_cast<uint64_t>(rows + r * len + i));
              std::swap(row[i], row[j]);
            }
          }
        });
        break;
      }
      case kChoiceNoReplace: {  // successive weighted draws, each removing the chosen item
        const double* pv = reinterpret_cast<const double*>(p[0].p);
        std::vector<double> w(pv, pv + table_len_);
        Stream s(key, 0);
        for (int64_t t = 0; t < n; ++t) {
          double total = 0.0;
          int64_t last = -1;
          for (int64_t j = 0; j < table_len_; ++j)
            if (w[j] > 0.0) {
              total += w[j];
              last = j;
            }
          double u = s.uniform() * total, acc = 0.0;
          int64_t pick = last;
          for (int64_t j = 0; j < table_len_; ++j) {
            if (w[j] <= 0.0) continue;
            acc += w[j];
            if (u < acc) {
              pick = j;
              break;
            }
          }
          out[t] = static_cast<T>(pick < 0 ? 0 : pick);
          if (pick >= 0) w[pick] = 0.0;
        }
        break;
      }
      default:
        break;
    }
  }

  int64_t dist_;
  DType out_dtype_;
  int64_t n_;
  int64_t n_rows_;
  int64_t table_len_ = 1;
  std::vector<bool> per_element_;
};

std::unique_ptr<backend::Kernel> prepare_random(const backend::StepDesc& s) {
  return std::make_unique<RandomKernel>(s);
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(random, "random", &prepare_random);

}  // namespace mnn::cpu::MNN_ISA_NS
