// Pre-inference: turns one extracted graph into a Plan (CSE, fusion, in-place decisions, arena
// layout, prepared kernels). Runs only on a plan-cache miss.
#include <algorithm>
#include <unordered_map>

#include "backends/backend.h"
#include "core/error.h"
#include "engine/plan.h"
#include "prims/elementwise.h"

namespace mnn::engine {

using namespace core;
using backend::FusedInstr;
using backend::FusedProgram;
using backend::TensorDesc;

namespace {

// Fused programs stay small enough for the interpreter's register file.
constexpr int kMaxGroupNodes = 40;
constexpr int kMaxGroupInputs = 16;
// Row regions: rows up to this long keep a block of rows in L2; bigger programs are not worth it.
constexpr int64_t kMaxRegionCols = 1 << 16;
constexpr int kMaxRegionNodes = 64;
constexpr int kMaxRegionProgram = 24;  // elementwise nodes per program inside a region

struct VecHash {
  size_t operator()(const std::vector<int64_t>& v) const {
    uint64_t h = 1469598103934665603ULL;
    for (auto x : v) h = (h ^ static_cast<uint64_t>(x)) * 1099511628211ULL;
    return h;
  }
};

struct Window {  // where a step writes: shape/strides/offset inside its output buffer
  Shape shape;
  Strides strides;
  int64_t offset;
};

struct Region {  // a row region (see find_regions)
  int sink;
  Shape lead;  // the leading dims, flattened into R rows
  int64_t cols;
  std::vector<int> members;  // ascending (topological) order
};

class Planner {
 public:
  Planner(const std::vector<Node*>& leaves, const std::vector<Node*>& pending, const std::vector<char>& is_output,
          const std::vector<char>& leaf_exclusive)
      : leaves_(leaves), pending_(pending), excl_(leaf_exclusive) {
    nl_ = static_cast<int>(leaves.size());
    nv_ = nl_ + static_cast<int>(pending.size());
    plan_ = std::make_shared<Plan>();
    plan_->n_leaves = nl_;
    plan_->n_pending = static_cast<int>(pending.size());
    plan_->is_output.assign(nv_, 0);
    for (size_t i = 0; i < pending.size(); ++i) plan_->is_output[nl_ + i] = is_output[i];
  }

  std::shared_ptr<Plan> build() {
    cse();
    close_outputs();
    find_consumers();
    find_regions();
    group();
    number_steps();
    compute_last_use();
    assign_and_prepare();
    pack_arena();
    return plan_;
  }

 private:
  Node* node(int v) const { return v < nl_ ? leaves_[v] : pending_[v - nl_]; }
  int in_id(const Node* n, int i) const { return canon_[n->inputs[i]->visit_id]; }

  void cse() {
    canon_.resize(nv_);
    for (int v = 0; v < nv_; ++v) canon_[v] = v;
    std::unordered_map<std::vector<int64_t>, int, VecHash> seen;
    std::vector<int64_t> key;
    for (int v = nl_; v < nv_; ++v) {
      Node* n = node(v);
      if (n->op == Op::Write) continue;  // each write is its own version of a buffer
      key.clear();
      key.push_back(static_cast<int64_t>(n->op));
      key.push_back(static_cast<int64_t>(n->dtype));
      key.push_back(static_cast<int64_t>(n->compute));
      key.insert(key.end(), n->shape.begin(), n->shape.end());
      key.push_back(-1);
      key.insert(key.end(), n->params.ints.begin(), n->params.ints.end());
      for (double f : n->params.floats) {
        int64_t b;
        std::memcpy(&b, &f, 8);
        key.push_back(b);
      }
      key.push_back(-2);
      for (size_t i = 0; i < n->inputs.size(); ++i) key.push_back(in_id(n, static_cast<int>(i)));
      auto it = seen.find(key);
      if (it == seen.end()) {
        seen.emplace(key, v);
      } else {
        canon_[v] = it->second;
        if (plan_->is_output[v]) plan_->is_output[it->second] = 1;
      }
    }
    plan_->canonical = canon_;
  }

  // A view handed out as a result aliases its base, so the base must live in a real buffer.
  void close_outputs() {
    for (int v = nv_ - 1; v >= nl_; --v) {
      if (canon_[v] != v || !plan_->is_output[v]) continue;
      Node* n = node(v);
      if (n->op == Op::View) {
        int b = in_id(n, 0);
        if (b >= nl_) plan_->is_output[b] = 1;
      }
    }
  }

