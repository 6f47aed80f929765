// Deserialization and serialization on small modules written here: what each of the design's
// transformations makes of them, and that the serialized module is valid again.
#include "spire/dialect/Serialization.h"
#include "BinaryHelpers.h"
#include "spire/asm/Assembler.h"
#include "spire/asm/Disassembler.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>

using namespace spire;
using namespace spire::dialect;

namespace {

struct Deserialized {
  Context ctx;
  OwningOp module;
  DeserializeStats stats;
  std::string error;
};

/// `text` assembled for SPIR-V 1.`minor` into `out` (the test fails if it does not assemble).
/// With `numericIds`, %N is id N.
void assembleText(std::string_view text, std::optional<Module> &out, unsigned minor = 3,
                  bool numericIds = false) {
  AssembleOptions as;
  as.version = grammar::makeVersion(1, minor);
  as.preserveNumericIds = numericIds;
  Expected<std::vector<uint32_t>> words = assemble(text, as);
  ASSERT_TRUE(bool(words)) << words.error().format("<test>");
  Expected<Module> m = Module::fromWords(std::move(words).value());
  ASSERT_TRUE(bool(m));
  out = std::move(m).value();
}

void deserializeText(std::string_view text, Deserialized &out, unsigned minor = 3,
                     DeserializeOptions options = {}, bool numericIds = false) {
  std::optional<Module> m;
  assembleText(text, m, minor, numericIds);
  ASSERT_TRUE(m);
  Expected<OwningOp> op = deserialize(out.ctx, *m, &out.stats, options);
  if (!op) {
    out.error = op.error().message;
    return;
  }
  out.module = std::move(op).value();
  Status v = verify(*out.module);
  EXPECT_TRUE(bool(v)) << v.error().message;
}

/// The module serialized and read back; the error of whichever step fails.
Expected<Module> serializedModule(const Operation &module) {
  Expected<std::vector<uint32_t>> words = serialize(module);
  if (!words)
    return words.error();
  return Module::fromWords(std::move(words).value());
}

/// Serializes and validates for Vulkan 1.1 (or `env`); returns the problems, empty when valid.
std::string serializeAndValidate(const Operation &module, std::string_view env = "vulkan1.1") {
  Expected<Module> m = serializedModule(module);
  if (!m)
    return "serialize and read back: " + m.error().message;
  val::Options options;
  options.env = *val::parseEnvironment(env);
  val::Report r = val::validate(*m, options);
  std::string problems;
  for (const val::Problem &p : r.problems)
    if (p.severity == Severity::Error)
      problems += p.format("<serialized>") + "\n";
  return problems;
}

size_t count(Operation *root, const OpInfo &info) {
  size_t n = 0;
  walk(root, [&](Operation *op) { n += &op->info() == &info; });
  return n;
}

Operation *first(Operation *root, const OpInfo &info) {
  Operation *found = nullptr;
  walk(root, [&](Operation *op) {
    if (!found && &op->info() == &info)
      found = op;
  });
  return found;
}

constexpr std::string_view kHeader = R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 8 1 1
OpName %buf "buf"
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %rt ArrayStride 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3uint = OpTypeVector %uint 3
%rt = OpTypeRuntimeArray %float
%S = OpTypeStruct %rt
%pS = OpTypePointer StorageBuffer %S
%pf = OpTypePointer StorageBuffer %float
%pin = OpTypePointer Input %v3uint
%buf = OpVariable %pS StorageBuffer
%gid = OpVariable %pin Input
%int_0 = OpConstant %int 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_10 = OpConstant %uint 10
%float_1 = OpConstant %float 1
%float_2 = OpConstant %float 2
)";

std::string withHeader(std::string_view body) {
  std::string s(kHeader);
  s += body;
  return s;
}

} // namespace

TEST(DialectSerialization, ModuleLevelInstructionsBecomeAttributesAndSymbols) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
%x = OpLoad %float %p
%y = OpFAdd %float %x %float_1
%z = OpFMul %float %y %float_1
OpStore %p %z
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Attribute vce = d.module->attr("vce_triple");
  ASSERT_TRUE(vce && vce.is(AttrKind::Vce));
  EXPECT_EQ(toString(vce), "#spirv.vce<v1.3, [Shader], []>");
  Operation *var = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(var);
  EXPECT_EQ(var->attr("sym_name").str(), "buf");
  EXPECT_EQ(toString(var->attr("descriptor_set")), "0 : i32");
  EXPECT_EQ(toString(var->attr("binding")), "3 : i32");
  EXPECT_EQ(toString(var->attr("type")),
            "!spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>, StorageBuffer>");
  // Constants are materialized at each use: %float_1 twice, the two indices once each.
  EXPECT_EQ(count(d.module.get(), ops::constant()), 4u);
  EXPECT_EQ(count(d.module.get(), ops::addressOf()), 1u);
  Operation *ep = first(d.module.get(), ops::entryPoint());
  ASSERT_TRUE(ep);
  // An unnamed variable's symbol is made from its id (3, as the assembler numbers them).
  EXPECT_EQ(toString(ep->attr("interface")), "[@spirv_var_3]");
  Operation *mode = first(d.module.get(), ops::executionMode());
  ASSERT_TRUE(mode);
  EXPECT_EQ(toString(mode->attr("values")), "[8 : i32, 1 : i32, 1 : i32]");
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

// Ids far apart, as a large module's are: the deserializer keeps OpNames sorted by id (not in
// the order written; an id's first name counts) and hashes the types and constants whose ids
// are far above the others.
TEST(DialectSerialization, NamesTypesAndConstantsWithSparseIdsAreFound) {
  Deserialized d;
  deserializeText(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %50000 "main"
OpExecutionMode %50000 LocalSize 1 1 1
OpName %50000 "entry"
OpName %40001 "counter"
OpName %30000 "helper"
OpName %40001 "second_name"
OpName %7 "local"
%1 = OpTypeVoid
%2 = OpTypeInt 32 1
%3 = OpTypeFunction %1
%4 = OpTypePointer Function %2
%20000 = OpConstant %2 7
%40000 = OpTypePointer Private %2
%40001 = OpVariable %40000 Private
%30000 = OpFunction %1 None %3
%5 = OpLabel
%7 = OpVariable %4 Function
OpStore %7 %20000
%8 = OpLoad %2 %40001
%9 = OpIAdd %2 %8 %20000
OpStore %40001 %9
OpReturn
OpFunctionEnd
%50000 = OpFunction %1 None %3
%6 = OpLabel
%10 = OpFunctionCall %1 %30000
OpReturn
OpFunctionEnd
)",
                  d, 3, {}, true);
  ASSERT_TRUE(d.module) << d.error;
  Operation *var = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(var);
  EXPECT_EQ(var->attr("sym_name").str(), "counter");
  EXPECT_EQ(toString(var->attr("type")), "!spirv.ptr<si32, Private>");
  std::vector<std::string> functions;
  walk(d.module.get(), [&](Operation *op) {
    if (&op->info() == &ops::func())
      functions.emplace_back(op->attr("sym_name").str());
  });
  EXPECT_EQ(functions, (std::vector<std::string>{"helper", "entry"}));
  // The constant above the table's first ids, materialized at both uses.
  size_t sevens = 0;
  walk(d.module.get(), [&](Operation *op) {
    if (&op->info() == &ops::constant())
      sevens += toString(op->attr("value")) == "7 : si32";
  });
  EXPECT_EQ(sevens, 2u);
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

// A type hashed for its id far above the types before it, then within the table of types by id
// once more types made it grow, is still found.
TEST(DialectSerialization, ATypeHashedBeforeTheTableReachesItIsFound) {
  Deserialized d;
  deserializeText(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %2000 "main"
OpExecutionMode %2000 LocalSize 1 1 1
%1 = OpTypeVoid
%3 = OpTypeFunction %1
%1300 = OpTypeInt 32 0
%10 = OpTypeStruct %1300
%11 = OpTypeStruct %1300
%12 = OpTypeStruct %1300
%13 = OpTypeStruct %1300
%14 = OpTypeStruct %1300
%15 = OpTypeStruct %1300
%16 = OpTypeStruct %1300
%17 = OpTypeStruct %1300
%18 = OpTypeStruct %1300
%19 = OpTypeStruct %1300
%20 = OpTypeStruct %1300
%21 = OpTypeStruct %1300
%22 = OpTypeStruct %1300
%23 = OpTypeStruct %1300
%24 = OpTypeStruct %1300
%25 = OpTypeStruct %1300
%26 = OpTypeStruct %1300
%27 = OpTypeStruct %1300
%28 = OpTypeStruct %1300
%29 = OpTypeStruct %1300
%30 = OpTypeStruct %1300
%31 = OpTypeStruct %1300
%32 = OpTypeStruct %1300
%33 = OpTypeStruct %1300
%34 = OpTypeStruct %1300
%35 = OpTypeStruct %1300
%36 = OpTypeStruct %1300
%37 = OpTypeStruct %1300
%38 = OpTypeStruct %1300
%39 = OpTypeStruct %1300
%40 = OpTypeStruct %1300
%41 = OpTypeStruct %1300
%1400 = OpTypePointer Private %1300
%1401 = OpConstant %1300 5
%1500 = OpVariable %1400 Private
%2000 = OpFunction %1 None %3
%4 = OpLabel
OpStore %1500 %1401
OpReturn
OpFunctionEnd
)",
                  d, 3, {}, true);
  ASSERT_TRUE(d.module) << d.error;
  Operation *var = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(var);
  EXPECT_EQ(toString(var->attr("type")), "!spirv.ptr<i32, Private>");
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

// DeserializeOptions::functionRead names each function once it is read; nothing reads its
// words after (spire translate gives their pages back). Words overwritten then change nothing:
// calls to functions before and after, a loop with a phi, entry points named at the end.
namespace {

/// Four functions: a call to one defined after the caller, a loop with phis, an entry point.
constexpr std::string_view kFourFunctions = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %twice "twice"
%void = OpTypeVoid
%int = OpTypeInt 32 1
%bool = OpTypeBool
%c0 = OpConstant %int 0
%c1 = OpConstant %int 1
%c4 = OpConstant %int 4
%fnvoid = OpTypeFunction %void
%fnint = OpTypeFunction %int %int
%twice = OpFunction %int None %fnint
%x = OpFunctionParameter %int
%t0 = OpLabel
%y = OpIAdd %int %x %x
OpReturnValue %y
OpFunctionEnd
%loop = OpFunction %int None %fnint
%n = OpFunctionParameter %int
%l0 = OpLabel
OpBranch %l1
%l1 = OpLabel
%i = OpPhi %int %c0 %l0 %next %l2
%acc = OpPhi %int %n %l0 %sum %l2
OpLoopMerge %l3 %l2 None
OpBranch %l4
%l4 = OpLabel
%more = OpSLessThan %bool %i %c4
OpBranchConditional %more %l2 %l3
%l2 = OpLabel
%d = OpFunctionCall %int %twice %acc
%sum = OpIAdd %int %d %c1
%next = OpIAdd %int %i %c1
OpBranch %l1
%l3 = OpLabel
%r = OpFunctionCall %int %later %acc
OpReturnValue %r
OpFunctionEnd
%main = OpFunction %void None %fnvoid
%m0 = OpLabel
%v = OpFunctionCall %int %loop %c1
%w = OpFunctionCall %int %twice %v
OpReturn
OpFunctionEnd
%later = OpFunction %int None %fnint
%z = OpFunctionParameter %int
%z0 = OpLabel
%zz = OpFunctionCall %int %twice %z
OpReturnValue %zz
OpFunctionEnd
)";

} // namespace

