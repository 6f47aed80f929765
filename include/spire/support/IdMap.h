// IdMap<T>: a map from SPIR-V ids to small values; dense while the id bound is reasonable for the
// module's size, hashed beyond, so that a lying bound costs neither memory nor time.
#pragma once

#include "spire/support/FlatVector.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <unordered_map>

namespace spire {

template <class T> class IdMap {
public:
  IdMap() = default;
  /// Dense storage for ids below min(bound, denseLimit); ids above go to a hash map.
  void reset(uint32_t bound, size_t denseLimit, T fill = T{}) {
    dense_.clear();
    dense_.resize(denseSize(bound, denseLimit));
    fillDense(fill);
  }
  /// The same in storage that the caller owns and keeps alive as long as the map uses it, of
  /// denseSize(bound, denseLimit) elements (a module's one allocation for all its tables).
  void reset(uint32_t bound, size_t denseLimit, T fill, T *storage) {
    const size_t n = denseSize(bound, denseLimit);
    dense_.borrow(storage, n);
    dense_.resize(n);
    fillDense(fill);
  }
  static size_t denseSize(uint32_t bound, size_t denseLimit) {
    return bound < denseLimit ? bound : denseLimit;
  }
  T get(uint32_t id) const {
    if (id < dense_.size())
      return dense_[id];
    if (sparse_.empty())
      return fill_;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? fill_ : it->second;
  }
  /// The dense part: ids below its size are stored there.
  std::span<T> dense() { return {dense_.data(), dense_.size()}; }
  void set(uint32_t id, T value) {
    if (id < dense_.size())
      dense_[id] = value;
    else
      sparse_[id] = value;
  }

private:
  void fillDense(T fill) {
    fill_ = fill;
    std::fill(dense_.begin(), dense_.end(), fill);
    sparse_.clear();
  }

  FlatVector<T> dense_;
  std::unordered_map<uint32_t, T> sparse_;
  T fill_{};
};

} // namespace spire
