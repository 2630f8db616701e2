// CPU kernels of the point-set primitives cv_convex_hull, cv_min_area_rect, cv_min_enclosing_circle
// and cv_contour_moments (shape rules: ops/cv/contours.cpp).
// convexHull is cv2's: Sklansky's scan over the points sorted by (x, y, index), run on four
// quarters (from the leftmost and the rightmost point to the lowest and the highest), then cv2's
// cyclic shift that makes the indices ascend or descend where it can; float points compare
// normalised edge vectors, as cv2 does. minAreaRect runs cv2's rotating calipers in float over the
// hull in the order cv2 5 hands them (convexHull's clockwise=False order), then reports the angle in
// [-90, 0), normalised in double as cv2 5 does (probed bit for bit on thousands of point sets).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

template <class T>
int sign_of(T v) {
  return (v > 0) - (v < 0);
}

// One quarter: positions (into the sorted order) of the hull from start to end.
template <class T>
std::vector<int64_t> sklansky(const T* x, const T* y, const std::vector<int64_t>& order, int64_t start, int64_t end,
                              int nsign, int sign2) {
  const int64_t incr = end > start ? 1 : -1;
  int64_t pprev = start, pcur = start + incr, pnext = start + 2 * incr;
  if (start == end || (x[order[start]] == x[order[end]] && y[order[start]] == y[order[end]])) return {start};
  std::vector<int64_t> stack{pprev, pcur, pnext};
  end += incr;
  // (no special case for repeated points, as in cv2 5.0: a repeat fails the convexity test and
  // replaces the point before it)
  while (pnext != end) {
    const int64_t c = order[static_cast<size_t>(pcur)], nx = order[static_cast<size_t>(pnext)];
    const T cury = y[c], nexty = y[nx];
    T by = nexty - cury;
    if (sign_of(by) != nsign) {
      const int64_t pv = order[static_cast<size_t>(pprev)];
      T ax = x[c] - x[pv], ay = cury - y[pv], bx = x[nx] - x[c];
      double convexity;
      if constexpr (std::is_floating_point_v<T>) {
        const double na = std::sqrt(static_cast<double>(ax) * ax + static_cast<double>(ay) * ay);
        const double nb = std::sqrt(static_cast<double>(bx) * bx + static_cast<double>(by) * by);
        const double ia = na ? 1.0 / na : 0.0, ib = nb ? 1.0 / nb : 0.0;
        ax = static_cast<T>(ax * ia), ay = static_cast<T>(ay * ia);
        bx = static_cast<T>(bx * ib), by = static_cast<T>(by * ib);
        convexity = static_cast<double>(ay) * bx - static_cast<double>(ax) * by;
      } else {
        convexity = static_cast<double>(static_cast<int64_t>(ay) * bx - static_cast<int64_t>(ax) * by);
      }
      if (sign_of(convexity) == sign2 && (ax != 0 || ay != 0)) {
        pprev = pcur;
        pcur = pnext;
        pnext += incr;
        stack.push_back(pnext);
      } else if (pprev == start) {
        pcur = pnext;
        stack[1] = pcur;
        pnext += incr;
        stack[2] = pnext;
      } else {
        stack[stack.size() - 2] = pnext;
        pcur = pprev;
        pprev = stack[stack.size() - 4];
        stack.pop_back();
      }
    } else {
      pnext += incr;
      stack.back() = pnext;
    }
  }
  stack.pop_back();
  return stack;
}

