// Non-maximum suppression as cv2 5.0's dnn module does it (NMSBoxes, NMSBoxesRotated,
// NMSBoxesBatched, softNMSBoxes), as plain functions over packed host arrays: the work is a few
// thousand boxes per frame, far below what a graph node is worth, and the binding
// (python/bind_nms.cpp) hands the results to Python directly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mnn::cpu::nms {

// Greedy NMS over n axis-aligned boxes (x, y, w, h) in double (cv2's Rect2d), best score first:
// scores above score_threshold, stably sorted, the first top_k (> 0) of them, each kept when its
// overlap with every kept box is <= the adaptive threshold (times eta after a keep while > 0.5).
std::vector<int> boxes(const double* xywh, const float* scores, int64_t n, float score_threshold,
                       float nms_threshold, float eta, int top_k);

// NMSBoxesBatched: the boxes of class c moved by c * (max coordinate + 1) so that classes never
// overlap, then boxes().
std::vector<int> batched(const double* xywh, const float* scores, const int32_t* class_ids, int64_t n,
                         float score_threshold, float nms_threshold, float eta, int top_k);

// NMSBoxesRotated over RotatedRects packed as (cx, cy, w, h, angle in degrees), in float as cv2 keeps
// them; overlap is cv2's rotatedRectangleIntersection area / union.
std::vector<int> rotated(const float* rects, const float* scores, int64_t n, float score_threshold,
                         float nms_threshold, float eta, int top_k);

// cv2's rotated-rectangle overlap of two packed rects (exposed for the tests).
float rotated_iou(const float* a, const float* b);

// softNMSBoxes over int boxes (cv2's Rect, int arithmetic): method 1 linear, 2 gaussian; throws
// std::invalid_argument for another method when a score has to be decayed (where cv2 raises).
void soft(const int32_t* xywh, const float* scores, int64_t n, float score_threshold, float nms_threshold,
          size_t top_k, float sigma, int method, std::vector<int>& indices, std::vector<float>& updated);

}  // namespace mnn::cpu::nms
