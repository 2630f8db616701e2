// findContours' packed result (ops/cv/contours.h) split into the arrays Python returns.
#include <cstring>

#include "core/error.h"
#include "engine/eval.h"
#include "ops/cv/contours.h"

namespace mnn::ops::contours {

using namespace core;

namespace {

// A fresh int32 array holding `count` values copied from src (built as a leaf directly: this runs
// once per contour, and a photo has thousands).
Array int32_leaf(Shape shape, Strides strides, const int32_t* src, int64_t count) {
  auto buf = Buffer::allocate(sizeof(int32_t) * static_cast<size_t>(count));
  std::memcpy(buf->data(), src, sizeof(int32_t) * static_cast<size_t>(count));
  return Array::from_node(make_leaf(std::move(buf), DType::Int32, std::move(shape), std::move(strides), 0, count));
}

}  // namespace

std::vector<Array> unpack_contours(const Array& packed) {
  const char* bad = "[mnn.cv.findContours] malformed packed contours";
  if (packed.dtype() != DType::Int32 || packed.ndim() != 1 || !packed.is_contiguous()) throw ValueError(bad);
  NodePtr node = packed.node();
  engine::eval({node});
  const int64_t len = packed.size();
  const int32_t* p = reinterpret_cast<const int32_t*>(node->data_ptr());
  if (len < 2) throw ValueError(bad);
  const int64_t n = p[0], total = p[1];
  if (n < 0 || total < 0 || len != 2 + 5 * n + 2 * total) throw ValueError(bad);
  std::vector<Array> out;
  if (n == 0) return out;
  out.reserve(static_cast<size_t>(n + 1));
  const int32_t* hier = p + 2;
  const int32_t* counts = hier + 4 * n;
  const int32_t* pts = counts + n;
  out.push_back(int32_leaf(Shape{1, n, 4}, Strides{4 * n, 4, 1}, hier, 4 * n));
  int64_t seen = 0;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t c = counts[k];
    if (c < 0 || seen + c > total) throw ValueError(bad);
    out.push_back(int32_leaf(Shape{c, 1, 2}, Strides{2, 2, 1}, pts + 2 * seen, 2 * c));
    seen += c;
  }
  return out;
}

}  // namespace mnn::ops::contours