template <class T>
std::vector<int64_t> hull(const T* x, const T* y, int64_t total, bool clockwise) {
  std::vector<int64_t> order(static_cast<size_t>(total));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (x[a] != x[b]) return x[a] < x[b];
    if (y[a] != y[b]) return y[a] < y[b];
    return a < b;
  });
  int64_t miny = 0, maxy = 0;
  for (int64_t k = 1; k < total; ++k) {
    const T v = y[order[static_cast<size_t>(k)]];
    if (y[order[static_cast<size_t>(miny)]] > v) miny = k;
    if (y[order[static_cast<size_t>(maxy)]] < v) maxy = k;
  }
  const int64_t first = order.front(), last = order.back();
  if (x[first] == x[last] && y[first] == y[last]) return {first};
  auto tl = sklansky(x, y, order, 0, maxy, -1, 1);
  auto tr = sklansky(x, y, order, total - 1, maxy, -1, -1);
  if (!clockwise) std::swap(tl, tr);
  std::vector<int64_t> out;
  for (size_t i = 0; i + 1 < tl.size(); ++i) out.push_back(order[static_cast<size_t>(tl[i])]);
  for (size_t i = tr.size() - 1; i > 0; --i) out.push_back(order[static_cast<size_t>(tr[i])]);
  const int64_t stop = tr.size() > 2 ? tr[1] : tl.size() > 2 ? tl[tl.size() - 2] : -1;
  auto bl = sklansky(x, y, order, 0, miny, 1, -1);
  auto br = sklansky(x, y, order, total - 1, miny, 1, 1);
  if (clockwise) std::swap(bl, br);
  if (stop >= 0) {
    const int64_t check = bl.size() > 2 ? bl[1] : bl.size() + br.size() > 2 ? br[2 - bl.size()] : -1;
    if (check == stop || (check >= 0 && x[order[static_cast<size_t>(check)]] == x[order[static_cast<size_t>(stop)]] &&
                          y[order[static_cast<size_t>(check)]] == y[order[static_cast<size_t>(stop)]])) {
      // all points on one line: the lower half mirrors the upper one
      bl.resize(std::min<size_t>(bl.size(), 2));
      br.resize(std::min<size_t>(br.size(), 2));
    }
  }
  for (size_t i = 0; i + 1 < bl.size(); ++i) out.push_back(order[static_cast<size_t>(bl[i])]);
  for (size_t i = br.size() - 1; i > 0; --i) out.push_back(order[static_cast<size_t>(br[i])]);
  const size_t nout = out.size();
  if (nout >= 3) {
    // the cyclic shift that makes the indices ascend (or descend), when one exists
    size_t mn = 0, mx = 0, lt = 0;
    for (size_t i = 1; i < nout; ++i) {
      const int64_t idx = out[i];
      lt += out[i - 1] < idx;
      if (lt > 1 && lt + 2 <= i) break;
      if (idx < out[mn]) mn = i;
      if (idx > out[mx]) mx = i;
    }
    const size_t mm = mx > mn ? mx - mn : mn - mx;
    if ((mm == 1 || mm == nout - 1) && (lt <= 1 || lt + 2 >= nout)) {
      const bool ascending = (mx + 1) % nout == mn;
      const size_t i0 = ascending ? mn : mx;
      if (i0 > 0) {
        std::vector<int64_t> rot(out.begin() + static_cast<int64_t>(i0), out.end());
        rot.insert(rot.end(), out.begin(), out.begin() + static_cast<int64_t>(i0));
        bool ok = true;
        for (size_t i = 0; i + 1 < nout && ok; ++i) ok = ascending == (rot[i] < rot[i + 1]);
        if (ok) out = rot;
      }
    }
  }
  return out;
}

