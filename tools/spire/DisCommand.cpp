// spire dis: a SPIR-V binary as assembly text.
#include "CommandLine.h"
#include "Commands.h"
#include "DxilDis.h"

#include "spire/asm/Disassembler.h"
#include "spire/support/File.h"

#include <cstdio>
#include <unistd.h>

namespace spire::tool {

namespace {

constexpr const char *kHelp =
    R"(spire dis - disassemble a SPIR-V binary or a DXIL program into assembly text

Usage: spire dis [options] [<file>]

Reads the binary from <file>, or from standard input when <file> is '-' or absent, in
either byte order. With the default options the text is byte-identical to spirv-dis's.
A DXBC container (DXIL) or bare LLVM bitcode is printed as LLVM assembly, as llvm-dis-14
prints its bitcode, after comment lines that say what the container holds (its parts, shader
model, signatures, resources, feature flags, digest).

Options:
  -o <file>     write the text to <file> ('-': standard output, the default)
  --raw-id      print raw ids (%12) instead of friendly names (%float, %main)
  --no-header   leave out the header comment lines
  --no-indent   do not align instructions on a column
  --offsets     show the byte offset of each instruction
  --color       print in color (the default when writing to a terminal)
  --no-color    do not print in color
  --comment     add comments that make the text easier to read
  -h, --help    print this help

DXIL options (--no-header also leaves out the container's comment lines):
  --container-only   print what the container holds, not the program
  --format <form>    text (the default) or json: the container's facts as JSON

Exit status: 0 success, 1 the input is not a readable SPIR-V module or DXIL program,
2 usage error.
)";

} // namespace

int runDis(std::span<char *const> args) {
  DisassembleOptions options;
  DxilDisOptions dxil;
  std::string input = "-", output = "-";
  int colorChoice = -1; // -1: decide from the output
  constexpr std::string_view withValue[] = {"-o", "--format"};
  ArgScanner scanner("dis", args);
  bool ok = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        if (flag == "-o")
          output = value;
        else if (flag == "--raw-id")
          options.friendlyNames = false;
        else if (flag == "--no-header")
          options.header = dxil.header = false;
        else if (flag == "--container-only")
          dxil.containerOnly = true;
        else if (flag == "--format" && (value == "text" || value == "json"))
          dxil.json = value == "json";
        else if (flag == "--format") {
          usageError("dis", "--format takes text or json, not '" + std::string(value) + "'");
          return false;
        } else if (flag == "--no-indent")
          options.indent = false;
        else if (flag == "--offsets")
          options.offsets = true;
        else if (flag == "--color")
          colorChoice = 1;
        else if (flag == "--no-color")
          colorChoice = 0;
        else if (flag == "--comment")
          options.comment = true;
        else
          return scanner.unknownOption(flag);
        return true;
      },
      input);
  if (!ok)
    return kUsageError;
  if (scanner.helpAsked()) {
    std::fputs(kHelp, stdout);
    return kSuccess;
  }
  options.color = colorChoice == 1 || (colorChoice == -1 && output == "-" && ::isatty(1));

  Expected<std::vector<uint8_t>> bytes = readFile(input);
  if (!bytes) {
    report(bytes.error(), input == "-" ? "<stdin>" : input);
    return kInvalidInput;
  }
  if (isDxilInput(*bytes))
    return disassembleDxil(*bytes, input, output, dxil);
  populateProgramImage(); // SPIR-V: see main.cpp
  if (dxil.containerOnly || dxil.json) {
    report(makeError({}, "--container-only and --format json apply to DXIL containers; this "
                         "is not one"),
           input == "-" ? "<stdin>" : input);
    return kInvalidInput;
  }
  // Like spirv-dis, show ids past the bound rather than refusing the module.
  Expected<Module> module = Module::fromBytes(*bytes, {.allowIdsPastBound = true});
  if (!module) {
    report(module.error(), input == "-" ? "<stdin>" : input);
    return kInvalidInput;
  }
  // The text goes to the file as it is printed: a large module's text is never whole in memory.
  Expected<FileWriter> out = FileWriter::open(output);
  if (!out) {
    report(out.error(), output);
    return kInvalidInput;
  }
  Status written;
  disassemble(*module, options, [&](std::string_view piece) {
    if (written)
      written = out->write(piece);
  });
  if (written)
    written = out->commit();
  if (!written) {
    report(written.error(), output);
    return kInvalidInput;
  }
  return kSuccess;
}

} // namespace spire::tool
