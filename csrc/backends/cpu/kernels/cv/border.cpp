// cv_border (copyMakeBorder) and cv_pyr (pyrDown / pyrUp) kernels: see ops/cv/geometry.cpp.
//
// Both are gathers through cv2's border rules. pyrDown smooths with the 5x5 binomial kernel
// [1 4 6 4 1]^2 / 256 and keeps even pixels; pyrUp doubles the size with [1 6 1]/8 and
// [4 4]/8 taps per axis. Integer images round (sum + half) >> shift exactly as cv2 does.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

enum { kConstant = 0, kReplicate = 1, kReflect = 2, kWrap = 3, kReflect101 = 4 };

int border_index(int p, int len, int mode) {
  if (static_cast<unsigned>(p) < static_cast<unsigned>(len)) return p;
  if (mode == kConstant) return -1;
  if (len == 1) return 0;
  if (mode == kReplicate) return p < 0 ? 0 : len - 1;
  if (mode == kWrap) {
    if (p < 0) p -= ((p - len + 1) / len) * len;
    if (p >= len) p %= len;
    return p;
  }
  const int delta = mode == kReflect101;
  do {
    if (p < 0) p = -p - 1 + delta;
    else p = len - 1 - (p - len) - delta;
  } while (static_cast<unsigned>(p) >= static_cast<unsigned>(len));
  return p;
}

