#include "AsOpcodeRules.h"

#include "spire/grammar/Grammar.h"

#include <algorithm>
#include <iterator>

namespace spire::assembly {

using grammar::Op;

namespace {

struct NamedOp {
  std::string_view name;
  Op op;
};

// Sorted by name.
constexpr NamedOp kSpecConstantOperations[] = {
    {"AccessChain", Op::AccessChain},
    {"Bitcast", Op::Bitcast},
    {"BitwiseAnd", Op::BitwiseAnd},
    {"BitwiseOr", Op::BitwiseOr},
    {"BitwiseXor", Op::BitwiseXor},
    {"CompositeExtract", Op::CompositeExtract},
    {"CompositeInsert", Op::CompositeInsert},
    {"ConvertFToS", Op::ConvertFToS},
    {"ConvertFToU", Op::ConvertFToU},
    {"ConvertPtrToU", Op::ConvertPtrToU},
    {"ConvertSToF", Op::ConvertSToF},
    {"ConvertUToF", Op::ConvertUToF},
    {"ConvertUToPtr", Op::ConvertUToPtr},
    {"CooperativeMatrixLengthNV", Op::CooperativeMatrixLengthNV},
    {"FAdd", Op::FAdd},
    {"FConvert", Op::FConvert},
    {"FDiv", Op::FDiv},
    {"FMod", Op::FMod},
    {"FMul", Op::FMul},
    {"FNegate", Op::FNegate},
    {"FRem", Op::FRem},
    {"FSub", Op::FSub},
    {"GenericCastToPtr", Op::GenericCastToPtr},
    {"IAdd", Op::IAdd},
    {"IEqual", Op::IEqual},
    {"IMul", Op::IMul},
    {"INotEqual", Op::INotEqual},
    {"ISub", Op::ISub},
    {"InBoundsAccessChain", Op::InBoundsAccessChain},
    {"InBoundsPtrAccessChain", Op::InBoundsPtrAccessChain},
    {"LogicalAnd", Op::LogicalAnd},
    {"LogicalEqual", Op::LogicalEqual},
    {"LogicalNot", Op::LogicalNot},
    {"LogicalNotEqual", Op::LogicalNotEqual},
    {"LogicalOr", Op::LogicalOr},
    {"Not", Op::Not},
    {"PtrAccessChain", Op::PtrAccessChain},
    {"PtrCastToGeneric", Op::PtrCastToGeneric},
    {"QuantizeToF16", Op::QuantizeToF16},
    {"SConvert", Op::SConvert},
    {"SDiv", Op::SDiv},
    {"SGreaterThan", Op::SGreaterThan},
    {"SGreaterThanEqual", Op::SGreaterThanEqual},
    {"SLessThan", Op::SLessThan},
    {"SLessThanEqual", Op::SLessThanEqual},
    {"SMod", Op::SMod},
    {"SNegate", Op::SNegate},
    {"SRem", Op::SRem},
    {"Select", Op::Select},
    {"ShiftLeftLogical", Op::ShiftLeftLogical},
    {"ShiftRightArithmetic", Op::ShiftRightArithmetic},
    {"ShiftRightLogical", Op::ShiftRightLogical},
    {"UConvert", Op::UConvert},
    {"UDiv", Op::UDiv},
    {"UGreaterThan", Op::UGreaterThan},
    {"UGreaterThanEqual", Op::UGreaterThanEqual},
    {"ULessThan", Op::ULessThan},
    {"ULessThanEqual", Op::ULessThanEqual},
    {"UMod", Op::UMod},
    {"VectorShuffle", Op::VectorShuffle},
};

} // namespace

std::optional<uint16_t> specConstantOperation(std::string_view name) {
  auto it = std::lower_bound(std::begin(kSpecConstantOperations), std::end(kSpecConstantOperations),
                             name, [](const NamedOp &e, std::string_view n) { return e.name < n; });
  if (it == std::end(kSpecConstantOperations) || it->name != name)
    return std::nullopt;
  return static_cast<uint16_t>(it->op);
}

bool declaresType(uint16_t opcode) {
  switch (static_cast<Op>(opcode)) {
  case Op::TypeVoid:
  case Op::TypeBool:
  case Op::TypeInt:
  case Op::TypeFloat:
  case Op::TypeVector:
  case Op::TypeMatrix:
  case Op::TypeImage:
  case Op::TypeSampler:
  case Op::TypeSampledImage:
  case Op::TypeArray:
  case Op::TypeRuntimeArray:
  case Op::TypeStruct:
  case Op::TypeOpaque:
  case Op::TypePointer:
  case Op::TypeFunction:
  case Op::TypeEvent:
  case Op::TypeDeviceEvent:
  case Op::TypeReserveId:
  case Op::TypeQueue:
  case Op::TypePipe:
  case Op::TypePipeStorage:
  case Op::TypeNamedBarrier:
  case Op::TypeRayQueryKHR:
  case Op::TypeHitObjectNV:
  case Op::TypeAccelerationStructureNV:
  case Op::TypeCooperativeMatrixNV:
    return true;
  default:
    return false;
  }
}

} // namespace spire::assembly
