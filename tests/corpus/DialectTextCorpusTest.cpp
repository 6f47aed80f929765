// The dialect's text against MLIR's tools: mlir-translate-16 deserializes a sample of the corpus
// modules (it fails or crashes on most of them: those are skipped), spire parses its text, which
// must pass the verifier (MLIR's own output follows the ops' type rules), and prints it back,
// which must give the same text; spire's generic form must be what
// `mlir-opt-16 --mlir-print-op-generic` prints for that text; and spire's generic text must parse
// back to the same custom text.
//
// Reference-tool bugs the comparison allows for (and counts as explained):
// - mlir-translate-16 names a value after a symbol such as "@entryPointOutput" with hex escapes
//   and no '_' in front (%40entryPointOutput_addr), a name MLIR's parser rejects; spire writes
//   %_40entryPointOutput_addr, and the reference text is compared with such names fixed so.
// - Where mlir-opt-16 rejects mlir-translate-16's text (struct names such as Buf@count or
//   $Global written bare, ops whose types it then fails to verify, such as a
//   GroupNonUniformSMin of an si32 value with an i32 result), the generic form has no reference:
//   the module counts as explained for that check, and for the first one too when spire rejects
//   the text as well (Buf@count).
#include "CorpusSupport.h"

#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace spire;
using namespace spire::test;

namespace {

/// Modules tried: every kStride-th corpus module, in name order (mlir-translate-16 takes tens of
/// milliseconds per module and deserializes about one module in eight).
constexpr size_t kStride = 4;

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}

/// The reference text with the value names mlir-translate-16 writes invalidly (%40name) written
/// as spire writes them (%_40name).
std::string fixInvalidNames(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] != '%')
      continue;
    size_t j = i + 1;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
      ++j;
    if (j > i + 1 && j < text.size() && isNameChar(text[j]))
      out += '_';
  }
  return out;
}

/// The labels a line names, in order (`^bb1`, `^bb2`).
std::vector<std::string> labelsOf(std::string_view line) {
  std::vector<std::string> out;
  for (size_t p = line.find('^'); p != std::string_view::npos; p = line.find('^', p + 1)) {
    size_t e = p + 1;
    while (e < line.size() && std::isalnum(static_cast<unsigned char>(line[e])))
      ++e;
    out.emplace_back(line.substr(p, e - p));
  }
  return out;
}

/// The body of block `label` of the region that continues after `from`: its lines up to the
/// next block or the region's end, labels and value names masked (the two texts number them
/// apart).
std::string blockBody(std::string_view text, size_t from, std::string_view label) {
  // The region's labels stand two columns left of the ops at `from`; nested regions' labels
  // (numbered from ^bb0 again) stand further right.
  const size_t labelIndent = text.substr(from).find_first_not_of(' ') - 2;
  size_t at = text.find('\n', from);
  while (at != std::string_view::npos) {
    size_t lineEnd = text.find('\n', at + 1);
    std::string_view line = text.substr(at + 1, lineEnd - at - 1);
    if (line.find_first_not_of(' ') == labelIndent &&
        (line.substr(labelIndent).starts_with(std::string(label) + ":") ||
         line.substr(labelIndent).starts_with(std::string(label) + "(")))
      break;
    at = lineEnd;
  }
  if (at == std::string_view::npos)
    return {};
  std::string body;
  size_t indent = text.substr(at + 1).find_first_not_of(' ');
  for (size_t p = text.find('\n', at + 1); p != std::string_view::npos;) {
    size_t end = text.find('\n', p + 1);
    std::string_view line = text.substr(p + 1, end - p - 1);
    size_t first = line.find_first_not_of(' ');
    if (first == std::string_view::npos || first < indent + 2 ||
        (first == indent && line[first] == '^'))
      break;
    for (char c : line)
      body += c;
    body += '\n';
    p = end;
  }
  // Labels and value names differ with the layout (values are numbered in print order): the
  // ops, attributes and types are what must be the same.
  std::string masked;
  for (size_t k = 0; k < body.size(); ++k) {
    masked += body[k];
    if (body[k] == '^' || body[k] == '%')
      while (k + 1 < body.size() && (std::isalnum(static_cast<unsigned char>(body[k + 1])) ||
                                     body[k + 1] == '_' || body[k + 1] == '#'))
        ++k;
  }
  return masked;
}

