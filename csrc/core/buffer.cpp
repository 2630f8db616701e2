#include "core/buffer.h"

#include <cstdlib>
#include <new>

namespace mnn::core {

struct BufferFactory {
  static std::shared_ptr<Buffer> make(size_t nbytes, Device dev) {
    auto b = std::make_shared<Buffer>(nullptr, nbytes, dev, true, true);
    if (nbytes <= sizeof(b->inline_)) {
      b->data_ = b->inline_;
      b->owned_ = false;
    } else {
      size_t rounded = (nbytes + 63) & ~size_t(63);
      void* p = std::aligned_alloc(64, rounded);
      if (!p) throw std::bad_alloc();
      b->data_ = static_cast<char*>(p);
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
  if (owned_) std::free(data_);
  if (release_) release_();
}

}  // namespace mnn::core
