// The dialect types of an instruction-level module's type declarations, as deserialization
// names them: OpTypeVoid is none, OpTypeBool i1, OpTypeInt N 0 iN and N 1 siN, a struct with an
// OpName is identified by that name (and may then be recursive), ArrayStride, Offset and member
// decorations become part of the array and struct types.
#pragma once

#include "spire/dialect/Types.h"
#include "spire/module/Module.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace spire {
class DecorationIndex;
} // namespace spire

namespace spire::dialect {

/// The cooperative matrix type opcodes by value (the KHR one is only in newer grammars).
inline constexpr uint32_t kOpTypeCooperativeMatrixKHR = 4456, kOpTypeCooperativeMatrixNV = 5358;

/// The operand words of `inst` from word `first` on, followed by those of the `continued`
/// instructions right after it (SPV_INTEL_long_composites: OpTypeStructContinuedINTEL,
/// OpConstantCompositeContinuedINTEL, OpCompositeConstructContinuedINTEL, ...).
std::vector<uint32_t> continuedOperands(const Module &module, const Instruction &inst,
                                        uint32_t first, grammar::Op continued);

class ModuleTypes {
public:
  /// Fails, naming the instruction, on a type the dialect cannot express (an OpTypeFloat with
  /// an encoding, ...).
  /// `specConstantSymbol` names the specialization constant (an OpSpecConstant or an
  /// OpSpecConstantOp) that an array's length or a cooperative matrix's scope, rows, columns or
  /// use is (the deserializer's symbols, "" for none); without it such types fail.
  /// `decorations`: the module's DecorationIndex when the caller has one (else one is made).
  static Expected<ModuleTypes>
  import(Context &context, const Module &module,
         const std::function<std::string(uint32_t)> &specConstantSymbol = {},
         const DecorationIndex *decorations = nullptr);

  /// The type declared with result id `id`, or a null Type.
  Type type(uint32_t id) const;
  size_t size() const { return count_; }

private:
  friend class ModuleTypesImporter;
  std::vector<Type> types_;                  ///< by id, as far as the ids are dense
  std::unordered_map<uint32_t, Type> above_; ///< the others (sparse ids, ids past the bound)
  size_t count_ = 0;
};

} // namespace spire::dialect
