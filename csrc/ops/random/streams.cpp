// numpy's sampling algorithms (streams.h), word for word in numpy's consumption order.
//
// Ziggurats: Marsaglia & Tsang, "The Ziggurat Method for Generating Random Variables" (J. Stat.
// Softw. 2000), with 256 layers. The tables come from the paper's construction (zigset) evaluated
// in double precision at start-up: from the base layer's edge r and the common layer area v,
// x[255] = r, x[i] = f^-1(v / x[i+1] + f(x[i+1])), x[0] = v / f(r); w[i] = x[i] / 2^bits,
// k[i] = floor(x[i-1] / x[i] * 2^bits), f[i] = f(x[i]). numpy's own tables were produced by
// some other evaluation of the same recurrence: checked against numpy's draws (10^6 of each kind,
// tests/numpy/test_random_numpy_streams.py), they agree with ours except at some layers where
// numpy's x[i] is a few ulps away (1 layer of the normal, 87 of the exponential); kNormalFix /
// kExpFix carry those offsets, measured from numpy's draws (applied inside the recurrence, since
// each layer is computed from the one above it). The float32 tables are the float64 ones rounded
// (one exponential layer a float ulp up) with the acceptance bounds k rounded, not truncated.
#include "ops/random/streams.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/threadpool.h"

