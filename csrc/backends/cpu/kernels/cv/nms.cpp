// Non-maximum suppression with cv2 5.0's exact answers (see nms.h). Exactness comes from doing
// every step in the precision cv2 does it: scores and thresholds in float, Rect2d overlaps in
// double rounded to float once (1 - (float)jaccardDistance), softNMS's Rect in wrapping 32-bit int,
// and rotated rectangles in float through cv2's vertex / edge-crossing / de-duplication steps.
// This file is compiled with -ffp-contract=off (CMakeLists.txt), so no product is fused into an
// FMA that cv2's build would have rounded twice.
#include "backends/cpu/kernels/cv/nms.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

namespace mnn::cpu::nms {

namespace {

// cv2's std::min / std::max argument order matters with NaN: min(a, b) is (b < a) ? b : a.
template <class T>
inline T cv_min(T a, T b) { return (b < a) ? b : a; }
template <class T>
inline T cv_max(T a, T b) { return (a < b) ? b : a; }

// ---- axis-aligned boxes ----------------------------------------------------------------------

template <class T>
struct Box {
  T x, y, w, h;
};

// 32-bit wrapping arithmetic for cv2's int Rect (its overflow is two's complement in practice).
struct Wrap {
  static int32_t add(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }
  static int32_t sub(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b)); }
  static int32_t mul(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b)); }
};
struct Plain {
  static double add(double a, double b) { return a + b; }
  static double sub(double a, double b) { return a - b; }
  static double mul(double a, double b) { return a * b; }
};

// Area of cv2's a & b: empty when either box is empty (w or h <= 0), when the boxes are apart,
// else the overlap measured from the box starting first (its width less the start gap), capped by
// the other box's width. NaN fields fail every comparison, as they do in cv2.
template <class T, class A>
inline T intersection_area(const Box<T>& a, const Box<T>& b) {
  if (a.w <= 0 || a.h <= 0 || b.w <= 0 || b.h <= 0) return T(0);
  const Box<T>& x0 = (a.x < b.x) ? a : b;
  const Box<T>& x1 = (a.x < b.x) ? b : a;
  const Box<T>& y0 = (a.y < b.y) ? a : b;
  const Box<T>& y1 = (a.y < b.y) ? b : a;
  if ((x0.x < 0 && A::add(x0.x, x0.w) < x1.x) || (y0.y < 0 && A::add(y0.y, y0.h) < y1.y)) return T(0);
  const T w = cv_min(A::sub(x0.w, A::sub(x1.x, x0.x)), x1.w);
  const T h = cv_min(A::sub(y0.h, A::sub(y1.y, y0.y)), y1.h);
  if (w <= 0 || h <= 0) return T(0);
  return A::mul(w, h);
}

// 1 - (float)jaccardDistance(a, b): IoU computed in double, its complement rounded to float.
template <class T, class A>
inline float rect_overlap(const Box<T>& a, const Box<T>& b) {
  const T aa = A::mul(a.w, a.h), ab = A::mul(b.w, b.h);
  const T sum = A::add(aa, ab);
  if (sum <= std::numeric_limits<T>::epsilon()) return 1.f;  // distance 0
  const double inter = static_cast<double>(intersection_area<T, A>(a, b));
  const double dist = 1.0 - inter / (static_cast<double>(sum) - inter);
  return 1.f - static_cast<float>(dist);
}

// cv2's candidate list: (score, index) above the threshold, stably sorted by descending score,
// cut to top_k when top_k > 0.
std::vector<std::pair<float, int>> candidates(const float* scores, int64_t n, float threshold, int top_k) {
  std::vector<std::pair<float, int>> c;
  c.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    if (scores[i] > threshold) c.emplace_back(scores[i], static_cast<int>(i));
  std::stable_sort(c.begin(), c.end(), [](const std::pair<float, int>& p, const std::pair<float, int>& q) {
    return p.first > q.first;
  });
  if (top_k > 0 && static_cast<size_t>(top_k) < c.size()) c.resize(static_cast<size_t>(top_k));
  return c;
}

