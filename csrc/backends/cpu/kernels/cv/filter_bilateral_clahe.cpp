// CPU kernels of bilateralFilter and CLAHE (shape rules: ops/cv/filter_ops.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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

// cv2's bilateral filter on 8-bit images: float weights from tables (colour weight indexed by
// the summed absolute channel difference, space weight for offsets inside the disc of `radius`),
// float accumulation, cvRound of sum / wsum. Float images use exp of the scaled distance directly.
class BilateralKernel final : public backend::Kernel {
 public:
  explicit BilateralKernel(const backend::StepDesc& s) {
    radius_ = s.params->ints[0];
    border_ = static_cast<int>(s.params->ints[1]);
    cc_ = s.params->floats[0];
    sc_ = s.params->floats[1];
    const Shape& sh = s.inputs[0].shape;
    h_ = sh[0], w_ = sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
    u8_ = s.inputs[0].dtype == DType::UInt8;
    for (int64_t i = -radius_; i <= radius_; ++i)
      for (int64_t j = -radius_; j <= radius_; ++j) {
        double r = std::sqrt(static_cast<double>(i * i + j * j));
        if (r > radius_) continue;
        space_w_.push_back(static_cast<float>(std::exp(r * r * sc_)));
        dy_.push_back(i);
        dx_.push_back(j);
      }
    for (int64_t i = 0; i < 256 * c_; ++i) color_w_.push_back(static_cast<float>(std::exp(i * i * cc_)));
  }
  void run(char* const* in, char* out) override {
    if (u8_) run_typed(reinterpret_cast<const uint8_t*>(in[0]), reinterpret_cast<uint8_t*>(out));
    else run_typed(reinterpret_cast<const float*>(in[0]), reinterpret_cast<float*>(out));
  }

 private:
  template <class T>
  void run_typed(const T* src, T* dst) {
    const int64_t r = radius_, h = h_, w = w_, c = c_, pw = w + 2 * r;
    // A border-extended copy, so the inner loops index without checks.
    std::vector<T> pad(static_cast<size_t>((h + 2 * r) * pw * c));
    for (int64_t y = 0; y < h + 2 * r; ++y) {
      int64_t sy = border_index(y - r, h, border_);
      for (int64_t x = 0; x < pw; ++x) {
        int64_t sx = border_index(x - r, w, border_);
        std::memcpy(&pad[(y * pw + x) * c], src + (sy * w + sx) * c, sizeof(T) * c);
      }
    }
    const size_t nk = space_w_.size();
    std::vector<int64_t> ofs(nk);
    for (size_t k = 0; k < nk; ++k) ofs[k] = (dy_[k] * pw + dx_[k]) * c;
    parallel_for(h, 4, [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y)
        for (int64_t x = 0; x < w; ++x) {
          const T* p0 = &pad[((y + r) * pw + x + r) * c];
          T* o = dst + (y * w + x) * c;
          if (c == 1) {
            float sum = 0, wsum = 0;
            for (size_t k = 0; k < nk; ++k) {
              T v = p0[ofs[k]];
              float wgt = space_w_[k] * color_weight(std::abs(static_cast<float>(v) - static_cast<float>(p0[0])));
              sum += static_cast<float>(v) * wgt;
              wsum += wgt;
            }
            o[0] = store<T>(sum / wsum);
          } else {
            float sb = 0, sg = 0, sr = 0, wsum = 0;
            for (size_t k = 0; k < nk; ++k) {
              const T* q = p0 + ofs[k];
              float d = std::abs(static_cast<float>(q[0]) - static_cast<float>(p0[0])) +
                        std::abs(static_cast<float>(q[1]) - static_cast<float>(p0[1])) +
                        std::abs(static_cast<float>(q[2]) - static_cast<float>(p0[2]));
              float wgt = space_w_[k] * color_weight(d);
              sb += static_cast<float>(q[0]) * wgt;
              sg += static_cast<float>(q[1]) * wgt;
              sr += static_cast<float>(q[2]) * wgt;
              wsum += wgt;
            }
            o[0] = store<T>(sb / wsum);
            o[1] = store<T>(sg / wsum);
            o[2] = store<T>(sr / wsum);
          }
        }
    });
  }
  float color_weight(float d) const {
    if (u8_) return color_w_[static_cast<size_t>(d)];
    return static_cast<float>(std::exp(static_cast<double>(d) * d * cc_));
  }
  template <class T>
  static T store(float v) {
    if constexpr (std::is_same_v<T, float>) return v;
    else return static_cast<T>(std::min(255.0f, std::max(0.0f, std::nearbyint(v))));
  }

  int64_t radius_, h_, w_, c_;
  int border_;
  double cc_, sc_;
  bool u8_;
  std::vector<float> space_w_, color_w_;
  std::vector<int64_t> dy_, dx_;
};

