// The engine's float64 GEMM (kernels/matmul.cpp) for other kernels, e.g. blocked factorizations.
#pragma once
#include <cstdint>

namespace mnn::cpu {

// C (M x N, contiguous, overwritten) = A (M x K, strides am, ak) B (K x N, strides bk, bn).
void gemm_f64(int64_t M, int64_t N, int64_t K, const double* A, int64_t am, int64_t ak, const double* B, int64_t bk,
              int64_t bn, double* C);

// C (M x N, row stride ldc) += A B, strides as above.
void gemm_f64_acc(int64_t M, int64_t N, int64_t K, const double* A, int64_t am, int64_t ak, const double* B,
                  int64_t bk, int64_t bn, double* C, int64_t ldc);

// C (M x N, row stride ldc) -= A B, strides as above.
void gemm_f64_sub(int64_t M, int64_t N, int64_t K, const double* A, int64_t am, int64_t ak, const double* B,
                  int64_t bk, int64_t bn, double* C, int64_t ldc);

}  // namespace mnn::cpu
