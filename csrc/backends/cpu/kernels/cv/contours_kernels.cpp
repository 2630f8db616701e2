// CPU kernels of findContours and connectedComponents[WithStats] (shape rules: ops/cv/contours.cpp).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ops/cv/contours.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

// The shape rule already traced this image and left the result for us (ops/cv/contours.h); the
// kernel traces itself only when it runs on other data.
class FindContoursKernel final : public backend::Kernel {
 public:
  explicit FindContoursKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    mode_ = static_cast<int>(i[0]), method_ = static_cast<int>(i[1]), ox_ = static_cast<int>(i[2]),
    oy_ = static_cast<int>(i[3]);
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1];
    n_ = s.output.shape[0];
  }
  void run(char* const* in, char* out) override {
    auto r = ops::contours::take_contours(in[0], h_, w_, mode_, method_, ox_, oy_);
    const int64_t m = std::min<int64_t>(n_, static_cast<int64_t>(r->size()));
    std::memcpy(out, r->data(), sizeof(int32_t) * static_cast<size_t>(m));
    if (m < n_) std::memset(out + sizeof(int32_t) * m, 0, sizeof(int32_t) * static_cast<size_t>(n_ - m));
  }

 private:
  int mode_, method_, ox_, oy_;
  int64_t h_, w_, n_;
};

// Union-find over runs; the smaller index is always the root, so a component's root is its
// first run in raster order.
int32_t uf_find(std::vector<int32_t>& parent, int32_t a) {
  while (parent[static_cast<size_t>(a)] != a) {
    parent[static_cast<size_t>(a)] = parent[static_cast<size_t>(parent[static_cast<size_t>(a)])];
    a = parent[static_cast<size_t>(a)];
  }
  return a;
}

void uf_unite(std::vector<int32_t>& parent, int32_t a, int32_t b) {
  a = uf_find(parent, a), b = uf_find(parent, b);
  if (a == b) return;
  if (a > b) std::swap(a, b);
  parent[static_cast<size_t>(b)] = a;
}

// Bit k set where p[k] != 0, for the first n (<= 64) pixels.
inline uint64_t foreground_mask(const uint8_t* p, int64_t n) {
#if defined(__SSE2__)
  if (n == 64) {
    const __m128i z = _mm_setzero_si128();
    uint64_t zero = 0;
    for (int k = 0; k < 4; ++k)
      zero |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(
                  _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k)), z))))
              << (16 * k);
    return ~zero;
  }
#endif
  uint64_t m = 0;
  for (int64_t k = 0; k < n; ++k) m |= static_cast<uint64_t>(p[k] != 0) << k;
  return m;
}

// Run-based labelling: the foreground runs of each row are joined to the runs of the row above
// that touch them (overlap, or touch diagonally for 8-connectivity). cv2 numbers components in the
// order its scan first meets them: raster order of the first pixel for 4-connectivity, but
// 2x2-block order for 8-connectivity (its Spaghetti/BBDT scan visits row pairs block by block),
// i.e. by the smallest (y / 2, x / 2) of any pixel; a run's smallest is at its first pixel.
class ComponentsKernel final : public backend::Kernel {
  struct Scratch {
    std::vector<int32_t> rx0, rx1, ry, parent, final_label, roots;
    std::vector<int64_t> row_start, key;
  };
  static Scratch& scratch() {
    thread_local Scratch s;
    return s;
  }

