// View-producing ops (windows onto the same buffer: no data moves) and concatenation.
#include <algorithm>

#include "ops/common.h"
#include "ops/ops.h"

namespace mnn::ops {

using namespace core;

namespace {

Params ints_param(const std::vector<int64_t>& v) {
  Params p;
  p.ints = v;
  return p;
}

Array as_view(const Array& a, Shape shape, Strides strides, int64_t offset, const char* kind, Params params) {
  Array out = a.view(std::move(shape), std::move(strides), offset);
  autograd::record(out, {&a}, kind, std::move(params));
  return out;
}

// numpy's no-copy reshape: new strides if the requested shape can walk the same memory.
bool reshape_strides(const Shape& old_shape, const Strides& old_strides, const Shape& new_shape, Strides& out) {
  Shape os;
  Strides ost;
  for (size_t i = 0; i < old_shape.size(); ++i)
    if (old_shape[i] != 1) {
      os.push_back(old_shape[i]);
      ost.push_back(old_strides[i]);
    }
  out.assign(new_shape.size(), 0);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  const size_t on = os.size(), nn = new_shape.size();
  while (oi < on && ni < nn) {
    int64_t np = new_shape[ni], op = os[oi];
    while (np != op) {
      if (np < op) np *= new_shape[nj++];
      else op *= os[oj++];
    }
    for (size_t k = oi; k + 1 < oj; ++k)
      if (ost[k] != ost[k + 1] * os[k + 1]) return false;
    out[nj - 1] = ost[oj - 1];
    for (size_t k = nj - 1; k > ni; --k) out[k - 1] = out[k] * new_shape[k];
    ni = nj++;
    oi = oj++;
  }
  // trailing size-1 dims of the new shape
  int64_t last = nn && ni > 0 ? out[ni - 1] : 1;
  for (size_t k = ni; k < nn; ++k) out[k] = last;
  return true;
}

// numpy's spelling of a requested shape: no spaces, leading unknowns dropped, later ones "newaxis".
std::string reshape_str(const Shape& s) {
  size_t i = 0;
  while (i < s.size() && s[i] < 0) ++i;
  if (i == s.size()) return "()";
  std::string r = "(" + std::to_string(s[i++]);
  for (; i < s.size(); ++i) r += s[i] < 0 ? std::string(",newaxis") : "," + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

Array reshape(const Array& a, Shape shape, const char* fn) {
  check_ndim(shape.size(), fn);
  int neg = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {  // numpy takes any negative size as the unknown one
      if (neg >= 0) throw ValueError(api_msg(fn, "can only specify one unknown dimension"));
      neg = static_cast<int>(i);
    } else {
      known *= shape[i];
    }
  }
  int64_t size = a.size();
  if (neg >= 0) {
    if (known == 0 || size % known != 0)
      throw ValueError(api_msg(fn, "cannot reshape array of size " + std::to_string(size) + " into shape " +
                                       reshape_str(shape)));
    shape[neg] = size / known;
  }
  if (numel(shape) != size)
    throw ValueError(api_msg(fn, "cannot reshape array of size " + std::to_string(size) + " into shape " +
                                     reshape_str(shape)));
  Params p = ints_param(a.shape());
  if (shape == a.shape()) return as_view(a, shape, a.strides(), a.offset(), "reshape", p);
  Strides st;
  if (size == 0) {
    st = contiguous_strides(shape);
  } else if (!reshape_strides(a.shape(), a.strides(), shape, st)) {
    Array c = copy(a);
    Array out = c.view(shape, contiguous_strides(shape), c.offset());
    autograd::record(out, {&c}, "reshape", ints_param(c.shape()));
    return out;
  }
  return as_view(a, shape, st, a.offset(), "reshape", p);
}

Array transpose(const Array& a, std::vector<int64_t> axes) {
  int nd = a.ndim();
  if (axes.empty()) {
    for (int i = nd - 1; i >= 0; --i) axes.push_back(i);
  }
  if (static_cast<int>(axes.size()) != nd) throw ValueError(api_msg("transpose", "axes don't match array"));
  std::vector<char> seen(nd, 0);
  Shape shape(nd);
  Strides st(nd);
  for (int i = 0; i < nd; ++i) {
    int ax = normalize_axis(axes[i], nd, "transpose");
    if (seen[ax]) throw ValueError(api_msg("transpose", "repeated axis in transpose"));
    seen[ax] = 1;
    axes[i] = ax;
    shape[i] = a.shape()[ax];
    st[i] = a.strides()[ax];
  }
  return as_view(a, shape, st, a.offset(), "transpose", ints_param(axes));
}

Array broadcast_to(const Array& a, const Shape& shape, const char* fn) {
  check_ndim(shape.size(), fn);
  const Shape& s = a.shape();
  // numpy drops leading length-1 axes of an assigned value that has more dims than its target
  size_t lead = 0;
  while (s.size() - lead > shape.size() && s[lead] == 1) ++lead;
  if (s.size() - lead > shape.size())
    throw ValueError(api_msg(fn, "input operand has more dimensions than allowed by the axis remapping"));
  Shape src(s.begin() + lead, s.end());
  Strides sst(a.strides().begin() + lead, a.strides().end());
  size_t off = shape.size() - src.size();
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i] != shape[off + i] && src[i] != 1)
      throw ValueError(api_msg(fn, "could not broadcast input array from shape " + shape_str(s) + " into shape " +
                                       shape_str(shape)));
  }
  for (auto d : shape)
    if (d < 0) throw ValueError(api_msg(fn, "all elements of broadcast shape must be non-negative"));
  if (s == shape) return a;
  Strides st = broadcast_strides(src, sst, shape);
  Array out = as_view(a, shape, st, a.offset(), "broadcast_to", ints_param(s));
  out.set_writeable(false);  // numpy: broadcast views are read-only
  return out;
}

