// Shapes and strides (in elements), broadcasting and axis normalisation.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/small_vector.h"

namespace mnn::core {

using Shape = SmallVec<int64_t>;
using Strides = SmallVec<int64_t>;

int64_t numel(const Shape& s);
Strides contiguous_strides(const Shape& s);
bool is_contiguous(const Shape& s, const Strides& st);  // row-major, ignoring size-1 dims
std::string shape_str(const Shape& s);                    // "(2, 3)" / "(5,)" / "()"
// numpy's broadcast of two shapes; throws ValueError naming fn on mismatch.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* fn);
// Strides that read `from` (with strides st) as if broadcast to `to` (0 on broadcast axes).
Strides broadcast_strides(const Shape& from, const Strides& st, const Shape& to);
// Normalises a possibly negative axis; throws AxisError like numpy.
int normalize_axis(int64_t axis, int ndim, const char* fn);

}  // namespace mnn::core
