// Between the instruction-level module and the structured IR. Deserialization performs the
// design's eight transformations (docs/notes/mlir_spirv.md ): module requirements become
// attributes of spirv.module, type declarations become types, constants are materialized at
// each use, module-level variables become spirv.GlobalVariable reached through
// spirv.mlir.addressof, specialization constants symbols reached through spirv.mlir.referenceof,
// OpPhi becomes block arguments, and structured control flow becomes spirv.mlir.selection and
// spirv.mlir.loop regions.
#pragma once

#include "spire/dialect/IR.h"
#include "spire/module/Module.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace spire::dialect {

struct DeserializeStats {
  uint32_t selections = 0; ///< constructs made spirv.mlir.selection regions
  uint32_t loops = 0;      ///< constructs made spirv.mlir.loop regions
  /// Constructs kept as blocks with their merge instruction as an op (spirv.SelectionMerge,
  /// spirv.LoopMerge) because a region cannot express them: an exit to a block other than the
  /// construct's merge (a break out of a selection to an enclosing loop's merge, say).
  uint32_t unstructured = 0;
  /// Instructions of non-semantic and debug-information sets left out: an operand the dialect
  /// cannot hold (at module level, a composite, null or undefined constant), or one left out.
  uint32_t droppedDebug = 0;
  /// Why each construct stayed unstructured: one line naming the header block and the exit.
  std::vector<std::string> notes;
};

/// How deserialization shapes what MLIR versions shape differently.
struct DeserializeOptions {
  /// MLIR 16 or older (as mlir-translate-16): a selection header's ops move into the region
  /// (unless something after the construct uses them) and a region's blocks keep the module's
  /// order. Today's: the header's ops stay in front of the selection, whose region starts with
  /// the branch alone, and the region's blocks follow the branches (breadth first from the
  /// header, each block's targets in operand order).
  MlirVersion version = MlirVersion::Latest;
  /// Called once each function is read, with its instructions' range [first, end): nothing
  /// reads their words after (their records still are). A caller that drops the module after,
  /// and validated it (no function uses another's ids), may give their memory back as it goes,
  /// so that the module's and the whole IR's do not add up at the end (spire translate does).
  std::function<void(uint32_t first, uint32_t end)> functionRead;
  /// Called, where set, once the ops before the functions are made, with the range [first, end)
  /// of the module's OpName and OpMemberName instructions: nothing reads their words after (the
  /// functions' and graphs' names are kept aside). A large module names every local: the same
  /// caller may give their memory back.
  std::function<void(uint32_t first, uint32_t end)> namesRead;
  /// Called with the spirv.module once its attributes and the ops before its functions are
  /// made, then after each function: the ops in its body then are final. The callee may take
  /// them out (print and erase them: ModuleTextStream), since nothing made after refers to an
  /// op (symbols go by name), provided the module validated (no function uses another's ids);
  /// what is made after goes into the body as it was (entry points, execution modes, graphs).
  std::function<void(Operation &module)> bodyReady;
};

/// The spirv.module of `module`, which should be one spire val accepts (the command validates
/// first): on others it fails or makes IR that does not verify, but never crashes. Fails,
/// naming the instruction, on what the dialect cannot express (a cooperative matrix whose size
/// is a specialization constant, an OpTypeVmeImageINTEL, an extended instruction of a set
/// without ops that takes a literal, ...).
Expected<OwningOp> deserialize(Context &context, const Module &module,
                               DeserializeStats *stats = nullptr, DeserializeOptions options = {});

/// The words of a SPIR-V module (header included) for a spirv.module op: the design's six
/// serialization transformations (module attributes as instructions, types and unified
/// constants in the global section, attributes as decorations, regions as blocks with merge
/// instructions, block arguments as OpPhi). Fails, naming the op, on what it cannot encode.
Expected<std::vector<uint32_t>> serialize(const Operation &module);

} // namespace spire::dialect
