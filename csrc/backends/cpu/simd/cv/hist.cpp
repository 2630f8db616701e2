// CPU kernels of the histogram / statistics primitives (shape rules: ops/cv/hist.cpp): calcHist,
// Otsu / triangle thresholds, equalizeHist's table, the sums of mean / meanStdDev, the norms and
// the scaled conversion of normalize, CLAHE. Compiled once per ISA.
//
// Every ISA gives the scalar build's bits: histograms and integer sums are exact, float sums run
// in a fixed order (48 lanes per block, blocks of a fixed size combined in order: the same for
// every ISA and thread count), and FMA contraction is off (CMakeLists.txt).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
// GCC 12's AVX-512 extract/convert intrinsics start from an uninitialised register by design (their
// masked builtins ignore it) and -Wmaybe-uninitialized reports that inside the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu::MNN_ISA_NS {

namespace {

using namespace core;

constexpr int64_t kGrain = int64_t(1) << 16;  // pixels per task: below this threads cost more than they save

template <class F>
void by_type(DType d, F&& f) {
  switch (d) {
    case DType::UInt8: return f(uint8_t{});
    case DType::Int8: return f(int8_t{});
    case DType::UInt16: return f(uint16_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Float32: return f(float{});
    default: return f(double{});
  }
}

// ---- raw byte histograms: counts of the values x[0], x[st], x[2 st], ... (n of them), where
// mask (when given) is nonzero. Four sub-histograms, so that runs of equal bytes do not wait on
// the previous increment of the same counter (a store-to-load forwarding chain) ----

void raw_hist_u8(const uint8_t* x, int64_t n, int64_t st, const uint8_t* m, uint32_t* out) {
  uint32_t s[4][256];
  std::memset(s, 0, sizeof(s));
  int64_t i = 0;
  if (!m) {
    if (st == 1) {
      // eight bytes a load, shifted out (one load where eight cost more than the increments)
      for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, x + i, 8);
        ++s[0][w & 255], ++s[1][(w >> 8) & 255], ++s[2][(w >> 16) & 255], ++s[3][(w >> 24) & 255];
        ++s[0][(w >> 32) & 255], ++s[1][(w >> 40) & 255], ++s[2][(w >> 48) & 255], ++s[3][w >> 56];
      }
    } else {
      for (; i + 4 <= n; i += 4)
        ++s[0][x[i * st]], ++s[1][x[(i + 1) * st]], ++s[2][x[(i + 2) * st]], ++s[3][x[(i + 3) * st]];
    }
    for (; i < n; ++i) ++s[0][x[i * st]];
  } else {
    for (; i + 4 <= n; i += 4) {
      s[0][x[i * st]] += m[i] != 0, s[1][x[(i + 1) * st]] += m[i + 1] != 0;
      s[2][x[(i + 2) * st]] += m[i + 2] != 0, s[3][x[(i + 3) * st]] += m[i + 3] != 0;
    }
    for (; i < n; ++i) s[0][x[i * st]] += m[i] != 0;
  }
  for (int v = 0; v < 256; ++v) out[v] += s[0][v] + s[1][v] + s[2][v] + s[3][v];
}

// The whole image's byte histogram (element stride st, npix values), over the thread pool.
void image_hist_u8(const uint8_t* x, int64_t npix, int64_t st, const uint8_t* m, int64_t* h) {
  std::fill(h, h + 256, 0);
  std::mutex mu;
  parallel_for(npix, kGrain, [&](int64_t lo, int64_t hi) {
    uint32_t part[256] = {};
    raw_hist_u8(x + lo * st, hi - lo, st, m ? m + lo : nullptr, part);
    std::lock_guard<std::mutex> g(mu);
    for (int v = 0; v < 256; ++v) h[v] += part[v];
  });
}

// ---- calcHist: cv2's uniform bins, bin = floor(v * a + b) in double (a = bins / (hi - lo),
// b = -lo * a), values outside [0, bins) not counted. One-dimensional 8- and 16-bit histograms
// count raw values first and map each value to its bin once ----

class HistNKernel final : public backend::Kernel {
 public:
  explicit HistNKernel(const backend::StepDesc& s) {
    const auto& i = s.params->ints;
    const auto& f = s.params->floats;
    nd_ = i[0], mask_ = i[1] != 0, n_ = i[2];
    for (int64_t d = 0; d < nd_; ++d) {
      Dim q;
      q.img = i[3 + 3 * d], q.ch = i[4 + 3 * d], q.bins = i[5 + 3 * d];
      const Shape& sh = s.inputs[q.img].shape;
      q.cn = sh.size() == 3 ? sh[2] : 1;
      q.a = double(q.bins) / (f[2 * d + 1] - f[2 * d]);
      q.b = -f[2 * d] * q.a;
      dims_.push_back(q);
    }
    npix_ = s.inputs[0].shape[0] * s.inputs[0].shape[1];
    dt_ = s.inputs[0].dtype;
    total_ = 1;
    for (const Dim& q : dims_) total_ *= q.bins;
  }
  void run(char* const* in, char* out) override {
    std::vector<int64_t> cnt(static_cast<size_t>(total_), 0);
    const uint8_t* m = mask_ ? reinterpret_cast<const uint8_t*>(in[n_]) : nullptr;
    if (npix_ > 0) {
      if (dt_ == DType::UInt8 && nd_ == 1) one_u8(in, m, cnt);
      else if (dt_ == DType::UInt16 && nd_ == 1 && npix_ >= 65536) one_u16(in, m, cnt);
      else if (dt_ == DType::UInt8 && nd_ == 2 && total_ <= 65536 && npix_ < (int64_t(1) << 31)) two_u8(in, m, cnt);
      else if (dt_ == DType::UInt8) nd_any<uint8_t>(in, m, cnt);
      else if (dt_ == DType::UInt16) nd_any<uint16_t>(in, m, cnt);
      else nd_any<float>(in, m, cnt);
    }
    float* o = reinterpret_cast<float*>(out);
    for (int64_t k = 0; k < total_; ++k) o[k] = static_cast<float>(cnt[k]);
  }

