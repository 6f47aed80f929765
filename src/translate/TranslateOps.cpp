// The dx.op calls that compute (math, bits, conversions), synchronize (barriers) and talk to the
// wave (subgroup operations), with DXIL's exact semantics where SPIR-V leaves a case undefined
// (digest section 4.7). Resources: TranslateResources.cpp; stage I/O: TranslateStageIO.cpp.
#include "Translator.h"

namespace spire::translate {

using dxil::DxOp;

namespace {

/// GLSL.std.450 names of the float unary operations.
std::string_view unaryFloat(DxOp op) {
  switch (op) {
  case DxOp::FAbs:
    return "FAbs";
  case DxOp::Cos:
    return "Cos";
  case DxOp::Sin:
    return "Sin";
  case DxOp::Tan:
    return "Tan";
  case DxOp::Acos:
    return "Acos";
  case DxOp::Asin:
    return "Asin";
  case DxOp::Atan:
    return "Atan";
  case DxOp::Hcos:
    return "Cosh";
  case DxOp::Hsin:
    return "Sinh";
  case DxOp::Htan:
    return "Tanh";
  case DxOp::Exp:
    return "Exp2";
  case DxOp::Frc:
    return "Fract";
  case DxOp::Log:
    return "Log2";
  case DxOp::Sqrt:
    return "Sqrt";
  case DxOp::Rsqrt:
    return "InverseSqrt";
  case DxOp::Round_ne:
    return "RoundEven";
  case DxOp::Round_ni:
    return "Floor";
  case DxOp::Round_pi:
    return "Ceil";
  case DxOp::Round_z:
    return "Trunc";
  default:
    return {};
  }
}

} // namespace

uint32_t Translator::opArgument(const dxil::DxilOpCall &call, std::span<const dxil::ValueId> args,
                                size_t i) {
  if (i >= args.size())
    return fail("dx.op." + std::string(call.op->name) + " has too few operands");
  return value(args[i]);
}

bool Translator::opConstant(const dxil::DxilOpCall &call, std::span<const dxil::ValueId> args,
                            size_t i, int64_t &out) {
  if (i < args.size() && constantInt(args[i], out))
    return true;
  fail("operand " + std::to_string(i + 1) + " of dx.op." + std::string(call.op->name) +
       " must be a constant");
  return false;
}

bool Translator::translateOpCall(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                 std::span<const dxil::ValueId> args) {
  const DxOp op = DxOp(call.op->opcode);
  const bool hasResult = inst.value != dxil::kNoId;
  // Handles are no SPIR-V values (their { i8* } would declare an 8-bit type for nothing), nor
  // are node handles; a node record pointer's type is its payload's (TranslateNodes.cpp).
  const std::string_view resultName = llvm().str(llvm().type(inst.type).name);
  const bool handleResult =
      hasResult && (resultName == "dx.types.Handle" || resultName == "dx.types.NodeHandle" ||
                    resultName == "dx.types.NodeRecordHandle" || op == DxOp::GetNodeRecordPtr);
  const uint32_t type = hasResult && !handleResult ? llvmType(inst.type) : 0;
  if (failed_)
    return false;
  auto arg = [&](size_t i) { return opArgument(call, args, i); };
  auto constArg = [&](size_t i, int64_t &out) { return opConstant(call, args, i, out); };
  auto result = [&](uint32_t id) {
    if (hasResult)
      setValue(inst.value, id);
    return !failed_;
  };

  if (bool ags = false, ok = translateAgsOp(call, inst, args, ags); ags || !ok)
    return ok;
  if (std::string_view name = unaryFloat(op); !name.empty())
    return result(glsl(name, type, {arg(0)}));

  switch (op) {
  // ---- float math ---------------------------------------------------------------------------
  case DxOp::Saturate: {
    // NaN saturates to 0: NMax returns the number when one operand is NaN.
    const uint32_t zero = constI(type, 0);
    const uint32_t one = scalarWidth(type) == 64   ? constI(type, 0x3FF0000000000000ull)
                         : scalarWidth(type) == 16 ? constI(type, 0x3C00)
                                                   : constI(type, 0x3F800000);
    return result(glsl("NMin", type, {glsl("NMax", type, {arg(0), zero}), one}));
  }
  case DxOp::DerivCoarseX:
  case DxOp::DerivCoarseY:
  case DxOp::DerivFineX:
  case DxOp::DerivFineY: {
    capability(Capability::DerivativeControl);
    requireDerivatives();
    const Op spv = op == DxOp::DerivCoarseX   ? Op::DPdxCoarse
                   : op == DxOp::DerivCoarseY ? Op::DPdyCoarse
                   : op == DxOp::DerivFineX   ? Op::DPdxFine
                                              : Op::DPdyFine;
    return result(emit(spv, type, {arg(0)}));
  }
  case DxOp::IsNaN:
    return result(emit(Op::IsNan, type, {arg(0)}));
  case DxOp::IsInf:
    return result(emit(Op::IsInf, type, {arg(0)}));
  case DxOp::IsFinite: {
    const uint32_t x = arg(0);
    return result(emit(
        Op::LogicalNot, type,
        {emit(Op::LogicalOr, type, {emit(Op::IsNan, type, {x}), emit(Op::IsInf, type, {x})})}));
  }
  case DxOp::IsNormal: {
    // The exponent field is neither all zeros (zero, denormal) nor all ones (inf, NaN).
    const uint32_t x = arg(0);
    const uint32_t ftype = llvmType(llvm().typeOf(args[0]));
    const uint32_t width = scalarWidth(ftype);
    const uint32_t itype = typeInt(width);
    const uint32_t mantissa = width == 16 ? 10 : width == 32 ? 23 : 52;
    const uint64_t expMask = width == 16 ? 0x1F : width == 32 ? 0xFF : 0x7FF;
    const uint32_t bits = bitcast(itype, x);
    const uint32_t e = emit(Op::BitwiseAnd, itype,
                            {emit(Op::ShiftRightLogical, itype, {bits, constI(itype, mantissa)}),
                             constI(itype, expMask)});
    return result(emit(Op::LogicalAnd, type,
                       {emit(Op::INotEqual, type, {e, constI(itype, 0)}),
                        emit(Op::INotEqual, type, {e, constI(itype, expMask)})}));
  }
  case DxOp::FMax:
    return result(glsl("NMax", type, {arg(0), arg(1)}));
  case DxOp::FMin:
    return result(glsl("NMin", type, {arg(0), arg(1)}));
  case DxOp::FMad:
  case DxOp::Fma:
    return result(glsl("Fma", type, {arg(0), arg(1), arg(2)}));
  case DxOp::Dot2:
  case DxOp::Dot3:
  case DxOp::Dot4: {
    const uint32_t n = op == DxOp::Dot2 ? 2 : op == DxOp::Dot3 ? 3 : 4;
    std::vector<uint32_t> a, b;
    for (uint32_t i = 0; i < n; ++i) {
      a.push_back(arg(i));
      b.push_back(arg(n + i));
    }
    const uint32_t vec = typeVector(type, n);
    return result(
        emit(Op::Dot, type,
             {emit(Op::CompositeConstruct, vec, a), emit(Op::CompositeConstruct, vec, b)}));
  }

  // ---- integer math -------------------------------------------------------------------------
  case DxOp::IMax:
    return result(glsl("SMax", type, {arg(0), arg(1)}));
  case DxOp::IMin:
    return result(glsl("SMin", type, {arg(0), arg(1)}));
  case DxOp::UMax:
    return result(glsl("UMax", type, {arg(0), arg(1)}));
  case DxOp::UMin:
    return result(glsl("UMin", type, {arg(0), arg(1)}));
  case DxOp::IMad:
  case DxOp::UMad:
    return result(emit(Op::IAdd, type, {emit(Op::IMul, type, {arg(0), arg(1)}), arg(2)}));
  case DxOp::Bfrev:
    return result(emit(Op::BitReverse, type, {arg(0)}));
  case DxOp::Countbits: {
    const uint32_t x = arg(0);
    const uint32_t xt = llvmType(llvm().typeOf(args[0]));
    const uint32_t width = scalarWidth(xt);
    const uint32_t u32 = typeInt(32);
    if (width == 32)
      return result(emit(Op::BitCount, type, {x}));
    if (width < 32)
      return result(emit(Op::BitCount, type, {emit(Op::UConvert, u32, {x})}));
    const uint32_t lo = emit(Op::UConvert, u32, {x});
    const uint32_t hi =
        emit(Op::UConvert, u32, {emit(Op::ShiftRightLogical, xt, {x, constI(xt, 32)})});
    return result(
        emit(Op::IAdd, type, {emit(Op::BitCount, type, {lo}), emit(Op::BitCount, type, {hi})}));
  }
  case DxOp::IMul:
  case DxOp::UMul: {
    // %dx.types.twoi32: (hi, lo); OpSMulExtended gives (lo, hi).
    const uint32_t t = memberType(inst.type, 0);
    const uint32_t pair = typeUniqued(Op::TypeStruct, {t, t});
    const uint32_t r =
        emit(op == DxOp::IMul ? Op::SMulExtended : Op::UMulExtended, pair, {arg(0), arg(1)});
    setAggregate(inst.value,
                 {emit(Op::CompositeExtract, t, {r, 1}), emit(Op::CompositeExtract, t, {r, 0})});
    return !failed_;
  }
  case DxOp::UDiv: {
    // (quotient, remainder); division by 0 gives 0xFFFFFFFF for both.
    const uint32_t t = memberType(inst.type, 0);
    const uint32_t a = arg(0), b = arg(1);
    const uint32_t zero = emit(Op::IEqual, typeBool(), {b, constI(t, 0)});
    const uint32_t ones = constI(t, ~0ull);
    setAggregate(inst.value, {emit(Op::Select, t, {zero, ones, emit(Op::UDiv, t, {a, b})}),
                              emit(Op::Select, t, {zero, ones, emit(Op::UMod, t, {a, b})})});
    return !failed_;
  }
  case DxOp::UAddc:
  case DxOp::USubb: {
    // %dx.types.i32c: (value, carry as i1).
    const uint32_t t = memberType(inst.type, 0);
    const uint32_t pair = typeUniqued(Op::TypeStruct, {t, t});
    const uint32_t r =
        emit(op == DxOp::UAddc ? Op::IAddCarry : Op::ISubBorrow, pair, {arg(0), arg(1)});
    setAggregate(inst.value, {emit(Op::CompositeExtract, t, {r, 0}),
                              emit(Op::INotEqual, typeBool(),
                                   {emit(Op::CompositeExtract, t, {r, 1}), constI(t, 0)})});
    return !failed_;
  }
  case DxOp::Ibfe:
  case DxOp::Ubfe: {
    // (width, offset, value): both masked to 5 bits; a field running past bit 31 stops there.
    const uint32_t width = emit(Op::BitwiseAnd, type, {arg(0), constI(type, 31)});
    const uint32_t offset = emit(Op::BitwiseAnd, type, {arg(1), constI(type, 31)});
    const uint32_t count =
        glsl("UMin", type, {width, emit(Op::ISub, type, {constI(type, 32), offset})});
    return result(emit(op == DxOp::Ibfe ? Op::BitFieldSExtract : Op::BitFieldUExtract, type,
                       {arg(2), offset, count}));
  }
  case DxOp::Bfi: {
    // (width, offset, value, replaced)
    const uint32_t width = emit(Op::BitwiseAnd, type, {arg(0), constI(type, 31)});
    const uint32_t offset = emit(Op::BitwiseAnd, type, {arg(1), constI(type, 31)});
    const uint32_t count =
        glsl("UMin", type, {width, emit(Op::ISub, type, {constI(type, 32), offset})});
    return result(emit(Op::BitFieldInsert, type, {arg(3), arg(2), offset, count}));
  }

  // ---- conversions --------------------------------------------------------------------------
  case DxOp::BitcastI16toF16:
  case DxOp::BitcastF16toI16:
  case DxOp::BitcastI32toF32:
  case DxOp::BitcastF32toI32:
  case DxOp::BitcastI64toF64:
  case DxOp::BitcastF64toI64: {
    const uint32_t x = arg(0);
    return result(llvmType(llvm().typeOf(args[0])) == type ? x : bitcast(type, x));
  }
  case DxOp::MakeDouble: {
    const uint32_t v2 = typeVector(typeInt(32), 2);
    return result(bitcast(type, emit(Op::CompositeConstruct, v2, {arg(0), arg(1)})));
  }
  case DxOp::SplitDouble: {
    const uint32_t u32 = typeInt(32);
    const uint32_t v = bitcast(typeVector(u32, 2), arg(0));
    setAggregate(inst.value, {emit(Op::CompositeExtract, u32, {v, 0}),
                              emit(Op::CompositeExtract, u32, {v, 1})});
    return !failed_;
  }
  case DxOp::LegacyF32ToF16: {
    const uint32_t f32 = typeFloat(32);
    const uint32_t v = emit(Op::CompositeConstruct, typeVector(f32, 2), {arg(0), constF32(0)});
    return result(glsl("PackHalf2x16", type, {v}));
  }
  case DxOp::LegacyF16ToF32: {
    const uint32_t f32 = typeFloat(32);
    const uint32_t v = glsl("UnpackHalf2x16", typeVector(f32, 2), {arg(0)});
    return result(emit(Op::CompositeExtract, type, {v, 0}));
  }
  case DxOp::LegacyDoubleToFloat:
    return result(emit(Op::FConvert, type, {arg(0)}));
  case DxOp::LegacyDoubleToSInt32:
    return result(emit(Op::ConvertFToS, type, {arg(0)}));
  case DxOp::LegacyDoubleToUInt32:
    return result(emit(Op::ConvertFToU, type, {arg(0)}));

  // ---- compute built-ins ----------------------------------------------------------------------
  case DxOp::ThreadId:
  case DxOp::GroupId:
  case DxOp::ThreadIdInGroup: {
    int64_t component = 0;
    if (!constArg(0, component))
      return false;
    if (component < 0 || component > 2)
      return fail("component " + std::to_string(component) + " of a 3-component built-in");
    const BuiltIn builtIn = op == DxOp::ThreadId  ? BuiltIn::GlobalInvocationId
                            : op == DxOp::GroupId ? BuiltIn::WorkgroupId
                                                  : BuiltIn::LocalInvocationId;
    const uint32_t u32 = typeInt(32);
    const uint32_t var = builtinInput(builtIn, typeVector(u32, 3));
    const uint32_t ptr = emit(Op::AccessChain, typePointer(StorageClass::Input, u32),
                              {var, constU32(uint32_t(component))});
    return result(emit(Op::Load, u32, {ptr}));
  }
  case DxOp::FlattenedThreadIdInGroup: {
    const uint32_t u32 = typeInt(32);
    return result(emit(Op::Load, u32, {builtinInput(BuiltIn::LocalInvocationIndex, u32)}));
  }

  // ---- barriers -------------------------------------------------------------------------------
  case DxOp::Barrier: {
    int64_t flags = 0;
    if (!constArg(0, flags))
      return false;
    // 1 SyncThreadGroup, 2 UAVFenceGlobal, 4 UAVFenceThreadGroup, 8 TGSMFence.
    uint32_t semantics = 0;
    if (flags & 8)
      semantics |= uint32_t(grammar::MemorySemantics::WorkgroupMemory);
    if (flags & 6)
      semantics |= uint32_t(grammar::MemorySemantics::UniformMemory) |
                   uint32_t(grammar::MemorySemantics::ImageMemory);
    if (semantics)
      semantics |= uint32_t(grammar::MemorySemantics::AcquireRelease);
    const uint32_t memoryScope =
        uint32_t(flags & 2 ? grammar::Scope::Device : grammar::Scope::Workgroup);
    if (flags & 1)
      emitVoid(Op::ControlBarrier, {constU32(uint32_t(grammar::Scope::Workgroup)),
                                    constU32(memoryScope), constU32(semantics)});
    else if (semantics)
      emitVoid(Op::MemoryBarrier, {constU32(memoryScope), constU32(semantics)});
    return !failed_;
  }

  // ---- wave operations ------------------------------------------------------------------------
  case DxOp::WaveIsFirstLane:
    capability(Capability::GroupNonUniform);
    return result(
        emit(Op::GroupNonUniformElect, type, {constU32(uint32_t(grammar::Scope::Subgroup))}));
  case DxOp::WaveGetLaneIndex:
    capability(Capability::GroupNonUniform);
    return result(
        emit(Op::Load, type, {builtinInput(BuiltIn::SubgroupLocalInvocationId, typeInt(32))}));
  case DxOp::WaveGetLaneCount:
    capability(Capability::GroupNonUniform);
    return result(emit(Op::Load, type, {builtinInput(BuiltIn::SubgroupSize, typeInt(32))}));
  case DxOp::WaveAnyTrue:
  case DxOp::WaveAllTrue:
  case DxOp::WaveActiveAllEqual: {
    capability(Capability::GroupNonUniformVote);
    const Op spv = op == DxOp::WaveAnyTrue   ? Op::GroupNonUniformAny
                   : op == DxOp::WaveAllTrue ? Op::GroupNonUniformAll
                                             : Op::GroupNonUniformAllEqual;
    return result(emit(spv, type, {constU32(uint32_t(grammar::Scope::Subgroup)), arg(0)}));
  }
  case DxOp::WaveActiveBallot: {
    capability(Capability::GroupNonUniformBallot);
    const uint32_t u32 = typeInt(32);
    const uint32_t ballot = emit(Op::GroupNonUniformBallot, typeVector(u32, 4),
                                 {constU32(uint32_t(grammar::Scope::Subgroup)), arg(0)});
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < 4; ++i)
      parts.push_back(emit(Op::CompositeExtract, u32, {ballot, i}));
    setAggregate(inst.value, parts);
    return !failed_;
  }
  case DxOp::WaveReadLaneAt:
    capability(Capability::GroupNonUniformShuffle);
    return result(emit(Op::GroupNonUniformShuffle, type,
                       {constU32(uint32_t(grammar::Scope::Subgroup)), arg(0), arg(1)}));
  case DxOp::WaveReadLaneFirst:
    capability(Capability::GroupNonUniformBallot);
    return result(emit(Op::GroupNonUniformBroadcastFirst, type,
                       {constU32(uint32_t(grammar::Scope::Subgroup)), arg(0)}));
  case DxOp::WaveActiveOp:
  case DxOp::WavePrefixOp:
  case DxOp::WaveActiveBit: {
    capability(Capability::GroupNonUniformArithmetic);
    int64_t kind = 0, sign = 0;
    if (!constArg(1, kind))
      return false;
    if (op != DxOp::WaveActiveBit && !constArg(2, sign))
      return false;
    const bool isFloat = isFloatType(type), isBool = isBoolType(type);
    Op spv = Op::Nop;
    if (op == DxOp::WaveActiveBit) {
      spv = kind == 0   ? Op::GroupNonUniformBitwiseAnd
            : kind == 1 ? Op::GroupNonUniformBitwiseOr
                        : Op::GroupNonUniformBitwiseXor;
    } else if (kind == 0) { // sum
      spv = isFloat ? Op::GroupNonUniformFAdd : Op::GroupNonUniformIAdd;
    } else if (kind == 1) { // product
      spv = isFloat ? Op::GroupNonUniformFMul : Op::GroupNonUniformIMul;
    } else if (kind == 2) { // min
      spv = isFloat ? Op::GroupNonUniformFMin
            : sign  ? Op::GroupNonUniformUMin
                    : Op::GroupNonUniformSMin;
    } else if (kind == 3) { // max
      spv = isFloat ? Op::GroupNonUniformFMax
            : sign  ? Op::GroupNonUniformUMax
                    : Op::GroupNonUniformSMax;
    }
    if (spv == Op::Nop || isBool)
      return fail("wave operation kind " + std::to_string(kind) + " on this type");
    const uint32_t groupOp =
        uint32_t(op == DxOp::WavePrefixOp ? grammar::GroupOperation::ExclusiveScan
                                          : grammar::GroupOperation::Reduce);
    return result(emit(spv, type, {constU32(uint32_t(grammar::Scope::Subgroup)), groupOp, arg(0)}));
  }
  case DxOp::WaveAllBitCount:
  case DxOp::WavePrefixBitCount: {
    capability(Capability::GroupNonUniformBallot);
    const uint32_t u32 = typeInt(32);
    const uint32_t scope = constU32(uint32_t(grammar::Scope::Subgroup));
    const uint32_t ballot = emit(Op::GroupNonUniformBallot, typeVector(u32, 4), {scope, arg(0)});
    const uint32_t groupOp =
        uint32_t(op == DxOp::WavePrefixBitCount ? grammar::GroupOperation::ExclusiveScan
                                                : grammar::GroupOperation::Reduce);
    return result(emit(Op::GroupNonUniformBallotBitCount, type, {scope, groupOp, ballot}));
  }
  case DxOp::QuadReadLaneAt:
    capability(Capability::GroupNonUniformQuad);
    requireDerivatives(true);
    return result(emit(Op::GroupNonUniformQuadBroadcast, type,
                       {constU32(uint32_t(grammar::Scope::Subgroup)), arg(0), arg(1)}));
  case DxOp::QuadOp: {
    capability(Capability::GroupNonUniformQuad);
    requireDerivatives(true);
    int64_t direction = 0;
    if (!constArg(1, direction))
      return false;
    return result(emit(
        Op::GroupNonUniformQuadSwap, type,
        {constU32(uint32_t(grammar::Scope::Subgroup)), arg(0), constU32(uint32_t(direction))}));
  }
  case DxOp::QuadVote: {
    // Any / all over the quad: the lane's value combined with the three others'.
    capability(Capability::GroupNonUniformQuad);
    requireDerivatives(true);
    int64_t kind = 0;
    if (!constArg(1, kind))
      return false;
    const uint32_t x = arg(0), scope = constU32(uint32_t(grammar::Scope::Subgroup));
    const Op combine = kind == 0 ? Op::LogicalOr : Op::LogicalAnd;
    uint32_t acc = x;
    for (uint32_t d = 0; d < 3; ++d)
      acc = emit(combine, type,
                 {acc, emit(Op::GroupNonUniformQuadSwap, type, {scope, x, constU32(d)})});
    return result(acc);
  }
  default:
    break;
  }
  bool handled = false;
  // Node ops first: the families below type every call's result before they look at it, and a
  // node handle's { i8* } would declare an 8-bit type.
  if (!translateNodeOp(call, inst, args, handled) || handled)
    return !failed_;
  if (!translateHeapOp(call, inst, args, handled) || handled)
    return !failed_;
  if (!translateResourceOp(call, inst, args, handled) || handled)
    return !failed_;
  if (!translateStageOp(call, inst, args, handled) || handled)
    return !failed_;
  if (!translateTextureOp(call, inst, args, handled) || handled)
    return !failed_;
  if (!translateMoreOp(call, inst, args, handled) || handled)
    return !failed_;
  if (!translateRayTracingOp(call, inst, args, handled) || handled ||
      !translateRayQueryOp(call, inst, args, handled) || handled)
    return !failed_;
  // What is left has no Vulkan meaning: the register helpers of DXBC-to-DXIL conversion (DXC
  // never emits them) and the experimental SM 6.8 wave matrices (left out of the final model).
  const uint32_t opcode = call.op->opcode;
  const char *why =
      opcode <= uint32_t(DxOp::MinPrecXRegStore)
          ? "a register helper of DXBC-to-DXIL conversion, which DXC does not emit"
      : opcode >= uint32_t(DxOp::WaveMatrix_Annotate) && opcode <= uint32_t(DxOp::WaveMatrix_Add)
          ? "an experimental SM 6.8 wave matrix operation, left out of the final "
            "shader model"
          : "not translated";
  return fail("unsupported: dx.op " + std::string(call.op->name) + " (" + std::to_string(opcode) +
              "): " + why);
}

} // namespace spire::translate
