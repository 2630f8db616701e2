// connectedComponents[WithStats] in one direct call, outside the graph (ops/cv/components.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "core/array.h"

namespace mnn::ops::components {

// Labels a contiguous 2-d 8-bit image (non-zero = foreground) as cv2 does: background 0,
// components numbered in cv2's scan order (raster order of the first pixel for connectivity 4,
// 2x2-block order for 8). Returns the labels (h, w) (int32, or uint16 for ltype 2 = CV_16U) and,
// when `stats`, cv2's stats (n, 5) int32 and centroids (n, 2) float64, all realised leaves;
// n (labels + background) goes to *n. The stats come from the runs, not from a second pass.
std::vector<core::Array> connected_components(const core::Array& img, int connectivity, int ltype, bool stats,
                                              int64_t* n);

}  // namespace mnn::ops::components