// Rotating calipers over a convex polygon (cv2's, in float): the corner and the two side vectors
// of the minimum-area enclosing rectangle (the last of equal areas). False for a degenerate hull.
bool calipers(const std::vector<float>& hx, const std::vector<float>& hy, float out[6]) {
  const size_t n = hx.size();
  std::vector<float> vx(n), vy(n), inv(n);
  size_t left = 0, bottom = 0, right = 0, top = 0;
  float lx = hx[0], rx = hx[0], ty = hy[0], by = hy[0];
  for (size_t i = 0; i < n; ++i) {
    if (hx[i] < lx) lx = hx[i], left = i;
    if (hx[i] > rx) rx = hx[i], right = i;
    if (hy[i] > ty) ty = hy[i], top = i;
    if (hy[i] < by) by = hy[i], bottom = i;
    const size_t j = i + 1 < n ? i + 1 : 0;
    const double dx = hx[j] - hx[i], dy = hy[j] - hy[i];  // float differences, as cv2
    vx[i] = static_cast<float>(dx), vy[i] = static_cast<float>(dy);
    inv[i] = static_cast<float>(1.0 / std::sqrt(dx * dx + dy * dy));
  }
  float orientation = 0;
  double ax = vx[n - 1], ay = vy[n - 1];
  for (size_t i = 0; i < n; ++i) {
    const double bx = vx[i], byy = vy[i], conv = ax * byy - ay * bx;
    if (conv != 0) {
      orientation = conv > 0 ? 1.f : -1.f;
      break;
    }
    ax = bx, ay = byy;
  }
  if (orientation == 0) return false;
  float base_a = orientation, base_b = 0;
  size_t seq[4] = {bottom, right, top, left};
  float minarea = 3.402823466e+38f;
  size_t b0 = 0, b3 = 0;
  float ba = 0, bb = 0, bw = 0, bh = 0;
  for (size_t it = 0; it < n; ++it) {
    const float dp[4] = {base_a * vx[seq[0]] + base_b * vy[seq[0]], -base_b * vx[seq[1]] + base_a * vy[seq[1]],
                         -base_a * vx[seq[2]] - base_b * vy[seq[2]], base_b * vx[seq[3]] - base_a * vy[seq[3]]};
    int main = 0;
    float maxcos = dp[0] * inv[seq[0]];
    for (int k = 1; k < 4; ++k) {
      const float c = dp[k] * inv[seq[k]];
      if (c > maxcos) main = k, maxcos = c;
    }
    const size_t p = seq[main];
    const float lead_x = vx[p] * inv[p], lead_y = vy[p] * inv[p];
    switch (main) {
      case 0: base_a = lead_x, base_b = lead_y; break;
      case 1: base_a = lead_y, base_b = -lead_x; break;
      case 2: base_a = -lead_x, base_b = -lead_y; break;
      default: base_a = -lead_y, base_b = lead_x; break;
    }
    seq[main] = seq[main] + 1 == n ? 0 : seq[main] + 1;
    float dx = hx[seq[1]] - hx[seq[3]], dy = hy[seq[1]] - hy[seq[3]];
    const float width = dx * base_a + dy * base_b;
    dx = hx[seq[2]] - hx[seq[0]], dy = hy[seq[2]] - hy[seq[0]];
    const float height = -dx * base_b + dy * base_a;
    const float area = width * height;
    if (area <= minarea) {  // cv2 keeps the last of equal-area rectangles
      minarea = area;
      b3 = seq[3], b0 = seq[0], ba = base_a, bb = base_b, bw = width, bh = height;
    }
  }
  const float a1 = ba, b1 = bb, a2 = -bb, b2 = ba;
  const float c1 = a1 * hx[b3] + hy[b3] * b1, c2 = a2 * hx[b0] + hy[b0] * b2;
  const float idet = 1.f / (a1 * b2 - a2 * b1);
  out[0] = (c1 * b2 - c2 * b1) * idet;
  out[1] = (a1 * c2 - a2 * c1) * idet;
  out[2] = a1 * bw, out[3] = b1 * bw, out[4] = a2 * bh, out[5] = b2 * bh;
  return true;
}

// The measures of a point set (an N x 2 int32 or float32 contour): run_typed<T>(points, out) of
// the derived kernel, called with the points' element type.
template <class Derived, class Out>
class PointSetKernel : public backend::Kernel {
 public:
  explicit PointSetKernel(const backend::StepDesc& s)
      : n_(s.inputs[0].shape[0]), float_(s.inputs[0].dtype == DType::Float32) {}
  void run(char* const* in, char* out) override {
    auto* self = static_cast<Derived*>(this);
    if (float_) self->run_typed(reinterpret_cast<const float*>(in[0]), reinterpret_cast<Out*>(out));
    else self->run_typed(reinterpret_cast<const int32_t*>(in[0]), reinterpret_cast<Out*>(out));
  }

 protected:
  int64_t n_;
  bool float_;
};

// Output: cx, cy, width, height, angle (degrees), ok (0 when the hull is degenerate).
class MinAreaRectKernel final : public PointSetKernel<MinAreaRectKernel, float> {
 public:
  using PointSetKernel::PointSetKernel;

