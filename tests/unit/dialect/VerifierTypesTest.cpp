// The verifier's type rules (VerifierTypes.cpp): per family of ops, IR that follows the ops'
// definitions verifies and IR that breaks them is an error naming the op and what is wrong.
#include "OpNames.h"
#include "Verdict.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/grammar/Grammar.h"
#include "spire/grammar/OperandTypes.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

using namespace spire;
using namespace spire::dialect;
using spire::dialect::test::instructionName;
using spire::dialect::test::verdict;

/// The grammar revision the list of ops left to the validator below was made for (Debian 12's
/// SPIRV-Headers); a newer grammar has ops the list cannot name.
constexpr unsigned kListedRevision = 1;

TEST(DialectVerifierTypes, EveryKeyInTheTableIsAnOp) {
  // The rules name ops by opcode; only an instruction the build's grammar lacks (an older
  // grammar than the vendored one) has no op.
  for (OpKey key : typeRuleKeysWithoutOp()) {
    EXPECT_EQ(key.space(), OpSpace::Core) << key.number();
    EXPECT_EQ(grammar::findInstruction(key.number()), nullptr)
        << key.number() << " is in the type rules but no op";
  }
}

TEST(DialectVerifierTypes, EveryOpOfTheTableSharedWithValHasItsRule) {
  // The AVC motion estimation and hit object ops take their type rules from the table spire val
  // reads (include/spire/grammar/OperandTypes.h), not from rows of the verifier's own.
  size_t ops = 0;
  for (const grammar::OperandTypeRule &row : grammar::operandTypeRules())
    for (grammar::Op op : row.ops)
      if (op != grammar::Op::Nop)
        if (const OpInfo *info = findOp(OpKey(op))) {
          ++ops;
          EXPECT_TRUE(hasTypeRule(info->name)) << info->name;
        }
  EXPECT_GT(ops, 140u);
}

/// The ops whose operand and result types the verifier leaves to the validator (spire val and
/// spirv-val on the serialized module), by family, without "spirv.". Ops of grammar
/// instructions that take no values and give none (spirv.Kill, spirv.EmitVertex) have nothing
/// to check and are not listed.
const std::pair<std::string_view, std::string_view> kLeftToTheValidator[] = {
    // The dialect's structural ops: their regions, symbols and attributes have checks of their
    // own in Verifier.cpp.
    {"module mlir.selection mlir.loop mlir.merge mlir.yield EntryPoint ExecutionMode SpecConstant "
     "SpecConstantOperationSymbol ExtInst",
     "structure"},
    // Instructions that never become ops: deserialization turns them into types, attributes,
    // symbols, block arguments and functions, which the serializer writes back.
    {"TypeArray TypeRuntimeArray TypeVector TypeMatrix TypeImage TypeSampledImage TypePointer "
     "TypeForwardPointer TypeFunction TypeStruct INTEL.TypeStructContinued "
     "NV.TypeCooperativeMatrix "
     "INTEL.TypeVmeImage ConstantTrue ConstantFalse ConstantComposite "
     "INTEL.ConstantCompositeContinued SpecConstantTrue SpecConstantFalse SpecConstantOp "
     "INTEL.SpecConstantCompositeContinued Decorate DecorateId DecorateString MemberDecorate "
     "MemberDecorateString GroupDecorate GroupMemberDecorate Name MemberName Line Source "
     "ExecutionModeId Function FunctionParameter Phi",
     "not ops"},
    // Successor operands: the structural checks hold them to the blocks' arguments.
    {"Branch LoopMerge SelectionMerge", "successors"},
    // Any type may be undefined.
    {"Undef", "any type"},
    // Listed by the GLSL.std.450 grammar, though the set has no such instruction any more.
    {"GL.IMix", "removed"},
    // Inline assembly: OpAsmINTEL's Asm type operand is a type id, which no value of the
    // dialect stands for (so the op neither deserializes nor serializes as SPIR-V has it), and
    // OpAsmTargetINTEL takes no values and gives a result whose type the extension leaves open
    // (newer grammars drop it).
    {"INTEL.Asm INTEL.AsmTarget", "inline assembly"},
    // SPV_INTEL_memory_access_aliasing: declarations without a result type whose operands are
    // other such declarations (and names); only decorations and memory operands use them, so
    // no typed value meets them.
    {"INTEL.AliasDomainDecl INTEL.AliasScopeDecl INTEL.AliasScopeListDecl", "alias scopes"},
};

TEST(DialectVerifierTypes, OpsWithoutTypeRulesAreTheListedOnes) {
  std::set<std::string> listed;
  for (auto [names, family] : kLeftToTheValidator) {
    size_t start = 0;
    while (start < names.size()) {
      size_t end = names.find(' ', start);
      end = end == std::string_view::npos ? names.size() : end;
      if (end > start) {
        EXPECT_TRUE(listed.insert("spirv." + std::string(names.substr(start, end - start))).second)
            << names.substr(start, end - start) << " is listed twice";
      }
      start = end + 1;
    }
  }
  std::set<std::string> checked, nothingToCheck, unchecked;
  for (const OpInfo *info : allOps()) {
    std::string name(info->name);
    bool values = info->hasResultType();
    for (const OperandMapping &m : info->operands)
      values |= m.kind == OperandMapping::Kind::Value;
    if (hasTypeRule(name))
      checked.insert(name);
    else if ((info->inst || info->ext) && !values && !listed.count(name))
      nothingToCheck.insert(name);
    else
      unchecked.insert(name);
  }
  size_t newer = 0;
  for (const std::string &name : unchecked) {
    if (grammar::grammarRevision() > kListedRevision && !listed.count(name)) {
      ++newer; // an op of a newer grammar than the list's
      continue;
    }
    EXPECT_TRUE(listed.count(name)) << name << " has no type rule and is not listed";
  }
  for (const std::string &name : listed)
    EXPECT_FALSE(checked.count(name) || nothingToCheck.count(name))
        << name << " is listed but has a type rule or nothing to check";
  if (newer)
    std::printf("ops of a grammar newer than the list's, left to the validator: %zu\n", newer);
  std::printf("ops: %zu with type rules, %zu with no values to check, %zu left to the validator\n",
              checked.size(), nothingToCheck.size(), unchecked.size());
}

TEST(DialectVerifierTypes, IntegerArithmeticTakesTheResultsWidthAndShape) {
  std::string_view params = "%a: i32, %b: si32, %c: i64, %v: vector<2xi32>";
  // Signedness aside: SPIR-V lets OpIAdd mix OpTypeInt 32 0 and 32 1.
  EXPECT_EQ(verdict(params, "%0 = \"spirv.IAdd\"(%a, %b) : (i32, si32) -> i32"), "");
  EXPECT_EQ(verdict(params, "%0 = spirv.IMul %v, %v : vector<2xi32>"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.IAdd\"(%a, %c) : (i32, i64) -> i32"),
            "'spirv.IAdd' op requires the same type for all operands and results");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.SNegate\"(%v) : (vector<2xi32>) -> i32"),
            "'spirv.SNegate' op requires the same type for all operands and results");
  EXPECT_EQ(verdict("%x: f32", "%0 = \"spirv.UDiv\"(%x, %x) : (f32, f32) -> f32"),
            "'spirv.UDiv' op operand #0 must be 8/16/32/64-bit integer or vector of 8/16/32/64-bit "
            "integer values of length 2/3/4/8/16 or Cooperative Matrix of 8/16/32/64-bit integer "
            "values, but got 'f32'");
  // IAddCarry: a struct of two members of the operands' type.
  EXPECT_EQ(verdict(params, "%0 = \"spirv.IAddCarry\"(%a, %a) : (i32, i32) -> "
                            "!spirv.struct<(i32, i32)>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.IAddCarry\"(%a, %a) : (i32, i32) -> "
                            "!spirv.struct<(i32, i64)>"),
            "'spirv.IAddCarry' op expected all operand types and struct member types are the same");
}

TEST(DialectVerifierTypes, FloatArithmeticAndMatricesKeepTheirTypes) {
  std::string_view params = "%x: f32, %y: f64, %v: vector<3xf32>, %m: !spirv.matrix<2 x "
                            "vector<3xf32>>, %w: vector<2xf32>";
  EXPECT_EQ(verdict(params, "%0 = spirv.FAdd %x, %x : f32"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.FAdd\"(%x, %y) : (f32, f64) -> f32"),
            "'spirv.FAdd' op requires the same type for all operands and results");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.VectorTimesScalar\"(%v, %x) : (vector<3xf32>, f32) -> "
                            "vector<3xf32>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.VectorTimesScalar\"(%v, %y) : (vector<3xf32>, f64) -> "
                            "vector<3xf32>"),
            "'spirv.VectorTimesScalar' op scalar operand and result element type match");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Dot\"(%v, %v) : (vector<3xf32>, vector<3xf32>) -> f32"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Dot\"(%v, %w) : (vector<3xf32>, vector<2xf32>) -> f32"),
            "'spirv.Dot' op operand 1 (vector<2xf32>) must have operand 0's type (vector<3xf32>)");
  // A 3x2 matrix (two columns of three) times a 2-vector is a 3-vector.
  EXPECT_EQ(verdict(params, "%0 = \"spirv.MatrixTimesVector\"(%m, %w) : (!spirv.matrix<2 x "
                            "vector<3xf32>>, vector<2xf32>) -> vector<3xf32>"),
            "");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.MatrixTimesVector\"(%m, %v) : (!spirv.matrix<2 x "
                      "vector<3xf32>>, vector<3xf32>) -> vector<3xf32>"),
      "'spirv.MatrixTimesVector' op operand 1 (vector<3xf32>) must have a component per column "
      "of !spirv.matrix<2 x vector<3xf32>>");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Transpose\"(%m) : (!spirv.matrix<2 x vector<3xf32>>) -> "
                            "!spirv.matrix<3 x vector<2xf32>>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Transpose\"(%m) : (!spirv.matrix<2 x vector<3xf32>>) -> "
                            "!spirv.matrix<2 x vector<3xf32>>"),
            "'spirv.Transpose' op input matrix rows count must be equal to output matrix columns "
            "count");
}

