// CPU kernels of cv_math (shape rule: ops/cv/core_math.cpp): phase, magnitude, cartToPolar and
// polarToCart in cv2's own arithmetic, the bitwise ops (against an image or a Scalar, with an
// optional mask), hconcat / vconcat and sqrt, each one pass over the pixels. Compiled once per ISA.
//
// cv2 (5.x, mathfuncs_core.simd.hpp) evaluates its atan polynomial and x*x + y*y with fused
// multiply-adds in float32 lanes; the float64 forms go through float32 buffers (the angle, and for
// cartToPolar the magnitude too). std::fma gives those bits on every ISA (an instruction where the
// target has FMA, libm's exact fmaf on the scalar build), and the build's -ffp-contract=off keeps
// the compiler from fusing anything else, so each ISA gives the scalar build's bits. cv2 answers
// some calls with IPP by default (magnitude, polarToCart of float32 with a magnitude in radians):
// IPP's own approximations, which no open arithmetic reproduces; there these kernels give what cv2
// computes without IPP (tests/cv/test_math12.py says which).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

constexpr int64_t kGrain = int64_t(1) << 16;  // elements per task: below this threads cost more than they save

// ---- cv2's fastAtan2 polynomial (degrees). Its vector loop: min / max of |x|, |y| (x86 min/max:
// the second operand when either is NaN), the odd polynomial by fmas, then the quadrant selects.
// Its scalar loop (calls shorter than two vectors) is the branchy form, which the compiler
// contracts to fmas too, 90 - p*c included: that one rounds differently ----

const float kP1 = 0.9997878412794807f * float(180.0 / M_PI);
const float kP3 = -0.3258083974640975f * float(180.0 / M_PI);
const float kP5 = 0.1555786518463281f * float(180.0 / M_PI);
const float kP7 = -0.04432655554792128f * float(180.0 / M_PI);

inline float poly(float cc) { return std::fma(std::fma(std::fma(cc, kP7, kP5), cc, kP3), cc, kP1); }

inline float quadrants(float a, float y, float x, float scale) {
  a = x < 0.f ? 180.f - a : a;
  a = y < 0.f ? 360.f - a : a;
  return a * scale;
}

inline float atan_vec(float y, float x, float scale) {
  const float ax = std::fabs(x), ay = std::fabs(y);
  const float mn = ax < ay ? ax : ay, mx = ax > ay ? ax : ay;
  const float c = mn / (mx + float(DBL_EPSILON));
  const float a = poly(c * c) * c;
  return quadrants(ax >= ay ? a : 90.f - a, y, x, scale);
}

inline float atan_scalar(float y, float x, float scale) {
  const float ax = std::fabs(x), ay = std::fabs(y);
  float a;
  if (ax >= ay) {
    const float c = ay / (ax + float(DBL_EPSILON));
    a = poly(c * c) * c;
  } else {
    const float c = ax / (ay + float(DBL_EPSILON));
    a = std::fma(-poly(c * c), c, 90.f);
  }
  return quadrants(a, y, x, scale);
}

inline float scale_of(bool deg) { return deg ? 1.f : float(M_PI / 180); }

// sqrt(x*x + y*y): cv2's v_muladd and its contracted scalar tail are both fma(x, x, y*y)
inline float mag32(float x, float y) { return std::sqrt(std::fma(x, x, y * y)); }
inline double mag64(double x, double y) { return std::sqrt(std::fma(x, x, y * y)); }

// One run of elements that cv2 computes on one path (Scalar: its scalar loop). Op 0 phase, 1
// magnitude, 2 cartToPolar (magnitude to o, angle to o2). cv2's float64 phase and cartToPolar convert to
// float32 first and keep a float32 magnitude; its float64 magnitude works in double.
template <class T, bool Scalar, int Op>
void polar_run(const T* __restrict x, const T* __restrict y, T* __restrict o, T* __restrict o2,
               int64_t lo, int64_t hi, float s) {
  for (int64_t i = lo; i < hi; ++i) {
    if constexpr (Op == 1) {
      if constexpr (sizeof(T) == 4) o[i] = mag32(x[i], y[i]);
      else o[i] = mag64(x[i], y[i]);
    } else {
      const float xf = float(x[i]), yf = float(y[i]);
      const float a = Scalar ? atan_scalar(yf, xf, s) : atan_vec(yf, xf, s);
      if constexpr (Op == 0) {
        o[i] = T(a);
      } else {
        o[i] = T(mag32(xf, yf));
        o2[i] = T(a);
      }
    }
  }
}