namespace {

/// A deserialization of `text` whose `callback` (DeserializeOptions::functionRead or namesRead)
/// overwrites the words it is handed, as its caller may give them back: the ranges handed over,
/// and the text printed, beside the text of the same module read without the callback.
struct Clobbered {
  std::optional<Module> module; ///< the overwritten copy
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
  std::string printed, plain; ///< (or the error)
};
using RangeCallback = std::function<void(uint32_t first, uint32_t end)>;
Clobbered deserializeClobbering(std::string_view text,
                                RangeCallback DeserializeOptions::*callback) {
  Clobbered c;
  std::optional<Module> plain;
  assembleText(text, plain);
  assembleText(text, c.module);
  if (!plain || !c.module)
    return c;
  Context a, b;
  Expected<OwningOp> expected = deserialize(a, *plain);
  c.plain = expected ? toString(**expected) : expected.error().message;
  DeserializeOptions options;
  options.*callback = [&](uint32_t first, uint32_t end) {
    c.ranges.emplace_back(first, end);
    test::clobber(*c.module, first, end);
  };
  Expected<OwningOp> read = deserialize(b, *c.module, nullptr, options);
  c.printed = read ? toString(**read) : read.error().message;
  return c;
}

} // namespace

TEST(DialectSerialization, AFunctionsWordsAreNotReadAfterItIsRead) {
  Clobbered c = deserializeClobbering(kFourFunctions, &DeserializeOptions::functionRead);
  ASSERT_TRUE(c.module);
  EXPECT_EQ(c.printed, c.plain);
  ASSERT_EQ(c.ranges.size(), 4u);
  for (size_t k = 0; k < c.ranges.size(); ++k) {
    EXPECT_EQ(c.module->inst(c.ranges[k].first).opcode(), grammar::Op::Function);
    EXPECT_EQ(c.module->inst(c.ranges[k].second - 1).opcode(), grammar::Op::FunctionEnd);
    if (k) {
      EXPECT_EQ(c.ranges[k].first, c.ranges[k - 1].second);
    }
  }
}

// DeserializeOptions::namesRead gives the OpNames' range once the ops before the functions are
// made; the functions' names (a call to a function defined later asks for its name) are kept.
TEST(DialectSerialization, TheNamesWordsAreNotReadAfterTheGlobals) {
  std::string text(kFourFunctions);
  text.insert(text.find("OpName %twice"), "OpName %later \"later\"\nOpName %c1 \"one\"\n");
  Clobbered c = deserializeClobbering(text, &DeserializeOptions::namesRead);
  ASSERT_TRUE(c.module);
  EXPECT_NE(c.plain.find("@later("), std::string::npos) << c.plain;
  EXPECT_EQ(c.printed, c.plain);
  ASSERT_EQ(c.ranges.size(), 1u);
  EXPECT_EQ(c.ranges[0].second - c.ranges[0].first, 3u);
  EXPECT_EQ(c.module->inst(c.ranges[0].first).opcode(), grammar::Op::Name);
}

TEST(DialectSerialization, AModulePrintedAsItIsReadGivesTheWholeModulesText) {
  // With a global, a specialization constant and a source file that only a debug instruction
  // in a function names (the module's attributes must be final before the first function).
  std::string text = std::string(R"(OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
)") + std::string(kFourFunctions.substr(kFourFunctions.find("OpMemoryModel")));
  text.replace(text.find("OpName"), 0,
               "%unnamed = OpString \"kept-by-a-function.comp\"\n"
               "%listed = OpString \"named-by-nothing\"\n");
  std::string withDebug = text;
  withDebug.replace(withDebug.find("%m0 = OpLabel\n"), 14,
                    "%m0 = OpLabel\n%src = OpExtInst %void %dbg DebugSource %unnamed\n");
  withDebug.replace(withDebug.find("%fnvoid ="), 0,
                    "%spec = OpSpecConstant %int 7\n%ptr = OpTypePointer Private %int\n"
                    "%g = OpVariable %ptr Private %c1\n");
  for (const std::string &source : {text, withDebug}) {
    std::optional<Module> m;
    assembleText(source, m, 6);
    ASSERT_TRUE(m);
    Context wholeCtx;
    Expected<OwningOp> whole = deserialize(wholeCtx, *m);
    ASSERT_TRUE(bool(whole)) << whole.error().message;
    PrintOptions builtin, mlir16, localPositions;
    builtin.builtinModule = true;
    mlir16.version = MlirVersion::Mlir16;
    localPositions.debugInfo = localPositions.localScope = true;
    for (const PrintOptions &printing : {PrintOptions{}, builtin, mlir16, localPositions})
      for (bool erase : {true, false}) {
        ASSERT_TRUE(ModuleTextStream::supports(printing));
        std::string streamed;
        size_t pieces = 0, calls = 0, largestBody = 0;
        ModuleTextStream stream([&](std::string_view piece) { streamed += piece, ++pieces; },
                                printing);
        Context ctx;
        DeserializeOptions options;
        options.version = printing.version;
        options.bodyReady = [&](Operation &module) {
          ++calls;
          const Block &body = *module.region().front();
          largestBody = std::max<size_t>(largestBody, std::distance(body.begin(), body.end()));
          stream.printBody(module, erase);
          if (erase) {
            EXPECT_TRUE(module.region().front()->empty()) << "what is printed is erased";
          }
        };
        Expected<OwningOp> read = deserialize(ctx, *m, nullptr, options);
        ASSERT_TRUE(bool(read)) << read.error().message;
        EXPECT_EQ(calls, 5u) << "once before the functions, then after each";
        if (erase) {
          EXPECT_LE(largestBody, 3u) << "never more than the globals or one function";
        }
        stream.finish(**read);
        Context again;
        DeserializeOptions plain;
        plain.version = printing.version;
        Expected<OwningOp> reference = deserialize(again, *m, nullptr, plain);
        ASSERT_TRUE(bool(reference));
        EXPECT_EQ(streamed, toString(**reference, printing));
        EXPECT_GT(pieces, 0u);
      }
    // The OpString that only a dropped or kept instruction names is not listed; the other is.
    const std::string printed = toString(**whole);
    if (source == withDebug) {
      EXPECT_EQ(printed.find("\"OpString\", \"kept-by-a-function.comp\""), std::string::npos);
      EXPECT_NE(printed.find("\"OpString\", \"named-by-nothing\""), std::string::npos);
    }
  }
}

TEST(DialectSerialization, IfElseWithPhiBecomesSelectionWithResult) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
%x = OpLoad %float %p
%c = OpFOrdLessThan %bool %x %float_1
OpSelectionMerge %merge None
OpBranchConditional %c %then %else
%then = OpLabel
%a = OpFAdd %float %x %float_1
OpBranch %merge
%else = OpLabel
%b = OpFMul %float %x %float_2
OpBranch %merge
%merge = OpLabel
%r = OpPhi %float %a %then %b %else
OpStore %p %r
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(d.stats.selections, 1u);
  Operation *sel = first(d.module.get(), ops::selection());
  ASSERT_TRUE(sel);
  // The phi is the selection's result, merged by spirv.mlir.merge in the region's last block.
  ASSERT_EQ(sel->numResults(), 1u);
  EXPECT_EQ(sel->result().type(), d.ctx.floating(32));
  Block *last = sel->region().back();
  EXPECT_EQ(&last->front()->info(), &ops::merge());
  EXPECT_EQ(last->front()->numOperands(), 1u);
  // The header's load and compare run before the region.
  EXPECT_EQ(sel->region().front()->front(), sel->region().front()->back());
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, LoopWithHeaderPhiBecomesLoopRegion) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %continue
%acc = OpPhi %float %float_1 %entry %acc2 %continue
OpLoopMerge %exit %continue None
OpBranch %body
%body = OpLabel
%cond = OpULessThan %bool %i %uint_10
OpBranchConditional %cond %work %exit
%work = OpLabel
%acc2 = OpFMul %float %acc %float_2
OpBranch %continue
%continue = OpLabel
%next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
OpStore %p %acc
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(d.stats.loops, 1u);
  Operation *loop = first(d.module.get(), ops::loop());
  ASSERT_TRUE(loop);
  Region &r = loop->region();
  // Entry block, header (with the phis as arguments), body, work, continue, merge.
  ASSERT_GE(r.size(), 4u);
  Block *entry = r.front();
  EXPECT_EQ(entry->numArguments(), 0u);
  Block *header = entry->next();
  EXPECT_EQ(header->numArguments(), 2u);
  EXPECT_EQ(entry->back()->successors()[0].block, header);
  // %acc is used after the loop: it leaves through the merge block.
  EXPECT_EQ(loop->numResults(), 1u);
  EXPECT_FALSE(loop->attr("continue_block")); // the continue target is the block before the merge
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, BreakOutOfASelectionKeepsItsBlocksAndMergeOp) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %continue
OpLoopMerge %exit %continue None
OpBranch %body
%body = OpLabel
%cond = OpULessThan %bool %i %uint_10
OpSelectionMerge %join None
OpBranchConditional %cond %join %break
%break = OpLabel
OpBranch %exit
%join = OpLabel
OpBranch %continue
%continue = OpLabel
%next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(d.stats.loops, 1u);
  EXPECT_EQ(d.stats.unstructured, 1u);
  ASSERT_EQ(d.stats.notes.size(), 1u);
  EXPECT_NE(d.stats.notes[0].find("neither its merge block nor inside it"), std::string::npos)
      << d.stats.notes[0];
  const OpInfo *selectionMerge = opForInstruction(grammar::Op::SelectionMerge);
  ASSERT_TRUE(selectionMerge);
  EXPECT_EQ(count(d.module.get(), *selectionMerge), 1u);
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, SwitchAndWeightedBranchesRoundTrip) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
%x = OpLoad %float %p
%u = OpConvertFToU %uint %x
OpSelectionMerge %merge None
OpSwitch %u %default 0 %zero 7 %seven
%zero = OpLabel
OpStore %p %float_1
OpBranch %merge
%seven = OpLabel
OpStore %p %float_2
OpBranch %merge
%default = OpLabel
%c = OpFOrdLessThan %bool %x %float_1
OpSelectionMerge %inner None
OpBranchConditional %c %small %inner 3 1
%small = OpLabel
OpBranch %inner
%inner = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(d.stats.selections, 2u);
  Operation *sw = first(d.module.get(), ops::switchOp());
  ASSERT_TRUE(sw);
  EXPECT_EQ(sw->successors().size(), 3u);
  EXPECT_EQ(toString(sw->attr("literals")), "[0 : i32, 7 : i32]");
  Operation *br = first(d.module.get(), ops::branchConditional());
  ASSERT_TRUE(br);
  EXPECT_EQ(toString(br->attr("branch_weights")), "[3 : i32, 1 : i32]");
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