  void find_consumers() {
    consumer_.assign(nv_, -1);
    multi_.assign(nv_, 0);
    consumers_.assign(nv_, {});
    for (int v = nl_; v < nv_; ++v) {
      if (canon_[v] != v) continue;
      Node* n = node(v);
      for (size_t i = 0; i < n->inputs.size(); ++i) {
        int u = in_id(n, static_cast<int>(i));
        if (consumer_[u] == -1) consumer_[u] = v;
        else if (consumer_[u] != v) multi_[u] = 1;
        if (consumers_[u].empty() || consumers_[u].back() != v) consumers_[u].push_back(v);
      }
    }
  }

  bool absorbable_into(int v, int c) const {
    Node* n = node(v);
    Node* cn = node(c);
    if (cn->op == Op::Write) {
      // only as the written value, never as the buffer being written
      if (in_id(cn, 0) == v || in_id(cn, 1) != v) return false;
      Shape window(cn->params.ints.begin(), cn->params.ints.begin() + (cn->params.ints.size() - 1) / 2);
      return n->shape == window;
    }
    return is_elementwise(cn->op) && n->shape == cn->shape;
  }

  void group() {
    group_.assign(nv_, -1);
    std::vector<int> group_size, group_inputs_estimate;
    for (int v = nv_ - 1; v >= nl_; --v) {
      if (canon_[v] != v || region_[v] >= 0) continue;
      Node* n = node(v);
      if (!is_elementwise(n->op) && n->op != Op::Write) continue;
      int c = consumer_[v];
      if (is_elementwise(n->op) && !plan_->is_output[v] && c >= 0 && !multi_[v] && group_[c] >= 0 &&
          absorbable_into(v, c) && group_size[group_[c]] < kMaxGroupNodes &&
          group_inputs_estimate[group_[c]] + static_cast<int>(n->inputs.size()) <= kMaxGroupInputs) {
        group_[v] = group_[c];
        group_size[group_[v]]++;
        group_inputs_estimate[group_[v]] += static_cast<int>(n->inputs.size());
        continue;
      }
      group_[v] = static_cast<int>(group_size.size());
      sink_of_group_.push_back(v);
      group_size.push_back(1);
      group_inputs_estimate.push_back(static_cast<int>(n->inputs.size()));
    }
  }

  bool is_sink(int v) const { return group_[v] >= 0 && sink_of_group_[group_[v]] == v; }
  bool makes_step(int v) const {
    Node* n = node(v);
    if (region_[v] >= 0) return regions_[region_[v]].sink == v;
    if (n->op == Op::View) return false;
    if (group_[v] >= 0) return is_sink(v);
    return true;
  }

  void number_steps() {
    step_of_.assign(nv_, -1);
    int s = 0;
    for (int v = nl_; v < nv_; ++v)
      if (canon_[v] == v && makes_step(v)) step_of_[v] = s++;
    for (int v = nl_; v < nv_; ++v)
      if (canon_[v] == v && group_[v] >= 0 && !is_sink(v)) step_of_[v] = step_of_[sink_of_group_[group_[v]]];
    for (int v = nl_; v < nv_; ++v)
      if (region_[v] >= 0) step_of_[v] = step_of_[regions_[region_[v]].sink];
    nsteps_ = s;
  }

  // The value whose buffer v lives in (a view reads its base's buffer).
  int holder(int v) const {
    Node* n = node(v);
    return (v >= nl_ && n->op == Op::View) ? in_id(n, 0) : v;
  }

  void compute_last_use() {
    last_use_.assign(nv_, -1);
    for (int v = nl_; v < nv_; ++v) {
      if (canon_[v] != v || step_of_[v] < 0) continue;
      Node* n = node(v);
      for (size_t i = 0; i < n->inputs.size(); ++i) {
        int u = holder(in_id(n, static_cast<int>(i)));
        last_use_[u] = std::max(last_use_[u], step_of_[v]);
      }
    }
  }

  TensorDesc desc_of(int v) const {
    Node* n = node(v);
    return {n->dtype, n->shape, n->strides};
  }
  int64_t byte_offset(int v) const { return node(v)->offset * static_cast<int64_t>(itemsize(node(v)->dtype)); }

  int new_store(int64_t bytes, int step) {
    Store s;
    s.bytes = bytes;
    s.first_step = step;
    s.last_step = step;
    plan_->stores.push_back(s);
    return static_cast<int>(plan_->stores.size()) - 1;
  }

