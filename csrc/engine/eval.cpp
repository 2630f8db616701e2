// The eval trigger: extract the pending graph, find or build its plan, run it, realise results.
#include "engine/eval.h"

#include <algorithm>
#include <cfenv>
#include <cstring>
#include <list>
#include <mutex>
#include <unordered_map>

#include "backends/cpu/fp_blame.h"
#include "backends/cpu/kernels/error_flags.h"
#include "core/error.h"
#include "core/threadpool.h"
#include "engine/plan.h"

namespace mnn::engine {

using namespace core;

namespace {

Stats g_stats;
BlockingRegion g_blocking = nullptr;
std::mutex g_engine_mu;
uint64_t g_epoch = 0;

void blocking(const std::function<void()>& fn) {
  if (g_blocking) g_blocking(fn);
  else fn();
}

// The structural signature of an extracted graph: equal signatures mean one plan serves both.
struct Signature {
  std::vector<int64_t> words;
  uint64_t hash = 1469598103934665603ULL;
  void add(int64_t w) {
    words.push_back(w);
    hash = (hash ^ static_cast<uint64_t>(w)) * 1099511628211ULL;
  }
  bool operator==(const Signature& o) const { return hash == o.hash && words == o.words; }
};
struct SigHash {
  size_t operator()(const Signature& s) const { return s.hash; }
};

class PlanCache {
 public:
  std::shared_ptr<Plan> find(const Signature& s) {
    auto it = map_.find(s);
    if (it == map_.end()) return nullptr;
    lru_.splice(lru_.begin(), lru_, it->second.second);
    return it->second.first;
  }
  void insert(const Signature& s, std::shared_ptr<Plan> p) {
    lru_.push_front(s);
    map_.emplace(s, std::make_pair(std::move(p), lru_.begin()));
    while (map_.size() > capacity_) {
      map_.erase(lru_.back());
      lru_.pop_back();
    }
  }
  void clear() {
    map_.clear();
    lru_.clear();
  }
  size_t size() const { return map_.size(); }
  size_t capacity_ = 512;

