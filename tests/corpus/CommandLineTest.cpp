// The spire program's structured-IR commands as a user runs them: spire translate both ways,
// spire opt, their exit codes (0 success, 1 invalid input, 2 usage error), one-line errors, and
// no output file left behind on failure.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <unistd.h>

using namespace spire::test;

namespace {

struct Temp : TempDir {
  Temp() : TempDir("spire-cli-test") {}
};

/// The bundled compute example as a binary.
std::string exampleBinary(const Temp &t) {
  std::string out = t.path("compute.spv");
  ToolResult r =
      runSpire({"as", std::string(SPIRE_SOURCE_DIR) + "/examples/compute.spvasm", "-o", out});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  return out;
}

size_t lines(const std::string &s) {
  size_t n = 0;
  for (char c : s)
    n += c == '\n';
  return n;
}

} // namespace

TEST(CommandLine, TranslateBothWays) {
  Temp t;
  std::string spv = exampleBinary(t), mlir = t.path("compute.mlir"), back = t.path("back.spv");
  ToolResult de = runSpire({"translate", "--deserialize-spirv", spv, "-o", mlir});
  ASSERT_EQ(de.exitCode, 0) << de.err;
  std::string text = readText(mlir);
  EXPECT_EQ(text.rfind("spirv.module Logical GLSL450", 0), 0u) << text;
  EXPECT_NE(text.find("spirv.func @main"), std::string::npos);
  ToolResult se = runSpire({"translate", "--serialize-spirv", mlir, "-o", back});
  ASSERT_EQ(se.exitCode, 0) << se.err;
  EXPECT_EQ(runSpire({"val", back}).exitCode, 0);
  // Generic, MLIR 16 and MLIR 15 forms parse back too.
  for (const char *form : {"--generic", "--mlir16", "--mlir-version=15"}) {
    std::string other = t.path(std::string("form") + form + ".mlir");
    ASSERT_EQ(runSpire({"translate", "--deserialize-spirv", form, spv, "-o", other}).exitCode, 0);
    EXPECT_EQ(runSpire({"translate", "--serialize-spirv", other, "-o", t.path("x.spv")}).exitCode,
              0)
        << form;
  }
}

TEST(CommandLine, OptRunsPassesOnEitherForm) {
  Temp t;
  std::string spv = exampleBinary(t), out = t.path("opt.spv"), text = t.path("opt.mlir");
  ToolResult list = runSpire({"opt", "--list-passes"});
  EXPECT_EQ(list.exitCode, 0);
  for (const char *pass : {"update-vce", "lower-abi-attrs", "canonicalize"})
    EXPECT_NE(list.out.find(pass), std::string::npos) << pass;
  ToolResult r = runSpire({"opt", "--passes", "canonicalize,update-vce", spv, "-o", out});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(runSpire({"val", out}).exitCode, 0);
  ASSERT_EQ(runSpire({"opt", "--passes", "update-vce", spv, "--emit", "mlir", "-o", text}).exitCode,
            0);
  EXPECT_EQ(readText(text).rfind("spirv.module", 0), 0u);
  // Without passes: the text is read, verified and written back unchanged.
  ToolResult same = runSpire({"opt", text});
  ASSERT_EQ(same.exitCode, 0) << same.err;
  EXPECT_EQ(same.out, readText(text));
}

TEST(CommandLine, BadInputIsOneLineExitOneAndNoOutput) {
  Temp t;
  std::string spv = exampleBinary(t);
  // A truncated binary.
  std::vector<uint8_t> bytes = readBytes(spv);
  bytes.resize(bytes.size() / 2);
  std::string broken = t.path("broken.spv"), out = t.path("never.mlir");
  {
    std::ofstream f(broken, std::ios::binary);
    f.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  }
  ToolResult r = runSpire({"translate", "--deserialize-spirv", broken, "-o", out});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // Text that does not parse: the error names line and column.
  std::string bad = t.path("bad.mlir");
  {
    std::ofstream f(bad);
    f << "spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n    spirv.Frobnicate\n";
  }
  r = runSpire({"translate", "--serialize-spirv", bad, "-o", t.path("never.spv")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("bad.mlir:3:"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t.path("never.spv")));
}

TEST(CommandLine, AModulePrintedAsItIsReadLeavesNoPartialOutputWhenItFails) {
  // Valid SPIR-V, printed function by function, whose Alignment decoration the dialect cannot
  // hold: the error comes after the functions' text is made, and none of it reaches the
  // output, neither a file nor standard output (a pipe here).
  Temp t;
  const std::string spv =
      std::string(SPIRE_SOURCE_DIR) + "/fuzz/regressions/dialect/alignment-not-a-power-of-two.spv";
  ASSERT_EQ(runSpire({"val", spv}).exitCode, 0);
  const std::string out = t.path("never.mlir");
  ToolResult r = runSpire({"translate", "--deserialize-spirv", spv, "-o", out});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(out));
  r = runSpire({"translate", "--deserialize-spirv", spv});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "");
  // A module that reads: the same text through a pipe as into a file.
  const std::string good = exampleBinary(t), file = t.path("good.mlir");
  ASSERT_EQ(runSpire({"translate", "--deserialize-spirv", good, "-o", file}).exitCode, 0);
  r = runSpire({"translate", "--deserialize-spirv", good});
  EXPECT_EQ(r.exitCode, 0);
  std::vector<uint8_t> written = readBytes(file);
  EXPECT_EQ(r.out, std::string(written.begin(), written.end()));
  EXPECT_NE(r.out.find("spirv.func"), std::string::npos);
}