 public:
  explicit ComponentsKernel(const backend::StepDesc& s) {
    conn8_ = s.params->ints[0] == 8;
    u16_ = s.params->ints[1] == 2;
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1];
  }
  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    const int64_t h = h_, w = w_;
    // The run tables live in the thread's scratch: a noise image has ~150k runs, and fresh
    // vectors each call (MBs, page-faulted in and trimmed back out) cost as much as the labelling.
    Scratch& sc = scratch();
    std::vector<int32_t>&rx0 = sc.rx0, &rx1 = sc.rx1, &ry = sc.ry;  // runs: [x0, x1) on row ry
    std::vector<int64_t>& row_start = sc.row_start;
    rx0.clear(), rx1.clear(), ry.clear();
    row_start.assign(static_cast<size_t>(h) + 1, 0);
    for (int64_t y = 0; y < h; ++y) {
      row_start[static_cast<size_t>(y)] = static_cast<int64_t>(rx0.size());
      const uint8_t* row = src + y * w;
      // Runs from 64-pixel masks: each set bit of mask ^ (mask << 1) is a run's start or end, in
      // turn. A pixel loop mispredicted at every run boundary (noise: runs of ~2 pixels).
      uint64_t carry = 0;  // the previous pixel's bit
      bool open = false;
      int32_t x0 = 0;
      for (int64_t x = 0; x < w; x += 64) {
        const uint64_t m = foreground_mask(row + x, std::min<int64_t>(64, w - x));
        uint64_t t = m ^ ((m << 1) | carry);
        carry = m >> 63;
        while (t) {
          const int32_t at = static_cast<int32_t>(x + __builtin_ctzll(t));
          t &= t - 1;
          if (!open) x0 = at;
          else rx0.push_back(x0), rx1.push_back(at), ry.push_back(static_cast<int32_t>(y));
          open = !open;
        }
      }
      if (open) rx0.push_back(x0), rx1.push_back(static_cast<int32_t>(w)), ry.push_back(static_cast<int32_t>(y));
    }
    row_start[static_cast<size_t>(h)] = static_cast<int64_t>(rx0.size());
    const int64_t nruns = static_cast<int64_t>(rx0.size());
    std::vector<int32_t>& parent = sc.parent;
    parent.resize(static_cast<size_t>(nruns));
    for (int64_t i = 0; i < nruns; ++i) parent[static_cast<size_t>(i)] = static_cast<int32_t>(i);
    const int32_t reach = conn8_ ? 1 : 0;  // how far a run reaches sideways into the row above
    for (int64_t y = 1; y < h; ++y) {
      int64_t j = row_start[static_cast<size_t>(y - 1)];
      const int64_t jend = row_start[static_cast<size_t>(y)];
      for (int64_t i = jend; i < row_start[static_cast<size_t>(y + 1)]; ++i) {
        const int32_t a0 = rx0[static_cast<size_t>(i)] - reach, a1 = rx1[static_cast<size_t>(i)] + reach;
        while (j < jend && rx1[static_cast<size_t>(j)] <= a0) ++j;  // runs above ending left of us
        for (int64_t k = j; k < jend && rx0[static_cast<size_t>(k)] < a1; ++k)
          uf_unite(parent, static_cast<int32_t>(i), static_cast<int32_t>(k));
      }
    }
    // Final numbers. A root is its component's first run in raster order, so walking the runs in
    // order meets every root before the rest of its component: each run's number is its root's.
    // 4-connectivity numbers components in that order; 8-connectivity sorts them by first-met
    // 2x2-block key.
    std::vector<int32_t>& final_label = sc.final_label;
    final_label.resize(static_cast<size_t>(nruns));
    if (!conn8_) {
      int32_t next = 0;
      for (int64_t i = 0; i < nruns; ++i) {
        const int32_t p = parent[static_cast<size_t>(i)];
        // p <= i; its root (< i unless p == i) was numbered already
        final_label[static_cast<size_t>(i)] =
            p == i ? ++next : final_label[static_cast<size_t>(uf_find(parent, p))];
      }
    } else {
      std::vector<int64_t>& key = sc.key;
      key.assign(static_cast<size_t>(nruns), INT64_MAX);
      for (int64_t i = 0; i < nruns; ++i) {
        int32_t r = uf_find(parent, static_cast<int32_t>(i));
        int64_t k = static_cast<int64_t>(ry[static_cast<size_t>(i)] / 2) * (w + 1) + rx0[static_cast<size_t>(i)] / 2;
        key[static_cast<size_t>(r)] = std::min(key[static_cast<size_t>(r)], k);
      }
      std::vector<int32_t>& roots = sc.roots;
      roots.clear();
      for (int64_t i = 0; i < nruns; ++i)
        if (parent[static_cast<size_t>(i)] == i) roots.push_back(static_cast<int32_t>(i));
      std::sort(roots.begin(), roots.end(),
                [&](int32_t a, int32_t b) { return key[static_cast<size_t>(a)] < key[static_cast<size_t>(b)]; });
      for (size_t k = 0; k < roots.size(); ++k) final_label[static_cast<size_t>(roots[k])] = static_cast<int32_t>(k + 1);
      for (int64_t i = 0; i < nruns; ++i)
        if (parent[static_cast<size_t>(i)] != i)
          final_label[static_cast<size_t>(i)] = final_label[static_cast<size_t>(uf_find(parent, static_cast<int32_t>(i)))];
    }
    if (u16_) std::memset(out, 0, sizeof(uint16_t) * static_cast<size_t>(h * w));
    else std::memset(out, 0, sizeof(int32_t) * static_cast<size_t>(h * w));
    for (int64_t i = 0; i < nruns; ++i) {
      const int32_t f = final_label[static_cast<size_t>(i)];
      const int64_t base = static_cast<int64_t>(ry[static_cast<size_t>(i)]) * w;
      if (u16_) std::fill(reinterpret_cast<uint16_t*>(out) + base + rx0[static_cast<size_t>(i)],
                          reinterpret_cast<uint16_t*>(out) + base + rx1[static_cast<size_t>(i)], static_cast<uint16_t>(f));
      else std::fill(reinterpret_cast<int32_t*>(out) + base + rx0[static_cast<size_t>(i)],
                     reinterpret_cast<int32_t*>(out) + base + rx1[static_cast<size_t>(i)], f);
    }
    // Oversized tables (a huge image) go back to the allocator rather than stay with the thread.
    if (rx0.capacity() > (size_t(4) << 20)) sc = Scratch{};
  }

 private:
  bool conn8_, u16_;
  int64_t h_, w_;
};