// The greedy pass shared by every variant: overlap(i, j) is float, compared with a float threshold.
template <class Overlap>
std::vector<int> greedy(const float* scores, int64_t n, float score_threshold, float nms_threshold, float eta,
                        int top_k, Overlap overlap) {
  const auto cand = candidates(scores, n, score_threshold, top_k);
  std::vector<int> keep;
  float thr = nms_threshold;
  for (const auto& c : cand) {
    const int idx = c.second;
    bool ok = true;
    for (size_t k = 0; k < keep.size() && ok; ++k) ok = overlap(idx, keep[k]) <= thr;
    if (ok) {
      keep.push_back(idx);
      if (eta < 1 && thr > 0.5f) thr *= eta;
    }
  }
  return keep;
}

// A box whose cv2 overlap with another plain box is exactly 0 unless their intersection is
// non-empty: finite fields and ends, positive sizes, an area above DBL_EPSILON (so that two areas
// never sum to <= epsilon, where cv2 calls the overlap 1). An empty intersection then gives
// 1 - (float)(1 - 0 / union) = 0, which never suppresses (the threshold stays >= 0).
bool plain(const Box<double>& r) {
  return std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.w) && std::isfinite(r.h) && r.w > 0 &&
         r.h > 0 && r.w * r.h > DBL_EPSILON && std::isfinite(r.x + r.w) && std::isfinite(r.y + r.h);
}

// The greedy pass for axis-aligned boxes. Most candidate / kept pairs of a detector's output do not
// touch, so a plain candidate first screens every plain kept box with intersection_area()'s own
// emptiness test (branch-free over packed columns: the compiler vectorises it), and only the pairs
// that pass, and any non-plain kept box, get the exact overlap. The decision is an AND over the
// kept boxes, so the order in which they are checked does not change it.
// intersection_area(a, k) > 0 for a plain a and a plain kept box k, as a predicate (no product).
inline bool touches(double ax, double ay, double aw, double ah, double kx, double ky, double kw, double kh) {
  const bool lx = ax < kx, ly = ay < ky;
  const double x0 = lx ? ax : kx, w0 = lx ? aw : kw, x1 = lx ? kx : ax, w1 = lx ? kw : aw;
  const double y0 = ly ? ay : ky, h0 = ly ? ah : kh, y1 = ly ? ky : ay, h1 = ly ? kh : ah;
  const double w = cv_min(w0 - (x1 - x0), w1), h = cv_min(h0 - (y1 - y0), h1);
  const bool apart = (x0 < 0 && x0 + w0 < x1) | (y0 < 0 && y0 + h0 < y1);
  return !apart & (w > 0) & (h > 0);
}

// A uniform grid over the plain candidates' top-left corners, cells twice the largest side: two
// boxes that touch have corners less than half a cell apart on each axis, so a candidate needs
// only the kept boxes of its own cell and the 8 around it (with room to spare for rounding).
// Not built when the cells would be too many (sparse outliers) or the extent is not finite.
struct Grid {
  double x0 = 0, y0 = 0, inv = 0;
  int64_t nx = 0, ny = 0;
  std::vector<std::vector<int>> cells;  // positions into the packed kept boxes
  bool build(const std::vector<Box<double>>& b, const std::vector<std::pair<float, int>>& cand) {
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY, side = 0;
    for (const auto& c : cand) {
      const Box<double>& r = b[static_cast<size_t>(c.second)];
      if (!plain(r)) continue;
      lo_x = std::min(lo_x, r.x), lo_y = std::min(lo_y, r.y), hi_x = std::max(hi_x, r.x), hi_y = std::max(hi_y, r.y);
      side = std::max(side, std::max(r.w, r.h));
    }
    const double cell = 2 * side;
    if (!(cell > 0) || !std::isfinite(cell) || !std::isfinite(hi_x - lo_x) || !std::isfinite(hi_y - lo_y)) return false;
    const double fx = (hi_x - lo_x) / cell + 1, fy = (hi_y - lo_y) / cell + 1;
    if (!(fx * fy <= static_cast<double>(16 * cand.size() + 4096))) return false;  // batched sets spread diagonally
    x0 = lo_x, y0 = lo_y, inv = 1 / cell;
    nx = static_cast<int64_t>(fx) + 1, ny = static_cast<int64_t>(fy) + 1;
    cells.assign(static_cast<size_t>(nx * ny), {});
    return true;
  }
  int64_t cx(double x) const { return std::clamp<int64_t>(static_cast<int64_t>((x - x0) * inv), 0, nx - 1); }
  int64_t cy(double y) const { return std::clamp<int64_t>(static_cast<int64_t>((y - y0) * inv), 0, ny - 1); }
};

