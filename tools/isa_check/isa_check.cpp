// Standalone check of one ISA's kernel table against the scalar one, without Python: built by
// tools/check_neon.sh from the simd/ sources compiled twice (namespaces scalar and neon) and run
// under qemu-aarch64. Every table entry runs on random inputs with tails (lengths 0..67 and
// larger), misaligned starts and strided views. Expectations:
//  - entries whose code is the same C++ in both targets (most elementwise ops, integer work),
//    the casts, transposes, reductions (float sums keep numpy's pairwise order in every target):
//    byte-identical to scalar (float NaNs compare as NaN, whatever their payload);
//  - the GEMM microkernels: bit-identical to a reference summing in the same k order, with
//    fused multiply-adds for the neon tile and separate ones for the scalar tile;
//  - exp/log/tanh/sin/cos float32: within 2 ulp of scalar, special values exact, same FE flags.
// Exits 1 on the first section with a mismatch (after printing up to 10 of them).
#include <cfenv>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/simd/kernel_table.h"
#include "core/dtype.h"
#include "core/node.h"

#ifndef MNN_CHECK_ISA
#define MNN_CHECK_ISA neon
#endif
#define MNN_STR2(x) #x
#define MNN_STR(x) MNN_STR2(x)

// The engine's error flags live in kernels/dispatch.cpp, which this check does not link.
namespace mnn::cpu {
std::atomic<int>& error_flags() {
  static std::atomic<int> flags{0};
  return flags;
}
}  // namespace mnn::cpu

namespace {

using namespace mnn;
using core::DType;
using core::Op;
using cpu::KernelTable;

std::mt19937_64 rng(12345);
int failures = 0, reported = 0;
long checks = 0;

void fail(const std::string& what) {
  ++failures;
  if (++reported <= 10) std::printf("  MISMATCH %s\n", what.c_str());
}

const char* op_names[] = {
#define X(name, pyname, arity, rule) pyname,
#include "prims/opcodes.def"
#undef X
};
const int op_arity[] = {
#define X(name, pyname, arity, rule) arity,
#include "prims/opcodes.def"
#undef X
};

// 64-byte aligned storage; data(off) starts `off` bytes in (misaligned views).
struct Buf {
  std::vector<unsigned char> raw;
  explicit Buf(size_t bytes, unsigned char fill = 0xcd) : raw(bytes + 128, fill) {}
  Buf(const Buf& o) : raw(o.raw.size()) {  // copies from the aligned start: views keep their offsets
    const size_t len = raw.size() >= 64 ? raw.size() - 64 : 0;
    std::memcpy(data(), o.data(), len);
  }
  Buf& operator=(const Buf&) = delete;
  unsigned char* data(size_t off = 0) { return const_cast<unsigned char*>(static_cast<const Buf*>(this)->data(off)); }
  const unsigned char* data(size_t off = 0) const {
    auto p = reinterpret_cast<uintptr_t>(raw.data());
    return reinterpret_cast<const unsigned char*>((p + 63) & ~uintptr_t(63)) + off;
  }
};

float f32_of(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
double f64_of(uint64_t u) { double f; std::memcpy(&f, &u, 8); return f; }

float rand_float() {
  static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -1e-45f, 3.4e38f, -1.0f, 1.0f, 0.5f};
  unsigned r = rng() % 16;
  if (r == 0) return specials[rng() % (sizeof specials / sizeof *specials)];
  if (r == 1) return f32_of(static_cast<uint32_t>(rng()));
  std::uniform_real_distribution<float> u(-100.0f, 100.0f);
  return u(rng);
}
double rand_double() {
  static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-310, 1.7e308, -1.0, 1.0};
  unsigned r = rng() % 16;
  if (r == 0) return specials[rng() % (sizeof specials / sizeof *specials)];
  if (r == 1) return f64_of(rng());
  std::uniform_real_distribution<double> u(-100.0, 100.0);
  return u(rng);
}

