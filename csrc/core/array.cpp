#include "core/array.h"

#include <cstring>

#include "core/error.h"
#include "engine/eval.h"

namespace mnn::core {

Array Array::from_node(NodePtr n) {
  Array a;
  a.shape_ = n->shape;
  a.strides_ = n->strides;
  a.offset_ = n->offset;
  a.st_ = std::make_shared<Storage>();
  a.st_->base = std::move(n);
  return a;
}

bool Array::is_whole() const {
  const Node& b = *st_->base;
  return offset_ == b.offset && shape_ == b.shape && strides_ == b.strides;
}

NodePtr Array::node() const {
  if (is_whole()) return st_->base;
  return make_view(st_->base, shape_, strides_, offset_);
}

Array Array::view(Shape shape, Strides strides, int64_t offset) const {
  Array a;
  a.st_ = st_;
  a.shape_ = std::move(shape);
  a.strides_ = std::move(strides);
  a.offset_ = offset;
  a.writeable_ = writeable_;
  return a;
}

void Array::assign(const NodePtr& value) {
  const NodePtr& base = st_->base;
  Params p;
  p.ints.reserve(shape_.size() * 2 + 1);
  for (auto d : shape_) p.ints.push_back(d);
  for (auto s : strides_) p.ints.push_back(s);
  p.ints.push_back(offset_);
  NodePtr w = make_node(Op::Write, base->dtype, base->shape, {base, value}, std::move(p));
  // The new version keeps the old buffer layout, so every alias's window stays valid.
  w->strides = base->strides;
  w->offset = base->offset;
  w->buffer_elems = base->buffer_elems;
  std::shared_ptr<Buffer> outside;  // memory someone reads without asking us: numpy views, foreign owners
  if (base->realized && base->buffer && (base->buffer->exports.load() > 0 || base->buffer->foreign()))
    outside = base->buffer;
  NodePtr old = base;
  st_->base = bound_depth(std::move(w));
  if (!outside) return;
  // Numpy semantics: the write is visible through that memory at once, so it cannot wait in the graph.
  NodePtr now = st_->base;
  engine::eval({now});
  if (now->buffer == outside) return;
  // The planner copied because a pending reader still needs the old value: that reader gets a
  // snapshot, and the new content goes into the memory the outside world is looking at.
  size_t nbytes = static_cast<size_t>(now->buffer_elems) * itemsize(now->dtype);
  if (now->device.type != Device::CPU || nbytes > outside->nbytes() || now->offset != old->offset) return;
  auto snap = Buffer::allocate(outside->nbytes(), outside->device());
  std::memcpy(snap->data(), outside->data(), outside->nbytes());
  old->buffer = snap;
  std::memcpy(outside->data(), now->buffer->data(), nbytes);
  now->buffer = outside;
}

NodePtr bound_depth(NodePtr n) {
  if (n->depth > kMaxPendingDepth) engine::eval({n});
  return n;
}

}  // namespace mnn::core
