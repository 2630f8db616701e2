// Internals of robust_pnp.cpp: the small dense linear algebra of mnn/cv/_structure.py,
// _pnp.py and _points.py ported step for step (robust_pnp_linalg.cpp). Matrices are at most
// 12 x 12 here (EPnP's M^T M), so they live in fixed arrays.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "ops/cv/robust_fit.h"

namespace mnn::ops::robust_pnp::detail {

using robust_fit::Fallback;

constexpr int kMax = 12;
constexpr double kDblEps = 2.220446049250313e-16;
constexpr double kDblMin = 2.2250738585072014e-308;

// Python's a / b: ZeroDivisionError where b == 0 (the caller then runs the Python code).
inline double pdiv(double a, double b) {
  if (b == 0) throw Fallback{};
  return a / b;
}

// Python's float ** 2: libm pow (OverflowError on a finite overflow), which is NOT always the
// correctly rounded x * x (glibc's pow errs by up to ~0.52 ulp; it differs from x * x on about
// 1 in 1000 random inputs). Where the exact square lies within 3/8 ulp of x * x, any result
// within 0.625 ulp of the exact square is x * x, so pow's is too; elsewhere pow itself runs.
// The volatile exponent keeps the compiler from turning that call into x * x.
double psq_slow(double x);
inline double psq(double x) {
  const double hi = x * x;
  uint64_t bits;
  std::memcpy(&bits, &hi, sizeof bits);
  const uint64_t e = bits >> 52;  // hi >= 0: no sign bit
  if (e > 600 && e < 2047) {      // finite, and far from underflow (x > 2^-212)
    // hi's error by Dekker's product (exact but where xl * xl underflows, which moves it by
    // under 2^-1074, far below ulp(hi) / 8 here; no overflow: hi is finite)
    const double c = 134217729.0 * x;
    const double xh = c - (c - x), xl = x - xh;
    const double lo = ((xh * xh - hi) + xh * xl + xl * xh) + xl * xl;
    uint64_t ub = (e - 52) << 52;  // ulp(hi)
    double ulp;
    std::memcpy(&ulp, &ub, sizeof ulp);
    if (std::fabs(lo) <= 0.375 * ulp && std::isfinite(c)) return hi;
  }
  return psq_slow(x);
}

// Python's math.sqrt (ValueError below zero) and math.cos / math.sin (ValueError at +-inf).
inline double psqrt(double x) {
  if (x < 0) throw Fallback{};
  return std::sqrt(x);
}

// CPython's math.hypot (vector_norm: exact scaled squares summed with error terms and one
// differential correction), which is not libm's hypot.
double py_hypot(double x, double y);

// A dense matrix of rows x cols doubles (row-major, fixed capacity).
struct Mat {
  int rows = 0, cols = 0;
  double a[kMax][kMax];
};

// _structure._svd: w descending, us[i] (rows values) and vs[i] (cols values) its vectors.
struct Svd {
  int m = 0, k = 0;
  double w[kMax];
  double us[kMax][kMax];
  double vs[kMax][kMax];
};

void svd(const Mat& rows, Svd& out);     // _structure._svd
void svd_cv(const Mat& rows, Svd& out);  // _pnp._svd_cv (RNG-filled left vectors of zero values)
// _structure._svd_solve on rows (m x k) and rhs (m values): x (k values)
void svd_solve(const Mat& rows, const double* rhs, double* x);
void pinv3(const double m[3][3], double out[3][3]);  // _pnp._pinv3
// _pnp._lstsq of a (m x n, m <= kMax); false where it returns None
bool lstsq(const Mat& a, const double* b, double* x);
// _calib._solve: Gaussian elimination with partial pivoting (n <= kMax); false where None
bool gauss_solve(const double a[6][6], const double* b, int n, double* x);

// _points.Rodrigues, vector -> (R row-major, J 3 x 9) and matrix -> vector (float64)
void rodrigues_vec(const double r[3], double R[9], double J[27]);
void rodrigues_mat(const double R[9], double r[3]);

}  // namespace mnn::ops::robust_pnp::detail
