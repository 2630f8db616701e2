// findContours' packed result (ops/cv/contours.h) split into the arrays Python returns.
#include <cstring>

#include "core/error.h"
#include "engine/eval.h"
#include "ops/cv/contours.h"

namespace mnn::ops::contours {

using namespace core;

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
  NodePtr h = make_empty(DType::Int32, Shape{1, n, 4});
  std::memcpy(h->buffer->data(), hier, sizeof(int32_t) * 4 * static_cast<size_t>(n));
  out.push_back(Array::from_node(std::move(h)));
  int64_t seen = 0;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t c = counts[k];
    if (c < 0 || seen + c > total) throw ValueError(bad);
    NodePtr a = make_empty(DType::Int32, Shape{c, 1, 2});
    std::memcpy(a->buffer->data(), pts + 2 * seen, sizeof(int32_t) * 2 * static_cast<size_t>(c));
    out.push_back(Array::from_node(std::move(a)));
    seen += c;
  }
  return out;
}

}  // namespace mnn::ops::contours
