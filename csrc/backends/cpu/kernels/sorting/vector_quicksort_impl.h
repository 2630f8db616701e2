// AVX2 quicksort for 32-bit values (float32 without NaNs, int32, uint32), in place, not stable.
//
// Long ranges are partitioned around a median-of-samples pivot eight lanes at a time: a compare
// mask picks a lane permutation from a table that moves the smaller lanes to the front, and the
// permuted vector is stored whole at both write ends (the left end keeps its front, the right end
// its back). Ranges of at most 128 elements are sorted in registers by a bitonic network. A range
// whose pivot is its minimum splits off the pivot's equal elements instead (few-unique and
// all-equal inputs stay linear per level), and a depth limit falls back to std::sort.
// Written for this project from the published technique (Bramas 2017; Blacher et al. 2021).
//
// Only vector_quicksort.cpp includes this; every function carries the AVX2 target attribute so
// the baseline engine can call it after a CPU check.
#pragma once
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#define MNN_VQ_FN __attribute__((target("avx2,fma,popcnt,bmi,bmi2"))) inline

namespace mnn::cpu::sorting::vq {

// Lane permutations that move the lanes whose mask bit is set to the front (in order) and the
// others to the back (in order), packed as 8 three-bit indices per entry.
struct PermLut {
  uint32_t e[256];
  constexpr PermLut() : e() {
    for (int m = 0; m < 256; ++m) {
      uint32_t packed = 0;
      int k = 0;
      for (int i = 0; i < 8; ++i)
        if (m >> i & 1) packed |= uint32_t(i) << (4 * k++);
      for (int i = 0; i < 8; ++i)
        if (!(m >> i & 1)) packed |= uint32_t(i) << (4 * k++);
      e[m] = packed;
    }
  }
};
inline constexpr PermLut kPerm{};

// The same, unpacked: one aligned load per partitioned vector (8 KiB, stays in L1).
struct PermLutWide {
  alignas(32) int32_t e[256][8];
  constexpr PermLutWide() : e() {
    for (int m = 0; m < 256; ++m)
      for (int i = 0; i < 8; ++i) e[m][i] = static_cast<int32_t>(kPerm.e[m] >> (4 * i) & 7);
  }
};
inline constexpr PermLutWide kPermWide{};

MNN_VQ_FN __m256i perm_of(int mask) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(kPermWide.e[mask]));
}

// Lane operations per element type (the network and partition code are shared).
struct F32 {
  using T = float;
  using V = __m256;
  static constexpr T kMax = std::numeric_limits<float>::infinity();  // padding: sorts last
  static MNN_VQ_FN V load(const T* p) { return _mm256_loadu_ps(p); }
  static MNN_VQ_FN V set1(T x) { return _mm256_set1_ps(x); }
  static MNN_VQ_FN V min(V a, V b) { return _mm256_min_ps(a, b); }
  static MNN_VQ_FN V max(V a, V b) { return _mm256_max_ps(a, b); }
  template <bool LE>
  static MNN_VQ_FN int left_mask(V v, V p) {
    return _mm256_movemask_ps(_mm256_cmp_ps(v, p, LE ? _CMP_LE_OQ : _CMP_LT_OQ));
  }
  static MNN_VQ_FN __m256 ps(V v) { return v; }
  static MNN_VQ_FN V of_ps(__m256 v) { return v; }
};

// int32 and uint32 share the integer register ops; the comparisons differ.
template <bool Signed>
struct I32 {
  using T = std::conditional_t<Signed, int32_t, uint32_t>;
  using V = __m256i;
  static constexpr T kMax = std::numeric_limits<T>::max();
  static MNN_VQ_FN V load(const T* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static MNN_VQ_FN V set1(T x) { return _mm256_set1_epi32(static_cast<int32_t>(x)); }
  static MNN_VQ_FN V min(V a, V b) { return Signed ? _mm256_min_epi32(a, b) : _mm256_min_epu32(a, b); }
  static MNN_VQ_FN V max(V a, V b) { return Signed ? _mm256_max_epi32(a, b) : _mm256_max_epu32(a, b); }
  template <bool LE>
  static MNN_VQ_FN int left_mask(V v, V p) {
    if constexpr (!Signed) {  // unsigned order is signed order with the top bit flipped
      const __m256i flip = _mm256_set1_epi32(INT32_MIN);
      v = _mm256_xor_si256(v, flip);
      p = _mm256_xor_si256(p, flip);
    }
    // x < p is p > x; x <= p is not x > p
    if constexpr (LE) return 0xFF & ~_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, p)));
    else return _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(p, v)));
  }
  static MNN_VQ_FN __m256 ps(V v) { return _mm256_castsi256_ps(v); }
  static MNN_VQ_FN V of_ps(__m256 v) { return _mm256_castps_si256(v); }
};