 private:
  struct Dim {
    int64_t img, ch, bins, cn;
    double a, b;
  };
  // The bin of value v in dimension q, or -1.
  static int64_t bin(const Dim& q, double v) {
    const double t = std::floor(v * q.a + q.b);
    return t >= 0 && t < double(q.bins) ? int64_t(t) : -1;
  }
  void one_u8(char* const* in, const uint8_t* m, std::vector<int64_t>& cnt) {
    const Dim& q = dims_[0];
    int64_t h[256];
    image_hist_u8(reinterpret_cast<const uint8_t*>(in[q.img]) + q.ch, npix_, q.cn, m, h);
    for (int v = 0; v < 256; ++v) {
      const int64_t b = bin(q, double(v));
      if (b >= 0) cnt[b] += h[v];
    }
  }
  void one_u16(char* const* in, const uint8_t* m, std::vector<int64_t>& cnt) {
    const Dim& q = dims_[0];
    const uint16_t* x = reinterpret_cast<const uint16_t*>(in[q.img]) + q.ch;
    const int64_t st = q.cn;
    std::vector<int64_t> h(65536, 0);
    std::mutex mu;
    parallel_for(npix_, kGrain, [&](int64_t lo, int64_t hi) {
      std::vector<uint32_t> part(65536, 0);
      if (m) {
        for (int64_t p = lo; p < hi; ++p) part[x[p * st]] += m[p] != 0;
      } else {
        for (int64_t p = lo; p < hi; ++p) ++part[x[p * st]];
      }
      std::lock_guard<std::mutex> g(mu);
      for (int64_t v = 0; v < 65536; ++v) h[v] += part[v];
    });
    for (int64_t v = 0; v < 65536; ++v)
      if (h[v]) {
        const int64_t b = bin(q, double(v));
        if (b >= 0) cnt[b] += h[v];
      }
  }
  // Two 8-bit dimensions (the common 2-D colour histogram): each value's share of the flat bin
  // index from a 32-bit table, a value outside the range giving `total` (so the sum of the two is
  // `total` or more and one min sends it to the spare slot), counted straight into 32-bit
  // counters; two alternating sub-histograms where they fit the L1 cache, so runs of pixels in
  // one bin do not wait on the previous increment of the same counter.
  void two_u8(char* const* in, const uint8_t* m, std::vector<int64_t>& cnt) {
    const uint32_t total = uint32_t(total_);
    uint32_t t0[256], t1[256];
    for (int v = 0; v < 256; ++v) {
      const int64_t b0 = bin(dims_[0], double(v)), b1 = bin(dims_[1], double(v));
      t0[v] = b0 < 0 ? total : uint32_t(b0 * dims_[1].bins);
      t1[v] = b1 < 0 ? total : uint32_t(b1);
    }
    const uint8_t* x0 = reinterpret_cast<const uint8_t*>(in[dims_[0].img]) + dims_[0].ch;
    const uint8_t* x1 = reinterpret_cast<const uint8_t*>(in[dims_[1].img]) + dims_[1].ch;
    const int64_t c0 = dims_[0].cn, c1 = dims_[1].cn;
    const bool two = total <= 4096;
    std::mutex mu;
    parallel_for(npix_, kGrain, [&](int64_t lo, int64_t hi) {
      const size_t len = size_t(total) + 1;
      std::vector<uint32_t> part(two ? 2 * len : len, 0u);
      uint32_t* h0 = part.data();
      uint32_t* h1 = two ? h0 + len : h0;
      int64_t p = lo;
      if (m) {
        for (; p + 2 <= hi; p += 2) {
          const uint32_t a = std::min(t0[x0[p * c0]] + t1[x1[p * c1]], total);
          const uint32_t b = std::min(t0[x0[(p + 1) * c0]] + t1[x1[(p + 1) * c1]], total);
          ++h0[m[p] ? a : total], ++h1[m[p + 1] ? b : total];
        }
        for (; p < hi; ++p) ++h0[m[p] ? std::min(t0[x0[p * c0]] + t1[x1[p * c1]], total) : total];
      } else {
        for (; p + 2 <= hi; p += 2) {
          ++h0[std::min(t0[x0[p * c0]] + t1[x1[p * c1]], total)];
          ++h1[std::min(t0[x0[(p + 1) * c0]] + t1[x1[(p + 1) * c1]], total)];
        }
        for (; p < hi; ++p) ++h0[std::min(t0[x0[p * c0]] + t1[x1[p * c1]], total)];
      }
      std::lock_guard<std::mutex> g(mu);
      for (uint32_t k = 0; k < total; ++k) cnt[k] += int64_t(h0[k]) + (two ? int64_t(h1[k]) : 0);
    });
  }
  // Any number of dimensions, any depth: per run of up to 1024 pixels, each pixel's flat bin
  // index is built dimension by dimension in a loop the compiler vectorises (8-bit values: a
  // table per dimension; others: the floor formula), an uncounted pixel pointing at a spare
  // slot past the histogram; then the run is counted without a branch.
  template <class T>
  void nd_any(char* const* in, const uint8_t* m, std::vector<int64_t>& cnt) {
    const int64_t nd = nd_, total = total_;
    constexpr int64_t kOut = int64_t(1) << 40;  // marks an uncounted pixel (sums stay far below 2^62)
    std::vector<int64_t> stride(static_cast<size_t>(nd), 1);
    for (int64_t d = nd - 2; d >= 0; --d) stride[d] = stride[d + 1] * dims_[d + 1].bins;
    std::vector<int64_t> tab;
    if (std::is_same<T, uint8_t>::value) {
      tab.resize(static_cast<size_t>(256 * nd));
      for (int64_t d = 0; d < nd; ++d)
        for (int v = 0; v < 256; ++v) {
          const int64_t b = bin(dims_[d], double(v));
          tab[d * 256 + v] = b < 0 ? kOut : b * stride[d];
        }
    }
    std::vector<const T*> src(static_cast<size_t>(nd));
    for (int64_t d = 0; d < nd; ++d) src[d] = reinterpret_cast<const T*>(in[dims_[d].img]) + dims_[d].ch;
    std::mutex mu;
    auto count = [&](int64_t lo, int64_t hi, int64_t* c) {
      constexpr int64_t kRun = 1024;
      int64_t idx[kRun];
      for (int64_t p0 = lo; p0 < hi; p0 += kRun) {
        const int64_t r = std::min(kRun, hi - p0);
        for (int64_t k = 0; k < r; ++k) idx[k] = 0;
        for (int64_t d = 0; d < nd; ++d) {
          const T* x = src[d] + p0 * dims_[d].cn;
          const int64_t cn = dims_[d].cn, st = stride[d];
          if constexpr (std::is_same<T, uint8_t>::value) {
            const int64_t* t = &tab[static_cast<size_t>(d * 256)];
            for (int64_t k = 0; k < r; ++k) idx[k] += t[x[k * cn]];
          } else {
            const double a = dims_[d].a, b = dims_[d].b, nb = double(dims_[d].bins);
            for (int64_t k = 0; k < r; ++k) {
              const double q = std::floor(double(x[k * cn]) * a + b);
              idx[k] += q >= 0 && q < nb ? int64_t(q) * st : kOut;
            }
          }
        }
        const uint8_t* mk = m ? m + p0 : nullptr;
        for (int64_t k = 0; k < r; ++k) {
          const bool ok = idx[k] < total && (!mk || mk[k]);
          ++c[ok ? idx[k] : total];
        }
      }
    };
    if (total > 65536) {  // a large histogram: one pass into it, no per-task copies
      std::vector<int64_t> all(static_cast<size_t>(total + 1), 0);
      count(0, npix_, all.data());
      for (int64_t k = 0; k < total; ++k) cnt[k] += all[k];
      return;
    }
    parallel_for(npix_, kGrain, [&](int64_t lo, int64_t hi) {
      std::vector<int64_t> part(static_cast<size_t>(total + 1), 0);
      count(lo, hi, part.data());
      std::lock_guard<std::mutex> g(mu);
      for (int64_t k = 0; k < total; ++k) cnt[k] += part[k];
    });
  }
  int64_t nd_, n_, npix_, total_;
  bool mask_;
  std::vector<Dim> dims_;
  DType dt_;
};

