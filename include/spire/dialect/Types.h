// Types of the structured SPIR-V dialect (MLIR's SPIR-V dialect design, docs/seeds/001): builtin
// integer, float, vector, function and none types plus the dialect's own (!spirv.array,
// !spirv.rtarray, !spirv.ptr, !spirv.struct, !spirv.image, !spirv.sampled_image,
// !spirv.sampler, !spirv.matrix, !spirv.coopmatrix), uniqued in a Context: two Types are equal
// exactly when they are the same type.
#pragma once

#include "spire/support/Expected.h"
#include "spire/support/SmallFloat.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spire::dialect {

namespace detail {
struct TypeStorage;
struct AttrStore;
struct UnregisteredOps;
} // namespace detail

enum class TypeKind : uint8_t {
  None, ///< OpTypeVoid
  Integer,
  Float,
  Vector,
  Array,
  RuntimeArray,
  Pointer,
  Struct,
  Image,
  SampledImage,
  Sampler,
  Matrix,
  CooperativeMatrix,
  Function,
  /// A SPIR-V type the dialect gives no structure: acceleration structures, ray queries, hit
  /// objects, pipes, events, queues, OpTypeOpaque, ... Identified by its opcode and the words
  /// of its literal operands, and for OpTypeVmeImageINTEL its one type operand (elementType());
  /// printed as !spirv.<name>, the opname in snake_case.
  Opaque,
  /// OpTypeTensorARM (SPV_ARM_tensors): an element type and a shape, `!spirv.arm.tensor<2x?xi32>`,
  /// or no shape at all (unranked, `<*xi32>`).
  TensorArm,
  /// OpTypeGraphARM (SPV_ARM_graph): a graph's inputs and outputs, the type of a spirv.ARM.Graph
  /// (its function_type), `!spirv.arm.graph<(A, B) -> R>`; inputs() and results() as a Function's.
  GraphArm,
  /// MLIR's builtin ranked tensor of a static shape, `tensor<15xi8>`: no SPIR-V type, only the
  /// type of a dense attribute (`spirv.Constant dense<[1, 2]> : tensor<2xi8> : !spirv.array<2 x
  /// i8>`); elementType(), count() (the rank) and shape() as a TensorArm's.
  Tensor,
  /// OpTypeJointMatrixINTEL (SPV_INTEL_joint_matrix, from spire's grammar supplement): an
  /// element type, rows (count()), columns(), matrixLayout() and scope(), all literals:
  /// `!spirv.jointmatrix<8x16xi32, RowMajor, Subgroup>`.
  JointMatrix,
};

/// iN (signless: OpTypeInt N 0, and i1 for OpTypeBool), siN (OpTypeInt N 1), uiN.
enum class Signedness : uint8_t { Signless, Signed, Unsigned };

struct ImageInfo;
struct OpInfo;
struct StructMember;
struct MemberDecoration;

/// The operands of a cooperative matrix type after its component type, in SPIR-V's order
/// (OpTypeCooperativeMatrixNV has no use).
enum class CoopOperand : uint8_t { Scope, Rows, Columns, Use };

/// One operand of a cooperative matrix type: a literal, or (when `symbol` is not empty) the
/// specialization constant of that symbol, whose value the type does not know (`value` is 0).
struct CoopParam {
  uint32_t value = 0;
  std::string_view symbol;
  bool operator==(const CoopParam &) const = default;
};

/// A uniqued type; the default-constructed Type is null. Cheap to copy; valid while its Context
/// lives.
class Type {
public:
  Type() = default;
  explicit operator bool() const { return s_ != nullptr; }
  bool operator==(const Type &o) const { return s_ == o.s_; }
  bool operator!=(const Type &o) const { return s_ != o.s_; }

  TypeKind kind() const;
  bool is(TypeKind k) const { return s_ && kind() == k; }
  bool isBool() const; ///< i1

