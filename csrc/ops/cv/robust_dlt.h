// findHomography's normalised DLT (mnn/cv/_calib.py _homography_dlt), split so that several
// minimal samples can be solved together: the 9x9 Jacobi eigensolver it runs is a serial chain of
// divisions and square roots, and interleaving independent matrices lets the CPU overlap them
// (each matrix still sees exactly the scalar operations of mnn.numpy.linalg.eigh).
#pragma once
#include <cstddef>
#include <cstdint>

#include "ops/cv/robust_fit.h"

namespace mnn::ops::robust_fit::detail {

constexpr int kDltLanes = 4;  // matrices solved together

// The DLT of one point set: its normalisation and L^T L, then (solve_dlts) the homography.
struct Dlt {
  bool degenerate = false;  // _homography_dlt returns None
  int status = 0;           // after solve_dlts: 0 ok, 1 eigh did not converge (raises), 2 NaN eigenvalue
  double cmx, cmy, cMx, cMy, smx, smy, sMx, sMy;
  double ltl[81];
  double H[9];
};

// Fills `out` for the points of s / d whose flag is set (all when flags is null).
void dlt_prepare(const Pt* s, const Pt* d, size_t n, const uint8_t* flags, Dlt& out);
// Solves up to kDltLanes prepared DLTs (skipping degenerate ones): H and status.
void solve_dlts(Dlt* const* dlts, int count);

}  // namespace mnn::ops::robust_fit::detail