// ---- Otsu and triangle thresholds of a uint8 image: the arithmetic of mnn/cv/_filters.py's
// _otsu and _triangle (Python floats: doubles, summed left to right), which tests pin to cv2 ----

int otsu(const int64_t* hist, int64_t n) {
  double h[256];
  for (int i = 0; i < 256; ++i) h[i] = double(hist[i]) / double(n);
  double mu = 0.0;
  for (int i = 0; i < 256; ++i) mu += double(i) * h[i];
  double q1 = 0.0, mu1 = 0.0, best = 0.0;
  int best_t = 0;
  for (int i = 0; i < 256; ++i) {
    const double p = h[i], q1n = q1 + p;
    if (std::min(q1n, 1 - q1n) < 1.19209289550781250e-07 || std::max(q1n, 1 - q1n) > 1) {
      q1 = q1n;
      if (q1 > 0) mu1 = (mu1 * (q1 - p) + double(i) * p) / q1;
      continue;
    }
    mu1 = (mu1 * q1 + double(i) * p) / q1n;
    q1 = q1n;
    const double mu2 = (mu - q1 * mu1) / (1 - q1);
    const double dm = mu1 - mu2;
    const double s = q1 * (1 - q1) * (dm * dm);
    if (s > best) best = s, best_t = i;
  }
  return best_t;
}

int triangle(const int64_t* hist) {
  int64_t h[256];
  std::memcpy(h, hist, sizeof(h));
  int left = 0, right = 0;
  for (int i = 0; i < 256; ++i)
    if (h[i] > 0) { left = i; break; }
  if (left > 0) --left;
  for (int i = 255; i > 0; --i)
    if (h[i] > 0) { right = i; break; }
  if (right < 255) ++right;
  int max_ind = 0;
  int64_t maxv = 0;
  for (int i = 0; i < 256; ++i)
    if (h[i] > maxv) maxv = h[i], max_ind = i;
  bool flip = false;
  if (max_ind - left < right - max_ind) {
    flip = true;
    std::reverse(h, h + 256);
    const int l = left;
    left = 255 - right, right = 255 - l;
    max_ind = 255 - max_ind;
  }
  int thresh = left;
  const int64_t a = maxv, b = left - max_ind;
  int64_t dist = 0;
  for (int i = left + 1; i <= max_ind; ++i) {
    const int64_t t = a * i + b * h[i];
    if (t > dist) dist = t, thresh = i;
  }
  thresh -= 1;
  if (flip) thresh = 255 - thresh;
  return thresh;
}

class AutoThreshKernel final : public backend::Kernel {
 public:
  explicit AutoThreshKernel(const backend::StepDesc& s)
      : npix_(numel(s.inputs[0].shape)), method_(int(s.params->ints[0])) {}
  void run(char* const* in, char* out) override {
    int64_t h[256];
    image_hist_u8(reinterpret_cast<const uint8_t*>(in[0]), npix_, 1, nullptr, h);
    const double t = npix_ == 0 ? 0.0 : double(method_ == 8 ? otsu(h, npix_) : triangle(h));
    std::memcpy(out, &t, sizeof(t));
  }

 private:
  int64_t npix_;
  int method_;
};

// threshold's five rules on uint8 as a table (the threshold t is an integer in [0, 255])
class ThreshLutKernel final : public backend::Kernel {
 public:
  explicit ThreshLutKernel(const backend::StepDesc& s) : kind_(int(s.params->ints[0])), m_(int(s.params->ints[1])) {}
  void run(char* const* in, char* out) override {
    double td;
    std::memcpy(&td, in[0], sizeof(td));
    const int t = int(td);
    uint8_t* o = reinterpret_cast<uint8_t*>(out);
    for (int v = 0; v < 256; ++v) {
      int r;
      switch (kind_) {
        case 0: r = v > t ? m_ : 0; break;
        case 1: r = v <= t ? m_ : 0; break;
        case 2: r = v > t ? t : v; break;
        case 3: r = v <= t ? 0 : v; break;
        default: r = v > t ? 0 : v; break;
      }
      o[v] = uint8_t(r);
    }
  }

 private:
  int kind_, m_;
};

// equalizeHist's table, in cv2's float32 arithmetic: scale = 255.f / (total - first bin), each
// cumulative count (made float) times it, rounded half to even and saturated
class EqualizeLutKernel final : public backend::Kernel {
 public:
  explicit EqualizeLutKernel(const backend::StepDesc& s) : npix_(numel(s.inputs[0].shape)) {}
  void run(char* const* in, char* out) override {
    int64_t h[256];
    image_hist_u8(reinterpret_cast<const uint8_t*>(in[0]), npix_, 1, nullptr, h);
    uint8_t* lut = reinterpret_cast<uint8_t*>(out);
    int i = 0;
    while (i < 256 && !h[i]) ++i;
    if (i == 256 || h[i] == npix_) {
      std::memset(lut, i < 256 ? i : 0, 256);
      return;
    }
    const float scale = 255.0f / static_cast<float>(npix_ - h[i]);
    int64_t s = 0;
    for (int j = 0; j < 256; ++j) {
      if (j > i) s += h[j];
      const float prod = static_cast<float>(j > i ? s : 0) * scale;
      lut[j] = uint8_t(std::min(255.0f, std::max(0.0f, std::nearbyint(prod))));
    }
  }

 private:
  int64_t npix_;
};

// ---- sums and sums of squares per channel (mean, meanStdDev) ----
// Integer images sum exactly (integer accumulators, made double per block); int32 and float ones
// in double. Unmasked images whose channel count divides 48 accumulate in 48 lanes (lane j holds
// channel j % C), a loop the compiler vectorises without reordering anything.

constexpr int64_t kLanes = 48;
constexpr int64_t kBlockPix = 48 * 1024;  // pixels per block: uint8 squares stay below 2^32 per lane

template <class T> struct Acc { using type = double; };
template <> struct Acc<uint8_t> { using type = uint32_t; };
template <> struct Acc<int8_t> { using type = int32_t; };
template <> struct Acc<uint16_t> { using type = uint64_t; };
template <> struct Acc<int16_t> { using type = int64_t; };

// Masked sums, C channels known at compile time (0: any): a pixel outside the mask adds zeros,
// so the loop has no branch.
template <class T, int C>
void masked_sums(const T* x, const uint8_t* m, int64_t np, int64_t c, bool sq, double* s, double* q, int64_t* cnt) {
  using A = typename Acc<T>::type;
  constexpr int64_t kMax = 64;
  const int64_t cc = C > 0 ? C : c;
  A ls[kMax] = {}, lq[kMax] = {};
  int64_t k = 0;
  for (int64_t p = 0; p < np; ++p) {
    const A w = A(m[p] != 0);
    k += m[p] != 0;
    for (int64_t j = 0; j < cc; ++j) {
      const A v = A(x[p * cc + j]) * w;
      ls[j] += v;
      if (sq) lq[j] += v * v;
    }
  }
  for (int64_t j = 0; j < cc; ++j) s[j] += double(ls[j]), q[j] += double(lq[j]);
  *cnt += k;
}

