// The cv_draw rasteriser as a plain function, so that mnn.cv can draw straight into memory it may
// write in place (an mnn array's own buffer, a numpy array's) without a graph node and a copy of
// the image per call (ops/cv/drawing.cpp decides when that is safe).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/dtype.h"

namespace mnn::cpu {

// Rasterises the command stream (format: drawing.cpp's header comment) onto an h x w image of `cn`
// interleaved channels of type `dt`, whose rows start `step` bytes apart (any sign; pixels within
// a row are packed). `col` holds 4 colour values.
void draw_commands(char* data, int64_t h, int64_t w, int64_t step, int cn, core::DType dt, const int64_t* ints,
                   size_t nints, const double* col);

}  // namespace mnn::cpu