/// The first op of each block of `op`'s region that is not a constant or an address (which
/// deserialization puts where they are used), by name.
std::vector<std::string> firstOpsOfBlocks(Operation *op) {
  std::vector<std::string> names;
  for (Block *b : op->region()) {
    Operation *o = b->front();
    while (o && (&o->info() == &ops::constant() || &o->info() == &ops::addressOf()))
      o = o->next();
    names.emplace_back(o ? o->name() : "");
  }
  return names;
}

std::vector<std::string> firstOpsOfSelection(Operation *root) {
  Operation *sel = first(root, ops::selection());
  return sel ? firstOpsOfBlocks(sel) : std::vector<std::string>{};
}

TEST(DialectSerialization, SelectionHeaderOpsAndBlockOrderAsTodaysMlirOrMlir16) {
  // The targets in the module: the cases, then the default.
  constexpr std::string_view kSwitch = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
%x = OpLoad %float %p
%u = OpConvertFToU %uint %x
OpSelectionMerge %merge None
OpSwitch %u %default 0 %zero 7 %seven
%zero = OpLabel
OpStore %p %float_1
OpBranch %merge
%seven = OpLabel
%y = OpFAdd %float %x %float_2
OpStore %p %y
OpBranch %merge
%default = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
  // Today's MLIR: the header's ops in front of the selection, whose region starts with the
  // switch alone; its targets in branch order (the default first), the merge block last.
  Deserialized now;
  deserializeText(withHeader(kSwitch), now);
  ASSERT_TRUE(now.module) << now.error;
  EXPECT_EQ(firstOpsOfSelection(now.module.get()),
            (std::vector<std::string>{"spirv.Switch", "spirv.Branch", "spirv.Store", "spirv.FAdd",
                                      "spirv.mlir.merge"}));
  Operation *sel = first(now.module.get(), ops::selection());
  ASSERT_TRUE(sel && sel->prev());
  EXPECT_EQ(sel->prev()->name(), "spirv.ConvertFToU");
  EXPECT_EQ(serializeAndValidate(*now.module), "");
  // MLIR 16: the header moves into the region whole; the blocks keep the module's order.
  Deserialized old;
  deserializeText(
      withHeader(kSwitch), old, 3,
      {.version = MlirVersion::Mlir16, .functionRead = {}, .namesRead = {}, .bodyReady = {}});
  ASSERT_TRUE(old.module) << old.error;
  EXPECT_EQ(firstOpsOfSelection(old.module.get()),
            (std::vector<std::string>{"spirv.AccessChain", "spirv.Store", "spirv.FAdd",
                                      "spirv.Branch", "spirv.mlir.merge"}));
  EXPECT_EQ(serializeAndValidate(*old.module), "");
}

TEST(DialectSerialization, LoopContinueTargetComesLastAsMlirPutsIt) {
  // The continue target before the body in the module; the body branches to it on one side.
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
OpBranch %header
%header = OpLabel
OpLoopMerge %merge %cont None
OpBranch %body
%cont = OpLabel
OpStore %p %float_2
OpBranch %header
%body = OpLabel
%x = OpLoad %float %p
%c = OpFOrdLessThan %bool %x %float_1
OpBranchConditional %c %cont %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *loop = first(d.module.get(), ops::loop());
  ASSERT_TRUE(loop);
  EXPECT_FALSE(loop->attr("continue_block")) << toString(*d.module);
  EXPECT_EQ(firstOpsOfBlocks(loop),
            (std::vector<std::string>{"spirv.Branch", "spirv.Branch", "spirv.Load", "spirv.Store",
                                      "spirv.mlir.merge"}));
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, LinkageAttributesOfImportedFunctionsAndExportedVariables) {
  Context ctx;
  Expected<OwningOp> op =
      parse(ctx, R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage], []> {
  spirv.GlobalVariable @v {linkage_attributes = #spirv.linkage_attributes<linkage_name = "v", linkage_type = <Export>>} : !spirv.ptr<f32, Private>
  spirv.func @imported(%arg0: f32) "Pure" attributes {linkage_attributes = #spirv.linkage_attributes<linkage_name = "outside.f", linkage_type = <Import>>}
  spirv.func @caller(%arg0: f32) "None" {
    spirv.FunctionCall @imported(%arg0) : (f32) -> ()
    spirv.Return
  }
}
)");
  ASSERT_TRUE(bool(op)) << op.error().message;
  ASSERT_TRUE(bool(verify(**op)));
  Expected<Module> m = serializedModule(**op);
  ASSERT_TRUE(bool(m)) << m.error().message;
  std::string decorations;
  for (Instruction inst : *m)
    if (inst.opcode() == grammar::Op::Decorate &&
        inst.word(2) == uint32_t(grammar::Decoration::LinkageAttributes))
      decorations += std::string(inst.stringOperand(inst.operands()[2])) + ":" +
                     std::to_string(inst.word(inst.wordCount() - 1)) + " ";
  EXPECT_EQ(decorations, "v:0 outside.f:1 ");
  val::Options options;
  options.env = *val::parseEnvironment("spv1.0");
  EXPECT_TRUE(val::validate(*m, options).valid());
  Context back;
  Expected<OwningOp> again = deserialize(back, *m);
  ASSERT_TRUE(bool(again)) << again.error().message;
  std::string text = toString(**again);
  EXPECT_NE(text.find("spirv.func @imported(f32) \"Pure\" attributes {linkage_attributes = "
                      "#spirv.linkage_attributes<linkage_name = outside.f, linkage_type = "
                      "<Import>>}\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("linkage_attributes = #spirv.linkage_attributes<linkage_name = v, "
                      "linkage_type = <Export>>"),
            std::string::npos)
      << text;
}

TEST(DialectSerialization, ExtendedInstructionsAndSpecConstants) {
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "frag_main" %out
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
OpName %k "k"
OpDecorate %out Location 0
OpDecorate %k SpecId 7
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%pout = OpTypePointer Output %float
%out = OpVariable %pout Output
%k = OpSpecConstant %float 2
%main = OpFunction %void None %fn
%entry = OpLabel
%s = OpExtInst %float %glsl Sqrt %k
OpStore %out %s
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *sc = first(d.module.get(), ops::specConstant());
  ASSERT_TRUE(sc);
  EXPECT_EQ(toString(sc->attr("spec_id")), "7 : i64");
  EXPECT_EQ(toString(sc->attr("default_value")), "2.000000e+00 : f32");
  EXPECT_EQ(count(d.module.get(), ops::referenceOf()), 1u);
  EXPECT_TRUE(first(d.module.get(), *findOp("spirv.GL.Sqrt")));
  Operation *ep = first(d.module.get(), ops::entryPoint());
  ASSERT_TRUE(ep);
  EXPECT_EQ(ep->attr("name").str(), "frag_main"); // differs from the function's symbol
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, WhatTheDialectCannotExpressIsAnErrorNamingTheInstruction) {
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
OpCapability CooperativeVectorNV
OpExtension "SPV_NV_cooperative_vector"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 0
%int_4 = OpConstant %int 4
%v = OpTypeCooperativeVectorNV %int %int_4
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)",
                  d);
  EXPECT_FALSE(d.module);
  EXPECT_NE(d.error.find("OpTypeVectorIdEXT has no type"), std::string::npos) << d.error;
}

// Found by dialect_fuzzer: valid SPIR-V whose function is one block holding only OpUnreachable
// has no form the dialect's verifier accepts; the deserializer says so instead of handing back
// IR that fails verification. One after other instructions, or in a later block, is fine.
TEST(DialectSerialization, UnreachableAloneInAnEntryBlockIsAnError) {
  constexpr std::string_view kHeader = R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
)";
  Deserialized alone;
  deserializeText(std::string(kHeader) + "OpUnreachable\nOpFunctionEnd\n", alone);
  EXPECT_FALSE(alone.module);
  EXPECT_NE(alone.error.find("OpUnreachable alone in the entry block of function %"),
            std::string::npos)
      << alone.error;

  Deserialized later;
  deserializeText(std::string(kHeader) + R"(OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
OpReturn
%merge = OpLabel
OpUnreachable
OpFunctionEnd
)",
                  later);
  EXPECT_TRUE(later.module) << later.error;
}

TEST(DialectSerialization, AFunctionVariableWithABuiltInIsAnError) {
  // Valid in the universal environment (found by dialect_fuzzer), but MLIR's spirv.Variable
  // cannot carry built_in, binding or descriptor_set: the deserializer says so at the
  // instruction rather than making IR its own verifier rejects.
  auto text = [](std::string_view decoration) {
    return std::string(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
)") + std::string(decoration) +
           R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%ptr = OpTypePointer Function %v3
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %ptr Function
OpReturn
OpFunctionEnd
)";
  };
  for (std::string_view decoration :
       {"OpDecorate %local BuiltIn GlobalInvocationId", "OpDecorate %local Binding 1",
        "OpDecorate %local DescriptorSet 0"}) {
    Deserialized d;
    deserializeText(text(decoration), d);
    EXPECT_FALSE(d.module) << decoration;
    EXPECT_NE(d.error.find("a function variable with '"), std::string::npos) << d.error;
  }
  Deserialized plain;
  deserializeText(text("OpDecorate %local RelaxedPrecision"), plain);
  EXPECT_TRUE(plain.module) << plain.error;
}

