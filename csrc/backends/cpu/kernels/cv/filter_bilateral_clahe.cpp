// CPU kernels of bilateralFilter and CLAHE (shape rules: ops/cv/filter_ops.cpp).
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

// A border-extended copy of an HxWxC image (r pixels each side), so the filter loops index
// without checks; BORDER_CONSTANT (mode 0) pads with zeros, which cv2 averages in like pixels.
template <class T>
std::vector<T> pad_image(const T* src, int64_t h, int64_t w, int64_t c, int64_t r, int mode) {
  const int64_t pw = w + 2 * r;
  std::vector<T> pad(static_cast<size_t>((h + 2 * r) * pw * c), T(0));
  for (int64_t y = 0; y < h + 2 * r; ++y) {
    const bool yin = y >= r && y < h + r;
    if (mode == 0 && !yin) continue;
    const int64_t sy = border_index(y - r, h, mode);
    for (int64_t x = 0; x < pw; ++x) {
      if (mode == 0 && (x < r || x >= w + r)) continue;
      const int64_t sx = border_index(x - r, w, mode);
      std::memcpy(&pad[(y * pw + x) * c], src + (sy * w + sx) * c, sizeof(T) * c);
    }
  }
  return pad;
}

// cv2's bilateral filter. 8-bit: float weights from tables (colour weight indexed by the summed
// absolute channel difference, space weight for offsets inside the disc of `radius`), float
// accumulation, cvRound of sum / wsum. float32: cv2's range kernel is a 4096-per-channel table
// over the value range of the border-extended image, read with linear interpolation; the centre
// pixel is left out of the loop and added with weight 1. A NaN pixel makes every output whose
// window holds it NaN (what cv2 5.0 gives; its NaN-skipping code is newer than that release).
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
        // the float path adds the centre itself, after the neighbours (as cv2)
        if (!u8_ && i == 0 && j == 0) continue;
        space_w_.push_back(static_cast<float>(std::exp(r * r * sc_)));
        dy_.push_back(i);
        dx_.push_back(j);
      }
    if (u8_)
      for (int64_t i = 0; i < 256 * c_; ++i) color_w_.push_back(static_cast<float>(std::exp(i * i * cc_)));
  }
  void run(char* const* in, char* out) override {
    if (u8_) run_u8(reinterpret_cast<const uint8_t*>(in[0]), reinterpret_cast<uint8_t*>(out));
    else run_f32(reinterpret_cast<const float*>(in[0]), reinterpret_cast<float*>(out));
  }

 private:
  std::vector<int64_t> offsets(int64_t pw) const {
    std::vector<int64_t> ofs(space_w_.size());
    for (size_t k = 0; k < ofs.size(); ++k) ofs[k] = (dy_[k] * pw + dx_[k]) * c_;
    return ofs;
  }

  void run_u8(const uint8_t* src, uint8_t* dst) {
    const int64_t r = radius_, h = h_, w = w_, c = c_, pw = w + 2 * r;
    std::vector<uint8_t> pad = pad_image(src, h, w, c, r, border_);
    const size_t nk = space_w_.size();
    const std::vector<int64_t> ofs = offsets(pw);
    auto store = [](float v) { return static_cast<uint8_t>(std::min(255.0f, std::max(0.0f, std::nearbyint(v)))); };
    parallel_for(h, 4, [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y)
        for (int64_t x = 0; x < w; ++x) {
          const uint8_t* p0 = &pad[((y + r) * pw + x + r) * c];
          uint8_t* o = dst + (y * w + x) * c;
          if (c == 1) {
            float sum = 0, wsum = 0;
            for (size_t k = 0; k < nk; ++k) {
              int v = p0[ofs[k]];
              float wgt = space_w_[k] * color_w_[static_cast<size_t>(std::abs(v - p0[0]))];
              sum += static_cast<float>(v) * wgt;
              wsum += wgt;
            }
            o[0] = store(sum / wsum);
          } else {
            float sb = 0, sg = 0, sr = 0, wsum = 0;
            for (size_t k = 0; k < nk; ++k) {
              const uint8_t* q = p0 + ofs[k];
              int d = std::abs(q[0] - p0[0]) + std::abs(q[1] - p0[1]) + std::abs(q[2] - p0[2]);
              float wgt = space_w_[k] * color_w_[static_cast<size_t>(d)];
              sb += static_cast<float>(q[0]) * wgt;
              sg += static_cast<float>(q[1]) * wgt;
              sr += static_cast<float>(q[2]) * wgt;
              wsum += wgt;
            }
            o[0] = store(sb / wsum);
            o[1] = store(sg / wsum);
            o[2] = store(sr / wsum);
          }
        }
    });
  }

  void run_f32(const float* src, float* dst) {
    const int64_t r = radius_, h = h_, w = w_, c = c_, pw = w + 2 * r;
    std::vector<float> pad = pad_image(src, h, w, c, r, border_);
    // cv2 takes the range of the padded image (so zero padding widens it), in double
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (float v : pad)
      if (!std::isnan(v)) lo = std::min(lo, static_cast<double>(v)), hi = std::max(hi, static_cast<double>(v));
    if (!(std::abs(lo - hi) >= FLT_EPSILON)) {  // a flat image (or an all-NaN one) comes back as it is
      std::memcpy(dst, src, sizeof(float) * static_cast<size_t>(h * w * c));
      return;
    }
    const int nbins = 4096 * static_cast<int>(c);
    const float len = static_cast<float>(hi - lo) * static_cast<float>(c);
    const float scale = static_cast<float>(nbins) / len;
    std::vector<float> lut(static_cast<size_t>(nbins + 2), 0.0f);
    for (int i = 0; i < nbins + 2; ++i) {
      const double v = static_cast<float>(i) / scale;  // float quotient, widened (as cv2)
      lut[i] = static_cast<float>(std::exp(v * v * cc_));
      if (!(lut[i] > 0.0f)) break;  // the rest stay 0
    }
    const size_t nk = space_w_.size();
    const std::vector<int64_t> ofs = offsets(pw);
    // Interpolated range weight of a summed absolute difference d (>= 0, or NaN: a NaN weight);
    // an index past the table (only float rounding at the range's ends can give one) reads its
    // last entry.
    auto range_w = [&](float d) {
      float a = d * scale;
      if (std::isnan(a)) return a;
      int idx = static_cast<int>(std::floor(a));
      if (idx >= nbins + 1) return lut[static_cast<size_t>(nbins + 1)];
      a -= static_cast<float>(idx);
      return lut[idx] + a * (lut[idx + 1] - lut[idx]);
    };
    parallel_for(h, 4, [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y)
        for (int64_t x = 0; x < w; ++x) {
          const float* p0 = &pad[((y + r) * pw + x + r) * c];
          float* o = dst + (y * w + x) * c;
          if (c == 1) {
            const float rv = p0[0];
            float sum = 0, wsum = 0;
            for (size_t k = 0; k < nk; ++k) {
              const float v = p0[ofs[k]];
              const float wgt = space_w_[k] * range_w(std::abs(v - rv));
              wsum += wgt;
              sum += v * wgt;
            }
            o[0] = (sum + rv) / (wsum + 1.0f);
          } else {
            const float rb = p0[0], rg = p0[1], rr = p0[2];
            float sb = 0, sg = 0, sr = 0, wsum = 0;
            for (size_t k = 0; k < nk; ++k) {
              const float* q = p0 + ofs[k];
              const float b = q[0], g = q[1], rd = q[2];
              const float d = std::abs(b - rb) + std::abs(g - rg) + std::abs(rd - rr);
              const float wgt = space_w_[k] * range_w(d);
              wsum += wgt;
              sb += b * wgt;
              sg += g * wgt;
              sr += rd * wgt;
            }
            const float ws1 = wsum + 1.0f;
            o[0] = (sb + rb) / ws1, o[1] = (sg + rg) / ws1, o[2] = (sr + rr) / ws1;
          }
        }
    });
  }

  int64_t radius_, h_, w_, c_;
  int border_;
  double cc_, sc_;
  bool u8_;
  std::vector<float> space_w_, color_w_;
  std::vector<int64_t> dy_, dx_;
};

std::unique_ptr<backend::Kernel> prepare_bilateral(const backend::StepDesc& s) { return std::make_unique<BilateralKernel>(s); }

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

MNN_REGISTER_CPU_KERNEL(cv_bilateral, "cv_bilateral", &prepare_bilateral);
MNN_REGISTER_CPU_KERNEL(cv_clahe, "cv_clahe", &prepare_clahe);

}  // namespace mnn::cpu
