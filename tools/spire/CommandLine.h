// What every subcommand of the spire program shares: exit codes, argument scanning, output.
#pragma once

#include "spire/support/Diagnostic.h"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spire::tool {

enum ExitCode : int { kSuccess = 0, kInvalidInput = 1, kUsageError = 2 };

/// Scans the arguments of a subcommand: flags with or without a value, and positionals.
/// `-` alone is a positional (standard input or output).
class ArgScanner {
public:
  ArgScanner(std::string_view command, std::span<char *const> args)
      : command_(command), args_(args) {}

  /// Calls `onFlag(name, value)` for each flag but `-h` / `--help` and `onPositional` for each
  /// positional. Flags
  /// named in `withValue` take the next argument (or the text after '=') as their value; the
  /// others get an empty value. Returns false when a flag misses its value (after printing a
  /// usage error) or when a handler returns false (the handler reports why).
  bool scan(std::span<const std::string_view> withValue,
            const std::function<bool(std::string_view flag, std::string_view value)> &onFlag,
            const std::function<bool(std::string_view positional)> &onPositional);

  /// The same, for a command of one input file: the positional goes to `input` (a second one is
  /// a usage error).
  bool scan(std::span<const std::string_view> withValue,
            const std::function<bool(std::string_view flag, std::string_view value)> &onFlag,
            std::string &input);

  /// Reads `-name` (longer than one letter) as `--name`, as LLVM's tools do: for the commands
  /// that stand in for mlir-translate and mlir-opt.
  void acceptSingleDashLong() { singleDashLong_ = true; }
  /// Whether `-h` or `--help` was among the flags (the scanner takes them itself).
  bool helpAsked() const { return helpAsked_; }
  /// For a flag handler's last branch: prints "unknown option <flag>" as a usage error and
  /// returns false.
  bool unknownOption(std::string_view flag) const;

private:
  std::string_view command_;
  std::span<char *const> args_;
  bool helpAsked_ = false;
  bool singleDashLong_ = false;
};

/// Prints "spire <command>: <message>" to standard error and returns kUsageError.
int usageError(std::string_view command, std::string_view message);
/// Prints a diagnostic on one line to standard error, and each of its notes on a line after it.
void report(const Diagnostic &d, std::string_view source);

/// Maps, in one call, the pages of the program's image (see CommandLine.cpp).
void populateProgramImage();

/// The commands whose functions the link packs (tools/spire/hot-text.txt): `spire dis` on DXIL,
/// `spire translate --dxil-to-spirv`, `spire translate --deserialize-spirv` of a small module.
enum class HotText { Dis, DxilTranslate, SpirvTranslate };

/// Maps, in one or two calls, the pages of the functions a command runs, which the link places
/// together (tools/spire/hot-text.txt; see CommandLine.cpp).
void populateHotText(HotText command);

/// Maps, in one call, the heap pages a command is about to write (about `bytes`, at most 64
/// MiB), which otherwise fault in one by one: on the virtual machines where spire runs a fault
/// costs 15-60 us, and a small file's command touches hundreds of fresh heap pages. The heap
/// keeps what is freed below that size (no trimming, no separate mappings for large blocks):
/// the process ends after one file. Kernels before 5.14 refuse the advice, which changes nothing.
void populateHeap(size_t bytes);

} // namespace spire::tool
