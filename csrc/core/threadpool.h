// The one thread pool every CPU kernel shares. The calling thread works too, so n threads means
// n-1 workers. Kernels split work with parallel_for; small work stays on the calling thread.
#pragma once
#include <cstdint>
#include <functional>

namespace mnn::core {

void set_num_threads(int n);  // 0 or less: one per core
int get_num_threads();

// Runs fn(begin, end) over [0, n) in chunks of at least `grain` items, on up to get_num_threads()
// threads. Blocks until all chunks are done. Re-entrant calls (from inside fn) run serially.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

// IEEE status flags (FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW) the pool's workers raised since the
// last call, cleared on read. Flags are per thread: the workers fold theirs in here after each
// job, so the engine sees them as numpy sees its own thread's (numpy's errstate).
int take_worker_fp_flags();

}  // namespace mnn::core
