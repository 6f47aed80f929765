// The dx.ops beside TranslateOps.cpp's: first-bit searches of every width, Msad, the packed
// 8-bit operations (Pack4x8, Unpack4x8, Dot4Add*8Packed), Dot2AddHalf, WaveMatch and
// WaveMultiPrefixBitCount (from ballots), the SM 6.8 barriers and the legacy cycle counter, each
// with DXIL's semantics (DXIL.rst and digest section 4.7).
#include "Translator.h"

#include <algorithm>

namespace spire::translate {

using dxil::DxOp;

namespace {

/// The memory semantics of barrier memory-type flags (UAV 1, groupshared 2; node memory, 4
/// and 8, has no compute equivalent), with AcquireRelease when any.
uint32_t barrierSemantics(uint32_t memoryTypes) {
  using grammar::MemorySemantics;
  uint32_t s = 0;
  if (memoryTypes & 1)
    s |= uint32_t(MemorySemantics::UniformMemory) | uint32_t(MemorySemantics::ImageMemory);
  if (memoryTypes & 2)
    s |= uint32_t(MemorySemantics::WorkgroupMemory);
  return s ? s | uint32_t(MemorySemantics::AcquireRelease) : 0;
}

} // namespace

bool Translator::translateMoreOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                 std::span<const dxil::ValueId> args, bool &handled) {
  const DxOp op = DxOp(call.op->opcode);
  handled = true;
  const bool hasResult = inst.value != dxil::kNoId;
  auto arg = [&](size_t i) { return opArgument(call, args, i); };
  auto constArg = [&](size_t i, int64_t &out) { return opConstant(call, args, i, out); };
  auto argType = [&](size_t i) -> uint32_t {
    return i < args.size() ? llvmType(llvm().typeOf(args[i])) : 0;
  };
  auto result = [&](uint32_t id) {
    if (hasResult)
      setValue(inst.value, id);
    return !failed();
  };
  const uint32_t u32 = typeInt(32), boolean = typeBool();
  const uint32_t ones = constU32(~0u);
  auto notZero = [&](uint32_t x) { return emit(Op::INotEqual, boolean, {x, constU32(0)}); };
  const uint32_t subgroup = constU32(uint32_t(grammar::Scope::Subgroup));

  switch (op) {
  // ---- first set bit ------------------------------------------------------------------------
  case DxOp::FirstbitLo: {
    // The lowest set bit; 0xFFFFFFFF when none. GLSL's FindILsb takes 32 bits.
    const uint32_t x = arg(0), xt = argType(0);
    const uint32_t width = scalarWidth(xt);
    if (width == 32)
      return result(glsl("FindILsb", u32, {x}));
    if (width < 32)
      return result(glsl("FindILsb", u32, {emit(Op::UConvert, u32, {x})}));
    const uint32_t lo = emit(Op::UConvert, u32, {x});
    const uint32_t hi =
        emit(Op::UConvert, u32, {emit(Op::ShiftRightLogical, xt, {x, constI(xt, 32)})});
    const uint32_t high =
        emit(Op::Select, u32,
             {notZero(hi), emit(Op::IAdd, u32, {glsl("FindILsb", u32, {hi}), constU32(32)}), ones});
    return result(emit(Op::Select, u32, {notZero(lo), glsl("FindILsb", u32, {lo}), high}));
  }
  case DxOp::FirstbitHi:
  case DxOp::FirstbitSHi: {
    // The highest bit that differs from the sign (FirstbitSHi) or is set (FirstbitHi), counted
    // from the most significant bit; 0xFFFFFFFF when none.
    const bool isSigned = op == DxOp::FirstbitSHi;
    uint32_t x = arg(0);
    const uint32_t xt = argType(0);
    // The DXIL type's width: a min-precision i16 is carried in 32 bits, of which its low 16
    // count.
    const uint32_t width =
        args.empty() ? 32 : std::min<uint32_t>(llvm().type(llvm().typeOf(args[0])).bits, 64);
    uint32_t msb = 0;
    if (width <= 32) {
      if (scalarWidth(xt) < 32)
        x = emit(isSigned ? Op::SConvert : Op::UConvert, u32, {x});
      else if (width < 32)
        x = emit(isSigned ? Op::BitFieldSExtract : Op::BitFieldUExtract, u32,
                 {x, constU32(0), constU32(width)});
      msb = glsl(isSigned ? "FindSMsb" : "FindUMsb", u32, {x});
    } else {
      if (isSigned) // the highest bit that differs from the sign: the highest set bit of ~x
        x = emit(Op::Select, xt,
                 {emit(Op::SLessThan, boolean, {x, constI(xt, 0)}), emit(Op::Not, xt, {x}), x});
      const uint32_t lo = emit(Op::UConvert, u32, {x});
      const uint32_t hi =
          emit(Op::UConvert, u32, {emit(Op::ShiftRightLogical, xt, {x, constI(xt, 32)})});
      msb = emit(Op::Select, u32,
                 {notZero(hi), emit(Op::IAdd, u32, {glsl("FindUMsb", u32, {hi}), constU32(32)}),
                  glsl("FindUMsb", u32, {lo})});
    }
    const uint32_t notFound = emit(Op::IEqual, boolean, {msb, ones});
    return result(
        emit(Op::Select, u32, {notFound, ones, emit(Op::ISub, u32, {constU32(width - 1), msb})}));
  }

  // ---- packed bytes -------------------------------------------------------------------------
  case DxOp::Msad: {
    // (ref, src, accum): the absolute differences of the bytes whose ref byte is not 0, added
    // to accum with a 32-bit saturation (DXIL.rst's reference).
    if (scalarWidth(argType(0)) != 32)
      return fail("Msad of values that are not 32 bits");
    const uint32_t ref = arg(0), src = arg(1);
    uint32_t acc = arg(2);
    const uint32_t pair = typeUniqued(Op::TypeStruct, {u32, u32});
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t r = emit(Op::BitFieldUExtract, u32, {ref, constU32(8 * i), constU32(8)});
      const uint32_t s = emit(Op::BitFieldUExtract, u32, {src, constU32(8 * i), constU32(8)});
      uint32_t diff = emit(Op::Select, u32,
                           {emit(Op::UGreaterThanEqual, boolean, {r, s}),
                            emit(Op::ISub, u32, {r, s}), emit(Op::ISub, u32, {s, r})});
      diff = emit(Op::Select, u32, {notZero(r), diff, constU32(0)});
      const uint32_t sum = emit(Op::IAddCarry, pair, {acc, diff});
      acc = emit(Op::Select, u32,
                 {notZero(emit(Op::CompositeExtract, u32, {sum, 1})), ones,
                  emit(Op::CompositeExtract, u32, {sum, 0})});
    }
    return result(acc);
  }
  case DxOp::Pack4x8: {
    // (mode, x, y, z, w): the low bytes of four values (mode 0), or the values clamped to
    // [0, 255] (1) or [-128, 127] (2) first.
    int64_t mode = 0;
    if (!constArg(0, mode))
      return false;
    if (mode < 0 || mode > 2)
      return fail("Pack4x8 of pack mode " + std::to_string(mode));
    uint32_t packed = constU32(0);
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t v = arg(1 + i);
      if (scalarWidth(argType(1 + i)) != 32)
        v = emit(Op::SConvert, u32, {v});
      if (mode == 1)
        v = glsl("SClamp", u32, {v, constU32(0), constU32(255)});
      else if (mode == 2)
        v = glsl("SClamp", u32, {v, constU32(uint32_t(-128)), constU32(127)});
      packed = emit(Op::BitFieldInsert, u32, {packed, v, constU32(8 * i), constU32(8)});
    }
    return result(packed);
  }
  case DxOp::Unpack4x8: {
    // (mode, packed): four bytes, zero-extended (mode 0) or sign-extended (1).
    int64_t mode = 0;
    if (!constArg(0, mode))
      return false;
    if (mode != 0 && mode != 1)
      return fail("Unpack4x8 of unpack mode " + std::to_string(mode));
    const uint32_t packed = arg(1);
    const uint32_t member = memberType(inst.type, 0);
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t v = emit(mode ? Op::BitFieldSExtract : Op::BitFieldUExtract, u32,
                        {packed, constU32(8 * i), constU32(8)});
      if (scalarWidth(member) != 32)
        v = emit(Op::UConvert, member, {v}); // the low bits keep the sign extension
      parts.push_back(v);
    }
    setAggregate(inst.value, parts);
    return !failed();
  }
  case DxOp::Dot4AddI8Packed:
  case DxOp::Dot4AddU8Packed: {
    // (acc, a, b): acc + the dot product of the four signed / unsigned bytes, wrapping.
    capability(Capability::DotProduct);
    capability(Capability::DotProductInput4x8BitPacked);
    const uint32_t acc = arg(0), a = arg(1), b = arg(2);
    const uint32_t dot =
        emit(op == DxOp::Dot4AddI8Packed ? Op::SDot : Op::UDot, u32,
             {a, b, uint32_t(grammar::PackedVectorFormat::PackedVectorFormat4x8Bit)});
    return result(emit(Op::IAdd, u32, {acc, dot}));
  }
  case DxOp::Dot2AddHalf: {
    // (acc, ax, ay, bx, by): acc + ax*bx + ay*by in 32-bit floats (products of halves are
    // exact there).
    const uint32_t f32 = typeFloat(32);
    auto wide = [&](size_t i) {
      const uint32_t v = arg(i);
      return scalarWidth(argType(i)) == 32 ? v : emit(Op::FConvert, f32, {v});
    };
    const uint32_t vec = typeVector(f32, 2);
    const uint32_t a = emit(Op::CompositeConstruct, vec, {wide(1), wide(2)});
    const uint32_t b = emit(Op::CompositeConstruct, vec, {wide(3), wide(4)});
    const uint32_t dot = emit(Op::Dot, f32, {a, b});
    const uint32_t sum = emit(Op::FAdd, f32, {dot, arg(0)});
    decorate(dot, Decoration::NoContraction);
    decorate(sum, Decoration::NoContraction);
    return result(sum);
  }

  // ---- wave ---------------------------------------------------------------------------------
  case DxOp::WaveMatch: {
    // The active lanes whose value has the same bits as this lane's: the ballot of the active
    // lanes narrowed, bit by bit, to those that agree with this lane on that bit.
    capability(Capability::GroupNonUniformBallot);
    const uint32_t x = arg(0), xt = argType(0);
    const uint32_t width = scalarWidth(xt);
    if (failed())
      return false;
    const uint32_t uvec4 = typeVector(u32, 4);
    std::vector<uint32_t> words; // the value as 32-bit words
    if (width == 64) {
      const uint32_t pair = bitcast(typeVector(u32, 2), x);
      words = {emit(Op::CompositeExtract, u32, {pair, 0}),
               emit(Op::CompositeExtract, u32, {pair, 1})};
    } else if (width == 32) {
      words = {isFloatType(xt) ? bitcast(u32, x) : x};
    } else {
      const uint32_t bits = isFloatType(xt) ? bitcast(typeInt(width), x) : x;
      words = {emit(Op::UConvert, u32, {bits})};
    }
    uint32_t mask = emit(Op::GroupNonUniformBallot, uvec4, {subgroup, constBool(true)});
    for (uint32_t bit = 0; bit < width; ++bit) {
      const uint32_t word = words[bit / 32];
      const uint32_t set = notZero(emit(Op::BitwiseAnd, u32, {word, constU32(1u << bit % 32)}));
      const uint32_t ballot = emit(Op::GroupNonUniformBallot, uvec4, {subgroup, set});
      const uint32_t agree = emit(Op::Select, uvec4, {set, ballot, emit(Op::Not, uvec4, {ballot})});
      mask = emit(Op::BitwiseAnd, uvec4, {mask, agree});
    }
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < 4; ++i)
      parts.push_back(emit(Op::CompositeExtract, u32, {mask, i}));
    setAggregate(inst.value, parts);
    return !failed();
  }
  case DxOp::WaveMultiPrefixOp: {
    // (value, mask x4, op, sign): the exclusive scan over the lanes of the mask (the lanes of
    // this lane's partition) below this one: SPV_NV_shader_subgroup_partitioned's partitioned
    // scan, whose ballot operand is that mask. Ops: Sum 0, And 1, Or 2, Xor 3, Product 4.
    int64_t kind = 0;
    if (!constArg(5, kind))
      return false;
    const uint32_t type = llvmType(inst.type);
    const bool isFloat = isFloatType(type);
    Op spv = Op::Nop;
    switch (kind) {
    case 0:
      spv = isFloat ? Op::GroupNonUniformFAdd : Op::GroupNonUniformIAdd;
      break;
    case 1:
      spv = isFloat ? Op::Nop : Op::GroupNonUniformBitwiseAnd;
      break;
    case 2:
      spv = isFloat ? Op::Nop : Op::GroupNonUniformBitwiseOr;
      break;
    case 3:
      spv = isFloat ? Op::Nop : Op::GroupNonUniformBitwiseXor;
      break;
    case 4:
      spv = isFloat ? Op::GroupNonUniformFMul : Op::GroupNonUniformIMul;
      break;
    default:
      break;
    }
    if (spv == Op::Nop || isBoolType(type))
      return fail("WaveMultiPrefixOp kind " + std::to_string(kind) + " on this type");
    capability(Capability::GroupNonUniformPartitionedNV);
    extension("SPV_NV_shader_subgroup_partitioned");
    const uint32_t mask =
        emit(Op::CompositeConstruct, typeVector(u32, 4), {arg(1), arg(2), arg(3), arg(4)});
    return result(emit(
        spv, type,
        {subgroup, uint32_t(grammar::GroupOperation::PartitionedExclusiveScanNV), arg(0), mask}));
  }
  case DxOp::WaveMultiPrefixBitCount: {
    // (value, mask x4): the active lanes of the mask below this one whose value is true.
    capability(Capability::GroupNonUniformBallot);
    const uint32_t uvec4 = typeVector(u32, 4);
    const uint32_t ballot = emit(Op::GroupNonUniformBallot, uvec4, {subgroup, arg(0)});
    const uint32_t mask = emit(Op::CompositeConstruct, uvec4, {arg(1), arg(2), arg(3), arg(4)});
    const uint32_t below = emit(Op::Load, uvec4, {builtinInput(BuiltIn::SubgroupLtMask, uvec4)});
    const uint32_t lanes =
        emit(Op::BitwiseAnd, uvec4, {emit(Op::BitwiseAnd, uvec4, {ballot, mask}), below});
    return result(emit(Op::GroupNonUniformBallotBitCount, u32,
                       {subgroup, uint32_t(grammar::GroupOperation::Reduce), lanes}));
  }

  // ---- barriers and clocks ------------------------------------------------------------------
  case DxOp::BarrierByMemoryType:
  case DxOp::BarrierByMemoryHandle: {
    // (memory types | handle, semantic flags): GroupSync 1 waits for the group, GroupScope 2
    // and DeviceScope 4 say how far the memory is made visible (none: the group).
    int64_t semanticFlags = 0, memoryTypes = 1; // a handle's memory: a UAV's
    if (op == DxOp::BarrierByMemoryType && !constArg(0, memoryTypes))
      return false;
    if (op == DxOp::BarrierByMemoryHandle && !handle(args.empty() ? dxil::kNoId : args[0]))
      return false;
    if (!constArg(1, semanticFlags))
      return false;
    const uint32_t semantics = barrierSemantics(uint32_t(memoryTypes));
    const uint32_t memoryScope =
        uint32_t(semanticFlags & 4 ? grammar::Scope::Device : grammar::Scope::Workgroup);
    if (semanticFlags & 1)
      emitVoid(Op::ControlBarrier, {constU32(uint32_t(grammar::Scope::Workgroup)),
                                    constU32(memoryScope), constU32(semantics)});
    else if (semantics)
      emitVoid(Op::MemoryBarrier, {constU32(memoryScope), constU32(semantics)});
    return !failed();
  }
  case DxOp::CycleCounterLegacy: {
    // %dx.types.twoi32: the subgroup's clock, low word first.
    capability(Capability::ShaderClockKHR);
    extension("SPV_KHR_shader_clock");
    const uint32_t clock = emit(Op::ReadClockKHR, typeVector(u32, 2), {subgroup});
    setAggregate(inst.value, {emit(Op::CompositeExtract, u32, {clock, 0}),
                              emit(Op::CompositeExtract, u32, {clock, 1})});
    return !failed();
  }
  default:
    handled = false;
    return true;
  }
}

} // namespace spire::translate
