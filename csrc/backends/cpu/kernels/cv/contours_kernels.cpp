// CPU kernels of findContours and connectedComponents[WithStats] (shape rules: ops/cv/contours.cpp).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

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
    auto r = ops::contours::take_contours(reinterpret_cast<const uint8_t*>(in[0]), h_, w_, mode_, method_, ox_, oy_);
    std::memcpy(out, r->data(), sizeof(int32_t) * static_cast<size_t>(std::min<int64_t>(n_, r->size())));
  }

 private:
  int mode_, method_, ox_, oy_;
  int64_t h_, w_, n_;
};

// Union-find over provisional labels; the smaller label is always the root, so a component's root
// is its first provisional label.
struct UnionFind {
  std::vector<int32_t> parent{0};
  int32_t make() {
    parent.push_back(static_cast<int32_t>(parent.size()));
    return parent.back();
  }
  int32_t find(int32_t a) {
    while (parent[static_cast<size_t>(a)] != a) {
      parent[static_cast<size_t>(a)] = parent[static_cast<size_t>(parent[static_cast<size_t>(a)])];
      a = parent[static_cast<size_t>(a)];
    }
    return a;
  }
  int32_t unite(int32_t a, int32_t b) {
    a = find(a), b = find(b);
    if (a == b) return a;
    if (a > b) std::swap(a, b);
    parent[static_cast<size_t>(b)] = a;
    return a;
  }
};

// Two-pass labelling. cv2's final labels number the components in the order its scan first meets
// them: pixel raster order for 4-connectivity, but 2x2-block order for 8-connectivity (its
// Spaghetti/BBDT scan visits row pairs block by block), so the renumbering pass walks that order.
class ComponentsKernel final : public backend::Kernel {
 public:
  explicit ComponentsKernel(const backend::StepDesc& s) {
    conn8_ = s.params->ints[0] == 8;
    u16_ = s.params->ints[1] == 2;
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1];
  }
  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    const int64_t h = h_, w = w_;
    std::vector<int32_t> lab(static_cast<size_t>(h * w), 0);
    UnionFind uf;
    for (int64_t y = 0; y < h; ++y) {
      const uint8_t* row = src + y * w;
      int32_t* l = lab.data() + y * w;
      const int32_t* up = y ? l - w : nullptr;
      for (int64_t x = 0; x < w; ++x) {
        if (!row[x]) continue;
        int32_t v = 0;
        auto join = [&](int32_t o) {
          if (o) v = v ? uf.unite(v, o) : o;
        };
        if (x) join(l[x - 1]);
        if (up) {
          join(up[x]);
          if (conn8_) {
            if (x) join(up[x - 1]);
            if (x + 1 < w) join(up[x + 1]);
          }
        }
        l[x] = v ? v : uf.make();
      }
    }
    std::vector<int32_t> final_label(uf.parent.size(), 0);
    int32_t next = 1;
    auto visit = [&](int64_t i) {
      int32_t v = lab[static_cast<size_t>(i)];
      if (!v) return;
      int32_t r = uf.find(v);
      if (!final_label[static_cast<size_t>(r)]) final_label[static_cast<size_t>(r)] = next++;
    };
    if (conn8_) {
      for (int64_t y = 0; y < h; y += 2)
        for (int64_t x = 0; x < w; ++x) {
          visit(y * w + x);
          if (y + 1 < h) visit((y + 1) * w + x);
        }
    } else {
      for (int64_t i = 0; i < h * w; ++i) visit(i);
    }
    for (int64_t i = 0; i < h * w; ++i) {
      int32_t v = lab[static_cast<size_t>(i)];
      int32_t f = v ? final_label[static_cast<size_t>(uf.find(v))] : 0;
      if (u16_) reinterpret_cast<uint16_t*>(out)[i] = static_cast<uint16_t>(f);
      else reinterpret_cast<int32_t*>(out)[i] = f;
    }
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
    const int64_t n = n_;
    std::vector<int64_t> x0(n, INT_MAX), y0(n, INT_MAX), x1(n, INT_MIN), y1(n, INT_MIN), area(n, 0);
    std::vector<double> sx(n, 0.0), sy(n, 0.0);
    for (int64_t y = 0; y < h_; ++y)
      for (int64_t x = 0; x < w_; ++x) {
        int64_t l = u16_ ? reinterpret_cast<const uint16_t*>(in[0])[y * w_ + x]
                         : reinterpret_cast<const int32_t*>(in[0])[y * w_ + x];
        if (l < 0 || l >= n) continue;
        x0[l] = std::min(x0[l], x), x1[l] = std::max(x1[l], x);
        y0[l] = std::min(y0[l], y), y1[l] = std::max(y1[l], y);
        ++area[l];
        sx[l] += static_cast<double>(x), sy[l] += static_cast<double>(y);
      }
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
  int64_t n_, h_, w_;
  bool u16_;
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
