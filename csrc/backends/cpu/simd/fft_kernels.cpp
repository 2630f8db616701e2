// Complex128 FFT passes for one ISA (compiled once per ISA target): the Stockham passes of
// kernels/fft/fft_plan.h for radices 2, 3, 4, 5 and 8 with two complex numbers per AVX2 register
// and FMA. The plan's generic code runs the same passes one complex number per SSE2 register;
// here each instruction does twice the work. Vectorised across i (two adjacent i of one k: plain
// loads, the last odd i by masked loads) when the pass has ido >= 2, across k (two k at once,
// each a 16-byte half) when ido == 1. The scalar target leaves the table entry empty.
// Results differ from the plan's generic code by rounding only (FMA contraction), well within
// numpy's own error (pocketfft rounds differently again).
#include <cstdint>

#include "backends/cpu/simd/kernel_table.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace mnn::cpu::MNN_ISA_NS {

#if defined(__AVX2__) && defined(__FMA__)
namespace {

using V = __m256d;  // [re0, im0, re1, im1]

inline V add(V a, V b) { return _mm256_add_pd(a, b); }
inline V sub(V a, V b) { return _mm256_sub_pd(a, b); }
inline V scl(V a, double s) { return _mm256_mul_pd(a, _mm256_set1_pd(s)); }
// a * b per complex lane
inline V cmul(V a, V b) {
  const V ar = _mm256_movedup_pd(a), ai = _mm256_permute_pd(a, 0xF), bs = _mm256_permute_pd(b, 0x5);
  return _mm256_fmaddsub_pd(ar, b, _mm256_mul_pd(ai, bs));
}
// a * -i (Fwd) or a * +i (backward)
template <bool Fwd>
inline V rot(V a) {
  const V s = _mm256_permute_pd(a, 0x5);
  return _mm256_xor_pd(s, Fwd ? _mm256_set_pd(-0.0, 0.0, -0.0, 0.0) : _mm256_set_pd(0.0, -0.0, 0.0, -0.0));
}
// a * i * s (s real)
inline V rots(V a, double s) {
  const V sw = _mm256_permute_pd(a, 0x5);  // (im, re)
  return _mm256_mul_pd(sw, _mm256_set_pd(s, -s, s, -s));
}

// y[j] = sum_m a[m] w^(j m), w = exp(-+2 pi i / R), the same formulas as fft_plan.h
template <int R, bool Fwd>
struct Bfly;

template <bool Fwd>
struct Bfly<2, Fwd> {
  static inline void run(const V* a, V* y) { y[0] = add(a[0], a[1]); y[1] = sub(a[0], a[1]); }
};
template <bool Fwd>
struct Bfly<4, Fwd> {
  static inline void run(const V* a, V* y) {
    V t0 = add(a[0], a[2]), t1 = sub(a[0], a[2]), t2 = add(a[1], a[3]), t3 = rot<Fwd>(sub(a[1], a[3]));
    y[0] = add(t0, t2); y[1] = add(t1, t3); y[2] = sub(t0, t2); y[3] = sub(t1, t3);
  }
};
template <bool Fwd>
struct Bfly<8, Fwd> {
  static inline void run(const V* a, V* y) {
    const double h = 0.707106781186547524400844362104849039;
    V t0 = add(a[0], a[4]), t1 = sub(a[0], a[4]), t2 = add(a[2], a[6]), t3 = rot<Fwd>(sub(a[2], a[6]));
    V e0 = add(t0, t2), e1 = add(t1, t3), e2 = sub(t0, t2), e3 = sub(t1, t3);
    V u0 = add(a[1], a[5]), u1 = sub(a[1], a[5]), u2 = add(a[3], a[7]), u3 = rot<Fwd>(sub(a[3], a[7]));
    V o0 = add(u0, u2), o1 = add(u1, u3), o2 = sub(u0, u2), o3 = sub(u1, u3);
    o1 = scl(add(o1, rot<Fwd>(o1)), h);
    o2 = rot<Fwd>(o2);
    o3 = scl(sub(rot<Fwd>(o3), o3), h);
    y[0] = add(e0, o0); y[4] = sub(e0, o0);
    y[1] = add(e1, o1); y[5] = sub(e1, o1);
    y[2] = add(e2, o2); y[6] = sub(e2, o2);
    y[3] = add(e3, o3); y[7] = sub(e3, o3);
  }
};
template <bool Fwd>
struct Bfly<3, Fwd> {
  static inline void run(const V* a, V* y) {
    const double s = Fwd ? -0.866025403784438646763723170752936183 : 0.866025403784438646763723170752936183;
    V t1 = add(a[1], a[2]), d = sub(a[1], a[2]);
    V base = _mm256_fmadd_pd(_mm256_set1_pd(-0.5), t1, a[0]);
    V id = rots(d, s);
    y[0] = add(a[0], t1); y[1] = add(base, id); y[2] = sub(base, id);
  }
};
template <bool Fwd>
struct Bfly<5, Fwd> {
  static inline void run(const V* a, V* y) {
    const V c1 = _mm256_set1_pd(0.309016994374947424102293417182819059);
    const V c2 = _mm256_set1_pd(-0.809016994374947424102293417182819059);
    const double sg = Fwd ? -1.0 : 1.0;
    const V s1 = _mm256_set1_pd(sg * 0.951056516295153572116439333379382143);
    const V s2 = _mm256_set1_pd(sg * 0.587785252292473129168705954639072769);
    V t1 = add(a[1], a[4]), t2 = add(a[2], a[3]), d1 = sub(a[1], a[4]), d2 = sub(a[2], a[3]);
    V b1 = _mm256_fmadd_pd(c2, t2, _mm256_fmadd_pd(c1, t1, a[0]));
    V b2 = _mm256_fmadd_pd(c1, t2, _mm256_fmadd_pd(c2, t1, a[0]));
    V e1 = _mm256_fmadd_pd(s1, d1, _mm256_mul_pd(s2, d2));
    V e2 = _mm256_fmsub_pd(s2, d1, _mm256_mul_pd(s1, d2));
    V ie1 = rots(e1, 1.0), ie2 = rots(e2, 1.0);
    y[0] = add(a[0], add(t1, t2));
    y[1] = add(b1, ie1); y[2] = add(b2, ie2); y[3] = sub(b2, ie2); y[4] = sub(b1, ie1);
  }
};

// Conjugates the twiddle for the backward transform.
template <bool Fwd>
inline V twv(V t) {
  return Fwd ? t : _mm256_xor_pd(t, _mm256_set_pd(-0.0, 0.0, -0.0, 0.0));
}

// cc [l1][R][ido], ch [R][l1][ido]; tw holds pairs: for even i, the R-1 twiddles of i then of i+1
// interleaved per j (tw[(i*(R-1) + 2*(j-1) + (i&1))] complex), ido rounded up to even.
template <int R, bool Fwd>
void pass_i(int64_t l1, int64_t ido, const double* tw, const double* cc, double* ch) {
  const int64_t os = 2 * l1 * ido;  // doubles between outputs j
  const __m256i half = _mm256_set_epi64x(0, 0, -1, -1);
  for (int64_t k = 0; k < l1; ++k) {
    const double* in = cc + 2 * k * R * ido;
    double* out = ch + 2 * k * ido;
    for (int64_t i = 0; i < ido; i += 2) {
      const bool full = i + 1 < ido;
      V a[R], y[R];
      if (full)
        for (int m = 0; m < R; ++m) a[m] = _mm256_loadu_pd(in + 2 * (m * ido + i));
      else
        for (int m = 0; m < R; ++m) a[m] = _mm256_maskload_pd(in + 2 * (m * ido + i), half);
      Bfly<R, Fwd>::run(a, y);
      const double* t = tw + 2 * i * (R - 1);
      for (int j = 1; j < R; ++j) {
        V v = cmul(y[j], twv<Fwd>(_mm256_loadu_pd(t + 4 * (j - 1))));
        // i == 0 has twiddle 1: keep that lane unmultiplied (as the generic code; inf * 0 = nan)
        y[j] = i == 0 ? _mm256_blend_pd(v, y[j], 0x3) : v;
      }
      if (full)
        for (int j = 0; j < R; ++j) _mm256_storeu_pd(out + j * os + 2 * i, y[j]);
      else
        for (int j = 0; j < R; ++j) _mm256_maskstore_pd(out + j * os + 2 * i, half, y[j]);
    }
  }
}

// ido == 1: two k per register; no twiddles (all are 1). Outputs of adjacent k are adjacent.
template <int R, bool Fwd>
void pass_k1(int64_t l1, const double* cc, double* ch) {
  const int64_t os = 2 * l1;
  int64_t k = 0;
  for (; k + 1 < l1; k += 2) {
    const double* in = cc + 2 * k * R;
    V a[R], y[R];
    for (int m = 0; m < R; ++m) a[m] = _mm256_loadu2_m128d(in + 2 * (R + m), in + 2 * m);
    Bfly<R, Fwd>::run(a, y);
    for (int j = 0; j < R; ++j) _mm256_storeu_pd(ch + j * os + 2 * k, y[j]);
  }
  if (k < l1) {
    const double* in = cc + 2 * k * R;
    V a[R], y[R];
    for (int m = 0; m < R; ++m) a[m] = _mm256_castpd128_pd256(_mm_loadu_pd(in + 2 * m));
    Bfly<R, Fwd>::run(a, y);
    for (int j = 0; j < R; ++j) _mm_storeu_pd(ch + j * os + 2 * k, _mm256_castpd256_pd128(y[j]));
  }
}

template <int R, bool Fwd>
void pass_r(int64_t l1, int64_t ido, const double* tw, const double* cc, double* ch) {
  if (ido == 1) pass_k1<R, Fwd>(l1, cc, ch);
  else pass_i<R, Fwd>(l1, ido, tw, cc, ch);
}

// Two transforms at once, interleaved: element e of transform 0 and of transform 1 are the two
// halves of one register (data [n][2] complex). Each twiddle is loaded once for both.
template <int R, bool Fwd>
void pass_x2(int64_t l1, int64_t ido, const double* tw, const double* cc, double* ch) {
  const int64_t os = 4 * l1 * ido;
  for (int64_t k = 0; k < l1; ++k) {
    const double* in = cc + 4 * k * R * ido;
    double* out = ch + 4 * k * ido;
    V a[R], y[R];
    for (int m = 0; m < R; ++m) a[m] = _mm256_loadu_pd(in + 4 * m * ido);
    Bfly<R, Fwd>::run(a, y);
    for (int j = 0; j < R; ++j) _mm256_storeu_pd(out + j * os, y[j]);
    for (int64_t i = 1; i < ido; ++i) {
      for (int m = 0; m < R; ++m) a[m] = _mm256_loadu_pd(in + 4 * (m * ido + i));
      Bfly<R, Fwd>::run(a, y);
      const double* t = tw + 2 * ((i & ~int64_t(1)) * (R - 1) + (i & 1));
      _mm256_storeu_pd(out + 4 * i, y[0]);
      for (int j = 1; j < R; ++j) {
        const V w = twv<Fwd>(_mm256_broadcast_pd(reinterpret_cast<const __m128d*>(t + 4 * (j - 1))));
        _mm256_storeu_pd(out + j * os + 4 * i, cmul(y[j], w));
      }
    }
  }
}

bool fft_pass_c128x2(int ip, int64_t l1, int64_t ido, const double* tw, const double* in, double* out, bool fwd) {
  switch (ip) {
    case 2: fwd ? pass_x2<2, true>(l1, ido, tw, in, out) : pass_x2<2, false>(l1, ido, tw, in, out); return true;
    case 3: fwd ? pass_x2<3, true>(l1, ido, tw, in, out) : pass_x2<3, false>(l1, ido, tw, in, out); return true;
    case 4: fwd ? pass_x2<4, true>(l1, ido, tw, in, out) : pass_x2<4, false>(l1, ido, tw, in, out); return true;
    case 5: fwd ? pass_x2<5, true>(l1, ido, tw, in, out) : pass_x2<5, false>(l1, ido, tw, in, out); return true;
    case 8: fwd ? pass_x2<8, true>(l1, ido, tw, in, out) : pass_x2<8, false>(l1, ido, tw, in, out); return true;
    default: return false;
  }
}

bool fft_pass_c128(int ip, int64_t l1, int64_t ido, const double* tw, const double* in, double* out, bool fwd) {
  switch (ip) {
    case 2: fwd ? pass_r<2, true>(l1, ido, tw, in, out) : pass_r<2, false>(l1, ido, tw, in, out); return true;
    case 3: fwd ? pass_r<3, true>(l1, ido, tw, in, out) : pass_r<3, false>(l1, ido, tw, in, out); return true;
    case 4: fwd ? pass_r<4, true>(l1, ido, tw, in, out) : pass_r<4, false>(l1, ido, tw, in, out); return true;
    case 5: fwd ? pass_r<5, true>(l1, ido, tw, in, out) : pass_r<5, false>(l1, ido, tw, in, out); return true;
    case 8: fwd ? pass_r<8, true>(l1, ido, tw, in, out) : pass_r<8, false>(l1, ido, tw, in, out); return true;
    default: return false;
  }
}

}  // namespace

void fill_fft(KernelTable& t) {
  t.fft_pass_c128 = &fft_pass_c128;
  t.fft_pass_c128x2 = &fft_pass_c128x2;
}
#else
void fill_fft(KernelTable&) {}
#endif

}  // namespace mnn::cpu::MNN_ISA_NS