template <class T>
void block_sums(const T* x, const uint8_t* m, int64_t np, int64_t c, bool sq, double* s, double* q, int64_t* cnt) {
  using A = typename Acc<T>::type;
  if (!m && kLanes % c == 0) {
    A ls[kLanes] = {}, lq[kLanes] = {};
    const int64_t n = np * c;
    int64_t i = 0;
    if (std::is_same<T, uint8_t>::value && !sq) {
      // bytes sum in 16-bit lanes for 256 rounds (at most 255 * 256), then widen
      while (i + kLanes <= n) {
        uint16_t l16[kLanes] = {};
        const int64_t stop = std::min(n - kLanes, i + 256 * kLanes - kLanes);
        for (; i <= stop; i += kLanes)
          for (int64_t j = 0; j < kLanes; ++j) l16[j] = uint16_t(l16[j] + x[i + j]);
        for (int64_t j = 0; j < kLanes; ++j) ls[j] += A(l16[j]);
      }
    } else if (sq) {
      for (; i + kLanes <= n; i += kLanes)
        for (int64_t j = 0; j < kLanes; ++j) {
          const A v = A(x[i + j]);
          ls[j] += v, lq[j] += v * v;
        }
    } else {
      for (; i + kLanes <= n; i += kLanes)
        for (int64_t j = 0; j < kLanes; ++j) ls[j] += A(x[i + j]);
    }
    for (int64_t j = 0; i + j < n; ++j) {
      const A v = A(x[i + j]);
      ls[j] += v, lq[j] += v * v;
    }
    for (int64_t j = 0; j < kLanes; ++j) s[j % c] += double(ls[j]), q[j % c] += double(lq[j]);
    *cnt += np;
    return;
  }
  if (m) {
    switch (c) {
      case 1: return masked_sums<T, 1>(x, m, np, c, sq, s, q, cnt);
      case 2: return masked_sums<T, 2>(x, m, np, c, sq, s, q, cnt);
      case 3: return masked_sums<T, 3>(x, m, np, c, sq, s, q, cnt);
      case 4: return masked_sums<T, 4>(x, m, np, c, sq, s, q, cnt);
      default: break;
    }
  }
  std::vector<A> ls(static_cast<size_t>(c), A(0)), lq(static_cast<size_t>(c), A(0));
  int64_t k = 0;
  for (int64_t p = 0; p < np; ++p) {
    if (m && !m[p]) continue;
    ++k;
    for (int64_t j = 0; j < c; ++j) {
      const A v = A(x[p * c + j]);
      ls[j] += v, lq[j] += v * v;
    }
  }
  for (int64_t j = 0; j < c; ++j) s[j] += double(ls[j]), q[j] += double(lq[j]);
  *cnt += k;
}

class SumsKernel final : public backend::Kernel {
 public:
  // ints: has_mask[, want squares (default 1)]
  explicit SumsKernel(const backend::StepDesc& s)
      : dt_(s.inputs[0].dtype), mask_(s.params->ints[0] != 0), sq_(s.params->ints.size() < 2 || s.params->ints[1] != 0) {
    const Shape& sh = s.inputs[0].shape;
    np_ = sh[0] * sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
  }
  void run(char* const* in, char* out) override {
    const int64_t c = c_, nb = (np_ + kBlockPix - 1) / kBlockPix;
    // per block: c sums, c squares, the count; combined in block order
    std::vector<double> part(static_cast<size_t>(nb * (2 * c + 1)), 0.0);
    const uint8_t* m = mask_ ? reinterpret_cast<const uint8_t*>(in[1]) : nullptr;
    by_type(dt_, [&](auto zero) {
      using T = decltype(zero);
      const T* x = reinterpret_cast<const T*>(in[0]);
      parallel_for(nb, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
          const int64_t p0 = b * kBlockPix, np = std::min(kBlockPix, np_ - p0);
          double* r = &part[static_cast<size_t>(b * (2 * c + 1))];
          int64_t cnt = 0;
          block_sums<T>(x + p0 * c, m ? m + p0 : nullptr, np, c, sq_, r, r + c, &cnt);
          r[2 * c] = double(cnt);
        }
      });
    });
    double* o = reinterpret_cast<double*>(out);
    std::fill(o, o + 2 * c + 1, 0.0);
    for (int64_t b = 0; b < nb; ++b)
      for (int64_t j = 0; j < 2 * c + 1; ++j) o[j] += part[static_cast<size_t>(b * (2 * c + 1) + j)];
  }

 private:
  DType dt_;
  bool mask_, sq_;
  int64_t np_, c_;
};

// ---- normalize's statistics: min / max (NaN when a selected element is NaN, as numpy's), or a
// norm: INF max |x|, L1 sum |x|, L2 sum x^2 (exact integer sums for 8/16-bit images) ----

// The exact L1 norm (l1) or sum of squares of n uint8 values, added to acc, with byte SIMD
// (sums of absolute differences from 0; 16-bit squares summed in pairs); returns how many values
// it took (a multiple of the vector width; the caller does the rest). Integer sums: every ISA
// gets the same answer.
template <class S>
int64_t bytes_l1_l2(const uint8_t* x, int64_t n, bool l1, S& acc) {
  int64_t i = 0;
#if defined(__AVX512BW__)
  const __m512i z = _mm512_setzero_si512();
  __m512i t64 = z;  // eight 64-bit sums
  while (i + 64 <= n) {
    __m512i t32 = z;  // sixteen 32-bit sums of squares: 2 * 65025 a step, 4096 steps stay below 2^31
    const int64_t stop = std::min(n, i + 4096 * 64);
    for (; i + 64 <= stop; i += 64) {
      const __m512i v = _mm512_loadu_si512(x + i);
      if (l1) {
        t64 = _mm512_add_epi64(t64, _mm512_sad_epu8(v, z));
      } else {
        const __m512i lo = _mm512_unpacklo_epi8(v, z), hi = _mm512_unpackhi_epi8(v, z);
        t32 = _mm512_add_epi32(t32, _mm512_add_epi32(_mm512_madd_epi16(lo, lo), _mm512_madd_epi16(hi, hi)));
      }
    }
    t64 = _mm512_add_epi64(t64, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(t32)));
    t64 = _mm512_add_epi64(t64, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(t32, 1)));
  }
  alignas(64) uint64_t r[8];
  _mm512_store_si512(r, t64);
  for (int k = 0; k < 8; ++k) acc += S(r[k]);
#elif defined(__AVX2__)
  const __m256i z = _mm256_setzero_si256();
  __m256i t64 = z;
  while (i + 32 <= n) {
    __m256i t32 = z;  // 2 * 2 * 65025 a step per lane: 4096 steps stay below 2^31
    const int64_t stop = std::min(n, i + 4096 * 32);
    for (; i + 32 <= stop; i += 32) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
      if (l1) {
        t64 = _mm256_add_epi64(t64, _mm256_sad_epu8(v, z));
      } else {
        const __m256i lo = _mm256_unpacklo_epi8(v, z), hi = _mm256_unpackhi_epi8(v, z);
        t32 = _mm256_add_epi32(t32, _mm256_add_epi32(_mm256_madd_epi16(lo, lo), _mm256_madd_epi16(hi, hi)));
      }
    }
    t64 = _mm256_add_epi64(t64, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(t32)));
    t64 = _mm256_add_epi64(t64, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(t32, 1)));
  }
  alignas(32) uint64_t r[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(r), t64);
  for (int k = 0; k < 4; ++k) acc += S(r[k]);
