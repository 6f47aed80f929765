// Placeholder until the assembler lands.
#include "spire/asm/Assembler.h"
namespace spire {
Expected<std::vector<uint32_t>> assemble(std::string_view, const AssembleOptions &) {
  return makeError(Location::text(1, 1), "assembler not implemented");
}
} // namespace spire