// The greedy pass for axis-aligned boxes. Most candidate / kept pairs of a detector's output do not
// touch, and a plain pair that does not touch never suppresses (plain()), so a plain candidate
// looks only at the plain kept boxes near it (Grid), or, without a grid, screens them in blocks
// with the emptiness test (branch-free: the compiler vectorises it); only the pairs that touch,
// and every non-plain kept box, get the exact overlap. The decision is an AND over the kept
// boxes, so the order in which they are checked does not change it.
std::vector<int> boxes_impl(const std::vector<Box<double>>& b, const float* scores, int64_t n, float score_threshold,
                            float nms_threshold, float eta, int top_k) {
  const auto cand = candidates(scores, n, score_threshold, top_k);
  std::vector<int> keep;
  std::vector<double> kx, ky, kw, kh;  // plain kept boxes, packed
  std::vector<int> kid, odd;           // their indices; the kept boxes that are not plain
  Grid grid;
  const bool gridded = cand.size() > 64 && grid.build(b, cand);
  uint8_t hit[64];
  float thr = nms_threshold;
  for (const auto& c : cand) {
    const int idx = c.second;
    const Box<double>& a = b[static_cast<size_t>(idx)];
    const auto over = [&](int j) { return rect_overlap<double, Plain>(a, b[static_cast<size_t>(j)]) <= thr; };
    bool ok = true;
    const bool is_plain = plain(a);
    if (is_plain && gridded) {
      const int64_t gx = grid.cx(a.x), gy = grid.cy(a.y);
      for (int64_t yy = std::max<int64_t>(gy - 1, 0); yy <= std::min(gy + 1, grid.ny - 1) && ok; ++yy)
        for (int64_t xx = std::max<int64_t>(gx - 1, 0); xx <= std::min(gx + 1, grid.nx - 1) && ok; ++xx)
          for (int k : grid.cells[static_cast<size_t>(yy * grid.nx + xx)])
            if (touches(a.x, a.y, a.w, a.h, kx[k], ky[k], kw[k], kh[k]) && !(ok = over(kid[k]))) break;
      for (size_t k = 0; k < odd.size() && ok; ++k) ok = over(odd[k]);
    } else if (is_plain) {
      const size_t m = kx.size();
      const double ax = a.x, ay = a.y, aw = a.w, ah = a.h;
      // blocks of 64 kept boxes: screened together, then checked, so that a suppressed candidate
      // (most of them) stops near the kept box that suppresses it
      for (size_t k0 = 0; k0 < m && ok; k0 += 64) {
        const size_t k1 = std::min(m, k0 + 64);
        for (size_t k = k0; k < k1; ++k) hit[k - k0] = touches(ax, ay, aw, ah, kx[k], ky[k], kw[k], kh[k]);
        for (size_t k = k0; k < k1 && ok; ++k)
          if (hit[k - k0]) ok = over(kid[k]);
      }
      for (size_t k = 0; k < odd.size() && ok; ++k) ok = over(odd[k]);
    } else {
      for (size_t k = 0; k < keep.size() && ok; ++k) ok = over(keep[k]);
    }
    if (ok) {
      keep.push_back(idx);
      if (is_plain) {
        if (gridded) grid.cells[static_cast<size_t>(grid.cy(a.y) * grid.nx + grid.cx(a.x))].push_back(static_cast<int>(kx.size()));
        kx.push_back(a.x), ky.push_back(a.y), kw.push_back(a.w), kh.push_back(a.h), kid.push_back(idx);
      } else {
        odd.push_back(idx);
      }
      if (eta < 1 && thr > 0.5f) thr *= eta;
    }
  }
  return keep;
}

std::vector<Box<double>> unpack(const double* xywh, int64_t n) {
  std::vector<Box<double>> b(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) b[static_cast<size_t>(i)] = {xywh[4 * i], xywh[4 * i + 1], xywh[4 * i + 2], xywh[4 * i + 3]};
  return b;
}

// ---- rotated rectangles ----------------------------------------------------------------------

struct Pt {
  float x, y;
};

struct RRect {
  Pt c;
  float w, h, angle;
  bool empty() const { return w <= 0 || h <= 0; }
  float area() const { return w * h; }
};