#else
  (void)x, (void)n, (void)l1, (void)acc;
#endif
  return i;
}

// Float min and max (or, with ab, the max of |x| in h) of the counted elements b[i, n), from l
// and h, advancing i; nan: whether a counted element is NaN. Min / max are exact, so the SIMD
// forms give the scalar loop's answer.
template <class T, bool M>
void fminmax(const T* __restrict b, const uint8_t* __restrict mk, int64_t n, int64_t& i, bool ab, T& l, T& h, bool& nan) {
#if defined(__AVX512F__)
  if constexpr (std::is_same<T, float>::value) {
    __m512 vl = _mm512_set1_ps(l), vh = _mm512_set1_ps(h);
    __mmask16 bad = 0;
    const __m512 sign = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff));
    for (; i + 16 <= n; i += 16) {
      __m512 v = _mm512_loadu_ps(b + i);
      __mmask16 k = 0xffff;
      if (M) {
        const __m128i mm = _mm_loadu_si128(reinterpret_cast<const __m128i*>(mk + i));
        k = _mm_test_epi8_mask(mm, mm);
      }
      bad |= _mm512_mask_cmp_ps_mask(k, v, v, _CMP_UNORD_Q);
      if (ab) v = _mm512_and_ps(v, sign);
      else vl = _mm512_mask_min_ps(vl, k, v, vl);
      vh = _mm512_mask_max_ps(vh, k, v, vh);
    }
    alignas(64) float a[16], c[16];
    _mm512_store_ps(a, vl), _mm512_store_ps(c, vh);
    for (int j = 0; j < 16; ++j) l = a[j] < l ? a[j] : l, h = c[j] > h ? c[j] : h;
    nan |= bad != 0;
  }
#elif defined(__AVX2__)
  if constexpr (std::is_same<T, float>::value) {
    if (!M) {
      __m256 vl = _mm256_set1_ps(l), vh = _mm256_set1_ps(h), bad = _mm256_setzero_ps();
      const __m256 sign = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
      for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(b + i);
        bad = _mm256_or_ps(bad, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        if (ab) v = _mm256_and_ps(v, sign);
        else vl = _mm256_min_ps(v, vl);
        vh = _mm256_max_ps(v, vh);
      }
      alignas(32) float a[8], c[8];
      _mm256_store_ps(a, vl), _mm256_store_ps(c, vh);
      for (int j = 0; j < 8; ++j) l = a[j] < l ? a[j] : l, h = c[j] > h ? c[j] : h;
      nan |= _mm256_movemask_ps(bad) != 0;
    }
  }
#endif
  for (; i < n; ++i) {
    if (M && !mk[i]) continue;
    T v = b[i];
    nan |= v != v;
    if (ab) v = std::fabs(v);
    else l = v < l ? v : l;
    h = v > h ? v : h;
  }
}

