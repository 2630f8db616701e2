// CPU kernel of cv_pyramid (pyrDown / pyrUp; shape rule: ops/cv/filter_sep.cpp), compiled once
// per ISA. The arithmetic is cv2's, as the earlier cv_pyr kernel (kernels/cv/border.cpp) does it:
//
//   pyrDown: the 5x5 kernel [1 4 6 4 1]^T [1 4 6 4 1] at every second pixel, (sum + 128) >> 8;
//   pyrUp:   each source pixel spread over 2x2 outputs with taps [1 6 1] / [4 4] per axis,
//            (sum + 32) >> 6; index -1 reflects to 1 and index n repeats n - 1 (cv2's edges).
//
// Integer sums are exact, so their order is free: the vertical taps run first, over whole
// contiguous source rows (no ring, plain vector loops), then the horizontal taps on that one row,
// in 16-bit lanes for 8-bit images (the sums stay below 2^16) and 32-bit lanes otherwise. Float
// sums round, so float images keep the earlier order bit for bit: each source row filtered
// horizontally once (a ring of them), then the vertical taps, then the scale by 1/256 or 1/64.
#include <algorithm>
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

// The source index for position p of an axis of length n (modes 1..4: cv2's non-constant borders).
int64_t pmap(int64_t p, int64_t n, int mode) {
  if (p >= 0 && p < n) return p;
  if (n == 1) return 0;
  if (mode == 1) return p < 0 ? 0 : n - 1;
  if (mode == 3) return ((p % n) + n) % n;
  const int64_t d = mode == 4 ? 1 : 0;
  do {
    p = p < 0 ? -p - 1 + d : 2 * n - p - 1 - d;
  } while (p < 0 || p >= n);
  return p;
}

// pyrUp's axis edges: -1 reflects to 1, n repeats n - 1
inline int64_t umap(int64_t i, int64_t n) { return i < 0 ? std::min<int64_t>(1, n - 1) : i >= n ? n - 1 : i; }

template <class T, class A>
inline T finish_int(A v, int shift) {
  int64_t r = (static_cast<int64_t>(v) + (int64_t(1) << (shift - 1))) >> shift;
  r = r < int64_t(std::numeric_limits<T>::min()) ? int64_t(std::numeric_limits<T>::min()) : r;
  r = r > int64_t(std::numeric_limits<T>::max()) ? int64_t(std::numeric_limits<T>::max()) : r;
  return static_cast<T>(r);
}

// ---- integer pyrDown: vertical sums of one output row's 5 source rows, then every second pixel

// v: the vertical sums, left-padded by 2 pixels and right-padded to 2 * dw + 3 pixels
template <class T, class A, int C>
void down_h(T* __restrict o, const A* __restrict v, int64_t dw, int64_t c_rt) {
  const int64_t c = C ? C : c_rt;
  for (int64_t x = 0; x < dw; ++x) {
#pragma GCC unroll 4
    for (int64_t k = 0; k < c; ++k) {
      const A* p = v + 2 * x * c + k;  // padded position 2x - 2 + 2 = 2x
      const A s = static_cast<A>(static_cast<A>(p[0] + p[4 * c]) + static_cast<A>(4 * static_cast<A>(p[c] + p[3 * c])) +
                                 static_cast<A>(6 * p[2 * c]));
      if constexpr (std::is_same_v<A, uint16_t>) o[x * c + k] = static_cast<T>(static_cast<uint16_t>(s + 128) >> 8);
      else o[x * c + k] = finish_int<T, A>(s, 8);
    }
  }
}

template <class T, class A>
void pyr_down_int(const T* src, T* dst, int64_t h, int64_t w, int64_t c, int64_t dh, int64_t dw, int mode) {
  const int64_t n = w * c, pw = 2 * dw + 3;  // padded pixels: [-2, 2 dw + 1)
  std::vector<int64_t> xm(static_cast<size_t>(pw));
  for (int64_t x = 0; x < pw; ++x) xm[x] = pmap(x - 2, w, mode);
  parallel_for(dh, std::max<int64_t>(4, (int64_t(1) << 15) / std::max<int64_t>(1, n)), [&](int64_t y0, int64_t y1) {
    std::vector<A> vb(static_cast<size_t>((std::max(pw, w + 2) + 1) * c));
    A* v = vb.data() + 2 * c;
    for (int64_t y = y0; y < y1; ++y) {
      const T* r[5];
      for (int k = 0; k < 5; ++k) r[k] = src + pmap(2 * y - 2 + k, h, mode) * n;
      {
        const T* __restrict r0 = r[0];
        const T* __restrict r1 = r[1];
        const T* __restrict r2 = r[2];
        const T* __restrict r3 = r[3];
        const T* __restrict r4 = r[4];
        A* __restrict vv = v;
        for (int64_t j = 0; j < n; ++j)
          vv[j] = static_cast<A>(static_cast<A>(A(r0[j]) + A(r4[j])) + static_cast<A>(4 * static_cast<A>(A(r1[j]) + A(r3[j]))) +
                                 static_cast<A>(6 * A(r2[j])));
      }
      for (int64_t x = 0; x < pw; ++x) {
        if (x == 2) x = w + 2;
        if (x >= pw) break;
        for (int64_t k = 0; k < c; ++k) vb[x * c + k] = v[xm[x] * c + k];
      }
      T* o = dst + y * dw * c;
      switch (c) {
        case 1: down_h<T, A, 1>(o, vb.data(), dw, c); break;
        case 2: down_h<T, A, 2>(o, vb.data(), dw, c); break;
        case 3: down_h<T, A, 3>(o, vb.data(), dw, c); break;
        case 4: down_h<T, A, 4>(o, vb.data(), dw, c); break;
        default: down_h<T, A, 0>(o, vb.data(), dw, c); break;
      }
    }
  });
}