// n random values of dtype d at p; `finite` keeps floats finite and moderate (sums, GEMM).
void fill_random(DType d, unsigned char* p, int64_t n, bool finite = false) {
  for (int64_t i = 0; i < n; ++i) {
    switch (d) {
      case DType::Bool: p[i] = rng() & 1; break;
      case DType::Float16: {
        uint16_t h = finite ? core::float_to_half_bits(std::uniform_real_distribution<float>(-8, 8)(rng))
                    : (rng() % 4 == 0 ? static_cast<uint16_t>(rng()) : core::float_to_half_bits(rand_float() * 0.01f));
        std::memcpy(p + 2 * i, &h, 2);
        break;
      }
      case DType::BFloat16: {
        uint16_t h = static_cast<uint16_t>(rng());
        if (finite) h = core::float_to_bfloat16_bits(std::uniform_real_distribution<float>(-8, 8)(rng));
        std::memcpy(p + 2 * i, &h, 2);
        break;
      }
      case DType::Float32: case DType::Complex64: {
        int k = d == DType::Complex64 ? 2 : 1;
        for (int c = 0; c < k; ++c) {
          float f = finite ? std::uniform_real_distribution<float>(-8, 8)(rng) : rand_float();
          std::memcpy(p + 4 * (k * i + c), &f, 4);
        }
        break;
      }
      case DType::Float64: case DType::Complex128: {
        int k = d == DType::Complex128 ? 2 : 1;
        for (int c = 0; c < k; ++c) {
          double f = finite ? std::uniform_real_distribution<double>(-8, 8)(rng) : rand_double();
          std::memcpy(p + 8 * (k * i + c), &f, 8);
        }
        break;
      }
      default: {  // integers: small values half the time (division, shifts), any bits otherwise
        size_t sz = core::itemsize(d);
        uint64_t v = rng() % 2 ? rng() : static_cast<uint64_t>(static_cast<int64_t>(rng() % 21) - 10);
        std::memcpy(p + sz * i, &v, sz);
        break;
      }
    }
  }
}

// Element equality: bytes, except that two NaNs of a float dtype are equal.
bool same_elem(DType d, const unsigned char* a, const unsigned char* b) {
  size_t sz = core::itemsize(d);
  if (!std::memcmp(a, b, sz)) return true;
  auto both_nan16 = [](const unsigned char* x, const unsigned char* y, bool bf) {
    uint16_t u, v;
    std::memcpy(&u, x, 2), std::memcpy(&v, y, 2);
    uint16_t e = bf ? 0x7f80 : 0x7c00, m = bf ? 0x7f : 0x3ff;
    return (u & e) == e && (u & m) && (v & e) == e && (v & m);
  };
  switch (d) {
    case DType::Float16: return both_nan16(a, b, false);
    case DType::BFloat16: return both_nan16(a, b, true);
    case DType::Float32: { float x, y; std::memcpy(&x, a, 4), std::memcpy(&y, b, 4); return x != x && y != y; }
    case DType::Float64: { double x, y; std::memcpy(&x, a, 8), std::memcpy(&y, b, 8); return x != x && y != y; }
    case DType::Complex64:
      return same_elem(DType::Float32, a, b) && same_elem(DType::Float32, a + 4, b + 4);
    case DType::Complex128:
      return same_elem(DType::Float64, a, b) && same_elem(DType::Float64, a + 8, b + 8);
    default: return false;
  }
}

std::string dname(int d) { return core::dtype_name(static_cast<DType>(d)); }

// ---- elementwise, casts, where ----------------------------------------------------------------
bool is_vmath(int op, int d) {
  if (d != static_cast<int>(DType::Float32)) return false;
  Op o = static_cast<Op>(op);
  return o == Op::Exp || o == Op::Log || o == Op::Tanh || o == Op::Sin || o == Op::Cos;
}