TEST(CommandLine, UsageErrorsExitTwo) {
  EXPECT_EQ(runSpire({"translate"}).exitCode, 2);
  ToolResult two = runSpire({"translate", "--deserialize-spirv", "a.spv", "b.spv"});
  EXPECT_EQ(two.exitCode, 2);
  EXPECT_NE(two.err.find("more than one input file"), std::string::npos) << two.err;
  EXPECT_EQ(runSpire({"translate", "--deserialize-spirv", "--frobnicate"}).exitCode, 2);
  ToolResult r = runSpire({"opt", "--passes", "no-such-pass", "-"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("no-such-pass"), std::string::npos) << r.err;
  EXPECT_EQ(runSpire({"translate", "--help"}).exitCode, 0);
  EXPECT_EQ(runSpire({"opt", "--help"}).exitCode, 0);
}

namespace {

/// A file of MLIR text in the test's folder.
std::string writeText(const Temp &t, const std::string &name, const std::string &text) {
  std::string path = t.path(name);
  std::ofstream(path) << text;
  return path;
}

constexpr const char *kEmptyModule =
    "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage], []> {\n}\n";

} // namespace

TEST(CommandLine, SplitInputRoundTripsEachChunkAlone) {
  Temp t;
  // The same symbol in both chunks: each chunk is an input of its own.
  std::string module = "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage], "
                       "[]> {\n  spirv.func @f() \"None\" {\n    spirv.Return\n  }\n}\n";
  std::string file = writeText(t, "two.mlir", module + "\n// -----\n\n" + module);
  // LLVM's spelling of long options (one dash) as mlir-translate takes them.
  ToolResult r = runSpire(
      {"translate", "-no-implicit-module", "-test-spirv-roundtrip", "-split-input-file", file});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  size_t first = r.out.find("spirv.func @f()");
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("spirv.func @f()", first + 1), std::string::npos) << r.out;
  // Without splitting, the two modules are one input, and a second top-level op is an error.
  EXPECT_EQ(runSpire({"translate", "--test-spirv-roundtrip", file}).exitCode, 1);
  // Chained translations are a round trip too; a binary comes out of --serialize-spirv alone,
  // and each chunk's module goes to a file of its own with the validation prefix.
  ToolResult chained = runSpire(
      {"translate", "--serialize-spirv", "--deserialize-spirv", "--split-input-file", file});
  EXPECT_EQ(chained.exitCode, 0) << chained.err;
  EXPECT_EQ(chained.out, r.out);
  ToolResult saved = runSpire({"translate", "--serialize-spirv", "--split-input-file",
                               "--spirv-save-validation-files-with-prefix", t.path("m"), file, "-o",
                               t.path("all.bin")});
  ASSERT_EQ(saved.exitCode, 0) << saved.err;
  EXPECT_EQ(runSpire({"val", t.path("m0.spv")}).exitCode, 0);
  EXPECT_EQ(runSpire({"val", t.path("m1.spv")}).exitCode, 0);
  EXPECT_FALSE(fs::exists(t.path("m2.spv")));
}

