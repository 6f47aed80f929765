// spire dis on DXIL: a DXBC container or bare LLVM bitcode, printed as LLVM assembly after a
// comment header that says what the container holds.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace spire::tool {

/// True for a DXBC container ('DXBC') or LLVM bitcode ('BC' 0xC0DE or the wrapper magic).
bool isDxilInput(std::span<const uint8_t> bytes);

struct DxilDisOptions {
  bool header = true;         ///< the container summary before the program (containers only)
  bool containerOnly = false; ///< the summary alone
  bool json = false;          ///< the container's facts as JSON instead of text
};

/// Prints the program of a container (its DXIL part) or a bitcode file to `output`; returns the
/// exit code. `input` names the file in messages and in the ModuleID line.
int disassembleDxil(std::span<const uint8_t> bytes, const std::string &input,
                    const std::string &output, const DxilDisOptions &options);

} // namespace spire::tool
