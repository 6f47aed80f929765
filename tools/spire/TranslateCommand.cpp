// spire translate: between SPIR-V binaries and the structured IR's MLIR syntax.
// spire opt: passes over the structured IR, on either form.
#include "CommandLine.h"
#include "Commands.h"

#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/support/File.h"
#include "spire/transforms/Pass.h"
#include "spire/val/Validator.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <unistd.h>

namespace spire::tool {

namespace {

constexpr const char *kTranslateHelp =
    R"(spire translate - between SPIR-V binaries and the structured IR's MLIR syntax

Usage: spire translate --deserialize-spirv [options] [<file>]
       spire translate --serialize-spirv [options] [<file>]

--deserialize-spirv reads a SPIR-V binary (either byte order), validates it (the structured IR
is defined on valid modules) and prints its spirv.module in the syntax of MLIR's SPIR-V dialect,
as mlir-translate-16 --deserialize-spirv does. --serialize-spirv reads that syntax (or MLIR's
generic form) and writes the SPIR-V binary. <file> '-' or absent: standard input.

Options:
  -o <file>            write to <file> ('-': standard output, the default for text)
  --generic            print every op in MLIR's generic form
  --mlir16             print types as MLIR 16 holds them, so that mlir-opt-16 reads the text:
                       without the struct decorations (Block, BufferBlock) and pointer strides
                       that spire keeps and MLIR 16 drops
  --target-env <env>   the environment the input is validated for (default spv1.6)
  --no-validate        deserialize without validating first
  --explain-structure  list the constructs kept as blocks with their merge instruction as an
                       op, and why a region could not express them (standard error)
  -h, --help           print this help

Exit status: 0 success, 1 invalid input (unreadable, invalid, or not expressible), 2 usage error.
)";

constexpr const char *kOptHelp = R"(spire opt - run passes over the structured SPIR-V IR

Usage: spire opt [--passes <p1,p2,...>] [options] [<file>]

Reads a SPIR-V binary (deserialized after validation) or MLIR text (detected from the first
bytes, verified), runs the passes in order, verifying the IR after each, and writes the result
in the input's form unless --emit says otherwise; without --passes it writes what it read (as
mlir-opt does). <file> '-' or absent: standard input.

Options:
  --passes <list>      comma-separated pass names (see --list-passes); none by default
  --list-passes        print the passes and what they do
  --emit <form>        spirv (a binary) or mlir (text)
  -o <file>            write to <file> ('-': standard output)
  --generic            print MLIR text in the generic form
  --mlir16             print types as MLIR 16 holds them (see spire translate --help)
  --target-env <env>   the environment a binary input is validated for (default spv1.6)
  -h, --help           print this help

Exit status: 0 success, 1 invalid input or a pass failed, 2 usage error.
)";

bool isBinary(std::span<const uint8_t> bytes) {
  if (bytes.size() < 4)
    return false;
  uint32_t w;
  std::memcpy(&w, bytes.data(), 4);
  return w == 0x07230203u || w == 0x03022307u;
}

struct Loaded {
  dialect::OwningOp module;
  bool fromBinary = false;
};

/// The spirv.module of an input file: a binary (validated unless told not to) or MLIR text.
bool load(const std::string &input, const std::string &env, bool validate, bool explain,
          dialect::Context &ctx, Loaded &out) {
  std::string source = input == "-" ? "<stdin>" : input;
  Expected<std::vector<uint8_t>> bytes = readFile(input);
  if (!bytes) {
    report(bytes.error(), source);
    return false;
  }
  if (!isBinary(*bytes)) {
    std::string_view text(reinterpret_cast<const char *>(bytes->data()), bytes->size());
    Expected<dialect::OwningOp> parsed = dialect::parse(ctx, text);
    if (!parsed) {
      report(parsed.error(), source);
      return false;
    }
    if (Status s = dialect::verify(**parsed); !s) {
      report(s.error(), source);
      return false;
    }
    out.module = std::move(parsed).value();
    return true;
  }
  Expected<Module> m = Module::fromBytes(*bytes);
  if (!m) {
    report(m.error(), source);
    return false;
  }
  if (validate) {
    val::Options options;
    options.env = *val::parseEnvironment(env);
    options.maxErrors = 1;
    val::Report r = val::validate(*m, options);
    for (const val::Problem &p : r.problems)
      if (p.severity == Severity::Error) {
        std::fprintf(stderr, "%s\n",
                     (p.format(source) + " (the input is not valid SPIR-V for " + env +
                      "; --no-validate deserializes it anyway)")
                         .c_str());
        return false;
      }
  }
  dialect::DeserializeStats stats;
  Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m, &stats);
  if (!op) {
    report(op.error(), source);
    return false;
  }
  if (explain)
    for (const std::string &note : stats.notes)
      std::fprintf(stderr, "%s: note: %s\n", source.c_str(), note.c_str());
  out.module = std::move(op).value();
  out.fromBinary = true;
  return true;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kLeakAtExit = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kLeakAtExit = false;
#else
constexpr bool kLeakAtExit = true;
#endif
#else
constexpr bool kLeakAtExit = true;
#endif

/// The IR of one command and its context. Left to the operating system at exit (except under
/// the leak-checking sanitizers): freeing millions of small objects one by one would cost a
/// tenth of the run on a large module, for nothing.
struct Workspace {
  std::unique_ptr<dialect::Context> context = std::make_unique<dialect::Context>();
  std::unique_ptr<Loaded> loaded = std::make_unique<Loaded>();
  ~Workspace() {
    if (kLeakAtExit) {
      (void)loaded.release();
      (void)context.release();
    }
  }
};