Array expand_dims(const Array& a, int64_t axis) {
  int nd = a.ndim() + 1;
  int ax = normalize_axis(axis, nd, "expand_dims");
  Shape shape = a.shape();
  Strides st = a.strides();
  shape.insert(shape.begin() + ax, 1);
  st.insert(st.begin() + ax, 0);
  return as_view(a, shape, st, a.offset(), "reshape", ints_param(a.shape()));
}

Array squeeze(const Array& a, const std::vector<int64_t>& axes) {
  int nd = a.ndim();
  std::vector<char> drop(nd, 0);
  if (axes.empty()) {
    for (int i = 0; i < nd; ++i) drop[i] = a.shape()[i] == 1;
  } else {
    for (auto ax : axes) {
      int x = normalize_axis(ax, nd, "squeeze");
      if (a.shape()[x] != 1)
        throw ValueError(api_msg("squeeze", "cannot select an axis to squeeze out which has size not equal to one"));
      drop[x] = 1;
    }
  }
  Shape shape;
  Strides st;
  for (int i = 0; i < nd; ++i)
    if (!drop[i]) {
      shape.push_back(a.shape()[i]);
      st.push_back(a.strides()[i]);
    }
  return as_view(a, shape, st, a.offset(), "reshape", ints_param(a.shape()));
}

Array flip(const Array& a, const std::vector<int64_t>& axes) {
  int nd = a.ndim();
  std::vector<int64_t> list = axes;
  if (list.empty())
    for (int i = 0; i < nd; ++i) list.push_back(i);
  Strides st = a.strides();
  int64_t off = a.offset();
  std::vector<int64_t> norm;
  for (auto ax : list) {
    int x = normalize_axis(ax, nd, "flip");
    norm.push_back(x);
    if (a.shape()[x] > 0) off += (a.shape()[x] - 1) * st[x];
    st[x] = -st[x];
  }
  return as_view(a, a.shape(), st, off, "flip", ints_param(norm));
}

Array diagonal(const Array& a, int64_t offset, int64_t axis1, int64_t axis2) {
  int nd = a.ndim();
  if (nd < 2) throw ValueError(api_msg("diagonal", "diag requires an array of at least two dimensions"));
  int x1 = normalize_axis(axis1, nd, "diagonal"), x2 = normalize_axis(axis2, nd, "diagonal");
  if (x1 == x2) throw ValueError(api_msg("diagonal", "axis1 and axis2 cannot be the same"));
  int64_t n1 = a.shape()[x1], n2 = a.shape()[x2];
  int64_t off = a.offset(), len;
  if (offset >= 0) {
    len = std::max<int64_t>(0, std::min(n1, n2 - offset));
    if (len > 0) off += offset * a.strides()[x2];
  } else {
    len = std::max<int64_t>(0, std::min(n1 + offset, n2));
    if (len > 0) off -= offset * a.strides()[x1];
  }
  Shape shape;
  Strides st;
  for (int i = 0; i < nd; ++i)
    if (i != x1 && i != x2) {
      shape.push_back(a.shape()[i]);
      st.push_back(a.strides()[i]);
    }
  shape.push_back(len);
  st.push_back(a.strides()[x1] + a.strides()[x2]);
  Array out = as_view(a, shape, st, off, "diagonal", ints_param({offset, x1, x2}));
  out.set_writeable(false);  // numpy returns a read-only diagonal view
  return out;
}

Array as_contiguous(const Array& a) { return a.is_contiguous() ? a : copy(a); }

