// The five-word header of a SPIR-V module.
#pragma once

#include <cstdint>

namespace spire::binary {

inline constexpr uint32_t kMagic = 0x07230203u;
inline constexpr uint32_t kHeaderWords = 5;
/// Generator word of spirv-as ("Khronos SPIR-V Tools Assembler", version 0); spire's assembler
/// writes it too so that its output is byte-identical.
inline constexpr uint32_t kAssemblerGenerator = 0x00070000u;

struct Header {
  uint32_t magic = kMagic;
  uint32_t version = 0x00010600u;
  uint32_t generator = 0;
  uint32_t bound = 1;
  uint32_t schema = 0;
};

enum class Endianness : uint8_t { Little, Big };

} // namespace spire::binary