  template <class T>
  void run_typed(const T* pts, float* o) {
    std::vector<T> x(static_cast<size_t>(n_)), y(static_cast<size_t>(n_));
    for (int64_t i = 0; i < n_; ++i) x[static_cast<size_t>(i)] = pts[2 * i], y[static_cast<size_t>(i)] = pts[2 * i + 1];
    float cx = 0, cy = 0, w = 0, h = 0, ok = 1;
    double ang = 0;  // radians, then degrees: cv2 5 keeps the angle in double until it is stored
    if (n_ > 0) {
      const auto idx = hull(x.data(), y.data(), n_, false);
      std::vector<float> hx, hy;
      for (int64_t i : idx) hx.push_back(static_cast<float>(x[static_cast<size_t>(i)])), hy.push_back(static_cast<float>(y[static_cast<size_t>(i)]));
      if (hx.size() > 2) {
        float r[6];
        if (calipers(hx, hy, r)) {
          cx = r[0] + (r[2] + r[4]) * 0.5f;
          cy = r[1] + (r[3] + r[5]) * 0.5f;
          w = static_cast<float>(std::sqrt(static_cast<double>(r[2]) * r[2] + static_cast<double>(r[3]) * r[3]));
          h = static_cast<float>(std::sqrt(static_cast<double>(r[4]) * r[4] + static_cast<double>(r[5]) * r[5]));
          ang = std::atan2(static_cast<double>(r[3]), static_cast<double>(r[2]));
        } else {
          ok = 0;
        }
      } else if (hx.size() == 2) {
        cx = (hx[0] + hx[1]) * 0.5f;
        cy = (hy[0] + hy[1]) * 0.5f;
        const double dx = hx[1] - hx[0], dy = hy[1] - hy[0];
        w = static_cast<float>(std::sqrt(dx * dx + dy * dy));
        ang = std::atan2(dy, dx);
      } else {
        cx = hx[0], cy = hy[0];
      }
    }
    ang = ang * 180 / 3.14159265358979323846;
    // cv2 5 reports angles in [-90, 0): the same rectangle at a - 90 with its sides swapped
    while (ang >= 0) std::swap(w, h), ang = ang - 90;
    while (ang < -90) std::swap(w, h), ang = ang + 90;
    o[0] = cx, o[1] = cy, o[2] = w, o[3] = h, o[4] = static_cast<float>(ang), o[5] = ok;
  }
};

// Green's-theorem moments of a polygon (cv2's contourMoments, in double): m00, m10, m01, m20, m11,
// m02, m30, m21, m12, m03 (zeros when the area is below FLT_EPSILON).
class ContourMomentsKernel final : public PointSetKernel<ContourMomentsKernel, double> {
 public:
  using PointSetKernel::PointSetKernel;

  template <class T>
  void run_typed(const T* p, double* m) {
    std::fill(m, m + 10, 0.0);
    if (n_ == 0) return;
    double a00 = 0, a10 = 0, a01 = 0, a20 = 0, a11 = 0, a02 = 0, a30 = 0, a21 = 0, a12 = 0, a03 = 0;
    double x1 = p[2 * (n_ - 1)], y1 = p[2 * (n_ - 1) + 1];
    double x12 = x1 * x1, y12 = y1 * y1;
    for (int64_t i = 0; i < n_; ++i) {
      const double xi = p[2 * i], yi = p[2 * i + 1];
      const double xi2 = xi * xi, yi2 = yi * yi;
      const double dxy = x1 * yi - xi * y1;
      const double xii1 = x1 + xi, yii1 = y1 + yi;
      a00 += dxy;
      a10 += dxy * xii1;
      a01 += dxy * yii1;
      a20 += dxy * (x1 * xii1 + xi2);
      a11 += dxy * (x1 * (yii1 + y1) + xi * (yii1 + yi));
      a02 += dxy * (y1 * yii1 + yi2);
      a30 += dxy * xii1 * (x12 + xi2);
      a03 += dxy * yii1 * (y12 + yi2);
      a21 += dxy * (x12 * (3 * y1 + yi) + 2 * xi * x1 * yii1 + xi2 * (y1 + 3 * yi));
      a12 += dxy * (y12 * (3 * x1 + xi) + 2 * yi * y1 * xii1 + yi2 * (x1 + 3 * xi));
      x1 = xi, y1 = yi, x12 = xi2, y12 = yi2;
    }
    if (std::fabs(a00) > 1.1920928955078125e-07) {
      const double s = a00 > 0 ? 1.0 : -1.0;  // cv2 multiplies by signed rounded reciprocals
      m[0] = a00 * (s * 0.5), m[1] = a10 * (s * 0.16666666666666666), m[2] = a01 * (s * 0.16666666666666666);
      m[3] = a20 * (s * 0.083333333333333333), m[4] = a11 * (s * 0.041666666666666667);
      m[5] = a02 * (s * 0.083333333333333333), m[6] = a30 * (s * 0.05), m[7] = a21 * (s * 0.016666666666666667);
      m[8] = a12 * (s * 0.016666666666666667), m[9] = a03 * (s * 0.05);
    }
  }
};

