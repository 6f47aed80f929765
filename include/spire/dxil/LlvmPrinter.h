// An LlvmModule as LLVM assembly text, written as llvm-dis-14 writes the same bitcode: value and
// metadata numbering, type and constant syntax, attribute groups, and LLVM 14's reading
// upgrades (default alignments, renamed intrinsics).
#pragma once

#include "spire/dxil/LlvmModule.h"

#include <functional>
#include <string>
#include <string_view>

namespace spire::dxil {

/// Receives the text piece by piece (pieces of a few tens of kilobytes).
using TextSink = std::function<void(std::string_view)>;

struct LlvmPrintOptions {
  /// The `; ModuleID = '...'` line and, when the module has no source file name of its own, the
  /// `source_filename` line (llvm-dis uses the input file's name). Empty: neither line.
  std::string moduleId;
  /// Print the `; preds = ...` and `; Function Attrs:` comments, as llvm-dis does.
  bool comments = true;
};

void printLlvmModule(const LlvmModule &m, const TextSink &sink,
                     const LlvmPrintOptions &options = {});

/// The whole text in a string (for tests and small modules).
std::string printLlvmModuleToString(const LlvmModule &m, const LlvmPrintOptions &options = {});

} // namespace spire::dxil
