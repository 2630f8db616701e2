// CPU kernel of cv_dist (shape rule: ops/cv/distance.cpp).
// Chamfer (cv2 5's distanceTransform_3x3 / _5x5): a forward pass over the rows top-down taking
// for each nonzero pixel the least of (neighbour above or to the left + weight), a backward pass
// bottom-up with the mirrored neighbours; sums are float additions as cv2 5 makes them, and pixels
// outside the image are FLT_MAX (a region without zeros stays FLT_MAX, as in cv2). A minimum does
// not depend on the order the candidates are compared in, so this is cv2's result exactly.
// Exact Euclidean (DIST_MASK_PRECISE): squared distances along columns, then the lower envelope of
// parabolas along rows (Felzenszwalb and Huttenlocher), in exact integer-valued doubles; the result
// is sqrtf of the float squared distance (sqrt(FLT_MAX) when the image has no zero).
// Both are sequential along their passes; one thread. Same bits on every ISA (no contraction).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

void chamfer(const uint8_t* src, float* d, int64_t H, int64_t W, int mode, float a, float b, float c) {
  const int64_t B = mode == 5 ? 2 : 1, TW = W + 2 * B;
  std::vector<float> t(static_cast<size_t>((H + 2 * B) * TW), FLT_MAX);
  auto at = [&](int64_t y, int64_t x) -> float& { return t[size_t((y + B) * TW + x + B)]; };
  for (int64_t y = 0; y < H; ++y) {
    for (int64_t x = 0; x < W; ++x) {
      if (!src[y * W + x]) { at(y, x) = 0.0f; continue; }
      float m = at(y - 1, x - 1) + b;
      m = std::min(m, at(y - 1, x) + a);
      m = std::min(m, at(y - 1, x + 1) + b);
      m = std::min(m, at(y, x - 1) + a);
      if (mode == 5) {
        m = std::min(m, at(y - 2, x - 1) + c);
        m = std::min(m, at(y - 2, x + 1) + c);
        m = std::min(m, at(y - 1, x - 2) + c);
        m = std::min(m, at(y - 1, x + 2) + c);
      }
      at(y, x) = m;
    }
  }
  for (int64_t y = H - 1; y >= 0; --y) {
    for (int64_t x = W - 1; x >= 0; --x) {
      float m = at(y, x);
      if (m > 0.0f) {
        m = std::min(m, at(y + 1, x + 1) + b);
        m = std::min(m, at(y + 1, x) + a);
        m = std::min(m, at(y + 1, x - 1) + b);
        m = std::min(m, at(y, x + 1) + a);
        if (mode == 5) {
          m = std::min(m, at(y + 2, x + 1) + c);
          m = std::min(m, at(y + 2, x - 1) + c);
          m = std::min(m, at(y + 1, x + 2) + c);
          m = std::min(m, at(y + 1, x - 2) + c);
        }
        at(y, x) = m;
      }
      d[y * W + x] = m;
    }
  }
}

void precise(const uint8_t* src, float* d, int64_t H, int64_t W) {
  const double inf = 1e300;
  std::vector<double> g(static_cast<size_t>(H * W));
  bool any = false;
  for (int64_t x = 0; x < W; ++x) {  // squared distance to the nearest zero in the column
    double last = -1;
    for (int64_t y = 0; y < H; ++y) {
      if (!src[y * W + x]) { last = double(y); any = true; }
      g[size_t(y * W + x)] = last < 0 ? inf : (y - last) * (y - last);
    }
    last = -1;
    for (int64_t y = H - 1; y >= 0; --y) {
      if (!src[y * W + x]) last = double(y);
      if (last >= 0) g[size_t(y * W + x)] = std::min(g[size_t(y * W + x)], (last - y) * (last - y));
    }
  }
  if (!any) {
    std::fill(d, d + H * W, std::sqrt(FLT_MAX));
    return;
  }
  std::vector<int64_t> v(static_cast<size_t>(W));
  std::vector<double> z(static_cast<size_t>(W + 1));
  for (int64_t y = 0; y < H; ++y) {
    const double* f = g.data() + y * W;
    int64_t k = -1;
    for (int64_t q = 0; q < W; ++q) {  // lower envelope of the parabolas of finite columns
      if (f[q] >= inf) continue;
      double s = -inf;
      while (k >= 0) {
        const int64_t p = v[size_t(k)];
        s = ((f[q] + double(q) * q) - (f[p] + double(p) * p)) / (2.0 * (q - p));
        if (s <= z[size_t(k)]) --k; else break;
      }
      ++k;
      v[size_t(k)] = q;
      z[size_t(k)] = k == 0 ? -inf : s;
      z[size_t(k + 1)] = inf;
    }
    int64_t j = 0;
    for (int64_t q = 0; q < W; ++q) {
      while (z[size_t(j + 1)] < double(q)) ++j;
      const int64_t p = v[size_t(j)];
      const double d2 = double(q - p) * double(q - p) + f[p];
      d[y * W + q] = std::sqrt(static_cast<float>(d2));
    }
  }
}