// RotatedRect::points as cv2 5.0 computes them: the corners from cos/sin of the angle (double,
// rounded to float), halved; each of the four summed from the centre left to right (cv2 4.x took
// the last two as 2 * centre - the first two, which rounds differently).
void corners(const RRect& r, Pt p[4]) {
  const double ang = r.angle * 3.14159265358979323846 / 180.;
  const float b = static_cast<float>(std::cos(ang)) * 0.5f;
  const float a = static_cast<float>(std::sin(ang)) * 0.5f;
  p[0].x = r.c.x - a * r.h - b * r.w;
  p[0].y = r.c.y + b * r.h - a * r.w;
  p[1].x = r.c.x + a * r.h - b * r.w;
  p[1].y = r.c.y - b * r.h - a * r.w;
  p[2].x = r.c.x + a * r.h + b * r.w;
  p[2].y = r.c.y - b * r.h + a * r.w;
  p[3].x = r.c.x - a * r.h + b * r.w;
  p[3].y = r.c.y + b * r.h + a * r.w;
}

enum { kNone = 0, kPartial = 1, kFull = 2 };

// Whether pt is on the "positive" side of the line through lp along lv (float cross products).
inline bool positive_side(const Pt& lv, const Pt& lp, const Pt& pt) {
  return lv.y * (lp.x - pt.x) >= lv.x * (lp.y - pt.y);
}

inline double cross(const Pt& a, const Pt& b) { return static_cast<double>(a.x) * b.y - static_cast<double>(a.y) * b.x; }

// The intersection polygon of two rects centred near the origin (the caller shifts them), all in
// float: the same rect (all corners within eps) is a full overlap; else every edge crossing (float
// 2x2 solve), then the corners of each rect inside the other, near-duplicates dropped, at most 8
// points kept (closest pairs merged), ordered by a selection on cross products.
int intersect_shifted(const RRect& r1, const RRect& r2, Pt* out, int& nout) {
  Pt p1[4], p2[4], v1[4], v2[4];
  corners(r1, p1);
  corners(r2, p2);
  float eps = 1e-6f * static_cast<float>(cv_max(r1.area(), r2.area()));
  bool same = true;
  for (int i = 0; i < 4 && same; ++i)
    if (std::fabs(p1[i].x - p2[i].x) > eps || std::fabs(p1[i].y - p2[i].y) > eps) same = false;
  if (same) {
    std::memcpy(out, p1, sizeof(p1));
    nout = 4;
    return kFull;
  }
  for (int i = 0; i < 4; ++i) {
    v1[i] = {p1[(i + 1) % 4].x - p1[i].x, p1[(i + 1) % 4].y - p1[i].y};
    v2[i] = {p2[(i + 1) % 4].x - p2[i].x, p2[(i + 1) % 4].y - p2[i].y};
  }
  for (int i = 0; i < 4; ++i) {
    eps = cv_min(eps, std::sqrt(v1[i].x * v1[i].x + v1[i].y * v1[i].y));
    eps = cv_min(eps, std::sqrt(v2[i].x * v2[i].x + v2[i].y * v2[i].y));
  }
  eps = cv_max(1e-16f, eps);

  Pt pts[24];
  int n = 0;
  int ret = kFull;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      const float x21 = p2[j].x - p1[i].x, y21 = p2[j].y - p1[i].y;
      const float vx1 = v1[i].x, vy1 = v1[i].y, vx2 = v2[j].x, vy2 = v2[j].y;
      const float det = vx2 * vy1 - vx1 * vy2;
      if (std::abs(static_cast<double>(det)) < 1e-12) continue;  // float det against a double bound, as cv2
      const float inv = 1.f / det;
      const float t1 = (vx2 * y21 - vy2 * x21) * inv;
      const float t2 = (vx1 * y21 - vy1 * x21) * inv;
      if (std::isinf(t1) || std::isinf(t2) || std::isnan(t1) || std::isnan(t2)) continue;
      if (t1 >= 0.0f && t1 <= 1.0f && t2 >= 0.0f && t2 <= 1.0f)
        pts[n++] = {p1[i].x + v1[i].x * t1, p1[i].y + v1[i].y * t1};
    }
  }
  if (n > 0) ret = kPartial;
  for (int pass = 0; pass < 2; ++pass) {
    const Pt* a = pass == 0 ? p1 : p2;   // the corners tested
    const Pt* bp = pass == 0 ? p2 : p1;  // against the other rect's edges
    const Pt* bv = pass == 0 ? v2 : v1;
    for (int i = 0; i < 4; ++i) {
      int pos = 0;
      for (int j = 0; j < 4; ++j) pos += positive_side(bv[j], bp[j], a[i]) ? 1 : 0;
      if (pos == 4 || pos == 0) pts[n++] = a[i];
    }
  }
  if (n == 0) return kNone;

  // near-duplicates (squared distance <= eps) go, the last point taking the dropped one's place
  const int stride = n;
  float dist[24 * 24] = {};
  int remap[24];
  for (int i = 0; i < n; ++i) {
    const Pt q0 = pts[i];
    remap[i] = i;
    for (int j = i + 1; j < n;) {
      const float dx = pts[j].x - q0.x, dy = pts[j].y - q0.y;
      const float d2 = dx * dx + dy * dy;
      if (d2 <= eps) {
        if (j < n - 1) pts[j] = pts[n - 1];
        --n;
        continue;
      }
      dist[i * stride + j] = d2;
      ++j;
    }
  }
  while (n > 8) {  // still too many: drop the second point of the closest pair
    int mj = 1;
    float md = dist[1];
    for (int i = 0; i < n - 1; ++i) {
      const float* row = dist + stride * remap[i];
      for (int j = i + 1; j < n; ++j) {
        const float d = row[remap[j]];
        if (d < md) md = d, mj = j;
      }
    }
    if (mj < n - 1) {
      pts[mj] = pts[n - 1];
      remap[mj] = remap[n - 1];
    }
    --n;
  }
  for (int i = 0; i < n - 1; ++i) {
    Pt di = {pts[i + 1].x - pts[i].x, pts[i + 1].y - pts[i].y};
    for (int j = i + 2; j < n; ++j) {
      const Pt dj = {pts[j].x - pts[i].x, pts[j].y - pts[i].y};
      if (cross(di, dj) < 0) {
        std::swap(pts[i + 1], pts[j]);
        di = dj;
      }
    }
  }
  std::memcpy(out, pts, sizeof(Pt) * static_cast<size_t>(n));
  nout = n;
  return ret;
}