namespace mnn::ops::rng {

namespace {

struct Zig {
  uint64_t k[256];
  double w[256], f[256];
  uint32_t kf[256];
  float wf[256], ff[256];
};

struct UlpFix {
  int layer, ulps;
};

double step_ulps(double x, int ulps) {
  for (; ulps > 0; --ulps) x = std::nextafter(x, HUGE_VAL);
  for (; ulps < 0; ++ulps) x = std::nextafter(x, -HUGE_VAL);
  return x;
}

template <class Dens, class Inv>
Zig build_zig(double r, double v, Dens dens, Inv inv, double bits_d, double bits_f, const UlpFix* fix, int nfix,
              const UlpFix* ffix = nullptr, int nffix = 0) {
  double x[256];
  x[255] = r;
  for (int i = 254; i >= 1; --i) {
    x[i] = inv(v / x[i + 1] + dens(x[i + 1]));
    for (int j = 0; j < nfix; ++j)
      if (fix[j].layer == i) x[i] = step_ulps(x[i], fix[j].ulps);
  }
  x[0] = v / dens(r);
  for (int j = 0; j < nfix; ++j)
    if (fix[j].layer == 0) x[0] = step_ulps(x[0], fix[j].ulps);
  Zig z;
  const double md = std::ldexp(1.0, static_cast<int>(bits_d)), mf = std::ldexp(1.0, static_cast<int>(bits_f));
  z.k[0] = static_cast<uint64_t>((r / x[0]) * md);
  z.kf[0] = static_cast<uint32_t>(std::llround((r / x[0]) * mf));
  z.k[1] = 0;
  z.kf[1] = 0;
  for (int i = 2; i < 256; ++i) {
    z.k[i] = static_cast<uint64_t>((x[i - 1] / x[i]) * md);
    z.kf[i] = static_cast<uint32_t>(std::llround((x[i - 1] / x[i]) * mf));  // float32 bounds: rounded
  }
  for (int i = 0; i < 256; ++i) {
    z.w[i] = x[i] / md;
    z.wf[i] = static_cast<float>(x[i] / mf);
    z.f[i] = i == 0 ? 1.0 : dens(x[i]);
    z.ff[i] = static_cast<float>(z.f[i]);
  }
  for (int j = 0; j < nffix; ++j)
    for (int u = 0; u < (ffix[j].ulps < 0 ? -ffix[j].ulps : ffix[j].ulps); ++u)
      z.wf[ffix[j].layer] = std::nextafter(z.wf[ffix[j].layer], ffix[j].ulps > 0 ? HUGE_VALF : -HUGE_VALF);
  return z;
}

// Base-layer edges r: the standard values for 256 layers (Marsaglia & Tsang); v is the area of
// one layer, r f(r) + the tail's mass, as numpy's tables imply it in double precision.
constexpr double kNorR = 3.6541528853610088, kNorV = 0.004928673233974652;
constexpr double kExpR = 7.69711747013104972, kExpV = 0.003949659822581558;
constexpr UlpFix kNormalFix[] = {{37, -2}};
// The exponential's layers deviate from a double-precision recurrence by up to a few ulps at 87 of
// 256 layers (numpy's generator evidently evaluated it differently); offsets measured from numpy's draws.
constexpr UlpFix kExpFix[] = {
    {1, 2}, {2, -5}, {3, -2}, {4, -1}, {7, -2}, {8, 2}, {9, 1}, {11, -1}, {13, 1}, {17, 2}, {18, -2}, {19, 2},
    {21, 3}, {22, 1}, {23, -2}, {24, -1}, {29, 1}, {30, -1}, {31, -1}, {32, -1}, {33, 1}, {38, 1}, {39, 1}, {40,
    1}, {42, 1}, {43, -1}, {53, -1}, {54, 1}, {56, -1}, {57, 1}, {64, 1}, {71, 1}, {74, 1}, {76, 1}, {78, 1}, {81,
    1}, {83, -1}, {84, 1}, {85, -1}, {86, 1}, {87, -1}, {89, 1}, {91, -1}, {95, 1}, {97, 1}, {99, -1}, {100, 1},
    {102, 1}, {103, -1}, {104, 1}, {114, -1}, {123, 1}, {125, -1}, {132, 1}, {138, -1}, {139, 1}, {143, 1}, {144,
    -1}, {147, -1}, {149, -1}, {152, 1}, {153, -1}, {157, 1}, {163, -1}, {165, 1}, {168, -1}, {173, -1}, {174, 1},
    {175, -1}, {177, 1}, {181, -1}, {182, 1}, {189, -1}, {193, -1}, {195, 1}, {197, 1}, {206, -1}, {208, 1}, {209,
    -1}, {210, 1}, {215, -1}, {216, 1}, {218, 1}, {223, 1}, {232, -1}, {248, 1}, {0, -3}};

// float32 layer widths are the float64 ones rounded, but for one layer of the exponential.
constexpr UlpFix kExpFloatFix[] = {{226, 1}};

const Zig& normal_zig() {
  static const Zig z = build_zig(
      kNorR, kNorV, [](double x) { return std::exp(-0.5 * x * x); },
      [](double y) { return std::sqrt(-2.0 * std::log(y)); }, 52, 23, kNormalFix,
      static_cast<int>(sizeof(kNormalFix) / sizeof(kNormalFix[0])));
  return z;
}

const Zig& exp_zig() {
  static const Zig z = build_zig(
      kExpR, kExpV, [](double x) { return std::exp(-x); }, [](double y) { return -std::log(y); }, 53, 23, kExpFix,
      static_cast<int>(sizeof(kExpFix) / sizeof(kExpFix[0])), kExpFloatFix, 1);
  return z;
}

template <class G>
inline float next_float(G& g) {
  return static_cast<float>(g.next32() >> 8) * (1.0f / 16777216.0f);
}

template <class G>
double normal_zig(G& g, const Zig& z) {
  for (;;) {
    uint64_t r = g.next64();
    int idx = static_cast<int>(r & 0xff);
    r >>= 8;
    uint64_t sign = r & 1u;
    uint64_t rabs = (r >> 1) & 0x000fffffffffffffULL;
    double x = static_cast<double>(rabs) * z.w[idx];
    if (sign) x = -x;
    if (rabs < z.k[idx]) return x;
    if (idx == 0) {
      for (;;) {  // the tail beyond r (Marsaglia's exponential-rejection method)
        double xx = -(1.0 / kNorR) * std::log1p(-g.next_double());
        double yy = -std::log1p(-g.next_double());
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1u) ? -(kNorR + xx) : kNorR + xx;
      }
    }
    if ((z.f[idx - 1] - z.f[idx]) * g.next_double() + z.f[idx] < std::exp(-0.5 * x * x)) return x;
  }
}

template <class G>
float normal_zig_f(G& g, const Zig& z) {
  const float rf = static_cast<float>(kNorR), inv_rf = static_cast<float>(1.0 / kNorR);
  for (;;) {
    uint32_t r = g.next32();
    int idx = static_cast<int>(r & 0xff);
    uint32_t sign = (r >> 8) & 1u;
    uint32_t rabs = (r >> 9) & 0x0007fffffu;
    float x = static_cast<float>(rabs) * z.wf[idx];
    if (sign) x = -x;
    if (rabs < z.kf[idx]) return x;
    if (idx == 0) {
      for (;;) {
        float xx = -inv_rf * std::log1p(-next_float(g));
        float yy = -std::log1p(-next_float(g));
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1u) ? -(rf + xx) : rf + xx;
      }
    }
    if ((z.ff[idx - 1] - z.ff[idx]) * next_float(g) + z.ff[idx] < std::exp(-0.5f * x * x)) return x;
  }
}

