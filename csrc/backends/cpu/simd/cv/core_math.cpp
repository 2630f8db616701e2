// CPU kernels of cv_math (shape rule: ops/cv/core_math.cpp): phase, magnitude and cartToPolar in
// cv2's own arithmetic, the bitwise ops (with an optional mask) and hconcat / vconcat, each one pass
// over the pixels. Compiled once per ISA.
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

// ---- cv2's fastAtan2 polynomial (degrees), in the form of its vector loop: min / max of |x|, |y|
// (x86 min/max: the second operand when either is NaN), the odd polynomial by fmas, then the
// quadrant selects ----

const float kP1 = 0.9997878412794807f * float(180.0 / M_PI);
const float kP3 = -0.3258083974640975f * float(180.0 / M_PI);
const float kP5 = 0.1555786518463281f * float(180.0 / M_PI);
const float kP7 = -0.04432655554792128f * float(180.0 / M_PI);

inline float atan_deg(float y, float x, float scale) {
  const float ax = std::fabs(x), ay = std::fabs(y);
  const float mn = ax < ay ? ax : ay, mx = ax > ay ? ax : ay;
  const float c = mn / (mx + float(DBL_EPSILON));
  const float cc = c * c;
  float a = std::fma(std::fma(std::fma(cc, kP7, kP5), cc, kP3), cc, kP1) * c;
  a = ax >= ay ? a : 90.f - a;
  a = x < 0.f ? 180.f - a : a;
  a = y < 0.f ? 360.f - a : a;
  return a * scale;
}

inline float scale_of(bool deg) { return deg ? 1.f : float(M_PI / 180); }

template <class T>
void phase_loop(const T* __restrict x, const T* __restrict y, T* __restrict o, int64_t n, float s) {
  for (int64_t i = 0; i < n; ++i) o[i] = T(atan_deg(float(y[i]), float(x[i]), s));
}

inline float mag32(float x, float y) { return std::sqrt(std::fma(x, x, y * y)); }
inline double mag64(double x, double y) { return std::sqrt(std::fma(x, x, y * y)); }

void mag_loop(const float* __restrict x, const float* __restrict y, float* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = mag32(x[i], y[i]);
}
void mag_loop(const double* __restrict x, const double* __restrict y, double* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = mag64(x[i], y[i]);
}

// cartToPolar: cv2's float64 form converts both inputs to float32 and keeps the float32 magnitude.
template <class T>
void polar_loop(const T* __restrict x, const T* __restrict y, T* __restrict m, T* __restrict a, int64_t n, float s) {
  for (int64_t i = 0; i < n; ++i) {
    const float xf = float(x[i]), yf = float(y[i]);
    m[i] = T(mag32(xf, yf));
    a[i] = T(atan_deg(yf, xf, s));
  }
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
      : op_(int(s.params->ints[0])), flag_(s.params->ints[1] != 0), dt_(s.inputs[0].dtype) {
    const Shape& sh = s.inputs[0].shape;
    n_ = numel(sh);
    np_ = sh[0] * sh[1];
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
    const int64_t n = n_;
    parallel_for(n, kGrain, [&](int64_t lo, int64_t hi) {
      if (op == 0) phase_loop<T>(x + lo, y + lo, o + lo, hi - lo, s);
      else if (op == 1) mag_loop(x + lo, y + lo, o + lo, hi - lo);
      else polar_loop<T>(x + lo, y + lo, o + lo, o + n + lo, hi - lo, s);
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
  int64_t n_, np_, isz_;
  std::vector<Shape> shapes_;
  Shape out_shape_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<MathKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_math, "cv_math", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