template <class T, bool Scalar>
void polar_any(int op, const T* x, const T* y, T* o, int64_t n, int64_t lo, int64_t hi, float s) {
  if (op == 0) polar_run<T, Scalar, 0>(x, y, o, nullptr, lo, hi, s);
  else if (op == 1) polar_run<T, Scalar, 1>(x, y, o, nullptr, lo, hi, s);
  else polar_run<T, Scalar, 2>(x, y, o, o + n, lo, hi, s);
}

// Where cv2 runs its scalar loop: a hal call of fewer than two vectors (kVec2 elements; cv2's
// AVX2 dispatch of these functions has 8 float lanes, 4 double ones). The hal calls: per plane of
// `row` elements (the whole image when cv2 sees it continuous), phase and magnitude take the plane,
// cartToPolar blocks of ~1024 elements; the float64 atan forms split a call into blocks of 128.
constexpr int64_t kVec2F = 16, kVec2D = 8, kBlk64 = 128;

// ---- polarToCart, as cv2 5.x computes it (without IPP, which cv2 uses by default only for
// float32 with a magnitude). A call of at least two vectors (16 angles) runs its vector loop on
// every angle (the last vector overlaps): Cephes' float32 sincos (octant reduction by three fmas,
// two short polynomials) of angle, or angle * float(pi/180), times the magnitude in float. A
// shorter call runs its older scalar loop: a 64-entry sine table and short polynomials in double
// (contracted to fmas by the compiler), the magnitude multiplied in double. The float64 form
// converts both inputs to float32 first and calls it on blocks of 128. ----

inline uint32_t bits_of(float v) { uint32_t u; std::memcpy(&u, &v, 4); return u; }
inline float float_of(uint32_t u) { float v; std::memcpy(&v, &u, 4); return v; }

// n angles (times mul: 1, or float(pi/180) for degrees) to sines and cosines, times the magnitude
// in float where Mag; branch-free so that the compiler vectorises it
template <bool Mag>
void sincos_lanes(const float* __restrict ang, const float* __restrict mag, float mul, float* __restrict so,
                  float* __restrict co, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float x = ang[i] * mul;  // * 1.f changes no bit, NaN and -0 included
    const float ax0 = std::fabs(x);
    const float q = ax0 * 1.27323954473516f;  // 4 / pi
    // cvttps: INT_MIN when out of int32's range (or NaN, whose answer is replaced below)
    const int32_t jt = int32_t(q < 2147483520.f ? q : 2147483520.f);
    int32_t j = q >= 2147483648.f ? INT32_MIN : jt;
    j = int32_t((uint32_t(j) + 1u) & ~1u);
    const float y = float(j);
    float r = std::fma(y, -0.78515625f, ax0);
    r = std::fma(y, -2.4187564849853515625E-4f, r);
    r = std::fma(y, -3.77489497744594108E-8f, r);
    const float z = r * r;
    float y1 = std::fma(2.443315711809948E-5f, z, -1.388731625493765E-3f);
    y1 = std::fma(y1, z, 4.166664568298827E-2f);
    y1 = std::fma(y1, z, -0.5f);
    y1 = std::fma(y1, z, 1.f);
    float y2 = std::fma(-1.9515295891E-4f, z, 8.3321608736E-3f);
    y2 = std::fma(y2, z, -1.6666654611E-1f);
    y2 = std::fma(y2 * z, r, r);
    const bool poly = (j & 2) == 0;
    const float sv = poly ? y2 : y1, cv = poly ? y1 : y2;
    // sin keeps its sign where (x < 0) differs from (octant bit 4 clear); cos flips where bit 4 of
    // j - 2 is clear
    const uint32_t neg = x < 0.f ? 1u : 0u, b4 = (uint32_t(j) >> 2) & 1u;
    const uint32_t sflip = (neg ^ b4) << 31;  // (integer form: a compare of bools does not vectorise)
    const uint32_t cflip = ((uint32_t(j) - 2u) & 4u) == 0 ? 0x80000000u : 0u;
    const bool nan = (r == INFINITY) | (x != x);
    float sr = nan ? std::numeric_limits<float>::quiet_NaN() : float_of(bits_of(sv) ^ sflip);
    float cr = nan ? std::numeric_limits<float>::quiet_NaN() : float_of(bits_of(cv) ^ cflip);
    if constexpr (Mag) sr *= mag[i], cr *= mag[i];
    so[i] = sr;
    co[i] = cr;
  }
}

