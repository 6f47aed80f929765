// Placeholder until the disassembler lands.
#include "spire/asm/Disassembler.h"
namespace spire {
std::string disassemble(const Module &, const DisassembleOptions &) {
  return "; not implemented\n";
}
} // namespace spire
