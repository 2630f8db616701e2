#include "core/node.h"

#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include <unistd.h>
#if defined(__linux__)
#include <sys/sysinfo.h>
#endif

#include "core/error.h"

namespace mnn::core {

const char* op_name(Op op) {
  static const char* names[] = {
#define X(name, pyname, arity, rule) pyname,
#include "prims/opcodes.def"
#undef X
      "<elementwise>", "leaf", "view", "setitem", "reduce", "argreduce", "scan", "matmul", "concatenate", "arange", "prim"};
  return names[static_cast<int>(op)];
}

static inline uint64_t mix(uint64_t h, uint64_t v) {
  // splitmix-style combine: cheap and well distributed
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

uint64_t Params::hash() const {
  uint64_t h = ints.size() * 31 + floats.size();
  for (auto v : ints) h = mix(h, static_cast<uint64_t>(v));
  for (auto f : floats) {
    uint64_t b;
    std::memcpy(&b, &f, 8);
    h = mix(h, b);
  }
  return h;
}

namespace {

// Bytes a single allocation may ask for before it must fail: Linux's default overcommit refuses one
// larger than RAM plus swap, which is where numpy's malloc gives up.
int64_t allocation_limit() {
  static const int64_t limit = [] {
#if defined(__linux__)
    struct sysinfo si;
    if (sysinfo(&si) == 0) return static_cast<int64_t>((si.totalram + si.totalswap) * uint64_t(si.mem_unit));
#endif
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<int64_t>(pages) * page : std::numeric_limits<int64_t>::max();
  }();
  return limit;
}

std::string human_bytes(double b) {  // numpy's style: "7.28 TiB"
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (b >= 1024 && u < 6) b /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof(buf), u == 0 ? "%.0f %s" : "%.3g %s", b, units[u]);
  return buf;
}

}  // namespace

void check_allocatable(const char* fn, DType dtype, const Shape& shape) {
  int64_t n = 1, bytes = 0;
  bool overflow = false;
  for (auto d : shape) {
    if (d == 0) return;
    overflow |= __builtin_mul_overflow(n, d, &n);
  }
  if (overflow || __builtin_mul_overflow(n, static_cast<int64_t>(itemsize(dtype)), &bytes))
    throw ValueError(api_msg(fn, "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                                 "possible size."));
  if (bytes > allocation_limit())
    throw MemoryError(api_msg(fn, "Unable to allocate " + human_bytes(static_cast<double>(bytes)) +
                                      " for an array with shape " + shape_str(shape) + " and data type " +
                                      dtype_name(dtype)));
}

NodePtr make_node(Op op, DType dtype, Shape shape, std::vector<NodePtr> inputs, Params params, DType compute) {
  check_allocatable(op_name(op), dtype, shape);
  auto n = std::make_shared<Node>();
  n->op = op;
  n->dtype = dtype;
  n->compute = compute;
  n->strides = contiguous_strides(shape);
  n->buffer_elems = numel(shape);
  n->shape = std::move(shape);
  n->params = std::move(params);
  uint32_t depth = 0;
  for (auto& in : inputs) {
    if (!in->realized) depth = std::max(depth, in->depth);
    n->device = in->device;
  }
  n->depth = depth + 1;
  n->inputs = std::move(inputs);
  return n;
}

NodePtr make_leaf(std::shared_ptr<Buffer> buf, DType dtype, Shape shape, Strides strides, int64_t offset,
                  int64_t buffer_elems) {
  auto n = std::make_shared<Node>();
  n->op = Op::Leaf;
  n->dtype = dtype;
  n->compute = dtype;
  n->shape = std::move(shape);
  n->strides = std::move(strides);
  n->offset = offset;
  n->buffer_elems = buffer_elems;
  n->device = buf->device();
  n->buffer = std::move(buf);
  n->realized = true;
  return n;
}

NodePtr make_empty(DType dtype, const Shape& shape, Device dev) {
  check_allocatable("empty", dtype, shape);
  int64_t n = numel(shape);
  return make_leaf(Buffer::allocate(static_cast<size_t>(n) * itemsize(dtype), dev), dtype, shape,
                   contiguous_strides(shape), 0, n);
}

template <class T>
static NodePtr scalar_of(DType dtype, T v) {
  auto n = make_empty(dtype, {});
  dispatch_dtype_all(dtype, [&](auto zero) {
    using C = decltype(zero);
    C c;
    if constexpr (core::is_half_like_v<C>) c = C(static_cast<float>(v));
    else c = static_cast<C>(v);
    std::memcpy(n->buffer->data(), &c, sizeof(C));
  });
  return n;
}

NodePtr make_scalar(DType dtype, double value) { return scalar_of(dtype, value); }
NodePtr make_scalar_complex(DType dtype, double re, double im) {
  auto n = make_empty(dtype, {});
  if (dtype == DType::Complex64) {
    std::complex<float> c(static_cast<float>(re), static_cast<float>(im));
    std::memcpy(n->buffer->data(), &c, sizeof(c));
  } else {
    std::complex<double> c(re, im);
    std::memcpy(n->buffer->data(), &c, sizeof(c));
  }
  return n;
}
NodePtr make_scalar_int(DType dtype, int64_t value) { return scalar_of(dtype, value); }
NodePtr make_scalar_uint(DType dtype, uint64_t value) { return scalar_of(dtype, value); }

NodePtr make_view(const NodePtr& base, Shape shape, Strides strides, int64_t offset) {
  auto n = std::make_shared<Node>();
  n->op = Op::View;
  n->dtype = base->dtype;
  n->compute = base->dtype;
  n->device = base->device;
  n->params.ints.reserve(shape.size() * 2 + 1);
  for (auto d : shape) n->params.ints.push_back(d);
  for (auto s : strides) n->params.ints.push_back(s);
  n->params.ints.push_back(offset);
  n->shape = std::move(shape);
  n->strides = std::move(strides);
  n->offset = offset;
  n->buffer_elems = base->buffer_elems;
  // A view stays pending even over realised data: the planner then sees exactly who reads
  // which region of a buffer, which is what decides whether a write may happen in place.
  n->depth = base->realized ? 1 : base->depth;
  n->inputs.push_back(base);
  return n;
}

}  // namespace mnn::core
