// cv2's robust model fits on small point lists, native: findHomography (least squares, RANSAC,
// LMEDS; RHO run as RANSAC) and estimateAffine2D / estimateAffinePartial2D (RANSAC, LMEDS).
//
// These are ports of the Python reference implementation in mnn/cv/_calib.py and _robust.py
// (which follows cv2's registrators step by step: its fixed-seed RNG, float32 error test, ...),
// and must give the SAME BITS as it. So every double expression keeps Python's operation order
// (sums are left folds starting from 0, as Python 3.11's sum()), float32 rounding is a cast of
// the double result (exact: double rounding through binary64 is innocuous for + - * /), and the
// engine is built without FMA contraction (MNN_FP_FLAGS).
//
// Where the Python code would raise (a float32 overflow in struct.pack, a division by zero, a
// decomposition that does not converge) or where NaN makes its results depend on Python's sort,
// these functions throw Fallback and the caller runs the Python implementation, which then
// behaves exactly as before (error included). Fallback is only ever thrown on such inputs.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace mnn::ops::robust_fit {

struct Fallback {};

struct Fit {
  bool found = false;            // false: no model (Python's None)
  std::vector<double> model;     // 9 (homography) or 6 (affine) values, row-major
  std::vector<uint8_t> mask;     // inlier flags, one per point
};

// src, dst: x0, y0, x1, y1, ... as given (rounded to float32 here, as the Python code does).
// method: 0, 4 (LMEDS), 8 (RANSAC) or 16 (RHO). thr > 0.
Fit find_homography(const std::vector<double>& src, const std::vector<double>& dst, int method, double thr,
                    double confidence, int64_t max_iters);

// The registration plus, when `refine` and there are more points than the minimal set, the
// least-squares polish on the inliers (mnn/cv/_geometry.py _estimate).
Fit estimate_affine(const std::vector<double>& src, const std::vector<double>& dst, bool partial, bool lmeds,
                    double thr, double confidence, int64_t max_iters, bool refine);

namespace detail {

struct Pt {
  double x, y;
};

// cv::RNG as _robust._CvRng: 64-bit multiply-with-carry seeded with 2^64 - 1.
class CvRng {
 public:
  uint32_t next() {
    state_ = (state_ & 0xFFFFFFFFull) * 4164903690ull + (state_ >> 32);
    return static_cast<uint32_t>(state_);
  }
  int64_t uniform(int64_t a, int64_t b) { return a == b ? a : static_cast<int64_t>(next() % uint64_t(b - a)) + a; }

 private:
  uint64_t state_ = ~0ull;
};

// _common.f32: v rounded to float32; throws Fallback where struct.pack raises (finite -> inf).
// Through volatile: with this build's -fno-trapping-math, GCC 12's SLP vectoriser drops a plain
// double -> float -> double round trip (seen in to_points).
inline double f32(double v) {
  volatile float r = static_cast<float>(v);
  const float x = r;
  if (std::isinf(x) && !std::isinf(v)) throw Fallback{};
  return x;
}

// The float32 error tests below run in float arithmetic: for + - * / on float32 operands, the
// Python code's double operation then rounding to float32 gives the same value (double rounding
// through binary64 is innocuous for these operations). Any non-finite error means an overflow
// (where Python's struct.pack raises), a zero division or NaN input: Fallback.
struct Pts32 {
  std::vector<float> sx, sy, dx, dy;
};

std::vector<Pt> to_points(const std::vector<double>& xy);           // f32-rounded pairs
Pts32 as_f32(const std::vector<Pt>& s, const std::vector<Pt>& d);     // the same values as float
void check_finite(const std::vector<float>& errors);                  // else Fallback
bool collinear_last(const Pt* pts, int count);                        // _robust._collinear_last
int64_t update_iters(double p, double ep, int model_points, int64_t max_iters);  // RANSACUpdateNumIters
// sorted(errors)[k] (errors NaN-free, else Fallback)
double kth_smallest(std::vector<float> errors, int64_t k);

}  // namespace detail
}  // namespace mnn::ops::robust_fit
