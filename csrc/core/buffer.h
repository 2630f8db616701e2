// Device memory blocks. A Buffer is shared by every node and view that reads it; exports to other
// libraries (buffer protocol, DLPack) pin it so it outlives the array that handed it out.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>

namespace mnn::core {

struct Device {
  enum Type : uint8_t { CPU = 0, CUDA = 1 };
  Type type = CPU;
  int index = 0;
  bool operator==(const Device& o) const { return type == o.type && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

class Buffer {
 public:
  // Owned, 64-byte aligned, uninitialised memory.
  static std::shared_ptr<Buffer> allocate(size_t nbytes, Device dev = {});
  // Memory owned elsewhere (numpy, DLPack producer); `release` runs when the last user lets go.
  static std::shared_ptr<Buffer> wrap(void* data, size_t nbytes, std::function<void()> release, bool writeable,
                                      Device dev = {});
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  char* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  bool writeable() const { return writeable_; }
  // Memory owned elsewhere (wrap): others may read it, so it is never reused for a new value.
  bool foreign() const { return !owned_ && data_ != inline_; }
  // Live buffer-protocol / DLPack exports. They hold a reference but do not count as "another
  // owner" when deciding in-place reuse: an exported numpy view must see in-place updates.
  std::atomic<int> exports{0};

  Buffer(char* data, size_t nbytes, Device dev, bool owned, bool writeable)
      : data_(data), nbytes_(nbytes), device_(dev), owned_(owned), writeable_(writeable) {}

 private:
  char* data_;
  size_t nbytes_;
  Device device_;
  bool owned_;
  bool writeable_;
  std::function<void()> release_;
  alignas(16) char inline_[16];  // scalars live here: one allocation, not two
  friend struct BufferFactory;
};

// Returns cached freed blocks to the system (mnn.engine.release_memory()).
void release_cached_memory();

}  // namespace mnn::core
