// FlatVector<T>: a growable array of trivially copyable values that does not initialize the
// storage it reserves, so a reader can reserve an upper bound once and write through a cursor
// without a capacity check per element (memory that is never written is never touched).
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>

namespace spire {

template <class T> class FlatVector {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  FlatVector() = default;
  FlatVector(FlatVector &&) noexcept = default;
  FlatVector &operator=(FlatVector &&) noexcept = default;
  FlatVector(const FlatVector &o) { *this = o; }
  FlatVector &operator=(const FlatVector &o) {
    if (this != &o) {
      clear();
      reserve(o.size_);
      if (o.size_ != 0)
        std::memcpy(data_.get(), o.data_.get(), o.size_ * sizeof(T));
      size_ = o.size_;
    }
    return *this;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T *data() { return data_.get(); }
  const T *data() const { return data_.get(); }
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
  void reserve(size_t n) {
    if (n <= capacity_)
      return;
    std::unique_ptr<T[]> grown(new T[n]); // default-initialized: no writes for trivial T
    if (size_ != 0)
      std::memcpy(grown.get(), data_.get(), size_ * sizeof(T));
    data_ = std::move(grown);
    capacity_ = n;
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
  std::unique_ptr<T[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

} // namespace spire
