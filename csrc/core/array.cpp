#include "core/array.h"

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
  st_->base = bound_depth(std::move(w));
}

NodePtr bound_depth(NodePtr n) {
  if (n->depth > kMaxPendingDepth) engine::eval({n});
  return n;
}

}  // namespace mnn::core