TEST(DialectVerifierTypes, BitInstructionsTakeIntegers) {
  std::string_view params = "%a: i32, %b: i8, %v: vector<2xi32>, %x: f32";
  EXPECT_EQ(verdict(params, "%0 = spirv.BitwiseAnd %a, %a : i32"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.BitwiseOr\"(%x, %x) : (f32, f32) -> f32"),
            "'spirv.BitwiseOr' op operand #0 must be 8/16/32/64-bit integer or vector of "
            "8/16/32/64-bit integer values of length 2-4294967295, but got 'f32'");
  // A shift amount may have another width, not another shape.
  EXPECT_EQ(verdict(params, "%0 = \"spirv.ShiftLeftLogical\"(%a, %b) : (i32, i8) -> i32"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.ShiftLeftLogical\"(%a, %v) : (i32, vector<2xi32>) -> "
                            "i32"),
            "'spirv.ShiftLeftLogical' op operand 1 (vector<2xi32>) must have as many components as "
            "the result's type (i32)");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.BitFieldInsert\"(%a, %a, %b, %x) : (i32, i32, i8, f32) "
                            "-> i32"),
            "'spirv.BitFieldInsert' op operand #3 must be 8/16/32/64-bit integer, but got 'f32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.BitCount\"(%v) : (vector<2xi32>) -> vector<2xi8>"), "");
}

TEST(DialectVerifierTypes, ComparisonsGiveBoolsOfTheOperandsShape) {
  std::string_view params = "%a: i32, %s: si32, %v: vector<2xi32>, %x: f32, %p: i1";
  EXPECT_EQ(verdict(params, "%0 = \"spirv.SLessThan\"(%a, %s) : (i32, si32) -> i1"), "");
  EXPECT_EQ(verdict(params, "%0 = spirv.IEqual %v, %v : vector<2xi32>"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.IEqual\"(%v, %v) : (vector<2xi32>, vector<2xi32>) -> "
                            "i1"),
            "'spirv.IEqual' op operand 0 (vector<2xi32>) must have as many components as the "
            "result's type (i1)");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.FOrdLessThan\"(%a, %a) : (i32, i32) -> i1"),
            "'spirv.FOrdLessThan' op operand #0 must be 16/32/64-bit float or vector of "
            "16/32/64-bit float values of length 2/3/4/8/16, but got 'i32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.IEqual\"(%a, %a) : (i32, i32) -> i32"),
            "'spirv.IEqual' op result #0 must be bool or vector of bool values of length "
            "2/3/4/8/16, but got 'i32'");
  EXPECT_EQ(verdict(params, "%0 = spirv.LogicalAnd %p, %p : i1"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.LogicalOr\"(%p, %a) : (i1, i32) -> i1"),
            "'spirv.LogicalOr' op operand #1 must be bool or vector of bool values of length "
            "2/3/4/8/16, but got 'i32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.IsNan\"(%x) : (f32) -> vector<2xi1>"),
            "'spirv.IsNan' op operand 0 (f32) must have as many components as the result's type "
            "(vector<2xi1>)");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.Any\"(%p) : (i1) -> i1"),
      "'spirv.Any' op operand #0 must be vector of bool values of length 2/3/4/8/16, but got 'i1'");
}

TEST(DialectVerifierTypes, SelectTakesABoolOfTheResultsShape) {
  std::string_view params = "%c: i1, %cv: vector<3xi1>, %a: vector<2xf32>, %x: f32";
  EXPECT_EQ(verdict(params, "%0 = spirv.Select %c, %a, %a : i1, vector<2xf32>"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Select\"(%cv, %a, %a) : (vector<3xi1>, vector<2xf32>, "
                            "vector<2xf32>) -> vector<2xf32>"),
            "'spirv.Select' op result should have the same number of elements as the condition "
            "when condition is of vector type");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Select\"(%c, %a, %x) : (i1, vector<2xf32>, f32) -> "
                            "vector<2xf32>"),
            "'spirv.Select' op failed to verify that all of {true_value, false_value, result} have "
            "same type");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Select\"(%x, %x, %x) : (f32, f32, f32) -> f32"),
            "'spirv.Select' op operand #0 must be bool or vector of bool values of length "
            "2/3/4/8/16, but got 'f32'");
}

TEST(DialectVerifierTypes, ConversionsKeepTheShapeAndBitcastsTheBits) {
  std::string_view params = "%x: f32, %v: vector<2xf32>, %i: i64, %iv: vector<2xi32>, "
                            "%p: !spirv.ptr<f32, PhysicalStorageBuffer> "
                            "{spirv.decoration = #spirv.decoration<Restrict>}";
  EXPECT_EQ(verdict(params, "%0 = spirv.ConvertFToS %v : vector<2xf32> to vector<2xi32>"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.ConvertFToS\"(%v) : (vector<2xf32>) -> i32"),
            "'spirv.ConvertFToS' op operand 0 (vector<2xf32>) must have as many components as the "
            "result's type (i32)");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.ConvertSToF\"(%x) : (f32) -> f32"),
            "'spirv.ConvertSToF' op operand #0 must be 8/16/32/64-bit integer or vector of "
            "8/16/32/64-bit integer values of length 2/3/4/8/16 or Cooperative Matrix of "
            "8/16/32/64-bit integer values, but got 'f32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.FConvert\"(%x) : (f32) -> f64"), "");
  // Bitcast: the same number of bits, or a pointer and a pointer or an integer. MLIR's verifier
  // also rejects a cast to the same type and one between a pointer and an integer, which valid
  // modules hold (a corpus test deserializes them).
  EXPECT_EQ(verdict(params, "%0 = spirv.Bitcast %iv : vector<2xi32> to f64"), "");
  EXPECT_EQ(verdict(params, "%0 = spirv.Bitcast %i : i64 to vector<2xf32>"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Bitcast\"(%x) : (f32) -> i64"),
            "'spirv.Bitcast' op mismatch in result type bitwidth 64 and operand type bitwidth 32");
  EXPECT_EQ(verdict(params, "%0 = spirv.Bitcast %x : f32 to f32"), "");
  EXPECT_EQ(verdict(params, "%0 = spirv.Bitcast %p : !spirv.ptr<f32, PhysicalStorageBuffer> to "
                            "!spirv.ptr<i32, PhysicalStorageBuffer>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = spirv.Bitcast %p : !spirv.ptr<f32, PhysicalStorageBuffer> to "
                            "i64"),
            "");
  EXPECT_EQ(verdict(params, "%0 = spirv.Bitcast %iv : vector<2xi32> to !spirv.ptr<f32, "
                            "PhysicalStorageBuffer>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = spirv.Bitcast %p : !spirv.ptr<f32, PhysicalStorageBuffer> to "
                            "f64"),
            "unhandled bit cast conversion from pointer type to non-pointer type");
  EXPECT_EQ(verdict(params, "%0 = spirv.Bitcast %v : vector<2xf32> to !spirv.ptr<f32, "
                            "PhysicalStorageBuffer>"),
            "unhandled bit cast conversion from non-pointer type to pointer type");
  // FConvert, SConvert and UConvert change the component width (MLIR's words, which name the
  // component types), keep the shape and convert a cooperative matrix to one of its own kind.
  EXPECT_EQ(verdict(params, "%0 = spirv.FConvert %x : f32 to f32"),
            "'spirv.FConvert' op expected the different bit widths for operand type and result "
            "type, but provided 'f32' and 'f32'");
  EXPECT_EQ(verdict(params, "%0 = spirv.FConvert %v : vector<2xf32> to vector<2xf32>"),
            "'spirv.FConvert' op expected the different bit widths for operand type and result "
            "type, but provided 'f32' and 'f32'");
  EXPECT_EQ(verdict(params, "%0 = spirv.SConvert %iv : vector<2xi32> to vector<2xsi32>"),
            "'spirv.SConvert' op expected the different bit widths for operand type and result "
            "type, but provided 'i32' and 'si32'");
  EXPECT_EQ(verdict(params, "%0 = spirv.UConvert %iv : vector<2xi32> to vector<2xi64>"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.FConvert\"(%v) : (vector<2xf32>) -> f64"),
            "'spirv.FConvert' op requires the same shape for all operands and results");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.UConvert\"(%iv) : (vector<2xi32>) -> vector<3xi64>"),
            "'spirv.UConvert' op requires the same shape for all operands and results");
  std::string_view coop = "%k: !spirv.coopmatrix<8x16xf32, Subgroup, MatrixAcc>, "
                          "%n: !spirv.NV.coopmatrix<8x16xf32, Subgroup>";
  EXPECT_EQ(verdict(coop, "%0 = spirv.FConvert %k : !spirv.coopmatrix<8x16xf32, Subgroup, "
                          "MatrixAcc> to !spirv.coopmatrix<8x16xf16, Subgroup, MatrixAcc>"),
            "");
  EXPECT_EQ(verdict(coop, "%0 = spirv.FConvert %n : !spirv.NV.coopmatrix<8x16xf32, Subgroup> to "
                          "!spirv.NV.coopmatrix<8x16xf64, Subgroup>"),
            "");
  EXPECT_EQ(verdict(coop, "%0 = spirv.FConvert %k : !spirv.coopmatrix<8x16xf32, Subgroup, "
                          "MatrixAcc> to !spirv.NV.coopmatrix<8x16xf64, Subgroup>"),
            "'spirv.FConvert' op incompatible operand and result types");
  EXPECT_EQ(verdict(coop, "%0 = spirv.FConvert %n : !spirv.NV.coopmatrix<8x16xf32, Subgroup> to "
                          "f64"),
            "'spirv.FConvert' op incompatible operand and result types");
  EXPECT_EQ(verdict(coop, "%0 = spirv.FConvert %n : !spirv.NV.coopmatrix<8x16xf32, Subgroup> to "
                          "!spirv.NV.coopmatrix<16x8xf64, Subgroup>"),
            "'spirv.FConvert' op operand 0 (!spirv.NV.coopmatrix<8x16xf32, Subgroup>) must have as "
            "many components as the result's type (!spirv.NV.coopmatrix<16x8xf64, Subgroup>)");
  // Generic pointers from and to the Workgroup, CrossWorkgroup and Function storage classes
  // (MLIR words the storage classes without "op" in front).
  std::string_view ptrs = "%s: !spirv.ptr<f32, StorageBuffer>, %g: !spirv.ptr<f32, Generic>";
  EXPECT_EQ(verdict(ptrs, "%0 = spirv.PtrCastToGeneric %s : !spirv.ptr<f32, StorageBuffer> to "
                          "!spirv.ptr<f32, Generic>"),
            "pointer must point to the Workgroup, CrossWorkgroup, or Function Storage Class");
  EXPECT_EQ(verdict(ptrs, "%0 = spirv.GenericCastToPtr %g : !spirv.ptr<f32, Generic> to "
                          "!spirv.ptr<f32, Uniform>"),
            "result must point to the Workgroup, CrossWorkgroup, or Function Storage Class");
  EXPECT_EQ(verdict(ptrs, "%0 = spirv.GenericCastToPtr %g : !spirv.ptr<f32, Generic> to "
                          "!spirv.ptr<i32, Workgroup>"),
            "'spirv.GenericCastToPtr' op pointer operand's pointee type must have the same as the "
            "op result type, but found 'f32' vs 'i32'");
  // GenericCastToPtrExplicit's storage class is its result type's (no attribute).
  EXPECT_EQ(verdict(ptrs, "%0 = spirv.GenericCastToPtrExplicit %g : !spirv.ptr<f32, Generic> to "
                          "!spirv.ptr<f32, Function>"),
            "");
  EXPECT_EQ(verdict(ptrs, "%0 = \"spirv.GenericCastToPtrExplicit\"(%g) : (!spirv.ptr<f32, "
                          "Generic>) -> !spirv.ptr<f32, Workgroup>"),
            "");
  EXPECT_EQ(verdict(ptrs, "%0 = spirv.GenericCastToPtrExplicit %s : !spirv.ptr<f32, "
                          "StorageBuffer> to !spirv.ptr<f32, Workgroup>"),
            "pointer type must be of storage class Generic");
}

