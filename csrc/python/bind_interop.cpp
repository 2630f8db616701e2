// Data in and out of the engine: zero-copy import of buffer-protocol objects (numpy arrays,
// memoryviews, bytes), nested Python lists, tolist/item, and DLPack both ways.
#include <pybind11/stl.h>

#include <cstring>

#include "core/error.h"
#include "engine/eval.h"
#include "python/bindings.h"
#include "python/convert.h"

namespace mnn::py_bind {

using namespace core;

namespace {

// Releases a foreign buffer: from whichever thread drops the last reference, with the GIL.
struct HeldView {
  Py_buffer view;
};

bool dtype_from_format(const char* fmt, Py_ssize_t isz, DType& out) {
  if (!fmt) fmt = "B";
  if (*fmt == '<' || *fmt == '=' || *fmt == '@' || *fmt == '|') ++fmt;
  if (fmt[0] == 'Z' && fmt[1] != 0 && fmt[2] == 0) {  // complex: 'Zf' / 'Zd'
    if (fmt[1] == 'f') out = DType::Complex64;
    else if (fmt[1] == 'd') out = DType::Complex128;
    else return false;
    return static_cast<Py_ssize_t>(itemsize(out)) == isz;
  }
  if (fmt[0] == 0 || fmt[1] != 0) return false;
  switch (fmt[0]) {
    case '?': out = DType::Bool; break;
    case 'b': out = DType::Int8; break;
    case 'h': out = DType::Int16; break;
    case 'i': out = DType::Int32; break;
    case 'l': case 'q': out = isz == 8 ? DType::Int64 : DType::Int32; break;
    case 'B': out = DType::UInt8; break;
    case 'H': out = DType::UInt16; break;
    case 'I': out = DType::UInt32; break;
    case 'L': case 'Q': out = isz == 8 ? DType::UInt64 : DType::UInt32; break;
    case 'e': out = DType::Float16; break;
    case 'f': out = DType::Float32; break;
    case 'd': out = DType::Float64; break;
    default: return false;
  }
  return static_cast<Py_ssize_t>(itemsize(out)) == isz;
}

// A leaf over foreign memory given byte strides; the Buffer spans exactly the bytes the layout reaches.
NodePtr wrap_strided(char* data, DType dt, const Shape& shape, const std::vector<int64_t>& byte_strides,
                     std::function<void()> release, bool writeable, Device dev = {}) {
  int64_t isz = static_cast<int64_t>(itemsize(dt));
  int64_t lo = 0, hi = isz;
  bool empty = numel(shape) == 0;
  for (size_t i = 0; i < shape.size() && !empty; ++i) {
    int64_t ext = (shape[i] - 1) * byte_strides[i];
    if (ext < 0) lo += ext;
    else hi += ext;
  }
  Strides st(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) st[i] = byte_strides[i] / isz;
  auto buf = Buffer::wrap(data + lo, static_cast<size_t>(empty ? 0 : hi - lo), std::move(release), writeable, dev);
  return make_leaf(buf, dt, shape, st, -lo / isz, empty ? 0 : (hi - lo) / isz);
}

}  // namespace

// as_code >= 0 reinterprets a 1-d byte buffer as that dtype (frombuffer: memoryview cannot cast to 'e').
py::object from_buffer(py::handle obj, int as_code) {
  auto held = new HeldView();
  bool writeable = true;
  if (PyObject_GetBuffer(obj.ptr(), &held->view, PyBUF_RECORDS) != 0) {
    PyErr_Clear();
    writeable = false;
    if (PyObject_GetBuffer(obj.ptr(), &held->view, PyBUF_RECORDS_RO) != 0) {
      PyErr_Clear();
      delete held;
      return py::none();
    }
  }
  Py_buffer& v = held->view;
  DType dt;
  bool ok = dtype_from_format(v.format, v.itemsize, dt);
  Shape shape(v.shape, v.shape + v.ndim);
  std::vector<int64_t> bst(v.ndim);
  for (int i = 0; i < v.ndim; ++i) {
    bst[i] = v.strides ? v.strides[i] : 0;
    if (bst[i] % v.itemsize) ok = false;
  }
  if (!v.strides) bst = [&] {
    auto st = contiguous_strides(shape);
    for (auto& s : st) s *= v.itemsize;
    return st;
  }();
  if (as_code >= 0) {
    dt = dtype_from_code(as_code);
    auto isz = static_cast<int64_t>(itemsize(dt));
    ok = v.ndim == 1 && v.itemsize == 1 && (bst[0] == 1 || v.shape[0] <= 1) && v.len % isz == 0;
    shape = {static_cast<int64_t>(v.len) / isz};
    bst = {isz};
  }
  if (!ok || v.ndim > 64) {
    PyBuffer_Release(&v);
    delete held;
    return py::none();
  }
  auto release = [held]() {
    PyGILState_STATE g = PyGILState_Ensure();
    PyBuffer_Release(&held->view);
    delete held;
    PyGILState_Release(g);
  };
  NodePtr leaf = wrap_strided(static_cast<char*>(v.buf), dt, shape, bst, release, writeable && !v.readonly);
  Array a = Array::from_node(leaf);
  a.set_writeable(writeable && !v.readonly);
  return py::reinterpret_steal<py::object>(wrap_array(std::move(a)));
}

namespace {

template <class T>
void put(char* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Fills a fresh buffer from a flat list of Python scalars (the Python side flattened and chose dtype).
Array from_list(py::list flat, const Shape& shape, int code) {
  DType dt = dtype_from_code(code);
  NodePtr n = make_empty(dt, shape);
  size_t isz = itemsize(dt);
  char* p = n->buffer->data();
  Py_ssize_t len = PyList_GET_SIZE(flat.ptr());
  if (len != numel(shape)) throw ValueError("[mnn.numpy.array] list length does not match shape");
  for (Py_ssize_t i = 0; i < len; ++i) {
    PyObject* o = PyList_GET_ITEM(flat.ptr(), i);
    Array s = scalar_array(o, dt);
    std::memcpy(p + i * isz, s.storage()->base->buffer->data(), isz);
  }
  return Array::from_node(n);
}

}  // namespace

py::object scalar_to_py(const char* p, DType d) {
  return dispatch_dtype_all(d, [&](auto zero) -> py::object {
    using T = decltype(zero);
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (std::is_same_v<T, bool>) return py::bool_(v);
    else if constexpr (is_complex_v<T>)
      return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(v.real(), v.imag()));
    else if constexpr (core::is_half_like_v<T>) return py::float_(static_cast<double>(static_cast<float>(v)));
    else if constexpr (std::is_floating_point_v<T>) return py::float_(static_cast<double>(v));
    else return py::int_(v);
  });
}

namespace {

NodePtr realized(const Array& a) {
  NodePtr n = a.node();
  engine::eval({n});
  return n;
}

py::object nested(const Node& n, int dim, const char* p) {
  size_t isz = itemsize(n.dtype);
  if (dim == n.ndim()) return scalar_to_py(p, n.dtype);
  py::list out(n.shape[dim]);
  for (int64_t i = 0; i < n.shape[dim]; ++i)
    out[i] = nested(n, dim + 1, p + i * n.strides[dim] * static_cast<int64_t>(isz));
  return out;
}

// ---- DLPack (the spec's C ABI, declared here) ----
struct DLDevice { int32_t device_type; int32_t device_id; };
struct DLDataType { uint8_t code; uint8_t bits; uint16_t lanes; };
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
enum { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6, kDLCPU = 1 };

struct DLContext {
  NodePtr node;  // keeps the buffer alive
  std::vector<int64_t> shape, strides;
  DLManagedTensor tensor;
};

DLDataType to_dl(DType d) {
  uint8_t bits = static_cast<uint8_t>(itemsize(d) * 8);
  if (d == DType::BFloat16) return {kDLBfloat, 16, 1};
  switch (kind_of(d)) {
    case Kind::Bool: return {kDLBool, 8, 1};
    case Kind::Signed: return {kDLInt, bits, 1};
    case Kind::Unsigned: return {kDLUInt, bits, 1};
    case Kind::Complex: return {kDLComplex, bits, 1};
    default: return {kDLFloat, bits, 1};
  }
}

bool from_dl(DLDataType t, DType& out) {
  if (t.lanes != 1) return false;
  for (int c = 0; c < kNumDTypes; ++c) {
    if (!is_valid_code(c)) continue;
    DLDataType m = to_dl(static_cast<DType>(c));
    if (m.code == t.code && m.bits == t.bits) {
      out = static_cast<DType>(c);
      return true;
    }
  }
  return false;
}

void capsule_destructor(PyObject* cap) {
  if (PyCapsule_IsValid(cap, "dltensor")) {  // never consumed: we still own it
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
    if (t && t->deleter) t->deleter(t);
  } else {
    PyErr_Clear();
  }
}

py::object to_dlpack(const Array& a) {
  NodePtr n = realized(a);
  auto* ctx = new DLContext();
  ctx->node = n;
  ctx->shape = n->shape;
  ctx->strides = n->strides;
  n->buffer->exports++;  // an export: in-place updates stay visible to the consumer
  DLTensor& t = ctx->tensor.dl_tensor;
  t.data = n->data_ptr();
  t.device = {kDLCPU, 0};
  t.ndim = n->ndim();
  t.dtype = to_dl(n->dtype);
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  t.byte_offset = 0;
  ctx->tensor.manager_ctx = ctx;
  ctx->tensor.deleter = [](DLManagedTensor* m) {
    auto* c = static_cast<DLContext*>(m->manager_ctx);
    c->node->buffer->exports--;
    delete c;
  };
  return py::reinterpret_steal<py::object>(PyCapsule_New(&ctx->tensor, "dltensor", capsule_destructor));
}

Array from_dlpack_capsule(py::object cap) {
  auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap.ptr(), "dltensor"));
  if (!t) throw py::error_already_set();
  const DLTensor& d = t->dl_tensor;
  if (d.device.device_type != kDLCPU)
    throw NotImplementedError("[mnn.numpy.from_dlpack] only CPU tensors can be imported in this build");
  DType dt;
  if (!from_dl(d.dtype, dt)) throw TypeError("[mnn.numpy.from_dlpack] unsupported DLPack dtype");
  Shape shape(d.shape, d.shape + d.ndim);
  std::vector<int64_t> bst(d.ndim);
  Strides cs = contiguous_strides(shape);
  for (int i = 0; i < d.ndim; ++i) bst[i] = (d.strides ? d.strides[i] : cs[i]) * static_cast<int64_t>(itemsize(dt));
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
  auto release = [t]() {
    if (t->deleter) {
      PyGILState_STATE g = PyGILState_Ensure();
      t->deleter(t);
      PyGILState_Release(g);
    }
  };
  char* data = static_cast<char*>(d.data) + d.byte_offset;
  return Array::from_node(wrap_strided(data, dt, shape, bst, release, true));
}

}  // namespace

