// findContours' packed result (ops/cv/contours.h) split into the arrays Python returns.
#include <cstring>
#include <string>

#include "core/error.h"
#include "engine/eval.h"
#include "ops/cv/contours.h"

namespace mnn::ops::contours {

using namespace core;

namespace {

// The arrays of a packed result (hierarchy first, then every contour) as realised leaves whose
// windows are slices of one shared buffer: one allocation for all of them. Sharing is safe: each
// leaf is its own array family, and the engine writes a leaf's buffer in place only when that
// leaf is its sole owner (eval.cpp's leaf_exclusive counts the buffer's users), so writing into one
// contour while another lives copies first; the buffer is freed with its last leaf.
// The hierarchy leaf and one leaf per contour over buf (hierarchy 4n, then the points).
std::vector<Array> leaves(const std::shared_ptr<Buffer>& buf, const int32_t* counts, int64_t n, int64_t elems) {
  std::vector<Array> out;
  out.reserve(static_cast<size_t>(n + 1));
  out.push_back(Array::from_node(make_leaf(buf, DType::Int32, Shape{1, n, 4}, Strides{4 * n, 4, 1}, 0, elems)));
  int64_t at = 4 * n;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t c = counts[k];
    out.push_back(Array::from_node(make_leaf(buf, DType::Int32, Shape{c, 1, 2}, Strides{2, 2, 1}, at, elems)));
    at += 2 * c;
  }
  return out;
}

std::vector<Array> split_packed(const int32_t* p, int64_t len) {
  const char* bad = "[mnn.cv.findContours] malformed packed contours";
  if (len < 2) throw ValueError(bad);
  const int64_t n = p[0], total = p[1];
  if (n < 0 || total < 0 || len != 2 + 5 * n + 2 * total) throw ValueError(bad);
  std::vector<Array> out;
  if (n == 0) return out;
  const int32_t* counts = p + 2 + 4 * n;
  int64_t seen = 0;
  for (int64_t k = 0; k < n; ++k) {
    if (counts[k] < 0 || seen + counts[k] > total) throw ValueError(bad);
    seen += counts[k];
  }
  if (seen != total) throw ValueError(bad);
  // Layout of the shared buffer: hierarchy (4n), then the points (2 * total), contour after contour.
  const int64_t elems = 4 * n + 2 * total;
  auto buf = Buffer::allocate(sizeof(int32_t) * static_cast<size_t>(elems));
  int32_t* dst = reinterpret_cast<int32_t*>(buf->data());
  std::memcpy(dst, p + 2, sizeof(int32_t) * static_cast<size_t>(4 * n));
  std::memcpy(dst + 4 * n, counts + n, sizeof(int32_t) * static_cast<size_t>(2 * total));
  return leaves(buf, counts, n, elems);
}

}  // namespace

std::vector<Array> find_contours_arrays(const Array& img, int mode, int method, int ox, int oy) {
  const char* fn = "[mnn.cv.findContours] ";
  if (mode < 0 || mode > 4 || method < 1 || method > 4) throw ValueError(std::string(fn) + "bad parameters");
  if (img.ndim() != 2 || !img.is_contiguous()) throw ValueError(std::string(fn) + "expected a contiguous 2-d image");
  const DType want = mode == 4 ? DType::Int32 : DType::UInt8;
  if (img.dtype() != want) throw TypeError(std::string(fn) + "unexpected image dtype " + dtype_name(img.dtype()));
  if (img.device().type != Device::CPU) throw ValueError(std::string(fn) + "expected an image in host memory");
  NodePtr node = img.node();
  engine::eval({node});
  if (mode == 4) {
    const Packed r = trace_image(node->data_ptr(), img.shape()[0], img.shape()[1], mode, method, ox, oy);
    return split_packed(r.data(), static_cast<int64_t>(r.size()));
  }
  // The borders go straight into the arrays' shared buffer (hierarchy, then the points), with
  // no packed copy in between.
  std::vector<Array> out;
  const int64_t w = img.shape()[1];
  find_contours_traced(reinterpret_cast<const uint8_t*>(node->data_ptr()), img.shape()[0], w, w, mode, method, ox, oy,
                       [&](const std::vector<Border>& borders, const int32_t* points, int64_t total) {
                         const int64_t n = static_cast<int64_t>(borders.size());
                         if (n == 0) return;
                         const int64_t elems = 4 * n + 2 * total;
                         auto buf = Buffer::allocate(sizeof(int32_t) * static_cast<size_t>(elems));
                         int32_t* dst = reinterpret_cast<int32_t*>(buf->data());
                         std::vector<int32_t> counts(static_cast<size_t>(n));
                         pack_borders_to(borders, points, dst, counts.data(), dst + 4 * n);
                         out = leaves(buf, counts.data(), n, elems);
                       });
  return out;
}

std::vector<Array> unpack_contours(const Array& packed) {
  if (packed.dtype() != DType::Int32 || packed.ndim() != 1 || !packed.is_contiguous())
    throw ValueError("[mnn.cv.findContours] malformed packed contours");
  NodePtr node = packed.node();
  engine::eval({node});
  return split_packed(reinterpret_cast<const int32_t*>(node->data_ptr()), packed.size());
}

}  // namespace mnn::ops::contours
