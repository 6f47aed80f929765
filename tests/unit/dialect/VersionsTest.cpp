// The dialect's text in the MLIR releases spire reads and writes (Text.h): MLIR 15's (the spv.
// prefix), MLIR 16's (quoted atomic scopes and semantics) and today's. What the parser says the
// text is written in, the text each release prints, mixed spellings, and messages in each
// release's wording.
#include "spire/dialect/Text.h"

#include "spire/dialect/Ops.h"
#include "spire/dialect/Verifier.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace spire::dialect {
namespace {

// MLIR 15's spelling of a small module: the spv. prefix on ops, types and attributes, an
// atomic's scope and semantics in quotes, a barrier's in angle brackets.
constexpr std::string_view kMlir15 =
    R"mlir(spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], []> {
  spv.GlobalVariable @counter bind(0, 1) : !spv.ptr<!spv.struct<(i32 [0])>, StorageBuffer>
  spv.func @bump(%arg0: !spv.ptr<i32, Workgroup>, %arg1: i32) -> f32 "None" {
    %0 = spv.AtomicIAdd "Device" "AcquireRelease" %arg0, %arg1 : !spv.ptr<i32, Workgroup>
    spv.ControlBarrier <Workgroup>, <Workgroup>, <Acquire>
    %1 = spv.Bitcast %0 : i32 to f32
    %2 = spv.GL.FAbs %1 : f32
    spv.ReturnValue %2 : f32
  }
}
)mlir";

// The same module as MLIR 16 spells it, and as today's MLIR does.
constexpr std::string_view kMlir16 =
    R"mlir(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @counter bind(0, 1) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
  spirv.func @bump(%arg0: !spirv.ptr<i32, Workgroup>, %arg1: i32) -> f32 "None" {
    %0 = spirv.AtomicIAdd "Device" "AcquireRelease" %arg0, %arg1 : !spirv.ptr<i32, Workgroup>
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <Acquire>
    %1 = spirv.Bitcast %0 : i32 to f32
    %2 = spirv.GL.FAbs %1 : f32
    spirv.ReturnValue %2 : f32
  }
}
)mlir";

constexpr std::string_view kLatest =
    R"mlir(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @counter bind(0, 1) : !spirv.ptr<!spirv.struct<(i32 [0])>, StorageBuffer>
  spirv.func @bump(%arg0: !spirv.ptr<i32, Workgroup>, %arg1: i32) -> f32 "None" {
    %0 = spirv.AtomicIAdd <Device> <AcquireRelease> %arg0, %arg1 : !spirv.ptr<i32, Workgroup>
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <Acquire>
    %1 = spirv.Bitcast %0 : i32 to f32
    %2 = spirv.GL.FAbs %1 : f32
    spirv.ReturnValue %2 : f32
  }
}
)mlir";

/// What the parser says `text` is written in; the text printed back in `out` (its own
/// release unless `as` is given), or the error.
struct Read {
  MlirVersion written = MlirVersion::Latest;
  std::string text;
};

Read read(std::string_view text, std::optional<MlirVersion> as = std::nullopt,
          bool generic = false) {
  Context ctx;
  Read r;
  r.written = MlirVersion::Mlir15; // parse must set it
  Expected<OwningOp> op = parse(ctx, text, {}, &r.written);
  if (!op) {
    r.text = op.error().formatWithNotes("t");
    return r;
  }
  PrintOptions options;
  options.version = as.value_or(r.written);
  options.generic = generic;
  r.text = toString(**op, options);
  return r;
}

TEST(DialectVersions, TodaysTextIsLatestAndPrintsBackUnchanged) {
  Read r = read(kLatest);
  EXPECT_EQ(r.written, MlirVersion::Latest);
  EXPECT_EQ(r.text, kLatest);
  // Text that spells nothing only some releases read is today's too.
  Read plain = read("spirv.module Logical GLSL450 {\n}\n");
  EXPECT_EQ(plain.written, MlirVersion::Latest);
  Read wrapper = read("module {\n  func.func @f() {\n    return\n  }\n}\n");
  EXPECT_EQ(wrapper.written, MlirVersion::Latest);
}

TEST(DialectVersions, Mlir15TextReadsAndPrintsBackAsMlir15) {
  Read r = read(kMlir15);
  EXPECT_EQ(r.written, MlirVersion::Mlir15);
  EXPECT_EQ(r.text, kMlir15);
  // The IR is the same whichever release the text is in: each release's text of it.
  EXPECT_EQ(read(kMlir15, MlirVersion::Mlir16).text, kMlir16);
  EXPECT_EQ(read(kMlir15, MlirVersion::Latest).text, kLatest);
  EXPECT_EQ(read(kLatest, MlirVersion::Mlir15).text, kMlir15);
  // The ops are the dialect's own (spirv.X), which the verifier checks.
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kMlir15);
  ASSERT_TRUE(op) << op.error().format();
  EXPECT_EQ((*op)->name(), "spirv.module");
  EXPECT_TRUE(verify(**op));
}