// cv2.rotatedRectangleIntersection's overlap as NMS uses it: none 0, full 1, else the polygon's
// area (contourArea: double shoelace, rounded to float) over the float union.
float rotated_overlap(const RRect& a, const RRect& b) {
  if (a.empty() || b.empty()) return 0.0f;
  // both rects moved so that their mean centre is the origin, and the points moved back after
  const Pt mid = {(a.c.x + b.c.x) / 2.0f, (a.c.y + b.c.y) / 2.0f};
  RRect sa = a, sb = b;
  sa.c = {a.c.x - mid.x, a.c.y - mid.y};
  sb.c = {b.c.x - mid.x, b.c.y - mid.y};
  Pt poly[24];
  int n = 0;
  const int res = intersect_shifted(sa, sb, poly, n);
  if (res == kNone || n == 0) return 0.0f;
  if (res == kFull) return 1.0f;
  for (int i = 0; i < n; ++i) poly[i].x += mid.x, poly[i].y += mid.y;
  double s = 0;
  Pt prev = poly[n - 1];
  for (int i = 0; i < n; ++i) {
    s += static_cast<double>(prev.x) * poly[i].y - static_cast<double>(prev.y) * poly[i].x;
    prev = poly[i];
  }
  const float inter = static_cast<float>(std::fabs(s * 0.5));
  return inter / (a.area() + b.area() - inter);
}

RRect rrect(const float* r) { return RRect{{r[0], r[1]}, r[2], r[3], r[4]}; }

}  // namespace

std::vector<int> boxes(const double* xywh, const float* scores, int64_t n, float score_threshold,
                       float nms_threshold, float eta, int top_k) {
  return boxes_impl(unpack(xywh, n), scores, n, score_threshold, nms_threshold, eta, top_k);
}

