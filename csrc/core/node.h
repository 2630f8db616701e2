// The expression graph. A Node is one recorded operation (or a leaf holding data). Nodes are
// immutable once recorded except for realisation: the engine fills `buffer`, marks the node
// realised and drops its inputs so the graph is freed as soon as values exist.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/buffer.h"
#include "core/dtype.h"
#include "core/shape.h"

namespace mnn::core {

enum class Op : uint16_t {
#define X(name, pyname, arity, rule) name,
#include "prims/opcodes.def"
#undef X
  kNumElementwise,
  Leaf,       // data already in a buffer
  View,       // aliases its input's buffer with its own shape/strides/offset
  Write,      // input 0 (a base) with the region params describe replaced by input 1
  Reduce,     // sum/prod/min/max/any/all over axes
  ArgReduce,  // argmin/argmax over one axis
  Scan,       // cumsum/cumprod along one axis
  Matmul,     // batched, broadcast matrix product
  Concat,     // concatenation along one axis
  Arange,     // start + i * step
  Prim,       // a registered primitive (prims/registry.h): params.ints[0] is its id
  kNumOps
};

inline bool is_elementwise(Op op) { return op < Op::kNumElementwise; }
const char* op_name(Op op);

// A primitive's parameters: a plain bag of integers and doubles, hashable and comparable, so
// equal work is recognised (CSE) and plans can be cached by structure.
struct Params {
  std::vector<int64_t> ints;
  std::vector<double> floats;
  bool operator==(const Params& o) const { return ints == o.ints && floats == o.floats; }
  uint64_t hash() const;
};

struct Node;
using NodePtr = std::shared_ptr<Node>;

struct Node : std::enable_shared_from_this<Node> {
  Op op;
  DType dtype;          // result dtype
  DType compute;        // elementwise: dtype the inputs are cast to before the op runs
  Shape shape;
  Params params;
  std::vector<NodePtr> inputs;
  Device device;
  // Where the value lives (or will live): element strides and offset into `buffer`, whose size
  // is buffer_elems elements. Known at record time: fresh results are contiguous; a view
  // inherits its base's buffer; a write keeps its base's layout so every alias stays valid.
  Strides strides;
  int64_t offset = 0;
  int64_t buffer_elems = 0;
  std::shared_ptr<Buffer> buffer;
  bool realized = false;
  uint32_t depth = 0;  // longest chain of pending nodes ending here (bounds graph growth)
  // Scratch for the engine's graph walk (valid only while visit_epoch is the current walk).
  uint64_t visit_epoch = 0;
  int32_t visit_id = 0;
  int32_t visit_refs = 0;

  char* data_ptr() const { return buffer->data() + offset * static_cast<int64_t>(itemsize(dtype)); }
  int ndim() const { return static_cast<int>(shape.size()); }
  long use_count() const { return weak_from_this().use_count(); }
};

// Records a pending node with a fresh contiguous layout.
NodePtr make_node(Op op, DType dtype, Shape shape, std::vector<NodePtr> inputs, Params params = {},
                  DType compute = DType::Bool);
// A realised node over existing memory.
NodePtr make_leaf(std::shared_ptr<Buffer> buf, DType dtype, Shape shape, Strides strides, int64_t offset,
                  int64_t buffer_elems);
// A fresh, uninitialised, contiguous realised node (creation ops write into it directly).
NodePtr make_empty(DType dtype, const Shape& shape, Device dev = {});
// Throws what numpy raises for an array of this shape before any memory is asked for: ValueError
// when its byte size overflows int64, MemoryError when it exceeds RAM + swap. Nodes that allocate
// check at record time, so a lazy op fails on the line that asked for it.
void check_allocatable(const char* fn, DType dtype, const Shape& shape);
// A 0-d realised node holding one value.
NodePtr make_scalar(DType dtype, double value);
NodePtr make_scalar_int(DType dtype, int64_t value);
NodePtr make_scalar_uint(DType dtype, uint64_t value);
NodePtr make_scalar_complex(DType dtype, double re, double im);  // dtype: complex64 or complex128
// A view of `base` (which must not itself be a view) with the given buffer layout.
NodePtr make_view(const NodePtr& base, Shape shape, Strides strides, int64_t offset);

// Pending chains longer than this are evaluated as they are recorded, so a Python loop that
// keeps updating one array never grows an unbounded graph.
constexpr uint32_t kMaxPendingDepth = 256;

}  // namespace mnn::core
