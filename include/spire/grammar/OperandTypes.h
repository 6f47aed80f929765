// The operand and result types of vendor instructions whose extensions state them (AVC motion
// estimation, NV hit objects, INTEL integer functions and media blocks): one table, keyed by
// opcode, read by both spire val (src/val/RulesIntel.cpp, RulesVendor.cpp, over type ids) and the
// structured IR's verifier (src/dialect/VerifierTypes.cpp, over uniqued types). The grammar JSON
// says only "IdRef"; these are the facts the extensions' texts add.
#pragma once

#include "spire/grammar/Generated.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace spire::grammar {

/// What a value's type must be. Integer signedness is checked only by `UInt32`, and only where
/// the type says it (the structured IR's integers of the instructions here carry none).
enum class TypeShape : uint8_t {
  None,                ///< nothing asked (ends an operand list; a result-less instruction's result)
  Int,                 ///< an integer scalar of any width
  Int8,                ///< an integer scalar of 8 bits
  Int16,               ///< ... of 16 bits
  Int32,               ///< ... of 32 bits
  Int64,               ///< ... of 64 bits
  Int8or16,            ///< ... of 8 or 16 bits
  Int8or32,            ///< ... of 8 or 32 bits
  UInt32,              ///< a 32-bit integer scalar, unsigned
  IntScalarOrVector,   ///< an integer scalar or vector of any width
  Int32ScalarOrVector, ///< a 32-bit integer scalar or vector
  LikeResult,          ///< the result's type, signedness aside
  IntPair,             ///< a vector of two integers of any width
  Int16x2,             ///< a vector of two 16-bit integers
  Int32x2,             ///< a vector of two 32-bit integers
  Bool,                ///< a boolean scalar
  Float32,             ///< a 32-bit float scalar
  Float32x3,           ///< a vector of three 32-bit floats
  Float32Mat4x3,       ///< a matrix of four columns of three 32-bit floats
  Float32Pair,         ///< an array of two 32-bit floats
  Float32x3Pair,       ///< an array of two vectors of three 32-bit floats
  Type,                ///< a type declared by `type` (OpTypeImage, OpTypeAvcImePayloadINTEL, ...)
  StorageImage,        ///< an OpTypeImage whose Sampled is 0 or 2 (known at run time, or storage)
  TypeOrAlt,           ///< a type declared by `type` or by `alt`
  PointerToType,       ///< a pointer to a type declared by `type`
  RayPayload,          ///< a variable in RayPayloadKHR or IncomingRayPayloadKHR
  HitAttributes,       ///< a variable in HitObjectAttributeNV
};

/// One value's constraint: its shape, the declaring opcodes the shape names, and the operand's
/// name where the table gives one (null: the grammar's).
struct TypeConstraint {
  TypeShape shape = TypeShape::None;
  Op type = Op::Nop;
  Op alt = Op::Nop;
  const char *name = nullptr;
};

/// One row: the instructions it describes, their result, their id operands in order (result type
/// and result aside), and the extension whose rule it is (the family name in diagnostics).
struct OperandTypeRule {
  std::array<Op, 5> ops{};
  TypeConstraint result;
  std::array<TypeConstraint, 14> operands{};
  const char *extension = nullptr;
};

/// Every row.
std::span<const OperandTypeRule> operandTypeRules();
/// The row of `opcode`, or null.
const OperandTypeRule *operandTypeRule(uint32_t opcode);

/// The shape in words, as diagnostics say it: "an 8-bit integer scalar", "an
/// OpTypeAvcImePayloadINTEL", "a pointer to OpTypeHitObjectNV".
std::string describe(const TypeConstraint &c);

} // namespace spire::grammar
