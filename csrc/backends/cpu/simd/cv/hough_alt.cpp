// CPU kernel of cv2's HOUGH_GRADIENT_ALT circle transform (shape rule: ops/cv/hough.cpp), as cv2
// runs it on one thread. Compiled once per ISA; cv2's float and double steps are kept in order and
// its fused multiply-adds (fastAtan2's polynomial) are written as std::fma, so every ISA agrees.
//
// The steps: edge pixels, walked as 8-connected chains (depth first, dead-end pixels after the
// first dropped, a stop marker after each chain), vote along the gradient in both directions into a
// 2x2 bilinear-weighted accumulator (10.6 fixed point); centres are the middles of horizontal runs
// of cells equal to their dilation (minDist / dp iterations of 3x3) and above the cell below. For
// each centre, consecutive chain pixels at a near-constant distance with the gradient through the
// centre (cos^2 >= param2) form arcs; long arcs merge into up to 10 radius clusters, which are
// merged again and accepted by their angular coverage (a 64-bit mask of directions). Circles whose
// centres and areas nearly coincide are merged, the heavier one kept.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

inline int round_even_f(float v) { return static_cast<int>(std::nearbyint(v)); }
inline int round_even_d(double v) { return static_cast<int>(std::nearbyint(v)); }

// cv2's scalar fastAtan2 (degrees), with the fma contraction its build applies
float fast_atan2(float y, float x) {
  const float p1 = 0.9997878412794807f * float(180.0 / M_PI), p3 = -0.3258083974640975f * float(180.0 / M_PI);
  const float p5 = 0.1555786518463281f * float(180.0 / M_PI), p7 = -0.04432655554792128f * float(180.0 / M_PI);
  auto poly = [&](float cc) { return std::fma(std::fma(std::fma(cc, p7, p5), cc, p3), cc, p1); };
  const float ax = std::fabs(x), ay = std::fabs(y);
  float a;
  if (ax >= ay) {
    const float c = ay / (ax + float(DBL_EPSILON));
    a = poly(c * c) * c;
  } else {
    const float c = ax / (ay + float(DBL_EPSILON));
    a = std::fma(-poly(c * c), c, 90.f);
  }
  if (x < 0) a = 180.f - a;
  if (y < 0) a = 360.f - a;
  return a;
}

int popcnt(uint64_t v) { return __builtin_popcountll(v); }

struct Cd {
  double rw = 0;
  int weight = 0;
  uint64_t mask = 0;
};

struct Circ {
  float x, y, r;
  int acc;
};

class HoughAltKernel final : public backend::Kernel {
 public:
  explicit HoughAltKernel(const backend::StepDesc& s)
      : h_(int(s.inputs[0].shape[0])), w_(int(s.inputs[0].shape[1])), cap_(s.params->ints[0]),
        dp_(s.params->floats[0]), min_dist_(s.params->floats[1]), min_r_(s.params->floats[2]),
        max_r_(s.params->floats[3]), min_cos2_(s.params->floats[4]) {}

  void run(char* const* in, char* out) override {
    const uint8_t* edges = reinterpret_cast<const uint8_t*>(in[0]);
    const int16_t* dxs = reinterpret_cast<const int16_t*>(in[1]);
    const int16_t* dys = reinterpret_cast<const int16_t*>(in[2]);
    float* res = reinterpret_cast<float*>(out);
    res[0] = res[1] = res[2] = 0.f;
    std::vector<Circ> circles = detect(edges, dxs, dys);
    std::stable_sort(circles.begin(), circles.end(), [](const Circ& a, const Circ& b) {
      if (a.acc != b.acc) return a.acc > b.acc;
      if (a.r != b.r) return a.r > b.r;
      if (a.x != b.x) return a.x < b.x;
      return a.y < b.y;
    });
    const int64_t n = std::min<int64_t>(int64_t(circles.size()), cap_);
    for (int64_t i = 0; i < n; ++i) {
      float* r = res + 3 * (i + 1);
      r[0] = circles[i].x, r[1] = circles[i].y, r[2] = circles[i].r;
    }
    res[0] = float(n);
  }

