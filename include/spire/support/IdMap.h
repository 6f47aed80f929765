// IdMap<T>: a map from SPIR-V ids to small values; dense while the id bound is reasonable for the
// module's size, hashed beyond, so that a lying bound costs neither memory nor time.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace spire {

template <class T> class IdMap {
public:
  IdMap() = default;
  /// Dense storage for ids below min(bound, denseLimit); ids above go to a hash map.
  void reset(uint32_t bound, size_t denseLimit, T fill = T{}) {
    fill_ = fill;
    size_t n = bound < denseLimit ? bound : denseLimit;
    dense_.assign(n, fill);
    sparse_.clear();
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
  std::span<T> dense() { return dense_; }
  void set(uint32_t id, T value) {
    if (id < dense_.size())
      dense_[id] = value;
    else
      sparse_[id] = value;
  }

private:
  std::vector<T> dense_;
  std::unordered_map<uint32_t, T> sparse_;
  T fill_{};
};

} // namespace spire