void check_elementwise(const KernelTable& s, const KernelTable& v) {
  int entries = 0;
  for (int op = 0; op < static_cast<int>(Op::kNumElementwise); ++op)
    for (int d = 0; d < core::kNumDTypes; ++d)
      for (int sb = 0; sb < 2; ++sb) {
        cpu::EwFn fs = sb ? s.ew_scalar_b[op][d] : s.ew[op][d];
        cpu::EwFn fv = sb ? v.ew_scalar_b[op][d] : v.ew[op][d];
        if (!fs && !fv) continue;
        if (!fs || !fv) { fail(std::string("ew table presence differs: ") + op_names[op] + " " + dname(d)); continue; }
        if (is_vmath(op, d)) continue;  // ulp checks below
        ++entries;
        const size_t sz = core::itemsize(static_cast<DType>(d));
        for (int64_t n = 0; n <= 67; ++n) {
          const size_t off = (n % 4) * sz;  // misaligned starts
          Buf a(n * sz + 64), b(n * sz + 64), os(n * 16 + 64), ov(n * 16 + 64);
          fill_random(static_cast<DType>(d), a.data(off), n);
          fill_random(static_cast<DType>(d), b.data(off), sb ? 1 : n);
          const char* in[2] = {reinterpret_cast<char*>(a.data(off)), reinterpret_cast<char*>(b.data(off))};
          fs(n, in, reinterpret_cast<char*>(os.data(off)));
          fv(n, in, reinterpret_cast<char*>(ov.data(off)));
          ++checks;
          // outputs are of several dtypes (bool, the real part of complex): bytes, except NaNs of d
          for (int64_t i = 0; i < n * 16 + 64 - static_cast<int64_t>(off); i += 1) {
            if (os.data(off)[i] == ov.data(off)[i]) continue;
            int64_t e = i / sz;
            if (e < n && same_elem(static_cast<DType>(d), os.data(off) + e * sz, ov.data(off) + e * sz)) {
              i = (e + 1) * sz - 1;
              continue;
            }
            fail(std::string("ew ") + op_names[op] + (sb ? " (scalar b) " : " ") + dname(d) + " n=" + std::to_string(n) +
                 " byte " + std::to_string(i));
            break;
          }
        }
      }
  std::printf("elementwise: %d table entries (vmath aside), byte-exact vs scalar, n = 0..67\n", entries);
}

void check_casts(const KernelTable& s, const KernelTable& v) {
  int entries = 0;
  for (int f = 0; f < core::kNumDTypes; ++f)
    for (int d = 0; d < core::kNumDTypes; ++d) {
      if (!s.cast[f][d]) continue;
      ++entries;
      const size_t fs = core::itemsize(static_cast<DType>(f)), ds = core::itemsize(static_cast<DType>(d));
      for (int64_t n = 0; n <= 67; ++n) {
        Buf a(n * fs), os(n * ds), ov(n * ds);
        const size_t off = n % 3;
        fill_random(static_cast<DType>(f), a.data(off * fs), n);
        s.cast[f][d](n, reinterpret_cast<char*>(a.data(off * fs)), reinterpret_cast<char*>(os.data(off * ds)));
        v.cast[f][d](n, reinterpret_cast<char*>(a.data(off * fs)), reinterpret_cast<char*>(ov.data(off * ds)));
        ++checks;
        if (std::memcmp(os.data(), ov.data(), n * ds + 64))
          fail("cast " + dname(f) + " -> " + dname(d) + " n=" + std::to_string(n));
      }
    }
  // The hardware float16 conversions: every half, and floats around every rounding boundary.
  const int f16 = static_cast<int>(DType::Float16), f32 = static_cast<int>(DType::Float32);
  std::vector<uint16_t> h(65536 + 3);
  for (int i = 0; i < 65536; ++i) h[i] = static_cast<uint16_t>(i);
  std::vector<float> o1(h.size()), o2(h.size());
  s.cast[f16][f32](65536, reinterpret_cast<char*>(h.data() + 1) - 2, reinterpret_cast<char*>(o1.data()));
  v.cast[f16][f32](65536, reinterpret_cast<char*>(h.data() + 1) - 2, reinterpret_cast<char*>(o2.data()));
  if (std::memcmp(o1.data(), o2.data(), 65536 * 4)) fail("cast float16 -> float32 over all 65536 halves");
  std::vector<float> x;
  for (int i = 0; i < 65536; ++i) {
    float base = core::half_bits_to_float(static_cast<uint16_t>(i));
    if (base != base) { x.push_back(f32_of(0x7fc00000u | (rng() & 0x3fffff))); x.push_back(-base); continue; }
    float next = core::half_bits_to_float(static_cast<uint16_t>(i + 1));
    float mid = base + (next - base) * 0.5f;  // exact halfway cases (and the last finite -> inf)
    x.insert(x.end(), {base, mid, std::nextafter(mid, INFINITY), std::nextafter(mid, -INFINITY)});
  }
  for (int i = 0; i < 200000; ++i) x.push_back(f32_of(static_cast<uint32_t>(rng())));
  std::vector<uint16_t> r1(x.size()), r2(x.size());
  s.cast[f32][f16](x.size(), reinterpret_cast<char*>(x.data()), reinterpret_cast<char*>(r1.data()));
  v.cast[f32][f16](x.size(), reinterpret_cast<char*>(x.data()), reinterpret_cast<char*>(r2.data()));
  for (size_t i = 0; i < x.size(); ++i)
    if (r1[i] != r2[i]) {
      char msg[128];
      std::snprintf(msg, sizeof msg, "cast float32 -> float16 of %a: %04x vs %04x", x[i], r1[i], r2[i]);
      fail(msg);
    }
  checks += 2;
  // where
  for (size_t isz : {1, 2, 4, 8, 16})
    for (int64_t n = 0; n <= 67; ++n) {
      Buf c(n), a(n * isz), b(n * isz), os(n * isz), ov(n * isz);
      fill_random(DType::Bool, c.data(), n);
      fill_random(DType::UInt8, a.data(), n * isz);
      fill_random(DType::UInt8, b.data(), n * isz);
      auto cp = [](Buf& q) { return reinterpret_cast<char*>(q.data()); };
      s.where(n, cp(c), cp(a), cp(b), cp(os), isz);
      v.where(n, cp(c), cp(a), cp(b), cp(ov), isz);
      ++checks;
      if (std::memcmp(os.data(), ov.data(), n * isz + 64)) fail("where itemsize " + std::to_string(isz));
    }
  std::printf("casts: %d pairs byte-exact vs scalar, n = 0..67; float16 <-> float32 on all halves and %zu floats; where\n",
              entries, x.size());
}

