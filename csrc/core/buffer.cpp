#include "core/buffer.h"

#include <cstdlib>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <map>
#include <mutex>
#include <new>
#include <vector>

namespace mnn::core {

namespace {

// A cache of freed host blocks, by size class. Reusing a block skips the allocator and, for large
// results, the page faults of first-touching fresh memory (a 64 MB result costs ~10 ms of faults).
// Blocks are kept up to kMaxCachedBytes in total; the class rounding wastes at most 1/8.
class BlockCache {
 public:
  static constexpr size_t kMinCached = 64;
  static constexpr size_t kMaxCachedBytes = size_t(1) << 30;

  static size_t size_class(size_t n) {
    n = (n + 63) & ~size_t(63);
    if (n < kMinCached) return n;
    size_t top = size_t(1) << (63 - __builtin_clzll(n));
    size_t step = top / 8;
    return (n + step - 1) / step * step;
  }

  void* get(size_t cls) {
    if (cls >= kMinCached) {
      std::lock_guard<std::mutex> lk(mu_);
      auto it = free_.find(cls);
      if (it != free_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        cached_ -= cls;
        return p;
      }
    }
    void* p = fresh(cls);
    if (!p) {
      trim();
      p = fresh(cls);
      if (!p) throw std::bad_alloc();
    }
    return p;
  }

  // Why mid-size blocks are not placed at a chosen page offset against 4K aliasing (a store and
  // a later load 0x10-0x200 bytes above it in the low 12 address bits; numpy's arrays start
  // 0x10 into a page, these blocks often 0x40): session 13 (mem13) placed 16 KB - 4 MB blocks
  // 0x400 into a page and measured threshold / add / BGR2RGB from numpy and mnn inputs, lazy
  // mnn.numpy chains, a 16M float32 a*b+c and a 64 MB sum, old and new builds alternated: all
  // within +-2%, nothing faster. The calls that suffer (dense numpy inputs) already place their
  // output on the direct road (python/fast_run.cpp), the lazy road's import costs dwarf it, and
  // the 2 MiB-aligned large blocks are at equal offsets among themselves.
  // Large blocks are aligned to 2 MiB and offered to the kernel for transparent huge pages
  // (THP is often in "madvise" mode): a streaming pass over 64 MB then takes 32 page faults
  // and TLB entries instead of 16,384.
  static void* fresh(size_t cls) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr size_t kHuge = size_t(2) << 20;
    if (cls >= 2 * kHuge) {
      size_t bytes = (cls + kHuge - 1) / kHuge * kHuge;  // aligned_alloc wants a multiple
      void* p = std::aligned_alloc(kHuge, bytes);
      if (p) madvise(p, bytes, MADV_HUGEPAGE);  // a hint: failure changes nothing
      return p;
    }
#endif
    return std::aligned_alloc(64, cls);
  }

  void put(void* p, size_t cls) {
    if (cls >= kMinCached) {
      std::lock_guard<std::mutex> lk(mu_);
      if (cached_ + cls <= kMaxCachedBytes) {
        free_[cls].push_back(p);
        cached_ += cls;
        return;
      }
    }
    std::free(p);
  }

  void trim() {
    std::lock_guard<std::mutex> lk(mu_);
    for (auto& kv : free_)
      for (void* p : kv.second) std::free(p);
    free_.clear();
    cached_ = 0;
  }

 private:
  std::mutex mu_;
  std::map<size_t, std::vector<void*>> free_;
  size_t cached_ = 0;
};

BlockCache& block_cache() {
  static BlockCache* c = new BlockCache();  // outlives every Buffer, including static ones
  return *c;
}

}  // namespace

void release_cached_memory() { block_cache().trim(); }

struct BufferFactory {
  static std::shared_ptr<Buffer> make(size_t nbytes, Device dev) {
    auto b = std::make_shared<Buffer>(nullptr, nbytes, dev, true, true);
    if (nbytes <= sizeof(b->inline_)) {
      b->data_ = b->inline_;
      b->owned_ = false;
    } else {
      b->data_ = static_cast<char*>(block_cache().get(BlockCache::size_class(nbytes)));
    }
    return b;
  }
  static void set_release(Buffer& b, std::function<void()> r) { b.release_ = std::move(r); }
};

std::shared_ptr<Buffer> Buffer::allocate(size_t nbytes, Device dev) { return BufferFactory::make(nbytes, dev); }

std::shared_ptr<Buffer> Buffer::wrap(void* data, size_t nbytes, std::function<void()> release, bool writeable,
                                     Device dev) {
  auto b = std::make_shared<Buffer>(static_cast<char*>(data), nbytes, dev, false, writeable);
  BufferFactory::set_release(*b, std::move(release));
  return b;
}

Buffer::~Buffer() {
  if (owned_) block_cache().put(data_, BlockCache::size_class(nbytes_));
  if (release_) release_();
}

}  // namespace mnn::core