TEST(CommandLine, VerifyDiagnosticsMatchesAnnotationsByLineAndText) {
  Temp t;
  // Chunk 2's error is on the line after its annotation; chunk 1 is valid and still printed.
  // Chunk 3's is the verifier's, located at its op.
  std::string good = std::string(kEmptyModule) + "\n// -----\n\n" +
                     "// expected-error@+1 {{unknown op 'spirv.NoSuchOp'}}\n"
                     "spirv.NoSuchOp\n"
                     "// -----\n"
                     "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage], "
                     "[]> {\n"
                     "  spirv.func @f(%a: f32) -> f32 \"None\" {\n"
                     "    // expected-error@+1 {{operand #0 must be 8/16/32/64-bit integer}}\n"
                     "    %0 = spirv.IAdd %a, %a : f32\n"
                     "    spirv.ReturnValue %0 : f32\n  }\n}\n";
  std::string file = writeText(t, "good.mlir", good);
  for (const char *cmd : {"opt", "translate"}) {
    std::vector<std::string> args = {cmd, "--split-input-file", "--verify-diagnostics", file};
    if (std::string(cmd) == "translate")
      args.insert(args.begin() + 1, "--test-spirv-roundtrip");
    ToolResult r = runSpire(args);
    EXPECT_EQ(r.exitCode, 0) << cmd << ": " << r.err;
    EXPECT_NE(r.out.find("spirv.module Logical GLSL450"), std::string::npos) << cmd;
  }
  // @below and @above point past and before other annotation lines.
  std::string placed = writeText(t, "placed.mlir",
                                 "// expected-error@below {{unknown op}}\n"
                                 "// expected-note@+2 {{never produced}}\n"
                                 "spirv.NoSuchOp\n");
  ToolResult missing = runSpire({"opt", "--verify-diagnostics", placed});
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_NE(missing.err.find("expected note \"never produced\" was not produced"),
            std::string::npos)
      << missing.err;
  EXPECT_EQ(missing.err.find("unexpected"), std::string::npos) << missing.err;
  // The wrong line, the wrong text and the wrong kind all fail.
  for (const char *annotation :
       {"// expected-error@+2 {{unknown op}}\n", "// expected-error@+1 {{something else}}\n",
        "// expected-warning@+1 {{unknown op}}\n"}) {
    std::string bad = writeText(t, "bad.mlir", std::string(annotation) + "spirv.NoSuchOp\n");
    ToolResult r = runSpire({"opt", "--verify-diagnostics", bad});
    EXPECT_EQ(r.exitCode, 1) << annotation;
    EXPECT_FALSE(r.err.empty()) << annotation;
  }
}

TEST(CommandLine, TextIsAnsweredInItsMlirReleaseUnlessAFlagSaysOne) {
  Temp t;
  // MLIR 15 text (the spv. prefix) in two chunks, the second with an error MLIR 15 words its
  // own way; and an MLIR 16 atomic (quoted scope and semantics).
  std::string old = writeText(
      t, "old.mlir",
      "spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], []> {\n"
      "  spv.func @f(%arg0: !spv.ptr<i32, Workgroup>, %arg1: i32) -> i32 \"None\" {\n"
      "    %0 = spv.AtomicIAdd \"Device\" \"None\" %arg0, %arg1 : !spv.ptr<i32, Workgroup>\n"
      "    spv.ReturnValue %0 : i32\n  }\n}\n"
      "// -----\n"
      "func.func @g() {\n"
      "  // expected-error @+2 {{to be one of}}\n"
      "  // expected-error @+1 {{failed to parse SPV_ScopeAttr}}\n"
      "  spv.ControlBarrier <Somewhere>, <Device>, <Acquire>\n"
      "  return\n}\n");
  for (const char *cmd : {"opt", "translate"}) {
    std::vector<std::string> args = {cmd, "--split-input-file", "--verify-diagnostics", old};
    if (std::string(cmd) == "translate")
      args.insert(args.begin() + 1, "--test-spirv-roundtrip");
    ToolResult r = runSpire(args);
    EXPECT_EQ(r.exitCode, 0) << cmd << ": " << r.err;
    EXPECT_NE(r.out.find("spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], []>"),
              std::string::npos)
        << cmd << ": " << r.out;
    EXPECT_NE(r.out.find("spv.AtomicIAdd \"Device\" \"None\""), std::string::npos)
        << cmd << ": " << r.out;
    EXPECT_EQ(r.out.find("spirv"), std::string::npos) << cmd << ": " << r.out;
    // A flag overrides the input's release.
    args.push_back("--mlir-version=latest");
    ToolResult latest = runSpire(args);
    EXPECT_EQ(latest.exitCode, 1) << cmd; // the second chunk's error is worded as today's
    EXPECT_NE(latest.out.find("spirv.AtomicIAdd <Device> <None>"), std::string::npos)
        << cmd << ": " << latest.out;
  }
  std::string quoted = writeText(
      t, "quoted.mlir",
      "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {\n"
      "  spirv.func @f(%arg0: !spirv.ptr<i32, Workgroup>, %arg1: i32) -> i32 \"None\" {\n"
      "    %0 = spirv.AtomicIAdd \"Device\" \"None\" %arg0, %arg1 : !spirv.ptr<i32, Workgroup>\n"
      "    spirv.ReturnValue %0 : i32\n  }\n}\n");
  ToolResult r16 = runSpire({"translate", "--test-spirv-roundtrip", quoted});
  ASSERT_EQ(r16.exitCode, 0) << r16.err;
  EXPECT_NE(r16.out.find("spirv.AtomicIAdd \"Device\" \"None\" %arg0, %arg1"), std::string::npos)
      << r16.out;
  ToolResult as15 = runSpire({"opt", "--mlir-version", "15", quoted});
  ASSERT_EQ(as15.exitCode, 0) << as15.err;
  EXPECT_NE(as15.out.find("spv.AtomicIAdd \"Device\" \"None\" %arg0, %arg1"), std::string::npos)
      << as15.out;
  // Text in two releases' spellings is an error; a release spire does not know is a usage error.
  std::string mixed = writeText(t, "mixed.mlir",
                                "spv.module Logical GLSL450 {\n  spirv.func @f() "
                                "\"None\" {\n    spirv.Return\n  }\n}\n");
  ToolResult m = runSpire({"opt", mixed});
  EXPECT_EQ(m.exitCode, 1);
  EXPECT_NE(m.err.find("mixed.mlir:2:3: error: the 'spirv.' prefix of MLIR 16 and later after "
                       "MLIR 15's 'spv.' prefix"),
            std::string::npos)
      << m.err;
  ToolResult bad = runSpire({"opt", "--mlir-version=14", quoted});
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("--mlir-version is 15, 16 or latest"), std::string::npos) << bad.err;
}

