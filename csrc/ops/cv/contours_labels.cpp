// findContours on an int32 label image: cv2 5's RETR_FLOODFILL (which it also runs for RETR_CCOMP
// on CV_32SC1 input). Every 8-connected region of equal labels, zero included, is traced, so this
// follows cv2 step for step rather than the binary tracer:
// - the image sits in a zero frame (cv2's copyMakeBorder) and is not thresholded;
// - a pixel's low 30 bits are its label; traced pixels get cv2's flags in the top two bits
//   (0x40000000 "new", 0x80000000 "right neighbour is another region"), so the raster scan starts
//   an outer border where a zero or flagged pixel meets an unflagged one of another label, and a
//   hole border where two unflagged regions with a non-zero left one meet;
// - outer borders hang under the frame; a hole's parent is found as cv2 finds it: through a table
//   keyed by the low 7 bits of the label at the last flagged pixel met on the row, whose entries
//   are checked by bounding box and by re-tracing (cv2's findFirstBoundingContour);
// - the frame's zero region reaches the image edge, where cv2's tracer reads memory outside its
//   buffer: two rows of a label no pixel has stand in for it above and below.
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "core/error.h"
#include "ops/cv/contours.h"

namespace mnn::ops::contours {

using core::ValueError;

namespace {

constexpr uint32_t kRight = 0x80000000u, kNew = 0x40000000u, kFlags = kRight | kNew, kVal = 0x3FFFFFFFu;
constexpr uint32_t kRight8 = 0xFFFFFF80u;  // cv2 tests "right" against (schar)0x80 widened to int
constexpr int kDx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int kDy[8] = {0, -1, -1, -1, 0, 1, 1, 1};

struct Node {
  int32_t parent = -1, ctable_next = -1;
  bool hole = true;
  int64_t ox = 0, oy = 0;                   // starting pixel (framed coordinates)
  int64_t bx = 0, by = 0, bw = 0, bh = 0;  // cv2's bounding rectangle (framed coordinates)
  int64_t first = 0, count = 0;             // points (pairs) in the shared buffer
};

class LabelTracer {
 public:
  LabelTracer(uint32_t* f, int64_t W, int64_t H, int method, int ox, int oy)
      : f_(f), W_(W), limit_(8 * W * H + 16), method_(method), ox_(ox - 1), oy_(oy - 1) {
    for (int s = 0; s < 16; ++s) delta_[s] = kDx[s & 7] + kDy[s & 7] * W_;
  }

  std::vector<Node> nodes{Node{}};  // nodes[0]: the frame (a hole, as in cv2)
  std::vector<int32_t> pts;

  void scan(int64_t H) {
    std::vector<int32_t> ctable(128, -1);
    for (int64_t y = 1; y < H - 1; ++y) {
      const int64_t row0 = y * W_;
      int64_t last_x = 0;  // cv2's lnbd: the last flagged pixel met where the label changed
      uint32_t prev = 0, p = 0;
      for (int64_t x = 1; x < W_ - 1;) {
        while (x < W_ - 1 && (((p = f_[row0 + x]) ^ prev) & kVal) == 0) prev = p, ++x;
        if (x >= W_ - 1) break;
        const bool outer = ((prev & kFlags) || prev == 0) && !(p & kFlags);
        const bool hole = !outer && !(prev & kFlags) && !(p & kFlags);
        if (!outer && !hole) {
          prev = p;
          if (prev & kFlags) last_x = x;
          ++x;
          continue;
        }
        int32_t parent = 0;
        if (hole && last_x > 0) {
          int32_t res = first_bounding(ctable, last_x, y, static_cast<int>(f_[row0 + last_x] & 0x7F));
          if (res < 0) throw ValueError("[mnn.cv.findContours] no enclosing contour found for a hole (cv2 fails here too)");
          if (nodes[static_cast<size_t>(res)].hole == hole)
            res = nodes[static_cast<size_t>(res)].parent >= 0 ? nodes[static_cast<size_t>(res)].parent : 0;
          if (nodes[static_cast<size_t>(res)].hole == hole)
            throw ValueError("[mnn.cv.findContours] inconsistent contour nesting (cv2 asserts here)");
          parent = res;
        }
        const int64_t sx = x - (hole ? 1 : 0);
        last_x = sx;
        Node nd;
        nd.parent = parent;
        nd.hole = hole;
        nd.ox = sx, nd.oy = y;
        const int lval = static_cast<int>(f_[row0 + sx] & 0x7F);
        fetch(row0 + sx, nd);
        nd.ctable_next = ctable[static_cast<size_t>(lval)];
        ctable[static_cast<size_t>(lval)] = static_cast<int32_t>(nodes.size());
        nodes.push_back(nd);
        x = sx + 1;  // a hole rescans its own second pixel, as cv2 resumes there
        prev = f_[row0 + x - 1];
      }
    }
  }

