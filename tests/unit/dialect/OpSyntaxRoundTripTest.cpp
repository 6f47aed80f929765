// Every op's custom syntax, from the records: an op of each declarative format is made from the
// format's own signature and printed, parsed and printed again, and its generic form parses back
// to the same op; the ops with print/parse hooks are checked on a module that holds each of
// them (the test fails when a hook op is missing from it). Nothing here lists format ops by hand.
#include "dialect/OpFormat.h"
#include "dialect/OpOverlay.h"

#include "spire/dialect/Attributes.h"
#include "spire/dialect/IR.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/grammar/Grammar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace spire::dialect {
namespace {

// The types a sample's operands take: function arguments of one module, by index.
constexpr std::array<std::string_view, 10> kTypes = {
    "i32",
    "vector<4xi32>",
    "f32",
    "!spirv.ptr<vector<4xi32>, Function>",
    "!spirv.struct<(i32, i32)>",
    "!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, "
    "NeedSampler, Unknown>>",
    "!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>",
    "i1",
    "vector<4xi1>",
    "f16",
};
enum : unsigned { kI32, kVec, kF32, kPtr, kStruct, kSampled, kBool = 7 };

std::string skeleton() {
  std::string s = "spirv.module Logical GLSL450 {\n  spirv.func @f(";
  for (size_t i = 0; i < kTypes.size(); ++i) {
    s += i ? ", " : "";
    s += "%arg" + std::to_string(i) + ": " + std::string(kTypes[i]);
  }
  return s + ") \"None\" {\n    spirv.Return\n  }\n}\n";
}

/// What a type variable must be, from the expressions that use it.
std::vector<unsigned> candidates(const OpFormat &f, uint8_t var) {
  auto uses = [&](TypeExpr::Kind k) {
    auto hit = [&](const TypeExpr &e) { return e.kind == k && e.var == var; };
    for (const TypeExpr &e : f.operandTypes)
      if (hit(e))
        return true;
    return (f.tail != OpFormat::Tail::None && hit(f.tailType)) ||
           (f.hasResult && hit(f.resultType));
  };
  if (uses(TypeExpr::Pointee))
    return {kPtr};
  if (uses(TypeExpr::Member0))
    return {kStruct};
  if (uses(TypeExpr::Image))
    return {kSampled};
  if (uses(TypeExpr::Elem))
    return {kVec};
  return {kI32, kVec, kF32, kPtr, kBool};
}

/// A value of type `t` among the function's arguments, or null.
Value argumentOfType(Block *entry, Type t) {
  for (uint32_t i = 0; i < entry->numArguments(); ++i)
    if (entry->argument(i).type() == t)
      return entry->argument(i);
  return {};
}

/// An attribute for a format element: the first enumerant of an enum, a symbol, a type, or a
/// one-element array of i32 (indices, components).
Attribute sampleAttr(Context &ctx, const FormatElement &e) {
  switch (e.style) {
  case FormatElement::Quoted:
  case FormatElement::Angle: {
    const grammar::OperandKindDesc &k = grammar::operandKind(e.enumKind);
    return attr::enumerant(ctx, e.enumKind, k.enumerants.empty() ? 0 : k.enumerants[0].value);
  }
  case FormatElement::Symbol:
    return attr::symbolRef(ctx, "f");
  case FormatElement::TypeOf:
    return attr::type(ctx, ctx.integer(32));
  case FormatElement::Generic:
    break;
  }
  Attribute zero = attr::integer(ctx, ctx.integer(32), 0);
  return attr::array(ctx, std::span(&zero, 1));
}

struct Sample {
  std::string problem; ///< why no sample could be made; empty when `op` is one
  Operation *op = nullptr;
};

/// Makes an op of `info` at the start of `entry` with the variables' types `choice`.
Sample makeSample(Context &ctx, const OpInfo &info, const OpFormat &f, Block *entry,
                  std::span<const unsigned> choice) {
  Sample s;
  std::vector<Type> varTypes;
  for (size_t v = 0; v < f.numVars; ++v)
    varTypes.push_back(entry->argument(choice[v]).type());
  OperationState st(&info);
  auto operandOfType = [&](const TypeExpr &e) -> bool {
    Type t = entry->argument(kI32).type();
    if (e.kind != TypeExpr::Any && !(f.tail == OpFormat::Tail::List && &e == &f.tailType)) {
      std::string problem;
      uint8_t blamed = 0;
      TypeExpr plain = e;
      if (plain.kind == TypeExpr::Hint)
        plain.kind = TypeExpr::Var;
      t = evalType(ctx, plain, varTypes, problem, blamed);
      if (!t) {
        s.problem = "operand type: " + problem;
        return false;
      }
    }
    Value v = argumentOfType(entry, t);
    if (!v) {
      s.problem = "no argument of type " + toString(t);
      return false;
    }
    st.operands.push_back(v);
    return true;
  };
  for (const TypeExpr &e : f.operandTypes) {
    if (st.operands.size() >= f.minOperands)
      break; // an optional operand (its group is left out)
    if (!operandOfType(e))
      return s;
  }
  // The rest: as many as the op needs, and one more where it may have it.
  while (f.tail != OpFormat::Tail::None && st.operands.size() < f.minOperands)
    if (!operandOfType(f.tailType))
      return s;
  const bool extra = f.tail != OpFormat::Tail::None && st.operands.size() < f.maxOperands;
  if (extra && !operandOfType(f.tailType))
    return s;
  // The attributes the format shows, outside optional groups.
  for (size_t i = 0; i < f.elements.size(); ++i) {
    const FormatElement &e = f.elements[i];
    if (e.kind == FormatElement::Group) {
      i = e.end - 1;
      continue;
    }
    if (e.kind == FormatElement::Attr)
      st.addAttribute(ctx, e.text, sampleAttr(ctx, e));
  }
  if (f.hasResult) {
    Type r;
    if (f.resultType.kind == TypeExpr::Infer) {
      InferQuery q;
      q.values = st.operands;
      q.attributes = st.attributes;
      q.context = &ctx;
      bool inferred = f.infer(info, q);
      // The one more operand may be one too many for the result (an access chain's second
      // index into a vector's element): without it.
      if (!inferred && extra && st.operands.size() > f.minOperands) {
        st.operands.pop_back();
        q.values = st.operands;
        q.problem.clear();
        inferred = f.infer(info, q);
      }
      if (!inferred) {
        s.problem = "result type: " + q.problem;
        return s;
      }
      r = q.result;
    } else {
      std::string problem;
      uint8_t blamed = 0;
      r = evalType(ctx, f.resultType, varTypes, problem, blamed);
      if (!r) {
        s.problem = "result type: " + problem;
        return s;
      }
    }
    st.resultTypes.push_back(r);
  }
  s.op = Operation::create(std::move(st));
  entry->insertBefore(entry->front(), s.op);
  return s;
}

/// The op's line in `text` (the second line of the function's body is the sample's).
std::string sampleLine(const std::string &text) {
  size_t body = text.find("\"None\" {\n");
  if (body == std::string::npos)
    return "";
  size_t start = body + 9, end = text.find('\n', start);
  return text.substr(start, end - start);
}

bool isGeneric(std::string_view line) { return line.find("\"spirv.") != std::string_view::npos; }

/// Checks the custom form of `module`'s text: it reads back as the same text, and the generic
/// form reads back as it too. Returns the problem, or empty.
std::string roundTrip(Context &ctx, const Operation &module) {
  std::string custom = toString(module);
  auto reparsed = parse(ctx, custom);
  if (!reparsed)
    return "custom form does not parse: " + reparsed.error().message + "\n" + custom;
  std::string again = toString(**reparsed);
  if (again != custom)
    return "custom form prints differently after parsing:\n" + custom + "---\n" + again;
  PrintOptions generic;
  generic.generic = true;
  std::string genericText = toString(module, generic);
  auto fromGeneric = parse(ctx, genericText);
  if (!fromGeneric)
    return "generic form does not parse: " + fromGeneric.error().message + "\n" + genericText;
  std::string viaGeneric = toString(**fromGeneric);
  if (viaGeneric != custom)
    return "generic form parses to another op:\n" + custom + "---\n" + viaGeneric;
  return "";
}

TEST(DialectOpSyntax, EveryDeclarationCompiles) {
  (void)findOp(grammar::Op::IAdd); // makes the registry
  for (const std::string &problem : detail::overlayProblems())
    ADD_FAILURE() << problem;
}

TEST(DialectOpSyntax, EveryFormatOpRoundTripsItsCustomForm) {
  size_t checked = 0;
  for (const OpInfo *info : allOps()) {
    if (!info->syntax || !info->syntax->format(*info))
      continue;
    const OpFormat &f = *info->syntax->format(*info);
    SCOPED_TRACE(std::string(info->name));
    // The first choice of the variables' types whose op prints in custom form.
    std::vector<std::vector<unsigned>> options;
    for (uint8_t v = 0; v < f.numVars; ++v)
      options.push_back(candidates(f, v));
    std::vector<size_t> at(f.numVars, 0);
    std::string problem = "no choice of types prints in custom form";
    bool done = false;
    while (!done) {
      Context ctx;
      auto module = parse(ctx, skeleton());
      ASSERT_TRUE(module) << module.error().format();
      Block *entry = (*module)->region().front()->front()->region().front();
      std::vector<unsigned> choice;
      for (uint8_t v = 0; v < f.numVars; ++v)
        choice.push_back(options[v][at[v]]);
      Sample s = makeSample(ctx, *info, f, entry, choice);
      if (s.op) {
        std::string line = sampleLine(toString(**module));
        if (!isGeneric(line)) {
          problem = roundTrip(ctx, **module);
          ++checked;
          break;
        }
      } else {
        problem = s.problem;
      }
      // The next choice.
      done = true;
      for (size_t v = 0; v < at.size(); ++v) {
        if (++at[v] < options[v].size()) {
          done = false;
          break;
        }
        at[v] = 0;
      }
    }
    EXPECT_EQ(problem, "");
  }
  // The ops of the formats in the table (a floor against a silent skip).
  EXPECT_GT(checked, 200u);
}

// The ops no format can say, each in its custom form as spire prints it.
constexpr std::string_view kHookOps = R"mlir(spirv.module @m Logical GLSL450 {
  spirv.SpecConstant @sc = 1 : i32
  spirv.SpecConstantComposite @scc (@sc, @sc) : vector<2xi32>
  spirv.GlobalVariable @gv bind(0, 1) : !spirv.ptr<f32, StorageBuffer>
  spirv.spire.NonSemanticGlobal @dbg "NonSemantic.Shader.DebugInfo.100" DebugSource("a.comp")
  spirv.ARM.GraphEntryPoint @graph, @gv
  spirv.ARM.Graph @graph(%arg0: !spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8> attributes {entry_point = true} {
    %0 = spirv.ExperimentalML.Call opcode = 1, %arg0 : (!spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8>
    spirv.ARM.GraphOutputs %0 : !spirv.arm.tensor<2xi8>
  }
  spirv.func @callee(%arg0: f32) -> f32 "None" {
    spirv.ReturnValue %arg0 : f32
  }
  spirv.func @main(%arg0: !spirv.ptr<f32, Function>, %arg1: i1, %arg2: !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, %arg3: vector<2xf32>) "None" {
    %cst1_i32 = spirv.Constant 1 : i32
    %0 = spirv.Variable : !spirv.ptr<f32, Function>
    %1 = spirv.Load "Function" %arg0 : f32
    spirv.Store "Function" %0, %1 : f32
    spirv.spire.NonSemantic "NonSemantic.DebugPrintf" DebugPrintf("%f", %1) : (f32) -> ()
    spirv.CopyMemory "Function" %0, "Function" %arg0 ["Volatile"], ["Aligned", 4] : f32
    %2 = spirv.FunctionCall @callee(%1) : (f32) -> f32
    %3 = spirv.mlir.referenceof @sc : i32
    %4 = spirv.SpecConstantOperation wraps "spirv.IAdd"(%3, %3) : (i32, i32) -> i32
    %5 = spirv.ImageDrefGather %arg2 : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, %arg3 : vector<2xf32>, %1 : f32  -> vector<4xf32>
    spirv.mlir.selection {
      spirv.BranchConditional %arg1, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // pred: ^bb0
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
)mlir";

// The wrappers of MLIR's tests (builtin.module, func.func, func.return, func.call) around spirv
// ops, several top-level ops in one module, and spirv.Switch, as spire (and MLIR) prints them.
constexpr std::string_view kWrapperOps = R"mlir(module {
  spirv.GlobalVariable @var : !spirv.ptr<f32, Input>
  func.func @add(%arg0: i32) -> i32 {
    %0 = spirv.IAdd %arg0, %arg0 : i32
    return %0 : i32
  }
  func.func private @declared(i32, f32) -> (i32, f32)
  func.func @caller() attributes {foo} {
    %var_addr = spirv.mlir.addressof @var : !spirv.ptr<f32, Input>
    %cst1_i32 = spirv.Constant 1 : i32
    %0 = call @add(%cst1_i32) : (i32) -> i32
    %1 = arith.constant dense<[1, 2]> : vector<2xi32>
    spirv.Return
  }
  gpu.module @kernels [#spirv.target_env<#spirv.vce<v1.0, [Kernel], []>, api=OpenCL, #spirv.resource_limits<>>] attributes {foo} {
    func.func private @k(i32)
  }
  spirv.module Logical GLSL450 {
    spirv.func @f() "None" {
      func.call @g() : () -> ()
      spirv.Return
    }
    spirv.func @s(%arg0: i32) "None" {
      spirv.mlir.selection {
        spirv.Switch %arg0 : i32, [
          default: ^bb1(%arg0 : i32),
          -3: ^bb2
        ]
      ^bb1(%0: i32):  // pred: ^bb0
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      spirv.Return
    }
  }
}
)mlir";

TEST(DialectOpSyntax, EveryHookOpRoundTripsItsCustomForm) {
  Context ctx;
  auto module = parse(ctx, kHookOps);
  ASSERT_TRUE(module) << module.error().format();
  EXPECT_EQ(toString(**module), kHookOps);
  EXPECT_EQ(roundTrip(ctx, **module), "");
  // The wrappers parse and print back, generic form included; they do not verify where MLIR's
  // func dialect says they cannot be (a func.call of something not a func.func), and the
  // serializer refuses them.
  auto wrappers = parse(ctx, kWrapperOps);
  ASSERT_TRUE(wrappers) << wrappers.error().format();
  EXPECT_EQ(toString(**wrappers), kWrapperOps);
  EXPECT_EQ(roundTrip(ctx, **wrappers), "");
  Status verified = verify(**wrappers);
  ASSERT_FALSE(verified);
  EXPECT_NE(verified.error().message.find("'func.call' op 'g' does not reference a valid function"),
            std::string::npos)
      << verified.error().message;
  Operation *inner = (*wrappers)->region().front()->back();
  Expected<std::vector<uint32_t>> words = serialize(*inner);
  ASSERT_FALSE(words);
  EXPECT_EQ(words.error().message, "func.call: is not a SPIR-V op and is not serialized");
  words = serialize(**wrappers);
  ASSERT_FALSE(words);
  EXPECT_EQ(words.error().message,
            "builtin.module: is not a SPIR-V op and is not serialized: translate a spirv.module");
  // Every op with hooks is in one of the modules, in custom form (TOSA's 66 ops share one pair
  // of hooks, which TosaOpsTest.cpp takes through each kind of constant operand).
  std::vector<const OpInfo *> seen;
  walk(module->get(), [&](Operation *op) { seen.push_back(&op->info()); });
  walk(wrappers->get(), [&](Operation *op) { seen.push_back(&op->info()); });
  for (const OpInfo *info : allOps()) {
    if (info->syntax && info->syntax->print && info->key.space() != OpSpace::Tosa) {
      EXPECT_NE(std::find(seen.begin(), seen.end(), info), seen.end())
          << info->name << " has hooks but no op in the module";
    }
  }
  // Generic only where spirv.SpecConstantOperation wraps an op.
  std::string_view text = kHookOps;
  size_t generic = 0, wrapped = 0;
  for (size_t at = text.find("\"spirv."); at != text.npos; at = text.find("\"spirv.", at + 1))
    ++generic;
  for (size_t at = text.find("wraps \"spirv."); at != text.npos;
       at = text.find("wraps \"spirv.", at + 1))
    ++wrapped;
  EXPECT_EQ(generic, wrapped) << "a hook op printed generic";
}

} // namespace
} // namespace spire::dialect

namespace spire::dialect {
namespace {

// MLIR 16 cannot read `spirv.CompositeConstruct : () -> T` (`%0+` in its format): an empty one
// prints generic, and the custom form without operands does not parse.
TEST(DialectOpSyntax, EmptyCompositeConstructPrintsGeneric) {
  constexpr std::string_view kText = R"mlir(spirv.module Logical GLSL450 {
  spirv.func @f() "None" {
    %0 = "spirv.CompositeConstruct"() : () -> !spirv.struct<()>
    spirv.Return
  }
}
)mlir";
  Context ctx;
  auto module = parse(ctx, kText);
  ASSERT_TRUE(module) << module.error().format();
  EXPECT_EQ(toString(**module), kText);
  std::string custom(kText);
  custom.replace(custom.find("\"spirv.CompositeConstruct\"()"), 28, "spirv.CompositeConstruct");
  EXPECT_FALSE(parse(ctx, custom));
}

} // namespace
} // namespace spire::dialect
