// Names of enumerations looked up in a table indexed by value.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spire::dxil::detail {

/// names[index], or null past the table's end (or where the table holds null).
template <size_t N> const char *nameAt(const char *const (&names)[N], uint64_t index) {
  return index < N ? names[index] : nullptr;
}

} // namespace spire::dxil::detail
