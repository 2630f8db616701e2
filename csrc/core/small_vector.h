// A vector of trivially-copyable values with inline room for N of them: shapes and strides have
// a handful of entries, and recording an op must not touch the heap for them (malloc/free were a
// quarter of a recorded `a + b`). Spills to the heap past N. Converts to and from std::vector.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <vector>

namespace mnn::core {

template <class T, size_t N = 6>
class SmallVec {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVec holds plain values");

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  SmallVec() = default;
  explicit SmallVec(size_t n, T v = T()) { assign(n, v); }
  SmallVec(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
  template <class It, class = decltype(*std::declval<It>())>
  SmallVec(It b, It e) { assign(b, e); }
  SmallVec(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // NOLINT: implicit on purpose
  SmallVec(const SmallVec& o) { assign(o.begin(), o.end()); }
  SmallVec(SmallVec&& o) noexcept { take(o); }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVec& operator=(SmallVec&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~SmallVec() { release(); }
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }  // NOLINT

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return ptr(); }
  const T* data() const { return ptr(); }
  T* begin() { return ptr(); }
  T* end() { return ptr() + size_; }
  const T* begin() const { return ptr(); }
  const T* end() const { return ptr() + size_; }
  T& operator[](size_t i) { return ptr()[i]; }
  const T& operator[](size_t i) const { return ptr()[i]; }
  T& back() { return ptr()[size_ - 1]; }
  const T& back() const { return ptr()[size_ - 1]; }
  T& front() { return ptr()[0]; }
  const T& front() const { return ptr()[0]; }

  void reserve(size_t n) {
    if (n <= cap_) return;
    T* p = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!p) throw std::bad_alloc();
    std::memcpy(p, ptr(), size_ * sizeof(T));
    if (heap_) std::free(heap_);
    heap_ = p;
    cap_ = n;
  }
  void resize(size_t n, T v = T()) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) ptr()[i] = v;
    size_ = n;
  }
  void clear() { size_ = 0; }
  void push_back(T v) {
    if (size_ == cap_) reserve(cap_ * 2);
    ptr()[size_++] = v;
  }
  void pop_back() { --size_; }
  void assign(size_t n, T v) {
    size_ = 0;
    resize(n, v);
  }
  template <class It>
  void assign(It b, It e) {
    size_t n = static_cast<size_t>(std::distance(b, e));
    size_ = 0;
    reserve(n);
    T* p = ptr();
    for (; b != e; ++b) *p++ = static_cast<T>(*b);
    size_ = n;
  }
  T* insert(T* pos, T v) {
    size_t i = static_cast<size_t>(pos - begin());
    push_back(v);
    T* p = ptr();
    std::memmove(p + i + 1, p + i, (size_ - 1 - i) * sizeof(T));
    p[i] = v;
    return p + i;
  }
  template <class It, class = decltype(*std::declval<It>())>
  T* insert(T* pos, It b, It e) {
    size_t i = static_cast<size_t>(pos - begin());
    size_t n = static_cast<size_t>(std::distance(b, e));
    reserve(size_ + n);
    T* p = ptr();
    std::memmove(p + i + n, p + i, (size_ - i) * sizeof(T));
    for (size_t k = 0; k < n; ++k, ++b) p[i + k] = static_cast<T>(*b);
    size_ += n;
    return p + i;
  }
  T* erase(T* pos) {
    size_t i = static_cast<size_t>(pos - begin());
    std::memmove(ptr() + i, ptr() + i + 1, (size_ - i - 1) * sizeof(T));
    --size_;
    return ptr() + i;
  }

  bool operator==(const SmallVec& o) const {
    return size_ == o.size_ && std::memcmp(ptr(), o.ptr(), size_ * sizeof(T)) == 0;
  }
  bool operator!=(const SmallVec& o) const { return !(*this == o); }

 private:
  T* ptr() { return heap_ ? heap_ : reinterpret_cast<T*>(inline_); }
  const T* ptr() const { return heap_ ? heap_ : reinterpret_cast<const T*>(inline_); }
  void release() {
    if (heap_) std::free(heap_);
    heap_ = nullptr;
    cap_ = N;
    size_ = 0;
  }
  void take(SmallVec& o) {
    size_ = o.size_;
    if (o.heap_) {
      heap_ = o.heap_;
      cap_ = o.cap_;
      o.heap_ = nullptr;
      o.cap_ = N;
    } else {
      heap_ = nullptr;
      cap_ = N;
      std::memcpy(inline_, o.inline_, size_ * sizeof(T));
    }
    o.size_ = 0;
  }

  T* heap_ = nullptr;
  size_t size_ = 0;
  size_t cap_ = N;
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

}  // namespace mnn::core
