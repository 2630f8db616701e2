// cv_preprocess kernel (ops/cv/preprocess.cpp): mnn.cv.dnn.Preprocess's pixel work in one pass.
//
// Per band of output rows: cv_resize's own uint8 INTER_LINEAR rows (resize_rows.h, so the bytes
// are cv2.resize's), then, while that band is still in L1, float32(v) * a[c] - b[c] per output
// channel (the same two float32 roundings as numpy's x.astype(float32) * a - b; the build has no
// FMA contraction), the R/B swap, and the stores straight into the NCHW planes or NHWC rows, with
// the letterbox padding around them. Against resize -> planar copy -> elementwise pass, the
// resized image and the planar copy never go to memory and are never read back. Plain stores:
// non-temporal ones for a 640x640 letterbox output (4.9 MB) measured ~10% slower here.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "backends/cpu/simd/cv/resize_rows.h"
#include "core/error.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

using namespace core;

namespace {

struct Cfg {
  int sh = 0, sw = 0, cn = 1, oh = 0, ow = 0, rh = 0, rw = 0, top = 0, left = 0;
  bool nchw = true, swap = false;
  int src_of[4] = {0, 1, 2, 3};             // output channel k reads source channel src_of[k]
  float a[4] = {}, b[4] = {}, pad[4] = {};  // per output channel; pad: a padded pixel's output
  float pa[32] = {}, pb[32] = {};           // NHWC: a and b of the floats of 8 pixels (8 * cn)
};

// numpy's float32 x * a - b: two roundings (no contraction into an FMA in this build)
inline float affine(uint8_t v, float a, float b) { return float(v) * a - b; }

#if defined(__AVX2__)
inline __m256 affine8(__m128i bytes8, __m256 a, __m256 b) {
  return _mm256_sub_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes8)), a), b);
}

// 3 interleaved channels, 8 pixels a step: source channel s's bytes are s, s + 3, ... of the
// step's 24, gathered from its first 16 bytes and its last 8 by one byte shuffle each.
int nchw3_avx2(const Cfg& c, const uint8_t* u, float* const* P) {
  __m128i mlo[3], mhi[3];
  __m256 va[3], vb[3];
  float* D[3];
  for (int s = 0; s < 3; ++s) {
    alignas(16) int8_t lo[16], hi[16];
    for (int j = 0; j < 16; ++j) lo[j] = hi[j] = -1;
    for (int i = 0; i < 8; ++i) {
      const int j = s + 3 * i;
      if (j < 16) lo[i] = static_cast<int8_t>(j);
      else hi[i] = static_cast<int8_t>(j - 16);
    }
    mlo[s] = _mm_load_si128(reinterpret_cast<const __m128i*>(lo));
    mhi[s] = _mm_load_si128(reinterpret_cast<const __m128i*>(hi));
  }
  for (int k = 0; k < 3; ++k) {
    const int s = c.src_of[k];
    va[s] = _mm256_set1_ps(c.a[k]);
    vb[s] = _mm256_set1_ps(c.b[k]);
    D[s] = P[k];
  }
  int x = 0;
  for (; x + 8 <= c.rw; x += 8) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(u + 3 * x));
    const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(u + 3 * x + 16));
    for (int s = 0; s < 3; ++s) {
      const __m128i v = _mm_or_si128(_mm_shuffle_epi8(lo, mlo[s]), _mm_shuffle_epi8(hi, mhi[s]));
      _mm256_storeu_ps(D[s] + x, affine8(v, va[s], vb[s]));
    }
  }
  return x;
}

// 4 channels, 8 pixels a step: an in-lane 4x4 byte transpose and a dword permute leave each
// channel's 8 bytes in one 64-bit quarter.
int nchw4_avx2(const Cfg& c, const uint8_t* u, float* const* P) {
  const __m256i tr = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
  const __m256i join = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  __m256 va[4], vb[4];
  float* D[4];
  for (int k = 0; k < 4; ++k) {
    const int s = c.src_of[k];
    va[s] = _mm256_set1_ps(c.a[k]);
    vb[s] = _mm256_set1_ps(c.b[k]);
    D[s] = P[k];
  }
  int x = 0;
  for (; x + 8 <= c.rw; x += 8) {
    const __m256i t = _mm256_permutevar8x32_epi32(
        _mm256_shuffle_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(u + 4 * x)), tr), join);
    const __m128i lo = _mm256_castsi256_si128(t), hi = _mm256_extracti128_si256(t, 1);
    _mm256_storeu_ps(D[0] + x, affine8(lo, va[0], vb[0]));
    _mm256_storeu_ps(D[1] + x, affine8(_mm_srli_si128(lo, 8), va[1], vb[1]));
    _mm256_storeu_ps(D[2] + x, affine8(hi, va[2], vb[2]));
    _mm256_storeu_ps(D[3] + x, affine8(_mm_srli_si128(hi, 8), va[3], vb[3]));
  }
  return x;
}