class NormValKernel final : public backend::Kernel {
 public:
  explicit NormValKernel(const backend::StepDesc& s)
      : NormValKernel(s.inputs[0].dtype, s.inputs[0].shape, int(s.params->ints[0]), s.params->ints[1] != 0) {}
  NormValKernel(DType dt, const Shape& sh, int kind, bool mask) : dt_(dt), kind_(kind), mask_(mask) {
    np_ = sh[0] * sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
  }
  void run(char* const* in, char* out) override {
    double r[2];
    stats(in, r);
    std::memcpy(out, r, sizeof(r));
  }
  // r: (min, max) for NORM_MINMAX, else (the norm (L2: squared), 0)
  void stats(char* const* in, double* r) const {
    const uint8_t* m = mask_ ? reinterpret_cast<const uint8_t*>(in[1]) : nullptr;
    const int64_t nb = (np_ + kBlockPix - 1) / kBlockPix, c = c_;
    std::vector<double> pa(static_cast<size_t>(nb)), pb(static_cast<size_t>(nb));
    by_type(dt_, [&](auto zero) {
      using T = decltype(zero);
      const T* x = reinterpret_cast<const T*>(in[0]);
      parallel_for(nb, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
          const int64_t p0 = b * kBlockPix, p1 = std::min(np_, p0 + kBlockPix);
          block<T>(x, m, p0, p1, c, pa[b], pb[b]);
        }
      });
    });
    r[0] = r[1] = 0.0;
    if (kind_ == 32) {
      r[0] = std::numeric_limits<double>::infinity(), r[1] = -r[0];
      bool nan = false;
      for (int64_t b = 0; b < nb; ++b) {
        nan |= std::isnan(pa[b]) || std::isnan(pb[b]);
        r[0] = std::min(r[0], pa[b]), r[1] = std::max(r[1], pb[b]);
      }
      if (nan) r[0] = r[1] = std::numeric_limits<double>::quiet_NaN();
    } else if (kind_ == 1) {
      bool nan = false;
      for (int64_t b = 0; b < nb; ++b) nan |= std::isnan(pa[b]), r[0] = std::max(r[0], pa[b]);
      if (nan) r[0] = std::numeric_limits<double>::quiet_NaN();
    } else {
      for (int64_t b = 0; b < nb; ++b) r[0] += pa[b];
    }
  }

 private:
  // The elements b[0, n) (mk[i]: whether element i counts, when M), advancing i past what it
  // consumed. Integer min / max / |x| / sums are plain reductions (exact, so the compiler may
  // vectorise them in any order); float min / max / |x| use the float min/max instructions
  // (exact; NaN found by an unordered compare); float sums run in 16 double lanes, the same
  // order on every ISA.
  template <class T, bool M, class V, class S>
  void lanes(const T* __restrict b, const uint8_t* __restrict mk, int64_t n, int64_t& i, V* lo, V* hi, int32_t* nan,
             S* acc) const {
    constexpr bool flt = std::is_floating_point<T>::value;
    if constexpr (!flt) {
      using I = typename std::conditional<(sizeof(T) <= 2), int32_t, int64_t>::type;
      // masked-out elements become the neutral value by bit operations (a select on a random
      // mask may compile to a branch); off: all ones where the element does not count
      using U = typename std::make_unsigned<T>::type;
      if (kind_ == 32) {
        const U tmax = U(std::numeric_limits<T>::max()), tmin = U(std::numeric_limits<T>::lowest());
        T l = std::numeric_limits<T>::max(), h = std::numeric_limits<T>::lowest();
        for (int64_t k = i; k < n; ++k) {
          const U off = M ? U(U(0) - U(mk[k] == 0)) : U(0), v = U(b[k]);
          l = std::min(l, T((v & ~off) | (tmax & off)));
          h = std::max(h, T((v & ~off) | (tmin & off)));
        }
        lo[0] = std::min(lo[0], V(l)), hi[0] = std::max(hi[0], V(h));
      } else if (kind_ == 1) {
        I h = 0;
        for (int64_t k = i; k < n; ++k) {
          const I v = I(b[k]);
          const I a = (v < 0 ? I(-v) : v) & (M ? I(I(0) - I(mk[k] != 0)) : I(-1));
          h = std::max(h, a);
        }
        hi[0] = std::max(hi[0], V(h));
      } else if (sizeof(T) == 1) {
        if constexpr (std::is_same<T, uint8_t>::value && !M) i += bytes_l1_l2(b + i, n - i, kind_ == 2, acc[0]);
        // |x| and x^2 of bytes fit int32 for 32768 elements (32768 * 65025 < 2^31), then widen
        const bool l1 = kind_ == 2;
        for (int64_t k0 = i; k0 < n; k0 += 32768) {
          const int64_t k1 = std::min(n, k0 + 32768);
          int32_t part = 0;
          if (l1) {
            for (int64_t k = k0; k < k1; ++k) {
              const int32_t v = b[k];
              part += (v < 0 ? -v : v) & (M ? -int32_t(mk[k] != 0) : -1);
            }
          } else {
            for (int64_t k = k0; k < k1; ++k) {
              const int32_t v = b[k];
              part += (v * v) & (M ? -int32_t(mk[k] != 0) : -1);
            }
          }
          acc[0] += S(part);
        }
      } else if (std::is_integral<S>::value) {
        int64_t t = 0;
        for (int64_t k = i; k < n; ++k) {
          const int64_t v = b[k];
          t += (kind_ == 2 ? (v < 0 ? -v : v) : v * v) & (M ? -int64_t(mk[k] != 0) : int64_t(-1));
        }
        acc[0] += S(t);
      } else {
        sum_lanes<T, M>(b, mk, n, i, acc);  // leaves the last partial group to the caller
        return;
      }
      i = n;
      return;
    } else {
      if (kind_ == 32 || kind_ == 1) {
        T l = T(lo[0]), h = T(hi[0]);
        bool nn = false;
        fminmax<T, M>(b, mk, n, i, kind_ == 1, l, h, nn);
        lo[0] = V(l), hi[0] = V(h), nan[0] |= int32_t(nn);
      } else {
        sum_lanes<T, M>(b, mk, n, i, acc);
      }
    }
  }
  template <class T, bool M, class S>
  void sum_lanes(const T* __restrict b, const uint8_t* __restrict mk, int64_t n, int64_t& i, S* acc) const {
    constexpr int L = 16;
    if (kind_ == 2) {
      for (; i + L <= n; i += L)
        for (int j = 0; j < L; ++j) {
          const S v = S(b[i + j]);
          acc[j] += (!M || mk[i + j]) ? std::fabs(v) : S(0);
        }
    } else {
      for (; i + L <= n; i += L)
        for (int j = 0; j < L; ++j) {
          const S v = S(b[i + j]);
          acc[j] += (!M || mk[i + j]) ? v * v : S(0);
        }
    }
  }
  // Unmasked: the elements in 16 lanes (a loop the compiler vectorises; integer sums exact, float
  // ones in a fixed order). Masked: pixel by pixel.
  template <class T>
  void block(const T* x, const uint8_t* m, int64_t p0, int64_t p1, int64_t c, double& ra, double& rb) const {
    constexpr bool small = std::is_integral<T>::value && sizeof(T) <= 2;
    constexpr bool flt = std::is_floating_point<T>::value;
    using S = typename std::conditional<small, int64_t, double>::type;  // sums
    using V = typename std::conditional<flt, T, int64_t>::type;         // min / max / |x|
    constexpr int L = 16;
    constexpr double inf = std::numeric_limits<double>::infinity();
    const int kind = kind_;
    S acc[L] = {};
    V lo[L], hi[L];
    int32_t nan[L] = {};
    for (int j = 0; j < L; ++j) lo[j] = flt ? V(inf) : V(std::numeric_limits<T>::max()), hi[j] = flt ? V(-inf) : V(std::numeric_limits<T>::lowest());
    if (kind == 1)
      for (int j = 0; j < L; ++j) hi[j] = V(0);
    auto one = [&](int j, T t) {
      const V v = V(t);
      if (kind == 32) {
        lo[j] = v < lo[j] ? v : lo[j], hi[j] = v > hi[j] ? v : hi[j];
        if (flt) nan[j] |= v != v;
      } else if (kind == 1) {
        const V a = v < V(0) ? V(-v) : v;
        hi[j] = a > hi[j] ? a : hi[j];
        if (flt) nan[j] |= v != v;
      } else if (kind == 2) {
        acc[j] += v < V(0) ? S(-S(v)) : S(v);
      } else {
        acc[j] += S(v) * S(v);
      }
    };
    if (!m || c == 1) {
      // elements in lanes; a masked-out element (single-channel images) gives the neutral value
      const T* b = x + p0 * c;
      const uint8_t* mk = m ? m + p0 : nullptr;
      const int64_t n = (p1 - p0) * c;
      int64_t i = 0;
      if (mk) lanes<T, true>(b, mk, n, i, lo, hi, nan, acc);
      else lanes<T, false>(b, mk, n, i, lo, hi, nan, acc);
      for (int j = 0; i + j < n; ++j)
        if (!mk || mk[i + j]) one(j, b[i + j]);
    } else {
      for (int64_t p = p0; p < p1; ++p) {
        if (!m[p]) continue;
        for (int64_t j = 0; j < c; ++j) one(int(j % L), x[p * c + j]);
      }
    }
    bool any_nan = false;
    double a = inf, b = -inf, s = 0.0;
    if (kind == 1) b = 0.0;
    for (int j = 0; j < L; ++j) {
      any_nan |= nan[j] != 0;
      a = std::min(a, double(lo[j])), b = std::max(b, double(hi[j]));
      s += double(acc[j]);
    }
    // integer images: a block with no selected element keeps the type's extremes, which are
    // beyond no real element: report the empty answer (+inf, -inf) then
    if (!flt && kind == 32 && a > b) a = inf, b = -inf;
    if (kind == 32) ra = any_nan ? std::numeric_limits<double>::quiet_NaN() : a, rb = b;
    else if (kind == 1) ra = any_nan ? std::numeric_limits<double>::quiet_NaN() : b;
    else ra = s;
  }
  DType dt_;
  int kind_;
  bool mask_;
  int64_t np_, c_;
};

// ---- normalize's conversion, the arithmetic of mnn/cv/_core_ops.py's normalize:
//   mode 0: x * scale + shift in double, then to the output type
//   mode 1 (8/16-bit to integers): float32(x * f32(scale) + f32(shift)) (double arithmetic)
//   mode 2 (int32 to 8/16-bit): the same on float32(x)
// Integer outputs round half to even; a value outside int32 (or NaN) is INT_MIN first (cvRound),
// then saturated. Masked-out pixels keep base (dst) or become 0 ----

template <class O>
inline O to_out(double r) {
  if constexpr (std::is_floating_point<O>::value) {
    return static_cast<O>(r);
  } else {
    double q = std::nearbyint(r);
    if (!(q >= -2147483648.0 && q <= 2147483647.0)) q = -2147483648.0;
    q = std::min(double(std::numeric_limits<O>::max()), std::max(double(std::numeric_limits<O>::lowest()), q));
    return static_cast<O>(q);
  }
}