  void bind(int v, int store) {
    plan_->store_of[v] = store;
    Store& s = plan_->stores[store];
    s.last_step = std::max(s.last_step, last_use_[v]);
    if (plan_->is_output[v]) s.dedicated = s.leaf < 0;
    if (plan_->is_output[v]) output_in_store_[store] = 1;
  }

  // May step `s` overwrite store `st` through `win`, given the values the step reads?
  bool can_write_in_place(int st, int s, const Window& win, size_t out_isz, const std::vector<int>& reads) const {
    const Store& S = plan_->stores[st];
    if (S.leaf >= 0 && !excl_[S.leaf]) return false;
    if (output_in_store_.count(st)) return false;
    if (S.last_step > s) return false;
    for (int u : reads) {
      if (plan_->store_of[u] != st) continue;
      Node* n = node(u);
      if (itemsize(n->dtype) != out_isz || n->shape != win.shape || n->offset != win.offset) return false;
      for (size_t d = 0; d < win.shape.size(); ++d)
        if (win.shape[d] != 1 && n->strides[d] != win.strides[d]) return false;
    }
    return true;
  }

  void assign_and_prepare() {
    plan_->store_of.assign(nv_, -1);
    for (int l = 0; l < nl_; ++l) {
      int st = new_store(static_cast<int64_t>(leaves_[l]->buffer->nbytes()), -1);
      plan_->stores[st].leaf = l;
      plan_->stores[st].last_step = last_use_[l];
      plan_->store_of[l] = st;
    }
    backend::Backend& be = backend::backend_for(pending_.empty() ? Device{} : pending_[0]->device);
    for (int v = nl_; v < nv_; ++v) {
      if (canon_[v] != v) continue;
      Node* n = node(v);
      if (n->op == Op::View && region_[v] < 0) {
        plan_->store_of[v] = plan_->store_of[in_id(n, 0)];
        if (plan_->is_output[v]) output_in_store_[plan_->store_of[v]] = 1;
        continue;
      }
      if (!makes_step(v)) continue;
      Step step;
      step.output = v;
      int s = step_of_[v];
      if (region_[v] >= 0) {
        build_region(v, step);
      } else if (group_[v] >= 0) {
        build_fused(v, step);
      } else {
        for (size_t i = 0; i < n->inputs.size(); ++i) step.inputs.push_back(in_id(n, static_cast<int>(i)));
        bind(v, new_store(static_cast<int64_t>(numel(n->shape) * itemsize(n->dtype)), s));
        step.output_byte_offset = 0;
        backend::StepDesc d;
        d.op = n->op;
        step.op = n->op;
        // Reduce params start with ops::ReduceKind: Sum = 0, Prod = 1 (max/min only compare)
        step.adds = n->op == Op::Reduce && !n->params.ints.empty() && n->params.ints[0] <= 1;
        d.params = &n->params;
        for (int u : step.inputs) d.inputs.push_back(desc_of(u));
        d.output = {n->dtype, n->shape, contiguous_strides(n->shape)};
        step.kernel = be.prepare(d);
      }
      for (int u : step.inputs) step.input_byte_offsets.push_back(byte_offset(u));
      if (step.region) {
        backend::StepDesc d;
        d.op = Op::kNumElementwise;
        d.params = &n->params;
        d.region = step.region.get();
        step.kernel = be.prepare(d);
      }
      if (step.program) {
        backend::StepDesc d;
        d.op = Op::kNumElementwise;
        d.params = &n->params;
        d.program = step.program.get();
        step.kernel = be.prepare(d);
      }
      plan_->steps.push_back(std::move(step));
    }
    // CSE duplicates share their canonical value's buffer.
    for (int v = nl_; v < nv_; ++v)
      if (canon_[v] != v) plan_->store_of[v] = plan_->store_of[canon_[v]];
  }

