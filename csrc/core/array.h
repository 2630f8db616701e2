// Array: what a Python ndarray holds. Numpy's aliasing rules meet a lazy graph here.
//
// Every buffer-sharing family of arrays (a base and all its views) shares one Storage: a mutable
// cell holding the node whose value is the whole buffer *now*. An Array is that cell plus a view
// (shape, element strides, element offset) into the buffer. Reading an Array yields the base node
// or a View node of it; writing through any alias (`a[1:3] = 5`, `a += 1`) records a Write node and
// makes it the new base, so every alias sees the change while nodes recorded earlier keep the old
// value. The planner turns a Write into a true in-place update when nothing else needs the old value.
#pragma once
#include <memory>

#include "core/node.h"

namespace mnn::core {

struct Storage {
  NodePtr base;
};

struct AutogradMeta;  // autograd/tape.h

class Array {
 public:
  Array() = default;
  // A fresh array over a node's value (a new buffer family).
  static Array from_node(NodePtr n);

  // The value as a graph node: the base itself when this array is the whole buffer, else a View.
  NodePtr node() const;
  // The same family's buffer seen through a different window.
  Array view(Shape shape, Strides strides, int64_t offset) const;
  // Makes `value` (already broadcast to this shape and cast to this dtype) the content of this
  // window, for every alias of the buffer.
  void assign(const NodePtr& value);

  DType dtype() const { return st_->base->dtype; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const { return numel(shape_); }
  Device device() const { return st_->base->device; }
  bool writeable() const { return writeable_; }
  void set_writeable(bool w) { writeable_ = w; }
  bool is_whole() const;  // this window is exactly the base's layout
  bool is_contiguous() const { return core::is_contiguous(shape_, strides_); }
  bool same_storage(const Array& o) const { return st_ == o.st_; }
  const std::shared_ptr<Storage>& storage() const { return st_; }

  std::shared_ptr<AutogradMeta> autograd;  // null unless gradients are tracked

 private:
  std::shared_ptr<Storage> st_;
  Shape shape_;
  Strides strides_;
  int64_t offset_ = 0;
  bool writeable_ = true;
};

// Evaluates the pending chain if it grew past kMaxPendingDepth; every op calls this on its result.
NodePtr bound_depth(NodePtr n);

}  // namespace mnn::core