namespace {

/// What the verifier says of `op` in a function taking `params` in a module of `addressing`.
std::string inModule(std::string_view addressing, std::string_view params, std::string_view op) {
  std::string text =
      "spirv.module " + std::string(addressing) +
      " OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, PhysicalStorageBufferAddresses, "
      "GenericPointer, Int64], []> {\n  spirv.func @f(" +
      std::string(params) + ") \"None\" {\n    " + std::string(op) + "\n    spirv.Return\n  }\n}\n";
  Context context;
  Expected<OwningOp> module = parse(context, text);
  if (!module)
    return "parse: " + module.error().message;
  Status status = verify(**module);
  return status ? std::string() : status.error().message;
}

} // namespace

TEST(DialectVerifierTypes, PointersAndIntegersConvertOnlyUnderPhysicalAddressing) {
  // MLIR's checks: the pointer of ConvertPtrToU / ConvertUToPtr is physical where its
  // spirv.module says how pointers are addressed, and the integer is signless.
  std::string_view generic = "%p: !spirv.ptr<i32, Generic>, %i: i64";
  std::string_view psb = "%p: !spirv.ptr<i32, PhysicalStorageBuffer> {spirv.decoration = "
                         "#spirv.decoration<Restrict>}, %i: i64";
  std::string_view toU = "%0 = spirv.ConvertPtrToU %p : !spirv.ptr<i32, Generic> to i64";
  std::string_view toPtr = "%0 = spirv.ConvertUToPtr %i : i64 to !spirv.ptr<i32, Generic>";
  EXPECT_EQ(inModule("Physical64", generic, toU), "");
  EXPECT_EQ(inModule("Physical64", generic, toPtr), "");
  EXPECT_EQ(inModule("Logical", generic, toU), "operand must be a physical pointer");
  EXPECT_EQ(inModule("Logical", generic, toPtr), "result must be a physical pointer");
  EXPECT_EQ(inModule("PhysicalStorageBuffer64", generic, toU),
            "operand must be a physical pointer");
  EXPECT_EQ(inModule("PhysicalStorageBuffer64", generic, toPtr),
            "result must be a physical pointer");
  EXPECT_EQ(inModule("PhysicalStorageBuffer64", psb,
                     "%0 = spirv.ConvertPtrToU %p : !spirv.ptr<i32, PhysicalStorageBuffer> to i64"),
            "");
  EXPECT_EQ(inModule("PhysicalStorageBuffer64", psb,
                     "%0 = spirv.ConvertUToPtr %i : i64 to !spirv.ptr<i32, PhysicalStorageBuffer>"),
            "");
  // MLIR says "result" of ConvertUToPtr's operand too.
  EXPECT_EQ(inModule("Physical64", "%p: !spirv.ptr<i32, Generic>, %i: si64",
                     "%0 = spirv.ConvertUToPtr %i : si64 to !spirv.ptr<i32, Generic>"),
            "result must be a scalar type of unsigned integer");
  EXPECT_EQ(inModule("Physical64", generic,
                     "%0 = spirv.ConvertPtrToU %p : !spirv.ptr<i32, Generic> to si64"),
            "result must be a scalar type of unsigned integer");
  // Outside a spirv.module no addressing model says anything.
  Context context;
  Expected<OwningOp> wrapped = parse(context, "func.func @f(%p: !spirv.ptr<i32, Generic>) {\n"
                                              "  %0 = spirv.ConvertPtrToU %p : !spirv.ptr<i32, "
                                              "Generic> to i32\n  return\n}\n");
  ASSERT_TRUE(wrapped) << wrapped.error().message;
  Status status = verify(**wrapped);
  EXPECT_TRUE(status) << status.error().message;
}

TEST(DialectVerifierTypes, CompositeIndexesStayInBoundsAndSelectTheResultsType) {
  std::string_view params = "%v: vector<4xf32>, %s: !spirv.struct<(f32, vector<2xi32>)>, "
                            "%a: !spirv.array<3 x f32>, %x: f32, %i: i32";
  EXPECT_EQ(verdict(params, "%0 = spirv.CompositeExtract %s[1 : i32, 0 : i32] : "
                            "!spirv.struct<(f32, vector<2xi32>)>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CompositeExtract\"(%s) {indices = [2 : i32]} : "
                            "(!spirv.struct<(f32, vector<2xi32>)>) -> f32"),
            "'spirv.CompositeExtract' op index 0 (2) is out of bounds of !spirv.struct<(f32, "
            "vector<2xi32>)> (2 members)");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CompositeExtract\"(%v) {indices = [4 : i32]} : "
                            "(vector<4xf32>) -> f32"),
            "'spirv.CompositeExtract' op index 0 (4) is out of bounds of vector<4xf32> (4 "
            "components)");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CompositeExtract\"(%a) {indices = [1 : i32]} : "
                            "(!spirv.array<3 x f32>) -> i32"),
            "'spirv.CompositeExtract' op the result (i32) must have the type the indices select "
            "(f32)");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CompositeExtract\"(%x) {indices = [0 : i32]} : (f32) -> "
                            "f32"),
            "'spirv.CompositeExtract' op index 0 selects into f32, which is not a composite");
  EXPECT_EQ(verdict(params, "%0 = spirv.CompositeInsert %x, %a[2 : i32] : f32 into "
                            "!spirv.array<3 x f32>"),
            "");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.CompositeInsert\"(%i, %a) {indices = [2 : i32]} : (i32, "
                      "!spirv.array<3 x f32>) -> !spirv.array<3 x f32>"),
      "'spirv.CompositeInsert' op operand 0 (i32) must have the type the indices select (f32)");
  // Construct: vectors from scalars and vectors, other composites one constituent per part.
  EXPECT_EQ(verdict("%x: f32, %w: vector<2xf32>",
                    "%0 = spirv.CompositeConstruct %w, %x, %x : (vector<2xf32>, f32, f32) -> "
                    "vector<4xf32>"),
            "");
  EXPECT_EQ(verdict("%x: f32, %w: vector<2xf32>",
                    "%0 = spirv.CompositeConstruct %w, %x : (vector<2xf32>, f32) -> "
                    "vector<4xf32>"),
            "'spirv.CompositeConstruct' op constituents have 3 components for the 4 of "
            "vector<4xf32>");
  EXPECT_EQ(verdict("%x: f32, %i: i32",
                    "%0 = spirv.CompositeConstruct %x, %x : (f32, f32) -> !spirv.struct<(f32, "
                    "i32)>"),
            "'spirv.CompositeConstruct' op operand 1 (f32) must be i32, a constituent of "
            "!spirv.struct<(f32, i32)>");
  EXPECT_EQ(verdict("%x: f32", "%0 = spirv.CompositeConstruct %x, %x : (f32, f32) -> "
                               "!spirv.array<3 x f32>"),
            "'spirv.CompositeConstruct' op has 2 constituents for the 3 elements of !spirv.array<3 "
            "x f32>");
}

