// FlatVector<T>: a growable array of trivially copyable values that does not initialize the
// storage it reserves, so a reader can reserve an upper bound once and write through a cursor
// without a capacity check per element (memory that is never written is never touched). It can
// also start in storage that someone else owns (borrow()), so that one allocation serves several
// vectors; it moves to storage of its own when it outgrows that.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace spire {

template <class T> class FlatVector {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  FlatVector() = default;
  ~FlatVector() { release(); }
  FlatVector(FlatVector &&o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
        capacity_(std::exchange(o.capacity_, 0)), owned_(std::exchange(o.owned_, true)) {}
  FlatVector &operator=(FlatVector &&o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
      owned_ = std::exchange(o.owned_, true);
    }
    return *this;
  }
  FlatVector(const FlatVector &o) { *this = o; }
  /// A copy always has storage of its own (the storage `o` borrows is not this one's to share).
  FlatVector &operator=(const FlatVector &o) {
    if (this != &o) {
      release();
      data_ = nullptr;
      capacity_ = 0;
      owned_ = true;
      clear();
      reserve(o.size_);
      if (o.size_ != 0)
        std::memcpy(data_, o.data_, o.size_ * sizeof(T));
      size_ = o.size_;
    }
    return *this;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T *data() { return data_; }
  const T *data() const { return data_; }
  T &operator[](size_t i) { return data_[i]; }
  const T &operator[](size_t i) const { return data_[i]; }
  T &back() { return data_[size_ - 1]; }
  const T &back() const { return data_[size_ - 1]; }
  T *begin() { return data(); }
  T *end() { return data() + size_; }
  const T *begin() const { return data(); }
  const T *end() const { return data() + size_; }
  operator std::span<const T>() const { return {data(), size_}; }

  void clear() { size_ = 0; }
  /// Empties the vector and makes it use `capacity` elements at `storage`, which the caller owns
  /// and keeps alive as long as the vector uses it: no allocation until it outgrows them, and
  /// none to free.
  void borrow(T *storage, size_t capacity) {
    release();
    data_ = storage;
    size_ = 0;
    capacity_ = capacity;
    owned_ = false;
  }
  /// Storage for `n` elements, uninitialized: a large reservation is only address space until
  /// it is written.
  void reserve(size_t n) {
    if (n <= capacity_)
      return;
    setCapacity(n);
  }
  /// Gives back the capacity beyond size() (in place: the allocator shrinks the block).
  void shrinkToFit() {
    if (owned_ && capacity_ > size_)
      setCapacity(size_);
  }
  /// Makes room for `n` more elements (growing geometrically).
  void reserveMore(size_t n) {
    if (size_ + n > capacity_)
      reserve(std::max(size_ + n, capacity_ * 2));
  }
  void push_back(const T &v) {
    reserveMore(1);
    data_[size_++] = v;
  }
  /// The end of the elements, for writing up to capacity() - size() elements directly; commit
  /// them with setSize().
  T *cursor() { return data() + size_; }
  void setSize(size_t n) {
    assert(n <= capacity_);
    size_ = n;
  }
  void resize(size_t n) {
    reserve(n);
    size_ = n;
  }

private:
  void release() {
    if (owned_)
      std::free(data_);
  }
  void setCapacity(size_t n) {
    if (n == 0) {
      release();
      data_ = nullptr;
      capacity_ = 0;
      owned_ = true;
      return;
    }
    if (n > SIZE_MAX / sizeof(T))
      throw std::bad_alloc();
    void *p;
    if (owned_) {
      p = std::realloc(data_, n * sizeof(T));
    } else {
      // Out of borrowed storage: into storage of its own, which it then owns.
      p = std::malloc(n * sizeof(T));
      if (p != nullptr && size_ != 0)
        std::memcpy(p, data_, std::min(size_, n) * sizeof(T));
    }
    if (p == nullptr)
      throw std::bad_alloc();
    data_ = static_cast<T *>(p);
    capacity_ = n;
    owned_ = true;
  }

  T *data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  bool owned_ = true; ///< data_ is this vector's to free (false: borrowed)
};

} // namespace spire