Array basic_index(const Array& a, const std::vector<Index>& idx) {
  const char* fn = "__getitem__";
  int nd = a.ndim();
  int consumed = 0, ellipses = 0;
  for (auto& i : idx) {
    if (i.kind == Index::Int || i.kind == Index::Slice) consumed++;
    if (i.kind == Index::Ellipsis) ellipses++;
  }
  if (ellipses > 1) throw IndexError(api_msg(fn, "an index can only have a single ellipsis ('...')"));
  if (consumed > nd)
    throw IndexError(api_msg(fn, "too many indices for array: array is " + std::to_string(nd) +
                                     "-dimensional, but " + std::to_string(consumed) + " were indexed"));
  Shape shape;
  Strides st;
  int64_t off = a.offset();
  int d = 0;
  for (auto& i : idx) {
    switch (i.kind) {
      case Index::NewAxis:
        shape.push_back(1);
        st.push_back(0);
        break;
      case Index::Ellipsis:
        for (int k = 0; k < nd - consumed; ++k, ++d) {
          shape.push_back(a.shape()[d]);
          st.push_back(a.strides()[d]);
        }
        break;
      case Index::Int: {
        int64_t n = a.shape()[d], v = i.start;
        if (v < -n || v >= n)
          throw IndexError(api_msg(fn, "index " + std::to_string(v) + " is out of bounds for axis " +
                                           std::to_string(d) + " with size " + std::to_string(n)));
        if (v < 0) v += n;
        off += v * a.strides()[d];
        ++d;
        break;
      }
      case Index::Slice: {
        int64_t n = a.shape()[d], step = i.step;
        if (step == 0) throw ValueError(api_msg(fn, "slice step cannot be zero"));
        // Python's slice.indices()
        int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
        int64_t start = i.has_start ? i.start : (step < 0 ? hi : lo);
        int64_t stop = i.has_stop ? i.stop : (step < 0 ? lo : hi);
        if (i.has_start) start = start < 0 ? std::max(start + n, lo) : std::min(start, hi);
        if (i.has_stop) stop = stop < 0 ? std::max(stop + n, lo) : std::min(stop, hi);
        int64_t len = step < 0 ? (stop < start ? (start - stop - 1) / (-step) + 1 : 0)
                               : (start < stop ? (stop - start - 1) / step + 1 : 0);
        if (len > 0) off += start * a.strides()[d];
        shape.push_back(len);
        st.push_back(a.strides()[d] * step);
        ++d;
        break;
      }
    }
  }
  for (; d < nd; ++d) {
    shape.push_back(a.shape()[d]);
    st.push_back(a.strides()[d]);
  }
  // The index as params is read only by the gradient tape (autograd::record): an array that
  // tracks no gradient skips building it (a 6-int vector per index, most of a tiny a[i]'s cost).
  Params p;
  if (autograd::grad_enabled() && autograd::requires_grad(a)) p.ints.reserve(idx.size() * 6);
  else return as_view(a, shape, st, off, "getitem", std::move(p));
  for (auto& i : idx) {
    p.ints.push_back(static_cast<int64_t>(i.kind));
    p.ints.push_back(i.start);
    p.ints.push_back(i.stop);
    p.ints.push_back(i.step);
    p.ints.push_back(i.has_start);
    p.ints.push_back(i.has_stop);
  }
  return as_view(a, shape, st, off, "getitem", std::move(p));
}

Array concatenate(const std::vector<Array>& arrays, int64_t axis, std::optional<DType> dtype) {
  const char* fn = "concatenate";
  if (arrays.empty()) throw ValueError(api_msg(fn, "need at least one array to concatenate"));
  int nd = arrays[0].ndim();
  if (nd == 0) throw ValueError(api_msg(fn, "zero-dimensional arrays cannot be concatenated"));
  int ax = normalize_axis(axis, nd, fn);
  DType dt = arrays[0].dtype();
  for (auto& a : arrays) dt = promote(dt, a.dtype());
  if (dtype) dt = *dtype;
  Shape shape = arrays[0].shape();
  shape[ax] = 0;
  std::vector<NodePtr> nodes;
  std::vector<const Array*> ins;
  for (size_t k = 0; k < arrays.size(); ++k) {
    const Array& a = arrays[k];
    if (a.ndim() != nd)
      throw ValueError(api_msg(fn, "all the input array dimensions except for the concatenation axis must match "
                                   "exactly, but along dimension 0, the array at index 0 has " +
                                       std::to_string(nd) + " dimension(s) and the array at index " +
                                       std::to_string(k) + " has " + std::to_string(a.ndim()) + " dimension(s)"));
    for (int i = 0; i < nd; ++i)
      if (i != ax && a.shape()[i] != arrays[0].shape()[i])
        throw ValueError(api_msg(fn, "all the input array dimensions except for the concatenation axis must "
                                     "match exactly, but along dimension " +
                                         std::to_string(i) + ", the array at index 0 has size " +
                                         std::to_string(arrays[0].shape()[i]) + " and the array at index " +
                                         std::to_string(k) + " has size " + std::to_string(a.shape()[i])));
    shape[ax] += a.shape()[ax];
    NodePtr n = a.node();
    if (n->dtype != dt) n = make_node(Op::Cast, dt, n->shape, {n}, {}, n->dtype);
    nodes.push_back(n);
    ins.push_back(&a);
  }
  Params p = ints_param({ax});
  return finish(make_node(Op::Concat, dt, shape, std::move(nodes), p), ins);
}

}  // namespace mnn::ops
