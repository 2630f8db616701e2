// CPU kernels of the Hough transforms (shape rules: ops/cv/hough.cpp): the standard transform's
// vote accumulator and the whole progressive probabilistic transform. Compiled once per ISA.
//
// Both follow cv2's arithmetic step for step, so lines come out identical: the trigonometric tables
// are float (double sin/cos times 1/rho, rounded once), a vote's rho bin is cvRound of the float
// expression j*cos + i*sin (round half to even, no fused multiply-add: the build has
// -ffp-contract=off), and the probabilistic transform visits points in the order cv2's RNG (a
// multiply-with-carry generator seeded with all ones) picks them. Votes are integer additions, so
// the order of the accumulation does not change the result.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

// cvRound of a float: round to nearest, ties to even (what cv2's conversion instruction does)
inline int round_even(float v) { return static_cast<int>(std::nearbyint(v)); }

class HoughAccKernel final : public backend::Kernel {
 public:
  explicit HoughAccKernel(const backend::StepDesc& s)
      : h_(s.inputs[0].shape[0]), w_(s.inputs[0].shape[1]), numangle_(int(s.params->ints[0])),
        numrho_(int(s.params->ints[1])), edgeval_(s.params->ints[2] != 0) {
    // cv2's createTrigTable: the angle advances in float, each entry is a double sin/cos scaled once
    const double min_theta = s.params->floats[0], theta = s.params->floats[1];
    const float irho = static_cast<float>(s.params->floats[2]);
    float ang = static_cast<float>(min_theta);
    sin_.resize(numangle_), cos_.resize(numangle_);
    for (int n = 0; n < numangle_; ++n, ang += static_cast<float>(theta)) {
      sin_[n] = static_cast<float>(std::sin(static_cast<double>(ang)) * irho);
      cos_[n] = static_cast<float>(std::cos(static_cast<double>(ang)) * irho);
    }
  }
  void run(char* const* in, char* out) override {
    const uint8_t* img = reinterpret_cast<const uint8_t*>(in[0]);
    int32_t* acc = reinterpret_cast<int32_t*>(out);
    const int64_t stride = numrho_ + 2;
    std::fill(acc, acc + (numangle_ + 2) * stride, 0);
    const int off = (numrho_ - 1) / 2 + 1;
    for (int64_t i = 0; i < h_; ++i) {
      const uint8_t* row = img + i * w_;
      for (int64_t j = 0; j < w_; ++j) {
        if (!row[j]) continue;
        const int32_t add = edgeval_ ? row[j] : 1;
        const float fj = static_cast<float>(j), fi = static_cast<float>(i);
        int32_t* a = acc + stride;
        for (int n = 0; n < numangle_; ++n, a += stride) {
          const float pj = fj * cos_[n];
          const float pi = fi * sin_[n];
          a[round_even(pj + pi) + off] += add;
        }
      }
    }
  }

 private:
  int64_t h_, w_;
  int numangle_, numrho_;
  bool edgeval_;
  std::vector<float> sin_, cos_;
};

// cv::RNG: state = low32(state) * 4164903690 + high32(state); next() is the new low 32 bits
struct CvRng {
  uint64_t state = ~uint64_t(0);
  unsigned next() {
    state = uint64_t(unsigned(state)) * 4164903690u + unsigned(state >> 32);
    return unsigned(state);
  }
  int uniform(int a, int b) { return a == b ? a : int(next() % unsigned(b - a) + unsigned(a)); }
};

class HoughPKernel final : public backend::Kernel {
 public:
  explicit HoughPKernel(const backend::StepDesc& s)
      : h_(int(s.inputs[0].shape[0])), w_(int(s.inputs[0].shape[1])), numangle_(int(s.params->ints[0])),
        numrho_(int(s.params->ints[1])), threshold_(int(s.params->ints[2])), length_(int(s.params->ints[3])),
        gap_(int(s.params->ints[4])), cap_(s.params->ints[5]) {
    const double theta = s.params->floats[0];
    const float irho = static_cast<float>(s.params->floats[1]);
    tab_.resize(2 * size_t(numangle_));
    for (int n = 0; n < numangle_; ++n) {
      tab_[2 * n] = static_cast<float>(std::cos(double(n) * theta) * irho);
      tab_[2 * n + 1] = static_cast<float>(std::sin(double(n) * theta) * irho);
    }
  }

  int rbin(int n, int j, int i) const {
    const float pj = static_cast<float>(j) * tab_[2 * n];
    const float pi = static_cast<float>(i) * tab_[2 * n + 1];
    return round_even(pj + pi) + (numrho_ - 1) / 2;
  }

