// _core.prim_now_bind / prim_run / prim_values: a registered primitive run at once on realised,
// dense inputs (numpy images imported zero-copy), its CPU kernel called directly.
//
// Why: a cv call on a 640x480 image whose kernel is a memory-speed pass (threshold, merge, flip,
// add) spends ~2 us outside the kernel when it records a node and evaluates it (graph extraction,
// structural hash, plan-cache lookup, arena binding): a quarter of what cv2 takes for the whole
// call. Run here, the same kernel on the same bytes gives the same result for ~0.5 us. Anything
// the direct road cannot take (a pending or strided mnn input, gradients being recorded, a
// non-CPU array) is recorded lazily as _core.prim_apply would, so callers need no second path.
//
// The capsule keeps the kernel prepared for the last input layout it saw (the plan cache's job on
// the lazy road); a call that finds it busy (another thread) prepares its own.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

#include "autograd/tape.h"
#include "backends/backend.h"
#include "core/error.h"
#include "engine/eval.h"
#include "ops/ops.h"
#include "prims/registry.h"
#include "python/bindings.h"
#include "python/convert.h"

namespace mnn::py_bind {

using namespace core;

namespace {

constexpr const char* kNowName = "mnn.prim_now";

struct NowPrim {
  const prims::Primitive* prim;
  const prims::CpuPrepareFn* prepare;  // the best ISA's kernel for this build and MNN_ISA
  Params params;
  // the kernel prepared for inputs of these dtypes and shapes (all dense)
  std::unique_ptr<backend::Kernel> kernel;
  std::vector<std::pair<DType, Shape>> kernel_for;
  std::atomic<bool> busy{false};
};

void now_destructor(PyObject* cap) { delete static_cast<NowPrim*>(PyCapsule_GetPointer(cap, kNowName)); }

PyObject* type_error(const char* msg) {
  PyErr_SetString(PyExc_TypeError, msg);
  return nullptr;
}

// Releasing the GIL costs ~0.2 us: worth it only where the kernel takes far longer.
constexpr int64_t kReleaseGilBytes = int64_t(1) << 18;

// 4K aliasing: a load whose address matches an earlier, still pending store in its low 12 bits
// waits for that store. A fresh numpy image starts 16 bytes into a page and a 64-aligned output
// from the block cache 64 bytes in, so output = input + 48 (mod 4096): every store of a streaming
// pass matches a load of the next iteration, and a 2 MB threshold ran ~40% slower than the same
// loop on other addresses (the lazy road has the same layout). The output is placed 64-aligned,
// 64 to 127 bytes below the first input's page offset instead: stores then trail loads.
constexpr int64_t kPlaceBytes = int64_t(1) << 14;

NodePtr placed_output(const prims::PrimMeta& meta, uintptr_t page_off) {
  const int64_t isz = static_cast<int64_t>(itemsize(meta.dtype)), n = numel(meta.shape);
  check_allocatable("empty", meta.dtype, meta.shape);
  const int64_t elems = n + 4096 / isz;
  auto buf = Buffer::allocate(static_cast<size_t>(elems * isz));
  const uintptr_t at = reinterpret_cast<uintptr_t>(buf->data()) & 4095;  // a multiple of 64
  const int64_t skip = static_cast<int64_t>((page_off + 4096 - at) & 4095);
  return make_leaf(std::move(buf), meta.dtype, meta.shape, contiguous_strides(meta.shape), skip / isz, elems);
}

bool depth_any(const char* fmt, Py_ssize_t isz, DType& d);

// A C-contiguous numpy array as an array over its buffer (what from_buffer makes, without the
// Python ndarray object around it: ~0.3 us an input). false for anything else.
bool import_dense(PyObject* o, Array& out) {
  if (std::strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray") != 0) return false;
  auto* v = new Py_buffer;
  bool writeable = true;
  if (PyObject_GetBuffer(o, v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
    PyErr_Clear();
    writeable = false;
    if (PyObject_GetBuffer(o, v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
      PyErr_Clear();
      delete v;
      return false;
    }
  }
  DType dt;
  if (!depth_any(v->format, v->itemsize, dt) || v->ndim > 64) {
    PyBuffer_Release(v);
    delete v;
    return false;
  }
  Shape shape(v->shape, v->shape + v->ndim);
  const int64_t n = numel(shape);
  // released with the GIL taken: the last reference may go in an evaluation that dropped it
  auto buf = Buffer::wrap(v->buf, static_cast<size_t>(n ? v->len : 0), [v]() {
    PyGILState_STATE g = PyGILState_Ensure();
    PyBuffer_Release(v);
    PyGILState_Release(g);
    delete v;
  }, writeable);
  out = Array::from_node(make_leaf(std::move(buf), dt, shape, contiguous_strides(shape), 0, n));
  out.set_writeable(writeable);
  return true;
}

// The inputs as arrays: mnn ndarrays as they are, anything else imported zero-copy. false when an
// import is refused (the caller then answers None, as prim_apply_image does).
bool gather(PyObject* const* args, Py_ssize_t n, std::vector<Array>& xs, std::vector<py::object>& held) {
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (const Array* a = as_array(args[i])) {
      xs.push_back(*a);
      continue;
    }
    Array d;
    if (import_dense(args[i], d)) {
      xs.push_back(std::move(d));
      continue;
    }
    py::object imp = from_buffer(args[i], -1);
    const Array* a = imp.is_none() ? nullptr : as_array(imp.ptr());
    if (!a) return false;
    xs.push_back(*a);
    held.push_back(std::move(imp));
  }
  return true;
}

// Whether every input is a realised, dense, whole CPU buffer (the kernels' contract for inputs).
bool direct_ok(const std::vector<Array>& xs) {
  const bool grad = autograd::grad_enabled();
  for (const Array& a : xs) {
    if (grad && autograd::requires_grad(a)) return false;  // the lazy road records the tape entry
    const NodePtr& b = a.storage()->base;
    if (!b->realized || b->device.type != Device::CPU || !a.is_contiguous()) return false;
  }
  return true;
}

// Runs the bound primitive on xs at once: the realised result.
Array run_now(NowPrim& b, const std::vector<Array>& xs) {
  std::vector<NodePtr> in;
  in.reserve(xs.size());
  for (const Array& a : xs) in.push_back(a.node());
  prims::PrimMeta meta = b.prim->infer(in, b.params);  // the same checks and errors as recording
  std::vector<char*> ptrs;
  ptrs.reserve(xs.size());
  const int64_t out_bytes = numel(meta.shape) * static_cast<int64_t>(itemsize(meta.dtype));
  int64_t bytes = out_bytes;
  uintptr_t page_off = 4096;
  for (const Array& a : xs) {
    const NodePtr& base = a.storage()->base;
    ptrs.push_back(base->buffer->data() + a.offset() * static_cast<int64_t>(itemsize(base->dtype)));
    bytes += a.size() * static_cast<int64_t>(itemsize(base->dtype));
    if (page_off == 4096) page_off = ((reinterpret_cast<uintptr_t>(ptrs.back()) + 4096 - 64) & 4095) & ~uintptr_t(63);
  }
  NodePtr out = out_bytes >= kPlaceBytes && !xs.empty() ? placed_output(meta, page_off) : make_empty(meta.dtype, meta.shape);
  // the cached kernel when it was prepared for these inputs and no other thread runs it
  std::unique_ptr<backend::Kernel> own;
  backend::Kernel* k = nullptr;
  bool mine = !b.busy.exchange(true);
  if (mine) {
    bool same = b.kernel && b.kernel_for.size() == xs.size();
    for (size_t i = 0; same && i < xs.size(); ++i)
      same = b.kernel_for[i].first == xs[i].dtype() && b.kernel_for[i].second == xs[i].shape();
    if (!same) {
      b.kernel.reset();
      b.kernel_for.clear();
    }
  }
  try {
    if (mine && b.kernel) {
      k = b.kernel.get();
    } else {
      backend::StepDesc d;
      d.op = Op::Prim;
      d.params = &b.params;
      for (const Array& a : xs) d.inputs.push_back({a.dtype(), a.shape(), contiguous_strides(a.shape())});
      d.output = {meta.dtype, meta.shape, contiguous_strides(meta.shape)};
      own = (*b.prepare)(d);
      k = own.get();
      if (mine) {
        for (const Array& a : xs) b.kernel_for.emplace_back(a.dtype(), a.shape());
        b.kernel = std::move(own);
      }
    }
    if (bytes >= kReleaseGilBytes && PyGILState_Check()) {
      Py_BEGIN_ALLOW_THREADS
      try {
        k->run(ptrs.data(), out->data_ptr());
      } catch (...) {
        Py_BLOCK_THREADS
        throw;
      }
      Py_END_ALLOW_THREADS
    } else {
      k->run(ptrs.data(), out->data_ptr());
    }
  } catch (...) {
    if (mine) b.busy.store(false);
    throw;
  }
  if (mine) b.busy.store(false);
  return Array::from_node(out);
}

// The result of the bound primitive on the inputs (realised when the direct road takes them,
// else recorded), or nullptr with no error set when an input import is refused.
bool apply(NowPrim& b, PyObject* const* args, Py_ssize_t n, Array& result) {
  std::vector<Array> xs;
  std::vector<py::object> held;
  xs.reserve(static_cast<size_t>(n));
  if (!gather(args, n, xs, held)) return false;
  if (b.prepare && direct_ok(xs)) result = run_now(b, xs);
  else result = ops::prim(*b.prim, xs, b.params);
  return true;
}

NowPrim* bound_of(PyObject* const* args, Py_ssize_t nargs, const char* fn) {
  if (nargs < 2 || !PyCapsule_IsValid(args[0], kNowName)) {
    type_error(fn);
    return nullptr;
  }
  return static_cast<NowPrim*>(PyCapsule_GetPointer(args[0], kNowName));
}

// prim_apply_image / prim_apply (fast_access.cpp), for a prim_bind() capsule handed to prim_run:
// memos of other modules share _fastpix.apply with this road's.
PyObject* g_apply_image = nullptr;
PyObject* g_apply = nullptr;

// _core.prim_run(bound, *inputs): the result array, or None when an input cannot be imported.
PyObject* prim_run(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs >= 1 && PyCapsule_CheckExact(args[0]) && !PyCapsule_IsValid(args[0], kNowName))
    return PyObject_Vectorcall(nargs == 2 ? g_apply_image : g_apply, args, static_cast<size_t>(nargs), nullptr);
  NowPrim* b = bound_of(args, nargs, "[mnn.engine] prim_run() takes a prim_now_bind() capsule and inputs");
  if (!b) return nullptr;
  try {
    Array r;
    if (!apply(*b, args + 1, nargs - 1, r)) Py_RETURN_NONE;
    return wrap_array(std::move(r));
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

// _core.prim_values(bound, *inputs): the result's elements as a tuple of Python floats (for the
// few numbers of a statistic: minMaxLoc, countNonZero), or None when an input cannot be imported.
PyObject* prim_values(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  NowPrim* b = bound_of(args, nargs, "[mnn.engine] prim_values() takes a prim_now_bind() capsule and inputs");
  if (!b) return nullptr;
  try {
    Array r;
    if (!apply(*b, args + 1, nargs - 1, r)) Py_RETURN_NONE;
    NodePtr base = r.storage()->base;
    engine::eval({base});  // nothing to do when the direct road ran
    const int64_t n = r.size();
    const DType dt = base->dtype;
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(n));
    if (!t) return nullptr;
    const char* p = base->buffer->data() + r.offset() * static_cast<int64_t>(itemsize(dt));
    for (int64_t i = 0; i < n; ++i) {
      double v;
      if (dt == DType::Float64) std::memcpy(&v, p + 8 * i, 8);
      else if (dt == DType::Int64) {
        int64_t q;
        std::memcpy(&q, p + 8 * i, 8);
        v = static_cast<double>(q);
      } else {
        Py_DECREF(t);
        return type_error("[mnn.engine] prim_values() reads float64 or int64 results only");
      }
      PyObject* f = PyFloat_FromDouble(v);
      if (!f) {
        Py_DECREF(t);
        return nullptr;
      }
      PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), f);
    }
    return t;
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

// ---- _core.cv_minmaxloc(src): cv2.minMaxLoc(src) for a dense single-channel image, or None ----
//
// A 4-number answer needs no graph node and no array: the buffer is read in place and the
// cv_minmaxloc kernel (backends/cpu/simd/cv/fastpix.cpp) runs on it at once. On a 640x480 uint8
// image that leaves ~0.4 us around a ~3 us kernel, where recording, evaluating and reading back
// four elements cost ~2 us (cv2's whole call is ~3.5 us). Takes a C-contiguous numpy array or a
// realised dense mnn array, HxW or HxWx1, of a depth the kernel reads, not empty; None for
// anything else (mnn/cv/_core_ops.py then runs its checked path, which raises cv2's errors).

bool depth_of(const char* fmt, Py_ssize_t isz, DType& d) {
  if (!fmt) return false;
  if (*fmt == '<' || *fmt == '=' || *fmt == '@' || *fmt == '|') ++fmt;
  if (fmt[0] == 0 || fmt[1] != 0) return false;
  switch (fmt[0]) {
    case 'B': d = DType::UInt8; break;
    case 'b': d = DType::Int8; break;
    case 'H': d = DType::UInt16; break;
    case 'h': d = DType::Int16; break;
    case 'i': d = DType::Int32; break;
    case 'f': d = DType::Float32; break;
    case 'd': d = DType::Float64; break;
    default: return false;
  }
  return static_cast<Py_ssize_t>(itemsize(d)) == isz;
}

// every depth from_buffer imports (bind_interop.cpp's dtype_from_format, complex aside)
bool depth_any(const char* fmt, Py_ssize_t isz, DType& d) {
  if (!fmt) return false;
  if (*fmt == '<' || *fmt == '=' || *fmt == '@' || *fmt == '|') ++fmt;
  if (fmt[0] == 0 || fmt[1] != 0) return false;
  switch (fmt[0]) {
    case '?': d = DType::Bool; break;
    case 'l': case 'q': d = isz == 8 ? DType::Int64 : DType::Int32; break;
    case 'I': d = DType::UInt32; break;
    case 'L': case 'Q': d = isz == 8 ? DType::UInt64 : DType::UInt32; break;
    case 'e': d = DType::Float16; break;
    default: return depth_of(fmt, isz, d);
  }
  return static_cast<Py_ssize_t>(itemsize(d)) == isz;
}

struct MinMaxCache {
  DType dt;
  Shape shape;
  int64_t mode;
  std::unique_ptr<backend::Kernel> kernel;
};

PyObject* cv_minmaxloc(PyObject*, PyObject* src) {
  struct View {
    Py_buffer v{};
    bool held = false;
    ~View() {
      if (held) PyBuffer_Release(&v);
    }
  } view;
  const char* data = nullptr;
  DType dt;
  Shape shape;
  if (const Array* a = as_array(src)) {
    const NodePtr& b = a->storage()->base;
    if (!b->realized || b->device.type != Device::CPU || !a->is_contiguous()) Py_RETURN_NONE;
    dt = a->dtype();
    if (dt != DType::UInt8 && dt != DType::Int8 && dt != DType::UInt16 && dt != DType::Int16 && dt != DType::Int32 &&
        dt != DType::Float32 && dt != DType::Float64)
      Py_RETURN_NONE;
    shape = a->shape();
    data = b->buffer->data() + a->offset() * static_cast<int64_t>(itemsize(dt));
  } else if (std::strcmp(Py_TYPE(src)->tp_name, "numpy.ndarray") == 0) {
    if (PyObject_GetBuffer(src, &view.v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
      PyErr_Clear();  // not dense: the checked path
      Py_RETURN_NONE;
    }
    view.held = true;
    if (!depth_of(view.v.format, view.v.itemsize, dt)) Py_RETURN_NONE;
    shape.assign(view.v.shape, view.v.shape + view.v.ndim);
    data = static_cast<const char*>(view.v.buf);
  } else {
    Py_RETURN_NONE;
  }
  if (shape.size() == 3 && shape[2] == 1) shape.pop_back();
  if (shape.size() != 2 || shape[0] <= 0 || shape[1] <= 0) Py_RETURN_NONE;
  // cv2's answer when the first element is NaN (see _core_ops._minmax_checked): float64 NaN at
  // (0, 0); float32 continuous data (the whole image is one of cv2's rows) of 64 or more
  // elements skips NaN; shorter, NaN and no location
  const int64_t n = shape[0] * shape[1];
  const int64_t mode = dt == DType::Float64 ? 1 : dt == DType::Float32 && n >= 64 ? 2 : 0;
  static const prims::CpuPrepareFn* prepare = nullptr;
  static MinMaxCache cache[4];  // the last few layouts (a frame loop has one or two)
  static int next = 0;
  try {
    if (!prepare) {
      const prims::Primitive* p = prims::find_primitive("cv_minmaxloc");
      prepare = p ? prims::find_cpu_kernel(p->name) : nullptr;
      if (!prepare) Py_RETURN_NONE;
    }
    // the GIL is held throughout: the cache needs no lock
    backend::Kernel* k = nullptr;
    for (auto& c : cache)
      if (c.kernel && c.dt == dt && c.mode == mode && c.shape == shape) k = c.kernel.get();
    if (!k) {
      Params params;
      params.ints = {mode};
      backend::StepDesc d;
      d.op = Op::Prim;
      d.params = &params;
      d.inputs.push_back({dt, shape, contiguous_strides(shape)});
      d.output = {DType::Float64, {4}, {1}};
      MinMaxCache& c = cache[next];
      next = (next + 1) % 4;
      c.kernel = (*prepare)(d);
      c.dt = dt, c.shape = shape, c.mode = mode;
      k = c.kernel.get();
    }
    double r[4];
    char* in[1] = {const_cast<char*>(data)};
    k->run(in, reinterpret_cast<char*>(r));
    const int64_t w = shape[1], i = static_cast<int64_t>(r[2]), j = static_cast<int64_t>(r[3]);
    return Py_BuildValue("(dd(LL)(LL))", r[0], r[1], static_cast<long long>(i >= 0 ? i % w : -1),
                         static_cast<long long>(i >= 0 ? i / w : -1), static_cast<long long>(j >= 0 ? j % w : -1),
                         static_cast<long long>(j >= 0 ? j / w : -1));
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyMethodDef g_run_functions[] = {
    {"cv_minmaxloc", cv_minmaxloc, METH_O,
     "cv_minmaxloc(src): cv2.minMaxLoc of a dense single-channel image (numpy or realised mnn), or None"},
    {"prim_run", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(prim_run)), METH_FASTCALL,
     "prim_run(bound, *inputs): the prim_now_bind() primitive run at once on dense realised inputs "
     "(numpy buffers imported zero-copy), else recorded; None when an input cannot be imported"},
    {"prim_values", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(prim_values)), METH_FASTCALL,
     "prim_values(bound, *inputs): prim_run's float64/int64 result as a tuple of floats, or None"},
};

}  // namespace

void install_fast_run(py::module_& m) {
  g_apply_image = py::object(m.attr("prim_apply_image")).release().ptr();  // held for the module's life
  g_apply = py::object(m.attr("prim_apply")).release().ptr();
  for (auto& def : g_run_functions) {
    py::object f = py::reinterpret_steal<py::object>(PyCFunction_NewEx(&def, nullptr, m.attr("__name__").ptr()));
    if (!f) throw py::error_already_set();
    m.attr(def.ml_name) = f;
  }
  m.def("prim_now_bind", [](const std::string& name, const std::vector<int64_t>& ints, const std::vector<double>& floats) {
    const prims::Primitive* p = prims::find_primitive(name);
    if (!p) throw ValueError("[mnn.engine] unknown primitive '" + name + "'");
    auto* b = new NowPrim{p, prims::find_cpu_kernel(p->name), {}, {}, {}};
    b->params.ints = ints;
    b->params.floats = floats;
    PyObject* cap = PyCapsule_New(b, kNowName, now_destructor);
    if (!cap) {
      delete b;
      throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(cap);
  }, "prim_now_bind(name, ints, floats): a primitive with fixed parameters for prim_run / prim_values");
}

}  // namespace mnn::py_bind
