// CPU kernel of cv_floodfill (shape rule: ops/cv/floodfill.cpp): the region is every pixel a
// chain of neighbours (4- or 8-connected) reaches from the seed, each step passing the range
// test, found with an explicit stack (inherently sequential; one thread). Comparisons are exact
// double arithmetic on the image's values, so every ISA gives the same region.
#include <cstdint>
#include <cstring>
#include <vector>

#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

class FloodKernel final : public backend::Kernel {
 public:
  explicit FloodKernel(const backend::StepDesc& s)
      : H_(s.inputs[0].shape[0]), W_(s.inputs[0].shape[1]), C_(s.inputs[0].shape[2]),
        sx_(s.params->ints[0]), sy_(s.params->ints[1]), conn_(int(s.params->ints[2])),
        fixed_(s.params->ints[3] != 0), lu_(s.params->floats) {}

  void run(char* const* in, char* out) override {
    const double* img = reinterpret_cast<const double*>(in[0]);
    const uint8_t* block = reinterpret_cast<const uint8_t*>(in[1]);
    uint8_t* r = reinterpret_cast<uint8_t*>(out);
    const int64_t n = H_ * W_;
    std::memset(r, 0, size_t(n));
    const int64_t seed = sy_ * W_ + sx_;
    if (block[seed]) return;
    std::vector<int64_t> stack{seed};
    r[seed] = 1;
    const double* sv = img + seed * C_;
    static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
    static const int dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
    while (!stack.empty()) {
      const int64_t p = stack.back();
      stack.pop_back();
      const int64_t py = p / W_, px = p % W_;
      const double* ref = fixed_ ? sv : img + p * C_;
      for (int k = 0; k < conn_; ++k) {
        const int64_t qx = px + dx[k], qy = py + dy[k];
        if (qx < 0 || qy < 0 || qx >= W_ || qy >= H_) continue;
        const int64_t q = qy * W_ + qx;
        if (r[q] || block[q]) continue;
        const double* v = img + q * C_;
        bool ok = true;
        for (int64_t c = 0; c < C_ && ok; ++c) ok = v[c] >= ref[c] - lu_[size_t(c)] && v[c] <= ref[c] + lu_[size_t(C_ + c)];
        if (!ok) continue;
        r[q] = 1;
        stack.push_back(q);
      }
    }
  }

 private:
  int64_t H_, W_, C_, sx_, sy_;
  int conn_;
  bool fixed_;
  std::vector<double> lu_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<FloodKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_floodfill, "cv_floodfill", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
