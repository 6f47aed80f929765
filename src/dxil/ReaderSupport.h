// Decoding helpers the block readers share: signed VBR values, opcodes, flags, operand
// references that may point forward, and the result type of getelementptr.
#pragma once

#include "BitcodeReaderState.h"

#include <cstring>
#include <span>

namespace spire::dxil::detail {

/// Eight bytes from the middle of a block's body and eight from near its end, in one word. A
/// memo of blocks keeps it beside a slot's shape and compares it before the slot's bytes, which
/// are cold by then (in a buffer last read programs ago): a block of the same size that differs
/// there is told apart without reading them. (A gate only: a match still compares every byte.)
inline uint64_t bodySample(std::span<const uint8_t> bytes) {
  const size_t n = bytes.size();
  if (n < 16)
    return n;
  uint64_t middle, end;
  std::memcpy(&middle, bytes.data() + (n / 2 & ~size_t(7)), 8);
  std::memcpy(&end, bytes.data() + n - 16, 8);
  return middle ^ end * 0x9E3779B97F4A7C15ull;
}

/// Keeps the low `bits` bits (all of them from 64 up).
inline uint64_t truncateTo(uint64_t v, uint32_t bits) {
  return bits >= 64 ? v : v & ((uint64_t(1) << bits) - 1);
}
/// A signed value as the bitcode stores it: magnitude shifted left, sign in bit 0.
uint64_t decodeSigned(uint64_t v);

/// Appends the value with bitcode id `id` to the module's operands; an id not read yet becomes a
/// fixup resolved (and checked against `type`, unless kNoId) when the enclosing block ends.
void pushOperandSlow(ReaderState &s, uint64_t id, TypeId type);
/// The common case (a value read already, of the type expected) inline; the rest out of line.
inline void pushOperand(ReaderState &s, uint64_t id, TypeId type) {
  if (id < s.valueIds.size()) [[likely]] {
    ValueId v = s.valueIds[id];
    if (v != kNoId && (type == kNoId || s.m.values[v].type == type) &&
        s.m.operands.capacity() != s.m.operands.size()) [[likely]] {
      // Room is checked above; telling the compiler keeps push_back's growth path (and the
      // registers it saves) out of this one.
      if (s.m.operands.data() + s.m.operands.size() ==
          s.m.operands.data() + s.m.operands.capacity())
        __builtin_unreachable();
      s.m.operands.push_back(v);
      return;
    }
  }
  pushOperandSlow(s, id, type);
}

/// The binary operator `code` on operands of `type`, or the diagnostic.
Expected<Opcode> decodeBinop(ReaderState &s, uint64_t code, TypeId type);
inline bool isFloatingPoint(TypeKind k) {
  return k == TypeKind::Half || k == TypeKind::BFloat || k == TypeKind::Float ||
         k == TypeKind::Double || k == TypeKind::X86Fp80 || k == TypeKind::Fp128 ||
         k == TypeKind::PpcFp128;
}
/// What a binary operator's operand is: the type's kind, a vector's element's.
inline TypeKind binopOperandKind(const LlvmModule &m, TypeId type) {
  const Type &t = m.types[type];
  return t.kind == TypeKind::Vector ? m.types[m.elementType(type)].kind : t.kind;
}
/// decodeBinop's opcode into `out` without an Expected; false where decodeBinop fails (which
/// then gives the diagnostic).
inline bool binopOpcode(const LlvmModule &m, uint64_t code, TypeId type, Opcode &out) {
  static constexpr Opcode kInt[] = {Opcode::Add,  Opcode::Sub,  Opcode::Mul,  Opcode::UDiv,
                                    Opcode::SDiv, Opcode::URem, Opcode::SRem, Opcode::Shl,
                                    Opcode::LShr, Opcode::AShr, Opcode::And,  Opcode::Or,
                                    Opcode::Xor};
  const TypeKind k = binopOperandKind(m, type);
  if (code > 12)
    return false;
  if (k == TypeKind::Integer) {
    out = kInt[code];
    return true;
  }
  if (!isFloatingPoint(k))
    return false;
  switch (code) {
  case 0:
    out = Opcode::FAdd;
    return true;
  case 1:
    out = Opcode::FSub;
    return true;
  case 2:
    out = Opcode::FMul;
    return true;
  case 4:
    out = Opcode::FDiv;
    return true;
  case 6:
    out = Opcode::FRem;
    return true;
  default:
    return false;
  }
}
/// The cast opcodes by their bitcode numbers (0-12).
inline constexpr Opcode kCastOpcodes[] = {
    Opcode::Trunc,    Opcode::ZExt,    Opcode::SExt,         Opcode::FPToUI, Opcode::FPToSI,
    Opcode::UIToFP,   Opcode::SIToFP,  Opcode::FPTrunc,      Opcode::FPExt,  Opcode::PtrToInt,
    Opcode::IntToPtr, Opcode::BitCast, Opcode::AddrSpaceCast};
Expected<Opcode> decodeCast(ReaderState &s, uint64_t code);
uint8_t decodeBinopFlags(Opcode op, uint64_t flags);
/// The fast-math flags of a bitcode flags word.
uint8_t decodeFastMath(uint64_t flags);

/// The type getelementptr gives: a pointer (in the base's address space) to the element the
/// indices select in `source`. Struct indices must be integer constants.
Expected<TypeId> gepResultType(ReaderState &s, TypeId source, TypeId pointerType,
                               std::span<const ValueId> indices);
/// The member type extractvalue/insertvalue indices select.
Expected<TypeId> indexedType(ReaderState &s, TypeId aggregate, std::span<const uint64_t> indices);

} // namespace spire::dxil::detail