 private:
  bool same(int64_t i, int64_t i0) const { return ((f_[i] ^ f_[i0]) & kVal) == 0; }

  void step_guard(int64_t& steps) const {
    if (++steps > limit_) throw ValueError("[mnn.cv.findContours] border following did not close");
  }

  // Traces the border starting at i0 (cv2's icvFetchContourEx on int images): flags its pixels,
  // appends its points, and keeps cv2's bounding rectangle (updated only where the direction turns).
  void fetch(int64_t i0, Node& nd) {
    const bool simple = method_ == 2;
    const size_t first = pts.size();
    int64_t x = nd.ox, y = nd.oy;
    int64_t rx = x, ry = y, rw = x, rh = y;
    int s_end = nd.hole ? 0 : 4, s = s_end;
    int64_t i1;
    do {
      s = (s - 1) & 7;
      i1 = i0 + delta_[s];
    } while (!same(i1, i0) && s != s_end);
    if (s == s_end) {  // a single-pixel region
      f_[i0] = (f_[i0] & kVal) | kFlags;
      push(x, y);
    } else {
      int64_t i3 = i0, i4 = i0, steps = 0;
      int prev_s = s ^ 4;
      for (;;) {
        step_guard(steps);
        s_end = s;
        while (s < 15) {
          ++s;
          i4 = i3 + delta_[s];
          if (same(i4, i0)) break;
        }
        s &= 7;
        if (static_cast<unsigned>(s - 1) < static_cast<unsigned>(s_end)) f_[i3] = (f_[i0] & kVal) | kFlags;
        else if (f_[i3] == (f_[i0] & kVal)) f_[i3] = (f_[i0] & kVal) | kNew;
        if (!simple || s != prev_s) push(x, y);
        if (s != prev_s) {
          if (x < rx) rx = x;
          else if (x > rw) rw = x;
          if (y < ry) ry = y;
          else if (y > rh) rh = y;
        }
        prev_s = s;
        x += kDx[s], y += kDy[s];
        if (i4 == i0 && i3 == i1) break;
        i3 = i4;
        s = (s + 4) & 7;
      }
    }
    if (method_ >= 3) {
      std::vector<int32_t> all(pts.begin() + static_cast<std::ptrdiff_t>(first), pts.end());
      approximate_tc89(all, 0, method_);
      pts.resize(first);
      pts.insert(pts.end(), all.begin(), all.end());
    }
    nd.bx = rx, nd.by = ry, nd.bw = rw - (rx - 1), nd.bh = rh - (ry - 1);
    nd.first = static_cast<int64_t>(first / 2);
    nd.count = static_cast<int64_t>((pts.size() - first) / 2);
  }