// ---- integer pyrUp: for output rows 2s and 2s+1 the vertical sums [1 6 1] and [4 4] of source
// rows s-1, s, s+1, then the horizontal taps, writing the two outputs of each source pixel

// v: vertical sums left-padded by 1 pixel, right-padded by 1 (w + 2 pixels)
template <class T, class A, int C>
void up_h(T* __restrict o, const A* __restrict v, int64_t w, int64_t c_rt) {
  const int64_t c = C ? C : c_rt;
  for (int64_t x = 0; x < w; ++x) {
#pragma GCC unroll 4
    for (int64_t k = 0; k < c; ++k) {
      const A* p = v + x * c + k;  // padded position x - 1 + 1
      const A e = static_cast<A>(static_cast<A>(p[0] + p[2 * c]) + static_cast<A>(6 * p[c]));
      const A d = static_cast<A>(4 * static_cast<A>(p[c] + p[2 * c]));
      if constexpr (std::is_same_v<A, uint16_t>) {
        o[2 * x * c + k] = static_cast<T>(static_cast<uint16_t>(e + 32) >> 6);
        o[(2 * x + 1) * c + k] = static_cast<T>(static_cast<uint16_t>(d + 32) >> 6);
      } else {
        o[2 * x * c + k] = finish_int<T, A>(e, 6);
        o[(2 * x + 1) * c + k] = finish_int<T, A>(d, 6);
      }
    }
  }
}

template <class T, class A>
void up_row(T* o, A* vb, int64_t w, int64_t c) {
  A* v = vb + c;
  for (int64_t k = 0; k < c; ++k) {
    vb[k] = v[umap(-1, w) * c + k];
    v[w * c + k] = v[(w - 1) * c + k];
  }
  switch (c) {
    case 1: return up_h<T, A, 1>(o, vb, w, c);
    case 2: return up_h<T, A, 2>(o, vb, w, c);
    case 3: return up_h<T, A, 3>(o, vb, w, c);
    case 4: return up_h<T, A, 4>(o, vb, w, c);
    default: return up_h<T, A, 0>(o, vb, w, c);
  }
}

template <class T, class A>
void pyr_up_int(const T* src, T* dst, int64_t h, int64_t w, int64_t c) {
  const int64_t n = w * c, dn = 2 * n;
  // tasks of whole source rows (two output rows each)
  parallel_for(h, std::max<int64_t>(2, (int64_t(1) << 15) / std::max<int64_t>(1, dn)), [&](int64_t s0, int64_t s1) {
    std::vector<A> ve(static_cast<size_t>((w + 2) * c)), vo(static_cast<size_t>((w + 2) * c));
    for (int64_t s = s0; s < s1; ++s) {
      const T* __restrict a = src + umap(s - 1, h) * n;
      const T* __restrict b = src + s * n;
      const T* __restrict d = src + umap(s + 1, h) * n;
      A* __restrict e = ve.data() + c;
      A* __restrict f = vo.data() + c;
      for (int64_t j = 0; j < n; ++j) {
        e[j] = static_cast<A>(static_cast<A>(A(a[j]) + A(d[j])) + static_cast<A>(6 * A(b[j])));
        f[j] = static_cast<A>(4 * static_cast<A>(A(b[j]) + A(d[j])));
      }
      up_row<T, A>(dst + 2 * s * dn, ve.data(), w, c);
      up_row<T, A>(dst + (2 * s + 1) * dn, vo.data(), w, c);
    }
  });
}

// ---- float pyramids: the earlier kernel's order of operations ----------------------------------

