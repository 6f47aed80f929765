// The ops of the SPIR-V dialect. Every instruction of the core grammar and of the GLSL.std.450
// and OpenCL.std sets has an op, derived from the grammar when the registry is first used
// (name: "spirv." + the opname without "Op", a vendor suffix moved to the front as in
// "spirv.KHR.SubgroupBallot"; "spirv.GL.<name>", "spirv.CL.<name>" for extended instructions),
// with how each grammar operand appears in the op: an SSA operand, an attribute (literals,
// enumerants, and scope / memory semantics ids, which the dialect makes attributes), or part of
// the op's structure. A small hand-written overlay adds the ops with no instruction of their
// own (spirv.module, spirv.func, spirv.GlobalVariable, spirv.mlir.*) and the attribute names
// that MLIR spells its own way.
#pragma once

#include "spire/grammar/Grammar.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace spire::dialect {

/// How one grammar operand of an instruction appears in its op.
struct OperandMapping {
  enum class Kind : uint8_t {
    Value,     ///< an SSA operand (IdRef)
    Attribute, ///< a literal or an enumerant: attribute `name`
    /// An id operand naming a constant of the enum kind `operandKind` (an IdScope, an
    /// IdMemorySemantics, a cooperative matrix layout): enum attribute `name`; when it is not a
    /// constant, an operand at its place and a unit attribute `name`.
    IdEnum,
    TypeId, ///< an id operand naming a type: type attribute `name`
    Other,  ///< handled by the op's own (de)serialization
  };
  Kind kind;
  grammar::OperandKind operandKind;
  grammar::Quantifier quantifier;
  std::string_view name; ///< attribute name, or the grammar's operand name for values
  /// For IdEnum: the enum kind of the attribute (Scope, MemorySemantics, ...).
  grammar::OperandKind attrKind{};
};

struct OpInfo {
  enum Flag : uint32_t {
    kTerminator = 1u << 0,
    kStructural = 1u << 1, ///< no single instruction (spirv.module, spirv.mlir.*, ...)
    kSymbol = 1u << 2,     ///< defines a symbol (sym_name)
    kIsolated = 1u << 3,   ///< regions see no values from outside
    kNoTerminator = 1u << 4,
  };
  std::string_view name;
  uint32_t flags = 0;
  /// The core instruction, or null (structural and extended-instruction ops).
  const grammar::InstructionDesc *inst = nullptr;
  /// The extended instruction and its set, or null.
  const grammar::ExtInstSetDesc *set = nullptr;
  const grammar::ExtInstDesc *ext = nullptr;
  /// The grammar operands after the result type and result id.
  std::span<const OperandMapping> operands;
  bool hasResultType() const;
};

/// The op named `name` ("spirv.IAdd"), or null.
const OpInfo *findOp(std::string_view name);
/// The op of a core instruction, or null.
const OpInfo *opForInstruction(grammar::Op opcode);
/// The op of an extended instruction, or null when the set has no ops.
const OpInfo *opForExtInst(const grammar::ExtInstSetDesc &set, uint32_t number);
/// All ops, in no particular order.
std::span<const OpInfo *const> allOps();

/// The structural ops.
namespace ops {
const OpInfo &module();         ///< spirv.module
const OpInfo &func();           ///< spirv.func
const OpInfo &globalVariable(); ///< spirv.GlobalVariable
const OpInfo &specConstant();   ///< spirv.SpecConstant
const OpInfo &specConstantComposite();
const OpInfo &specConstantOperation();
const OpInfo &entryPoint();    ///< spirv.EntryPoint
const OpInfo &executionMode(); ///< spirv.ExecutionMode
const OpInfo &addressOf();     ///< spirv.mlir.addressof
const OpInfo &referenceOf();   ///< spirv.mlir.referenceof
const OpInfo &selection();     ///< spirv.mlir.selection
const OpInfo &loop();          ///< spirv.mlir.loop
const OpInfo &merge();         ///< spirv.mlir.merge
const OpInfo &yield();         ///< spirv.mlir.yield
const OpInfo &constant();      ///< spirv.Constant
const OpInfo &branch();        ///< spirv.Branch
const OpInfo &branchConditional();
const OpInfo &switchOp(); ///< spirv.Switch
const OpInfo &functionCall();
/// spirv.SpecConstantOperationSymbol (spire's): an OpSpecConstantOp as a module-level symbol,
/// its one-block region materializing the operands, then the operation, then spirv.mlir.yield.
const OpInfo &specConstantOperationSymbol();
/// spirv.ExtInst (spire's): an instruction of an extended set without ops of its own; `set` is
/// the import name, `instruction` the number (i32), its operands (all ids) the op's operands.
const OpInfo &extInst();
} // namespace ops

} // namespace spire::dialect