TEST(DialectSerialization, LongCompositesGoOnInTheirContinuedInstructions) {
  // SPV_INTEL_long_composites: the members and constituents after a struct, a constant
  // composite or a composite construct continue in the continued instructions that follow it.
  Deserialized d;
  deserializeText(R"(
OpCapability Kernel
OpCapability Addresses
OpCapability LongCompositesINTEL
OpExtension "SPV_INTEL_long_composites"
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 0
%s = OpTypeStruct %int
OpTypeStructContinuedINTEL %int %int
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%c = OpConstantComposite %s %int_1
OpConstantCompositeContinuedINTEL %int_2 %int_1
%ps = OpTypePointer Function %s
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ps Function
%x = OpCompositeConstruct %s %int_2
OpCompositeConstructContinuedINTEL %int_2 %int_1
OpStore %v %x
OpStore %v %c
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *construct = first(d.module.get(), *findOp("spirv.CompositeConstruct"));
  ASSERT_TRUE(construct);
  EXPECT_EQ(construct->numOperands(), 3u);
  EXPECT_EQ(toString(construct->result().type()), "!spirv.struct<(i32, i32, i32)>");
  std::vector<std::string> composites;
  walk(d.module.get(), [&](Operation *op) {
    if (&op->info() == &ops::constant() && op->attr("value").is(AttrKind::Array))
      composites.push_back(toString(op->attr("value")));
  });
  EXPECT_EQ(composites, std::vector<std::string>{"[1 : i32, 2 : i32, 1 : i32]"});
  // Written back as one instruction each: they fit.
  Expected<Module> back = serializedModule(*d.module);
  ASSERT_TRUE(bool(back)) << back.error().message;
  for (Instruction inst : *back)
    EXPECT_EQ(std::string(inst.desc()->name).find("Continued"), std::string::npos);
}

TEST(DialectSerialization, LongCompositesAreSplitWhereTheModuleDeclaresTheCapability) {
  // 65540 constituents: more than one instruction's 65535 words hold.
  constexpr int kLength = 65540;
  auto module = [&](std::string_view capability) {
    std::string args, values, members;
    for (int k = 0; k < kLength; ++k) {
      args += k ? ", %arg0" : "%arg0";
      values += k ? ", 1 : i8" : "1 : i8";
      members += k ? ", i8" : "i8";
    }
    return "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage, Int8" +
           std::string(capability) +
           "], [SPV_INTEL_long_composites]> {\n"
           "  spirv.GlobalVariable @s : !spirv.ptr<!spirv.struct<(" +
           members +
           ")>, Private>\n"
           "  spirv.func @f(%arg0: i8) -> !spirv.array<65540 x i8> \"None\" {\n"
           "    %0 = spirv.CompositeConstruct " +
           args + " : (" + members +
           ") -> !spirv.array<65540 x i8>\n"
           "    %1 = spirv.Constant [" +
           values +
           "] : !spirv.array<65540 x i8>\n"
           "    spirv.ReturnValue %0 : !spirv.array<65540 x i8>\n"
           "  }\n"
           "}\n";
  };
  Context ctx;
  Expected<OwningOp> op = parse(ctx, module(", LongCompositesINTEL"));
  ASSERT_TRUE(bool(op)) << op.error().message;
  Expected<std::vector<uint32_t>> words = serialize(**op);
  ASSERT_TRUE(bool(words)) << words.error().message;
  Expected<Module> m = Module::fromWords(*words);
  ASSERT_TRUE(bool(m)) << m.error().message;
  std::vector<std::string> continued;
  for (Instruction inst : *m)
    if (inst.desc()->name.find("Continued") != std::string_view::npos)
      continued.emplace_back(inst.desc()->name);
  std::sort(continued.begin(), continued.end());
  EXPECT_EQ(continued, (std::vector<std::string>{"OpCompositeConstructContinuedINTEL",
                                                 "OpConstantCompositeContinuedINTEL",
                                                 "OpTypeStructContinuedINTEL"}));
  Context ctx2;
  Expected<OwningOp> back = deserialize(ctx2, *m);
  ASSERT_TRUE(bool(back)) << back.error().message;
  Operation *construct = first(back->get(), *findOp("spirv.CompositeConstruct"));
  ASSERT_TRUE(construct);
  EXPECT_EQ(construct->numOperands(), unsigned(kLength));
  Operation *global = first(back->get(), ops::globalVariable());
  ASSERT_TRUE(global);
  EXPECT_EQ(global->attr("type").type().elementType().members().size(), size_t(kLength));

  // Without the capability the instructions cannot be split: an error naming the op.
  Context ctx3;
  Expected<OwningOp> plain = parse(ctx3, module(""));
  ASSERT_TRUE(bool(plain)) << plain.error().message;
  Expected<std::vector<uint32_t>> refused = serialize(**plain);
  ASSERT_FALSE(bool(refused));
  EXPECT_NE(refused.error().message.find("spirv.CompositeConstruct: too many operands"),
            std::string::npos)
      << refused.error().message;
}

TEST(DialectSerialization, ArraysSizedBySpecializationConstants) {
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %n "n"
OpDecorate %n SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%n = OpSpecConstant %uint 4
%arr = OpTypeArray %float %n
%parr = OpTypePointer Workgroup %arr
%shared = OpVariable %parr Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *var = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(var);
  EXPECT_EQ(toString(var->attr("type")), "!spirv.ptr<!spirv.array<@n x f32>, Workgroup>");
  Expected<Type> back = parseType(d.ctx, "!spirv.array<@n x f32>");
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(*back, var->attr("type").type().elementType());
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

namespace {

/// Deserializes, checks that the printed text parses back to the same text (both forms), and
/// returns the problems of the serialized module for `env` (empty when valid).
std::string roundTripsEverywhere(const Deserialized &d, std::string_view env) {
  for (bool generic : {false, true}) {
    PrintOptions options;
    options.generic = generic;
    std::string text = toString(*d.module, options);
    Context ctx;
    Expected<OwningOp> back = parse(ctx, text);
    if (!back)
      return "parse: " + back.error().message + "\n" + text;
    if (Status v = verify(**back); !v)
      return "verify: " + v.error().message;
    if (std::string again = toString(**back, options); again != text)
      return "printed differently:\n" + text + "\n" + again;
  }
  return serializeAndValidate(*d.module, env);
}

/// An OpenCL module's capabilities, memory model and entry point: annotations and types follow.
constexpr std::string_view kKernelEntry = R"(
OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpCapability LiteralSampler
OpCapability DeviceEnqueue
OpCapability GenericPointer
OpCapability Int8
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %main "main"
)";

constexpr std::string_view kKernelTypes = R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_16 = OpConstant %uint 16
)";

/// The kernel module's entry point and types around `annotations` and `body`.
std::string kernel(std::string_view annotations, std::string_view body) {
  return std::string(kKernelEntry) + std::string(annotations) + std::string(kKernelTypes) +
         std::string(body);
}

} // namespace