// Shuffles and blends move bits, so every element type runs them on the float view.
template <class D>
struct Lanes : D {
  using V = typename D::V;
  using T = typename D::T;
  static MNN_VQ_FN void store(T* p, V v) { _mm256_storeu_ps(reinterpret_cast<float*>(p), D::ps(v)); }
  static MNN_VQ_FN V permute(V v, __m256i idx) { return D::of_ps(_mm256_permutevar8x32_ps(D::ps(v), idx)); }
  template <int imm>
  static MNN_VQ_FN V blend(V a, V b) { return D::of_ps(_mm256_blend_ps(D::ps(a), D::ps(b), imm)); }
  template <int imm>
  static MNN_VQ_FN V shuf(V v) { return D::of_ps(_mm256_permute_ps(D::ps(v), imm)); }
  static MNN_VQ_FN V swap_halves(V v) { return D::of_ps(_mm256_permute2f128_ps(D::ps(v), D::ps(v), 1)); }
};

// Bitonic sorting network over R registers (8R elements) in a transposed layout: element i of
// the network lives in register i % R, lane i / R. Comparator distances below R then pair whole
// registers (a min and a max, no shuffle); only the distances of R and above need in-register
// shuffles, which are the expensive operations.
template <class D, int R, int K, int J>
MNN_VQ_FN void bitonic_stage(typename D::V* r) {
  using V = typename D::V;
  if constexpr (J < R) {
    for (int a = 0; a < R; ++a) {
      if (a & J) continue;
      const V x = r[a], y = r[a | J];
      const V mn = D::min(x, y), mx = D::max(x, y);
      if constexpr (K >= R) {
        // direction by lane: lanes whose bit K/R is set sort descending
        constexpr int desc = ((K / R) & 1 ? 0xAA : 0) | ((K / R) & 2 ? 0xCC : 0) | ((K / R) & 4 ? 0xF0 : 0);
        r[a] = D::template blend<desc>(mn, mx);
        r[a | J] = D::template blend<desc>(mx, mn);
      } else if ((a & K) == 0) {
        r[a] = mn;
        r[a | J] = mx;
      } else {
        r[a] = mx;
        r[a | J] = mn;
      }
    }
  } else {
    constexpr int ld = J / R, kb = K / R;
    constexpr int hi = (ld & 1 ? 0xAA : 0) | (ld & 2 ? 0xCC : 0) | (ld & 4 ? 0xF0 : 0);
    constexpr int desc = (kb & 1 ? 0xAA : 0) | (kb & 2 ? 0xCC : 0) | (kb & 4 ? 0xF0 : 0);
    constexpr int take_max = (hi ^ desc) & 0xFF;
    for (int a = 0; a < R; ++a) {
      V t;
      if constexpr (ld == 1) t = D::template shuf<_MM_SHUFFLE(2, 3, 0, 1)>(r[a]);
      else if constexpr (ld == 2) t = D::template shuf<_MM_SHUFFLE(1, 0, 3, 2)>(r[a]);
      else t = D::swap_halves(r[a]);
      r[a] = D::template blend<take_max>(D::min(r[a], t), D::max(r[a], t));
    }
  }
}

template <class D, int R, int K, int J>
MNN_VQ_FN void bitonic_merge_stages(typename D::V* r) {
  bitonic_stage<D, R, K, J>(r);
  if constexpr (J > 1) bitonic_merge_stages<D, R, K, J / 2>(r);
}

template <class D, int R, int K = 2>
MNN_VQ_FN void bitonic_sort(typename D::V* r) {
  bitonic_merge_stages<D, R, K, K / 2>(r);
  if constexpr (K < 8 * R) bitonic_sort<D, R, K * 2>(r);
}