 private:
  std::list<Signature> lru_;
  std::unordered_map<Signature, std::pair<std::shared_ptr<Plan>, std::list<Signature>::iterator>, SigHash> map_;
};

PlanCache& cache() {
  static PlanCache* c = new PlanCache();
  return *c;
}

struct Extracted {
  std::vector<Node*> leaves, pending;
  std::vector<char> is_output, leaf_exclusive;
  Signature sig;
  std::vector<std::pair<Node*, size_t>> stack;  // walk scratch
  // Reused across evals (under the engine lock) so a small eval allocates nothing here.
  void clear() {
    leaves.clear();
    pending.clear();
    is_output.clear();
    leaf_exclusive.clear();
    sig.words.clear();
    sig.hash = Signature{}.hash;
    stack.clear();
  }
};

void add_layout(Signature& sig, const Node* n) {
  sig.add(static_cast<int64_t>(n->dtype));
  sig.add(n->ndim());
  for (auto d : n->shape) sig.add(d);
  for (auto s : n->strides) sig.add(s);
  sig.add(n->offset);
  sig.add(n->buffer_elems);
}

// Post-order walk over pending nodes; realised inputs become the plan's leaves.
void extract(const std::vector<NodePtr>& roots, Extracted& g) {
  const uint64_t epoch = ++g_epoch;
  auto& stack = g.stack;
  for (const NodePtr& r : roots) {
    if (r->realized || r->visit_epoch == epoch) continue;
    stack.push_back({r.get(), 0});
    r->visit_epoch = epoch;
    r->visit_refs = 0;
    while (!stack.empty()) {
      auto& [n, i] = stack.back();
      if (i < n->inputs.size()) {
        Node* in = n->inputs[i++].get();
        if (in->visit_epoch != epoch) {
          in->visit_epoch = epoch;
          in->visit_refs = 0;
          if (in->realized) {
            in->visit_id = static_cast<int32_t>(g.leaves.size());
            g.leaves.push_back(in);
          } else {
            stack.push_back({in, 0});
          }
        }
        in->visit_refs++;
        continue;
      }
      n->visit_id = -1 - static_cast<int32_t>(g.pending.size());  // renumbered below
      g.pending.push_back(n);
      stack.pop_back();
    }
  }
  const int nl = static_cast<int>(g.leaves.size());
  for (size_t p = 0; p < g.pending.size(); ++p) g.pending[p]->visit_id = nl + static_cast<int32_t>(p);

  // Who else holds a node decides what must be materialised (results someone can still read)
  // and which leaf buffers may be overwritten (nobody else can see them).
  // How often each root was passed. Usually a handful: a flat list beats a hash map there (this
  // runs on every eval); mnn.eval(*many_views) switches to the map, or the scan is quadratic.
  constexpr size_t kFlat = 16;
  struct RootCount {
    std::pair<Node*, int> v[kFlat];  // on the stack: an eval of one root allocates nothing here
    size_t nv = 0;
    std::unordered_map<Node*, int> m;
    void add(Node* n) {
      if (!m.empty()) return void(++m[n]);
      for (size_t i = 0; i < nv; ++i)
        if (v[i].first == n) return void(++v[i].second);
      if (nv < kFlat) return void(v[nv++] = {n, 1});
      for (size_t i = 0; i < nv; ++i) m[v[i].first] = v[i].second;
      nv = 0;
      m[n] = 1;
    }
    int get(Node* n) const {
      if (!m.empty()) {
        auto it = m.find(n);
        return it == m.end() ? 0 : it->second;
      }
      for (size_t i = 0; i < nv; ++i)
        if (v[i].first == n) return v[i].second;
      return 0;
    }
  } root_count;
  for (const NodePtr& r : roots) root_count.add(r.get());
  g.leaf_exclusive.resize(nl);
  for (int l = 0; l < nl; ++l) {
    Node* n = g.leaves[l];
    auto owners = n->buffer.use_count() - n->buffer->exports.load();
    // 1: free to reuse; 2: may be written through (a += 1 on numpy's memory) but never reused for a
    // new value, since its foreign owner still reads it; 0: neither
    bool excl = n->buffer->writeable() && owners == 1 && n->visit_refs == n->use_count();
    g.leaf_exclusive[l] = excl ? (n->buffer->foreign() ? 2 : 1) : 0;
  }
  g.is_output.resize(g.pending.size());
  for (size_t p = 0; p < g.pending.size(); ++p) {
    Node* n = g.pending[p];
    const int rc = root_count.get(n);
    long held = n->use_count() - n->visit_refs - rc;
    g.is_output[p] = rc > 0 || held > 0;
  }

  Signature& sig = g.sig;
  sig.words.reserve(16 * (g.leaves.size() + g.pending.size()));
  sig.add(nl);
  for (int l = 0; l < nl; ++l) {
    add_layout(sig, g.leaves[l]);
    sig.add(g.leaf_exclusive[l]);
    sig.add(static_cast<int64_t>(g.leaves[l]->device.type));
    sig.add(static_cast<int64_t>(g.leaves[l]->buffer->nbytes()));
  }
  for (size_t p = 0; p < g.pending.size(); ++p) {
    Node* n = g.pending[p];
    sig.add(static_cast<int64_t>(n->op) << 16 | static_cast<int64_t>(n->compute) << 8 | g.is_output[p]);
    add_layout(sig, n);
    sig.add(static_cast<int64_t>(n->params.ints.size()));
    for (auto v : n->params.ints) sig.add(v);
    for (auto f : n->params.floats) {
      int64_t b;
      std::memcpy(&b, &f, 8);
      sig.add(b);
    }
    sig.add(static_cast<int64_t>(n->inputs.size()));
    for (auto& in : n->inputs) sig.add(in->visit_id);
  }
}

FpErrorHook g_fp_hook = nullptr;
std::vector<FpError> g_fp_errors;  // of the last run_plan; guarded by the engine lock
constexpr int kFe = FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW;

struct Blame {
  const char* op = nullptr;
  int pos = 0;  // position in the step's program: numpy reports in the order the ufuncs ran
};

// Which op of a step raised condition c (0 divide, 1 overflow, 2 invalid). Fused programs and row
// regions know exactly (the interpreter tests the flags after each instruction: fp_blame.h); a
// flag left over there came from something numpy does not report (a NaN in a max reduction), so
// it is dropped. An unfused step is its one op, if that op can raise the condition at all.
Blame blame(const Step& step, int c, const cpu::FusedFpBlame& fb, bool int_divide) {
  Blame b;
  if (c == 0 && fb.op[c] < 0 && int_divide && step.program) {
    // integer x // 0 sets the engine's flag, not an IEEE one: the program's first integer division
    int pos = 0;
    for (const auto& ins : step.program->code) {
      ++pos;
      if (ins.op == Op::FloorDivide || ins.op == Op::Remainder || ins.op == Op::Fmod || ins.op == Op::Divide ||
          ins.op == Op::Reciprocal)
        return {op_name(ins.op), pos};
    }
  }
  if (fb.op[c] >= 0) {
    Op op = static_cast<Op>(fb.op[c]);
    b.op = op == Op::Cast ? "cast" : op_name(op);
    b.pos = fb.pos[c];
  } else if (!step.program && !step.region && step.op != Op::kNumElementwise && cpu::op_can_raise(step.op, c)) {
    b.op = step.op == Op::Cast ? "cast" : op_name(step.op);
  } else if (step.adds && c != 0) {
    b.op = "reduce";  // numpy names the ufunc method: "overflow encountered in reduce"
  } else if (step.region && c != 0) {
    // not raised by an instruction: by the region's reductions. A sum/prod overflows or meets
    // inf - inf ("... in reduce"); a max/min only compares, and NaN compares set 'invalid'
    // without numpy reporting anything, so 'invalid' is trusted only without those.
    bool adds = false, compares = false;
    for (const auto& rs : step.region->steps)
      if (rs.reduce) (rs.reduce_kind <= 1 ? adds : compares) = true;
    if (adds && (c == 1 || !compares)) b.op = "reduce";
  }
  return b;
}

void note_fp_flags(const Step& step, int fe, int int_flags, const cpu::FusedFpBlame& fb) {
  const int kinds[3] = {(fe & FE_DIVBYZERO) || (int_flags & cpu::kErrDivideByZero), fe & FE_OVERFLOW, fe & FE_INVALID};
  const FpErrorKind kind_of_c[3] = {kFpDivide, kFpOverflow, kFpInvalid};
  struct Found { FpErrorKind kind; Blame b; };
  std::vector<Found> found;
  for (int c = 0; c < 3; ++c) {
    if (!kinds[c]) continue;
    Blame b = blame(step, c, fb, int_flags & cpu::kErrDivideByZero);
    if (b.op) found.push_back({kind_of_c[c], b});
  }
  // program order first; one op's conditions in numpy's order (divide, over, invalid)
  std::stable_sort(found.begin(), found.end(), [](const Found& x, const Found& y) { return x.b.pos < y.b.pos; });
  for (const Found& f : found) {
    bool seen = false;
    for (const FpError& e : g_fp_errors) seen |= e.kind == f.kind && std::strcmp(e.op, f.b.op) == 0;
    if (!seen) g_fp_errors.push_back({f.kind, f.b.op});
  }
}

// Per-run vectors, reused across evals (under the engine lock): a tiny plan's run then allocates
// only its output buffers. The buffer references are dropped when the run ends, thrown or not.
struct RunScratch {
  std::vector<std::shared_ptr<Buffer>> bufs;
  std::vector<char*> base, ins;
  struct Release {
    RunScratch& s;
    ~Release() { s.bufs.clear(); }
  };
};

RunScratch& run_scratch() {
  static RunScratch* s = new RunScratch();
  return *s;
}

void run_plan(Plan& plan, const Extracted& g) {
  const int nl = plan.n_leaves;
  RunScratch& scratch = run_scratch();
  RunScratch::Release release_buffers{scratch};
  auto& bufs = scratch.bufs;
  auto& base = scratch.base;
  bufs.resize(plan.stores.size());
  base.assign(plan.stores.size(), nullptr);
  if (plan.arena_bytes && (!plan.arena || plan.arena->nbytes() < static_cast<size_t>(plan.arena_bytes)))
    plan.arena = Buffer::allocate(plan.arena_bytes);
  uint64_t out_bytes = 0;
  for (size_t s = 0; s < plan.stores.size(); ++s) {
    const Store& st = plan.stores[s];
    if (st.leaf >= 0) {
      bufs[s] = g.leaves[st.leaf]->buffer;
      base[s] = bufs[s]->data();
    } else if (st.dedicated) {
      bufs[s] = Buffer::allocate(st.bytes);
      base[s] = bufs[s]->data();
      out_bytes += st.bytes;
    } else {
      base[s] = plan.arena ? plan.arena->data() + st.arena_offset : nullptr;  // no arena: only empty stores
    }
  }
  auto ptr = [&](int v, int64_t byte_off) { return base[plan.store_of[v]] + byte_off; };

  cpu::error_flags().store(0);
  g_fp_errors.clear();
  const bool track_fp = g_fp_hook != nullptr;
  if (track_fp) {
    // fetestexcept reads the flags; feclearexcept rewrites the whole x87 environment, which costs
    // a visible share of a tiny plan's run: clear only what is set.
    if (std::fetestexcept(kFe)) std::feclearexcept(kFe);
    core::take_worker_fp_flags();
    cpu::take_fused_fp();
  }
  uint64_t fused = 0;
  if (plan.work_bytes < 0) {
    plan.work_bytes = 0;
    for (const Store& st : plan.stores)
      if (st.leaf < 0) plan.work_bytes += st.bytes;
  }
  auto body = [&] {
    std::vector<char*>& ins = scratch.ins;
    for (auto& step : plan.steps) {
      ins.clear();
      for (size_t i = 0; i < step.inputs.size(); ++i) ins.push_back(ptr(step.inputs[i], step.input_byte_offsets[i]));
      if (step.copy_from >= 0) {
        char* dst = base[plan.store_of[step.output]];
        const char* src = base[plan.store_of[step.copy_from]];
        int64_t n = step.copy_bytes;
        parallel_for(n, 1 << 20, [&](int64_t b, int64_t e) { std::memcpy(dst + b, src + b, e - b); });
      }
      step.kernel->run(ins.data(), ptr(step.output, step.output_byte_offset));
      fused += step.fused;
      if (track_fp) {
        // The calling thread's flags plus what the workers raised during this step.
        cpu::FusedFpBlame fb = cpu::take_fused_fp();
        int fe = std::fetestexcept(kFe) | core::take_worker_fp_flags() | fb.flags | fb.outside;
        int intf = cpu::error_flags().load(std::memory_order_relaxed) & cpu::kErrDivideByZero;
        if (fe || intf) {
          std::feclearexcept(kFe);
          cpu::error_flags().fetch_and(~cpu::kErrDivideByZero);
          note_fp_flags(step, fe, intf, fb);
        }
      }
    }
  };
  // Releasing and retaking the GIL costs more than a tiny plan's whole run (and so does wrapping
  // the body in a std::function for the hook).
  if (plan.work_bytes < (256 << 10)) body();
  else blocking(body);
  const int flags = cpu::error_flags().load();
  if (flags & cpu::kErrNegativeIntPower)
    throw ValueError("[mnn.numpy.power] Integers to negative integer powers are not allowed.");
  if (flags & cpu::kErrSingularMatrix) throw LinAlgError("[mnn.numpy.linalg] Singular matrix");
  if (flags & cpu::kErrNotPositiveDefinite) throw LinAlgError("[mnn.numpy.linalg] Matrix is not positive definite");
  if (flags & cpu::kErrNoConvergence) throw LinAlgError("[mnn.numpy.linalg] decomposition did not converge");

  // Realise what someone can still read; drop every evaluated node's inputs to free the graph.
  for (int p = 0; p < plan.n_pending; ++p) {
    int v = nl + p;
    Node* n = g.pending[p];
    int c = plan.canonical[v];
    if (plan.is_output[c] || plan.is_output[v]) {
      int s = plan.store_of[c];
      n->buffer = bufs[s];
      n->realized = true;
    }
  }
  // Topological order matters: a node is only freed by its consumers, which come later.
  for (Node* n : g.pending) {
    n->depth = 0;
    n->inputs.clear();
  }
  g_stats.fused_groups += fused;
  g_stats.kernels_run += plan.steps.size();
  g_stats.nodes_evaluated += plan.n_pending;
  g_stats.inplace_steps += [&] {
    uint64_t k = 0;
    for (auto& s : plan.steps) k += s.inplace;
    return k;
  }();
  g_stats.arena_bytes = plan.arena_bytes;
  g_stats.output_bytes = out_bytes;
  g_stats.last_fused_groups = fused;
  g_stats.last_steps = plan.steps.size();
  g_stats.peak_bytes = std::max<uint64_t>(g_stats.peak_bytes, plan.arena_bytes + out_bytes);
}

}  // namespace

void eval(const std::vector<NodePtr>& roots) {
  bool any = false;
  for (auto& r : roots) any |= !r->realized;
  if (!any) return;
  std::unique_lock<std::mutex> lock(g_engine_mu, std::try_to_lock);
  if (!lock.owns_lock()) blocking([&] { lock.lock(); });  // wait without holding the GIL
  static Extracted* scratch = new Extracted();
  Extracted& g = *scratch;
  g.clear();
  extract(roots, g);
  if (g.pending.empty()) return;
  g_stats.evals++;
  std::shared_ptr<Plan> plan = cache().find(g.sig);
  if (plan) {
    g_stats.plan_hits++;
  } else {
    g_stats.plan_misses++;
    plan = build_plan(g.leaves, g.pending, g.is_output, g.leaf_exclusive);
    cache().insert(g.sig, plan);
  }
  g_stats.cached_plans = cache().size();
  run_plan(*plan, g);
  if (g_fp_errors.empty() || !g_fp_hook) return;
  std::vector<FpError> errors;
  errors.swap(g_fp_errors);
  lock.unlock();
  g_fp_hook(errors);
}

Stats& stats() { return g_stats; }
void reset_stats() { g_stats = Stats{}; g_stats.cached_plans = cache().size(); }
void clear_plan_cache() { cache().clear(); }
void set_plan_cache_capacity(size_t n) { cache().capacity_ = std::max<size_t>(n, 1); }
void set_blocking_region(BlockingRegion hook) { g_blocking = hook; }
void set_fp_error_hook(FpErrorHook hook) {
  g_fp_hook = hook;
  cpu::set_fused_fp_tracking(hook != nullptr);
}

}  // namespace mnn::engine