// ---- reductions -------------------------------------------------------------------------------
void check_reduce(const KernelTable& s, const KernelTable& v) {
  std::vector<int64_t> lengths;
  for (int64_t n = 0; n <= 67; ++n) lengths.push_back(n);
  for (int64_t n : {127, 128, 129, 255, 256, 257, 300, 1000, 2048, 2049, 2100, 4099, 16384, 16391, 40000, 131072, 131080})
    lengths.push_back(n);
  int entries = 0;
  const char* kinds[] = {"sum", "prod", "max", "min"};
  for (int d = 0; d < core::kNumDTypes; ++d) {
    const DType dt = static_cast<DType>(d);
    if (!s.reduce_run[0][d]) continue;
    const size_t sz = core::itemsize(dt), accsz = dt == DType::Float16 ? 4 : sz;
    const DType accdt = dt == DType::Float16 ? DType::Float32 : dt;
    for (int k = 0; k < 4; ++k) {
      entries += 2;
      for (int64_t n : lengths) {
        // >= 4 runs of >= 256: the lockstep sums; one long run: its quarters / eighths in lockstep
        const int64_t count = n > 50000 ? 1 : n >= 256 ? 5 : (n % 3) + 1;
        const int64_t pitch = (n + (n % 5)) * sz;  // runs `pitch` bytes apart, gaps between them
        for (bool finite : {true, false}) {
          if (!finite && n > 2100) continue;
          Buf a(pitch * count + 64);
          const size_t off = (n % 4) * sz;
          for (int64_t c = 0; c < count; ++c) fill_random(dt, a.data(off + c * pitch), n, finite);
          Buf as(count * accsz), av(count * accsz);
          s.reduce_run[k][d](reinterpret_cast<char*>(a.data(off)), n, count, pitch, as.data());
          v.reduce_run[k][d](reinterpret_cast<char*>(a.data(off)), n, count, pitch, av.data());
          ++checks;
          for (int64_t c = 0; c < count; ++c)
            if (!same_elem(accdt, as.data() + c * accsz, av.data() + c * accsz)) {
              fail(std::string("reduce_run ") + kinds[k] + " " + dname(d) + " n=" + std::to_string(n));
              break;
            }
        }
      }
      // rows: acc[j] = op(acc[j], row_r[j])
      for (int64_t n = 0; n <= 67; ++n)
        for (int64_t nrows : {0, 1, 3, 8, 9, 20}) {
          const int64_t stride = (n + 3) * sz;
          Buf a(stride * nrows + 64), acc0(n * sz);
          const size_t off = (n % 2) * sz;
          for (int64_t r = 0; r < nrows; ++r) fill_random(dt, a.data(off + r * stride), n, n % 2);
          fill_random(dt, acc0.data(), n, true);
          Buf as = acc0, av = acc0;
          s.reduce_rows[k][d](reinterpret_cast<char*>(a.data(off)), stride, nrows, n, reinterpret_cast<char*>(as.data()));
          v.reduce_rows[k][d](reinterpret_cast<char*>(a.data(off)), stride, nrows, n, reinterpret_cast<char*>(av.data()));
          ++checks;
          for (int64_t j = 0; j < n; ++j)
            if (!same_elem(dt, as.data() + j * sz, av.data() + j * sz)) {
              fail(std::string("reduce_rows ") + kinds[k] + " " + dname(d) + " n=" + std::to_string(n) +
                   " rows=" + std::to_string(nrows));
              break;
            }
        }
    }
    // any/all, argmax/argmin
    for (int k = 0; k < 2; ++k) {
      entries += 4;
      for (int64_t n : lengths) {
        if (n > 40000) continue;
        for (int sparse = 0; sparse < 2; ++sparse) {
          Buf a(n * sz + 64, 0);
          const size_t off = (n % 4) * sz;
          if (sparse) {  // mostly zeros (any/all decide late), or a single extreme late (argmax)
            if (n) fill_random(dt, a.data(off + (rng() % n) * sz), 1);
          } else {
            fill_random(dt, a.data(off), n, n % 2);
          }
          const char* p = reinterpret_cast<const char*>(a.data(off));
          ++checks;
          if (s.bool_run[k][d](p, n) != v.bool_run[k][d](p, n))
            fail(std::string(k ? "all " : "any ") + dname(d) + " n=" + std::to_string(n));
          if (n >= 1 && s.arg_run[k][d] && s.arg_run[k][d](p, n) != v.arg_run[k][d](p, n))
            fail(std::string(k ? "argmin " : "argmax ") + dname(d) + " n=" + std::to_string(n));
        }
      }
      for (int64_t n = 0; n <= 67; ++n)
        for (int64_t nrows : {0, 1, 5, 16, 17, 40}) {
          const int64_t stride = (n + 1) * sz;
          Buf a(stride * nrows + 64);
          for (int64_t r = 0; r < nrows; ++r) fill_random(dt, a.data(r * stride), n, (n + r) % 3 != 0);
          const char* p = reinterpret_cast<const char*>(a.data());
          std::vector<uint8_t> bs(n), bv;
          for (auto& b : bs) b = rng() & 1;
          bv = bs;
          s.bool_rows[k][d](p, stride, nrows, n, reinterpret_cast<bool*>(bs.data()));
          v.bool_rows[k][d](p, stride, nrows, n, reinterpret_cast<bool*>(bv.data()));
          ++checks;
          if (bs != bv) fail(std::string(k ? "all rows " : "any rows ") + dname(d) + " n=" + std::to_string(n));
          if (!s.arg_rows[k][d]) continue;
          Buf best0(n * sz);
          fill_random(dt, best0.data(), n, n % 2);
          Buf bes = best0, bev = best0;
          std::vector<int64_t> is(n, 0), iv(n, 0);
          s.arg_rows[k][d](p, stride, nrows, 1, n, reinterpret_cast<char*>(bes.data()), is.data());
          v.arg_rows[k][d](p, stride, nrows, 1, n, reinterpret_cast<char*>(bev.data()), iv.data());
          bool same = is == iv;
          for (int64_t j = 0; j < n && same; ++j) same = same_elem(dt, bes.data() + j * sz, bev.data() + j * sz);
          if (!same) fail(std::string(k ? "argmin rows " : "argmax rows ") + dname(d) + " n=" + std::to_string(n));
        }
    }
  }
  std::printf("reductions: %d table entries bit-exact vs scalar (float sums in numpy's pairwise order), n up to 131080\n",
              entries);
}

