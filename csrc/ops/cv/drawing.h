// In-place drawing for mnn.cv (line, circle, putText, ...): cv2 modifies the image it is given, so
// when the image's memory may be written directly the rasteriser (backends/cpu/kernels/cv/
// drawing.cpp) runs on it at once, instead of recording a cv_draw node over a copy of the image.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/array.h"

namespace mnn::ops::draw {

// The pixel layout drawing needs: an HxW or HxWxC image (C in 1..4) of a depth cv2 draws on,
// pixels packed within rows (any row stride that does not overlap rows). False otherwise.
bool drawable(core::DType dt, int ndim, const int64_t* shape, const int64_t* elem_strides);

// Draws the command stream onto `img` in place when that is safe: the array is on the CPU,
// writeable, not tracking gradients, drawable, and its buffer's current value is held by nothing
// but this family of arrays (no pending node reads it, so no one can tell the value changed under
// them; numpy views of it see the change, as with cv2). A pending array is evaluated first.
// False when not safe: the caller then records the drawing as a graph node instead.
bool draw_inplace(core::Array& img, const int64_t* ints, size_t nints, const double* color);

// Draws onto memory owned elsewhere (a numpy array's), laid out as drawable() accepts with
// `row_step` bytes between rows.
void draw_memory(char* data, core::DType dt, int64_t h, int64_t w, int cn, int64_t row_step, const int64_t* ints,
                 size_t nints, const double* color);

}  // namespace mnn::ops::draw