  void build_fused(int sink, Step& step) {
    Node* sn = node(sink);
    int g = group_[sink];
    auto prog = std::make_unique<FusedProgram>();
    Window win;
    int value_of_sink = sink;
    if (sn->op == Op::Write) {
      const auto& p = sn->params.ints;
      size_t nd = (p.size() - 1) / 2;
      win.shape.assign(p.begin(), p.begin() + nd);
      win.strides.assign(p.begin() + nd, p.begin() + 2 * nd);
      win.offset = p.back();
      value_of_sink = in_id(sn, 1);
    } else {
      win.shape = sn->shape;
      win.strides = contiguous_strides(sn->shape);
      win.offset = 0;
    }
    // Members in topological order, then the registers of their results.
    std::vector<int> members;
    for (int v = nl_; v <= sink; ++v)
      if (canon_[v] == v && group_[v] == g && node(v)->op != Op::Write) members.push_back(v);
    std::unordered_map<int, int> reg;  // value id -> register
    std::vector<DType> reg_dtype;
    auto input_reg = [&](int u) {
      auto it = reg.find(u);
      if (it != reg.end()) return it->second;
      int r = static_cast<int>(prog->inputs.size());
      Node* un = node(u);
      prog->inputs.push_back({un->dtype, win.shape, broadcast_strides(un->shape, un->strides, win.shape)});
      step.inputs.push_back(u);
      reg[u] = r;
      return r;
    };
    // Inputs first, so registers 0..k-1 are exactly the program inputs.
    for (int m : members) {
      Node* mn = node(m);
      for (size_t i = 0; i < mn->inputs.size(); ++i) {
        int u = in_id(mn, static_cast<int>(i));
        if (group_[u] != g || u >= sink + 1 || node(u)->op == Op::Write) input_reg(u);
      }
    }
    if (members.empty()) input_reg(value_of_sink);
    for (auto& in : prog->inputs) reg_dtype.push_back(in.dtype);
    auto emit = [&](Op op, DType compute, DType out, int a, int b, int c) {
      FusedInstr ins{op, compute, out, {a, b, c}, static_cast<int>(reg_dtype.size())};
      reg_dtype.push_back(out);
      prog->code.push_back(ins);
      return ins.dst;
    };
    auto operand = [&](int r, DType want) {
      return reg_dtype[r] == want ? r : emit(Op::Cast, reg_dtype[r], want, r, -1, -1);
    };
    for (int m : members) {
      Node* mn = node(m);
      int src[3] = {-1, -1, -1};
      prims::ResolvedTypes rt{mn->compute, mn->dtype};
      for (size_t i = 0; i < mn->inputs.size(); ++i) {
        int u = in_id(mn, static_cast<int>(i));
        DType want = mn->op == Op::Cast ? mn->compute : prims::operand_dtype(mn->op, static_cast<int>(i), rt);
        src[i] = operand(reg.at(u), want);
      }
      reg[m] = emit(mn->op, mn->compute, mn->dtype, src[0], src[1], src[2]);
    }
    DType out_dtype = sn->dtype;
    prog->result = operand(reg.at(value_of_sink), out_dtype);
    prog->output = {out_dtype, win.shape, win.strides};

    // Where the result goes: in place over a buffer this step reads, when nothing needs it after.
    int s = step_of_[sink];
    size_t isz = itemsize(out_dtype);
    int store = -1;
    if (sn->op == Op::Write) {
      int base = in_id(sn, 0);
      int bst = plan_->store_of[base];
      if (can_write_in_place(bst, s, win, isz, step.inputs)) {
        store = bst;
        step.inplace = true;
      } else {
        store = new_store(sn->buffer_elems * static_cast<int64_t>(isz), s);
        step.copy_from = base;
        step.copy_bytes = sn->buffer_elems * static_cast<int64_t>(isz);
        step.inputs.push_back(base);  // the copy reads it
      }
    } else {
      store = fresh_or_inplace_store(sn, s, win, step, false);
    }
    bind(sink, store);
    step.output_byte_offset = win.offset * static_cast<int64_t>(isz);
    step.fused = true;
    step.program = std::move(prog);
  }

  // ---- Row regions (backend.h): elementwise work + last-axis reductions run block by block ----
  //
  // A region is grown backwards from a sink (an elementwise result of shape L+[C] or a last-axis
  // reduction) over producers whose every consumer is already in it, so only the sink's value
  // leaves the region and everything else lives in cache-sized scratch. Values are "full" (shape
  // L+[C]) or "row" (L+[1], or L for reductions and their keepdims reshapes).

  enum RowClass { kNoClass, kFull, kRowKeep, kRowFlat };

  static RowClass row_class(const Shape& s, const Shape& lead, int64_t cols) {
    size_t k = lead.size();
    if (s.size() == k + 1 && std::equal(lead.begin(), lead.end(), s.begin()))
      return s[k] == cols ? kFull : (s[k] == 1 ? kRowKeep : kNoClass);
    if (s.size() == k && std::equal(lead.begin(), lead.end(), s.begin())) return kRowFlat;
    return kNoClass;
  }