  // Integer and Float.
  unsigned width() const;
  /// Float: OpTypeFloat's FP Encoding operand (grammar::FPEncoding: BFloat16KHR, Float8E4M3EXT,
  /// Float8E5M2EXT), absent for IEEE binary floats. Printed as MLIR's bf16, f8E4M3FN, f8E5M2.
  std::optional<uint32_t> fpEncoding() const;
  Signedness signedness() const;
  // Vector, Array, RuntimeArray, Matrix (the column type), Pointer (the pointee), SampledImage
  // (the image type), CooperativeMatrix, Image (the sampled type), Opaque (its type operand,
  // null for most).
  Type elementType() const;
  /// Vector components, Array length, Matrix columns, CooperativeMatrix rows, TensorArm rank
  /// (kUnranked for none).
  uint32_t count() const;
  /// Array: the specialization constant its length is, or empty for a literal length.
  std::string_view lengthSymbol() const;
  /// ArrayStride of an Array, RuntimeArray or Pointer, 0 when it has none.
  uint32_t stride() const;
  /// Pointer: the storage class (SPIR-V enumerant value).
  uint32_t storageClass() const;
  const ImageInfo &image() const;
  /// CooperativeMatrix: columns, scope, use (use is ~0u for the NV form without one). An
  /// operand that is a specialization constant reads 0 here: coopParam says which.
  /// JointMatrix: columns and scope too.
  uint32_t columns() const;
  uint32_t scope() const;
  uint32_t use() const;
  /// JointMatrix: its layout (grammar::JointMatrixLayoutINTEL: RowMajor, ColumnMajor, PackedA,
  /// PackedB).
  uint32_t matrixLayout() const;
  /// CooperativeMatrix: one operand, a literal or a specialization constant's symbol.
  CoopParam coopParam(CoopOperand which) const;
  /// CooperativeMatrix: the KHR form, which has a use (a literal or a symbol).
  bool hasUse() const;
  // Struct.
  bool isIdentified() const;     ///< named (may be recursive), or literal
  std::string_view name() const; ///< identified structs
  bool hasBody() const;          ///< false for an identified struct not yet given members
  std::span<const StructMember> members() const;
  /// Decorations of the struct itself (Block, BufferBlock, ...), sorted; for a node payload
  /// array (Context::nodePayloadArray) its AMDX decorations.
  std::span<const MemberDecoration> structDecorations() const;
  /// A node payload array: the node name its PayloadNodeNameAMDX decoration gives, if it has one.
  std::string_view nodeName() const;
  /// A node payload array: the payload array its NodeSharesPayloadLimitsWithAMDX decoration
  /// names, or null.
  Type sharesPayloadLimitsWith() const;
  // Opaque: the declaring opcode and its operand words after the result id.
  uint32_t opcode() const;
  std::span<const uint32_t> words() const;
  // TensorArm: the dimensions (kDynamicDim for `?`), count() of them.
  std::span<const uint32_t> shape() const;
  static constexpr uint32_t kUnranked = ~0u;
  static constexpr uint32_t kDynamicDim = ~0u;
  // Function and GraphArm.
  std::span<const Type> inputs() const;
  std::span<const Type> results() const;

  const void *opaque() const { return s_; }

private:
  friend class Context;
  explicit Type(const detail::TypeStorage *s) : s_(s) {}
  const detail::TypeStorage *s_ = nullptr;
};

struct ImageInfo {
  Type sampledType;
  uint32_t dim = 0;     ///< SPIR-V Dim
  uint32_t depth = 0;   ///< 0 NoDepth, 1 IsDepth, 2 DepthUnknown
  uint32_t arrayed = 0; ///< 0 NonArrayed, 1 Arrayed
  uint32_t ms = 0;      ///< 0 SingleSampled, 1 MultiSampled
  uint32_t sampled = 0; ///< 0 SamplerUnknown, 1 NeedSampler, 2 NoSampler
  uint32_t format = 0;  ///< SPIR-V ImageFormat
  /// SPIR-V AccessQualifier (OpTypeImage's optional last operand, which OpenCL requires), ~0u
  /// when absent.
  uint32_t access = ~0u;
  bool operator==(const ImageInfo &) const = default;
};

/// A member decoration: the Decoration enumerant and, for those with one, its literal operand
/// (BuiltIn=0, MatrixStride=16) or its string (UserSemantic="TEXCOORD"; `value` is then empty).
struct MemberDecoration {
  uint32_t decoration = 0;
  std::optional<uint32_t> value;
  std::optional<std::string> text;
  bool operator==(const MemberDecoration &) const = default;
};

struct StructMember {
  Type type;
  std::optional<uint32_t> offset;
  std::vector<MemberDecoration> decorations;
  bool operator==(const StructMember &) const = default;
};