  // Whether the border starting at `origin` passes through `stop` (cv2's icvTraceContour).
  bool reaches(int64_t i0, int64_t stop, bool hole) const {
    const int s_end = hole ? 0 : 4;
    int s = s_end;
    int64_t i1;
    do {
      s = (s - 1) & 7;
      i1 = i0 + delta_[s];
    } while (!same(i1, i0) && s != s_end);
    if (s == s_end) return i0 == stop;
    int64_t i3 = i0, i4 = i0, steps = 0;
    for (;;) {
      step_guard(steps);
      while (s < 15) {
        ++s;
        i4 = i3 + delta_[s];
        if (same(i4, i0)) break;
      }
      if (i3 == stop) {
        if ((f_[i3] & kRight) != (f_[i0] & kRight8)) return true;
        for (int t = s;;) {  // cv2: is this the last border met on the row?
          t = (t - 1) & 7;
          if (f_[i3 + delta_[t]] != 0) break;
          if (t == 0) return true;
        }
      }
      if (i4 == i0 && i3 == i1) return false;
      i3 = i4;
      s = (s + 4) & 7;
    }
  }

  // cv2's findFirstBoundingContour: walks the contours whose label has these low 7 bits, newest
  // first, keeping the last whose rectangle (tested one-sided, as cv2 does) holds the point, unless
  // the one kept before it re-traces through the point.
  int32_t first_bounding(const std::vector<int32_t>& ctable, int64_t lx, int64_t y, int lval) const {
    int32_t res = -1;
    for (int32_t cur = ctable[static_cast<size_t>(lval)]; cur != -1;) {
      const Node& c = nodes[static_cast<size_t>(cur)];
      if (lx - c.bx < c.bw && y - c.by < c.bh) {
        if (res != -1) {
          const Node& r = nodes[static_cast<size_t>(res)];
          if (reaches(r.oy * W_ + r.ox, y * W_ + lx, r.hole)) break;
        }
        res = cur;
      }
      cur = c.ctable_next;
    }
    return res;
  }

  void push(int64_t x, int64_t y) {
    pts.push_back(static_cast<int32_t>(x + ox_));
    pts.push_back(static_cast<int32_t>(y + oy_));
  }

  uint32_t* f_;
  int64_t W_, limit_;
  int method_;
  int64_t ox_, oy_;
  int64_t delta_[16];
};

// The smallest positive label (low 30 bits) no pixel has: h * w pixels cannot take all of
// 1 .. h * w + 1.
uint32_t unused_label(const int32_t* img, int64_t h, int64_t w, int64_t stride) {
  const uint64_t n = static_cast<uint64_t>(h * w) + 2;
  std::vector<bool> used(static_cast<size_t>(n), false);
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x) {
      const uint32_t v = static_cast<uint32_t>(img[y * stride + x]) & kVal;
      if (v < n) used[v] = true;
    }
  uint32_t v = 1;
  while (used[v]) ++v;
  return v;
}

}  // namespace

Packed find_contours_labels(const int32_t* img, int64_t h, int64_t w, int64_t stride, int method, int ox, int oy) {
  const int64_t W = w + 2, H = h + 2;
  // Two rows of an unused label above and below the framed image (see the top of this file).
  std::vector<uint32_t> buf(static_cast<size_t>(W * (H + 4)), unused_label(img, h, w, stride));
  uint32_t* f = buf.data() + 2 * W;
  std::fill(f, f + W, 0u);
  std::fill(f + (H - 1) * W, f + H * W, 0u);
  for (int64_t y = 0; y < h; ++y) {
    uint32_t* dst = f + (y + 1) * W;
    dst[0] = dst[W - 1] = 0;
    std::memcpy(dst + 1, img + y * stride, sizeof(int32_t) * static_cast<size_t>(w));
  }
  LabelTracer tracer(f, W, H, method, ox, oy);
  tracer.scan(H);
  std::vector<Border> borders;
  borders.reserve(tracer.nodes.size() - 1);
  for (size_t k = 1; k < tracer.nodes.size(); ++k) {
    const Node& nd = tracer.nodes[k];
    borders.push_back({nd.parent - 1, nd.hole, nd.first, nd.count});
  }
  return pack_borders(borders, tracer.pts.data(), static_cast<int64_t>(tracer.pts.size() / 2));
}

}  // namespace mnn::ops::contours