template <class T>
T saturate_from(double v) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v);
  else {
    double r = std::nearbyint(v);
    if (r < double(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    if (r > double(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}

// Copies whole pixels (itemsize * channels bytes), so one kernel serves every dtype.
class BorderKernel final : public backend::Kernel {
 public:
  explicit BorderKernel(const backend::StepDesc& s) {
    const Shape& a = s.inputs[0].shape;
    sh_ = int(a[0]);
    sw_ = int(a[1]);
    int cn = 1;
    for (size_t d = 2; d < a.size(); ++d) cn *= int(a[d]);
    const Params& p = *s.params;
    top_ = int(p.ints[0]);
    left_ = int(p.ints[2]);
    mode_ = int(p.ints[4]);
    dh_ = int(s.output.shape[0]);
    dw_ = int(s.output.shape[1]);
    const size_t isz = itemsize(s.output.dtype);
    px_ = isz * cn;
    value_.resize(px_);
    dispatch_dtype(s.output.dtype, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (!core::is_half_like_v<T> && !std::is_same_v<T, bool>) {
        for (int c = 0; c < cn; ++c) {
          T v = saturate_from<T>(c < 4 ? p.floats[c] : 0.0);
          std::memcpy(&value_[c * isz], &v, isz);
        }
      }
      return 0;
    });
    xs_.resize(dw_);
    for (int x = 0; x < dw_; ++x) xs_[x] = border_index(x - left_, sw_, mode_);
  }
  void run(char* const* in, char* out) override {
    const char* src = in[0];
    const size_t px = px_, srow = size_t(sw_) * px, drow = size_t(dw_) * px;
    parallel_for(dh_, std::max(1, 2048 / std::max(1, dw_)), [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) {
        char* D = out + size_t(y) * drow;
        int sy = border_index(int(y) - top_, sh_, mode_);
        if (sy < 0) {
          for (int x = 0; x < dw_; ++x) std::memcpy(D + x * px, value_.data(), px);
          continue;
        }
        const char* S = src + size_t(sy) * srow;
        // left border, the copied run, right border
        int x = 0;
        for (; x < dw_ && x < left_; ++x)
          std::memcpy(D + x * px, xs_[x] < 0 ? value_.data() : S + size_t(xs_[x]) * px, px);
        int run = std::min(sw_, dw_ - x);
        if (run > 0) {
          std::memcpy(D + size_t(x) * px, S, size_t(run) * px);
          x += run;
        }
        for (; x < dw_; ++x) std::memcpy(D + x * px, xs_[x] < 0 ? value_.data() : S + size_t(xs_[x]) * px, px);
      }
    });
  }

 private:
  int sh_, sw_, dh_, dw_, top_, left_, mode_;
  size_t px_;
  std::vector<char> value_;
  std::vector<int> xs_;
};

template <class T>
class PyrKernel final : public backend::Kernel {
 public:
  explicit PyrKernel(const backend::StepDesc& s) {
    const Shape& a = s.inputs[0].shape;
    sh_ = int(a[0]);
    sw_ = int(a[1]);
    cn_ = a.size() == 3 ? int(a[2]) : 1;
    down_ = s.params->ints[0] != 0;
    dh_ = int(s.params->ints[1]);
    dw_ = int(s.params->ints[2]);
    mode_ = int(s.params->ints[3]);
  }
  void run(char* const* in, char* out) override {
    const T* src = reinterpret_cast<const T*>(in[0]);
    T* dst = reinterpret_cast<T*>(out);
    if (down_) run_down(src, dst);
    else run_up(src, dst);
  }

 private:
  using W = std::conditional_t<std::is_floating_point_v<T>, std::conditional_t<std::is_same_v<T, double>, double, float>, int64_t>;

  T finish(W sum, int shift) const {
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(sum * (W(1) / W(1 << shift)));
    else {
      int64_t r = (sum + (int64_t(1) << (shift - 1))) >> shift;
      if (r < int64_t(std::numeric_limits<T>::min())) r = std::numeric_limits<T>::min();
      if (r > int64_t(std::numeric_limits<T>::max())) r = std::numeric_limits<T>::max();
      return static_cast<T>(r);
    }
  }

  void run_down(const T* src, T* dst) const {
    const int cn = cn_;
    const size_t step = size_t(sw_) * cn;
    std::vector<int> xt(size_t(dw_) * 5);
    for (int x = 0; x < dw_; ++x)
      for (int k = 0; k < 5; ++k) xt[x * 5 + k] = border_index(2 * x - 2 + k, sw_, mode_);
    parallel_for(dh_, 1, [&](int64_t y0, int64_t y1) {
      std::vector<W> rows(size_t(5) * dw_ * cn);
      for (int64_t y = y0; y < y1; ++y) {
        for (int k = 0; k < 5; ++k) {
          const T* S = src + size_t(border_index(2 * int(y) - 2 + k, sh_, mode_)) * step;
          W* R = &rows[size_t(k) * dw_ * cn];
          for (int x = 0; x < dw_; ++x) {
            const int* t = &xt[x * 5];
            for (int c = 0; c < cn; ++c)
              R[x * cn + c] = W(S[t[0] * cn + c]) + W(S[t[4] * cn + c]) +
                              (W(S[t[1] * cn + c]) + W(S[t[3] * cn + c])) * W(4) + W(S[t[2] * cn + c]) * W(6);
          }
        }
        T* D = dst + size_t(y) * dw_ * cn;
        const size_t n = size_t(dw_) * cn;
        const W *r0 = &rows[0], *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n, *r4 = r3 + n;
        for (size_t i = 0; i < n; ++i) D[i] = finish(r0[i] + r4[i] + (r1[i] + r3[i]) * W(4) + r2[i] * W(6), 8);
      }
    });
  }

  // Taps of pyrUp along one axis for destination index d: even d = 2s takes s-1, s, s+1 with
  // weights 1, 6, 1; odd d = 2s+1 takes s, s+1 with 4, 4. Index -1 reflects to 1, index n
  // repeats n-1 (cv2's edges).
  static void up_taps(int d, int n, int* idx, int* w, int& k) {
    auto clampi = [n](int i) { return i < 0 ? std::min(1, n - 1) : i >= n ? n - 1 : i; };
    int s = d / 2;
    if ((d & 1) == 0) {
      idx[0] = clampi(s - 1), idx[1] = clampi(s), idx[2] = clampi(s + 1);
      w[0] = 1, w[1] = 6, w[2] = 1;
      k = 3;
    } else {
      idx[0] = clampi(s), idx[1] = clampi(s + 1);
      w[0] = 4, w[1] = 4;
      k = 2;
    }
  }

  void run_up(const T* src, T* dst) const {
    const int cn = cn_;
    const size_t step = size_t(sw_) * cn;
    std::vector<int> xi(size_t(dw_) * 3), xw(size_t(dw_) * 3), xk(dw_);
    for (int x = 0; x < dw_; ++x) up_taps(x, sw_, &xi[x * 3], &xw[x * 3], xk[x]);
    parallel_for(dh_, 1, [&](int64_t y0, int64_t y1) {
      std::vector<W> rows(size_t(3) * dw_ * cn);
      for (int64_t y = y0; y < y1; ++y) {
        int yi[3], yw[3], yk;
        up_taps(int(y), sh_, yi, yw, yk);
        for (int r = 0; r < yk; ++r) {
          const T* S = src + size_t(yi[r]) * step;
          W* R = &rows[size_t(r) * dw_ * cn];
          for (int x = 0; x < dw_; ++x)
            for (int c = 0; c < cn; ++c) {
              const int* t = &xi[x * 3];
              const int* w = &xw[x * 3];
              W v = xk[x] == 3 ? W(S[t[0] * cn + c]) * W(w[0]) + W(S[t[1] * cn + c]) * W(w[1]) + W(S[t[2] * cn + c]) * W(w[2])
                               : (W(S[t[0] * cn + c]) + W(S[t[1] * cn + c])) * W(4);
              R[x * cn + c] = v;
            }
        }
        T* D = dst + size_t(y) * dw_ * cn;
        const size_t n = size_t(dw_) * cn;
        const W *r0 = &rows[0], *r1 = r0 + n, *r2 = r1 + n;
        for (size_t i = 0; i < n; ++i) {
          W v = yk == 3 ? r0[i] * W(yw[0]) + r1[i] * W(yw[1]) + r2[i] * W(yw[2]) : (r0[i] + r1[i]) * W(4);
          D[i] = finish(v, 6);
        }
      }
    });
  }

  int sh_, sw_, cn_, dh_, dw_, mode_;
  bool down_;
};

std::unique_ptr<backend::Kernel> prepare_border(const backend::StepDesc& s) { return std::make_unique<BorderKernel>(s); }

std::unique_ptr<backend::Kernel> prepare_pyr(const backend::StepDesc& s) {
  return dispatch_dtype(s.output.dtype, [&](auto zero) -> std::unique_ptr<backend::Kernel> {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, uint16_t> ||
                  std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, float> ||
                  std::is_same_v<T, double>)
      return std::make_unique<PyrKernel<T>>(s);
    else
      throw ValueError("[mnn.cv.pyrDown] unsupported dtype");
  });
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_border, "cv_border", &prepare_border);
MNN_REGISTER_CPU_KERNEL(cv_pyr, "cv_pyr", &prepare_pyr);

}  // namespace mnn::cpu