  bool is_row_reduce(const Node* n) const {
    if (n->op != Op::Reduce || n->params.ints.size() != 2 || n->params.ints[0] > 3) return false;
    const Node* in = n->inputs[0].get();
    return in->ndim() >= 1 && n->params.ints[1] == in->ndim() - 1;
  }

  // May u (internal to the region) feed consumer c, both in the region?
  bool feeds(int u, int c, const Region& r) const {
    Node* un = node(u);
    Node* cn = node(c);
    RowClass uc = row_class(un->shape, r.lead, r.cols);
    if (cn->op == Op::Reduce) return uc == kFull;
    if (cn->op == Op::View) return uc == kRowKeep || uc == kRowFlat;
    RowClass cc = row_class(cn->shape, r.lead, r.cols);
    if (cc == kFull) return uc == kFull || uc == kRowKeep;
    return uc == cc;
  }

  bool eligible(int u, const Region& r) const {
    if (u < nl_ || canon_[u] != u || region_[u] >= 0) return false;
    if (plan_->is_output[u] && !side_output_ok(u, r)) return false;
    Node* n = node(u);
    if (n->op == Op::Reduce) {
      const Node* in = n->inputs[0].get();
      return is_row_reduce(n) && row_class(in->shape, r.lead, r.cols) == kFull;
    }
    RowClass c = row_class(n->shape, r.lead, r.cols);
    if (n->op == Op::View) return c == kRowKeep || c == kRowFlat;
    return is_elementwise(n->op) && c != kNoClass;
  }

  // A value the caller keeps (softmax's e = exp(x - max) held in a variable) may still be computed
  // inside a region when it is full width and contiguous: the region writes it to its own buffer
  // as it goes (a side output), and the rest of the region reads it back from cache, where ending
  // the region there wrote it and then read it all back from memory in a second region.
  bool side_output_ok(int u, const Region& r) const {
    Node* n = node(u);
    return is_elementwise(n->op) && row_class(n->shape, r.lead, r.cols) == kFull && n->offset == 0 &&
           n->strides == contiguous_strides(n->shape);
  }

  // Leading strides of an outside value read as the rows of `shape` (L+[C], L+[1] or L), merged
  // into one row stride; false when its layout does not flatten that way.
  bool row_strides(int u, const Shape& shape, const Region& r, int64_t& rs, int64_t& cs) const {
    Node* n = node(u);
    Strides b = broadcast_strides(n->shape, n->strides, shape);
    size_t k = r.lead.size();
    cs = shape.size() > k ? b[k] : 0;
    rs = 0;
    bool have = false;
    for (int d = static_cast<int>(k) - 1; d >= 0; --d) {
      if (r.lead[d] == 1) continue;
      if (!have) {
        rs = b[d];
        have = true;
        continue;
      }
      // this dim must step over all the (non-unit) dims inside it
      int64_t inner = 1;
      for (size_t e = d + 1; e < k; ++e) inner *= r.lead[e];
      if (b[d] != rs * inner) return false;
    }
    return true;
  }

  void find_regions() {
    region_.assign(nv_, -1);
    std::vector<char> in_r(nv_, 0);
    for (int v = nv_ - 1; v >= nl_; --v) {
      if (canon_[v] != v || region_[v] >= 0) continue;
      Node* n = node(v);
      Region r;
      r.sink = v;
      if (is_row_reduce(n)) {
        const Shape& in = n->inputs[0]->shape;
        r.lead.assign(in.begin(), in.end() - 1);
        r.cols = in.back();
        try_region(r, in_r);
      } else if (is_elementwise(n->op)) {
        // a full-width result (softmax) ...
        if (n->ndim() >= 1) {
          r.lead.assign(n->shape.begin(), n->shape.end() - 1);
          r.cols = n->shape.back();
          if (try_region(r, in_r)) continue;
        }
        // ... or one value per row (logsumexp, a norm): rows as the nearest reduction upstream has them
        const Node* red = upstream_row_reduce(n);
        if (!red) continue;
        const Shape& in = red->inputs[0]->shape;
        r.lead.assign(in.begin(), in.end() - 1);
        r.cols = in.back();
        RowClass c = row_class(n->shape, r.lead, r.cols);
        if (c == kRowKeep || c == kRowFlat) try_region(r, in_r);
      }
    }
  }