MNN_VQ_FN void transpose8(__m256* r) {
  __m256 t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    u[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int i = 0; i < 4; ++i) {
    r[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20);
    r[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
  }
}

// Sorts n <= 8R elements: pads with the largest value, sorts, and writes back in row order.
template <class D, int R>
MNN_VQ_FN void small_sort_n(typename D::T* a, int64_t n) {
  using T = typename D::T;
  using V = typename D::V;
  alignas(32) T buf[8 * R];
  std::memcpy(buf, a, n * sizeof(T));
  for (int64_t i = n; i < 8 * R; ++i) buf[i] = D::kMax;
  V r[R];
  for (int i = 0; i < R; ++i) r[i] = D::load(buf + 8 * i);
  bitonic_sort<D, R>(r);
  // element i is in register i % R, lane i / R
  if constexpr (R == 1) {
    D::store(buf, r[0]);
  } else if constexpr (R == 2) {
    __m256 lo = _mm256_unpacklo_ps(D::ps(r[0]), D::ps(r[1])), hi = _mm256_unpackhi_ps(D::ps(r[0]), D::ps(r[1]));
    _mm256_storeu_ps(reinterpret_cast<float*>(buf), _mm256_permute2f128_ps(lo, hi, 0x20));
    _mm256_storeu_ps(reinterpret_cast<float*>(buf + 8), _mm256_permute2f128_ps(lo, hi, 0x31));
  } else if constexpr (R == 4) {
    __m256 r0 = D::ps(r[0]), r1 = D::ps(r[1]), r2 = D::ps(r[2]), r3 = D::ps(r[3]);
    __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    __m256 q[4] = {_mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2)),
                   _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2))};
    // q[m] holds lanes m (low half) and m + 4 (high half) of registers 0..3
    for (int m = 0; m < 4; ++m) {
      _mm_storeu_ps(reinterpret_cast<float*>(buf + 4 * m), _mm256_castps256_ps128(q[m]));
      _mm_storeu_ps(reinterpret_cast<float*>(buf + 16 + 4 * m), _mm256_extractf128_ps(q[m], 1));
    }
  } else {
    __m256 f[R];
    for (int i = 0; i < R; ++i) f[i] = D::ps(r[i]);
    for (int h = 0; h < R / 8; ++h) transpose8(f + 8 * h);
    // register 8h + m now holds lane m of registers 8h..8h+7
    for (int m = 0; m < 8; ++m)
      for (int h = 0; h < R / 8; ++h) _mm256_storeu_ps(reinterpret_cast<float*>(buf + 8 * (m * (R / 8) + h)), f[8 * h + m]);
  }
  std::memcpy(a, buf, n * sizeof(T));
}

constexpr int64_t kSmall = 128;

template <class D>
MNN_VQ_FN void small_sort(typename D::T* a, int64_t n) {
  if (n <= 1) return;
  if (n <= 8) return small_sort_n<D, 1>(a, n);
  if (n <= 16) return small_sort_n<D, 2>(a, n);
  if (n <= 32) return small_sort_n<D, 4>(a, n);
  if (n <= 64) return small_sort_n<D, 8>(a, n);
  return small_sort_n<D, 16>(a, n);
}

// ---- partition ----

template <class D, bool LE>
MNN_VQ_FN void put(typename D::V v, typename D::V P, typename D::T*& wl, typename D::T*& wr) {
  int m = D::template left_mask<LE>(v, P);
  typename D::V pv = D::permute(v, perm_of(m));
  int c = _mm_popcnt_u32(m);
  D::store(wl, pv);
  D::store(wr - 8, pv);
  wl += c;
  wr -= 8 - c;
}

// Reads U vectors from the left end or the right end of the unread range [rl, rr), the side
// with less free room: the choice is data-dependent, so it is made without a branch.
template <int U, class T>
MNN_VQ_FN const T* take(T*& rl, T*& rr, const T* wl, const T* wr) {
  const uintptr_t left = static_cast<uintptr_t>(-static_cast<intptr_t>(rl - wl <= wr - rr));
  const uintptr_t l = reinterpret_cast<uintptr_t>(rl), r = reinterpret_cast<uintptr_t>(rr - 8 * U);
  const uintptr_t step = (8 * U * sizeof(T)) & left;
  rl = reinterpret_cast<T*>(l + step);
  rr = reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(rr) - (8 * U * sizeof(T) - step));
  return reinterpret_cast<const T*>(r ^ ((l ^ r) & left));
}