// ---- transposes ---------------------------------------------------------------------------------
void check_transpose(const KernelTable& s, const KernelTable& v) {
  const int64_t dims[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 67};
  for (int e = 0; e < 4; ++e) {
    const int64_t sz = int64_t(1) << e;
    auto run = [&](int64_t rows, int64_t cols, int64_t sp, int64_t dp, size_t off) {
      Buf src(rows * sp * sz + 64), ds(cols * dp * sz + 64), dv(cols * dp * sz + 64);
      fill_random(DType::UInt8, src.data(), rows * sp * sz + 64);
      char* sptr = reinterpret_cast<char*>(src.data(off * sz));
      s.transpose[e](sptr, sp, reinterpret_cast<char*>(ds.data(off * sz)), dp, rows, cols);
      v.transpose[e](sptr, sp, reinterpret_cast<char*>(dv.data(off * sz)), dp, rows, cols);
      ++checks;
      bool ok = !std::memcmp(ds.data(), dv.data(), cols * dp * sz + 64);
      for (int64_t r = 0; r < rows && ok; ++r)  // and the reference
        for (int64_t c = 0; c < cols && ok; ++c)
          ok = !std::memcmp(dv.data(off * sz) + (c * dp + r) * sz, src.data(off * sz) + (r * sp + c) * sz, sz);
      if (!ok)
        fail("transpose " + std::to_string(sz) + "-byte " + std::to_string(rows) + "x" + std::to_string(cols) +
             " sp=" + std::to_string(sp) + " dp=" + std::to_string(dp));
    };
    for (int64_t rows : dims)
      for (int64_t cols : dims) run(rows, cols, cols + rng() % 4, rows + rng() % 4, rng() % 4);
    for (int64_t c = 2; c <= 4; ++c)  // the narrow (pixel <-> plane) paths
      for (int64_t n : {16, 17, 67}) run(n, c, c, n + 1, 1), run(c, n, n + 2, c, 3);
  }
  std::printf("transposes: 1/2/4/8-byte blocks up to 67x67, strided and misaligned, exact vs scalar and a reference\n");
}

