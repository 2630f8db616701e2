// The Teh-Chin dominant-point approximation (CHAIN_APPROX_TC89_L1 / _KCOS) of a traced border, as
// cv2 5 computes it: every point gets its 1-curvature from the chain code, then a support region
// (how far the chord test extends), for KCOS a k-cosine curvature, non-maximum suppression over
// the support region, removal of non-dominant points with a one-point region, and for L1 a
// clean-up that keeps one point of each run of neighbouring survivors.
//
// cv2 compares some values through their float bit patterns; the same tests are spelled out here
// (a float's int bits are <= 0 for every value <= 0 including -0.0, >= 0 only without the sign).
#include <cmath>
#include <cstring>
#include <vector>

#include "ops/cv/contours.h"

namespace mnn::ops::contours {

namespace {

struct Item {
  int32_t x, y;
  int32_t s;  // curvature: 1-curvature, or the k-cosine's float bits (KCOS)
  int64_t k;  // support region
  bool removed;
};

constexpr int kAbsDiff[15] = {1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1};

int32_t float_bits(float f) {
  int32_t i;
  std::memcpy(&i, &f, sizeof i);
  return i;
}

inline size_t back(size_t i, size_t k, size_t n) { return i >= k ? i - k : n - k + i; }
inline size_t ahead(size_t i, size_t k, size_t n) { return i + k < n ? i + k : i + k - n; }

int64_t support(const std::vector<Item>& a, size_t i) {
  const size_t n = a.size();
  int64_t d_num = 0, l = 0;
  size_t k = 1;
  for (; k <= n; ++k) {
    const Item &p1 = a[back(i, k, n)], &p2 = a[ahead(i, k, n)];
    const int64_t dx = p2.x - p1.x, dy = p2.y - p1.y;
    const int64_t lk = dx * dx + dy * dy;
    const int64_t dk_num = (a[i].x - p1.x) * dy - (a[i].y - p1.y) * dx;
    const int32_t d = float_bits(static_cast<float>(static_cast<double>(d_num) * static_cast<double>(lk) -
                                                    static_cast<double>(dk_num) * static_cast<double>(l)));
    if (k > 1 && (l >= lk || (d_num > 0 && d <= 0) || (d_num < 0 && d >= 0))) break;
    d_num = dk_num;
    l = lk;
  }
  return static_cast<int64_t>(k) - 1;
}

int32_t k_cosine(const std::vector<Item>& a, size_t i) {
  const size_t n = a.size();
  const size_t k = static_cast<size_t>(a[i].k);
  int32_t s = 0;
  for (size_t j = k; j > 0; --j) {
    const Item &p1 = a[back(i, j, n)], &p2 = a[ahead(i, j, n)];
    const int64_t dx1 = p1.x - a[i].x, dy1 = p1.y - a[i].y, dx2 = p2.x - a[i].x, dy2 = p2.y - a[i].y;
    if ((dx1 == 0 && dy1 == 0) || (dx2 == 0 && dy2 == 0)) break;
    double t = static_cast<double>(dx1 * dx2 + dy1 * dy2);
    t = static_cast<float>(t / std::sqrt(static_cast<double>(dx1 * dx1 + dy1 * dy1) *
                                         static_cast<double>(dx2 * dx2 + dy2 * dy2)));
    const int32_t bits = float_bits(static_cast<float>(t + 1.1));
    if (j < k && bits <= s) break;
    s = bits;
  }
  return s;
}

size_t next_kept(const std::vector<Item>& a, size_t start) {
  size_t r = start + 1;
  while (r < a.size() && a[r].removed) ++r;
  return r;
}

// L1's clean-up may start past a run of survivors that wraps around the start; returns false
// when every point survived (nothing to clean).
bool new_start(std::vector<Item>& a, size_t& start) {
  const size_t n = a.size();
  size_t i1 = 1;
  for (; i1 < n && a[i1].s != 0; ++i1) a[i1 - 1].s = 0;
  if (i1 == n) return false;
  --i1;
  size_t i2 = n - 2;
  for (; i2 > 0 && a[i2].s != 0; --i2) {
    for (size_t t = i2 + 1; t < n; ++t) a[t].removed = true;
    a[i2 + 1].s = 0;
  }
  ++i2;
  if (i1 == 0 && i2 == n - 1) {
    i1 = next_kept(a, 0);
    Item first = a[0];
    first.removed = false;
    a.push_back(first);
  }
  start = i1;
  return true;
}

void cleanup(std::vector<Item>& a, size_t start) {
  const size_t n = a.size();
  int count = 1;
  size_t first = start, prev = start;
  for (size_t i = start; i < n; ++i) {
    if (a[i].removed) continue;
    const size_t nxt = next_kept(a, i);
    if (nxt == n || nxt - i != 1) {
      if (count >= 2) {
        if (count == 2) {
          if (a[prev].s > a[i].s || (a[prev].s == a[i].s && a[prev].k <= a[i].k)) a[i].removed = true;
          else a[prev].removed = true;
        } else {
          first = next_kept(a, first);
          for (size_t t = first + 1; t < i; ++t) a[t].removed = true;
        }
      }
      first = i;
      count = 1;
    } else {
      ++count;
    }
    prev = i;
  }
}

int chain_code(int32_t dx, int32_t dy) {
  static constexpr int kCode[3][3] = {{3, 2, 1}, {4, -1, 0}, {5, 6, 7}};  // [dy + 1][dx + 1]
  return kCode[dy + 1][dx + 1];
}

}  // namespace

void approximate_tc89(std::vector<int32_t>& pts, size_t first, int method) {
  const size_t n = (pts.size() - first) / 2;
  if (n <= 1) return;
  // The thread's scratch: a noise image has tens of thousands of borders of a few points, and two
  // fresh vectors for each showed in the profile.
  thread_local std::vector<Item> a;
  thread_local std::vector<int> code;
  a.resize(n);
  code.resize(n);
  for (size_t i = 0; i < n; ++i) a[i] = {pts[first + 2 * i], pts[first + 2 * i + 1], 0, 0, false};
  for (size_t i = 0; i < n; ++i) {
    const size_t j = i + 1 < n ? i + 1 : 0;
    code[i] = chain_code(a[j].x - a[i].x, a[j].y - a[i].y);
  }
  for (size_t i = 0; i < n; ++i) {  // pass 0: 1-curvature from the chain; straight points go
    a[i].s = kAbsDiff[code[i] - code[i == 0 ? n - 1 : i - 1] + 7];
    a[i].removed = a[i].s == 0;
  }
  for (size_t i = 0; i < n; ++i) {  // pass 1: support regions (and k-cosines)
    if (a[i].removed) continue;
    a[i].k = support(a, i);
    if (method == 4) a[i].s = k_cosine(a, i);
  }
  for (size_t i = 0; i < n; ++i) {  // pass 2: non-maximum suppression
    const size_t k2 = static_cast<size_t>(a[i].k) >> 1;
    size_t j = 1;
    for (; j <= k2; ++j)
      if (a[back(i, j, n)].s > a[i].s || a[ahead(i, j, n)].s > a[i].s) break;
    if (j <= k2) a[i].s = 0, a[i].removed = true;
  }
  for (size_t i = 0; i < n; ++i) {  // pass 3: non-dominant points with a one-point region
    if (a[i].removed || a[i].k != 1) continue;
    const size_t i1 = i == 0 ? n - 1 : i - 1, i2 = i + 1 < n ? i + 1 : 0;
    if (a[i].s <= a[i1].s || a[i].s <= a[i2].s) a[i].s = 0, a[i].removed = true;
  }
  if (method == 3) {  // pass 4 (L1): runs of neighbouring survivors keep one point
    size_t start = 0;
    bool skip = false;
    if (a[0].s != 0 && a[n - 1].s != 0) skip = !new_start(a, start);
    if (!skip) cleanup(a, start);
  }
  pts.resize(first);
  for (const Item& it : a)
    if (!it.removed) pts.push_back(it.x), pts.push_back(it.y);
  if (a.capacity() > (size_t(1) << 20)) a = {}, code = {};  // a huge border's tables go back
}

}  // namespace mnn::ops::contours