// cv2's minEnclosingCircle in float: the incremental (Welzl-style) search, each circle padded by
// 1e-4. Only hull points can lie on the circle, so the search runs over the hull's points in input
// order: the same circle, without the quadratic blow-up on a contour's ordered points.
class MinEnclosingCircleKernel final : public PointSetKernel<MinEnclosingCircleKernel, float> {
 public:
  using PointSetKernel::PointSetKernel;

  static constexpr float kEps = 1.0e-4f;
  static double norm(float dx, float dy) { return std::sqrt(static_cast<double>(dx) * dx + static_cast<double>(dy) * dy); }

  template <class T>
  void run_typed(const T* pts, float* o) {
    o[0] = o[1] = o[2] = 0;
    if (n_ == 0) return;
    std::vector<T> tx(static_cast<size_t>(n_)), ty(static_cast<size_t>(n_));
    for (int64_t i = 0; i < n_; ++i) tx[static_cast<size_t>(i)] = pts[2 * i], ty[static_cast<size_t>(i)] = pts[2 * i + 1];
    std::vector<int64_t> keep;
    bool reduced = false;
    if (n_ > 3) {
      keep = hull(tx.data(), ty.data(), n_, false);
      std::sort(keep.begin(), keep.end());
      reduced = keep.size() >= 2;
    }
    if (!reduced) {
      keep.resize(static_cast<size_t>(n_));
      std::iota(keep.begin(), keep.end(), 0);
    }
    std::vector<float> x, y;
    for (int64_t i : keep) x.push_back(static_cast<float>(tx[static_cast<size_t>(i)])), y.push_back(static_cast<float>(ty[static_cast<size_t>(i)]));
    const size_t n = x.size();
    float cx, cy, r;
    if (!reduced && n == 1) {
      cx = x[0], cy = y[0], r = kEps;
    } else if (!reduced && n == 2) {
      cx = (x[0] + x[1]) / 2.0f, cy = (y[0] + y[1]) / 2.0f;
      r = static_cast<float>(norm(x[0] - x[1], y[0] - y[1]) / 2.0) + kEps;
    } else {
      auto circle2 = [&](size_t i, size_t j) {
        cx = (x[j] + x[i]) / 2.0f, cy = (y[j] + y[i]) / 2.0f;
        r = static_cast<float>(norm(x[j] - x[i], y[j] - y[i])) / 2.0f + kEps;
      };
      circle2(1, 0);
      for (size_t i = 2; i < n; ++i) {
        if (static_cast<float>(norm(x[i] - cx, y[i] - cy)) < r) continue;
        circle2(i, 0);
        for (size_t j = 1; j < i; ++j) {
          if (norm(cx - x[j], cy - y[j]) < r) continue;
          circle2(i, j);
          for (size_t k = 0; k < j; ++k) {
            if (norm(cx - x[k], cy - y[k]) < r) continue;
            circle3(x[i], y[i], x[j], y[j], x[k], y[k], cx, cy, r);
          }
        }
      }
    }
    o[0] = cx, o[1] = cy, o[2] = r;
  }

