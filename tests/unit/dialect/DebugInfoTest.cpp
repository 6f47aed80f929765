// Debug information through the structured IR: source lines (OpLine) as ops' positions, which
// print and parse as MLIR's locations and serialize back where they were.
#include "spire/asm/Assembler.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Opcodes.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>

using namespace spire;
using namespace spire::dialect;

namespace {

Module assembleModule(std::string_view text) {
  AssembleOptions as;
  as.version = grammar::makeVersion(1, 3);
  Expected<std::vector<uint32_t>> words = assemble(text, as);
  EXPECT_TRUE(bool(words)) << words.error().format("<test>");
  Expected<Module> m =
      Module::fromWords(words ? std::move(words).value() : std::vector<uint32_t>{});
  EXPECT_TRUE(bool(m));
  return m ? std::move(m).value() : Module();
}

OwningOp deserializeModule(Context &ctx, const Module &m) {
  Expected<OwningOp> op = deserialize(ctx, m);
  EXPECT_TRUE(bool(op)) << (op ? "" : op.error().message);
  if (!op)
    return {};
  Status v = verify(**op);
  EXPECT_TRUE(bool(v)) << v.error().message;
  return std::move(op).value();
}

Module serializeModule(const Operation &op) {
  Expected<std::vector<uint32_t>> words = serialize(op);
  EXPECT_TRUE(bool(words)) << (words ? "" : words.error().message);
  Expected<Module> m =
      Module::fromWords(words ? std::move(words).value() : std::vector<uint32_t>{});
  EXPECT_TRUE(bool(m));
  return m ? std::move(m).value() : Module();
}

std::string validate(const Module &m) {
  val::Options options;
  options.env = *val::parseEnvironment("vulkan1.1");
  val::Report r = val::validate(m, options);
  std::string problems;
  for (const val::Problem &p : r.problems)
    if (p.severity == Severity::Error)
      problems += p.format("<serialized>") + "\n";
  return problems;
}

/// "file:line:col" of an op's position, "-" for none.
std::string where(const Operation *op) {
  const DebugLoc *l = op->debugLoc();
  return l ? std::string(l->file) + ":" + std::to_string(l->line) + ":" + std::to_string(l->column)
           : "-";
}

/// The first op named `name` (in walk order).
Operation *find(Operation *root, std::string_view name, int skip = 0) {
  Operation *found = nullptr;
  walk(root, [&](Operation *op) {
    if (!found && op->name() == name && skip-- == 0)
      found = op;
  });
  return found;
}

/// Each instruction's source line under SPIR-V's scoping (OpLine to the next OpLine or OpNoLine
/// or the end of the block), counted by opcode and line; labels and unconditional branches,
/// which a round trip adds where the dialect's regions need blocks of their own, left out.
std::map<std::tuple<uint32_t, std::string, uint32_t, uint32_t>, int> lineMap(const Module &m,
                                                                             int *opLines) {
  std::map<uint32_t, std::string> strings;
  std::map<std::tuple<uint32_t, std::string, uint32_t, uint32_t>, int> out;
  std::optional<std::tuple<std::string, uint32_t, uint32_t>> current;
  *opLines = 0;
  for (Instruction inst : m) {
    const grammar::Op op = inst.opcode();
    if (op == grammar::Op::String)
      strings[inst.word(1)] = inst.stringOperand(inst.operands()[1]);
    if (op == grammar::Op::Line) {
      ++*opLines;
      current = std::make_tuple(strings[inst.word(1)], inst.word(2), inst.word(3));
      continue;
    }
    if (op == grammar::Op::NoLine) {
      current.reset();
      continue;
    }
    if (current && op != grammar::Op::Label && op != grammar::Op::Branch)
      ++out[{static_cast<uint32_t>(op), std::get<0>(*current), std::get<1>(*current),
             std::get<2>(*current)}];
    if (isBlockTerminator(op))
      current.reset();
  }
  return out;
}

constexpr std::string_view kLines = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
%other = OpString "b.glsl"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%pint = OpTypePointer Function %int
%fnp = OpTypeFunction %int %pint
%int_1 = OpConstant %int 1
OpLine %file 3 7
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %pint Function
OpLine %file 4 2
OpStore %v %int_1
%x = OpLoad %int %v
OpNoLine
%y = OpIAdd %int %x %int_1
OpLine %other 9 1
%c = OpFunctionCall %int %helper %v
OpBranch %next
%next = OpLabel
OpStore %v %c
OpLine %file 6 0
OpReturn
OpFunctionEnd
OpLine %file 11 1
%helper = OpFunction %int None %fnp
%p = OpFunctionParameter %pint
%hb = OpLabel
%r = OpLoad %int %p
OpReturnValue %r
OpFunctionEnd
)";