TEST(DialectVerifierTypes, VectorShuffleAndDynamicAccessKeepTheComponentType) {
  std::string_view params = "%v: vector<4xf32>, %w: vector<2xf32>, %u: vector<2xi32>, %i: i32, "
                            "%x: f32";
  EXPECT_EQ(verdict(params, "%0 = spirv.VectorShuffle [0 : i32, 5 : i32, -1 : i32] %v : "
                            "vector<4xf32>, %w : vector<2xf32> -> vector<3xf32>"),
            "");
  EXPECT_EQ(
      verdict(params, "%0 = spirv.VectorShuffle [0 : i32, 6 : i32] %v : vector<4xf32>, "
                      "%w : vector<2xf32> -> vector<2xf32>"),
      "'spirv.VectorShuffle' op component 1 (6) selects past the 6 components of the operands");
  EXPECT_EQ(
      verdict(params, "%0 = spirv.VectorShuffle [0 : i32] %v : vector<4xf32>, "
                      "%w : vector<2xf32> -> vector<2xf32>"),
      "'spirv.VectorShuffle' op selects 1 components for the 2 of the result (vector<2xf32>)");
  EXPECT_EQ(verdict(params, "%0 = spirv.VectorShuffle [0 : i32, 1 : i32] %v : vector<4xf32>, "
                            "%u : vector<2xi32> -> vector<2xf32>"),
            "'spirv.VectorShuffle' op operand 1 (vector<2xi32>) must have the result's component "
            "type (f32)");
  EXPECT_EQ(verdict(params, "%0 = spirv.VectorExtractDynamic %v[%i] : vector<4xf32>, i32"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.VectorExtractDynamic\"(%u, %i) : (vector<2xi32>, i32) "
                            "-> f32"),
            "'spirv.VectorExtractDynamic' op failed to verify that all of {vector, result} have "
            "same element type");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.VectorInsertDynamic\"(%v, %x, %x) : (vector<4xf32>, "
                      "f32, f32) -> vector<4xf32>"),
      "'spirv.VectorInsertDynamic' op operand #2 must be 8/16/32/64-bit integer, but got 'f32'");
}

TEST(DialectVerifierTypes, MemoryOpsAgreeWithTheirPointers) {
  std::string_view params = "%p: !spirv.ptr<f32, Function>, %x: f32, %i: i32, "
                            "%s: !spirv.ptr<!spirv.struct<(f32, !spirv.array<4 x i32>)>, "
                            "StorageBuffer>";
  EXPECT_EQ(verdict(params, "%0 = spirv.Load \"Function\" %p : f32\n    spirv.Store \"Function\" "
                            "%p, %0 : f32"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Load\"(%p) : (!spirv.ptr<f32, Function>) -> i32"),
            "'spirv.Load' op operand 0 (!spirv.ptr<f32, Function>) must point to the result's type "
            "(i32)");
  EXPECT_EQ(verdict(params, "\"spirv.Store\"(%p, %i) : (!spirv.ptr<f32, Function>, i32) -> ()"),
            "'spirv.Store' op operand 0 (!spirv.ptr<f32, Function>) must point to operand 1's type "
            "(i32)");
  std::string_view chain = "%c1 = spirv.Constant 1 : i32\n    ";
  EXPECT_EQ(
      verdict(params, std::string(chain) +
                          "%0 = spirv.AccessChain %s[%c1, %i] : !spirv.ptr<!spirv.struct<(f32, "
                          "!spirv.array<4 x i32>)>, StorageBuffer>, i32, i32"),
      "");
  EXPECT_EQ(
      verdict(params, std::string(chain) +
                          "%0 = \"spirv.AccessChain\"(%s, %c1) : (!spirv.ptr<!spirv.struct<(f32, "
                          "!spirv.array<4 x i32>)>, StorageBuffer>, i32) -> !spirv.ptr<f32, "
                          "StorageBuffer>"),
      "'spirv.AccessChain' op the result (!spirv.ptr<f32, StorageBuffer>) must point to the "
      "type the indices select (!spirv.array<4 x i32>)");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.AccessChain\"(%s, %i) : (!spirv.ptr<!spirv.struct<(f32, "
                      "!spirv.array<4 x i32>)>, StorageBuffer>, i32) -> !spirv.ptr<f32, "
                      "StorageBuffer>"),
      "'spirv.AccessChain' op index 0 into !spirv.struct<(f32, !spirv.array<4 x i32>)> is not "
      "a constant");
  EXPECT_EQ(
      verdict(params, std::string(chain) +
                          "%0 = \"spirv.AccessChain\"(%s, %c1, %i) : "
                          "(!spirv.ptr<!spirv.struct<(f32, !spirv.array<4 x i32>)>, "
                          "StorageBuffer>, i32, i32) -> !spirv.ptr<i32, Uniform>"),
      "'spirv.AccessChain' op the result (!spirv.ptr<i32, Uniform>) must have the storage class "
      "of operand 0 (!spirv.ptr<!spirv.struct<(f32, !spirv.array<4 x i32>)>, "
      "StorageBuffer>)");
  std::string_view constants =
      "%cx = spirv.Constant 1.0 : f32\n    %ci = spirv.Constant 1 : i32\n    ";
  EXPECT_EQ(verdict(params, std::string(constants) +
                                "%0 = spirv.Variable init(%cx) : !spirv.ptr<f32, Function>"),
            "");
  // An initializer is a constant or a global, as OpVariable's is.
  EXPECT_EQ(verdict(params, "%0 = spirv.Variable init(%x) : !spirv.ptr<f32, Function>"),
            "'spirv.Variable' op initializer must be the result of a constant or "
            "spirv.GlobalVariable op");
  EXPECT_EQ(verdict(params, std::string(constants) +
                                "%0 = spirv.Variable init(%ci) : !spirv.ptr<f32, Function>"),
            "'spirv.Variable' op operand 0 (i32) must be what the result's type (!spirv.ptr<f32, "
            "Function>) points to");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.Variable\"() {storage_class = "
                            "#spirv.storage_class<Private>} : () -> !spirv.ptr<f32, Private>"),
            "'spirv.Variable' op can only be used to model function-level variables. Use "
            "spirv.GlobalVariable for module-level variables.");
  EXPECT_EQ(verdict(params, "\"spirv.CopyMemory\"(%p, %s) : (!spirv.ptr<f32, Function>, "
                            "!spirv.ptr<!spirv.struct<(f32, !spirv.array<4 x i32>)>, "
                            "StorageBuffer>) -> ()"),
            "'spirv.CopyMemory' op both operands must be pointers to the same type");
}

TEST(DialectVerifierTypes, GlobalsAndSpecConstantsHaveTheTypesTheirUsesSay) {
  std::string_view globals = "  spirv.GlobalVariable @g : !spirv.ptr<f32, Private>\n"
                             "  spirv.SpecConstant @n = 4 : i32";
  EXPECT_EQ(verdict("",
                    "%0 = spirv.mlir.addressof @g : !spirv.ptr<f32, Private>\n"
                    "    %1 = spirv.mlir.referenceof @n : i32",
                    globals),
            "");
  EXPECT_EQ(
      verdict("", "%0 = spirv.mlir.addressof @g : !spirv.ptr<i32, Private>", globals),
      "'spirv.mlir.addressof' op result type mismatch with the referenced global variable's type");
  EXPECT_EQ(verdict("", "%0 = spirv.mlir.referenceof @n : i64", globals),
            "'spirv.mlir.referenceof' op result type mismatch with the referenced specialization "
            "constant's type");
  EXPECT_EQ(verdict("", "%0 = spirv.mlir.addressof @n : !spirv.ptr<i32, Private>", globals),
            "'spirv.mlir.addressof' op expected spirv.GlobalVariable symbol");
  EXPECT_EQ(verdict("", "", "  spirv.GlobalVariable @h : !spirv.ptr<f32, Function>"),
            "'spirv.GlobalVariable' op storage class cannot be 'Function'");
  EXPECT_EQ(verdict("", "", "  spirv.GlobalVariable @h : !spirv.ptr<f32, Generic>"),
            "'spirv.GlobalVariable' op storage class cannot be 'Generic'");
  EXPECT_EQ(verdict("", "",
                    "  spirv.SpecConstant @m = 4 : i32\n"
                    "  spirv.SpecConstant @b = true\n"
                    "  spirv.SpecConstantComposite @c (@m, @m) : vector<2xi32>\n"
                    "  spirv.SpecConstantComposite @d (@m, @b) : !spirv.struct<(i32, i1)>"),
            "");
  EXPECT_EQ(verdict("", "",
                    "  spirv.SpecConstant @m = 4 : i32\n"
                    "  spirv.SpecConstantComposite @c (@m, @m) : vector<2xf32>"),
            "'spirv.SpecConstantComposite' op has incorrect types of operands: expected 'f32', but "
            "provided 'i32'");
  EXPECT_EQ(verdict("", "",
                    "  spirv.SpecConstant @m = 4 : i32\n"
                    "  spirv.SpecConstantComposite @c (@m) : vector<2xi32>"),
            "'spirv.SpecConstantComposite' op has incorrect number of operands: expected 2, but "
            "provided 1");
  // Counted, not listed: a huge length costs nothing.
  EXPECT_EQ(
      verdict("", "",
              "  spirv.SpecConstant @m = 4 : i32\n"
              "  spirv.SpecConstantComposite @c (@m) : !spirv.array<4000000000 x i32>"),
      "'spirv.SpecConstantComposite' op has incorrect number of operands: expected 4000000000, "
      "but provided 1");
  EXPECT_EQ(verdict("", "%0 = spirv.mlir.referenceof @b : i32", "  spirv.SpecConstant @b = true"),
            "'spirv.mlir.referenceof' op result type mismatch with the referenced specialization "
            "constant's type");
  EXPECT_EQ(
      verdict("", "",
              "  spirv.SpecConstant @m = 4 : i32\n"
              "  spirv.GlobalVariable @h initializer(@m) : !spirv.ptr<f32, Private>"),
      "'spirv.GlobalVariable' op its initializer @m (i32) must have the type the variable holds "
      "(f32)");
}

TEST(DialectVerifierTypes, ConstantValuesHaveTheResultsType) {
  EXPECT_EQ(verdict("", "%0 = spirv.Constant 1 : i32\n    %1 = spirv.Constant dense<[1.0, 2.0]> : "
                        "vector<2xf32>\n    %2 = spirv.Constant [1 : i32, 2 : i32] : "
                        "!spirv.array<2 x i32>\n    %3 = spirv.Constant true"),
            "");
  EXPECT_EQ(verdict("", "%0 = \"spirv.Constant\"() {value = 1 : i32} : () -> f32"),
            "'spirv.Constant' op its value (1 : i32) is not a value of the result's type (f32)");
  EXPECT_EQ(verdict("", "%0 = \"spirv.Constant\"() {value = [1 : i32]} : () -> !spirv.array<2 x "
                        "i32>"),
            "'spirv.Constant' op its value ([1 : i32]) is not a value of the result's type "
            "(!spirv.array<2 x i32>)");
  EXPECT_EQ(verdict("", "%0 = \"spirv.Constant\"() {value = true} : () -> i32"),
            "'spirv.Constant' op its value (true) is not a value of the result's type (i32)");
}

