// CPU kernel of cv_convex_hull (shape rule: ops/cv/contours.cpp): cv2's convexHull, i.e. Sklansky's
// scan over the points sorted by (x, y, index), run on four quarters (from the leftmost and the
// rightmost point to the lowest and the highest), then cv2's cyclic shift that makes the indices
// ascend or descend where it can. Float points compare normalised edge vectors, as cv2 does.
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

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_convex_hull, "cv_convex_hull", &prepare_convex_hull);

}  // namespace mnn::cpu