struct SinCosTable {
  double v[64];
  SinCosTable() {
    for (int k = 0; k < 64; ++k) v[k] = std::sin(k * 2 * M_PI / 64);
    v[32] = 0.00000000000000012246;  // cv2's table holds sin(pi) printed to 5 digits
  }
};

const SinCosTable& sincos_table() {
  static const SinCosTable t;
  return t;
}

const double kSinK2 = 2 * M_PI / 64;
const double kSinA0 = -0.166630293345647 * kSinK2 * kSinK2 * kSinK2;
const double kCosA0 = -0.499818138450326 * kSinK2 * kSinK2;

// cvRound of a double (x86 conversion: half to even, INT_MIN when out of range or NaN)
inline int round_i32(double t) {
  const double r = std::nearbyint(t);
  return r >= -2147483648.0 && r < 2147483648.0 ? int(r) : INT32_MIN;
}

// cv2's scalar loop for one angle
inline void sincos_table_one(float ang, const float* mag, int64_t i, double k1, const double* tab, float& c, float& s) {
  double t = double(ang) * k1;
  const int it = round_i32(t);
  t -= double(it);
  const int si = it & 63, ci = (16 - si) & 63;
  const double sa = tab[si], ca = tab[ci];
  const double sb = std::fma(kSinA0 * t, t, kSinK2) * t, cb = std::fma(kCosA0 * t, t, 1.0);
  double sv = std::fma(sa, cb, ca * sb), cvv = std::fma(ca, cb, -(sa * sb));
  if (mag) sv *= double(mag[i]), cvv *= double(mag[i]);
  s = float(sv);
  c = float(cvv);
}

// One of cv2's hal::polarToCart32f calls: n angles (and magnitudes, or none).
void sincos_call(const float* ang, const float* mag, float* xo, float* yo, int64_t n, bool deg) {
  if (n < 16) {
    const double* tab = sincos_table().v;
    const double k1 = deg ? 64 / 360. : 64 / (2 * M_PI);
    for (int64_t i = 0; i < n; ++i) sincos_table_one(ang[i], mag, i, k1, tab, xo[i], yo[i]);
    return;
  }
  const float mul = deg ? float(M_PI / 180) : 1.f;
  if (mag) sincos_lanes<true>(ang, mag, mul, yo, xo, n);
  else sincos_lanes<false>(ang, nullptr, mul, yo, xo, n);
}

// ---- bitwise ops on the bytes (a float's bit pattern included, as cv2 does) ----

template <int Op>
inline uint8_t bit(uint8_t a, uint8_t b) {
  if constexpr (Op == 3) return a & b;
  else if constexpr (Op == 4) return a | b;
  else if constexpr (Op == 5) return a ^ b;
  else return uint8_t(~a);
}

template <int Op>
void bit_loop(const uint8_t* __restrict a, const uint8_t* __restrict b, uint8_t* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = bit<Op>(a[i], Op == 6 ? a[i] : b[i]);
}

// masked: PB bytes a pixel (0: pb at run time); a pixel whose mask is 0 is 0 (a new dst)
template <int Op, int PB>
void bit_mask_loop(const uint8_t* __restrict a, const uint8_t* __restrict b, const uint8_t* __restrict m,
                   uint8_t* __restrict o, int64_t p0, int64_t p1, int64_t pb_rt) {
  const int64_t pb = PB ? PB : pb_rt;
  for (int64_t p = p0; p < p1; ++p) {
    const uint8_t keep = m[p] ? 0xff : 0;
    for (int64_t k = 0; k < pb; ++k) {
      const int64_t i = p * pb + k;
      o[i] = bit<Op>(a[i], Op == 6 ? a[i] : b[i]) & keep;
    }
  }
}