TEST(CommandLine, OptTakesPassesAsFlags) {
  Temp t;
  std::string file =
      writeText(t, "fold.mlir",
                "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage], []> {\n"
                "  spirv.func @f() -> i32 \"None\" {\n"
                "    %a = spirv.Constant 2 : i32\n"
                "    %b = spirv.IAdd %a, %a : i32\n"
                "    spirv.ReturnValue %b : i32\n  }\n}\n");
  ToolResult r = runSpire({"opt", "-canonicalize", file});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.find("spirv.IAdd"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("spirv.Constant 4"), std::string::npos) << r.out;
  EXPECT_EQ(runSpire({"opt", "--no-such-pass", file}).exitCode, 2);
}

TEST(CommandLine, EmptyInputAndDecorationsOfUndefinedIdsAreErrorsNotCrashes) {
  Temp t;
  std::string empty = writeText(t, "empty.mlir", "");
  for (const char *cmd : {"translate", "opt"}) {
    std::vector<std::string> args = {cmd, empty};
    if (std::string(cmd) == "translate")
      args.insert(args.begin() + 1, "--serialize-spirv");
    ToolResult r = runSpire(args);
    EXPECT_EQ(r.exitCode, 1) << cmd;
    EXPECT_NE(r.err.find("the input is empty"), std::string::npos) << cmd << ": " << r.err;
  }
  // Read as a binary, an empty file is a module without its header; text of blank lines and
  // comments holds no op.
  ToolResult binary = runSpire({"translate", "--deserialize-spirv", empty});
  EXPECT_EQ(binary.exitCode, 1);
  EXPECT_NE(binary.err.find("byte 0: not a SPIR-V module: the input is empty, and a module starts "
                            "with a header"),
            std::string::npos)
      << binary.err;
  ToolResult blank = runSpire({"opt", writeText(t, "blank.mlir", "\n// nothing here\n")});
  EXPECT_EQ(blank.exitCode, 1);
  EXPECT_NE(blank.err.find("blank.mlir:3:1: error: the text holds no op, only whitespace and "
                           "comments"),
            std::string::npos)
      << blank.err;
  // Decorations, names and groups of ids the module never defines: with --no-validate the
  // deserializer meets them unchecked; it must not crash. A decoration of an undefined id is a
  // one-line error naming the instruction (exit 1); a name of one is left alone.
  // (The assembler numbers ids anew: the message names the instruction, and an id.)
  const std::pair<const char *, const char *> undefined[] = {
      {"OpDecorate %99 Binding 0", "OpDecorate names %"},
      {"OpMemberDecorate %99 0 Offset 0", "OpMemberDecorate names %"},
      {"OpDecorateString %99 UserSemantic \"a\"", "OpDecorateString names %"},
      {"OpDecorateId %99 AlignmentId %98", "OpDecorateId names %"},
      {"OpDecorateId %fn AlignmentId %98", "OpDecorateId names %"},
      {"%g = OpDecorationGroup\nOpGroupDecorate %g %99", "OpGroupDecorate names %"},
      {"%g = OpDecorationGroup\nOpGroupMemberDecorate %g %99 0", "OpGroupMemberDecorate names %"},
      {"OpName %99 \"x\"", nullptr},
      {"OpDecorate %fn Binding 0", nullptr}};
  for (auto [line, message] : undefined) {
    std::string text = std::string("OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
                                   "OpEntryPoint GLCompute %main \"main\"\n"
                                   "OpExecutionMode %main LocalSize 1 1 1\n") +
                       line +
                       "\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
                       "%main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n";
    std::string spv = t.path("undefined.spv");
    ASSERT_EQ(runSpire({"as", writeText(t, "undefined.spvasm", text), "-o", spv}).exitCode, 0)
        << line;
    ToolResult r = runSpire({"translate", "--deserialize-spirv", "--no-validate", spv});
    if (!message) {
      EXPECT_EQ(r.exitCode, 0) << line << ": " << r.err;
      continue;
    }
    EXPECT_EQ(r.exitCode, 1) << line << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << line << ": " << r.err;
    EXPECT_NE(r.err.find(", which the module does not define"), std::string::npos)
        << line << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << line << ": " << r.err;
  }
}