/// Whether the texts first differ on a conditional branch whose targets, taken in order, are the
/// same blocks (the same code) in both: the same program with a region's blocks laid out in
/// another order and so numbered apart.
bool sameBranchOtherBlockOrder(std::string_view a, std::string_view b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i])
    ++i;
  size_t start = a.rfind('\n', i);
  start = start == std::string_view::npos ? 0 : start + 1;
  std::string_view la = a.substr(start, a.find('\n', start) - start);
  std::string_view lb = b.substr(start, b.find('\n', start) - start);
  if (la.find("spirv.BranchConditional") == std::string_view::npos ||
      la.substr(0, la.find('^')) != lb.substr(0, lb.find('^')))
    return false;
  std::vector<std::string> ta = labelsOf(la), tb = labelsOf(lb);
  if (ta.size() != tb.size())
    return false;
  for (size_t k = 0; k < ta.size(); ++k) {
    std::string ba = blockBody(a, start, ta[k]), bb = blockBody(b, start, tb[k]);
    if (ba.empty() || ba != bb)
      return false;
  }
  return true;
}

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

} // namespace

namespace {

/// What spire keeps of a module's debug information and mlir-translate-16 leaves out: the source
/// instructions (spire.debug_source, spire.module_processed) and the instructions of
/// non-semantic and debug-information sets (spirv.spire.NonSemantic ops), removed. (Source
/// positions print only with --mlir-print-debuginfo.)
void dropDebugInformation(dialect::Operation &module) {
  module.removeAttr("spire.debug_source");
  module.removeAttr("spire.module_processed");
  std::vector<dialect::Operation *> debug;
  dialect::walk(&module, [&](dialect::Operation *op) {
    if (op->name().starts_with("spirv.spire.NonSemantic"))
      debug.push_back(op);
  });
  // The last first: one may name an earlier one's result.
  for (auto it = debug.rbegin(); it != debug.rend(); ++it)
    (*it)->erase();
}

} // namespace