// Partition a[0..n) (n >= 24 * U, a multiple of 8) so that the elements x < p (x <= p with LE)
// come first; returns their count. U vectors are kept back from each end, so every store of a
// partitioned vector (whole, at both write ends) lands on room already read. The loop is
// pipelined: it loads the next U vectors before storing the current ones, so the choice of side
// (which depends on the stores' counts) is off the load's critical path.
template <class D, bool LE>
MNN_VQ_FN int64_t partition_vec(typename D::T* a, int64_t n, typename D::V P) {
  using T = typename D::T;
  using V = typename D::V;
  constexpr int U = 4;
  V keep[2 * U], cur[U];
  for (int i = 0; i < U; ++i) {
    keep[i] = D::load(a + 8 * i);
    keep[U + i] = D::load(a + n - 8 * (i + 1));
    cur[i] = D::load(a + 8 * (U + i));
  }
  T* rl = a + 16 * U;
  T* rr = a + n - 8 * U;
  T* wl = a;
  T* wr = a + n;
  // free room: 2U vectors kept + U pending = 24U elements, so the side read has at most 12U free
  // before and both sides have at least 8U after it, enough for the U pending stores.
  while (rr - rl >= 8 * U) {
    const T* src = take<U>(rl, rr, wl, wr);
    V nxt[U];
    for (int i = 0; i < U; ++i) nxt[i] = D::load(src + 8 * i);
    for (int i = 0; i < U; ++i) put<D, LE>(cur[i], P, wl, wr);
    for (int i = 0; i < U; ++i) cur[i] = nxt[i];
  }
  // the last unread vectors (fewer than U) go to registers too: the free room is then the whole
  // contiguous gap [wl, wr), and any store order is safe
  V rest[U];
  const int nrest = static_cast<int>((rr - rl) / 8);
  for (int i = 0; i < nrest; ++i) rest[i] = D::load(rl + 8 * i);
  for (int i = 0; i < U; ++i) put<D, LE>(cur[i], P, wl, wr);
  for (int i = 0; i < nrest; ++i) put<D, LE>(rest[i], P, wl, wr);
  for (int i = 0; i < 2 * U; ++i) put<D, LE>(keep[i], P, wl, wr);
  return wl - a;
}

template <class D, bool LE>
MNN_VQ_FN int64_t partition(typename D::T* a, int64_t n, typename D::T p) {
  using T = typename D::T;
  const int64_t body = n & ~int64_t(7);
  T tail[8];
  const int rem = static_cast<int>(n - body);
  std::memcpy(tail, a + body, rem * sizeof(T));
  int64_t m = partition_vec<D, LE>(a, body, D::set1(p));
  int64_t end = body;
  for (int i = 0; i < rem; ++i) {
    T x = tail[i];
    if (LE ? x <= p : x < p) {
      a[end++] = a[m];
      a[m++] = x;
    } else {
      a[end++] = x;
    }
  }
  return m;
}

// The median of 8 (64 for long ranges) evenly spaced samples, found with the sorting network:
// a branchy selection costs as much as partitioning the short ranges near the leaves.
template <class D>
MNN_VQ_FN typename D::T pick_pivot(const typename D::T* a, int64_t n) {
  using T = typename D::T;
  alignas(32) T s[64];
  const int k = n > 8192 ? 64 : 8;
  const int64_t step = n / k;
  for (int i = 0; i < k; ++i) s[i] = a[i * step + step / 2];
  if (k == 64) small_sort_n<D, 8>(s, 64);
  else small_sort_n<D, 1>(s, 8);
  return s[k / 2];
}

template <class D>
MNN_VQ_FN void qsort_rec(typename D::T* a, int64_t n, int depth) {
  using T = typename D::T;
  while (n > kSmall) {
    if (depth-- <= 0) {  // bad pivots: O(n log n) whatever the input
      std::sort(a, a + n);
      return;
    }
    T p = pick_pivot<D>(a, n);
    int64_t m = partition<D, false>(a, n, p);
    if (m == 0) {
      // p is the smallest value: split off the elements equal to it (already in place)
      int64_t e = partition<D, true>(a, n, p);
      a += e;
      n -= e;
      continue;
    }
    // recurse into the smaller side, loop on the larger
    if (m < n - m) {
      qsort_rec<D>(a, m, depth);
      a += m;
      n -= m;
    } else {
      qsort_rec<D>(a + m, n - m, depth);
      n = m;
    }
  }
  small_sort<D>(a, n);
}

template <class D>
MNN_VQ_FN void sort(typename D::T* a, int64_t n) {
  int depth = 2;
  for (int64_t k = n; k > 1; k >>= 1) depth += 2;
  qsort_rec<D>(a, n, depth);
}

}  // namespace mnn::cpu::sorting::vq
