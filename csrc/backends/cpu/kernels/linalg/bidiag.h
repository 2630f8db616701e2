// Householder reduction to upper bidiagonal form and the products with its orthogonal factors
// (bidiag.cpp): the first and last stages of the SVD (svd_dc.cpp).
#pragma once
#include <cstdint>

namespace mnn::cpu::linalg {

// a (m x n, row-major, m >= n) = Q B P^T with B upper bidiagonal: diagonal d (n), superdiagonal
// e (n-1). a is overwritten by the reflectors, LAPACK's dgebrd layout: left reflector k is
// (1, a[k+1.., k]) with tau_q[k], right reflector k is (1, a[k, k+2..]) with tau_p[k] (n-1 of them).
// a should be scaled to a largest entry of about 1: columns and rows whose entries are all below
// 1e-290 are left as they are (H = I).
void bidiagonalize(double* a, int64_t m, int64_t n, double* d, double* e, double* tau_q, double* tau_p);

// x (m x cols, row stride ldx) <- Q x, Q = H_0 ... H_{n-1}, from bidiagonalize's a and tau_q.
void apply_q(const double* a, int64_t m, int64_t n, const double* tau_q, double* x, int64_t cols, int64_t ldx);

// x (n x cols, row stride ldx) <- P x, P = G_0 ... G_{n-2} (G_k acts on rows k+1..n-1).
void apply_p(const double* a, int64_t n, const double* tau_p, double* x, int64_t cols, int64_t ldx);

// Householder QR of a (m x n, row-major, m >= n; scaled to a largest entry of about 1, as above):
// R is left in the upper triangle, the reflectors below it in apply_q's layout (reflector k is
// (1, a[k+1.., k]) with tau[k]), so apply_q(a, m, n, tau, ...) multiplies by Q. Blocked: each
// panel of reflectors updates the columns right of it by GEMMs (compact WY).
void qr_householder(double* a, int64_t m, int64_t n, double* tau);

}  // namespace mnn::cpu::linalg