TEST(DialectSerialization, SpecConstantOperationsNamedAtModuleLevelBecomeSymbols) {
  // An OpSpecConstantOp as an array length, an OpExecutionModeId and OpDecorateId operand and
  // a composite constituent: a spirv.SpecConstantOperationSymbol that they name.
  Deserialized d;
  deserializeText(kernel(R"(
OpExecutionModeId %main LocalSizeHintId %len %uint_2 %uint_2
OpName %n "n"
OpName %len "len"
OpDecorate %n SpecId 0
OpDecorateId %shared AlignmentId %len
)",
                         R"(
%v2uint = OpTypeVector %uint 2
%n = OpSpecConstant %uint 4
%len = OpSpecConstantOp %uint IAdd %n %uint_2
%pair = OpSpecConstantComposite %v2uint %len %n
%arr = OpTypeArray %uint %len
%parr = OpTypePointer Workgroup %arr
%shared = OpVariable %parr Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %uint %len %uint_2
%y = OpCompositeExtract %uint %pair 0
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *sym = first(d.module.get(), ops::specConstantOperationSymbol());
  ASSERT_TRUE(sym);
  EXPECT_EQ(sym->attr("sym_name").str(), "len");
  EXPECT_EQ(count(d.module.get(), ops::specConstantOperationSymbol()), 1u);
  Operation *var = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(var);
  EXPECT_EQ(toString(var->attr("type")), "!spirv.ptr<!spirv.array<@len x i32>, Workgroup>");
  EXPECT_EQ(toString(var->attr("alignment_id")), "@len");
  // The function's use refers to the symbol instead of computing the operation again.
  EXPECT_EQ(count(d.module.get(), ops::specConstantOperation()), 0u);
  EXPECT_EQ(roundTripsEverywhere(d, "spv1.3"), "");
}

TEST(DialectSerialization, ConstantsWithUndefinedAndNullParts) {
  // OpUndef and null pointers inside composite constants, in a function, in an initializer
  // and in a specialization constant composite: #spirv.undef and #spirv.null in their place.
  Deserialized d;
  deserializeText(kernel("", R"(
%v4uint = OpTypeVector %uint 4
%puint = OpTypePointer CrossWorkgroup %uint
%S = OpTypeStruct %uint %puint
%pS = OpTypePointer CrossWorkgroup %S
%u = OpUndef %uint
%null = OpConstantNull %puint
%vec = OpConstantComposite %v4uint %u %uint_1 %u %uint_1
%s = OpConstantComposite %S %u %null
%g = OpVariable %pS CrossWorkgroup %s
%sc = OpSpecConstant %uint 7
%spec = OpSpecConstantComposite %v4uint %sc %u %sc %u
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpCompositeExtract %uint %vec 0
%b = OpCompositeExtract %uint %spec 1
%c = OpCompositeExtract %puint %s 1
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *var = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(var);
  EXPECT_EQ(toString(var->attr("initializer")), "[#spirv.undef, #spirv.null]");
  Operation *spec = first(d.module.get(), ops::specConstantComposite());
  ASSERT_TRUE(spec);
  std::span<const Attribute> parts = spec->attr("constituents").elements();
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_TRUE(parts[0].is(AttrKind::SymbolRef));
  EXPECT_TRUE(parts[1].is(AttrKind::Undef));
  Operation *c = first(d.module.get(), ops::constant());
  ASSERT_TRUE(c);
  EXPECT_EQ(toString(c->attr("value")), "[#spirv.undef, 1 : i32, #spirv.undef, 1 : i32]");
  EXPECT_EQ(roundTripsEverywhere(d, "spv1.3"), "");
}

TEST(DialectSerialization, ScopesAndSemanticsThatAreNotConstantsStayOperands) {
  Deserialized k;
  deserializeText(kernel("", R"(
%fnu = OpTypeFunction %void %uint
%puint = OpTypePointer CrossWorkgroup %uint
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
%f = OpFunction %void None %fnu
%sem = OpFunctionParameter %uint
%e = OpLabel
OpControlBarrier %uint_2 %uint_2 %sem
OpMemoryBarrier %sem %uint_16
OpReturn
OpFunctionEnd
)"),
                  k);
  ASSERT_TRUE(k.module) << k.error;
  Operation *barrier = first(k.module.get(), *findOp("spirv.ControlBarrier"));
  ASSERT_TRUE(barrier);
  EXPECT_EQ(barrier->numOperands(), 1u);
  EXPECT_TRUE(barrier->attr("memory_semantics").is(AttrKind::Unit));
  EXPECT_EQ(toString(barrier->attr("execution_scope")), "#spirv.scope<Workgroup>");
  Operation *fence = first(k.module.get(), *findOp("spirv.MemoryBarrier"));
  ASSERT_TRUE(fence);
  EXPECT_TRUE(fence->attr("memory_scope").is(AttrKind::Unit));
  EXPECT_EQ(roundTripsEverywhere(k, "spv1.3"), "");
  // The serialized instructions take the parameter where the original did.
  Expected<Module> m = serializedModule(*k.module);
  ASSERT_TRUE(bool(m)) << m.error().format();
  for (Instruction inst : *m) {
    if (inst.opcode() == grammar::Op::MemoryBarrier) {
      EXPECT_EQ(m->inst(m->defIndex(inst.word(1))).opcode(), grammar::Op::FunctionParameter);
    }
  }
}

TEST(DialectSerialization, InitializersOfEveryConstantKind) {
  // A sampler constant and a null pointer as initializers.
  Deserialized d;
  deserializeText(kernel("", R"(
%sampler = OpTypeSampler
%psampler = OpTypePointer UniformConstant %sampler
%puint = OpTypePointer CrossWorkgroup %uint
%ppuint = OpTypePointer CrossWorkgroup %puint
%cs = OpConstantSampler %sampler Repeat 1 Linear
%null = OpConstantNull %puint
%s = OpVariable %psampler UniformConstant %cs
%p = OpVariable %ppuint CrossWorkgroup %null
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  std::vector<std::string> inits;
  walk(d.module.get(), [&](Operation *op) {
    if (&op->info() == &ops::globalVariable())
      inits.push_back(toString(op->attr("initializer")));
  });
  EXPECT_EQ(inits, (std::vector<std::string>{"[#spirv.sampler_addressing_mode<Repeat>, 1 : i32, "
                                             "#spirv.sampler_filter_mode<Linear>]",
                                             "#spirv.null"}));
  EXPECT_EQ(roundTripsEverywhere(d, "spv1.3"), "");
}

TEST(DialectSerialization, ExtendedSetsWithoutOpsAreGenericExtInst) {
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
%minmax = OpExtInstImport "SPV_AMD_shader_trinary_minmax"
OpExtension "SPV_AMD_shader_trinary_minmax"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %m RelaxedPrecision
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%f1 = OpConstant %float 1
%f2 = OpConstant %float 2
%main = OpFunction %void None %fn
%entry = OpLabel
%m = OpExtInst %float %minmax FMin3AMD %f1 %f2 %f1
%n = OpFAdd %float %m %m
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *ext = first(d.module.get(), ops::extInst());
  ASSERT_TRUE(ext);
  EXPECT_EQ(ext->attr("set").str(), "SPV_AMD_shader_trinary_minmax");
  EXPECT_EQ(ext->attr("instruction").intValue(), 1);
  EXPECT_EQ(ext->numOperands(), 3u);
  EXPECT_TRUE(ext->attr("relaxed_precision"));
  EXPECT_EQ(roundTripsEverywhere(d, "vulkan1.1"), "");
}

TEST(DialectSerialization, FunctionsAsOperandsAreReferences) {
  // OpEnqueueKernel names the kernel it enqueues by its function id.
  Deserialized d;
  deserializeText(kernel(R"(
OpName %child "child"
)",
                         R"(
%uchar = OpTypeInt 8 0
%queue = OpTypeQueue
%event = OpTypeDeviceEvent
%uint_3 = OpConstant %uint 3
%sizes = OpTypeArray %uint %uint_3
%ndrange = OpTypeStruct %uint %sizes %sizes %sizes
%pndrange = OpTypePointer Function %ndrange
%pchar = OpTypePointer Generic %uchar
%pevent = OpTypePointer Generic %event
%block_fn = OpTypeFunction %void %pchar
%uint_0 = OpConstant %uint 0
%null_event = OpConstantNull %pevent
%null_char = OpConstantNull %pchar
%child = OpFunction %void None %block_fn
%param = OpFunctionParameter %pchar
%c = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%range = OpVariable %pndrange Function
%q = OpGetDefaultQueue %queue
%r = OpEnqueueKernel %uint %q %uint_0 %range %uint_0 %null_event %null_event %child %null_char %uint_1 %uint_1
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *ref = first(d.module.get(), ops::referenceOf());
  ASSERT_TRUE(ref);
  EXPECT_EQ(toString(ref->attr("spec_const")), "@child");
  EXPECT_TRUE(ref->result().type().is(TypeKind::Function));
  EXPECT_EQ(roundTripsEverywhere(d, "spv1.3"), "");
}

TEST(DialectSerialization, KhrCooperativeMatrixOpsTakeMlirsForms) {
  // The layout id becomes an enum attribute (and a constant again when serialized), the
  // matrix type of Length a type attribute; the text is the seed's.
  if (!findOp("spirv.KHR.CooperativeMatrixLoad"))
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_cooperative_matrix";
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %rt ArrayStride 4
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
%rt = OpTypeRuntimeArray %float
%S = OpTypeStruct %rt
%pS = OpTypePointer StorageBuffer %S
%pf = OpTypePointer StorageBuffer %float
%buf = OpVariable %pS StorageBuffer
%A = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_0
%B = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_1
%C = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2
%main = OpFunction %void None %fn
%e = OpLabel
%p = OpAccessChain %pf %buf %uint_0 %uint_0
%a = OpCooperativeMatrixLoadKHR %A %p %uint_0 %uint_16 Volatile
%b = OpCooperativeMatrixLoadKHR %B %p %uint_1 %uint_16
%c = OpCooperativeMatrixLoadKHR %C %p %uint_0 %uint_16
%r = OpCooperativeMatrixMulAddKHR %C %a %b %c
%n = OpCooperativeMatrixLengthKHR %uint %A
OpCooperativeMatrixStoreKHR %p %r %uint_1 %uint_16
OpReturn
OpFunctionEnd
)",
                  d, 6);
  ASSERT_TRUE(d.module) << d.error;
  std::string text = toString(*d.module);
  for (std::string_view expected :
       {", <RowMajor>, <Volatile> : !spirv.ptr<f32, StorageBuffer>, i32 -> "
        "!spirv.coopmatrix<16x16xf32, Subgroup, MatrixA>",
        ", <ColumnMajor> : !spirv.ptr<f32, StorageBuffer>, i32 -> "
        "!spirv.coopmatrix<16x16xf32, Subgroup, MatrixB>",
        " : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf32, "
        "Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>",
        "= spirv.KHR.CooperativeMatrixLength : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixA>",
        ", <ColumnMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, "
        "Subgroup, MatrixAcc>, i32\n"})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  EXPECT_EQ(roundTripsEverywhere(d, "vulkan1.3"), "");
  // MLIR's names for the matrix operands, and the grammar's too, read back.
  Context ctx;
  std::string mulAdd = text;
  size_t at = mulAdd.find(" : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixA>, ");
  ASSERT_NE(at, std::string::npos);
  mulAdd.insert(at, ", <ASigned | AccSat>");
  Expected<OwningOp> back = parse(ctx, mulAdd);
  ASSERT_TRUE(bool(back)) << back.error().format("t");
  EXPECT_NE(toString(**back).find(", <ASigned|AccSat> : "), std::string::npos);
}

TEST(DialectSerialization, ForwardPointersKeepTheirArrayStride) {
  // A struct holds a physical storage buffer pointer declared with OpTypeForwardPointer and
  // decorated ArrayStride (Slang's buffer references): the member's type and an OpLoad of it
  // are the same strided pointer type, and the round trip stays valid.
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main" %pc
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %pM ArrayStride 16
OpMemberDecorate %M 0 Offset 0
OpDecorate %M Block
OpMemberDecorate %P 0 Offset 0
OpDecorate %P Block
OpTypeForwardPointer %pM PhysicalStorageBuffer
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%P = OpTypeStruct %pM
%M = OpTypeStruct %v4
%pM = OpTypePointer PhysicalStorageBuffer %M
%ppc = OpTypePointer PushConstant %P
%pcM = OpTypePointer PushConstant %pM
%pv4 = OpTypePointer PhysicalStorageBuffer %v4
%pc = OpVariable %ppc PushConstant
%main = OpFunction %void None %fn
%e = OpLabel
%a = OpAccessChain %pcM %pc %int_0
%m = OpLoad %pM %a
%v = OpAccessChain %pv4 %m %int_0
%x = OpLoad %v4 %v Aligned 16
OpReturn
OpFunctionEnd
)",
                  d, 5);
  ASSERT_TRUE(d.module) << d.error;
  std::string text = toString(*d.module);
  EXPECT_EQ(text.find("PhysicalStorageBuffer>"), std::string::npos) << text; // every one strided
  EXPECT_NE(text.find("PhysicalStorageBuffer, stride=16>"), std::string::npos) << text;
  EXPECT_EQ(roundTripsEverywhere(d, "vulkan1.2"), "");
}

TEST(DialectSerialization, CooperativeMatricesSizedBySpecializationConstants) {
  // glslang's spv.coopmat.comp in small: NV matrices sized by an OpSpecConstantOp (a module-level
  // symbol then) and an OpSpecConstantOp of CooperativeMatrixLengthNV, whose operand is a type.
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
OpCapability Float16
OpCapability CooperativeMatrixNV
OpExtension "SPV_NV_cooperative_matrix"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 32 1 1
OpName %n "n"
OpName %z "z"
OpDecorate %n SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%int_8 = OpConstant %int 8
%half_0 = OpConstant %half 0
%n = OpSpecConstant %int 2
%z = OpSpecConstantOp %int IMul %int_8 %n
%A = OpTypeCooperativeMatrixNV %half %uint_3 %z %uint_8
%B = OpTypeCooperativeMatrixNV %half %uint_3 %uint_8 %z
%C = OpTypeCooperativeMatrixNV %half %uint_3 %z %z
%pC = OpTypePointer Function %C
%len = OpSpecConstantOp %uint CooperativeMatrixLengthNV %A
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %pC Function
%a = OpCompositeConstruct %A %half_0
%b = OpCompositeConstruct %B %half_0
%c = OpCompositeConstruct %C %half_0
%r = OpCooperativeMatrixMulAddNV %C %a %b %c
OpStore %v %r
%l = OpIAdd %uint %len %uint_8
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *z = first(d.module.get(), ops::specConstantOperationSymbol());
  ASSERT_TRUE(z);
  EXPECT_EQ(z->attr("sym_name").str(), "z");
  std::string text = toString(*d.module);
  for (std::string_view expected :
       {"spirv.Variable : !spirv.ptr<!spirv.NV.coopmatrix<@z x @z x f16, Subgroup>, Function>",
        "spirv.NV.CooperativeMatrixMulAdd %1, %2, %3 : !spirv.NV.coopmatrix<@z x 8 x f16, "
        "Subgroup>, !spirv.NV.coopmatrix<8 x @z x f16, Subgroup> -> !spirv.NV.coopmatrix<@z x @z x "
        "f16, Subgroup>",
        "spirv.SpecConstantOperation wraps \"spirv.NV.CooperativeMatrixLength\"() "
        "{cooperative_matrix_type = !spirv.NV.coopmatrix<@z x 8 x f16, Subgroup>} : () -> i32"})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  EXPECT_EQ(roundTripsEverywhere(d, "vulkan1.1"), "");
  // The serialized module declares the matrices with the specialization constant's id and
  // reads back to the same text.
  Expected<Module> m = serializedModule(*d.module);
  ASSERT_TRUE(bool(m)) << m.error().format();
  Context ctx;
  Expected<OwningOp> again = deserialize(ctx, *m);
  ASSERT_TRUE(bool(again)) << again.error().message;
  EXPECT_EQ(toString(**again), text);
}

TEST(DialectSerialization, KhrCooperativeMatricesSizedBySpecializationConstants) {
  // Scope, rows, columns and use of KHR matrices may be specialization constants too; the text
  // is parsed, serialized to a valid module and deserialized to the same text.
  if (!findOp("spirv.KHR.CooperativeMatrixMulAdd"))
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_cooperative_matrix";
  const std::string text =
      R"(spirv.module Logical Vulkan requires #spirv.vce<v1.6, [Shader, VulkanMemoryModel, CooperativeMatrixKHR], [SPV_KHR_cooperative_matrix]> {
  spirv.SpecConstant @n spec_id(0) = 16 : i32
  spirv.SpecConstant @s spec_id(1) = 3 : i32
  spirv.SpecConstant @u spec_id(2) = 2 : i32
  spirv.func @main() "None" {
    %cst_f32 = spirv.Constant 0.000000e+00 : f32
    %0 = spirv.CompositeConstruct %cst_f32 : (f32) -> !spirv.coopmatrix<@n x 16 x f32, @s, MatrixA>
    %cst_f32_0 = spirv.Constant 0.000000e+00 : f32
    %1 = spirv.CompositeConstruct %cst_f32_0 : (f32) -> !spirv.coopmatrix<16 x @n x f32, Subgroup, MatrixB>
    %cst_f32_1 = spirv.Constant 0.000000e+00 : f32
    %2 = spirv.CompositeConstruct %cst_f32_1 : (f32) -> !spirv.coopmatrix<@n x @n x f32, Subgroup, @u>
    %3 = spirv.KHR.CooperativeMatrixMulAdd %0, %1, %2 : !spirv.coopmatrix<@n x 16 x f32, @s, MatrixA>, !spirv.coopmatrix<16 x @n x f32, Subgroup, MatrixB> -> !spirv.coopmatrix<@n x @n x f32, Subgroup, @u>
    %4 = spirv.SpecConstantOperation wraps "spirv.KHR.CooperativeMatrixLength"() {cooperative_matrix_type = !spirv.coopmatrix<@n x @n x f32, Subgroup, @u>} : () -> i32
    %cst1_i32 = spirv.Constant 1 : i32
    %5 = spirv.IAdd %4, %cst1_i32 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
)";
  Context ctx;
  Expected<OwningOp> parsed = parse(ctx, text);
  ASSERT_TRUE(bool(parsed)) << parsed.error().format("t");
  ASSERT_TRUE(bool(verify(**parsed)));
  EXPECT_EQ(toString(**parsed), text);
  EXPECT_EQ(serializeAndValidate(**parsed, "vulkan1.3"), "");
  Expected<Module> m = serializedModule(**parsed);
  ASSERT_TRUE(bool(m)) << m.error().format();
  Context back;
  Expected<OwningOp> again = deserialize(back, *m);
  ASSERT_TRUE(bool(again)) << again.error().message;
  EXPECT_EQ(toString(**again), text);
}

TEST(DialectSerialization, TypesNamingUndefinedSymbolsDoNotSerialize) {
  Context ctx;
  Expected<OwningOp> parsed = parse(
      ctx,
      R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Float16, CooperativeMatrixNV], [SPV_NV_cooperative_matrix]> {
  spirv.GlobalVariable @m : !spirv.ptr<!spirv.NV.coopmatrix<@missing x 8 x f16, Subgroup>, Private>
}
)");
  ASSERT_TRUE(bool(parsed)) << parsed.error().format("t");
  Expected<std::vector<uint32_t>> words = serialize(**parsed);
  ASSERT_FALSE(bool(words));
  EXPECT_NE(words.error().message.find("@missing"), std::string::npos) << words.error().message;
}

TEST(DialectSerialization, CopyLogicalBetweenTypesTheDialectMergesIsCopyObject) {
  // Two identical literal structs are one dialect type, so OpCopyLogical between them would
  // serialize as a copy to the operand's own type, which 3.32.12 forbids: it becomes
  // spirv.CopyObject. Between structs that stay distinct (one has a name) it stays.
  Deserialized d;
  deserializeText(R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %main "main"
OpName %s3 "S3"
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%void = OpTypeVoid
%s1 = OpTypeStruct %uint %float
%s2 = OpTypeStruct %uint %float
%s3 = OpTypeStruct %uint %float
%p2 = OpTypePointer CrossWorkgroup %s2
%fn = OpTypeFunction %void %p2
%uint_1024 = OpConstant %uint 1024
%float_1 = OpConstant %float 1
%c = OpConstantComposite %s1 %uint_1024 %float_1
%main = OpFunction %void None %fn
%out = OpFunctionParameter %p2
%entry = OpLabel
%copy = OpCopyLogical %s2 %c
OpStore %out %copy
%other = OpCopyLogical %s3 %c
OpReturn
OpFunctionEnd
)",
                  d, 4);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(count(d.module.get(), *findOp("spirv.CopyObject")), 1u);
  EXPECT_EQ(count(d.module.get(), *findOp("spirv.CopyLogical")), 1u);
  EXPECT_EQ(roundTripsEverywhere(d, "spv1.4"), "");
}

