// CPU kernels of the general eigen-decomposition (shape rules: ops/linalg/eig.cpp). Each matrix is
// copied into double precision and
//   0. balanced by a diagonal scaling of powers of two (LAPACK's geev balances too);
//   1. reduced to upper Hessenberg form H = Q^H A Q by Householder reflections;
//   2. iterated to Schur form T = Z^H A Z:
//        real input    Francis double-shift QR in real arithmetic, giving a quasi-triangular T
//                      (2x2 blocks for complex conjugate pairs). Real arithmetic is what makes a
//                      real eigenvalue come out with an imaginary part of exactly 0 and a complex
//                      pair exactly conjugate, which numpy's real-or-complex result type relies on;
//        complex input single-shift QR (Wilkinson shift) with Givens rotations, triangular T;
//   3. eigenvectors by back-substitution on T (x solves (T - w I) x = 0), mapped back by Z and
//      scaled to unit norm, complex ones with their largest component real, as LAPACK's geev does.
// The eigenvalues come in the order they appear on T's diagonal. The shift strategy, deflation
// tests and sweep starts follow LAPACK's small-matrix QR (dlahqr/zlahqr, which numpy runs below
// n = 75), so the order is usually numpy's; a conjugate pair comes positive imaginary first.
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "backends/cpu/kernels/error_flags.h"
#include "core/threadpool.h"
#include "prims/registry.h"

