// Decoding helpers the block readers share: see ReaderSupport.h.
#include "ReaderSupport.h"

namespace spire::dxil::detail {

void pushOperandSlow(ReaderState &s, uint64_t id, TypeId type) {
  if (id < s.valueIds.size() && s.valueIds[id] != kNoId) {
    ValueId v = s.valueIds[id];
    s.m.operands.push_back(v);
    if (type != kNoId && s.m.values[v].type != type)
      s.fixups.push_back({Fixup::Target::Operand, uint32_t(s.m.operands.size() - 1), uint32_t(id),
                          type, s.rec.bitOffset}); // reported when resolved
    return;
  }
  s.fixups.push_back({Fixup::Target::Operand, uint32_t(s.m.operands.size()),
                      uint32_t(id > 0xFFFFFFFFu ? 0xFFFFFFFFu : id), type, s.rec.bitOffset});
  s.m.operands.push_back(kNoId);
}

Expected<Opcode> decodeBinop(ReaderState &s, uint64_t code, TypeId type) {
  Opcode op;
  if (binopOpcode(s.m, code, type, op))
    return op;
  if (code <= 12 && isFloatingPoint(binopOperandKind(s.m, type)))
    return s.error("integer operator " + std::to_string(code) + " on floating point");
  return s.error("invalid binary operator " + std::to_string(code) + " for its type");
}

Expected<Opcode> decodeCast(ReaderState &s, uint64_t code) {
  if (code > 12)
    return s.error("unknown cast opcode " + std::to_string(code));
  return kCastOpcodes[code];
}

uint8_t decodeBinopFlags(Opcode op, uint64_t flags) {
  switch (op) {
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Shl:
    return uint8_t((flags & 1 ? kFlagNoUnsignedWrap : 0) | (flags & 2 ? kFlagNoSignedWrap : 0));
  case Opcode::UDiv:
  case Opcode::SDiv:
  case Opcode::LShr:
  case Opcode::AShr:
    return flags & 1 ? kFlagExact : 0;
  default:
    return 0;
  }
}

uint8_t decodeFastMath(uint64_t flags) {
  // Bit 0 was "unsafe algebra" (all flags) before LLVM 6 split it; bits 1..6 as in the model.
  if (flags & 1)
    return kFastMathAll;
  uint8_t out = 0;
  if (flags & 2)
    out |= kFastMathNoNaNs;
  if (flags & 4)
    out |= kFastMathNoInfs;
  if (flags & 8)
    out |= kFastMathNoSignedZeros;
  if (flags & 16)
    out |= kFastMathAllowReciprocal;
  if (flags & 32)
    out |= kFastMathAllowContract;
  if (flags & 64)
    out |= kFastMathApproxFunc;
  if (flags & 128)
    out |= kFastMathReassoc;
  return out;
}

Expected<TypeId> gepResultType(ReaderState &s, TypeId source, TypeId pointerType,
                               std::span<const ValueId> indices) {
  const LlvmModule &m = s.m;
  const Type &pt = m.types[pointerType];
  if (pt.kind != TypeKind::Pointer)
    return s.error("getelementptr on a value that is not a pointer");
  TypeId cur = source;
  for (size_t i = 1; i < indices.size(); ++i) {
    const Type &t = m.types[cur];
    if (t.kind == TypeKind::Struct) {
      int64_t field = -1;
      if (indices[i] == kNoId || !m.constantInt(indices[i], field) || field < 0 ||
          uint64_t(field) >= t.numElements)
        return s.error("getelementptr struct index that is not a constant member number");
      cur = m.typeElements[t.firstElement + size_t(field)];
    } else if (t.kind == TypeKind::Array || t.kind == TypeKind::Vector) {
      cur = m.elementType(cur);
    } else {
      return s.error("getelementptr indexes into a type that has no elements");
    }
  }
  return s.pointerTo(cur, pt.bits);
}

Expected<TypeId> indexedType(ReaderState &s, TypeId aggregate, std::span<const uint64_t> indices) {
  const LlvmModule &m = s.m;
  TypeId cur = aggregate;
  for (uint64_t index : indices) {
    const Type &t = m.types[cur];
    if (t.kind == TypeKind::Struct) {
      if (index >= t.numElements)
        return s.error("extractvalue/insertvalue index past the struct's members");
      cur = m.typeElements[t.firstElement + size_t(index)];
    } else if (t.kind == TypeKind::Array) {
      if (index >= t.count)
        return s.error("extractvalue/insertvalue index past the array's elements");
      cur = m.elementType(cur);
    } else {
      return s.error("extractvalue/insertvalue on a type that is not an aggregate");
    }
  }
  return cur;
}

} // namespace spire::dxil::detail