namespace {

/// How many instructions of each of `opcodes` the serialized module has, in their order.
std::vector<size_t> serializedCounts(const Operation &module,
                                     std::initializer_list<grammar::Op> opcodes) {
  std::vector<size_t> out(opcodes.size());
  Expected<std::vector<uint32_t>> words = serialize(module);
  EXPECT_TRUE(bool(words)) << (words ? "" : words.error().message);
  if (!words)
    return out;
  Expected<Module> m = Module::fromWords(std::move(words).value());
  EXPECT_TRUE(bool(m));
  if (m)
    for (Instruction inst : *m)
      for (size_t k = 0; k < opcodes.size(); ++k)
        out[k] += inst.opcode() == opcodes.begin()[k];
  return out;
}

} // namespace

TEST(DialectSerialization, ValuesThreadedOutOfAConstructNeedNoPhi) {
  // An image loaded inside a selection and sampled after it is a result of the selection (a
  // region's values stay inside it); every branch to the merge block passes that one image, so
  // the serialized module uses it directly: shaders may not have phis of images (spirv-val:
  // "Result type cannot be OpTypeImage").
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginUpperLeft
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
OpDecorate %smp DescriptorSet 0
OpDecorate %smp Binding 1
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%pimg = OpTypePointer UniformConstant %img
%sampler = OpTypeSampler
%psampler = OpTypePointer UniformConstant %sampler
%simg = OpTypeSampledImage %img
%pout = OpTypePointer Output %v4float
%tex = OpVariable %pimg UniformConstant
%smp = OpVariable %psampler UniformConstant
%out = OpVariable %pout Output
%int_0 = OpConstant %int 0
%float_0 = OpConstant %float 0
%coord = OpConstantComposite %v2float %float_0 %float_0
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %int_0 %body
%body = OpLabel
%i = OpLoad %img %tex
OpBranch %merge
%merge = OpLabel
%s = OpLoad %sampler %smp
%si = OpSampledImage %simg %i %s
%v = OpImageSampleImplicitLod %v4float %si %coord
OpStore %out %v
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *selection = first(d.module.get(), ops::selection());
  ASSERT_TRUE(selection);
  EXPECT_EQ(selection->numResults(), 1u);
  EXPECT_EQ(serializedCounts(*d.module, {grammar::Op::Phi, grammar::Op::Undef}),
            (std::vector<size_t>{0, 0}));
  EXPECT_EQ(roundTripsEverywhere(d, "vulkan1.1"), "");
}

TEST(DialectSerialization, NullInitializersStayWhole) {
  // OpConstantNull as an initializer stays #spirv.null and serializes to OpConstantNull again:
  // Vulkan initializes Workgroup variables with nothing else
  // (VUID-StandaloneSpirv-OpVariable-04734).
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%null = OpConstantNull %v4float
%pw = OpTypePointer Workgroup %v4float
%w = OpVariable %pw Workgroup %null
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad %v4float %w
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *var = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(var);
  EXPECT_EQ(toString(var->attr("initializer")), "#spirv.null");
  EXPECT_EQ(
      serializedCounts(*d.module, {grammar::Op::ConstantNull, grammar::Op::ConstantComposite}),
      (std::vector<size_t>{1, 0}));
  EXPECT_EQ(roundTripsEverywhere(d, "vulkan1.1"), "");
}

