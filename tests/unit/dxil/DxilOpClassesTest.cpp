// The dx.op operand checks of every operation class that no corpus program calls: for each, a
// call written from DXIL's operation signatures (not from spire's table) must decode, and the same
// call with a wrong operand type, an extra operand, a wrong result type or an overload the class
// does not have must fail with its one-line error.
#include "LlvmModuleBuilder.h"

#include "spire/dxil/DxilModule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace spire::test {
namespace {

using namespace spire::dxil;

/// One class's call: the function name after "dx.op.", an operation of the class, and the types
/// of the function after the opcode, spelled i1 ... f64, void, %name (an identified struct, its
/// name without "dx.types."), %name* (a pointer to one).
struct ClassCall {
  std::string_view function;
  uint32_t opcode;
  std::string_view name;
  std::string_view result;
  std::string_view parameters;
  std::string_view badOverload; ///< a function name suffix the class has no operation for
};

// clang-format off
constexpr ClassCall kCalls[] = {
    {"tempRegLoad.f32", 0, "TempRegLoad", "f32", "i32", "f64"},
    {"tempRegStore.f32", 1, "TempRegStore", "void", "i32 f32", "f64"},
    {"minPrecXRegLoad.f16", 2, "MinPrecXRegLoad", "f16", "i32 i32 i8", "f32"},
    {"minPrecXRegStore.f16", 3, "MinPrecXRegStore", "void", "i32 i32 i8 f16", "f32"},
    {"isSpecialFloat.f32", 8, "IsNaN", "i1", "f32", "f64"},
    {"unaryBits.i32", 31, "Countbits", "i32", "i32", "f32"},
    {"binaryWithTwoOuts.i32", 41, "IMul", "%twoi32", "i32 i32", "i64"},
    {"binaryWithCarryOrBorrow.i32", 44, "UAddc", "%i32c", "i32 i32", "i64"},
    {"dot2.f32", 54, "Dot2", "f32", "f32 f32 f32 f32", "f64"},
    {"sampleGrad.f32", 63, "SampleGrad", "%ResRet.f32",
     "%Handle %Handle f32 f32 f32 f32 i32 i32 i32 f32 f32 f32 f32 f32 f32 f32", "f64"},
    {"sampleCmp.f32", 64, "SampleCmp", "%ResRet.f32",
     "%Handle %Handle f32 f32 f32 f32 i32 i32 i32 f32 f32", "i32"},
    {"sampleCmpLevelZero.f32", 65, "SampleCmpLevelZero", "%ResRet.f32",
     "%Handle %Handle f32 f32 f32 f32 i32 i32 i32 f32", "i32"},
    {"textureGatherCmp.f32", 74, "TextureGatherCmp", "%ResRet.f32",
     "%Handle %Handle f32 f32 f32 f32 i32 i32 i32 f32", "f64"},
    {"texture2DMSGetSamplePosition", 75, "Texture2DMSGetSamplePosition", "%SamplePos",
     "%Handle i32", "f32"},
    {"renderTargetGetSamplePosition", 76, "RenderTargetGetSamplePosition", "%SamplePos", "i32",
     "f32"},
    {"renderTargetGetSampleCount", 77, "RenderTargetGetSampleCount", "i32", "", "i32"},
    {"evalSnapped.f32", 87, "EvalSnapped", "f32", "i32 i32 i8 i32 i32", "f64"},
    {"evalSampleIndex.f32", 88, "EvalSampleIndex", "f32", "i32 i32 i8 i32", "f64"},
    {"evalCentroid.f32", 89, "EvalCentroid", "f32", "i32 i32 i8", "f64"},
    {"threadIdInGroup.i32", 95, "ThreadIdInGroup", "i32", "i32", "i64"},
    {"cutStream", 98, "CutStream", "void", "i8", "i8"},
    {"emitThenCutStream", 99, "EmitThenCutStream", "void", "i8", "i8"},
    {"gsInstanceID.i32", 100, "GSInstanceID", "i32", "", "i64"},
    {"cycleCounterLegacy", 109, "CycleCounterLegacy", "%twoi32", "", "i32"},
    {"waveActiveAllEqual.f32", 115, "WaveActiveAllEqual", "i1", "f32", "f80"},
    {"waveReadLaneAt.f32", 117, "WaveReadLaneAt", "f32", "f32 i32", "f80"},
    {"waveActiveBit.i32", 120, "WaveActiveBit", "i32", "i32 i8", "f32"},
    {"bitcastI16toF16", 124, "BitcastI16toF16", "f16", "i16", "f16"},
    {"bitcastF16toI16", 125, "BitcastF16toI16", "i16", "f16", "i16"},
    {"bitcastI32toF32", 126, "BitcastI32toF32", "f32", "i32", "f32"},
    {"bitcastF32toI32", 127, "BitcastF32toI32", "i32", "f32", "i32"},
    {"bitcastI64toF64", 128, "BitcastI64toF64", "f64", "i64", "f64"},
    {"bitcastF64toI64", 129, "BitcastF64toI64", "i64", "f64", "i64"},
    {"legacyF32ToF16", 130, "LegacyF32ToF16", "i32", "f32", "f32"},
    {"legacyDoubleToFloat", 132, "LegacyDoubleToFloat", "f32", "f64", "f32"},
    {"legacyDoubleToSInt32", 133, "LegacyDoubleToSInt32", "i32", "f64", "i32"},
    {"legacyDoubleToUInt32", 134, "LegacyDoubleToUInt32", "i32", "f64", "i32"},
    {"instanceID.i32", 141, "InstanceID", "i32", "", "i64"},
    {"instanceIndex.i32", 142, "InstanceIndex", "i32", "", "i64"},
    {"hitKind.i32", 143, "HitKind", "i32", "", "i64"},
    {"rayFlags.i32", 144, "RayFlags", "i32", "", "i64"},
    {"dispatchRaysDimensions.i32", 146, "DispatchRaysDimensions", "i32", "i8", "i64"},
    {"worldRayOrigin.f32", 147, "WorldRayOrigin", "f32", "i8", "f64"},
    {"worldRayDirection.f32", 148, "WorldRayDirection", "f32", "i8", "f64"},
    {"objectRayOrigin.f32", 149, "ObjectRayOrigin", "f32", "i8", "f64"},
    {"objectRayDirection.f32", 150, "ObjectRayDirection", "f32", "i8", "f64"},
    {"objectToWorld.f32", 151, "ObjectToWorld", "f32", "i32 i8", "f64"},
    {"worldToObject.f32", 152, "WorldToObject", "f32", "i32 i8", "f64"},
    {"rayTMin.f32", 153, "RayTMin", "f32", "", "f64"},
    {"rayTCurrent.f32", 154, "RayTCurrent", "f32", "", "f64"},
    {"acceptHitAndEndSearch", 156, "AcceptHitAndEndSearch", "void", "", "f32"},
    {"callShader.struct.Payload", 159, "CallShader", "void", "i32 %struct.Payload*", "f32"},
    {"primitiveIndex.i32", 161, "PrimitiveIndex", "i32", "", "i64"},
    {"waveMultiPrefixOp.f32", 166, "WaveMultiPrefixOp", "f32", "f32 i32 i32 i32 i32 i8 i8", "i1"},
    {"waveMultiPrefixBitCount", 167, "WaveMultiPrefixBitCount", "i32", "i1 i32 i32 i32 i32",
     "i32"},
    {"writeSamplerFeedback", 174, "WriteSamplerFeedback", "void",
     "%Handle %Handle %Handle f32 f32 f32 f32 f32", "f32"},
    {"writeSamplerFeedbackBias", 175, "WriteSamplerFeedbackBias", "void",
     "%Handle %Handle %Handle f32 f32 f32 f32 f32 f32", "f32"},
    {"writeSamplerFeedbackLevel", 176, "WriteSamplerFeedbackLevel", "void",
     "%Handle %Handle %Handle f32 f32 f32 f32 f32", "f32"},
    {"writeSamplerFeedbackGrad", 177, "WriteSamplerFeedbackGrad", "void",
     "%Handle %Handle %Handle f32 f32 f32 f32 f32 f32 f32 f32 f32 f32 f32", "f32"},
    {"rayQuery_CommitNonOpaqueTriangleHit", 182, "RayQuery_CommitNonOpaqueTriangleHit", "void",
     "i32", "i32"},
    {"rayQuery_StateMatrix.f32", 186, "RayQuery_CandidateObjectToWorld3x4", "f32", "i32 i32 i8",
     "f64"},
    {"rayQuery_StateVector.f32", 193, "RayQuery_CandidateTriangleBarycentrics", "f32", "i32 i8",
     "f64"},
    {"geometryIndex.i32", 213, "GeometryIndex", "i32", "", "i64"},
    {"getInputRecordCount", 242, "GetInputRecordCount", "i32", "%NodeRecordHandle", "i32"},
    {"finishedCrossGroupSharing", 243, "FinishedCrossGroupSharing", "i1", "%NodeRecordHandle",
     "i1"},
    {"barrierByMemoryType", 244, "BarrierByMemoryType", "void", "i32 i32", "i32"},
    {"barrierByMemoryHandle", 245, "BarrierByMemoryHandle", "void", "%Handle i32", "i32"},
    {"barrierByNodeRecordHandle", 246, "BarrierByNodeRecordHandle", "void",
     "%NodeRecordHandle i32", "i32"},
};

/// The experimental WaveMatrix classes: the table gives no signature for them (only the name,
/// the opcode's class and the shader model are checked), so any function type passes.
constexpr ClassCall kUncheckedCalls[] = {
    {"waveMatrix_Annotate", 226, "WaveMatrix_Annotate", "void", "i32", "f32"},
    {"waveMatrix_Depth", 227, "WaveMatrix_Depth", "i32", "i32", "f32"},
    {"waveMatrix_Fill.f32", 228, "WaveMatrix_Fill", "void", "i32 f32", "f64"},
    {"waveMatrix_LoadRawBuf", 229, "WaveMatrix_LoadRawBuf", "void", "i32 %Handle i32 i32 i8 i1",
     "f32"},
    {"waveMatrix_LoadGroupShared.f32", 230, "WaveMatrix_LoadGroupShared", "void", "i32 i32 i32 i1",
     "f64"},
    {"waveMatrix_StoreRawBuf", 231, "WaveMatrix_StoreRawBuf", "void", "i32 %Handle i32 i32 i8 i1",
     "f32"},
    {"waveMatrix_StoreGroupShared.f32", 232, "WaveMatrix_StoreGroupShared", "void",
     "i32 i32 i32 i1", "f64"},
    {"waveMatrix_Multiply", 233, "WaveMatrix_Multiply", "void", "i32 i32 i32", "f32"},
    {"waveMatrix_ScalarOp.f32", 235, "WaveMatrix_ScalarOp", "void", "i32 i8 f32", "f64"},
    {"waveMatrix_Accumulate", 236, "WaveMatrix_SumAccumulate", "void", "i32 i32", "f32"},
};
// clang-format on

std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    size_t space = s.find(' ');
    out.push_back(s.substr(0, space));
    s = space == std::string_view::npos ? std::string_view() : s.substr(space + 1);
  }
  return out;
}

