// CPU kernels of the Hough transforms (shape rules: ops/cv/hough.cpp): the standard transform's
// vote accumulator, the whole progressive probabilistic transform and the whole HOUGH_GRADIENT
// circle transform. Compiled once per ISA.
//
// Both follow cv2's arithmetic step for step, so lines come out identical: the trigonometric tables
// are float (double sin/cos times 1/rho, rounded once), a vote's rho bin is cvRound of the float
// expression j*cos + i*sin (round half to even, no fused multiply-add: the build has
// -ffp-contract=off), and the probabilistic transform visits points in the order cv2's RNG (a
// multiply-with-carry generator seeded with all ones) picks them. Votes are integer additions, so
// the order of the accumulation does not change the result.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "core/threadpool.h"
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

// cv2's HOUGH_GRADIENT: every edge point votes for centres along its gradient (both ways, from
// minRadius to maxRadius, in 22.10 fixed point on a grid 1/dp as fine as the image); the centres are
// the accumulator's local maxima above the threshold, strongest first; for each, the radius is the
// best-supported 1/10-of-dp band of edge-point distances (larger radii win ties in support per
// radius); circles then sort by support and drop any centre within minDist of a stronger one.
class HoughCirclesKernel final : public backend::Kernel {
 public:
  explicit HoughCirclesKernel(const backend::StepDesc& s)
      : h_(int(s.inputs[0].shape[0])), w_(int(s.inputs[0].shape[1])), min_r_(int(s.params->ints[0])),
        max_r_(int(s.params->ints[1])), acc_thr_(int(s.params->ints[2])), max_circles_(s.params->ints[3]),
        centers_only_(s.params->ints[4] != 0), cap_(s.params->ints[5]),
        dp_(static_cast<float>(s.params->floats[0])), min_dist_(static_cast<float>(s.params->floats[1])) {}

  struct Est {
    float x, y, r;
    int acc;
  };

  static bool by_accum(const Est& a, const Est& b) {
    if (a.acc != b.acc) return a.acc > b.acc;
    if (a.r != b.r) return a.r > b.r;
    if (a.x != b.x) return a.x < b.x;
    return a.y < b.y;
  }

  template <class P>
  static bool far_enough(const std::vector<P>& kept, size_t n, float x, float y, float d2) {
    for (size_t j = 0; j < n; ++j) {
      const float dx = x - kept[j].x, dy = y - kept[j].y;
      if (dx * dx + dy * dy < d2) return false;
    }
    return true;
  }