TEST(DialectSerialization, ImagesKeepTheirAccessQualifier) {
  // OpenCL requires OpTypeImage's access qualifier; the image type keeps it.
  Deserialized d;
  deserializeText(R"(
OpCapability Addresses
OpCapability Kernel
OpCapability ImageBasic
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%img = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly
%kfn = OpTypeFunction %void %img
%k = OpFunction %void None %kfn
%i = OpFunctionParameter %img
%entry = OpLabel
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_NE(toString(*d.module).find("!spirv.image<none, Dim2D, NoDepth, NonArrayed, "
                                     "SingleSampled, SamplerUnknown, Unknown, WriteOnly>"),
            std::string::npos);
  EXPECT_EQ(roundTripsEverywhere(d, "opencl2.0"), "");
}

TEST(DialectSerialization, GlobalVariablesWithIdDecorations) {
  // OpDecorateId's constant is declared while the variable is written: the dialect fuzz target
  // found its words inside the OpVariable, which then did not read back.
  Deserialized d;
  deserializeText(kernel(R"(
OpDecorate %g LinkageAttributes "g" Export
OpDecorateId %g AlignmentId %uint_16
)",
                         R"(
%puint = OpTypePointer CrossWorkgroup %uint
%g = OpVariable %puint CrossWorkgroup %uint_2
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *g = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(g);
  EXPECT_EQ(toString(g->attr("alignment_id")), "16 : i32");
  EXPECT_EQ(roundTripsEverywhere(d, "spv1.3"), "");
}

TEST(DialectSerialization, NullsTooLargeToSpellOutStayNull) {
  // A null structure holding an array of 70000 elements stays #spirv.null (spelled out, one
  // composite of it would need more than 65535 words: the dialect fuzz target found such a
  // module that did not read back, and one whose null array of 2^28 elements exhausted memory),
  // and is written as the null it was.
  Deserialized d;
  deserializeText(kernel("", R"(
%n = OpConstant %uint 70000
%arr = OpTypeArray %uint %n
%S = OpTypeStruct %arr %uint
%null = OpConstantNull %S
%main = OpFunction %void None %fn
%entry = OpLabel
%copy = OpCopyObject %S %null
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Expected<Module> m = serializedModule(*d.module);
  ASSERT_TRUE(bool(m)) << m.error().format();
  size_t nulls = 0;
  for (Instruction inst : *m)
    nulls += inst.opcode() == grammar::Op::ConstantNull;
  EXPECT_EQ(nulls, 1u);
  EXPECT_TRUE(val::validate(*m, val::Options{}).valid());
  // 2^28 elements: deserialized and printed in the size of the module, not of the array.
  Deserialized huge;
  deserializeText(kernel("", R"(
%n = OpConstant %uint 268435456
%arr = OpTypeArray %uint %n
%null = OpConstantNull %arr
%parr = OpTypePointer CrossWorkgroup %arr
%g = OpVariable %parr CrossWorkgroup %null
%main = OpFunction %void None %fn
%entry = OpLabel
%copy = OpCopyObject %arr %null
OpReturn
OpFunctionEnd
)"),
                  huge);
  ASSERT_TRUE(huge.module) << huge.error;
  EXPECT_NE(toString(*huge.module).find("#spirv.null"), std::string::npos);
  EXPECT_EQ(roundTripsEverywhere(huge, "spv1.3"), "");
}

TEST(DialectSerialization, AnInstructionTooLongForItsWordCountIsAnError) {
  // A struct of 70000 members needs an OpTypeStruct of 70002 words; its word count (16 bits)
  // cannot say that, so writing it would make an unreadable binary.
  std::string members;
  for (int i = 0; i < 70000; ++i)
    members += i ? ", f32" : "f32";
  std::string text = "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {\n"
                     "  spirv.GlobalVariable @big : !spirv.ptr<!spirv.struct<(" +
                     members + ")>, Private>\n}\n";
  Context ctx;
  Expected<OwningOp> m = parse(ctx, text);
  ASSERT_TRUE(m) << m.error().message;
  Expected<std::vector<uint32_t>> words = serialize(**m);
  ASSERT_FALSE(words);
  EXPECT_NE(words.error().message.find("OpTypeStruct needs more than 65535 words"),
            std::string::npos)
      << words.error().message;
}

TEST(DialectSerialization, GenericCastToPtrExplicitTakesItsStorageFromTheResultType) {
  // OpGenericCastToPtrExplicit's Storage is always its result's storage class: the op has no
  // attribute for it (MLIR's has none), and the serializer writes the result's again.
  Deserialized d;
  deserializeText(kernel("", R"(
%pgen = OpTypePointer Generic %uint
%pwg = OpTypePointer Workgroup %uint
%fnp = OpTypeFunction %void %pgen
%main = OpFunction %void None %fnp
%g = OpFunctionParameter %pgen
%entry = OpLabel
%w = OpGenericCastToPtrExplicit %pwg %g Workgroup
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *cast = first(d.module.get(), *findOp("spirv.GenericCastToPtrExplicit"));
  ASSERT_TRUE(cast);
  EXPECT_TRUE(cast->attributes().empty());
  PrintOptions generic;
  generic.generic = true;
  EXPECT_NE(toString(*d.module, generic)
                .find("\"spirv.GenericCastToPtrExplicit\"(%arg0) : (!spirv.ptr<i32, Generic>) -> "
                      "!spirv.ptr<i32, Workgroup>"),
            std::string::npos)
      << toString(*d.module, generic);
  EXPECT_EQ(roundTripsEverywhere(d, "spv1.3"), "");
  Expected<Module> m = serializedModule(*d.module);
  ASSERT_TRUE(m) << m.error().message;
  bool found = false;
  for (Instruction inst : *m)
    if (inst.opcode() == grammar::Op::GenericCastToPtrExplicit) {
      found = true;
      EXPECT_EQ(inst.word(4), uint32_t(grammar::StorageClass::Workgroup));
    }
  EXPECT_TRUE(found);
  // A Storage other than the result's (invalid SPIR-V) has no IR to go to.
  Deserialized bad;
  deserializeText(kernel("", R"(
%pgen = OpTypePointer Generic %uint
%pwg = OpTypePointer Workgroup %uint
%fnp = OpTypeFunction %void %pgen
%main = OpFunction %void None %fnp
%g = OpFunctionParameter %pgen
%entry = OpLabel
%w = OpGenericCastToPtrExplicit %pwg %g Function
OpReturn
OpFunctionEnd
)"),
                  bad);
  EXPECT_FALSE(bad.module);
  EXPECT_NE(bad.error.find("the storage class operand of spirv.GenericCastToPtrExplicit must be "
                           "its result type's"),
            std::string::npos)
      << bad.error;
}

namespace {

/// The serialized module's annotations as spirv-dis prints them, one per line.
std::string serializedAnnotations(const Operation &module) {
  Expected<Module> m = serializedModule(module);
  if (!m)
    return "serialize and read back: " + m.error().message;
  std::string text = disassemble(*m), out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? text.size() : end + 1;
    if (line.find("Decorate") != std::string::npos)
      out += line.substr(line.find_first_not_of(' ')) + "\n";
  }
  return out;
}

/// A fragment shader of SPIR-V 1.`minor` with `header` after its capability, `annotations`
/// on its input %a (location 0) and output %o, and a struct %S in a uniform block.
std::string decoratedShader(std::string_view header, std::string_view annotations) {
  return "OpCapability Shader\n" + std::string(header) +
         "\nOpMemoryModel Logical GLSL450\nOpEntryPoint Fragment %main \"main\" %a %o\n"
         "OpExecutionMode %main OriginUpperLeft\nOpDecorate %a Location 0\n"
         "OpDecorate %o Location 0\nOpMemberDecorate %S 0 Offset 0\nOpDecorate %S Block\n"
         "OpDecorate %u DescriptorSet 0\nOpDecorate %u Binding 0\n" +
         std::string(annotations) +
         "\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n"
         "%v4 = OpTypeVector %float 4\n%pi = OpTypePointer Input %v4\n"
         "%po = OpTypePointer Output %v4\n%S = OpTypeStruct %v4\n%pS = OpTypePointer Uniform %S\n"
         "%a = OpVariable %pi Input\n%o = OpVariable %po Output\n%u = OpVariable %pS Uniform\n"
         "%main = OpFunction %void None %fn\n%l = OpLabel\n%x = OpLoad %v4 %a\n"
         "OpStore %o %x\nOpReturn\nOpFunctionEnd\n";
}

} // namespace

TEST(DialectSerialization, StringDecorationsKeepTheirWords) {
  // GL_EXT_spirv_intrinsics' spirv_decorate_string and HLSL semantics: a decoration whose
  // operand is a literal string, given by OpDecorateString or (before SPIR-V 1.4 without
  // SPV_GOOGLE_decorate_string) by OpDecorate, reads as a string attribute and is written back
  // whole, by the instruction the module can have. Strings of 4 bytes (a word of characters and
  // one of the terminator) and empty ones included.
  const std::string_view functionality =
      "OpExtension \"SPV_GOOGLE_hlsl_functionality1\"\nOpExtension \"SPV_GOOGLE_user_type\"";
  {
    // OpDecorate with strings in SPIR-V 1.0: read as strings, written by OpDecorateString where
    // the extension allows it.
    Deserialized d;
    deserializeText(decoratedShader(functionality, "OpDecorate %a UserSemantic \"TEXCOORD\"\n"
                                                   "OpDecorate %o UserTypeGOOGLE \"abcd\""),
                    d, 0);
    ASSERT_TRUE(d.module) << d.error;
    std::string text = toString(*d.module);
    EXPECT_NE(text.find("user_semantic = \"TEXCOORD\""), std::string::npos) << text;
    EXPECT_NE(text.find("user_type_google = \"abcd\""), std::string::npos) << text;
    EXPECT_EQ(roundTripsEverywhere(d, "spv1.0"), "");
    std::string annotations = serializedAnnotations(*d.module);
    EXPECT_NE(annotations.find("OpDecorateString %spirv_var_2 UserSemantic \"TEXCOORD\""),
              std::string::npos)
        << annotations;
  }
  {
    // Only SPV_GOOGLE_user_type: no OpDecorateString before 1.4, so OpDecorate carries it.
    Deserialized d;
    deserializeText(decoratedShader("OpExtension \"SPV_GOOGLE_user_type\"",
                                    "OpDecorate %a UserTypeGOOGLE \"texture2d\"\n"
                                    "OpDecorate %o UserTypeGOOGLE \"\""),
                    d, 0);
    ASSERT_TRUE(d.module) << d.error;
    EXPECT_EQ(roundTripsEverywhere(d, "spv1.0"), "");
    std::string annotations = serializedAnnotations(*d.module);
    EXPECT_NE(annotations.find("OpDecorate %spirv_var_2 UserTypeGOOGLE \"texture2d\""),
              std::string::npos)
        << annotations;
    EXPECT_NE(annotations.find("OpDecorate %spirv_var_3 UserTypeGOOGLE \"\""), std::string::npos)
        << annotations;
  }
  {
    // SPIR-V 1.4: OpDecorateString, as read.
    Deserialized d;
    deserializeText(decoratedShader(functionality, "OpDecorateString %a UserSemantic \"COLOR0\""),
                    d, 4);
    ASSERT_TRUE(d.module) << d.error;
    EXPECT_EQ(roundTripsEverywhere(d, "spv1.4"), "");
    EXPECT_NE(serializedAnnotations(*d.module).find("OpDecorateString %spirv_var_2 UserSemantic "
                                                    "\"COLOR0\""),
              std::string::npos);
  }
  {
    // A member's and a struct's own strings are part of the struct type, of any length, by
    // OpMemberDecorateString or OpMemberDecorate, and are written back whole.
    Deserialized d;
    deserializeText(decoratedShader(functionality,
                                    "OpMemberDecorateString %S 0 UserSemantic \"MEMBER_SEMANTIC\"\n"
                                    "OpMemberDecorate %S 0 UserSemantic \"LONG_SEMANTIC\"\n"
                                    "OpDecorateString %S UserTypeGOOGLE \"cbuffer\""),
                    d, 4);
    ASSERT_TRUE(d.module) << d.error;
    const std::string text = toString(*d.module);
    EXPECT_NE(text.find("(vector<4xf32> [0, UserSemantic=\"MEMBER_SEMANTIC\", "
                        "UserSemantic=\"LONG_SEMANTIC\"]), Block, UserTypeGOOGLE=\"cbuffer\">"),
              std::string::npos)
        << text;
    EXPECT_EQ(roundTripsEverywhere(d, "spv1.4"), "");
    const std::string annotations = serializedAnnotations(*d.module);
    // The struct has no name: "%_struct_N".
    for (std::string_view line :
         {"OpMemberDecorateString %_struct_9 0 UserSemantic \"MEMBER_SEMANTIC\"",
          "OpMemberDecorateString %_struct_9 0 UserSemantic \"LONG_SEMANTIC\"",
          "OpDecorateString %_struct_9 UserTypeGOOGLE \"cbuffer\""})
      EXPECT_NE(annotations.find(line), std::string::npos) << line << "\n" << annotations;
  }
  {
    // SPIR-V 1.0 with only SPV_GOOGLE_user_type: OpMemberDecorate carries the string; an empty
    // string stays a string.
    Deserialized d;
    deserializeText(decoratedShader("OpExtension \"SPV_GOOGLE_user_type\"",
                                    "OpMemberDecorate %S 0 UserTypeGOOGLE \"structuredbuffer\"\n"
                                    "OpDecorate %S UserTypeGOOGLE \"\""),
                    d, 0);
    ASSERT_TRUE(d.module) << d.error;
    EXPECT_EQ(roundTripsEverywhere(d, "spv1.0"), "");
    const std::string annotations = serializedAnnotations(*d.module);
    EXPECT_NE(annotations.find("OpMemberDecorate %_struct_9 0 UserTypeGOOGLE \"structuredbuffer\""),
              std::string::npos)
        << annotations;
    EXPECT_NE(annotations.find("OpDecorate %_struct_9 UserTypeGOOGLE \"\""), std::string::npos)
        << annotations;
  }
  {
    // Two strings (MergeINTEL, which the grammar names MergeALTERA) have no place in the
    // struct type: refused, not cut.
    Deserialized d;
    deserializeText(
        decoratedShader(functionality, "OpMemberDecorate %S 0 MergeINTEL \"k\" \"depth\""), d, 4);
    EXPECT_FALSE(d.module);
    EXPECT_NE(d.error.find("decoration MergeALTERA of a struct or its member"), std::string::npos)
        << d.error;
  }
  {
    // A string where the decoration takes a number is a parse error.
    Context ctx;
    Expected<Type> t = parseType(ctx, "!spirv.struct<(f32 [0, Offset=\"x\"])>");
    ASSERT_FALSE(t);
    EXPECT_NE(t.error().message.find("decoration Offset takes no string"), std::string::npos)
        << t.error().message;
  }
}

TEST(DialectSerialization, StridedAndPlainPointersToOneTypeStayDistinct) {
  // Variable pointers: two OpTypePointer of one storage class and pointee, one decorated
  // ArrayStride (what OpPtrAccessChain steps by); the round trip keeps two declarations, the
  // decoration on the one that had it.
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %ra ArrayStride 4
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %pfs ArrayStride 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%ra = OpTypeRuntimeArray %float
%S = OpTypeStruct %ra
%pS = OpTypePointer StorageBuffer %S
%pfs = OpTypePointer StorageBuffer %float
%pf = OpTypePointer StorageBuffer %float
%fnp = OpTypeFunction %void %pfs
%buf = OpVariable %pS StorageBuffer
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpAccessChain %pf %buf %u0 %u0
%v = OpLoad %float %a
%b = OpAccessChain %pfs %buf %u0 %u1
%r = OpFunctionCall %void %g %b
OpStore %a %v
OpReturn
OpFunctionEnd
%g = OpFunction %void None %fnp
%p = OpFunctionParameter %pfs
%gl = OpLabel
%c = OpPtrAccessChain %pfs %p %u1
%w = OpLoad %float %c
OpStore %p %w
OpReturn
OpFunctionEnd
)",
                  d, 3);
  ASSERT_TRUE(d.module) << d.error;
  std::string text = toString(*d.module);
  EXPECT_NE(text.find("!spirv.ptr<f32, StorageBuffer, stride=4>"), std::string::npos) << text;
  EXPECT_EQ(roundTripsEverywhere(d, "vulkan1.1"), "");
  Expected<Module> m = serializedModule(*d.module);
  ASSERT_TRUE(bool(m));
  std::string dis = disassemble(*m);
  size_t pointers = 0;
  for (size_t at = dis.find("OpTypePointer StorageBuffer %float"); at != std::string::npos;
       at = dis.find("OpTypePointer StorageBuffer %float", at + 1))
    ++pointers;
  EXPECT_EQ(pointers, 2u) << dis;
  EXPECT_TRUE(dis.find("OpDecorate %_ptr_StorageBuffer_float ArrayStride 4") != std::string::npos ||
              dis.find("OpDecorate %_ptr_StorageBuffer_float_0 ArrayStride 4") != std::string::npos)
      << dis;
}

TEST(DialectSerialization, DecorationsOfNumbersNoGrammarNamesAreWritten) {
  // `decoration_N` is how a decoration of a number the grammar does not know would read; it is
  // written as OpDecorate N with its literals, not dropped. A known name stays a known one.
  Context ctx;
  Expected<OwningOp> m =
      parse(ctx, R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage], []> {
  spirv.GlobalVariable @g {decoration_65000 = [1 : i32, 2 : i32], decoration_64999} : !spirv.ptr<f32, Private>
}
)");
  ASSERT_TRUE(bool(m)) << m.error().message;
  Expected<std::vector<uint32_t>> words = serialize(**m);
  ASSERT_TRUE(bool(words)) << words.error().message;
  auto has = [&](std::vector<uint32_t> inst) {
    return std::search(words->begin(), words->end(), inst.begin(), inst.end()) != words->end();
  };
  const uint32_t decorate = static_cast<uint32_t>(grammar::Op::Decorate);
  EXPECT_TRUE(has({(5u << 16) | decorate}) && has({65000u, 1u, 2u}));
  EXPECT_TRUE(has({(3u << 16) | decorate}) && has({64999u}));
}

TEST(DialectSerialization, LinkageAttributesOnAParameterAreWrittenWhole) {
  // SPIR-V lets LinkageAttributes decorate a function parameter (found by dialect_fuzzer): the
  // argument attribute `spirv.linkage_attributes` is written back with its name and type, not as
  // an OpDecorate without operands.
  Deserialized d;
  deserializeText(R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
OpDecorate %p LinkageAttributes "outside" Export
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void %uint
%f = OpFunction %void None %fn
%p = OpFunctionParameter %uint
%l = OpLabel
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(serializeAndValidate(*d.module, "spv1.3"), "");
  EXPECT_NE(serializedAnnotations(*d.module).find("LinkageAttributes \"outside\" Export"),
            std::string::npos)
      << serializedAnnotations(*d.module);
}

TEST(DialectSerialization, AnAlignmentNotAPowerOfTwoIsAnError) {
  // MLIR's alignment attribute is a positive power of two; SPIR-V states no such rule for the
  // Alignment decoration (found by dialect_fuzzer): an error naming the decoration.
  auto text = [](uint32_t alignment) {
    return R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main"
OpDecorate %local Alignment )" +
           std::to_string(alignment) + R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ptr = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %ptr Function
OpReturn
OpFunctionEnd
)";
  };
  for (uint32_t bad : {3u, 520u}) {
    Deserialized d;
    deserializeText(text(bad), d);
    EXPECT_FALSE(d.module) << bad;
    EXPECT_NE(d.error.find("Alignment " + std::to_string(bad) + " is not a power of two"),
              std::string::npos)
        << d.error;
  }
  Deserialized good;
  deserializeText(text(8), good);
  EXPECT_TRUE(good.module) << good.error;
}

namespace {

/// The opcodes of a function body's control flow, in order: "L" a label, "S" OpSelectionMerge,
/// "M" OpLoopMerge, "B" OpBranch, "C" OpBranchConditional, "R" OpReturn.
std::string controlFlowShape(const Module &m) {
  constexpr std::pair<grammar::Op, char> kLetters[] = {{grammar::Op::Label, 'L'},
                                                       {grammar::Op::SelectionMerge, 'S'},
                                                       {grammar::Op::LoopMerge, 'M'},
                                                       {grammar::Op::Branch, 'B'},
                                                       {grammar::Op::BranchConditional, 'C'},
                                                       {grammar::Op::Return, 'R'}};
  std::string out;
  for (Instruction inst : m)
    for (const auto &[op, letter] : kLetters)
      if (inst.opcode() == op)
        out += letter;
  return out;
}

} // namespace

TEST(DialectSerialization, RoundTripKeepsTheBlocksOfTheModule) {
  // The entry block is a selection's header after ops of its own; the selection's merge block
  // branches to a loop header; after the loop, a block of its own that one branch enters. The
  // structured IR gives the selection's header and the loop blocks of their own; written back,
  // the header's ops continue the block before it and the loop's block is the one before it,
  // so the module has the blocks it had (MLIR's serializer adds a block for each), and a
  // block that the module had stays one.
  const std::string_view text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%pint = OpTypePointer Function %int
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i9 = OpConstant %int 9
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %pint Function
OpStore %v %i0
%c = OpSLessThan %bool %i0 %i1
OpSelectionMerge %sm None
OpBranchConditional %c %then %sm
%then = OpLabel
OpStore %v %i1
OpBranch %sm
%sm = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %lm %cont None
OpBranch %cond
%cond = OpLabel
%x = OpLoad %int %v
%more = OpSLessThan %bool %x %i9
OpBranchConditional %more %body %lm
%body = OpLabel
OpBranch %cont
%cont = OpLabel
%y = OpLoad %int %v
%z = OpIAdd %int %y %i1
OpStore %v %z
OpBranch %header
%lm = OpLabel
OpBranch %after
%after = OpLabel
OpStore %v %i9
OpReturn
OpFunctionEnd
)";
  Deserialized d;
  deserializeText(text, d);
  ASSERT_TRUE(d.module) << d.error;
  std::optional<Module> original;
  assembleText(text, original);
  ASSERT_TRUE(original);
  Expected<Module> back = serializedModule(*d.module);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(controlFlowShape(*back), controlFlowShape(*original));
  EXPECT_EQ(controlFlowShape(*back), "LSCLBLBLMBLCLBLBLBLR");
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}