TEST(DialectTextCorpus, PrintsWhatMlirToolsPrint) {
  if (!haveTool("mlir-translate-16") || !haveTool("mlir-opt-16"))
    GTEST_SKIP() << "mlir-translate-16 / mlir-opt-16 not installed: dialect text corpus skipped";
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus)
    GTEST_SKIP() << "../shared/corpus not found: dialect text corpus skipped";
  std::vector<fs::path> all = filesUnder(*corpus / "spv", ".spv");
  std::vector<fs::path> files;
  for (size_t i = 0; i < all.size(); i += kStride)
    files.push_back(all[i]);

  Tally custom("dialect text: mlir-translate-16 text parsed and printed back by spire");
  Tally verified("dialect text: mlir-translate-16 text parsed by spire passes the verifier");
  Tally generic("dialect text: spire's generic form vs mlir-opt-16 --mlir-print-op-generic");
  Tally viaGeneric("dialect text: spire's generic text parsed and printed in custom form");
  Tally ownDeserialization(
      "dialect text: spire translate --deserialize-spirv --mlir16 vs mlir-translate-16");
  std::atomic<size_t> deserialized{0};
  parallelFor(files.size(), [&](size_t i) {
    const fs::path &file = files[i];
    ToolResult ref =
        runTool({"timeout", "20", "mlir-translate-16", "--deserialize-spirv", file.string()});
    if (ref.exitCode != 0 || ref.out.empty())
      return; // mlir-translate-16 cannot deserialize it (or crashed): nothing to compare
    ++deserialized;
    std::string text = fixInvalidNames(ref.out);
    // spire's own deserialization of the binary, printed for MLIR 16, must be the same text.
    {
      dialect::Context own;
      Expected<Module> m = Module::fromBytes(readBytes(file));
      val::Options options;
      options.maxErrors = 1;
      if (!m || !val::validate(*m, options).valid()) {
        ownDeserialization.explained(file, "spire val rejects the module; mlir-translate-16 "
                                           "does not validate");
      } else if (Expected<dialect::OwningOp> mine =
                     dialect::deserialize(own, *m, nullptr,
                                          {.version = dialect::MlirVersion::Mlir16,
                                           .functionRead = {},
                                           .bodyReady = {}});
                 !mine) {
        ownDeserialization.differed(file, "spire cannot deserialize: " + mine.error().message);
      } else {
        dropDebugInformation(**mine);
        dialect::PrintOptions p;
        p.version = dialect::MlirVersion::Mlir16;
        std::string printed = dialect::toString(**mine, p);
        if (printed == text)
          ownDeserialization.compared();
        else if (text.find("!spirv.struct<Buf@") != std::string::npos)
          ownDeserialization.explained(file, "mlir-translate-16 writes a struct name that is "
                                             "not an identifier without quotes");
        else if (ToolResult again = runTool(
                     {"timeout", "20", "mlir-translate-16", "--deserialize-spirv", file.string()});
                 fixInvalidNames(again.out) != text)
          ownDeserialization.explained(file, "mlir-translate-16 prints this module differently "
                                             "from one run to the next (block order)");
        else if (sameBranchOtherBlockOrder(printed, text))
          ownDeserialization.explained(file, "mlir-translate-16 orders the blocks of a region "
                                             "differently (its own traversal order)");
        else {
          ownDeserialization.compared();
          ownDeserialization.differed(file, firstDifference(printed, text));
        }
      }
    }
    dialect::Context ctx;
    Expected<dialect::OwningOp> op = dialect::parse(ctx, text);
    ToolResult opt =
        runTool({"timeout", "20", "mlir-opt-16", "--mlir-print-op-generic", "-"}, text);
    if (!op) {
      if (opt.exitCode != 0)
        custom.explained(file, "mlir-opt-16 rejects mlir-translate-16's text too: " +
                                   op.error().format());
      else
        custom.differed(file, "does not parse: " + op.error().format());
      return;
    }
    custom.compared();
    verified.compared();
    if (Status s = dialect::verify(**op); !s)
      verified.differed(file, s.error().message);
    // Printed as for MLIR 16: the ops whose custom syntax is newer stay generic.
    dialect::PrintOptions asMlir16;
    asMlir16.version = dialect::MlirVersion::Mlir16;
    std::string printed = dialect::toString(**op, asMlir16);
    if (printed != text)
      custom.differed(file, firstDifference(printed, text));
    dialect::PrintOptions g;
    g.generic = true;
    g.builtinModule = true;
    std::string genericText = dialect::toString(**op, g);
    if (opt.exitCode != 0) {
      generic.explained(file, "mlir-opt-16 rejects mlir-translate-16's text");
    } else {
      generic.compared();
      if (rtrim(genericText) != rtrim(opt.out))
        generic.differed(file, firstDifference(genericText, opt.out));
    }
    dialect::Context ctx2;
    Expected<dialect::OwningOp> back = dialect::parse(ctx2, genericText);
    viaGeneric.compared();
    if (!back)
      viaGeneric.differed(file, "generic text does not parse: " + back.error().format());
    else if (std::string again = dialect::toString(**back, asMlir16); again != printed)
      viaGeneric.differed(file, firstDifference(again, printed));
  });
  std::printf("dialect text: %zu of %zu sampled modules deserialized by mlir-translate-16\n",
              deserialized.load(), files.size());
  // No difference is allowed: the three tallies list any with the module and first line.
  EXPECT_TRUE(custom.report());
  EXPECT_TRUE(verified.report());
  EXPECT_TRUE(generic.report());
  EXPECT_TRUE(viaGeneric.report());
  EXPECT_TRUE(ownDeserialization.report());
}