 private:
  std::vector<Circ> detect(const uint8_t* edges, const int16_t* dxs, const int16_t* dys) const {
    const int kMinCount = 10, kFpBits = 10, kFpScale = 1 << kFpBits, kAccBits = 6, kShift2 = kAccBits / 2;
    const int kAlphaOne = 1 << kShift2, kAlphaMask = kAlphaOne - 1, kShift1 = kFpBits - kShift2;
    const int kDelta1 = 1 << (kShift1 - 1);
    const double kArcDelta = 80, kArcEps = 0.03, kAreaOffset = 4000, kArc2Cluster = 0.06, kMergeEps = 0.075;
    const double kFinalDist = 0.01, kFinalArea = kMergeEps;
    const int kBlock = 10, kClusters = 10;
    const double dp = dp_, idp = 1. / dp;
    const double min_radius = min_r_, max_radius = max_r_;
    int min_r = int(std::floor(min_radius * idp)), max_r = int(std::ceil(max_radius * idp));
    const int acols = round_even_d(w_ * idp), arows = round_even_d(h_ * idp);
    const int astep = acols + 1;
    std::vector<int32_t> acc(size_t(arows + 1) * size_t(astep), 0);
    min_r = std::max(min_r, 1), max_r = std::max(max_r, 1);
    const int mstep = w_ + 2;
    std::vector<uint8_t> maskv(size_t(h_ + 2) * size_t(mstep), 0);
    for (int x = 0; x < mstep; ++x) maskv[x] = maskv[size_t(h_ + 1) * mstep + x] = 1;
    for (int y = 0; y < h_ + 2; ++y) maskv[size_t(y) * mstep] = maskv[size_t(y) * mstep + mstep - 1] = 1;
    uint8_t* md = maskv.data() + mstep + 1;
    struct P4 { float x, y, vx, vy; };
    std::vector<P4> nz;
    std::vector<std::pair<int, int>> stack;
    const int n33[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}};
    auto edge_at = [&](int y, int x) -> uint8_t {  // the edge map, 0 outside (the mask's frame stops the walk there)
      return (x < 0 || y < 0 || x >= w_ || y >= h_) ? 0 : edges[size_t(y) * w_ + x];
    };
    for (int y = 0; y < h_; ++y) {
      for (int x = 0; x < w_; ++x) {
        if (!edges[size_t(y) * w_ + x] || md[size_t(y) * mstep + x]) continue;
        md[size_t(y) * mstep + x] = 1;
        stack.emplace_back(x, y);
        bool backtrace = false;
        do {
          const auto p = stack.back();
          stack.pop_back();
          const int vx = dxs[size_t(p.second) * w_ + p.first], vy = dys[size_t(p.second) * w_ + p.first];
          const float mag = std::sqrt(float(vx) * float(vx) + float(vy) * float(vy));
          nz.push_back({float(p.first), float(p.second), float(vx), float(vy)});
          int sx = round_even_f(float(vx * kFpScale) / mag), sy = round_even_f(float(vy * kFpScale) / mag);
          const int x0 = round_even_d((p.first * idp) * kFpScale), y0 = round_even_d((p.second * idp) * kFpScale);
          for (int k1 = 0; k1 < 2; ++k1) {
            int x1 = x0 + min_r * sx, y1 = y0 + min_r * sy;
            for (int r = min_r; r <= max_r; x1 += sx, y1 += sy, ++r) {
              const int x2a = (x1 + kDelta1) >> kShift1, y2a = (y1 + kDelta1) >> kShift1;
              const int x2 = x2a >> kShift2, y2 = y2a >> kShift2;
              if (unsigned(x2) >= unsigned(acols) || unsigned(y2) >= unsigned(arows)) break;
              int32_t* ptr = acc.data() + size_t(y2) * astep + x2;
              const int a = x2a & kAlphaMask, b = y2a & kAlphaMask;
              ptr[0] += (kAlphaOne - a) * (kAlphaOne - b);
              ptr[1] += a * (kAlphaOne - b);
              ptr[astep] += (kAlphaOne - a) * b;
              ptr[astep + 1] += a * b;
            }
            sx = -sx, sy = -sy;
          }
          int neighbors = 0;
          for (int k = 0; k < 8; ++k) {
            const int y_ = p.second + n33[k][0], x_ = p.first + n33[k][1];
            if (md[ptrdiff_t(y_) * mstep + x_] || !edge_at(y_, x_)) continue;
            md[ptrdiff_t(y_) * mstep + x_] = 1;
            stack.emplace_back(x_, y_);
            ++neighbors;
          }
          if (neighbors == 0) {
            if (backtrace) nz.pop_back();
            backtrace = true;
          } else {
            backtrace = false;
          }
        } while (!stack.empty());
        nz.push_back({0.f, 0.f, 0.f, 0.f});
      }
    }
    std::vector<Circ> circles;
    if (nz.empty()) return circles;
    // centres: runs of cells equal to their dilation (BORDER_CONSTANT 0) and above the cell below
    const int arows1 = arows + 1, acols1 = acols + 1;
    std::vector<float> af(acc.begin(), acc.end()), am(af), tmp(af.size());
    const int niters = std::max(int(std::ceil(min_dist_ * idp)), 1);
    for (int it = 0; it < niters; ++it) {
      for (int y = 0; y < arows1; ++y)
        for (int x = 0; x < acols1; ++x) {
          float m = 0.f;  // the constant border
          bool any = false;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int yy = y + dy, xx = x + dx;
              const float v = (yy < 0 || xx < 0 || yy >= arows1 || xx >= acols1) ? 0.f : am[size_t(yy) * acols1 + xx];
              m = any ? std::max(m, v) : v;
              any = true;
            }
          tmp[size_t(y) * acols1 + x] = m;
        }
      am.swap(tmp);
    }
    struct Pt { float x, y; };
    std::vector<Pt> centers;
    for (int y = 0; y < arows; ++y) {
      int left = -1;
      for (int x = 0; x < acols; ++x) {
        const size_t o = size_t(y) * astep + x;
        if (af[o] == am[o] && af[o] > af[o + astep]) {
          if (left < 0) left = x;
        } else if (left >= 0) {
          centers.push_back({float((left + x - 1) * dp * 0.5f), float(y * dp)});
          left = -1;
        }
      }
    }
    if (centers.empty()) return circles;
    const float min_r2 = float(min_radius * min_radius), max_r2 = float(max_radius * max_radius);
    const int nnz = int(nz.size());
    for (size_t j0 = 0; j0 < centers.size(); j0 += kBlock) {
      const int nc = int(std::min<size_t>(centers.size() - j0, kBlock));
      std::vector<Cd> cdata(size_t(kBlock) * kClusters), arc(kBlock);
      std::vector<int> prev_idx(kBlock, -2);
      for (int j = 0; j < nc; ++j) arc[j].weight = 1;
      for (int i = 0; i < nnz; ++i) {
        const P4 v = nz[size_t(i)];
        const float x = v.x, y = v.y, vx = v.vx, vy = v.vy, mag2 = vx * vx + vy * vy;
        const bool stop = x == 0.f && y == 0.f && vx == 0.f && vy == 0.f;
        for (int j = 0; j < nc; ++j) {
          const float cx = centers[j0 + j].x, cy = centers[j0 + j].y;
          const float dx = x - cx, dy = y - cy;
          const float rij2 = dx * dx + dy * dy;
          if ((rij2 > max_r2 || rij2 < min_r2) && i < nnz - 1) continue;
          const float dv = dx * vx + dy * vy;
          if (double(dv) * dv < min_cos2_ * mag2 * rij2 && i < nnz - 1) continue;
          const float rij = std::sqrt(rij2);
          Cd& a = arc[j];
          double r_arc = a.rw / a.weight;
          int di0 = 0;
          const int prev = prev_idx[j];
          prev_idx[j] = i;
          if (std::abs(rij - r_arc) < (r_arc + kArcDelta) * kArcEps && prev + 1 == i && !stop) {
            a.rw += rij;
            a.weight++;
            di0 = 1;
            r_arc = a.rw / a.weight;
            if (i < nnz - 1) continue;
          }
          if (a.weight >= kMinCount && a.weight >= r_arc * 0.15) {
            uint64_t mval = 0;
            for (int di = 0; di < a.weight; ++di) {
              const P4 u = nz[size_t(prev + di0 - di)];
              const float dx1 = u.x - cx, dy1 = u.y - cy;
              float fa = fast_atan2(dy1, dx1) * (64.f / 360.f);
              const int ai = int(std::floor(fa)) & 63, bi = (ai + 1) & 63;
              fa -= float(ai);
              if (fa <= 0.25f) mval |= uint64_t(1) << ai;
              else if (fa > 0.75f) mval |= uint64_t(1) << bi;
              else mval |= (uint64_t(1) << ai) | (uint64_t(1) << bi);
            }
            double min_eps = DBL_MAX;
            int min_mval = 65, k = 0, best_k = -1, subst_k = -1;
            Cd* cj = &cdata[size_t(j) * kClusters];
            for (; k < kClusters; ++k) {
              Cd& c = cj[k];
              if (c.weight == 0) break;
              const double rk = c.rw / c.weight;
              const double r2avg = (rk * rk * c.weight + r_arc * r_arc * a.weight) / (c.weight + a.weight);
              if (std::abs(rk * rk - r_arc * r_arc) < (r2avg + kAreaOffset) * kArc2Cluster) {
                const double eps = std::abs(rk - r_arc) / rk;
                if (eps < min_eps) min_eps = eps, best_k = k;
              } else {
                const int pc = popcnt(c.mask);
                if (pc < min_mval) min_mval = pc, subst_k = k;
              }
            }
            if (best_k >= 0) {
              Cd& c = cj[best_k];
              c.rw += a.rw, c.weight += a.weight, c.mask |= mval;
            } else {
              if (k < kClusters) subst_k = k;
              Cd& c = cj[subst_k];
              c.rw = a.rw, c.weight = a.weight, c.mask = mval;
            }
          }
          a.rw = stop ? 0. : rij;
          a.weight = 1;
        }
      }
      for (int j = 0; j < nc; ++j) {
        Cd* cj = &cdata[size_t(j) * kClusters];
        const float cx = centers[j0 + j].x, cy = centers[j0 + j].y;
        for (int k = 0; k < kClusters; ++k) {
          Cd& c = cj[k];
          if (c.weight == 0) continue;
          if (c.weight < c.rw / c.weight || popcnt(c.mask) < 15) c.weight = 0;
        }
        for (int k = 0; k < kClusters; ++k) {
          Cd& c = cj[k];
          if (c.weight == 0) continue;
          double rk = c.rw / c.weight;
          for (int l = k + 1; l < kClusters; ++l) {
            Cd& cl = cj[l];
            if (l == k || cl.weight == 0) continue;
            const double rl = cl.rw / cl.weight;
            if (std::abs(rk * rk - rl * rl) < (rk * rk + rl * rl + kAreaOffset) * kMergeEps) {
              c.rw += cl.rw, c.weight += cl.weight, c.mask |= cl.mask;
              rk = c.rw / c.weight;
              cl.weight = 0;
              l = -1;
            }
          }
        }
        for (int k = 0; k < kClusters; ++k) {
          Cd& c = cj[k];
          if (c.weight == 0) continue;
          const double rk = c.rw / c.weight;
          uint64_t m = c.mask, m0 = (m + 1) ^ m;
          int count = 0, count0 = -1, runlen = 0, max_runlen = 0, prev_bit = 0;
          for (int b = 0; b < 64; ++b, m >>= 1, m0 >>= 1) {
            const int bit = (m & 1) != 0;
            count += bit;
            count0 += (m0 & 1) != 0;
            if (bit == prev_bit) {
              ++runlen;
              continue;
            }
            if (prev_bit == 1) max_runlen = std::max(max_runlen, runlen);
            runlen = 1;
            prev_bit = bit;
          }
          if (prev_bit == 1) max_runlen = std::max(max_runlen, runlen + (count < 64 ? count0 : 0));
          const bool ok = (c.weight >= rk * 3 && count >= 35 && max_runlen >= 20) || count >= 55;
          if (ok) circles.push_back({cx, cy, float(rk), c.weight});
        }
      }
    }
    // final merge: nearly coincident circles, the heavier kept (in cv2's order of discovery)
    size_t i0 = 0;
    const size_t nc = circles.size();
    for (size_t i = 0; i < nc; ++i) {
      if (circles[i].acc == 0) continue;
      Circ& ci = circles[i0] = circles[i];
      for (size_t j = i + 1; j < nc; ++j) {
        Circ cj = circles[j];
        if (cj.acc == 0) continue;
        const float dx = ci.x - cj.x, dy = ci.y - cj.y;
        const float r2 = dx * dx + dy * dy, rs = ci.r + cj.r;
        if (r2 > rs * rs * kFinalDist) continue;
        if (std::abs(ci.r * ci.r - cj.r * cj.r) < (ci.r * ci.r + cj.r * cj.r + kAreaOffset) * kFinalArea) {
          if (ci.acc < cj.acc) std::swap(ci, cj);
          circles[j].acc = 0;
        }
      }
      ++i0;
    }
    circles.resize(i0);
    return circles;
  }

  int h_, w_;
  int64_t cap_;
  double dp_, min_dist_, min_r_, max_r_, min_cos2_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<HoughAltKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_hough_alt, "cv_hough_alt", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