// ---- GEMM ---------------------------------------------------------------------------------------
template <class T>
void check_gemm(const cpu::GemmKernel<T>& g, const cpu::GemmKernel<T>& gs, bool fused, const char* what) {
  const int mr = g.mr, nr = g.nr;
  for (int64_t kc : {0, 1, 2, 3, 4, 5, 17, 64, 67, 256})
    for (int m = 1; m <= mr; ++m)
      for (int n = 1; n <= nr; ++n)
        for (int acc = 0; acc < 2; ++acc) {
          std::vector<T> a(kc * mr, T(0)), b(kc * nr, T(0));
          std::uniform_real_distribution<T> u(-4, 4);
          for (int64_t k = 0; k < kc; ++k) {
            for (int i = 0; i < m; ++i) a[k * mr + i] = u(rng);
            for (int j = 0; j < n; ++j) b[k * nr + j] = u(rng);
          }
          const int64_t ldc = n + 3;
          std::vector<T> c(mr * ldc + 8);
          for (auto& x : c) x = u(rng);
          std::vector<T> ref = c;
          for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
              T t = T(0);
              for (int64_t k = 0; k < kc; ++k)
                t = fused ? std::fma(a[k * mr + i], b[k * nr + j], t) : t + a[k * mr + i] * b[k * nr + j];
              T& r = ref[1 + i * ldc + j];  // C starts one element in (misaligned)
              r = acc ? r + t : t;
            }
          g.ukr(kc, a.data(), b.data(), c.data() + 1, ldc, m, n, acc, a.data());  // pf: any address
          ++checks;
          if (std::memcmp(c.data(), ref.data(), c.size() * sizeof(T)))  // and nothing outside m x n
            fail(std::string(what) + " ukr kc=" + std::to_string(kc) + " m=" + std::to_string(m) +
                 " n=" + std::to_string(n) + (acc ? " accumulate" : ""));
        }
  // gemv / small: the same C++ in both targets, so identical to scalar (and close to a reference)
  for (int64_t m : {0, 1, 3, 4, 7, 17})
    for (int64_t kk : {0, 1, 5, 8, 16, 33, 67}) {
      const int64_t n = (m * 7 + kk) % 23 + 1, lda = kk + 2;
      std::uniform_real_distribution<T> u(-1, 1);
      std::vector<T> a(m * lda + 1), x(kk + 1), bmat(kk * (n + 1) + 1);
      for (auto& q : a) q = u(rng);
      for (auto& q : x) q = u(rng);
      for (auto& q : bmat) q = u(rng);
      std::vector<T> y1(m + 1, T(7)), y2 = y1;
      g.gemv_rows(m, kk, a.data() + 1, lda, x.data() + 1, y1.data());
      gs.gemv_rows(m, kk, a.data() + 1, lda, x.data() + 1, y2.data());
      bool ok = y1 == y2;
      for (int64_t i = 0; i < m && ok; ++i) {
        double r = 0;
        for (int64_t k = 0; k < kk; ++k) r += double(a[1 + i * lda + k]) * double(x[1 + k]);
        ok = std::fabs(r - y1[i]) <= 1e-4 * (1 + kk);
      }
      std::vector<T> z1(n + 1, T(7)), z2 = z1;
      g.gemv_cols(kk, n, bmat.data() + 1, n + 1, x.data(), z1.data());
      gs.gemv_cols(kk, n, bmat.data() + 1, n + 1, x.data(), z2.data());
      ok = ok && z1 == z2;
      std::vector<T> c1(m * n + 1, T(7)), c2 = c1;
      g.small(m, n, kk, a.data() + 1, lda, 1, bmat.data() + 1, n + 1, c1.data());
      gs.small(m, n, kk, a.data() + 1, lda, 1, bmat.data() + 1, n + 1, c2.data());
      ok = ok && c1 == c2;
      ++checks;
      if (!ok) fail(std::string(what) + " gemv/small m=" + std::to_string(m) + " k=" + std::to_string(kk));
    }
  std::printf("%s: %dx%d tile vs a k-ordered %s reference, bit-exact (m, n tails, kc 0..256, accumulate); "
              "gemv/small exact vs scalar\n", what, mr, nr, fused ? "FMA" : "mul+add");
}