template <class T>
void pyr_down_float(const T* src, T* dst, int64_t h, int64_t w, int64_t c, int64_t dh, int64_t dw, int mode) {
  using W = T;
  const int64_t n = w * c, dn = dw * c;
  std::vector<int64_t> xt(static_cast<size_t>(dw * 5));
  for (int64_t x = 0; x < dw; ++x)
    for (int k = 0; k < 5; ++k) xt[x * 5 + k] = pmap(2 * x - 2 + k, w, mode) * c;
  parallel_for(dh, std::max<int64_t>(4, (int64_t(1) << 14) / std::max<int64_t>(1, dn)), [&](int64_t y0, int64_t y1) {
    std::vector<W> ring(static_cast<size_t>(5 * dn));
    int64_t have = 2 * y0 - 3;  // the last source position filtered into the ring
    auto slot = [&](int64_t p) { return ring.data() + ((p % 5 + 5) % 5) * dn; };
    for (int64_t y = y0; y < y1; ++y) {
      for (int64_t p = std::max(have + 1, 2 * y - 2); p <= 2 * y + 2; ++p) {
        const T* S = src + pmap(p, h, mode) * n;
        W* R = slot(p);
        for (int64_t x = 0; x < dw; ++x) {
          const int64_t* t = &xt[x * 5];
          for (int64_t k = 0; k < c; ++k)
            R[x * c + k] = W(S[t[0] + k]) + W(S[t[4] + k]) + (W(S[t[1] + k]) + W(S[t[3] + k])) * W(4) + W(S[t[2] + k]) * W(6);
        }
        have = p;
      }
      const W* __restrict r0 = slot(2 * y - 2);
      const W* __restrict r1 = slot(2 * y - 1);
      const W* __restrict r2 = slot(2 * y);
      const W* __restrict r3 = slot(2 * y + 1);
      const W* __restrict r4 = slot(2 * y + 2);
      T* __restrict o = dst + y * dn;
      for (int64_t i = 0; i < dn; ++i) o[i] = static_cast<T>((r0[i] + r4[i] + (r1[i] + r3[i]) * W(4) + r2[i] * W(6)) * (W(1) / W(256)));
    }
  });
}

template <class T>
void pyr_up_float(const T* src, T* dst, int64_t h, int64_t w, int64_t c) {
  using W = T;
  const int64_t n = w * c, dn = 2 * n;
  parallel_for(h, std::max<int64_t>(2, (int64_t(1) << 14) / std::max<int64_t>(1, dn)), [&](int64_t s0, int64_t s1) {
    std::vector<W> ring(static_cast<size_t>(3 * dn));
    int64_t have = s0 - 2;
    auto slot = [&](int64_t p) { return ring.data() + ((p % 3 + 3) % 3) * dn; };
    for (int64_t s = s0; s < s1; ++s) {
      for (int64_t p = std::max(have + 1, s - 1); p <= s + 1; ++p) {
        const T* S = src + umap(p, h) * n;
        W* U = slot(p);
        for (int64_t x = 0; x < w; ++x) {
          const int64_t a = umap(x - 1, w) * c, b = x * c, d = umap(x + 1, w) * c;
          for (int64_t k = 0; k < c; ++k) {
            U[2 * x * c + k] = W(S[a + k]) * W(1) + W(S[b + k]) * W(6) + W(S[d + k]) * W(1);
            U[(2 * x + 1) * c + k] = (W(S[b + k]) + W(S[d + k])) * W(4);
          }
        }
        have = p;
      }
      const W* __restrict r0 = slot(s - 1);
      const W* __restrict r1 = slot(s);
      const W* __restrict r2 = slot(s + 1);
      T* __restrict oe = dst + 2 * s * dn;
      T* __restrict oo = oe + dn;
      for (int64_t i = 0; i < dn; ++i) {
        oe[i] = static_cast<T>((r0[i] * W(1) + r1[i] * W(6) + r2[i] * W(1)) * (W(1) / W(64)));
        oo[i] = static_cast<T>(((r1[i] + r2[i]) * W(4)) * (W(1) / W(64)));
      }
    }
  });
}

class PyramidKernel final : public backend::Kernel {
 public:
  explicit PyramidKernel(const backend::StepDesc& s) {
    const Shape& a = s.inputs[0].shape;
    h_ = a[0], w_ = a[1], c_ = a.size() == 3 ? a[2] : 1;
    const auto& i = s.params->ints;
    down_ = i[0] != 0, dh_ = i[1], dw_ = i[2], mode_ = static_cast<int>(i[3]);
    dt_ = s.inputs[0].dtype;
  }
  void run(char* const* in, char* out) override {
    switch (dt_) {
      case DType::UInt8: return go<uint8_t, uint16_t>(in[0], out);
      case DType::UInt16: return go<uint16_t, int32_t>(in[0], out);
      case DType::Int16: return go<int16_t, int32_t>(in[0], out);
      case DType::Float32: return go<float, float>(in[0], out);
      default: return go<double, double>(in[0], out);
    }
  }

 private:
  template <class T, class A>
  void go(const char* in, char* out) const {
    const T* s = reinterpret_cast<const T*>(in);
    T* d = reinterpret_cast<T*>(out);
    if constexpr (std::is_floating_point_v<T>) {
      if (down_) pyr_down_float<T>(s, d, h_, w_, c_, dh_, dw_, mode_);
      else pyr_up_float<T>(s, d, h_, w_, c_);
    } else {
      if (down_) pyr_down_int<T, A>(s, d, h_, w_, c_, dh_, dw_, mode_);
      else pyr_up_int<T, A>(s, d, h_, w_, c_);
    }
  }

  int64_t h_, w_, c_, dh_, dw_;
  bool down_;
  int mode_;
  DType dt_;
};

std::unique_ptr<backend::Kernel> prepare_pyramid(const backend::StepDesc& s) { return std::make_unique<PyramidKernel>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_pyramid, "cv_pyramid", &prepare_pyramid);

}  // namespace mnn::cpu::MNN_ISA_NS
