// CPU kernel of cv2.stackBlur (shape rule: ops/cv/stackblur.cpp): a horizontal then a vertical pass
// of the triangular ("stack") kernel of radius r, weights 1, 2, .., r+1, .., 1, border replicated,
// divided by (r+1)^2. Compiled once per ISA; plain loops, exact integer or ordered float arithmetic,
// so every ISA gives the scalar build's bits.
//
// cv2's answer depends on which of its code paths computes an element, and this kernel reproduces
// that choice element by element (as cv2 runs on one thread, where the vertical pass is one stripe):
//  - the division: cv2's SIMD loops multiply by a table value and shift (mul / 2^shr ~ 1 / (r+1)^2,
//    shr the largest shift whose mul = ceil(2^shr / (r+1)^2) stays <= 512), while its scalar loops
//    multiply by the float 1 / (r+1)^2 and truncate (or round, in the horizontal sliding loop);
//  - which elements the SIMD loops cover: whole vectors of 16 bytes (16 uint8, 8 16-bit or 4 float
//    lanes) from the start of the range, the rest scalar;
//  - the float order of the horizontal 3-tap SIMD sum ((2x + left) + right) vs the scalar 2x + (right + left);
//  - the 16-bit horizontal vector loop for 5+ taps adding each pair of taps in 16-bit lanes, saturating.
// Horizontal: kernels up to 9 taps on rows wider than the kernel take the direct form; larger ones
// (or narrow rows) the sliding-sum form with running differences. Vertical: the sliding stack.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

// the table entry cv2 uses for radius r (r <= 254): the largest shift s with ceil(2^s / d) <= 512
void mul_shr(int r, int& mul, int& shr) {
  const int64_t d = int64_t(r + 1) * (r + 1);
  int s = 0;
  for (int t = 0; t < 40; ++t) {
    const int64_t m = ((int64_t(1) << t) + d - 1) / d;
    if (m <= 512) s = t;
  }
  shr = s, mul = int(((int64_t(1) << s) + d - 1) / d);
}

template <class T>
T sat_round(float v) {  // cv2's saturate_cast<T>(float): round half to even, clamp
  if constexpr (std::is_same<T, float>::value) {
    return v;
  } else {
    const double lo = double(std::numeric_limits<T>::min()), hi = double(std::numeric_limits<T>::max());
    const double r = std::nearbyint(double(v));
    return T(r < lo ? lo : (r > hi ? hi : r));
  }
}

template <class T, class B>
T trunc_div(B s, float mulv) {  // cv2's (T)(sum * mulVal)
  return static_cast<T>(static_cast<float>(s) * mulv);
}

template <class T>
T table_div(int32_t s, int mul, int shr) {  // cv2's SIMD (sum * mul) >> shr, packed with saturation
  if constexpr (std::is_same<T, uint16_t>::value) {
    const uint32_t v = (uint32_t(s) * uint32_t(mul)) >> shr;
    return T(std::min<uint32_t>(v, 65535u));
  } else {
    const int32_t v = int32_t(uint32_t(s) * uint32_t(mul)) >> shr;  // int32 lanes wrap
    if constexpr (std::is_same<T, int16_t>::value) return T(std::max(-32768, std::min(32767, v)));
    else {  // uint8: int32 -> int16 (saturating), read as uint16, -> uint8 (saturating)
      const int16_t h = int16_t(std::max(-32768, std::min(32767, v)));
      return T(std::min<uint32_t>(uint16_t(h), 255u));
    }
  }
}

template <class T>
constexpr int lanes() { return int(16 / sizeof(T)); }