// ---- vmath --------------------------------------------------------------------------------------
int64_t ordered(float f) {
  int32_t i;
  std::memcpy(&i, &f, 4);
  return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : i;
}

void check_vmath(const KernelTable& s, const KernelTable& v) {
  const int f32 = static_cast<int>(DType::Float32);
  struct F { Op op; const char* name; float lo, hi; };
  const F fns[] = {{Op::Exp, "exp", -110, 95}, {Op::Log, "log", 0, 1e6}, {Op::Tanh, "tanh", -12, 12},
                   {Op::Sin, "sin", -9000, 9000}, {Op::Cos, "cos", -9000, 9000}};
  for (const F& f : fns) {
    cpu::EwFn fs = s.ew[static_cast<int>(f.op)][f32], fv = v.ew[static_cast<int>(f.op)][f32];
    std::vector<float> x;
    std::uniform_real_distribution<float> u(f.lo, f.hi), w(-2, 2);
    for (int i = 0; i < 300000; ++i) x.push_back(u(rng));
    for (int i = 0; i < 100000; ++i) x.push_back(w(rng));
    for (int i = 0; i < 100000; ++i) x.push_back(f32_of(static_cast<uint32_t>(rng())));  // every exponent, NaNs
    for (float sp : {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-45f, -1e-45f, 1.17549435e-38f, 1e-38f,
                     88.72283172607422f, 88.7228394f, 88.73f, -87.3f, -103.9f, -104.0f, -105.0f, 0.625f, 0.62499994f,
                     8192.0f, 8192.001f, 3.4028235e38f})
      x.push_back(sp);
    int64_t maxulp = 0;
    // whole array, then the tails: every length 0..67 from a misaligned start
    auto compare = [&](const float* in, int64_t n, const std::string& where) {
      std::vector<float> os(n + 1), ov(n + 1);
      const char* ip[1] = {reinterpret_cast<const char*>(in)};
      fs(n, ip, reinterpret_cast<char*>(os.data()));
      fv(n, ip, reinterpret_cast<char*>(ov.data()));
      ++checks;
      for (int64_t i = 0; i < n; ++i) {
        float a = os[i], b = ov[i];
        if (a != a && b != b) continue;
        bool special = std::isinf(a) || std::isinf(b) || a == 0 || b == 0 || a != a || b != b;
        int64_t d = std::llabs(ordered(a) - ordered(b));
        if (!special && d > maxulp) maxulp = d;
        if ((special && std::memcmp(&a, &b, 4)) || d > 2) {
          char msg[160];
          std::snprintf(msg, sizeof msg, "%s(%a) %s: scalar %a, %s %a (%lld ulp)", f.name, in[i], where.c_str(), a,
                        MNN_STR(MNN_CHECK_ISA), b, static_cast<long long>(d));
          fail(msg);
          return;
        }
      }
    };
    compare(x.data(), x.size(), "");
    for (int64_t n = 0; n <= 67; ++n) compare(x.data() + x.size() - 68 + (n % 3), n, "tail");
    std::printf("%s: %zu values, max %lld ulp from scalar\n", f.name, x.size(), static_cast<long long>(maxulp));
  }
  // the IEEE flags numpy's errstate sees
  struct G { Op op; float x; int flag; };
  for (G g : {G{Op::Exp, 100.0f, FE_OVERFLOW}, G{Op::Log, 0.0f, FE_DIVBYZERO}, G{Op::Log, -1.0f, FE_INVALID}})
    for (int n : {1, 5, 8}) {
      std::vector<float> in(n, 1.0f), out(n);
      in[n - 1] = g.x;
      const char* ip[1] = {reinterpret_cast<const char*>(in.data())};
      for (const KernelTable* t : {&s, &v}) {
        std::feclearexcept(FE_ALL_EXCEPT);
        t->ew[static_cast<int>(g.op)][f32](n, ip, reinterpret_cast<char*>(out.data()));
        ++checks;
        if (!std::fetestexcept(g.flag)) fail("vmath flag not raised, n=" + std::to_string(n));
      }
    }
}

}  // namespace

