// The disassembler: a module as SPIR-V assembly text, in the format of SPIRV-Tools' spirv-dis.
#pragma once

#include "spire/module/Module.h"

#include <functional>
#include <memory>
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

/// Receives the text of a module piece by piece, in order.
using TextSink = std::function<void(std::string_view piece)>;
/// The same text handed to `sink` in pieces of about a megabyte as it is printed, so that a
/// large module's text never needs to be in memory whole.
void disassemble(const Module &module, const DisassembleOptions &options, const TextSink &sink);

/// Prints single instructions of a module as the disassembler would (without indentation), and
/// ids by their names: for diagnostics. The names are computed on first use, once.
class InstructionPrinter {
public:
  explicit InstructionPrinter(const Module &module, bool friendlyNames = true);
  ~InstructionPrinter();
  InstructionPrinter(const InstructionPrinter &) = delete;
  InstructionPrinter &operator=(const InstructionPrinter &) = delete;
  /// "%3 = OpTypeInt 32 1", without a line break.
  std::string print(uint32_t index) const;
  /// "%float" or "%12".
  std::string id(uint32_t value) const;

private:
  struct Impl;
  Impl &impl() const;
  const Module *module_;
  bool friendlyNames_;
  mutable std::unique_ptr<Impl> impl_;
};

} // namespace spire