template <int Op>
void bit_mask_any(const uint8_t* a, const uint8_t* b, const uint8_t* m, uint8_t* o, int64_t p0, int64_t p1, int64_t pb) {
  switch (pb) {
    case 1: return bit_mask_loop<Op, 1>(a, b, m, o, p0, p1, pb);
    case 3: return bit_mask_loop<Op, 3>(a, b, m, o, p0, p1, pb);
    case 4: return bit_mask_loop<Op, 4>(a, b, m, o, p0, p1, pb);
    default: return bit_mask_loop<Op, 0>(a, b, m, o, p0, p1, pb);
  }
}

class MathKernel final : public backend::Kernel {
 public:
  explicit MathKernel(const backend::StepDesc& s)
      : op_(int(s.params->ints[0])), flag_(s.params->ints[1] != 0), flag_bits_(s.params->ints[1]),
        dt_(s.inputs[0].dtype),
        row_(s.params->ints.size() > 2 ? s.params->ints[2] : 0) {
    const Shape& sh = s.inputs[0].shape;
    n_ = numel(sh);
    np_ = sh[0] * sh[1];
    cn_ = sh.size() == 3 ? sh[2] : 1;
    isz_ = int64_t(itemsize(dt_));
    for (const auto& t : s.inputs) shapes_.push_back(t.shape);
    n_inputs_ = s.inputs.size();
    floats_ = s.params->floats;
    out_shape_ = s.output.shape;
  }

  void run(char* const* in, char* out) override {
    switch (op_) {
      case 0: case 1: case 2:
        if (dt_ == DType::Float32) return polar<float>(in, out);
        return polar<double>(in, out);
      case 3: return bits<3>(in, out);
      case 4: return bits<4>(in, out);
      case 5: return bits<5>(in, out);
      case 6: return bits<6>(in, out);
      case 7: return hconcat(in, out);
      case 8: return vconcat(in, out);
      case 9:
        if (dt_ == DType::Float32) return root<float>(in[0], out);
        return root<double>(in[0], out);
      case 10:
        if (dt_ == DType::Float32) return to_cart<float>(in, out);
        return to_cart<double>(in, out);
      default: return;
    }
  }