int nchw1_avx2(const Cfg& c, const uint8_t* u, float* const* P) {
  const __m256 va = _mm256_set1_ps(c.a[0]), vb = _mm256_set1_ps(c.b[0]);
  int x = 0;
  for (; x + 8 <= c.rw; x += 8)
    _mm256_storeu_ps(P[0] + x, affine8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(u + x)), va, vb));
  return x;
}
#endif

// Output row y of every plane from one resized row u (rw pixels, source channel order).
void emit_nchw(const Cfg& c, const uint8_t* u, float* out, int64_t y) {
  const size_t plane = size_t(c.oh) * c.ow;
  float* P[4];
  for (int k = 0; k < c.cn; ++k) {
    float* row = out + k * plane + size_t(y) * c.ow;
    std::fill(row, row + c.left, c.pad[k]);
    std::fill(row + c.left + c.rw, row + c.ow, c.pad[k]);
    P[k] = row + c.left;
  }
  int x = 0;
#if defined(__AVX2__)
  x = c.cn == 3 ? nchw3_avx2(c, u, P) : c.cn == 4 ? nchw4_avx2(c, u, P) : nchw1_avx2(c, u, P);
#endif
  const int cn = c.cn;
  for (; x < c.rw; ++x)
    for (int k = 0; k < cn; ++k) P[k][x] = affine(u[x * cn + c.src_of[k]], c.a[k], c.b[k]);
}

// Output row y (NHWC) from one resized row u; tmp (rw * cn bytes) takes the swapped channels.
void emit_nhwc(const Cfg& c, const uint8_t* u, float* out, int64_t y, uint8_t* tmp, const float* pad_row) {
  const int cn = c.cn, n = c.rw * cn;
  float* R = out + size_t(y) * c.ow * cn;
  std::memcpy(R, pad_row, sizeof(float) * size_t(c.left) * cn);
  std::memcpy(R + size_t(c.left + c.rw) * cn, pad_row, sizeof(float) * size_t(c.ow - c.left - c.rw) * cn);
  if (c.swap) {
    for (int x = 0; x < c.rw; ++x)
      for (int k = 0; k < cn; ++k) tmp[x * cn + k] = u[x * cn + c.src_of[k]];
    u = tmp;
  }
  float* D = R + size_t(c.left) * cn;
  int i = 0;
#if defined(__AVX2__)
  // 8 pixels a step: cn vectors of 8 floats, each with its own fixed channel pattern of a and b
  for (; i + 8 * cn <= n; i += 8 * cn)
    for (int k = 0; k < cn; ++k)
      _mm256_storeu_ps(D + i + 8 * k, affine8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(u + i + 8 * k)),
                                              _mm256_loadu_ps(c.pa + 8 * k), _mm256_loadu_ps(c.pb + 8 * k)));
#endif
  for (; i < n; ++i) D[i] = affine(u[i], c.a[i % cn], c.b[i % cn]);
}

class PreprocessKernel final : public backend::Kernel {
 public:
  explicit PreprocessKernel(const backend::StepDesc& s) {
    const Params& p = *s.params;
    const Shape& in = s.inputs[0].shape;
    Cfg& c = c_;
    c.sh = static_cast<int>(in[0]);
    c.sw = static_cast<int>(in[1]);
    c.cn = in.size() == 3 ? static_cast<int>(in[2]) : 1;
    c.oh = static_cast<int>(p.ints[0]);
    c.ow = static_cast<int>(p.ints[1]);
    c.rh = static_cast<int>(p.ints[2]);
    c.rw = static_cast<int>(p.ints[3]);
    c.top = static_cast<int>(p.ints[4]);
    c.left = static_cast<int>(p.ints[5]);
    c.nchw = p.ints[6] != 0;
    c.swap = p.ints[7] != 0 && c.cn >= 3;
    if (c.swap) c.src_of[0] = 2, c.src_of[2] = 0;
    const int cn = c.cn;
    for (int k = 0; k < cn; ++k) {
      c.a[k] = static_cast<float>(p.floats[2 + k]);
      c.b[k] = static_cast<float>(p.floats[2 + cn + k]);
      // the padding value is given per source channel: Preprocess pads before it swaps R and B
      c.pad[k] = affine(static_cast<uint8_t>(p.floats[2 + 2 * cn + c.src_of[k]]), c.a[k], c.b[k]);
    }
    for (int i = 0; i < 8 * cn; ++i) c.pa[i] = c.a[i % cn], c.pb[i] = c.b[i % cn];
    if (!c.nchw) {
      pad_row_.resize(size_t(c.ow) * cn);
      for (size_t i = 0; i < pad_row_.size(); ++i) pad_row_[i] = c.pad[i % cn];
    }
    const double isx = p.floats[0], isy = p.floats[1];
    if (c.rh != c.sh || c.rw != c.sw) {
      rows_ = make_linear_rows_u8(c.sh, c.sw, cn, c.rh, c.rw, isx, isy);
      if (!rows_) {
        // cv2's 2x downscale is INTER_AREA: cv_resize's own kernel makes the whole image first
        const prims::CpuPrepareFn* prep = prims::find_cpu_kernel("cv_resize");
        if (!prep) throw NotImplementedError("[mnn.cv.dnn.Preprocess] no cv_resize kernel");
        whole_params_.ints = {c.rh, c.rw, 1};
        whole_params_.floats = {isx, isy};
        backend::StepDesc d;
        d.op = s.op;
        d.params = &whole_params_;
        d.inputs.push_back({DType::UInt8, Shape{c.sh, c.sw, cn}, {int64_t(c.sw) * cn, cn, 1}});
        d.output = {DType::UInt8, Shape{c.rh, c.rw, cn}, {int64_t(c.rw) * cn, cn, 1}};
        whole_ = (*prep)(d);
      }
    }
    // rows per band: the band's resized bytes stay in L1 next to the resize's own row buffers.
    // No software prefetch of the next band's source rows: bursts ahead by 1 to 3 bands, to L1 or
    // L2, whole rows or their first lines, measured no faster on the cold 1080p -> 224 case
    // (within this machine's noise, often slower), as resize.cpp found for its own loop.
    band_ = std::max(1, std::min(16, 8192 / std::max(1, c.rw * cn)));
  }