template <class G>
double exp_zig(G& g, const Zig& z) {
  for (;;) {
    uint64_t ri = g.next64() >> 3;
    int idx = static_cast<int>(ri & 0xff);
    ri >>= 8;
    double x = static_cast<double>(ri) * z.w[idx];
    if (ri < z.k[idx]) return x;
    if (idx == 0) return kExpR - std::log1p(-g.next_double());
    if ((z.f[idx - 1] - z.f[idx]) * g.next_double() + z.f[idx] < std::exp(-x)) return x;
  }
}

template <class G>
float exp_zig_f(G& g, const Zig& z) {
  const float rf = static_cast<float>(kExpR);
  for (;;) {
    uint32_t ri = g.next32() >> 1;
    int idx = static_cast<int>(ri & 0xff);
    ri >>= 8;
    float x = static_cast<float>(ri) * z.wf[idx];
    if (ri < z.kf[idx]) return x;
    if (idx == 0) return rf - std::log1p(-next_float(g));
    if ((z.ff[idx - 1] - z.ff[idx]) * next_float(g) + z.ff[idx] < std::exp(-x)) return x;
  }
}

inline uint64_t gen_mask(uint64_t max) {
  uint64_t m = max;
  m |= m >> 1;
  m |= m >> 2;
  m |= m >> 4;
  m |= m >> 8;
  m |= m >> 16;
  m |= m >> 32;
  return m;
}

// Words of 32 bits handed out 8/16/1 bits at a time (numpy's buffered small-integer draws).
struct Buffered {
  uint32_t buf = 0;
  int cnt = 0;
  template <class G> uint32_t take(G& g, int bits) {
    if (!cnt) {
      buf = g.next32();
      cnt = 32 / bits - 1;
    } else {
      buf >>= bits;
      --cnt;
    }
    return buf;
  }
};