TEST(CommandLine, DeserializeWarnsOfRulesTheStructureDoesNotNeed) {
  Temp t;
  auto binary = [&](const std::string &name, const std::string &text) {
    std::string spv = t.path(name + ".spv");
    EXPECT_EQ(runSpire({"as", writeText(t, name + ".spvasm", text), "-o", spv}).exitCode, 0)
        << name;
    return spv;
  };
  const std::string header = "OpCapability Shader\nOpCapability TensorsARM\n"
                             "OpCapability GraphARM\nOpExtension \"SPV_ARM_tensors\"\n"
                             "OpExtension \"SPV_ARM_graph\"\n"
                             "%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
                             "OpMemoryModel Logical GLSL450\n";
  const std::string graph = "%uint = OpTypeInt 32 0\n%uint_0 = OpConstant %uint 0\n"
                            "%uint_1 = OpConstant %uint 1\n%uint_4 = OpConstant %uint 4\n"
                            "%float = OpTypeFloat 32\n%arr = OpTypeArray %uint %uint_1\n"
                            "%shape = OpConstantComposite %arr %uint_4\n"
                            "%t = OpTypeTensorARM %float %uint_1 %shape\n"
                            "%gt = OpTypeGraphARM 1 %t %t\n%g = OpGraphARM %gt\n"
                            "%x = OpGraphInputARM %t %uint_0\n"
                            "%y = OpExtInst %t %tosa EXP %x\n"
                            "OpGraphSetOutputARM %y %uint_0\nOpGraphEndARM\n";
  // A graph module without a graph entry point (spirv-val and spire val reject it): a warning
  // with its location, and the module, with the TOSA op.
  ToolResult r = runSpire({"translate", "--deserialize-spirv", binary("no-entry", header + graph)});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("warning:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("has no OpGraphEntryPointARM"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("spirv.Tosa.Exp %arg0"), std::string::npos) << r.out;
  // A rule of arithmetic broken: a warning, but the structured IR does not verify (an integer
  // addition of floats): an error, and nothing printed.
  const std::string kernel =
      "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n"
      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n"
      "%one = OpConstant %float 1\n%f = OpFunction %void None %fn\n%l = OpLabel\n"
      "%sum = OpIAdd %float %one %one\nOpReturn\nOpFunctionEnd\n";
  r = runSpire({"translate", "--deserialize-spirv", binary("iadd", kernel)});
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_NE(r.err.find("warning:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("spirv.IAdd"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  // The structure broken (a value used where its definition does not dominate): an error alone.
  const std::string dominance =
      "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n"
      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
      "%one = OpConstant %uint 1\n%f = OpFunction %void None %fn\n%l = OpLabel\n"
      "%a = OpIAdd %uint %b %one\n%b = OpIAdd %uint %one %one\nOpReturn\nOpFunctionEnd\n";
  r = runSpire({"translate", "--deserialize-spirv", binary("dominance", dominance)});
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.find("warning:"), std::string::npos) << r.err;
  // --no-validate: no warnings either.
  r = runSpire({"translate", "--deserialize-spirv", "--no-validate", t.path("no-entry.spv")});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
}