  const Node* upstream_row_reduce(const Node* n) const {
    std::vector<const Node*> stack{n};
    for (int budget = 0; !stack.empty() && budget < kMaxRegionNodes; ++budget) {
      const Node* u = stack.back();
      stack.pop_back();
      if (u->realized) continue;
      if (is_row_reduce(u)) return u;
      for (auto& in : u->inputs) stack.push_back(in.get());
    }
    return nullptr;
  }

  // Grows the region from r.sink; records it when it is worth running as one step.
  bool try_region(Region& r, std::vector<char>& in_r) {
    if (r.cols < 2 || r.cols > kMaxRegionCols || numel(r.lead) == 0) return false;
    const int v = r.sink;
    // Candidates are inputs of members, decided from the highest id down, so every consumer of a
    // candidate has been decided before it.
    std::vector<int> heap, members{v};
    in_r[v] = 1;
    auto push_inputs = [&](int m) {
      Node* mn = node(m);
      for (size_t i = 0; i < mn->inputs.size(); ++i) {
        heap.push_back(in_id(mn, static_cast<int>(i)));
        std::push_heap(heap.begin(), heap.end());
      }
    };
    push_inputs(v);
    int reduces = is_row_reduce(node(v)) ? 1 : 0;
    int last = -1;
    while (!heap.empty() && static_cast<int>(members.size()) < kMaxRegionNodes) {
      std::pop_heap(heap.begin(), heap.end());
      int u = heap.back();
      heap.pop_back();
      if (u == last) continue;  // duplicates come out together
      last = u;
      if (in_r[u] || !eligible(u, r)) continue;
      bool ok = !consumers_[u].empty();
      for (int c : consumers_[u]) ok = ok && in_r[c] && feeds(u, c, r);
      if (!ok) continue;
      in_r[u] = 1;
      members.push_back(u);
      if (node(u)->op == Op::Reduce) reduces++;
      push_inputs(u);
    }
    std::sort(members.begin(), members.end());
    r.members = members;
    bool accept = reduces > 0 && members.size() >= 2 && outside_inputs_flatten(r, in_r);
    for (int u : members) in_r[u] = 0;
    if (!accept) return false;
    int id = static_cast<int>(regions_.size());
    for (int m : members) region_[m] = id;
    regions_.push_back(r);
    return true;
  }

  // The shape a member's operands are read in: its own shape; a reduction reads L+[C].
  Shape read_shape(int m, const Region& r) const {
    Node* n = node(m);
    if (n->op != Op::Reduce) return n->shape;
    Shape s = r.lead;
    s.push_back(r.cols);
    return s;
  }

  bool outside_inputs_flatten(const Region& r, const std::vector<char>& in_r) const {
    for (int m : r.members) {
      Node* n = node(m);
      for (size_t i = 0; i < n->inputs.size(); ++i) {
        int u = in_id(n, static_cast<int>(i));
        if (in_r[u]) continue;
        if (n->op == Op::View) return false;  // views only re-shape values computed inside
        int64_t rs, cs;
        if (!row_strides(u, read_shape(m, r), r, rs, cs)) return false;
      }
    }
    return true;
  }

