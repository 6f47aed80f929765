// The ops of the SPIR-V dialect, one record (OpInfo) each, keyed by opcode (OpKey). Every
// instruction of the core grammar and of the GLSL.std.450 and OpenCL.std sets has an op,
// generated from the grammar at build time (src/dialect/generate_ops.py: name "spirv." + the
// opname without "Op", a vendor suffix moved to the front as in "spirv.KHR.SubgroupBallot";
// "spirv.GL.<name>", "spirv.CL.<name>" for extended instructions), with how each grammar operand
// appears in the op: an SSA operand, an attribute (literals, enumerants, and scope / memory
// semantics ids, which the dialect makes attributes), or part of the op's structure. The
// TOSA.001000.1 instructions are ops too ("spirv.Tosa.<Name>", the name MLIR gives them), whose
// constant operands (pad, stride, axis, acc_type, ...) are attributes. The ops with
// no instruction of their own (spirv.module, spirv.func, spirv.GlobalVariable, spirv.mlir.*) are
// hand-written records beside them.
#pragma once

#include "spire/grammar/Grammar.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spire::dialect {

/// Which numbering an op's key uses.
enum class OpSpace : uint8_t { Core, Glsl, OpenCl, Dialect, Tosa };

/// The ops no instruction has (or whose instruction the dialect replaces by a symbol or region).
enum class DialectOp : uint16_t {
  Module,
  Func,
  GlobalVariable,
  SpecConstant,
  SpecConstantComposite,
  SpecConstantOperation,
  SpecConstantOperationSymbol,
  EntryPoint,
  ExecutionMode,
  AddressOf,
  ReferenceOf,
  Selection,
  Loop,
  Merge,
  Yield,
  Constant,
  ExtInst,
  // SPV_ARM_graph: a graph (OpGraphARM with its inputs, body and outputs), its entry point and
  // its terminator (OpGraphSetOutputARM of each output, OpGraphEndARM).
  Graph,
  GraphEntryPoint,
  GraphOutputs,
  /// CALL of the Arm.ExperimentalMLOperations extended instruction set.
  ExperimentalMlCall,
  /// spire's: an instruction of a non-semantic or debug-information set, at module level (a
  /// symbol) and in a function.
  NonSemanticGlobal,
  NonSemantic,
  // Ops of other dialects that MLIR's tests wrap spirv ops in; never serialized.
  BuiltinModule,
  FuncFunc,
  FuncReturn,
  FuncCall,
  GpuModule,
  ArithConstant,
  Count
};

/// What an op's record is found by: a core opcode, an instruction number of GLSL.std.450 or
/// OpenCL.std, or a DialectOp. Converts from the grammar's enums, so that tables name ops as
/// `grammar::Op::IAdd` or `grammar::GlslStd450Inst::FAbs`.
class OpKey {
public:
  constexpr OpKey() = default;
  constexpr OpKey(OpSpace space, uint32_t number)
      : bits_((static_cast<uint32_t>(space) << 24) | number) {}
  constexpr OpKey(grammar::Op op) : OpKey(OpSpace::Core, static_cast<uint32_t>(op)) {}
  constexpr OpKey(grammar::GlslStd450Inst i) : OpKey(OpSpace::Glsl, static_cast<uint32_t>(i)) {}
  constexpr OpKey(grammar::OpenclStd100Inst i) : OpKey(OpSpace::OpenCl, static_cast<uint32_t>(i)) {}
  constexpr OpKey(DialectOp op) : OpKey(OpSpace::Dialect, static_cast<uint32_t>(op)) {}
  constexpr OpSpace space() const { return static_cast<OpSpace>(bits_ >> 24); }
  constexpr uint32_t number() const { return bits_ & 0xFFFFFFu; }
  constexpr bool valid() const { return bits_ != ~0u; }
  constexpr bool operator==(const OpKey &) const = default;

private:
  uint32_t bits_ = ~0u;
};

/// What a constant operand held as an attribute is (OperandMapping::Kind::Constant): the
/// attribute's kind, and so the constant the serializer writes for it. TOSA.001000.1's
/// instructions take these as ids of constants.
enum class ConstAttr : uint8_t {
  None,
  I32,          ///< an i32 integer attribute (axis): an OpConstant of a 32-bit integer
  Bool,         ///< true / false (local_bound): OpConstantTrue / OpConstantFalse
  I32Tensor,    ///< dense<...> : !spirv.arm.tensor<Nxi32> (pad, stride): a composite of rank 1
  Scalar,       ///< an integer or float attribute of the op's element type (Clamp's bounds)
  AccType,      ///< #spirv.tosa_ext_acc_type<INT32>: an OpConstant of a 32-bit integer
  NanMode,      ///< #spirv.tosa_ext_nan_propagation_mode_type<Propagate>
  ResizeMode,   ///< #spirv.tosa_ext_resize_mode_type<Bilinear>
  RoundingMode, ///< #spirv.tosa_ext_rounding_mode_type<DoubleRound>
};

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
    /// A storage class that is always the result pointer's (OpGenericCastToPtrExplicit's
    /// Storage): no attribute, as MLIR's op has none; written from the result type.
    ResultStorage,
    /// An id operand naming a constant: attribute `name` of the kind `constAttr` says.
    Constant,
    Other, ///< handled by the op's own (de)serialization
  };
  Kind kind;
  grammar::OperandKind operandKind;
  grammar::Quantifier quantifier;
  std::string_view name; ///< attribute name, or the grammar's operand name for values
  /// For IdEnum: the enum kind of the attribute (Scope, MemorySemantics, ...).
  grammar::OperandKind attrKind{};
  /// For Constant: what the attribute holds.
  ConstAttr constAttr = ConstAttr::None;
};

