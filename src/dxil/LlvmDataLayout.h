// The parts of an LLVM data layout string the printer needs: ABI and preferred alignments and
// store sizes of types, for the alignments LLVM 14 fills in when the bitcode gives none.
#pragma once

#include "spire/dxil/LlvmModule.h"

#include <string_view>
#include <vector>

namespace spire::dxil {

class LlvmDataLayout {
public:
  /// `spec` is kept, and read when a first alignment or size is asked for: it must outlive the
  /// layout.
  LlvmDataLayout(const LlvmModule &m, std::string_view spec) : m_(m), spec_(spec) {}
  uint64_t abiAlign(TypeId t) const { return align(t, true); }
  uint64_t prefAlign(TypeId t) const { return align(t, false); }
  uint64_t storeSize(TypeId t) const;

private:
  struct Entry {
    char kind; ///< 'i', 'f', 'v', 'a', 'p'
    uint32_t width;
    uint64_t abi, pref; ///< bytes
  };
  uint64_t align(TypeId t, bool abi) const;
  const Entry *find(char kind, uint32_t width) const;
  uint64_t sizeInBits(TypeId t) const;
  uint64_t allocSize(TypeId t) const;

  void parse() const;
  const std::vector<Entry> &entries() const {
    if (!parsed_) [[unlikely]]
      parse();
    return entries_;
  }

  const LlvmModule &m_;
  std::string_view spec_;
  mutable bool parsed_ = false;
  mutable std::vector<Entry> entries_;
};

} // namespace spire::dxil
