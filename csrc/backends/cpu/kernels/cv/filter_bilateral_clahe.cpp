// CPU kernel of CLAHE (shape rule: ops/cv/filter_ops.cpp). bilateralFilter, once here, is a per-ISA
// kernel now: simd/cv/bilateral.cpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cfloat>
#include <cstring>
#include <limits>
#include <vector>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

inline int64_t border_index(int64_t p, int64_t n, int mode) {
  if (p >= 0 && p < n) return p;
  if (n == 1) return 0;
  switch (mode & 15) {
    case 1: return p < 0 ? 0 : n - 1;
    case 2:
      do { p = p < 0 ? -p - 1 : 2 * n - p - 1; } while (p < 0 || p >= n);
      return p;
    case 3:
      p %= n;
      return p < 0 ? p + n : p;
    default:
      do { p = p < 0 ? -p : 2 * n - p - 2; } while (p < 0 || p >= n);
      return p;
  }
}

// CLAHE (cv2's algorithm; 8-bit images use 256 bins, 16-bit ones 65536): the image is cut into
// tiles_x x tiles_y tiles (padded with BORDER_REFLECT_101 to a multiple of the grid); each tile's
// histogram is clipped at int(clip * area / bins) (at least 1), the excess redistributed evenly
// (remainder spread with a stride), its cumulative sum scaled by (bins - 1) / area; pixels blend
// the four nearest tiles' mappings bilinearly (float weights, cvRound).
class ClaheKernel final : public backend::Kernel {
 public:
  explicit ClaheKernel(const backend::StepDesc& s) {
    tx_ = s.params->ints[0], ty_ = s.params->ints[1];
    clip_ = s.params->floats[0];
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1];
    u16_ = s.inputs[0].dtype == DType::UInt16;
  }
  void run(char* const* in, char* out) override {
    if (u16_) run_typed<uint16_t, 65536>(reinterpret_cast<const uint16_t*>(in[0]), reinterpret_cast<uint16_t*>(out));
    else run_typed<uint8_t, 256>(reinterpret_cast<const uint8_t*>(in[0]), reinterpret_cast<uint8_t*>(out));
  }

 private:
  template <class T, int64_t N>
  void run_typed(const T* src, T* dst) {
    const int64_t h = h_, w = w_, tx = tx_, ty = ty_;
    const float top = static_cast<float>(N - 1);
    auto saturate = [top](float v) { return static_cast<T>(std::min(top, std::max(0.0f, std::nearbyint(v)))); };
    // As cv2: when either side is not a multiple of the grid, BOTH sides grow by
    // (tiles - remainder), a whole extra tile where the remainder is 0.
    const bool padded = (w % tx) != 0 || (h % ty) != 0;
    const int64_t tw = padded ? (w + tx - w % tx) / tx : w / tx;
    const int64_t th = padded ? (h + ty - h % ty) / ty : h / ty;
    const int64_t tile_area = tw * th;
    int64_t clip = 0;
    if (clip_ > 0) clip = std::max<int64_t>(static_cast<int64_t>(clip_ * tile_area / N), 1);
    const float lut_scale = top / static_cast<float>(tile_area);
    std::vector<T> luts(static_cast<size_t>(tx * ty * N));
    auto pix = [&](int64_t y, int64_t x) -> T {
      if (!padded) return src[y * w + x];
      return src[border_index(y, h, 4) * w + border_index(x, w, 4)];
    };
    parallel_for(tx * ty, 1, [&](int64_t lo, int64_t hi) {
      std::vector<int64_t> hist(static_cast<size_t>(N));  // 512 KiB at 16 bits: on the heap
      for (int64_t t = lo; t < hi; ++t) {
        std::fill(hist.begin(), hist.end(), 0);
        int64_t by = t / tx, bx = t % tx;
        for (int64_t y = by * th; y < (by + 1) * th; ++y)
          for (int64_t x = bx * tw; x < (bx + 1) * tw; ++x) ++hist[pix(y, x)];
        if (clip > 0) {
          int64_t excess = 0;
          for (auto& v : hist)
            if (v > clip) excess += v - clip, v = clip;
          int64_t batch = excess / N, residual = excess - batch * N;
          for (auto& v : hist) v += batch;
          if (residual != 0) {
            int64_t step = std::max<int64_t>(N / residual, 1);
            for (int64_t i = 0; i < N && residual > 0; i += step, --residual) ++hist[i];
          }
        }
        int64_t sum = 0;
        T* lut = &luts[static_cast<size_t>(t * N)];
        for (int64_t i = 0; i < N; ++i) {
          sum += hist[i];
          lut[i] = saturate(static_cast<float>(sum) * lut_scale);
        }
      }
    });
    const float inv_tw = 1.0f / static_cast<float>(tw), inv_th = 1.0f / static_cast<float>(th);
    parallel_for(h, 16, [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) {
        float tyf = static_cast<float>(y) * inv_th - 0.5f;
        int64_t ty1 = static_cast<int64_t>(std::floor(tyf)), ty2 = ty1 + 1;
        float ya = tyf - static_cast<float>(ty1), ya1 = 1.0f - ya;
        ty1 = std::max<int64_t>(ty1, 0);
        ty2 = std::min<int64_t>(ty2, ty - 1);
        for (int64_t x = 0; x < w; ++x) {
          float txf = static_cast<float>(x) * inv_tw - 0.5f;
          int64_t tx1 = static_cast<int64_t>(std::floor(txf)), tx2 = tx1 + 1;
          float xa = txf - static_cast<float>(tx1), xa1 = 1.0f - xa;
          tx1 = std::max<int64_t>(tx1, 0);
          tx2 = std::min<int64_t>(tx2, tx - 1);
          const size_t v = src[y * w + x];
          const T* l11 = &luts[static_cast<size_t>((ty1 * tx + tx1) * N)];
          const T* l12 = &luts[static_cast<size_t>((ty1 * tx + tx2) * N)];
          const T* l21 = &luts[static_cast<size_t>((ty2 * tx + tx1) * N)];
          const T* l22 = &luts[static_cast<size_t>((ty2 * tx + tx2) * N)];
          float res = (l11[v] * xa1 + l12[v] * xa) * ya1 + (l21[v] * xa1 + l22[v] * xa) * ya;
          dst[y * w + x] = saturate(res);
        }
      }
    });
  }

  int64_t tx_, ty_, h_, w_;
  double clip_;
  bool u16_;
};

std::unique_ptr<backend::Kernel> prepare_clahe(const backend::StepDesc& s) { return std::make_unique<ClaheKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_clahe, "cv_clahe", &prepare_clahe);

}  // namespace mnn::cpu