TEST(DialectVersions, Mlir15GenericFormReadsAndPrintsWithItsPrefix) {
  std::string generic = read(kMlir15, std::nullopt, true).text;
  EXPECT_NE(generic.find("\"spv.module\"() ({"), std::string::npos) << generic;
  EXPECT_NE(generic.find("\"spv.Bitcast\"(%0) : (i32) -> f32"), std::string::npos) << generic;
  EXPECT_NE(generic.find("vce_triple = #spv.vce<v1.0, [Shader], []>"), std::string::npos)
      << generic;
  EXPECT_EQ(generic.find("spirv"), std::string::npos) << generic;
  Read back = read(generic);
  EXPECT_EQ(back.written, MlirVersion::Mlir15);
  EXPECT_EQ(read(generic, MlirVersion::Mlir15).text, kMlir15);
}

TEST(DialectVersions, Mlir16QuotedAtomicsReadAndPrintBackQuoted) {
  Read r = read(kMlir16);
  EXPECT_EQ(r.written, MlirVersion::Mlir16);
  EXPECT_EQ(r.text, kMlir16);
  // Every atomic with a scope: the compare-exchanges' two semantics too.
  constexpr std::string_view kExchange =
      R"mlir(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @swap(%arg0: !spirv.ptr<i32, Workgroup>, %arg1: i32) -> i32 "None" {
    %0 = spirv.AtomicCompareExchange "Workgroup" "Release" "Acquire" %arg0, %arg1, %arg1 : !spirv.ptr<i32, Workgroup>
    spirv.ReturnValue %0 : i32
  }
}
)mlir";
  Read exchange = read(kExchange);
  EXPECT_EQ(exchange.written, MlirVersion::Mlir16);
  EXPECT_EQ(exchange.text, kExchange);
  EXPECT_NE(read(kExchange, MlirVersion::Latest)
                .text.find("spirv.AtomicCompareExchange <Workgroup> <Release> <Acquire> %arg0"),
            std::string::npos);
}

TEST(DialectVersions, DialectAttributeNamesOfMlir15TextAreTodays) {
  constexpr std::string_view kTarget =
      R"mlir(spv.module Logical GLSL450 attributes {spv.target_env = #spv.target_env<#spv.vce<v1.0, [Shader], []>, #spv.resource_limits<>>} {
}
)mlir";
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kTarget);
  ASSERT_TRUE(op) << op.error().format();
  EXPECT_TRUE((*op)->attr("spirv.target_env"));
  EXPECT_FALSE((*op)->attr("spv.target_env"));
  EXPECT_EQ(read(kTarget).text, kTarget);
  EXPECT_NE(read(kTarget, MlirVersion::Latest)
                .text.find("attributes {spirv.target_env = #spirv.target_env<#spirv.vce<"),
            std::string::npos);
  // In today's text an attribute named spv.X belongs to a dialect spire does not have: kept as
  // it is, and it says nothing of the release.
  constexpr std::string_view kForeign =
      "spirv.module Logical GLSL450 attributes {spv.x = 1 : i32} {\n}\n";
  Read foreign = read(kForeign);
  EXPECT_EQ(foreign.written, MlirVersion::Latest);
  EXPECT_EQ(foreign.text, kForeign);
}

TEST(DialectVersions, SpellingsOfNoOneReleaseTogetherAreAnError) {
  // spv. then spirv.: at the second, with a note at the first.
  EXPECT_EQ(read("spv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n    spv.Return\n  "
                 "}\n}\n")
                .text,
            "t:2:3: error: the 'spirv.' prefix of MLIR 16 and later after MLIR 15's 'spv.' prefix: "
            "no MLIR release reads both\n"
            "t:1:1: note: MLIR 15's 'spv.' prefix here");
  // In a type, and in an attribute.
  EXPECT_NE(read("spirv.module Logical GLSL450 {\n  spirv.GlobalVariable @g : !spv.ptr<f32, "
                 "Private>\n}\n")
                .text.find("t:2:29: error: MLIR 15's 'spv.' prefix after the 'spirv.' prefix"),
            std::string::npos);
  EXPECT_NE(read("spirv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], []> {\n}\n")
                .text.find("t:1:40: error: MLIR 15's 'spv.' prefix after"),
            std::string::npos);
  // Quoted atomics (MLIR 16 and older) with angle-bracketed ones (later).
  constexpr std::string_view kBoth =
      R"mlir(spirv.func @f(%arg0: !spirv.ptr<i32, Workgroup>, %arg1: i32) "None" {
  %0 = spirv.AtomicIAdd "Device" "None" %arg0, %arg1 : !spirv.ptr<i32, Workgroup>
  %1 = spirv.AtomicIAdd <Device> <None> %arg0, %arg1 : !spirv.ptr<i32, Workgroup>
  spirv.Return
}
)mlir";
  EXPECT_EQ(read(kBoth).text,
            "t:3:25: error: an atomic op's scope and semantics in angle brackets (after MLIR 16) "
            "after an atomic op's scope and semantics in quotes (MLIR 16 and older): no MLIR "
            "release reads both\n"
            "t:2:25: note: an atomic op's scope and semantics in quotes (MLIR 16 and older) here");
  // MLIR 15 never spelled atomics in angle brackets.
  EXPECT_NE(read("spv.func @f(%arg0: !spv.ptr<i32, Workgroup>, %arg1: i32) \"None\" {\n  %0 = "
                 "spv.AtomicIAdd <Device> <None> %arg0, %arg1 : !spv.ptr<i32, Workgroup>\n  "
                 "spv.Return\n}\n")
                .text.find("t:2:23: error: an atomic op's scope and semantics in angle brackets"),
            std::string::npos);
}

