// CPU kernel of goodFeaturesToTrack's corner selection (shape rule: ops/cv/features.cpp), as cv2
// does it: candidates are the inner pixels (not on the image border) whose thresholded response is
// non-zero and equals its 3x3 dilation (a local maximum) and that the mask allows; they are taken
// strongest first (equal responses: the later pixel first, cv2's comparison of pointers), each
// kept unless a kept corner lies closer than minDistance (looked up in a grid of minDistance-sized
// cells), until maxCorners are kept. Compiled once per ISA; comparisons only, so every ISA agrees.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

class GfttSelectKernel final : public backend::Kernel {
 public:
  explicit GfttSelectKernel(const backend::StepDesc& s)
      : h_(int(s.inputs[0].shape[0])), w_(int(s.inputs[0].shape[1])), has_mask_(s.inputs.size() == 3),
        max_corners_(s.params->ints[0]), cap_(s.params->ints[1]), min_dist_(s.params->floats[0]) {}

  void run(char* const* in, char* out) override {
    const float* eig = reinterpret_cast<const float*>(in[0]);
    const float* dil = reinterpret_cast<const float*>(in[1]);
    const uint8_t* mask = has_mask_ ? reinterpret_cast<const uint8_t*>(in[2]) : nullptr;
    float* res = reinterpret_cast<float*>(out);
    res[0] = res[1] = res[2] = 0.f;
    std::vector<int> cand;
    for (int y = 1; y < h_ - 1; ++y)
      for (int x = 1; x < w_ - 1; ++x) {
        const int o = y * w_ + x;
        const float v = eig[o];
        if (v != 0 && v == dil[o] && (!mask || mask[o])) cand.push_back(o);
      }
    std::sort(cand.begin(), cand.end(), [&](int a, int b) { return eig[a] > eig[b] || (eig[a] == eig[b] && a > b); });
    const int64_t limit = std::min<int64_t>(max_corners_ > 0 ? max_corners_ : INT64_MAX, cap_);
    int64_t n = 0;
    auto keep = [&](int o) {
      float* r = res + 3 * (n + 1);
      r[0] = float(o % w_), r[1] = float(o / w_), r[2] = eig[o];
      return ++n >= limit;
    };
    if (min_dist_ >= 1) {
      const int cell = int(std::floor(min_dist_ + 0.5));  // cvRound of a positive value
      const int gw = (w_ + cell - 1) / cell, gh = (h_ + cell - 1) / cell;
      std::vector<std::vector<std::pair<float, float>>> grid(size_t(gw) * size_t(gh));
      const double md2 = min_dist_ * min_dist_;
      for (int o : cand) {
        const int y = o / w_, x = o % w_;
        const int xc = x / cell, yc = y / cell;
        bool good = true;
        for (int yy = std::max(0, yc - 1); good && yy <= std::min(gh - 1, yc + 1); ++yy)
          for (int xx = std::max(0, xc - 1); good && xx <= std::min(gw - 1, xc + 1); ++xx)
            for (const auto& m : grid[size_t(yy) * gw + xx]) {
              const float dx = float(x) - m.first, dy = float(y) - m.second;
              if (double(dx * dx + dy * dy) < md2) {
                good = false;
                break;
              }
            }
        if (!good) continue;
        grid[size_t(yc) * gw + xc].emplace_back(float(x), float(y));
        if (keep(o)) break;
      }
    } else {
      for (int o : cand)
        if (keep(o)) break;
    }
    res[0] = float(n);
  }

 private:
  int h_, w_;
  bool has_mask_;
  int64_t max_corners_, cap_;
  double min_dist_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<GfttSelectKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_gftt_select, "cv_gftt_select", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
