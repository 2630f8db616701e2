#include "core/threadpool.h"

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace mnn::core {

namespace {

thread_local bool tl_in_pool = false;
thread_local bool tl_is_worker = false;
constexpr int kFpFlags = FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW;
std::atomic<int> g_worker_fp{0};

class Pool {
 public:
  Pool() { resize(default_threads()); }
  ~Pool() { stop(); }

  static int default_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

  int size() const { return nthreads_; }

  void resize(int n) {
    if (n <= 0) n = default_threads();
    std::lock_guard<std::mutex> run_lock(run_mu_);
    stop();
    nthreads_ = n;
    quit_ = false;
    for (int i = 1; i < n; ++i) workers_.emplace_back([this] { worker(); });
  }

  void run(int64_t nchunks, const std::function<void(int64_t)>& chunk) {
    // One parallel region at a time: callers from several Python threads queue here instead of
    // oversubscribing the cores.
    std::lock_guard<std::mutex> run_lock(run_mu_);
    {
      std::lock_guard<std::mutex> lk(mu_);
      job_ = &chunk;
      nchunks_ = nchunks;
      next_.store(0);
      pending_ = nchunks;
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    work();
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [this] { return pending_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work() {
    // A worker reports only what this job raised; the calling thread keeps its flags for the engine.
    if (tl_is_worker) std::feclearexcept(kFpFlags);
    tl_in_pool = true;
    int64_t done = 0;
    for (int64_t i; (i = next_.fetch_add(1)) < nchunks_;) {
      try {
        (*job_)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu_);
        if (!error_) error_ = std::current_exception();
      }
      ++done;
    }
    tl_in_pool = false;
    if (tl_is_worker) {
      int fe = std::fetestexcept(kFpFlags);
      if (fe) g_worker_fp.fetch_or(fe, std::memory_order_relaxed);
    }
    if (done) {
      std::lock_guard<std::mutex> lk(mu_);
      pending_ -= done;
      if (pending_ == 0) done_cv_.notify_all();
    }
  }

  void worker() {
    tl_is_worker = true;
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return quit_ || (generation_ != seen && job_); });
        if (quit_) return;
        seen = generation_;
      }
      work();
    }
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      quit_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  int nthreads_ = 1;
  std::vector<std::thread> workers_;
  std::mutex run_mu_, mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int64_t)>* job_ = nullptr;
  int64_t nchunks_ = 0;
  std::atomic<int64_t> next_{0};
  int64_t pending_ = 0;
  uint64_t generation_ = 0;
  bool quit_ = false;
  std::exception_ptr error_;
};

Pool& pool() {
  static Pool* p = new Pool();  // never destroyed: workers must not be joined at interpreter exit
  return *p;
}

}  // namespace

void set_num_threads(int n) { pool().resize(n); }
int take_worker_fp_flags() { return g_worker_fp.exchange(0, std::memory_order_relaxed); }
int get_num_threads() { return pool().size(); }

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  int nt = pool().size();
  grain = std::max<int64_t>(grain, 1);
  int64_t max_chunks = (n + grain - 1) / grain;
  if (nt <= 1 || max_chunks <= 1 || tl_in_pool) {
    fn(0, n);
    return;
  }
  // A few chunks per thread balances uneven work without much scheduling cost.
  int64_t nchunks = std::min<int64_t>(max_chunks, int64_t(nt) * 4);
  int64_t per = (n + nchunks - 1) / nchunks;
  nchunks = (n + per - 1) / per;
  std::function<void(int64_t)> chunk = [&](int64_t c) {
    int64_t b = c * per, e = std::min(n, b + per);
    fn(b, e);
  };
  pool().run(nchunks, chunk);
}

}  // namespace mnn::core