void bind_interop(py::module_& m) {
  // from_buffer(obj, as_code=-1): fast_access.cpp
  m.def("from_list", &from_list);
  m.def("tolist", [](const Array& a) {
    NodePtr n = realized(a);
    return nested(*n, 0, n->data_ptr());
  });
  // item(a, flat): fast_access.cpp
  m.def("flat_values", [](const Array& a, const std::vector<int64_t>& flat_indices) {
    // Only the requested elements (printing a huge array reads its corners only).
    NodePtr n = realized(a);
    py::list out(flat_indices.size());
    size_t isz = itemsize(n->dtype);
    for (size_t k = 0; k < flat_indices.size(); ++k) {
      int64_t off = 0, rem = flat_indices[k];
      for (int d = n->ndim() - 1; d >= 0; --d) {
        off += (rem % n->shape[d]) * n->strides[d];
        rem /= n->shape[d];
      }
      out[k] = scalar_to_py(n->data_ptr() + off * static_cast<int64_t>(isz), n->dtype);
    }
    return out;
  });
  m.def("all_values", [](const Array& a) {
    NodePtr n = realized(a);
    py::list out(numel(n->shape));
    size_t isz = itemsize(n->dtype);
    int64_t k = 0, total = numel(n->shape);
    std::vector<int64_t> idx(n->ndim(), 0);
    for (; k < total; ++k) {
      int64_t off = 0;
      for (int d = 0; d < n->ndim(); ++d) off += idx[d] * n->strides[d];
      out[k] = scalar_to_py(n->data_ptr() + off * static_cast<int64_t>(isz), n->dtype);
      for (int d = n->ndim() - 1; d >= 0; --d) {
        if (++idx[d] < n->shape[d]) break;
        idx[d] = 0;
      }
    }
    return out;
  });
  m.def("to_dlpack", &to_dlpack);
  m.def("from_dlpack_capsule", &from_dlpack_capsule);
  m.def("data_pointer", [](const Array& a) {
    NodePtr n = realized(a);
    return reinterpret_cast<uintptr_t>(n->data_ptr());
  });
}

}  // namespace mnn::py_bind