  void run(char* const* in, char* out) override {
    const uint8_t* img = reinterpret_cast<const uint8_t*>(in[0]);
    int32_t* res = reinterpret_cast<int32_t*>(out);
    const int w = w_, h = h_;
    std::vector<int32_t> acc(size_t(numangle_) * size_t(numrho_), 0);
    std::vector<uint8_t> mask(size_t(w) * size_t(h));
    std::vector<int> nz;  // packed y * w + x, in raster order
    for (int i = 0; i < h; ++i)
      for (int j = 0; j < w; ++j) {
        const bool on = img[size_t(i) * w + j] != 0;
        mask[size_t(i) * w + j] = on;
        if (on) nz.push_back(i * w + j);
      }
    CvRng rng;
    int64_t nlines = 0;
    const int shift = 16;
    for (int count = int(nz.size()); count > 0; --count) {
      const int idx = rng.uniform(0, count);
      const int p = nz[idx];
      nz[idx] = nz[count - 1];  // "remove" the point: the last one takes its place
      const int i = p / w, j = p % w;
      if (!mask[size_t(p)]) continue;  // already taken by a segment
      int max_val = threshold_ - 1, max_n = 0;
      int32_t* a = acc.data();
      for (int n = 0; n < numangle_; ++n, a += numrho_) {
        const int v = ++a[rbin(n, j, i)];
        if (max_val < v) max_val = v, max_n = n;
      }
      if (max_val < threshold_) continue;

      // walk both ways along the strongest line in 16.16 fixed point from the point
      const float la = -tab_[2 * max_n + 1], lb = tab_[2 * max_n];
      int x0 = j, y0 = i, dx0, dy0;
      bool xflag;
      if (std::fabs(la) > std::fabs(lb)) {
        xflag = true;
        dx0 = la > 0 ? 1 : -1;
        dy0 = round_even(lb * float(1 << shift) / std::fabs(la));
        y0 = (y0 << shift) + (1 << (shift - 1));
      } else {
        xflag = false;
        dy0 = lb > 0 ? 1 : -1;
        dx0 = round_even(la * float(1 << shift) / std::fabs(lb));
        x0 = (x0 << shift) + (1 << (shift - 1));
      }
      int ex[2] = {0, 0}, ey[2] = {0, 0};
      for (int k = 0; k < 2; ++k) {
        int gap = 0, x = x0, y = y0, dx = k ? -dx0 : dx0, dy = k ? -dy0 : dy0;
        for (;; x += dx, y += dy) {
          const int j1 = xflag ? x : x >> shift, i1 = xflag ? y >> shift : y;
          if (j1 < 0 || j1 >= w || i1 < 0 || i1 >= h) break;
          if (mask[size_t(i1) * w + j1]) {
            gap = 0, ex[k] = j1, ey[k] = i1;
          } else if (++gap > gap_) {
            break;
          }
        }
      }
      const bool good = std::abs(ex[1] - ex[0]) >= length_ || std::abs(ey[1] - ey[0]) >= length_;
      for (int k = 0; k < 2; ++k) {
        int x = x0, y = y0, dx = k ? -dx0 : dx0, dy = k ? -dy0 : dy0;
        for (;; x += dx, y += dy) {
          const int j1 = xflag ? x : x >> shift, i1 = xflag ? y >> shift : y;
          uint8_t& m = mask[size_t(i1) * w + j1];
          if (m) {
            if (good) {  // take the segment's points' votes back
              int32_t* b = acc.data();
              for (int n = 0; n < numangle_; ++n, b += numrho_) --b[rbin(n, j1, i1)];
            }
            m = 0;
          }
          if (i1 == ey[k] && j1 == ex[k]) break;
        }
      }
      if (good) {
        int32_t* r = res + 4 * (nlines + 1);
        r[0] = ex[0], r[1] = ey[0], r[2] = ex[1], r[3] = ey[1];
        if (++nlines >= cap_) break;
      }
    }
    res[0] = int32_t(nlines), res[1] = res[2] = res[3] = 0;
  }

 private:
  int h_, w_, numangle_, numrho_, threshold_, length_, gap_;
  int64_t cap_;
  std::vector<float> tab_;
};

template <class K>
std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<K>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_hough_acc, "cv_hough_acc", &make<HoughAccKernel>);
MNN_REGISTER_CPU_KERNEL(cv_hough_p, "cv_hough_p", &make<HoughPKernel>);

}  // namespace mnn::cpu::MNN_ISA_NS