// Per label: bounding box, area and centroid (sums of coordinates in double, as cv2). A label with
// no pixels (the background of an all-foreground image) gets what cv2 reports for it:
// left -1, top INT_MAX, width = height = area = 0 and a NaN centroid.
class ComponentStatsKernel final : public backend::Kernel {
 public:
  explicit ComponentStatsKernel(const backend::StepDesc& s) {
    n_ = s.params->ints[0];
    u16_ = s.inputs[0].dtype == DType::UInt16;
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1];
  }
  void run(char* const* in, char* out) override {
    if (u16_) accumulate(reinterpret_cast<const uint16_t*>(in[0]));
    else accumulate(reinterpret_cast<const int32_t*>(in[0]));
    const int64_t n = n_;
    double* o = reinterpret_cast<double*>(out);
    for (int64_t l = 0; l < n; ++l, o += 7) {
      const bool empty = area[l] == 0;
      o[0] = empty ? -1.0 : static_cast<double>(x0[l]);
      o[1] = empty ? static_cast<double>(INT_MAX) : static_cast<double>(y0[l]);
      o[2] = empty ? 0.0 : static_cast<double>(x1[l] - x0[l] + 1);
      o[3] = empty ? 0.0 : static_cast<double>(y1[l] - y0[l] + 1);
      o[4] = static_cast<double>(area[l]);
      o[5] = sx[l] / static_cast<double>(area[l]);
      o[6] = sy[l] / static_cast<double>(area[l]);
    }
  }

 private:
  // Runs of one label update its box once and its coordinate sums in closed form.
  template <class L>
  void accumulate(const L* lab) {
    const int64_t n = n_;
    x0.assign(n, INT_MAX), y0.assign(n, INT_MAX), x1.assign(n, INT_MIN), y1.assign(n, INT_MIN), area.assign(n, 0);
    sx.assign(n, 0.0), sy.assign(n, 0.0);
    for (int64_t y = 0; y < h_; ++y) {
      const L* row = lab + y * w_;
      for (int64_t x = 0; x < w_;) {
        const int64_t l = static_cast<int64_t>(row[x]), a = x;
        while (x < w_ && row[x] == row[a]) ++x;
        if (l < 0 || l >= n) continue;
        const int64_t len = x - a;
        x0[l] = std::min(x0[l], a), x1[l] = std::max(x1[l], x - 1);
        y0[l] = std::min(y0[l], y), y1[l] = std::max(y1[l], y);
        area[l] += len;
        sx[l] += static_cast<double>((a + x - 1) * len / 2);
        sy[l] += static_cast<double>(y * len);
      }
    }
  }

  int64_t n_, h_, w_;
  bool u16_;
  std::vector<int64_t> x0, y0, x1, y1, area;
  std::vector<double> sx, sy;
};

std::unique_ptr<backend::Kernel> prepare_find_contours(const backend::StepDesc& s) {
  return std::make_unique<FindContoursKernel>(s);
}
std::unique_ptr<backend::Kernel> prepare_components(const backend::StepDesc& s) {
  return std::make_unique<ComponentsKernel>(s);
}
std::unique_ptr<backend::Kernel> prepare_component_stats(const backend::StepDesc& s) {
  return std::make_unique<ComponentStatsKernel>(s);
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_find_contours, "cv_find_contours", &prepare_find_contours);
MNN_REGISTER_CPU_KERNEL(cv_components, "cv_components", &prepare_components);
MNN_REGISTER_CPU_KERNEL(cv_component_stats, "cv_component_stats", &prepare_component_stats);

}  // namespace mnn::cpu