  void build_region(int sink, Step& step) {
    const Region& r = regions_[region_[sink]];
    auto prog = std::make_unique<backend::RegionProgram>();
    prog->rows = numel(r.lead);
    prog->cols = r.cols;
    std::unordered_map<int, int> slot_of;  // member value -> slot
    std::unordered_map<std::vector<int64_t>, int, VecHash> outside;  // (value, rs, cs) -> slot
    auto outside_slot = [&](int u, const Shape& shape) {
      int64_t rs = 0, cs = 0;
      row_strides(u, shape, r, rs, cs);
      std::vector<int64_t> key{u, rs, cs};
      auto it = outside.find(key);
      if (it != outside.end()) return it->second;
      backend::RegionSlot sl;
      sl.dtype = node(u)->dtype;
      sl.full = true;
      sl.external = static_cast<int>(step.inputs.size());
      sl.row_stride = rs;
      sl.col_stride = cs;
      step.inputs.push_back(u);
      prog->slots.push_back(sl);
      return outside[key] = static_cast<int>(prog->slots.size()) - 1;
    };
    auto slot_for = [&](int m, int i) {
      int u = in_id(node(m), i);
      if (region_[u] == region_[sink] && u != m) return slot_of.at(u);
      return outside_slot(u, read_shape(m, r));
    };
    // Elementwise members fuse into one program with the consumers they feed when all of those
    // are in one program of the same width (as the ordinary fusion groups do).
    std::unordered_map<int, int> sub;  // elementwise member -> the sink of its program
    std::unordered_map<int, int> sub_size;
    for (auto it = r.members.rbegin(); it != r.members.rend(); ++it) {
      int m = *it;
      Node* n = node(m);
      if (!is_elementwise(n->op)) continue;
      RowClass cls = row_class(n->shape, r.lead, r.cols);
      int target = -1;
      bool ok = m != sink && !plan_->is_output[m];  // a side output is a program's result
      for (int c : consumers_[m]) {
        auto f = sub.find(c);
        if (f == sub.end() || row_class(node(c)->shape, r.lead, r.cols) != cls) ok = false;
        else if (target == -1) target = f->second;
        else if (target != f->second) ok = false;
      }
      ok = ok && target >= 0 && sub_size[target] < kMaxRegionProgram;
      sub[m] = ok ? target : m;
      sub_size[sub[m]]++;
    }
    for (int m : r.members) {
      Node* n = node(m);
      if (n->op == Op::View) {
        slot_of[m] = slot_of.at(in_id(n, 0));
        continue;
      }
      if (is_elementwise(n->op) && sub.at(m) != m) continue;  // emitted with its program's sink
      backend::RegionStep st;
      backend::RegionSlot out;
      out.dtype = n->dtype;
      if (n->op == Op::Reduce) {
        st.srcs.push_back(slot_for(m, 0));
        st.reduce = true;
        st.reduce_kind = static_cast<int>(n->params.ints[0]);
        out.full = false;
      } else {
        std::vector<int> group;
        for (int u : r.members)
          if (u <= m && is_elementwise(node(u)->op) && sub.at(u) == m) group.push_back(u);
        st.full = row_class(n->shape, r.lead, r.cols) == kFull;
        out.full = st.full;
        st.program = region_program(group, st.srcs, prog->slots, slot_for, sub);
      }
      out.result = m == sink;
      if (m != sink && plan_->is_output[m]) {
        // a side output: a fresh buffer the region reaches as one more (written) operand
        out.external = static_cast<int>(step.inputs.size());
        out.row_stride = r.cols;
        out.col_stride = 1;
        step.inputs.push_back(m);
        bind(m, new_store(numel(n->shape) * static_cast<int64_t>(itemsize(n->dtype)), step_of_[sink]));
      }
      prog->slots.push_back(out);
      st.dst = static_cast<int>(prog->slots.size()) - 1;
      slot_of[m] = st.dst;
      prog->steps.push_back(std::move(st));
    }
    // The result: a fresh buffer, or in place over a same-sized input nothing reads afterwards
    // (every block reads its rows before writing them, and blocks do not overlap).
    Node* sn = node(sink);
    Window win{sn->shape, contiguous_strides(sn->shape), 0};
    bind(sink, fresh_or_inplace_store(sn, step_of_[sink], win, step, true));
    step.output_byte_offset = 0;
    step.fused = true;
    step.region = std::move(prog);
  }

  // Elementwise members (topological order, the last one the program's result) as one fused
  // program, with numpy's operand casts; operands from outside the group become program inputs
  // (their slots appended to srcs).
  template <class SlotFor>
  backend::FusedProgram region_program(const std::vector<int>& group, std::vector<int>& srcs,
                                       std::vector<backend::RegionSlot>& slots, SlotFor& slot_for,
                                       const std::unordered_map<int, int>& sub) {
    backend::FusedProgram p;
    const int g = group.back();
    std::unordered_map<int, int> reg;       // member value -> register
    std::unordered_map<int, int> slot_reg;  // slot -> register
    std::vector<DType> reg_dtype;
    // Inputs first, so registers 0..k-1 are exactly the program inputs.
    for (int m : group) {
      Node* n = node(m);
      for (size_t i = 0; i < n->inputs.size(); ++i) {
        int u = in_id(n, static_cast<int>(i));
        auto f = sub.find(u);
        if (f != sub.end() && f->second == g && u != m) continue;  // computed in this program
        int s = slot_for(m, static_cast<int>(i));
        if (slot_reg.count(s)) continue;
        slot_reg[s] = static_cast<int>(srcs.size());
        srcs.push_back(s);
        p.inputs.push_back({slots[s].dtype, {}, {}});
        reg_dtype.push_back(slots[s].dtype);
      }
    }
    auto emit = [&](Op op, DType compute, DType out, int a, int b, int c) {
      FusedInstr ins{op, compute, out, {a, b, c}, static_cast<int>(reg_dtype.size())};
      reg_dtype.push_back(out);
      p.code.push_back(ins);
      return ins.dst;
    };
    for (int m : group) {
      Node* n = node(m);
      int src[3] = {-1, -1, -1};
      prims::ResolvedTypes rt{n->compute, n->dtype};
      for (size_t i = 0; i < n->inputs.size(); ++i) {
        int u = in_id(n, static_cast<int>(i));
        auto f = sub.find(u);
        int r = (f != sub.end() && f->second == g && u != m) ? reg.at(u) : slot_reg.at(slot_for(m, static_cast<int>(i)));
        DType want = n->op == Op::Cast ? n->compute : prims::operand_dtype(n->op, static_cast<int>(i), rt);
        src[i] = reg_dtype[r] == want ? r : emit(Op::Cast, reg_dtype[r], want, r, -1, -1);
      }
      reg[m] = emit(n->op, n->compute, n->dtype, src[0], src[1], src[2]);
    }
    p.result = reg.at(g);
    p.output = {node(g)->dtype, {}, {}};
    return p;
  }