TEST(DebugInfo, LinesBecomeOpPositions) {
  Context ctx;
  Module m = assembleModule(kLines);
  OwningOp module = deserializeModule(ctx, m);
  ASSERT_TRUE(module);
  // The line before a function covers it and its first block up to the next line.
  EXPECT_EQ(where(find(module.get(), "spirv.func")), "a.comp:3:7");
  EXPECT_EQ(where(find(module.get(), "spirv.Variable")), "a.comp:3:7");
  EXPECT_EQ(where(find(module.get(), "spirv.Store")), "a.comp:4:2");
  EXPECT_EQ(where(find(module.get(), "spirv.Load")), "a.comp:4:2");
  EXPECT_EQ(where(find(module.get(), "spirv.IAdd")), "-"); // after OpNoLine
  EXPECT_EQ(where(find(module.get(), "spirv.FunctionCall")), "b.glsl:9:1");
  EXPECT_EQ(where(find(module.get(), "spirv.Branch")), "b.glsl:9:1");
  // A block starts without a line.
  EXPECT_EQ(where(find(module.get(), "spirv.Store", 1)), "-");
  EXPECT_EQ(where(find(module.get(), "spirv.Return")), "a.comp:6:0");
  EXPECT_EQ(where(find(module.get(), "spirv.func", 1)), "a.comp:11:1");
  EXPECT_EQ(where(find(module.get(), "spirv.Load", 1)), "a.comp:11:1");
  // Constants materialized at their uses stand for no instruction there.
  EXPECT_EQ(where(find(module.get(), "spirv.Constant")), "-");
  // Equal positions are one.
  EXPECT_EQ(find(module.get(), "spirv.Store")->debugLoc(),
            find(module.get(), "spirv.Load")->debugLoc());
  EXPECT_EQ(fileLineCol(ctx, "a.comp", 4, 2), find(module.get(), "spirv.Load")->debugLoc());
}

TEST(DebugInfo, SerializedLinesMapTheSameInstructions) {
  Context ctx;
  Module m = assembleModule(kLines);
  OwningOp module = deserializeModule(ctx, m);
  ASSERT_TRUE(module);
  Module back = serializeModule(*module);
  EXPECT_EQ(validate(back), "");
  int before = 0, after = 0;
  auto expected = lineMap(m, &before);
  EXPECT_EQ(lineMap(back, &after), expected);
  EXPECT_EQ(after, before);
  EXPECT_EQ(before, 5);
  // OpNoLine where an op without a position follows one with.
  size_t noLines = 0;
  for (Instruction inst : back)
    noLines += inst.opcode() == grammar::Op::NoLine;
  EXPECT_EQ(noLines, 1u);
  // And the positions read back the same.
  Context again;
  OwningOp reread = deserializeModule(again, back);
  ASSERT_TRUE(reread);
  PrintOptions local;
  local.debugInfo = local.localScope = true;
  EXPECT_EQ(toString(*reread, local), toString(*module, local));
}

TEST(DebugInfo, NoPositionsNoLines) {
  // Text without positions serializes as it always did: no OpString, no OpLine.
  Context ctx;
  Module m = assembleModule(kLines);
  OwningOp module = deserializeModule(ctx, m);
  ASSERT_TRUE(module);
  walk(module.get(), [](Operation *op) { op->setDebugLoc(nullptr); });
  Module back = serializeModule(*module);
  for (Instruction inst : back) {
    EXPECT_NE(inst.opcode(), grammar::Op::Line);
    EXPECT_NE(inst.opcode(), grammar::Op::NoLine);
    EXPECT_NE(inst.opcode(), grammar::Op::String);
  }
  EXPECT_EQ(validate(back), "");
}