TEST(DialectVerifierTypes, AtomicsPointToTheirValuesType) {
  std::string_view params = "%p: !spirv.ptr<i32, StorageBuffer>, %v: i32, %w: i64, "
                            "%q: !spirv.ptr<f32, StorageBuffer>, %x: f32";
  EXPECT_EQ(verdict(params, "%0 = spirv.AtomicIAdd \"Device\" \"None\" %p, %v : "
                            "!spirv.ptr<i32, StorageBuffer>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.AtomicIAdd\"(%p, %w) {memory_scope = "
                            "#spirv.scope<Device>, semantics = #spirv.memory_semantics<None>} : "
                            "(!spirv.ptr<i32, StorageBuffer>, i64) -> i32"),
            "'spirv.AtomicIAdd' op failed to verify that `value` type matches pointee type of "
            "`pointer`");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.AtomicIAdd\"(%q, %x) {memory_scope = "
                            "#spirv.scope<Device>, semantics = #spirv.memory_semantics<None>} : "
                            "(!spirv.ptr<f32, StorageBuffer>, f32) -> f32"),
            "'spirv.AtomicIAdd' op operand #1 must be 8/16/32/64-bit integer or vector of "
            "8/16/32/64-bit integer values of length 2/3/4/8/16, but got 'f32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.AtomicLoad\"(%q) {memory_scope = "
                            "#spirv.scope<Device>, semantics = #spirv.memory_semantics<None>} : "
                            "(!spirv.ptr<f32, StorageBuffer>) -> i32"),
            "'spirv.AtomicLoad' op operand 0 (!spirv.ptr<f32, StorageBuffer>) must point to the "
            "result's type (i32)");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.AtomicCompareExchange\"(%p, %v, %w) {memory_scope = "
                            "#spirv.scope<Device>, equal_semantics = "
                            "#spirv.memory_semantics<None>, unequal_semantics = "
                            "#spirv.memory_semantics<None>} : (!spirv.ptr<i32, StorageBuffer>, "
                            "i32, i64) -> i32"),
            "'spirv.AtomicCompareExchange' op failed to verify that `comparator` type matches "
            "pointee type of `pointer`");
}

TEST(DialectVerifierTypes, GroupOpsKeepTheValuesType) {
  std::string_view params = "%p: i1, %v: i32, %x: f32, %b: vector<4xi32>";
  EXPECT_EQ(verdict(params, "%0 = spirv.GroupNonUniformBallot <Subgroup> %p : vector<4xi32>"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GroupNonUniformBallot\"(%p) {execution_scope = "
                            "#spirv.scope<Subgroup>} : (i1) -> vector<3xi32>"),
            "'spirv.GroupNonUniformBallot' op result #0 must be vector of 32-bit integer values of "
            "length 4, but got 'vector<3xi32>'");
  EXPECT_EQ(verdict(params, "%0 = spirv.GroupNonUniformIAdd \"Subgroup\" \"Reduce\" %v : i32"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GroupNonUniformIAdd\"(%x) {execution_scope = "
                            "#spirv.scope<Subgroup>, group_operation = "
                            "#spirv.group_operation<Reduce>} : (f32) -> f32"),
            "'spirv.GroupNonUniformIAdd' op operand #0 must be 8/16/32/64-bit integer or vector of "
            "8/16/32/64-bit integer values of length 2/3/4/8/16, but got 'f32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GroupNonUniformBroadcast\"(%x, %x) {execution_scope = "
                            "#spirv.scope<Subgroup>} : (f32, f32) -> f32"),
            "'spirv.GroupNonUniformBroadcast' op operand #1 must be 8/16/32/64-bit integer, but "
            "got 'f32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GroupNonUniformShuffle\"(%x, %v) {execution_scope = "
                            "#spirv.scope<Subgroup>} : (f32, i32) -> i32"),
            "'spirv.GroupNonUniformShuffle' op failed to verify that all of {value, result} have "
            "same type");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GroupNonUniformBallotBitCount\"(%b) {execution_scope = "
                            "#spirv.scope<Subgroup>, group_operation = "
                            "#spirv.group_operation<Reduce>} : (vector<4xi32>) -> i32"),
            "");
}

TEST(DialectVerifierTypes, PartitionedReductionsTakeABallotWhereOthersTakeAClusterSize) {
  // SPV_NV_shader_subgroup_partitioned: under PartitionedReduceNV / InclusiveScanNV /
  // ExclusiveScanNV the operand after the value is the partition's ballot (a four-component
  // integer vector); under the other group operations it is a cluster size (an integer).
  std::string_view params =
      "%p: i1, %v: i32, %x: f32, %c: i32, %b: vector<4xi32>, %h: vector<2xi32>";
  auto reduce = [](std::string_view op, std::string_view operation, std::string_view value,
                   std::string_view t, std::string_view size, std::string_view st) {
    return "%0 = \"spirv." + std::string(op) + "\"(" + std::string(value) + ", " +
           std::string(size) +
           ") {execution_scope = #spirv.scope<Subgroup>, group_operation = "
           "#spirv.group_operation<" +
           std::string(operation) + ">} : (" + std::string(t) + ", " + std::string(st) + ") -> " +
           std::string(t);
  };
  EXPECT_EQ(verdict(params, reduce("GroupNonUniformFAdd", "PartitionedReduceNV", "%x", "f32", "%b",
                                   "vector<4xi32>")),
            "");
  EXPECT_EQ(verdict(params, reduce("GroupNonUniformIAdd", "PartitionedInclusiveScanNV", "%v", "i32",
                                   "%b", "vector<4xi32>")),
            "");
  EXPECT_EQ(verdict(params, reduce("GroupNonUniformLogicalXor", "PartitionedExclusiveScanNV", "%p",
                                   "i1", "%b", "vector<4xi32>")),
            "");
  EXPECT_EQ(
      verdict(params, reduce("GroupNonUniformIAdd", "ClusteredReduce", "%v", "i32", "%c", "i32")),
      "");
  // A ballot where a cluster size goes, and the reverse.
  EXPECT_EQ(verdict(params, reduce("GroupNonUniformIAdd", "ClusteredReduce", "%v", "i32", "%b",
                                   "vector<4xi32>")),
            "'spirv.GroupNonUniformIAdd' op operand #1 must be 8/16/32/64-bit integer, but got "
            "'vector<4xi32>'");
  EXPECT_EQ(verdict(params,
                    reduce("GroupNonUniformFAdd", "PartitionedReduceNV", "%x", "f32", "%c", "i32")),
            "'spirv.GroupNonUniformFAdd' op operand #1 must be vector of 8/16/32/64-bit integer "
            "values of length 4, but got 'i32'");
  EXPECT_EQ(verdict(params, reduce("GroupNonUniformFAdd", "PartitionedReduceNV", "%x", "f32", "%h",
                                   "vector<2xi32>")),
            "'spirv.GroupNonUniformFAdd' op operand #1 must be vector of 8/16/32/64-bit integer "
            "values of length 4, but got 'vector<2xi32>'");
}

TEST(DialectVerifierTypes, ExtendedInstructionsFollowTheirSetsRules) {
  std::string_view params = "%x: f32, %d: f64, %v: vector<3xf32>, %w: vector<4xf32>, %i: i32, "
                            "%s: si32, %p: !spirv.ptr<i8, CrossWorkgroup>";
  EXPECT_EQ(verdict(params, "%0 = spirv.GL.Sin %x : f32\n    %1 = spirv.GL.FMax %v, %v : "
                            "vector<3xf32>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GL.Sin\"(%d) : (f64) -> f64"),
            "'spirv.GL.Sin' op operand #0 must be 16/32-bit float or vector of 16/32-bit float "
            "values of length 2/3/4/8/16, but got 'f64'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GL.FMax\"(%x, %d) : (f32, f64) -> f32"),
            "'spirv.GL.FMax' op requires the same type for all operands and results");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GL.SMax\"(%i, %s) : (i32, si32) -> i32"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GL.Length\"(%v) : (vector<3xf32>) -> f32"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GL.Length\"(%v) : (vector<3xf32>) -> f64"),
            "'spirv.GL.Length' op failed to verify that all of {x, result} have same element type");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GL.Cross\"(%w, %w) : (vector<4xf32>, vector<4xf32>) -> "
                            "vector<4xf32>"),
            "'spirv.GL.Cross' op result #0 must be vector of 16/32/64-bit float values of length "
            "3, but got 'vector<4xf32>'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GL.PackHalf2x16\"(%w) : (vector<4xf32>) -> i32"),
            "'spirv.GL.PackHalf2x16' op operand #0 must be vector of 32-bit float values of length "
            "2, but got 'vector<4xf32>'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CL.fmax\"(%x, %x) : (f32, f32) -> f32\n    %1 = "
                            "\"spirv.CL.s_abs\"(%s) : (si32) -> i32"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CL.pow\"(%x, %i) : (f32, i32) -> f32"),
            "'spirv.CL.pow' op operand #1 must be 16/32/64-bit float or vector of 16/32/64-bit "
            "float values of length 2/3/4/8/16, but got 'i32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CL.printf\"(%i) : (i32) -> i32"),
            "'spirv.CL.printf' op operand #0 must be any SPIR-V pointer type, but got 'i32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CL.printf\"(%p, %x, %i) : (!spirv.ptr<i8, "
                            "CrossWorkgroup>, f32, i32) -> i32"),
            "");
}