 private:
  template <class T>
  void polar(char* const* in, char* out) {
    const T* x = reinterpret_cast<const T*>(in[0]);
    const T* y = reinterpret_cast<const T*>(in[1]);
    T* o = reinterpret_cast<T*>(out);
    const float s = scale_of(flag_);
    const int op = op_;
    const int64_t n = n_, row = row_ > 0 ? row_ : n_, cn = cn_;
    const bool f64 = sizeof(T) == 8;
    const int64_t blk = op == 2 ? std::min(row, ((1024 + cn - 1) / cn) * cn) : row;
    parallel_for(n, kGrain, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi;) {
        // the hal call (and, for the float64 atan forms, the 128-block) that holds element i
        const int64_t p = i % row, plane = i - p;
        const int64_t ob = p / blk * blk, olen = std::min(row - ob, blk);
        int64_t end = plane + ob + olen, len = olen;
        if (f64 && op != 1) {
          const int64_t ib = (p - ob) / kBlk64 * kBlk64;
          len = std::min(olen - ib, kBlk64);
          end = plane + ob + ib + len;
        }
        const bool scalar = len < (f64 && op == 1 ? kVec2D : kVec2F);
        const int64_t e = std::min(end, hi);
        if (scalar) polar_any<T, true>(op, x, y, o, n, i, e, s);
        else polar_any<T, false>(op, x, y, o, n, i, e, s);
        i = e;
      }
    });
  }

  // polarToCart (inputs: [magnitude,] angle): cv2's calls are planes of row_ elements cut into
  // blocks of ~1024 (whole pixels); the float64 form converts blocks of 128 to float32 and calls
  // SinCos_32f on each. Each task takes whole cv2 calls, so every element sees its call's layout.
  template <class T>
  void to_cart(char* const* in, char* out) {
    const bool has_mag = n_inputs_ == 2;
    const T* mg = has_mag ? reinterpret_cast<const T*>(in[0]) : nullptr;
    const T* an = reinterpret_cast<const T*>(in[has_mag ? 1 : 0]);
    T* xo = reinterpret_cast<T*>(out);
    T* yo = xo + n_;
    if (flag_bits_ & 2) {
      // float64 with a magnitude, in radians: cv2 hands that case to IPP (double precision, its
      // own approximation); mnn keeps m * cos(a), m * sin(a) in double (libm: the same bits on
      // every ISA), within an ulp or two of IPP
      parallel_for(n_, kGrain / 8, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
          const double t = double(an[i]), m = mg ? double(mg[i]) : 1.0;
          xo[i] = T(m * std::cos(t));
          yo[i] = T(m * std::sin(t));
        }
      });
      return;
    }
    const bool deg = flag_bits_ & 1;
    const int64_t row = row_ > 0 ? row_ : n_, cn = cn_;
    const int64_t blk = std::min(row, ((1024 + cn - 1) / cn) * cn);
    const int64_t per_row = (row + blk - 1) / blk, calls = (n_ / row) * per_row;
    parallel_for(calls, std::max<int64_t>(1, kGrain / blk), [&](int64_t c0, int64_t c1) {
      float ab[kBlk64], mb[kBlk64], xb[kBlk64], yb[kBlk64];
      for (int64_t c = c0; c < c1; ++c) {
        const int64_t r = c / per_row, j = (c % per_row) * blk;
        const int64_t base = r * row + j, len = std::min(row - j, blk);
        if constexpr (sizeof(T) == 4) {
          sincos_call(an + base, mg ? mg + base : nullptr, xo + base, yo + base, len, deg);
        } else {
          for (int64_t q = 0; q < len; q += kBlk64) {
            const int64_t m = std::min(kBlk64, len - q), b0 = base + q;
            for (int64_t k = 0; k < m; ++k) ab[k] = float(an[b0 + k]), mb[k] = mg ? float(mg[b0 + k]) : 0.f;
            sincos_call(ab, mg ? mb : nullptr, xb, yb, m, deg);
            for (int64_t k = 0; k < m; ++k) xo[b0 + k] = xb[k], yo[b0 + k] = yb[k];
          }
        }
      }
    });
  }

  // sqrt: correctly rounded on every ISA; a negative gives NaN with no IEEE warning (cv2 has none)
  template <class T>
  void root(const char* a, char* out) {
    const T* x = reinterpret_cast<const T*>(a);
    T* o = reinterpret_cast<T*>(out);
    parallel_for(n_, kGrain, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) o[i] = std::sqrt(x[i]);
    });
  }

  // A cv2 Scalar (one value a channel, already in the image's type: floats_) as the bytes of one
  // pixel, repeated 64 times so that the byte loop below runs over whole blocks.
  std::vector<uint8_t> scalar_pattern(int64_t pb) const {
    std::vector<uint8_t> px(size_t(pb), 0);
    const int64_t c = cn_;
    for (int64_t k = 0; k < c && k < int64_t(floats_.size()); ++k) {
      const double v = floats_[size_t(k)];
      uint8_t* d = px.data() + k * isz_;
      switch (dt_) {
        case DType::UInt8: { const uint8_t t = uint8_t(v); std::memcpy(d, &t, 1); break; }
        case DType::Int8: { const int8_t t = int8_t(v); std::memcpy(d, &t, 1); break; }
        case DType::UInt16: { const uint16_t t = uint16_t(v); std::memcpy(d, &t, 2); break; }
        case DType::Int16: { const int16_t t = int16_t(v); std::memcpy(d, &t, 2); break; }
        case DType::Int32: { const int32_t t = int32_t(v); std::memcpy(d, &t, 4); break; }
        default: break;
      }
    }
    std::vector<uint8_t> rep(size_t(pb) * 64);
    for (size_t i = 0; i < rep.size(); ++i) rep[i] = px[i % size_t(pb)];
    return rep;
  }

  template <int Op>
  void bits_scalar(char* const* in, char* out) {
    const uint8_t* a = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    const uint8_t* m = (flag_bits_ & 1) ? reinterpret_cast<const uint8_t*>(in[1]) : nullptr;
    const int64_t pb = n_ * isz_ / std::max<int64_t>(np_, 1);
    const std::vector<uint8_t> rep = scalar_pattern(pb);
    const uint8_t* pat = rep.data();
    const int64_t blk = 64;  // pixels a pattern covers
    parallel_for((np_ + blk - 1) / blk, std::max<int64_t>(1, kGrain * 4 / (blk * pb)), [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        const int64_t p0 = b * blk, p1 = std::min(np_, p0 + blk);
        if (m) {
          for (int64_t p = p0; p < p1; ++p) {
            const uint8_t keep = m[p] ? 0xff : 0;
            for (int64_t k = 0; k < pb; ++k) o[p * pb + k] = bit<Op>(a[p * pb + k], pat[(p - p0) * pb + k]) & keep;
          }
        } else {
          bit_loop<Op>(a + p0 * pb, pat, o + p0 * pb, (p1 - p0) * pb);
        }
      }
    });
  }

  template <int Op>
  void bits(char* const* in, char* out) {
    if (flag_bits_ & 2) return bits_scalar<Op>(in, out);
    const uint8_t* a = reinterpret_cast<const uint8_t*>(in[0]);
    const uint8_t* b = Op == 6 ? a : reinterpret_cast<const uint8_t*>(in[1]);
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    if (!flag_) {
      const int64_t nb = n_ * isz_;
      parallel_for(nb, kGrain * 4, [&](int64_t lo, int64_t hi) { bit_loop<Op>(a + lo, b + lo, o + lo, hi - lo); });
      return;
    }
    const uint8_t* m = reinterpret_cast<const uint8_t*>(in[Op == 6 ? 1 : 2]);  // after the image(s)
    const int64_t pb = np_ ? n_ * isz_ / np_ : 1;
    parallel_for(np_, std::max<int64_t>(1, kGrain * 4 / std::max<int64_t>(pb, 1)),
                 [&](int64_t p0, int64_t p1) { bit_mask_any<Op>(a, b, m, o, p0, p1, pb); });
  }

  // bytes of one row of input k (all its columns and channels)
  int64_t row_bytes(const Shape& s) const { return numel(s) / std::max<int64_t>(s[0], 1) * isz_; }

  void hconcat(char* const* in, char* out) {
    const size_t k = shapes_.size();
    std::vector<int64_t> rb(k);
    int64_t orb = 0;
    for (size_t i = 0; i < k; ++i) rb[i] = row_bytes(shapes_[i]), orb += rb[i];
    const int64_t rows = out_shape_[0];
    parallel_for(rows, std::max<int64_t>(1, kGrain * 4 / std::max<int64_t>(orb, 1)), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        char* d = out + r * orb;
        for (size_t i = 0; i < k; ++i) {
          std::memcpy(d, in[i] + r * rb[i], size_t(rb[i]));
          d += rb[i];
        }
      }
    });
  }

  void vconcat(char* const* in, char* out) {
    std::vector<int64_t> off;
    int64_t total = 0;
    for (const Shape& s : shapes_) off.push_back(total), total += numel(s) * isz_;
    // one task per input when the threads have several, else byte ranges of the output
    parallel_for(total, kGrain * 4, [&](int64_t lo, int64_t hi) {
      for (size_t i = 0; i < shapes_.size(); ++i) {
        const int64_t b0 = off[i], b1 = off[i] + numel(shapes_[i]) * isz_;
        const int64_t s0 = std::max(lo, b0), s1 = std::min(hi, b1);
        if (s0 < s1) std::memcpy(out + s0, in[i] + (s0 - b0), size_t(s1 - s0));
      }
    });
  }

  int op_;
  bool flag_;
  int64_t flag_bits_;  // polarToCart: 1 degrees, 2 the double-precision form; bitwise: 1 mask, 2 Scalar
  DType dt_;
  int64_t row_;  // elements in one of cv2's planes (phase / magnitude / cartToPolar)
  int64_t n_, np_, isz_, cn_;
  std::vector<Shape> shapes_;
  size_t n_inputs_ = 0;
  std::vector<double> floats_;
  Shape out_shape_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<MathKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_math, "cv_math", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