namespace mnn::cpu {

using namespace core;

namespace {

using cd = std::complex<double>;

constexpr double kEps = 2.220446049250313e-16;
constexpr double kTiny = 2.2250738585072014e-308;

double mag(double x) { return std::fabs(x); }
// |re| + |im|: a cheap magnitude for the deflation tests and norms, as LAPACK's cabs1
double mag(cd x) { return std::abs(x.real()) + std::abs(x.imag()); }
// the true modulus, for subdiagonal entries: LAPACK's reductions keep those real, so its tests
// see their modulus; ours stay complex, and |re| + |im| would deflate later than LAPACK does
double modulus(double x) { return std::fabs(x); }
double modulus(cd x) { return std::abs(x); }
double cj(double x) { return x; }
cd cj(cd x) { return std::conj(x); }
double abs2(double x) { return x * x; }
double abs2(cd x) { return std::norm(x); }
double phase_of(double x) { return x >= 0 ? 1.0 : -1.0; }
double pow2(double x, int e) { return std::ldexp(x, e); }  // x * 2^e, exact
cd pow2(cd x, int e) { return cd(std::ldexp(x.real(), e), std::ldexp(x.imag(), e)); }
cd phase_of(cd x) {
  double r = std::abs(x);
  return r == 0 ? cd(1.0) : x / r;
}

// Diagonal similarity scaling (Parlett & Reinsch, as LAPACK's gebal 'S'): h becomes D^{-1} h D
// with D a diagonal of powers of two (exact), chosen so each row and column pair have comparable
// norms. Badly scaled matrices then lose less to rounding; eigenvectors map back as v = D x.
template <class S>
std::vector<double> balance(std::vector<S>& h, int64_t n) {
  std::vector<double> d(n, 1.0);
  for (int pass = 0; pass < 64; ++pass) {
    bool done = true;
    for (int64_t i = 0; i < n; ++i) {
      double c = 0, r = 0;
      for (int64_t j = 0; j < n; ++j)
        if (j != i) {
          c += mag(h[j * n + i]);
          r += mag(h[i * n + j]);
        }
      if (c == 0 || r == 0) continue;
      int e = 0;
      std::frexp(std::sqrt(r / c), &e);  // f: the power of two within a factor 2 of sqrt(r / c),
                                         // which balances c f against r / f
      double f = std::ldexp(1.0, e - 1);
      if (f == 1.0 || c * f + r / f >= 0.95 * (c + r)) continue;
      if (d[i] * f > 1e250 || d[i] * f < 1e-250) continue;
      done = false;
      d[i] *= f;
      for (int64_t j = 0; j < n; ++j) {
        h[i * n + j] /= f;
        h[j * n + i] *= f;
      }
    }
    if (done) break;
  }
  return d;
}

// Householder reduction to upper Hessenberg form: h becomes H = Z^H a Z and, when zh is given,
// *zh holds Z^H. Z is kept conjugate-transposed throughout (here and in the QR iterations) so that
// every update of it is the same row operation as the one applied to h, over contiguous rows.
template <class S>
void hessenberg(std::vector<S>& h, int64_t n, std::vector<S>* zh) {
  if (zh) {
    zh->assign(n * n, S(0));
    for (int64_t i = 0; i < n; ++i) (*zh)[i * n + i] = S(1);
  }
  std::vector<S> v(n), acc(n);
  for (int64_t k = 0; k + 2 < n; ++k) {  // zero column k below the subdiagonal
    double tail = 0;
    for (int64_t i = k + 2; i < n; ++i) tail += abs2(h[i * n + k]);
    if (tail == 0) continue;
    S x0 = h[(k + 1) * n + k];
    double nrm = std::sqrt(tail + abs2(x0));
    S alpha = -phase_of(x0) * nrm;  // the sign away from x0 avoids cancellation in v[0]
    v[k + 1] = x0 - alpha;
    for (int64_t i = k + 2; i < n; ++i) v[i] = h[i * n + k];
    const double f = 2.0 / (abs2(v[k + 1]) + tail);  // P = I - f v v^H, Hermitian and unitary
    // P m for the rows k+1.. of m: acc = v^H m row by row, then a rank-one update
    auto left = [&](std::vector<S>& m, int64_t j0) {
      std::fill(acc.begin() + j0, acc.end(), S(0));
      for (int64_t i = k + 1; i < n; ++i) {
        const S c = cj(v[i]);
        const S* row = &m[i * n];
        for (int64_t j = j0; j < n; ++j) acc[j] += c * row[j];
      }
      for (int64_t i = k + 1; i < n; ++i) {
        const S c = f * v[i];
        S* row = &m[i * n];
        for (int64_t j = j0; j < n; ++j) row[j] -= acc[j] * c;
      }
    };
    left(h, k + 1);  // column k is set below
    h[(k + 1) * n + k] = alpha;
    for (int64_t i = k + 2; i < n; ++i) h[i * n + k] = S(0);
    for (int64_t r = 0; r < n; ++r) {  // (P h) P
      S sum = 0;
      S* row = &h[r * n];
      for (int64_t j = k + 1; j < n; ++j) sum += row[j] * v[j];
      sum *= f;
      for (int64_t j = k + 1; j < n; ++j) row[j] -= sum * cj(v[j]);
    }
    if (zh) left(*zh, 0);  // (Z P)^H = P Z^H
  }
}

// The active block ends at row hi; returns the first row l of its unreduced part, zeroing the
// negligible subdiagonal entry above it. Negligible: small relative to its diagonal neighbours
// (which keeps small eigenvalues of graded matrices accurate) and, more strictly, small against
// the 2x2 block it sits in (Ahues & Kressner's test, LAPACK's too: deflating there changes the
// block's eigenvalues by less than rounding does); or below `floor`. The caller raises the floor
// to eps * |A| once a block stalls: a block of pure rounding noise (the zero eigenvalues of a
// rank-one matrix) has noise on its diagonal too, and the relative tests never hold there.
template <class S>
int64_t split_point(std::vector<S>& h, int64_t n, int64_t hi, double anorm, double floor) {
  const double small = kTiny * (static_cast<double>(n) / kEps);
  int64_t l = hi;
  for (; l > 0; --l) {
    const double sub = modulus(h[l * n + l - 1]);
    bool negligible = sub <= std::max(small, floor);
    if (!negligible) {
      const S hkk = h[l * n + l], hpp = h[(l - 1) * n + l - 1];
      double s = mag(hpp) + mag(hkk);
      if (s == 0) {  // both diagonal entries zero: judge against the neighbouring subdiagonals
        if (l >= 2) s += mag(h[(l - 1) * n + l - 2]);
        if (l + 1 <= hi) s += mag(h[(l + 1) * n + l]);
        if (s == 0) s = anorm;
      }
      if (sub <= kEps * s) {
        const double sup = mag(h[(l - 1) * n + l]);
        const double ab = std::max(sub, sup), ba = std::min(sub, sup);
        const double gap = mag(hpp - hkk);
        const double aa = std::max(mag(hkk), gap), bb = std::min(mag(hkk), gap);
        const double t = aa + ab;
        negligible = ba * (ab / t) <= std::max(small, kEps * (bb * (aa / t)));
      }
    }
    if (negligible) {
      h[l * n + l - 1] = S(0);
      break;
    }
  }
  return l;
}

template <class S>
double frobenius(const std::vector<S>& h) {
  double s = 0;
  for (const S& x : h) s += abs2(x);
  return std::sqrt(s);
}

template <class S>
double one_norm(const std::vector<S>& h) {
  double s = 0;
  for (const S& x : h) s += mag(x);
  return s;
}

// A real 2x2 diagonal block at rows p = hi - 1, hi with real eigenvalues is rotated to upper
// triangular form, so only complex pairs stay as 2x2 blocks.
void split_real_pair(std::vector<double>& h, std::vector<double>* zh, int64_t n, int64_t hi, bool symmetric,
                     double anorm) {
  const int64_t p = hi - 1, q = hi;
  double a = h[p * n + p], b = h[p * n + q], c = h[q * n + p], d = h[q * n + q];
  double half = 0.5 * (a - d), disc = half * half + b * c;
  if (disc < 0 && (symmetric || std::sqrt(-disc) <= kEps * anorm)) {
    // an imaginary part within the rounding noise of the matrix (always so for a symmetric one,
    // whose eigenvalues are real): b and c are noise of opposite signs around a repeated
    // eigenvalue, the usual fate of a double eigenvalue of a (nearly) symmetric matrix, whose
    // symmetry QR keeps only to rounding. Dropping the smaller (a backward error under eps * |A|)
    // keeps the eigenvalues real; a spurious imaginary part would make numpy's result type complex
    // for the whole stack.
    (std::fabs(b) < std::fabs(c) ? b : c) = 0.0;
    h[p * n + q] = b;
    h[q * n + p] = c;
    if (c == 0.0) return;
    disc = half * half;
  }
  if (disc < 0) return;  // a complex conjugate pair
  double zz = half + (half >= 0 ? std::sqrt(disc) : -std::sqrt(disc));
  // (zz, c) is an eigenvector of the block for the eigenvalue d + zz; rotate it onto e1
  double r = std::hypot(zz, c);
  if (r == 0) return;
  double g0 = zz / r, g1 = c / r;
  // only the block itself when no Schur vectors are wanted (eigenvalues alone)
  const int64_t jend = zh ? n : q + 1, i0 = zh ? 0 : p;
  auto rows = [&](double* a, int64_t j0, int64_t j1) {
    for (int64_t j = j0; j < j1; ++j) {
      double x = a[p * n + j], y = a[q * n + j];
      a[p * n + j] = g0 * x + g1 * y;
      a[q * n + j] = -g1 * x + g0 * y;
    }
  };
  rows(h.data(), p, jend);
  for (int64_t i = i0; i <= q; ++i) {
    double x = h[i * n + p], y = h[i * n + q];
    h[i * n + p] = g0 * x + g1 * y;
    h[i * n + q] = -g1 * x + g0 * y;
  }
  if (zh) rows(zh->data(), 0, n);
  h[q * n + p] = 0.0;
}

// Francis double-shift QR on a real Hessenberg matrix: h becomes the real Schur form and *zh (Z^T)
// takes the transformations. Without zh only the active block is updated, which yields the
// eigenvalues at about a third of the cost. Returns false when an eigenvalue takes too many sweeps.
bool schur_real(std::vector<double>& h, std::vector<double>* zh, int64_t n, bool symmetric) {
  const double anorm = std::max(one_norm(h), kTiny), fro = frobenius(h);
  const int max_iter = 30 * static_cast<int>(std::max<int64_t>(10, n));
  int64_t hi = n - 1;
  int iter = 0;
  while (hi > 0) {
    int64_t l = split_point(h, n, hi, anorm, iter >= 10 ? kEps * fro : 0.0);
    if (l == hi) {  // one real eigenvalue converged
      --hi;
      iter = 0;
      continue;
    }
    if (l == hi - 1) {  // a 2x2 block converged
      split_real_pair(h, zh, n, hi, symmetric, anorm);
      hi -= 2;
      iter = 0;
      continue;
    }
    if (++iter > max_iter) return false;
    // the shifts: the eigenvalues of the trailing 2x2 block, as their sum s and product t
    // the two shifts re1 + i im1, re2 + i im2: the eigenvalues of the trailing 2x2 block
    double re1, re2, im1 = 0, im2 = 0;
    if (iter % 10 == 0) {  // an exceptional shift breaks the rare cycles of the standard one
      double sc = std::fabs(h[hi * n + hi - 1]) + std::fabs(h[(hi - 1) * n + hi - 2]);
      re1 = re2 = h[hi * n + hi] + 0.75 * sc;  // shifts +- 0.66i sc about it (EISPACK's choice)
      im1 = std::sqrt(0.4375) * sc;
      im2 = -im1;
    } else {
      double a = h[(hi - 1) * n + hi - 1], b = h[(hi - 1) * n + hi], c = h[hi * n + hi - 1], d = h[hi * n + hi];
      double half = 0.5 * (a - d), disc = half * half + b * c;
      if (disc >= 0) {  // real: both shifts at the eigenvalue nearer d (as LAPACK's dlahqr does)
        double r = std::sqrt(disc);
        re1 = re2 = 0.5 * (a + d) + (std::fabs(half + r) <= std::fabs(half - r) ? r : -r);
      } else {
        re1 = re2 = 0.5 * (a + d);
        im1 = std::sqrt(-disc);
        im2 = -im1;
      }
    }
    // The sweep starts at row m of the block, with the first column of (H - s1 I)(H - s2 I)
    // restricted to rows m..m+2 (in factored form, which cancels less). Any m whose h[m][m-1] the
    // first reflector would leave negligible will do (two small consecutive subdiagonals); the
    // lowest saves work.
    int64_t m = hi - 2;
    double x = 0, y = 0, w = 0;
    for (;; --m) {
      const double h00 = h[m * n + m], h01 = h[m * n + m + 1], h10 = h[(m + 1) * n + m];
      const double h11 = h[(m + 1) * n + m + 1], h21 = h[(m + 2) * n + m + 1];
      x = h10 * h01 + (h00 - re1) * (h00 - re2) - im1 * im2;
      y = h10 * (h00 + h11 - re1 - re2);
      w = h10 * h21;
      if (m == l) break;
      const double lhs = std::fabs(h[m * n + m - 1]) * (std::fabs(y) + std::fabs(w));
      const double rhs = kEps * std::fabs(x) * (std::fabs(h[(m - 1) * n + m - 1]) + std::fabs(h00) + std::fabs(h11));
      if (lhs <= rhs) break;
    }
    for (int64_t k = m; k < hi; ++k) {  // chase the bulge down the block
      const int nr = static_cast<int>(std::min<int64_t>(3, hi - k + 1));
      if (k > m) {
        x = h[k * n + k - 1];
        y = h[(k + 1) * n + k - 1];
        w = nr == 3 ? h[(k + 2) * n + k - 1] : 0.0;
      }
      double nrm = std::sqrt(x * x + y * y + w * w);
      if (nrm == 0) continue;
      double alpha = x >= 0 ? -nrm : nrm;
      double u[3] = {x - alpha, y, w};
      double f = 2.0 / (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
      auto rows = [&](double* a, int64_t j0, int64_t j1) {
        double* r0 = a + k * n;
        double* r1 = r0 + n;
        const double u0 = u[0], u1 = u[1], u2 = u[2];
        if (nr == 3) {  // spelled out so the loop over j vectorizes
          double* r2 = r1 + n;
          for (int64_t j = j0; j < j1; ++j) {
            const double sum = f * (u0 * r0[j] + u1 * r1[j] + u2 * r2[j]);
            r0[j] -= sum * u0;
            r1[j] -= sum * u1;
            r2[j] -= sum * u2;
          }
        } else {
          for (int64_t j = j0; j < j1; ++j) {
            const double sum = f * (u0 * r0[j] + u1 * r1[j]);
            r0[j] -= sum * u0;
            r1[j] -= sum * u1;
          }
        }
      };
      rows(h.data(), k > m ? k - 1 : k, zh ? n : hi + 1);
      if (k > m) {
        h[k * n + k - 1] = alpha;
        h[(k + 1) * n + k - 1] = 0.0;
        if (nr == 3) h[(k + 2) * n + k - 1] = 0.0;
      } else if (m > l) {  // the reflector acting on column m - 1: (h, 0, 0) -> (h (1 - f u0^2), fill
        h[k * n + k - 1] *= 1.0 - f * u[0] * u[0];  // below the rounding level, dropped)
      }
      const int64_t last = std::min(k + 3, hi);
      for (int64_t i = zh ? 0 : l; i <= last; ++i) {
        double* c = &h[i * n + k];
        if (nr == 3) {
          const double sum = f * (c[0] * u[0] + c[1] * u[1] + c[2] * u[2]);
          c[0] -= sum * u[0];
          c[1] -= sum * u[1];
          c[2] -= sum * u[2];
        } else {
          const double sum = f * (c[0] * u[0] + c[1] * u[1]);
          c[0] -= sum * u[0];
          c[1] -= sum * u[1];
        }
      }
      if (zh) rows(zh->data(), 0, n);  // (Z U)^T = U Z^T: U is symmetric
    }
  }
  return true;
}

// Single-shift complex QR on a complex Hessenberg matrix: h becomes upper triangular.
bool schur_complex(std::vector<cd>& h, std::vector<cd>* zh, int64_t n) {
  const double anorm = std::max(one_norm(h), kTiny), fro = frobenius(h);
  const int max_iter = 30 * static_cast<int>(std::max<int64_t>(10, n));
  int64_t hi = n - 1;
  int iter = 0;
  while (hi > 0) {
    int64_t l = split_point(h, n, hi, anorm, iter >= 10 ? kEps * fro : 0.0);
    if (l == hi) {
      --hi;
      iter = 0;
      continue;
    }
    if (++iter > max_iter) return false;
    cd a = h[(hi - 1) * n + hi - 1], b = h[(hi - 1) * n + hi], c = h[hi * n + hi - 1], d = h[hi * n + hi];
    cd mu;
    if (iter % 10 == 0) {
      mu = d + 0.75 * std::abs(c);
    } else {  // Wilkinson: the trailing block's eigenvalue nearer d, in a cancellation-free form
      cd half = 0.5 * (a - d), root = std::sqrt(half * half + b * c);
      if ((std::conj(half) * root).real() < 0) root = -root;
      cd den = half + root;
      mu = std::abs(den) == 0 ? d : d - b * c / den;
    }
    // start the sweep at the lowest row m whose h[m][m-1] the first rotation leaves negligible
    int64_t m = hi - 1;
    cd x, y;
    for (;; --m) {
      x = h[m * n + m] - mu;
      y = h[(m + 1) * n + m];
      if (m == l) break;
      if (modulus(h[m * n + m - 1]) * modulus(y) <=
          kEps * mag(x) * (mag(h[m * n + m]) + mag(h[(m + 1) * n + m + 1])))
        break;
    }
    for (int64_t k = m; k < hi; ++k) {
      if (k > m) {
        x = h[k * n + k - 1];
        y = h[(k + 1) * n + k - 1];
      }
      // G = [[c, s], [-conj(s), c]] with G (x, y) = (r, 0)
      double ax = std::abs(x), nrm = std::hypot(ax, std::abs(y));
      if (nrm == 0) continue;
      double gc;
      cd gs;
      if (ax == 0) {
        gc = 0;
        gs = std::conj(y) / std::abs(y);
      } else {
        gc = ax / nrm;
        gs = (x / ax) * std::conj(y) / nrm;
      }
      auto rows = [&](cd* a, int64_t j0, int64_t j1) {
        for (int64_t j = j0; j < j1; ++j) {
          cd p = a[k * n + j], q = a[(k + 1) * n + j];
          a[k * n + j] = gc * p + gs * q;
          a[(k + 1) * n + j] = -std::conj(gs) * p + gc * q;
        }
      };
      rows(h.data(), k > m ? k - 1 : k, zh ? n : hi + 1);
      if (k > m) h[(k + 1) * n + k - 1] = 0.0;
      else if (m > l) h[k * n + k - 1] *= gc;  // the rotation on (h[m][m-1], 0); its fill is negligible
      const int64_t last = std::min(k + 2, hi);
      for (int64_t i = zh ? 0 : l; i <= last; ++i) {
        cd p = h[i * n + k], q = h[i * n + k + 1];
        h[i * n + k] = gc * p + std::conj(gs) * q;
        h[i * n + k + 1] = -gs * p + gc * q;
      }
      if (zh) rows(zh->data(), 0, n);  // (Z G^H)^H = G Z^H
    }
  }
  return true;
}

// The eigenvalues on the diagonal of a (quasi-)triangular Schur form; a 2x2 block gives an
// exactly conjugate pair, positive imaginary part first.
std::vector<cd> schur_eigenvalues(const std::vector<double>& t, int64_t n) {
  std::vector<cd> w(n);
  for (int64_t i = 0; i < n; ++i) {
    if (i + 1 < n && t[(i + 1) * n + i] != 0.0) {
      double a = t[i * n + i], b = t[i * n + i + 1], c = t[(i + 1) * n + i], d = t[(i + 1) * n + i + 1];
      double half = 0.5 * (a - d);
      double im = std::sqrt(std::max(0.0, -(half * half + b * c)));
      w[i] = cd(0.5 * (a + d), im);
      w[i + 1] = cd(0.5 * (a + d), -im);
      ++i;
    } else {
      w[i] = cd(t[i * n + i], 0.0);
    }
  }
  return w;
}

std::vector<cd> schur_eigenvalues(const std::vector<cd>& t, int64_t n) {
  std::vector<cd> w(n);
  for (int64_t i = 0; i < n; ++i) w[i] = t[i * n + i];
  return w;
}

// Solves (T - w I) x = 0 by back-substitution from the diagonal block of w at rows [k, k + len);
// x has k + len entries (those below are zero). X is double for a real eigenvalue of a real
// matrix (real arithmetic, a quarter of the complex cost) and cd otherwise; len == 2 is the first
// eigenvalue of a real 2x2 block. Near-singular pivots (repeated eigenvalues) are replaced by
// smin, as LAPACK's trevc does.
template <class X, class S>
std::vector<X> back_substitute(const std::vector<S>& t, int64_t n, int64_t k, int len, X w, double smin) {
  const int64_t end = k + len;
  std::vector<X> x(end, X(0));
  auto T = [&](int64_t i, int64_t j) { return X(t[i * n + j]); };
  if (len == 1) {
    x[k] = X(1);
  } else if constexpr (is_complex_v<X>) {  // a 2x2 block [[a, b], [c, d]]: (b, w - a) is in its null space
    x[k] = T(k, k + 1);
    x[k + 1] = w - T(k, k);
  }
  for (int64_t i = k - 1; i >= 0;) {
    if (i > 0 && t[i * n + i - 1] != S(0)) {  // a 2x2 block of a complex pair above: solve 2x2
      X r1 = 0, r2 = 0;
      for (int64_t j = i + 1; j < end; ++j) {
        r1 += T(i - 1, j) * x[j];
        r2 += T(i, j) * x[j];
      }
      X a = T(i - 1, i - 1) - w, b = T(i - 1, i), c = T(i, i - 1), d = T(i, i) - w;
      X det = a * d - b * c;
      if (std::abs(det) < smin) det = smin;
      x[i - 1] = (-r1 * d + b * r2) / det;
      x[i] = (-a * r2 + c * r1) / det;
      i -= 2;
    } else {
      X r = 0;
      const S* row = &t[i * n];
      for (int64_t j = i + 1; j < end; ++j) r += X(row[j]) * x[j];
      X d = T(i, i) - w;
      if (std::abs(d) < smin) d = smin;
      x[i] = -r / d;
      i -= 1;
    }
    double big = 0;  // keep the growing components finite
    for (int64_t j = std::max<int64_t>(i, 0); j < end; ++j) big = std::max(big, std::abs(x[j]));
    if (big > 1e100)
      for (int64_t j = 0; j < end; ++j) x[j] /= big;
  }
  return x;
}

// v scaled to unit norm, then
//   kRotatePositive  (complex vectors) its largest component rotated to real and positive, as
//                    zgeev does (dgeev makes it real too, with a sign that depends on its Schur
//                    basis: numpy's complex vectors of real matrices may differ from ours by -1);
//   kNoRotation      (real vectors) left with the sign back-substitution gave, as dgeev does
//                    (so they usually match numpy's, sign included).
// A zero or non-finite v is left alone.
enum Rotation { kRotatePositive, kNoRotation };

void normalize(cd* v, int64_t n, Rotation rotate) {
  double nrm = 0, top = -1;
  int64_t at = 0;
  for (int64_t i = 0; i < n; ++i) {
    double a2 = std::norm(v[i]);
    nrm += a2;
    if (a2 > top) top = a2, at = i;
  }
  nrm = std::sqrt(nrm);
  if (nrm == 0 || !std::isfinite(nrm)) return;
  if (rotate == kNoRotation) {
    for (int64_t i = 0; i < n; ++i) v[i] /= nrm;
    return;
  }
  cd unit = std::conj(v[at]) / (std::abs(v[at]) * nrm);
  for (int64_t i = 0; i < n; ++i) v[i] *= unit;
  v[at] = cd(v[at].real(), 0.0);
}

// The eigenvectors of the Schur form T as the columns of X (upper triangular but for the 2x2
// blocks), mapped back by V = D Z X (D: the balancing scale, Z from zh = Z^H) in one pass whose
// inner loop runs along contiguous rows; then normalized into vecs (n x n, column k for w[k]).
// For a real matrix, X and V are real: a complex pair keeps its first vector's real and imaginary
// parts in two adjacent columns, as LAPACK does, and the second vector is the conjugate.
template <class S>
void eigenvectors(const std::vector<S>& t, const std::vector<S>& zh, const std::vector<double>& scale, int64_t n,
                  const std::vector<cd>& w, std::vector<cd>& vecs) {
  const double smin = std::max(kEps * one_norm(t), kTiny * 1e10);
  std::vector<S> xs(n * n, S(0));
  std::vector<char> pair(n, 0);  // 1: first column of a real matrix's complex pair
  for (int64_t k = 0; k < n; ++k) {
    if constexpr (std::is_same_v<S, double>) {
      if (k + 1 < n && t[(k + 1) * n + k] != 0.0) {
        std::vector<cd> x = back_substitute<cd>(t, n, k, 2, w[k], smin);
        for (int64_t j = 0; j < k + 2; ++j) {
          xs[j * n + k] = x[j].real();
          xs[j * n + k + 1] = x[j].imag();
        }
        pair[k] = 1;
        ++k;
        continue;
      }
      std::vector<double> x = back_substitute<double>(t, n, k, 1, w[k].real(), smin);
      for (int64_t j = 0; j <= k; ++j) xs[j * n + k] = x[j];
    } else {
      std::vector<cd> x = back_substitute<cd>(t, n, k, 1, w[k], smin);
      for (int64_t j = 0; j <= k; ++j) xs[j * n + k] = x[j];
    }
  }
  std::vector<S> v(n * n, S(0));  // V = Z X: row j of X contributes from column j - 1 on
  for (int64_t j = 0; j < n; ++j) {
    const S* xrow = &xs[j * n];
    const int64_t c0 = std::max<int64_t>(0, j - 1);
    for (int64_t i = 0; i < n; ++i) {
      const S zij = cj(zh[j * n + i]);
      if (zij == S(0)) continue;
      S* vrow = &v[i * n];
      for (int64_t c = c0; c < n; ++c) vrow[c] += zij * xrow[c];
    }
  }
  vecs.assign(n * n, cd(0));
  std::vector<cd> col(n);
  for (int64_t k = 0; k < n; ++k) {
    if constexpr (std::is_same_v<S, double>) {
      if (pair[k]) {
        for (int64_t i = 0; i < n; ++i) col[i] = scale[i] * cd(v[i * n + k], v[i * n + k + 1]);
        normalize(col.data(), n, kRotatePositive);
        for (int64_t i = 0; i < n; ++i) {
          vecs[i * n + k] = col[i];
          vecs[i * n + k + 1] = std::conj(col[i]);  // the conjugate eigenvalue's vector
        }
        ++k;
        continue;
      }
    }
    for (int64_t i = 0; i < n; ++i) col[i] = scale[i] * cd(v[i * n + k]);
    normalize(col.data(), n, std::is_same_v<S, double> ? kNoRotation : kRotatePositive);
    for (int64_t i = 0; i < n; ++i) vecs[i * n + k] = col[i];
  }
}

// One matrix: eigenvalues into w, eigenvectors (columns) into vecs when wanted.
template <class S>
bool eig_one(std::vector<S> h, int64_t n, std::vector<cd>& w, std::vector<cd>* vecs) {
  std::vector<S> z;
  bool symmetric = true;
  for (int64_t i = 0; i < n && symmetric; ++i)
    for (int64_t j = 0; j < i; ++j)
      if (h[i * n + j] != h[j * n + i]) {
        symmetric = false;
        break;
      }
  // scale by a power of two so the largest entry is near 1 (exact; LAPACK's geev scales too):
  // squared norms of entries near 1e200 or 1e-200 would overflow or underflow otherwise
  double amax = 0;
  for (const S& x : h) amax = std::max(amax, mag(x));
  int e = 0;
  if (amax > 0 && std::isfinite(amax)) std::frexp(amax, &e);
  if (e != 0)
    for (S& x : h) x = pow2(x, -e);
  const std::vector<double> scale = balance(h, n);
  std::vector<S>* zh = vecs ? &z : nullptr;  // Schur vectors only for eigenvectors
  hessenberg(h, n, zh);
  bool ok;
  if constexpr (std::is_same_v<S, double>) ok = schur_real(h, zh, n, symmetric);
  else ok = schur_complex(h, zh, n);
  w = schur_eigenvalues(h, n);
  if (vecs) eigenvectors(h, z, scale, n, w, *vecs);  // before w is scaled back: T's eigenvalues
  if (e != 0)
    for (cd& x : w) x = pow2(x, e);
  return ok;
}

// The complex results, or their real parts for the real-output primitives (used only where every
// imaginary part is exactly zero).
template <class Tout>
Tout store(cd x) {
  if constexpr (is_complex_v<Tout>) return Tout(x);
  else return Tout(x.real());
}

template <class Tin, class Tout>
class EigKernel final : public backend::Kernel {
 public:
  EigKernel(bool vectors, const backend::StepDesc& s) : vectors_(vectors) {
    const Shape& a = s.inputs[0].shape;
    n_ = a.back();
    batch_ = numel(Shape(a.begin(), a.end() - 2));
  }

  void run(char* const* inputs, char* output) override {
    const Tin* a = reinterpret_cast<const Tin*>(inputs[0]);
    Tout* out = reinterpret_cast<Tout*>(output);
    const int64_t n = n_, per = n * n, out_per = vectors_ ? n * (n + 1) : n;
    const int64_t work = std::max<int64_t>(1, 10 * per * n);
    parallel_for(batch_, std::max<int64_t>(1, (1 << 18) / work), [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        using S = std::conditional_t<is_complex_v<Tin>, cd, double>;
        std::vector<S> h(per);
        for (int64_t i = 0; i < per; ++i) h[i] = S(a[b * per + i]);
        std::vector<cd> w, v;
        if (!eig_one<S>(std::move(h), n, w, vectors_ ? &v : nullptr)) flag_error(kErrNoConvergence);
        Tout* o = out + b * out_per;
        if (!vectors_) {
          for (int64_t i = 0; i < n; ++i) o[i] = store<Tout>(w[i]);
          continue;
        }
        for (int64_t i = 0; i < n; ++i) {
          o[i * (n + 1)] = store<Tout>(w[i]);
          for (int64_t j = 0; j < n; ++j) o[i * (n + 1) + 1 + j] = store<Tout>(v[i * n + j]);
        }
      }
    });
  }

 private:
  bool vectors_;
  int64_t n_ = 0, batch_ = 0;
};

template <bool Vectors>
std::unique_ptr<backend::Kernel> prepare(const backend::StepDesc& s) {
  using c64 = std::complex<float>;
  switch (s.inputs[0].dtype) {
    case DType::Float32: return std::make_unique<EigKernel<float, c64>>(Vectors, s);
    case DType::Float64: return std::make_unique<EigKernel<double, cd>>(Vectors, s);
    case DType::Complex64: return std::make_unique<EigKernel<c64, c64>>(Vectors, s);
    default: return std::make_unique<EigKernel<cd, cd>>(Vectors, s);
  }
}

template <bool Vectors>
std::unique_ptr<backend::Kernel> prepare_real(const backend::StepDesc& s) {
  if (s.inputs[0].dtype == DType::Float32) return std::make_unique<EigKernel<float, float>>(Vectors, s);
  return std::make_unique<EigKernel<double, double>>(Vectors, s);
}

}  // namespace

MNN_REGISTER_CPU_KERNEL(linalg_eig_real, "linalg_eig_real", &prepare_real<true>);
MNN_REGISTER_CPU_KERNEL(linalg_eigvals_real, "linalg_eigvals_real", &prepare_real<false>);
MNN_REGISTER_CPU_KERNEL(linalg_eig, "linalg_eig", &prepare<true>);
MNN_REGISTER_CPU_KERNEL(linalg_eigvals, "linalg_eigvals", &prepare<false>);

}  // namespace mnn::cpu