/// A library (shader model 6.<minor>, DXIL 1.8) whose function @main, which no entry reaches
/// (so that the stages are not decidable and only the call's types are checked), calls one
/// dx.op function.
struct Library : LlvmModuleBuilder {
  explicit Library(uint32_t minor) {
    named("dx.version", {node({mdI32(1), mdI32(8)})});
    named("dx.valver", {node({mdI32(1), mdI32(8)})});
    named("dx.shaderModel", {node({mdString("lib"), mdI32(6), mdI32(minor)})});
    named("dx.entryPoints", {node({kNoId, mdString(""), kNoId, kNoId, kNoId})});
  }
  /// The type a token spells; struct members as DXIL defines them.
  TypeId parse(std::string_view t) {
    if (t == "void")
      return voidType();
    if (t == "f16")
      return scalar(TypeKind::Half, 0);
    if (t == "f32")
      return f32();
    if (t == "f64")
      return scalar(TypeKind::Double, 0);
    if (t.ends_with("*"))
      return pointer(parse(t.substr(0, t.size() - 1)));
    if (t == "%Handle" || t == "%NodeRecordHandle")
      return identified("dx.types." + std::string(t.substr(1)), {pointer(integer(8))});
    if (t == "%ResRet.f32") {
      TypeId f = f32();
      return identified("dx.types.ResRet.f32", {f, f, f, f, integer(32)});
    }
    if (t == "%twoi32")
      return identified("dx.types.twoi32", {integer(32), integer(32)});
    if (t == "%i32c")
      return identified("dx.types.i32c", {integer(32), integer(1)});
    if (t == "%SamplePos")
      return identified("dx.types.SamplePos", {f32(), f32()});
    if (t == "%struct.Payload")
      return identified("struct.Payload", {f32()});
    EXPECT_EQ(t[0], 'i') << t;
    return integer(uint32_t(std::stoul(std::string(t.substr(1)))));
  }
  /// An identified struct, made once.
  TypeId identified(const std::string &name, std::initializer_list<TypeId> members) {
    for (TypeId t = 0; t < m.types.size(); ++t)
      if (m.types[t].identified && m.str(m.types[t].name) == name)
        return t;
    return structType(name, members);
  }
};

