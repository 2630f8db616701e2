// findContours' border following (Suzuki & Abe 1985, as cv2 4.x runs it) and connected-component
// labelling, shared by the shape rules (ops/cv/contours.cpp, which must know the result's size)
// and the CPU kernels (backends/cpu/kernels/cv/contours_kernels.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/array.h"
#include "core/node.h"

namespace mnn::ops::contours {

// The packed result of find_contours, one int32 vector:
//   [n, total, hierarchy (n x 4: next, prev, first child, parent), counts (n), points (total x 2)]
// Contours come in cv2's order (a depth-first walk of the tree whose children are listed newest
// first), so Python only slices it.
using Packed = std::vector<int32_t>;

// One traced border: its parent (index into the border list, -1 for the frame) and its points'
// range (pairs) in a shared buffer.
struct Border {
  int32_t parent;
  bool hole;
  int64_t first, count;
};

// The same hierarchy, counts and points written to three arrays (4n, n and 2 * total int32).
void pack_borders_to(const std::vector<Border>& borders, const int32_t* points, int32_t* hier, int32_t* counts,
                     int32_t* pts);

// Traces like find_contours (modes 0-3) and hands the borders in the order they were met, and
// their `total` points (x, y pairs), to done, before packing them: the buffers are the tracing
// thread's scratch, valid during the call only.
using TracedFn = std::function<void(const std::vector<Border>& borders, const int32_t* points, int64_t total)>;
void find_contours_traced(const uint8_t* img, int64_t h, int64_t w, int64_t stride, int mode, int method, int ox,
                          int oy, const TracedFn& done);

// The packed result of borders listed in the order they were met, each the newest child of its
// parent (so siblings come newest first, as from cv2's tree), walked depth first; points holds
// `total` (x, y) pairs.
Packed pack_borders(const std::vector<Border>& borders, const int32_t* points, int64_t total);

// img: h x w bytes with row stride `stride`, non-zero = object. mode: cv2's RETR_EXTERNAL 0,
// LIST 1, CCOMP 2, TREE 3 (FLOODFILL 4 takes int32 labels: find_contours_labels); method: CHAIN_APPROX_NONE 1, SIMPLE 2, TC89_L1 3, TC89_KCOS 4.
// (ox, oy) is added to every point.
Packed find_contours(const uint8_t* img, int64_t h, int64_t w, int64_t stride, int mode, int method, int ox, int oy);

// The Python outputs of a packed result (evaluated here if pending): the hierarchy, (1, n, 4), then
// every contour, (count, 1, 2), as realised leaves over slices of one shared buffer. One call for all of them: a photo
// has thousands of contours, and per-contour slicing from Python cost more than the tracing.
// Returns no arrays when n is 0.
std::vector<core::Array> unpack_contours(const core::Array& packed);

// findContours in one call, outside the graph: traces a contiguous 2-d image (uint8, or int32 for
// mode 4) at once and returns the hierarchy, (1, n, 4), then every contour, (count, 1, 2), as
// realised leaves over slices of one shared buffer (no node to evaluate, one allocation); no
// arrays when nothing is found.
std::vector<core::Array> find_contours_arrays(const core::Array& img, int mode, int method, int ox, int oy);

// img: an int32 label image (RETR_FLOODFILL, cv2 5's mode for CV_32SC1; ops/cv/contours_labels.cpp).
Packed find_contours_labels(const int32_t* img, int64_t h, int64_t w, int64_t stride, int method, int ox, int oy);

// Either of the above by mode (4: labels), on a contiguous image.
Packed trace_image(const void* img, int64_t h, int64_t w, int mode, int method, int ox, int oy);

// Replaces the border whose every point (x, y pairs) starts at pts[first] by its Teh-Chin
// dominant points (method 3: TC89_L1, 4: TC89_KCOS), as cv2 (contours_tc89.cpp).
void approximate_tc89(std::vector<int32_t>& pts, size_t first, int method);

// The shape rule must trace to learn the result's size; it leaves that result here for the kernel
// (a one-entry handoff), and the kernel takes it out, so every findContours call traces once.
// The entry holds the input node, so the engine cannot write that buffer in place meanwhile, and
// the kernel accepts it only for the same buffer and parameters; otherwise (another image, a plan
// replayed on new data) it traces itself.
void stash_contours(const core::NodePtr& input, int mode, int method, int ox, int oy,
                    std::shared_ptr<const Packed> result);
std::shared_ptr<const Packed> take_contours(const void* img, int64_t h, int64_t w, int mode, int method, int ox,
                                            int oy);

}  // namespace mnn::ops::contours