namespace {

/// What MLIR 16 cannot hold, recognised by mlir-opt-16's first error on spire's --mlir16 text:
/// SPIR-V that MLIR 16's dialect has no type, attribute or op form for, and spire's documented
/// departures (ARCHITECTURE.md). Anything else mlir-opt-16 rejects is spire's fault.
struct Mlir16Limit {
  std::string_view message; ///< part of mlir-opt-16's error
  std::string_view context; ///< also needed in the error (the op line it quotes), or empty
  std::string_view reason;
};

constexpr Mlir16Limit kMlir16Limits[] = {
    {"unknown SPIR-V type: sampler", "", "MLIR 16 has no sampler type"},
    {"unknown SPIR-V type: ray_query_khr", "", "MLIR 16 has no ray query type"},
    {"unknown SPIR-V type: acceleration_structure", "", "MLIR 16 has no acceleration structures"},
    {"unknown SPIR-V type: pipe", "", "MLIR 16 has no pipe types"},
    {"unknown SPIR-V type: reserve_id", "", "MLIR 16 has no pipe types"},
    {"unknown SPIR-V type: event", "", "MLIR 16 has no event types"},
    {"unknown SPIR-V type: device_event", "", "MLIR 16 has no event types"},
    {"unknown SPIR-V type: queue", "", "MLIR 16 has no queue type"},
    {"unknown SPIR-V type: opaque", "", "MLIR 16 has no opaque types"},
    {"vector length has to be less than or equal to 4", "",
     "MLIR 16 vectors have 2 to 4 components (OpenCL has 8 and 16)"},
    {"cannot use 'none' to compose SPIR-V types", "!spirv.image<none",
     "MLIR 16 has no image of void sampled type (OpenCL images)"},
    {"op result #0 must be", "but got '!spirv.image", "MLIR 16 does not load images"},
    {"'spirv.module' cannot contain external functions", "",
     "MLIR 16 has no function declarations (linkage imports)"},
    {"unknown capability:", "", "a capability newer than MLIR 16"},
    {"unknown extension:", "", "an extension newer than MLIR 16"},
    {"must have spirv.array result type for array value", "",
     "MLIR 16 has composite constants of arrays only (struct and matrix constants)"},
    {"attribute 'initializer' failed to satisfy constraint", "",
     "MLIR 16 initializers are symbols only (constant initializers)"},
    {"'spirv.mlir.selection' op requires zero results", "",
     "spire's selection returning values used after it"},
    {"'spirv.mlir.loop' op requires zero results", "",
     "spire's loop returning values used after it"},
    {"'spirv.mlir.yield' op expects parent op 'spirv.SpecConstantOperation'", "",
     "spire's selection / loop returning values used after it"},
    {"operation with block successors must terminate its parent block", "Merge\"",
     "merge instructions of a construct spire keeps unstructured"},
    {"expected single integer for array element count", "",
     "arrays sized by specialization constants"},
    {"unknown SPIR-V attribute kind: undef", "", "spire's #spirv.undef constant parts"},
    {"unknown SPIR-V attribute kind: null", "",
     "spire's #spirv.null (null initializers kept whole, null constant parts)"},
    {"expected rows and columns size", "!spirv.coopmatrix<",
     "cooperative matrices sized by specialization constants"},
    {"unknown SPIR-V attribute kind: sampler_addressing_mode", "", "spire's sampler initializers"},
    {"attribute 'constituents' failed to satisfy constraint", "",
     "spire's undef / null parts of spec constant composites"},
    {"requires the same type for all operands and results", "si",
     "MLIR 16 wants one signedness where SPIR-V mixes them"},
    {"requires all operands to have the same type", "si",
     "MLIR 16 wants one signedness where SPIR-V mixes them"},
    {"failed to verify that all of {", "si",
     "MLIR 16 wants one signedness where SPIR-V mixes them"},
    {"expects different type than prior uses: 'i", "vs 'si",
     "GroupNonUniform arithmetic on a signed value: MLIR 16 prints this form too"},
    {"unhandled bit cast conversion", "", "MLIR 16 bitcasts no pointer to or from a non-pointer"},
    {"result type must be different from operand type", "spirv.Bitcast",
     "MLIR 16 rejects a bitcast to the same type"},
    {"'spirv.Store' op expected 2 operands", "", "MLIR 16 has no memory access scope operands"},
    {"'spirv.Load' op expected 1 operands", "", "MLIR 16 has no memory access scope operands"},
    {"'spirv.AccessChain' op expected at least one index", "",
     "MLIR 16 needs an index in an access chain"},
    {"requires a loop continue block branching to the loop header", "",
     "MLIR 16 needs a continue block apart from the loop header"},
    {"unexpected character", "!spirv.struct<$",
     "MLIR 16 spells struct names as identifiers only (HLSL's $Global)"},
    {"expected ','", "@count, (",
     "MLIR 16 spells struct names as identifiers only (HLSL's Buf@count)"},
    {"expected '('", "!spirv.struct<\"",
     "MLIR 16 spells struct names as identifiers only (Slang's quoted names)"},
    {"expected integer value", "=\"",
     "MLIR 16 has no string member decorations (UserSemantic=\"...\")"},
    {"unknown attribute: 'PerPrimitiveEXT'", "",
     "a decoration named as in a grammar newer than MLIR 16's (PerPrimitiveNV there)"},
    {"id must be the result of a constant op", "",
     "MLIR 16 wants a constant broadcast id (dynamic since SPIR-V 1.5)"},
    {"unregistered operation 'spirv.spire.NonSemantic", "",
     "debug-information and non-semantic instructions, which MLIR has no ops for (spire's "
     "spirv.spire.NonSemantic ops)"},
};

const Mlir16Limit *mlir16Limit(std::string_view error) {
  // The first error and the line it quotes.
  size_t end = error.find("error:");
  end = end == std::string_view::npos ? 0 : error.find('\n', error.find('\n', end) + 1);
  std::string_view first = error.substr(0, end);
  for (const Mlir16Limit &l : kMlir16Limits)
    if (first.find(l.message) != std::string_view::npos &&
        (l.context.empty() || first.find(l.context) != std::string_view::npos))
      return &l;
  return nullptr;
}

} // namespace