  void run(char* const* in, char* out) override {
    const uint8_t* edges = reinterpret_cast<const uint8_t*>(in[0]);
    const int16_t* dxs = reinterpret_cast<const int16_t*>(in[1]);
    const int16_t* dys = reinterpret_cast<const int16_t*>(in[2]);
    float* res = reinterpret_cast<float*>(out);
    res[0] = res[1] = res[2] = 0.f;
    const float dp = std::max(dp_, 1.f), idp = 1.f / dp;
    const int acols = int(std::ceil(float(w_) * idp)), arows = int(std::ceil(float(h_) * idp));
    const int astep = acols + 2;
    std::vector<int32_t> acc(size_t(arows + 2) * size_t(astep), 0);
    std::vector<uint8_t> nz(size_t(w_) * size_t(h_), 0);
    int nz_count = 0;
    for (int y = 0; y < h_; ++y) {
      for (int x = 0; x < w_; ++x) {
        const size_t o = size_t(y) * w_ + x;
        if (!edges[o]) continue;
        const float vx = dxs[o], vy = dys[o];
        if (vx == 0 && vy == 0) continue;
        const float mag = std::sqrt(vx * vx + vy * vy);
        if (mag < 1.0f) continue;
        nz[o] = 1, ++nz_count;
        int sx = round_even((vx * idp) * 1024 / mag), sy = round_even((vy * idp) * 1024 / mag);
        const int x0 = round_even((float(x) * idp) * 1024), y0 = round_even((float(y) * idp) * 1024);
        for (int k = 0; k < 2; ++k) {
          int x1 = x0 + min_r_ * sx, y1 = y0 + min_r_ * sy;
          for (int r = min_r_; r <= max_r_; x1 += sx, y1 += sy, ++r) {
            const int x2 = x1 >> 10, y2 = y1 >> 10;
            if (unsigned(x2) >= unsigned(acols) || unsigned(y2) >= unsigned(arows)) break;
            ++acc[size_t(y2) * astep + x2];
          }
          sx = -sx, sy = -sy;
        }
      }
    }
    if (nz_count == 0) return;
    // local maxima, over the (arows + 2) x (acols + 2) accumulator's inner cells, as cv2 scans it
    std::vector<int> centers;
    const int arows2 = arows + 2;
    for (int y = 1; y < arows2 - 1; ++y) {
      for (int x = 1, base = y * astep + 1; x < astep - 1; ++x, ++base) {
        const int v = acc[base];
        if (v > acc_thr_ && v > acc[base - 1] && v >= acc[base + 1] && v > acc[base - astep] && v >= acc[base + astep])
          centers.push_back(base);
      }
    }
    if (centers.empty()) return;
    std::sort(centers.begin(), centers.end(), [&](int a, int b) { return acc[a] > acc[b] || (acc[a] == acc[b] && a < b); });
    const float d2 = min_dist_ * min_dist_;
    std::vector<Est> circles;
    if (centers_only_) {
      for (int c : centers) {
        const int y = c / astep, x = c - y * astep;
        const float cx = (float(x) + 0.5f) * dp, cy = (float(y) + 0.5f) * dp;
        if (far_enough(circles, circles.size(), cx, cy, d2)) circles.push_back({cx, cy, 0.f, 0});
      }
    } else {
      const int bins_per = 10;
      const int nbins = round_even(float(max_r_ - min_r_) / dp * bins_per);
      const float min_r2 = float(min_r_) * float(min_r_), max_r2 = float(max_r_) * float(max_r_);
      // the histogram does not depend on the order of the distances, so cv2's two ways of
      // finding the edge points near a centre (list or window) give the same circles
      const bool use_list = int64_t(nz_count) < int64_t(max_r_) * max_r_;
      std::vector<std::pair<int, int>> pts;
      if (use_list) {
        pts.reserve(size_t(nz_count));
        for (int py = 0; py < h_; ++py)
          for (int px = 0; px < w_; ++px)
            if (nz[size_t(py) * w_ + px]) pts.emplace_back(px, py);
      }
      // each centre's radius is independent of the others: threads take ranges of centres
      std::vector<Est> est(centers.size());
      const int64_t nc = int64_t(centers.size());
      parallel_for(nc, 1, [&](int64_t c0, int64_t c1) {
        std::vector<int> bins(size_t(std::max(nbins, 0)));
        std::vector<float> dist;
        dist.reserve(size_t(nz_count));
        for (int64_t ci = c0; ci < c1; ++ci) {
          const int c = centers[size_t(ci)];
          const int y = c / astep, x = c - y * astep;
          const float cx = (float(x) + 0.5f) * dp, cy = (float(y) + 0.5f) * dp;
          dist.clear();
          if (use_list) {  // few edge points: test them all
            for (const auto& q : pts) {
              const float ddx = cx - float(q.first), ddy = cy - float(q.second);
              const float r2 = ddx * ddx + ddy * ddy;
              if (min_r2 <= r2 && r2 <= max_r2) dist.push_back(r2);
            }
          } else {  // many: scan the square around the centre that can hold points within maxRadius
            const int ro = max_r_ + 1;
            const int x0 = std::max(int(cx - float(ro)), 0), x1 = std::min(int(cx + float(ro)), w_);
            const int y0 = std::max(int(cy - float(ro)), 0), y1 = std::min(int(cy + float(ro)), h_);
            for (int py = y0; py < y1; ++py) {
              const float ddy = cy - float(py), dy2 = ddy * ddy;
              const uint8_t* row = nz.data() + size_t(py) * w_;
              for (int px = x0; px < x1; ++px) {
                if (!row[px]) continue;
                const float ddx = cx - float(px);
                const float r2 = ddx * ddx + dy2;
                if (min_r2 <= r2 && r2 <= max_r2) dist.push_back(r2);
              }
            }
          }
          int max_count = 0;
          float r_best = 0;
          if (!dist.empty() && nbins > 0) {
            std::fill(bins.begin(), bins.end(), 0);
            for (float r2 : dist) {
              const float d = std::sqrt(r2);
              const int bi = std::max(0, std::min(nbins - 1, round_even((d - float(min_r_)) / dp * bins_per)));
              ++bins[size_t(bi)];
            }
            for (int j = nbins - 1; j > 0; j--) {
              if (!bins[size_t(j)]) continue;
              const int up = j;
              int cur = 0;
              for (; j > up - bins_per && j >= 0; j--) cur += bins[size_t(j)];
              const float r_cur = float(up + j) / 2.f / bins_per * dp + float(min_r_);
              if ((float(cur) * r_best >= float(max_count) * r_cur) || (r_best < 1.1920928955078125e-07f && cur >= max_count))
                r_best = r_cur, max_count = cur;
            }
          }
          est[size_t(ci)] = {cx, cy, r_best, max_count};
        }
      });
      for (const Est& e : est)
        if (e.acc > acc_thr_) circles.push_back(e);
      std::sort(circles.begin(), circles.end(), by_accum);
      if (circles.size() > 1) {  // drop a circle whose centre lies within minDist of a kept stronger one
        size_t end = 1;
        for (size_t i = 1; i < circles.size(); ++i)
          if (far_enough(circles, end, circles[i].x, circles[i].y, d2)) circles[end++] = circles[i];
        circles.resize(end);
      }
    }
    const int64_t n = std::min<int64_t>({int64_t(circles.size()), max_circles_, cap_});
    for (int64_t i = 0; i < n; ++i) {
      float* r = res + 3 * (i + 1);
      r[0] = circles[i].x, r[1] = circles[i].y, r[2] = circles[i].r;
    }
    res[0] = float(n);
  }

 private:
  int h_, w_, min_r_, max_r_, acc_thr_;
  int64_t max_circles_;
  bool centers_only_;
  int64_t cap_;
  float dp_, min_dist_;
};

template <class K>
std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<K>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_hough_acc, "cv_hough_acc", &make<HoughAccKernel>);
MNN_REGISTER_CPU_KERNEL(cv_hough_p, "cv_hough_p", &make<HoughPKernel>);
MNN_REGISTER_CPU_KERNEL(cv_hough_circles, "cv_hough_circles", &make<HoughCirclesKernel>);

}  // namespace mnn::cpu::MNN_ISA_NS