template <class G>
uint64_t bounded64(G& g, uint64_t rng, bool masked) {  // rng > 0xffffffff
  if (rng == ~0ULL) return g.next64();
  if (masked) {
    uint64_t mask = gen_mask(rng), v;
    while ((v = g.next64() & mask) > rng) {
    }
    return v;
  }
  const uint64_t excl = rng + 1;
  u128 m = static_cast<u128>(g.next64()) * excl;
  uint64_t left = static_cast<uint64_t>(m);
  if (left < excl) {
    const uint64_t threshold = (~0ULL - rng) % excl;
    while (left < threshold) {
      m = static_cast<u128>(g.next64()) * excl;
      left = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

template <class G>
uint32_t bounded32(G& g, uint32_t rng, bool masked) {  // 0 < rng
  if (rng == 0xffffffffu) return g.next32();
  if (masked) {
    uint32_t mask = static_cast<uint32_t>(gen_mask(rng)), v;
    while ((v = g.next32() & mask) > rng) {
    }
    return v;
  }
  const uint32_t excl = rng + 1;
  uint64_t m = static_cast<uint64_t>(g.next32()) * excl;
  uint32_t left = static_cast<uint32_t>(m);
  if (left < excl) {
    const uint32_t threshold = (0xffffffffu - rng) % excl;
    while (left < threshold) {
      m = static_cast<uint64_t>(g.next32()) * excl;
      left = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

template <class G>
uint32_t bounded_small(G& g, Buffered& b, uint32_t rng, int bits, bool masked) {  // 8 or 16 bits, 0 < rng
  const uint32_t all = (1u << bits) - 1;
  if (rng == all) return b.take(g, bits) & all;
  if (masked) {
    uint32_t mask = static_cast<uint32_t>(gen_mask(rng)), v;
    while ((v = b.take(g, bits) & mask) > rng) {
    }
    return v;
  }
  const uint32_t excl = rng + 1;
  uint32_t m = (b.take(g, bits) & all) * excl;
  uint32_t left = m & all;
  if (left < excl) {
    const uint32_t threshold = (all - rng) % excl;
    while (left < threshold) {
      m = (b.take(g, bits) & all) * excl;
      left = m & all;
    }
  }
  return m >> bits;
}

// j uniform in [0, max] by masked rejection (numpy's random_interval).
template <class G>
uint64_t interval(G& g, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = gen_mask(max), v;
  if (max <= 0xffffffffULL) {
    while ((v = (g.next32() & mask)) > max) {
    }
  } else {
    while ((v = (g.next64() & mask)) > max) {
    }
  }
  return v;
}

// numpy's random_bounded_uint64 (any rng: a 32-bit path for small ranges).
template <class G>
uint64_t bounded_any(G& g, uint64_t rng, bool masked) {
  if (rng == 0) return 0;
  if (rng <= 0xffffffffULL) return bounded32(g, static_cast<uint32_t>(rng), masked);
  return bounded64(g, rng, masked);
}

}  // namespace

template <class G>
void fill_double(G& g, double* out, int64_t n) {
  if constexpr (std::is_same_v<G, PCG64>) {
    // One 64-bit word per draw: a chunk starting at element b starts b steps ahead, so any
    // split over threads gives the sequential stream.
    constexpr int64_t kGrain = 1 << 16;
    if (n >= 2 * kGrain && core::get_num_threads() > 1) {
      const PCG64 base = g;
      core::parallel_for(n, kGrain, [&](int64_t b, int64_t e) {
        PCG64 local = base;
        local.advance(static_cast<u128>(b));
        for (int64_t i = b; i < e; ++i) out[i] = local.next_double();
      });
      g.advance(static_cast<u128>(n));
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i) out[i] = g.next_double();
}

template <class G>
void fill_float(G& g, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = next_float(g);
}

template <class G>
void fill_normal_zig(G& g, double* out, int64_t n) {
  const Zig& z = normal_zig();
  for (int64_t i = 0; i < n; ++i) out[i] = normal_zig(g, z);
}

template <class G>
void fill_normal_zig_f(G& g, float* out, int64_t n) {
  const Zig& z = normal_zig();
  for (int64_t i = 0; i < n; ++i) out[i] = normal_zig_f(g, z);
}

template <class G>
void fill_exp_zig(G& g, double* out, int64_t n) {
  const Zig& z = exp_zig();
  for (int64_t i = 0; i < n; ++i) out[i] = exp_zig(g, z);
}

template <class G>
void fill_exp_zig_f(G& g, float* out, int64_t n) {
  const Zig& z = exp_zig();
  for (int64_t i = 0; i < n; ++i) out[i] = exp_zig_f(g, z);
}

void fill_legacy_gauss(MT19937& g, double* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (g.has_gauss) {
      g.has_gauss = 0;
      out[i] = g.gauss;
      g.gauss = 0.0;
      continue;
    }
    double x1, x2, r2;
    do {
      x1 = 2.0 * g.next_double() - 1.0;
      x2 = 2.0 * g.next_double() - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = std::sqrt(-2.0 * std::log(r2) / r2);  // polar Box-Muller: two normals, keep one
    g.gauss = f * x1;
    g.has_gauss = 1;
    out[i] = f * x2;
  }
}

template <class G>
void fill_exp_inv(G& g, double* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = -std::log1p(-g.next_double());
}

template <class G>
void fill_exp_inv_f(G& g, float* out, int64_t n) {
  // numpy evaluates this one in double precision and rounds the result
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(-std::log1p(-static_cast<double>(next_float(g))));
}

template <class G>
void fill_legacy_exp(G& g, double* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = -std::log(1.0 - g.next_double());
}

template <class G>
void fill_bounded(G& g, uint64_t off, uint64_t rng, int bytes, bool masked, void* out, int64_t n) {
  if (bytes == 0) {  // bool: one bit per draw
    auto* o = static_cast<uint8_t*>(out);
    Buffered b;
    for (int64_t i = 0; i < n; ++i) o[i] = rng == 0 ? static_cast<uint8_t>(off) : static_cast<uint8_t>(b.take(g, 1) & 1u);
    return;
  }
  if (bytes == 8) {
    auto* o = static_cast<uint64_t*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = off + bounded_any(g, rng, masked);
  } else if (bytes == 4) {
    auto* o = static_cast<uint32_t*>(out);
    for (int64_t i = 0; i < n; ++i)
      o[i] = static_cast<uint32_t>(off) + (rng == 0 ? 0u : bounded32(g, static_cast<uint32_t>(rng), masked));
  } else if (bytes == 2) {
    auto* o = static_cast<uint16_t*>(out);
    Buffered b;
    for (int64_t i = 0; i < n; ++i)
      o[i] = static_cast<uint16_t>(off + (rng == 0 ? 0u : bounded_small(g, b, static_cast<uint32_t>(rng), 16, masked)));
  } else {
    auto* o = static_cast<uint8_t*>(out);
    Buffered b;
    for (int64_t i = 0; i < n; ++i)
      o[i] = static_cast<uint8_t>(off + (rng == 0 ? 0u : bounded_small(g, b, static_cast<uint32_t>(rng), 8, masked)));
  }
}

template <class G>
void fill_bounded_array(G& g, const uint64_t* off, const uint64_t* rng, int bytes, bool masked, void* out,
                        int64_t n) {
  // numpy's broadcast path: per-element ranges, one small-word buffer shared along the fill
  Buffered b;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = rng[i];
    if (bytes == 8) {
      static_cast<uint64_t*>(out)[i] = off[i] + bounded_any(g, r, masked);
    } else if (bytes == 4) {
      static_cast<uint32_t*>(out)[i] =
          static_cast<uint32_t>(off[i]) + (r == 0 ? 0u : bounded32(g, static_cast<uint32_t>(r), masked));
    } else if (bytes == 2) {
      static_cast<uint16_t*>(out)[i] = static_cast<uint16_t>(
          off[i] + (r == 0 ? 0u : bounded_small(g, b, static_cast<uint32_t>(r), 16, masked)));
    } else if (bytes == 1) {
      static_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(
          off[i] + (r == 0 ? 0u : bounded_small(g, b, static_cast<uint32_t>(r), 8, masked)));
    } else {
      static_cast<uint8_t*>(out)[i] = r == 0 ? static_cast<uint8_t>(off[i]) : static_cast<uint8_t>(b.take(g, 1) & 1u);
    }
  }
}

template <class G>
void shuffle_indices(G& g, int64_t* idx, int64_t n, int64_t first, bool masked) {
  for (int64_t i = n - 1; i >= first; --i) {
    uint64_t j = masked ? interval(g, static_cast<uint64_t>(i)) : bounded_any(g, static_cast<uint64_t>(i), false);
    std::swap(idx[i], idx[j]);
  }
}

template <class G>
void choice_noreplace(G& g, int64_t pop, int64_t size, bool shuffle, int64_t* out) {
  const int64_t cutoff = shuffle ? 50 : 20;
  if (pop > 10000 && size > pop / cutoff) {
    std::vector<int64_t> all(static_cast<size_t>(pop));
    for (int64_t i = 0; i < pop; ++i) all[i] = i;
    shuffle_indices(g, all.data(), pop, std::max<int64_t>(pop - size, 1), false);
    std::memcpy(out, all.data() + (pop - size), static_cast<size_t>(size) * sizeof(int64_t));
    return;
  }
  // Floyd's algorithm: for j in [pop - size, pop), take a uniform value in [0, j], or j itself
  // when that value is already taken; an open-addressing set (size a power of two above 1.2 size).
  const uint64_t mask = gen_mask(static_cast<uint64_t>(1.2 * static_cast<double>(size)));
  std::vector<uint64_t> set(static_cast<size_t>(mask + 1), ~0ULL);
  for (int64_t j = pop - size; j < pop; ++j) {
    uint64_t val = bounded_any(g, static_cast<uint64_t>(j), false);
    uint64_t loc = val & mask;
    while (set[loc] != ~0ULL && set[loc] != val) loc = (loc + 1) & mask;
    if (set[loc] == ~0ULL) {
      set[loc] = val;
      out[j - pop + size] = static_cast<int64_t>(val);
    } else {
      loc = static_cast<uint64_t>(j) & mask;
      while (set[loc] != ~0ULL) loc = (loc + 1) & mask;
      set[loc] = static_cast<uint64_t>(j);
      out[j - pop + size] = j;
    }
  }
  if (shuffle) shuffle_indices(g, out, size, 1, false);
}

#define MNN_RNG_INSTANTIATE(G)                                                                         \
  template void fill_double<G>(G&, double*, int64_t);                                                  \
  template void fill_float<G>(G&, float*, int64_t);                                                    \
  template void fill_normal_zig<G>(G&, double*, int64_t);                                              \
  template void fill_normal_zig_f<G>(G&, float*, int64_t);                                             \
  template void fill_exp_zig<G>(G&, double*, int64_t);                                                 \
  template void fill_exp_zig_f<G>(G&, float*, int64_t);                                                \
  template void fill_legacy_exp<G>(G&, double*, int64_t);                                              \
  template void fill_exp_inv<G>(G&, double*, int64_t);                                                 \
  template void fill_exp_inv_f<G>(G&, float*, int64_t);                                                \
  template void fill_bounded<G>(G&, uint64_t, uint64_t, int, bool, void*, int64_t);                    \
  template void fill_bounded_array<G>(G&, const uint64_t*, const uint64_t*, int, bool, void*, int64_t);  \
  template void shuffle_indices<G>(G&, int64_t*, int64_t, int64_t, bool);                              \
  template void choice_noreplace<G>(G&, int64_t, int64_t, bool, int64_t*);

MNN_RNG_INSTANTIATE(MT19937)
MNN_RNG_INSTANTIATE(PCG64)

}  // namespace mnn::ops::rng