constexpr std::string_view kText =
    R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f(%arg0: i32) -> i32 "None" {
    %0 = spirv.IAdd %arg0, %arg0 : i32 loc(#loc2)
    %1 = spirv.IMul %0, %0 : i32 loc("x.comp":5:1)
    spirv.ReturnValue %1 : i32 loc(unknown)
  } loc(#loc1)
}
#loc1 = loc("x.comp":2:3)
#loc2 = loc("x \"quoted\".comp":4:0)
)";

TEST(DebugInfo, PrintsAndParsesLocations) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kText);
  ASSERT_TRUE(bool(op)) << op.error().message;
  EXPECT_EQ(where(find(op->get(), "spirv.func")), "x.comp:2:3");
  EXPECT_EQ(where(find(op->get(), "spirv.IAdd")), "x \"quoted\".comp:4:0");
  EXPECT_EQ(where(find(op->get(), "spirv.IMul")), "x.comp:5:1");
  EXPECT_EQ(where(find(op->get(), "spirv.ReturnValue")), "-");

  // As MLIR prints them: aliases numbered in print order, the unknown position's in front
  // when a block argument printed it in place, the others after the op.
  PrintOptions aliased;
  aliased.debugInfo = true;
  EXPECT_EQ(toString(**op, aliased),
            R"(#loc = loc(unknown)
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @f(%arg0: i32 loc(unknown)) -> i32 "None" {
    %0 = spirv.IAdd %arg0, %arg0 : i32 loc(#loc2)
    %1 = spirv.IMul %0, %0 : i32 loc(#loc3)
    spirv.ReturnValue %1 : i32 loc(#loc)
  } loc(#loc1)
} loc(#loc)
#loc1 = loc("x.comp":2:3)
#loc2 = loc("x \22quoted\22.comp":4:0)
#loc3 = loc("x.comp":5:1)
)");
  PrintOptions local = aliased;
  local.localScope = true;
  const std::string inPlace = toString(**op, local);
  EXPECT_NE(inPlace.find("%1 = spirv.IMul %0, %0 : i32 loc(\"x.comp\":5:1)\n"), std::string::npos);
  EXPECT_NE(inPlace.find("  } loc(\"x.comp\":2:3)\n} loc(unknown)\n"), std::string::npos);
  EXPECT_EQ(inPlace.find("#loc"), std::string::npos);
  // The generic form too, block arguments in their block's header.
  PrintOptions generic = aliased;
  generic.generic = true;
  const std::string genericText = toString(**op, generic);
  EXPECT_NE(genericText.find("^bb0(%arg0: i32 loc(unknown)):"), std::string::npos);
  EXPECT_NE(genericText.find(": (i32, i32) -> i32 loc(#loc2)\n"), std::string::npos);

  // Each form reads back to the same positions.
  for (const std::string &text : {toString(**op, aliased), inPlace, genericText}) {
    Context again;
    Expected<OwningOp> reread = parse(again, text);
    ASSERT_TRUE(bool(reread)) << reread.error().message << "\n" << text;
    EXPECT_EQ(toString(**reread, aliased), toString(**op, aliased));
  }
  // Without the option nothing changes.
  Context plainCtx;
  std::string withoutLocs(kText.substr(0, kText.find("#loc1 =")));
  for (std::string_view l : {" loc(#loc2)", " loc(\"x.comp\":5:1)", " loc(unknown)", " loc(#loc1)"})
    withoutLocs.erase(withoutLocs.find(l), l.size());
  Expected<OwningOp> plain = parse(plainCtx, withoutLocs);
  ASSERT_TRUE(bool(plain)) << plain.error().message;
  EXPECT_EQ(toString(**op), toString(**plain));
}

TEST(DebugInfo, LocationErrors) {
  Context ctx;
  std::string undefined(kText.substr(0, kText.find("#loc2 =")));
  Expected<OwningOp> op = parse(ctx, undefined);
  ASSERT_FALSE(bool(op));
  EXPECT_EQ(op.error().message, "undefined symbol alias id 'loc2'");
  EXPECT_EQ(op.error().location.line, 3u);

  Expected<OwningOp> twice = parse(ctx, std::string(kText) + "#loc1 = loc(unknown)\n");
  ASSERT_FALSE(bool(twice));
  EXPECT_EQ(twice.error().message, "redefinition of attribute alias id 'loc1'");

  // Locations spire does not keep (names, call sites, fused) read and are dropped.
  Expected<OwningOp> other =
      parse(ctx, "spirv.module Logical GLSL450 {\n} loc(callsite(\"foo\" at \"x.cc\":10:8))\n");
  ASSERT_TRUE(bool(other)) << other.error().message;
  EXPECT_EQ((*other)->debugLoc(), nullptr);
}

constexpr std::string_view kSources = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%unused = OpString "nothing names me"
%file = OpString "a.comp"
OpSourceExtension "GL_GOOGLE_include_directive"
OpSource GLSL 450 %file "#version 450
void main() {}
"
OpSourceContinued "// more text"
OpSource HLSL 500
OpName %main "main"
OpModuleProcessed "client vulkan100"
OpModuleProcessed "entry-point main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpLine %file 2 13
OpReturn
OpFunctionEnd
)";

/// The debug instructions of a module's sections 7a and 7c as text, in order.
std::string sourceInstructions(const Module &m) {
  std::map<uint32_t, std::string> strings;
  std::string out;
  for (Instruction inst : m) {
    switch (inst.opcode()) {
    case grammar::Op::String:
      strings[inst.word(1)] = inst.stringOperand(inst.operands()[1]);
      out += "String '" + strings[inst.word(1)] + "'\n";
      break;
    case grammar::Op::Source:
      out += "Source " + std::to_string(inst.word(1)) + " " + std::to_string(inst.word(2));
      if (inst.wordCount() > 3)
        out += " file '" + strings[inst.word(3)] + "'";
      if (inst.operands().size() > 3)
        out += " '" + inst.stringOperand(inst.operands()[3]) + "'";
      out += "\n";
      break;
    case grammar::Op::SourceContinued:
    case grammar::Op::SourceExtension:
    case grammar::Op::ModuleProcessed:
      out += std::string(inst.desc()->name) + " '" + inst.stringOperand(inst.operands()[0]) + "'\n";
      break;
    default:
      break;
    }
  }
  return out;
}

TEST(DebugInfo, SourceInstructionsAreModuleAttributes) {
  Context ctx;
  Module m = assembleModule(kSources);
  OwningOp module = deserializeModule(ctx, m);
  ASSERT_TRUE(module);
  const std::string text = toString(*module);
  EXPECT_NE(
      text.find(R"(attributes {spire.debug_source = [["OpString", "nothing names me"], )"
                R"(["OpSourceExtension", "GL_GOOGLE_include_directive"], ["OpSource", "GLSL", )"
                R"(450 : i32, "a.comp", "#version 450\0Avoid main() {}\0A"], )"
                R"(["OpSourceContinued", "// more text"], ["OpSource", "HLSL", 500 : i32]], )"
                R"(spire.module_processed = ["client vulkan100", "entry-point main"]} {)"),
      std::string::npos)
      << text;
  // Serialized in order, each string once: the one OpLine and OpSource name is "a.comp".
  Module back = serializeModule(*module);
  EXPECT_EQ(validate(back), "");
  EXPECT_EQ(sourceInstructions(back), R"(String 'nothing names me'
OpSourceExtension 'GL_GOOGLE_include_directive'
String 'a.comp'
Source 2 450 file 'a.comp' '#version 450
void main() {}
'
OpSourceContinued '// more text'
Source 5 500
OpModuleProcessed 'client vulkan100'
OpModuleProcessed 'entry-point main'
)");
  // The text reads back to the same module.
  Context again;
  Expected<OwningOp> reread = parse(again, text);
  ASSERT_TRUE(bool(reread)) << reread.error().message;
  EXPECT_EQ(sourceInstructions(serializeModule(**reread)), sourceInstructions(back));
  // A malformed entry is an error naming the attribute.
  const std::vector<Attribute> lone{attr::string(again, "OpSource")};
  const std::vector<Attribute> entries{attr::array(again, lone)};
  (*reread)->setAttr(again, "spire.debug_source", attr::array(again, entries));
  Expected<std::vector<uint32_t>> refused = serialize(**reread);
  ASSERT_FALSE(bool(refused));
  EXPECT_NE(refused.error().message.find("spire.debug_source: expected"), std::string::npos);
}

constexpr std::string_view kNonSemantic = R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
%printf = OpExtInstImport "NonSemantic.DebugPrintf"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
%text = OpString "void main() {}"
%uint_name = OpString "uint"
%main_name = OpString "main"
%i_name = OpString "i"
%fmt = OpString "i = %u"
OpSource GLSL 450 %file
OpName %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%puint = OpTypePointer Function %uint
%uint_32 = OpConstant %uint 32
%uint_6 = OpConstant %uint 6
%uint_0 = OpConstant %uint 0
%uint_3 = OpConstant %uint 3
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_4 = OpConstant %uint 4
%uint_7 = OpConstant %uint 7
%true = OpConstantTrue %bool
%basic = OpExtInst %void %dbg DebugTypeBasic %uint_name %uint_32 %uint_6 %uint_0
%source = OpExtInst %void %dbg DebugSource %file %text
%unit = OpExtInst %void %dbg DebugCompilationUnit %uint_1 %uint_4 %source %uint_2
%fntype = OpExtInst %void %dbg DebugTypeFunction %uint_3 %void
%function = OpExtInst %void %dbg DebugFunction %main_name %fntype %source %uint_3 %uint_0 %unit %main_name %uint_3 %uint_3
%expr = OpExtInst %void %dbg DebugExpression
%local = OpExtInst %void %dbg DebugLocalVariable %i_name %basic %source %uint_4 %uint_0 %function %uint_4
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpVariable %puint Function
%def = OpExtInst %void %dbg DebugFunctionDefinition %function %main
%scope = OpExtInst %void %dbg DebugScope %function
%line = OpExtInst %void %dbg DebugLine %source %uint_4 %uint_4 %uint_0 %uint_0
%decl = OpExtInst %void %dbg DebugDeclare %local %i %expr
OpStore %i %uint_7
%x = OpLoad %uint %i
%p = OpExtInst %void %printf 1 %fmt %x
OpReturn
OpFunctionEnd
)";

/// The non-semantic instructions of a module, as text with their operands' kinds: an id's
/// defining opcode (a string's text), a literal's value.
std::string nonSemanticInstructions(const Module &m) {
  std::map<uint32_t, std::string> strings;
  std::string out;
  for (Instruction inst : m) {
    if (inst.opcode() == grammar::Op::String)
      strings[inst.word(1)] = inst.stringOperand(inst.operands()[1]);
    if (inst.opcode() != grammar::Op::ExtInst || !m.extInstImport(inst.word(3)).describesOnly())
      continue;
    out += std::to_string(inst.word(4)) + "(";
    auto ops = inst.operands();
    for (size_t k = 4; k < ops.size(); ++k) {
      const uint32_t word = inst.words()[ops[k].offset];
      const uint32_t def = m.defIndex(word);
      if (grammar::operandCategory(ops[k].kind) != grammar::OperandCategory::Id)
        out += std::to_string(word);
      else if (strings.count(word))
        out += "'" + strings[word] + "'";
      else if (def != kNoIndex && m.inst(def).opcode() == grammar::Op::Constant)
        out += std::to_string(m.inst(def).word(3));
      else if (def != kNoIndex)
        out += m.inst(def).desc()->name;
      out += k + 1 < ops.size() ? ", " : "";
    }
    out += ")\n";
  }
  return out;
}

TEST(DebugInfo, NonSemanticInstructionsAreOps) {
  Context ctx;
  Module m = assembleModule(kNonSemantic);
  OwningOp module = deserializeModule(ctx, m);
  ASSERT_TRUE(module);
  const std::string text = toString(*module);
  for (
      std::string_view expected :
      {R"(spirv.spire.NonSemanticGlobal @dbg_)",
       R"( "NonSemantic.Shader.DebugInfo.100" DebugTypeBasic("uint", 32 : i32, 6 : i32, 0 : i32)
)",
       R"( "NonSemantic.Shader.DebugInfo.100" DebugTypeFunction(3 : i32, none)
)",
       R"( "NonSemantic.Shader.DebugInfo.100" DebugExpression()
)",
       R"( "NonSemantic.Shader.DebugInfo.100" DebugFunction("main", @dbg_)",
       R"(spirv.spire.NonSemantic "NonSemantic.Shader.DebugInfo.100" DebugFunctionDefinition(@dbg_)",
       R"(, @main)
)",
       R"(, 4 : i32, 4 : i32, 0 : i32, 0 : i32)
)",
       R"(spirv.spire.NonSemantic "NonSemantic.Shader.DebugInfo.100" DebugDeclare(@dbg_)",
       R"(, %0, @dbg_)",
       R"() : (!spirv.ptr<i32, Function>) -> ()
)",
       R"(spirv.spire.NonSemantic "NonSemantic.DebugPrintf" DebugPrintf("i = %u", %1) : )"
       R"((i32) -> ()
)"})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  // Strings that debug instructions name come back from them, not from spire.debug_source.
  EXPECT_NE(text.find(R"(spire.debug_source = [["OpSource", "GLSL", 450 : i32, "a.comp"]])"),
            std::string::npos)
      << text;
  Module back = serializeModule(*module);
  EXPECT_EQ(validate(back), "");
  EXPECT_EQ(nonSemanticInstructions(back), nonSemanticInstructions(m));
  EXPECT_EQ(nonSemanticInstructions(m), R"(2('uint', 32, 6, 0)
35('a.comp', 'void main() {}')
1(1, 4, OpExtInst, 2)
8(3, OpTypeVoid)
20('main', OpExtInst, OpExtInst, 3, 0, OpExtInst, 'main', 3, 3)
31()
26('i', OpExtInst, OpExtInst, 4, 0, OpExtInst, 4)
101(OpExtInst, OpFunction)
23(OpExtInst)
103(OpExtInst, 4, 4, 0, 0)
28(OpExtInst, OpVariable, OpExtInst)
1('i = %u', OpLoad)
)");
  // Text and generic text read back to the same module.
  for (bool generic : {false, true}) {
    PrintOptions options;
    options.generic = generic;
    Context again;
    Expected<OwningOp> reread = parse(again, toString(*module, options));
    ASSERT_TRUE(bool(reread)) << reread.error().message;
    Status v = verify(**reread);
    EXPECT_TRUE(bool(v)) << v.error().message;
    EXPECT_EQ(toString(**reread), text);
    EXPECT_EQ(nonSemanticInstructions(serializeModule(**reread)), nonSemanticInstructions(m));
  }
}