TEST(DialectVerifierTypes, CallsAndReturnsFollowTheFunctionTypes) {
  std::string_view callee = "  spirv.func @g(%arg0: i32) -> f32 \"None\" {\n"
                            "    %0 = spirv.Constant 1.0 : f32\n"
                            "    spirv.ReturnValue %0 : f32\n  }";
  EXPECT_EQ(verdict("%i: i32", "%0 = spirv.FunctionCall @g(%i) : (i32) -> f32", callee), "");
  EXPECT_EQ(verdict("%x: f32", "%0 = spirv.FunctionCall @g(%x) : (f32) -> f32", callee),
            "'spirv.FunctionCall' op operand type mismatch: expected operand type 'i32', but "
            "provided 'f32' for operand number 0");
  EXPECT_EQ(verdict("%i: i32", "%0 = spirv.FunctionCall @g(%i, %i) : (i32, i32) -> f32", callee),
            "'spirv.FunctionCall' op has incorrect number of operands for callee: expected 1, but "
            "provided 2");
  EXPECT_EQ(verdict("%i: i32", "%0 = spirv.FunctionCall @g(%i) : (i32) -> i32", callee),
            "'spirv.FunctionCall' op result type mismatch: expected 'f32', but provided 'i32'");
  EXPECT_EQ(verdict("%i: i32", "spirv.FunctionCall @g(%i) : (i32) -> ()", callee),
            "'spirv.FunctionCall' op has incorrect number of results has for callee: expected 1, "
            "but provided 0");
  EXPECT_EQ(verdict("%i: i32", "spirv.ReturnValue %i : i32"),
            "'spirv.ReturnValue' op returns 1 value but enclosing function requires 0 results");
  EXPECT_EQ(verdict("", "",
                    "  spirv.func @h() -> f32 \"None\" {\n"
                    "    %0 = spirv.Constant 1 : i32\n"
                    "    spirv.ReturnValue %0 : i32\n  }"),
            "'spirv.ReturnValue' op return value's type ('i32') mismatch with function's result "
            "type ('f32')");
  EXPECT_EQ(verdict("", "", "  spirv.func @h() -> f32 \"None\" {\n    spirv.Return\n  }"),
            "'spirv.Return' op cannot be used in functions returning value");
  EXPECT_EQ(verdict("", "",
                    "  \"spirv.func\"() ({\n  ^bb0(%a: i64):\n    spirv.Return\n  }) "
                    "{function_type = (i32) -> (), sym_name = \"h\"} : () -> ()"),
            "'spirv.func' op entry block argument 0 (i64) must have parameter 0's type (i32)");
}

TEST(DialectVerifierTypes, BranchConditionsAreBoolsAndConstructsYieldTheirResultsTypes) {
  EXPECT_EQ(verdict("%c: i32",
                    "\"spirv.BranchConditional\"(%c)[^bb1, ^bb1] {operand_segment_sizes = "
                    "array<i32: 1, 0, 0>} : (i32) -> ()\n  ^bb1:\n    spirv.Return"),
            "'spirv.BranchConditional' op operand #0 must be bool, but got 'i32'");
  std::string_view selection = "%r = \"spirv.mlir.selection\"() ({\n"
                               "      spirv.BranchConditional %c, ^bb1, ^bb2(%x : f32)\n"
                               "    ^bb1:\n"
                               "      spirv.Branch ^bb2(%x : f32)\n"
                               "    ^bb2(%y: f32):\n"
                               "      \"spirv.mlir.merge\"(%y) : (f32) -> ()\n"
                               "    }) : () -> %T";
  auto with = [&](std::string_view type) {
    std::string s(selection);
    s.replace(s.find("%T"), 2, type);
    return s;
  };
  EXPECT_EQ(verdict("%c: i1, %x: f32", with("f32")), "");
  EXPECT_EQ(verdict("%c: i1, %x: f32", with("i32")),
            "'spirv.mlir.selection' op result 0 and the merged value differ in type");
}

TEST(DialectVerifierTypes, SparseImageOpsGiveTheResidencyCodeAndTheTexel) {
  std::string_view params =
      "%si: !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, "
      "NeedSampler, Unknown>>, %c: vector<2xf32>, %r: i32";
  std::string_view sample = "\"spirv.ImageSparseSampleImplicitLod\"(%si, %c) : "
                            "(!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, "
                            "SingleSampled, NeedSampler, Unknown>>, vector<2xf32>) -> ";
  EXPECT_EQ(verdict(params, "%0 = " + std::string(sample) + "!spirv.struct<(i32, vector<4xf32>)>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = " + std::string(sample) + "vector<4xf32>"),
            "'spirv.ImageSparseSampleImplicitLod' op result #0 must be a struct, but got "
            "'vector<4xf32>'");
  EXPECT_EQ(
      verdict(params, "%0 = " + std::string(sample) + "!spirv.struct<(f32, vector<4xf32>)>"),
      "'spirv.ImageSparseSampleImplicitLod' op the result must be a struct of an integer scalar "
      "(the residency code) and an integer or float scalar or vector (the texel), not "
      "!spirv.struct<(f32, vector<4xf32>)>");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.ImageSparseTexelsResident\"(%r) : (i32) -> i1"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.ImageSparseTexelsResident\"(%r) : (i32) -> i32"),
            "'spirv.ImageSparseTexelsResident' op result #0 must be bool, but got 'i32'");
}

TEST(DialectVerifierTypes, IntegerDotProductsTakeVectorsOrPackedScalars) {
  std::string_view params = "%a: vector<4xi8>, %b: vector<4xsi8>, %c: vector<3xi8>, %p: i32, "
                            "%w: i16, %acc: i32, %h: vector<4xi16>, %l: i64";
  std::string_view format = "{format = #spirv.packed_vector_format<PackedVectorFormat4x8Bit>}";
  // Operands of one type, signedness aside (SUDot's second is unsigned).
  EXPECT_EQ(verdict(params, "%0 = \"spirv.SUDot\"(%b, %a) : (vector<4xsi8>, vector<4xi8>) -> i32"),
            "");
  EXPECT_EQ(
      verdict(params, "%0 = spirv.SDot %p, %p " + std::string(format) + " : (i32, i32) -> i64"),
      "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.UDotAccSat\"(%a, %a, %acc) : (vector<4xi8>, "
                            "vector<4xi8>, i32) -> i32"),
            "");
  EXPECT_EQ(verdict(params, "%0 = spirv.SDot %h, %h : (vector<4xi16>, vector<4xi16>) -> i64"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.UDot\"(%a, %c) : (vector<4xi8>, vector<3xi8>) -> i32"),
            "'spirv.UDot' op requires the same type for both vector operands");
  EXPECT_EQ(verdict(params, "%0 = spirv.SDotAccSat %p, %p, %acc " + std::string(format) +
                                " : (i32, i32, i32) -> i64"),
            "'spirv.SDotAccSat' op requires the same accumulator operand and result types");
  // The format: exactly with scalars, which hold 4 x 8 bits.
  EXPECT_EQ(verdict(params, "%0 = \"spirv.SDot\"(%p, %p) : (i32, i32) -> i32"),
            "'spirv.SDot' op requires Packed Vector Format attribute for integer vector operands");
  EXPECT_EQ(
      verdict(params, "%0 = spirv.SDot %l, %l " + std::string(format) + " : (i64, i64) -> i64"),
      "'spirv.SDot' op with specified Packed Vector Format (PackedVectorFormat4x8Bit) "
      "requires integer vector operands to be 32-bits wide");
  EXPECT_EQ(verdict(params, "%0 = spirv.UDot %a, %a " + std::string(format) +
                                " : (vector<4xi8>, vector<4xi8>) -> i32"),
            "'spirv.UDot' op with invalid format attribute for vector operands of type "
            "'vector<4xi8>'");
  // No other attribute.
  EXPECT_EQ(verdict(params, "%0 = spirv.UDot %a, %a {volatile = #spirv.decoration<Volatile>} : "
                            "(vector<4xi8>, vector<4xi8>) -> i32"),
            "'spirv.UDot' op only supports the 'format' #spirv.packed_vector_format attribute");
  // The result holds all of an operand's bits.
  EXPECT_EQ(
      verdict(params, "%0 = spirv.SDot %p, %p " + std::string(format) + " : (i32, i32) -> i16"),
      "'spirv.SDot' op result type has insufficient bit-width (16 bits) for the specified "
      "vector operand type (32 bits)");
  EXPECT_EQ(verdict(params, "%0 = spirv.SUDot %h, %h : (vector<4xi16>, vector<4xi16>) -> i32"),
            "'spirv.SUDot' op result type has insufficient bit-width (32 bits) for the specified "
            "vector operand type (64 bits)");
}

TEST(DialectVerifierTypes, CooperativeMatricesMultiplyInTheirShapes) {
  std::string_view params =
      "%a: !spirv.NV.coopmatrix<8x16xf16, Subgroup>, %b: !spirv.coopmatrix<16x4xf16, "
      "Subgroup>, %c: !spirv.NV.coopmatrix<8x4xf16, Subgroup>, %p: !spirv.ptr<f16, "
      "StorageBuffer>, %s: i32, %t: i1";
  EXPECT_EQ(verdict(params, "%0 = \"spirv.NV.CooperativeMatrixMulAdd\"(%a, %b, %c) : "
                            "(!spirv.NV.coopmatrix<8x16xf16, Subgroup>, "
                            "!spirv.NV.coopmatrix<16x4xf16, Subgroup>, "
                            "!spirv.NV.coopmatrix<8x4xf16, Subgroup>) -> "
                            "!spirv.NV.coopmatrix<8x4xf16, Subgroup>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.NV.CooperativeMatrixMulAdd\"(%b, %a, %c) : "
                            "(!spirv.NV.coopmatrix<16x4xf16, Subgroup>, "
                            "!spirv.NV.coopmatrix<8x16xf16, Subgroup>, "
                            "!spirv.NV.coopmatrix<8x4xf16, Subgroup>) -> "
                            "!spirv.NV.coopmatrix<8x4xf16, Subgroup>"),
            "'spirv.NV.CooperativeMatrixMulAdd' op matrix size must match: operands 0 (16x4) and "
            "1 (8x16) must multiply to the result's shape (8x4)");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.NV.CooperativeMatrixLoad\"(%p, %s, %t) : "
                            "(!spirv.ptr<f16, StorageBuffer>, i32, i1) -> "
                            "!spirv.NV.coopmatrix<8x4xf16, Subgroup>"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.NV.CooperativeMatrixLoad\"(%p, %s, %s) : "
                            "(!spirv.ptr<f16, StorageBuffer>, i32, i32) -> "
                            "!spirv.NV.coopmatrix<8x4xf16, Subgroup>"),
            "'spirv.NV.CooperativeMatrixLoad' op operand #2 must be bool, but got 'i32'");
}