int main() {
  KernelTable s, v;
  cpu::scalar::fill_elementwise(s), cpu::scalar::fill_reduce(s), cpu::scalar::fill_transpose(s);
  cpu::scalar::fill_gemm(s), cpu::scalar::fill_vmath(s);
  using namespace cpu::MNN_CHECK_ISA;
  fill_elementwise(v), fill_reduce(v), fill_transpose(v), fill_gemm(v), fill_vmath(v);
  std::printf("isa_check: %s vs scalar\n", MNN_STR(MNN_CHECK_ISA));
  struct Section { const char* name; void (*fn)(const KernelTable&, const KernelTable&); };
  const Section sections[] = {
      {"elementwise", check_elementwise}, {"casts", check_casts}, {"reductions", check_reduce},
      {"transposes", check_transpose},
      {"gemm", [](const KernelTable& a, const KernelTable& b) {
         check_gemm(a.sgemm, a.sgemm, false, "scalar sgemm");
         check_gemm(a.dgemm, a.dgemm, false, "scalar dgemm");
         check_gemm(b.sgemm, a.sgemm, true, MNN_STR(MNN_CHECK_ISA) " sgemm");
         check_gemm(b.dgemm, a.dgemm, true, MNN_STR(MNN_CHECK_ISA) " dgemm");
       }},
      {"vmath", check_vmath}};
  int bad_sections = 0;
  for (const Section& sec : sections) {
    int before = failures;
    reported = 0;
    sec.fn(s, v);
    if (failures > before) {
      ++bad_sections;
      std::printf("  -> FAIL %s: %d mismatches\n", sec.name, failures - before);
    } else {
      std::printf("  -> ok\n");
    }
  }
  std::printf("%s: %ld checks, %d mismatches\n", failures ? "FAILED" : "PASSED", checks, failures);
  return failures ? 1 : 0;
}