std::unique_ptr<backend::Kernel> prepare_bilateral(const backend::StepDesc& s) { return std::make_unique<BilateralKernel>(s); }

// CLAHE (cv2's algorithm for 8-bit images): the image is cut into tiles_x x tiles_y tiles (padded
// with BORDER_REFLECT_101 to a multiple of the grid); each tile's histogram is clipped, the excess
// redistributed evenly (remainder spread with a stride), its cumulative sum scaled to 0..255;
// pixels blend the four nearest tiles' mappings bilinearly (float weights, cvRound).
class ClaheKernel final : public backend::Kernel {
 public:
  explicit ClaheKernel(const backend::StepDesc& s) {
    tx_ = s.params->ints[0], ty_ = s.params->ints[1];
    clip_ = s.params->floats[0];
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1];
  }
  void run(char* const* in, char* out) override {
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    uint8_t* dst = reinterpret_cast<uint8_t*>(out);
    const int64_t h = h_, w = w_, tx = tx_, ty = ty_;
    // As cv2: when either side is not a multiple of the grid, BOTH sides grow by
    // (tiles - remainder), a whole extra tile where the remainder is 0.
    const bool padded = (w % tx) != 0 || (h % ty) != 0;
    const int64_t tw = padded ? (w + tx - w % tx) / tx : w / tx;
    const int64_t th = padded ? (h + ty - h % ty) / ty : h / ty;
    const int64_t tile_area = tw * th;
    int64_t clip = 0;
    if (clip_ > 0) clip = std::max<int64_t>(static_cast<int64_t>(clip_ * tile_area / 256), 1);
    const float lut_scale = 255.0f / static_cast<float>(tile_area);
    std::vector<uint8_t> luts(static_cast<size_t>(tx * ty * 256));
    auto pix = [&](int64_t y, int64_t x) -> uint8_t {
      if (!padded) return src[y * w + x];
      return src[border_index(y, h, 4) * w + border_index(x, w, 4)];
    };
    parallel_for(tx * ty, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t t = lo; t < hi; ++t) {
        int64_t by = t / tx, bx = t % tx;
        int64_t hist[256] = {0};
        for (int64_t y = by * th; y < (by + 1) * th; ++y)
          for (int64_t x = bx * tw; x < (bx + 1) * tw; ++x) ++hist[pix(y, x)];
        if (clip > 0) {
          int64_t excess = 0;
          for (auto& v : hist)
            if (v > clip) excess += v - clip, v = clip;
          int64_t batch = excess / 256, residual = excess - batch * 256;
          for (auto& v : hist) v += batch;
          if (residual != 0) {
            int64_t step = std::max<int64_t>(256 / residual, 1);
            for (int64_t i = 0; i < 256 && residual > 0; i += step, --residual) ++hist[i];
          }
        }
        int64_t sum = 0;
        uint8_t* lut = &luts[static_cast<size_t>(t * 256)];
        for (int i = 0; i < 256; ++i) {
          sum += hist[i];
          float v = static_cast<float>(sum) * lut_scale;
          lut[i] = static_cast<uint8_t>(std::min(255.0f, std::max(0.0f, std::nearbyint(v))));
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
          int v = src[y * w + x];
          const uint8_t* l11 = &luts[static_cast<size_t>((ty1 * tx + tx1) * 256)];
          const uint8_t* l12 = &luts[static_cast<size_t>((ty1 * tx + tx2) * 256)];
          const uint8_t* l21 = &luts[static_cast<size_t>((ty2 * tx + tx1) * 256)];
          const uint8_t* l22 = &luts[static_cast<size_t>((ty2 * tx + tx2) * 256)];
          float res = (l11[v] * xa1 + l12[v] * xa) * ya1 + (l21[v] * xa1 + l22[v] * xa) * ya;
          dst[y * w + x] = static_cast<uint8_t>(std::min(255.0f, std::max(0.0f, std::nearbyint(res))));
        }
      }
    });
  }

 private:
  int64_t tx_, ty_, h_, w_;
  double clip_;
};

std::unique_ptr<backend::Kernel> prepare_clahe(const backend::StepDesc& s) { return std::make_unique<ClaheKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_bilateral, "cv_bilateral", &prepare_bilateral);
MNN_REGISTER_CPU_KERNEL(cv_clahe, "cv_clahe", &prepare_clahe);

}  // namespace mnn::cpu
