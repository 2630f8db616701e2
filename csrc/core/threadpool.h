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

}  // namespace mnn::core