TEST(DialectVerifierTypes, CooperativeMatricesSizedBySpecializationConstants) {
  // The same symbol is the same size; a symbol against a literal or another symbol may be
  // equal once specialized, so only literals that differ break a shape rule. Type identity
  // (IAdd's operands) still needs the same symbols.
  auto m = [](std::string_view dims) {
    return "!spirv.NV.coopmatrix<" + std::string(dims) + " x f16, Subgroup>";
  };
  auto mulAdd = [&](std::string_view a, std::string_view b, std::string_view c) {
    std::string params = "%a: " + m(a) + ", %b: " + m(b) + ", %c: " + m(c);
    return verdict(params, "%0 = \"spirv.NV.CooperativeMatrixMulAdd\"(%a, %b, %c) : (" + m(a) +
                               ", " + m(b) + ", " + m(c) + ") -> " + m(c));
  };
  EXPECT_EQ(mulAdd("@m x 16", "16 x @n", "@m x @n"), "");
  EXPECT_EQ(mulAdd("@m x @k", "@k x 4", "8 x 4"), "");
  EXPECT_EQ(mulAdd("@m x 16", "@j x 4", "@k x 4"), "");
  EXPECT_EQ(mulAdd("@m x 16", "8 x 4", "@m x 4"),
            "'spirv.NV.CooperativeMatrixMulAdd' op matrix size must match: operands 0 (@m x 16) "
            "and 1 (8x4) must multiply to the result's shape (@m x 4)");
  EXPECT_EQ(mulAdd("@m x 16", "16 x 4", "@m x 8"),
            "'spirv.NV.CooperativeMatrixMulAdd' op matrix size must match: operands 0 (@m x 16) "
            "and 1 (16x4) must multiply to the result's shape (@m x 8)");
  const std::string params = "%a: " + m("@m x 8") + ", %b: " + m("@n x 8") +
                             ", %h: !spirv.NV.coopmatrix<@m x 8 x f32, @s>";
  EXPECT_EQ(verdict(params, "%0 = spirv.FAdd %a, %a : " + m("@m x 8")), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.FAdd\"(%a, %b) : (" + m("@m x 8") + ", " + m("@n x 8") +
                                ") -> " + m("@m x 8")),
            "'spirv.FAdd' op requires the same type for all operands and results");
  // Conversions keep the shape: a symbol may match a literal or a symbolic scope.
  EXPECT_EQ(verdict(params, "%0 = spirv.FConvert %h : !spirv.NV.coopmatrix<@m x 8 x f32, @s> to " +
                                m("8x8")),
            "");
  EXPECT_NE(verdict(params, "%0 = spirv.FConvert %h : !spirv.NV.coopmatrix<@m x 8 x f32, @s> to " +
                                m("8x4")),
            "");
}

TEST(DialectVerifierTypes, KhrCooperativeMatricesMultiplyInTheirShapesAndUses) {
  if (!findOp("spirv.KHR.CooperativeMatrixMulAdd"))
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_cooperative_matrix";
  auto m = [](std::string_view dims, std::string_view use) {
    return "!spirv.coopmatrix<" + std::string(dims) + " x f32, Subgroup, " + std::string(use) + ">";
  };
  auto mulAdd = [&](const std::string &a, const std::string &b, const std::string &c) {
    return verdict("%a: " + a + ", %b: " + b + ", %c: " + c,
                   "%0 = \"spirv.KHR.CooperativeMatrixMulAdd\"(%a, %b, %c) : (" + a + ", " + b +
                       ", " + c + ") -> " + c);
  };
  EXPECT_EQ(mulAdd(m("@m x 16", "MatrixA"), m("16 x @n", "MatrixB"), m("@m x @n", "MatrixAcc")),
            "");
  EXPECT_EQ(mulAdd(m("8 x 16", "@u"), m("16 x 8", "MatrixB"), m("8 x 8", "MatrixAcc")), "");
  EXPECT_EQ(
      mulAdd(m("@m x 16", "MatrixA"), m("16 x @n", "MatrixA"), m("@m x @n", "MatrixAcc")),
      "'spirv.KHR.CooperativeMatrixMulAdd' op operands 0, 1 and 2 and the result must be used "
      "as MatrixA, MatrixB, MatrixAcc and MatrixAcc");
  EXPECT_EQ(mulAdd(m("@m x 16", "MatrixA"), m("8 x @n", "MatrixB"), m("@m x @n", "MatrixAcc")),
            "'spirv.KHR.CooperativeMatrixMulAdd' op operands 0 (@m x 16) and 1 (8 x @n) must "
            "multiply to the result's shape (@m x @n)");
  EXPECT_EQ(mulAdd(m("8 x 16", "MatrixA"), m("16 x 8", "MatrixB"),
                   "!spirv.NV.coopmatrix<8x8xf32, Subgroup>"),
            "'spirv.KHR.CooperativeMatrixMulAdd' op operands and result must be KHR cooperative "
            "matrices, not !spirv.NV.coopmatrix<8x8xf32, Subgroup>");
}

TEST(DialectVerifierTypes, RayTracingAndRayQueriesTakeTheirOpaqueTypes) {
  std::string_view params =
      "%as: !spirv.acceleration_structure_nv, %q: !spirv.ptr<!spirv.ray_query_khr, Private>, "
      "%i: i32, %f: f32, %v: vector<3xf32>, %pl: !spirv.ptr<vector<4xf32>, RayPayloadKHR>, "
      "%a: i64, %n: !spirv.ptr<f32, Private>";
  EXPECT_EQ(verdict(params,
                    "\"spirv.KHR.TraceRay\"(%as, %i, %i, %i, %i, %i, %v, %f, %v, %f, %pl) : "
                    "(!spirv.acceleration_structure_nv, i32, i32, i32, i32, i32, "
                    "vector<3xf32>, f32, vector<3xf32>, f32, !spirv.ptr<vector<4xf32>, "
                    "RayPayloadKHR>) -> ()"),
            "");
  EXPECT_EQ(verdict(params, "\"spirv.KHR.TraceRay\"(%i, %i, %i, %i, %i, %i, %v, %f, %v, %f, %pl) : "
                            "(i32, i32, i32, i32, i32, i32, vector<3xf32>, f32, vector<3xf32>, "
                            "f32, !spirv.ptr<vector<4xf32>, RayPayloadKHR>) -> ()"),
            "'spirv.KHR.TraceRay' op operand #0 must be an acceleration structure, but got 'i32'");
  EXPECT_EQ(verdict(params, "\"spirv.KHR.RayQueryInitialize\"(%q, %as, %i, %i, %v, %f, %v, %f) : "
                            "(!spirv.ptr<!spirv.ray_query_khr, Private>, "
                            "!spirv.acceleration_structure_nv, i32, i32, vector<3xf32>, f32, "
                            "vector<3xf32>, f32) -> ()"),
            "");
  EXPECT_EQ(verdict(params, "\"spirv.KHR.RayQueryTerminate\"(%n) : (!spirv.ptr<f32, Private>) -> "
                            "()"),
            "'spirv.KHR.RayQueryTerminate' op operand 0 must be a pointer to a ray query, not "
            "!spirv.ptr<f32, Private>");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.KHR.RayQueryGetIntersectionObjectToWorld\"(%q, %i) : "
                            "(!spirv.ptr<!spirv.ray_query_khr, Private>, i32) -> "
                            "!spirv.matrix<4 x vector<3xf32>>"),
            "");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.KHR.RayQueryGetIntersectionObjectToWorld\"(%q, %i) : "
                      "(!spirv.ptr<!spirv.ray_query_khr, Private>, i32) -> "
                      "!spirv.matrix<3 x vector<4xf32>>"),
      "'spirv.KHR.RayQueryGetIntersectionObjectToWorld' op the result must be a matrix of four "
      "columns of three 32-bit floats, not !spirv.matrix<3 x vector<4xf32>>");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.KHR.RayQueryProceed\"(%q) : "
                            "(!spirv.ptr<!spirv.ray_query_khr, Private>) -> i32"),
            "'spirv.KHR.RayQueryProceed' op result #0 must be bool, but got 'i32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.KHR.ConvertUToAccelerationStructure\"(%a) : (i64) -> "
                            "!spirv.acceleration_structure_nv"),
            "");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.KHR.ConvertUToAccelerationStructure\"(%i) : (i32) -> "
                      "!spirv.acceleration_structure_nv"),
      "'spirv.KHR.ConvertUToAccelerationStructure' op operand 0 must be a 64-bit integer scalar "
      "or a vector of two 32-bit integers, not i32");
  // OpReportIntersection is the NV instruction in older grammars, the KHR one in newer; either
  // name finds it, and messages use the grammar's canonical one.
  const OpInfo *reportOp = findOp("spirv.KHR.ReportIntersection");
  ASSERT_TRUE(reportOp);
  const std::string report(reportOp->name);
  EXPECT_EQ(verdict(params, "%0 = \"" + report + "\"(%f, %i) : (f32, i32) -> i1"), "");
  EXPECT_EQ(verdict(params, "%0 = \"" + report + "\"(%i, %i) : (i32, i32) -> i1"),
            "'spirv.KHR.ReportIntersection' op operand #0 must be 32-bit float, but got 'i32'");
  EXPECT_EQ(verdict(params, "\"spirv.KHR.ExecuteCallable\"(%i, %pl) : (i32, "
                            "!spirv.ptr<vector<4xf32>, RayPayloadKHR>) -> ()"),
            "");
}