TEST(DebugInfo, NonSemanticErrors) {
  Context ctx;
  const std::string head = "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], "
                           "[SPV_KHR_non_semantic_info]> {\n";
  Expected<OwningOp> unknown =
      parse(ctx, head + "  spirv.spire.NonSemanticGlobal @d \"NonSemantic.Shader.DebugInfo.100\" "
                        "DebugNothing()\n}\n");
  ASSERT_FALSE(bool(unknown));
  EXPECT_EQ(unknown.error().message, "'DebugNothing' is no instruction of "
                                     "'NonSemantic.Shader.DebugInfo.100' (an instruction of a set "
                                     "spire has no grammar of is its number)");
  // An instruction of a set spire has no grammar of is its number.
  Expected<OwningOp> numbered = parse(
      ctx, head + "  spirv.spire.NonSemanticGlobal @d \"NonSemantic.Vendor.Thing\" 7(1 : i32)\n  "
                  "spirv.spire.NonSemanticGlobal @e \"NonSemantic.Vendor.Thing\" 8(@d)\n}\n");
  ASSERT_TRUE(bool(numbered)) << numbered.error().message;
  Module m = serializeModule(**numbered);
  EXPECT_EQ(nonSemanticInstructions(m), "7(1)\n8(OpExtInst)\n");
  // A symbol the module does not define.
  Expected<OwningOp> dangling = parse(
      ctx,
      head + "  spirv.spire.NonSemanticGlobal @d \"NonSemantic.Vendor.Thing\" 7(@nowhere)\n}\n");
  ASSERT_TRUE(bool(dangling));
  Expected<std::vector<uint32_t>> refused = serialize(**dangling);
  ASSERT_FALSE(bool(refused));
  EXPECT_EQ(refused.error().message,
            "spirv.spire.NonSemanticGlobal: names @nowhere, which the module does not define");
  // Module-level instructions have no SSA operands.
  Expected<OwningOp> local = parse(
      ctx, head + "  spirv.spire.NonSemanticGlobal @d \"NonSemantic.Vendor.Thing\" 7(%x)\n}\n");
  ASSERT_FALSE(bool(local));
  EXPECT_EQ(local.error().message, "a module-level instruction has no SSA operands");
}