TEST(DialectTextCorpus, MlirOptReadsSpiresText) {
  // spire translate --deserialize-spirv --mlir16 must print what mlir-opt-16 reads, wherever
  // the module holds nothing MLIR 16 lacks (above).
  if (!haveTool("mlir-opt-16"))
    GTEST_SKIP() << "mlir-opt-16 not installed: MLIR 16 reading spire's text skipped";
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus)
    GTEST_SKIP() << "../shared/corpus not found: MLIR 16 reading spire's text skipped";
  std::vector<fs::path> all = filesUnder(*corpus / "spv", ".spv");
  std::vector<fs::path> files;
  for (size_t i = 0; i < all.size(); i += kStride)
    files.push_back(all[i]);
  Tally read("dialect text: spire's --mlir16 text read by mlir-opt-16");
  std::mutex mu;
  std::map<std::string_view, size_t> limits;
  parallelFor(files.size(), [&](size_t i) {
    const fs::path &file = files[i];
    Expected<Module> m = Module::fromBytes(readBytes(file));
    val::Options options;
    options.maxErrors = 1;
    if (!m || !val::validate(*m, options).valid())
      return; // not valid SPIR-V: nothing to deserialize
    dialect::Context ctx;
    Expected<dialect::OwningOp> op = dialect::deserialize(
        ctx, *m, nullptr,
        {.version = dialect::MlirVersion::Mlir16, .functionRead = {}, .bodyReady = {}});
    if (!op) {
      read.skipped(file, "spire cannot deserialize: " + op.error().message);
      return;
    }
    dialect::PrintOptions p;
    p.version = dialect::MlirVersion::Mlir16;
    ToolResult opt = runTool({"timeout", "20", "mlir-opt-16", "-o", "/dev/null", "-"},
                             dialect::toString(**op, p));
    read.compared();
    if (opt.exitCode == 0)
      return;
    if (const Mlir16Limit *l = mlir16Limit(opt.err)) {
      std::lock_guard lock(mu);
      ++limits[l->reason];
      return;
    }
    std::string first = opt.err.substr(0, opt.err.find('\n', opt.err.find('\n') + 1));
    read.differed(file, first);
  });
  size_t limited = 0;
  for (const auto &[reason, n] : limits)
    limited += n;
  std::printf("dialect text: %zu of %zu modules hold what MLIR 16 lacks:\n", limited,
              read.numCompared());
  for (const auto &[reason, n] : limits)
    std::printf("  %4zu %.*s\n", n, static_cast<int>(reason.size()), reason.data());
  EXPECT_TRUE(read.report());
}