/// Owns and uniques types.
class Context {
public:
  Context();
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  Type none();
  Type integer(unsigned width, Signedness signedness = Signedness::Signless);
  Type boolean() { return integer(1); }
  /// `encoding`: OpTypeFloat's FP Encoding, none for IEEE floats.
  Type floating(unsigned width, std::optional<uint32_t> encoding = std::nullopt);
  Type vector(Type element, uint32_t count);
  Type array(Type element, uint32_t count, uint32_t stride = 0);
  /// An array whose length is the specialization constant `lengthSymbol` (a spirv.SpecConstant's
  /// symbol): `!spirv.array<@N x f32>`.
  Type specArray(Type element, std::string_view lengthSymbol, uint32_t stride = 0);
  Type runtimeArray(Type element, uint32_t stride = 0);
  /// `stride`: the pointer type's ArrayStride (for OpPtrAccessChain), 0 when it has none.
  Type pointer(Type pointee, uint32_t storageClass, uint32_t stride = 0);
  Type image(const ImageInfo &info);
  Type sampledImage(Type image);
  Type sampler();
  Type matrix(Type column, uint32_t columns);
  Type cooperativeMatrix(Type element, uint32_t rows, uint32_t columns, uint32_t scope,
                         uint32_t use = ~0u);
  /// A cooperative matrix whose operands (`params`, in CoopOperand order: three for the NV
  /// form, four for the KHR form) may be specialization constants, named by their symbols:
  /// `!spirv.coopmatrix<@n x 8 x f16, Subgroup>`.
  Type cooperativeMatrix(Type element, std::span<const CoopParam> params);
  /// An INTEL joint matrix (`layout`: a JointMatrixLayoutINTEL value, `scope`: a Scope).
  Type jointMatrix(Type element, uint32_t rows, uint32_t columns, uint32_t layout, uint32_t scope);
  Type function(std::span<const Type> inputs, std::span<const Type> results);
  /// MLIR's builtin `tensor<...>` of a static `shape` (the type of dense attributes only).
  Type tensor(Type element, std::span<const uint32_t> shape);
  /// The type of an ARM graph (OpTypeGraphARM) with these inputs and outputs.
  Type graphArm(std::span<const Type> inputs, std::span<const Type> results);
  /// An ARM tensor of `shape` (Type::kDynamicDim for a dimension not known), or unranked when
  /// `shape` is none.
  Type tensorArm(Type element, std::optional<std::span<const uint32_t>> shape);
  /// `operand`: the type operand of the opaque types that have one (OpTypeVmeImageINTEL's
  /// image type), else null.
  Type opaque(uint32_t opcode, std::span<const uint32_t> words = {}, Type operand = {});
  /// An OpTypeNodePayloadArrayAMDX (SPV_AMDX_shader_enqueue) of records of type `payload`: an
  /// Opaque type whose decorations are part of it, since two outputs of the same record to
  /// different nodes differ only in them. `decorations`: NodeMaxPayloadsAMDX,
  /// PayloadNodeBaseIndexAMDX and PayloadNodeArraySizeAMDX with their constants' values,
  /// PayloadNodeSparseArrayAMDX, and PayloadNodeNameAMDX (without a value) when `nodeName` is
  /// the node's name, NodeSharesPayloadLimitsWithAMDX (without a value) when
  /// `sharesLimitsWith` is the payload array it names. Printed
  /// `!spirv.node_payload_array_amdx<T, NodeMaxPayloadsAMDX=4, PayloadNodeNameAMDX="name">`.
  Type nodePayloadArray(Type payload, std::span<const MemberDecoration> decorations,
                        std::string_view nodeName = {}, Type sharesLimitsWith = {});
  /// A struct without a name, uniqued by its members.
  Type literalStruct(std::span<const StructMember> members,
                     std::span<const MemberDecoration> decorations = {});
  /// The struct named `name` (the same one on every call), without members until
  /// setStructBody gives them: what a recursive type refers to.
  Type identifiedStruct(std::string_view name);
  /// Gives an identified struct its members; false when it already has different ones.
  bool setStructBody(Type identified, std::span<const StructMember> members,
                     std::span<const MemberDecoration> decorations = {});

  /// Where the attributes of this context live (Attributes.h).
  detail::AttrStore &attrStore() { return *attrs_; }

  /// The record of the op named `name` of no dialect spire has (`foo.bar`, what MLIR's tools
  /// take with --allow-unregistered-dialect): one per name, owned by this context, with the
  /// name and nothing else (OpInfo::kUnregistered: no key, syntax or rules). Its ops print in
  /// the generic form, keep their operands, results, attributes and regions, and are never
  /// serialized.
  const OpInfo &unregisteredOp(std::string_view name);

private:
  Type unique(detail::TypeStorage &&key);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<detail::AttrStore> attrs_;
  std::unique_ptr<detail::UnregisteredOps> unregistered_;
};

/// The MLIR release whose SPIR-V dialect text is read or written, oldest first: MLIR 15 (the
/// `spv.` prefix before the rename to `spirv.`), MLIR 16 (`spirv.`; atomics' scope and semantics
/// quoted; types without the decorations of structs themselves and the strides of pointers,
/// which it has no syntax for) and today's. Types and attributes print in the version's syntax.
enum class MlirVersion : uint8_t { Mlir15, Mlir16, Latest };
/// The dialect's name in `version`'s text: "spv" in MLIR 15, "spirv" since.
std::string_view dialectPrefix(MlirVersion version);
/// `name` as `version` writes it: a name of the dialect (`spirv.X`: an op, an attribute) with
/// the version's prefix, any other as it is.
std::string spelledIn(std::string_view name, MlirVersion version);

/// The type in MLIR's syntax, as mlir-translate-16 prints it ("!spirv.ptr<vector<4xf32>,
/// Uniform>", "!spirv.struct<Block, (f32 [0], i32 [4])>").
std::string toString(Type type);
void print(Type type, std::string &out, MlirVersion version = MlirVersion::Latest);

/// Whether `type` is an OpTypeNodePayloadArrayAMDX (Context::nodePayloadArray), which access
/// chains index as an array of its records.
bool isNodePayloadArray(Type type);

/// The narrow format of a float type (f16, bf16, f8E4M3FN, f8E5M2), none for f32 and f64.
std::optional<SmallFloat> smallFloatOf(Type type);
/// `value` as the bits of a value of float type `type` (rounded to nearest even; a null type is
/// f64), and back: the encoding of constants in SPIR-V and of hexadecimal floats in MLIR's text.
uint64_t bitsOfFloat(Type type, double value);
double floatOfBits(Type type, uint64_t bits);

/// Parses one type (all of `text`). Errors name the column.
Expected<Type> parseType(Context &context, std::string_view text);

} // namespace spire::dialect
