// Attributes of the structured SPIR-V dialect: the compile-time values that ops carry (literals,
// enumerants, symbol references, constants, #spirv.vce), uniqued in the Context like types: two
// Attributes are equal exactly when they are the same attribute.
#pragma once

#include "spire/dialect/Types.h"
#include "spire/grammar/Grammar.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace spire::dialect {

namespace detail {
struct AttrStorage;
}

enum class AttrKind : uint8_t {
  Unit,       ///< present or absent: `{relaxed_precision}`
  Bool,       ///< true / false
  Integer,    ///< an integer of an integer type: `4 : i32`
  Float,      ///< a float of a float type: `1.0 : f32`
  String,     ///< "text"
  Type,       ///< a type as a value: the function type of spirv.func
  Array,      ///< [a, b, ...]
  Dense,      ///< dense<[...]> : vector<4xf32>: the scalar elements of a vector constant
  SymbolRef,  ///< @name
  Enum,       ///< an enumerant (or mask) of a grammar operand kind: StorageClass Function
  Vce,        ///< #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>
  Dictionary, ///< {name = value, ...}, sorted by name
  /// #spirv.interface_var_abi<(set, binding), StorageClass>: how an entry function's argument
  /// reaches the shader (the storage class is optional).
  InterfaceVarAbi,
  /// #spirv.entry_point_abi<workgroup_size = [x, y, z], subgroup_size = n>: an entry function's
  /// launch parameters (both optional).
  EntryPointAbi,
  /// #spirv.target_env<#spirv.vce<...>, Vendor:DeviceType:id, #spirv.resource_limits<...>>: what
  /// the target allows (the device info is optional).
  TargetEnv,
  /// #spirv.undef: an undefined value (OpUndef) inside a constant, an initializer or a
  /// specialization constant composite; its type is that of its place. spire's extension.
  Undef,
  /// #spirv.null: the null value (OpConstantNull) of a type no other attribute holds the zero
  /// of (pointers, events, structs with such members), as part of a constant or an
  /// initializer; its type is that of its place. spire's extension.
  Null,
  /// #spirv.linkage_attributes<linkage_name = name, linkage_type = <Import>>: the
  /// LinkageAttributes decoration of a function or global variable (str() is the name,
  /// enumValue() the LinkageType).
  LinkageAttributes,
  /// #spirv.tosa_ext_acc_type<INT32>: an enumerant of an enumeration the dialect defines itself
  /// rather than the grammar (TOSA.001000.1's, which its grammar leaves as integer constants):
  /// dialectEnum() says which, enumValue() the value.
  DialectEnum,
};

/// The enumerations of AttrKind::DialectEnum: TOSA.001000.1's accumulator type, NaN propagation
/// mode, resize mode and rounding mode, with MLIR's names.
enum class DialectEnumKind : uint8_t { TosaAccType, TosaNanMode, TosaResizeMode, TosaRoundingMode };

class Attribute;

/// A name and an attribute; names are interned in the Context.
struct NamedAttribute {
  std::string_view name;
  const detail::AttrStorage *value = nullptr;
  Attribute attr() const;
};

/// A uniqued attribute; the default-constructed Attribute is null.
class Attribute {
public:
  Attribute() = default;
  explicit Attribute(const detail::AttrStorage *s) : s_(s) {}
  explicit operator bool() const { return s_ != nullptr; }
  bool operator==(const Attribute &o) const { return s_ == o.s_; }
  bool operator!=(const Attribute &o) const { return s_ != o.s_; }

  AttrKind kind() const;
  bool is(AttrKind k) const { return s_ && kind() == k; }

  /// Integer, Float, Dense: the attribute's type; Type: the type it holds.
  Type type() const;
  bool boolValue() const;
  /// Integer: the value, sign-extended from its width unless the type is unsigned.
  int64_t intValue() const;
  /// Integer: the value's low `width` bits.
  uint64_t bits() const;
  double floatValue() const;
  /// String, SymbolRef: the text.
  std::string_view str() const;
  /// Array, Dense: the elements.
  std::span<const Attribute> elements() const;
  /// Enum: the operand kind and the value (a mask's bits for bit enums); DialectEnum: the value.
  grammar::OperandKind enumKind() const;
  uint32_t enumValue() const;
  /// DialectEnum: which enumeration.
  DialectEnumKind dialectEnum() const;
  /// Vce.
  uint32_t version() const;
  std::span<const uint32_t> capabilities() const;
  std::span<const std::string> extensions() const;
  /// Dictionary: entries sorted by name.
  std::span<const NamedAttribute> entries() const;
  Attribute lookup(std::string_view name) const;
  /// InterfaceVarAbi.
  uint32_t descriptorSet() const;
  uint32_t binding() const;
  std::optional<uint32_t> abiStorageClass() const;
  /// EntryPointAbi: the workgroup size (empty when not given) and the subgroup size.
  std::span<const uint32_t> workgroupSize() const;
  std::optional<uint32_t> subgroupSize() const;
  /// TargetEnv: the #spirv.vce it allows, the device info text ("ARM:IntegratedGPU", may be
  /// empty) and the resource limits (a Dictionary).
  Attribute targetVce() const;
  std::string_view deviceInfo() const;
  Attribute resourceLimits() const;