template <class T, class O>
void scale_cvt(const T* __restrict x, O* __restrict o, int64_t n, int mode, double s, double b) {
  if (mode == 0) {
    for (int64_t i = 0; i < n; ++i) o[i] = to_out<O>(double(x[i]) * s + b);
  } else if (mode == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = to_out<O>(double(static_cast<float>(double(x[i]) * s + b)));
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = to_out<O>(double(static_cast<float>(double(static_cast<float>(x[i])) * s + b)));
  }
}

// Where mask is 0: base's element, or 0 (restrict pointers: a select loop that vectorises, where a
// branch on a random mask mispredicts half the time).
template <class O>
void keep_masked(O* __restrict o, const uint8_t* __restrict m, const O* __restrict base, int64_t n) {
  if (base) {
    for (int64_t i = 0; i < n; ++i) o[i] = m[i] ? o[i] : base[i];
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = m[i] ? o[i] : O(0);
  }
}

template <class T, class O>
void lut_cvt(const T* __restrict x, O* __restrict o, int64_t n, const O* __restrict lut) {
  for (int64_t i = 0; i < n; ++i) o[i] = lut[uint8_t(x[i])];
}

class ScaleCvtKernel final : public backend::Kernel {
 public:
  explicit ScaleCvtKernel(const backend::StepDesc& s)
      : ScaleCvtKernel(s.inputs[0].dtype, s.output.dtype, s.inputs[0].shape, int(s.params->ints[1]), s.inputs.size(),
                       s.params->floats[0], s.params->floats[1]) {}
  // modes 1 and 2 take scale and shift as float32 values: Python rounds them (mnn/cv/_hist.py)
  ScaleCvtKernel(DType in, DType out, const Shape& sh, int mode, size_t ninp, double scale, double shift)
      : in_(in), out_(out), mode_(mode), ninp_(ninp), s_(scale), b_(shift) {
    np_ = sh[0] * sh[1], c_ = sh.size() == 3 ? sh[2] : 1;
  }
  void set(double scale, double shift) { s_ = scale, b_ = shift; }
  void run(char* const* in, char* out) override {
    by_type(in_, [&](auto zin) {
      using T = decltype(zin);
      by_type(out_, [&](auto zout) {
        using O = decltype(zout);
        const T* x = reinterpret_cast<const T*>(in[0]);
        O* o = reinterpret_cast<O*>(out);
        const uint8_t* m = ninp_ > 1 ? reinterpret_cast<const uint8_t*>(in[1]) : nullptr;
        const O* base = ninp_ > 2 ? reinterpret_cast<const O*>(in[2]) : nullptr;
        const int64_t c = c_;
        // an integer image converted to its own type with scale 1, shift 0 is itself (normalize
        // of an image already spanning the range): a copy
        const bool same = std::is_same<T, O>::value && std::is_integral<T>::value && s_ == 1.0 && b_ == 0.0;
        // 8-bit images to integers: the 256 answers as a table (the same arithmetic, once per
        // value); to floats the arithmetic itself vectorises better than a scalar lookup
        constexpr bool byte = sizeof(T) == 1 && std::is_integral<O>::value;
        O lut[256];
        if (byte && !same) {
          T v[256];
          for (int k = 0; k < 256; ++k) v[k] = static_cast<T>(uint8_t(k));
          scale_cvt<T, O>(v, lut, 256, mode_, s_, b_);
        }
        parallel_for(np_, std::max<int64_t>(1, kGrain / c), [&](int64_t p0, int64_t p1) {
          if (same) std::memcpy(o + p0 * c, x + p0 * c, size_t((p1 - p0) * c) * sizeof(O));
          else if (byte) lut_cvt<T, O>(x + p0 * c, o + p0 * c, (p1 - p0) * c, lut);
          else scale_cvt<T, O>(x + p0 * c, o + p0 * c, (p1 - p0) * c, mode_, s_, b_);
          if (!m) return;
          if (c == 1) return keep_masked<O>(o + p0, m + p0, base ? base + p0 : nullptr, p1 - p0);
          for (int64_t p = p0; p < p1; ++p)
            if (!m[p])
              for (int64_t j = 0; j < c; ++j) o[p * c + j] = base ? base[p * c + j] : O(0);
        });
      });
    });
  }

 private:
  DType in_, out_;
  int mode_;
  size_t ninp_;
  double s_, b_;
  int64_t np_, c_;
};

// ---- normalize in one kernel: the statistics (NormValKernel), scale and shift in the double
// arithmetic of mnn/cv/_core_ops.py's _normalize_native (Python floats: IEEE doubles, the same
// operations in the same order; no FMA contraction), then the conversion (ScaleCvtKernel). One
// engine evaluation instead of two and a round trip through Python ----

class NormalizeKernel final : public backend::Kernel {
 public:
  // ints: kind (32, 1, 2, 4 = NORM_L2), out depth, mode, has_mask; floats: alpha, beta
  explicit NormalizeKernel(const backend::StepDesc& s)
      : stats_(s.inputs[0].dtype, s.inputs[0].shape, int(s.params->ints[0]), s.params->ints[3] != 0),
        cvt_(s.inputs[0].dtype, s.output.dtype, s.inputs[0].shape, int(s.params->ints[2]), s.inputs.size(), 1.0, 0.0),
        kind_(int(s.params->ints[0])), mode_(int(s.params->ints[2])), alpha_(s.params->floats[0]), beta_(s.params->floats[1]) {}
  void run(char* const* in, char* out) override {
    constexpr double eps = 2.220446049250313e-16;  // DBL_EPSILON: cv2's test for a zero range or norm
    double r[2];
    stats_.stats(in, r);
    double scale, shift;
    if (kind_ == 32) {
      // Python's builtins.min / max: the first argument unless the second compares below / above
      const double dmin = beta_ < alpha_ ? beta_ : alpha_, dmax = beta_ > alpha_ ? beta_ : alpha_;
      const double range = r[1] - r[0];
      scale = (dmax - dmin) * (range > eps ? 1.0 / range : 0.0);
      shift = dmin - r[0] * scale;
    } else {
      const double nv = kind_ == 4 ? std::sqrt(r[0]) : r[0];
      scale = alpha_ * (std::fabs(nv) > eps ? 1.0 / nv : 0.0);
      shift = 0.0;
    }
    if (mode_) {
      // float32 values, as Python's struct round trip gives them; through volatile, as this build's
      // math flags let the compiler drop a plain double -> float -> double round trip
      volatile float fs = static_cast<float>(scale), fb = static_cast<float>(shift);
      scale = fs, shift = fb;
    }
    cvt_.set(scale, shift);
    cvt_.run(in, out);
  }

 private:
  NormValKernel stats_;
  ScaleCvtKernel cvt_;
  int kind_, mode_;
  double alpha_, beta_;
};

// ---- CLAHE (cv2's algorithm, the arithmetic of kernels/cv/filter_bilateral_clahe.cpp): tiles'
// clipped histograms made tables, then each pixel blends the four nearest tables bilinearly.
// Faster than that kernel by walking tiles row by row (no per-pixel border test where the image
// is a multiple of the grid) and by computing each column's tiles and weights once ----