class Operation;
struct OpFolder;
struct OpSyntax;
struct TypeRule;

struct OpInfo {
  enum Flag : uint32_t {
    kTerminator = 1u << 0,
    kStructural = 1u << 1, ///< no single instruction (spirv.module, spirv.mlir.*, ...)
    kSymbol = 1u << 2,     ///< defines a symbol (sym_name)
    kIsolated = 1u << 3,   ///< regions see no values from outside
    kNoTerminator = 1u << 4,
    kPure = 1u << 5, ///< no side effects: unused, it may go
    /// An op of no dialect spire has, its record made by its Context (unregisteredOp).
    kUnregistered = 1u << 6,
  };
  std::string_view name;
  OpKey key;
  uint32_t flags = 0;
  /// The core instruction, or null (structural and extended-instruction ops).
  const grammar::InstructionDesc *inst = nullptr;
  /// The extended instruction and its set, or null.
  const grammar::ExtInstSetDesc *set = nullptr;
  const grammar::ExtInstDesc *ext = nullptr;
  /// A structural op that stands for an instruction it writes by its own rules (spirv.ARM.Graph:
  /// OpGraphARM), whose availability is the op's: else null.
  const grammar::InstructionDesc *standsFor = nullptr;
  /// The grammar operands after the result type and result id.
  std::span<const OperandMapping> operands;
  bool hasResultType() const;
  /// What the op's grammar entry needs (versions, capabilities, extensions: its instruction's
  /// or extended instruction's), or null for the dialect's own ops. Availability.h adds what its
  /// attributes' enumerants need.
  const grammar::Availability *availability() const;

  // The overlay: what the grammar does not say, attached by opcode when the registry is made.
  /// Its custom syntax (OpSyntax.h), or null: the op prints and parses in generic form only.
  const OpSyntax *syntax = nullptr;
  /// The rule its operand and result types follow (VerifierTypes.cpp), or null.
  const TypeRule *typeRule = nullptr;
  /// What the verifier checks beyond the grammar's shape and the type rule (the dialect's own
  /// ops: their attributes and regions): empty when `op` is sound, else the first problem.
  std::string (*verify)(const Operation &op) = nullptr;
  /// How it folds (OpFolder.h: element-wise on constants, then its simplifications), or null.
  const OpFolder *folder = nullptr;
};

/// The op named `name` ("spirv.IAdd"), or null.
const OpInfo *findOp(std::string_view name);
/// The op of a key, or null (an instruction the build's grammar lacks).
const OpInfo *findOp(OpKey key);
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
/// SPV_ARM_graph: spirv.ARM.Graph (a symbol; function_type a GraphArm type, its entry block's
/// arguments the inputs; `entry_point` a bool), spirv.ARM.GraphEntryPoint (`fn` the graph's
/// symbol, `interface` its variables), spirv.ARM.GraphOutputs (the terminator: the outputs).
const OpInfo &graph();
const OpInfo &graphEntryPoint();
const OpInfo &graphOutputs();
/// spirv.ExperimentalML.Call: CALL of Arm.ExperimentalMLOperations (`opcode` an i32 attribute,
/// its parameters the operands).
const OpInfo &experimentalMlCall();
/// spirv.spire.NonSemanticGlobal and spirv.spire.NonSemantic (spire's): an instruction of a
/// non-semantic or debug-information set (NonSemantic.*, DebugInfo, OpenCL.DebugInfo.100) at
/// module level (a symbol, `sym_name`) or in a function. `set` is the import name, `instruction`
/// the number (i32), `operands` one attribute per operand in order: an OpString's text, a
/// constant's typed value, a type, a symbol (another such instruction, a global, a function),
/// a literal, or `unit` where the op's next SSA operand goes (function-local values). A result
/// (type none) only where another instruction names it.
const OpInfo &nonSemanticGlobal();
const OpInfo &nonSemantic();
/// The wrappers of MLIR's tests, outside the SPIR-V dialect: builtin.module (custom name
/// `module`: a symbol table of top-level ops), func.func (a function of any signature; its
/// body may hold spirv ops), func.return and func.call (custom names `return` and `call` inside
/// a func.func). The printer, parser and verifier know them; the serializer refuses them.
const OpInfo &builtinModule();
const OpInfo &funcFunc();
const OpInfo &funcReturn();
const OpInfo &funcCall();
/// arith.constant (`arith.constant 1 : i32`), which MLIR's tests use beside spirv ops.
const OpInfo &arithConstant();
/// Whether the op is one of these wrappers.
bool isWrapper(const OpInfo &info);
/// Whether the op is a symbol table (spirv.module, builtin.module).
bool isSymbolTable(const OpInfo &info);
/// Whether the op is a function (spirv.func, func.func).
bool isFunction(const OpInfo &info);
/// Whether the op is of no dialect spire has (Context::unregisteredOp).
inline bool isUnregistered(const OpInfo &info) { return info.flags & OpInfo::kUnregistered; }
/// Whether the op is one of the SPIR-V dialect's (its name starts with "spirv.").
inline bool isSpirv(const OpInfo &info) { return info.name.starts_with("spirv."); }
} // namespace ops

} // namespace spire::dialect