template <class T, class B>
void row_direct(const T* src, T* dst, int width, int cn, int r, float mulv) {
  const int ks = 2 * r + 1;
  std::vector<int> kv(static_cast<size_t>(ks), 0);
  for (int i = 0; i < ks; ++i) kv[i] = i <= r ? i + 1 : 2 * r - i + 1;
  const int* kx = kv.data() + r;
  const int wm = width - 1;
  for (int i = 0; i < r; ++i)
    for (int c = 0; c < cn; ++c) {
      B s = 0;
      for (int k = 0; k < ks; ++k) s += B(src[std::max(k - r + i, 0) * cn + c]) * B(kv[k]);
      dst[i * cn + c] = trunc_div<T>(s, mulv);
    }
  const int wcn = (width - r) * cn, L = lanes<T>();
  int wc = r * cn;
  // the elements cv2's vector loop covers: whole vectors from r*cn while they fit below wcn
  const int simd_end = wc + std::max(0, (wcn - wc) / L) * L;
  int mul = 0, shr = 0;
  mul_shr(r, mul, shr);
  // cv2's vector loop, computed tap by tap over the whole run so the compiler vectorises it (each
  // element still adds its taps in cv2's order)
  const int len = simd_end - wc;
  if (len > 0) {
    const T* __restrict x = src + wc;
    T* __restrict o = dst + wc;
    if constexpr (std::is_same<T, float>::value) {
      std::vector<float> acc(static_cast<size_t>(len), 0.f);
      float* __restrict s = acc.data();
      if (ks == 3) {
        for (int i = 0; i < len; ++i) s[i] = ((x[i] + x[i]) + x[i - cn]) + x[i + cn];
      } else {
        const float k0 = float(kx[0]);
        for (int i = 0; i < len; ++i) s[i] = x[i] * k0;
        for (int k = 1; k <= r; ++k) {
          const float kk = float(kx[k]);
          for (int i = 0; i < len; ++i) s[i] += (x[i - k * cn] + x[i + k * cn]) * kk;
        }
      }
      for (int i = 0; i < len; ++i) o[i] = s[i] * mulv;
    } else {
      std::vector<int32_t> acc(static_cast<size_t>(len), 0);
      int32_t* __restrict s = acc.data();
      for (int i = 0; i < len; ++i) s[i] = int32_t(x[i]) * kx[0];
      // cv2's 16-bit vector loop adds the two taps in 16-bit lanes (saturating) for kernels of 5+
      const bool sat16 = sizeof(T) == 2 && ks > 3;
      constexpr int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
      for (int k = 1; k <= r; ++k) {
        const int32_t kk = kx[k];
        if (sat16) {
          for (int i = 0; i < len; ++i)
            s[i] += std::max(lo, std::min(hi, int32_t(x[i - k * cn]) + int32_t(x[i + k * cn]))) * kk;
        } else {
          for (int i = 0; i < len; ++i) s[i] += (int32_t(x[i - k * cn]) + int32_t(x[i + k * cn])) * kk;
        }
      }
      for (int i = 0; i < len; ++i) o[i] = table_div<T>(s[i], mul, shr);
    }
    wc = simd_end;
  }
  for (; wc < wcn; ++wc) {
    B s = B(src[wc]) * B(kx[0]);
    for (int k = 1; k <= r; ++k) s += (B(src[wc + k * cn]) + B(src[wc - k * cn])) * B(kx[k]);
    dst[wc] = trunc_div<T>(s, mulv);
  }
  for (int i = wc / cn; i < width; ++i)
    for (int c = 0; c < cn; ++c) {
      B s = 0;
      for (int k = 0; k < ks; ++k) s += B(src[std::min(k - r + i, wm) * cn + c]) * B(kv[k]);
      dst[i * cn + c] = trunc_div<T>(s, mulv);
    }
}

template <class T, class B>
void row_sliding(const T* src, T* dst, int width, int cn, int r, float mulv, std::vector<B>& buf) {
  const int ks = 2 * r + 1, wm = width - 1;
  buf.assign(size_t(cn) * size_t(width + ks) + 2 * size_t(cn), B(0));
  B* dval = buf.data();
  B* sum = dval + cn;
  B* diff = sum + cn;
  const int cnr1 = cn * (r + 1), wcn = (width - r - 1) * cn;
  const int rmul = (r + 2) * (r + 1) / 2;
  for (int c = 0; c < cn; ++c) sum[c] += B(src[c]) * B(rmul);
  const T* p0 = src;
  for (int i = 0; i < r; ++i) {
    if (i < wm) p0 += cn;
    for (int c = 0; c < cn; ++c) {
      diff[i * cn + c] = B(p0[c]) - B(src[c]);
      dval[c] += diff[i * cn + c];
      sum[c] += B(p0[c]) * B(r - i);
    }
  }
  B* d0 = diff + r * cn;
  int idx = 0;
  for (; idx < wcn; ++idx, ++d0) d0[0] = B(src[idx + cnr1]) - B(src[idx]);
  p0 = src + idx;
  const T* p1 = src + (width - 1) * cn;
  int dist = width - idx / cn;
  for (int k = 0; k < r; ++k, d0 += cn) {
    for (int c = 0; c < cn; ++c) d0[c] = B(p1[c]) - B(p0[c]);
    if (dist >= k) p0 += cn, --dist;
  }
  d0 = diff + r * cn;
  for (int c = 0; c < cn; ++c) dval[c] += d0[c];
  d0 += cn;
  for (int i = 0; i < width; ++i, d0 += cn, dst += cn)
    for (int c = 0; c < cn; ++c) {
      dst[c] = sat_round<T>(static_cast<float>(sum[c]) * mulv);
      sum[c] += dval[c];
      dval[c] += (d0[c] - d0[c - cnr1]);
    }
}

