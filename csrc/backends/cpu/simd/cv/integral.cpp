// CPU kernel of cv_integral (shape rule: ops/cv/integral.cpp): cv2's integral images in the order
// cv2 adds them. Sums and sums of squares: a running row sum s (in the result type) and
// out[y+1][x+1] = out[y][x+1] + s, as cv2's integral_ does, so float results round as cv2's.
// Tilted sums: T(X,Y) = T(X-1,Y-1) + T(X+1,Y-1) - T(X,Y-2) + I(X-1,Y-1) + I(X-1,Y-2), the
// triangle recurrence, on rows padded by H columns each side so triangles reaching outside the
// image need no clipping (exact for integer images; floats agree to rounding). One pass each;
// sequential in y by nature (every row reads the previous one), so one thread per call.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

template <class T, class S>
void sums(const T* x, S* o, int64_t H, int64_t W, int64_t C, bool square) {
  const int64_t ow = (W + 1) * C;
  std::fill(o, o + ow, S(0));
  for (int64_t y = 0; y < H; ++y) {
    const T* r = x + y * W * C;
    const S* up = o + y * ow;
    S* cur = o + (y + 1) * ow;
    for (int64_t c = 0; c < C; ++c) {
      cur[c] = S(0);
      S s = S(0);
      for (int64_t i = 0; i < W; ++i) {
        const S v = static_cast<S>(r[i * C + c]);
        s += square ? v * v : v;
        cur[(i + 1) * C + c] = up[(i + 1) * C + c] + s;
      }
    }
  }
}

template <class T, class S>
void tilted(const T* x, S* o, int64_t H, int64_t W, int64_t C) {
  const int64_t ow = (W + 1) * C;
  const int64_t pad = H + 2, pw = W + 1 + 2 * pad;  // padded columns X in [-pad, W + pad]
  std::vector<S> r0(size_t(pw), S(0)), r1(size_t(pw), S(0)), r2(size_t(pw), S(0));  // rows Y-2, Y-1, Y
  std::fill(o, o + (H + 1) * ow, S(0));
  auto img = [&](int64_t X, int64_t Y, int64_t c) -> S {
    return (X < 0 || X >= W || Y < 0 || Y >= H) ? S(0) : static_cast<S>(x[(Y * W + X) * C + c]);
  };
  for (int64_t c = 0; c < C; ++c) {
    std::fill(r0.begin(), r0.end(), S(0));
    std::fill(r1.begin(), r1.end(), S(0));  // row Y = 0: all zero
    for (int64_t Y = 1; Y <= H; ++Y) {
      for (int64_t k = 1; k < pw - 1; ++k) {
        const int64_t X = k - pad;
        S t = img(X - 1, Y - 1, c);
        if (Y >= 2) t = r1[size_t(k - 1)] + r1[size_t(k + 1)] - r0[size_t(k)] + t + img(X - 1, Y - 2, c);
        r2[size_t(k)] = t;
      }
      r2[0] = r2[size_t(pw - 1)] = S(0);
      for (int64_t X = 0; X <= W; ++X) o[Y * ow + X * C + c] = r2[size_t(X + pad)];
      std::swap(r0, r1);
      std::swap(r1, r2);
    }
  }
}

template <class T, class S>
void run_kind(const char* in, char* out, int64_t H, int64_t W, int64_t C, int kind) {
  const T* x = reinterpret_cast<const T*>(in);
  S* o = reinterpret_cast<S*>(out);
  if (kind == 2) return tilted<T, S>(x, o, H, W, C);
  sums<T, S>(x, o, H, W, C, kind == 1);
}

template <class T>
void run_src(const char* in, char* out, int64_t H, int64_t W, int64_t C, int kind, int od) {
  switch (od) {
    case 0: return run_kind<T, int32_t>(in, out, H, W, C, kind);
    case 1: return run_kind<T, float>(in, out, H, W, C, kind);
    default: return run_kind<T, double>(in, out, H, W, C, kind);
  }
}

class IntegralKernel final : public backend::Kernel {
 public:
  explicit IntegralKernel(const backend::StepDesc& s)
      : dt_(s.inputs[0].dtype), H_(s.inputs[0].shape[0]), W_(s.inputs[0].shape[1]), C_(s.inputs[0].shape[2]),
        kind_(int(s.params->ints[0])), od_(int(s.params->ints[1])) {}
  void run(char* const* in, char* out) override {
    switch (dt_) {
      case DType::UInt8: return run_src<uint8_t>(in[0], out, H_, W_, C_, kind_, od_);
      case DType::UInt16: return run_src<uint16_t>(in[0], out, H_, W_, C_, kind_, od_);
      case DType::Int16: return run_src<int16_t>(in[0], out, H_, W_, C_, kind_, od_);
      case DType::Float32: return run_src<float>(in[0], out, H_, W_, C_, kind_, od_);
      case DType::Float64: return run_src<double>(in[0], out, H_, W_, C_, kind_, od_);
      default: return;
    }
  }

 private:
  DType dt_;
  int64_t H_, W_, C_;
  int kind_, od_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<IntegralKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_integral, "cv_integral", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
