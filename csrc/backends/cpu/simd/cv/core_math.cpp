// CPU kernels of cv_math (shape rule: ops/cv/core_math.cpp): phase, magnitude and cartToPolar in
// cv2's own arithmetic, the bitwise ops (with an optional mask), hconcat / vconcat and sqrt, each
// one pass over the pixels. Compiled once per ISA.
//
// cv2 (5.x, mathfuncs_core.simd.hpp) evaluates its atan polynomial and x*x + y*y with fused
// multiply-adds in float32 lanes; the float64 forms go through float32 buffers (the angle, and for
// cartToPolar the magnitude too). std::fma gives those bits on every ISA (an instruction where the
// target has FMA, libm's exact fmaf on the scalar build), and the build's -ffp-contract=off keeps
// the compiler from fusing anything else, so each ISA gives the scalar build's bits.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
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
// magnitude, 2 cartToPolar (angle at m + n). cv2's float64 phase and cartToPolar convert to
// float32 first and keep a float32 magnitude; its float64 magnitude works in double.
template <class T, bool Scalar>
void polar_run(int op, const T* __restrict x, const T* __restrict y, T* __restrict o, int64_t n_all,
               int64_t lo, int64_t hi, float s) {
  if (op == 1) {
    for (int64_t i = lo; i < hi; ++i) {
      if constexpr (sizeof(T) == 4) o[i] = mag32(x[i], y[i]);
      else o[i] = mag64(x[i], y[i]);
    }
    return;
  }
  for (int64_t i = lo; i < hi; ++i) {
    const float xf = float(x[i]), yf = float(y[i]);
    const float a = Scalar ? atan_scalar(yf, xf, s) : atan_vec(yf, xf, s);
    if (op == 0) {
      o[i] = T(a);
    } else {
      o[i] = T(mag32(xf, yf));
      o[n_all + i] = T(a);
    }
  }
}

// Where cv2 runs its scalar loop: a hal call of fewer than two vectors (kVec2 elements; cv2's
// AVX2 dispatch of these functions has 8 float lanes, 4 double ones). The hal calls: per plane of
// `row` elements (the whole image when cv2 sees it continuous), phase and magnitude take the plane,
// cartToPolar blocks of ~1024 elements; the float64 atan forms split a call into blocks of 128.
constexpr int64_t kVec2F = 16, kVec2D = 8, kBlk64 = 128;

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
      : op_(int(s.params->ints[0])), flag_(s.params->ints[1] != 0), dt_(s.inputs[0].dtype),
        row_(s.params->ints.size() > 2 ? s.params->ints[2] : 0) {
    const Shape& sh = s.inputs[0].shape;
    n_ = numel(sh);
    np_ = sh[0] * sh[1];
    cn_ = sh.size() == 3 ? sh[2] : 1;
    isz_ = int64_t(itemsize(dt_));
    for (const auto& t : s.inputs) shapes_.push_back(t.shape);
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
        if (scalar) polar_run<T, true>(op, x, y, o, n, i, e, s);
        else polar_run<T, false>(op, x, y, o, n, i, e, s);
        i = e;
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

  template <int Op>
  void bits(char* const* in, char* out) {
    const uint8_t* a = reinterpret_cast<const uint8_t*>(in[0]);
    const uint8_t* b = Op == 6 ? a : reinterpret_cast<const uint8_t*>(in[1]);
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    if (!flag_) {
      const int64_t nb = n_ * isz_;
      parallel_for(nb, kGrain * 4, [&](int64_t lo, int64_t hi) { bit_loop<Op>(a + lo, b + lo, o + lo, hi - lo); });
      return;
    }
    const uint8_t* m = reinterpret_cast<const uint8_t*>(in[Op == 6 ? 1 : 2]);
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
  DType dt_;
  int64_t row_;  // elements in one of cv2's planes (phase / magnitude / cartToPolar)
  int64_t n_, np_, isz_, cn_;
  std::vector<Shape> shapes_;
  Shape out_shape_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<MathKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_math, "cv_math", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