  const detail::AttrStorage *storage() const { return s_; }

private:
  const detail::AttrStorage *s_ = nullptr;
};

inline Attribute NamedAttribute::attr() const { return Attribute(value); }

// Factories: each returns the one attribute with these parameters in `context`.
namespace attr {
Attribute unit(Context &context);
Attribute boolean(Context &context, bool value);
/// `value` is truncated to the type's width (and sign- or zero-extended back).
Attribute integer(Context &context, Type type, int64_t value);
Attribute floating(Context &context, Type type, double value);
Attribute string(Context &context, std::string_view text);
Attribute type(Context &context, Type type);
Attribute array(Context &context, std::span<const Attribute> elements);
Attribute dense(Context &context, Type type, std::span<const Attribute> elements);
Attribute symbolRef(Context &context, std::string_view name);
Attribute enumerant(Context &context, grammar::OperandKind kind, uint32_t value);
Attribute vce(Context &context, uint32_t version, std::span<const uint32_t> capabilities,
              std::span<const std::string> extensions);
/// Sorts the entries by name; a later entry with the same name as an earlier one wins.
Attribute dictionary(Context &context, std::vector<NamedAttribute> entries);
Attribute interfaceVarAbi(Context &context, uint32_t descriptorSet, uint32_t binding,
                          std::optional<uint32_t> storageClass = std::nullopt);
Attribute entryPointAbi(Context &context, std::span<const uint32_t> workgroupSize,
                        std::optional<uint32_t> subgroupSize = std::nullopt);
/// `vce` is a Vce attribute; `limits` a Dictionary (null for none).
Attribute targetEnv(Context &context, Attribute vce, std::string_view deviceInfo = {},
                    Attribute limits = {});
Attribute undef(Context &context);
Attribute null(Context &context);
/// `type` is a LinkageType value.
Attribute linkage(Context &context, std::string_view name, uint32_t type);
Attribute dialectEnum(Context &context, DialectEnumKind kind, uint32_t value);
} // namespace attr

/// The Context's copy of `name`, valid while the Context lives.
std::string_view intern(Context &context, std::string_view name);

/// The attribute in MLIR's generic syntax ("4 : i32", "#spirv.storage_class<Function>",
/// "dense<[1, 2]> : vector<2xi32>").
/// It and the types it holds print in `version`'s syntax.
void print(Attribute attr, std::string &out, MlirVersion version = MlirVersion::Latest);
std::string toString(Attribute attr);

/// The enum attribute's name in MLIR's syntax: "storage_class" for StorageClass, and its
/// enumerant (or bits joined by `|`) as the grammar spells them.
std::string enumAttrName(grammar::OperandKind kind);
std::string enumText(grammar::OperandKind kind, uint32_t value);

/// A dialect enumeration's attribute name ("tosa_ext_acc_type"), and the kind of one (none when
/// `name` names none).
std::string_view dialectEnumName(DialectEnumKind kind);
std::optional<DialectEnumKind> dialectEnumNamed(std::string_view name);
/// An enumerant's name ("INT32"; empty for a value the enumeration lacks), and the value of a
/// name (none when the enumeration lacks it).
std::string_view dialectEnumText(DialectEnumKind kind, uint32_t value);
std::optional<uint32_t> dialectEnumValue(DialectEnumKind kind, std::string_view name);

/// The value of an enumerant MLIR names its own way (the KHR cooperative matrix layouts and
/// operands: RowMajor, ASigned, AccSat for RowMajorKHR, MatrixASignedComponentsKHR,
/// SaturatingAccumulationKHR), or false.
bool mlirEnumerantValue(grammar::OperandKind kind, std::string_view name, uint32_t &value);

} // namespace spire::dialect