// Labels (distanceTransformWithLabels): cv2 5 still runs this one in 16.16 fixed point (its
// distances are 1.3999939 where the plain transform's are 1.4): the 5x5 chamfer with integer
// weights round(w * 65536), carrying each pixel's nearest zero's label; a candidate replaces the
// current one only when strictly smaller, in cv2's candidate order, so ties keep cv2's label.
void chamfer_labels(const uint8_t* src, const int32_t* init, int32_t* lab, float* dist, int64_t H, int64_t W,
                    float a, float b, float c) {
  const int64_t B = 2, TW = W + 2 * B;
  const int64_t kInit = 0x7FFFFFFF >> 2;
  auto fix = [](float v) { return static_cast<int64_t>(std::nearbyint(double(v) * 65536.0)); };
  const int64_t A = fix(a), D = fix(b), L = fix(c);
  std::vector<int64_t> t(static_cast<size_t>((H + 2 * B) * TW), kInit);
  std::vector<int32_t> l(static_cast<size_t>((H + 2 * B) * TW), 0);
  auto at = [&](int64_t y, int64_t x) -> size_t { return static_cast<size_t>((y + B) * TW + x + B); };
  static const int fy[8] = {-2, -2, -1, -1, -1, -1, -1, 0}, fx[8] = {-1, 1, -2, -1, 0, 1, 2, -1};
  const int64_t fw[8] = {L, L, L, D, A, D, L, A};
  for (int64_t y = 0; y < H; ++y) {
    for (int64_t x = 0; x < W; ++x) {
      const size_t i = at(y, x);
      if (!src[y * W + x]) { t[i] = 0; l[i] = init[y * W + x]; continue; }
      int64_t m = kInit;
      int32_t ml = 0;
      for (int k = 0; k < 8; ++k) {
        const size_t j = at(y + fy[k], x + fx[k]);
        const int64_t v = t[j] + fw[k];
        if (m > v) { m = v; ml = l[j]; }
      }
      t[i] = m;
      l[i] = ml;
    }
  }
  for (int64_t y = H - 1; y >= 0; --y) {
    for (int64_t x = W - 1; x >= 0; --x) {
      const size_t i = at(y, x);
      int64_t m = t[i];
      int32_t ml = l[i];
      if (m > A) {
        for (int k = 0; k < 8; ++k) {
          const size_t j = at(y - fy[k], x - fx[k]);
          const int64_t v = t[j] + fw[k];
          if (m > v) { m = v; ml = l[j]; }
        }
        t[i] = m;
        l[i] = ml;
      }
      if (dist) dist[y * W + x] = static_cast<float>(m) * (1.0f / 65536.0f);
      if (lab) lab[y * W + x] = ml;
    }
  }
}

class DistLabelsKernel final : public backend::Kernel {
 public:
  explicit DistLabelsKernel(const backend::StepDesc& s)
      : H_(s.inputs[0].shape[0]), W_(s.inputs[0].shape[1]), want_labels_(s.params->ints[0] != 0),
        a_(float(s.params->floats[0])), b_(float(s.params->floats[1])), c_(float(s.params->floats[2])) {}
  void run(char* const* in, char* out) override {
    if (H_ == 0 || W_ == 0) return;
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    const int32_t* init = reinterpret_cast<const int32_t*>(in[1]);
    if (want_labels_) chamfer_labels(src, init, reinterpret_cast<int32_t*>(out), nullptr, H_, W_, a_, b_, c_);
    else chamfer_labels(src, init, nullptr, reinterpret_cast<float*>(out), H_, W_, a_, b_, c_);
  }

 private:
  int64_t H_, W_;
  bool want_labels_;
  float a_, b_, c_;
};

class DistKernel final : public backend::Kernel {
 public:
  explicit DistKernel(const backend::StepDesc& s)
      : H_(s.inputs[0].shape[0]), W_(s.inputs[0].shape[1]), mode_(int(s.params->ints[0])),
        a_(float(s.params->floats[0])), b_(float(s.params->floats[1])), c_(float(s.params->floats[2])) {}
  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    float* d = reinterpret_cast<float*>(out);
    if (H_ == 0 || W_ == 0) return;
    if (mode_ == 0) return precise(src, d, H_, W_);
    chamfer(src, d, H_, W_, mode_, a_, b_, c_);
  }

 private:
  int64_t H_, W_;
  int mode_;
  float a_, b_, c_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<DistKernel>(s); }
std::unique_ptr<backend::Kernel> make_labels(const backend::StepDesc& s) { return std::make_unique<DistLabelsKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_dist, "cv_dist", &make);
MNN_REGISTER_CPU_KERNEL(cv_dist_labels, "cv_dist_labels", &make_labels);

}  // namespace mnn::cpu::MNN_ISA_NS
