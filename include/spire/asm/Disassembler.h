// The disassembler: a module as SPIR-V assembly text, in the format of SPIRV-Tools' spirv-dis.
#pragma once

#include "spire/module/Module.h"

#include <string>

namespace spire {

struct DisassembleOptions {
  bool header = true;        ///< the "; SPIR-V" header comment lines (spirv-dis --no-header)
  bool indent = true;        ///< align instructions on a column (spirv-dis --no-indent)
  bool friendlyNames = true; ///< names from OpName, types and constants (spirv-dis --raw-id)
  bool offsets = false;      ///< byte offset of each instruction (spirv-dis --offsets)
  bool color = false;        ///< ANSI colors (spirv-dis --color)
  bool comment = false;      ///< explanatory comments (spirv-dis --comment)
};

/// The module as text. With the default options the text is byte-identical to what spirv-dis
/// (SPIRV-Tools 2023.1) prints for the same module.
std::string disassemble(const Module &module, const DisassembleOptions &options = {});

} // namespace spire