  // Where step s writes the sink's whole value: over a same-sized buffer of one of its inputs
  // when nothing needs that buffer afterwards (and it is not foreign memory), else a new store.
  // same_shape: the input must also have the sink's shape (row regions read inputs row by row).
  int fresh_or_inplace_store(Node* sn, int s, const Window& win, Step& step, bool same_shape) {
    size_t isz = itemsize(sn->dtype);
    int64_t bytes = numel(sn->shape) * static_cast<int64_t>(isz);
    for (int u : step.inputs) {
      int st = plan_->store_of[u];
      Node* un = node(u);
      if (st < 0 || plan_->stores[st].bytes != bytes || un->offset != 0) continue;
      if (same_shape && un->shape != sn->shape) continue;
      if (plan_->stores[st].leaf >= 0 && (un->buffer_elems != numel(sn->shape) || excl_[plan_->stores[st].leaf] != 1))
        continue;
      if (can_write_in_place(st, s, win, isz, step.inputs)) {
        step.inplace = true;
        return st;
      }
    }
    return new_store(bytes, s);
  }

  // Packs plan-owned, non-output stores into one arena: first fit over lifetimes.
  void pack_arena() {
    std::vector<int> order;
    for (size_t i = 0; i < plan_->stores.size(); ++i) {
      Store& s = plan_->stores[i];
      if (output_in_store_.count(static_cast<int>(i)) && s.leaf < 0) s.dedicated = true;
      if (s.leaf < 0 && !s.dedicated) order.push_back(static_cast<int>(i));
    }
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return plan_->stores[a].bytes > plan_->stores[b].bytes; });
    std::vector<int> placed;
    int64_t total = 0;
    for (int i : order) {
      Store& s = plan_->stores[i];
      int64_t size = (s.bytes + 63) & ~int64_t(63);
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (int j : placed) {
        const Store& o = plan_->stores[j];
        if (o.first_step <= s.last_step && s.first_step <= o.last_step)
          busy.push_back({o.arena_offset, o.arena_offset + ((o.bytes + 63) & ~int64_t(63))});
      }
      std::sort(busy.begin(), busy.end());
      int64_t off = 0;
      for (auto& b : busy) {
        if (off + size <= b.first) break;
        off = std::max(off, b.second);
      }
      s.arena_offset = off;
      total = std::max(total, off + size);
      placed.push_back(i);
    }
    plan_->arena_bytes = total;
  }

  const std::vector<Node*>& leaves_;
  const std::vector<Node*>& pending_;
  const std::vector<char>& excl_;
  int nl_, nv_, nsteps_ = 0;
  std::shared_ptr<Plan> plan_;
  std::vector<int> canon_, consumer_, group_, sink_of_group_, step_of_, last_use_;
  std::vector<std::vector<int>> consumers_;  // every consumer of each value (canonical ids)
  std::vector<int> region_;  // per value: its row region, or -1
  std::vector<Region> regions_;
  std::vector<char> multi_;
  std::unordered_map<int, char> output_in_store_;
};

}  // namespace

std::shared_ptr<Plan> build_plan(const std::vector<Node*>& leaves, const std::vector<Node*>& pending,
                                 const std::vector<char>& is_output, const std::vector<char>& leaf_exclusive) {
  return Planner(leaves, pending, is_output, leaf_exclusive).build();
}

}  // namespace mnn::engine