  // The circle through three points; for collinear points, the one on the longest pair.
  static void circle3(float x0, float y0, float x1, float y1, float x2, float y2, float& cx, float& cy, float& r) {
    const float v1x = x1 - x0, v1y = y1 - y0, v2x = x2 - x0, v2y = y2 - y0;
    if (v1x * v2y - v1y * v2x == 0.0f) {
      const float d1 = static_cast<float>(norm(x0 - x1, y0 - y1)), d2 = static_cast<float>(norm(x0 - x2, y0 - y2)),
                  d3 = static_cast<float>(norm(x1 - x2, y1 - y2));
      if (d1 >= d2 && d1 >= d3) cx = (x0 + x1) / 2.0f, cy = (y0 + y1) / 2.0f, r = d1 / 2.0f;
      else if (d2 >= d1 && d2 >= d3) cx = (x0 + x2) / 2.0f, cy = (y0 + y2) / 2.0f, r = d2 / 2.0f;
      else cx = (x1 + x2) / 2.0f, cy = (y1 + y2) / 2.0f, r = d3 / 2.0f;
    } else {
      const float m1x = (x0 + x1) / 2.0f, m1y = (y0 + y1) / 2.0f, m2x = (x0 + x2) / 2.0f, m2y = (y0 + y2) / 2.0f;
      const float c1 = m1x * v1x + m1y * v1y, c2 = m2x * v2x + m2y * v2y;
      const float det = v1x * v2y - v1y * v2x;
      cx = (c1 * v2y - c2 * v1y) / det;
      cy = (v1x * c2 - v2x * c1) / det;
      const float dx = cx - x0, dy = cy - y0;
      r = std::sqrt(dx * dx + dy * dy);
    }
    r += kEps;
  }

};

class ConvexHullKernel final : public backend::Kernel {
 public:
  explicit ConvexHullKernel(const backend::StepDesc& s) {
    clockwise_ = s.params->ints[0] != 0;
    n_ = s.inputs[0].shape[0];
    float_ = s.inputs[0].dtype == DType::Float32;
  }
  void run(char* const* in, char* out) override {
    int32_t* o = reinterpret_cast<int32_t*>(out);
    std::fill(o, o + n_ + 1, 0);
    if (n_ == 0) return;
    std::vector<int64_t> idx;
    if (float_) idx = run_typed(reinterpret_cast<const float*>(in[0]));
    else idx = run_typed(reinterpret_cast<const int32_t*>(in[0]));
    o[0] = static_cast<int32_t>(idx.size());
    for (size_t i = 0; i < idx.size(); ++i) o[i + 1] = static_cast<int32_t>(idx[i]);
  }

 private:
  template <class T>
  std::vector<int64_t> run_typed(const T* pts) {
    std::vector<T> x(static_cast<size_t>(n_)), y(static_cast<size_t>(n_));
    for (int64_t i = 0; i < n_; ++i) x[static_cast<size_t>(i)] = pts[2 * i], y[static_cast<size_t>(i)] = pts[2 * i + 1];
    return hull(x.data(), y.data(), n_, clockwise_);
  }
  bool clockwise_, float_;
  int64_t n_;
};

std::unique_ptr<backend::Kernel> prepare_convex_hull(const backend::StepDesc& s) {
  return std::make_unique<ConvexHullKernel>(s);
}
std::unique_ptr<backend::Kernel> prepare_min_area_rect(const backend::StepDesc& s) {
  return std::make_unique<MinAreaRectKernel>(s);
}
std::unique_ptr<backend::Kernel> prepare_contour_moments(const backend::StepDesc& s) {
  return std::make_unique<ContourMomentsKernel>(s);
}
std::unique_ptr<backend::Kernel> prepare_min_enclosing_circle(const backend::StepDesc& s) {
  return std::make_unique<MinEnclosingCircleKernel>(s);
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_convex_hull, "cv_convex_hull", &prepare_convex_hull);
MNN_REGISTER_CPU_KERNEL(cv_min_area_rect, "cv_min_area_rect", &prepare_min_area_rect);
MNN_REGISTER_CPU_KERNEL(cv_contour_moments, "cv_contour_moments", &prepare_contour_moments);
MNN_REGISTER_CPU_KERNEL(cv_min_enclosing_circle, "cv_min_enclosing_circle", &prepare_min_enclosing_circle);

}  // namespace mnn::cpu
