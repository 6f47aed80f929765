// spire as: SPIR-V assembly text to a binary.
#include "CommandLine.h"
#include "Commands.h"

#include "spire/asm/Assembler.h"
#include "spire/binary/Words.h"
#include "spire/support/File.h"
#include "spire/support/TargetEnv.h"

#include <bit>
#include <cstdio>
#include <span>

namespace spire::tool {

namespace {

std::string help() {
  return R"(spire as - assemble SPIR-V assembly text into a binary

Usage: spire as [options] [<file>]

Reads the text from <file>, or from standard input when <file> is '-' or absent. The binary
is byte-identical to what spirv-as writes for the same text.

Options:
  -o <file>               write the binary to <file> ('-': standard output; default: out.spv,
                          as spirv-as does)
  --target-env <env>      the environment, which sets the module's SPIR-V version
                          (default: the version a "; Version: 1.N" comment before the
                          first instruction names, as spirv-dis writes it, else spv1.6); one of
                          )" +
         targetEnvList() + R"(
  --preserve-numeric-ids  keep the numbers of numeric ids (%12); named ids fill the gaps
  -h, --help              print this help

Exit status: 0 success, 1 the text has errors (printed as file:line:column), 2 usage error.
)";
}

} // namespace

int runAs(std::span<char *const> args) {
  AssembleOptions options;
  std::string input = "-", output = "out.spv";
  bool targetGiven = false;
  constexpr std::string_view withValue[] = {"-o", "--target-env"};
  ArgScanner scanner("as", args);
  bool ok = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        if (flag == "-o") {
          output = value;
        } else if (flag == "--target-env") {
          std::optional<TargetEnv> env = parseTargetEnv(value);
          if (!env) {
            usageError("as", "unknown target environment '" + std::string(value) + "'");
            return false;
          }
          options.version = targetEnvVersion(*env);
          targetGiven = true;
        } else if (flag == "--preserve-numeric-ids") {
          options.preserveNumericIds = true;
        } else {
          return scanner.unknownOption(flag);
        }
        return true;
      },
      input);
  if (!ok)
    return kUsageError;
  if (scanner.helpAsked()) {
    std::fputs(spire::tool::help().c_str(), stdout);
    return kSuccess;
  }

  std::string source = input == "-" ? "<stdin>" : input;
  Expected<std::vector<uint8_t>> text = readFile(input);
  if (!text) {
    report(text.error(), source);
    return kInvalidInput;
  }
  std::string_view view(reinterpret_cast<const char *>(text->data()), text->size());
  if (!targetGiven)
    if (std::optional<uint32_t> v = headerCommentVersion(view))
      options.version = *v;
  Expected<std::vector<uint32_t>> words = assemble(view, options);
  if (!words) {
    report(words.error(), source);
    return kInvalidInput;
  }
  // Modules are written little-endian, as spirv-as writes them.
  std::vector<uint8_t> swapped;
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t *>(words->data()),
                                 words->size() * sizeof(uint32_t));
  if constexpr (std::endian::native != std::endian::little) {
    swapped = binary::bytesFromWords(*words);
    bytes = swapped;
  }
  if (Status s = writeFileAtomic(output, bytes); !s) {
    report(s.error(), output);
    return kInvalidInput;
  }
  return kSuccess;
}

} // namespace spire::tool