/// A different type than `t`, for the wrong-type cases.
std::string_view otherThan(std::string_view t) { return t == "i32" ? "f32" : "i32"; }

/// Decodes a library calling dx.op.<function> with the result and parameter types given (the
/// opcode's i32 first), its arguments undefined values of those types.
std::string decodeCall(std::string_view function, uint32_t opcode, std::string_view result,
                       const std::vector<std::string_view> &parameters, uint32_t minor = 8) {
  Library s(minor);
  TypeId i32 = s.integer(32);
  std::vector<TypeId> types{s.parse(result), i32};
  for (std::string_view p : parameters)
    types.push_back(s.parse(p));
  dxil::Type fnType;
  fnType.kind = TypeKind::Function;
  fnType.firstElement = uint32_t(s.m.typeElements.size());
  fnType.numElements = uint32_t(types.size());
  s.m.typeElements.insert(s.m.typeElements.end(), types.begin(), types.end());
  s.m.types.push_back(fnType);
  uint32_t fn = s.declare(TypeId(s.m.types.size() - 1), "dx.op." + std::string(function));
  s.declare(s.function({s.voidType()}), "main", true);
  std::vector<ValueId> args{s.constInt(i32, opcode)};
  for (size_t i = 2; i < types.size(); ++i)
    args.push_back(s.undef(types[i]));
  // call() takes an initializer list; build the instruction the way it does.
  dxil::Instruction inst;
  inst.opcode = dxil::Opcode::Call;
  inst.auxType = s.m.functions[fn].functionType;
  inst.type = types[0];
  inst.firstOperand = uint32_t(s.m.operands.size());
  s.m.operands.push_back(s.functionValue(fn));
  s.m.operands.insert(s.m.operands.end(), args.begin(), args.end());
  inst.numOperands = uint32_t(args.size() + 1);
  s.m.instructions.push_back(inst);
  ++s.m.functions.back().numInstructions;
  Expected<DxilModule> d = decodeDxil(s.m);
  if (!d)
    return d.error().message;
  if (d->opCalls.size() != 1)
    return "decoded " + std::to_string(d->opCalls.size()) + " calls";
  const OpInfo *op = d->opCalls[0].op;
  return "decoded " + std::string(op->name) + " of class " + std::string(opClassName(op->opClass));
}