  void run(char* const* in, char* out) override {
    const Cfg& c = c_;
    const uint8_t* src = reinterpret_cast<const uint8_t*>(in[0]);
    float* dst = reinterpret_cast<float*>(out);
    const size_t rstep = size_t(c.rw) * c.cn;
    const uint8_t* resized = src;  // rows_ == nullptr: the image itself, or the whole resize below
    std::unique_ptr<uint8_t[]> whole;
    if (whole_) {
      whole.reset(new uint8_t[size_t(c.rh) * rstep]);
      whole_->run(in, reinterpret_cast<char*>(whole.get()));
      resized = whole.get();
    }
    const ResizeRowsU8* rows = rows_.get();
    const int band = band_;
    const float* pad_row = pad_row_.data();
    parallel_for(c.oh, std::max(band, 8), [&](int64_t y0, int64_t y1) {
      std::vector<uint8_t> buf(rows ? size_t(band) * rstep : 0);
      std::vector<uint8_t> tmp(c.nchw ? 0 : rstep);
      auto emit = [&](const uint8_t* u, int64_t y) {
        if (c.nchw) emit_nchw(c, u, dst, y);
        else emit_nhwc(c, u, dst, y, tmp.data(), pad_row);
      };
      for (int64_t y = y0; y < y1;) {
        if (y < c.top || y >= c.top + c.rh) {
          pad_out_row(dst, y);
          ++y;
          continue;
        }
        const int64_t r0 = y - c.top;
        int64_t r1 = std::min<int64_t>(y1 - c.top, c.rh);
        if (rows) {
          r1 = std::min<int64_t>(r1, r0 + band);
          rows->rows(src, buf.data(), r0, r1);
          for (int64_t r = r0; r < r1; ++r) emit(buf.data() + size_t(r - r0) * rstep, c.top + r);
        } else {
          for (int64_t r = r0; r < r1; ++r) emit(resized + size_t(r) * rstep, c.top + r);
        }
        y = c.top + r1;
      }
    });
  }

 private:
  void pad_out_row(float* out, int64_t y) const {
    const Cfg& c = c_;
    if (c.nchw) {
      for (int k = 0; k < c.cn; ++k) {
        float* row = out + size_t(k) * c.oh * c.ow + size_t(y) * c.ow;
        std::fill(row, row + c.ow, c.pad[k]);
      }
    } else {
      std::memcpy(out + size_t(y) * c.ow * c.cn, pad_row_.data(), sizeof(float) * pad_row_.size());
    }
  }

  Cfg c_;
  std::unique_ptr<ResizeRowsU8> rows_;
  std::unique_ptr<backend::Kernel> whole_;
  Params whole_params_;
  std::vector<float> pad_row_;
  int band_ = 1;
};

std::unique_ptr<backend::Kernel> prepare_preprocess(const backend::StepDesc& s) {
  if (s.inputs[0].dtype != DType::UInt8 || s.output.dtype != DType::Float32)
    throw ValueError("[mnn.cv.dnn.Preprocess] cv_preprocess takes uint8 and gives float32");
  return std::make_unique<PreprocessKernel>(s);
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_preprocess, "cv_preprocess", &prepare_preprocess);

}  // namespace mnn::cpu::MNN_ISA_NS