inline int64_t reflect101(int64_t p, int64_t n) {
  if (p >= 0 && p < n) return p;
  if (n == 1) return 0;
  do { p = p < 0 ? -p : 2 * n - p - 2; } while (p < 0 || p >= n);
  return p;
}

class ClaheFastKernel final : public backend::Kernel {
 public:
  explicit ClaheFastKernel(const backend::StepDesc& s) {
    tx_ = s.params->ints[0], ty_ = s.params->ints[1];
    clip_ = s.params->floats[0];
    h_ = s.inputs[0].shape[0], w_ = s.inputs[0].shape[1];
    u16_ = s.inputs[0].dtype == DType::UInt16;
  }
  void run(char* const* in, char* out) override {
    if (u16_) go<uint16_t, 65536>(reinterpret_cast<const uint16_t*>(in[0]), reinterpret_cast<uint16_t*>(out));
    else go<uint8_t, 256>(reinterpret_cast<const uint8_t*>(in[0]), reinterpret_cast<uint8_t*>(out));
  }

 private:
  template <class T, int64_t N>
  void go(const T* src, T* dst) {
    const int64_t h = h_, w = w_, tx = tx_, ty = ty_;
    if (h == 0 || w == 0) return;
    const float top = static_cast<float>(N - 1);
    auto saturate = [top](float v) { return static_cast<T>(std::min(top, std::max(0.0f, std::nearbyint(v)))); };
    const bool padded = (w % tx) != 0 || (h % ty) != 0;
    const int64_t tw = padded ? (w + tx - w % tx) / tx : w / tx;
    const int64_t th = padded ? (h + ty - h % ty) / ty : h / ty;
    const int64_t tile_area = tw * th;
    int64_t clip = 0;
    if (clip_ > 0) clip = std::max<int64_t>(static_cast<int64_t>(clip_ * tile_area / N), 1);
    const float lut_scale = top / static_cast<float>(tile_area);
    std::vector<T> luts(static_cast<size_t>(tx * ty * N));
    // the source column of each padded column (reflect-101 beyond the image)
    std::vector<int64_t> col(static_cast<size_t>(tx * tw));
    for (int64_t x = 0; x < tx * tw; ++x) col[x] = reflect101(x, w);
    parallel_for(tx * ty, 1, [&](int64_t lo, int64_t hi) {
      std::vector<uint32_t> hist(static_cast<size_t>(N));
      for (int64_t t = lo; t < hi; ++t) {
        std::fill(hist.begin(), hist.end(), 0u);
        const int64_t by = t / tx, bx = t % tx, x0 = bx * tw;
        for (int64_t y = by * th; y < (by + 1) * th; ++y) {
          const T* row = src + reflect101(y, h) * w;
          if (x0 + tw <= w) {
            const T* r = row + x0;
            int64_t x = 0;
            for (; x + 2 <= tw; x += 2) ++hist[r[x]], ++hist[r[x + 1]];
            for (; x < tw; ++x) ++hist[r[x]];
          } else {
            for (int64_t x = x0; x < x0 + tw; ++x) ++hist[row[col[x]]];
          }
        }
        if (clip > 0) {
          int64_t excess = 0;
          for (auto& v : hist)
            if (int64_t(v) > clip) excess += int64_t(v) - clip, v = uint32_t(clip);
          const int64_t batch = excess / N;
          int64_t residual = excess - batch * N;
          for (auto& v : hist) v += uint32_t(batch);
          if (residual != 0) {
            const int64_t step = std::max<int64_t>(N / residual, 1);
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
    // per column: the two tiles' table offsets and the weights
    std::vector<int64_t> o1(static_cast<size_t>(w)), o2(static_cast<size_t>(w));
    std::vector<float> wa(static_cast<size_t>(w)), wa1(static_cast<size_t>(w));
    for (int64_t x = 0; x < w; ++x) {
      const float txf = static_cast<float>(x) * inv_tw - 0.5f;
      int64_t tx1 = static_cast<int64_t>(std::floor(txf)), tx2 = tx1 + 1;
      const float xa = txf - static_cast<float>(tx1);
      wa[x] = xa, wa1[x] = 1.0f - xa;
      o1[x] = std::max<int64_t>(tx1, 0) * N, o2[x] = std::min<int64_t>(tx2, tx - 1) * N;
    }
    parallel_for(h, std::max<int64_t>(1, kGrain / w), [&](int64_t y0, int64_t y1) {
      for (int64_t y = y0; y < y1; ++y) {
        const float tyf = static_cast<float>(y) * inv_th - 0.5f;
        int64_t ty1 = static_cast<int64_t>(std::floor(tyf)), ty2 = ty1 + 1;
        const float ya = tyf - static_cast<float>(ty1), ya1 = 1.0f - ya;
        ty1 = std::max<int64_t>(ty1, 0);
        ty2 = std::min<int64_t>(ty2, ty - 1);
        const T* r1 = &luts[static_cast<size_t>(ty1 * tx * N)];
        const T* r2 = &luts[static_cast<size_t>(ty2 * tx * N)];
        const T* s = src + y * w;
        T* d = dst + y * w;
        for (int64_t x = 0; x < w; ++x) {
          const int64_t v = s[x];
          const float xa = wa[x], xa1 = wa1[x];
          const float res = (r1[o1[x] + v] * xa1 + r1[o2[x] + v] * xa) * ya1 + (r2[o1[x] + v] * xa1 + r2[o2[x] + v] * xa) * ya;
          d[x] = saturate(res);
        }
      }
    });
  }

  int64_t tx_, ty_, h_, w_;
  double clip_;
  bool u16_;
};

template <class K>
std::unique_ptr<backend::Kernel> make(const backend::StepDesc& s) { return std::make_unique<K>(s); }

}  // namespace

MNN_REGISTER_CPU_KERNEL(cv_hist_n, "cv_hist_n", &make<HistNKernel>);
MNN_REGISTER_CPU_KERNEL(cv_autothresh, "cv_autothresh", &make<AutoThreshKernel>);
MNN_REGISTER_CPU_KERNEL(cv_thresh_lut, "cv_thresh_lut", &make<ThreshLutKernel>);
MNN_REGISTER_CPU_KERNEL(cv_equalize_lut, "cv_equalize_lut", &make<EqualizeLutKernel>);
MNN_REGISTER_CPU_KERNEL(cv_sums, "cv_sums", &make<SumsKernel>);
MNN_REGISTER_CPU_KERNEL(cv_normval, "cv_normval", &make<NormValKernel>);
MNN_REGISTER_CPU_KERNEL(cv_scale_cvt, "cv_scale_cvt", &make<ScaleCvtKernel>);
MNN_REGISTER_CPU_KERNEL(cv_normalize, "cv_normalize", &make<NormalizeKernel>);
MNN_REGISTER_CPU_KERNEL(cv_clahe_fast, "cv_clahe_fast", &make<ClaheFastKernel>);

}  // namespace mnn::cpu::MNN_ISA_NS