constexpr std::string_view kOpenClDebugInfo = R"(
OpCapability Addresses
OpCapability Kernel
%ocl = OpExtInstImport "OpenCL.DebugInfo.100"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%file = OpString "k.cl"
%fname = OpString "float"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_32 = OpConstant %uint 32
%none = OpExtInst %void %ocl DebugInfoNone
%src = OpExtInst %void %ocl DebugSource %file
%cu = OpExtInst %void %ocl DebugCompilationUnit 65536 4 %src OpenCL_C
%basic = OpExtInst %void %ocl DebugTypeBasic %fname %uint_32 Float
%vec = OpExtInst %void %ocl DebugTypeVector %basic 4
%fntype = OpExtInst %void %ocl DebugTypeFunction None %void %basic %vec
%block = OpExtInst %void %ocl DebugLexicalBlock %src 3 1 %cu
%k = OpFunction %void None %fn
%e = OpLabel
%scope = OpExtInst %void %ocl DebugScope %block
OpReturn
OpFunctionEnd
)";

TEST(DebugInfo, OpenClDebugInfoLiterals) {
  // OpenCL.DebugInfo.100 has literal operands (numbers, enumerants): integers in the op, words
  // again where the set's grammar has a literal.
  Context ctx;
  Module m = assembleModule(kOpenClDebugInfo);
  OwningOp module = deserializeModule(ctx, m);
  ASSERT_TRUE(module);
  const std::string text = toString(*module);
  for (std::string_view expected :
       {R"("OpenCL.DebugInfo.100" DebugInfoNone()
)",
        R"("OpenCL.DebugInfo.100" DebugCompilationUnit(65536 : i32, 4 : i32, @dbg_)",
        R"(, 3 : i32)
)",
        R"("OpenCL.DebugInfo.100" DebugTypeBasic("float", 32 : i32, 3 : i32)
)",
        R"("OpenCL.DebugInfo.100" DebugTypeFunction(0 : i32, none, @dbg_)",
        R"(spirv.spire.NonSemantic "OpenCL.DebugInfo.100" DebugScope(@dbg_)"})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  Module back = serializeModule(*module);
  val::Options options;
  options.env = *val::parseEnvironment("opencl2.0");
  EXPECT_EQ(val::validate(back, options).errorCount(), 0u);
  EXPECT_EQ(nonSemanticInstructions(back), nonSemanticInstructions(m));
  EXPECT_EQ(nonSemanticInstructions(m), R"(0()
35('k.cl')
1(65536, 4, OpExtInst, 3)
2('float', 32, 3)
6(OpExtInst, 4)
8(0, OpTypeVoid, OpExtInst, OpExtInst)
21(OpExtInst, 3, 1, OpExtInst)
23(OpExtInst)
)");
}

} // namespace