std::string className(std::string_view function) {
  return std::string(function.substr(0, function.find('.')));
}

TEST(DxilOpClasses, EveryUncalledClassChecksItsOperands) {
  for (const ClassCall &c : kCalls) {
    SCOPED_TRACE(c.function);
    std::vector<std::string_view> params = tokens(c.parameters);
    std::string callee = "@main: instruction 0: call of @dx.op." + std::string(c.function) + ": ";
    std::string op = "opcode " + std::to_string(c.opcode) + " (" + std::string(c.name) + ")";
    EXPECT_EQ(decodeCall(c.function, c.opcode, c.result, params),
              "decoded " + std::string(c.name) + " of class " + className(c.function));

    // A wrong type: the last parameter, or the result when there is none.
    if (!params.empty()) {
      std::vector<std::string_view> wrong = params;
      wrong.back() = otherThan(wrong.back());
      std::string error = decodeCall(c.function, c.opcode, c.result, wrong);
      std::string expected =
          callee + op + ": operand " + std::to_string(params.size()) + " is not ";
      EXPECT_EQ(error.substr(0, expected.size()), expected) << error;
    } else {
      std::string error = decodeCall(c.function, c.opcode, otherThan(c.result), params);
      std::string expected = callee + op + ": the result is not ";
      EXPECT_EQ(error.substr(0, expected.size()), expected) << error;
    }

    // One operand too many.
    std::vector<std::string_view> more = params;
    more.push_back("i32");
    EXPECT_EQ(decodeCall(c.function, c.opcode, c.result, more),
              callee + op + " takes " + std::to_string(params.size()) +
                  " operands after the opcode, the function " + std::to_string(params.size() + 1));

    // An overload the class has no operation for.
    std::string bad = className(c.function) + "." + std::string(c.badOverload);
    EXPECT_EQ(decodeCall(bad, c.opcode, c.result, params),
              "@main: instruction 0: call of @dx.op." + bad +
                  ": not a dx.op function of a known class and overload");
  }
}

