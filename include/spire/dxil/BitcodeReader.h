// Reading LLVM bitcode into an LlvmModule: the LLVM 3.7 records DXIL uses (module version 1,
// relative operand ids) and LLVM 14's (module version 2, string table, bulk metadata strings).
#pragma once

#include "spire/dxil/LlvmModule.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <span>

namespace spire::dxil {

/// True when the bytes start with the bitcode magic ('BC' 0xC0DE) or the bitcode wrapper magic.
bool isBitcode(std::span<const uint8_t> bytes);

/// Reads a bitcode file (optionally inside the wrapper header) into a module. Every record is
/// checked: a malformed file gives a diagnostic located at the block, record and bit, never a
/// crash or an allocation larger than the input justifies.
Expected<LlvmModule> readBitcode(std::span<const uint8_t> bytes);

} // namespace spire::dxil
