// The SPIR-V grammar as tables: instructions, operand kinds, enumerants, extended instruction sets.
// Generated at build time from the grammar JSON files (see src/grammar/generate_tables.py).
#pragma once

#include "spire/grammar/Generated.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace spire::grammar {

enum class Quantifier : uint8_t { One, Optional, Variadic };

/// A version word as in the module header: 0x00MMmm00. kNoVersion means "only through an
/// extension or capability" as a first version, and "no last version" as a last version.
inline constexpr uint32_t kNoVersion = 0xFFFFFFFFu;
constexpr uint32_t makeVersion(unsigned major, unsigned minor) {
  return (major << 16) | (minor << 8);
}
constexpr unsigned versionMajor(uint32_t v) { return (v >> 16) & 0xFF; }
constexpr unsigned versionMinor(uint32_t v) { return (v >> 8) & 0xFF; }

/// What a literal number is: an integer, an IEEE float, or a float with OpTypeFloat's FP
/// Encoding (bfloat16, the 8-bit floats of SPV_EXT_float8).
enum class NumberKind : uint8_t { None, Unsigned, Signed, Float, BFloat16, Float8E4M3, Float8E5M2 };

/// Any of the float kinds.
constexpr bool isFloatKind(NumberKind k) {
  return k == NumberKind::Float || k == NumberKind::BFloat16 || k == NumberKind::Float8E4M3 ||
         k == NumberKind::Float8E5M2;
}

/// A decoded operand: which words of an instruction it covers and what they mean.
struct DecodedOperand {
  uint16_t offset;   ///< first word, counted from the instruction's opcode word
  uint16_t numWords; ///< words it covers
  OperandKind kind;
  NumberKind number; ///< for literal numbers
  uint16_t bitWidth; ///< for literal numbers
};
static_assert(sizeof(DecodedOperand) == 8);

struct OperandDesc {
  OperandKind kind;
  Quantifier quantifier;
  std::string_view name;
};

/// When an instruction, enumerant or extended instruction may be used.
struct Availability {
  uint32_t minVersion;
  uint32_t lastVersion;
  std::span<const Capability> capabilities;
  std::span<const Extension> extensions;
  bool provisional;
};

struct InstructionDesc {
  std::string_view name; ///< with the "Op" prefix
  uint16_t opcode;
  InstructionClass cls;
  bool hasResultType;
  bool hasResult;
  uint8_t leadingOneWordOperands; ///< how many operands at the start are one id or integer each
  /// How many operands at the start are required and one word each: ids, plain integers and
  /// enumerants.
  uint8_t requiredWordOperands;
  /// True when the operands after the required one-word ones may all be absent. Then an instance
  /// with n operand words, n >= requiredWordOperands and n <= fixedOperands.size(), whose
  /// enumerant operands are valid and bring no parameters, has the decoded operands
  /// fixedOperands.first(n): ids, plain integers and enumerants, one word each.
  bool fixedShape;
  std::span<const DecodedOperand> fixedOperands;
  std::span<const OperandDesc> operands; ///< all operands, result type and result included
  Availability availability;
  std::span<const std::string_view> aliases;
};

struct EnumerantDesc {
  std::string_view name;
  uint32_t value;
  std::span<const OperandDesc> parameters;
  Availability availability;
  std::span<const std::string_view> aliases;
};

struct NameIndex {
  std::string_view name;
  int index;
};

struct OperandKindDesc {
  std::string_view name;
  OperandCategory category;
  ExtInstSet owner;                          ///< None for the core grammar
  std::span<const EnumerantDesc> enumerants; ///< sorted by value
  std::span<const NameIndex> enumerantNames; ///< sorted by name, aliases included
  std::span<const OperandKind> bases;        ///< parts of a composite kind
  bool literalFloat;                         ///< a one-word floating-point literal
};

struct ExtInstDesc {
  std::string_view name;
  uint32_t opcode;
  std::span<const OperandDesc> operands;
  Availability availability;
};

struct ExtInstSetDesc {
  ExtInstSet id;
  std::string_view key; ///< the grammar file's name between "extinst." and ".grammar.json"
  std::span<const ExtInstDesc> instructions; ///< sorted by opcode
  std::span<const NameIndex> names;
};

/// A SPIR-V generator (tool) registered in spir-v.xml: the high 16 bits of the header's
/// generator word.
struct GeneratorDesc {
  uint32_t id;
  std::string_view vendor;
  std::string_view tool; ///< empty when the registry names only the vendor
};

/// The instruction with this opcode, or null.
const InstructionDesc *findInstruction(uint32_t opcode);
/// The instruction with this name or alias ("OpTypeInt"), or null.
const InstructionDesc *findInstruction(std::string_view name);
std::span<const InstructionDesc> instructions();

/// Whether OpSpecConstantOp may perform an operation (3.32.7): in every module, only with the
/// Shader or only with the Kernel capability, or not at all. OpUConvert counts for every module
/// (SPIR-V 1.4 added it there; before, Kernel modules only); the cooperative matrix lengths of
/// SPV_NV_cooperative_matrix and SPV_KHR_cooperative_matrix count for every module.
enum class SpecConstantOperation : uint8_t { No, Any, ShaderOnly, KernelOnly };
SpecConstantOperation specConstantOperation(uint32_t opcode);

const OperandKindDesc &operandKind(OperandKind kind);
/// The canonical name of a kind; decoder-added kinds have names of their own.
std::string_view operandKindName(OperandKind kind);
/// The grammar's operand kind of that name ("CooperativeMatrixLayout"), or nothing (a kind
/// only newer grammars have).
std::optional<OperandKind> findOperandKind(std::string_view name);
inline OperandCategory operandCategory(OperandKind kind) {
  return kOperandCategories[static_cast<unsigned>(kind)];
}
/// The enumerant of a value or bit, or null.
const EnumerantDesc *findEnumerant(OperandKind kind, uint32_t value);
const EnumerantDesc *findEnumerant(OperandKind kind, std::string_view name);

/// A capability in force: declared, or implicitly declared by one that is (the grammar lists
/// what a capability implicitly declares as its "capabilities").
struct CapabilityInForce {
  uint32_t capability;
  uint32_t declaredBy; ///< index into the declared list of the capability that brings it in
};
/// The closure of `declared` under implicit declaration: the declared capabilities first (each
/// once, in order), then what they imply, transitively, each once. Unknown values are kept and
/// imply nothing.
std::vector<CapabilityInForce> capabilityClosure(std::span<const uint32_t> declared);

std::span<const ExtInstSetDesc> extInstSets();
const ExtInstSetDesc *extInstSet(ExtInstSet id);
/// The set an OpExtInstImport name refers to ("GLSL.std.450", "OpenCL.std",
/// "NonSemantic.ClspvReflection.5"), or null when the grammar has none.
const ExtInstSetDesc *findExtInstSet(std::string_view importName);
const ExtInstDesc *findExtInst(const ExtInstSetDesc &set, uint32_t number);
const ExtInstDesc *findExtInst(const ExtInstSetDesc &set, std::string_view name);

std::string_view extensionName(Extension ext);
std::optional<Extension> findExtension(std::string_view name);
std::span<const std::string_view> extensionNames();

/// The registered generator with this tool id (the generator word's high 16 bits), or null.
const GeneratorDesc *findGenerator(uint32_t toolId);
std::span<const GeneratorDesc> generators();

/// Version and revision of the core grammar the tables were generated from.
uint32_t grammarVersion();
unsigned grammarRevision();

} // namespace spire::grammar