TEST(DialectVerifierTypes, HitObjectsArePointedTo) {
  std::string_view params = "%h: !spirv.ptr<!spirv.hit_object_nv, Private>, %i: i32, "
                            "%q: !spirv.ptr<!spirv.ray_query_khr, Private>";
  EXPECT_EQ(verdict(params, "%0 = \"spirv.NV.HitObjectIsHit\"(%h) : "
                            "(!spirv.ptr<!spirv.hit_object_nv, Private>) -> i1"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.NV.HitObjectIsHit\"(%q) : "
                            "(!spirv.ptr<!spirv.ray_query_khr, Private>) -> i1"),
            "'spirv.NV.HitObjectIsHit' op operand 0 must be a pointer to a hit object, not "
            "!spirv.ptr<!spirv.ray_query_khr, Private>");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.NV.HitObjectGetShaderRecordBufferHandle\"(%h) : "
                            "(!spirv.ptr<!spirv.hit_object_nv, Private>) -> vector<2xi32>"),
            "");
  EXPECT_EQ(verdict(params, "\"spirv.NV.ReorderThreadWithHitObject\"(%h, %i, %i) : "
                            "(!spirv.ptr<!spirv.hit_object_nv, Private>, i32, i32) -> ()"),
            "");
}

TEST(DialectVerifierTypes, PipesReadAndWriteByTheirAccess) {
  std::string_view params = "%r: !spirv.pipe<ReadOnly>, %w: !spirv.pipe<WriteOnly>, "
                            "%p: !spirv.ptr<i8, Generic>, %n: i32, %id: !spirv.reserve_id, "
                            "%l: i64";
  EXPECT_EQ(verdict(params, "%0 = \"spirv.ReadPipe\"(%r, %p, %n, %n) : (!spirv.pipe<ReadOnly>, "
                            "!spirv.ptr<i8, Generic>, i32, i32) -> i32"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.ReadPipe\"(%w, %p, %n, %n) : (!spirv.pipe<WriteOnly>, "
                            "!spirv.ptr<i8, Generic>, i32, i32) -> i32"),
            "'spirv.ReadPipe' op operand 0 (!spirv.pipe<WriteOnly>) must be a ReadOnly pipe");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.WritePipe\"(%w, %p, %l, %n) : (!spirv.pipe<WriteOnly>, "
                            "!spirv.ptr<i8, Generic>, i64, i32) -> i32"),
            "'spirv.WritePipe' op operand #2 must be 32-bit integer, but got 'i64'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GroupReserveWritePipePackets\"(%w, %n, %n, %n) "
                            "{execution_scope = #spirv.scope<Workgroup>} : "
                            "(!spirv.pipe<WriteOnly>, i32, i32, i32) -> !spirv.reserve_id"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.ReserveReadPipePackets\"(%r, %n, %n, %n) : "
                            "(!spirv.pipe<ReadOnly>, i32, i32, i32) -> i32"),
            "'spirv.ReserveReadPipePackets' op result #0 must be a reserve id, but got 'i32'");
  EXPECT_EQ(verdict(params, "\"spirv.CommitReadPipe\"(%r, %id, %n, %n) : (!spirv.pipe<ReadOnly>, "
                            "!spirv.reserve_id, i32, i32) -> ()"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.IsValidReserveId\"(%n) : (i32) -> i1"),
            "'spirv.IsValidReserveId' op operand #0 must be a reserve id, but got 'i32'");
}

TEST(DialectVerifierTypes, DeviceSideEnqueueTakesQueuesEventsAndRanges) {
  std::string_view params =
      "%q: !spirv.queue, %e: !spirv.device_event, %pe: !spirv.ptr<!spirv.device_event, Generic>, "
      "%n: i32, %r: !spirv.struct<(i32, !spirv.array<3 x i64>, !spirv.array<3 x i64>, "
      "!spirv.array<3 x i64>)>, %p: !spirv.ptr<i8, Generic>, %ev: !spirv.event";
  EXPECT_EQ(verdict(params, "%0 = \"spirv.EnqueueMarker\"(%q, %n, %pe, %pe) : (!spirv.queue, i32, "
                            "!spirv.ptr<!spirv.device_event, Generic>, "
                            "!spirv.ptr<!spirv.device_event, Generic>) -> i32"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.EnqueueMarker\"(%q, %n, %p, %pe) : (!spirv.queue, i32, "
                            "!spirv.ptr<i8, Generic>, !spirv.ptr<!spirv.device_event, Generic>) -> "
                            "i32"),
            "'spirv.EnqueueMarker' op operand 2 must be a pointer to a device event, not "
            "!spirv.ptr<i8, Generic>");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CreateUserEvent\"() : () -> !spirv.device_event"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CreateUserEvent\"() : () -> !spirv.event"),
            "'spirv.CreateUserEvent' op result #0 must be a device event, but got '!spirv.event'");
  EXPECT_EQ(verdict(params, "\"spirv.RetainEvent\"(%ev) : (!spirv.event) -> ()"),
            "'spirv.RetainEvent' op operand #0 must be a device event, but got '!spirv.event'");
  EXPECT_EQ(verdict(params, "\"spirv.SetUserEventStatus\"(%e, %n) : (!spirv.device_event, i32) -> "
                            "()"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GetDefaultQueue\"() : () -> !spirv.queue"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.GetKernelNDrangeSubGroupCount\"(%n, %p, %p, %n, %n) : "
                            "(i32, !spirv.ptr<i8, Generic>, !spirv.ptr<i8, Generic>, i32, i32) -> "
                            "i32"),
            "'spirv.GetKernelNDrangeSubGroupCount' op operand #0 must be a pointer or struct, but "
            "got 'i32'");
}

TEST(DialectVerifierTypes, VendorOpsOfTheCorpusFollowTheirExtensions) {
  std::string_view params = "%b: i1, %i: i32, %v: vector<2xi32>, %x: f32, "
                            "%arr: !spirv.array<2 x f32, stride=4>";
  EXPECT_EQ(verdict(params, "%0 = \"spirv.KHR.Expect\"(%i, %i) : (i32, i32) -> i32"), "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.KHR.Expect\"(%x, %x) : (f32, f32) -> f32"),
            "'spirv.KHR.Expect' op operand #0 must be 8/16/32/64-bit integer or bool or vector of "
            "bool or 8/16/32/64-bit integer values of length 2/3/4/8/16, but got 'f32'");
  EXPECT_EQ(verdict(params, "\"spirv.KHR.AssumeTrue\"(%i) : (i32) -> ()"),
            "'spirv.KHR.AssumeTrue' op operand #0 must be bool, but got 'i32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.KHR.ReadClock\"() {scope = #spirv.scope<Device>} : () "
                            "-> vector<2xi32>"),
            "");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.KHR.ReadClock\"() {scope = #spirv.scope<Device>} : () "
                      "-> i32"),
      "'spirv.KHR.ReadClock' op the result must be a 64-bit integer scalar or a vector of two "
      "32-bit integers, not i32");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.AMD.GroupFAddNonUniform\"(%i) {execution_scope = "
                            "#spirv.scope<Subgroup>, group_operation = "
                            "#spirv.group_operation<Reduce>} : (i32) -> i32"),
            "'spirv.AMD.GroupFAddNonUniform' op operand #0 must be 16/32/64-bit float or vector of "
            "16/32/64-bit float values of length 2/3/4/8/16, but got 'i32'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.CopyLogical\"(%arr) : (!spirv.array<2 x f32, stride=4>) "
                            "-> !spirv.array<2 x f32>"),
            "");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.CopyLogical\"(%arr) : (!spirv.array<2 x f32, stride=4>) "
                      "-> !spirv.array<3 x f32>"),
      "'spirv.CopyLogical' op operand 0 (!spirv.array<2 x f32, stride=4>) must logically match "
      "the result's type (!spirv.array<3 x f32>)");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.CopyLogical\"(%arr) : (!spirv.array<2 x f32, stride=4>) "
                      "-> !spirv.array<2 x f32, stride=4>"),
      "'spirv.CopyLogical' op the result must not have operand 0's type (!spirv.array<2 x f32, "
      "stride=4>): that copy is spirv.CopyObject");
  EXPECT_EQ(verdict(params, "\"spirv.EXT.SetMeshOutputs\"(%i, %x) : (i32, f32) -> ()"),
            "'spirv.EXT.SetMeshOutputs' op operand #1 must be 32-bit integer, but got 'f32'");
}

TEST(DialectVerifierTypes, MotionEstimationTakesVmeImagesAndPayloads) {
  std::string img = "!spirv.image<none, Dim2D, NoDepth, NonArrayed, SingleSampled, "
                    "SamplerUnknown, Unknown>";
  std::string vme = "!spirv.vme_image_intel<" + img + ">";
  std::string params = "%i: " + img + ", %s: !spirv.sampler, %v: " + vme +
                       ", %p: !spirv.avc_ime_payload_intel, %r: !spirv.avc_ref_payload_intel";
  EXPECT_EQ(verdict(params, "%0 = \"spirv.INTEL.VmeImage\"(%i, %s) : (" + img +
                                ", !spirv.sampler) -> " + vme),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.INTEL.SubgroupAvcImeEvaluateWithSingleReference\"(%v, "
                            "%v, %p) : (" +
                                vme + ", " + vme +
                                ", !spirv.avc_ime_payload_intel) -> !spirv.avc_ime_result_intel"),
            "");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.INTEL.SubgroupAvcImeEvaluateWithSingleReference\"(%v, "
                            "%v, %r) : (" +
                                vme + ", " + vme +
                                ", !spirv.avc_ref_payload_intel) -> !spirv.avc_ime_result_intel"),
            "'spirv.INTEL.SubgroupAvcImeEvaluateWithSingleReference' op operand #2 must be an IME "
            "payload, but got '!spirv.avc_ref_payload_intel'");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.INTEL.SubgroupAvcImeEvaluateWithSingleReference\"(%i, "
                            "%v, %p) : (" +
                                img + ", " + vme +
                                ", !spirv.avc_ime_payload_intel) -> !spirv.avc_ime_result_intel"),
            "'spirv.INTEL.SubgroupAvcImeEvaluateWithSingleReference' op operand #0 must be a VME "
            "image, but got '!spirv.image<none, Dim2D, NoDepth, NonArrayed, SingleSampled, "
            "SamplerUnknown, Unknown>'");
}