std::vector<int> batched(const double* xywh, const float* scores, const int32_t* class_ids, int64_t n,
                         float score_threshold, float nms_threshold, float eta, int top_k) {
  std::vector<Box<double>> b = unpack(xywh, n);
  double top = 0;
  for (const auto& r : b) {
    const double x2 = r.x + r.w, y2 = r.y + r.h;
    top = cv_max(r.x, top), top = cv_max(r.y, top), top = cv_max(x2, top), top = cv_max(y2, top);
  }
  for (int64_t i = 0; i < n; ++i) {
    const double off = class_ids[i] * (top + 1);
    b[static_cast<size_t>(i)].x += off;
    b[static_cast<size_t>(i)].y += off;
  }
  return boxes_impl(b, scores, n, score_threshold, nms_threshold, eta, top_k);
}

float rotated_iou(const float* a, const float* b) { return rotated_overlap(rrect(a), rrect(b)); }

std::vector<int> rotated(const float* rects, const float* scores, int64_t n, float score_threshold,
                         float nms_threshold, float eta, int top_k) {
  std::vector<RRect> r(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) r[static_cast<size_t>(i)] = rrect(rects + 5 * i);
  // Screening: rects whose circumscribed circles are apart by a margin far above the float
  // rounding of their corners (relative to the coordinates' size) have no intersection point, so
  // cv2's overlap is 0; NaN fails the comparison and takes the exact path.
  std::vector<double> rad(static_cast<size_t>(n));
  for (size_t i = 0; i < rad.size(); ++i) {
    const RRect& q = r[i];
    rad[i] = 0.5 * std::sqrt(static_cast<double>(q.w) * q.w + static_cast<double>(q.h) * q.h);
  }
  return greedy(scores, n, score_threshold, nms_threshold, eta, top_k, [&](int i, int j) {
    const RRect& p = r[static_cast<size_t>(i)];
    const RRect& q = r[static_cast<size_t>(j)];
    const double dx = static_cast<double>(p.c.x) - q.c.x, dy = static_cast<double>(p.c.y) - q.c.y;
    const double lim = 1.01 * (rad[static_cast<size_t>(i)] + rad[static_cast<size_t>(j)]) +
                       1e-4 * (std::fabs(p.c.x) + std::fabs(p.c.y) + std::fabs(q.c.x) + std::fabs(q.c.y)) + 1e-6;
    if (dx * dx + dy * dy > lim * lim) return 0.0f;
    return rotated_overlap(p, q);
  });
}

void soft(const int32_t* xywh, const float* scores, int64_t n, float score_threshold, float nms_threshold,
          size_t top_k, float sigma, int method, std::vector<int>& indices, std::vector<float>& updated) {
  indices.clear();
  updated.clear();
  const size_t count = static_cast<size_t>(n);
  std::vector<Box<int32_t>> b(count);
  for (size_t i = 0; i < count; ++i) b[i] = {xywh[4 * i], xywh[4 * i + 1], xywh[4 * i + 2], xywh[4 * i + 3]};
  std::vector<std::pair<float, size_t>> sv(count);
  for (size_t i = 0; i < count; ++i) sv[i] = {scores[i], i};
  // the best is the highest score, the lowest index among equals (cv2's max_element order; a NaN
  // never wins a comparison, so where it stands matters, and the selection swaps are kept as cv2's)
  const auto less = [](const std::pair<float, size_t>& p, const std::pair<float, size_t>& q) {
    return p.first == q.first ? p.second > q.second : p.first < q.first;
  };
  top_k = top_k == 0 ? count : std::min(top_k, count);
  size_t start = 0;
  while (indices.size() < top_k) {
    auto it = std::max_element(sv.begin() + static_cast<std::ptrdiff_t>(start), sv.end(), less);
    const float best = it->first;
    const size_t bi = it->second;
    if (best < score_threshold) break;
    indices.push_back(static_cast<int>(bi));
    updated.push_back(best);
    std::swap(sv[start], *it);
    for (size_t i = start + 1; i < count; ++i) {
      float& s = sv[i].first;
      if (s < score_threshold) continue;
      const float ov = rect_overlap<int32_t, Wrap>(b[bi], b[sv[i].second]);
      if (method == 1) {
        if (ov > nms_threshold) s *= 1.f - ov;
      } else if (method == 2) {
        s *= std::exp(-(ov * ov) / sigma);
      } else {
        throw std::invalid_argument("Not supported SoftNMS method.");
      }
    }
    ++start;
  }
}

}  // namespace mnn::cpu::nms