TEST(DialectVersions, BadEnumKeywordIsTwoErrorsInTheReleasesWords) {
  // MLIR's parser of an enum attribute in angle brackets reports the keyword, then the
  // attribute, which MLIR 15 names SPV_ScopeAttr and later releases SPIRV_ScopeAttr.
  Read latest = read("spirv.func @f() \"None\" {\n  spirv.ControlBarrier <Something>, <Device>, "
                     "<Acquire>\n  spirv.Return\n}\n");
  EXPECT_EQ(latest.text.substr(0, latest.text.find('\n')),
            "t:2:25: error: expected ::mlir::spirv::Scope to be one of: CrossDevice, Device, "
            "Workgroup, Subgroup, Invocation, QueueFamily, ShaderCallKHR");
  EXPECT_NE(latest.text.find("\nt:2:34: error: failed to parse SPIRV_ScopeAttr parameter 'value' "
                             "which is to be a `::mlir::spirv::Scope`"),
            std::string::npos)
      << latest.text;
  Read old = read("spv.func @f() \"None\" {\n  spv.ControlBarrier <Something>, <Device>, "
                  "<Acquire>\n  spv.Return\n}\n");
  EXPECT_NE(old.text.find("error: failed to parse SPV_ScopeAttr parameter"), std::string::npos)
      << old.text;
  // The option words them for a release whatever the text is in.
  Context ctx;
  ParseOptions as15;
  as15.messages = MlirVersion::Mlir15;
  Expected<OwningOp> op = parse(ctx,
                                "spirv.func @f() \"None\" {\n  spirv.MemoryBarrier <Device>, "
                                "<Bogus>\n  spirv.Return\n}\n",
                                as15);
  ASSERT_FALSE(op);
  EXPECT_NE(op.error().formatWithNotes().find("failed to parse SPV_MemorySemanticsAttr"),
            std::string::npos);
  EXPECT_EQ(op.error().notes.size(), 1u);
  EXPECT_EQ(op.error().notes[0].severity, Severity::Error);
}

TEST(DialectVersions, VerifierNamesOpsAsTheReleaseDoes) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, "func.func @f() {\n  spv.MemoryBarrier <Device>, "
                                     "<Acquire|Release>\n  return\n}\n");
  ASSERT_TRUE(op) << op.error().format();
  Status latest = verify(**op);
  ASSERT_FALSE(latest);
  EXPECT_EQ(latest.error().message.rfind("'spirv.MemoryBarrier' op expected at most one", 0), 0u)
      << latest.error().message;
  Status old = verify(**op, MlirVersion::Mlir15);
  ASSERT_FALSE(old);
  EXPECT_EQ(old.error().message.rfind("'spv.MemoryBarrier' op expected at most one", 0), 0u)
      << old.error().message;
}

TEST(DialectVersions, UnknownOpsOfMlir15) {
  EXPECT_EQ(read("spv.module Logical GLSL450 {\n  spv.Bogus\n}\n").text,
            "t:2:3: error: unknown op 'spv.Bogus'");
  EXPECT_EQ(read("\"spv.Bogus\"() : () -> ()\n").text,
            "t:1:1: error: unregistered operation 'spv.Bogus' found in dialect ('spv') that does "
            "not allow unknown operations");
  // With unregistered dialects allowed, a generic "spv.X" is what today's MLIR takes it for:
  // an op of a dialect it does not have.
  Context ctx;
  ParseOptions any;
  any.allowUnregistered = true;
  MlirVersion written = MlirVersion::Mlir15;
  Expected<OwningOp> op = parse(ctx, "\"spv.Bitcast\"() : () -> ()\n", any, &written);
  ASSERT_TRUE(op) << op.error().format();
  EXPECT_EQ(written, MlirVersion::Latest);
  EXPECT_NE(toString(**op).find("\"spv.Bitcast\"() : () -> ()"), std::string::npos);
}

} // namespace
} // namespace spire::dialect