// the vertical pass over columns [k0, k1) of the (in place) image; each column is independent, and
// whether cv2 divides it by table or by float depends only on its index (vector loop over the row)
template <class T, class B>
void column_pass(T* img, int height, int welem, int r, int k0, int k1) {
  const int ks = 2 * r + 1, hm = height - 1, n = k1 - k0;
  const float mulv = 1.0f / float((r + 1) * (r + 1));
  int mul = 0, shr = 0;
  if (r <= 254) mul_shr(r, mul, shr);
  const int L = lanes<T>();
  const int simd_end = (r <= 254) ? (welem / L) * L : 0;
  const int nsimd = std::max(0, std::min(n, simd_end - k0));  // this block's columns cv2 divides by table
  std::vector<B> sum(size_t(n), B(0)), sin(size_t(n), B(0)), sout(size_t(n), B(0));
  std::vector<T> stack(size_t(ks) * size_t(n));
  const T* sp = img + k0;
  for (int i = 0; i <= r; ++i)
    for (int k = 0; k < n; ++k) {
      stack[size_t(i) * n + k] = sp[k];
      sum[k] += B(sp[k]) * B(i + 1);
      sout[k] += B(sp[k]);
    }
  for (int i = 1; i <= r; ++i) {
    if (i <= hm) sp += welem;
    for (int k = 0; k < n; ++k) {
      const T t = sp[k];
      stack[size_t(i + r) * n + k] = t;
      sum[k] += B(t) * B(r - i + 1);
      sin[k] += B(t);
    }
  }
  int spos = r, yp = std::min(r, hm);
  T* dp = img + k0;
  const T* src = img + size_t(yp) * welem + k0;
  for (int i = 0; i < height; ++i) {
    int start = spos + ks - r;
    if (start >= ks) start -= ks;
    int sp1 = spos + 1;
    if (sp1 >= ks) sp1 = 0;
    if (yp < hm) ++yp, src += welem;
    T* __restrict st = stack.data() + size_t(start) * n;
    const T* __restrict s1 = stack.data() + size_t(sp1) * n;
    B* __restrict sm = sum.data();
    B* __restrict si = sin.data();
    B* __restrict so = sout.data();
    T* d = dp;  // may be the row src reads (the last rows, in place): written first, as cv2 does
    const T* sr = src;
    // output first (two branch-free loops, table then float division), then the stack update
    if constexpr (std::is_same<T, float>::value) {
      for (int k = 0; k < n; ++k) d[k] = sm[k] * mulv;
    } else {
      for (int k = 0; k < nsimd; ++k) d[k] = table_div<T>(int32_t(sm[k]), mul, shr);
      for (int k = nsimd; k < n; ++k) d[k] = trunc_div<T>(sm[k], mulv);
    }
    for (int k = 0; k < n; ++k) {
      const B o = B(st[k]), in = B(sr[k]), nx = B(s1[k]);
      sm[k] -= so[k];
      so[k] -= o;
      st[k] = sr[k];
      si[k] += in;
      sm[k] += si[k];
      so[k] += nx;
      si[k] -= nx;
    }
    dp += welem;
    if (++spos >= ks) spos = 0;
  }
}

template <class T, class B>
void stack_blur(const T* src, T* dst, int h, int w, int cn, int kw, int kh) {
  const int rw = kw / 2, rh = kh / 2, welem = w * cn;
  if (kw == 1) {
    std::memcpy(dst, src, sizeof(T) * size_t(h) * size_t(welem));
  } else {
    const float mulv = 1.0f / float((rw + 1) * (rw + 1));
    const bool direct = kw <= 9 && w > kw;
    parallel_for(h, std::max<int64_t>(1, 4096 / std::max(1, welem)), [&](int64_t r0, int64_t r1) {
      std::vector<B> buf;
      for (int64_t y = r0; y < r1; ++y) {
        const T* s = src + size_t(y) * welem;
        T* d = dst + size_t(y) * welem;
        if (direct) row_direct<T, B>(s, d, w, cn, rw, mulv);
        else row_sliding<T, B>(s, d, w, cn, rw, mulv, buf);
      }
    });
  }
  if (kh == 1 || rh == 0) return;
  // columns in blocks of whole vectors: each block is independent of the others
  const int64_t blocks = (welem + 63) / 64;
  parallel_for(blocks, std::max<int64_t>(1, 16384 / std::max(1, h * 64)), [&](int64_t b0, int64_t b1) {
    column_pass<T, B>(dst, h, welem, rh, int(b0 * 64), int(std::min<int64_t>(b1 * 64, welem)));
  });
}

class StackBlurKernel final : public backend::Kernel {
 public:
  explicit StackBlurKernel(const backend::StepDesc& s)
      : dt_(s.inputs[0].dtype), h_(int(s.inputs[0].shape[0])), w_(int(s.inputs[0].shape[1])),
        cn_(s.inputs[0].shape.size() == 3 ? int(s.inputs[0].shape[2]) : 1),
        kw_(int(s.params->ints[0])), kh_(int(s.params->ints[1])) {}
  void run(char* const* in, char* out) override {
    switch (dt_) {
      case DType::UInt8: return go<uint8_t, int32_t>(in[0], out);
      case DType::UInt16: return go<uint16_t, int32_t>(in[0], out);
      case DType::Int16: return go<int16_t, int32_t>(in[0], out);
      case DType::Float32: return go<float, float>(in[0], out);
      default: return;
    }
  }

 private:
  template <class T, class B>
  void go(const char* in, char* out) {
    if (h_ == 0 || w_ == 0 || cn_ == 0) return;
    stack_blur<T, B>(reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), h_, w_, cn_, kw_, kh_);
  }
  DType dt_;
  int h_, w_, cn_, kw_, kh_;
};

std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<StackBlurKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_stack_blur, "cv_stack_blur", &make);

}  // namespace mnn::cpu::MNN_ISA_NS
