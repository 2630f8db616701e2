#include <cmath>

#include "ops/common.h"
#include "ops/ops.h"

namespace mnn::ops {

using namespace core;

static void check_shape(const Shape& shape, const char* fn) {
  check_ndim(shape.size(), fn);
  for (auto d : shape)
    if (d < 0) throw ValueError(api_msg(fn, "negative dimensions are not allowed"));
}

Array empty(const Shape& shape, DType dtype) {
  check_shape(shape, "empty");
  return Array::from_node(make_empty(dtype, shape));
}

Array full(const Shape& shape, const Array& fill, DType dtype) {
  check_shape(shape, "full");
  Array f = fill.dtype() == dtype ? fill : astype(fill, dtype);
  return copy(broadcast_to(f, shape, "full"));
}

static Array arange_node(int64_t n, DType dtype, Params p) {
  return finish(make_node(Op::Arange, dtype, {n}, {}, std::move(p)), {});
}

Array arange(double start, double stop, double step, DType dtype) {
  if (is_complex(dtype)) return astype(arange(start, stop, step, DType::Float64), dtype);  // real steps
  if (step == 0) throw ValueError("[mnn.numpy.arange] Maximum allowed size exceeded");
  double len = std::ceil((stop - start) / step);
  if (!std::isfinite(len)) throw ValueError("[mnn.numpy.arange] arange: cannot compute length");
  int64_t n = len > 0 ? static_cast<int64_t>(len) : 0;
  // numpy fills start, start + delta, ... with delta = (start + step) - start, computed in dtype
  Params p;
  p.floats = {start, (start + step) - start};
  return arange_node(n, dtype, std::move(p));
}

Array arange_int(int64_t start, int64_t stop, int64_t step, DType dtype) {
  if (is_complex(dtype)) return astype(arange_int(start, stop, step, DType::Int64), dtype);
  if (step == 0) throw ValueError("[mnn.numpy.arange] Maximum allowed size exceeded");
  int64_t n = 0;
  if (step > 0 && stop > start) n = (stop - start + step - 1) / step;
  if (step < 0 && stop < start) n = (start - stop + (-step) - 1) / (-step);
  Params p;
  p.ints = {start, step};
  return arange_node(n, dtype, std::move(p));
}

}  // namespace mnn::ops