TEST(DxilOpClasses, WaveMatrixClassesCheckTheirNameAndOpcodeOnly) {
  for (const ClassCall &c : kUncheckedCalls) {
    SCOPED_TRACE(c.function);
    std::vector<std::string_view> params = tokens(c.parameters);
    std::string expected = "decoded " + std::string(c.name) + " of class " + className(c.function);
    EXPECT_EQ(decodeCall(c.function, c.opcode, c.result, params, 9), expected);
    // Any function type passes: the table does not give these signatures.
    params.push_back("i32");
    EXPECT_EQ(decodeCall(c.function, c.opcode, c.result, params, 9), expected);
    // The shader model is checked.
    EXPECT_EQ(decodeCall(c.function, c.opcode, c.result, params, 8),
              "@main: instruction 0: call of @dx.op." + std::string(c.function) + ": opcode " +
                  std::to_string(c.opcode) + " (" + std::string(c.name) +
                  ") needs shader model 6.9, the module is 6.8");
    std::string bad = className(c.function) + "." + std::string(c.badOverload);
    EXPECT_EQ(decodeCall(bad, c.opcode, c.result, params, 9),
              "@main: instruction 0: call of @dx.op." + bad +
                  ": not a dx.op function of a known class and overload");
  }
}

TEST(DxilOpClasses, TheTablesCoverEveryClassNoCorpusProgramCalls) {
  // 68 classes with signatures and the 10 WaveMatrix ones: the classes no corpus program calls
  // (the corpus tests check the others on real programs).
  std::vector<std::string> names;
  for (const ClassCall &c : kCalls)
    names.push_back(className(c.function));
  for (const ClassCall &c : kUncheckedCalls)
    names.push_back(className(c.function));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  EXPECT_EQ(names.size(), 78u);
  for (const std::string &n : names)
    EXPECT_TRUE(opClassFromName(n)) << n;
}

} // namespace
} // namespace spire::test