bool writeBinary(const dialect::Operation &module, const std::string &output) {
  Expected<std::vector<uint32_t>> words = dialect::serialize(module);
  if (!words) {
    report(words.error(), output);
    return false;
  }
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t *>(words->data()),
                                 words->size() * 4);
  if (Status s = writeFileAtomic(output, bytes); !s) {
    report(s.error(), output);
    return false;
  }
  return true;
}

bool writeText(const dialect::Operation &module, const std::string &output, bool generic,
               bool mlir16) {
  std::string text;
  dialect::PrintOptions options;
  options.generic = generic;
  options.mlir16 = mlir16;
  dialect::print(module, text, options);
  if (text.empty() || text.back() != '\n')
    text += '\n';
  if (Status s = writeFileAtomic(output, text); !s) {
    report(s.error(), output);
    return false;
  }
  return true;
}

/// Takes the value of --target-env into `env` when it names an environment; else a usage
/// error of `command`.
bool targetEnvironment(const char *command, std::string_view value, std::string &env) {
  if (!val::parseEnvironment(value)) {
    usageError(command, "unknown target environment '" + std::string(value) + "'");
    return false;
  }
  env = value;
  return true;
}

} // namespace

int runTranslate(std::span<char *const> args) {
  enum class Mode { None, Deserialize, Serialize } mode = Mode::None;
  std::string input = "-", output = "-", env = "spv1.6";
  bool help = false, generic = false, validate = true, explain = false, mlir16 = false;
  constexpr std::string_view withValue[] = {"-o", "--target-env"};
  ArgScanner scanner("translate", args);
  bool ok = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        if (flag == "--deserialize-spirv")
          mode = Mode::Deserialize;
        else if (flag == "--serialize-spirv")
          mode = Mode::Serialize;
        else if (flag == "-o")
          output = value;
        else if (flag == "--generic")
          generic = true;
        else if (flag == "--mlir16")
          mlir16 = true;
        else if (flag == "--no-validate")
          validate = false;
        else if (flag == "--explain-structure")
          explain = true;
        else if (flag == "--target-env") {
          if (!targetEnvironment("translate", value, env))
            return false;
        } else if (flag == "-h" || flag == "--help")
          help = true;
        else {
          usageError("translate", "unknown option " + std::string(flag));
          return false;
        }
        return true;
      },
      input);
  if (!ok)
    return kUsageError;
  if (help) {
    std::fputs(kTranslateHelp, stdout);
    return kSuccess;
  }
  if (mode == Mode::None)
    return usageError("translate", "say --deserialize-spirv or --serialize-spirv");
  Workspace ws;
  dialect::Context &ctx = *ws.context;
  Loaded &loaded = *ws.loaded;
  if (!load(input, env, validate, explain, ctx, loaded))
    return kInvalidInput;
  if (mode == Mode::Deserialize) {
    if (!loaded.fromBinary)
      return usageError("translate", "--deserialize-spirv reads a SPIR-V binary");
    return writeText(*loaded.module, output, generic, mlir16) ? kSuccess : kInvalidInput;
  }
  if (loaded.fromBinary)
    return usageError("translate", "--serialize-spirv reads MLIR text");
  if (output == "-" && ::isatty(1))
    return usageError("translate", "not writing a binary to a terminal; use -o <file>");
  return writeBinary(*loaded.module, output) ? kSuccess : kInvalidInput;
}

int runOpt(std::span<char *const> args) {
  std::string input = "-", output = "-", env = "spv1.6", passes, emit;
  bool help = false, generic = false, list = false, mlir16 = false;
  constexpr std::string_view withValue[] = {"-o", "--passes", "--emit", "--target-env"};
  ArgScanner scanner("opt", args);
  bool ok = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        if (flag == "--passes")
          passes = value;
        else if (flag == "--emit") {
          if (value != "spirv" && value != "mlir") {
            usageError("opt", "--emit is spirv or mlir, not '" + std::string(value) + "'");
            return false;
          }
          emit = value;
        } else if (flag == "-o")
          output = value;
        else if (flag == "--generic")
          generic = true;
        else if (flag == "--mlir16")
          mlir16 = true;
        else if (flag == "--list-passes")
          list = true;
        else if (flag == "--target-env") {
          if (!targetEnvironment("opt", value, env))
            return false;
        } else if (flag == "-h" || flag == "--help")
          help = true;
        else {
          usageError("opt", "unknown option " + std::string(flag));
          return false;
        }
        return true;
      },
      input);
  if (!ok)
    return kUsageError;
  if (help) {
    std::fputs(kOptHelp, stdout);
    return kSuccess;
  }
  if (list) {
    for (const transforms::PassInfo &p : transforms::registeredPasses())
      std::printf("  %-18s %s\n", p.name.c_str(), p.description.c_str());
    return kSuccess;
  }
  // Without --passes, as mlir-opt: read, verify (or validate) and write back.
  transforms::PassManager pm;
  if (!passes.empty())
    if (Status s = pm.addPipeline(passes); !s)
      return usageError("opt", s.error().message);
  Workspace ws;
  dialect::Context &ctx = *ws.context;
  Loaded &loaded = *ws.loaded;
  if (!load(input, env, true, false, ctx, loaded))
    return kInvalidInput;
  if (Status s = pm.run(*loaded.module, ctx); !s) {
    report(s.error(), input == "-" ? "<stdin>" : input);
    return kInvalidInput;
  }
  bool binary = emit.empty() ? loaded.fromBinary : emit == "spirv";
  if (binary && output == "-" && ::isatty(1))
    return usageError("opt", "not writing a binary to a terminal; use -o <file>");
  bool written = binary ? writeBinary(*loaded.module, output)
                        : writeText(*loaded.module, output, generic, mlir16);
  return written ? kSuccess : kInvalidInput;
}

} // namespace spire::tool
